/* Internal to compare/ (not included from other folders): the driver side's state and the
 * functions the engine's files share. The public interface is compare/model_compare.h. */
#ifndef GLR_MCMP_INTERNAL_H
#define GLR_MCMP_INTERNAL_H

#include "compare/model_compare.h"
#include "replay/player/egl_env.h"
#include "replay/player/gl_readback.h"

/* ------------------------------------------------------------------ the driver side */

struct dctx {
    const struct glrh_context *desc;
    EGLContext ctx;
    EGLSurface surf;
    unsigned w, h;
    bool alpha;
};

struct mcmp_driver {
    struct glrh_egl egl;
    struct glrh_gl gl;
    struct glr_dispatch *disp;
    struct dctx *ctxs;
    unsigned n;
    struct dctx *current;
    void **copies;
    size_t n_copies, cap_copies;
    bool copies_drawn;
    bool *unsized;
    /* Records the driver side could not replay (malformed, a function the driver lacks, client
     * memory the capture does not hold, a mapping write with no mapping): its image is then not
     * the program's, so a comparison with it proves nothing. */
    uint64_t skipped;
    char first_skipped[128];
};

/* Makes the driver's context of capture context id current; -1 if it has none. */
int mcmp_make_current(struct mcmp_driver *d, uint32_t id);
/* Replays one record on the driver. */
void mcmp_driver_feed(struct mcmp_driver *d, const struct glr_call *c, bool is_draw);
/* Reads the bound draw framebuffer's colour buffer or depth, under the crash guard. */
int mcmp_guarded_read(struct mcmp_driver *d, GLenum buffer, bool depth, int w, int h, void *out);

/* ------------------------------------------------------------------ comparisons (mcmp_images.c) */

/* Compares every target of the draw framebuffer bound on ctx after a draw/clear. */
void mcmp_compare_targets(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                          size_t text_size);
/* After a dispatch: the bound shader storage buffers; with xfb, after a draw: the transform
 * feedback buffers. */
void mcmp_compare_buffers(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                          size_t text_size, bool xfb, bool clock);
/* After a dispatch: the textures bound to image units for writing ("ctxN/imageU"). */
void mcmp_compare_images(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                         size_t text_size);
/* At a swap: the default framebuffer against the reference image and the driver. */
void mcmp_on_swap(struct mcmp_run *r, const struct glr_call *c, uint64_t record);

#endif
