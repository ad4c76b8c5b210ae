/* Model images: textures (contents converted from the state model's uploads, kept in sync
 * by content hash, written by model draws when attached to an FBO), renderbuffers and the
 * default framebuffer of each context; the draw framebuffer built from them; read-backs. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

/* ---- formats ---- */

uint32_t gmf_legacy_internal_format(uint32_t ifmt)
{
    static const uint32_t by_count[5] = { 0, GL_LUMINANCE, GL_LUMINANCE_ALPHA, GL_RGB, GL_RGBA };
    return ifmt >= 1 && ifmt <= 4 ? by_count[ifmt] : ifmt;
}

gm_format gmf_format_from_gl(uint32_t ifmt, uint32_t type)
{
    switch (gmf_legacy_internal_format(ifmt)) {
    case GL_LUMINANCE: case GL_LUMINANCE8: return GM_FMT_L8;
    case GL_ALPHA: return GM_FMT_A8;
    case GL_LUMINANCE_ALPHA: case GL_LUMINANCE8_ALPHA8: return GM_FMT_LA8;
    case GL_SRGB_ALPHA: return GM_FMT_SRGB8_A8;
    case GL_SRGB: return GM_FMT_SRGB8;
    case GL_DEPTH_COMPONENT:
        return type == GL_UNSIGNED_SHORT ? GM_FMT_D16 : type == GL_FLOAT ? GM_FMT_D32F
                                                                            : GM_FMT_D24X8;
    case GL_DEPTH_COMPONENT32: return GM_FMT_D24X8;
    case GL_RGBA:
        if (type == GL_FLOAT) return GM_FMT_RGBA32F;
        if (type == GL_HALF_FLOAT || type == GL_HALF_FLOAT_OES) return GM_FMT_RGBA16F;
        return GM_FMT_RGBA8;
    case GL_RGB:
        if (type == GL_FLOAT) return GM_FMT_RGB32F;
        if (type == GL_HALF_FLOAT || type == GL_HALF_FLOAT_OES) return GM_FMT_RGB16F;
        if (type == GL_UNSIGNED_SHORT_5_6_5) return GM_FMT_RGB565;
        return GM_FMT_RGB8;
    case GL_RGBA16: return GM_FMT_RGBA16;
    default: return gm_format_from_gl(ifmt);
    }
}

static int format_components(uint32_t format)
{
    switch (format) {
    case GL_RED: case GL_GREEN: case GL_BLUE: case GL_ALPHA: case GL_LUMINANCE:
    case GL_DEPTH_COMPONENT: case GL_STENCIL_INDEX: case GL_RED_INTEGER: case GL_GREEN_INTEGER:
    case GL_BLUE_INTEGER: case GL_ALPHA_INTEGER:
        return 1;
    case GL_RG: case GL_LUMINANCE_ALPHA: case GL_RG_INTEGER: case GL_DEPTH_STENCIL: return 2;
    case GL_RGB: case GL_BGR: case GL_RGB_INTEGER: case GL_BGR_INTEGER: return 3;
    default: return 4;
    }
}

static int packed_bytes(uint32_t type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE_3_3_2: case GL_UNSIGNED_BYTE_2_3_3_REV: return 1;
    case GL_UNSIGNED_SHORT_5_6_5: case GL_UNSIGNED_SHORT_5_6_5_REV: case GL_UNSIGNED_SHORT_4_4_4_4:
    case GL_UNSIGNED_SHORT_4_4_4_4_REV: case GL_UNSIGNED_SHORT_5_5_5_1:
    case GL_UNSIGNED_SHORT_1_5_5_5_REV: return 2;
    case GL_UNSIGNED_INT_8_8_8_8: case GL_UNSIGNED_INT_8_8_8_8_REV: case GL_UNSIGNED_INT_10_10_10_2:
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_24_8:
    case GL_UNSIGNED_INT_10F_11F_11F_REV: case GL_UNSIGNED_INT_5_9_9_9_REV: return 4;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return 8;
    default: return 0;
    }
}

static size_t pixel_bytes(uint32_t format, uint32_t type)
{
    int pb = packed_bytes(type);
    return pb ? (size_t)pb : (size_t)format_components(format) * gmf_gl_type_size(type);
}

bool gmf_integer_format(uint32_t format)
{
    switch (format) {
    case GL_RED_INTEGER: case GL_GREEN_INTEGER: case GL_BLUE_INTEGER: case GL_ALPHA_INTEGER:
    case GL_RG_INTEGER: case GL_RGB_INTEGER: case GL_BGR_INTEGER: case GL_RGBA_INTEGER:
    case GL_BGRA_INTEGER: return true;
    default: return false;
    }
}

/* One client component as float (normalized for non-integer formats) and as integer. */
static void component(const uint8_t *q, uint32_t type, bool norm, float *f, int32_t *i)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: *i = q[0]; *f = norm ? q[0] / 255.0f : q[0]; break;
    case GL_BYTE: { int8_t v = (int8_t)q[0]; *i = v; *f = norm ? (v < -127 ? -1.0f : v / 127.0f) : v; break; }
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, q, 2); *i = v; *f = norm ? v / 65535.0f : v; break; }
    case GL_SHORT: { int16_t v; memcpy(&v, q, 2); *i = v; *f = norm ? (v < -32767 ? -1.0f : v / 32767.0f) : v; break; }
    case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, q, 4); *i = (int32_t)v; *f = norm ? (float)(v / 4294967295.0) : (float)v; break; }
    case GL_INT: { int32_t v; memcpy(&v, q, 4); *i = v; *f = norm ? (float)(v / 2147483647.0) : (float)v; break; }
    case GL_FLOAT: memcpy(f, q, 4); *i = (int32_t)*f; break;
    case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: { uint16_t v; memcpy(&v, q, 2); *f = gm_half_to_float(v); *i = (int32_t)*f; break; }
    default: *f = 0; *i = 0; break;
    }
}

/* Decodes one client pixel into rgba (float) and rgbai (integers); depth in rgba[0], stencil in
 * rgbai[1] for depth/stencil formats. */
static void decode_pixel(const uint8_t *p, uint32_t format, uint32_t type, float rgba[4],
                         int32_t rgbai[4])
{
    float f[4] = { 0, 0, 0, 1 };
    int32_t iv[4] = { 0, 0, 0, 1 };
    int n = format_components(format);
    bool norm = !gmf_integer_format(format);
    if (packed_bytes(type)) {
        uint32_t w = 0;
        memcpy(&w, p, (size_t)(packed_bytes(type) > 4 ? 4 : packed_bytes(type)));
        switch (type) {
        case GL_UNSIGNED_SHORT_5_6_5:
            f[0] = (w >> 11) / 31.0f; f[1] = ((w >> 5) & 63) / 63.0f; f[2] = (w & 31) / 31.0f; break;
        case GL_UNSIGNED_SHORT_4_4_4_4:
            f[0] = (w >> 12) / 15.0f; f[1] = ((w >> 8) & 15) / 15.0f; f[2] = ((w >> 4) & 15) / 15.0f;
            f[3] = (w & 15) / 15.0f; break;
        case GL_UNSIGNED_SHORT_5_5_5_1:
            f[0] = (w >> 11) / 31.0f; f[1] = ((w >> 6) & 31) / 31.0f; f[2] = ((w >> 1) & 31) / 31.0f;
            f[3] = (float)(w & 1); break;
        case GL_UNSIGNED_INT_8_8_8_8:
            for (int k = 0; k < 4; k++) f[k] = ((w >> (24 - 8 * k)) & 255) / 255.0f;
            break;
        case GL_UNSIGNED_INT_8_8_8_8_REV:
            for (int k = 0; k < 4; k++) f[k] = ((w >> (8 * k)) & 255) / 255.0f;
            break;
        case GL_UNSIGNED_INT_2_10_10_10_REV:
            for (int k = 0; k < 3; k++) { iv[k] = (int32_t)((w >> (10 * k)) & 1023); f[k] = iv[k] / 1023.0f; }
            iv[3] = (int32_t)(w >> 30); f[3] = iv[3] / 3.0f; break;
        case GL_UNSIGNED_INT_10F_11F_11F_REV:
            gm_format_unpack_rgba(GM_FMT_R11G11B10F, &w, f); f[3] = 1; break;
        case GL_UNSIGNED_INT_5_9_9_9_REV:
            gm_format_unpack_rgba(GM_FMT_RGB9E5, &w, f); f[3] = 1; break;
        case GL_UNSIGNED_INT_24_8:
            f[0] = (w >> 8) / 16777215.0f; iv[1] = (int32_t)(w & 255); break;
        case GL_FLOAT_32_UNSIGNED_INT_24_8_REV:
            memcpy(&f[0], p, 4); iv[1] = p[4]; break;
        default: break;
        }
        if (format == GL_BGRA || format == GL_BGR) {
            float t = f[0]; f[0] = f[2]; f[2] = t;
        }
        memcpy(rgba, f, 16);
        memcpy(rgbai, iv, 16);
        return;
    }
    size_t ts = gmf_gl_type_size(type);
    float c[4] = { 0, 0, 0, 0 };
    int32_t ci[4] = { 0, 0, 0, 0 };
    for (int k = 0; k < n; k++)
        component(p + (size_t)k * ts, type, norm, &c[k], &ci[k]);
    switch (format) {
    case GL_RED: case GL_RED_INTEGER: case GL_DEPTH_COMPONENT: f[0] = c[0]; iv[0] = ci[0]; break;
    case GL_GREEN: case GL_GREEN_INTEGER: f[1] = c[0]; iv[1] = ci[0]; break;
    case GL_BLUE: case GL_BLUE_INTEGER: f[2] = c[0]; iv[2] = ci[0]; break;
    case GL_ALPHA: case GL_ALPHA_INTEGER: f[3] = c[0]; iv[3] = ci[0]; break;
    case GL_STENCIL_INDEX: iv[1] = ci[0]; break;
    case GL_LUMINANCE: f[0] = f[1] = f[2] = c[0]; break;
    case GL_LUMINANCE_ALPHA: f[0] = f[1] = f[2] = c[0]; f[3] = c[1]; break;
    case GL_BGR: case GL_BGR_INTEGER: case GL_BGRA: case GL_BGRA_INTEGER:
        f[0] = c[2]; f[1] = c[1]; f[2] = c[0]; iv[0] = ci[2]; iv[1] = ci[1]; iv[2] = ci[0];
        if (n == 4) { f[3] = c[3]; iv[3] = ci[3]; }
        break;
    default:
        for (int k = 0; k < n; k++) { f[k] = c[k]; iv[k] = ci[k]; }
        break;
    }
    memcpy(rgba, f, 16);
    memcpy(rgbai, iv, 16);
}

/* Pixel-transfer scale and bias (glPixelTransfer) over a region of a surface; lives with the
 * uploads that apply it so gmf_pixels.c (readbacks, PBOs) only calls into this file, not back. */
void gmf_scale_bias_region(gm_surface *s, int x, int y, int z, int w, int h, int d, const float sc[4],
                           const float bi[4])
{
    const gm_format_info *fi = gm_format_get(s->format);
    if (fi->block || fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT || fi->kind == GM_KIND_DEPTH ||
        fi->kind == GM_KIND_STENCIL || fi->kind == GM_KIND_DEPTH_STENCIL)
        return;
    for (int k = z; k < z + d && k < s->depth; k++)
        for (int j = y; j < y + h && j < s->height; j++)
            for (int i = x; i < x + w && i < s->width; i++) {
                uint8_t *t = gm_surface_texel(s, i, j, k);
                float v[4];
                gm_format_unpack_rgba(s->format, t, v);
                for (int c = 0; c < 4; c++)
                    v[c] = v[c] * sc[c] + bi[c];
                gm_format_pack_rgba(s->format, v, t);
            }
}

int gmf_unpack_to_surface(const void *data, uint64_t size, uint32_t format, uint32_t type,
                          int alignment, int w, int h, int d, gm_surface *dst, int z0)
{
    const gm_format_info *fi = gm_format_get(dst->format);
    if (fi->block) {
        /* Compressed data: copied as blocks. */
        size_t row = (size_t)((w + 3) / 4) * fi->bytes, img = row * (size_t)((h + 3) / 4);
        if (size < img * (size_t)d)
            return -1;
        for (int z = 0; z < d; z++)
            memcpy(dst->data + (size_t)(z0 + z) * dst->layer_stride,
                   (const uint8_t *)data + img * (size_t)z, img);
        return 0;
    }
    size_t pb = pixel_bytes(format, type);
    size_t row = pb * (size_t)w;
    size_t al = alignment > 0 ? (size_t)alignment : 4;
    if (pb < al)
        row = (row + al - 1) / al * al;
    size_t img = row * (size_t)h;
    if (size < img * (size_t)(d - 1) + row * (size_t)(h - 1) + pb * (size_t)w)
        return -1;
    const uint8_t *src = data;
    bool fast = (dst->format == GM_FMT_RGBA8 && format == GL_RGBA && type == GL_UNSIGNED_BYTE) ||
                (dst->format == GM_FMT_RGB8 && format == GL_RGB && type == GL_UNSIGNED_BYTE) ||
                (dst->format == GM_FMT_R8 && format == GL_RED && type == GL_UNSIGNED_BYTE) ||
                (dst->format == GM_FMT_L8 && format == GL_LUMINANCE && type == GL_UNSIGNED_BYTE) ||
                (dst->format == GM_FMT_RGBA32F && format == GL_RGBA && type == GL_FLOAT);
    bool is_int = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++) {
            const uint8_t *s = src + img * (size_t)z + row * (size_t)y;
            uint8_t *o = gm_surface_texel(dst, 0, y, z0 + z);
            if (fast) {
                memcpy(o, s, pb * (size_t)w);
                continue;
            }
            for (int x = 0; x < w; x++, s += pb, o += fi->bytes) {
                float rgba[4];
                int32_t rgbai[4];
                decode_pixel(s, format, type, rgba, rgbai);
                if (fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_DEPTH_STENCIL) {
                    gm_format_pack_depth(dst->format, rgba[0], o);
                    if (fi->kind == GM_KIND_DEPTH_STENCIL)
                        gm_format_pack_stencil(dst->format, (uint8_t)rgbai[1], o);
                } else if (fi->kind == GM_KIND_STENCIL) {
                    gm_format_pack_stencil(dst->format, (uint8_t)rgbai[1], o);
                } else if (is_int) {
                    gm_format_pack_rgba_i(dst->format, (const uint32_t *)rgbai, o);
                } else {
                    gm_format_pack_rgba(dst->format, rgba, o);
                }
            }
        }
    return 0;
}

/* ---- textures ---- */

/* Samples of a multisampled image as llvmpipe allocates it: it supports 4x only and
 * rounds any request of 2..4 up to it (larger requests fail in the driver). */
static int gmf_model_samples(int requested)
{
    return requested > 1 ? 4 : 1;
}

static uint64_t hash_bytes(const void *p, uint64_t n)
{
    const uint8_t *b = p;
    uint64_t h = 1469598103934665603ull;
    uint64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, b + i, 8);
        h = (h ^ w) * 1099511628211ull;
        h ^= h >> 29;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h ^ n;
}

static gm_tex_target tex_target(uint32_t t)
{
    switch (t) {
    case GL_TEXTURE_1D: return GM_TEX_1D;
    case GL_TEXTURE_3D: return GM_TEX_3D;
    case GL_TEXTURE_CUBE_MAP: return GM_TEX_CUBE;
    case GL_TEXTURE_1D_ARRAY: return GM_TEX_1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY: return GM_TEX_2D_ARRAY;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GM_TEX_CUBE_ARRAY;
    case GL_TEXTURE_RECTANGLE: return GM_TEX_RECT;
    case GL_TEXTURE_BUFFER: return GM_TEX_BUFFER;
    case GL_TEXTURE_2D_MULTISAMPLE: return GM_TEX_2D_MS;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GM_TEX_2D_MS_ARRAY;
    default: return GM_TEX_2D;
    }
}

static uint8_t swz(uint32_t e, uint8_t def)
{
    switch (e) {
    case GL_RED: return 0;
    case GL_GREEN: return 1;
    case GL_BLUE: return 2;
    case GL_ALPHA: return 3;
    case GL_ZERO: return 4;
    case GL_ONE: return 5;
    default: return def;
    }
}

static gmf_texture *tex_find(gmf_runner *r, uint32_t share, uint32_t name, bool create)
{
    for (int i = 0; i < r->n_tex; i++)
        if (r->tex[i]->share == share && r->tex[i]->name == name)
            return r->tex[i];
    if (!create)
        return NULL;
    if (r->n_tex == r->cap_tex) {
        int cap = r->cap_tex ? 2 * r->cap_tex : 16;
        gmf_texture **n = realloc(r->tex, (size_t)cap * sizeof *n);
        if (!n)
            return NULL;
        r->tex = n;
        r->cap_tex = cap;
    }
    gmf_texture *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->share = share;
    t->name = name;
    t->checked_epoch = UINT64_MAX;
    r->tex[r->n_tex++] = t;
    return t;
}

static void tex_free_levels(gmf_texture *t)
{
    for (int l = 0; l < GM_TEX_MAX_LEVELS; l++)
        gm_surface_free(&t->img.level[l]);
    memset(t->src, 0, sizeof t->src);
    t->img.num_levels = 0;
}

/* GL_DEPTH_TEXTURE_MODE as the sampler sees it: compatibility contexts only (Mesa reads depth
 * textures as GL_RED in core profiles, and in ES 3 for sized depth formats). The sampler applies
 * it to depth formats only. */
static uint8_t depth_mode(const struct sm_context *c, uint32_t mode)
{
    int major, minor;
    if (sm_context_api(c, &major, &minor) != SM_API_GL_COMPAT)
        return GM_DEPTH_MODE_RED;
    switch (mode) {
    case GL_LUMINANCE: return GM_DEPTH_MODE_LUMINANCE;
    case GL_INTENSITY: return GM_DEPTH_MODE_INTENSITY;
    case GL_ALPHA: return GM_DEPTH_MODE_ALPHA;
    default: return GM_DEPTH_MODE_RED;
    }
}

gmf_texture *gmf_tex_sync(gmf_runner *r, const struct sm_context *c, uint32_t name,
                          gmf_event *ev)
{
    const struct sm_texture *st = sm_get_texture(c, name);
    if (!st)
        return NULL;
    gmf_texture *t = tex_find(r, sm_context_share_id(c), name, true);
    if (!t)
        return NULL;
    /* Sampling parameters that belong to the texture, every time (cheap). */
    t->img.base_level = st->params.base_level;
    t->img.max_level = st->params.max_level;
    /* immutable storage clamps the max level to its levels (a 1-level glTexStorage texture
     * is complete with the default mipmap filter) */
    if (st->immutable && st->immutable_levels > 0 && t->img.max_level > st->immutable_levels - 1)
        t->img.max_level = st->immutable_levels - 1;
    for (int k = 0; k < 4; k++)
        t->img.swizzle[k] = swz(st->params.swizzle[k], (uint8_t)k);
    t->img.stencil_mode = st->params.depth_stencil_mode == GL_STENCIL_INDEX;
    t->img.depth_mode = depth_mode(c, st->params.depth_texture_mode);
    if (t->checked_epoch == r->tex_epoch)
        return t;
    t->checked_epoch = r->tex_epoch;
    if (st->target == GL_TEXTURE_BUFFER) {
        gmf_note(ev, "buffer texture %u", name);
        return NULL;
    }
    bool cube = st->target == GL_TEXTURE_CUBE_MAP;
    int faces = cube ? 6 : 1;
    /* The format is the base level's: a texture may define only the levels from its base
     * level up (piglit gl-1.2-texture-base-level defines levels 2..9 and sets the base to 2). */
    int first = st->params.base_level > 0 && st->params.base_level < SM_MAX_LEVELS &&
                        st->params.base_level < GM_TEX_MAX_LEVELS &&
                        st->image[0][st->params.base_level].defined
                    ? st->params.base_level
                    : 0;
    const struct sm_tex_image *base = &st->image[0][first];
    /* Unsized GL_RGBA/GL_RGB with float data: Mesa makes RGBA32F/RGB32F (and the half-float
     * formats) only in ES contexts (OES_texture_float); desktop GL keeps 8-bit unorm texels,
     * so the data is quantized (piglit glsl-fs-lots-of-tex). */
    uint32_t data_type = base->data_type;
    if ((base->internal_format == GL_RGBA || base->internal_format == GL_RGB) &&
        sm_context_api(c, NULL, NULL) != SM_API_GLES &&
        (data_type == GL_FLOAT || data_type == GL_HALF_FLOAT))
        data_type = GL_UNSIGNED_BYTE;
    gm_format fmt = gmf_format_from_gl(base->internal_format, data_type);
    if (t->target != st->target || t->img.format != fmt || t->faces != faces) {
        tex_free_levels(t);
        t->target = st->target;
        t->img.target = tex_target(st->target);
        t->img.format = fmt;
        t->faces = faces;
    }
    if (fmt == GM_FMT_NONE) {
        if (base->defined)
            gmf_note(ev, "texture %u: internal format 0x%04x not supported", name,
                     base->internal_format);
        return NULL;
    }
    int levels = 0;
    for (int l = 0; l < SM_MAX_LEVELS && l < GM_TEX_MAX_LEVELS; l++) {
        const struct sm_tex_image *im = &st->image[0][l];
        if (!im->defined && l < first) {   /* below the base level: never sampled */
            gm_surface_free(&t->img.level[l]);
            continue;
        }
        if (!im->defined)
            break;
        int layers = cube ? 6 * (im->depth > 0 ? im->depth : 1)
                          : (st->target == GL_TEXTURE_1D_ARRAY ? 1 : (im->depth > 0 ? im->depth : 1));
        int h = im->height > 0 ? im->height : 1;
        gm_surface *s = &t->img.level[l];
        int samples = gmf_model_samples(im->samples);
        if (!s->data || s->width != im->width || s->height != h || s->depth != layers ||
            s->format != fmt || s->samples != samples) {
            gm_surface_free(s);
            if (gm_surface_alloc(s, fmt, im->width, h, layers, samples) != 0) {
                gmf_note(ev, "texture %u level %d: cannot allocate %dx%dx%d (over the model's 1 GiB "
                         "per image, or out of memory)", name, l, im->width, h, layers);
                break;
            }
            for (int f = 0; f < 6; f++)
                t->src[f][l] = (gmf_image_src){ 0 };
        }
        for (int f = 0; f < faces; f++) {
            const struct sm_tex_image *fi = &st->image[f][l];
            if (!fi->data || !fi->data_size)
                continue;
            gmf_image_src *src = &t->src[f][l];
            if (src->loaded && src->data == fi->data && src->size == fi->data_size &&
                src->data_epoch == r->tex_data_epoch)
                continue;   /* no command since the last hash could have replaced these bytes */
            uint64_t hsh = hash_bytes(fi->data, fi->data_size);
            r->tex_hashed_bytes += fi->data_size;
            if (fi->xfer)   /* the same bytes under other scales are other texels */
                hsh ^= hash_bytes(fi->xfer_scale, sizeof fi->xfer_scale) * 31u ^
                       hash_bytes(fi->xfer_bias, sizeof fi->xfer_bias);
            if (src->loaded && src->hash == hsh) {
                src->data = fi->data;
                src->size = fi->data_size;
                src->data_epoch = r->tex_data_epoch;
                continue;
            }
            int d = cube ? 1 : layers;
            int rc = fi->compressed
                         ? gmf_unpack_to_surface(fi->data, fi->data_size, 0, 0, 1, im->width, h, d, s, f)
                         : gmf_unpack_to_surface(fi->data, fi->data_size, fi->data_format,
                                                 fi->data_type, fi->data_alignment, im->width, h,
                                                 d, s, f);
            if (rc != 0)
                gmf_note(ev, "texture %u level %d: upload of format 0x%04x type 0x%04x not "
                             "understood", name, l, fi->data_format, fi->data_type);
            else if (fi->xfer)
                gmf_scale_bias_region(s, 0, 0, cube ? f : 0, im->width, h, d, fi->xfer_scale, fi->xfer_bias);
            *src = (gmf_image_src){ true, hsh, fi->data, fi->data_size, r->tex_data_epoch };
        }
        levels = l + 1;
    }
    for (int l = levels; l < GM_TEX_MAX_LEVELS; l++)
        gm_surface_free(&t->img.level[l]);
    t->img.num_levels = levels;
    return t;
}

/* The texture an image upload call writes, with the face and level (-1: not an upload). */
static uint32_t upload_target(const struct sm_context *c, const struct glr_call *call, uint32_t cmd,
                              int *face, int *level)
{
    const struct glr_cmd_info *ci = &glr_cmds[cmd];   /* class and registry class: gl_annotations.txt */
    if (!(ci->flags & GLR_CF_IMAGE_UPLOAD))
        return 0;
    bool dsa = ci->nparams > 0 && glr_cmd_params(ci)[0].obj_class == GLR_OBJ_TEXTURE;   /* glTextureSubImage* */
    *level = (int)(int32_t)call->args[1];
    *face = 0;
    if (dsa)
        return (uint32_t)call->args[0];
    uint32_t target = (uint32_t)call->args[0];
    int ti;
    switch (target) {
    case GL_TEXTURE_1D: ti = SM_TT_1D; break;
    case GL_TEXTURE_2D: ti = SM_TT_2D; break;
    case GL_TEXTURE_3D: ti = SM_TT_3D; break;
    case GL_TEXTURE_1D_ARRAY: ti = SM_TT_1D_ARRAY; break;
    case GL_TEXTURE_2D_ARRAY: ti = SM_TT_2D_ARRAY; break;
    case GL_TEXTURE_RECTANGLE: ti = SM_TT_RECTANGLE; break;
    case GL_TEXTURE_CUBE_MAP_ARRAY: ti = SM_TT_CUBE_MAP_ARRAY; break;
    default:
        if (target < GL_TEXTURE_CUBE_MAP_POSITIVE_X || target > GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
            return 0;
        ti = SM_TT_CUBE_MAP;
        *face = (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
        break;
    }
    const struct sm_context_state *st = sm_context_state(c);
    return st->active_texture < SM_MAX_TEXTURE_UNITS ? sm_texture_key(st->unit[st->active_texture].bound[ti], ti) : 0;
}

void gmf_tex_note_upload(gmf_runner *r, const struct glr_call *call, uint32_t cmd)
{
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    int face, level;
    uint32_t name = c ? upload_target(c, call, cmd, &face, &level) : 0;
    gmf_texture *t = name ? tex_find(r, sm_context_share_id(c), name, false) : NULL;
    /* Identical bytes hash the same: without this the GPU's contents would stay. */
    if (t && t->gpu_written && level >= 0 && level < SM_MAX_LEVELS)
        t->src[face][level].loaded = false;
}

void gmf_tex_generate_mipmap(gmf_runner *r, const struct sm_context *c, uint32_t name,
                             gmf_event *ev)
{
    r->tex_epoch++;
    r->tex_data_epoch++;
    gmf_texture *t = gmf_tex_sync(r, c, name, ev);
    if (!t || !t->img.num_levels)
        return;
    const gm_format_info *fi = gm_format_get(t->img.format);
    if (fi->block || fi->kind != GM_KIND_UNORM) {
        if (fi->kind != GM_KIND_FLOAT || fi->block) {
            gmf_note(ev, "glGenerateMipmap on %s texture %u", fi->name, name);
            return;
        }
    }
    int base = t->img.base_level > 0 ? t->img.base_level : 0;
    bool unorm8 = fi->kind == GM_KIND_UNORM && fi->bits[0] == 8 && !fi->srgb;
    for (int l = base + 1; l < t->img.num_levels; l++) {
        gm_surface *src = &t->img.level[l - 1], *dst = &t->img.level[l];
        int faces = t->faces;
        for (int z = 0; z < dst->depth; z++) {
            if (!fi->srgb && (faces > 1 || src->depth == dst->depth)) {
                /* 2D levels, layers and cube faces: llvmpipe's blit, whatever the sizes (odd
                 * ones included; e2e_mipgen_llvmpipe.c). sRGB: the box filter below. */
                gm_tex_blit_downsample(src, z, dst, z);
                continue;
            }
            int sz = src->depth > 1 ? 2 * z : 0;
            for (int y = 0; y < dst->height; y++)
                for (int x = 0; x < dst->width; x++) {
                    int sx0 = 2 * x, sy0 = 2 * y;
                    int sx1 = sx0 + 1 < src->width ? sx0 + 1 : src->width - 1;
                    int sy1 = sy0 + 1 < src->height ? sy0 + 1 : src->height - 1;
                    if (sx0 >= src->width) sx0 = src->width - 1;
                    if (sy0 >= src->height) sy0 = src->height - 1;
                    float v[4][4];
                    gm_format_unpack_rgba(src->format, gm_surface_texel(src, sx0, sy0, sz), v[0]);
                    gm_format_unpack_rgba(src->format, gm_surface_texel(src, sx1, sy0, sz), v[1]);
                    gm_format_unpack_rgba(src->format, gm_surface_texel(src, sx0, sy1, sz), v[2]);
                    gm_format_unpack_rgba(src->format, gm_surface_texel(src, sx1, sy1, sz), v[3]);
                    float acc[4];
                    if (unorm8) {
                        /* llvmpipe generates mipmaps with a linear-filtered blit of each 2x2
                         * block centre: 8-bit fixed-point lerps with rounding, first along x,
                         * then y (measured: box filter in float 99.91%, this 99.99%). */
                        for (int k = 0; k < 4; k++) {
                            int q[4];
                            for (int j = 0; j < 4; j++)
                                q[j] = (int)gm_float_to_unorm8(v[j][k]);
                            int r0 = q[0] + (((q[1] - q[0]) * 128 + 128) >> 8);
                            int r1 = q[2] + (((q[3] - q[2]) * 128 + 128) >> 8);
                            int rv = r0 + (((r1 - r0) * 128 + 128) >> 8);
                            acc[k] = gm_unorm8_to_float((uint8_t)rv);
                        }
                    } else {
                        for (int k = 0; k < 4; k++)
                            acc[k] = (v[0][k] + v[1][k] + v[2][k] + v[3][k]) * 0.25f;
                    }
                    gm_format_pack_rgba(dst->format, acc, gm_surface_texel(dst, x, y, z));
                }
        }
        for (int f = 0; f < 6; f++)
            t->src[f][l].loaded = false;
    }
}

void gmf_tex_sampler_from_sm(const struct sm_sampling *s, gm_tex_sampler *out)
{
    gm_tex_sampler_default(out);
    out->wrap_s = s->wrap_s;
    out->wrap_t = s->wrap_t;
    out->wrap_r = s->wrap_r;
    out->min_filter = s->min_filter;
    out->mag_filter = s->mag_filter;
    out->min_lod = s->min_lod;
    out->max_lod = s->max_lod;
    out->lod_bias = s->lod_bias;
    for (int k = 0; k < 4; k++) {
        out->border_i[k] = s->border[k];
        memcpy(&out->border[k], &s->border[k], 4);
        if (s->border_kind == SM_VK_INT)
            out->border[k] = (float)(int32_t)s->border[k];
        else if (s->border_kind == SM_VK_UINT)
            out->border[k] = (float)s->border[k];
    }
    out->compare = s->compare_mode == GL_COMPARE_REF_TO_TEXTURE;
    out->compare_func = s->compare_func;
    out->max_anisotropy = s->max_anisotropy;
    out->seamless_cube = true;
}

bool gmf_tex_complete(const gmf_texture *t, const gm_tex_sampler *s)
{
    int base = t->img.base_level;
    if (base < 0 || base >= t->img.num_levels)
        return false;
    bool mip = s->min_filter != GL_NEAREST && s->min_filter != GL_LINEAR;
    /* multisample textures have one level and ignore the sampler (texelFetch only) */
    if (!mip || t->img.target == GM_TEX_2D_MS || t->img.target == GM_TEX_2D_MS_ARRAY)
        return true;
    const gm_surface *b = &t->img.level[base];
    int w = b->width, h = b->height, need = base;
    while (w > 1 || h > 1) {
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
        need++;
    }
    if (need > t->img.max_level)
        need = t->img.max_level;
    return need < t->img.num_levels;
}

/* ---- renderbuffers and default framebuffers ---- */

static gm_surface *renderbuffer(gmf_runner *r, const struct sm_context *c, uint32_t name,
                                gmf_event *ev)
{
    const struct sm_renderbuffer *rb = sm_get_renderbuffer(c, name);
    if (!rb)
        return NULL;
    uint32_t share = sm_context_share_id(c);
    gmf_renderbuffer *m = NULL;
    for (int i = 0; i < r->n_rbs; i++)
        if (r->rbs[i]->share == share && r->rbs[i]->name == name)
            m = r->rbs[i];
    if (!m) {
        if (r->n_rbs == r->cap_rbs) {
            int cap = r->cap_rbs ? 2 * r->cap_rbs : 8;
            gmf_renderbuffer **n = realloc(r->rbs, (size_t)cap * sizeof *n);
            if (!n)
                return NULL;
            r->rbs = n;
            r->cap_rbs = cap;
        }
        m = calloc(1, sizeof *m);
        if (!m)
            return NULL;
        m->share = share;
        m->name = name;
        r->rbs[r->n_rbs++] = m;
    }
    gm_format f = gmf_format_from_gl(rb->internal_format, 0);
    int samples = gmf_model_samples(rb->samples);
    if (f == GM_FMT_NONE) {
        gmf_note(ev, "renderbuffer %u: format 0x%04x not supported", name, rb->internal_format);
        return NULL;
    }
    if (!m->surf.data || m->surf.width != rb->width || m->surf.height != rb->height ||
        m->surf.format != f || m->surf.samples != samples) {
        gm_surface_free(&m->surf);
        if (gm_surface_alloc(&m->surf, f, rb->width, rb->height, 1, samples) != 0)
            return NULL;
    }
    return &m->surf;
}

gmf_default_fb *gmf_default_fb_get(gmf_runner *r, uint32_t ctx_id)
{
    for (int i = 0; i < r->n_fbs; i++)
        if (r->fbs[i].ctx_id == ctx_id)
            return &r->fbs[i];
    gmf_default_fb *n = realloc(r->fbs, (size_t)(r->n_fbs + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->fbs = n;
    gmf_default_fb *fb = &r->fbs[r->n_fbs];
    memset(fb, 0, sizeof *fb);
    fb->ctx_id = ctx_id;
    fb->width = r->default_w;
    fb->height = r->default_h;
    /* A multisampled window: drawn per sample, resolved when read (gmf_runner.c). */
    int samples = gmf_model_samples(gmf_window_samples(r, ctx_id));
    for (int i = 0; i < r->n_surfaces; i++)
        if (r->surfaces[i].ctx_id == ctx_id) {
            fb->width = r->surfaces[i].width;
            fb->height = r->surfaces[i].height;
            fb->alpha = r->surfaces[i].alpha;
        }
    if (gm_surface_alloc(&fb->color, fb->alpha ? GM_FMT_RGBA8 : GM_FMT_RGB8, fb->width,
                         fb->height, 1, samples) != 0 ||
        gm_surface_alloc(&fb->ds, GM_FMT_D24S8, fb->width, fb->height, 1, samples) != 0) {
        gm_surface_free(&fb->color);
        gm_surface_free(&fb->ds);
        return NULL;
    }
    r->n_fbs++;
    return fb;
}

/* The surface of an FBO attachment (a view into a texture level/layer, or a renderbuffer).
 * slot: the view's slot in r->lfb (layered attachments of a draw framebuffer), or -1. */
static gm_surface *attachment(gmf_runner *r, const struct sm_context *c,
                              const struct sm_attachment *a, gm_surface *view, gmf_event *ev,
                              int slot)
{
    if (a->type == GL_RENDERBUFFER)
        return renderbuffer(r, c, a->name, ev);
    if (a->type != GL_TEXTURE)
        return NULL;
    gmf_texture *t = gmf_tex_sync(r, c, a->name, ev);
    if (!t || a->level < 0 || a->level >= t->img.num_levels) {
        gmf_note(ev, "attachment: texture %u level %d not defined", a->name, a->level);
        return NULL;
    }
    int layer = a->layered ? 0 : a->layer;
    if (a->textarget >= GL_TEXTURE_CUBE_MAP_POSITIVE_X &&
        a->textarget <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z)
        layer = (int)(a->textarget - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
    const gm_surface *lv = &t->img.level[a->level];
    if (layer < 0 || layer >= lv->depth)
        layer = 0;
    *view = *lv;
    view->data = lv->data + (size_t)layer * lv->layer_stride;
    view->depth = 1;
    t->gpu_written = true;
    if (a->layered && lv->depth > 0 && slot >= 0) {
        /* layer 0 until a geometry shader selects another (gl_Layer); clears loop over all */
        r->lfb.level[slot] = lv;
        r->lfb.view[slot] = view;
        if (r->lfb.layers == 0 || lv->depth < r->lfb.layers)
            r->lfb.layers = lv->depth;
    }
    return view;
}

int gmf_fb_select_layer(gmf_runner *r, int layer)
{
    if (r->lfb.layers <= 0)
        return 0;
    if (layer < 0 || layer >= r->lfb.layers)
        layer = r->lfb.layers - 1;   /* llvmpipe: MIN2(layer, fb_max_layer), unsigned */
    for (int s = 0; s < GM_PIPE_MAX_RT + 2; s++)
        if (r->lfb.level[s])
            r->lfb.view[s]->data = r->lfb.level[s]->data +
                                   (size_t)layer * r->lfb.level[s]->layer_stride;
    return layer;
}

bool gmf_build_framebuffer(gmf_runner *r, const struct sm_context *c, gm_pipe_framebuffer *fb,
                           gm_surface views[GM_PIPE_MAX_RT + 2], gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    memset(fb, 0, sizeof *fb);
    memset(&r->lfb, 0, sizeof r->lfb);
    if (!st->draw_fbo) {
        gmf_default_fb *d = gmf_default_fb_get(r, sm_context_id(c));
        if (!d)
            return false;
        const struct sm_framebuffer *f = sm_get_framebuffer(c, 0);
        uint32_t db = f && f->n_draw_buffers ? f->draw_buffers[0] : GL_BACK;
        fb->color[0] = db == GL_NONE ? NULL : &d->color;
        if (db == GL_FRONT || db == GL_FRONT_LEFT)
            gmf_note(ev, "drawing to the front buffer (drawn to the back buffer)");
        fb->depth = &d->ds;
        fb->stencil = &d->ds;
        fb->width = d->width;
        fb->height = d->height;
        fb->winsys_orientation = true;
        return true;
    }
    const struct sm_framebuffer *f = sm_get_framebuffer(c, st->draw_fbo);
    if (!f) {
        gmf_note(ev, "framebuffer %u unknown", st->draw_fbo);
        return false;
    }
    int w = 1 << 30, h = 1 << 30;
    bool any = false;
    for (uint32_t i = 0; i < f->n_draw_buffers && i < GM_PIPE_MAX_RT; i++) {
        uint32_t db = f->draw_buffers[i];
        if (db < GL_COLOR_ATTACHMENT0 || db >= GL_COLOR_ATTACHMENT0 + SM_MAX_COLOR_ATTACH)
            continue;
        gm_surface *s = attachment(r, c, &f->color[db - GL_COLOR_ATTACHMENT0], &views[i], ev,
                                  (int)i);
        fb->color[i] = s;
        if (s) {
            any = true;
            if (s->width < w) w = s->width;
            if (s->height < h) h = s->height;
        }
    }
    gm_surface *ds = attachment(r, c, &f->depth, &views[GM_PIPE_MAX_RT], ev, GM_PIPE_MAX_RT);
    gm_surface *ss = f->stencil.type == f->depth.type && f->stencil.name == f->depth.name
                         ? ds : attachment(r, c, &f->stencil, &views[GM_PIPE_MAX_RT + 1], ev,
                                               GM_PIPE_MAX_RT + 1);
    if (ds && gm_format_get(ds->format)->kind != GM_KIND_DEPTH &&
        gm_format_get(ds->format)->kind != GM_KIND_DEPTH_STENCIL)
        ds = NULL;
    fb->depth = ds;
    fb->stencil = ss;
    for (gm_surface *s = ds; s; s = NULL) {
        any = true;
        if (s->width < w) w = s->width;
        if (s->height < h) h = s->height;
    }
    if (!any) {
        fb->width = fb->height = 0;
        gmf_note(ev, "framebuffer %u has no drawable attachment", st->draw_fbo);
        return false;
    }
    fb->width = w;
    fb->height = h;
    fb->winsys_orientation = false;
    return true;
}

void gmf_images_free(gmf_runner *r)
{
    for (int i = 0; i < r->n_tex; i++) {
        tex_free_levels(r->tex[i]);
        free(r->tex[i]);
    }
    free(r->tex);
    for (int i = 0; i < r->n_rbs; i++) {
        gm_surface_free(&r->rbs[i]->surf);
        free(r->rbs[i]);
    }
    free(r->rbs);
    for (int i = 0; i < r->n_fbs; i++) {
        gm_surface_free(&r->fbs[i].color);
        gm_surface_free(&r->fbs[i].ds);
    }
    free(r->fbs);
}

/* ---- glBlitFramebuffer ---- */

/* Colour surface of `buf` (GL_COLOR_ATTACHMENTi, or GL_BACK/GL_FRONT on the default
 * framebuffer) of framebuffer `fbo`, or NULL. */
static gm_surface *blit_color(gmf_runner *r, const struct sm_context *c, uint32_t fbo,
                              uint32_t buf, gm_surface *view, gmf_event *ev)
{
    if (buf == GL_NONE)
        return NULL;
    if (fbo == 0) {
        gmf_default_fb *d = gmf_default_fb_get(r, sm_context_id(c));
        return d ? &d->color : NULL;
    }
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    if (!f || buf < GL_COLOR_ATTACHMENT0 || buf >= GL_COLOR_ATTACHMENT0 + SM_MAX_COLOR_ATTACH)
        return NULL;
    return attachment(r, c, &f->color[buf - GL_COLOR_ATTACHMENT0], view, ev, -1);
}

static gm_surface *blit_depth(gmf_runner *r, const struct sm_context *c, uint32_t fbo,
                              gm_surface *view, gmf_event *ev)
{
    if (fbo == 0) {
        gmf_default_fb *d = gmf_default_fb_get(r, sm_context_id(c));
        return d ? &d->ds : NULL;
    }
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    if (!f)
        return NULL;
    gm_surface *s = attachment(r, c, f->depth.type ? &f->depth : &f->stencil, view, ev, -1);
    return s && s->format != GM_FMT_NONE ? s : NULL;
}

/* One destination texel from the source pixel (sx, sy): a copy, a conversion, or the
 * average of the source's samples (resolve: float sum in sample order times 1/n, as
 * llvmpipe's resolve shader; integer formats take sample 0). */
static void blit_texel(const gm_surface *src, int sx, int sy, gm_surface *dst, int dx, int dy,
                       bool depth)
{
    const gm_format_info *si = gm_format_get(src->format), *di = gm_format_get(dst->format);
    const uint8_t *sp = gm_surface_texel(src, sx, sy, 0);
    uint8_t *dp = gm_surface_texel(dst, dx, dy, 0);
    int sn = src->samples > 1 ? src->samples : 1, dn = dst->samples > 1 ? dst->samples : 1;
    if (src->format == dst->format && sn == dn) {
        memcpy(dp, sp, (size_t)si->bytes * (size_t)sn);
        return;
    }
    uint8_t texel[16] = {0};
    if (src->format == dst->format && (depth || sn == 1 || si->kind == GM_KIND_UINT ||
                                       si->kind == GM_KIND_SINT)) {
        memcpy(texel, sp, si->bytes);   /* sample 0 (depth/integer: GL picks one sample) */
    } else if (si->kind == GM_KIND_UINT || si->kind == GM_KIND_SINT) {
        uint32_t v[4];
        gm_format_unpack_rgba_i(src->format, sp, v);
        gm_format_pack_rgba_i(dst->format, v, texel);
    } else if (depth) {
        gm_format_pack_depth(dst->format, gm_format_unpack_depth(src->format, sp), texel);
    } else {
        float acc[4] = {0, 0, 0, 0}, t[4];
        for (int s = 0; s < sn; s++) {
            gm_format_unpack_rgba(src->format, sp + (size_t)s * si->bytes, t);
            for (int k = 0; k < 4; k++)
                acc[k] += t[k];
        }
        float inv = 1.0f / (float)sn;
        for (int k = 0; k < 4; k++)
            acc[k] *= inv;
        gm_format_pack_rgba_rt(dst->format, acc, texel);
    }
    for (int s = 0; s < dn; s++)
        memcpy(dp + (size_t)s * di->bytes, texel, di->bytes);
}

/* Blits src rectangle s[4] (x0, y0, x1, y1) to d[4] with nearest sampling at the
 * destination pixel centres, clipped to both surfaces (and the scissor when on). */
static void blit_rect(const gm_surface *src, gm_surface *dst, const int64_t s[4],
                      const int64_t d[4], const int *scissor, bool depth)
{
    int64_t dx0 = d[0] < d[2] ? d[0] : d[2], dx1 = d[0] < d[2] ? d[2] : d[0];
    int64_t dy0 = d[1] < d[3] ? d[1] : d[3], dy1 = d[1] < d[3] ? d[3] : d[1];
    if (dx1 == dx0 || dy1 == dy0)
        return;
    double scx = (double)(s[2] - s[0]) / (double)(d[2] - d[0]);
    double scy = (double)(s[3] - s[1]) / (double)(d[3] - d[1]);
    for (int64_t y = dy0 < 0 ? 0 : dy0; y < dy1 && y < dst->height; y++) {
        if (scissor && (y < scissor[1] || y >= (int64_t)scissor[1] + scissor[3]))
            continue;
        int64_t sy = (int64_t)floor((double)s[1] + ((double)y + 0.5 - (double)d[1]) * scy);
        if (sy < 0 || sy >= src->height)
            continue;
        for (int64_t x = dx0 < 0 ? 0 : dx0; x < dx1 && x < dst->width; x++) {
            if (scissor && (x < scissor[0] || x >= (int64_t)scissor[0] + scissor[2]))
                continue;
            int64_t sx = (int64_t)floor((double)s[0] + ((double)x + 0.5 - (double)d[0]) * scx);
            if (sx < 0 || sx >= src->width)
                continue;
            blit_texel(src, (int)sx, (int)sy, dst, (int)x, (int)y, depth);
        }
    }
}

void gmf_blit_framebuffer(gmf_runner *r, const struct sm_context *c,
                          const struct glr_call *call, bool named, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int a = named ? 2 : 0;
    uint32_t read_fbo = named ? (uint32_t)call->args[0] : st->read_fbo;
    uint32_t draw_fbo = named ? (uint32_t)call->args[1] : st->draw_fbo;
    int64_t s[4], d[4];
    for (int i = 0; i < 4; i++) {
        s[i] = (int32_t)call->args[a + i];
        d[i] = (int32_t)call->args[a + 4 + i];
    }
    uint32_t mask = (uint32_t)call->args[a + 8];
    uint32_t filter = (uint32_t)call->args[a + 9];
    bool scaled = s[2] - s[0] != d[2] - d[0] || s[3] - s[1] != d[3] - d[1];
    if (filter == GL_LINEAR && scaled)
        gmf_note(ev, "glBlitFramebuffer: linear filter modelled as nearest");
    const int *sc = NULL;
    if (sm_is_enabled(c, GL_SCISSOR_TEST, 0))
        sc = st->scissor[0];
    gm_surface rv, dv;
    if (mask & GL_COLOR_BUFFER_BIT) {
        const struct sm_framebuffer *rf = sm_get_framebuffer(c, read_fbo);
        uint32_t rb = rf ? rf->read_buffer : GL_BACK;
        if (read_fbo != 0 && rb == GL_BACK)
            rb = GL_COLOR_ATTACHMENT0;
        gm_surface *src = blit_color(r, c, read_fbo, rb, &rv, ev);
        const struct sm_framebuffer *df = sm_get_framebuffer(c, draw_fbo);
        uint32_t n = df && df->n_draw_buffers ? df->n_draw_buffers : 1;
        for (uint32_t i = 0; src && i < n && i < SM_MAX_DRAW_BUFFERS; i++) {
            uint32_t db = df && df->n_draw_buffers ? df->draw_buffers[i]
                                                   : (draw_fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK);
            gm_surface *dst = blit_color(r, c, draw_fbo, db, &dv, ev);
            if (dst)
                blit_rect(src, dst, s, d, sc, false);
        }
        if (!src)
            gmf_note(ev, "glBlitFramebuffer: read buffer of framebuffer %u not modelled", read_fbo);
    }
    if (mask & (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)) {
        gm_surface *src = blit_depth(r, c, read_fbo, &rv, ev);
        gm_surface *dst = blit_depth(r, c, draw_fbo, &dv, ev);
        if (src && dst && src != dst)
            blit_rect(src, dst, s, d, NULL, true);
        if (src && dst && src->format != dst->format)
            gmf_note(ev, "glBlitFramebuffer: depth/stencil formats differ (depth converted)");
    }
}

/* ---- surfaces for copies and read-backs (gmf_copies.c) ---- */

gm_surface *gmf_fb_read_surface(gmf_runner *r, const struct sm_context *c, uint32_t fbo,
                                uint32_t buf, bool depth, gm_surface *view, gmf_event *ev)
{
    return depth ? blit_depth(r, c, fbo, view, ev) : blit_color(r, c, fbo, buf, view, ev);
}

gm_surface *gmf_renderbuffer_surface(gmf_runner *r, const struct sm_context *c, uint32_t name,
                                     gmf_event *ev)
{
    return renderbuffer(r, c, name, ev);
}
