/* `glreplay profile F.glcap --out trace.json [--counters] [--pc-sampling P] [--edges B]
 *  [--trace-buffers TYPES] [--plot out.svg] [--json] ...`
 *
 * Runs the capture's frame in the GPU model with the telemetry methods asked for
 * (gpu_model/telemetry/profile), writes Chrome Trace Event JSON for ui.perfetto.dev (--out), an SVG
 * plot of the main counters over the frame (--plot), and prints the terminal report (per-draw
 * cycles, top source lines with their stall breakdown, counters), or with --json one JSON document
 * of everything (the same as the DAP request glreplay/profile answers).
 *
 * Exit status: 0 done, 2 bad usage or a capture that cannot be used (one-line error). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_verbs.h"
#include "ui_ipc/cli/cli_stop.h"
#include "debugger/dap_capture.h"
#include "ui_ipc/dap/dap_profile.h"

#define USAGE                                                                                              \
    "usage: glreplay profile F.glcap --out trace.json [--counters] [--counter-mask M] [--pc-sampling P] "   \
    "[--pc-mode round-robin|all] [--seed S] [--edges B] [--edges-exact] [--trace-buffers flow,mem,tex,reg:VAR|all] " \
    "[--plot out.svg] [--annotate] [--dot cfg.dot] [--trace-out F.gmtb|F.jsonl] [--top N] [--timeout S] [--json]"

static int usage_error(const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    cli_error("profile: %s (%s)", msg, USAGE);
    return 2;
}

/* A whole non-negative number (decimal or 0x hex). */
static bool parse_u64(const char *s, uint64_t *out)
{
    if (!s || !*s || *s == '-')
        return false;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

static int write_file(const char *path, const char *text, const char *what)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        cli_error("profile: cannot write the %s %s: %s", what, path, strerror(errno));
        return -1;
    }
    size_t n = strlen(text);
    bool ok = fwrite(text, 1, n, f) == n;
    ok &= fclose(f) == 0;
    if (!ok) {
        cli_error("profile: cannot write the %s %s", what, path);
        return -1;
    }
    return 0;
}

int cli_profile(int argc, char **argv)
{
    gmt_profile_options opt;
    memset(&opt, 0, sizeof opt);
    const char *path = NULL, *out = NULL, *plot = NULL, *dot = NULL, *trace_out = NULL;
    bool json = false, annotate = false;
    uint64_t top = 15;
    double timeout = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("%s\n\nRuns the capture's frame in the GPU model with the telemetry methods asked for; writes a\n"
                   "Chrome trace (open it in https://ui.perfetto.dev) and prints a report (see README.md, Profiling).\n\n"
                   "  --out trace.json        Chrome Trace Event JSON (--out or --json is required)\n"
                   "  --counters              hierarchical counters; --counter-mask M keeps the counters whose bit is set\n"
                   "  --pc-sampling P         a PC sample every P cycles (power of two) per SM; --pc-mode round-robin|all,\n"
                   "                          --seed S randomizes the offset, --annotate prints sources with samples\n"
                   "  --edges B               edge profiles from a taken-branch ring sampled every B branches;\n"
                   "                          --edges-exact counts every edge too, --dot cfg.dot writes the graphs\n"
                   "  --trace-buffers TYPES   exact trace buffers: flow,mem,tex,reg:NAME or all (the frame runs twice);\n"
                   "                          --trace-out F.gmtb|F.jsonl writes them\n"
                   "  --plot out.svg          the main counters over the frame\n"
                   "  --top N                 source lines in the report (default 15)\n"
                   "  --timeout S             stop the run after S seconds (also the first Ctrl-C): exit 1\n"
                   "  --json                  everything as one JSON document instead of the report\n",
                   USAGE);
            return 0;
        } else if (!strcmp(a, "--counters")) {
            opt.counters = true;
        } else if (!strcmp(a, "--json")) {
            json = true;
        } else if (!strcmp(a, "--annotate")) {
            annotate = true;
        } else if (!strcmp(a, "--edges-exact")) {
            opt.edge_exact = true;
        } else if (!strcmp(a, "--out") || !strcmp(a, "--plot")) {
            if (!val)
                return usage_error("%s needs a file name", a);
            *(a[2] == 'o' ? &out : &plot) = val;
            i++;
        } else if (!strcmp(a, "--dot") || !strcmp(a, "--trace-out")) {
            if (!val)
                return usage_error("%s needs a file name", a);
            *(a[2] == 'd' ? &dot : &trace_out) = val;
            i++;
        } else if (!strcmp(a, "--counter-mask")) {
            if (!parse_u64(val, &v) || !v)
                return usage_error("--counter-mask needs a non-zero number (bit per counter), got '%s'", val ? val : "");
            opt.counter_mask = v;
            opt.counters = true;
            i++;
        } else if (!strcmp(a, "--pc-sampling")) {
            if (!parse_u64(val, &v) || !v || (v & (v - 1)) || v > (1u << 30))
                return usage_error("--pc-sampling needs a power of two (cycles), got '%s'", val ? val : "");
            opt.pc_period = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--pc-mode")) {
            if (!val || (strcmp(val, "all") && strcmp(val, "round-robin")))
                return usage_error("--pc-mode is round-robin or all, got '%s'", val ? val : "");
            opt.pc_all_warps = !strcmp(val, "all");
            i++;
        } else if (!strcmp(a, "--seed")) {
            if (!parse_u64(val, &v))
                return usage_error("--seed needs a number, got '%s'", val ? val : "");
            opt.pc_seed = v;
            i++;
        } else if (!strcmp(a, "--edges")) {
            if (!parse_u64(val, &v) || !v || v > (1u << 30))
                return usage_error("--edges needs a branch count >= 1, got '%s'", val ? val : "");
            opt.edge_period = (uint32_t)v;
            i++;
        } else if (!strcmp(a, "--trace-buffers")) {
            char err[256];
            if (!val || gmt_profile_parse_trace_types(&opt, val, err, sizeof err) != 0)
                return usage_error("%s", val ? err : "--trace-buffers needs a list of types");
            i++;
        } else if (!strcmp(a, "--top")) {
            if (!parse_u64(val, &v) || v > 100000)
                return usage_error("--top needs a number of lines, got '%s'", val ? val : "");
            top = v;
            i++;
        } else if (!strcmp(a, "--timeout")) {
            if (!cli_parse_timeout(val, &timeout))
                return usage_error("--timeout needs a number of seconds, got '%s'", val ? val : "");
            i++;
        } else if (a[0] == '-' && a[1]) {
            return usage_error("unknown option '%s'", a);
        } else if (!path) {
            path = a;
        } else {
            return usage_error("more than one capture file given ('%s')", a);
        }
    }
    if (!path)
        return usage_error("%s", "no capture file given");
    if (!out && !json)
        return usage_error("%s", "--out trace.json is required (or --json)");
    if (annotate && !opt.pc_period)
        return usage_error("%s", "--annotate needs --pc-sampling P");
    if (dot && !opt.edge_period)
        return usage_error("%s", "--dot needs --edges B");
    if (trace_out && !opt.trace_types[0])
        return usage_error("%s", "--trace-out needs --trace-buffers TYPES");

    char err[1024];
    struct dap_capture *cap = dap_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 2;
    }
    /* Long work shows where it is on a terminal (the frame runs once, twice with trace buffers). */
    bool tty = isatty(2) != 0;
    if (tty)
        fprintf(stderr, "glreplay: profiling %s: %d draws in the GPU model%s...", path, cap->n_draws,
                opt.trace_types[0] ? " (two runs: trace buffers)" : "");
    opt.abort_flag = cli_stop_arm(timeout);
    gmt_profile *p = dap_profile_capture(cap, &opt, err, sizeof err);
    const char *stopped_by = cli_stop_reason();
    cli_stop_disarm();
    if (tty)
        fprintf(stderr, "\r\033[K");
    if (stopped_by) {
        cli_error("profile: %s: stopped by %s before the frame's end: no profile written", path, stopped_by);
        gmt_profile_destroy(p);
        dap_capture_close(cap);
        return 1;
    }
    if (!p) {
        cli_error("profile: %s: %s", path, err);
        dap_capture_close(cap);
        return 2;
    }
    int rc = 0;
    if (out) {
        cJSON *trace = gmt_profile_chrome_trace(p);
        char *text = trace ? cJSON_PrintUnformatted(trace) : NULL;
        cJSON_Delete(trace);
        if (!text) {
            cli_error("profile: out of memory writing the trace");
            rc = 2;
        } else if (write_file(out, text, "trace") != 0) {
            rc = 2;
        }
        free(text);
    }
    if (plot && rc == 0) {
        char *svg = gmt_profile_svg(p);
        if (!svg) {
            cli_error("profile: out of memory drawing the plot");
            rc = 2;
        } else if (write_file(plot, svg, "plot") != 0) {
            rc = 2;
        }
        free(svg);
    }
    if (dot && rc == 0) {
        FILE *f = fopen(dot, "w");
        if (!f) {
            cli_error("profile: cannot write the CFG file %s: %s", dot, strerror(errno));
            rc = 2;
        } else if (gmt_profile_write_dot(p, f, dap_profile_source, cap) != 0 || ferror(f)) {
            cli_error("profile: cannot write the CFG file %s", dot);
            rc = 2;
        }
        if (f && fclose(f) != 0 && rc == 0) {
            cli_error("profile: cannot write the CFG file %s", dot);
            rc = 2;
        }
    }
    if (trace_out && rc == 0 && gmt_profile_write_tracebuf(p, trace_out, err, sizeof err) != 0) {
        cli_error("profile: %s", err);
        rc = 2;
    }
    if (rc == 0) {
        if (json) {
            cJSON *j = gmt_profile_to_json(p);
            char *text = j ? cJSON_PrintUnformatted(j) : NULL;
            cJSON_Delete(j);
            if (text)
                printf("%s\n", text);
            else
                rc = 2;
            free(text);
        } else {
            gmt_profile_report(p, stdout, (int)top);
            if (annotate) {
                printf("\nannotated source (PC samples per line):\n");
                gmt_profile_write_annotated(p, stdout, dap_profile_source, cap);
            }
            if (out)
                printf("\ntrace: %s (open in https://ui.perfetto.dev)\n", out);
            if (plot)
                printf("plot: %s\n", plot);
            if (dot)
                printf("control-flow graphs with edge weights: %s (dot -Tsvg)\n", dot);
            if (trace_out)
                printf("trace buffers: %s\n", trace_out);
        }
    }
    gmt_profile_destroy(p);
    dap_capture_close(cap);
    return rc;
}
