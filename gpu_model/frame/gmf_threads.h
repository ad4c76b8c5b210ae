/* gmf_threads: shader warps of a draw run on worker threads while every result stays the
 * single-thread run's (see DESIGN.md "Shading on several threads"). Private to the frame
 * runner: gmf_shade.c's callbacks queue warps here when the draw is threaded (d->thr). */
#ifndef GMF_THREADS_H
#define GMF_THREADS_H

#include "gmf_internal.h"

/* The configured thread count (config value, else GLREPLAY_MODEL_THREADS, else the online
 * CPUs capped at GMF_THR_DEFAULT_MAX); -1 with a message in err on a bad value. */
#define GMF_THR_DEFAULT_MAX 8
#define GMF_THR_MAX 64
int gmf_thr_init(gmf_runner *r, int config_threads, char *err, size_t err_size);
void gmf_thr_free(gmf_runner *r);

/* Decides whether this draw runs threaded (sets d->thr) and says why not through
 * r->thr_fallbacks; gmf_thr_draw_end drops any warp left in flight (an aborted draw). */
void gmf_thr_draw_begin(gmf_draw_ctx *d);
void gmf_thr_draw_end(gmf_draw_ctx *d);
/* After each pipeline call: jobs the pipeline left (it failed and freed the records their
 * inputs and outputs live in) are waited for and dropped. */
void gmf_thr_drain(gmf_draw_ctx *d);

/* The shader callbacks' side, like gmf_timing_next_warp/queue/complete/release. */
gm_warp *gmf_thr_next_warp(gmf_draw_ctx *d, gm_stage stage);
int gmf_thr_queue(gmf_draw_ctx *d, gm_warp *w, gm_stage stage, const int32_t *lane_x,
                  gm_pipe_vertex *vout, int count, gm_pipe_fs_warp *fw);
/* Waits for the stage's oldest queued warp; NULL (draw failed, noted) on a runtime error. */
typedef struct gmf_thr_done {
    gm_warp *w;
    gm_pipe_vertex *vout;
    int count;
    const int32_t *lane_x;
    gm_pipe_fs_warp *fw;
} gmf_thr_done;
int gmf_thr_complete(gmf_draw_ctx *d, gm_stage stage, gmf_thr_done *out);
void gmf_thr_release(gmf_draw_ctx *d, gm_stage stage);

/* The timing model's draws (gmf_timing.c): a submitted warp's launch and first run-ahead
 * (gm_timing_pre.h) on a worker. draw_begin/end around each draw (end after every flight
 * retired); queue right after gm_timing_submit of flight `index` of stage s (0 vertex, 1
 * fragment) with the gate (gmf_tex_ahead_ok) open: 0 when a worker may run it, -1 when the
 * warp runs as usual. gmf_thr_pre_wait is the model's wait hook (gm_timing_set_pre_wait). */
void gmf_thr_pre_draw_begin(gmf_draw_ctx *d);
void gmf_thr_pre_draw_end(gmf_draw_ctx *d);
int gmf_thr_pre_queue(gmf_draw_ctx *d, int s, int index, gm_warp *w);
void gmf_thr_pre_wait(void *ctx, void *owner);
/* Whether the draw's fetches read the bindings resolved for the workers; the sampler
 * callback that reads them (any thread; ctx: the draw). */
bool gmf_thr_bound(const gmf_draw_ctx *d);
void gmf_thr_bound_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out);

/* gmf_shade.c: what sample() binds for unit u and target index ti (the texture synced with
 * the state model, the sampler's values into *smp, tu->image/sampler set when complete);
 * the texture or NULL. Notes what the model does not do, as sample() always did. */
gmf_texture *gmf_unit_resolve(gmf_draw_ctx *d, unsigned u, int ti, gm_tex_unit *tu,
                              gm_tex_sampler *smp, gmf_texture *synced);
/* The texture key (name and target) unit u binds for target index ti. `synced` above: that
 * key's texture as gmf_tex_sync returned it earlier in this draw (a second sync in the draw
 * only rewrites the same values), NULL to sync now. */
uint32_t gmf_unit_texture_key(const gmf_draw_ctx *d, unsigned u, int ti);
/* gmf_shade.c: a fragment warp's inputs from, and its outputs into, its pipeline record (they
 * touch only the warp, the record and the draw's constant state: a fragment job runs both). */
void gmf_fs_inputs(gmf_draw_ctx *d, gm_warp *w, const gm_pipe_fs_warp *fw);
void gmf_fs_outputs(gmf_draw_ctx *d, gm_warp *w, gm_pipe_fs_warp *fw);
int gmf_sample_target_index(const gm_sample_request *req);

#endif
