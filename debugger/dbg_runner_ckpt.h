/* The frame runner's side of per-draw checkpoints (dbg_runner_ckpt.c; the store: dbg_ckpt.h). */
#ifndef GLR_DAP_RUNNER_CKPT_H
#define GLR_DAP_RUNNER_CKPT_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model/frame/gmf_frame.h"
#include "debugger/dbg_ckpt.h"

struct dbg_capture;

/* A store whose checkpoints hold gmf_checkpoint states (NULL when off). */
struct dbg_ckpts *dbg_runner_ckpts_new(void);
/* Before feeding `record`: when it is a draw's record without a checkpoint and the pass can give
 * its state (the store's engine_take with observer_ctx), keeps one. next_draw: the caller's
 * cursor into cap->draws (0 at the run's start). */
void dbg_runner_ckpt_offer(struct dbg_ckpts *s, const struct dbg_capture *cap, int *next_draw, uint64_t record,
                           gmf_runner *r, void *observer_ctx, bool timing, bool profile);
/* Puts checkpoint c's model state into r (fed up to c->record in programs-only mode). 0 or -1. */
int dbg_runner_ckpt_install(gmf_runner *r, const struct dbg_ckpt *c);

#endif
