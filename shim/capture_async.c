/* A finished capture is written on a thread of its own: merging the thread streams, compressing
 * them and the images and writing the file take from milliseconds to seconds, and done on the
 * program's thread at its swap they are a hitch in the program (issue 17 §3). The program's thread
 * only hands the job over. capture.c waits for the job before a new capture starts (the recorder
 * buffers and the snapshot are global), and at exit, so the file is always complete. */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_async.h"
#include "shim/snapshot.h"

bool glr_capture_job_run(struct glr_capture_job *job)
{
    job->sum.path = job->path;
    job->sum.images = job->images;
    job->sum.n_images = job->n_images;
    job->sum.program_sources = job->program_sources;
    job->sum.program_sources_size = job->program_sources_size;
    bool written = glr_capture_write(&job->sum, job->epoch) == 0;
    if (written)
        glr_log(GLR_LOG_INFO, "capture: wrote %s", job->path);
    glr_rec_release(job->epoch);
    glr_snapshot_discard();
    for (unsigned i = 0; i < job->n_images; i++)
        free(job->images[i].pixels);
    free(job->images);
    free(job->program_sources);
    free(job);
    return written;
}

struct thread_arg {
    struct glr_capture_job *job;
    void (*done)(bool ok);
};

static void *writer_main(void *p)
{
    struct thread_arg a = *(struct thread_arg *)p;
    free(p);
    bool ok = glr_capture_job_run(a.job);
    a.done(ok);
    return NULL;
}

bool glr_capture_job_start(struct glr_capture_job *job, void (*done)(bool ok))
{
    struct thread_arg *a = malloc(sizeof *a);
    if (!a)
        return false;
    *a = (struct thread_arg){ job, done };
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) {
        free(a);
        return false;
    }
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);   /* the new thread inherits it */
    pthread_t t;
    int rc = pthread_create(&t, &attr, writer_main, a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(a);
        return false;
    }
    return true;
}
