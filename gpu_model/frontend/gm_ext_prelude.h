/* Extension emulation: declarations added after #version so that glslang accepts what Mesa
 * accepts through extensions (gm_ext_prelude.c). Internal to gpu_model/frontend. */
#ifndef GM_EXT_PRELUDE_H
#define GM_EXT_PRELUDE_H

#include "gpu_model.h"

/* The lines (each ending in a newline) to insert after the #version line of text, the source
 * glslang compiles (version/es: its #version), or NULL when it needs none or out of memory. */
char *gm_ext_prelude(const char *text, gm_stage stage, int version, int es);

#endif
