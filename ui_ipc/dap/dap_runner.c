/* Picks the runner: the frame runner of gpu_model/frame/ when this build has it. Without it the
 * debugger still serves sources, breakpoints (verified against the model's compile), state and
 * events, but cannot stop: a pass reports that no runner exists (never a made-up stop). */
#include <stdio.h>
#include <stdlib.h>
#include "ui_ipc/dap/dap_runner.h"

#ifdef GLR_HAVE_FRAME_RUNNER
struct dap_runner *dap_runner_frame_create(const struct dap_capture *cap, char *err, size_t err_size);
#else

static int no_run(void *impl, dap_observe_fn fn, void *ctx, char *err, size_t err_size)
{
    (void)impl;
    (void)fn;
    (void)ctx;
    snprintf(err, err_size, "this glreplay was built without the GPU model's frame runner (gpu_model/frame): "
                            "breakpoints cannot be reached");
    return -1;
}

static void no_destroy(void *impl)
{
    (void)impl;
}
#endif

struct dap_runner *dap_runner_create(const struct dap_capture *cap, char *err, size_t err_size)
{
#ifdef GLR_HAVE_FRAME_RUNNER
    return dap_runner_frame_create(cap, err, err_size);
#else
    (void)cap;
    (void)err;
    (void)err_size;
    static struct dap_runner none = { "none", NULL, no_run, no_destroy };
    return &none;
#endif
}

void dap_runner_destroy(struct dap_runner *r)
{
    if (!r || !r->impl)
        return;
    r->destroy(r->impl);
    free(r);
}
