/* The two writes of a warp's status that every executor file makes: its first error and its
 * active mask (with the per-lane count and blend bits derived from it). A leaf of its own so that
 * the executor (gm_exec.c, gm_exec_ext.c, gm_exec_f64.c) and the warp's lifetime (gm_warp.c, which
 * runs it) do not call each other for them. */
#include "gm_exec.h"

#include <stdarg.h>
#include <stdio.h>

void gm_exec_error(gm_warp *w, const char *fmt, ...)
{
    if (w->error)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    w->error = 1;
}

void gm_exec_set_mask(gm_warp *w, gm_mask m)
{
    w->mask = m;
    w->mask_lanes = (int)gm_popcount32(m);
    for (int l = 0; l < GM_LANES; l++)
        w->lane_bits[l] = (m >> l) & 1 ? -1 : 0;
}
