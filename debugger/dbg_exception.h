/* Exception breakpoints (DAP setExceptionBreakpoints, issue 15 §3): a pass watches every issued
 * instruction of the model for trouble and stops at the first one that causes it, in the warp
 * whose lanes did it.
 *
 *  - "nan" / "inf": a float instruction wrote a NaN (an infinity) in a lane whose float operands
 *    held none: the value was *produced* there (0/0, sqrt(-1), normalize(vec3(0)), overflow), not
 *    carried from an operand, so the stop is where it first appears, not every later use. Checked
 *    after the instruction ran (at the warp's next instruction); the stop shows the producing
 *    instruction's line and pc with the values it wrote.
 *  - "divzero": a float or integer division or modulo by zero, checked before it runs.
 *  - "bounds": an array/vector/matrix index outside its declared size (the model clamps it, as
 *    llvmpipe does), or a buffer load/store past the end of its bound buffer (reads 0 / dropped),
 *    or with no buffer bound; checked before it runs.
 *
 *  - "texture": a texture sample, fetch or gather through a unit whose texture is not complete by
 *    GL's rules with the sampler state in use (a mipmapping minification filter without every
 *    level, no base level) or that has no texture bound; the model returns (0, 0, 0, 1) there as
 *    llvmpipe does. Checked before it runs (size and level queries are not fetches).
 *
 *  - "uninit": a value computed from a local (or global, non-uniform) variable that the lane never
 *    wrote on its path: each lane's undefined words are followed through loads, stores, copies,
 *    dynamic indexing and return values (so `v.xy = a;` copying v's untouched zw along is no use),
 *    and a select (`?:`, mix() with a bool) carries the operand each lane's condition picked. The
 *    stop is at the first arithmetic, comparison, integer or logic operation, branch condition,
 *    select condition, texture coordinate (or level, bias, gradient, offset, depth reference) that
 *    reads one, or at a move of one into a stage output (`gl_FragColor = c;` with c.a unset).
 *    Function parameters and variables with initializers are written before use.
 *
 * Helper lanes (2x2 quad fillers) never count: their values are not the draw's. 64-bit
 * instructions are checked too: double arithmetic, products, dot, GLSL.std.450 functions and the
 * double-to-float conversion for nan/inf, double and 64-bit integer division and modulo for
 * divzero. */
#ifndef GLR_DAP_EXCEPTION_H
#define GLR_DAP_EXCEPTION_H

#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dbg_runner.h"

enum {
    DBG_EXC_NAN = 1u << 0,
    DBG_EXC_INF = 1u << 1,
    DBG_EXC_DIV0 = 1u << 2,
    DBG_EXC_BOUNDS = 1u << 3,
    DBG_EXC_TEXTURE = 1u << 4,   /* a fetch from an incomplete texture (or none bound) */
    DBG_EXC_UNINIT = 1u << 5,    /* a computation reads a local never written on the lane's path */
};

/* The capabilities' exceptionBreakpointFilters array. */
cJSON *dbg_exc_filters_json(void);
/* The filter bits of a setExceptionBreakpoints request (`filters` and `filterOptions`), and its
 * answer's `breakpoints` (one per filter named, unknown ones unverified with a message). false
 * with err when the arguments are malformed. */
bool dbg_exc_parse(const cJSON *args, unsigned *bits, cJSON *breakpoints, char *err, size_t err_size);

/* What a pass found. */
struct dbg_exc_hit {
    unsigned kind;          /* one DBG_EXC_* bit */
    const char *id;         /* the filter id: "nan", "inf", "divzero", "bounds", "texture" */
    gm_issue at;            /* the instruction that did it (pc, line, the lanes it ran with) */
    gm_mask lanes;          /* the lanes that did it */
    int lane;               /* the first of them (the stop's focused lane) */
    char text[600];         /* which lanes, what, with the first lane's operands */
};

struct dbg_exc_state;
struct dbg_exc_state *dbg_exc_new(unsigned bits);
void dbg_exc_free(struct dbg_exc_state *st);

/* Called for every observed instruction of a pass, in order, before it runs. True when this
 * instruction (divzero, bounds) or the warp's previous one (nan, inf) is an exception: *hit says
 * which; the stop is taken here, with hit->at as the instruction to show. */
bool dbg_exc_observe(struct dbg_exc_state *st, const struct dbg_observe_info *info, gm_warp *w,
                     const gm_issue *is, struct dbg_exc_hit *hit);

#endif
