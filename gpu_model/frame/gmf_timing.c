/* The timing model (gpu_model/timing) as the frame runner's warp scheduler, with many warps
 * in flight.
 *
 * The pipeline's shader callbacks may queue a warp instead of running it (deferred shading,
 * gpu_model/pipeline/gm_pipe_internal.h). Here each queued warp is submitted to its draw's
 * batch (one vertex and one fragment batch per draw; geometry warps go to a third batch from
 * gmf_geometry.c's own window, gmf_timing_submit_gs) as a "flight" on a ring per stage, and
 * nothing runs until the pipeline needs the oldest one's outputs: then the model runs until
 * that warp retires, with the submitted warps resident as slots allow, interleaved (latency
 * hiding, scheduler contention). Up to flight_max warps per stage are in flight (twice the
 * model's warp slots, so freed slots refill while the oldest finishes); the pipeline then
 * completes the oldest before queueing more. Functional results never depend on the
 * schedule (execution happens at issue, and the pipeline applies fragment operations in
 * submission order), so images equal those of running each warp to completion. The issue
 * observer tags each instruction with its warp's draw, stage and serial from the flight
 * passed as the submit `user` pointer. Everything is single-threaded and follows the
 * pipeline's order: the schedule is deterministic. */
#include <string.h>

#include "gmf_internal.h"
#include "gmf_tex_ahead.h"
#include "gmf_threads.h"
#include "gm_timing_pre.h"
#include "gm_pipe_internal.h"

/* Marks the flight retired (the pipeline reads its outputs when it completes it) and hands
 * the fixed-function work grown so far to the telemetry hooks. */
static void on_retire(void *ctx, gm_warp *w, void *user, int batch, gm_run_status status)
{
    (void)w;
    (void)batch;
    gmf_runner *r = ctx;
    gmf_flight *f = user;
    f->retired = true;
    f->status = status;
    if (status == GM_RUN_ERROR)
        r->tm_warp_error = true;
    if (r->cur_draw)
        gmf_hooks_units(r, r->cur_draw->ev->ctx_id);
}

/* Issue observer -> telemetry hook and frame observer; only installed while one is set.
 * The draw, stage and warp numbers are those of the issuing warp's flight (draws and
 * dispatches alike: a dispatch's flights carry no lane pixels). */
int gmf_timing_observe(void *ctx, const gm_timing_issue *ev)
{
    gmf_runner *r = ctx;
    r->last_sm = ev->sm;
    if (r->has_hooks && r->hooks.issue)
        r->hooks.issue(r->hooks.ctx, ev);
    if (!r->obs)
        return 0;
    const gmf_flight *f = ev->user;
    gmf_issue *i = &r->cur_issue;
    i->draw = f->draw;
    i->stage = f->stage;
    i->warp = f->warp;
    i->frame_warp = f->frame_warp;
    i->program = f->program;
    i->file = f->file;
    i->lane_x = f->lane_x;
    i->lane_y = f->lane_y;
    i->fs = f->stage == GM_STAGE_FRAGMENT ? f->fw : NULL;
    i->pc = ev->pc;
    i->line = ev->line;
    i->active = ev->active;
    /* The executor's observer reports frames below main; gm_warp_call_depth counts main. */
    i->call_depth = gm_warp_call_depth(ev->warp) - 1;
    i->cycle = ev->cycle;
    i->sm = ev->sm;
    r->totals.warp_instructions++;
    if (r->obs(r->obs_ctx, ev->warp, i)) {
        r->stopped = true;
        return 1;
    }
    return 0;
}

int gmf_timing_init(gmf_runner *r, char *err, size_t err_size)
{
    gm_timing_config cfg;
    gm_timing_config_default(&cfg);
    r->tm = gm_timing_create(&cfg, err, err_size);
    if (!r->tm)
        return -1;
    gm_timing_set_retire_callback(r->tm, on_retire, r);
    gm_timing_set_pre_wait(r->tm, gmf_thr_pre_wait, r);   /* warps run ahead on workers */
    int slots = cfg.sm_count * cfg.warp_slots_per_sm;
    r->flight_max = 2 * slots < GMF_MAX_FLIGHTS ? 2 * slots : GMF_MAX_FLIGHTS;
    if (r->flight_max < 1)
        r->flight_max = 1;
    return 0;
}

/* Drops every flight. Unless the observer stopped the run (the model is never run again
 * then), the model first runs until every submitted warp retired, so no warp outlives the
 * draw that owns its inputs and outputs. */
static void cancel_flights(gmf_runner *r)
{
    while (!r->stopped) {
        gm_timing_status ts = gm_timing_run(r->tm);
        if (ts == GM_TIMING_ERROR && r->tm_warp_error) {
            r->tm_warp_error = false;   /* a warp's runtime error: it retired, go on */
            continue;
        }
        break;
    }
    for (int s = 0; s < 2; s++)
        r->ring[s].head = r->ring[s].n = 0;
}

void gmf_timing_drain(gmf_draw_ctx *d)
{
    cancel_flights(d->r);
}

void gmf_timing_draw_begin(gmf_draw_ctx *d)
{
    d->batch[0] = d->batch[1] = d->batch[2] = -1;
    d->tex_ahead = 0;
    d->tess_batch[0] = d->tess_batch[1] = -1;
    /* Cache tags per texture object: the unit's first bound target's name. */
    for (int u = 0; u < GM_TEX_MAX_UNITS && u < SM_MAX_TEXTURE_UNITS; u++) {
        d->tex_ids[u] = 0;
        for (int t = 0; t < SM_TT_COUNT && !d->tex_ids[u]; t++)
            d->tex_ids[u] = d->st->unit[u].bound[t];
    }
    gmf_runner *r = d->r;
    if (r->tm) {
        /* Rings start at slot 0 each draw: small draws touch few pool warps. */
        for (int s = 0; s < 2; s++)
            r->ring[s].head = r->ring[s].n = 0;
        r->tm_warp_error = false;
        gmf_thr_pre_draw_begin(d);
    }
}

void gmf_timing_draw_end(gmf_draw_ctx *d)
{
    gmf_runner *r = d->r;
    if (!r->tm)
        return;
    /* The pipeline completes every queued warp before it returns; only an aborted draw
     * (or a stopped run) leaves flights behind. */
    if (r->ring[0].n || r->ring[1].n)
        cancel_flights(r);
    gmf_thr_pre_draw_end(d);
    uint64_t first = UINT64_MAX, end = 0;
    for (int s = 0; s < 5; s++) {
        int b = s < 3 ? d->batch[s] : d->tess_batch[s - 3];   /* 3, 4: TCS, TES (gmf_tess.c) */
        if (b < 0)
            continue;
        gm_timing_batch_close(r->tm, b);
        gm_timing_stats st;
        if (gm_timing_batch_stats(r->tm, b, &st) != 0 || st.warps_retired == 0)
            continue;
        if (s >= 3)
            d->ev->stats.tess_cycles += st.cycles;
        else if (s == 2)
            d->ev->stats.gs_cycles = st.cycles;
        else if (s)
            d->ev->stats.fs_cycles = st.cycles;
        else
            d->ev->stats.vs_cycles = st.cycles;
        d->ev->stats.instructions += st.instructions;
        if (st.first_cycle < first)
            first = st.first_cycle;
        if (st.end_cycle > end)
            end = st.end_cycle;
    }
    d->ev->stats.cycles = end > first ? end - first : 0;
    r->totals.cycles += d->ev->stats.cycles;
}

gm_warp *gmf_timing_next_warp(gmf_draw_ctx *d, gm_stage stage)
{
    gmf_runner *r = d->r;
    int s = stage == GM_STAGE_FRAGMENT;
    const gmf_ring *rg = &r->ring[s];
    if (rg->n >= r->flight_max) {
        gmf_note(d->ev, "timing model: %s warp queued past the in-flight limit",
                 s ? "fragment" : "vertex");
        d->failed = true;
        cancel_flights(r);
        return NULL;
    }
    gm_warp *w = gmf_prog_pool_warp(d->p, s, (rg->head + rg->n) % r->flight_max);
    if (!w) {
        gmf_note(d->ev, "timing model: out of memory creating warps");
        d->failed = true;
        cancel_flights(r);
    }
    return w;
}

int gmf_timing_queue(gmf_draw_ctx *d, gm_warp *w, gm_stage stage, const int32_t *lane_x,
                     const int32_t *lane_y, gm_pipe_vertex *vout, int count,
                     gm_pipe_fs_warp *fw)
{
    gmf_runner *r = d->r;
    if (gmf_aborted(r))
        return 1;
    int s = stage == GM_STAGE_FRAGMENT;
    gmf_ring *rg = &r->ring[s];
    if (d->batch[s] < 0) {
        gm_timing_batch_desc bd = { stage, (int)d->ev->draw, -1, 0, 0, d->tex_ids,
                                    GM_TEX_MAX_UNITS < SM_MAX_TEXTURE_UNITS ? GM_TEX_MAX_UNITS
                                                                            : SM_MAX_TEXTURE_UNITS };
        d->batch[s] = gm_timing_batch_begin(r->tm, &bd);
        if (d->batch[s] < 0) {
            gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
            d->failed = true;
            cancel_flights(r);
            return 1;
        }
    }
    gmf_flight *f = &rg->f[(rg->head + rg->n) % r->flight_max];
    const gm_program *gp = s ? d->p->fs : d->p->vs;
    f->w = w;
    f->stage = stage;
    f->draw = d->ev->draw;
    f->warp = d->warps[s]++;
    f->frame_warp = r->frame_warps++;
    f->program = d->p->name;
    f->file = gm_program_pc_count(gp) > 0 ? gm_program_pc_file(gp, 0) : NULL;
    memcpy(f->lane_x, lane_x, sizeof f->lane_x);
    memcpy(f->lane_y, lane_y, sizeof f->lane_y);
    f->vout = vout;
    f->count = count;
    f->fw = fw;
    f->retired = false;
    f->status = GM_RUN_DONE;
    gm_timing_set_issue_observer(r->tm, r->obs || r->has_hooks ? gmf_timing_observe : NULL, r);
    /* Texture fetches may run ahead of their issue when they read the same texels and add
     * the same notes at any time (gmf_tex_ahead.c); only this submission. */
    const bool tex_ahead = gmf_tex_ahead_ok(d);
    gm_timing_set_tex_run_ahead(r->tm, tex_ahead);
    int sub = gm_timing_submit(r->tm, d->batch[s], w, &d->env[s], f);
    gm_timing_set_tex_run_ahead(r->tm, 0);
    if (sub != 0) {
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        d->failed = true;
        cancel_flights(r);
        return 1;
    }
    /* Such a warp runs from launch to end in one executor call: a worker may make it now
     * (gmf_threads.c, "the timing model's warps on workers"). */
    if (tex_ahead)
        gmf_thr_pre_queue(d, s, (rg->head + rg->n) % r->flight_max, w);
    rg->n++;
    return rg->n >= r->flight_max ? GM_PIPE_QUEUED_FULL : GM_PIPE_QUEUED;
}

gmf_flight *gmf_timing_complete(gmf_draw_ctx *d, gm_stage stage)
{
    gmf_runner *r = d->r;
    int s = stage == GM_STAGE_FRAGMENT;
    const char *what = s ? "fragment" : "vertex";
    gmf_ring *rg = &r->ring[s];
    if (rg->n == 0) {
        gmf_note(d->ev, "timing model: no %s warp to complete", what);
        d->failed = true;
        cancel_flights(r);
        return NULL;
    }
    gmf_flight *f = &rg->f[rg->head];
    return gmf_timing_wait(d, f, what) == 0 ? f : NULL;
}

int gmf_timing_wait(gmf_draw_ctx *d, gmf_flight *f, const char *what)
{
    gmf_runner *r = d->r;
    while (!f->retired) {
        gm_timing_status ts = gm_timing_run_until(r->tm, f->w);
        if (f->retired)
            break;
        if (ts == GM_TIMING_PAUSED) {
            /* Only the frame observer pauses, and it stops the whole run. */
            cancel_flights(r);
            return -1;
        }
        if (ts == GM_TIMING_ERROR && r->tm_warp_error) {
            /* Another warp hit a runtime error and retired; it is reported when the
             * pipeline completes it (in order). */
            r->tm_warp_error = false;
            continue;
        }
        if (ts == GM_TIMING_ERROR)
            gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        else
            gmf_note(d->ev, "timing model: %s warp did not retire", what);
        d->failed = true;
        cancel_flights(r);
        return -1;
    }
    if (f->status == GM_RUN_ERROR) {
        gmf_note(d->ev, "%s shader runtime error: %s", what, gm_warp_error(f->w));
        d->failed = true;
        cancel_flights(r);
        return -1;
    }
    return 0;
}

int gmf_timing_submit_gs(gmf_draw_ctx *d, gmf_flight *f, gm_warp *w)
{
    gmf_runner *r = d->r;
    if (gmf_aborted(r))
        return -1;
    if (d->batch[2] < 0) {
        /* No dependency: the caller submits a primitive's GS warps only after the VS warps
         * of its vertices completed (in-order front end: they launch after those). */
        gm_timing_batch_desc bd = { GM_STAGE_GEOMETRY, (int)d->ev->draw, -1, 0, 0, d->tex_ids,
                                    GM_TEX_MAX_UNITS < SM_MAX_TEXTURE_UNITS ? GM_TEX_MAX_UNITS
                                                                            : SM_MAX_TEXTURE_UNITS };
        d->batch[2] = gm_timing_batch_begin(r->tm, &bd);
        if (d->batch[2] < 0) {
            gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
            d->failed = true;
            cancel_flights(r);
            return -1;
        }
    }
    const gm_program *gp = d->p->gs;
    f->w = w;
    f->stage = GM_STAGE_GEOMETRY;
    f->draw = d->ev->draw;
    f->warp = d->gs_warps++;
    f->frame_warp = r->frame_warps++;
    f->program = d->p->name;
    f->file = gm_program_pc_count(gp) > 0 ? gm_program_pc_file(gp, 0) : NULL;
    f->vout = NULL;
    f->count = 0;
    f->fw = NULL;
    f->retired = false;
    f->status = GM_RUN_DONE;
    gm_timing_set_issue_observer(r->tm, r->obs || r->has_hooks ? gmf_timing_observe : NULL, r);
    if (gm_timing_submit(r->tm, d->batch[2], w, &d->env[2], f) != 0) {
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        d->failed = true;
        cancel_flights(r);
        return -1;
    }
    return 0;
}

int gmf_timing_submit_tess(gmf_draw_ctx *d, gmf_flight *f, gm_warp *w, gm_stage stage,
                           uint64_t warp)
{
    gmf_runner *r = d->r;
    int k = stage == GM_STAGE_TESS_EVALUATION;
    if (d->tess_batch[k] < 0) {
        /* No dependency: gmf_tess.c submits a patch's warps only after what they read
         * completed (the VS warps, then the patch's TCS warp). */
        gm_timing_batch_desc bd = { stage, (int)d->ev->draw, -1, 0, 0, d->tex_ids,
                                    GM_TEX_MAX_UNITS < SM_MAX_TEXTURE_UNITS ? GM_TEX_MAX_UNITS
                                                                            : SM_MAX_TEXTURE_UNITS };
        d->tess_batch[k] = gm_timing_batch_begin(r->tm, &bd);
        if (d->tess_batch[k] < 0) {
            gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
            d->failed = true;
            cancel_flights(r);
            return -1;
        }
    }
    const gm_program *gp = gm_warp_program(w);
    f->w = w;
    f->stage = stage;
    f->draw = d->ev->draw;
    f->warp = warp;
    f->frame_warp = r->frame_warps++;
    f->program = d->p->name;
    f->file = gm_program_pc_count(gp) > 0 ? gm_program_pc_file(gp, 0) : NULL;
    f->vout = NULL;
    f->count = 0;
    f->fw = NULL;
    f->retired = false;
    f->status = GM_RUN_DONE;
    gm_timing_set_issue_observer(r->tm, r->obs || r->has_hooks ? gmf_timing_observe : NULL, r);
    if (gm_timing_submit(r->tm, d->tess_batch[k], w, &d->env[0], f) != 0) {
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        d->failed = true;
        cancel_flights(r);
        return -1;
    }
    return 0;
}

void gmf_timing_release(gmf_draw_ctx *d, gm_stage stage)
{
    gmf_runner *r = d->r;
    gmf_ring *rg = &r->ring[stage == GM_STAGE_FRAGMENT];
    if (rg->n == 0)
        return;
    rg->head = (rg->head + 1) % r->flight_max;
    rg->n--;
}
