/* The debugger's view of a frame runner: something that executes the draws of a capture in the GPU
 * model and calls an observer before every issued warp instruction.
 *
 * INTEGRATION POINT: the frame runner of gpu_model/frame/ (gmf_frame.h) is the implementation;
 * dbg_runner_frame.c adapts it and is built when meson finds the frame runner's library
 * (GLR_HAVE_FRAME_RUNNER). Without it dbg_runner_create returns a runner whose passes fail with
 * a clear message: stops are never made up. */
#ifndef GLR_DAP_RUNNER_H
#define GLR_DAP_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gpu_model/gpu_model.h"

struct dbg_capture;

/* Where an observed instruction runs. */
struct dbg_resident_warp;

struct dbg_observe_info {
    int draw;              /* index among the frame's draws */
    uint64_t event;        /* command stream record of the draw */
    int stage;             /* gm_stage */
    uint32_t program;      /* GL program name */
    int shader;            /* dbg_capture shader id of the stage's text (0: unknown) */
    const gm_program *prog;
    uint64_t warp;         /* warp serial in this draw and stage */
    /* Per lane: FS window pixel x, y; VS vertex id, instance id (NULL when unknown). */
    const int32_t *lane_x, *lane_y;
    /* FS: the pipeline's warp (gpu_model/pipeline/gm_pipeline.h): front facing, primitive id,
     * sample, point coordinates of the lanes (NULL when unknown or not a fragment warp). */
    const struct gm_pipe_fs_warp *fs;
    /* Compute: the dispatch's workgroup counts (0,0,0: unknown, an indirect dispatch). */
    uint32_t groups[3];
    /* Optional, valid during the observer call: the other warps resident in the model now (the
     * timing model keeps many in flight), at most max; returns the count. */
    int (*resident)(void *resident_ctx, struct dbg_resident_warp *out, int max);
    void *resident_ctx;
    /* Optional, valid during the observer call: whether a fetch through texture unit `unit` finds
     * a complete texture now: 1 incomplete (*name its texture, 0 none bound), 0 complete, -1
     * unknown (gmf_unit_incomplete). */
    int (*texture_incomplete)(void *ctx, unsigned unit, int dim, int arrayed, int ms, uint32_t *name);
    void *texture_ctx;
    /* The API state at the draw as JSON (sm_query_json), malloc'd; may be NULL. */
    char *(*state_json)(void *state_ctx);
    void *state_ctx;
};

/* A resident warp: named like an observed one; `issue` describes its next instruction (pc, the
 * line of its first active lane, active mask). `w` is readable during the observer call only. */
struct dbg_resident_warp {
    struct dbg_observe_info info;
    gm_warp *w;
    gm_issue issue;
};

/* What the observer asks of the runner. */
enum dbg_observe_ret {
    DBG_OBSERVE_GO = 0,       /* go on */
    DBG_OBSERVE_END = 1,      /* nothing later in the frame can matter: end the run now */
    DBG_OBSERVE_SUSPEND = 2,  /* park the model right here: run()/resume() return DBG_RUN_SUSPENDED and
                               * a later resume() goes on from this very instruction */
};
typedef int (*dbg_observe_fn)(void *ctx, const struct dbg_observe_info *info, gm_warp *w,
                              const gm_issue *issue);

enum { DBG_RUN_ERROR = -1, DBG_RUN_END = 0, DBG_RUN_SUSPENDED = 1 };

/* Hooks around each record a pass feeds the model, so it can leave records out and hand the
 * model images from elsewhere (debug this pixel: the earlier passes from the driver,
 * debugger/pixel/pixel_pass_feed.h). before: 1 leave this record's draws out, 0 feed it, -1 the
 * hooks cannot go on (the run starts again from the frame's start without them); after: after a
 * record left out, 0 or -1 as before. restart: a run starts at the frame's first record. Records
 * after `until` are not fed while the hooks are on (nothing after the stop's draw matters). The
 * frame runner (dbg_runner_frame.c) honours them in passes from the frame's start (not from a
 * checkpoint, not in spares). */
typedef struct gmf_runner gmf_runner;
struct gmf_event;
struct glr_call;
struct dbg_record_hooks {
    int (*before)(void *ctx, gmf_runner *m, const struct glr_call *c, uint64_t record);
    int (*after)(void *ctx, gmf_runner *m, const struct glr_call *c, uint64_t record, const struct gmf_event *ev);
    void (*restart)(void *ctx);
    void *ctx;
    uint64_t until;
    bool gave_up;          /* set by the runner when a run went on without them */
};

struct dbg_runner {
    const char *name;      /* "frame" or "shader-only" */
    void *impl;
    /* Executes the frame (up to the limit, below) once: DBG_RUN_END, DBG_RUN_SUSPENDED, or
     * DBG_RUN_ERROR with a message. A suspended run must be resumed or abandoned before the next. */
    int (*run)(void *impl, dbg_observe_fn fn, void *ctx, char *err, size_t err_size);
    void (*destroy)(void *impl);
    /* Optional (NULL: the runner cannot suspend and treats DBG_OBSERVE_SUSPEND as END). */
    int (*resume)(void *impl, char *err, size_t err_size);  /* same fn/ctx; returns as run() */
    void (*abandon)(void *impl);                             /* ends a suspended run */
    /* Optional: the next runs only need the draws that can run one of these shaders (dbg_capture
     * ids) and everything before them; n < 0: the whole frame. */
    void (*limit_to_shaders)(void *impl, const int *shader_ids, int n);
    bool timing;           /* run the timing model (see dbg_runner_set_timing) */
    bool spares;           /* prepare the next pass's run in the background (dbg_runner_set_spares) */
    const volatile sig_atomic_t *abort_flag;   /* dbg_runner_set_abort */
    void (*prepare)(void *impl);   /* optional: start preparing a spare now */
    /* Optional: what the last run()/resume() cost the model up to its stop (or the frame's end):
     * the records fed to it (the stop's included) and the draws it modelled to their end before
     * that (draws left out not counted). Timing-free, for tests and `glreplay debug --json`. */
    void (*pass_counts)(void *impl, uint64_t *records, uint64_t *draws);
    /* Optional: hooks for the next run() only, owned from here (dbg_runner_set_next_hooks). */
    void (*set_next_hooks)(void *impl, struct dbg_record_hooks *h, void (*free_hooks)(struct dbg_record_hooks *h));
    /* Optional: the draws the last run()/resume()'s run left out through record hooks so far, and
     * the draw of the checkpoint it started at (-1: the frame's start). */
    uint64_t (*pass_left_out)(void *impl, int *ckpt_draw);
    /* Optional: samples through the texture units of the warp a suspended pass is parked at, as its
     * shader would (evaluate's texture functions); only while the pass stays suspended, and only for
     * a snapshot of that draw and stage. 0, or -1 with a message, or -2 (DBG_EVAL_NOT_PARKED) with a
     * message when no pass is parked in that draw and stage (a pass to the stop would park one). */
    int (*sample_parked)(void *impl, int draw, int stage, const gm_sample_request *req, gm_texel_out *out,
                         char *err, size_t err_size);
    /* Optional hooks around each record a pass feeds the model (dbg_runner_set_record_hooks). */
    struct dbg_record_hooks *hooks;
    /* Per-draw checkpoints (dbg_ckpt.h), NULL: none. */
    struct dbg_ckpts *ckpts;
    /* The engine's state of a suspended pass (dbg_engine.c), freed with the runner. */
    void *suspended;
    void (*suspended_free)(void *suspended);
};

/* Debug passes run the model through its timing model (the same interleaved warp order as the
 * profiler and `glreplay model`) unless GLREPLAY_DEBUG_TIMING=0 or this turns it off (each warp
 * run to its end: same images, another deterministic order, faster for hits deep in a frame); set
 * before the first run. */
void dbg_runner_set_timing(struct dbg_runner *r, bool timing);

/* A runner may prepare the run of the next new pass in the background (created, fed and compiled
 * up to its first shader instruction), from its creation and after every pass: off unless
 * GLREPLAY_DAP_SPARES=1; a one-pass user (glreplay debug) turns it off. */
void dbg_runner_set_spares(struct dbg_runner *r, bool spares);

/* A flag that stops a frame run when it becomes nonzero (gmf_set_abort; the CLI's --timeout and
 * Ctrl-C): the pass ends as at the frame's end. NULL: none. */
void dbg_runner_set_abort(struct dbg_runner *r, const volatile sig_atomic_t *flag);

/* The runner for a capture. NULL with a message. */
struct dbg_runner *dbg_runner_create(const struct dbg_capture *cap, char *err, size_t err_size);
void dbg_runner_destroy(struct dbg_runner *r);
/* r->pass_counts, or false when the runner does not count. */
bool dbg_runner_pass_counts(const struct dbg_runner *r, uint64_t *records, uint64_t *draws);

/* Record hooks for the next fresh run only, for a runner that serves later passes too (debug this
 * pixel over DAP: its own pass takes the earlier passes from the driver, the passes after it run
 * normally). The runner owns h from here and calls free_hooks(h) when the run that took it ends or
 * is dropped; a stop parks that run in between, and steps that resume it keep using h. A run that
 * starts at a checkpoint ignores h (and frees it at its end). Hooks not taken by the next run() are
 * freed by the next call (h NULL: just that) or by dbg_runner_destroy. false: this runner takes no
 * hooks (h is not taken: the caller frees it). */
bool dbg_runner_set_next_hooks(struct dbg_runner *r, struct dbg_record_hooks *h,
                               void (*free_hooks)(struct dbg_record_hooks *h));
/* The draws the last pass's run left out of the model through record hooks (their images came from
 * the hooks) up to its stop: the pass's instruction counts (dbg_pass_res.seq) then cover only the
 * draws it modelled. 0: none, or the runner does not say. ckpt_draw (optional): the draw of the
 * checkpoint that run started at (dbg_ckpt.h; its draws before came from an earlier run), or -1. */
uint64_t dbg_runner_pass_left_out(const struct dbg_runner *r, int *ckpt_draw);

#endif
