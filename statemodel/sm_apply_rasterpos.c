/* The current raster position and the pixel-rectangle state of the compatibility profile:
 * glRasterPos* (GL 2.1 section 2.13), glWindowPos* (2.13, ARB_window_pos), the position advance
 * of glBitmap (3.7.4), glPixelZoom and glPixelTransfer (3.6.5). The raster position is computed
 * as Mesa's fixed-function path does (src/mesa/main/rastpos.c, which llvmpipe runs for it):
 * modelview and projection, view-volume and user-plane clip of the point, viewport mapping,
 * the raster colour lit on the CPU (its shade_rastpos: the object-space vertex, the normal by the
 * inverse modelview, no normalization), texture coordinates generated and transformed by the
 * texture matrices, the raster distance for fog. With a GLSL vertex shader or an ARB vertex
 * program bound Mesa runs that program on the point instead; the GPU model reports those draws
 * (gpu_model/frame/gmf_rasterpix.c), the state keeps the fixed-function result. */
#include <math.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_current.h"

#define ST(a) (&(a)->c->st)
#define FF(a) (&(a)->c->st.ff)

static bool on(struct sm_ap *a, uint32_t cap, uint32_t index)
{
    return sm_is_enabled(a->c, cap, index);
}

static const float *top(const struct sm_matrix_stack *s)
{
    return s->m[s->depth < SM_MATRIX_STACK_DEPTH ? s->depth : 0];
}

/* o = M * v (column-major M), in float as Mesa's TRANSFORM_POINT. */
static void xform(const float *m, const float *v, float *o)
{
    for (int r = 0; r < 4; r++)
        o[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3];
}

static float dot3(const float *a, const float *b)
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static void normalize3(float *v)
{
    float len = sqrtf(dot3(v, v));
    if (len != 0.0f)
        for (int i = 0; i < 3; i++)
            v[i] *= 1.0f / len;
}

static float clampf(float x, float lo, float hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* Mesa's shade_rastpos: one-sided lighting of the raster position (front material). */
static void shade(struct sm_ap *a, const float vertex[4], const float normal[3], float color[4],
                  float spec[4])
{
    const struct sm_fixed_state *ff = FF(a);
    const struct sm_ff_material *m = &ff->material[0];
    float diffuse[4], specular[4] = { 0, 0, 0, 1 };
    for (int i = 0; i < 3; i++)   /* Mesa's _BaseColor: emission + model ambient x ambient */
        diffuse[i] = m->emission[i] + ff->light_model_ambient[i] * m->ambient[i];
    diffuse[3] = clampf(m->diffuse[3], 0.0f, 1.0f);
    for (int li = 0; li < SM_MAX_LIGHTS; li++) {
        if (!on(a, GL_LIGHT0 + (uint32_t)li, 0))
            continue;
        const struct sm_ff_light *l = &ff->light[li];
        float amb[3], dif[3], spc[3], VP[3], att = 1.0f;
        for (int i = 0; i < 3; i++) {
            amb[i] = l->ambient[i] * m->ambient[i];
            dif[i] = l->diffuse[i] * m->diffuse[i];
            spc[i] = l->specular[i] * m->specular[i];
        }
        bool positional = l->position[3] != 0.0f, spot = l->spot_cutoff != 180.0f;
        float sdir[3] = { l->spot_direction[0], l->spot_direction[1], l->spot_direction[2] };
        normalize3(sdir);
        float cos_cutoff = cosf(l->spot_cutoff * 3.14159265358979323846f / 180.0f);
        if (!positional) {
            memcpy(VP, l->position, sizeof VP);
            normalize3(VP);
            if (spot) {   /* Mesa's _VP_inf_spot_attenuation */
                float pv = -dot3(VP, sdir);
                att = pv < cos_cutoff ? 0.0f : powf(pv, l->spot_exponent);
            }
        } else {
            float p[3];
            for (int i = 0; i < 3; i++)
                p[i] = l->position[i] / l->position[3];
            for (int i = 0; i < 3; i++)
                VP[i] = p[i] - vertex[i];
            float d = sqrtf(dot3(VP, VP));
            if (d > 1.0e-6f)
                for (int i = 0; i < 3; i++)
                    VP[i] *= 1.0f / d;
            att = 1.0f / (l->attenuation[0] + d * (l->attenuation[1] + d * l->attenuation[2]));
            if (spot) {
                float pv = -dot3(VP, sdir);
                if (pv < cos_cutoff)
                    continue;
                att *= powf(pv, l->spot_exponent);
            }
        }
        if (att < 1e-3f)
            continue;
        float ndotvp = dot3(normal, VP);
        if (ndotvp < 0.0f) {
            for (int i = 0; i < 3; i++)
                diffuse[i] += att * amb[i];
            continue;
        }
        float dc[3], sc[3] = { 0, 0, 0 };
        for (int i = 0; i < 3; i++)
            dc[i] = amb[i] + ndotvp * dif[i];
        float h[3];
        if (ff->local_viewer) {
            float v[3] = { vertex[0], vertex[1], vertex[2] };
            normalize3(v);
            for (int i = 0; i < 3; i++)
                h[i] = VP[i] - v[i];
        } else if (positional) {
            for (int i = 0; i < 3; i++)
                h[i] = VP[i] + (i == 2 ? 1.0f : 0.0f);
        } else {   /* Mesa's _h_inf_norm */
            for (int i = 0; i < 3; i++)
                h[i] = VP[i] + (i == 2 ? 1.0f : 0.0f);
        }
        normalize3(h);
        float ndoth = dot3(normal, h);
        if (ndoth > 0.0f) {
            float coef = powf(ndoth, m->shininess);
            if (coef > 1.0e-10f)
                for (int i = 0; i < 3; i++) {
                    if (ff->color_control == GL_SEPARATE_SPECULAR_COLOR)
                        sc[i] += coef * spc[i];
                    else
                        dc[i] += coef * spc[i];
                }
        }
        for (int i = 0; i < 3; i++) {
            diffuse[i] += att * dc[i];
            specular[i] += att * sc[i];
        }
    }
    for (int i = 0; i < 4; i++) {
        color[i] = clampf(diffuse[i], 0.0f, 1.0f);
        spec[i] = clampf(specular[i], 0.0f, 1.0f);
    }
}

/* Mesa's compute_texgen for the raster position. */
static void texgen(struct sm_ap *a, int u, const float obj[4], const float eye[4], const float n[3],
                   float tc[4])
{
    const struct sm_ff_unit *t = &FF(a)->unit[u];
    float uv[3] = { eye[0], eye[1], eye[2] };
    normalize3(uv);
    float two_nu = 2.0f * dot3(n, uv);
    float r[3] = { uv[0] - n[0] * two_nu, uv[1] - n[1] * two_nu, uv[2] - n[2] * two_nu };
    float mm = r[0] * r[0] + r[1] * r[1] + (r[2] + 1.0f) * (r[2] + 1.0f);
    float minv = mm > 0.0f ? 0.5f * (1.0f / sqrtf(mm)) : 0.0f;
    for (int c = 0; c < 4; c++) {
        if (!on(a, GL_TEXTURE_GEN_S + (uint32_t)c, (uint32_t)u))
            continue;
        switch (t->gen_mode[c]) {
        case GL_OBJECT_LINEAR:
            tc[c] = obj[0] * t->object_plane[c][0] + obj[1] * t->object_plane[c][1] +
                    obj[2] * t->object_plane[c][2] + obj[3] * t->object_plane[c][3];
            break;
        case GL_EYE_LINEAR:
            tc[c] = eye[0] * t->eye_plane[c][0] + eye[1] * t->eye_plane[c][1] +
                    eye[2] * t->eye_plane[c][2] + eye[3] * t->eye_plane[c][3];
            break;
        case GL_SPHERE_MAP:
            if (c < 2)
                tc[c] = r[c] * minv + 0.5f;
            break;
        case GL_REFLECTION_MAP:
            if (c < 3)
                tc[c] = r[c];
            break;
        case GL_NORMAL_MAP:
            if (c < 3)
                tc[c] = n[c];
            break;
        default:
            break;
        }
    }
}

static void raster_pos(struct sm_ap *a, const float obj[4])
{
    struct sm_context_state *st = ST(a);
    struct sm_fixed_state *ff = FF(a);
    struct sm_ff_raster *rp = &ff->raster;
    float eye[4], clip[4];
    xform(top(&st->modelview), obj, eye);
    xform(top(&st->projection), eye, clip);
    /* clip the point to the view volume (z unless depth clamp) and the user planes */
    if (!on(a, GL_DEPTH_CLAMP, 0) && (clip[2] > clip[3] || clip[2] < -clip[3])) {
        rp->valid = false;
        return;
    }
    if (clip[0] > clip[3] || clip[0] < -clip[3] || clip[1] > clip[3] || clip[1] < -clip[3]) {
        rp->valid = false;
        return;
    }
    for (int p = 0; p < 8; p++)
        if (on(a, GL_CLIP_PLANE0 + (uint32_t)p, 0)) {
            const float *pl = ff->clip_plane[p];
            if (eye[0] * pl[0] + eye[1] * pl[1] + eye[2] * pl[2] + eye[3] * pl[3] < 0.0f) {
                rp->valid = false;
                return;
            }
        }
    float d = clip[3] == 0.0f ? 1.0f : 1.0f / clip[3];
    float ndc[3] = { clip[0] * d, clip[1] * d, clip[2] * d };
    const float *vp = st->viewport[0];
    float n = (float)st->depth_range[0][0], f = (float)st->depth_range[0][1];
    float sx = vp[2] * 0.5f, sy = vp[3] * 0.5f;
    rp->pos[0] = ndc[0] * sx + (vp[0] + sx);
    rp->pos[1] = ndc[1] * sy + (vp[1] + sy);
    rp->pos[2] = ndc[2] * ((f - n) * 0.5f) + (n + f) * 0.5f;
    rp->pos[3] = clip[3];
    if (on(a, GL_DEPTH_CLAMP, 0))
        rp->pos[3] = clampf(rp->pos[3], n, f);   /* as Mesa does (w, not z) */
    if (ff->fog_coord_src == GL_FOG_COORD)
        rp->distance = st->legacy_current[SM_LA_FOG_COORD][0];
    else
        rp->distance = sqrtf(eye[0] * eye[0] + eye[1] * eye[1] + eye[2] * eye[2]);
    /* the normal in eye coordinates (Mesa: when its lighting or texgen needs eye coordinates;
     * both agree on the results it computes from it for the cases the model meets) */
    const float *on_ = st->legacy_current[SM_LA_NORMAL];
    double nin[4] = { on_[0], on_[1], on_[2], 0.0 };
    float norm[4];
    sm_fixed_plane_to_eye(top(&st->modelview), nin, norm);
    if (on(a, GL_LIGHTING, 0)) {
        shade(a, obj, norm, rp->color, rp->secondary);
    } else {
        memcpy(rp->color, st->legacy_current[SM_LA_COLOR], sizeof rp->color);
        memcpy(rp->secondary, st->legacy_current[SM_LA_SECONDARY_COLOR], sizeof rp->secondary);
    }
    for (int u = 0; u < SM_FF_UNITS && u < SM_MAX_LEGACY_TEXCOORD && u < SM_MAX_TEXTURE_COORDS; u++) {
        float tc[4];
        memcpy(tc, st->legacy_current[SM_LA_TEXCOORD0 + u], sizeof tc);
        texgen(a, u, obj, eye, norm, tc);
        xform(top(&st->texture[u]), tc, rp->texcoord[u]);
    }
    rp->valid = true;
}

static void window_pos(struct sm_ap *a, const float v[4])
{
    struct sm_context_state *st = ST(a);
    struct sm_fixed_state *ff = FF(a);
    struct sm_ff_raster *rp = &ff->raster;
    float n = (float)st->depth_range[0][0], f = (float)st->depth_range[0][1];
    rp->pos[0] = v[0];
    rp->pos[1] = v[1];
    rp->pos[2] = clampf(v[2], 0.0f, 1.0f) * (f - n) + n;
    rp->pos[3] = 1.0f;
    rp->valid = true;
    rp->distance = ff->fog_coord_src == GL_FOG_COORD ? st->legacy_current[SM_LA_FOG_COORD][0] : 0.0f;
    for (int i = 0; i < 4; i++) {
        rp->color[i] = clampf(st->legacy_current[SM_LA_COLOR][i], 0.0f, 1.0f);
        rp->secondary[i] = clampf(st->legacy_current[SM_LA_SECONDARY_COLOR][i], 0.0f, 1.0f);
    }
    for (int u = 0; u < SM_FF_UNITS && u < SM_MAX_LEGACY_TEXCOORD; u++)
        memcpy(rp->texcoord[u], st->legacy_current[SM_LA_TEXCOORD0 + u], sizeof rp->texcoord[u]);
}

static void h_pos(struct sm_ap *a)
{
    struct sm_imm_value v;
    if (!sm_imm_decode_applied(a, &v)) {
        ap_error(a, "raster position values missing from the recorded call");
        return;
    }
    if (v.kind == SM_IMM_WINDOW_POS)
        window_pos(a, v.v);
    else
        raster_pos(a, v.v);
}

/* glBitmap(w, h, xorig, yorig, xmove, ymove, bitmap): a valid position moves by (xmove, ymove). */
static void h_bitmap(struct sm_ap *a)
{
    struct sm_ff_raster *rp = &FF(a)->raster;
    if (!rp->valid)
        return;
    rp->pos[0] += ap_f(a, 4);
    rp->pos[1] += ap_f(a, 5);
}

static void h_pixel_zoom(struct sm_ap *a)
{
    FF(a)->pixel_zoom[0] = ap_f(a, 0);
    FF(a)->pixel_zoom[1] = ap_f(a, 1);
}

static void h_pixel_transfer(struct sm_ap *a)
{
    struct sm_fixed_state *ff = FF(a);
    bool is_f = a->cmd == GLR_CMD_glPixelTransferf;
    float v = is_f ? ap_f(a, 1) : (float)ap_i(a, 1);
    switch (ap_u(a, 0)) {
    case GL_RED_SCALE: ff->pixel_scale[0] = v; break;
    case GL_GREEN_SCALE: ff->pixel_scale[1] = v; break;
    case GL_BLUE_SCALE: ff->pixel_scale[2] = v; break;
    case GL_ALPHA_SCALE: ff->pixel_scale[3] = v; break;
    case GL_RED_BIAS: ff->pixel_bias[0] = v; break;
    case GL_GREEN_BIAS: ff->pixel_bias[1] = v; break;
    case GL_BLUE_BIAS: ff->pixel_bias[2] = v; break;
    case GL_ALPHA_BIAS: ff->pixel_bias[3] = v; break;
    case GL_DEPTH_SCALE: ff->depth_scale = v; break;
    case GL_DEPTH_BIAS: ff->depth_bias = v; break;
    case GL_INDEX_SHIFT: ff->index_shift = (int32_t)v; break;
    case GL_INDEX_OFFSET: ff->index_offset = (int32_t)v; break;
    case GL_MAP_COLOR: ff->map_color = v != 0.0f; break;
    case GL_MAP_STENCIL: ff->map_stencil = v != 0.0f; break;
    default: break;   /* post-convolution / colour-table scales: imaging subset, not kept */
    }
}

/* glPixelMap{fv,uiv,usv}(map, size, values) from client memory (GL 2.1 section 3.6.3; Mesa's
 * pixel.c): size 1..256, a power of two for the maps indexed by an index (I_TO_*, S_TO_S);
 * colour values as floats clamped to [0, 1] (unsigned forms normalized), index values as they
 * are. A source in a pixel unpack buffer is not read (the map keeps its values). */
static void h_pixel_map(struct sm_ap *a)
{
    uint32_t map = ap_u(a, 0);
    int64_t n = ap_i(a, 1);
    if (map < GL_PIXEL_MAP_I_TO_I || map > GL_PIXEL_MAP_A_TO_A || n < 1 || n > SM_PIXEL_MAP_MAX)
        return;   /* GL_INVALID_ENUM / GL_INVALID_VALUE */
    bool indexed = map <= GL_PIXEL_MAP_I_TO_A;
    if (indexed && (n & (n - 1)))
        return;   /* GL_INVALID_VALUE: not a power of two */
    if (ST(a)->buffer[SM_BT_PIXEL_UNPACK])
        return;
    int es = a->cmd == GLR_CMD_glPixelMapusv ? 2 : 4;
    const uint8_t *src = ap_blob(a, 2, (uint64_t)n * (uint64_t)es);
    if (!src)
        return;
    bool index_values = map == GL_PIXEL_MAP_I_TO_I || map == GL_PIXEL_MAP_S_TO_S;
    struct sm_pixel_map *pm = &FF(a)->pixel_map[map - GL_PIXEL_MAP_I_TO_I];
    for (int64_t i = 0; i < n; i++) {
        float v;
        if (a->cmd == GLR_CMD_glPixelMapusv) {
            uint16_t u;
            memcpy(&u, src + i * 2, 2);
            v = index_values ? (float)u : (float)(u / 65535.0);
        } else if (a->cmd == GLR_CMD_glPixelMapuiv) {
            uint32_t u;
            memcpy(&u, src + i * 4, 4);
            v = index_values ? (float)u : (float)(u / 4294967295.0);
        } else {
            memcpy(&v, src + i * 4, 4);
            if (!index_values)
                v = v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
        }
        pm->v[i] = v;
    }
    pm->size = (uint16_t)n;
}

void sm_register_rasterpos(sm_apply_fn *tab)
{
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++) {
        enum sm_imm_kind k = sm_imm_kind_of(i);
        if (k == SM_IMM_RASTER_POS || k == SM_IMM_WINDOW_POS)
            tab[i] = h_pos;
    }
    tab[GLR_CMD_glBitmap] = h_bitmap;
    tab[GLR_CMD_glPixelZoom] = h_pixel_zoom;
    tab[GLR_CMD_glPixelTransferf] = h_pixel_transfer;
    tab[GLR_CMD_glPixelTransferi] = h_pixel_transfer;
    tab[GLR_CMD_glPixelMapfv] = h_pixel_map;
    tab[GLR_CMD_glPixelMapuiv] = h_pixel_map;
    tab[GLR_CMD_glPixelMapusv] = h_pixel_map;
}
