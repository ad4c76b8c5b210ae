/* Control flow on the SIMT executor: divergent branches and loops that reconverge,
 * break/continue, calls with early return, discard, switch, derivatives over quads,
 * helper lanes, the observer hook, single stepping, the call stack and reading
 * variables at a stop. */
#include "gm_rig.h"

#include "exec/gm_exec.h" /* gm_warp_set_quad_dy */

#include <math.h>
#include <spirv/unified1/spirv.h>

static const char *cf_src =
    "#version 450\n"                                   /* 1 */
    "layout(location=0) flat in int n;\n"              /* 2 */
    "layout(location=1) in float x;\n"                 /* 3 */
    "layout(location=0) out vec4 o;\n"                 /* 4 */
    "float f(float v, int k) {\n"                      /* 5 */
    "  if (k > 3)\n"                                   /* 6 */
    "    return v * 2.0;\n"                            /* 7 */
    "  float s = 0.0;\n"                               /* 8 */
    "  for (int t = 0; t < k; t++) {\n"                /* 9 */
    "    if (t == 2) continue;\n"                      /* 10 */
    "    s += v + float(t);\n"                         /* 11 */
    "  }\n"                                            /* 12 */
    "  return s;\n"                                    /* 13 */
    "}\n"                                              /* 14 */
    "void main() {\n"                                  /* 15 */
    "  float acc = 0.0;\n"                             /* 16 */
    "  int i = 0;\n"                                   /* 17 */
    "  while (true) {\n"                               /* 18 */
    "    if (i >= n) break;\n"                         /* 19 */
    "    acc += f(x, i);\n"                            /* 20 */
    "    i++;\n"                                       /* 21 */
    "  }\n"                                            /* 22 */
    "  if (n % 3 == 0 && x > 0.5) acc = -acc;\n"       /* 23 */
    "  else if (n % 3 == 1) { acc += 100.0; }\n"       /* 24 */
    "  o = vec4(acc, float(i), 0.0, 1.0);\n"           /* 25 */
    "}\n";

static float ref_f(float v, int k)
{
    if (k > 3)
        return v * 2.0f;
    float s = 0.0f;
    for (int t = 0; t < k; t++) {
        if (t == 2)
            continue;
        s += v + (float)t;
    }
    return s;
}

static float ref_main(int n, float x, int *iout)
{
    float acc = 0.0f;
    int i = 0;
    while (1) {
        if (i >= n)
            break;
        acc += ref_f(x, i);
        i++;
    }
    if (n % 3 == 0 && x > 0.5f)
        acc = -acc;
    else if (n % 3 == 1)
        acc += 100.0f;
    *iout = i;
    return acc;
}

static int lane_n(int l) { return (l * 5) % 7; }
static float lane_x(int l) { return (float)l * 0.1f; }

static void setup_cf(gm_rig *r)
{
    for (int l = 0; l < GM_LANES; l++) {
        rig_seti(r, "n", 0, l, lane_n(l));
        rig_setf(r, "x", 0, l, lane_x(l));
    }
}

static int check_cf_outputs(gm_rig *r, gm_mask active)
{
    int bad = 0;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((active >> l) & 1))
            continue;
        int i;
        float want = ref_main(lane_n(l), lane_x(l), &i);
        float got = rig_outf(r, "o", 0, l), goti = rig_outf(r, "o", 1, l);
        if (!feq(got, want, 1e-5f) || goti != (float)i) {
            fprintf(stderr, "lane %d: got %g,%g want %g,%d\n", l, got, goti, want, i);
            bad++;
        }
    }
    return bad;
}

static void test_divergence(void)
{
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, cf_src) != 0) {
        CHECK(0);
        return;
    }
    setup_cf(&r);
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    CHECK(check_cf_outputs(&r, 0xffffffffu) == 0);
    uint64_t full_issued = gm_warp_issued(r.w);
    /* Partial warp: inactive lanes keep zero outputs. */
    setup_cf(&r);
    CHECK(rig_run(&r, 0x0f0f00ffu) == 0);
    CHECK(check_cf_outputs(&r, 0x0f0f00ffu) == 0);
    CHECK(rig_outf(&r, "o", 3, 8) == 0.0f);
    /* Step one instruction at a time: same results, same instruction count. */
    setup_cf(&r);
    gm_warp_begin(r.w, 0xffffffffu, 0);
    int steps = 0;
    gm_run_status st;
    while ((st = gm_warp_step(r.w)) == GM_RUN_PAUSED && steps < 100000)
        steps++;
    CHECK(st == GM_RUN_DONE);
    CHECK(check_cf_outputs(&r, 0xffffffffu) == 0);
    CHECKF(gm_warp_issued(r.w) == full_issued, "%llu vs %llu",
           (unsigned long long)gm_warp_issued(r.w), (unsigned long long)full_issued);
    /* Lines come from the original source. */
    CHECK(gm_program_line_has_code(r.p, 11));
    CHECK(!gm_program_line_has_code(r.p, 14));
    rig_free(&r);
}

typedef struct {
    int stop_line;
    int stopped;
    uint64_t hits[64]; /* lane-instructions per line */
} obs_state;

static int observer(void *ctx, gm_warp *w, const gm_issue *is)
{
    obs_state *s = ctx;
    (void)w;
    if (is->line >= 0 && is->line < 64)
        s->hits[is->line] += (uint64_t)__builtin_popcount(is->active);
    if (is->line == s->stop_line && !s->stopped) {
        s->stopped = 1;
        return 1;
    }
    return 0;
}

static void test_observer_and_stop(void)
{
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, cf_src) != 0) {
        CHECK(0);
        return;
    }
    setup_cf(&r);
    obs_state s = {7, 0, {0}};
    gm_warp_set_observer(r.w, observer, &s);
    gm_warp_begin(r.w, 0xffffffffu, 0);
    gm_run_status st = gm_warp_run(r.w, 0);
    CHECK(st == GM_RUN_PAUSED);
    CHECK(s.stopped);
    /* First arrival at line 7: iteration i == 4, lanes with n >= 5, inside f(). */
    gm_mask want = 0;
    for (int l = 0; l < GM_LANES; l++)
        if (lane_n(l) >= 5)
            want |= 1u << l;
    CHECKF(gm_warp_active_mask(r.w) == want, "%08x vs %08x", gm_warp_active_mask(r.w), want);
    CHECK(gm_warp_call_depth(r.w) == 2);
    CHECK(strcmp(gm_warp_frame_function(r.w, 0), "main") == 0);
    CHECK(strncmp(gm_warp_frame_function(r.w, 1), "f(", 2) == 0);
    CHECK(gm_warp_frame_line(r.w, 0) == 20);
    CHECK(gm_warp_frame_line(r.w, 1) == 7);
    int lane = __builtin_ctz(want);
    CHECK(gm_warp_lane_line(r.w, lane) == 7);
    /* Lanes that left the loop wait after it (line 23). */
    for (int l = 0; l < GM_LANES; l++)
        if (!((want >> l) & 1)) {
            CHECKF(gm_warp_lane_line(r.w, l) == 23, "lane %d waits at %d", l,
                   gm_warp_lane_line(r.w, l));
            break;
        }
    /* Variables per lane at the stop: acc = f(x,0)+..+f(x,3), i == 4. */
    int vacc = gm_program_find_var(r.p, "acc", GM_VAR_LOCAL);
    int vi = gm_program_find_var(r.p, "i", GM_VAR_LOCAL);
    CHECK(vacc >= 0 && vi >= 0);
    const gm_var_info *info = gm_program_var(r.p, vacc);
    CHECK(info && info->function && strcmp(info->function, "main") == 0);
    uint32_t word;
    CHECK(gm_warp_read_var(r.w, vi, lane, &word, 1) == 1 && word == 4);
    CHECK(gm_warp_read_var(r.w, vacc, lane, &word, 1) == 1);
    float acc;
    memcpy(&acc, &word, 4);
    float wacc = 0;
    for (int k = 0; k < 4; k++)
        wacc += ref_f(lane_x(lane), k);
    CHECKF(feq(acc, wacc, 1e-5f), "acc %g want %g", acc, wacc);
    /* Resume: completes with the same results. */
    st = gm_warp_run(r.w, 0);
    CHECK(st == GM_RUN_DONE);
    CHECK(check_cf_outputs(&r, 0xffffffffu) == 0);
    /* Hit counts: line 11 ran once per lane per (k in 1..3, t != 2) iteration. */
    uint64_t want11 = 0;
    for (int l = 0; l < GM_LANES; l++)
        for (int k = 0; k < lane_n(l) && k <= 3; k++)
            for (int t = 0; t < k; t++)
                want11 += t != 2;
    /* Each execution of line 11 issues the same number of instructions. */
    CHECK(want11 > 0 && s.hits[11] % want11 == 0);
    rig_free(&r);
}

static void test_kill_and_helpers(void)
{
    gm_rig r;
    const char *src = "#version 450\nlayout(location=1) in float x;\nlayout(location=0) out vec4 o;\n"
                      "void main() {\n  if (x > 0.75) discard;\n  o = vec4(x, float(gl_HelperInvocation), 1.0, 1.0);\n}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int l = 0; l < GM_LANES; l++)
        rig_setf(&r, "x", 0, l, lane_x(l));
    gm_warp_begin(r.w, 0x0000ffffu, 0xffff0000u);
    CHECK(gm_warp_run(r.w, 0) == GM_RUN_DONE);
    CHECK(gm_program_uses_discard(r.p));
    gm_mask killed = 0;
    for (int l = 0; l < GM_LANES; l++)
        if (lane_x(l) > 0.75f)
            killed |= 1u << l;
    CHECK(gm_warp_killed_mask(r.w) == killed);
    for (int l = 0; l < GM_LANES; l++) {
        float want = (l < 16 && !((killed >> l) & 1)) ? lane_x(l) : 0.0f;
        CHECKF(rig_outf(&r, "o", 0, l) == want, "lane %d", l);
        CHECK(rig_outf(&r, "o", 1, l) == 0.0f); /* helpers never write */
    }
    rig_free(&r);
}

/* Lane l of quad q sits at ((q%4)*2 + (l&1), (q/4)*2 + (l>>1)&1). */
static float qx(int l) { return (float)(((l / 4) % 4) * 2 + (l & 1)); }
static float qy(int l) { return (float)(((l / 4) / 4) * 2 + ((l >> 1) & 1)); }
static float fxy(float x, float y) { return x * x * 0.5f + y * x * 3.0f + y * y; }

static void test_derivatives(void)
{
    gm_rig r;
    const char *src = "#version 450\nlayout(location=0) in vec2 p;\nlayout(location=0) out vec4 o;\n"
                      "void main() {\n  float v = p.x * p.x * 0.5 + p.y * p.x * 3.0 + p.y * p.y;\n"
                      "  o = vec4(dFdx(v), dFdyCoarse(v), dFdxFine(v) + 100.0 * dFdyFine(v), fwidth(v));\n}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int l = 0; l < GM_LANES; l++) {
        rig_setf(&r, "p", 0, l, qx(l));
        rig_setf(&r, "p", 1, l, qy(l));
    }
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    for (int l = 0; l < GM_LANES; l++) {
        int q = l & ~3;
        float v0 = fxy(qx(q), qy(q)), v1 = fxy(qx(q + 1), qy(q + 1));
        float v2 = fxy(qx(q + 2), qy(q + 2)), v3 = fxy(qx(q + 3), qy(q + 3));
        /* llvmpipe computes every variant (plain, Coarse, Fine) per row / per column of
         * the quad, so all of them are the fine differences */
        int i = l & 3;
        float fdx = i < 2 ? v1 - v0 : v3 - v2, fdy = (i & 1) ? v3 - v1 : v2 - v0;
        CHECKF(feq(rig_outf(&r, "o", 0, l), fdx, 1e-5f), "dFdx lane %d", l);
        CHECKF(feq(rig_outf(&r, "o", 1, l), fdy, 1e-5f), "dFdyCoarse lane %d", l);
        CHECKF(feq(rig_outf(&r, "o", 2, l), fdx + 100.0f * fdy, 1e-4f), "fine lane %d", l);
        CHECKF(feq(rig_outf(&r, "o", 3, l), fabsf(fdx) + fabsf(fdy), 1e-5f), "fwidth lane %d", l);
    }
    rig_free(&r);
}

/* interpolateAtOffset of an input that is affine in window space: centre value plus the
 * offset times its gradient; d/dy follows window y, so a y-flipped quad (quad_dy -1)
 * mirrors the fine row difference. */
static void test_interpolate_at_offset(void)
{
    gm_rig r;
    const char *src = "#version 450\nlayout(location=0) in vec2 p;\nlayout(location=0) out vec4 o;\n"
                      "void main() {\n  o = vec4(interpolateAtOffset(p, vec2(0.25, -0.5)), "
                      "interpolateAtCentroid(p));\n}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int dir = 1; dir >= -1; dir -= 2) {
        gm_warp_set_quad_dy(r.w, dir);
        /* p = (2x + y, x - 3y) with y the window row of the lane (rows run by quad_dy) */
        for (int l = 0; l < GM_LANES; l++) {
            float x = qx(l), y = (float)dir * qy(l);
            rig_setf(&r, "p", 0, l, 2.0f * x + y);
            rig_setf(&r, "p", 1, l, x - 3.0f * y);
        }
        CHECK(rig_run(&r, 0xffffffffu) == 0);
        for (int l = 0; l < GM_LANES; l++) {
            float x = qx(l) + 0.25f, y = (float)dir * qy(l) - 0.5f;
            CHECKF(feq(rig_outf(&r, "o", 0, l), 2.0f * x + y, 1e-5f), "at offset .x lane %d dir %d", l, dir);
            CHECKF(feq(rig_outf(&r, "o", 1, l), x - 3.0f * y, 1e-5f), "at offset .y lane %d dir %d", l, dir);
            CHECKF(feq(rig_outf(&r, "o", 2, l), 2.0f * qx(l) + (float)dir * qy(l), 1e-5f),
                   "centroid lane %d", l);
        }
    }
    rig_free(&r);
}

static void test_phi_and_nested(void)
{
    gm_rig r;
    /* && with side-effect-free but non-trivial right side makes glslang emit OpPhi;
     * nested loops with break out of the inner one, do-while, early return in main. */
    const char *src =
        "#version 450\nlayout(location=0) flat in int n;\nlayout(location=0) out ivec4 o;\n"
        "int g(int a) { return a * a - 3; }\n"
        "void main() {\n"
        "  int c = 0, d = 0;\n"
        "  for (int a = 0; a < n; a++) {\n"
        "    for (int b = 0; b < 10; b++) { if (b > a) break; c += b; }\n"
        "    if (a > 1 && g(a) > n) d++;\n"
        "  }\n"
        "  int e = 0; do { e += 3; } while (e < n * 2);\n"
        "  o = ivec4(c, d, e, 0);\n"
        "  if (n == 5) return;\n"
        "  o.w = 9;\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int l = 0; l < GM_LANES; l++)
        rig_seti(&r, "n", 0, l, l % 9);
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    for (int l = 0; l < GM_LANES; l++) {
        int n = l % 9, c = 0, d = 0, e = 0;
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < 10; b++) {
                if (b > a)
                    break;
                c += b;
            }
            if (a > 1 && a * a - 3 > n)
                d++;
        }
        do {
            e += 3;
        } while (e < n * 2);
        CHECKF(rig_outi(&r, "o", 0, l) == c && rig_outi(&r, "o", 1, l) == d &&
                   rig_outi(&r, "o", 2, l) == e && rig_outi(&r, "o", 3, l) == (n == 5 ? 0 : 9),
               "lane %d: %d %d %d %d", l, rig_outi(&r, "o", 0, l), rig_outi(&r, "o", 1, l),
               rig_outi(&r, "o", 2, l), rig_outi(&r, "o", 3, l));
    }
    rig_free(&r);
}

/* llvmpipe's loop limiter: 65535 loop ends per function call, shared by its loops. An infinite
 * loop finishes with what it computed; a nested loop over the limit is cut short. */
/* A do-while body that is one statement has its own scope (GLSL 6.3; piglit
 * fs-do-while-scope): the test reads the outer i, so the loop runs once (j == -1), and a
 * nested simple do inside it too. */
static void test_do_while_scope(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) flat in int n;\nlayout(location=0) out ivec4 o;\n"
        "void main() {\n"
        "  int i = 17, j = -2, k = 0;\n"
        "  do\n"
        "    int i = (j++, 0); // the body's own i\n"
        "  while (i <= 0 && j < 3);\n"
        "  do do k++; while (k < n); while (false);\n"
        "  o = ivec4(j, i, k, 0);\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int l = 0; l < GM_LANES; l++)
        rig_seti(&r, "n", 0, l, l);
    gm_warp_begin(r.w, 0xffffffffu, 0);
    CHECK(gm_warp_run(r.w, 0) == GM_RUN_DONE);
    for (int l = 0; l < GM_LANES; l += 7) {
        CHECKF(rig_outi(&r, "o", 0, l) == -1, "j %d", rig_outi(&r, "o", 0, l));
        CHECK(rig_outi(&r, "o", 1, l) == 17);
        CHECK(rig_outi(&r, "o", 2, l) == (l > 1 ? l : 1));
    }
    rig_free(&r);
}

static void test_loop_limit(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) flat in int n;\nlayout(location=0) out ivec4 o;\n"
        "int spin(int k) { int c = 0; while (k >= 0) { c++; if (c == 2147483647) break; } return c; }\n"
        "void main() {\n"
        "  int c = 0;\n"
        "  for (int a = 0; a < n; a++)\n"
        "    for (int b = 0; b < 1000; b++) c++;\n"
        "  o = ivec4(c, n > 0 ? spin(n) : 0, 0, 0);\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int l = 0; l < GM_LANES; l++)
        rig_seti(&r, "n", 0, l, 0);
    rig_seti(&r, "n", 0, 0, 10);   /* 10 * 1000 inner + 10 outer ends: within the limit */
    rig_seti(&r, "n", 0, 1, 200);  /* 200 * 1000 inner ends: cut at 65535 in all */
    gm_warp_begin(r.w, 0x3u, 0);
    CHECK(gm_warp_run(r.w, 0) == GM_RUN_DONE);
    CHECKF(rig_outi(&r, "o", 0, 0) == 10000, "%d", rig_outi(&r, "o", 0, 0));
    int c1 = rig_outi(&r, "o", 0, 1);
    CHECKF(c1 > 10000 && c1 < 65535, "%d", c1);
    /* spin() is a call of its own: a fresh budget, spent by the endless loop */
    CHECKF(rig_outi(&r, "o", 1, 0) >= 65534 && rig_outi(&r, "o", 1, 0) <= 65535, "%d",
           rig_outi(&r, "o", 1, 0));
    CHECK(gm_warp_loops_limited(r.w) >= 2);
    rig_free(&r);
}

/* Corrupted words: an error or a program, never a crash (run under ASan in CI). */
static void fuzz_decoder(const uint32_t *spirv, size_t wc)
{
    char err[256];
    uint32_t seed = 99;
    uint32_t *copy = malloc(wc * sizeof *copy);
    for (int it = 0; copy && it < 500; it++) {
        memcpy(copy, spirv, wc * sizeof *copy);
        for (int k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = 5 + (seed >> 8) % (wc - 5);
            seed = seed * 1103515245u + 12345u;
            copy[at] = (seed >> 4) & 1 ? copy[at] ^ (1u << ((seed >> 8) % 32)) : (seed >> 10) % 64;
        }
        gm_program *p = gm_program_create(copy, wc, err, sizeof err);
        gm_warp *w = p ? gm_warp_create(p, 0) : NULL;
        if (w) {
            gm_warp_begin(w, 0xffffffffu, 0);
            gm_warp_run(w, 20000);
        }
        gm_warp_destroy(w);
        gm_program_destroy(p);
    }
    free(copy);
}

static void test_bad_input(void)
{
    char err[256];
    uint32_t junk[16] = {0x07230203, 0x10000, 0, 100, 0, 0xffff0001u};
    CHECK(gm_program_create(junk, 16, err, sizeof err) == NULL);
    CHECK(err[0] != 0);
    uint32_t notspv[8] = {1, 2, 3};
    CHECK(gm_program_create(notspv, 8, err, sizeof err) == NULL);
    CHECK(gm_program_create(NULL, 0, err, sizeof err) == NULL);
    /* Unsupported instructions are named (EmitVertex is supported since geometry shaders run
     * in the model: fragment shader interlock is not). */
    gm_shader_source gs = {GM_STAGE_FRAGMENT,
                           "#version 450\n#extension GL_ARB_fragment_shader_interlock : require\n"
                           "out vec4 o;\nvoid main() {\n  beginInvocationInterlockARB();\n"
                           "  o = vec4(1.0);\n  endInvocationInterlockARB();\n}\n",
                           NULL};
    gm_compile_result cr;
    if (gm_compile_program(&gs, 1, &cr) == 0) {
        gm_program *p = gm_program_create(cr.shaders[0].spirv, cr.shaders[0].word_count, err,
                                          sizeof err);
        CHECKF(p == NULL && strstr(err, "OpBeginInvocationInterlockEXT") != NULL, "%s", err);
        gm_program_destroy(p);
        /* Truncated module: error, not crash. */
        for (size_t cut = 5; cut < cr.shaders[0].word_count; cut += 7) {
            p = gm_program_create(cr.shaders[0].spirv, cut, err, sizeof err);
            gm_program_destroy(p);
        }
    } else {
        CHECKF(0, "%s", cr.log);
    }
    gm_compile_result_free(&cr);
    gm_shader_source fs = {GM_STAGE_FRAGMENT, cf_src, NULL};
    if (gm_compile_program(&fs, 1, &cr) == 0)
        fuzz_decoder(cr.shaders[0].spirv, cr.shaders[0].word_count);
    gm_compile_result_free(&cr);
}

int main(void)
{
    test_divergence();
    test_observer_and_stop();
    test_kill_and_helpers();
    test_derivatives();
    test_interpolate_at_offset();
    test_phi_and_nested();
    test_do_while_scope();
    test_loop_limit();
    test_bad_input();
    TEST_DONE();
}
