/* gm_color_half4.h - colour writes to an RGBA16F render target four lanes at a time (issue 17
 * §1: OpenArena's GL2 renderer draws into half-float targets, blending most of its passes).
 * What gm_fragops.c's write_rt does lane by lane (the destination read, the blend factors and
 * equations in float, the round-toward-zero store) on four lanes in SSE registers, with the
 * halves converted by gm_half.c; the same operations in the same order, so the same bits,
 * which tests/test_color_half4.c checks against write_rt.
 *
 * Internal to gpu_model/pipeline (gm_fragops.c and the unit test). */
#ifndef GM_COLOR_HALF4_H
#define GM_COLOR_HALF4_H

#include <stdbool.h>
#include <stdint.h>

#include "gm_pipe_internal.h"

/* Whether render target rt's writes can go through gm_color_half4_write: an RGBA16F target,
 * every channel written, no logic op, and blending off or with equations and factors the
 * vector form covers (everything but MIN / MAX and SRC_ALPHA_SATURATE). */
bool gm_color_half4_ok(const gm_pipe_context *ctx, int rt);

/* Blends and writes render target rt's colour of the whole quads (four lanes in a row, from
 * lane 0) of `mask`; returns those lanes. The caller writes the other lanes of `mask` lane by
 * lane (write_rt). */
uint32_t gm_color_half4_write(gm_pipe_context *ctx, int rt, const gm_pipe_fs_warp *w,
                              uint32_t mask);

#endif
