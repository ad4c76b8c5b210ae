/* GLSL ES mediump/lowp at llvmpipe's 16-bit precision: a SPIR-V rewrite (gm_relaxed.c). */
#ifndef GM_RELAXED_H
#define GM_RELAXED_H

#include <stddef.h>
#include <stdint.h>

/* Narrows the operands and results of RelaxedPrecision arithmetic in a SPIR-V module in place of
 * *spirv (realloc'd; *count words). 0 (also when nothing changes or the module is not understood),
 * -1 when out of memory (the module is then unchanged). */
int gm_relax_precision(uint32_t **spirv, size_t *count);

#endif
