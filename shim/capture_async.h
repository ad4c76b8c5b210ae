/* Writing a finished capture off the program's thread (shim/capture_async.c). */
#ifndef GLR_SHIM_CAPTURE_ASYNC_H
#define GLR_SHIM_CAPTURE_ASYNC_H

#include <stdbool.h>
#include <stdint.h>
#include "shim/capture_file.h"

/* Everything a finished capture's file needs, owned by the job: the summary (its path points into
 * `path`), the recorder buffers of `epoch` and the snapshot (both global, released by the job), the
 * reference images. */
struct glr_capture_job {
    struct glr_capture_summary sum;
    char path[4096];
    uint64_t epoch;
    struct glr_ref_image *images;
    unsigned n_images;
    uint8_t *program_sources;   /* owned; see glr_capture_summary */
    size_t program_sources_size;
};

/* Writes the file, then releases the recorder buffers, the snapshot and the images and frees the
 * job. Returns true when the file was written. */
bool glr_capture_job_run(struct glr_capture_job *job) __attribute__((visibility("hidden")));
/* Runs the job on a new thread (every signal blocked in it, so the program's signal handling is
 * unchanged) and calls done(ok) on that thread when it ends. False when no thread could be
 * started: the job is untouched and the caller runs it. */
bool glr_capture_job_start(struct glr_capture_job *job, void (*done)(bool ok)) __attribute__((visibility("hidden")));

#endif
