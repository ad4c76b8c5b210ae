/* gmt_pcsamp_internal.h - state of the PC sampler shared by gmt_pcsamp.c (sampling) and
 * gmt_pcsamp_report.c (aggregation, outputs). Internal to this folder. */
#ifndef GMT_PCSAMP_INTERNAL_H
#define GMT_PCSAMP_INTERNAL_H

#include "gmt_pcsamp.h"
#include "gmt_prog.h"

typedef struct gmt_sm_acct {
    uint64_t points, samples, dropped_idle, dropped_full;
    int rr;                  /* slot sampled last (round robin) */
} gmt_sm_acct;

/* What a batch of the timing model ran, learned from its first issued instruction. */
typedef struct gmt_batch_info {
    int known;
    int prog;                /* index into progs, -1 unknown */
    int64_t draw;
    gm_stage stage;
    uint32_t ctx_id, program;
} gmt_batch_info;

struct gmt_pcsamp {
    gmt_pcsamp_config cfg;
    int nsm, nslots;
    uint64_t mask;           /* period - 1 */
    uint64_t off_period;     /* period whose random offset is cached */
    uint64_t off;
    gmt_sm_acct *sm;
    int seen;
    uint64_t first_cycle, end_cycle;
    gmt_pc_sample *rec;
    size_t n, cap;
    int *rec_prog;           /* per record: program index (after finish) */
    gmt_batch_info *batches;
    int nb;
    uint32_t cur_ctx, cur_prog;
    gmt_progs progs;
    int finished;
    int oom;
    gmt_pcsamp_line *lines;
    size_t nlines;
    int *line_prog;          /* per aggregated line: program index (-1 unknown) */
};

#endif
