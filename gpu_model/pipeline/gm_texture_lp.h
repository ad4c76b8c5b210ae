/* gm_texture_lp.h - llvmpipe's texture-sampling arithmetic (Mesa 22.3 gallivm, default
 * GALLIVM_PERF: exact rho, no brilinear, one LOD per 2x2 quad), so the model's texture
 * units round exactly like the driver:
 *
 *  - LOD: rho^2 = max over x/y of the summed squared texel-space derivatives, lod =
 *    0.5 * fast_log2(rho^2) where fast_log2 is the piece-wise linear exponent+mantissa
 *    approximation (not log2f); with no bias/clamp and a nearest (or no) mip filter the
 *    level is an exact integer log2 instead.  Bias, min/max LOD as Mesa's state tracker
 *    and llvmpipe's static sampler state apply them.
 *  - The "AoS" path (formats whose channels all fit 8-bit unorm, REPEAT/CLAMP_TO_EDGE
 *    wraps, no compare): coordinates become 8.8 fixed point (round to nearest even),
 *    bilinear weights are 8 bits, lerps are a + ((w * (b - a) + 128) >> 8) on bytes, and
 *    the mip weight is trunc(fpart * 256).
 *
 * Internal to gpu_model/pipeline (gm_texture.c and its unit test). */
#ifndef GM_TEXTURE_LP_H
#define GM_TEXTURE_LP_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__SSE__)
#include <xmmintrin.h>
#endif

enum { GM_LP_MIP_NONE, GM_LP_MIP_NEAREST, GM_LP_MIP_LINEAR };

/* Arithmetic primitives (bit-exact with the JIT code on x86 with AVX2). */
float gm_lp_fast_log2(float x);     /* floor(log2 x) - 1 + mantissa in [1,2) */
int gm_lp_ilog2(float x);           /* floor(log2(x * sqrt 2)), exponent only */
int gm_lp_ilog2_sqrt(float x);      /* (floor(log2 x) + 1) >> 1 = round(log2 sqrt x) */

/* Largest float below 1 (lp_build_fract_safe clamps to it). */
#define GM_LP_ONE_MINUS_EPS 0.99999994f

/* The conversions below are inline: the AoS filter runs them for both axes of every texel
 * it filters (issue 17 §1). Out-of-range conversions give INT32_MIN like cvtps2dq /
 * cvttps2dq. */
static inline bool gm_lp_int_range(float x)
{
    return x > -2147483520.0f && x < 2147483520.0f;
}

/* cvtps2dq: nearest, ties to even (the default MXCSR rounding, as lrintf). */
static inline int gm_lp_iround(float x)
{
    if (!gm_lp_int_range(x))
        return INT32_MIN;
#if defined(__SSE__)
    return _mm_cvtss_si32(_mm_set_ss(x));
#else
    return (int)lrintf(x);
#endif
}

/* Truncation (cvttps2dq). */
static inline int gm_lp_itrunc(float x)
{
    return gm_lp_int_range(x) ? (int)x : INT32_MIN;
}

/* floor: the truncation, one less where it rounded up (exact in the int range: a float
 * of magnitude 2^23 or more is an integer, which the truncation keeps). */
static inline int gm_lp_ifloor(float x)
{
    if (!gm_lp_int_range(x))
        return INT32_MIN;
    int t = (int)x;
    return (float)t > x ? t - 1 : t;
}
/* w in 0..255 (pre-scaled 8-bit weight). pmulhrsw(w, (b - a) << 7) = (w * (b - a) + 128)
 * >> 8 (an arithmetic shift: floor division, as GCC defines >> on negative values), added
 * to a as bytes. Inline: the AoS filter calls it per channel and corner of every texel. */
static inline uint8_t gm_lp_lerp8(int w, int a, int b)
{
    int64_t t = ((int64_t)w * (b - a) + 128) >> 8;
    return (uint8_t)(((int64_t)a + t) & 0xff);
}

#if defined(__SSE2__)
/* gm_lp_lerp8 on eight 16-bit lanes at once (values 0..255, the weight in every lane of w):
 * the 32-bit products from the low and high halves, the same rounding shift, the sum's low
 * byte. */
static inline __m128i gm_lp_lerp8_epi16(__m128i w, __m128i a, __m128i b)
{
    __m128i d = _mm_sub_epi16(b, a);
    __m128i lo = _mm_mullo_epi16(d, w), hi = _mm_mulhi_epi16(d, w);
    const __m128i half = _mm_set1_epi32(128);
    __m128i p0 = _mm_srai_epi32(_mm_add_epi32(_mm_unpacklo_epi16(lo, hi), half), 8);
    __m128i p1 = _mm_srai_epi32(_mm_add_epi32(_mm_unpackhi_epi16(lo, hi), half), 8);
    __m128i t = _mm_packs_epi32(p0, p1);   /* within [-255, 255]: no saturation */
    return _mm_and_si128(_mm_add_epi16(a, t), _mm_set1_epi16(0xff));
}

/* Four texels (4 bytes each) as 16-bit lanes: t0 t1 in lanes 0-3, t2 t3 in lanes 4-7. */
static inline __m128i gm_lp_texels_epi16(uint32_t lo, uint32_t hi)
{
    __m128i v = _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)lo), _mm_cvtsi32_si128((int)hi));
    return _mm_unpacklo_epi8(v, _mm_setzero_si128());
}
#endif

/* The AoS bilinear filter of four RGBA texels v[0] (x0,y0), v[1] (x1,y0), v[2] (x0,y1),
 * v[3] (x1,y1): gm_lp_lerp8 of each channel along x with weight wx, then along y with wy
 * (both 0..255). With SSE2 the two rows' x lerps run together. */
static inline void gm_lp_bilerp8(int wx, int wy, const uint8_t v[4][4], uint8_t out[4])
{
#if defined(__SSE2__)
    uint32_t t[4];
    memcpy(t, v, sizeof(t));
    __m128i x = gm_lp_lerp8_epi16(_mm_set1_epi16((short)wx), gm_lp_texels_epi16(t[0], t[2]),
                                  gm_lp_texels_epi16(t[1], t[3]));
    __m128i y = gm_lp_lerp8_epi16(_mm_set1_epi16((short)wy), x, _mm_srli_si128(x, 8));
    int r = _mm_cvtsi128_si32(_mm_packus_epi16(y, y));
    memcpy(out, &r, 4);
#else
    for (int ch = 0; ch < 4; ch++)
        out[ch] = gm_lp_lerp8(wy, gm_lp_lerp8(wx, v[0][ch], v[1][ch]),
                              gm_lp_lerp8(wx, v[2][ch], v[3][ch]));
#endif
}

/* The AoS result of one lane as floats: a (and with two levels gm_lp_lerp8 towards b with
 * the mip weight w8) times the float 1/255, as gm_unorm8_to_float converts. */
static inline void gm_lp_mip8_to_float(const uint8_t a[4], const uint8_t b[4], bool two, int w8,
                                       float out[4])
{
    const float scale = (float)(1.0 / 255.0);
#if defined(__SSE2__)
    uint32_t ta, tb;
    memcpy(&ta, a, 4);
    __m128i v = gm_lp_texels_epi16(ta, 0);
    if (two) {   /* b is only read here: a single level leaves it unset */
        memcpy(&tb, b, 4);
        v = gm_lp_lerp8_epi16(_mm_set1_epi16((short)w8), v, gm_lp_texels_epi16(tb, 0));
    }
    __m128 f = _mm_cvtepi32_ps(_mm_unpacklo_epi16(v, _mm_setzero_si128()));
    _mm_storeu_ps(out, _mm_mul_ps(f, _mm_set1_ps(scale)));
#else
    for (int ch = 0; ch < 4; ch++)
        out[ch] = (float)(two ? gm_lp_lerp8(w8, a[ch], b[ch]) : a[ch]) * scale;
#endif
}

/* rho of the texel-space derivatives (size = base level size, dims 1..3). For dims > 1 it
 * is rho squared (*squared = true); for 1D the plain max(|ddx|, |ddy|) * size. Infinity
 * and NaN give 0. */
float gm_lp_rho(int dims, const float size[3], const float ddx[3], const float ddy[3],
                bool *squared);

/* Inputs of the LOD / mip level selection of one quad (or lane). */
typedef struct gm_lp_lod_in {
    int mip;                 /* GM_LP_MIP_* actually used (NONE when only level 0 exists) */
    int sampler_mip;         /* the sampler's own mip filter (decides min/max LOD use) */
    bool min_eq_mag;         /* min and mag image filters are the same */
    float lod_bias;          /* sampler LOD bias */
    float min_lod, max_lod;  /* sampler GL_TEXTURE_MIN/MAX_LOD as set in GL */
    bool explicit_lod;       /* lod below is given (textureLod, texelFetch-like) */
    float lod;
    float rho;               /* otherwise: gm_lp_rho() */
    bool rho_squared;
    bool has_shader_bias;    /* texture(s, c, bias) */
    float shader_bias;
    int first_level, last_level;
} gm_lp_lod_in;

typedef struct gm_lp_lod_sel {
    bool minified;           /* use the min filter (else mag) */
    int level0, level1;      /* absolute levels, level1 == level0 when one is used */
    float fpart;             /* weight of level1 (linear mip filter), else 0 */
} gm_lp_lod_sel;

void gm_lp_lod_select(const gm_lp_lod_in *in, gm_lp_lod_sel *out);

/* The request-wide part of gm_lp_lod_select (the sampler's clamps and bias, the mip filter,
 * the levels), worked out once so that a quad with an implicit LOD pays only for its rho. */
typedef struct gm_lp_lod_plan {
    int mip, first_level, last_level;
    bool base_only;              /* min == mag filter without mips: no LOD at all */
    bool fixed;                  /* min_lod == max_lod: that LOD, no bias nor clamps */
    bool apply_min, apply_max, bias_nz;
    bool int_log2;               /* without a shader bias: the integer log2 of rho */
    float min_lod, max_lod, lod_bias;
} gm_lp_lod_plan;

void gm_lp_lod_plan_init(const gm_lp_lod_in *in, gm_lp_lod_plan *p);

/* gm_lp_lod_select of an implicit (rho) LOD with the plan of its gm_lp_lod_in. */
void gm_lp_lod_select_rho(const gm_lp_lod_plan *p, float rho, bool rho_squared,
                          bool has_shader_bias, float shader_bias, gm_lp_lod_sel *out);

/* gm_lp_rho for two dimensions (rho squared), the same operations in the same order. */
static inline float gm_lp_rho2(float w, float h, float dx0, float dx1, float dy0, float dy1)
{
    float a0 = w * dx0, b0 = w * dy0, a1 = h * dx1, b1 = h * dy1;
    a0 = a0 * a0;
    b0 = b0 * b0;
    a1 = a1 * a1;
    b1 = b1 * b1;
    float rx = a0 + a1, ry = b0 + b1;
    float rho = fmaxf(rx, ry);
    if (isinf(rho) || isnan(rho))
        rho = 0.0f;
    return rho;
}

/* Mip weight of the AoS path: trunc(fpart * 256) as 8 bits. */
static inline int gm_lp_mip_weight8(float fpart)
{
    int w = gm_lp_itrunc(fpart * 256.0f);
    return w > 0 ? (w & 0xff) : 0;
}

/* One axis of the AoS path. `size` is the level's size along it, `pot` whether the base
 * (level 0) size is a power of two, `normalized` false for rectangle textures, `repeat`
 * GL_REPEAT (else GL_CLAMP_TO_EDGE), `offset` the texel offset. */
typedef struct gm_lp_axis {
    int i0, i1;  /* the two texels, already wrapped */
    int w;       /* 8-bit weight of i1 */
} gm_lp_axis;

/* floor(v / 256) for any sign: the JIT's arithmetic shift (GCC's >> on a negative value). */
static inline int64_t gm_lp_asr8(int64_t v)
{
    return v >> 8;
}

static inline int gm_lp_clampi(int v, int lo, int hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Repeat of a non-power-of-two size: the normalized coordinate (the offset joining as
 * offset / size) wrapped as a float, x - floor(x). */
static inline float gm_lp_repeat_fract(float u, int size, int offset)
{
    float cf = u;
    if (offset)
        cf = cf + (float)offset / (float)size;
    return cf - floorf(cf);
}

static inline void gm_lp_axis_linear(float u, int size, bool pot, bool normalized, bool repeat,
                                     int offset, gm_lp_axis *out)
{
    if (size < 1)
        size = 1;
    if (normalized && repeat && !pot) {
        /* repeat, non-power-of-two: wrap the float coordinate first */
        float cf = gm_lp_repeat_fract(u, size, offset);
        cf = cf * (float)size;
        cf = cf * 256.0f;
        int64_t c = (int64_t)gm_lp_iround(cf) - 128;
        out->w = (int)(c & 0xff);
        int64_t i0 = gm_lp_asr8(c);
        if (i0 < 0)
            i0 = size - 1;
        if (i0 > size - 1)
            i0 = size - 1;
        out->i0 = (int)i0;
        out->i1 = out->i0 == size - 1 ? 0 : out->i0 + 1;
        return;
    }
    float x = normalized ? u * (float)(size << 8) : u * 256.0f;
    int64_t c = (int64_t)gm_lp_iround(x) - 128;
    out->w = (int)(c & 0xff);
    int64_t ip = gm_lp_asr8(c) + offset;
    if (repeat) {
        out->i0 = (int)((uint64_t)ip & (uint64_t)(size - 1));
        out->i1 = (int)((uint64_t)(ip + 1) & (uint64_t)(size - 1));
    } else {
        out->i0 = ip < 0 ? 0 : (ip > size - 1 ? size - 1 : (int)ip);
        out->i1 = ip + 1 < 0 ? 0 : (ip + 1 > size - 1 ? size - 1 : (int)ip + 1);
    }
}

static inline int gm_lp_axis_nearest(float u, int size, bool pot, bool normalized, bool repeat,
                                     int offset)
{
    if (size < 1)
        size = 1;
    if (repeat && normalized && !pot) {
        float cf = fminf(gm_lp_repeat_fract(u, size, offset), GM_LP_ONE_MINUS_EPS);
        int i = gm_lp_itrunc(cf * (float)size);
        return gm_lp_clampi(i, 0, size - 1);
    }
    float x = normalized ? u * (float)size : u;
    int64_t ip = (int64_t)gm_lp_ifloor(x) + offset;
    if (repeat)
        return (int)((uint64_t)ip & (uint64_t)(size - 1));
    return ip < 0 ? 0 : (ip > size - 1 ? size - 1 : (int)ip);
}

/* One axis of llvmpipe's general (float, "SoA") nearest filter for GL wrap mode `wrap`
 * (lp_build_sample_wrap_nearest): the texel index; *border set (index 0) when the border
 * colour is sampled instead. */
int gm_lp_wrap_nearest_f(uint32_t wrap, float u, int size, bool pot, bool normalized,
                         int offset, bool *border);

/* One axis of llvmpipe's general (float, "SoA") linear filter for GL wrap mode `wrap`:
 * the two texel indices (already wrapped; out of range means the border colour) and the
 * float weight of i1 (for the mirror-clamp border modes the border is index `size`, which
 * their integer mirror wrap keeps outside). Returns false for wrap modes it does not
 * model (MIRRORED_REPEAT on unnormalized coordinates), which the caller filters its own
 * way. */
bool gm_lp_axis_linear_f(uint32_t wrap, float u, int size, bool pot, bool normalized,
                         int offset, int *i0, int *i1, float *w);

/* Cube face selection and face coordinates as lp_build_cube_lookup: on ties z wins over
 * y over x; st = sc * (0.5 / |ma|) + 0.5. With ddx/ddy (derivatives of the direction) it
 * also gives the face coordinates' derivatives dst[0] = d(s,t)/dx, dst[1] = d(s,t)/dy.
 * Returns the face 0..5 (+X, -X, +Y, -Y, +Z, -Z). */
int gm_lp_cube_lookup(const float dir[3], const float ddx[3], const float ddy[3], float st[2],
                      float dst[2][2]);

/* llvmpipe's float lerp: fused multiply-add of the weight and the difference. */
float gm_lp_lerpf(float w, float a, float b);

#endif
