/* gm_color_half4.c - colour writes to an RGBA16F target four lanes at a time (see
 * gm_color_half4.h). The fragment colours are already channel-major (one vector per channel
 * holds four lanes); the destination texels are read and converted per pixel, transposed,
 * blended channel by channel as blend_factor_f / blend_eq_f do (products and sums in the same
 * order, no fused multiply-add), transposed back and stored per pixel. Quads with a NaN
 * result are left to write_rt. */
#include "gm_color_half4.h"

#include "gm_half.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

static bool factor_ok(uint32_t f)
{
    switch (f) {
    case GL_ZERO: case GL_ONE: case GL_SRC_COLOR: case GL_ONE_MINUS_SRC_COLOR:
    case GL_SRC_ALPHA: case GL_ONE_MINUS_SRC_ALPHA: case GL_DST_ALPHA:
    case GL_ONE_MINUS_DST_ALPHA: case GL_DST_COLOR: case GL_ONE_MINUS_DST_COLOR:
    case GL_CONSTANT_COLOR: case GL_ONE_MINUS_CONSTANT_COLOR: case GL_CONSTANT_ALPHA:
    case GL_ONE_MINUS_CONSTANT_ALPHA: case GL_SRC1_COLOR: case GL_ONE_MINUS_SRC1_COLOR:
    case GL_SRC1_ALPHA: case GL_ONE_MINUS_SRC1_ALPHA:
        return true;
    default:   /* SRC_ALPHA_SATURATE's fminf, and unknown factors: lane by lane */
        return false;
    }
}

static bool eq_ok(uint32_t eq)
{
    return eq == GL_FUNC_ADD || eq == GL_FUNC_SUBTRACT || eq == GL_FUNC_REVERSE_SUBTRACT;
}

bool gm_color_half4_ok(const gm_pipe_context *ctx, int rt)
{
    const gm_pipe_state *st = &ctx->state;
    const gm_pipe_blend_rt *b = &st->blend[rt];
    if (ctx->fb.color[rt]->format != GM_FMT_RGBA16F || st->color_logic_op ||
        (b->color_mask & 0xf) != 0xf)
        return false;
    if (!b->enable)
        return true;
    return eq_ok(b->eq_rgb) && eq_ok(b->eq_alpha) && factor_ok(b->src_rgb) &&
           factor_ok(b->dst_rgb) && factor_ok(b->src_alpha) && factor_ok(b->dst_alpha);
}

/* blend_factor_f for channel c of four lanes (an RGBA16F target has alpha: da = d[3]). */
static __m128 factor4(uint32_t f, int c, const __m128 s[4], const __m128 s1[4], const __m128 d[4],
                      const float k[4])
{
    const __m128 one = _mm_set1_ps(1.0f);
    switch (f) {
    case GL_ZERO: return _mm_setzero_ps();
    case GL_SRC_COLOR: return s[c];
    case GL_ONE_MINUS_SRC_COLOR: return _mm_sub_ps(one, s[c]);
    case GL_SRC_ALPHA: return s[3];
    case GL_ONE_MINUS_SRC_ALPHA: return _mm_sub_ps(one, s[3]);
    case GL_DST_ALPHA: return d[3];
    case GL_ONE_MINUS_DST_ALPHA: return _mm_sub_ps(one, d[3]);
    case GL_DST_COLOR: return d[c];   /* c == 3: da, which is d[3] */
    case GL_ONE_MINUS_DST_COLOR: return _mm_sub_ps(one, d[c]);
    case GL_CONSTANT_COLOR: return _mm_set1_ps(k[c]);
    case GL_ONE_MINUS_CONSTANT_COLOR: return _mm_set1_ps(1.0f - k[c]);
    case GL_CONSTANT_ALPHA: return _mm_set1_ps(k[3]);
    case GL_ONE_MINUS_CONSTANT_ALPHA: return _mm_set1_ps(1.0f - k[3]);
    case GL_SRC1_COLOR: return s1[c];
    case GL_ONE_MINUS_SRC1_COLOR: return _mm_sub_ps(one, s1[c]);
    case GL_SRC1_ALPHA: return s1[3];
    case GL_ONE_MINUS_SRC1_ALPHA: return _mm_sub_ps(one, s1[3]);
    default: return one;   /* GL_ONE */
    }
}

/* blend_eq_f for the equations gm_color_half4_ok lets through. */
static __m128 eq4(uint32_t eq, __m128 s, __m128 sf, __m128 d, __m128 df)
{
    switch (eq) {
    case GL_FUNC_SUBTRACT: return _mm_sub_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
    case GL_FUNC_REVERSE_SUBTRACT: return _mm_sub_ps(_mm_mul_ps(d, df), _mm_mul_ps(s, sf));
    default: return _mm_add_ps(_mm_mul_ps(s, sf), _mm_mul_ps(d, df));
    }
}

uint32_t gm_color_half4_write(gm_pipe_context *ctx, int rt, const gm_pipe_fs_warp *w,
                              uint32_t mask)
{
    const gm_pipe_state *st = &ctx->state;
    const gm_pipe_blend_rt *b = &st->blend[rt];
    const gm_surface *sf = ctx->fb.color[rt];
    const size_t pixel = 8u * (size_t)(sf->samples > 0 ? sf->samples : 1);
    /* the blend constant as write_rt reads it (no clamp: a float target) */
    const float *k = st->blend_color;
    uint32_t done = 0;
    for (int q = 0; q < GM_PIPE_WARP_LANES; q += 4) {
        if (((mask >> q) & 0xfu) != 0xfu)
            continue;
        uint8_t *p[4];
        for (int l = 0; l < 4; l++)
            p[l] = sf->data + (size_t)w->y[q + l] * sf->row_stride + (size_t)w->x[q + l] * pixel;
        __m128 out[4];
        for (int c = 0; c < 4; c++)
            out[c] = _mm_loadu_ps(&w->color[rt].f[c][q]);
        if (b->enable) {
            __m128 s[4], s1[4], d[4];
            float dl[4][4];
            for (int l = 0; l < 4; l++)
                gm_half4_to_float(p[l], dl[l]);
            for (int c = 0; c < 4; c++) {
                s[c] = out[c];
                s1[c] = _mm_loadu_ps(&w->color[GM_PIPE_MAX_RT].f[c][q]);
                d[c] = _mm_loadu_ps(dl[c]);
            }
            _MM_TRANSPOSE4_PS(d[0], d[1], d[2], d[3]);   /* lanes x channels -> channels x lanes */
            for (int c = 0; c < 4; c++) {
                const bool a = c == 3;
                __m128 fs = factor4(a ? b->src_alpha : b->src_rgb, c, s, s1, d, k);
                __m128 fd = factor4(a ? b->dst_alpha : b->dst_rgb, c, s, s1, d, k);
                out[c] = eq4(a ? b->eq_alpha : b->eq_rgb, s[c], fs, d[c], fd);
            }
        }
        /* A NaN result: which NaN an operation returns when both operands are NaN depends on
         * the operand order the compiler chose for write_rt's sums, so such a quad is left to
         * write_rt (nothing stored yet). */
        __m128 nan = _mm_setzero_ps();
        for (int c = 0; c < 4; c++)
            nan = _mm_or_ps(nan, _mm_cmpunord_ps(out[c], out[c]));
        if (_mm_movemask_ps(nan))
            continue;
        done |= 0xfu << q;
        _MM_TRANSPOSE4_PS(out[0], out[1], out[2], out[3]);   /* back to one vector per lane */
        for (int l = 0; l < 4; l++) {
            float v[4];
            _mm_storeu_ps(v, out[l]);
            gm_float4_to_half_rtz(v, p[l]);
        }
    }
    return done;
}

#else   /* no SSE2: write_rt lane by lane */

bool gm_color_half4_ok(const gm_pipe_context *ctx, int rt)
{
    (void)ctx; (void)rt;
    return false;
}

uint32_t gm_color_half4_write(gm_pipe_context *ctx, int rt, const gm_pipe_fs_warp *w,
                              uint32_t mask)
{
    (void)ctx; (void)rt; (void)w; (void)mask;
    return 0;
}

#endif
