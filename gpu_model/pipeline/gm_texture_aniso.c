/* gm_texture_aniso.c - llvmpipe's anisotropic texture filter (elliptical weighted
 * average over one mip level), bit for bit with Mesa 22.3's gallivm code on x86: the same
 * float operations in the same order, no fused multiply-adds (gallivm emits separate
 * multiplies and adds here), truncating float-to-int conversions. See gm_texture_aniso.h
 * for the algorithm. */
#include "gm_texture_aniso.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <pthread.h>
#include <string.h>

#define LUT_SIZE 1024
/* Mesa 22.3: PIPE_MAX_TEXTURE_LEVELS is 16; a max LOD below 15 is "applied". */
#define MAX_LOD_APPLIED 15.0f

static float lut[LUT_SIZE];
static pthread_once_t lut_once = PTHREAD_ONCE_INIT;

/* Mesa's table holds expf(-2 * r2), r2 = i / 1023 in float, written out with six
 * decimals (its values are those of a "%f" print of expf read back as float: up to
 * 3.6e-6 off expf itself, checked against the driver's own table). The six-decimal
 * rounding is done in integers so no locale can change it: expf * 1e6 is exact in
 * double, and k / 1e6 never lies close enough to a float midpoint to round twice. */
static void lut_init(void)
{
    for (int i = 0; i < LUT_SIZE; i++) {
        const float alpha = 2.0f;
        const float r2 = (float)i / (float)(LUT_SIZE - 1);
        double k = nearbyint((double)expf(-alpha * r2) * 1e6);
        lut[i] = (float)(k / 1e6);
    }
}

float gm_tex_aniso_weight(int i)
{
    pthread_once(&lut_once, lut_init);
    return i >= 0 && i < LUT_SIZE ? lut[i] : 0.0f;
}

bool gm_tex_aniso_on(const gm_tex_sampler *smp)
{
    /* st_convert_sampler: max_anisotropy = (unsigned)GL value (1.0 -> 0); llvmpipe's
     * static state: aniso = max_anisotropy > 1. */
    return smp && smp->max_anisotropy >= 2.0f;
}

bool gm_tex_aniso_target_modelled(gm_tex_target t)
{
    return t == GM_TEX_2D || t == GM_TEX_2D_ARRAY || t == GM_TEX_3D;
}

/* cvttps2dq: truncation, INT32_MIN when out of range or NaN. */
static int32_t itrunc(float x)
{
    return x > -2147483520.0f && x < 2147483520.0f ? (int32_t)x : INT32_MIN;
}

/* x86 minps/maxps: the second operand unless the comparison holds. */
static float lp_min(float a, float b) { return a < b ? a : b; }
static float lp_max(float a, float b) { return a > b ? a : b; }

/* The quad's coordinate differences (top-left, top-right, bottom-left lanes), as
 * lp_build_packed_ddx_ddy_twocoord: [ds/dx, ds/dy, dt/dx, dt/dy]. */
static void quad_derivs(const struct gm_sample_request *req, int l, float d[4])
{
    int q = l & ~3;
    const float *s = req->coord.f[0], *t = req->coord.f[1];
    d[0] = s[q + 1] - s[q];
    d[1] = s[q + 2] - s[q];
    d[2] = t[q + 1] - t[q];
    d[3] = t[q + 2] - t[q];
}

static bool is_pot(int v) { return v > 0 && (v & (v - 1)) == 0; }

/* lp_build_sample_wrap_nearest for one axis: the texel index, *border when it is outside
 * (CLAMP_TO_BORDER). `pot`: the resource's level-0 size along the axis is a power of two.
 * Returns false for the mirror modes, which the caller samples its general way. */
static bool wrap_nearest(uint32_t wrap, float coord, int length, bool pot, int offset,
                         int32_t *idx, bool *border)
{
    float len = (float)length;
    *border = false;
    switch (wrap) {
    case GL_REPEAT:
        if (pot) {
            int32_t i = gm_lp_ifloor(coord * len) + offset;
            *idx = i & (length - 1);
        } else {
            if (offset)
                coord = coord + (float)offset / len;
            float fr = coord - floorf(coord);         /* lp_build_fract_safe */
            fr = lp_min(fr, 0.99999994f);
            *idx = itrunc(fr * len);
        }
        return true;
    case GL_CLAMP:
    case GL_CLAMP_TO_EDGE: {
        float c = coord * len;
        if (offset)
            c = c + (float)offset;
        int32_t i = itrunc(c);
        *idx = i < 0 ? 0 : (i > length - 1 ? length - 1 : i);
        return true;
    }
    case GL_CLAMP_TO_BORDER: {
        int32_t i = gm_lp_ifloor(coord * len) + offset;
        *idx = i;
        *border = i < 0 || i >= length;
        return true;
    }
    default:
        return false;
    }
}

/* One probe of the ellipse: lp_build_sample_image_nearest at level lv. */
static void probe(const gm_tex_aniso_texels *tx, const gm_tex_image *img, const gm_tex_sampler *smp, int lv, float s,
                  float t, const float coord[4], const int32_t *offset, float ref,
                  bool shadow, float out[4])
{
    const gm_surface *lvl = &img->level[lv];
    const gm_surface *s0 = img->level[0].width > 0 ? &img->level[0] : lvl;
    int32_t x, y;
    bool bx, by;
    if (shadow ||
        !wrap_nearest(smp->wrap_s, s, lvl->width, is_pot(s0->width), offset ? offset[0] : 0,
                      &x, &bx) ||
        !wrap_nearest(smp->wrap_t, t, lvl->height, is_pot(s0->height),
                      offset ? offset[1] : 0, &y, &by)) {
        float pc[4] = {s, t, coord[2], coord[3]};
        tx->level_sample(img, smp, pc, lv, false, ref, shadow, offset, out);
        return;
    }
    if (bx || by) {
        memcpy(out, smp->border, sizeof(float) * 4);
        return;
    }
    int32_t layer = 0;
    if (img->target == GM_TEX_2D_ARRAY) {
        /* lp_build_layer_coord: iround, clamped to the layers */
        layer = gm_lp_iround(coord[2]);
        if (layer > lvl->depth - 1) layer = lvl->depth - 1;
        if (layer < 0) layer = 0;
    } else if (img->target == GM_TEX_3D) {
        /* 3D: llvmpipe's 2D filter in s and t, each probe at the nearest r of the level (its
         * depth, GL_TEXTURE_WRAP_R); checked bit for bit by gm_pipe_e2e_aniso */
        bool bz;
        if (!wrap_nearest(smp->wrap_r, coord[2], lvl->depth, is_pot(s0->depth), offset ? offset[2] : 0,
                          &layer, &bz)) {
            float pc[4] = {s, t, coord[2], coord[3]};
            tx->level_sample(img, smp, pc, lv, false, ref, shadow, offset, out);
            return;
        }
        if (bz) {
            memcpy(out, smp->border, sizeof(float) * 4);
            return;
        }
    }
    const int32_t ic[4] = {x, y, layer, 0};
    tx->fetch(img, ic, lv - img->base_level, out);
}

/* lp_build_lod_selector with the sampler's anisotropy on, then lp_build_nearest_mip_level
 * of trunc(lod). */
static int aniso_level(const gm_tex_image *img, const gm_tex_sampler *smp,
                       const gm_lp_lod_in *in, const struct gm_sample_request *req, int l,
                       const float d[4])
{
    if (in->min_eq_mag && in->mip == GM_LP_MIP_NONE)
        return in->first_level;   /* no LOD computed: lod_ipart 0 */
    /* Mesa's state tracker: min_lod = max(GL min, 0), swapped when above max_lod;
     * llvmpipe applies the clamps only with a mip filter or min != mag filters. */
    float min_lod = fmaxf(in->min_lod, 0.0f), max_lod = in->max_lod;
    if (max_lod < min_lod) {
        float t = max_lod;
        max_lod = min_lod;
        min_lod = t;
    }
    bool lod_state = in->sampler_mip != GM_LP_MIP_NONE || !in->min_eq_mag;
    bool min_max_equal = lod_state && min_lod == max_lod;
    bool apply_min = lod_state && !min_max_equal && min_lod > 0.0f;
    bool apply_max = lod_state && !min_max_equal && max_lod < MAX_LOD_APPLIED;

    float lod;
    if (min_max_equal) {
        lod = min_lod;
    } else {
        if (req->has_lod) {
            lod = req->lod[l];
        } else {
            /* lp_build_pmin: squared texel-space derivative lengths along x and y at the
             * view's base level; the minor one, "clamped" by max_aniso^2 with a
             * comparison that never holds for finite values (kept as llvmpipe has it) */
            const gm_surface *b = &img->level[in->first_level];
            float w = (float)b->width, h = (float)b->height;
            float a0 = d[0] * w, a1 = d[1] * w, a2 = d[2] * h, a3 = d[3] * h;
            a0 = a0 * a0; a1 = a1 * a1; a2 = a2 * a2; a3 = a3 * a3;
            float px2 = a0 + a2, py2 = a1 + a3;
            float pmax2 = lp_max(px2, py2), pmin2 = lp_min(px2, py2);
            float ma = (float)(unsigned)fminf(smp->max_anisotropy, 16.0f);
            ma = ma * ma;
            if (pmin2 > pmin2 * ma)
                pmin2 = pmax2 / ma;
            lod = gm_lp_fast_log2(pmin2) * 0.5f;
            if (req->has_bias)
                lod = lod + req->bias[l];
        }
        if (in->lod_bias != 0.0f)
            lod = lod + in->lod_bias;
        if (apply_max)
            lod = lp_min(lod, max_lod);
        if (apply_min)
            lod = lp_max(lod, min_lod);
    }
    int64_t level = (int64_t)itrunc(lod) + in->first_level;
    if (level < in->first_level) level = in->first_level;
    if (level > in->last_level) level = in->last_level;
    return (int)level;
}

bool gm_tex_aniso_lane(const gm_tex_aniso_texels *tx, const gm_tex_image *img,
                       const gm_tex_sampler *smp, const gm_lp_lod_in *in,
                       const struct gm_sample_request *req, int l, const float coord[4],
                       const int32_t *offset, float ref, bool shadow, float out[4])
{
    float d[4];
    quad_derivs(req, l, d);
    int lv = aniso_level(img, smp, in, req, l, d);
    if (lv < 0 || lv >= img->num_levels || img->level[lv].width <= 0) {
        out[0] = out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
        return true;
    }
    /* Sizes: the resource's level 0 (llvmpipe's int_size) scaled by 1 / 2^level, and the
     * level's own (minified, at least 1) for the probe coordinates. */
    const gm_surface *s0 = img->level[0].width > 0 ? &img->level[0] : NULL;
    float w0 = s0 ? (float)s0->width : (float)img->level[lv].width * ldexpf(1.0f, lv);
    float h0 = s0 ? (float)s0->height : (float)img->level[lv].height * ldexpf(1.0f, lv);
    float scaling = 1.0f / (float)(1u << (lv < 31 ? lv : 31));
    float wd = (float)img->level[lv].width, hd = (float)img->level[lv].height;

    /* ddx_ddy * floatdim [w0, w0, h0, h0] * scaling */
    float ux = d[0] * w0, uy = d[1] * w0, vx = d[2] * h0, vy = d[3] * h0;
    ux = ux * scaling; uy = uy * scaling; vx = vx * scaling; vy = vy * scaling;

    /* ellipse A u^2 + B u v + C v^2 = F */
    float A = vx * vx + vy * vy;
    A = A + 1.0f;
    float B = ux * vx + uy * vy;
    B = B * -2.0f;
    float C = ux * ux + uy * uy;
    C = C + 1.0f;
    float F = (B * B) / 4.0f;
    F = A * C - F;
    float dd = 0.0f - B * B;
    dd = dd + (A * C) * 4.0f;
    float box_u = (2.0f / dd) * sqrtf((dd * C) * F);
    float box_v = (2.0f / dd) * sqrtf((A * dd) * F);

    /* scale so that F maps to the last table entry */
    float form = (float)(LUT_SIZE - 1) / F;
    A = A * form;
    B = B * form;
    C = C * form;
    float ddq = A * 2.0f;

    float tex_u = coord[0] * (w0 * scaling);
    tex_u = tex_u + -0.5f;
    float tex_v = coord[1] * (h0 * scaling);
    tex_v = tex_v + -0.5f;
    int32_t u0 = itrunc(floorf(tex_u - box_u)), u1 = itrunc(ceilf(tex_u + box_u));
    int32_t v0 = itrunc(floorf(tex_v - box_v)), v1 = itrunc(ceilf(tex_v + box_v));

    float U = (float)u0 - tex_u;
    float dq_base = (U * 2.0f + 1.0f) * A;
    float q_base = (U * U) * A;

    int64_t nu = (int64_t)u1 - u0 + 1, nv = (int64_t)v1 - v0 + 1;
    if (nu < 1) nu = 1;   /* llvmpipe's loops run their body at least once */
    if (nv < 1) nv = 1;
    if (nu * nv > GM_TEX_ANISO_MAX_PROBES) {
        tx->level_sample(img, smp, coord, lv, true, ref, shadow, offset, out);
        return false;
    }

    pthread_once(&lut_once, lut_init);
    float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f}, den = 0.0f;
    for (int64_t j = 0; j < nv; j++) {
        int32_t v = (int32_t)(v0 + j);
        float V = (float)v - tex_v;
        float dq = V * B;
        dq = dq + dq_base;
        float q = C * V + B * U;
        q = q * V;
        q = q + q_base;
        for (int64_t i = 0; i < nu; i++) {
            int32_t u = (int32_t)(u0 + i);
            int32_t qi = itrunc(q);
            float wgt = 0.0f;
            if (qi <= LUT_SIZE - 1 && u <= u1 && v <= v1)
                wgt = lut[(qi > 0 ? qi : 0) & (LUT_SIZE - 1)];
            if (wgt != 0.0f) {
                float texel[4];
                probe(tx, img, smp, lv, (float)u / wd, (float)v / hd, coord, offset, ref, shadow,
                      texel);
                for (int c = 0; c < 4; c++)
                    acc[c] = acc[c] + texel[c] * wgt;
                den = den + wgt;
            }
            q = q + dq;
            dq = dq + ddq;
        }
    }
    if (den == 0.0f) {
        tx->level_sample(img, smp, coord, lv, true, ref, shadow, offset, out);
        return true;
    }
    for (int c = 0; c < 4; c++)
        out[c] = acc[c] / den;
    return true;
}
