/* End-to-end check of the counters on a real capture run through the frame runner:
 *
 *   gmt_e2e_counters F.glcap
 *
 * Run 1 (default configuration): every per-context block sums to the global channel; the
 * counters agree with the timing model's own statistics (instructions, lane instructions,
 * warp-cycles per stall state, texture requests/hits/misses, memory requests) and the frame
 * runner's totals (fragments shaded); there is a block per context that drew.
 * Run 2 (K = 3, T = 97): the same global values (the hierarchy's parameters change when counts
 * move, never what is counted). Run 3 (some counters masked): masked counters are zero
 * everywhere, the others equal run 1. Prints the figures; exit 0 pass, 1 fail, 2 bad input,
 * 77 (skipped) when the capture holds no draw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_capture.h"
#include "gmt_counters.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

struct run {
    gmt_counters *c;
    gm_timing_stats ts;
    gmf_totals totals;
    uint32_t drew_ctx[64];
    int n_drew;
};

static void on_event(void *user, const gmf_event *ev)
{
    struct run *r = user;
    if (ev->kind != GMF_EV_DRAW || ev->stats.instructions == 0)
        return;
    for (int i = 0; i < r->n_drew; i++)
        if (r->drew_ctx[i] == ev->ctx_id)
            return;
    if (r->n_drew < 64)
        r->drew_ctx[r->n_drew++] = ev->ctx_id;
}

static int run_capture(const struct gmt_capture *cap, const gmt_counters_config *cc, struct run *out)
{
    char err[512];
    memset(out, 0, sizeof *out);
    gmf_runner *m = gmt_capture_runner(cap, NULL, err, sizeof err);
    if (!m) {
        printf("FAIL: model: %s\n", err);
        return -1;
    }
    gm_timing *tm = gmf_timing_model(m);
    if (!tm) {
        printf("FAIL: the runner has no timing model\n");
        gmf_destroy(m);
        return -1;
    }
    /* The runner's timing model uses the default configuration (4 SMs). */
    out->c = gmt_counters_create(cc, NULL, err, sizeof err);
    if (!out->c) {
        printf("FAIL: %s\n", err);
        gmf_destroy(m);
        return -1;
    }
    gmf_hooks h;
    memset(&h, 0, sizeof h);
    gmt_counters_hooks(out->c, &h);
    gmf_set_hooks(m, &h);
    gmf_status st = gmf_run_stream(m, cap->stream, cap->stream_size, on_event, out, err, sizeof err);
    if (st == GMF_ERROR) {
        printf("FAIL: model: %s\n", err);
        gmf_destroy(m);
        return -1;
    }
    gmt_counters_finish(out->c, gm_timing_cycle(tm));
    gm_timing_total_stats(tm, &out->ts);
    gmf_get_totals(m, &out->totals);
    gmf_destroy(m);
    return 0;
}

static void check_sums(const gmt_counters *c, const char *what)
{
    const gmt_counters_block *g = gmt_counters_global(c);
    uint64_t recs = 0;
    for (int id = 0; id < GMT_COUNTER_COUNT; id++) {
        uint64_t s = 0;
        for (int i = 0; i < gmt_counters_context_count(c); i++)
            s += gmt_counters_context(c, i)->values[id];
        CHECK(s == g->values[id], "%s: contexts sum %llu != global %llu for %s", what,
              (unsigned long long)s, (unsigned long long)g->values[id], gmt_counter_name(id));
    }
    for (int i = 0; i < gmt_counters_context_count(c); i++)
        recs += gmt_counters_context(c, i)->records;
    CHECK(recs == g->records, "%s: context records %llu != global %llu", what,
          (unsigned long long)recs, (unsigned long long)g->records);
}

static void expect(const gmt_counters_block *g, gmt_counter_id id, uint64_t want, const char *source)
{
    printf("  %-24s %14llu   %s %llu\n", gmt_counter_name(id), (unsigned long long)g->values[id],
           source, (unsigned long long)want);
    CHECK(g->values[id] == want, "%s = %llu but %s = %llu", gmt_counter_name(id),
          (unsigned long long)g->values[id], source, (unsigned long long)want);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: gmt_e2e_counters F.glcap\n");
        return 2;
    }
    char err[512];
    struct gmt_capture cap;
    if (gmt_capture_load(argv[1], &cap, err, sizeof err) != 0) {
        fprintf(stderr, "gmt_e2e_counters: %s\n", err);
        return 2;
    }
    gmt_counters_config cc;
    gmt_counters_default_config(&cc);
    struct run r1, r2, r3;
    if (run_capture(&cap, &cc, &r1) != 0) {
        gmt_capture_free(&cap);
        return 1;
    }
    if (r1.totals.draws == 0) {
        printf("SKIP: the capture holds no draw\n");
        gmt_counters_destroy(r1.c);
        gmt_capture_free(&cap);
        return 77;
    }
    const gmt_counters_block *g = gmt_counters_global(r1.c);
    gmt_counters_stats st;
    gmt_counters_get_stats(r1.c, &st);
    printf("run 1 (K=%u, T=%u): %llu draws, %llu cycles, %llu serializations, %llu swaps, %llu records, "
           "%d context block(s), %zu series samples\n", cc.serialize_interval, cc.trigger_interval,
           (unsigned long long)r1.totals.draws, (unsigned long long)st.cycles,
           (unsigned long long)st.serializations, (unsigned long long)st.swaps,
           (unsigned long long)st.records, gmt_counters_context_count(r1.c),
           gmt_counters_series_count(r1.c));
    CHECK(r1.ts.instructions > 0, "the capture issued no instruction");
    check_sums(r1.c, "run 1");
    expect(g, GMT_C_INST_ISSUED, r1.ts.instructions, "timing instructions");
    expect(g, GMT_C_ACTIVE_LANES, r1.ts.lane_instructions, "timing lane_instructions");
    uint64_t warp_cycles = 0;
    for (int s = 0; s < GM_STALL_COUNT; s++) {
        expect(g, gmt_counter_of_stall((gm_stall)s), r1.ts.stall[s], "timing stall");
        warp_cycles += r1.ts.stall[s];
    }
    expect(g, GMT_C_WARPS_RESIDENT, warp_cycles, "timing warp-cycles");
    expect(g, GMT_C_TEX_REQUESTS, r1.ts.tex_requests, "timing tex_requests");
    expect(g, GMT_C_TEX_HITS, r1.ts.tex_hits, "timing tex_hits");
    expect(g, GMT_C_TEX_MISSES, r1.ts.tex_misses, "timing tex_misses");
    expect(g, GMT_C_MEM_REQUESTS, r1.ts.mem_requests, "timing mem_requests");
    expect(g, GMT_C_FRAGMENTS_SHADED, r1.totals.fs_lanes, "frame fs_lanes");
    for (int id = GMT_C_FIRST_UNIT; id < GMT_COUNTER_COUNT; id++)
        if (id != GMT_C_FRAGMENTS_SHADED)
            printf("  %-24s %14llu\n", gmt_counter_name(id), (unsigned long long)g->values[id]);
    for (int i = 0; i < r1.n_drew; i++) {
        const gmt_counters_block *b = gmt_counters_context_by_id(r1.c, r1.drew_ctx[i]);
        CHECK(b && b->values[GMT_C_INST_ISSUED] > 0, "context %u drew but its block has no instructions",
              r1.drew_ctx[i]);
    }
    for (int i = 0; i < gmt_counters_context_count(r1.c); i++) {
        const gmt_counters_block *b = gmt_counters_context(r1.c, i);
        printf("  context %u: %llu records, %llu instructions, %llu fragments\n", b->ctx_id,
               (unsigned long long)b->records, (unsigned long long)b->values[GMT_C_INST_ISSUED],
               (unsigned long long)b->values[GMT_C_FRAGMENTS_SHADED]);
    }

    gmt_counters_config c2 = cc;
    c2.serialize_interval = 3;
    c2.trigger_interval = 97;
    if (run_capture(&cap, &c2, &r2) == 0) {
        check_sums(r2.c, "run 2");
        const gmt_counters_block *g2 = gmt_counters_global(r2.c);
        for (int id = 0; id < GMT_COUNTER_COUNT; id++)
            CHECK(g2->values[id] == g->values[id], "K=3 T=97: %s = %llu, default config %llu",
                  gmt_counter_name(id), (unsigned long long)g2->values[id], (unsigned long long)g->values[id]);
        gmt_counters_get_stats(r2.c, &st);
        printf("run 2 (K=3, T=97): %llu swaps, %llu records: global values identical\n",
               (unsigned long long)st.swaps, (unsigned long long)st.records);
        gmt_counters_destroy(r2.c);
    } else {
        failures++;
    }

    gmt_counters_config c3 = cc;
    c3.mask = 1ull << GMT_C_INST_ISSUED | 1ull << GMT_C_TEX_HITS | 1ull << GMT_C_FRAGMENTS_SHADED |
              1ull << GMT_C_STALL_SELECTED | 1ull << GMT_C_WARPS_RESIDENT;
    if (run_capture(&cap, &c3, &r3) == 0) {
        check_sums(r3.c, "run 3");
        const gmt_counters_block *g3 = gmt_counters_global(r3.c);
        for (int id = 0; id < GMT_COUNTER_COUNT; id++) {
            bool m = (c3.mask >> id) & 1;
            CHECK(g3->values[id] == (m ? 0 : g->values[id]), "masked run: %s = %llu (masked %d, unmasked run %llu)",
                  gmt_counter_name(id), (unsigned long long)g3->values[id], m,
                  (unsigned long long)g->values[id]);
            for (int i = 0; m && i < gmt_counters_context_count(r3.c); i++)
                CHECK(gmt_counters_context(r3.c, i)->values[id] == 0, "masked %s counted in a context",
                      gmt_counter_name(id));
        }
        printf("run 3 (5 counters masked): masked counters zero, the others identical\n");
        gmt_counters_destroy(r3.c);
    } else {
        failures++;
    }
    gmt_counters_destroy(r1.c);
    gmt_capture_free(&cap);
    printf("%s\n", failures ? "FAIL" : "PASS");
    return failures ? 1 : 0;
}
