/* Snapshot of the capturing context: its vertex arrays (attribute layout, buffers, divisors,
 * element buffer), framebuffers (attachments, draw/read buffers) and its state (bindings, viewport,
 * scissor, enables, blend, depth, stencil, clear values, rasterization, pixel store, hints, current
 * vertex attributes), read back and written into the snapshot's model as the calls that set them.
 * Contexts not current on the capturing thread keep the tracking state's defaults
 * (docs/GLCAP_FORMAT.md, INITIAL_STATE). */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "registry/glr_gl_enums.h"

#define APPLY0(cmd, n, ...) glr_snap_apply(sn, GLR_CMD_##cmd, -1, NULL, 0, n, __VA_ARGS__)

static GLint get_int(GLenum pname)
{
    GLint v = 0;
    GLR_REAL(glGetIntegerv)(pname, &v);
    return v;
}

static uint32_t *context_names(struct glr_snap *sn, enum sm_object_kind k, size_t *n)
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

/* ---------------------------------------------------------------- vertex arrays */

/* Vertex arrays set up with separate formats and bindings (GL 4.3 / ES 3.1: glVertexAttribFormat,
 * glVertexAttribBinding, glBindVertexBuffer) where an attribute reads another binding index or has
 * a relative offset: written as those calls. Returns false (nothing written) for the classic layout,
 * which glVertexAttribPointer describes exactly. */
/* A double attribute set with glVertexAttribL* (64-bit values reach the shader) rather than one
 * converted to float: GL_VERTEX_ATTRIB_ARRAY_LONG (desktop GL 4.1). */
static bool attrib_is_long(struct glr_snap *sn, GLuint i, GLint type)
{
    GLint is_long = 0;
    if (type != GL_DOUBLE || !glr_snap_has(sn, 4, 1, -1, 0))
        return false;
    GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_LONG, &is_long);
    return is_long != 0;
}

static bool vao_separate_format(struct glr_snap *sn, GLint max)
{
    bool separate = false;
    for (GLint i = 0; i < max && !separate; i++) {
        GLint binding = i, reloff = 0;
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_BINDING, &binding);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_RELATIVE_OFFSET, &reloff);
        separate = binding != i || reloff != 0;
    }
    if (!separate)
        return false;
    GLint bindings = get_int(GL_MAX_VERTEX_ATTRIB_BINDINGS);
    if (bindings > SM_MAX_VERTEX_ATTRIBS)
        bindings = SM_MAX_VERTEX_ATTRIBS;
    for (GLint b = 0; b < bindings; b++) {
        GLint buf = 0, stride = 0, div = 0;
        GLint64 off = 0;
        GLR_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_BUFFER, (GLuint)b, &buf);
        GLR_REAL(glGetInteger64i_v)(GL_VERTEX_BINDING_OFFSET, (GLuint)b, &off);
        GLR_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_STRIDE, (GLuint)b, &stride);
        GLR_REAL(glGetIntegeri_v)(GL_VERTEX_BINDING_DIVISOR, (GLuint)b, &div);
        if (buf || off || (stride && stride != 16) || div)
            APPLY0(glBindVertexBuffer, 4, SNAP_U(b), SNAP_U(buf), SNAP_U(off), SNAP_I(stride));
        if (div)
            APPLY0(glVertexBindingDivisor, 2, SNAP_U(b), SNAP_U(div));
    }
    for (GLint i = 0; i < max; i++) {
        GLint en = 0, size = 4, type = GL_FLOAT, norm = 0, integer = 0, binding = i, reloff = 0;
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_BINDING, &binding);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_RELATIVE_OFFSET, &reloff);
        if (attrib_is_long(sn, (GLuint)i, type))
            APPLY0(glVertexAttribLFormat, 4, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_U(reloff));
        else if (integer)
            APPLY0(glVertexAttribIFormat, 4, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_U(reloff));
        else
            APPLY0(glVertexAttribFormat, 5, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_U(norm ? 1 : 0),
                   SNAP_U(reloff));
        APPLY0(glVertexAttribBinding, 2, SNAP_U(i), SNAP_U(binding));
        if (en)
            APPLY0(glEnableVertexAttribArray, 1, SNAP_U(i));
    }
    return true;
}

/* Legacy fixed-function arrays of the bound vertex array (compatibility contexts): written as the
 * pointer calls and glEnableClientState. Client-memory pointers are the program's addresses: the
 * replay re-points them at the bytes each draw of the capture recorded (GLR_PSEUDO_CLIENT_ARRAY). */
struct snap_legacy {
    GLenum cap, size, type, stride, pointer, buffer;
    uint32_t cmd;
    int since;                    /* desktop GL version (major * 10 + minor) that has the array */
};

static void snap_legacy_one(struct glr_snap *sn, const struct snap_legacy *q, bool have_vbo)
{
    GLint en = GLR_REAL(glIsEnabled)(q->cap), size = 4, type = GL_FLOAT, stride = 0, buf = 0;
    void *ptr = NULL;
    if (q->size)
        GLR_REAL(glGetIntegerv)(q->size, &size);
    if (q->type)
        GLR_REAL(glGetIntegerv)(q->type, &type);
    GLR_REAL(glGetIntegerv)(q->stride, &stride);
    if (have_vbo)
        GLR_REAL(glGetIntegerv)(q->buffer, &buf);
    GLR_REAL(glGetPointerv)(q->pointer, &ptr);
    if (!en && !ptr && !buf && !stride)
        return; /* default layout apart from size and type, which matter only once a pointer is set */
    APPLY0(glBindBuffer, 2, SNAP_U(GL_ARRAY_BUFFER), SNAP_U(buf));
    uint64_t p = (uintptr_t)ptr;
    switch (q->cmd) {
    case GLR_CMD_glNormalPointer: case GLR_CMD_glFogCoordPointer: case GLR_CMD_glIndexPointer:
        glr_snap_apply(sn, q->cmd, -1, NULL, 0, 3, SNAP_U(type), SNAP_I(stride), SNAP_U(p));
        break;
    case GLR_CMD_glEdgeFlagPointer:
        glr_snap_apply(sn, q->cmd, -1, NULL, 0, 2, SNAP_I(stride), SNAP_U(p));
        break;
    default:
        glr_snap_apply(sn, q->cmd, -1, NULL, 0, 4, SNAP_I(size), SNAP_U(type), SNAP_I(stride), SNAP_U(p));
        break;
    }
    if (en)
        APPLY0(glEnableClientState, 1, SNAP_U(q->cap));
}

static void snap_legacy_arrays(struct glr_snap *sn)
{
    static const struct snap_legacy arrays[] = {
        { GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, GL_VERTEX_ARRAY_STRIDE,
          GL_VERTEX_ARRAY_POINTER, GL_VERTEX_ARRAY_BUFFER_BINDING, GLR_CMD_glVertexPointer, 11 },
        { GL_NORMAL_ARRAY, 0, GL_NORMAL_ARRAY_TYPE, GL_NORMAL_ARRAY_STRIDE, GL_NORMAL_ARRAY_POINTER,
          GL_NORMAL_ARRAY_BUFFER_BINDING, GLR_CMD_glNormalPointer, 11 },
        { GL_COLOR_ARRAY, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, GL_COLOR_ARRAY_STRIDE, GL_COLOR_ARRAY_POINTER,
          GL_COLOR_ARRAY_BUFFER_BINDING, GLR_CMD_glColorPointer, 11 },
        { GL_SECONDARY_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY_SIZE, GL_SECONDARY_COLOR_ARRAY_TYPE,
          GL_SECONDARY_COLOR_ARRAY_STRIDE, GL_SECONDARY_COLOR_ARRAY_POINTER,
          GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING, GLR_CMD_glSecondaryColorPointer, 14 },
        { GL_FOG_COORD_ARRAY, 0, GL_FOG_COORD_ARRAY_TYPE, GL_FOG_COORD_ARRAY_STRIDE, GL_FOG_COORD_ARRAY_POINTER,
          GL_FOG_COORD_ARRAY_BUFFER_BINDING, GLR_CMD_glFogCoordPointer, 14 },
        { GL_EDGE_FLAG_ARRAY, 0, 0, GL_EDGE_FLAG_ARRAY_STRIDE, GL_EDGE_FLAG_ARRAY_POINTER,
          GL_EDGE_FLAG_ARRAY_BUFFER_BINDING, GLR_CMD_glEdgeFlagPointer, 11 },
        { GL_INDEX_ARRAY, 0, GL_INDEX_ARRAY_TYPE, GL_INDEX_ARRAY_STRIDE, GL_INDEX_ARRAY_POINTER,
          GL_INDEX_ARRAY_BUFFER_BINDING, GLR_CMD_glIndexPointer, 11 },
    };
    static const struct snap_legacy texcoord = {
        GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_SIZE, GL_TEXTURE_COORD_ARRAY_TYPE,
        GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_POINTER, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING,
        GLR_CMD_glTexCoordPointer, 11
    };
    int ver = sn->major * 10 + (sn->minor > 9 ? 9 : sn->minor);
    if (ver == 31)
        return; /* 3.1 has no profiles and no legacy arrays unless GL_ARB_compatibility: never query */
    bool have_vbo = ver >= 15;
    for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        if (ver >= arrays[k].since)
            snap_legacy_one(sn, &arrays[k], have_vbo);
    if (ver < 13)
        return;
    GLint units = get_int(ver >= 20 ? GL_MAX_TEXTURE_COORDS : GL_MAX_TEXTURE_UNITS);
    if (units > SM_MAX_LEGACY_TEXCOORD)
        units = SM_MAX_LEGACY_TEXCOORD;
    GLint active = get_int(GL_CLIENT_ACTIVE_TEXTURE);
    for (GLint u = 0; u < units; u++) {
        GLR_REAL(glClientActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        APPLY0(glClientActiveTexture, 1, SNAP_U(GL_TEXTURE0 + (GLenum)u));
        snap_legacy_one(sn, &texcoord, have_vbo);
    }
    GLR_REAL(glClientActiveTexture)((GLenum)active);
    APPLY0(glClientActiveTexture, 1, SNAP_U(active));
}

static void snap_vao(struct glr_snap *sn, GLuint vao)
{
    if (glr_snap_has(sn, 3, 0, 3, 0))
        GLR_REAL(glBindVertexArray)(vao);
    APPLY0(glBindVertexArray, 1, SNAP_U(vao));
    GLint max = get_int(GL_MAX_VERTEX_ATTRIBS);
    if (max > SM_MAX_VERTEX_ATTRIBS)
        max = SM_MAX_VERTEX_ATTRIBS;
    bool has_int = glr_snap_has(sn, 3, 0, 3, 0), has_div = glr_snap_has(sn, 3, 3, 3, 0);
    if (glr_snap_has(sn, 4, 3, 3, 1) && vao_separate_format(sn, max)) {
        GLint eb = get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING);
        APPLY0(glBindBuffer, 2, SNAP_U(GL_ELEMENT_ARRAY_BUFFER), SNAP_U(eb));
        if (!sn->es && !sn->core)
            snap_legacy_arrays(sn);
        return;
    }
    for (GLint i = 0; i < max; i++) {
        GLint en = 0, size = 4, type = GL_FLOAT, norm = 0, integer = 0, stride = 0, buf = 0, div = 0;
        void *ptr = NULL;
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &en);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
        GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buf);
        if (has_int)
            GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
        if (has_div)
            GLR_REAL(glGetVertexAttribiv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &div);
        GLR_REAL(glGetVertexAttribPointerv)((GLuint)i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        bool is_default = !en && !buf && !ptr && size == 4 && type == GL_FLOAT && !norm && !integer && !stride && !div;
        if (is_default)
            continue;
        APPLY0(glBindBuffer, 2, SNAP_U(GL_ARRAY_BUFFER), SNAP_U(buf));
        if (attrib_is_long(sn, (GLuint)i, type))
            APPLY0(glVertexAttribLPointer, 5, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_I(stride),
                   SNAP_U((uintptr_t)ptr));
        else if (integer)
            APPLY0(glVertexAttribIPointer, 5, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_I(stride),
                   SNAP_U((uintptr_t)ptr));
        else
            APPLY0(glVertexAttribPointer, 6, SNAP_U(i), SNAP_I(size), SNAP_U(type), SNAP_U(norm ? 1 : 0),
                   SNAP_I(stride), SNAP_U((uintptr_t)ptr));
        if (div)
            APPLY0(glVertexAttribDivisor, 2, SNAP_U(i), SNAP_U(div));
        if (en)
            APPLY0(glEnableVertexAttribArray, 1, SNAP_U(i));
    }
    GLint eb = get_int(GL_ELEMENT_ARRAY_BUFFER_BINDING);
    APPLY0(glBindBuffer, 2, SNAP_U(GL_ELEMENT_ARRAY_BUFFER), SNAP_U(eb));
    if (!sn->es && !sn->core)
        snap_legacy_arrays(sn);
}

void glr_snap_vertex_arrays(struct glr_snap *sn)
{
    bool has_vao = glr_snap_has(sn, 3, 0, 3, 0);
    GLint saved = has_vao ? get_int(GL_VERTEX_ARRAY_BINDING) : 0;
    /* The default vertex array (none in core profiles). */
    if (!sn->core)
        snap_vao(sn, 0);
    size_t n;
    uint32_t *names = has_vao ? context_names(sn, SM_OBJ_VAO, &n) : NULL;
    for (size_t i = 0; names && i < n; i++)
        if (GLR_REAL(glIsVertexArray)(names[i]))
            snap_vao(sn, names[i]);
    free(names);
    if (has_vao)
        GLR_REAL(glBindVertexArray)((GLuint)saved);
    APPLY0(glBindVertexArray, 1, SNAP_U(0));
    APPLY0(glBindBuffer, 2, SNAP_U(GL_ARRAY_BUFFER), SNAP_U(0));
}

/* ---------------------------------------------------------------- framebuffers */

static void snap_attachment(struct glr_snap *sn, GLenum att)
{
    GLint type = 0, name = 0;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE,
                                                   &type);
    if (type == GL_NONE)
        return;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME,
                                                   &name);
    if (type == GL_RENDERBUFFER) {
        APPLY0(glFramebufferRenderbuffer, 4, SNAP_U(GL_FRAMEBUFFER), SNAP_U(att), SNAP_U(GL_RENDERBUFFER),
               SNAP_U(name));
        return;
    }
    if (type != GL_TEXTURE)
        return;
    GLint level = 0, face = 0, layer = 0, layered = 0;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL,
                                                   &level);
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att,
                                                   GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
    if (glr_snap_has(sn, 3, 0, 3, 0))
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att,
                                                       GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LAYER, &layer);
    if (glr_snap_has(sn, 3, 2, 3, 2))
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_LAYERED,
                                                       &layered);
    const struct sm_context *c = sm_context_get(sn->s, sn->ctx);
    const struct sm_texture *t = c ? sm_get_texture(c, (uint32_t)name) : NULL;
    GLenum target = t ? t->target : GL_TEXTURE_2D;
    if (layered)
        APPLY0(glFramebufferTexture, 4, SNAP_U(GL_FRAMEBUFFER), SNAP_U(att), SNAP_U(name), SNAP_I(level));
    else if (target == GL_TEXTURE_3D || target == GL_TEXTURE_2D_ARRAY || target == GL_TEXTURE_CUBE_MAP_ARRAY ||
             target == GL_TEXTURE_1D_ARRAY || target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        APPLY0(glFramebufferTextureLayer, 5, SNAP_U(GL_FRAMEBUFFER), SNAP_U(att), SNAP_U(name), SNAP_I(level),
               SNAP_I(layer));
    else if (target == GL_TEXTURE_1D)
        APPLY0(glFramebufferTexture1D, 5, SNAP_U(GL_FRAMEBUFFER), SNAP_U(att), SNAP_U(target), SNAP_U(name),
               SNAP_I(level));
    else
        APPLY0(glFramebufferTexture2D, 5, SNAP_U(GL_FRAMEBUFFER), SNAP_U(att), SNAP_U(face ? (GLenum)face : target),
               SNAP_U(name), SNAP_I(level));
}

/* Draw and read buffers of the framebuffer bound to GL_FRAMEBUFFER. */
static void snap_draw_read_buffers(struct glr_snap *sn, bool is_default)
{
    if (!glr_snap_has(sn, 2, 0, 3, 0))
        return;
    GLint max = get_int(GL_MAX_DRAW_BUFFERS);
    if (max > SM_MAX_DRAW_BUFFERS)
        max = SM_MAX_DRAW_BUFFERS;
    GLenum bufs[SM_MAX_DRAW_BUFFERS];
    int n = 0;
    for (int i = 0; i < max; i++) {
        bufs[i] = (GLenum)get_int(GL_DRAW_BUFFER0 + (GLenum)i);
        if (bufs[i] != GL_NONE)
            n = i + 1;
    }
    GLenum read = (GLenum)get_int(GL_READ_BUFFER);
    if (is_default) {
        /* The replayer's default framebuffer starts like the program's (GL_BACK): only changes. */
        if (n != 1 || bufs[0] != GL_BACK)
            glr_snap_apply(sn, GLR_CMD_glDrawBuffers, 1, bufs, (uint64_t)(n ? n : 1) * 4, 2, SNAP_I(n ? n : 1),
                           SNAP_U(0));
        if (read != GL_BACK)
            APPLY0(glReadBuffer, 1, SNAP_U(read));
        return;
    }
    if (!(n == 1 && bufs[0] == GL_COLOR_ATTACHMENT0))
        glr_snap_apply(sn, GLR_CMD_glDrawBuffers, 1, bufs, (uint64_t)(n ? n : 1) * 4, 2, SNAP_I(n ? n : 1),
                       SNAP_U(0));
    if (read != GL_COLOR_ATTACHMENT0)
        APPLY0(glReadBuffer, 1, SNAP_U(read));
}

void glr_snap_framebuffers(struct glr_snap *sn)
{
    bool split = glr_snap_has(sn, 3, 0, 3, 0);
    GLint draw = get_int(split ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING);
    GLint read = split ? get_int(GL_READ_FRAMEBUFFER_BINDING) : draw;
    GLR_REAL(glBindFramebuffer)(GL_FRAMEBUFFER, 0);
    APPLY0(glBindFramebuffer, 2, SNAP_U(GL_FRAMEBUFFER), SNAP_U(0));
    snap_draw_read_buffers(sn, true);
    size_t n;
    uint32_t *names = context_names(sn, SM_OBJ_FRAMEBUFFER, &n);
    GLint max_color = get_int(GL_MAX_COLOR_ATTACHMENTS);
    if (max_color > SM_MAX_COLOR_ATTACH)
        max_color = SM_MAX_COLOR_ATTACH;
    for (size_t i = 0; names && i < n; i++) {
        if (!GLR_REAL(glIsFramebuffer)(names[i]))
            continue;
        GLR_REAL(glBindFramebuffer)(GL_FRAMEBUFFER, names[i]);
        APPLY0(glBindFramebuffer, 2, SNAP_U(GL_FRAMEBUFFER), SNAP_U(names[i]));
        for (GLint a = 0; a < max_color; a++)
            snap_attachment(sn, GL_COLOR_ATTACHMENT0 + (GLenum)a);
        snap_attachment(sn, GL_DEPTH_ATTACHMENT);
        snap_attachment(sn, GL_STENCIL_ATTACHMENT);
        snap_draw_read_buffers(sn, false);
    }
    free(names);
    if (split) {
        GLR_REAL(glBindFramebuffer)(GL_DRAW_FRAMEBUFFER, (GLuint)draw);
        GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)read);
    } else {
        GLR_REAL(glBindFramebuffer)(GL_FRAMEBUFFER, (GLuint)draw);
    }
    APPLY0(glBindFramebuffer, 2, SNAP_U(GL_FRAMEBUFFER), SNAP_U(0));
}

/* ---------------------------------------------------------------- bindings */

struct ver { int gl_maj, gl_min, es_maj, es_min; };

static void buffer_bindings(struct glr_snap *sn)
{
    /* Indexed bindings first: they also set the generic binding, which is set after them. */
    static const struct { GLenum target, binding, start, size, max; struct ver v; } idx[] = {
        { GL_UNIFORM_BUFFER, GL_UNIFORM_BUFFER_BINDING, GL_UNIFORM_BUFFER_START, GL_UNIFORM_BUFFER_SIZE,
          GL_MAX_UNIFORM_BUFFER_BINDINGS, { 3, 1, 3, 0 } },
        { GL_SHADER_STORAGE_BUFFER, GL_SHADER_STORAGE_BUFFER_BINDING, GL_SHADER_STORAGE_BUFFER_START,
          GL_SHADER_STORAGE_BUFFER_SIZE, GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, { 4, 3, 3, 1 } },
        { GL_ATOMIC_COUNTER_BUFFER, GL_ATOMIC_COUNTER_BUFFER_BINDING, GL_ATOMIC_COUNTER_BUFFER_START,
          GL_ATOMIC_COUNTER_BUFFER_SIZE, GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS, { 4, 2, 3, 1 } },
    };
    static const int caps[] = { SM_MAX_UBO_BINDINGS, SM_MAX_SSBO_BINDINGS, SM_MAX_ATOMIC_BINDINGS };
    for (size_t k = 0; k < sizeof idx / sizeof idx[0]; k++) {
        if (!glr_snap_has(sn, idx[k].v.gl_maj, idx[k].v.gl_min, idx[k].v.es_maj, idx[k].v.es_min))
            continue;
        GLint max = get_int(idx[k].max);
        if (max > caps[k])
            max = caps[k];
        for (GLint i = 0; i < max; i++) {
            GLint buf = 0;
            GLint64 start = 0, size = 0;
            GLR_REAL(glGetIntegeri_v)(idx[k].binding, (GLuint)i, &buf);
            if (!buf)
                continue;
            GLR_REAL(glGetInteger64i_v)(idx[k].start, (GLuint)i, &start);
            GLR_REAL(glGetInteger64i_v)(idx[k].size, (GLuint)i, &size);
            if (!start && !size)
                APPLY0(glBindBufferBase, 3, SNAP_U(idx[k].target), SNAP_U(i), SNAP_U(buf));
            else
                APPLY0(glBindBufferRange, 5, SNAP_U(idx[k].target), SNAP_U(i), SNAP_U(buf), SNAP_U(start),
                       SNAP_U(size));
        }
    }
    static const struct { GLenum target, binding; struct ver v; } gen[] = {
        { GL_ARRAY_BUFFER, GL_ARRAY_BUFFER_BINDING, { 1, 5, 2, 0 } },
        { GL_COPY_READ_BUFFER, GL_COPY_READ_BUFFER_BINDING, { 3, 1, 3, 0 } },
        { GL_COPY_WRITE_BUFFER, GL_COPY_WRITE_BUFFER_BINDING, { 3, 1, 3, 0 } },
        { GL_PIXEL_PACK_BUFFER, GL_PIXEL_PACK_BUFFER_BINDING, { 2, 1, 3, 0 } },
        { GL_PIXEL_UNPACK_BUFFER, GL_PIXEL_UNPACK_BUFFER_BINDING, { 2, 1, 3, 0 } },
        { GL_TEXTURE_BUFFER, GL_TEXTURE_BUFFER_BINDING, { 3, 1, 3, 2 } },
        { GL_DRAW_INDIRECT_BUFFER, GL_DRAW_INDIRECT_BUFFER_BINDING, { 4, 0, 3, 1 } },
        { GL_DISPATCH_INDIRECT_BUFFER, GL_DISPATCH_INDIRECT_BUFFER_BINDING, { 4, 3, 3, 1 } },
        { GL_QUERY_BUFFER, GL_QUERY_BUFFER_BINDING, { 4, 4, -1, 0 } },
        { GL_UNIFORM_BUFFER, GL_UNIFORM_BUFFER_BINDING, { 3, 1, 3, 0 } },
        { GL_SHADER_STORAGE_BUFFER, GL_SHADER_STORAGE_BUFFER_BINDING, { 4, 3, 3, 1 } },
        { GL_ATOMIC_COUNTER_BUFFER, GL_ATOMIC_COUNTER_BUFFER_BINDING, { 4, 2, 3, 1 } },
        { GL_TRANSFORM_FEEDBACK_BUFFER, GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, { 3, 0, 3, 0 } },
    };
    for (size_t k = 0; k < sizeof gen / sizeof gen[0]; k++)
        if (glr_snap_has(sn, gen[k].v.gl_maj, gen[k].v.gl_min, gen[k].v.es_maj, gen[k].v.es_min))
            APPLY0(glBindBuffer, 2, SNAP_U(gen[k].target), SNAP_U(get_int(gen[k].binding)));
}

static void texture_bindings(struct glr_snap *sn)
{
    static const struct { GLenum target, binding; struct ver v; } t[] = {
        { GL_TEXTURE_1D, GL_TEXTURE_BINDING_1D, { 1, 0, -1, 0 } },
        { GL_TEXTURE_2D, GL_TEXTURE_BINDING_2D, { 1, 0, 2, 0 } },
        { GL_TEXTURE_3D, GL_TEXTURE_BINDING_3D, { 1, 2, 3, 0 } },
        { GL_TEXTURE_1D_ARRAY, GL_TEXTURE_BINDING_1D_ARRAY, { 3, 0, -1, 0 } },
        { GL_TEXTURE_2D_ARRAY, GL_TEXTURE_BINDING_2D_ARRAY, { 3, 0, 3, 0 } },
        { GL_TEXTURE_RECTANGLE, GL_TEXTURE_BINDING_RECTANGLE, { 3, 1, -1, 0 } },
        { GL_TEXTURE_CUBE_MAP, GL_TEXTURE_BINDING_CUBE_MAP, { 1, 3, 2, 0 } },
        { GL_TEXTURE_CUBE_MAP_ARRAY, GL_TEXTURE_BINDING_CUBE_MAP_ARRAY, { 4, 0, 3, 2 } },
        { GL_TEXTURE_BUFFER, GL_TEXTURE_BINDING_BUFFER, { 3, 1, 3, 2 } },
        { GL_TEXTURE_2D_MULTISAMPLE, GL_TEXTURE_BINDING_2D_MULTISAMPLE, { 3, 2, 3, 1 } },
        { GL_TEXTURE_2D_MULTISAMPLE_ARRAY, GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY, { 3, 2, 3, 2 } },
    };
    GLint active = get_int(GL_ACTIVE_TEXTURE);
    GLint units = get_int(GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS);
    if (units > SM_MAX_TEXTURE_UNITS)
        units = SM_MAX_TEXTURE_UNITS;
    bool samplers = glr_snap_has(sn, 3, 3, 3, 0);
    for (GLint u = 0; u < units; u++) {
        GLR_REAL(glActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        bool unit_set = false;
        for (size_t k = 0; k < sizeof t / sizeof t[0]; k++) {
            if (!glr_snap_has(sn, t[k].v.gl_maj, t[k].v.gl_min, t[k].v.es_maj, t[k].v.es_min))
                continue;
            GLint name = get_int(t[k].binding);
            if (!name)
                continue;
            if (!unit_set)
                APPLY0(glActiveTexture, 1, SNAP_U(GL_TEXTURE0 + (GLenum)u));
            unit_set = true;
            APPLY0(glBindTexture, 2, SNAP_U(t[k].target), SNAP_U(name));
        }
        GLint sampler = samplers ? get_int(GL_SAMPLER_BINDING) : 0;
        if (sampler)
            APPLY0(glBindSampler, 2, SNAP_U(u), SNAP_U(sampler));
    }
    GLR_REAL(glActiveTexture)((GLenum)active);
    APPLY0(glActiveTexture, 1, SNAP_U(active));
}

static void object_bindings(struct glr_snap *sn)
{
    APPLY0(glUseProgram, 1, SNAP_U(get_int(GL_CURRENT_PROGRAM)));
    if (glr_snap_has(sn, 3, 0, 3, 0)) {
        APPLY0(glBindVertexArray, 1, SNAP_U(get_int(GL_VERTEX_ARRAY_BINDING)));
        APPLY0(glBindFramebuffer, 2, SNAP_U(GL_DRAW_FRAMEBUFFER), SNAP_U(get_int(GL_DRAW_FRAMEBUFFER_BINDING)));
        APPLY0(glBindFramebuffer, 2, SNAP_U(GL_READ_FRAMEBUFFER), SNAP_U(get_int(GL_READ_FRAMEBUFFER_BINDING)));
    } else {
        APPLY0(glBindFramebuffer, 2, SNAP_U(GL_FRAMEBUFFER), SNAP_U(get_int(GL_FRAMEBUFFER_BINDING)));
    }
    APPLY0(glBindRenderbuffer, 2, SNAP_U(GL_RENDERBUFFER), SNAP_U(get_int(GL_RENDERBUFFER_BINDING)));
}

/* ---------------------------------------------------------------- fixed state */

static void enables(struct glr_snap *sn)
{
    static const struct { GLenum cap; struct ver v; } caps[] = {
        { GL_BLEND, { 1, 0, 2, 0 } }, { GL_CULL_FACE, { 1, 0, 2, 0 } }, { GL_DEPTH_TEST, { 1, 0, 2, 0 } },
        { GL_STENCIL_TEST, { 1, 0, 2, 0 } }, { GL_SCISSOR_TEST, { 1, 0, 2, 0 } },
        { GL_POLYGON_OFFSET_FILL, { 1, 0, 2, 0 } }, { GL_SAMPLE_ALPHA_TO_COVERAGE, { 1, 3, 2, 0 } },
        { GL_SAMPLE_COVERAGE, { 1, 3, 2, 0 } }, { GL_DITHER, { 1, 0, 2, 0 } },
        { GL_RASTERIZER_DISCARD, { 3, 0, 3, 0 } }, { GL_PRIMITIVE_RESTART_FIXED_INDEX, { 4, 3, 3, 0 } },
        { GL_POLYGON_OFFSET_LINE, { 1, 0, -1, 0 } }, { GL_POLYGON_OFFSET_POINT, { 1, 0, -1, 0 } },
        { GL_MULTISAMPLE, { 1, 3, -1, 0 } }, { GL_LINE_SMOOTH, { 1, 0, -1, 0 } },
        { GL_POLYGON_SMOOTH, { 1, 0, -1, 0 } }, { GL_COLOR_LOGIC_OP, { 1, 1, -1, 0 } },
        { GL_PROGRAM_POINT_SIZE, { 3, 2, -1, 0 } }, { GL_FRAMEBUFFER_SRGB, { 3, 0, -1, 0 } },
        { GL_DEPTH_CLAMP, { 3, 2, -1, 0 } }, { GL_TEXTURE_CUBE_MAP_SEAMLESS, { 3, 2, -1, 0 } },
        { GL_PRIMITIVE_RESTART, { 3, 1, -1, 0 } }, { GL_SAMPLE_SHADING, { 4, 0, 3, 2 } },
        { GL_SAMPLE_MASK, { 3, 2, 3, 1 } },
    };
    for (size_t k = 0; k < sizeof caps / sizeof caps[0]; k++) {
        if (!glr_snap_has(sn, caps[k].v.gl_maj, caps[k].v.gl_min, caps[k].v.es_maj, caps[k].v.es_min))
            continue;
        bool on = GLR_REAL(glIsEnabled)(caps[k].cap);
        if (on)
            APPLY0(glEnable, 1, SNAP_U(caps[k].cap));
        else
            APPLY0(glDisable, 1, SNAP_U(caps[k].cap));
    }
    if (glr_snap_has(sn, 3, 0, -1, 0)) {
        GLint planes = get_int(GL_MAX_CLIP_DISTANCES);
        for (GLint i = 0; i < planes && i < SM_MAX_CLIP_PLANES; i++)
            if (GLR_REAL(glIsEnabled)(GL_CLIP_DISTANCE0 + (GLenum)i))
                APPLY0(glEnable, 1, SNAP_U(GL_CLIP_DISTANCE0 + (GLenum)i));
    }
}

static void blend_depth_stencil(struct glr_snap *sn)
{
    APPLY0(glBlendFuncSeparate, 4, SNAP_U(get_int(GL_BLEND_SRC_RGB)), SNAP_U(get_int(GL_BLEND_DST_RGB)),
           SNAP_U(get_int(GL_BLEND_SRC_ALPHA)), SNAP_U(get_int(GL_BLEND_DST_ALPHA)));
    APPLY0(glBlendEquationSeparate, 2, SNAP_U(get_int(GL_BLEND_EQUATION_RGB)),
           SNAP_U(get_int(GL_BLEND_EQUATION_ALPHA)));
    GLfloat f[4] = { 0 };
    GLR_REAL(glGetFloatv)(GL_BLEND_COLOR, f);
    APPLY0(glBlendColor, 4, SNAP_F(f[0]), SNAP_F(f[1]), SNAP_F(f[2]), SNAP_F(f[3]));
    GLboolean m[4] = { 1, 1, 1, 1 };
    GLR_REAL(glGetBooleanv)(GL_COLOR_WRITEMASK, m);
    APPLY0(glColorMask, 4, SNAP_U(m[0]), SNAP_U(m[1]), SNAP_U(m[2]), SNAP_U(m[3]));
    if (!sn->es)
        APPLY0(glLogicOp, 1, SNAP_U(get_int(GL_LOGIC_OP_MODE)));
    APPLY0(glDepthFunc, 1, SNAP_U(get_int(GL_DEPTH_FUNC)));
    GLboolean dm = 1;
    GLR_REAL(glGetBooleanv)(GL_DEPTH_WRITEMASK, &dm);
    APPLY0(glDepthMask, 1, SNAP_U(dm));
    static const struct { GLenum face, func, ref, vmask, wmask, fail, zfail, zpass; } st[2] = {
        { GL_FRONT, GL_STENCIL_FUNC, GL_STENCIL_REF, GL_STENCIL_VALUE_MASK, GL_STENCIL_WRITEMASK, GL_STENCIL_FAIL,
          GL_STENCIL_PASS_DEPTH_FAIL, GL_STENCIL_PASS_DEPTH_PASS },
        { GL_BACK, GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF, GL_STENCIL_BACK_VALUE_MASK, GL_STENCIL_BACK_WRITEMASK,
          GL_STENCIL_BACK_FAIL, GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_PASS },
    };
    for (int i = 0; i < 2; i++) {
        APPLY0(glStencilFuncSeparate, 4, SNAP_U(st[i].face), SNAP_U(get_int(st[i].func)), SNAP_I(get_int(st[i].ref)),
               SNAP_U((GLuint)get_int(st[i].vmask)));
        APPLY0(glStencilOpSeparate, 4, SNAP_U(st[i].face), SNAP_U(get_int(st[i].fail)),
               SNAP_U(get_int(st[i].zfail)), SNAP_U(get_int(st[i].zpass)));
        APPLY0(glStencilMaskSeparate, 2, SNAP_U(st[i].face), SNAP_U((GLuint)get_int(st[i].wmask)));
    }
    GLR_REAL(glGetFloatv)(GL_COLOR_CLEAR_VALUE, f);
    APPLY0(glClearColor, 4, SNAP_F(f[0]), SNAP_F(f[1]), SNAP_F(f[2]), SNAP_F(f[3]));
    GLfloat depth = 1;
    GLR_REAL(glGetFloatv)(GL_DEPTH_CLEAR_VALUE, &depth);
    APPLY0(glClearDepthf, 1, SNAP_F(depth));
    APPLY0(glClearStencil, 1, SNAP_I(get_int(GL_STENCIL_CLEAR_VALUE)));
}

static void raster(struct glr_snap *sn)
{
    GLint vp[4] = { 0 }, sc[4] = { 0 };
    GLR_REAL(glGetIntegerv)(GL_VIEWPORT, vp);
    APPLY0(glViewport, 4, SNAP_I(vp[0]), SNAP_I(vp[1]), SNAP_I(vp[2]), SNAP_I(vp[3]));
    GLR_REAL(glGetIntegerv)(GL_SCISSOR_BOX, sc);
    APPLY0(glScissor, 4, SNAP_I(sc[0]), SNAP_I(sc[1]), SNAP_I(sc[2]), SNAP_I(sc[3]));
    GLfloat dr[2] = { 0, 1 };
    GLR_REAL(glGetFloatv)(GL_DEPTH_RANGE, dr);
    APPLY0(glDepthRangef, 2, SNAP_F(dr[0]), SNAP_F(dr[1]));
    APPLY0(glCullFace, 1, SNAP_U(get_int(GL_CULL_FACE_MODE)));
    APPLY0(glFrontFace, 1, SNAP_U(get_int(GL_FRONT_FACE)));
    GLfloat factor = 0, units = 0, lw = 1, ps = 1, cov = 1;
    GLR_REAL(glGetFloatv)(GL_POLYGON_OFFSET_FACTOR, &factor);
    GLR_REAL(glGetFloatv)(GL_POLYGON_OFFSET_UNITS, &units);
    APPLY0(glPolygonOffset, 2, SNAP_F(factor), SNAP_F(units));
    GLR_REAL(glGetFloatv)(GL_LINE_WIDTH, &lw);
    APPLY0(glLineWidth, 1, SNAP_F(lw));
    GLR_REAL(glGetFloatv)(GL_SAMPLE_COVERAGE_VALUE, &cov);
    GLboolean inv = 0;
    GLR_REAL(glGetBooleanv)(GL_SAMPLE_COVERAGE_INVERT, &inv);
    APPLY0(glSampleCoverage, 2, SNAP_F(cov), SNAP_U(inv));
    if (!sn->es) {
        GLR_REAL(glGetFloatv)(GL_POINT_SIZE, &ps);
        APPLY0(glPointSize, 1, SNAP_F(ps));
        GLint pm[2] = { GL_FILL, GL_FILL };
        GLR_REAL(glGetIntegerv)(GL_POLYGON_MODE, pm);
        if (pm[0] == pm[1] || sn->core) {
            APPLY0(glPolygonMode, 2, SNAP_U(GL_FRONT_AND_BACK), SNAP_U(pm[0]));
        } else {
            APPLY0(glPolygonMode, 2, SNAP_U(GL_FRONT), SNAP_U(pm[0]));
            APPLY0(glPolygonMode, 2, SNAP_U(GL_BACK), SNAP_U(pm[1]));
        }
        APPLY0(glPointParameteri, 2, SNAP_U(GL_POINT_SPRITE_COORD_ORIGIN),
               SNAP_I(get_int(GL_POINT_SPRITE_COORD_ORIGIN)));
    }
    if (glr_snap_has(sn, 3, 2, -1, 0))
        APPLY0(glProvokingVertex, 1, SNAP_U(get_int(GL_PROVOKING_VERTEX)));
    if (glr_snap_has(sn, 3, 1, -1, 0))
        APPLY0(glPrimitiveRestartIndex, 1, SNAP_U((GLuint)get_int(GL_PRIMITIVE_RESTART_INDEX)));
    if (glr_snap_has(sn, 4, 0, 3, 2)) {
        GLfloat mss = 0;
        GLR_REAL(glGetFloatv)(GL_MIN_SAMPLE_SHADING_VALUE, &mss);
        APPLY0(glMinSampleShading, 1, SNAP_F(mss));
        APPLY0(glPatchParameteri, 2, SNAP_U(GL_PATCH_VERTICES), SNAP_I(get_int(GL_PATCH_VERTICES)));
    }
    if (glr_snap_has(sn, 4, 5, -1, 0))
        APPLY0(glClipControl, 2, SNAP_U(get_int(GL_CLIP_ORIGIN)), SNAP_U(get_int(GL_CLIP_DEPTH_MODE)));
}

static void pixel_store_hints(struct glr_snap *sn)
{
    static const struct { GLenum pname; struct ver v; } ps[] = {
        { GL_UNPACK_ALIGNMENT, { 1, 0, 2, 0 } }, { GL_PACK_ALIGNMENT, { 1, 0, 2, 0 } },
        { GL_UNPACK_ROW_LENGTH, { 1, 0, 3, 0 } }, { GL_UNPACK_SKIP_ROWS, { 1, 0, 3, 0 } },
        { GL_UNPACK_SKIP_PIXELS, { 1, 0, 3, 0 } }, { GL_UNPACK_IMAGE_HEIGHT, { 1, 2, 3, 0 } },
        { GL_UNPACK_SKIP_IMAGES, { 1, 2, 3, 0 } }, { GL_PACK_ROW_LENGTH, { 1, 0, 3, 0 } },
        { GL_PACK_SKIP_ROWS, { 1, 0, 3, 0 } }, { GL_PACK_SKIP_PIXELS, { 1, 0, 3, 0 } },
        { GL_PACK_IMAGE_HEIGHT, { 1, 2, -1, 0 } }, { GL_PACK_SKIP_IMAGES, { 1, 2, -1, 0 } },
        { GL_UNPACK_SWAP_BYTES, { 1, 0, -1, 0 } }, { GL_UNPACK_LSB_FIRST, { 1, 0, -1, 0 } },
        { GL_PACK_SWAP_BYTES, { 1, 0, -1, 0 } }, { GL_PACK_LSB_FIRST, { 1, 0, -1, 0 } },
    };
    for (size_t k = 0; k < sizeof ps / sizeof ps[0]; k++)
        if (glr_snap_has(sn, ps[k].v.gl_maj, ps[k].v.gl_min, ps[k].v.es_maj, ps[k].v.es_min))
            APPLY0(glPixelStorei, 2, SNAP_U(ps[k].pname), SNAP_I(get_int(ps[k].pname)));
    static const struct { GLenum pname; struct ver v; } hints[] = {
        { GL_FRAGMENT_SHADER_DERIVATIVE_HINT, { 2, 0, 3, 0 } }, { GL_LINE_SMOOTH_HINT, { 1, 0, -1, 0 } },
        { GL_POLYGON_SMOOTH_HINT, { 1, 0, -1, 0 } }, { GL_TEXTURE_COMPRESSION_HINT, { 1, 3, -1, 0 } },
    };
    for (size_t k = 0; k < sizeof hints / sizeof hints[0]; k++) {
        if (!glr_snap_has(sn, hints[k].v.gl_maj, hints[k].v.gl_min, hints[k].v.es_maj, hints[k].v.es_min))
            continue;
        GLint v = get_int(hints[k].pname);
        if (v && v != GL_DONT_CARE)
            APPLY0(glHint, 2, SNAP_U(hints[k].pname), SNAP_U(v));
    }
}

static void current_attribs(struct glr_snap *sn)
{
    GLint max = get_int(GL_MAX_VERTEX_ATTRIBS);
    if (max > SM_MAX_VERTEX_ATTRIBS)
        max = SM_MAX_VERTEX_ATTRIBS;
    /* Compatibility profiles: attribute 0 is the legacy vertex position, which has no current value. */
    for (GLint i = (!sn->es && !sn->core) ? 1 : 0; i < max; i++) {
        GLfloat v[4] = { 0, 0, 0, 1 };
        GLR_REAL(glGetVertexAttribfv)((GLuint)i, GL_CURRENT_VERTEX_ATTRIB, v);
        if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 1)
            continue;
        glr_snap_apply(sn, GLR_CMD_glVertexAttrib4fv, 1, v, sizeof v, 2, SNAP_U(i), SNAP_U(0));
    }
}

static void image_units(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 4, 2, 3, 1))
        return;
    GLint units = get_int(GL_MAX_IMAGE_UNITS);
    if (units > SM_MAX_IMAGE_UNITS)
        units = SM_MAX_IMAGE_UNITS;
    for (GLint u = 0; u < units; u++) {
        GLint name = 0, level = 0, layered = 0, layer = 0, access = GL_READ_ONLY, format = GL_R8;
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_NAME, (GLuint)u, &name);
        if (!name)
            continue;
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_LEVEL, (GLuint)u, &level);
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_LAYERED, (GLuint)u, &layered);
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_LAYER, (GLuint)u, &layer);
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_ACCESS, (GLuint)u, &access);
        GLR_REAL(glGetIntegeri_v)(GL_IMAGE_BINDING_FORMAT, (GLuint)u, &format);
        APPLY0(glBindImageTexture, 7, SNAP_U(u), SNAP_U(name), SNAP_I(level), SNAP_U(layered ? 1 : 0), SNAP_I(layer),
               SNAP_U(access), SNAP_U(format));
    }
}

/* Per draw buffer blend state and colour masks (GL 4.0 / ES 3.2), where they differ from buffer 0's
 * (which the non-indexed calls above gave every buffer). */
static void indexed_blend(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 4, 0, 3, 2))
        return;
    GLint max = get_int(GL_MAX_DRAW_BUFFERS);
    if (max > SM_MAX_DRAW_BUFFERS)
        max = SM_MAX_DRAW_BUFFERS;
    GLint b0[6] = { 0 };
    GLboolean m0[4] = { 1, 1, 1, 1 };
    static const GLenum pn[6] = { GL_BLEND_SRC_RGB, GL_BLEND_DST_RGB, GL_BLEND_SRC_ALPHA, GL_BLEND_DST_ALPHA,
                                  GL_BLEND_EQUATION_RGB, GL_BLEND_EQUATION_ALPHA };
    bool e0 = GLR_REAL(glIsEnabledi)(GL_BLEND, 0);
    for (int k = 0; k < 6; k++)
        GLR_REAL(glGetIntegeri_v)(pn[k], 0, &b0[k]);
    GLR_REAL(glGetBooleani_v)(GL_COLOR_WRITEMASK, 0, m0);
    for (GLint i = 1; i < max; i++) {
        GLint b[6] = { 0 };
        GLboolean m[4] = { 1, 1, 1, 1 };
        for (int k = 0; k < 6; k++)
            GLR_REAL(glGetIntegeri_v)(pn[k], (GLuint)i, &b[k]);
        GLR_REAL(glGetBooleani_v)(GL_COLOR_WRITEMASK, (GLuint)i, m);
        bool e = GLR_REAL(glIsEnabledi)(GL_BLEND, (GLuint)i);
        if (e != e0) {
            if (e)
                APPLY0(glEnablei, 2, SNAP_U(GL_BLEND), SNAP_U(i));
            else
                APPLY0(glDisablei, 2, SNAP_U(GL_BLEND), SNAP_U(i));
        }
        if (memcmp(b, b0, sizeof b)) {
            APPLY0(glBlendFuncSeparatei, 5, SNAP_U(i), SNAP_U(b[0]), SNAP_U(b[1]), SNAP_U(b[2]), SNAP_U(b[3]));
            APPLY0(glBlendEquationSeparatei, 3, SNAP_U(i), SNAP_U(b[4]), SNAP_U(b[5]));
        }
        if (memcmp(m, m0, sizeof m))
            APPLY0(glColorMaski, 5, SNAP_U(i), SNAP_U(m[0]), SNAP_U(m[1]), SNAP_U(m[2]), SNAP_U(m[3]));
    }
}

/* Program pipelines: the program of each stage and the active program. */
static void pipelines(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 4, 1, 3, 1))
        return;
    size_t n;
    uint32_t *names = context_names(sn, SM_OBJ_PIPELINE, &n);
    static const struct { GLenum stage; GLbitfield bit; struct ver v; } st[] = {
        { GL_VERTEX_SHADER, GL_VERTEX_SHADER_BIT, { 4, 1, 3, 1 } },
        { GL_FRAGMENT_SHADER, GL_FRAGMENT_SHADER_BIT, { 4, 1, 3, 1 } },
        { GL_COMPUTE_SHADER, GL_COMPUTE_SHADER_BIT, { 4, 3, 3, 1 } },
        { GL_GEOMETRY_SHADER, GL_GEOMETRY_SHADER_BIT, { 4, 1, 3, 2 } },
        { GL_TESS_CONTROL_SHADER, GL_TESS_CONTROL_SHADER_BIT, { 4, 1, 3, 2 } },
        { GL_TESS_EVALUATION_SHADER, GL_TESS_EVALUATION_SHADER_BIT, { 4, 1, 3, 2 } },
    };
    for (size_t i = 0; names && i < n; i++) {
        if (!GLR_REAL(glIsProgramPipeline)(names[i]))
            continue;
        for (size_t k = 0; k < sizeof st / sizeof st[0]; k++) {
            if (!glr_snap_has(sn, st[k].v.gl_maj, st[k].v.gl_min, st[k].v.es_maj, st[k].v.es_min))
                continue;
            GLint prog = 0;
            GLR_REAL(glGetProgramPipelineiv)(names[i], st[k].stage, &prog);
            if (prog)
                APPLY0(glUseProgramStages, 3, SNAP_U(names[i]), SNAP_U(st[k].bit), SNAP_U(prog));
        }
        GLint active = 0;
        GLR_REAL(glGetProgramPipelineiv)(names[i], GL_ACTIVE_PROGRAM, &active);
        if (active)
            APPLY0(glActiveShaderProgram, 2, SNAP_U(names[i]), SNAP_U(active));
    }
    free(names);
    GLint bound = get_int(GL_PROGRAM_PIPELINE_BINDING);
    if (bound)
        APPLY0(glBindProgramPipeline, 1, SNAP_U(bound));
}

/* The buffers bound to each transform feedback object's binding points (GL 4.0 / ES 3.0 objects),
 * and the default object's. */
static void tfb_buffers(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 4, 0, 3, 0))
        return;
    GLint max = get_int(GL_MAX_TRANSFORM_FEEDBACK_BUFFERS);
    if (max > SM_MAX_TFB_BUFFERS)
        max = SM_MAX_TFB_BUFFERS;
    GLint saved = get_int(GL_TRANSFORM_FEEDBACK_BINDING);
    GLint active = 0;
    GLR_REAL(glGetIntegerv)(GL_TRANSFORM_FEEDBACK_ACTIVE, &active);
    size_t n;
    uint32_t *names = context_names(sn, SM_OBJ_TRANSFORM_FEEDBACK, &n);
    for (size_t i = 0; i <= n; i++) {
        GLuint tfo = i < n ? names[i] : 0;
        if (tfo && !GLR_REAL(glIsTransformFeedback)(tfo))
            continue;
        /* Switching objects is not allowed while one is active: only the bound one is read then. */
        if (active && tfo != (GLuint)saved)
            continue;
        if (!active)
            GLR_REAL(glBindTransformFeedback)(GL_TRANSFORM_FEEDBACK, tfo);
        APPLY0(glBindTransformFeedback, 2, SNAP_U(GL_TRANSFORM_FEEDBACK), SNAP_U(tfo));
        for (GLint b = 0; b < max; b++) {
            GLint buf = 0;
            GLint64 start = 0, size = 0;
            GLR_REAL(glGetIntegeri_v)(GL_TRANSFORM_FEEDBACK_BUFFER_BINDING, (GLuint)b, &buf);
            if (!buf)
                continue;
            GLR_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_START, (GLuint)b, &start);
            GLR_REAL(glGetInteger64i_v)(GL_TRANSFORM_FEEDBACK_BUFFER_SIZE, (GLuint)b, &size);
            if (!start && !size)
                APPLY0(glBindBufferBase, 3, SNAP_U(GL_TRANSFORM_FEEDBACK_BUFFER), SNAP_U(b), SNAP_U(buf));
            else
                APPLY0(glBindBufferRange, 5, SNAP_U(GL_TRANSFORM_FEEDBACK_BUFFER), SNAP_U(b), SNAP_U(buf),
                       SNAP_U(start), SNAP_U(size));
        }
    }
    free(names);
    if (!active)
        GLR_REAL(glBindTransformFeedback)(GL_TRANSFORM_FEEDBACK, (GLuint)saved);
    APPLY0(glBindTransformFeedback, 2, SNAP_U(GL_TRANSFORM_FEEDBACK), SNAP_U(saved));
}

/* Queries active at the frame start (begun in an earlier frame): begun again by the restore. */
static void active_queries(struct glr_snap *sn)
{
    static const struct { GLenum target; struct ver v; } q[] = {
        { GL_SAMPLES_PASSED, { 1, 5, -1, 0 } }, { GL_ANY_SAMPLES_PASSED, { 3, 3, 3, 0 } },
        { GL_ANY_SAMPLES_PASSED_CONSERVATIVE, { 4, 3, 3, 0 } }, { GL_PRIMITIVES_GENERATED, { 3, 0, 3, 2 } },
        { GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, { 3, 0, 3, 0 } }, { GL_TIME_ELAPSED, { 3, 3, -1, 0 } },
    };
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++) {
        if (!glr_snap_has(sn, q[k].v.gl_maj, q[k].v.gl_min, q[k].v.es_maj, q[k].v.es_min))
            continue;
        GLint name = 0;
        GLR_REAL(glGetQueryiv)(q[k].target, GL_CURRENT_QUERY, &name);
        if (name)
            APPLY0(glBeginQuery, 2, SNAP_U(q[k].target), SNAP_U(name));
    }
}

/* Legacy matrix stacks (compatibility contexts): the current matrix of each stack and its depth.
 * GL reports only the top of a stack, so the levels below it are recorded as copies of the top (a
 * frame that pops below the level it started at sees those copies). */
static void snap_stack(struct glr_snap *sn, GLenum mode, GLenum matrix, GLenum depth_pname)
{
    GLfloat m[16];
    GLR_REAL(glGetFloatv)(matrix, m);
    GLint depth = get_int(depth_pname);
    if (depth < 1)
        depth = 1;
    if (depth > SM_MATRIX_STACK_DEPTH)
        depth = SM_MATRIX_STACK_DEPTH;
    APPLY0(glMatrixMode, 1, SNAP_U(mode));
    for (GLint i = 0; i < depth; i++) {
        if (i)
            glr_snap_apply(sn, GLR_CMD_glPushMatrix, -1, NULL, 0, 0);
        glr_snap_apply(sn, GLR_CMD_glLoadMatrixf, 0, m, sizeof m, 1, SNAP_U(0));
    }
}

static void snap_matrices(struct glr_snap *sn)
{
    int ver = sn->major * 10 + (sn->minor > 9 ? 9 : sn->minor);
    if (sn->es || sn->core || ver == 31)
        return; /* no fixed-function matrices (3.1 only with GL_ARB_compatibility: never queried) */
    GLint mode = get_int(GL_MATRIX_MODE), active = get_int(GL_ACTIVE_TEXTURE);
    snap_stack(sn, GL_MODELVIEW, GL_MODELVIEW_MATRIX, GL_MODELVIEW_STACK_DEPTH);
    snap_stack(sn, GL_PROJECTION, GL_PROJECTION_MATRIX, GL_PROJECTION_STACK_DEPTH);
    GLint units = ver >= 20 ? get_int(GL_MAX_TEXTURE_COORDS) : 1;
    if (units > SM_MAX_TEXTURE_COORDS)
        units = SM_MAX_TEXTURE_COORDS;
    for (GLint u = 0; u < units; u++) {
        GLR_REAL(glActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        APPLY0(glActiveTexture, 1, SNAP_U(GL_TEXTURE0 + (GLenum)u));
        snap_stack(sn, GL_TEXTURE, GL_TEXTURE_MATRIX, GL_TEXTURE_STACK_DEPTH);
    }
    GLR_REAL(glActiveTexture)((GLenum)active);
    APPLY0(glActiveTexture, 1, SNAP_U(active));
    APPLY0(glMatrixMode, 1, SNAP_U(mode));
}

void glr_snap_context_state(struct glr_snap *sn)
{
    snap_matrices(sn);
    enables(sn);
    blend_depth_stencil(sn);
    raster(sn);
    pixel_store_hints(sn);
    current_attribs(sn);
    indexed_blend(sn);
    image_units(sn);
    pipelines(sn);
    tfb_buffers(sn);
    glr_snap_query_results(sn);
    glr_snap_fixed_function(sn);
    active_queries(sn);
    buffer_bindings(sn);
    texture_bindings(sn);
    object_bindings(sn);
}
