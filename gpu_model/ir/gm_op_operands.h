/* The register words an IR instruction reads and writes: the extents gm_opcodes.py declares per
 * opcode, plus the rules of the opcodes marked custom there (aux lists, texture descriptors,
 * GLSL.std.450 operand counts, 64-bit sub-operations). One answer for the timing model's
 * scoreboard and the debugger's exception checks, so they cannot disagree. */
#ifndef GM_OP_OPERANDS_H
#define GM_OP_OPERANDS_H

#include "gm_ir.h"
#include "gm_opcodes.h"

/* Visits in's operands: *dst (in->d, or the lowest word a COPY_LIST writes) and *dst_n (words
 * written; 0: none), *result (when not NULL: the type a float-computing instruction gives,
 * GM_OPT_NONE otherwise), and one fn call per source range. Extents are not clamped to the
 * program's registers: callers check them. */
void gm_op_operands(const gm_program *p, const gm_inst *in, int32_t *dst, int32_t *dst_n, gm_op_type *result,
                    gm_op_src_fn *fn, void *ctx);

/* Whether a GLSL.std.450 instruction gives an integer (or packed) result rather than a float. */
int gm_glsl450_int_result(unsigned inst);

#endif
