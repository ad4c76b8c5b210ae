/* gm_setup.h - per-primitive rasterization state shared by triangles, lines, points. */
#ifndef GM_SETUP_H
#define GM_SETUP_H

#include "gm_pipe_internal.h"
#include "gm_raster.h"

/* A vertex after VS, clipping and viewport: pos = raster-space x, y, window z, 1/w. */
typedef struct gm_pvert {
    const gm_pipe_vertex *v;
    float win[4];
    uint32_t clipmask;
} gm_pvert;

/* Derived per-draw rasterizer state. */
typedef struct gm_raster_state {
    float scale[3], trans[3];   /* viewport, raster space */
    int region[4];              /* x0, y0, x1, y1 inclusive draw region (raster space) */
    bool flipped;               /* raster y = fb height - window y */
    bool bottom_edge_rule;
    int fb_height;
    float zmin, zmax;           /* depth range for clamping */
    float mrd;                  /* minimum resolvable depth difference */
    bool float_depth;
    /* multisampling (gm_msaa.c): samples of the framebuffer; ms = per-sample coverage
     * (samples > 1 and GL_MULTISAMPLE); per_sample = FS once per sample */
    int samples;
    bool ms, per_sample;
    /* per-sample passes forced by GL_SAMPLE_SHADING move every input to the sample; passes forced
     * by the shader (gl_SampleID, `sample` inputs) move only `sample` inputs (lp_bld_interp.c) */
    bool inputs_at_sample;
    uint32_t all_samples;       /* (1 << samples) - 1 */
    uint32_t state_mask;        /* GL_SAMPLE_MASK & GL_SAMPLE_COVERAGE samples */
    int32_t sfx[GM_PIPE_MAX_SAMPLES], sfy[GM_PIPE_MAX_SAMPLES];   /* raster, 1/256 px */
    float spx[GM_PIPE_MAX_SAMPLES], spy[GM_PIPE_MAX_SAMPLES];     /* raster, from centre */
} gm_raster_state;

typedef struct gm_draw_ctx {
    gm_pipe_context *ctx;
    gm_raster_state rs;
    int32_t primitive_id;
    int failed;
    gm_pipe_fs_warp *warp;      /* scratch warp (large): the w of a gm_fs_pending */
    gm_fs_queue fsq;
    uint32_t pass_cov[32];    /* per-sample passes: each lane's pixel coverage (centroid) */            /* fragment warps whose shader was queued (deferred) */
    float plane_offset;         /* attribute planes' origin offset: 0.5, 1 for MSAA lines */
    /* polygon mode GL_LINE/GL_POINT on a face, or line stipple: llvmpipe hands the draw to
     * the draw module's pipeline, so triangles go through gm_unfilled_tri; polygon offset is
     * then applied per vertex there, not by the rasterizer (llvmpipe clears its own offset
     * state in that case). */
    bool unfilled;
    bool indexed;               /* glDrawElements and kin: quads split along v1-v3 (gm_draw.c) */
    uint32_t fill_front, fill_back;   /* polygon modes after the culled-face simplification */
    int prim_face;              /* gl_FrontFacing of lines/points: -1 = true, else 0/1 */
    int offset_state;           /* unfilled: -1 undecided, 0/1 polygon offset off/on */
    float stipple_counter;      /* line stipple position (gm_stipple.c) */
    bool stipple_reset;         /* the next line that reaches the stipple stage resets it */
    /* polygon stipple: draw's pstipple stage binds a fragment shader with the stipple kill
     * when the first filled triangle reaches it; the rest of the draw (lines and points of
     * polygon mode included) is shaded with it */
    bool pstipple_on;
    /* pixel history (ctx->watch set): the primitive being rasterized, from the shaded vertices
     * (pv_base[k] has gl_VertexID pv_vid[k]) */
    gm_watch_prim prim;
    const gm_pvert *pv_base;
    const int32_t *pv_vid;
    int pv_n;
    int32_t instance;
    /* the triangles being drawn are an antialiased line or point (gm_aa.c): a gm_aa_mode,
     * and the hidden varying slot of its coverage vec4 */
    uint8_t aa;
    int aa_slot;
} gm_draw_ctx;

/* Coverage producer: the primitive's quads are fed to gm_pipe_warp_add_quad in raster
 * order and flushed with gm_pipe_warp_flush. */
typedef struct gm_prim_raster {
    gm_pipe_planes planes;
    float z_offset;
    bool front;
    bool is_point;
    float point_center[2], point_size;   /* for gl_PointCoord */
    const gm_pvert *provoking;
} gm_prim_raster;

/* The scratch warp and the deferred-fragment queue of a draw (gm_warp.c): init 0 or -1
 * (out of memory); drain completes every queued warp in order (late fragment operations
 * applied), 0 or -1 when the FS callback aborted; free after draining. */
int gm_pipe_fs_queue_init(gm_draw_ctx *dc);
int gm_pipe_fs_drain(gm_draw_ctx *dc);
void gm_pipe_fs_queue_free(gm_draw_ctx *dc);

void gm_pipe_warp_begin(gm_draw_ctx *dc, gm_prim_raster *pr);
/* smask[i] = covered samples of quad pixel i (bit 0 for single-sampled targets). */
void gm_pipe_warp_add_quad(gm_draw_ctx *dc, gm_prim_raster *pr, int qx, int qy,
                           const uint32_t smask[4]);
void gm_pipe_warp_flush(gm_draw_ctx *dc, gm_prim_raster *pr);

/* Plane setup like lp_state_setup.c for three vertices in llvmpipe order. */
void gm_setup_tri_planes(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                         const gm_pvert *v2, const gm_pvert *pv, gm_prim_raster *pr);

/* Front facing for llvmpipe's fixed-point area sign (positive: llvmpipe-ccw). */
bool gm_tri_front(const gm_draw_ctx *dc, int64_t area);

/* The draw module's pipeline for one (clipped) triangle in polygon mode: cull, polygon
 * offset per vertex, flat attributes from the provoking vertex, then GL_FILL / GL_LINE /
 * GL_POINT by face (gm_unfilled.c).  edges: bit 0 v0-v1, bit 1 v1-v2, bit 2 v2-v0. */
void gm_unfilled_tri(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                     const gm_pvert *v2, unsigned edges);

/* A line after clipping: through the line stipple when GL_LINE_STIPPLE is on (gm_stipple.c),
 * else straight to gm_draw_line. */
void gm_line_out(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b);

/* Is raster pixel (px, py) killed by the polygon stipple (when pstipple_on)? */
static inline bool gm_pstipple_kill(const gm_draw_ctx *dc, int px, int py)
{
    if (!dc->pstipple_on)
        return false;
    int wy = dc->rs.flipped ? dc->rs.fb_height - 1 - py : py;
    return !((dc->ctx->state.polygon_stipple_rows[wy & 31] >> (31 - (px & 31))) & 1u);
}

/* Edge flag bit 3 of gm_unfilled_tri: the triangle starts a primitive (the draw module's
 * DRAW_PIPE_RESET_STIPPLE): the line stipple counter restarts. */
#define GM_TRI_RESET_STIPPLE 8u

void gm_draw_triangle(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                      const gm_pvert *v2);
void gm_draw_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1);
void gm_draw_point(gm_draw_ctx *dc, const gm_pvert *v0);
/* GL_LINE_SMOOTH lines and GL_POINT_SMOOTH points as the draw module's aaline / aapoint
 * stages draw them (gm_aa.c); gm_draw_line / gm_draw_point hand them over. */
void gm_aa_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1);
void gm_aa_point(gm_draw_ctx *dc, const gm_pvert *v0);

/* Multisample raster state of a draw (gm_msaa.c). */
void gm_msaa_setup(const gm_pipe_context *ctx, gm_raster_state *rs);

/* Viewport transform of a clip-space position (llvmpipe's draw JIT order). */
void gm_viewport_apply(const gm_raster_state *rs, const float clip[4], float win[4],
                       bool fused);

#endif
