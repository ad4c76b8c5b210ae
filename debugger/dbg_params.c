/* Parameters of the functions on a warp's stack (see dbg_params.h). */
#include <string.h>
#include "gpu_model/exec/gm_exec.h"
#include "debugger/dbg_params.h"

#define SPV_STORAGE_FUNCTION 7u   /* SpvStorageClassFunction */

int dbg_stack_params(const gm_warp *w, struct dbg_param *out, int max)
{
    const gm_program *p = w ? w->p : NULL;
    int n = 0;
    if (!p)
        return 0;
    for (int d = 1; d <= w->depth && d < GM_MAX_CALL_DEPTH; d++) {
        int fi = w->frames[d].func;
        if (fi < 0 || fi >= p->func_count)
            continue;
        const gm_function *f = &p->funcs[fi];
        for (int k = 0; k < f->param_count && n < max; k++) {
            int id = f->params[k];
            if (id <= 0 || (uint32_t)id >= p->bound || !p->names || !p->names[id] || !*p->names[id] || p->reg_of[id] < 0)
                continue;
            int t = p->type_of[id];
            if (t <= 0 || (uint32_t)t >= p->bound)
                continue;
            const gm_type *ty = &p->types[t];
            struct dbg_param pm = { p->names[id], f->name, t, p->ncomp_of[id], p->reg_of[id], false };
            if (ty->kind == GM_TYPE_POINTER) {
                /* Only Function storage lives in the register file. */
                if (ty->storage != SPV_STORAGE_FUNCTION || ty->pointee <= 0 || (uint32_t)ty->pointee >= p->bound)
                    continue;
                pm.type = ty->pointee;
                pm.words = p->types[ty->pointee].ncomp;
                pm.by_pointer = true;
            }
            if (pm.words <= 0 || pm.words > 4096 || pm.reg + (pm.by_pointer ? 1 : pm.words) > p->nregs)
                continue;
            out[n++] = pm;
        }
    }
    return n;
}

bool dbg_read_param(const gm_warp *w, const struct dbg_param *pm, int lane, uint32_t *out)
{
    if (lane < 0 || lane >= GM_LANES)
        return false;
    uint32_t base = pm->by_pointer ? w->R[pm->reg][lane] : (uint32_t)pm->reg;
    if ((uint64_t)base + (uint64_t)pm->words > (uint64_t)w->p->nregs) {
        memset(out, 0, (size_t)pm->words * sizeof *out);
        return false;   /* a lane that never made this call: no address */
    }
    for (int k = 0; k < pm->words; k++)
        out[k] = w->R[base + (uint32_t)k][lane];
    return true;
}

bool dbg_write_param(gm_warp *w, const struct dbg_param *pm, int lane, int offset, const uint32_t *words, int n)
{
    if (lane < 0 || lane >= GM_LANES || offset < 0 || offset + n > pm->words)
        return false;
    uint32_t base = pm->by_pointer ? w->R[pm->reg][lane] : (uint32_t)pm->reg;
    if ((uint64_t)base + (uint64_t)pm->words > (uint64_t)w->p->nregs)
        return false;
    for (int k = 0; k < n; k++)
        w->R[base + (uint32_t)(offset + k)][lane] = words[k];
    return true;
}
