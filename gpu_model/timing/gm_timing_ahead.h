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

/* Most entries one run-ahead records (a warp with a longer run continues at its next). */
#define TM_AHEAD_MAX 65536

#endif
