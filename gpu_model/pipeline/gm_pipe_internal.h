/* gm_pipe_internal.h - declarations shared by the pipeline's source files, and the
 * deferred-shading protocol of the shader callbacks (used by the frame runner). */
#ifndef GM_PIPE_INTERNAL_H
#define GM_PIPE_INTERNAL_H

#include "gm_pipeline.h"

/* ---- deferred shading ------------------------------------------------------------
 * A shader callback (gm_pipe_vs_fn, gm_pipe_fs_fn) may take an invocation's inputs and
 * return before the shader ran, so that its caller can keep many warps in flight at once
 * (the frame runner feeds them to the timing model, which interleaves them on its SMs):
 *
 *   GM_PIPE_QUEUED       inputs taken; the outputs (VS: out[0..count-1]; FS: the outputs
 *                        of the gm_pipe_fs_warp) are written by a later completion call.
 *   GM_PIPE_QUEUED_FULL  the same, and the callback's queue is full: complete the oldest
 *                        queued invocation before calling it with new work.
 *
 * Completion call: vs(user, NULL, 0, 0, NULL) or fs(user, NULL) writes the outputs of the
 * oldest invocation still queued for that stage (callbacks complete in submission order).
 * It returns 0, or non-zero to abort the draw. Whenever a callback returns an abort code
 * (from any call), it has dropped everything it still had queued.
 *
 * The pipeline keeps `out` and queued gm_pipe_fs_warp buffers untouched until their
 * completion; it applies the late fragment operations (late depth/stencil, blending) of
 * queued fragment warps in submission order as they complete, so results equal running
 * every warp at its call. Early depth/stencil runs before the call (as always): it is the
 * same order too, because a draw's warps are all early or all late. The pipeline completes
 * every queued invocation before gm_pipe_draw_exec returns (nothing outside a draw ever
 * sees a framebuffer with pending work). Callbacks returning 0 keep the synchronous
 * behaviour. The values are far from the small non-zero codes callbacks abort with. */
#define GM_PIPE_QUEUED 0x47510001
#define GM_PIPE_QUEUED_FULL 0x47510002

/* A fragment warp whose shader was queued, with what its late operations need. The warp
 * is the first member: the pipeline's scratch warp pointer is such a record, swapped into
 * the queue when its shader is queued (no copy of the large warp). */
typedef struct gm_fs_pending {
    gm_pipe_fs_warp w;
    gm_pipe_planes planes;    /* copy: the primitive's raster state is gone by then */
    float z[GM_PIPE_WARP_LANES];
    float zs[GM_PIPE_MAX_SAMPLES][GM_PIPE_WARP_LANES];   /* per-sample depth (MSAA) */
    uint32_t smask[GM_PIPE_WARP_LANES];  /* samples still alive per lane (MSAA) */
    int sample;               /* the sample of a per-sample shading pass, else -1 */
    bool ms;                  /* per-sample fragment operations */
    uint32_t live;
    bool early, front;
    bool done;                /* the callback ran it synchronously (returned 0) */
} gm_fs_pending;

/* Fragment warps queued by the FS callback, oldest first: e[head .. head+n) modulo cap.
 * Records are allocated once and reused (NULL until first needed). */
typedef struct gm_fs_queue {
    gm_fs_pending **e;
    int cap, head, n;
} gm_fs_queue;

/* Per-fragment operations on one warp after (or, for the early depth test, before)
 * the fragment shader.  `mask` = lanes still alive; z[] = depth per lane (already
 * clamped); returns lanes that passed depth/stencil. */
uint32_t gm_fragops_depth_stencil(gm_pipe_context *ctx, const gm_pipe_fs_warp *w,
                                  uint32_t mask, const float *z, bool front);
/* Blend and write colour outputs of lanes in `mask`. */
void gm_fragops_color(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask);

/* Multisampled variants: smask[l] = samples of lane l still alive (updated in place:
 * samples failing the test are cleared); zs[s][l] = depth of sample s. Returns lanes with
 * any sample alive. alpha_to_one applies GL_SAMPLE_ALPHA_TO_ONE to the written colour. */
uint32_t gm_fragops_depth_stencil_ms(gm_pipe_context *ctx, const gm_pipe_fs_warp *w,
                                     uint32_t mask, uint32_t *smask,
                                     const float (*zs)[GM_PIPE_WARP_LANES], bool front);
void gm_fragops_color_ms(gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask,
                         const uint32_t *smask, bool alpha_to_one);
/* Alpha-to-coverage mask of `samples` samples for an alpha value (llvmpipe's rule). */
uint32_t gm_msaa_alpha_to_coverage(float alpha, int samples);

/* Experiment switch: fused multiply-add in the viewport transform (default 1). */
extern int gm_pipe_viewport_fused;
/* 1: every warp's lanes set up one by one (gm_warp.c; tests compare the vector path with it) */
extern int gm_pipe_lanes_general;

/* Comparison of GL funcs on floats/ints (gm_compare.c). */
bool gm_compare_func(uint32_t func, double a, double b);

/* Pixel history (gm_pipe_watch.c): the lane of `mask` at the watched pixel, -1 when nobody
 * watches or no lane is there; then the records of that lane (gm_pipe_watch.h). */
int gm_watch_lane_slow(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask);
static inline int gm_watch_lane(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask)
{
    return ctx->watch ? gm_watch_lane_slow(ctx, w, mask) : -1;
}
void gm_watch_fragment(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l, bool early,
                       int sample,
                       const gm_watch_prim *prim);
void gm_watch_shaded(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l,
                     uint32_t coverage_after, float depth);
void gm_watch_ds_before(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l, int smp,
                        float z, const gm_pipe_stencil_face *sf, bool depth_on, bool stencil_on,
                        gm_watch_rec *r);
void gm_watch_ds_after(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, gm_watch_rec *r,
                       bool passed);
void gm_watch_color_before(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int rt, int l,
                           int smp, bool alpha_to_one, gm_watch_rec *r);
void gm_watch_color_after(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, gm_watch_rec *r);
/* gm_pipe_watch.clip: narrows a draw's raster region (raster space) to the 2x2 quad of the
 * watched pixel, unless the fragment shader has side effects. */
void gm_watch_clip_region(const gm_pipe_context *ctx, bool flipped, int *x0, int *y0, int *x1, int *y1);

#endif
