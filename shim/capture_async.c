/* The capture writer thread and its bounded queue (issue 17 §3).
 *
 * Writing a capture (compressing the command stream, the snapshot and the images, writing the
 * file) takes from milliseconds to seconds; done on the program's thread at its swap it is a hitch,
 * and holding the raw stream until the capture ends makes memory grow with every recorded frame.
 * So one writer thread (every signal blocked in it: the program's signal handling is unchanged)
 * owns every file:
 *  - while a capture records, its recording thread hands each full stream block over as it fills
 *    (recorder.c) and the writer compresses it into the file at once; the block's buffer comes back
 *    to the recorder, its pages already faulted in;
 *  - when the capture ends the program's thread hands over what is left (the rest of the stream,
 *    the snapshot, the images) and goes on; the writer finishes the file.
 * Captures are written in the order they started; a capture that starts while earlier files are
 * still being written is queued behind them, its blocks kept until the writer reaches it.
 *
 * The bounds, and what happens at them (never a long wait on the program's thread):
 *  - at most GLR_WQ_MAX_JOBS files in the queue: a capture that would start beyond that waits up to
 *    GLR_WQ_WAIT_JOB_MS for one to finish, then does not start (logged);
 *  - at most GLR_WQ_MAX_QUEUED stream bytes handed over and not yet compressed: a recording thread
 *    that would go beyond that waits for the writer (the program runs at the compressor's pace,
 *    as under apitrace, which writes on the program's thread) up to GLR_WQ_WAIT_BLOCK_MS per
 *    block, then the capture is dropped (logged) and the program goes on unrecorded.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture_async.h"
#include "shim/snapshot.h"
#include "capture/glcap_file.h"

struct glr_wq_block {
    struct glr_wq_block *next;
    uint8_t *buf;
    size_t len, cap;
    uint32_t thread_id;
};

static pthread_mutex_t q_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t q_work = PTHREAD_COND_INITIALIZER;   /* the writer has something to do */
static pthread_cond_t q_room = PTHREAD_COND_INITIALIZER;   /* a block or a job left the queue */
static struct glr_capture_job *jobs_head, *jobs_tail;
static unsigned n_jobs;
static size_t queued;          /* stream bytes handed over, not yet compressed */
static pid_t writer_pid;       /* the process whose writer thread runs; 0: none yet */
/* Buffers the writer finished with, for the next blocks (no fresh pages to fault in, no huge page
 * for the kernel to zero, no munmap and its TLB shootdown on the writer). While a capture is
 * written every buffer comes back here, up to as many as the queue can hold (a writer that fell
 * behind and caught up again leaves that many; the next time it falls behind they are reused:
 * issue 17 §3, the kernel was 5-9 ns of a recorded call); once no file is queued, all but
 * SPARE_KEEP_IDLE are unmapped, so an idle process holds no more than before. */
#define SPARE_MAX (GLR_WQ_MAX_QUEUED / GLR_STREAM_BLOCK + 2)
#define SPARE_KEEP_IDLE 4u
static uint8_t *spare[SPARE_MAX];
static unsigned n_spare;
/* Test switch GLREPLAY_CAPTURE_TEST_WRITER_DELAY_MS: the writer waits this long before it finishes a
 * file, so a test can see that the program does not wait for it (a second capture starts at once). */
static long test_delay_ms;

static void deadline_in(struct timespec *t, int ms)
{
    clock_gettime(CLOCK_REALTIME, t);
    t->tv_sec += ms / 1000;
    t->tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t->tv_nsec >= 1000000000L) {
        t->tv_sec++;
        t->tv_nsec -= 1000000000L;
    }
}

static void give_back_buffer(uint8_t *buf, size_t cap)
{
    if (cap == GLR_STREAM_BLOCK) {
        pthread_mutex_lock(&q_lock);
        if (n_spare < sizeof spare / sizeof spare[0]) {
            spare[n_spare++] = buf;
            buf = NULL;
        }
        pthread_mutex_unlock(&q_lock);
    }
    if (buf)
        munmap(buf, cap);
}

uint8_t *glr_wq_take_buffer(void)
{
    pthread_mutex_lock(&q_lock);
    uint8_t *b = n_spare ? spare[--n_spare] : NULL;
    pthread_mutex_unlock(&q_lock);
    if (b)
        return b;
    void *m = mmap(NULL, GLR_STREAM_BLOCK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return NULL;
    madvise(m, GLR_STREAM_BLOCK, MADV_HUGEPAGE);
    return m;
}

/* Frees what a job holds (its file, if open, is deleted unless it was finished). */
static void job_free(struct glr_capture_job *job)
{
    for (struct glr_wq_block *b = job->head, *n; b; b = n) {
        n = b->next;
        munmap(b->buf, b->cap);
        free(b);
    }
    if (job->w)
        glcap_writer_destroy(job->w);
    for (unsigned i = 0; i < job->n_segs; i++)
        if (job->segs[i].buf)
            munmap(job->segs[i].buf, job->segs[i].cap);
    free(job->segs);
    glr_snapshot_free(job->snap);
    for (unsigned i = 0; i < job->n_images; i++)
        free(job->images[i].pixels);
    free(job->images);
    free(job->program_sources);
    free(job);
}

/* One stream block of the job at the head of the queue, compressed into its file. */
static void write_block(struct glr_capture_job *job, struct glr_wq_block *b)
{
    if (!job->failed && !job->w && glr_capture_file_open(job) != 0)
        job->failed = true;
    if (!job->failed && glr_capture_file_stream_packed(job, b->buf, b->len, b->thread_id) != 0)
        job->failed = true;
    give_back_buffer(b->buf, b->cap);
    free(b);
}

static void *writer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&q_lock);
    for (;;) {
        struct glr_capture_job *job = jobs_head;
        if (!job) {
            pthread_cond_wait(&q_work, &q_lock);
            continue;
        }
        if (job->head && !job->aborted) {
            struct glr_wq_block *b = job->head;
            job->head = b->next;
            if (!job->head)
                job->tail = NULL;
            pthread_mutex_unlock(&q_lock);
            size_t cap = b->cap;
            write_block(job, b);
            pthread_mutex_lock(&q_lock);
            queued -= cap;
            pthread_cond_broadcast(&q_room);
            continue;
        }
        if (!job->aborted && !job->finished) {
            pthread_cond_wait(&q_work, &q_lock);
            continue;
        }
        /* Finished (every block written) or dropped: the job leaves the queue. */
        jobs_head = job->next;
        if (!jobs_head)
            jobs_tail = NULL;
        size_t held = 0;
        for (struct glr_wq_block *b = job->head; b; b = b->next)
            held += b->cap;
        pthread_mutex_unlock(&q_lock);
        bool ok = false;
        if (job->finished && !job->aborted && test_delay_ms > 0) {
            struct timespec d = { test_delay_ms / 1000, (test_delay_ms % 1000) * 1000000L };
            while (nanosleep(&d, &d) != 0 && errno == EINTR) {
            }
        }
        if (job->finished && !job->aborted) {
            if (!job->failed && !job->w && glr_capture_file_open(job) != 0)
                job->failed = true;
            ok = !job->failed && glr_capture_file_finish(job) == 0;
            if (ok)
                glr_log(GLR_LOG_INFO, "capture: wrote %s", job->path);
        }
        uint64_t epoch = job->epoch;
        void (*done)(uint64_t, bool) = job->done;
        job_free(job);   /* deletes the temporary file of a dropped or failed capture */
        /* Room first: a capture starting on the program's thread may wait for it (glr_wq_open)
         * while it holds the lock that done() takes. */
        pthread_mutex_lock(&q_lock);
        queued -= held;
        n_jobs--;
        pthread_cond_broadcast(&q_room);
        uint8_t *trim[SPARE_MAX];
        unsigned n_trim = 0;
        while (n_jobs == 0 && n_spare > SPARE_KEEP_IDLE)
            trim[n_trim++] = spare[--n_spare];
        pthread_mutex_unlock(&q_lock);
        for (unsigned i = 0; i < n_trim; i++)
            munmap(trim[i], GLR_STREAM_BLOCK);
        done(epoch, ok);
        pthread_mutex_lock(&q_lock);
    }
    return NULL;
}

/* fork() while the writer holds q_lock would leave it locked forever in the child. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&q_lock);
}

static void fork_after(void)
{
    pthread_mutex_unlock(&q_lock);
}

/* Starts the writer thread of this process if it has none (first capture, or a forked child: the
 * parent's queue is forgotten there, its jobs belong to the parent). Called with q_lock held. */
static bool ensure_writer_locked(void)
{
    if (writer_pid == getpid())
        return true;
    static bool atfork_set;
    if (!atfork_set && pthread_atfork(fork_prepare, fork_after, fork_after) == 0)
        atfork_set = true;
    jobs_head = jobs_tail = NULL;
    n_jobs = 0;
    queued = 0;
    const char *delay = getenv("GLREPLAY_CAPTURE_TEST_WRITER_DELAY_MS");
    test_delay_ms = delay ? strtol(delay, NULL, 10) : 0;
    if (test_delay_ms < 0 || test_delay_ms > 60000)
        test_delay_ms = 0;
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0)
        return false;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);   /* the new thread inherits it */
    pthread_t t;
    int rc = pthread_create(&t, &attr, writer_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return false;
    writer_pid = getpid();
    return true;
}

bool glr_wq_alive(void)
{
    pthread_mutex_lock(&q_lock);
    bool alive = writer_pid == getpid();
    pthread_mutex_unlock(&q_lock);
    return alive;
}

struct glr_capture_job *glr_wq_open(const char *path, uint64_t epoch, void (*done)(uint64_t epoch, bool ok))
{
    struct glr_capture_job *job = calloc(1, sizeof *job);
    if (!job)
        return NULL;
    snprintf(job->path, sizeof job->path, "%s", path);
    job->epoch = epoch;
    job->done = done;
    pthread_mutex_lock(&q_lock);
    if (!ensure_writer_locked()) {
        pthread_mutex_unlock(&q_lock);
        free(job);
        return NULL;
    }
    struct timespec until;
    deadline_in(&until, GLR_WQ_WAIT_JOB_MS);
    int rc = 0;
    while (n_jobs >= GLR_WQ_MAX_JOBS && rc == 0)
        rc = pthread_cond_timedwait(&q_room, &q_lock, &until);
    if (n_jobs >= GLR_WQ_MAX_JOBS) {
        pthread_mutex_unlock(&q_lock);
        free(job);
        return NULL;
    }
    n_jobs++;
    if (jobs_tail)
        jobs_tail->next = job;
    else
        jobs_head = job;
    jobs_tail = job;
    pthread_mutex_unlock(&q_lock);
    return job;
}

bool glr_wq_block(struct glr_capture_job *job, uint8_t *buf, size_t len, size_t cap, uint32_t thread_id)
{
    struct glr_wq_block *b = malloc(sizeof *b);
    if (!b) {
        munmap(buf, cap);
        return false;
    }
    *b = (struct glr_wq_block){ .buf = buf, .len = len, .cap = cap, .thread_id = thread_id };
    pthread_mutex_lock(&q_lock);
    if (writer_pid != getpid()) {
        /* A child forked while its parent recorded: the job and its writer are the parent's. */
        pthread_mutex_unlock(&q_lock);
        munmap(buf, cap);
        free(b);
        return false;
    }
    struct timespec until;
    deadline_in(&until, GLR_WQ_WAIT_BLOCK_MS);
    int rc = 0;
    /* Room for one block always: a single block bigger than the bound (a huge upload) still goes. */
    while (queued && queued + cap > GLR_WQ_MAX_QUEUED && rc == 0 && !job->aborted)
        rc = pthread_cond_timedwait(&q_room, &q_lock, &until);
    if ((queued && queued + cap > GLR_WQ_MAX_QUEUED) || job->aborted) {
        pthread_mutex_unlock(&q_lock);
        munmap(buf, cap);
        free(b);
        return false;
    }
    queued += cap;
    if (job->tail)
        job->tail->next = b;
    else
        job->head = b;
    job->tail = b;
    pthread_cond_signal(&q_work);
    pthread_mutex_unlock(&q_lock);
    return true;
}

void glr_wq_finish(struct glr_capture_job *job)
{
    pthread_mutex_lock(&q_lock);
    job->finished = true;
    pthread_cond_signal(&q_work);
    pthread_mutex_unlock(&q_lock);
}

void glr_wq_abort(struct glr_capture_job *job)
{
    pthread_mutex_lock(&q_lock);
    job->aborted = true;
    pthread_cond_signal(&q_work);
    pthread_mutex_unlock(&q_lock);
}
