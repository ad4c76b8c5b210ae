/* The frame runner: walks the command stream, keeps the state model current, and runs every
 * draw and clear in the model (see gmf_frame.h and DESIGN.md). */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "gmf_threads.h"
#include "registry/glr_call_codec.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- names the program asked the driver for ---- */


static void record_name(gmf_runner *r, const struct glr_call *c, uint32_t kind, int name_param)
{
    if (!(c->flags & GLR_CALL_HAS_RET) || !c->blobs[name_param].size)
        return;
    const struct sm_context *ctx = sm_context_get(r->sm, c->ctx_id);
    if (!ctx)
        return;
    const char *s = c->blobs[name_param].data;
    size_t len = strnlen(s, c->blobs[name_param].size);
    if (r->n_names == r->cap_names) {
        int cap = r->cap_names ? 2 * r->cap_names : 32;
        gmf_name_rec *n = realloc(r->names, (size_t)cap * sizeof *n);
        if (!n)
            return;
        r->names = n;
        r->cap_names = cap;
    }
    char *dup = strndup(s, len);
    if (!dup)
        return;
    r->names[r->n_names++] = (gmf_name_rec){ sm_context_share_id(ctx), (uint32_t)c->args[0], kind,
                                             dup, (int32_t)c->ret };
}

/* ---- creation ---- */

gmf_runner *gmf_create(const gmf_config *cfg, char *err, size_t err_size)
{
    gmf_runner *r = calloc(1, sizeof *r);
    if (!r || !(r->sm = sm_state_new())) {
        snprintf(err, err_size, "out of memory");
        free(r);
        return NULL;
    }
    if (cfg && cfg->metadata_json &&
        sm_declare_capture_contexts(r->sm, cfg->metadata_json, NULL, err, err_size) < 0) {
        sm_state_free(r->sm);
        free(r);
        return NULL;
    }
    if (cfg && cfg->program_sources_size &&
        !sm_program_sources_add(r->sm, cfg->program_sources, cfg->program_sources_size, err, err_size)) {
        sm_state_free(r->sm);
        free(r);
        return NULL;
    }
    if (gmf_window_samples_parse(r, cfg ? cfg->metadata_json : NULL) != 0) {
        snprintf(err, err_size, "out of memory");
        gmf_destroy(r);
        return NULL;
    }
    r->default_w = cfg && cfg->default_width > 0 ? cfg->default_width : 256;
    r->default_h = cfg && cfg->default_height > 0 ? cfg->default_height : 256;
    if (cfg && cfg->n_surfaces > 0) {
        r->surfaces = calloc((size_t)cfg->n_surfaces, sizeof *r->surfaces);
        if (!r->surfaces) {
            snprintf(err, err_size, "out of memory");
            gmf_destroy(r);
            return NULL;
        }
        memcpy(r->surfaces, cfg->surfaces, (size_t)cfg->n_surfaces * sizeof *r->surfaces);
        r->n_surfaces = cfg->n_surfaces;
    }
    if (gmf_thr_init(r, cfg ? cfg->threads : 0, err, err_size) != 0) {
        gmf_destroy(r);
        return NULL;
    }
    if ((!cfg || cfg->timing != GMF_TIMING_OFF) && gmf_timing_init(r, err, err_size) != 0) {
        gmf_destroy(r);
        return NULL;
    }
    r->totals.timing = r->tm != NULL;
    return r;
}

void gmf_destroy(gmf_runner *r)
{
    if (!r)
        return;
    /* First: a warp stopped by the observer is still resident and is handed back. */
    gm_timing_destroy(r->tm);
    r->tm = NULL;
    gmf_thr_free(r);   /* workers are idle between draws */
    for (int i = 0; i < r->n_progs; i++)
        gmf_prog_free(r->progs[i]);
    free(r->progs);
    gmf_arb_free(r);
    gmf_ff_free(r);
    gmf_ppo_free(r);
    gmf_images_free(r);
    gmf_queries_free(r);
    gmf_xfb_free(r);
    gmf_imm_free(r);
    gmf_pix_free(r);
    gmf_lists_free(r);
    gmf_vbo_format_free(r);
    for (int i = 0; i < r->n_names; i++)
        free(r->names[i].name);
    free(r->names);
    for (int i = 0; i < r->n_unsup; i++)
        free(r->unsup_names[i]);
    free(r->unsup_names);
    free(r->unsup_counts);
    free(r->surfaces);
    free(r->win);
    sm_state_free(r->sm);
    free(r);
}

void gmf_set_abort(gmf_runner *r, const volatile sig_atomic_t *flag) { r->abort_flag = flag; }

void gmf_set_observer(gmf_runner *r, gmf_observer_fn fn, void *ctx)
{
    r->obs = fn;
    r->obs_ctx = ctx;
}

const struct sm_state *gmf_state(const gmf_runner *r) { return r->sm; }

void gmf_get_totals(const gmf_runner *r, gmf_totals *t)
{
    *t = r->totals;
    for (int i = 0; i < r->n_progs; i++) {
        const gmf_prog *p = r->progs[i];
        t->loops_limited += gm_program_loops_limited(p->vs) + gm_program_loops_limited(p->fs) +
                            gm_program_loops_limited(p->gs) + gm_program_loops_limited(p->cs);
    }
}

int gmf_unsupported_list(const gmf_runner *r, const char **names, uint64_t *counts, int max)
{
    for (int i = 0; i < r->n_unsup && i < max; i++) {
        names[i] = r->unsup_names[i];
        counts[i] = r->unsup_counts[i];
    }
    return r->n_unsup;
}

/* ---- commands ---- */

/* The state model's canonical form, so that a suffixed command the registry does not alias
 * (glGenerateMipmapEXT of GL_EXT_framebuffer_object, which glmark2 calls) does in the model what
 * its core form does, as it does in the state model. */
static uint32_t canonical(uint32_t cmd)
{
    return sm_cmd_canonical(cmd);
}

static bool is_draw_cmd(uint32_t cmd)
{
    return glr_cmds[cmd].flags & GLR_CF_ARRAY_DRAW;   /* generated classes: gen_registry.py reader_flags */
}

static bool touches_textures(uint32_t cmd)
{
    return glr_cmds[cmd].flags & GLR_CF_TEX_STATE;
}

/* Whether a texture-state command may replace an image's data in the state model: all but
 * bindings, parameters ("family parameter" in gl_annotations.txt) and glTexCoord*. */
static uint8_t param_cmd[GLR_CMD_COUNT];
static pthread_once_t param_cmd_once = PTHREAD_ONCE_INIT;

static void param_cmd_init(void)
{
    for (unsigned k = 0; k < glr_values_count; k++)
        if (glr_values[k].family == GLR_VALUES_PARAMETER && glr_values[k].cmd < GLR_CMD_COUNT)
            param_cmd[glr_values[k].cmd] = 1;
}

static bool may_replace_tex_data(uint32_t cmd)
{
    pthread_once(&param_cmd_once, param_cmd_init);
    if (glr_cmds[cmd].flags & GLR_CF_TEX_WRITE)
        return true;
    return !(cmd == GLR_CMD_glBindTexture || cmd == GLR_CMD_glBindTextures || cmd == GLR_CMD_glBindTextureUnit ||
             param_cmd[cmd] || (glr_cmds[cmd].flags & GLR_CF_BEGIN_END));
}

static bool gpu_copy_cmd(uint32_t cmd)
{
    return glr_cmds[cmd].flags & (GLR_CF_BLIT | GLR_CF_DISPATCH_COMPUTE | GLR_CF_GPU_COPY);
}

static int fs_noop(void *user, gm_pipe_fs_warp *w)
{
    (void)user;
    (void)w;
    return 0;
}

/* One draw's parameters, decoded from any draw command. */
typedef struct draw_params {
    uint32_t mode;
    int64_t first, count;
    bool indexed;
    uint32_t index_type;
    uint64_t index_offset;       /* indices: offset into the element buffer */
    const struct glr_blob *index_blob;  /* client-memory indices */
    int32_t base_vertex, base_instance;
    int64_t instances;
    int32_t draw_id;
} draw_params;

static size_t index_size(uint32_t t)
{
    return t == GL_UNSIGNED_BYTE ? 1 : t == GL_UNSIGNED_SHORT ? 2 : 4;
}

static void run_one(gmf_runner *r, const struct sm_context *c, gmf_draw_ctx *d,
                    const draw_params *dp, gmf_event *ev)
{
    gm_pipe_draw pd;
    memset(&pd, 0, sizeof pd);
    pd.mode = dp->mode;
    pd.instance_count = dp->instances > 0 ? (int)dp->instances : 0;
    pd.base_instance = dp->base_instance;
    pd.base_vertex = dp->base_vertex;
    if (dp->count <= 0 || pd.instance_count <= 0)
        return;
    if ((uint64_t)dp->count * (uint64_t)dp->instances > GMF_MAX_DRAW_INVOCATIONS) {
        gmf_note(ev, "draw of %lld vertices x %lld instances: over the model's budget of %llu vertex "
                 "invocations per draw", (long long)dp->count, (long long)dp->instances,
                 (unsigned long long)GMF_MAX_DRAW_INVOCATIONS);
        d->failed = true;
        return;
    }
    pd.count = (int)dp->count;
    if (!dp->indexed) {
        pd.first = (int)dp->first;
    } else {
        size_t is = index_size(dp->index_type);
        pd.index_type = dp->index_type;
        const uint8_t *base = NULL;
        uint64_t avail = 0;
        if (d->vao->element_buffer) {
            const struct sm_buffer *b = sm_get_buffer(c, d->vao->element_buffer);
            if (!b || !b->data_known || !b->data) {
                gmf_note(ev, "index buffer %u contents unknown", d->vao->element_buffer);
                d->failed = true;
                return;
            }
            if (dp->index_offset <= b->size) {
                base = b->data + dp->index_offset;
                avail = b->size - dp->index_offset;
            }
        } else if (dp->index_blob && dp->index_blob->size) {
            base = dp->index_blob->data;
            avail = dp->index_blob->size;
        }
        if (!base) {
            gmf_note(ev, "index data not recorded");
            d->failed = true;
            return;
        }
        if ((uint64_t)pd.count * is > avail) {
            gmf_note(ev, "index range past the end of the index data");
            pd.count = (int)(avail / is);
        }
        pd.indices = base;
    }
    d->base_vertex = dp->base_vertex;
    d->base_instance = dp->base_instance;
    r->pipe.vs = gmf_vs_cb;
    r->pipe.vs_user = d;
    r->pipe.fs = d->p->fs ? gmf_fs_cb : fs_noop;
    r->pipe.fs_user = d;
    r->pipe.info = d->p->info;
    int prc = d->p->tes  ? gmf_tess_draw(d, &pd)  /* tessellation: gmf_tess.c */
            : d->p->gs ? gmf_gs_draw(d, &pd)   /* geometry shader: gmf_geometry.c */
                       : gm_pipe_draw_exec(&r->pipe, &pd);
    gmf_thr_drain(d);   /* a failed pipeline call may leave threaded jobs (gmf_threads.c) */
    if (prc != 0 && !r->stopped && !d->failed) {
        gmf_note(ev, "pipeline: %s", r->pipe.error);
        d->failed = true;
    }
    if (prc == 0 && !r->stopped)
        gmf_xfb_capture(d, &pd);   /* transform feedback (gmf_xfb.c) */
}

static void do_draw(gmf_runner *r, const struct glr_call *call, uint32_t cmd, gmf_event *ev)
{
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    ev->kind = GMF_EV_DRAW;
    ev->draw = r->totals.draws++;
    ev->draws = 1;
    if (!c) {
        gmf_note(ev, "draw without a context");
        ev->failed = true;
        return;
    }
    const struct sm_context_state *st = sm_context_state(c);
    ev->program = st->program;
    ev->fbo = st->draw_fbo;
    const char *name = glr_cmd_name(cmd);
    const struct sm_program *sp = NULL;
    gmf_prog *p = NULL;
    /* ---- ARB assembly programs (gmf_arb.c): no GLSL program, an ARB target enabled */
    bool arb = !st->program && !st->pipeline && gmf_arb_enabled(c), arb_invalid = false;
    if (arb && !(p = gmf_arb_prog_get(r, c, &sp, &arb_invalid, ev))) {
        ev->failed = !arb_invalid;   /* an invalid program draws nothing in GL either */
        return;
    }
    /* ---- end ARB */
    bool ppo = !arb && !st->program && st->pipeline;
    if (ppo) {   /* the bound program pipeline's stages: gmf_pipeline.c */
        p = gmf_ppo_prog(r, c, st->pipeline, ev);
        if (!p) {
            ev->failed = true;
            return;
        }
        sp = sm_get_program(c, p->ppo_prog[0]);
    }
    if (!arb && !ppo) {
        sp = st->program ? sm_get_program(c, st->program) : NULL;
        /* GLSL stages, else generated fixed-function ones (gmf_ffunc.c) */
        p = sp || !st->program ? gmf_draw_program(r, c, sp, call, cmd, ev) : NULL;
    }
    if (!p || !p->ok || p->cs) {   /* a compute program cannot draw (GL_INVALID_OPERATION) */
        gmf_note(ev, "%s", !p ? "program unknown" : p->cs ? "draw with a compute program" : p->error);
        ev->failed = true;
        return;
    }
    if (r->programs_only)
        return;   /* gmf_set_programs_only: the program is chosen and compiled, nothing is drawn */
    if (r->skip_draws && gmf_skip_draw_ok(p, c)) {
        ev->skipped = true;   /* gmf_set_skip_draws: its images come from elsewhere */
        return;
    }
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!gmf_build_framebuffer(r, c, &r->pipe.fb, views, ev)) {
        ev->failed = true;
        return;
    }
    gmf_pipe_state_from_sm(c, &r->pipe.fb, &r->pipe.state, ev);
    r->pipe.state.quads_from_list = gmf_lists_executing(r);
    gmf_pix_pipe_state(r, &r->pipe.state);   /* a pixel rectangle's quad (gmf_rasterpix.c) */
    gmf_draw_ctx *d = calloc(1, sizeof *d);
    if (!d) {
        ev->failed = true;
        return;
    }
    d->r = r;
    d->c = c;
    d->st = st;
    d->vao = r->vao_override ? r->vao_override : sm_get_vao(c, st->vao);   /* glBegin/glEnd: gmf_immediate.c */
    d->p = p;
    d->ev = ev;
    gmf_ff_draw_state(d);   /* shade model, alpha test, fixed-function point size */
    if (!d->vao) {
        gmf_note(ev, "vertex array %u unknown", st->vao);
        ev->failed = true;
        free(d);
        return;
    }
    gmf_prog_upload_uniforms(r, c, sp, p, ev);
    gmf_pix_upload(r, p->fs);
    gmf_imm_bind_program(r, p);   /* per-vertex materials (gmf_immediate.c) */
    if (arb)
        gmf_arb_upload(c, p);   /* program.env / program.local, texture units */
    gmf_setup_env(d);
    gmf_timing_draw_begin(d);
    gmf_thr_draw_begin(d);
    gmf_check_attrs(d);
    memset(&r->pipe.stats, 0, sizeof r->pipe.stats);
    gmf_hooks_units_reset(r);
    gmf_hooks_draw_begin(r, ev);
    r->cur_draw = d;

    uint32_t k = canonical(cmd);
    const struct glr_cmd_info *ci = &glr_cmds[k];
    int pm = gmf_cmd_param(k, GLR_ROLE_mode), pf = gmf_cmd_param(k, GLR_ROLE_first), pc = gmf_cmd_param(k, GLR_ROLE_count),
        pt = gmf_cmd_param(k, GLR_ROLE_type), pi = gmf_cmd_param(k, GLR_ROLE_indices), pn = gmf_cmd_param(k, GLR_ROLE_instancecount),
        pbv = gmf_cmd_param(k, GLR_ROLE_basevertex), pbi = gmf_cmd_param(k, GLR_ROLE_baseinstance), pdc = gmf_cmd_param(k, GLR_ROLE_drawcount),
        pind = gmf_cmd_param(k, GLR_ROLE_indirect);
    if (pn < 0)
        pn = gmf_cmd_param(k, GLR_ROLE_primcount);
    draw_params dp = { 0 };
    dp.mode = pm >= 0 ? (uint32_t)call->args[pm] : GL_TRIANGLES;
    dp.indexed = (ci->flags & GLR_CF_ELEMENTS) != 0;
    dp.index_type = pt >= 0 ? (uint32_t)call->args[pt] : GL_UNSIGNED_INT;
    dp.instances = pn >= 0 ? (int64_t)(int32_t)call->args[pn] : 1;
    dp.base_vertex = pbv >= 0 ? (int32_t)call->args[pbv] : 0;
    dp.base_instance = pbi >= 0 ? (int32_t)call->args[pbi] : 0;
    if (pind >= 0) {
        /* Indirect: parameters from the DRAW_INDIRECT buffer. */
        const struct sm_buffer *b = st->buffer[SM_BT_DRAW_INDIRECT]
                                        ? sm_get_buffer(c, st->buffer[SM_BT_DRAW_INDIRECT]) : NULL;
        int n = pdc >= 0 ? (int)call->args[pdc] : 1;
        int ps = gmf_cmd_param(k, GLR_ROLE_stride);
        uint64_t stride = ps >= 0 && call->args[ps] ? call->args[ps] : (dp.indexed ? 20 : 16);
        for (int i = 0; i < n && !r->stopped; i++) {
            uint64_t off = call->args[pind] + (uint64_t)i * stride;
            uint32_t v[5];
            if (!b || !b->data_known || !b->data || off + (dp.indexed ? 20 : 16) > b->size) {
                gmf_note(ev, "indirect draw parameters unknown");
                d->failed = true;
                break;
            }
            memcpy(v, b->data + off, dp.indexed ? 20 : 16);
            draw_params q = dp;
            q.count = v[0];
            q.instances = v[1];
            if (dp.indexed) {
                q.index_offset = (uint64_t)v[2] * index_size(dp.index_type);
                q.base_vertex = (int32_t)v[3];
                q.base_instance = (int32_t)v[4];
            } else {
                q.first = v[2];
                q.base_instance = (int32_t)v[3];
            }
            q.draw_id = i;
            run_one(r, c, d, &q, ev);
        }
    } else if (pdc >= 0) {
        /* glMultiDraw*: arrays of counts / firsts / index offsets in blobs. */
        int n = (int)(int32_t)call->args[pdc];
        const struct glr_blob *cb = pc >= 0 ? &call->blobs[pc] : NULL;
        const struct glr_blob *fb = pf >= 0 ? &call->blobs[pf] : NULL;
        const struct glr_blob *ib = pi >= 0 ? &call->blobs[pi] : NULL;
        const struct glr_blob *bvb = pbv >= 0 ? &call->blobs[pbv] : NULL;
        /* GL checks every count before drawing any (Mesa's multi-draw validation): one negative
         * count is GL_INVALID_VALUE and nothing is drawn (piglit gl-1.4-multidrawarrays-errors). */
        for (int i = 0; cb && i < n && cb->size >= (uint64_t)(i + 1) * 4; i++) {
            int32_t v;
            memcpy(&v, (const uint8_t *)cb->data + 4 * i, 4);
            if (v < 0)
                n = 0;
        }
        for (int i = 0; i < n && !r->stopped; i++) {
            draw_params q = dp;
            int32_t cnt = 0, first = 0, bv = 0;
            uint64_t ioff = 0;
            if (!cb || cb->size < (uint64_t)(i + 1) * 4 ||
                (fb && !dp.indexed && fb->size < (uint64_t)(i + 1) * 4) ||
                (dp.indexed && (!ib || ib->size < (uint64_t)(i + 1) * 8 || !d->vao->element_buffer))) {
                gmf_note(ev, "multi-draw arrays not recorded (or client-memory indices)");
                d->failed = true;
                break;
            }
            memcpy(&cnt, (const uint8_t *)cb->data + 4 * i, 4);
            if (!dp.indexed)
                memcpy(&first, (const uint8_t *)fb->data + 4 * i, 4);
            else
                memcpy(&ioff, (const uint8_t *)ib->data + 8 * i, 8);
            if (bvb && bvb->size >= (uint64_t)(i + 1) * 4)
                memcpy(&bv, (const uint8_t *)bvb->data + 4 * i, 4);
            q.count = cnt;
            q.first = first;
            q.index_offset = ioff;
            q.base_vertex = bv;
            q.draw_id = i;
            run_one(r, c, d, &q, ev);
        }
    } else {
        dp.first = pf >= 0 ? (int64_t)(int32_t)call->args[pf] : 0;
        dp.count = pc >= 0 ? (int64_t)(int32_t)call->args[pc] : 0;
        if (dp.indexed && pi >= 0) {
            dp.index_offset = call->args[pi];
            dp.index_blob = &call->blobs[pi];
        }
        run_one(r, c, d, &dp, ev);
    }
    (void)name;
    r->client_used = true;
    gmf_thr_draw_end(d);
    gmf_timing_draw_end(d);
    gmf_hooks_units(r, ev->ctx_id);
    ev->failed = ev->failed || d->failed;
    ev->stats.vs_invocations = r->pipe.stats.vs_invocations;
    ev->stats.primitives = r->pipe.stats.primitives_in;
    ev->stats.fs_warps = r->pipe.stats.fs_warps;
    ev->stats.fs_lanes = r->pipe.stats.fs_lanes_live;
    ev->stats.fragments_passed = r->pipe.stats.fragments_passed;
    r->totals.vs_invocations += ev->stats.vs_invocations;
    r->totals.primitives += ev->stats.primitives;
    r->totals.fs_warps += ev->stats.fs_warps;
    r->totals.fs_lanes += ev->stats.fs_lanes;
    r->totals.fragments_passed += ev->stats.fragments_passed;
    r->cur_draw = NULL;
    free(d);
}

/* One clear call on the framebuffer's current layer. */
static void clear_buffers(gmf_runner *r, const struct glr_call *call, uint32_t cmd, gmf_event *ev,
                          const struct sm_context_state *st)
{
    gm_pipe_context *pc = &r->pipe;
    uint32_t k = canonical(cmd);
    if (k == GLR_CMD_glClear) {
        uint32_t mask = (uint32_t)call->args[0];
        if (mask & GL_COLOR_BUFFER_BIT)
            for (int rt = 0; rt < GM_PIPE_MAX_RT; rt++)
                if (pc->fb.color[rt])
                    gm_pipe_clear_color(pc, rt, st->clear_color);
        if (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT))
            gm_pipe_clear_depth_stencil(pc, (mask & GL_DEPTH_BUFFER_BIT) != 0, (float)st->clear_depth,
                                        (mask & GL_STENCIL_BUFFER_BIT) != 0,
                                        (uint8_t)st->clear_stencil);
        if (mask & GL_ACCUM_BUFFER_BIT)
            gmf_note(ev, "accumulation buffer");
        return;
    }
    uint32_t buffer = (uint32_t)call->args[0];
    int32_t db = (int32_t)call->args[1];
    if (k == GLR_CMD_glClearBufferfi) {
        gm_pipe_clear_depth_stencil(pc, true, glr_arg_f32(call, 2), true, (uint8_t)call->args[3]);
        return;
    }
    const struct glr_blob *v = &call->blobs[2];
    if (!v->data || v->size < (buffer == GL_COLOR ? 16u : 4u)) {
        gmf_note(ev, "%s value not recorded", glr_cmd_name(cmd));
        ev->failed = true;
        return;
    }
    uint32_t w[4] = { 0, 0, 0, 0 };
    memcpy(w, v->data, buffer == GL_COLOR ? 16 : 4);
    if (buffer == GL_COLOR) {
        if (db < 0 || db >= GM_PIPE_MAX_RT || !pc->fb.color[db])
            return;
        if (k == GLR_CMD_glClearBufferfv) {
            float f[4];
            memcpy(f, w, 16);
            gm_pipe_clear_color(pc, db, f);
        } else {
            gm_pipe_clear_color_i(pc, db, w);
        }
    } else if (buffer == GL_DEPTH && k == GLR_CMD_glClearBufferfv) {
        float z;
        memcpy(&z, w, 4);
        gm_pipe_clear_depth_stencil(pc, true, z, false, 0);
    } else if (buffer == GL_STENCIL && k == GLR_CMD_glClearBufferiv) {
        gm_pipe_clear_depth_stencil(pc, false, 0, true, (uint8_t)w[0]);
    }
}

static void do_clear(gmf_runner *r, const struct glr_call *call, uint32_t cmd, gmf_event *ev)
{
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    ev->kind = GMF_EV_CLEAR;
    ev->draw = r->totals.clears++;
    if (!c)
        return;
    gmf_hooks_draw_begin(r, ev);
    const struct sm_context_state *st = sm_context_state(c);
    ev->fbo = st->draw_fbo;
    if (sm_is_enabled(c, GL_RASTERIZER_DISCARD, 0))
        return;   /* GL ignores clears under rasterizer discard (Mesa's clear.c: RasterDiscard) */
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!gmf_build_framebuffer(r, c, &r->pipe.fb, views, ev)) {
        ev->failed = true;
        return;
    }
    gmf_pipe_state_from_sm(c, &r->pipe.fb, &r->pipe.state, ev);
    /* GL clears every layer of a layered framebuffer */
    int layers = r->lfb.layers > 1 ? r->lfb.layers : 1;
    for (int layer = 0; layer < layers && !ev->failed; layer++) {
        gmf_fb_select_layer(r, layer);
        clear_buffers(r, call, cmd, ev, st);
    }
    gmf_fb_select_layer(r, 0);
}

static void client_array(gmf_runner *r, const struct glr_call *c)
{
    if (r->client_used) {
        memset(r->client, 0, sizeof r->client);
        memset(r->client_legacy, 0, sizeof r->client_legacy);
        r->client_used = false;
    }
    uint64_t idx = c->args[0];
    gmf_client_array *a;
    if (idx < SM_MAX_VERTEX_ATTRIBS)
        a = &r->client[idx];
    else if (idx >= GLR_CLIENT_ARRAY_LEGACY_BASE && idx - GLR_CLIENT_ARRAY_LEGACY_BASE < SM_LA_COUNT)
        a = &r->client_legacy[idx - GLR_CLIENT_ARRAY_LEGACY_BASE];
    else
        return;
    a->set = true;
    a->data = c->blobs[0].data;
    a->size = c->blobs[0].size;
    a->first = c->args[6];
    a->stride = (int32_t)c->args[5];
}

gmf_status gmf_feed(gmf_runner *r, const struct glr_call *c, uint64_t record, gmf_event *ev)
{
    memset(ev, 0, sizeof *ev);
    ev->record = record;
    ev->cmd = c->cmd;
    ev->ctx_id = c->ctx_id;
    if (gmf_aborted(r))
        return GMF_STOPPED;
    r->totals.records++;
    gmf_note_runner_set(r);
    if (gmf_lists_compile(r, c, ev, gmf_feed)) {   /* glNewList .. glEndList (gmf_lists.c) */
        gmf_note_runner_set(NULL);
        return GMF_OK;
    }
    switch (c->cmd) {
    case GLR_PSEUDO_CLIENT_ARRAY:
        client_array(r, c);
        return GMF_OK;
    case GLR_PSEUDO_SWAP:
        sm_apply(r->sm, c);
        ev->kind = GMF_EV_SWAP;
        r->totals.swaps++;
        gmf_hooks_draw_end(r, ev);
        return GMF_OK;
    default:
        break;
    }
    if (c->cmd >= GLR_CMD_COUNT) {
        sm_apply(r->sm, c);
        return GMF_OK;
    }
    uint32_t k = canonical(c->cmd);
    if (gmf_imm_rejects(r, c, k)) {   /* not allowed inside glBegin/glEnd: no effect (gmf_beginend.c) */
        gmf_note_runner_set(NULL);
        return GMF_OK;
    }
    gmf_vbo_format_cmd(r, c, k);   /* which attributes Mesa's vbo takes per vertex */
    double t0 = now_s();
    if (is_draw_cmd(k)) {
        if (!gmf_cond_render_skip(r, c->ctx_id, GMF_EV_DRAW, ev))   /* gmf_queries.c */
            do_draw(r, c, c->cmd, ev);
        gmf_queries_after_draw(r, ev);
    } else if (gmf_xfb_draw_call(r, c, k, &r->xfb_draw, ev)) {   /* glDrawTransformFeedback* */
        if (!gmf_cond_render_skip(r, c->ctx_id, GMF_EV_DRAW, ev))
            do_draw(r, &r->xfb_draw, r->xfb_draw.cmd, ev);
        gmf_queries_after_draw(r, ev);
    } else if (gmf_pix_draw_call(r, c, k, &r->imm_draw, ev)) {   /* glDrawPixels, glBitmap, glCopyPixels */
        sm_apply(r->sm, c);   /* after the rectangle was taken: glBitmap moves the raster position */
        if (!gmf_cond_render_skip(r, c->ctx_id, GMF_EV_DRAW, ev))
            do_draw(r, &r->imm_draw, r->imm_draw.cmd, ev);
        gmf_pix_draw_done(r);
        gmf_queries_after_draw(r, ev);
    } else if (gmf_imm_draw_call(r, c, k, &r->imm_draw, ev)) {   /* glEnd, glRect* (gmf_immediate.c) */
        sm_apply(r->sm, c);
        if (!gmf_cond_render_skip(r, c->ctx_id, GMF_EV_DRAW, ev))
            do_draw(r, &r->imm_draw, r->imm_draw.cmd, ev);
        gmf_imm_draw_done(r);
        gmf_queries_after_draw(r, ev);
    } else if (k == GLR_CMD_glDispatchCompute || k == GLR_CMD_glDispatchComputeIndirect ||
               k == GLR_CMD_glDispatchComputeGroupSizeARB) {
        gmf_dispatch(r, c, k, ev);   /* gmf_compute.c */
    } else if (k == GLR_CMD_glClear || k == GLR_CMD_glClearBufferfv || k == GLR_CMD_glClearBufferiv ||
               k == GLR_CMD_glClearBufferuiv || k == GLR_CMD_glClearBufferfi) {
        if (!gmf_cond_render_skip(r, c->ctx_id, GMF_EV_CLEAR, ev))
            do_clear(r, c, c->cmd, ev);
    } else {
        gmf_copy_before_apply(r, c, k, ev);   /* gmf_copies.c */
        if (!gmf_copy_replaces_apply(r, c, k, ev))
            sm_apply(r->sm, c);
        if (touches_textures(k)) {
            r->tex_epoch++;
            if (may_replace_tex_data(k))
                r->tex_data_epoch++;
            gmf_tex_note_upload(r, c, k);   /* gmf_images.c */
        }
        gmf_copy_cmd(r, c, k, ev);      /* copies, read-backs, buffer uploads (gmf_copies.c) */
        gmf_queries_cmd(r, c, k, ev);   /* queries, conditional rendering (gmf_queries.c) */
        gmf_xfb_cmd(r, c, k, ev);       /* transform feedback (gmf_xfb.c) */
        gmf_imm_cmd(r, c, k, ev);       /* glBegin .. glVertex* (gmf_immediate.c) */
        if (k == GLR_CMD_glGetAttribLocation)
            record_name(r, c, GLR_CMD_glGetAttribLocation, 1);
        else if (k == GLR_CMD_glGetUniformBlockIndex)
            record_name(r, c, GLR_CMD_glGetUniformBlockIndex, 1);
        else if (k == GLR_CMD_glGetFragDataLocation)
            record_name(r, c, GLR_CMD_glGetFragDataLocation, 1);
        else if (k == GLR_CMD_glGetProgramResourceIndex && c->args[1] == GL_SHADER_STORAGE_BLOCK)
            record_name(r, c, GLR_CMD_glGetProgramResourceIndex, 2);
        else if (k == GLR_CMD_glGenerateMipmap || k == GLR_CMD_glGenerateTextureMipmap) {
            const struct sm_context *ctx = sm_context_get(r->sm, c->ctx_id);
            if (ctx) {
                uint32_t tex = 0;
                if (k == GLR_CMD_glGenerateTextureMipmap) {
                    tex = (uint32_t)c->args[0];
                } else {
                    const struct sm_context_state *st = sm_context_state(ctx);
                    int face, ti = gmf_tex_target_index((uint32_t)c->args[0], &face);
                    if (ti >= 0 && st->active_texture < SM_MAX_TEXTURE_UNITS)
                        tex = sm_texture_key(st->unit[st->active_texture].bound[ti], ti);
                }
                if (tex)
                    gmf_tex_generate_mipmap(r, ctx, tex, ev);
            }
        } else if (k == GLR_CMD_glBlitFramebuffer || k == GLR_CMD_glBlitNamedFramebuffer) {
            const struct sm_context *bctx = sm_context_get(r->sm, c->ctx_id);
            /* copies and MSAA resolves (gmf_images.c), unless conditional rendering discards it */
            if (bctx && !gmf_cond_render_skip(r, c->ctx_id, GMF_EV_NONE, ev))
                gmf_blit_framebuffer(r, bctx, c, k == GLR_CMD_glBlitNamedFramebuffer, ev);
        } else if (gmf_lists_cmd(r, c, k, ev, gmf_feed)) {   /* glCallList(s) run the lists' calls (gmf_lists.c) */
            gmf_note_runner_set(NULL);
            return r->stopped ? GMF_STOPPED : GMF_OK;
        } else if (k == GLR_CMD_glMultiModeDrawArraysIBM || k == GLR_CMD_glMultiModeDrawElementsIBM) {
            /* GL_IBM_multimode_draw_arrays (llvmpipe has it): not run, so said, never dropped */
            gmf_note(ev, "%s (IBM multi-mode draws are not modelled)", glr_cmd_name(k));
        } else if (gpu_copy_cmd(k) && !gmf_copy_handles(k)) {
            gmf_note(ev, "%s (GPU-side copy/compute/feedback not modelled)", glr_cmd_name(k));
        }
        gmf_note_runner_set(NULL);
        return GMF_OK;
    }
    ev->seconds = now_s() - t0;
    r->totals.model_seconds += ev->seconds;
    if (ev->n_unsupported)
        r->totals.draws_with_unsupported += ev->kind == GMF_EV_DRAW;
    if (ev->failed && ev->kind == GMF_EV_DRAW)
        r->totals.draws_failed++;
    if (ev->kind == GMF_EV_DRAW || ev->kind == GMF_EV_CLEAR)
        gmf_hooks_draw_end(r, ev);
    gmf_note_runner_set(NULL);
    if (r->stopped)
        return GMF_STOPPED;
    return GMF_OK;
}

gmf_status gmf_run_stream(gmf_runner *r, const void *stream, size_t size, gmf_event_fn on_event,
                          void *user, char *err, size_t err_size)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, stream, size);
    int k;
    uint64_t rec = 0;
    gmf_event *ev = malloc(sizeof *ev);
    if (!ev) {
        snprintf(err, err_size, "out of memory");
        return GMF_ERROR;
    }
    gmf_status st = GMF_OK;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        st = gmf_feed(r, &c, rec++, ev);
        if (on_event && (ev->kind != GMF_EV_NONE || ev->n_unsupported))
            on_event(user, ev);
        if (st != GMF_OK)
            break;
    }
    free(ev);
    if (k < 0) {
        snprintf(err, err_size, "command stream: %s", s.err);
        return GMF_ERROR;
    }
    return st;
}

/* ---- read-backs ---- */

int gmf_current_targets(gmf_runner *r, uint32_t ctx_id, gmf_target *out, int max)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    if (!c)
        return 0;
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gm_pipe_framebuffer fb;
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!gmf_build_framebuffer(r, c, &fb, views, &ev))
        return 0;
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_framebuffer *f = sm_get_framebuffer(c, st->draw_fbo);
    int n = 0;
    for (int i = 0; i < GM_PIPE_MAX_RT && n < max; i++) {
        if (!fb.color[i])
            continue;
        gmf_target *t = &out[n++];
        memset(t, 0, sizeof *t);
        t->kind = GMF_TARGET_COLOR;
        t->draw_buffer = i;
        t->attachment = st->draw_fbo ? (f ? f->draw_buffers[i] : 0) : GL_BACK;
        t->width = fb.color[i]->width;
        t->height = fb.color[i]->height;
        const gm_format_info *fi = gm_format_get(fb.color[i]->format);
        t->integer = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
        t->has_alpha = gm_format_has_alpha(fb.color[i]->format);
        if (st->draw_fbo)
            snprintf(t->name, sizeof t->name, "ctx%u/fbo%u/color%u", ctx_id, st->draw_fbo,
                     t->attachment - GL_COLOR_ATTACHMENT0);
        else
            snprintf(t->name, sizeof t->name, "ctx%u/default/back", ctx_id);
    }
    if (fb.depth && n < max) {
        gmf_target *t = &out[n++];
        memset(t, 0, sizeof *t);
        t->kind = GMF_TARGET_DEPTH;
        t->attachment = st->draw_fbo ? GL_DEPTH_ATTACHMENT : GL_DEPTH;
        t->width = fb.depth->width;
        t->height = fb.depth->height;
        if (st->draw_fbo)
            snprintf(t->name, sizeof t->name, "ctx%u/fbo%u/depth", ctx_id, st->draw_fbo);
        else
            snprintf(t->name, sizeof t->name, "ctx%u/default/depth", ctx_id);
    }
    return n;
}

/* One layer of a colour surface as RGBA8, rows bottom-up (integer and depth formats: -1). */
static int surface_rgba8_layer(const gm_surface *s, int z, uint8_t *px)
{
    const gm_format_info *fi = gm_format_get(s->format);
    if (fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT || fi->kind == GM_KIND_DEPTH ||
        fi->kind == GM_KIND_STENCIL || fi->kind == GM_KIND_DEPTH_STENCIL)
        return -1;
    for (int y = 0; y < s->height; y++)
        for (int x = 0; x < s->width; x++) {
            uint8_t *o = px + ((size_t)y * (size_t)s->width + (size_t)x) * 4;
            const uint8_t *t = gm_surface_texel(s, x, y, z);
            if (s->format == GM_FMT_RGBA8) {
                memcpy(o, t, 4);
                continue;
            }
            float v[4] = { 0, 0, 0, 1 };
            gm_format_unpack_rgba(s->format, t, v);
            gm_format_readback_rgba(s->format, v);
            for (int k = 0; k < 4; k++)
                o[k] = gm_float_to_unorm8(fi->srgb && k < 3 ? v[k] : v[k]);
        }
    return 0;
}

static int surface_rgba8(const gm_surface *s, uint8_t **rgba, int *w, int *h)
{
    uint8_t *px = malloc((size_t)s->width * (size_t)s->height * 4);
    if (!px)
        return -1;
    if (surface_rgba8_layer(s, 0, px) != 0) {
        free(px);
        return -1;
    }
    *rgba = px;
    *w = s->width;
    *h = s->height;
    return 0;
}

int gmf_read_texture(gmf_runner *r, uint32_t ctx_id, uint32_t name, int level, uint8_t **rgba,
                     int *w, int *h, int *depth)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gmf_texture *t = c ? gmf_tex_sync(r, c, name, &ev) : NULL;
    if (!t || level < 0 || level >= t->img.num_levels)
        return -1;
    const gm_surface *s = &t->img.level[level];
    int d = s->depth > 0 ? s->depth : 1;
    size_t layer = (size_t)s->width * (size_t)s->height * 4;
    if (!s->width || !s->height)
        return -1;
    uint8_t *px = malloc(layer * (size_t)d);
    if (!px)
        return -1;
    for (int z = 0; z < d; z++)
        if (surface_rgba8_layer(s, z, px + layer * (size_t)z) != 0) {
            free(px);
            return -1;
        }
    *rgba = px;
    *w = s->width;
    *h = s->height;
    *depth = d;
    return 0;
}

int gmf_read_color(gmf_runner *r, uint32_t ctx_id, int draw_buffer, uint8_t **rgba, int *w, int *h)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    if (!c || draw_buffer < 0 || draw_buffer >= GM_PIPE_MAX_RT)
        return -1;
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gm_pipe_framebuffer fb;
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!gmf_build_framebuffer(r, c, &fb, views, &ev) || !fb.color[draw_buffer])
        return -1;
    return surface_rgba8(fb.color[draw_buffer], rgba, w, h);
}

int gmf_read_depth(gmf_runner *r, uint32_t ctx_id, float **depth, int *w, int *h)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    if (!c)
        return -1;
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gm_pipe_framebuffer fb;
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!gmf_build_framebuffer(r, c, &fb, views, &ev) || !fb.depth)
        return -1;
    const gm_surface *s = fb.depth;
    float *d = malloc((size_t)s->width * (size_t)s->height * sizeof *d);
    if (!d)
        return -1;
    for (int y = 0; y < s->height; y++)
        for (int x = 0; x < s->width; x++)
            d[(size_t)y * (size_t)s->width + (size_t)x] =
                gm_format_unpack_depth(s->format, gm_surface_texel(s, x, y, 0));
    *depth = d;
    *w = s->width;
    *h = s->height;
    return 0;
}

/* A multisampled window (gmf_window.c) reads back as its sample 0, here as on llvmpipe, whose
 * glReadPixels of a multisampled default framebuffer gives sample 0 (checked: 100% agreement with
 * the driver and the captured image; the average of the samples agrees on 95.6% of the pixels). */
int gmf_read_default(gmf_runner *r, uint32_t ctx_id, uint8_t **rgba, int *w, int *h)
{
    gmf_default_fb *fb = gmf_default_fb_get(r, ctx_id);
    if (!fb)
        return -1;
    return surface_rgba8(&fb->color, rgba, w, h);
}

int gmf_feed_initial_state(gmf_runner *r, const struct sm_state *initial)
{
    /* Every context's state is restored, also where no object exists: a legacy program's matrices,
     * enables and clear colour (glxgears' projection) are state of the context alone. */
    if (!initial || !sm_context_count(initial))
        return 0;
    r->from_snapshot = true;
    struct sm_call_list calls = { 0 };
    if (!sm_restore_calls(initial, &calls) || calls.failed) {
        sm_call_list_free(&calls);
        return -1;
    }
    for (size_t i = 0; i < calls.count; i++) {
        gmf_event ev;
        gmf_feed(r, &calls.calls[i], 0, &ev);
    }
    sm_call_list_free(&calls);
    gmf_queries_initial(r, initial);   /* results earlier frames left (gmf_queries.c) */
    return 0;
}
