/* Per-PC analysis for the timing model: each IR instruction's latency class and the
 * register words it reads and writes (for the scoreboard). The class follows the IR's
 * opcode groups (gm_ir.h): everything is ALU except the resource ops, the control-flow
 * group, divisions and the GLSL.std.450 functions a GPU runs on its special-function
 * unit. Operand extents follow the executor's semantics of d/a/b/c/n/x per op. */
#include "gm_timing_internal.h"
#include "gm_spirv_tables.h"
#include "gm_opcodes.h"

#include <spirv/unified1/GLSL.std.450.h>
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

/* Unary ops of the arithmetic groups (b is not an operand; flagged unary in gm_opcodes.py). */
static int is_unary(int op)
{
    return op >= 0 && op < GM_OP_COUNT && (gm_op_table[op].flags & GM_OPF_UNARY);
}

/* Fills dst and the source ranges of one instruction. */
static void operands(const gm_program *p, const gm_inst *in, tm_pcinfo *pi, rlist *r)
{
    const int nr = p->nregs, n = in->n;
    const uint32_t *aux = p->aux;
    pi->dst = (int32_t)in->d;
    pi->dst_n = n;
    int rows = in->x & 0xff, cols = (in->x >> 8) & 0xff;
    switch (in->op) {
    case GM_OP_NOP: case GM_OP_BRANCH: case GM_OP_RETURN: case GM_OP_KILL: case GM_OP_DEMOTE:
    case GM_OP_UNREACHABLE: case GM_OP_CALL:
        pi->dst_n = 0;
        break;
    case GM_OP_BRANCH_COND: case GM_OP_SWITCH:
        pi->dst_n = 0;
        add(r, in->a, 1, nr);
        break;
    case GM_OP_COPY_LIST:
        /* Pairs (dst, src): the destination range is their span; sources one by one. */
        pi->dst_n = 0;
        if (in->x + 2u * (uint32_t)n <= (uint32_t)p->aux_count && n > 0) {
            uint32_t lo = UINT32_MAX, hi = 0;
            for (int k = 0; k < n; k++) {
                uint32_t dw = aux[in->x + 2 * k], sw = aux[in->x + 2 * k + 1];
                lo = dw < lo ? dw : lo;
                hi = dw + 1 > hi ? dw + 1 : hi;
                add(r, sw, 1, nr);
            }
            pi->dst = (int32_t)lo;
            pi->dst_n = (int32_t)(hi - lo);
        }
        break;
    case GM_OP_PHI:
        if (in->x < (uint32_t)p->aux_count) {
            uint32_t pairs = aux[in->x];
            for (uint32_t i = 0; i < pairs && in->x + 2 + 2 * i < (uint32_t)p->aux_count; i++)
                add(r, aux[in->x + 2 + 2 * i], n, nr);
        }
        break;
    case GM_OP_STORE: case GM_OP_RETURN_VALUE:
        add(r, in->a, n, nr);
        break;
    case GM_OP_UNI_LOAD: case GM_OP_IS_HELPER:
        break;
    case GM_OP_UNI_LOAD_DYN: case GM_OP_REG_LOAD_DYN: case GM_OP_BUF_LOAD:
    case GM_OP_ADDR_CONST: case GM_OP_BUF_LENGTH:
        add(r, in->a, 1, nr);
        break;
    case GM_OP_REG_STORE_DYN:
        pi->dst_n = 0;
        add(r, in->a, 1, nr);
        add(r, in->b, n, nr);
        break;
    case GM_OP_BUF_STORE:
        pi->dst_n = 0;
        add(r, in->a, 1, nr);
        add(r, in->c, n, nr);
        break;
    case GM_OP_BUF_ATOMIC: {
        pi->dst_n = 1;
        add(r, in->a, 1, nr);
        if (in->b)
            add(r, in->b, 1, nr);
        if (in->c)
            add(r, in->c, 1, nr);
        break;
    }
    case GM_OP_ADDR_ADD:
        pi->dst_n = 1;
        add(r, in->a, 1, nr);
        add(r, in->b, 1, nr);
        break;
    case GM_OP_VEC_TIMES_SCALAR:
        add(r, in->a, n, nr);
        add(r, in->b, 1, nr);
        break;
    case GM_OP_MAT_TIMES_VEC:
        pi->dst_n = rows;
        add(r, in->a, rows * cols, nr);
        add(r, in->b, cols, nr);
        break;
    case GM_OP_VEC_TIMES_MAT:
        pi->dst_n = cols;
        add(r, in->a, rows, nr);
        add(r, in->b, rows * cols, nr);
        break;
    case GM_OP_MAT_TIMES_MAT: {
        int inner = cols, c2 = (in->x >> 16) & 0xff;
        pi->dst_n = rows * c2;
        add(r, in->a, rows * inner, nr);
        add(r, in->b, inner * c2, nr);
        break;
    }
    case GM_OP_OUTER:
        pi->dst_n = rows * cols;
        add(r, in->a, rows, nr);
        add(r, in->b, cols, nr);
        break;
    case GM_OP_TRANSPOSE:
        pi->dst_n = rows * cols;
        add(r, in->a, rows * cols, nr);
        break;
    case GM_OP_DOT:
        pi->dst_n = 1;
        add(r, in->a, n, nr);
        add(r, in->b, n, nr);
        break;
    case GM_OP_ANY: case GM_OP_ALL:
        pi->dst_n = 1;
        add(r, in->a, n, nr);
        break;
    case GM_OP_IADD_CARRY: case GM_OP_ISUB_BORROW: case GM_OP_UMUL_EXT: case GM_OP_SMUL_EXT:
        pi->dst_n = 2 * n;
        add(r, in->a, n, nr);
        add(r, in->b, n, nr);
        break;
    case GM_OP_BFI:
        add(r, in->a, n, nr);
        add(r, in->b, n, nr);
        if (in->x + 1 < (uint32_t)p->aux_count) {
            add(r, aux[in->x], 1, nr);
            add(r, aux[in->x + 1], 1, nr);
        }
        break;
    case GM_OP_BFE_S: case GM_OP_BFE_U:
        add(r, in->a, n, nr);
        add(r, in->b, 1, nr);
        add(r, in->c, 1, nr);
        break;
    case GM_OP_SELECT:
        add(r, in->a, in->x ? 1 : n, nr);
        add(r, in->b, n, nr);
        add(r, in->c, n, nr);
        break;
    case GM_OP_VEC_EXTRACT_DYN:
        pi->dst_n = 1;
        add(r, in->a, (int)(in->x & 0xffffu), nr);
        add(r, in->b, 1, nr);
        break;
    case GM_OP_VEC_INSERT_DYN:
        add(r, in->a, n, nr);
        add(r, in->b, 1, nr);
        add(r, in->c, 1, nr);
        break;
    case GM_OP_EXT: {
        unsigned inst = in->x & 0xffff;
        int in_n = (int)(in->x >> 16), nops = gm_glsl450_operand_count(inst);
        if (inst == GLSLstd450ModfStruct || inst == GLSLstd450FrexpStruct)
            pi->dst_n = 2 * n;
        if (nops > 0)
            add(r, in->a, in_n, nr);
        if (nops > 1)
            add(r, in->b, in_n, nr);
        if (nops > 2)
            add(r, in->c, in_n, nr);
        break;
    }
    case GM_OP_LALU: { /* 64-bit integers: comparisons read 2n words a side */
        int op = (int)(in->x & 0xffff), sn = op >= GM_OP_IEQ && op <= GM_OP_UGE ? 2 * n : n;
        add(r, in->a, sn, nr);
        if (op != GM_OP_SNEG && op != GM_OP_NOT)
            add(r, in->b, in->x & GM_I64_B32 ? sn / 2 : sn, nr);
        break;
    }
    case GM_OP_LCONV: /* source words: half, twice or as many as the result's */
        add(r, in->a, in->x <= GM_I64_ZEXT || in->x == GM_I64_F2S || in->x == GM_I64_F2U ? n / 2
                      : in->x == GM_I64_TRUNC || in->x == GM_I64_S2F || in->x == GM_I64_U2F ? 2 * n
                      : n, nr);
        break;
    case GM_OP_LEXT:
        add(r, in->a, n, nr);
        if (in->x != GLSLstd450SAbs && in->x != GLSLstd450SSign)
            add(r, in->b, n, nr);
        if (in->x == GLSLstd450SClamp || in->x == GLSLstd450UClamp)
            add(r, in->c, n, nr);
        break;
    case GM_OP_SUBGROUP: /* a: the operand's words (none for built-ins), b: an invocation */
        if (in->x >> 8)
            add(r, in->a, (int)(in->x >> 8), nr);
        if ((in->x & 0xff) == GM_SG_READ_INVOCATION)
            add(r, in->b, 1, nr);
        break;
    case GM_OP_TEX: case GM_OP_IMAGE: {
        if (in->x >= (uint32_t)p->tex_count)
            break;
        const gm_tex_desc *t = &p->tex[in->x];
        if (in->op == GM_OP_IMAGE && t->image_op == GM_IMG_STORE)
            pi->dst_n = 0;
        add(r, t->handle, 1, nr);
        add(r, t->coord, t->coord_n, nr);
        const int singles[] = {t->dref, t->lod, t->bias, t->sample, t->min_lod, t->component,
                               t->data2};
        for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++)
            add(r, singles[i], 1, nr);
        add(r, t->grad_x, t->grad_n, nr);
        add(r, t->grad_y, t->grad_n, nr);
        add(r, t->offset, 3, nr);
        add(r, t->data, t->data_n, nr);
        break;
    }
    default:
        /* Element-wise arithmetic, logic, comparisons, conversions: d, a, b of n words. */
        add(r, in->a, n, nr);
        if (!is_unary(in->op))
            add(r, in->b, n, nr);
        break;
    }
    if (pi->dst < 0 || pi->dst >= nr) {
        pi->dst = 0;
        pi->dst_n = 0;
    } else if (pi->dst + pi->dst_n > nr) {
        pi->dst_n = nr - pi->dst;
    }
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
    if (!tp->pc || !tp->private_pc) {
        free(tp->pc);
        free(tp->private_pc);
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
        /* Issue-port occupancy: arithmetic on a scalar ISA issues once per result word. */
        int words = pi->dst_n > 0 ? pi->dst_n : 1;
        int cost = 1;
        if (kind == TM_K_PLAIN && cls == GM_LAT_ALU)
            cost = words * cfg->alu_cycles_per_word;
        else if (cls == GM_LAT_TRANSCENDENTAL)
            cost = words * cfg->sfu_cycles_per_word;
        pi->issue_cycles = (uint16_t)(cost < 1 ? 1 : cost > 1024 ? 1024 : cost);
    }
    if (r.failed) {
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
    free(tp->ranges);
    free(tp);
}
