/* gm_timing: cycle-approximate timing model of the GPU model (see timing/DESIGN.md).
 *
 * Warps built by the caller (gm_warp_create + inputs + gm_warp_begin) are submitted in
 * batches (all vertex warps of a draw, then its fragment warps in raster order, or the
 * workgroups of a dispatch). A deterministic cycle-driven scheduler places them on SMs
 * and warp slots in submission order and, each cycle, lets every scheduler
 * sub-partition issue at most one warp instruction (gm_warp_step). Latency classes, a
 * per-register scoreboard, texture units with a texture cache, a memory pipe and
 * workgroup barriers decide when a warp may issue next; every resident warp has a stall
 * reason every cycle. Observers see each issued instruction (debugger, telemetry) and,
 * optionally, every cycle of every SM (telemetry sampling); both cost one pointer test
 * when unset.
 *
 * Determinism: the simulation is single-threaded and uses no clocks, addresses or hash
 * seeds, so the same submissions give the same issue order, cycle counts and results on
 * every run, whatever the host's thread count (independent models may run in parallel
 * threads: there is no global state). */
#ifndef GM_TIMING_H
#define GM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Latency classes of IR instructions (derived from the IR opcode, see DESIGN.md). */
typedef enum {
    GM_LAT_ALU,            /* arithmetic, logic, moves, conversions, uniform loads */
    GM_LAT_TRANSCENDENTAL, /* sin/cos/exp/log/pow/sqrt/rsqrt, divisions (special-function unit) */
    GM_LAT_TEXTURE,        /* sampling, fetch, gather, texture queries (texture units + cache) */
    GM_LAT_MEMORY,         /* UBO/SSBO loads, stores, atomics, image load/store (memory pipe) */
    GM_LAT_BARRIER,        /* workgroup barrier */
    GM_LAT_BRANCH,         /* branches, switch, call, return, kill */
    GM_LAT_COUNT
} gm_lat_class;

/* What a resident warp did in a cycle. */
typedef enum {
    GM_STALL_SELECTED,         /* issued (or its multi-cycle issue occupies the port) */
    GM_STALL_NOT_SELECTED,     /* eligible, another warp of its sub-partition issued */
    GM_STALL_EXEC_DEPENDENCY,  /* waiting for an ALU result (fixed latency) */
    GM_STALL_SHORT_SCOREBOARD, /* waiting for a transcendental or uniform-buffer result */
    GM_STALL_LONG_SCOREBOARD,  /* waiting for a texture or memory result */
    GM_STALL_BARRIER,          /* waiting at a workgroup barrier for the other warps */
    GM_STALL_BRANCH_RESOLVING, /* a branch issued; next instruction not known yet */
    GM_STALL_NO_INSTRUCTION,   /* just launched: first instruction being fetched */
    GM_STALL_TEX_THROTTLE,     /* next is a texture/memory op and that queue is full */
    GM_STALL_DRAINED,          /* finished; waiting for outstanding results/stores */
    GM_STALL_COUNT
} gm_stall;

const char *gm_stall_name(gm_stall s);       /* "selected", "long_scoreboard", ... */
const char *gm_lat_class_name(gm_lat_class c); /* "alu", "texture", ... */

typedef enum {
    GM_SCHED_LRR, /* loose round-robin: the eligible warp after the last issuer (default) */
    GM_SCHED_GTO, /* greedy-then-oldest: keep the last issuer while eligible, else oldest */
} gm_sched_policy;

typedef struct gm_timing_config {
    int sm_count;              /* streaming multiprocessors */
    int warp_slots_per_sm;     /* resident warps per SM (<= 64) */
    int subpartitions_per_sm;  /* schedulers per SM; slot s belongs to s % subpartitions */
    gm_sched_policy policy;
    int latency[GM_LAT_COUNT]; /* result latency in cycles per class (the texture and
                                  memory entries are unused: see the tex_ and mem_ fields) */
    int alu_cycles_per_word;   /* issue-port cycles per destination word of arithmetic */
    int sfu_cycles_per_word;   /* same for transcendental ops (SFU throughput) */
    int launch_latency;        /* cycles from launch to the first instruction (fetch) */
    /* Texture units and cache (per SM). */
    int tex_units_per_sm;
    int tex_queue_depth;       /* outstanding texture requests per SM before throttling */
    int tex_lines_per_cycle;   /* cache tags one unit looks up per cycle */
    int tex_hit_latency;       /* request done when every line hit */
    int tex_miss_latency;      /* request done when a line missed (memory fetch) */
    int tex_cache_lines;       /* lines of 4x4 texels per SM cache (power of two) */
    int tex_cache_ways;        /* associativity (divides tex_cache_lines), LRU */
    /* Memory pipe (per SM). */
    int mem_latency;           /* SSBO/image load, atomic, store completion */
    int ubo_latency;           /* uniform-buffer load */
    int mem_queue_depth;       /* outstanding memory requests per SM before throttling */
    int mem_issue_cycles;      /* cycles the pipe needs per request */
} gm_timing_config;

/* Defaults: 4 SMs x 16 warp slots x 4 sub-partitions, ALU 4, SFU 16, branch 4,
 * barrier 4, texture hit 24 / miss 200, 64-line 4-way cache, memory 200, UBO 16. */
void gm_timing_config_default(gm_timing_config *c);

typedef struct gm_timing gm_timing;

/* NULL with a message in err when the configuration is invalid. */
gm_timing *gm_timing_create(const gm_timing_config *cfg, char *err, size_t err_size);
void gm_timing_destroy(gm_timing *t);
/* Programs are analysed once (per-PC latency class and register operands) and cached
 * by pointer; call this before destroying a program the model has seen. */
void gm_timing_forget_program(gm_timing *t, const gm_program *p);

/* ------------------------------------------------------------------ batches */

/* Dependency model: warps launch strictly in submission order (an in-order front end).
 * The head of the queue waits while its batch is held (until gm_timing_batch_release)
 * or while the batch it depends on has not fully retired (closed and every warp
 * retired). E.g. a draw's fragment batch depends on its vertex batch, or is held until
 * the caller has rasterized. */
typedef struct gm_timing_batch_desc {
    gm_stage stage;
    int draw;                     /* caller's label (draw / event index), reported back */
    int depends_on;               /* batch id, or -1 */
    int held;                     /* 1: no warp launches before gm_timing_batch_release */
    int warps_per_group;          /* >1: consecutive warps form a workgroup: launched
                                     together on one SM, synchronised by barriers */
    const uint32_t *texture_ids;  /* unit -> texture id for cache tags (NULL: the unit) */
    int texture_id_count;
} gm_timing_batch_desc;

/* Returns the batch id (>= 0), or -1 on bad input (message via gm_timing_error). */
int gm_timing_batch_begin(gm_timing *t, const gm_timing_batch_desc *d);
/* Submits a warp that gm_warp_begin has started, with the environment it runs with.
 * While submitted the model owns the warp's env (it wraps it to observe texture
 * requests) and its executor observer (use gm_timing_set_issue_observer); both are
 * restored (env) / cleared (observer) at retirement. `user` comes back in events. */
int gm_timing_submit(gm_timing *t, int batch, gm_warp *w, const gm_env *env, void *user);
/* No more warps for this batch (needed before dependents may start). */
int gm_timing_batch_close(gm_timing *t, int batch);
int gm_timing_batch_release(gm_timing *t, int batch);

/* Called when a warp retires (finished and drained, or stopped by a runtime error).
 * The warp may be read, reused or destroyed from then on. */
typedef void (*gm_timing_retire_fn)(void *ctx, gm_warp *w, void *user, int batch,
                                    gm_run_status status);
void gm_timing_set_retire_callback(gm_timing *t, gm_timing_retire_fn fn, void *ctx);

/* ------------------------------------------------------------------ running */

typedef enum {
    GM_TIMING_IDLE,    /* every submitted warp retired */
    GM_TIMING_BLOCKED, /* warps wait on a held batch or an unclosed dependency */
    GM_TIMING_PAUSED,  /* the issue observer asked to stop (before that instruction) */
    GM_TIMING_RETIRED, /* gm_timing_run_until: the awaited warp retired */
    GM_TIMING_ERROR,   /* a warp stopped with a runtime error (it retired; run again to
                          continue) or the model failed (message via gm_timing_error) */
} gm_timing_status;

gm_timing_status gm_timing_run(gm_timing *t);
/* Runs until the given submitted warp retires (or one of the other statuses). */
gm_timing_status gm_timing_run_until(gm_timing *t, const gm_warp *w);
uint64_t gm_timing_cycle(const gm_timing *t); /* current cycle */
/* The configuration the model runs with (defaults filled in). */
void gm_timing_get_config(const gm_timing *t, gm_timing_config *out);

/* A warp resident in a warp slot (launched, not yet retired), for debuggers that show
 * what is in flight. */
typedef struct gm_timing_resident {
    gm_warp *warp;
    void *user;         /* the submission's `user` pointer */
    int sm, slot, subpartition;
    int batch, warp_id;
    uint64_t warp_seq;  /* submission order */
    int finished;       /* executed to the end; draining before it retires */
} gm_timing_resident;
/* Fills *out and returns 1 when a warp occupies slot `slot` of SM `sm`; 0 when the slot is
 * empty or out of range. */
int gm_timing_slot_warp(const gm_timing *t, int sm, int slot, gm_timing_resident *out);
const char *gm_timing_error(const gm_timing *t);

/* ------------------------------------------------------------------ observers */

typedef struct gm_timing_issue {
    uint64_t cycle;
    int sm, subpartition, slot;
    int batch, draw;
    gm_stage stage;
    int warp_id;        /* gm_warp id given at creation */
    uint64_t warp_seq;  /* submission order over the model's life */
    int pc, line;
    gm_mask active;
    gm_lat_class cls;
    gm_warp *warp;      /* state before the instruction: read lanes on demand */
    void *user;
} gm_timing_issue;
/* Called before each issued warp instruction. Return nonzero to pause the simulation
 * before it (gm_timing_run returns GM_TIMING_PAUSED; the next run issues it without
 * calling the observer again). */
typedef int (*gm_timing_issue_fn)(void *ctx, const gm_timing_issue *ev);
void gm_timing_set_issue_observer(gm_timing *t, gm_timing_issue_fn fn, void *ctx);

/* Whether the warps submitted from now on may run their texture instructions ahead of
 * their issue (default 0). Set it only when nothing writes the textures a batch samples
 * while it runs and sampling has no visible side effect: their results are then the same
 * at any time. Cache lookups, latencies, statistics and events still happen at the issue
 * (see DESIGN.md, "Skipping and run-ahead"); only the executor runs earlier. */
void gm_timing_set_tex_run_ahead(gm_timing *t, int on);

typedef struct gm_timing_slot_sample {
    int resident;       /* 0: empty slot (fields below undefined) */
    int subpartition;
    int warp_id, batch;
    uint64_t warp_seq;
    int pc;             /* next instruction (-1 when finished) */
    gm_stall state;
} gm_timing_slot_sample;
/* Called at the end of every cycle for every SM with one entry per warp slot. Setting
 * it disables the idle-cycle skip (results are identical either way). */
typedef void (*gm_timing_cycle_fn)(void *ctx, uint64_t cycle, int sm,
                                   const gm_timing_slot_sample *slots, int slot_count);
void gm_timing_set_cycle_observer(gm_timing *t, gm_timing_cycle_fn fn, void *ctx);

/* Texture and memory requests as they enter their queue. */
typedef struct gm_timing_mem_event {
    uint64_t cycle, done_cycle;
    int sm, batch, warp_id, pc;
    int is_texture;     /* 1: texture unit request, 0: memory pipe */
    int is_store;
    int lines, hits, misses; /* texture cache lines touched (0 for queries/memory) */
} gm_timing_mem_event;
typedef void (*gm_timing_mem_fn)(void *ctx, const gm_timing_mem_event *ev);
void gm_timing_set_mem_observer(gm_timing *t, gm_timing_mem_fn fn, void *ctx);

/* Synthetic barriers: the IR has no barrier instruction yet (the decoder drops
 * OpControlBarrier), so a caller can mark PCs as barriers. Set before submitting warps
 * of the program (the per-PC table is built once). */
typedef int (*gm_timing_barrier_fn)(void *ctx, const gm_program *p, int pc);
void gm_timing_set_barrier_hook(gm_timing *t, gm_timing_barrier_fn fn, void *ctx);

/* ------------------------------------------------------------------ statistics */

typedef struct gm_timing_stats {
    uint64_t first_cycle, end_cycle; /* first launch, cycle after the last retirement */
    uint64_t cycles;                 /* end - first (0 until a warp retired) */
    uint64_t warps, warps_retired;
    uint64_t instructions, lane_instructions;
    uint64_t issued_by_class[GM_LAT_COUNT];
    uint64_t stall[GM_STALL_COUNT];  /* warp-cycles spent in each state (a resident
                                        warp's current state is added when it changes
                                        or the warp retires) */
    uint64_t tex_requests, tex_lines, tex_hits, tex_misses;
    uint64_t mem_requests, mem_stores;
} gm_timing_stats;

int gm_timing_batch_stats(const gm_timing *t, int batch, gm_timing_stats *out);
void gm_timing_total_stats(const gm_timing *t, gm_timing_stats *out);

/* Checkpoints (gm_timing_state.c): whether no warp is queued or resident; a copy of src's
 * state (clock, caches, unit queues, schedulers, batches, totals) into dst, both drained and of
 * one configuration (0, or -1 with dst unchanged); the bytes such a copy holds. */
int gm_timing_drained(const gm_timing *t);   /* 1: drained */
int gm_timing_copy_state(gm_timing *dst, const gm_timing *src);
size_t gm_timing_state_bytes(const gm_timing *t);

#ifdef __cplusplus
}
#endif
#endif
