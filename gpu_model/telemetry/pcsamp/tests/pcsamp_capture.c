/* gmt_pcsamp_capture CAPTURE.glcap [--size WxH] [--out DIR] [--max-error X]
 *
 * End-to-end check of PC sampling and edge profiles on a real capture (taken from frame 0, so
 * it needs no initial-state snapshot): runs the frame in the GPU model's frame runner with the
 * telemetry hooks of several samplers multiplexed (as the profile spine does) and checks:
 *   - PC sampling (P = 256, round robin): per SM, points = floor(end/P) - floor(first/P) of the
 *     cycles an independent observer saw, total = samples + dropped, lines sum to samples;
 *   - edges, exact: flow conservation per block, ENTRY = EXIT = warps;
 *   - edges, B = C = 1: sampled profile identical to the exact one (error 0);
 *   - edges, B = 1000: prints the weighted relative error; fails above --max-error.
 * With --out it writes the hotspot table, annotated source, JSON and DOT there.
 * Exit 0 pass, 1 a check failed, 2 bad input. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_capture.h"
#include "gmt_edges.h"
#include "gmt_pcsamp.h"

#define P_CHECK 256u

static int failures;
#define EXPECT(cond, ...)                                                                   \
    do {                                                                                    \
        if (!(cond)) {                                                                      \
            fprintf(stderr, "FAIL: " __VA_ARGS__);                                          \
            fputc('\n', stderr);                                                            \
            failures++;                                                                     \
        }                                                                                   \
    } while (0)

/* Independent count of the cycles the model simulated. */
typedef struct seen {
    int any;
    uint64_t first, end, calls;
} seen;
static void seen_cycle(void *c, uint64_t cy, int sm, const gm_timing_slot_sample *s, int n)
{
    (void)sm;
    (void)s;
    (void)n;
    seen *x = c;
    if (!x->any) {
        x->any = 1;
        x->first = cy;
    }
    x->end = cy + 1;
    x->calls++;
}

static void check_conservation(const gmt_edges *e, const char *what)
{
    gmt_edges_stats st;
    gmt_edges_get_stats(e, &st);
    uint64_t entries = 0, exits = 0;
    for (int i = 0; i < gmt_edges_program_count(e); i++) {
        gmt_edges_program p;
        gmt_edges_get_program(e, i, &p);
        int64_t *bal = calloc((size_t)p.block_count + 1, sizeof *bal);
        for (int k = 0; k < p.edge_count; k++) {
            const gmt_edge *x = &p.edges[k];
            if (x->from >= 0)
                bal[x->from] -= (int64_t)x->exact;
            else
                entries += x->exact;
            if (x->to >= 0)
                bal[x->to] += (int64_t)x->exact;
            else
                exits += x->exact;
        }
        for (int b = 0; b < p.block_count; b++)
            EXPECT(bal[b] == 0, "%s: program %u stage %d block %d: in - out = %lld", what,
                   p.program, (int)p.stage, b, (long long)bal[b]);
        free(bal);
    }
    EXPECT(entries == st.warps && exits == st.warps, "%s: entry %llu exit %llu warps %llu", what,
           (unsigned long long)entries, (unsigned long long)exits, (unsigned long long)st.warps);
}

static FILE *open_out(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
    return f;
}

int main(int argc, char **argv)
{
    const char *path = NULL, *out = NULL;
    int w = 160, h = 90;
    double max_error = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
                fprintf(stderr, "bad --size %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--out") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "--max-error") && i + 1 < argc) {
            max_error = atof(argv[++i]);
        } else if (!path && argv[i][0] != '-') {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: %s CAPTURE.glcap [--size WxH] [--out DIR] [--max-error X]\n",
                    argv[0]);
            return 2;
        }
    }
    if (!path) {
        fprintf(stderr, "no capture given\n");
        return 2;
    }
    char err[1024];
    size_t stream_size;
    char *meta, *stream;
    if (load_capture(path, &meta, &stream, &stream_size, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    gmf_config cfg = {.metadata_json = meta, .default_width = w, .default_height = h,
                      .timing = GMF_TIMING_ON};
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    if (!r) {
        fprintf(stderr, "model: %s\n", err);
        return 2;
    }
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    gmt_pcsamp_config pc;
    gmt_pcsamp_default_config(&pc);
    pc.period = P_CHECK;
    gmt_pcsamp *ps = gmt_pcsamp_create(&pc, &tc, err, sizeof err);
    gmt_edges_config ec;
    gmt_edges_default_config(&ec);
    ec.period = 0;
    gmt_edges *exact = gmt_edges_create(&ec, &tc, err, sizeof err);
    ec.period = 1;
    ec.keep = 1;
    gmt_edges *every = gmt_edges_create(&ec, &tc, err, sizeof err);
    ec.period = 1000;
    ec.keep = 16;
    gmt_edges *b1000 = gmt_edges_create(&ec, &tc, err, sizeof err);
    ec.counter = GMT_EDGES_COUNT_PER_SM;
    gmt_edges *b1000sm = gmt_edges_create(&ec, &tc, err, sizeof err);
    if (!ps || !exact || !every || !b1000 || !b1000sm) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    seen sn = {0};
    mux m = {0};
    gmt_pcsamp_hooks(ps, &m.h[m.n++]);
    gmt_edges_hooks(exact, &m.h[m.n++]);
    gmt_edges_hooks(every, &m.h[m.n++]);
    gmt_edges_hooks(b1000, &m.h[m.n++]);
    gmt_edges_hooks(b1000sm, &m.h[m.n++]);
    m.h[m.n++] = (gmf_hooks){.ctx = &sn, .cycle = seen_cycle};
    gmf_hooks mh;
    mux_hooks(&m, &mh);
    gmf_set_hooks(r, &mh);
    if (gmf_run_stream(r, stream, stream_size, NULL, NULL, err, sizeof err) == GMF_ERROR) {
        fprintf(stderr, "model: %s\n", err);
        return 2;
    }
    gmf_totals tt;
    gmf_get_totals(r, &tt);
    uint64_t end = gm_timing_cycle(gmf_timing_model(r));
    gmt_pcsamp_finish(ps, end);
    gmt_edges_finish(exact, end);
    gmt_edges_finish(every, end);
    gmt_edges_finish(b1000, end);
    gmt_edges_finish(b1000sm, end);
    printf("%s: %llu draws, %llu cycles simulated (%llu..%llu)\n", path,
           (unsigned long long)tt.draws, (unsigned long long)(sn.end - sn.first),
           (unsigned long long)sn.first, (unsigned long long)sn.end);
    EXPECT(tt.draws > 0, "the capture ran no draw");

    /* PC sampling accounting */
    gmt_pcsamp_stats all;
    gmt_pcsamp_get_stats(ps, -1, &all);
    EXPECT(all.first_cycle == sn.first && all.end_cycle == sn.end, "cycles seen differ");
    EXPECT(sn.calls == (sn.end - sn.first) * (uint64_t)tc.sm_count,
           "cycle hook calls %llu != cycles x SMs (cycles not contiguous?)",
           (unsigned long long)sn.calls);
    uint64_t expect = sn.end / P_CHECK - sn.first / P_CHECK;
    for (int sm = 0; sm < tc.sm_count; sm++) {
        gmt_pcsamp_stats st;
        gmt_pcsamp_get_stats(ps, sm, &st);
        EXPECT(st.points == expect, "sm %d: %llu points, expected %llu", sm,
               (unsigned long long)st.points, (unsigned long long)expect);
        EXPECT(st.total == st.points && st.total == st.samples + st.dropped,
               "sm %d: total %llu samples %llu dropped %llu", sm, (unsigned long long)st.total,
               (unsigned long long)st.samples, (unsigned long long)st.dropped);
    }
    size_t nl;
    const gmt_pcsamp_line *lines = gmt_pcsamp_lines(ps, &nl);
    uint64_t sum = 0;
    for (size_t i = 0; i < nl; i++)
        sum += lines[i].samples;
    EXPECT(sum == all.samples, "lines sum %llu != samples %llu", (unsigned long long)sum,
           (unsigned long long)all.samples);
    EXPECT(all.samples > 0, "no PC sample");
    printf("PC sampling P=%u: %llu samples, %llu dropped (%llu idle), %zu lines\n", P_CHECK,
           (unsigned long long)all.samples, (unsigned long long)all.dropped,
           (unsigned long long)all.dropped_idle, nl);

    /* edges */
    check_conservation(exact, "exact");
    check_conservation(every, "B=1");
    gmt_edges_stats es, e1, e1000;
    gmt_edges_get_stats(exact, &es);
    gmt_edges_get_stats(every, &e1);
    gmt_edges_get_stats(b1000, &e1000);
    EXPECT(es.warps > 0 && es.branches > 0, "no warp or branch");
    gm_timing_stats ts;
    gm_timing_total_stats(gmf_timing_model(r), &ts);
    EXPECT(es.warps == ts.warps_retired, "edges saw %llu warps, the model retired %llu",
           (unsigned long long)es.warps, (unsigned long long)ts.warps_retired);
    EXPECT(e1.rebuild_failed == 0 && e1000.rebuild_failed == 0, "rebuilds failed: %llu, %llu",
           (unsigned long long)e1.rebuild_failed, (unsigned long long)e1000.rebuild_failed);
    double err1 = gmt_edges_error(every), err1000 = gmt_edges_error(b1000);
    EXPECT(err1 == 0.0, "B=C=1 sampled profile differs from the exact one (error %g)", err1);
    printf("edges: %llu warps, %llu branches (%llu taken), %d programs; B=1000 C=16: %llu samples, "
           "%llu kept, weighted relative error %.2f%%\n",
           (unsigned long long)es.warps, (unsigned long long)es.branches,
           (unsigned long long)e1000.taken, gmt_edges_program_count(exact),
           (unsigned long long)e1000.samples, (unsigned long long)e1000.kept, 100.0 * err1000);
    gmt_edges_stats esm;
    gmt_edges_get_stats(b1000sm, &esm);
    double errsm = gmt_edges_error(b1000sm);
    printf("edges: B=1000 C=16 counter per SM: %llu samples, %llu kept, error %.2f%%\n",
           (unsigned long long)esm.samples, (unsigned long long)esm.kept, 100.0 * errsm);
    EXPECT(esm.rebuild_failed == 0, "per-SM rebuilds failed");
    if (max_error >= 0)
        EXPECT(err1000 >= 0 && err1000 <= max_error, "B=1000 error %.4f above the bound %.4f",
               err1000, max_error);

    if (out) {
        FILE *f;
        if ((f = open_out(out, "hotspots.txt"))) {
            gmt_pcsamp_write_hotspots(ps, f, 20);
            fclose(f);
        }
        if ((f = open_out(out, "annotated.txt"))) {
            gmt_pcsamp_write_annotated(ps, f, source_of, r);
            fclose(f);
        }
        if ((f = open_out(out, "edges.dot"))) {
            gmt_edges_write_dot(b1000, f, source_of, r);
            fclose(f);
        }
        if ((f = open_out(out, "edges.txt"))) {
            gmt_edges_write_report(b1000, f, 8);
            fclose(f);
        }
        cJSON *j = cJSON_CreateObject();
        cJSON_AddItemToObject(j, "pcsamp", gmt_pcsamp_to_json(ps));
        cJSON_AddItemToObject(j, "edges", gmt_edges_to_json(b1000));
        char *txt = cJSON_Print(j);
        if (txt && (f = open_out(out, "profile.json"))) {
            fputs(txt, f);
            fclose(f);
        }
        free(txt);
        cJSON_Delete(j);
    }
    gmf_set_hooks(r, NULL);
    gmt_pcsamp_destroy(ps);
    gmt_edges_destroy(exact);
    gmt_edges_destroy(every);
    gmt_edges_destroy(b1000);
    gmt_edges_destroy(b1000sm);
    gmf_destroy(r);
    free(meta);
    free(stream);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
