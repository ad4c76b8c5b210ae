/* A submitted warp's launch and first run-ahead done on another thread (gm_timing_pre.c).
 *
 * With texture run-ahead on and no issue observer, the model runs a side-effect-free warp at
 * its launch from its first instruction to its end (or TM_AHEAD_MAX entries) in one executor
 * call, recording every texture entry's cache lines (gm_timing_ahead.c). Nothing of that
 * depends on the schedule, so the caller may run it earlier, on a worker thread, between the
 * submission and the launch: the model then takes the finished trace at the launch (after the
 * caller's wait hook says it is done) and issues from it as from its own. Results, statistics
 * and schedule are those of running it at the launch. */
#ifndef GM_TIMING_PRE_H
#define GM_TIMING_PRE_H

#include "gm_timing.h"

typedef struct gm_timing_pre gm_timing_pre;

gm_timing_pre *gm_timing_pre_create(void);
void gm_timing_pre_destroy(gm_timing_pre *p);

/* Main thread, right after gm_timing_submit(t, ..., w, ...) succeeded: binds p to that warp,
 * to run with `env`, which must give what the submitted environment gives (same texels, no
 * side effects) and may be called from any thread. `owner` is passed to the wait hook. 0, or
 * -1 when the warp would not run ahead at its launch (texture run-ahead off, an issue
 * observer or an executor observer set): p is then not bound and the warp runs as usual.
 * The issue observer must stay unset until the warp launched. */
int gm_timing_pre_attach(gm_timing *t, gm_warp *w, gm_timing_pre *p, const gm_env *env,
                         void *owner);

/* Any one thread, once per attach, before the launch: runs the warp (it must not be touched
 * by anyone else meanwhile). */
void gm_timing_pre_run(gm_timing_pre *p);

/* Called by the model at a bound warp's launch, on the model's thread: returns when
 * gm_timing_pre_run(p) has finished (it ran on another thread, or the hook runs it now). */
typedef void (*gm_timing_pre_wait_fn)(void *ctx, void *owner);
void gm_timing_set_pre_wait(gm_timing *t, gm_timing_pre_wait_fn fn, void *ctx);

/* Unbinds every warp the model still holds (queued or resident) from its gm_timing_pre, after
 * waiting for each as at a launch: a caller that drops its flights (a failed draw) may then
 * reuse them. */
void gm_timing_pre_detach_all(gm_timing *t);

#endif
