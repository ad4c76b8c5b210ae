/* Private to gpu_model/frame: fixed-function stages of a draw (gmf_ffunc.c) and the values of
 * the compatibility built-in uniforms (gmf_ff_uniforms.c). */
#ifndef GMF_FFUNC_H
#define GMF_FFUNC_H

#include <stdbool.h>
#include "gmf_internal.h"
#include "fixedfunc/gm_ff.h"

/* The program a draw runs: per stage the bound GLSL program's shader, else [an ARB assembly
 * program], else generated fixed-function GLSL (cached per state key). sp is the bound GLSL
 * program (NULL: none); call/cmd the draw (its primitive mode matters for point sprites).
 * NULL when out of memory; a program that failed has ok false and says why in error. */
gmf_prog *gmf_draw_program(gmf_runner *r, const struct sm_context *c, const struct sm_program *sp,
                           const struct glr_call *call, uint32_t cmd, gmf_event *ev);
/* What the compatibility profile adds to a draw once its pipeline state is set: flat shading of
 * the colour varyings, the generated vertex stage's point size, the legacy alpha test. */
void gmf_ff_draw_state(gmf_draw_ctx *d);
/* The legacy alpha test on a fragment warp's colour 0 (after the shader; lanes that fail are
 * discarded). */
void gmf_ff_alpha_test(const gmf_draw_ctx *d, gm_pipe_fs_warp *fw);
void gmf_ff_free(gmf_runner *r);

/* gmf_ff_uniforms.c: the values Mesa precomputes; feeding every glr_* compatibility uniform
 * and ff_* uniform of one stage; whether a uniform name is one fed so. */
void gmf_ff_values_get(const struct sm_context_state *st, gm_ff_values *v);
void gmf_ff_upload(const struct sm_context *c, gm_program *gp);
bool gmf_ff_uniform_fed(const char *name);

#endif
