/* Vertex array state: generic attribute formats, pointers, bindings, divisors, enables, element
 * buffer, legacy client-side arrays, and the current generic attribute values. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_current.h"

static struct sm_vao *cur_vao(struct sm_ap *a) { return ap_vao(a, a->c->st.vao); }

static bool attrib_index_ok(struct sm_ap *a, uint32_t i)
{
    if (i >= SM_MAX_VERTEX_ATTRIBS) {
        ap_error(a, "vertex attribute index out of range");
        return false;
    }
    return true;
}

static int32_t packed_stride(int32_t size, uint32_t type)
{
    if (type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV ||
        type == GL_UNSIGNED_INT_10F_11F_11F_REV)
        return 4;
    return (size == (int32_t)GL_BGRA ? 4 : size) * (int32_t)sm_type_size(type);
}

/* gl*Pointer: format + binding == index + the buffer on GL_ARRAY_BUFFER at `pointer`. */
static void attrib_pointer(struct sm_ap *a, uint32_t index, int32_t size, uint32_t type,
                           bool normalized, bool integer, bool is_long, int32_t stride,
                           uint64_t pointer)
{
    struct sm_vao *v = cur_vao(a);
    if (!v || !attrib_index_ok(a, index))
        return;
    if (stride < 0) {
        ap_error(a, "negative stride");
        return;
    }
    struct sm_vertex_attrib *at = &v->attrib[index];
    at->size = size;
    at->type = type;
    at->normalized = normalized;
    at->integer = integer;
    at->is_long = is_long;
    at->relative_offset = 0;
    at->binding = index;
    at->stride = stride;
    at->pointer = pointer;
    struct sm_vertex_binding *b = &v->binding[index];
    b->buffer = a->c->st.buffer[SM_BT_ARRAY];
    b->offset = pointer;
    b->stride = stride ? stride : packed_stride(size, type);
}

static void h_attrib_pointer(struct sm_ap *a)
{
    attrib_pointer(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), ap_u(a, 3) != 0, false, false, ap_i(a, 4),
                   ap_u64(a, 5));
}

static void h_attrib_ipointer(struct sm_ap *a)
{
    bool is_long = a->cmd == GLR_CMD_glVertexAttribLPointer;
    attrib_pointer(a, ap_u(a, 0), ap_i(a, 1), ap_u(a, 2), false, !is_long, is_long, ap_i(a, 3),
                   ap_u64(a, 4));
}

static void h_enable_attrib(struct sm_ap *a)
{
    bool dsa = a->cmd == GLR_CMD_glEnableVertexArrayAttrib ||
               a->cmd == GLR_CMD_glDisableVertexArrayAttrib;
    bool on = a->cmd == GLR_CMD_glEnableVertexAttribArray ||
              a->cmd == GLR_CMD_glEnableVertexArrayAttrib;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    uint32_t index = ap_u(a, dsa ? 1 : 0);
    if (v && attrib_index_ok(a, index))
        v->attrib[index].enabled = on;
}

static void h_attrib_divisor(struct sm_ap *a)
{
    struct sm_vao *v = cur_vao(a);
    uint32_t index = ap_u(a, 0);
    if (!v || !attrib_index_ok(a, index))
        return;
    v->attrib[index].binding = index;
    v->binding[index].divisor = ap_u(a, 1);
}

/* gl[VertexArray]Attrib{,I,L}Format([vaobj,] attribindex, size, type, [normalized,] reloffset) */
static void h_attrib_format(struct sm_ap *a)
{
    unsigned form = glr_cmds[a->cmd].form;   /* generated (registry/gl_annotations.txt) */
    bool dsa = form & GLR_FORM_VAO_FIRST;
    bool integer = form & GLR_FORM_FORMAT_I, is_long = form & GLR_FORM_FORMAT_L;
    int i = dsa ? 1 : 0;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    uint32_t index = ap_u(a, i);
    if (!v || !attrib_index_ok(a, index))
        return;
    struct sm_vertex_attrib *at = &v->attrib[index];
    at->size = ap_i(a, i + 1);
    at->type = ap_u(a, i + 2);
    at->integer = integer;
    at->is_long = is_long;
    at->normalized = (!integer && !is_long) ? ap_u(a, i + 3) != 0 : false;
    at->relative_offset = ap_u(a, (!integer && !is_long) ? i + 4 : i + 3);
}

static void h_attrib_binding(struct sm_ap *a)
{
    bool dsa = a->cmd == GLR_CMD_glVertexArrayAttribBinding;
    int i = dsa ? 1 : 0;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    uint32_t index = ap_u(a, i), binding = ap_u(a, i + 1);
    if (v && attrib_index_ok(a, index) && attrib_index_ok(a, binding))
        v->attrib[index].binding = binding;
}

static void bind_vertex_buffer(struct sm_ap *a, struct sm_vao *v, uint32_t bi, uint32_t buffer,
                               uint64_t offset, int32_t stride)
{
    if (!v || !attrib_index_ok(a, bi))
        return;
    if (buffer)
        ap_buffer(a, buffer, true);
    v->binding[bi].buffer = buffer;
    v->binding[bi].offset = offset;
    v->binding[bi].stride = stride;
}

/* glBindVertexBuffer(bindingindex, buffer, offset, stride) / glVertexArrayVertexBuffer(vaobj, ...) */
static void h_bind_vertex_buffer(struct sm_ap *a)
{
    bool dsa = a->cmd == GLR_CMD_glVertexArrayVertexBuffer;
    int i = dsa ? 1 : 0;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    bind_vertex_buffer(a, v, ap_u(a, i), ap_u(a, i + 1), ap_u64(a, i + 2), ap_i(a, i + 3));
}

/* glBindVertexBuffers(first, count, buffers, offsets, strides) / glVertexArrayVertexBuffers */
static void h_bind_vertex_buffers(struct sm_ap *a)
{
    bool dsa = a->cmd == GLR_CMD_glVertexArrayVertexBuffers;
    int i = dsa ? 1 : 0;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    uint32_t first = ap_u(a, i);
    int32_t count = ap_i(a, i + 1);
    if (count <= 0)
        return;
    const uint32_t *bufs = ap_blob(a, i + 2, (uint64_t)count * 4);
    const int64_t *offs = ap_blob(a, i + 3, (uint64_t)count * 8);
    const int32_t *strides = ap_blob(a, i + 4, (uint64_t)count * 4);
    if (bufs && (!offs || !strides)) {
        ap_error(a, "offsets/strides missing from the recorded call");
        return;
    }
    for (int32_t k = 0; k < count; k++)
        bind_vertex_buffer(a, v, first + (uint32_t)k, bufs ? bufs[k] : 0,
                           bufs ? (uint64_t)offs[k] : 0, bufs ? strides[k] : 16);
}

static void h_binding_divisor(struct sm_ap *a)
{
    bool dsa = a->cmd == GLR_CMD_glVertexArrayBindingDivisor;
    int i = dsa ? 1 : 0;
    struct sm_vao *v = dsa ? ap_vao(a, ap_u(a, 0)) : cur_vao(a);
    uint32_t bi = ap_u(a, i);
    if (v && attrib_index_ok(a, bi))
        v->binding[bi].divisor = ap_u(a, i + 1);
}

static void h_vao_element_buffer(struct sm_ap *a)
{
    struct sm_vao *v = ap_vao(a, ap_u(a, 0));
    if (v)
        v->element_buffer = ap_u(a, 1);
}

/* ------------------------------------------------------------------ legacy client arrays */

static void legacy_pointer(struct sm_ap *a, int which, int32_t size, uint32_t type, int32_t stride,
                           uint64_t pointer)
{
    struct sm_vao *v = cur_vao(a);
    if (!v)
        return;
    struct sm_legacy_array *la = &v->legacy[which];
    la->size = size;
    la->type = type;
    la->stride = stride;
    la->pointer = pointer;
    la->buffer = a->c->st.buffer[SM_BT_ARRAY];
}

static void h_legacy_pointer(struct sm_ap *a)
{
    switch (a->cmd) {
    case GLR_CMD_glVertexPointer:
        legacy_pointer(a, SM_LA_VERTEX, ap_i(a, 0), ap_u(a, 1), ap_i(a, 2), ap_u64(a, 3));
        break;
    case GLR_CMD_glColorPointer:
        legacy_pointer(a, SM_LA_COLOR, ap_i(a, 0), ap_u(a, 1), ap_i(a, 2), ap_u64(a, 3));
        break;
    case GLR_CMD_glSecondaryColorPointer:
        legacy_pointer(a, SM_LA_SECONDARY_COLOR, ap_i(a, 0), ap_u(a, 1), ap_i(a, 2), ap_u64(a, 3));
        break;
    case GLR_CMD_glTexCoordPointer:
        legacy_pointer(a, SM_LA_TEXCOORD0 + (int)a->c->st.client_active_texture, ap_i(a, 0),
                       ap_u(a, 1), ap_i(a, 2), ap_u64(a, 3));
        break;
    case GLR_CMD_glNormalPointer:
        legacy_pointer(a, SM_LA_NORMAL, 3, ap_u(a, 0), ap_i(a, 1), ap_u64(a, 2));
        break;
    case GLR_CMD_glFogCoordPointer:
        legacy_pointer(a, SM_LA_FOG_COORD, 1, ap_u(a, 0), ap_i(a, 1), ap_u64(a, 2));
        break;
    case GLR_CMD_glIndexPointer:
        legacy_pointer(a, SM_LA_INDEX, 1, ap_u(a, 0), ap_i(a, 1), ap_u64(a, 2));
        break;
    case GLR_CMD_glEdgeFlagPointer:
        legacy_pointer(a, SM_LA_EDGE_FLAG, 1, GL_UNSIGNED_BYTE, ap_i(a, 0), ap_u64(a, 1));
        break;
    default:
        break;
    }
}

bool sm_legacy_client_cap(struct sm_ap *a, uint32_t cap, bool on)
{
    int which;
    switch (cap) {
    case GL_VERTEX_ARRAY: which = SM_LA_VERTEX; break;
    case GL_NORMAL_ARRAY: which = SM_LA_NORMAL; break;
    case GL_COLOR_ARRAY: which = SM_LA_COLOR; break;
    case GL_SECONDARY_COLOR_ARRAY: which = SM_LA_SECONDARY_COLOR; break;
    case GL_FOG_COORD_ARRAY: which = SM_LA_FOG_COORD; break;
    case GL_EDGE_FLAG_ARRAY: which = SM_LA_EDGE_FLAG; break;
    case GL_INDEX_ARRAY: which = SM_LA_INDEX; break;
    case GL_TEXTURE_COORD_ARRAY: which = SM_LA_TEXCOORD0 + (int)a->c->st.client_active_texture; break;
    default:
        return false;
    }
    struct sm_vao *v = cur_vao(a);
    if (v)
        v->legacy[which].enabled = on;
    return true;
}

static void h_client_state(struct sm_ap *a)
{
    if (!sm_legacy_client_cap(a, ap_u(a, 0), a->cmd == GLR_CMD_glEnableClientState))
        ap_error(a, "client array not modelled");
}

/* ------------------------------------------------------------------ current attribute values */

struct afam {
    uint8_t n;          /* components given */
    uint8_t store;      /* enum sm_value_kind kept */
    uint8_t src;        /* 'b','s','i','f','d','B'(ub),'S'(us),'I'(ui) */
    bool norm, vec;
};
static struct afam afams[GLR_CMD_COUNT];

static double normalize(char src, double v)
{
    switch (src) {
    case 'b': return v / 127.0 < -1.0 ? -1.0 : v / 127.0;
    case 's': return v / 32767.0 < -1.0 ? -1.0 : v / 32767.0;
    case 'i': return v / 2147483647.0 < -1.0 ? -1.0 : v / 2147483647.0;
    case 'B': return v / 255.0;
    case 'S': return v / 65535.0;
    case 'I': return v / 4294967295.0;
    default: return v;
    }
}

static size_t src_size(char src)
{
    switch (src) {
    case 'b': case 'B': return 1;
    case 's': case 'S': return 2;
    case 'd': return 8;
    default: return 4;
    }
}

/* One component read from memory of the source type: as double, and as raw integer. */
static void read_comp(char src, const uint8_t *p, double *d, int64_t *i)
{
    switch (src) {
    case 'b': { int8_t x; memcpy(&x, p, 1); *i = x; break; }
    case 'B': { uint8_t x = *p; *i = x; break; }
    case 's': { int16_t x; memcpy(&x, p, 2); *i = x; break; }
    case 'S': { uint16_t x; memcpy(&x, p, 2); *i = x; break; }
    case 'i': { int32_t x; memcpy(&x, p, 4); *i = x; break; }
    case 'I': { uint32_t x; memcpy(&x, p, 4); *i = x; break; }
    case 'f': { float x; memcpy(&x, p, 4); *d = x; *i = (int64_t)x; return; }
    default: { double x; memcpy(&x, p, 8); *d = x; *i = (int64_t)x; return; }
    }
    *d = (double)*i;
}

static void h_attrib_value(struct sm_ap *a)
{
    const struct afam *f = &afams[a->cmd];
    uint32_t index = ap_u(a, 0);
    if (!attrib_index_ok(a, index))
        return;
    size_t es = src_size(f->src);
    /* The family table holds 1-4 components (glVertexAttrib{1-4}); bounding n here keeps every
     * write below inside buf and every read inside the four components of out. */
    const int n = f->n < 4 ? f->n : 4;
    uint8_t buf[32];
    const uint8_t *src = buf;
    if (f->vec) {
        src = ap_blob(a, 1, es * (size_t)n);
        if (!src) {
            ap_error(a, "attribute values missing from the recorded call");
            return;
        }
    } else {
        for (int k = 0; k < n; k++) {
            uint64_t v = a->call->args[1 + k];
            /* Scalars are stored by kind: floats as bits, integers sign/zero-extended. */
            if (f->src == 'f') {
                uint32_t w = (uint32_t)v;
                memcpy(buf + 4 * k, &w, 4);
            } else if (f->src == 'd') {
                memcpy(buf + 8 * k, &v, 8);
            } else {
                int64_t x = (int64_t)v;
                switch (es) {
                case 1: { uint8_t y = (uint8_t)x; memcpy(buf + k, &y, 1); break; }
                case 2: { uint16_t y = (uint16_t)x; memcpy(buf + 2 * k, &y, 2); break; }
                default: { uint32_t y = (uint32_t)x; memcpy(buf + 4 * k, &y, 4); break; }
                }
            }
        }
    }
    struct sm_attrib_value *out = &a->c->st.attrib_value[index];
    memset(out, 0, sizeof *out);
    out->kind = f->store;
    for (int k = 0; k < 4; k++) {
        double d = (k == 3) ? 1.0 : 0.0;
        int64_t iv = (k == 3) ? 1 : 0;
        if (k < n)
            read_comp(f->src, src + es * (size_t)k, &d, &iv);
        if (k < n && f->norm)
            d = normalize(f->src, d);
        switch (f->store) {
        case SM_VK_FLOAT: out->v.f[k] = (float)d; break;
        case SM_VK_DOUBLE: out->v.d[k] = d; break;
        case SM_VK_INT: out->v.i[k] = (int32_t)iv; break;
        default: out->v.u[k] = (uint32_t)iv; break;
        }
    }
}

/* glVertexAttrib[I|L]{1-4}[N]{b,s,i,f,d,ub,us,ui}[v]: their shape from gl_annotations.txt. */
void sm_register_attrib_family(sm_apply_fn *tab, const struct glr_cmd_values *v)
{
    /* The source type as read_comp and normalize know it. */
    static const char src_of[] = {
        [GLR_VT_B] = 'b', [GLR_VT_UB] = 'B', [GLR_VT_S] = 's', [GLR_VT_US] = 'S',
        [GLR_VT_I] = 'i', [GLR_VT_UI] = 'I', [GLR_VT_F] = 'f', [GLR_VT_D] = 'd',
    };
    if (v->rows < 1 || v->rows > 4 || v->type >= sizeof src_of || !src_of[v->type])
        return;   /* not a shape the handler reads (the generator bounds rows already) */
    struct afam f = { .n = v->rows, .store = sm_vk_of_value_type(v->store), .src = (uint8_t)src_of[v->type],
                      .norm = (v->flags & GLR_VF_NORMALIZED) != 0, .vec = (v->flags & GLR_VF_VECTOR) != 0 };
    afams[v->cmd] = f;
    tab[v->cmd] = h_attrib_value;
}

bool sm_attrib_family_has(uint32_t cmd)
{
    return cmd < GLR_CMD_COUNT && afams[cmd].n != 0;
}

void sm_register_vertex(sm_apply_fn *t)
{
    t[GLR_CMD_glVertexAttribPointer] = h_attrib_pointer;
    t[GLR_CMD_glVertexAttribIPointer] = h_attrib_ipointer;
    t[GLR_CMD_glVertexAttribLPointer] = h_attrib_ipointer;
    t[GLR_CMD_glEnableVertexAttribArray] = h_enable_attrib;
    t[GLR_CMD_glDisableVertexAttribArray] = h_enable_attrib;
    t[GLR_CMD_glEnableVertexArrayAttrib] = h_enable_attrib;
    t[GLR_CMD_glDisableVertexArrayAttrib] = h_enable_attrib;
    t[GLR_CMD_glVertexAttribDivisor] = h_attrib_divisor;
    t[GLR_CMD_glVertexAttribFormat] = h_attrib_format;
    t[GLR_CMD_glVertexAttribIFormat] = h_attrib_format;
    t[GLR_CMD_glVertexAttribLFormat] = h_attrib_format;
    t[GLR_CMD_glVertexArrayAttribFormat] = h_attrib_format;
    t[GLR_CMD_glVertexArrayAttribIFormat] = h_attrib_format;
    t[GLR_CMD_glVertexArrayAttribLFormat] = h_attrib_format;
    t[GLR_CMD_glVertexAttribBinding] = h_attrib_binding;
    t[GLR_CMD_glVertexArrayAttribBinding] = h_attrib_binding;
    t[GLR_CMD_glBindVertexBuffer] = h_bind_vertex_buffer;
    t[GLR_CMD_glVertexArrayVertexBuffer] = h_bind_vertex_buffer;
    t[GLR_CMD_glBindVertexBuffers] = h_bind_vertex_buffers;
    t[GLR_CMD_glVertexArrayVertexBuffers] = h_bind_vertex_buffers;
    t[GLR_CMD_glVertexBindingDivisor] = h_binding_divisor;
    t[GLR_CMD_glVertexArrayBindingDivisor] = h_binding_divisor;
    t[GLR_CMD_glVertexArrayElementBuffer] = h_vao_element_buffer;
    t[GLR_CMD_glVertexPointer] = h_legacy_pointer;
    t[GLR_CMD_glColorPointer] = h_legacy_pointer;
    t[GLR_CMD_glSecondaryColorPointer] = h_legacy_pointer;
    t[GLR_CMD_glTexCoordPointer] = h_legacy_pointer;
    t[GLR_CMD_glNormalPointer] = h_legacy_pointer;
    t[GLR_CMD_glFogCoordPointer] = h_legacy_pointer;
    t[GLR_CMD_glIndexPointer] = h_legacy_pointer;
    t[GLR_CMD_glEdgeFlagPointer] = h_legacy_pointer;
    t[GLR_CMD_glEnableClientState] = h_client_state;
    t[GLR_CMD_glDisableClientState] = h_client_state;
}
