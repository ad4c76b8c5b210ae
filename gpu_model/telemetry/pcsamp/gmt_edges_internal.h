/* gmt_edges_internal.h - state of the edge profiler shared by gmt_edges.c (tracing,
 * sampling, rebuilding) and gmt_edges_report.c (outputs). Internal to this folder. */
#ifndef GMT_EDGES_INTERNAL_H
#define GMT_EDGES_INTERNAL_H

#include "gmt_edges.h"
#include "gmt_prog.h"

/* One ring entry: a taken branch (from_pc -> to_pc; to_pc -1: warp end) or a warp-launch
 * marker (from_pc -1, to_pc: the first PC). */
typedef struct gmt_ring_ent {
    int prog;
    int from_pc, to_pc;
} gmt_ring_ent;

/* A retired-branch counter and the value at which it next triggers a sample. */
typedef struct gmt_bcounter {
    uint64_t counter, next_sample, nsamples;
} gmt_bcounter;

/* One hardware warp slot: the warp in it, its ring and its retired-branch counter. */
typedef struct gmt_slot {
    int live;
    uint64_t warp_seq;
    int prog;
    int last_pc;
    gmt_ring_ent ring[GMT_EDGES_RING];
    int ring_head, ring_n;   /* next write position, entries held */
    gmt_bcounter count;
} gmt_slot;

/* Edge profile of one program: edges plus an open-addressing index on (from, to). */
typedef struct gmt_eprof {
    gmt_edge *edges;
    int n, cap;
    int *index;              /* hash slot -> edge + 1 (0 empty) */
    int index_cap;           /* power of two */
    gmt_edges_block *blocks; /* for the public view (built at finish) */
} gmt_eprof;

struct gmt_edges {
    gmt_edges_config cfg;
    int nsm, nslots;
    gmt_slot *slots;
    gmt_bcounter *sm_count;  /* per SM (GMT_EDGES_COUNT_PER_SM) */
    gmt_progs progs;
    gmt_eprof *prof;         /* parallel to progs.v */
    int prof_cap;
    uint32_t cur_ctx, cur_prog;
    gmt_edges_stats st;
    uint64_t bad_events;     /* issue events with an SM/slot out of range or no program */
    int finished, oom;
    int *order;              /* programs in report order (after finish) */
};

#endif
