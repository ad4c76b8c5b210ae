/* Uniform- and storage-block variables of a warp (issue 14: block members in the variables view):
 * the block's bytes in the buffer bound to its binding at the stop, read with the block's layout
 * (member offsets, array and matrix strides, row-major) into the register order of its type, as
 * GM_OP_BUF_LOAD would load it. */
#ifndef GLR_DAP_BLOCK_READ_H
#define GLR_DAP_BLOCK_READ_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model/gpu_model.h"

/* Whether variable `var` is a uniform or storage block (not an atomic counter buffer). */
bool dbg_var_is_block(const gm_program *p, int var);
/* Reads the block's words (up to max_words; words past the bound buffer read 0). Returns the
 * block's word count, -1 when it is not a block or has no static layout. *bound: a buffer is
 * bound there. */
int dbg_read_block_var(const gm_warp *w, int var, uint32_t *out, int max_words, bool *bound);
/* The block's display name: its instance name, else its block name. */
const char *dbg_block_name(const gm_program *p, int var);

#endif
