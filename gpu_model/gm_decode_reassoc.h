/* Float multiply/add chains reassociated as Mesa's NIR does before llvmpipe runs them
 * (gm_decode_reassoc.c). Internal to the decoder. */
#ifndef GM_DECODE_REASSOC_H
#define GM_DECODE_REASSOC_H

#include <stddef.h>
#include <stdint.h>

/* Rewrites words (a SPIR-V module of n words) in place; a malformed module is left as it is for
 * the decoder to refuse. Returns 0, or -1 when out of memory (words unchanged). */
int gm_reassoc_constants(uint32_t *words, size_t n);

#endif
