/* Internals of the exact-size trace buffers (see DESIGN.md). Not installed; the files of this
 * folder share it. */
#ifndef GMT_TB_INTERNAL_H
#define GMT_TB_INTERNAL_H

#include <stdatomic.h>

#include "gmt_tracebuf.h"
#include "gm_exec.h" /* struct gm_warp: register file, program, call depth (read only) */

/* A register word of a chosen variable that an instruction writes (statically known). */
typedef struct gmt_tb_regw {
    uint16_t var;   /* chosen variable index */
    uint16_t comp;  /* word inside the variable */
    uint32_t word;  /* register word */
} gmt_tb_regw;

/* A straight-line piece of a block: from the block's first pc, or from the pc after a call,
 * to the next call or the block's terminator. Entered only at its first pc, it issues every
 * instruction to its end exactly once (calls and terminators end segments; kills are
 * terminators), so its records per execution are static. */
typedef struct gmt_tb_seg {
    int block;
    int first_pc, end_pc;       /* [first, end) */
    int block_start;            /* 1: entering it enters the block (a flow record) */
    uint32_t nrec[GMT_TB_TYPE_COUNT];
    uint64_t count;             /* executions in pass 1 */
    uint64_t count2;            /* executions in pass 2 (checked against count) */
} gmt_tb_seg;

/* What an instruction records. */
enum { GMT_TB_PC_NONE = 0, GMT_TB_PC_MEM = 1, GMT_TB_PC_TEX = 2 };

typedef struct gmt_tb_prog {
    const gm_program *p;        /* of the current pass (pointers differ between passes; only
                                   compared, never read after the pass) */
    uint32_t gl_program;
    gm_stage stage;
    int code_count, block_count;
    int seg_count;
    gmt_tb_seg *segs;
    int32_t *seg_at;            /* per pc: segment starting there, or -1 */
    uint8_t *pc_kind;           /* per pc: GMT_TB_PC_* */
    uint32_t *regw_first;       /* per pc + 1: reg writes of pc are [first[pc], first[pc+1]) */
    gmt_tb_regw *regw;
    int seen_in_pass2;
    uint32_t vars_found;        /* bit c: chosen variable c is a register variable here */
} gmt_tb_prog;

/* A reservation: where the next record of a type goes in the current segment at one call
 * depth, and how many remain. */
typedef struct gmt_tb_slot {
    uint8_t *next[GMT_TB_TYPE_COUNT];
    uint32_t left[GMT_TB_TYPE_COUNT];
} gmt_tb_slot;

/* The reg records of the last issued instruction: their values are read at the warp's next
 * issue, when the write has happened (a write never ends a segment, so there is one). */
typedef struct gmt_tb_pending {
    uint8_t *dst;               /* first reserved record (they are contiguous) */
    uint32_t first, count;      /* the instruction's entries in the program's regw */
    uint32_t seq0;              /* per-warp number of the first */
    uint32_t mask;
    uint32_t draw;
    int pc, line;
} gmt_tb_pending;

/* Per live warp (keyed by warp_seq). */
typedef struct gmt_tb_warp {
    uint64_t warp_seq;
    int used;
    int prog;                   /* trace program index */
    uint32_t seq;               /* next per-warp record number */
    uint64_t written[GMT_TB_TYPE_COUNT];
    gmt_tb_pending pending;     /* count 0: none */
    gmt_tb_slot slot[GM_MAX_CALL_DEPTH];
} gmt_tb_warp;

typedef struct gmt_tb_buffer {
    uint8_t *base;
    uint64_t size;              /* exact bytes */
    _Atomic uint64_t cursor;    /* bytes reserved so far */
} gmt_tb_buffer;

struct gmt_tracebuf {
    gmt_tracebuf_config cfg;
    int pass;                   /* hooks handed out for this pass (0: none yet) */
    bool sized, finished;

    gmt_tb_prog *progs;
    int nprogs, progs_cap;
    int pass2_progs;            /* programs met so far in pass 2 (matched by order) */
    uint32_t cur_gl_program;    /* program of the running draw (draw_begin) */

    /* Live warps: open addressing on warp_seq (cleared at every draw end). */
    gmt_tb_warp *warps;
    size_t warps_cap, warps_used;
    gmt_tb_warp *last_warp;     /* one-entry cache of the hot path */
    const gm_program *last_p;   /* pass 1: one-entry program cache */
    uint32_t last_gl;
    int last_prog;

    gmt_tb_buffer buf[GMT_TB_TYPE_COUNT];
    uint64_t records[GMT_TB_TYPE_COUNT];
    _Atomic uint64_t written[GMT_TB_TYPE_COUNT];
    uint64_t block_executions;
    uint64_t warps_seen;
    uint64_t lost_pending;      /* reg records whose warp issued nothing after the write */

    /* Single-buffer reference (cfg.reference): records appended in issue order. */
    uint8_t *ref;
    size_t ref_size, ref_cap;
    bool ref_failed;

    /* Merged trace: pointers into the type buffers in (warp_seq, seq) order. */
    const gmt_tb_key **merged;
    size_t nmerged;

    char error[256];            /* first failure inside a hook (reported by finish) */
};

/* gmt_tb_program.c */
int gmt_tb_prog_find(gmt_tracebuf *t, const gm_program *p, uint32_t gl_program);
void gmt_tb_prog_free(gmt_tb_prog *g);

/* gmt_tb_record.c: forgets the live warps after adding up what they wrote (finish). */
void gmt_tb_warps_flush(gmt_tracebuf *t);

/* gmt_tb_config.c */
void gmt_tb_fail(gmt_tracebuf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gmt_tb_key_cmp(const gmt_tb_key *a, const gmt_tb_key *b);
/* Sorts records (pointers) by key. */
void gmt_tb_sort_keys(const gmt_tb_key **v, size_t n);

#endif
