/* gmt_pcsamp.h - PC sampling with stall reasons (telemetry method 2 of the GPU model).
 *
 * Watches the timing model through the frame runner's telemetry hooks (gmf_hooks in
 * gpu_model/frame/gmf_frame.h). Every P modeled cycles (P a power of two) each SM takes one
 * sample: the next resident warp in round-robin order over its warp slots (default), or one
 * record for every resident warp (GMT_PCSAMP_ALL_WARPS). A record holds the cycle, SM, slot,
 * warp (submission number and id), draw, stage, PC, source file and line, captured program
 * and the warp's scheduler state that cycle (gm_stall: selected, not_selected,
 * exec_dependency, short_scoreboard, long_scoreboard, barrier, branch_resolving,
 * no_instruction, tex_throttle, drained).
 *
 * Sampling points: the last cycle of each period, i.e. cycles c with c % P == P - 1; with
 * random_offset, cycle k*P + off(k) of period k, off(k) in [0, P) a fixed function of
 * (seed, k) (deterministic). Only cycles the model simulates are seen (it simulates every
 * cycle while a warp is resident; time does not pass while it is empty).
 *
 * Accounting (tested): per SM, points = floor(end/P) - floor(first/P) sampling points were
 * met for a run observing cycles [first, end) without random offset (first is 0 for a frame
 * run from the start). Round-robin: each point gives one sample or one drop:
 *     points = samples + dropped_idle + dropped_full
 * (dropped_idle: the SM had no resident warp; dropped_full: the record buffer, bounded by
 * max_records, was full). All-warps: a point of an idle SM is one dropped_idle, else one
 * record per resident warp (or dropped_full). In both modes total = samples + dropped, and
 * the per-line aggregation sums to samples.
 *
 * Draw, stage and program of a record are resolved from the issue events of its batch (a
 * warp sampled before its first issue is resolved from its batch's later issues), at
 * gmt_pcsamp_finish: records and reports are complete after it.
 *
 * Determinism: follows the model's event order; the offsets come from a fixed hash of the
 * seed. No clocks, no pointer values in outputs.
 *
 * Use:
 *     gmt_pcsamp_config pc; gmt_pcsamp_default_config(&pc); pc.period = 1024;
 *     gmt_pcsamp *s = gmt_pcsamp_create(&pc, tc, err, sizeof err);   // tc: timing config
 *     gmf_hooks h; gmt_pcsamp_hooks(s, &h);     // the profile spine multiplexes these
 *     ... run the frame ...
 *     gmt_pcsamp_finish(s, end_cycle);
 *     gmt_pcsamp_write_hotspots(s, stdout, 20); cJSON *j = gmt_pcsamp_to_json(s);
 *     gmt_pcsamp_destroy(s);
 */
#ifndef GMT_PCSAMP_H
#define GMT_PCSAMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "gmf_frame.h"
#include "gm_timing.h"
#include "gmt_source.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gmt_pcsamp_mode {
    GMT_PCSAMP_ROUND_ROBIN, /* one warp per SM per point, next resident slot after the last */
    GMT_PCSAMP_ALL_WARPS,   /* every resident warp of every SM per point */
} gmt_pcsamp_mode;

typedef struct gmt_pcsamp_config {
    uint32_t period;        /* P: cycles between sampling points, power of two >= 1 (1024) */
    gmt_pcsamp_mode mode;   /* GMT_PCSAMP_ROUND_ROBIN */
    bool random_offset;     /* false: last cycle of each period; true: pseudo-random cycle */
    uint64_t seed;          /* for random_offset (1) */
    size_t max_records;     /* record buffer bound; later samples are dropped_full (1<<22) */
} gmt_pcsamp_config;

void gmt_pcsamp_default_config(gmt_pcsamp_config *c);

typedef struct gmt_pcsamp gmt_pcsamp;

/* tc: the timing model's configuration (SM and slot counts); NULL means the defaults.
 * NULL with a message in err on a bad configuration (period not a power of two, ...). */
gmt_pcsamp *gmt_pcsamp_create(const gmt_pcsamp_config *cfg, const gm_timing_config *tc,
                              char *err, size_t err_size);
void gmt_pcsamp_destroy(gmt_pcsamp *s);

/* Fills *out with this module's callbacks and context (draw_begin, draw_end, issue, cycle;
 * the others NULL). The spine calls them; only tests call gmf_set_hooks with them directly. */
void gmt_pcsamp_hooks(gmt_pcsamp *s, gmf_hooks *out);

/* Ends the run: resolves records (draw, stage, program, line) and builds the aggregation.
 * end_cycle: the model's cycle at the end (informational; the counts come from the cycles
 * seen). Idempotent; the callbacks must not be called after it. */
void gmt_pcsamp_finish(gmt_pcsamp *s, uint64_t end_cycle);

/* ---- raw records (after finish; e.g. Chrome trace instants) ---- */
typedef struct gmt_pc_sample {
    uint64_t cycle;
    int sm, slot;
    uint64_t warp_seq;      /* submission number over the model's life */
    int warp_id;
    int batch;
    int64_t draw;           /* draw index of the frame run (-1 unknown) */
    gm_stage stage;
    uint32_t ctx_id;        /* GL context of the draw (0 unknown) */
    uint32_t program;       /* captured program name (0 unknown) */
    int pc;                 /* next instruction (-1: finished, drained) */
    int line;               /* source line (0: none) */
    const char *file;       /* model file name of the PC ("program3.frag"), or NULL */
    gm_stall state;
} gmt_pc_sample;

const gmt_pc_sample *gmt_pcsamp_samples(const gmt_pcsamp *s, size_t *count);

typedef struct gmt_pcsamp_stats {
    uint64_t first_cycle, end_cycle; /* cycles seen: [first_cycle, end_cycle) */
    uint64_t points;        /* sampling points x SMs */
    uint64_t samples;       /* records kept */
    uint64_t dropped_idle;  /* points of an SM with no resident warp */
    uint64_t dropped_full;  /* records lost to a full buffer */
    uint64_t dropped;       /* dropped_idle + dropped_full */
    uint64_t total;         /* samples + dropped */
    uint64_t by_state[GM_STALL_COUNT]; /* samples per scheduler state */
} gmt_pcsamp_stats;

/* Whole run (sm < 0) or one SM. 0, or -1 for an SM out of range. */
int gmt_pcsamp_get_stats(const gmt_pcsamp *s, int sm, gmt_pcsamp_stats *out);

/* ---- aggregation per (program, stage, source line, state), after finish ---- */
typedef struct gmt_pcsamp_line {
    uint32_t ctx_id, program;
    gm_stage stage;
    const char *file;       /* may be NULL */
    int line;               /* 0: no line (e.g. drained warps, PC without line info) */
    uint64_t samples;
    uint64_t by_state[GM_STALL_COUNT];
} gmt_pcsamp_line;

/* Lines with samples, sorted by samples (descending), then program, stage, line. The sum of
 * samples over all lines equals gmt_pcsamp_stats.samples. */
const gmt_pcsamp_line *gmt_pcsamp_lines(const gmt_pcsamp *s, size_t *count);

/* ---- outputs ---- */

/* Hotspot table: the top `top` lines (0: all) with their share of samples and a stall
 * breakdown (percent per state, largest first), plus a header with the totals. */
void gmt_pcsamp_write_hotspots(const gmt_pcsamp *s, FILE *f, int top);

/* Annotated source of every program stage with samples: each source line prefixed by its
 * sample count, share and top two states; lines come from src (may be NULL: only the lines
 * with samples are printed, without text). */
void gmt_pcsamp_write_annotated(const gmt_pcsamp *s, FILE *f, gmt_source_fn src, void *src_ctx);

/* JSON (caller frees with cJSON_Delete; NULL on out of memory):
 * {
 *   "config": {"period": P, "mode": "round_robin"|"all_warps", "random_offset": bool,
 *              "seed": n, "max_records": n},
 *   "stats": {"first_cycle", "end_cycle", "points", "samples", "dropped", "dropped_idle",
 *             "dropped_full", "total", "by_state": {"selected": n, ...},
 *             "per_sm": [{"sm", "points", "samples", "dropped_idle", "dropped_full"}]},
 *   "states": ["selected", "not_selected", ...],           (gm_stall order)
 *   "programs": [                                           (ctx, program, stage order)
 *     {"ctx": c, "program": p, "stage": "vertex"|"fragment"|..., "path": "program3.frag",
 *      "samples": n,
 *      "lines": [{"line": L, "samples": n, "reasons": {"long_scoreboard": n, ...}}]}
 *   ],                                  (lines ascending; reasons: states with n > 0 only)
 *   "hotspots": [{"ctx", "program", "stage", "path", "line", "samples", "share",
 *                 "reasons": {...}}]                        (top 20, as gmt_pcsamp_lines)
 * }
 * "path" is the model's file name of the PCs ("" when unknown): the DAP side maps it to the
 * shader's source reference. */
cJSON *gmt_pcsamp_to_json(const gmt_pcsamp *s);

/* "vertex", "fragment", ... */
const char *gmt_pcsamp_stage_name(gm_stage st);

#ifdef __cplusplus
}
#endif
#endif
