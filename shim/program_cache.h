/* The program sources cache (shim/program_cache.c): link inputs of programs kept by the hash of
 * their binary, so programs loaded with glProgramBinary have GLSL sources again. */
#ifndef GLR_SHIM_PROGRAM_CACHE_H
#define GLR_SHIM_PROGRAM_CACHE_H

#include <stdint.h>

/* After the program read back a binary of `program` (glGetProgramBinary): keep its sources. */
void glr_program_cache_store(uint32_t program, const void *binary, int64_t length) __attribute__((visibility("hidden")));
/* After the program loaded `binary` into `program` (glProgramBinary): give it its sources. */
void glr_program_cache_load(uint32_t program, const void *binary, int64_t length) __attribute__((visibility("hidden")));

#endif
