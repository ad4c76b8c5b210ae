/* gmt_profile: one profile run of a captured frame in the GPU model, with the telemetry methods
 * of gpu_model/telemetry (counters, PC sampling, edge profiles, trace buffers) watching it
 * together, and the outputs a developer looks at: a Chrome Trace Event file (ui.perfetto.dev),
 * a terminal report, an SVG plot of the main counters over the frame, and one JSON document of
 * everything (the DAP server's glreplay/profile answer).
 *
 * The run feeds the capture's initial state and command stream to a frame runner (gmf_frame.h)
 * whose telemetry hooks are a multiplexer: the spine's own recorder first (per-draw slices from
 * draw_begin/draw_end, issued instructions per source line, a coarse activity time series), then
 * each enabled method in a fixed order (counters, pcsamp, edges, tracebuf). Trace buffers need
 * two runs of the frame (pass 1 sizes the buffers exactly, pass 2 records). Everything is
 * deterministic: the same capture and options give the same outputs.
 *
 * Pure C with no GL calls and no capture-file code: the caller (CLI, DAP server) loads the
 * capture and hands over its parts (gmt_profile_input). */
#ifndef GMT_PROFILE_H
#define GMT_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cjson/cJSON.h>

#include "gmf_frame.h"

#ifdef __cplusplus
extern "C" {
#endif

struct sm_state;

/* What to run. Zero-initialised options run the spine alone (slices, lines, activity). */
typedef struct gmt_profile_options {
    bool counters;              /* hierarchical counters (gpu_model/telemetry/counters) */
    uint64_t counter_mask;      /* counters to keep (bit per counter id); 0: all */
    uint32_t pc_period;         /* PC sampling every P cycles (power of two); 0: off */
    bool pc_all_warps;          /* sample every resident warp instead of one per SM */
    uint64_t pc_seed;           /* random offset seed; 0: no random offset */
    uint32_t edge_period;       /* edge profiles: sample every B branches; 0: off */
    bool edge_exact;            /* also count every edge exactly (error report) */
    char trace_types[160];      /* trace buffers: "flow,mem,tex,reg:NAME" (gmt_tracebuf.h); "": off */
    double clock_ghz;           /* nominal clock for the timeline; 0: 1 GHz */
    /* nonzero stops the run (gmf_set_abort): gmt_profile_run then fails with "stopped" */
    const volatile sig_atomic_t *abort_flag;
} gmt_profile_options;

/* Checks a trace buffer spec ("flow,mem,tex,reg:NAME", "all"; "bb" is taken for "flow") and
 * stores it in opt->trace_types. 0, or -1 with a message naming the bad word. */
int gmt_profile_parse_trace_types(gmt_profile_options *opt, const char *list, char *err, size_t err_size);

/* The frame to run: what a capture holds. */
typedef struct gmt_profile_input {
    const char *metadata_json;            /* METADATA section (may be NULL) */
    const void *program_sources;          /* SHADER_SOURCES section (may be NULL) */
    size_t program_sources_size;
    const gmf_surface_desc *surfaces;     /* default framebuffer per context */
    int n_surfaces;
    const struct sm_state *initial;       /* initial-state snapshot (NULL: from context creation) */
    const gmf_content *contents;          /* the snapshot's pixel contents (gmf_feed_initial_contents) */
    size_t n_contents;
    const void *stream;                   /* COMMAND_STREAM bytes */
    size_t stream_size;
    const char *name;                     /* capture name, for the outputs' metadata */
} gmt_profile_input;

/* One draw, clear or compute dispatch of the run, on the model's timeline. */
typedef struct gmt_profile_slice {
    bool clear;                 /* a clear */
    bool dispatch;              /* a compute dispatch (neither: a draw) */
    uint64_t index;             /* index among draws (clears: among clears; dispatches: among
                                   dispatches) */
    uint64_t record;            /* record in the command stream */
    uint32_t ctx_id, program, fbo;
    uint64_t start_cycle, end_cycle;
    struct gmf_draw_stats stats;
    bool failed;
    int n_unsupported;
} gmt_profile_slice;

/* Issued warp instructions of one source line of one program stage, and PC samples there. */
typedef struct gmt_profile_line {
    uint32_t ctx_id, program;
    int stage;                  /* gm_stage */
    int line;
    uint64_t instructions;      /* issued warp instructions */
    uint64_t lanes;             /* active lanes over those */
    uint64_t samples;           /* PC samples on this line (pcsamp) */
    uint64_t reasons[GM_STALL_COUNT]; /* samples per scheduler state */
} gmt_profile_line;

typedef struct gmt_profile gmt_profile;

/* Runs the frame (once, or twice with trace buffers). NULL with a one-line message: bad options,
 * a method that could not be created, a corrupt stream, out of memory. */
gmt_profile *gmt_profile_run(const gmt_profile_input *in, const gmt_profile_options *opt, char *err,
                             size_t err_size);
void gmt_profile_destroy(gmt_profile *p);

/* Results. */
const gmt_profile_options *gmt_profile_get_options(const gmt_profile *p);
size_t gmt_profile_slices(const gmt_profile *p, const gmt_profile_slice **out);
size_t gmt_profile_lines(const gmt_profile *p, const gmt_profile_line **out); /* by instructions, desc */
uint64_t gmt_profile_end_cycle(const gmt_profile *p);
/* Which methods ran (their modules are built in and the options asked for them). */
bool gmt_profile_has(const gmt_profile *p, const char *method); /* "counters", "pcsamp", "edges", "tracebuf" */
/* Notes for the user (a method asked for but not built into this binary, ...); NULL-terminated. */
const char *const *gmt_profile_notes(const gmt_profile *p);

/* ---- outputs ---- */

/* Chrome Trace Event JSON ({"traceEvents":[...],"metadata":{...}}): per-draw slices ("X") on one
 * track per context, counter tracks ("C"), PC-sample instants ("i") with line and reason. */
cJSON *gmt_profile_chrome_trace(const gmt_profile *p);
/* The terminal report: per-draw cycles, top source lines with stall breakdown, counters. */
void gmt_profile_report(const gmt_profile *p, FILE *f, int top_lines);
/* SVG plot of the main counters over the frame (malloc'd text). */
char *gmt_profile_svg(const gmt_profile *p);
/* Source text of one stage of a captured program, or NULL (same contract as gmt_source_fn in
 * telemetry/pcsamp/gmt_source.h): lets the DOT graphs and the annotated source show GLSL lines. */
typedef const char *(*gmt_profile_source_fn)(void *ctx, uint32_t ctx_id, uint32_t program, gm_stage stage,
                                             const char *file);
/* DOT of each shader's CFG with edge weights (edge profiles). 0, or -1 when edges did not run. */
int gmt_profile_write_dot(const gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx);
/* Each sampled shader's source with samples, share and top states per line (PC sampling).
 * 0, or -1 when PC sampling did not run. */
int gmt_profile_write_annotated(const gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx);
/* The trace buffers: binary (reader: gmt_tbr_open), or JSON lines when path ends in ".jsonl".
 * 0, or -1 with a message. */
int gmt_profile_write_tracebuf(const gmt_profile *p, const char *path, char *err, size_t err_size);
/* Everything as one JSON document: options, slices, lines, series, each method's own JSON. */
cJSON *gmt_profile_to_json(const gmt_profile *p);

#ifdef __cplusplus
}
#endif
#endif
