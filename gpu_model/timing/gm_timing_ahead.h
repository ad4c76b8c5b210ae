/* Run-ahead across texture instructions (gm_timing_ahead.c): a warp whose texture fetches
 * cannot see other warps' writes runs its TEX instructions ahead of their issue with the
 * private ones, recording each request's cache lines in its trace; the scheduler looks
 * them up in the SM's texture cache at the TEX's own issue. */
#ifndef GM_TIMING_AHEAD_H
#define GM_TIMING_AHEAD_H

#include "gm_timing_internal.h"

/* Runs the warp ahead from its next pc over private and texture instructions (the trace
 * grows as needed, up to TM_AHEAD_MAX entries per run) and records the lines of each
 * texture entry. Fills tw->tr_pc/tr_mask (the slot's arrays, possibly reallocated) and
 * returns the executor's status; *n_out entries. On out of memory it records nothing
 * (*n_out 0, GM_RUN_PAUSED): the warp then steps at its issue as without run-ahead. */
gm_run_status tm_ahead_run(gm_timing *t, tm_warp *tw, int *n_out);

/* The wrapper's tag set for a request of the warp running ahead (t->ahead): the lines of
 * trace entry `issued` since the run began go into t->tags, the previous entry's are
 * stored first. */
tm_tagset *tm_ahead_tags(gm_timing *t, tm_warp *tw);

/* At the issue of the trace's head entry (a texture sample/fetch/gather): its recorded
 * lines into *out (reset first). */
void tm_ahead_lines(gm_timing *t, tm_warp *tw, tm_tagset *out);

void tm_ahead_free(tm_slot *sl);

/* The recording itself, on arrays and a tag set of the caller's (a slot's and the model's,
 * or a warp run on another thread, gm_timing_pre.c): runs w from its next pc over the
 * `marks` instructions into tr_pc/tr_mask (*tr_cap as in tm_slot, grown as needed), the
 * lines of each texture entry into ah. The sampler wrapper of the warp's environment
 * must call tm_ahead_entry_tags(ah, cur, w) for each request's tag set meanwhile. */
struct tm_ahead *tm_ahead_new(void);
void tm_ahead_delete(struct tm_ahead *ah);
gm_run_status tm_ahead_record(struct tm_ahead *ah, tm_tagset *cur, gm_warp *w,
                              const uint8_t *marks, int32_t **tr_pc, gm_mask **tr_mask,
                              int *tr_cap, int *n_out);
tm_tagset *tm_ahead_entry_tags(struct tm_ahead *ah, tm_tagset *cur, const gm_warp *w);
/* Out of memory during the last recording (some entry's lines are lost). */
int tm_ahead_failed(const struct tm_ahead *ah);

/* A warp whose launch and first run-ahead ran elsewhere (tw->pre, gm_timing_pre.c): at its
 * launch, waits for that run and returns the first-block pick's status (the launch's own
 * executor call); at its first run_ahead, takes the trace, line records and lane count into
 * the slot and the batch. */
gm_run_status tm_pre_launch(gm_timing *t, tm_warp *tw);
void tm_pre_adopt(gm_timing *t, tm_warp *tw);

/* A texture size query (level -1: the level count) answered from the cache sizes[0..n), else
 * asked through env (request buffers q, qout) and added (gm_timing_texsize.c; the model's
 * per-batch cache and gm_timing_pre.c's per-run one). 0, or -1 without an answer. */
int tm_size_cached(tm_texsize **sizes, int *n, int *cap, const gm_env *env, gm_sample_request *q,
                   gm_texel_out *qout, uint32_t unit, int level, int32_t size[3]);

/* Most entries one run-ahead records (a warp with a longer run continues at its next). */
#define TM_AHEAD_MAX 65536

#endif
