/* The functions of a compiled shader and the line where each begins: what a function breakpoint
 * (DAP setFunctionBreakpoints, issue 15 §7) binds to. */
#ifndef GLR_DAP_FUNCS_H
#define GLR_DAP_FUNCS_H

typedef struct gm_program gm_program;

struct dbg_func {
    char name[64];   /* the GLSL name: "main", "shade_light" (no parameter signature) */
    int line;        /* the first line of its body with code (0: none) */
};

/* Fills *out (malloc'd) with the program's functions; returns their count, 0 when none or out
 * of memory. */
int dbg_program_funcs(const gm_program *p, struct dbg_func **out);

#endif
