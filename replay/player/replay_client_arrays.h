/* Pointing GL at the copy of a GLR_PSEUDO_CLIENT_ARRAY record's bytes: shared by the headless
 * replayer and other drivers of a replay (`glreplay model --compare`), so generic and legacy
 * fixed-function arrays (index GLR_CLIENT_ARRAY_LEGACY_BASE + slot) are re-pointed the same way. */
#ifndef GLRH_REPLAY_CLIENT_ARRAYS_H
#define GLRH_REPLAY_CLIENT_ARRAYS_H

#include "replay/player/gl_readback.h"
#include "registry/glr_call.h"

/* mem: a copy of c's blob that stays alive until the draw after it has run. Points the record's
 * array (generic attribute or legacy array) of the current context at it, with GL_ARRAY_BUFFER
 * unbound for the call and put back. Returns a GLR_DISPATCH_* code. */
int glrh_point_client_array(const struct glrh_gl *gl, const struct glr_call *c, const void *mem);

#endif
