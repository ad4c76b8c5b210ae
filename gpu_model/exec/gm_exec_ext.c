/* GLSL.std.450 extended instructions with GLSL semantics (GLSL 4.60 spec, 8.x), all
 * lanes at once. Compiled with -fno-strict-aliasing (words read as float/int/uint). */
#include "gm_exec.h"

#include <math.h>
#include <spirv/unified1/GLSL.std.450.h>
#include <string.h>

float gm_exec_half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 1023, bits;
    if (e == 0) {
        if (m == 0) {
            bits = s;
        } else { /* subnormal: renormalize */
            e = 127 - 15 + 1;
            while (!(m & 1024)) {
                m <<= 1;
                e--;
            }
            m &= 1023;
            bits = s | (e << 23) | (m << 13);
        }
    } else if (e == 31) {
        bits = s | 0x7f800000u | (m << 13);
    } else {
        bits = s | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

uint16_t gm_exec_float_to_half(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    uint32_t s = (b >> 16) & 0x8000u, e = (b >> 23) & 255, m = b & 0x7fffffu;
    if (e == 255)
        return (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
    int ne = (int)e - 127 + 15;
    if (ne >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (ne <= 0) {
        if (ne < -10)
            return (uint16_t)s;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - ne);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1)))
            hm++;
        return (uint16_t)(s | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fffu;
    uint32_t h = s | ((uint32_t)ne << 10) | hm;
    if (rem > 0x1000u || (rem == 0x1000u && (hm & 1)))
        h++; /* may carry into the exponent: still correct rounding */
    return (uint16_t)h;
}

static float clampf(float x, float lo, float hi) { return fminf(fmaxf(x, lo), hi); }

static int32_t find_msb_s(int32_t v)
{
    uint32_t u = v < 0 ? ~(uint32_t)v : (uint32_t)v;
    return u ? 31 - __builtin_clz(u) : -1;
}

static float round_even(float x) { return nearbyintf(x); }

static float det3(const float *m, int l)
{
#define M(c, r) m[((c) * 3 + (r)) * GM_LANES + l]
    return M(0, 0) * (M(1, 1) * M(2, 2) - M(2, 1) * M(1, 2)) -
           M(1, 0) * (M(0, 1) * M(2, 2) - M(2, 1) * M(0, 2)) +
           M(2, 0) * (M(0, 1) * M(1, 2) - M(1, 1) * M(0, 2));
#undef M
}

/* Cofactor expansion of an n x n column-major matrix for one lane (n <= 4). */
static float det_n(const float *a, int n)
{
    if (n == 1)
        return a[0];
    if (n == 2)
        return a[0] * a[3] - a[2] * a[1];
    float sub[9], det = 0.0f;
    for (int c = 0; c < n; c++) {
        int k = 0;
        for (int cc = 0; cc < n; cc++) {
            if (cc == c)
                continue;
            for (int r = 1; r < n; r++)
                sub[k++] = a[cc * n + r];
        }
        float s = det_n(sub, n - 1);
        det += (c & 1 ? -1.0f : 1.0f) * a[c * n] * s;
    }
    return det;
}

static void inverse_n(const float *a, float *o, int n)
{
    float det = det_n(a, n), sub[9];
    for (int c = 0; c < n; c++)
        for (int r = 0; r < n; r++) {
            /* cofactor of element (c, r), transposed into (r, c) */
            int k = 0;
            for (int cc = 0; cc < n; cc++) {
                if (cc == c)
                    continue;
                for (int rr = 0; rr < n; rr++)
                    if (rr != r)
                        sub[k++] = a[cc * n + rr];
            }
            float cof = ((c + r) & 1 ? -1.0f : 1.0f) * (n > 1 ? det_n(sub, n - 1) : 1.0f);
            o[r * n + c] = cof / det;
        }
}

static float ldexp_ftz(float x, int32_t e)
{
    if (fpclassify(x) == FP_SUBNORMAL)
        x = copysignf(0.0f, x);
    float r = ldexpf(x, e > 300 ? 300 : e < -300 ? -300 : e);
    return fpclassify(r) == FP_SUBNORMAL ? copysignf(0.0f, r) : r;
}

/* min/max as llvmpipe builds NIR's fmin/fmax (lp_bld_nir.c: GALLIVM_NAN_RETURN_OTHER): an SSE
 * min/max (the second operand when unordered or both zero) and then the first operand where the
 * second is NaN, so a NaN loses to the number on either side (piglit fs-nan-builtin-min,
 * range_analysis_fmax_of_nan). GLSL.std.450 calls a NaN operand's result undefined. */
/* mix(): a * (1 - c) + b * c, each multiply and the add with a's NaN first (gm_nan_first), so the
 * bits do not depend on the compiler's operand order (compiled runs emit the same, compile/). */
static inline float fmix_nan_first(float a, float b, float c)
{
    const float x = a * gm_nan_first(a, 1.0f - c), y = b * gm_nan_first(b, c);
    return x + gm_nan_first(x, y);
}

static inline float lp_fmin(float a, float b)
{
    return isnan(b) ? a : a < b ? a : b;
}

static inline float lp_fmax(float a, float b)
{
    return isnan(b) ? a : a > b ? a : b;
}


int gm_exec_ext_words(const gm_inst *in)
{
    const int op = (int)(in->x & 0xffff);
    return op == GLSLstd450ModfStruct || op == GLSLstd450FrexpStruct ? 2 * in->n : in->n;
}

/* Per lane, the sum over k of (a - b)^2 (b NULL: a^2), in k's order from 0.0f, each add taking
 * the sum's NaN first (gm_nan_first): compiled runs (compile/) write length and normalize inline
 * and must get these bits whatever operand order their compiler picks. Lanes innermost, so the
 * loops vectorize. */
static inline void sum_of_squares(float *s, const float *a, const float *b, int words)
{
    for (int l = 0; l < GM_LANES; l++)
        s[l] = 0.0f;
    for (int k = 0; k < words; k++)
        for (int l = 0; l < GM_LANES; l++) {
            const float d = b ? a[k * GM_LANES + l] - b[k * GM_LANES + l] : a[k * GM_LANES + l], p = d * d;
            s[l] = s[l] + gm_nan_first(s[l], p);
        }
}

/* Also built for AVX2 and picked at load time, as exec_alu (gm_exec.c): the same IEEE
 * operations per lane, 8 lanes per instruction. */
GM_CLONES_AVX2
void gm_exec_ext(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    gm_lanes *R = w->R;
    const int n = in->n, n32 = n * GM_LANES;
    const int op = (int)(in->x & 0xffff), m = (int)(in->x >> 16); /* m: operand words */
    float *o = (float *)out;
    int32_t *oi = (int32_t *)out;
    uint32_t *ou = (uint32_t *)out;
    const float *a = (const float *)R[in->a], *b = (const float *)R[in->b],
                *c = (const float *)R[in->c];
    const int32_t *ai = (const int32_t *)R[in->a], *bi = (const int32_t *)R[in->b],
                  *ci = (const int32_t *)R[in->c];
    const uint32_t *au = R[in->a], *bu = R[in->b], *cu = R[in->c];

#define EACH(expr)                      \
    for (int i = 0; i < n32; i++) {     \
        expr;                           \
    }                                   \
    return

    switch (op) {
    case GLSLstd450Round: EACH(o[i] = roundf(a[i]));
    case GLSLstd450RoundEven: EACH(o[i] = round_even(a[i]));
    case GLSLstd450Trunc: EACH(o[i] = truncf(a[i]));
    case GLSLstd450FAbs: EACH(o[i] = fabsf(a[i]));
    case GLSLstd450SAbs: EACH(ou[i] = ai[i] < 0 ? 0u - au[i] : au[i]);
    case GLSLstd450FSign: EACH(o[i] = a[i] > 0.0f ? 1.0f : a[i] < 0.0f ? -1.0f : a[i]);
    case GLSLstd450SSign: EACH(oi[i] = ai[i] > 0 ? 1 : ai[i] < 0 ? -1 : 0);
    case GLSLstd450Floor: EACH(o[i] = gm_floorf(a[i]));
    case GLSLstd450Ceil: EACH(o[i] = ceilf(a[i]));
    case GLSLstd450Fract: EACH(o[i] = a[i] - gm_floorf(a[i]));
    case GLSLstd450Radians: EACH(o[i] = a[i] * (float)(M_PI / 180.0));
    case GLSLstd450Degrees: EACH(o[i] = a[i] * (float)(180.0 / M_PI));
    case GLSLstd450Sin: EACH(o[i] = sinf(a[i]));
    case GLSLstd450Cos: EACH(o[i] = cosf(a[i]));
    case GLSLstd450Tan: EACH(o[i] = tanf(a[i]));
    case GLSLstd450Asin: EACH(o[i] = asinf(a[i]));
    case GLSLstd450Acos: EACH(o[i] = acosf(a[i]));
    case GLSLstd450Atan: EACH(o[i] = atanf(a[i]));
    case GLSLstd450Sinh: EACH(o[i] = sinhf(a[i]));
    case GLSLstd450Cosh: EACH(o[i] = coshf(a[i]));
    case GLSLstd450Tanh: EACH(o[i] = tanhf(a[i]));
    case GLSLstd450Asinh: EACH(o[i] = asinhf(a[i]));
    case GLSLstd450Acosh: EACH(o[i] = acoshf(a[i]));
    case GLSLstd450Atanh: EACH(o[i] = atanhf(a[i]));
    case GLSLstd450Atan2: EACH(o[i] = atan2f(a[i], b[i]));
    case GLSLstd450Pow: EACH(o[i] = powf(a[i], b[i]));
    case GLSLstd450Exp: EACH(o[i] = expf(a[i]));
    case GLSLstd450Log: EACH(o[i] = logf(a[i]));
    case GLSLstd450Exp2: EACH(o[i] = exp2f(a[i]));
    case GLSLstd450Log2: EACH(o[i] = log2f(a[i]));
    case GLSLstd450Sqrt: EACH(o[i] = sqrtf(a[i]));
    case GLSLstd450InverseSqrt: EACH(o[i] = 1.0f / sqrtf(a[i]));
    case GLSLstd450FMin: EACH(o[i] = lp_fmin(a[i], b[i]));
    case GLSLstd450UMin: EACH(ou[i] = bu[i] < au[i] ? bu[i] : au[i]);
    case GLSLstd450SMin: EACH(oi[i] = bi[i] < ai[i] ? bi[i] : ai[i]);
    case GLSLstd450FMax: EACH(o[i] = lp_fmax(a[i], b[i]));
    case GLSLstd450UMax: EACH(ou[i] = au[i] < bu[i] ? bu[i] : au[i]);
    case GLSLstd450SMax: EACH(oi[i] = ai[i] < bi[i] ? bi[i] : ai[i]);
    case GLSLstd450NMin: EACH(o[i] = fminf(a[i], b[i]));
    case GLSLstd450NMax: EACH(o[i] = fmaxf(a[i], b[i]));
    case GLSLstd450FClamp: EACH(o[i] = lp_fmin(lp_fmax(a[i], b[i]), c[i]));
    case GLSLstd450NClamp: EACH(o[i] = fminf(fmaxf(a[i], b[i]), c[i]));
    case GLSLstd450UClamp: EACH(ou[i] = au[i] < bu[i] ? bu[i] : au[i] > cu[i] ? cu[i] : au[i]);
    case GLSLstd450SClamp: EACH(oi[i] = ai[i] < bi[i] ? bi[i] : ai[i] > ci[i] ? ci[i] : ai[i]);
    case GLSLstd450FMix: EACH(o[i] = fmix_nan_first(a[i], b[i], c[i]));
    case GLSLstd450IMix: EACH(o[i] = a[i] * (1.0f - c[i]) + b[i] * c[i]);
    case GLSLstd450Step: EACH(o[i] = b[i] < a[i] ? 0.0f : 1.0f);
    case GLSLstd450SmoothStep:
        for (int i = 0; i < n32; i++) {
            float t = clampf((c[i] - a[i]) / (b[i] - a[i]), 0.0f, 1.0f);
            o[i] = t * t * (3.0f - 2.0f * t);
        }
        return;
    case GLSLstd450Fma: EACH(o[i] = fmaf(a[i], b[i], c[i]));
    /* llvmpipe runs with denormals flushed (FTZ/DAZ): a denormal operand counts as zero and
     * a result below FLT_MIN is a zero of x's sign (piglit's ldexp underflow tests) */
    case GLSLstd450Ldexp: EACH(o[i] = ldexp_ftz(a[i], bi[i]));
    case GLSLstd450ModfStruct:
        /* out: n words fraction, then n words whole part */
        for (int i = 0; i < n32; i++) {
            float whole;
            o[i] = modff(a[i], &whole);
            o[n32 + i] = whole;
        }
        return;
    case GLSLstd450FrexpStruct:
        for (int i = 0; i < n32; i++) {
            int e = 0;
            o[i] = isfinite(a[i]) ? frexpf(a[i], &e) : a[i];
            oi[n32 + i] = e;
        }
        return;
    case GLSLstd450FindILsb: EACH(oi[i] = au[i] ? __builtin_ctz(au[i]) : -1);
    case GLSLstd450FindSMsb: EACH(oi[i] = find_msb_s(ai[i]));
    case GLSLstd450FindUMsb: EACH(oi[i] = au[i] ? 31 - __builtin_clz(au[i]) : -1);
    case GLSLstd450Length:
        sum_of_squares(o, a, NULL, m);
        for (int l = 0; l < GM_LANES; l++)
            o[l] = sqrtf(o[l]);
        return;
    case GLSLstd450Distance:
        sum_of_squares(o, a, b, m);
        for (int l = 0; l < GM_LANES; l++)
            o[l] = sqrtf(o[l]);
        return;
    case GLSLstd450Normalize: {
        float inv[GM_LANES];
        sum_of_squares(inv, a, NULL, n);
        for (int l = 0; l < GM_LANES; l++)
            inv[l] = 1.0f / sqrtf(inv[l]);
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++)
                o[k * GM_LANES + l] = a[k * GM_LANES + l] * gm_nan_first(a[k * GM_LANES + l], inv[l]);
        return;
    }
    case GLSLstd450Cross:
        for (int l = 0; l < GM_LANES; l++) {
            float x0 = a[l], y0 = a[GM_LANES + l], z0 = a[2 * GM_LANES + l];
            float x1 = b[l], y1 = b[GM_LANES + l], z1 = b[2 * GM_LANES + l];
            o[l] = y0 * z1 - y1 * z0;
            o[GM_LANES + l] = z0 * x1 - z1 * x0;
            o[2 * GM_LANES + l] = x0 * y1 - x1 * y0;
        }
        return;
    case GLSLstd450FaceForward: /* N, I, Nref: dot(Nref, I) < 0 ? N : -N */
        for (int l = 0; l < GM_LANES; l++) {
            float dt = 0.0f;
            for (int k = 0; k < n; k++)
                dt += c[k * GM_LANES + l] * b[k * GM_LANES + l];
            for (int k = 0; k < n; k++)
                o[k * GM_LANES + l] = dt < 0.0f ? a[k * GM_LANES + l] : -a[k * GM_LANES + l];
        }
        return;
    case GLSLstd450Reflect: /* I - 2 dot(N, I) N */
        for (int l = 0; l < GM_LANES; l++) {
            float dt = 0.0f;
            for (int k = 0; k < n; k++)
                dt += b[k * GM_LANES + l] * a[k * GM_LANES + l];
            for (int k = 0; k < n; k++)
                o[k * GM_LANES + l] = a[k * GM_LANES + l] - 2.0f * dt * b[k * GM_LANES + l];
        }
        return;
    case GLSLstd450Refract:
        for (int l = 0; l < GM_LANES; l++) {
            float dt = 0.0f, eta = c[l];
            for (int k = 0; k < n; k++)
                dt += b[k * GM_LANES + l] * a[k * GM_LANES + l];
            float kk = 1.0f - eta * eta * (1.0f - dt * dt);
            for (int k = 0; k < n; k++)
                o[k * GM_LANES + l] = kk < 0.0f ? 0.0f
                                                : eta * a[k * GM_LANES + l] -
                                                      (eta * dt + sqrtf(kk)) * b[k * GM_LANES + l];
        }
        return;
    case GLSLstd450Determinant: {
        int dim = m == 4 ? 2 : m == 9 ? 3 : 4;
        for (int l = 0; l < GM_LANES; l++) {
            if (dim == 3) {
                o[l] = det3(a, l);
                continue;
            }
            float mm[16];
            for (int k = 0; k < m; k++)
                mm[k] = a[k * GM_LANES + l];
            o[l] = det_n(mm, dim);
        }
        return;
    }
    case GLSLstd450MatrixInverse: {
        int dim = n == 4 ? 2 : n == 9 ? 3 : 4;
        for (int l = 0; l < GM_LANES; l++) {
            float mm[16], inv[16];
            for (int k = 0; k < n; k++)
                mm[k] = a[k * GM_LANES + l];
            inverse_n(mm, inv, dim);
            for (int k = 0; k < n; k++)
                o[k * GM_LANES + l] = inv[k];
        }
        return;
    }
    case GLSLstd450PackSnorm4x8:
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t r = 0;
            for (int k = 0; k < 4; k++) {
                int v = (int)roundf(clampf(a[k * GM_LANES + l], -1.0f, 1.0f) * 127.0f);
                r |= ((uint32_t)v & 0xffu) << (8 * k);
            }
            ou[l] = r;
        }
        return;
    case GLSLstd450PackUnorm4x8:
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t r = 0;
            for (int k = 0; k < 4; k++)
                r |= (uint32_t)roundf(clampf(a[k * GM_LANES + l], 0.0f, 1.0f) * 255.0f) << (8 * k);
            ou[l] = r;
        }
        return;
    case GLSLstd450PackSnorm2x16:
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t r = 0;
            for (int k = 0; k < 2; k++) {
                int v = (int)roundf(clampf(a[k * GM_LANES + l], -1.0f, 1.0f) * 32767.0f);
                r |= ((uint32_t)v & 0xffffu) << (16 * k);
            }
            ou[l] = r;
        }
        return;
    case GLSLstd450PackUnorm2x16:
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t r = 0;
            for (int k = 0; k < 2; k++)
                r |= (uint32_t)roundf(clampf(a[k * GM_LANES + l], 0.0f, 1.0f) * 65535.0f)
                     << (16 * k);
            ou[l] = r;
        }
        return;
    case GLSLstd450PackHalf2x16:
        for (int l = 0; l < GM_LANES; l++)
            ou[l] = (uint32_t)gm_exec_float_to_half(a[l]) |
                    ((uint32_t)gm_exec_float_to_half(a[GM_LANES + l]) << 16);
        return;
    case GLSLstd450UnpackHalf2x16:
        for (int l = 0; l < GM_LANES; l++) {
            o[l] = gm_exec_half_to_float((uint16_t)(au[l] & 0xffff));
            o[GM_LANES + l] = gm_exec_half_to_float((uint16_t)(au[l] >> 16));
        }
        return;
    case GLSLstd450UnpackSnorm2x16:
        for (int l = 0; l < GM_LANES; l++)
            for (int k = 0; k < 2; k++)
                o[k * GM_LANES + l] =
                    clampf((float)(int16_t)(au[l] >> (16 * k)) / 32767.0f, -1.0f, 1.0f);
        return;
    case GLSLstd450UnpackUnorm2x16:
        for (int l = 0; l < GM_LANES; l++)
            for (int k = 0; k < 2; k++)
                o[k * GM_LANES + l] = (float)((au[l] >> (16 * k)) & 0xffff) / 65535.0f;
        return;
    case GLSLstd450UnpackSnorm4x8:
        for (int l = 0; l < GM_LANES; l++)
            for (int k = 0; k < 4; k++)
                o[k * GM_LANES + l] =
                    clampf((float)(int8_t)(au[l] >> (8 * k)) / 127.0f, -1.0f, 1.0f);
        return;
    case GLSLstd450UnpackUnorm4x8:
        for (int l = 0; l < GM_LANES; l++)
            for (int k = 0; k < 4; k++)
                o[k * GM_LANES + l] = (float)((au[l] >> (8 * k)) & 0xff) / 255.0f;
        return;
    default:
        gm_exec_error(w, "GLSL.std.450 instruction %d is not supported", op);
        memset(out, 0, (size_t)n * sizeof(gm_lanes));
        return;
    }
#undef EACH
}
