/* Client-memory vertex arrays (glVertexAttribPointer with no buffer bound, as legacy and ES 2
 * programs use them): the pointer is only an address, the data is read at each draw. So before a
 * recorded draw, the bytes of each enabled client array over the draw's vertex range are recorded
 * as a GLR_PSEUDO_CLIENT_ARRAY event (attrib index, size, type, normalized, integer, stride, first
 * vertex, pointer; data from the first vertex on). Queries go to the real driver and are valid for
 * the context (never made in core profiles, where client arrays do not exist), so they raise no
 * GL error the program could see. */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "statemodel/registry/glr_call.h"

#define GL_MAX_VERTEX_ATTRIBS 0x8869
#define GL_VERTEX_ATTRIB_ARRAY_ENABLED 0x8622
#define GL_VERTEX_ATTRIB_ARRAY_SIZE 0x8623
#define GL_VERTEX_ATTRIB_ARRAY_STRIDE 0x8624
#define GL_VERTEX_ATTRIB_ARRAY_TYPE 0x8625
#define GL_VERTEX_ATTRIB_ARRAY_NORMALIZED 0x886A
#define GL_VERTEX_ATTRIB_ARRAY_INTEGER 0x88FD
#define GL_VERTEX_ATTRIB_ARRAY_DIVISOR 0x88FE
#define GL_VERTEX_ATTRIB_ARRAY_POINTER 0x8645
#define GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING 0x889F
#define GL_ELEMENT_ARRAY_BUFFER 0x8893
#define GL_ELEMENT_ARRAY_BUFFER_BINDING 0x8895
#define GL_MAP_READ_BIT 0x0001
#define GL_CONTEXT_CORE_PROFILE_BIT 0x1
#define GL_BGRA 0x80E1

static int64_t type_bytes(GLenum type)
{
    switch (type) {
    case 0x1400: case 0x1401: return 1;
    case 0x1402: case 0x1403: case 0x140B: return 2;
    case 0x1404: case 0x1405: case 0x1406: case 0x140C: return 4;
    case 0x140A: return 8;
    default: return -1;
    }
}

static bool is_packed(GLenum type)
{
    return type == 0x8368 || type == 0x8D9F || type == 0x8C3B; /* 2_10_10_10_REV, INT_2_10_10_10_REV, 10F_11F_11F_REV */
}

static int param_index(const struct glr_cmd_info *ci, const char *name)
{
    for (int i = 0; i < ci->nparams; i++)
        if (strcmp(ci->params[i].name, name) == 0)
            return i;
    return -1;
}

/* min/max index of an element draw; false when it cannot be known. */
static bool index_range(const struct glr_cmd_info *ci, const uint64_t *a, int64_t *lo, int64_t *hi)
{
    int ci_count = param_index(ci, "count"), ci_type = param_index(ci, "type"), ci_ind = param_index(ci, "indices");
    if (ci_count < 0 || ci_type < 0 || ci_ind < 0)
        return false;
    int64_t count = (int32_t)a[ci_count];
    GLenum type = (GLenum)a[ci_type];
    int64_t ts = type_bytes(type);
    if (count <= 0 || (ts != 1 && ts != 2 && ts != 4))
        return false;
    const void *indices = (const void *)(uintptr_t)a[ci_ind];
    void *mapped = NULL;
    GLint ebo = 0;
    GLR_REAL(glGetIntegerv)(GL_ELEMENT_ARRAY_BUFFER_BINDING, &ebo);
    if (ebo) {
        mapped = GLR_REAL(glMapBufferRange)(GL_ELEMENT_ARRAY_BUFFER, (GLintptr)(uintptr_t)indices, count * ts,
                                            GL_MAP_READ_BIT);
        if (!mapped)
            return false;
        indices = mapped;
    }
    int64_t mn = INT64_MAX, mx = -1;
    for (int64_t i = 0; i < count; i++) {
        int64_t v = ts == 1 ? ((const uint8_t *)indices)[i] : ts == 2 ? ((const uint16_t *)indices)[i]
                                                                       : ((const uint32_t *)indices)[i];
        if (v < mn)
            mn = v;
        if (v > mx)
            mx = v;
    }
    if (mapped)
        GLR_REAL(glUnmapBuffer)(GL_ELEMENT_ARRAY_BUFFER);
    int bv = param_index(ci, "basevertex");
    int64_t base = bv >= 0 ? (int32_t)a[bv] : 0;
    *lo = mn + base;
    *hi = mx + base;
    return mx >= 0;
}

void glr_rec_client_arrays(int cmd, const uint64_t *a)
{
    const struct glr_ctx_desc *d = glr_current_ctx_desc();
    if (!d || (!d->is_es && (d->profile_mask & GL_CONTEXT_CORE_PROFILE_BIT)) || (d->is_es && d->major < 2))
        return;
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    GLint max_attribs = 0;
    GLR_REAL(glGetIntegerv)(GL_MAX_VERTEX_ATTRIBS, &max_attribs);
    if (max_attribs > 32)
        max_attribs = 32;
    bool have_range = false;
    int64_t lo = 0, hi = -1;
    for (GLuint i = 0; i < (GLuint)max_attribs; i++) {
        GLint enabled = 0, buffer = 0;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled)
            continue;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
        if (buffer)
            continue;
        if (!have_range) {
            int f = param_index(ci, "first"), c = param_index(ci, "count");
            if (strstr(ci->name, "Elements")) {
                if (!index_range(ci, a, &lo, &hi))
                    return;
            } else if (f >= 0 && c >= 0) {
                lo = (int32_t)a[f];
                hi = lo + (int32_t)a[c] - 1;
            } else {
                return;
            }
            have_range = true;
        }
        GLint size = 4, type = 0, norm = 0, integer = 0, stride = 0, divisor = 0;
        void *ptr = NULL;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
        if (d->is_es ? d->major >= 3 : d->major >= 3) {
            GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
            GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        }
        GLR_REAL(glGetVertexAttribPointerv)(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        if (!ptr || hi < lo || lo < 0)
            continue;
        int64_t comps = size == GL_BGRA ? 4 : size;
        int64_t elem = is_packed((GLenum)type) ? 4 : comps * type_bytes((GLenum)type);
        if (elem <= 0)
            continue;
        int64_t step = stride ? stride : elem;
        int64_t first = divisor ? 0 : lo, last = hi;
        if (divisor) {
            int ic = param_index(ci, "instancecount");
            int64_t inst = ic >= 0 ? (int32_t)a[ic] : 1;
            last = inst > 0 ? (inst - 1) / divisor : 0;
        }
        int64_t bytes = (last - first) * step + elem;
        struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_CLIENT_ARRAY, glr_ctx_id(glr_ctx_current()));
        if (!r)
            return;
        glr_rec_uvar(r, i);
        glr_rec_uvar(r, (uint64_t)size);
        glr_rec_uvar(r, (uint64_t)type);
        glr_rec_uvar(r, (uint64_t)norm);
        glr_rec_uvar(r, (uint64_t)integer);
        glr_rec_uvar(r, (uint64_t)stride);
        glr_rec_uvar(r, (uint64_t)first);
        glr_rec_uvar(r, (uint64_t)(uintptr_t)ptr);
        glr_rec_blob(r, (const uint8_t *)ptr + first * step, bytes);
        glr_rec_end(r);
    }
}
