/* Breakpoint passes over a frame (see dbg_engine.h).
 *
 * Hit rule (helper lanes excluded): an instruction at line L issued with active mask M is a hit for every lane of M whose
 * previous instruction was on another line, except a lane coming back from a call to the line of
 * its call site (the rest of `x = f(y);` after f returns is not a second arrival). Lanes are
 * counted in lane order within an instruction and instructions in the model's issue order, so the
 * N-th hit is the same lane on every pass. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/exec/gm_exec.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_ckpt.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_rebind.h"
#include "debugger/dbg_warp_copy.h"

bool dbg_parse_hit_condition(const char *text, enum dbg_hit_op *op, uint64_t *n)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p) {
        *op = DBG_HIT_ANY;
        *n = 0;
        return true;
    }
    /* The grammar of VS Code's own JavaScript debugger: N, == N, = N, >= N, > N, <= N, < N, % N. */
    if (!strncmp(p, "==", 2)) { *op = DBG_HIT_EQ; p += 2; }
    else if (!strncmp(p, ">=", 2)) { *op = DBG_HIT_GE; p += 2; }
    else if (!strncmp(p, "<=", 2)) { *op = DBG_HIT_LE; p += 2; }
    else if (*p == '>') { *op = DBG_HIT_GT; p++; }
    else if (*p == '<') { *op = DBG_HIT_LT; p++; }
    else if (*p == '=') { *op = DBG_HIT_EQ; p++; }
    else if (*p == '%') { *op = DBG_HIT_MOD; p++; }
    else *op = DBG_HIT_EQ;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p < '0' || *p > '9')
        return false;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    while (*end == ' ' || *end == '\t')
        end++;
    if (*end || v == 0 || v > (1ull << 53))
        return false;
    *n = v;
    return true;
}

static bool hit_matches(enum dbg_hit_op op, uint64_t n, uint64_t count)
{
    switch (op) {
    case DBG_HIT_EQ: return count == n;
    case DBG_HIT_GE: return count >= n;
    case DBG_HIT_GT: return count > n;
    case DBG_HIT_LE: return count <= n;
    case DBG_HIT_LT: return count < n;
    case DBG_HIT_MOD: return count % n == 0;
    default: return true;
    }
}

#define MAX_DEPTH 32

struct warp_state {
    int stage;
    uint64_t warp;
    bool used;
    uint64_t issues;
    int depth;
    int call_line[MAX_DEPTH];
    int last_line[32];
    uint8_t last_depth[32];
};

struct bp_count {
    int id;
    uint64_t hits;
    int logged;
};

/* A further lane of the stop's instruction that counted as a hit of a breakpoint (loop order:
 * breakpoints, then lanes), with its count: a resumed pass stops at the first one that matches the
 * (maybe changed) hit condition, exactly where a new pass would stop. */
struct pending_stop {
    int bp, lane;            /* index in the pass's breakpoints */
    uint64_t hits;
};

struct pass {
    const struct dbg_pass_req *req;
    struct dbg_pass_res *res;
    uint64_t instructions;   /* warp instructions observed (the pass's order) */
    bool has_logs;           /* logpoints print over the whole pass */
    bool suspendable;        /* a breakpoint stop parks the model (see dbg_engine_run) */
    bool reentry;            /* the runner calls again for the instruction it was parked at */
    uint64_t stop_issue;     /* issue index of that instruction in its warp */
    struct pending_stop pending[32 * 4];
    int n_pending;
    bool pending_lost;
    /* what the pass was asked, to know whether a continue may resume it */
    struct dbg_bp *own_bps;
    int n_own_bps;
    int only_draw, only_x, only_y;
    bool only_vertex;
    int cur_draw;
    struct warp_state *ws;
    size_t ws_cap, ws_used;
    struct bp_count *counts;
    int n_counts;
    bool stopped;            /* the stop snapshot is taken */
    bool stepping;
    int step_index, step_line, step_depth;
    bool cond_error_logged;
    /* Where the model is parked (a stop of any kind): a step from exactly there resumes the pass. */
    struct dbg_stop_key park_key;
    uint64_t park_seq;
    int park_lane;
    bool no_count;           /* the breakpoints changed after the pass began: its counts are not theirs */
    bool step_setup;         /* a resumed step begins at the parked instruction (observe_reentry) */
    uint64_t step_others;    /* instructions of other warps since the stepped warp last issued */
    /* req.back: the followed lane's last two statements (runs of one line at one depth, deeper
     * calls inside them skipped) at the key's depth or shallower before the key: [0] the previous,
     * [1] the current; [2]: the last run at any depth (a callee's last statement when the key is
     * where the call returned to). */
    struct back_run {
        bool set;
        uint64_t issue, seq;
        int line, depth;
        sh_snapshot *snap;
        bool next_done, in_done;         /* where `next` / `stepIn` from this run's start stop */
        uint64_t next_seq, in_seq;
    } run[3];
    bool key_continues;      /* the key is inside run[1] rather than the start of a new one */
    bool lane_finished;      /* a step's lane ended: parked at the next instruction (park_lane -1) */
    bool lane_ending;        /* the stepped lane issued main's return: it ends with it */
    char *pipe_json;         /* the stop draw's pipeline state, copied into back candidates */
    unsigned exceptions;     /* the filters the pass watches (a continue resumes only with the same) */
    struct dbg_exc_state *exc;
    /* Arrivals at every line (dbg_rebind.h): a continue with changed breakpoints may resume. The
     * last observed instruction's shader and line (where the model parks), and whether the stop
     * was an exception (its instruction's hits are not counted). */
    struct dbg_line_hits lines;
    int cur_shader, cur_line;
    gm_mask cur_fresh;       /* its lanes that arrived at its line (counted in `lines`) */
    bool park_exc;
};

static uint64_t hash_key(int stage, uint64_t warp)
{
    uint64_t h = warp * 0x9E3779B97F4A7C15ull ^ (uint64_t)stage * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static struct warp_state *find_warp(struct pass *ps, int stage, uint64_t warp)
{
    if (ps->ws_used * 2 >= ps->ws_cap) {
        size_t nc = ps->ws_cap ? ps->ws_cap * 2 : 256;
        struct warp_state *n = calloc(nc, sizeof *n);
        if (!n)
            return NULL;
        for (size_t i = 0; i < ps->ws_cap; i++)
            if (ps->ws[i].used) {
                size_t j = hash_key(ps->ws[i].stage, ps->ws[i].warp) & (nc - 1);
                while (n[j].used)
                    j = (j + 1) & (nc - 1);
                n[j] = ps->ws[i];
            }
        free(ps->ws);
        ps->ws = n;
        ps->ws_cap = nc;
    }
    size_t j = hash_key(stage, warp) & (ps->ws_cap - 1);
    while (ps->ws[j].used) {
        if (ps->ws[j].stage == stage && ps->ws[j].warp == warp)
            return &ps->ws[j];
        j = (j + 1) & (ps->ws_cap - 1);
    }
    struct warp_state *w = &ps->ws[j];
    memset(w, 0, sizeof *w);
    w->used = true;
    w->stage = stage;
    w->warp = warp;
    ps->ws_used++;
    return w;
}

static struct bp_count *count_of(struct pass *ps, int id)
{
    for (int i = 0; i < ps->n_counts; i++)
        if (ps->counts[i].id == id)
            return &ps->counts[i];
    return NULL;
}

static int lowest_lane(gm_mask m)
{
    for (int l = 0; l < 32; l++)
        if ((m >> l) & 1)
            return l;
    return 0;
}

static void release_others(struct dbg_pass_res *r)
{
    for (int i = 0; i < r->n_others; i++)
        sh_snapshot_unref(r->others[i]);
    free(r->others);
    free(r->other_keys);
    free(r->other_key_ok);
    r->others = NULL;
    r->other_keys = NULL;
    r->other_key_ok = NULL;
    r->n_others = 0;
}

/* The warp's state in this pass, or NULL if it has not issued in the current draw. */
static struct warp_state *known_warp(struct pass *ps, int stage, uint64_t warp)
{
    if (!ps->ws_cap)
        return NULL;
    size_t j = hash_key(stage, warp) & (ps->ws_cap - 1);
    while (ps->ws[j].used) {
        if (ps->ws[j].stage == stage && ps->ws[j].warp == warp)
            return &ps->ws[j];
        j = (j + 1) & (ps->ws_cap - 1);
    }
    return NULL;
}

void dbg_pass_res_release(struct dbg_pass_res *res)
{
    if (res->snap)
        sh_snapshot_unref(res->snap);
    res->snap = NULL;
    release_others(res);
}

/* The GPU context at the stop: every other warp resident in the model, copied whole (the threads
 * the client lists beside the stopped one). Without the timing model only the stopped warp exists. */
static void take_others(struct pass *ps, struct dbg_pass_res *r, const struct dbg_observe_info *info)
{
    release_others(r);
    if (!info->resident)
        return;
    struct dbg_resident_warp *rw = malloc(DBG_MAX_OTHER_WARPS * sizeof *rw);
    r->others = calloc(DBG_MAX_OTHER_WARPS, sizeof *r->others);
    r->other_keys = calloc(DBG_MAX_OTHER_WARPS, sizeof *r->other_keys);
    r->other_key_ok = calloc(DBG_MAX_OTHER_WARPS, sizeof *r->other_key_ok);
    if (!r->other_keys || !r->other_key_ok) {
        free(rw);
        rw = NULL;
    }
    int n = rw && r->others ? info->resident(info->resident_ctx, rw, DBG_MAX_OTHER_WARPS) : 0;
    for (int i = 0; i < n; i++) {
        if (rw[i].info.draw == info->draw && rw[i].info.stage == info->stage && rw[i].info.warp == info->warp)
            continue;   /* the stopped warp itself */
        gm_mask present = gm_warp_alive_mask(rw[i].w) | gm_warp_helper_mask(rw[i].w);
        struct dbg_copy_opts o = { .focus_lane = lowest_lane(rw[i].issue.active ? rw[i].issue.active : present) };
        sh_snapshot *s = dbg_warp_snapshot(&rw[i].info, rw[i].w, &rw[i].issue, &o);
        if (!s)
            continue;
        /* Issue counts are kept for the current draw's warps only (see observe). */
        const struct warp_state *ws = rw[i].info.draw == ps->cur_draw
                                          ? known_warp(ps, rw[i].info.stage, rw[i].info.warp) : NULL;
        if (ws && ws->issues > 0) {
            r->other_keys[r->n_others] = (struct dbg_stop_key){ rw[i].info.draw, rw[i].info.stage, rw[i].info.warp,
                                                                ws->issues - 1, o.focus_lane };
            r->other_key_ok[r->n_others] = true;
        }
        r->others[r->n_others++] = s;
    }
    free(rw);
    if (!r->n_others)
        release_others(r);
}

static void take_snapshot(struct pass *ps, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is,
                          int lane, uint64_t hit, const char *reason, uint64_t issue_no)
{
    char *pipe = info->state_json ? info->state_json(info->state_ctx) : NULL;
    struct dbg_copy_opts o = { .focus_lane = lane, .hit = hit, .pipeline_json = pipe };
    sh_snapshot *s = dbg_warp_snapshot(info, w, is, &o);
    free(pipe);
    struct dbg_pass_res *r = ps->res;
    if (r->snap)
        sh_snapshot_unref(r->snap);
    r->snap = s;
    if (s)
        take_others(ps, r, info);
    r->status = s ? DBG_PASS_STOPPED : DBG_PASS_ERROR;
    if (!s)
        snprintf(r->message, sizeof r->message, "out of memory copying the warp");
    r->reason = reason;
    r->key = (struct dbg_stop_key){ info->draw, info->stage, info->warp, issue_no, lane };
    r->depth = is && is->call_depth < MAX_DEPTH ? is->call_depth : MAX_DEPTH - 1;
    r->seq = ps->instructions - 1;
    ps->stop_issue = issue_no;
    ps->stopped = true;
    ps->park_key = r->key;
    ps->park_seq = r->seq;
    ps->park_lane = lane;
    ps->park_exc = !strcmp(reason, "exception");
}


/* Whether the warp `k` names is still resident in the timing model (launched, not retired). */
static bool still_resident(const struct dbg_observe_info *info, const struct dbg_stop_key *k)
{
    enum { MAX_RES = 256 };
    struct dbg_resident_warp *rw = malloc(MAX_RES * sizeof *rw);
    if (!rw)
        return true;
    int n = info->resident(info->resident_ctx, rw, MAX_RES);
    bool found = false;
    for (int i = 0; i < n && !found; i++)
        found = rw[i].info.draw == k->draw && rw[i].info.stage == k->stage && rw[i].info.warp == k->warp;
    free(rw);
    /* A full list may have left it out: only a short one proves it gone. */
    return found || n == MAX_RES;
}

/* Follows the focused lane of the stop through the requested steps. false: the lane has ended
 * (finished or killed), so no step can complete: the pass says so at once rather than running the
 * rest of the draw to find out. */
static bool step_observe(struct pass *ps, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is,
                         uint64_t issue_no)
{
    const struct dbg_stop_key *k = &ps->req->key;
    if (ps->lane_ending)
        return false;   /* the instruction after the lane's last one */
    if (info->draw != k->draw || info->stage != k->stage || info->warp != k->warp) {
        /* Another warp. Without the timing model each vertex or fragment warp runs to its end
         * before the next starts, so the stepped one has ended (the warps of other stages may
         * take turns: compute workgroups and patches at barriers, geometry and tessellation in
         * batches); with it, many are in flight: ask now and then. */
        if (!info->resident)
            return k->stage != GM_STAGE_VERTEX && k->stage != GM_STAGE_FRAGMENT;
        return ++ps->step_others % 512 != 0 || still_resident(info, k);
    }
    ps->step_others = 0;
    if (!((gm_warp_alive_mask(w) >> k->lane) & 1))
        return false;
    const gm_program *wp = gm_warp_program(w);
    if (wp && is->pc >= 0 && is->pc < wp->code_count && is->call_depth == 0 && ((is->active >> k->lane) & 1) &&
        (wp->code[is->pc].op == GM_OP_RETURN || wp->code[is->pc].op == GM_OP_KILL))
        ps->lane_ending = true;   /* main returns (or the lane is killed): the next instruction ends the step */
    enum dbg_step kind = ps->req->steps[ps->step_index];
    if (!((is->active >> k->lane) & 1) || (is->line == 0 && kind != DBG_STEP_INSTRUCTION))
        return true;
    int d = is->call_depth, line = is->line;
    bool done = kind == DBG_STEP_INSTRUCTION ? true
              : kind == DBG_STEP_OUT ? d < ps->step_depth
              : kind == DBG_STEP_IN ? (d != ps->step_depth || line != ps->step_line)
              : (d < ps->step_depth || (d == ps->step_depth && line != ps->step_line));
    if (!done)
        return true;
    ps->step_line = line;
    ps->step_depth = d;
    if (++ps->step_index == ps->req->n_steps) {
        take_snapshot(ps, info, w, is, k->lane, 0, "step", issue_no);
        ps->stepping = false;
    }
    return true;
}

static void log_line(struct pass *ps, const char *text)
{
    if (ps->req->log)
        ps->req->log(ps->req->log_user, text);
}

/* The runner calls again for the instruction the pass was parked at: a resumed step begins here;
 * a resumed continue stops at the next lane of it that matched, as a new pass would, or goes on. */
static int observe_reentry(struct pass *ps, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is)
{
    const struct dbg_pass_req *rq = ps->req;
    if (ps->step_setup) {
        ps->step_setup = false;
        ps->stepping = true;
        ps->step_index = 0;
        ps->step_depth = is->call_depth < MAX_DEPTH ? is->call_depth : MAX_DEPTH - 1;
        ps->step_line = is->line ? is->line : gm_warp_lane_line(w, rq->key.lane);
        ps->step_others = 0;
        ps->res->key = rq->key;
        ps->n_pending = 0;   /* the parked instruction's other hits are behind the step */
        ps->pending_lost = false;
        return DBG_OBSERVE_GO;
    }
    for (int i = 0; i < ps->n_pending; i++) {
        struct pending_stop *p = &ps->pending[i];
        const struct dbg_bp *bp = &rq->bps[p->bp];
        if (p->lane <= rq->after_lane || bp->log_message || !hit_matches(bp->hit_op, bp->hit_n, p->hits))
            continue;
        ps->res->bp_id = bp->id;
        ps->res->hit = p->hits;
        take_snapshot(ps, info, w, is, p->lane, p->hits, "breakpoint", ps->stop_issue);
        return ps->res->status == DBG_PASS_STOPPED ? DBG_OBSERVE_SUSPEND : DBG_OBSERVE_END;
    }
    return DBG_OBSERVE_GO;
}

/* What the runner does after an observed instruction. */
static int after_observe(struct pass *ps, const struct dbg_observe_info *info)
{
    const struct dbg_pass_req *rq = ps->req;
    if (ps->stepping || !ps->stopped) {
        /* A step's focused warp never spans draws: once a later draw runs, the lane is done. */
        if (rq->replay && !ps->stopped && info->draw > rq->key.draw)
            return DBG_OBSERVE_END;
        return DBG_OBSERVE_GO;
    }
    if (ps->has_logs)
        return DBG_OBSERVE_GO;           /* logpoints print up to the end of the pass */
    /* Every stop parks the model: a continue or a step from it goes on from here. */
    return ps->suspendable ? DBG_OBSERVE_SUSPEND : DBG_OBSERVE_END;
}

/* req.back: the followed lane's statements before the key. A statement is a run of instructions
 * of one line at one call depth (deeper ones, the calls it makes, inside it); only depths up to
 * the key's count. Each new run's start is copied (a candidate answer), and for the previous run
 * where `next` and `stepIn` from its start would stop, to know whether they lead to the key. */
static void back_mark(struct pass *ps, struct back_run *r, const struct dbg_observe_info *info, gm_warp *w,
                      const gm_issue *is, uint64_t issue_no, uint64_t seq)
{
    if (r->snap)
        sh_snapshot_unref(r->snap);
    if (!ps->pipe_json && info->state_json)
        ps->pipe_json = info->state_json(info->state_ctx);
    struct dbg_copy_opts o = { .focus_lane = ps->req->key.lane, .pipeline_json = ps->pipe_json };
    *r = (struct back_run){ .set = true, .issue = issue_no, .seq = seq, .line = is->line, .depth = is->call_depth,
                            .snap = dbg_warp_snapshot(info, w, is, &o) };
}

static void back_observe(struct pass *ps, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is,
                         uint64_t issue_no, int key_depth)
{
    int lane = ps->req->key.lane;
    if (!((is->active >> lane) & 1) || is->line == 0)
        return;
    int d = is->call_depth, line = is->line;
    uint64_t seq = ps->instructions - 1;
    for (int i = 0; i < 3; i++) {
        struct back_run *r = &ps->run[i];
        if (!r->set)
            continue;
        if (!r->next_done && (d < r->depth || (d == r->depth && line != r->line))) {
            r->next_done = true;
            r->next_seq = seq;
        }
        if (!r->in_done && (d != r->depth || line != r->line)) {
            r->in_done = true;
            r->in_seq = seq;
        }
    }
    bool continues = ps->run[1].set && ps->run[1].line == line && ps->run[1].depth == d;
    if (issue_no == ps->req->key.issue) {
        ps->key_continues = continues;   /* the key's own statement began before it */
        return;
    }
    if (!ps->run[2].set || ps->run[2].line != line || ps->run[2].depth != d)
        back_mark(ps, &ps->run[2], info, w, is, issue_no, seq);
    if (d > key_depth || continues)
        return;
    if (ps->run[0].snap)
        sh_snapshot_unref(ps->run[0].snap);
    ps->run[0] = ps->run[1];
    ps->run[1] = ps->run[2];   /* marked at this very instruction just above: one copy serves both */
    if (ps->run[1].snap)
        sh_snapshot_ref(ps->run[1].snap);
}

/* req.back at the key: the previous statement is the answer (the run before the key's own). */
static void back_answer(struct pass *ps, const struct dbg_observe_info *info, uint64_t issue_no)
{
    struct dbg_pass_res *r = ps->res;
    const struct dbg_stop_key *k = &ps->req->key;
    /* The key begins a new run (the usual case: a stop is the first instruction of a line) unless
     * it continues the current one: then the current one is the key's, and the previous answers. */
    /* The previous statement's start, as a `next` stops there; when a `next` from it does not
     * arrive at the key but one from the last run at any depth does (the key is where a call
     * returned to: that run is the callee's last statement), that run: both are what a step back
     * after that `next` shows. */
    const struct back_run *ans = ps->key_continues ? &ps->run[0] : &ps->run[1];
    const struct back_run *any = &ps->run[2];
    uint64_t key_seq = ps->instructions - 1;
    bool ans_next = ans->set && ans->next_done && ans->next_seq == key_seq;
    if (!ans_next && any->set && any->next_done && any->next_seq == key_seq)
        ans = any;
    ps->stopped = true;
    ps->stop_issue = issue_no;
    ps->park_key = *k;
    ps->park_key.issue = issue_no;
    ps->park_seq = ps->instructions - 1;
    ps->park_lane = k->lane;
    if (!ans->set || !ans->snap) {
        r->status = ans->set ? DBG_PASS_ERROR : DBG_PASS_AT_START;
        snprintf(r->message, sizeof r->message, "%s",
                 ans->set ? "out of memory copying the warp" : "the focused invocation has no earlier statement");
        return;
    }
    r->status = DBG_PASS_STOPPED;
    r->reason = "step";
    r->snap = sh_snapshot_ref(ans->snap);
    r->key = (struct dbg_stop_key){ info->draw, info->stage, info->warp, ans->issue, k->lane };
    r->seq = ans->seq;
    r->depth = ans->depth;
    r->back_next = ans->next_done && ans->next_seq == ps->park_seq;
    r->back_stepin = ans->in_done && ans->in_seq == ps->park_seq;
}

/* Texture functions in breakpoint conditions and logpoints: the observed warp's environment, which
 * the model thread holds during the observer call. */
static int sample_live(void *ctx, const gm_sample_request *req, gm_texel_out *out, char *err, size_t err_size)
{
    gm_env env;
    gm_warp_get_env(ctx, &env);
    if (!env.sample) {
        snprintf(err, err_size, "this warp has no texture units");
        return -1;
    }
    env.sample(env.ctx, req, out);
    return 0;
}

static int observe(void *ctx, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is)
{
    struct pass *ps = ctx;
    const struct dbg_pass_req *rq = ps->req;
    if (ps->reentry) {
        ps->reentry = false;
        return observe_reentry(ps, info, w, is);
    }
    ps->instructions++;
    ps->cur_shader = info->shader;
    ps->cur_line = is->line;
    ps->cur_fresh = 0;
    if (!ps->stopped) {
        ps->n_pending = 0;   /* pending hits are the parked instruction's only */
        ps->pending_lost = false;
    }
    bool logs_pending = ps->has_logs;
    if (ps->stopped && !ps->stepping && !logs_pending)
        return after_observe(ps, info);
    if (info->draw != ps->cur_draw) {
        /* Warps never span draws: forget the previous draw's. */
        if (ps->ws)
            memset(ps->ws, 0, ps->ws_cap * sizeof *ps->ws);
        ps->ws_used = 0;
        ps->cur_draw = info->draw;
    }
    struct warp_state *ws = find_warp(ps, info->stage, info->warp);
    if (!ws)
        return 0;
    uint64_t issue_no = ws->issues++;
    for (int i = 0; i < rq->n_overrides; i++) {
        /* setVariable: the value the client gave, where it gave it, before the instruction runs. */
        const struct dbg_stop_key *k = &rq->overrides[i].key;
        if (k->draw == info->draw && k->stage == info->stage && k->warp == info->warp && k->issue == issue_no)
            dbg_override_apply(w, &rq->overrides[i]);
    }
    int d = is->call_depth < MAX_DEPTH ? is->call_depth : MAX_DEPTH - 1;
    for (int k = ws->depth; k < d; k++)
        ws->call_line[k] = gm_warp_frame_line(w, k);
    ws->depth = d;

    /* Hits are counted by every pass (steps and pauses too), so that any stop can be continued
     * from by resuming its pass; a pass stops at a hit only when it is looking for one. */
    bool stop_before = ps->stopped;
    bool seeking_hit = !rq->replay && !ps->stepping && !rq->have_before;
    struct dbg_exc_hit xh;
    bool exc_now = false;
    if (ps->exc && !ps->stopped && dbg_exc_observe(ps->exc, info, w, is, &xh) && seeking_hit) {
        /* An exception filter matched (dbg_exception.c): stop at the instruction that did it. */
        uint64_t seq = ps->instructions - 1;
        if (!rq->have_after || seq > rq->after_seq || (seq == rq->after_seq && xh.lane > rq->after_lane)) {
            ps->res->exc = xh;
            take_snapshot(ps, info, w, &xh.at, xh.lane, 0, "exception", issue_no);
            exc_now = true;
        }
    }
    if (exc_now) {
        /* stopped here: no breakpoint of this instruction counts */

    } else if (ps->stepping) {
        if (!step_observe(ps, info, w, is, issue_no)) {
            /* The lane ended (DBG_PASS_LANE_FINISHED). A pass that can park stays here, before
             * this instruction (its hits are counted below and kept as pending ones), so that a
             * continue goes on from here instead of running the frame again. */
            const struct dbg_stop_key *k = &rq->key;
            bool same_warp = info->draw == k->draw && info->stage == k->stage && info->warp == k->warp;
            /* Only where the end is seen at once (in the lane's own warp, or without the timing
             * model): the timing model's other warps notice a retired warp late, and hits and
             * exceptions in between would be passed over; there a continue runs a new pass. */
            if (!ps->suspendable || (!same_warp && info->resident && !ps->lane_ending))
                return DBG_OBSERVE_END;
            ps->stepping = false;
            ps->stopped = true;
            ps->lane_finished = true;
            ps->stop_issue = issue_no;
            ps->park_key = (struct dbg_stop_key){ info->draw, info->stage, info->warp, issue_no, -1 };
            ps->park_seq = ps->instructions - 1;
            ps->park_lane = -1;
            ps->n_pending = 0;
            ps->pending_lost = false;
        }
    } else if (!ps->stopped && rq->pause && atomic_load(rq->pause)) {
        take_snapshot(ps, info, w, is, lowest_lane(is->active), 0, "pause", issue_no);
    } else if (!ps->stopped && rq->replay) {
        const struct dbg_stop_key *k = &rq->key;
        bool same_warp = info->draw == k->draw && info->stage == k->stage && info->warp == k->warp;
        if (same_warp && rq->back)
            back_observe(ps, info, w, is, issue_no, rq->back_depth);
        if (same_warp && issue_no == k->issue) {
            if (rq->back) {
                back_answer(ps, info, issue_no);
            } else if (rq->n_steps == 0) {
                take_snapshot(ps, info, w, is, k->lane, 0, "step", issue_no);
            } else {
                ps->stepping = true;
                ps->step_index = 0;
                ps->step_depth = d;
                ps->step_line = is->line ? is->line : gm_warp_lane_line(w, k->lane);
                ps->res->key = *k;
                /* The first step may already be complete at this very instruction only if it
                 * moved; it cannot, so the next instructions decide. */
            }
        }
    }
    if (!exc_now && !ps->no_count && (!stop_before || logs_pending)) {
        /* New arrivals at this line. */
        gm_mask fresh = 0;
        for (int l = 0; is->line > 0 && l < 32; l++) {
            if (!((is->active >> l) & 1))
                continue;
            bool back_from_call = ws->last_depth[l] > d && is->line == ws->call_line[d];
            if (ws->last_line[l] != is->line && !back_from_call)
                fresh |= 1u << l;
        }
        /* Helper lanes (2x2 quad fillers) are not invocations of the draw: they never count. */
        fresh &= ~gm_warp_helper_mask(w);
        /* Instruction breakpoints (pc1): every issue of the instruction, each active lane. */
        gm_mask every = is->active & ~gm_warp_helper_mask(w);
        if (rq->only_draw >= 0 && info->draw != rq->only_draw)
            fresh = every = 0;
        if (fresh)
            dbg_line_hits_add(&ps->lines, info->shader, is->line, (uint64_t)__builtin_popcount(fresh));
        ps->cur_fresh = fresh;
        sh_snapshot *cond_snap = NULL;
        /* Conditions and logpoints sample textures through this warp's own units (it is live). */
        struct dbg_eval_env live_env = { sample_live, w };
        uint64_t seq = ps->instructions - 1;
        for (int b = 0; (fresh || every) && b < rq->n_bps; b++) {
            const struct dbg_bp *bp = &rq->bps[b];
            if (bp->shader != info->shader || (bp->pc1 ? bp->pc1 - 1 != is->pc : bp->line != is->line))
                continue;
            gm_mask lanes = bp->pc1 ? every : fresh;
            struct bp_count *bc = count_of(ps, bp->id);
            if (!bc)
                continue;
            for (int l = 0; l < 32; l++) {
                if (!((lanes >> l) & 1))
                    continue;
                if ((bp->condition && *bp->condition) || bp->log_message || rq->only_x >= 0) {
                    if (!cond_snap) {
                        struct dbg_copy_opts o = { .focus_lane = l };
                        cond_snap = dbg_warp_snapshot(info, w, is, &o);
                        if (!cond_snap)
                            break;
                    }
                }
                if (rq->only_x >= 0) {
                    /* debug this pixel (fragment lanes at x, y) or this vertex (vertex lanes with
                     * that gl_VertexID and gl_InstanceID: the pipeline's, read or not) */
                    const sh_header *h = sh_snapshot_header(cond_snap);
                    int want = rq->only_vertex ? GM_STAGE_VERTEX : GM_STAGE_FRAGMENT;
                    bool at = rq->only_vertex ? info->lane_x && info->lane_y && info->lane_x[l] == rq->only_x &&
                                                    info->lane_y[l] == rq->only_y
                                              : h->lane_x[l] == rq->only_x && h->lane_y[l] == rq->only_y;
                    if (info->stage != want || !at || ((h->helper >> l) & 1))
                        continue;
                }
                if (bp->condition && *bp->condition) {
                    char err[160];
                    int t = dbg_eval_bool_env(cond_snap, l, bp->condition, &live_env, err, sizeof err);
                    if (t < 0 && !ps->cond_error_logged) {
                        char msg[300];
                        snprintf(msg, sizeof msg, "breakpoint condition '%s': %s (treated as false)\n",
                                 bp->condition, err);
                        log_line(ps, msg);
                        ps->cond_error_logged = true;
                    }
                    if (t != 1)
                        continue;
                }
                bc->hits++;
                /* Every hit of the instruction, in loop order: if the pass parks here, a resumed
                 * continue stops at the first of them after the stop's lane, as a new pass would
                 * (one of an earlier breakpoint in the loop at a later lane included). */
                if (!stop_before) {
                    if (ps->n_pending < (int)(sizeof ps->pending / sizeof ps->pending[0]))
                        ps->pending[ps->n_pending++] = (struct pending_stop){ b, l, bc->hits };
                    else
                        ps->pending_lost = true;   /* cannot resume exactly: a continue runs a new pass */
                }
                if (!hit_matches(bp->hit_op, bp->hit_n, bc->hits))
                    continue;
                if (bp->log_message) {
                    if (rq->on_hit)
                        rq->on_hit(rq->on_hit_user, info, cond_snap, l);
                    if (rq->emit_logs && bc->logged < rq->log_limit) {
                        char text[1024], msg[1200];
                        dbg_eval_message_env(cond_snap, l, bp->log_message, &live_env, text, sizeof text);
                        const sh_header *h = sh_snapshot_header(cond_snap);
                        snprintf(msg, sizeof msg, "[%s %d %s warp %llu lane %d (%d,%d)] %s\n",
                                 info->stage == 5 ? "dispatch" : "draw", info->draw, dbg_stage_short(info->stage), (unsigned long long)info->warp, l, h->lane_x[l],
                                 h->lane_y[l], text);
                        log_line(ps, msg);
                        if (++bc->logged == rq->log_limit)
                            log_line(ps, "(logpoint: further messages of this pass suppressed)\n");
                    }
                    continue;
                }
                if (rq->have_before) {
                    if (seq < rq->before_seq || (seq == rq->before_seq && l < rq->before_lane)) {
                        ps->res->found = true;
                        ps->res->found_seq = seq;
                        ps->res->found_lane = l;
                    }
                    continue;
                }
                if (ps->stopped || !seeking_hit)
                    continue;
                if (!rq->have_after || seq > rq->after_seq || (seq == rq->after_seq && l > rq->after_lane)) {
                    ps->res->bp_id = bp->id;
                    ps->res->hit = bc->hits;
                    take_snapshot(ps, info, w, is, l, bc->hits, "breakpoint", issue_no);
                }
            }
        }
        if (cond_snap)
            sh_snapshot_unref(cond_snap);
    }
    for (int l = 0; l < 32; l++)
        if ((is->active >> l) & 1) {
            ws->last_line[l] = is->line ? is->line : ws->last_line[l];
            ws->last_depth[l] = (uint8_t)d;
        }
    if (rq->have_before && ps->instructions - 1 >= rq->before_seq)
        return DBG_OBSERVE_END;   /* every hit before the position is counted */
    return after_observe(ps, info);
}

/* ---------------------------------------------------------------- passes and their suspension
 *
 * A pass that stops at a breakpoint (no logpoints, not a step or pause) is *suspended*: the model
 * stays parked at the stop's instruction (dbg_runner.h) with the pass's hit counts. A continue
 * whose breakpoint locations, conditions, filters and position are exactly that stop's resumes it
 * (hit conditions may have changed: they do not change the counts, only which hit stops): the model is
 * deterministic, so it reaches the very hit a new pass would (same counts, same warp contents),
 * without compiling and running the frame's prefix again. Anything else abandons it and runs a
 * new pass. */

static void pass_free(void *p)
{
    struct pass *ps = p;
    if (!ps)
        return;
    for (int i = 0; i < ps->n_own_bps; i++) {
        free((char *)ps->own_bps[i].condition);
        free((char *)ps->own_bps[i].log_message);
    }
    free(ps->own_bps);
    free(ps->ws);
    free(ps->counts);
    for (int i = 0; i < 3; i++)
        if (ps->run[i].snap)
            sh_snapshot_unref(ps->run[i].snap);
    free(ps->pipe_json);
    dbg_exc_free(ps->exc);
    dbg_line_hits_free(&ps->lines);
    free(ps);
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

static bool same_text(const char *a, const char *b)
{
    if (!a || !*a)
        return !b || !*b;
    return b && !strcmp(a, b);
}

/* The same breakpoint locations, conditions and logpoints in the same order. Hit conditions may
 * differ: they choose which counted hit stops, the counts are the same. Ids may differ too (a
 * client's setBreakpoints gives new ids) if old and new ids correspond one to one. */
static bool same_bps(const struct pass *ps, const struct dbg_pass_req *req)
{
    if (ps->n_own_bps != req->n_bps)
        return false;
    for (int i = 0; i < req->n_bps; i++) {
        const struct dbg_bp *a = &ps->own_bps[i], *b = &req->bps[i];
        if (a->shader != b->shader || a->line != b->line || a->pc1 != b->pc1 || !same_text(a->condition, b->condition) ||
            !same_text(a->log_message, b->log_message))
            return false;
        for (int j = 0; j < i; j++)
            if ((ps->own_bps[j].id == a->id) != (req->bps[j].id == b->id))
                return false;
    }
    return true;
}

/* Renames the pass's breakpoint ids (and their counts) to the request's (same_bps holds). */
static void adopt_ids(struct pass *ps, const struct dbg_pass_req *req)
{
    for (int c = 0; c < ps->n_counts; c++)
        for (int i = 0; i < req->n_bps; i++)
            if (ps->own_bps[i].id == ps->counts[c].id) {
                ps->counts[c].id = -1 - i;   /* marked: renamed below, never matched twice */
                break;
            }
    for (int c = 0; c < ps->n_counts; c++)
        if (ps->counts[c].id < 0)
            ps->counts[c].id = req->bps[-1 - ps->counts[c].id].id;
    for (int i = 0; i < req->n_bps; i++) {
        ps->own_bps[i].id = req->bps[i].id;
        ps->own_bps[i].hit_op = req->bps[i].hit_op;
        ps->own_bps[i].hit_n = req->bps[i].hit_n;
    }
}

static bool resumable(const struct pass *ps, const struct dbg_pass_req *req)
{
    return ps && ps->stopped && !ps->pending_lost && !ps->no_count && !req->n_overrides && req->have_after &&
           !req->replay && !req->have_before && !(req->pause && atomic_load(req->pause)) &&
           req->after_seq == ps->park_seq && req->after_lane == ps->park_lane && req->only_draw == ps->only_draw &&
           req->only_x == ps->only_x && req->only_y == ps->only_y && req->only_vertex == ps->only_vertex &&
           req->exceptions == ps->exceptions &&
           same_bps(ps, req);
}

/* A step from exactly where the model is parked (any kind of stop; the followed lane may be
 * another than the stop's): the pass goes on from there instead of running the frame again. The
 * breakpoints may have changed meanwhile: the step does not depend on them, but the pass's counts
 * are then not theirs, so it stops counting and a later continue runs a new pass. */
static bool step_resumable(const struct pass *ps, const struct dbg_pass_req *req)
{
    return ps && ps->stopped && req->replay && !req->back && req->n_steps > 0 && !req->have_before &&
           !(req->pause && atomic_load(req->pause)) && req->key.draw == ps->park_key.draw &&
           req->key.stage == ps->park_key.stage && req->key.warp == ps->park_key.warp &&
           req->key.issue == ps->park_key.issue && req->key.lane >= 0 && req->key.lane < 32;
}

static struct pass *pass_new(const struct dbg_pass_req *req);

/* A continue from exactly where the model is parked whose breakpoints changed (dbg_rebind.h), or a
 * step that resumes the pass (`step`: step_resumable holds): when every new breakpoint's count at
 * the stop is known, the pass takes the request's breakpoints and counts (and its parked
 * instruction's further hits), and may resume; after a step, later continues still can. */
static bool rebind(struct pass *ps, const struct dbg_pass_req *req, bool step)
{
    if (!ps || !ps->stopped || ps->pending_lost || ps->no_count || ps->park_exc || ps->has_logs ||
        !dbg_rebind_enabled() || req->n_overrides || ps->park_seq != ps->instructions - 1 || ps->only_x >= 0)
        return false;
    if (!step && (!req->have_after || req->replay || req->have_before || (req->pause && atomic_load(req->pause)) ||
                  req->after_seq != ps->park_seq || req->after_lane != ps->park_lane ||
                  req->only_draw != ps->only_draw || req->only_x >= 0 || req->exceptions != ps->exceptions))
        return false;
    for (int i = 0; i < req->n_bps; i++)
        if (req->bps[i].log_message)
            return false;
    size_t nb = (size_t)req->n_bps + 1;
    int *cnt_ids = calloc((size_t)ps->n_counts + 1, sizeof *cnt_ids);
    uint64_t *cnt_hits = calloc((size_t)ps->n_counts + 1, sizeof *cnt_hits);
    uint64_t *new_hits = calloc(nb, sizeof *new_hits);
    int *old_to_new = calloc((size_t)ps->n_own_bps + 1, sizeof *old_to_new);
    enum { MAX_PEND = (int)(sizeof ps->pending / sizeof ps->pending[0]) };
    struct dbg_rebind_pending *pend = calloc(MAX_PEND, sizeof *pend);
    int n_pend = 0;
    struct pass *np = NULL;
    bool ok = cnt_ids && cnt_hits && new_hits && old_to_new && pend;
    for (int c = 0; ok && c < ps->n_counts; c++) {
        cnt_ids[c] = ps->counts[c].id;
        cnt_hits[c] = ps->counts[c].hits;
    }
    /* The parked instruction's arrivals after the stop's lane. */
    struct dbg_park park = { ps->cur_shader, ps->cur_line,
                             ps->park_lane >= 31 ? 0u : ps->cur_fresh & ~((2u << ps->park_lane) - 1u) };
    ok = ok && dbg_rebind_counts(ps->own_bps, ps->n_own_bps, cnt_ids, cnt_hits, ps->n_counts, req->bps, req->n_bps,
                                 &ps->lines, &park, new_hits, old_to_new, pend, MAX_PEND, &n_pend);
    /* The request's breakpoints and counts, as a new pass would hold them (pass_new), moved in. */
    ok = ok && (np = pass_new(req)) != NULL;
    for (int i = 0; ok && i < req->n_bps; i++)
        for (int c = 0; c < np->n_counts; c++)
            if (np->counts[c].id == req->bps[i].id)
                np->counts[c].hits = new_hits[i];
    int n = 0;
    if (ok) {
        /* The parked instruction's further hits (kept breakpoints' and new ones'), in a new
         * pass's loop order (breakpoints in the request's order, then lanes). */
        ok = ps->n_pending + n_pend <= MAX_PEND;
        for (int i = 0; ok && i < n_pend; i++)   /* appended, sorted in below */
            ps->pending[ps->n_pending + i] = (struct pending_stop){ pend[i].bp, pend[i].lane, pend[i].hits };
        for (int i = 0; ok && i < ps->n_pending + n_pend; i++) {
            int b = i < ps->n_pending ? old_to_new[ps->pending[i].bp] : ps->pending[i].bp;
            if (b < 0)
                continue;
            struct pending_stop p = { b, ps->pending[i].lane, ps->pending[i].hits };
            int k = n++;
            while (k > 0 && (ps->pending[k - 1].bp > p.bp ||
                             (ps->pending[k - 1].bp == p.bp && ps->pending[k - 1].lane > p.lane))) {
                ps->pending[k] = ps->pending[k - 1];
                k--;
            }
            ps->pending[k] = p;
        }
    }
    if (ok) {
        ps->n_pending = n;
        struct dbg_bp *ob = ps->own_bps;
        int on = ps->n_own_bps;
        struct bp_count *oc = ps->counts;
        ps->own_bps = np->own_bps;
        ps->n_own_bps = np->n_own_bps;
        ps->counts = np->counts;
        ps->n_counts = np->n_counts;
        np->own_bps = ob;
        np->n_own_bps = on;
        np->counts = oc;
    }
    pass_free(np);
    free(cnt_ids);
    free(cnt_hits);
    free(new_hits);
    free(old_to_new);
    free(pend);
    return ok;
}

static struct pass *pass_new(const struct dbg_pass_req *req)
{
    struct pass *ps = calloc(1, sizeof *ps);
    if (!ps)
        return NULL;
    ps->cur_draw = -1;
    ps->counts = calloc((size_t)req->n_bps + 1, sizeof *ps->counts);
    ps->own_bps = calloc((size_t)req->n_bps + 1, sizeof *ps->own_bps);
    if (!ps->counts || !ps->own_bps) {
        pass_free(ps);
        return NULL;
    }
    for (int i = 0; i < req->n_bps; i++) {
        if (!count_of(ps, req->bps[i].id))
            ps->counts[ps->n_counts++] = (struct bp_count){ .id = req->bps[i].id };
        ps->own_bps[i] = req->bps[i];
        ps->own_bps[i].condition = dup_or_null(req->bps[i].condition);
        ps->own_bps[i].log_message = dup_or_null(req->bps[i].log_message);
        ps->n_own_bps++;
        if (req->bps[i].log_message && req->emit_logs)
            ps->has_logs = true;
    }
    ps->only_draw = req->only_draw;
    ps->only_x = req->only_x;
    ps->only_y = req->only_y;
    ps->only_vertex = req->only_vertex;
    ps->exceptions = req->exceptions;
    /* Steps and replays watch too (without stopping): a continue that resumes their pass then
     * finds the next exception after the step, with each warp's previous instruction known. */
    if (req->exceptions && !(ps->exc = dbg_exc_new(req->exceptions))) {
        pass_free(ps);
        return NULL;
    }
    return ps;
}

/* The pass's state at a draw boundary for a checkpoint (dbg_ckpt.h): only while it counts what a
 * pass from the frame's start counts (all draws, every instruction, no values set by the client,
 * not past a stop it stays at). */
static bool pass_ckpt_state(void *ctx, uint64_t *instructions, struct dbg_line_hits *lines)
{
    struct pass *ps = ctx;
    if ((ps->stopped && !ps->stepping) || ps->no_count || ps->only_draw >= 0 || ps->exc || ps->reentry ||
        ps->req->n_overrides || ps->lines.lost)
        return false;
    *instructions = ps->instructions;
    return dbg_line_hits_copy(lines, &ps->lines);
}

/* A new pass starts at the latest checkpoint that cannot change what it finds (dbg_ckpt_pick),
 * with the counts a pass from the frame's start has there. */
static void start_at_checkpoint(struct dbg_runner *r, struct pass *ps, const struct dbg_pass_req *req)
{
    struct dbg_ckpts *s = r->ckpts;
    if (!s)
        return;
    s->engine_take = pass_ckpt_state;
    s->start = -1;
    if (s->n && s->timing != r->timing)
        dbg_ckpts_clear(s);   /* another schedule: other hits, other warps */
    int k = dbg_ckpt_pick(s, req);
    if (k < 0)
        return;
    const struct dbg_ckpt *c = &s->c[k];
    if (req->only_draw < 0 && !dbg_line_hits_copy(&ps->lines, &c->lines)) {
        dbg_line_hits_free(&ps->lines);
        return;
    }
    ps->instructions = c->instructions;
    for (int i = 0; i < ps->n_counts; i++)
        ps->counts[i].hits = dbg_ckpt_id_hits(c, req, ps->counts[i].id);
    s->start = k;
}

static void limit_runner(struct dbg_runner *r, const struct dbg_pass_req *req);

/* Whether a new pass for req would start at a checkpoint after `draw`. */
static bool checkpoint_after(struct dbg_runner *r, const struct dbg_pass_req *req, int draw)
{
    struct dbg_ckpts *s = r->ckpts;
    if (!s->n || s->timing != r->timing)
        return false;
    /* The limit of the pass it would be; a pass resumed instead has the same breakpoint shaders
     * (resumable) or sets this limit itself (rebind). */
    limit_runner(r, req);
    int k = dbg_ckpt_pick(s, req);
    return k >= 0 && s->c[k].draw > draw;
}

/* Which shaders the pass can stop in; n < 0: any (steps, pauses). */
static void limit_runner(struct dbg_runner *r, const struct dbg_pass_req *req)
{
    if (!r->limit_to_shaders)
        return;
    if (req->replay || req->exceptions || (req->pause && atomic_load(req->pause))) {
        r->limit_to_shaders(r->impl, NULL, -1);
        return;
    }
    int *ids = calloc((size_t)req->n_bps + 1, sizeof *ids);
    if (!ids) {
        r->limit_to_shaders(r->impl, NULL, -1);
        return;
    }
    for (int i = 0; i < req->n_bps; i++)
        ids[i] = req->bps[i].shader;
    r->limit_to_shaders(r->impl, ids, req->n_bps);
    free(ids);
}

/* Passes of one runner never overlap (two sessions of `glreplay dap` share the capture's runner):
 * the second waits; a breakpoint stop returns at once (the model stays parked). */
static pthread_mutex_t engine_lock = PTHREAD_MUTEX_INITIALIZER;

static int engine_run_locked(struct dbg_runner *r, const struct dbg_pass_req *req, struct dbg_pass_res *res);

int dbg_engine_run(struct dbg_runner *r, const struct dbg_pass_req *req, struct dbg_pass_res *res)
{
    pthread_mutex_lock(&engine_lock);
    if (req->run_hooks && !dbg_runner_set_next_hooks(r, req->run_hooks, req->run_hooks_free))
        req->run_hooks_free(req->run_hooks);   /* this runner takes none */
    int rc = engine_run_locked(r, req, res);
    /* hooks no run took (the pass resumed, or ended before a run) are not left for the next */
    dbg_runner_set_next_hooks(r, NULL, NULL);
    res->counted = dbg_runner_pass_counts(r, &res->model_records, &res->model_draws);
    res->model_left_out = dbg_runner_pass_left_out(r, &res->model_ckpt_draw);
    pthread_mutex_unlock(&engine_lock);
    return rc;
}

static int engine_run_locked(struct dbg_runner *r, const struct dbg_pass_req *req, struct dbg_pass_res *res)
{
    memset(res, 0, sizeof *res);
    res->status = DBG_PASS_END;
    char err[256] = "";
    struct pass *ps = r->suspended;
    int rc;
    /* A checkpoint past the parked draw that the pass may start at: a new pass from there runs
     * less of the frame than resuming (a continue to a hit in a later draw). */
    bool later_ckpt = ps && r->ckpts && !req->replay && checkpoint_after(r, req, ps->cur_draw);
    if (ps && r->resume && !later_ckpt && resumable(ps, req)) {
        r->suspended = NULL;
        adopt_ids(ps, req);
        ps->req = req;
        ps->res = res;
        ps->stopped = false;
        ps->lane_finished = false;
        ps->lane_ending = false;
        ps->reentry = true;
        res->resumed = true;
        rc = r->resume(r->impl, err, sizeof err);
    } else if (ps && r->resume && step_resumable(ps, req)) {
        r->suspended = NULL;
        if (same_bps(ps, req))
            adopt_ids(ps, req);
        else if (rebind(ps, req, true))
            limit_runner(r, req);   /* a later continue needs the new breakpoints' draws */
        else
            ps->no_count = true;
        ps->req = req;
        ps->res = res;
        ps->stopped = false;
        ps->reentry = true;
        ps->step_setup = true;
        ps->lane_ending = false;
        res->resumed = true;
        rc = r->resume(r->impl, err, sizeof err);
    } else if (ps && r->resume && !later_ckpt && rebind(ps, req, false)) {
        r->suspended = NULL;
        ps->req = req;
        ps->res = res;
        ps->stopped = false;
        ps->reentry = true;
        res->resumed = true;
        limit_runner(r, req);   /* the new breakpoints' shaders may draw later than the old ones' */
        rc = r->resume(r->impl, err, sizeof err);
    } else {
        if (ps) {
            r->suspended = NULL;
            if (r->abandon)
                r->abandon(r->impl);
            pass_free(ps);
        }
        ps = pass_new(req);
        if (!ps) {
            res->status = DBG_PASS_ERROR;
            snprintf(res->message, sizeof res->message, "out of memory");
            return -1;
        }
        ps->req = req;
        ps->res = res;
        ps->suspendable = r->resume != NULL;
        limit_runner(r, req);
        start_at_checkpoint(r, ps, req);
        rc = r->run(r->impl, observe, ps, err, sizeof err);
    }
    res->instructions = ps->instructions;
    for (int i = 0; i < ps->n_counts; i++)
        res->hits_seen += ps->counts[i].hits;
    if (rc == DBG_RUN_ERROR && !ps->stopped) {
        res->status = DBG_PASS_ERROR;
        snprintf(res->message, sizeof res->message, "%s", err[0] ? err : "the frame could not run in the model");
    } else if (req->replay && (!ps->stopped || ps->lane_finished)) {
        res->status = DBG_PASS_LANE_FINISHED;
        snprintf(res->message, sizeof res->message, "the focused invocation finished");
        if (ps->lane_finished && rc == DBG_RUN_SUSPENDED) {
            /* the pass is parked where the lane ended: the position a continue goes on from */
            res->finished_parked = true;
            res->seq = ps->park_seq;
            res->key = ps->park_key;
        }
    }
    if (rc == DBG_RUN_SUSPENDED) {
        r->suspended = ps;
        r->suspended_free = pass_free;
    } else {
        pass_free(ps);
    }
    return res->status == DBG_PASS_ERROR ? -1 : 0;
}
