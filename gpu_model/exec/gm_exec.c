/* The SIMT interpreter loop: one IR instruction at a time for all active lanes of a
 * warp. Values are structure-of-arrays (a register word is 32 lanes), so each ALU op is
 * a flat loop over n*32 words that gcc -O2 vectorizes; when only some lanes are active
 * the result goes to scratch and is blended into the destination. Control flow keeps a
 * next block per lane and reconverges by always running the lowest waiting block.
 * This file is compiled with -fno-strict-aliasing: words are read as float/int/uint. */
#include "gm_exec.h"

#include <limits.h>
#include <math.h>
#include <string.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <emmintrin.h>   /* also _mm_getcsr/_mm_setcsr */
#endif

/* Built for AVX2 too (8 lanes per and/or instead of 4): every partially active instruction
 * ends here, about 3 % of a frame's instructions. */
GM_CLONES_AVX2
void gm_exec_blend(gm_lanes *dst, const gm_lanes *src, int n, const int32_t *lane_bits)
{
    for (int k = 0; k < n; k++) {
        uint32_t *d = dst[k];
        const uint32_t *s = src[k];
        for (int l = 0; l < GM_LANES; l++)
            d[l] = (s[l] & (uint32_t)lane_bits[l]) | (d[l] & ~(uint32_t)lane_bits[l]);
    }
}

/* Chooses the next block to run (lowest block index any live lane waits at) or
 * returns from finished functions. Returns 0 when the warp is done. */
static int schedule(gm_warp *w)
{
    const gm_program *p = w->p;
    for (;;) {
        gm_frame *f = &w->frames[w->depth];
        f->live &= w->alive;
        if (!f->live) {
            if (w->depth == 0)
                return 0;
            w->depth--;
            gm_frame *c = &w->frames[w->depth];
            gm_mask m = c->call_mask & w->alive;
            if (m) {
                gm_exec_set_mask(w, m);
                w->pc = c->return_pc;
                return 1;
            }
            continue;
        }
        int best = INT_MAX;
        for (int l = 0; l < GM_LANES; l++)
            if (((f->live >> l) & 1) && f->next[l] >= 0 && f->next[l] < best)
                best = f->next[l];
        if (best == INT_MAX) {
            f->live = 0;
            continue;
        }
        gm_mask m = 0;
        for (int l = 0; l < GM_LANES; l++)
            if (((f->live >> l) & 1) && f->next[l] == best)
                m |= 1u << l;
        f->block = best;
        w->pc = p->blocks[best].first_pc;
        gm_exec_set_mask(w, m);
        return 1;
    }
}

/* Moves lanes m (a subset of the warp's mask) to block `target` (phis read prev).
 * Branch-free selects over the 32 lanes so gcc vectorizes them; the warp's whole mask,
 * the common case, has its selector words ready (lane_bits). */
static void send_lanes(const gm_warp *w, gm_frame *f, gm_mask m, int target)
{
    if (!m)
        return;
    int32_t bits[GM_LANES];
    const int32_t *sel = w->lane_bits;
    if (m != w->mask) {
        for (int l = 0; l < GM_LANES; l++)
            bits[l] = -(int32_t)((m >> l) & 1u);
        sel = bits;
    }
    const int32_t block = f->block;
    if (m == 0xffffffffu) {   /* a whole warp's uniform branch: plain stores */
        for (int l = 0; l < GM_LANES; l++) {
            f->prev[l] = block;
            f->next[l] = target;
        }
        return;
    }
    for (int l = 0; l < GM_LANES; l++) {
        f->prev[l] = (block & sel[l]) | (f->prev[l] & ~sel[l]);
        f->next[l] = (target & sel[l]) | (f->next[l] & ~sel[l]);
    }
}

/* After a terminator: continue straight into the target when every live lane of the
 * function goes there, else let the scheduler pick. */
static void after_branch(gm_warp *w, gm_frame *f, gm_mask m, int target)
{
    if (m == (f->live & w->alive) && target >= 0) {
        f->block = target;
        w->pc = w->p->blocks[target].first_pc;
    } else {
        w->pc = -1;
    }
}

/* The block a branch to `target` really goes to: a loop's back-edge (a branch to a loop header
 * at or before the current block) spends one iteration of the call's loop budget; once it is
 * spent the lanes leave the loop for its merge block, as llvmpipe's loop limiter makes them. */
static int loop_edge(gm_warp *w, gm_frame *f, int target)
{
    const gm_block *b = &w->p->blocks[target];
    if (b->cont < 0 || target > f->block || b->merge < 0)
        return target;
    if (w->p->abort_flag && *w->p->abort_flag) {
        gm_exec_error(w, "stopped (the run was interrupted)");
        return b->merge;
    }
    if (--f->loop_budget > 0)
        return target;
    w->loop_limited++;
    /* the program's total over its warps, which may run on several threads */
    __atomic_add_fetch(&w->p->loops_limited, 1, __ATOMIC_RELAXED);
    return b->merge;
}

/* The lanes whose word is not 0, as a mask (a branch condition). */
static inline gm_mask lanes_nonzero(const uint32_t *c)
{
    gm_mask t = 0;
#ifdef __SSE2__
    /* four lanes per compare and sign-bit gather; the scalar loop below is a shift and an
     * or per lane that gcc does not vectorize */
    const __m128i zero = _mm_setzero_si128();
    for (int l = 0; l < GM_LANES; l += 4) {
        __m128i z = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(c + l)), zero);
        t |= (gm_mask)(~_mm_movemask_ps(_mm_castsi128_ps(z)) & 0xf) << l;
    }
#else
    for (int l = 0; l < GM_LANES; l++)
        t |= (c[l] != 0 ? 1u : 0u) << l;
#endif
    return t;
}

#define FW(r) ((float *)R[(r)])
#define IW(r) ((int32_t *)R[(r)])
#define UW(r) ((uint32_t *)R[(r)])

static inline int32_t sdiv(int32_t a, int32_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return (int32_t)(0u - (uint32_t)a);
    return a / b;
}

static inline int32_t srem(int32_t a, int32_t b)
{
    if (b == 0 || b == -1)
        return 0;
    return a % b;
}

static inline int32_t smod(int32_t a, int32_t b)
{
    int32_t r = srem(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

static inline int32_t f2s(float x)
{
    if (!(x == x))
        return 0;
    if (x >= 2147483647.0f)
        return INT32_MAX;
    if (x <= -2147483648.0f)
        return INT32_MIN;
    return (int32_t)x;
}

static inline uint32_t f2u(float x)
{
    if (!(x > 0.0f))
        return 0;
    if (x >= 4294967295.0f)
        return UINT32_MAX;
    return (uint32_t)x;
}

static inline uint32_t bit_reverse(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}

static inline uint32_t bits_mask(uint32_t count)
{
    return count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
}

/* Quad derivatives. Lanes 4k..4k+3 are (x,y) (x+1,y) (x,y+1) (x+1,y+1).
 * llvmpipe (gallivm lp_bld_quad) lowers every variant -- plain, Coarse and Fine --
 * to the same per-row d/dx and per-column d/dy differences, so the model does too:
 * the Coarse/Fine distinction in the IR is kept but deliberately not used here. */
static void derivative(const float *v, float *o, int op, float ysign)
{
    for (int q = 0; q < GM_LANES; q += 4) {
        float dx0 = v[q + 1] - v[q], dx1 = v[q + 3] - v[q + 2];
        float dy0 = (v[q + 2] - v[q]) * ysign, dy1 = (v[q + 3] - v[q + 1]) * ysign;
        float dx[4] = {dx0, dx0, dx1, dx1};
        float dy[4] = {dy0, dy1, dy0, dy1};
        for (int i = 0; i < 4; i++)
            o[q + i] = op == GM_OP_DPDX ? dx[i] : op == GM_OP_DPDY ? dy[i]
                                                                   : fabsf(dx[i]) + fabsf(dy[i]);
    }
}

/* Executes one ALU/memory instruction for the active lanes. Returns 0, or -1 on a
 * runtime error (message set). Built twice and picked once at load time (ifunc): the
 * 32-lane loops run 8 lanes per AVX2 instruction instead of 4 with SSE2. Same bits either
 * way: the same IEEE operations per lane, and C11 mode keeps gcc from contracting a * b + c
 * (no FMA is enabled anyway). */
GM_CLONES_AVX2
static int exec_alu(gm_warp *w, const gm_inst *in)
{
    gm_lanes *R = w->R;
    const int full = w->mask == 0xffffffffu;
    gm_lanes *out = full ? &R[in->d] : w->scratch;
    const int n = in->n, n32 = n * GM_LANES;
    float *of = (float *)out;
    int32_t *oi = (int32_t *)out;
    uint32_t *ou = (uint32_t *)out;
    const float *af = FW(in->a), *bf = FW(in->b);
    const int32_t *ai = IW(in->a), *bi = IW(in->b);
    const uint32_t *au = UW(in->a), *bu = UW(in->b), *cu = UW(in->c);
    int commit_n = n;

#define LOOP(expr)                          \
    for (int i = 0; i < n32; i++) {         \
        expr;                               \
    }                                       \
    break

    switch (in->op) {
    case GM_OP_FADD: gm_farith_add(of, af, bf, n32); break;
    case GM_OP_FSUB: LOOP(of[i] = af[i] - bf[i]);
    case GM_OP_FMUL: gm_farith_mul(of, af, bf, n32); break;
    case GM_OP_FDIV: LOOP(of[i] = af[i] / bf[i]);
    case GM_OP_FMOD: LOOP(of[i] = af[i] - bf[i] * gm_floorf(af[i] / bf[i]));
    case GM_OP_FREM: LOOP(of[i] = fmodf(af[i], bf[i]));
    case GM_OP_FNEG: LOOP(of[i] = -af[i]);
    case GM_OP_IADD: LOOP(ou[i] = au[i] + bu[i]);
    case GM_OP_ISUB: LOOP(ou[i] = au[i] - bu[i]);
    case GM_OP_IMUL: LOOP(ou[i] = au[i] * bu[i]);
    case GM_OP_SDIV: LOOP(oi[i] = sdiv(ai[i], bi[i]));
    case GM_OP_UDIV: LOOP(ou[i] = bu[i] ? au[i] / bu[i] : 0);
    case GM_OP_SMOD: LOOP(oi[i] = smod(ai[i], bi[i]));
    case GM_OP_SREM: LOOP(oi[i] = srem(ai[i], bi[i]));
    case GM_OP_UMOD: LOOP(ou[i] = bu[i] ? au[i] % bu[i] : 0);
    case GM_OP_SNEG: LOOP(ou[i] = 0u - au[i]);
    case GM_OP_AND: LOOP(ou[i] = au[i] & bu[i]);
    case GM_OP_OR: LOOP(ou[i] = au[i] | bu[i]);
    case GM_OP_XOR: LOOP(ou[i] = au[i] ^ bu[i]);
    case GM_OP_NOT: LOOP(ou[i] = ~au[i]);
    case GM_OP_SHL: LOOP(ou[i] = au[i] << (bu[i] & 31));
    case GM_OP_SHR_L: LOOP(ou[i] = au[i] >> (bu[i] & 31));
    case GM_OP_SHR_A: LOOP(oi[i] = ai[i] >> (bu[i] & 31));
    case GM_OP_BIT_COUNT: LOOP(ou[i] = (uint32_t)__builtin_popcount(au[i]));
    case GM_OP_BIT_REVERSE: LOOP(ou[i] = bit_reverse(au[i]));
    case GM_OP_LNOT: LOOP(ou[i] = au[i] ? 0 : 1);
    case GM_OP_LAND: LOOP(ou[i] = (au[i] != 0) & (bu[i] != 0));
    case GM_OP_LOR: LOOP(ou[i] = (au[i] != 0) | (bu[i] != 0));
    case GM_OP_LEQ: LOOP(ou[i] = (au[i] != 0) == (bu[i] != 0));
    case GM_OP_LNE: LOOP(ou[i] = (au[i] != 0) != (bu[i] != 0));
    case GM_OP_IEQ: LOOP(ou[i] = au[i] == bu[i]);
    case GM_OP_INE: LOOP(ou[i] = au[i] != bu[i]);
    case GM_OP_SLT: LOOP(ou[i] = ai[i] < bi[i]);
    case GM_OP_SLE: LOOP(ou[i] = ai[i] <= bi[i]);
    case GM_OP_SGT: LOOP(ou[i] = ai[i] > bi[i]);
    case GM_OP_SGE: LOOP(ou[i] = ai[i] >= bi[i]);
    case GM_OP_ULT: LOOP(ou[i] = au[i] < bu[i]);
    case GM_OP_ULE: LOOP(ou[i] = au[i] <= bu[i]);
    case GM_OP_UGT: LOOP(ou[i] = au[i] > bu[i]);
    case GM_OP_UGE: LOOP(ou[i] = au[i] >= bu[i]);
    case GM_OP_FOEQ: LOOP(ou[i] = af[i] == bf[i]);
    case GM_OP_FONE: LOOP(ou[i] = af[i] < bf[i] || af[i] > bf[i]);
    case GM_OP_FOLT: LOOP(ou[i] = af[i] < bf[i]);
    case GM_OP_FOLE: LOOP(ou[i] = af[i] <= bf[i]);
    case GM_OP_FOGT: LOOP(ou[i] = af[i] > bf[i]);
    case GM_OP_FOGE: LOOP(ou[i] = af[i] >= bf[i]);
    case GM_OP_FUEQ: LOOP(ou[i] = !(af[i] < bf[i] || af[i] > bf[i]));
    case GM_OP_FUNE: LOOP(ou[i] = !(af[i] == bf[i]));
    case GM_OP_FULT: LOOP(ou[i] = !(af[i] >= bf[i]));
    case GM_OP_FULE: LOOP(ou[i] = !(af[i] > bf[i]));
    case GM_OP_FUGT: LOOP(ou[i] = !(af[i] <= bf[i]));
    case GM_OP_FUGE: LOOP(ou[i] = !(af[i] < bf[i]));
    case GM_OP_ISNAN: LOOP(ou[i] = isnan(af[i]) ? 1 : 0);
    case GM_OP_ISINF: LOOP(ou[i] = isinf(af[i]) ? 1 : 0);
    case GM_OP_F2S: LOOP(oi[i] = f2s(af[i]));
    case GM_OP_F2U: LOOP(ou[i] = f2u(af[i]));
    case GM_OP_S2F: LOOP(of[i] = (float)ai[i]);
    case GM_OP_U2F: LOOP(of[i] = (float)au[i]);
    case GM_OP_QUANT16: LOOP(of[i] = gm_exec_half_to_float(gm_exec_float_to_half(af[i])));
    case GM_OP_COPY:
        if (full) {
            memmove(out, au, (size_t)n * sizeof(gm_lanes));
            return 0;
        }
        gm_exec_blend(&R[in->d], (const gm_lanes *)au, n, w->lane_bits);
        return 0;
    case GM_OP_VEC_TIMES_SCALAR:
        gm_farith_vts(of, af, bf, n);
        break;
    case GM_OP_DOT:
        commit_n = 1;
        gm_farith_dot(of, af, bf, n);
        break;
    case GM_OP_MAT_TIMES_VEC: {
        int rows = in->x & 0xff, cols = (in->x >> 8) & 0xff;
        commit_n = rows;
        for (int r = 0; r < rows; r++) {
            float *o = of + r * GM_LANES;
            for (int l = 0; l < GM_LANES; l++)
                o[l] = af[r * GM_LANES + l] * bf[l];
            for (int c = 1; c < cols; c++)
                for (int l = 0; l < GM_LANES; l++)
                    o[l] += af[(c * rows + r) * GM_LANES + l] * bf[c * GM_LANES + l];
        }
        break;
    }
    case GM_OP_VEC_TIMES_MAT: {
        int rows = in->x & 0xff, cols = (in->x >> 8) & 0xff;
        commit_n = cols;
        for (int c = 0; c < cols; c++) {
            float *o = of + c * GM_LANES;
            for (int l = 0; l < GM_LANES; l++)
                o[l] = af[l] * bf[(c * rows) * GM_LANES + l];
            for (int r = 1; r < rows; r++)
                for (int l = 0; l < GM_LANES; l++)
                    o[l] += af[r * GM_LANES + l] * bf[(c * rows + r) * GM_LANES + l];
        }
        break;
    }
    case GM_OP_MAT_TIMES_MAT: {
        int rows = in->x & 0xff, inner = (in->x >> 8) & 0xff, cols = (in->x >> 16) & 0xff;
        commit_n = rows * cols;
        for (int c = 0; c < cols; c++)
            for (int r = 0; r < rows; r++) {
                float *o = of + (c * rows + r) * GM_LANES;
                for (int l = 0; l < GM_LANES; l++)
                    o[l] = af[r * GM_LANES + l] * bf[(c * inner) * GM_LANES + l];
                for (int t = 1; t < inner; t++)
                    for (int l = 0; l < GM_LANES; l++)
                        o[l] += af[(t * rows + r) * GM_LANES + l] *
                                bf[(c * inner + t) * GM_LANES + l];
            }
        break;
    }
    case GM_OP_OUTER: {
        int rows = in->x & 0xff, cols = (in->x >> 8) & 0xff;
        commit_n = rows * cols;
        for (int c = 0; c < cols; c++)
            for (int r = 0; r < rows; r++)
                for (int l = 0; l < GM_LANES; l++)
                    of[(c * rows + r) * GM_LANES + l] = af[r * GM_LANES + l] * bf[c * GM_LANES + l];
        break;
    }
    case GM_OP_TRANSPOSE: {
        int rows = in->x & 0xff, cols = (in->x >> 8) & 0xff;
        commit_n = rows * cols;
        for (int c = 0; c < cols; c++)
            for (int r = 0; r < rows; r++)
                for (int l = 0; l < GM_LANES; l++)
                    ou[(r * cols + c) * GM_LANES + l] = au[(c * rows + r) * GM_LANES + l];
        break;
    }
    case GM_OP_IADD_CARRY:
    case GM_OP_ISUB_BORROW:
    case GM_OP_UMUL_EXT:
    case GM_OP_SMUL_EXT:
        commit_n = 2 * n;
        for (int i = 0; i < n32; i++) {
            uint32_t lo, hi;
            if (in->op == GM_OP_IADD_CARRY) {
                lo = au[i] + bu[i];
                hi = lo < au[i];
            } else if (in->op == GM_OP_ISUB_BORROW) {
                lo = au[i] - bu[i];
                hi = au[i] < bu[i];
            } else if (in->op == GM_OP_UMUL_EXT) {
                uint64_t m = (uint64_t)au[i] * bu[i];
                lo = (uint32_t)m;
                hi = (uint32_t)(m >> 32);
            } else {
                int64_t m = (int64_t)ai[i] * bi[i];
                lo = (uint32_t)(uint64_t)m;
                hi = (uint32_t)((uint64_t)m >> 32);
            }
            ou[i] = lo;
            ou[n32 + i] = hi;
        }
        break;
    case GM_OP_BFI: {
        const uint32_t *offs = UW(w->p->aux[in->x]), *cnt = UW(w->p->aux[in->x + 1]);
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++) {
                int i = k * GM_LANES + l;
                uint32_t o = offs[l] & 31, c = cnt[l] > 32 - o ? 32 - o : cnt[l];
                uint32_t m = bits_mask(c) << o;
                ou[i] = (au[i] & ~m) | ((bu[i] << o) & m);
            }
        break;
    }
    case GM_OP_BFE_S:
    case GM_OP_BFE_U:
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++) {
                int i = k * GM_LANES + l;
                uint32_t o = bu[l] & 31, c = cu[l] > 32 - o ? 32 - o : cu[l];
                uint32_t v = c ? (au[i] >> o) & bits_mask(c) : 0;
                if (in->op == GM_OP_BFE_S && c && c < 32 && ((v >> (c - 1)) & 1))
                    v |= ~bits_mask(c);
                ou[i] = v;
            }
        break;
    case GM_OP_ANY:
    case GM_OP_ALL:
        commit_n = 1;
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t r = in->op == GM_OP_ALL;
            for (int k = 0; k < n; k++)
                r = in->op == GM_OP_ALL ? (r && au[k * GM_LANES + l]) : (r || au[k * GM_LANES + l]);
            ou[l] = r;
        }
        break;
    case GM_OP_SELECT:
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++) {
                uint32_t c = in->x ? au[l] : au[k * GM_LANES + l];
                ou[k * GM_LANES + l] = c ? bu[k * GM_LANES + l] : cu[k * GM_LANES + l];
            }
        break;
    case GM_OP_VEC_EXTRACT_DYN: {
        uint32_t size = in->x & 0xffffu;
        commit_n = 1;
        for (int l = 0; l < GM_LANES; l++) {
            /* Mesa's vector extract picks by comparisons: below 0 the first, past the end
             * the last component (measured on llvmpipe with indexes -5, -1, 4, 7); an index
             * known at compile time out of range is undefined (0) */
            uint32_t k = bi[l] < 0 ? 0 : bu[l] < size ? bu[l] : size - 1;
            ou[l] = bu[l] >= size && (in->x & GM_EXTRACT_UNDEF) ? 0 : au[k * GM_LANES + l];
        }
        break;
    }
    case GM_OP_VEC_INSERT_DYN: {
        const uint32_t *idx = cu;
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++)
                ou[k * GM_LANES + l] = idx[l] == (uint32_t)k ? bu[l] : au[k * GM_LANES + l];
        break;
    }
    case GM_OP_DPDX:
    case GM_OP_DPDY:
    case GM_OP_FWIDTH:
        for (int k = 0; k < n; k++)
            derivative(af + k * GM_LANES, of + k * GM_LANES, in->op,
                       (in->x & GM_DERIV_WINDOW_Y) && w->quad_dy < 0 ? -1.0f : 1.0f);
        break;
    case GM_OP_EXT:
        gm_exec_ext(w, in, out);
        commit_n = gm_exec_ext_words(in);
        break;
    case GM_OP_UNI_LOAD: {
        const uint32_t *u = w->p->umem + in->a;
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++)
                ou[k * GM_LANES + l] = u[k];
        break;
    }
    case GM_OP_UNI_LOAD_DYN: {
        const uint32_t *u = w->p->umem;
        uint32_t limit = (uint32_t)w->p->umem_words;
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++) {
                uint32_t addr = (au[l] & ~GM_ADDR_NOSTORE) + (uint32_t)k;
                ou[k * GM_LANES + l] = addr < limit ? u[addr] : 0;
            }
        break;
    }
    case GM_OP_REG_LOAD_DYN: {
        uint32_t limit = (uint32_t)w->p->nregs;
        for (int k = 0; k < n; k++)
            for (int l = 0; l < GM_LANES; l++) {
                uint32_t addr = (au[l] & ~GM_ADDR_NOSTORE) + (uint32_t)k;
                ou[k * GM_LANES + l] = addr < limit ? R[addr][l] : 0;
            }
        break;
    }
    case GM_OP_ADDR_ADD: {
        uint32_t stride = w->p->aux[in->x], limit = w->p->aux[in->x + 1];
        uint32_t mode = w->p->aux[in->x + 2];
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t u = bu[l];
            if (u <= limit) {
                ou[l] = au[l] + u * stride;
                continue;
            }
            switch (mode) {
            case GM_INDEX_UMIN: /* -1 is the largest unsigned index: the last element */
                ou[l] = au[l] + limit * stride;
                break;
            case GM_INDEX_VEC:
                ou[l] = (au[l] + (bi[l] < 0 ? 0 : limit) * stride) | GM_ADDR_NOSTORE;
                break;
            case GM_INDEX_ZERO:
                ou[l] = GM_ADDR_ZERO;
                break;
            default:
                ou[l] = au[l] + (bi[l] < 0 ? 0 : limit) * stride;
                break;
            }
        }
        break;
    }
    case GM_OP_ADDR_CONST:
        for (int l = 0; l < GM_LANES; l++)
            ou[l] = au[l] + in->x;
        break;
    case GM_OP_IS_HELPER:
        for (int l = 0; l < GM_LANES; l++)
            ou[l] = (w->helper >> l) & 1;
        break;
    case GM_OP_BUF_LOAD:
        gm_exec_buf_load(w, in, out);
        break;
    case GM_OP_SH_LOAD:
        gm_exec_sh_load(w, in, out);
        break;
    default:
        if (in->op >= GM_OP_DADD && in->op <= GM_OP_DEXT) {
            gm_exec_f64(w, in, out); /* doubles: n result words */
            break;
        }
        if (in->op == GM_OP_SUBGROUP) {
            gm_exec_subgroup(w, in, out);
            break;
        }
        if (in->op == GM_OP_BUF_LENGTH) {
            gm_exec_buf_length(w, in, out);   /* gm_exec_bufarr.c */
            break;
        }
        if (in->op >= GM_OP_LALU && in->op <= GM_OP_LEXT) {
            gm_exec_i64(w, in, out); /* 64-bit integers: n result words */
            break;
        }
        gm_exec_error(w, "internal error: IR op %d in the ALU path", in->op);
        return -1;
    }
#undef LOOP
    if (!full)
        gm_exec_blend(&R[in->d], w->scratch, commit_n, w->lane_bits);
    return 0;
}

static void exec_phi(gm_warp *w, const gm_inst *in, const gm_frame *f)
{
    const uint32_t *aux = w->p->aux + in->x;
    uint32_t npairs = aux[0];
    /* Phis of one block read their sources before any of them writes (glslang does
     * not chain them; a single pass is exact for it). */
    for (uint32_t i = 0; i < npairs; i++) {
        int32_t pred = (int32_t)aux[1 + 2 * i];
        uint32_t src = aux[2 + 2 * i];
        for (int l = 0; l < GM_LANES; l++)
            if (((w->mask >> l) & 1) && f->prev[l] == pred)
                for (int k = 0; k < in->n; k++)
                    w->R[in->d + k][l] = w->R[src + k][l];
    }
}

static void exec_store(gm_warp *w, const gm_inst *in)
{
    gm_mask m = w->mask;
    if (in->x & 1)
        m &= ~w->helper;
    if (m == 0xffffffffu) {
        memmove(&w->R[in->d], &w->R[in->a], (size_t)in->n * sizeof(gm_lanes));
        return;
    }
    int32_t bits[GM_LANES];
    for (int l = 0; l < GM_LANES; l++)
        bits[l] = (m >> l) & 1 ? -1 : 0;
    gm_exec_blend(&w->R[in->d], &w->R[in->a], in->n, bits);
}

static void exec_copy_list(gm_warp *w, const gm_inst *in)
{
    const uint32_t *pairs = w->p->aux + in->x;
    gm_lanes *R = w->R;
    if (w->mask == 0xffffffffu) {
        for (int k = 0; k < in->n; k++)
            memcpy(R[pairs[2 * k]], R[pairs[2 * k + 1]], sizeof(gm_lanes));
        return;
    }
    for (int k = 0; k < in->n; k++)
        gm_exec_blend(&R[pairs[2 * k]], (const gm_lanes *)&R[pairs[2 * k + 1]], 1, w->lane_bits);
}

static void exec_reg_store_dyn(gm_warp *w, const gm_inst *in)
{
    gm_mask m = w->mask;
    if (in->x & 1)
        m &= ~w->helper;
    const uint32_t *addr = w->R[in->a];
    uint32_t limit = (uint32_t)w->p->nregs;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((m >> l) & 1))
            continue;
        for (int k = 0; k < in->n; k++) {
            uint32_t a = addr[l] + (uint32_t)k;
            if (a < limit)
                w->R[a][l] = w->R[in->b + k][l];
        }
    }
}

/* Executes the instruction at w->pc for the active lanes and moves pc on (-1: the next
 * block is picked by schedule()). The one body of gm_warp_run and gm_warp_run_private,
 * inlined into both so each keeps a dispatch of its own. Returns 0, or -1 on an error
 * (message set). */
static inline __attribute__((always_inline)) int exec_inst(gm_warp *w, const gm_inst *in)
{
    const gm_program *p = w->p;
    /* the pre-decoded form (gm_exec_fast.c): ALU ops and copies without the switches (one table
     * for whole warps, one for partially active ones) */
    if (p->fast) {
        gm_fast_op h = p->fast[w->mask == 0xffffffffu ? w->pc : p->code_count + w->pc];
        if (h && h(w, in) == 0) {
            w->pc++;
            return 0;
        }
    }
    gm_frame *f = &w->frames[w->depth];
    switch (in->op) {
    case GM_OP_NOP:
        w->pc++;
        break;
    case GM_OP_PHI:
        exec_phi(w, in, f);
        w->pc++;
        break;
    case GM_OP_STORE:
        exec_store(w, in);
        w->pc++;
        break;
    case GM_OP_COPY_LIST:
        exec_copy_list(w, in);
        w->pc++;
        break;
    case GM_OP_REG_STORE_DYN:
        exec_reg_store_dyn(w, in);
        w->pc++;
        break;
    case GM_OP_BUF_STORE:
        gm_exec_buf_store(w, in);
        w->pc++;
        break;
    case GM_OP_BUF_ATOMIC:
        gm_exec_buf_atomic(w, in);
        w->pc++;
        break;
    case GM_OP_BARRIER:
        w->barrier_passed = 0;
        w->pc++;
        break;
    case GM_OP_GS_EMIT:
        if (w->gs_emit)
            w->gs_emit(w->gs_emit_ctx, w, (int)(in->x & 1u), (int)(in->x >> 1), w->mask);
        w->pc++;
        break;
    case GM_OP_SH_STORE:
        gm_exec_sh_store(w, in);
        w->pc++;
        break;
    case GM_OP_SH_ATOMIC:
        gm_exec_sh_atomic(w, in);
        w->pc++;
        break;
    case GM_OP_TEX:
        gm_exec_tex(w, in);
        w->pc++;
        break;
    case GM_OP_IMAGE:
        gm_exec_image(w, in);
        w->pc++;
        break;
    case GM_OP_BRANCH: {
        int target = loop_edge(w, f, (int)in->x);
        send_lanes(w, f, w->mask, target);
        after_branch(w, f, w->mask, target);
        break;
    }
    case GM_OP_BRANCH_COND: {
        gm_mask t = lanes_nonzero(w->R[in->a]) & w->mask;
        gm_mask fl = w->mask & ~t;
        int tb = t ? loop_edge(w, f, (int)in->b) : (int)in->b;
        int fb = fl ? loop_edge(w, f, (int)in->c) : (int)in->c;
        send_lanes(w, f, t, tb);
        send_lanes(w, f, fl, fb);
        after_branch(w, f, w->mask, !fl ? tb : !t ? fb : tb == fb ? tb : -1);
        break;
    }
    case GM_OP_SWITCH: {
        const uint32_t *aux = p->aux + in->x;
        uint32_t npairs = aux[0];
        const uint32_t *sel = w->R[in->a];
        int first = -2;
        for (int l = 0; l < GM_LANES; l++) {
            if (!((w->mask >> l) & 1))
                continue;
            int target = (int)aux[1];
            for (uint32_t i = 0; i < npairs; i++)
                if (aux[2 + 2 * i] == sel[l]) {
                    target = (int)aux[3 + 2 * i];
                    break;
                }
            f->prev[l] = f->block;
            f->next[l] = target;
            first = first == -2 || first == target ? target : -1;
        }
        after_branch(w, f, w->mask, first >= 0 ? first : -1);
        break;
    }
    case GM_OP_RETURN_VALUE:
        if (w->mask == 0xffffffffu)
            memmove(&w->R[in->d], &w->R[in->a], (size_t)in->n * sizeof(gm_lanes));
        else
            gm_exec_blend(&w->R[in->d], &w->R[in->a], in->n, w->lane_bits);
        /* fall through */
    case GM_OP_RETURN:
    case GM_OP_UNREACHABLE:
        for (int l = 0; l < GM_LANES; l++)
            if ((w->mask >> l) & 1)
                f->next[l] = -1;
        f->live &= ~w->mask;
        w->pc = -1;
        break;
    case GM_OP_KILL:
        w->alive &= ~w->mask;
        w->killed |= w->mask;
        f->live &= ~w->mask;
        w->pc = -1;
        break;
    case GM_OP_DEMOTE:
        w->helper |= w->mask;
        w->pc++;
        break;
    case GM_OP_CALL: {
        if (w->depth + 1 >= GM_MAX_CALL_DEPTH) {
            gm_exec_error(w, "call stack overflow (recursion?) at line %d", in->line);
            return -1;
        }
        f->return_pc = w->pc + 1;
        f->call_mask = w->mask;
        const gm_function *fn = &p->funcs[in->x];
        gm_frame *g = &w->frames[++w->depth];
        g->func = (int)in->x;
        g->live = w->mask;
        g->block = fn->first_block;
        g->call_mask = 0;
        g->loop_budget = GM_LOOP_ITERATION_LIMIT;
        for (int l = 0; l < GM_LANES; l++) {
            g->next[l] = fn->first_block;
            g->prev[l] = -1;
        }
        w->pc = p->blocks[fn->first_block].first_pc;
        break;
    }
    default:
        if (exec_alu(w, in) != 0)
            return -1;
        w->pc++;
        break;
    }
    return w->error ? -1 : 0;
}

/* llvmpipe runs every shader with denormals flushed: its threads set FTZ and DAZ in MXCSR
 * (util_fpstate_set_denorms_to_zero), so a denormal result becomes zero and a denormal operand
 * counts as zero (piglit fs-underflow-mul-compare-zero: 4.3e-19 * 3.7e-9 * 4.3e-19 is 0 there).
 * The model does the same while a warp runs and restores the caller's mode after, so the host
 * program's own floating point never changes. */
#if defined(__x86_64__) || defined(__SSE2__)
#define GM_MXCSR_FTZ_DAZ 0x8040u
static inline unsigned fp_flush_enter(void)
{
    unsigned old = _mm_getcsr();
    if ((old & GM_MXCSR_FTZ_DAZ) != GM_MXCSR_FTZ_DAZ)
        _mm_setcsr(old | GM_MXCSR_FTZ_DAZ);
    return old;
}
static inline void fp_flush_leave(unsigned old)
{
    if ((old & GM_MXCSR_FTZ_DAZ) != GM_MXCSR_FTZ_DAZ)
        _mm_setcsr(old);
}
#else
static inline unsigned fp_flush_enter(void) { return 0; }
static inline void fp_flush_leave(unsigned old) { (void)old; }
#endif

static gm_run_status warp_run(gm_warp *w, uint64_t max_instructions);

/* Compiled control flow (gm_native_cf) from the first instruction of the current block, when the
 * whole warp runs it together (every lane of the function live, alive and active, as after_branch
 * needs to go straight on). The frame is left as the interpreter would leave it: each taken
 * branch sets every lane's prev and next (send_lanes), the block and the loop budget. Returns 0
 * when it ran nothing (the caller steps that instruction). */
static int native_flow(gm_warp *w)
{
    gm_frame *f = &w->frames[w->depth];
    if (w->mask != 0xffffffffu || (f->live & w->alive) != 0xffffffffu || f->block < 0 ||
        w->p->blocks[f->block].first_pc != w->pc)
        return 0;
    gm_native_cf cf = {f->block, -1, -1, f->loop_budget, 0, 0, 0};
    w->p->native_flow(w->R, w->p->umem, w, w->p->code, w->p->fast, &cf, w->p->abort_flag);
    if (cf.pc < 0 || cf.pc >= w->p->code_count)
        return 0; /* not a block it runs (cannot happen: entries are marked from the same list) */
    w->pc = cf.pc;
    w->issued += cf.issued;
    w->lane_instr += cf.issued * GM_LANES;
    f->loop_budget = cf.budget;
    if (cf.taken) {
        f->block = cf.block;
        for (int l = 0; l < GM_LANES; l++) {
            f->prev[l] = cf.prev;
            f->next[l] = cf.block;
        }
    }
    return cf.issued > 0;
}

gm_run_status gm_warp_run(gm_warp *w, uint64_t max_instructions)
{
    unsigned fp = fp_flush_enter();
    gm_run_status st = warp_run(w, max_instructions);
    fp_flush_leave(fp);
    return st;
}

static gm_run_status warp_run(gm_warp *w, uint64_t max_instructions)
{
    if (!w)
        return GM_RUN_ERROR;
    if (w->error)
        return GM_RUN_ERROR;
    if (w->done)
        return GM_RUN_DONE;
    const gm_inst *code = w->p->code;
    const gm_fast_op *fast = w->p->fast;
    /* nothing to stop before or to show: runs of pre-decoded instructions go
     * through the tight loop below (the same instructions, results and counts) */
    const int plain = fast && !max_instructions && !w->observer;
    const gm_native_fn *native = w->p->native;
    uint64_t count = 0;
    for (;;) {
        if (w->pc < 0 && !schedule(w)) {
            w->done = 1;
            w->pc = -1;
            return GM_RUN_DONE;
        }
        if (max_instructions && count >= max_instructions)
            return GM_RUN_PAUSED;
        if (plain) {
            /* a block always ends with a terminator, which has no handler: pc stays in it;
             * the mask changes only at a terminator, so one table serves the whole run */
            const gm_fast_op *tab = w->mask == 0xffffffffu ? fast : fast + w->p->code_count;
            gm_fast_op h;
            if (native && w->mask == 0xffffffffu) {
                /* compiled runs (compile/gm_native.h) where there are, handlers between them */
                for (;;) {
                    if (w->p->native_flow_entry && w->p->native_flow_entry[w->pc] && native_flow(w))
                        continue;
                    const gm_native_fn run = native[w->pc];
                    if (run) {
                        const int len = w->p->native_len[w->pc];
                        const int k = run(w->R, w->p->umem, w, code, fast);
                        w->pc += k;
                        w->issued += (uint64_t)k;
                        w->lane_instr += (uint64_t)k * GM_LANES;
                        if (k < len)
                            break; /* a handler declined: the general path takes it */
                        continue;
                    }
                    if ((h = tab[w->pc]) == NULL || h(w, &code[w->pc]) != 0)
                        break;
                    w->pc++;
                    w->issued++;
                    w->lane_instr += GM_LANES;
                }
            } else {
                while ((h = tab[w->pc]) != NULL && h(w, &code[w->pc]) == 0) {
                    w->pc++;
                    w->issued++;
                    w->lane_instr += (uint64_t)w->mask_lanes;
                }
            }
        }
        const gm_inst *in = &code[w->pc];
        /* Lock-step workgroups: stop before a barrier until the caller has brought every
         * warp of the group here (the observer sees the barrier when it issues). */
        if (in->op == GM_OP_BARRIER && w->barrier_stop && !w->barrier_passed) {
            w->barrier_passed = 1;
            return GM_RUN_PAUSED;
        }
        if (w->observer) {
            if (!w->skip_observe) {
                gm_issue is = {w->id, w->pc, in->line, w->mask, w->depth};
                if (w->observer(w->observer_ctx, w, &is)) {
                    w->skip_observe = 1;
                    return GM_RUN_PAUSED;
                }
            }
            w->skip_observe = 0;
        }
        count++;
        w->issued++;
        w->lane_instr += (uint64_t)w->mask_lanes;
        if (exec_inst(w, in) != 0)
            return GM_RUN_ERROR;
    }
}

static gm_run_status warp_run_private(gm_warp *w, const uint8_t *private_pc, int cap,
                                     int32_t *tr_pc, gm_mask *tr_mask, int *n_out);

/* Are pcs [pc, pc + len) all marked private? */
static int all_private(const uint8_t *private_pc, int pc, int len)
{
    for (int i = 0; i < len; i++)
        if (!private_pc[pc + i])
            return 0;
    return 1;
}

gm_run_status gm_warp_run_private(gm_warp *w, const uint8_t *private_pc, int cap,
                                  int32_t *tr_pc, gm_mask *tr_mask, int *n_out)
{
    unsigned fp = fp_flush_enter();
    gm_run_status st = warp_run_private(w, private_pc, cap, tr_pc, tr_mask, n_out);
    fp_flush_leave(fp);
    return st;
}

static gm_run_status warp_run_private(gm_warp *w, const uint8_t *private_pc, int cap,
                                     int32_t *tr_pc, gm_mask *tr_mask, int *n_out)
{
    int n = 0;
    gm_run_status st = GM_RUN_PAUSED;
    const gm_inst *code = w->p->code;
    const int n_pc = w->p->code_count;
    /* Exactly `while (private next pc) { record; gm_warp_step(w); }`: a step ends with the
     * next block scheduled, so pc >= 0 here unless the warp is done. With an observer or
     * lock-step barrier stops a step can pause without executing: step one at a time then. */
    const int plain = !w->observer && !w->barrier_stop;
    const gm_native_fn *native = w->p->native;
    while (n < cap) {
        if (w->done || w->pc < 0 || w->pc >= n_pc || !private_pc[w->pc])
            break;
        if (native && plain && !w->error && w->mask == 0xffffffffu && native[w->pc] &&
            n + w->p->native_len[w->pc] <= cap && all_private(private_pc, w->pc, w->p->native_len[w->pc])) {
            /* a compiled run (compile/gm_native.h): its instructions as one call, traced as if
             * stepped; a handler that declined leaves pc on its instruction for the step below */
            const int start = w->pc;
            const int k = native[start](w->R, w->p->umem, w, code, w->p->fast);
            for (int i = 0; i < k; i++) {
                tr_pc[n + i] = start + i;
                tr_mask[n + i] = 0xffffffffu;
            }
            n += k;
            w->pc = start + k;
            w->issued += (uint64_t)k;
            w->lane_instr += (uint64_t)k * GM_LANES;
            if (k == w->p->native_len[start])
                continue;
            /* a handler declined (a STORE with helper lanes to leave out): that instruction
             * is stepped below, in this iteration (a run at the same pc would decline again) */
        }
        tr_pc[n] = w->pc;
        tr_mask[n] = w->mask;
        n++;
        if (!plain || w->error) {
            st = warp_run(w, 1);
            if (st != GM_RUN_PAUSED)
                break;
            continue;
        }
        w->issued++;
        w->lane_instr += (uint64_t)w->mask_lanes;
        if (exec_inst(w, &code[w->pc]) != 0) {
            st = GM_RUN_ERROR;
            break;
        }
        if (w->pc < 0 && !schedule(w)) {
            w->done = 1;
            w->pc = -1;
            st = GM_RUN_DONE;
            break;
        }
    }
    *n_out = n;
    return st;
}
