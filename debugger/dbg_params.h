/* Function parameters of the functions on a warp's call stack (issue 14: a callee's parameters
 * in its frame). glslang passes every argument by pointer to a Function-storage copy the caller
 * makes (the "param" locals); the callee's parameter register holds that address per lane. The
 * model's variable table lists OpVariables only, so parameters are read here from the IR's
 * function table (ids, names, types) through the executor's registers. */
#ifndef GLR_DAP_PARAMS_H
#define GLR_DAP_PARAMS_H

#include <stdbool.h>
#include <stdint.h>
#include "gpu_model/gpu_model.h"

struct dbg_param {
    const char *name;       /* the GLSL name */
    const char *function;   /* the function's IR name ("shade_light(i1;vf3;") */
    int type;               /* the value's type id (gm_type_get) */
    int words;              /* its 32-bit words */
    int reg;                /* the parameter's register word */
    bool by_pointer;        /* the register holds the address of the value (Function storage) */
};

/* The named parameters of the functions on the warp's stack (depth 1.. : main has none), at most
 * max. */
int dbg_stack_params(const gm_warp *w, struct dbg_param *out, int max);
/* One lane's value (words); false when its address is out of the register file. */
bool dbg_read_param(const gm_warp *w, const struct dbg_param *pm, int lane, uint32_t *out);
/* Writes n words at word `offset` of one lane's value (setVariable); false as above. */
bool dbg_write_param(gm_warp *w, const struct dbg_param *pm, int lane, int offset, const uint32_t *words, int n);

#endif
