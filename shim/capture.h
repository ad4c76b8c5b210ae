/* Capture control inside the shim: when a capture records, its budget, and writing the .glcap. */
#ifndef GLR_SHIM_CAPTURE_H
#define GLR_SHIM_CAPTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Recording fast check used by the recorder: true while a capture records; gives its epoch. */
bool glr_capture_recording(uint64_t *epoch) __attribute__((visibility("hidden")));
uint64_t glr_capture_next_seq(void) __attribute__((visibility("hidden")));
/* Whether a thread buffer may grow by `bytes` more within GLREPLAY_CAPTURE_MAX_MB. */
bool glr_capture_may_grow(size_t bytes) __attribute__((visibility("hidden")));
/* Drops the capture in progress (logged with the cause); the program continues. */
void glr_capture_fail(const char *why) __attribute__((visibility("hidden")));
void glr_capture_note_unsized(int cmd) __attribute__((visibility("hidden")));

/* What the capture's end tells the in-process replay loop (replay_loop_trigger.c), which sits above
 * the capture: registered by shim start-up (shim_state.c) before the first capture. pending: whether
 * a loop may be wanted (the file is then written before the swap returns); capture_written: the
 * file `path` was just written at the swap that ended the capture. */
struct glr_capture_loop_hooks {
    bool (*pending)(void);
    void (*capture_written)(int api, void *display, void *surface, const char *path);
};
void glr_capture_set_loop_hooks(const struct glr_capture_loop_hooks *hooks) __attribute__((visibility("hidden")));

/* Events from the hooks. */
void glr_capture_init(void) __attribute__((visibility("hidden")));
void glr_capture_before_swap(int api, void *display, void *surface, bool ends_frame) __attribute__((visibility("hidden")));
void glr_capture_after_swap(void) __attribute__((visibility("hidden")));
void glr_capture_context_created(uint32_t id, uint32_t share_group, int api) __attribute__((visibility("hidden")));
void glr_capture_made_current(uint32_t id, uint32_t width, uint32_t height) __attribute__((visibility("hidden")));
void glr_capture_context_destroyed(uint32_t id, unsigned alive_after) __attribute__((visibility("hidden")));
/* Before the context current on this thread stops being current (another one or none made
 * current, or it is destroyed): while a capture records, what it drew is kept as its end images. */
void glr_capture_before_release(void) __attribute__((visibility("hidden")));
int glr_capture_request(unsigned count, const char *path, char *msg, size_t n) __attribute__((visibility("hidden")));
void glr_rec_live_maps(void) __attribute__((visibility("hidden")));
void glr_capture_note_draw(void) __attribute__((visibility("hidden")));
/* A program sources entry a program got while a capture records (shim/program_cache.c): the
 * capture's SHADER_SOURCES section keeps it, so its readers know the sources of that binary. */
void glr_capture_keep_program_sources(const void *entry, size_t size) __attribute__((visibility("hidden")));
void glr_capture_at_exit(void) __attribute__((visibility("hidden")));

/* Recorder internals used by capture.c. */
struct glr_rec;
struct glr_rec *glr_rec_begin_pseudo(int pseudo_cmd, uint32_t ctx_id) __attribute__((visibility("hidden")));
void glr_rec_uvar(struct glr_rec *r, uint64_t v) __attribute__((visibility("hidden")));
void glr_rec_setup_fences(void) __attribute__((visibility("hidden")));
void glr_rec_quiesce(void) __attribute__((visibility("hidden")));
struct glr_capture_job;
struct glr_rec_segment;
/* While capture `epoch` records, full stream blocks of its only recording thread go to `job`
 * (NULL: none). Set after glr_rec_setup_fences, cleared after glr_rec_quiesce. */
void glr_rec_stream_to(struct glr_capture_job *job, uint64_t epoch) __attribute__((visibility("hidden")));
/* After glr_rec_quiesce: the thread buffers of capture `epoch` leave the recorder, with their
 * records not yet handed to the writer (*n of them; calloc'd array). NULL: out of memory (the
 * buffers stay). */
struct glr_rec_segment *glr_rec_detach(uint64_t epoch, unsigned *n) __attribute__((visibility("hidden")));
/* Those records in global sequence order, through `sink`, each in the 1.0 form (u32 size | body);
 * -1 with a one-line message in err when a segment does not read back or the sink failed. */
int glr_rec_merge_segments(const struct glr_rec_segment *segs, unsigned n,
                           int (*sink)(void *user, const void *data, size_t size, uint32_t thread_id), void *user,
                           char *err, size_t err_size) __attribute__((visibility("hidden")));
void glr_rec_release(uint64_t epoch) __attribute__((visibility("hidden")));

#endif
