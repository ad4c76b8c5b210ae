/* Entry points shared between the files of gpu_model/frontend (not part of gpu_model.h). */
#ifndef GM_FRONTEND_H
#define GM_FRONTEND_H

#include "gpu_model.h"

/* gm_glsl_upgrade for one stage of a program: after_geometry says the program has a geometry
 * shader, so a fragment shader's compatibility inputs (gl_Color, gl_TexCoord, ...) are the
 * geometry shader's outputs glr_gs_* rather than the vertex shader's glr_*. */
char *gm_glsl_upgrade_in_program(const char *source, gm_stage stage, int after_geometry,
                                 gm_upgrade_info *info, char *err, size_t err_size);

#endif
