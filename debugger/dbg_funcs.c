/* Function entry lines of a compiled program (see dbg_funcs.h). The model's public interface has
 * pc -> line but no function table, so this reads gm_program's functions and blocks through the
 * IR header, as dbg_shared_read.c reads shared memory. */
#include <stdlib.h>
#include <string.h>
#include "gpu_model/gm_ir.h"
#include "debugger/dbg_funcs.h"

int dbg_program_funcs(const gm_program *p, struct dbg_func **out)
{
    *out = NULL;
    if (!p || p->func_count <= 0)
        return 0;
    struct dbg_func *f = calloc((size_t)p->func_count, sizeof *f);
    if (!f)
        return 0;
    int n = 0;
    for (int i = 0; i < p->func_count; i++) {
        const gm_function *fn = &p->funcs[i];
        if (!fn->name || !*fn->name)
            continue;
        /* glslang names functions by their signature, "shade_light(i1;vf3;": keep the name. */
        size_t len = strcspn(fn->name, "(");
        if (len >= sizeof f[n].name)
            len = sizeof f[n].name - 1;
        memcpy(f[n].name, fn->name, len);
        f[n].name[len] = 0;
        /* The entry: the first instruction with a line in the function's blocks, in block order
         * from its first (entry) block: the line a lane reaches first when the function is
         * called. */
        int line = 0;
        for (int b = fn->first_block; !line && b < fn->first_block + fn->block_count && b < p->block_count; b++) {
            int end = b + 1 < p->block_count ? p->blocks[b + 1].first_pc : p->code_count;
            for (int pc = p->blocks[b].first_pc; pc >= 0 && pc < end && pc < p->code_count; pc++) {
                int l = gm_program_pc_line(p, pc);
                if (l > 0) {
                    line = l;
                    break;
                }
            }
        }
        f[n].line = line;
        n++;
    }
    *out = f;
    return n;
}
