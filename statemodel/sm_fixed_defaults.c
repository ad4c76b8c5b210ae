/* GL's initial fixed-function state. sm_state.c (a new context) and sm_serialize.c (a loaded
 * one) start from it, so it sits below them and below sm_apply_fixed.c, which changes it. */
#include <string.h>
#include "statemodel/sm_apply.h"

static void set4(float *d, float x, float y, float z, float w)
{
    d[0] = x;
    d[1] = y;
    d[2] = z;
    d[3] = w;
}

void sm_fixed_defaults(struct sm_fixed_state *ff)
{
    memset(ff, 0, sizeof *ff);
    /* GL 2.1 tables 6.9 to 6.12 */
    for (int i = 0; i < SM_MAX_LIGHTS; i++) {
        struct sm_ff_light *l = &ff->light[i];
        set4(l->ambient, 0, 0, 0, 1);
        float d = i == 0 ? 1.0f : 0.0f;
        set4(l->diffuse, d, d, d, 1);
        set4(l->specular, d, d, d, 1);
        set4(l->position, 0, 0, 1, 0);
        l->spot_direction[2] = -1.0f;
        l->spot_cutoff = 180.0f;
        l->attenuation[0] = 1.0f;
    }
    for (int f = 0; f < 2; f++) {
        struct sm_ff_material *m = &ff->material[f];
        set4(m->ambient, 0.2f, 0.2f, 0.2f, 1);
        set4(m->diffuse, 0.8f, 0.8f, 0.8f, 1);
        set4(m->specular, 0, 0, 0, 1);
        set4(m->emission, 0, 0, 0, 1);
        m->color_indexes[1] = m->color_indexes[2] = 1.0f;
    }
    set4(ff->light_model_ambient, 0.2f, 0.2f, 0.2f, 1);
    ff->color_control = GL_SINGLE_COLOR;
    ff->color_material_face = GL_FRONT_AND_BACK;
    ff->color_material_mode = GL_AMBIENT_AND_DIFFUSE;
    ff->fog_mode = GL_EXP;
    ff->fog_coord_src = GL_FRAGMENT_DEPTH;
    ff->fog_distance_mode = GL_EYE_PLANE_ABSOLUTE_NV;
    ff->fog_density = 1.0f;
    ff->fog_end = 1.0f;
    ff->alpha_func = GL_ALWAYS;
    ff->shade_model = GL_SMOOTH;
    ff->clamp_vertex_color = GL_TRUE;
    ff->point_size_max = 255.0f;   /* llvmpipe's GL_ALIASED_POINT_SIZE_RANGE max, the GL default */
    ff->point_fade_threshold = 1.0f;
    ff->point_attenuation[0] = 1.0f;
    for (int u = 0; u < SM_FF_UNITS; u++) {
        struct sm_ff_unit *t = &ff->unit[u];
        t->env_mode = GL_MODULATE;
        t->combine_rgb = t->combine_alpha = GL_MODULATE;
        t->src_rgb[0] = t->src_alpha[0] = GL_TEXTURE;
        t->src_rgb[1] = t->src_alpha[1] = GL_PREVIOUS;
        t->src_rgb[2] = t->src_alpha[2] = GL_CONSTANT;
        t->src_rgb[3] = t->src_alpha[3] = GL_CONSTANT;   /* Mesa's default_combine_state */
        t->op_rgb[0] = t->op_rgb[1] = GL_SRC_COLOR;
        t->op_rgb[2] = t->op_rgb[3] = GL_SRC_ALPHA;
        t->op_alpha[0] = t->op_alpha[1] = t->op_alpha[2] = t->op_alpha[3] = GL_SRC_ALPHA;
        t->rgb_scale = t->alpha_scale = 1.0f;
        for (int c = 0; c < 4; c++)
            t->gen_mode[c] = GL_EYE_LINEAR;
        t->object_plane[0][0] = t->eye_plane[0][0] = 1.0f;
        t->object_plane[1][1] = t->eye_plane[1][1] = 1.0f;
    }
    /* GL 2.1 tables 6.5 (raster position) and 6.17 (pixel transfer) */
    struct sm_ff_raster *rp = &ff->raster;
    set4(rp->pos, 0, 0, 0, 1);
    rp->valid = true;
    set4(rp->color, 1, 1, 1, 1);
    set4(rp->secondary, 0, 0, 0, 1);
    for (int u = 0; u < SM_FF_UNITS; u++)
        set4(rp->texcoord[u], 0, 0, 0, 1);
    ff->pixel_zoom[0] = ff->pixel_zoom[1] = 1.0f;
    set4(ff->pixel_scale, 1, 1, 1, 1);
    ff->depth_scale = 1.0f;
    for (int m = 0; m < SM_PIXEL_MAPS; m++)
        ff->pixel_map[m].size = 1;   /* GL 2.1 table 6.18: one entry, 0 */
}
