/* Vertex fetch: one element of a vertex attribute decoded from buffer contents (state model)
 * or from a recorded client array, in every GL attribute format (normalized, integer, packed,
 * half, double, fixed, BGRA), and 64-bit (glVertexAttribLPointer) attributes into double
 * inputs; disabled attributes read the current value. */
#include <math.h>
#include <string.h>

#include "gmf_internal.h"

size_t gmf_gl_type_size(uint32_t type)
{
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return 1;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: return 2;
    case GL_DOUBLE: case GL_INT64_ARB: case GL_UNSIGNED_INT64_ARB: return 8;
    default: return 4;
    }
}

static float unorm(uint32_t v, int bits) { return (float)v / (float)((1u << bits) - 1u); }
static float snorm(int32_t v, int bits)
{
    float f = (float)v / (float)((1 << (bits - 1)) - 1);
    return f < -1.0f ? -1.0f : f;
}

static float half_to_float(uint16_t h) { return gm_half_to_float(h); }

static int32_t sext(uint32_t v, int bits) { return (int32_t)(v << (32 - bits)) >> (32 - bits); }

/* Decodes one element: size components of type at p into f (floats) or iv (integers). */
static void decode(const uint8_t *p, int size, uint32_t type, bool normalized, bool integer,
                   uint32_t out[4], bool out_int)
{
    float f[4] = { 0, 0, 0, 1 };
    int32_t iv[4] = { 0, 0, 0, 1 };
    bool bgra = size == (int)GL_BGRA;
    int n = bgra ? 4 : size;
    if (n > 4)
        n = 4;
    if (type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV) {
        uint32_t w;
        memcpy(&w, p, 4);
        uint32_t c[4] = { w & 1023, (w >> 10) & 1023, (w >> 20) & 1023, w >> 30 };
        for (int k = 0; k < 4; k++) {
            int bits = k == 3 ? 2 : 10;
            if (type == GL_INT_2_10_10_10_REV) {
                int32_t s = sext(c[k], bits);
                f[k] = normalized ? snorm(s, bits) : (float)s;
            } else {
                f[k] = normalized ? unorm(c[k], bits) : (float)c[k];
            }
        }
        if (n < 4)
            f[3] = 1;
        if (bgra) {
            float t = f[0];
            f[0] = f[2];
            f[2] = t;
        }
        for (int k = 0; k < 4; k++)
            memcpy(&out[k], &f[k], 4);
        return;
    }
    if (type == GL_UNSIGNED_INT_10F_11F_11F_REV) {
        uint32_t w;
        memcpy(&w, p, 4);
        gm_format_unpack_rgba(GM_FMT_R11G11B10F, &w, f);
        f[3] = 1;
        for (int k = 0; k < 4; k++)
            memcpy(&out[k], &f[k], 4);
        return;
    }
    for (int k = 0; k < n; k++) {
        const uint8_t *q = p + (size_t)k * gmf_gl_type_size(type);
        switch (type) {
        case GL_BYTE: { int8_t v = (int8_t)q[0]; iv[k] = v; f[k] = normalized ? snorm(v, 8) : v; break; }
        case GL_UNSIGNED_BYTE: iv[k] = q[0]; f[k] = normalized ? unorm(q[0], 8) : q[0]; break;
        case GL_SHORT: { int16_t v; memcpy(&v, q, 2); iv[k] = v; f[k] = normalized ? snorm(v, 16) : v; break; }
        case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, q, 2); iv[k] = v; f[k] = normalized ? unorm(v, 16) : v; break; }
        case GL_INT: { int32_t v; memcpy(&v, q, 4); iv[k] = v;
                       f[k] = normalized ? (float)fmax(v / 2147483647.0, -1.0) : (float)v; break; }
        case GL_UNSIGNED_INT: { uint32_t v; memcpy(&v, q, 4); iv[k] = (int32_t)v;
                                f[k] = normalized ? (float)(v / 4294967295.0) : (float)v; break; }
        case GL_FLOAT: memcpy(&f[k], q, 4); memcpy(&iv[k], q, 4); break;
        case GL_HALF_FLOAT: case GL_HALF_FLOAT_OES: { uint16_t v; memcpy(&v, q, 2); f[k] = half_to_float(v); break; }
        case GL_DOUBLE: { double v; memcpy(&v, q, 8); f[k] = (float)v; break; }
        case GL_FIXED: { int32_t v; memcpy(&v, q, 4); f[k] = (float)(v / 65536.0); break; }
        default: break;
        }
    }
    if (bgra) {
        float t = f[0];
        f[0] = f[2];
        f[2] = t;
    }
    if (integer || out_int) {
        if (!integer)
            for (int k = 0; k < 4; k++)
                iv[k] = (int32_t)f[k];
        memcpy(out, iv, 16);
    } else {
        memcpy(out, f, 16);
    }
}

static size_t element_size(int size, uint32_t type)
{
    if (type == GL_INT_2_10_10_10_REV || type == GL_UNSIGNED_INT_2_10_10_10_REV ||
        type == GL_UNSIGNED_INT_10F_11F_11F_REV)
        return 4;
    return (size_t)(size == (int)GL_BGRA ? 4 : size) * gmf_gl_type_size(type);
}

static void current_value(gmf_draw_ctx *d, int index, uint32_t out[4])
{
    if (index < 0 || index >= SM_MAX_VERTEX_ATTRIBS) {
        float def[4] = { 0, 0, 0, 1 };
        memcpy(out, def, 16);
        return;
    }
    const struct sm_attrib_value *v = &d->st->attrib_value[index];
    if (v->kind == SM_VK_DOUBLE) {
        for (int k = 0; k < 4; k++) {
            float f = (float)v->v.d[k];
            memcpy(&out[k], &f, 4);
        }
        return;
    }
    memcpy(out, v->v.u, 16);
}

/* Reads a legacy (compatibility) client array. */
static void fetch_legacy(gmf_draw_ctx *d, int slot, int64_t elem, uint32_t out[4], bool out_int)
{
    const struct sm_legacy_array *la = &d->vao->legacy[slot];
    /* A disabled array (and an element that cannot be read) gives the current value. */
    memcpy(out, d->st->legacy_current[slot], 16);
    if (!la->enabled)
        return;
    size_t es = element_size(la->size, la->type);
    uint64_t stride = la->stride ? (uint64_t)la->stride : es;
    const uint8_t *src;
    if (la->buffer) {
        const struct sm_buffer *b = sm_get_buffer(d->c, la->buffer);
        if (!b || !b->data_known || !b->data)
            return;
        uint64_t off = la->pointer + (uint64_t)elem * stride;
        if (elem < 0 || off + es > b->size)
            return;
        src = b->data + off;
    } else {
        /* client memory: the bytes recorded for this draw (GLR_PSEUDO_CLIENT_ARRAY) */
        const gmf_client_array *ca = &d->r->client_legacy[slot];
        if (!ca->set || !ca->data || elem < (int64_t)ca->first)
            return;
        uint64_t off = (uint64_t)(elem - (int64_t)ca->first) * (ca->stride ? (uint64_t)ca->stride : es);
        if (off + es > ca->size)
            return;
        src = ca->data + off;
    }
    bool norm = slot == SM_LA_COLOR || slot == SM_LA_SECONDARY_COLOR || slot == SM_LA_NORMAL;
    if (la->type == GL_FLOAT || la->type == GL_DOUBLE)
        norm = false;
    decode(src, la->size, la->type, norm, false, out, out_int);
    if (la->size < 4 && slot != SM_LA_NORMAL) {
        float one = 1.0f;
        memcpy(&out[3], &one, 4);
    }
}

bool gmf_fetch_edge_flag(gmf_draw_ctx *d, int64_t elem)
{
    uint32_t w[4];
    fetch_legacy(d, SM_LA_EDGE_FLAG, elem, w, false);
    float f;
    memcpy(&f, w, 4);
    return f != 0.0f;
}

/* A double input (dvec*, dmat column) reads up to four doubles from its attribute: the
 * bytes of a glVertexAttribLPointer/LFormat array or the current glVertexAttribL* value;
 * missing components take (0, 0, 0, 1). A 32-bit array feeding a double input (undefined in
 * GL) converts. out gets the chunk's words: doubles dfirst.. as low/high word pairs. */
static void fetch_double(gmf_draw_ctx *d, const gmf_attr *a, int64_t elem, int64_t instance,
                         uint32_t out[4])
{
    double v[4] = { 0, 0, 0, 1 };
    int idx = a->index;
    if (idx >= 0 && idx < SM_MAX_VERTEX_ATTRIBS && d->vao->attrib[idx].enabled) {
        const struct sm_vertex_attrib *at = &d->vao->attrib[idx];
        const struct sm_vertex_binding *bd =
            &d->vao->binding[at->binding < SM_MAX_VERTEX_ATTRIBS ? at->binding : 0];
        int64_t e = bd->divisor ? instance / bd->divisor + d->base_instance : elem;
        size_t es = element_size(at->size, at->type);
        const uint8_t *src = NULL;
        if (bd->buffer) {
            const struct sm_buffer *b = sm_get_buffer(d->c, bd->buffer);
            uint64_t stride = bd->stride ? (uint64_t)bd->stride : es;
            uint64_t off = bd->offset + at->relative_offset + (uint64_t)e * stride;
            if (b && b->data_known && b->data && e >= 0 && off + es <= b->size)
                src = b->data + off;
        } else {
            const gmf_client_array *ca = &d->r->client[idx];
            uint64_t stride = ca->stride ? (uint64_t)ca->stride : es;
            if (ca->set && ca->data && e >= (int64_t)ca->first) {
                uint64_t off = (uint64_t)(e - (int64_t)ca->first) * stride;
                if (off + es <= ca->size)
                    src = ca->data + off;
            }
        }
        if (src && (at->type == GL_DOUBLE || at->type == GL_INT64_ARB ||
                    at->type == GL_UNSIGNED_INT64_ARB)) { /* 64-bit words as they are */
            for (int k = 0; k < at->size && k < 4; k++)
                memcpy(&v[k], src + 8 * (size_t)k, 8);
        } else if (src) {
            uint32_t w[4];
            float f[4];
            decode(src, at->size, at->type, at->normalized, false, w, false);
            memcpy(f, w, 16);
            for (int k = 0; k < 4; k++)
                v[k] = f[k];
        }
    } else if (idx >= 0 && idx < SM_MAX_VERTEX_ATTRIBS) {
        const struct sm_attrib_value *cv = &d->st->attrib_value[idx];
        for (int k = 0; k < 4; k++)
            v[k] = cv->kind == SM_VK_DOUBLE ? cv->v.d[k] : cv->kind == SM_VK_INT ? cv->v.i[k]
                   : cv->kind == SM_VK_UINT ? cv->v.u[k] : cv->v.f[k];
    }
    memset(out, 0, 16);
    for (int k = 0; k < a->c.n / 2 && a->c.dfirst + k < 4; k++)
        memcpy(&out[2 * k], &v[a->c.dfirst + k], 8);
}

void gmf_fetch_attr(gmf_draw_ctx *d, const gmf_attr *a, int64_t elem, int64_t instance,
                    uint32_t out[4])
{
    if (a->c.is64 && a->src == GMF_ATTR_GENERIC) {
        fetch_double(d, a, elem, instance, out);
        return;
    }
    bool out_int = a->c.scalar != GM_SCALAR_FLOAT;
    if (a->src == GMF_ATTR_LEGACY) {
        if (a->index == SM_LA_VERTEX && !d->vao->legacy[SM_LA_VERTEX].enabled &&
            d->vao->attrib[0].enabled) {
            gmf_attr g = *a;
            g.src = GMF_ATTR_GENERIC;
            g.index = 0;
            gmf_fetch_attr(d, &g, elem, instance, out);
            return;
        }
        fetch_legacy(d, a->index, elem, out, out_int);
        return;
    }
    int idx = a->index;
    /* Generic attribute 0 aliases gl_Vertex (compatibility): with its own array off, the
     * legacy vertex array feeds it (Mesa's ATTRIBUTE_MAP_MODE_POSITION; piglit_draw_rect
     * draws through glVertexPointer in a compatibility context) */
    if (idx == 0 && !d->vao->attrib[0].enabled && d->vao->legacy[SM_LA_VERTEX].enabled) {
        fetch_legacy(d, SM_LA_VERTEX, elem, out, out_int);
        return;
    }
    if (idx < 0 || idx >= SM_MAX_VERTEX_ATTRIBS || !d->vao->attrib[idx].enabled) {
        current_value(d, idx, out);
        return;
    }
    const struct sm_vertex_attrib *at = &d->vao->attrib[idx];
    const struct sm_vertex_binding *bd = &d->vao->binding[at->binding < SM_MAX_VERTEX_ATTRIBS
                                                               ? at->binding : 0];
    int64_t e = elem;
    if (bd->divisor)
        e = instance / bd->divisor + d->base_instance;
    size_t es = element_size(at->size, at->type);
    float def[4] = { 0, 0, 0, 1 };
    memcpy(out, def, 16);
    if (out_int)
        out[3] = 1;
    if (bd->buffer) {
        const struct sm_buffer *b = sm_get_buffer(d->c, bd->buffer);
        if (!b || !b->data_known || !b->data)
            return;
        uint64_t stride = bd->stride ? (uint64_t)bd->stride : es;
        uint64_t off = bd->offset + at->relative_offset + (uint64_t)e * stride;
        if (e < 0 || off + es > b->size)
            return;
        decode(b->data + off, at->size, at->type, at->normalized, at->integer, out, out_int);
        return;
    }
    const gmf_client_array *ca = &d->r->client[idx];
    if (!ca->set || !ca->data)
        return;
    uint64_t stride = ca->stride ? (uint64_t)ca->stride : es;
    if (e < (int64_t)ca->first)
        return;
    uint64_t off = (uint64_t)(e - (int64_t)ca->first) * stride;
    if (off + es > ca->size)
        return;
    decode(ca->data + off, at->size, at->type, at->normalized, at->integer, out, out_int);
}

void gmf_check_attrs(gmf_draw_ctx *d)
{
    for (int a = 0; a < d->p->n_attrs; a++) {
        const gmf_attr *at = &d->p->attrs[a];
        if (at->src == GMF_ATTR_LEGACY) {
            const struct sm_legacy_array *la = &d->vao->legacy[at->index];
            if (la->enabled && !la->buffer && !d->r->client_legacy[at->index].set)
                gmf_note(d->ev, "legacy client array for %s: data not recorded", at->name);
            continue;
        }
        int idx = at->index;
        if (idx < 0 || idx >= SM_MAX_VERTEX_ATTRIBS) {
            gmf_note(d->ev, "attribute %s has no known location", at->name);
            continue;
        }
        const struct sm_vertex_attrib *va = &d->vao->attrib[idx];
        if (!va->enabled)
            continue;
        /* Doubles are fetched (fetch_double); an L array feeding a 32-bit input is
         * undefined in GL (section 10.2.1) and read as converted floats here. */
        if (va->is_long && !at->c.is64)
            gmf_note(d->ev, "64-bit vertex attribute %s feeds a 32-bit input", at->name);
        const struct sm_vertex_binding *bd = &d->vao->binding[va->binding < SM_MAX_VERTEX_ATTRIBS
                                                                  ? va->binding : 0];
        if (bd->buffer) {
            const struct sm_buffer *b = sm_get_buffer(d->c, bd->buffer);
            if (!b || !b->data_known || !b->data)
                gmf_note(d->ev, "attribute %s: buffer %u contents unknown", at->name, bd->buffer);
        } else if (!d->r->client[idx].set) {
            gmf_note(d->ev, "attribute %s: client array data not recorded", at->name);
        }
    }
}
