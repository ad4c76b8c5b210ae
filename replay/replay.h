/* replay: re-issuing captured frames on a live GL context (headless or in-process).
 * Public header of the module. */
#ifndef GLR_REPLAY_H
#define GLR_REPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include "statemodel/registry/glr_call.h"
#include "statemodel/registry/glr_call_codec.h"

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
 * shared objects, the context itself for per-context ones (VAOs, FBOs, queries, ...). */
typedef uint32_t (*glr_namespace_fn)(void *user, uint32_t ctx_id, int obj_class);

struct glr_dispatch;
struct glr_dispatch *glr_dispatch_create(glr_get_proc_fn get_proc, glr_namespace_fn ns, void *user);
void glr_dispatch_destroy(struct glr_dispatch *d);
/* Forgets every name mapping (between replay passes that recreate everything). */
void glr_dispatch_reset_names(struct glr_dispatch *d);
int glr_dispatch_call(struct glr_dispatch *d, const struct glr_call *c);
/* The replay name of a captured object name (identity when unknown). */
uint64_t glr_dispatch_lookup(struct glr_dispatch *d, uint32_t ctx_id, int obj_class, uint64_t captured);
/* Whether objects of this class are per context (not shared across a share group). */
bool glr_obj_class_per_context(int obj_class);

#endif
