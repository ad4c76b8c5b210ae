/* The executor's pre-decoded form: once per program (gm_program_create), each instruction that
 * has one gets a handler specialised for its opcode and width, run when the warp's whole mask
 * is active (the common case). A handler is a constant-trip-count loop over n*32 words with no
 * operand-overlap test, so gcc vectorizes it without the run-time checks, the remainder loop,
 * the big switch and the register saves of exec_alu (gm_exec.c), which stays the path for every
 * other opcode and for operands that overlap. A second table holds the variants for partially
 * active warps (divergent branches, triangle edges): the same loop into the warp's scratch
 * words and exec_alu's blend of the active lanes, as exec_alu does.
 *
 * Same bits as exec_alu: every lane computes the same IEEE operation in the same order (C11
 * mode: no contraction; no FMA enabled in either clone). A handler is installed only where its
 * loop order cannot change a result: the destination words are the sources' words exactly or
 * share none with them (the decoder's SSA values never overlap; checked anyway).
 * This file is compiled with -fno-strict-aliasing: words are read as float/int/uint. */
#include "gm_exec.h"

#include <stdlib.h>
#include <string.h>

#define W(r) (w->R[(r)])

/* "No loop-carried dependence" in each compiler's words (gcc's pragma is unknown to clang, and
 * warnings are errors). */
#if defined(__clang__)
#define GM_IVDEP _Pragma("clang loop vectorize(assume_safety)")
#elif defined(__GNUC__)
#define GM_IVDEP _Pragma("GCC ivdep")
#else
#define GM_IVDEP
#endif

/* Element-wise ops (a and b n words each; results of type TO from operands of type TA). Loop
 * order is ascending like exec_alu's: with whole 32-lane words either equal or disjoint, any in-order vector width
 * up to 32 lanes reads exactly what the scalar loop reads (ivdep says so to gcc). */
#define EWX(name, TO, TA, BSRC, expr)                                                        \
    static inline __attribute__((always_inline)) void name##_k(gm_warp *w, const gm_inst *in, \
                                                               void *out, int n32)           \
    {                                                                                        \
        TO *o = (TO *)out;                                                                   \
        const TA *a = (const TA *)W(in->a), *b = (const TA *)W(BSRC);                        \
        (void)b;                                                                             \
        GM_IVDEP for (int i = 0; i < n32; i++) o[i] = (expr);                                \
    }                                                                                        \
    GM_CLONES_AVX2 static int name##_1(gm_warp *w, const gm_inst *in)                        \
    { name##_k(w, in, W(in->d), 1 * GM_LANES); return 0; }                                   \
    GM_CLONES_AVX2 static int name##_2(gm_warp *w, const gm_inst *in)                        \
    { name##_k(w, in, W(in->d), 2 * GM_LANES); return 0; }                                   \
    GM_CLONES_AVX2 static int name##_3(gm_warp *w, const gm_inst *in)                        \
    { name##_k(w, in, W(in->d), 3 * GM_LANES); return 0; }                                   \
    GM_CLONES_AVX2 static int name##_4(gm_warp *w, const gm_inst *in)                        \
    { name##_k(w, in, W(in->d), 4 * GM_LANES); return 0; }                                   \
    GM_CLONES_AVX2 static int name##_m(gm_warp *w, const gm_inst *in)                        \
    {                                                                                        \
        name##_k(w, in, w->scratch, in->n * GM_LANES);                                       \
        gm_exec_blend(&W(in->d), w->scratch, in->n, w->lane_bits);                           \
        return 0;                                                                            \
    }                                                                                        \
    static const gm_fast_op name##_by_n[5] = {name##_1, name##_2, name##_3, name##_4, name##_m};
#define EW2(name, T, BSRC, expr) EWX(name, T, T, BSRC, expr)

/* The same expressions as exec_alu's cases (a, b: the operands as T; results stored as T; a
 * unary op reads no b: b is a again). Add and multiply are below, on the shared loops. */
EW2(f_sub, float, in->b, a[i] - b[i])
EW2(f_div, float, in->b, a[i] / b[i])
EW2(f_neg, float, in->a, -a[i])
EW2(i_add, uint32_t, in->b, a[i] + b[i])
EW2(i_sub, uint32_t, in->b, a[i] - b[i])
EW2(i_mul, uint32_t, in->b, a[i] * b[i])
EW2(u_and, uint32_t, in->b, a[i] & b[i])
EW2(u_or, uint32_t, in->b, a[i] | b[i])
EW2(u_xor, uint32_t, in->b, a[i] ^ b[i])
EW2(u_not, uint32_t, in->a, ~a[i])
EW2(i_eq, uint32_t, in->b, a[i] == b[i])
EW2(i_ne, uint32_t, in->b, a[i] != b[i])
EW2(s_lt, int32_t, in->b, a[i] < b[i])
EW2(s_le, int32_t, in->b, a[i] <= b[i])
EW2(s_gt, int32_t, in->b, a[i] > b[i])
EW2(s_ge, int32_t, in->b, a[i] >= b[i])
EW2(u_lt, uint32_t, in->b, a[i] < b[i])
EW2(u_ge, uint32_t, in->b, a[i] >= b[i])

/* Comparisons and conversions: the result's type is not the operands'. */
EWX(f_oeq, uint32_t, float, in->b, a[i] == b[i])
EWX(f_olt, uint32_t, float, in->b, a[i] < b[i])
EWX(f_ole, uint32_t, float, in->b, a[i] <= b[i])
EWX(f_ogt, uint32_t, float, in->b, a[i] > b[i])
EWX(f_oge, uint32_t, float, in->b, a[i] >= b[i])
EWX(f_une, uint32_t, float, in->b, !(a[i] == b[i]))
EWX(s_to_f, float, int32_t, in->a, (float)a[i])
EWX(u_to_f, float, uint32_t, in->a, (float)a[i])

/* Add, multiply, vector * scalar (b one word) and dot call the loops the general path calls
 * (gm_exec_farith.c): when both operands are NaN, which payload comes out is the compiler's
 * choice of operand order, so one shared loop is the only way both paths return the same NaN
 * under every compiler (clang's order differed from gcc's; test_exec_fast caught it). */
#define SHARED(name, call, words)                                                            \
    static int name(gm_warp *w, const gm_inst *in)                                           \
    {                                                                                        \
        call((float *)W(in->d), (const float *)W(in->a), (const float *)W(in->b), NARG);     \
        return 0;                                                                            \
    }                                                                                        \
    static int name##_m(gm_warp *w, const gm_inst *in)                                       \
    {                                                                                        \
        call((float *)w->scratch, (const float *)W(in->a), (const float *)W(in->b), NARG);   \
        gm_exec_blend(&W(in->d), w->scratch, (words), w->lane_bits);                         \
        return 0;                                                                            \
    }
#define NARG (in->n * GM_LANES)
SHARED(f_add_n, gm_farith_add, in->n)
SHARED(f_mul_n, gm_farith_mul, in->n)
#undef NARG
#define NARG (in->n)
SHARED(vts_n, gm_farith_vts, in->n)
SHARED(dot_n, gm_farith_dot, 1)
#undef NARG
static const gm_fast_op f_add_by_n[5] = {f_add_n, f_add_n, f_add_n, f_add_n, f_add_n_m};
static const gm_fast_op f_mul_by_n[5] = {f_mul_n, f_mul_n, f_mul_n, f_mul_n, f_mul_n_m};
static const gm_fast_op vts_by_n[5] = {NULL, vts_n, vts_n, vts_n, vts_n_m};
static const gm_fast_op dot_by_n[5] = {NULL, dot_n, dot_n, dot_n, dot_n_m};

/* GLSL.std.450 (gm_exec_ext.c): the general path's own call with the general path's output
 * (the destination words for a full warp, the scratch words blended in for a partial one), so
 * the bits are the same by construction; what it saves is exec_alu's prologue and switch. An
 * instruction gm_exec_ext does not know sets the error: the general path then runs it again and
 * reports it the same way (the first message is kept). */
static int ext_full(gm_warp *w, const gm_inst *in)
{
    gm_exec_ext(w, in, &W(in->d));
    return w->error ? 1 : 0;
}

static int ext_masked(gm_warp *w, const gm_inst *in)
{
    gm_exec_ext(w, in, w->scratch);
    if (w->error)
        return 1;
    gm_exec_blend(&W(in->d), w->scratch, gm_exec_ext_words(in), w->lane_bits);
    return 0;
}

/* Whole-word copies between disjoint words (COPY, and STORE's full-mask case), in 32-byte
 * vector moves: a memcpy of a size known here became `rep movsq`, and exec_alu's memmove a
 * libc call, each several times the moves. */
typedef uint32_t gm_v8u __attribute__((vector_size(32), aligned(4)));

static inline __attribute__((always_inline)) void copy_k(gm_lanes *dst, const gm_lanes *src, int n)
{
    gm_v8u *o = (gm_v8u *)dst;
    const gm_v8u *a = (const gm_v8u *)src;
#pragma GCC unroll 16
    for (int i = 0; i < n * (int)(sizeof(gm_lanes) / sizeof(gm_v8u)); i++)
        o[i] = a[i];
}
GM_CLONES_AVX2 static int copy_1(gm_warp *w, const gm_inst *in)
{
    copy_k(&W(in->d), &W(in->a), 1);
    return 0;
}
GM_CLONES_AVX2 static int copy_2(gm_warp *w, const gm_inst *in)
{
    copy_k(&W(in->d), &W(in->a), 2);
    return 0;
}
GM_CLONES_AVX2 static int copy_3(gm_warp *w, const gm_inst *in)
{
    copy_k(&W(in->d), &W(in->a), 3);
    return 0;
}
GM_CLONES_AVX2 static int copy_4(gm_warp *w, const gm_inst *in)
{
    copy_k(&W(in->d), &W(in->a), 4);
    return 0;
}
/* A partially active COPY: exec_alu's own blend from the source words. */
static int copy_m(gm_warp *w, const gm_inst *in)
{
    gm_exec_blend(&W(in->d), &W(in->a), in->n, w->lane_bits);
    return 0;
}
static const gm_fast_op copy_by_n[5] = {copy_1, copy_2, copy_3, copy_4, copy_m};

/* STORE: x & 1 leaves helper lanes out; with any helper lane the general path blends (1). */
#define STORE_N(k)                                                                           \
    GM_CLONES_AVX2 static int store_##k(gm_warp *w, const gm_inst *in)                                      \
    {                                                                                        \
        if ((in->x & 1) && w->helper)                                                        \
            return 1;                                                                        \
        copy_k(&W(in->d), &W(in->a), k);                                                     \
        return 0;                                                                            \
    }
STORE_N(1)
STORE_N(2)
STORE_N(3)
STORE_N(4)
/* A partially active STORE: exec_store's blend, whose bits are the mask's unless helper lanes
 * of the mask must be left out (then the general path). */
static int store_m(gm_warp *w, const gm_inst *in)
{
    if ((in->x & 1) && (w->mask & w->helper))
        return 1;
    gm_exec_blend(&W(in->d), &W(in->a), in->n, w->lane_bits);
    return 0;
}
static const gm_fast_op store_by_n[5] = {store_1, store_2, store_3, store_4, store_m};

/* UNI_LOAD: uniform words (in->a, an offset into the program's uniform memory) broadcast to
 * every lane; the partial variant blends them in as exec_alu does. */
static inline __attribute__((always_inline)) void uni_k(gm_warp *w, const gm_inst *in, gm_lanes *o,
                                                        int n)
{
    const uint32_t *u = w->p->umem + in->a;
    for (int k = 0; k < n; k++)
        for (int l = 0; l < GM_LANES; l++)
            o[k][l] = u[k];
}
#define UNI_N(k)                                                                             \
    GM_CLONES_AVX2 static int uni_##k(gm_warp *w, const gm_inst *in)                         \
    {                                                                                        \
        uni_k(w, in, &W(in->d), k);                                                          \
        return 0;                                                                            \
    }
UNI_N(1)
UNI_N(2)
UNI_N(3)
UNI_N(4)
static int uni_m(gm_warp *w, const gm_inst *in)
{
    uni_k(w, in, w->scratch, in->n);
    gm_exec_blend(&W(in->d), w->scratch, in->n, w->lane_bits);
    return 0;
}
static const gm_fast_op uni_by_n[5] = {uni_1, uni_2, uni_3, uni_4, uni_m};

/* COPY_LIST: one-word pairs in order (exec_copy_list's memcpy per pair); a pair's words are
 * the same or disjoint, so a 128-byte copy through registers is the same. */
GM_CLONES_AVX2 static int copy_list(gm_warp *w, const gm_inst *in)
{
    const uint32_t *pairs = w->p->aux + in->x;
    gm_lanes *R = w->R;
    for (int k = 0; k < in->n; k++) {
        gm_v8u t[sizeof(gm_lanes) / sizeof(gm_v8u)];
        const gm_v8u *a = (const gm_v8u *)R[pairs[2 * k + 1]];
        gm_v8u *o = (gm_v8u *)R[pairs[2 * k]];
#pragma GCC unroll 4
        for (int i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
            t[i] = a[i];
#pragma GCC unroll 4
        for (int i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
            o[i] = t[i];
    }
    return 0;
}

/* A partially active COPY_LIST: exec_copy_list's blend per pair, in order. */
static int copy_list_m(gm_warp *w, const gm_inst *in)
{
    const uint32_t *pairs = w->p->aux + in->x;
    for (int k = 0; k < in->n; k++)
        gm_exec_blend(&W(pairs[2 * k]), (const gm_lanes *)&W(pairs[2 * k + 1]), 1, w->lane_bits);
    return 0;
}

/* [d, d+nd) and [s, s+ns) either the same start (element-wise in place) or disjoint. */
static int same_or_disjoint(uint32_t d, uint32_t nd, uint32_t s, uint32_t ns)
{
    return d == s || d + nd <= s || s + ns <= d;
}

static int disjoint(uint32_t d, uint32_t nd, uint32_t s, uint32_t ns)
{
    return d + nd <= s || s + ns <= d;
}

/* Dynamic register and uniform loads and address arithmetic (arrays indexed at run time): exec_alu's
 * loops exactly, in the same order of reads and writes through the same words (a destination
 * among the words a dynamic index reaches gets the same bits), without its prologue and switch.
 * Partially active warps: into the scratch words, then exec_alu's blend. */
static inline __attribute__((always_inline)) void reg_load_dyn(gm_warp *w, const gm_inst *in, uint32_t *ou)
{
    const uint32_t *au = W(in->a), limit = (uint32_t)w->p->nregs;
    const uint32_t *regs = (const uint32_t *)w->R;
    for (int k = 0; k < (int)in->n; k++)
        for (int l = 0; l < GM_LANES; l++) {
            /* an address out of range reads word 0 and keeps none of it: no branch, so the
             * loop becomes a gather */
            const uint32_t addr = (au[l] & ~GM_ADDR_NOSTORE) + (uint32_t)k, in_range = 0u - (uint32_t)(addr < limit);
            ou[k * GM_LANES + l] = regs[(size_t)(addr & in_range) * GM_LANES + (size_t)l] & in_range;
        }
}
static inline __attribute__((always_inline)) void uni_load_dyn(gm_warp *w, const gm_inst *in, uint32_t *ou)
{
    const uint32_t *au = W(in->a), *u = w->p->umem, limit = (uint32_t)w->p->umem_words;
    for (int k = 0; k < (int)in->n; k++)
        for (int l = 0; l < GM_LANES; l++) {
            const uint32_t addr = (au[l] & ~GM_ADDR_NOSTORE) + (uint32_t)k;
            ou[k * GM_LANES + l] = addr < limit ? u[addr] : 0;
        }
}
static inline __attribute__((always_inline)) void addr_add(gm_warp *w, const gm_inst *in, uint32_t *ou)
{
    const uint32_t *au = W(in->a), *bu = W(in->b);
    const int32_t *bi = (const int32_t *)W(in->b);
    const uint32_t stride = w->p->aux[in->x], limit = w->p->aux[in->x + 1], mode = w->p->aux[in->x + 2];
    for (int l = 0; l < GM_LANES; l++) {
        const uint32_t u = bu[l];
        if (u <= limit) {
            ou[l] = au[l] + u * stride;
            continue;
        }
        switch (mode) {
        case GM_INDEX_UMIN: ou[l] = au[l] + limit * stride; break;
        case GM_INDEX_VEC: ou[l] = (au[l] + (bi[l] < 0 ? 0 : limit) * stride) | GM_ADDR_NOSTORE; break;
        case GM_INDEX_ZERO: ou[l] = GM_ADDR_ZERO; break;
        default: ou[l] = au[l] + (bi[l] < 0 ? 0 : limit) * stride; break;
        }
    }
}
#define DYN_HANDLERS(name)                                                  \
    GM_CLONES_AVX2 static int name##_full(gm_warp *w, const gm_inst *in)    \
    {                                                                       \
        name(w, in, W(in->d));                                              \
        return 0;                                                           \
    }                                                                       \
    GM_CLONES_AVX2 static int name##_m(gm_warp *w, const gm_inst *in)       \
    {                                                                       \
        name(w, in, (uint32_t *)w->scratch);                                \
        gm_exec_blend(&W(in->d), w->scratch, (int)in->n, w->lane_bits);     \
        return 0;                                                           \
    }
DYN_HANDLERS(reg_load_dyn)
DYN_HANDLERS(uni_load_dyn)
DYN_HANDLERS(addr_add)
#undef DYN_HANDLERS

/* The handler for one instruction, or NULL (exec_alu / exec_inst run it): the whole-warp one,
 * or with `masked` the one for a partially active warp (results blended in as exec_alu does). */
static gm_fast_op pick(const gm_program *p, const gm_inst *in, int masked)
{
    const uint32_t n = in->n, nregs = (uint32_t)p->nregs;
    if (n < 1)
        return NULL;
    if (in->op == GM_OP_UNI_LOAD) /* a reads uniform memory, not registers */
        return n <= 4 && in->d < nregs && nregs - in->d >= n &&
                       (uint64_t)in->a + n <= (uint64_t)(p->umem_words > 0 ? p->umem_words : 0)
                   ? uni_by_n[masked ? 4 : n - 1]
                   : NULL;
    /* every word a handler touches is inside the register file (the decoder's are) */
    if (in->d >= nregs || in->a >= nregs || nregs - in->d < n || nregs - in->a < n)
        return NULL;
    /* any width: the same call as exec_alu's with the same output words */
    if (in->op == GM_OP_EXT)
        return masked ? ext_masked : ext_full;
    if (in->op == GM_OP_REG_LOAD_DYN || in->op == GM_OP_UNI_LOAD_DYN)
        return in->op == GM_OP_REG_LOAD_DYN ? (masked ? reg_load_dyn_m : reg_load_dyn_full)
                                            : (masked ? uni_load_dyn_m : uni_load_dyn_full);
    if (in->op == GM_OP_ADDR_ADD)
        return n == 1 && in->b < nregs && p->aux_count >= 3 && in->x <= (uint32_t)(p->aux_count - 3)
                   ? (masked ? addr_add_m : addr_add_full)
                   : NULL;
    if (n > 4)
        return NULL;
    const int k = masked ? 4 : (int)n - 1; /* index into a by_n table */
    const gm_fast_op *by_n = NULL;
    int unary = 0;
    switch (in->op) {
    case GM_OP_FADD: by_n = f_add_by_n; break;
    case GM_OP_FSUB: by_n = f_sub_by_n; break;
    case GM_OP_FMUL: by_n = f_mul_by_n; break;
    case GM_OP_FDIV: by_n = f_div_by_n; break;
    case GM_OP_FNEG: by_n = f_neg_by_n; unary = 1; break;
    case GM_OP_IADD: by_n = i_add_by_n; break;
    case GM_OP_ISUB: by_n = i_sub_by_n; break;
    case GM_OP_IMUL: by_n = i_mul_by_n; break;
    case GM_OP_AND: by_n = u_and_by_n; break;
    case GM_OP_OR: by_n = u_or_by_n; break;
    case GM_OP_XOR: by_n = u_xor_by_n; break;
    case GM_OP_NOT: by_n = u_not_by_n; unary = 1; break;
    case GM_OP_IEQ: by_n = i_eq_by_n; break;
    case GM_OP_INE: by_n = i_ne_by_n; break;
    case GM_OP_SLT: by_n = s_lt_by_n; break;
    case GM_OP_SLE: by_n = s_le_by_n; break;
    case GM_OP_SGT: by_n = s_gt_by_n; break;
    case GM_OP_SGE: by_n = s_ge_by_n; break;
    case GM_OP_ULT: by_n = u_lt_by_n; break;
    case GM_OP_UGE: by_n = u_ge_by_n; break;
    case GM_OP_FOEQ: by_n = f_oeq_by_n; break;
    case GM_OP_FOLT: by_n = f_olt_by_n; break;
    case GM_OP_FOLE: by_n = f_ole_by_n; break;
    case GM_OP_FOGT: by_n = f_ogt_by_n; break;
    case GM_OP_FOGE: by_n = f_oge_by_n; break;
    case GM_OP_FUNE: by_n = f_une_by_n; break;
    case GM_OP_S2F: by_n = s_to_f_by_n; unary = 1; break;
    case GM_OP_U2F: by_n = u_to_f_by_n; unary = 1; break;
    case GM_OP_VEC_TIMES_SCALAR:
        if (in->b >= nregs || !disjoint(in->d, n, in->b, 1) || !same_or_disjoint(in->d, n, in->a, n))
            return NULL;
        return vts_by_n[k];
    case GM_OP_DOT:
        if (in->b >= nregs || nregs - in->b < n || !disjoint(in->d, 1, in->a, n) ||
            !disjoint(in->d, 1, in->b, n))
            return NULL;
        return dot_by_n[k];
    case GM_OP_COPY:
        return disjoint(in->d, n, in->a, n) ? copy_by_n[k] : NULL;
    case GM_OP_STORE:
        return disjoint(in->d, n, in->a, n) ? store_by_n[k] : NULL;
    default:
        return NULL;
    }
    if (!same_or_disjoint(in->d, n, in->a, n))
        return NULL;
    if (!unary && (in->b >= nregs || nregs - in->b < n || !same_or_disjoint(in->d, n, in->b, n)))
        return NULL;
    return by_n[k];
}

static gm_fast_op pick_copy_list(const gm_program *p, const gm_inst *in, int masked)
{
    const uint32_t nregs = (uint32_t)p->nregs;
    if ((uint64_t)in->x + 2u * (uint64_t)in->n > (uint64_t)p->aux_count)
        return NULL;
    for (int k = 0; k < in->n; k++)
        if (p->aux[in->x + 2 * k] >= nregs || p->aux[in->x + 2 * k + 1] >= nregs)
            return NULL;
    return masked ? copy_list_m : copy_list;
}

int gm_exec_fast_build(gm_program *p)
{
    free(p->fast);
    p->fast = NULL;
    if (p->code_count <= 0)
        return 0;
    /* code_count full-warp handlers, then code_count for partially active warps */
    gm_fast_op *fast = calloc(2 * (size_t)p->code_count, sizeof *fast);
    if (!fast)
        return -1;
    for (int pc = 0; pc < p->code_count; pc++) {
        const gm_inst *in = &p->code[pc];
        for (int masked = 0; masked < 2; masked++)
            fast[masked * p->code_count + pc] = in->op == GM_OP_COPY_LIST
                                                    ? pick_copy_list(p, in, masked)
                                                    : pick(p, in, masked);
    }
    p->fast = fast;
    return 0;
}

gm_fast_op gm_exec_fast_handler(const gm_program *p, int pc, int masked)
{
    if (!p->fast || pc < 0 || pc >= p->code_count)
        return NULL;
    return p->fast[(masked ? p->code_count : 0) + pc];
}
