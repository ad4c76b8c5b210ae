/* Shader-local arrays that llvmpipe keeps as constant data (gm_decode_constvars.c). Internal. */
#ifndef GM_DECODE_CONSTVARS_H
#define GM_DECODE_CONSTVARS_H

#include <stddef.h>
#include <stdint.h>

/* A bitmap over ids (calloc'd, `bound` bytes; NULL when out of memory): 1 for a Function or
 * Private array variable whose every store is a constant at constant indexes and whose pointers
 * are only loaded from, stored to or indexed. */
uint8_t *gm_const_only_vars(const uint32_t *words, size_t nwords, uint32_t bound);

/* A bitmap over ids (calloc'd; NULL when out of memory): 1 for a value that depends on something
 * only known when the shader runs (uniforms, inputs, buffers, built-ins, parameters, calls),
 * 0 for one Mesa would know at compile time (constants through local variables and
 * operations). */
uint8_t *gm_dynamic_values(const uint32_t *words, size_t nwords, uint32_t bound);

#endif
