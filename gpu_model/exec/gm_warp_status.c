/* A warp's first error, which every executor file may set. A leaf of its own so that the executor
 * (gm_exec.c, gm_exec_ext.c, gm_exec_f64.c) and the warp's lifetime (gm_warp.c, which runs it) do
 * not call each other for it. (The active mask's setter is inline in gm_exec.h for the same
 * reason.) */
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
