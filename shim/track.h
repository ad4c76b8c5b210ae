/* Always-on object tracking (shim/track.c): the generated wrappers of the rare commands that create
 * or delete object names or define shader/program link inputs (chosen from the registry by
 * is_tracked() in registry/gen_registry.py) hand each call, after it returned, to
 * glr_track_call(), which applies it to a process-wide state model. That model keeps what the
 * driver cannot report at a snapshot: which names exist, shader sources (also after the shader is
 * deleted while attached), attribute/frag-data bindings, transform-feedback varyings, the shaders a
 * program was linked with. */
#ifndef GLR_SHIM_TRACK_H
#define GLR_SHIM_TRACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "registry/glr_call.h"

#define GLR_TRACK_HIDDEN __attribute__((visibility("hidden")))

/* Blob helpers for the generated track functions (layouts of statemodel/DESIGN.md). */
GLR_TRACK_HIDDEN void glr_track_blob(struct glr_blob *b, const void *data, int64_t size);
GLR_TRACK_HIDDEN void glr_track_string(struct glr_blob *b, const char *s);
/* Encodes an array of strings into a malloc'd blob; returns 1 when b->data must be freed. */
GLR_TRACK_HIDDEN unsigned glr_track_strings(struct glr_blob *b, const char *const *strings, int64_t count,
                                            const int *lengths);
/* Applies one call to the tracking state (on the calling thread's current context). Blobs whose
 * bit is set in owned_mask are freed. */
GLR_TRACK_HIDDEN void glr_track_call(uint32_t cmd, const uint64_t *args, const struct glr_blob *blobs, int nargs,
                                     uint64_t ret, int has_ret, unsigned owned_mask);

/* Context lifetime, from the shim's context hooks. A context is declared in the model when it is
 * first made current (its API and version are known then), in the share group of `share_group`. */
GLR_TRACK_HIDDEN void glr_track_context_created(uint32_t id, uint32_t share_group);
GLR_TRACK_HIDDEN void glr_track_context_described(uint32_t id, bool es, int major, int minor, int profile_mask);
GLR_TRACK_HIDDEN void glr_track_context_destroyed(uint32_t id);
/* The API and version a context was described with at its first make-current; false if unknown. */
GLR_TRACK_HIDDEN bool glr_track_context_version(uint32_t id, bool *es, int *major, int *minor, int *profile_mask);

/* Programs loaded from binaries (shim/program_cache.c), on the current context: whether the
 * program was just linked from a binary with no sources known; the sources entry of a program
 * linked from source (malloc'd; NULL if it has no GLSL sources); giving a program the link inputs
 * of an entry (false with the reason in err when the entry is bad). */
GLR_TRACK_HIDDEN bool glr_track_program_linked_from_binary(uint32_t program);
GLR_TRACK_HIDDEN uint8_t *glr_track_program_entry(uint32_t program, uint64_t binary_hash, size_t *size);
GLR_TRACK_HIDDEN bool glr_track_program_sources(uint32_t program, const void *entry, size_t size, char *err,
                                                size_t err_size);

struct sm_state;
/* A deep copy of the tracking state (NULL when memory runs out or nothing was tracked). */
GLR_TRACK_HIDDEN struct sm_state *glr_track_clone(void);

#endif
