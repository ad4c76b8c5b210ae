/* The store of per-draw checkpoints and the choice of one for a new pass (see dbg_ckpt.h). */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_ckpt.h"
#include "debugger/dbg_runner.h"

struct dbg_ckpts *dbg_ckpts_new(void (*model_free)(void *), size_t (*model_bytes)(const void *))
{
    size_t mib = 256;
    const char *e = getenv("GLREPLAY_DAP_CHECKPOINT_MIB");
    if (e && *e) {
        char *end;
        unsigned long long v = strtoull(e, &end, 10);
        mib = *end || v > (1ull << 20) ? 256 : (size_t)v;   /* not a number: the default */
    }
    if (!mib)
        return NULL;
    struct dbg_ckpts *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->budget = mib << 20;
    s->model_free = model_free;
    s->model_bytes = model_bytes;
    s->limit_record = UINT64_MAX;
    s->start = -1;
    return s;
}

static void drop_at(struct dbg_ckpts *s, int i)
{
    s->model_free(s->c[i].model);
    dbg_line_hits_free(&s->c[i].lines);
    memmove(&s->c[i], &s->c[i + 1], (size_t)(s->n - i - 1) * sizeof *s->c);
    s->n--;
    s->dropped++;
}

void dbg_ckpts_clear(struct dbg_ckpts *s)
{
    if (!s)
        return;
    while (s->n)
        drop_at(s, s->n - 1);
    s->start = -1;
    s->too_big = false;
}

void dbg_ckpts_free(struct dbg_ckpts *s)
{
    if (!s)
        return;
    dbg_ckpts_clear(s);
    free(s->c);
    free(s);
}

bool dbg_ckpts_has(const struct dbg_ckpts *s, uint64_t record)
{
    for (int i = 0; s && i < s->n; i++)
        if (s->c[i].record == record)
            return true;
    return false;
}

size_t dbg_line_hits_bytes(const struct dbg_line_hits *t)
{
    size_t b = (size_t)t->n_rows * sizeof *t->rows;
    for (int i = 0; i < t->n_rows; i++)
        b += (size_t)t->rows[i].n * sizeof *t->rows[i].hits;
    return b;
}

size_t dbg_ckpts_bytes(const struct dbg_ckpts *s)
{
    size_t b = 0;
    for (int i = 0; s && i < s->n; i++)
        b += s->model_bytes(s->c[i].model) + dbg_line_hits_bytes(&s->c[i].lines) + sizeof s->c[i];
    return b;
}

void dbg_ckpts_add(struct dbg_ckpts *s, const struct dbg_ckpt *c)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        struct dbg_ckpt *n = realloc(s->c, (size_t)cap * sizeof *n);
        if (!n) {
            struct dbg_ckpt tmp = *c;
            s->model_free(tmp.model);
            dbg_line_hits_free(&tmp.lines);
            return;
        }
        s->c = n;
        s->cap = cap;
    }
    if (s->model_bytes(c->model) + dbg_line_hits_bytes(&c->lines) > s->budget / 2) {
        struct dbg_ckpt tmp = *c;
        s->model_free(tmp.model);
        dbg_line_hits_free(&tmp.lines);
        s->too_big = true;
        s->dropped++;
        return;
    }
    int at = s->n;
    while (at > 0 && s->c[at - 1].record > c->record)
        at--;
    memmove(&s->c[at + 1], &s->c[at], (size_t)(s->n - at) * sizeof *s->c);
    s->c[at] = *c;
    s->n++;
    s->taken++;
    /* Over the budget: thin out where checkpoints are densest (the one nearest its predecessor,
     * never the newest unless it is alone), so the gaps a pass must run stay even. */
    while (s->n && dbg_ckpts_bytes(s) > s->budget) {
        int victim = -1;
        int best = 0;
        for (int i = 0; i < s->n; i++) {
            if (i == at && s->n > 1)
                continue;
            int gap = i ? s->c[i].draw - s->c[i - 1].draw : s->c[i].draw + 1;
            if (victim < 0 || gap < best) {
                victim = i;
                best = gap;
            }
        }
        if (victim < at)
            at--;
        drop_at(s, victim);
    }
}

bool dbg_line_hits_copy(struct dbg_line_hits *dst, const struct dbg_line_hits *src)
{
    memset(dst, 0, sizeof *dst);
    if (src->lost)
        return false;
    if (!src->n_rows)
        return true;
    dst->rows = calloc((size_t)src->n_rows, sizeof *dst->rows);
    if (!dst->rows)
        return false;
    dst->n_rows = src->n_rows;
    for (int i = 0; i < src->n_rows; i++) {
        if (!src->rows[i].n)
            continue;
        dst->rows[i].hits = malloc((size_t)src->rows[i].n * sizeof *dst->rows[i].hits);
        if (!dst->rows[i].hits) {
            dbg_line_hits_free(dst);
            return false;
        }
        memcpy(dst->rows[i].hits, src->rows[i].hits, (size_t)src->rows[i].n * sizeof *dst->rows[i].hits);
        dst->rows[i].n = src->rows[i].n;
    }
    return true;
}

/* The first count at which the hit condition matches (UINT64_MAX: never). */
static uint64_t first_match(enum dbg_hit_op op, uint64_t n)
{
    switch (op) {
    case DBG_HIT_EQ: case DBG_HIT_GE: case DBG_HIT_MOD: return n;
    case DBG_HIT_GT: return n + 1;
    case DBG_HIT_LT: return n > 1 ? 1 : UINT64_MAX;
    default: return 1;
    }
}

/* A breakpoint whose count is not the arrivals at its line: it must have none before the
 * checkpoint (then its count there is 0, as a pass from the start finds). */
static bool counts_apart(const struct dbg_bp *bp, const struct dbg_pass_req *req)
{
    return (bp->condition && *bp->condition) || bp->log_message || req->only_x >= 0;
}

uint64_t dbg_ckpt_id_hits(const struct dbg_ckpt *c, const struct dbg_pass_req *req, int id)
{
    if (req->only_draw >= 0)
        return 0;   /* only that draw's hits count, and it is not before c */
    uint64_t h = 0;
    for (int b = 0; b < req->n_bps; b++)
        if (req->bps[b].id == id)
            h += dbg_line_hits_get(&c->lines, req->bps[b].shader, req->bps[b].line);
    return h;
}

int dbg_ckpt_pick(const struct dbg_ckpts *s, const struct dbg_pass_req *req)
{
    if (!s || !s->n)
        return -1;
    /* What a pass does before the draw and a checkpoint does not keep: exception filters
     * (stops anywhere), heat-map callbacks, reverse continue (hits before a position), values
     * set by the client, a pause asked for (the frame's next instruction). */
    if (req->exceptions || req->on_hit || req->have_before || req->n_overrides ||
        (req->pause && atomic_load(req->pause)))
        return -1;
    for (int i = s->n - 1; i >= 0; i--) {
        const struct dbg_ckpt *c = &s->c[i];
        if (c->record > s->limit_record)
            continue;
        if (req->replay && c->draw > req->key.draw)
            continue;
        if (req->only_draw >= 0) {
            if (c->draw <= req->only_draw)
                return i;
            continue;
        }
        bool ok = true;
        for (int b = 0; b < req->n_bps && ok; b++) {
            const struct dbg_bp *bp = &req->bps[b];
            if (bp->pc1)
                ok = false;   /* instruction breakpoints count issues, not arrivals */
            else if (counts_apart(bp, req) && dbg_line_hits_get(&c->lines, bp->shader, bp->line))
                ok = false;
        }
        /* A pass looking for a hit must not find one before the draw, unless it only takes hits
         * after a position that lies past the draw's start (a continue's `after`). */
        bool after_past = req->have_after && req->after_seq >= c->instructions;
        for (int b = 0; ok && !req->replay && !after_past && b < req->n_bps; b++) {
            const struct dbg_bp *bp = &req->bps[b];
            if (bp->log_message)
                continue;   /* never stops (and has no arrivals before c) */
            uint64_t have = dbg_ckpt_id_hits(c, req, bp->id);
            if (have && first_match(bp->hit_op, bp->hit_n) <= have)
                ok = false;
        }
        if (ok)
            return i;
    }
    return -1;
}

void dbg_runner_no_checkpoints(struct dbg_runner *r)
{
    if (!r)
        return;
    dbg_ckpts_free(r->ckpts);
    r->ckpts = NULL;
}
