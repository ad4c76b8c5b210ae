/* Debug this pixel's own run with the earlier passes from the driver (issue 15 item 2): the pixel
 * history's feed (pixel_feed.c: the driver's images of the images the target's draws read, the
 * passes' draws left out of the model) handed to another model run of the same capture, the
 * debugger's pass to the pixel's stop (debugger/dbg_runner.h, dbg_record_hooks). */
#ifndef GLR_PIXEL_PASS_FEED_H
#define GLR_PIXEL_PASS_FEED_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model/frame/gmf_frame.h"

struct pxh_pass_feed;

/* Before a record of the run: 1 leave it out (a pass draw: gmf_set_skip_draws for it), 0 feed it as
 * usual (stale images it may read were made current from the driver's first), -1 the feed gave up
 * (this run cannot go on without the earlier passes: run again without the feed). */
int pxh_pass_feed_before(void *pass_feed, gmf_runner *m, const struct glr_call *c, uint64_t record);
/* After a record left out: 0, or -1 the feed gave up. */
int pxh_pass_feed_after(void *pass_feed, gmf_runner *m, const struct glr_call *c, uint64_t record,
                        const gmf_event *ev);
/* A new run starts from the frame's first record. */
void pxh_pass_feed_restart(void *pass_feed);
/* The draws left out so far in this run. */
uint64_t pxh_pass_feed_left_out(const struct pxh_pass_feed *p);
void pxh_pass_feed_free(struct pxh_pass_feed *p);

#endif
