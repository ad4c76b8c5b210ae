/* The fixed-function sources of a capture (issue 12): draws without a GLSL stage run GLSL the GPU
 * model generates per state combination (gpu_model/fixedfunc, gmf_ffunc.c). The debugger lists
 * them with the captured shaders, so they are served with a sourceReference, take breakpoints and
 * are stepped like any shader. One quick run of the frame in the model, in which draws only choose
 * and compile their programs (gmf_set_programs_only), finds them and which draws run them. */
#ifndef GLR_DAP_FF_SOURCES_H
#define GLR_DAP_FF_SOURCES_H

#include <stdbool.h>
#include <stdint.h>

struct dbg_capture;
struct dbg_program;

/* Whether a draw of the capture may run a generated stage (a draw with no program, a display list
 * call, a program without a vertex or a fragment shader). */
bool dbg_capture_may_run_ff(const struct dbg_capture *c);
/* Adds the generated sources as shaders ("fixed-function-N-VS.vert" / "-FS.frag", N as the model
 * numbers them: "fixed-function vs #N"), a program per combination and c->ff_draws. 0, or -1 with
 * c->ff_error set (the capture still debugs its GLSL). */
int dbg_capture_add_ff(struct dbg_capture *c);

#endif
