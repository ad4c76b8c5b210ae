/* gm_half.c - half-float conversions, one value or four at once (see gm_half.h). The scalar
 * conversions round to nearest even like F16C (gm_float_to_half) and keep NaN payloads
 * (gm_half_to_float); the four-at-once forms use F16C where the CPU has it and give the same
 * bits. */
#include "gm_half.h"

#include "gm_pipeline.h"

#include <math.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define GM_HALF_X86 1
#include <immintrin.h>
#include <cpuid.h>
#endif

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

uint16_t gm_float_to_half(float f)
{
    uint32_t x = f2u(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xff)                                  /* inf / nan */
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int e = (int)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);            /* overflow -> inf (RNE) */
    if (e <= 0) {                                     /* subnormal half */
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        int shift = 14 - e;
        uint32_t h = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t half = 1u << (shift - 1);
        if (rem > half || (rem == half && (h & 1u)))
            h++;
        return (uint16_t)(sign | h);
    }
    uint32_t h = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (h & 1u)))
        h++;                                          /* may carry into exponent: ok */
    return (uint16_t)(sign | h);
}

float gm_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0) {
        float r = (float)man * (1.0f / 16777216.0f);  /* 2^-24 */
        return sign ? -r : r;
    }
    if (exp == 31)
        return u2f(sign | 0x7f800000u | (man << 13));
    return u2f(sign | ((exp - 15 + 127) << 23) | (man << 13));
}

float gm_half_cut_rtz(float x)
{
    uint32_t u = f2u(x), e = (u >> 23) & 0xffu;
    if (e == 0xffu)
        return x;
    if (e >= 113)                       /* normal half: 10 mantissa bits */
        return u2f(u & ~0x1fffu);
    return truncf(x * 16777216.0f) / 16777216.0f;   /* subnormal half: multiples of 2^-24 */
}

void gm_half4_to_float_scalar(const void *src, float out[4])
{
    uint16_t h[4];
    memcpy(h, src, sizeof(h));
    for (int c = 0; c < 4; c++)
        out[c] = gm_half_to_float(h[c]);
}

void gm_float4_to_half_rtz_scalar(const float in[4], void *dst)
{
    uint16_t h[4];
    for (int c = 0; c < 4; c++)
        h[c] = gm_float_to_half(gm_half_cut_rtz(in[c]));
    memcpy(dst, h, sizeof(h));
}

#if GM_HALF_X86

bool gm_half4_f16c(void)
{
    /* 0 not asked yet, 1 no, 2 yes; asked once (a race only asks twice). clang 14 does not
     * know "f16c" in __builtin_cpu_supports, so CPUID.1:ECX.F16C is read directly, and "avx"
     * says the OS saves the state VEX-encoded instructions such as vcvtph2ps use. */
    static int state;
    int s = __atomic_load_n(&state, __ATOMIC_RELAXED);
    if (!s) {
        unsigned a, b, c, d;
        const bool yes = __builtin_cpu_supports("avx") && __get_cpuid(1, &a, &b, &c, &d) &&
                         (c & bit_F16C);
        s = yes ? 2 : 1;
        __atomic_store_n(&state, s, __ATOMIC_RELAXED);
    }
    return s == 2;
}

/* vcvtph2ps, unless a half is infinite or NaN (exponent 31): the instruction quiets a
 * signalling NaN where gm_half_to_float keeps the payload. Half subnormals are converted
 * exactly whatever MXCSR's DAZ says (the test runs them under DAZ too). */
__attribute__((target("f16c"))) static bool half4_f16c(const void *src, float out[4])
{
    const __m128i h = _mm_loadl_epi64((const __m128i *)src);
    const __m128i exp = _mm_set1_epi16(0x7c00);
    if (_mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(h, exp), exp)) & 0xff)
        return false;
    _mm_storeu_ps(out, _mm_cvtph_ps(h));
    return true;
}

/* vcvtps2ph rounding toward zero, unless a value is 2^16 or more in magnitude, infinite or
 * NaN (float exponent 143 and up): there the scalar conversion gives infinity where the
 * instruction keeps the largest half. Below that, round toward zero is gm_half_cut_rtz's cut
 * (exact for normal halves, multiples of 2^-24 below), and a float subnormal that DAZ reads
 * as zero cuts to a zero of the same sign either way. */
__attribute__((target("f16c"))) static bool float4_f16c(const float in[4], void *dst)
{
    const __m128 v = _mm_loadu_ps(in);
    const __m128i e = _mm_and_si128(_mm_srli_epi32(_mm_castps_si128(v), 23), _mm_set1_epi32(0xff));
    if (_mm_movemask_epi8(_mm_cmpgt_epi32(e, _mm_set1_epi32(142))))
        return false;
    _mm_storel_epi64((__m128i *)dst, _mm_cvtps_ph(v, _MM_FROUND_TO_ZERO));
    return true;
}

void gm_half4_to_float(const void *src, float out[4])
{
    if (!gm_half4_f16c() || !half4_f16c(src, out))
        gm_half4_to_float_scalar(src, out);
}

void gm_float4_to_half_rtz(const float in[4], void *dst)
{
    if (!gm_half4_f16c() || !float4_f16c(in, dst))
        gm_float4_to_half_rtz_scalar(in, dst);
}

#else   /* not x86: value by value */

bool gm_half4_f16c(void) { return false; }

void gm_half4_to_float(const void *src, float out[4]) { gm_half4_to_float_scalar(src, out); }

void gm_float4_to_half_rtz(const float in[4], void *dst) { gm_float4_to_half_rtz_scalar(in, dst); }

#endif
