/* Stepping backwards over the kept stops of a session (see dap_history.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_history.h"
#include "ui_ipc/dap/dap_session_internal.h"

/* At most this many stops are kept; the oldest go first (their snapshots also leave the store
 * under its budget, whichever comes first). */
#define HIST_MAX 4096

struct hist_entry {
    uint64_t snap_id;            /* in the session's store */
    uint64_t *other_ids;         /* the resident warps' snapshots, with their step keys */
    struct dbg_stop_key *other_keys;
    bool *other_key_ok;
    int n_others;
    struct dbg_stop_key key;     /* key.lane: the focused lane */
    int depth;
    uint64_t seq;
    bool partial;                /* seq counted by a run that left draws out (pos_partial) */
    unsigned next_mask;          /* 1 << dbg_step: those steps from here reach the next entry */
    char desc[256];
};

struct dap_history {
    struct hist_entry *e;
    int n, cap;
    int at;                      /* the entry the view shows */
};

static void entry_free(struct hist_entry *e)
{
    free(e->other_ids);
    free(e->other_keys);
    free(e->other_key_ok);
    memset(e, 0, sizeof *e);
}

void dap_history_free(struct dap_history *h)
{
    if (!h)
        return;
    for (int i = 0; i < h->n; i++)
        entry_free(&h->e[i]);
    free(h->e);
    free(h);
}

void dap_history_clear(struct dap_session *s)
{
    dap_history_free(s->hist);
    s->hist = NULL;
}

/* Drops entries [from, to). */
static void drop_range(struct dap_history *h, int from, int to)
{
    if (from >= to)
        return;   /* nothing to drop (also: an empty history has no array to index) */
    for (int i = from; i < to; i++)
        entry_free(&h->e[i]);
    memmove(&h->e[from], &h->e[to], (size_t)(h->n - to) * sizeof *h->e);
    h->n -= to - from;
}

/* Room for one more entry at index `at` (shifting the rest). NULL when out of memory. */
static struct hist_entry *insert_at(struct dap_history *h, int at)
{
    if (h->n == h->cap) {
        int nc = h->cap ? h->cap * 2 : 16;
        struct hist_entry *n = realloc(h->e, (size_t)nc * sizeof *n);
        if (!n)
            return NULL;
        h->e = n;
        h->cap = nc;
    }
    memmove(&h->e[at + 1], &h->e[at], (size_t)(h->n - at) * sizeof *h->e);
    h->n++;
    memset(&h->e[at], 0, sizeof h->e[at]);
    return &h->e[at];
}

void dap_history_stopped(struct dap_session *s, int kind, enum dbg_step step, const struct dbg_pass_res *r,
                         uint64_t snap_id, const uint64_t *other_ids, const char *desc)
{
    /* GLREPLAY_DAP_HISTORY=0: keep nothing, every step back and forward runs the model (tests
     * compare the two ways). */
    const char *env = getenv("GLREPLAY_DAP_HISTORY");
    if (env && !strcmp(env, "0"))
        return;
    if (!s->hist && !(s->hist = calloc(1, sizeof *s->hist)))
        return;
    struct dap_history *h = s->hist;
    int at;
    if (kind == DAP_PASS_STEP && h->n > 0) {
        /* A step of thread 1 from the shown stop: what followed it before is another future. */
        drop_range(h, h->at + 1, h->n);
        h->e[h->at].next_mask = 1u << step;
        at = h->n;
    } else if (kind == DAP_PASS_BACK && h->n > 0) {
        /* The statement before the shown stop: kept stops before it are not the way back to it. */
        drop_range(h, 0, h->at);
        at = 0;
    } else {
        drop_range(h, 0, h->n);
        at = 0;
    }
    if (h->n >= HIST_MAX) {
        if (at == 0) {
            drop_range(h, h->n - 1, h->n);   /* a step back: the latest stop goes */
        } else {
            drop_range(h, 0, 1);
            at--;
        }
    }
    struct hist_entry *e = insert_at(h, at);
    if (!e) {
        dap_history_clear(s);
        return;
    }
    e->snap_id = snap_id;
    e->key = r->key;
    e->depth = r->depth;
    e->seq = r->seq;
    e->partial = s->pos_partial;
    if (kind == DAP_PASS_BACK && h->n > 1)
        e->next_mask = (r->back_next ? 1u << DBG_STEP_NEXT : 0) | (r->back_stepin ? 1u << DBG_STEP_IN : 0);
    snprintf(e->desc, sizeof e->desc, "%s", desc);
    if (s->n_others > 0 && other_ids) {   /* NULL (out of memory): the stop is kept without them */
        e->other_ids = malloc((size_t)s->n_others * sizeof *e->other_ids);
        e->other_keys = malloc((size_t)s->n_others * sizeof *e->other_keys);
        e->other_key_ok = malloc((size_t)s->n_others * sizeof *e->other_key_ok);
        if (e->other_ids && e->other_keys && e->other_key_ok) {
            memcpy(e->other_ids, other_ids, (size_t)s->n_others * sizeof *e->other_ids);
            memcpy(e->other_keys, s->other_keys, (size_t)s->n_others * sizeof *e->other_keys);
            memcpy(e->other_key_ok, s->other_key_ok, (size_t)s->n_others * sizeof *e->other_key_ok);
            e->n_others = s->n_others;
        }
    }
    h->at = at;
}

/* Shows kept stop i (its snapshots still in the store): the session's view and position become
 * that stop's, as when the pass stopped there. false when the store evicted it. */
static bool show(struct dap_session *s, int i)
{
    struct dap_history *h = s->hist;
    struct hist_entry *e = &h->e[i];
    sh_snapshot *snap = sh_store_get(s->store, e->snap_id);
    if (!snap)
        return false;
    sh_snapshot **others = e->n_others ? calloc((size_t)e->n_others, sizeof *others) : NULL;
    struct dbg_stop_key *keys = e->n_others ? calloc((size_t)e->n_others, sizeof *keys) : NULL;
    bool *ok = e->n_others ? calloc((size_t)e->n_others, sizeof *ok) : NULL;
    int n = 0;
    for (int k = 0; others && keys && ok && k < e->n_others; k++) {
        sh_snapshot *o = sh_store_get(s->store, e->other_ids[k]);
        if (!o)
            continue;   /* evicted: that thread is not listed */
        others[n] = o;
        keys[n] = e->other_keys[k];
        ok[n++] = e->other_key_ok[k];
    }
    if (s->snap)
        sh_snapshot_unref(s->snap);
    s->snap = snap;
    dap_session_drop_others(s);
    if (n > 0) {
        s->others = others;
        s->other_keys = keys;
        s->other_key_ok = ok;
        s->n_others = n;
    } else {
        free(others);
        free(keys);
        free(ok);
    }
    s->key = e->key;
    s->key_depth = e->depth;
    s->have_key = true;
    s->pos_seq = e->seq;
    s->pos_partial = e->partial;
    s->pos_lane = e->key.lane;
    s->focus = e->key.lane;
    s->stopped = true;
    s->at_end = false;
    h->at = i;
    dap_inspect_reset(s);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "reason", "step");
    cJSON_AddStringToObject(b, "description", e->desc);
    cJSON_AddNumberToObject(b, "threadId", 1);
    cJSON_AddBoolToObject(b, "allThreadsStopped", true);
    dap_event(s, "stopped", b);
    return true;
}

bool dap_history_forward(struct dap_session *s, enum dbg_step step)
{
    struct dap_history *h = s->hist;
    if (!h || h->at + 1 >= h->n || !(h->e[h->at].next_mask & (1u << step)))
        return false;
    return show(s, h->at + 1);
}

/* The thread a backwards request names: only thread 1, the stopped warp, goes back. */
static bool thread_one(const cJSON *args)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(args, "threadId");
    return !t || (cJSON_IsNumber(t) && t->valuedouble == 1);
}

bool dap_history_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    bool back = !strcmp(cmd, "stepBack");
    if (!back && strcmp(cmd, "reverseContinue"))
        return false;
    if (s->running) {
        dap_respond(s, req, false, NULL, "the frame is already running");
    } else if (!s->stopped || !s->snap || !s->have_key) {
        dap_respond(s, req, false, NULL, "not stopped in an invocation: nothing to go back from");
    } else if (!thread_one(args)) {
        dap_respond(s, req, false, NULL, "only thread 1 (the stopped warp) can go back");
    } else if (!back && s->pos_partial && dap_park_first(s, req)) {
        /* held: handled again once a full run is parked at the stop (its position counted) */
    } else {
        dap_respond(s, req, true, NULL, NULL);
        struct dap_history *h = s->hist;
        if (back && h && h->at > 0 && show(s, h->at - 1))
            return true;
        if (dap_start_pass(s, back ? DAP_PASS_BACK : DAP_PASS_REVERSE, DBG_STEP_NEXT) != 0)
            dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
    }
    return true;
}

void dap_history_reverse(struct dbg_runner *r, struct dbg_pass_req *req, struct dbg_pass_res *res)
{
    dbg_engine_run(r, req, res);
    if (res->status == DBG_PASS_ERROR)
        return;
    bool found = res->found;
    uint64_t seq = res->found_seq;
    int lane = res->found_lane;
    dbg_pass_res_release(res);
    if (!found) {
        memset(res, 0, sizeof *res);
        res->status = DBG_PASS_AT_START;
        snprintf(res->message, sizeof res->message, "no earlier breakpoint hit in the frame");
        return;
    }
    /* The hit found is the first matching one after the position just before it. */
    req->have_before = false;
    req->run_hooks = NULL;   /* (given to the runner by the first pass, if any) */
    req->have_after = true;
    req->after_seq = seq;
    req->after_lane = lane - 1;
    dbg_engine_run(r, req, res);
}
