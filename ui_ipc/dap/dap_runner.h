/* The debugger's view of a frame runner: something that executes the draws of a capture in the GPU
 * model and calls an observer before every issued warp instruction.
 *
 * INTEGRATION POINT: the frame runner of gpu_model/frame/ (gmf_frame.h) is the implementation;
 * dap_runner_frame.c adapts it and is built when meson finds the frame runner's library
 * (GLR_HAVE_FRAME_RUNNER). Without it dap_runner_create returns a runner whose passes fail with
 * a clear message: stops are never made up. */
#ifndef GLR_DAP_RUNNER_H
#define GLR_DAP_RUNNER_H

#include <stddef.h>
#include <stdint.h>
#include "gpu_model/gpu_model.h"

struct dap_capture;

/* Where an observed instruction runs. */
struct dap_observe_info {
    int draw;              /* index among the frame's draws */
    uint64_t event;        /* command stream record of the draw */
    int stage;             /* gm_stage */
    uint32_t program;      /* GL program name */
    int shader;            /* dap_capture shader id of the stage's text (0: unknown) */
    const gm_program *prog;
    uint64_t warp;         /* warp serial in this draw and stage */
    /* Per lane: FS window pixel x, y; VS vertex id, instance id (NULL when unknown). */
    const int32_t *lane_x, *lane_y;
    /* The API state at the draw as JSON (sm_query_json), malloc'd; may be NULL. */
    char *(*state_json)(void *state_ctx);
    void *state_ctx;
};

/* Return value ignored for now: the debugger never pauses the model (snapshots are taken inside
 * the callback and the frame always runs to its end). */
typedef int (*dap_observe_fn)(void *ctx, const struct dap_observe_info *info, gm_warp *w,
                              const gm_issue *issue);

struct dap_runner {
    const char *name;      /* "frame" or "shader-only" */
    void *impl;
    /* Executes the whole frame once. 0, or -1 with a message. */
    int (*run)(void *impl, dap_observe_fn fn, void *ctx, char *err, size_t err_size);
    void (*destroy)(void *impl);
};

/* The runner for a capture. NULL with a message. */
struct dap_runner *dap_runner_create(const struct dap_capture *cap, char *err, size_t err_size);
void dap_runner_destroy(struct dap_runner *r);

#endif
