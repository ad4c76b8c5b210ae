/* Benchmark: GPU model run time of one capture with the counters' hooks on vs off.
 *
 *   bench_counters F.glcap [RUNS]      (RUNS interleaved pairs, default 5)
 *
 * Each run creates a frame runner (timing model on), runs the whole command stream and
 * destroys it; "on" installs every counter hook (gmt_counters_hooks) and finishes the counters.
 * Runs alternate off/on so machine load affects both alike; times are the thread's CPU time
 * (the model is single-threaded). Prints each run, the best and the median of each side and
 * their ratio (target <= 1.15x, see DESIGN.md). Not a test:
 * timings are never asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmt_capture.h"
#include "gmt_counters.h"

/* CPU time of this (single-threaded) run: the 2 shared cores of the build machine make wall
 * time swing with other jobs; the model is one thread, so its CPU time is what it costs. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One run; returns seconds, or -1. */
static double run_once(const struct gmt_capture *cap, bool counters, uint64_t *instructions)
{
    char err[512];
    double t0 = now_s();
    gmt_counters *c = NULL;
    gmf_hooks h;
    if (counters) {
        gmt_counters_config cc;
        gmt_counters_default_config(&cc);
        c = gmt_counters_create(&cc, NULL, err, sizeof err);
        if (!c) {
            fprintf(stderr, "bench_counters: %s\n", err);
            return -1;
        }
        memset(&h, 0, sizeof h);
        gmt_counters_hooks(c, &h);
    }
    gmf_runner *m = gmt_capture_runner(cap, counters ? &h : NULL, err, sizeof err);
    if (!m) {
        fprintf(stderr, "bench_counters: %s\n", err);
        gmt_counters_destroy(c);
        return -1;
    }
    if (gmf_run_stream(m, cap->stream, cap->stream_size, NULL, NULL, err, sizeof err) == GMF_ERROR) {
        fprintf(stderr, "bench_counters: %s\n", err);
        gmf_destroy(m);
        gmt_counters_destroy(c);
        return -1;
    }
    gm_timing_stats ts;
    gm_timing_total_stats(gmf_timing_model(m), &ts);
    *instructions = ts.instructions;
    if (c)
        gmt_counters_finish(c, gm_timing_cycle(gmf_timing_model(m)));
    gmf_destroy(m);
    double t = now_s() - t0;
    if (c && gmt_counters_global(c)->values[GMT_C_INST_ISSUED] != ts.instructions)
        fprintf(stderr, "bench_counters: warning: counters disagree with the timing model\n");
    gmt_counters_destroy(c);
    return t;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: bench_counters F.glcap [RUNS]\n");
        return 2;
    }
    int runs = argc == 3 ? atoi(argv[2]) : 5;
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "bench_counters: RUNS must be 1..1000\n");
        return 2;
    }
    char err[512];
    struct gmt_capture cap;
    if (gmt_capture_load(argv[1], &cap, err, sizeof err) != 0) {
        fprintf(stderr, "bench_counters: %s\n", err);
        return 2;
    }
    double *off = calloc((size_t)runs, sizeof *off), *on = calloc((size_t)runs, sizeof *on);
    uint64_t instr = 0;
    int rc = 0;
    for (int i = 0; i < runs && rc == 0; i++) {
        off[i] = run_once(&cap, false, &instr);
        on[i] = run_once(&cap, true, &instr);
        if (off[i] < 0 || on[i] < 0)
            rc = 1;
        else
            printf("run %d: off %.4f s, on %.4f s, ratio %.3f\n", i + 1, off[i], on[i], on[i] / off[i]);
    }
    if (rc == 0) {
        qsort(off, (size_t)runs, sizeof *off, cmp_double);
        qsort(on, (size_t)runs, sizeof *on, cmp_double);
        double mo = off[runs / 2], mn = on[runs / 2];
        printf("%s: %llu warp instructions; best off %.4f s, on %.4f s: ratio %.3fx; "
               "median off %.4f s, on %.4f s: ratio %.3fx (target <= 1.15x)\n",
               argv[1], (unsigned long long)instr, off[0], on[0], on[0] / off[0], mo, mn, mn / mo);
    }
    free(off);
    free(on);
    gmt_capture_free(&cap);
    return rc;
}
