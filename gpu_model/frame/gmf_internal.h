/* Private structures of the frame runner (gpu_model/frame). */
#ifndef GMF_INTERNAL_H
#define GMF_INTERNAL_H

#include <signal.h>

#include "gmf_frame.h"
#include "gm_pipeline.h"
#include "gm_timing.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"

#define GMF_MAX_ATTR_CHUNKS 64
#define GMF_MAX_VAR_CHUNKS 96
#define GMF_MAX_BLOCKS 32

/* ------------------------------------------------------------------ model images */

typedef struct gmf_image_src {
    bool loaded;
    uint64_t hash;            /* of the state model's data last converted */
    const void *data;
    uint64_t size;
    uint64_t data_epoch;      /* r->tex_data_epoch when hashed: same data pointer and epoch, same bytes */
} gmf_image_src;

typedef struct gmf_texture {
    uint32_t share, name;
    uint32_t target;          /* GL target the texture was created with */
    gm_tex_image img;         /* level surfaces owned here */
    int faces;                /* 6 for cube maps */
    gmf_image_src src[6][SM_MAX_LEVELS];
    uint64_t checked_epoch;   /* r->tex_epoch when last synced with the state model */
    bool gpu_written;         /* drawn into or image-stored: differs from the uploads */
    bool complete;            /* for the sampler state of the last sync */
} gmf_texture;

typedef struct gmf_renderbuffer {
    uint32_t share, name;
    uint32_t internal_format;
    gm_surface surf;
} gmf_renderbuffer;

typedef struct gmf_default_fb {
    uint32_t ctx_id;
    int width, height;
    bool alpha;
    gm_surface color, ds;
} gmf_default_fb;

/* ------------------------------------------------------------------ programs */

/* A contiguous run of words of a variable that maps to one interface location. */
typedef struct gmf_chunk {
    int var;                  /* variable index in its program */
    int word;                 /* first word inside the variable */
    int n;                    /* words (1..4) */
    int location;             /* model location (varyings: slot; FS outputs: RT) */
    int comp;                 /* first component inside the location */
    gm_scalar scalar;
    int dfirst;               /* doubles: first double component of the vector in this chunk
                               * (0, or 2 for the second location of a dvec3/dvec4); 0 else */
    bool is64;                /* the chunk's words are doubles (two words each, low first) */
    uint8_t interp;           /* a block member's own flat (1) / noperspective (2), else 0 */
} gmf_chunk;

/* Where a VS input's data comes from. */
enum gmf_attr_src { GMF_ATTR_GENERIC, GMF_ATTR_LEGACY };

typedef struct gmf_attr {
    gmf_chunk c;
    enum gmf_attr_src src;
    int index;                /* generic attribute index (driver location) or legacy slot */
    const char *name;
} gmf_attr;

typedef struct gmf_block_map {
    int model_binding;      /* glslang's (AUTO_MAP_BINDINGS fills in missing ones) */
    bool explicit_binding;  /* the source gives layout(binding = N): model_binding is N */
    bool storage;
    bool atomic;            /* atomic counters: GL_ATOMIC_COUNTER_BUFFER binding = model_binding */
    char name[64];
} gmf_block_map;

typedef struct gmf_prog {
    uint32_t share, name, link_count;
    bool ok;
    char error[512];
    gm_compile_result cr;
    gm_program *vs, *fs;
    gm_warp *vw, *fw;         /* the executor's warps (no timing model) */
    /* Timing model: one warp per in-flight slot of the runner's rings, per stage
     * (created on first use, gmf_prog_pool_warp). */
    gm_warp **pool[2];
    int n_pool[2];
    uint8_t threadable;   /* gmf_threads.c: 0 not decided, 1 may run threaded, 2 may not */
    bool has_other_stages;
    /* VS */
    gmf_attr attrs[GMF_MAX_ATTR_CHUNKS];
    int n_attrs;
    int vid_var, vindex_var, iid_var, iindex_var, basev_var, basei_var, drawid_var;
    int pos_var, pos_off, psize_var, psize_off, clip_var, clip_off, n_clip;
    int cull_var, cull_off, n_cull;   /* gl_CullDistance (vertex shader without GS/TES) */
    /* gl_Layer / gl_ViewportIndex written by the vertex shader (GL_AMD_vertex_shader_layer,
     * _viewport_index; -1: not written), for a fragment shader that reads them */
    int vs_layer_var, vs_layer_off, vs_vpi_var, vs_vpi_off;
    /* user clip planes against gl_ClipVertex (clipv_var, the upgrade's glr_ClipVertex) or
     * gl_Position of the last vertex stage, when it writes no clip or cull distance: the vertex
     * shader without GS/TES, or the geometry shader (gmf_geometry.c; gmf_user_clip.c) */
    int clipv_var;
    bool user_clip;
    gmf_chunk vs_out[GMF_MAX_VAR_CHUNKS];
    int n_vs_out;
    /* FS */
    gmf_chunk fs_in[GMF_MAX_VAR_CHUNKS];
    int n_fs_in;
    int fragcoord_var, frontfacing_var, pointcoord_var, primid_var, fragdepth_var;
    int sampleid_var, samplepos_var, maskin_var, maskout_var;   /* -1 when unused */
    gmf_chunk fs_out[GMF_MAX_VAR_CHUNKS];
    int n_fs_out;
    bool broadcast_color0;    /* gl_FragColor: written to every draw buffer */
    bool fs_writes_alpha0;    /* some store may write colour output 0's alpha (alpha test) */
    gm_pipe_shader_info info;
    bool uses_compat_uniforms;
    char compat_uniform[64];
    bool ff_vs, ff_fs;        /* stages generated from fixed-function state (gmf_ffunc.c) */
    bool ff_point_size;       /* the generated vertex stage writes the attenuated size */
    bool spirv;               /* SPIR-V shaders (gmf_spirv.c): no names, explicit layout only */
    bool ppo;                 /* a program pipeline's stages (gmf_pipeline.c) */
    uint32_t ppo_prog[5];     /* their programs: VS, TCS, TES, GS, FS (0: none) */
    /* uniform / storage blocks per stage (0 VS/CS, 1 FS, 2 GS): model binding -> block name */
    gmf_block_map blocks[3][GMF_MAX_BLOCKS];
    int n_blocks[3];
    /* Geometry shader (gmf_geometry.c): NULL without one; its tables in gsx. primid_slot: the
     * hidden flat varying carrying the GS's gl_PrimitiveID to the FS (-1: none). */
    gm_program *gs;
    struct gmf_gs *gsx;
    /* Tessellation (gmf_tess.c): NULL without a TES; tables in tessx. */
    gm_program *tcs, *tes;
    struct gmf_tess *tessx;
    int primid_slot;
    /* gl_Layer / gl_ViewportIndex read by the FS (-1: not read) and the hidden flat varyings
     * that carry the geometry shader's values to it (layer_slot, vpi_slot; -1: none, the FS
     * reads 0). Mesa passes them as ordinary varyings: the written value, unclamped. */
    int fs_layer_var, fs_vpi_var, layer_slot, vpi_slot;
    /* gl_ClipDistance read by the fragment shader (no geometry shader): the VS's clip distances
     * travel in hidden smooth varyings from fs_clip_slot on, as llvmpipe interpolates them. */
    int fs_clip_var, fs_clip_slot, fs_clip_n;
    int fs_cull_var, fs_cull_slot, fs_cull_n;   /* the same for gl_CullDistance */
    /* Compute programs (gmf_compute.c): vs/fs are NULL, vw is warp 0 of cs so the shared
     * environment setup works unchanged, blocks[0] holds the compute shader's blocks. */
    gm_program *cs;
    gm_warp **cs_pool;
    int n_cs_pool;
} gmf_prog;

/* Names the program asked the driver for (glGetAttribLocation, glGetUniformBlockIndex, ...). */
typedef struct gmf_name_rec {
    uint32_t share, program;
    uint32_t kind;            /* GLR command id of the query */
    char *name;
    int32_t value;
} gmf_name_rec;

/* A client-memory vertex array recorded for the next draw (GLR_PSEUDO_CLIENT_ARRAY). */
typedef struct gmf_client_array {
    bool set;
    const uint8_t *data;
    uint64_t size;
    uint64_t first;
    int32_t stride;
} gmf_client_array;

/* ------------------------------------------------------------------ the runner */

typedef struct gmf_buffer_binding {
    void *data;
    size_t size;
} gmf_buffer_binding;

/* A warp in flight in the timing model: the numbers the observer reports for it, and where
 * its outputs go when the pipeline completes it. Passed as the submit `user` pointer. */
typedef struct gmf_flight {
    gm_warp *w;
    gm_stage stage;
    uint64_t draw;
    uint64_t warp;            /* serial in its draw and stage */
    uint64_t frame_warp;
    uint32_t program;
    const char *file;
    /* VS: gl_VertexID and gl_InstanceID per lane; FS: window pixel x, y */
    int32_t lane_x[GM_LANES], lane_y[GM_LANES];
    gm_pipe_vertex *vout;     /* VS: out[0..count-1] of the callback */
    int count;
    gm_pipe_fs_warp *fw;      /* FS: the pipeline's warp */
    bool retired;
    gm_run_status status;
} gmf_flight;

/* At most this many warps per stage in flight: the pipeline queues that many shader calls
 * before it must complete the oldest (gm_pipe_internal.h, GM_PIPE_QUEUED). */
#define GMF_MAX_FLIGHTS 256

/* Warps in flight of one stage, oldest first: f[head .. head+n) modulo the runner's
 * flight_max. Slot k runs on the program's pool warp k. */
typedef struct gmf_ring {
    gmf_flight f[GMF_MAX_FLIGHTS];
    int head, n;
} gmf_ring;

/* Layered attachments of the framebuffer last built (gmf_build_framebuffer): per view slot
 * (colour 0..GM_PIPE_MAX_RT-1, then depth, stencil) the attachment's whole level (NULL: not
 * layered) and the view the pipeline draws through; layers: the smallest layer count among
 * them (0: nothing layered). gmf_fb_select_layer points the views at one layer. */
typedef struct gmf_layered {
    const gm_surface *level[GM_PIPE_MAX_RT + 2];
    gm_surface *view[GM_PIPE_MAX_RT + 2];
    int layers;
} gmf_layered;

/* Everything a draw needs while the pipeline calls back. */
typedef struct gmf_draw_ctx {
    gmf_runner *r;
    const struct sm_context *c;
    const struct sm_context_state *st;
    const struct sm_vao *vao;
    gmf_prog *p;
    int32_t base_instance;
    int32_t base_vertex;
    gm_tex_units units;
    /* per (unit) the image and sampler resolved for the request's target */
    gm_tex_sampler samplers[GM_TEX_MAX_UNITS];
    gmf_buffer_binding bufs[3][GMF_MAX_BLOCKS];   /* per stage, by slot in p->blocks */
    gm_env env[3];                                 /* VS, FS, GS */
    uint64_t warps[2];
    uint64_t gs_warps;        /* geometry warps of the draw (gmf_geometry.c) */
    uint64_t tcs_warps, tes_warps;   /* tessellation warps of the draw (gmf_tess.c) */
    /* timing model: the draw's vertex, fragment and geometry batches (-1 until a warp is
     * submitted) and the texture name per unit (cache tags survive rebinding) */
    int batch[3];
    int tess_batch[2];        /* timing model: the draw's TCS and TES batches (-1: none) */
    uint32_t tex_ids[GM_TEX_MAX_UNITS];
    gmf_event *ev;
    bool failed;
    /* legacy alpha test (gmf_ffunc.c): on, GL function, reference, in 8-bit precision */
    bool alpha_test, alpha_unorm8;
    bool clamp_vertex_color;  /* GL_CLAMP_VERTEX_COLOR in effect: VS colour outputs to [0, 1] */
    uint32_t alpha_func;
    float alpha_ref;
    float ucp[GM_PIPE_MAX_CLIP_DIST][4];   /* user clip planes of the draw (gmf_user_clip.c) */
    bool thr;                 /* shaded on several threads (gmf_threads.c) */
    int8_t tex_ahead;         /* timing model runs TEX ahead: 0 not yet, 1 yes, -1 never
                                 (this draw; gmf_tex_ahead.c) */
} gmf_draw_ctx;

/* gmf_shade.c: is this output one of the vertex colours GL_CLAMP_VERTEX_COLOR clamps? */
bool gmf_color_output(const gm_var_info *vi);
/* GL_CLAMP_VERTEX_COLOR's clamp as llvmpipe's draw module computes it (lp_build_clamp: SSE
 * min(x, 1) then max(., 0), each returning its second operand on NaN): NaN becomes 1
 * (piglit gl-1.0-fpexceptions, a NaN colour) */
static inline float gmf_clamp_color_lp(float x)
{
    float m = x < 1.0f ? x : 1.0f;
    return m > 0.0f ? m : 0.0f;
}

/* Clip or cull distances (`have` of them) that the fragment shader's fs_var reads: hidden smooth
 * varyings from *slot on, *count of them (gmf_program.c) */
void gmf_hidden_varyings(gmf_prog *p, const gm_program *fs, int fs_var, int have, int *slot,
                         int *count);
/* Does the program's `stage` source, as compiled, name identifier `id` (gmf_program.c)? */
bool gmf_stage_source_names(const gmf_prog *p, gm_stage stage, const char *id);
/* gmf_user_clip.c: the draw's user clip planes (d->ucp), and the distances of a vertex's
 * gl_ClipVertex or gl_Position to them */
void gmf_user_clip_setup(gmf_draw_ctx *d);
void gmf_user_clip_dist(const gmf_draw_ctx *d, const float v[4], float out[GM_PIPE_MAX_CLIP_DIST]);

struct gmf_runner {
    struct sm_state *sm;
    gmf_surface_desc *surfaces;
    int n_surfaces;
    struct { uint32_t ctx_id; int samples; } *win;   /* multisampled windows (gmf_window.c) */
    int n_win;
    int default_w, default_h;
    gmf_default_fb *fbs;
    int n_fbs;
    gmf_texture **tex;
    int n_tex, cap_tex;
    gmf_renderbuffer **rbs;
    int n_rbs, cap_rbs;
    gmf_prog **progs;
    struct gmf_arb_cache *arb;   /* ARB assembly programs (gmf_arb.c) */
    int n_progs, cap_progs;
    gmf_name_rec *names;
    int n_names, cap_names;
    gmf_client_array client[SM_MAX_VERTEX_ATTRIBS];
    gmf_client_array client_legacy[SM_LA_COUNT]; /* fixed-function arrays (GLR_CLIENT_ARRAY_LEGACY_BASE + slot) */
    bool client_used;         /* a draw ran since the client arrays were recorded */
    uint64_t tex_epoch;
    /* Bumped by whatever may replace a texture image's data in the state model (uploads, storage,
     * deletion, copies, mipmap generation, checkpoint restores) but not by bindings and parameters:
     * the state model never rewrites an image's bytes in place, so an image whose data pointer and
     * size are those last hashed, under the same data epoch, holds the same bytes (no re-hash of
     * every render target at every draw after a glBindTexture). Never restored: only grows. */
    uint64_t tex_data_epoch;
    uint64_t tex_hashed_bytes;   /* image bytes the texture syncs hashed (for tests) */
    /* observer */
    gmf_observer_fn obs;
    void *obs_ctx;
    bool stopped;
    const volatile sig_atomic_t *abort_flag;   /* gmf_set_abort: nonzero stops the run */
    gmf_issue cur_issue;      /* executor path: draw/stage/warp of the running warp;
                                 timing model: filled from the issuing warp's gmf_flight */
    gmf_draw_ctx *cur_draw;
    uint64_t frame_warps;
    /* timing model (NULL when off); a warp retired with a runtime error since the flag
     * was last cleared; the warps in flight per stage (VS, FS), at most flight_max each */
    gm_timing *tm;
    bool tm_warp_error;
    gmf_ring ring[2];
    int flight_max;
    gmf_layered lfb;          /* layered attachments of the draw's framebuffer */
    /* telemetry hooks (gmf_hooks.c): pipeline statistics already delivered as unit counts,
     * and the SM of the last issued instruction (fixed-function work is attributed there) */
    gmf_hooks hooks;
    bool has_hooks;
    struct gmf_thr *thr;      /* worker threads for shading (gmf_threads.c) */
    gm_pipe_stats units_sent;
    int last_sm;
    /* bookkeeping */
    gmf_totals totals;
    char **unsup_names;
    uint64_t *unsup_counts;
    int n_unsup, cap_unsup;
    gm_pipe_context pipe;
    struct gmf_queries *queries;
    struct gmf_ppo_cache *ppc;     /* program pipeline objects (gmf_pipeline.c) */
    bool programs_only;            /* gmf_set_programs_only: draws compile their program, draw nothing */
    bool skip_draws;               /* gmf_set_skip_draws (gmf_skip.c) */
    struct gmf_ff_cache *ffc;      /* generated fixed-function programs (gmf_ffunc.c) */   /* query objects, conditional rendering (gmf_queries.c) */
    struct gmf_xfb *xfb;           /* transform feedback write positions (gmf_xfb.c) */
    struct glr_call xfb_draw;      /* the draw a glDrawTransformFeedback* stands for */
    struct gmf_imm *imm;           /* glBegin/glEnd vertices (gmf_immediate.c) */
    struct gmf_vbo_format *vbo_fmt;   /* Mesa's immediate-mode vertex format (gmf_vbo_format.c) */
    struct gmf_pix *pix;           /* the pixel rectangle being drawn (gmf_rasterpix.c) */
    bool from_snapshot;            /* the frame began from a snapshot (gmf_feed_initial_state):
                                      a display list it lacks may have existed before */
    struct glr_call imm_draw;      /* the draw a glEnd / glRect* stands for */
    const struct sm_vao *vao_override;   /* that draw's vertex arrays (NULL: the context's VAO) */
    struct gmf_lists *lists;       /* display lists (gmf_lists.c) */
    struct { uint32_t ctx_id, mode; } rmode[8];   /* glRenderMode per context (gmf_rendermode.c) */
    int n_rmode;
};

/* gmf_runner.c */
void gmf_note(gmf_event *ev, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Notes made from here on are counted for r (after a nested gmf_feed, which ends the count). */
void gmf_note_runner_set(gmf_runner *r);

/* gmf_immediate.c: glBegin/glEnd and glRect* as draws. gmf_imm_cmd follows every applied call
 * (glBegin opens a pair; glVertex*, glVertexAttrib*(0), glArrayElement add a vertex with the
 * current values). gmf_imm_draw_call: for glEnd / glRect*, out = a glDrawArrays over the
 * vertices with r->vao_override and the client arrays pointed at them (true), to be run as any
 * draw and followed by gmf_imm_draw_done, which puts the client arrays back. */
void gmf_imm_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
/* gmf_imm_open: a glBegin of the context awaits its glEnd. gmf_imm_rejects (gmf_beginend.c): the
 * command is not allowed between glBegin and glEnd (GL_INVALID_OPERATION, no effect). */
bool gmf_imm_open(const gmf_runner *r, uint32_t ctx_id);
bool gmf_imm_rejects(const gmf_runner *r, const struct glr_call *call, uint32_t k);
/* gmf_copies.c: the read framebuffer's colour (read buffer) or depth/stencil surface, resolved
 * into *tmp when multisampled (the caller frees tmp); NULL when not modelled. */
gm_surface *gmf_read_surface(gmf_runner *r, const struct sm_context *c, bool depth,
                             gm_surface *view, gm_surface *tmp, gmf_event *ev);
/* gmf_rasterpix.c: glDrawPixels, glBitmap, glCopyPixels at the raster position as a draw of a
 * window rectangle (like gmf_imm_draw_call: out is the glDrawArrays to run, then
 * gmf_pix_draw_done); gmf_pix_pipe_state / gmf_pix_upload adjust that draw's pipeline state and
 * uniforms; gmf_pix_sample gives the image's unit (true) to the sampler. */
#define GMF_PIX_UNIT (GM_TEX_MAX_UNITS - 1)
struct gmf_pix;
bool gmf_pix_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k, struct glr_call *out,
                       gmf_event *ev);
void gmf_pix_draw_done(gmf_runner *r);
int gmf_pix_kind(const gmf_runner *r);
void gmf_pix_pipe_state(gmf_runner *r, gm_pipe_state *ps);
void gmf_pix_upload(gmf_runner *r, gm_program *fs);
bool gmf_pix_sample(gmf_runner *r, unsigned unit, gm_tex_unit *tu);
void gmf_pix_free(gmf_runner *r);
bool gmf_imm_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k, struct glr_call *out,
                       gmf_event *ev);
void gmf_imm_draw_done(gmf_runner *r);
/* glMaterial between the vertices of the pair being drawn: the GM_FF_CM_* bits of the material
 * values that vary per vertex on `side` (the fixed-function vertex stage reads them as
 * attributes), and the hook that fills those attributes once the draw's program is known. */
uint8_t gmf_imm_vertex_material(const gmf_runner *r, int side);
bool gmf_imm_drawing(const gmf_runner *r);   /* the draw running is a glBegin/glEnd or glRect* */
void gmf_imm_bind_program(gmf_runner *r, const gmf_prog *p);
void gmf_imm_free(gmf_runner *r);
/* gmf_vbo_format.c: follows every executed call to know which legacy slots (enum
 * sm_legacy_slot) the last glBegin/glEnd or glRect* draw of the context took per vertex, as
 * Mesa's vbo module decides; gmf_vbo_format_varies answers true when it does not know. */
void gmf_vbo_format_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k);
bool gmf_vbo_format_varies(const gmf_runner *r, uint32_t ctx_id, int slot);
void gmf_vbo_format_free(gmf_runner *r);

/* gmf_lists.c: display lists. gmf_lists_compile sees every record first: glNewList .. glEndList
 * compile a list; true when the record is consumed (compiled in GL_COMPILE mode, or the
 * glNewList/glEndList themselves). gmf_lists_cmd runs glCallList(s), glListBase, glDeleteLists
 * (true for those). gmf_lists_keep: a list the snapshot kept (stream-encoded calls); 1 kept,
 * 0 corrupt (skipped), -1 out of memory. */
/* feed: the runner's gmf_feed, through which a list's calls run (a parameter, so that the lists
 * are below the hub rather than in a circle with it). */
typedef gmf_status (*gmf_feed_fn)(gmf_runner *r, const struct glr_call *c, uint64_t record, gmf_event *ev);
bool gmf_lists_compile(gmf_runner *r, const struct glr_call *c, gmf_event *ev, gmf_feed_fn feed);
bool gmf_lists_cmd(gmf_runner *r, const struct glr_call *c, uint32_t k, gmf_event *ev, gmf_feed_fn feed);
/* Whether the call being fed comes from a display list glCallList(s) runs. */
bool gmf_lists_executing(const gmf_runner *r);
int gmf_lists_keep(gmf_runner *r, uint32_t ctx_id, uint32_t name, const void *data, size_t size);
void gmf_lists_free(gmf_runner *r);

/* ---- gmf_arb.c: ARB assembly programs (GL_ARB_vertex_program / GL_ARB_fragment_program) */
/* Whether a draw without a GLSL program runs ARB programs (either target enabled). */
bool gmf_arb_enabled(const struct sm_context *c);
/* The compiled program of the draw's ARB stages (a stand-in for a fixed-function stage), with
 * the synthetic sm_program it was compiled from in *sp; NULL after a note saying why, or with
 * *invalid set (no note) when a program string is invalid: GL draws nothing then. */
gmf_prog *gmf_arb_prog_get(gmf_runner *r, const struct sm_context *c, const struct sm_program **sp,
                           bool *invalid, gmf_event *ev);
/* Feeds program.env / program.local and the texture units (after gmf_prog_upload_uniforms). */
void gmf_arb_upload(const struct sm_context *c, gmf_prog *p);
/* The translated GLSL of the enabled ARB program of a stage (0 vertex, 1 fragment), malloc'd,
 * or NULL with err: for the fixed-function source selection. */
char *gmf_arb_stage_source(const struct sm_context *c, int stage, char *err, size_t err_size);
void gmf_arb_free(gmf_runner *r);
const gmf_name_rec *gmf_find_name(const gmf_runner *r, uint32_t share, uint32_t program,
                                  uint32_t kind, const char *name);

/* gmf_program.c */
gmf_prog *gmf_prog_get(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp);
/* A program from given stage sources (sp: the GL program whose attribute bindings apply, or
 * NULL; label names it in errors); counted like gmf_prog_get's. NULL when out of memory. */
gmf_prog *gmf_prog_from_sources(gmf_runner *r, const struct sm_context *c,
                                const struct sm_program *sp, const gm_shader_source *src, int n,
                                const char *label);
void gmf_prog_free(gmf_prog *p);
/* The program's warp for in-flight slot k of a stage (0 VS, 1 FS), created on first use;
 * NULL when out of memory. */
gm_warp *gmf_prog_pool_warp(gmf_prog *p, int stage, int k);
void gmf_prog_upload_uniforms(gmf_runner *r, const struct sm_context *c,
                              const struct sm_program *sp, gmf_prog *p, gmf_event *ev);
/* The subroutine selections and indices (gmf_subroutine.c; called by gmf_prog_upload_uniforms). */
void gmf_prog_upload_subroutines(const struct sm_context *c, const struct sm_program *sp, gmf_prog *p);
/* One state-model uniform value as the model's words for an element of `type`; false when
 * the shapes differ. */
bool gmf_uniform_words(const gm_program *gp, int type, const struct sm_uniform *u, uint32_t *words,
                       int max);
/* Program pipeline objects (gmf_pipeline.c): the model program of the bound pipeline's stages
 * (cached; NULL with a note), each stage's uniforms from its own program, the cache's end. */
#define GMF_PPO_STAGES 5
gmf_prog *gmf_ppo_prog(gmf_runner *r, const struct sm_context *c, uint32_t pipeline, gmf_event *ev);
void gmf_ppo_upload(const struct sm_context *c, gmf_prog *p, gmf_event *ev);
void gmf_ppo_free(gmf_runner *r);
/* One stage's uniforms from program sp, by the names sp asked for (gmf_program.c). */
void gmf_prog_upload_stage(const struct sm_context *c, const struct sm_program *sp, gm_program *gp,
                           gmf_event *ev);
/* One output of a transform feedback capture (gmf_xfb.c): a variable's words (var >= 0) or
 * skipped words (var < 0). */
typedef struct gmf_xfb_out {
    int buffer;
    int var, word, n;         /* n words from `word` of variable var */
    uint64_t offset;          /* byte offset inside the buffer's vertex */
} gmf_xfb_out;
#define GMF_XFB_MAX_OUTS 64
/* A SPIR-V vertex module's capture layout from its XfbBuffer/XfbStride/Offset decorations:
 * 0, or -1 with a note on d->ev. */
int gmf_spirv_xfb_layout(gmf_draw_ctx *d, gmf_xfb_out *outs, int *n_outs, uint64_t *stride);
/* SPIR-V programs (gmf_spirv.c): whether sp's shaders are SPIR-V modules; their specialized
 * modules for the compute stage or for the others, into cr (0, or -1 with cr->log); uniform
 * values set by location. */
bool gmf_spirv_program(const struct sm_program *sp);
int gmf_spirv_compile(const struct sm_program *sp, bool compute, gm_compile_result *cr);
void gmf_spirv_upload_uniforms(const struct sm_program *sp, gmf_prog *p, gmf_event *ev);
/* The driver's generic attribute index of a VS input (name). */
int gmf_prog_attrib_index(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                          const char *name, int model_location);

/* The compute program's warp k (k = 0 is p->vw), created on first use; NULL: out of memory. */
gm_warp *gmf_prog_cs_warp(gmf_prog *p, int k);

/* gmf_compute.c: image load/store/atomics through the glBindImageTexture units into the model's
 * textures (an env image callback, for dispatches and draws; ctx is the gmf_draw_ctx). */
void gmf_image_access(void *ctx, const gm_image_request *req, gm_texel_out *out);
/* gmf_compute.c: glDispatchCompute / glDispatchComputeIndirect in the model. */
void gmf_dispatch(gmf_runner *r, const struct glr_call *call, uint32_t cmd, gmf_event *ev);

/* gmf_shade.c */
/* The executor's observer when no timing model runs (ctx: the runner; r->cur_issue names the
 * running warp): counts the instruction and calls the frame observer. */
int gmf_executor_observe(void *ctx, gm_warp *w, const gm_issue *is);
int gmf_vs_cb(void *user, const int32_t *vertex_id, int count, int32_t instance_id,
              gm_pipe_vertex *out);
int gmf_fs_cb(void *user, gm_pipe_fs_warp *warp);
void gmf_setup_env(gmf_draw_ctx *d);
/* Buffer ranges of the blocks of `stage` (0: VS or CS, 1: FS) into d->bufs[stage]; shared
 * by draws and dispatches. */
void gmf_bind_blocks(gmf_draw_ctx *d, int stage);
/* Timing model: per-draw setup and, after the draw, its batches closed and their cycle
 * counts put into the event (gmf_timing.c). */
int gmf_timing_init(gmf_runner *r, char *err, size_t err_size);
/* The caller's abort flag is set (gmf_set_abort): stops the run (r->stopped) and says so. Checked
 * before each record and each warp, so a stop takes at most one warp's time (a warp's loops
 * end after GM_LOOP_ITERATION_LIMIT iterations). */
static inline bool gmf_aborted(gmf_runner *r)
{
    if (r->abort_flag && *r->abort_flag)
        r->stopped = true;
    return r->stopped;
}
/* The timing model's issue observer for draws and dispatches (ctx: the runner; ev->user: the
 * warp's gmf_flight): telemetry issue hook, then the frame observer. */
int gmf_timing_observe(void *ctx, const gm_timing_issue *ev);
void gmf_timing_draw_begin(gmf_draw_ctx *d);
void gmf_timing_draw_end(gmf_draw_ctx *d);
/* Concurrent warps (the pipeline's deferred shading, gm_pipe_internal.h):
 * next_warp: the pool warp the stage's next flight runs on (NULL: out of memory, noted,
 * everything dropped);
 * queue: submits it (gm_warp_begin done, inputs set) with its lanes and output place and
 * returns GM_PIPE_QUEUED / GM_PIPE_QUEUED_FULL, or 1 (failed: everything dropped);
 * complete: runs the model until the stage's oldest flight retired and returns it (its
 * outputs to be read before gmf_timing_release), or NULL (runtime error noted, or the
 * observer stopped the run: everything dropped). */
gm_warp *gmf_timing_next_warp(gmf_draw_ctx *d, gm_stage stage);
int gmf_timing_queue(gmf_draw_ctx *d, gm_warp *w, gm_stage stage, const int32_t *lane_x,
                     const int32_t *lane_y, gm_pipe_vertex *vout, int count,
                     gm_pipe_fs_warp *fw);
gmf_flight *gmf_timing_complete(gmf_draw_ctx *d, gm_stage stage);
void gmf_timing_release(gmf_draw_ctx *d, gm_stage stage);
/* Geometry warps (their flights live in gmf_geometry.c's window, not in a ring):
 * submit_gs: submits w (gm_warp_begin done, inputs and lanes of f set) to the draw's
 * geometry batch, numbering f like a draw's warp; 0, or -1 (noted, everything dropped);
 * wait: runs the model until f retired; 0, or -1 (runtime error noted, or the observer
 * stopped the run: everything dropped). */
int gmf_timing_submit_gs(gmf_draw_ctx *d, gmf_flight *f, gm_warp *w);
/* A tessellation warp (stage TCS or TES, serial `warp` in its draw and stage) into the draw's
 * batch of that stage; the caller fills f->lane_x/lane_y and waits (gmf_timing_wait). */
int gmf_timing_submit_tess(gmf_draw_ctx *d, gmf_flight *f, gm_warp *w, gm_stage stage,
                           uint64_t warp);
int gmf_timing_wait(gmf_draw_ctx *d, gmf_flight *f, const char *what);
/* Drops every flight: runs the model until every submitted warp retired (unless the observer
 * stopped the run), so none outlives the draw that owns its inputs and outputs. */
void gmf_timing_drain(gmf_draw_ctx *d);

/* gmf_hooks.c: telemetry deliveries (no-ops without hooks). */
void gmf_hooks_draw_begin(gmf_runner *r, const gmf_event *ev);
void gmf_hooks_draw_end(gmf_runner *r, const gmf_event *ev);
/* Delivers the pipeline statistics grown since the last delivery as unit counts. */
void gmf_hooks_units(gmf_runner *r, uint32_t ctx_id);
/* The pipeline statistics were reset (new draw): nothing of them is delivered yet. */
void gmf_hooks_units_reset(gmf_runner *r);

/* gmf_geometry.c: geometry shaders. gmf_gs_build: after build_vs, with p->gs and p->fs decoded:
 * VS outputs relinked to the GS inputs by name, the GS's interface tables, its outputs linked
 * to the FS by name (replaces link_varyings). gmf_gs_finish: after build_fs: the pipeline's
 * linkage info from the GS. gmf_gs_draw: one draw (all instances) through VS, primitive
 * assembly, GS warps, then the GS's output primitives through the pipeline. */
void gmf_gs_build(gmf_prog *p);
void gmf_gs_finish(gmf_prog *p);
void gmf_gs_free(gmf_prog *p);
int gmf_gs_draw(gmf_draw_ctx *d, const gm_pipe_draw *pd);
/* gmf_geometry.c, shared with gmf_tess.c: GL's name matching of producer outputs to
 * consumer inputs (returns the chunks kept), and the VS on n vertex ids of one instance. */
int gmf_gs_relink(const gm_program *producer, const gm_program *consumer, gmf_chunk *ch, int n);
/* The GS on a list of already shaded vertices (tessellation output: points, lines or
 * triangles as `mode`), its output drawn; prim_base: gl_PrimitiveIDIn of the first. */
int gmf_gs_draw_list(gmf_draw_ctx *d, const gm_pipe_vertex *verts, int n, uint32_t mode,
                     int32_t prim_base);
int gmf_shade_vertices(gmf_draw_ctx *d, const int32_t *ids, int n, int32_t inst,
                       gm_pipe_vertex *out);
/* gmf_tess.c: tessellation. gmf_tess_build: after build_vs, with p->tes (and p->tcs) decoded:
 * the stages' tables, VS outputs relinked to the first tessellation stage, TES outputs to the
 * FS. gmf_tess_finish: after build_fs: the pipeline's linkage info from the TES.
 * gmf_tess_draw: one GL_PATCHES draw (all instances). */
void gmf_tess_build(gmf_prog *p);
void gmf_tess_finish(gmf_prog *p);
void gmf_tess_free(gmf_prog *p);
int gmf_tess_draw(gmf_draw_ctx *d, const gm_pipe_draw *pd);
/* gmf_prog_info.c: chunks of a value of `type` at `word` of variable var from location *loc
 * (gmf_add_chunks: the recursion over the type, appending to out[*n]); 0 or -1. */
int gmf_type_chunks(const gm_program *p, int var, int type, int word, int *loc, int comp,
                    gmf_chunk *out, int *n, int max);
int gmf_add_chunks(const gm_program *p, int var, int type, int word, int *loc, int comp,
                   gmf_chunk *out, int *n, int max);

/* gmf_vertex.c */
/* Fetches element `elem` of generic attribute `index` (or legacy array) into 4 words (float
 * bits, or integers when the attribute is integer / the input is integer). */
void gmf_fetch_attr(gmf_draw_ctx *d, const gmf_attr *a, int64_t elem, int64_t instance,
                    uint32_t out[4]);
/* The edge flag of vertex `elem` (edge flag array or the current glEdgeFlag value), for
 * polygon mode GL_LINE/GL_POINT. */
bool gmf_fetch_edge_flag(gmf_draw_ctx *d, int64_t elem);
/* Checks the draw's attributes can be fetched; notes what cannot. */
void gmf_check_attrs(gmf_draw_ctx *d);
size_t gmf_gl_type_size(uint32_t type);

/* gmf_images.c */
gmf_texture *gmf_tex_sync(gmf_runner *r, const struct sm_context *c, uint32_t name,
                          gmf_event *ev);
void gmf_tex_generate_mipmap(gmf_runner *r, const struct sm_context *c, uint32_t name,
                             gmf_event *ev);
/* After the state model applied `call` (canonical command cmd): an image upload into a texture
 * the GPU wrote (render target, image store) since it was loaded makes the model reload that
 * image at the next sync even when the bytes are the same as before. */
void gmf_tex_note_upload(gmf_runner *r, const struct glr_call *call, uint32_t cmd);
void gmf_tex_sampler_from_sm(const struct sm_sampling *s, gm_tex_sampler *out);
bool gmf_tex_complete(const gmf_texture *t, const gm_tex_sampler *s);
gmf_default_fb *gmf_default_fb_get(gmf_runner *r, uint32_t ctx_id);
/* gmf_window.c: the windows' sample counts from METADATA (0, or -1 out of memory); 1 if unknown. */
int gmf_window_samples_parse(gmf_runner *r, const char *metadata_json);
int gmf_window_samples(const gmf_runner *r, uint32_t ctx_id);
/* Builds the draw framebuffer bound on c into fb; returns false (with a note) if nothing can
 * be drawn to. */
bool gmf_build_framebuffer(gmf_runner *r, const struct sm_context *c, gm_pipe_framebuffer *fb,
                           gm_surface views[GM_PIPE_MAX_RT + 2], gmf_event *ev);
/* Points the views of the framebuffer's layered attachments (r->lfb) at `layer` (clamped to
 * the last layer, as llvmpipe); returns the layer used. No-op without layered attachments. */
int gmf_fb_select_layer(gmf_runner *r, int layer);
/* glBlitFramebuffer / glBlitNamedFramebuffer `call` on c: copies, scales and resolves
 * (multisample -> single-sample: llvmpipe's average of the samples) between the model's
 * read and draw framebuffer surfaces. */
void gmf_blit_framebuffer(gmf_runner *r, const struct sm_context *c,
                          const struct glr_call *call, bool named, gmf_event *ev);
gm_format gmf_format_from_gl(uint32_t internal_format, uint32_t type);
/* GL 1.0's internal formats given as a component count (1-4; chromium-bsu uses 3 and 4) as the
 * base formats Mesa takes them for; other values unchanged. */
uint32_t gmf_legacy_internal_format(uint32_t internal_format);
int gmf_unpack_to_surface(const void *data, uint64_t size, uint32_t format, uint32_t type,
                          int alignment, int w, int h, int d, gm_surface *dst, int z0);
void gmf_images_free(gmf_runner *r);

/* gmf_pipestate.c */
void gmf_pipe_state_from_sm(const struct sm_context *c, const gm_pipe_framebuffer *fb,
                            gm_pipe_state *ps, gmf_event *ev);

/* gmf_queries.c: query objects and conditional rendering. gmf_queries_cmd: a query command
 * (Begin/EndQuery(Indexed), Begin/EndConditionalRender, GetQueryObject* with a query buffer
 * bound, GetQueryBufferObject*) after sm_apply; false if `k` is none. gmf_cond_render_skip:
 * true when conditional rendering discards a draw/clear/blit on the context (ev becomes an
 * event of `kind`: GMF_EV_DRAW, GMF_EV_CLEAR or GMF_EV_NONE). */
typedef struct gmf_queries gmf_queries;
bool gmf_queries_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
bool gmf_cond_render_skip(gmf_runner *r, uint32_t ctx_id, int kind, gmf_event *ev);
/* gmf_rendermode.c: glRenderMode per context; gmf_render_mode_off: GL_SELECT or GL_FEEDBACK,
 * where draws, clears and pixel rectangles write nothing (gmf_cond_render_skip discards them). */
void gmf_render_mode_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
bool gmf_render_mode_off(const gmf_runner *r, uint32_t ctx_id);
void gmf_queries_after_draw(gmf_runner *r, const gmf_event *ev);
/* Results an earlier frame left in query objects (the snapshot's sm_query.has_result). */
void gmf_queries_initial(gmf_runner *r, const struct sm_state *initial);
void gmf_queries_free(gmf_runner *r);
void gmf_queries_add_written(gmf_runner *r, uint32_t ctx_id, uint64_t prims);

/* gmf_xfb.c: transform feedback. gmf_xfb_cmd: after sm_apply (glBeginTransformFeedback resets
 * the object's write positions); gmf_xfb_capture: after a (sub-)draw ran, writes its captured
 * vertex outputs when transform feedback is active and not paused. */
bool gmf_xfb_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
void gmf_xfb_capture(gmf_draw_ctx *d, const gm_pipe_draw *pd);
void gmf_xfb_free(gmf_runner *r);
/* glDrawTransformFeedback*: true with `out` the equivalent glDrawArraysInstanced (the vertices
 * the object captured last, stream 0) for the runner to draw. */
bool gmf_xfb_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k,
                       struct glr_call *out, gmf_event *ev);
/* gmf_shade.c: a vertex warp's inputs (attributes, vertex/instance built-ins) for count lanes. */
void gmf_vs_inputs(gmf_draw_ctx *d, gm_warp *w, const int32_t *vertex_id, int count,
                   int32_t instance_id);

/* gmf_copies.c: GPU-side copies, clears, read-backs into pack buffers, uploads from unpack
 * buffers. gmf_copy_replaces_apply: commands the model applies instead of the state model
 * (buffer clears); gmf_copy_before_apply: before sm_apply; gmf_copy_cmd: after it;
 * gmf_copy_handles: copy commands the model executes (not reported as unmodelled). */
bool gmf_copy_replaces_apply(gmf_runner *r, const struct glr_call *call, uint32_t k,
                             gmf_event *ev);
void gmf_copy_before_apply(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
void gmf_copy_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev);
bool gmf_copy_handles(uint32_t k);

/* gmf_pixels.c: client pixel layouts (pixel store state) and conversions; functions return
 * NULL or the reason the transfer is not modelled. */
typedef struct gmf_pixel_layout {
    uint32_t format, type;
    size_t pixel;             /* bytes per pixel */
    size_t row, image;        /* bytes between rows, between images */
    size_t skip;              /* offset of the first pixel (skip pixels/rows/images) */
    size_t extent;            /* bytes from the first pixel to the end of the last */
    size_t swap;              /* GL_*_SWAP_BYTES: bytes of each element to reverse (0: none) */
} gmf_pixel_layout;
/* A transfer through a buffer object that reaches past its end is GL_INVALID_OPERATION and has
 * no effect (GL 2.1 section 6.1.13's rule, Mesa's _mesa_validate_pbo_access): true then. */
bool gmf_pbo_out_of_range(const gmf_pixel_layout *L, uint64_t offset, uint64_t buffer_size);
/* glPixelTransfer scale and bias over a region of a colour surface just uploaded (the texels
 * decoded, scaled and biased, encoded again: exact for 8-bit client data, float data is
 * quantized to the surface first). */
void gmf_scale_bias_region(gm_surface *s, int x, int y, int z, int w, int h, int d, const float sc[4],
                           const float bi[4]);
const char *gmf_pixel_layout_get(uint32_t format, uint32_t type, const struct sm_pixel_store *ps,
                                 int w, int h, int d, gmf_pixel_layout *out);
const char *gmf_pack_pixel(gm_format sf, const uint8_t *texel, const gmf_pixel_layout *L,
                           uint8_t *out);
const char *gmf_pack_rect(const gm_surface *s, int x, int y, int z, int w, int h, int d,
                          const gmf_pixel_layout *L, uint8_t *dst, size_t dst_size);
const char *gmf_unpack_rect(const uint8_t *src, size_t src_size, const gmf_pixel_layout *L,
                            gm_surface *s, int x, int y, int z, int w, int h, int d);

/* gmf_images.c, for copies: the surface of colour buffer `buf` of framebuffer `fbo` (or its
 * depth/stencil attachment when depth), and a renderbuffer's surface; NULL when not modelled. */
gm_surface *gmf_fb_read_surface(gmf_runner *r, const struct sm_context *c, uint32_t fbo,
                                uint32_t buf, bool depth, gm_surface *view, gmf_event *ev);
gm_surface *gmf_renderbuffer_surface(gmf_runner *r, const struct sm_context *c, uint32_t name,
                                     gmf_event *ev);

/* Index into sm_texture_unit.bound[] of a texture target (gmf_copies.c); a cube face target gives
 * the cube map with *face its layer. -1 for other targets. */
int gmf_tex_target_index(uint32_t target, int *face);

/* Index of the parameter of command cmd with that role (registry/glr_registry.h), or -1. */
static inline int gmf_cmd_param(uint32_t cmd, enum glr_role role)
{
    return glr_cmd_param_role(&glr_cmds[cmd], role);
}

/* Whether a pixel-transfer format is an *_INTEGER one (gmf_images.c). */
bool gmf_integer_format(uint32_t format);

/* gmf_skip.c: whether a draw of program p may be left out (no side effects). */
bool gmf_skip_draw_ok(const gmf_prog *p, const struct sm_context *c);

#endif
