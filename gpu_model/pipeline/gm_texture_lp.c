/* gm_texture_lp.c - llvmpipe's texture-sampling arithmetic: LOD selection (fast log2,
 * exact integer log2 shortcut, bias and min/max LOD the way Mesa applies them) and the
 * 8-bit fixed-point ("AoS") coordinate, weight and lerp rules. See gm_texture_lp.h.
 * Everything here is plain integer/float arithmetic written to round exactly like the
 * driver's JIT code on x86 (AVX2), so the model's images agree pixel for pixel. */
#include "gm_texture_lp.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <string.h>

/* Mesa 22.3: PIPE_MAX_TEXTURE_LEVELS is 16; a max LOD below 15 is "applied". */
#define GM_LP_MAX_LOD_APPLIED 15.0f

static uint32_t float_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* Unbiased exponent field (denormals and zero give -127), plus `bias`. */
static int exponent_of(float x, int bias)
{
    return (int)((float_bits(x) >> 23) & 0xffu) - 127 + bias;
}

float gm_lp_fast_log2(float x)
{
    uint32_t m = (float_bits(x) & 0x007fffffu) | 0x3f800000u;
    float mant;
    memcpy(&mant, &m, sizeof mant);
    return (float)exponent_of(x, -1) + mant;
}

int gm_lp_ilog2(float x)
{
    return exponent_of(x * (float)M_SQRT2, 0);
}

int gm_lp_ilog2_sqrt(float x)
{
    int e = exponent_of(x, 1);
    return e >= 0 ? e / 2 : -((1 - e) / 2);   /* arithmetic shift right by one */
}

float gm_lp_rho(int dims, const float size[3], const float ddx[3], const float ddy[3],
                bool *squared)
{
    if (dims == 2)
        return *squared = true, gm_lp_rho2(size[0], size[1], ddx[0], ddx[1], ddy[0], ddy[1]);
    float rho;
    if (dims > 1) {
        float rx = 0.0f, ry = 0.0f;
        for (int d = 0; d < dims && d < 3; d++) {
            float a = size[d] * ddx[d], b = size[d] * ddy[d];
            a = a * a;
            b = b * b;
            rx = d == 0 ? a : rx + a;
            ry = d == 0 ? b : ry + b;
        }
        rho = fmaxf(rx, ry);
        *squared = true;
    } else {
        rho = fmaxf(fabsf(ddx[0]), fabsf(ddy[0])) * size[0];
        *squared = false;
    }
    if (isinf(rho) || isnan(rho))
        rho = 0.0f;
    return rho;
}

static void levels_nearest(const gm_lp_lod_plan *p, int ipart, gm_lp_lod_sel *out)
{
    if (p->mip == GM_LP_MIP_NONE) {
        out->level0 = out->level1 = p->first_level;
        return;
    }
    ipart = gm_lp_clampi(ipart, -1000, 1000);
    out->level0 = out->level1 = gm_lp_clampi(ipart + p->first_level, p->first_level,
                                             p->last_level);
}

void gm_lp_lod_plan_init(const gm_lp_lod_in *in, gm_lp_lod_plan *p)
{
    p->mip = in->mip;
    p->first_level = in->first_level;
    p->last_level = in->last_level;
    p->base_only = in->min_eq_mag && in->mip == GM_LP_MIP_NONE;
    /* Mesa's state tracker: min_lod = max(GL min, 0), swapped when above max_lod.
     * llvmpipe's static state: clamps only apply with a mip filter or min != mag. */
    float min_lod = fmaxf(in->min_lod, 0.0f), max_lod = in->max_lod;
    if (max_lod < min_lod) {
        float t = max_lod;
        max_lod = min_lod;
        min_lod = t;
    }
    bool lod_state = in->sampler_mip != GM_LP_MIP_NONE || !in->min_eq_mag;
    p->fixed = lod_state && min_lod == max_lod;
    p->apply_min = lod_state && !p->fixed && min_lod > 0.0f;
    p->apply_max = lod_state && !p->fixed && max_lod < GM_LP_MAX_LOD_APPLIED;
    p->bias_nz = in->lod_bias != 0.0f;
    p->int_log2 = !p->bias_nz && !p->apply_max && !p->apply_min && in->mip != GM_LP_MIP_LINEAR;
    p->min_lod = min_lod;
    p->max_lod = max_lod;
    p->lod_bias = in->lod_bias;
}

/* The start of every selection: the base level, minified, no mip weight. */
static void sel_base(const gm_lp_lod_plan *p, gm_lp_lod_sel *out)
{
    out->minified = true;
    out->level0 = out->level1 = p->first_level;
    out->fpart = 0.0f;
}

/* The sampler's bias and clamps on a LOD from the shader or from rho, then the levels. */
static void sel_from_lod(const gm_lp_lod_plan *p, float lod, gm_lp_lod_sel *out)
{
    if (p->bias_nz)
        lod = lod + p->lod_bias;
    if (p->apply_max)
        lod = fminf(lod, p->max_lod);
    if (p->apply_min)
        lod = fmaxf(lod, p->min_lod);
    out->minified = lod > 0.0f;
    if (p->mip == GM_LP_MIP_LINEAR) {
        int ipart = gm_lp_clampi(gm_lp_ifloor(lod), -1000, 1000);
        float fpart = lod - (float)ipart;
        int l0 = ipart + p->first_level;
        if (l0 < p->first_level) {
            out->level0 = out->level1 = p->first_level;
        } else if (l0 >= p->last_level) {
            out->level0 = out->level1 = p->last_level;
        } else {
            out->level0 = l0;
            out->level1 = l0 + 1;
            out->fpart = fpart;
        }
        if (p->first_level >= p->last_level) {
            out->level0 = out->level1 = p->last_level;
            out->fpart = 0.0f;
        }
    } else {
        levels_nearest(p, gm_lp_iround(lod), out);
    }
}

/* min_lod == max_lod: that LOD, no bias nor clamps. */
static void sel_fixed(const gm_lp_lod_plan *p, gm_lp_lod_sel *out)
{
    gm_lp_lod_plan q = *p;
    q.bias_nz = q.apply_max = q.apply_min = false;
    sel_from_lod(&q, p->min_lod, out);
}

void gm_lp_lod_select_rho(const gm_lp_lod_plan *p, float rho, bool rho_squared,
                          bool has_shader_bias, float shader_bias, gm_lp_lod_sel *out)
{
    sel_base(p, out);
    if (p->base_only)
        return;   /* no LOD needed at all: base level, the one filter */
    if (p->fixed) {
        sel_fixed(p, out);
        return;
    }
    if (!has_shader_bias && p->int_log2) {
        /* no post-log2 adjustment: integer log2 of rho, minified when rho > 1 */
        int ipart = rho_squared ? gm_lp_ilog2_sqrt(rho) : gm_lp_ilog2(rho);
        out->minified = rho > 1.0f;
        levels_nearest(p, ipart, out);
        return;
    }
    if (!rho_squared)
        rho = rho * rho;
    float lod = gm_lp_fast_log2(rho) * 0.5f;
    if (has_shader_bias)
        lod = lod + shader_bias;
    sel_from_lod(p, lod, out);
}

void gm_lp_lod_select(const gm_lp_lod_in *in, gm_lp_lod_sel *out)
{
    gm_lp_lod_plan p;
    gm_lp_lod_plan_init(in, &p);
    if (!in->explicit_lod) {
        gm_lp_lod_select_rho(&p, in->rho, in->rho_squared, in->has_shader_bias,
                             in->shader_bias, out);
        return;
    }
    sel_base(&p, out);
    if (p.base_only)
        return;
    if (p.fixed)
        sel_fixed(&p, out);
    else
        sel_from_lod(&p, in->lod, out);
}

/* ---- llvmpipe's float ("SoA") nearest wrap, one helper per wrap mode ----------------
 * As lp_build_sample_wrap_nearest: the coordinate is wrapped or clamped as a float and
 * converted with a truncation where the wrap makes it non-negative, so at texel
 * boundaries it may pick a different texel than floor(u * size) wrapped as an integer. */

/* lp_build_fract_safe: x - floor(x), at most the largest float below 1 (NaN gives it) */
static float fract_safe(float x)
{
    return fminf(x - floorf(x), GM_LP_ONE_MINUS_EPS);
}

/* normalized coordinates are scaled by the size first */
static float scaled(float u, int size, bool normalized)
{
    return normalized ? u * (float)size : u;
}

/* REPEAT: power of two, integer mask; else the fraction scaled by the size, truncated
 * (the texel offset joins as offset / size before the fraction). */
static int64_t nearest_repeat(float u, int size, bool pot, bool normalized, int offset)
{
    if (pot || !normalized)
        return ((int64_t)gm_lp_ifloor(scaled(u, size, normalized)) + offset) &
               (int64_t)(size - 1);
    float c = u;
    if (offset)
        c = c + (float)offset / (float)size;
    return gm_lp_itrunc(fract_safe(c) * (float)size);
}

/* CLAMP and CLAMP_TO_EDGE: truncated (the clamp at 0 makes that a floor), then clamped */
static int64_t nearest_clamp_edge(float u, int size, bool normalized, int offset)
{
    float c = scaled(u, size, normalized);
    if (offset)
        c = c + (float)offset;
    return gm_lp_clampi(gm_lp_itrunc(c), 0, size - 1);
}

/* CLAMP_TO_BORDER: floor, then the integer offset; outside means the border colour */
static int64_t nearest_border(float u, int size, bool normalized, int offset)
{
    return (int64_t)gm_lp_ifloor(scaled(u, size, normalized)) + offset;
}

/* MIRRORED_REPEAT: |2 * (c/2 - round(c/2))| (NaN gives 0), scaled, truncated, at most
 * size - 1 (the offset joins as offset / size before the mirror). */
static int64_t nearest_mirror_repeat(float u, int size, int offset)
{
    float c = u;
    if (offset)
        c = c + (float)offset / (float)size;
    c = c * 0.5f;
    c = c - nearbyintf(c);
    c = fmaxf(fabsf(c + c), 0.0f);
    int i = gm_lp_itrunc(c * (float)size);
    return i < size - 1 ? i : size - 1;
}

/* MIRROR_CLAMP family: |scaled coordinate + offset| truncated; the clamping modes take
 * an unsigned minimum with size - 1 (NaN, whose conversion is INT32_MIN, gives the last
 * texel), MIRROR_CLAMP_TO_BORDER leaves it for the border test. */
static int64_t nearest_mirror_clamp(float u, int size, bool normalized, int offset,
                                    bool to_border)
{
    float c = scaled(u, size, normalized);
    if (offset)
        c = c + (float)offset;
    int i = gm_lp_itrunc(fabsf(c));
    if (to_border)
        return i;
    return (uint32_t)i < (uint32_t)(size - 1) ? i : size - 1;
}

int gm_lp_wrap_nearest_f(uint32_t wrap, float u, int size, bool pot, bool normalized,
                         int offset, bool *border)
{
    if (size < 1)
        size = 1;
    int64_t i;
    switch (wrap) {
    case GL_REPEAT:
        i = nearest_repeat(u, size, pot, normalized, offset);
        break;
    case GL_CLAMP_TO_BORDER:
        i = nearest_border(u, size, normalized, offset);
        break;
    case GL_MIRRORED_REPEAT:
        i = nearest_mirror_repeat(u, size, offset);
        break;
    case GL_MIRROR_CLAMP_EXT: case GL_MIRROR_CLAMP_TO_EDGE:
        i = nearest_mirror_clamp(u, size, normalized, offset, false);
        break;
    case GL_MIRROR_CLAMP_TO_BORDER_EXT:
        i = nearest_mirror_clamp(u, size, normalized, offset, true);
        break;
    default:   /* CLAMP, CLAMP_TO_EDGE */
        i = nearest_clamp_edge(u, size, normalized, offset);
        break;
    }
    /* only the border modes can leave the texture; never address outside it */
    *border = i < 0 || i > size - 1;
    return *border ? 0 : (int)i;
}

float gm_lp_lerpf(float w, float a, float b)
{
    return fmaf(w, b - a, a);
}

/* floor and fraction like lp_build_ifloor_fract: fraction = x - floor(x) */
static float floor_fract(float x, int64_t *ip)
{
    float f = floorf(x);
    *ip = gm_lp_int_range(f) ? (int64_t)f : INT32_MIN;
    return x - f;
}

bool gm_lp_axis_linear_f(uint32_t wrap, float u, int size, bool pot, bool normalized,
                         int offset, int *i0, int *i1, float *w)
{
    if (size < 1)
        size = 1;
    const float len = (float)size;
    int64_t a, b;
    float c;
    switch (wrap) {
    case GL_REPEAT:
        if (pot || !normalized) {
            c = normalized ? u * len : u;
            c = c - 0.5f;
            if (offset)
                c = c + (float)offset;
            *w = floor_fract(c, &a);
            *i0 = (int)((uint64_t)a & (uint64_t)(size - 1));
            *i1 = (int)((uint64_t)(a + 1) & (uint64_t)(size - 1));
        } else {
            c = u;
            if (offset)
                c = c + (float)offset / len;
            c = c - floorf(c);
            c = c * len;
            c = c - 0.5f;
            bool neg = c < 0.0f;
            *w = floor_fract(c, &a);
            a = neg ? size - 1 : a;
            if (a < 0 || a > size - 1)   /* NaN / huge: any texel, like the JIT */
                a = 0;
            *i0 = (int)a;
            *i1 = a != size - 1 ? (int)a + 1 : 0;
        }
        return true;
    case GL_CLAMP:
        c = normalized ? u * len : u;
        if (offset)
            c = c + (float)offset;
        c = fmaxf(fminf(c, len), 0.0f);
        c = c - 0.5f;
        *w = floor_fract(c, &a);
        *i0 = (int)a;                       /* -1 or size: border */
        *i1 = (int)a + 1;
        return true;
    case GL_CLAMP_TO_EDGE:
        c = normalized ? u * len : u;
        if (offset)
            c = c + (float)offset;
        c = fminf(c, len);                  /* NaN gives len */
        c = c - 0.5f;
        c = fmaxf(c, 0.0f);
        *w = floor_fract(c, &a);
        if (a < 0 || a > size - 1)
            a = 0;
        *i0 = (int)a;
        *i1 = a + 1 < size - 1 ? (int)a + 1 : size - 1;
        return true;
    case GL_CLAMP_TO_BORDER:
        c = normalized ? u * len : u;
        if (offset)
            c = c + (float)offset;
        c = c - 0.5f;
        *w = floor_fract(c, &a);
        if (a < -2 || a > size + 1)         /* far outside: border either way */
            a = -2;
        *i0 = (int)a;
        *i1 = (int)a + 1;
        return true;
    case GL_MIRRORED_REPEAT:
        if (!normalized)
            return false;
        c = u;
        if (offset)
            c = c + (float)offset / len;
        c = c * 0.5f;
        c = c - nearbyintf(c);
        c = fabsf(c + c);
        c = fmaxf(c, 0.0f);                 /* NaN gives 0 */
        c = c * len;
        c = c - 0.5f;
        *w = floor_fract(c, &a);
        b = a + 1;
        *i0 = a < 0 ? 0 : (a > size - 1 ? size - 1 : (int)a);
        *i1 = b > size - 1 ? size - 1 : (b < 0 ? 0 : (int)b);
        return true;
    case GL_MIRROR_CLAMP_EXT:
    case GL_MIRROR_CLAMP_TO_BORDER_EXT:
        /* |scaled + offset| (MIRROR_CLAMP: at most len, NaN gives len), - 0.5; texels -1
         * and size are the border colour: returned as size, which the caller's mirror
         * wrap keeps outside (it would turn -1 into texel 0) */
        c = normalized ? u * len : u;
        if (offset)
            c = c + (float)offset;
        c = fabsf(c);
        if (wrap == GL_MIRROR_CLAMP_EXT)
            c = fminf(c, len);
        c = c - 0.5f;
        *w = floor_fract(c, &a);
        *i0 = a < 0 || a > size - 1 ? size : (int)a;
        *i1 = a + 1 < 0 || a + 1 > size - 1 ? size : (int)a + 1;
        return true;
    case GL_MIRROR_CLAMP_TO_EDGE:
        /* |scaled + offset| at most len, - 0.5, at least 0; the second texel clamped */
        c = normalized ? u * len : u;
        if (offset)
            c = c + (float)offset;
        c = fminf(fabsf(c), len);           /* NaN gives len */
        c = fmaxf(c - 0.5f, 0.0f);
        *w = floor_fract(c, &a);
        if (a > size - 1)
            a = size - 1;
        *i0 = (int)a;
        *i1 = a + 1 < size - 1 ? (int)a + 1 : size - 1;
        return true;
    default:
        return false;
    }
}

/* -v when the sign bit of m is set, else v (the JIT's xor of sign bits) */
static float sign_of(float m, float v)
{
    return signbit(m) ? -v : v;
}

int gm_lp_cube_lookup(const float dir[3], const float ddx[3], const float ddy[3], float st[2],
                      float dst[2][2])
{
    float s = dir[0], t = dir[1], r = dir[2];
    float as = fabsf(s), at = fabsf(t), ar = fabsf(r);
    int axis = ar >= fmaxf(as, at) ? 2 : (as > at ? 0 : 1);
    float ma = axis == 0 ? s : (axis == 1 ? t : r);
    float fs, ft;
    if (axis == 0) { fs = sign_of(ma, -r); ft = -t; }
    else if (axis == 1) { fs = s; ft = sign_of(ma, r); }
    else { fs = sign_of(ma, s); ft = -t; }
    float ima = 1.0f / ma, imahalf = 0.5f * ima, imahalfpos = fabsf(imahalf);
    if (!(fabsf(ma) > 0.0f))
        imahalfpos = 0.0f;
    if (ddx && ddy && dst) {
        const float *d[2] = {ddx, ddy};
        for (int k = 0; k < 2; k++) {
            float dma = d[k][axis], dsc, dtc;
            if (axis == 0) { dsc = sign_of(ma, -d[k][2]); dtc = -d[k][1]; }
            else if (axis == 1) { dsc = d[k][0]; dtc = sign_of(ma, d[k][2]); }
            else { dsc = sign_of(ma, d[k][0]); dtc = -d[k][1]; }
            float mdivma = dma * ima;
            dst[k][0] = (dsc - mdivma * fs) * imahalf;
            dst[k][1] = (dtc - mdivma * ft) * imahalf;
        }
    }
    st[0] = fs * imahalfpos + 0.5f;
    st[1] = ft * imahalfpos + 0.5f;
    return axis * 2 + (signbit(ma) ? 1 : 0);
}
