/* Picks the runner: the frame runner of gpu_model/frame/ when this build has it. Without it the
 * debugger still serves sources, breakpoints (verified against the model's compile), state and
 * events, but cannot stop: a pass reports that no runner exists (never a made-up stop). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_runner.h"

#ifdef GLR_HAVE_FRAME_RUNNER
struct dbg_runner *dbg_runner_frame_create(const struct dbg_capture *cap, char *err, size_t err_size);
#else

static int no_run(void *impl, dbg_observe_fn fn, void *ctx, char *err, size_t err_size)
{
    (void)impl;
    (void)fn;
    (void)ctx;
    snprintf(err, err_size, "this glreplay was built without the GPU model's frame runner (gpu_model/frame): "
                            "breakpoints cannot be reached");
    return DBG_RUN_ERROR;
}

static void no_destroy(void *impl)
{
    (void)impl;
}
#endif

struct dbg_runner *dbg_runner_create(const struct dbg_capture *cap, char *err, size_t err_size)
{
#ifdef GLR_HAVE_FRAME_RUNNER
    struct dbg_runner *r = dbg_runner_frame_create(cap, err, err_size);
    if (r) {
        const char *t = getenv("GLREPLAY_DEBUG_TIMING");
        /* One schedule for the debugger, the profiler and `glreplay model`: the timing model's
         * (hit N is the N-th in the GPU-like interleaved order); GLREPLAY_DEBUG_TIMING=0 runs each
         * warp to its end instead (also deterministic, faster for hits deep in a frame). */
        r->timing = !(t && !strcmp(t, "0"));
        /* GLREPLAY_DAP_SPARES=1: prepare each next pass's run in the background. Off by default:
         * on the samples it saved nothing measurable (glslang takes ~15 ms a program there) and
         * it compiles on a second thread while a pass may compile too. */
        const char *sp = getenv("GLREPLAY_DAP_SPARES");
        r->spares = sp && !strcmp(sp, "1");
        if (r->spares && r->prepare)
            r->prepare(r->impl);
    }
    return r;
#else
    (void)cap;
    (void)err;
    (void)err_size;
    static struct dbg_runner none = { .name = "none", .run = no_run, .destroy = no_destroy };
    return &none;
#endif
}

void dbg_runner_set_abort(struct dbg_runner *r, const volatile sig_atomic_t *flag)
{
    if (r)
        r->abort_flag = flag;
}

void dbg_runner_set_timing(struct dbg_runner *r, bool timing)
{
    if (r && r->impl)
        r->timing = timing;
}

void dbg_runner_set_spares(struct dbg_runner *r, bool spares)
{
    if (r && r->impl)
        r->spares = spares;
}

void dbg_runner_destroy(struct dbg_runner *r)
{
    if (!r || !r->impl)
        return;
    /* The model thread lets go of a suspended pass before the engine's state of it is freed. */
    r->destroy(r->impl);
    if (r->suspended && r->suspended_free)
        r->suspended_free(r->suspended);
    free(r);
}

bool dbg_runner_pass_counts(const struct dbg_runner *r, uint64_t *records, uint64_t *draws)
{
    if (!r || !r->impl || !r->pass_counts)
        return false;
    r->pass_counts(r->impl, records, draws);
    return true;
}

bool dbg_runner_set_next_hooks(struct dbg_runner *r, struct dbg_record_hooks *h,
                               void (*free_hooks)(struct dbg_record_hooks *h))
{
    if (!r || !r->impl || !r->set_next_hooks)
        return false;
    r->set_next_hooks(r->impl, h, free_hooks);
    return true;
}

uint64_t dbg_runner_pass_left_out(const struct dbg_runner *r, int *ckpt_draw)
{
    int d = -1;
    uint64_t n = r && r->impl && r->pass_left_out ? r->pass_left_out(r->impl, &d) : 0;
    if (ckpt_draw)
        *ckpt_draw = d;
    return n;
}
