/* Per-draw checkpoints (dbg_ckpt.h) change nothing a pass finds: on a real capture, passes that
 * start at a checkpoint are compared with the same passes from the frame's first draw (a runner
 * without checkpoints), and a model run resumed from a checkpoint with a run from the start.
 *
 * 1. A pass over the whole frame keeps checkpoints before the draws. A breakpoint is chosen on a
 *    line hit between the last two checkpoints, at a hit N between their counts (a late draw).
 * 2. Passes to hit N (a new pass from a checkpoint), replay + steps, a step back, a new pass to
 *    the first hit after the stop's position, debug this pixel of the stop, and a continue from
 *    hit 1 past a checkpoint (the other runner resumes its parked pass): each must have started at a checkpoint, and its status, hit number,
 *    instruction index, stop key, call depth, the stopped warp's every lane's variables (the
 *    snapshot's JSON) and the other resident warps' must equal the pass from the start.
 * 3. Model level: the frame run from a checkpoint in its last third (programs-only prefix, then
 *    gmf_checkpoint_install) gives, after every later draw, the same image of every context's
 *    framebuffer, and at the end the same totals (timing model cycles included), as a run from
 *    the start.
 *
 * Usage: test_dap_ckpt CAPTURE.glcap. Exit 0 when all agree (1 with a message otherwise; 77
 * when the capture has too few draws to compare). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_ckpt.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_runner.h"
#include "gpu_model/frame/gmf_checkpoint.h"
#include "registry/glr_call_codec.h"
#include "replay/player/player.h"
#include "shadow/shadow.h"

#define GLR_CHECK_MESSAGES
#include "tests/support/glr_check.h"

/* Where two snapshots' JSON first differ, with some context, on stderr. */
static void show_difference(const char *a, const char *b)
{
    size_t i = 0;
    while (a[i] && a[i] == b[i])
        i++;
    size_t from = i > 160 ? i - 160 : 0;
    fprintf(stderr, "  from a checkpoint: ...%.240s\n  from the start:    ...%.240s\n", a + from, b + from);
}

static void drop_suspended(struct dbg_runner *r)
{
    if (r->suspended) {
        r->abandon(r->impl);
        r->suspended_free(r->suspended);
        r->suspended = NULL;
    }
}

/* One pass on each runner (a, with checkpoints, must start at one); everything compared. */
static void compare_pass_opt(const char *what, struct dbg_runner *a, struct dbg_runner *b,
                             const struct dbg_pass_req *req, struct dbg_pass_res *out_a, bool keep_parked);

static void compare_pass(const char *what, struct dbg_runner *a, struct dbg_runner *b, const struct dbg_pass_req *req,
                         struct dbg_pass_res *out_a)
{
    compare_pass_opt(what, a, b, req, out_a, false);
}

/* keep_parked: a continue from the parked stop (b resumes its pass; a, with a checkpoint past
 * the parked draw, runs a new pass from there). */
static void compare_pass_opt(const char *what, struct dbg_runner *a, struct dbg_runner *b,
                             const struct dbg_pass_req *req, struct dbg_pass_res *out_a, bool keep_parked)
{
    if (!keep_parked) {
        drop_suspended(a);
        drop_suspended(b);
    }
    uint64_t started = a->ckpts->started;
    struct dbg_pass_res ra, rb;
    dbg_engine_run(a, req, &ra);
    dbg_engine_run(b, req, &rb);
    CHECK(a->ckpts->started == started + 1, "%s: the pass did not start at a checkpoint", what);
    CHECK(!keep_parked || rb.resumed, "%s: the pass without checkpoints was not resumed", what);
    CHECK(ra.status == rb.status, "%s: status %d vs %d (%s / %s)", what, ra.status, rb.status, ra.message, rb.message);
    CHECK(ra.hit == rb.hit && ra.bp_id == rb.bp_id, "%s: hit %llu vs %llu", what, (unsigned long long)ra.hit,
          (unsigned long long)rb.hit);
    CHECK(ra.seq == rb.seq, "%s: instruction index %llu vs %llu", what, (unsigned long long)ra.seq,
          (unsigned long long)rb.seq);
    CHECK(!memcmp(&ra.key, &rb.key, sizeof ra.key) || (ra.key.draw == rb.key.draw && ra.key.stage == rb.key.stage &&
                                                       ra.key.warp == rb.key.warp && ra.key.issue == rb.key.issue &&
                                                       ra.key.lane == rb.key.lane),
          "%s: stop key draw %d warp %llu issue %llu lane %d vs draw %d warp %llu issue %llu lane %d", what, ra.key.draw,
          (unsigned long long)ra.key.warp, (unsigned long long)ra.key.issue, ra.key.lane, rb.key.draw,
          (unsigned long long)rb.key.warp, (unsigned long long)rb.key.issue, rb.key.lane);
    CHECK(ra.depth == rb.depth, "%s: depth", what);
    CHECK(!ra.snap == !rb.snap, "%s: one pass has no snapshot", what);
    if (ra.snap && rb.snap) {
        char *ja = sh_snapshot_to_json(ra.snap), *jb = sh_snapshot_to_json(rb.snap);
        CHECK(ja && jb && !strcmp(ja, jb), "%s: the stopped warp's variables differ", what);
        if (ja && jb && strcmp(ja, jb)) {
            show_difference(ja, jb);
            const char *dump = getenv("TEST_DAP_CKPT_DUMP");   /* a folder: both JSONs written there */
            if (dump) {
                char pa[512];
                snprintf(pa, sizeof pa, "%s/%s.ckpt.json", dump, what);
                FILE *fa = fopen(pa, "w");
                if (fa) { fputs(ja, fa); fclose(fa); }
                snprintf(pa, sizeof pa, "%s/%s.start.json", dump, what);
                fa = fopen(pa, "w");
                if (fa) { fputs(jb, fa); fclose(fa); }
            }
        }
        free(ja);
        free(jb);
    }
    CHECK(ra.n_others == rb.n_others, "%s: %d vs %d other resident warps", what, ra.n_others, rb.n_others);
    int differ = 0;
    for (int i = 0; i < ra.n_others && i < rb.n_others; i++) {
        char *ja = sh_snapshot_to_json(ra.others[i]), *jb = sh_snapshot_to_json(rb.others[i]);
        differ += !(ja && jb && !strcmp(ja, jb));
        free(ja);
        free(jb);
    }
    CHECK(!differ, "%s: %d of the other resident warps' variables differ", what, differ);
    printf("  %s: status %d, hit %llu, instruction %llu, draw %d warp %llu lane %d, %d other warps: equal\n", what,
           ra.status, (unsigned long long)ra.hit, (unsigned long long)ra.seq, ra.key.draw,
           (unsigned long long)ra.key.warp, ra.key.lane, ra.n_others);
    if (out_a)
        *out_a = ra;
    else
        dbg_pass_res_release(&ra);
    dbg_pass_res_release(&rb);
}

/* ---- model level ---------------------------------------------------------------------- */

struct img_log {
    uint64_t *h;    /* per draw after the checkpoint: hash of every context's framebuffer */
    int n, cap;
};

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t images_hash(gmf_runner *r, const struct dbg_capture *c)
{
    uint64_t h = 0xcbf29ce484222325ull;
    uint32_t seen[16];
    int n_seen = 0;
    for (int d = 0; d < c->n_draws; d++) {
        uint32_t ctx = c->draws[d].ctx_id;
        bool dup = false;
        for (int i = 0; i < n_seen; i++)
            dup |= seen[i] == ctx;
        if (dup || n_seen == 16)
            continue;
        seen[n_seen++] = ctx;
        uint8_t *rgba = NULL;
        int w = 0, hh = 0;
        if (gmf_read_default(r, ctx, &rgba, &w, &hh) == 0 && rgba) {
            h = fnv(h, rgba, (size_t)w * hh * 4);
            free(rgba);
        }
        float *depth = NULL;
        if (gmf_read_depth(r, ctx, &depth, &w, &hh) == 0 && depth) {
            h = fnv(h, (const uint8_t *)depth, (size_t)w * hh * sizeof *depth);
            free(depth);
        }
        /* the draw framebuffer (an FBO's colour attachment 0 when one is bound) */
        if (gmf_read_color(r, ctx, 0, &rgba, &w, &hh) == 0 && rgba) {
            h = fnv(h, rgba, (size_t)w * hh * 4);
            free(rgba);
        }
    }
    return h;
}

static char *load_metadata(const char *path)
{
    char err[256];
    glcap_reader *rd = glcap_reader_open(path, NULL, err, sizeof err);
    char *md = NULL;
    if (!rd)
        return NULL;
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
    void *data;
    size_t size;
    if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &data, &size) == 0) {
        if ((md = malloc(size + 1))) {
            memcpy(md, data, size);
            md[size] = 0;
        }
        free(data);
    }
    glcap_reader_close(rd);
    return md;
}

/* mode 0: from the start; 1: also take a checkpoint before record `at`; 2: start from *ck. */
static int model_run(const struct dbg_capture *c, const char *md, const gmf_surface_desc *surf, int n_surf, int mode,
                     uint64_t at, gmf_checkpoint **ck, struct img_log *log, gmf_totals *tot)
{
    char err[256];
    gmf_config cfg = { .metadata_json = md, .surfaces = surf, .n_surfaces = n_surf, .timing = GMF_TIMING_ON };
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    if (!r || gmf_feed_initial_state(r, c->initial) != 0) {
        fprintf(stderr, "test_dap_ckpt: runner: %s\n", err);
        gmf_destroy(r);
        return -1;
    }
    if (mode == 2)
        gmf_set_programs_only(r, true);
    struct glr_stream s;
    struct glr_call call;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    bool logging = false;
    while (glr_stream_next(&s, &call) == 1) {
        uint64_t rec = s.index - 1;
        if (rec == at) {
            if (mode == 1) {
                const char *why;
                *ck = gmf_checkpoint_take(r, NULL, &why);
                if (!*ck)
                    fprintf(stderr, "test_dap_ckpt: no checkpoint: %s\n", why);
            } else if (mode == 2) {
                gmf_set_programs_only(r, false);
                if (gmf_checkpoint_install(r, *ck) != 0) {
                    gmf_destroy(r);
                    return -1;
                }
            }
            logging = true;
        }
        gmf_event ev;
        if (gmf_feed(r, &call, rec, &ev) == GMF_ERROR) {
            gmf_destroy(r);
            return -1;
        }
        if (logging && ev.kind == GMF_EV_DRAW) {
            if (log->n == log->cap) {
                log->cap = log->cap ? 2 * log->cap : 64;
                log->h = realloc(log->h, (size_t)log->cap * sizeof *log->h);
            }
            log->h[log->n++] = images_hash(r, c);
        }
    }
    log->h = realloc(log->h, (size_t)(log->n + 1) * sizeof *log->h);
    log->h[log->n++] = images_hash(r, c);
    gmf_get_totals(r, tot);
    gmf_destroy(r);
    return 0;
}

static void compare_model(const struct dbg_capture *c, const char *path)
{
    char *md = load_metadata(path);
    gmf_surface_desc surf[16];
    int n_surf = 0;
    struct glr_stream s;
    struct glr_call call;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    while (glr_stream_next(&s, &call) == 1 && n_surf < 16) {
        if (call.cmd != GLR_PSEUDO_MAKE_CURRENT || !call.ctx_id || !call.args[0] || !call.args[1])
            continue;
        bool known = false;
        for (int i = 0; i < n_surf; i++)
            known |= surf[i].ctx_id == call.ctx_id;
        if (!known)
            surf[n_surf++] = (gmf_surface_desc){ call.ctx_id, (int)call.args[0], (int)call.args[1], false };
    }
    uint64_t at = c->draws[c->n_draws * 2 / 3].record;
    gmf_checkpoint *ck = NULL;
    struct img_log l0 = { 0 }, l1 = { 0 }, l2 = { 0 };
    gmf_totals t0, t1, t2;
    int rc = model_run(c, md, surf, n_surf, 0, at, &ck, &l0, &t0);
    rc |= model_run(c, md, surf, n_surf, 1, at, &ck, &l1, &t1);
    CHECK(rc == 0 && ck, "model: runs from the start failed or no checkpoint");
    if (rc == 0 && ck) {
        rc = model_run(c, md, surf, n_surf, 2, at, &ck, &l2, &t2);
        CHECK(rc == 0, "model: the run from the checkpoint failed");
        CHECK(l0.n == l2.n && l0.n == l1.n, "model: %d vs %d draws after the checkpoint", l0.n, l2.n);
        int same = 0;
        for (int i = 0; i < l0.n && i < l2.n; i++) {
            CHECK(l0.h[i] == l2.h[i] && l0.h[i] == l1.h[i], "model: images differ after draw %d of the rest", i);
            same += l0.h[i] == l2.h[i];
        }
        CHECK(t0.draws == t2.draws && t0.fs_lanes == t2.fs_lanes && t0.fragments_passed == t2.fragments_passed &&
                  t0.primitives == t2.primitives && t0.vs_invocations == t2.vs_invocations && t0.fs_warps == t2.fs_warps,
              "model: totals differ (draws %llu/%llu, fragments %llu/%llu)", (unsigned long long)t0.draws,
              (unsigned long long)t2.draws, (unsigned long long)t0.fragments_passed,
              (unsigned long long)t2.fragments_passed);
        CHECK(t0.cycles == t2.cycles && t0.cycles == t1.cycles, "model: timing model cycles %llu vs %llu",
              (unsigned long long)t0.cycles, (unsigned long long)t2.cycles);
        printf("  model: from the checkpoint before record %llu (of %llu): %d/%d images equal after each later draw "
               "and at the end; %llu cycles, %llu fragments both ways; checkpoint %.1f MiB\n",
               (unsigned long long)at, (unsigned long long)c->n_records, same, l0.n, (unsigned long long)t2.cycles,
               (unsigned long long)t2.fragments_passed, (double)gmf_checkpoint_bytes(ck) / (1 << 20));
    }
    gmf_checkpoint_free(ck);
    free(l0.h);
    free(l1.h);
    free(l2.h);
    free(md);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_dap_ckpt CAPTURE.glcap\n");
        return 2;
    }
    char err[256];
    struct dbg_capture *c = dbg_capture_open(argv[1], err, sizeof err);
    if (!c) {
        fprintf(stderr, "test_dap_ckpt: %s\n", err);
        return 1;
    }
    if (c->n_draws < 3) {
        fprintf(stderr, "test_dap_ckpt: %d draws: too few to compare\n", c->n_draws);
        dbg_capture_close(c);
        return 77;
    }
    /* a: the caller's budget (the default when unset); b: none */
    const char *budget = getenv("GLREPLAY_DAP_CHECKPOINT_MIB");
    char *keep = budget ? strdup(budget) : NULL;
    struct dbg_runner *a = dbg_runner_create(c, err, sizeof err);
    setenv("GLREPLAY_DAP_CHECKPOINT_MIB", "0", 1);
    struct dbg_runner *b = a ? dbg_runner_create(c, err, sizeof err) : NULL;
    if (keep)
        setenv("GLREPLAY_DAP_CHECKPOINT_MIB", keep, 1);
    else
        unsetenv("GLREPLAY_DAP_CHECKPOINT_MIB");
    free(keep);
    if (!a || !b || !a->ckpts || b->ckpts) {
        fprintf(stderr, "test_dap_ckpt: runners: %s\n", err);
        return 1;
    }
    dbg_runner_set_spares(a, false);
    dbg_runner_set_spares(b, false);

    /* 1. A pass over the whole frame: a breakpoint that never stops, in the last draw's shader. */
    int sh = -1;
    for (int d = c->n_draws - 1; d >= 0 && sh < 0; d--)
        sh = dbg_capture_draw_shader(c, d, GM_STAGE_FRAGMENT);
    if (sh < 0) {
        fprintf(stderr, "test_dap_ckpt: no draw with a known fragment shader\n");
        return 77;
    }
    sh++;   /* index -> id */
    struct dbg_bp never = { .id = 1, .shader = sh, .line = 1, .hit_op = DBG_HIT_EQ, .hit_n = 1ull << 53 };
    struct dbg_pass_req req = { .bps = &never, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1 };
    struct dbg_pass_res res;
    dbg_engine_run(a, &req, &res);
    dbg_pass_res_release(&res);
    struct dbg_ckpts *s = a->ckpts;
    printf("test_dap_ckpt: %s: %d draws, %d checkpoints kept (%.1f MiB)\n", argv[1], c->n_draws, s->n,
           (double)dbg_ckpts_bytes(s) / (1 << 20));
    /* A line with arrivals between two checkpoints, as late as possible. */
    int bs = -1, bl = -1, k = -1;
    uint64_t lo = 0, inc = 0;
    for (int i = s->n - 1; i >= 1 && bs < 0; i--)
        for (int r = 0; r < s->c[i].lines.n_rows; r++)
            for (int l = 1; l < s->c[i].lines.rows[r].n; l++) {
                uint64_t h1 = dbg_line_hits_get(&s->c[i].lines, r, l), h0 = dbg_line_hits_get(&s->c[i - 1].lines, r, l);
                if (h1 > h0 && h1 - h0 > inc) {
                    bs = r;
                    bl = l;
                    lo = h0;
                    inc = h1 - h0;
                    k = i - 1;
                }
            }
    if (bs < 0) {
        fprintf(stderr, "test_dap_ckpt: no line hit between two checkpoints\n");
        return 77;
    }
    uint64_t n = lo + inc / 2 + 1;
    printf("  breakpoint: shader %d line %d, hit %llu (checkpoint before draw %d has %llu, the next %llu)\n", bs, bl,
           (unsigned long long)n, s->c[k].draw, (unsigned long long)lo, (unsigned long long)(lo + inc));

    /* 2. Passes from a checkpoint vs from the start. */
    struct dbg_bp bp = { .id = 2, .shader = bs, .line = bl, .hit_op = DBG_HIT_EQ, .hit_n = n };
    req = (struct dbg_pass_req){ .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1 };
    struct dbg_pass_res stop;
    compare_pass("hit N", a, b, &req, &stop);
    CHECK(stop.status == DBG_PASS_STOPPED && stop.hit == n, "hit N: no stop at hit %llu", (unsigned long long)n);
    if (stop.status == DBG_PASS_STOPPED && stop.snap) {
        enum dbg_step st[2] = { DBG_STEP_NEXT, DBG_STEP_NEXT };
        struct dbg_pass_req step = { .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1,
                                     .replay = true, .key = stop.key, .steps = st, .n_steps = 2 };
        struct dbg_pass_res stepped;
        compare_pass("replay + 2 x next", a, b, &step, &stepped);
        /* a step back from there (or from the stop, when the lane ended) */
        bool at_step = stepped.status == DBG_PASS_STOPPED;
        struct dbg_pass_req back = { .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1,
                                     .replay = true, .key = at_step ? stepped.key : stop.key, .back = true,
                                     .back_depth = at_step ? stepped.depth : stop.depth };
        struct dbg_pass_res backed;
        compare_pass("step back", a, b, &back, &backed);
        CHECK(!at_step || backed.status == DBG_PASS_STOPPED, "step back: no earlier statement after two steps");
        dbg_pass_res_release(&stepped);
        dbg_pass_res_release(&backed);
        /* A new pass that takes the first hit after the stop's position (a continue whose
         * breakpoints changed so that the parked pass cannot go on): every hit before the
         * position is skipped, so it may start at the last checkpoint before the position. */
        struct dbg_bp next_bp = { .id = 4, .shader = bs, .line = bl };
        struct dbg_pass_req after = { .bps = &next_bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1,
                                      .have_after = true, .after_seq = stop.seq, .after_lane = stop.key.lane };
        compare_pass("new pass after the stop's position", a, b, &after, NULL);
        const sh_header *h = sh_snapshot_header(stop.snap);
        if (stop.key.stage == GM_STAGE_FRAGMENT) {
            struct dbg_bp any = { .id = 3, .shader = bs, .line = bl };
            struct dbg_pass_req px = { .bps = &any, .n_bps = 1, .only_draw = stop.key.draw,
                                       .only_x = h->lane_x[stop.key.lane], .only_y = h->lane_y[stop.key.lane] };
            compare_pass("debug this pixel", a, b, &px, NULL);
        }
    }
    dbg_pass_res_release(&stop);
    /* A continue from a stop before the checkpoint's draw to hit N: b resumes its parked pass, a
     * starts at the checkpoint (past the parked draw). */
    struct dbg_bp first = bp;
    first.hit_n = 1;
    req.bps = &first;
    struct dbg_pass_res first_a, first_b;
    drop_suspended(a);
    drop_suspended(b);
    dbg_engine_run(a, &req, &first_a);
    dbg_engine_run(b, &req, &first_b);
    if (first_a.status == DBG_PASS_STOPPED && first_a.key.draw < s->c[k].draw) {
        struct dbg_pass_req cont = { .bps = &bp, .n_bps = 1, .only_draw = -1, .only_x = -1, .only_y = -1,
                                     .have_after = true, .after_seq = first_a.seq, .after_lane = first_a.key.lane };
        compare_pass_opt("continue from hit 1", a, b, &cont, NULL, true);
    } else {
        printf("  (hit 1 is in draw %d: no continue past a checkpoint to compare)\n", first_a.key.draw);
    }
    dbg_pass_res_release(&first_a);
    dbg_pass_res_release(&first_b);
    drop_suspended(a);
    drop_suspended(b);
    dbg_runner_destroy(a);
    dbg_runner_destroy(b);

    /* 3. The model resumed from a checkpoint: images after every draw, totals. */
    compare_model(c, argv[1]);
    dbg_capture_close(c);
    if (failures) {
        fprintf(stderr, "test_dap_ckpt: %d checks failed\n", failures);
        return 1;
    }
    printf("test_dap_ckpt: all equal\n");
    return 0;
}
