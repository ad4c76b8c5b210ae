/* Texture images (levels, faces, formats, sizes, uploaded contents), texture and sampler
 * parameters, texture buffers, renderbuffer storage. */
#include <stdlib.h>
#include <stdio.h>
#include <math.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_pixel_index.h"

/* A proxy target: GL only checks the call, no texture changes. Every proxy value of gl.xml
 * (the colour-table and histogram ones too, which a texture call refuses all the same). */
static bool is_proxy(uint32_t target)
{
    switch (target) {
    case GL_PROXY_TEXTURE_1D: case GL_PROXY_TEXTURE_2D: case GL_PROXY_TEXTURE_3D:
    case GL_PROXY_TEXTURE_4D_SGIS: case GL_PROXY_TEXTURE_RECTANGLE: case GL_PROXY_TEXTURE_CUBE_MAP:
    case GL_PROXY_TEXTURE_1D_ARRAY: case GL_PROXY_TEXTURE_2D_ARRAY: case GL_PROXY_TEXTURE_CUBE_MAP_ARRAY:
    case GL_PROXY_TEXTURE_2D_MULTISAMPLE: case GL_PROXY_TEXTURE_2D_MULTISAMPLE_ARRAY:
    case GL_PROXY_TEXTURE_1D_STACK_MESAX: case GL_PROXY_TEXTURE_2D_STACK_MESAX:
    case GL_PROXY_TEXTURE_COLOR_TABLE_SGI: case GL_PROXY_COLOR_TABLE: case GL_PROXY_HISTOGRAM:
    case GL_PROXY_POST_CONVOLUTION_COLOR_TABLE: case GL_PROXY_POST_COLOR_MATRIX_COLOR_TABLE:
    case GL_PROXY_POST_IMAGE_TRANSFORM_COLOR_TABLE_HP:
        return true;
    default:
        return false;
    }
}

/* The registry's description of the command being applied. */
static const struct glr_cmd_info *cmd_info(const struct sm_ap *a)
{
    return &glr_cmds[a->cmd];
}

/* Whether the command's first argument names an object of that class (the DSA forms:
 * glTextureStorage2D(texture, ...), glNamedRenderbufferStorage(renderbuffer, ...)) rather than a
 * binding target; the registry's class attribute says so. */
static bool names_first(const struct sm_ap *a, enum glr_obj_class cls)
{
    const struct glr_cmd_info *ci = cmd_info(a);
    return ci->nparams > 0 && glr_cmd_params(ci)[0].obj_class == cls;
}

/* Whether the command has a parameter of that role (height: 2D or more; depth: 3D). */
static bool has_role(const struct sm_ap *a, enum glr_role role)
{
    return glr_cmd_param_role(cmd_info(a), role) >= 0;
}

/* The texture a command names: by target on the active unit, or by name (DSA forms). */
static struct sm_texture *tex_of(struct sm_ap *a, bool named, uint32_t arg)
{
    if (named) {
        struct sm_texture *t = ap_texture(a, arg, false);
        if (!t)
            ap_error(a, "no such texture");
        return t;
    }
    return ap_bound_texture(a, arg);
}

static bool array_target(uint32_t t)
{
    return t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY || t == GL_TEXTURE_CUBE_MAP_ARRAY ||
           t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

static void clear_image(struct sm_tex_image *im)
{
    free(im->data);
    memset(im, 0, sizeof *im);
}

/* The unpack state allows keeping the client bytes as they are (tightly described by
 * format/type/alignment), with no unpack buffer in between. */
static bool simple_unpack(const struct sm_ap *a)
{
    const struct sm_pixel_store *u = &a->c->st.unpack;
    return !u->swap_bytes && !u->lsb_first && u->row_length == 0 && u->image_height == 0 &&
           u->skip_rows == 0 && u->skip_pixels == 0 && u->skip_images == 0 &&
           a->c->st.buffer[SM_BT_PIXEL_UNPACK] == 0;
}

/* A GL_COLOR_INDEX image of a 2D (or 1D) upload converted by the pixel maps current at the
 * call, as Mesa's texstore does: kept as GL_RGBA / GL_UNSIGNED_BYTE, the texels of the RGBA8
 * image it makes (piglit gl-1.1-read-pixels-after-display-list uploads GL_BITMAP indices). */
static void set_index_image(struct sm_ap *a, struct sm_tex_image *im, const struct glr_blob *b,
                            uint32_t type)
{
    int w = im->width, h = im->height > 0 ? im->height : 1;
    if (im->depth > 1 || w <= 0 || (uint64_t)w * (uint64_t)h > ((uint64_t)1 << 26))
        return;   /* 3D indices or a huge image: contents unknown */
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    if (!px) {
        ap_error(a, "out of memory for texture contents");
        return;
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            float c[4];
            if (!sm_color_index_rgba(&a->c->st.ff, &a->c->st.unpack, type, b->data, b->size, w, x, y, c)) {
                free(px);
                return;
            }
            for (int k = 0; k < 4; k++) {
                float v = c[k] > 0.0f ? (c[k] < 1.0f ? c[k] : 1.0f) : 0.0f;
                px[((size_t)y * (size_t)w + (size_t)x) * 4 + (size_t)k] = (uint8_t)lrintf(v * 255.0f);
            }
        }
    im->data = px;
    im->data_size = (uint64_t)w * (uint64_t)h * 4;
    im->data_format = GL_RGBA;
    im->data_type = GL_UNSIGNED_BYTE;
    im->data_alignment = 4;
}

static void set_image_data(struct sm_ap *a, struct sm_tex_image *im, int pixels_arg,
                           uint32_t format, uint32_t type, bool compressed)
{
    const struct glr_blob *b = &a->call->blobs[pixels_arg];
    if (format == GL_COLOR_INDEX && !compressed) {
        if (b->data && b->size && !a->c->st.buffer[SM_BT_PIXEL_UNPACK])
            set_index_image(a, im, b, type);
        return;
    }
    if (!b->data || !b->size || (!compressed && !simple_unpack(a)) ||
        (compressed && a->c->st.buffer[SM_BT_PIXEL_UNPACK]))
        return;
    im->data = malloc((size_t)b->size);
    if (!im->data) {
        ap_error(a, "out of memory for texture contents");
        return;
    }
    memcpy(im->data, b->data, (size_t)b->size);
    im->data_size = b->size;
    /* scale and bias apply to colour data (Mesa's texstore); the model applies them on loading */
    const struct sm_fixed_state *ff = &a->c->st.ff;
    bool color = format != GL_DEPTH_COMPONENT && format != GL_STENCIL_INDEX && format != GL_DEPTH_STENCIL &&
                 !compressed;
    im->xfer = false;   /* these bytes replace the last upload's, and its transfer with them */
    for (int k = 0; color && k < 4; k++)
        if (ff->pixel_scale[k] != 1.0f || ff->pixel_bias[k] != 0.0f)
            im->xfer = true;
    if (im->xfer) {
        memcpy(im->xfer_scale, ff->pixel_scale, sizeof im->xfer_scale);
        memcpy(im->xfer_bias, ff->pixel_bias, sizeof im->xfer_bias);
    }
    im->data_format = format;
    im->data_type = type;
    im->data_alignment = a->c->st.unpack.alignment;
}

/* Defines one image (glTexImage*, glCompressedTexImage*, glCopyTexImage*). */
static void tex_image(struct sm_ap *a, uint32_t target, int32_t level, uint32_t ifmt, int32_t w,
                      int32_t h, int32_t d, int pixels_arg, uint32_t format, uint32_t type,
                      bool compressed)
{
    if (is_proxy(target))
        return;
    struct sm_texture *t = ap_bound_texture(a, target);
    if (!t)
        return;
    if (t->immutable) {
        ap_error(a, "texture storage is immutable");
        return;
    }
    if (level < 0 || level >= SM_MAX_LEVELS || w < 0 || h < 0 || d < 0) {
        ap_error(a, "invalid level or size");
        return;
    }
    int face = sm_cube_face(target);
    struct sm_tex_image *im = &t->image[face < 0 ? 0 : face][level];
    clear_image(im);
    *im = (struct sm_tex_image){ .defined = true, .compressed = compressed,
                                 .internal_format = ifmt, .width = w, .height = h, .depth = d };
    if (pixels_arg >= 0)
        set_image_data(a, im, pixels_arg, format, type, compressed);
}

static void h_tex_image_1d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), 1, 1, 7, ap_u(a, 5), ap_u(a, 6), false);
}

static void h_tex_image_2d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), ap_i(a, 4), 1, 8, ap_u(a, 6),
              ap_u(a, 7), false);
}

static void h_tex_image_3d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), ap_i(a, 4), ap_i(a, 5), 9,
              ap_u(a, 7), ap_u(a, 8), false);
}

static void h_compressed_1d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), 1, 1, 6, 0, 0, true);
}

static void h_compressed_2d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), ap_i(a, 4), 1, 7, 0, 0, true);
}

static void h_compressed_3d(struct sm_ap *a)
{
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), ap_i(a, 4), ap_i(a, 5), 8, 0, 0,
              true);
}

/* glCopyTexImage1D(target, level, ifmt, x, y, width, border) / 2D(..., width, height, border) */
static void h_copy_tex_image(struct sm_ap *a)
{
    bool is2d = a->cmd == GLR_CMD_glCopyTexImage2D;
    tex_image(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_i(a, 5), is2d ? ap_i(a, 6) : 1, 1, -1, 0,
              0, false);
}

/* glTexImage2DMultisample(target, samples, ifmt, w, h, fixed) / 3D(..., w, h, d, fixed) */
static void h_tex_image_ms(struct sm_ap *a)
{
    bool is3d = a->cmd == GLR_CMD_glTexImage3DMultisample;
    uint32_t target = ap_u(a, 0);
    if (is_proxy(target))
        return;
    struct sm_texture *t = ap_bound_texture(a, target);
    if (!t)
        return;
    if (t->immutable) {
        ap_error(a, "texture storage is immutable");
        return;
    }
    struct sm_tex_image *im = &t->image[0][0];
    clear_image(im);
    *im = (struct sm_tex_image){ .defined = true, .internal_format = ap_u(a, 2),
                                 .width = ap_i(a, 3), .height = ap_i(a, 4),
                                 .depth = is3d ? ap_i(a, 5) : 1, .samples = ap_i(a, 1),
                                 .fixed_sample_locations = ap_u(a, is3d ? 6 : 5) != 0 };
}

/* Immutable storage: all levels of all faces at once. */
static void tex_storage(struct sm_ap *a, struct sm_texture *t, int32_t levels, uint32_t ifmt,
                        int32_t w, int32_t h, int32_t d, int32_t samples, bool fixed)
{
    if (!t)
        return;
    if (t->immutable) {
        ap_error(a, "texture storage is immutable");
        return;
    }
    if (levels < 1 || levels > SM_MAX_LEVELS || w < 1 || h < 1 || d < 1) {
        ap_error(a, "invalid levels or size");
        return;
    }
    t->immutable = true;
    t->immutable_levels = levels;
    int faces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    bool arr = array_target(t->target);
    bool is3d = t->target == GL_TEXTURE_3D;
    for (int f = 0; f < 6; f++)
        for (int l = 0; l < SM_MAX_LEVELS; l++) {
            struct sm_tex_image *im = &t->image[f][l];
            clear_image(im);
            if (f >= faces || l >= levels)
                continue;
            int32_t lw = w >> l, lh = h, ld = d;
            if (t->target != GL_TEXTURE_1D_ARRAY && t->target != GL_TEXTURE_1D)
                lh = h >> l;
            if (is3d)
                ld = d >> l;
            *im = (struct sm_tex_image){ .defined = true, .internal_format = ifmt,
                                         .width = lw ? lw : 1, .height = lh ? lh : 1,
                                         .depth = arr ? d : (ld ? ld : 1), .samples = samples,
                                         .fixed_sample_locations = fixed };
        }
}

/* glTexStorage1D/2D/3D(target, levels, ifmt, w[, h[, d]]) and glTextureStorage* (texture, ...) */
static void h_tex_storage(struct sm_ap *a)
{
    bool named = names_first(a, GLR_OBJ_TEXTURE);
    int dims = has_role(a, GLR_ROLE_depth) ? 3 : has_role(a, GLR_ROLE_height) ? 2 : 1;
    if (!named && is_proxy(ap_u(a, 0)))
        return;
    struct sm_texture *t = tex_of(a, named, ap_u(a, 0));
    tex_storage(a, t, ap_i(a, 1), ap_u(a, 2), ap_i(a, 3), dims >= 2 ? ap_i(a, 4) : 1,
                dims >= 3 ? ap_i(a, 5) : 1, 0, false);
}

/* glTexStorage2DMultisample(target, samples, ifmt, w, h, fixed), 3D(..., d, fixed), named forms */
static void h_tex_storage_ms(struct sm_ap *a)
{
    bool named = names_first(a, GLR_OBJ_TEXTURE);
    bool is3d = has_role(a, GLR_ROLE_depth);
    if (!named && is_proxy(ap_u(a, 0)))
        return;
    struct sm_texture *t = tex_of(a, named, ap_u(a, 0));
    tex_storage(a, t, 1, ap_u(a, 2), ap_i(a, 3), ap_i(a, 4), is3d ? ap_i(a, 5) : 1, ap_i(a, 1),
                ap_u(a, is3d ? 6 : 5) != 0);
}

/* Sub-image updates: the model keeps only whole-image uploads, so an update that replaces the
 * whole image with the same client format keeps the contents known; any other one forgets them. */
static void sub_image(struct sm_ap *a, struct sm_texture *t, int face, int32_t level, int32_t x,
                      int32_t y, int32_t z, int32_t w, int32_t h, int32_t d, int pixels_arg,
                      uint32_t format, uint32_t type, bool compressed)
{
    if (!t)
        return;
    if (level < 0 || level >= SM_MAX_LEVELS) {
        ap_error(a, "invalid level");
        return;
    }
    /* glTextureSubImage3D on a cube map addresses faces as layers. */
    int f0 = face < 0 ? 0 : face, f1 = f0;
    if (face < 0 && t->target == GL_TEXTURE_CUBE_MAP) {
        f0 = z;
        f1 = z + d - 1;
        z = 0;
        d = 1;
    }
    for (int f = f0; f <= f1 && f < 6; f++) {
        struct sm_tex_image *im = &t->image[f < 0 ? 0 : f][level];
        if (!im->defined) {
            ap_error(a, "sub-image of an undefined level");
            continue;
        }
        free(im->data);
        im->data = NULL;
        im->data_size = 0;
        im->generated = false;
        bool whole = x == 0 && y == 0 && z == 0 && w == im->width && h == im->height &&
                     d == im->depth && f0 == f1;
        if (whole)
            set_image_data(a, im, pixels_arg, format, type, compressed);
    }
}

/* gl{Tex,Texture}SubImage{1,2,3}D and gl{Compressed}{Tex,Texture}SubImage{1,2,3}D: the compressed
 * forms have no type (imageSize instead), the 2D and 3D ones a height and a depth. */
static void h_sub_image(struct sm_ap *a)
{
    bool compressed = !has_role(a, GLR_ROLE_type);
    bool named = names_first(a, GLR_OBJ_TEXTURE);
    int dims = has_role(a, GLR_ROLE_depth) ? 3 : has_role(a, GLR_ROLE_height) ? 2 : 1;
    uint32_t target = ap_u(a, 0);
    if (!named && is_proxy(target))
        return;
    struct sm_texture *t = tex_of(a, named, target);
    int face = named ? -1 : sm_cube_face(target);
    int32_t level = ap_i(a, 1);
    int32_t x = ap_i(a, 2), y = 0, z = 0, w, h = 1, d = 1;
    int i = 3;
    if (dims >= 2)
        y = ap_i(a, i++);
    if (dims >= 3)
        z = ap_i(a, i++);
    w = ap_i(a, i++);
    if (dims >= 2)
        h = ap_i(a, i++);
    if (dims >= 3)
        d = ap_i(a, i++);
    uint32_t format = ap_u(a, i++);
    uint32_t type = compressed ? 0 : ap_u(a, i++);
    if (compressed)
        i++;   /* imageSize */
    sub_image(a, t, face, level, x, y, z, w, h, d, i, format, type, compressed);
}

/* glGenerateMipmap(target) / glGenerateTextureMipmap(texture) */
static void h_generate_mipmap(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glGenerateTextureMipmap;
    struct sm_texture *t = tex_of(a, named, ap_u(a, 0));
    if (!t)
        return;
    int faces = t->target == GL_TEXTURE_CUBE_MAP ? 6 : 1;
    int base = t->params.base_level;
    if (base < 0 || base >= SM_MAX_LEVELS || !t->image[0][base].defined) {
        ap_error(a, "base level undefined");
        return;
    }
    bool arr = array_target(t->target), is3d = t->target == GL_TEXTURE_3D;
    bool one_d = t->target == GL_TEXTURE_1D || t->target == GL_TEXTURE_1D_ARRAY;
    int last = t->immutable ? t->immutable_levels - 1 : SM_MAX_LEVELS - 1;
    if (t->params.max_level < last)
        last = t->params.max_level;
    for (int f = 0; f < faces; f++) {
        struct sm_tex_image b = t->image[f][base];
        for (int l = base + 1; l <= last; l++) {
            int s = l - base;
            int32_t w = b.width >> s, h = one_d ? b.height : b.height >> s;
            int32_t d = (is3d ? b.depth >> s : b.depth);
            if (!w && (one_d || !h) && (!is3d || !d))
                break;
            struct sm_tex_image *im = &t->image[f][l];
            clear_image(im);
            *im = (struct sm_tex_image){ .defined = true, .generated = true,
                                         .compressed = b.compressed,
                                         .internal_format = b.internal_format,
                                         .width = w ? w : 1, .height = h ? h : 1,
                                         .depth = arr ? b.depth : (d ? d : 1) };
        }
    }
}

/* ------------------------------------------------------------------ parameters */

void sm_sampling_param(struct sm_ap *a, struct sm_sampling *p, uint32_t pname, const double *v,
                       const int64_t *iv, int n, uint32_t border_kind)
{
    uint32_t e = (uint32_t)(iv ? (uint64_t)iv[0] : (uint64_t)(int64_t)v[0]);
    switch (pname) {
    case GL_TEXTURE_MIN_FILTER: p->min_filter = e; break;
    case GL_TEXTURE_MAG_FILTER: p->mag_filter = e; break;
    case GL_TEXTURE_WRAP_S: p->wrap_s = e; break;
    case GL_TEXTURE_WRAP_T: p->wrap_t = e; break;
    case GL_TEXTURE_WRAP_R: p->wrap_r = e; break;
    case GL_TEXTURE_MIN_LOD: p->min_lod = (float)v[0]; break;
    case GL_TEXTURE_MAX_LOD: p->max_lod = (float)v[0]; break;
    case GL_TEXTURE_LOD_BIAS: p->lod_bias = (float)v[0]; break;
    case GL_TEXTURE_MAX_ANISOTROPY: p->max_anisotropy = (float)v[0]; break;
    case GL_TEXTURE_COMPARE_MODE: p->compare_mode = e; break;
    case GL_TEXTURE_COMPARE_FUNC: p->compare_func = e; break;
    case GL_TEXTURE_SRGB_DECODE_EXT: p->srgb_decode = e; break;
    case GL_TEXTURE_BASE_LEVEL: p->base_level = (int32_t)e; break;
    case GL_TEXTURE_MAX_LEVEL: p->max_level = (int32_t)e; break;
    case GL_TEXTURE_SWIZZLE_R: p->swizzle[0] = e; break;
    case GL_TEXTURE_SWIZZLE_G: p->swizzle[1] = e; break;
    case GL_TEXTURE_SWIZZLE_B: p->swizzle[2] = e; break;
    case GL_TEXTURE_SWIZZLE_A: p->swizzle[3] = e; break;
    case GL_DEPTH_STENCIL_TEXTURE_MODE: p->depth_stencil_mode = e; break;
    case GL_DEPTH_TEXTURE_MODE: p->depth_texture_mode = e; break;
    case GL_TEXTURE_SWIZZLE_RGBA:
        if (n < 4) {
            ap_error(a, "swizzle needs 4 values");
            return;
        }
        for (int i = 0; i < 4; i++)
            p->swizzle[i] = (uint32_t)(iv ? (uint64_t)iv[i] : (uint64_t)(int64_t)v[i]);
        break;
    case GL_TEXTURE_BORDER_COLOR:
        if (n < 4) {
            ap_error(a, "border colour needs 4 values");
            return;
        }
        p->border_kind = border_kind;
        for (int i = 0; i < 4; i++) {
            if (border_kind == SM_VK_FLOAT) {
                float f = (float)v[i];
                memcpy(&p->border[i], &f, 4);
            } else {
                p->border[i] = (uint32_t)iv[i];
            }
        }
        break;
    default:
        ap_error(a, "texture/sampler parameter not modelled");
        return;
    }
}

/* The form of a gl{Tex,Texture,Sampler}Parameter* command (its gl_annotations.txt family line). */
enum param_form { FORM_F, FORM_I, FORM_FV, FORM_IV, FORM_IIV, FORM_IUIV };
static uint8_t param_forms[GLR_CMD_COUNT];

static enum param_form param_form_of(const struct glr_cmd_values *v)
{
    bool vec = v->flags & GLR_VF_VECTOR, integer = v->flags & GLR_VF_INTEGER;
    if (v->type == GLR_VT_F)
        return vec ? FORM_FV : FORM_F;
    if (integer)
        return v->type == GLR_VT_UI ? FORM_IUIV : FORM_IIV;
    return vec ? FORM_IV : FORM_I;
}

/* gl{Tex,Texture,Sampler}Parameter{f,i,fv,iv,Iiv,Iuiv}: the form from the command's family line,
 * the object (a sampler, a texture by name or by target) from the registry's class of its first
 * parameter. */
static void h_parameter(struct sm_ap *a)
{
    enum param_form form = (enum param_form)param_forms[a->cmd];
    uint32_t pname = ap_u(a, 1);
    bool four = pname == GL_TEXTURE_BORDER_COLOR || pname == GL_TEXTURE_SWIZZLE_RGBA;
    int cnt = four ? 4 : 1;
    double v[4] = { 0 };
    int64_t iv[4] = { 0 };
    bool ints = true;
    uint32_t bk = SM_VK_FLOAT;
    if (form == FORM_F) {
        v[0] = ap_f(a, 2);
        ints = false;
        cnt = 1;
    } else if (form == FORM_I) {
        iv[0] = ap_i(a, 2);
        cnt = 1;
    } else {
        const void *blob = ap_blob(a, 2, (uint64_t)cnt * 4);
        if (!blob) {
            ap_error(a, "parameter values missing from the recorded call");
            return;
        }
        for (int i = 0; i < cnt; i++) {
            if (form == FORM_FV) {
                float f;
                memcpy(&f, (const char *)blob + 4 * i, 4);
                v[i] = f;
                ints = false;
            } else {
                int32_t x;
                memcpy(&x, (const char *)blob + 4 * i, 4);
                iv[i] = form == FORM_IUIV ? (int64_t)(uint32_t)x : x;
            }
        }
        if (form == FORM_IIV)
            bk = SM_VK_INT;
        else if (form == FORM_IUIV)
            bk = SM_VK_UINT;
    }
    if (ints)
        for (int i = 0; i < cnt; i++)
            /* glTexParameteriv(BORDER_COLOR) maps integers to [-1, 1]; others are plain. */
            v[i] = (bk == SM_VK_FLOAT && pname == GL_TEXTURE_BORDER_COLOR)
                       ? (double)iv[i] / 2147483647.0 : (double)iv[i];
    struct sm_sampling *p = NULL;
    if (names_first(a, GLR_OBJ_SAMPLER)) {
        struct sm_sampler *smp = ap_sampler(a, ap_u(a, 0), false);
        if (!smp) {
            ap_error(a, "no such sampler");
            return;
        }
        p = &smp->params;
    } else {
        bool named = names_first(a, GLR_OBJ_TEXTURE);
        struct sm_texture *t = tex_of(a, named, ap_u(a, 0));
        if (!t)
            return;
        p = &t->params;
    }
    sm_sampling_param(a, p, pname, v, ints ? iv : NULL, cnt, bk);
}

/* glTexBuffer(target, ifmt, buffer), glTexBufferRange(target, ifmt, buffer, offset, size) and the
 * glTextureBuffer(Range) forms with a texture name first. */
static void h_tex_buffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glTextureBuffer || a->cmd == GLR_CMD_glTextureBufferRange;
    bool range = a->cmd == GLR_CMD_glTexBufferRange || a->cmd == GLR_CMD_glTextureBufferRange;
    struct sm_texture *t = tex_of(a, named, ap_u(a, 0));
    if (!t)
        return;
    t->buffer_format = ap_u(a, 1);
    t->buffer = ap_u(a, 2);
    t->buffer_offset = range ? ap_u64(a, 3) : 0;
    t->buffer_size = range ? ap_u64(a, 4) : 0;
}

/* ------------------------------------------------------------------ renderbuffers */

/* glRenderbufferStorage(target, ifmt, w, h), ...Multisample(target, samples, ifmt, w, h), and
 * glNamedRenderbufferStorage(Multisample) with a renderbuffer name first. */
static void h_rb_storage(struct sm_ap *a)
{
    bool named = names_first(a, GLR_OBJ_RENDERBUFFER);
    bool ms = (cmd_info(a)->form & GLR_FORM_MULTISAMPLE) != 0;   /* gl_annotations.txt */
    struct sm_renderbuffer *r = named ? ap_renderbuffer(a, ap_u(a, 0), false)
                                      : ap_renderbuffer(a, a->c->st.renderbuffer, false);
    if (!r) {
        ap_error(a, "no renderbuffer");
        return;
    }
    int i = 1;
    r->samples = ms ? ap_i(a, i++) : 0;
    r->internal_format = ap_u(a, i++);
    r->width = ap_i(a, i++);
    r->height = ap_i(a, i);
    r->created = true;
}

void sm_register_textures(sm_apply_fn *t)
{
    t[GLR_CMD_glTexImage1D] = h_tex_image_1d;
    t[GLR_CMD_glTexImage2D] = h_tex_image_2d;
    t[GLR_CMD_glTexImage3D] = h_tex_image_3d;
    t[GLR_CMD_glCompressedTexImage1D] = h_compressed_1d;
    t[GLR_CMD_glCompressedTexImage2D] = h_compressed_2d;
    t[GLR_CMD_glCompressedTexImage3D] = h_compressed_3d;
    t[GLR_CMD_glCopyTexImage1D] = h_copy_tex_image;
    t[GLR_CMD_glCopyTexImage2D] = h_copy_tex_image;
    t[GLR_CMD_glTexImage2DMultisample] = h_tex_image_ms;
    t[GLR_CMD_glTexImage3DMultisample] = h_tex_image_ms;
    t[GLR_CMD_glTexStorage1D] = h_tex_storage;
    t[GLR_CMD_glTexStorage2D] = h_tex_storage;
    t[GLR_CMD_glTexStorage3D] = h_tex_storage;
    t[GLR_CMD_glTextureStorage1D] = h_tex_storage;
    t[GLR_CMD_glTextureStorage2D] = h_tex_storage;
    t[GLR_CMD_glTextureStorage3D] = h_tex_storage;
    t[GLR_CMD_glTexStorage2DMultisample] = h_tex_storage_ms;
    t[GLR_CMD_glTexStorage3DMultisample] = h_tex_storage_ms;
    t[GLR_CMD_glTextureStorage2DMultisample] = h_tex_storage_ms;
    t[GLR_CMD_glTextureStorage3DMultisample] = h_tex_storage_ms;
    t[GLR_CMD_glTexSubImage1D] = h_sub_image;
    t[GLR_CMD_glTexSubImage2D] = h_sub_image;
    t[GLR_CMD_glTexSubImage3D] = h_sub_image;
    t[GLR_CMD_glTextureSubImage1D] = h_sub_image;
    t[GLR_CMD_glTextureSubImage2D] = h_sub_image;
    t[GLR_CMD_glTextureSubImage3D] = h_sub_image;
    t[GLR_CMD_glCompressedTexSubImage1D] = h_sub_image;
    t[GLR_CMD_glCompressedTexSubImage2D] = h_sub_image;
    t[GLR_CMD_glCompressedTexSubImage3D] = h_sub_image;
    t[GLR_CMD_glCompressedTextureSubImage1D] = h_sub_image;
    t[GLR_CMD_glCompressedTextureSubImage2D] = h_sub_image;
    t[GLR_CMD_glCompressedTextureSubImage3D] = h_sub_image;
    t[GLR_CMD_glGenerateMipmap] = h_generate_mipmap;
    t[GLR_CMD_glGenerateTextureMipmap] = h_generate_mipmap;
    for (unsigned k = 0; k < glr_values_count; k++)   /* "family parameter" lines */
        if (glr_values[k].family == GLR_VALUES_PARAMETER) {
            param_forms[glr_values[k].cmd] = (uint8_t)param_form_of(&glr_values[k]);
            t[glr_values[k].cmd] = h_parameter;
        }
    t[GLR_CMD_glTexBuffer] = h_tex_buffer;
    t[GLR_CMD_glTexBufferRange] = h_tex_buffer;
    t[GLR_CMD_glTextureBuffer] = h_tex_buffer;
    t[GLR_CMD_glTextureBufferRange] = h_tex_buffer;
    t[GLR_CMD_glRenderbufferStorage] = h_rb_storage;
    t[GLR_CMD_glRenderbufferStorageMultisample] = h_rb_storage;
    t[GLR_CMD_glNamedRenderbufferStorage] = h_rb_storage;
    t[GLR_CMD_glNamedRenderbufferStorageMultisample] = h_rb_storage;
}

/* ------------------------------------------------------------------ public setter */

bool sm_set_texture_image_data(struct sm_state *s, uint32_t ctx_id, uint32_t texture, int face,
                               int level, uint32_t format, uint32_t type, int32_t alignment,
                               const void *data, uint64_t size)
{
    struct sm_context *c = s ? sm_ctx_find(s, ctx_id) : NULL;
    struct sm_texture *t = c ? sm_map_get(&c->share->textures, texture) : NULL;
    if (!t || face < 0 || face >= 6 || level < 0 || level >= SM_MAX_LEVELS || !data || !size)
        return false;
    struct sm_tex_image *im = &t->image[face][level];
    if (!im->defined || (alignment != 1 && alignment != 2 && alignment != 4 && alignment != 8))
        return false;
    uint8_t *copy = sm_contents_alloc((size_t)size);
    if (!copy)
        return false;
    memcpy(copy, data, (size_t)size);
    free(im->data);
    im->data = copy;
    im->data_size = size;
    im->data_format = format;
    im->data_type = type;
    im->data_alignment = alignment;
    im->generated = false;
    im->xfer = false;   /* read back from the driver: pixel transfer was applied when it was uploaded */
    return true;
}
