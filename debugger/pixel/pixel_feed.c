/* Earlier passes from the driver (pixel_internal.h, docs/PIXEL_HISTORY.md "Earlier passes"):
 * a frame that renders full-screen passes into framebuffer objects and samples them later would
 * cost the pixel history the whole frame in the model. Instead, with the driver replay on:
 *
 * 1. A plan pass over the stream on the state model alone finds, in the target's context, the
 *    draws into framebuffer objects other than the target ("pass draws") and, before every other
 *    record that may read or write images (a sync point: a draw or clear that is modelled, a blit,
 *    copy, upload, mipmap generation, read-back), which textures those draws left written: the
 *    driver is asked for each such texture's image right after the last draw that wrote it, and
 *    for the target pixel after every record that may write the target (the history's checks).
 * 2. The driver replay (EGL, the same replay as `replay --png`) answers both (glrh_probe).
 * 3. The model pass leaves the pass draws out (gmf_set_skip_draws: the program is compiled,
 *    nothing is drawn; draws with side effects are drawn) and at each sync point writes the
 *    driver's images into the textures and renderbuffers they left stale
 *    (gmf_feed_initial_contents), each read in its own format: RGBA8 colour as bytes, float colour
 *    as floats, depth and depth-stencil as stored (read_spec). Images the driver cannot give
 *    exactly (a layer or level above 0, a multisampled image, a separate stencil image, integer or
 *    other formats) stay stale; a record that could read one (a draw that samples
 *    it or draws with it attached, any blit, copy or read) makes the pass give up, and the
 *    history is run again with every draw in the model, as without this file.
 *
 * The history's events are the target's: the values after each event come from the model's draws
 * into the target over the driver's images of the earlier passes, so they equal the driver's
 * image after each event wherever the model's draws do. The fragment shader debugging of an
 * earlier pass (glreplay debug, DAP) runs every draw in the model and is not affected. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pixel_internal.h"
#include "pixel_feed_priv.h"
#include "capture/glcap_file.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "replay/player/player.h"
#include "replay/replay.h"
#include "replay/ms_samples.h"
#include "registry/glr_registry.h"
#include "statemodel/statemodel.h"

#define FEED_MAX_BYTES (768ull << 20)   /* driver images kept at most (then the model runs all) */

const char *pxh_writer_kind(uint32_t cmd)
{
    if (cmd >= GLR_CMD_COUNT)
        return NULL;
    uint32_t f = glr_cmds[cmd].flags;   /* generated classes: registry/gen_registry.py reader_flags */
    return f & GLR_CF_BLIT_ANY ? "blit" : f & GLR_CF_COPY_ANY ? "copy" : f & GLR_CF_UPLOAD ? "upload" : NULL;
}

bool pxh_may_write_cmd(uint32_t cmd)
{
    if (pxh_writer_kind(cmd) || glrh_cmd_is_draw(cmd) || cmd == GLR_CMD_glCallList || cmd == GLR_CMD_glCallLists)
        return true;
    if (cmd >= GLR_CMD_COUNT)
        return false;
    return glr_cmds[cmd].flags & (GLR_CF_DRAW_NAMED | GLR_CF_MULTI_DRAW | GLR_CF_CLEAR_NAMED);
}

/* Draws the model may leave out: array/element draws (not glBegin/glEnd, glRect, display lists,
 * whose records change state too, nor glDrawPixels). */
static bool pass_draw_cmd(uint32_t cmd)
{
    if (cmd >= GLR_CMD_COUNT || !glrh_cmd_is_draw(cmd) || pxh_writer_kind(cmd))
        return false;
    return glr_cmds[cmd].flags & (GLR_CF_DRAW_NAMED | GLR_CF_MULTI_DRAW);
}

/* Records before which stale images must be current: anything that may read or write images
 * (glDrawBuffers and glClearColor select or set state only). */
static bool sync_cmd(uint32_t cmd)
{
    if (cmd >= GLR_CMD_COUNT)
        return false;
    if (pxh_writer_kind(cmd) || glrh_cmd_is_draw(cmd) || glrh_cmd_is_clear(cmd) || cmd == GLR_CMD_glCallList ||
        cmd == GLR_CMD_glCallLists)
        return true;
    return glr_cmds[cmd].flags & GLR_CF_READS_IMAGE;
}

/* The draw framebuffer when `c` is a pass draw of the target's context, else -1. */
static int64_t pass_fbo(const struct engine *e, const struct sm_state *sm, const struct glr_call *c)
{
    if (c->ctx_id != e->t.ctx_id || !pass_draw_cmd(c->cmd))
        return -1;
    const struct sm_context *sc = sm_context_get(sm, c->ctx_id);
    if (!sc)
        return -1;
    uint32_t fbo = sm_context_state(sc)->draw_fbo;
    return fbo == e->t.fbo ? -1 : (int64_t)fbo;
}

/* How an earlier pass's image is read from the driver and handed to the model, exactly: in the
 * client format and type that keep every bit of its internal format (sm_exact_transfer, the table
 * the shim's snapshot uses: normalized, float and integer colour, depth and depth-stencil as
 * stored; gmf_initial_contents.c takes D24 from 32-bit integers exactly), a separate stencil image
 * as GL_STENCIL_INDEX bytes. Which image of a texture: its level and layer (model's numbering). */
struct img_spec {
    uint32_t type, name, ifmt, format, data_type;
    unsigned bytes, w, h;
    int32_t level, layer;   /* layer -1: every layer (a layered attachment) */
    unsigned samples;   /* > 1: every sample read (replay/ms_samples.h) */
    unsigned layers;    /* > 1: every layer read, layer after layer */
};

enum img_kind { IMG_COLOR, IMG_DEPTH, IMG_STENCIL };

static bool read_spec(uint32_t ifmt, uint32_t data_type, enum img_kind kind, struct img_spec *s)
{
    if (kind == IMG_STENCIL) {   /* a stencil-only image: its indices as bytes (8 bits at most) */
        if (ifmt != GL_STENCIL_INDEX8 && ifmt != GL_STENCIL_INDEX && ifmt != GL_STENCIL_INDEX4 &&
            ifmt != GL_STENCIL_INDEX1)
            return false;
        s->format = GL_STENCIL_INDEX;
        s->data_type = GL_UNSIGNED_BYTE;
        s->bytes = 1;
        return true;
    }
    /* unsized colour formats of byte data are RGBA8 in the driver (GL 1.0's 3 and 4 too) */
    if (kind == IMG_COLOR && (ifmt == GL_RGBA || ifmt == GL_RGB || ifmt == 4 || ifmt == 3) &&
        (data_type == GL_UNSIGNED_BYTE || data_type == 0))
        ifmt = GL_RGBA8;
    /* sRGB images: whether glReadPixels decodes them is the driver's choice, so not exact */
    if (ifmt == GL_SRGB8_ALPHA8 || ifmt == GL_SRGB8)
        return false;
    uint32_t format, type;
    unsigned bytes;
    if (!sm_exact_transfer(ifmt, &format, &type, &bytes))
        return false;
    bool depth = format == GL_DEPTH_COMPONENT || format == GL_DEPTH_STENCIL;
    bool colour = format == GL_RGBA || format == GL_RGB || format == GL_RG || format == GL_RED ||
                  format == GL_RGBA_INTEGER || format == GL_RGB_INTEGER || format == GL_RG_INTEGER ||
                  format == GL_RED_INTEGER;
    if (kind == IMG_DEPTH ? !depth : !colour)
        return false;   /* (luminance, alpha, intensity: not colour-renderable, read back summed) */
    s->format = format;
    s->data_type = type;
    s->bytes = bytes;
    return true;
}

/* Whether an attachment (of kind `kind`) can be replaced by a driver image exactly: a single-sample
 * renderbuffer, or one image (any level; one layer of an array, a 3D slice, a cube face) of a 2D,
 * rectangle, 2D array, 3D, cube-map or cube-map array texture attached alone (not layered: a
 * geometry shader may write every layer), in a format read_spec knows. */
/* A multisample image: every sample through replay/ms_samples.c's helper passes (glr_ms_read) in
 * its exact transfer (glr_ms_transfer), handed to the model plane by plane (gmf_content kinds 5
 * and 6). Depth and depth-stencil too (the stencil bits need GL 4.3 stencil texturing). */
static bool syncable_ms(uint32_t ifmt, int32_t w, int32_t h, int32_t samples, enum img_kind kind, struct img_spec *s)
{
    unsigned format, type, bpp;
    if (kind == IMG_STENCIL || samples < 2 || samples > 32 || w <= 0 || h <= 0 ||
        !glr_ms_transfer(ifmt, &format, &type, &bpp))
        return false;
    bool depth = format == GL_DEPTH_COMPONENT || format == GL_DEPTH_STENCIL;
    if ((kind == IMG_DEPTH) != depth || ifmt == GL_SRGB8_ALPHA8 || ifmt == GL_SRGB8)
        return false;
    s->format = format;
    s->data_type = type;
    s->bytes = bpp;
    s->samples = (unsigned)samples;
    s->ifmt = ifmt;
    s->w = (unsigned)w;
    s->h = (unsigned)h;
    return true;
}

/* A layered attachment (glFramebufferTexture of an array, 3D, cube-map or cube-map array texture:
 * a geometry shader picks each primitive's layer): every layer of the level, each read alone. */
static bool syncable_layered(const struct sm_texture *t, const struct sm_attachment *a, enum img_kind kind,
                             struct img_spec *s)
{
    bool cube = t->target == GL_TEXTURE_CUBE_MAP;
    if (!cube && t->target != GL_TEXTURE_2D_ARRAY && t->target != GL_TEXTURE_3D &&
        t->target != GL_TEXTURE_CUBE_MAP_ARRAY)
        return false;
    const struct sm_tex_image *im = &t->image[0][a->level];
    int32_t layers = cube ? 6 : im->depth;
    for (int f = 0; f < (cube ? 6 : 1); f++) {   /* every face alike */
        const struct sm_tex_image *fi = &t->image[f][a->level];
        if (!fi->defined || fi->compressed || fi->samples > 1 || fi->width != im->width ||
            fi->height != im->height || fi->internal_format != im->internal_format)
            return false;
    }
    if (layers < 1 || layers > 2048 * 6 || im->width <= 0 || im->height <= 0 ||
        !read_spec(im->internal_format, im->data_type, kind, s))
        return false;
    s->type = a->type;
    s->name = a->name;
    s->ifmt = im->internal_format;
    s->w = (unsigned)im->width;
    s->h = (unsigned)im->height;
    s->level = a->level;
    s->layer = -1;
    s->layers = (unsigned)layers;
    return true;
}

static bool syncable(const struct sm_context *sc, const struct sm_attachment *a, enum img_kind kind,
                     struct img_spec *s)
{
    uint32_t ifmt, data_type = 0;
    int32_t w, h;
    s->level = s->layer = 0;
    s->samples = s->layers = 0;
    if (a->type == GL_TEXTURE) {
        const struct sm_texture *t = sm_get_texture(sc, a->name);
        if (!t || a->level < 0 || a->level >= SM_MAX_LEVELS)
            return false;
        if (a->layered)
            return syncable_layered(t, a, kind, s);
        if (t->target == GL_TEXTURE_2D_MULTISAMPLE) {
            const struct sm_tex_image *im = &t->image[0][0];
            if (a->level != 0 || a->layer != 0 || !im->defined ||
                !syncable_ms(im->internal_format, im->width, im->height, im->samples, kind, s))
                return false;
            s->type = a->type;
            s->name = a->name;
            return true;
        }
        bool cube = t->target == GL_TEXTURE_CUBE_MAP;
        int face = 0, layer = a->layer;
        if (cube) {   /* a face: glFramebufferTexture2D's target, or glFramebufferTextureLayer's layer */
            face = a->textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && a->textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z
                       ? (int)(a->textarget - GL_TEXTURE_CUBE_MAP_POSITIVE_X) : a->layer;
            if (face < 0 || face > 5)
                return false;
            layer = face;
        } else if (t->target != GL_TEXTURE_2D && t->target != GL_TEXTURE_RECTANGLE &&
                   t->target != GL_TEXTURE_2D_ARRAY && t->target != GL_TEXTURE_3D &&
                   t->target != GL_TEXTURE_CUBE_MAP_ARRAY) {
            return false;
        }
        const struct sm_tex_image *im = &t->image[face][a->level];
        if (!im->defined || im->compressed || im->samples > 1)
            return false;
        bool layers = t->target == GL_TEXTURE_2D_ARRAY || t->target == GL_TEXTURE_3D ||
                      t->target == GL_TEXTURE_CUBE_MAP_ARRAY;
        if (layer < 0 || (layers ? layer >= (im->depth > 0 ? im->depth : 1) : !cube && layer != 0))
            return false;
        ifmt = im->internal_format;
        data_type = im->data_type;
        w = im->width;
        h = im->height;
        s->level = a->level;
        s->layer = layer;
    } else if (a->type == GL_RENDERBUFFER) {
        const struct sm_renderbuffer *rb = sm_get_renderbuffer(sc, a->name);
        if (!rb)
            return false;
        if (rb->samples > 1) {
            if (!syncable_ms(rb->internal_format, rb->width, rb->height, rb->samples, kind, s))
                return false;
            s->type = a->type;
            s->name = a->name;
            return true;
        }
        ifmt = rb->internal_format;
        w = rb->width;
        h = rb->height;
    } else {
        return false;
    }
    if (w <= 0 || h <= 0 || !read_spec(ifmt, data_type, kind, s))
        return false;
    s->type = a->type;
    s->name = a->name;
    s->ifmt = ifmt;
    s->w = (unsigned)w;
    s->h = (unsigned)h;
    return true;
}

static void *grow(void *p, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return p;
    size_t c = *cap ? 2 * *cap : 64;
    void *q = realloc(p, c * elem);
    if (q)
        *cap = c;
    return q;
}

/* ---- the plan pass ---- */

struct pending { struct img_spec sp; uint32_t att; uint64_t record; };

static int plan_record(struct pxh_feed *f, const struct engine *e, const struct sm_state *sm, const struct glr_call *c,
                       uint64_t record, struct pending **pend, size_t *n_pend, size_t *cap_pend)
{
    const struct sm_context *sc = sm_context_get(sm, c->ctx_id);
    int64_t pf = pass_fbo(e, sm, c);
    if (pf > 0) {
        const struct sm_framebuffer *fb = sm_get_framebuffer(sc, (uint32_t)pf);
        /* the colour attachments, the depth one (a depth-stencil image read whole with it) and a
         * separate stencil image */
        for (int i = 0; fb && i <= SM_MAX_COLOR_ATTACH + 1; i++) {
            bool depth = i == SM_MAX_COLOR_ATTACH, stencil = i == SM_MAX_COLOR_ATTACH + 1;
            const struct sm_attachment *at = stencil ? &fb->stencil : depth ? &fb->depth : &fb->color[i];
            if (stencil && at->type == fb->depth.type && at->name == fb->depth.name)
                continue;   /* one depth-stencil image: read with the depth */
            struct pending p = { .att = stencil ? GL_STENCIL_ATTACHMENT
                                        : depth ? GL_DEPTH_ATTACHMENT : GL_COLOR_ATTACHMENT0 + (uint32_t)i,
                                 .record = record };
            if (!syncable(sc, at, stencil ? IMG_STENCIL : depth ? IMG_DEPTH : IMG_COLOR, &p.sp))
                continue;
            size_t k = 0;
            while (k < *n_pend && ((*pend)[k].sp.name != p.sp.name || (*pend)[k].sp.type != p.sp.type ||
                                   (*pend)[k].sp.level != p.sp.level || (*pend)[k].sp.layer != p.sp.layer))
                k++;
            if (k == *n_pend) {
                struct pending *q = grow(*pend, cap_pend, *n_pend, sizeof *q);
                if (!q)
                    return -1;
                *pend = q;
                (*n_pend)++;
            }
            (*pend)[k] = p;
        }
        return 0;
    }
    if (pf == 0 || !sync_cmd(c->cmd))
        return 0;   /* a pass draw into the default framebuffer leaves nothing to fetch */
    for (size_t k = 0; k < *n_pend; k++) {
        const struct pending *p = &(*pend)[k];
        uint64_t sz = (uint64_t)p->sp.w * p->sp.h * p->sp.bytes * (p->sp.samples > 1 ? p->sp.samples : 1) *
                      (p->sp.layers > 1 ? p->sp.layers : 1);
        if (f->bytes + sz > FEED_MAX_BYTES)
            continue;   /* not fetched: the model pass gives up if it needs it */
        struct feed_img *q = grow(f->imgs, &f->cap_imgs, f->n_imgs, sizeof *q);
        if (!q)
            return -1;
        f->imgs = q;
        f->imgs[f->n_imgs++] = (struct feed_img){ p->record, p->sp.name, p->att, p->sp.ifmt, p->sp.w, p->sp.h, NULL,
                                                  p->sp.type, p->sp.format, p->sp.data_type, p->sp.bytes,
                                                  p->sp.level, p->sp.layer, p->sp.samples, p->sp.layers };
        f->bytes += sz;
    }
    *n_pend = 0;
    return 0;
}

static int by_record(const void *a, const void *b)
{
    const struct feed_img *x = a, *y = b;
    return x->record < y->record ? -1 : x->record > y->record;
}

/* An FBO target's size at a probed record, for the cache's whole-target reads: kept while every
 * probed record finds the same plain image (level 0 of a 2D or rectangle texture, or a
 * renderbuffer) there; otherwise the target is not kept (fbo_w 0). */
static void target_size(struct pxh_feed *f, const struct sm_context *sc, const struct engine *e)
{
    const struct sm_framebuffer *fb = sm_get_framebuffer(sc, e->t.fbo);
    const struct sm_attachment *a =
        fb && e->t.attachment >= 0 && e->t.attachment < SM_MAX_COLOR_ATTACH ? &fb->color[e->t.attachment] : NULL;
    int32_t w = 0, h = 0;
    if (a && a->type == GL_TEXTURE && a->level == 0 && a->layer == 0 && !a->layered) {
        const struct sm_texture *t = sm_get_texture(sc, a->name);
        if (t && (t->target == GL_TEXTURE_2D || t->target == GL_TEXTURE_RECTANGLE) && t->image[0][0].samples <= 1)
            w = t->image[0][0].width, h = t->image[0][0].height;
    } else if (a && a->type == GL_RENDERBUFFER) {
        const struct sm_renderbuffer *rb = sm_get_renderbuffer(sc, a->name);
        if (rb && rb->samples <= 1)
            w = rb->width, h = rb->height;
    }
    bool first = f->n_probes == 1;
    if (w <= 0 || h <= 0 || (!first && ((unsigned)w != f->fbo_w || (unsigned)h != f->fbo_h)) ||
        (!first && !f->fbo_w)) {
        f->fbo_w = f->fbo_h = 0;
        f->fbo_mixed = true;
        return;
    }
    if (!f->fbo_mixed) {
        f->fbo_w = (unsigned)w;
        f->fbo_h = (unsigned)h;
    }
}

bool pxh_feed_target_size(const struct pxh_feed *f, unsigned *w, unsigned *h)
{
    if (!f || f->fbo_mixed || !f->fbo_w)
        return false;
    *w = f->fbo_w;
    *h = f->fbo_h;
    return true;
}

struct pxh_feed *pxh_feed_plan(const struct engine *e, const struct glrh_capture *cap, const struct glr_restore *snap,
                               const char *meta, char *err, size_t n)
{
    struct pxh_feed *f = calloc(1, sizeof *f);
    struct sm_state *sm = snap ? sm_state_clone(glr_restore_state(snap)) : sm_state_new();
    struct pending *pend = NULL;
    size_t n_pend = 0, cap_pend = 0;
    if (!f || !sm || !(f->log = cJSON_CreateArray()))
        goto oom;
    if (sm_declare_capture_contexts(sm, meta, NULL, err, n) < 0)
        goto fail;
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k;
    for (uint64_t record = 0; (k = glr_stream_next(&s, &c)) == 1; record++) {
        if (plan_record(f, e, sm, &c, record, &pend, &n_pend, &cap_pend) != 0)
            goto oom;
        /* the driver's pixel after every record that may write the target (the history asks
         * about a subset: pixel_history.c's may_write) */
        const struct sm_context *sc = c.ctx_id == e->t.ctx_id ? sm_context_get(sm, c.ctx_id) : NULL;
        if (sc && sm_context_state(sc)->draw_fbo == e->t.fbo && pxh_may_write_cmd(c.cmd)) {
            struct feed_probe *q = grow(f->probes, &f->cap_probes, f->n_probes, sizeof *q);
            if (!q)
                goto oom;
            f->probes = q;
            f->probes[f->n_probes++] = (struct feed_probe){
                .record = record, .buffer = e->t.fbo ? GL_COLOR_ATTACHMENT0 + (uint32_t)e->t.attachment : 0 };
            if (e->t.fbo)
                target_size(f, sc, e);
        }
        sm_apply(sm, &c);
    }
    if (k < 0) {
        snprintf(err, n, "%s", s.err);
        goto fail;
    }
    if (f->n_imgs)   /* (qsort of NULL, even of nothing, is undefined) */
        qsort(f->imgs, f->n_imgs, sizeof *f->imgs, by_record);
    f->on = true;
    f->test_drop = pxh_feed_test_drop("history");
    sm_state_free(sm);
    free(pend);
    return f;
oom:
    snprintf(err, n, "out of memory");
fail:
    sm_state_free(sm);
    free(pend);
    pxh_feed_free(f);
    return NULL;
}

void pxh_feed_free(struct pxh_feed *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n_imgs; i++)
        free(f->imgs[i].rgba);
    for (size_t i = 0; i < f->n_probes; i++)
        free(f->probes[i].image);
    free(f->imgs);
    free(f->probes);
    free(f->stale);
    free(f->driver_ident);
    cJSON_Delete(f->log);
    free(f);
}

/* ---- the driver pass's probe ---- */

static bool probe_want(void *user, uint64_t record, const struct glr_call *c, uint32_t *buffer)
{
    (void)c;
    struct pxh_feed *f = user;
    while (f->next_probe < f->n_probes && f->probes[f->next_probe].record < record)
        f->next_probe++;
    while (f->next_img < f->n_imgs && f->imgs[f->next_img].record < record)
        f->next_img++;
    bool px = f->next_probe < f->n_probes && f->probes[f->next_probe].record == record;
    bool img = f->next_img < f->n_imgs && f->imgs[f->next_img].record == record;
    *buffer = px ? f->probes[f->next_probe].buffer : 0;
    return px || img;
}

/* At the first answer, with the replay's context current, the driver that gives them (for the
 * on-disk cache's entry). */
static void name_driver(struct pxh_feed *f)
{
    if (f->want_targets && !f->driver_ident)
        f->driver_ident = pxh_driver_ident(&f->driver_ident_size);
}

static void probe_got(void *user, uint64_t record, bool ok, const uint8_t rgba[4])
{
    struct pxh_feed *f = user;
    name_driver(f);
    if (f->next_probe < f->n_probes && f->probes[f->next_probe].record == record) {
        struct feed_probe *p = &f->probes[f->next_probe];
        p->answered = true;
        p->ok = ok;
        memcpy(p->rgba, rgba, 4);
    }
}

/* The images read after `record`: first the whole target when the cache wants it (a probed
 * record), then the earlier passes' images due there. */
static bool target_due(const struct pxh_feed *f, uint64_t record)
{
    return f->want_targets && f->next_probe < f->n_probes && f->probes[f->next_probe].record == record;
}

static bool image_want(void *user, uint64_t record, int i, uint32_t *att, unsigned *w, unsigned *h,
                       struct glrh_probe_format *fmt)
{
    struct pxh_feed *f = user;
    if (target_due(f, record)) {
        if (i == 0) {
            uint32_t b = f->probes[f->next_probe].buffer;
            *att = b ? b : GL_BACK;
            *w = f->tw;
            *h = f->th;
            return true;
        }
        i--;
    }
    size_t k = f->next_img + (size_t)i;
    if (k >= f->n_imgs || f->imgs[k].record != record)
        return false;
    *att = f->imgs[k].att;
    *w = f->imgs[k].w;
    *h = f->imgs[k].h;
    *fmt = (struct glrh_probe_format){ f->imgs[k].format, f->imgs[k].data_type, f->imgs[k].bytes, f->imgs[k].samples,
                                       f->imgs[k].internal_format, f->imgs[k].layers };
    return true;
}

static bool image_got(void *user, uint64_t record, int i, uint8_t *rgba)
{
    struct pxh_feed *f = user;
    name_driver(f);
    if (target_due(f, record)) {
        if (i == 0) {
            struct feed_probe *p = &f->probes[f->next_probe];
            if (!rgba || p->image)
                return false;
            p->image = rgba;
            return true;
        }
        i--;
    }
    size_t k = f->next_img + (size_t)i;
    if (!rgba || k >= f->n_imgs || f->imgs[k].record != record || f->imgs[k].rgba)
        return false;
    f->imgs[k].rgba = rgba;   /* kept as read: w x h x 4 bytes (image_want's size) */
    return true;
}

void pxh_feed_probe(struct pxh_feed *f, struct glrh_probe *p)
{
    p->want = probe_want;
    p->got = probe_got;
    p->want_image = image_want;
    p->got_image = image_got;
    p->user = f;
    f->next_probe = f->next_img = 0;
    /* nothing is read after the last record asked about: the driver's replay ends there */
    uint64_t last = 0;
    if (f->n_probes)
        last = f->probes[f->n_probes - 1].record;
    if (f->n_imgs && f->imgs[f->n_imgs - 1].record > last)
        last = f->imgs[f->n_imgs - 1].record;
    p->stop = f->n_probes || f->n_imgs;
    p->last = last;
}

bool pxh_feed_last_write(const struct pxh_feed *f, uint64_t *record)
{
    if (!f || !f->n_probes)
        return false;
    *record = f->probes[f->n_probes - 1].record;
    return true;
}

bool pxh_feed_answer(const struct pxh_feed *f, uint64_t record, bool *answered, bool *ok, uint8_t rgba[4])
{
    size_t lo = 0, hi = f->n_probes;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->probes[mid].record < record)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == f->n_probes || f->probes[lo].record != record)
        return false;
    *answered = f->probes[lo].answered;
    *ok = f->probes[lo].ok;
    memcpy(rgba, f->probes[lo].rgba, 4);
    return true;
}

/* ---- the model pass ---- */

bool pxh_feed_active(const struct pxh_feed *f)
{
    return f && f->on;
}

static struct stale *find_stale(struct pxh_feed *f, uint32_t type, uint32_t name, int32_t level, int32_t layer)
{
    for (size_t i = 0; i < f->n_stale; i++)
        if (f->stale[i].type == type && f->stale[i].name == name && f->stale[i].level == level &&
            f->stale[i].layer == layer)
            return &f->stale[i];
    return NULL;
}

/* An image a candidate draw wrote (level, layer: which image of a texture, the model's numbering). */
static int mark(struct pxh_feed *f, uint32_t type, uint32_t name, int32_t level, int32_t layer, uint64_t record,
                bool sync, bool left_out)
{
    struct stale *s = find_stale(f, type, name, level, layer);
    if (!s && !left_out)
        return 0;   /* drawn by the model over a current image: current */
    if (!s) {
        struct stale *q = grow(f->stale, &f->cap_stale, f->n_stale, sizeof *q);
        if (!q)
            return -1;
        f->stale = q;
        s = &f->stale[f->n_stale++];
        s->type = type;
        s->name = name;
        s->level = level;
        s->layer = layer;
    }
    s->record = record;
    s->syncable = sync;
    return 0;
}

static int stale_by_record(const void *a, const void *b)
{
    const struct stale *x = a, *y = b;
    return x->record < y->record ? -1 : x->record > y->record;
}

static bool give_up(struct pxh_feed *f, uint64_t record, const char *why)
{
    snprintf(f->why, sizeof f->why, "record %llu %s", (unsigned long long)record, why);
    f->on = false;
    return false;
}

/* Before a record: whether it is a pass draw to leave out (*left_out_candidate); at a sync point,
 * the stale images made current from the driver's. false: give up (pxh_feed_why says why). */
bool pxh_feed_before(struct engine *e, const struct glr_call *c, uint64_t record, bool *candidate)
{
    struct pxh_feed *f = e->feed;
    const struct sm_state *sm = gmf_state(e->m);
    *candidate = pass_fbo(e, sm, c) >= 0;
    if (*candidate || !sync_cmd(c->cmd) || !f->n_stale)
        return true;
    const struct sm_context *sc = sm_context_get(sm, c->ctx_id);
    const struct sm_context_state *st = sc ? sm_context_state(sc) : NULL;
    bool draw = glrh_cmd_is_draw(c->cmd) || c->cmd == GLR_CMD_glCallList || c->cmd == GLR_CMD_glCallLists;
    bool clear = glrh_cmd_is_clear(c->cmd) && c->ctx_id == e->t.ctx_id;
    /* in the order they were written: a layered image and one of its layers alone overlap */
    qsort(f->stale, f->n_stale, sizeof *f->stale, stale_by_record);
    size_t keep = 0;
    for (size_t i = 0; i < f->n_stale; i++) {
        struct stale *s = &f->stale[i];
        if (s->syncable) {
            const struct feed_img *im = NULL;
            for (size_t k = 0; k < f->n_imgs && !im; k++)
                if (f->imgs[k].record == s->record && f->imgs[k].tex == s->name && f->imgs[k].type == s->type &&
                    f->imgs[k].level == s->level && f->imgs[k].layer == s->layer)
                    im = &f->imgs[k];
            if (f->test_drop)
                return give_up(f, record, "needs an image of an earlier pass that the test hook "
                                          "GLREPLAY_PIXEL_FEED_TEST_DROP dropped");
            if (!im || !im->rgba)
                return give_up(f, record, "needs an image of an earlier pass that the driver did not give");
            /* gmf_initial_contents.c's kinds: 8 one image (level, layer) of a texture, 3 a
             * renderbuffer, by name; 5 and 6 every sample of a multisample renderbuffer/texture */
            bool ms = im->samples > 1;
            gmf_content ct = { s->type == GL_RENDERBUFFER ? (ms ? 5 : 3) : (ms ? 6 : 8), e->t.ctx_id, s->name, im->w,
                               im->h, im->internal_format, im->format, im->data_type, im->rgba,
                               pxh_feed_img_bytes(im), im->level, im->layer };
            int rc = gmf_feed_initial_contents(e->m, &ct, 1);
            if (rc < 0)
                return give_up(f, record, "ran out of memory");
            if (rc != 1)
                return give_up(f, record, "needs an image of an earlier pass the model could not take");
            f->uploads++;
            cJSON *l = cJSON_CreateObject();
            cJSON_AddNumberToObject(l, s->type == GL_RENDERBUFFER ? "renderbuffer" : "texture", s->name);
            if (s->level || s->layer) {
                cJSON_AddNumberToObject(l, "level", s->level);
                cJSON_AddNumberToObject(l, "layer", s->layer);
            }
            if (ms)
                cJSON_AddNumberToObject(l, "samples", im->samples);
            if (im->layers > 1)
                cJSON_AddNumberToObject(l, "layers", im->layers);
            if (im->format != GL_RGBA || im->data_type != GL_UNSIGNED_BYTE) {   /* how it was read */
                const char *fn = sm_enum_name(im->format), *tn = sm_enum_name(im->data_type);
                cJSON_AddStringToObject(l, "read_as", fn ? fn : "?");
                cJSON_AddStringToObject(l, "read_type", tn ? tn : "?");
            }
            cJSON_AddNumberToObject(l, "after_record", (double)s->record);
            cJSON_AddNumberToObject(l, "before_record", (double)record);
            cJSON_AddItemToArray(f->log, l);
            continue;
        }
        /* An image the driver cannot give: only a record that cannot read it may pass. A clear
         * reads nothing (what it leaves stays untrusted: a scissor or mask may keep old texels);
         * a draw reads what it samples and its framebuffers' attachments. */
        bool reads = !clear && (!draw || c->ctx_id != e->t.ctx_id || !st);
        const char *wk = pxh_writer_kind(c->cmd);
        if (wk && !strcmp(wk, "upload") && c->cmd != GLR_CMD_glDrawPixels)
            reads = s->type == GL_TEXTURE;   /* uploads read client memory or a texture, no attachment */
        if (!reads && draw && !clear) {
            const struct sm_framebuffer *fb[2] = { sm_get_framebuffer(sc, st->draw_fbo),
                                                   draw ? sm_get_framebuffer(sc, st->read_fbo) : NULL };
            if (s->type == 0)
                reads = st->draw_fbo == 0;
            for (int j = 0; j < 2 && !reads; j++)
                for (int a = 0; fb[j] && a < SM_MAX_COLOR_ATTACH + 2 && !reads; a++) {
                    const struct sm_attachment *at = a < SM_MAX_COLOR_ATTACH ? &fb[j]->color[a]
                                                     : a == SM_MAX_COLOR_ATTACH ? &fb[j]->depth : &fb[j]->stencil;
                    reads = at->type == s->type && at->name == s->name;
                }
            for (int u = 0; draw && s->type == GL_TEXTURE && u < SM_MAX_TEXTURE_UNITS && !reads; u++)
                for (int t = 0; t < SM_TT_COUNT && !reads; t++)
                    reads = st->unit[u].bound[t] == s->name;
        }
        if (reads)
            return give_up(f, record, s->type == 0 ? "may read the default framebuffer that earlier draws left out"
                                                   : "may read an image of an earlier pass that the driver "
                                                     "cannot give exactly (sRGB, compressed or another format)");
        f->stale[keep++] = *s;
    }
    f->n_stale = keep;
    return true;
}

/* After a candidate was fed: what it left stale (left out) or drew over stale images. */
bool pxh_feed_after(struct engine *e, const struct glr_call *c, uint64_t record, const gmf_event *gev)
{
    struct pxh_feed *f = e->feed;
    bool left_out = gev->kind == GMF_EV_DRAW && gev->skipped;
    if (!left_out && f->n_stale)
        return give_up(f, record, "is an earlier pass's draw the model must run (side effects) after draws it left out");
    f->left_out += left_out;
    const struct sm_context *sc = sm_context_get(gmf_state(e->m), c->ctx_id);
    uint32_t fbo = sc ? sm_context_state(sc)->draw_fbo : 0;
    if (fbo == 0)
        return mark(f, 0, 0, 0, 0, record, false, left_out) == 0 || give_up(f, record, "ran out of memory");
    const struct sm_framebuffer *fb = sm_get_framebuffer(sc, fbo);
    for (int a = 0; fb && a < SM_MAX_COLOR_ATTACH + 2; a++) {
        const struct sm_attachment *at = a < SM_MAX_COLOR_ATTACH ? &fb->color[a]
                                         : a == SM_MAX_COLOR_ATTACH ? &fb->depth : &fb->stencil;
        if (!at->type)
            continue;
        struct img_spec sp = { 0 };
        bool stencil = a == SM_MAX_COLOR_ATTACH + 1;
        bool sync = syncable(sc, at, stencil ? IMG_STENCIL : a == SM_MAX_COLOR_ATTACH ? IMG_DEPTH : IMG_COLOR, &sp);
        if (stencil && at->type == fb->depth.type && at->name == fb->depth.name)
            /* one depth-stencil image: given with the depth, read as GL_DEPTH_STENCIL */
            sync = syncable(sc, &fb->depth, IMG_DEPTH, &sp) && sp.format == GL_DEPTH_STENCIL;
        if (!sync)   /* which image it is, only to tell the stale images apart */
            sp.level = at->level, sp.layer = at->layer;
        if (mark(f, at->type, at->name, sp.level, sp.layer, record, sync, left_out) != 0)
            return give_up(f, record, "ran out of memory");
    }
    return true;
}

bool pxh_feed_test_drop(const char *where)
{
    const char *v = getenv("GLREPLAY_PIXEL_FEED_TEST_DROP");
    return v && !strcmp(v, where);
}

const char *pxh_feed_why(const struct pxh_feed *f)
{
    return f->why;
}

void pxh_feed_reset(struct pxh_feed *f, bool on)
{
    if (!f)
        return;
    f->on = on;
    f->n_stale = 0;
    f->left_out = f->uploads = 0;
    cJSON_Delete(f->log);
    f->log = cJSON_CreateArray();
}

void pxh_feed_report(const struct pxh_feed *f, cJSON *root)
{
    cJSON *o = cJSON_AddObjectToObject(root, "earlier_passes");
    if (f->on && !f->left_out) {
        cJSON_AddStringToObject(o, "from", "none");   /* no draw into another framebuffer to leave out */
    } else if (f->on) {
        cJSON_AddStringToObject(o, "from", "driver");
        cJSON_AddNumberToObject(o, "draws_left_out", (double)f->left_out);
        cJSON_AddItemToObject(o, "images", cJSON_Duplicate(f->log, true));
    } else {
        cJSON_AddStringToObject(o, "from", "model");
        if (f->why[0])
            cJSON_AddStringToObject(o, "why", f->why);
    }
}
