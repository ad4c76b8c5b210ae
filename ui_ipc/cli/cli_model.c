/* `glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark]`
 *
 * Runs every draw and clear of a capture in the GPU model (gpu_model/frame). With --compare the
 * same frame is replayed on the driver (EGL surfaceless, through the replay dispatcher) in lock
 * step: after every draw and clear, each render target of the bound draw framebuffer is read
 * from both and compared (colour: a pixel agrees when every channel is within +-1/255; depth: within
 * 1/65536, desktop GL only), and at every swap the default framebuffer; after every compute
 * dispatch, instead, every bound shader storage buffer ("ctxN/ssboB": share of 32-bit words equal, or
 * as floats within 1e-5 relative, model's state-model contents vs glGetNamedBufferSubData),
 * atomic counter buffer ("ctxN/atomicB") and texture bound to an image unit for writing
 * ("ctxN/imageU"), storage buffers left out for a program that reads the shader clock (the
 * engine: compare/). --png DIR writes the
 * model's image after each draw/clear and, where they differ, the driver's and a diff image.
 * --benchmark times the model and the driver on the same frames (per frame, swap to swap).
 * --trace-hash observes every issued warp instruction (draw, stage, warp, pc, line, active mask)
 * and prints their count and a hash of the sequence: equal hashes mean the same warps ran in the
 * same order (the determinism check); it also reads a variable at a sample of instructions.
 * Warps run through the timing model (gpu_model/timing), which gives each draw a cycle count
 * (text: "N cycles", JSON: "cycles", "vs_cycles", "gs_cycles", "fs_cycles", "tess_cycles" with tessellation,
 * "instructions"); --no-timing
 * runs them to completion in the executor alone (faster, no cycle counts, same images).
 *
 * Every swap's model image is also compared with the capture's reference image of it (what the
 * program's own driver showed), and so are the reference images of the framebuffer object bound
 * for drawing at a swap: a replay that lost the program's data on both sides cannot pass.
 *
 * The engine (the driver side, the comparisons, the verdict) is compare/model_compare.h; this file
 * parses the arguments, sets the run up and prints what the engine finds.
 *
 * Exit status: 0 ran (with --compare: every comparison >= 99.9%, every reference compared, no
 * draw or dispatch failed or met an unsupported feature, the driver side replayed every record);
 * 1 --compare failed (the reasons are printed, and in JSON "fail_reasons"); 2 bad usage or the
 * capture/driver could not be used. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_model.h"
#include "cli_opts.h"
#include "cli_stop.h"
#include "compare/model_compare.h"
#include "capture/glcap_file.h"
#include "debugger/snapshot_contents.h"
#include "replay/player/crash_guard.h"
#include "replay/player/player.h"
#include "replay/replay.h"

#define USAGE "usage: glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark] [--trace-hash] [--no-timing] [--threads N] [--timeout S]"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void print_line(void *user, const char *line)
{
    (void)user;
    printf("%s\n", line);
}

static void print_warning(void *user, const char *message)
{
    (void)user;
    cli_error("warning: %s", message);
}

static void print_event(const struct mcmp_run *r, const gmf_event *ev, const char *cmp_text)
{
    char cyc[48] = "";
    if (r->timing)
        snprintf(cyc, sizeof cyc, ", %llu cycles", (unsigned long long)ev->stats.cycles);
    if (ev->kind == GMF_EV_DRAW && ev->draws > 1)   /* the draws inside a glCallList(s) */
        printf("draws %llu-%llu (record %llu, %s, program %u, fbo %u): %llu fragments%s%s%s",
               (unsigned long long)ev->draw, (unsigned long long)(ev->draw + ev->draws - 1),
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, ev->fbo,
               (unsigned long long)ev->stats.fs_lanes, cyc, ev->failed ? " FAILED" : "", cmp_text);
    else if (ev->kind == GMF_EV_DRAW)
        printf("draw %llu (record %llu, %s, program %u, fbo %u): %llu fragments%s%s%s", (unsigned long long)ev->draw,
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, ev->fbo,
               (unsigned long long)ev->stats.fs_lanes, cyc, ev->failed ? " FAILED" : "", cmp_text);
    else if (ev->kind == GMF_EV_CLEAR)
        printf("clear %llu (record %llu, %s, fbo %u)%s", (unsigned long long)ev->draw, (unsigned long long)ev->record,
               glr_call_name(ev->cmd), ev->fbo, cmp_text);
    else if (ev->kind == GMF_EV_DISPATCH)
        printf("dispatch %llu (record %llu, %s, program %u)%s%s%s", (unsigned long long)ev->draw,
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, cyc,
               ev->failed ? " FAILED" : "", cmp_text);
    else
        printf("record %llu (%s)", (unsigned long long)ev->record, glr_call_name(ev->cmd));
    for (int i = 0; i < ev->n_unsupported && i < GMF_MAX_NOTES; i++)
        printf("%s unsupported: %s", i ? ";" : "", ev->unsupported[i]);
    printf("\n");
}

static void progress(struct mcmp_run *r, uint64_t record, bool done)
{
    if (done) {
        fprintf(stderr, "\r\033[K");
        return;
    }
    gmf_totals tt;
    gmf_get_totals(r->m, &tt);
    uint64_t draws = tt.draws;
    double t = now_s();
    if (t - r->last_progress < 0.25)
        return;
    r->last_progress = t;
    fprintf(stderr, "\rglreplay: model: record %llu/%llu, %llu draws ", (unsigned long long)record,
            (unsigned long long)r->cap->n_records, (unsigned long long)draws);
}

static void report(struct mcmp_run *r, double wall)
{
    gmf_totals t;
    gmf_get_totals(r->m, &t);
    const char *names[64];
    uint64_t counts[64];
    int nu = gmf_unsupported_list(r->m, names, counts, 64);
    char why[1024];
    mcmp_fail_reasons(r, &t, nu, why, sizeof why);
    bool pass = !why[0];
    r->passed = pass;
    if (r->json) {
        cJSON *tot = cJSON_AddObjectToObject(r->root, "totals");
        cJSON_AddNumberToObject(tot, "records", (double)t.records);
        cJSON_AddNumberToObject(tot, "draws", (double)t.draws);
        cJSON_AddNumberToObject(tot, "clears", (double)t.clears);
        cJSON_AddNumberToObject(tot, "swaps", (double)t.swaps);
        cJSON_AddNumberToObject(tot, "draws_with_unsupported", (double)t.draws_with_unsupported);
        cJSON_AddNumberToObject(tot, "draws_failed", (double)t.draws_failed);
        cJSON_AddNumberToObject(tot, "vs_invocations", (double)t.vs_invocations);
        cJSON_AddNumberToObject(tot, "fs_warps", (double)t.fs_warps);
        cJSON_AddNumberToObject(tot, "fs_lanes", (double)t.fs_lanes);
        cJSON_AddNumberToObject(tot, "model_seconds", t.model_seconds);
        cJSON_AddBoolToObject(tot, "timing", t.timing);
        if (t.timing)
            cJSON_AddNumberToObject(tot, "cycles", (double)t.cycles);
        cJSON_AddNumberToObject(tot, "wall_seconds", wall);
        cJSON *u = cJSON_AddArrayToObject(r->root, "unsupported");
        for (int i = 0; i < nu && i < 64; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "feature", names[i]);
            cJSON_AddNumberToObject(o, "count", (double)counts[i]);
            cJSON_AddItemToArray(u, o);
        }
        cJSON *tl = cJSON_AddArrayToObject(r->root, "targets");
        for (size_t i = 0; i < r->n_targets; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "target", r->targets[i].name);
            cJSON_AddNumberToObject(o, "comparisons", (double)r->targets[i].compared);
            cJSON_AddNumberToObject(o, "min_agreement", r->targets[i].min_agreement);
            cJSON_AddNumberToObject(o, "final_agreement", r->targets[i].last_agreement);
            cJSON_AddItemToArray(tl, o);
        }
        if (r->trace) {
            char hx[32];
            snprintf(hx, sizeof hx, "%016llx", (unsigned long long)r->trace_hash);
            cJSON *tr = cJSON_AddObjectToObject(r->root, "trace");
            cJSON_AddNumberToObject(tr, "instructions", (double)r->trace_count);
            cJSON_AddStringToObject(tr, "hash", hx);
            cJSON_AddNumberToObject(tr, "variable_reads", (double)r->trace_reads);
        }
        if (r->compare) {
            cJSON_AddNumberToObject(r->root, "comparisons", (double)r->comparisons);
            cJSON_AddNumberToObject(r->root, "failing_comparisons", (double)r->failing);
            cJSON_AddStringToObject(r->root, "result", pass ? "pass" : "fail");
            cJSON_AddStringToObject(r->root, "fail_reasons", why);
            cJSON_AddNumberToObject(r->root, "driver_skipped_records", (double)mcmp_driver_skipped(r));
            cJSON_AddNumberToObject(r->root, "loops_limited", (double)t.loops_limited);
            cJSON_AddNumberToObject(r->root, "references_not_compared", (double)r->uncompared);
        }
        char *s = cJSON_PrintUnformatted(r->root);
        if (s)
            printf("%s\n", s);
        free(s);
        return;
    }
    printf("model: %llu draws (%llu with unsupported features, %llu failed), %llu clears, %llu swaps; "
           "%llu vertices shaded, %llu fragment warps, %llu fragments; %.3f s in the model\n",
           (unsigned long long)t.draws, (unsigned long long)t.draws_with_unsupported,
           (unsigned long long)t.draws_failed, (unsigned long long)t.clears, (unsigned long long)t.swaps,
           (unsigned long long)t.vs_invocations, (unsigned long long)t.fs_warps,
           (unsigned long long)t.fs_lanes, t.model_seconds);
    if (t.timing)
        printf("timing: %llu cycles over the draws (timing model: 4 SMs x 16 warp slots)\n",
               (unsigned long long)t.cycles);
    if (t.loops_limited)
        printf("loops: %llu shader loops ended at 65535 iterations (llvmpipe's loop limit; the driver "
               "ends them there too)\n", (unsigned long long)t.loops_limited);
    for (int i = 0; i < nu && i < 64; i++)
        printf("unsupported: %s (%llu times)\n", names[i], (unsigned long long)counts[i]);
    for (size_t i = 0; i < r->n_targets; i++)
        printf("target %s: %llu comparisons, lowest %.4f%% (record %llu), final %.4f%%\n", r->targets[i].name,
               (unsigned long long)r->targets[i].compared, 100.0 * r->targets[i].min_agreement,
               (unsigned long long)r->targets[i].min_record, 100.0 * r->targets[i].last_agreement);
    if (r->trace)
        printf("trace: %llu warp instructions observed, hash %016llx, %llu variable reads\n",
               (unsigned long long)r->trace_count, (unsigned long long)r->trace_hash,
               (unsigned long long)r->trace_reads);
    if (r->compare) {
        if (pass)
            printf("compare: PASS: %llu comparisons, all at or above %.1f%%\n", (unsigned long long)r->comparisons,
                   100.0 * MCMP_PASS_FRACTION);
        else
            printf("compare: FAIL: %s\n", why);
    }
}

/* --threads N: 1..GMF_THR_MAX (gmf_threads.h's limit, repeated here: the CLI sees only
 * gmf_frame.h) */
static bool parse_threads(const char *arg, void *dest)
{
    char *end;
    long v = strtol(arg, &end, 10);
    if (!*arg || *end || v < 1 || v > 64)
        return false;
    *(int *)dest = (int)v;
    return true;
}

static void print_benchmark(struct mcmp_run *r)
{
    if (!r->json) {
        uint64_t thr = 0, single = 0;
        gmf_thr_draw_counts(r->m, &thr, &single);
        printf("benchmark: model threads %d: %llu draws threaded, %llu on one thread\n",
               gmf_thr_count(r->m), (unsigned long long)thr, (unsigned long long)single);
        /* The timing model's totals, which the report leaves out: tests compare them
         * between thread counts (gpu_model/frame/tests/check_threads.py). */
        gm_timing_stats ts;
        if (gmf_timing_model(r->m)) {
            gm_timing_total_stats(gmf_timing_model(r->m), &ts);
            printf("benchmark: timing model: %llu instructions, %llu lane instructions, %llu texture "
                   "requests, %llu lines, %llu hits; warp-cycles per state:",
                   (unsigned long long)ts.instructions, (unsigned long long)ts.lane_instructions,
                   (unsigned long long)ts.tex_requests, (unsigned long long)ts.tex_lines,
                   (unsigned long long)ts.tex_hits);
            for (int i = 0; i < GM_STALL_COUNT; i++)
                printf(" %llu", (unsigned long long)ts.stall[i]);
            printf("\n");
        }
    }
    int n = cJSON_GetArraySize(r->frames);
    for (int i = 0; i < n; i++) {
        cJSON *f = cJSON_GetArrayItem(r->frames, i);
        double m = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "model_seconds"));
        double d = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "driver_seconds"));
        if (!r->json)
            printf("benchmark: frame %d: model %.4f s, llvmpipe %.4f s, ratio %.1fx\n",
                   (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "frame")), m, d, d > 0 ? m / d : 0.0);
    }
}

int cli_model(int argc, char **argv)
{
    struct mcmp_run r;
    memset(&r, 0, sizeof r);
    r.hooks = (struct mcmp_hooks){ .event = print_event, .line = print_line, .progress = progress,
                                   .warn = print_warning, .stopped = cli_stop_reason };
    const char *path = NULL;
    double timeout = 0;
    int threads = 0;
    const struct cli_opt opts[] = {
        { .name = "--compare", .flag = &r.compare, .set_to = true },
        { .name = "--json", .flag = &r.json, .set_to = true },
        { .name = "--benchmark", .flag = &r.benchmark, .set_to = true },
        { .name = "--trace-hash", .flag = &r.trace, .set_to = true },
        { .name = "--no-timing", .flag = &r.no_timing, .set_to = true },
        { .name = "--threads", .parse = parse_threads, .dest = &threads, .needs = "a number from 1 to 64" },
        { .name = "--timeout", .parse = cli_opt_seconds, .dest = &timeout, .needs = "a number of seconds" },
        { .name = "--png", .str = &r.png_dir, .needs = "a folder" },
    };
    if (cli_parse_opts("model", USAGE, opts, sizeof opts / sizeof *opts, argc, argv, &path) != 0)
        return 2;
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 2;
    }
    char *meta = glcap_read_metadata(path, err, sizeof err);
    if (!meta) {
        cli_error("%s", err);
        glrh_capture_close(cap);
        return 2;
    }
    if (r.png_dir && mkdir(r.png_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot create the PNG folder: %s", r.png_dir, strerror(errno));
        free(meta);
        glrh_capture_close(cap);
        return 2;
    }
    size_t srcs_size = 0;
    void *srcs = glcap_read_optional_section(path, GLCAP_SECTION_SHADER_SOURCES, 0, &srcs_size, err, sizeof err);
    if (!srcs && err[0]) {
        cli_error("%s", err);
        free(meta);
        glrh_capture_close(cap);
        return 2;
    }
    int n_surf = 0;
    gmf_surface_desc *surf = mcmp_plan_surfaces(cap, &n_surf);
    gmf_config cfg = { .metadata_json = meta, .surfaces = surf, .n_surfaces = n_surf,
                       .timing = r.no_timing ? GMF_TIMING_OFF : GMF_TIMING_DEFAULT,
                       .threads = threads,
                       .program_sources = srcs, .program_sources_size = srcs_size };
    r.cap = cap;
    r.image_used = calloc(cap->n_images + cap->n_hashes + 1, sizeof *r.image_used);
    r.m = surf && r.image_used ? gmf_create(&cfg, err, sizeof err) : NULL;
    if (r.m) {
        gmf_totals tt;
        gmf_get_totals(r.m, &tt);
        r.timing = tt.timing;
    }
    int rc = 2;
    if (!r.m) {
        cli_error("model: %s", surf ? err : "out of memory");
        goto out;
    }
    if (mcmp_init(&r) != 0) {
        cli_error("model: out of memory");
        goto out;
    }
    if ((r.compare || r.benchmark) && mcmp_driver_open(&r, cap, surf, n_surf, err, sizeof err) != 0) {
        cli_error("model: driver: %s", err);
        goto out;
    }
    r.progress = isatty(2) != 0;
    r.trace_hash = 1469598103934665603ull;
    gmf_set_abort(r.m, cli_stop_arm(timeout));
    if (r.trace)
        gmf_set_observer(r.m, mcmp_trace_observer, &r);
    r.root = cJSON_CreateObject();
    cJSON_AddStringToObject(r.root, "capture", path);
    r.events = cJSON_AddArrayToObject(r.root, "events");
    r.swaps = cJSON_AddArrayToObject(r.root, "swaps");
    r.frames = cJSON_AddArrayToObject(r.root, "benchmark");
    if (!r.json)
        setvbuf(stdout, NULL, _IOLBF, 0);
    double t0 = now_s();
    /* A capture taken from a running program starts from its snapshot: both sides start there. */
    struct glr_restore *snapshot = NULL;
    if (meta && strstr(meta, "\"initial_state\":\"snapshot\"")) {
        if (!(snapshot = glr_restore_load(path, err, sizeof err))) {
            cli_error("model: %s", err);
            goto out;
        }
        if (gmf_feed_initial_state(r.m, glr_restore_state(snapshot)) != 0 ||
            gmf_feed_snapshot_contents(r.m, snapshot) < 0) {
            cli_error("model: out of memory restoring the initial state");
            glr_restore_free(snapshot);
            goto out;
        }
        struct glr_restore_stats st;
        int restored = 0;
        if (r.compare || r.benchmark) {
            glrh_crash_guard_install("the driver side of model --compare");
            glrh_crash_guard_arm(GLRH_GUARD_RESTORE, -1);
            restored = mcmp_driver_restore(&r, snapshot, &st, err, sizeof err);
            glrh_crash_guard_remove();
        }
        if (restored != 0) {
            cli_error("model: driver: %s", err);
            glr_restore_free(snapshot);
            goto out;
        }
        glr_restore_free(snapshot);
    }
    /* The driver side gets the replayer's crash guard: a driver fault on the capture's data ends
     * with one line naming the record (exit 3), not a core dump. */
    glrh_crash_guard_install("the driver side of model --compare");
    int ran = mcmp_run_stream(&r, err, sizeof err);
    glrh_crash_guard_remove();
    if (ran != 0) {
        cli_error("model: %s", err);
        goto out;
    }
    const char *stopped_by = cli_stop_reason();
    cli_stop_disarm();
    if (stopped_by) {
        /* Only what ran is reported; the comparisons at the capture's end would compare images
         * the model did not finish: no verdict. */
        r.compare = false;
        report(&r, now_s() - t0);
        cli_error("model: stopped by %s at record %llu: the figures above cover the records before it",
                  stopped_by, (unsigned long long)r.stopped_record);
        rc = 1;
        goto out;
    }
    if (r.compare) {
        gmf_totals tt;
        gmf_get_totals(r.m, &tt);
        mcmp_compare_end_references(&r, tt.records);
    }
    if (r.benchmark)
        print_benchmark(&r);
    report(&r, now_s() - t0);
    rc = r.compare && !r.passed ? 1 : 0;
out:
    mcmp_close(&r);
    gmf_destroy(r.m);
    cJSON_Delete(r.root);
    free(r.image_used);
    free(surf);
    free(meta);
    free(srcs);
    glrh_capture_close(cap);
    return rc;
}
