/* Restore of ARB assembly program state (statemodel/sm_apply_arb_program.c holds the model):
 * program objects with their text and local parameters (shared), then each context's bindings
 * and environment parameters. The enables are ordinary caps, restored with the others. */
#include <stdlib.h>
#include "statemodel/sm_restore.h"

static void restore_program(struct rs *r, const struct sm_arb_program *p)
{
    if (p->name >= SM_ARB_DEFAULT_NAME(0) && !p->target)
        return;
    if (!p->target && p->name < SM_ARB_DEFAULT_NAME(0)) {
        /* generated, never bound: the name only */
        struct glr_call *c = rs_emit(r, GLR_CMD_glGenProgramsARB, 2, U(1), U(0));
        if (c)
            rs_blob_own(r, c, 1, &p->name, 4);
        return;
    }
    /* the default object 0 takes its string while 0 is bound */
    bool is_default = p->name >= SM_ARB_DEFAULT_NAME(0);
    rs_emit(r, GLR_CMD_glBindProgramARB, 2, U(p->target), U(is_default ? 0 : p->name));
    if (p->source) {
        struct glr_call *c = rs_emit(r, GLR_CMD_glProgramStringARB, 4, U(p->target),
                                     U(GL_PROGRAM_FORMAT_ASCII_ARB), I(p->length), U(0));
        if (c)
            rs_blob_ref(c, 3, p->source, p->length);
    }
    for (uint32_t i = 0; i < p->n_local; i++) {
        const float *v = p->local[i];
        if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0)
            continue;   /* GL's initial value */
        struct glr_call *c = rs_emit(r, GLR_CMD_glProgramLocalParameter4fvARB, 3, U(p->target), U(i), U(0));
        if (c)
            rs_blob_ref(c, 2, v, 16);
    }
    rs_emit(r, GLR_CMD_glBindProgramARB, 2, U(p->target), U(0));
}

void rs_arb_programs(struct rs *r, const struct sm_share_group *g)
{
    if (!r->compat || !g->arb_programs.count)
        return;
    size_t n;
    uint32_t *k = sm_map_sorted_keys(&g->arb_programs, &n);
    for (size_t i = 0; k && i < n; i++)
        restore_program(r, sm_map_get(&g->arb_programs, k[i]));
    free(k);
}

void rs_arb_context(struct rs *r)
{
    const struct sm_context_state *st = &r->c->st;
    static const uint32_t targets[2] = { GL_VERTEX_PROGRAM_ARB, GL_FRAGMENT_PROGRAM_ARB };
    if (!r->compat)
        return;
    for (int t = 0; t < 2; t++) {
        for (uint32_t i = 0; i < SM_ARB_MAX_ENV; i++) {
            const float *v = st->arb_env[t][i];
            if (v[0] == 0 && v[1] == 0 && v[2] == 0 && v[3] == 0)
                continue;
            struct glr_call *c = rs_emit(r, GLR_CMD_glProgramEnvParameter4fvARB, 3, U(targets[t]), U(i), U(0));
            if (c)
                rs_blob_ref(c, 2, v, 16);
        }
        if (st->arb_program[t])
            rs_emit(r, GLR_CMD_glBindProgramARB, 2, U(targets[t]), U(st->arb_program[t]));
    }
}
