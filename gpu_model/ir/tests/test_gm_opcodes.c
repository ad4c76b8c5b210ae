/* The opcode table generated from gm_opcodes.py: every opcode has its name (the enum's, without
 * GM_OP_), the flags the timing model reads are where gm_timing_ops.c's switches had them, and the
 * IR printer writes an instruction as expected. */
#include <string.h>

#include "gm_ir.h"
#include "gm_opcodes.h"
#include "gm_ir_print.h"
#include "../../../tests/support/glr_check.h"

int main(void)
{
    for (unsigned op = 0; op < GM_OP_COUNT; op++)
        CHECKF(gm_op_name(op) && gm_op_name(op)[0], "opcode %u has no name", op);
    CHECK(!gm_op_name(GM_OP_COUNT));
    CHECK(!strcmp(gm_op_name(GM_OP_NOP), "NOP") && !strcmp(gm_op_name(GM_OP_FADD), "FADD"));
    CHECK(!strcmp(gm_op_name(GM_OP_BUF_LENGTH), "BUF_LENGTH") && !strcmp(gm_op_name(GM_OP_DEXT), "DEXT"));
    CHECK(gm_op_table[GM_OP_TEX].flags & GM_OPF_SHARED);
    CHECK(gm_op_table[GM_OP_BARRIER].flags & GM_OPF_SHARED);
    CHECK(!(gm_op_table[GM_OP_FADD].flags & GM_OPF_SHARED));
    CHECK(gm_op_table[GM_OP_FNEG].flags & GM_OPF_UNARY);
    CHECK(!(gm_op_table[GM_OP_FADD].flags & GM_OPF_UNARY));
    CHECK(!strcmp(gm_op_table[GM_OP_COPY].doc, "d[0..n) = a[0..n)"));

    char buf[128];
    gm_inst in = { .op = GM_OP_FADD, .n = 4, .line = 7, .d = 40, .a = 8, .b = 12 };
    gm_ir_format_inst(&in, buf, sizeof buf);
    CHECKF(!strcmp(buf, "FADD n=4 d=40 a=8 b=12 c=0 x=0 line 7"), "'%s'", buf);
    in.op = GM_OP_COUNT + 3;
    gm_ir_format_inst(&in, buf, sizeof buf);
    CHECKF(!strncmp(buf, "op#148 ", 7), "'%s'", buf);
    if (failures)
        fprintf(stderr, "%d check(s) failed\n", failures);
    return failures ? 1 : 0;
}
