/* Immediate-mode vertex commands decoded (sm_apply_current.c): glVertex*, glColor*,
 * glSecondaryColor*, glNormal*, glTexCoord*, glMultiTexCoord*, glFogCoord*, glEdgeFlag*, glIndex*
 * glRect*, glRasterPos* and glWindowPos*, every component count, type and vector form. The families are recognised from the
 * registry's command names (prefix, optional component count, lowercase type letters, optional
 * 'v') and the values decoded by the registry's parameter types (GLbyte ... GLdouble, GLboolean),
 * with GL's conversions as Mesa applies them: signed integer colours and normals (2c + 1) /
 * (2^b - 1), unsigned c / (2^b - 1); other attributes convert integers directly. Public to the
 * GPU model, which assembles glBegin/glEnd vertices from the same decoding. */
#ifndef SM_CURRENT_H
#define SM_CURRENT_H

#include <stdbool.h>
#include "registry/glr_call.h"

enum sm_imm_kind {
    SM_IMM_NONE = 0,
    SM_IMM_ATTRIB,   /* sets the current value of legacy slot `slot` (enum sm_legacy_slot) */
    SM_IMM_VERTEX,   /* glVertex*: provokes a vertex; v is its position */
    SM_IMM_RECT,     /* glRect*: v = x1, y1, x2, y2 */
    SM_IMM_RASTER_POS,   /* glRasterPos*: v = the object position */
    SM_IMM_WINDOW_POS,   /* glWindowPos*: v = the window position */
};

struct sm_imm_value {
    enum sm_imm_kind kind;
    int slot;        /* SM_IMM_ATTRIB: legacy slot; -1 for a glMultiTexCoord unit the model lacks */
    float v[4];      /* missing components filled with (0, 0, 0, 1) */
};

/* The family of a command (canonical or not): SM_IMM_NONE for any other command. */
enum sm_imm_kind sm_imm_kind_of(uint32_t cmd);

/* Decodes a call of one of the families. False (out->kind SM_IMM_NONE) for other commands and
 * for a vector form whose values were not recorded. */
bool sm_imm_decode(const struct glr_call *call, struct sm_imm_value *out);

/* Whether cmd (canonical) sets a generic attribute's current value (glVertexAttrib{1-4}*, I, L,
 * N forms): inside glBegin/glEnd, index 0 provokes a vertex. */
bool sm_is_attrib_value_cmd(uint32_t cmd);

#endif
