/* Unit test of the counter hierarchy: synthetic hook events (no model, no GL) against a
 * straight 64-bit reference count kept here. Checks conservation (per-context blocks sum to the
 * global channel, which equals the reference), no loss to the 16-bit narrow counters or the
 * 32-bit banks, masking, context-switch flushes, the time series and the JSON. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_counters.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

#define N GMT_COUNTER_COUNT
#define MAX_CTX 4

/* Reference: what each context (and the whole run) must count, in 64 bits. */
struct ref {
    uint64_t ctx[MAX_CTX][N];
    uint64_t all[N];
    uint64_t mask;
    int cur;
};

static void ref_add(struct ref *r, int id, uint64_t v)
{
    if ((r->mask >> id) & 1)
        return;
    r->ctx[r->cur][id] += v;
    r->all[id] += v;
}

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- event makers (each also updates the reference) ---- */

static void ev_cycle(gmf_hooks *h, struct ref *r, uint64_t cycle, int sm, int resident)
{
    gm_timing_slot_sample slots[16];
    memset(slots, 0, sizeof slots);
    int n = 0;
    for (int s = 0; s < 16; s++) {
        if (s < resident) {
            slots[s].resident = 1;
            slots[s].state = (gm_stall)((s + (int)cycle) % GM_STALL_COUNT);
            ref_add(r, gmt_counter_of_stall(slots[s].state), 1);
            n++;
        }
    }
    if (n) {
        ref_add(r, GMT_C_SM_ACTIVE_CYCLES, 1);
        ref_add(r, GMT_C_WARPS_RESIDENT, (uint64_t)n);
    }
    h->cycle(h->ctx, cycle, sm, slots, 16);
}

static void ev_issue(gmf_hooks *h, struct ref *r, uint64_t cycle, int sm, gm_mask active)
{
    gm_timing_issue is;
    memset(&is, 0, sizeof is);
    is.cycle = cycle;
    is.sm = sm;
    is.active = active;
    ref_add(r, GMT_C_INST_ISSUED, 1);
    ref_add(r, GMT_C_ACTIVE_LANES, (uint64_t)__builtin_popcountll((unsigned long long)active));
    h->issue(h->ctx, &is);
}

static void ev_mem(gmf_hooks *h, struct ref *r, uint64_t cycle, int sm, int tex, int hits, int misses)
{
    gm_timing_mem_event m;
    memset(&m, 0, sizeof m);
    m.cycle = cycle;
    m.sm = sm;
    m.is_texture = tex;
    m.hits = hits;
    m.misses = misses;
    m.lines = hits + misses;
    if (tex) {
        ref_add(r, GMT_C_TEX_REQUESTS, 1);
        ref_add(r, GMT_C_TEX_HITS, (uint64_t)hits);
        ref_add(r, GMT_C_TEX_MISSES, (uint64_t)misses);
    } else {
        ref_add(r, GMT_C_MEM_REQUESTS, 1);
    }
    h->mem(h->ctx, &m);
}

static void ev_units(gmf_hooks *h, struct ref *r, uint64_t cycle, int sm, uint32_t ctx,
                     const gmf_unit_counts *u)
{
    const uint64_t *v = &u->primitives_in;  /* the struct is 11 uint64_t in counter order */
    for (int k = 0; k < GMT_C_BLEND_OPS - GMT_C_PRIMITIVES_IN + 1; k++)
        ref_add(r, GMT_C_PRIMITIVES_IN + k, v[k]);
    h->units(h->ctx, cycle, sm, ctx, u);
}

static void ev_draw(gmf_hooks *h, struct ref *r, bool begin, uint32_t ctx, uint64_t cycle)
{
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GMF_EV_DRAW;
    ev.ctx_id = ctx;
    if (begin) {
        r->cur = (int)ctx;
        h->draw_begin(h->ctx, &ev, cycle);
    } else {
        h->draw_end(h->ctx, &ev, cycle);
    }
}

/* ---- checks ---- */

static void check_against(const gmt_counters *c, const struct ref *r, const char *what)
{
    const gmt_counters_block *g = gmt_counters_global(c);
    uint64_t sum[N] = {0};
    for (int i = 0; i < gmt_counters_context_count(c); i++) {
        const gmt_counters_block *b = gmt_counters_context(c, i);
        CHECK(b->ctx_id < MAX_CTX, "%s: unexpected context %u", what, b->ctx_id);
        for (int id = 0; id < N; id++) {
            sum[id] += b->values[id];
            if (b->ctx_id < MAX_CTX)
                CHECK(b->values[id] == r->ctx[b->ctx_id][id], "%s: ctx %u %s = %llu, reference %llu",
                      what, b->ctx_id, gmt_counter_name(id), (unsigned long long)b->values[id],
                      (unsigned long long)r->ctx[b->ctx_id][id]);
        }
    }
    for (int k = 0; k < MAX_CTX; k++) {
        bool any = false;
        for (int id = 0; id < N; id++)
            any |= r->ctx[k][id] != 0;
        CHECK(!any || gmt_counters_context_by_id(c, (uint32_t)k), "%s: context %d has no block", what, k);
    }
    uint64_t series[N] = {0};
    gmt_counters_sample smp;
    for (size_t i = 0; gmt_counters_series_get(c, i, &smp) == 0; i++)
        for (int id = 0; id < N; id++)
            series[id] += smp.delta[id];
    for (int id = 0; id < N; id++) {
        CHECK(sum[id] == g->values[id], "%s: contexts sum %llu != global %llu for %s", what,
              (unsigned long long)sum[id], (unsigned long long)g->values[id], gmt_counter_name(id));
        CHECK(g->values[id] == r->all[id], "%s: global %s = %llu, reference %llu", what,
              gmt_counter_name(id), (unsigned long long)g->values[id], (unsigned long long)r->all[id]);
        CHECK(series[id] == g->values[id], "%s: series sum of %s = %llu, global %llu", what,
              gmt_counter_name(id), (unsigned long long)series[id], (unsigned long long)g->values[id]);
        if ((r->mask >> id) & 1)
            CHECK(g->values[id] == 0, "%s: masked %s counted %llu", what, gmt_counter_name(id),
                  (unsigned long long)g->values[id]);
    }
    uint64_t recs = 0;
    for (int i = 0; i < gmt_counters_context_count(c); i++)
        recs += gmt_counters_context(c, i)->records;
    CHECK(recs == g->records, "%s: context records %llu != global records %llu", what,
          (unsigned long long)recs, (unsigned long long)g->records);
}

/* A random workload over 4 SMs and 3 contexts, with draws and unit deliveries. */
static void random_run(const gmt_counters_config *cfg, uint64_t mask, const char *what)
{
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    char err[256];
    gmt_counters_config cc = *cfg;
    cc.mask = mask;
    gmt_counters *c = gmt_counters_create(&cc, &tc, err, sizeof err);
    CHECK(c != NULL, "%s: create: %s", what, err);
    if (!c)
        return;
    gmf_hooks h;
    memset(&h, 0, sizeof h);
    gmt_counters_hooks(c, &h);
    struct ref *r = calloc(1, sizeof *r);
    r->mask = mask;
    uint64_t cycle = 0;
    for (int draw = 0; draw < 40; draw++) {
        uint32_t ctx = 1 + (uint32_t)(rnd() % 3);
        ev_draw(&h, r, true, ctx, cycle);
        int len = 100 + (int)(rnd() % 3000);
        for (int k = 0; k < len; k++, cycle++) {
            for (int sm = 0; sm < tc.sm_count; sm++) {
                if (rnd() % 3 == 0)
                    ev_issue(&h, r, cycle, sm, (gm_mask)rnd());
                if (rnd() % 17 == 0)
                    ev_mem(&h, r, cycle, sm, (int)(rnd() & 1), (int)(rnd() % 5), (int)(rnd() % 3));
                ev_cycle(&h, r, cycle, sm, (int)(rnd() % 17));
            }
            if (rnd() % 50 == 0) {
                gmf_unit_counts u;
                uint64_t *v = &u.primitives_in;
                for (int i = 0; i < 11; i++)
                    v[i] = rnd() % 40;
                ev_units(&h, r, cycle, (int)(rnd() % 4), ctx, &u);
            }
        }
        ev_draw(&h, r, false, ctx, cycle);
    }
    gmt_counters_finish(c, cycle);
    check_against(c, r, what);
    gmt_counters_stats st;
    gmt_counters_get_stats(c, &st);
    CHECK(st.swaps > 0 && st.records > 0, "%s: no swaps or records", what);
    CHECK(st.context_switches > 0, "%s: no context switch seen", what);
    free(r);
    gmt_counters_destroy(c);
}

static void test_conservation(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    random_run(&cfg, 0, "default config");
    cfg.serialize_interval = 7;
    cfg.trigger_interval = 333;
    random_run(&cfg, 0, "K=7 T=333");
    cfg.serialize_interval = 1000000;   /* narrow counters must spill early */
    cfg.trigger_interval = 0;
    cfg.trigger_at_draw_end = false;
    random_run(&cfg, 0, "K=1e6, no triggers but context switches");
}

static void test_masked(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    uint64_t mask = 1ull << GMT_C_WARPS_RESIDENT | 1ull << GMT_C_TEX_HITS |
                    1ull << GMT_C_STALL_LONG_SCOREBOARD | 1ull << GMT_C_BLEND_OPS |
                    1ull << GMT_C_INST_ISSUED;
    random_run(&cfg, mask, "masked");
    /* Everything masked: nothing counts, no record is emitted. */
    gmt_counters *c = gmt_counters_create(&(gmt_counters_config){.serialize_interval = 16,
                                              .trigger_interval = 64, .mask = ~0ull, .series = true},
                                          NULL, NULL, 0);
    CHECK(c != NULL, "create with everything masked");
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    struct ref r = {.mask = ~0ull};
    for (uint64_t cy = 0; cy < 1000; cy++) {
        ev_cycle(&h, &r, cy, 0, 16);
        ev_issue(&h, &r, cy, 1, ~(gm_mask)0);
    }
    gmt_counters_finish(c, 1000);
    const gmt_counters_block *g = gmt_counters_global(c);
    CHECK(g->records == 0, "all masked: %llu records", (unsigned long long)g->records);
    for (int id = 0; id < N; id++)
        CHECK(g->values[id] == 0, "all masked: %s = %llu", gmt_counter_name(id),
              (unsigned long long)g->values[id]);
    gmt_counters_destroy(c);
}

/* A signal high for far more than 65535 cycles between serializations, and single deliveries
 * above 16 and 32 bits. */
static void test_no_overflow_loss(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    cfg.serialize_interval = 1u << 30;
    cfg.trigger_interval = 0;
    cfg.trigger_at_draw_end = false;
    gmt_counters *c = gmt_counters_create(&cfg, NULL, NULL, 0);
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    struct ref *r = calloc(1, sizeof *r);
    ev_draw(&h, r, true, 2, 0);
    const uint64_t cycles = 300000;
    for (uint64_t cy = 0; cy < cycles; cy++) {
        ev_cycle(&h, r, cy, 3, 16);               /* 16 warps resident every cycle */
        ev_issue(&h, r, cy, 3, ~(gm_mask)0);      /* 32 lanes every cycle */
    }
    gmf_unit_counts u;
    memset(&u, 0, sizeof u);
    u.fragments_shaded = 5000000000ull;         /* > 2^32 in one delivery */
    u.helper_lanes = 70000;                     /* > 2^16 */
    ev_units(&h, r, cycles, 1, 2, &u);
    gmt_counters_finish(c, cycles);
    check_against(c, r, "long-high signal");
    const gmt_counters_block *g = gmt_counters_global(c);
    CHECK(g->values[GMT_C_WARPS_RESIDENT] == 16 * cycles, "warps_resident %llu != %llu",
          (unsigned long long)g->values[GMT_C_WARPS_RESIDENT], (unsigned long long)(16 * cycles));
    CHECK(g->values[GMT_C_SM_ACTIVE_CYCLES] == cycles, "sm_active_cycles %llu",
          (unsigned long long)g->values[GMT_C_SM_ACTIVE_CYCLES]);
    CHECK(g->values[GMT_C_ACTIVE_LANES] == 32 * cycles, "active_lanes %llu",
          (unsigned long long)g->values[GMT_C_ACTIVE_LANES]);
    CHECK(g->values[GMT_C_FRAGMENTS_SHADED] == 5000000000ull, "fragments_shaded %llu",
          (unsigned long long)g->values[GMT_C_FRAGMENTS_SHADED]);
    gmt_counters_stats st;
    gmt_counters_get_stats(c, &st);
    CHECK(st.overflow_serializations > 0, "no early serialization happened");
    CHECK(st.swaps_by_trigger[GMT_TRIGGER_OVERFLOW] > 0, "no bank-overflow swap happened");
    free(r);
    gmt_counters_destroy(c);
}

/* More slots than the model allows go through the checked path; the hot path's early
 * serialization keeps 64-slot SMs exact over long spans. */
static void test_wide_cycle_samples(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    cfg.serialize_interval = 1u << 30;
    cfg.trigger_interval = 0;
    gmt_counters *c = gmt_counters_create(&cfg, NULL, NULL, 0);
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    enum { WIDE = 70000 };
    gm_timing_slot_sample *slots = calloc(WIDE, sizeof *slots);
    for (int s = 0; s < WIDE; s++) {
        slots[s].resident = s % 10 != 0;
        slots[s].state = GM_STALL_LONG_SCOREBOARD;
    }
    for (uint64_t cy = 0; cy < 3; cy++)
        h.cycle(h.ctx, cy, 0, slots, WIDE);           /* 63000 resident per call */
    for (uint64_t cy = 3; cy < 5003; cy++)
        h.cycle(h.ctx, cy, 1, slots, 64);             /* 57 of 64 resident per call */
    gmt_counters_finish(c, 5003);
    const gmt_counters_block *g = gmt_counters_global(c);
    uint64_t want = 3 * 63000ull + 5000 * 57ull;
    CHECK(g->values[GMT_C_WARPS_RESIDENT] == want, "wide: warps_resident %llu != %llu",
          (unsigned long long)g->values[GMT_C_WARPS_RESIDENT], (unsigned long long)want);
    CHECK(g->values[GMT_C_STALL_LONG_SCOREBOARD] == want, "wide: long_scoreboard %llu",
          (unsigned long long)g->values[GMT_C_STALL_LONG_SCOREBOARD]);
    CHECK(g->values[GMT_C_SM_ACTIVE_CYCLES] == 5003, "wide: active cycles %llu",
          (unsigned long long)g->values[GMT_C_SM_ACTIVE_CYCLES]);
    free(slots);
    gmt_counters_destroy(c);
}

/* Counts before a switch land in the old context's block at the switch, before the new context
 * counts anything; no swap at draw end, so only the switch can have moved them. */
static void test_context_switch(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    cfg.trigger_interval = 0;
    cfg.trigger_at_draw_end = false;
    cfg.serialize_interval = 100000;
    gmt_counters *c = gmt_counters_create(&cfg, NULL, NULL, 0);
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    struct ref *r = calloc(1, sizeof *r);
    ev_draw(&h, r, true, 1, 0);
    for (uint64_t cy = 0; cy < 500; cy++)
        ev_issue(&h, r, cy, (int)(cy % 4), 0xF);
    ev_draw(&h, r, false, 1, 500);
    const gmt_counters_block *b1 = gmt_counters_context_by_id(c, 1);
    CHECK(b1 && b1->values[GMT_C_INST_ISSUED] == 0, "ctx 1 counted before any flush");
    ev_draw(&h, r, true, 3, 500);   /* the switch */
    b1 = gmt_counters_context_by_id(c, 1);
    CHECK(b1 && b1->values[GMT_C_INST_ISSUED] == 500, "ctx 1 after the switch: %llu instructions",
          b1 ? (unsigned long long)b1->values[GMT_C_INST_ISSUED] : 0ull);
    CHECK(b1 && b1->values[GMT_C_ACTIVE_LANES] == 2000, "ctx 1 active lanes");
    for (uint64_t cy = 500; cy < 800; cy++)
        ev_issue(&h, r, cy, 0, 0x1);
    ev_draw(&h, r, false, 3, 800);
    ev_draw(&h, r, true, 1, 800);   /* and back */
    for (uint64_t cy = 800; cy < 900; cy++)
        ev_issue(&h, r, cy, 2, 0x3);
    gmt_counters_finish(c, 900);
    check_against(c, r, "context switch");
    b1 = gmt_counters_context_by_id(c, 1);
    const gmt_counters_block *b3 = gmt_counters_context_by_id(c, 3);
    CHECK(b1 && b1->values[GMT_C_INST_ISSUED] == 600, "ctx 1 total instructions");
    CHECK(b3 && b3->values[GMT_C_INST_ISSUED] == 300, "ctx 3 total instructions");
    CHECK(b3 && b3->values[GMT_C_ACTIVE_LANES] == 300, "ctx 3 active lanes");
    gmt_counters_stats st;
    gmt_counters_get_stats(c, &st);
    CHECK(st.context_switches == 2, "context switches %llu", (unsigned long long)st.context_switches);
    CHECK(st.swaps_by_trigger[GMT_TRIGGER_CONTEXT_SWITCH] >= 2, "switch swaps");
    /* Every series sample belongs to one context. */
    gmt_counters_sample s;
    uint64_t per_ctx[4] = {0};
    for (size_t i = 0; gmt_counters_series_get(c, i, &s) == 0; i++)
        if (s.ctx_id < 4)
            per_ctx[s.ctx_id] += s.delta[GMT_C_INST_ISSUED];
    CHECK(per_ctx[1] == 600 && per_ctx[3] == 300, "series per context: %llu %llu",
          (unsigned long long)per_ctx[1], (unsigned long long)per_ctx[3]);
    free(r);
    gmt_counters_destroy(c);
}

/* Idle stretches store their first and last swap only, so rates stay exact. */
static void test_series_intervals(void)
{
    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    cfg.trigger_interval = 100;
    gmt_counters *c = gmt_counters_create(&cfg, NULL, NULL, 0);
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    gm_timing_slot_sample empty[4];
    memset(empty, 0, sizeof empty);
    struct ref r = {0};
    for (uint64_t cy = 0; cy < 2000; cy++) {
        h.cycle(h.ctx, cy, 0, empty, 4);
        if (cy >= 1000 && cy < 1100)
            ev_issue(&h, &r, cy, 0, 1);
    }
    gmt_counters_finish(c, 2000);
    gmt_counters_sample s;
    size_t n = gmt_counters_series_count(c);
    CHECK(n == 3, "series: %zu samples, want 3", n);
    uint64_t want_cycle[3] = {1000, 1100, 1200}, want_issued[3] = {0, 100, 0};
    for (size_t i = 0; i < n && i < 3; i++) {
        gmt_counters_series_get(c, i, &s);
        CHECK(s.cycle == want_cycle[i] && s.delta[GMT_C_INST_ISSUED] == want_issued[i],
              "series sample %zu: cycle %llu issued %llu", i, (unsigned long long)s.cycle,
              (unsigned long long)s.delta[GMT_C_INST_ISSUED]);
    }
    gmt_counters_destroy(c);
}

static void test_json_and_names(void)
{
    CHECK(!strcmp(gmt_counter_name(GMT_C_WARPS_RESIDENT), "warps_resident"), "name");
    CHECK(gmt_counter_find("stall_long_scoreboard") == GMT_C_STALL_LONG_SCOREBOARD, "find");
    CHECK(gmt_counter_find("nope") == -1, "find unknown");
    CHECK(!strcmp(gmt_counter_name((gmt_counter_id)999), "?"), "name out of range");
    for (int id = 0; id < N; id++)
        CHECK(gmt_counter_find(gmt_counter_name(id)) == id, "round trip %d", id);
    char err[200] = "";
    CHECK(!gmt_counters_create(&(gmt_counters_config){.serialize_interval = 0}, NULL, err, sizeof err),
          "K = 0 accepted");
    CHECK(strstr(err, "serialize_interval") != NULL, "error message: %s", err);
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    tc.sm_count = 0;
    CHECK(!gmt_counters_create(NULL, &tc, err, sizeof err), "sm_count 0 accepted");

    gmt_counters_config cfg;
    gmt_counters_default_config(&cfg);
    cfg.mask = 1ull << GMT_C_TEX_MISSES;
    gmt_counters *c = gmt_counters_create(&cfg, NULL, NULL, 0);
    gmf_hooks h;
    gmt_counters_hooks(c, &h);
    struct ref r = {.mask = cfg.mask};
    ev_draw(&h, &r, true, 1, 0);
    for (uint64_t cy = 0; cy < 3000; cy++) {
        ev_issue(&h, &r, cy, 1, 0xFF);
        if (cy % 10 == 0)
            ev_mem(&h, &r, cy, 1, 1, 3, 1);
    }
    ev_draw(&h, &r, false, 1, 3000);
    gmt_counters_finish(c, 3000);
    cJSON *j = gmt_counters_to_json(c);
    CHECK(j != NULL, "json");
    char *txt = cJSON_PrintUnformatted(j);
    cJSON *p = cJSON_Parse(txt);
    CHECK(p != NULL, "json does not parse back");
    cJSON *gv = cJSON_GetObjectItem(cJSON_GetObjectItem(p, "global"), "values");
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(gv, "inst_issued")) == 3000, "json inst_issued");
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(gv, "tex_hits")) == 900, "json tex_hits");
    CHECK(cJSON_GetNumberValue(cJSON_GetObjectItem(gv, "tex_misses")) == 0, "json masked tex_misses");
    cJSON *ctxs = cJSON_GetObjectItem(p, "contexts");
    CHECK(cJSON_GetArraySize(ctxs) == 1, "json contexts");
    cJSON *series = cJSON_GetObjectItem(p, "series");
    cJSON *cols = cJSON_GetObjectItem(series, "columns");
    CHECK(cJSON_GetArraySize(cols) == 3 + N - 1, "json series columns %d", cJSON_GetArraySize(cols));
    cJSON *rows = cJSON_GetObjectItem(series, "samples");
    CHECK(cJSON_GetArraySize(rows) > 0, "json series samples");
    cJSON *row;
    cJSON_ArrayForEach(row, rows)
        CHECK(cJSON_GetArraySize(row) == cJSON_GetArraySize(cols), "json row width");
    CHECK(cJSON_IsArray(cJSON_GetObjectItem(cJSON_GetObjectItem(p, "config"), "masked")), "json masked list");
    cJSON_Delete(p);
    free(txt);
    cJSON_Delete(j);
    gmt_counters_destroy(c);
}

int main(void)
{
    test_json_and_names();
    test_conservation();
    test_masked();
    test_no_overflow_loss();
    test_wide_cycle_samples();
    test_series_intervals();
    test_context_switch();
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("gmt_counters: all checks passed\n");
    return 0;
}
