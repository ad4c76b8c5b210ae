/* Display lists of a snapshot capture (RESOURCE_BLOB kind 4, docs/GLCAP_FORMAT.md): compiled again
 * on a replay context by replay/restore.c, after the restore calls made the objects they use. */
#ifndef GLR_RESTORE_LISTS_H
#define GLR_RESTORE_LISTS_H

#include <stddef.h>
#include <stdint.h>
#include "replay/replay.h"

enum { GLR_RESTORE_DISPLAY_LIST = 4 };

/* Compiles list `name` (the captured name: the replay calls lists by their captured names) from
 * its records (command-stream encoding) on the current context, which is ctx_id of the capture:
 * glNewList(name, GL_COMPILE), each record through the dispatcher d (object names remapped like
 * the stream's; client-memory vertex arrays of draws inside the list pointed at copies of the
 * recorded bytes, client state put back afterwards), glEndList. Calls that fail are counted in st.
 * 0, or -1 when the records are corrupt or the driver has no display lists (why says which). */
int glr_restore_list(struct glr_dispatch *d, uint32_t ctx_id, uint32_t name, const void *data, size_t size,
                     struct glr_restore_stats *st, char *why, size_t why_size);

#endif
