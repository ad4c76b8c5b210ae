/* The IR as text (gm_ir_print.c): one line per instruction, with the opcode's name from the
 * opcode table (gm_opcodes.py), for dumps, tests and bug reports. */
#ifndef GM_IR_PRINT_H
#define GM_IR_PRINT_H

#include <stddef.h>
#include <stdio.h>
#include "gm_ir.h"

/* The opcode's name ("FADD"), or NULL for a value past the table. */
const char *gm_op_name(unsigned op);

/* One instruction: "FADD n=4 d=40 a=8 b=12 c=0 x=0 line 7" (a value past the table prints as
 * "op#N"). Returns what snprintf returns. */
int gm_ir_format_inst(const gm_inst *in, char *buf, size_t size);

/* The program's code: each block's label, then its instructions with their pc. */
void gm_ir_print(FILE *f, const gm_program *p);

#endif
