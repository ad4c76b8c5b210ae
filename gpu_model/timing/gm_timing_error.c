/* The timing model's error message, a leaf of its own: the scheduler (gm_timing_sched.c) sets it
 * when a warp fails or the model deadlocks, the front (gm_timing.c) when a call is refused, and
 * neither has to call the other for it. */
#include "gm_timing_internal.h"

#include <stdarg.h>
#include <stdio.h>

void tm_set_error(gm_timing *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof t->err, fmt, ap);
    va_end(ap);
}
