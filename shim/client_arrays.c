/* Client-memory vertex arrays (glVertexAttribPointer with no buffer bound, as legacy and ES 2
 * programs use them): the pointer is only an address, the data is read at each draw. So before a
 * recorded draw, the bytes of each enabled client array over the draw's vertex range are recorded
 * as a GLR_PSEUDO_CLIENT_ARRAY event (attrib index, size, type, normalized, integer, stride, first
 * vertex, pointer; data from the first vertex on). Legacy fixed-function arrays (glVertexPointer and
 * friends, compatibility contexts) are recorded the same way, with index GLR_CLIENT_ARRAY_LEGACY_BASE
 * plus the array's slot (enum sm_legacy_slot). Queries go to the real driver and are valid for
 * the context (never made in core profiles, where client arrays do not exist), so they raise no
 * GL error the program could see. */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "registry/glr_call.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

static int64_t type_bytes(GLenum type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: case GL_FIXED: return 4;
    case GL_DOUBLE: return 8;
    default: return -1;
    }
}

static bool is_packed(GLenum type)
{
    return type == GL_UNSIGNED_INT_2_10_10_10_REV || type == GL_INT_2_10_10_10_REV ||
           type == GL_UNSIGNED_INT_10F_11F_11F_REV;
}

/* min/max index of an element draw; false when it cannot be known. */
static bool index_range(const struct glr_cmd_info *ci, const uint64_t *a, int64_t *lo, int64_t *hi)
{
    int ci_count = glr_cmd_param_role(ci, GLR_ROLE_count), ci_type = glr_cmd_param_role(ci, GLR_ROLE_type), ci_ind = glr_cmd_param_role(ci, GLR_ROLE_indices);
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
    int bv = glr_cmd_param_role(ci, GLR_ROLE_basevertex);
    int64_t base = bv >= 0 ? (int32_t)a[bv] : 0;
    *lo = mn + base;
    *hi = mx + base;
    return mx >= 0;
}

/* The vertex range a draw reads, worked out once per draw on first need. */
struct draw_range {
    bool tried, ok;
    int64_t lo, hi;
};

/* glMultiDrawArrays / glMultiDrawElements[BaseVertex]: the union of the sub-draws' ranges. The
 * arrays of firsts, counts, index pointers and base vertices are the program's memory, valid
 * during the call; each sub-draw's indices are scanned as a single draw's are. */
static bool multi_range(const struct glr_cmd_info *ci, const uint64_t *a, int64_t *lo, int64_t *hi)
{
    int pf = glr_cmd_param_role(ci, GLR_ROLE_first), pc = glr_cmd_param_role(ci, GLR_ROLE_count),
        pt = glr_cmd_param_role(ci, GLR_ROLE_type), pi = glr_cmd_param_role(ci, GLR_ROLE_indices),
        pn = glr_cmd_param_role(ci, GLR_ROLE_drawcount), pb = glr_cmd_param_role(ci, GLR_ROLE_basevertex);
    if (pc < 0 || pn < 0 || !a[pc])
        return false;
    int64_t n = (int32_t)a[pn];
    const GLsizei *counts = (const GLsizei *)(uintptr_t)a[pc];
    const GLint *firsts = pf >= 0 ? (const GLint *)(uintptr_t)a[pf] : NULL;
    const void *const *indices = pi >= 0 ? (const void *const *)(uintptr_t)a[pi] : NULL;
    const GLint *bases = pb >= 0 ? (const GLint *)(uintptr_t)a[pb] : NULL;
    bool elements = (ci->flags & GLR_CF_ELEMENTS) != 0;
    if ((elements && (!indices || pt < 0)) || (!elements && !firsts))
        return false;
    int64_t mn = INT64_MAX, mx = -1;
    for (int64_t i = 0; i < n; i++) {
        int64_t l, h;
        if (counts[i] <= 0)
            continue;
        if (elements) {
            /* one sub-draw as a single glDrawElementsBaseVertex's arguments */
            const struct glr_cmd_info *one = &glr_cmds[GLR_CMD_glDrawElementsBaseVertex];
            uint64_t sub[5] = { a[0], (uint64_t)(uint32_t)counts[i], a[pt], (uint64_t)(uintptr_t)indices[i],
                                (uint64_t)(uint32_t)(bases ? bases[i] : 0) };
            if (!index_range(one, sub, &l, &h))
                return false;
        } else {
            l = firsts[i];
            h = l + counts[i] - 1;
        }
        if (l < mn)
            mn = l;
        if (h > mx)
            mx = h;
    }
    *lo = mn;
    *hi = mx;
    return mx >= 0;
}

static bool draw_range(const struct glr_cmd_info *ci, const uint64_t *a, struct draw_range *dr)
{
    if (dr->tried)
        return dr->ok;
    dr->tried = true;
    int f = glr_cmd_param_role(ci, GLR_ROLE_first), c = glr_cmd_param_role(ci, GLR_ROLE_count);
    if (ci->flags & GLR_CF_MULTI_DRAW) {
        dr->ok = multi_range(ci, a, &dr->lo, &dr->hi);
    } else if (ci->flags & GLR_CF_ELEMENTS) {
        dr->ok = index_range(ci, a, &dr->lo, &dr->hi);
    } else if (f >= 0 && c >= 0) {
        dr->lo = (int32_t)a[f];
        dr->hi = dr->lo + (int32_t)a[c] - 1;
        dr->ok = true;
    }
    return dr->ok;
}

/* One client array as a GLR_PSEUDO_CLIENT_ARRAY record. false when recording must stop. */
static bool emit_array(const struct glr_cmd_info *ci, const uint64_t *a, const struct draw_range *dr,
                       uint32_t idx, GLint size, GLint type, GLint norm, GLint integer, GLint stride,
                       GLint divisor, const void *ptr)
{
    int64_t lo = dr->lo, hi = dr->hi;
    if (!ptr || hi < lo || lo < 0)
        return true;
    int64_t comps = size == GL_BGRA ? 4 : size;
    int64_t elem = is_packed((GLenum)type) ? 4 : comps * type_bytes((GLenum)type);
    if (elem <= 0)
        return true;
    int64_t step = stride ? stride : elem;
    int64_t first = divisor ? 0 : lo, last = hi;
    if (divisor) {
        int ic = glr_cmd_param_role(ci, GLR_ROLE_instancecount);
        int64_t inst = ic >= 0 ? (int32_t)a[ic] : 1;
        last = inst > 0 ? (inst - 1) / divisor : 0;
    }
    int64_t bytes = (last - first) * step + elem;
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_CLIENT_ARRAY, glr_ctx_id(glr_ctx_current()));
    if (!r)
        return false;
    glr_rec_uvar(r, idx);
    glr_rec_uvar(r, (uint64_t)size);
    glr_rec_uvar(r, (uint64_t)type);
    glr_rec_uvar(r, (uint64_t)norm);
    glr_rec_uvar(r, (uint64_t)integer);
    glr_rec_uvar(r, (uint64_t)stride);
    glr_rec_uvar(r, (uint64_t)first);
    glr_rec_uvar(r, (uint64_t)(uintptr_t)ptr);
    glr_rec_blob(r, (const uint8_t *)ptr + first * step, bytes);
    glr_rec_end(r);
    return true;
}

/* Queries of one legacy array (0: the array has no such parameter, its fixed value applies). */
struct legacy_query {
    uint8_t slot;                 /* enum sm_legacy_slot */
    GLenum cap, size, type, stride, pointer, buffer;
    GLint fixed_size;             /* when size is 0 */
    GLenum fixed_type;            /* when type is 0 */
    bool normalized;              /* integer types read as [0,1] / [-1,1] (colours, normals) */
    int since;                    /* desktop GL version (major * 10 + minor) that has the array */
};

static const struct legacy_query legacy_arrays[] = {
    { SM_LA_VERTEX, GL_VERTEX_ARRAY, GL_VERTEX_ARRAY_SIZE, GL_VERTEX_ARRAY_TYPE, GL_VERTEX_ARRAY_STRIDE,
      GL_VERTEX_ARRAY_POINTER, GL_VERTEX_ARRAY_BUFFER_BINDING, 0, 0, false, 11 },
    { SM_LA_NORMAL, GL_NORMAL_ARRAY, 0, GL_NORMAL_ARRAY_TYPE, GL_NORMAL_ARRAY_STRIDE, GL_NORMAL_ARRAY_POINTER,
      GL_NORMAL_ARRAY_BUFFER_BINDING, 3, 0, true, 11 },
    { SM_LA_COLOR, GL_COLOR_ARRAY, GL_COLOR_ARRAY_SIZE, GL_COLOR_ARRAY_TYPE, GL_COLOR_ARRAY_STRIDE,
      GL_COLOR_ARRAY_POINTER, GL_COLOR_ARRAY_BUFFER_BINDING, 0, 0, true, 11 },
    { SM_LA_SECONDARY_COLOR, GL_SECONDARY_COLOR_ARRAY, GL_SECONDARY_COLOR_ARRAY_SIZE,
      GL_SECONDARY_COLOR_ARRAY_TYPE, GL_SECONDARY_COLOR_ARRAY_STRIDE, GL_SECONDARY_COLOR_ARRAY_POINTER,
      GL_SECONDARY_COLOR_ARRAY_BUFFER_BINDING, 0, 0, true, 14 },
    { SM_LA_FOG_COORD, GL_FOG_COORDINATE_ARRAY, 0, GL_FOG_COORDINATE_ARRAY_TYPE,
      GL_FOG_COORDINATE_ARRAY_STRIDE, GL_FOG_COORDINATE_ARRAY_POINTER, GL_FOG_COORDINATE_ARRAY_BUFFER_BINDING,
      1, 0, false, 14 },
    { SM_LA_EDGE_FLAG, GL_EDGE_FLAG_ARRAY, 0, 0, GL_EDGE_FLAG_ARRAY_STRIDE, GL_EDGE_FLAG_ARRAY_POINTER,
      GL_EDGE_FLAG_ARRAY_BUFFER_BINDING, 1, GL_UNSIGNED_BYTE, false, 11 },
    { SM_LA_INDEX, GL_INDEX_ARRAY, 0, GL_INDEX_ARRAY_TYPE, GL_INDEX_ARRAY_STRIDE, GL_INDEX_ARRAY_POINTER,
      GL_INDEX_ARRAY_BUFFER_BINDING, 1, 0, false, 11 },
};
static const struct legacy_query texcoord_array = {
    SM_LA_TEXCOORD0, GL_TEXTURE_COORD_ARRAY, GL_TEXTURE_COORD_ARRAY_SIZE, GL_TEXTURE_COORD_ARRAY_TYPE,
    GL_TEXTURE_COORD_ARRAY_STRIDE, GL_TEXTURE_COORD_ARRAY_POINTER, GL_TEXTURE_COORD_ARRAY_BUFFER_BINDING, 0, 0,
    false, 11
};

/* One legacy array, if enabled and in client memory (the client active texture unit selects the
 * texture coordinate array). false when recording must stop. */
static bool legacy_array(const struct glr_cmd_info *ci, const uint64_t *a, struct draw_range *dr,
                         const struct legacy_query *q, uint32_t slot, bool have_vbo)
{
    if (!GLR_REAL(glIsEnabled)(q->cap))
        return true;
    GLint buffer = 0, size = q->fixed_size, type = (GLint)q->fixed_type, stride = 0;
    if (have_vbo)
        GLR_REAL(glGetIntegerv)(q->buffer, &buffer);
    if (buffer)
        return true;
    if (!draw_range(ci, a, dr))
        return false;
    if (q->size)
        GLR_REAL(glGetIntegerv)(q->size, &size);
    if (q->type)
        GLR_REAL(glGetIntegerv)(q->type, &type);
    GLR_REAL(glGetIntegerv)(q->stride, &stride);
    void *ptr = NULL;
    GLR_REAL(glGetPointerv)(q->pointer, &ptr);
    bool fl = type == GL_FLOAT || type == GL_DOUBLE || type == GL_HALF_FLOAT;
    return emit_array(ci, a, dr, GLR_CLIENT_ARRAY_LEGACY_BASE + slot, size, type, q->normalized && !fl, 0,
                      stride, 0, ptr);
}

/* The fixed-function arrays of compatibility contexts (glVertexPointer and friends). */
static void legacy_arrays_rec(const struct glr_ctx_desc *d, const struct glr_cmd_info *ci, const uint64_t *a,
                              struct draw_range *dr)
{
    int ver = d->major * 10 + (d->minor > 9 ? 9 : d->minor);
    if (ver == 31)
        return; /* 3.1 has no profiles and no legacy arrays unless GL_ARB_compatibility: never query */
    bool have_vbo = ver >= 15;
    for (size_t k = 0; k < sizeof legacy_arrays / sizeof legacy_arrays[0]; k++) {
        const struct legacy_query *q = &legacy_arrays[k];
        if (ver >= q->since && !legacy_array(ci, a, dr, q, q->slot, have_vbo))
            return;
    }
    if (ver < 13)
        return;
    GLint units = 0, active = GL_TEXTURE0;
    GLR_REAL(glGetIntegerv)(ver >= 20 ? GL_MAX_TEXTURE_COORDS : GL_MAX_TEXTURE_UNITS, &units);
    if (units > SM_MAX_LEGACY_TEXCOORD)
        units = SM_MAX_LEGACY_TEXCOORD;
    GLR_REAL(glGetIntegerv)(GL_CLIENT_ACTIVE_TEXTURE, &active);
    for (GLint u = 0; u < units; u++) {
        GLR_REAL(glClientActiveTexture)(GL_TEXTURE0 + (GLenum)u);
        if (!legacy_array(ci, a, dr, &texcoord_array, SM_LA_TEXCOORD0 + (uint32_t)u, have_vbo))
            break;
    }
    GLR_REAL(glClientActiveTexture)((GLenum)active);
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
    struct draw_range dr = { 0 };
    for (GLuint i = 0; i < (GLuint)max_attribs; i++) {
        GLint enabled = 0, buffer = 0;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_ENABLED, &enabled);
        if (!enabled)
            continue;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_BUFFER_BINDING, &buffer);
        if (buffer)
            continue;
        if (!draw_range(ci, a, &dr))
            return;
        GLint size = 4, type = 0, norm = 0, integer = 0, stride = 0, divisor = 0;
        void *ptr = NULL;
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_SIZE, &size);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_TYPE, &type);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_NORMALIZED, &norm);
        GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_STRIDE, &stride);
        if (d->major >= 3) {
            GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_INTEGER, &integer);
            GLR_REAL(glGetVertexAttribiv)(i, GL_VERTEX_ATTRIB_ARRAY_DIVISOR, &divisor);
        }
        GLR_REAL(glGetVertexAttribPointerv)(i, GL_VERTEX_ATTRIB_ARRAY_POINTER, &ptr);
        if (!emit_array(ci, a, &dr, i, size, type, norm, integer, stride, divisor, ptr))
            return;
    }
    if (!d->is_es)
        legacy_arrays_rec(d, ci, a, &dr);
}
