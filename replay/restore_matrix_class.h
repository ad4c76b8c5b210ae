/* Restored modelview matrices get the classification a program's own matrices have in Mesa
 * (docs/FIDELITY.md, "Matrix classification"): see restore_matrix_class.c. */
#ifndef GLR_RESTORE_MATRIX_CLASS_H
#define GLR_RESTORE_MATRIX_CLASS_H

#include "replay/replay.h"
#include "registry/glr_call.h"

/* To be called after each restore call c was issued on the current context: when c loaded the
 * modelview matrix whole (glLoad[Transpose]Matrix*, glMult[Transpose]Matrix*), the driver is
 * made to classify it from its contents now, as it classifies a matrix a program drew with. */
void glr_restore_matrix_loaded(struct glr_dispatch *d, const struct glr_call *c);

#endif
