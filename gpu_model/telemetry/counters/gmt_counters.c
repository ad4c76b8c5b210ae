/* The counter hierarchy: narrow counters -> collection units (two banks) -> records ->
 * reduction channels (per context and global), plus the time series taken at each swap.
 * See DESIGN.md for why each level exists and how conservation is guaranteed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_counters_internal.h"

void gmt_counters_default_config(gmt_counters_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->serialize_interval = 256;
    cfg->trigger_interval = 16384;
    cfg->trigger_at_draw_end = true;
    cfg->mask = 0;
    cfg->series = true;
}

static void set_err(char *err, size_t n, const char *msg)
{
    if (err && n)
        snprintf(err, n, "%s", msg);
}

gmt_counters *gmt_counters_create(const gmt_counters_config *cfg, const gm_timing_config *tc,
                                  char *err, size_t err_size)
{
    gmt_counters_config def;
    if (!cfg) {
        gmt_counters_default_config(&def);
        cfg = &def;
    }
    gm_timing_config tdef;
    if (!tc) {
        gm_timing_config_default(&tdef);
        tc = &tdef;
    }
    if (cfg->serialize_interval == 0) {
        set_err(err, err_size, "counters: serialize_interval must be at least 1 cycle");
        return NULL;
    }
    if (tc->sm_count < 1 || tc->sm_count > 4096) {
        set_err(err, err_size, "counters: the timing model's sm_count must be 1..4096");
        return NULL;
    }
    gmt_counters *c = calloc(1, sizeof *c);
    if (!c) {
        set_err(err, err_size, "counters: out of memory");
        return NULL;
    }
    c->cfg = *cfg;
    c->n_sm = tc->sm_count;
    uint64_t all = GMT_N >= 64 ? ~0ull : ((1ull << GMT_N) - 1);
    c->enabled = all & ~cfg->mask;
    size_t cells = (size_t)c->n_sm * GMT_N;
    c->narrow = calloc(cells, sizeof *c->narrow);
    c->bank[0] = calloc(cells, sizeof *c->bank[0]);
    c->bank[1] = calloc(cells, sizeof *c->bank[1]);
    c->cycle_bound = calloc((size_t)c->n_sm, sizeof *c->cycle_bound);
    for (int id = 0; id < GMT_N; id++)
        c->en[id] = (uint16_t)((c->enabled >> id) & 1);
    if (!c->narrow || !c->bank[0] || !c->bank[1] || !c->cycle_bound) {
        gmt_counters_destroy(c);
        set_err(err, err_size, "counters: out of memory");
        return NULL;
    }
    c->next_serialize = cfg->serialize_interval;
    c->next_trigger = cfg->trigger_interval ? cfg->trigger_interval : UINT64_MAX;
    c->cur_block = -1;
    c->last_sample_zero = true;
    return c;
}

void gmt_counters_destroy(gmt_counters *c)
{
    if (!c)
        return;
    free(c->narrow);
    free(c->bank[0]);
    free(c->bank[1]);
    free(c->cycle_bound);
    free(c->blocks);
    free(c->samples);
    free(c->pair_id);
    free(c->pair_val);
    free(c);
}

/* ------------------------------------------------------------------ level 1 -> 2 */

void gmt_serialize_sm(gmt_counters *c, int sm, bool overflow)
{
    uint16_t *n = c->narrow + (size_t)sm * GMT_N;
    uint32_t *b = c->bank[c->active] + (size_t)sm * GMT_N;
    for (int id = 0; id < GMT_N; id++) {
        if (!n[id])
            continue;
        if (b[id] > GMT_BANK_MAX - n[id]) {
            /* The 32-bit bank counter would wrap: swap now (emitting what it holds, the
             * narrow counters already added included) and keep adding into the fresh bank. */
            gmt_swap(c, GMT_TRIGGER_OVERFLOW);
            b = c->bank[c->active] + (size_t)sm * GMT_N;
        }
        b[id] += n[id];
        n[id] = 0;
    }
    c->cycle_bound[sm] = 0;
    if (overflow)
        c->stats.overflow_serializations++;
}

static void serialize_all(gmt_counters *c)
{
    for (int sm = 0; sm < c->n_sm; sm++)
        gmt_serialize_sm(c, sm, false);
    c->stats.serializations++;
}

/* ------------------------------------------------------------------ level 3 */

static gmt_counters_block *block_of(gmt_counters *c, uint32_t ctx_id)
{
    for (int i = 0; i < c->n_blocks; i++)
        if (c->blocks[i].ctx_id == ctx_id)
            return &c->blocks[i];
    if (c->n_blocks == c->cap_blocks) {
        int cap = c->cap_blocks ? 2 * c->cap_blocks : 4;
        gmt_counters_block *nb = realloc(c->blocks, (size_t)cap * sizeof *nb);
        if (!nb)
            return NULL;
        c->blocks = nb;
        c->cap_blocks = cap;
    }
    gmt_counters_block *b = &c->blocks[c->n_blocks++];
    memset(b, 0, sizeof *b);
    b->ctx_id = ctx_id;
    return b;
}

/* A record: up to 8 (counter id, value) pairs of one collection unit, for one context. */
struct gmt_record {
    uint32_t ctx_id;
    uint16_t unit;
    uint8_t n;
    uint8_t id[GMT_RECORD_COUNTERS];
    uint32_t value[GMT_RECORD_COUNTERS];
};

/* The reduction channels: the record's context block and the global channel, 64-bit. */
static void reduce(gmt_counters *c, gmt_counters_block *blk, const struct gmt_record *r)
{
    for (int k = 0; k < r->n; k++) {
        blk->values[r->id[k]] += r->value[k];
        c->global.values[r->id[k]] += r->value[k];
    }
    blk->records++;
    c->global.records++;
    c->stats.records++;
}

static int push_sample(gmt_counters *c, uint64_t cycle, uint32_t ctx_id, gmt_trigger why,
                       const uint64_t *delta, int nz)
{
    if (c->n_samples == c->cap_samples) {
        size_t cap = c->cap_samples ? 2 * c->cap_samples : 256;
        struct gmt_sample_hdr *ns = realloc(c->samples, cap * sizeof *ns);
        if (!ns)
            return -1;
        c->samples = ns;
        c->cap_samples = cap;
    }
    if (c->n_pairs + (size_t)nz > c->cap_pairs) {
        size_t cap = c->cap_pairs ? 2 * c->cap_pairs : 4096;
        while (cap < c->n_pairs + (size_t)nz)
            cap *= 2;
        uint8_t *ni = realloc(c->pair_id, cap * sizeof *ni);
        if (!ni)
            return -1;
        c->pair_id = ni;
        uint64_t *nv = realloc(c->pair_val, cap * sizeof *nv);
        if (!nv)
            return -1;
        c->pair_val = nv;
        c->cap_pairs = cap;
    }
    struct gmt_sample_hdr *h = &c->samples[c->n_samples++];
    h->cycle = cycle;
    h->ctx_id = ctx_id;
    h->first = (uint32_t)c->n_pairs;
    h->n = (uint8_t)nz;
    h->trigger = (uint8_t)why;
    for (int id = 0; nz && id < GMT_N; id++)
        if (delta[id]) {
            c->pair_id[c->n_pairs] = (uint8_t)id;
            c->pair_val[c->n_pairs++] = delta[id];
        }
    return 0;
}

/* Stores a time-series sample (sparse). Of a run of all-zero swaps only the first and the
 * last are stored, so every stored non-zero sample's interval starts at the stored sample
 * before it (rates stay exact) and idle stretches cost two samples. On allocation failure
 * the series stops growing (the channels stay exact). */
static void add_sample(gmt_counters *c, gmt_trigger why, const uint64_t *delta)
{
    if (!c->cfg.series || c->oom)
        return;
    int nz = 0;
    for (int id = 0; id < GMT_N; id++)
        nz += delta[id] != 0;
    if (!nz && c->last_sample_zero) {
        c->skipped = (struct gmt_sample_hdr){.cycle = c->now, .ctx_id = c->ctx_id,
                                             .trigger = (uint8_t)why};
        c->have_skipped = true;
        return;
    }
    if (nz && c->have_skipped &&
        push_sample(c, c->skipped.cycle, c->skipped.ctx_id, (gmt_trigger)c->skipped.trigger,
                    delta, 0) != 0) {
        c->oom = true;
        return;
    }
    c->have_skipped = false;
    c->last_sample_zero = nz == 0;
    if (push_sample(c, c->now, c->ctx_id, why, delta, nz) != 0)
        c->oom = true;
}

/* Level 2 -> 3: the banks swap; the bank that was counting (now idle) is emitted as records
 * for the current context and cleared, ready to count again at the next swap. */
void gmt_swap(gmt_counters *c, gmt_trigger why)
{
    int old = c->active;
    c->active ^= 1;
    uint64_t delta[GMT_N] = {0};
    gmt_counters_block *blk = c->cur_block >= 0 ? &c->blocks[c->cur_block] : NULL;
    for (int sm = 0; sm < c->n_sm; sm++) {
        uint32_t *b = c->bank[old] + (size_t)sm * GMT_N;
        struct gmt_record r = {.ctx_id = c->ctx_id, .unit = (uint16_t)sm};
        for (int id = 0; id < GMT_N; id++) {
            if (!b[id])
                continue;
            if (!blk) {
                blk = block_of(c, c->ctx_id);
                if (!blk) {
                    /* No memory for a block: reducing into the global channel alone would
                     * break conservation, so the counts stay in the bank (not lost) and go
                     * out at the next swap (under memory exhaustion, possibly in the next
                     * context's block). */
                    c->oom = true;
                    c->active = old;
                    return;
                }
                c->cur_block = (int)(blk - c->blocks);
            }
            r.id[r.n] = (uint8_t)id;
            r.value[r.n++] = b[id];
            delta[id] += b[id];
            b[id] = 0;
            if (r.n == GMT_RECORD_COUNTERS) {
                reduce(c, blk, &r);
                r.n = 0;
            }
        }
        if (r.n)
            reduce(c, blk, &r);
    }
    c->stats.swaps++;
    c->stats.swaps_by_trigger[why]++;
    add_sample(c, why, delta);
}

void gmt_flush(gmt_counters *c, gmt_trigger why)
{
    serialize_all(c);
    gmt_swap(c, why);
}

void gmt_boundary(gmt_counters *c)
{
    if (c->now >= c->next_serialize) {
        serialize_all(c);
        uint64_t k = c->cfg.serialize_interval;
        c->next_serialize = (c->now / k + 1) * k;
    }
    if (c->now >= c->next_trigger) {
        gmt_flush(c, GMT_TRIGGER_INTERVAL);
        uint64_t t = c->cfg.trigger_interval;
        c->next_trigger = (c->now / t + 1) * t;
    }
}

void gmt_switch_context(gmt_counters *c, uint32_t ctx_id)
{
    if (ctx_id == c->ctx_id && c->cur_block >= 0)
        return;
    if (ctx_id != c->ctx_id) {
        /* Every count of the old context reaches its block before the new one counts. */
        gmt_flush(c, GMT_TRIGGER_CONTEXT_SWITCH);
        if (c->cur_block >= 0)
            c->stats.context_switches++;
        c->ctx_id = ctx_id;
    }
    gmt_counters_block *b = block_of(c, ctx_id);
    c->cur_block = b ? (int)(b - c->blocks) : -1;
}

void gmt_counters_finish(gmt_counters *c, uint64_t end_cycle)
{
    gmt_advance(c, end_cycle);
    gmt_flush(c, GMT_TRIGGER_FINISH);
}

/* ------------------------------------------------------------------ accessors */

const gmt_counters_block *gmt_counters_global(const gmt_counters *c)
{
    return &c->global;
}

int gmt_counters_context_count(const gmt_counters *c)
{
    return c->n_blocks;
}

const gmt_counters_block *gmt_counters_context(const gmt_counters *c, int i)
{
    return i >= 0 && i < c->n_blocks ? &c->blocks[i] : NULL;
}

const gmt_counters_block *gmt_counters_context_by_id(const gmt_counters *c, uint32_t ctx_id)
{
    for (int i = 0; i < c->n_blocks; i++)
        if (c->blocks[i].ctx_id == ctx_id)
            return &c->blocks[i];
    return NULL;
}

size_t gmt_counters_series_count(const gmt_counters *c)
{
    return c->n_samples;
}

int gmt_counters_series_get(const gmt_counters *c, size_t i, gmt_counters_sample *out)
{
    if (i >= c->n_samples)
        return -1;
    const struct gmt_sample_hdr *h = &c->samples[i];
    memset(out, 0, sizeof *out);
    out->cycle = h->cycle;
    out->ctx_id = h->ctx_id;
    out->trigger = (gmt_trigger)h->trigger;
    for (uint32_t k = h->first; k < h->first + h->n; k++)
        out->delta[c->pair_id[k]] = c->pair_val[k];
    return 0;
}

void gmt_counters_get_stats(const gmt_counters *c, gmt_counters_stats *out)
{
    *out = c->stats;
    out->cycles = c->now;
}
