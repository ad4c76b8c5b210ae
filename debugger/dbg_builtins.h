/* Built-ins a stopped lane has whether or not its shader declares them (issue 14): glslang keeps
 * only the built-ins a shader reads, but the pipeline knows every fragment's gl_FragCoord,
 * gl_FrontFacing, gl_PrimitiveID, sample and point coordinate and whether it is a helper, and
 * every vertex's gl_VertexID and gl_InstanceID. They are added to the snapshot as Built-ins with
 * the model's per-lane values, so `variables`, `evaluate` and conditions see them like declared
 * ones. */
#ifndef GLR_DAP_BUILTINS_H
#define GLR_DAP_BUILTINS_H

#include "gpu_model/gpu_model.h"
#include "shadow/shadow.h"
#include "debugger/dbg_runner.h"

/* Adds the undeclared built-ins of a fragment or vertex warp (other stages: nothing). */
void dbg_add_pipeline_builtins(sh_builder *b, const gm_program *p, const struct dbg_observe_info *info,
                               const gm_warp *w);

#endif
