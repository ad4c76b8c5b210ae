/* Pieces of the initial-state restore (replay/restore.c) for replayers that keep their contexts and
 * objects across passes and reset only what a frame changed (replay/player/pass_reset*.c): the
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

/* One saved content of the snapshot (RESOURCE_BLOB kinds 1-6, docs/GLCAP_FORMAT.md), for consumers
 * that apply it themselves (the GPU model): captured names, rows bottom-up, data owned by r. */
struct glr_restore_saved {
    uint32_t kind, ctx_id, name, width, height, internal_format, format, type;
    const void *data;
    uint64_t size;
};
/* The number of saved contents, and content i (false when i is out of range). */
size_t glr_restore_content_count(const struct glr_restore *r);
bool glr_restore_content_at(const struct glr_restore *r, size_t i, struct glr_restore_saved *out);

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

/* Query results at the frame start (replay/restore_queries.c): glr_restore_run makes every result the
 * snapshot kept; a replayer that keeps its contexts makes again those of the queries its frame
 * began (want: which ones; NULL for all). Made results count in st as contents_restored, results
 * that could not be made (another query of the target active, no program could be built) as
 * contents_failed. 0, or -1 when one failed. The maker keeps a private program, vertex array and
 * framebuffer on each context it drew on; glr_query_maker_forget when those contexts are gone. */
struct glr_query_maker;
struct glr_query_maker *glr_query_maker_new(void);
void glr_query_maker_free(struct glr_query_maker *m);
void glr_query_maker_forget(struct glr_query_maker *m);
typedef bool (*glr_restore_query_want_fn)(void *user, uint32_t ctx_id, uint32_t name);
int glr_restore_query_results(struct glr_query_maker *m, const struct sm_state *s, struct glr_dispatch *d,
                              glr_make_current_fn make_current, void *user, glr_restore_query_want_fn want,
                              void *want_user, struct glr_restore_stats *st);
/* The maker glr_restore_run uses (owned by r). */
struct glr_query_maker *glr_restore_query_maker(struct glr_restore *r);

#endif
