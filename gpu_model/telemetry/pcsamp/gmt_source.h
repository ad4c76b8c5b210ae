/* gmt_source.h - how the PC-sampling and edge-profile reports find shader source text.
 *
 * The model's programs carry line numbers and a file name per PC ("program3.frag" from the
 * frame runner) but not the text. Reports that print source lines ask the caller through
 * this callback (the profile spine answers from the state model: the program's linked
 * shader sources, whose line numbers the model keeps, see gm_glsl_upgrade). */
#ifndef GMT_SOURCE_H
#define GMT_SOURCE_H

#include <stdint.h>

#include "gpu_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Returns the source text of one stage of a captured program (ctx_id: the GL context of the
 * draw that ran it, program: its captured name, file: the model's file name of the PCs, may be
 * NULL), or NULL when unknown. The text must stay valid until the report function returns. */
typedef const char *(*gmt_source_fn)(void *ctx, uint32_t ctx_id, uint32_t program, gm_stage stage,
                                     const char *file);

#ifdef __cplusplus
}
#endif
#endif
