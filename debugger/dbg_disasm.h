/* The instructions under the lines (issue 15 §4): a captured shader's program in the model's
 * register IR, one entry per pc, for DAP `disassemble`, instruction breakpoints and
 * instructionPointerReference. An instruction's address is (shader id << 32) | pc. */
#ifndef GLR_DAP_DISASM_H
#define GLR_DAP_DISASM_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gm_program gm_program;

struct dbg_dinst {
    char text[120];     /* "fdiv n=2 d=41 a=37 b=39 c=0 x=0" (op and operand words) */
    int line;           /* shader line (0: none) */
    int func;           /* index into dbg_disasm.funcs */
    bool func_entry;    /* the function's first instruction */
};

struct dbg_disasm {
    int n;              /* instructions (pcs 0..n-1) */
    struct dbg_dinst *ins;
    char (*funcs)[64];  /* function names (GLSL, no signature) */
    int n_funcs;
};

/* From a compiled program (gm_program_dump); NULL when out of memory or the dump is unreadable. */
struct dbg_disasm *dbg_disasm_build(const gm_program *p);
void dbg_disasm_free(struct dbg_disasm *d);

/* Addresses: "0x<shader><pc as 8 hex digits>"; parse accepts hex "0x..." or decimal. */
uint64_t dbg_disasm_address(int shader, int pc);
bool dbg_disasm_parse_address(const char *text, uint64_t *addr);

#endif
