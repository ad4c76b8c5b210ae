/* Sizes of client memory for registry lengths given as COMPSIZE(...): the explicit rules the
 * registry leaves to implementations, shared by the recorder and the replayer (glr_sizes.h).
 * Which command and parameter each rule sizes is written in gl_annotations.txt; the generated
 * glr_param_size calls the rule with the parameters' indices, resolved at build time. A rule
 * answers -1 when it cannot size (the caller reports GLR_SIZE_UNKNOWN: the recorder then stores
 * no data for that pointer and lists the command as unsized, never a guess). Whether a pointer is
 * an offset into a bound buffer is decided before these rules run. */
#include "registry/glr_size_rules.h"
#include "glr_gl_enums.h"   /* generated from gl.xml (gen_enums.py) */

static int64_t type_size(uint32_t type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return 2;
    case GL_HALF_FLOAT_OES: return 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4;
    case GL_DOUBLE: return 8;
    default: return -1;
    }
}

static int64_t format_components(uint32_t format)
{
    switch (format) {
    case GL_RED: case GL_GREEN: case GL_BLUE: case GL_ALPHA: case GL_LUMINANCE:
    case GL_DEPTH_COMPONENT: case GL_STENCIL_INDEX: case GL_RED_INTEGER: case GL_GREEN_INTEGER:
    case GL_BLUE_INTEGER: case GL_ALPHA_INTEGER:
    case GL_COLOR_INDEX:
        return 1;
    case GL_LUMINANCE_ALPHA: case GL_RG: case GL_RG_INTEGER: case GL_DEPTH_STENCIL:
        return 2;
    case GL_RGB: case GL_BGR: case GL_RGB_INTEGER: case GL_BGR_INTEGER:
        return 3;
    case GL_RGBA: case GL_BGRA: case GL_RGBA_INTEGER: case GL_BGRA_INTEGER:
        return 4;
    default:
        return -1;
    }
}

/* Bytes per pixel of a format/type pair (packed types hold the whole pixel). */
static int64_t pixel_size(uint32_t format, uint32_t type)
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
    default: break;
    }
    int64_t c = format_components(format), t = type_size(type);
    return c < 0 || t < 0 ? -1 : c * t;
}

#define get_int(pname) ((int64_t)e->get_int(e->user, (pname)))

/* Sizes past this are refused (GLR_SIZE_UNKNOWN): no command reads 2^48 bytes, and products of
 * three 32-bit sides stay far from int64 overflow below it. */
#define SIZE_MAX_SANE ((int64_t)1 << 48)

static int64_t sane(int64_t v)
{
    return v < 0 || v > SIZE_MAX_SANE ? GLR_SIZE_UNKNOWN : v;
}

/* The pixel-store parameters of one direction: alignment, row length, skip rows, skip pixels,
 * image height, skip images. */
static const uint32_t unpack_pnames[6] = { GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                           GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES };
static const uint32_t pack_pnames[6] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS,
                                         GL_PACK_SKIP_PIXELS, GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES };

static int64_t store_size(const struct glr_size_env *e, const uint32_t *pn, uint32_t format, uint32_t type,
                          int64_t w, int64_t h, int64_t d, int dims);

/* Pixel data read by an upload of width x height x depth pixels under the current unpack state. */
static int64_t unpack_size(const struct glr_size_env *e, uint32_t format, uint32_t type, int64_t w, int64_t h,
                           int64_t d, int dims)
{
    return store_size(e, unpack_pnames, format, type, w, h, d, dims);
}

int64_t glr_pack_size(const struct glr_size_env *e, uint32_t format, uint32_t type, int64_t w, int64_t h, int64_t d,
                      int dims)
{
    return store_size(e, pack_pnames, format, type, w, h, d, dims);
}

static int64_t store_size(const struct glr_size_env *e, const uint32_t *pn, uint32_t format, uint32_t type,
                          int64_t w, int64_t h, int64_t d, int dims)
{
    if (w <= 0 || h <= 0 || d <= 0)
        return 0;
    /* ES 2 has only the alignment: its getter answers 0 for the others. */
    int64_t ps = type == GL_BITMAP && dims == 2 && (format == GL_COLOR_INDEX || format == GL_STENCIL_INDEX)
                     ? 1   /* bits: sized below */
                     : pixel_size(format, type);
    if (ps < 0)
        return -1;
    int64_t align = get_int(pn[0]);
    int64_t row_len = get_int(pn[1]);
    int64_t skip_rows = get_int(pn[2]);
    int64_t skip_pix = get_int(pn[3]);
    int64_t img_h = dims == 3 ? get_int(pn[4]) : 0;
    int64_t skip_img = dims == 3 ? get_int(pn[5]) : 0;
    if (row_len < 0 || skip_rows < 0 || skip_pix < 0 || img_h < 0 || skip_img < 0 || align < 0)
        return GLR_SIZE_UNKNOWN; /* GL refuses these: nothing sane to copy */
    if (type == GL_BITMAP && dims == 2) {
        /* GL_COLOR_INDEX / GL_STENCIL_INDEX images of 1-bit pixels (glDrawPixels): rows of bits
         * padded to the alignment in bytes, skips in bits (GL 2.1 section 3.6.4) */
        int64_t bits_row = ((row_len > 0 ? row_len : w) + 7) / 8;
        if (align > 1 && bits_row % align)
            bits_row += align - bits_row % align;
        return sane((skip_rows + h - 1) * bits_row + (skip_pix + w + 7) / 8);
    }
    int64_t row_px = row_len > 0 ? row_len : w;
    int64_t row_bytes = row_px * ps;
    if (align > 1 && row_bytes % align)
        row_bytes += align - row_bytes % align;
    int64_t rows_per_img = img_h > 0 ? img_h : h;
    __int128 img_bytes = (__int128)rows_per_img * row_bytes;
    __int128 total = (__int128)(skip_img + d - 1) * img_bytes + (__int128)(skip_rows + h - 1) * row_bytes +
                     (__int128)(skip_pix + w) * ps;
    return total > SIZE_MAX_SANE ? GLR_SIZE_UNKNOWN : (int64_t)total;
}

/* Components of an evaluator map target (GL_MAP1_* / GL_MAP2_*, same order in both ranges). */
static int64_t map_components(uint32_t target)
{
    switch (target & 0xF) {   /* COLOR_4, INDEX, NORMAL, TEXTURE_COORD_1..4, VERTEX_3, VERTEX_4 */
    case 0x0: return 4;
    case 0x1: return 1;
    case 0x2: return 3;
    case 0x3: return 1;
    case 0x4: return 2;
    case 0x5: return 3;
    case 0x6: return 4;
    case 0x7: return 3;
    case 0x8: return 4;
    default: return -1;
    }
}

/* Fixed-function vector setters whose value count depends on pname: glLightfv, glMaterialfv,
 * glLightModelfv, glFogfv, glTexEnvfv, glTexGenfv, glPointParameterfv and their i/x/d forms. */
/* How many values a fixed-function vector setter reads for pname (GL 2.1 tables 2.11, 3.22,
 * 6.x); 1 for the scalar parameters. */
static int64_t fixed_function_count(uint32_t pname)
{
    switch (pname) {
    case GL_AMBIENT: case GL_DIFFUSE: case GL_SPECULAR: case GL_POSITION:
    case GL_EMISSION: case GL_AMBIENT_AND_DIFFUSE:
    case GL_LIGHT_MODEL_AMBIENT: case GL_FOG_COLOR: case GL_TEXTURE_ENV_COLOR:
    case GL_OBJECT_PLANE: case GL_EYE_PLANE:
        return 4;
    case GL_SPOT_DIRECTION: case GL_COLOR_INDEXES: case GL_POINT_DISTANCE_ATTENUATION:
        return 3;
    default:
        return 1;
    }
}

int64_t glr_cs_element(const uint64_t *a, int format, int type)
{
    return pixel_size((uint32_t)a[format], (uint32_t)a[type]);
}

int64_t glr_cs_image_size(const uint64_t *a, int image_size)
{
    return (int32_t)a[image_size] > 0 ? (int32_t)a[image_size] : 0;
}

int64_t glr_cs_unpack(const struct glr_size_env *e, const uint64_t *a, int format, int type, int width, int height,
                      int depth)
{
    int dims = depth >= 0 ? 3 : height >= 0 ? 2 : 1;
    return unpack_size(e, (uint32_t)a[format], (uint32_t)a[type], (int32_t)a[width],
                       height >= 0 ? (int32_t)a[height] : 1, depth >= 0 ? (int32_t)a[depth] : 1, dims);
}

int64_t glr_cs_indices(const uint64_t *a, int count, int type)
{
    int64_t ts = type_size((uint32_t)a[type]), n = (int32_t)a[count];
    return ts < 0 ? -1 : n > 0 ? n * ts : 0;
}

int64_t glr_cs_tex_parameter(const uint64_t *a, int pname)
{
    uint32_t p = (uint32_t)a[pname];
    return (p == GL_TEXTURE_BORDER_COLOR || p == GL_TEXTURE_SWIZZLE_RGBA ? 4 : 1) * 4;
}

int64_t glr_cs_clear_buffer(const uint64_t *a, int buffer)
{
    /* GL_COLOR takes 4 values; GL_DEPTH and GL_STENCIL one (fv/iv/uiv: 4 bytes each). */
    return ((uint32_t)a[buffer] == GL_COLOR ? 4 : 1) * 4;
}

int64_t glr_cs_call_lists(const uint64_t *a, int n, int type)
{
    int64_t count = (int32_t)a[n], per;
    switch ((uint32_t)a[type]) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: per = 1; break;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_2_BYTES: per = 2; break;
    case GL_3_BYTES: per = 3; break;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_4_BYTES: per = 4; break;
    default: return -1;
    }
    return count > 0 ? count * per : 0;
}

int64_t glr_cs_counted(const uint64_t *a, int count, int64_t elem)
{
    int64_t n = (int32_t)a[count];
    return n > 0 ? n * elem : 0;
}

int64_t glr_cs_size(const uint64_t *a, int size)
{
    return sane((int64_t)a[size]);
}

int64_t glr_cs_bitmap(const struct glr_size_env *e, const uint64_t *a, int width, int height)
{
    /* 1-bit pixels, rows padded to the unpack alignment; glPolygonStipple (no width): 32 x 32. */
    int64_t w = width >= 0 ? (int32_t)a[width] : 32, h = height >= 0 ? (int32_t)a[height] : 32;
    int64_t row_len = get_int(GL_UNPACK_ROW_LENGTH), align = get_int(GL_UNPACK_ALIGNMENT);
    int64_t skip_rows = get_int(GL_UNPACK_SKIP_ROWS), skip_px = get_int(GL_UNPACK_SKIP_PIXELS);
    if (row_len < 0 || skip_rows < 0 || skip_px < 0)
        return -1;
    int64_t row_bytes = ((row_len > 0 ? row_len : w) + 7) / 8;
    if (align > 1 && row_bytes % align)
        row_bytes += align - row_bytes % align;
    return w <= 0 || h <= 0 ? 0 : (skip_rows + h - 1) * row_bytes + (skip_px + w + 7) / 8;
}

int64_t glr_cs_array(const uint64_t *a, int count, int64_t elem)
{
    return (int64_t)(int32_t)a[count] * elem;
}

int64_t glr_cs_patch_parameter(const uint64_t *a, int pname)
{
    return ((uint32_t)a[pname] == GL_PATCH_DEFAULT_OUTER_LEVEL ? 4 : 2) * 4;
}

int64_t glr_cs_multi_indirect(const uint64_t *a, int drawcount, int stride, int64_t elem)
{
    int64_t step = (int32_t)a[stride] ? (int32_t)a[stride] : elem;
    int64_t count = (int32_t)a[drawcount];
    return count > 0 ? (count - 1) * step + elem : 0;
}

/* Control points: the last one starts (order-1)*stride values in and holds as many values as the
 * target has components. */
int64_t glr_cs_map1(const uint64_t *a, int target, int stride, int order, int64_t elem)
{
    int64_t k = map_components((uint32_t)a[target]);
    if (k < 0)
        return -1;
    return ((int64_t)(int32_t)a[order] - 1) * (int32_t)a[stride] * elem + k * elem;
}

int64_t glr_cs_map2(const uint64_t *a, int target, int ustride, int uorder, int vstride, int vorder, int64_t elem)
{
    int64_t k = map_components((uint32_t)a[target]);
    if (k < 0)
        return -1;
    return (((int64_t)(int32_t)a[uorder] - 1) * (int32_t)a[ustride] +
            ((int64_t)(int32_t)a[vorder] - 1) * (int32_t)a[vstride] + k) * elem;
}

int64_t glr_cs_ff_vector(const uint64_t *a, int pname, int64_t elem)
{
    return fixed_function_count((uint32_t)a[pname]) * elem;
}
