/* The display lists of the initial-state snapshot: every list kept by display_lists.c becomes a
 * RESOURCE_BLOB of kind 4 (docs/GLCAP_FORMAT.md): ctx_id a context of its share group, name the
 * list's name, the content its records in command-stream encoding. replay/restore_lists.c compiles
 * them again. Lists that were not kept (over the memory cap) are named in a warning. */
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/display_lists.h"
#include "shim/snapshot.h"

#define GLR_SNAP_BLOB_DISPLAY_LIST 4

void glr_snap_display_lists(struct glr_snap *sn)
{
    size_t n = 0;
    struct glr_dl_copy *lists = glr_dl_copy_all(&n);
    uint32_t here = glr_ctx_share_group(glr_ctx_current());
    size_t kept = 0, dropped = 0;
    unsigned said = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        dropped += lists[i].why != NULL;
    for (size_t i = 0; i < n; i++) {
        struct glr_dl_copy *l = &lists[i];
        if (l->why) {
            /* The replay will lack it: said at the default log level once, then per list. */
            if (!said++)
                glr_log(GLR_LOG_ERROR, "capture: display list %u of share group %u was not kept: %s (%zu list(s) "
                        "in all; the replay lacks them)", l->name, l->share_group, l->why, dropped);
            glr_snap_warn(sn, "display list %u of share group %u was not kept: %s", l->name, l->share_group, l->why);
            continue;
        }
        /* The capturing context for its own share group; else the one that compiled the list, if
         * it is still alive (a group whose contexts are all gone has lost its lists anyway). */
        uint32_t ctx = l->share_group == here ? sn->ctx : sm_context_get(sn->s, l->ctx_id) ? l->ctx_id : 0;
        if (!ctx) {
            glr_log(GLR_LOG_INFO, "snapshot: display list %u of share group %u left out: the context that "
                    "compiled it is gone", l->name, l->share_group);
            continue;
        }
        struct glr_snap_blob b = { .kind = GLR_SNAP_BLOB_DISPLAY_LIST, .ctx_id = ctx, .name = l->name,
                                   .data = l->data, .size = l->size };
        if (!glr_snap_add_blob(sn, &b)) {
            glr_snap_warn(sn, "display list %u of share group %u was not kept: out of memory", l->name,
                          l->share_group);
            continue;
        }
        l->data = NULL;  /* the snapshot owns it now */
        kept++;
        bytes += l->size;
    }
    if (kept)
        glr_log(GLR_LOG_INFO, "snapshot: %zu display lists, %llu bytes of records", kept, (unsigned long long)bytes);
    glr_dl_free_copies(lists, n);
}
