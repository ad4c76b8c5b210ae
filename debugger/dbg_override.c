/* Applies setVariable's overrides (ui_ipc/dap/dap_setvar.c records them; dbg_engine.c applies
 * them before the instruction they were set at issues): a value written into a lane's variable,
 * found by name, function and class in the warp's program, or a parameter of a function on the
 * lane's stack. Lives with the engine that calls it, below the protocol layer. */
#include <string.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_params.h"
#include "debugger/dbg_warp_copy.h"

bool dbg_override_apply(gm_warp *w, const struct dbg_override *o)
{
    const gm_program *p = gm_warp_program(w);
    int n = gm_program_var_count(p);
    for (int i = 0; i < n; i++) {
        const gm_var_info *v = gm_program_var(p, i);
        if (!v || !v->name || strcmp(v->name, o->name) || (int)dbg_var_class(v) != o->klass)
            continue;
        if ((v->function != NULL) != (o->function[0] != 0) || (v->function && strcmp(v->function, o->function)))
            continue;
        uint32_t (*lanes)[GM_LANES] = gm_warp_var_lanes(w, i);
        if (!lanes)
            return false;
        for (int k = 0; k < o->n; k++)
            lanes[o->offset + k][o->key.lane] = o->words[k];
        return true;
    }
    /* A parameter of a function on the stack (dbg_params.c): its value's words, through the
     * address the lane's parameter register holds. */
    struct dbg_param prm[64];
    int np = o->klass == SH_VAR_LOCAL ? dbg_stack_params(w, prm, 64) : 0;
    for (int i = 0; i < np; i++)
        if (!strcmp(prm[i].name, o->name) && !strcmp(prm[i].function, o->function))
            return o->offset + o->n <= prm[i].words && dbg_write_param(w, &prm[i], o->key.lane, o->offset, o->words, o->n);
    return false;
}

