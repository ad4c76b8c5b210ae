/* Writing a finished capture to a .glcap file, and the driver read-backs it needs (context
 * description, back-buffer image) done with the real driver functions, leaving no trace in the
 * program's GL state. */
#ifndef GLR_SHIM_CAPTURE_FILE_H
#define GLR_SHIM_CAPTURE_FILE_H

#include <stdbool.h>
#include <stdint.h>

struct glr_ctx_desc {
    uint32_t id, share_group;
    int api;                 /* enum glr_ctx_api */
    int is_es;
    int major, minor;
    int profile_mask;        /* GL_CONTEXT_PROFILE_MASK (desktop GL >= 3.2), else 0 */
    int flags;               /* GL_CONTEXT_FLAGS (desktop GL >= 3.0), else 0 */
    int samples;             /* GL_SAMPLES of the window (default framebuffer): 0 single-sampled */
    int alpha_bits;          /* alpha bits of the window's colour buffer; -1 unknown */
    int depth_bits, stencil_bits; /* the window's depth and stencil buffers' bits; -1 unknown */
    char version[128], renderer[128], vendor[64], glsl[64];
};

struct glr_ref_image {
    uint64_t frame;
    uint32_t ctx_id;
    uint32_t fbo;            /* 0: the default framebuffer; else the draw framebuffer's name */
    uint32_t attachment;     /* GL_BACK, or the GL_COLOR_ATTACHMENTi read */
    uint32_t width, height;  /* RGBA8 pixels, rows bottom-up as glReadPixels gives them */
    uint8_t *pixels;         /* NULL once reduced to its hash (shim/capture_refs.c) */
    bool hash_only;
    uint64_t hash;           /* XXH3-64 of the pixels, when hash_only */
    bool provisional;        /* kept when the context stopped being current: replaced by a later one */
};

#define GLR_MAX_UNSIZED_LISTED 64

struct glr_capture_summary {
    const char *path;
    uint64_t first_frame, last_frame;
    const char *end_reason;
    bool initial_default;   /* recording began before any context existed: replay starts fresh */
    struct glr_ctx_desc contexts[64];
    unsigned n_contexts;
    const char *unsized[GLR_MAX_UNSIZED_LISTED];
    unsigned n_unsized;
    /* The initial-state snapshot, as it was when the capture ended (the metadata says so). */
    bool snapshot_held;
    unsigned snapshot_losses;
    char snapshot_first_loss[160];
};

void glr_describe_current_context(struct glr_ctx_desc *d) __attribute__((visibility("hidden")));
const struct glr_ctx_desc *glr_current_ctx_desc(void) __attribute__((visibility("hidden")));
/* Sets this thread's description to d (a copy), or clears it (d NULL): at each make-current. */
void glr_set_current_ctx_desc(const struct glr_ctx_desc *d) __attribute__((visibility("hidden")));
/* Whether a framebuffer object is bound for drawing on the current context: one glGetIntegerv
 * (false on contexts that may lack framebuffer objects, where asking could raise an error). */
bool glr_draw_fbo_bound_cheap(void) __attribute__((visibility("hidden")));
/* Every colour attachment the bound draw framebuffer draws to (when one other than 0 is bound),
 * read as RGBA8 and appended to *images (frame and ctx_id set by the caller). Integer and
 * multisampled attachments are skipped with a log line. Returns how many were added. */
unsigned glr_read_draw_fbo_images(struct glr_ref_image **images, unsigned *n_images)
    __attribute__((visibility("hidden")));
int glr_read_back_buffer(int api, void *display, void *surface, struct glr_ref_image *out)
    __attribute__((visibility("hidden")));

#endif
