/* Comparing the state the driver reports (glGet*) with the state model's values for the same
 * context, field by field. Object names are compared through the replay dispatcher's mapping
 * (captured name -> the name the replaying driver gave). */
#ifndef SM_E2E_GL_FIELDS_H
#define SM_E2E_GL_FIELDS_H

#include <stdint.h>
#include "replay/replay.h"
#include "statemodel/statemodel.h"

struct field_check {
    struct glr_dispatch *d;  /* maps the model's (captured) names to the driver's */
    uint32_t ctx;            /* the model context compared (and the dispatcher namespace) */
    const char *where;       /* "event 559 (before glDrawElements) [replay]": mismatch prefix */
    unsigned fields;         /* fields compared */
    unsigned mismatches;
};

/* Compares the current GL context's state with model context c; prints one line per mismatch
 * ("<where> GL_DEPTH_FUNC: driver ..., model ...") and counts them. Leaves the GL state as it
 * found it (the active texture unit is restored). */
void compare_fields(struct field_check *k, const struct sm_context *c);

#endif
