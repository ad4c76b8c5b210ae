/* Shared-variable reads through the executor's warp structure. This belongs next to
 * gm_warp_read_var (gpu_model/exec/gm_warp.c, GM_SPACE_SHARED case); it lives here until the
 * model offers it, so it reads the warp's attached block exactly as GM_OP_SH_LOAD does. */
#include "debugger/dbg_shared_read.h"
#include "gpu_model/exec/gm_exec.h"

bool dbg_var_is_shared(const gm_program *p, int var)
{
    return p && var >= 0 && var < p->var_count && p->vars[var].space == GM_SPACE_SHARED;
}

int dbg_read_shared_var(const gm_warp *w, int var, uint32_t *out, int max_words)
{
    if (!w || !dbg_var_is_shared(w->p, var) || !w->shared || !out)
        return -1;
    const gm_var *v = &w->p->vars[var];
    int n = v->ncomp < max_words ? v->ncomp : max_words;
    for (int k = 0; k < n; k++) {
        uint64_t a = (uint64_t)v->addr + (uint64_t)k;
        out[k] = a < w->shared_count ? w->shared[a] : 0;
    }
    return v->ncomp;
}

void dbg_local_size(const gm_program *p, int size[3])
{
    gm_program_local_size(p, size);
}
