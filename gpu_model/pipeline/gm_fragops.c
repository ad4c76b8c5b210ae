/* gm_fragops.c - depth/stencil tests, blending, write masks, clears.
 *
 * Blending on 8-bit unorm render targets is done in 8-bit fixed point like llvmpipe
 * (colour converted to unorm8 first, products a*b/255 rounded with
 * (t + (t >> 8) + 0x80) >> 8, saturating add/sub); other formats blend in float. */
#include "gm_pipe_internal.h"
#include "gm_color_half4.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static uint8_t stencil_op(uint32_t op, uint8_t s, uint8_t ref)
{
    switch (op) {
    case GL_KEEP: return s;
    case GL_ZERO: return 0;
    case GL_REPLACE: return ref;
    case GL_INCR: return s == 255 ? 255 : (uint8_t)(s + 1);
    case GL_DECR: return s == 0 ? 0 : (uint8_t)(s - 1);
    case GL_INVERT: return (uint8_t)~s;
    case GL_INCR_WRAP: return (uint8_t)(s + 1);
    case GL_DECR_WRAP: return (uint8_t)(s - 1);
    default: return s;
    }
}

/* Depth value as stored: quantise to the buffer format so comparisons are done on
 * the stored representation (llvmpipe compares in the format's integer domain). */
static double quantize_depth(gm_format f, float z, uint32_t *raw)
{
    uint8_t t[8] = {0};
    gm_format_pack_depth(f, z, t);
    switch (f) {
    case GM_FMT_D16: { uint16_t v; memcpy(&v, t, 2); *raw = v; return v; }
    case GM_FMT_D24X8: case GM_FMT_D24S8: {
        uint32_t v; memcpy(&v, t, 4); v &= 0xffffffu; *raw = v; return v;
    }
    default: { uint32_t v; memcpy(&v, t, 4); *raw = v; return z; }
    }
}

static double stored_depth(gm_format f, const uint8_t *p)
{
    switch (f) {
    case GM_FMT_D16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case GM_FMT_D24X8: case GM_FMT_D24S8: { uint32_t v; memcpy(&v, p, 4); return v & 0xffffffu; }
    default: { float v; memcpy(&v, p, 4); return v; }
    }
}

/* Depth/stencil test and update of one sample of pixel (x, y) at depth z: passed? */
static bool ds_sample(gm_pipe_context *ctx, int x, int y, int smp, float z,
                      const gm_pipe_stencil_face *sf, bool depth_on, bool stencil_on)
{
    const gm_pipe_state *st = &ctx->state;
    gm_surface *ds = ctx->fb.depth;
    gm_surface *ss = ctx->fb.stencil;
    bool zpass = true;
    uint8_t *dp = NULL, *sp = NULL;
    uint32_t zraw = 0;
    if (depth_on) {
        dp = gm_surface_texel(ds, x, y, 0) +
             (smp < ds->samples ? (size_t)smp * gm_format_get(ds->format)->bytes : 0);
        double zq = quantize_depth(ds->format, z, &zraw);
        zpass = gm_compare_func(st->depth_func, zq, stored_depth(ds->format, dp));
    }
    bool spass = true;
    if (stencil_on) {
        sp = gm_surface_texel(ss, x, y, 0) +
             (smp < ss->samples ? (size_t)smp * gm_format_get(ss->format)->bytes : 0);
        uint8_t s = gm_format_unpack_stencil(ss->format, sp);
        spass = gm_compare_func(sf->func, (double)(sf->ref & sf->value_mask),
                                (double)(s & sf->value_mask));
        uint32_t op = !spass ? sf->fail_op : (!zpass ? sf->zfail_op : sf->zpass_op);
        uint8_t ns = stencil_op(op, s, sf->ref);
        ns = (uint8_t)((s & ~sf->write_mask) | (ns & sf->write_mask));
        gm_format_pack_stencil(ss->format, ns, sp);
    }
    if (depth_on) {
        if (zpass) ctx->stats.depth_pass++;
        else ctx->stats.depth_fail++;
    }
    if (stencil_on) {
        if (spass) ctx->stats.stencil_pass++;
        else ctx->stats.stencil_fail++;
    }
    if (spass && zpass && depth_on && st->depth_write)
        gm_format_pack_depth(ds->format, z, dp);
    return spass && zpass;
}

static bool ds_enabled(const gm_pipe_context *ctx, bool *depth_on, bool *stencil_on)
{
    const gm_pipe_state *st = &ctx->state;
    gm_surface *ss = ctx->fb.stencil;
    *depth_on = st->depth_test && ctx->fb.depth;
    *stencil_on = st->stencil_test && ss && gm_format_get(ss->format)->kind != GM_KIND_DEPTH;
    return *depth_on || *stencil_on;
}

/* The common case of a warp, decided once for it: a depth test without stencil on a
 * 24-bit depth buffer and no watched lane. The same comparisons, writes and counts as
 * ds_sample, without its per-lane format switches (quantize_depth, stored_depth and
 * gm_format_pack_depth of D24 all come down to gm_format_depth24). */
static uint32_t depth24_only(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask,
                             const float *z)
{
    const gm_surface *ds = ctx->fb.depth;
    uint32_t func = ctx->state.depth_func;
    bool write = ctx->state.depth_write;
    size_t pixel = 4u * (size_t)(ds->samples > 0 ? ds->samples : 1);
    uint32_t passed = 0;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(mask & (1u << l)))
            continue;
        uint8_t *dp = ds->data + (size_t)w->y[l] * ds->row_stride + (size_t)w->x[l] * pixel;
        uint32_t old;
        memcpy(&old, dp, 4);
        uint32_t v = gm_format_depth24(z[l]);
        if (!gm_compare_func(func, v, old & 0xffffffu))
            continue;
        passed |= 1u << l;
        if (write) {
            uint32_t neu = (old & 0xff000000u) | v;
            memcpy(dp, &neu, 4);
        }
    }
    int n = __builtin_popcount(passed);
    ctx->stats.depth_pass += (uint64_t)n;
    ctx->stats.depth_fail += (uint64_t)(__builtin_popcount(mask) - n);
    return passed;
}

uint32_t gm_fragops_depth_stencil(gm_pipe_context *ctx, const gm_pipe_fs_warp *w,
                                  uint32_t mask, const float *z, bool front)
{
    bool depth_on, stencil_on;
    if (!ds_enabled(ctx, &depth_on, &stencil_on))
        return mask;
    const gm_pipe_stencil_face *sf = &ctx->state.stencil[front ? 0 : 1];
    uint32_t passed = 0;
    int wl = gm_watch_lane(ctx, w, mask);
    gm_format dfmt = depth_on ? ctx->fb.depth->format : GM_FMT_NONE;
    if (wl < 0 && !stencil_on && (dfmt == GM_FMT_D24X8 || dfmt == GM_FMT_D24S8))
        return depth24_only(ctx, w, mask, z);
    gm_watch_rec wr;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (l == wl)
            gm_watch_ds_before(ctx, w, l, 0, z[l], sf, depth_on, stencil_on, &wr);
        if ((mask & (1u << l)) &&
            ds_sample(ctx, w->x[l], w->y[l], 0, z[l], sf, depth_on, stencil_on))
            passed |= 1u << l;
        if (l == wl)
            gm_watch_ds_after(ctx, w, &wr, (passed >> l) & 1u);
    }
    return passed;
}

uint32_t gm_fragops_depth_stencil_ms(gm_pipe_context *ctx, const gm_pipe_fs_warp *w,
                                     uint32_t mask, uint32_t *smask,
                                     const float (*zs)[GM_PIPE_WARP_LANES], bool front)
{
    bool depth_on, stencil_on;
    bool any = ds_enabled(ctx, &depth_on, &stencil_on);
    const gm_pipe_stencil_face *sf = &ctx->state.stencil[front ? 0 : 1];
    uint32_t passed = 0;
    int wl = any ? gm_watch_lane(ctx, w, mask) : -1;
    gm_watch_rec wr;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(mask & (1u << l)))
            continue;
        uint32_t m = smask[l];
        for (int s = 0; any && s < GM_PIPE_MAX_SAMPLES; s++) {
            if (!(m & (1u << s)))
                continue;
            if (l == wl)
                gm_watch_ds_before(ctx, w, l, s, zs[s][l], sf, depth_on, stencil_on, &wr);
            if (!ds_sample(ctx, w->x[l], w->y[l], s, zs[s][l], sf, depth_on, stencil_on))
                m &= ~(1u << s);
            if (l == wl)
                gm_watch_ds_after(ctx, w, &wr, (m >> s) & 1u);
        }
        smask[l] = m;
        if (m)
            passed |= 1u << l;
    }
    return passed;
}

/* ---- blending --------------------------------------------------------------------- */

static bool is_unorm8_target(gm_format f)
{
    switch (f) {
    case GM_FMT_RGBA8: case GM_FMT_BGRA8: case GM_FMT_RGB8: case GM_FMT_RG8:
    case GM_FMT_R8: case GM_FMT_A8: case GM_FMT_L8: case GM_FMT_LA8: case GM_FMT_I8:
        return true;
    default:
        return false;
    }
}

static float blend_factor_f(uint32_t f, int c, const float *s, const float *s1,
                            const float *d, const float *k, bool dst_has_alpha)
{
    float da = dst_has_alpha ? d[3] : 1.0f;
    switch (f) {
    case GL_ZERO: return 0.0f;
    case GL_ONE: return 1.0f;
    case GL_SRC_COLOR: return s[c];
    case GL_ONE_MINUS_SRC_COLOR: return 1.0f - s[c];
    case GL_SRC_ALPHA: return s[3];
    case GL_ONE_MINUS_SRC_ALPHA: return 1.0f - s[3];
    case GL_DST_ALPHA: return da;
    case GL_ONE_MINUS_DST_ALPHA: return 1.0f - da;
    case GL_DST_COLOR: return c == 3 ? da : d[c];
    case GL_ONE_MINUS_DST_COLOR: return 1.0f - (c == 3 ? da : d[c]);
    case GL_SRC_ALPHA_SATURATE: return c == 3 ? 1.0f : fminf(s[3], 1.0f - da);
    case GL_CONSTANT_COLOR: return k[c];
    case GL_ONE_MINUS_CONSTANT_COLOR: return 1.0f - k[c];
    case GL_CONSTANT_ALPHA: return k[3];
    case GL_ONE_MINUS_CONSTANT_ALPHA: return 1.0f - k[3];
    case GL_SRC1_COLOR: return s1[c];
    case GL_ONE_MINUS_SRC1_COLOR: return 1.0f - s1[c];
    case GL_SRC1_ALPHA: return s1[3];
    case GL_ONE_MINUS_SRC1_ALPHA: return 1.0f - s1[3];
    default: return 1.0f;
    }
}

static float blend_eq_f(uint32_t eq, float s, float sf, float d, float df)
{
    switch (eq) {
    case GL_FUNC_SUBTRACT: return s * sf - d * df;
    case GL_FUNC_REVERSE_SUBTRACT: return d * df - s * sf;
    case GL_MIN: return fminf(s, d);
    case GL_MAX: return fmaxf(s, d);
    default: return s * sf + d * df;
    }
}

static unsigned mul8(unsigned a, unsigned b)
{
    unsigned t = a * b;
    return (t + (t >> 8) + 0x80u) >> 8;
}

static unsigned blend_factor_8(uint32_t f, int c, const uint8_t *s, const uint8_t *s1,
                               const uint8_t *d, const uint8_t *k, bool dst_has_alpha)
{
    unsigned da = dst_has_alpha ? d[3] : 255u;
    switch (f) {
    case GL_ZERO: return 0;
    case GL_ONE: return 255;
    case GL_SRC_COLOR: return s[c];
    case GL_ONE_MINUS_SRC_COLOR: return 255u - s[c];
    case GL_SRC_ALPHA: return s[3];
    case GL_ONE_MINUS_SRC_ALPHA: return 255u - s[3];
    case GL_DST_ALPHA: return da;
    case GL_ONE_MINUS_DST_ALPHA: return 255u - da;
    case GL_DST_COLOR: return c == 3 ? da : d[c];
    case GL_ONE_MINUS_DST_COLOR: return 255u - (c == 3 ? da : d[c]);
    case GL_SRC_ALPHA_SATURATE: {
        unsigned a = 255u - da;
        return c == 3 ? 255u : (s[3] < a ? s[3] : a);
    }
    case GL_CONSTANT_COLOR: return k[c];
    case GL_ONE_MINUS_CONSTANT_COLOR: return 255u - k[c];
    case GL_CONSTANT_ALPHA: return k[3];
    case GL_ONE_MINUS_CONSTANT_ALPHA: return 255u - k[3];
    case GL_SRC1_COLOR: return s1[c];
    case GL_ONE_MINUS_SRC1_COLOR: return 255u - s1[c];
    case GL_SRC1_ALPHA: return s1[3];
    case GL_ONE_MINUS_SRC1_ALPHA: return 255u - s1[3];
    default: return 255;
    }
}

static unsigned blend_eq_8(uint32_t eq, unsigned s, unsigned sf, unsigned d, unsigned df)
{
    int a = (int)mul8(s, sf), b = (int)mul8(d, df), r;
    switch (eq) {
    case GL_FUNC_SUBTRACT: r = a - b; break;
    case GL_FUNC_REVERSE_SUBTRACT: r = b - a; break;
    case GL_MIN: r = (int)(s < d ? s : d); break;
    case GL_MAX: r = (int)(s > d ? s : d); break;
    default: r = a + b; break;
    }
    return r < 0 ? 0u : r > 255 ? 255u : (unsigned)r;
}

static uint32_t logic_op(uint32_t op, uint32_t s, uint32_t d)
{
    switch (op) {
    case GL_CLEAR: return 0;
    case GL_AND: return s & d;
    case GL_AND_REVERSE: return s & ~d;
    case GL_COPY: return s;
    case GL_AND_INVERTED: return ~s & d;
    case GL_NOOP: return d;
    case GL_XOR: return s ^ d;
    case GL_OR: return s | d;
    case GL_NOR: return ~(s | d);
    case GL_EQUIV: return ~(s ^ d);
    case GL_INVERT: return ~d;
    case GL_OR_REVERSE: return s | ~d;
    case GL_COPY_INVERTED: return ~s;
    case GL_OR_INVERTED: return ~s | d;
    case GL_NAND: return ~(s & d);
    case GL_SET: return ~0u;
    default: return s;
    }
}

/* Read the destination as RGBA float with missing channels per GL (0,0,0,1). */
static void read_dst(const gm_surface *s, const uint8_t *p, float d[4])
{
    gm_format_unpack_rgba(s->format, p, d);
}

/* fminf(fmaxf(x, lo), 1) without the libm calls (they are not inlined and cost a few
 * percent of a frame): NaN gives lo like fmaxf. Only the sign of a zero may differ from
 * libm's, and every value clamped here ends as a normalized integer (packed, or blended
 * then packed), where -0 and +0 are the same 0. */
static inline float clamp_norm(float x, float lo)
{
    if (!(x > lo))
        return lo;
    return x < 1.0f ? x : 1.0f;
}

static void write_rt(gm_pipe_context *ctx, int rt, const gm_pipe_fs_warp *w, int l, int smp,
                     bool alpha_to_one)
{
    const gm_pipe_state *st = &ctx->state;
    gm_surface *s = ctx->fb.color[rt];
    const gm_format_info *fi = gm_format_get(s->format);
    const gm_pipe_blend_rt *b = &st->blend[rt];
    if (smp >= (s->samples > 0 ? s->samples : 1))
        return;
    uint8_t *p = gm_surface_texel(s, w->x[l], w->y[l], 0) + (size_t)smp * fi->bytes;
    uint8_t mask = b->color_mask;
    if ((mask & 0xf) == 0)
        return;
    uint8_t old[16];
    memcpy(old, p, fi->bytes);

    if (fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT) {
        uint32_t v[4];
        for (int c = 0; c < 4; c++)
            v[c] = w->color[rt].u[c][l];
        if (st->color_logic_op) {
            uint32_t dv[4];
            gm_format_unpack_rgba_i(s->format, p, dv);
            for (int c = 0; c < 4; c++)
                v[c] = logic_op(st->logic_op, v[c], dv[c]);
        }
        gm_format_pack_rgba_i(s->format, v, p);
    } else {
        float src[4], src1[4], dst[4], k[4], out[4];
        for (int c = 0; c < 4; c++) {
            src[c] = w->color[rt].f[c][l];
            src1[c] = w->color[GM_PIPE_MAX_RT].f[c][l];
            k[c] = st->blend_color[c];
        }
        if (alpha_to_one)
            src[3] = 1.0f;
        bool dst_alpha = fi->channels == 4 || s->format == GM_FMT_A8;
        bool srgb = fi->srgb && st->framebuffer_srgb;
        gm_format wfmt = s->format;
        if (fi->srgb && !st->framebuffer_srgb)   /* write raw, no encode */
            wfmt = s->format == GM_FMT_SRGB8 ? GM_FMT_RGB8 : GM_FMT_RGBA8;
        if (is_unorm8_target(s->format) && b->enable && !st->color_logic_op) {
            uint8_t s8[4], s18[4], d8[4], k8[4], o8[4];
            float dtmp[4];
            read_dst(s, p, dtmp);
            for (int c = 0; c < 4; c++) {
                s8[c] = gm_float_to_unorm8(src[c]);
                s18[c] = gm_float_to_unorm8(src1[c]);
                d8[c] = gm_float_to_unorm8(dtmp[c]);
                k8[c] = gm_float_to_unorm8(k[c]);
            }
            for (int c = 0; c < 4; c++) {
                bool a = c == 3;
                unsigned sf = blend_factor_8(a ? b->src_alpha : b->src_rgb, c, s8, s18, d8, k8, dst_alpha);
                unsigned df = blend_factor_8(a ? b->dst_alpha : b->dst_rgb, c, s8, s18, d8, k8, dst_alpha);
                o8[c] = (uint8_t)blend_eq_8(a ? b->eq_alpha : b->eq_rgb, s8[c], sf, d8[c], df);
                out[c] = gm_unorm8_to_float(o8[c]);
            }
        } else {
            bool clamp = fi->kind == GM_KIND_UNORM || fi->kind == GM_KIND_SNORM;
            float lo = fi->kind == GM_KIND_SNORM ? -1.0f : 0.0f;
            if (clamp) {
                for (int c = 0; c < 4; c++) {
                    src[c] = clamp_norm(src[c], lo);
                    src1[c] = clamp_norm(src1[c], lo);
                    k[c] = clamp_norm(k[c], lo);
                }
            }
            if (b->enable && !st->color_logic_op) {
                read_dst(s, p, dst);
                if (fi->srgb && !srgb)   /* blending without decode */
                    gm_format_unpack_rgba(wfmt, p, dst);
                for (int c = 0; c < 4; c++) {
                    bool a = c == 3;
                    float sf = blend_factor_f(a ? b->src_alpha : b->src_rgb, c, src, src1, dst, k, dst_alpha);
                    float df = blend_factor_f(a ? b->dst_alpha : b->dst_rgb, c, src, src1, dst, k, dst_alpha);
                    out[c] = blend_eq_f(a ? b->eq_alpha : b->eq_rgb, src[c], sf, dst[c], df);
                }
            } else {
                memcpy(out, src, sizeof(out));
            }
        }
        gm_format_pack_rgba_rt(wfmt, out, p);
        if (st->color_logic_op && fi->kind == GM_KIND_UNORM && fi->bytes <= 4) {
            uint32_t sv = 0, dv = 0;
            memcpy(&sv, p, fi->bytes);
            memcpy(&dv, old, fi->bytes);
            uint32_t r = logic_op(st->logic_op, sv, dv);
            memcpy(p, &r, fi->bytes);
        }
    }
    /* Colour write mask: restore masked channels from the old texel. */
    if ((mask & 0xf) != 0xf) {
        uint8_t neu[16];
        memcpy(neu, p, fi->bytes);
        if (fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT) {
            uint32_t o[4], n[4];
            gm_format_unpack_rgba_i(s->format, old, o);
            gm_format_unpack_rgba_i(s->format, neu, n);
            for (int c = 0; c < 4; c++)
                if (!(mask & (1u << c))) n[c] = o[c];
            gm_format_pack_rgba_i(s->format, n, p);
        } else if (fi->bits[0] == 8 && fi->bits[1] <= 8 && !fi->block &&
                   s->format != GM_FMT_BGRA8 && s->format != GM_FMT_A8 &&
                   s->format != GM_FMT_L8 && s->format != GM_FMT_LA8) {
            for (int c = 0; c < fi->channels; c++)
                if (!(mask & (1u << c))) p[c] = old[c];
        } else {
            /* generic path: decode both, merge, re-encode (lossless for the
             * channels kept because decode/encode round-trips) */
            float o[4], n[4];
            gm_format fmt = s->format;
            if (fi->srgb) fmt = fmt == GM_FMT_SRGB8 ? GM_FMT_RGB8 : GM_FMT_RGBA8;
            if (s->format == GM_FMT_BGRA8) fmt = GM_FMT_BGRA8;
            gm_format_unpack_rgba(fmt, old, o);
            gm_format_unpack_rgba(fmt, neu, n);
            for (int c = 0; c < 4; c++)
                if (!(mask & (1u << c))) n[c] = o[c];
            gm_format_pack_rgba(fmt, n, p);
        }
    }
}

/* Whether render target rt takes write_rt's plain path: an RGBA8 target, no blending, no
 * logic op, every channel written. Its colour then only goes through clamp_norm and the
 * RGBA8 pack, so a warp can skip write_rt's per-lane format and state decisions. */
static bool plain_rgba8(const gm_pipe_context *ctx, int rt)
{
    const gm_pipe_state *st = &ctx->state;
    return ctx->fb.color[rt]->format == GM_FMT_RGBA8 && !st->blend[rt].enable &&
           !st->color_logic_op && (st->blend[rt].color_mask & 0xf) == 0xf;
}

/* RGBA8 bytes of four lanes' colours (SoA: f[c][0..3]), little-endian R first: clamp_norm
 * then unorm_from_float (gm_format.c) for every channel. maxps returns its second operand
 * when the first is NaN, so NaN and negatives become 0 as `!(x > 0)` makes them; minps keeps
 * 1; the product is the same float x * 255, and cvtps2dq rounds in the current rounding
 * mode as rintf does. */
#if defined(__SSE2__)
static inline __m128i rgba8_of_4_lanes(const float *r, const float *g, const float *b,
                                       const float *a)
{
    const __m128 zero = _mm_setzero_ps(), one = _mm_set1_ps(1.0f), scale = _mm_set1_ps(255.0f);
    __m128i c[4];
    const float *src[4] = {r, g, b, a};
    for (int k = 0; k < 4; k++) {
        __m128 v = _mm_min_ps(_mm_max_ps(_mm_loadu_ps(src[k]), zero), one);
        c[k] = _mm_cvtps_epi32(_mm_mul_ps(v, scale));
    }
    return _mm_or_si128(_mm_or_si128(c[0], _mm_slli_epi32(c[1], 8)),
                        _mm_or_si128(_mm_slli_epi32(c[2], 16), _mm_slli_epi32(c[3], 24)));
}
#endif

static void write_plain_rgba8(const gm_pipe_context *ctx, int rt, const gm_pipe_fs_warp *w,
                              uint32_t mask)
{
    const gm_surface *s = ctx->fb.color[rt];
    size_t pixel = 4u * (size_t)(s->samples > 0 ? s->samples : 1);
#if defined(__SSE2__)
    const float (*f)[GM_PIPE_WARP_LANES] = w->color[rt].f;
    for (int l0 = 0; l0 < GM_PIPE_WARP_LANES; l0 += 4) {
        if (!((mask >> l0) & 0xfu))
            continue;
        uint32_t px[4];
        _mm_storeu_si128((__m128i *)(void *)px,
                         rgba8_of_4_lanes(&f[0][l0], &f[1][l0], &f[2][l0], &f[3][l0]));
        for (int i = 0; i < 4; i++) {
            int l = l0 + i;
            if (mask & (1u << l))
                memcpy(s->data + (size_t)w->y[l] * s->row_stride + (size_t)w->x[l] * pixel,
                       &px[i], 4);
        }
    }
#else
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(mask & (1u << l)))
            continue;
        float out[4];
        for (int c = 0; c < 4; c++)
            out[c] = clamp_norm(w->color[rt].f[c][l], 0.0f);
        gm_format_pack_rgba(GM_FMT_RGBA8, out,
                            s->data + (size_t)w->y[l] * s->row_stride + (size_t)w->x[l] * pixel);
    }
#endif
}

void gm_fragops_color(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask)
{
    for (int rt = 0; rt < GM_PIPE_MAX_RT; rt++) {
        if (!ctx->fb.color[rt])
            continue;
        if (ctx->state.blend[rt].enable)
            ctx->stats.blend_ops += (uint64_t)__builtin_popcount(mask);
        int wl = gm_watch_lane(ctx, w, mask);
        if (wl < 0 && plain_rgba8(ctx, rt)) {
            write_plain_rgba8(ctx, rt, w, mask);
            continue;
        }
        uint32_t left = mask;   /* lanes write_rt still writes */
        if (wl < 0 && gm_color_half4_ok(ctx, rt))
            left &= ~gm_color_half4_write(ctx, rt, w, mask);
        gm_watch_rec wr;
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
            if (l == wl)
                gm_watch_color_before(ctx, w, rt, l, 0, false, &wr);
            if (left & (1u << l))
                write_rt(ctx, rt, w, l, 0, false);
            if (l == wl)
                gm_watch_color_after(ctx, w, &wr);
        }
    }
}

void gm_fragops_color_ms(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask,
                         const uint32_t *smask, bool alpha_to_one)
{
    /* the shader ran once per pixel (or per sample): its colour goes to every sample
     * still covered, each blended with that sample's destination */
    for (int rt = 0; rt < GM_PIPE_MAX_RT; rt++) {
        if (!ctx->fb.color[rt])
            continue;
        int wl = gm_watch_lane(ctx, w, mask);
        gm_watch_rec wr;
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
            if (!(mask & (1u << l)))
                continue;
            if (ctx->state.blend[rt].enable)
                ctx->stats.blend_ops++;
            for (int s = 0; s < GM_PIPE_MAX_SAMPLES; s++) {
                if (!(smask[l] & (1u << s)))
                    continue;
                if (l == wl)
                    gm_watch_color_before(ctx, w, rt, l, s, alpha_to_one, &wr);
                write_rt(ctx, rt, w, l, s, alpha_to_one);
                if (l == wl)
                    gm_watch_color_after(ctx, w, &wr);
            }
        }
    }
}

/* ---- clears --------------------------------------------------------------------- */

static void clear_rect(const gm_pipe_context *ctx, const gm_surface *s, int r[4])
{
    r[0] = 0; r[1] = 0; r[2] = s->width; r[3] = s->height;
    if (ctx->state.scissor_enable) {
        const int *sc = ctx->state.scissor;
        int x0 = sc[0] > 0 ? sc[0] : 0, y0 = sc[1] > 0 ? sc[1] : 0;
        int x1 = sc[0] + sc[2], y1 = sc[1] + sc[3];
        if (x1 > s->width) x1 = s->width;
        if (y1 > s->height) y1 = s->height;
        r[0] = x0; r[1] = y0; r[2] = x1; r[3] = y1;
    }
    /* window-system framebuffers clip by the same rectangle in window coordinates */
}

static void clear_rt(gm_pipe_context *ctx, int rt, const float *f, const uint32_t *u)
{
    if (rt < 0 || rt >= GM_PIPE_MAX_RT || !ctx->fb.color[rt])
        return;
    gm_surface *s = ctx->fb.color[rt];
    int r[4];
    clear_rect(ctx, s, r);
    gm_pipe_fs_warp *w = NULL;
    (void)w;
    const gm_format_info *fi = gm_format_get(s->format);
    uint8_t mask = ctx->state.blend[rt].color_mask & 0xf;
    uint8_t texel[16];
    gm_format wfmt = s->format;
    if (fi->srgb && !ctx->state.framebuffer_srgb)
        wfmt = s->format == GM_FMT_SRGB8 ? GM_FMT_RGB8 : GM_FMT_RGBA8;
    if (u) gm_format_pack_rgba_i(s->format, u, texel);
    else gm_format_pack_rgba(wfmt, f, texel);
    for (int y = r[1]; y < r[3]; y++)
        for (int x = r[0]; x < r[2]; x++)
            for (int smp = 0; smp < s->samples; smp++) {
                uint8_t *p = gm_surface_texel(s, x, y, 0) + smp * fi->bytes;
                if (mask == 0xf) {
                    memcpy(p, texel, fi->bytes);
                } else if (u) {
                    uint32_t o[4], n[4];
                    gm_format_unpack_rgba_i(s->format, p, o);
                    gm_format_unpack_rgba_i(s->format, texel, n);
                    for (int c = 0; c < 4; c++) if (!(mask & (1u << c))) n[c] = o[c];
                    gm_format_pack_rgba_i(s->format, n, p);
                } else {
                    float o[4], n[4];
                    gm_format_unpack_rgba(wfmt, p, o);
                    gm_format_unpack_rgba(wfmt, texel, n);
                    for (int c = 0; c < 4; c++) if (!(mask & (1u << c))) n[c] = o[c];
                    gm_format_pack_rgba(wfmt, n, p);
                }
            }
}

void gm_pipe_clear_color(gm_pipe_context *ctx, int rt, const float rgba[4])
{
    clear_rt(ctx, rt, rgba, NULL);
}

void gm_pipe_clear_color_i(gm_pipe_context *ctx, int rt, const uint32_t rgba[4])
{
    clear_rt(ctx, rt, NULL, rgba);
}

void gm_pipe_clear_depth_stencil(gm_pipe_context *ctx, bool clear_depth, float depth,
                                 bool clear_stencil, uint8_t stencil)
{
    gm_surface *d = ctx->fb.depth, *s = ctx->fb.stencil;
    int r[4];
    if (clear_depth && d && ctx->state.depth_write) {
        const gm_format_info *fi = gm_format_get(d->format);
        clear_rect(ctx, d, r);
        float z = depth < 0.0f ? 0.0f : depth > 1.0f ? 1.0f : depth;
        for (int y = r[1]; y < r[3]; y++)
            for (int x = r[0]; x < r[2]; x++)
                for (int smp = 0; smp < d->samples; smp++)
                    gm_format_pack_depth(d->format, z, gm_surface_texel(d, x, y, 0) + smp * fi->bytes);
    }
    if (clear_stencil && s) {
        const gm_format_info *fi = gm_format_get(s->format);
        uint8_t wm = ctx->state.stencil[0].write_mask;
        clear_rect(ctx, s, r);
        for (int y = r[1]; y < r[3]; y++)
            for (int x = r[0]; x < r[2]; x++)
                for (int smp = 0; smp < s->samples; smp++) {
                    uint8_t *p = gm_surface_texel(s, x, y, 0) + smp * fi->bytes;
                    uint8_t o = gm_format_unpack_stencil(s->format, p);
                    gm_format_pack_stencil(s->format, (uint8_t)((o & ~wm) | (stencil & wm)), p);
                }
    }
}
