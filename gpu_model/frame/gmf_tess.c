/* Tessellation in the frame runner: a draw of GL_PATCHES with a tessellation evaluation
 * shader (and optionally a control shader), as llvmpipe's draw module runs it
 * (draw_tess.c), for each instance:
 *   1. the vertex shader on the draw's vertices (gmf_shade_vertices, through the timing model
 *      when it is on, like any vertex warp);
 *   2. per patch (GL_PATCH_VERTICES consecutive vertices), the TCS: one warp whose lanes are
 *      the patch's output vertices (gl_InvocationID). Its outputs (gl_out[], patch out,
 *      gl_TessLevelOuter/Inner) are decoded into the warp's shared memory (gm_decode.c), so
 *      every invocation sees the others' writes and barrier() needs nothing more than the
 *      lock-step of one warp. Without a TCS the levels are glPatchParameterfv's defaults and
 *      the TES reads the VS outputs;
 *   3. the fixed-function tessellator (gpu_model/pipeline/gm_tessellator.c) on the levels;
 *   4. the TES on the domain points, 32 per warp in the tessellator's order (gl_TessCoord:
 *      (u, v, 1 - u - v) for triangles, (u, v, 0) otherwise);
 *   5. the tessellator's primitives (triangles in its winding, isolines as lines, point_mode
 *      as points) through clipping, rasterization and the FS: a pipeline draw of a list whose
 *      "vertex shader" hands back the TES outputs, as gmf_geometry.c does for GS output.
 * With the timing model on, each TCS and TES warp is a flight of the draw's batch for its
 * stage (cycles, SMs, telemetry), waited for before the next; without it they run on the
 * executor (issues with cycle 0 and sm -1). A geometry shader after the TES runs on the
 * tessellated primitives (gmf_gs_draw_list), with gl_PrimitiveIDIn counting them per instance. */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gm_pipe_internal.h"
#include "gm_ir.h"
#include "gm_tessellator.h"

enum { BI_POSITION = 0, BI_POINT_SIZE = 1, BI_CLIP_DISTANCE = 3, BI_PRIMITIVE_ID = 7,
       BI_INVOCATION_ID = 8, BI_TESS_LEVEL_OUTER = 11, BI_TESS_LEVEL_INNER = 12,
       BI_TESS_COORD = 13, BI_PATCH_VERTICES = 14 };

/* Output vertices collected before they are drawn. */
#define GMF_TESS_FLUSH_VERTICES 16384
/* Copies from the TCS's outputs to the TES's inputs at most. */
#define GMF_TESS_MAX_COPIES 256

/* An array of gl_PerVertex (gl_in, gl_out): variable, element words, member word offsets
 * (-1: absent). */
typedef struct pv_block {
    int var, words, pos, psize, clip, n_clip, length;
} pv_block;

/* A per-vertex user input filled from the pipeline's vertex slots (element k: vertex k). */
typedef struct pv_input {
    gmf_chunk c;
    int elem_words;
} pv_input;

/* Words of the TCS's shared output memory copied into a TES input variable. */
typedef struct tes_copy {
    int src, n, dst_var, dst_off;
} tes_copy;

struct gmf_tess {
    gm_tess_domain domain;
    gm_tess_spacing spacing;
    bool cw, point_mode;
    int out_vertices;          /* TCS layout(vertices = N) */
    /* TCS */
    gm_warp *tw;
    uint32_t *shared;
    int shared_words;
    pv_block tcs_in;
    pv_input tcs_vin[GMF_MAX_VAR_CHUNKS];
    int n_tcs_vin;
    int tcs_invid, tcs_primid, tcs_pvin;
    int tcs_outer, tcs_inner;  /* shared word addresses, -1 when not written */
    /* TES */
    gm_warp *ew;
    pv_block tes_in;
    pv_input tes_vin[GMF_MAX_VAR_CHUNKS];   /* without a TCS: from the VS outputs */
    int n_tes_vin;
    tes_copy copies[GMF_TESS_MAX_COPIES];   /* with a TCS: from its outputs */
    int n_copies;
    int tes_coord, tes_outer, tes_inner, tes_pvin, tes_primid;
    int pos_var, pos_off, psize_var, psize_off, clip_var, clip_off, n_clip;
    gmf_chunk out[GMF_MAX_VAR_CHUNKS];
    int n_out;
    gm_tess_out *ts;           /* the tessellator's output for the current patch */
};

/* ---- interface ---- */

static int find_io(const gm_program *gp, int builtin, bool output)
{
    int n = output ? gm_program_output_count(gp) : gm_program_input_count(gp);
    for (int i = 0; i < n; i++) {
        int v = output ? gm_program_output_var(gp, i) : gm_program_input_var(gp, i);
        if (gm_program_var(gp, v)->builtin == builtin)
            return v;
    }
    return -1;
}

static int member_array_length(const gm_program *gp, int type, int off)
{
    gm_type_desc t, md;
    if (gm_type_get(gp, type, &t) != 0 || t.kind != GM_TYPE_STRUCT)
        return 0;
    for (int m = 0; m < t.length; m++) {
        int mt, mo;
        if (gm_type_member(gp, type, m, &mt, NULL, &mo) == 0 && mo == off &&
            gm_type_get(gp, mt, &md) == 0 && md.kind == GM_TYPE_ARRAY)
            return md.length;
    }
    return 0;
}

/* The array of gl_PerVertex among the inputs or outputs of gp (gl_in / gl_out). */
static void find_pv_block(const gm_program *gp, bool output, pv_block *b)
{
    memset(b, 0, sizeof *b);
    b->var = b->pos = b->psize = b->clip = -1;
    int n = output ? gm_program_output_count(gp) : gm_program_input_count(gp);
    for (int i = 0; i < n; i++) {
        int v = output ? gm_program_output_var(gp, i) : gm_program_input_var(gp, i);
        const gm_var_info *vi = gm_program_var(gp, v);
        gm_type_desc t, e;
        if (gm_type_get(gp, vi->type, &t) != 0 || t.kind != GM_TYPE_ARRAY ||
            gm_type_get(gp, t.element, &e) != 0 || e.kind != GM_TYPE_STRUCT)
            continue;
        bool per_vertex = false;
        pv_block c = { v, e.components, -1, -1, -1, 0, t.length };
        for (int m = 0; m < e.length; m++) {
            int mt, off;
            const char *name = NULL;
            if (gm_type_member(gp, t.element, m, &mt, &name, &off) != 0 || !name)
                continue;
            if (!strcmp(name, "gl_Position")) {
                c.pos = off;
                per_vertex = true;
            } else if (!strcmp(name, "gl_PointSize")) {
                c.psize = off;
                per_vertex = true;
            } else if (!strcmp(name, "gl_ClipDistance")) {
                c.clip = off;
                c.n_clip = member_array_length(gp, t.element, off);
                per_vertex = true;
            }
        }
        if (per_vertex || (vi->name && (!strcmp(vi->name, "gl_in") || !strcmp(vi->name, "gl_out")))) {
            *b = c;
            return;
        }
    }
}

/* Per-vertex user inputs (arrays indexed by the vertex) of gp. */
static int vertex_inputs(const gm_program *gp, const pv_block *skip, pv_input *in)
{
    int n_in = 0;
    for (int i = 0; i < gm_program_input_count(gp); i++) {
        int v = gm_program_input_var(gp, i);
        const gm_var_info *vi = gm_program_var(gp, v);
        gm_type_desc t, e;
        if (v == skip->var || vi->builtin >= 0 || vi->location < 0 ||
            gm_type_get(gp, vi->type, &t) != 0 || t.kind != GM_TYPE_ARRAY ||
            gm_type_get(gp, t.element, &e) != 0)
            continue;
        gmf_chunk ch[GMF_MAX_VAR_CHUNKS];
        int n = 0, loc = vi->location;
        if (gmf_type_chunks(gp, v, t.element, 0, &loc, vi->component, ch, &n,
                            GMF_MAX_VAR_CHUNKS) != 0)
            continue;
        for (int k = 0; k < n && n_in < GMF_MAX_VAR_CHUNKS; k++)
            in[n_in++] = (pv_input){ ch[k], e.components };
    }
    return n_in;
}

/* Execution modes of the tessellation stages (OpExecutionMode in their SPIR-V). */
static void execution_modes(const gmf_prog *p, struct gmf_tess *t)
{
    enum { OP_EXECUTION_MODE = 16, EM_SPACING_EQUAL = 1, EM_SPACING_EVEN = 2,
           EM_SPACING_ODD = 3, EM_VERTEX_ORDER_CW = 4, EM_VERTEX_ORDER_CCW = 5,
           EM_POINT_MODE = 10, EM_TRIANGLES = 22, EM_QUADS = 24, EM_ISOLINES = 25,
           EM_OUTPUT_VERTICES = 26 };
    t->domain = GM_TESS_TRIANGLES;
    t->spacing = GM_TESS_EQUAL;
    t->cw = false;
    t->point_mode = false;
    t->out_vertices = 0;
    /* the TCS first: a mode the TES declares too wins */
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < p->cr.shader_count; s++) {
            const gm_compiled_shader *cs = &p->cr.shaders[s];
            if (cs->stage != (pass ? GM_STAGE_TESS_EVALUATION : GM_STAGE_TESS_CONTROL))
                continue;
            const uint32_t *w = cs->spirv;
            for (size_t i = 5; w && i < cs->word_count;) {
                uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
                if (len == 0 || i + len > cs->word_count)
                    break;
                if (op == OP_EXECUTION_MODE && len >= 3) {
                    uint32_t lit = len >= 4 ? w[i + 3] : 0;
                    switch (w[i + 2]) {
                    case EM_SPACING_EQUAL: t->spacing = GM_TESS_EQUAL; break;
                    case EM_SPACING_EVEN: t->spacing = GM_TESS_FRACTIONAL_EVEN; break;
                    case EM_SPACING_ODD: t->spacing = GM_TESS_FRACTIONAL_ODD; break;
                    case EM_VERTEX_ORDER_CW: t->cw = true; break;
                    case EM_VERTEX_ORDER_CCW: t->cw = false; break;
                    case EM_POINT_MODE: t->point_mode = true; break;
                    case EM_TRIANGLES: t->domain = GM_TESS_TRIANGLES; break;
                    case EM_QUADS: t->domain = GM_TESS_QUADS; break;
                    case EM_ISOLINES: t->domain = GM_TESS_ISOLINES; break;
                    case EM_OUTPUT_VERTICES: t->out_vertices = (int)lit; break;
                    default: break;
                    }
                }
                i += len;
            }
        }
    if (t->out_vertices > 32)
        t->out_vertices = 32;
}

static const char *struct_name(const gm_program *gp, int type)
{
    gm_type_desc t;
    if (gm_type_get(gp, type, &t) != 0)
        return NULL;
    if (t.kind == GM_TYPE_ARRAY && gm_type_get(gp, t.element, &t) != 0)
        return NULL;
    return t.kind == GM_TYPE_STRUCT && t.name && *t.name ? t.name : NULL;
}

/* The TCS output feeding TES input vi: same name, same block name, else same location. */
static int tcs_output_for(const gm_program *tcs, const gm_program *tes, const gm_var_info *vi)
{
    int by_loc = -1;
    const char *bn = struct_name(tes, vi->type);
    for (int i = 0; i < gm_program_output_count(tcs); i++) {
        int v = gm_program_output_var(tcs, i);
        const gm_var_info *vo = gm_program_var(tcs, v);
        if (vo->builtin >= 0)
            continue;
        if (vo->name && vi->name && *vi->name && !strcmp(vo->name, vi->name))
            return v;
        const char *on = struct_name(tcs, vo->type);
        if (bn && on && !strcmp(bn, on))
            return v;
        if (by_loc < 0 && vo->location >= 0 && vo->location == vi->location &&
            vo->component == vi->component)
            by_loc = v;
    }
    return by_loc;
}

static void add_copy(struct gmf_tess *t, int src, int n, int dst_var, int dst_off)
{
    if (n > 0 && src >= 0 && t->n_copies < GMF_TESS_MAX_COPIES)
        t->copies[t->n_copies++] = (tes_copy){ src, n, dst_var, dst_off };
}

/* TCS outputs (shared words) -> TES inputs (registers), computed once per program. */
static void build_copies(const gmf_prog *p, struct gmf_tess *t)
{
    const gm_program *tcs = p->tcs, *tes = p->tes;
    /* gl_out[] -> gl_in[]: member by member (the blocks may declare different members) */
    pv_block out;
    find_pv_block(tcs, true, &out);
    if (out.var >= 0 && t->tes_in.var >= 0) {
        int base = tcs->vars[out.var].addr;
        int nv = out.length < t->tes_in.length ? out.length : t->tes_in.length;
        for (int k = 0; k < nv; k++) {
            int s = base + k * out.words, dd = k * t->tes_in.words;
            if (out.pos >= 0 && t->tes_in.pos >= 0)
                add_copy(t, s + out.pos, 4, t->tes_in.var, dd + t->tes_in.pos);
            if (out.psize >= 0 && t->tes_in.psize >= 0)
                add_copy(t, s + out.psize, 1, t->tes_in.var, dd + t->tes_in.psize);
            if (out.clip >= 0 && t->tes_in.clip >= 0) {
                int nc = out.n_clip < t->tes_in.n_clip ? out.n_clip : t->tes_in.n_clip;
                add_copy(t, s + out.clip, nc, t->tes_in.var, dd + t->tes_in.clip);
            }
        }
    }
    /* user inputs, per-vertex arrays and patch variables alike: the same layout on both
     * sides when the types agree (an unsized TES array is the longer one) */
    for (int i = 0; i < gm_program_input_count(tes); i++) {
        int v = gm_program_input_var(tes, i);
        const gm_var_info *vi = gm_program_var(tes, v);
        if (v == t->tes_in.var || vi->builtin >= 0)
            continue;
        int o = tcs_output_for(tcs, tes, vi);
        if (o < 0 || o == out.var)
            continue;
        int n = tcs->vars[o].ncomp < tes->vars[v].ncomp ? tcs->vars[o].ncomp : tes->vars[v].ncomp;
        add_copy(t, tcs->vars[o].addr, n, v, 0);
    }
}

void gmf_tess_build(gmf_prog *p)
{
    struct gmf_tess *t = calloc(1, sizeof *t);
    if (!t)
        return;
    t->ts = malloc(sizeof *t->ts);
    if (!t->ts) {
        free(t);
        return;
    }
    p->tessx = t;
    const gm_program *tes = p->tes;
    execution_modes(p, t);
    find_pv_block(tes, false, &t->tes_in);
    t->tes_coord = find_io(tes, BI_TESS_COORD, false);
    t->tes_outer = find_io(tes, BI_TESS_LEVEL_OUTER, false);
    t->tes_inner = find_io(tes, BI_TESS_LEVEL_INNER, false);
    t->tes_pvin = find_io(tes, BI_PATCH_VERTICES, false);
    t->tes_primid = find_io(tes, BI_PRIMITIVE_ID, false);
    t->tcs_outer = t->tcs_inner = -1;
    if (p->tcs) {
        const gm_program *tcs = p->tcs;
        find_pv_block(tcs, false, &t->tcs_in);
        t->n_tcs_vin = vertex_inputs(tcs, &t->tcs_in, t->tcs_vin);
        t->tcs_invid = find_io(tcs, BI_INVOCATION_ID, false);
        t->tcs_primid = find_io(tcs, BI_PRIMITIVE_ID, false);
        t->tcs_pvin = find_io(tcs, BI_PATCH_VERTICES, false);
        int v = find_io(tcs, BI_TESS_LEVEL_OUTER, true);
        if (v >= 0 && tcs->vars[v].space == GM_SPACE_SHARED)
            t->tcs_outer = tcs->vars[v].addr;
        v = find_io(tcs, BI_TESS_LEVEL_INNER, true);
        if (v >= 0 && tcs->vars[v].space == GM_SPACE_SHARED)
            t->tcs_inner = tcs->vars[v].addr;
        t->shared_words = gm_program_shared_words(tcs);
        t->shared = calloc((size_t)(t->shared_words > 0 ? t->shared_words : 1), sizeof *t->shared);
        build_copies(p, t);
        /* VS outputs into the TCS's input slots */
        p->n_vs_out = gmf_gs_relink(p->vs, tcs, p->vs_out, p->n_vs_out);
        t->tw = gm_warp_create(p->tcs, 1100);
    } else {
        t->n_tes_vin = vertex_inputs(tes, &t->tes_in, t->tes_vin);
        p->n_vs_out = gmf_gs_relink(p->vs, tes, p->vs_out, p->n_vs_out);
    }
    /* gl_Position & co. of the TES's output block */
    if (gm_program_find_builtin(tes, BI_POSITION, &t->pos_var, &t->pos_off) != 0 ||
        gm_program_var(tes, t->pos_var)->klass != GM_VAR_OUTPUT)
        t->pos_var = -1;
    if (gm_program_find_builtin(tes, BI_POINT_SIZE, &t->psize_var, &t->psize_off) != 0 ||
        gm_program_var(tes, t->psize_var)->klass != GM_VAR_OUTPUT)
        t->psize_var = -1;
    if (gm_program_find_builtin(tes, BI_CLIP_DISTANCE, &t->clip_var, &t->clip_off) != 0 ||
        gm_program_var(tes, t->clip_var)->klass != GM_VAR_OUTPUT)
        t->clip_var = -1;
    if (t->clip_var >= 0) {
        t->n_clip = member_array_length(tes, gm_program_var(tes, t->clip_var)->type, t->clip_off);
        if (t->n_clip > GM_PIPE_MAX_CLIP_DIST)
            t->n_clip = GM_PIPE_MAX_CLIP_DIST;
    }
    /* TES outputs into the GS's input slots, or the FS's */
    const gm_program *next = p->gs ? p->gs : p->fs;
    for (int i = 0; next && i < gm_program_output_count(tes); i++) {
        int v = gm_program_output_var(tes, i);
        const gm_var_info *vi = gm_program_var(tes, v);
        if (vi->builtin >= 0 || vi->location < 0)
            continue;
        int loc = vi->location;
        gmf_type_chunks(tes, v, vi->type, 0, &loc, vi->component, t->out, &t->n_out,
                        GMF_MAX_VAR_CHUNKS);
    }
    if (next)
        t->n_out = gmf_gs_relink(tes, next, t->out, t->n_out);
    t->ew = gm_warp_create(p->tes, 1200);
    if (!t->ew || (p->tcs && (!t->tw || !t->shared))) {
        gmf_tess_free(p);
        return;
    }
    if (t->tw)
        gm_warp_set_shared(t->tw, t->shared, (uint32_t)t->shared_words);
}

void gmf_tess_finish(gmf_prog *p)
{
    struct gmf_tess *t = p->tessx;
    if (!t)
        return;
    int max_slot = -1;
    for (int i = 0; i < p->n_fs_in; i++)
        if (p->fs_in[i].location > max_slot && p->fs_in[i].location < GM_PIPE_MAX_VARYINGS)
            max_slot = p->fs_in[i].location;
    for (int i = 0; i < t->n_out; i++)
        if (t->out[i].location > max_slot && t->out[i].location < GM_PIPE_MAX_VARYINGS)
            max_slot = t->out[i].location;
    p->info.num_varyings = max_slot + 1;
    /* the FS's gl_PrimitiveID after tessellation is the patch's: a hidden flat varying, as
     * for a GS's (gmf_shade.c reads it) */
    p->primid_slot = -1;
    if (p->fs && p->primid_var >= 0 && p->info.num_varyings < GM_PIPE_MAX_VARYINGS) {
        p->primid_slot = p->info.num_varyings++;
        p->info.interp[p->primid_slot] = GM_INTERP_FLAT;
        p->info.loc[p->primid_slot] = GM_LOC_CENTER;
    }
    p->info.num_clip_dist = t->n_clip;
    /* no gl_ClipDistance: user clip planes against its gl_ClipVertex (the upgrade's
     * glr_tes_ClipVertex) or gl_Position, as for a GS (gmf_user_clip.c) */
    /* (glslang's SPIR-V has gl_ClipDistance[1] in gl_PerVertex whenever gl_Position is written:
     * only the source says whether the TES writes it) */
    p->user_clip = t->n_clip == 0 ||
                   !gmf_stage_source_names(p, GM_STAGE_TESS_EVALUATION, "gl_ClipDistance");
    p->clipv_var = gm_program_find_var(p->tes, "glr_tes_ClipVertex", GM_VAR_OUTPUT);
    if (p->user_clip)
        p->info.num_clip_dist = GM_PIPE_MAX_CLIP_DIST;
    p->info.vs_writes_point_size = t->psize_var >= 0;
    /* llvmpipe's draw module transforms TES output to the viewport after the shader, in
     * separate multiplies and adds, as for GS output */
    p->info.viewport_unfused = true;
}

void gmf_tess_free(gmf_prog *p)
{
    if (p->tessx) {
        gm_warp_destroy(p->tessx->tw);
        gm_warp_destroy(p->tessx->ew);
        free(p->tessx->shared);
        free(p->tessx->ts);
        free(p->tessx);
        p->tessx = NULL;
    }
    gm_program_destroy(p->tcs);
    gm_program_destroy(p->tes);
    p->tcs = p->tes = NULL;
}

/* ---- draw ---- */

typedef struct tess_run {
    gmf_draw_ctx *d;
    struct gmf_tess *t;
    gm_pipe_vertex *outv;      /* the pipeline's list of output primitives */
    int n_outv, cap_outv;
    gm_pipe_vertex *dom;       /* TES outputs of the current patch, per domain point */
    int cap_dom;
    bool oom;
    gmf_flight flight;         /* timing model: the warp in flight */
    int32_t prims_drawn;       /* primitives of the instance sent on (a GS's gl_PrimitiveIDIn) */
} tess_run;

static bool grow(void **p, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return true;
    int c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *np = realloc(*p, (size_t)c * elem);
    if (!np)
        return false;
    *p = np;
    *cap = c;
    return true;
}

static inline void put_u(uint32_t (*v)[GM_LANES], int word, int l, const void *src)
{
    memcpy(&v[word][l], src, 4);
}

/* gl_in[] and the per-vertex user inputs of lane l from the patch's shaded vertices. */
static void vertices_in(gm_warp *w, int l, const pv_block *b, const pv_input *in, int n_in,
                        const gm_pipe_vertex *const *verts, int nv)
{
    if (b->var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, b->var);
        for (int k = 0; v && k < nv && k < b->length; k++) {
            int base = k * b->words;
            if (b->pos >= 0)
                for (int c = 0; c < 4; c++)
                    put_u(v, base + b->pos + c, l, &verts[k]->pos[c]);
            if (b->psize >= 0)
                put_u(v, base + b->psize, l, &verts[k]->point_size);
            for (int c = 0; b->clip >= 0 && c < b->n_clip && c < GM_PIPE_MAX_CLIP_DIST; c++)
                put_u(v, base + b->clip + c, l, &verts[k]->clip_dist[c]);
        }
    }
    for (int i = 0; i < n_in; i++) {
        const pv_input *pi = &in[i];
        if (pi->c.location < 0 || pi->c.location >= GM_PIPE_MAX_VARYINGS)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, pi->c.var);
        if (!v)
            continue;
        gm_type_desc td;
        int len = gm_type_get(gm_warp_program(w), gm_program_var(gm_warp_program(w), pi->c.var)->type,
                              &td) == 0 && td.kind == GM_TYPE_ARRAY ? td.length : nv;
        for (int k = 0; k < nv && k < len; k++)
            for (int c = 0; c < pi->c.n && pi->c.comp + c < 4; c++)
                put_u(v, k * pi->elem_words + pi->c.word + c, l,
                      &verts[k]->var[pi->c.location][pi->c.comp + c]);
    }
}

static void put_scalar(gm_warp *w, int var, int word, int l, const void *src)
{
    uint32_t (*v)[GM_LANES] = var >= 0 ? gm_warp_var_lanes(w, var) : NULL;
    if (v)
        put_u(v, word, l, src);
}

/* Runs warp w to its end with the observer (stage st): 0, or -1 (noted, or stopped). Under the
 * timing model the warp is one flight of the draw's batch for its stage (issued with cycles
 * and SMs like any warp, seen by telemetry), waited for at once: a patch's TES needs its TCS,
 * and the output order is the executor path's. */
static int run_warp(tess_run *run, gm_warp *w, gm_stage st, uint64_t *serial,
                    const int32_t *lane_x, const int32_t *lane_y)
{
    gmf_draw_ctx *d = run->d;
    gmf_runner *r = d->r;
    const gm_program *gp = gm_warp_program(w);
    if (r->tm) {
        gmf_flight *f = &run->flight;
        memcpy(f->lane_x, lane_x, sizeof f->lane_x);
        memcpy(f->lane_y, lane_y, sizeof f->lane_y);
        if (gmf_timing_submit_tess(d, f, w, st, (*serial)++) != 0)
            return -1;
        return gmf_timing_wait(d, f, st == GM_STAGE_TESS_CONTROL ? "tessellation control"
                                                                  : "tessellation evaluation");
    }
    if (r->obs) {
        gmf_issue *i = &r->cur_issue;
        i->draw = d->ev->draw;
        i->stage = st;
        i->warp = *serial;
        i->frame_warp = r->frame_warps;
        i->program = d->p->name;
        i->file = gm_program_pc_count(gp) > 0 ? gm_program_pc_file(gp, 0) : NULL;
        i->cycle = 0;
        i->sm = -1;
        i->lane_x = lane_x;
        i->lane_y = lane_y;
    }
    (*serial)++;
    r->frame_warps++;
    gm_warp_set_observer(w, r->obs ? gmf_executor_observe : NULL, r->obs ? r : NULL);
    int rc = 0;
    for (;;) {
        gm_run_status s = gm_warp_run(w, 0);
        if (s == GM_RUN_DONE)
            break;
        if (s == GM_RUN_ERROR) {
            gmf_note(d->ev, "tessellation %s shader runtime error: %s",
                     st == GM_STAGE_TESS_CONTROL ? "control" : "evaluation", gm_warp_error(w));
            d->failed = true;
            rc = -1;
            break;
        }
        if (r->stopped) {
            rc = -1;
            break;
        }
    }
    r->cur_issue.lane_x = r->cur_issue.lane_y = NULL;
    return rc;
}

static void read_levels(const struct gmf_tess *t, float outer[4], float inner[2])
{
    if (t->tcs_outer >= 0 && t->tcs_outer + 4 <= t->shared_words)
        memcpy(outer, &t->shared[t->tcs_outer], 4 * sizeof *outer);
    else
        memset(outer, 0, 4 * sizeof *outer);
    if (t->tcs_inner >= 0 && t->tcs_inner + 2 <= t->shared_words)
        memcpy(inner, &t->shared[t->tcs_inner], 2 * sizeof *inner);
    else
        memset(inner, 0, 2 * sizeof *inner);
}

/* The TCS on one patch: its output vertices as lanes; outputs land in t->shared. */
static int run_tcs(tess_run *run, const gm_pipe_vertex *const *verts, int nv, int32_t prim)
{
    struct gmf_tess *t = run->t;
    gm_warp *w = t->tw;
    int lanes = t->out_vertices > 0 ? t->out_vertices : 1;
    memset(t->shared, 0, sizeof *t->shared * (size_t)t->shared_words);
    gm_warp_begin(w, lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1u), 0);
    int32_t lane_x[GM_LANES], lane_y[GM_LANES];
    for (int l = 0; l < GM_LANES; l++) {
        lane_x[l] = prim;
        lane_y[l] = l;
    }
    for (int l = 0; l < lanes; l++) {
        vertices_in(w, l, &t->tcs_in, t->tcs_vin, t->n_tcs_vin, verts, nv);
        int32_t inv = l, pv = nv;
        put_scalar(w, t->tcs_invid, 0, l, &inv);
        put_scalar(w, t->tcs_primid, 0, l, &prim);
        put_scalar(w, t->tcs_pvin, 0, l, &pv);
    }
    return run_warp(run, w, GM_STAGE_TESS_CONTROL, &run->d->tcs_warps, lane_x, lane_y);
}

/* TES outputs of lane l into the pipeline vertex o (d: the draw, for user clip planes when the
 * TES is the last vertex stage). */
static void tes_outputs(const gmf_draw_ctx *d, const struct gmf_tess *t, gm_warp *w, int l,
                        gm_pipe_vertex *o)
{
    memset(o, 0, sizeof *o);
    if (t->pos_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, t->pos_var);
        for (int k = 0; v && k < 4; k++)
            memcpy(&o->pos[k], &v[t->pos_off + k][l], 4);
    }
    if (t->psize_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, t->psize_var);
        if (v)
            memcpy(&o->point_size, &v[t->psize_off][l], 4);
    }
    if (t->clip_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, t->clip_var);
        for (int k = 0; v && k < t->n_clip; k++)
            memcpy(&o->clip_dist[k], &v[t->clip_off + k][l], 4);
    }
    for (int c = 0; c < t->n_out; c++) {
        const gmf_chunk *ch = &t->out[c];
        if (ch->location < 0 || ch->location >= GM_PIPE_MAX_VARYINGS)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, ch->var);
        for (int k = 0; v && k < ch->n && ch->comp + k < 4; k++)
            memcpy(&o->var[ch->location][ch->comp + k], &v[ch->word + k][l], 4);
    }
    const gmf_prog *p = d->p;
    if (p->user_clip && !p->gs) {   /* gmf_user_clip.c */
        float cv[4];
        uint32_t (*v)[GM_LANES] = p->clipv_var >= 0 ? gm_warp_var_lanes(w, p->clipv_var) : NULL;
        for (int k = 0; v && k < 4; k++)
            memcpy(&cv[k], &v[k][l], 4);
        gmf_user_clip_dist(d, v ? cv : o->pos, o->clip_dist);
    }
}

/* The TES on every domain point of the patch (t->ts), outputs into run->dom. */
static int run_tes(tess_run *run, const gm_pipe_vertex *const *verts, int nv, int32_t prim,
                   const float outer[4], const float inner[2])
{
    struct gmf_tess *t = run->t;
    const gm_tess_out *ts = t->ts;
    gm_warp *w = t->ew;
    if (!grow((void **)&run->dom, &run->cap_dom, ts->n_points, sizeof *run->dom)) {
        run->oom = true;
        return 0;
    }
    int32_t pv = run->d->p->tcs ? t->out_vertices : nv;
    for (int first = 0; first < ts->n_points; first += GM_LANES) {
        int lanes = ts->n_points - first < GM_LANES ? ts->n_points - first : GM_LANES;
        gm_warp_begin(w, lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1u), 0);
        int32_t lane_x[GM_LANES], lane_y[GM_LANES];
        for (int l = 0; l < GM_LANES; l++) {
            lane_x[l] = prim;
            lane_y[l] = first + l;
        }
        for (int l = 0; l < lanes; l++) {
            int i = first + l;
            if (run->d->p->tcs) {
                for (int c = 0; c < t->n_copies; c++) {
                    const tes_copy *cp = &t->copies[c];
                    uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, cp->dst_var);
                    for (int k = 0; v && k < cp->n && cp->src + k < t->shared_words; k++)
                        v[cp->dst_off + k][l] = t->shared[cp->src + k];
                }
            } else {
                vertices_in(w, l, &t->tes_in, t->tes_vin, t->n_tes_vin, verts, nv);
            }
            float coord[3] = { ts->u[i], ts->v[i], 0.0f };
            if (t->domain == GM_TESS_TRIANGLES)
                coord[2] = 1.0f - ts->u[i] - ts->v[i];
            for (int k = 0; k < 3; k++)
                put_scalar(w, t->tes_coord, k, l, &coord[k]);
            for (int k = 0; k < 4; k++)
                put_scalar(w, t->tes_outer, k, l, &outer[k]);
            for (int k = 0; k < 2; k++)
                put_scalar(w, t->tes_inner, k, l, &inner[k]);
            put_scalar(w, t->tes_pvin, 0, l, &pv);
            put_scalar(w, t->tes_primid, 0, l, &prim);
        }
        if (run_warp(run, w, GM_STAGE_TESS_EVALUATION, &run->d->tes_warps, lane_x, lane_y) != 0)
            return -1;
        for (int l = 0; l < lanes; l++) {
            tes_outputs(run->d, t, w, l, &run->dom[first + l]);
            if (run->d->p->primid_slot >= 0)
                memcpy(&run->dom[first + l].var[run->d->p->primid_slot][0], &prim, 4);
        }
    }
    return 0;
}

/* Vertex "shader" of the output pass: the stored TES output vertices by id. */
static int replay_vs(void *user, const int32_t *vertex_id, int count, int32_t instance_id,
                     gm_pipe_vertex *out)
{
    tess_run *run = user;
    (void)instance_id;
    if (!vertex_id)
        return 1;   /* nothing is ever queued */
    for (int l = 0; l < count; l++)
        out[l] = run->outv[vertex_id[l]];
    return 0;
}

/* The primitives collected so far through the rest of the pipeline. */
static int draw_outputs(tess_run *run)
{
    gm_pipe_context *ctx = &run->d->r->pipe;
    int rc = 0;
    gm_tess_prim prim = run->t->ts->prim;
    uint32_t mode = prim == GM_TESS_OUT_POINTS ? GL_POINTS
                    : prim == GM_TESS_OUT_LINES ? GL_LINES : GL_TRIANGLES;
    int per = prim == GM_TESS_OUT_POINTS ? 1 : prim == GM_TESS_OUT_LINES ? 2 : 3;
    if (run->n_outv > 0 && run->d->p->gs) {
        /* a geometry shader on the tessellated primitives (gmf_geometry.c) */
        rc = gmf_gs_draw_list(run->d, run->outv, run->n_outv, mode, run->prims_drawn);
        run->prims_drawn += run->n_outv / per;
        run->n_outv = 0;
        return rc;
    }
    run->prims_drawn += run->n_outv / per;
    if (run->n_outv > 0) {
        gm_pipe_draw od;
        memset(&od, 0, sizeof od);
        od.mode = mode;
        od.count = run->n_outv;
        od.instance_count = 1;
        gm_pipe_vs_fn vs = ctx->vs;
        void *vs_user = ctx->vs_user;
        uint64_t vs_inv = ctx->stats.vs_invocations;   /* count only the real VS's */
        ctx->vs = replay_vs;
        ctx->vs_user = run;
        rc = gm_pipe_draw_exec(ctx, &od);
        ctx->vs = vs;
        ctx->vs_user = vs_user;
        ctx->stats.vs_invocations = vs_inv;
    }
    run->n_outv = 0;
    return rc;
}

/* The patch's primitives (the tessellator's index list) appended to the output list. */
static void patch_primitives(tess_run *run)
{
    const gm_tess_out *ts = run->t->ts;
    if (!grow((void **)&run->outv, &run->cap_outv, run->n_outv + ts->n_indices,
              sizeof *run->outv)) {
        run->oom = true;
        return;
    }
    for (int k = 0; k < ts->n_indices; k++) {
        int i = ts->idx[k];
        if (i < 0 || i >= ts->n_points)
            continue;   /* never produced by the tessellator; kept safe */
        run->outv[run->n_outv++] = run->dom[i];
    }
}

int gmf_tess_draw(gmf_draw_ctx *d, const gm_pipe_draw *pd)
{
    gmf_runner *r = d->r;
    gmf_prog *p = d->p;
    struct gmf_tess *t = p->tessx;
    gm_pipe_context *ctx = &r->pipe;
    if (!t) {
        snprintf(ctx->error, sizeof ctx->error, "tessellation tables missing");
        return -1;
    }
    if (pd->mode != GL_PATCHES) {
        gmf_note(d->ev, "draw mode 0x%x with tessellation shaders (GL_INVALID_OPERATION, "
                 "nothing drawn)", pd->mode);
        return 0;
    }
    int pv = d->st->patch_vertices > 0 ? d->st->patch_vertices : 3;
    if (pv > 32)
        pv = 32;
    int n = pd->count, n_patches = n / pv;
    if (n_patches <= 0 || pd->instance_count <= 0)
        return 0;
    if (t->tw)
        gm_warp_set_env(t->tw, &d->env[0]);
    gm_warp_set_env(t->ew, &d->env[0]);
    n = n_patches * pv;
    int32_t *ids = malloc(sizeof *ids * (size_t)n);
    gm_pipe_vertex *shaded = malloc(sizeof *shaded * (size_t)n);
    tess_run run = { .d = d, .t = t };
    int rc = 0;
    if (!ids || !shaded) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (pd->indices) {
            const uint8_t *ip = pd->indices;
            size_t at = (size_t)pd->first + (size_t)i;
            uint32_t idx;
            if (pd->index_type == GL_UNSIGNED_BYTE) {
                idx = ip[at];
            } else if (pd->index_type == GL_UNSIGNED_SHORT) {
                uint16_t s;
                memcpy(&s, ip + 2 * at, 2);
                idx = s;
            } else {
                memcpy(&idx, ip + 4 * at, 4);
            }
            ids[i] = (int32_t)(idx + (uint32_t)pd->base_vertex);
        } else {
            ids[i] = pd->first + i;
        }
    }
    float def_outer[4], def_inner[2];
    memcpy(def_outer, d->st->patch_outer, sizeof def_outer);
    memcpy(def_inner, d->st->patch_inner, sizeof def_inner);
    for (int inst = 0; inst < pd->instance_count && rc == 0; inst++) {
        if (gmf_shade_vertices(d, ids, n, inst, shaded) != 0) {
            snprintf(ctx->error, sizeof ctx->error, "vertex shader aborted the draw");
            rc = -1;
            break;
        }
        for (int patch = 0; patch < n_patches && rc == 0; patch++) {
            const gm_pipe_vertex *verts[32];
            for (int k = 0; k < pv; k++)
                verts[k] = &shaded[patch * pv + k];
            float outer[4], inner[2];
            if (p->tcs) {
                if (run_tcs(&run, verts, pv, patch) != 0) {
                    rc = -1;
                    break;
                }
                read_levels(t, outer, inner);
            } else {
                memcpy(outer, def_outer, sizeof outer);
                memcpy(inner, def_inner, sizeof inner);
            }
            gm_tessellate(t->ts, t->domain, t->spacing, t->cw, t->point_mode, outer, inner);
            if (t->ts->n_points == 0)
                continue;   /* culled patch */
            if (run_tes(&run, verts, pv, patch, outer, inner) != 0) {
                rc = -1;
                break;
            }
            patch_primitives(&run);
            if (run.oom)
                break;
            if (run.n_outv >= GMF_TESS_FLUSH_VERTICES)
                rc = draw_outputs(&run);
        }
        if (rc == 0 && !run.oom)
            rc = draw_outputs(&run);
        run.prims_drawn = 0;
        if (run.oom)
            break;
    }
    if (run.oom && rc == 0) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
    }
done:
    free(ids);
    free(shaded);
    free(run.outv);
    free(run.dom);
    return rc;
}
