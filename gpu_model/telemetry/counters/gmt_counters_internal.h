/* Internal state of the counter hierarchy (gmt_counters.c: hierarchy, gmt_counters_hooks.c:
 * signals, gmt_counters_json.c: output). */
#ifndef GMT_COUNTERS_INTERNAL_H
#define GMT_COUNTERS_INTERNAL_H

#include "gmt_counters.h"

#define GMT_N GMT_COUNTER_COUNT
#define GMT_NARROW_MAX 0xFFFFu
#define GMT_BANK_MAX 0xFFFFFFFFu

/* One stored time-series sample; its non-zero deltas are pairs [first, first + n) of the
 * series' id/value arrays. */
struct gmt_sample_hdr {
    uint64_t cycle;
    uint32_t ctx_id;
    uint32_t first;
    uint8_t n;
    uint8_t trigger;
};

struct gmt_counters {
    gmt_counters_config cfg;
    uint64_t enabled;           /* bit per counter id: not masked */
    int n_sm;

    /* Level 1: narrow counters, [sm * GMT_N + id]. */
    uint16_t *narrow;
    /* The cycle hook's counters (sm_active_cycles, warps_resident, stall_*) grow by at most the
     * resident warp count per call, so per SM the sum of those counts since its last
     * serialization bounds all of them: the hook checks that bound once per call instead of
     * every counter (gmt_counters_hooks.c). */
    uint32_t *cycle_bound;
    uint16_t en[GMT_N];         /* 1: counter enabled, 0: masked (branch-free gating) */
    /* Level 2: collection units (one per SM), two banks of [sm * GMT_N + id]. */
    uint32_t *bank[2];
    int active;                 /* bank counting now; the other one is idle (emitted) */

    /* Time. */
    uint64_t now;               /* last cycle seen */
    uint64_t next_serialize, next_trigger;

    /* Level 3: reduction channels. */
    uint32_t ctx_id;            /* context counting now (0 before the first draw_begin) */
    int cur_block;              /* index of its block, -1 until it has one */
    gmt_counters_block global;
    gmt_counters_block *blocks;
    int n_blocks, cap_blocks;

    /* Time series. */
    struct gmt_sample_hdr *samples;
    size_t n_samples, cap_samples;
    uint8_t *pair_id;
    uint64_t *pair_val;
    size_t n_pairs, cap_pairs;
    bool last_sample_zero;      /* the last stored sample (or the start) was all zero */
    bool have_skipped;          /* zero swaps were skipped since then; the latest: */
    struct gmt_sample_hdr skipped;

    gmt_counters_stats stats;
    bool oom;                   /* an allocation failed: the series stops growing, counts stay exact */
};

/* Hierarchy operations (gmt_counters.c). */
void gmt_boundary(gmt_counters *c);                 /* a K or T boundary was reached */
void gmt_serialize_sm(gmt_counters *c, int sm, bool overflow);
void gmt_swap(gmt_counters *c, gmt_trigger why);    /* swap banks, emit the idle one */
void gmt_flush(gmt_counters *c, gmt_trigger why);   /* serialize all SMs, swap, emit */
void gmt_switch_context(gmt_counters *c, uint32_t ctx_id);

/* Time moves to `cycle` (never backwards): serializations and interval triggers due at the
 * boundaries crossed happen before the caller counts the new cycle's signals. */
static inline void gmt_advance(gmt_counters *c, uint64_t cycle)
{
    if (cycle > c->now)
        c->now = cycle;
    if (c->now >= c->next_serialize || c->now >= c->next_trigger)
        gmt_boundary(c);
}

/* Adds v to the narrow counter (sm, id) of an enabled counter: when the counter could wrap,
 * the SM is serialized first (values above 16 bits arrive in 16-bit steps). */
static inline void gmt_add(gmt_counters *c, int sm, int id, uint64_t v)
{
    if (!v || !((c->enabled >> id) & 1))
        return;
    uint16_t *n = &c->narrow[(size_t)sm * GMT_N + (size_t)id];
    while (v > (uint64_t)(GMT_NARROW_MAX - *n)) {
        uint64_t part = GMT_NARROW_MAX - *n;
        *n = (uint16_t)GMT_NARROW_MAX;
        v -= part;
        gmt_serialize_sm(c, sm, true);
    }
    *n = (uint16_t)(*n + v);
}

#endif
