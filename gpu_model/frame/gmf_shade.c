/* The SIMT executor as the pipeline's vertex and fragment shader: inputs copied into a warp
 * (attributes fetched here, varyings and built-ins from the pipeline's SoA arrays), the warp
 * run, outputs copied back. With the timing model a warp is only queued at the call and its
 * outputs are copied when the pipeline completes it (many warps in flight, gmf_timing.c);
 * without it the warp runs to its end at the call. Also the resources a warp reaches
 * (textures by unit and target, uniform/storage blocks by binding) and the observer
 * trampoline that tags each issued instruction with the draw, the stage and the warp's
 * serial number (executor path; the timing model's is in gmf_timing.c). */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "gmf_threads.h"
#include "gm_pipe_internal.h"
#include "gm_texture_aniso.h"

/* Executor-path observer trampoline (draws and lock-step dispatches): only installed when a
 * frame observer is set; r->cur_issue already names the running warp. */
int gmf_executor_observe(void *ctx, gm_warp *w, const gm_issue *is)
{
    gmf_runner *r = ctx;
    gmf_issue *i = &r->cur_issue;
    i->pc = is->pc;
    i->line = is->line;
    i->active = is->active;
    i->call_depth = is->call_depth;
    r->totals.warp_instructions++;
    if (r->obs(r->obs_ctx, w, i)) {
        r->stopped = true;
        return 1;
    }
    return 0;
}

/* Executor path (no timing model): runs a warp to its end (observer pauses that do not
 * stop the run are resumed). */
static int run_warp(gmf_draw_ctx *d, gm_warp *w, gm_stage stage, const gm_program *gp)
{
    gmf_runner *r = d->r;
    if (r->obs) {
        gmf_issue *i = &r->cur_issue;
        i->draw = d->ev->draw;
        i->stage = stage;
        i->warp = d->warps[stage == GM_STAGE_FRAGMENT];
        i->frame_warp = r->frame_warps;
        i->program = d->p->name;
        i->file = gm_program_pc_count(gp) > 0 ? gm_program_pc_file(gp, 0) : NULL;
        i->cycle = 0;
        i->sm = -1;
    }
    d->warps[stage == GM_STAGE_FRAGMENT]++;
    r->frame_warps++;
    gm_warp_set_observer(w, r->obs ? gmf_executor_observe : NULL, r->obs ? r : NULL);
    if (gmf_aborted(r))
        return -1;
    for (;;) {
        gm_run_status s = gm_warp_run(w, 0);
        if (s == GM_RUN_DONE)
            return 0;
        if (s == GM_RUN_ERROR) {
            gmf_note(d->ev, "%s shader runtime error: %s",
                     stage == GM_STAGE_VERTEX ? "vertex" : "fragment", gm_warp_error(w));
            d->failed = true;
            return -1;
        }
        if (r->stopped)
            return -1;
    }
}


/* VS inputs into a begun warp: attributes and the vertex/instance built-ins; lane_vid and
 * lane_inst get what each lane stands for (the observer's lane_x / lane_y). */
static void vs_inputs(gmf_draw_ctx *d, gm_warp *w, const int32_t *vertex_id, int count,
                      int32_t instance_id, int32_t lane_vid[GM_LANES],
                      int32_t lane_inst[GM_LANES])
{
    gmf_prog *p = d->p;
    for (int a = 0; a < p->n_attrs; a++) {
        const gmf_attr *at = &p->attrs[a];
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, at->c.var);
        if (!v)
            continue;
        for (int l = 0; l < count; l++) {
            uint32_t val[4];
            gmf_fetch_attr(d, at, vertex_id[l], instance_id, val);
            /* `layout(location = L, component = C)`: the input takes the attribute's
             * components from C on (GL_ARB_enhanced_layouts; 64-bit ones come placed) */
            int first = at->c.is64 ? 0 : at->c.comp;
            for (int k = 0; k < at->c.n && first + k < 4; k++)
                v[at->c.word + k][l] = val[first + k];
        }
    }
    int vars[7] = { p->vid_var, p->vindex_var, p->iid_var, p->iindex_var, p->basev_var,
                    p->basei_var, p->drawid_var };
    for (int b = 0; b < 7; b++) {
        if (vars[b] < 0)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, vars[b]);
        if (!v)
            continue;
        for (int l = 0; l < count; l++) {
            int32_t x;
            switch (b) {
            case 0: case 1: x = vertex_id[l]; break;
            case 2: x = instance_id; break;
            case 3: x = instance_id + d->base_instance; break;
            case 4: x = d->base_vertex; break;
            case 5: x = d->base_instance; break;
            default: x = 0; break;
            }
            memcpy(&v[0][l], &x, 4);
        }
    }
    for (int l = 0; l < GM_LANES; l++) {
        lane_vid[l] = l < count ? vertex_id[l] : 0;
        lane_inst[l] = instance_id;
    }
}

/* VS outputs of a finished warp into the pipeline's vertices. */
/* The vertex colour outputs (the upgrade pass's names for gl_FrontColor and the others, of a
 * vertex or a geometry shader), which GL_CLAMP_VERTEX_COLOR clamps. */
bool gmf_color_output(const gm_var_info *vi)
{
    const char *n = vi ? vi->name : NULL;
    if (!n || strncmp(n, "glr_", 4) != 0)
        return false;
    n += 4;
    if (!strncmp(n, "gs_", 3))
        n += 3;
    return !strcmp(n, "FrontColor") || !strcmp(n, "BackColor") || !strcmp(n, "FrontSecondaryColor") ||
           !strcmp(n, "BackSecondaryColor");
}

static void vs_outputs(gmf_draw_ctx *d, gm_warp *w, gm_pipe_vertex *out, int count,
                       const int32_t *vid)
{
    gmf_prog *p = d->p;
    uint32_t (*pos)[GM_LANES] = p->pos_var >= 0 ? gm_warp_var_lanes(w, p->pos_var) : NULL;
    uint32_t (*ps)[GM_LANES] = p->psize_var >= 0 ? gm_warp_var_lanes(w, p->psize_var) : NULL;
    uint32_t (*cd)[GM_LANES] = p->clip_var >= 0 ? gm_warp_var_lanes(w, p->clip_var) : NULL;
    uint32_t (*cu)[GM_LANES] = p->cull_var >= 0 && p->n_cull > 0 ? gm_warp_var_lanes(w, p->cull_var)
                                                                 : NULL;
    uint32_t (*clipv)[GM_LANES] = p->user_clip && !p->gs && !p->tes && p->clipv_var >= 0
                                      ? gm_warp_var_lanes(w, p->clipv_var) : NULL;
    for (int l = 0; l < count; l++) {
        gm_pipe_vertex *o = &out[l];
        memset(o, 0, sizeof *o);
        if (pos)
            for (int k = 0; k < 4; k++)
                memcpy(&o->pos[k], &pos[p->pos_off + k][l], 4);
        if (ps)
            memcpy(&o->point_size, &ps[p->psize_off][l], 4);
        if (cd)
            for (int k = 0; k < p->n_clip; k++)
                memcpy(&o->clip_dist[k], &cd[p->clip_off + k][l], 4);
        if (p->user_clip && !p->gs && !p->tes) {
            float cv[4];
            for (int k = 0; clipv && k < 4; k++)
                memcpy(&cv[k], &clipv[k][l], 4);
            gmf_user_clip_dist(d, clipv ? cv : o->pos, o->clip_dist);
        }
        if (cu)   /* cull distances after the clip distances (gm_pipe_shader_info) */
            for (int k = 0; k < p->n_cull; k++)
                memcpy(&o->clip_dist[p->n_clip + k], &cu[p->cull_off + k][l], 4);
    }
    if (cu && p->fs_cull_slot >= 0)
        for (int l = 0; l < count; l++)
            for (int k = 0; k < p->fs_cull_n; k++)
                memcpy(&out[l].var[p->fs_cull_slot + k / 4][k % 4], &cu[p->cull_off + k][l], 4);
    /* gl_Layer / gl_ViewportIndex of the vertex shader that the fragment shader reads */
    if (!p->gs && !p->tes) {
        const int hv[2][3] = {{p->vs_layer_var, p->vs_layer_off, p->layer_slot},
                              {p->vs_vpi_var, p->vs_vpi_off, p->vpi_slot}};
        for (int h = 0; h < 2; h++) {
            if (hv[h][0] < 0 || hv[h][2] < 0)
                continue;
            uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, hv[h][0]);
            for (int l = 0; l < count; l++)
                memcpy(&out[l].var[hv[h][2]][0], &v[hv[h][1]][l], 4);
        }
    }
    /* clip distances the fragment shader reads, as hidden varyings */
    if (cd && p->fs_clip_slot >= 0)
        for (int l = 0; l < count; l++)
            for (int k = 0; k < p->fs_clip_n; k++)
                memcpy(&out[l].var[p->fs_clip_slot + k / 4][k % 4], &cd[p->clip_off + k][l], 4);
    /* edge flags (glEdgeFlag, edge flag array) only matter in polygon mode line/point */
    if (d->vao && (d->vao->legacy[SM_LA_EDGE_FLAG].enabled ||
                   d->st->legacy_current[SM_LA_EDGE_FLAG][0] == 0.0f))
        for (int l = 0; l < count; l++)
            out[l].no_edge = !gmf_fetch_edge_flag(d, vid[l]);
    for (int c = 0; c < p->n_vs_out; c++) {
        const gmf_chunk *ch = &p->vs_out[c];
        if (ch->location < 0 || ch->location >= GM_PIPE_MAX_VARYINGS)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, ch->var);
        for (int k = 0; k < ch->n && ch->comp + k < 4; k++)
            for (int l = 0; l < count; l++)
                memcpy(&out[l].var[ch->location][ch->comp + k], &v[ch->word + k][l], 4);
        if (d->clamp_vertex_color && gmf_color_output(gm_program_var(p->vs, ch->var)))
            for (int k = 0; k < ch->n && ch->comp + k < 4; k++)
                for (int l = 0; l < count; l++) {
                    float *x = &out[l].var[ch->location][ch->comp + k];
                    *x = gmf_clamp_color_lp(*x);
                }
    }
}

/* The pipeline's VS callback. With the timing model the warp is queued (GM_PIPE_QUEUED)
 * and a call with vertex_id NULL completes the oldest queued one (gm_pipe_internal.h). */
int gmf_vs_cb(void *user, const int32_t *vertex_id, int count, int32_t instance_id,
              gm_pipe_vertex *out)
{
    gmf_draw_ctx *d = user;
    gmf_prog *p = d->p;
    int32_t lane_vid[GM_LANES], lane_inst[GM_LANES];
    gm_mask mask = count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
    if (d->r->tm) {
        if (!vertex_id) {
            gmf_flight *f = gmf_timing_complete(d, GM_STAGE_VERTEX);
            if (!f)
                return 1;
            vs_outputs(d, f->w, f->vout, f->count, f->lane_x);
            gmf_timing_release(d, GM_STAGE_VERTEX);
            return 0;
        }
        gm_warp *w = gmf_timing_next_warp(d, GM_STAGE_VERTEX);
        if (!w)
            return 1;
        gm_warp_begin(w, mask, 0);
        vs_inputs(d, w, vertex_id, count, instance_id, lane_vid, lane_inst);
        return gmf_timing_queue(d, w, GM_STAGE_VERTEX, lane_vid, lane_inst, out, count, NULL);
    }
    if (d->thr) {   /* shaded on worker threads (gmf_threads.c) */
        if (!vertex_id) {
            gmf_thr_done j;
            if (gmf_thr_complete(d, GM_STAGE_VERTEX, &j) != 0)
                return 1;
            vs_outputs(d, j.w, j.vout, j.count, j.lane_x);
            gmf_thr_release(d, GM_STAGE_VERTEX);
            return 0;
        }
        gm_warp *w = gmf_thr_next_warp(d, GM_STAGE_VERTEX);
        if (!w)
            return 1;
        gm_warp_begin(w, mask, 0);
        vs_inputs(d, w, vertex_id, count, instance_id, lane_vid, lane_inst);
        return gmf_thr_queue(d, w, GM_STAGE_VERTEX, lane_vid, out, count, NULL);
    }
    if (!vertex_id)
        return 1;   /* nothing is ever queued without the timing model or threads */
    gm_warp *w = p->vw;
    gm_warp_begin(w, mask, 0);
    vs_inputs(d, w, vertex_id, count, instance_id, lane_vid, lane_inst);
    d->r->cur_issue.lane_x = lane_vid;
    d->r->cur_issue.lane_y = lane_inst;
    int vrc = run_warp(d, w, GM_STAGE_VERTEX, p->vs);
    d->r->cur_issue.lane_x = d->r->cur_issue.lane_y = NULL;
    if (vrc != 0)
        return 1;
    vs_outputs(d, w, out, count, vertex_id);
    return 0;
}


/* FS inputs (varyings, built-ins) into a warp. */



/* The pipeline's FS callback; queued with the timing model like gmf_vs_cb (fw NULL:
 * complete the oldest). */
int gmf_fs_cb(void *user, gm_pipe_fs_warp *fw)
{
    gmf_draw_ctx *d = user;
    gmf_prog *p = d->p;
    if (d->r->tm) {
        if (!fw) {
            gmf_flight *f = gmf_timing_complete(d, GM_STAGE_FRAGMENT);
            if (!f)
                return 1;
            gmf_fs_outputs(d, f->w, f->fw);
            gmf_timing_release(d, GM_STAGE_FRAGMENT);
            return 0;
        }
        gm_warp *w = gmf_timing_next_warp(d, GM_STAGE_FRAGMENT);
        if (!w)
            return 1;
        gmf_fs_inputs(d, w, fw);
        return gmf_timing_queue(d, w, GM_STAGE_FRAGMENT, fw->x, fw->y, NULL, 0, fw);
    }
    if (d->thr) {
        if (!fw) {
            gmf_thr_done j;   /* the job wrote its outputs (gmf_threads.c run_job) */
            if (gmf_thr_complete(d, GM_STAGE_FRAGMENT, &j) != 0)
                return 1;
            gmf_thr_release(d, GM_STAGE_FRAGMENT);
            return 0;
        }
        gm_warp *w = gmf_thr_next_warp(d, GM_STAGE_FRAGMENT);
        if (!w)
            return 1;
        return gmf_thr_queue(d, w, GM_STAGE_FRAGMENT, fw->x, NULL, 0, fw);
    }
    if (!fw)
        return 1;   /* nothing is ever queued without the timing model or threads */
    gm_warp *w = p->fw;
    gmf_fs_inputs(d, w, fw);
    d->r->cur_issue.lane_x = fw->x;
    d->r->cur_issue.lane_y = fw->y;
    d->r->cur_issue.fs = fw;
    int frc = run_warp(d, w, GM_STAGE_FRAGMENT, p->fs);
    d->r->cur_issue.lane_x = d->r->cur_issue.lane_y = NULL;
    d->r->cur_issue.fs = NULL;
    if (frc != 0)
        return 1;
    gmf_fs_outputs(d, w, fw);
    return 0;
}

/* ---- resources ---- */

/* Resolves the unit's texture for the request's target (GL binds one texture per target
 * per unit), syncs it with the state model, then samples through the pipeline's units. */
static void sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    gmf_draw_ctx *d = ctx;
    if (gmf_thr_bound(d)) {   /* bindings resolved for the timing model's workers */
        gmf_thr_bound_sample(d, req, out);
        return;
    }
    unsigned u = req->unit;
    int ti = gmf_sample_target_index(req);
    gm_tex_unit *tu = u < GM_TEX_MAX_UNITS ? &d->units.unit[u] : NULL;
    if (tu) {
        tu->image = NULL;
        tu->sampler = NULL;
    }
    if (gmf_pix_sample(d->r, u, tu)) {   /* a pixel rectangle's image (gmf_rasterpix.c) */
        gm_tex_sample_fn(&d->units, req, out);
        return;
    }
    if (tu && ti >= 0 && u < SM_MAX_TEXTURE_UNITS) {
        /* Pixel history: which images draws read (draws with a watch are not threaded). */
        const gm_pipe_watch *w = d->r->pipe.watch;
        if (w && w->on_texture)
            w->on_texture(w->user, d->st->unit[u].bound[ti]);
        gmf_unit_resolve(d, u, ti, tu, &d->samplers[u], NULL);
    }
    gm_tex_sample_fn(&d->units, req, out);
}

/* For debuggers (gmf_frame.h): whether a fetch through `unit` would find a complete texture, as
 * sample() decides it. */
int gmf_unit_incomplete(gmf_runner *r, unsigned unit, int dim, int arrayed, int multisampled, uint32_t *name)
{
    gmf_draw_ctx *d = r->cur_draw;
    *name = 0;
    gm_sample_request req = { .unit = unit, .dim = (gm_tex_dim)dim, .arrayed = arrayed, .multisampled = multisampled };
    int ti = gmf_sample_target_index(&req);
    if (!d || ti < 0 || unit >= SM_MAX_TEXTURE_UNITS || dim == GM_DIM_BUFFER)
        return -1;
    *name = d->st->unit[unit].bound[ti];
    uint32_t key = sm_texture_key(*name, ti);
    gmf_texture *t = gmf_tex_sync(d->r, d->c, key, d->ev);
    if (!t)
        return 1;
    const struct sm_texture *st = sm_get_texture(d->c, key);
    const struct sm_sampler *ss = d->st->unit[unit].sampler ? sm_get_sampler(d->c, d->st->unit[unit].sampler) : NULL;
    if (!st)
        return -1;
    gm_tex_sampler smp;
    gmf_tex_sampler_from_sm(ss ? &ss->params : &st->params, &smp);
    return !gmf_tex_complete(t, &smp);
}

static void *buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size, int stage)
{
    gmf_draw_ctx *d = ctx;
    gmf_prog *p = d->p;
    for (int b = 0; b < p->n_blocks[stage]; b++) {
        const gmf_block_map *m = &p->blocks[stage][b];
        if ((unsigned)m->model_binding == binding &&
            m->storage == (kind == GM_BUFFER_STORAGE)) {
            *size = d->bufs[stage][b].size;
            return d->bufs[stage][b].data;
        }
    }
    *size = 0;
    return NULL;
}

static void *buffer_vs(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    return buffer(ctx, kind, binding, size, 0);
}

static void *buffer_fs(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    return buffer(ctx, kind, binding, size, 1);
}

static void *buffer_gs(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    return buffer(ctx, kind, binding, size, 2);
}

/* Blocks of the same kind the program has, counted once by name over its stages: the
 * driver numbers its block indices per program and kind. */
static int blocks_of_kind(const gmf_prog *p, bool storage)
{
    int n = 0;
    for (int s = 0; s < 2; s++)
        for (int b = 0; b < p->n_blocks[s]; b++) {
            const gmf_block_map *m = &p->blocks[s][b];
            if (m->storage != storage || m->atomic)
                continue;
            bool seen = false;
            for (int b0 = 0; s == 1 && b0 < p->n_blocks[0] && !seen; b0++)
                seen = p->blocks[0][b0].storage == storage &&
                       !strcmp(p->blocks[0][b0].name, m->name);
            n += !seen;
        }
    return n;
}

/* Block bindings: model block -> driver block index (by name, from glGetUniformBlockIndex /
 * glGetProgramResourceIndex; a program's only block of its kind has index 0) -> the binding
 * glUniformBlockBinding / glShaderStorageBlockBinding gave it, else the source's
 * layout(binding = N), else GL's default 0 -> buffer range. */
/* Block b of the stage reads the buffer range bound at ib (NULL: a binding past the limits). */
static void bind_range(gmf_draw_ctx *d, int stage, int b, const gmf_block_map *m,
                       const struct sm_indexed_buffer *ib)
{
    const struct sm_buffer *buf = ib && ib->buffer ? sm_get_buffer(d->c, ib->buffer) : NULL;
    if (!buf || !buf->data || !buf->data_known) {
        gmf_note(d->ev, "block %s: %s", m->atomic ? "atomic counters" : m->name,
                 !buf ? "no buffer bound" : "buffer contents unknown");
        return;
    }
    uint64_t off = ib->offset, size = ib->size ? ib->size : buf->size - ib->offset;
    if (off > buf->size)
        return;
    if (off + size > buf->size)
        size = buf->size - off;
    d->bufs[stage][b] = (gmf_buffer_binding){ buf->data + off, (size_t)size };
}

void gmf_bind_blocks(gmf_draw_ctx *d, int stage)
{
    gmf_prog *p = d->p;
    const struct sm_program *sp = sm_get_program(d->c, p->name);
    uint32_t share = sm_context_share_id(d->c);
    for (int b = 0; b < p->n_blocks[stage]; b++) {
        const gmf_block_map *m = &p->blocks[stage][b];
        d->bufs[stage][b] = (gmf_buffer_binding){ NULL, 0 };
        if (m->atomic) {
            /* Atomic counters have no block index: GLSL requires layout(binding = N), which
             * names the GL_ATOMIC_COUNTER_BUFFER binding point directly. */
            bind_range(d, stage, b, m, m->model_binding >= 0 && m->model_binding < SM_MAX_ATOMIC_BINDINGS
                                           ? &d->st->atomic[m->model_binding] : NULL);
            continue;
        }
        const gmf_name_rec *nr = gmf_find_name(d->r, share, p->name,
                                               m->storage ? GLR_CMD_glGetProgramResourceIndex
                                                          : GLR_CMD_glGetUniformBlockIndex,
                                               m->name);
        int32_t index = nr ? nr->value : (blocks_of_kind(p, m->storage) == 1 ? 0 : -1);
        const struct sm_name_binding *list = !sp ? NULL
                                             : m->storage ? sp->ssbo_bindings : sp->ubo_bindings;
        uint32_t n = !sp ? 0 : m->storage ? sp->n_ssbo_bindings : sp->n_ubo_bindings;
        uint32_t binding = m->explicit_binding && m->model_binding >= 0
                               ? (uint32_t)m->model_binding : 0;
        bool found = false;
        for (uint32_t i = 0; i < n && index >= 0; i++)
            if ((int32_t)list[i].index == index) {
                binding = list[i].index2;
                found = true;
            }
        if (!found && index < 0 && n > 0)
            gmf_note(d->ev, "block %s: its index was never asked for (binding %u assumed)",
                     m->name, binding);
        bind_range(d, stage, b, m,
                   m->storage ? (binding < SM_MAX_SSBO_BINDINGS ? &d->st->ssbo[binding] : NULL)
                              : (binding < SM_MAX_UBO_BINDINGS ? &d->st->ubo[binding] : NULL));
    }
}

void gmf_setup_env(gmf_draw_ctx *d)
{
    gmf_user_clip_setup(d);
    memset(&d->units, 0, sizeof d->units);
    for (int s = 0; s < 3; s++) {   /* VS, FS, GS */
        d->env[s].ctx = d;
        d->env[s].sample = sample;
        d->env[s].image = gmf_image_access;   /* image load/store/atomics (gmf_compute.c) */
        d->env[s].buffer = s == 2 ? buffer_gs : s ? buffer_fs : buffer_vs;
        if (s == 0 || (s == 1 && d->p->fs) || (s == 2 && d->p->gs))
            gmf_bind_blocks(d, s);
    }
    gm_warp_set_env(d->p->vw, &d->env[0]);
    if (d->p->fw)
        gm_warp_set_env(d->p->fw, &d->env[1]);
}

/* vs_inputs for other passes over a draw's vertices (transform feedback, gmf_xfb.c). */
void gmf_vs_inputs(gmf_draw_ctx *d, gm_warp *w, const int32_t *vertex_id, int count,
                   int32_t instance_id)
{
    int32_t lane_vid[GM_LANES], lane_inst[GM_LANES];
    vs_inputs(d, w, vertex_id, count, instance_id, lane_vid, lane_inst);
}
