/* Internal structures of the timing model (see DESIGN.md). */
#ifndef GM_TIMING_INTERNAL_H
#define GM_TIMING_INTERNAL_H

#include "gm_timing.h"
#include "gm_ir.h"

#include <stddef.h>
#include <stdint.h>

#define TM_NEVER UINT64_MAX

/* Sub-kinds that change how an instruction is timed beyond its class. */
enum {
    TM_K_PLAIN,
    TM_K_MOVE,      /* register moves: one issue cycle whatever the width */
    TM_K_UBO_LOAD,  /* uniform-buffer load: ubo_latency, short scoreboard */
    TM_K_MEM_STORE, /* memory write without a result: drains before retirement */
    TM_K_DYN_LOAD,  /* reads a register chosen at run time: waits for every write */
    TM_K_DYN_STORE, /* writes a register chosen at run time */
    TM_K_TEX_QUERY, /* texture query: no cache access */
};

/* Each opcode's latency class (gm_lat_class) and kind (TM_K_*) before its operands refine them,
 * generated from gpu_model/ir/gm_opcodes.py (gm_timing_opdata.c). */
extern const uint8_t tm_op_latency[GM_OP_COUNT];
extern const uint8_t tm_op_kind[GM_OP_COUNT];

/* What the scheduler needs to know about one PC, computed once per program. */
typedef struct tm_pcinfo {
    uint8_t cls;          /* gm_lat_class */
    uint8_t kind;         /* TM_K_* */
    uint8_t barrier;
    uint8_t private_exec; /* touches only the warp's own state: may run ahead of its issue */
    uint8_t timed_wait;   /* waiting for it depends only on the warp's own ready cycles (no
                             barrier, no queue space): its states follow from them alone */
    uint8_t private_why;  /* ALU, transcendental, branch: stall reason of a dependant */
    uint16_t issue_cycles;
    uint32_t private_latency; /* those classes: result latency (the configuration's) */
    int32_t dst, dst_n;   /* destination register words (dst_n 0: none) */
    int32_t src_first, src_count; /* (word, count) pairs in tm_prog.ranges */
    int32_t chk_count;    /* src_count, plus 1 when the destination range follows them */
    int32_t words_first;  /* the same words one by one in tm_prog.words (gm_timing_ops.c) */
    int32_t words_n;      /* -1: too many, check the ranges */
} tm_pcinfo;

typedef struct tm_prog {
    const gm_program *p;
    tm_pcinfo *pc;
    uint8_t *private_pc;  /* pc[i].private_exec as a flat array, for gm_warp_run_private */
    uint8_t *ahead_pc;    /* private_pc plus texture instructions (run-ahead across TEX,
                             gm_timing_ahead.c) */
    int32_t *ranges;
    int32_t *words;       /* flat scoreboard words (tm_pcinfo.words_first) */
    int nregs;
} tm_prog;

/* Builds the per-PC table (ops.c). cfg gives the issue costs; barrier hook optional. */
tm_prog *tm_prog_build(const gm_program *p, const gm_timing_config *cfg,
                       gm_timing_barrier_fn barrier, void *barrier_ctx);
void tm_prog_free(tm_prog *tp);

/* ---- texture cache (texcache.c) ---- */
typedef struct tm_cache {
    uint64_t *tag;    /* lines; 0 = invalid (tags never are 0) */
    uint64_t *stamp;  /* LRU: last use */
    int sets, ways;
    uint64_t clock;
} tm_cache;

int tm_cache_init(tm_cache *c, int lines, int ways);
void tm_cache_free(tm_cache *c);
/* Looks a line up, fills it on a miss. Returns 1 on a hit. */
int tm_cache_access(tm_cache *c, uint64_t tag);

/* Texture sizes a batch has asked the pipeline for (unit, level) -> size. */
typedef struct tm_texsize {
    uint32_t unit;
    int level;         /* -1: the level count entry */
    int32_t size[3];
} tm_texsize;

/* The cache lines one texture instruction touches (deduplicated). */
#define TM_MAX_TAGS 512
typedef struct tm_tagset {
    uint64_t tags[TM_MAX_TAGS];
    int count;
    int overflow;      /* more distinct lines than fit: counted, not listed */
    uint16_t slot[1024];  /* open-addressing index into tags (+1), per request */
    uint32_t stamp[1024];
    uint32_t gen;
} tm_tagset;

struct tm_batch;
/* Adds the lines a sampler request touches (texcache.c). size_fn asks the pipeline. */
typedef int (*tm_size_fn)(void *ctx, uint32_t unit, int level, int32_t size[3]);
void tm_tex_lines(const gm_sample_request *req, uint32_t texture_id, tm_size_fn size,
                  void *size_ctx, tm_tagset *out);
void tm_tagset_reset(tm_tagset *s);
/* The same lines in the same order, every lane on its own (no four-lane path): for tests. */
void tm_tex_lines_by_lane(const gm_sample_request *req, uint32_t texture_id, tm_size_fn size,
                          void *size_ctx, tm_tagset *out);


/* ---- the model ---- */
/* The fields a scheduler visit reads for every resident warp come first, in one cache
 * line (warps are allocated 64-byte aligned): a visit then touches one line per warp. */
typedef struct tm_warp {
    uint64_t wait_until;   /* cached timed wait (state wait_state until then) */
    uint64_t until;        /* state holds at least until this cycle (idle skip) */
    uint64_t state_since;  /* stall accounting is lazy: counted when the state changes */
    uint64_t max_reg_ready;
    tm_prog *tp;
    uint64_t *ready;       /* scoreboard: cycle each register word is written */
    int pc;                /* next instruction */
    gm_mask mask;
    uint8_t finished;
    uint8_t wait_state;
    uint8_t state;         /* this cycle's gm_stall */
    uint8_t state_valid;
    uint8_t ready_cached;  /* evaluated eligible; stays so until it issues */
    uint8_t at_barrier, barrier_go;
    /* second line on */
    uint8_t *rcls;         /* stall reason while waiting for that word */
    uint64_t fetch_ready, branch_ready, wild_ready, max_ready;
    /* Event-driven warps (not in tm_sp.slow): the scoreboard wait of the next instruction,
     * computed at issue (cycle its sources and destination are written, reason meanwhile);
     * with fetch_ready and branch_ready it gives every state until the next issue, which
     * are counted then from state_since on (gm_timing_sched.c, settle()). */
    uint64_t sb_need;
    uint8_t sb_why;
    struct gm_timing *t;
    gm_warp *w;
    void *user;
    int batch, index, group;
    int warp_id;
    uint64_t seq;
    int sm, slot, sp;      /* -1 while queued */
    gm_run_status status;
    uint64_t retire_at;
    int observed;          /* issue observer already saw the pending instruction */
    /* Run-ahead: instructions the executor has already run, not yet issued (oldest first,
     * in the slot's trace arrays); tr_status is the executor's status after the last. */
    int tr_head, tr_n;
    gm_run_status tr_status;
    int tr_lanes_counted;  /* the trace's lane instructions were counted when it was run */
    int tr_ahead_end;      /* trace entries before this one may be issued ahead (issue_ahead,
                              gm_timing_sched.c); <= tr_head: not known yet (0 for a new trace) */
    int32_t *tr_pc;
    gm_mask *tr_mask;
    gm_env env;            /* the caller's environment (restored at retirement) */
    uint8_t tex_ahead;     /* may run ahead across texture instructions (gm_timing_ahead.c) */
    struct tm_warp *next_free; /* in gm_timing.free_warps once retired */
    struct gm_timing_pre *pre; /* launch and first run-ahead done elsewhere (gm_timing_pre.c) */
} tm_warp;
_Static_assert(offsetof(tm_warp, rcls) <= 64, "a visit's fields of tm_warp fit one cache line");

/* Most instructions a warp runs ahead of its issue (see gm_timing_sched.c). */
#define TM_TRACE_CAP 256

typedef struct tm_slot {
    tm_warp *w;
    uint64_t *ready;
    uint8_t *rcls;
    int cap;
    int32_t *tr_pc;        /* run-ahead trace of the resident warp (TM_TRACE_CAP) */
    gm_mask *tr_mask;
    int tr_cap;            /* entries of tr_pc/tr_mask beyond TM_TRACE_CAP once grown (0: not) */
    struct tm_ahead *ahead; /* texture lines of the trace's TEX entries (gm_timing_ahead.c) */
} tm_slot;

/* Most warp slots of one sub-partition (warp_slots_per_sm <= 64). */
#define TM_MAX_POS 64
#define TM_NO_STATE 0xfe

typedef struct tm_sp {
    /* A compact view of this sub-partition's warps (position pos = slot / sub-partitions),
     * so a visit reads one small array instead of every warp: the warp, its stall-or-
     * eligible value and the cycle until which that value is known not to change (0:
     * look again), and the state last given to it (TM_NO_STATE: none yet). */
    tm_warp *pw[TM_MAX_POS];
    uint64_t known[TM_MAX_POS];
    uint8_t kst[TM_MAX_POS];
    uint8_t cur[TM_MAX_POS];
    /* Event-driven positions (resident, not in `slow`): the cycle the warp's next
     * instruction becomes eligible, computed at its issue; TM_NEVER for the others. A
     * position is slow while its warp's next instruction waits for something shared (queue
     * space, a barrier) or it finished: those are evaluated at visits (known, kst, cur). */
    uint64_t rdy[TM_MAX_POS];
    uint64_t slow;         /* bit per position */
    int npos;
    uint64_t busy_until;
    tm_warp *busy_warp;
    int last_pos;          /* LRR: position of the last issuer among this sp's slots */
    int resident;          /* resident warps of this sub-partition (empty ones are skipped) */
    uint64_t last_seq;     /* GTO: the last issuer */
} tm_sp;

typedef struct tm_sm {
    tm_slot *slots;
    tm_sp *sps;
    /* Per sub-partition: the first cycle at which it can issue or any of its warps can
     * change state; cycles before it are skipped (<= the current cycle: evaluate at the
     * next visit). One array, so the cycle loop reads the SM's wakes from one place. */
    uint64_t wake[TM_MAX_POS];
    int resident;
    int finished;          /* resident warps that finished (retire_due skips SMs without) */
    uint64_t retire_min;   /* no finished warp retires before this cycle (0: scan) */
    int launched;          /* launched a warp/group this cycle */
    tm_cache cache;
    uint64_t *tex_free;    /* per texture unit: first free cycle */
    uint64_t *tex_out;     /* completion cycles of outstanding texture requests */
    int tex_out_n;
    uint64_t mem_free;
    uint64_t *mem_out;
    int mem_out_n;
    gm_timing_slot_sample *samples;
} tm_sm;

typedef struct tm_group {
    int members, arrived, finished;
} tm_group;

typedef struct tm_batch {
    gm_timing_batch_desc d;
    uint32_t *tex_ids;
    int closed, released, done, started;
    int submitted, retired;
    tm_group *groups;
    int group_count;
    tm_texsize *sizes;
    int size_n, size_cap;
    gm_timing_stats st;
} tm_batch;

struct gm_timing {
    gm_timing_config cfg;
    tm_sm *sms;
    tm_batch *batches;
    int batch_n, batch_cap;
    tm_warp **queue;       /* submitted, not launched, in order */
    tm_warp *free_warps;   /* retired warps' memory, reused by gm_timing_submit (an aligned
                              allocation per warp cost ~600 host instructions) */
    size_t q_head, q_n, q_cap;
    tm_prog **progs;
    int prog_n;
    uint64_t cycle, seq;
    int next_sm;
    int resident;
    /* Resumable position inside a cycle (after an observer pause). */
    int in_cycle, cur_sm, cur_sp, any_issue, any_launch;
    uint64_t cycle_wake;   /* earliest wake of the resident sub-partitions seen this cycle */
    tm_warp *paused;
    const gm_warp *await;
    int await_done;
    int error_pending;
    char err[256];
    tm_warp *capture;      /* warp whose texture requests are being recorded */
    tm_tagset tags;
    tm_warp *ahead;        /* warp running ahead across texture instructions (its requests'
                              lines go into its trace, gm_timing_ahead.c) */
    int tex_ahead;         /* gm_timing_set_tex_run_ahead: given to the warps submitted next */
    gm_sample_request *qreq; /* size queries */
    gm_texel_out *qout;
    gm_timing_issue_fn issue_fn; void *issue_ctx;
    gm_timing_cycle_fn cycle_fn; void *cycle_ctx;
    gm_timing_mem_fn mem_fn; void *mem_ctx;
    gm_timing_retire_fn retire_fn; void *retire_ctx;
    gm_timing_barrier_fn barrier_fn; void *barrier_ctx;
    gm_timing_stats total;
    void (*pre_wait_fn)(void *ctx, void *owner); void *pre_wait_ctx; /* gm_timing_pre.c */
};

/* gm_timing_sched.c */
gm_timing_status tm_run(gm_timing *t);
/* gm_timing_error.c */
void tm_set_error(gm_timing *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* gm_timing.c */
tm_prog *tm_prog_for(gm_timing *t, const gm_program *p);

#endif
