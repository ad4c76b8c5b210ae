/* The initial-state snapshot: orchestration (calling the per-kind files), the default framebuffer's
 * contents, and writing INITIAL_STATE / RESOURCE_BLOB (layouts in docs/GLCAP_FORMAT.md). */
#include <stdarg.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "shim/shim_internal.h"
#include "shim/capture_file.h"
#include "shim/snapshot.h"
#include "shim/track.h"
#include "shim/display_lists.h"
#include "registry/glr_gl_enums.h"
#include "capture/glcap_file.h"
#include "capture/glcap_codec.h"

#include "registry/glr_egl_enums.h"   /* generated from egl.xml */
#define RESOURCE_INDEX_VERSION 1u

static pthread_mutex_t snap_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_snap *held;          /* guarded by snap_lock */
/* Contexts whose per-context state is in `held` (the capturing one, then each context another
 * thread used first during the capture). */
static uint32_t done_ctx[64];
static unsigned n_done;
/* Share groups whose objects are in `held`: the capturing context's, then the group of each
 * context of another group that ran first during the capture (a second window's own context). */
static uint32_t done_group[64];
static unsigned n_done_groups;
static __thread uint64_t tls_join_epoch;
static __thread uint32_t tls_join_ctx;

unsigned glr_snapshot_losses(char *first, size_t first_size)
{
    pthread_mutex_lock(&snap_lock);
    unsigned n = held ? held->warnings : 0;
    if (first && first_size)
        snprintf(first, first_size, "%s", n ? held->first_warning : "");
    pthread_mutex_unlock(&snap_lock);
    return n;
}

/* ---------------------------------------------------------------- default framebuffer */

static void default_framebuffer(struct glr_snap *sn, int api)
{
    void *display = NULL, *surface = NULL;
    if (api == GLR_CTX_GLX) {
        display = GLR_REAL(glXGetCurrentDisplay)();
        surface = (void *)(uintptr_t)GLR_REAL(glXGetCurrentDrawable)();
    } else {
        display = GLR_REAL(eglGetCurrentDisplay)();
        surface = GLR_REAL(eglGetCurrentSurface)(EGL_DRAW);
    }
    if (!display || !surface)
        return;   /* surfaceless: no default framebuffer contents */
    struct glr_ref_image img;
    if (glr_read_back_buffer(api, display, surface, &img) != 0) {
        glr_snap_warn(sn, "cannot read the default framebuffer's colour");
        return;
    }
    struct glr_snap_blob b = { .kind = GLR_SNAP_BLOB_DEFAULT_COLOR, .ctx_id = sn->ctx, .width = img.width,
                               .height = img.height, .internal_format = GL_RGBA8, .format = GL_RGBA,
                               .type = GL_UNSIGNED_BYTE, .data = img.pixels,
                               .size = (uint64_t)img.width * img.height * 4 };
    if (!glr_snap_add_blob(sn, &b)) {
        free(img.pixels);
        return;
    }
    sn->bytes_read += b.size;
    /* Depth and stencil: desktop GL 3.0+ can read them packed (24 + 8 bits), which is what the
     * headless replayer's pbuffers have. ES has no depth read-back: not kept there. */
    if (sn->es || !glr_snap_has(sn, 3, 0, -1, 0))
        return;
    GLint read_fbo = 0, draw_fbo = 0, depth_bits = 0, stencil_bits = 0;
    GLR_REAL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
    GLR_REAL(glGetIntegerv)(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
    if (read_fbo)
        GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, 0);
    /* Sizes only of attachments that exist (asking a missing one is an error). */
    GLint depth_type = GL_NONE, stencil_type = GL_NONE;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_READ_FRAMEBUFFER, GL_DEPTH,
                                                   GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &depth_type);
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_READ_FRAMEBUFFER, GL_STENCIL,
                                                   GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &stencil_type);
    if (depth_type != GL_NONE)
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_READ_FRAMEBUFFER, GL_DEPTH,
                                                       GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, &depth_bits);
    if (stencil_type != GL_NONE)
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_READ_FRAMEBUFFER, GL_STENCIL,
                                                       GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE, &stencil_bits);
    if (depth_bits == 24 && stencil_bits == 8) {
        uint64_t size = (uint64_t)img.width * img.height * 4;
        uint8_t *px = malloc(size);
        if (px) {
            struct glr_snap_pack sv;
            glr_snap_pack_begin(sn, &sv);
            GLR_REAL(glReadPixels)(0, 0, (GLsizei)img.width, (GLsizei)img.height, GL_DEPTH_STENCIL,
                                   GL_UNSIGNED_INT_24_8, px);
            glr_snap_pack_end(sn, &sv);
            struct glr_snap_blob d = { .kind = GLR_SNAP_BLOB_DEFAULT_DEPTH_STENCIL, .ctx_id = sn->ctx,
                                       .width = img.width, .height = img.height,
                                       .internal_format = GL_DEPTH24_STENCIL8, .format = GL_DEPTH_STENCIL,
                                       .type = GL_UNSIGNED_INT_24_8, .data = px, .size = size };
            if (glr_snap_add_blob(sn, &d))
                sn->bytes_read += size;
            else
                free(px);
        }
    } else if (depth_bits || stencil_bits) {
        /* Programs clear depth at the frame start almost always; other layouts are not kept. */
        glr_log(GLR_LOG_INFO, "snapshot: default framebuffer depth %d / stencil %d bits: not kept (only 24/8 is)",
                depth_bits, stencil_bits);
    }
    if (read_fbo)
        GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)read_fbo);
    (void)draw_fbo;
}

/* ---------------------------------------------------------------- taking it */

static void snap_free(struct glr_snap *sn)
{
    if (!sn)
        return;
    sm_state_free(sn->s);
    for (size_t i = 0; i < sn->n_blobs; i++)
        free(sn->blobs[i].data);
    free(sn->blobs);
    free(sn);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Share-group part: the objects of the share group of sn->ctx (current here). */
static void snap_objects_part(struct glr_snap *sn)
{
    glr_snap_buffers(sn);
    glr_snap_textures(sn);
    glr_snap_renderbuffers(sn);
    glr_snap_samplers(sn);
    glr_snap_programs(sn);
    glr_snap_arb_programs(sn);    /* snapshot_arb.c */
    glr_snap_display_lists(sn);   /* display_lists.h */
}

/* Per-context part: vertex arrays, framebuffers, context state of sn->ctx (current here). */
static void snap_context_part(struct glr_snap *sn)
{
    glr_snap_vertex_arrays(sn);
    glr_snap_framebuffers(sn);
    glr_snap_context_state(sn);
    glr_snap_arb_context(sn);     /* snapshot_arb.c */
    if (n_done < sizeof done_ctx / sizeof done_ctx[0])
        done_ctx[n_done++] = sn->ctx;
}

int glr_snapshot_take(int api)
{
    glr_snapshot_discard();
    double t0 = now_s();
    struct glr_snap *sn = calloc(1, sizeof *sn);
    if (!sn)
        return -1;
    if (!glr_snap_init(sn)) {
        glr_log(GLR_LOG_WARN, "snapshot: no current context on the capturing thread; initial state not saved");
        free(sn);
        return -1;
    }
    sn->s = glr_track_clone();
    if (!sn->s || !sm_context_get(sn->s, sn->ctx)) {
        glr_log(GLR_LOG_ERROR, "snapshot: the tracking state lacks context %u (or memory ran out); initial "
                "state not saved", sn->ctx);
        snap_free(sn);
        return -1;
    }
    pthread_mutex_lock(&snap_lock);
    n_done = 0;
    n_done_groups = 0;
    done_group[n_done_groups++] = glr_ctx_share_group(glr_ctx_current());
    /* The program's pending error: read (which clears it) and raised again at the end. */
    GLenum pending = GLR_REAL(glGetError)();
    bool debug_on = glr_snap_debug_output_begin(sn);
    snap_objects_part(sn);
    snap_context_part(sn);
    default_framebuffer(sn, api);
    glr_snap_errors_end(sn, pending, debug_on);
    held = sn;
    pthread_mutex_unlock(&snap_lock);
    glr_log(GLR_LOG_INFO, "snapshot: context %u, %llu bytes of contents read in %.3f s", sn->ctx,
            (unsigned long long)sn->bytes_read, now_s() - t0);
    return 0;
}

void glr_snapshot_join(uint64_t epoch)
{
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    if (tls_join_epoch == epoch && tls_join_ctx == ctx)
        return;
    tls_join_epoch = epoch;
    tls_join_ctx = ctx;
    if (!ctx)
        return;
    pthread_mutex_lock(&snap_lock);
    bool done = !held;
    for (unsigned i = 0; i < n_done && !done; i++)
        done = done_ctx[i] == ctx;
    if (!done) {
        /* The state another thread's context had when it first ran during the capture: nothing ran
         * on it since the capture began, so this is its state at the frame start. */
        struct glr_snap part = *held;
        if (glr_snap_init(&part) && sm_context_get(part.s, part.ctx)) {
            GLenum pending = GLR_REAL(glGetError)();
            bool debug_on = glr_snap_debug_output_begin(&part);
            /* A context of another share group (a second window without sharing): its objects are
             * read back here, on a context of that group, as they were at the frame start. */
            uint32_t group = glr_ctx_share_group(glr_ctx_current());
            bool group_done = false;
            for (unsigned i = 0; i < n_done_groups && !group_done; i++)
                group_done = done_group[i] == group;
            if (!group_done && n_done_groups < sizeof done_group / sizeof done_group[0]) {
                done_group[n_done_groups++] = group;
                snap_objects_part(&part);
            }
            snap_context_part(&part);
            glr_snap_errors_end(&part, pending, debug_on);
            glr_log(GLR_LOG_INFO, "snapshot: context %u (share group %u%s) added", part.ctx, group,
                    group_done ? "" : ", with its objects");
        }
        /* What the part read back (resource contents) belongs to the snapshot. */
        held->blobs = part.blobs;
        held->n_blobs = part.n_blobs;
        held->cap_blobs = part.cap_blobs;
        held->bytes_read = part.bytes_read;
        held->warnings = part.warnings;
        memcpy(held->first_warning, part.first_warning, sizeof held->first_warning);
    }
    pthread_mutex_unlock(&snap_lock);
}

bool glr_snapshot_ready(void)
{
    return held != NULL;
}

void glr_snapshot_discard(void)
{
    pthread_mutex_lock(&snap_lock);
    snap_free(held);
    held = NULL;
    n_done = 0;
    n_done_groups = 0;
    pthread_mutex_unlock(&snap_lock);
}

/* ---------------------------------------------------------------- writing */

struct glr_snap *glr_snapshot_detach(void)
{
    pthread_mutex_lock(&snap_lock);
    struct glr_snap *sn = held;
    held = NULL;
    n_done = 0;
    n_done_groups = 0;
    pthread_mutex_unlock(&snap_lock);
    return sn;
}

void glr_snapshot_free(struct glr_snap *sn)
{
    snap_free(sn);
}

int glr_snapshot_write_detached(struct glr_snap *sn, struct glcap_writer *w)
{
    /* A capture that lost data says so without asking (the list: GLREPLAY_LOG=warn). */
    if (sn->warnings)
        glr_log(GLR_LOG_ERROR, "snapshot: %u content%s could not be kept (first: %s); the replay of this capture "
                "will differ where %s used (GLREPLAY_LOG=warn lists them)", sn->warnings,
                sn->warnings == 1 ? "" : "s", sn->first_warning, sn->warnings == 1 ? "it is" : "they are");
    size_t sm_size = 0;
    uint8_t *sm_bytes = sm_serialize(sn->s, &sm_size);
    if (!sm_bytes) {
        glr_log(GLR_LOG_ERROR, "snapshot: out of memory serializing the initial state");
        return -1;
    }
    /* RESOURCE_BLOB 0: the index of the contents the state model does not hold. */
    glcap_wbuf index;
    glcap_wbuf_init(&index);
    glcap_put_uvar(&index, RESOURCE_INDEX_VERSION);
    glcap_put_uvar(&index, sn->ctx);
    glcap_put_uvar(&index, sn->n_blobs);
    for (size_t i = 0; i < sn->n_blobs; i++) {
        const struct glr_snap_blob *b = &sn->blobs[i];
        glcap_put_uvar(&index, b->kind);
        glcap_put_uvar(&index, b->ctx_id);
        glcap_put_uvar(&index, b->name);
        glcap_put_uvar(&index, b->width);
        glcap_put_uvar(&index, b->height);
        glcap_put_uvar(&index, b->internal_format);
        glcap_put_uvar(&index, b->format);
        glcap_put_uvar(&index, b->type);
        glcap_put_uvar(&index, b->size);
    }
    int rc = index.failed ? -1 : 0;
    if (rc == 0)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_INITIAL_STATE, 0, GLCAP_COMPRESSION_ZSTD, sm_bytes, sm_size);
    if (rc == 0)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, 0, GLCAP_COMPRESSION_NONE, index.data,
                                      index.len);
    for (size_t i = 0; rc == 0 && i < sn->n_blobs; i++)
        rc = glcap_writer_add_section(w, GLCAP_SECTION_RESOURCE_BLOB, (uint32_t)(i + 1), GLCAP_COMPRESSION_ZSTD,
                                      sn->blobs[i].data, (size_t)sn->blobs[i].size);
    glcap_wbuf_free(&index);
    free(sm_bytes);
    return rc;
}
