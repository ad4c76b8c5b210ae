/* GL_ARB_shader_subroutine lowered to plain GLSL for glslang (gm_subroutine.c). Internal to
 * gpu_model/frontend; the frame layer feeds the uniforms it introduces (gmf_subroutine.c). */
#ifndef GM_SUBROUTINE_H
#define GM_SUBROUTINE_H

#include <stddef.h>

/* The rewritten source (same lines; dispatchers appended), or NULL with *changed 0 when src
 * declares no subroutine type, or NULL with err set on a malformed declaration or out of memory
 * (*changed 0 too: tell them apart by err[0]). */
char *gm_lower_subroutines(const char *src, int *changed, char *err, size_t err_size);

#endif
