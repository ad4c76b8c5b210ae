/* Pixel history: every clear, draw, blit and copy of a captured frame that touched one pixel of
 * a colour target, with the fragments the GPU model produced there (shader outputs, each test's
 * outcome with both values, blend inputs, the value after the event), the events whose fragments
 * were all rejected and why, and the driver's value after each event (a headless replay on
 * llvmpipe) with where the two differ. Used by `glreplay pixel` and the DAP request
 * glreplay/pixelHistory. See docs/PIXEL_HISTORY.md. */
#ifndef GLR_PIXEL_HISTORY_H
#define GLR_PIXEL_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cJSON;
struct pxh_pass_feed;

/* The colour image watched: the back buffer of a context's default framebuffer (fbo 0), or
 * colour attachment `attachment` of framebuffer object `fbo`. ctx_id 0: the capture's first
 * context that swaps. */
struct pxh_target {
    uint32_t ctx_id;
    uint32_t fbo;
    int attachment;
};

/* Parses "back", "default", "fboN", "fboN/colorK", each optionally after "ctxN/", and the names
 * `glreplay model` prints ("ctx1/default/back", "ctx1/fbo3/color0"). false on anything else. */
bool pxh_parse_target(const char *s, struct pxh_target *t);

struct pxh_options {
    const char *path;           /* the capture */
    int x, y;                   /* window pixel, origin bottom-left */
    struct pxh_target target;
    bool driver;                /* confirm each value on the driver (EGL surfaceless) */
    /* keep the driver's answers for the next history of this capture and target in the process
     * (pxh_cache_clear): for callers that run several, such as the DAP server; a one-shot
     * process leaves it false (the on-disk cache, no_disk_cache, serves the next process) */
    bool keep;
    /* do not use the on-disk cache of the driver's answers (debugger/pixel/pixel_disk_cache.c:
     * $XDG_CACHE_HOME/glreplay/pixel, GLREPLAY_PIXEL_CACHE) for this history: neither read nor
     * write it. By default a history reads the whole target after each probed record and keeps
     * the answers there, so the next history of the same capture and target, in any process, needs
     * no driver replay. */
    bool no_disk_cache;
    double *model_seconds, *driver_seconds;   /* optional timings */
    /* optional: with the driver, when the history took the earlier passes from it, their feed for
     * debug this pixel's own run (pixel_pass_feed.h; the caller frees it), else NULL */
    struct pxh_pass_feed **pass_feed;
};

/* Runs the history. Returns a JSON object (caller frees with cJSON_Delete), or NULL with a
 * one-line message in err (bad capture, no such target, pixel outside it, out of memory). The
 * object's members are described in docs/PIXEL_HISTORY.md. */
struct cJSON *pxh_run(const struct pxh_options *o, char *err, size_t err_size);

/* With the driver and pxh_options.keep, pxh_run keeps the driver replay's answers of the last
 * capture and target in this process, so the next history of another pixel there needs no driver replay
 * (docs/PIXEL_HISTORY.md, "Across histories"). This forgets them. Thread-safe. */
void pxh_cache_clear(void);

#endif
