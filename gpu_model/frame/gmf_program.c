/* Program cache of the frame runner: the shaders of a linked program compiled by the GLSL
 * front end (once per link), their interface turned into tables the shading callbacks use
 * (attributes, varyings by location, built-ins, outputs), and uniform values copied from
 * the state model by name (the driver's locations are known only through the names the
 * program asked for with glGetUniformLocation). */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"

enum { BI_POSITION = 0, BI_POINT_SIZE = 1, BI_CLIP_DISTANCE = 3, BI_CULL_DISTANCE = 4, BI_PRIMITIVE_ID = 7,
       BI_LAYER = 9, BI_VIEWPORT_INDEX = 10, BI_VERTEX_ID = 5, BI_INSTANCE_ID = 6, BI_FRAG_COORD = 15, BI_POINT_COORD = 16,
       BI_FRONT_FACING = 17, BI_SAMPLE_ID = 18, BI_SAMPLE_POSITION = 19, BI_SAMPLE_MASK = 20,
       BI_FRAG_DEPTH = 22, BI_VERTEX_INDEX = 42, BI_INSTANCE_INDEX = 43,
       BI_BASE_VERTEX = 4424, BI_BASE_INSTANCE = 4425, BI_DRAW_INDEX = 4426 };

void gmf_prog_free(gmf_prog *p)
{
    if (!p)
        return;
    gm_warp_destroy(p->vw);
    gm_warp_destroy(p->fw);
    for (int k = 1; k < p->n_cs_pool; k++)   /* [0] is vw */
        gm_warp_destroy(p->cs_pool[k]);
    free(p->cs_pool);
    gm_program_destroy(p->cs);
    for (int s = 0; s < 2; s++) {
        for (int k = 0; k < p->n_pool[s]; k++)
            gm_warp_destroy(p->pool[s][k]);
        free(p->pool[s]);
    }
    gm_program_destroy(p->vs);
    gm_program_destroy(p->fs);
    gmf_gs_free(p);
    gmf_tess_free(p);
    gm_compile_result_free(&p->cr);
    free(p);
}



static void build_blocks(gmf_prog *p, int stage, const gm_program *gp);
static void init_opaque(gm_program *gp, const char *source, bool spirv);

/* "program N does not compile in the model: " and glslang's log on one line (the log's lines
 * joined by spaces): the first line alone ("fragment shader failed to compile:") says nothing. */
static void compile_error(gmf_prog *p, const char *label)
{
    const char *log = p->cr.log ? p->cr.log : "";
    int n = snprintf(p->error, sizeof p->error, "%s does not compile in the model: ", label);
    size_t at = n > 0 ? (size_t)n : 0;
    for (const char *c = log; *c && at + 1 < sizeof p->error; c++) {
        if (*c == '\n' && (!c[1] || at == 0 || p->error[at - 1] == ' '))
            continue;
        p->error[at++] = *c == '\n' ? ' ' : *c;
    }
    while (at > 0 && p->error[at - 1] == ' ')
        at--;
    p->error[at] = 0;
}

/* A program whose linked shaders include a compute shader: that shader alone (GL forbids
 * mixing it with other stages in one program). */
static bool compile_compute(gmf_prog *p, const struct sm_program *sp)
{
    /* every compute shader object attached: one stage may be linked from several */
    gm_shader_source src[GM_MAX_SHADER_UNITS];
    char name[48];
    snprintf(name, sizeof name, "program%u.comp", sp->name);
    int n = 0;
    for (uint32_t i = 0; i < sp->n_linked && n < GM_MAX_SHADER_UNITS; i++)
        if (sp->linked[i].type == GL_COMPUTE_SHADER)
            src[n++] = (gm_shader_source){ GM_STAGE_COMPUTE,
                                           sp->linked[i].source ? sp->linked[i].source : "", name };
    if (!n)
        return false;
    if (p->spirv ? gmf_spirv_compile(sp, true, &p->cr) != 0   /* gmf_spirv.c */
                 : gm_compile_program(src, n, &p->cr) != 0) {
        char label[32];
        snprintf(label, sizeof label, "program %u", sp->name);
        compile_error(p, label);
        return true;
    }
    char err[256];
    gm_compiled_shader *cs = &p->cr.shaders[0];
    p->cs = gm_program_create(cs->spirv, cs->word_count, err, sizeof err);
    if (!p->cs) {
        snprintf(p->error, sizeof p->error, "program %u compute shader: %s", sp->name, err);
        return true;
    }
    init_opaque(p->cs, cs->compiled_source, p->spirv);
    p->vw = gm_warp_create(p->cs, 0);
    if (!p->vw) {
        snprintf(p->error, sizeof p->error, "out of memory creating warps");
        return true;
    }
    build_blocks(p, 0, p->cs);
    p->ok = true;
    return true;
}

static gm_stage stage_of_gl(uint32_t type)
{
    switch (type) {
    case GL_VERTEX_SHADER: return GM_STAGE_VERTEX;
    case GL_FRAGMENT_SHADER: return GM_STAGE_FRAGMENT;
    case GL_GEOMETRY_SHADER: return GM_STAGE_GEOMETRY;
    case GL_TESS_CONTROL_SHADER: return GM_STAGE_TESS_CONTROL;
    case GL_TESS_EVALUATION_SHADER: return GM_STAGE_TESS_EVALUATION;
    default: return GM_STAGE_COMPUTE;
    }
}

/* Splits a variable of `type` into one chunk per interface location (vectors and scalars take
 * one, matrix columns and array elements one each, struct members in order). */



static int var_chunks(const gm_program *p, int var, gmf_chunk *out, int *n, int max)
{
    const gm_var_info *vi = gm_program_var(p, var);
    int loc = vi->location;
    return gmf_add_chunks(p, var, vi->type, 0, &loc, vi->component, out, n, max);
}

static int find_builtin_var(const gm_program *p, int builtin)
{
    int var, off;
    if (gm_program_find_builtin(p, builtin, &var, &off) != 0 || off != 0)
        return -1;
    return var;
}


/* The array length of a built-in output (gl_ClipDistance, gl_CullDistance) at word `off` of
 * variable var: a member of gl_PerVertex, or a variable of its own. */
static int builtin_array_len(const gm_program *vs, int var, int off)
{
    gm_type_desc t;
    const gm_var_info *vi = gm_program_var(vs, var);
    if (gm_type_get(vs, vi->type, &t) != 0)
        return 0;
    if (t.kind == GM_TYPE_ARRAY)
        return t.length;
    if (t.kind != GM_TYPE_STRUCT)
        return 0;
    for (int m = 0; m < t.length; m++) {
        int mt, moff;
        gm_type_desc md;
        if (gm_type_member(vs, vi->type, m, &mt, NULL, &moff) == 0 && moff == off &&
            gm_type_get(vs, mt, &md) == 0 && md.kind == GM_TYPE_ARRAY)
            return md.length;
    }
    return 0;
}

static const struct { const char *name; int slot; } legacy_inputs[] = {
    { "glr_Vertex", SM_LA_VERTEX }, { "glr_Normal", SM_LA_NORMAL }, { "glr_Color", SM_LA_COLOR },
    { "glr_SecondaryColor", SM_LA_SECONDARY_COLOR }, { "glr_FogCoord", SM_LA_FOG_COORD },
    { "glr_MultiTexCoord0", SM_LA_TEXCOORD0 + 0 }, { "glr_MultiTexCoord1", SM_LA_TEXCOORD0 + 1 },
    { "glr_MultiTexCoord2", SM_LA_TEXCOORD0 + 2 }, { "glr_MultiTexCoord3", SM_LA_TEXCOORD0 + 3 },
    { "glr_MultiTexCoord4", SM_LA_TEXCOORD0 + 4 }, { "glr_MultiTexCoord5", SM_LA_TEXCOORD0 + 5 },
    { "glr_MultiTexCoord6", SM_LA_TEXCOORD0 + 6 }, { "glr_MultiTexCoord7", SM_LA_TEXCOORD0 + 7 },
};

int gmf_prog_attrib_index(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                          const char *name, int model_location)
{
    if (!sp)
        return model_location;   /* a generated (fixed-function) stage */
    for (uint32_t i = 0; i < sp->n_attrib_bindings; i++)
        if (sp->attrib_bindings[i].name && !strcmp(sp->attrib_bindings[i].name, name))
            return (int)sp->attrib_bindings[i].index;
    const gmf_name_rec *nr = gmf_find_name(r, sm_context_share_id(c), sp->name,
                                           GLR_CMD_glGetAttribLocation, name);
    if (nr && nr->value >= 0)
        return nr->value;
    return model_location;
}

static void build_vs(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                     gmf_prog *p)
{
    const gm_program *vs = p->vs;
    p->vid_var = find_builtin_var(vs, BI_VERTEX_ID);
    p->vindex_var = find_builtin_var(vs, BI_VERTEX_INDEX);
    p->iid_var = find_builtin_var(vs, BI_INSTANCE_ID);
    p->iindex_var = find_builtin_var(vs, BI_INSTANCE_INDEX);
    p->basev_var = find_builtin_var(vs, BI_BASE_VERTEX);
    p->basei_var = find_builtin_var(vs, BI_BASE_INSTANCE);
    p->drawid_var = find_builtin_var(vs, BI_DRAW_INDEX);
    if (gm_program_find_builtin(vs, BI_POSITION, &p->pos_var, &p->pos_off) != 0)
        p->pos_var = -1;
    if (gm_program_find_builtin(vs, BI_POINT_SIZE, &p->psize_var, &p->psize_off) != 0)
        p->psize_var = -1;
    if (gm_program_find_builtin(vs, BI_CLIP_DISTANCE, &p->clip_var, &p->clip_off) != 0)
        p->clip_var = -1;
    for (int i = 0; i < gm_program_input_count(vs); i++) {
        int v = gm_program_input_var(vs, i);
        const gm_var_info *vi = gm_program_var(vs, v);
        if (vi->builtin >= 0)
            continue;
        gmf_chunk ch[16];
        int n = 0;
        int loc = vi->location >= 0 ? vi->location : 0;
        if (gmf_add_chunks(vs, v, vi->type, 0, &loc, vi->component, ch, &n, 16) != 0)
            continue;
        int legacy = -1;
        for (size_t k = 0; k < sizeof legacy_inputs / sizeof legacy_inputs[0]; k++)
            if (!strcmp(vi->name, legacy_inputs[k].name))
                legacy = legacy_inputs[k].slot;
        int base = legacy >= 0 ? legacy : gmf_prog_attrib_index(r, c, sp, vi->name, vi->location);
        for (int k = 0; k < n && p->n_attrs < GMF_MAX_ATTR_CHUNKS; k++) {
            gmf_attr *a = &p->attrs[p->n_attrs++];
            a->c = ch[k];
            a->src = legacy >= 0 ? GMF_ATTR_LEGACY : GMF_ATTR_GENERIC;
            /* A dvec3/dvec4's second location is fed by the same attribute (one
             * glVertexAttribLPointer for the whole vector): dfirst picks its components. */
            a->index = legacy >= 0 ? legacy : base + (ch[k].location - ch[0].location) -
                                                  (ch[k].dfirst ? 1 : 0);
            a->name = vi->name;
        }
    }
    int max_slot = -1;
    for (int i = 0; i < gm_program_output_count(vs); i++) {
        int v = gm_program_output_var(vs, i);
        const gm_var_info *vi = gm_program_var(vs, v);
        if (vi->builtin >= 0 || vi->location < 0)
            continue;
        var_chunks(vs, v, p->vs_out, &p->n_vs_out, GMF_MAX_VAR_CHUNKS);
    }
    for (int i = 0; i < p->n_vs_out; i++)
        if (p->vs_out[i].location > max_slot)
            max_slot = p->vs_out[i].location;
    (void)max_slot;
    p->n_clip = p->clip_var >= 0 && gmf_stage_source_names(p, GM_STAGE_VERTEX, "gl_ClipDistance")
                    ? builtin_array_len(vs, p->clip_var, p->clip_off) : 0;
    if (p->n_clip > GM_PIPE_MAX_CLIP_DIST)
        p->n_clip = GM_PIPE_MAX_CLIP_DIST;
    /* gl_CullDistance: after the clip distances in the pipeline's vertex, 8 of both at most
     * (llvmpipe's limit on their sum) */
    if (gm_program_find_builtin(vs, BI_CULL_DISTANCE, &p->cull_var, &p->cull_off) != 0)
        p->cull_var = -1;
    p->n_cull = p->cull_var >= 0 && gmf_stage_source_names(p, GM_STAGE_VERTEX, "gl_CullDistance")
                    ? builtin_array_len(vs, p->cull_var, p->cull_off) : 0;
    if (p->n_cull > GM_PIPE_MAX_CLIP_DIST - p->n_clip)
        p->n_cull = GM_PIPE_MAX_CLIP_DIST - p->n_clip;
    p->clipv_var = gm_program_find_var(vs, "glr_ClipVertex", GM_VAR_OUTPUT);
    if (gm_program_find_builtin(vs, BI_LAYER, &p->vs_layer_var, &p->vs_layer_off) != 0)
        p->vs_layer_var = -1;
    if (gm_program_find_builtin(vs, BI_VIEWPORT_INDEX, &p->vs_vpi_var, &p->vs_vpi_off) != 0)
        p->vs_vpi_var = -1;
}

/* gl_Layer / gl_ViewportIndex that the vertex shader writes and the fragment shader reads (no
 * GS or TES): a hidden flat varying (the provoking vertex's value, unclamped, as Mesa passes
 * it), at *slot after the shader's own; -1 when either side lacks it. */
static void vs_hidden_flat(gmf_prog *p, int fs_var, int vs_var, int *slot)
{
    if (fs_var < 0 || vs_var < 0 || p->gs || p->tes ||
        p->info.num_varyings >= GM_PIPE_MAX_VARYINGS)
        return;
    *slot = p->info.num_varyings++;
    p->info.interp[*slot] = GM_INTERP_FLAT;
    p->info.loc[*slot] = GM_LOC_CENTER;
}

/* The auxiliary storage qualifier (centroid / sample) of each input location: the model's
 * variable table carries only flat/noperspective, so the SPIR-V's Centroid and Sample
 * decorations are read here, keyed by the Input variable's Location. */
static void input_locs(const uint32_t *w, size_t n, uint8_t loc_of[GM_PIPE_MAX_VARYINGS])
{
    enum { OP_VARIABLE = 59, OP_DECORATE = 71, DECO_LOCATION = 30, DECO_CENTROID = 16,
           DECO_SAMPLE = 17, SC_INPUT = 1 };
    memset(loc_of, GM_LOC_CENTER, GM_PIPE_MAX_VARYINGS);
    if (!w || n < 5)
        return;
    uint32_t bound = w[3];
    if (bound == 0 || bound > (1u << 22))
        return;
    int32_t *location = malloc(bound * sizeof *location);
    uint8_t *qual = calloc(bound, 1), *input = calloc(bound, 1);
    if (location && qual && input) {
        for (uint32_t i = 0; i < bound; i++)
            location[i] = -1;
        for (size_t i = 5; i < n;) {
            uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
            if (len == 0 || i + len > n)
                break;
            if (op == OP_DECORATE && len >= 3 && w[i + 1] < bound) {
                uint32_t id = w[i + 1], deco = w[i + 2];
                if (deco == DECO_LOCATION && len >= 4)
                    location[id] = (int32_t)w[i + 3];
                else if (deco == DECO_CENTROID)
                    qual[id] = GM_LOC_CENTROID;
                else if (deco == DECO_SAMPLE)
                    qual[id] = GM_LOC_SAMPLE;
            } else if (op == OP_VARIABLE && len >= 4 && w[i + 2] < bound &&
                       w[i + 3] == SC_INPUT) {
                input[w[i + 2]] = 1;
            }
            i += len;
        }
        for (uint32_t id = 0; id < bound; id++)
            if (input[id] && qual[id] && location[id] >= 0 &&
                location[id] < GM_PIPE_MAX_VARYINGS)
                loc_of[location[id]] = qual[id];
    }
    free(location);
    free(qual);
    free(input);
}

/* gl_SampleMaskIn and gl_SampleMask share the SampleMask built-in: told apart by class. */
static int find_builtin_io(const gm_program *p, int builtin, bool output)
{
    int n = output ? gm_program_output_count(p) : gm_program_input_count(p);
    for (int i = 0; i < n; i++) {
        int v = output ? gm_program_output_var(p, i) : gm_program_input_var(p, i);
        if (gm_program_var(p, v)->builtin == builtin)
            return v;
    }
    return -1;
}

/* Is `name` declared with an explicit location in the program's `stage` source as compiled: does
 * the statement holding one of its occurrences (back to the previous `;`, `{` or `}` outside
 * braces: a block's or struct's body is skipped) say `location`? A SPIR-V program has no source:
 * its locations are all explicit. */
static bool declared_with_location(const gmf_prog *p, gm_stage stage, const char *name)
{
    if (p->spirv)
        return true;
    size_t n = name ? strlen(name) : 0;
    for (int i = 0; n && i < p->cr.shader_count; i++) {
        const char *src = p->cr.shaders[i].compiled_source;
        if (p->cr.shaders[i].stage != stage || !src)
            continue;
        for (const char *s = strstr(src, name); s; s = strstr(s + 1, name)) {
            if ((s > src && (isalnum((unsigned char)s[-1]) || s[-1] == '_')) ||
                isalnum((unsigned char)s[n]) || s[n] == '_')
                continue;
            int depth = 0;
            const char *b = s;
            while (b > src) {
                char c = b[-1];
                if (c == '}')
                    depth++;
                else if (c == '{' && depth > 0)
                    depth--;
                else if (depth == 0 && (c == ';' || c == '{' || c == '}'))
                    break;
                b--;
            }
            for (const char *l = b; l < s; l++)
                if (!strncmp(l, "location", 8) && (l == src || !(isalnum((unsigned char)l[-1]) || l[-1] == '_')) &&
                    !(isalnum((unsigned char)l[8]) || l[8] == '_'))
                    return true;
        }
    }
    return false;
}

/* The FS input (non-built-in, with a location) named `name`, or -1. */
static int fs_input_named(const gm_program *fs, const char *name)
{
    for (int i = 0; name && i < gm_program_input_count(fs); i++) {
        int v = gm_program_input_var(fs, i);
        const gm_var_info *vi = gm_program_var(fs, v);
        if (vi->builtin < 0 && vi->location >= 0 && vi->name && !strcmp(vi->name, name))
            return v;
    }
    return -1;
}

/* Whether some VS output (non-built-in, with a location) is named `name`. */
static bool vs_output_named(const gm_program *vs, const char *name)
{
    for (int i = 0; name && i < gm_program_output_count(vs); i++) {
        const gm_var_info *vi = gm_program_var(vs, gm_program_output_var(vs, i));
        if (vi->builtin < 0 && vi->location >= 0 && vi->name && !strcmp(vi->name, name))
            return true;
    }
    return false;
}

/* Interface matching between the stages, as GL linking does it (GL 4.6 section 7.4.1):
 * glslang assigns automatic locations per stage, so a VS output the FS never declares
 * shifts the VS's later locations away from the FS's. Each VS output is moved to the
 * location of the FS input with the same name; one with no namesake keeps its location
 * only when the FS input there has no VS namesake either (explicit locations, differently
 * named); the rest are unused by the FS and dropped. */
static void link_varyings(gmf_prog *p)
{
    int kept = 0;
    for (int i = 0; i < p->n_vs_out; i++) {
        gmf_chunk ch = p->vs_out[i];
        const gm_var_info *vo = gm_program_var(p->vs, ch.var);
        /* GL matches explicitly located variables by location, the others by name */
        int fv = declared_with_location(p, GM_STAGE_VERTEX, vo->name) ? -1
                 : fs_input_named(p->fs, vo->name);
        if (fv >= 0) {
            int base = gm_program_var(p->fs, fv)->location;   /* where build_fs put it */
            for (int k = p->n_fs_in - 1; k >= 0; k--)
                if (p->fs_in[k].var == fv)
                    base = p->fs_in[k].location;
            ch.location = base + (ch.location - vo->location);
        } else if (declared_with_location(p, GM_STAGE_VERTEX, vo->name)) {
            /* kept at its location: the FS input declared there */
        } else {
            bool free_slot = false;
            for (int k = 0; k < gm_program_input_count(p->fs); k++) {
                const gm_var_info *fi = gm_program_var(p->fs, gm_program_input_var(p->fs, k));
                if (fi->builtin < 0 && fi->location == vo->location &&
                    !vs_output_named(p->vs, fi->name))
                    free_slot = true;
            }
            if (!free_slot)
                continue;
        }
        p->vs_out[kept++] = ch;
    }
    p->n_vs_out = kept;
}


static void build_fs(gmf_prog *p, const uint32_t *spirv, size_t words)
{
    const gm_program *fs = p->fs;
    uint8_t loc_of[GM_PIPE_MAX_VARYINGS];
    input_locs(spirv, words, loc_of);
    p->sampleid_var = find_builtin_var(fs, BI_SAMPLE_ID);
    p->samplepos_var = find_builtin_var(fs, BI_SAMPLE_POSITION);
    p->maskin_var = find_builtin_io(fs, BI_SAMPLE_MASK, false);
    p->maskout_var = find_builtin_io(fs, BI_SAMPLE_MASK, true);
    p->info.fs_writes_sample_mask = p->maskout_var >= 0;
    /* Reading gl_SampleID / gl_SamplePosition or a `sample in` means per-sample shading
     * (GL 4.5 section 14.3.1.1); the pipeline also derives it from info.loc. */
    p->info.fs_per_sample = p->sampleid_var >= 0 || p->samplepos_var >= 0;
    p->fragcoord_var = find_builtin_var(fs, BI_FRAG_COORD);
    p->frontfacing_var = find_builtin_var(fs, BI_FRONT_FACING);
    p->pointcoord_var = find_builtin_var(fs, BI_POINT_COORD);
    p->primid_var = find_builtin_var(fs, BI_PRIMITIVE_ID);
    p->fs_layer_var = find_builtin_var(fs, BI_LAYER);
    p->fs_vpi_var = find_builtin_var(fs, BI_VIEWPORT_INDEX);
    p->layer_slot = p->vpi_slot = -1;
    p->fragdepth_var = find_builtin_var(fs, BI_FRAG_DEPTH);
    int max_slot = -1;
    /* Explicitly located inputs first; glslang's automatic locations may put an implicitly
     * located one on slots they hold (it does not avoid them): such a one moves past every slot
     * in use, and link_varyings moves its VS namesake along. */
    uint64_t taken = 0;
    for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < gm_program_input_count(fs); i++) {
        int v = gm_program_input_var(fs, i);
        const gm_var_info *vi = gm_program_var(fs, v);
        if (vi->builtin >= 0 || vi->location < 0)
            continue;
        if (declared_with_location(p, GM_STAGE_FRAGMENT, vi->name) != (pass == 0))
            continue;
        int before = p->n_fs_in;
        var_chunks(fs, v, p->fs_in, &p->n_fs_in, GMF_MAX_VAR_CHUNKS);
        uint64_t mine = 0;
        int lo = GM_PIPE_MAX_VARYINGS;
        for (int k = before; k < p->n_fs_in; k++)
            if (p->fs_in[k].location >= 0 && p->fs_in[k].location < 64) {
                mine |= 1ull << p->fs_in[k].location;
                lo = p->fs_in[k].location < lo ? p->fs_in[k].location : lo;
            }
        if (pass == 1 && (mine & taken)) {
            int top = 0;
            while (top < 64 && (taken >> top))
                top++;
            mine = 0;
            for (int k = before; k < p->n_fs_in; k++) {
                p->fs_in[k].location += top - lo;
                if (p->fs_in[k].location >= 0 && p->fs_in[k].location < 64)
                    mine |= 1ull << p->fs_in[k].location;
            }
        }
        taken |= mine;
        for (int k = before; k < p->n_fs_in; k++) {
            int slot = p->fs_in[k].location;
            if (slot < 0 || slot >= GM_PIPE_MAX_VARYINGS)
                continue;
            int fl = p->fs_in[k].interp ? p->fs_in[k].interp : vi->flat;
            p->info.interp[slot] = fl == 1 ? GM_INTERP_FLAT
                                   : fl == 2 ? GM_INTERP_NOPERSPECTIVE : GM_INTERP_SMOOTH;
            if (vi->location >= 0 && vi->location < GM_PIPE_MAX_VARYINGS) {
                p->info.loc[slot] = loc_of[vi->location];
                if (loc_of[vi->location] == GM_LOC_SAMPLE)
                    p->info.fs_per_sample = true;
            }
            /* Integer varyings are always flat in GLSL. */
            if (p->fs_in[k].scalar != GM_SCALAR_FLOAT)
                p->info.interp[slot] = GM_INTERP_FLAT;
            if (slot > max_slot)
                max_slot = slot;
        }
    }
    for (int i = 0; i < p->n_vs_out; i++)
        if (p->vs_out[i].location > max_slot && p->vs_out[i].location < GM_PIPE_MAX_VARYINGS)
            max_slot = p->vs_out[i].location;
    p->info.num_varyings = max_slot + 1;
    p->fs_clip_var = find_builtin_var(fs, BI_CLIP_DISTANCE);
    p->fs_cull_var = find_builtin_var(fs, BI_CULL_DISTANCE);
    p->fs_clip_slot = p->fs_cull_slot = -1;
    p->fs_clip_n = p->fs_cull_n = 0;
    if (p->fs_clip_var >= 0 && !p->gs && p->clip_var >= 0 && p->n_clip > 0)
        gmf_hidden_varyings(p, fs, p->fs_clip_var, p->n_clip, &p->fs_clip_slot, &p->fs_clip_n);
    if (p->fs_cull_var >= 0 && !p->gs && !p->tes && p->cull_var >= 0 && p->n_cull > 0)
        gmf_hidden_varyings(p, fs, p->fs_cull_var, p->n_cull, &p->fs_cull_slot, &p->fs_cull_n);
    vs_hidden_flat(p, p->fs_layer_var, p->vs_layer_var, &p->layer_slot);
    vs_hidden_flat(p, p->fs_vpi_var, p->vs_vpi_var, &p->vpi_slot);
    for (int i = 0; i < gm_program_output_count(fs); i++) {
        int v = gm_program_output_var(fs, i);
        const gm_var_info *vi = gm_program_var(fs, v);
        if (vi->builtin >= 0 || vi->location < 0)
            continue;
        if (!strcmp(vi->name, "glr_FragColor"))
            p->broadcast_color0 = true;
        int before = p->n_fs_out;
        var_chunks(fs, v, p->fs_out, &p->n_fs_out, GMF_MAX_VAR_CHUNKS);
        for (int k = before; k < p->n_fs_out; k++)
            if (p->fs_out[k].scalar != GM_SCALAR_FLOAT && p->fs_out[k].location < GM_PIPE_MAX_RT)
                p->info.rt_is_integer |= (uint8_t)(1u << p->fs_out[k].location);
    }
    /* llvmpipe's alpha test reads colour output 0's alpha and is left out of the shader when
     * the shader never writes it (lp_state_fs.c: no output for FRAG_RESULT_DATA0 / COLOR 0, or
     * no alpha channel): piglit gl-2.1-fbo-mrt-alphatest-no-buffer-zero-write */
    for (int k = 0; k < p->n_fs_out; k++) {
        const gmf_chunk *ch = &p->fs_out[k];
        if (ch->location == 0 && ch->comp <= 3 && ch->comp + ch->n > 3 &&
            gm_program_may_store_var_word(fs, ch->var, ch->word + 3 - ch->comp))
            p->fs_writes_alpha0 = true;
    }
    p->info.fs_writes_depth = gm_program_writes_depth(fs) != 0;
    p->info.fs_may_discard = gm_program_uses_discard(fs) != 0;
    p->info.fs_uses_subgroups = gm_program_uses_subgroups(fs) != 0;
    p->info.fs_early_fragment_tests = gm_program_early_fragment_tests(fs) != 0;
    for (int b = 0; b < gm_program_block_count(fs); b++)
        if (gm_program_block(fs, b)->is_storage)
            p->info.fs_has_side_effects = true;
    for (int u = 0; u < gm_program_uniform_count(fs); u++) {
        const gm_uniform_info *ui = gm_program_uniform(fs, u);
        gm_type_desc t;
        if (ui->is_opaque && gm_type_get(fs, ui->opaque_type, &t) == 0 && t.kind == GM_TYPE_IMAGE)
            p->info.fs_has_side_effects = true;
    }
}

static bool ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Does the declaration of block `name` (`... uniform|buffer name {`) carry a binding in its
 * layout? glslang maps missing bindings automatically, so the SPIR-V cannot tell; the
 * declaration runs back to the previous ';', '{' or '}'. */
static bool block_has_layout_binding(const char *src, const char *name)
{
    size_t n = strlen(name);
    if (!src || !n)
        return false;
    for (const char *s = strstr(src, name); s; s = strstr(s + 1, name)) {
        const char *e = s + n;
        if ((s > src && ident_char(s[-1])) || ident_char(*e))
            continue;
        while (isspace((unsigned char)*e))
            e++;
        if (*e != '{')
            continue;
        const char *b = s;
        while (b > src && b[-1] != ';' && b[-1] != '{' && b[-1] != '}')
            b--;
        for (const char *q = b; q + 7 <= s; q++)
            if (!strncmp(q, "binding", 7) && (q == b || !ident_char(q[-1])) && !ident_char(q[7]))
                return true;
        return false;
    }
    return false;
}

static void build_blocks(gmf_prog *p, int stage, const gm_program *gp)
{
    gm_stage want = p->cs ? GM_STAGE_COMPUTE : stage == 2 ? GM_STAGE_GEOMETRY
                    : stage ? GM_STAGE_FRAGMENT : GM_STAGE_VERTEX;
    const char *source = NULL;
    for (int i = 0; i < p->cr.shader_count; i++)
        if (p->cr.shaders[i].stage == want)
            source = p->cr.shaders[i].compiled_source;
    for (int b = 0; b < gm_program_block_count(gp) && p->n_blocks[stage] < GMF_MAX_BLOCKS; b++) {
        const gm_block_info *bi = gm_program_block(gp, b);
        /* An array of blocks is one block per element, binding + k, named "Block[i][j]" as GL
         * names it for glGetUniformBlockIndex (row-major: k = i * inner + j). */
        int elems = bi->array_size > 1 ? bi->array_size : 1;
        int dims[8], nd = 0;
        int var = elems > 1 ? gm_program_find_var(gp, bi->instance_name, GM_VAR_BUFFER) : -1;
        gm_type_desc td;
        for (int t = var >= 0 ? gm_program_var(gp, var)->type : -1;
             t >= 0 && nd < 8 && gm_type_get(gp, t, &td) == 0 && td.kind == GM_TYPE_ARRAY; t = td.element)
            dims[nd++] = td.length > 0 ? td.length : 1;
        for (int k = 0; k < elems && p->n_blocks[stage] < GMF_MAX_BLOCKS; k++) {
            gmf_block_map *m = &p->blocks[stage][p->n_blocks[stage]++];
            m->model_binding = bi->binding + k;
            m->explicit_binding = p->spirv || (bi->name && block_has_layout_binding(source, bi->name));
            m->storage = bi->is_storage != 0;
            m->atomic = bi->is_atomic_counter != 0;
            int at = snprintf(m->name, sizeof m->name, "%s", bi->name);
            for (int i = 0, rest = k, inner = elems; elems > 1 && i < nd; i++) {
                inner /= dims[i];
                if (at >= 0 && (size_t)at < sizeof m->name)
                    at += snprintf(m->name + at, sizeof m->name - (size_t)at, "[%d]", inner ? rest / inner : 0);
                rest = inner ? rest % inner : 0;
            }
        }
    }
}

/* Samplers start at unit 0 unless the source gives explicit bindings (GLSL 4.20
 * layout(binding = N)); glslang's automatic bindings are not what GL does. */
static void init_opaque(gm_program *gp, const char *source, bool spirv)
{
    /* SPIR-V: the Binding decoration is the initial unit (0 without one; ARB_gl_spirv). */
    bool explicit_bindings = spirv || (source && strstr(source, "binding"));
    for (int u = 0; u < gm_program_uniform_count(gp); u++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, u);
        if (!ui->is_opaque)
            continue;
        int binding = 0;
        if (explicit_bindings) {
            char base[128];
            snprintf(base, sizeof base, "%s", ui->name);
            char *br = strchr(base, '[');
            if (br)
                *br = 0;
            int v = gm_program_find_var(gp, base, GM_VAR_OPAQUE);
            if (v >= 0 && gm_program_var(gp, v)->binding >= 0)
                binding = gm_program_var(gp, v)->binding;
        }
        /* An array of arrays is listed one innermost array at a time ("tex[1]" of
         * sampler2D tex[2][2]), in order; its units continue from the earlier ones' (GL 4.6
         * 7.6.2: consecutive units over the flattened array). */
        int before = 0;
        size_t blen = strcspn(ui->name, "[");
        for (int v = 0; explicit_bindings && v < u; v++) {
            const gm_uniform_info *vi = gm_program_uniform(gp, v);
            if (vi->is_opaque && strncmp(vi->name, ui->name, blen) == 0 && vi->name[blen] == '[' &&
                ui->name[blen] == '[')
                before += vi->array_size;
        }
        for (int e = 0; e < ui->array_size; e++) {
            int32_t unit = binding + before + e;
            gm_program_set_uniform(gp, u, e, 1, &unit);
        }
    }
}

/* ---- legacy matrix built-ins (gl_ModelViewMatrix & co., renamed glr_* by the upgrade pass),
 * computed from the state model's matrix stacks the way GL 2.1 section 2.11 / GLSL 1.20 section
 * 7.5 define them. Matrices are column-major floats. */

static void mat4_mul(const float a[16], const float b[16], float r[16])
{
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++) {
            float sum = 0.0f;
            for (int k = 0; k < 4; k++)
                sum += a[k * 4 + row] * b[c * 4 + k];
            r[c * 4 + row] = sum;
        }
}

static void mat4_transpose(const float a[16], float r[16])
{
    for (int c = 0; c < 4; c++)
        for (int row = 0; row < 4; row++)
            r[c * 4 + row] = a[row * 4 + c];
}

/* Gauss-Jordan with partial pivoting in double; a singular matrix gives zeros. */
static void mat4_inverse(const float a[16], float r[16])
{
    double m[4][8];
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++) {
            m[row][c] = a[c * 4 + row];
            m[row][4 + c] = row == c;
        }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int row = col + 1; row < 4; row++)
            if (fabs(m[row][col]) > fabs(m[piv][col]))
                piv = row;
        if (m[piv][col] == 0.0) {
            memset(r, 0, 16 * sizeof *r);
            return;
        }
        for (int k = 0; k < 8; k++) {
            double t = m[col][k];
            m[col][k] = m[piv][k];
            m[piv][k] = t;
        }
        double d = m[col][col];
        for (int k = 0; k < 8; k++)
            m[col][k] /= d;
        for (int row = 0; row < 4; row++) {
            if (row == col || m[row][col] == 0.0)
                continue;
            double f = m[row][col];
            for (int k = 0; k < 8; k++)
                m[row][k] -= f * m[col][k];
        }
    }
    for (int row = 0; row < 4; row++)
        for (int c = 0; c < 4; c++)
            r[c * 4 + row] = (float)m[row][4 + c];
}

static const char *const legacy_matrix_bases[] = {
    "glr_ModelViewMatrix", "glr_ProjectionMatrix", "glr_ModelViewProjectionMatrix",
    "glr_TextureMatrix",
};

/* Which legacy matrix `name` is: base index (above; 4 = glr_NormalMatrix) and the variant
 * (bit 0 inverse, bit 1 transpose). False for any other name. */
static bool legacy_matrix_kind(const char *name, int *base, int *variant)
{
    if (!strcmp(name, "glr_NormalMatrix")) {
        *base = 4;
        *variant = 0;
        return true;
    }
    static const char *const suffixes[] = { "", "Inverse", "Transpose", "InverseTranspose" };
    for (int b = 0; b < 4; b++) {
        size_t n = strlen(legacy_matrix_bases[b]);
        if (strncmp(name, legacy_matrix_bases[b], n))
            continue;
        for (int v = 0; v < 4; v++)
            if (!strcmp(name + n, suffixes[v])) {
                *base = b;
                *variant = v;
                return true;
            }
    }
    return false;
}

static const float *stack_top(const struct sm_matrix_stack *s) { return s->m[s->depth]; }

/* Feeds every legacy matrix uniform of one stage from the context's matrix stacks. */
static void upload_legacy_matrices(const struct sm_context *c, gm_program *gp)
{
    const struct sm_context_state *st = sm_context_state(c);
    for (int u = 0; gp && st && u < gm_program_uniform_count(gp); u++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, u);
        int base, variant;
        if (ui->is_opaque || !legacy_matrix_kind(ui->name, &base, &variant))
            continue;
        for (int e = 0; e < ui->array_size; e++) {
            float m[16], t[16];
            switch (base) {
            case 0: memcpy(m, stack_top(&st->modelview), sizeof m); break;
            case 1: memcpy(m, stack_top(&st->projection), sizeof m); break;
            case 2: mat4_mul(stack_top(&st->projection), stack_top(&st->modelview), m); break;
            case 3:
                if (e >= SM_MAX_TEXTURE_COORDS)
                    continue;
                memcpy(m, stack_top(&st->texture[e]), sizeof m);
                break;
            default: {
                /* gl_NormalMatrix: the transpose of the inverse of the modelview's upper 3x3. */
                float inv[16], n3[9];
                mat4_inverse(stack_top(&st->modelview), inv);
                for (int col = 0; col < 3; col++)
                    for (int row = 0; row < 3; row++)
                        n3[col * 3 + row] = inv[row * 4 + col];
                gm_program_set_uniform(gp, u, e, 1, n3);
                continue;
            }
            }
            if (variant & 1) {
                mat4_inverse(m, t);
                memcpy(m, t, sizeof m);
            }
            if (variant & 2) {
                mat4_transpose(m, t);
                memcpy(m, t, sizeof m);
            }
            gm_program_set_uniform(gp, u, e, 1, m);
        }
    }
}

/* A uniform is one object of the linked program: an initializer written in one stage is its
 * value in every stage that declares it (GLSL allows the initializer in one stage only). */
static void share_uniform_initializers(gmf_prog *p)
{
    gm_program *st[5] = { p->vs, p->gs, p->fs, p->tcs, p->tes };
    for (int a = 0; a < 5; a++)
        for (int i = 0; st[a] && i < gm_program_uniform_count(st[a]); i++) {
            const gm_uniform_info *ua = gm_program_uniform(st[a], i);
            if (!ua->initialized)
                continue;
            for (int b = 0; b < 5; b++) {
                int j = b == a || !st[b] ? -1 : gm_program_find_uniform(st[b], ua->name);
                const gm_uniform_info *ub = j >= 0 ? gm_program_uniform(st[b], j) : NULL;
                if (ub && !ub->initialized && ub->type == ua->type && ub->array_size == ua->array_size)
                    gm_program_set_uniform(st[b], j, 0, ua->array_size, gm_program_uniform_data(st[a], i));
            }
        }
}

static void note_compat_uniforms(gmf_prog *p, const gm_program *gp)
{
    for (int u = 0; u < gm_program_uniform_count(gp); u++) {
        const char *n = gm_program_uniform(gp, u)->name;
        int base, variant;
        if (legacy_matrix_kind(n, &base, &variant) || gmf_ff_uniform_fed(n))
            continue; /* fed from the matrix stacks or the fixed-function state */
        if (!strncmp(n, "glr_sub", 7))
            continue; /* subroutine selections (gmf_subroutine.c) */
        if (!strncmp(n, "glr_", 4) && !p->uses_compat_uniforms) {
            p->uses_compat_uniforms = true;
            snprintf(p->compat_uniform, sizeof p->compat_uniform, "%s", n);
        }
    }
}

/* The run's abort flag reaches the warps of every stage: a warp stuck in a long loop stops at
 * its next loop end instead of running its 65535 iterations out. */
static gmf_prog *arm_abort(gmf_runner *r, gmf_prog *p)
{
    if (p && r->abort_flag) {
        gm_program *stages[] = { p->vs, p->fs, p->gs, p->cs, p->tcs, p->tes };
        for (size_t i = 0; i < sizeof stages / sizeof *stages; i++)
            gm_program_set_abort(stages[i], r->abort_flag);
    }
    return p;
}

/* Compiles the stage sources src[0..n-1] into p and builds its interface tables (sp: the GL
 * program whose attribute bindings apply, or NULL; label: how errors name the program). */
static void compile_stages(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                           gmf_prog *p, const gm_shader_source *src, int n, const char *label)
{
    if (!n) {
        snprintf(p->error, sizeof p->error, "%s has no linked shaders", label);
        return;
    }
    if (p->spirv ? gmf_spirv_compile(sp, false, &p->cr) != 0   /* gmf_spirv.c */
                 : gm_compile_program(src, n, &p->cr) != 0) {
        compile_error(p, label);
        return;
    }
    char err[256];
    const uint32_t *fs_spirv = NULL;
    size_t fs_words = 0;
    for (int i = 0; i < p->cr.shader_count; i++) {
        gm_compiled_shader *cs = &p->cr.shaders[i];
        gm_program *gp = gm_program_create(cs->spirv, cs->word_count, err, sizeof err);
        if (!gp) {
            snprintf(p->error, sizeof p->error, "%s %s shader: %s", label,
                     cs->stage == GM_STAGE_VERTEX ? "vertex"
                     : cs->stage == GM_STAGE_GEOMETRY ? "geometry"
                     : cs->stage == GM_STAGE_TESS_CONTROL ? "tessellation control"
                     : cs->stage == GM_STAGE_TESS_EVALUATION ? "tessellation evaluation"
                     : "fragment", err);
            return;
        }
        init_opaque(gp, cs->compiled_source, p->spirv);
        note_compat_uniforms(p, gp);
        if (cs->stage == GM_STAGE_VERTEX) {
            p->vs = gp;
        } else if (cs->stage == GM_STAGE_GEOMETRY) {
            p->gs = gp;   /* gmf_geometry.c */
        } else if (cs->stage == GM_STAGE_TESS_CONTROL) {
            p->tcs = gp;   /* gmf_tess.c */
        } else if (cs->stage == GM_STAGE_TESS_EVALUATION) {
            p->tes = gp;
        } else {
            p->fs = gp;
            fs_spirv = cs->spirv;
            fs_words = cs->word_count;
        }
    }
    if (!p->vs) {
        snprintf(p->error, sizeof p->error, "%s has no vertex shader", label);
        return;
    }
    if (p->tcs && !p->tes) {
        snprintf(p->error, sizeof p->error, "%s: a tessellation control shader without an evaluation shader",
                 label);
        return;
    }
    share_uniform_initializers(p);
    p->vw = gm_warp_create(p->vs, 0);
    if (p->fs)
        p->fw = gm_warp_create(p->fs, 1);
    if (!p->vw || (p->fs && !p->fw)) {
        snprintf(p->error, sizeof p->error, "out of memory creating warps");
        return;
    }
    build_vs(r, c, sp, p);
    if (p->gs)
        gmf_gs_build(p);   /* VS -> GS -> FS linking (gmf_geometry.c) */
    if (p->tes)
        gmf_tess_build(p);   /* VS -> TCS -> TES -> FS linking (gmf_tess.c) */
    if (p->fs) {
        build_fs(p, fs_spirv, fs_words);
        if (!p->gs && !p->tes && !p->spirv)   /* SPIR-V stages meet by location only */
            link_varyings(p);   /* onto the FS's slots as build_fs placed them */
    }
    else
        p->info.num_varyings = 0;
    p->info.num_clip_dist = p->n_clip;
    p->info.num_cull_dist = p->gs || p->tes ? 0 : p->n_cull;
    p->user_clip = !p->gs && !p->tes && p->n_clip == 0 && p->n_cull == 0;
    if (p->user_clip)
        p->info.num_clip_dist = GM_PIPE_MAX_CLIP_DIST;
    p->info.vs_writes_point_size = p->psize_var >= 0;
    if (p->gs)
        gmf_gs_finish(p);
    if (p->tes && !p->gs)
        gmf_tess_finish(p);   /* with a GS, its outputs are what the pipeline interpolates */
    if (p->tes && !p->tessx) {
        snprintf(p->error, sizeof p->error, "%s tessellation: %s", label, "out of memory");
        return;
    }
    if (p->gs && !p->gsx) {
        snprintf(p->error, sizeof p->error, "%s geometry shader: %s", label, "out of memory");
        return;
    }
    build_blocks(p, 0, p->vs);
    if (p->fs)
        build_blocks(p, 1, p->fs);
    if (p->gs)
        build_blocks(p, 2, p->gs);
    p->ok = true;
}

gmf_prog *gmf_prog_from_sources(gmf_runner *r, const struct sm_context *c,
                                const struct sm_program *sp, const gm_shader_source *src, int n,
                                const char *label)
{
    gmf_prog *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->share = sm_context_share_id(c);
    p->name = sp ? sp->name : 0;
    p->link_count = sp ? sp->link_count : 0;
    p->primid_slot = -1;
    p->fs_clip_var = p->fs_clip_slot = -1;
    p->fs_cull_var = p->fs_cull_slot = p->cull_var = p->clipv_var = -1;
    p->layer_slot = p->vpi_slot = p->vs_layer_var = p->vs_vpi_var = -1;
    r->totals.programs_compiled++;
    compile_stages(r, c, sp, p, src, n, label);
    if (!p->ok)
        r->totals.program_errors++;
    return arm_abort(r, p);
}

static gmf_prog *compile(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp)
{
    gmf_prog *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->share = sm_context_share_id(c);
    p->name = sp->name;
    p->link_count = sp->link_count;
    p->primid_slot = -1;
    p->fs_clip_var = p->fs_clip_slot = -1;
    p->fs_cull_var = p->fs_cull_slot = p->cull_var = p->clipv_var = -1;
    p->layer_slot = p->vpi_slot = p->vs_layer_var = p->vs_vpi_var = -1;
    p->spirv = gmf_spirv_program(sp);
    if (compile_compute(p, sp)) {
        r->totals.programs_compiled++;
        return p;
    }
    gm_shader_source src[GM_MAX_SHADER_UNITS];
    char names[GM_MAX_SHADER_UNITS][48];
    int n = 0;
    for (uint32_t i = 0; i < sp->n_linked && n < GM_MAX_SHADER_UNITS; i++) {
        gm_stage st = stage_of_gl(sp->linked[i].type);
        if (st != GM_STAGE_VERTEX && st != GM_STAGE_FRAGMENT && st != GM_STAGE_GEOMETRY &&
            st != GM_STAGE_TESS_CONTROL && st != GM_STAGE_TESS_EVALUATION) {
            p->has_other_stages = true;
            continue;
        }
        snprintf(names[n], sizeof names[n], "program%u.%s", sp->name,
                 st == GM_STAGE_VERTEX ? "vert" : st == GM_STAGE_GEOMETRY ? "geom"
                 : st == GM_STAGE_TESS_CONTROL ? "tesc" : st == GM_STAGE_TESS_EVALUATION ? "tese"
                 : "frag");
        src[n] = (gm_shader_source){ st, sp->linked[i].source ? sp->linked[i].source : "",
                                     names[n] };
        n++;
    }
    r->totals.programs_compiled++;
    if (p->has_other_stages) {
        snprintf(p->error, sizeof p->error,
                 "program %u: shader stages the model does not run together", sp->name);
        return p;
    }
    if (!n && (!sp->link_count || sp->binary)) {
        /* Loaded by glProgramBinary (the capture has the binary, which the replaying driver
         * takes) from a binary whose sources glreplay never saw linked (the program cache
         * keeps them from the run that made the binary: README, "Programs loaded from binaries"). */
        snprintf(p->error, sizeof p->error,
                 "program %u has no linked shaders (loaded with glProgramBinary from a binary made without glreplay: "
                 "no sources; run the program once under glreplay, or capture with GLREPLAY_NO_PROGRAM_BINARY=1)",
                 sp->name);
        return p;
    }
    char label[32];
    snprintf(label, sizeof label, "program %u", sp->name);
    compile_stages(r, c, sp, p, src, n, label);
    return p;
}

gmf_prog *gmf_prog_get(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp)
{
    uint32_t share = sm_context_share_id(c);
    for (int i = 0; i < r->n_progs; i++) {
        gmf_prog *p = r->progs[i];
        if (p->share == share && p->name == sp->name) {
            if (p->link_count == sp->link_count)
                return p;
            /* Relinked: compile again (the timing model caches programs by pointer). */
            if (r->tm) {
                if (p->vs)
                    gm_timing_forget_program(r->tm, p->vs);
                if (p->cs)
                    gm_timing_forget_program(r->tm, p->cs);
                if (p->fs)
                    gm_timing_forget_program(r->tm, p->fs);
                if (p->gs)
                    gm_timing_forget_program(r->tm, p->gs);
            }
            gmf_prog_free(p);
            r->progs[i] = arm_abort(r, compile(r, c, sp));
            if (r->progs[i] && !r->progs[i]->ok)
                r->totals.program_errors++;
            return r->progs[i];
        }
    }
    if (r->n_progs == r->cap_progs) {
        int cap = r->cap_progs ? r->cap_progs * 2 : 16;
        gmf_prog **np = realloc(r->progs, (size_t)cap * sizeof *np);
        if (!np)
            return NULL;
        r->progs = np;
        r->cap_progs = cap;
    }
    gmf_prog *p = arm_abort(r, compile(r, c, sp));
    if (!p)
        return NULL;
    if (!p->ok)
        r->totals.program_errors++;
    r->progs[r->n_progs++] = p;
    return p;
}


/* Sets the uniform `name` (as the program asked for it) at driver location loc, in one stage. */
static void upload_name(const struct sm_program *sp, gm_program *gp, const char *name, int32_t loc,
                        gmf_event *ev)
{
    char base[256];
    snprintf(base, sizeof base, "%s", name);
    int first = 0;
    size_t len = strlen(base);
    if (len > 3 && base[len - 1] == ']') {
        char *br = strrchr(base, '[');
        if (br) {
            first = atoi(br + 1);
            *br = 0;
        }
    }
    int u = gm_program_find_uniform(gp, base);
    if (u < 0) {
        u = gm_program_find_uniform(gp, name);
        first = 0;
    }
    if (u < 0)
        return; /* not used by this stage */
    const gm_uniform_info *ui = gm_program_uniform(gp, u);
    for (int e = first; e < ui->array_size; e++) {
        const struct sm_uniform *su = sm_program_uniform(sp, loc + (e - first));
        if (!su)
            continue;
        uint32_t words[32];
        int type = ui->is_opaque ? -1 : ui->type;
        if (ui->is_opaque) {
            int32_t unit;
            memcpy(&unit, su->data, 4);
            gm_program_set_uniform(gp, u, e, 1, &unit);
            continue;
        }
        if (!gmf_uniform_words(gp, type, su, words, 32)) {
            gmf_note(ev, "uniform %s: value of another shape or 64-bit type", name);
            continue;
        }
        gm_program_set_uniform(gp, u, e, 1, words);
    }
}

void gmf_prog_upload_stage(const struct sm_context *c, const struct sm_program *sp, gm_program *gp,
                           gmf_event *ev)
{
    for (uint32_t i = 0; i < sp->n_uniform_names; i++) {
        const struct sm_name_binding *nb = &sp->uniform_names[i];
        if (nb->name && (int32_t)nb->index >= 0)
            upload_name(sp, gp, nb->name, (int32_t)nb->index, ev);
    }
    upload_legacy_matrices(c, gp);
    gmf_ff_upload(c, gp);
}

void gmf_ppo_upload(const struct sm_context *c, gmf_prog *p, gmf_event *ev)
{
    gm_program *gp[GMF_PPO_STAGES] = { p->vs, p->tcs, p->tes, p->gs, p->fs };
    for (int s = 0; s < GMF_PPO_STAGES; s++) {
        const struct sm_program *sp = p->ppo_prog[s] ? sm_get_program(c, p->ppo_prog[s]) : NULL;
        if (gp[s] && sp)
            gmf_prog_upload_stage(c, sp, gp[s], ev);
    }
}

void gmf_prog_upload_uniforms(gmf_runner *r, const struct sm_context *c,
                              const struct sm_program *sp, gmf_prog *p, gmf_event *ev)
{
    (void)r;
    if (p->ppo) {   /* each stage from its own program: gmf_pipeline.c */
        gmf_ppo_upload(c, p, ev);
        return;
    }
    gmf_prog_upload_subroutines(c, sp, p);
    if (p->spirv)
        gmf_spirv_upload_uniforms(sp, p, ev);   /* by location: gmf_spirv.c */
    for (uint32_t i = 0; sp && !p->spirv && i < sp->n_uniform_names; i++) {
        const struct sm_name_binding *nb = &sp->uniform_names[i];
        if (!nb->name || (int32_t)nb->index < 0)
            continue;
        upload_name(sp, p->vs ? p->vs : p->cs, nb->name, (int32_t)nb->index, ev);
        if (p->fs)
            upload_name(sp, p->fs, nb->name, (int32_t)nb->index, ev);
        if (p->gs)
            upload_name(sp, p->gs, nb->name, (int32_t)nb->index, ev);
        if (p->tcs)
            upload_name(sp, p->tcs, nb->name, (int32_t)nb->index, ev);
        if (p->tes)
            upload_name(sp, p->tes, nb->name, (int32_t)nb->index, ev);
    }
    /* Values set at locations the program never named cannot be placed. */
    for (uint32_t i = 0; sp && !p->spirv && i < sp->n_uniforms; i++) {
        int32_t loc = sp->uniforms[i].location;
        bool named = false;
        for (uint32_t k = 0; k < sp->n_uniform_names && !named; k++) {
            const struct sm_name_binding *nb = &sp->uniform_names[k];
            int32_t l0 = (int32_t)nb->index;
            if (l0 == loc)
                named = true;
            else if (l0 >= 0 && loc > l0 && loc < l0 + 64) {
                /* an array element after the named one */
                const char *nm = nb->name;
                const gm_program *first = p->vs ? p->vs : p->cs;
                int u = gm_program_find_uniform(first, nm);
                if (u < 0 && p->fs)
                    u = gm_program_find_uniform(p->fs, nm);
                if (u < 0 && p->gs)
                    u = gm_program_find_uniform(p->gs, nm);
                const gm_program *gp = gm_program_find_uniform(first, nm) >= 0 ? first
                                       : p->fs && gm_program_find_uniform(p->fs, nm) >= 0 ? p->fs
                                                                                        : p->gs;
                for (int s = 0; s < 2 && u < 0; s++) {   /* tessellation stages */
                    const gm_program *tp = s ? p->tes : p->tcs;
                    if (tp && (u = gm_program_find_uniform(tp, nm)) >= 0)
                        gp = tp;
                }
                if (u >= 0 && gp && loc < l0 + gm_program_uniform(gp, u)->array_size)
                    named = true;
            }
        }
        if (!named)
            gmf_note(ev, "uniform location %d set but never named with glGetUniformLocation", loc);
    }
    upload_legacy_matrices(c, p->vs);
    upload_legacy_matrices(c, p->fs);
    upload_legacy_matrices(c, p->gs);
    upload_legacy_matrices(c, p->tcs);
    upload_legacy_matrices(c, p->tes);
    /* compatibility built-ins and the generated stages' ff_* uniforms (gmf_ff_uniforms.c) */
    gmf_ff_upload(c, p->vs);
    gmf_ff_upload(c, p->fs);
    gmf_ff_upload(c, p->gs);
    gmf_ff_upload(c, p->tcs);
    gmf_ff_upload(c, p->tes);
    if (p->uses_compat_uniforms)
        gmf_note(ev, "compatibility uniform %s (not modelled)", p->compat_uniform);
}
