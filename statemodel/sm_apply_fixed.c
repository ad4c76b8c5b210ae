/* Fixed-function state (compatibility profile): glLight*, glMaterial*, glLightModel*,
 * glColorMaterial, glFog*, glAlphaFunc, glShadeModel, glClipPlane, glTexEnv*, glTexGen* and the
 * point parameters other than the sprite origin (sm_apply_raster.c hands those over). Positions,
 * directions and planes are transformed to eye coordinates with the modelview current at the
 * call, as GL 2.1 sections 2.11.4, 2.12 and 2.14.1 say: later matrix changes do not move them.
 * The GPU model turns this state into generated shaders (gpu_model/fixedfunc). */
#include <math.h>
#include <string.h>
#include "statemodel/sm_apply.h"

#define ST(a) (&(a)->c->st)
#define FF(a) (&(a)->c->st.ff)

/* ------------------------------------------------------------------ arguments */

/* The form of a setter: 'f', 'i', 'd' (scalar) or the vector's element type with *vec set
 * (glLightfv: 'f', vec), from its "family setter" line in registry/gl_annotations.txt. */
static char form_of(const struct sm_ap *a, bool *vec)
{
    return sm_setter_form(a->cmd, vec);
}

/* Integer colour components map linearly to [-1, 1] (GL 2.1 table 2.10). */
static float int_color(int32_t i) { return (float)((2.0 * (double)i + 1.0) / 4294967295.0); }

/* Reads n values of the parameter at index p (scalar forms give one). Colours read integers as
 * normalized. False (with an error) when the recorded data is missing or a scalar form is given
 * a vector pname. */
static bool vals(struct sm_ap *a, int p, int n, bool color, float *out)
{
    bool vec;
    char f = form_of(a, &vec);
    if (!vec) {
        if (n != 1) {
            ap_error(a, "vector parameter given to a scalar form");
            return false;
        }
        out[0] = f == 'f' ? ap_f(a, p) : f == 'd' ? (float)ap_d(a, p) : (float)ap_i(a, p);
        return true;
    }
    size_t es = f == 'd' ? 8 : 4;
    const void *b = ap_blob(a, p, (uint64_t)n * es);
    if (!b) {
        ap_error(a, "values missing from the recorded call");
        return false;
    }
    for (int i = 0; i < n; i++) {
        if (f == 'f')
            out[i] = ((const float *)b)[i];
        else if (f == 'd')
            out[i] = (float)((const double *)b)[i];
        else {
            int32_t v = ((const int32_t *)b)[i];
            out[i] = color ? int_color(v) : (float)v;
        }
    }
    return true;
}

/* One enum-valued parameter (float forms carry the enum as a float). */
static bool enum_val(struct sm_ap *a, int p, uint32_t *out)
{
    bool vec;
    char f = form_of(a, &vec);
    float v;
    if (f == 'f' || f == 'd') {
        if (!vals(a, p, 1, false, &v))
            return false;
        *out = (uint32_t)v;
        return true;
    }
    if (!vec) {
        *out = ap_u(a, p);
        return true;
    }
    const uint32_t *b = ap_blob(a, p, 4);
    if (!b) {
        ap_error(a, "values missing from the recorded call");
        return false;
    }
    *out = b[0];
    return true;
}

/* ------------------------------------------------------------------ eye-space transforms */

static const float *modelview(struct sm_ap *a)
{
    const struct sm_matrix_stack *s = &ST(a)->modelview;
    return s->m[s->depth];
}

/* o = M * v (column-major M). */
static void xform4(const float *m, const float *v, float *o)
{
    for (int r = 0; r < 4; r++)
        o[r] = m[r] * v[0] + m[4 + r] * v[1] + m[8 + r] * v[2] + m[12 + r] * v[3];
}

/* A plane (row vector) into eye space: p * M^-1 (GL 2.1 eq. 2.13 / 2.19), in double. */
void sm_fixed_plane_to_eye(const float *m, const double in[4], float out[4])
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
        if (a[piv][col] == 0.0) {   /* singular: GL leaves the result undefined */
            for (int i = 0; i < 4; i++)
                out[i] = (float)in[i];
            return;
        }
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
    /* out[c] = sum_r in[r] * inv[r][c] */
    for (int c = 0; c < 4; c++) {
        double s = 0.0;
        for (int r = 0; r < 4; r++)
            s += in[r] * a[r][4 + c];
        out[c] = (float)s;
    }
}

/* ------------------------------------------------------------------ lights and materials */

static void h_light(struct sm_ap *a)
{
    uint32_t li = ap_u(a, 0) - GL_LIGHT0;
    uint32_t pname = ap_u(a, 1);
    if (li >= SM_MAX_LIGHTS) {
        ap_error(a, "light beyond GL_LIGHT7");
        return;
    }
    struct sm_ff_light *l = &FF(a)->light[li];
    float v[4];
    switch (pname) {
    case GL_AMBIENT: case GL_DIFFUSE: case GL_SPECULAR:
        if (vals(a, 2, 4, true, v))
            memcpy(pname == GL_AMBIENT ? l->ambient : pname == GL_DIFFUSE ? l->diffuse : l->specular,
                   v, sizeof v);
        return;
    case GL_POSITION:
        if (vals(a, 2, 4, false, v))
            xform4(modelview(a), v, l->position);
        return;
    case GL_SPOT_DIRECTION:
        if (vals(a, 2, 3, false, v)) {
            v[3] = 0.0f;
            float o[4];
            xform4(modelview(a), v, o);
            memcpy(l->spot_direction, o, 3 * sizeof *o);
        }
        return;
    case GL_SPOT_EXPONENT:
        if (vals(a, 2, 1, false, v))
            l->spot_exponent = v[0];
        return;
    case GL_SPOT_CUTOFF:
        if (vals(a, 2, 1, false, v))
            l->spot_cutoff = v[0];
        return;
    case GL_CONSTANT_ATTENUATION: case GL_LINEAR_ATTENUATION: case GL_QUADRATIC_ATTENUATION:
        if (vals(a, 2, 1, false, v))
            l->attenuation[pname - GL_CONSTANT_ATTENUATION] = v[0];
        return;
    default:
        ap_error(a, "light parameter not known");
    }
}

/* The materials a face argument names ([0] front, [1] back). */
static bool faces(uint32_t face, bool f[2])
{
    f[0] = face == GL_FRONT || face == GL_FRONT_AND_BACK;
    f[1] = face == GL_BACK || face == GL_FRONT_AND_BACK;
    return f[0] || f[1];
}

static void h_material(struct sm_ap *a)
{
    bool f[2];
    uint32_t pname = ap_u(a, 1);
    if (!faces(ap_u(a, 0), f)) {
        ap_error(a, "material face not known");
        return;
    }
    float v[4];
    int n = pname == GL_SHININESS ? 1 : pname == GL_COLOR_INDEXES ? 3 : 4;
    if (pname != GL_AMBIENT && pname != GL_DIFFUSE && pname != GL_SPECULAR && pname != GL_EMISSION &&
        pname != GL_AMBIENT_AND_DIFFUSE && pname != GL_SHININESS && pname != GL_COLOR_INDEXES) {
        ap_error(a, "material parameter not known");
        return;
    }
    if (!vals(a, 2, n, pname != GL_SHININESS && pname != GL_COLOR_INDEXES, v))
        return;
    for (int k = 0; k < 2; k++) {
        if (!f[k])
            continue;
        struct sm_ff_material *m = &FF(a)->material[k];
        if (pname == GL_AMBIENT || pname == GL_AMBIENT_AND_DIFFUSE)
            memcpy(m->ambient, v, sizeof v);
        if (pname == GL_DIFFUSE || pname == GL_AMBIENT_AND_DIFFUSE)
            memcpy(m->diffuse, v, sizeof v);
        if (pname == GL_SPECULAR)
            memcpy(m->specular, v, sizeof v);
        if (pname == GL_EMISSION)
            memcpy(m->emission, v, sizeof v);
        if (pname == GL_SHININESS)
            m->shininess = v[0];
        if (pname == GL_COLOR_INDEXES)
            memcpy(m->color_indexes, v, 3 * sizeof *v);
    }
}

void sm_fixed_color_material_update(struct sm_context_state *st)
{
    struct sm_fixed_state *ff = &st->ff;
    bool f[2];
    if (!faces(ff->color_material_face, f))
        return;
    const float *c = st->legacy_current[SM_LA_COLOR];
    uint32_t m = ff->color_material_mode;
    for (int k = 0; k < 2; k++) {
        if (!f[k])
            continue;
        struct sm_ff_material *mat = &ff->material[k];
        if (m == GL_AMBIENT || m == GL_AMBIENT_AND_DIFFUSE)
            memcpy(mat->ambient, c, 4 * sizeof *c);
        if (m == GL_DIFFUSE || m == GL_AMBIENT_AND_DIFFUSE)
            memcpy(mat->diffuse, c, 4 * sizeof *c);
        if (m == GL_SPECULAR)
            memcpy(mat->specular, c, 4 * sizeof *c);
        if (m == GL_EMISSION)
            memcpy(mat->emission, c, 4 * sizeof *c);
    }
}

static void h_color_material(struct sm_ap *a)
{
    bool f[2];
    uint32_t face = ap_u(a, 0), mode = ap_u(a, 1);
    if (!faces(face, f) || (mode != GL_EMISSION && mode != GL_AMBIENT && mode != GL_DIFFUSE &&
                            mode != GL_SPECULAR && mode != GL_AMBIENT_AND_DIFFUSE)) {
        ap_error(a, "colour material face or mode not known");
        return;
    }
    FF(a)->color_material_face = face;
    FF(a)->color_material_mode = mode;
    /* The newly tracked material takes the current colour at once (GL 2.1 section 2.14.3). */
    if (sm_is_enabled(a->c, GL_COLOR_MATERIAL, 0))
        sm_fixed_color_material_update(ST(a));
}

static void h_light_model(struct sm_ap *a)
{
    uint32_t pname = ap_u(a, 0);
    struct sm_fixed_state *ff = FF(a);
    float v[4];
    if (pname == GL_LIGHT_MODEL_AMBIENT) {
        if (vals(a, 1, 4, true, v))
            memcpy(ff->light_model_ambient, v, sizeof v);
    } else if (pname == GL_LIGHT_MODEL_LOCAL_VIEWER || pname == GL_LIGHT_MODEL_TWO_SIDE) {
        if (vals(a, 1, 1, false, v))
            *(pname == GL_LIGHT_MODEL_TWO_SIDE ? &ff->two_side : &ff->local_viewer) = v[0] != 0.0f;
    } else if (pname == GL_LIGHT_MODEL_COLOR_CONTROL) {
        uint32_t e;
        if (enum_val(a, 1, &e))
            ff->color_control = e;
    } else {
        ap_error(a, "light model parameter not known");
    }
}

/* ------------------------------------------------------------------ fog, alpha, shading, planes */

static void h_fog(struct sm_ap *a)
{
    uint32_t pname = ap_u(a, 0);
    struct sm_fixed_state *ff = FF(a);
    float v[4];
    uint32_t e;
    switch (pname) {
    case GL_FOG_MODE:
        if (enum_val(a, 1, &e))
            ff->fog_mode = e;
        return;
    case GL_FOG_COORD_SRC:
        if (enum_val(a, 1, &e))
            ff->fog_coord_src = e;
        return;
    case GL_FOG_DENSITY: case GL_FOG_START: case GL_FOG_END: case GL_FOG_INDEX:
        if (vals(a, 1, 1, false, v))
            *(pname == GL_FOG_DENSITY ? &ff->fog_density : pname == GL_FOG_START ? &ff->fog_start
              : pname == GL_FOG_END ? &ff->fog_end : &ff->fog_index) = v[0];
        return;
    case GL_FOG_COLOR:
        if (vals(a, 1, 4, true, v))
            memcpy(ff->fog_color, v, sizeof v);
        return;
    case GL_FOG_DISTANCE_MODE_NV:   /* Mesa exposes NV_fog_distance on every driver */
        if (enum_val(a, 1, &e)) {
            if (e != GL_EYE_RADIAL_NV && e != GL_EYE_PLANE && e != GL_EYE_PLANE_ABSOLUTE_NV)
                ap_error(a, "fog distance mode not known");
            else
                ff->fog_distance_mode = e;
        }
        return;
    default:
        ap_error(a, "fog parameter not known");
    }
}

static void h_alpha_func(struct sm_ap *a)
{
    uint32_t func = ap_u(a, 0);
    if (func < GL_NEVER || func > GL_ALWAYS) {
        ap_error(a, "alpha function not known");
        return;
    }
    FF(a)->alpha_func = func;
    float ref = ap_f(a, 1);
    FF(a)->alpha_ref = ref < 0.0f ? 0.0f : ref > 1.0f ? 1.0f : ref;   /* clamped (GL 2.1 4.1.4) */
}

static void h_shade_model(struct sm_ap *a)
{
    uint32_t m = ap_u(a, 0);
    if (m != GL_FLAT && m != GL_SMOOTH) {
        ap_error(a, "shade model not known");
        return;
    }
    FF(a)->shade_model = m;
}

/* glClampColor: the vertex colour clamp (the fragment and read clamps are not modelled). */
static void h_clamp_color(struct sm_ap *a)
{
    uint32_t target = ap_u(a, 0), v = ap_u(a, 1);
    if (v != GL_TRUE && v != GL_FALSE && v != GL_FIXED_ONLY) {
        ap_error(a, "clamp mode not known");
        return;
    }
    if (target == GL_CLAMP_VERTEX_COLOR)
        FF(a)->clamp_vertex_color = v;
}

static void h_clip_plane(struct sm_ap *a)
{
    uint32_t i = ap_u(a, 0) - GL_CLIP_PLANE0;
    bool dbl = a->cmd == GLR_CMD_glClipPlane;
    const void *b = ap_blob(a, 1, dbl ? 32 : 16);
    if (i >= 8 || !b) {
        ap_error(a, i >= 8 ? "clip plane beyond GL_CLIP_PLANE7" : "plane missing from the recorded call");
        return;
    }
    double p[4];
    for (int k = 0; k < 4; k++)
        p[k] = dbl ? ((const double *)b)[k] : ((const float *)b)[k];
    sm_fixed_plane_to_eye(modelview(a), p, FF(a)->clip_plane[i]);
}

void sm_fixed_point_parameter(struct sm_ap *a)
{
    uint32_t pname = ap_u(a, 0);
    struct sm_fixed_state *ff = FF(a);
    float v[4];
    switch (pname) {
    case GL_POINT_SIZE_MIN: case GL_POINT_SIZE_MAX: case GL_POINT_FADE_THRESHOLD_SIZE:
        if (vals(a, 1, 1, false, v))
            *(pname == GL_POINT_SIZE_MIN ? &ff->point_size_min : pname == GL_POINT_SIZE_MAX
              ? &ff->point_size_max : &ff->point_fade_threshold) = v[0];
        return;
    case GL_POINT_DISTANCE_ATTENUATION:
        if (vals(a, 1, 3, false, v))
            memcpy(ff->point_attenuation, v, 3 * sizeof *v);
        return;
    default:
        ap_error(a, "point parameter not known");
    }
}

/* ------------------------------------------------------------------ texture units */

static struct sm_ff_unit *active_unit(struct sm_ap *a)
{
    uint32_t u = ST(a)->active_texture;
    if (u >= SM_FF_UNITS) {
        ap_error(a, "texture environment of a unit beyond the legacy units");
        return NULL;
    }
    return &FF(a)->unit[u];
}

static void h_tex_env(struct sm_ap *a)
{
    uint32_t target = ap_u(a, 0), pname = ap_u(a, 1);
    struct sm_ff_unit *t = active_unit(a);
    if (!t)
        return;
    float v[4];
    uint32_t e;
    if (target == GL_POINT_SPRITE && pname == GL_COORD_REPLACE) {
        if (enum_val(a, 2, &e))
            t->coord_replace = e != 0;
        return;
    }
    if (target == GL_TEXTURE_FILTER_CONTROL && pname == GL_TEXTURE_LOD_BIAS) {
        if (vals(a, 2, 1, false, v))
            t->lod_bias = v[0];
        return;
    }
    if (target != GL_TEXTURE_ENV) {
        ap_error(a, "texture environment target not known");
        return;
    }
    switch (pname) {
    case GL_TEXTURE_ENV_MODE:
        if (enum_val(a, 2, &e))
            t->env_mode = e;
        return;
    case GL_TEXTURE_ENV_COLOR:
        if (vals(a, 2, 4, true, v))
            memcpy(t->env_color, v, sizeof v);
        return;
    case GL_COMBINE_RGB: case GL_COMBINE_ALPHA:
        if (enum_val(a, 2, &e))
            *(pname == GL_COMBINE_RGB ? &t->combine_rgb : &t->combine_alpha) = e;
        return;
    case GL_SRC0_RGB: case GL_SRC1_RGB: case GL_SRC2_RGB:
        if (enum_val(a, 2, &e))
            t->src_rgb[pname - GL_SRC0_RGB] = e;
        return;
    case GL_SRC0_ALPHA: case GL_SRC1_ALPHA: case GL_SRC2_ALPHA:
        if (enum_val(a, 2, &e))
            t->src_alpha[pname - GL_SRC0_ALPHA] = e;
        return;
    case GL_OPERAND0_RGB: case GL_OPERAND1_RGB: case GL_OPERAND2_RGB:
        if (enum_val(a, 2, &e))
            t->op_rgb[pname - GL_OPERAND0_RGB] = e;
        return;
    case GL_OPERAND0_ALPHA: case GL_OPERAND1_ALPHA: case GL_OPERAND2_ALPHA:
        if (enum_val(a, 2, &e))
            t->op_alpha[pname - GL_OPERAND0_ALPHA] = e;
        return;
    /* GL_NV_texture_env_combine4's fourth argument (Mesa exposes it on llvmpipe) */
    case GL_SOURCE3_RGB_NV: case GL_SOURCE3_ALPHA_NV:
        if (enum_val(a, 2, &e))
            *(pname == GL_SOURCE3_RGB_NV ? &t->src_rgb[3] : &t->src_alpha[3]) = e;
        return;
    case GL_OPERAND3_RGB_NV: case GL_OPERAND3_ALPHA_NV:
        if (enum_val(a, 2, &e))
            *(pname == GL_OPERAND3_RGB_NV ? &t->op_rgb[3] : &t->op_alpha[3]) = e;
        return;
    case GL_RGB_SCALE: case GL_ALPHA_SCALE:
        if (vals(a, 2, 1, false, v))
            *(pname == GL_RGB_SCALE ? &t->rgb_scale : &t->alpha_scale) = v[0];
        return;
    default:
        ap_error(a, "texture environment parameter not known");
    }
}

static void h_tex_gen(struct sm_ap *a)
{
    uint32_t coord = ap_u(a, 0) - GL_S, pname = ap_u(a, 1);
    struct sm_ff_unit *t = active_unit(a);
    if (!t)
        return;
    if (coord > 3) {
        ap_error(a, "texture coordinate not known");
        return;
    }
    if (pname == GL_TEXTURE_GEN_MODE) {
        uint32_t e;
        if (enum_val(a, 2, &e))
            t->gen_mode[coord] = e;
        return;
    }
    if (pname != GL_OBJECT_PLANE && pname != GL_EYE_PLANE) {
        ap_error(a, "texture generation parameter not known");
        return;
    }
    /* Read in double for the double forms: the eye plane is transformed before rounding. */
    bool vec;
    char f = form_of(a, &vec);
    double p[4];
    if (f == 'd') {
        const double *b = ap_blob(a, 2, 32);
        if (!b) {
            ap_error(a, "values missing from the recorded call");
            return;
        }
        memcpy(p, b, sizeof p);
    } else {
        float v[4];
        if (!vals(a, 2, 4, false, v))
            return;
        for (int k = 0; k < 4; k++)
            p[k] = v[k];
    }
    if (pname == GL_OBJECT_PLANE)
        for (int k = 0; k < 4; k++)
            t->object_plane[coord][k] = (float)p[k];
    else
        sm_fixed_plane_to_eye(modelview(a), p, t->eye_plane[coord]);
}

void sm_register_fixed(sm_apply_fn *t)
{
    t[GLR_CMD_glLightf] = h_light;
    t[GLR_CMD_glLighti] = h_light;
    t[GLR_CMD_glLightfv] = h_light;
    t[GLR_CMD_glLightiv] = h_light;
    t[GLR_CMD_glMaterialf] = h_material;
    t[GLR_CMD_glMateriali] = h_material;
    t[GLR_CMD_glMaterialfv] = h_material;
    t[GLR_CMD_glMaterialiv] = h_material;
    t[GLR_CMD_glLightModelf] = h_light_model;
    t[GLR_CMD_glLightModeli] = h_light_model;
    t[GLR_CMD_glLightModelfv] = h_light_model;
    t[GLR_CMD_glLightModeliv] = h_light_model;
    t[GLR_CMD_glColorMaterial] = h_color_material;
    t[GLR_CMD_glFogf] = h_fog;
    t[GLR_CMD_glFogi] = h_fog;
    t[GLR_CMD_glFogfv] = h_fog;
    t[GLR_CMD_glFogiv] = h_fog;
    t[GLR_CMD_glAlphaFunc] = h_alpha_func;
    t[GLR_CMD_glShadeModel] = h_shade_model;
    t[GLR_CMD_glClampColor] = h_clamp_color;
    t[GLR_CMD_glClampColorARB] = h_clamp_color;
    t[GLR_CMD_glClipPlane] = h_clip_plane;
    t[GLR_CMD_glClipPlanef] = h_clip_plane;
    t[GLR_CMD_glTexEnvf] = h_tex_env;
    t[GLR_CMD_glTexEnvi] = h_tex_env;
    t[GLR_CMD_glTexEnvfv] = h_tex_env;
    t[GLR_CMD_glTexEnviv] = h_tex_env;
    t[GLR_CMD_glTexGenf] = h_tex_gen;
    t[GLR_CMD_glTexGeni] = h_tex_gen;
    t[GLR_CMD_glTexGend] = h_tex_gen;
    t[GLR_CMD_glTexGenfv] = h_tex_gen;
    t[GLR_CMD_glTexGeniv] = h_tex_gen;
    t[GLR_CMD_glTexGendv] = h_tex_gen;
    sm_register_legacy_client(t);
}
