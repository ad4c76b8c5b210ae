/* CLIENT_ARRAY records: client-memory vertex arrays of the next draw, given to GL as copies of
 * the recorded bytes (the captured pointer means nothing in this process). */
#include <stdlib.h>
#include <string.h>
#include "replay/headless/replayer_internal.h"

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
    unsigned stride = c->args[5] ? (unsigned)c->args[5] : element_bytes(c->args[1], c->args[2]);
    uintptr_t base = (uintptr_t)mem - (uintptr_t)c->args[6] * stride;
    const struct glrh_gl *gl = &r->gl;
    if (!gl->VertexAttribPointer || (c->args[4] && !gl->VertexAttribIPointer))
        return GLR_DISPATCH_MISSING;
    GLint array_buf = 0;
    gl->GetIntegerv(GL_ARRAY_BUFFER_BINDING, &array_buf);
    if (array_buf)
        gl->BindBuffer(GL_ARRAY_BUFFER, 0);
    if (c->args[4])
        gl->VertexAttribIPointer((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2], (GLsizei)c->args[5],
                                 (const void *)base);
    else
        gl->VertexAttribPointer((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2], (GLboolean)c->args[3],
                                (GLsizei)c->args[5], (const void *)base);
    if (array_buf)
        gl->BindBuffer(GL_ARRAY_BUFFER, (GLuint)array_buf);
    return GLR_DISPATCH_OK;
}
