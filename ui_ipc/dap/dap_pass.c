/* The DAP session's pass engine: a pass of the debugger over the frame on a thread of its own
 * (dap_start_pass), its result turned into the session's stop and the client's events (finish),
 * the session's end (dap_session_free). It sits under the request handlers, which start passes
 * through it; what a pass's end means to them (the kept stops of step back, exception stops,
 * parked requests, the view's references) it reaches through the hooks the router installs at the
 * session's creation (struct dap_pass_hooks, dap_session.c), not by calling up into them. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shadow/shadow.h"
#include "debugger/dbg_engine.h"
#include "ui_ipc/dap/dap_session_internal.h"

static void free_sources(struct dap_session *s)
{
    for (int i = 0; i < s->n_sources; i++) {
        struct dap_src *src = &s->sources[i];
        free(src->key);
        free(src->path);
        for (int b = 0; b < src->n_bps; b++) {
            free(src->bps[b].condition);
            free(src->bps[b].log_message);
        }
        free(src->bps);
    }
    free(s->sources);
    s->sources = NULL;
    s->n_sources = 0;
}

static void drop_others(struct dap_session *s)
{
    for (int i = 0; i < s->n_others; i++)
        sh_snapshot_unref(s->others[i]);
    free(s->others);
    free(s->other_keys);
    free(s->other_key_ok);
    s->others = NULL;
    s->other_keys = NULL;
    s->other_key_ok = NULL;
    s->n_others = 0;
}

void dap_session_drop_others(struct dap_session *s)
{
    drop_others(s);
}

void dap_session_free(struct dap_session *s)
{
    /* what the request handlers keep (profiles, function breakpoints, the view, kept stops) */
    s->hooks.handlers_free(s);
    free_sources(s);
    free(s->overrides);
    if (s->snap)
        sh_snapshot_unref(s->snap);
    drop_others(s);
    sh_store_free(s->store);
    cJSON_Delete(s->pending_attach);
    cJSON_Delete(s->held);
    s->host.gone(s->host.server);
    free(s);
}

bool dap_session_job_done(struct dap_session *s)
{
    s->running = false;
    s->side_job = false;
    if (s->closing && !s->reading) {
        dap_session_free(s);
        return true;
    }
    atomic_store(&s->pause, 0);
    s->host.wake(s->host.server);
    return false;
}


struct job {
    struct dap_session *s;
    struct dbg_pass_req req;
    struct dbg_pass_res res;
    struct dbg_bp *bps;
    enum dbg_step steps[1];
    bool is_step;
    enum dap_pass_kind kind;
    bool other_thread;   /* a step of a resident warp (thread >= 2) */
    bool pixel;          /* debug this pixel: the stop is the invocation that wrote s->pixel */
};

static void job_log(void *user, const char *text)
{
    struct job *j = user;
    pthread_mutex_lock(j->s->host.lock);
    dap_output(j->s, "console", text);
    j->s->host.wake(j->s->host.server);
    pthread_mutex_unlock(j->s->host.lock);
}

/* The client is told it is stopped (at the frame's end, with no invocation to show), so an IDE
 * leaves its "running" state; `continue` from here runs the frame again from its start, as do new
 * breakpoints and `pause` (which stops at the first instruction). `why` is the event's text; `ran`:
 * a pass did run the frame (else nothing could stop: no pass was started). */
void dap_stop_at_end(struct dap_session *s, const char *why, bool ran)
{
    s->stopped = false;
    s->at_end = true;
    if (s->snap)
        sh_snapshot_unref(s->snap);
    s->snap = NULL;
    drop_others(s);
    s->hooks.view_reset(s);
    s->have_key = false;
    s->pos_seq = 0;
    s->pos_partial = false;
    s->pos_lane = 0;
    s->hooks.history_clear(s);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "reason", "pause");
    cJSON_AddStringToObject(b, "description", "end of frame");
    cJSON_AddStringToObject(b, "text", why);
    cJSON_AddNumberToObject(b, "threadId", 1);
    cJSON_AddBoolToObject(b, "allThreadsStopped", true);
    dap_event(s, "stopped", b);
    char line[300];
    snprintf(line, sizeof line, ran ? "%s; continue (or new breakpoints, or pause) runs it again from its start\n"
                                    : "%s; set a breakpoint that binds (or pause) to run the frame\n", why);
    dap_output(s, "console", line);
}

/* Nothing a pass could stop at or print: no bound breakpoint location (line, function,
 * instruction), no exception filter, no pixel to debug, not noDebug. A run would replay the whole
 * frame in the model only to end where the client is sent at once (stop_at_end). */
bool dap_nothing_to_stop(const struct dap_session *s)
{
    if (s->exc_filters || s->pixel_pending || s->no_debug || s->n_ins_bps)
        return false;
    for (int i = 0; i < s->n_sources; i++)
        for (int b = 0; b < s->sources[i].n_bps; b++)
            if (s->sources[i].bps[b].n_locs)
                return false;
    for (int f = 0; f < s->n_fn_bps; f++)
        if (s->fn_bps[f].n_locs)
            return false;
    return true;
}

void dap_session_continued(struct dap_session *s)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "threadId", 1);
    cJSON_AddBoolToObject(b, "allThreadsContinued", true);
    dap_event(s, "continued", b);
}

static void finish(struct dap_session *s, struct job *j)
{
    s->running = false;
    atomic_store(&s->pause, 0);
    struct dbg_pass_res *r = &j->res;
    if (j->kind == DAP_PASS_PARK) {   /* the view stays: the model is parked at it now */
        s->hooks.park_done(s, r);
        return;
    }
    if (r->status == DBG_PASS_STOPPED && r->snap) {
        uint64_t snap_id = sh_store_add(s->store, r->snap);
        uint64_t *other_ids = r->n_others ? calloc((size_t)r->n_others, sizeof *other_ids) : NULL;
        if (s->snap)
            sh_snapshot_unref(s->snap);
        s->snap = r->snap;
        r->snap = NULL;
        /* The resident warps count against the store's budget like the stop itself. */
        drop_others(s);
        for (int i = 0; i < r->n_others; i++) {
            uint64_t id = sh_store_add(s->store, r->others[i]);
            if (other_ids)
                other_ids[i] = id;
        }
        s->others = r->others;
        s->n_others = r->n_others;
        s->other_keys = r->other_keys;
        s->other_key_ok = r->other_key_ok;
        r->others = NULL;
        r->other_keys = NULL;
        r->other_key_ok = NULL;
        r->n_others = 0;
        s->key = r->key;
        s->key_depth = r->depth;
        s->have_key = true;
        s->pos_seq = r->seq;
        s->pos_partial = r->model_left_out > 0;
        s->pos_lane = r->key.lane;
        s->focus = r->key.lane;
        s->stopped = true;
        s->hooks.view_reset(s);
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "reason", j->pixel ? "entry"
                                             : !strcmp(r->reason, "breakpoint") && s->hooks.is_function_bp(s, r->bp_id)
                                                 ? "function breakpoint"
                                             : !strcmp(r->reason, "breakpoint") && s->hooks.is_instruction_bp(s, r->bp_id)
                                                 ? "instruction breakpoint" : r->reason);
        char desc[256];
        const sh_header *h = sh_snapshot_header(s->snap);
        if (j->pixel && s->pixel.vertex)
            snprintf(desc, sizeof desc, "first line of the invocation of vertex %d (instance %d) of draw %d: %s, lane %d",
                     s->pixel.x, s->pixel.y, s->pixel.draw, sh_snapshot_title(s->snap), h->focus_lane);
        else if (j->pixel)
            snprintf(desc, sizeof desc, "first line of the invocation that wrote pixel (%d, %d) at event %llu: %s, lane %d",
                     s->pixel.x, s->pixel.y, (unsigned long long)s->pixel.record, sh_snapshot_title(s->snap),
                     h->focus_lane);
        else if (!strcmp(r->reason, "exception"))
            snprintf(desc, sizeof desc, "%s, lane %d", sh_snapshot_title(s->snap), h->focus_lane);
        else if (!strcmp(r->reason, "breakpoint"))
            snprintf(desc, sizeof desc, "hit %llu of breakpoint %d: %s, lane %d", (unsigned long long)r->hit, r->bp_id,
                     sh_snapshot_title(s->snap), h->focus_lane);
        else
            snprintf(desc, sizeof desc, "%s, lane %d", sh_snapshot_title(s->snap), h->focus_lane);
        cJSON_AddStringToObject(b, "description", desc);
        if (j->pixel && !s->pixel.vertex && r->counted) {
            /* What the model ran for this stop (the CLI's `debug --json` "model_run"). */
            char line[300];
            if (r->model_left_out)
                snprintf(line, sizeof line, "debug this pixel: the model ran %llu records and %llu draws before the stop; "
                         "the %llu draws of earlier passes came from the driver's images\n",
                         (unsigned long long)r->model_records, (unsigned long long)r->model_draws,
                         (unsigned long long)r->model_left_out);
            else if (r->model_ckpt_draw >= 0)
                snprintf(line, sizeof line, "debug this pixel: the model ran %llu records and %llu draws before the stop; "
                         "it started at the checkpoint before draw %d that an earlier run kept\n",
                         (unsigned long long)r->model_records, (unsigned long long)r->model_draws,
                         r->model_ckpt_draw);
            else
                snprintf(line, sizeof line, "debug this pixel: the model ran %llu records and %llu draws before the stop; "
                         "the earlier passes ran in the model\n",
                         (unsigned long long)r->model_records, (unsigned long long)r->model_draws);
            dap_output(s, "console", line);
        }
        s->hooks.stopped(s, j->other_thread ? DAP_PASS_RUN : (int)j->kind, j->steps[0], r, snap_id, other_ids,
                            desc);
        free(other_ids);
        s->have_exc = !j->pixel && !strcmp(r->reason, "exception");
        if (s->have_exc) {
            s->exc = r->exc;
            s->hooks.exception_stopped(s, &r->exc, b);
        }
        cJSON_AddNumberToObject(b, "threadId", 1);
        cJSON_AddBoolToObject(b, "allThreadsStopped", true);
        if (!j->pixel && !strcmp(r->reason, "breakpoint")) {
            cJSON *ids = cJSON_AddArrayToObject(b, "hitBreakpointIds");
            cJSON_AddItemToArray(ids, cJSON_CreateNumber(r->bp_id));
        }
        dap_event(s, "stopped", b);
    } else if ((r->status == DBG_PASS_LANE_FINISHED || r->status == DBG_PASS_AT_START) && s->snap) {
        bool fin = r->status == DBG_PASS_LANE_FINISHED;
        if (fin && r->finished_parked) {
            /* the model waits where the lane ended: continue goes on from there (no new run) */
            s->pos_seq = r->seq;
            s->pos_partial = r->model_left_out > 0;
            s->pos_lane = r->key.lane;
        }
        char line[300];
        snprintf(line, sizeof line, "%s: the view stays at its last position\n", fin ? "the focused invocation finished" : r->message);
        dap_output(s, "console", line);
        s->stopped = true;
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "reason", "step");
        cJSON_AddStringToObject(b, "description", fin ? "the focused invocation finished" : r->message);
        cJSON_AddNumberToObject(b, "threadId", 1);
        cJSON_AddBoolToObject(b, "allThreadsStopped", true);
        dap_event(s, "stopped", b);
    } else if (r->status == DBG_PASS_END && s->no_debug) {
        /* noDebug: the frame ran through (logpoints printed); the debuggee is done. */
        s->at_end = true;
        dap_output(s, "console", "the frame ran to its end (noDebug)\n");
        if (!s->terminated) {
            s->terminated = true;
            dap_event(s, "terminated", NULL);
        }
    } else if (r->status == DBG_PASS_END) {
        if (j->pixel && s->pixel.vertex) {
            char line[200];
            snprintf(line, sizeof line, "vertex %d (instance %d) is not among the vertices draw %d shaded\n", s->pixel.x,
                     s->pixel.y, s->pixel.draw);
            dap_output(s, "stderr", line);
        }
        dap_stop_at_end(s, "the frame ran to its end without a breakpoint stop", true);
    } else {
        s->stopped = false;
        char msg[400];
        snprintf(msg, sizeof msg, "the frame could not run: %s\n", r->message);
        dap_output(s, "stderr", msg);
    }
}

static void *worker(void *arg)
{
    struct job *j = arg;
    struct dap_session *s = j->s;
    if (j->kind == DAP_PASS_REVERSE)
        s->hooks.reverse(s->runner, &j->req, &j->res);
    else
        dbg_engine_run(s->runner, &j->req, &j->res);
    /* The lock is the server's: keep its address, session_free() frees s. */
    pthread_mutex_t *lock = s->host.lock;
    pthread_mutex_lock(lock);
    if (s->closing) {
        s->running = false;
        if (!s->reading)
            dap_session_free(s);
    } else {
        finish(s, j);
        s->host.wake(s->host.server);
    }
    pthread_mutex_unlock(lock);
    dbg_pass_res_release(&j->res);
    free(j->bps);
    free(j);
    return NULL;
}

/* The bound breakpoint locations of every source, for a pass. Strings point into the session's
 * sources, which do not change while a pass runs (setBreakpoints waits, see below). */
static int collect_bps(struct dap_session *s, struct dbg_bp **out)
{
    int n = 0;
    for (int i = 0; i < s->n_sources && !s->no_debug; i++)
        for (int b = 0; b < s->sources[i].n_bps; b++)
            n += s->sources[i].bps[b].n_locs;
    for (int f = 0; f < s->n_fn_bps && !s->no_debug; f++)
        n += s->fn_bps[f].n_locs;
    n += s->no_debug ? 0 : s->n_ins_bps;
    struct dbg_bp *bps = calloc((size_t)n + 1, sizeof *bps);
    if (!bps)
        return -1;
    int k = 0;
    for (int i = 0; i < s->n_sources && !s->no_debug; i++)
        for (int b = 0; b < s->sources[i].n_bps; b++) {
            struct dap_src_bp *e = &s->sources[i].bps[b];
            for (int l = 0; l < e->n_locs; l++)
                bps[k++] = (struct dbg_bp){ e->id, e->loc_shader[l], e->loc_line[l], e->hit_op, e->hit_n,
                                            e->condition, e->log_message, 0 };
        }
    for (int f = 0; f < s->n_ins_bps && !s->no_debug; f++)
        bps[k++] = (struct dbg_bp){ s->ins_bps[f].id, s->ins_bps[f].loc_shader[0], s->ins_bps[f].loc_line[0],
                                    s->ins_bps[f].hit_op, s->ins_bps[f].hit_n, s->ins_bps[f].condition, NULL,
                                    s->ins_bps[f].line + 1 };
    /* Function breakpoints (dap_feat_session.c) bind to a function's entry line: the same hits. */
    for (int f = 0; f < s->n_fn_bps && !s->no_debug; f++)
        for (int l = 0; l < s->fn_bps[f].n_locs; l++)
            bps[k++] = (struct dbg_bp){ s->fn_bps[f].id, s->fn_bps[f].loc_shader[l], s->fn_bps[f].loc_line[l],
                                        s->fn_bps[f].hit_op, s->fn_bps[f].hit_n, s->fn_bps[f].condition, NULL, 0 };
    *out = bps;
    return n;
}

int dap_start_pass(struct dap_session *s, enum dap_pass_kind kind, enum dbg_step step)
{
    if (s->running)
        return -1;
    struct job *j = calloc(1, sizeof *j);
    if (!j)
        return -1;
    j->s = s;
    j->kind = kind;
    int n = collect_bps(s, &j->bps);
    if (n < 0) {
        free(j);
        return -1;
    }
    j->req.bps = j->bps;
    j->req.n_bps = n;
    j->req.pause = &s->pause;
    j->req.log = job_log;
    j->req.log_user = j;
    j->req.log_limit = s->log_limit;
    j->req.only_draw = -1;
    j->req.only_x = j->req.only_y = -1;
    j->req.exceptions = s->no_debug ? 0 : s->exc_filters;
    if (kind == DAP_PASS_RUN && s->pixel_pending) {
        /* debug this pixel: only the invocation's breakpoint, counted in its draw at its pixel */
        j->bps[0] = s->pixel.bp;
        j->bps[0].id = -1;
        j->req.n_bps = 1;
        j->req.only_draw = s->pixel.draw;
        j->req.only_x = s->pixel.x;
        j->req.only_y = s->pixel.y;
        j->req.only_vertex = s->pixel.vertex;   /* debug this vertex: x, y are gl_VertexID, gl_InstanceID */
        j->pixel = true;
        s->pixel_pending = false;
#ifdef GLR_HAVE_PIXEL
        /* Its own run leaves the earlier passes out: their images are the driver's (the history's
         * feed); it runs again with them in the model if a record needs what they left out. */
        if (s->pixel_feed && !s->pixel.vertex) {
            j->req.run_hooks = dap_pixel_pass_hooks(s->pixel_feed, s->pixel.record);
            j->req.run_hooks_free = dap_pixel_pass_hooks_free;
        } else {
            dap_pixel_feed_free(s->pixel_feed);
        }
        s->pixel_feed = NULL;
#endif
    }
    if (kind == DAP_PASS_RUN) {
        /* A run from the frame's start forgets the values setVariable set. */
        free(s->overrides);
        s->overrides = NULL;
        s->n_overrides = 0;
    }
    j->req.overrides = s->overrides;
    j->req.n_overrides = s->n_overrides;
    switch (kind) {
    case DAP_PASS_RUN:
        j->req.emit_logs = true;
        break;
    case DAP_PASS_REFRESH:
    case DAP_PASS_PARK:
        j->req.replay = true;
        j->req.key = s->key;
        j->req.key.lane = s->focus;
        j->req.n_steps = 0;
        break;
    case DAP_PASS_CONTINUE:
        j->req.have_after = true;
        j->req.after_seq = s->pos_seq;
        j->req.after_lane = s->pos_lane;
        j->req.emit_logs = true;
        break;
    case DAP_PASS_STEP:
        j->req.replay = true;
        j->req.key = s->key;
        j->req.key.lane = s->focus;
        /* Stepping another resident warp (thread t): replay to its last instruction instead. */
        if (s->step_thread >= 2 && s->step_thread - 2 < s->n_others && s->other_key_ok[s->step_thread - 2]) {
            j->req.key = s->other_keys[s->step_thread - 2];
            j->other_thread = true;
        }
        s->step_thread = 1;
        j->steps[0] = step;
        j->req.steps = j->steps;
        j->req.n_steps = 1;
        break;
    case DAP_PASS_BACK:   /* dap_history.h: the focused lane's previous statement */
        j->req.replay = true;
        j->req.back = true;
        j->req.key = s->key;
        j->req.key.lane = s->focus;
        j->req.back_depth = s->key_depth;
        break;
    case DAP_PASS_REVERSE:   /* the last matching hit before the position, then a pass to it */
        j->req.have_before = true;
        j->req.before_seq = s->pos_seq;
        j->req.before_lane = s->pos_lane;
        break;
    }
    s->running = true;
    if (s->model_pass_started)
        __atomic_store_n(s->model_pass_started, 1, __ATOMIC_RELEASE);
    if (kind != DAP_PASS_PARK) {   /* a park pass keeps the view (dap_park.c) */
        s->stopped = false;
        s->at_end = false;
    }
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, worker, j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->running = false;
        if (j->req.run_hooks)
            j->req.run_hooks_free(j->req.run_hooks);
        free(j->bps);
        free(j);
        return -1;
    }
    return 0;
}
