/* gmt_edges.h - edge profiles from sampled taken-branch traces (telemetry method 3).
 *
 * Watches issued warp instructions through the frame runner's telemetry hooks (gmf_hooks,
 * gpu_model/frame/gmf_frame.h) and builds, for each shader (program stage) that ran, an edge
 * profile of its control-flow graph, the way an LBR-style hardware unit would:
 *
 * - A warp's control flow is the sequence of its issued PCs. Consecutive PCs of one warp
 *   (same warp_seq) whose first is a block terminator or a call, or that are not adjacent,
 *   form a BRANCH from the block of the first to the block of the second (calls and returns
 *   included; a divergent warp that switches to lanes waiting at another block makes a
 *   "reconvergence" transition that is not a static CFG edge). The warp's last instruction is
 *   a branch to EXIT. A branch is TAKEN when control does not go to the next block in the
 *   model's code layout (next PC != PC + 1), else NOT TAKEN (fall-through).
 * - Each hardware warp slot (SM, slot) keeps a ring of its last 16 taken branches (with
 *   warp-launch markers, so a window may span the warps that ran in the slot) and a counter
 *   of retired branches that is not reset at launch (or one counter per SM: config.counter),
 *   starting at a pseudo-random phase in [1, B] (seeded) so that the counters do not all fire
 *   at the same moments of the frame. Every B branches (+ a deterministic pseudo-random delta
 *   in [-delta, +delta]) the ring is sampled; the full branch trace
 *   between consecutive taken branches is rebuilt from the code (the fall-through block
 *   boundaries crossed in layout order between a taken branch's target and the next taken
 *   branch's source, and up to the sampled branch); the last C branches of it are added to
 *   the sampled edge profile.
 * - Exact mode counts every edge (also ENTRY -> first block, once per warp). Flow
 *   conservation holds per block (in = out) and ENTRY's count is the number of warps.
 * - The sampled profile is scaled by branches retired / branches kept and compared with the
 *   exact one: weighted relative error = sum_e |scaled_e - exact_e| / sum_e exact_e over
 *   branch edges (ENTRY edges are not branches and are not sampled: their estimate is
 *   derived by flow conservation at the block they enter, and they stay out of the error).
 *
 * Draw boundaries and gmt_edges_finish end every open warp (the frame runner runs each draw
 * to completion before the next begins); a new warp in a slot ends the slot's previous warp.
 *
 * Determinism: the model's event order and a fixed hash of the seed; no clocks, no pointer
 * values in outputs.
 *
 * Use:
 *     gmt_edges_config ec; gmt_edges_default_config(&ec); ec.period = 1000;
 *     gmt_edges *e = gmt_edges_create(&ec, tc, err, sizeof err);
 *     gmf_hooks h; gmt_edges_hooks(e, &h);    // the profile spine multiplexes these
 *     ... run the frame ...
 *     gmt_edges_finish(e, end_cycle);
 *     double err = gmt_edges_error(e); gmt_edges_write_dot(e, f, src, ctx);
 */
#ifndef GMT_EDGES_H
#define GMT_EDGES_H

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

#define GMT_EDGES_RING 16       /* taken branches remembered per warp slot */
#define GMT_EDGES_MAX_KEEP 4096 /* bound of C */

/* Pseudo-blocks of the profile. */
#define GMT_EDGES_ENTRY (-1)
#define GMT_EDGES_EXIT (-2)

/* Which retired-branch counter triggers a sample (the ring is always per warp slot). */
typedef enum gmt_edges_counter {
    GMT_EDGES_COUNT_PER_SLOT, /* one per hardware warp slot (the "per warp") */
    GMT_EDGES_COUNT_PER_SM,   /* one per SM: samples the slot whose branch reached B */
} gmt_edges_counter;

typedef struct gmt_edges_config {
    uint32_t period;        /* B: branches retired per warp slot between samples (1000);
                               0: no sampling (exact only) */
    uint32_t random_delta;  /* each interval is B + uniform integer in [-delta, +delta] (0);
                               must be < B */
    uint64_t seed;          /* for random_delta (1) */
    int keep;               /* C: last branches of each rebuilt trace kept (16), 1..MAX_KEEP */
    bool exact;             /* also count every edge exactly (true) */
    gmt_edges_counter counter; /* GMT_EDGES_COUNT_PER_SLOT */
} gmt_edges_config;

void gmt_edges_default_config(gmt_edges_config *c);

typedef struct gmt_edges gmt_edges;

/* tc: the timing model's configuration (SM and slot counts); NULL: defaults. NULL with a
 * message in err on a bad configuration. */
gmt_edges *gmt_edges_create(const gmt_edges_config *cfg, const gm_timing_config *tc, char *err,
                            size_t err_size);
void gmt_edges_destroy(gmt_edges *e);

/* Fills *out with this module's callbacks (draw_begin, draw_end, issue) and context. */
void gmt_edges_hooks(gmt_edges *e, gmf_hooks *out);

/* Ends every open warp and freezes the profiles. Idempotent. */
void gmt_edges_finish(gmt_edges *e, uint64_t end_cycle);

typedef struct gmt_edges_stats {
    uint64_t warps;         /* warps seen (= exact ENTRY count) */
    uint64_t branches;      /* branches retired (all warps; EXIT branches included) */
    uint64_t taken;         /* of which taken */
    uint64_t samples;       /* ring samples taken */
    uint64_t kept;          /* branches added to the sampled profile */
    uint64_t rebuild_failed;/* samples whose trace could not be rebuilt (should be 0) */
    double scale;           /* branches / kept (0 when nothing kept) */
} gmt_edges_stats;
void gmt_edges_get_stats(const gmt_edges *e, gmt_edges_stats *out);

/* Weighted relative error of the scaled sampled profile against the exact one, over all
 * programs' branch edges; -1 when not available (no exact counts or nothing sampled). */
double gmt_edges_error(const gmt_edges *e);

/* ---- profiles (after finish) ---- */
typedef enum gmt_edge_kind {
    GMT_EDGE_FALLTHROUGH,   /* terminator to the next block in layout */
    GMT_EDGE_BRANCH,        /* terminator to a static successor, not the next block */
    GMT_EDGE_RECONVERGE,    /* divergent warp switching to lanes waiting elsewhere */
    GMT_EDGE_CALL,          /* OpFunctionCall to the callee's first block */
    GMT_EDGE_RETURN,        /* return into the caller's block */
    GMT_EDGE_ENTRY,         /* warp launch (from GMT_EDGES_ENTRY) */
    GMT_EDGE_EXIT,          /* warp end (to GMT_EDGES_EXIT) */
} gmt_edge_kind;
const char *gmt_edge_kind_name(gmt_edge_kind k); /* "fallthrough", "branch", ... */

typedef struct gmt_edge {
    int from, to;           /* block indexes of the program, or GMT_EDGES_ENTRY / EXIT */
    gmt_edge_kind kind;
    uint64_t exact;         /* every traversal (0 without exact mode) */
    uint64_t sampled;       /* traversals in kept sampled traces */
    double estimate;        /* sampled * scale */
} gmt_edge;

typedef struct gmt_edges_block {
    int first_pc, last_pc;
    int line_min, line_max; /* source lines of its instructions (0: none) */
    const char *function;   /* function name (from the IR), may be NULL */
} gmt_edges_block;

typedef struct gmt_edges_program {
    uint32_t ctx_id, program;   /* GL context and captured program name (0 unknown) */
    gm_stage stage;
    const char *file;           /* model file name ("program3.frag"), may be NULL */
    int block_count;
    const gmt_edges_block *blocks;
    int edge_count;
    const gmt_edge *edges;      /* sorted by (from, to); ENTRY first */
} gmt_edges_program;

/* Programs seen, in (ctx, program, stage) order. */
int gmt_edges_program_count(const gmt_edges *e);
int gmt_edges_get_program(const gmt_edges *e, int i, gmt_edges_program *out);

/* ---- outputs ---- */

/* JSON (caller frees; NULL on out of memory):
 * {
 *   "config": {"period": B, "random_delta": d, "seed": s, "keep": C, "ring": 16,
 *              "exact": bool, "counter": "per_slot" | "per_sm"},
 *   "stats": {"warps", "branches", "taken", "samples", "kept", "rebuild_failed",
 *             "scale", "error": x | null},
 *   "programs": [{"ctx", "program", "stage", "path",
 *                 "blocks": [{"id", "first_pc", "last_pc", "line_min", "line_max",
 *                             "function"}],
 *                 "edges": [{"from", "to", "kind", "exact", "sampled", "estimate"}]}]
 * }                              (from/to: block ids, -1 entry, -2 exit) */
cJSON *gmt_edges_to_json(const gmt_edges *e);

/* One DOT digraph per program stage: blocks labelled with their id, source lines (and the
 * first source line's text when src gives the source), edges with exact counts (or the
 * sampled estimate without exact mode), pen width by weight, dashed for reconvergence,
 * dotted for call/return. */
void gmt_edges_write_dot(const gmt_edges *e, FILE *f, gmt_source_fn src, void *src_ctx);

/* Short text report: totals, error, and the hottest edges per program. */
void gmt_edges_write_report(const gmt_edges *e, FILE *f, int top);

#ifdef __cplusplus
}
#endif
#endif
