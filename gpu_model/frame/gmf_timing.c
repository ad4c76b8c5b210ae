/* The timing model (gpu_model/timing) as the frame runner's warp scheduler.
 *
 * The pipeline's shader callbacks are synchronous (a fragment warp's outputs are needed
 * before its fragment operations run), so this is the "synchronous" integration of
 * timing/DESIGN.md: each warp is submitted to its draw's batch (one vertex and one
 * fragment batch per draw) and the model runs until that warp retires. The model then
 * decides the cycle each instruction issues at, on which SM and slot, with its latencies,
 * scoreboard and texture cache; functional results never depend on it (execution happens
 * at issue), so images are identical to running warps to completion. The frame observer
 * is fed from the model's issue observer and gets the cycle and the SM too. Everything is
 * single-threaded and in the pipeline's order: the schedule is deterministic. */
#include <string.h>

#include "gmf_internal.h"

/* Remembers how the awaited warp ended (runtime error or done). */
static void on_retire(void *ctx, gm_warp *w, void *user, int batch, gm_run_status status)
{
    (void)w;
    (void)user;
    (void)batch;
    gmf_runner *r = ctx;
    r->tm_retired = status;
}

/* Issue observer -> frame observer; only installed while a frame observer is set. The
 * draw, stage and warp numbers of cur_issue are the running warp's (one warp in flight). */
static int observe(void *ctx, const gm_timing_issue *ev)
{
    gmf_runner *r = ctx;
    r->last_sm = ev->sm;
    if (r->has_hooks && r->hooks.issue)
        r->hooks.issue(r->hooks.ctx, ev);
    if (!r->obs)
        return 0;
    gmf_issue *i = &r->cur_issue;
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
    return 0;
}

void gmf_timing_draw_begin(gmf_draw_ctx *d)
{
    d->batch[0] = d->batch[1] = -1;
    /* Cache tags per texture object: the unit's first bound target's name. */
    for (int u = 0; u < GM_TEX_MAX_UNITS && u < SM_MAX_TEXTURE_UNITS; u++) {
        d->tex_ids[u] = 0;
        for (int t = 0; t < SM_TT_COUNT && !d->tex_ids[u]; t++)
            d->tex_ids[u] = d->st->unit[u].bound[t];
    }
}

void gmf_timing_draw_end(gmf_draw_ctx *d)
{
    gmf_runner *r = d->r;
    if (!r->tm)
        return;
    uint64_t first = UINT64_MAX, end = 0;
    for (int s = 0; s < 2; s++) {
        if (d->batch[s] < 0)
            continue;
        gm_timing_batch_close(r->tm, d->batch[s]);
        gm_timing_stats st;
        if (gm_timing_batch_stats(r->tm, d->batch[s], &st) != 0 || st.warps_retired == 0)
            continue;
        if (s)
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

int gmf_timing_run_warp(gmf_draw_ctx *d, gm_warp *w, gm_stage stage)
{
    gmf_runner *r = d->r;
    int s = stage == GM_STAGE_FRAGMENT;
    const char *what = s ? "fragment" : "vertex";
    if (d->batch[s] < 0) {
        gm_timing_batch_desc bd = { stage, (int)d->ev->draw, -1, 0, 0, d->tex_ids,
                                    GM_TEX_MAX_UNITS < SM_MAX_TEXTURE_UNITS ? GM_TEX_MAX_UNITS
                                                                            : SM_MAX_TEXTURE_UNITS };
        d->batch[s] = gm_timing_batch_begin(r->tm, &bd);
        if (d->batch[s] < 0) {
            gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
            d->failed = true;
            return -1;
        }
    }
    gm_timing_set_issue_observer(r->tm, r->obs || r->has_hooks ? observe : NULL, r);
    if (gm_timing_submit(r->tm, d->batch[s], w, &d->env[s], d) != 0) {
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        d->failed = true;
        return -1;
    }
    r->tm_retired = GM_RUN_DONE;
    gm_timing_status ts = gm_timing_run_until(r->tm, w);
    switch (ts) {
    case GM_TIMING_RETIRED:
    case GM_TIMING_ERROR:
        if (r->tm_retired == GM_RUN_ERROR) {
            gmf_note(d->ev, "%s shader runtime error: %s", what, gm_warp_error(w));
            d->failed = true;
            return -1;
        }
        if (ts == GM_TIMING_RETIRED) {
            gmf_hooks_units(r, d->ev->ctx_id);
            return 0;
        }
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        d->failed = true;
        return -1;
    case GM_TIMING_PAUSED:
        /* Only the frame observer pauses, and it stops the whole run. */
        return -1;
    default:
        gmf_note(d->ev, "timing model: %s warp did not retire", what);
        d->failed = true;
        return -1;
    }
}
