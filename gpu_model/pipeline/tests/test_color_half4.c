/* test_color_half4.c - colour writes to RGBA16F targets four lanes at a time
 * (gm_color_half4.c, through gm_fragops_color) against write_rt lane by lane (reached here
 * through gm_fragops_color_ms with one covered sample per lane, which never takes the vector
 * path): random destinations and fragment colours (subnormal, infinite and NaN halves, floats
 * beyond the half range, negative values), random masks (whole and partial quads), every
 * blend factor and equation, blending off, colour masks and logic ops that keep the lane by
 * lane path; the two targets must end byte-identical, with MXCSR as a program starts and
 * with the shaders' flush-to-zero / denormals-are-zero modes. */
#include "gm_pipe_internal.h"
#include "gm_color_half4.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <math.h>
#include <string.h>

#define W 16
#define H 16

static gm_pipe_context ctx;
static gm_pipe_fs_warp warp;
static int vector_warps;

static float rand_color(unsigned *seed)
{
    unsigned r = gm_test_rand(seed);
    switch (r % 16) {
    case 0: return INFINITY;
    case 1: return NAN;
    case 2: return gm_test_randf(seed, -1e6f, 1e6f);           /* beyond the half range */
    case 3: return gm_test_randf(seed, -1e-6f, 1e-6f);         /* subnormal halves */
    case 4: { float f; unsigned u = gm_test_rand(seed) >> 9; memcpy(&f, &u, 4); return f; }
    default: return gm_test_randf(seed, -0.5f, 2.0f);
    }
}

static int run(unsigned seed)
{
    static const uint32_t factors[] = {
        GL_ZERO, GL_ONE, GL_SRC_COLOR, GL_ONE_MINUS_SRC_COLOR, GL_SRC_ALPHA,
        GL_ONE_MINUS_SRC_ALPHA, GL_DST_ALPHA, GL_ONE_MINUS_DST_ALPHA, GL_DST_COLOR,
        GL_ONE_MINUS_DST_COLOR, GL_SRC_ALPHA_SATURATE, GL_CONSTANT_COLOR,
        GL_ONE_MINUS_CONSTANT_COLOR, GL_CONSTANT_ALPHA, GL_ONE_MINUS_CONSTANT_ALPHA,
        GL_SRC1_COLOR, GL_ONE_MINUS_SRC1_COLOR, GL_SRC1_ALPHA, GL_ONE_MINUS_SRC1_ALPHA,
    };
    static const uint32_t eqs[] = {GL_FUNC_ADD, GL_FUNC_SUBTRACT, GL_FUNC_REVERSE_SUBTRACT,
                                   GL_MIN, GL_MAX};
    const int nf = (int)(sizeof(factors) / sizeof(factors[0]));
    gm_surface a, b;
    if (gm_surface_alloc(&a, GM_FMT_RGBA16F, W, H, 1, 1) ||
        gm_surface_alloc(&b, GM_FMT_RGBA16F, W, H, 1, 1))
        return 1;
    for (int iter = 0; iter < 4000; iter++) {
        memset(&ctx, 0, sizeof(ctx));
        gm_pipe_state_default(&ctx.state, W, H);
        ctx.fb.width = W;
        ctx.fb.height = H;
        /* destination: random halves, a few infinite / NaN */
        for (size_t i = 0; i < a.layer_stride / 2; i++) {
            uint16_t h = (uint16_t)gm_test_rand(&seed);
            if ((h & 0x7c00u) == 0x7c00u && gm_test_rand(&seed) % 4)
                h &= 0xbfffu;
            memcpy(a.data + 2 * i, &h, 2);
        }
        memcpy(b.data, a.data, a.layer_stride);
        gm_pipe_blend_rt *bl = &ctx.state.blend[0];
        bl->enable = gm_test_rand(&seed) % 5 != 0;
        bl->src_rgb = factors[gm_test_rand(&seed) % (unsigned)nf];
        bl->dst_rgb = factors[gm_test_rand(&seed) % (unsigned)nf];
        bl->src_alpha = factors[gm_test_rand(&seed) % (unsigned)nf];
        bl->dst_alpha = factors[gm_test_rand(&seed) % (unsigned)nf];
        bl->eq_rgb = eqs[gm_test_rand(&seed) % 4 ? 0 : gm_test_rand(&seed) % 5];
        bl->eq_alpha = eqs[gm_test_rand(&seed) % 4 ? 0 : gm_test_rand(&seed) % 5];
        bl->color_mask = gm_test_rand(&seed) % 8 ? 0xf : (uint8_t)(gm_test_rand(&seed) & 0xf);
        if (gm_test_rand(&seed) % 16 == 0) {
            ctx.state.color_logic_op = true;
            ctx.state.logic_op = GL_XOR;
        }
        for (int c = 0; c < 4; c++)
            ctx.state.blend_color[c] = rand_color(&seed);
        /* the warp: 8 quads on distinct pixels, random colours */
        memset(&warp, 0, sizeof(warp));
        warp.num_quads = 8;
        int order[W * H / 4];
        for (int i = 0; i < W * H / 4; i++)
            order[i] = i;
        for (int qd = 0; qd < 8; qd++) {
            int j = qd + (int)(gm_test_rand(&seed) % (unsigned)(W * H / 4 - qd));
            int t = order[qd]; order[qd] = order[j]; order[j] = t;
            int qx = (order[qd] % (W / 2)) * 2, qy = (order[qd] / (W / 2)) * 2;
            for (int k = 0; k < 4; k++) {
                warp.x[qd * 4 + k] = qx + (k & 1);
                warp.y[qd * 4 + k] = qy + (k >> 1);
            }
        }
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            for (int c = 0; c < 4; c++) {
                warp.color[0].f[c][l] = rand_color(&seed);
                warp.color[GM_PIPE_MAX_RT].f[c][l] = rand_color(&seed);
            }
        uint32_t mask = gm_test_rand(&seed);
        if (gm_test_rand(&seed) % 2)
            mask |= 0x0f0ff0f0u;   /* mostly whole quads */
        warp.live = warp.present = mask;
        ctx.fb.color[0] = &a;
        if (gm_color_half4_ok(&ctx, 0))
            vector_warps++;
        gm_fragops_color(&ctx, &warp, mask);
        uint32_t smask[GM_PIPE_WARP_LANES];
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            smask[l] = 1;
        ctx.fb.color[0] = &b;
        gm_fragops_color_ms(&ctx, &warp, mask, smask, false);
        if (memcmp(a.data, b.data, a.layer_stride) != 0) {
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    const uint16_t *pa = (const uint16_t *)(a.data + (size_t)y * a.row_stride) + 4 * x;
                    const uint16_t *pb = (const uint16_t *)(b.data + (size_t)y * b.row_stride) + 4 * x;
                    if (memcmp(pa, pb, 8) != 0 && gm_test_failures < 20) {
                        fprintf(stderr, "iteration %d pixel (%d,%d): %04x %04x %04x %04x, lane by lane "
                                "%04x %04x %04x %04x (blend %d 0x%x 0x%x 0x%x 0x%x eq 0x%x 0x%x)\n",
                                iter, x, y, pa[0], pa[1], pa[2], pa[3], pb[0], pb[1], pb[2], pb[3],
                                bl->enable, bl->src_rgb, bl->dst_rgb, bl->src_alpha, bl->dst_alpha,
                                bl->eq_rgb, bl->eq_alpha);
                        gm_test_failures++;
                    }
                }
            memcpy(a.data, b.data, a.layer_stride);
        }
    }
    gm_surface_free(&a);
    gm_surface_free(&b);
    return 0;
}

int main(void)
{
    if (gm_test_run_with_ftz_daz(run, 0xc0104u, 0x7a1u))
        return 1;
    printf("%d warps through the vector path\n", vector_warps);
    if (vector_warps < 1000) {
        fprintf(stderr, "too few warps took the vector path\n");
        gm_test_failures++;
    }
    TEST_DONE();
}
