/* The pixel history's feed of earlier passes, handed to another model run (pixel_pass_feed.h): the
 * same engine state pixel_feed.c works on, with the run's model. */
#include <stdlib.h>
#include "pixel_internal.h"
#include "pixel_feed_priv.h"
#include "pixel_pass_feed.h"

struct pxh_pass_feed {
    struct engine e;   /* t and feed only, m the run's model while a hook runs */
};

struct pxh_pass_feed *pxh_pass_feed_take(struct pxh_feed **feed, const struct pxh_target *t)
{
    struct pxh_pass_feed *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->e.t = *t;
    p->e.feed = *feed;
    *feed = NULL;
    pxh_feed_reset(p->e.feed, true);
    p->e.feed->test_drop = pxh_feed_test_drop("pass");   /* (only the debug run's feed gives up) */
    return p;
}

int pxh_pass_feed_before(void *pass_feed, gmf_runner *m, const struct glr_call *c, uint64_t record)
{
    struct pxh_pass_feed *p = pass_feed;
    if (!pxh_feed_active(p->e.feed))
        return -1;
    p->e.m = m;
    bool candidate = false;
    if (!pxh_feed_before(&p->e, c, record, &candidate))
        return -1;
    return candidate ? 1 : 0;
}

int pxh_pass_feed_after(void *pass_feed, gmf_runner *m, const struct glr_call *c, uint64_t record,
                        const gmf_event *ev)
{
    struct pxh_pass_feed *p = pass_feed;
    p->e.m = m;
    return pxh_feed_after(&p->e, c, record, ev) ? 0 : -1;
}

void pxh_pass_feed_restart(void *pass_feed)
{
    struct pxh_pass_feed *p = pass_feed;
    pxh_feed_reset(p->e.feed, true);
}

uint64_t pxh_pass_feed_left_out(const struct pxh_pass_feed *p)
{
    return p ? p->e.feed->left_out : 0;
}

void pxh_pass_feed_free(struct pxh_pass_feed *p)
{
    if (!p)
        return;
    pxh_feed_free(p->e.feed);
    free(p);
}
