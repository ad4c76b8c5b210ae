/* Compiled runs (gpu_model/compile) must give bit for bit what the interpreter gives: every
 * instruction they inline, run by a whole warp over special values (NaN pairs of different
 * payloads, infinities, signed zeros, denormals, INT_MIN, -1), once with the program's compiled
 * runs and once with them removed; each program must have compiled runs, or the comparison would
 * compare the interpreter with itself. Also: a missing compiler gives an error and no runs (the
 * interpreter then runs everything), a second build of one source is found in the cache, and the
 * generated source carries no text from the shader. */
#include "gm_test.h"
#include "gm_special_values.h"
#include "compile/gm_native.h"

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


/* Each is compiled with a second use of its result, so a run has at least two inlined
 * instructions; chains test values kept in locals across instructions and dead stores. */
static const char *const float_exprs[] = {
    "a + b", "a - b", "a * b", "a / b", "-a", "a * b.y", "a * u.x + u.wzyx", "u",
    "vec4(dot(a, b), dot(a.xyz, b.xyz), dot(a.xy, b.xy), 0.5)", "vec4(i)", "vec4(uvec4(j))",
    "fract(a)", "floor(a)", "abs(a)", "mix(a, b, b.yzwx)", "clamp(a, b, b.wzyx)", "min(a, b)",
    "max(a, b)", "step(a, b)", "vec4(a.zx, b.wy)",
    /* a NaN's sign after negation and fabs: a compiler that moves a negation ((-a) * 2 into
       a * -2, (-a) * (-a) into a * a) changes it */
    "-a * 2.0", "(-a) * (-a)", "abs(a) * abs(a) - a", "(-a) + (-a)",
    "normalize(a)", "vec4(normalize(a.xyz), length(a))", "vec4(length(a.xy), length(b.x), normalize(a.zw))",
    "sqrt(a) + inversesqrt(b)",
    "fract(a * 1.7 + b * u.x) * mix(a, b, 0.25) - vec4(dot(a, b))",
    ("vec4(lessThan(a, b)) + vec4(equal(a, b)) * 2.0 + vec4(greaterThanEqual(a, b)) * 4.0 + "
     "vec4(notEqual(a, b)) * 8.0 + vec4(lessThanEqual(a, b)) * 16.0 + vec4(greaterThan(a, b)) * 32.0")};
/* Bodies computing r (vec4 r = vec4(0) first): loops a whole warp runs together, loops whose lanes
 * leave at different iterations (the compiled flow hands the diverging branch back), and a loop
 * that never ends (the loop limiter ends it after 65535 iterations: the interpreter's branch). */
static const char *const flow_bodies[] = {
    "{ r = a; for (int k = 0; k < 7; k++) { r = fract(r * 1.7 + b); r = mix(r, b, 0.25) + r.yzwx * 0.1; } }",
    "{ r = a; for (int k = 0; k < (i.x & 7); k++) { r = r * 0.5 + b; } }",
    "{ r = b; for (int k = 0; k < 3; k++) { if (u.w > 0.5) r = r + a; else r = r - a; r = r * 0.75; } }",
    "{ r = b; for (int k = 0; k < 4; k++) { if (a.x > 0.0) r = r * a; else r = r + b.wzyx; } }",
    "{ r = a; for (;;) { r = r * 0.5 + b; if (u.x > 1e30) break; } }",
    "{ r = a; int k = 0; while (k < 5) { k++; if (k == 3) continue; r = r + b * float(k); } }"};
static const char *const int_exprs[] = {
    "i + j", "i - j", "i * j", "i & j", "i | j", "i ^ j", "~i",
    "ivec4(equal(i, j))", "ivec4(notEqual(i, j))", "ivec4(lessThan(i, j))",
    "ivec4(lessThanEqual(i, j))", "ivec4(greaterThan(i, j))", "ivec4(greaterThanEqual(i, j))",
    "ivec4(lessThan(uvec4(i), uvec4(j)))", "ivec4(greaterThanEqual(uvec4(i), uvec4(j)))",
    "(i * 3 + j) ^ (i & ~j) - ivec4(floatBitsToInt(a + b))"};

static int compiled_programs, programs, flow_programs;



static void check_expr(const char *expr, int is_int, int seed)
{
    char src[1024];
    /* an expression initializes r; a body ({ ... }) computes it from vec4(0.0) */
    const int body = expr[0] == '{';
    snprintf(src, sizeof src,
             GM_SPECIAL_INPUTS
             "layout(location=0) out %s o;\n"
             "void main() { %s r = %s; %s o = r + r; }\n",
             is_int ? "ivec4" : "vec4", is_int ? "ivec4" : "vec4", body ? "vec4(0.0)" : expr, body ? expr : "");
    gm_compile_result cr;
    gm_program *p = gm_special_program(src, "native.frag", expr, &cr);
    CHECK(p != NULL);
    if (!p)
        return;
    programs++;
    int runs = 0;
    for (int pc = 0; p->native && pc < p->code_count; pc++)
        runs += p->native[pc] != NULL || (p->native_flow_entry && p->native_flow_entry[pc]);
    flow_programs += p->native_flow != NULL;
    if (runs == 0) {
        fprintf(stderr, "%s: no compiled run\n", expr);
        CHECK(0);
    }
    compiled_programs += runs > 0;

    const uint32_t u[4] = {0xffc00003u, 0x80000000u, 0x00000002u, 0x3f800000u};
    gm_program_set_uniform_by_name(p, "u", u, 1);
    gm_warp *w = gm_warp_create(p, 0);
    uint32_t (*in[4])[GM_LANES];
    const char *names[4] = {"a", "b", "i", "j"};
    for (int v = 0; v < 4; v++)
        in[v] = gm_warp_var_lanes(w, gm_program_find_var(p, names[v], GM_VAR_INPUT));
    uint32_t (*o)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "o", GM_VAR_OUTPUT));
    CHECK(o && in[0] && in[1] && in[2] && in[3]);
    if (o && in[0] && in[1] && in[2] && in[3]) {
        uint32_t native_out[4][GM_LANES], interp_out[4][GM_LANES];
        gm_native_fn *table = p->native;
        uint8_t *flow = p->native_flow_entry;
        gm_fill_special(in, seed);
        int ok = gm_run_special(w, 0xffffffffu, o, native_out) == 0;
        const uint64_t issued = gm_warp_issued(w), lanes = gm_warp_lane_instructions(w);
        const uint32_t limited = gm_warp_loops_limited(w);
        p->native = NULL; /* the interpreter alone */
        p->native_flow_entry = NULL;
        gm_fill_special(in, seed);
        ok = ok && gm_run_special(w, 0xffffffffu, o, interp_out) == 0;
        p->native = table;
        p->native_flow_entry = flow;
        CHECK(ok);
        if (issued != gm_warp_issued(w) || lanes != gm_warp_lane_instructions(w) ||
            limited != gm_warp_loops_limited(w)) {
            fprintf(stderr, "%s (seed %d): issued %llu, lane instructions %llu, loops limited %u; interpreter %llu, "
                            "%llu, %u\n", expr, seed, (unsigned long long)issued, (unsigned long long)lanes, limited,
                    (unsigned long long)gm_warp_issued(w), (unsigned long long)gm_warp_lane_instructions(w),
                    gm_warp_loops_limited(w));
            CHECK(0);
        }
        int bad = 0;
        for (int k = 0; ok && k < 4; k++)
            for (int l = 0; l < GM_LANES; l++)
                if (native_out[k][l] != interp_out[k][l] && bad++ < 3)
                    fprintf(stderr, "%s (seed %d): component %d lane %d: 0x%08x, interpreter 0x%08x\n", expr,
                            seed, k, l, native_out[k][l], interp_out[k][l]);
        CHECK(bad == 0);
    }
    gm_warp_destroy(w);
    gm_program_destroy(p);
    gm_compile_result_free(&cr);
}

static int count_entries(const char *dir, const char *suffix)
{
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t len = strlen(e->d_name), sl = strlen(suffix);
        n += len > sl && strcmp(e->d_name + len - sl, suffix) == 0;
    }
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    if (system("command -v cc > /dev/null 2>&1") != 0) {
        fprintf(stderr, "no C compiler on PATH: skipped\n");
        return 77;
    }
    char cache[] = "/tmp/gm-native-test.XXXXXX";
    CHECK(mkdtemp(cache) != NULL);
    setenv("GLREPLAY_MODEL_COMPILE_CACHE", cache, 1);
    setenv("GLREPLAY_MODEL_COMPILE", "1", 1);
    CHECK(gm_native_enabled());

    for (int seed = 0; seed < 3; seed++) {
        for (size_t e = 0; e < sizeof float_exprs / sizeof float_exprs[0]; e++)
            check_expr(float_exprs[e], 0, seed);
        for (size_t e = 0; e < sizeof int_exprs / sizeof int_exprs[0]; e++)
            check_expr(int_exprs[e], 1, seed);
        for (size_t e = 0; e < sizeof flow_bodies / sizeof flow_bodies[0]; e++)
            check_expr(flow_bodies[e], 0, seed);
    }
    CHECK(compiled_programs == programs && programs > 0);
    CHECK(flow_programs >= 3 * 4); /* the loops, at least, run as compiled flow */

    /* the cache: one object per distinct source, and a second build of a source reuses it */
    const int objects = count_entries(cache, ".so");
    CHECK(objects > 0 && objects <= programs);
    static const char tiny[] = "int glr_run_0(void) { return 0; }\n";
    char err[256] = "";
    void *lib = gm_native_build(tiny, err, sizeof err);
    CHECK(lib != NULL);
    void *again = gm_native_build(tiny, err, sizeof err);
    CHECK(again != NULL);
    CHECK(count_entries(cache, ".so") == objects + 1);
    CHECK(count_entries(cache, ".c") == 0 && count_entries(cache, ".tmp") == 0);

    /* a missing compiler: an error, no object */
    setenv("GLREPLAY_MODEL_CC", "/nonexistent/cc", 1);
    err[0] = 0;
    void *none = gm_native_build("int glr_run_1(void) { return 1; }\n", err, sizeof err);
    CHECK(none == NULL);
    CHECK(strstr(err, "no C compiler") != NULL);
    /* a source the compiler rejects: its first message, no object */
    unsetenv("GLREPLAY_MODEL_CC");
    err[0] = 0;
    none = gm_native_build("this is not C\n", err, sizeof err);
    CHECK(none == NULL);
    CHECK(strstr(err, "the C compiler failed") != NULL);

    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", cache);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", cache);
    TEST_DONE();
}
