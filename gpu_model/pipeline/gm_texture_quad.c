/* gm_texture_quad.c - the 2D AoS filter of gm_texture.c for four lanes at once (see
 * gm_texture_quad.h). Each step is the per-lane arithmetic of gm_texture_lp.h on four 32-bit
 * lanes: cvtps2dq is gm_lp_iround and cvttps2dq gm_lp_itrunc for values inside the int
 * range, so the quad is refused (the caller goes lane by lane) unless every value converted
 * lies within +-2^30, where the 32-bit sums below cannot overflow either. */
#include "gm_texture_quad.h"

#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>

#include "gm_texture_lp.h"

/* The axis and texel helpers run several times per quad: inlined, GCC would call them. */
#if defined(__GNUC__)
#define GM_TEXQ_INLINE __attribute__((always_inline))
#else
#define GM_TEXQ_INLINE
#endif

/* Two texel indices and the 8-bit weight of the second, per lane. */
typedef struct axis4 {
    __m128i i0, i1, w;
} axis4;

/* All four lanes within +-2^30 (false for NaN and infinities). */
static inline GM_TEXQ_INLINE bool in_range4(__m128 x)
{
    const __m128 abs_mask = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff));
    __m128 ok = _mm_cmplt_ps(_mm_and_ps(x, abs_mask), _mm_set1_ps(1073741824.0f));
    return _mm_movemask_ps(ok) == 0xf;
}

static __m128i select_epi32(__m128i m, __m128i a, __m128i b)   /* m ? a : b */
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

static __m128i clamp_epi32(__m128i v, __m128i hi)   /* to [0, hi] */
{
    v = _mm_andnot_si128(_mm_cmplt_epi32(v, _mm_setzero_si128()), v);
    return select_epi32(_mm_cmpgt_epi32(v, hi), hi, v);
}

/* floorf for |x| < 2^30: the truncation (exact there), one less where it rounded up. A zero
 * comes out +0 where floorf keeps -0; x - floor(x) is then -0 instead of +0, which every use
 * below turns into texel 0 with weight 0 alike. */
static __m128 floor4(__m128 x)
{
    __m128 f = _mm_cvtepi32_ps(_mm_cvttps_epi32(x));
    return _mm_sub_ps(f, _mm_and_ps(_mm_cmpgt_ps(f, x), _mm_set1_ps(1.0f)));
}

/* gm_lp_repeat_fract: the offset joins as offset / size (only where it is not 0), then
 * x - floor(x). False when out of range. */
static inline GM_TEXQ_INLINE bool repeat_fract4(__m128 u, int size, __m128i off, bool has_off,
                                                __m128 *out)
{
    __m128 cf = u;
    if (has_off) {
        __m128 added = _mm_add_ps(cf, _mm_div_ps(_mm_cvtepi32_ps(off), _mm_set1_ps((float)size)));
        __m128 zero = _mm_castsi128_ps(_mm_cmpeq_epi32(off, _mm_setzero_si128()));
        cf = _mm_or_ps(_mm_and_ps(zero, u), _mm_andnot_ps(zero, added));
    }
    if (!in_range4(cf))
        return false;
    *out = _mm_sub_ps(cf, floor4(cf));
    return true;
}

/* gm_lp_axis_linear for normalized coordinates, four lanes. */
static inline GM_TEXQ_INLINE bool axis4_linear(__m128 u, int size, bool pot, bool repeat,
                                               __m128i off, bool has_off, axis4 *a)
{
    if (size < 1)
        size = 1;
    const __m128i last = _mm_set1_epi32(size - 1);
    const __m128i half = _mm_set1_epi32(128), byte = _mm_set1_epi32(0xff);
    if (repeat && !pot) {
        __m128 cf;
        if (!repeat_fract4(u, size, off, has_off, &cf))
            return false;
        cf = _mm_mul_ps(_mm_mul_ps(cf, _mm_set1_ps((float)size)), _mm_set1_ps(256.0f));
        if (!in_range4(cf))
            return false;
        __m128i c = _mm_sub_epi32(_mm_cvtps_epi32(cf), half);
        a->w = _mm_and_si128(c, byte);
        __m128i i0 = _mm_srai_epi32(c, 8);
        __m128i out = _mm_or_si128(_mm_cmplt_epi32(i0, _mm_setzero_si128()),
                                   _mm_cmpgt_epi32(i0, last));
        i0 = select_epi32(out, last, i0);
        a->i0 = i0;
        a->i1 = _mm_andnot_si128(_mm_cmpeq_epi32(i0, last), _mm_add_epi32(i0, _mm_set1_epi32(1)));
        return true;
    }
    __m128 x = _mm_mul_ps(u, _mm_set1_ps((float)(size << 8)));
    if (!in_range4(x))
        return false;
    __m128i c = _mm_sub_epi32(_mm_cvtps_epi32(x), half);
    a->w = _mm_and_si128(c, byte);
    __m128i ip = _mm_add_epi32(_mm_srai_epi32(c, 8), off);
    __m128i ip1 = _mm_add_epi32(ip, _mm_set1_epi32(1));
    if (repeat) {
        a->i0 = _mm_and_si128(ip, last);
        a->i1 = _mm_and_si128(ip1, last);
    } else {
        a->i0 = clamp_epi32(ip, last);
        a->i1 = clamp_epi32(ip1, last);
    }
    return true;
}

/* gm_lp_axis_nearest for normalized coordinates, four lanes. */
static inline GM_TEXQ_INLINE bool axis4_nearest(__m128 u, int size, bool pot, bool repeat,
                                                __m128i off, bool has_off, __m128i *i)
{
    if (size < 1)
        size = 1;
    const __m128i last = _mm_set1_epi32(size - 1);
    if (repeat && !pot) {
        __m128 cf;
        if (!repeat_fract4(u, size, off, has_off, &cf))
            return false;
        cf = _mm_min_ps(cf, _mm_set1_ps(GM_LP_ONE_MINUS_EPS));
        *i = clamp_epi32(_mm_cvttps_epi32(_mm_mul_ps(cf, _mm_set1_ps((float)size))), last);
        return true;
    }
    __m128 x = _mm_mul_ps(u, _mm_set1_ps((float)size));
    if (!in_range4(x))
        return false;
    __m128i t = _mm_cvttps_epi32(x);
    /* floor: one less where the truncation rounded up (the compare's -1) */
    t = _mm_add_epi32(t, _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(t), x)));
    __m128i ip = _mm_add_epi32(t, off);
    *i = repeat ? _mm_and_si128(ip, last) : clamp_epi32(ip, last);
    return true;
}

static inline GM_TEXQ_INLINE uint32_t load_texel(const uint8_t *p, bool rgb8)
{
    if (rgb8)
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | 0xff000000u;
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* One lane's weight in the four 16-bit channels of its texel: lanes 0-1 (*lo), 2-3 (*hi). */
static void spread_weights(__m128i w, __m128i *lo, __m128i *hi)
{
    __m128i p = _mm_packs_epi32(w, w);         /* w0 w1 w2 w3 (weights are 0..255) */
    __m128i q = _mm_unpacklo_epi16(p, p);      /* w0 w0 w1 w1 w2 w2 w3 w3 */
    *lo = _mm_unpacklo_epi32(q, q);
    *hi = _mm_unpackhi_epi32(q, q);
}

/* One level for the four lanes as 16-bit channels (lanes 0-1 in r[0], 2-3 in r[1]): the
 * nearest texel, or gm_lp_bilerp8's x lerps of both rows, then y. */
static bool level4(const gm_texq_addr *ad, const gm_texq_level *lv, bool linear, __m128 s,
                   __m128 t, __m128i os, __m128i ot, bool has_off, __m128i r[2])
{
    const __m128i zero = _mm_setzero_si128();
    const size_t ts = lv->texel_stride, rs = lv->row_stride;
    uint32_t tex[4][4];   /* [corner][lane]: (x0,y0) (x1,y0) (x0,y1) (x1,y1) */
    if (!linear) {
        __m128i ix, iy;
        if (!axis4_nearest(s, lv->width, ad->pot_s, ad->repeat_s, os, has_off, &ix) ||
            !axis4_nearest(t, lv->height, ad->pot_t, ad->repeat_t, ot, has_off, &iy))
            return false;
        int32_t x[4], y[4];
        _mm_storeu_si128((__m128i *)x, ix);
        _mm_storeu_si128((__m128i *)y, iy);
        for (int l = 0; l < 4; l++)
            tex[0][l] = load_texel(lv->base[l] + (size_t)y[l] * rs + (size_t)x[l] * ts, lv->rgb8);
        __m128i v = _mm_setr_epi32((int)tex[0][0], (int)tex[0][1], (int)tex[0][2],
                                   (int)tex[0][3]);
        r[0] = _mm_unpacklo_epi8(v, zero);
        r[1] = _mm_unpackhi_epi8(v, zero);
        return true;
    }
    axis4 ax, ay;
    if (!axis4_linear(s, lv->width, ad->pot_s, ad->repeat_s, os, has_off, &ax) ||
        !axis4_linear(t, lv->height, ad->pot_t, ad->repeat_t, ot, has_off, &ay))
        return false;
    int32_t x0[4], x1[4], y0[4], y1[4];
    _mm_storeu_si128((__m128i *)x0, ax.i0);
    _mm_storeu_si128((__m128i *)x1, ax.i1);
    _mm_storeu_si128((__m128i *)y0, ay.i0);
    _mm_storeu_si128((__m128i *)y1, ay.i1);
    /* the format test outside the loop: load_texel inlined with a constant */
#define GM_TEXQ_LOAD4(RGB8)                                                   \
    for (int l = 0; l < 4; l++) {                                             \
        const uint8_t *row0 = lv->base[l] + (size_t)y0[l] * rs;               \
        const uint8_t *row1 = lv->base[l] + (size_t)y1[l] * rs;               \
        const size_t a = (size_t)x0[l] * ts, b = (size_t)x1[l] * ts;          \
        tex[0][l] = load_texel(row0 + a, RGB8);                               \
        tex[1][l] = load_texel(row0 + b, RGB8);                               \
        tex[2][l] = load_texel(row1 + a, RGB8);                               \
        tex[3][l] = load_texel(row1 + b, RGB8);                               \
    }
    if (lv->rgb8)
        GM_TEXQ_LOAD4(true)
    else
        GM_TEXQ_LOAD4(false)
#undef GM_TEXQ_LOAD4
    __m128i wx[2], wy[2];
    spread_weights(ax.w, &wx[0], &wx[1]);
    spread_weights(ay.w, &wy[0], &wy[1]);
    __m128i v[4];
    for (int k = 0; k < 4; k++)
        v[k] = _mm_setr_epi32((int)tex[k][0], (int)tex[k][1], (int)tex[k][2], (int)tex[k][3]);
    for (int h = 0; h < 2; h++) {
        __m128i c[4];
        for (int k = 0; k < 4; k++)
            c[k] = h ? _mm_unpackhi_epi8(v[k], zero) : _mm_unpacklo_epi8(v[k], zero);
        __m128i row0 = gm_lp_lerp8_epi16(wx[h], c[0], c[1]);
        __m128i row1 = gm_lp_lerp8_epi16(wx[h], c[2], c[3]);
        r[h] = gm_lp_lerp8_epi16(wy[h], row0, row1);
    }
    return true;
}

/* ---- AVX2: the texels by gathers, both rows' x lerps in one 256-bit pass ---------------
 * Where the CPU has AVX2 (asked once through __builtin_cpu_supports, which clang 14 knows
 * for "avx2"), an RGBA8 or RGB8 level whose texels all lie within 2^30 bytes of lane 0's layer
 * reads its texels with vpgatherdd instead of sixteen loads and inserts: the addresses are
 * the ones level4 reads, and the lerps are gm_lp_lerp8_epi16's arithmetic on 16 values at
 * once, so the results are the same bits (tests/test_texture_quad.c runs every case both
 * ways). RGB8 texels are read as 4 bytes with the fourth replaced by alpha 255, except in
 * a quad that reaches the surface's last texel (its fourth byte lies past the end); levels
 * beyond that span stay on level4. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define GM_TEXQ_AVX2 1
#include <immintrin.h>

/* 0 not asked yet, 1 no, 2 yes; -1 switched off (gm_texq_use_avx2). A race asks twice. */
static int avx2_state;

static bool avx2_on(void)
{
    int st = __atomic_load_n(&avx2_state, __ATOMIC_RELAXED);
    if (!st) {
        st = __builtin_cpu_supports("avx2") ? 2 : 1;
        __atomic_store_n(&avx2_state, st, __ATOMIC_RELAXED);
    }
    return st == 2;
}

bool gm_texq_use_avx2(bool on)
{
    bool was = avx2_on();
    __atomic_store_n(&avx2_state, on ? 0 : -1, __ATOMIC_RELAXED);
    return was;
}

/* Every texel of lv lies within 2^30 bytes of base[0] (delta: each lane's layer from
 * lane 0's), so the 32-bit gather indices below cannot overflow. */
static bool gather_ok(const gm_texq_level *lv, int32_t delta[4])
{
    const uint64_t w = lv->width > 1 ? (uint64_t)lv->width : 1u;
    const uint64_t h = lv->height > 1 ? (uint64_t)lv->height : 1u;
    const uint64_t lim = 1u << 30;
    if (lv->row_stride >= lim || lv->texel_stride >= lim ||
        (h - 1) * lv->row_stride + w * lv->texel_stride >= lim)
        return false;
    for (int l = 0; l < 4; l++) {
        const intptr_t d = (intptr_t)lv->base[l] - (intptr_t)lv->base[0];
        if (d >= (intptr_t)lim || d <= -(intptr_t)lim)
            return false;
        delta[l] = (int32_t)d;
    }
    return true;
}

void gm_texq_level_ready(gm_texq_level *lv)
{
    lv->gather = gather_ok(lv, lv->delta);
    /* a 3-byte texel read as 4 bytes: only the surface's very last texel would read past
     * its end, so a quad reaching beyond gather_last goes through level4's loads */
    const size_t lim = (size_t)1 << 30;
    lv->gather_last = (int32_t)(lv->readable >= lim ? lim : lv->readable) - 4;
    if (lv->rgb8 && lv->gather_last < 0)
        lv->gather = false;
}

/* gm_lp_lerp8_epi16 on sixteen 16-bit values (the unpacks and the pack stay within each
 * 128-bit half, so each half is the SSE2 lerp of its eight). */
__attribute__((target("avx2"))) static inline __m256i lerp8_x2(__m256i w, __m256i a, __m256i b)
{
    __m256i d = _mm256_sub_epi16(b, a);
    __m256i lo = _mm256_mullo_epi16(d, w), hi = _mm256_mulhi_epi16(d, w);
    const __m256i half = _mm256_set1_epi32(128);
    __m256i p0 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_unpacklo_epi16(lo, hi), half), 8);
    __m256i p1 = _mm256_srai_epi32(_mm256_add_epi32(_mm256_unpackhi_epi16(lo, hi), half), 8);
    __m256i t = _mm256_packs_epi32(p0, p1);
    return _mm256_and_si256(_mm256_add_epi16(a, t), _mm256_set1_epi16(0xff));
}

/* Every index of v at most last. */
__attribute__((target("avx2"))) static inline bool within4(__m128i v, int32_t last)
{
    return _mm_movemask_epi8(_mm_cmpgt_epi32(v, _mm_set1_epi32(last))) == 0;
}

/* load_texel's RGB8 form of gathered 4-byte words: the fourth byte (the next texel's) gives
 * way to alpha 255. */
__attribute__((target("avx2"))) static inline __m128i rgb8_alpha(__m128i v, bool rgb8)
{
    if (!rgb8)
        return v;
    return _mm_or_si128(_mm_and_si128(v, _mm_set1_epi32(0x00ffffff)),
                        _mm_set1_epi32((int)0xff000000u));
}

__attribute__((target("avx2"))) static inline __m256i rgb8_alpha8(__m256i v, bool rgb8)
{
    if (!rgb8)
        return v;
    return _mm256_or_si256(_mm256_and_si256(v, _mm256_set1_epi32(0x00ffffff)),
                           _mm256_set1_epi32((int)0xff000000u));
}

/* level4 of a level that gather_ok accepted (delta from it); an RGB8 quad whose texels
 * reach the surface's last one reads them through level4 instead. */
__attribute__((target("avx2"))) static bool level4_avx2(const gm_texq_addr *ad,
                                                        const gm_texq_level *lv, bool linear,
                                                        __m128 s, __m128 t, __m128i os,
                                                        __m128i ot, bool has_off,
                                                        const int32_t delta[4], __m128i r[2])
{
    const __m128i ts = _mm_set1_epi32((int)lv->texel_stride);
    const __m128i rs = _mm_set1_epi32((int)lv->row_stride);
    const __m128i dl = _mm_loadu_si128((const __m128i *)delta);
    const int *base = (const int *)(const void *)lv->base[0];
    if (!linear) {
        __m128i ix, iy;
        if (!axis4_nearest(s, lv->width, ad->pot_s, ad->repeat_s, os, has_off, &ix) ||
            !axis4_nearest(t, lv->height, ad->pot_t, ad->repeat_t, ot, has_off, &iy))
            return false;
        __m128i idx = _mm_add_epi32(_mm_add_epi32(_mm_mullo_epi32(iy, rs), dl),
                                    _mm_mullo_epi32(ix, ts));
        if (lv->rgb8 && !within4(idx, lv->gather_last))
            return level4(ad, lv, linear, s, t, os, ot, has_off, r);
        __m128i v = rgb8_alpha(_mm_i32gather_epi32(base, idx, 1), lv->rgb8);
        r[0] = _mm_unpacklo_epi8(v, _mm_setzero_si128());
        r[1] = _mm_unpackhi_epi8(v, _mm_setzero_si128());
        return true;
    }
    axis4 ax, ay;
    if (!axis4_linear(s, lv->width, ad->pot_s, ad->repeat_s, os, has_off, &ax) ||
        !axis4_linear(t, lv->height, ad->pot_t, ad->repeat_t, ot, has_off, &ay))
        return false;
    const __m128i x0 = _mm_mullo_epi32(ax.i0, ts), x1 = _mm_mullo_epi32(ax.i1, ts);
    const __m128i y0 = _mm_add_epi32(_mm_mullo_epi32(ay.i0, rs), dl);
    const __m128i y1 = _mm_add_epi32(_mm_mullo_epi32(ay.i1, rs), dl);
    /* column x0 of both rows in one register, column x1 in the other: lanes 0-3 of row y0
     * in the low half, of row y1 in the high half */
    /* (with REPEAT the second texel may be texel 0: the largest of both per axis) */
    if (lv->rgb8 && !within4(_mm_add_epi32(_mm_max_epi32(y0, y1), _mm_max_epi32(x0, x1)),
                             lv->gather_last))
        return level4(ad, lv, linear, s, t, os, ot, has_off, r);
    const __m256i g0 = rgb8_alpha8(_mm256_i32gather_epi32(
        base, _mm256_set_m128i(_mm_add_epi32(y1, x0), _mm_add_epi32(y0, x0)), 1), lv->rgb8);
    const __m256i g1 = rgb8_alpha8(_mm256_i32gather_epi32(
        base, _mm256_set_m128i(_mm_add_epi32(y1, x1), _mm_add_epi32(y0, x1)), 1), lv->rgb8);
    __m128i wx[2], wy[2];
    spread_weights(ax.w, &wx[0], &wx[1]);
    spread_weights(ay.w, &wy[0], &wy[1]);
    const __m256i zero = _mm256_setzero_si256();
    /* [row y0 | row y1] of lanes 0-1, then of lanes 2-3 */
    const __m256i xl = lerp8_x2(_mm256_set_m128i(wx[0], wx[0]), _mm256_unpacklo_epi8(g0, zero),
                                _mm256_unpacklo_epi8(g1, zero));
    const __m256i xh = lerp8_x2(_mm256_set_m128i(wx[1], wx[1]), _mm256_unpackhi_epi8(g0, zero),
                                _mm256_unpackhi_epi8(g1, zero));
    /* row y0 of lanes 0-3 against row y1 of lanes 0-3 */
    const __m256i row0 = _mm256_permute2x128_si256(xl, xh, 0x20);
    const __m256i row1 = _mm256_permute2x128_si256(xl, xh, 0x31);
    const __m256i y = lerp8_x2(_mm256_set_m128i(wy[1], wy[0]), row0, row1);
    r[0] = _mm256_castsi256_si128(y);
    r[1] = _mm256_extracti128_si256(y, 1);
    return true;
}

/* One level through level4_avx2 where it applies, else level4. */
static bool level_any(const gm_texq_addr *ad, const gm_texq_level *lv, bool linear, __m128 s,
                      __m128 t, __m128i os, __m128i ot, bool has_off, __m128i r[2])
{
    if (lv->gather && avx2_on())
        return level4_avx2(ad, lv, linear, s, t, os, ot, has_off, lv->delta, r);
    return level4(ad, lv, linear, s, t, os, ot, has_off, r);
}

#else

bool gm_texq_use_avx2(bool on)
{
    (void)on;
    return false;
}

#define level_any level4

void gm_texq_level_ready(gm_texq_level *lv)
{
    lv->gather = false;
}

#endif

bool gm_texq_sample(const gm_texq_addr *addr, const gm_texq_level *lv0,
                    const gm_texq_level *lv1, int w8, bool linear, const float s[4],
                    const float t[4], const int32_t *off_s, const int32_t *off_t,
                    float out[4][4])
{
    const bool has_off = off_s != NULL;
    __m128i os = _mm_setzero_si128(), ot = _mm_setzero_si128();
    if (has_off) {
        os = _mm_loadu_si128((const __m128i *)off_s);
        ot = _mm_loadu_si128((const __m128i *)off_t);
        /* |offset| <= 2^20: the index sums stay far inside 32 bits */
        const __m128i lim = _mm_set1_epi32(1 << 20), nlim = _mm_set1_epi32(-(1 << 20));
        __m128i bad_s = _mm_or_si128(_mm_cmpgt_epi32(os, lim), _mm_cmplt_epi32(os, nlim));
        __m128i bad_t = _mm_or_si128(_mm_cmpgt_epi32(ot, lim), _mm_cmplt_epi32(ot, nlim));
        __m128i bad = _mm_or_si128(bad_s, bad_t);
        if (_mm_movemask_epi8(bad))
            return false;
    }
    const __m128 vs = _mm_loadu_ps(s), vt = _mm_loadu_ps(t);
    __m128i a[2], b[2];
    if (!level_any(addr, lv0, linear, vs, vt, os, ot, has_off, a))
        return false;
    if (lv1) {
        if (!level_any(addr, lv1, linear, vs, vt, os, ot, has_off, b))
            return false;
        const __m128i w = _mm_set1_epi16((short)w8);
        a[0] = gm_lp_lerp8_epi16(w, a[0], b[0]);
        a[1] = gm_lp_lerp8_epi16(w, a[1], b[1]);
    }
    /* gm_lp_mip8_to_float: each channel times the float 1/255, then lanes x channels
     * transposed into channels x lanes */
    const __m128 scale = _mm_set1_ps((float)(1.0 / 255.0));
    const __m128i zero = _mm_setzero_si128();
    __m128 f0 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi16(a[0], zero)), scale);
    __m128 f1 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpackhi_epi16(a[0], zero)), scale);
    __m128 f2 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpacklo_epi16(a[1], zero)), scale);
    __m128 f3 = _mm_mul_ps(_mm_cvtepi32_ps(_mm_unpackhi_epi16(a[1], zero)), scale);
    _MM_TRANSPOSE4_PS(f0, f1, f2, f3);
    _mm_storeu_ps(out[0], f0);
    _mm_storeu_ps(out[1], f1);
    _mm_storeu_ps(out[2], f2);
    _mm_storeu_ps(out[3], f3);
    return true;
}

#else   /* no SSE2: the caller's per-lane path does everything */

void gm_texq_level_ready(gm_texq_level *lv)
{
    lv->gather = false;
}

bool gm_texq_use_avx2(bool on)
{
    (void)on;
    return false;
}

bool gm_texq_sample(const gm_texq_addr *addr, const gm_texq_level *lv0,
                    const gm_texq_level *lv1, int w8, bool linear, const float s[4],
                    const float t[4], const int32_t *off_s, const int32_t *off_t,
                    float out[4][4])
{
    (void)addr; (void)lv0; (void)lv1; (void)w8; (void)linear; (void)s; (void)t;
    (void)off_s; (void)off_t; (void)out;
    return false;
}

#endif
