/* Fixed-function state of a snapshot capture (RESOURCE_BLOB kind 7, docs/GLCAP_FORMAT.md): set
 * again on a replay context by replay/restore.c. */
#ifndef GLR_RESTORE_FIXED_H
#define GLR_RESTORE_FIXED_H

#include <stddef.h>
#include "replay/replay.h"

enum { GLR_RESTORE_FIXED_FUNCTION = 7 };

/* Issues the calls (command-stream encoding) on the current context through d; failed calls are
 * counted in st. 0, or -1 when the records are corrupt (why says where). */
int glr_restore_fixed_function(struct glr_dispatch *d, const void *data, size_t size, struct glr_restore_stats *st,
                               char *why, size_t why_size);

#endif
