/* Uniform locations across drivers: a location is whatever the driver that linked the program chose
 * (llvmpipe numbers uniforms one way, NVIDIA's driver another), so a capture's glUniform*(L) means
 * "the uniform the program asked the location of and was told L". The replay asks its own driver
 * for the same name (the recorded glGetUniformLocation is replayed) and maps L to that driver's
 * answer; locations never asked for by name (explicit layout(location), or a uniform the program
 * did not look up) pass through unchanged. Internal to replay/. */
#ifndef GLR_UNIFORM_LOCATIONS_H
#define GLR_UNIFORM_LOCATIONS_H

#include <stdint.h>

struct glr_uloc;

struct glr_uloc *glr_uloc_create(void);
void glr_uloc_destroy(struct glr_uloc *u);
/* Everything forgotten (a new replay pass recreates the programs). */
void glr_uloc_reset(struct glr_uloc *u);

/* Programs are replay names within their share group's namespace `ns`. */
void glr_uloc_found(struct glr_uloc *u, uint32_t ns, uint32_t program, int32_t captured, int32_t replay);
/* The replay location of `captured` in `program`, or in the program the context's uniform calls
 * go to when program is 0 (glUseProgram's, else the active program of the bound pipeline). */
int32_t glr_uloc_translate(struct glr_uloc *u, uint32_t ns, uint32_t ctx_id, uint32_t program, int32_t captured);
void glr_uloc_use_program(struct glr_uloc *u, uint32_t ctx_id, uint32_t program);
void glr_uloc_bind_pipeline(struct glr_uloc *u, uint32_t ctx_id, uint32_t pipeline);
void glr_uloc_active_program(struct glr_uloc *u, uint32_t ns, uint32_t pipeline, uint32_t program);
/* A program linked again (or deleted): its locations are asked for anew. */
void glr_uloc_forget_program(struct glr_uloc *u, uint32_t ns, uint32_t program);

#endif
