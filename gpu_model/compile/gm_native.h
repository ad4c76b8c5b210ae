/* Compiled runs of a shader (issue 17 §1): the straight-line runs of whole-warp instructions a
 * program executes most (arithmetic, compares, conversions, moves, uniform loads, with calls of the
 * pre-decoded handlers for the rest, e.g. GLSL.std.450) are turned into C, one loop over the 32
 * lanes per run segment with the values in locals, compiled by the system C compiler into a shared
 * object (cached on disk), and called by the executor in place of one handler call per instruction.
 * Opt-in: GLREPLAY_MODEL_COMPILE=1. Same bits as the interpreter: every lane computes the same IEEE
 * operation, in the same order, with the same NaN rule (gm_nan_first). See DESIGN.md "Compiled runs". */
#ifndef GM_NATIVE_H
#define GM_NATIVE_H

#include "gm_ir.h"

#include <stddef.h>

/* Whether GLREPLAY_MODEL_COMPILE asks for compiled runs (read once). */
int gm_native_enabled(void);

/* Compiles p's runs and installs them (p->native, p->native_len); on any failure (no compiler,
 * a compile error, a timeout, nothing worth compiling) p runs on the interpreter as before and one
 * line goes to stderr the first time. Called by gm_program_create after the pre-decoded form. */
void gm_native_attach(gm_program *p);

/* Frees what gm_native_attach installed (gm_program_destroy). */
void gm_native_release(gm_program *p);

/* ---- the parts, for the tests ---- */

/* The C source of p's runs (malloc'd; NULL when none is worth compiling or out of memory), and
 * the first pc of each run into *starts (malloc'd, *count entries). Each run is a function
 * `int glr_run_PC(...)` (gm_native_fn) returning how many of its instructions completed; when
 * some blocks can be run whole, the source also has `glr_flow` (gm_native_flow_fn) and
 * *flow_entry (malloc'd, per pc) marks the first instruction of each. */
char *gm_native_source(const gm_program *p, int **starts, int **lens, int *count, uint8_t **flow_entry);

/* Compiles src into a shared object (or finds it in the cache) and loads it: the handle, or NULL
 * with a one-line reason in err. */
void *gm_native_build(const char *src, char *err, size_t err_size);

#endif
