/* Fixed-function stages of a draw: which source each stage of the draw's program takes (the
 * bound GLSL program's shader, an ARB assembly program, or generated fixed-function GLSL), the
 * state key of the generated stages built from the state model, the cache of generated programs
 * (one per key and GLSL program), and the per-draw state the compatibility profile adds: flat
 * shading of the colour varyings and the legacy alpha test, which llvmpipe applies to every
 * program in its fragment back end (in the colour buffer's precision for 8-bit formats). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "registry/glr_format_class.h"

typedef struct ff_entry {
    uint32_t share, program, link_count;   /* the GLSL program of mixed draws (0: none) */
    gm_ff_key key;
    gmf_prog *p;
    char *src[2];                          /* generated VS, FS text (NULL: the GLSL stage) */
    char name[2][48];
} ff_entry;

struct gmf_ff_cache {
    ff_entry *e;
    int n, cap;
    int *of_draw;                          /* entry per draw index (-1: none), for debuggers */
    uint64_t n_draws;
};

/* Remembers which entry draw `draw` ran (gmf_ff_of_draw). */
static void note_draw(struct gmf_ff_cache *fc, uint64_t draw, int entry)
{
    if (draw >= (1u << 26))
        return;
    if (draw >= fc->n_draws) {
        uint64_t n = fc->n_draws ? fc->n_draws : 64;
        while (n <= draw)
            n *= 2;
        int *nd = realloc(fc->of_draw, (size_t)n * sizeof *nd);
        if (!nd)
            return;
        for (uint64_t i = fc->n_draws; i < n; i++)
            nd[i] = -1;
        fc->of_draw = nd;
        fc->n_draws = n;
    }
    fc->of_draw[draw] = entry;
}

static bool on(const struct sm_context *c, uint32_t cap, uint32_t index)
{
    return sm_is_enabled(c, cap, index);
}

/* ------------------------------------------------------------------ GL state -> key */

static int gen_mode(uint32_t m)
{
    switch (m) {
    case GL_OBJECT_LINEAR: return GM_FF_GEN_OBJECT;
    case GL_EYE_LINEAR: return GM_FF_GEN_EYE;
    case GL_SPHERE_MAP: return GM_FF_GEN_SPHERE;
    case GL_REFLECTION_MAP: return GM_FF_GEN_REFLECTION;
    case GL_NORMAL_MAP: return GM_FF_GEN_NORMAL;
    default: return -1;
    }
}

static int combine_mode(uint32_t m)
{
    switch (m) {
    case GL_REPLACE: return GM_FF_CB_REPLACE;
    case GL_MODULATE: return GM_FF_CB_MODULATE;
    case GL_ADD: return GM_FF_CB_ADD;
    case GL_ADD_SIGNED: return GM_FF_CB_ADD_SIGNED;
    case GL_INTERPOLATE: return GM_FF_CB_INTERPOLATE;
    case GL_SUBTRACT: return GM_FF_CB_SUBTRACT;
    case GL_DOT3_RGB: return GM_FF_CB_DOT3_RGB;
    case GL_DOT3_RGBA: return GM_FF_CB_DOT3_RGBA;
    default: return -1;
    }
}

static int source(uint32_t s)
{
    switch (s) {
    case GL_TEXTURE: return GM_FF_SRC_TEXTURE;
    case GL_CONSTANT: return GM_FF_SRC_CONSTANT;
    case GL_PRIMARY_COLOR: return GM_FF_SRC_PRIMARY;
    case GL_PREVIOUS: return GM_FF_SRC_PREVIOUS;
    case GL_ZERO: return GM_FF_SRC_ZERO;
    case GL_ONE: return GM_FF_SRC_ONE;
    default:
        if (s >= GL_TEXTURE0 && s < GL_TEXTURE0 + GM_FF_UNITS)
            return GM_FF_SRC_TEXTURE0 + (int)(s - GL_TEXTURE0);
        return -1;
    }
}

static int operand(uint32_t o)
{
    switch (o) {
    case GL_SRC_COLOR: return GM_FF_OP_COLOR;
    case GL_ONE_MINUS_SRC_COLOR: return GM_FF_OP_ONE_MINUS_COLOR;
    case GL_SRC_ALPHA: return GM_FF_OP_ALPHA;
    case GL_ONE_MINUS_SRC_ALPHA: return GM_FF_OP_ONE_MINUS_ALPHA;
    default: return -1;
    }
}

/* Base format class of a texture image from its internal format's registry name: what the
 * classic environments see (GL 2.1 table 3.22); depth textures read as luminance (the
 * compatibility default of GL_DEPTH_TEXTURE_MODE). */
static int format_class(uint32_t internal_format)
{
    uint32_t f = gmf_legacy_internal_format(internal_format);
    if (!sm_enum_name(f))
        return GM_FF_FMT_RGBA;   /* no GL enum: nothing to go by */
    switch (glr_format_class(f)) {   /* generated from gl_annotations.txt's format_class lines */
    case GLR_FORMAT_CLASS_INTENSITY: return GM_FF_FMT_INTENSITY;
    case GLR_FORMAT_CLASS_ALPHA: return GM_FF_FMT_ALPHA;
    case GLR_FORMAT_CLASS_RGBA: return GM_FF_FMT_RGBA;
    case GLR_FORMAT_CLASS_RGB: break;
    case GLR_FORMAT_CLASS_DEPTH: break;   /* as RGB until the caller applies GL_DEPTH_TEXTURE_MODE */
    }
    return GM_FF_FMT_RGB;   /* RGB, luminance, red/green, depth */
}

/* Mipmap completeness from the state model (GL 2.1 section 3.8.10): the base level is defined
 * and, with a mipmapping minification filter, every level down to 1x1 (or max_level). Faces of
 * a cube map are checked on face 0 (their sizes are equal when the texture is complete). */
static bool complete(const struct sm_texture *t, const struct sm_sampling *s)
{
    int base = t->params.base_level;
    if (base < 0 || base >= SM_MAX_LEVELS || !t->image[0][base].defined)
        return false;
    if (s->min_filter == GL_NEAREST || s->min_filter == GL_LINEAR)
        return true;
    int w = t->image[0][base].width, h = t->image[0][base].height, d = t->image[0][base].depth;
    int last = base;
    while (w > 1 || h > 1 || d > 1) {
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        d = d > 1 ? d / 2 : 1;
        last++;
    }
    if (last > t->params.max_level)
        last = t->params.max_level;
    for (int l = base; l <= last && l < SM_MAX_LEVELS; l++)
        if (!t->image[0][l].defined)
            return false;
    return true;
}

/* The texture a unit's fixed-function texturing uses: the enabled target of highest priority
 * (cube, 3D, rectangle, 2D, 1D) whose texture is complete, as Mesa's texstate.c picks it;
 * GM_FF_TEX_NONE when none. */
static int unit_target(const struct sm_context *c, uint32_t u, gm_ff_unit_key *uk)
{
    static const struct { uint32_t cap; int tt; int key; } order[] = {
        { GL_TEXTURE_CUBE_MAP, SM_TT_CUBE_MAP, GM_FF_TEX_CUBE },
        { GL_TEXTURE_3D, SM_TT_3D, GM_FF_TEX_3D },
        { GL_TEXTURE_RECTANGLE, SM_TT_RECTANGLE, GM_FF_TEX_RECT },
        { GL_TEXTURE_2D, SM_TT_2D, GM_FF_TEX_2D },
        { GL_TEXTURE_1D, SM_TT_1D, GM_FF_TEX_1D },
    };
    const struct sm_context_state *st = sm_context_state(c);
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (!on(c, order[i].cap, u))
            continue;
        const struct sm_texture *t = sm_get_texture(c, sm_texture_key(st->unit[u].bound[order[i].tt], order[i].tt));
        if (!t)
            continue;
        const struct sm_sampler *so = st->unit[u].sampler ? sm_get_sampler(c, st->unit[u].sampler) : NULL;
        if (!complete(t, so ? &so->params : &t->params))
            continue;
        int base = t->params.base_level >= 0 && t->params.base_level < SM_MAX_LEVELS ? t->params.base_level : 0;
        uint32_t ifmt = t->image[0][base].internal_format;
        uk->format = (uint8_t)format_class(ifmt);
        uint32_t cmp = so ? so->params.compare_mode : t->params.compare_mode;
        uk->depth = glr_format_class(ifmt) == GLR_FORMAT_CLASS_DEPTH;
        /* a depth texture's base format for the environment is its GL_DEPTH_TEXTURE_MODE
         * (Mesa's texenvprogram; luminance by default): with GL_INTENSITY the texture's alpha
         * is the depth too (piglit fbo-alphatest-nocolor-ff) */
        if (uk->depth)
            uk->format = (uint8_t)format_class(t->params.depth_texture_mode ? t->params.depth_texture_mode
                                                                              : GL_LUMINANCE);
        uk->shadow = cmp == GL_COMPARE_REF_TO_TEXTURE && uk->depth &&
                     order[i].key != GM_FF_TEX_3D && order[i].key != GM_FF_TEX_CUBE;
        return order[i].key;
    }
    return GM_FF_TEX_NONE;
}

static void vertex_key(const struct sm_context *c, bool fs_fixed, gm_ff_key *k, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_fixed_state *ff = &st->ff;
    k->lighting = on(c, GL_LIGHTING, 0);
    if (k->lighting) {
        k->two_side = ff->two_side;
        k->local_viewer = ff->local_viewer;
        k->separate_specular = ff->color_control == GL_SEPARATE_SPECULAR_COLOR;
        /* Mesa's check_active_shininess: the front's, or with two-sided lighting the back's */
        k->shininess_zero = ff->material[0].shininess == 0.0f &&
                            !(k->two_side && ff->material[1].shininess != 0.0f);
        for (int i = 0; i < GM_FF_LIGHTS; i++) {
            const struct sm_ff_light *l = &ff->light[i];
            gm_ff_light_key *lk = &k->light[i];
            lk->enabled = on(c, GL_LIGHT0 + (uint32_t)i, 0);
            if (!lk->enabled)
                continue;
            lk->positional = l->position[3] != 0.0f;
            lk->spot = l->spot_cutoff != 180.0f;
            lk->attenuated = l->attenuation[0] != 1.0f || l->attenuation[1] != 0.0f ||
                             l->attenuation[2] != 0.0f;
        }
        if (on(c, GL_COLOR_MATERIAL, 0)) {
            uint32_t m = ff->color_material_mode, f = ff->color_material_face;
            uint8_t bits = m == GL_EMISSION ? GM_FF_CM_EMISSION : m == GL_AMBIENT ? GM_FF_CM_AMBIENT
                           : m == GL_DIFFUSE ? GM_FF_CM_DIFFUSE : m == GL_SPECULAR ? GM_FF_CM_SPECULAR
                           : GM_FF_CM_AMBIENT | GM_FF_CM_DIFFUSE;
            if (f == GL_FRONT || f == GL_FRONT_AND_BACK)
                k->color_material[0] = bits;
            if (f == GL_BACK || f == GL_FRONT_AND_BACK)
                k->color_material[1] = bits;
        }
    }
    k->normalize = on(c, GL_NORMALIZE, 0);
    k->rescale = on(c, GL_RESCALE_NORMAL, 0);
    k->fog_from_coord = ff->fog_coord_src == GL_FOG_COORD;
    k->fog_distance = ff->fog_distance_mode == GL_EYE_RADIAL_NV ? GM_FF_FOGDIST_RADIAL
                      : ff->fog_distance_mode == GL_EYE_PLANE ? GM_FF_FOGDIST_PLANE
                                                               : GM_FF_FOGDIST_PLANE_ABS;
    for (int i = 0; i < GM_FF_CLIP_PLANES; i++)
        if (on(c, GL_CLIP_PLANE0 + (uint32_t)i, 0))
            k->clip_planes |= (uint8_t)(1u << i);
    k->point_attenuated = ff->point_attenuation[0] != 1.0f || ff->point_attenuation[1] != 0.0f ||
                          ff->point_attenuation[2] != 0.0f;
    /* Without a generated fragment stage the GLSL fragment shader may read any of them. */
    k->secondary_out = !fs_fixed || on(c, GL_COLOR_SUM, 0);
    for (int u = 0; u < GM_FF_UNITS; u++) {
        gm_ff_unit_key *uk = &k->unit[u];
        uk->texcoord_out = !fs_fixed || uk->target != GM_FF_TEX_NONE;
        if (!uk->texcoord_out)
            continue;
        for (int cc = 0; cc < 4; cc++) {
            if (!on(c, GL_TEXTURE_GEN_S + (uint32_t)cc, (uint32_t)u))
                continue;
            int m = gen_mode(ff->unit[u].gen_mode[cc]);
            if (m < 0)
                gmf_note(ev, "texture coordinate generation mode 0x%04x", ff->unit[u].gen_mode[cc]);
            uk->gen_mode[cc] = (uint8_t)(m < 0 ? GM_FF_GEN_NONE : m);
        }
    }
}

static void fragment_key(const struct sm_context *c, uint32_t mode, gm_ff_key *k,
                         gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_fixed_state *ff = &st->ff;
    bool sprite = on(c, GL_POINT_SPRITE, 0);
    /* points are also what polygons become in polygon mode GL_POINT (both faces): llvmpipe
     * replaces their texture coordinates too (piglit arb_point_sprite-mipmap) */
    bool polygonal = mode != GL_POINTS && mode != GL_LINES && mode != GL_LINE_STRIP && mode != GL_LINE_LOOP &&
                     mode != GL_LINES_ADJACENCY && mode != GL_LINE_STRIP_ADJACENCY;
    bool as_points = mode == GL_POINTS ||
                     (polygonal && st->polygon_mode[0] == GL_POINT && st->polygon_mode[1] == GL_POINT);
    for (int u = 0; u < GM_FF_UNITS; u++) {
        gm_ff_unit_key *uk = &k->unit[u];
        const struct sm_ff_unit *fu = &ff->unit[u];
        uk->target = (uint8_t)unit_target(c, (uint32_t)u, uk);
        if (uk->target == GM_FF_TEX_NONE)
            continue;
        uk->coord_replace = sprite && fu->coord_replace;
        k->points |= uk->coord_replace && as_points;
        switch (fu->env_mode) {
        case GL_MODULATE: uk->env = GM_FF_ENV_MODULATE; break;
        case GL_REPLACE: uk->env = GM_FF_ENV_REPLACE; break;
        case GL_DECAL: uk->env = GM_FF_ENV_DECAL; break;
        case GL_BLEND: uk->env = GM_FF_ENV_BLEND; break;
        case GL_ADD: uk->env = GM_FF_ENV_ADD; break;
        case GL_COMBINE: case GL_COMBINE4_NV: uk->env = GM_FF_ENV_COMBINE; break;
        default:
            gmf_note(ev, "texture environment mode 0x%04x", fu->env_mode);
            uk->env = GM_FF_ENV_MODULATE;
        }
        if (uk->env != GM_FF_ENV_COMBINE)
            continue;
        int cr = combine_mode(fu->combine_rgb), ca = combine_mode(fu->combine_alpha);
        if (cr < 0 || ca < 0 || ca == GM_FF_CB_DOT3_RGB || ca == GM_FF_CB_DOT3_RGBA)
            gmf_note(ev, "texture combiner function 0x%04x", cr < 0 ? fu->combine_rgb : fu->combine_alpha);
        bool dot3_a = ca == GM_FF_CB_DOT3_RGB || ca == GM_FF_CB_DOT3_RGBA;
        uk->combine_rgb = (uint8_t)(cr < 0 ? GM_FF_CB_MODULATE : cr);
        uk->combine_alpha = (uint8_t)(ca < 0 || dot3_a ? GM_FF_CB_MODULATE : ca);
        /* GL_COMBINE4_NV: GL_ADD and GL_ADD_SIGNED take four arguments (Mesa's translate_mode:
         * MODE_ADD_PRODUCTS(_SIGNED)_NV); the other functions are GL_COMBINE's */
        if (fu->env_mode == GL_COMBINE4_NV)
            for (int i = 0; i < 2; i++) {
                uint8_t *m = i ? &uk->combine_alpha : &uk->combine_rgb;
                if (*m == GM_FF_CB_ADD)
                    *m = GM_FF_CB_ADD_PRODUCTS;
                else if (*m == GM_FF_CB_ADD_SIGNED)
                    *m = GM_FF_CB_ADD_PRODUCTS_SIGNED;
            }
        for (int i = 0; i < 4; i++) {
            if (i == 3 && uk->combine_rgb < GM_FF_CB_ADD_PRODUCTS && uk->combine_alpha < GM_FF_CB_ADD_PRODUCTS)
                break;   /* the fourth argument only exists for the sums of products */
            int sr = source(fu->src_rgb[i]), sa = source(fu->src_alpha[i]);
            int orr = operand(fu->op_rgb[i]), oa = operand(fu->op_alpha[i]);
            if (sr < 0 || sa < 0 || orr < 0 || oa < 0 || oa < GM_FF_OP_ALPHA)
                gmf_note(ev, "texture combiner source or operand of unit %d", u);
            uk->src_rgb[i] = (uint8_t)(sr < 0 ? GM_FF_SRC_PREVIOUS : sr);
            uk->src_alpha[i] = (uint8_t)(sa < 0 ? GM_FF_SRC_PREVIOUS : sa);
            uk->op_rgb[i] = (uint8_t)(orr < 0 ? GM_FF_OP_COLOR : orr);
            uk->op_alpha[i] = (uint8_t)(oa < GM_FF_OP_ALPHA ? GM_FF_OP_ALPHA : oa);
        }
        uk->scaled = fu->rgb_scale != 1.0f || fu->alpha_scale != 1.0f;
    }
    k->color_sum = on(c, GL_COLOR_SUM, 0);
    if (on(c, GL_FOG, 0))
        k->fog = ff->fog_mode == GL_LINEAR ? GM_FF_FOG_LINEAR : ff->fog_mode == GL_EXP2 ? GM_FF_FOG_EXP2
                 : GM_FF_FOG_EXP;
}

/* ------------------------------------------------------------------ the cache */

static void entry_free(ff_entry *e)
{
    gmf_prog_free(e->p);
    free(e->src[0]);
    free(e->src[1]);
}

void gmf_ff_free(gmf_runner *r)
{
    struct gmf_ff_cache *fc = r->ffc;
    if (!fc)
        return;
    for (int i = 0; i < fc->n; i++)
        entry_free(&fc->e[i]);
    free(fc->e);
    free(fc->of_draw);
    free(fc);
    r->ffc = NULL;
}

/* The GLSL stages sp links (bit 0 vertex, 1 fragment, 2 geometry or tessellation, 3 others:
 * compute). Tessellation stages, like a geometry shader, take a fixed-function fragment stage. */
static unsigned glsl_stages(const struct sm_program *sp)
{
    unsigned m = 0;
    for (uint32_t i = 0; sp && i < sp->n_linked; i++) {
        uint32_t t = sp->linked[i].type;
        m |= t == GL_VERTEX_SHADER ? 1u : t == GL_FRAGMENT_SHADER ? 2u
             : t == GL_GEOMETRY_SHADER || t == GL_TESS_CONTROL_SHADER || t == GL_TESS_EVALUATION_SHADER ? 4u
             : 8u;
    }
    return m;
}

static gmf_prog *build(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                       ff_entry *e, bool vs_fixed, bool fs_fixed, int serial)
{
    gm_shader_source src[GM_STAGE_COUNT];
    char glsl_names[GM_STAGE_COUNT][48];
    int n = 0;
    if (vs_fixed) {
        e->src[0] = gm_ff_vertex_source(&e->key);
        snprintf(e->name[0], sizeof e->name[0], "fixed-function vs #%d", serial);
        if (!e->src[0])
            return NULL;
        src[n++] = (gm_shader_source){ GM_STAGE_VERTEX, e->src[0], e->name[0] };
    }
    for (uint32_t i = 0; sp && i < sp->n_linked && n < GM_STAGE_COUNT - 1; i++) {
        uint32_t t = sp->linked[i].type;
        gm_stage stg = t == GL_VERTEX_SHADER ? GM_STAGE_VERTEX : t == GL_FRAGMENT_SHADER ? GM_STAGE_FRAGMENT
                       : t == GL_TESS_CONTROL_SHADER ? GM_STAGE_TESS_CONTROL
                       : t == GL_TESS_EVALUATION_SHADER ? GM_STAGE_TESS_EVALUATION : GM_STAGE_GEOMETRY;
        snprintf(glsl_names[n], sizeof glsl_names[n], "program%u.%s", sp->name,
                 stg == GM_STAGE_VERTEX ? "vert" : stg == GM_STAGE_GEOMETRY ? "geom"
                 : stg == GM_STAGE_TESS_CONTROL ? "tesc" : stg == GM_STAGE_TESS_EVALUATION ? "tese" : "frag");
        src[n] = (gm_shader_source){ stg, sp->linked[i].source ? sp->linked[i].source : "", glsl_names[n] };
        n++;
    }
    if (fs_fixed) {
        e->src[1] = gm_ff_fragment_source(&e->key);
        snprintf(e->name[1], sizeof e->name[1], "fixed-function fs #%d", serial);
        if (!e->src[1])
            return NULL;
        src[n++] = (gm_shader_source){ GM_STAGE_FRAGMENT, e->src[1], e->name[1] };
    }
    char label[64];
    if (sp)
        snprintf(label, sizeof label, "program %u with fixed-function stages #%d", sp->name, serial);
    else
        snprintf(label, sizeof label, "fixed-function program #%d", serial);
    gmf_prog *p = gmf_prog_from_sources(r, c, sp, src, n, label);
    if (p) {
        p->ff_vs = vs_fixed;
        p->ff_fs = fs_fixed;
        p->ff_point_size = vs_fixed && e->key.point_attenuated;
    }
    return p;
}

static bool ident_char(char ch)
{
    return ch == '_' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* Whether the source of a stage names a built-in output: the name as a whole identifier outside
 * comments (a comment that mentions gl_FrontColor, or an identifier such as my_gl_FrontColor, does
 * not count). Code in inactive #if blocks still counts: Mesa asks the linked shader's outputs,
 * which this text test approximates. */
static bool writes_builtin(const char *src, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = src; p && *p;) {
        if (p[0] == '/' && p[1] == '/') {
            p = strchr(p, '\n');
        } else if (p[0] == '/' && p[1] == '*') {
            p = strstr(p + 2, "*/");
            p = p ? p + 2 : NULL;
        } else if (ident_char(*p)) {
            const char *start = p;
            while (ident_char(*p))
                p++;
            if ((size_t)(p - start) == n && !memcmp(start, name, n))
                return true;
        } else {
            p++;
        }
    }
    return false;
}

/* Mesa's filter_fp_input_mask (texenvprogram.c): the fixed-function fragment program reads
 * the primary (secondary) colour from the vertex stage only when that stage can produce it:
 * a GLSL vertex stage that writes gl_FrontColor (gl_FrontSecondaryColor); the fixed-function
 * one with lighting (and, for the secondary, a separate specular colour), or when the colour
 * varies: its array enabled, or in a glBegin/glEnd the colour in Mesa's vertex format
 * (gmf_vbo_format.c). Otherwise it reads the current colour (key.color_current). */
static void current_colors(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                           bool vs_fixed, gm_ff_key *key)
{
    bool col0 = true, col1 = true;
    if (!vs_fixed) {
        /* the last stage before the rasterizer */
        const char *src = NULL;
        int rank = -1;
        for (uint32_t i = 0; sp && i < sp->n_linked; i++) {
            uint32_t t = sp->linked[i].type;
            int rk = t == GL_GEOMETRY_SHADER ? 3 : t == GL_TESS_EVALUATION_SHADER ? 2 : t == GL_VERTEX_SHADER ? 1 : -1;
            if (rk > rank)
                rank = rk, src = sp->linked[i].source;
        }
        if (!src)
            return;
        col0 = writes_builtin(src, "gl_FrontColor");
        col1 = writes_builtin(src, "gl_FrontSecondaryColor");
    } else if (!on(c, GL_VERTEX_PROGRAM_ARB, 0)) {
        const struct sm_context_state *st = sm_context_state(c);
        const struct sm_vao *vao = sm_get_vao(c, st->vao);
        bool imm = gmf_imm_drawing(r);
        uint32_t ctx = sm_context_id(c);
        bool v0 = imm ? gmf_vbo_format_varies(r, ctx, SM_LA_COLOR) : !vao || vao->legacy[SM_LA_COLOR].enabled;
        bool v1 = imm ? gmf_vbo_format_varies(r, ctx, SM_LA_SECONDARY_COLOR)
                      : !vao || vao->legacy[SM_LA_SECONDARY_COLOR].enabled;
        col0 = key->lighting || v0;
        col1 = key->lighting || v1;
    }
    key->color_current = !col0 && !(key->lighting && key->two_side);
    key->secondary_current = !col1 && (key->color_sum || key->separate_specular);
}

gmf_prog *gmf_draw_program(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                           const struct glr_call *call, uint32_t cmd, gmf_event *ev)
{
    unsigned stages = glsl_stages(sp);
    if (sp && (!sp->link_count || (stages & 8u) || (!stages && sp->binary)))
        return gmf_prog_get(r, c, sp);   /* never linked, compute, a binary without sources: its error */
    /* SPIR-V modules pair with no generated GLSL stage: a program without a fragment module
     * runs without one, as in the core profile (gmf_spirv.c). */
    if (sp && gmf_spirv_program(sp))
        return gmf_prog_get(r, c, sp);
    /* A program linked with no shader at all draws with both fixed stages (GL 2.0 section 2.15). */
    /* Per stage: the GLSL program's shader, else an ARB assembly program, else fixed function.
     * [ARB program hook: an enabled GL_VERTEX_PROGRAM_ARB / GL_FRAGMENT_PROGRAM_ARB supplies
     *  its stage here (gpu_model/frame, ARB front end); until then such draws use the
     *  fixed-function stage and are reported below.] */
    bool vs_fixed = !(stages & 1u), fs_fixed = !(stages & 2u);
    if (on(c, GL_VERTEX_PROGRAM_ARB, 0) && vs_fixed)
        gmf_note(ev, "GL_ARB_vertex_program (not modelled; fixed-function vertex stage used)");
    if (on(c, GL_FRAGMENT_PROGRAM_ARB, 0) && fs_fixed)
        gmf_note(ev, "GL_ARB_fragment_program (not modelled; fixed-function fragment stage used)");
    if (!vs_fixed && !fs_fixed)
        return gmf_prog_get(r, c, sp);
    uint32_t k = sm_cmd_canonical(cmd);
    int pm = gmf_cmd_param(k, GLR_ROLE_mode);
    uint32_t mode = pm >= 0 ? (uint32_t)call->args[pm] : GL_TRIANGLES;
    gm_ff_key key;
    memset(&key, 0, sizeof key);
    if (fs_fixed)
        fragment_key(c, mode, &key, ev);
    if (vs_fixed)
        vertex_key(c, fs_fixed, &key, ev);
    if (!fs_fixed) {   /* only the vertex stage is generated: the fragment fields do not matter */
        for (int u = 0; u < GM_FF_UNITS; u++) {
            gm_ff_unit_key *uk = &key.unit[u];
            gm_ff_unit_key keep = { .texcoord_out = uk->texcoord_out };
            memcpy(keep.gen_mode, uk->gen_mode, sizeof keep.gen_mode);
            *uk = keep;
        }
        key.color_sum = key.fog = key.points = 0;
    }
    if (!vs_fixed) {   /* only the fragment stage: the vertex fields do not matter */
        gm_ff_key fk;
        memset(&fk, 0, sizeof fk);
        for (int u = 0; u < GM_FF_UNITS; u++) {
            fk.unit[u] = key.unit[u];
            memset(fk.unit[u].gen_mode, 0, sizeof fk.unit[u].gen_mode);
            fk.unit[u].texcoord_out = 0;
        }
        fk.color_sum = key.color_sum;
        fk.fog = key.fog;
        fk.points = key.points;
        key = fk;
    }
    if (vs_fixed && key.lighting) {   /* glMaterial per vertex (gmf_immediate.c) */
        key.vertex_material[0] = (uint8_t)(gmf_imm_vertex_material(r, 0) & ~key.color_material[0]);
        if (key.two_side)
            key.vertex_material[1] = (uint8_t)(gmf_imm_vertex_material(r, 1) & ~key.color_material[1]);
        /* a shininess given per vertex is never taken for zero (Mesa's check_active_shininess) */
        if ((key.vertex_material[0] | key.vertex_material[1]) & GM_FF_VM_SHININESS)
            key.shininess_zero = 0;
    }
    if (fs_fixed && !gmf_pix_kind(r))
        current_colors(r, c, sp, vs_fixed, &key);
    if (gmf_pix_kind(r) && vs_fixed && fs_fixed) {
        /* a pixel rectangle (gmf_rasterpix.c): a pass-through vertex stage, the fragment
         * stage of the state with the image or bitmap as its primary colour */
        gm_ff_key pk;
        memset(&pk, 0, sizeof pk);
        for (int u = 0; u < GM_FF_UNITS; u++) {
            pk.unit[u] = key.unit[u];
            memset(pk.unit[u].gen_mode, 0, sizeof pk.unit[u].gen_mode);
            pk.unit[u].texcoord_out = key.unit[u].target != GM_FF_TEX_NONE;
        }
        pk.separate_specular = key.separate_specular;
        pk.color_sum = key.color_sum;
        pk.secondary_out = key.separate_specular || key.color_sum;
        pk.fog = key.fog;
        pk.pixel_rect = (uint8_t)gmf_pix_kind(r);
        if (pk.pixel_rect == GM_FF_PIXEL_DEPTH) {   /* Mesa's depth program: no environments */
            memset(&pk, 0, sizeof pk);
            pk.pixel_rect = GM_FF_PIXEL_DEPTH;
        }
        key = pk;
    }
    uint32_t share = sm_context_share_id(c);
    if (!r->ffc && !(r->ffc = calloc(1, sizeof *r->ffc)))
        return NULL;
    struct gmf_ff_cache *fc = r->ffc;
    uint32_t pname = sp ? sp->name : 0, plink = sp ? sp->link_count : 0;
    for (int i = 0; i < fc->n; i++) {
        ff_entry *e = &fc->e[i];
        if (e->share == share && e->program == pname && e->link_count == plink &&
            !memcmp(&e->key, &key, sizeof key)) {
            note_draw(fc, ev->draw, i);
            return e->p;
        }
    }
    if (fc->n == fc->cap) {
        int cap = fc->cap ? 2 * fc->cap : 8;
        ff_entry *ne = realloc(fc->e, (size_t)cap * sizeof *ne);
        if (!ne)
            return NULL;
        fc->e = ne;
        fc->cap = cap;
    }
    ff_entry *e = &fc->e[fc->n];
    memset(e, 0, sizeof *e);
    e->share = share;
    e->program = pname;
    e->link_count = plink;
    e->key = key;
    e->p = build(r, c, sp, e, vs_fixed, fs_fixed, fc->n);
    if (!e->p) {
        entry_free(e);
        return NULL;
    }
    note_draw(fc, ev->draw, fc->n);
    fc->n++;
    return e->p;
}

/* ------------------------------------------------------------------ per draw */

/* Is an FS input one of the colour varyings glShadeModel acts on? */
static bool color_varying(const char *name)
{
    return name && (!strcmp(name, "glr_FrontColor") || !strcmp(name, "glr_FrontSecondaryColor") ||
                    !strcmp(name, "glr_gs_FrontColor") || !strcmp(name, "glr_gs_FrontSecondaryColor") ||
                    !strcmp(name, "glr_tes_FrontColor") || !strcmp(name, "glr_tes_FrontSecondaryColor") ||
                    !strncmp(name, "ff_back_color", 13));
}

void gmf_ff_draw_state(gmf_draw_ctx *d)
{
    gmf_prog *p = d->p;
    const struct sm_context *c = d->c;
    int major, minor;
    if (sm_context_api(c, &major, &minor) != SM_API_GL_COMPAT)
        return;
    const struct sm_fixed_state *ff = &d->st->ff;
    /* glShadeModel(GL_FLAT) makes the colour varyings flat, for GLSL programs too (llvmpipe's
     * flatshade applies to colour inputs). */
    if (p->fs) {
        for (int i = 0; i < p->n_fs_in; i++) {
            const gmf_chunk *ch = &p->fs_in[i];
            const gm_var_info *vi = gm_program_var(p->fs, ch->var);
            if (ch->location < 0 || ch->location >= GM_PIPE_MAX_VARYINGS || !vi || !color_varying(vi->name) ||
                vi->flat)
                continue;
            p->info.interp[ch->location] = ff->shade_model == GL_FLAT ? GM_INTERP_FLAT : GM_INTERP_SMOOTH;
        }
    }
    /* The generated vertex stage writes the attenuated point size. */
    if (p->ff_point_size)
        d->r->pipe.state.program_point_size = true;
    /* Legacy alpha test (every program: Mesa keeps it for GLSL programs in compatibility
     * contexts, and llvmpipe runs it in its fragment back end). */
    d->alpha_test = on(c, GL_ALPHA_TEST, 0) && ff->alpha_func != GL_ALWAYS && p->fs_writes_alpha0;
    /* the test discards: the pipeline must run the shader before depth and not skip it */
    if (p->fs)
        p->info.fs_may_discard = d->alpha_test || gm_program_uses_discard(p->fs) != 0;
    d->alpha_func = ff->alpha_func;
    d->alpha_ref = ff->alpha_ref;
    const gm_surface *rt0 = d->r->pipe.fb.color[0];
    d->alpha_unorm8 = rt0 && (rt0->format == GM_FMT_RGBA8 || rt0->format == GM_FMT_BGRA8 ||
                              rt0->format == GM_FMT_SRGB8_A8 || rt0->format == GM_FMT_RGB8);
    /* GL_CLAMP_VERTEX_COLOR (TRUE by default): llvmpipe's draw module clamps the vertex
     * shader's colour outputs to [0, 1] before clipping and interpolation; FIXED_ONLY clamps
     * for a fixed-point colour buffer (Mesa's _mesa_get_clamp_vertex_color). */
    const gm_format_info *fi = rt0 ? gm_format_get(rt0->format) : NULL;
    d->clamp_vertex_color = ff->clamp_vertex_color == GL_TRUE ||
                            (ff->clamp_vertex_color == GL_FIXED_ONLY && fi && fi->kind == GM_KIND_UNORM);
}




/* ------------------------------------------------------------------ for debuggers */

void gmf_set_programs_only(gmf_runner *r, bool on)
{
    r->programs_only = on;
}

bool gmf_ff_source_get(const gmf_runner *r, int i, gmf_ff_source *out)
{
    const struct gmf_ff_cache *fc = r->ffc;
    if (!fc || i < 0 || i >= fc->n)
        return false;
    const ff_entry *e = &fc->e[i];
    for (int s = 0; s < 2; s++) {
        out->name[s] = e->src[s] ? e->name[s] : NULL;
        out->text[s] = e->src[s];
    }
    out->program = e->program;
    out->share = e->share;
    return true;
}

int gmf_ff_of_draw(const gmf_runner *r, uint64_t draw)
{
    const struct gmf_ff_cache *fc = r->ffc;
    return fc && draw < fc->n_draws ? fc->of_draw[draw] : -1;
}
