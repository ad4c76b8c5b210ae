/* gm_pipeline.h - fixed-function pipeline of the GPU model (pure C, no GL calls).
 *
 * Primitive assembly, clipping, viewport, rasterization (llvmpipe's fixed-point rules),
 * attribute interpolation, warp building, per-fragment operations (depth, stencil,
 * blending, write masks, format conversion) and the texture units.  Shaders are run by
 * the SIMT executor through two callbacks (gm_pipe_vs_fn, gm_pipe_fs_fn).
 *
 * State values use the numeric GL enum values (GL_LESS, GL_SRC_ALPHA, GL_TRIANGLES ...)
 * so state from the state model can be passed through unchanged; the pipeline's files take
 * them from the header generated from gl.xml (registry/glr_gl_enums.h), not from GL headers.
 *
 * Coordinates: surfaces are stored bottom row first (row 0 = window y 0), like
 * glReadPixels returns them.  gm_pipe_framebuffer.winsys_orientation selects how
 * llvmpipe would rasterize: window-system framebuffers are rasterized upside down
 * (Mesa's Y_0_TOP), which changes vertex snapping and the fill rule; FBOs are not.
 * See DESIGN.md.
 */
#ifndef GM_PIPELINE_H
#define GM_PIPELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include "gm_pipe_watch.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GM_PIPE_WARP_LANES 32
#define GM_PIPE_WARP_QUADS 8
#define GM_PIPE_MAX_VARYINGS 32   /* vec4 slots between VS and FS */
#define GM_PIPE_MAX_RT 8
#define GM_PIPE_MAX_CLIP_DIST 8
#define GM_PIPE_MAX_VIEWPORTS 1
#define GM_PIPE_MAX_SAMPLES 8     /* samples per pixel the pipeline handles (llvmpipe: 4) */

/* ---- pixel formats ------------------------------------------------------------ */
typedef enum gm_format {
    GM_FMT_NONE = 0,
    GM_FMT_RGBA8, GM_FMT_BGRA8, GM_FMT_RGB8, GM_FMT_RG8, GM_FMT_R8,
    GM_FMT_SRGB8_A8, GM_FMT_SRGB8,
    GM_FMT_RGBA8_SNORM, GM_FMT_RGBA16, GM_FMT_R16, GM_FMT_RG16,
    GM_FMT_RGBA16F, GM_FMT_RGB16F, GM_FMT_RG16F, GM_FMT_R16F,
    GM_FMT_RGBA32F, GM_FMT_RGB32F, GM_FMT_RG32F, GM_FMT_R32F,
    GM_FMT_R11G11B10F, GM_FMT_RGB9E5, GM_FMT_RGB10A2, GM_FMT_RGB565, GM_FMT_RGBA4,
    GM_FMT_RGB5A1,
    GM_FMT_RGBA8UI, GM_FMT_RGBA8I, GM_FMT_RGBA16UI, GM_FMT_RGBA16I,
    GM_FMT_RGBA32UI, GM_FMT_RGBA32I, GM_FMT_R32UI, GM_FMT_R32I, GM_FMT_RG32UI,
    GM_FMT_R8UI, GM_FMT_R16UI, GM_FMT_RGB10A2UI,
    GM_FMT_D16, GM_FMT_D24X8, GM_FMT_D24S8, GM_FMT_D32F, GM_FMT_D32F_S8, GM_FMT_S8,
    GM_FMT_L8, GM_FMT_A8, GM_FMT_LA8,
    /* block-compressed (sampling only) */
    GM_FMT_BC1_RGB, GM_FMT_BC1_RGBA, GM_FMT_BC2, GM_FMT_BC3,
    GM_FMT_BC1_SRGB, GM_FMT_BC1_SRGBA, GM_FMT_BC2_SRGB, GM_FMT_BC3_SRGB,
    GM_FMT_RGTC1, GM_FMT_RGTC1_SNORM, GM_FMT_RGTC2, GM_FMT_RGTC2_SNORM,
    GM_FMT_ETC2_RGB8, GM_FMT_ETC2_SRGB8, GM_FMT_ETC2_RGBA8, GM_FMT_ETC2_SRGBA8,
    GM_FMT_ETC2_RGB8A1,
    /* GL 1.x sized formats as llvmpipe stores them (Mesa st_format.c's first supported choice):
     * 16-bit luminance / luminance-alpha / intensity, 8-bit intensity, and the padded "X"
     * formats whose alpha reads 1 (channels 3) */
    GM_FMT_L16, GM_FMT_LA16, GM_FMT_I8, GM_FMT_I16, GM_FMT_LA4,
    GM_FMT_RGBX4, GM_FMT_RGB5X1, GM_FMT_RGB10X2, GM_FMT_RGBX16, GM_FMT_R3G3B2,
    GM_FMT_COUNT
} gm_format;

typedef enum gm_format_kind {
    GM_KIND_UNORM, GM_KIND_SNORM, GM_KIND_FLOAT, GM_KIND_UINT, GM_KIND_SINT,
    GM_KIND_DEPTH, GM_KIND_STENCIL, GM_KIND_DEPTH_STENCIL
} gm_format_kind;

typedef struct gm_format_info {
    const char *name;
    uint8_t bytes;        /* bytes per texel, or per 4x4 block when block != 0 */
    uint8_t channels;     /* 1..4 */
    uint8_t kind;         /* gm_format_kind */
    uint8_t srgb;         /* colour channels are sRGB-encoded */
    uint8_t block;        /* 4 for 4x4 block-compressed formats, 0 otherwise */
    uint8_t bits[4];      /* per-channel bits (r,g,b,a) for plain formats */
} gm_format_info;

/* The table of gm_format.c, read through gm_format_get: inline, since fragment operations and
 * texel reads look a format up several times per fragment (about 2 % of a frame as a call). */
extern const gm_format_info gm_format_table[GM_FMT_COUNT];
static inline const gm_format_info *gm_format_get(gm_format f)
{
    return &gm_format_table[(unsigned)f < GM_FMT_COUNT ? f : GM_FMT_NONE];
}
/* GL internal format (GL_RGBA8, GL_DEPTH24_STENCIL8, ...) -> gm_format; NONE if unknown. */
gm_format gm_format_from_gl(uint32_t gl_internal_format);
/* glReadPixels(GL_RGBA) of the format gives its alpha rather than 1 (RGBA-like, alpha,
 * luminance-alpha). */
bool gm_format_has_alpha(gm_format f);
/* A decoded texel of a colour buffer as glReadPixels(GL_RGBA) returns it: luminance and
 * intensity buffers read R = L (or I), G = B = 0 (Mesa's readpixels rebase; the driver's read-back
 * of an intensity buffer cleared to alpha 0 gives alpha 1); no alpha channel: alpha 1. */
void gm_format_readback_rgba(gm_format f, float rgba[4]);

/* Texel <-> RGBA.  Float formats give floats; UINT/SINT give integers stored in the
 * uint32 bit pattern of the float slots (use the _i variants); depth gives depth in
 * [0].  Conversion rules are llvmpipe's (see DESIGN.md). */
void gm_format_unpack_rgba(gm_format f, const void *texel, float rgba[4]);
void gm_format_unpack_rgba_i(gm_format f, const void *texel, uint32_t rgba[4]);
void gm_format_pack_rgba(gm_format f, const float rgba[4], void *texel);
/* As gm_format_pack_rgba, for render target writes (fragment outputs, resolves): llvmpipe
 * converts to 16-bit float targets rounding toward zero, uploads round to nearest even. */
void gm_format_pack_rgba_rt(gm_format f, const float rgba[4], void *texel);
void gm_format_pack_rgba_i(gm_format f, const uint32_t rgba[4], void *texel);
float gm_format_unpack_depth(gm_format f, const void *texel);
void gm_format_pack_depth(gm_format f, float z, void *texel);
/* z clamped to [0, 1] as a 24-bit unorm depth value (D24X8/D24S8's low 24 bits). */
uint32_t gm_format_depth24(float z);
uint8_t gm_format_unpack_stencil(gm_format f, const void *texel);
void gm_format_pack_stencil(gm_format f, uint8_t s, void *texel);

/* llvmpipe conversions exposed for the executor and for tests. */
uint8_t gm_float_to_unorm8(float f);
float gm_unorm8_to_float(uint8_t v);
float gm_srgb_to_linear(float c);
float gm_linear_to_srgb(float c);
uint16_t gm_float_to_half(float f);
float gm_half_to_float(uint16_t h);

/* ---- surfaces ----------------------------------------------------------------- */
/* One image: a render target, or one level/layer of a texture.  For multisampled
 * surfaces, the samples of a pixel are stored consecutively (pixel stride =
 * bytes * samples).  Memory is owned by the caller. */
typedef struct gm_surface {
    gm_format format;
    int width, height, depth;   /* depth: layers or 3D slices (>= 1) */
    int samples;                /* 1 for single-sampled */
    size_t row_stride;          /* bytes between rows */
    size_t layer_stride;        /* bytes between layers/slices */
    uint8_t *data;              /* row 0 = bottom */
} gm_surface;

/* The model's memory budget per image: a surface larger than this (a 16384x16384 RGBA32F
 * target is 4 GiB) is refused like one that cannot be allocated, and reported by the caller. */
#define GM_SURFACE_MAX_BYTES (1ull << 30)

/* Allocate/free a zeroed surface with tight strides (helper for callers and tests); -1 when a
 * size is out of range, over GM_SURFACE_MAX_BYTES or memory runs out. */
int gm_surface_alloc(gm_surface *s, gm_format f, int w, int h, int depth, int samples);
void gm_surface_free(gm_surface *s);
static inline uint8_t *gm_surface_texel(const gm_surface *s, int x, int y, int z)
{
    const gm_format_info *fi = gm_format_get(s->format);
    return s->data + (size_t)z * s->layer_stride + (size_t)y * s->row_stride +
           (size_t)x * fi->bytes * (size_t)(s->samples > 0 ? s->samples : 1);
}

/* ---- state -------------------------------------------------------------------- */
typedef struct gm_pipe_stencil_face {
    uint32_t func;          /* GL_NEVER..GL_ALWAYS */
    uint32_t fail_op, zfail_op, zpass_op;   /* GL_KEEP, GL_ZERO, GL_REPLACE, GL_INCR, ... */
    uint8_t ref, value_mask, write_mask;
} gm_pipe_stencil_face;

typedef struct gm_pipe_blend_rt {
    bool enable;
    uint32_t eq_rgb, eq_alpha;                 /* GL_FUNC_ADD, GL_MIN, ... */
    uint32_t src_rgb, dst_rgb, src_alpha, dst_alpha;  /* GL_ONE, GL_SRC_ALPHA, ... */
    uint8_t color_mask;                        /* bit0 R, bit1 G, bit2 B, bit3 A */
} gm_pipe_blend_rt;

typedef struct gm_pipe_state {
    /* rasterizer */
    uint32_t cull_face;       /* 0 (disabled), GL_FRONT, GL_BACK, GL_FRONT_AND_BACK */
    uint32_t front_face;      /* GL_CCW or GL_CW */
    uint32_t polygon_mode;    /* front faces: GL_FILL, GL_LINE or GL_POINT */
    uint32_t polygon_mode_back;   /* back faces (draw_pipe_unfilled.c; see DESIGN.md) */
    bool flatshade_first;     /* provoking vertex: GL_FIRST_VERTEX_CONVENTION */
    /* A draw compiled into a display list: Mesa's vbo_save turns its quads into indexed triangles
     * that keep the last vertex provoking, (v0,v1,v3)(v1,v2,v3), so smooth quads keep the v1-v3
     * diagonal there (gm_draw.c; tests/capture imm_lists) */
    bool quads_from_list;
    bool clip_origin_upper_left;   /* glClipControl(GL_UPPER_LEFT) */
    bool clip_depth_zero_to_one;   /* glClipControl(..., GL_ZERO_TO_ONE) */
    bool depth_clamp;              /* GL_DEPTH_CLAMP: no near/far clipping */
    uint8_t clip_plane_enable;     /* bit i: gl_ClipDistance[i] enabled */
    bool rasterizer_discard;
    float line_width;
    /* GL_LINE_STIPPLE with glLineStipple(factor, pattern) (gm_stipple.c) */
    bool line_stipple;
    uint16_t line_stipple_pattern;
    int32_t line_stipple_factor;   /* 1..256 */
    /* GL_POLYGON_STIPPLE: row r (window y mod 32, bottom row 0) of glPolygonStipple's pattern,
     * bit 31 = window x mod 32 == 0 (the pattern's first, most significant, bit) */
    bool polygon_stipple;
    uint32_t polygon_stipple_rows[32];
    float point_size;              /* used when the VS does not write gl_PointSize */
    bool program_point_size;       /* GL_PROGRAM_POINT_SIZE */
    bool point_sprite_upper_left;  /* GL_POINT_SPRITE_COORD_ORIGIN == GL_UPPER_LEFT */
    /* GL 2.1 point rules (compatibility context with GL_POINT_SPRITE off: gallium's
     * point_quad_rasterization = 0): a square of round(size) whole pixels around the
     * pixel holding the centre, not the quad of the point's extent. */
    bool legacy_points;
    bool polygon_offset_fill, polygon_offset_line, polygon_offset_point;
    float offset_factor, offset_units, offset_clamp;
    bool scissor_enable;
    int scissor[4];           /* x, y, w, h in window coordinates */
    float viewport[4];        /* x, y, w, h */
    float depth_range[2];     /* near, far */
    bool primitive_restart;
    bool primitive_restart_fixed_index;   /* GL_PRIMITIVE_RESTART_FIXED_INDEX */
    uint32_t restart_index;
    bool multisample;         /* GL_MULTISAMPLE (only matters on MSAA targets) */

    /* depth / stencil */
    bool depth_test, depth_write;
    uint32_t depth_func;
    bool stencil_test;
    gm_pipe_stencil_face stencil[2];   /* [0] front, [1] back */

    /* blending and output */
    gm_pipe_blend_rt blend[GM_PIPE_MAX_RT];
    float blend_color[4];
    bool framebuffer_srgb;    /* GL_FRAMEBUFFER_SRGB */
    bool dither;              /* ignored (llvmpipe does not dither) */
    bool color_logic_op; uint32_t logic_op;
    bool sample_coverage; float sample_coverage_value; bool sample_coverage_invert;
    bool alpha_to_coverage;
    uint32_t sample_mask;     /* GL_SAMPLE_MASK value (all ones when disabled) */
    bool alpha_to_one;        /* GL_SAMPLE_ALPHA_TO_ONE */
    bool sample_shading;      /* GL_SAMPLE_SHADING */
    float min_sample_shading; /* glMinSampleShading value */
    /* GL_LINE_SMOOTH / GL_POINT_SMOOTH (compatibility contexts, single-sampled): the draw
     * module's aaline / aapoint stages (gm_aa.c) */
    bool line_smooth, point_smooth;
} gm_pipe_state;

/* Fill s with GL's default state for a w x h drawable. */
void gm_pipe_state_default(gm_pipe_state *s, int w, int h);

typedef struct gm_pipe_framebuffer {
    gm_surface *color[GM_PIPE_MAX_RT];   /* NULL where no attachment */
    gm_surface *depth;                   /* depth or depth/stencil, or NULL */
    gm_surface *stencil;                 /* separate stencil or same as depth, or NULL */
    int width, height;
    bool winsys_orientation;   /* default framebuffer: llvmpipe rasterizes y-flipped */
} gm_pipe_framebuffer;

/* ---- shader interface ----------------------------------------------------------- */
typedef enum gm_interp_mode {
    GM_INTERP_SMOOTH = 0,      /* perspective-correct */
    GM_INTERP_FLAT,
    GM_INTERP_NOPERSPECTIVE,
} gm_interp_mode;

typedef enum gm_interp_loc {
    GM_LOC_CENTER = 0, GM_LOC_CENTROID, GM_LOC_SAMPLE
} gm_interp_loc;

/* Output of one vertex shader invocation. */
typedef struct gm_pipe_vertex {
    float pos[4];                                /* gl_Position (clip space) */
    float clip_dist[GM_PIPE_MAX_CLIP_DIST];      /* gl_ClipDistance */
    float point_size;                            /* gl_PointSize (if written) */
    /* glEdgeFlag(GL_FALSE) / edge flag array: in polygon mode GL_LINE/GL_POINT the edge
     * that starts at this vertex is not drawn.  Zero (the default) = edge drawn. */
    bool no_edge;
    float var[GM_PIPE_MAX_VARYINGS][4];          /* varyings, vec4 slots */
} gm_pipe_vertex;

/* Linkage information supplied with the shaders. */
typedef struct gm_pipe_shader_info {
    int num_varyings;                             /* slots used, <= GM_PIPE_MAX_VARYINGS */
    uint8_t interp[GM_PIPE_MAX_VARYINGS];         /* gm_interp_mode per slot */
    uint8_t loc[GM_PIPE_MAX_VARYINGS];            /* gm_interp_loc per slot */
    int num_clip_dist;                            /* gl_ClipDistance array size */
    int num_cull_dist;                            /* gl_CullDistance array size: in clip_dist[]
                                                     after the clip distances */
    bool vs_writes_point_size;
    bool fs_writes_depth;
    bool fs_may_discard;
    bool fs_uses_subgroups;       /* a warp never splits one of llvmpipe's 4x2 subgroups */
    bool fs_has_side_effects;     /* image/SSBO stores, atomics: no early depth test */
    bool fs_early_fragment_tests; /* layout(early_fragment_tests) */
    uint8_t rt_is_integer;        /* bit per render target: outputs are (u)int bits */
    bool dual_source;             /* output 1 of RT 0 is SRC1 colour */
    bool fs_writes_sample_mask;   /* gl_SampleMask written: sample_mask_out is used */
    bool fs_per_sample;           /* reads gl_SampleID/gl_SamplePosition: sample shading */
    /* llvmpipe's draw module maps positions a geometry shader emitted to the viewport without a
     * fused multiply-add (vertex shader outputs with one): set for geometry-shader draws. */
    bool viewport_unfused;
} gm_pipe_shader_info;

/* Run the vertex shader on `count` (1..32) vertices.  vertex_id[i] is gl_VertexID
 * (index value + base vertex), instance_id is gl_InstanceID (without base instance).
 * Must fill out[0..count-1].  Return 0, or non-zero to abort the draw. */
typedef int (*gm_pipe_vs_fn)(void *user, const int32_t *vertex_id, int count,
                             int32_t instance_id, gm_pipe_vertex *out);

/* Plane equations of one primitive, so the FS can evaluate interpolateAt*():
 * value(x,y) = a0 + dadx * x + dady * y, with x,y in raster space pixel units where
 * integer coordinates are pixel centres (llvmpipe's convention).  For smooth slots the
 * planes hold value/w and slot w_plane holds 1/w. */
typedef struct gm_pipe_planes {
    float a0[GM_PIPE_MAX_VARYINGS + 1][4];
    float dadx[GM_PIPE_MAX_VARYINGS + 1][4];
    float dady[GM_PIPE_MAX_VARYINGS + 1][4];  /* index 0 = position (z, 1/w) */
    const gm_pipe_shader_info *info;
    bool y_flipped;                           /* raster y = height - window y */
    int fb_height;
} gm_pipe_planes;

/* Evaluate slot `slot` at window position (wx, wy) (e.g. pixel centre + offset). */
void gm_pipe_planes_eval(const gm_pipe_planes *p, int slot, float wx, float wy,
                         float out[4]);

/* One fragment warp: 8 quads of 2x2 lanes.  Lane 4q+0..3 = (x,y), (x+1,y), (x,y+1'),
 * (x+1,y+1') where y+1' is the next raster row: window y + quad_dy (quad_dy = +1, or
 * -1 for y-flipped framebuffers: derivatives in y are (lane2-lane0)*quad_dy). */
typedef struct gm_pipe_fs_warp {
    int num_quads;                      /* 1..8 quads present */
    uint32_t live;                      /* lanes covering the primitive (not helpers) */
    uint32_t present;                   /* lanes of present quads (live | helpers) */
    int quad_dy;
    int32_t x[GM_PIPE_WARP_LANES], y[GM_PIPE_WARP_LANES];   /* window pixel coords */
    float frag_coord[4][GM_PIPE_WARP_LANES];   /* gl_FragCoord x, y, z, w (SoA) */
    bool front_facing;
    int32_t primitive_id;
    uint32_t sample_mask_in[GM_PIPE_WARP_LANES];   /* gl_SampleMaskIn (covered samples) */
    int sample_id;                      /* gl_SampleID when shading per sample, else -1 */
    float sample_pos[2];                /* gl_SamplePosition (window space, per sample) */
    float in[GM_PIPE_MAX_VARYINGS][4][GM_PIPE_WARP_LANES];  /* interpolated inputs */
    const gm_pipe_planes *planes;       /* for interpolateAt* */
    float point_coord[2][GM_PIPE_WARP_LANES];   /* gl_PointCoord (points only) */
    bool point;                         /* point_coord is set: the primitive is a point sprite */
    /* outputs, written by the FS callback */
    union { float f[4][GM_PIPE_WARP_LANES]; uint32_t u[4][GM_PIPE_WARP_LANES]; }
        color[GM_PIPE_MAX_RT + 1];      /* [GM_PIPE_MAX_RT] = SRC1 for dual source */
    float depth[GM_PIPE_WARP_LANES];    /* gl_FragDepth if fs_writes_depth */
    uint32_t discard;                   /* lanes killed by discard */
    uint32_t sample_mask_out[GM_PIPE_WARP_LANES];  /* gl_SampleMask (fs_writes_sample_mask) */
    /* antialiased line or point (gm_aa.c): a gm_aa_mode; in[aa_slot] is its coverage vec4 */
    uint8_t aa;
    int aa_slot;
} gm_pipe_fs_warp;

typedef enum gm_aa_mode { GM_AA_NONE = 0, GM_AA_LINE, GM_AA_POINT } gm_aa_mode;

/* For the FS callback, right after the shader and before the legacy alpha test: what the
 * draw module's aaline/aapoint shader adds to a warp of an antialiased line or point (alpha
 * of every non-integer colour output times the coverage; points discard outside their
 * circle).  No-op for other warps. */
void gm_pipe_aa_apply(gm_pipe_fs_warp *fw, uint8_t rt_is_integer);

/* Run the fragment shader on a warp.  The pipeline zero-initialises outputs and sets
 * depth[] to the interpolated depth before the call.  Return 0, or non-zero to abort. */
typedef int (*gm_pipe_fs_fn)(void *user, gm_pipe_fs_warp *warp);

/* ---- draws -------------------------------------------------------------------- */
typedef struct gm_pipe_draw {
    uint32_t mode;            /* GL_POINTS .. GL_PATCHES */
    int first, count;         /* vertices (or indices) */
    const void *indices;      /* NULL for non-indexed draws */
    uint32_t index_type;      /* GL_UNSIGNED_BYTE/SHORT/INT */
    int32_t base_vertex;
    int instance_count;       /* >= 1 */
    int32_t base_instance;
} gm_pipe_draw;

typedef struct gm_pipe_stats {
    uint64_t vs_invocations, primitives_in, primitives_clipped, primitives_culled;
    uint64_t fs_warps, fs_lanes_live, fs_lanes_helper;
    uint64_t fragments_passed;      /* samples that passed depth/stencil (occlusion) */
    uint64_t unsupported;           /* primitives of unsupported types, skipped */
    /* Fixed-function unit work, for telemetry counters (per lane/sample tested). */
    uint64_t depth_pass, depth_fail, stencil_pass, stencil_fail;
    uint64_t blend_ops;             /* lane x render-target writes with blending on */
    uint64_t quads_killed;          /* quads whose live lanes were all discarded */
} gm_pipe_stats;

typedef struct gm_pipe_context {
    gm_pipe_state state;
    gm_pipe_framebuffer fb;
    gm_pipe_shader_info info;
    gm_pipe_vs_fn vs; void *vs_user;
    gm_pipe_fs_fn fs; void *fs_user;
    gm_pipe_stats stats;
    /* llvmpipe's line stipple counter lives in the draw module's stipple stage and carries
     * over from draw to draw until a primitive resets it (gm_stipple.c) */
    float line_stipple_counter;
    char error[256];          /* last error message */
    gm_pipe_watch *watch;     /* pixel history observer (gm_pipe_watch.h), NULL: none */
} gm_pipe_context;

/* Execute a draw.  Returns 0 on success, -1 with ctx->error set on bad input or when a
 * shader callback aborts. */
int gm_pipe_draw_exec(gm_pipe_context *ctx, const gm_pipe_draw *d);

/* Clears (honour scissor and write masks like glClear*). */
void gm_pipe_clear_color(gm_pipe_context *ctx, int rt, const float rgba[4]);
void gm_pipe_clear_color_i(gm_pipe_context *ctx, int rt, const uint32_t rgba[4]);
void gm_pipe_clear_depth_stencil(gm_pipe_context *ctx, bool clear_depth, float depth,
                                 bool clear_stencil, uint8_t stencil);

/* Standard sample positions (llvmpipe: Direct3D standard patterns), in [0,1). */
int gm_pipe_sample_positions(int samples, float (*pos)[2]);
/* Resolve a multisampled colour surface into a single-sampled one: float average of the
 * samples (sum in sample order times 1/n), like llvmpipe's blit; integer formats: sample 0. */
int gm_pipe_resolve(const gm_surface *ms, gm_surface *dst);

/* ---- texture units ------------------------------------------------------------- */
#define GM_TEX_MAX_LEVELS 16

typedef enum gm_tex_target {
    GM_TEX_1D, GM_TEX_2D, GM_TEX_3D, GM_TEX_CUBE, GM_TEX_1D_ARRAY, GM_TEX_2D_ARRAY,
    GM_TEX_CUBE_ARRAY, GM_TEX_RECT, GM_TEX_BUFFER, GM_TEX_2D_MS, GM_TEX_2D_MS_ARRAY
} gm_tex_target;

/* How a depth texture's value d fills rgba before the texture swizzle (GL_DEPTH_TEXTURE_MODE of
 * compatibility contexts; core and ES contexts read (d, 0, 0, 1), GM_DEPTH_MODE_RED). */
enum { GM_DEPTH_MODE_RED, GM_DEPTH_MODE_LUMINANCE, GM_DEPTH_MODE_INTENSITY, GM_DEPTH_MODE_ALPHA };

typedef struct gm_tex_image {
    gm_tex_target target;
    gm_format format;
    int num_levels;                        /* levels present in level[] */
    gm_surface level[GM_TEX_MAX_LEVELS];   /* cube: depth = 6 * layers, face-major */
    int base_level, max_level;             /* GL_TEXTURE_BASE/MAX_LEVEL */
    uint8_t swizzle[4];                    /* 0..3 = R,G,B,A, 4 = ZERO, 5 = ONE */
    bool stencil_mode;                     /* GL_DEPTH_STENCIL_TEXTURE_MODE = STENCIL */
    uint8_t depth_mode;                    /* GL_DEPTH_TEXTURE_MODE: GM_DEPTH_MODE_* */
    /* buffer textures: level[0] is a width x 1 surface over the buffer range */
} gm_tex_image;

typedef struct gm_tex_sampler {
    uint32_t wrap_s, wrap_t, wrap_r;       /* GL_REPEAT, GL_CLAMP_TO_EDGE, ... */
    uint32_t min_filter, mag_filter;       /* GL_NEAREST ... GL_LINEAR_MIPMAP_LINEAR */
    float min_lod, max_lod, lod_bias;
    float border[4]; uint32_t border_i[4]; /* float or integer border colour */
    bool compare;                          /* GL_COMPARE_REF_TO_TEXTURE */
    uint32_t compare_func;
    float max_anisotropy;                  /* 2 and up: llvmpipe's EWA filter (gm_texture_aniso.c) */
    bool seamless_cube;                    /* always true in core (llvmpipe) */
} gm_tex_sampler;

/* Texture unit binding and sampling through the executor's interface
 * (gpu_model/gm_sampler_iface.h): gm_tex_sample_fn is a gm_sample_fn whose context is a
 * gm_tex_units table indexed by the request's unit. */
#define GM_TEX_MAX_UNITS 32
typedef struct gm_tex_unit {
    const gm_tex_image *image;      /* NULL: unit unbound, samples return (0,0,0,1) */
    const gm_tex_sampler *sampler;  /* NULL: GL default sampler state */
} gm_tex_unit;
typedef struct gm_tex_units {
    gm_tex_unit unit[GM_TEX_MAX_UNITS];
} gm_tex_units;

struct gm_sample_request;
union gm_texel_out;
void gm_tex_sample_fn(void *tex_units, const struct gm_sample_request *req,
                      union gm_texel_out *out);

/* Single-lane helpers (tests, CPU-side users). */
void gm_tex_sampler_default(gm_tex_sampler *s);
/* Filtered sample at explicit LOD (lod is the value after bias, before clamping). */
void gm_tex_sample_lod(const gm_tex_image *img, const gm_tex_sampler *smp,
                       const float coord[4], float lod, float ref, bool shadow,
                       const int32_t offset[3], float out[4]);
/* texelFetch: integer coordinates (layer last), level or sample; out-of-range -> 0. */
void gm_tex_fetch(const gm_tex_image *img, const int32_t coord[4], int level_or_sample,
                  float out[4]);
/* textureSize: returns number of components written. */
int gm_tex_size(const gm_tex_image *img, int lod, int32_t size[3]);
int gm_tex_query_levels(const gm_tex_image *img);
/* LOD from derivatives the way llvmpipe computes rho (exact length, max of x/y). */
float gm_tex_compute_lod(const gm_tex_image *img, const float ddx[3], const float ddy[3]);
/* One level of glGenerateMipmap as llvmpipe's blit makes it: layer dst_z of dst from layer
 * src_z of the level above, bilinear samples at the destination pixel centres. */
void gm_tex_blit_downsample(const gm_surface *src, int src_z, gm_surface *dst, int dst_z);
/* Decompress one 4x4 block of a block-compressed format into RGBA8 texels. */
int gm_tex_decode_block(gm_format f, const uint8_t *block, uint8_t rgba[16][4]);

#ifdef __cplusplus
}
#endif
#endif /* GM_PIPELINE_H */
