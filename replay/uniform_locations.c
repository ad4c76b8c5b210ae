/* Captured uniform location -> replay uniform location, per program (uniform_locations.h). The
 * entries live in an array indexed by an open-addressing hash (every glUniform* of a call-heavy
 * frame looks one up); a program linked again drops its entries and the index is rebuilt. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "replay/uniform_locations.h"

struct loc_entry {
    uint32_t ns, program;
    int32_t captured, replay;
};

struct ctx_entry {
    uint32_t ctx_id, program, pipeline;
};

struct pipe_entry {
    uint32_t ns, pipeline, program;
};

struct glr_uloc {
    struct loc_entry *locs;
    size_t n_locs, cap_locs;
    uint32_t *index;     /* entry number + 1, 0 empty; index_cap a power of two, >= 2 * n_locs */
    size_t index_cap;
    struct ctx_entry *ctxs;
    size_t n_ctxs, cap_ctxs;
    struct pipe_entry *pipes;
    size_t n_pipes, cap_pipes;
};

struct glr_uloc *glr_uloc_create(void)
{
    return calloc(1, sizeof(struct glr_uloc));
}

void glr_uloc_reset(struct glr_uloc *u)
{
    if (!u)
        return;
    u->n_locs = u->n_ctxs = u->n_pipes = 0;
    if (u->index)
        memset(u->index, 0, u->index_cap * sizeof *u->index);
}

void glr_uloc_destroy(struct glr_uloc *u)
{
    if (!u)
        return;
    free(u->locs);
    free(u->index);
    free(u->ctxs);
    free(u->pipes);
    free(u);
}

/* Room for one more element of `size` bytes in *arr (count n, capacity *cap). */
static bool grow(void **arr, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? *cap * 2 : 16;
    void *p = realloc(*arr, c * size);
    if (!p)
        return false;
    *arr = p;
    *cap = c;
    return true;
}

static size_t slot(uint32_t ns, uint32_t program, int32_t captured, size_t cap)
{
    uint64_t k = ((uint64_t)ns << 40) ^ ((uint64_t)program << 20) ^ (uint32_t)captured;
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

/* The entry for the key, or NULL. */
static struct loc_entry *find(struct glr_uloc *u, uint32_t ns, uint32_t program, int32_t captured)
{
    if (!u->index_cap)
        return NULL;
    for (size_t i = slot(ns, program, captured, u->index_cap);; i = (i + 1) & (u->index_cap - 1)) {
        uint32_t e = u->index[i];
        if (!e)
            return NULL;
        struct loc_entry *l = &u->locs[e - 1];
        if (l->ns == ns && l->program == program && l->captured == captured)
            return l;
    }
}

static void index_insert(struct glr_uloc *u, size_t entry)
{
    const struct loc_entry *l = &u->locs[entry];
    size_t i = slot(l->ns, l->program, l->captured, u->index_cap);
    while (u->index[i])
        i = (i + 1) & (u->index_cap - 1);
    u->index[i] = (uint32_t)entry + 1;
}

/* An index of at least twice `want` slots holding every entry. */
static bool reindex(struct glr_uloc *u, size_t want)
{
    size_t cap = u->index_cap ? u->index_cap : 64;
    while (cap < want * 2)
        cap *= 2;
    if (cap != u->index_cap) {
        uint32_t *n = realloc(u->index, cap * sizeof *n);
        if (!n)
            return false;
        u->index = n;
        u->index_cap = cap;
    }
    memset(u->index, 0, u->index_cap * sizeof *u->index);
    for (size_t i = 0; i < u->n_locs; i++)
        index_insert(u, i);
    return true;
}

void glr_uloc_found(struct glr_uloc *u, uint32_t ns, uint32_t program, int32_t captured, int32_t replay)
{
    if (!u || captured < 0)
        return;
    struct loc_entry *l = find(u, ns, program, captured);
    if (l) {
        l->replay = replay;
        return;
    }
    if (u->n_locs >= UINT32_MAX - 1 || !grow((void **)&u->locs, u->n_locs, &u->cap_locs, sizeof *u->locs))
        return;   /* out of memory: the location passes through unchanged */
    if ((u->n_locs + 1) * 2 > u->index_cap && !reindex(u, u->n_locs + 1))
        return;
    u->locs[u->n_locs] = (struct loc_entry){ ns, program, captured, replay };
    index_insert(u, u->n_locs++);
}

static struct ctx_entry *ctx_of(struct glr_uloc *u, uint32_t ctx_id, bool create)
{
    for (size_t i = 0; i < u->n_ctxs; i++)
        if (u->ctxs[i].ctx_id == ctx_id)
            return &u->ctxs[i];
    if (!create || !grow((void **)&u->ctxs, u->n_ctxs, &u->cap_ctxs, sizeof *u->ctxs))
        return NULL;
    u->ctxs[u->n_ctxs] = (struct ctx_entry){ ctx_id, 0, 0 };
    return &u->ctxs[u->n_ctxs++];
}

void glr_uloc_use_program(struct glr_uloc *u, uint32_t ctx_id, uint32_t program)
{
    struct ctx_entry *c = u ? ctx_of(u, ctx_id, true) : NULL;
    if (c)
        c->program = program;
}

void glr_uloc_bind_pipeline(struct glr_uloc *u, uint32_t ctx_id, uint32_t pipeline)
{
    struct ctx_entry *c = u ? ctx_of(u, ctx_id, true) : NULL;
    if (c)
        c->pipeline = pipeline;
}

void glr_uloc_active_program(struct glr_uloc *u, uint32_t ns, uint32_t pipeline, uint32_t program)
{
    if (!u)
        return;
    for (size_t i = 0; i < u->n_pipes; i++)
        if (u->pipes[i].ns == ns && u->pipes[i].pipeline == pipeline) {
            u->pipes[i].program = program;
            return;
        }
    if (grow((void **)&u->pipes, u->n_pipes, &u->cap_pipes, sizeof *u->pipes))
        u->pipes[u->n_pipes++] = (struct pipe_entry){ ns, pipeline, program };
}

void glr_uloc_forget_program(struct glr_uloc *u, uint32_t ns, uint32_t program)
{
    if (!u)
        return;
    size_t k = 0;
    for (size_t i = 0; i < u->n_locs; i++)
        if (!(u->locs[i].ns == ns && u->locs[i].program == program))
            u->locs[k++] = u->locs[i];
    if (k != u->n_locs) {
        u->n_locs = k;
        reindex(u, k);   /* cannot fail: the index keeps its size */
    }
}

int32_t glr_uloc_translate(struct glr_uloc *u, uint32_t ns, uint32_t ctx_id, uint32_t program, int32_t captured)
{
    if (!u || captured < 0 || !u->n_locs)
        return captured;
    if (!program) {
        /* glUniform*: the program in use, else (GL 4.1 §7.4) the bound pipeline's active program. */
        const struct ctx_entry *c = ctx_of(u, ctx_id, false);
        if (!c)
            return captured;
        program = c->program;
        for (size_t i = 0; !program && i < u->n_pipes; i++)
            if (u->pipes[i].ns == ns && u->pipes[i].pipeline == c->pipeline)
                program = u->pipes[i].program;
    }
    const struct loc_entry *l = find(u, ns, program, captured);
    return l ? l->replay : captured;
}
