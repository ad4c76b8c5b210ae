/* gmt_counters.h - hierarchical hardware-style counters of the GPU model (telemetry method 1).
 *
 * The counters watch the timing model through the frame runner's telemetry hooks
 * (gmf_hooks in gpu_model/frame/gmf_frame.h) and count like a GPU's performance-monitor
 * hierarchy does (see DESIGN.md in this folder):
 *
 *   signals (per SM, per fixed-function unit, every modeled cycle they are high)
 *     -> NARROW 16-bit counters, one per (SM, counter id)
 *     -> every K cycles (and before any narrow counter could wrap) serialized into the
 *        SM's collection unit: 32-bit counters held in TWO banks
 *     -> on a trigger (every T cycles, at each draw/clear/swap end, at a context switch, at
 *        finish, or before a 32-bit bank counter could wrap) the banks swap and the idle bank
 *        is emitted as records of 8 (counter id, value) pairs tagged with the GL context
 *     -> reduction channels with 64-bit counters: one per GL context and one global.
 *
 * Invariants (tested): every per-context block summed equals the global channel exactly; no
 * count is lost to a narrow or bank counter's width; masked counters count nothing anywhere;
 * after a context switch every record of the old context has landed in its block before the
 * new context counts.
 *
 * Determinism: everything follows the timing model's deterministic event order; no clocks.
 *
 * Use:
 *     gmt_counters_config cc; gmt_counters_default_config(&cc);
 *     gmt_counters *c = gmt_counters_create(&cc, tc, err, sizeof err); // tc: the runner's
 *                                          // timing config (gmf_timing_model + its config)
 *     gmf_hooks h; gmt_counters_hooks(c, &h);   // the profile spine multiplexes these
 *     ... run the frame ...
 *     gmt_counters_finish(c, end_cycle);
 *     read gmt_counters_global / gmt_counters_context / gmt_counters_series, or JSON.
 */
#ifndef GMT_COUNTERS_H
#define GMT_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "gmf_frame.h"
#include "gm_timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Counter ids. The SM group comes from the timing model's cycle, issue and memory hooks;
 * the fixed-function group from the frame runner's units hook (attributed to the SM that
 * hook names). Names (gmt_counter_name) are the lower-case identifiers after GMT_C_. */
typedef enum gmt_counter_id {
    /* SM: cycle hook, per cycle */
    GMT_C_SM_ACTIVE_CYCLES,        /* "sm_active_cycles": cycles with >= 1 resident warp */
    GMT_C_WARPS_RESIDENT,          /* "warps_resident": resident warps, summed per cycle */
    GMT_C_STALL_SELECTED,          /* "stall_selected" ... one per gm_stall, in gm_stall */
    GMT_C_STALL_NOT_SELECTED,      /*   order: warps in that state, summed per cycle       */
    GMT_C_STALL_EXEC_DEPENDENCY,
    GMT_C_STALL_SHORT_SCOREBOARD,
    GMT_C_STALL_LONG_SCOREBOARD,
    GMT_C_STALL_BARRIER,
    GMT_C_STALL_BRANCH_RESOLVING,
    GMT_C_STALL_NO_INSTRUCTION,
    GMT_C_STALL_TEX_THROTTLE,
    GMT_C_STALL_DRAINED,
    /* SM: issue hook */
    GMT_C_INST_ISSUED,             /* "inst_issued": warp instructions issued */
    GMT_C_ACTIVE_LANES,            /* "active_lanes": lanes active per issue (multi-bit, 0..32) */
    /* SM: memory hook */
    GMT_C_TEX_REQUESTS,            /* "tex_requests": texture unit requests */
    GMT_C_TEX_HITS,                /* "tex_hits": texture cache lines that hit */
    GMT_C_TEX_MISSES,              /* "tex_misses": texture cache lines that missed */
    GMT_C_MEM_REQUESTS,            /* "mem_requests": memory pipe requests (SSBO/image) */
    /* Fixed-function units: units hook */
    GMT_C_PRIMITIVES_IN,           /* "primitives_in" */
    GMT_C_PRIMITIVES_CULLED,       /* "primitives_culled" */
    GMT_C_PRIMITIVES_CLIPPED,      /* "primitives_clipped" */
    GMT_C_FRAGMENTS_SHADED,        /* "fragments_shaded": live (non-helper) FS lanes */
    GMT_C_HELPER_LANES,            /* "helper_lanes" */
    GMT_C_QUADS_KILLED,            /* "quads_killed" */
    GMT_C_DEPTH_PASS,              /* "depth_pass" */
    GMT_C_DEPTH_FAIL,              /* "depth_fail" */
    GMT_C_STENCIL_PASS,            /* "stencil_pass" */
    GMT_C_STENCIL_FAIL,            /* "stencil_fail" */
    GMT_C_BLEND_OPS,               /* "blend_ops" */
    GMT_COUNTER_COUNT
} gmt_counter_id;

#define GMT_C_FIRST_UNIT GMT_C_PRIMITIVES_IN   /* ids >= this are fixed-function counters */
#define GMT_RECORD_COUNTERS 8                  /* (id, value) pairs per record */
#define GMT_NARROW_BITS 16
#define GMT_BANK_BITS 32

const char *gmt_counter_name(gmt_counter_id id);   /* "warps_resident"; "?" when out of range */
/* The id of a name, or -1. */
int gmt_counter_find(const char *name);
/* "sm" or "unit" (fixed-function). */
const char *gmt_counter_group(gmt_counter_id id);
/* The counter of a stall reason (GMT_C_STALL_SELECTED + s). */
gmt_counter_id gmt_counter_of_stall(gm_stall s);

typedef struct gmt_counters_config {
    uint32_t serialize_interval;  /* K: cycles between narrow -> collection serializations
                                     (default 256). Extra serializations happen whenever a
                                     narrow counter would wrap, so any K is safe. */
    uint32_t trigger_interval;    /* T: cycles between bank swaps (default 16384; 0: only at
                                     draw ends, context switches and finish) */
    bool trigger_at_draw_end;     /* swap at every draw/clear/swap end (default true) */
    uint64_t mask;                /* bit (1 << id) set: that counter is masked and counts
                                     nothing anywhere (default 0) */
    bool series;                  /* keep the time series (default true) */
} gmt_counters_config;

void gmt_counters_default_config(gmt_counters_config *cfg);

typedef struct gmt_counters gmt_counters;

/* tc: the timing model's configuration (SM count; NULL: gm_timing_config_default). NULL with
 * a message in err on a bad configuration (sm_count < 1, serialize_interval 0) or no memory. */
gmt_counters *gmt_counters_create(const gmt_counters_config *cfg, const gm_timing_config *tc,
                                  char *err, size_t err_size);
void gmt_counters_destroy(gmt_counters *c);

/* Fills every member of *out (all six callbacks, and out->ctx = c). The profile spine keeps
 * this struct and calls each member with out->ctx from its own multiplexing hooks; only tests
 * and the benchmark install it directly with gmf_set_hooks. Every callback is needed: the
 * cycle hook gives warps resident and stall states, issue the instruction and lane counts, mem
 * the texture/memory requests, units the fixed-function counts, draw_begin the context and
 * draw_end the draw-end trigger. */
void gmt_counters_hooks(gmt_counters *c, gmf_hooks *out);

/* End of the run: serializes the narrow counters and swaps/emits the banks, so every count is
 * in the reduction channels. The run's cycles are max(end_cycle, last cycle seen). Hooks
 * arriving afterwards keep counting (finish again to flush them). */
void gmt_counters_finish(gmt_counters *c, uint64_t end_cycle);

/* ---- reduction channels ---- */
typedef struct gmt_counters_block {
    uint32_t ctx_id;              /* GL context (0: counts before the first draw_begin); the
                                     global block has 0 */
    uint64_t records;             /* records reduced into this block */
    uint64_t values[GMT_COUNTER_COUNT];
} gmt_counters_block;

const gmt_counters_block *gmt_counters_global(const gmt_counters *c);
/* Per-context blocks in order of first appearance. NULL when i is out of range. */
int gmt_counters_context_count(const gmt_counters *c);
const gmt_counters_block *gmt_counters_context(const gmt_counters *c, int i);
/* The block of a context id, or NULL. */
const gmt_counters_block *gmt_counters_context_by_id(const gmt_counters *c, uint32_t ctx_id);

/* ---- time series: one sample per bank swap ---- */
typedef enum gmt_trigger {
    GMT_TRIGGER_INTERVAL,         /* every T cycles */
    GMT_TRIGGER_DRAW_END,         /* a draw/clear/swap ended */
    GMT_TRIGGER_CONTEXT_SWITCH,   /* a draw_begin (or units event) of another context */
    GMT_TRIGGER_OVERFLOW,         /* a 32-bit bank counter would have wrapped */
    GMT_TRIGGER_FINISH,           /* gmt_counters_finish */
    GMT_TRIGGER_COUNT
} gmt_trigger;
const char *gmt_trigger_name(gmt_trigger t);  /* "interval", "draw_end", ... */

typedef struct gmt_counters_sample {
    uint64_t cycle;               /* cycle of the swap */
    uint32_t ctx_id;              /* context the swapped bank counted for */
    gmt_trigger trigger;
    uint64_t delta[GMT_COUNTER_COUNT]; /* counts since the previous swap, all SMs */
} gmt_counters_sample;

/* Samples are stored sparsely (non-zero deltas only); get one expanded. Of a run of swaps
 * whose banks were all zero only the first and the last are stored, so a non-zero sample's delta was counted between the previous stored sample's
 * cycle and its own: rate = delta / (cycle - previous cycle). */
size_t gmt_counters_series_count(const gmt_counters *c);
int gmt_counters_series_get(const gmt_counters *c, size_t i, gmt_counters_sample *out); /* 0/-1 */

/* ---- statistics of the hierarchy itself ---- */
typedef struct gmt_counters_stats {
    uint64_t cycles;                  /* last cycle seen (or end_cycle of finish) */
    uint64_t serializations;          /* every-K narrow -> collection transfers (all SMs) */
    uint64_t overflow_serializations; /* extra transfers of one SM, forced early because a
                                         narrow counter would have wrapped */
    uint64_t swaps;                   /* bank swaps */
    uint64_t swaps_by_trigger[GMT_TRIGGER_COUNT];
    uint64_t records;                 /* records emitted (each reduced into one context block
                                         and the global channel) */
    uint64_t context_switches;
} gmt_counters_stats;
void gmt_counters_get_stats(const gmt_counters *c, gmt_counters_stats *out);

/* JSON of everything (caller frees with cJSON_Delete; NULL when out of memory). Schema:
 * {
 *   "config":   {"serialize_interval": K, "trigger_interval": T, "trigger_at_draw_end": bool,
 *                "narrow_bits": 16, "bank_bits": 32, "record_counters": 8, "sm_count": N,
 *                "masked": ["name", ...]},
 *   "counters": [{"id": 0, "name": "sm_active_cycles", "group": "sm"|"unit",
 *                 "masked": bool}, ...],                  // every id, in id order
 *   "global":   {"records": n, "values": {"<name>": uint, ...}},   // every counter name
 *   "contexts": [{"ctx_id": id, "records": n, "values": {"<name>": uint, ...}}, ...],
 *   "series":   {"columns": ["cycle", "ctx_id", "trigger", "<name>", ...],  // unmasked names
 *                "samples": [[cycle, ctx_id, "draw_end", delta, ...], ...]},
 *   "stats":    {"cycles": n, "serializations": n, "overflow_serializations": n, "swaps": n,
 *                "swaps_by_trigger": {"interval": n, ...}, "records": n,
 *                "context_switches": n}
 * }
 * Numbers are JSON numbers (exact below 2^53). "series" is omitted when cfg.series is false. */
cJSON *gmt_counters_to_json(const gmt_counters *c);

#ifdef __cplusplus
}
#endif
#endif
