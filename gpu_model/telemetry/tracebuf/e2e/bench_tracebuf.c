/* Benchmark of the two-pass trace run (run by hand; figures go to docs/BENCHMARKS.md):
 *
 *   bench_tracebuf CAPTURE [TYPES] [--repeat N]
 *
 * Times a plain model run of the capture's frame (timing model on, no hooks), pass 1 (counting),
 * pass 2 (recording into the exact buffers) and the finish (checks + merge), best of N (default
 * 3) each, and prints the slowdowns against the plain run with the trace buffer memory per type
 * against its record count. TYPES defaults to "flow,mem,tex". Times are process CPU seconds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmt_tb_frame.h"
#include "gmt_tracebuf.h"

/* Process CPU time: the model is single-threaded, and on a shared machine wall time mostly
 * measures the other processes. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double minf(double a, double b)
{
    return a < b ? a : b;
}

int main(int argc, char **argv)
{
    const char *cap = NULL, *types = "flow,mem,tex";
    int repeat = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!cap)
            cap = argv[i];
        else
            types = argv[i];
    }
    if (!cap || repeat < 1) {
        fprintf(stderr, "usage: bench_tracebuf CAPTURE [TYPES] [--repeat N]\n");
        return 2;
    }
    char err[1024];
    gmt_tracebuf_config cfg;
    memset(&cfg, 0, sizeof cfg);
    if (gmt_tracebuf_parse_types(types, &cfg, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    gmt_tb_frame *f = gmt_tb_frame_open(cap, err, sizeof err);
    if (!f) {
        fprintf(stderr, "%s\n", err);
        return 2;
    }
    double plain = 1e30, p1 = 1e30, p2 = 1e30, fin = 1e30;
    gmf_totals tot;
    gmt_tracebuf_stats st;
    memset(&st, 0, sizeof st);
    for (int r = 0; r < repeat; r++) {
        double t0 = now_s();
        if (gmt_tb_frame_run(f, NULL, &tot, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        plain = minf(plain, now_s() - t0);
        gmt_tracebuf *t = gmt_tracebuf_create(&cfg, err, sizeof err);
        gmf_hooks h;
        if (!t || gmt_tracebuf_hooks(t, 1, &h) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        t0 = now_s();
        int rc = gmt_tb_frame_run(f, &h, NULL, err, sizeof err);
        p1 = minf(p1, now_s() - t0);
        if (rc != 0 || gmt_tracebuf_size_buffers(t, err, sizeof err) != 0 ||
            gmt_tracebuf_hooks(t, 2, &h) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        t0 = now_s();
        rc = gmt_tb_frame_run(f, &h, NULL, err, sizeof err);
        p2 = minf(p2, now_s() - t0);
        t0 = now_s();
        if (rc != 0 || gmt_tracebuf_finish(t, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        fin = minf(fin, now_s() - t0);
        gmt_tracebuf_get_stats(t, &st);
        gmt_tracebuf_destroy(t);
    }
    gmt_tb_frame_close(f);
    printf("capture %s: %llu draws, %llu cycles; types %s; best of %d, CPU seconds\n", cap,
           (unsigned long long)tot.draws, (unsigned long long)tot.cycles, types, repeat);
    printf("plain model run   %8.3f s\n", plain);
    printf("pass 1 (count)    %8.3f s  %5.2fx\n", p1, p1 / plain);
    printf("pass 2 (record)   %8.3f s  %5.2fx\n", p2, p2 / plain);
    printf("finish (merge)    %8.3f s\n", fin);
    printf("two-pass total    %8.3f s  %5.2fx the plain run\n", p1 + p2 + fin, (p1 + p2 + fin) / plain);
    printf("%llu block executions in %llu warps\n", (unsigned long long)st.block_executions,
           (unsigned long long)st.warps);
    printf("type      records   bytes/rec        bytes\n");
    for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
        printf("%-5s %11llu %11zu %12llu\n", gmt_tb_type_name((gmt_tb_type)k),
               (unsigned long long)st.records[k], gmt_tb_record_size((gmt_tb_type)k),
               (unsigned long long)st.bytes[k]);
    printf("total %11llu %11s %12llu (%.1f MiB, exact: no slack)\n",
           (unsigned long long)st.total_records, "", (unsigned long long)st.total_bytes,
           (double)st.total_bytes / (1024.0 * 1024.0));
    return 0;
}
