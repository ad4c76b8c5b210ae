/* Values of the GLSL compatibility built-in uniforms (gl_LightSource[], gl_FrontMaterial,
 * gl_LightModel, gl_FrontLightProduct[], gl_Fog, gl_TextureEnvColor[], gl_EyePlaneS[],
 * gl_ClipPlane[], gl_Point, gl_NormalScale, ... renamed glr_* by the front end's upgrade pass)
 * from the state model's fixed-function state, for real GLSL programs and the generated
 * fixed-function ones alike; plus the ff_* uniforms of the generated shaders, which hold what
 * Mesa precomputes on the CPU (gpu_model/fixedfunc/gm_ff.h), computed here in float the way
 * Mesa does so the results round alike. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"

static void normalize3(float *v)
{
    float len = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
    if (len != 0.0f) {
        len = 1.0f / sqrtf(len);
        v[0] *= len;
        v[1] *= len;
        v[2] *= len;
    }
}

/* inv = m^-1 (column-major, in double); false when m is singular. */
static bool invert(const float *m, double inv[16])
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][4 + c] = r == c;
        }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int r = col + 1; r < 4; r++)
            if (fabs(a[r][col]) > fabs(a[piv][col]))
                piv = r;
        if (a[piv][col] == 0.0)
            return false;
        for (int k = 0; k < 8; k++) {
            double t = a[col][k];
            a[col][k] = a[piv][k];
            a[piv][k] = t;
        }
        double d = a[col][col];
        for (int k = 0; k < 8; k++)
            a[col][k] /= d;
        for (int r = 0; r < 4; r++)
            if (r != col && a[r][col] != 0.0) {
                double f = a[r][col];
                for (int k = 0; k < 8; k++)
                    a[r][k] -= f * a[col][k];
            }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[c * 4 + r] = a[r][4 + c];
    return true;
}

/* Mesa's _ModelViewInvScale: 1 / |row 2 of the inverse modelview| (inv[2], inv[6], inv[10]). */
static float normal_scale(const float *m)
{
    double inv[16];
    if (!invert(m, inv))
        return 1.0f;
    float i2 = (float)inv[2], i6 = (float)inv[6], i10 = (float)inv[10];
    float f = i2 * i2 + i6 * i6 + i10 * i10;
    if (f < 1e-12f)
        f = 1.0f;
    return 1.0f / sqrtf(f);
}

void gmf_ff_values_get(const struct sm_context_state *st, gm_ff_values *v)
{
    const struct sm_fixed_state *ff = &st->ff;
    memset(v, 0, sizeof *v);
    for (int i = 0; i < GM_FF_LIGHTS; i++) {
        const struct sm_ff_light *l = &ff->light[i];
        memcpy(v->light_pos[i], l->position, sizeof v->light_pos[i]);
        if (l->position[3] != 0.0f) {
            /* Mesa's light state (_Position): a positional light's eye position divided by its
             * w, by multiplying with 1 / w (GLSL's gl_LightSource[].position keeps it whole) */
            float w_inv = 1.0f / l->position[3];
            for (int k = 0; k < 3; k++)
                v->light_pos[i][k] *= w_inv;
        }
        if (l->position[3] == 0.0f) {
            normalize3(v->light_pos[i]);
            float h[3] = { v->light_pos[i][0], v->light_pos[i][1], v->light_pos[i][2] + 1.0f };
            normalize3(h);
            memcpy(v->light_half[i], h, sizeof h);
            v->light_half[i][3] = 1.0f;
        }
        memcpy(v->spot_dir[i], l->spot_direction, 3 * sizeof(float));
        normalize3(v->spot_dir[i]);
        double cc = cos(l->spot_cutoff * M_PI / 180.0);
        v->spot_dir[i][3] = cc < 0.0 ? 0.0f : (float)cc;
    }
    for (int s = 0; s < 2; s++) {
        const struct sm_ff_material *m = &ff->material[s];
        for (int k = 0; k < 3; k++)
            v->scene_color[s][k] = m->emission[k] + ff->light_model_ambient[k] * m->ambient[k];
        v->scene_color[s][3] = m->diffuse[3];
    }
    float d = ff->fog_end - ff->fog_start;
    v->fog_params[0] = ff->fog_end == ff->fog_start ? 1.0f : -1.0f / d;
    v->fog_params[1] = ff->fog_end * -v->fog_params[0];
    v->fog_params[2] = (float)(ff->fog_density * M_LOG2E);
    v->fog_params[3] = (float)(ff->fog_density * (1.0 / sqrt(M_LN2)));
    v->normal_scale = normal_scale(st->modelview.m[st->modelview.depth]);
    /* clip-space user planes: the eye plane (a row vector) times the inverse projection */
    double pinv[16];
    bool pok = invert(st->projection.m[st->projection.depth], pinv);
    for (int i = 0; i < GM_FF_CLIP_PLANES; i++)
        for (int c = 0; c < 4; c++) {
            const float *e = ff->clip_plane[i];
            v->clip_plane[i][c] = pok ? (float)(e[0] * pinv[c * 4 + 0] + e[1] * pinv[c * 4 + 1] +
                                                e[2] * pinv[c * 4 + 2] + e[3] * pinv[c * 4 + 3])
                                      : e[c];
        }
    for (int u = 0; u < GM_FF_UNITS; u++) {
        v->env_scale[u][0] = ff->unit[u].rgb_scale;
        v->env_scale[u][1] = ff->unit[u].alpha_scale;
    }
    /* Mesa 22.3's STATE_POINT_SIZE_CLAMPED: the size itself is not clamped (the attenuated size
     * is clamped to [min, max] by the vertex program: clamping first shrinks attenuated points
     * whose size is over the maximum; piglit arb_point_parameters-point-attenuation) */
    v->point_size[0] = st->point_size;
    /* min and max within llvmpipe's limits (1 and 255 for every kind of point) */
    v->point_size[1] = ff->point_size_min >= 1.0f ? ff->point_size_min : 1.0f;
    v->point_size[2] = ff->point_size_max <= 255.0f ? ff->point_size_max : 255.0f;
    v->point_size[3] = ff->point_fade_threshold;
}

/* ------------------------------------------------------------------ by name */

static int copy(float *out, const float *in, int n)
{
    memcpy(out, in, (size_t)n * sizeof *out);
    return n;
}

static int one(float *out, float x)
{
    out[0] = x;
    return 1;
}

static int light_member(const struct sm_context_state *st, const gm_ff_values *v, int i,
                        const char *m, float *out)
{
    const struct sm_ff_light *l = &st->ff.light[i];
    if (!strcmp(m, "ambient")) return copy(out, l->ambient, 4);
    if (!strcmp(m, "diffuse")) return copy(out, l->diffuse, 4);
    if (!strcmp(m, "specular")) return copy(out, l->specular, 4);
    if (!strcmp(m, "position")) return copy(out, l->position, 4);
    if (!strcmp(m, "halfVector")) return copy(out, v->light_half[i], 4);
    if (!strcmp(m, "spotDirection")) return copy(out, l->spot_direction, 3);
    if (!strcmp(m, "spotExponent")) return one(out, l->spot_exponent);
    if (!strcmp(m, "spotCutoff")) return one(out, l->spot_cutoff);
    if (!strcmp(m, "spotCosCutoff")) return one(out, v->spot_dir[i][3]);
    if (!strcmp(m, "constantAttenuation")) return one(out, l->attenuation[0]);
    if (!strcmp(m, "linearAttenuation")) return one(out, l->attenuation[1]);
    if (!strcmp(m, "quadraticAttenuation")) return one(out, l->attenuation[2]);
    return 0;
}

static int material_member(const struct sm_ff_material *mat, const char *m, float *out)
{
    if (!strcmp(m, "emission")) return copy(out, mat->emission, 4);
    if (!strcmp(m, "ambient")) return copy(out, mat->ambient, 4);
    if (!strcmp(m, "diffuse")) return copy(out, mat->diffuse, 4);
    if (!strcmp(m, "specular")) return copy(out, mat->specular, 4);
    if (!strcmp(m, "shininess")) return one(out, mat->shininess);
    return 0;
}

static int product_member(const struct sm_context_state *st, int side, int i, const char *m, float *out)
{
    const struct sm_ff_light *l = &st->ff.light[i];
    const struct sm_ff_material *mat = &st->ff.material[side];
    const float *a, *b;
    if (!strcmp(m, "ambient")) { a = l->ambient; b = mat->ambient; }
    else if (!strcmp(m, "diffuse")) { a = l->diffuse; b = mat->diffuse; }
    else if (!strcmp(m, "specular")) { a = l->specular; b = mat->specular; }
    else return 0;
    for (int k = 0; k < 4; k++)
        out[k] = a[k] * b[k];
    return 4;
}

/* The value of element `index` of uniform `base` (member m, "" if none): its float count, or 0
 * when the name is not one fed here. */
/* A current colour as Mesa's STATE_CURRENT_ATTRIB_MAYBE_VP_CLAMPED gives it to the
 * fixed-function fragment program: saturated with GL_CLAMP_VERTEX_COLOR (FIXED_ONLY taken as
 * clamping: a fixed-point colour buffer), the comparisons letting NaN through unchanged. */
static int current_color(const struct sm_context_state *st, int slot, float *out)
{
    bool clamp = st->ff.clamp_vertex_color != GL_FALSE;
    for (int i = 0; i < 4; i++) {
        float x = st->legacy_current[slot][i];
        out[i] = !clamp ? x : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
    }
    return 4;
}

static int value_of(const struct sm_context_state *st, const gm_ff_values *v, const char *base,
                    int index, const char *m, float *out)
{
    const struct sm_fixed_state *ff = &st->ff;
    bool in8 = index >= 0 && index < 8;
    if (!strcmp(base, "glr_LightSource"))
        return in8 ? light_member(st, v, index, m, out) : 0;
    if (!strcmp(base, "glr_FrontMaterial") || !strcmp(base, "glr_BackMaterial"))
        return material_member(&ff->material[base[4] == 'B'], m, out);
    if (!strcmp(base, "glr_FrontLightProduct") || !strcmp(base, "glr_BackLightProduct"))
        return in8 ? product_member(st, base[4] == 'B', index, m, out) : 0;
    if (!strcmp(base, "glr_FrontLightModelProduct") || !strcmp(base, "glr_BackLightModelProduct"))
        return !strcmp(m, "sceneColor") ? copy(out, v->scene_color[base[4] == 'B'], 4) : 0;
    if (!strcmp(base, "glr_LightModel"))
        return !strcmp(m, "ambient") ? copy(out, ff->light_model_ambient, 4) : 0;
    if (!strcmp(base, "glr_Fog")) {
        if (!strcmp(m, "color")) return copy(out, ff->fog_color, 4);
        if (!strcmp(m, "density")) return one(out, ff->fog_density);
        if (!strcmp(m, "start")) return one(out, ff->fog_start);
        if (!strcmp(m, "end")) return one(out, ff->fog_end);
        if (!strcmp(m, "scale"))   /* +inf when start == end, as Mesa gives it (piglit fogscale) */
            return one(out, 1.0f / (ff->fog_end - ff->fog_start));
        return 0;
    }
    if (!strcmp(base, "glr_DepthRange")) {   /* viewport 0's, as Mesa's state uniform */
        const double *dr = st->depth_range[0];
        if (!strcmp(m, "near")) return one(out, (float)dr[0]);
        if (!strcmp(m, "far")) return one(out, (float)dr[1]);
        if (!strcmp(m, "diff")) return one(out, (float)(dr[1] - dr[0]));
        return 0;
    }
    if (!strcmp(base, "glr_Point")) {
        if (!strcmp(m, "size")) return one(out, st->point_size);
        if (!strcmp(m, "sizeMin")) return one(out, ff->point_size_min);
        if (!strcmp(m, "sizeMax")) return one(out, ff->point_size_max);
        if (!strcmp(m, "fadeThresholdSize")) return one(out, ff->point_fade_threshold);
        if (!strcmp(m, "distanceConstantAttenuation")) return one(out, ff->point_attenuation[0]);
        if (!strcmp(m, "distanceLinearAttenuation")) return one(out, ff->point_attenuation[1]);
        if (!strcmp(m, "distanceQuadraticAttenuation")) return one(out, ff->point_attenuation[2]);
        return 0;
    }
    if (!strcmp(base, "glr_NormalScale"))
        return one(out, v->normal_scale);
    if (!strcmp(base, "glr_TextureEnvColor"))
        return in8 ? copy(out, ff->unit[index].env_color, 4) : 0;
    if (!strcmp(base, "glr_ClipPlane"))
        return in8 ? copy(out, ff->clip_plane[index], 4) : 0;
    if (!strncmp(base, "glr_EyePlane", 12) || !strncmp(base, "glr_ObjectPlane", 15)) {
        bool eye = base[4] == 'E';
        const char *c = base + (eye ? 12 : 15);
        const char *coords = "STRQ";
        const char *at = *c && !c[1] ? strchr(coords, *c) : NULL;
        if (!at || !in8)
            return 0;
        return copy(out, eye ? ff->unit[index].eye_plane[at - coords] : ff->unit[index].object_plane[at - coords], 4);
    }
    /* the generated shaders' own uniforms */
    if (!strcmp(base, "ff_light_pos")) return in8 ? copy(out, v->light_pos[index], 4) : 0;
    if (!strcmp(base, "ff_light_half")) return in8 ? copy(out, v->light_half[index], 4) : 0;
    if (!strcmp(base, "ff_spot_dir")) return in8 ? copy(out, v->spot_dir[index], 4) : 0;
    if (!strcmp(base, "ff_scene_color")) return index >= 0 && index < 2 ? copy(out, v->scene_color[index], 4) : 0;
    if (!strcmp(base, "ff_normal_scale")) return one(out, v->normal_scale);
    if (!strcmp(base, "ff_clip_plane")) return in8 ? copy(out, v->clip_plane[index], 4) : 0;
    if (!strcmp(base, "ff_point_size")) return copy(out, v->point_size, 4);
    if (!strcmp(base, "ff_fog_params")) return copy(out, v->fog_params, 4);
    if (!strcmp(base, "ff_current_color")) return current_color(st, SM_LA_COLOR, out);
    if (!strcmp(base, "ff_current_secondary")) return current_color(st, SM_LA_SECONDARY_COLOR, out);
    if (!strncmp(base, "ff_env_scale", 12)) {
        int u = atoi(base + 12);
        return u >= 0 && u < GM_FF_UNITS ? copy(out, v->env_scale[u], 2) : 0;
    }
    return 0;
}

/* Splits "a[3].m" / "a.m" / "a" into base, index (-1: none) and member. */
static void split_name(const char *name, char *base, size_t bn, int *index, const char **member)
{
    size_t n = strcspn(name, "[.");
    snprintf(base, bn, "%.*s", (int)n, name);
    *index = -1;
    *member = "";
    const char *p = name + n;
    if (*p == '[') {
        *index = atoi(p + 1);
        p = strchr(p, ']');
        p = p ? p + 1 : "";
    }
    if (*p == '.')
        *member = p + 1;
}

bool gmf_ff_uniform_fed(const char *name)
{
    char base[64];
    int index;
    const char *m;
    split_name(name, base, sizeof base, &index, &m);
    static const char *const fed[] = {
        "glr_LightSource", "glr_FrontMaterial", "glr_BackMaterial", "glr_FrontLightProduct",
        "glr_BackLightProduct", "glr_FrontLightModelProduct", "glr_BackLightModelProduct",
        "glr_LightModel", "glr_Fog", "glr_DepthRange", "glr_Point", "glr_NormalScale", "glr_TextureEnvColor",
        "glr_ClipPlane", "glr_EyePlaneS", "glr_EyePlaneT", "glr_EyePlaneR", "glr_EyePlaneQ",
        "glr_ObjectPlaneS", "glr_ObjectPlaneT", "glr_ObjectPlaneR", "glr_ObjectPlaneQ",
    };
    for (size_t i = 0; i < sizeof fed / sizeof fed[0]; i++)
        if (!strcmp(base, fed[i]))
            return true;
    return !strncmp(base, "ff_", 3);
}

void gmf_ff_upload(const struct sm_context *c, gm_program *gp)
{
    const struct sm_context_state *st = sm_context_state(c);
    if (!gp || !st)
        return;
    gm_ff_values v;
    gmf_ff_values_get(st, &v);
    for (int u = 0; u < gm_program_uniform_count(gp); u++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, u);
        if (strncmp(ui->name, "glr_", 4) && strncmp(ui->name, "ff_", 3))
            continue;
        if (ui->is_opaque) {
            /* ff_textureN samples unit N */
            if (!strncmp(ui->name, "ff_texture", 10)) {
                int32_t unit = atoi(ui->name + 10);
                gm_program_set_uniform(gp, u, 0, 1, &unit);
            }
            continue;
        }
        char base[64];
        int index;
        const char *m;
        split_name(ui->name, base, sizeof base, &index, &m);
        gm_type_desc td;
        if (gm_type_get(gp, ui->type, &td) != 0)
            continue;
        for (int e = 0; e < ui->array_size; e++) {
            float val[16];
            int n = value_of(st, &v, base, ui->array_size > 1 ? e : index, m, val);
            if (n <= 0 || n != td.components)
                continue;
            gm_program_set_uniform(gp, u, e, 1, val);
        }
    }
}
