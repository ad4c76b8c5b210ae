/* Loads, stores and atomics on an element of an array of blocks (GM_BUF_ARRAYED, gm_ir.h): each
 * lane may address another element, so the buffer is looked up per lane at the declared binding
 * + the element its address carries; the byte offset below GM_BLOCK_ELEM_SHIFT is bounds-checked
 * against that element's buffer as gm_exec_res.c checks a single block's. And OpArrayLength,
 * which needs the bound buffer's size at run time. */
#include "gm_exec.h"

#include <string.h>

#define OFF_MASK ((1u << GM_BLOCK_ELEM_SHIFT) - 1u)

/* The buffer of lane address a (kind and declared binding in x, flag cleared), cached for the
 * last element looked up: warps mostly agree on the element (dynamically uniform indexing). */
typedef struct elem_cache {
    uint32_t elem;
    uint8_t *base;
    size_t size;
    int valid;
} elem_cache;

static uint8_t *elem_base(gm_warp *w, uint32_t x, uint32_t a, elem_cache *c, size_t *size)
{
    uint32_t elem = a >> GM_BLOCK_ELEM_SHIFT;
    if (!c->valid || c->elem != elem) {
        c->elem = elem;
        c->valid = 1;
        c->size = 0;
        c->base = NULL;
        if (w->env.buffer) {
            uint32_t binding = ((x & ~GM_BUF_ARRAYED) >> 2) + elem;
            c->base = w->env.buffer(w->env.ctx, (gm_buffer_kind)(x & 3), binding, &c->size);
            if (!c->base)
                c->size = 0;
        }
    }
    *size = c->size;
    return c->base;
}

void gm_exec_buf_load_arrayed(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    elem_cache c = { 0, NULL, 0, 0 };
    const uint32_t *addr = w->R[in->a];
    const uint32_t *offs = w->p->aux + in->b;
    for (int l = 0; l < GM_LANES; l++) {
        size_t size;
        const uint8_t *base = elem_base(w, in->x, addr[l], &c, &size);
        for (int k = 0; k < in->n; k++) {
            uint64_t off = (uint64_t)(addr[l] & OFF_MASK) + offs[k];
            uint32_t v = 0;
            if (base && off + 4 <= size)
                memcpy(&v, base + off, 4);
            out[k][l] = v;
        }
    }
}

void gm_exec_buf_store_arrayed(gm_warp *w, const gm_inst *in)
{
    elem_cache c = { 0, NULL, 0, 0 };
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    const uint32_t *offs = w->p->aux + in->b;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        size_t size;
        uint8_t *base = elem_base(w, in->x, addr[l], &c, &size);
        for (int k = 0; base && k < in->n; k++) {
            uint64_t off = (uint64_t)(addr[l] & OFF_MASK) + offs[k];
            if (off + 4 <= size)
                memcpy(base + off, &w->R[in->c + k][l], 4);
        }
    }
}

void gm_exec_buf_atomic_arrayed(gm_warp *w, const gm_inst *in,
                                uint32_t (*apply)(uint32_t op, uint32_t old, uint32_t v, uint32_t cmp))
{
    const uint32_t *aux = w->p->aux + in->x;
    uint32_t op = aux[0], x = ((aux[1] & ~GM_BUF_ARRAYED) << 2) | aux[2];
    elem_cache c = { 0, NULL, 0, 0 };
    gm_mask m = w->mask & ~w->helper;
    const uint32_t *addr = w->R[in->a];
    for (int l = 0; l < GM_LANES; l++) {   /* lanes in order, as gm_exec_buf_atomic */
        if (!((m >> l) & 1))
            continue;
        size_t size;
        uint8_t *base = elem_base(w, x, addr[l], &c, &size);
        uint64_t off = addr[l] & OFF_MASK;
        uint32_t old = 0;
        if (base && off + 4 <= size) {
            memcpy(&old, base + off, 4);
            uint32_t nv = apply(op, old, w->R[in->b][l], w->R[in->c][l]);
            memcpy(base + off, &nv, 4);
        }
        w->R[in->d][l] = old;
    }
}

/* OpArrayLength: how many elements of the block's trailing runtime array the bound range holds
 * (GL 4.6 section 7.6.2.2: the buffer range's size minus the array's offset, over its stride;
 * 0 when nothing is bound or the range ends before the array). */
void gm_exec_buf_length(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    elem_cache c = { 0, NULL, 0, 0 };
    const uint32_t *aux = w->p->aux + in->b;
    uint32_t off = aux[0], stride = aux[1] ? aux[1] : 1;
    const uint32_t *addr = w->R[in->a];
    for (int l = 0; l < GM_LANES; l++) {
        size_t size = 0;
        if (in->x & GM_BUF_ARRAYED)
            elem_base(w, in->x, addr[l], &c, &size);
        else if (w->env.buffer && !c.valid) {
            c.base = w->env.buffer(w->env.ctx, (gm_buffer_kind)(in->x & 3), in->x >> 2, &c.size);
            c.valid = 1;
            if (!c.base)
                c.size = 0;
        }
        if (!(in->x & GM_BUF_ARRAYED))
            size = c.size;
        out[0][l] = size > off ? (uint32_t)((size - off) / stride) : 0;
    }
}
