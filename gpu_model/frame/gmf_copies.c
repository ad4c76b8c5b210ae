/* GPU-side copies in the model (see DESIGN.md, "Queries and copies"): buffer clears and copies,
 * copies from the read framebuffer into textures, image-to-image copies, texture clears,
 * read-backs into a pixel pack buffer and uploads from a pixel unpack buffer (or any upload the
 * state model could not keep as a whole image). Model buffers are the state model's buffer
 * contents (as SSBO writes from shaders are); model images are gmf_images.c's. What is not
 * modelled is noted per call. */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

/* A command's form within its family (sub-image, multisample, ...): generated from the registry
 * (glr_cmd_info.form, registry/gl_annotations.txt), no name compared here. */
static bool form(uint32_t k, unsigned f)
{
    return (glr_cmds[k].form & f) != 0;
}

static int64_t arg_i(const struct glr_call *c, uint32_t k, enum glr_role name, int64_t def)
{
    int p = gmf_cmd_param(k, name);
    return p >= 0 ? (int64_t)(int32_t)c->args[p] : def;
}

static uint32_t arg_u(const struct glr_call *c, uint32_t k, enum glr_role name)
{
    int p = gmf_cmd_param(k, name);
    return p >= 0 ? (uint32_t)c->args[p] : 0;
}

int gmf_tex_target_index(uint32_t target, int *face)
{
    *face = 0;
    switch (target) {
    case GL_TEXTURE_1D: return SM_TT_1D;
    case GL_TEXTURE_2D: return SM_TT_2D;
    case GL_TEXTURE_3D: return SM_TT_3D;
    case GL_TEXTURE_1D_ARRAY: return SM_TT_1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY: return SM_TT_2D_ARRAY;
    case GL_TEXTURE_RECTANGLE: return SM_TT_RECTANGLE;
    case GL_TEXTURE_CUBE_MAP: return SM_TT_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return SM_TT_CUBE_MAP_ARRAY;
    case GL_TEXTURE_2D_MULTISAMPLE: return SM_TT_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return SM_TT_2D_MULTISAMPLE_ARRAY;
    default:
        if (target >= GL_TEXTURE_CUBE_MAP_POSITIVE_X && target <= GL_TEXTURE_CUBE_MAP_NEGATIVE_Z) {
            *face = (int)(target - GL_TEXTURE_CUBE_MAP_POSITIVE_X);
            return SM_TT_CUBE_MAP;
        }
        return -1;
    }
}

/* The texture a command names: its `texture` parameter (DSA) or the active unit's binding of its
 * `target`; *face: the cube face a face target names (its layer in the model). */
static uint32_t cmd_texture(const struct sm_context *c, const struct glr_call *call, uint32_t k,
                            int *face)
{
    *face = 0;
    int pt = gmf_cmd_param(k, GLR_ROLE_texture);
    if (pt >= 0)
        return (uint32_t)call->args[pt];
    int ti = gmf_tex_target_index(arg_u(call, k, GLR_ROLE_target), face);
    const struct sm_context_state *st = sm_context_state(c);
    if (ti < 0 || st->active_texture >= SM_MAX_TEXTURE_UNITS)
        return 0;
    return sm_texture_key(st->unit[st->active_texture].bound[ti], ti);
}

/* A texture's level as a model surface (synced with the state model first). */
static gm_surface *tex_level(gmf_runner *r, const struct sm_context *c, uint32_t name, int level,
                             gmf_texture **out, gmf_event *ev)
{
    r->tex_epoch++;   /* the state model may have just defined the image */
    r->tex_data_epoch++;
    gmf_texture *t = name ? gmf_tex_sync(r, c, name, ev) : NULL;
    if (!t || level < 0 || level >= t->img.num_levels || !t->img.level[level].data)
        return NULL;
    if (out)
        *out = t;
    return &t->img.level[level];
}

/* The bytes of buffer `name` (NULL with a note when unknown). */
static uint8_t *buffer_bytes(const struct sm_context *c, uint32_t name, uint64_t *size,
                             const char *fn, gmf_event *ev)
{
    const struct sm_buffer *b = sm_get_buffer(c, name);
    if (!b || !b->data_known || (!b->data && b->size)) {
        gmf_note(ev, "%s: buffer %u contents unknown", fn, name);
        return NULL;
    }
    *size = b->size;
    return b->data;
}

/* A transfer past the end of the bound pixel buffer (its size is known even when its
 * contents are not): the GL error, the call has no effect (piglit gl-2.1-pbo's error tests). */
static bool pbo_range_error(const struct sm_context *c, uint32_t pbo, const gmf_pixel_layout *L,
                            uint64_t offset)
{
    const struct sm_buffer *b = sm_get_buffer(c, pbo);
    return b && gmf_pbo_out_of_range(L, offset, b->size);
}

/* ---- uploads (glTex*Image*, glTextureSubImage*) ---- */

/* glTexImage{1,2,3}D*, glTexSubImage*, glTextureSubImage*: a generated class (glr_cmd_info.gpu_copy). */
static bool upload_cmd(uint32_t k)
{
    return glr_cmds[k].gpu_copy == GLR_GPU_COPY_UPLOAD;
}

static void upload(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                   uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    if (form(k, GLR_FORM_MULTISAMPLE))
        return;
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t pbo = st->buffer[SM_BT_PIXEL_UNPACK];
    int face;
    uint32_t name = cmd_texture(c, call, k, &face);
    int level = (int)arg_i(call, k, GLR_ROLE_level, 0);
    const struct sm_texture *smt = name ? sm_get_texture(c, name) : NULL;
    if (!smt || level < 0 || level >= SM_MAX_LEVELS)
        return;
    int pp = gmf_cmd_param(k, GLR_ROLE_pixels);
    if (pp < 0)
        return;
    /* GL_MAP_COLOR applies to colour uploads too (Mesa's texstore): not modelled, reported. Scale
     * and bias are applied (kept images: gmf_tex_sync; others below); colour indices go through
     * the maps in the state model (statemodel/sm_pixel_index.c). */
    uint32_t ufmt = arg_u(call, k, GLR_ROLE_format);
    if (st->ff.map_color && (pbo || (call->blobs[pp].data && call->blobs[pp].size)) && ufmt != GL_COLOR_INDEX &&
        ufmt != GL_STENCIL_INDEX && ufmt != GL_DEPTH_COMPONENT && ufmt != GL_DEPTH_STENCIL &&
        !gmf_integer_format(ufmt))
        gmf_note(ev, "%s under GL_MAP_COLOR (RGBA pixel maps are not modelled)", fn);
    bool sub = form(k, GLR_FORM_SUB_IMAGE);
    int x = (int)arg_i(call, k, GLR_ROLE_xoffset, 0), y = (int)arg_i(call, k, GLR_ROLE_yoffset, 0),
        z = (int)arg_i(call, k, GLR_ROLE_zoffset, 0);
    int w = (int)arg_i(call, k, GLR_ROLE_width, 1), h = (int)arg_i(call, k, GLR_ROLE_height, 1),
        d = (int)arg_i(call, k, GLR_ROLE_depth, 1);
    /* Client data the state model kept as a whole image is loaded by gmf_tex_sync itself
     * (glTextureSubImage3D on a cube map addresses faces as layers: one face can be kept). */
    bool dsa_cube = smt->target == GL_TEXTURE_CUBE_MAP && gmf_cmd_param(k, GLR_ROLE_texture) >= 0;
    const struct sm_tex_image *im =
        &smt->image[dsa_cube ? (z >= 0 && z < 6 ? z : 0) : face][level];
    bool kept = im->data && (!dsa_cube || d == 1);
    if (!pbo && (kept || !call->blobs[pp].data || !call->blobs[pp].size))
        return;
    if (!sub)
        x = y = z = 0;
    if (smt->target == GL_TEXTURE_CUBE_MAP && gmf_cmd_param(k, GLR_ROLE_texture) < 0)
        z = face;   /* the model keeps cube faces as layers */
    uint32_t format = arg_u(call, k, GLR_ROLE_format), type = arg_u(call, k, GLR_ROLE_type);
    gmf_texture *t;
    gm_surface *s = tex_level(r, c, name, level, &t, ev);
    if (!s) {
        gmf_note(ev, "%s: texture %u level %d not in the model", fn, name, level);
        return;
    }
    gmf_pixel_layout L;
    const char *why = gmf_pixel_layout_get(format, type, &st->unpack, w, h, d, &L);
    const uint8_t *src;
    uint64_t size;
    if (pbo) {
        if (!why && pbo_range_error(c, pbo, &L, call->args[pp]))
            return;   /* GL_INVALID_OPERATION: the upload does nothing */
        uint8_t *b = why ? NULL : buffer_bytes(c, pbo, &size, fn, ev);
        uint64_t off = call->args[pp];
        if (!b)
            goto out;
        if (off > size) {
            why = "offset past the end of the unpack buffer";
            goto out;
        }
        src = b + off;
        size -= off;
    } else {
        src = call->blobs[pp].data;
        size = call->blobs[pp].size;
    }
    if (!why)
        why = gmf_unpack_rect(src, (size_t)size, &L, s, x, y, z, w, h, d);
    if (!why && format != GL_DEPTH_COMPONENT && format != GL_STENCIL_INDEX && format != GL_DEPTH_STENCIL) {
        /* glPixelTransfer scale and bias apply to colour uploads (Mesa's texstore) */
        const float *sc = st->ff.pixel_scale, *bi = st->ff.pixel_bias;
        if (sc[0] != 1 || sc[1] != 1 || sc[2] != 1 || sc[3] != 1 || bi[0] != 0 || bi[1] != 0 || bi[2] != 0 ||
            bi[3] != 0)
            gmf_scale_bias_region(s, x, y, z, w, h, d, sc, bi);
    }
    if (!why) {
        t->gpu_written = true;   /* contents no longer match the state model's uploads */
        return;
    }
out:
    if (why)
        gmf_note(ev, "%s: %s", fn, why);
}

/* Compressed uploads the state model cannot keep as a whole image (from an unpack buffer, or a
 * part of an image) are not modelled: the model keeps the image's earlier contents. */
static void compressed_upload_check(const struct sm_context *c, const struct glr_call *call,
                                    uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    if (sm_context_state(c)->buffer[SM_BT_PIXEL_UNPACK]) {
        gmf_note(ev, "%s from an unpack buffer not modelled", fn);
        return;
    }
    int face;
    uint32_t name = cmd_texture(c, call, k, &face);
    int level = (int)arg_i(call, k, GLR_ROLE_level, 0);
    const struct sm_texture *t = name ? sm_get_texture(c, name) : NULL;
    int pd = gmf_cmd_param(k, GLR_ROLE_data);
    if (t && pd >= 0 && call->blobs[pd].size && level >= 0 && level < SM_MAX_LEVELS &&
        t->image[face][level].defined && !t->image[face][level].data)
        gmf_note(ev, "%s: part of a compressed image not modelled", fn);
}

/* ---- read-backs into a pixel pack buffer ---- */

/* The read framebuffer's surface for colour (its read buffer) or depth/stencil, resolved when
 * multisampled (into *tmp, freed by the caller). */
gm_surface *gmf_read_surface(gmf_runner *r, const struct sm_context *c, bool depth,
                                gm_surface *view, gm_surface *tmp, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t fbo = st->read_fbo;
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    uint32_t rb = f ? f->read_buffer : GL_BACK;
    if (fbo && (rb == GL_BACK || rb == 0))
        rb = GL_COLOR_ATTACHMENT0;
    if (!fbo && rb == 0)
        rb = GL_BACK;
    gm_surface *s = gmf_fb_read_surface(r, c, fbo, rb, depth, view, ev);
    if (!s || s->samples <= 1)
        return s;
    if (depth)
        return s;   /* sample 0 (llvmpipe reads depth of sample 0 too) */
    memset(tmp, 0, sizeof *tmp);
    if (gm_surface_alloc(tmp, s->format, s->width, s->height, 1, 1) != 0 ||
        gm_pipe_resolve(s, tmp) != 0) {
        gm_surface_free(tmp);
        return NULL;
    }
    return tmp;
}

static bool depth_format(uint32_t format)
{
    return format == GL_DEPTH_COMPONENT || format == GL_STENCIL_INDEX ||
           format == GL_DEPTH_STENCIL;
}

static void read_pixels(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                        uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t pbo = st->buffer[SM_BT_PIXEL_PACK];
    if (!pbo)
        return;   /* into client memory: nothing the model keeps */
    int x = (int)arg_i(call, k, GLR_ROLE_x, 0), y = (int)arg_i(call, k, GLR_ROLE_y, 0);
    int w = (int)arg_i(call, k, GLR_ROLE_width, 0), h = (int)arg_i(call, k, GLR_ROLE_height, 0);
    uint32_t format = arg_u(call, k, GLR_ROLE_format), type = arg_u(call, k, GLR_ROLE_type);
    int pp = gmf_cmd_param(k, GLR_ROLE_pixels);
    if (pp < 0)
        pp = gmf_cmd_param(k, GLR_ROLE_data);
    gmf_pixel_layout L;
    const char *why = gmf_pixel_layout_get(format, type, &st->pack, w, h, 1, &L);
    if (!why && pbo_range_error(c, pbo, &L, pp >= 0 ? call->args[pp] : 0))
        return;   /* GL_INVALID_OPERATION: nothing is read */
    uint64_t size;
    uint8_t *b = why ? NULL : buffer_bytes(c, pbo, &size, fn, ev);
    gm_surface view, tmp = { 0 };
    gm_surface *s = b ? gmf_read_surface(r, c, depth_format(format), &view, &tmp, ev) : NULL;
    if (b && !s)
        why = "read buffer not in the model";
    uint64_t off = pp >= 0 ? call->args[pp] : 0;
    if (s && off > size)
        why = "offset past the end of the pack buffer";
    if (s && !why)
        why = gmf_pack_rect(s, x, y, 0, w, h, 1, &L, b + off, (size_t)(size - off));
    gm_surface_free(&tmp);
    if (why)
        gmf_note(ev, "%s: %s", fn, why);
}

static void get_tex_image(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                          uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    const struct sm_context_state *st = sm_context_state(c);
    uint32_t pbo = st->buffer[SM_BT_PIXEL_PACK];
    if (!pbo)
        return;
    int face;
    uint32_t name = cmd_texture(c, call, k, &face);
    int level = (int)arg_i(call, k, GLR_ROLE_level, 0);
    gm_surface *s = tex_level(r, c, name, level, NULL, ev);
    if (!s) {
        gmf_note(ev, "%s: texture %u level %d not in the model", fn, name, level);
        return;
    }
    bool subimage = form(k, GLR_FORM_SUB_IMAGE);
    /* a cube face target reads one face; otherwise every layer / slice (all six faces for
     * glGetTextureImage of a cube map) */
    bool face_target = gmf_cmd_param(k, GLR_ROLE_texture) < 0 && arg_u(call, k, GLR_ROLE_target) != GL_TEXTURE_CUBE_MAP &&
                       sm_get_texture(c, name) && sm_get_texture(c, name)->target == GL_TEXTURE_CUBE_MAP;
    int x = 0, y = 0, z = face, w = s->width, h = s->height, d = face_target ? 1 : s->depth;
    if (subimage) {
        x = (int)arg_i(call, k, GLR_ROLE_xoffset, 0);
        y = (int)arg_i(call, k, GLR_ROLE_yoffset, 0);
        z = (int)arg_i(call, k, GLR_ROLE_zoffset, 0);
        w = (int)arg_i(call, k, GLR_ROLE_width, 0);
        h = (int)arg_i(call, k, GLR_ROLE_height, 0);
        d = (int)arg_i(call, k, GLR_ROLE_depth, 1);
    }
    uint32_t format = arg_u(call, k, GLR_ROLE_format), type = arg_u(call, k, GLR_ROLE_type);
    int pp = gmf_cmd_param(k, GLR_ROLE_pixels);
    gmf_pixel_layout L;
    const char *why = s->samples > 1 ? "multisampled texture"
                                     : gmf_pixel_layout_get(format, type, &st->pack, w, h, d, &L);
    if (!why && pbo_range_error(c, pbo, &L, pp >= 0 ? call->args[pp] : 0))
        return;   /* GL_INVALID_OPERATION: nothing is read */
    uint64_t size;
    uint8_t *b = why ? NULL : buffer_bytes(c, pbo, &size, fn, ev);
    uint64_t off = pp >= 0 ? call->args[pp] : 0;
    if (b && off > size)
        why = "offset past the end of the pack buffer";
    else if (b)
        why = gmf_pack_rect(s, x, y, z, w, h, d, &L, b + off, (size_t)(size - off));
    if (why)
        gmf_note(ev, "%s: %s", fn, why);
}

/* ---- copies from the read framebuffer into a texture ---- */

/* One texel converted between two surfaces' formats (same format: the bytes). */
static void convert_texel(const gm_surface *src, const uint8_t *sp, const gm_surface *dst,
                          uint8_t *dp)
{
    const gm_format_info *si = gm_format_get(src->format), *di = gm_format_get(dst->format);
    if (src->format == dst->format) {
        memcpy(dp, sp, si->bytes);
        return;
    }
    bool sdepth = si->kind == GM_KIND_DEPTH || si->kind == GM_KIND_DEPTH_STENCIL;
    bool ddepth = di->kind == GM_KIND_DEPTH || di->kind == GM_KIND_DEPTH_STENCIL;
    if (sdepth && ddepth) {
        gm_format_pack_depth(dst->format, gm_format_unpack_depth(src->format, sp), dp);
        if (si->kind == GM_KIND_DEPTH_STENCIL && di->kind == GM_KIND_DEPTH_STENCIL)
            gm_format_pack_stencil(dst->format, gm_format_unpack_stencil(src->format, sp), dp);
    } else if (si->kind == GM_KIND_UINT || si->kind == GM_KIND_SINT) {
        uint32_t v[4];
        gm_format_unpack_rgba_i(src->format, sp, v);
        gm_format_pack_rgba_i(dst->format, v, dp);
    } else {
        float v[4] = { 0, 0, 0, 1 };
        gm_format_unpack_rgba(src->format, sp, v);
        gm_format_pack_rgba(dst->format, v, dp);
    }
}

static void copy_tex(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                     uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    int face;
    uint32_t name = cmd_texture(c, call, k, &face);
    int level = (int)arg_i(call, k, GLR_ROLE_level, 0);
    gmf_texture *t;
    gm_surface *dst = tex_level(r, c, name, level, &t, ev);
    if (!dst) {
        gmf_note(ev, "%s: texture %u level %d not in the model", fn, name, level);
        return;
    }
    bool image = !form(k, GLR_FORM_SUB_IMAGE);   /* glCopyTexImage*: the whole new image */
    int x = (int)arg_i(call, k, GLR_ROLE_x, 0), y = (int)arg_i(call, k, GLR_ROLE_y, 0);
    int w = (int)arg_i(call, k, GLR_ROLE_width, 0), h = (int)arg_i(call, k, GLR_ROLE_height, 1);
    int dx = image ? 0 : (int)arg_i(call, k, GLR_ROLE_xoffset, 0);
    int dy = image ? 0 : (int)arg_i(call, k, GLR_ROLE_yoffset, 0);
    int dz = image ? 0 : (int)arg_i(call, k, GLR_ROLE_zoffset, 0);
    if (t->target == GL_TEXTURE_CUBE_MAP && gmf_cmd_param(k, GLR_ROLE_texture) < 0)
        dz = face;
    if (t->target == GL_TEXTURE_1D_ARRAY && form(k, GLR_FORM_2D)) {
        /* a 1D array's layers are its rows: y stays a row */
    }
    const gm_format_info *di = gm_format_get(dst->format);
    bool depth = di->kind == GM_KIND_DEPTH || di->kind == GM_KIND_DEPTH_STENCIL;
    gm_surface view, tmp = { 0 };
    gm_surface *src = gmf_read_surface(r, c, depth, &view, &tmp, ev);
    if (!src) {
        gmf_note(ev, "%s: read buffer not in the model", fn);
        return;
    }
    if (di->block) {
        gmf_note(ev, "%s: compressed destination", fn);
    } else {
        for (int j = 0; j < h; j++)
            for (int i = 0; i < w; i++) {
                int sx = x + i, sy = y + j, tx = dx + i, ty = dy + j;
                if (sx < 0 || sy < 0 || sx >= src->width || sy >= src->height || tx < 0 ||
                    ty < 0 || tx >= dst->width || ty >= dst->height || dz < 0 || dz >= dst->depth)
                    continue;
                uint8_t *dp = gm_surface_texel(dst, tx, ty, dz);
                convert_texel(src, gm_surface_texel(src, sx, sy, 0), dst, dp);
                for (int s = 1; s < dst->samples; s++)
                    memcpy(dp + (size_t)s * di->bytes, dp, di->bytes);
            }
        t->gpu_written = true;
    }
    gm_surface_free(&tmp);
}

/* ---- glCopyImageSubData ---- */

static gm_surface *image_of(gmf_runner *r, const struct sm_context *c, uint32_t name,
                            uint32_t target, int level, gmf_event *ev)
{
    if (target == GL_RENDERBUFFER)
        return gmf_renderbuffer_surface(r, c, name, ev);
    gmf_texture *t;
    gm_surface *s = tex_level(r, c, name, level, &t, ev);
    if (s)
        t->gpu_written = true;
    return s;
}

static void copy_image(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                       gmf_event *ev)
{
    const uint64_t *a = call->args;
    gm_surface *src = image_of(r, c, (uint32_t)a[0], (uint32_t)a[1], (int)(int32_t)a[2], ev);
    gm_surface *dst = image_of(r, c, (uint32_t)a[6], (uint32_t)a[7], (int)(int32_t)a[8], ev);
    if (!src || !dst) {
        gmf_note(ev, "glCopyImageSubData: %s image not in the model", !src ? "source" : "destination");
        return;
    }
    const gm_format_info *si = gm_format_get(src->format), *di = gm_format_get(dst->format);
    if (si->block || di->block || si->bytes != di->bytes || src->samples != dst->samples) {
        gmf_note(ev, "glCopyImageSubData: %s to %s not modelled", si->name, di->name);
        return;
    }
    int sx = (int)(int32_t)a[3], sy = (int)(int32_t)a[4], sz = (int)(int32_t)a[5];
    int dx = (int)(int32_t)a[9], dy = (int)(int32_t)a[10], dz = (int)(int32_t)a[11];
    int w = (int)(int32_t)a[12], h = (int)(int32_t)a[13], d = (int)(int32_t)a[14];
    size_t px = (size_t)si->bytes * (size_t)(src->samples > 1 ? src->samples : 1);
    for (int k = 0; k < d; k++)
        for (int j = 0; j < h; j++) {
            if (sz + k < 0 || sz + k >= src->depth || dz + k < 0 || dz + k >= dst->depth ||
                sy + j < 0 || sy + j >= src->height || dy + j < 0 || dy + j >= dst->height)
                continue;
            for (int i = 0; i < w; i++) {
                if (sx + i < 0 || sx + i >= src->width || dx + i < 0 || dx + i >= dst->width)
                    continue;
                memmove(gm_surface_texel(dst, dx + i, dy + j, dz + k),
                        gm_surface_texel(src, sx + i, sy + j, sz + k), px);
            }
        }
}

/* ---- clears of textures and buffers ---- */

/* One element of `fmt` from client data (format/type; a NULL pointer: zeros). */
static const char *clear_value(gm_format fmt, uint32_t format, uint32_t type, uint64_t pointer,
                               const struct glr_blob *data, uint8_t out[16])
{
    memset(out, 0, 16);
    if (!pointer)
        return NULL;
    if (!data->data || !data->size)
        return "clear value not recorded";
    gm_surface one;
    memset(&one, 0, sizeof one);
    if (gm_surface_alloc(&one, fmt, 1, 1, 1, 1) != 0)
        return "out of memory";
    int rc = gmf_unpack_to_surface(data->data, data->size, format, type, 1, 1, 1, 1, &one, 0);
    if (rc == 0)
        memcpy(out, one.data, gm_format_get(fmt)->bytes);
    gm_surface_free(&one);
    return rc == 0 ? NULL : "clear value format/type not understood";
}

static void clear_tex(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                      uint32_t k, gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);
    uint32_t name = (uint32_t)call->args[0];
    int level = (int)(int32_t)call->args[1];
    gmf_texture *t;
    gm_surface *s = tex_level(r, c, name, level, &t, ev);
    if (!s) {
        gmf_note(ev, "%s: texture %u level %d not in the model", fn, name, level);
        return;
    }
    bool sub = k == GLR_CMD_glClearTexSubImage;
    int x = 0, y = 0, z = 0, w = s->width, h = s->height, d = s->depth;
    if (sub) {
        x = (int)arg_i(call, k, GLR_ROLE_xoffset, 0);
        y = (int)arg_i(call, k, GLR_ROLE_yoffset, 0);
        z = (int)arg_i(call, k, GLR_ROLE_zoffset, 0);
        w = (int)arg_i(call, k, GLR_ROLE_width, 0);
        h = (int)arg_i(call, k, GLR_ROLE_height, 0);
        d = (int)arg_i(call, k, GLR_ROLE_depth, 0);
    }
    uint8_t v[16];
    int pd = gmf_cmd_param(k, GLR_ROLE_data);
    const char *why = gm_format_get(s->format)->block ? "compressed texture"
                      : pd < 0 ? "no data parameter"
                               : clear_value(s->format, arg_u(call, k, GLR_ROLE_format),
                                             arg_u(call, k, GLR_ROLE_type), call->args[pd],
                                             &call->blobs[pd], v);
    if (why) {
        gmf_note(ev, "%s: %s", fn, why);
        return;
    }
    size_t bytes = gm_format_get(s->format)->bytes;
    int ns = s->samples > 1 ? s->samples : 1;
    for (int kz = z; kz < z + d; kz++)
        for (int j = y; j < y + h; j++)
            for (int i = x; i < x + w; i++) {
                if (i < 0 || j < 0 || kz < 0 || i >= s->width || j >= s->height || kz >= s->depth)
                    continue;
                uint8_t *p = gm_surface_texel(s, i, j, kz);
                for (int q = 0; q < ns; q++)
                    memcpy(p + (size_t)q * bytes, v, bytes);
            }
    t->gpu_written = true;
}

/* glClear(Named)Buffer(Sub)Data: in place of the state model, which forgets the contents. */
static void clear_buffer(gmf_runner *r, const struct sm_context *c, const struct glr_call *call,
                         uint32_t k, gmf_event *ev)
{
    (void)r;
    const char *fn = glr_cmd_name(k);
    bool named = form(k, GLR_FORM_NAMED);
    uint32_t name;
    if (named) {
        name = (uint32_t)call->args[0];
    } else {
        int ti = -1;
        switch ((uint32_t)call->args[0]) {
        case GL_ARRAY_BUFFER: ti = SM_BT_ARRAY; break;
        case GL_COPY_READ_BUFFER: ti = SM_BT_COPY_READ; break;
        case GL_COPY_WRITE_BUFFER: ti = SM_BT_COPY_WRITE; break;
        case GL_PIXEL_PACK_BUFFER: ti = SM_BT_PIXEL_PACK; break;
        case GL_PIXEL_UNPACK_BUFFER: ti = SM_BT_PIXEL_UNPACK; break;
        case GL_TEXTURE_BUFFER: ti = SM_BT_TEXTURE; break;
        case GL_DRAW_INDIRECT_BUFFER: ti = SM_BT_DRAW_INDIRECT; break;
        case GL_DISPATCH_INDIRECT_BUFFER: ti = SM_BT_DISPATCH_INDIRECT; break;
        case GL_QUERY_BUFFER: ti = SM_BT_QUERY; break;
        case GL_PARAMETER_BUFFER: ti = SM_BT_PARAMETER; break;
        case GL_UNIFORM_BUFFER: ti = SM_BT_UNIFORM; break;
        case GL_SHADER_STORAGE_BUFFER: ti = SM_BT_SHADER_STORAGE; break;
        case GL_ATOMIC_COUNTER_BUFFER: ti = SM_BT_ATOMIC_COUNTER; break;
        case GL_TRANSFORM_FEEDBACK_BUFFER: ti = SM_BT_TRANSFORM_FEEDBACK; break;
        default: break;
        }
        name = ti >= 0 ? sm_context_state(c)->buffer[ti] : 0;
        if (ti < 0 && (uint32_t)call->args[0] == GL_ELEMENT_ARRAY_BUFFER) {
            const struct sm_vao *vao = sm_get_vao(c, sm_context_state(c)->vao);
            name = vao ? vao->element_buffer : 0;
        }
    }
    uint64_t size;
    uint8_t *b = name ? buffer_bytes(c, name, &size, fn, ev) : NULL;
    if (!b)
        return;
    bool sub = form(k, GLR_FORM_SUB_DATA);
    uint64_t off = sub ? (uint64_t)arg_i(call, k, GLR_ROLE_offset, 0) : 0;
    uint64_t len = sub ? (uint64_t)arg_i(call, k, GLR_ROLE_size, 0) : size;
    gm_format fmt = gmf_format_from_gl(arg_u(call, k, GLR_ROLE_internalformat), 0);
    uint8_t v[16];
    int pd = gmf_cmd_param(k, GLR_ROLE_data);
    const char *why = fmt == GM_FMT_NONE ? "internal format not modelled"
                      : pd < 0 ? "no data parameter"
                               : clear_value(fmt, arg_u(call, k, GLR_ROLE_format), arg_u(call, k, GLR_ROLE_type),
                                             call->args[pd], &call->blobs[pd], v);
    size_t es = fmt == GM_FMT_NONE ? 1 : gm_format_get(fmt)->bytes;
    if (!why && (off > size || size - off < len || off % es || len % es))
        why = "range outside the buffer or not a multiple of the element size";
    if (why) {
        gmf_note(ev, "%s: %s", fn, why);
        return;
    }
    for (uint64_t p = off; p < off + len; p += es)
        memcpy(b + p, v, es);
}

/* ---- entry points from the runner ---- */

bool gmf_copy_replaces_apply(gmf_runner *r, const struct glr_call *call, uint32_t k,
                             gmf_event *ev)
{
    if (k != GLR_CMD_glClearBufferData && k != GLR_CMD_glClearBufferSubData &&
        k != GLR_CMD_glClearNamedBufferData && k != GLR_CMD_glClearNamedBufferSubData)
        return false;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return false;
    clear_buffer(r, c, call, k, ev);
    return true;
}

bool gmf_copy_handles(uint32_t k)
{
    return k < GLR_CMD_COUNT && (glr_cmds[k].flags & GLR_CF_GPU_COPY);   /* generated class */
}

void gmf_copy_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return;
    enum glr_gpu_copy_kind kind = glr_cmds[k].gpu_copy;   /* generated: glr_registry.h */
    if (kind == GLR_GPU_COPY_UPLOAD)
        upload(r, c, call, k, ev);
    else if (kind == GLR_GPU_COPY_COMPRESSED_UPLOAD)
        compressed_upload_check(c, call, k, ev);
    else if (kind == GLR_GPU_COPY_XFB_DRAW)
        gmf_note(ev, "%s (transform feedback not modelled)", glr_cmd_name(k));
    else if (k == GLR_CMD_glReadPixels || k == GLR_CMD_glReadnPixels)
        read_pixels(r, c, call, k, ev);
    else if (k == GLR_CMD_glGetTexImage || k == GLR_CMD_glGetnTexImage ||
             k == GLR_CMD_glGetTextureImage || k == GLR_CMD_glGetTextureSubImage)
        get_tex_image(r, c, call, k, ev);
    else if (kind == GLR_GPU_COPY_COPY_TEX)
        copy_tex(r, c, call, k, ev);
    else if (k == GLR_CMD_glCopyImageSubData)
        copy_image(r, c, call, ev);
    else if (k == GLR_CMD_glClearTexImage || k == GLR_CMD_glClearTexSubImage)
        clear_tex(r, c, call, k, ev);
}

/* Before the state model copies buffer contents (it does the copy itself): a source whose
 * contents are unknown makes the destination unknown too. */
void gmf_copy_before_apply(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    if (k < GLR_CMD_COUNT && upload_cmd(k) && form(k, GLR_FORM_SUB_IMAGE)) {
        /* the state model drops a kept whole image when a part of it changes: load it into the
         * model's texture first (glTexImage2D then glTexSubImage2D before any draw lost it) */
        const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
        int face;
        uint32_t name = c ? cmd_texture(c, call, k, &face) : 0;
        if (name && sm_get_texture(c, name))
            (void)gmf_tex_sync(r, c, name, ev);
        return;
    }
    if (k != GLR_CMD_glCopyBufferSubData && k != GLR_CMD_glCopyNamedBufferSubData)
        return;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return;
    uint32_t name = (uint32_t)call->args[0];
    if (k == GLR_CMD_glCopyBufferSubData) {
        uint32_t target = name;
        name = target == GL_COPY_READ_BUFFER ? sm_context_state(c)->buffer[SM_BT_COPY_READ]
               : target == GL_COPY_WRITE_BUFFER ? sm_context_state(c)->buffer[SM_BT_COPY_WRITE]
               : target == GL_ARRAY_BUFFER ? sm_context_state(c)->buffer[SM_BT_ARRAY]
               : target == GL_PIXEL_PACK_BUFFER ? sm_context_state(c)->buffer[SM_BT_PIXEL_PACK]
               : target == GL_PIXEL_UNPACK_BUFFER ? sm_context_state(c)->buffer[SM_BT_PIXEL_UNPACK]
               : target == GL_UNIFORM_BUFFER ? sm_context_state(c)->buffer[SM_BT_UNIFORM]
               : target == GL_SHADER_STORAGE_BUFFER ? sm_context_state(c)->buffer[SM_BT_SHADER_STORAGE]
               : target == GL_QUERY_BUFFER ? sm_context_state(c)->buffer[SM_BT_QUERY]
               : 0;
    }
    const struct sm_buffer *b = name ? sm_get_buffer(c, name) : NULL;
    if (!b || !b->data_known)
        gmf_note(ev, "%s: source buffer contents unknown", glr_cmd_name(k));
}
