/* Display lists kept for later captures (shim/display_lists.c).
 *
 * A display list is compiled once (often at start-up) and called every frame, so a capture that
 * starts later must carry the list's contents: the driver cannot report them. While a list is open
 * on a thread (glNewList .. glEndList) every call of that thread that GL compiles into a list is
 * recorded into the list's own buffer, in the command-stream encoding (docs/GLCAP_FORMAT.md), also
 * when no capture runs; a capture snapshot writes the kept lists as RESOURCE_BLOB kind 4
 * (shim/snapshot_lists.c). Cost: none outside list compilation (the wrappers' idle path is
 * unchanged); during it every call of every thread takes the slow path. Memory: at most
 * GLREPLAY_LIST_MAX_MB (default 256) MiB of kept lists; a list over the cap is dropped and a
 * later capture says so. */
#ifndef GLR_SHIM_DISPLAY_LISTS_H
#define GLR_SHIM_DISPLAY_LISTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GLR_DL_HIDDEN __attribute__((visibility("hidden")))

/* Whether GL compiles command `cmd` (or pseudo command: only client-array data) into a display
 * list; commands GL executes at once instead (gets, object creation, client state, buffer data,
 * pixel store, ... : the compatibility profile's "commands not usable in display lists") are not
 * kept in the list. */
GLR_DL_HIDDEN bool glr_dl_compiled(int cmd);
/* Memory accounting of the lists' buffers against the cap. */
GLR_DL_HIDDEN bool glr_dl_may_grow(size_t bytes);
GLR_DL_HIDDEN void glr_dl_release_bytes(size_t bytes);

/* The recorder side (recorder.c): opens the calling thread's list buffer (false when one is open
 * already or memory ran out), tells whether one is open, and closes it, handing over the malloc'd
 * records (size bytes used, reserved bytes accounted against the cap). */
GLR_DL_HIDDEN bool glr_rec_list_open(void);
GLR_DL_HIDDEN bool glr_rec_list_is_open(void);
GLR_DL_HIDDEN uint8_t *glr_rec_list_close(size_t *size, size_t *reserved, bool *failed);

/* The hooks' side (display_list_hooks.c): before the recorder opens a list buffer (reads the cap);
 * list `name` of `share_group` was opened on this thread by context `ctx_id` (every thread's
 * wrappers take the slow path while a list is open); the list open on this thread was closed with
 * the recorder's buffer (kept, or dropped when `failed`); lists [list, list + range) of
 * `share_group` were deleted. */
GLR_DL_HIDDEN void glr_dl_opening(void);
GLR_DL_HIDDEN void glr_dl_opened(uint32_t name, uint32_t share_group, uint32_t ctx_id);
GLR_DL_HIDDEN void glr_dl_closed(uint8_t *buf, size_t size, size_t reserved, bool failed);
GLR_DL_HIDDEN void glr_dl_deleted(uint32_t share_group, uint32_t list, uint32_t range);
/* One kept list, as the snapshot copies it. */
struct glr_dl_copy {
    uint32_t share_group, name;
    uint32_t ctx_id;        /* the context that compiled it */
    uint8_t *data;          /* malloc'd copy of its records; NULL when it was not kept */
    size_t size;
    const char *why;        /* when not kept: the cause (static text) */
};
/* Copies of every list known (kept or dropped), in share-group and name order; *n their count.
 * NULL with *n == 0 when there are none (or memory ran out: logged). Free with glr_dl_free_copies. */
GLR_DL_HIDDEN struct glr_dl_copy *glr_dl_copy_all(size_t *n);
GLR_DL_HIDDEN void glr_dl_free_copies(struct glr_dl_copy *c, size_t n);

/* snapshot_lists.c: adds every kept list to the snapshot as a RESOURCE_BLOB of kind 4. */
struct glr_snap;
GLR_DL_HIDDEN void glr_snap_display_lists(struct glr_snap *sn);

#endif
