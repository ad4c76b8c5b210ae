/* CLIENT_ARRAY records: client-memory vertex arrays of the next draw, given to GL as copies of
 * the recorded bytes (the captured pointer means nothing in this process). Legacy fixed-function
 * arrays (index GLR_CLIENT_ARRAY_LEGACY_BASE + slot) go back through glVertexPointer and friends. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/egl_env.h"
#include "replay/player/replayer_internal.h"
#include "replay/player/replay_client_arrays.h"
#include "registry/glr_call.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

void glrh_free_copies(struct replayer *r)
{
    for (size_t i = 0; i < r->n_copies; i++)
        free(r->copies[i].mem);
    r->n_copies = 0;
    r->copies_drawn = false;
}

/* Bytes of one vertex of an array (stride 0 means tightly packed). */
static unsigned element_bytes(uint64_t size, uint64_t type)
{
    unsigned comps = size == GL_BGRA ? 4 : (unsigned)size;
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return comps;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return comps * 2;
    case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV:
        return 4; /* packed: one 32-bit word per vertex */
    case GL_DOUBLE: return comps * 8;
    default: return comps * 4; /* GL_INT, GL_UNSIGNED_INT, GL_FLOAT, GL_FIXED */
    }
}

/* The fixed-function pointer calls of compatibility contexts, resolved on first use (EGL gives
 * the same entry points to every context of the process). */
struct legacy_gl {
    bool loaded;
    void (*VertexPointer)(GLint, GLenum, GLsizei, const void *);
    void (*NormalPointer)(GLenum, GLsizei, const void *);
    void (*ColorPointer)(GLint, GLenum, GLsizei, const void *);
    void (*SecondaryColorPointer)(GLint, GLenum, GLsizei, const void *);
    void (*FogCoordPointer)(GLenum, GLsizei, const void *);
    void (*EdgeFlagPointer)(GLsizei, const void *);
    void (*IndexPointer)(GLenum, GLsizei, const void *);
    void (*TexCoordPointer)(GLint, GLenum, GLsizei, const void *);
    void (*ClientActiveTexture)(GLenum);
};

static const struct legacy_gl *legacy_gl(void)
{
    static struct legacy_gl l;
    if (!l.loaded) {
        *(void **)&l.VertexPointer = glrh_egl_proc("glVertexPointer");
        *(void **)&l.NormalPointer = glrh_egl_proc("glNormalPointer");
        *(void **)&l.ColorPointer = glrh_egl_proc("glColorPointer");
        *(void **)&l.SecondaryColorPointer = glrh_egl_proc("glSecondaryColorPointer");
        *(void **)&l.FogCoordPointer = glrh_egl_proc("glFogCoordPointer");
        *(void **)&l.EdgeFlagPointer = glrh_egl_proc("glEdgeFlagPointer");
        *(void **)&l.IndexPointer = glrh_egl_proc("glIndexPointer");
        *(void **)&l.TexCoordPointer = glrh_egl_proc("glTexCoordPointer");
        *(void **)&l.ClientActiveTexture = glrh_egl_proc("glClientActiveTexture");
        l.loaded = true;
    }
    return &l;
}


/* Re-points one legacy array (slot: enum sm_legacy_slot) at `base`. */
static int legacy_pointer(const struct glrh_gl *gl, uint32_t slot, const struct glr_call *c, const void *base)
{
    const struct legacy_gl *l = legacy_gl();
    GLint size = (GLint)c->args[1];
    GLenum type = (GLenum)c->args[2];
    GLsizei stride = (GLsizei)c->args[5];
    switch (slot) {
    case SM_LA_VERTEX:
        if (!l->VertexPointer) return GLR_DISPATCH_MISSING;
        l->VertexPointer(size, type, stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_NORMAL:
        if (!l->NormalPointer) return GLR_DISPATCH_MISSING;
        l->NormalPointer(type, stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_COLOR:
        if (!l->ColorPointer) return GLR_DISPATCH_MISSING;
        l->ColorPointer(size, type, stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_SECONDARY_COLOR:
        if (!l->SecondaryColorPointer) return GLR_DISPATCH_MISSING;
        l->SecondaryColorPointer(size, type, stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_FOG_COORD:
        if (!l->FogCoordPointer) return GLR_DISPATCH_MISSING;
        l->FogCoordPointer(type, stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_EDGE_FLAG:
        if (!l->EdgeFlagPointer) return GLR_DISPATCH_MISSING;
        l->EdgeFlagPointer(stride, base);
        return GLR_DISPATCH_OK;
    case SM_LA_INDEX:
        if (!l->IndexPointer) return GLR_DISPATCH_MISSING;
        l->IndexPointer(type, stride, base);
        return GLR_DISPATCH_OK;
    default:
        break;
    }
    if (slot >= SM_LA_COUNT)
        return GLR_DISPATCH_BAD;
    if (!l->TexCoordPointer || !l->ClientActiveTexture)
        return GLR_DISPATCH_MISSING;
    /* The unit's array is chosen by the client active texture, put back afterwards. */
    GLint active = GL_TEXTURE0;
    gl->GetIntegerv(GL_CLIENT_ACTIVE_TEXTURE, &active);
    l->ClientActiveTexture(GL_TEXTURE0 + (slot - SM_LA_TEXCOORD0));
    l->TexCoordPointer(size, type, stride, base);
    l->ClientActiveTexture((GLenum)active);
    return GLR_DISPATCH_OK;
}

/* args: index, size, type, normalized, integer, stride, first vertex, captured pointer; blob: the
 * bytes from the first vertex on. The pointer given to GL is offset back by `first` vertices so
 * that vertex `first` lands on the copy (GL only reads from there on). */
int glrh_client_array(struct replayer *r, const struct glr_call *c)
{
    if (r->copies_drawn)
        glrh_free_copies(r);
    if (r->n_copies == r->cap_copies) {
        size_t cap = r->cap_copies ? r->cap_copies * 2 : 16;
        struct client_copy *n = realloc(r->copies, cap * sizeof *n);
        if (!n)
            return GLR_DISPATCH_BAD;
        r->copies = n;
        r->cap_copies = cap;
    }
    size_t size = c->blobs[0].size;
    void *mem = malloc(size ? size : 1);
    if (!mem)
        return GLR_DISPATCH_BAD;
    if (size)
        memcpy(mem, c->blobs[0].data, size);
    r->copies[r->n_copies++].mem = mem;
    return glrh_point_client_array(&r->gl, c, mem);
}

int glrh_point_client_array(const struct glrh_gl *gl, const struct glr_call *c, const void *mem)
{
    unsigned stride = c->args[5] ? (unsigned)c->args[5] : element_bytes(c->args[1], c->args[2]);
    uintptr_t base = (uintptr_t)mem - (uintptr_t)c->args[6] * stride;
    bool legacy = c->args[0] >= GLR_CLIENT_ARRAY_LEGACY_BASE;
    if (!legacy && (!gl->VertexAttribPointer || (c->args[4] && !gl->VertexAttribIPointer)))
        return GLR_DISPATCH_MISSING;
    GLint array_buf = 0;
    gl->GetIntegerv(GL_ARRAY_BUFFER_BINDING, &array_buf);
    if (array_buf)
        gl->BindBuffer(GL_ARRAY_BUFFER, 0);
    int res = GLR_DISPATCH_OK;
    if (legacy)
        res = legacy_pointer(gl, (uint32_t)(c->args[0] - GLR_CLIENT_ARRAY_LEGACY_BASE), c, (const void *)base);
    else if (c->args[4])
        gl->VertexAttribIPointer((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2], (GLsizei)c->args[5],
                                 (const void *)base);
    else
        gl->VertexAttribPointer((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2], (GLboolean)c->args[3],
                                (GLsizei)c->args[5], (const void *)base);
    if (array_buf)
        gl->BindBuffer(GL_ARRAY_BUFFER, (GLuint)array_buf);
    return res;
}
