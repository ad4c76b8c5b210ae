/* replay: re-issuing captured frames on a live GL context (headless or in-process).
 * Public header of the module. */
#ifndef GLR_REPLAY_H
#define GLR_REPLAY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "registry/glr_call.h"
#include "registry/glr_call_codec.h"

/* ---- Dispatcher: one decoded call -> the driver, with object names remapped. ---- */

enum glr_dispatch_result {
    GLR_DISPATCH_OK = 0,
    GLR_DISPATCH_SKIPPED = 1,  /* a query or a GLX/EGL call: no GL state effect to reproduce */
    GLR_DISPATCH_MISSING = 2,  /* the replaying driver lacks the function */
    GLR_DISPATCH_BAD = 3,      /* the call's recorded data is malformed */
};

/* Resolves a GL function of the replaying driver (eglGetProcAddress, epoxy, or the shim's real
 * pointers in-process). */
typedef void *(*glr_get_proc_fn)(void *user, const char *name);
/* The namespace of object names of class `obj_class` for context `ctx_id`: the share group for
 * shared objects, the context itself for per-context ones (VAOs, FBOs, queries, ...). It must
 * give the same answer for the same arguments over the dispatcher's life (answers are cached). */
typedef uint32_t (*glr_namespace_fn)(void *user, uint32_t ctx_id, int obj_class);

struct glr_dispatch;
struct glr_dispatch *glr_dispatch_create(glr_get_proc_fn get_proc, glr_namespace_fn ns, void *user);
void glr_dispatch_destroy(struct glr_dispatch *d);
/* Forgets every name mapping (between replay passes that recreate everything). */
void glr_dispatch_reset_names(struct glr_dispatch *d);
int glr_dispatch_call(struct glr_dispatch *d, const struct glr_call *c);
/* Why the last call answered GLR_DISPATCH_BAD, one line (what did not fit which limit). */
const char *glr_dispatch_reason(const struct glr_dispatch *d);
/* The replay name of a captured object name (identity when unknown). */
uint64_t glr_dispatch_lookup(struct glr_dispatch *d, uint32_t ctx_id, int obj_class, uint64_t captured);
/* A GLR_PSEUDO_BUFFER_DATA record: writes its bytes through the replay's mapping made by the same
 * recorded map call. GLR_DISPATCH_OK, or GLR_DISPATCH_BAD when no such mapping is live or the
 * bytes fall outside it. */
int glr_dispatch_buffer_data(struct glr_dispatch *d, const struct glr_call *c);
/* A GLR_PSEUDO_BUFFER_MAPPED record: maps the (restored) buffer as the program had it mapped when
 * the capture started, so later BUFFER_DATA records can write through it. */
int glr_dispatch_buffer_mapped(struct glr_dispatch *d, const struct glr_call *c);
/* Whether call c passes client memory whose bytes the capture lacks (a non-NULL const pointer with
 * no blob: the recorder could not size it), for commands marked in unsized[] (the capture's
 * "unsized_client_memory" list, indexed by command): replaying it would hand the driver an
 * address of the captured process. */
bool glr_call_lacks_client_memory(const bool *unsized, const struct glr_call *c);
/* Whether objects of this class are per context (not shared across a share group). */
bool glr_obj_class_per_context(int obj_class);

/* ---- Initial state (replay/restore.c): captures that start after contexts exist carry a snapshot
 * ("initial_state":"snapshot"; INITIAL_STATE and RESOURCE_BLOB sections, docs/GLCAP_FORMAT.md).
 * A replayer restores it on fresh contexts before every pass. ---- */
struct glr_restore;
struct sm_state;
/* Makes context ctx_id of the capture current on the replaying thread; 0 on success. */
typedef int (*glr_make_current_fn)(void *user, uint32_t ctx_id);
struct glr_restore_stats {
    uint64_t calls, calls_failed;         /* restore calls issued; missing in the driver or malformed */
    const char *first_failed;             /* command name of the first failed call, or NULL */
    unsigned contents_restored, contents_failed;  /* default framebuffer / renderbuffer images */
};
/* Loads INITIAL_STATE and its RESOURCE_BLOBs. NULL with a one-line message when the file has none
 * or they are corrupt. */
struct glr_restore *glr_restore_load(const char *path, char *err, size_t err_size);
/* Recreates the initial state on the replay's fresh contexts through the dispatcher d (its name
 * mappings are filled like the stream's), then the default framebuffers' contents. Call it after
 * creating the contexts and resetting d's names, before the pass. 0, or -1 with err (or
 * GLR_RESTORE_INTERRUPTED, see glr_restore_set_interrupt). */
int glr_restore_run(struct glr_restore *r, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                    struct glr_restore_stats *stats, char *err, size_t err_size);
/* Optional: glr_restore_run checks *flag (read atomically; another thread sets it) before each call
 * and content it restores, and when it is nonzero stops there and returns GLR_RESTORE_INTERRUPTED,
 * leaving the contexts half restored: for a replay nobody will see the end of (the live debugger's
 * paused program resumes as soon as its session ends). NULL: never. */
#define GLR_RESTORE_INTERRUPTED 1
void glr_restore_set_interrupt(struct glr_restore *r, const int *flag);
/* The restored state model (what `glreplay state` starts from); borrowed. */
const struct sm_state *glr_restore_state(const struct glr_restore *r);
void glr_restore_free(struct glr_restore *r);

#endif
