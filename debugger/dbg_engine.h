/* The debugger's passes over a frame: one pass runs the frame in the GPU model with an observer
 * that counts breakpoint hits (one hit = one lane reaching a line), evaluates conditions, prints
 * logpoints, and copies the stopped warp into a shadow snapshot. Every stop (breakpoint, step,
 * pause) keeps its pass suspended in the runner, so the next continue, next, stepIn or stepOut
 * from that stop goes on from there; a step from anywhere else re-runs the frame to the stop
 * (deterministic order) and then advances the focused lane's warp (see dbg_engine.c). */
#ifndef GLR_DAP_ENGINE_H
#define GLR_DAP_ENGINE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include "shadow/shadow.h"
#include "debugger/dbg_exception.h"
#include "debugger/dbg_runner.h"

enum dbg_hit_op { DBG_HIT_ANY, DBG_HIT_EQ, DBG_HIT_GE, DBG_HIT_GT, DBG_HIT_LE, DBG_HIT_LT, DBG_HIT_MOD };

/* One bound breakpoint location (a DAP breakpoint may bind to several shaders). */
struct dbg_bp {
    int id;                /* DAP breakpoint id: hits are counted per id */
    int shader;            /* dbg_capture shader id */
    int line;              /* line in that shader's text */
    enum dbg_hit_op hit_op;
    uint64_t hit_n;
    const char *condition; /* NULL: none */
    const char *log_message; /* logpoint: prints, never stops */
    int pc1;               /* instruction breakpoint: pc + 1 in the shader (every issue of it
                            * counts each active lane); 0: a line breakpoint */
};

/* Parses "N", "== N", ">= N", "> N", "% N" (spaces optional). false if malformed. */
bool dbg_parse_hit_condition(const char *text, enum dbg_hit_op *op, uint64_t *n);

/* Identifies an issued instruction of a warp in the deterministic order of a pass. */
struct dbg_stop_key {
    int draw, stage;
    uint64_t warp, issue;
    int lane;
};

/* A value set by the client (setVariable): at the instruction `key` (draw, stage, warp, issue)
 * the pass writes `n` words at word `offset` of the lane's variable (name, function, class as the
 * snapshot names it) before the instruction runs (dap_setvar.c). */
struct dbg_override {
    struct dbg_stop_key key;   /* key.lane: the lane */
    char name[64], function[128];
    int klass;                 /* sh_var_class */
    int offset, n;
    uint32_t words[16];
};

enum dbg_step { DBG_STEP_NEXT, DBG_STEP_IN, DBG_STEP_OUT,
                DBG_STEP_INSTRUCTION /* granularity "instruction": the focused lane's next instruction */ };

struct dbg_pass_req {
    const struct dbg_bp *bps;
    int n_bps;
    /* Continue: stop at the first matching hit after this position (instruction index of the pass,
     * then lane), so that changed breakpoints still continue from where the view is. */
    bool have_after;
    uint64_t after_seq;
    int after_lane;
    bool replay;                 /* instead: go to `key`, then do `steps` */
    struct dbg_stop_key key;
    const enum dbg_step *steps;
    int n_steps;
    bool emit_logs;
    int log_limit;               /* logpoint lines per logpoint and pass */
    atomic_int *pause;           /* set by the client: stop at the next instruction */
    void (*log)(void *user, const char *text);
    void *log_user;
    /* Hits only count in this draw (-1: all) and, for fragments, at this pixel (x < 0: all). */
    int only_draw;
    int only_x, only_y;
    /* only_x/only_y name a vertex instead (debug this vertex): count only vertex-shader lanes
     * whose gl_VertexID is only_x and gl_InstanceID only_y. */
    bool only_vertex;
    /* Step back, first half (dap_history.c): go to `key` (replay, no steps) following key.lane and
     * answer the start of the lane's previous statement at the same or a shallower call depth
     * (res.snap, res.key, res.seq; DBG_PASS_AT_START when there is none); the model parks at key. */
    bool back;
    int back_depth;              /* the call depth at key (dbg_pass_res.depth of that stop) */
    /* Reverse continue, first half: count hits and report the last matching one strictly before
     * this position (res.found, found_seq, found_lane); the pass ends at the position. */
    bool have_before;
    uint64_t before_seq;
    int before_lane;
    unsigned exceptions;         /* DBG_EXC_* filters (dbg_exception.h): stop where one happens */
    /* Optional: called for every counted hit of a logpoint (a breakpoint with log_message), with
     * a snapshot of the warp at it (glreplay/heatmap collects values this way). */
    void (*on_hit)(void *user, const struct dbg_observe_info *info, const sh_snapshot *snap, int lane);
    void *on_hit_user;
    const struct dbg_override *overrides;   /* setVariable values, applied where they were set */
    int n_overrides;
    /* Optional: record hooks for this pass's fresh run (dbg_runner_set_next_hooks, installed
     * under the lock that keeps passes of one runner apart, so another session's pass cannot take
     * them); owned by the runner from the call on: freed by it, taken or not (a request run
     * again must not name them again). */
    struct dbg_record_hooks *run_hooks;
    void (*run_hooks_free)(struct dbg_record_hooks *h);
};

/* Writes an override into the warp (dbg_override.c); false when the warp has no such per-lane
 * variable. */
bool dbg_override_apply(gm_warp *w, const struct dbg_override *o);

enum dbg_pass_status {
    DBG_PASS_STOPPED,        /* res.snap holds the stop */
    DBG_PASS_END,            /* the frame ended without a stop */
    DBG_PASS_LANE_FINISHED,  /* a step ran the focused lane to its end: no new position */
    DBG_PASS_ERROR,
    DBG_PASS_AT_START,       /* a step back from the lane's first statement: no earlier position */
};

struct dbg_pass_res {
    enum dbg_pass_status status;
    const char *reason;          /* "breakpoint", "step", "pause" */
    int bp_id;
    uint64_t hit;                /* the breakpoint's hit count at the stop */
    uint64_t seq;                /* instruction index of the stop in the pass */
    struct dbg_stop_key key;
    int depth;                   /* call depth of the warp at the stop (0: main) */
    sh_snapshot *snap;           /* owned by the caller */
    /* With the timing model: the other warps resident at the stop (every lane's variables), in
     * the model's SM/slot order; owned by the caller (dbg_pass_res_release). */
    sh_snapshot **others;
    int n_others;
    /* Per other warp: where a step of it replays to (its last observed instruction, lane = the
     * snapshot's focus); other_key_ok[i] false when unknown (a warp of an earlier draw). */
    struct dbg_stop_key *other_keys;
    bool *other_key_ok;
    uint64_t instructions;       /* warp instructions observed */
    struct dbg_exc_hit exc;      /* reason "exception": what happened, which lanes, where */
    uint64_t hits_seen;          /* hits counted (all breakpoints): the frame's total when it ended without a stop */
    bool resumed;                /* the pass went on from the parked model (no new run of the frame) */
    /* DBG_PASS_LANE_FINISHED: the model is parked where the lane ended (seq, key with lane -1), so
     * a continue from that position resumes the pass. */
    bool finished_parked;
    /* req.back: whether `next` / `stepIn` from the answered position reach the position stepped
     * back from (the session then steps forward without the model). */
    bool back_next, back_stepin;
    /* req.have_before */
    bool found;
    uint64_t found_seq;
    int found_lane;
    /* What the run that answered cost the model (dbg_runner_pass_counts, dbg_runner_pass_left_out),
     * read before another pass can run: counted false when the runner does not say. */
    bool counted;
    uint64_t model_records, model_draws, model_left_out;
    int model_ckpt_draw;
    char message[256];
};

int dbg_engine_run(struct dbg_runner *r, const struct dbg_pass_req *req, struct dbg_pass_res *res);
/* Drops what res still holds (snap, others). */
void dbg_pass_res_release(struct dbg_pass_res *res);

/* At most this many resident warps are copied beside the stopped one. */
#define DBG_MAX_OTHER_WARPS 128

#endif
