/* The profile's per-source-line table (an open-addressed hash of gmt_profile_line) and the
 * cycle-to-microsecond conversion: a leaf under the spine (gmt_profile_run.c) and the methods
 * it drives (gmt_profile_methods.c), so the methods no longer call back into the spine. */
#include "gmt_profile_internal.h"

#include <stdlib.h>

double gmt_profile_us(const gmt_profile *p, uint64_t cycle)
{
    return (double)cycle / (p->clock_ghz * 1000.0);
}

static uint64_t line_hash(uint32_t ctx, uint32_t program, int stage, int line)
{
    uint64_t h = 1469598103934665603ull;
    uint64_t parts[4] = { ctx, program, (uint64_t)(uint32_t)stage, (uint64_t)(uint32_t)line };
    for (int i = 0; i < 4; i++) {
        h ^= parts[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

gmt_profile_line *gmt_profile_line_at(gmt_profile *p, uint32_t ctx, uint32_t program, int stage, int line)
{
    struct gmt_line_table *t = &p->lines;
    if ((t->n + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 256;
        gmt_profile_line *nv = calloc(cap, sizeof *nv);
        if (!nv) {
            p->oom = true;
            return NULL;
        }
        for (size_t i = 0; i < t->cap; i++) {
            gmt_profile_line *e = &t->v[i];
            if (!e->line && !e->program && !e->ctx_id)
                continue;
            size_t k = line_hash(e->ctx_id, e->program, e->stage, e->line) & (cap - 1);
            while (nv[k].line || nv[k].program || nv[k].ctx_id)
                k = (k + 1) & (cap - 1);
            nv[k] = *e;
        }
        free(t->v);
        t->v = nv;
        t->cap = cap;
    }
    /* Line 0 (no source line) is stored as -1 so that an empty slot stays all zero. */
    int key_line = line ? line : -1;
    size_t k = line_hash(ctx, program, stage, key_line) & (t->cap - 1);
    for (;;) {
        gmt_profile_line *e = &t->v[k];
        if (!e->line && !e->program && !e->ctx_id) {
            e->ctx_id = ctx;
            e->program = program;
            e->stage = stage;
            e->line = key_line;
            t->n++;
            return e;
        }
        if (e->ctx_id == ctx && e->program == program && e->stage == stage && e->line == key_line)
            return e;
        k = (k + 1) & (t->cap - 1);
    }
}
