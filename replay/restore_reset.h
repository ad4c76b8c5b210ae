/* Pieces of the initial-state restore (replay/restore.c) for replayers that keep their contexts and
 * objects across passes and reset only what a frame changed (replay/headless/pass_reset*.c): the
 * full list of restore calls to pick from, and the saved pixel contents to copy in again. */
#ifndef GLR_RESTORE_RESET_H
#define GLR_RESTORE_RESET_H

#include "replay/replay.h"
#include "statemodel/statemodel.h"

/* The calls glr_restore_run issues (made once, kept by r); NULL if memory ran out. Names are the
 * captured ones; blobs point into the restored state (glr_restore_state). */
const struct sm_call_list *glr_restore_call_list(struct glr_restore *r);

/* Whether the snapshot holds pixel contents for the default framebuffer of ctx_id (default_fb) or
 * for renderbuffer `name` (of ctx_id's share group). */
bool glr_restore_has_contents(const struct glr_restore *r, bool default_fb, uint32_t ctx_id, uint32_t name);

/* Saved contents, for glr_restore_want_fn. */
enum glr_restore_content { GLR_CONTENT_RENDERBUFFER, GLR_CONTENT_DEFAULT_COLOR, GLR_CONTENT_DEFAULT_DEPTH_STENCIL };
/* Which saved contents to copy again: the default framebuffer's colour or depth/stencil of ctx_id,
 * or renderbuffer name (of ctx_id's share group). */
typedef bool (*glr_restore_want_fn)(void *user, enum glr_restore_content what, uint32_t ctx_id, uint32_t name);

/* Copies the wanted saved contents into the live objects again, on contexts in any state: every
 * binding, switch and write mask the copy touches is put back. The first copy uploads the pixels
 * into a texture it keeps on that context (see glr_restore_forget_copies). Counts in st (contents_*); 0, or
 * -1 when a copy failed. */
int glr_restore_recopy(struct glr_restore *r, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                       glr_restore_want_fn want, void *want_user, struct glr_restore_stats *st);

/* glr_restore_recopy keeps each saved image uploaded on its context (one blit per copy); call this
 * when those contexts are destroyed, so a later recopy uploads again. */
void glr_restore_forget_copies(struct glr_restore *r);

#endif
