/* Pixel rectangles in the model: glDrawPixels, glBitmap and glCopyPixels at the current raster
 * position (statemodel/sm_apply_rasterpos.c), drawn as Mesa's state tracker draws them on
 * llvmpipe (st_cb_drawpixels.c, st_cb_bitmap.c): the image (after the unpack layout and the
 * pixel transfer scale and bias), the bitmap, or the read buffer's rectangle becomes a texture,
 * and a window-aligned quad (x, y at the rounded raster position, the size times the pixel zoom,
 * z the raster z) runs through the ordinary pipeline with a pass-through vertex stage and the
 * fixed-function fragment stage whose primary colour is the image texel (drawpixels) or the
 * raster colour where the bitmap is 1 (bitmap: elsewhere the fragment is discarded). Texturing,
 * fog, the alpha test, scissor, depth and stencil tests, blending, logic op and masks therefore
 * apply as for any fragment. The quad's viewport is the whole framebuffer with depth range
 * [0, 1], culling, polygon modes, offset and stipple off, as Mesa sets them for the meta draw.
 * Depth images and copies write gl_FragDepth with the raster colour (Mesa's depth program).
 * Stencil and depth-stencil images are written straight into the stencil (and depth) buffer
 * (Mesa exports them from its shader with the stencil test ALWAYS/REPLACE, the depth test
 * ALWAYS, colour writes off).
 * Not modelled (reported): colour index images, stencil copies, pixel maps,
 * a GLSL program or ARB fragment program bound (Mesa patches that program). See DESIGN.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "fixedfunc/gm_ff.h"
#include "statemodel/sm_pixel_index.h"

#define VTX_FLOATS (SM_LA_COUNT * 4)

struct gmf_pix {
    int kind;                    /* enum gm_ff_pixel; 0 when no rectangle is being drawn */
    gm_tex_image img;            /* RGBA32F, one level */
    gm_tex_sampler samp;
    float corner[4];             /* window x0, y0, x1, y1 */
    float z;                     /* window z of the raster position */
    float rect[4];               /* ff_pixel_rect: x0, y0, 1 / (zoom x * w), 1 / (zoom y * h) */
    float v[4][VTX_FLOATS];      /* triangle-strip vertices, every legacy slot a float4 */
    struct sm_vao vao;
    gmf_client_array saved_legacy[SM_LA_COUNT];
    bool saved_used;
};

void gmf_pix_free(gmf_runner *r)
{
    if (r->pix)
        gm_surface_free(&r->pix->img.level[0]);
    free(r->pix);
    r->pix = NULL;
}

int gmf_pix_kind(const gmf_runner *r)
{
    return r->pix ? r->pix->kind : 0;
}

/* The unpack source of an image: client memory recorded with the call, or the bound pixel
 * unpack buffer at the offset the call passes. */
static const uint8_t *unpack_source(const struct sm_context *c, const struct glr_call *call, int arg,
                                    uint64_t *size, gmf_event *ev, const char *fn)
{
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t pbo = st->buffer[SM_BT_PIXEL_UNPACK];
    if (pbo) {
        const struct sm_buffer *b = sm_get_buffer(c, pbo);
        uint64_t off = call->args[arg];
        if (!b || !b->data_known || !b->data || off > b->size) {
            gmf_note(ev, "%s: pixel unpack buffer %u contents unknown", fn, pbo);
            return NULL;
        }
        *size = b->size - off;
        return b->data + off;
    }
    const struct glr_blob *bl = &call->blobs[arg];
    if (!bl->data) {
        gmf_note(ev, "%s: pixels not recorded", fn);
        return NULL;
    }
    *size = bl->size;
    return bl->data;
}

static bool image_alloc(struct gmf_pix *p, int w, int h)
{
    gm_surface_free(&p->img.level[0]);
    memset(&p->img, 0, sizeof p->img);
    if (gm_surface_alloc(&p->img.level[0], GM_FMT_RGBA32F, w, h, 1, 1) != 0)
        return false;
    p->img.target = GM_TEX_2D;
    p->img.format = GM_FMT_RGBA32F;
    p->img.num_levels = 1;
    for (int i = 0; i < 4; i++)
        p->img.swizzle[i] = (uint8_t)i;
    return true;
}

static bool color_format(uint32_t f)
{
    /* drawn elsewhere: depth (load_depth), stencil (draw_stencil), colour indices (load_index) */
    return f != GL_DEPTH_COMPONENT && f != GL_STENCIL_INDEX && f != GL_DEPTH_STENCIL &&
           f != GL_COLOR_INDEX;
}

/* Bit (x, y) of a GL_BITMAP image under the unpack state (GL 2.1 section 3.7.4: bytes,
 * GL_UNPACK_LSB_FIRST, row length and skips in bits, the alignment in bytes); -1 past the
 * end of the data. */
static int bitmap_bit(const struct sm_pixel_store *ps, const uint8_t *src, uint64_t size, int w, int x, int y)
{
    int64_t row_px = ps->row_length > 0 ? ps->row_length : w;
    int64_t al = ps->alignment > 0 ? ps->alignment : 4;
    int64_t row = ((row_px + 7) / 8 + al - 1) / al * al;
    int64_t bit = ps->skip_pixels + x;
    uint64_t byte = (uint64_t)((ps->skip_rows + y) * row + bit / 8);
    if (byte >= size)
        return -1;
    int b = (int)(bit % 8);
    return (src[byte] >> (ps->lsb_first ? b : 7 - b)) & 1;
}

/* glDrawPixels(GL_COLOR_INDEX) in RGBA mode, as Mesa converts it on the CPU
 * (_mesa_unpack_color_index_to_rgba_float): each index shifted and offset (GL_INDEX_SHIFT,
 * GL_INDEX_OFFSET), looked up in GL_PIXEL_MAP_I_TO_R/G/B/A (index & (size - 1)); no scale,
 * bias or GL_MAP_COLOR afterwards. The colours land in the image texture Mesa's state tracker
 * makes for the type: 8-bit unorm for bytes and bitmaps, 16-bit for shorts, float otherwise. */
static const char *load_index(struct gmf_pix *p, const struct sm_context *c, const struct glr_call *call,
                              gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int w = (int32_t)call->args[0], h = (int32_t)call->args[1];
    uint32_t type = (uint32_t)call->args[3];
    uint64_t size = 0;
    const uint8_t *src = unpack_source(c, call, 4, &size, ev, "glDrawPixels");
    if (!src)
        return "glDrawPixels: image data unknown";
    if (!image_alloc(p, w, h))
        return "out of memory (glDrawPixels image)";
    int bits = type == GL_FLOAT || type == GL_INT || type == GL_UNSIGNED_INT ? 0
               : type == GL_SHORT || type == GL_UNSIGNED_SHORT ? 16 : 8;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float *t = (float *)(void *)gm_surface_texel(&p->img.level[0], x, y, 0);
            if (!sm_color_index_rgba(&st->ff, &st->unpack, type, src, size, w, x, y, t))
                return "glDrawPixels: colour-index type not modelled, or image past the end of the data";
            for (int k = 0; bits && k < 4; k++) {
                float v = t[k] < 0.0f ? 0.0f : t[k] > 1.0f ? 1.0f : t[k];
                t[k] = (float)lrint((double)v * ((1 << bits) - 1)) / (float)((1 << bits) - 1);
            }
        }
    return NULL;
}

/* One depth value of a GL_DEPTH_COMPONENT image as GL converts it (GL 2.1 table 3.?: unsigned
 * c / (2^b - 1), signed max(c / (2^(b-1) - 1), -1), floats as they are). */
static bool depth_value(uint32_t type, const uint8_t *p, float *out)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: *out = (float)(*p / 255.0); return true;
    case GL_BYTE: { int8_t v; memcpy(&v, p, 1); *out = fmaxf((float)(v / 127.0), -1.0f); return true; }
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p, 2); *out = (float)(v / 65535.0); return true; }
    case GL_SHORT: { int16_t v; memcpy(&v, p, 2); *out = fmaxf((float)(v / 32767.0), -1.0f); return true; }
    case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, p, 4); *out = (float)(v / 4294967295.0); return true; }
    case GL_INT: { int32_t v; memcpy(&v, p, 4); *out = fmaxf((float)(v / 2147483647.0), -1.0f); return true; }
    case GL_FLOAT: memcpy(out, p, 4); return true;
    default: return false;
    }
}

/* A depth image: each value scaled and biased (GL_DEPTH_SCALE/BIAS) and clamped to [0, 1]. */
static const char *load_depth(struct gmf_pix *p, const struct sm_context *c, const struct glr_call *call,
                              gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int w = (int32_t)call->args[0], h = (int32_t)call->args[1];
    uint32_t type = (uint32_t)call->args[3];
    uint64_t size = 0;
    const uint8_t *src = unpack_source(c, call, 4, &size, ev, "glDrawPixels");
    if (!src)
        return "glDrawPixels: image data unknown";
    gmf_pixel_layout L;
    const char *why = gmf_pixel_layout_get(GL_DEPTH_COMPONENT, type, &st->unpack, w, h, 1, &L);
    if (why)
        return why;
    if (L.skip + L.extent > size)
        return "glDrawPixels: image past the end of the data";
    if (L.swap)
        return "glDrawPixels: byte-swapped depth image (GL_UNPACK_SWAP_BYTES) not modelled";
    if (!image_alloc(p, w, h))
        return "out of memory (glDrawPixels image)";
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float d;
            if (!depth_value(type, src + L.skip + (size_t)y * L.row + (size_t)x * L.pixel, &d))
                return "glDrawPixels: depth type not modelled";
            d = d * st->ff.depth_scale + st->ff.depth_bias;
            float *t = (float *)(void *)gm_surface_texel(&p->img.level[0], x, y, 0);
            t[0] = d < 0.0f ? 0.0f : d > 1.0f ? 1.0f : d;
            t[1] = t[2] = 0.0f;
            t[3] = 1.0f;
        }
    return NULL;
}

/* glDrawPixels: the image unpacked to floats, then scaled and biased (GL 2.1 section 3.6.5;
 * Mesa does it in the fragment program variant, with the same arithmetic). */
static const char *load_image(struct gmf_pix *p, const struct sm_context *c, const struct glr_call *call,
                              gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int w = (int32_t)call->args[0], h = (int32_t)call->args[1];
    uint32_t format = (uint32_t)call->args[2], type = (uint32_t)call->args[3];
    if (format == GL_COLOR_INDEX)
        return load_index(p, c, call, ev);
    if (!color_format(format))
        return "glDrawPixels of stencil or depth-stencil data here (not modelled)";
    if (type == GL_BITMAP)
        return "glDrawPixels of GL_BITMAP data (not modelled)";
    if (st->ff.map_color)
        return "glDrawPixels with GL_MAP_COLOR (pixel maps are not modelled)";
    uint64_t size = 0;
    const uint8_t *src = unpack_source(c, call, 4, &size, ev, "glDrawPixels");
    if (!src)
        return "glDrawPixels: image data unknown";
    gmf_pixel_layout L;
    const char *why = gmf_pixel_layout_get(format, type, &st->unpack, w, h, 1, &L);
    if (why)
        return why;
    if (!image_alloc(p, w, h))
        return "out of memory (glDrawPixels image)";
    why = gmf_unpack_rect(src, size, &L, &p->img.level[0], 0, 0, 0, w, h, 1);
    if (why)
        return why;
    const float *sc = st->ff.pixel_scale, *bi = st->ff.pixel_bias;
    if (sc[0] != 1 || sc[1] != 1 || sc[2] != 1 || sc[3] != 1 || bi[0] != 0 || bi[1] != 0 || bi[2] != 0 ||
        bi[3] != 0)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                float *t = (float *)(void *)gm_surface_texel(&p->img.level[0], x, y, 0);
                for (int k = 0; k < 4; k++)
                    t[k] = t[k] * sc[k] + bi[k];
            }
    return NULL;
}

/* glBitmap: bit 1 -> red 1 (a fragment), rows from the bottom, the unpack layout of GL 2.1
 * section 3.7.4 (bytes, GL_UNPACK_LSB_FIRST, row length and skips in bits). */
static const char *load_bitmap(struct gmf_pix *p, const struct sm_context *c, const struct glr_call *call,
                               gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_pixel_store *ps = &st->unpack;
    int w = (int32_t)call->args[0], h = (int32_t)call->args[1];
    uint64_t size = 0;
    const uint8_t *src = unpack_source(c, call, 6, &size, ev, "glBitmap");
    if (!src)
        return "glBitmap: bitmap data unknown";
    if (!image_alloc(p, w, h))
        return "out of memory (glBitmap image)";
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int b = bitmap_bit(ps, src, size, w, x, y);
            if (b < 0)
                return "glBitmap: bitmap past the end of the data";
            bool on = b == 1;
            float *t = (float *)(void *)gm_surface_texel(&p->img.level[0], x, y, 0);
            t[0] = t[1] = t[2] = t[3] = on ? 1.0f : 0.0f;
        }
    return NULL;
}

/* load_copy's answer for a copy GL refuses with an error: no note, nothing drawn */
static const char COPY_GL_ERROR[] = "";

/* glCopyPixels(x, y, w, h, GL_COLOR): the read buffer's rectangle as floats (outside the
 * surface: 0, undefined in GL), scaled and biased like drawn pixels. */
static const char *load_copy(struct gmf_pix *p, gmf_runner *r, const struct sm_context *c,
                             const struct glr_call *call, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int sx = (int32_t)call->args[0], sy = (int32_t)call->args[1];
    int w = (int32_t)call->args[2], h = (int32_t)call->args[3];
    uint32_t what = (uint32_t)call->args[4];
    if (what != GL_COLOR && what != GL_DEPTH)
        return what == GL_STENCIL ? "glCopyPixels of stencil (not modelled)"
                                  : "glCopyPixels of another type than GL_COLOR or GL_DEPTH (not modelled)";
    bool depth = what == GL_DEPTH;
    if (!depth && st->ff.map_color)
        return "glCopyPixels with GL_MAP_COLOR (pixel maps are not modelled)";
    gm_surface view, tmp;
    memset(&tmp, 0, sizeof tmp);
    if (st->read_fbo) {
        /* GL_INVALID_OPERATION from a multisample framebuffer object (Mesa's _mesa_CopyPixels;
         * GL 3.0 section 4.3.3): nothing is drawn */
        const struct sm_framebuffer *f = sm_get_framebuffer(c, st->read_fbo);
        uint32_t rb = f && f->read_buffer && f->read_buffer != GL_BACK ? f->read_buffer : GL_COLOR_ATTACHMENT0;
        gm_surface *ms = gmf_fb_read_surface(r, c, st->read_fbo, rb, depth, &view, ev);
        if (ms && ms->samples > 1)
            return COPY_GL_ERROR;
    }
    gm_surface *s = gmf_read_surface(r, c, depth, &view, &tmp, ev);
    if (!s)
        return "glCopyPixels: read buffer not in the model";
    if (!image_alloc(p, w, h)) {
        gm_surface_free(&tmp);
        return "out of memory (glCopyPixels image)";
    }
    struct sm_pixel_store tight;
    memset(&tight, 0, sizeof tight);
    tight.alignment = 1;
    gmf_pixel_layout L;
    const char *why = gmf_pixel_layout_get(depth ? GL_DEPTH_COMPONENT : GL_RGBA, GL_FLOAT, &tight, 1, 1, 1, &L);
    const float *sc = st->ff.pixel_scale, *bi = st->ff.pixel_bias;
    for (int y = 0; y < h && !why; y++)
        for (int x = 0; x < w && !why; x++) {
            float *t = (float *)(void *)gm_surface_texel(&p->img.level[0], x, y, 0);
            int ax = sx + x, ay = sy + y;
            if (ax < 0 || ay < 0 || ax >= s->width || ay >= s->height) {
                t[0] = t[1] = t[2] = t[3] = 0.0f;
                continue;
            }
            why = gmf_pack_pixel(s->format, gm_surface_texel(s, ax, ay, 0), &L, (uint8_t *)t);
            if (depth) {
                float d = t[0] * st->ff.depth_scale + st->ff.depth_bias;
                t[0] = d < 0.0f ? 0.0f : d > 1.0f ? 1.0f : d;
                t[1] = t[2] = 0.0f;
                t[3] = 1.0f;
                continue;
            }
            for (int k = 0; k < 4; k++)
                t[k] = t[k] * sc[k] + bi[k];
        }
    gm_surface_free(&tmp);
    return why;
}

/* glDrawPixels(GL_STENCIL_INDEX): Mesa (llvmpipe exports stencil from its shader) writes the
 * indices through the stencil write mask with the stencil test ALWAYS/REPLACE, depth and colour
 * writes off, inside the scissor: so the model writes them straight into the stencil buffer,
 * pixel by pixel of the zoomed rectangle (a pixel whose centre lies inside it). GL_INDEX_SHIFT,
 * GL_INDEX_OFFSET and GL_MAP_STENCIL are not applied: measured on llvmpipe (Mesa 22.3), the
 * indices land unchanged whatever those say (tests/capture/pixel_stencil.c). */
static void draw_stencil(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                         float x0, float y0, float zx, float zy, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int w = (int32_t)call->args[0], h = (int32_t)call->args[1];
    uint32_t format = (uint32_t)call->args[2], type = (uint32_t)call->args[3];
    /* GL_DEPTH_STENCIL: Mesa writes both from its shader with the depth test ALWAYS (depth
     * through the depth mask) and the same stencil state */
    bool ds = format == GL_DEPTH_STENCIL;
    if (ds && type != GL_UNSIGNED_INT_24_8 && type != GL_FLOAT_32_UNSIGNED_INT_24_8_REV) {
        gmf_note(ev, "glDrawPixels(GL_DEPTH_STENCIL) of type 0x%04x not modelled", type);
        return;
    }
    uint64_t size = 0;
    const uint8_t *src = unpack_source(c, call, 4, &size, ev, "glDrawPixels");
    gmf_pixel_layout L;
    const char *why = src ? gmf_pixel_layout_get(format, type, &st->unpack, w, h, 1, &L)
                          : "glDrawPixels: image data unknown";
    if (!why && L.skip + L.extent > size)
        why = "glDrawPixels: image past the end of the data";
    if (!why && L.swap)
        why = "glDrawPixels: byte-swapped stencil image (GL_UNPACK_SWAP_BYTES) not modelled";
    if (!why && !ds && type != GL_UNSIGNED_BYTE && type != GL_BYTE && type != GL_UNSIGNED_SHORT &&
        type != GL_SHORT && type != GL_UNSIGNED_INT && type != GL_INT && type != GL_FLOAT)
        why = "glDrawPixels: stencil type not modelled";
    gm_surface views[GM_PIPE_MAX_RT + 2];
    if (!why && !gmf_build_framebuffer(r, c, &r->pipe.fb, views, ev))
        why = "glDrawPixels: framebuffer not in the model";
    gm_surface *sf = why ? NULL : r->pipe.fb.stencil, *df = why || !ds ? NULL : r->pipe.fb.depth;
    if (!why && !sf && !df)
        return;   /* no stencil (or depth) buffer: nothing is written */
    if (!why && ((sf && sf->samples > 1) || (df && df->samples > 1)))
        why = "glDrawPixels(GL_STENCIL_INDEX) into a multisample buffer (not modelled)";
    if (why) {
        gmf_note(ev, "%s", why);
        return;
    }
    int fw = r->pipe.fb.width, fh = r->pipe.fb.height;
    float xa = fminf(x0, x0 + (float)w * zx), xb = fmaxf(x0, x0 + (float)w * zx);
    float ya = fminf(y0, y0 + (float)h * zy), yb = fmaxf(y0, y0 + (float)h * zy);
    int sx0 = 0, sy0 = 0, sx1 = fw, sy1 = fh;
    if (st->scissor_test[0]) {
        sx0 = st->scissor[0][0];
        sy0 = st->scissor[0][1];
        sx1 = sx0 + st->scissor[0][2];
        sy1 = sy0 + st->scissor[0][3];
    }
    uint8_t wm = (uint8_t)st->stencil[0].write_mask;
    for (int y = sy0 > 0 ? sy0 : 0; y < sy1 && y < fh; y++) {
        float cy = (float)y + 0.5f;
        if (cy < ya || cy >= yb)
            continue;
        int row = (int)floorf((cy - y0) / zy);
        if (row < 0 || row >= h)
            continue;
        for (int x = sx0 > 0 ? sx0 : 0; x < sx1 && x < fw; x++) {
            float cx = (float)x + 0.5f;
            if (cx < xa || cx >= xb)
                continue;
            int col = (int)floorf((cx - x0) / zx);
            if (col < 0 || col >= w)
                continue;
            const uint8_t *p = src + L.skip + (size_t)row * L.row + (size_t)col * L.pixel;
            int my = r->pipe.fb.winsys_orientation ? fh - 1 - y : y;   /* memory row */
            int64_t v;
            if (ds) {
                float z;
                uint32_t wd[2];
                memcpy(wd, p, type == GL_UNSIGNED_INT_24_8 ? 4 : 8);
                if (type == GL_UNSIGNED_INT_24_8) {
                    z = (float)((wd[0] >> 8) / 16777215.0);
                    v = wd[0] & 0xff;
                } else {
                    memcpy(&z, &wd[0], 4);
                    v = wd[1] & 0xff;
                }
                z = z * st->ff.depth_scale + st->ff.depth_bias;
                z = z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z;
                if (df && st->depth_mask)
                    gm_format_pack_depth(df->format, z, gm_surface_texel(df, x, my, 0));
                if (sf) {
                    uint8_t *texel = gm_surface_texel(sf, x, my, 0);
                    uint8_t old = gm_format_unpack_stencil(sf->format, texel);
                    gm_format_pack_stencil(sf->format, (uint8_t)((old & ~wm) | ((uint8_t)v & wm)), texel);
                }
                continue;
            }
            switch (type) {
            case GL_UNSIGNED_BYTE: v = *p; break;
            case GL_BYTE: v = (int8_t)*p; break;
            case GL_UNSIGNED_SHORT: { uint16_t t; memcpy(&t, p, 2); v = t; break; }
            case GL_SHORT: { int16_t t; memcpy(&t, p, 2); v = t; break; }
            case GL_UNSIGNED_INT: { uint32_t t; memcpy(&t, p, 4); v = t; break; }
            case GL_FLOAT: {   /* Mesa's extract_uint_indexes: the float converted to an integer */
                float t;
                memcpy(&t, p, 4);
                v = t > 0.0f && t < 4294967295.0f ? (int64_t)(uint32_t)t : 0;
                break;
            }
            default: { int32_t t; memcpy(&t, p, 4); v = t; break; }
            }
            if (!sf)
                continue;
            uint8_t *texel = gm_surface_texel(sf, x, my, 0);
            uint8_t old = gm_format_unpack_stencil(sf->format, texel);
            gm_format_pack_stencil(sf->format, (uint8_t)((old & ~wm) | ((uint8_t)v & wm)), texel);
        }
    }
}

bool gmf_pix_draw_call(gmf_runner *r, const struct glr_call *call, uint32_t k, struct glr_call *out,
                       gmf_event *ev)
{
    if (k != GLR_CMD_glDrawPixels && k != GLR_CMD_glBitmap && k != GLR_CMD_glCopyPixels)
        return false;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return false;
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_ff_raster *rp = &st->ff.raster;
    const char *fn = glr_cmd_name(k);
    /* an invalid raster position draws nothing (GL 2.1 sections 3.6.4, 3.7); in GL_SELECT or
     * GL_FEEDBACK mode the rectangle only makes a token (gmf_rendermode.c) */
    if (!rp->valid || gmf_render_mode_off(r, call->ctx_id))
        return false;
    int w = (int32_t)call->args[k == GLR_CMD_glCopyPixels ? 2 : 0];
    int h = (int32_t)call->args[k == GLR_CMD_glCopyPixels ? 3 : 1];
    if (w <= 0 || h <= 0)
        return false;
    if (w > 16384 || h > 16384) {
        gmf_note(ev, "%s of %dx%d pixels: larger than the model's texture limit", fn, w, h);
        return false;
    }
    if (k == GLR_CMD_glDrawPixels && st->buffer[SM_BT_PIXEL_UNPACK]) {
        /* an image past the end of the unpack buffer: GL_INVALID_OPERATION, nothing drawn */
        const struct sm_buffer *b = sm_get_buffer(c, st->buffer[SM_BT_PIXEL_UNPACK]);
        gmf_pixel_layout L;
        if (b && !gmf_pixel_layout_get((uint32_t)call->args[2], (uint32_t)call->args[3], &st->unpack, w, h,
                                       1, &L) &&
            gmf_pbo_out_of_range(&L, call->args[4], b->size))
            return false;
    }
    if (st->program || st->pipeline || sm_is_enabled(c, GL_FRAGMENT_PROGRAM_ARB, 0) ||
        sm_is_enabled(c, GL_VERTEX_PROGRAM_ARB, 0)) {
        gmf_note(ev, "%s with a GLSL or ARB program bound (Mesa's patched program is not modelled)", fn);
        return false;
    }
    if (k == GLR_CMD_glDrawPixels && ((uint32_t)call->args[2] == GL_STENCIL_INDEX ||
                                      (uint32_t)call->args[2] == GL_DEPTH_STENCIL)) {
        float zx = st->ff.pixel_zoom[0], zy = st->ff.pixel_zoom[1];
        if (zx != 0.0f && zy != 0.0f)
            draw_stencil(r, c, call, (float)lroundf(rp->pos[0]), (float)lroundf(rp->pos[1]), zx, zy, ev);
        return false;
    }
    if (!r->pix && !(r->pix = calloc(1, sizeof *r->pix))) {
        gmf_note(ev, "out of memory (%s)", fn);
        return false;
    }
    struct gmf_pix *p = r->pix;
    bool depth = (k == GLR_CMD_glDrawPixels && (uint32_t)call->args[2] == GL_DEPTH_COMPONENT) ||
                 (k == GLR_CMD_glCopyPixels && (uint32_t)call->args[4] == GL_DEPTH);
    const char *why = k == GLR_CMD_glDrawPixels ? (depth ? load_depth(p, c, call, ev) : load_image(p, c, call, ev))
                      : k == GLR_CMD_glBitmap   ? load_bitmap(p, c, call, ev)
                                                : load_copy(p, r, c, call, ev);
    if (why == COPY_GL_ERROR)
        return false;
    if (why) {
        gmf_note(ev, "%s", why);
        return false;
    }
    float zx = st->ff.pixel_zoom[0], zy = st->ff.pixel_zoom[1];
    float x0, y0;
    if (k == GLR_CMD_glBitmap) {
        /* Mesa's _mesa_Bitmap: floor(raster + 1e-4 - origin); the zoom does not apply */
        x0 = floorf(rp->pos[0] + 0.0001f - glr_arg_f32(call, 2));
        y0 = floorf(rp->pos[1] + 0.0001f - glr_arg_f32(call, 3));
        zx = zy = 1.0f;
    } else {
        x0 = (float)lroundf(rp->pos[0]);
        y0 = (float)lroundf(rp->pos[1]);
    }
    if (zx == 0.0f || zy == 0.0f)
        return false;   /* an empty rectangle */
    p->kind = k == GLR_CMD_glBitmap ? GM_FF_PIXEL_BITMAP : depth ? GM_FF_PIXEL_DEPTH : GM_FF_PIXEL_IMAGE;
    p->corner[0] = x0;
    p->corner[1] = y0;
    p->corner[2] = x0 + (float)w * zx;
    p->corner[3] = y0 + (float)h * zy;
    p->z = rp->pos[2];
    p->rect[0] = x0;
    p->rect[1] = y0;
    p->rect[2] = 1.0f / (zx * (float)w);
    p->rect[3] = 1.0f / (zy * (float)h);
    memset(&p->samp, 0, sizeof p->samp);
    p->samp.wrap_s = p->samp.wrap_t = p->samp.wrap_r = GL_CLAMP_TO_EDGE;
    p->samp.min_filter = p->samp.mag_filter = GL_NEAREST;
    p->samp.min_lod = -1000.0f;
    p->samp.max_lod = 1000.0f;
    p->samp.max_anisotropy = 1.0f;
    /* the vertices: every legacy slot its current value, the raster values where they matter;
     * positions are set once the framebuffer size is known (gmf_pix_pipe_state) */
    for (int i = 0; i < 4; i++) {
        float *v = p->v[i];
        memcpy(v, st->legacy_current, sizeof p->v[i]);
        memcpy(v + 4 * SM_LA_COLOR, rp->color, 16);
        memcpy(v + 4 * SM_LA_SECONDARY_COLOR, rp->secondary, 16);
        v[4 * SM_LA_FOG_COORD] = rp->distance;
        for (int u = 0; u < SM_FF_UNITS && u < SM_MAX_LEGACY_TEXCOORD; u++)
            memcpy(v + 4 * (SM_LA_TEXCOORD0 + u), rp->texcoord[u], 16);
    }
    const struct sm_vao *cur = sm_get_vao(c, st->vao);
    if (!cur) {
        p->kind = 0;
        return false;
    }
    p->vao = *cur;
    memcpy(p->saved_legacy, r->client_legacy, sizeof p->saved_legacy);
    p->saved_used = r->client_used;
    int32_t stride = VTX_FLOATS * 4;
    uint64_t bytes = sizeof p->v;
    for (int s = 0; s < SM_LA_COUNT; s++) {
        p->vao.legacy[s] = (struct sm_legacy_array){ true, 4, GL_FLOAT, stride, 0, 0 };
        r->client_legacy[s] = (gmf_client_array){ true, (const uint8_t *)p->v + 16u * (size_t)s,
                                                  bytes - 16u * (uint64_t)s, 0, stride };
    }
    for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++)
        p->vao.attrib[i].enabled = false;
    r->vao_override = &p->vao;
    memset(out, 0, sizeof *out);
    out->cmd = GLR_CMD_glDrawArrays;
    out->ctx_id = call->ctx_id;
    out->seq = call->seq;
    out->args[0] = GL_TRIANGLE_STRIP;
    out->args[1] = 0;
    out->args[2] = 4;
    return true;
}

void gmf_pix_draw_done(gmf_runner *r)
{
    struct gmf_pix *p = r->pix;
    if (!p || !p->kind)
        return;
    p->kind = 0;
    if (r->vao_override == &p->vao)
        r->vao_override = NULL;
    memcpy(r->client_legacy, p->saved_legacy, sizeof p->saved_legacy);
    r->client_used = p->saved_used;
}

void gmf_pix_pipe_state(gmf_runner *r, gm_pipe_state *ps)
{
    struct gmf_pix *p = r->pix;
    if (!p || !p->kind)
        return;
    float W = (float)r->pipe.fb.width, H = (float)r->pipe.fb.height;
    if (W <= 0.0f || H <= 0.0f)
        W = H = 1.0f;
    /* Mesa's draw_textured_quad: clip = window / size * 2 - 1, z from [0, 1] to [-1, 1] */
    const float xs[4] = { p->corner[0], p->corner[2], p->corner[0], p->corner[2] };
    const float ys[4] = { p->corner[1], p->corner[1], p->corner[3], p->corner[3] };
    for (int i = 0; i < 4; i++) {
        float *pos = p->v[i] + 4 * SM_LA_VERTEX;
        pos[0] = xs[i] / W * 2.0f - 1.0f;
        pos[1] = ys[i] / H * 2.0f - 1.0f;
        pos[2] = p->z * 2.0f - 1.0f;
        pos[3] = 1.0f;
    }
    ps->viewport[0] = ps->viewport[1] = 0.0f;
    ps->viewport[2] = W;
    ps->viewport[3] = H;
    ps->depth_range[0] = 0.0f;
    ps->depth_range[1] = 1.0f;
    ps->cull_face = 0;
    ps->polygon_mode = ps->polygon_mode_back = GL_FILL;
    ps->polygon_offset_fill = ps->polygon_offset_line = ps->polygon_offset_point = false;
    ps->polygon_stipple = false;
    ps->line_stipple = false;
    ps->clip_plane_enable = 0;
    ps->clip_origin_upper_left = false;
    ps->clip_depth_zero_to_one = false;
}

void gmf_pix_upload(gmf_runner *r, gm_program *fs)
{
    struct gmf_pix *p = r->pix;
    if (!p || !p->kind || !fs)
        return;
    int32_t unit = GMF_PIX_UNIT;
    gm_program_set_uniform_by_name(fs, "ff_pixels", &unit, 1);
    gm_program_set_uniform_by_name(fs, "ff_pixel_rect", p->rect, 1);
}

bool gmf_pix_sample(gmf_runner *r, unsigned unit, gm_tex_unit *tu)
{
    struct gmf_pix *p = r->pix;
    if (!p || !p->kind || unit != GMF_PIX_UNIT || !tu)
        return false;
    tu->image = &p->img;
    tu->sampler = &p->samp;
    return true;
}
