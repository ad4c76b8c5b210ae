/* gm_pipe_internal.h - declarations shared by the pipeline's source files. */
#ifndef GM_PIPE_INTERNAL_H
#define GM_PIPE_INTERNAL_H

#include "gm_pipeline.h"

/* Per-fragment operations on one warp after (or, for the early depth test, before)
 * the fragment shader.  `mask` = lanes still alive; z[] = depth per lane (already
 * clamped); returns lanes that passed depth/stencil. */
uint32_t gm_fragops_depth_stencil(gm_pipe_context *ctx, const gm_pipe_fs_warp *w,
                                  uint32_t mask, const float *z, bool front);
/* Blend and write colour outputs of lanes in `mask`. */
void gm_fragops_color(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask);

/* Experiment switch: fused multiply-add in the viewport transform (default 1). */
extern int gm_pipe_viewport_fused;

/* Comparison of GL funcs on floats/ints. */
bool gm_compare_func(uint32_t func, double a, double b);

#endif
