/* Geometry shaders in the frame runner.
 *
 * A draw with a geometry shader runs in three steps, for each instance:
 *   1. the vertex shader on the draw's unique vertices (gmf_vs_cb: through the timing model
 *      when it is on, like any vertex warp);
 *   2. primitive assembly into the GS's input primitives (adjacency included, primitive
 *      restart splitting segments), then GS warps, one lane per (input primitive,
 *      invocation), scheduled by the timing model in the draw's geometry batch when it is on
 *      (a window of warps in flight, completed oldest first: run_gs_timed), else run by the
 *      executor. EmitVertex / EndPrimitive reach gmf_geometry through the executor's emit
 *      hook (gm_warp_set_gs_emit), which copies the emitting lanes' outputs into the warp's
 *      per-lane strips;
 *   3. the output strips, in llvmpipe's order (input primitives in order, each with its
 *      invocations in order; a lane's primitives in emission order), are
 *      turned into a list of points, lines or triangles with the pipeline's own strip
 *      decomposition (so provoking vertices and winding are those of a strip) and drawn by
 *      the pipeline with a vertex "shader" that hands back the stored vertices.
 * The FS's gl_PrimitiveID is the GS's gl_PrimitiveID output, carried in a hidden flat varying
 * (p->primid_slot). gl_Layer / gl_ViewportIndex (per emitted vertex; a primitive takes its
 * provoking vertex's) select the layer of a layered framebuffer and the viewport: the output
 * list is drawn in runs of one layer and viewport, in order.
 * After tessellation (gmf_tess.c) the GS runs on the TES's output primitives (gmf_gs_draw_list). */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gm_pipe_internal.h"
#include "gm_ir.h"

/* Output vertices collected before they are drawn (a gm_pipe_vertex is about 0.5 KiB). */
#define GMF_GS_FLUSH_VERTICES 16384

enum { BI_POSITION = 0, BI_POINT_SIZE = 1, BI_CLIP_DISTANCE = 3, BI_PRIMITIVE_ID = 7,
       BI_INVOCATION_ID = 8, BI_LAYER = 9, BI_VIEWPORT_INDEX = 10 };

/* A per-vertex GS input: chunk of element 0 (location = the VS output slot it reads) and the
 * words of one element (vertex k's words start at k * elem_words). */
typedef struct gs_input {
    gmf_chunk c;
    int elem_words;
} gs_input;

/* A vertex's gl_Layer and gl_ViewportIndex (0 when the GS does not write them). */
typedef struct gs_sel {
    int32_t layer, viewport;
} gs_sel;

/* One lane's emitted vertices; cut[i]: a strip ends after vertex i; sel[i]: its layer and
 * viewport. */
typedef struct gs_lane_out {
    gm_pipe_vertex *v;
    uint8_t *cut;
    gs_sel *sel;
    int n, cap, cap_cut, cap_sel;
} gs_lane_out;

struct gs_run;

/* Where a warp's EmitVertex / EndPrimitive go (the emit hook's context): its draw and its
 * lanes' strips. */
typedef struct gs_sink {
    struct gs_run *run;
    gs_lane_out *lane;
} gs_sink;

/* Timing model: one GS warp in flight (its own warp, flight and strips: warps in flight
 * emit interleaved, their strips are drawn in submission order when each completes). */
typedef struct gs_slot {
    gm_warp *w;
    gmf_flight f;
    gs_lane_out lane[GM_LANES];
    gs_sink sink;
    int lanes;
} gs_slot;

/* GS warps in flight at most (and fewer for large max_vertices: about GMF_GS_WINDOW_VERTICES
 * output vertices buffered in flight). */
#define GMF_GS_MAX_FLIGHTS 64
#define GMF_GS_WINDOW_VERTICES 65536

struct gmf_gs {
    uint32_t in_mode;         /* GL_POINTS, GL_LINES, GL_LINES_ADJACENCY, GL_TRIANGLES, ... */
    int in_verts;
    uint32_t out_mode;        /* GL_POINTS, GL_LINE_STRIP, GL_TRIANGLE_STRIP */
    int max_vertices, invocations;
    /* gl_in[]: element words and member offsets (-1: absent) */
    int glin_var, glin_words, glin_pos, glin_psize, glin_clip, glin_n_clip;
    gs_input in[GMF_MAX_VAR_CHUNKS];
    int n_in;
    int primid_in_var, invid_var;
    /* outputs */
    int pos_var, pos_off, psize_var, psize_off, clip_var, clip_off, n_clip;
    int layer_var, vpi_var, primid_var;
    gmf_chunk out[GMF_MAX_VAR_CHUNKS];   /* locations in FS input space */
    int n_out;
    gm_warp *w;
    gs_lane_out lane[GM_LANES];
    gs_slot *slots;           /* timing model window (allocated on first use) */
    int n_slots;
};

static void free_lanes(gs_lane_out *lane)
{
    for (int l = 0; l < GM_LANES; l++) {
        free(lane[l].v);
        free(lane[l].cut);
        free(lane[l].sel);
    }
}

void gmf_gs_free(gmf_prog *p)
{
    if (p->gsx) {
        gm_warp_destroy(p->gsx->w);
        free_lanes(p->gsx->lane);
        for (int k = 0; k < p->gsx->n_slots; k++) {
            gm_warp_destroy(p->gsx->slots[k].w);
            free_lanes(p->gsx->slots[k].lane);
        }
        free(p->gsx->slots);
        free(p->gsx);
        p->gsx = NULL;
    }
    gm_program_destroy(p->gs);
    p->gs = NULL;
}

/* ---- interface ---- */

/* The struct type name of a variable (or of its array element): interface blocks match
 * by block name across stages, their instance names may differ. */
static const char *block_name(const gm_program *gp, int type)
{
    gm_type_desc t;
    if (gm_type_get(gp, type, &t) != 0)
        return NULL;
    if (t.kind == GM_TYPE_ARRAY && gm_type_get(gp, t.element, &t) != 0)
        return NULL;
    return t.kind == GM_TYPE_STRUCT && t.name && *t.name ? t.name : NULL;
}

static bool same_interface(const gm_program *a, const gm_var_info *va, const gm_program *b,
                           const gm_var_info *vb)
{
    if (va->name && vb->name && *va->name && !strcmp(va->name, vb->name))
        return true;
    const char *na = block_name(a, va->type), *nb = block_name(b, vb->type);
    return na && nb && !strcmp(na, nb);
}

/* The user input of `consumer` matching output variable vo of `producer`, or -1. */
static int input_matching(const gm_program *consumer, const gm_program *producer,
                          const gm_var_info *vo)
{
    for (int i = 0; i < gm_program_input_count(consumer); i++) {
        int v = gm_program_input_var(consumer, i);
        const gm_var_info *vi = gm_program_var(consumer, v);
        if (vi->builtin < 0 && vi->location >= 0 && same_interface(producer, vo, consumer, vi))
            return v;
    }
    return -1;
}

static bool output_matching(const gm_program *producer, const gm_program *consumer,
                            const gm_var_info *vi)
{
    for (int i = 0; i < gm_program_output_count(producer); i++) {
        const gm_var_info *vo = gm_program_var(producer, gm_program_output_var(producer, i));
        if (vo->builtin < 0 && vo->location >= 0 && same_interface(producer, vo, consumer, vi))
            return true;
    }
    return false;
}

/* GL's name matching between two stages (as link_varyings in gmf_program.c): each output
 * chunk moves to the location of the consumer input of the same name; one without a
 * namesake keeps its location only when the consumer's input there has no namesake either;
 * the rest are dropped. */
static int relink(const gm_program *producer, const gm_program *consumer, gmf_chunk *ch, int n)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        gmf_chunk c = ch[i];
        const gm_var_info *vo = gm_program_var(producer, c.var);
        int cv = input_matching(consumer, producer, vo);
        if (cv >= 0) {
            c.location = gm_program_var(consumer, cv)->location + (c.location - vo->location);
        } else {
            bool free_slot = false;
            for (int k = 0; k < gm_program_input_count(consumer); k++) {
                const gm_var_info *fi =
                    gm_program_var(consumer, gm_program_input_var(consumer, k));
                if (fi->builtin < 0 && fi->location == vo->location &&
                    !output_matching(producer, consumer, fi))
                    free_slot = true;
            }
            if (!free_slot)
                continue;
        }
        ch[kept++] = c;
    }
    return kept;
}

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

/* Array length of the struct member at word offset `off` of variable var's type. */
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

/* gl_in[]: the input array of gl_PerVertex structs; member offsets by name. */
static void find_gl_in(const gm_program *gp, struct gmf_gs *g)
{
    g->glin_var = g->glin_pos = g->glin_psize = g->glin_clip = -1;
    for (int i = 0; i < gm_program_input_count(gp); i++) {
        int v = gm_program_input_var(gp, i);
        const gm_var_info *vi = gm_program_var(gp, v);
        gm_type_desc t, e;
        if (gm_type_get(gp, vi->type, &t) != 0 || t.kind != GM_TYPE_ARRAY ||
            gm_type_get(gp, t.element, &e) != 0 || e.kind != GM_TYPE_STRUCT)
            continue;
        bool per_vertex = false;
        for (int m = 0; m < e.length; m++) {
            int mt, off;
            const char *name = NULL;
            if (gm_type_member(gp, t.element, m, &mt, &name, &off) != 0 || !name)
                continue;
            if (!strcmp(name, "gl_Position")) {
                g->glin_pos = off;
                per_vertex = true;
            } else if (!strcmp(name, "gl_PointSize")) {
                g->glin_psize = off;
            } else if (!strcmp(name, "gl_ClipDistance")) {
                g->glin_clip = off;
                g->glin_n_clip = member_array_length(gp, t.element, off);
            }
        }
        if (per_vertex || (vi->name && !strcmp(vi->name, "gl_in"))) {
            g->glin_var = v;
            g->glin_words = e.components;
            return;
        }
        g->glin_pos = g->glin_psize = g->glin_clip = -1;
    }
}

/* Execution modes from the GS's SPIR-V (OpExecutionMode). */
static void execution_modes(const gmf_prog *p, struct gmf_gs *g)
{
    enum { OP_EXECUTION_MODE = 16, EM_INVOCATIONS = 0, EM_IN_POINTS = 19, EM_IN_LINES = 20,
           EM_IN_LINES_ADJ = 21, EM_TRIANGLES = 22, EM_IN_TRIANGLES_ADJ = 23,
           EM_OUTPUT_VERTICES = 26, EM_OUT_POINTS = 27, EM_OUT_LINE_STRIP = 28,
           EM_OUT_TRIANGLE_STRIP = 29 };
    g->in_mode = GL_TRIANGLES;
    g->out_mode = GL_TRIANGLE_STRIP;
    g->invocations = 1;
    g->max_vertices = 0;
    for (int s = 0; s < p->cr.shader_count; s++) {
        const gm_compiled_shader *cs = &p->cr.shaders[s];
        if (cs->stage != GM_STAGE_GEOMETRY)
            continue;
        const uint32_t *w = cs->spirv;
        for (size_t i = 5; w && i < cs->word_count;) {
            uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
            if (len == 0 || i + len > cs->word_count)
                break;
            if (op == OP_EXECUTION_MODE && len >= 3) {
                uint32_t lit = len >= 4 ? w[i + 3] : 0;
                switch (w[i + 2]) {
                case EM_INVOCATIONS: g->invocations = lit > 0 ? (int)lit : 1; break;
                case EM_IN_POINTS: g->in_mode = GL_POINTS; break;
                case EM_IN_LINES: g->in_mode = GL_LINES; break;
                case EM_IN_LINES_ADJ: g->in_mode = GL_LINES_ADJACENCY; break;
                case EM_TRIANGLES: g->in_mode = GL_TRIANGLES; break;
                case EM_IN_TRIANGLES_ADJ: g->in_mode = GL_TRIANGLES_ADJACENCY; break;
                case EM_OUTPUT_VERTICES: g->max_vertices = (int)lit; break;
                case EM_OUT_POINTS: g->out_mode = GL_POINTS; break;
                case EM_OUT_LINE_STRIP: g->out_mode = GL_LINE_STRIP; break;
                case EM_OUT_TRIANGLE_STRIP: g->out_mode = GL_TRIANGLE_STRIP; break;
                default: break;
                }
            }
            i += len;
        }
    }
    g->in_verts = g->in_mode == GL_POINTS ? 1 : g->in_mode == GL_LINES ? 2
                  : g->in_mode == GL_LINES_ADJACENCY ? 4 : g->in_mode == GL_TRIANGLES ? 3 : 6;
    if (g->invocations > 32)
        g->invocations = 32;
}

void gmf_gs_build(gmf_prog *p)
{
    struct gmf_gs *g = calloc(1, sizeof *g);
    if (!g)
        return;
    p->gsx = g;
    const gm_program *gs = p->gs;
    execution_modes(p, g);
    find_gl_in(gs, g);
    g->primid_in_var = find_io(gs, BI_PRIMITIVE_ID, false);
    g->invid_var = find_io(gs, BI_INVOCATION_ID, false);
    g->primid_var = find_io(gs, BI_PRIMITIVE_ID, true);
    g->layer_var = find_io(gs, BI_LAYER, true);
    g->vpi_var = find_io(gs, BI_VIEWPORT_INDEX, true);
    /* gl_Position & co. of the output gl_PerVertex block (gl_in is an array: never matched) */
    if (gm_program_find_builtin(gs, BI_POSITION, &g->pos_var, &g->pos_off) != 0)
        g->pos_var = -1;
    if (gm_program_find_builtin(gs, BI_POINT_SIZE, &g->psize_var, &g->psize_off) != 0)
        g->psize_var = -1;
    if (gm_program_find_builtin(gs, BI_CLIP_DISTANCE, &g->clip_var, &g->clip_off) != 0)
        g->clip_var = -1;
    if (g->clip_var >= 0 && gmf_stage_source_names(p, GM_STAGE_GEOMETRY, "gl_ClipDistance")) {
        g->n_clip = member_array_length(gs, gm_program_var(gs, g->clip_var)->type, g->clip_off);
        if (g->n_clip > GM_PIPE_MAX_CLIP_DIST)
            g->n_clip = GM_PIPE_MAX_CLIP_DIST;
    }
    /* per-vertex user inputs: arrays indexed by the vertex */
    for (int i = 0; i < gm_program_input_count(gs); i++) {
        int v = gm_program_input_var(gs, i);
        const gm_var_info *vi = gm_program_var(gs, v);
        gm_type_desc t, e;
        if (v == g->glin_var || vi->builtin >= 0 || vi->location < 0 ||
            gm_type_get(gs, vi->type, &t) != 0 || t.kind != GM_TYPE_ARRAY ||
            gm_type_get(gs, t.element, &e) != 0)
            continue;
        gmf_chunk ch[GMF_MAX_VAR_CHUNKS];
        int n = 0, loc = vi->location;
        if (gmf_type_chunks(gs, v, t.element, 0, &loc, vi->component, ch, &n,
                            GMF_MAX_VAR_CHUNKS) != 0)
            continue;
        for (int k = 0; k < n && g->n_in < GMF_MAX_VAR_CHUNKS; k++)
            g->in[g->n_in++] = (gs_input){ ch[k], e.components };
    }
    /* VS outputs into the GS's input slots (after tessellation the TES feeds the GS:
     * gmf_tess.c relinks) */
    if (!p->tes)
        p->n_vs_out = relink(p->vs, gs, p->vs_out, p->n_vs_out);
    /* GS outputs into the FS's input slots */
    for (int i = 0; p->fs && i < gm_program_output_count(gs); i++) {
        int v = gm_program_output_var(gs, i);
        const gm_var_info *vi = gm_program_var(gs, v);
        if (vi->builtin >= 0 || vi->location < 0)
            continue;
        int loc = vi->location;
        gmf_type_chunks(gs, v, vi->type, 0, &loc, vi->component, g->out, &g->n_out,
                        GMF_MAX_VAR_CHUNKS);
    }
    if (p->fs)
        g->n_out = relink(gs, p->fs, g->out, g->n_out);
    g->w = gm_warp_create(p->gs, 1000);
    if (!g->w) {
        free(g);
        p->gsx = NULL;
    }
}

/* A hidden flat varying for a per-primitive value the FS reads (fs_var) and the GS writes
 * (gs_var): *slot, or -1 when either is missing or no slot is left. */
static void hidden_flat(gmf_prog *p, int fs_var, int gs_var, int *slot)
{
    *slot = -1;
    if (!p->fs || fs_var < 0 || gs_var < 0 || p->info.num_varyings >= GM_PIPE_MAX_VARYINGS)
        return;
    *slot = p->info.num_varyings++;
    p->info.interp[*slot] = GM_INTERP_FLAT;
    p->info.loc[*slot] = GM_LOC_CENTER;
}

void gmf_gs_finish(gmf_prog *p)
{
    struct gmf_gs *g = p->gsx;
    if (!g)
        return;
    /* varyings the pipeline interpolates: the FS's inputs and the GS's outputs */
    int max_slot = -1;
    for (int i = 0; i < p->n_fs_in; i++)
        if (p->fs_in[i].location > max_slot && p->fs_in[i].location < GM_PIPE_MAX_VARYINGS)
            max_slot = p->fs_in[i].location;
    for (int i = 0; i < g->n_out; i++)
        if (g->out[i].location > max_slot && g->out[i].location < GM_PIPE_MAX_VARYINGS)
            max_slot = g->out[i].location;
    p->info.num_varyings = max_slot + 1;
    /* gl_ClipDistance read by the FS: the GS's, as hidden varyings (filled in on_emit) */
    p->fs_clip_slot = -1;
    p->fs_clip_n = 0;
    if (p->fs && p->fs_clip_var >= 0 && g->n_clip > 0)
        gmf_hidden_varyings(p, p->fs, p->fs_clip_var, g->n_clip, &p->fs_clip_slot, &p->fs_clip_n);
    p->primid_slot = -1;
    if (p->fs && p->primid_var >= 0 && g->primid_var >= 0 &&
        p->info.num_varyings < GM_PIPE_MAX_VARYINGS) {
        p->primid_slot = p->info.num_varyings++;
        p->info.interp[p->primid_slot] = GM_INTERP_FLAT;
        p->info.loc[p->primid_slot] = GM_LOC_CENTER;
    }
    hidden_flat(p, p->fs_layer_var, g->layer_var, &p->layer_slot);
    hidden_flat(p, p->fs_vpi_var, g->vpi_var, &p->vpi_slot);
    p->info.num_clip_dist = g->n_clip;
    /* no gl_ClipDistance: user clip planes against its gl_ClipVertex or gl_Position */
    p->user_clip = g->n_clip == 0;
    p->clipv_var = gm_program_find_var(p->gs, "glr_gs_ClipVertex", GM_VAR_OUTPUT);
    if (p->user_clip)
        p->info.num_clip_dist = GM_PIPE_MAX_CLIP_DIST;
    p->info.vs_writes_point_size = g->psize_var >= 0;
    p->info.viewport_unfused = true;   /* llvmpipe: no FMA for GS outputs (gpu_model/pipeline/DESIGN.md) */
}

/* ---- draw ---- */

typedef struct gs_run {
    gmf_draw_ctx *d;
    struct gmf_gs *g;
    gm_pipe_vertex *outv;     /* the pipeline's list of output primitives */
    int n_outv, cap_outv;
    gs_sel cur;               /* layer and viewport of the primitives in outv */
    bool oom;
    bool failed;              /* a draw of collected primitives failed */
    int32_t prim_base;        /* gl_PrimitiveIDIn of the first input primitive (tessellation
                                 output comes in pieces) */
} gs_run;

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

static inline uint32_t lane_word(uint32_t (*v)[GM_LANES], int word, int l) { return v[word][l]; }

/* The executor's EmitVertex / EndPrimitive hook: the emitting lanes' outputs become the next
 * vertex of their current strip (stream 0 only: other streams are not rasterized). */
static void on_emit(void *ctx, gm_warp *w, int end_primitive, int stream, gm_mask lanes)
{
    gs_sink *sink = ctx;
    gs_run *run = sink->run;
    struct gmf_gs *g = run->g;
    gmf_prog *p = run->d->p;
    if (stream != 0)
        return;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((lanes >> l) & 1))
            continue;
        gs_lane_out *lo = &sink->lane[l];
        if (end_primitive) {
            if (lo->n > 0)
                lo->cut[lo->n - 1] = 1;
            continue;
        }
        if (g->max_vertices > 0 && lo->n >= g->max_vertices)
            continue;   /* past max_vertices: dropped (undefined in GL; llvmpipe drops) */
        if (!grow((void **)&lo->v, &lo->cap, lo->n + 1, sizeof *lo->v) ||
            !grow((void **)&lo->cut, &lo->cap_cut, lo->n + 1, 1) ||
            !grow((void **)&lo->sel, &lo->cap_sel, lo->n + 1, sizeof *lo->sel)) {
            run->oom = true;
            continue;
        }
        gm_pipe_vertex *o = &lo->v[lo->n];
        lo->cut[lo->n] = 0;
        gs_sel *sel = &lo->sel[lo->n];
        sel->layer = g->layer_var >= 0 ? (int32_t)gm_warp_var_lanes(w, g->layer_var)[0][l] : 0;
        sel->viewport = g->vpi_var >= 0 ? (int32_t)gm_warp_var_lanes(w, g->vpi_var)[0][l] : 0;
        lo->n++;
        memset(o, 0, sizeof *o);
        if (g->pos_var >= 0) {
            uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, g->pos_var);
            for (int k = 0; k < 4; k++) {
                uint32_t x = lane_word(v, g->pos_off + k, l);
                memcpy(&o->pos[k], &x, 4);
            }
        }
        if (g->psize_var >= 0) {
            uint32_t x = lane_word(gm_warp_var_lanes(w, g->psize_var), g->psize_off, l);
            memcpy(&o->point_size, &x, 4);
        }
        if (g->clip_var >= 0) {
            uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, g->clip_var);
            for (int k = 0; k < g->n_clip; k++) {
                uint32_t x = lane_word(v, g->clip_off + k, l);
                memcpy(&o->clip_dist[k], &x, 4);
            }
        }
        for (int k = 0; k < p->fs_clip_n && p->fs_clip_slot >= 0; k++)
            o->var[p->fs_clip_slot + k / 4][k % 4] = o->clip_dist[k];
        if (p->user_clip) {   /* gmf_user_clip.c */
            float cv[4];
            uint32_t (*v)[GM_LANES] = p->clipv_var >= 0 ? gm_warp_var_lanes(w, p->clipv_var) : NULL;
            for (int k = 0; v && k < 4; k++) {
                uint32_t x = lane_word(v, k, l);
                memcpy(&cv[k], &x, 4);
            }
            gmf_user_clip_dist(run->d, v ? cv : o->pos, o->clip_dist);
        }
        for (int c = 0; c < g->n_out; c++) {
            const gmf_chunk *ch = &g->out[c];
            if (ch->location < 0 || ch->location >= GM_PIPE_MAX_VARYINGS)
                continue;
            uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, ch->var);
            for (int k = 0; k < ch->n && ch->comp + k < 4; k++) {
                uint32_t x = lane_word(v, ch->word + k, l);
                memcpy(&o->var[ch->location][ch->comp + k], &x, 4);
            }
            /* GL_CLAMP_VERTEX_COLOR clamps the geometry shader's colour outputs as the
             * vertex shader's (gmf_shade.c; piglit gs-clamp-vertex-color) */
            if (run->d->clamp_vertex_color && gmf_color_output(gm_program_var(p->gs, ch->var)))
                for (int k = 0; k < ch->n && ch->comp + k < 4; k++) {
                    float *x = &o->var[ch->location][ch->comp + k];
                    *x = gmf_clamp_color_lp(*x);
                }
        }
        if (p->layer_slot >= 0)
            memcpy(&o->var[p->layer_slot][0], &sel->layer, 4);
        if (p->vpi_slot >= 0)
            memcpy(&o->var[p->vpi_slot][0], &sel->viewport, 4);
        if (p->primid_slot >= 0 && g->primid_var >= 0) {
            uint32_t x = lane_word(gm_warp_var_lanes(w, g->primid_var), 0, l);
            memcpy(&o->var[p->primid_slot][0], &x, 4);
        }
    }
}

static int draw_outputs(gs_run *run);

/* The next output primitive goes to layer/viewport sel (its provoking vertex's): the
 * primitives collected for another one are drawn first, so order is kept per target. */
static void select_output(gs_run *run, const gs_sel *sel)
{
    if (sel->layer == run->cur.layer && sel->viewport == run->cur.viewport)
        return;
    if (run->n_outv > 0 && draw_outputs(run) != 0)
        run->failed = true;
    run->cur = *sel;
}

static void put_vertex(gs_run *run, const gm_pipe_vertex *v)
{
    if (!grow((void **)&run->outv, &run->cap_outv, run->n_outv + 1, sizeof *run->outv)) {
        run->oom = true;
        return;
    }
    run->outv[run->n_outv++] = *v;
}

/* One lane's strips as list primitives, with the pipeline's strip decomposition
 * (gm_draw.c assemble): provoking vertex and winding as for a strip drawn directly. */
static void lane_primitives(gs_run *run, gs_lane_out *lo)
{
    bool ff = run->d->r->pipe.state.flatshade_first;
    uint32_t mode = run->g->out_mode;
    int start = 0;
    for (int i = 0; i < lo->n; i++) {
        if (!lo->cut[i] && i + 1 < lo->n)
            continue;
        const gm_pipe_vertex *s = lo->v + start;
        const gs_sel *ss = lo->sel + start;
        int m = i + 1 - start;
        if (mode == GL_POINTS) {
            for (int j = 0; j < m; j++) {
                select_output(run, &ss[j]);
                put_vertex(run, &s[j]);
            }
        } else if (mode == GL_LINE_STRIP) {
            for (int j = 0; j + 1 < m; j++) {
                select_output(run, &ss[ff ? j : j + 1]);
                put_vertex(run, &s[j]);
                put_vertex(run, &s[j + 1]);
            }
        } else {
            for (int j = 0; j + 2 < m; j++) {
                int o = j & 1;
                int a = ff ? j : j + o, b = ff ? j + 1 + o : j + 1 - o, c = ff ? j + 2 - o : j + 2;
                select_output(run, &ss[ff ? a : c]);
                put_vertex(run, &s[a]);
                put_vertex(run, &s[b]);
                put_vertex(run, &s[c]);
            }
        }
        start = i + 1;
    }
    lo->n = 0;
}

/* The GS input primitive kind a draw mode feeds, or 0 (none: GL_INVALID_OPERATION). */
static uint32_t input_kind(uint32_t mode)
{
    switch (mode) {
    case GL_POINTS: return GL_POINTS;
    case GL_LINES: case GL_LINE_STRIP: case GL_LINE_LOOP: return GL_LINES;
    case GL_LINES_ADJACENCY: case GL_LINE_STRIP_ADJACENCY: return GL_LINES_ADJACENCY;
    case GL_TRIANGLES: case GL_TRIANGLE_STRIP: case GL_TRIANGLE_FAN: return GL_TRIANGLES;
    case GL_TRIANGLES_ADJACENCY: case GL_TRIANGLE_STRIP_ADJACENCY:
        return GL_TRIANGLES_ADJACENCY;
    default: return 0;
    }
}

/* Input primitives of one restart segment (s: the vertices' shaded slots, cnt of them),
 * appended to prims (in_verts slots each); returns the count added or -1 (out of memory). */
static int assemble(uint32_t mode, bool ff, const int *s, int cnt, int **prims, int *n,
                    int *cap, int nv)
{
    int before = *n;
#define PRIM(...)                                                                    \
    do {                                                                             \
        int v_[] = { __VA_ARGS__ };                                                  \
        if (!grow((void **)prims, cap, (*n + 1) * nv, sizeof **prims))               \
            return -1;                                                               \
        for (int k_ = 0; k_ < nv; k_++)                                              \
            (*prims)[*n * nv + k_] = s[v_[k_]];                                      \
        (*n)++;                                                                      \
    } while (0)
    int i;
    switch (mode) {
    case GL_POINTS:
        for (i = 0; i < cnt; i++) PRIM(i);
        break;
    case GL_LINES:
        for (i = 0; i + 1 < cnt; i += 2) PRIM(i, i + 1);
        break;
    case GL_LINE_STRIP: case GL_LINE_LOOP:
        for (i = 0; i + 1 < cnt; i++) PRIM(i, i + 1);
        if (mode == GL_LINE_LOOP && cnt >= 2) PRIM(cnt - 1, 0);
        break;
    case GL_TRIANGLES:
        for (i = 0; i + 2 < cnt; i += 3) PRIM(i, i + 1, i + 2);
        break;
    case GL_TRIANGLE_STRIP:
        for (i = 0; i + 2 < cnt; i++) {
            int o = i & 1;
            if (ff) PRIM(i, i + 1 + o, i + 2 - o);
            else PRIM(i + o, i + 1 - o, i + 2);
        }
        break;
    case GL_TRIANGLE_FAN:
        for (i = 0; i + 2 < cnt; i++) {
            if (ff) PRIM(i + 1, i + 2, 0);
            else PRIM(0, i + 1, i + 2);
        }
        break;
    case GL_LINES_ADJACENCY:
        for (i = 0; i + 3 < cnt; i += 4) PRIM(i, i + 1, i + 2, i + 3);
        break;
    case GL_LINE_STRIP_ADJACENCY:
        for (i = 1; i + 2 < cnt; i++) PRIM(i - 1, i, i + 1, i + 2);
        break;
    case GL_TRIANGLES_ADJACENCY:
        for (i = 0; i + 5 < cnt; i += 6) PRIM(i, i + 1, i + 2, i + 3, i + 4, i + 5);
        break;
    case GL_TRIANGLE_STRIP_ADJACENCY: {
        /* GL 4.6 table 10.1: (1st, adj 1-2, 2nd, adj 2-3, 3rd, adj 3-1) */
        int np = cnt >= 6 ? (cnt - 4) / 2 : 0;
        for (i = 0; i < np; i++) {
            bool last = i == np - 1;
            if (np == 1) PRIM(0, 1, 2, 5, 4, 3);
            else if (i == 0) PRIM(0, 1, 2, 6, 4, 3);
            else if (i & 1) PRIM(2 * i + 2, 2 * i - 2, 2 * i, 2 * i + 3, 2 * i + 4,
                                 last ? 2 * i + 5 : 2 * i + 6);
            else PRIM(2 * i, 2 * i - 2, 2 * i + 2, last ? 2 * i + 5 : 2 * i + 6, 2 * i + 4,
                      2 * i + 3);
        }
        break;
    }
    default:
        break;
    }
#undef PRIM
    return *n - before;
}

/* Vertex "shader" of the output pass: the stored GS output vertices by id. */
static int replay_vs(void *user, const int32_t *vertex_id, int count, int32_t instance_id,
                     gm_pipe_vertex *out)
{
    gs_run *run = user;
    (void)instance_id;
    if (!vertex_id)
        return 1;   /* nothing is ever queued */
    for (int l = 0; l < count; l++)
        out[l] = run->outv[vertex_id[l]];
    return 0;
}

/* The output primitives collected so far through clipping, setup, rasterization and the FS
 * (a pipeline draw of a list whose "vertex shader" hands back the stored vertices). */
/* Viewport vp of the context's viewport array into the pipeline state (as gmf_pipestate.c does
 * for viewport 0); out-of-range indices use viewport 0, as llvmpipe. */
static void use_viewport(gmf_draw_ctx *d, gm_pipe_state *ps, int32_t vp)
{
    const struct sm_context_state *st = d->st;
    if (vp <= 0 || vp >= SM_MAX_VIEWPORTS)
        return;   /* viewport 0: the state as built for the draw */
    if (st->viewport[vp][2] > 0 && st->viewport[vp][3] > 0)
        memcpy(ps->viewport, st->viewport[vp], sizeof ps->viewport);
    ps->scissor_enable = st->scissor_test[vp];
    memcpy(ps->scissor, st->scissor[vp], sizeof ps->scissor);
    if (!st->scissor_given && !st->scissor[vp][0] && !st->scissor[vp][1] && !st->scissor[vp][2] &&
        !st->scissor[vp][3]) {
        ps->scissor[2] = d->r->pipe.fb.width;
        ps->scissor[3] = d->r->pipe.fb.height;
    }
    ps->depth_range[0] = (float)st->depth_range[vp][0];
    ps->depth_range[1] = (float)st->depth_range[vp][1];
}

static int draw_outputs(gs_run *run)
{
    gm_pipe_context *ctx = &run->d->r->pipe;
    uint32_t mode = run->g->out_mode;
    int rc = 0;
    if (run->n_outv > 0) {
        /* the primitives' layer of a layered framebuffer and their viewport */
        gmf_fb_select_layer(run->d->r, run->cur.layer);
        gm_pipe_state saved = ctx->state;
        use_viewport(run->d, &ctx->state, run->cur.viewport);
        gm_pipe_draw od;
        memset(&od, 0, sizeof od);
        od.mode = mode == GL_POINTS ? GL_POINTS : mode == GL_LINE_STRIP ? GL_LINES : GL_TRIANGLES;
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
        ctx->state = saved;
    }
    run->n_outv = 0;
    return rc;
}

/* Runs one GS warp to its end with the observer (stage geometry), like gmf_shade.c does for
 * vertex warps without the timing model. */
static int run_gs_warp(gs_run *run, const int32_t *lane_prim, const int32_t *lane_inv)
{
    gmf_draw_ctx *d = run->d;
    gmf_runner *r = d->r;
    gm_warp *w = run->g->w;
    if (r->obs) {
        gmf_issue *i = &r->cur_issue;
        i->draw = d->ev->draw;
        i->stage = GM_STAGE_GEOMETRY;
        i->warp = d->gs_warps;
        i->frame_warp = r->frame_warps;
        i->program = d->p->name;
        i->file = gm_program_pc_count(d->p->gs) > 0 ? gm_program_pc_file(d->p->gs, 0) : NULL;
        i->cycle = 0;
        i->sm = -1;
        i->lane_x = lane_prim;
        i->lane_y = lane_inv;
    }
    d->gs_warps++;
    r->frame_warps++;
    gm_warp_set_observer(w, r->obs ? gmf_executor_observe : NULL, r->obs ? r : NULL);
    gs_sink sink = { run, run->g->lane };
    gm_warp_set_gs_emit(w, on_emit, &sink);
    int rc = 0;
    for (;;) {
        gm_run_status s = gm_warp_run(w, 0);
        if (s == GM_RUN_DONE)
            break;
        if (s == GM_RUN_ERROR) {
            gmf_note(d->ev, "geometry shader runtime error: %s", gm_warp_error(w));
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
    gm_warp_set_gs_emit(w, NULL, NULL);
    return rc;
}

static inline void put_u(uint32_t (*v)[GM_LANES], int word, int l, const void *src)
{
    memcpy(&v[word][l], src, 4);
}

/* Inputs of lane l: the input primitive's vertices (shaded[slots[k]]) and the built-ins. */
static void gs_lane_inputs(gs_run *run, gm_warp *w, int l, const gm_pipe_vertex *shaded,
                           const int *slots, int32_t prim_id, int32_t inv)
{
    struct gmf_gs *g = run->g;
    if (g->glin_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, g->glin_var);
        for (int k = 0; k < g->in_verts; k++) {
            const gm_pipe_vertex *sv = &shaded[slots[k]];
            int base = k * g->glin_words;
            if (g->glin_pos >= 0)
                for (int c = 0; c < 4; c++)
                    put_u(v, base + g->glin_pos + c, l, &sv->pos[c]);
            if (g->glin_psize >= 0)
                put_u(v, base + g->glin_psize, l, &sv->point_size);
            for (int c = 0; g->glin_clip >= 0 && c < g->glin_n_clip && c < GM_PIPE_MAX_CLIP_DIST; c++)
                put_u(v, base + g->glin_clip + c, l, &sv->clip_dist[c]);
        }
    }
    for (int i = 0; i < g->n_in; i++) {
        const gs_input *in = &g->in[i];
        if (in->c.location < 0 || in->c.location >= GM_PIPE_MAX_VARYINGS)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, in->c.var);
        for (int k = 0; k < g->in_verts; k++)
            for (int c = 0; c < in->c.n && in->c.comp + c < 4; c++)
                put_u(v, k * in->elem_words + in->c.word + c, l,
                      &shaded[slots[k]].var[in->c.location][in->c.comp + c]);
    }
    if (g->primid_in_var >= 0)
        put_u(gm_warp_var_lanes(w, g->primid_in_var), 0, l, &prim_id);
    if (g->invid_var >= 0)
        put_u(gm_warp_var_lanes(w, g->invid_var), 0, l, &inv);
}

/* ---- GS warps under the timing model ---- */

/* The window of GS warps in flight (slots created on first use): the runner's in-flight
 * limit, at most GMF_GS_MAX_FLIGHTS and about GMF_GS_WINDOW_VERTICES buffered output
 * vertices; 0 when out of memory. */
static int gs_window(gs_run *run)
{
    struct gmf_gs *g = run->g;
    int want = run->d->r->flight_max < GMF_GS_MAX_FLIGHTS ? run->d->r->flight_max
                                                          : GMF_GS_MAX_FLIGHTS;
    int per_warp = GM_LANES * (g->max_vertices > 0 ? g->max_vertices : 1);
    if (want > GMF_GS_WINDOW_VERTICES / per_warp)
        want = GMF_GS_WINDOW_VERTICES / per_warp;
    if (want < 1)
        want = 1;
    if (!g->slots) {
        g->slots = calloc(GMF_GS_MAX_FLIGHTS, sizeof *g->slots);
        if (!g->slots)
            return 0;
    }
    /* ids: the executor's GS warp is 1000, slot k's 1001 + k (VS/FS pool warps are below) */
    for (int k = g->n_slots; k < want; k++) {
        g->slots[k].w = gm_warp_create(run->d->p->gs, 1001 + k);
        if (!g->slots[k].w)
            break;
        g->n_slots = k + 1;
    }
    return g->n_slots < want ? g->n_slots : want;
}

/* Waits for slot s's warp and appends its lanes' strips, in lane order, to the output list. */
static int gs_complete(gs_run *run, gs_slot *s)
{
    if (gmf_timing_wait(run->d, &s->f, "geometry") != 0)
        return -1;
    gm_warp_set_gs_emit(s->w, NULL, NULL);
    for (int l = 0; l < s->lanes; l++)
        lane_primitives(run, &s->lane[l]);
    return run->failed ? -1 : 0;
}

/* The oldest GS warp in flight completed and its strips queued; long draws go to the
 * pipeline in pieces (same order). */
static int gs_retire_oldest(gs_run *run, int win, uint64_t *head)
{
    int rc = gs_complete(run, &run->g->slots[*head % (uint64_t)win]);
    (*head)++;
    if (rc == 0 && !run->oom && run->n_outv >= GMF_GS_FLUSH_VERTICES)
        rc = draw_outputs(run);
    return rc;
}

/* One instance's GS warps through the timing model: submitted in lane order (input
 * primitives, each with its invocations) after the instance's VS warps completed, up to the
 * window in flight; completed oldest first, so the output order is the executor path's. */
static int run_gs_timed(gs_run *run, const gm_pipe_vertex *shaded, const int *prims,
                        int n_prims)
{
    struct gmf_gs *g = run->g;
    int win = gs_window(run);
    if (win < 1) {
        run->oom = true;
        return 0;
    }
    uint64_t head = 0, next = 0;
    int n_items = n_prims * g->invocations, lanes = 0, rc = 0;
    gs_slot *s = NULL;
    for (int item = 0; item < n_items && rc == 0 && !run->oom; item++) {
        if (lanes == 0) {
            if (next - head == (uint64_t)win && gs_retire_oldest(run, win, &head) != 0) {
                rc = -1;
                break;
            }
            s = &g->slots[next % (uint64_t)win];
        }
        s->f.lane_x[lanes] = item / g->invocations;
        s->f.lane_y[lanes] = item % g->invocations;
        lanes++;
        if (lanes < GM_LANES && item + 1 < n_items)
            continue;
        for (int l = lanes; l < GM_LANES; l++)
            s->f.lane_x[l] = s->f.lane_y[l] = 0;
        gm_warp_begin(s->w, lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1u), 0);
        for (int l = 0; l < lanes; l++)
            gs_lane_inputs(run, s->w, l, shaded, prims + (size_t)s->f.lane_x[l] * g->in_verts,
                           s->f.lane_x[l] + run->prim_base, s->f.lane_y[l]);
        s->lanes = lanes;
        s->sink = (gs_sink){ run, s->lane };
        gm_warp_set_gs_emit(s->w, on_emit, &s->sink);
        if (gmf_timing_submit_gs(run->d, &s->f, s->w) != 0) {
            rc = -1;
            break;
        }
        next++;
        lanes = 0;
    }
    while (rc == 0 && head < next)
        rc = gs_retire_oldest(run, win, &head);
    if (rc != 0) {
        /* failed (or the observer stopped the run) with warps possibly in flight: they must
         * not emit into this (stack) run later, nor outlive the draw */
        for (int k = 0; k < g->n_slots; k++)
            gm_warp_set_gs_emit(g->slots[k].w, NULL, NULL);
        if (head < next)
            gmf_timing_drain(run->d);
    }
    return rc;
}

static uint32_t read_index(const gm_pipe_draw *pd, int i)
{
    const uint8_t *p = pd->indices;
    size_t at = (size_t)pd->first + (size_t)i;
    switch (pd->index_type) {
    case GL_UNSIGNED_BYTE: return p[at];
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p + 2 * at, 2); return v; }
    default: { uint32_t v; memcpy(&v, p + 4 * at, 4); return v; }
    }
}

/* The VS on `n` vertex ids of one instance (queued through the timing model when it is on);
 * out[k] gets vertex ids[k]. 0 or -1 (aborted, noted by the callback). */
static int shade_vertices(gmf_draw_ctx *d, const int32_t *ids, int n, int32_t inst,
                          gm_pipe_vertex *out)
{
    int pending = 0, rc = 0;
    for (int first = 0; first < n && rc == 0; first += GM_LANES) {
        int cnt = n - first < GM_LANES ? n - first : GM_LANES;
        memset(&out[first], 0, sizeof *out * (size_t)cnt);
        d->r->pipe.stats.vs_invocations += (uint64_t)cnt;
        int vrc = gmf_vs_cb(d, ids + first, cnt, inst, &out[first]);
        if (vrc == GM_PIPE_QUEUED || vrc == GM_PIPE_QUEUED_FULL) {
            pending++;
            if (vrc == GM_PIPE_QUEUED_FULL) {
                if (gmf_vs_cb(d, NULL, 0, 0, NULL) != 0)
                    return -1;   /* the callback dropped its queue */
                pending--;
            }
        } else if (vrc != 0) {
            return -1;
        }
    }
    while (pending > 0) {
        if (gmf_vs_cb(d, NULL, 0, 0, NULL) != 0)
            return -1;
        pending--;
    }
    return rc;
}

/* One instance's GS work on its shaded vertices and assembled input primitives (in_verts
 * slots each): the GS warps and the draw of what they emitted. 0 or -1; run->oom on memory. */
static int gs_instance(gs_run *run, const gm_pipe_vertex *shaded, const int *prims, int n_prims)
{
    gmf_runner *r = run->d->r;
    struct gmf_gs *g = run->g;
    int rc = 0;
    /* GS lanes: input primitives in order, each with its invocations in order (llvmpipe's
     * order: the blend of overlapping copies shows it, gs_sample draw 4) */
    if (r->tm) {
        if (run_gs_timed(run, shaded, prims, n_prims) != 0)
            rc = -1;
        if (rc != 0 || run->oom)
            return rc;
        return draw_outputs(run);
    }
    int n_items = n_prims * g->invocations;
    int32_t lane_prim[GM_LANES], lane_inv[GM_LANES];
    int lanes = 0;
    for (int item = 0; item < n_items && rc == 0; item++) {
        lane_prim[lanes] = item / g->invocations;
        lane_inv[lanes] = item % g->invocations;
        lanes++;
        if (lanes < GM_LANES && item + 1 < n_items)
            continue;
        gm_warp_begin(g->w, lanes >= 32 ? 0xffffffffu : ((1u << lanes) - 1u), 0);
        for (int l = 0; l < lanes; l++)
            gs_lane_inputs(run, g->w, l, shaded, prims + (size_t)lane_prim[l] * g->in_verts,
                           lane_prim[l] + run->prim_base, lane_inv[l]);
        if (run_gs_warp(run, lane_prim, lane_inv) != 0)
            rc = -1;
        else
            for (int l = 0; l < lanes; l++)
                lane_primitives(run, &g->lane[l]);
        if (run->failed)
            rc = -1;
        lanes = 0;
        /* bounded memory: long draws go to the pipeline in pieces (same order) */
        if (rc == 0 && !run->oom && run->n_outv >= GMF_GS_FLUSH_VERTICES)
            rc = draw_outputs(run);
    }
    if (rc != 0 || run->oom)
        return rc;
    return draw_outputs(run);
}

int gmf_gs_draw(gmf_draw_ctx *d, const gm_pipe_draw *pd)
{
    gmf_runner *r = d->r;
    gmf_prog *p = d->p;
    struct gmf_gs *g = p->gsx;
    gm_pipe_context *ctx = &r->pipe;
    if (!g) {
        snprintf(ctx->error, sizeof ctx->error, "geometry shader tables missing");
        return -1;
    }
    if (input_kind(pd->mode) != g->in_mode) {
        /* GL_INVALID_OPERATION: the driver draws nothing either */
        gmf_note(d->ev, "draw mode 0x%x does not match the geometry shader's input primitive "
                 "(GL error, nothing drawn)", pd->mode);
        return 0;
    }
    int n = pd->count;
    if (n <= 0 || pd->instance_count <= 0)
        return 0;
    gm_warp_set_env(g->w, &d->env[2]);
    int32_t *ids = malloc(sizeof *ids * (size_t)n);
    uint8_t *restart = calloc((size_t)n, 1);
    int *slot = malloc(sizeof *slot * (size_t)n);
    int32_t *uniq = malloc(sizeof *uniq * (size_t)n);
    gm_pipe_vertex *shaded = malloc(sizeof *shaded * (size_t)n);
    int *prims = NULL, n_prims = 0, cap_prims = 0;
    gs_run run = { .d = d, .g = g };
    int rc = 0;
    if (!ids || !restart || !slot || !uniq || !shaded) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
        goto done;
    }
    const gm_pipe_state *st = &ctx->state;
    uint32_t restart_index = st->restart_index;
    if (st->primitive_restart_fixed_index)
        restart_index = pd->index_type == GL_UNSIGNED_BYTE ? 0xffu
                        : pd->index_type == GL_UNSIGNED_SHORT ? 0xffffu : 0xffffffffu;
    bool use_restart = pd->indices && (st->primitive_restart || st->primitive_restart_fixed_index);
    for (int i = 0; i < n; i++) {
        if (pd->indices) {
            uint32_t idx = read_index(pd, i);
            if (use_restart && idx == restart_index) {
                restart[i] = 1;
                ids[i] = 0;
                continue;
            }
            ids[i] = (int32_t)(idx + (uint32_t)pd->base_vertex);
        } else {
            ids[i] = pd->first + i;
        }
    }
    /* unique vertices in order of first use (as the pipeline shades them) */
    int nuniq = 0;
    int mcap = 64;
    while (mcap < 2 * n)
        mcap <<= 1;
    int32_t *mkey = malloc(sizeof *mkey * (size_t)mcap), *mval = malloc(sizeof *mval * (size_t)mcap);
    if (!mkey || !mval) {
        free(mkey);
        free(mval);
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
        goto done;
    }
    for (int i = 0; i < mcap; i++)
        mval[i] = -1;
    for (int i = 0; i < n; i++) {
        if (restart[i])
            continue;
        uint32_t h = ((uint32_t)ids[i] * 2654435761u) & (uint32_t)(mcap - 1);
        while (mval[h] >= 0 && mkey[h] != ids[i])
            h = (h + 1) & (uint32_t)(mcap - 1);
        if (mval[h] < 0) {
            mkey[h] = ids[i];
            mval[h] = nuniq;
            uniq[nuniq++] = ids[i];
        }
        slot[i] = mval[h];
    }
    free(mkey);
    free(mval);
    bool ff = st->flatshade_first;
    for (int inst = 0; inst < pd->instance_count && rc == 0; inst++) {
        if (shade_vertices(d, uniq, nuniq, inst, shaded) != 0) {
            snprintf(ctx->error, sizeof ctx->error, "vertex shader aborted the draw");
            rc = -1;
            break;
        }
        /* input primitives per restart segment */
        n_prims = 0;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i < n && !restart[i])
                continue;
            int cnt = i - start;
            /* the segment's slots, contiguous in slot[] from start */
            if (cnt > 0 && assemble(pd->mode, ff, slot + start, cnt, &prims, &n_prims,
                                    &cap_prims, g->in_verts) < 0) {
                run.oom = true;
                break;
            }
            start = i + 1;
        }
        if (run.oom)
            break;
        rc = gs_instance(&run, shaded, prims, n_prims);
        if (rc != 0 || run.oom)
            break;
    }
    if (run.oom && rc == 0) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
    }
    if (rc == 0 && run.failed)
        rc = -1;
done:
    for (int l = 0; l < GM_LANES; l++) {
        g->lane[l].n = 0;
        for (int k = 0; k < g->n_slots; k++)
            g->slots[k].lane[l].n = 0;
    }
    gmf_fb_select_layer(r, 0);
    free(ids);
    free(restart);
    free(slot);
    free(uniq);
    free(shaded);
    free(prims);
    free(run.outv);
    return rc;
}

int gmf_gs_draw_list(gmf_draw_ctx *d, const gm_pipe_vertex *verts, int n, uint32_t mode,
                     int32_t prim_base)
{
    gmf_runner *r = d->r;
    struct gmf_gs *g = d->p->gsx;
    gm_pipe_context *ctx = &r->pipe;
    if (!g) {
        snprintf(ctx->error, sizeof ctx->error, "geometry shader tables missing");
        return -1;
    }
    if (input_kind(mode) != g->in_mode) {
        gmf_note(d->ev, "tessellation output 0x%x does not match the geometry shader's input "
                 "primitive (GL error, nothing drawn)", mode);
        return 0;
    }
    int n_prims = n / g->in_verts;
    if (n_prims <= 0)
        return 0;
    int *prims = malloc(sizeof *prims * (size_t)n_prims * (size_t)g->in_verts);
    if (!prims) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        return -1;
    }
    for (int i = 0; i < n_prims * g->in_verts; i++)
        prims[i] = i;
    gm_warp_set_env(g->w, &d->env[2]);
    gs_run run = { .d = d, .g = g, .prim_base = prim_base };
    int rc = gs_instance(&run, verts, prims, n_prims);
    if (run.oom && rc == 0) {
        snprintf(ctx->error, sizeof ctx->error, "out of memory");
        rc = -1;
    }
    if (rc == 0 && run.failed)
        rc = -1;
    for (int l = 0; l < GM_LANES; l++) {
        g->lane[l].n = 0;
        for (int k = 0; k < g->n_slots; k++)
            g->slots[k].lane[l].n = 0;
    }
    gmf_fb_select_layer(r, 0);
    free(prims);
    free(run.outv);
    return rc;
}

int gmf_gs_relink(const gm_program *producer, const gm_program *consumer, gmf_chunk *ch, int n)
{
    return relink(producer, consumer, ch, n);
}

int gmf_shade_vertices(gmf_draw_ctx *d, const int32_t *ids, int n, int32_t inst,
                       gm_pipe_vertex *out)
{
    return shade_vertices(d, ids, n, inst, out);
}
