/* Internal to debugger/pixel: the driver's answers the earlier-pass feed collects (pixel_feed.c),
 * shared with the cache of those answers across histories in one process (pixel_cache.c). */
#ifndef GLR_PIXEL_FEED_PRIV_H
#define GLR_PIXEL_FEED_PRIV_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct feed_img {
    uint64_t record;        /* the driver's image after this record (the last draw writing it) */
    uint32_t tex, att;      /* texture (or renderbuffer) name; its attachment point in the bound
                               draw framebuffer (GL_COLOR_ATTACHMENTi, GL_DEPTH_ATTACHMENT) */
    uint32_t internal_format;
    unsigned w, h;
    uint8_t *rgba;          /* NULL until the driver gave it: w x h x bytes, as format/type say */
    uint32_t type;          /* GL_TEXTURE or GL_RENDERBUFFER */
    uint32_t format, data_type;   /* how it is read (glReadPixels) and handed to the model */
    unsigned bytes;         /* per pixel */
    int32_t level, layer;   /* a texture's mip level and layer (array layer, 3D slice, cube face) */
    unsigned samples;       /* > 1: a multisample image, rgba holds one plane per sample */
    unsigned layers;        /* > 1: every layer of a layered attachment (layer -1), a plane each */
};

/* The bytes the driver gave for an image (every sample of a multisample one). */
static inline uint64_t pxh_feed_img_bytes(const struct feed_img *m)
{
    return (uint64_t)m->w * m->h * m->bytes * (m->samples > 1 ? m->samples : 1) * (m->layers > 1 ? m->layers : 1);
}

struct feed_probe {
    uint64_t record;
    uint32_t buffer;
    bool answered, ok;
    uint8_t rgba[4];
    uint8_t *image;         /* the whole target after the record (pxh_feed.want_targets), or NULL */
};

/* A texture (or other image) the model left stale: pass draws wrote it in the driver only. */
struct stale {
    uint32_t type;          /* GL_TEXTURE, GL_RENDERBUFFER, 0: the default framebuffer */
    uint32_t name;
    int32_t level, layer;   /* which image of a texture (0, 0 otherwise) */
    uint64_t record;        /* the last draw that wrote it */
    bool syncable;          /* a driver image can replace it exactly */
};

struct pxh_feed {
    bool on;                /* the model pass leaves pass draws out */
    /* Test hook (GLREPLAY_PIXEL_FEED_TEST_DROP, pxh_feed_test_drop): the driver's images count as
     * not given, so the first one needed makes the feed give up. */
    bool test_drop;
    struct feed_probe *probes;
    size_t n_probes, cap_probes, next_probe;
    struct feed_img *imgs;
    size_t n_imgs, cap_imgs, next_img;
    uint64_t bytes;
    struct stale *stale;
    size_t n_stale, cap_stale;
    uint64_t left_out, uploads;
    char why[200];          /* the model pass gave up: why */
    cJSON *log;             /* [{"texture", "after_record", "before_record"}] */
    /* The whole target image (tw x th, RGBA8) after every probed record, for the cache: then the
     * histories of other pixels of the same capture and target need no driver replay. */
    bool want_targets;
    unsigned tw, th;
    unsigned fbo_w, fbo_h;  /* an FBO target's size at every probed record (the plan's) */
    bool fbo_mixed;         /* ... unless it differs or is not a plain image somewhere */
    /* The driver that answered (pixel_driver_ident.c), named at the first answer, while its
     * context is current: Mesa unloads the driver when the replay's display ends, before the
     * on-disk cache keeps the answers. NULL: not named (the answers are not kept on disk). */
    uint8_t *driver_ident;
    size_t driver_ident_size;
};

#endif
