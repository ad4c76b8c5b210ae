/* Reading a compute warp's `shared` variables (workgroup memory) for the debugger's views.
 * gm_warp_read_var reads registers and uniforms only (gpu_model/frame/DESIGN.md "Compute": shared
 * memory is not in the executor's variable reads). */
#ifndef DBG_SHARED_READ_H
#define DBG_SHARED_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model.h"

/* True when variable `var` of the warp's program lives in workgroup shared memory. */
bool dbg_var_is_shared(const gm_program *p, int var);
/* Copies up to max_words of a shared variable from the warp's workgroup block (words past the
 * attached block read 0, as the executor reads them). Returns the variable's word count, or -1
 * when it is not shared or the warp has no block attached. */
int dbg_read_shared_var(const gm_warp *w, int var, uint32_t *out, int max_words);
/* A compute program's LocalSize (gm_program_local_size of gm_ir.h, which gpu_model.h does not
 * export). */
void dbg_local_size(const gm_program *p, int size[3]);

#endif
