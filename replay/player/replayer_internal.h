/* Internal to the headless replayer: the replayer's state shared by replayer.c (contexts and the
 * pass loop), replay_images.c (swaps: verification, pass consistency, PNGs) and
 * replay_client_arrays.c (CLIENT_ARRAY records). */
#ifndef GLRH_REPLAYER_INTERNAL_H
#define GLRH_REPLAYER_INTERNAL_H

#include <stdio.h>
#include "replay/player/egl_env.h"
#include "replay/player/gl_readback.h"
#include "replay/player/decoded_stream.h"

struct rctx {
    const struct glrh_context *desc;
    EGLContext ctx;
    EGLSurface surf;
    unsigned w, h;
    bool alpha;
};

/* Client-array copies handed to the driver: alive until the draw that reads them has run. */
struct client_copy {
    void *mem;
};

/* Per swap, the image of the first pass, to check that every pass gives the same images. */
struct pass_image {
    uint8_t *pixels;
    unsigned w, h;
};

struct replayer {
    const struct glrh_capture *cap;
    const struct glrh_options *opt;
    FILE *out;
    struct glrh_egl egl;
    struct glrh_gl gl;
    struct rctx *ctxs;
    struct glr_dispatch *disp;
    struct rctx *current;
    bool readback;                 /* read the back buffer at swaps */
    unsigned pass;
    uint64_t record;               /* index of the record being replayed */
    uint64_t swap_index;           /* swaps so far in this pass */
    bool *image_used;              /* per reference image, in this pass */
    struct pass_image *first_pass; /* per swap */
    uint64_t n_first_pass;
    struct client_copy *copies;
    size_t n_copies, cap_copies;
    bool copies_drawn;             /* a draw has run since the copies were made */
    uint64_t *missing, *bad;       /* per command, over all passes */
    char **bad_reason;             /* per command: why its first refused call was refused */
    uint64_t map_bad;              /* refused buffer mapping events (BUFFER_MAPPED / BUFFER_DATA) */
    char *map_bad_reason;
    uint64_t *unrecorded;          /* per command: calls whose client memory the capture lacks */
    bool *unsized;                 /* per command: listed in METADATA unsized_client_memory */
    uint64_t *gl_error_count;      /* per command (--gl-errors) */
    GLenum *gl_error_first;
    bool in_begin_end;             /* between a replayed glBegin and its glEnd: no glGetError there */
    uint8_t *swap_pixels;
    size_t swap_pixels_size;
    struct glrh_result *res;
    char *err;
    size_t err_size;
    double last_progress;
    struct glrh_decoded *decoded;  /* the stream decoded once for --loop passes; NULL: decode per pass */
};

/* Makes captured context `id` current (no-op if it is); -1 with r->err set. */
int glrh_make_current(struct replayer *r, uint32_t id);
void glrh_seterr(struct replayer *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A swap record: read the back buffer, compare with the reference and the first pass, PNG. */
int glrh_on_swap(struct replayer *r, const struct glr_call *c);
/* After a GL call was dispatched (or skipped): a read-back's recorded result compared with the
 * replay's (replay_readback.c); nothing for other calls. */
void glrh_verify_readback(struct replayer *r, const struct glr_call *c);
/* replay --verify of a GLR_PSEUDO_MAP_READ record: compares the replay's live mapping with what the
 * program's mapping held (replay_readback.c). */
void glrh_verify_map_read(struct replayer *r, const struct glr_call *c);
/* After a pass's last record: the reference images no swap matched (a capture's end images). */
void glrh_verify_end_images(struct replayer *r);
/* --png after a draw or clear. */
void glrh_png_after_draw(struct replayer *r, uint32_t cmd);
/* The same image handed to opt->on_image (glreplay report). */
void glrh_image_after_draw(struct replayer *r, uint32_t cmd);
/* The pixel probe (glrh_options.probe) after a dispatched call of the first pass (replay_probe.c). */
void glrh_probe_after_call(struct replayer *r, const struct glr_call *c);

/* A CLIENT_ARRAY record: returns an enum glr_dispatch_result. */
int glrh_client_array(struct replayer *r, const struct glr_call *c);
/* Frees the client-array copies (after their draw, and at the end of a pass). */
void glrh_free_copies(struct replayer *r);

#endif
