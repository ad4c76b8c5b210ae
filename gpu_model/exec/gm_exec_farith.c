/* The float operations whose result bits depend on operand order: when both operands of an add or
 * a multiply are NaN, x86 returns the first operand's payload, and which operand a compiler puts
 * first is its choice per loop (gcc and clang choose differently, and so may two loops of one
 * build). One copy of each loop lives here, called by the general path (exec_alu, gm_exec.c) and
 * by the pre-decoded handlers (gm_exec_fast.c), so the two paths give the same bits whatever the
 * compiler chose; noinline keeps each caller from getting a copy of its own. A call per
 * instruction, not per lane. */
#include "gm_exec.h"

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_add(float *o, const float *a, const float *b,
                                                           int n32)
{
    for (int i = 0; i < n32; i++)
        o[i] = a[i] + b[i];
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_mul(float *o, const float *a, const float *b,
                                                           int n32)
{
    for (int i = 0; i < n32; i++)
        o[i] = a[i] * b[i];
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_vts(float *o, const float *a, const float *b,
                                                           int n)
{
    for (int k = 0; k < n; k++)
        for (int l = 0; l < GM_LANES; l++)
            o[k * GM_LANES + l] = a[k * GM_LANES + l] * b[l];
}

GM_CLONES_AVX2 __attribute__((noinline)) void gm_farith_dot(float *o, const float *a, const float *b,
                                                           int n)
{
    for (int l = 0; l < GM_LANES; l++)
        o[l] = a[l] * b[l];
    for (int k = 1; k < n; k++)
        for (int l = 0; l < GM_LANES; l++)
            o[l] += a[k * GM_LANES + l] * b[k * GM_LANES + l];
}
