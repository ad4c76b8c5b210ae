/* Subgroup operations of GL_ARB_shader_ballot and GL_ARB_shader_group_vote with llvmpipe's
 * values. llvmpipe's subgroup is one SIMD vector of its JIT code: GM_SUBGROUP_SIZE lanes
 * (gl_SubGroupSizeARB = 8 with AVX2). The model's 32-lane warp holds several such subgroups:
 * every lane carries its subgroup id and invocation index (gm_warp_set_subgroups; the
 * fragment runner gives llvmpipe's 4x2 pixel blocks), and each operation is evaluated over
 * the lanes of the caller's subgroup only. "Active" is llvmpipe's execution mask: lanes
 * running the instruction, helper invocations excluded (llvmpipe's mask holds only covered
 * pixels). DESIGN.md "Subgroups" says what matches and what cannot. */
#include "gm_exec.h"

#include <string.h>

/* The 32-bit mask gl_SubGroup{Eq,Ge,Gt,Le,Lt}MaskARB of invocation id (high word 0). */
static uint32_t mask_of(int op, unsigned id)
{
    const uint32_t all = (1u << GM_SUBGROUP_SIZE) - 1u, bit = 1u << id;
    switch (op) {
    case GM_SG_EQ_MASK: return bit;
    case GM_SG_GE_MASK: return all & ~(bit - 1u);
    case GM_SG_GT_MASK: return all & ~(bit - 1u) & ~bit;
    case GM_SG_LE_MASK: return bit | (bit - 1u);
    default: return bit - 1u; /* GM_SG_LT_MASK */
    }
}

void gm_exec_subgroup(gm_warp *w, const gm_inst *in, gm_lanes *out)
{
    const gm_lanes *A = &w->R[in->a], *B = &w->R[in->b];
    const int op = (int)(in->x & 0xff), an = (int)(in->x >> 8), n = in->n;
    const gm_mask act = w->mask & ~w->helper;
    if (op == GM_SG_CLOCK) {
        /* ARB_shader_clock asks for a monotonically increasing counter; llvmpipe reads the
         * host's time. The model gives a deterministic one: every read (one per warp issue)
         * advances the program's count, so later reads in any invocation and any later draw
         * or dispatch of the program see a larger value. Atomic: warps may run on threads. */
        uint64_t t = __atomic_add_fetch(&w->p->clock_ticks, 1, __ATOMIC_RELAXED);
        for (int l = 0; l < GM_LANES; l++) {
            out[0][l] = (uint32_t)t;
            if (n > 1)
                out[1][l] = (uint32_t)(t >> 32);
        }
        return;
    }
    /* lanes of each lane's subgroup, and the active ones among them */
    gm_mask same[GM_LANES], live[GM_LANES];
    for (int l = 0; l < GM_LANES; l++) {
        gm_mask m = 0;
        for (int j = 0; j < GM_LANES; j++)
            if (w->sg_group[j] == w->sg_group[l])
                m |= 1u << j;
        same[l] = m;
        live[l] = m & act;
    }
    for (int l = 0; l < GM_LANES; l++) {
        for (int k = 0; k < n; k++)
            out[k][l] = 0;
        switch (op) {
        case GM_SG_SIZE:
            out[0][l] = GM_SUBGROUP_SIZE;
            break;
        case GM_SG_INVOCATION:
            out[0][l] = w->sg_inv[l];
            break;
        case GM_SG_EQ_MASK: case GM_SG_GE_MASK: case GM_SG_GT_MASK: case GM_SG_LE_MASK:
        case GM_SG_LT_MASK:
            out[0][l] = mask_of(op, w->sg_inv[l]);
            break;
        case GM_SG_BALLOT:
            for (int j = 0; j < GM_LANES; j++)
                if ((live[l] >> j) & 1u && A[0][j])
                    out[0][l] |= 1u << w->sg_inv[j];
            break;
        case GM_SG_READ_FIRST:
        case GM_SG_READ_INVOCATION: {
            /* the lowest active invocation / the given one (active or not: llvmpipe reads the
             * vector lane whatever its mask); one the warp does not hold reads the caller's */
            int src = l, best = GM_SUBGROUP_SIZE;
            for (int j = 0; j < GM_LANES; j++) {
                if (op == GM_SG_READ_FIRST && (live[l] >> j) & 1u && w->sg_inv[j] < best) {
                    best = w->sg_inv[j];
                    src = j;
                }
                if (op == GM_SG_READ_INVOCATION && (same[l] >> j) & 1u &&
                    w->sg_inv[j] == B[0][l]) {
                    src = j;
                    if ((act >> j) & 1u)
                        break;
                }
            }
            for (int k = 0; k < n; k++)
                out[k][l] = A[k][src];
            break;
        }
        case GM_SG_ANY: case GM_SG_ALL: {
            int any = 0, all = 1;
            for (int j = 0; j < GM_LANES; j++)
                if ((live[l] >> j) & 1u) {
                    any |= A[0][j] != 0;
                    all &= A[0][j] != 0;
                }
            out[0][l] = (uint32_t)(op == GM_SG_ANY ? any : all);
            break;
        }
        default: { /* GM_SG_ALL_EQUAL: every active invocation has the first one's words */
            int first = -1, eq = 1;
            for (int j = 0; j < GM_LANES && eq; j++) {
                if (!((live[l] >> j) & 1u))
                    continue;
                if (first < 0)
                    first = j;
                for (int k = 0; k < an; k++)
                    eq &= A[k][j] == A[k][first];
            }
            out[0][l] = (uint32_t)eq;
            break;
        }
        }
    }
}
