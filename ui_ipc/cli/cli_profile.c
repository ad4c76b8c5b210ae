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
#include "cli_opts.h"
#include "cli_verbs.h"
#include "ui_ipc/cli/cli_stop.h"
#include "debugger/dbg_capture.h"
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

/* The line for a missing file name (--out, --plot, --dot, --trace-out). */
#define FILE_NAME_LINE "%v: %o needs a file name (%u)"

static void help(void)
{
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
}

/* --seed's value (dest: uint64_t). */
static bool parse_number(const char *s, void *dest)
{
    return parse_u64(s, dest);
}

/* --counter-mask's value (dest: gmt_profile_options): the counters to keep, which turns the
 * counters on. */
static bool parse_counter_mask(const char *s, void *dest)
{
    gmt_profile_options *opt = dest;
    uint64_t v;
    if (!parse_u64(s, &v) || !v)
        return false;
    opt->counter_mask = v;
    opt->counters = true;
    return true;
}

/* --pc-sampling's value (dest: uint32_t), a power of two up to 2^30. */
static bool parse_pc_period(const char *s, void *dest)
{
    uint64_t v;
    if (!parse_u64(s, &v) || !v || (v & (v - 1)) || v > (1u << 30))
        return false;
    *(uint32_t *)dest = (uint32_t)v;
    return true;
}

/* --pc-mode's value (dest: bool, all warps). */
static bool parse_pc_mode(const char *s, void *dest)
{
    if (strcmp(s, "all") && strcmp(s, "round-robin"))
        return false;
    *(bool *)dest = !strcmp(s, "all");
    return true;
}

/* --edges's value (dest: uint32_t), 1 to 2^30. */
static bool parse_edge_period(const char *s, void *dest)
{
    uint64_t v;
    if (!parse_u64(s, &v) || !v || v > (1u << 30))
        return false;
    *(uint32_t *)dest = (uint32_t)v;
    return true;
}

/* --trace-buffers's value (dest: gmt_profile_options), with the reason it is refused. */
static bool parse_trace_types(const char *s, void *dest, char *err, size_t err_size)
{
    return gmt_profile_parse_trace_types(dest, s, err, err_size) == 0;
}

/* --top's value (dest: uint64_t), up to 100000. */
static bool parse_top(const char *s, void *dest)
{
    uint64_t v;
    if (!parse_u64(s, &v) || v > 100000)
        return false;
    *(uint64_t *)dest = v;
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
    bool help_asked = false;
    const struct cli_opt opts[] = {
        { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "-h", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "--counters", .flag = &opt.counters, .set_to = true },
        { .name = "--json", .flag = &json, .set_to = true },
        { .name = "--annotate", .flag = &annotate, .set_to = true },
        { .name = "--edges-exact", .flag = &opt.edge_exact, .set_to = true },
        { .name = "--out", .str = &out, .missing = FILE_NAME_LINE },
        { .name = "--plot", .str = &plot, .missing = FILE_NAME_LINE },
        { .name = "--dot", .str = &dot, .missing = FILE_NAME_LINE },
        { .name = "--trace-out", .str = &trace_out, .missing = FILE_NAME_LINE },
        { .name = "--counter-mask", .parse = parse_counter_mask, .dest = &opt,
          .needs = "a non-zero number (bit per counter)" },
        { .name = "--pc-sampling", .parse = parse_pc_period, .dest = &opt.pc_period,
          .needs = "a power of two (cycles)" },
        { .name = "--pc-mode", .parse = parse_pc_mode, .dest = &opt.pc_all_warps,
          .missing = "%v: %o is round-robin or all, got '%a' (%u)" },
        { .name = "--seed", .parse = parse_number, .dest = &opt.pc_seed, .needs = "a number" },
        { .name = "--edges", .parse = parse_edge_period, .dest = &opt.edge_period, .needs = "a branch count >= 1" },
        { .name = "--trace-buffers", .parse_msg = parse_trace_types, .dest = &opt, .needs = "a list of types",
          .missing = "%v: %o needs %n (%u)", .refused = "%v: %e (%u)" },
        { .name = "--top", .parse = parse_top, .dest = &top, .needs = "a number of lines" },
        { .name = "--timeout", .parse = cli_opt_seconds, .dest = &timeout, .needs = "a number of seconds" },
    };
    const struct cli_verb v = { .verb = "profile", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .missing = "%v: %o needs %n, got '%a' (%u)",
                                .extra = "%v: more than one capture file given ('%a') (%u)" };
    int prc = cli_parse(&v, argc, argv, &path, NULL);
    if (prc == 1)
        help();
    if (prc != 0)
        return prc == 1 ? 0 : 2;
    if (!out && !json)
        return usage_error("%s", "--out trace.json is required (or --json)");
    if (annotate && !opt.pc_period)
        return usage_error("%s", "--annotate needs --pc-sampling P");
    if (dot && !opt.edge_period)
        return usage_error("%s", "--dot needs --edges B");
    if (trace_out && !opt.trace_types[0])
        return usage_error("%s", "--trace-out needs --trace-buffers TYPES");

    char err[1024];
    struct dbg_capture *cap = dbg_capture_open(path, err, sizeof err);
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
        dbg_capture_close(cap);
        return 1;
    }
    if (!p) {
        cli_error("profile: %s: %s", path, err);
        dbg_capture_close(cap);
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
    dbg_capture_close(cap);
    return rc;
}
