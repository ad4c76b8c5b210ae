/* Internal to debugger/pixel: the engine's state shared by the model pass (pixel_history.c), the
 * fragment records' JSON (pixel_fragment.c) and the driver pass (pixel_driver.c). */
#ifndef GLR_PIXEL_INTERNAL_H
#define GLR_PIXEL_INTERNAL_H

#include <cjson/cJSON.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pixel_history.h"
#include "gmf_frame.h"

struct glrh_capture;
struct glrh_probe;
struct glr_restore;
struct pxh_feed;

#define MAX_FRAGS 64        /* fragments kept per event (more are counted) */
#define MAX_SAMPLE_RECS 16  /* depth/stencil and colour records kept per fragment */

/* ---- one fragment and one event, as the observer collects them ---- */

struct frag {
    gm_watch_rec in;            /* FRAGMENT */
    int64_t draw;               /* the draw that made it (a list call's event runs several) */
    bool shaded;
    gm_watch_rec sh;            /* SHADED */
    gm_watch_rec ds[MAX_SAMPLE_RECS];
    int n_ds;
    gm_watch_rec col[MAX_SAMPLE_RECS];
    int n_col;
};

struct engine {
    const struct pxh_options *o;
    bool clip;                  /* draws into the back buffer rasterize the pixel's quad only */
    bool clip_broken;           /* the frame reads the back buffer (or counts fragments): rerun */
    struct pxh_target t;
    gmf_runner *m;
    gm_pipe_watch watch;
    bool active;                /* the record being fed draws into the target */
    const void *target_id;      /* the target image's storage (gmf_pixel.id) */
    struct frag *frags;
    int n_frags, more_frags;
    /* records the driver is asked about, ascending, with its answers */
    struct ask { uint64_t record; uint32_t buffer; bool answered, ok; uint8_t rgba[4]; cJSON *entry; } *asks;
    size_t n_asks, cap_asks;
    size_t next_ask;
    struct glr_restore *snap;   /* the capture's initial state (NULL: "default") */
    struct pxh_feed *feed;      /* earlier passes from the driver (pixel_feed.c); NULL: none */
    /* images attached to an FBO target while a draw into it ran clipped (pixel_clip.c) */
    struct { uint32_t type, name; } *clipped;
    size_t n_clipped, cap_clipped;
    atomic_bool clip_read;      /* a draw fetched from one of them (pxh_clip_on_texture) */
};

/* pixel_fragment.c: JSON of values and of one fragment's records (its outcome: NULL when it was
 * written, else why not, in why). */
cJSON *pxh_floats(const float *v, int n);
cJSON *pxh_bytes4(const uint8_t *v);
cJSON *pxh_frag_json(const struct frag *f, const char **outcome, char *why, size_t why_n);

/* pixel_driver.c: the driver replay (before the model pass) reading the pixel after every record
 * the plan names and the earlier passes' images (pixel_feed.c). 0, or -1 with err set. */
int pxh_driver_replay(struct engine *e, const struct glrh_capture *cap, char *err, size_t n);
/* After the model pass: each asked record's driver value; fills each entry's "driver"/"agrees"
 * and root's "driver_only_changes" and "driver_check". */
void pxh_driver_compare(struct engine *e, cJSON *root);

/* pixel_feed.c: earlier passes from the driver (see there). */
const char *pxh_writer_kind(uint32_t cmd);     /* "blit", "copy", "upload" or NULL */
bool pxh_may_write_cmd(uint32_t cmd);          /* draws, clears, lists and writer kinds */
struct pxh_feed *pxh_feed_plan(const struct engine *e, const struct glrh_capture *cap, const struct glr_restore *snap,
                               const char *meta, char *err, size_t n);
void pxh_feed_free(struct pxh_feed *f);
void pxh_feed_probe(struct pxh_feed *f, struct glrh_probe *p);
bool pxh_feed_answer(const struct pxh_feed *f, uint64_t record, bool *answered, bool *ok, uint8_t rgba[4]);
bool pxh_feed_active(const struct pxh_feed *f);
/* The last record that may write the target while it is bound for drawing (the plan's, from the
 * state model); false: none, or no plan. */
bool pxh_feed_last_write(const struct pxh_feed *f, uint64_t *record);
/* An FBO target's size, the same at every record that may write it; false: unknown or varying. */
bool pxh_feed_target_size(const struct pxh_feed *f, unsigned *w, unsigned *h);
bool pxh_feed_before(struct engine *e, const struct glr_call *c, uint64_t record, bool *candidate);
bool pxh_feed_after(struct engine *e, const struct glr_call *c, uint64_t record, const gmf_event *gev);
const char *pxh_feed_why(const struct pxh_feed *f);
/* Test hook: GLREPLAY_PIXEL_FEED_TEST_DROP=history (the pixel history's model pass) or =pass (debug
 * this pixel's own run) makes that feed give up at the first driver image it needs, as when the
 * driver could not give one (docs/PIXEL_HISTORY.md, "Test switches"). */
bool pxh_feed_test_drop(const char *where);
void pxh_feed_reset(struct pxh_feed *f, bool on);
void pxh_feed_report(const struct pxh_feed *f, cJSON *root);

/* pixel_pass_feed.c: the feed handed to another run (pixel_pass_feed.h); *feed is NULL then. NULL:
 * out of memory (*feed kept). */
struct pxh_pass_feed *pxh_pass_feed_take(struct pxh_feed **feed, const struct pxh_target *t);

/* pixel_clip.c: quad only for an FBO target. wrote: a clipped draw into the target ran (its
 * framebuffer's attachments are partial now); 0, or -1 out of memory. breaks: the record may read
 * a partial image in the model (the pass must run again with whole draws). */
struct sm_context;
int pxh_clip_wrote(struct engine *e, const struct sm_context *sc);
bool pxh_clip_fbo_breaks(const struct engine *e, const struct glr_call *c, const struct sm_context *sc,
                         bool left_out);
void pxh_clip_on_texture(void *user, uint32_t name);

/* pixel_cache.c: the driver's answers kept for the next history of the same capture and target.
 * want_targets: the target is w x h (when few enough images to keep); with keep (the in-process
 * cache) or disk (the on-disk one; a smaller bound without keep), the driver replay reads the
 * whole target after each probed record too, for put. take: true when the feed got every answer from the kept
 * entry for pixel (x, y) (no driver replay needed). put: after a driver replay, keep its answers. */
void pxh_feed_want_targets(struct pxh_feed *f, unsigned w, unsigned h, bool keep, bool disk);
bool pxh_cache_take(struct pxh_feed *f, const char *path, const struct pxh_target *t, int x, int y);
void pxh_cache_put(struct pxh_feed *f, const char *path, const struct pxh_target *t);
/* Answers f's probes at pixel (x, y) and copies its images from kept (a cache entry: probes with
 * whole-target images); false when kept's plan is not f's (or out of memory). */
bool pxh_kept_answer(const struct pxh_feed *kept, struct pxh_feed *f, int x, int y);

/* pixel_disk_cache.c: the same answers kept on disk across processes (see there). take: true when
 * f got every answer for pixel (x, y) from a valid entry of this capture's content and target
 * (with keep, the entry goes to the in-process cache too); put: keep f's answers there (before
 * pxh_cache_put, which takes the target images away). Both do nothing when the cache is off. */
bool pxh_disk_take(struct pxh_feed *f, const char *capture, const struct pxh_target *t, int x, int y, bool keep);
void pxh_disk_put(const struct pxh_feed *f, const char *capture, const struct pxh_target *t);
/* The on-disk cache is on and its folder usable (GLREPLAY_PIXEL_CACHE is not 0). */
bool pxh_disk_on(void);

/* pixel_driver_ident.c: the files of the shared objects mapped now (the driver a replay loaded),
 * as bytes for a cache entry (malloc'd; NULL: out of memory); same: every file named in such
 * bytes is still there unchanged (false also for bytes that do not parse). */
uint8_t *pxh_driver_ident(size_t *size);
bool pxh_driver_ident_same(const uint8_t *b, size_t n);

#endif
