/* Feeds a loaded snapshot's saved pixel contents (replay/restore_reset.h) to a frame runner of the
 * GPU model (gmf_feed_initial_contents): the glue between replay/ and gpu_model/, which do not know
 * each other. Header only: callers that hold a struct glr_restore (they link replay/) include this
 * after gmf_feed_initial_state. */
#ifndef GMF_SNAPSHOT_CONTENTS_H
#define GMF_SNAPSHOT_CONTENTS_H

#include <stdlib.h>
#include "gpu_model/frame/gmf_frame.h"
#include "replay/restore_reset.h"

/* The count written, or -1 (out of memory). snap may be NULL (nothing to feed). */
static inline int gmf_feed_snapshot_contents(gmf_runner *r, const struct glr_restore *snap)
{
    int written = 0;
    for (size_t i = 0; i < glr_restore_content_count(snap); i++) {
        struct glr_restore_saved s;
        if (!glr_restore_content_at(snap, i, &s))
            break;
        gmf_content c = { s.kind, s.ctx_id, s.name, s.width, s.height, s.internal_format, s.format, s.type,
                          s.data, s.size, 0, 0 };
        int rc = gmf_feed_initial_contents(r, &c, 1);
        if (rc < 0)
            return -1;
        written += rc;
    }
    return written;
}

/* The snapshot's contents as an array for later feeding (pointing into snap's data: keep snap
 * alive while it is used); free() it. NULL with *n 0 when there are none or memory ran out. */
static inline gmf_content *gmf_snapshot_content_list(const struct glr_restore *snap, size_t *n)
{
    size_t count = glr_restore_content_count(snap);
    gmf_content *list = count ? calloc(count, sizeof *list) : NULL;
    *n = 0;
    for (size_t i = 0; list && i < count; i++) {
        struct glr_restore_saved s;
        if (!glr_restore_content_at(snap, i, &s))
            break;
        list[(*n)++] = (gmf_content){ s.kind, s.ctx_id, s.name, s.width, s.height, s.internal_format, s.format,
                                      s.type, s.data, s.size, 0, 0 };
    }
    return list;
}

#endif
