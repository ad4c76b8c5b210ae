/* Entry points shared between the files of gpu_model/frontend (not part of gpu_model.h). */
#ifndef GM_FRONTEND_H
#define GM_FRONTEND_H

#include "gpu_model.h"

/* gm_glsl_upgrade for one stage of a program: after_geometry says which later stages the
 * program has (GM_UP_PIPE_GS 1, GM_UP_PIPE_TES 2, GM_UP_PIPE_TCS 4: gm_upgrade_tables.h), so a
 * fragment shader's compatibility inputs (gl_Color, gl_TexCoord, ...) are the geometry shader's
 * outputs glr_gs_*, else a TES's glr_tes_*, rather than the vertex shader's glr_*, and a
 * per-vertex array's members (gl_in[i].gl_ClipVertex) the previous stage's. program_es says
 * another stage of the program is GLSL ES, so a source without #version is ES 1.00 (all
 * stages of a program come from one context). */
char *gm_glsl_upgrade_in_program(const char *source, gm_stage stage, int after_geometry,
                                 int program_es, gm_upgrade_info *info, char *err, size_t err_size);

/* Is source GLSL ES: 1 by its #version, or without one by an active precision statement
 * (see gm_upgrade.c); 0 otherwise (also when out of memory). */
int gm_glsl_is_es(const char *source);

#endif
