/* Snapshot of the shared objects of the capturing context's share group, read back from the driver:
 * buffers (parameters, mapping, contents), textures (target, every level/face/layer with contents,
 * parameters), renderbuffers (storage), samplers (parameters), programs (uniform values, block
 * bindings). Shaders and link inputs come from the tracking state as they are. Each object is
 * written into the snapshot's state model as the calls that would have made it (captured names).
 * Every binding changed to read an object is put back. */
#include <stdio.h>
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "shim/snapshot_multisample.h"
#include "shim/snapshot_pbo.h"
#include "registry/glr_gl_enums.h"

static uint32_t *object_names(struct glr_snap *sn, enum sm_object_kind k, size_t *n)
{
    const struct sm_context *c = sm_context_get(sn->s, sn->ctx);
    *n = c ? sm_object_count(c, k) : 0;
    if (!*n)
        return NULL;
    uint32_t *names = malloc(*n * sizeof *names);
    if (!names) {
        *n = 0;
        return NULL;
    }
    *n = sm_object_names(c, k, names, *n);
    return names;
}

/* ---------------------------------------------------------------- buffers */

void glr_snap_buffers(struct glr_snap *sn)
{
    size_t n;
    uint32_t *names = object_names(sn, SM_OBJ_BUFFER, &n);
    if (!names)
        return;
    bool copy_read = glr_snap_has(sn, 3, 1, 3, 0);
    GLenum target = copy_read ? GL_COPY_READ_BUFFER : GL_ARRAY_BUFFER;
    GLint saved = 0;
    GLR_REAL(glGetIntegerv)(copy_read ? GL_COPY_READ_BUFFER_BINDING : GL_ARRAY_BUFFER_BINDING, &saved);
    bool i64 = glr_snap_has(sn, 3, 2, 3, 0);
    bool storage = glr_snap_has(sn, 4, 4, -1, 0);
    bool range = glr_snap_has(sn, 3, 0, 3, 0);
    for (size_t i = 0; i < n; i++) {
        GLuint name = names[i];
        if (!GLR_REAL(glIsBuffer)(name))
            continue;   /* generated, never bound: stays a bare name */
        GLR_REAL(glBindBuffer)(target, name);
        GLint64 size = 0, map_off = 0, map_len = 0;
        GLint usage = 0, immutable = 0, flags = 0, mapped = 0, access = 0;
        if (i64) {
            GLR_REAL(glGetBufferParameteri64v)(target, GL_BUFFER_SIZE, &size);
        } else {
            GLint s32 = 0;
            GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_SIZE, &s32);
            size = s32;
        }
        GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_USAGE, &usage);
        if (storage) {
            GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_IMMUTABLE_STORAGE, &immutable);
            if (immutable)
                GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_STORAGE_FLAGS, &flags);
        }
        if (!sn->es || sn->major >= 3)
            GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_MAPPED, &mapped);
        if (mapped && range && i64) {
            GLR_REAL(glGetBufferParameteriv)(target, GL_BUFFER_ACCESS_FLAGS, &access);
            GLR_REAL(glGetBufferParameteri64v)(target, GL_BUFFER_MAP_OFFSET, &map_off);
            GLR_REAL(glGetBufferParameteri64v)(target, GL_BUFFER_MAP_LENGTH, &map_len);
        }
        uint8_t *data = NULL;        /* the contents: owned (malloc) or the buffer's own mapping */
        bool via_map = false;
        bool readable = !mapped || (flags & GL_MAP_PERSISTENT_BIT);
        if (size > 0 && !mapped && range && glr_snap_map_buffers(sn) && (!immutable || (flags & GL_MAP_READ_BIT))) {
            /* Mapped for reading, the state model copies straight from the driver's memory: no
             * copy into fresh client memory first (issue 17 §5). Unmapped below. Immutable
             * storage made without GL_MAP_READ_BIT cannot be mapped: read below. */
            data = GLR_REAL(glMapBufferRange)(target, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
            via_map = data != NULL;
        }
        if (via_map) {
            /* read above */
        } else if (size > 0 && readable) {
            data = malloc((size_t)size);
            if (!data) {
                glr_snap_warn(sn, "buffer %u: no memory for its %lld bytes", name, (long long)size);
            } else if (!sn->es) {
                GLR_REAL(glGetBufferSubData)(target, 0, (GLsizeiptr)size, data);
            } else if (range) {
                const void *p = GLR_REAL(glMapBufferRange)(target, 0, (GLsizeiptr)size, GL_MAP_READ_BIT);
                if (p) {
                    memcpy(data, p, (size_t)size);
                    GLR_REAL(glUnmapBuffer)(target);
                } else {
                    free(data);
                    data = NULL;
                }
            } else {
                free(data);
                data = NULL;
            }
        } else if (size > 0) {
            glr_snap_warn(sn, "buffer %u is mapped (not persistently): its contents are not kept", name);
        }
        glr_snap_apply(sn, GLR_CMD_glBindBuffer, -1, NULL, 0, 2, SNAP_U(GL_ARRAY_BUFFER), SNAP_U(name));
        if (immutable)
            glr_snap_apply(sn, GLR_CMD_glBufferStorage, 2, data, data ? (uint64_t)size : 0, 4,
                           SNAP_U(GL_ARRAY_BUFFER), SNAP_U(size), SNAP_U(0), SNAP_U(flags));
        else
            glr_snap_apply(sn, GLR_CMD_glBufferData, 2, data, data ? (uint64_t)size : 0, 4,
                           SNAP_U(GL_ARRAY_BUFFER), SNAP_U(size), SNAP_U(0), SNAP_U(usage));
        if (mapped && access)
            glr_snap_apply(sn, GLR_CMD_glMapBufferRange, -1, NULL, 0, 4, SNAP_U(GL_ARRAY_BUFFER),
                           SNAP_U(map_off), SNAP_U(map_len), SNAP_U(access));
        if (data)
            sn->bytes_read += (uint64_t)size;
        if (via_map)
            GLR_REAL(glUnmapBuffer)(target);
        else
            free(data);
    }
    GLR_REAL(glBindBuffer)(target, (GLuint)saved);
    glr_snap_apply(sn, GLR_CMD_glBindBuffer, -1, NULL, 0, 2, SNAP_U(GL_ARRAY_BUFFER), SNAP_U(0));
    free(names);
}

/* ---------------------------------------------------------------- textures */

GLenum glr_snap_texture_binding(GLenum target)
{
    switch (target) {
    case GL_TEXTURE_1D: return GL_TEXTURE_BINDING_1D;
    case GL_TEXTURE_2D: return GL_TEXTURE_BINDING_2D;
    case GL_TEXTURE_3D: return GL_TEXTURE_BINDING_3D;
    case GL_TEXTURE_1D_ARRAY: return GL_TEXTURE_BINDING_1D_ARRAY;
    case GL_TEXTURE_2D_ARRAY: return GL_TEXTURE_BINDING_2D_ARRAY;
    case GL_TEXTURE_RECTANGLE: return GL_TEXTURE_BINDING_RECTANGLE;
    case GL_TEXTURE_CUBE_MAP: return GL_TEXTURE_BINDING_CUBE_MAP;
    case GL_TEXTURE_CUBE_MAP_ARRAY: return GL_TEXTURE_BINDING_CUBE_MAP_ARRAY;
    case GL_TEXTURE_BUFFER: return GL_TEXTURE_BINDING_BUFFER;
    case GL_TEXTURE_2D_MULTISAMPLE: return GL_TEXTURE_BINDING_2D_MULTISAMPLE;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY;
    case GL_TEXTURE_EXTERNAL_OES: return GL_TEXTURE_BINDING_EXTERNAL_OES;
    default: return 0;
    }
}

/* Targets the capturing context knows, in the order they are tried. */
static size_t context_targets(struct glr_snap *sn, GLenum *out)
{
    size_t k = 0;
    out[k++] = GL_TEXTURE_2D;
    out[k++] = GL_TEXTURE_CUBE_MAP;
    if (!sn->es)
        out[k++] = GL_TEXTURE_1D;
    if (glr_snap_has(sn, 1, 2, 3, 0))
        out[k++] = GL_TEXTURE_3D;
    if (glr_snap_has(sn, 3, 0, 3, 0))
        out[k++] = GL_TEXTURE_2D_ARRAY;
    if (glr_snap_has(sn, 3, 0, -1, 0))
        out[k++] = GL_TEXTURE_1D_ARRAY;
    if (glr_snap_has(sn, 3, 1, -1, 0))
        out[k++] = GL_TEXTURE_RECTANGLE;
    if (glr_snap_has(sn, 3, 1, 3, 2))
        out[k++] = GL_TEXTURE_BUFFER;
    if (glr_snap_has(sn, 4, 0, 3, 2))
        out[k++] = GL_TEXTURE_CUBE_MAP_ARRAY;
    if (glr_snap_has(sn, 3, 2, 3, 1))
        out[k++] = GL_TEXTURE_2D_MULTISAMPLE;
    if (glr_snap_has(sn, 3, 2, 3, 2))
        out[k++] = GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    return k;
}

/* The target a texture was first bound to: GL_TEXTURE_TARGET (GL 4.5), else by trying to bind it
 * (a wrong target raises GL_INVALID_OPERATION, drained here; the program's own pending error was
 * taken before the snapshot began). */
GLenum glr_snap_texture_target(struct glr_snap *sn, GLuint name)
{
    if (sn->dsa) {
        GLint t = 0;
        GLR_REAL(glGetTextureParameteriv)(name, GL_TEXTURE_TARGET, &t);
        if (glr_snap_texture_binding((GLenum)t))
            return (GLenum)t;
    }
    GLenum targets[16];
    size_t n = context_targets(sn, targets);
    while (GLR_REAL(glGetError)() != GL_NO_ERROR)
        ;
    for (size_t i = 0; i < n; i++) {
        GLint saved = 0;
        GLR_REAL(glGetIntegerv)(glr_snap_texture_binding(targets[i]), &saved);
        GLR_REAL(glBindTexture)(targets[i], name);
        bool ok = GLR_REAL(glGetError)() == GL_NO_ERROR;
        GLR_REAL(glBindTexture)(targets[i], (GLuint)saved);
        if (ok)
            return targets[i];
    }
    return 0;
}

static int target_dims(GLenum t)
{
    switch (t) {
    case GL_TEXTURE_1D: return 1;
    case GL_TEXTURE_3D: case GL_TEXTURE_2D_ARRAY: case GL_TEXTURE_CUBE_MAP_ARRAY:
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY: return 3;
    default: return 2;
    }
}

/* A client format/type that reads back (and uploads again) every bit of an internal format;
 * bytes per pixel in *bpp. false: not read back. */
static bool exact_transfer(GLenum ifmt, GLenum *format, GLenum *type, unsigned *bpp)
{
    uint32_t f, t;
    if (!sm_exact_transfer(ifmt, &f, &t, bpp))
        return false;
    *format = (GLenum)f;
    *type = (GLenum)t;
    return true;
}

/* ES has no glGetTexImage: colour images are read through a framebuffer. Formats read as RGBA
 * bytes (normalized 8-bit) or RGBA floats, then repacked to the texture's own components. */
static bool es_transfer(GLenum ifmt, GLenum *format, GLenum *type, unsigned *comps, bool *is_float)
{
    switch (ifmt) {
    case GL_RGBA8: case GL_RGBA: case GL_SRGB8_ALPHA8:
        *format = GL_RGBA; *type = GL_UNSIGNED_BYTE; *comps = 4; *is_float = false; return true;
    case GL_RGB8: case GL_RGB: case GL_SRGB8:
        *format = GL_RGB; *type = GL_UNSIGNED_BYTE; *comps = 3; *is_float = false; return true;
    case GL_RG8:
        *format = GL_RG; *type = GL_UNSIGNED_BYTE; *comps = 2; *is_float = false; return true;
    case GL_R8:
        *format = GL_RED; *type = GL_UNSIGNED_BYTE; *comps = 1; *is_float = false; return true;
    case GL_RGBA16F: case GL_RGBA32F:
        *format = GL_RGBA; *type = GL_FLOAT; *comps = 4; *is_float = true; return true;
    case GL_R16F: case GL_R32F:
        *format = GL_RED; *type = GL_FLOAT; *comps = 1; *is_float = true; return true;
    case GL_RG16F: case GL_RG32F:
        *format = GL_RG; *type = GL_FLOAT; *comps = 2; *is_float = true; return true;
    default:
        return false;
    }
}

struct es_reader {
    GLuint fbo;
    GLint saved_read_fbo;
};

static uint8_t *es_read_image(struct glr_snap *sn, struct es_reader *rd, GLuint tex, GLenum target, GLenum face,
                              int level, int w, int h, int layers, GLenum ifmt, GLenum *format, GLenum *type,
                              uint64_t *size)
{
    unsigned comps;
    bool is_float;
    if (!es_transfer(ifmt, format, type, &comps, &is_float))
        return NULL;
    if (!rd->fbo) {
        GLR_REAL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &rd->saved_read_fbo);
        GLR_REAL(glGenFramebuffers)(1, &rd->fbo);
        GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, rd->fbo);
    }
    unsigned src_px = is_float ? 16 : 4, dst_px = comps * (is_float ? 4 : 1);
    uint64_t layer_px = (uint64_t)w * (uint64_t)h;
    uint8_t *tmp = malloc(layer_px * src_px);
    uint8_t *out = malloc(layer_px * dst_px * (uint64_t)layers);
    if (!tmp || !out) {
        free(tmp);
        free(out);
        return NULL;
    }
    for (int l = 0; l < layers; l++) {
        if (target_dims(target) == 3)
            GLR_REAL(glFramebufferTextureLayer)(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, tex, level, l);
        else
            GLR_REAL(glFramebufferTexture2D)(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, face, tex, level);
        if (GLR_REAL(glCheckFramebufferStatus)(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            free(tmp);
            free(out);
            return NULL;
        }
        GLR_REAL(glReadPixels)(0, 0, w, h, GL_RGBA, is_float ? GL_FLOAT : GL_UNSIGNED_BYTE, tmp);
        uint8_t *dst = out + layer_px * dst_px * (uint64_t)l;
        for (uint64_t p = 0; p < layer_px; p++)
            memcpy(dst + p * dst_px, tmp + p * src_px, dst_px);
    }
    GLR_REAL(glFramebufferTexture2D)(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, 0, 0);
    free(tmp);
    *size = layer_px * dst_px * (uint64_t)layers;
    (void)sn;
    return out;
}

static void es_reader_end(struct es_reader *rd)
{
    if (!rd->fbo)
        return;
    GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)rd->saved_read_fbo);
    GLR_REAL(glDeleteFramebuffers)(1, &rd->fbo);
    rd->fbo = 0;
}

static void texture_params(struct glr_snap *sn, GLenum target)
{
    if (target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY ||
        target == GL_TEXTURE_BUFFER)
        return;   /* no sampler state */
    static const struct { GLenum pname; int gl_maj, gl_min, es_maj, es_min; } ints[] = {
        { GL_TEXTURE_MIN_FILTER, 1, 0, 2, 0 }, { GL_TEXTURE_MAG_FILTER, 1, 0, 2, 0 },
        { GL_TEXTURE_WRAP_S, 1, 0, 2, 0 }, { GL_TEXTURE_WRAP_T, 1, 0, 2, 0 },
        { GL_TEXTURE_WRAP_R, 1, 2, 3, 0 }, { GL_TEXTURE_COMPARE_MODE, 1, 4, 3, 0 },
        { GL_TEXTURE_COMPARE_FUNC, 1, 4, 3, 0 }, { GL_TEXTURE_BASE_LEVEL, 1, 2, 3, 0 },
        { GL_TEXTURE_MAX_LEVEL, 1, 2, 3, 0 }, { GL_TEXTURE_SWIZZLE_R, 3, 3, 3, 0 },
        { GL_TEXTURE_SWIZZLE_G, 3, 3, 3, 0 }, { GL_TEXTURE_SWIZZLE_B, 3, 3, 3, 0 },
        { GL_TEXTURE_SWIZZLE_A, 3, 3, 3, 0 }, { GL_DEPTH_STENCIL_TEXTURE_MODE, 4, 3, 3, 1 },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (!glr_snap_has(sn, ints[i].gl_maj, ints[i].gl_min, ints[i].es_maj, ints[i].es_min))
            continue;
        GLint v = 0;
        GLR_REAL(glGetTexParameteriv)(target, ints[i].pname, &v);
        glr_snap_apply(sn, GLR_CMD_glTexParameteri, -1, NULL, 0, 3, SNAP_U(target), SNAP_U(ints[i].pname),
                       SNAP_I(v));
    }
    if (!sn->es && !sn->core) {   /* GL_DEPTH_TEXTURE_MODE exists in compatibility contexts only */
        GLint v = GL_LUMINANCE;
        GLR_REAL(glGetTexParameteriv)(target, GL_DEPTH_TEXTURE_MODE, &v);
        if (v != GL_LUMINANCE)
            glr_snap_apply(sn, GLR_CMD_glTexParameteri, -1, NULL, 0, 3, SNAP_U(target),
                           SNAP_U(GL_DEPTH_TEXTURE_MODE), SNAP_I(v));
    }
    static const struct { GLenum pname; int gl_maj, gl_min, es_maj, es_min; } fl[] = {
        { GL_TEXTURE_MIN_LOD, 1, 2, 3, 0 }, { GL_TEXTURE_MAX_LOD, 1, 2, 3, 0 },
        { GL_TEXTURE_LOD_BIAS, 1, 4, -1, 0 }, { GL_TEXTURE_MAX_ANISOTROPY, 4, 6, -1, 0 },
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++) {
        bool aniso = fl[i].pname == GL_TEXTURE_MAX_ANISOTROPY;
        if (aniso ? !sn->aniso : !glr_snap_has(sn, fl[i].gl_maj, fl[i].gl_min, fl[i].es_maj, fl[i].es_min))
            continue;
        GLfloat v = 0;
        GLR_REAL(glGetTexParameterfv)(target, fl[i].pname, &v);
        glr_snap_apply(sn, GLR_CMD_glTexParameterf, -1, NULL, 0, 3, SNAP_U(target), SNAP_U(fl[i].pname), SNAP_F(v));
    }
    if (glr_snap_has(sn, 1, 0, 3, 2)) {
        GLfloat border[4] = { 0 };
        GLR_REAL(glGetTexParameterfv)(target, GL_TEXTURE_BORDER_COLOR, border);
        if (border[0] != 0 || border[1] != 0 || border[2] != 0 || border[3] != 0)
            glr_snap_apply(sn, GLR_CMD_glTexParameterfv, 2, border, sizeof border, 3, SNAP_U(target),
                           SNAP_U(GL_TEXTURE_BORDER_COLOR), SNAP_U(0));
    }
}

struct level_info {
    GLint w, h, d, ifmt, samples, fixed, compressed, csize;
};

static bool level_info(GLenum face, int level, struct level_info *li, bool ms, bool desktop)
{
    memset(li, 0, sizeof *li);
    GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_WIDTH, &li->w);
    if (li->w <= 0)
        return false;
    GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_HEIGHT, &li->h);
    GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_DEPTH, &li->d);
    GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_INTERNAL_FORMAT, &li->ifmt);
    if (ms) {
        GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_SAMPLES, &li->samples);
        GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_FIXED_SAMPLE_LOCATIONS, &li->fixed);
    }
    GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_COMPRESSED, &li->compressed);
    if (li->compressed && desktop)
        GLR_REAL(glGetTexLevelParameteriv)(face, level, GL_TEXTURE_COMPRESSED_IMAGE_SIZE, &li->csize);
    return true;
}

/* Defines one image in the model (glTexImage* without data, or compressed with its data). */
static void define_image(struct glr_snap *sn, GLenum target, GLenum face, int level, const struct level_info *li,
                         const void *cdata)
{
    int dims = target_dims(target);
    if (li->compressed) {
        if (dims == 1)
            glr_snap_apply(sn, GLR_CMD_glCompressedTexImage1D, 6, cdata, (uint64_t)li->csize, 7, SNAP_U(face),
                           SNAP_I(level), SNAP_U(li->ifmt), SNAP_I(li->w), SNAP_I(0), SNAP_I(li->csize), SNAP_U(0));
        else if (dims == 2)
            glr_snap_apply(sn, GLR_CMD_glCompressedTexImage2D, 7, cdata, (uint64_t)li->csize, 8, SNAP_U(face),
                           SNAP_I(level), SNAP_U(li->ifmt), SNAP_I(li->w), SNAP_I(li->h), SNAP_I(0),
                           SNAP_I(li->csize), SNAP_U(0));
        else
            glr_snap_apply(sn, GLR_CMD_glCompressedTexImage3D, 8, cdata, (uint64_t)li->csize, 9, SNAP_U(face),
                           SNAP_I(level), SNAP_U(li->ifmt), SNAP_I(li->w), SNAP_I(li->h), SNAP_I(li->d), SNAP_I(0),
                           SNAP_I(li->csize), SNAP_U(0));
        return;
    }
    GLenum format = GL_RGBA, type = GL_UNSIGNED_BYTE;
    unsigned bpp;
    exact_transfer((GLenum)li->ifmt, &format, &type, &bpp);
    if (dims == 1)
        glr_snap_apply(sn, GLR_CMD_glTexImage1D, -1, NULL, 0, 8, SNAP_U(face), SNAP_I(level), SNAP_I(li->ifmt),
                       SNAP_I(li->w), SNAP_I(0), SNAP_U(format), SNAP_U(type), SNAP_U(0));
    else if (dims == 2)
        glr_snap_apply(sn, GLR_CMD_glTexImage2D, -1, NULL, 0, 9, SNAP_U(face), SNAP_I(level), SNAP_I(li->ifmt),
                       SNAP_I(li->w), SNAP_I(li->h), SNAP_I(0), SNAP_U(format), SNAP_U(type), SNAP_U(0));
    else
        glr_snap_apply(sn, GLR_CMD_glTexImage3D, -1, NULL, 0, 10, SNAP_U(face), SNAP_I(level), SNAP_I(li->ifmt),
                       SNAP_I(li->w), SNAP_I(li->h), SNAP_I(li->d), SNAP_I(0), SNAP_U(format), SNAP_U(type),
                       SNAP_U(0));
}

static void texture_storage(struct glr_snap *sn, GLenum target, GLint levels, const struct level_info *b)
{
    switch (target) {
    case GL_TEXTURE_2D_MULTISAMPLE:
        glr_snap_apply(sn, GLR_CMD_glTexStorage2DMultisample, -1, NULL, 0, 6, SNAP_U(target), SNAP_I(b->samples),
                       SNAP_U(b->ifmt), SNAP_I(b->w), SNAP_I(b->h), SNAP_U(b->fixed));
        return;
    case GL_TEXTURE_2D_MULTISAMPLE_ARRAY:
        glr_snap_apply(sn, GLR_CMD_glTexStorage3DMultisample, -1, NULL, 0, 7, SNAP_U(target), SNAP_I(b->samples),
                       SNAP_U(b->ifmt), SNAP_I(b->w), SNAP_I(b->h), SNAP_I(b->d), SNAP_U(b->fixed));
        return;
    default:
        break;
    }
    int dims = target_dims(target);
    if (dims == 1)
        glr_snap_apply(sn, GLR_CMD_glTexStorage1D, -1, NULL, 0, 4, SNAP_U(target), SNAP_I(levels), SNAP_U(b->ifmt),
                       SNAP_I(b->w));
    else if (dims == 2)
        glr_snap_apply(sn, GLR_CMD_glTexStorage2D, -1, NULL, 0, 5, SNAP_U(target), SNAP_I(levels), SNAP_U(b->ifmt),
                       SNAP_I(b->w), SNAP_I(b->h));
    else
        glr_snap_apply(sn, GLR_CMD_glTexStorage3D, -1, NULL, 0, 6, SNAP_U(target), SNAP_I(levels), SNAP_U(b->ifmt),
                       SNAP_I(b->w), SNAP_I(b->h), SNAP_I(b->d));
}

/* `key`: the model's key of the object (sm_texture_key: the name, or a target's default texture). */
static void snap_texture(struct glr_snap *sn, GLuint name, uint32_t key, GLenum target, struct es_reader *rd,
                         struct glr_snap_pbo *pbo)
{
    GLint saved = 0;
    GLR_REAL(glGetIntegerv)(glr_snap_texture_binding(target), &saved);
    GLR_REAL(glBindTexture)(target, name);
    glr_snap_apply(sn, GLR_CMD_glBindTexture, -1, NULL, 0, 2, SNAP_U(target), SNAP_U(name));
    if (target == GL_TEXTURE_BUFFER) {
        GLint buf = 0, fmt = 0, off = 0, size = 0;
        GLR_REAL(glGetTexLevelParameteriv)(target, 0, GL_TEXTURE_BUFFER_DATA_STORE_BINDING, &buf);
        GLR_REAL(glGetTexLevelParameteriv)(target, 0, GL_TEXTURE_INTERNAL_FORMAT, &fmt);
        GLR_REAL(glGetTexLevelParameteriv)(target, 0, GL_TEXTURE_BUFFER_OFFSET, &off);
        GLR_REAL(glGetTexLevelParameteriv)(target, 0, GL_TEXTURE_BUFFER_SIZE, &size);
        if (buf)
            glr_snap_apply(sn, GLR_CMD_glTexBufferRange, -1, NULL, 0, 5, SNAP_U(target), SNAP_U(fmt), SNAP_U(buf),
                           SNAP_U(off), SNAP_U(size));
        GLR_REAL(glBindTexture)(target, (GLuint)saved);
        return;
    }
    bool ms = target == GL_TEXTURE_2D_MULTISAMPLE || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
    GLint immutable = 0, imm_levels = 0;
    if (glr_snap_has(sn, 4, 2, 3, 0))
        GLR_REAL(glGetTexParameteriv)(target, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    if (immutable && !ms)
        GLR_REAL(glGetTexParameteriv)(target, GL_TEXTURE_IMMUTABLE_LEVELS, &imm_levels);
    bool cube = target == GL_TEXTURE_CUBE_MAP;
    int faces = cube ? 6 : 1;
    bool storage_done = false;
    /* Levels that exist for this target (asking beyond them is an error): log2(max size) + 1. */
    GLint max_size = 0;
    GLR_REAL(glGetIntegerv)(target == GL_TEXTURE_3D ? GL_MAX_3D_TEXTURE_SIZE
                            : cube || target == GL_TEXTURE_CUBE_MAP_ARRAY ? GL_MAX_CUBE_MAP_TEXTURE_SIZE
                                                                          : GL_MAX_TEXTURE_SIZE, &max_size);
    int max_levels = 1;
    while (max_levels < SM_MAX_LEVELS && (max_size >> max_levels) > 0)
        max_levels++;
    if (ms || target == GL_TEXTURE_RECTANGLE)
        max_levels = 1;
    struct glr_snap_pack pack;
    glr_snap_pack_begin(sn, &pack);
    for (int f = 0; f < faces; f++) {
        GLenum face = cube ? GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f : target;
        for (int level = 0; level < max_levels; level++) {
            struct level_info li;
            if (!level_info(face, level, &li, ms, !sn->es))
                continue;
            uint8_t *cdata = NULL;
            if (li.compressed && li.csize > 0 && !sn->es) {
                cdata = malloc((size_t)li.csize);
                if (cdata)
                    GLR_REAL(glGetCompressedTexImage)(face, level, cdata);
            } else if (li.compressed) {
                glr_snap_warn(sn, "texture %u: compressed images cannot be read back on ES; not kept", name);
            }
            if (immutable) {
                if (!storage_done)
                    texture_storage(sn, target, imm_levels, &li);
                storage_done = true;
            } else if (ms) {
                if (target == GL_TEXTURE_2D_MULTISAMPLE)
                    glr_snap_apply(sn, GLR_CMD_glTexImage2DMultisample, -1, NULL, 0, 6, SNAP_U(target),
                                   SNAP_I(li.samples), SNAP_U(li.ifmt), SNAP_I(li.w), SNAP_I(li.h), SNAP_U(li.fixed));
                else
                    glr_snap_apply(sn, GLR_CMD_glTexImage3DMultisample, -1, NULL, 0, 7, SNAP_U(target),
                                   SNAP_I(li.samples), SNAP_U(li.ifmt), SNAP_I(li.w), SNAP_I(li.h), SNAP_I(li.d),
                                   SNAP_U(li.fixed));
            } else {
                define_image(sn, target, face, level, &li, cdata);
            }
            if (ms) {   /* every sample: snapshot_multisample.c */
                glr_snap_ms_texture(sn, name, target, li.w, li.h, target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY ? li.d : 1,
                                    (GLenum)li.ifmt, li.samples);
                continue;
            }
            if (li.compressed) {
                if (cdata && immutable)
                    sm_set_texture_image_data(sn->s, sn->ctx, key, f, level, 0, 0, 1, cdata, (uint64_t)li.csize);
                if (cdata)
                    sn->bytes_read += (uint64_t)li.csize;
                free(cdata);
                continue;
            }
            GLenum format, type;
            unsigned bpp;
            uint8_t *data = NULL;
            uint64_t size = 0;
            int layers = target_dims(target) == 3 ? li.d : 1;
            if (!sn->es && exact_transfer((GLenum)li.ifmt, &format, &type, &bpp)) {
                size = (uint64_t)li.w * (uint64_t)(li.h ? li.h : 1) * (uint64_t)(li.d ? li.d : 1) * bpp;
                /* Into a pixel buffer object, collected later (snapshot_pbo.c); else synchronously. */
                if (glr_snap_pbo_read(sn, pbo, key, f, face, level, format, type, size))
                    continue;
                data = malloc((size_t)size);
                if (data)
                    GLR_REAL(glGetTexImage)(face, level, format, type, data);
            } else if (sn->es) {
                data = es_read_image(sn, rd, name, target, face, level, li.w, li.h, layers, (GLenum)li.ifmt, &format,
                                     &type, &size);
            }
            if (data && size) {
                if (!sm_set_texture_image_data(sn->s, sn->ctx, key, f, level, format, type, 1, data, size))
                    glr_snap_warn(sn, "texture %u level %d: the model refused its contents", name, level);
                sn->bytes_read += size;
            } else {
                glr_snap_warn(sn, "texture %u level %d (format 0x%04x): contents not read back", name, level,
                              (unsigned)li.ifmt);
            }
            free(data);
        }
    }
    glr_snap_pack_end(sn, &pack);
    texture_params(sn, target);
    GLR_REAL(glBindTexture)(target, (GLuint)saved);
}

/* The model's index of a target that has a default texture able to hold images (-1: none). */
static int default_texture_index(GLenum target)
{
    int i = sm_tex_target_index(target);
    bool images = i >= 0 && i != SM_TT_BUFFER && i != SM_TT_2D_MULTISAMPLE &&
                  i != SM_TT_2D_MULTISAMPLE_ARRAY && i != SM_TT_EXTERNAL_OES;
    return images ? i : -1;
}

/* Images a program gave texture name 0 (each target's default texture) before the capture: GL 1.0
 * programs do that (xscreensaver's atlantis: its sea texture, sampled through texgen). Only
 * targets whose level 0 (or a cube face's) is defined are kept. */
static void snap_default_textures(struct glr_snap *sn, struct es_reader *rd, struct glr_snap_pbo *pbo)
{
    GLenum targets[16];
    size_t n = context_targets(sn, targets);
    for (size_t i = 0; i < n; i++) {
        int ti = default_texture_index(targets[i]);
        if (ti < 0)
            continue;
        GLint saved = 0, w = 0;
        GLR_REAL(glGetIntegerv)(glr_snap_texture_binding(targets[i]), &saved);
        GLR_REAL(glBindTexture)(targets[i], 0);
        GLR_REAL(glGetTexLevelParameteriv)(targets[i] == GL_TEXTURE_CUBE_MAP ? GL_TEXTURE_CUBE_MAP_POSITIVE_X
                                                                             : targets[i], 0, GL_TEXTURE_WIDTH, &w);
        GLR_REAL(glBindTexture)(targets[i], (GLuint)saved);
        if (w <= 0)
            continue;
        snap_texture(sn, 0, sm_texture_key(0, ti), targets[i], rd, pbo);
        glr_snap_apply(sn, GLR_CMD_glBindTexture, -1, NULL, 0, 2, SNAP_U(targets[i]), SNAP_U(0));
    }
}

void glr_snap_textures(struct glr_snap *sn)
{
    size_t n;
    uint32_t *names = object_names(sn, SM_OBJ_TEXTURE, &n);   /* NULL: none (default textures still may have images) */
    /* Reads use the active unit; GL_TEXTURE0 keeps the model's unit 0 in step. */
    GLint active = GL_TEXTURE0;
    GLR_REAL(glGetIntegerv)(GL_ACTIVE_TEXTURE, &active);
    if (active != GL_TEXTURE0)
        GLR_REAL(glActiveTexture)(GL_TEXTURE0);
    struct es_reader rd = { 0 };
    struct glr_snap_pbo pbo;
    glr_snap_pbo_begin(sn, &pbo);
    for (size_t i = 0; i < n; i++) {
        if (!GLR_REAL(glIsTexture)(names[i]))
            continue;   /* generated, never bound */
        GLenum target = glr_snap_texture_target(sn, names[i]);
        if (!glr_snap_texture_binding(target)) {
            glr_snap_warn(sn, "texture %u: target not found; kept as a bare name", names[i]);
            continue;
        }
        snap_texture(sn, names[i], names[i], target, &rd, &pbo);
        glr_snap_apply(sn, GLR_CMD_glBindTexture, -1, NULL, 0, 2, SNAP_U(target), SNAP_U(0));
    }
    snap_default_textures(sn, &rd, &pbo);
    glr_snap_pbo_end(sn, &pbo);
    es_reader_end(&rd);
    if (active != GL_TEXTURE0)
        GLR_REAL(glActiveTexture)((GLenum)active);
    free(names);
}

/* ---------------------------------------------------------------- renderbuffers, samplers */

/* The attachment point and blit kind of a renderbuffer format. */
static GLenum rb_attachment(GLenum fmt)
{
    switch (fmt) {
    case GL_DEPTH_COMPONENT16: case GL_DEPTH_COMPONENT24: case GL_DEPTH_COMPONENT32: case GL_DEPTH_COMPONENT32F:
    case GL_DEPTH_COMPONENT:
        return GL_DEPTH_ATTACHMENT;
    case GL_DEPTH24_STENCIL8: case GL_DEPTH32F_STENCIL8: case GL_DEPTH_STENCIL:
        return GL_DEPTH_STENCIL_ATTACHMENT;
    case GL_STENCIL_INDEX8: case GL_STENCIL_INDEX:
        return GL_STENCIL_ATTACHMENT;
    default:
        return GL_COLOR_ATTACHMENT0;
    }
}

/* A single-sample renderbuffer's pixels, read through a temporary framebuffer (RESOURCE_BLOB kind 3,
 * put back by replay/restore.c with a blit). Multisample ones: snapshot_multisample.c (kind 5). */
static void renderbuffer_contents(struct glr_snap *sn, GLuint rb, GLint w, GLint h, GLenum fmt)
{
    GLenum format, type;
    unsigned bpp;
    GLenum att = rb_attachment(fmt);
    if (sn->es) {
        if (fmt != GL_RGBA8)
            return;   /* ES reads back RGBA bytes from normalized colour buffers only */
        format = GL_RGBA;
        type = GL_UNSIGNED_BYTE;
        bpp = 4;
    } else if (fmt == GL_STENCIL_INDEX8) {
        format = GL_STENCIL_INDEX;
        type = GL_UNSIGNED_BYTE;
        bpp = 1;
    } else if (!exact_transfer(fmt, &format, &type, &bpp)) {
        glr_snap_warn(sn, "renderbuffer %u (format 0x%04x): contents not read back", rb, (unsigned)fmt);
        return;
    }
    uint64_t size = (uint64_t)w * (uint64_t)h * bpp;
    uint8_t *px = malloc((size_t)size);
    if (!px)
        return;
    GLint saved_read = 0;
    GLuint fbo = 0;
    GLR_REAL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &saved_read);
    GLR_REAL(glGenFramebuffers)(1, &fbo);
    GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, fbo);
    GLR_REAL(glFramebufferRenderbuffer)(GL_READ_FRAMEBUFFER, att, GL_RENDERBUFFER, rb);
    if (att != GL_COLOR_ATTACHMENT0)
        GLR_REAL(glReadBuffer)(GL_NONE);
    bool ok = GLR_REAL(glCheckFramebufferStatus)(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
    if (ok) {
        struct glr_snap_pack pack;
        glr_snap_pack_begin(sn, &pack);
        GLR_REAL(glReadPixels)(0, 0, w, h, format, type, px);
        glr_snap_pack_end(sn, &pack);
    }
    GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)saved_read);
    GLR_REAL(glDeleteFramebuffers)(1, &fbo);
    struct glr_snap_blob b = { .kind = GLR_SNAP_BLOB_RENDERBUFFER, .ctx_id = sn->ctx, .name = rb,
                               .width = (uint32_t)w, .height = (uint32_t)h, .internal_format = fmt,
                               .format = format, .type = type, .data = px, .size = size };
    if (!ok || !glr_snap_add_blob(sn, &b)) {
        free(px);
        return;
    }
    sn->bytes_read += size;
}

void glr_snap_renderbuffers(struct glr_snap *sn)
{
    size_t n;
    uint32_t *names = object_names(sn, SM_OBJ_RENDERBUFFER, &n);
    if (!names)
        return;
    GLint saved = 0;
    GLR_REAL(glGetIntegerv)(GL_RENDERBUFFER_BINDING, &saved);
    for (size_t i = 0; i < n; i++) {
        if (!GLR_REAL(glIsRenderbuffer)(names[i]))
            continue;
        GLR_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, names[i]);
        GLint w = 0, h = 0, fmt = 0, samples = 0;
        GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &w);
        GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &h);
        GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &fmt);
        if (glr_snap_has(sn, 3, 0, 3, 0))
            GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
        glr_snap_apply(sn, GLR_CMD_glBindRenderbuffer, -1, NULL, 0, 2, SNAP_U(GL_RENDERBUFFER), SNAP_U(names[i]));
        if (w > 0 && h > 0)
            glr_snap_apply(sn, GLR_CMD_glRenderbufferStorageMultisample, -1, NULL, 0, 5, SNAP_U(GL_RENDERBUFFER),
                           SNAP_I(samples), SNAP_U(fmt), SNAP_I(w), SNAP_I(h));
        if (w > 0 && h > 0 && w <= 16384 && h <= 16384 && samples == 0)
            renderbuffer_contents(sn, names[i], w, h, (GLenum)fmt);
        else if (w > 0 && h > 0 && samples > 0)   /* every sample: snapshot_multisample.c */
            glr_snap_ms_renderbuffer(sn, names[i], w, h, (GLenum)fmt, samples);
    }
    GLR_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, (GLuint)saved);
    glr_snap_apply(sn, GLR_CMD_glBindRenderbuffer, -1, NULL, 0, 2, SNAP_U(GL_RENDERBUFFER), SNAP_U(0));
    free(names);
}

void glr_snap_samplers(struct glr_snap *sn)
{
    size_t n;
    uint32_t *names = object_names(sn, SM_OBJ_SAMPLER, &n);
    if (!names)
        return;
    static const GLenum ints[] = { GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_TEXTURE_WRAP_S, GL_TEXTURE_WRAP_T,
                                   GL_TEXTURE_WRAP_R, GL_TEXTURE_COMPARE_MODE, GL_TEXTURE_COMPARE_FUNC };
    static const GLenum fl[] = { GL_TEXTURE_MIN_LOD, GL_TEXTURE_MAX_LOD };
    for (size_t i = 0; i < n; i++) {
        if (!GLR_REAL(glIsSampler)(names[i]))
            continue;
        for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
            GLint v = 0;
            GLR_REAL(glGetSamplerParameteriv)(names[i], ints[k], &v);
            glr_snap_apply(sn, GLR_CMD_glSamplerParameteri, -1, NULL, 0, 3, SNAP_U(names[i]), SNAP_U(ints[k]),
                           SNAP_I(v));
        }
        for (size_t k = 0; k < sizeof fl / sizeof fl[0]; k++) {
            GLfloat v = 0;
            GLR_REAL(glGetSamplerParameterfv)(names[i], fl[k], &v);
            glr_snap_apply(sn, GLR_CMD_glSamplerParameterf, -1, NULL, 0, 3, SNAP_U(names[i]), SNAP_U(fl[k]),
                           SNAP_F(v));
        }
        if (!sn->es) {
            GLfloat v = 0;
            GLR_REAL(glGetSamplerParameterfv)(names[i], GL_TEXTURE_LOD_BIAS, &v);
            glr_snap_apply(sn, GLR_CMD_glSamplerParameterf, -1, NULL, 0, 3, SNAP_U(names[i]),
                           SNAP_U(GL_TEXTURE_LOD_BIAS), SNAP_F(v));
        }
        if (sn->aniso) {
            GLfloat v = 1;
            GLR_REAL(glGetSamplerParameterfv)(names[i], GL_TEXTURE_MAX_ANISOTROPY, &v);
            glr_snap_apply(sn, GLR_CMD_glSamplerParameterf, -1, NULL, 0, 3, SNAP_U(names[i]),
                           SNAP_U(GL_TEXTURE_MAX_ANISOTROPY), SNAP_F(v));
        }
        if (glr_snap_has(sn, 1, 0, 3, 2)) {
            GLfloat border[4] = { 0 };
            GLR_REAL(glGetSamplerParameterfv)(names[i], GL_TEXTURE_BORDER_COLOR, border);
            if (border[0] != 0 || border[1] != 0 || border[2] != 0 || border[3] != 0)
                glr_snap_apply(sn, GLR_CMD_glSamplerParameterfv, 2, border, sizeof border, 3, SNAP_U(names[i]),
                               SNAP_U(GL_TEXTURE_BORDER_COLOR), SNAP_U(0));
        }
    }
    free(names);
}

/* ---------------------------------------------------------------- programs */

/* Component kind, columns and rows of a uniform type; false for types with no value here. */
static bool uniform_shape(GLenum type, int *kind, int *cols, int *rows)
{
    *cols = 1;
    switch (type) {
    case GL_FLOAT: *kind = SM_VK_FLOAT; *rows = 1; return true;
    case GL_FLOAT_VEC2: *kind = SM_VK_FLOAT; *rows = 2; return true;
    case GL_FLOAT_VEC3: *kind = SM_VK_FLOAT; *rows = 3; return true;
    case GL_FLOAT_VEC4: *kind = SM_VK_FLOAT; *rows = 4; return true;
    case GL_DOUBLE: *kind = SM_VK_DOUBLE; *rows = 1; return true;
    case GL_DOUBLE_VEC2: *kind = SM_VK_DOUBLE; *rows = 2; return true;
    case GL_DOUBLE_VEC3: *kind = SM_VK_DOUBLE; *rows = 3; return true;
    case GL_DOUBLE_VEC4: *kind = SM_VK_DOUBLE; *rows = 4; return true;
    case GL_INT: case GL_BOOL: *kind = SM_VK_INT; *rows = 1; return true;
    case GL_INT_VEC2: case GL_BOOL_VEC2: *kind = SM_VK_INT; *rows = 2; return true;
    case GL_INT_VEC3: case GL_BOOL_VEC3: *kind = SM_VK_INT; *rows = 3; return true;
    case GL_INT_VEC4: case GL_BOOL_VEC4: *kind = SM_VK_INT; *rows = 4; return true;
    case GL_UNSIGNED_INT: *kind = SM_VK_UINT; *rows = 1; return true;
    case GL_UNSIGNED_INT_VEC2: *kind = SM_VK_UINT; *rows = 2; return true;
    case GL_UNSIGNED_INT_VEC3: *kind = SM_VK_UINT; *rows = 3; return true;
    case GL_UNSIGNED_INT_VEC4: *kind = SM_VK_UINT; *rows = 4; return true;
    case GL_FLOAT_MAT2: *kind = SM_VK_FLOAT; *cols = 2; *rows = 2; return true;
    case GL_FLOAT_MAT3: *kind = SM_VK_FLOAT; *cols = 3; *rows = 3; return true;
    case GL_FLOAT_MAT4: *kind = SM_VK_FLOAT; *cols = 4; *rows = 4; return true;
    case GL_FLOAT_MAT2x3: *kind = SM_VK_FLOAT; *cols = 2; *rows = 3; return true;
    case GL_FLOAT_MAT2x4: *kind = SM_VK_FLOAT; *cols = 2; *rows = 4; return true;
    case GL_FLOAT_MAT3x2: *kind = SM_VK_FLOAT; *cols = 3; *rows = 2; return true;
    case GL_FLOAT_MAT3x4: *kind = SM_VK_FLOAT; *cols = 3; *rows = 4; return true;
    case GL_FLOAT_MAT4x2: *kind = SM_VK_FLOAT; *cols = 4; *rows = 2; return true;
    case GL_FLOAT_MAT4x3: *kind = SM_VK_FLOAT; *cols = 4; *rows = 3; return true;
    case GL_DOUBLE_MAT2: *kind = SM_VK_DOUBLE; *cols = 2; *rows = 2; return true;
    case GL_DOUBLE_MAT3: *kind = SM_VK_DOUBLE; *cols = 3; *rows = 3; return true;
    case GL_DOUBLE_MAT4: *kind = SM_VK_DOUBLE; *cols = 4; *rows = 4; return true;
    default:
        break;
    }
    /* Samplers, images and atomic counters: an int (the unit or binding). The GLSL opaque type
     * names lie in these runs of the registry (uvec2-4 inside the second run are handled above). */
    if ((type >= GL_SAMPLER_1D && type <= GL_SAMPLER_2D_RECT_SHADOW) ||
        (type >= GL_SAMPLER_1D_ARRAY && type <= GL_UNSIGNED_INT_SAMPLER_BUFFER) ||
        (type >= GL_SAMPLER_2D_MULTISAMPLE && type <= GL_UNSIGNED_INT_SAMPLER_2D_MULTISAMPLE_ARRAY) ||
        (type >= GL_IMAGE_1D && type <= GL_UNSIGNED_INT_IMAGE_2D_MULTISAMPLE_ARRAY) ||
        (type >= GL_SAMPLER_CUBE_MAP_ARRAY && type <= GL_UNSIGNED_INT_SAMPLER_CUBE_MAP_ARRAY) ||
        type == GL_SAMPLER_EXTERNAL_OES || type == GL_UNSIGNED_INT_ATOMIC_COUNTER) {
        *kind = SM_VK_INT;
        *rows = 1;
        return true;
    }
    return false;
}

static uint32_t program_uniform_cmd(int kind, int cols, int rows)
{
    static const char *const sfx[] = { "f", "i", "ui", "d" };
    char name[48];
    if (cols == 1)
        snprintf(name, sizeof name, "glProgramUniform%d%sv", rows, sfx[kind]);
    else if (cols == rows)
        snprintf(name, sizeof name, "glProgramUniformMatrix%d%sv", cols, sfx[kind]);
    else
        snprintf(name, sizeof name, "glProgramUniformMatrix%dx%d%sv", cols, rows, sfx[kind]);
    int id = glr_cmd_find(name);
    return id < 0 ? GLR_CMD_COUNT : (uint32_t)id;
}

static void snap_uniform(struct glr_snap *sn, GLuint prog, const char *name, GLint loc, GLenum type)
{
    int kind, cols, rows;
    if (!uniform_shape(type, &kind, &cols, &rows))
        return;
    uint32_t cmd = program_uniform_cmd(kind, cols, rows);
    if (cmd >= GLR_CMD_COUNT)
        return;
    union { GLfloat f[16]; GLint i[16]; GLuint u[16]; GLdouble d[16]; } v;
    memset(&v, 0, sizeof v);
    switch (kind) {
    case SM_VK_FLOAT: GLR_REAL(glGetUniformfv)(prog, loc, v.f); break;
    case SM_VK_INT: GLR_REAL(glGetUniformiv)(prog, loc, v.i); break;
    case SM_VK_UINT: GLR_REAL(glGetUniformuiv)(prog, loc, v.u); break;
    default: GLR_REAL(glGetUniformdv)(prog, loc, v.d); break;
    }
    uint64_t size = (uint64_t)cols * (uint64_t)rows * (kind == SM_VK_DOUBLE ? 8 : 4);
    if (cols == 1)
        glr_snap_apply(sn, cmd, 3, &v, size, 4, SNAP_U(prog), SNAP_I(loc), SNAP_I(1), SNAP_U(0));
    else
        glr_snap_apply(sn, cmd, 4, &v, size, 5, SNAP_U(prog), SNAP_I(loc), SNAP_I(1), SNAP_U(0), SNAP_U(0));
    /* The name -> location the program could ask for: lets the state queries show names. */
    glr_snap_apply_ret(sn, GLR_CMD_glGetUniformLocation, SNAP_I(loc), 1, name, strlen(name) + 1, 2, SNAP_U(prog),
                       SNAP_U(0));
}

/* A block's name, kept as the query that maps it to its index: the program asked for it before
 * the capture (or never: a binding set with layout(binding)), and the GPU model matches the
 * blocks it compiles to the driver's indices by name. */
static void snap_block_name(struct glr_snap *sn, GLuint prog, GLuint index, bool storage)
{
    char name[256];
    GLsizei len = 0;
    if (storage)
        GLR_REAL(glGetProgramResourceName)(prog, GL_SHADER_STORAGE_BLOCK, index, (GLsizei)sizeof name, &len, name);
    else
        GLR_REAL(glGetActiveUniformBlockName)(prog, index, (GLsizei)sizeof name, &len, name);
    if (len <= 0 || (size_t)len >= sizeof name)
        return;   /* a longer name than any real program's: the model then says it guessed */
    name[len] = 0;
    if (storage)
        glr_snap_apply_ret(sn, GLR_CMD_glGetProgramResourceIndex, index, 2, name, (uint64_t)len + 1, 3, SNAP_U(prog),
                           SNAP_U(GL_SHADER_STORAGE_BLOCK), SNAP_U(0));
    else
        glr_snap_apply_ret(sn, GLR_CMD_glGetUniformBlockIndex, index, 1, name, (uint64_t)len + 1, 2, SNAP_U(prog),
                           SNAP_U(0));
}

static void snap_program(struct glr_snap *sn, GLuint prog)
{
    GLint linked = 0, count = 0, maxlen = 0;
    GLR_REAL(glGetProgramiv)(prog, GL_LINK_STATUS, &linked);
    if (!linked)
        return;
    GLR_REAL(glGetProgramiv)(prog, GL_ACTIVE_UNIFORMS, &count);
    GLR_REAL(glGetProgramiv)(prog, GL_ACTIVE_UNIFORM_MAX_LENGTH, &maxlen);
    if (maxlen < 1)
        maxlen = 1;
    char *name = malloc((size_t)maxlen + 16), *elem = malloc((size_t)maxlen + 32);
    if (!name || !elem) {
        free(name);
        free(elem);
        return;
    }
    for (GLint i = 0; i < count; i++) {
        GLsizei len = 0;
        GLint size = 0;
        GLenum type = 0;
        GLR_REAL(glGetActiveUniform)(prog, (GLuint)i, maxlen, &len, &size, &type, name);
        name[len > 0 ? len : 0] = 0;
        char *br = strstr(name, "[0]");
        if (br && br[3] == 0)
            *br = 0;   /* an array: its elements by index */
        for (GLint e = 0; e < size && e < 4096; e++) {
            if (size > 1 || br)
                snprintf(elem, (size_t)maxlen + 32, "%s[%d]", name, e);
            else
                snprintf(elem, (size_t)maxlen + 32, "%s", name);
            GLint loc = GLR_REAL(glGetUniformLocation)(prog, elem);
            if (loc < 0)
                break;   /* a block member or an inactive element */
            snap_uniform(sn, prog, elem, loc, type);
        }
    }
    free(name);
    free(elem);
    if (glr_snap_has(sn, 3, 1, 3, 0)) {
        GLint blocks = 0;
        GLR_REAL(glGetProgramiv)(prog, GL_ACTIVE_UNIFORM_BLOCKS, &blocks);
        for (GLint b = 0; b < blocks; b++) {
            GLint binding = 0;
            GLR_REAL(glGetActiveUniformBlockiv)(prog, (GLuint)b, GL_UNIFORM_BLOCK_BINDING, &binding);
            glr_snap_apply(sn, GLR_CMD_glUniformBlockBinding, -1, NULL, 0, 3, SNAP_U(prog), SNAP_U(b),
                           SNAP_U(binding));
            snap_block_name(sn, prog, (GLuint)b, false);
        }
    }
    if (glr_snap_has(sn, 4, 3, 3, 1)) {
        GLint blocks = 0;
        GLR_REAL(glGetProgramInterfaceiv)(prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &blocks);
        for (GLint b = 0; b < blocks; b++) {
            GLenum prop = GL_BUFFER_BINDING;
            GLint binding = 0;
            GLR_REAL(glGetProgramResourceiv)(prog, GL_SHADER_STORAGE_BLOCK, (GLuint)b, 1, &prop, 1, NULL, &binding);
            glr_snap_apply(sn, GLR_CMD_glShaderStorageBlockBinding, -1, NULL, 0, 3, SNAP_U(prog), SNAP_U(b),
                           SNAP_U(binding));
            snap_block_name(sn, prog, (GLuint)b, true);
        }
    }
}

void glr_snap_programs(struct glr_snap *sn)
{
    size_t n;
    uint32_t *names = object_names(sn, SM_OBJ_PROGRAM, &n);
    if (!names)
        return;
    for (size_t i = 0; i < n; i++)
        if (GLR_REAL(glIsProgram)(names[i]))
            snap_program(sn, names[i]);
    free(names);
}
