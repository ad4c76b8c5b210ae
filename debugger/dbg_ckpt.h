/* Per-draw checkpoints of a frame's passes (issue 17 §2, issue 15 §5): a pass that must start
 * afresh (a new hit condition, a breakpoint behind the parked position, debug-this-pixel, a step
 * back through the model) starts at the latest checkpoint before the draw where it can first stop,
 * instead of at the frame's first draw.
 *
 * A checkpoint, taken by the model thread just before a draw's record, holds the model's state
 * (dbg_runner_frame.c: gpu_model/frame/gmf_checkpoint.h, the timing model included) and the
 * engine's (dbg_engine.c): the number of instructions observed (every stop's `seq` counts from
 * the frame's first) and the arrivals at every line of every shader (dbg_rebind.h), from which a
 * new pass's breakpoint counts at that draw follow. A pass may start there only when nothing
 * before the draw could have changed what it finds (dbg_ckpt_pick); it then reaches the very stop,
 * with the same hit numbers, instruction index, variables and images, as a pass from the start.
 *
 * Memory: GLREPLAY_DAP_CHECKPOINT_MIB (default 256; 0 turns checkpoints off). Images unchanged
 * since the previous checkpoint are shared with it. Over the budget, the checkpoint nearest its
 * predecessor (in draws) is dropped: a dropped checkpoint only makes a pass start earlier. A frame
 * one of whose checkpoints alone needs over half the budget keeps none (each would push the
 * others out, and copying its images at every draw would cost more than it saves). */
#ifndef GLR_DAP_CKPT_H
#define GLR_DAP_CKPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "debugger/dbg_engine.h"
#include "debugger/dbg_rebind.h"

struct dbg_ckpt {
    uint64_t record;          /* the draw's record: the checkpoint is the state just before it */
    int draw;                 /* that draw's index */
    uint64_t instructions;    /* the engine's observed instructions before it */
    struct dbg_line_hits lines;
    void *model;              /* the runner's state (freed with the store's model_free) */
};

struct dbg_ckpts {
    size_t budget;            /* bytes; 0: off */
    bool timing;              /* the timing setting the checkpoints were taken with */
    struct dbg_ckpt *c;       /* by record */
    int n, cap;
    void (*model_free)(void *model);
    size_t (*model_bytes)(const void *model);
    /* Set by the engine before a run: the pass's state at a draw boundary (false: this pass's
     * counts are not those of a pass from the frame's start, take nothing). */
    bool (*engine_take)(void *observer_ctx, uint64_t *instructions, struct dbg_line_hits *lines);
    uint64_t limit_record;    /* the runner's current limit (records after it are not fed) */
    int start;                /* the next run starts at c[start]; -1: at the frame's start */
    bool too_big;             /* one checkpoint took over half the budget: no more are taken */
    uint64_t taken, dropped, started;   /* for GLREPLAY_DAP_PROFILE */
};

/* A store with the budget from the environment; NULL when off or out of memory. */
struct dbg_ckpts *dbg_ckpts_new(void (*model_free)(void *), size_t (*model_bytes)(const void *));
void dbg_ckpts_free(struct dbg_ckpts *s);
/* Drops every checkpoint (e.g. when the timing setting changes). */
void dbg_ckpts_clear(struct dbg_ckpts *s);
bool dbg_ckpts_has(const struct dbg_ckpts *s, uint64_t record);
/* Adds a checkpoint (the store owns it, and c->lines), then keeps the store within its budget. */
void dbg_ckpts_add(struct dbg_ckpts *s, const struct dbg_ckpt *c);
size_t dbg_ckpts_bytes(const struct dbg_ckpts *s);

/* The latest checkpoint a new pass for req may start from, or -1. */
int dbg_ckpt_pick(const struct dbg_ckpts *s, const struct dbg_pass_req *req);
/* Breakpoint id's count at checkpoint c for a pass dbg_ckpt_pick chose c for. */
uint64_t dbg_ckpt_id_hits(const struct dbg_ckpt *c, const struct dbg_pass_req *req, int id);

/* A one-pass user (glreplay debug): keep no checkpoints (they would only cost). */
struct dbg_runner;
void dbg_runner_no_checkpoints(struct dbg_runner *r);

bool dbg_line_hits_copy(struct dbg_line_hits *dst, const struct dbg_line_hits *src);
size_t dbg_line_hits_bytes(const struct dbg_line_hits *t);

#endif
