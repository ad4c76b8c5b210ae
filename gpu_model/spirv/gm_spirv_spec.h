/* Private to gpu_model: a SPIR-V module given by the application (GL_ARB_gl_spirv's
 * glShaderBinary) made ready for the decoder the way glSpecializeShader makes it ready for the
 * driver: one entry point, specialization constants set. */
#ifndef GM_SPIRV_SPEC_H
#define GM_SPIRV_SPEC_H

#include <stddef.h>
#include <stdint.h>

/* bytes/size: the module as the application gave it (untrusted: any size, either byte order).
 * entry: the entry point's name; exec_model: the SPIR-V ExecutionModel the shader object's
 * stage requires (0 vertex, 4 fragment, ...). ids/values: n specialization constants (SpecId,
 * 32-bit value), as glSpecializeShader takes them.
 * Returns the specialized module as malloc'd host-order words (*words_out of them): every
 * OpEntryPoint but the chosen one and the execution modes of other entry points removed, and
 * every OpSpecConstant/True/False whose SpecId is given set to its value (the others keep their
 * defaults), and every OpSpecConstantOp on scalar 32-bit constants that it can evaluate made a
 * constant. NULL with a one-line message in err when the module is malformed, the entry point
 * is not there for that stage, or a constant id names no specialization constant (the errors
 * glSpecializeShader reports with GL_INVALID_VALUE). */
uint32_t *gm_spirv_specialize(const void *bytes, size_t size, const char *entry, uint32_t exec_model,
                              const uint32_t *ids, const uint32_t *values, uint32_t n,
                              size_t *words_out, char *err, size_t err_size);

#endif
