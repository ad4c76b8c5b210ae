/* gm_pipe_watch.h - observer of the per-fragment operations for one watched pixel
 * (pixel history, debugger/pixel). Part of gm_pipeline.h.
 *
 * With gm_pipe_context.watch set, the pipeline reports what happens to every fragment that
 * covers the watched window pixel: the fragment entering a warp, the shader's outputs and
 * discard, each depth/stencil test with both values, and each colour write with the blend
 * inputs and the stored result. Records of one fragment arrive in pipeline order (the early
 * depth/stencil test before SHADED). With watch NULL the cost is one pointer test per warp. */
#ifndef GM_PIPE_WATCH_H
#define GM_PIPE_WATCH_H

#include <stdbool.h>
#include <stdint.h>

typedef enum gm_watch_kind {
    GM_WATCH_FRAGMENT,      /* a covered lane of a fragment warp is at the pixel */
    GM_WATCH_SHADED,        /* the fragment shader ran: outputs, discard, coverage after it */
    GM_WATCH_DEPTH_STENCIL, /* one sample's depth/stencil test (early or late) */
    GM_WATCH_COLOR,         /* one sample's colour write to one render target */
} gm_watch_kind;

/* The primitive a fragment came from, as the vertex stage fed it to the rasterizer (before
 * clipping). Debuggers go from a pixel to the vertex-shader invocations behind it with it. */
typedef struct gm_watch_prim {
    int n;                      /* vertices: 1 point, 2 line, 3 triangle; 0 unknown */
    int provoking;              /* index in vertex_id[] of the provoking vertex */
    int32_t instance_id;        /* gl_InstanceID */
    int32_t vertex_id[3];       /* gl_VertexID of each, in the order the rasterizer took them */
    float clip[3][4];           /* their gl_Position (clip space), as the rasterizer took it */
} gm_watch_prim;

typedef struct gm_watch_rec {
    gm_watch_kind kind;
    int lane;                   /* lane of the warp */
    /* FRAGMENT */
    int32_t primitive_id;
    bool front;
    int sample_pass;            /* sample of a per-sample shading pass, else -1 */
    uint32_t coverage;          /* samples covered (bit 0 without multisampling) */
    float frag_coord[4];
    bool early;                 /* depth/stencil are tested before the shader */
    gm_watch_prim prim;         /* its primitive's vertices (geometry/tessellation output:
                                   the vertices of the stage before rasterization, in its ids) */
    /* SHADED */
    bool discarded;
    uint32_t coverage_after;    /* samples alive after discard, gl_SampleMask, alpha-to-coverage */
    float out_f[8][4];          /* colour outputs per render target (also u as bits) */
    float frag_depth;           /* the depth the late test uses */
    /* DEPTH_STENCIL and COLOR */
    int sample;
    /* DEPTH_STENCIL */
    bool depth_on, stencil_on;
    uint32_t depth_func;
    double depth_in, depth_stored;  /* format's stored representation (D16/D24: integers) */
    bool depth_pass;
    uint32_t stencil_func;
    int stencil_ref, stencil_stored, stencil_after;
    bool stencil_pass;
    bool depth_written;
    bool passed;
    /* COLOR */
    int rt;
    const void *surface;        /* the written surface's data (identifies the image) */
    bool integer;
    bool blend;
    uint32_t blend_src_rgb, blend_dst_rgb, blend_src_alpha, blend_dst_alpha, eq_rgb, eq_alpha;
    uint8_t color_mask;
    float src[4], dst[4], after[4];   /* integer targets: as uint32 bits */
} gm_watch_rec;

typedef struct gm_pipe_watch {
    int x, y;               /* window pixel, origin bottom-left (gm_pipe_fs_warp x/y) */
    /* Rasterize only the 2x2 quad of the pixel (draws whose fragment shader has no side
     * effects). For the caller to set only where nothing later in the frame reads the rest of
     * the image (the rest is then left undrawn), e.g. the back buffer of a frame that never
     * reads it back: a history then costs the vertex work and one quad per draw. */
    bool clip;
    void (*fn)(void *user, const gm_watch_rec *rec);
    void *user;
    /* Optional (NULL: none): called with the texture name (0: the unit's default texture) of
     * every texture fetch a shader makes, possibly from several shading threads at once; the
     * history learns so whether a draw read an image an earlier clipped draw left partial. */
    void (*on_texture)(void *user, uint32_t name);
} gm_pipe_watch;

#endif
