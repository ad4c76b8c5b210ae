/* The executor's pre-decoded form (gpu_model/exec/gm_exec_fast.c) must give bit for bit what
 * the general path (exec_alu) gives: every opcode it handles, run by a fully active warp and by
 * a partially active one over special values (NaN, infinities, signed zeros, denormals,
 * INT_MIN, -1), once with the program's handler table and once with it removed. Each program
 * must also have handlers installed in both tables (whole warp, partial warp), or the
 * comparison would compare the general path with itself. */
#include "gm_test.h"
#include "gm_special_values.h"
#include "exec/gm_exec.h"

#include <stdint.h>
#include <string.h>


static const char *const float_exprs[] = {
    "a + b", "a - b", "a * b", "a / b", "-a", "a * b.y",
    "vec4(dot(a, b), dot(a.xyz, b.xyz), dot(a.xy, b.xy), 0.5)", "vec4(i)", "vec4(uvec4(j))",
    /* GLSL.std.450 */
    "fract(a)", "floor(a)", "ceil(a)", "trunc(a)", "round(a)", "roundEven(a)", "abs(a)",
    "sign(a)", "mix(a, b, b.yzwx)", "clamp(a, b, b.wzyx)", "min(a, b)", "max(a, b)",
    "pow(a, b)", "exp2(a)", "log2(a)", "exp(a)", "log(a)", "sqrt(a)", "inversesqrt(a)",
    "sin(a)", "cos(a)", "atan(a, b)", "normalize(a)", "vec4(length(a), distance(a, b), 0, 1)",
    "step(a, b)", "smoothstep(a, b, b.yxwz)", "reflect(a, b)", "vec4(cross(a.xyz, b.xyz), 1)",
    "ldexp(a, i)", "modf(a, o) + o", "u", "a * u.x + u.wzyx", "vec4(a.zx, b.wy)", "fma(a, b, b.zwxy)", "faceforward(a, b, b.wxyz)"};
static const char *const int_exprs[] = {
    "i + j", "i - j", "i * j", "i & j", "i | j", "i ^ j", "~i",
    "ivec4(equal(i, j))", "ivec4(notEqual(i, j))", "ivec4(lessThan(i, j))",
    "ivec4(lessThanEqual(i, j))", "ivec4(greaterThan(i, j))", "ivec4(greaterThanEqual(i, j))",
    "ivec4(lessThan(uvec4(i), uvec4(j)))", "ivec4(greaterThanEqual(uvec4(i), uvec4(j)))",
    "ivec4(equal(a, b))", "ivec4(notEqual(a, b))", "ivec4(lessThan(a, b))",
    "ivec4(lessThanEqual(a, b))", "ivec4(greaterThan(a, b))", "ivec4(greaterThanEqual(a, b))",
    "min(i, j)", "max(i, j)", "clamp(i, j, j.wzyx)", "abs(i)", "sign(i)", "findMSB(i)",
    "findLSB(i)", "ivec4(min(uvec4(i), uvec4(j)))", "ivec4(floatBitsToInt(a))"};



static void check_expr(const char *expr, int is_int, int seed)
{
    char src[1024];
    snprintf(src, sizeof src,
             GM_SPECIAL_INPUTS
             "layout(location=0) out %s o;\n"
             "void main() { o = %s; }\n",
             is_int ? "ivec4" : "vec4", expr);
    gm_compile_result cr;
    gm_program *p = gm_special_program(src, "fast.frag", expr, &cr);
    CHECK(p != NULL);
    if (!p)
        return;
    int handlers = 0, masked_handlers = 0;
    for (int pc = 0; pc < p->code_count; pc++) {
        handlers += gm_exec_fast_handler(p, pc, 0) != NULL;
        masked_handlers += gm_exec_fast_handler(p, pc, 1) != NULL;
    }
    if (handlers == 0 || masked_handlers == 0)
        fprintf(stderr, "%s: no pre-decoded handler (%d whole-warp, %d partial)\n", expr, handlers,
                masked_handlers);
    CHECK(handlers > 0 && masked_handlers > 0);

    /* NaN, -0, a denormal and 1 (unused in most expressions: then not found, which is fine) */
    const uint32_t u[4] = {0xffc00003u, 0x80000000u, 0x00000002u, 0x3f800000u};
    const uint32_t u_other[4] = {0x40000000u, 0x7f800000u, 0xc0000000u, 0x00000000u};
    gm_program_set_uniform_by_name(p, "u", u, 1); /* one vec4 element */
    gm_warp *w = gm_warp_create(p, 0);
    uint32_t (*in[4])[GM_LANES];
    const char *names[4] = {"a", "b", "i", "j"};
    for (int v = 0; v < 4; v++) {
        in[v] = gm_warp_var_lanes(w, gm_program_find_var(p, names[v], GM_VAR_INPUT));
        CHECK(in[v] != NULL);
    }
    uint32_t (*o)[GM_LANES] = gm_warp_var_lanes(w, gm_program_find_var(p, "o", GM_VAR_OUTPUT));
    CHECK(o != NULL);
    if (!o || !in[0] || !in[1] || !in[2] || !in[3]) {
        gm_warp_destroy(w);
        gm_program_destroy(p);
        gm_compile_result_free(&cr);
        return;
    }
    /* the whole warp, then two partial masks. Before each run a whole-warp run over other
     * inputs leaves other words in every register, so a partial run that wrote an inactive
     * lane, or left an active one unwritten, shows as a difference */
    static const gm_mask masks[3] = {0xffffffffu, 0x5a3c96e1u, 0x00000001u};
    for (int m = 0; m < 3; m++) {
        uint32_t fast_out[4][GM_LANES], general_out[4][GM_LANES], scrap[4][GM_LANES];
        gm_fast_op *table = p->fast;
        int ok = 1;
        for (int path = 0; path < 2; path++) {
            p->fast = table;
            gm_fill_special(in, seed + 5);
            gm_program_set_uniform_by_name(p, "u", u_other, 1);
            ok = ok && gm_run_special(w, 0xffffffffu, o, scrap) == 0;
            gm_fill_special(in, seed);
            gm_program_set_uniform_by_name(p, "u", u, 1);
            p->fast = path ? NULL : table; /* path 1: the general path alone */
            ok = ok && gm_run_special(w, masks[m], o, path ? general_out : fast_out) == 0;
        }
        p->fast = table;
        CHECK(ok);
        int bad = 0;
        for (int k = 0; ok && k < 4; k++)
            for (int l = 0; l < GM_LANES; l++)
                if (fast_out[k][l] != general_out[k][l] && bad++ < 3)
                    fprintf(stderr, "%s: mask 0x%08x component %d lane %d: 0x%08x, general path 0x%08x\n",
                            expr, masks[m], k, l, fast_out[k][l], general_out[k][l]);
        CHECK(bad == 0);
    }
    gm_warp_destroy(w);
    gm_program_destroy(p);
    gm_compile_result_free(&cr);
}

int main(void)
{
    for (int seed = 0; seed < 3; seed++) {
        for (size_t e = 0; e < sizeof float_exprs / sizeof float_exprs[0]; e++)
            check_expr(float_exprs[e], 0, seed);
        for (size_t e = 0; e < sizeof int_exprs / sizeof int_exprs[0]; e++)
            check_expr(int_exprs[e], 1, seed);
    }
    TEST_DONE();
}
