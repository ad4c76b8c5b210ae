/* The float operations whose result bits depend on operand order: when both operands of an add or
 * a multiply are NaN, x86 returns the first operand's payload, and which operand a compiler puts
 * first is its choice per loop (gcc and clang choose differently, and so may two loops of one
 * build, or the two versions of one loop gcc makes for overlapping and disjoint operands). So the
 * order is not left to the compiler: where `a` is a NaN, the other operand is replaced by `a`
 * itself (gm_nan_first), and a NaN result then carries a's payload whichever operand goes first.
 * The general path (exec_alu, gm_exec.c), the pre-decoded handlers (gm_exec_fast.c) and the
 * compiled runs (compile/, which emits the same rule) all give the same bits under any compiler;
 * noinline keeps each caller from getting a copy of its own. A call per instruction, not per
 * lane. */
#include "gm_exec.h"

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_add(float *o, const float *a, const float *b,
                                                           int n32)
{
    for (int i = 0; i < n32; i++)
        o[i] = a[i] + gm_nan_first(a[i], b[i]);
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_mul(float *o, const float *a, const float *b,
                                                           int n32)
{
    for (int i = 0; i < n32; i++)
        o[i] = a[i] * gm_nan_first(a[i], b[i]);
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_vts(float *o, const float *a, const float *b,
                                                           int n)
{
    for (int k = 0; k < n; k++)
        for (int l = 0; l < GM_LANES; l++)
            o[k * GM_LANES + l] = a[k * GM_LANES + l] * gm_nan_first(a[k * GM_LANES + l], b[l]);
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_dot(float *o, const float *a, const float *b,
                                                           int n)
{
    for (int l = 0; l < GM_LANES; l++)
        o[l] = a[l] * gm_nan_first(a[l], b[l]);
    for (int k = 1; k < n; k++)
        for (int l = 0; l < GM_LANES; l++) {
            const float x = a[k * GM_LANES + l], p = x * gm_nan_first(x, b[k * GM_LANES + l]);
            o[l] = o[l] + gm_nan_first(o[l], p);
        }
}
