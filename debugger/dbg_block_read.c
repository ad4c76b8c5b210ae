/* Block variables through the IR's type table (see dbg_block_read.h). The byte offsets follow
 * the decoder's buffer layout (gm_decode_code.c buffer_offsets): this belongs next to
 * gm_warp_read_var as a GM_SPACE_BUFFER case, and lives here until the model offers it. */
#include <string.h>
#include "gpu_model/exec/gm_exec.h"
#include "debugger/dbg_block_read.h"

static const gm_block_info *block_of(const gm_program *p, int var)
{
    if (!p || var < 0 || var >= p->var_count || p->vars[var].info.klass != GM_VAR_BUFFER)
        return NULL;
    const gm_var_info *v = &p->vars[var].info;
    for (int i = 0; i < gm_program_block_count(p); i++) {
        const gm_block_info *b = gm_program_block(p, i);
        if (b && b->binding == v->binding && !b->is_atomic_counter &&
            (b->type == v->type || (v->name && b->instance_name && !strcmp(v->name, b->instance_name))))
            return b;
    }
    return NULL;
}

bool dbg_var_is_block(const gm_program *p, int var)
{
    return block_of(p, var) != NULL;
}

const char *dbg_block_name(const gm_program *p, int var)
{
    const gm_block_info *b = block_of(p, var);
    if (!b)
        return NULL;
    if (b->instance_name && *b->instance_name)
        return b->instance_name;
    return b->name && *b->name ? b->name : "block";
}

struct reader {
    const gm_program *p;
    const uint8_t *base;
    size_t size;
    uint32_t *out;
    int max, count;
};

static void put(struct reader *r, long long off)
{
    uint32_t v = 0;
    if (r->base && off >= 0 && (size_t)off + 4 <= r->size)
        memcpy(&v, r->base + off, 4);
    if (r->count < r->max)
        r->out[r->count] = v;
    r->count++;
}

static int walk(struct reader *r, int type, long long base, int matrix_stride, int row_major, int vec_stride, int depth)
{
    if (type < 0 || (uint32_t)type >= r->p->bound || depth > 32)
        return -1;
    const gm_type *t = &r->p->types[type];
    const int es = t->width == 64 ? 8 : 4, nw = es / 4;
    if (vec_stride < es)
        vec_stride = es;
    switch (t->kind) {
    case GM_TYPE_SCALAR:
        for (int h = 0; h < nw; h++)
            put(r, base + 4 * h);
        return 0;
    case GM_TYPE_VECTOR:
        for (int i = 0; i < t->rows; i++)
            for (int h = 0; h < nw; h++)
                put(r, base + (long long)i * vec_stride + 4 * h);
        return 0;
    case GM_TYPE_MATRIX:
        for (int c = 0; c < t->cols; c++)
            for (int rr = 0; rr < t->rows; rr++)
                for (int h = 0; h < nw; h++)
                    put(r, base + 4 * h + (row_major ? (long long)rr * matrix_stride + (long long)c * es
                                                     : (long long)c * matrix_stride + (long long)rr * es));
        return 0;
    case GM_TYPE_ARRAY:
        for (int i = 0; i < t->length; i++)
            if (walk(r, t->elem, base + (long long)i * t->array_stride, matrix_stride, row_major, 4, depth + 1))
                return -1;
        return 0;
    case GM_TYPE_STRUCT:
        if (!t->member_byte_off || !t->member_matrix_stride || !t->member_row_major)
            return -1;
        for (int i = 0; i < t->length; i++)
            if (walk(r, t->members[i], base + t->member_byte_off[i], t->member_matrix_stride[i], t->member_row_major[i],
                     4, depth + 1))
                return -1;
        return 0;
    default:
        return -1;
    }
}

int dbg_read_block_var(const gm_warp *w, int var, uint32_t *out, int max_words, bool *bound)
{
    *bound = false;
    const gm_program *p = w ? w->p : NULL;
    const gm_block_info *b = block_of(p, var);
    if (!b)
        return -1;
    size_t size = 0;
    const uint8_t *base = w->env.buffer ? w->env.buffer(w->env.ctx, b->is_storage ? GM_BUFFER_STORAGE : GM_BUFFER_UNIFORM,
                                                        (unsigned)(b->binding < 0 ? 0 : b->binding), &size)
                                        : NULL;
    *bound = base != NULL;
    struct reader r = { p, base, base ? size : 0, out, max_words, 0 };
    if (walk(&r, p->vars[var].info.type, 0, 0, 0, 4, 0) != 0)
        return -1;
    return r.count;
}
