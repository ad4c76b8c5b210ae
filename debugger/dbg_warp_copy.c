/* Live warp -> shadow snapshot. Types are translated once per snapshot (a map from the program's
 * type handles to the snapshot's), every readable variable is copied for all 32 lanes (uniforms
 * once), and the header records masks, per-lane lines and the lanes' pixels or vertices. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_builtins.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_eval_tex.h"
#include "debugger/dbg_shared_read.h"
#include "debugger/dbg_block_read.h"
#include "debugger/dbg_params.h"
#include "debugger/dbg_warp_copy.h"

#define BUILTIN_FRAG_COORD 15
#define BUILTIN_VERTEX_ID 5
#define BUILTIN_VERTEX_INDEX 42
#define BUILTIN_INSTANCE_ID 6
#define BUILTIN_INSTANCE_INDEX 43
#define BUILTIN_WORKGROUP_ID 26
#define BUILTIN_LOCAL_INVOCATION_ID 27
#define BUILTIN_GLOBAL_INVOCATION_ID 28
#define BUILTIN_LOCAL_INVOCATION_INDEX 29

struct tmap {
    const gm_program *p;
    sh_builder *b;
    int *map;       /* gm type -> sh type, -2 unvisited */
    int n;
};

static sh_scalar scalar_of(gm_scalar s)
{
    switch (s) {
    case GM_SCALAR_INT: return SH_SCALAR_INT;
    case GM_SCALAR_UINT: return SH_SCALAR_UINT;
    case GM_SCALAR_BOOL: return SH_SCALAR_BOOL;
    default: return SH_SCALAR_FLOAT;
    }
}

static int map_type(struct tmap *m, int t, int depth)
{
    if (t < 0 || depth > 32)
        return -1;
    if (t >= m->n) {
        int nn = t + 64;
        int *p = realloc(m->map, (size_t)nn * sizeof *p);
        if (!p)
            return -1;
        for (int i = m->n; i < nn; i++)
            p[i] = -2;
        m->map = p;
        m->n = nn;
    }
    if (m->map[t] != -2)
        return m->map[t];
    gm_type_desc d;
    char opaque_name[40];
    if (gm_type_get(m->p, t, &d) != 0)
        return m->map[t] = -1;
    sh_type st = { .scalar = scalar_of(d.scalar), .rows = d.rows, .columns = d.columns, .length = d.length,
                   .element = -1, .components = d.components, .width = d.width, .name = d.name };
    switch (d.kind) {
    case GM_TYPE_SCALAR: st.kind = SH_TYPE_SCALAR; st.rows = st.columns = 1; break;
    case GM_TYPE_VECTOR: st.kind = SH_TYPE_VECTOR; st.columns = 1; break;
    case GM_TYPE_MATRIX: st.kind = SH_TYPE_MATRIX; st.element = map_type(m, d.element, depth + 1); break;
    case GM_TYPE_ARRAY:
        st.kind = SH_TYPE_ARRAY;
        st.element = map_type(m, d.element, depth + 1);
        if (st.element < 0 || d.length <= 0)
            return m->map[t] = -1;
        break;
    case GM_TYPE_STRUCT: st.kind = SH_TYPE_STRUCT; break;
    case GM_TYPE_SAMPLER:
    case GM_TYPE_IMAGE:
        st.kind = SH_TYPE_OPAQUE;
        st.components = 1;
        if (!st.name || !*st.name)
            st.name = d.kind == GM_TYPE_SAMPLER ? "sampler" : "image";
        /* A sampler's GLSL name ("usampler2DArray"): `evaluate` samples through it by it. */
        if (d.kind == GM_TYPE_SAMPLER &&
            dbg_sampler_glsl_name(d.image_dim, d.image_arrayed, d.image_depth, d.image_ms,
                                  d.scalar == GM_SCALAR_INT ? 1 : d.scalar == GM_SCALAR_UINT ? 2 : 0, opaque_name,
                                  sizeof opaque_name))
            st.name = opaque_name;
        break;
    default: return m->map[t] = -1;
    }
    if (st.kind == SH_TYPE_STRUCT) {
        /* Members first (their indexes must exist), then the struct and its members. */
        int mt[64];
        int count = d.length < 64 ? d.length : 64;
        for (int i = 0; i < count; i++) {
            int member_type, off;
            const char *name;
            gm_type_member(m->p, t, i, &member_type, &name, &off);
            mt[i] = map_type(m, member_type, depth + 1);
        }
        int id = sh_builder_add_type(m->b, &st);
        m->map[t] = id;
        for (int i = 0; i < count; i++) {
            int member_type, off;
            const char *name = NULL;
            gm_type_member(m->p, t, i, &member_type, &name, &off);
            sh_builder_add_member(m->b, id, name ? name : "?", mt[i] < 0 ? 0 : mt[i], off);
        }
        return id;
    }
    return m->map[t] = sh_builder_add_type(m->b, &st);
}

sh_var_class dbg_var_class(const gm_var_info *v)
{
    if (v->builtin >= 0)
        return SH_VAR_BUILTIN;
    switch (v->klass) {
    case GM_VAR_LOCAL: return SH_VAR_LOCAL;
    case GM_VAR_INPUT: return SH_VAR_INPUT;
    case GM_VAR_OUTPUT: return SH_VAR_OUTPUT;
    case GM_VAR_UNIFORM:
    case GM_VAR_OPAQUE: return SH_VAR_UNIFORM;
    default: return SH_VAR_GLOBAL;
    }
}

/* Reads one builtin's first components for every lane; false if the shader has no such variable. */
static bool read_builtin(const gm_warp *w, const gm_program *p, int builtin, float *fx, int32_t *ix, int n)
{
    int var, off;
    if (gm_program_find_builtin(p, builtin, &var, &off) != 0)
        return false;
    uint32_t words[64];
    for (int l = 0; l < GM_LANES; l++) {
        int got = gm_warp_read_var(w, var, l, words, 64);
        if (got <= off)
            continue;
        for (int k = 0; k < n && off + k < got; k++) {
            if (fx)
                memcpy(&fx[k * GM_LANES + l], &words[off + k], 4);
            if (ix)
                memcpy(&ix[k * GM_LANES + l], &words[off + k], 4);
        }
    }
    return true;
}

/* A compute warp's lanes: which invocations of which workgroup (gpu_model/frame/DESIGN.md
 * "Compute": groups in order, x fastest; a group of N invocations is ceil(N/32) warps, invocation
 * i is lane i%32 of the group's warp i/32). */
struct cs_lanes {
    uint32_t size[3];            /* LocalSize */
    int64_t group;               /* index of the group in the dispatch */
    bool wg_known;
    uint32_t wg[3];              /* gl_WorkGroupID */
    uint32_t index[SH_LANES];    /* gl_LocalInvocationIndex */
    uint32_t present;            /* lanes standing for an invocation of the group */
};

static void local_id(const struct cs_lanes *c, uint32_t i, uint32_t id[3])
{
    id[0] = i % c->size[0];
    id[1] = i / c->size[0] % c->size[1];
    id[2] = i / (c->size[0] * c->size[1]);
}

static void compute_lanes(const struct dbg_observe_info *info, const gm_warp *w, const gm_program *p, int warp,
                          struct cs_lanes *c)
{
    memset(c, 0, sizeof *c);
    int ls[3];
    dbg_local_size(p, ls);
    uint64_t n = 1;
    for (int k = 0; k < 3; k++) {
        c->size[k] = ls[k] > 0 ? (uint32_t)ls[k] : 1;
        n *= c->size[k];
    }
    uint64_t wpg = (n + SH_LANES - 1) / SH_LANES;
    c->group = (int64_t)((uint64_t)warp / wpg);
    uint32_t first = (uint32_t)((uint64_t)warp % wpg * SH_LANES);
    for (int l = 0; l < SH_LANES; l++) {
        c->index[l] = first + (uint32_t)l;
        if (c->index[l] < n)
            c->present |= 1u << l;
    }
    /* The workgroup: the shader's own gl_WorkGroupID, else gl_GlobalInvocationID minus the local
     * id, else from the direct dispatch's counts. */
    int32_t v[3 * GM_LANES];
    uint32_t lid[3];
    local_id(c, c->index[0], lid);
    if (read_builtin(w, p, BUILTIN_WORKGROUP_ID, NULL, v, 3)) {
        for (int k = 0; k < 3; k++)
            c->wg[k] = (uint32_t)v[k * GM_LANES];
        c->wg_known = true;
    } else if (read_builtin(w, p, BUILTIN_GLOBAL_INVOCATION_ID, NULL, v, 3)) {
        for (int k = 0; k < 3; k++)
            c->wg[k] = ((uint32_t)v[k * GM_LANES] - lid[k]) / c->size[k];
        c->wg_known = true;
    } else if (info->groups[0] && info->groups[1] && info->groups[2]) {
        uint64_t g = (uint64_t)c->group;
        c->wg[0] = (uint32_t)(g % info->groups[0]);
        c->wg[1] = (uint32_t)(g / info->groups[0] % info->groups[1]);
        c->wg[2] = (uint32_t)(g / ((uint64_t)info->groups[0] * info->groups[1]));
        c->wg_known = true;
    }
}

/* Adds an unsigned built-in (1 or 3 words per lane) the shader does not declare itself. */
static void add_uint_builtin(sh_builder *b, const gm_program *p, int builtin, const char *name, int comps,
                             const uint32_t *words)
{
    int var, off;
    if (gm_program_find_builtin(p, builtin, &var, &off) == 0)
        return;   /* the shader reads it: copied with its variables */
    sh_type t = { .kind = comps == 1 ? SH_TYPE_SCALAR : SH_TYPE_VECTOR, .scalar = SH_SCALAR_UINT, .rows = comps,
                  .columns = 1, .element = -1, .components = comps, .name = "" };
    int ti = sh_builder_add_type(b, &t);
    if (ti >= 0)
        sh_builder_add_var(b, &(sh_var){ .name = name, .klass = SH_VAR_BUILTIN, .type = ti, .builtin = builtin,
                                         .lanes = SH_LANES, .words = words });
}

/* The compute built-ins every invocation has, from the warp's place in the dispatch, when the
 * shader does not read them (glslang keeps only the built-ins a shader uses). */
static void add_compute_builtins(sh_builder *b, const gm_program *p, const struct cs_lanes *c)
{
    uint32_t idx[SH_LANES], lid[3 * SH_LANES], gid[3 * SH_LANES], wg[3 * SH_LANES];
    for (int l = 0; l < SH_LANES; l++) {
        uint32_t id[3];
        local_id(c, c->index[l], id);
        idx[l] = c->index[l];
        for (int k = 0; k < 3; k++) {
            lid[k * SH_LANES + l] = id[k];
            wg[k * SH_LANES + l] = c->wg[k];
            gid[k * SH_LANES + l] = c->wg[k] * c->size[k] + id[k];
        }
    }
    add_uint_builtin(b, p, BUILTIN_LOCAL_INVOCATION_INDEX, "gl_LocalInvocationIndex", 1, idx);
    add_uint_builtin(b, p, BUILTIN_LOCAL_INVOCATION_ID, "gl_LocalInvocationID", 3, lid);
    if (c->wg_known) {
        add_uint_builtin(b, p, BUILTIN_WORKGROUP_ID, "gl_WorkGroupID", 3, wg);
        add_uint_builtin(b, p, BUILTIN_GLOBAL_INVOCATION_ID, "gl_GlobalInvocationID", 3, gid);
    }
}

void dbg_warp_title(const sh_header *h, uint32_t present, char *buf, size_t size)
{
    int x0 = 1 << 30, x1 = -(1 << 30), y0 = 1 << 30, y1 = -(1 << 30);
    for (int l = 0; l < SH_LANES; l++)
        if ((present >> l) & 1) {
            x0 = h->lane_x[l] < x0 ? h->lane_x[l] : x0;
            x1 = h->lane_x[l] > x1 ? h->lane_x[l] : x1;
            y0 = h->lane_y[l] < y0 ? h->lane_y[l] : y0;
            y1 = h->lane_y[l] > y1 ? h->lane_y[l] : y1;
        }
    if (h->stage == GM_STAGE_COMPUTE && h->lane_pos_known) {
        char wg[64];
        if (h->workgroup[0] >= 0)
            snprintf(wg, sizeof wg, "(%d,%d,%d)", h->workgroup[0], h->workgroup[1], h->workgroup[2]);
        else
            snprintf(wg, sizeof wg, "#%lld", (long long)h->group_index);
        if (x0 > x1)
            snprintf(buf, size, "dispatch %d · CS · warp %d · workgroup %s", h->draw, h->warp, wg);
        else
            snprintf(buf, size, "dispatch %d · CS · warp %d · workgroup %s invocations %d..%d", h->draw, h->warp, wg,
                     x0, x1);
    } else if (x0 > x1 || !h->lane_pos_known)
        snprintf(buf, size, "draw %d · %s · warp %d", h->draw, dbg_stage_short(h->stage), h->warp);
    else if (h->stage == GM_STAGE_FRAGMENT)
        snprintf(buf, size, "draw %d · FS · warp %d · pixels (%d..%d, %d..%d)", h->draw, h->warp, x0, x1, y0, y1);
    else if (h->stage == GM_STAGE_GEOMETRY)   /* lane_x: input primitive, lane_y: invocation */
        snprintf(buf, size, "draw %d · GS · warp %d · primitives %d..%d invocations %d..%d", h->draw, h->warp,
                 x0, x1, y0, y1);
    else if (h->stage == GM_STAGE_TESS_CONTROL)   /* lane_x: patch, lane_y: gl_InvocationID */
        snprintf(buf, size, "draw %d · TCS · warp %d · patch %d invocations %d..%d", h->draw, h->warp, x0, y0, y1);
    else if (h->stage == GM_STAGE_TESS_EVALUATION)   /* lane_x: patch, lane_y: domain point */
        snprintf(buf, size, "draw %d · TES · warp %d · patch %d domain points %d..%d", h->draw, h->warp, x0, y0,
                 y1);
    else
        snprintf(buf, size, "draw %d · %s · warp %d · vertices %d..%d", h->draw, dbg_stage_short(h->stage),
                 h->warp, x0, x1);
}

sh_snapshot *dbg_warp_snapshot(const struct dbg_observe_info *info, const gm_warp *w, const gm_issue *issue,
                               const struct dbg_copy_opts *o)
{
    const gm_program *p = info->prog;
    sh_builder *b = sh_builder_new();
    if (!b)
        return NULL;
    struct tmap tm = { p, b, NULL, 0 };
    int nv = gm_program_var_count(p);
    uint32_t *words = NULL;
    size_t cap = 0;
    for (int i = 0; i < nv; i++) {
        const gm_var_info *vi = gm_program_var(p, i);
        /* Uniform/storage blocks: their buffer's bytes at the stop (dbg_block_read.c), one value
         * for the warp, named by the instance (or block) name, shown with the uniforms. */
        bool block = vi && vi->klass == GM_VAR_BUFFER;
        if (block && !dbg_var_is_block(p, i))
            continue;
        const char *vname = block ? dbg_block_name(p, i) : vi ? vi->name : NULL;
        /* "param" locals are glslang's copies of call arguments, not the program's variables. */
        if (!vi || !vname || !*vname || (vi->klass == GM_VAR_LOCAL && !strcmp(vi->name, "param")))
            continue;
        int t = map_type(&tm, vi->type, 0);
        const sh_type *stype = NULL;
        (void)stype;
        if (t < 0)
            continue;
        gm_type_desc d;
        if (gm_type_get(p, vi->type, &d) != 0 || d.components <= 0)
            continue;
        int comps = d.components;
        /* Compute `shared` variables: one value for the whole workgroup, read from its block. */
        bool shared = dbg_var_is_shared(p, i);
        bool uniform = vi->klass == GM_VAR_UNIFORM || vi->klass == GM_VAR_OPAQUE || shared || block;
        int lanes = uniform ? 1 : SH_LANES;
        size_t need = (size_t)comps * (size_t)SH_LANES;
        if (need > cap) {
            uint32_t *nw = realloc(words, need * sizeof *nw);
            if (!nw)
                break;
            words = nw;
            cap = need;
        }
        uint32_t lane_words[4096];
        if (comps > 4096)
            continue;
        bool ok = true;
        for (int l = 0; l < lanes && ok; l++) {
            bool bound;
            int got = block ? dbg_read_block_var(w, i, lane_words, comps, &bound)
                    : shared ? dbg_read_shared_var(w, i, lane_words, comps) : gm_warp_read_var(w, i, l, lane_words, comps);
            if (got < 0) {
                ok = false;
                break;
            }
            for (int c = 0; c < comps; c++)
                words[(size_t)c * (size_t)lanes + (size_t)l] = lane_words[c];
        }
        if (!ok)
            continue;
        sh_builder_add_var(b, &(sh_var){ .name = vname, .function = vi->klass == GM_VAR_LOCAL ? vi->function : NULL,
                                         .klass = block ? SH_VAR_UNIFORM : dbg_var_class(vi), .type = t, .builtin = vi->builtin,
                                         .decl_line = vi->decl_line, .lanes = lanes, .words = words });
    }
    /* Parameters of the functions on the stack (dbg_params.c): locals of their function. */
    struct dbg_param prm[64];
    int np = dbg_stack_params(w, prm, 64);
    for (int k = 0; k < np; k++) {
        int t = map_type(&tm, prm[k].type, 0);
        size_t need = (size_t)prm[k].words * (size_t)SH_LANES;
        if (t < 0 || prm[k].words > 4096)
            continue;
        if (need > cap) {
            uint32_t *nw = realloc(words, need * sizeof *nw);
            if (!nw)
                break;
            words = nw;
            cap = need;
        }
        uint32_t lane_words[4096];
        for (int l = 0; l < SH_LANES; l++) {
            dbg_read_param(w, &prm[k], l, lane_words);
            for (int c = 0; c < prm[k].words; c++)
                words[(size_t)c * SH_LANES + (size_t)l] = lane_words[c];
        }
        sh_builder_add_var(b, &(sh_var){ .name = prm[k].name, .function = prm[k].function, .klass = SH_VAR_LOCAL,
                                         .type = t, .builtin = -1, .lanes = SH_LANES, .words = words });
    }
    free(words);
    free(tm.map);
    struct cs_lanes cl;
    if (info->stage == GM_STAGE_COMPUTE) {
        compute_lanes(info, w, p, issue ? issue->warp_id : 0, &cl);
        add_compute_builtins(b, p, &cl);
    }
    dbg_add_pipeline_builtins(b, p, info, w);

    /* Call stack, outermost first (gm_warp_call_depth counts frames; index 0 is main). */
    int frames = gm_warp_call_depth(w);
    for (int d = 0; d < frames; d++)
        sh_builder_push_frame(b, gm_warp_frame_function(w, d), gm_warp_frame_line(w, d));

    sh_header h;
    memset(&h, 0, sizeof h);
    h.hit = o->hit;
    h.draw = info->draw;
    h.event = info->event;
    h.stage = info->stage;
    h.warp = issue ? issue->warp_id : 0;
    h.focus_lane = o->focus_lane;
    h.shader = info->shader;
    h.program = (int)info->program;
    h.pc = issue ? issue->pc : gm_warp_pc(w);
    h.active = issue ? issue->active : gm_warp_active_mask(w);
    h.alive = gm_warp_alive_mask(w);
    h.helper = gm_warp_helper_mask(w);
    h.killed = gm_warp_killed_mask(w);
    for (int l = 0; l < SH_LANES; l++)
        h.lane_line[l] = gm_warp_lane_line(w, l);
    if (issue)
        for (int l = 0; l < SH_LANES; l++)
            if ((issue->active >> l) & 1)
                h.lane_line[l] = issue->line;
    h.line = h.lane_line[o->focus_lane];
    if (info->stage == GM_STAGE_FRAGMENT) {
        float fc[2 * GM_LANES] = { 0 };
        h.lane_pos_known = read_builtin(w, p, BUILTIN_FRAG_COORD, fc, NULL, 2);
        for (int l = 0; l < SH_LANES; l++) {
            h.lane_x[l] = (int)fc[l];
            h.lane_y[l] = (int)fc[GM_LANES + l];
        }
        if (!h.lane_pos_known && info->lane_x && info->lane_y) {
            /* The pipeline knows every lane's pixel even when the shader never reads gl_FragCoord. */
            for (int l = 0; l < SH_LANES; l++) {
                h.lane_x[l] = info->lane_x[l];
                h.lane_y[l] = info->lane_y[l];
            }
            h.lane_pos_known = true;
        }
    } else if (info->stage == GM_STAGE_COMPUTE) {
        for (int l = 0; l < SH_LANES; l++)
            h.lane_x[l] = (int)cl.index[l];
        h.lane_pos_known = 1;
        for (int k = 0; k < 3; k++) {
            h.workgroup[k] = cl.wg_known ? (int)cl.wg[k] : -1;
            h.local_size[k] = (int)cl.size[k];
        }
        h.group_index = cl.group;
    } else if (info->stage == GM_STAGE_GEOMETRY || info->stage == GM_STAGE_TESS_CONTROL ||
               info->stage == GM_STAGE_TESS_EVALUATION) {
        /* The runner tells each lane's input primitive (gl_PrimitiveIDIn) and invocation; for
         * tessellation the patch and the invocation or domain point. */
        if (info->lane_x && info->lane_y) {
            for (int l = 0; l < SH_LANES; l++) {
                h.lane_x[l] = info->lane_x[l];
                h.lane_y[l] = info->lane_y[l];
            }
            h.lane_pos_known = true;
        }
    } else {
        int32_t ids[GM_LANES] = { 0 }, inst[GM_LANES] = { 0 };
        h.lane_pos_known = read_builtin(w, p, BUILTIN_VERTEX_ID, NULL, ids, 1);
        h.lane_pos_known |= read_builtin(w, p, BUILTIN_VERTEX_INDEX, NULL, ids, 1);
        read_builtin(w, p, BUILTIN_INSTANCE_ID, NULL, inst, 1);
        read_builtin(w, p, BUILTIN_INSTANCE_INDEX, NULL, inst, 1);
        if (!h.lane_pos_known && info->lane_x && info->lane_y) {
            memcpy(ids, info->lane_x, sizeof ids);
            memcpy(inst, info->lane_y, sizeof inst);
            h.lane_pos_known = true;
        }
        memcpy(h.lane_x, ids, sizeof ids);
        memcpy(h.lane_y, inst, sizeof inst);
    }
    sh_builder_set_header(b, &h);
    char title[160];
    dbg_warp_title(&h, h.alive | h.helper | h.killed, title, sizeof title);
    sh_builder_set_text(b, title, o->resources_json, o->pipeline_json);
    char err[128];
    return sh_builder_finish(b, err, sizeof err);
}
