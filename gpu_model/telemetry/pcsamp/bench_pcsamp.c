/* bench_pcsamp [CAPTURE.glcap [--size WxH]] [--reps N]
 *
 * Benchmark (not a test; figures in DESIGN.md and docs/BENCHMARKS.md):
 *  1. model time of a frame with PC sampling at P = 1024 (round robin) against no telemetry,
 *     runs interleaved (off, on, off, on, ...), best and median of each, and their ratio
 *     (the target: <= 1.3x);
 *  2. the weighted relative error of sampled edge profiles against the exact one for
 *     B = 10, 100, 1000, 10000 (C = 16), all watching one run.
 * With a capture (taken from frame 0) the frame runs in the frame runner; without one, a
 * synthetic workload (4096 warps of a branchy fragment shader) runs in the timing model. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gmt_edges.h"
#include "gmt_pcsamp.h"
#include "tests/gmt_capture.h"
#include "tests/gmt_harness.h"

static const char *branchy_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "float f(float x) { if (x > 1.3) return x * 0.5; return sqrt(x); }\n"
    "void main() {\n"
    "  vec3 c = vec3(v, v * 0.5, 0.25);\n"
    "  int n = int(v) % 7 + 3;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    c = fract(c * 1.7 + vec3(0.13, 0.27, 0.41));\n"
    "    if (c.x > 0.5) c.y = f(c.y + 1.0);\n"
    "    switch (i % 3) { case 0: c.z += 0.1; break; case 1: c.z *= 0.9; break; default: break; }\n"
    "  }\n"
    "  o = vec4(c, float(n));\n"
    "}\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

typedef struct workload {
    /* capture */
    char *meta, *stream;
    size_t stream_size;
    int w, h;
    /* synthetic */
    gmth_shader sh;
    int synthetic;
} workload;

/* One run with the given hooks (n sets, may be 0); returns seconds, end cycle in *end. */
static double run_once(workload *wl, const gmf_hooks *hooks, int n, uint64_t *end)
{
    char err[1024];
    mux m = {0};
    for (int i = 0; i < n && i < 8; i++)
        m.h[m.n++] = hooks[i];
    if (wl->synthetic) {
        gm_timing_config tc;
        gm_timing_config_default(&tc);
        gm_timing *t = gm_timing_create(&tc, err, sizeof err);
        gmth hm = {0};
        for (int i = 0; i < m.n; i++)
            gmth_add(&hm, &m.h[i]);
        double t0 = now_s();
        if (n)
            gmth_install(&hm, t);
        else
            hm.t = t;
        gmth_draw(&hm, 1, 0, 1, 1);
        for (int chunk = 0; chunk < 16; chunk++)
            gmth_run_batch(&hm, wl->sh.p, 256, 0, 0.41f + (float)chunk);
        gmth_draw(&hm, 0, 0, 1, 1);
        double dt = now_s() - t0;
        *end = gm_timing_cycle(t);
        gm_timing_destroy(t);
        return dt;
    }
    gmf_config cfg = {.metadata_json = wl->meta, .default_width = wl->w,
                      .default_height = wl->h, .timing = GMF_TIMING_ON};
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    if (!r) {
        fprintf(stderr, "model: %s\n", err);
        exit(2);
    }
    gmf_hooks mh;
    mux_hooks(&m, &mh);
    if (n)
        gmf_set_hooks(r, &mh);
    double t0 = now_s();
    if (gmf_run_stream(r, wl->stream, wl->stream_size, NULL, NULL, err, sizeof err) == GMF_ERROR) {
        fprintf(stderr, "model: %s\n", err);
        exit(2);
    }
    double dt = now_s() - t0;
    *end = gm_timing_cycle(gmf_timing_model(r));
    gmf_destroy(r);
    return dt;
}

static int cmp_d(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    workload wl = {.w = 640, .h = 480};
    const char *path = NULL;
    int reps = 5;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &wl.w, &wl.h) != 2 || wl.w <= 0 || wl.h <= 0) {
                fprintf(stderr, "bad --size\n");
                return 2;
            }
        } else if (!strcmp(argv[i], "--reps") && i + 1 < argc) {
            reps = atoi(argv[++i]);
            if (reps < 1 || reps > 100) {
                fprintf(stderr, "bad --reps\n");
                return 2;
            }
        } else if (!path && argv[i][0] != '-') {
            path = argv[i];
        } else {
            fprintf(stderr, "usage: %s [CAPTURE.glcap [--size WxH]] [--reps N]\n", argv[0]);
            return 2;
        }
    }
    char err[1024];
    if (path) {
        if (load_capture(path, &wl.meta, &wl.stream, &wl.stream_size, err, sizeof err) != 0) {
            fprintf(stderr, "%s\n", err);
            return 2;
        }
        printf("workload: %s at %dx%d in the frame runner\n", path, wl.w, wl.h);
    } else {
        wl.synthetic = 1;
        if (gmth_shader_init(&wl.sh, GM_STAGE_FRAGMENT, branchy_src, "branchy.glsl") != 0)
            return 2;
        printf("workload: synthetic, 4096 warps of a branchy fragment shader in the timing model\n");
    }

    /* 1. PC sampling overhead */
    double *off = calloc((size_t)reps, sizeof *off), *on = calloc((size_t)reps, sizeof *on);
    uint64_t end = 0, samples = 0;
    for (int r = 0; r < reps; r++) {
        off[r] = run_once(&wl, NULL, 0, &end);
        gmt_pcsamp_config pc;
        gmt_pcsamp_default_config(&pc);
        pc.period = 1024;
        gmt_pcsamp *s = gmt_pcsamp_create(&pc, NULL, err, sizeof err);
        gmf_hooks h;
        gmt_pcsamp_hooks(s, &h);
        on[r] = run_once(&wl, &h, 1, &end);
        gmt_pcsamp_finish(s, end);
        gmt_pcsamp_stats st;
        gmt_pcsamp_get_stats(s, -1, &st);
        samples = st.samples;
        gmt_pcsamp_destroy(s);
    }
    qsort(off, (size_t)reps, sizeof *off, cmp_d);
    qsort(on, (size_t)reps, sizeof *on, cmp_d);
    printf("PC sampling P=1024 (%llu cycles, %llu samples), %d interleaved runs each:\n",
           (unsigned long long)end, (unsigned long long)samples, reps);
    printf("  off: best %.3f s, median %.3f s\n", off[0], off[reps / 2]);
    printf("  on:  best %.3f s, median %.3f s\n", on[0], on[reps / 2]);
    printf("  slowdown: %.3fx (best), %.3fx (median)  [target <= 1.3x]\n", on[0] / off[0],
           on[reps / 2] / off[reps / 2]);

    /* 2. edge-profile error against B */
    static const uint32_t Bs[] = {10, 100, 1000, 10000};
    gmt_edges *e[4];
    gmf_hooks hs[4];
    for (int i = 0; i < 4; i++) {
        gmt_edges_config ec;
        gmt_edges_default_config(&ec);
        ec.period = Bs[i];
        e[i] = gmt_edges_create(&ec, NULL, err, sizeof err);
        gmt_edges_hooks(e[i], &hs[i]);
    }
    double dt = run_once(&wl, hs, 4, &end);
    printf("edge profiles (C=16, ring 16, counter per warp slot), one run (%.2f s with 4 profilers):\n",
           dt);
    for (int i = 0; i < 4; i++) {
        gmt_edges_finish(e[i], end);
        gmt_edges_stats st;
        gmt_edges_get_stats(e[i], &st);
        double er = gmt_edges_error(e[i]);
        printf("  B=%-6u branches %llu, samples %llu, kept %llu, error ", Bs[i],
               (unsigned long long)st.branches, (unsigned long long)st.samples,
               (unsigned long long)st.kept);
        if (er >= 0)
            printf("%.2f%%\n", 100.0 * er);
        else
            printf("n/a (nothing sampled)\n");
        gmt_edges_destroy(e[i]);
    }
    free(off);
    free(on);
    if (wl.synthetic)
        gmth_shader_free(&wl.sh);
    free(wl.meta);
    free(wl.stream);
    return 0;
}
