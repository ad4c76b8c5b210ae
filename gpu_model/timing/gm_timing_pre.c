/* A submitted warp's launch and first run-ahead done on another thread (see gm_timing_pre.h).
 *
 * At a launch the model does two things to a warp (gm_timing_sched.c, place() and set_next):
 * it lets the executor pick the first block (a run paused before the first instruction), and,
 * with no issue observer, runs it ahead (run_ahead): with texture run-ahead on, from there to
 * its end or TM_AHEAD_MAX entries, the texture entries' cache lines recorded through the
 * environment wrapper (gm_timing.c, wrap_sample). Both depend only on the warp and on what its
 * environment returns, which the caller vouches is fixed for the batch. Here the same calls
 * run on the caller's thread of choice with this object's own everything the model would
 * share: trace arrays, line records (struct tm_ahead), the tag set of the current request, the
 * size-query cache and its request buffers. At the launch the model waits for it (the
 * caller's hook), swaps the trace arrays and records into the slot (no copy), and goes on as
 * if it had just run them itself; the lane count the run added goes to the batch then.
 *
 * The size-query cache is per run, not per batch as the model's: a query's answer is fixed
 * for the batch (the caller's guarantee), so only the number of queries asked differs. */
#include "gm_timing_pre.h"
#include "gm_timing_internal.h"
#include "gm_timing_ahead.h"
#include "gm_exec.h"

#include <stdlib.h>
#include <string.h>

struct gm_timing_pre {
    /* set at attach, on the model's thread */
    gm_warp *w;
    const uint8_t *marks;       /* the program's run-ahead marks (tm_prog.ahead_pc) */
    gm_env env;                 /* the caller's thread-safe environment */
    gm_env model_env;           /* the model's wrapper, put back after the run */
    uint32_t *tex_ids;          /* the batch's texture ids per unit (cache tags) */
    int tex_id_n, tex_id_cap;
    void *owner;
    /* results of gm_timing_pre_run */
    gm_run_status first;        /* the first-block pick's status */
    gm_run_status st;           /* after the run-ahead */
    int ran_ahead;              /* the run-ahead ran (the warp was still plain) */
    int n;                      /* trace entries */
    uint64_t lanes;             /* lane instructions the run-ahead executed */
    int32_t *tr_pc;
    gm_mask *tr_mask;
    int tr_cap;                 /* as tm_slot.tr_cap */
    struct tm_ahead *ah;
    /* scratch of the run */
    tm_tagset cur;
    tm_texsize *sizes;
    int size_n, size_cap;
    gm_sample_request qreq;
    gm_texel_out qout;
};

gm_timing_pre *gm_timing_pre_create(void)
{
    gm_timing_pre *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->tr_pc = malloc(TM_TRACE_CAP * sizeof *p->tr_pc);
    p->tr_mask = malloc(TM_TRACE_CAP * sizeof *p->tr_mask);
    p->ah = tm_ahead_new();
    if (!p->tr_pc || !p->tr_mask || !p->ah) {
        gm_timing_pre_destroy(p);
        return NULL;
    }
    return p;
}

void gm_timing_pre_destroy(gm_timing_pre *p)
{
    if (!p)
        return;
    free(p->tex_ids);
    free(p->tr_pc);
    free(p->tr_mask);
    tm_ahead_delete(p->ah);
    free(p->sizes);
    free(p);
}

int gm_timing_pre_attach(gm_timing *t, gm_warp *w, gm_timing_pre *p, const gm_env *env,
                         void *owner)
{
    /* The warp gm_timing_submit has just queued. */
    tm_warp *tw = t && t->q_n > t->q_head ? t->queue[t->q_n - 1] : NULL;
    if (!tw || tw->w != w || tw->pre || !tw->tex_ahead || t->issue_fn || w->observer ||
        w->barrier_stop || !p || !p->ah || !env || !env->sample)
        return -1;
    const tm_batch *b = &t->batches[tw->batch];
    if (b->d.texture_id_count > p->tex_id_cap) {
        uint32_t *ids = realloc(p->tex_ids, (size_t)b->d.texture_id_count * sizeof *ids);
        if (!ids)
            return -1;
        p->tex_ids = ids;
        p->tex_id_cap = b->d.texture_id_count;
    }
    p->tex_id_n = b->d.texture_id_count;
    if (p->tex_id_n)
        memcpy(p->tex_ids, b->tex_ids, (size_t)p->tex_id_n * sizeof *p->tex_ids);
    p->w = w;
    p->marks = tw->tp->ahead_pc;
    p->env = *env;
    gm_warp_get_env(w, &p->model_env);
    p->owner = owner;
    p->n = 0;
    p->ran_ahead = 0;
    tw->pre = p;
    return 0;
}

void gm_timing_set_pre_wait(gm_timing *t, gm_timing_pre_wait_fn fn, void *ctx)
{
    t->pre_wait_fn = fn;
    t->pre_wait_ctx = ctx;
}

/* ---- the run, on any thread: the model's wrapper (gm_timing.c) with this object's state ---- */

static int pre_size_query(void *ctx, uint32_t unit, int level, int32_t size[3])
{
    gm_timing_pre *p = ctx;
    return tm_size_cached(&p->sizes, &p->size_n, &p->size_cap, &p->env, &p->qreq, &p->qout, unit,
                          level, size);
}

static void pre_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    gm_timing_pre *p = ctx;
    if (p->ran_ahead &&
        (req->op == GM_TEX_SAMPLE || req->op == GM_TEX_FETCH || req->op == GM_TEX_GATHER))
        tm_tex_lines(req, req->unit < (uint32_t)p->tex_id_n ? p->tex_ids[req->unit] : req->unit,
                     pre_size_query, p, tm_ahead_entry_tags(p->ah, &p->cur, p->w));
    p->env.sample(p->env.ctx, req, out);
}

static void pre_image(void *ctx, const gm_image_request *req, gm_texel_out *out)
{
    gm_timing_pre *p = ctx;
    p->env.image(p->env.ctx, req, out);
}

static void *pre_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    gm_timing_pre *p = ctx;
    return p->env.buffer(p->env.ctx, kind, binding, size);
}

static int first_block(void *ctx, gm_warp *w, const gm_issue *is)
{
    (void)ctx;
    (void)w;
    (void)is;
    return 1; /* as the model's launch: pause before the first instruction */
}

void gm_timing_pre_run(gm_timing_pre *p)
{
    gm_warp *w = p->w;
    gm_env own = {p, pre_sample, p->env.image ? pre_image : NULL,
                  p->env.buffer ? pre_buffer : NULL};
    gm_warp_set_env(w, &own);
    /* place(): the executor picks the first block. */
    gm_warp_set_observer(w, first_block, NULL);
    p->first = gm_warp_run(w, 0);
    gm_warp_set_observer(w, NULL, NULL);
    p->size_n = 0;
    /* set_next_slow() -> run_ahead() with texture run-ahead on a plain warp. */
    if (p->first == GM_RUN_PAUSED && !w->observer && !w->barrier_stop) {
        p->ran_ahead = 1;
        const uint64_t lanes0 = w->lane_instr;
        p->st = tm_ahead_record(p->ah, &p->cur, w, p->marks, &p->tr_pc, &p->tr_mask, &p->tr_cap,
                                &p->n);
        p->lanes = w->lane_instr - lanes0;
    }
    gm_warp_set_env(w, &p->model_env);
}

/* ---- the model's side (gm_timing_sched.c) ---- */

gm_run_status tm_pre_launch(gm_timing *t, tm_warp *tw)
{
    gm_timing_pre *p = tw->pre;
    if (t->pre_wait_fn)
        t->pre_wait_fn(t->pre_wait_ctx, p->owner);
    else
        gm_timing_pre_run(p);
    if (!p->ran_ahead)
        tw->pre = NULL;   /* run_ahead runs it as usual */
    return p->first;
}

void tm_pre_adopt(gm_timing *t, tm_warp *tw)
{
    gm_timing_pre *p = tw->pre;
    tm_slot *sl = &t->sms[tw->sm].slots[tw->slot];
    tw->pre = NULL;
    /* The slot's arrays and records for the run's (the pre object keeps the slot's old ones
     * for its next warp). */
    int32_t *pc = sl->tr_pc;
    gm_mask *mask = sl->tr_mask;
    int cap = sl->tr_cap;
    struct tm_ahead *ah = sl->ahead;
    sl->tr_pc = p->tr_pc;
    sl->tr_mask = p->tr_mask;
    sl->tr_cap = p->tr_cap;
    sl->ahead = p->ah;
    p->tr_pc = pc;
    p->tr_mask = mask;
    p->tr_cap = cap;
    p->ah = ah ? ah : tm_ahead_new();
    tw->tr_pc = sl->tr_pc;
    tw->tr_mask = sl->tr_mask;
    if (!p->ah || tm_ahead_failed(sl->ahead)) {
        /* Lost lines (out of memory): as tm_ahead_run reports it; a pre object without
         * records cannot be attached again (gm_timing_pre_run would crash). */
        tm_set_error(t, "out of memory recording texture requests");
        t->error_pending = 1;
    }
    tw->tr_status = p->st;
    tw->tr_head = 0;
    tw->tr_n = p->n;
    tw->tr_lanes_counted = 1;
    t->batches[tw->batch].st.lane_instructions += p->lanes;
}

void gm_timing_pre_detach_all(gm_timing *t)
{
    if (!t)
        return;
    for (size_t i = t->q_head; i < t->q_n; i++)
        if (t->queue[i]->pre) {
            tm_pre_launch(t, t->queue[i]);
            t->queue[i]->pre = NULL;
        }
    for (int s = 0; s < t->cfg.sm_count; s++)
        for (int i = 0; i < t->cfg.warp_slots_per_sm; i++)
            if (t->sms[s].slots[i].w)
                t->sms[s].slots[i].w->pre = NULL;   /* launched: its run finished then */
}
