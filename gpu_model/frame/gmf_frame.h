/* gmf_frame.h - the frame runner of the GPU model: executes every draw and clear of a
 * captured frame in the model (pure C, no GL calls).
 *
 * The caller walks a capture's command stream (glr_stream_next) and feeds each record to
 * gmf_feed(). The runner keeps a state model (statemodel/) current and, at each draw,
 * builds the pipeline state from it: the bound program compiled by the GLSL front end
 * (cached per program link), uniforms by name/location, vertex fetch from buffer contents
 * or recorded client arrays, index buffers, textures and samplers behind the sampler
 * interface, and render targets kept as model images (default framebuffers, FBO textures
 * and renderbuffers). The draw then runs through the pipeline with the SIMT executor as its
 * vertex and fragment shaders. Clears are applied to the same images.
 *
 * Determinism: one thread; warps are built and run in the pipeline's fixed order, so the
 * same capture gives the same warps in the same order and the same images on every run.
 * By default warps run through the timing model (gpu_model/timing), which decides the cycle
 * and SM each instruction issues on and gives per-draw cycle counts (gmf_config.timing).
 *
 * Unsupported features are never skipped silently: each draw reports them by name
 * (gmf_event.unsupported) and the runner counts them (gmf_unsupported_list).
 * See gpu_model/frame/DESIGN.md. */
#ifndef GMF_FRAME_H
#define GMF_FRAME_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu_model.h"
#include "gm_timing.h"
#include "gm_pipe_watch.h"
#include "registry/glr_call.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gmf_runner gmf_runner;

/* The default framebuffer (window) of a captured context. */
typedef struct gmf_surface_desc {
    uint32_t ctx_id;
    int width, height;
    bool alpha;             /* the window has an alpha channel (else reads back 255) */
} gmf_surface_desc;

struct gm_pipe_fs_warp;

/* One issued warp instruction, for debuggers and telemetry. */
typedef struct gmf_issue {
    uint64_t draw;          /* index of the draw in the frame run (0-based, clears excluded);
                               compute: index of the dispatch among dispatches */
    gm_stage stage;         /* GM_STAGE_VERTEX, GM_STAGE_GEOMETRY, GM_STAGE_FRAGMENT or
                               GM_STAGE_COMPUTE */
    uint64_t warp;          /* warp serial number in this draw and stage (0-based) */
    uint64_t frame_warp;    /* warp serial over the whole run, all draws and stages */
    int pc;
    int line;               /* source line (0: none) */
    const char *file;       /* source name of that line (may be NULL) */
    gm_mask active;         /* lanes issuing the instruction */
    int call_depth;
    uint32_t program;       /* captured program name */
    /* Timing model (gmf_config.timing, on by default): the cycle the instruction issues
     * at and the SM that issues it. Without the timing model, and for geometry warps (run
     * outside it): cycle 0, sm -1. */
    uint64_t cycle;
    int sm;
    /* What each lane stands for, known to the pipeline even when the shader does not read it:
     * FS: window pixel x, y (origin bottom-left); VS: gl_VertexID and gl_InstanceID; GS: the
     * lane's input primitive (gl_PrimitiveIDIn) and gl_InvocationID. NULL when not
     * known. Valid during the observer call. */
    const int32_t *lane_x, *lane_y;
    /* FS: the pipeline's warp (gm_pipeline.h): gl_FrontFacing, gl_PrimitiveID, the sample and
     * gl_PointCoord of its lanes, known even when the shader does not read them (debuggers).
     * Only meaningful while stage is GM_STAGE_FRAGMENT. */
    const struct gm_pipe_fs_warp *fs;
} gmf_issue;

/* Called before every issued warp instruction when set. `w` may be read with
 * gm_warp_read_var / gm_warp_active_mask / gm_warp_lane_line ... during the call.
 * Return 0 to continue, nonzero to stop the whole run (gmf_feed then returns
 * GMF_STOPPED and every later gmf_feed does nothing). */
typedef int (*gmf_observer_fn)(void *ctx, gm_warp *w, const gmf_issue *issue);

typedef struct gmf_config {
    const char *metadata_json;  /* METADATA section (contexts with API/version), may be NULL */
    /* SHADER_SOURCES section (sources of programs loaded from binaries), may be NULL */
    const void *program_sources;
    size_t program_sources_size;
    const gmf_surface_desc *surfaces;   /* default framebuffer per context */
    int n_surfaces;
    int default_width, default_height;  /* for contexts not listed (0: 256x256) */
    /* Shader warps run through the timing model (gpu_model/timing: SMs, warp slots,
     * latencies, texture cache) which decides when each instruction issues and gives
     * per-draw cycle counts; or run to completion by the executor alone (faster, no
     * cycles). Images are identical either way. */
    enum { GMF_TIMING_DEFAULT = 0, GMF_TIMING_ON, GMF_TIMING_OFF } timing;
    /* Threads that shade a draw's warps (gmf_threads.c): 0 = GLREPLAY_MODEL_THREADS, else the
     * online CPUs (at most 8). Results are those of one thread; draws with the timing model,
     * an observer, telemetry hooks or shader side effects run on one thread. */
    int threads;
} gmf_config;

gmf_runner *gmf_create(const gmf_config *cfg, char *err, size_t err_size);
/* A flag (e.g. set by a signal handler or a timer) that stops the run when it becomes nonzero:
 * the running draw ends at its next warp and gmf_feed returns GMF_STOPPED from then on, as
 * when an observer stops it. NULL: none. */
void gmf_set_abort(gmf_runner *r, const volatile sig_atomic_t *flag);
/* Work budget of one draw: vertex shader invocations (count x instances) above this are not
 * run; the draw is reported unsupported with the figure (a crafted or runaway draw of 2^31
 * instances would otherwise run for days). */
#define GMF_MAX_DRAW_INVOCATIONS (1ull << 28)
void gmf_destroy(gmf_runner *r);
/* Threads the runner shades with, and how many draws ran threaded / on one thread so far. */
int gmf_thr_count(const gmf_runner *r);
void gmf_thr_draw_counts(const gmf_runner *r, uint64_t *threaded, uint64_t *single);
void gmf_set_observer(gmf_runner *r, gmf_observer_fn fn, void *ctx);

typedef enum {
    GMF_EV_NONE,            /* a state call (applied to the state model) */
    GMF_EV_DRAW,            /* a draw ran in the model (perhaps partly: see unsupported) */
    GMF_EV_CLEAR,           /* a clear ran */
    GMF_EV_SWAP,            /* a frame ended on a context's default framebuffer */
    GMF_EV_DISPATCH,        /* a compute dispatch ran (draw: index among dispatches;
                               program; stats.cycles/instructions with the timing model) */
} gmf_event_kind;

#define GMF_MAX_NOTES 8

typedef struct gmf_event {
    gmf_event_kind kind;
    uint64_t record;        /* index of the record in the stream */
    uint32_t cmd;           /* the record's command */
    uint32_t ctx_id;
    uint64_t draw;          /* draws: index among draws; clears: index among clears */
    uint32_t draws;         /* draws this event ran: 1, or a glCallList(s) record's draws inside
                             * its lists (draw .. draw + draws - 1; program/fbo: the first's) */
    uint32_t program;       /* draws: captured program name */
    uint32_t fbo;           /* draws/clears: bound draw framebuffer (0: default) */
    bool failed;            /* nothing (or not all) could be drawn: see notes */
    bool skipped;           /* gmf_set_skip_draws: left out (its program compiled, nothing drawn) */
    bool reads_clock;       /* dispatches: the program reads the shader clock (ARB_shader_clock),
                             * so what it stores may differ from any other run's */
    int n_unsupported;      /* notes: unsupported features met by this draw, by name */
    char unsupported[GMF_MAX_NOTES][160];
    struct gmf_draw_stats {
        uint64_t vs_invocations, primitives, fs_warps, fs_lanes, fragments_passed;
        /* Timing model only (0 without it): cycles from the draw's first warp launch to
         * its last retirement, of its vertex, fragment and geometry warps, and warp
         * instructions (all stages). */
        uint64_t cycles, vs_cycles, fs_cycles, instructions;
        uint64_t gs_cycles;     /* geometry warps' batch (0 without a geometry shader) */
        uint64_t tess_cycles;   /* tessellation control + evaluation batches (0 without) */
    } stats;
    double seconds;         /* model time of this draw/clear */
} gmf_event;

typedef enum { GMF_OK = 0, GMF_STOPPED = 1, GMF_ERROR = -1 } gmf_status;

/* Applies one record and, for draws/clears/swaps, runs it in the model. GMF_ERROR only for
 * internal failures (out of memory); unsupported features are reported in ev. */
gmf_status gmf_feed(gmf_runner *r, const struct glr_call *c, uint64_t record, gmf_event *ev);

/* A capture taken from a running program starts from a snapshot (its INITIAL_STATE): feed the
 * state's restore calls before the stream (they draw nothing, so draw indexes are unchanged).
 * A state without objects (capture from context creation) feeds nothing. 0, or -1 (out of memory). */
struct sm_state;
int gmf_feed_initial_state(gmf_runner *r, const struct sm_state *initial);

/* Pixel contents the snapshot keeps outside the state model (RESOURCE_BLOB kinds 1 default
 * framebuffer colour RGBA8, 2 its depth/stencil 24_8, 3 renderbuffer, 5/6 every sample of a
 * multisample renderbuffer/texture: docs/GLCAP_FORMAT.md; other kinds are skipped). Captured
 * names, rows bottom-up, planes tightly packed; the layout of replay's glr_restore_saved. */
typedef struct gmf_content {
    uint32_t kind, ctx_id, name, width, height, internal_format, format, type;
    const void *data;
    uint64_t size;
    /* Kind 8 (not a file's kind: the pixel history's images of earlier passes from the driver): one
     * image of texture `name`, mip level `level`, layer `layer` (an array layer, a 3D slice, a cube
     * face, a cube-map array's layer * 6 + face), one plane; layer -1: every layer of the level, one
     * plane per layer in order. Other kinds ignore them. */
    int32_t level, layer;
} gmf_content;
/* Writes contents into the model's surfaces (after gmf_feed_initial_state: the objects exist):
 * default framebuffers by context, renderbuffers and multisample textures by captured name, sample
 * by sample; a single plane fills every sample (a multisampled window's resolved image). Contents
 * the model has no surface or conversion for are skipped. The count written, or -1 (out of memory).
 * debugger/snapshot_contents.h feeds a replay/ snapshot's contents. */
int gmf_feed_initial_contents(gmf_runner *r, const gmf_content *contents, size_t count);

/* Runs a whole command stream. progress (may be NULL) is called about every 1024 records.
 * on_event (may be NULL) gets every draw/clear/swap event. Returns GMF_ERROR with err set on
 * a corrupt stream. */
typedef void (*gmf_event_fn)(void *user, const gmf_event *ev);
gmf_status gmf_run_stream(gmf_runner *r, const void *stream, size_t size, gmf_event_fn on_event,
                          void *user, char *err, size_t err_size);

/* ---- telemetry hooks (gpu_model/telemetry) ----
 * Observers of the timing model for profilers. They see everything in the model's
 * deterministic order and cannot change or stop the run. Needs the timing model (a runner
 * created with GMF_TIMING_OFF ignores them). Any member may be NULL. */

/* Fixed-function work since the previous gmf_unit_counts delivery (pipeline statistics). */
typedef struct gmf_unit_counts {
    uint64_t primitives_in, primitives_culled, primitives_clipped;
    uint64_t fragments_shaded;    /* live (non-helper) fragment lanes launched */
    uint64_t helper_lanes;
    uint64_t quads_killed;        /* quads whose live lanes were all discarded */
    uint64_t depth_pass, depth_fail, stencil_pass, stencil_fail;
    uint64_t blend_ops;           /* lane x render target writes with blending on */
} gmf_unit_counts;

typedef struct gmf_hooks {
    void *ctx;
    /* Draw (or clear) about to run: its context, index among draws (clears: among clears),
     * program, and the model cycle it starts at. */
    void (*draw_begin)(void *ctx, const gmf_event *ev, uint64_t cycle);
    /* The draw/clear ended (ev complete with stats), or a swap (no draw_begin before it). */
    void (*draw_end)(void *ctx, const gmf_event *ev, uint64_t cycle);
    /* Every issued warp instruction (gm_timing_issue; ev->user is private). */
    void (*issue)(void *ctx, const gm_timing_issue *ev);
    /* End of every cycle of every SM, one entry per warp slot (see gm_timing.h). Setting it
     * disables the model's idle-cycle skip; results are identical. */
    gm_timing_cycle_fn cycle;
    /* Texture and memory requests as they enter their queue. */
    gm_timing_mem_fn mem;
    /* Fixed-function work since the last delivery, delivered after each warp retires and
     * after each draw, attributed to the SM of the last issued warp instruction. */
    void (*units)(void *ctx, uint64_t cycle, int sm, uint32_t ctx_id, const gmf_unit_counts *c);
} gmf_hooks;

/* Installs hooks (copied; NULL removes them). */
void gmf_set_hooks(gmf_runner *r, const gmf_hooks *h);
/* The timing model of the runner (NULL with GMF_TIMING_OFF): for its configuration and
 * static program data (latency classes); do not set its observers directly. */
gm_timing *gmf_timing_model(gmf_runner *r);

/* ---- render targets of the model, for comparisons and pictures ---- */

#define GMF_MAX_TARGETS 9 /* 8 colour draw buffers and depth */

typedef enum { GMF_TARGET_COLOR, GMF_TARGET_DEPTH } gmf_target_kind;

typedef struct gmf_target {
    gmf_target_kind kind;
    int draw_buffer;        /* colour: draw buffer index */
    uint32_t attachment;    /* GL attachment enum (GL_BACK for the default framebuffer) */
    int width, height;
    bool integer;           /* integer colour format: not comparable as RGBA8 */
    bool has_alpha;
    char name[64];          /* "ctx1/default/back", "ctx1/fbo3/color0", "ctx1/fbo3/depth" */
} gmf_target;

/* Targets of the draw framebuffer bound on context ctx_id now (colour draw buffers, then
 * depth). Returns the count (<= max). */
int gmf_current_targets(gmf_runner *r, uint32_t ctx_id, gmf_target *out, int max);
/* Reads a colour target as RGBA8 (rows bottom-up, malloc'd) or depth as float. 0 or -1. */
int gmf_read_color(gmf_runner *r, uint32_t ctx_id, int draw_buffer, uint8_t **rgba, int *w, int *h);
int gmf_read_depth(gmf_runner *r, uint32_t ctx_id, float **depth, int *w, int *h);
/* A texture level of the context's share group as the model holds it (written by image stores
 * and draws): RGBA8, rows bottom-up, `depth` layers one after another (malloc'd). 0, or -1
 * for an unknown texture or level or an integer/depth format. */
int gmf_read_texture(gmf_runner *r, uint32_t ctx_id, uint32_t name, int level, uint8_t **rgba,
                     int *w, int *h, int *depth);
/* The default framebuffer's colour (back buffer) of a context, RGBA8 bottom-up. */
int gmf_read_default(gmf_runner *r, uint32_t ctx_id, uint8_t **rgba, int *w, int *h);

/* ---- pixel history (gmf_pixel_watch.c) ----
 * The pipeline reports every fragment at the watch's pixel to watch->fn (gm_pipe_watch.h);
 * the watch must outlive the runs it is set for (NULL: none, the default). */
void gmf_set_pixel_watch(gmf_runner *r, gm_pipe_watch *watch);
/* The draw framebuffer bound on a context now (0: the default framebuffer). */
uint32_t gmf_draw_framebuffer(gmf_runner *r, uint32_t ctx_id);
/* One pixel (sample 0) of colour buffer `buffer` (GL_COLOR_ATTACHMENTi; ignored for fbo 0,
 * the back buffer) of framebuffer fbo. Reading an FBO attachment marks its texture as drawn
 * into: read one only where the frame draws to it. 0, or -1 (no such target, out of bounds,
 * not a colour image). */
typedef struct gmf_pixel {
    bool integer;
    float f[4];
    uint32_t u[4];          /* integer formats */
    uint8_t rgba8[4];       /* as gmf_read_color converts (not for integer formats) */
    const void *id;         /* the image's storage (compare with gm_watch_rec.surface) */
    int width, height;
} gmf_pixel;
int gmf_pixel_read(gmf_runner *r, uint32_t ctx_id, uint32_t fbo, uint32_t buffer, int x, int y,
                   gmf_pixel *out);

/* ---- totals ---- */
typedef struct gmf_totals {
    uint64_t records, draws, clears, swaps;
    uint64_t draws_with_unsupported, draws_failed;
    uint64_t vs_invocations, primitives, fs_warps, fs_lanes, fragments_passed;
    uint64_t warp_instructions;   /* counted only while an observer is set */
    uint64_t cycles;              /* timing model: sum of the draws' cycles (0 without) */
    bool timing;                  /* the timing model is in use */
    double model_seconds;
    uint64_t programs_compiled, program_errors;
    uint64_t dispatches, dispatches_failed, cs_invocations;
    uint64_t cs_cycles;           /* timing model: sum of the dispatches' cycles (not in `cycles`) */
    uint64_t loops_limited;       /* shader loops ended at llvmpipe's 65535-iteration limit */
} gmf_totals;
void gmf_get_totals(const gmf_runner *r, gmf_totals *t);

/* Distinct unsupported features met so far, with how many draws met each. Returns the number
 * of distinct features; fills up to max. */
int gmf_unsupported_list(const gmf_runner *r, const char **names, uint64_t *counts, int max);

/* The state model the runner keeps (read-only). */
const struct sm_state *gmf_state(const gmf_runner *r);

/* ---- ARB assembly programs (gmf_arb.c) ----
 * Draws that run ARB programs report a synthetic program name (warps' `program`). For such a
 * name: the program the runner compiled (its linked sources are the GLSL it ran, named
 * "program<name>.vert/.frag" like a GLSL program's), and the ARB program text of a stage
 * (0 vertex, 1 fragment; NULL for a fixed-function stand-in). NULL for any other name. */
const struct sm_program *gmf_arb_program(const gmf_runner *r, uint32_t name);
const char *gmf_arb_program_text(const gmf_runner *r, uint32_t name, int stage);

/* ---- fixed-function stages (debuggers; gmf_ffunc.c) ----
 * Draws without a GLSL stage run GLSL the runner generates per state combination, one entry per
 * combination (and GLSL program of mixed draws), numbered from 0 in the order the frame first
 * needs them; a warp of one has gmf_issue.file "fixed-function vs #N" / "fixed-function fs #N". */
typedef struct gmf_ff_source {
    const char *name[2];    /* vertex, fragment: the source name (NULL: the GLSL program's stage) */
    const char *text[2];    /* the generated GLSL (NULL likewise) */
    uint32_t program;       /* the GLSL program of a mixed draw (0: none) */
    uint32_t share;         /* its share group */
} gmf_ff_source;
/* Entry i (valid while the runner lives); false past the last. */
bool gmf_ff_source_get(const gmf_runner *r, int i, gmf_ff_source *out);
/* The entry draw `draw` (gmf_event.draw) ran, or -1 (a GLSL or ARB program, or not run yet). */
int gmf_ff_of_draw(const gmf_runner *r, uint64_t draw);
/* Draws choose and compile their program (generated stages included) and draw nothing: a quick
 * run that lists the fixed-function sources of a frame. Off by default. */
void gmf_set_programs_only(gmf_runner *r, bool on);
/* While on, draws whose leaving out changes only their framebuffer's images (no stage stores to
 * memory, no transform feedback or query active) compile their program and draw nothing, with
 * gmf_event.skipped set: the pixel history's earlier passes, whose images it takes from the
 * driver (gmf_skip.c). Off by default. */
void gmf_set_skip_draws(gmf_runner *r, bool on);

/* During an observer call: whether a texture fetch through texture unit `unit` (the sampler's
 * value) of dimension `dim` (gm_tex_dim) would find a complete texture (GL's completeness rules
 * with the bound sampler state; the model, like llvmpipe, returns (0, 0, 0, 1) otherwise):
 * 1 incomplete (*name: the texture, 0 when none is bound), 0 complete, -1 unknown (no draw,
 * buffer textures). (gmf_shade.c) */
int gmf_unit_incomplete(gmf_runner *r, unsigned unit, int dim, int arrayed, int multisampled, uint32_t *name);

/* ---- resident warps (debuggers; gmf_resident.c) ----
 * With the timing model many warps are in flight; during an observer call, the warps resident
 * on the model's SMs (launched, not retired), in SM and slot order. Each entry names the warp as
 * gmf_issue does; `w` may be read like the observer's warp during the call. Returns the count
 * (<= max); 0 without the timing model (only the observed warp exists then). */
typedef struct gmf_resident {
    gm_warp *w;
    uint64_t draw;          /* as gmf_issue: draw, or dispatch index for compute */
    gm_stage stage;
    uint64_t warp;          /* serial in its draw and stage */
    uint32_t program;
    int sm, slot;
    int finished;           /* ran to its end, waiting to retire */
    const int32_t *lane_x, *lane_y;   /* as gmf_issue (NULL for compute) */
    const struct gm_pipe_fs_warp *fs; /* as gmf_issue (NULL but for fragment warps) */
} gmf_resident;
int gmf_resident_warps(gmf_runner *r, gmf_resident *out, int max);

#ifdef __cplusplus
}
#endif
#endif
