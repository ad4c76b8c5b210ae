/* Restore calls for the shared objects of a share group: buffers, textures, renderbuffers,
 * samplers, shaders, programs (with link inputs, link and uniform values), syncs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_restore.h"
#include "statemodel/sm_blob.h"

/* Iterates a map's objects in name order. */
#define FOR_SORTED(map, type, var, body)                                  \
    do {                                                                  \
        size_t n_;                                                        \
        uint32_t *k_ = sm_map_sorted_keys(&(map), &n_);                   \
        for (size_t i_ = 0; i_ < n_; i_++) {                              \
            const type *var = sm_map_get(&(map), k_[i_]);                 \
            body;                                                         \
        }                                                                 \
        free(k_);                                                         \
    } while (0)

static void gen_name(struct rs *r, uint32_t cmd, uint32_t name)
{
    struct glr_call *c = rs_emit(r, cmd, 2, U(1), U(0));
    rs_blob_own(r, c, 1, &name, 4);
}

/* ------------------------------------------------------------------ buffers */

static void restore_buffer(struct rs *r, const struct sm_buffer *b)
{
    gen_name(r, GLR_CMD_glGenBuffers, b->name);
    if (!b->first_target)
        return;
    /* Bind to the target it was first bound to (drivers may use it as a placement hint). The
     * indexed-only targets are bound through their generic binding point. */
    uint32_t target = b->first_target;
    if (target != GL_ELEMENT_ARRAY_BUFFER && sm_buffer_target_index(target) < 0)
        target = GL_ARRAY_BUFFER;
    rs_emit(r, GLR_CMD_glBindBuffer, 2, U(target), U(b->name));
    const void *data = b->data_known ? b->data : NULL;
    struct glr_call *c = NULL;
    if (b->immutable)
        c = rs_emit(r, GLR_CMD_glBufferStorage, 4, U(target), U(b->size), U(0),
                    U(b->storage_flags));
    else if (b->usage)
        c = rs_emit(r, GLR_CMD_glBufferData, 4, U(target), U(b->size), U(0), U(b->usage));
    rs_blob_ref(c, 2, data, b->size);
    if (c && b->mapped) {
        /* The replayer maps it again; what was written through the mapping is in the stream. */
        rs_emit(r, GLR_CMD_glMapBufferRange, 4, U(target), U(b->map_offset), U(b->map_length),
                U(b->map_access));
    }
    rs_emit(r, GLR_CMD_glBindBuffer, 2, U(target), U(0));
}

/* ------------------------------------------------------------------ textures */

/* A client format/type valid for an internal format, for images defined without data. */
static void transfer_for(uint32_t ifmt, uint32_t *format, uint32_t *type)
{
    *format = GL_RGBA;
    *type = GL_UNSIGNED_BYTE;
    switch (ifmt) {
    case GL_DEPTH_COMPONENT: case GL_DEPTH_COMPONENT16: case GL_DEPTH_COMPONENT24:
    case GL_DEPTH_COMPONENT32: case GL_DEPTH_COMPONENT32F:
        *format = GL_DEPTH_COMPONENT;
        *type = ifmt == GL_DEPTH_COMPONENT32F ? GL_FLOAT :
                ifmt == GL_DEPTH_COMPONENT16 ? GL_UNSIGNED_SHORT : GL_UNSIGNED_INT;
        return;
    case GL_DEPTH_STENCIL: case GL_DEPTH24_STENCIL8:
        *format = GL_DEPTH_STENCIL;
        *type = GL_UNSIGNED_INT_24_8;
        return;
    case GL_DEPTH32F_STENCIL8:
        *format = GL_DEPTH_STENCIL;
        *type = GL_FLOAT_32_UNSIGNED_INT_24_8_REV;
        return;
    case GL_STENCIL_INDEX8:
        *format = GL_STENCIL_INDEX;
        return;
    case GL_R8: case GL_RED: *format = GL_RED; return;
    case GL_RG8: case GL_RG: *format = GL_RG; return;
    case GL_RGB8: case GL_RGB: case GL_SRGB8: *format = GL_RGB; return;
    case GL_R16F: case GL_R32F: *format = GL_RED; *type = GL_FLOAT; return;
    case GL_RG16F: case GL_RG32F: *format = GL_RG; *type = GL_FLOAT; return;
    case GL_RGB16F: case GL_RGB32F: case GL_R11F_G11F_B10F: *format = GL_RGB; *type = GL_FLOAT; return;
    case GL_RGBA16F: case GL_RGBA32F: *type = GL_FLOAT; return;
    case GL_R8I: case GL_R16I: case GL_R32I: *format = GL_RED_INTEGER; *type = GL_INT; return;
    case GL_R8UI: case GL_R16UI: case GL_R32UI: *format = GL_RED_INTEGER; *type = GL_UNSIGNED_INT; return;
    case GL_RG8I: case GL_RG16I: case GL_RG32I: *format = GL_RG_INTEGER; *type = GL_INT; return;
    case GL_RG8UI: case GL_RG16UI: case GL_RG32UI: *format = GL_RG_INTEGER; *type = GL_UNSIGNED_INT; return;
    case GL_RGBA8I: case GL_RGBA16I: case GL_RGBA32I: *format = GL_RGBA_INTEGER; *type = GL_INT; return;
    case GL_RGBA8UI: case GL_RGBA16UI: case GL_RGBA32UI: case GL_RGB10_A2UI:
        *format = GL_RGBA_INTEGER;
        *type = GL_UNSIGNED_INT;
        return;
    default:
        return;
    }
}

static int target_dims(uint32_t t)
{
    switch (t) {
    case GL_TEXTURE_1D: return 1;
    case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return 3;
    default: return 2;
    }
}

static void pixel_alignment(struct rs *r, int32_t *cur, int32_t want)
{
    if (want && want != *cur) {
        rs_emit(r, GLR_CMD_glPixelStorei, 2, U(GL_UNPACK_ALIGNMENT), I(want));
        *cur = want;
    }
}

static void tex_params(struct rs *r, uint32_t cmd_i, uint32_t cmd_f, uint32_t cmd_fv,
                       uint32_t cmd_iiv, uint32_t cmd_iuiv, uint32_t obj,
                       const struct sm_sampling *p, bool texture)
{
    struct sm_sampling d;
    uint32_t t = texture ? obj : 0;
    sm_sampling_defaults(&d, t == GL_TEXTURE_RECTANGLE || t == GL_TEXTURE_EXTERNAL_OES);
    struct { uint32_t pname, v, dv; } ints[] = {
        { GL_TEXTURE_MIN_FILTER, p->min_filter, d.min_filter },
        { GL_TEXTURE_MAG_FILTER, p->mag_filter, d.mag_filter },
        { GL_TEXTURE_WRAP_S, p->wrap_s, d.wrap_s },
        { GL_TEXTURE_WRAP_T, p->wrap_t, d.wrap_t },
        { GL_TEXTURE_WRAP_R, p->wrap_r, d.wrap_r },
        { GL_TEXTURE_COMPARE_MODE, p->compare_mode, d.compare_mode },
        { GL_TEXTURE_COMPARE_FUNC, p->compare_func, d.compare_func },
        { GL_TEXTURE_SRGB_DECODE_EXT, p->srgb_decode, d.srgb_decode },
        { GL_TEXTURE_BASE_LEVEL, (uint32_t)p->base_level, (uint32_t)d.base_level },
        { GL_TEXTURE_MAX_LEVEL, (uint32_t)p->max_level, (uint32_t)d.max_level },
        { GL_TEXTURE_SWIZZLE_R, p->swizzle[0], d.swizzle[0] },
        { GL_TEXTURE_SWIZZLE_G, p->swizzle[1], d.swizzle[1] },
        { GL_TEXTURE_SWIZZLE_B, p->swizzle[2], d.swizzle[2] },
        { GL_TEXTURE_SWIZZLE_A, p->swizzle[3], d.swizzle[3] },
        { GL_DEPTH_STENCIL_TEXTURE_MODE, p->depth_stencil_mode, d.depth_stencil_mode },
        { GL_DEPTH_TEXTURE_MODE, p->depth_texture_mode, d.depth_texture_mode },
    };
    for (size_t i = 0; i < sizeof ints / sizeof *ints; i++) {
        if (!texture && i >= 8)
            break;   /* levels, swizzle, depth-stencil mode are texture-only */
        if (ints[i].v != ints[i].dv)
            rs_emit(r, cmd_i, 3, U(obj), U(ints[i].pname), I((int32_t)ints[i].v));
    }
    struct { uint32_t pname; float v, dv; } fl[] = {
        { GL_TEXTURE_MIN_LOD, p->min_lod, d.min_lod },
        { GL_TEXTURE_MAX_LOD, p->max_lod, d.max_lod },
        { GL_TEXTURE_LOD_BIAS, p->lod_bias, d.lod_bias },
        { GL_TEXTURE_MAX_ANISOTROPY, p->max_anisotropy, d.max_anisotropy },
    };
    for (size_t i = 0; i < sizeof fl / sizeof *fl; i++)
        if (fl[i].v != fl[i].dv)
            rs_emit(r, cmd_f, 3, U(obj), U(fl[i].pname), F(fl[i].v));
    if (memcmp(p->border, d.border, sizeof p->border) || p->border_kind != d.border_kind) {
        uint32_t cmd = p->border_kind == SM_VK_INT ? cmd_iiv :
                       p->border_kind == SM_VK_UINT ? cmd_iuiv : cmd_fv;
        struct glr_call *c = rs_emit(r, cmd, 3, U(obj), U(GL_TEXTURE_BORDER_COLOR), U(0));
        rs_blob_own(r, c, 2, p->border, 16);
    }
}

static void tex_image_call(struct rs *r, const struct sm_texture *t, uint32_t target, int level,
                           const struct sm_tex_image *im, int32_t *align)
{
    int dims = target_dims(t->target);
    if (t->target == GL_TEXTURE_2D_MULTISAMPLE || t->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY) {
        if (dims == 3)
            rs_emit(r, GLR_CMD_glTexImage3DMultisample, 7, U(target), I(im->samples),
                    U(im->internal_format), I(im->width), I(im->height), I(im->depth),
                    U(im->fixed_sample_locations));
        else
            rs_emit(r, GLR_CMD_glTexImage2DMultisample, 6, U(target), I(im->samples),
                    U(im->internal_format), I(im->width), I(im->height),
                    U(im->fixed_sample_locations));
        return;
    }
    if (im->data)
        pixel_alignment(r, align, im->data_alignment);
    struct glr_call *c;
    if (im->compressed) {
        if (!im->data)
            return;   /* a compressed image needs its data; none known */
        if (dims == 1)
            c = rs_emit(r, GLR_CMD_glCompressedTexImage1D, 7, U(target), I(level),
                        U(im->internal_format), I(im->width), I(0), I(im->data_size), U(0));
        else if (dims == 2)
            c = rs_emit(r, GLR_CMD_glCompressedTexImage2D, 8, U(target), I(level),
                        U(im->internal_format), I(im->width), I(im->height), I(0),
                        I(im->data_size), U(0));
        else
            c = rs_emit(r, GLR_CMD_glCompressedTexImage3D, 9, U(target), I(level),
                        U(im->internal_format), I(im->width), I(im->height), I(im->depth), I(0),
                        I(im->data_size), U(0));
        rs_blob_ref(c, dims + 5, im->data, im->data_size);
        return;
    }
    uint32_t format = im->data_format, type = im->data_type;
    if (!im->data)
        transfer_for(im->internal_format, &format, &type);
    if (dims == 1)
        c = rs_emit(r, GLR_CMD_glTexImage1D, 8, U(target), I(level), U(im->internal_format),
                    I(im->width), I(0), U(format), U(type), U(0));
    else if (dims == 2)
        c = rs_emit(r, GLR_CMD_glTexImage2D, 9, U(target), I(level), U(im->internal_format),
                    I(im->width), I(im->height), I(0), U(format), U(type), U(0));
    else
        c = rs_emit(r, GLR_CMD_glTexImage3D, 10, U(target), I(level), U(im->internal_format),
                    I(im->width), I(im->height), I(im->depth), I(0), U(format), U(type), U(0));
    rs_blob_ref(c, dims + 6, im->data, im->data_size);
}

static void tex_sub_image_call(struct rs *r, const struct sm_texture *t, uint32_t target,
                               int level, const struct sm_tex_image *im, int32_t *align)
{
    int dims = target_dims(t->target);
    if (!im->data)
        return;
    pixel_alignment(r, align, im->data_alignment);
    struct glr_call *c;
    int blob;
    if (im->compressed) {
        if (dims == 1)
            c = rs_emit(r, GLR_CMD_glCompressedTexSubImage1D, 7, U(target), I(level), I(0),
                        I(im->width), U(im->internal_format), I(im->data_size), U(0));
        else if (dims == 2)
            c = rs_emit(r, GLR_CMD_glCompressedTexSubImage2D, 9, U(target), I(level), I(0), I(0),
                        I(im->width), I(im->height), U(im->internal_format), I(im->data_size),
                        U(0));
        else
            c = rs_emit(r, GLR_CMD_glCompressedTexSubImage3D, 11, U(target), I(level), I(0), I(0),
                        I(0), I(im->width), I(im->height), I(im->depth), U(im->internal_format),
                        I(im->data_size), U(0));
        blob = dims == 1 ? 6 : dims == 2 ? 8 : 10;
    } else {
        if (dims == 1)
            c = rs_emit(r, GLR_CMD_glTexSubImage1D, 7, U(target), I(level), I(0), I(im->width),
                        U(im->data_format), U(im->data_type), U(0));
        else if (dims == 2)
            c = rs_emit(r, GLR_CMD_glTexSubImage2D, 9, U(target), I(level), I(0), I(0),
                        I(im->width), I(im->height), U(im->data_format), U(im->data_type), U(0));
        else
            c = rs_emit(r, GLR_CMD_glTexSubImage3D, 11, U(target), I(level), I(0), I(0), I(0),
                        I(im->width), I(im->height), I(im->depth), U(im->data_format),
                        U(im->data_type), U(0));
        blob = dims == 1 ? 6 : dims == 2 ? 8 : 10;
    }
    rs_blob_ref(c, blob, im->data, im->data_size);
}

static void restore_texture(struct rs *r, const struct sm_texture *t, int32_t *align)
{
    /* a target's default texture (sm_texture_key) is bound as name 0, never generated */
    uint32_t name = t->name >= SM_DEFAULT_TEXTURE_KEY ? 0 : t->name;
    if (name)
        gen_name(r, GLR_CMD_glGenTextures, name);
    if (!t->target)
        return;
    rs_emit(r, GLR_CMD_glBindTexture, 2, U(t->target), U(name));
    bool cube = t->target == GL_TEXTURE_CUBE_MAP;
    int faces = cube ? 6 : 1;
    if (t->target == GL_TEXTURE_BUFFER) {
        if (t->buffer && (t->buffer_offset || t->buffer_size))
            rs_emit(r, GLR_CMD_glTexBufferRange, 5, U(GL_TEXTURE_BUFFER), U(t->buffer_format),
                    U(t->buffer), U(t->buffer_offset), U(t->buffer_size));
        else if (t->buffer)
            rs_emit(r, GLR_CMD_glTexBuffer, 3, U(GL_TEXTURE_BUFFER), U(t->buffer_format),
                    U(t->buffer));
    } else if (t->immutable) {
        const struct sm_tex_image *b = &t->image[0][0];
        int dims = target_dims(t->target);
        bool ms = t->target == GL_TEXTURE_2D_MULTISAMPLE ||
                  t->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
        if (ms && dims == 3)
            rs_emit(r, GLR_CMD_glTexStorage3DMultisample, 7, U(t->target), I(b->samples),
                    U(b->internal_format), I(b->width), I(b->height), I(b->depth),
                    U(b->fixed_sample_locations));
        else if (ms)
            rs_emit(r, GLR_CMD_glTexStorage2DMultisample, 6, U(t->target), I(b->samples),
                    U(b->internal_format), I(b->width), I(b->height),
                    U(b->fixed_sample_locations));
        else if (dims == 1)
            rs_emit(r, GLR_CMD_glTexStorage1D, 4, U(t->target), I(t->immutable_levels),
                    U(b->internal_format), I(b->width));
        else if (dims == 2)
            rs_emit(r, GLR_CMD_glTexStorage2D, 5, U(t->target), I(t->immutable_levels),
                    U(b->internal_format), I(b->width), I(b->height));
        else
            rs_emit(r, GLR_CMD_glTexStorage3D, 6, U(t->target), I(t->immutable_levels),
                    U(b->internal_format), I(b->width), I(b->height), I(b->depth));
        for (int f = 0; f < faces; f++)
            for (int l = 0; l < SM_MAX_LEVELS; l++)
                if (t->image[f][l].defined && !t->image[f][l].generated)
                    tex_sub_image_call(r, t, cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (uint32_t)f
                                                  : t->target, l, &t->image[f][l], align);
    } else {
        for (int f = 0; f < faces; f++)
            for (int l = 0; l < SM_MAX_LEVELS; l++)
                if (t->image[f][l].defined && !t->image[f][l].generated)
                    tex_image_call(r, t, cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (uint32_t)f
                                              : t->target, l, &t->image[f][l], align);
    }
    /* Parameters before glGenerateMipmap: base/max level decide which levels it makes. */
    tex_params(r, GLR_CMD_glTexParameteri, GLR_CMD_glTexParameterf, GLR_CMD_glTexParameterfv,
               GLR_CMD_glTexParameterIiv, GLR_CMD_glTexParameterIuiv, t->target, &t->params, true);
    bool generated = false;
    for (int f = 0; f < faces; f++)
        for (int l = 0; l < SM_MAX_LEVELS; l++)
            generated |= t->image[f][l].defined && t->image[f][l].generated;
    if (generated)
        rs_emit(r, GLR_CMD_glGenerateMipmap, 1, U(t->target));
    rs_emit(r, GLR_CMD_glBindTexture, 2, U(t->target), U(0));
}

/* ------------------------------------------------------------------ shaders and programs */

/* A SPIR-V shader: glShaderBinary with its module, then glSpecializeShader with the entry
 * point and constants it was specialized with (specialize: it was; GL_ARB_gl_spirv). */
static void shader_binary(struct rs *r, uint32_t name, const struct sm_spirv *s, bool specialize)
{
    struct glr_call *c = rs_emit(r, GLR_CMD_glShaderBinary, 5, I(1), U(0),
                                 U(GL_SHADER_BINARY_FORMAT_SPIR_V), U(0), I(s->size));
    rs_blob_own(r, c, 1, &name, 4);
    rs_blob_own(r, c, 3, s->binary, s->size);
    if (!specialize || !s->entry)
        return;
    c = rs_emit(r, GLR_CMD_glSpecializeShader, 5, U(name), U(0), U(s->n_spec), U(0), U(0));
    rs_blob_own(r, c, 1, s->entry, strlen(s->entry) + 1);
    if (s->n_spec) {
        rs_blob_own(r, c, 3, s->spec_ids, (uint64_t)s->n_spec * 4);
        rs_blob_own(r, c, 4, s->spec_values, (uint64_t)s->n_spec * 4);
    }
}

static void create_shader(struct rs *r, uint32_t name, uint32_t type, const char *source,
                          const struct sm_spirv *spirv, bool compile)
{
    struct glr_call *c = rs_emit(r, GLR_CMD_glCreateShader, 1, U(type));
    if (c) {
        c->ret = name;
        c->flags |= GLR_CALL_HAS_RET;
    }
    if (spirv && spirv->binary) {
        shader_binary(r, name, spirv, compile);
        return;
    }
    if (source) {
        /* One string, in the string-array layout the dispatcher reads (sm_blob.h); no `length`
         * blob: the strings blob carries the lengths. */
        size_t size;
        uint8_t *blob = sm_strings_encode(&source, 1, &size);
        if (!blob) {
            r->l->failed = true;
            return;
        }
        c = rs_emit(r, GLR_CMD_glShaderSource, 4, U(name), I(1), U(0), U(0));
        rs_blob_own(r, c, 2, blob, size);
        free(blob);
    }
    if (compile)
        rs_emit(r, GLR_CMD_glCompileShader, 1, U(name));
}

/* The program's current attachments are exactly the shaders it was linked with. */
static bool attachments_match_link(const struct sm_share_group *g, const struct sm_program *p)
{
    if (p->n_attached != p->n_linked)
        return false;
    for (uint32_t i = 0; i < p->n_attached; i++) {
        const struct sm_shader *sh = sm_map_get(&g->shaders, p->attached[i]);
        if (!sh || !sh->compiled || sh->type != p->linked[i].type ||
            strcmp(sh->source ? sh->source : "", p->linked[i].source ? p->linked[i].source : "") ||
            !sm_spirv_equal(sh->spirv, p->linked[i].spirv))
            return false;
    }
    return true;
}

static uint32_t uniform_cmd(const struct sm_uniform *u)
{
    static const char *const sfx[] = { "f", "i", "ui", "d", "i64", "ui64" };
    char name[48];
    if (u->cols == 1)
        snprintf(name, sizeof name, "glUniform%u%sv%s", u->rows, sfx[u->kind],
                 u->kind >= SM_VK_INT64 ? "ARB" : "");
    else if (u->cols == u->rows)
        snprintf(name, sizeof name, "glUniformMatrix%u%sv", u->cols, sfx[u->kind]);
    else
        snprintf(name, sizeof name, "glUniformMatrix%ux%u%sv", u->cols, u->rows, sfx[u->kind]);
    int id = glr_cmd_find(name);
    return id < 0 ? GLR_CMD_COUNT : (uint32_t)id;
}

static size_t uniform_size(const struct sm_uniform *u)
{
    bool wide = u->kind == SM_VK_DOUBLE || u->kind == SM_VK_INT64 || u->kind == SM_VK_UINT64;
    return (size_t)u->cols * u->rows * (wide ? 8 : 4);
}

static void restore_program(struct rs *r, const struct sm_share_group *g, const struct sm_program *p)
{
    struct glr_call *c = rs_emit(r, GLR_CMD_glCreateProgram, 0);
    if (c) {
        c->ret = p->name;
        c->flags |= GLR_CALL_HAS_RET;
    }
    for (uint32_t i = 0; i < p->n_attrib_bindings; i++) {
        c = rs_emit(r, GLR_CMD_glBindAttribLocation, 3, U(p->name), U(p->attrib_bindings[i].index), U(0));
        rs_blob_own(r, c, 2, p->attrib_bindings[i].name, strlen(p->attrib_bindings[i].name) + 1);
    }
    for (uint32_t i = 0; i < p->n_frag_bindings; i++) {
        const struct sm_name_binding *b = &p->frag_bindings[i];
        if (b->index2)
            c = rs_emit(r, GLR_CMD_glBindFragDataLocationIndexed, 4, U(p->name), U(b->index),
                        U(b->index2), U(0));
        else
            c = rs_emit(r, GLR_CMD_glBindFragDataLocation, 3, U(p->name), U(b->index), U(0));
        rs_blob_own(r, c, b->index2 ? 3 : 2, b->name, strlen(b->name) + 1);
    }
    if (p->n_tf_varyings) {
        size_t size;
        uint8_t *names = sm_strings_encode((const char *const *)p->tf_varyings, p->n_tf_varyings,
                                           &size);
        if (!names) {
            r->l->failed = true;
            return;
        }
        c = rs_emit(r, GLR_CMD_glTransformFeedbackVaryings, 4, U(p->name), I(p->n_tf_varyings),
                    U(0), U(p->tf_buffer_mode));
        rs_blob_own(r, c, 2, names, size);
        free(names);
    }
    if (p->separable)
        rs_emit(r, GLR_CMD_glProgramParameteri, 3, U(p->name), U(GL_PROGRAM_SEPARABLE), I(1));
    if (p->binary_retrievable)
        rs_emit(r, GLR_CMD_glProgramParameteri, 3, U(p->name),
                U(GL_PROGRAM_BINARY_RETRIEVABLE_HINT), I(1));
    if (p->link_count && !p->n_linked && p->binary) {
        /* Loaded from a binary whose sources are not known: load it again (the replaying driver
         * must be the one that made it); then the attachments as they are. */
        c = rs_emit(r, GLR_CMD_glProgramBinary, 4, U(p->name), U(p->binary_format), U(0), I((int32_t)p->binary_size));
        rs_blob_own(r, c, 2, p->binary, p->binary_size);
        for (uint32_t i = 0; i < p->n_attached; i++)
            rs_emit(r, GLR_CMD_glAttachShader, 2, U(p->name), U(p->attached[i]));
    } else if (p->link_count) {
        if (attachments_match_link(g, p)) {
            for (uint32_t i = 0; i < p->n_attached; i++)
                rs_emit(r, GLR_CMD_glAttachShader, 2, U(p->name), U(p->attached[i]));
            rs_emit(r, GLR_CMD_glLinkProgram, 1, U(p->name));
        } else {
            /* Link from temporary shaders holding the sources as they were at link time. */
            uint32_t first = r->temp_name;
            for (uint32_t i = 0; i < p->n_linked; i++) {
                create_shader(r, r->temp_name, p->linked[i].type, p->linked[i].source,
                              p->linked[i].spirv, true);
                rs_emit(r, GLR_CMD_glAttachShader, 2, U(p->name), U(r->temp_name));
                r->temp_name++;
            }
            rs_emit(r, GLR_CMD_glLinkProgram, 1, U(p->name));
            for (uint32_t t = first; t < r->temp_name; t++) {
                rs_emit(r, GLR_CMD_glDetachShader, 2, U(p->name), U(t));
                rs_emit(r, GLR_CMD_glDeleteShader, 1, U(t));
            }
            for (uint32_t i = 0; i < p->n_attached; i++)
                rs_emit(r, GLR_CMD_glAttachShader, 2, U(p->name), U(p->attached[i]));
        }
    } else {
        for (uint32_t i = 0; i < p->n_attached; i++)
            rs_emit(r, GLR_CMD_glAttachShader, 2, U(p->name), U(p->attached[i]));
    }
    for (uint32_t i = 0; i < p->n_ubo_bindings; i++)
        rs_emit(r, GLR_CMD_glUniformBlockBinding, 3, U(p->name), U(p->ubo_bindings[i].index),
                U(p->ubo_bindings[i].index2));
    for (uint32_t i = 0; i < p->n_ssbo_bindings; i++)
        rs_emit(r, GLR_CMD_glShaderStorageBlockBinding, 3, U(p->name),
                U(p->ssbo_bindings[i].index), U(p->ssbo_bindings[i].index2));
    /* The block names it was asked for or the snapshot read (after the link, like the names). */
    for (uint32_t i = 0; i < p->n_block_names; i++) {
        const struct sm_name_binding *nb = &p->block_names[i];
        c = nb->index2 ? rs_emit(r, GLR_CMD_glGetProgramResourceIndex, 3, U(p->name), U(GL_SHADER_STORAGE_BLOCK), U(0))
                       : rs_emit(r, GLR_CMD_glGetUniformBlockIndex, 2, U(p->name), U(0));
        if (c) {
            c->ret = nb->index;
            c->flags |= GLR_CALL_HAS_RET;
        }
        rs_blob_own(r, c, nb->index2 ? 2 : 1, nb->name, strlen(nb->name) + 1);
    }
    /* The uniform names the program was asked for (they reset at link, so after it). */
    for (uint32_t i = 0; i < p->n_uniform_names; i++) {
        c = rs_emit(r, GLR_CMD_glGetUniformLocation, 2, U(p->name), U(0));
        if (c) {
            c->ret = p->uniform_names[i].index;
            c->flags |= GLR_CALL_HAS_RET;
        }
        rs_blob_own(r, c, 1, p->uniform_names[i].name, strlen(p->uniform_names[i].name) + 1);
    }
    if (p->n_uniforms) {
        rs_emit(r, GLR_CMD_glUseProgram, 1, U(p->name));
        for (uint32_t i = 0; i < p->n_uniforms; i++) {
            const struct sm_uniform *u = &p->uniforms[i];
            uint32_t cmd = uniform_cmd(u);
            if (cmd == GLR_CMD_COUNT)
                continue;
            if (u->cols > 1) {
                c = rs_emit(r, cmd, 4, I(u->location), I(1), U(0), U(0));
                rs_blob_own(r, c, 3, u->data, uniform_size(u));
            } else {
                c = rs_emit(r, cmd, 3, I(u->location), I(1), U(0));
                rs_blob_own(r, c, 2, u->data, uniform_size(u));
            }
        }
        rs_emit(r, GLR_CMD_glUseProgram, 1, U(0));
    }
}

/* ------------------------------------------------------------------ the group */

void rs_shared_objects(struct rs *r, const struct sm_share_group *g)
{
    int32_t align = 4;
    /* Object uploads assume default unpack state; the context's own values come last. */
    rs_emit(r, GLR_CMD_glPixelStorei, 2, U(GL_UNPACK_ALIGNMENT), I(4));
    rs_emit(r, GLR_CMD_glActiveTexture, 1, U(GL_TEXTURE0));
    FOR_SORTED(g->buffers, struct sm_buffer, b, restore_buffer(r, b));
    FOR_SORTED(g->textures, struct sm_texture, t, restore_texture(r, t, &align));
    if (align != 4)
        rs_emit(r, GLR_CMD_glPixelStorei, 2, U(GL_UNPACK_ALIGNMENT), I(4));
    FOR_SORTED(g->renderbuffers, struct sm_renderbuffer, rb, {
        gen_name(r, GLR_CMD_glGenRenderbuffers, rb->name);
        if (rb->created) {
            rs_emit(r, GLR_CMD_glBindRenderbuffer, 2, U(GL_RENDERBUFFER), U(rb->name));
            if (rb->width && rb->height && rb->samples)
                rs_emit(r, GLR_CMD_glRenderbufferStorageMultisample, 5, U(GL_RENDERBUFFER),
                        I(rb->samples), U(rb->internal_format), I(rb->width), I(rb->height));
            else if (rb->width && rb->height)
                rs_emit(r, GLR_CMD_glRenderbufferStorage, 4, U(GL_RENDERBUFFER),
                        U(rb->internal_format), I(rb->width), I(rb->height));
            rs_emit(r, GLR_CMD_glBindRenderbuffer, 2, U(GL_RENDERBUFFER), U(0));
        }
    });
    FOR_SORTED(g->samplers, struct sm_sampler, s, {
        gen_name(r, GLR_CMD_glGenSamplers, s->name);
        tex_params(r, GLR_CMD_glSamplerParameteri, GLR_CMD_glSamplerParameterf,
                   GLR_CMD_glSamplerParameterfv, GLR_CMD_glSamplerParameterIiv,
                   GLR_CMD_glSamplerParameterIuiv, s->name, &s->params, false);
    });
    /* Temporary shader names go above every captured shader/program name. */
    uint32_t maxname = 0;
    FOR_SORTED(g->shaders, struct sm_shader, sh, if (sh->name > maxname) maxname = sh->name);
    FOR_SORTED(g->programs, struct sm_program, p, if (p->name > maxname) maxname = p->name);
    r->temp_name = maxname + 1;
    FOR_SORTED(g->shaders, struct sm_shader, sh,
               create_shader(r, sh->name, sh->type, sh->source, sh->spirv, sh->compiled));
    FOR_SORTED(g->programs, struct sm_program, p, restore_program(r, g, p));
    rs_arb_programs(r, g);   /* sm_restore_arb.c */
    for (uint32_t i = 0; i < g->n_syncs; i++) {
        struct glr_call *c = rs_emit(r, GLR_CMD_glFenceSync, 2, U(GL_SYNC_GPU_COMMANDS_COMPLETE),
                                     U(0));
        if (c) {
            c->ret = g->syncs[i].handle;
            c->flags |= GLR_CALL_HAS_RET;
        }
    }
}

/* After every context is restored: deletions that were pending at capture time. */
void rs_shared_finish(struct rs *r, const struct sm_share_group *g)
{
    FOR_SORTED(g->shaders, struct sm_shader, sh,
               if (sh->delete_pending) rs_emit(r, GLR_CMD_glDeleteShader, 1, U(sh->name)));
    FOR_SORTED(g->programs, struct sm_program, p,
               if (p->delete_pending) rs_emit(r, GLR_CMD_glDeleteProgram, 1, U(p->name)));
}
