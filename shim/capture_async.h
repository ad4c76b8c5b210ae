/* The capture writer: one thread of its own that writes every capture file, fed through a bounded
 * queue (shim/capture_async.c). */
#ifndef GLR_SHIM_CAPTURE_ASYNC_H
#define GLR_SHIM_CAPTURE_ASYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "shim/capture_file.h"
#include "capture/glcap_packed.h"

/* Size of a recording thread's stream buffer while its records stream to the writer: one huge
 * page. A full one is handed over whole and the thread goes on in a fresh (recycled) one. */
#define GLR_STREAM_BLOCK ((size_t)2 << 20)
/* The command stream is packed straight into the container writer's input block when at least
 * this much room is left in it (capture_writer.c); a record that does not fit goes in pieces. */
#define GLR_PACK_MIN_ROOM ((size_t)4 << 10)
/* zstd level of the command stream (capture_writer.c). */
#define GLR_STREAM_ZSTD_LEVEL (-1)
/* Bounds of the queue (docs/BENCHMARKS.md, "Recording many frames"): capture files queued or being
 * written at once, and stream bytes handed over but not yet compressed. */
#define GLR_WQ_MAX_JOBS 4u
#define GLR_WQ_MAX_QUEUED ((size_t)64 << 20)
/* How long the program's thread may wait for room, at most, before the capture is given up. */
#define GLR_WQ_WAIT_JOB_MS 1000
#define GLR_WQ_WAIT_BLOCK_MS 2000

/* What is left of one recording thread's stream when the capture ends (recorder.c). */
struct glr_rec_segment {
    uint8_t *buf;        /* a mapping of `cap` bytes, owned */
    size_t len, cap;
    uint32_t thread_id;
    /* The packed records' state before buf's first one (glcap_pack_state's seq, ctx, tid): the
     * thread's previous record, in a block already handed over, or glcap_pack_init's. */
    uint64_t seq0, ctx0, tid0;
};

struct glr_snap;
struct glcap_writer;
struct glr_wq_block;

/* One capture file. capture.c opens it when the capture starts, the recording threads hand it full
 * stream blocks (glr_wq_block), and capture.c fills the fields below and hands it over at the end
 * (glr_wq_finish). From then on it belongs to the writer thread. */
struct glr_capture_job {
    struct glr_capture_summary sum;
    char path[4096];
    uint64_t epoch;
    struct glr_ref_image *images;
    unsigned n_images;
    uint8_t *program_sources;      /* owned; see glr_capture_summary */
    size_t program_sources_size;
    struct glr_rec_segment *segs;  /* the thread buffers still in memory, owned */
    unsigned n_segs;
    struct glr_snap *snap;         /* the detached initial-state snapshot; NULL: none */

    /* The queue's own (capture_async.c). */
    struct glr_capture_job *next;
    struct glr_wq_block *head, *tail;
    bool finished, aborted;
    void (*done)(uint64_t epoch, bool ok);
    /* Writer thread only: the open file and what its command stream holds so far. */
    struct glcap_writer *w;
    bool failed;
    uint64_t stream_bytes, stream_calls;   /* of the 1.0 records (unpacked) */
    glcap_pack_state pack;                 /* the stream's previous-record state */
    uint32_t stream_threads[64];
    unsigned n_stream_threads;
};

/* A new capture's file job, queued behind the files still being written; done(epoch, ok) is called
 * on the writer thread when its file is written or given up. NULL when GLR_WQ_MAX_JOBS files are
 * still in the queue after waiting GLR_WQ_WAIT_JOB_MS (or out of memory): the capture does not
 * start (the caller logs why). */
struct glr_capture_job *glr_wq_open(const char *path, uint64_t epoch, void (*done)(uint64_t epoch, bool ok))
    __attribute__((visibility("hidden")));
/* A full stream block of `job` (len bytes of whole records in a mapping of cap bytes): the writer
 * compresses it into the file while the program records on. Ownership moves to the queue in every
 * case. False when the queue stayed above GLR_WQ_MAX_QUEUED for GLR_WQ_WAIT_BLOCK_MS: the caller
 * drops the capture. */
bool glr_wq_block(struct glr_capture_job *job, uint8_t *buf, size_t len, size_t cap, uint32_t thread_id)
    __attribute__((visibility("hidden")));
/* A GLR_STREAM_BLOCK buffer for a recording thread: one the writer has finished with (its pages
 * already faulted in), or a new mapping. NULL when out of memory. */
uint8_t *glr_wq_take_buffer(void) __attribute__((visibility("hidden")));
/* The capture ended and `job` holds the rest of it: the writer writes the file. */
void glr_wq_finish(struct glr_capture_job *job) __attribute__((visibility("hidden")));
/* The capture was dropped: the writer deletes what it had written and frees the job. */
void glr_wq_abort(struct glr_capture_job *job) __attribute__((visibility("hidden")));
/* Whether this process's writer thread exists (false in a child forked after it started: jobs
 * inherited from the parent are never written there). */
bool glr_wq_alive(void) __attribute__((visibility("hidden")));

/* capture_writer.c, on the writer thread: the file and its COMMAND_STREAM section opened (0, or -1
 * logged), one block of whole packed records (the recorder's form, continuing the stream written
 * so far) appended, the rest of the file written and closed. */
int glr_capture_file_open(struct glr_capture_job *job) __attribute__((visibility("hidden")));
int glr_capture_file_stream_packed(struct glr_capture_job *job, const void *data, size_t size, uint32_t thread_id)
    __attribute__((visibility("hidden")));
int glr_capture_file_finish(struct glr_capture_job *job) __attribute__((visibility("hidden")));

#endif
