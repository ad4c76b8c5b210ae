/* Breakpoint passes over a frame (see dap_engine.h).
 *
 * Hit rule (helper lanes excluded): an instruction at line L issued with active mask M is a hit for every lane of M whose
 * previous instruction was on another line, except a lane coming back from a call to the line of
 * its call site (the rest of `x = f(y);` after f returns is not a second arrival). Lanes are
 * counted in lane order within an instruction and instructions in the model's issue order, so the
 * N-th hit is the same lane on every pass. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_engine.h"
#include "ui_ipc/dap/dap_eval.h"
#include "ui_ipc/dap/dap_warp_copy.h"

bool dap_parse_hit_condition(const char *text, enum dap_hit_op *op, uint64_t *n)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p) {
        *op = DAP_HIT_ANY;
        *n = 0;
        return true;
    }
    if (!strncmp(p, "==", 2)) { *op = DAP_HIT_EQ; p += 2; }
    else if (!strncmp(p, ">=", 2)) { *op = DAP_HIT_GE; p += 2; }
    else if (*p == '>') { *op = DAP_HIT_GT; p++; }
    else if (*p == '%') { *op = DAP_HIT_MOD; p++; }
    else *op = DAP_HIT_EQ;
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

static bool hit_matches(enum dap_hit_op op, uint64_t n, uint64_t count)
{
    switch (op) {
    case DAP_HIT_EQ: return count == n;
    case DAP_HIT_GE: return count >= n;
    case DAP_HIT_GT: return count > n;
    case DAP_HIT_MOD: return count % n == 0;
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

struct pass {
    const struct dap_pass_req *req;
    struct dap_pass_res *res;
    int cur_draw;
    struct warp_state *ws;
    size_t ws_cap, ws_used;
    struct bp_count *counts;
    int n_counts;
    bool stopped;            /* the stop snapshot is taken */
    bool stepping;
    int step_index, step_line, step_depth;
    bool cond_error_logged;
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

static void take_snapshot(struct pass *ps, const struct dap_observe_info *info, gm_warp *w, const gm_issue *is,
                          int lane, uint64_t hit, const char *reason, uint64_t issue_no)
{
    char *pipe = info->state_json ? info->state_json(info->state_ctx) : NULL;
    struct dap_copy_opts o = { .focus_lane = lane, .hit = hit, .pipeline_json = pipe };
    sh_snapshot *s = dap_warp_snapshot(info, w, is, &o);
    free(pipe);
    struct dap_pass_res *r = ps->res;
    if (r->snap)
        sh_snapshot_unref(r->snap);
    r->snap = s;
    r->status = s ? DAP_PASS_STOPPED : DAP_PASS_ERROR;
    if (!s)
        snprintf(r->message, sizeof r->message, "out of memory copying the warp");
    r->reason = reason;
    r->key = (struct dap_stop_key){ info->draw, info->stage, info->warp, issue_no, lane };
    r->seq = r->instructions - 1;
    ps->stopped = true;
}

static int lowest_lane(gm_mask m)
{
    for (int l = 0; l < 32; l++)
        if ((m >> l) & 1)
            return l;
    return 0;
}

/* Follows the focused lane of the replayed stop through the requested steps. */
static void step_observe(struct pass *ps, const struct dap_observe_info *info, gm_warp *w, const gm_issue *is,
                         uint64_t issue_no)
{
    const struct dap_stop_key *k = &ps->req->key;
    if (info->draw != k->draw || info->stage != k->stage || info->warp != k->warp)
        return;
    if (!((is->active >> k->lane) & 1) || is->line == 0)
        return;
    enum dap_step kind = ps->req->steps[ps->step_index];
    int d = is->call_depth, line = is->line;
    bool done = kind == DAP_STEP_OUT ? d < ps->step_depth
              : kind == DAP_STEP_IN ? (d != ps->step_depth || line != ps->step_line)
              : (d < ps->step_depth || (d == ps->step_depth && line != ps->step_line));
    if (!done)
        return;
    ps->step_line = line;
    ps->step_depth = d;
    if (++ps->step_index == ps->req->n_steps) {
        take_snapshot(ps, info, w, is, k->lane, 0, "step", issue_no);
        ps->stepping = false;
    }
}

static void log_line(struct pass *ps, const char *text)
{
    if (ps->req->log)
        ps->req->log(ps->req->log_user, text);
}

static int observe(void *ctx, const struct dap_observe_info *info, gm_warp *w, const gm_issue *is)
{
    struct pass *ps = ctx;
    const struct dap_pass_req *rq = ps->req;
    ps->res->instructions++;
    bool logs_pending = rq->emit_logs;
    if (ps->stopped && !ps->stepping && !logs_pending)
        return 0;
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
    int d = is->call_depth < MAX_DEPTH ? is->call_depth : MAX_DEPTH - 1;
    for (int k = ws->depth; k < d; k++)
        ws->call_line[k] = gm_warp_frame_line(w, k);
    ws->depth = d;

    if (ps->stepping) {
        step_observe(ps, info, w, is, issue_no);
    } else if (!ps->stopped && rq->pause && atomic_load(rq->pause)) {
        take_snapshot(ps, info, w, is, lowest_lane(is->active), 0, "pause", issue_no);
    } else if (!ps->stopped && rq->replay) {
        const struct dap_stop_key *k = &rq->key;
        if (info->draw == k->draw && info->stage == k->stage && info->warp == k->warp && issue_no == k->issue) {
            if (rq->n_steps == 0) {
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
    } else if (is->line > 0 && (!ps->stopped || logs_pending)) {
        /* New arrivals at this line. */
        gm_mask fresh = 0;
        for (int l = 0; l < 32; l++) {
            if (!((is->active >> l) & 1))
                continue;
            bool back_from_call = ws->last_depth[l] > d && is->line == ws->call_line[d];
            if (ws->last_line[l] != is->line && !back_from_call)
                fresh |= 1u << l;
        }
        /* Helper lanes (2x2 quad fillers) are not invocations of the draw: they never count. */
        fresh &= ~gm_warp_helper_mask(w);
        if (rq->only_draw >= 0 && info->draw != rq->only_draw)
            fresh = 0;
        sh_snapshot *cond_snap = NULL;
        for (int b = 0; fresh && b < rq->n_bps; b++) {
            const struct dap_bp *bp = &rq->bps[b];
            if (bp->shader != info->shader || bp->line != is->line)
                continue;
            struct bp_count *bc = count_of(ps, bp->id);
            if (!bc)
                continue;
            for (int l = 0; l < 32; l++) {
                if (!((fresh >> l) & 1))
                    continue;
                if ((bp->condition && *bp->condition) || bp->log_message || rq->only_x >= 0) {
                    if (!cond_snap) {
                        struct dap_copy_opts o = { .focus_lane = l };
                        cond_snap = dap_warp_snapshot(info, w, is, &o);
                        if (!cond_snap)
                            break;
                    }
                }
                if (rq->only_x >= 0) {
                    const sh_header *h = sh_snapshot_header(cond_snap);
                    if (info->stage != GM_STAGE_FRAGMENT || h->lane_x[l] != rq->only_x || h->lane_y[l] != rq->only_y ||
                        ((h->helper >> l) & 1))
                        continue;
                }
                if (bp->condition && *bp->condition) {
                    char err[160];
                    int t = dap_eval_bool(cond_snap, l, bp->condition, err, sizeof err);
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
                if (!hit_matches(bp->hit_op, bp->hit_n, bc->hits))
                    continue;
                if (bp->log_message) {
                    if (rq->emit_logs && bc->logged < rq->log_limit) {
                        char text[1024], msg[1200];
                        dap_eval_message(cond_snap, l, bp->log_message, text, sizeof text);
                        const sh_header *h = sh_snapshot_header(cond_snap);
                        snprintf(msg, sizeof msg, "[draw %d %s warp %llu lane %d (%d,%d)] %s\n", info->draw,
                                 info->stage == 4 ? "FS" : "VS", (unsigned long long)info->warp, l, h->lane_x[l],
                                 h->lane_y[l], text);
                        log_line(ps, msg);
                        if (++bc->logged == rq->log_limit)
                            log_line(ps, "(logpoint: further messages of this pass suppressed)\n");
                    }
                    continue;
                }
                if (ps->stopped)
                    continue;
                uint64_t seq = ps->res->instructions - 1;
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
    return 0;
}

int dap_engine_run(struct dap_runner *r, const struct dap_pass_req *req, struct dap_pass_res *res)
{
    memset(res, 0, sizeof *res);
    struct pass ps;
    memset(&ps, 0, sizeof ps);
    ps.req = req;
    ps.res = res;
    ps.cur_draw = -1;
    ps.counts = calloc((size_t)req->n_bps + 1, sizeof *ps.counts);
    if (!ps.counts) {
        res->status = DAP_PASS_ERROR;
        snprintf(res->message, sizeof res->message, "out of memory");
        return -1;
    }
    for (int i = 0; i < req->n_bps; i++)
        if (!count_of(&ps, req->bps[i].id))
            ps.counts[ps.n_counts++] = (struct bp_count){ .id = req->bps[i].id };
    res->status = DAP_PASS_END;
    char err[256] = "";
    int rc = r->run(r->impl, observe, &ps, err, sizeof err);
    if (rc != 0 && !ps.stopped) {
        res->status = DAP_PASS_ERROR;
        snprintf(res->message, sizeof res->message, "%s", err[0] ? err : "the frame could not run in the model");
    } else if (req->replay && !ps.stopped) {
        res->status = DAP_PASS_LANE_FINISHED;
        snprintf(res->message, sizeof res->message, "the focused invocation finished");
    }
    free(ps.ws);
    free(ps.counts);
    return res->status == DAP_PASS_ERROR ? -1 : 0;
}
