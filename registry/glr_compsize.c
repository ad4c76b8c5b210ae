/* Sizes of client memory for registry lengths given as COMPSIZE(...): the explicit rules the
 * registry leaves to implementations, shared by the recorder and the replayer (glr_sizes.h).
 * Everything not known returns GLR_SIZE_UNKNOWN: the recorder then stores no data for that
 * pointer and the capture lists the command as unsized (never a guess). Whether a pointer is an
 * offset into a bound buffer is decided before these rules run (the generated glr_param_size). */
#include <string.h>
#include "registry/glr_registry.h"
#include "registry/glr_sizes.h"
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
    int64_t ps = pixel_size(format, type);
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

static int64_t pixel_upload(const struct glr_size_env *e, const struct glr_cmd_info *ci, const uint64_t *a)
{
    int f = glr_cmd_param_index(ci, "format"), t = glr_cmd_param_index(ci, "type");
    int w = glr_cmd_param_index(ci, "width"), h = glr_cmd_param_index(ci, "height"), d = glr_cmd_param_index(ci, "depth");
    if (f < 0 || t < 0 || w < 0)
        return -1;
    int dims = d >= 0 ? 3 : h >= 0 ? 2 : 1;
    return unpack_size(e, (uint32_t)a[f], (uint32_t)a[t], (int32_t)a[w], h >= 0 ? (int32_t)a[h] : 1,
                       d >= 0 ? (int32_t)a[d] : 1, dims);
}

static bool is_pixel_upload(const char *n)
{
    return (strstr(n, "TexImage") || strstr(n, "TexSubImage") || strstr(n, "TextureImage") ||
            strstr(n, "TextureSubImage") || strcmp(n, "glDrawPixels") == 0) && !strstr(n, "Compressed") &&
           !strstr(n, "Copy") && !strstr(n, "Get") && !strstr(n, "Multisample");
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
static bool is_fixed_function_vector(const char *n)
{
    static const char *const stems[] = { "glLightModel", "glLight", "glMaterial", "glFog", "glTexEnv",
                                         "glMultiTexEnv", "glTexGen", "glMultiTexGen", "glPointParameter" };
    for (size_t i = 0; i < sizeof stems / sizeof *stems; i++) {
        size_t k = strlen(stems[i]);
        if (strncmp(n, stems[i], k) != 0)
            continue;
        const char *t = n + k;   /* f, i, x or d, then v, then an optional vendor suffix */
        if ((t[0] == 'f' || t[0] == 'i' || t[0] == 'x' || t[0] == 'd') && t[1] == 'v') {
            for (t += 2; *t; t++)
                if (*t < 'A' || *t > 'Z')
                    return false;
            return true;
        }
    }
    return false;
}

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

int64_t glr_compsize(const struct glr_size_env *e, int cmd, int param, const uint64_t *a)
{
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    const char *n = ci->name;
    const char *pn = ci->params[param].name;
    if ((!strncmp(n, "glClearTex", 10) || (!strncmp(n, "glClear", 7) && strstr(n, "Buffer") && strstr(n, "Data"))) &&
        !strcmp(pn, "data")) {
        /* glClearTex(Sub)Image, glClear(Named)Buffer(Sub)Data: one element of format/type. */
        int f = glr_cmd_param_index(ci, "format"), t = glr_cmd_param_index(ci, "type");
        return f < 0 || t < 0 ? -1 : pixel_size((uint32_t)a[f], (uint32_t)a[t]);
    }
    if (strstr(n, "Compressed") && strstr(n, "Image")) {
        /* compressed image data: imageSize bytes (the DSA forms carry no registry len) */
        int sz = glr_cmd_param_index(ci, "imageSize");
        return sz < 0 ? -1 : (int32_t)a[sz] > 0 ? (int32_t)a[sz] : 0;
    }
    if (is_pixel_upload(n) && (strcmp(pn, "pixels") == 0 || strcmp(pn, "data") == 0))
        return pixel_upload(e, ci, a);
    if (strcmp(pn, "indices") == 0 && strncmp(n, "glDraw", 6) == 0 && !strstr(n, "Multi")) {
        int c = glr_cmd_param_index(ci, "count"), t = glr_cmd_param_index(ci, "type");
        if (c < 0 || t < 0)
            return -1;
        int64_t ts = type_size((uint32_t)a[t]), count = (int32_t)a[c];
        return ts < 0 ? -1 : count > 0 ? count * ts : 0;
    }
    if (strcmp(pn, "indirect") == 0 && strncmp(n, "glDraw", 6) == 0)
        /* client-memory commands (compatibility profile): DrawArraysIndirectCommand 4 uints,
         * DrawElementsIndirectCommand 5 */
        return strstr(n, "Elements") ? 20 : 16;
    if ((strstr(n, "TexParameter") || strstr(n, "SamplerParameter") || strstr(n, "TextureParameter")) &&
        (strcmp(pn, "params") == 0 || strcmp(pn, "param") == 0) && !strstr(n, "Get")) {
        int p = glr_cmd_param_index(ci, "pname");
        uint32_t pname = p >= 0 ? (uint32_t)a[p] : 0;
        int64_t count = pname == GL_TEXTURE_BORDER_COLOR || pname == GL_TEXTURE_SWIZZLE_RGBA ? 4 : 1;
        return count * 4;
    }
    if (strncmp(n, "glClearBuffer", 13) == 0 || strncmp(n, "glClearNamedFramebuffer", 23) == 0) {
        /* GL_COLOR takes 4 values; GL_DEPTH and GL_STENCIL one (fv/iv/uiv: 4 bytes each). */
        int b = glr_cmd_param_index(ci, "buffer");
        if (b < 0 || strcmp(pn, "value") != 0)
            return -1;
        return ((uint32_t)a[b] == GL_COLOR ? 4 : 1) * 4;
    }
    if (!strcmp(n, "glCallLists") && !strcmp(pn, "lists")) {
        int64_t count = (int32_t)a[0], per;
        switch ((uint32_t)a[1]) {
        case GL_BYTE: case GL_UNSIGNED_BYTE: per = 1; break;
        case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_2_BYTES: per = 2; break;
        case GL_3_BYTES: per = 3; break;
        case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_4_BYTES: per = 4; break;
        default: return -1;
        }
        return count > 0 ? count * per : 0;
    }
    /* Arrays the registry gives no len for (direct state access and SPIR-V commands): counted by
     * the parameter named here, 4 bytes per element unless said. */
    static const struct { const char *cmd, *param, *count; int64_t elem; } counted[] = {
        { "glInvalidateNamedFramebufferData", "attachments", "numAttachments", 4 },
        { "glInvalidateNamedFramebufferSubData", "attachments", "numAttachments", 4 },
        { "glNamedFramebufferDrawBuffers", "bufs", "n", 4 },
        { "glVertexArrayVertexBuffers", "buffers", "count", 4 },
        { "glVertexArrayVertexBuffers", "offsets", "count", 8 },
        { "glVertexArrayVertexBuffers", "strides", "count", 4 },
        { "glSpecializeShader", "pConstantIndex", "numSpecializationConstants", 4 },
        { "glSpecializeShader", "pConstantValue", "numSpecializationConstants", 4 },
        { "glSpecializeShaderARB", "pConstantIndex", "numSpecializationConstants", 4 },
        { "glSpecializeShaderARB", "pConstantValue", "numSpecializationConstants", 4 },
    };
    for (size_t i = 0; i < sizeof counted / sizeof *counted; i++)
        if (!strcmp(n, counted[i].cmd) && !strcmp(pn, counted[i].param)) {
            int k = glr_cmd_param_index(ci, counted[i].count);
            int64_t count = k < 0 ? -1 : (int32_t)a[k];
            return k < 0 ? -1 : count > 0 ? count * counted[i].elem : 0;
        }
    if (!strcmp(n, "glNamedBufferData") || !strcmp(n, "glNamedBufferDataEXT") || !strcmp(n, "glNamedBufferSubData") ||
        !strcmp(n, "glNamedBufferSubDataEXT")) {
        int sz = glr_cmd_param_index(ci, "size");
        return sz < 0 ? -1 : sane((int64_t)a[sz]);
    }
    if (!strcmp(n, "glBitmap") || !strcmp(n, "glPolygonStipple")) {
        /* 1-bit pixels, rows padded to the unpack alignment. */
        int64_t w = !strcmp(n, "glBitmap") ? (int32_t)a[0] : 32, h = !strcmp(n, "glBitmap") ? (int32_t)a[1] : 32;
        int64_t row_len = get_int(GL_UNPACK_ROW_LENGTH), align = get_int(GL_UNPACK_ALIGNMENT);
        int64_t skip_rows = get_int(GL_UNPACK_SKIP_ROWS), skip_px = get_int(GL_UNPACK_SKIP_PIXELS);
        if (row_len < 0 || skip_rows < 0 || skip_px < 0)
            return -1;
        int64_t row_bytes = ((row_len > 0 ? row_len : w) + 7) / 8;
        if (align > 1 && row_bytes % align)
            row_bytes += align - row_bytes % align;
        return w <= 0 || h <= 0 ? 0 : (skip_rows + h - 1) * row_bytes + (skip_px + w + 7) / 8;
    }
    if (!strcmp(n, "glViewportArrayv") || !strcmp(n, "glScissorArrayv") || !strcmp(n, "glDepthRangeArrayv")) {
        int c = glr_cmd_param_index(ci, "count");
        int64_t per = !strcmp(n, "glDepthRangeArrayv") ? 2 * 8 : 4 * 4;
        return c < 0 ? -1 : (int64_t)(int32_t)a[c] * per;
    }
    if (!strcmp(n, "glPatchParameterfv"))
        return ((uint32_t)a[0] == GL_PATCH_DEFAULT_OUTER_LEVEL ? 4 : 2) * 4;
    if (!strncmp(n, "glMultiDraw", 11) && (strstr(n, "Count") || strstr(n, "Bindless")))
        return -1; /* the draw count is in a parameter buffer: no bound on what client memory it reads */
    if (!strncmp(n, "glMultiDraw", 11) && strstr(n, "Indirect") && !strcmp(pn, "indirect")) {
        int dc = glr_cmd_param_index(ci, "drawcount"), st = glr_cmd_param_index(ci, "stride");
        if (dc < 0 || st < 0)
            return -1;
        int64_t stride = (int32_t)a[st] ? (int32_t)a[st] : strstr(n, "Elements") ? 20 : 16;
        int64_t count = (int32_t)a[dc];
        return count > 0 ? (count - 1) * stride + (strstr(n, "Elements") ? 20 : 16) : 0;
    }
    if (!strncmp(n, "glMap1", 6) || !strncmp(n, "glMap2", 6)) {
        /* Control points: the last one starts (order-1)*stride values in and holds as many values
         * as the target has components. */
        int64_t esize = n[6] == 'd' ? 8 : 4, k = map_components((uint32_t)a[0]);
        if (k < 0)
            return -1;
        if (n[5] == '1')   /* glMap1(target, u1, u2, stride, order, points) */
            return ((int64_t)(int32_t)a[4] - 1) * (int32_t)a[3] * esize + k * esize;
        /* glMap2(target, u1, u2, ustride, uorder, v1, v2, vstride, vorder, points) */
        return (((int64_t)(int32_t)a[4] - 1) * (int32_t)a[3] + ((int64_t)(int32_t)a[8] - 1) * (int32_t)a[7] + k) *
               esize;
    }
    if (strcmp(pn, "params") == 0 && is_fixed_function_vector(n)) {
        int p = glr_cmd_param_index(ci, "pname");
        size_t len = strlen(n);
        while (len > 0 && n[len - 1] >= 'A' && n[len - 1] <= 'Z')
            len--;   /* a vendor suffix (EXT, OES, ...) */
        int64_t esize = len >= 2 && n[len - 2] == 'd' ? 8 : 4;   /* ...dv: doubles; fv, iv, xv: 4 bytes */
        return p < 0 ? -1 : fixed_function_count((uint32_t)a[p]) * esize;
    }
    return -1;
}
