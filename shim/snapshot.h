/* The initial-state snapshot of a capture that starts after contexts exist (docs/GLCAP_FORMAT.md,
 * INITIAL_STATE and RESOURCE_BLOB).
 *
 * At capture start, on the capturing thread with its context current, the tracking state
 * (shim/track.c: names, shader sources, link inputs) is cloned and completed with everything the
 * driver reports, read through GLR_REAL only: object contents and parameters, uniform values,
 * VAO/FBO layouts, the context state, and the default framebuffer's contents. Every binding and
 * pixel-store value touched is put back, and GL errors raised by the read-back are drained and the
 * program's own pending error (if any) is raised again, so the program sees no difference.
 *
 * Internal to the shim: snapshot.c (orchestration, default framebuffer, writing) calls the per-kind
 * files, snapshot_objects.c (shared objects), snapshot_context.c (per-context objects and state),
 * ...; all of them call snapshot_base.c (version tests, applying calls, warnings, GL errors), which
 * calls none of them. */
#ifndef GLR_SHIM_SNAPSHOT_H
#define GLR_SHIM_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "statemodel/statemodel.h"

#define GLR_SNAP_HIDDEN __attribute__((visibility("hidden")))

/* Takes the snapshot of the context current on this thread (api: enum glr_ctx_api). Replaces any
 * previous one. Returns 0, or -1 when it failed (logged; the capture then says "none"). */
GLR_SNAP_HIDDEN int glr_snapshot_take(int api);
/* Whether a snapshot is held for the capture being written. */
GLR_SNAP_HIDDEN bool glr_snapshot_ready(void);
/* Contents the held snapshot could not keep (textures, renderbuffers, ... not read back): their
 * number, and the first one described in first[first_size]. 0 when none or no snapshot. */
GLR_SNAP_HIDDEN unsigned glr_snapshot_losses(char *first, size_t first_size);
struct glcap_writer;
struct glr_snap;
/* At a capture's end: the held snapshot leaves (NULL when none), for its file's writer thread, so the
 * next capture can take its own while the file is still written. */
GLR_SNAP_HIDDEN struct glr_snap *glr_snapshot_detach(void);
/* Writes INITIAL_STATE (id 0) and its RESOURCE_BLOB sections of a detached snapshot. 0 or -1. */
GLR_SNAP_HIDDEN int glr_snapshot_write_detached(struct glr_snap *sn, struct glcap_writer *w);
GLR_SNAP_HIDDEN void glr_snapshot_free(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snapshot_discard(void);
/* Called on every recording thread at its first record of capture `epoch` (and when its current
 * context changes): a context not yet in the snapshot (current on another thread when the capture
 * began) has its per-context state read here, on its own thread, before its first call is seen. */
GLR_SNAP_HIDDEN void glr_snapshot_join(uint64_t epoch);

/* ---- shared between the snapshot files (snapshot_base.c unless said otherwise) ---- */

/* A content the state model does not hold, restored by replay/restore.c (RESOURCE_BLOB). */
enum glr_snap_blob_kind {
    GLR_SNAP_BLOB_DEFAULT_COLOR = 1,      /* default framebuffer back buffer, RGBA8 */
    GLR_SNAP_BLOB_DEFAULT_DEPTH_STENCIL = 2, /* default framebuffer depth+stencil, 24_8 */
    GLR_SNAP_BLOB_RENDERBUFFER = 3,       /* a single-sample renderbuffer's pixels */
    GLR_SNAP_BLOB_FIXED_FUNCTION = 7,     /* a compatibility context's fixed-function state, as calls */
};

struct glr_snap_blob {
    uint32_t kind, ctx_id, name;
    uint32_t width, height;
    uint32_t internal_format, format, type;  /* how the bytes were read (and are uploaded) */
    uint8_t *data;
    uint64_t size;
};

struct glr_snap {
    struct sm_state *s;
    uint32_t ctx;               /* the capturing context */
    bool es, core;
    int major, minor;           /* version of the capturing context */
    bool dsa;                   /* desktop GL >= 4.5 */
    bool aniso;                 /* GL_TEXTURE_MAX_ANISOTROPY exists: GL 4.6 or the ARB/EXT extension */
    struct glr_snap_blob *blobs;
    size_t n_blobs, cap_blobs;
    uint64_t bytes_read;        /* contents read back, for the log */
    unsigned warnings;
    char first_warning[160];    /* the first content the snapshot could not keep */
};

/* Version test for the capturing context: desktop (gl) or ES (es) minimum; -1 = never. */
GLR_SNAP_HIDDEN bool glr_snap_has(const struct glr_snap *sn, int gl_major, int gl_minor, int es_major,
                                  int es_minor);
/* Whether the current context advertises extension `name` (the indexed list from GL/ES 3.0). */
GLR_SNAP_HIDDEN bool glr_snap_has_extension(const struct glr_snap *sn, const char *name);
/* Applies a synthesized call (captured names) to the snapshot's state on the capturing context.
 * args are the packed arguments (U(), I(), F() below); blob_index < 0 for none. */
GLR_SNAP_HIDDEN void glr_snap_apply(struct glr_snap *sn, uint32_t cmd, int blob_index, const void *blob,
                                    uint64_t blob_size, int nargs, ...);
GLR_SNAP_HIDDEN void glr_snap_apply_ret(struct glr_snap *sn, uint32_t cmd, uint64_t ret, int blob_index,
                                        const void *blob, uint64_t blob_size, int nargs, ...);
GLR_SNAP_HIDDEN void glr_snap_warn(struct glr_snap *sn, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
GLR_SNAP_HIDDEN bool glr_snap_add_blob(struct glr_snap *sn, const struct glr_snap_blob *b);
/* Pixel-pack state set tight (alignment 1, no row length/skips, no pack buffer) for a read-back,
 * and put back afterwards. */
struct glr_snap_pack { int v[7]; };
GLR_SNAP_HIDDEN void glr_snap_pack_begin(struct glr_snap *sn, struct glr_snap_pack *saved);
GLR_SNAP_HIDDEN void glr_snap_pack_end(struct glr_snap *sn, const struct glr_snap_pack *saved);

#define SNAP_U(v) ((uint64_t)(v))
#define SNAP_I(v) ((uint64_t)(int64_t)(v))
static inline uint64_t SNAP_F(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}
static inline uint64_t SNAP_D(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}

/* Read-backs outside a snapshot (the reference images of framebuffer attachments) use the same
 * discipline: the program's pending GL error is taken first and raised again at the end, debug
 * output is off meanwhile, and the read-back's own errors are drained. begin returns false when no
 * described context is current (then nothing may be read and end must not be called). */
struct glr_snap_guard {
    struct glr_snap sn;
    unsigned pending;
    bool debug_on;
};
GLR_SNAP_HIDDEN bool glr_snap_guard_begin(struct glr_snap_guard *g);
GLR_SNAP_HIDDEN void glr_snap_guard_end(struct glr_snap_guard *g);
/* The pieces of that discipline the hub uses around a whole snapshot: init fills sn's version fields
 * from the context current on this thread (false if none); debug output is switched off (returns
 * whether it was on); errors_end drains the read-back's errors and raises `pending` again. */
GLR_SNAP_HIDDEN bool glr_snap_init(struct glr_snap *sn);
GLR_SNAP_HIDDEN bool glr_snap_debug_output_begin(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_errors_end(struct glr_snap *sn, unsigned pending, bool debug_was_on);
/* snapshot_objects.c: the binding query of a texture target (GL_TEXTURE_2D -> GL_TEXTURE_BINDING_2D); 0 if none. */
GLR_SNAP_HIDDEN unsigned glr_snap_texture_binding(unsigned target);
/* The target a texture was first bound to (GL_TEXTURE_TARGET, else probed); 0 when unknown. */
GLR_SNAP_HIDDEN unsigned glr_snap_texture_target(struct glr_snap *sn, unsigned name);

/* snapshot_objects.c */
GLR_SNAP_HIDDEN void glr_snap_buffers(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_textures(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_renderbuffers(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_samplers(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_programs(struct glr_snap *sn);
/* snapshot_context.c */
GLR_SNAP_HIDDEN void glr_snap_vertex_arrays(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_framebuffers(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_context_state(struct glr_snap *sn);
/* snapshot_queries.c: results earlier frames left in this context's query objects */
GLR_SNAP_HIDDEN void glr_snap_query_results(struct glr_snap *sn);
/* snapshot_fixed.c: lights, materials, fog, texture environments, ... of a compatibility context */
GLR_SNAP_HIDDEN void glr_snap_fixed_function(struct glr_snap *sn);
/* snapshot_arb.c: ARB assembly program objects (shared) and bindings, env parameters, enables */
GLR_SNAP_HIDDEN void glr_snap_arb_programs(struct glr_snap *sn);
GLR_SNAP_HIDDEN void glr_snap_arb_context(struct glr_snap *sn);

#endif
