/* 64-bit integers (GL_ARB_gpu_shader_int64: int64_t, uint64_t, i64vec*, u64vec*). A 64-bit
 * component is laid out as a double is (gm_exec_f64.c): two consecutive register words, the
 * low 32 bits of every lane, then the high 32 bits. Moves, phis, selects, uniform words,
 * buffer bytes and the bitcasts packInt2x32/doubleBitsToInt64 therefore need nothing new;
 * this file holds the arithmetic, comparisons, conversions and GLSL.std.450 functions.
 * Semantics follow llvmpipe (LLVM i64 arithmetic, wrapping): division by zero gives 0 as the
 * 32-bit path does, shifts take their count modulo 64. */
#include "gm_exec.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <string.h>

static inline uint64_t ld(const gm_lanes *r, int k, int l)
{
    return (uint64_t)r[2 * k][l] | (uint64_t)r[2 * k + 1][l] << 32;
}

static inline void st(gm_lanes *o, int k, int l, uint64_t v)
{
    o[2 * k][l] = (uint32_t)v;
    o[2 * k + 1][l] = (uint32_t)(v >> 32);
}

static inline int64_t sdiv(int64_t a, int64_t b)
{
    if (b == 0)
        return 0;
    if (b == -1)
        return (int64_t)(0u - (uint64_t)a); /* INT64_MIN / -1 wraps as LLVM's sdiv on x86 would trap */
    return a / b;
}

static inline int64_t srem(int64_t a, int64_t b)
{
    return b == 0 || b == -1 ? 0 : a % b;
}

static inline int64_t smod(int64_t a, int64_t b)
{
    int64_t r = srem(a, b);
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

static uint64_t alu(int op, uint64_t a, uint64_t b)
{
    int64_t sa = (int64_t)a, sb = (int64_t)b;
    switch (op) {
    case GM_OP_IADD: return a + b;
    case GM_OP_ISUB: return a - b;
    case GM_OP_IMUL: return a * b;
    case GM_OP_SDIV: return (uint64_t)sdiv(sa, sb);
    case GM_OP_UDIV: return b ? a / b : 0;
    case GM_OP_SMOD: return (uint64_t)smod(sa, sb);
    case GM_OP_SREM: return (uint64_t)srem(sa, sb);
    case GM_OP_UMOD: return b ? a % b : 0;
    case GM_OP_SNEG: return 0u - a;
    case GM_OP_AND: return a & b;
    case GM_OP_OR: return a | b;
    case GM_OP_XOR: return a ^ b;
    case GM_OP_NOT: return ~a;
    case GM_OP_SHL: return a << (b & 63);
    case GM_OP_SHR_L: return a >> (b & 63);
    case GM_OP_SHR_A: return (uint64_t)(sa >> (b & 63));
    case GM_OP_IEQ: return a == b;
    case GM_OP_INE: return a != b;
    case GM_OP_SLT: return sa < sb;
    case GM_OP_SLE: return sa <= sb;
    case GM_OP_SGT: return sa > sb;
    case GM_OP_SGE: return sa >= sb;
    case GM_OP_ULT: return a < b;
    case GM_OP_ULE: return a <= b;
    case GM_OP_UGT: return a > b;
    default: return a >= b; /* GM_OP_UGE */
    }
}

/* Saturating float -> 64-bit conversions (the 32-bit path saturates too; NaN gives 0). */
static int64_t d2sl(double x)
{
    if (!(x == x))
        return 0;
    if (x >= 9223372036854775807.0)
        return INT64_MAX;
    if (x <= -9223372036854775808.0)
        return INT64_MIN;
    return (int64_t)x;
}

static uint64_t d2ul(double x)
{
    if (!(x > 0.0))
        return 0;
    if (x >= 18446744073709551615.0)
        return UINT64_MAX;
    return (uint64_t)x;
}

static inline float f32(uint32_t w)
{
    float f;
    memcpy(&f, &w, sizeof f);
    return f;
}

static inline uint32_t w32(float f)
{
    uint32_t w;
    memcpy(&w, &f, sizeof w);
    return w;
}

static inline double f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

static inline uint64_t w64(double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    return v;
}

static void conv(const gm_inst *in, const gm_lanes *A, gm_lanes *out, int l)
{
    const int n = in->n;
    switch ((gm_i64_conv)in->x) {
    case GM_I64_SEXT:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, (uint64_t)(int64_t)(int32_t)A[k][l]);
        break;
    case GM_I64_ZEXT:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, A[k][l]);
        break;
    case GM_I64_TRUNC:
        for (int k = 0; k < n; k++)
            out[k][l] = (uint32_t)ld(A, k, l);
        break;
    case GM_I64_F2S:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, (uint64_t)d2sl(f32(A[k][l])));
        break;
    case GM_I64_F2U:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, d2ul(f32(A[k][l])));
        break;
    case GM_I64_D2S:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, (uint64_t)d2sl(f64(ld(A, k, l))));
        break;
    case GM_I64_D2U:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, d2ul(f64(ld(A, k, l))));
        break;
    case GM_I64_S2F: /* round to nearest, as LLVM's sitofp */
        for (int k = 0; k < n; k++)
            out[k][l] = w32((float)(int64_t)ld(A, k, l));
        break;
    case GM_I64_U2F:
        for (int k = 0; k < n; k++)
            out[k][l] = w32((float)ld(A, k, l));
        break;
    case GM_I64_S2D:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, w64((double)(int64_t)ld(A, k, l)));
        break;
    case GM_I64_U2D:
        for (int k = 0; k < n / 2; k++)
            st(out, k, l, w64((double)ld(A, k, l)));
        break;
    }
}

static uint64_t ext(unsigned inst, uint64_t a, uint64_t b, uint64_t c)
{
    int64_t sa = (int64_t)a, sb = (int64_t)b, sc = (int64_t)c;
    switch (inst) {
    case GLSLstd450SAbs: return sa < 0 ? 0u - a : a;
    case GLSLstd450SSign: return (uint64_t)(sa > 0 ? 1 : sa < 0 ? -1 : 0);
    case GLSLstd450SMin: return sb < sa ? b : a;
    case GLSLstd450SMax: return sb > sa ? b : a;
    case GLSLstd450UMin: return b < a ? b : a;
    case GLSLstd450UMax: return b > a ? b : a;
    /* clamp as min(max(x, lo), hi), like the 32-bit path and Mesa's lowering */
    case GLSLstd450SClamp: return (uint64_t)(sa < sb ? (sb > sc ? sc : sb) : sa > sc ? sc : sa);
    default: /* GLSLstd450UClamp */
        return a < b ? (b > c ? c : b) : a > c ? c : a;
    }
}

void gm_exec_i64(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    const gm_lanes *R = w->R;
    const gm_lanes *A = &R[in->a], *B = &R[in->b], *C = &R[in->c];
    const int n = in->n;
    for (int l = 0; l < GM_LANES; l++) {
        switch (in->op) {
        case GM_OP_LALU: {
            int op = (int)(in->x & 0xffff), b32 = (in->x & GM_I64_B32) != 0;
            if (op >= GM_OP_IEQ && op <= GM_OP_UGE) { /* n booleans from 2n words each side */
                for (int k = 0; k < n; k++)
                    out[k][l] = (uint32_t)alu(op, ld(A, k, l), ld(B, k, l));
                break;
            }
            for (int k = 0; k < n / 2; k++) {
                uint64_t b = op == GM_OP_SNEG || op == GM_OP_NOT ? 0
                             : b32 ? B[k][l] : ld(B, k, l);
                st(out, k, l, alu(op, ld(A, k, l), b));
            }
            break;
        }
        case GM_OP_LCONV:
            conv(in, A, out, l);
            break;
        default: { /* GM_OP_LEXT: b and c are read only by the functions that have them */
            unsigned inst = in->x;
            int nops = inst == GLSLstd450SAbs || inst == GLSLstd450SSign ? 1
                       : inst == GLSLstd450SClamp || inst == GLSLstd450UClamp ? 3 : 2;
            for (int k = 0; k < n / 2; k++)
                st(out, k, l, ext(inst, ld(A, k, l), nops > 1 ? ld(B, k, l) : 0,
                                  nops > 2 ? ld(C, k, l) : 0));
            break;
        }
        }
    }
}
