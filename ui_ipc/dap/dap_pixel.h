/* Debug this pixel: from a pixel (and optionally an event of its history and a fragment of that
 * event) to the breakpoint that stops at the first line of the fragment shader invocation that
 * wrote it (dap_pixel.c). The pixel history (debugger/pixel) names the draw and the order of the
 * fragments shaded at the pixel in it; the stop is a breakpoint on the first line with code of the
 * program's fragment shader main(), counting hits only in that draw at that pixel (dbg_pass_req
 * only_draw/only_x/only_y; helper lanes never count), at the fragment's ordinal. */
#ifndef GLR_DAP_PIXEL_H
#define GLR_DAP_PIXEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "debugger/dbg_engine.h"

struct dbg_capture;
struct cJSON;
struct pxh_pass_feed;

struct dap_pixel_req {
    int x, y;
    int64_t event;          /* record of a draw of the pixel's history; -1: the last draw that wrote it */
    int fragment;           /* 1-based among the event's fragments; 0: the last one written */
    int primitive;          /* >= 0: instead, the (last) fragment of this primitive */
    const char *target;     /* pxh_parse_target syntax, NULL: the back buffer */
    bool driver;            /* the history may replay the driver (its images of earlier passes
                             * instead of modelling them); false in a server inside the program */
    /* optional: with the driver, the history's earlier passes for the debug pass's own run
     * (debugger/pixel/pixel_pass_feed.h, the caller frees it; NULL when the history modelled them) */
    struct pxh_pass_feed **pass_feed;
};

struct dap_pixel_stop {
    struct dbg_bp bp;       /* shader, line, hit_op DBG_HIT_EQ, hit_n */
    int draw;               /* only_draw */
    int x, y;               /* only_x, only_y */
    uint64_t record;
    int primitive;          /* the fragment's primitive (gl_PrimitiveID) */
    bool written;           /* the fragment reached the target */
    float output[4];        /* its shader's colour output 0 */
    /* The fragment's primitive as the rasterizer took it (n_vertices 0: unknown). */
    int n_vertices, provoking, instance;
    int32_t vertex_id[3];
    float position[3][4];   /* their gl_Position */
    /* Debug this vertex (dap_vertex_resolve): the stop is the vertex-shader invocation of
     * gl_VertexID x, gl_InstanceID y in the draw (dbg_pass_req only_vertex); corner: which
     * vertex of the pixel's primitive (-1: given by draw and index). */
    bool vertex;
    int corner;
};

/* Resolves the stop. 0, or -1 with a one-line message in err (no such pixel or event, the event
 * is not a draw, the fragment shader is not known to the model, ...). */
int dap_pixel_resolve(const struct dbg_capture *c, const struct dap_pixel_req *rq, struct dap_pixel_stop *out,
                      char *err, size_t err_size);

/* The record hooks of debug this pixel's own run (dbg_runner_set_next_hooks): the history's earlier
 * passes (feed) up to the stop's record. They own the feed: dap_pixel_pass_hooks_free frees both.
 * NULL when out of memory (the feed is freed then). */
struct dbg_record_hooks;
struct dbg_record_hooks *dap_pixel_pass_hooks(struct pxh_pass_feed *feed, uint64_t until);
void dap_pixel_pass_hooks_free(struct dbg_record_hooks *h);
void dap_pixel_feed_free(struct pxh_pass_feed *feed);

/* Parses {"x":..,"y":..,"event":..,"fragment":..,"primitive":..,"target":".."}: false with err set on
 * bad input. */
bool dap_pixel_parse(const struct cJSON *o, struct dap_pixel_req *rq, char *err, size_t err_size);

/* Debug this vertex: {"draw": D, "index": I, "instance": N} (I: gl_VertexID, the index value
 * plus base vertex; N default 0), or a pixel as dap_pixel_parse takes it with an optional
 * "corner" (which vertex of the fragment's primitive, 0-based; default the provoking one). The
 * stop (vertex true) is at the first line of the draw's vertex shader, in the lane of that vertex.
 * 0, or -1 with a one-line message in err. */
int dap_vertex_resolve(const struct dbg_capture *c, const struct cJSON *args, struct dap_pixel_stop *out, char *err,
                       size_t err_size);

/* The pixel history as a JSON body (pxh_run), or NULL with err set. The driver confirms the values
 * unless args say "driver": false or allow_driver is false (a server inside the program). */
struct cJSON *dap_pixel_history(const struct dbg_capture *c, const struct cJSON *args, bool allow_driver, char *err,
                                size_t err_size);

#endif
