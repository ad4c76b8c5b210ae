/* Pixel transfers between the model's images and buffer memory: the client layout GL's pixel
 * store state gives a rectangle (row length, skips, alignment, image height), texels packed
 * into client format/type (glReadPixels, glGetTexImage into a pack buffer) and client pixels
 * unpacked into texels (uploads from an unpack buffer, through gmf_unpack_to_surface). The
 * conversions are the ones llvmpipe (Mesa's format pack/unpack) makes; anything else is
 * refused with a reason, which the caller reports per call. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

static int components(uint32_t format)
{
    switch (format) {
    case GL_RED: case GL_GREEN: case GL_BLUE: case GL_ALPHA: case GL_RED_INTEGER:
    case GL_GREEN_INTEGER: case GL_BLUE_INTEGER: case GL_ALPHA_INTEGER:
    case GL_DEPTH_COMPONENT: case GL_STENCIL_INDEX:
        return 1;
    case GL_RG: case GL_RG_INTEGER: case GL_DEPTH_STENCIL: return 2;
    case GL_RGB: case GL_BGR: case GL_RGB_INTEGER: case GL_BGR_INTEGER: return 3;
    case GL_RGBA: case GL_BGRA: case GL_RGBA_INTEGER: case GL_BGRA_INTEGER: return 4;
    default: return 0;
    }
}

static size_t packed_size(uint32_t type)
{
    switch (type) {
    case GL_UNSIGNED_SHORT_5_6_5: case GL_UNSIGNED_SHORT_4_4_4_4: case GL_UNSIGNED_SHORT_5_5_5_1:
        return 2;
    case GL_UNSIGNED_INT_8_8_8_8: case GL_UNSIGNED_INT_8_8_8_8_REV:
    case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_24_8:
    case GL_UNSIGNED_INT_10F_11F_11F_REV:
        return 4;
    case GL_FLOAT_32_UNSIGNED_INT_24_8_REV: return 8;
    default: return 0;
    }
}

static size_t type_size(uint32_t type)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: case GL_BYTE: return 1;
    case GL_UNSIGNED_SHORT: case GL_SHORT: case GL_HALF_FLOAT: return 2;
    case GL_UNSIGNED_INT: case GL_INT: case GL_FLOAT: return 4;
    default: return 0;
    }
}

const char *gmf_pixel_layout_get(uint32_t format, uint32_t type, const struct sm_pixel_store *ps,
                                 int w, int h, int d, gmf_pixel_layout *out)
{
    int n = components(format);
    size_t ps_sz = packed_size(type), ts = type_size(type);
    if (!n)
        return "pixel format not modelled";
    if (!ps_sz && !ts)
        return "pixel type not modelled";
    /* GL_*_LSB_FIRST only concerns GL_BITMAP data (refused above as a type) */
    if (w < 0 || h < 0 || d < 0)
        return "negative size";
    memset(out, 0, sizeof *out);
    out->format = format;
    out->type = type;
    out->pixel = ps_sz ? ps_sz : ts * (size_t)n;
    size_t s = ps_sz ? ps_sz : ts;   /* element size for the alignment rule */
    /* byte swapping reverses each element: a component, or a whole packed pixel (Mesa's
     * _mesa_swap2/_mesa_swap4 over the row; the 64-bit depth/stencil pair as two words) */
    out->swap = ps->swap_bytes && s > 1 ? (s > 4 ? 4 : s) : 0;
    size_t a = ps->alignment > 0 ? (size_t)ps->alignment : 4;
    size_t l = ps->row_length > 0 ? (size_t)ps->row_length : (size_t)w;
    size_t bytes = out->pixel * l;
    out->row = s >= a ? bytes : (bytes + a - 1) / a * a;
    size_t rows = ps->image_height > 0 ? (size_t)ps->image_height : (size_t)h;
    out->image = out->row * rows;
    out->skip = (size_t)(ps->skip_images > 0 ? ps->skip_images : 0) * out->image +
                (size_t)(ps->skip_rows > 0 ? ps->skip_rows : 0) * out->row +
                (size_t)(ps->skip_pixels > 0 ? ps->skip_pixels : 0) * out->pixel;
    out->extent = w && h && d ? (size_t)(d - 1) * out->image + (size_t)(h - 1) * out->row +
                                    (size_t)w * out->pixel
                              : 0;
    return NULL;
}

/* ---- packing (model texel -> client pixel) ---- */

static uint32_t unorm_bits(float f, int bits)
{
    /* float_to_unorm with round to nearest (Mesa's _mesa_float_to_unorm) */
    uint32_t max = (1u << bits) - 1u;
    if (!(f > 0.0f))
        return 0;
    if (f >= 1.0f)
        return max;
    return (uint32_t)lrintf(f * (float)max);
}

static int32_t snorm_bits(float f, int bits)
{
    int32_t max = (1 << (bits - 1)) - 1;
    if (f != f)
        return 0;
    if (f >= 1.0f)
        return max;
    if (f <= -1.0f)
        return -max;
    return (int32_t)lrintf(f * (float)max);
}

static uint32_t float_to_f11_f10(float f, int mant)
{
    /* unsigned small floats: 5-bit exponent, `mant` mantissa bits (round to nearest even
     * via the half conversion, whose exponent range is the same) */
    if (!(f > 0.0f))
        return 0;
    uint16_t h = gm_float_to_half(f);
    uint32_t e = (h >> 10) & 31, m = h & 1023;
    if (e == 31)
        return (31u << mant) | (m ? 1u : 0u);
    uint32_t shift = 10u - (uint32_t)mant;
    uint32_t v = ((e << 10) | m);
    v = (v + (1u << (shift - 1)) - 1u + ((v >> shift) & 1u)) >> shift;
    return v;
}

/* Channel c (0..3: r g b a) of the client format's component k, or -1. */
static int channel_of(uint32_t format, int k)
{
    switch (format) {
    case GL_RED: case GL_RED_INTEGER: return 0;
    case GL_GREEN: case GL_GREEN_INTEGER: return 1;
    case GL_BLUE: case GL_BLUE_INTEGER: return 2;
    case GL_ALPHA: case GL_ALPHA_INTEGER: return 3;
    case GL_BGR: case GL_BGRA: case GL_BGR_INTEGER: case GL_BGRA_INTEGER:
        return k == 0 ? 2 : k == 2 ? 0 : k;
    default: return k;
    }
}

static void put_int(uint8_t *o, uint32_t type, int64_t v)
{
    int64_t lo, hi;
    switch (type) {
    case GL_UNSIGNED_BYTE: lo = 0; hi = 255; break;
    case GL_BYTE: lo = -128; hi = 127; break;
    case GL_UNSIGNED_SHORT: lo = 0; hi = 65535; break;
    case GL_SHORT: lo = -32768; hi = 32767; break;
    case GL_UNSIGNED_INT: lo = 0; hi = 4294967295ll; break;
    default: lo = -2147483648ll; hi = 2147483647ll; break;
    }
    v = v < lo ? lo : v > hi ? hi : v;
    size_t n = type_size(type);
    if (n == 1) { uint8_t b = (uint8_t)v; memcpy(o, &b, 1); }
    else if (n == 2) { uint16_t b = (uint16_t)v; memcpy(o, &b, 2); }
    else { uint32_t b = (uint32_t)v; memcpy(o, &b, 4); }
}

static void put_float(uint8_t *o, uint32_t type, float f)
{
    switch (type) {
    case GL_UNSIGNED_BYTE: o[0] = (uint8_t)unorm_bits(f, 8); break;
    case GL_BYTE: o[0] = (uint8_t)(int8_t)snorm_bits(f, 8); break;
    case GL_UNSIGNED_SHORT: { uint16_t v = (uint16_t)unorm_bits(f, 16); memcpy(o, &v, 2); break; }
    case GL_SHORT: { int16_t v = (int16_t)snorm_bits(f, 16); memcpy(o, &v, 2); break; }
    case GL_UNSIGNED_INT: {
        uint32_t v = !(f > 0.0f) ? 0 : f >= 1.0f ? 0xffffffffu : (uint32_t)((double)f * 4294967295.0);
        memcpy(o, &v, 4);
        break;
    }
    case GL_INT: {
        int32_t v = f >= 1.0f ? 0x7fffffff : f <= -1.0f ? -0x7fffffff : (int32_t)((double)f * 2147483647.0);
        memcpy(o, &v, 4);
        break;
    }
    case GL_HALF_FLOAT: { uint16_t v = gm_float_to_half(f); memcpy(o, &v, 2); break; }
    default: memcpy(o, &f, 4); break;
    }
}

static const char *pack_color(gm_format sf, const uint8_t *texel, const gmf_pixel_layout *L,
                              uint8_t *o)
{
    const gm_format_info *fi = gm_format_get(sf);
    bool src_int = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    bool dst_int = gmf_integer_format(L->format);
    if (src_int != dst_int)
        return src_int ? "integer image read as a non-integer format"
                       : "non-integer image read as an integer format";
    int n = components(L->format);
    if (dst_int) {
        uint32_t v[4];
        gm_format_unpack_rgba_i(sf, texel, v);
        if (packed_size(L->type))
            return "packed type with an integer format not modelled";
        for (int k = 0; k < n; k++) {
            int ch = channel_of(L->format, k);
            int64_t x = fi->kind == GM_KIND_SINT ? (int64_t)(int32_t)v[ch] : (int64_t)v[ch];
            put_int(o + (size_t)k * type_size(L->type), L->type, x);
        }
        return NULL;
    }
    float f[4] = { 0, 0, 0, 1 };
    gm_format_unpack_rgba(sf, texel, f);
    /* GL_CLAMP_READ_COLOR is GL_FIXED_ONLY by default: only normalized buffers' values are
     * already in range, float buffers read unclamped into float types. */
    switch (L->type) {
    case GL_UNSIGNED_INT_8_8_8_8: case GL_UNSIGNED_INT_8_8_8_8_REV: {
        uint32_t w = 0;
        for (int k = 0; k < 4; k++) {
            uint32_t c = unorm_bits(f[channel_of(L->format, k)], 8);
            w |= L->type == GL_UNSIGNED_INT_8_8_8_8_REV ? c << (8 * k) : c << (24 - 8 * k);
        }
        if (n != 4)
            return "packed 8_8_8_8 type needs a 4-component format";
        memcpy(o, &w, 4);
        return NULL;
    }
    case GL_UNSIGNED_INT_2_10_10_10_REV: {
        if (n != 4)
            return "packed 2_10_10_10 type needs a 4-component format";
        uint32_t w = 0;
        for (int k = 0; k < 3; k++)
            w |= unorm_bits(f[channel_of(L->format, k)], 10) << (10 * k);
        w |= unorm_bits(f[3], 2) << 30;
        memcpy(o, &w, 4);
        return NULL;
    }
    case GL_UNSIGNED_SHORT_5_6_5: {
        if (n != 3)
            return "packed 5_6_5 type needs a 3-component format";
        uint16_t w = (uint16_t)((unorm_bits(f[channel_of(L->format, 0)], 5) << 11) |
                                (unorm_bits(f[1], 6) << 5) |
                                unorm_bits(f[channel_of(L->format, 2)], 5));
        memcpy(o, &w, 2);
        return NULL;
    }
    case GL_UNSIGNED_SHORT_4_4_4_4: case GL_UNSIGNED_SHORT_5_5_5_1: {
        if (n != 4)
            return "packed 16-bit type needs a 4-component format";
        bool q = L->type == GL_UNSIGNED_SHORT_4_4_4_4;
        uint16_t w;
        if (q)
            w = (uint16_t)((unorm_bits(f[channel_of(L->format, 0)], 4) << 12) |
                           (unorm_bits(f[1], 4) << 8) |
                           (unorm_bits(f[channel_of(L->format, 2)], 4) << 4) | unorm_bits(f[3], 4));
        else
            w = (uint16_t)((unorm_bits(f[channel_of(L->format, 0)], 5) << 11) |
                           (unorm_bits(f[1], 5) << 6) |
                           (unorm_bits(f[channel_of(L->format, 2)], 5) << 1) | unorm_bits(f[3], 1));
        memcpy(o, &w, 2);
        return NULL;
    }
    case GL_UNSIGNED_INT_10F_11F_11F_REV: {
        if (L->format != GL_RGB)
            return "packed 10F_11F_11F type needs GL_RGB";
        uint32_t w = float_to_f11_f10(f[0], 6) | (float_to_f11_f10(f[1], 6) << 11) |
                     (float_to_f11_f10(f[2], 5) << 22);
        memcpy(o, &w, 4);
        return NULL;
    }
    default:
        break;
    }
    if (packed_size(L->type))
        return "packed type not modelled for colour";
    for (int k = 0; k < n; k++)
        put_float(o + (size_t)k * type_size(L->type), L->type, f[channel_of(L->format, k)]);
    return NULL;
}

/* Depth as Mesa's read path gives it: 24-bit depth widened to 32 bits by replicating its top
 * bits, float depth scaled in double precision. */
static uint32_t depth_uint(gm_format sf, const uint8_t *texel)
{
    uint32_t w = 0;
    switch (sf) {
    case GM_FMT_D16: { uint16_t z; memcpy(&z, texel, 2); return ((uint32_t)z << 16) | z; }
    case GM_FMT_D24X8: case GM_FMT_D24S8:
        memcpy(&w, texel, 4);
        w &= 0xffffffu;
        return (w << 8) | (w >> 16);
    default: {
        float z = gm_format_unpack_depth(sf, texel);
        z = z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z;
        return (uint32_t)((double)z * 4294967295.0);
    }
    }
}

static float depth_float(gm_format sf, const uint8_t *texel)
{
    if (sf == GM_FMT_D24X8 || sf == GM_FMT_D24S8) {
        uint32_t w;
        memcpy(&w, texel, 4);
        return (float)((double)(w & 0xffffffu) * (1.0 / (double)0xffffff));
    }
    if (sf == GM_FMT_D16) {
        uint16_t z;
        memcpy(&z, texel, 2);
        return (float)((double)z * (1.0 / 65535.0));
    }
    return gm_format_unpack_depth(sf, texel);
}

const char *gmf_pack_pixel(gm_format sf, const uint8_t *texel, const gmf_pixel_layout *L,
                           uint8_t *o)
{
    const gm_format_info *fi = gm_format_get(sf);
    if (fi->block)
        return "compressed image";
    bool has_depth = fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_DEPTH_STENCIL;
    bool has_stencil = fi->kind == GM_KIND_STENCIL || fi->kind == GM_KIND_DEPTH_STENCIL;
    switch (L->format) {
    case GL_DEPTH_COMPONENT:
        if (!has_depth)
            return "depth read from an image without depth";
        if (L->type == GL_FLOAT) {
            float z = depth_float(sf, texel);
            memcpy(o, &z, 4);
        } else if (L->type == GL_UNSIGNED_INT) {
            uint32_t z = depth_uint(sf, texel);
            memcpy(o, &z, 4);
        } else {
            return "depth type not modelled (GL_FLOAT and GL_UNSIGNED_INT are)";
        }
        return NULL;
    case GL_STENCIL_INDEX:
        if (!has_stencil)
            return "stencil read from an image without stencil";
        if (packed_size(L->type) || L->type == GL_FLOAT || L->type == GL_HALF_FLOAT)
            return "stencil type not modelled";
        put_int(o, L->type, gm_format_unpack_stencil(sf, texel));
        return NULL;
    case GL_DEPTH_STENCIL:
        if (!has_depth || !has_stencil)
            return "depth/stencil read from an image without both";
        if (L->type == GL_UNSIGNED_INT_24_8) {
            uint32_t w = (depth_uint(sf, texel) & 0xffffff00u) | gm_format_unpack_stencil(sf, texel);
            memcpy(o, &w, 4);
        } else if (L->type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV) {
            float z = depth_float(sf, texel);
            uint32_t s = gm_format_unpack_stencil(sf, texel);
            memcpy(o, &z, 4);
            memcpy(o + 4, &s, 4);
        } else {
            return "depth/stencil type not modelled";
        }
        return NULL;
    default:
        if (has_depth || has_stencil)
            return "colour read from a depth/stencil image";
        return pack_color(sf, texel, L, o);
    }
}

bool gmf_pbo_out_of_range(const gmf_pixel_layout *L, uint64_t offset, uint64_t buffer_size)
{
    return offset > buffer_size || (uint64_t)L->skip + (uint64_t)L->extent > buffer_size - offset;
}

static void swap_elements(uint8_t *p, size_t n, size_t elem)
{
    for (size_t i = 0; i + elem <= n; i += elem)
        for (size_t a = 0, b = elem - 1; a < b; a++, b--) {
            uint8_t t = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = t;
        }
}

const char *gmf_pack_rect(const gm_surface *s, int x, int y, int z, int w, int h, int d,
                          const gmf_pixel_layout *L, uint8_t *dst, size_t dst_size)
{
    if ((size_t)L->skip + L->extent > dst_size)
        return "pixels past the end of the pack buffer";
    for (int k = 0; k < d; k++)
        for (int j = 0; j < h; j++) {
            uint8_t *row = dst + L->skip + (size_t)k * L->image + (size_t)j * L->row;
            int sy = y + j, sz = z + k;
            if (sy < 0 || sy >= s->height || sz < 0 || sz >= s->depth)
                continue;   /* outside the image: left as it was (undefined in GL) */
            for (int i = 0; i < w; i++) {
                int sx = x + i;
                if (sx < 0 || sx >= s->width)
                    continue;
                const char *why = gmf_pack_pixel(s->format, gm_surface_texel(s, sx, sy, sz), L,
                                                 row + (size_t)i * L->pixel);
                if (why)
                    return why;
                if (L->swap)
                    swap_elements(row + (size_t)i * L->pixel, L->pixel, L->swap);
            }
        }
    return NULL;
}

const char *gmf_unpack_rect(const uint8_t *src, size_t src_size, const gmf_pixel_layout *L,
                            gm_surface *s, int x, int y, int z, int w, int h, int d)
{
    if ((size_t)L->skip + L->extent > src_size)
        return "pixels past the end of the source data";
    if (gm_format_get(s->format)->block)
        return "compressed upload from a buffer not modelled";
    if (x < 0 || y < 0 || z < 0 || x + w > s->width || y + h > s->height || z + d > s->depth)
        return "region outside the image";
    size_t row_bytes = (size_t)w * L->pixel;
    uint8_t *swapped = L->swap && row_bytes ? malloc(row_bytes) : NULL;
    if (L->swap && row_bytes && !swapped)
        return "out of memory (byte-swapped row)";
    for (int k = 0; k < d; k++)
        for (int j = 0; j < h; j++) {
            const uint8_t *row = src + L->skip + (size_t)k * L->image + (size_t)j * L->row;
            if (swapped) {   /* the row in host order first */
                memcpy(swapped, row, row_bytes);
                swap_elements(swapped, row_bytes, L->swap);
                row = swapped;
            }
            /* one row as a tight 1-row image into a view that starts at (x, y + j, z + k) */
            gm_surface view = *s;
            view.data = gm_surface_texel(s, x, y + j, z + k);
            view.width = w;
            view.height = 1;
            view.depth = 1;
            if (gmf_unpack_to_surface(row, (uint64_t)L->pixel * (uint64_t)w, L->format, L->type, 1,
                                      w, 1, 1, &view, 0) != 0) {
                free(swapped);
                return "upload format/type not understood";
            }
        }
    free(swapped);
    return NULL;
}
