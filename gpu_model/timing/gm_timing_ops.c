/* Per-PC analysis for the timing model: each IR instruction's latency class and the
 * register words it reads and writes (for the scoreboard). The class follows the IR's
 * opcode groups (gm_ir.h): everything is ALU except the resource ops, the control-flow
 * group, divisions and the GLSL.std.450 functions a GPU runs on its special-function
 * unit. Operand extents follow the executor's semantics of d/a/b/c/n/x per op. */
#include "gm_timing_internal.h"
#include "gm_spirv_tables.h"
#include "gm_opcodes.h"
#include "gm_op_operands.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* GLSL.std.450 instructions executed by a special-function unit (or made of them). */
static int ext_is_transcendental(unsigned inst)
{
    switch (inst) {
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Tan:
    case GLSLstd450Asin: case GLSLstd450Acos: case GLSLstd450Atan:
    case GLSLstd450Sinh: case GLSLstd450Cosh: case GLSLstd450Tanh:
    case GLSLstd450Asinh: case GLSLstd450Acosh: case GLSLstd450Atanh: case GLSLstd450Atan2:
    case GLSLstd450Pow: case GLSLstd450Exp: case GLSLstd450Log: case GLSLstd450Exp2:
    case GLSLstd450Log2: case GLSLstd450Sqrt: case GLSLstd450InverseSqrt:
    case GLSLstd450Normalize: case GLSLstd450Length: case GLSLstd450Distance:
    case GLSLstd450Refract: case GLSLstd450MatrixInverse: case GLSLstd450Determinant:
        return 1;
    default:
        return 0;
    }
}

/* The opcode's class and kind (gpu_model/ir/gm_opcodes.py), refined by the operands for
 * uniform-buffer loads, image stores, texture queries and the GLSL.std.450 functions. */
static gm_lat_class class_of(const gm_program *p, const gm_inst *in, int *kind)
{
    *kind = TM_K_PLAIN;
    if (in->op >= GM_OP_COUNT)
        return GM_LAT_ALU;
    *kind = tm_op_kind[in->op];
    switch (in->op) {
    case GM_OP_BUF_LOAD:
        if ((in->x & 3) == GM_BUFFER_UNIFORM)
            *kind = TM_K_UBO_LOAD;
        break;
    case GM_OP_IMAGE:
        if (in->x < (uint32_t)p->tex_count && p->tex[in->x].image_op == GM_IMG_STORE)
            *kind = TM_K_MEM_STORE;
        break;
    case GM_OP_TEX:
        if (in->x < (uint32_t)p->tex_count) {
            int k = p->tex[in->x].kind;
            if (k != GM_TEX_SAMPLE && k != GM_TEX_FETCH && k != GM_TEX_GATHER)
                *kind = TM_K_TEX_QUERY;
        }
        break;
    case GM_OP_EXT:
        return ext_is_transcendental(in->x & 0xffff) ? GM_LAT_TRANSCENDENTAL : GM_LAT_ALU;
    default:
        break;
    }
    return (gm_lat_class)tm_op_latency[in->op];
}

/* Whether executing the instruction touches nothing but the warp's own registers and
 * control state, so it may run before its issue cycle (run-ahead, gm_timing_sched.c):
 * no texture/image/buffer/shared-memory access, no barrier, no geometry emission (the
 * opcodes flagged shared in gm_opcodes.py). */
static int is_private(const gm_inst *in)
{
    return in->op < GM_OP_COUNT && !(gm_op_table[in->op].flags & GM_OPF_SHARED);
}

/* Growing list of (word, count) source ranges. */
typedef struct {
    int32_t *v;
    int n, cap;
    int failed;
} rlist;

static void add(rlist *r, int64_t word, int64_t count, int nregs)
{
    if (count <= 0 || word < 0 || word >= nregs)
        return;
    if (word + count > nregs)
        count = nregs - word;
    if (r->n + 2 > r->cap) {
        int cap = r->cap ? r->cap * 2 : 256;
        int32_t *v = realloc(r->v, (size_t)cap * sizeof *v);
        if (!v) {
            r->failed = 1;
            return;
        }
        r->v = v;
        r->cap = cap;
    }
    r->v[r->n++] = (int32_t)word;
    r->v[r->n++] = (int32_t)count;
}

typedef struct {
    rlist *r;
    int nregs;
} src_ctx;

static void add_src(void *ctx, int64_t word, int64_t words, gm_op_type type)
{
    (void)type;
    src_ctx *c = ctx;
    add(c->r, word, words, c->nregs);
}

/* Fills dst and the source ranges of one instruction: the operand extents gm_opcodes.py
 * declares (gm_op_operands), clamped to the program's registers. */
static void operands(const gm_program *p, const gm_inst *in, tm_pcinfo *pi, rlist *r)
{
    const int nr = p->nregs;
    src_ctx c = { r, nr };
    int32_t dst, dst_n;
    gm_op_operands(p, in, &dst, &dst_n, NULL, add_src, &c);
    pi->dst = dst;
    pi->dst_n = dst_n;
    if (pi->dst < 0 || pi->dst >= nr) {
        pi->dst = 0;
        pi->dst_n = 0;
    } else if (pi->dst + pi->dst_n > nr) {
        pi->dst_n = nr - pi->dst;
    }
}

/* The scoreboard check's words one by one (tm_pcinfo.words_first), in the order of the
 * ranges, for the instructions that check at most TM_FLAT_MAX words: the check is then one
 * loop over a list instead of a loop over ranges and one over each range's words. Wider
 * ones (copies of whole arrays) keep the ranges, so the list stays small.
 *
 * Two kinds of words are left out of the list, neither of which can change the check's
 * answer (the latest ready cycle and the reason of the first word that has it):
 *  - words no instruction of the program writes (constants, inputs: `init_regs`): the
 *    scheduler writes a ready cycle only for an instruction's destination range
 *    (gm_timing_sched.c, record_result), so theirs is 0 or a stale cycle of an earlier
 *    warp in the slot, which retired before this warp was placed: never after the cycle the
 *    check is made for, and the check only matters when the answer is later than that
 *    (a wait); among words at or before that cycle the maximum and its reason are not used;
 *  - a word listed a second time (`dot(v, v)`): it has the same ready cycle as its first
 *    occurrence, so it never is strictly later ("first maximum wins"). */
#define TM_FLAT_MAX 64

/* Appends the words of pc's ranges that are written by the program and not yet listed;
 * returns how many (at most TM_FLAT_MAX + 1: then too many). out NULL: counts only. */
static int flat_words(const rlist *r, const tm_pcinfo *pi, const uint8_t *written,
                      int32_t *out)
{
    int32_t seen[TM_FLAT_MAX];
    int n = 0;
    for (int i = 0; i < pi->chk_count; i++) {
        const int32_t lo = r->v[2 * (pi->src_first + i)], cnt = r->v[2 * (pi->src_first + i) + 1];
        for (int k = lo; k < lo + cnt; k++) {
            if (!written[k])
                continue;
            int dup = 0;
            for (int j = 0; j < n && !dup; j++)
                dup = seen[j] == k;
            if (dup)
                continue;
            if (n == TM_FLAT_MAX)
                return TM_FLAT_MAX + 1;
            if (out)
                out[n] = k;
            seen[n++] = k;
        }
    }
    return n;
}

static int flatten(tm_prog *tp, const rlist *r)
{
    /* Which words some instruction's destination range covers (what record_result writes). */
    uint8_t *written = calloc((size_t)(tp->nregs > 0 ? tp->nregs : 1), 1);
    if (!written)
        return -1;
    for (int pc = 0; pc < tp->p->code_count; pc++) {
        const tm_pcinfo *pi = &tp->pc[pc];
        for (int k = pi->dst; k < pi->dst + pi->dst_n; k++)
            written[k] = 1;
    }
    size_t total = 0;
    for (int pc = 0; pc < tp->p->code_count; pc++) {
        tm_pcinfo *pi = &tp->pc[pc];
        const int n = flat_words(r, pi, written, NULL);
        pi->words_n = n <= TM_FLAT_MAX ? n : -1;
        pi->words_first = (int32_t)total;
        if (n <= TM_FLAT_MAX)
            total += (size_t)n;
    }
    if (total > INT32_MAX) {
        free(written);
        return -1;
    }
    tp->words = malloc((total > 0 ? total : 1) * sizeof *tp->words);
    if (!tp->words) {
        free(written);
        return -1;
    }
    for (int pc = 0; pc < tp->p->code_count; pc++) {
        const tm_pcinfo *pi = &tp->pc[pc];
        if (pi->words_n >= 0)
            (void)flat_words(r, pi, written, tp->words + pi->words_first);
    }
    free(written);
    return 0;
}

tm_prog *tm_prog_build(const gm_program *p, const gm_timing_config *cfg,
                       gm_timing_barrier_fn barrier, void *barrier_ctx)
{
    tm_prog *tp = calloc(1, sizeof *tp);
    if (!tp)
        return NULL;
    tp->p = p;
    tp->nregs = p->nregs;
    tp->pc = calloc((size_t)(p->code_count > 0 ? p->code_count : 1), sizeof *tp->pc);
    tp->private_pc = calloc((size_t)(p->code_count > 0 ? p->code_count : 1), 1);
    tp->ahead_pc = calloc((size_t)(p->code_count > 0 ? p->code_count : 1), 1);
    if (!tp->pc || !tp->private_pc || !tp->ahead_pc) {
        free(tp->pc);
        free(tp->private_pc);
        free(tp->ahead_pc);
        free(tp);
        return NULL;
    }
    rlist r = {0};
    for (int pc = 0; pc < p->code_count; pc++) {
        const gm_inst *in = &p->code[pc];
        tm_pcinfo *pi = &tp->pc[pc];
        int kind;
        gm_lat_class cls = class_of(p, in, &kind);
        pi->src_first = r.n / 2;
        operands(p, in, pi, &r);
        pi->src_count = r.n / 2 - pi->src_first;
        /* The destination's range right after the sources: the scoreboard check reads
         * sources then destination (write after write) as one flat list. */
        add(&r, pi->dst, pi->dst_n, p->nregs);
        pi->chk_count = r.n / 2 - pi->src_first;
        if (barrier && barrier(barrier_ctx, p, pc)) {
            cls = GM_LAT_BARRIER;
            pi->barrier = 1;
        }
        pi->cls = (uint8_t)cls;
        pi->kind = (uint8_t)kind;
        pi->private_exec = !pi->barrier && is_private(in) &&
                           (cls == GM_LAT_ALU || cls == GM_LAT_TRANSCENDENTAL ||
                            cls == GM_LAT_BRANCH);
        tp->private_pc[pc] = pi->private_exec;
        /* Texture fetches and queries read only what the caller vouches is fixed for the
         * batch when it allows run-ahead across them (gm_timing_ahead.c). */
        tp->ahead_pc[pc] = pi->private_exec || (!pi->barrier && in->op == GM_OP_TEX);
        /* Mirrors the order of evaluate() in gm_timing_sched.c: a wait before this
         * instruction ends on the warp's own clocks unless it waits for a barrier or for
         * queue space (shared with the other warps of its SM). */
        pi->timed_wait = !pi->barrier && cls != GM_LAT_TEXTURE &&
                         !(cls == GM_LAT_MEMORY && kind != TM_K_UBO_LOAD);
        /* What issuing a private-class instruction writes (gm_timing_sched.c,
         * private_done), read from the PC instead of chosen per issue. */
        pi->private_latency = (uint32_t)cfg->latency[cls];
        pi->private_why = cls == GM_LAT_TRANSCENDENTAL ? GM_STALL_SHORT_SCOREBOARD
                                                       : GM_STALL_EXEC_DEPENDENCY;
        /* Issue-port occupancy: arithmetic on a scalar ISA issues once per result word. */
        int words = pi->dst_n > 0 ? pi->dst_n : 1;
        int cost = 1;
        if (kind == TM_K_PLAIN && cls == GM_LAT_ALU)
            cost = words * cfg->alu_cycles_per_word;
        else if (cls == GM_LAT_TRANSCENDENTAL)
            cost = words * cfg->sfu_cycles_per_word;
        pi->issue_cycles = (uint16_t)(cost < 1 ? 1 : cost > 1024 ? 1024 : cost);
    }
    if (r.failed || flatten(tp, &r) != 0) {
        free(r.v);
        tm_prog_free(tp);
        return NULL;
    }
    tp->ranges = r.v;
    return tp;
}

void tm_prog_free(tm_prog *tp)
{
    if (!tp)
        return;
    free(tp->pc);
    free(tp->private_pc);
    free(tp->ahead_pc);
    free(tp->ranges);
    free(tp->words);
    free(tp);
}
