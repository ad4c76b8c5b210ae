/* The IR printer (gm_ir_print.h): names from the generated opcode table, fields as stored. */
#include "gm_ir_print.h"
#include "gm_opcodes.h"

const char *gm_op_name(unsigned op)
{
    return op < GM_OP_COUNT ? gm_op_table[op].name : NULL;
}

int gm_ir_format_inst(const gm_inst *in, char *buf, size_t size)
{
    char num[16];
    const char *name = gm_op_name(in->op);
    if (!name) {
        snprintf(num, sizeof num, "op#%u", (unsigned)in->op);
        name = num;
    }
    return snprintf(buf, size, "%s n=%u d=%u a=%u b=%u c=%u x=%u line %d", name, (unsigned)in->n, in->d, in->a,
                    in->b, in->c, in->x, in->line);
}

void gm_ir_print(FILE *f, const gm_program *p)
{
    char line[256];
    for (int pc = 0; pc < p->code_count; pc++) {
        for (int b = 0; b < p->block_count; b++)   /* the headers of the blocks starting here */
            if (p->blocks[b].first_pc == pc)
                fprintf(f, "block %d (label %%%d, function %d):\n", b, p->blocks[b].label, p->blocks[b].func);
        gm_ir_format_inst(&p->code[pc], line, sizeof line);
        fprintf(f, "%5d  %s\n", pc, line);
    }
}
