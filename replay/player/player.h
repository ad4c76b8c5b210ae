/* headless: loading a .glcap capture and replaying it without a window system, through EGL
 * surfaceless on Mesa (llvmpipe), as `glreplay replay` and `glreplay info` do.
 *
 * Loading (glrh_capture_open) validates everything before anything runs: the container (checksums),
 * the METADATA JSON (context attributes), every command stream record, and every reference image,
 * so a corrupt or truncated capture gives one error line and never a half-done replay. */
#ifndef GLR_HEADLESS_H
#define GLR_HEADLESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "replay/replay.h"

/* A context of the capture, from METADATA "contexts". */
struct glrh_context {
    uint32_t id, share_group;
    int api;            /* 1 GLX, 2 EGL (how the program created it; replay always uses EGL) */
    bool es;
    int major, minor;
    int profile_mask;   /* GL_CONTEXT_PROFILE_MASK: 0 none, 1 core, 2 compatibility */
    int flags;          /* GL_CONTEXT_FLAGS */
    int samples;        /* the window's GL_SAMPLES (0: single-sampled; absent in older captures) */
    bool alpha_known;   /* METADATA says the window's alpha bits (not in older captures) */
    int alpha_bits;     /* alpha bits of the window, when alpha_known */
    bool zs_known;      /* METADATA says the window's depth and stencil bits */
    int depth_bits, stencil_bits;
    bool described;     /* false: never made current during the capture, attributes unknown */
    unsigned surface_w, surface_h; /* its draw surface at its first MAKE_CURRENT record (0: unknown) */
    char version[128], renderer[128];
};

/* A REFERENCE_IMAGE section: the back buffer right before a captured swap, or a colour attachment of
 * the framebuffer bound for drawing then. */
struct glrh_image {
    uint32_t section_id;
    uint32_t frame, ctx_id, width, height;
    uint32_t fbo;           /* 0: the default framebuffer's back buffer; else a framebuffer object */
    uint32_t attachment;    /* GL_BACK or the GL_COLOR_ATTACHMENTi of that framebuffer */
    const uint8_t *pixels;  /* width*height*4 RGBA8, rows bottom-up (points into `data`); NULL in hashes */
    void *data;             /* the loaded section */
    uint64_t hash;          /* hashes only (layout 3): XXH3-64 of those pixels */
};

/* One section of the file, from the container's section table. */
struct glrh_section_size {
    uint16_t type;
    uint32_t id;
    uint8_t compression;
    uint64_t stored, raw;
};

struct glrh_capture {
    char *path;
    uint64_t file_size;
    unsigned version_major, version_minor;
    struct glrh_section_size *sections;
    unsigned n_sections;
    char *program;
    uint64_t first_frame, last_frame;
    bool initial_default;   /* "initial_state":"default": replay starts from fresh contexts; any
                             * other value ("none", or a kind this replayer cannot restore) means
                             * objects made before the capture are missing */
    char initial_state[32];
    uint64_t meta_calls, meta_threads;
    uint64_t snapshot_losses;   /* contents the capture's snapshot could not keep (METADATA) */
    char snapshot_first_loss[160];
    struct glrh_context *ctxs;
    unsigned n_ctxs;
    void *stream;           /* the COMMAND_STREAM section, validated */
    size_t stream_size;
    uint64_t n_records;
    uint64_t n_swaps;
    struct glrh_image *images;
    unsigned n_images;
    /* Frames whose image the capture keeps only as a hash (GLREPLAY_CAPTURE_IMAGES): --verify
     * compares hashes; nothing else reads them. */
    struct glrh_image *hashes;
    unsigned n_hashes;
    char **unsized;         /* METADATA "unsized_client_memory" */
    unsigned n_unsized;
};

/* Dispatcher callbacks for a replay of `cap` (pass the capture as the dispatcher's user): object
 * names live in the context's share group, or in the context itself for per-context objects; GL
 * functions come from EGL (never the shim). */
uint32_t glrh_namespace(void *cap, uint32_t ctx_id, int obj_class);
void *glrh_get_proc(void *cap, const char *name);

/* Loads and validates a capture. Returns NULL with a one-line message in err on any error. */
struct glrh_capture *glrh_capture_open(const char *path, char *err, size_t err_size);
void glrh_capture_close(struct glrh_capture *cap);
const struct glrh_context *glrh_capture_context(const struct glrh_capture *cap, uint32_t id);

/* The default framebuffer a replay gives context `index` (0..n_ctxs-1) of cap: the size of its
 * first reference image (the window it swapped), else of its draw surface when it was first made
 * current, else of the largest reference image, else 256x256; with alpha when any of its images
 * has alpha below 1. Every replay of the capture (driver or model) uses this rule. */
struct glrh_surface {
    unsigned w, h;
    bool alpha;
};
void glrh_plan_surface(const struct glrh_capture *cap, unsigned index, struct glrh_surface *out);

/* Statistics for `glreplay info` (no GL needed). */
struct glrh_cmd_count {
    uint32_t cmd;
    uint64_t count;
};

struct glrh_stats {
    uint64_t records, calls, draws, clears, swaps, make_currents, context_creates, client_arrays;
    uint64_t buffer_data_records;  /* writes through buffer mappings (their bytes count as uploads) */
    uint64_t shader_sources, shader_programs_v;   /* glShaderSource*, glCreateShaderProgramv */
    uint64_t buffers_created, textures_created;
    uint64_t buffer_bytes_uploaded, texture_bytes_uploaded;
    struct glrh_cmd_count *per_cmd;  /* sorted by count, descending (ties by name) */
    unsigned n_cmds;
};

int glrh_capture_stats(const struct glrh_capture *cap, struct glrh_stats *st, char *err, size_t err_size);
void glrh_stats_free(struct glrh_stats *st);

/* Commands that draw or clear (glDraw*, glMultiDraw*, glClear*): the --png points. */
bool glrh_cmd_is_draw(uint32_t cmd);
bool glrh_cmd_is_clear(uint32_t cmd);
/* glBlitFramebuffer and its suffixed and DSA forms. */
bool glrh_cmd_is_blit(uint32_t cmd);

/* ---- Replay ---- */

/* Restores a capture's saved initial state (an "initial_state" other than "default") at the start
 * of every pass: called with every context created and none current. It makes contexts current
 * with make_current(mc, ctx_id) and issues its calls through the dispatcher, so the names it
 * creates are mapped for the command stream that follows. 0 on success; -1 with err set. */
typedef int (*glrh_make_current_fn)(void *mc, uint32_t ctx_id);
typedef int (*glrh_restore_fn)(void *user, const struct glrh_capture *cap, struct glr_dispatch *d,
                               glrh_make_current_fn make_current, void *mc, char *err, size_t err_size);

struct glr_call;
struct glrh_options {
    unsigned loops;         /* passes; 0 means 1 */
    bool verify;            /* compare every swap with its reference image */
    const char *png_dir;    /* PNG after every draw/clear and swap (first pass only), or NULL */
    bool benchmark;         /* time the passes */
    bool gl_errors;         /* check glGetError after every call and report per command */
    bool progress;          /* progress line on stderr (a terminal) */
    FILE *out;              /* report lines (stdout) */
    glrh_restore_fn restore;/* NULL: captures without a "default" initial state replay once, incomplete */
    void *restore_user;
    /* Snapshot captures with --loop: passes after the first keep the contexts and objects and reset
     * only what the frame changed (replay/player/pass_reset.h), unless full_restore is set (or
     * the environment has GLREPLAY_FULL_RESTORE=1) or the frame's effects cannot be undone that
     * way (then every pass restores everything, and --benchmark says why). `snapshot` is the
     * loaded initial state (glr_restore_load); NULL: the replayer loads it from cap->path. */
    struct glr_restore *snapshot;
    bool full_restore;
    /* Called in the first pass with the draw framebuffer's colour image (RGBA8, rows bottom-up,
     * valid during the call) after every draw, clear and blit: what `glreplay report` pictures.
     * Targets that cannot be read as RGBA8 are skipped. NULL: none. */
    void (*on_image)(void *user, uint64_t record, uint32_t cmd, const uint8_t *rgba, unsigned w, unsigned h);
    void *on_image_user;
    /* Pixel probe (pixel history, debugger/pixel), or NULL: after each GL call of the first pass
     * for which want() returns true, the pixel (x, y) of the framebuffer bound for drawing (colour
     * buffer *buffer of a framebuffer object, the back buffer of the default one) is read as RGBA8
     * and handed to got() (ok false: it could not be read). */
    const struct glrh_probe *probe;
    /* Called in the first pass right before every draw is replayed, with the draw's context
     * current: what it samples can be read back from the driver as the draw will see it (the
     * textures of `glreplay report`). The callback must leave every GL state as it found it. */
    void (*before_draw)(void *user, uint64_t record, const struct glr_call *c, const struct glrh_context *ctx);
    void *before_draw_user;
};

/* How want_image wants an image read (glReadPixels' format and type, bytes per pixel); the
 * prober presets GL_RGBA, GL_UNSIGNED_BYTE, 4, single-sample. A depth or depth-stencil attachment
 * is read with GL_DEPTH_COMPONENT or GL_DEPTH_STENCIL, a stencil one with GL_STENCIL_INDEX.
 * samples > 1: a multisample attachment (a renderbuffer or a 2D multisample texture) of that
 * internal format, every sample read exactly (replay/ms_samples.h: planes of w x h pixels, one per
 * sample, as glr_ms_transfer's format and type, which format/type/bytes must then be). */
struct glrh_probe_format {
    uint32_t format, type;
    unsigned bytes;
    unsigned samples;            /* 0 or 1: single-sample */
    uint32_t internal_format;    /* with samples > 1 */
    unsigned layers;             /* > 1: a layered texture attachment, every layer (planes in order) */
};

struct glrh_probe {
    int x, y;
    bool (*want)(void *user, uint64_t record, const struct glr_call *c, uint32_t *buffer);
    void (*got)(void *user, uint64_t record, bool ok, const uint8_t rgba[4]);
    void *user;
    /* Optional (NULL: none): whole colour images after the same calls. want_image(user, record, i,
     * ...) for i = 0, 1, ... until it returns false names colour attachment *att (GL_COLOR_ATTACHMENTk)
     * of the framebuffer object bound for drawing (GL_BACK: the default one's back buffer), *w x *h; got_image gets it (RGBA8, or as *fmt says) in rows bottom-up
     * in a malloc'd block, or NULL when it could not be read; returning true keeps the block (the
     * prober then owns it and free()s it: no copy), false leaves it valid during the call only. want() must also return true for
     * the call (it reads the pixel too). */
    bool (*want_image)(void *user, uint64_t record, int i, uint32_t *att, unsigned *w, unsigned *h,
                       struct glrh_probe_format *fmt);
    bool (*got_image)(void *user, uint64_t record, int i, uint8_t *rgba);
    /* stop: the first pass ends right after record `last` (the prober needs nothing later; the
     * rest of the frame is not replayed). */
    bool stop;
    uint64_t last;
};

struct glrh_result {
    uint64_t counts[4];     /* by enum glr_dispatch_result, over all passes */
    unsigned passes;
    unsigned frames_checked, frames_differing, frames_unmatched;
    /* --verify: read-backs (glReadPixels, glGetTexImage, glGetBufferSubData, query results) whose
     * recorded result was compared with the replay's, differed, or could not be compared. */
    unsigned readbacks_checked, readbacks_differing, readbacks_unchecked;
    unsigned passes_inconsistent;  /* passes whose images differ from the first pass */
    double seconds;         /* replay time of all passes (context setup excluded) */
    bool replayed_once_only; /* "none" capture: a single pass was run whatever --loop said */
    double setup_seconds;   /* before the first pass: contexts and the initial-state restore */
    double first_seconds;   /* the first pass (the driver compiles its shaders there) */
    double reset_seconds;   /* before later passes (contexts and full restore, or the pass reset)
                             * and after them (deleting what the frame created) */
    bool kept_objects;      /* passes after the first reset only what the frame changed */
    char full_restore_why[200]; /* when a snapshot capture restored everything before every pass */
};

/* Runs the replay. 0: ran (see result; differences are not errors here), -1: could not run
 * (message in err: EGL unavailable, context creation failed, ...). */
int glrh_replay(const struct glrh_capture *cap, const struct glrh_options *opt, struct glrh_result *res,
                char *err, size_t err_size);

#endif
