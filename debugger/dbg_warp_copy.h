/* Copies a live warp of the GPU model into an immutable shadow snapshot. */
#ifndef GLR_DAP_WARP_COPY_H
#define GLR_DAP_WARP_COPY_H

#include <stdint.h>
#include "gpu_model/gpu_model.h"
#include "shadow/shadow.h"
#include "debugger/dbg_runner.h"

struct dbg_copy_opts {
    int focus_lane;
    uint64_t hit;
    const char *pipeline_json;   /* may be NULL */
    const char *resources_json;  /* may be NULL */
};

/* The snapshot of w before `issue` executes (issue may be NULL when stopped elsewhere).
 * NULL when memory runs out. */
sh_snapshot *dbg_warp_snapshot(const struct dbg_observe_info *info, const gm_warp *w,
                               const gm_issue *issue, const struct dbg_copy_opts *o);

/* "draw 12 · FS · warp 3 · pixels (96..103, 40..43)" for a snapshot's header. */
void dbg_warp_title(const sh_header *h, uint32_t present, char *buf, size_t size);

/* The shadow-memory class of a program variable (locals, inputs, outputs, uniforms, built-ins). */
sh_var_class dbg_var_class(const gm_var_info *v);

#endif
