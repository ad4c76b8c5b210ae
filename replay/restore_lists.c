/* Compiling a capture's display lists again (restore_lists.h). The records are those the shim kept
 * while the program compiled the list (shim/display_lists.c): only commands GL compiles into a
 * list, plus GLR_PSEUDO_CLIENT_ARRAY data of draws inside it. GL reads client arrays when it
 * compiles such a draw, so each draw's recorded arrays are pointed at (and enabled, the others
 * disabled) just before it; the client state is pushed before the list and popped after it, so the
 * restored state is untouched (GL_COMPILE executes nothing else). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/restore_lists.h"
#include "replay/dispatch_internal.h"
#include "glr_dispatch_pfn.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define PROC(d, name) ((glr_pfn_##name)glr_dispatch_proc(d, GLR_CMD_##name))

/* The capabilities of the legacy arrays, by enum sm_legacy_slot (texture units follow). */
static const GLenum legacy_cap[SM_LA_TEXCOORD0] = {
    GL_VERTEX_ARRAY, GL_NORMAL_ARRAY, GL_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY,
    GL_FOG_COORD_ARRAY, GL_EDGE_FLAG_ARRAY, GL_INDEX_ARRAY,
};

struct list_arrays {
    struct glr_dispatch *d;
    bool pushed;            /* client state pushed (first client array of the list) */
    bool batch_open;        /* arrays set for the next draw */
    void **copies;          /* copies of the recorded bytes, alive until glEndList */
    size_t n_copies, cap_copies;
};

static unsigned element_bytes(uint64_t size, uint64_t type)
{
    unsigned comps = size == GL_BGRA ? 4 : (unsigned)size;
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return comps;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return comps * 2;
    case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV: return 4;
    case GL_DOUBLE: return comps * 8;
    default: return comps * 4;
    }
}

/* Before the first array of a draw: every array off (only what the draw read is on again). */
static void disable_all(struct list_arrays *la)
{
    struct glr_dispatch *d = la->d;
    glr_pfn_glDisableClientState off = PROC(d, glDisableClientState);
    glr_pfn_glClientActiveTexture active = PROC(d, glClientActiveTexture);
    glr_pfn_glDisableVertexAttribArray off_attr = PROC(d, glDisableVertexAttribArray);
    glr_pfn_glGetIntegerv get = PROC(d, glGetIntegerv);
    if (off)
        for (int i = 0; i < SM_LA_TEXCOORD0; i++)
            off(legacy_cap[i]);
    if (off && active)
        for (int u = 0; u < SM_MAX_LEGACY_TEXCOORD; u++) {
            active(GL_TEXTURE0 + (GLenum)u);
            off(GL_TEXTURE_COORD_ARRAY);
        }
    if (active)
        active(GL_TEXTURE0);
    GLint max = 0;
    if (get)
        get(GL_MAX_VERTEX_ATTRIBS, &max);
    for (GLint i = 0; off_attr && i < max && i < 32; i++)
        off_attr((GLuint)i);
}

/* One GLR_PSEUDO_CLIENT_ARRAY record: args index, size, type, normalized, integer, stride, first
 * vertex, captured pointer; blob the bytes from the first vertex on. */
static int point_array(struct list_arrays *la, const struct glr_call *c)
{
    struct glr_dispatch *d = la->d;
    if (!la->pushed) {
        glr_pfn_glPushClientAttrib push = PROC(d, glPushClientAttrib);
        if (!push)
            return GLR_DISPATCH_MISSING;
        push(GL_CLIENT_VERTEX_ARRAY_BIT);
        la->pushed = true;
    }
    if (!la->batch_open) {
        disable_all(la);
        la->batch_open = true;
    }
    if (la->n_copies == la->cap_copies) {
        size_t cap = la->cap_copies ? la->cap_copies * 2 : 8;
        void **n = realloc(la->copies, cap * sizeof *n);
        if (!n)
            return GLR_DISPATCH_BAD;
        la->copies = n;
        la->cap_copies = cap;
    }
    size_t bytes = (size_t)c->blobs[0].size;
    void *mem = malloc(bytes ? bytes : 1);
    if (!mem)
        return GLR_DISPATCH_BAD;
    if (bytes)
        memcpy(mem, c->blobs[0].data, bytes);
    la->copies[la->n_copies++] = mem;
    GLint size = (GLint)c->args[1];
    GLenum type = (GLenum)c->args[2];
    GLsizei stride = (GLsizei)c->args[5];
    unsigned step = stride ? (unsigned)stride : element_bytes(c->args[1], c->args[2]);
    /* Offset back by `first` vertices: vertex `first` lands on the copy (GL reads from there on). */
    const void *base = (const void *)((uintptr_t)mem - (uintptr_t)c->args[6] * step);
    glr_pfn_glBindBuffer bind = PROC(d, glBindBuffer);
    if (bind)
        bind(GL_ARRAY_BUFFER, 0);   /* client memory; the binding comes back with the pop */
    uint64_t idx = c->args[0];
    if (idx < GLR_CLIENT_ARRAY_LEGACY_BASE) {
        glr_pfn_glVertexAttribPointer ptr = PROC(d, glVertexAttribPointer);
        glr_pfn_glVertexAttribIPointer iptr = PROC(d, glVertexAttribIPointer);
        glr_pfn_glEnableVertexAttribArray on = PROC(d, glEnableVertexAttribArray);
        if (!ptr || !on || (c->args[4] && !iptr))
            return GLR_DISPATCH_MISSING;
        if (c->args[4])
            iptr((GLuint)idx, size, type, stride, base);
        else
            ptr((GLuint)idx, size, type, (GLboolean)c->args[3], stride, base);
        on((GLuint)idx);
        return GLR_DISPATCH_OK;
    }
    uint64_t slot = idx - GLR_CLIENT_ARRAY_LEGACY_BASE;
    glr_pfn_glEnableClientState on = PROC(d, glEnableClientState);
    if (!on || slot >= SM_LA_COUNT)
        return on ? GLR_DISPATCH_BAD : GLR_DISPATCH_MISSING;
    switch (slot) {
    case SM_LA_VERTEX: { glr_pfn_glVertexPointer f = PROC(d, glVertexPointer); if (!f) return GLR_DISPATCH_MISSING; f(size, type, stride, base); break; }
    case SM_LA_NORMAL: { glr_pfn_glNormalPointer f = PROC(d, glNormalPointer); if (!f) return GLR_DISPATCH_MISSING; f(type, stride, base); break; }
    case SM_LA_COLOR: { glr_pfn_glColorPointer f = PROC(d, glColorPointer); if (!f) return GLR_DISPATCH_MISSING; f(size, type, stride, base); break; }
    case SM_LA_SECONDARY_COLOR: { glr_pfn_glSecondaryColorPointer f = PROC(d, glSecondaryColorPointer); if (!f) return GLR_DISPATCH_MISSING; f(size, type, stride, base); break; }
    case SM_LA_FOG_COORD: { glr_pfn_glFogCoordPointer f = PROC(d, glFogCoordPointer); if (!f) return GLR_DISPATCH_MISSING; f(type, stride, base); break; }
    case SM_LA_EDGE_FLAG: { glr_pfn_glEdgeFlagPointer f = PROC(d, glEdgeFlagPointer); if (!f) return GLR_DISPATCH_MISSING; f(stride, base); break; }
    case SM_LA_INDEX: { glr_pfn_glIndexPointer f = PROC(d, glIndexPointer); if (!f) return GLR_DISPATCH_MISSING; f(type, stride, base); break; }
    default: {
        glr_pfn_glTexCoordPointer f = PROC(d, glTexCoordPointer);
        glr_pfn_glClientActiveTexture active = PROC(d, glClientActiveTexture);
        if (!f || !active)
            return GLR_DISPATCH_MISSING;
        active(GL_TEXTURE0 + (GLenum)(slot - SM_LA_TEXCOORD0));
        f(size, type, stride, base);
        on(GL_TEXTURE_COORD_ARRAY);
        active(GL_TEXTURE0);
        return GLR_DISPATCH_OK;
    }
    }
    on(legacy_cap[slot]);
    return GLR_DISPATCH_OK;
}

static void count(struct glr_restore_stats *st, int k, uint32_t cmd)
{
    st->calls++;
    if (k == GLR_DISPATCH_MISSING || k == GLR_DISPATCH_BAD) {
        st->calls_failed++;
        if (!st->first_failed)
            st->first_failed = glr_call_name(cmd);
    }
}

int glr_restore_list(struct glr_dispatch *d, uint32_t ctx_id, uint32_t name, const void *data, size_t size,
                     struct glr_restore_stats *st, char *why, size_t why_size)
{
    glr_pfn_glNewList new_list = PROC(d, glNewList);
    glr_pfn_glEndList end_list = PROC(d, glEndList);
    if (!new_list || !end_list) {
        snprintf(why, why_size, "the replaying driver has no display lists");
        return -1;
    }
    struct list_arrays la = { .d = d };
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, data, size);
    new_list(name, GL_COMPILE);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        c.ctx_id = ctx_id;  /* the context the list is compiled on now, of the same share group */
        if (c.cmd == GLR_PSEUDO_CLIENT_ARRAY) {
            count(st, point_array(&la, &c), c.cmd);
            continue;
        }
        la.batch_open = false;  /* the next client array belongs to the next draw */
        if (c.cmd >= GLR_CMD_COUNT)
            continue;  /* the shim keeps no other events in a list */
        count(st, glr_dispatch_call(d, &c), c.cmd);
    }
    end_list();
    if (la.pushed) {
        glr_pfn_glPopClientAttrib pop = PROC(d, glPopClientAttrib);
        if (pop)
            pop();
    }
    for (size_t i = 0; i < la.n_copies; i++)
        free(la.copies[i]);
    free(la.copies);
    if (k < 0) {
        snprintf(why, why_size, "its records are corrupt: %s", s.err);
        return -1;
    }
    return 0;
}
