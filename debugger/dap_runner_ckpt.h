/* The frame runner's side of per-draw checkpoints (dap_runner_ckpt.c; the store: dap_ckpt.h). */
#ifndef GLR_DAP_RUNNER_CKPT_H
#define GLR_DAP_RUNNER_CKPT_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model/frame/gmf_frame.h"
#include "debugger/dap_ckpt.h"

struct dap_capture;

/* A store whose checkpoints hold gmf_checkpoint states (NULL when off). */
struct dap_ckpts *dap_runner_ckpts_new(void);
/* Before feeding `record`: when it is a draw's record without a checkpoint and the pass can give
 * its state (the store's engine_take with observer_ctx), keeps one. next_draw: the caller's
 * cursor into cap->draws (0 at the run's start). */
void dap_runner_ckpt_offer(struct dap_ckpts *s, const struct dap_capture *cap, int *next_draw, uint64_t record,
                           gmf_runner *r, void *observer_ctx, bool timing, bool profile);
/* Puts checkpoint c's model state into r (fed up to c->record in programs-only mode). 0 or -1. */
int dap_runner_ckpt_install(gmf_runner *r, const struct dap_ckpt *c);

#endif
