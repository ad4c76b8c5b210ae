/* Pixel contents a mid-run capture's snapshot keeps outside the state model (RESOURCE_BLOB kinds
 * 1-3, 5, 6: docs/GLCAP_FORMAT.md), written into the model's surfaces after the initial state was
 * fed, so a frame that draws over the previous frame's image (no clear) starts from it as the
 * replay does. Each plane is converted into a single-sample surface of the target's format
 * (gmf_unpack_to_surface, with exact paths for 24-bit depth) and copied into the samples. */
#include <stdlib.h>
#include <string.h>
#include "gmf_internal.h"
#include "registry/glr_call_codec.h"

enum { K_DEFAULT_COLOR = 1, K_DEFAULT_DS = 2, K_RENDERBUFFER = 3, K_LIST = 4, K_MS_RENDERBUFFER = 5, K_MS_TEXTURE = 6,
       K_FIXED = 7, K_TEXTURE_IMAGE = 8 };

/* 24-bit depth given as the top 24 bits of a 32-bit word (GL_UNSIGNED_INT_24_8 with stencil in the
 * low byte, or GL_UNSIGNED_INT depth): copied bit for bit, as a float round trip could change it. */
static bool exact_depth24(const gm_surface *dst, uint32_t format, uint32_t type)
{
    bool d24 = dst->format == GM_FMT_D24S8 || dst->format == GM_FMT_D24X8;
    return d24 && ((format == GL_DEPTH_STENCIL && type == GL_UNSIGNED_INT_24_8) ||
                   (format == GL_DEPTH_COMPONENT && type == GL_UNSIGNED_INT));
}

/* One plane (w x h, rows bottom-up, rows of `row` bytes) into tmp (single sample, dst's format). */
static int plane_to_tmp(const uint8_t *src, const gmf_pixel_layout *L, int w, int h, gm_surface *tmp)
{
    if (exact_depth24(tmp, L->format, L->type)) {
        bool stencil = L->format == GL_DEPTH_STENCIL && tmp->format == GM_FMT_D24S8;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                uint32_t v, o;
                memcpy(&v, src + (size_t)y * L->row + (size_t)x * 4, 4);
                o = (v >> 8) | (stencil ? (v & 0xffu) << 24 : 0);
                memcpy(gm_surface_texel(tmp, x, y, 0), &o, 4);
            }
        return 0;
    }
    if (tmp->format == GM_FMT_RGBA8 && L->format == GL_RGBA && L->type == GL_UNSIGNED_BYTE) {
        /* Already the surface's layout: the conversion through floats (x / 255, then rounded
         * back) gives the same bytes; a row copy is a fraction of its cost (the pixel history
         * feeds every earlier pass's image so). */
        for (int y = 0; y < h; y++)
            memcpy(gm_surface_texel(tmp, 0, y, 0), src + (size_t)y * L->row, (size_t)w * 4);
        return 0;
    }
    return gmf_unpack_to_surface(src, L->extent, L->format, L->type, 1, w, h, 1, tmp, 0);
}

/* Writes content c into dst (layers x samples); planes beyond the content's are taken modulo
 * its sample count (a single plane fills every sample, e.g. a multisampled window). */
static int write_surface(const gmf_content *c, gm_surface *dst, bool multisample_planes)
{
    struct sm_pixel_store ps = { .alignment = 1 };
    gmf_pixel_layout L;
    int w = (int)c->width, h = (int)c->height;
    if (w <= 0 || h <= 0 || gmf_pixel_layout_get(c->format, c->type, &ps, w, h, 1, &L) || !L.extent)
        return 1;
    size_t plane = L.row * (size_t)h;
    int layers = dst->depth > 0 ? dst->depth : 1;
    int dst_samples = dst->samples > 0 ? dst->samples : 1;
    size_t planes = multisample_planes ? (size_t)(c->size / plane) : 1;
    if (planes < 1 || c->size < plane)
        return 1;
    int src_samples = multisample_planes ? (int)(planes / (size_t)layers) : 1;
    if (src_samples < 1) {   /* fewer planes than layers: fill what there is */
        src_samples = 1;
        layers = (int)planes;
    }
    gm_surface tmp;
    if (gm_surface_alloc(&tmp, dst->format, w, h, 1, 1) != 0)
        return -1;
    int cw = w < dst->width ? w : dst->width, ch = h < dst->height ? h : dst->height;
    size_t bytes = gm_format_get(dst->format)->bytes;
    int rc = 0;
    for (int l = 0; l < layers && rc == 0; l++)
        for (int p = 0; p < src_samples && p < dst_samples; p++) {
            const uint8_t *src = (const uint8_t *)c->data + ((size_t)l * (size_t)src_samples + (size_t)p) * plane;
            if (plane_to_tmp(src, &L, w, h, &tmp) != 0) {
                rc = 1;
                break;
            }
            if (dst_samples == 1) {   /* single-sample rows are contiguous texels: whole rows */
                for (int y = 0; y < ch; y++)
                    memcpy(gm_surface_texel(dst, 0, y, l), gm_surface_texel(&tmp, 0, y, 0), (size_t)cw * bytes);
                continue;
            }
            for (int y = 0; y < ch; y++)
                for (int x = 0; x < cw; x++) {
                    uint8_t *o = gm_surface_texel(dst, x, y, l);
                    const uint8_t *t = gm_surface_texel(&tmp, x, y, 0);
                    for (int s = p; s < dst_samples; s += src_samples)
                        memcpy(o + (size_t)s * bytes, t, bytes);
                }
        }
    gm_surface_free(&tmp);
    return rc;
}

/* The model surface content c belongs to; NULL when the model has none for it. */
static gm_surface *target(gmf_runner *r, const gmf_content *c, gm_surface *view)
{
    if (c->kind == K_DEFAULT_COLOR || c->kind == K_DEFAULT_DS) {
        gmf_default_fb *fb = gmf_default_fb_get(r, c->ctx_id);
        return fb ? (c->kind == K_DEFAULT_COLOR ? &fb->color : &fb->ds) : NULL;
    }
    const struct sm_context *ctx = sm_context_get(r->sm, c->ctx_id);
    if (!ctx)
        return NULL;
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    if (c->kind == K_RENDERBUFFER || c->kind == K_MS_RENDERBUFFER)
        return gmf_renderbuffer_surface(r, ctx, c->name, &ev);
    if (c->kind != K_MS_TEXTURE && c->kind != K_TEXTURE_IMAGE)
        return NULL;
    int level = c->kind == K_TEXTURE_IMAGE ? c->level : 0;
    gmf_texture *t = gmf_tex_sync(r, ctx, c->name, &ev);
    if (!t || level < 0 || level >= t->img.num_levels || !t->img.level[level].data)
        return NULL;
    const gm_surface *lv = &t->img.level[level];
    if (c->kind == K_TEXTURE_IMAGE && (c->layer < -1 || c->layer >= (lv->depth > 0 ? lv->depth : 1)))
        return NULL;
    t->gpu_written = true;
    *view = *lv;
    if (c->kind == K_TEXTURE_IMAGE && c->layer >= 0) {   /* that layer alone (a cube map's faces are its layers) */
        view->data = lv->data + (size_t)c->layer * lv->layer_stride;
        view->depth = 1;
    }
    return view;
}

/* Kind 7: the calls that set a compatibility context's fixed-function state and current
 * attribute values (colour, normal, texture coordinates, ...) at the frame start, applied to the
 * state model like the stream's (they draw nothing). 1 when fed, 0 when corrupt. */
static int feed_fixed(gmf_runner *r, const gmf_content *c)
{
    struct glr_stream s;
    struct glr_call call;
    gmf_event ev;
    glr_stream_init(&s, c->data, (size_t)c->size);
    int k;
    while ((k = glr_stream_next(&s, &call)) == 1) {
        call.ctx_id = c->ctx_id;
        gmf_feed(r, &call, 0, &ev);
        r->totals.records--;   /* not a record of the stream */
    }
    return k == 0;
}

int gmf_feed_initial_contents(gmf_runner *r, const gmf_content *contents, size_t count)
{
    int written = 0;
    for (size_t i = 0; i < count; i++) {
        const gmf_content *c = &contents[i];
        if (!c->data || !c->size)
            continue;
        if (c->kind == K_LIST) {   /* a display list: kept for glCallList (gmf_lists.c) */
            int rc = gmf_lists_keep(r, c->ctx_id, c->name, c->data, (size_t)c->size);
            if (rc < 0)
                return -1;
            written += rc;
            continue;
        }
        if (c->kind == K_FIXED) {   /* fixed-function state and current values, as calls */
            written += feed_fixed(r, c);
            continue;
        }
        gm_surface view;
        gm_surface *dst = target(r, c, &view);
        if (!dst || !dst->data)
            continue;
        /* (kind 8's planes are its layers: one for a layer, every layer for -1) */
        int rc = write_surface(c, dst, c->kind == K_MS_RENDERBUFFER || c->kind == K_MS_TEXTURE ||
                                           c->kind == K_TEXTURE_IMAGE);
        if (rc < 0)
            return -1;
        if (rc == 0)
            written++;
    }
    return written;
}
