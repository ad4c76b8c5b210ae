/* gmt_prog.h - what PC sampling and edge profiles need to know about a shader program,
 * copied from the IR when a program is first seen (internal to this folder).
 *
 * Programs are identified by (gm_program pointer, GL context, captured program name, stage):
 * everything later reports needs (per-PC block, line, file; block layout, static successors,
 * function names) is copied, so reports stay valid after the frame runner destroys its
 * programs. */
#ifndef GMT_PROG_H
#define GMT_PROG_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu_model.h"

/* Per-PC flags. */
#define GMT_PC_BRANCH 1u     /* a control-flow op: terminator or call (ends a straight run) */
#define GMT_PC_TERMINATOR 2u /* last instruction of its block */

typedef struct gmt_prog_block {
    int first_pc, last_pc;
    int line_min, line_max;
    int func;                /* index into funcs */
    int n_succ;
    int *succ;               /* static successors of the terminator (block indexes) */
} gmt_prog_block;

typedef struct gmt_prog {
    const void *key;         /* the gm_program pointer when it was seen (identity only) */
    uint32_t ctx_id, program;
    gm_stage stage;
    int pc_count;
    int *block_of;           /* pc -> block (-1 before the first block) */
    int *line_of;            /* pc -> source line */
    uint8_t *flags;          /* pc -> GMT_PC_* */
    uint16_t *file_of;       /* pc -> index into files (0xffff: none) */
    char **files;
    int file_count;
    int block_count;
    gmt_prog_block *blocks;
    char **funcs;
    int func_count;
} gmt_prog;

/* A growable table of programs with a one-entry cache for the issue path. */
typedef struct gmt_progs {
    gmt_prog **v;
    int n, cap;
    int last;                /* cache: index of the last lookup */
} gmt_progs;

/* Finds or adds the program. -1 on out of memory. */
int gmt_progs_get(gmt_progs *t, const gm_program *p, uint32_t ctx_id, uint32_t program);
void gmt_progs_free(gmt_progs *t);
/* First file name of a program ("" when none). */
const char *gmt_prog_file(const gmt_prog *g);
/* File of one PC, or NULL. */
const char *gmt_prog_pc_file(const gmt_prog *g, int pc);
/* The program a warp runs (reads the executor's warp; see gmt_prog.c). */
const gm_program *gmt_warp_program(const gm_warp *w);
/* Order programs for reports: ctx, program, stage, then first-seen. */
int gmt_prog_cmp(const gmt_prog *a, const gmt_prog *b);

/* splitmix64: the deterministic pseudo-random source of both modules. */
static inline uint64_t gmt_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* Line i (1-based) of a text: pointer and length, or NULL. */
const char *gmt_source_line(const char *text, int line, int *len);

#endif
