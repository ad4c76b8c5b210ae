/* The opcode table generated from gm_opcodes.py: every opcode has its name (the enum's, without
 * GM_OP_), the flags the timing model reads are where gm_timing_ops.c's switches had them, the
 * declared operand extents (gm_op_operands) give the words the executor reads and writes, and the
 * IR printer writes an instruction as expected. */
#include <string.h>

#include "gm_ir.h"
#include "gm_opcodes.h"
#include "gm_ir_print.h"
#include "gm_op_operands.h"
#include "../../../tests/support/glr_check.h"

typedef struct {
    int n;
    int64_t word[8], words[8];
    gm_op_type type[8];
} srcs;

static void collect(void *ctx, int64_t word, int64_t words, gm_op_type type)
{
    srcs *s = ctx;
    if (s->n < 8) {
        s->word[s->n] = word;
        s->words[s->n] = words;
        s->type[s->n++] = type;
    }
}

/* The operands of one instruction in a program without aux words or texture descriptors. */
static srcs operands_of(const gm_program *p, gm_inst in, int32_t *dst, int32_t *dst_n, gm_op_type *result)
{
    srcs s = {0};
    gm_op_operands(p, &in, dst, dst_n, result, collect, &s);
    return s;
}

int main(void)
{
    gm_program prog = {0};
    uint32_t aux[4] = {50, 7, 51, 9};   /* COPY_LIST pairs (dst, src); BFI offset, count words */
    prog.aux = aux;
    prog.aux_count = 4;
    int32_t dst, dst_n;
    gm_op_type res;
    for (unsigned op = 0; op < GM_OP_COUNT; op++) {
        gm_inst in = { .op = (uint16_t)op, .n = 2, .d = 10, .a = 20, .b = 30, .c = 40 };
        int r = gm_op_table_operands(&in, &dst_n, collect, &(srcs){0});
        CHECKF(r == ((gm_op_table[op].flags & GM_OPF_CUSTOM) ? 1 : 0), "opcode %s: table operands %d", gm_op_name(op), r);
    }
    {
        gm_inst in = { .op = GM_OP_COUNT, .n = 2 };
        CHECK(gm_op_table_operands(&in, &dst_n, collect, &(srcs){0}) == -1);
    }
    /* element-wise float arithmetic: d, a, b of n words, float-checked */
    srcs s = operands_of(&prog, (gm_inst){ .op = GM_OP_FADD, .n = 3, .d = 10, .a = 20, .b = 30 }, &dst, &dst_n, &res);
    CHECK(dst == 10 && dst_n == 3 && res == GM_OPT_F32 && s.n == 2 && s.words[0] == 3 && s.words[1] == 3);
    CHECK(s.word[0] == 20 && s.word[1] == 30 && s.type[0] == GM_OPT_F32);
    /* unary: no b */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_FNEG, .n = 2, .d = 10, .a = 20, .b = 30 }, &dst, &dst_n, &res);
    CHECK(s.n == 1 && s.word[0] == 20);
    /* matrix * matrix: x = rows | inner << 8 | cols << 16 (2x3 times 3x4) */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_MAT_TIMES_MAT, .n = 8, .d = 10, .a = 20, .b = 40,
                                      .x = 2 | 3 << 8 | 4 << 16 }, &dst, &dst_n, &res);
    CHECK(dst_n == 8 && s.n == 2 && s.words[0] == 6 && s.words[1] == 12);
    /* doubles: dot of 3 components reads 6 words a side, writes one double */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_DDOT, .n = 2, .d = 10, .a = 20, .b = 40, .x = 3 }, &dst, &dst_n, &res);
    CHECK(dst_n == 2 && res == GM_OPT_F64 && s.n == 2 && s.words[0] == 6 && s.words[1] == 6 && s.type[0] == GM_OPT_F64);
    /* double comparisons: n booleans from 2n words a side, not float-checked */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_DCMP, .n = 3, .d = 10, .a = 20, .b = 40 }, &dst, &dst_n, &res);
    CHECK(dst_n == 3 && res == GM_OPT_NONE && s.n == 2 && s.words[0] == 6 && s.words[1] == 6);
    /* stores write no register; shared-memory addresses are one word */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_SH_STORE, .n = 4, .d = 10, .a = 20, .b = 30 }, &dst, &dst_n, &res);
    CHECK(dst_n == 0 && s.n == 2 && s.words[0] == 1 && s.words[1] == 4);
    /* atomics: the comparator only when there is one */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_BUF_ATOMIC, .n = 1, .d = 10, .a = 20, .b = 30 }, &dst, &dst_n, &res);
    CHECK(dst_n == 1 && s.n == 2);
    /* custom: a copy list writes the span of its destinations; BFI reads its aux words */
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_COPY_LIST, .n = 2, .d = 99, .x = 0 }, &dst, &dst_n, &res);
    CHECK(dst == 50 && dst_n == 2 && s.n == 2 && s.word[0] == 7 && s.word[1] == 9);
    s = operands_of(&prog, (gm_inst){ .op = GM_OP_BFI, .n = 1, .d = 10, .a = 20, .b = 30, .x = 2 }, &dst, &dst_n, &res);
    CHECK(s.n == 4 && s.word[2] == 51 && s.word[3] == 9);
    /* the debugger's names for operations */
    CHECK(!strcmp(gm_op_table[GM_OP_DDIV].what, "division") && !gm_op_table[GM_OP_COPY].what);
    CHECK(gm_op_table[GM_OP_DPDX].flags & GM_OPF_QUAD);
    CHECK(gm_op_table[GM_OP_SHL].i64 == GM_I64K_SHIFT && gm_op_table[GM_OP_FADD].i64 == GM_I64K_NONE);

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
