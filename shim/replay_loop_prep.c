/* Work of the replay loop on a thread of its own, which the render thread can walk away from (see
 * replay_loop_internal.h). The live debugger's first replayed pass makes fresh contexts and restores
 * the captured state on them: single driver calls of tens to hundreds of milliseconds (llvmpipe's
 * first glBlitFramebuffer on a new context compiles its blit shaders) that no interrupt can cut
 * short. Done here, a session that ends meanwhile lets the program resume at once: the render thread
 * stops waiting, and this thread finishes the call in progress, sees the interrupt at the restore's
 * next call and frees everything itself (p->orphaned). glr_replay_loop_drain waits for such threads
 * at exit, so the driver is not unloaded under them, and before the program's X display closes
 * (glr_loop_prep_watch_x_close), so they never use a display that is gone. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include "shim/shim_internal.h"
#include "shim/replay_loop.h"
#include "shim/replay_loop_internal.h"

enum { PREP_RUNNING, PREP_DONE, PREP_ABANDONED };

struct prep_job {
    struct glr_loop_prep p;
    int state;            /* PREP_*: whoever moves it from RUNNING second frees the job */
    int rc;
    char err[512];
};

/* Orphaned preparations still running (glr_replay_loop_drain waits for them). */
static pthread_mutex_t orphans_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t orphans_gone = PTHREAD_COND_INITIALIZER;
static unsigned orphans;

/* Test hook: GLREPLAY_REPLAY_LOOP_TEST_PREP_DELAY_MS=N holds the set-up N ms before it starts, so a
 * test's session that ends within that time always ends while its pass is being set up here (the
 * case tests/dap/live_xclose.py is about, otherwise a matter of the machine's timing). */
static void test_prep_delay(void)
{
    const char *v = getenv("GLREPLAY_REPLAY_LOOP_TEST_PREP_DELAY_MS");
    long ms = v ? strtol(v, NULL, 10) : 0;
    if (ms > 0 && ms <= 10000) {
        struct timespec d = {ms / 1000, (ms % 1000) * 1000000L};
        while (nanosleep(&d, &d) != 0 && errno == EINTR) {
        }
    }
}

static void *prep_main(void *arg)
{
    struct prep_job *j = arg;
    test_prep_delay();
    j->rc = j->p.work(j->p.user, j->err, sizeof j->err);
    int expect = PREP_RUNNING;
    if (__atomic_compare_exchange_n(&j->state, &expect, PREP_DONE, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        return NULL;   /* the render thread takes the result (and frees the job) */
    /* Abandoned: the render thread went back to the program; what work made is ours to free. */
    j->p.orphaned(j->p.user);
    free(j);
    pthread_mutex_lock(&orphans_lock);
    orphans--;
    pthread_cond_broadcast(&orphans_gone);
    pthread_mutex_unlock(&orphans_lock);
    return NULL;
}

int glr_loop_prep_run(const struct glr_loop_prep *p, const int *interrupt, char *err, size_t n)
{
    struct prep_job *j = calloc(1, sizeof *j);
    if (!j) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    j->p = *p;
    j->state = PREP_RUNNING;
    pthread_attr_t attr;
    pthread_t t;
    sigset_t all, old;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);   /* the program's signals never reach this thread */
    int rc = pthread_create(&t, &attr, prep_main, j);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(j);
        snprintf(err, n, "cannot start a thread for the first pass: %s", strerror(rc));
        return -1;
    }
    /* Counted as an orphan in advance, so a drain never misses one that is abandoned below. */
    pthread_mutex_lock(&orphans_lock);
    orphans++;
    pthread_mutex_unlock(&orphans_lock);
    for (;;) {
        if (__atomic_load_n(&j->state, __ATOMIC_ACQUIRE) == PREP_DONE)
            break;
        if (__atomic_load_n(interrupt, __ATOMIC_RELAXED)) {
            int expect = PREP_RUNNING;
            if (__atomic_compare_exchange_n(&j->state, &expect, PREP_ABANDONED, false, __ATOMIC_ACQ_REL,
                                            __ATOMIC_ACQUIRE))
                return 1;   /* the job, and p->user, belong to the thread now */
            break;          /* it finished just now */
        }
        usleep(1000);
    }
    pthread_mutex_lock(&orphans_lock);
    orphans--;
    pthread_mutex_unlock(&orphans_lock);
    int result = j->rc;
    if (result != 0)
        snprintf(err, n, "%s", j->err);
    free(j);
    return result;
}

void glr_replay_loop_drain(unsigned timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_mutex_lock(&orphans_lock);
    int w = 0;
    while (orphans && w == 0)
        w = pthread_cond_timedwait(&orphans_gone, &orphans_lock, &until);
    pthread_mutex_unlock(&orphans_lock);
}

/* ---- the program closing its X display while a pass left to its own thread still uses it ---- */

/* Displays with our close callback: an entry goes when its display closes (a display opened later
 * at the same address gets the callback again). */
#define WATCHED_MAX 8
static pthread_mutex_t watched_lock = PTHREAD_MUTEX_INITIALIZER;
static void *watched[WATCHED_MAX];

/* Xlib calls it inside XCloseDisplay, on the program's thread, before the connection goes (and
 * before the GLX library's own close callback, which Xlib calls after those added later). */
static int on_x_close(Display *dpy, XExtCodes *codes)
{
    (void)codes;
    glr_replay_loop_drain(2000);
    pthread_mutex_lock(&watched_lock);
    for (int i = 0; i < WATCHED_MAX; i++)
        if (watched[i] == dpy)
            watched[i] = NULL;
    pthread_mutex_unlock(&watched_lock);
    return 0;
}

typedef XExtCodes *(*add_extension_fn)(Display *);
typedef int (*close_proc)(Display *, XExtCodes *);
typedef close_proc (*set_close_fn)(Display *, int, close_proc);

void glr_loop_prep_watch_x_close(void *display)
{
    if (!display)
        return;
    pthread_mutex_lock(&watched_lock);
    int slot = -1;
    for (int i = 0; i < WATCHED_MAX; i++) {
        if (watched[i] == display) {
            pthread_mutex_unlock(&watched_lock);
            return;
        }
        if (!watched[i] && slot < 0)
            slot = i;
    }
    /* libX11 is the program's (a GLX program has it loaded): looked up, not linked. */
    void *a = dlsym(RTLD_DEFAULT, "XAddExtension"), *c = dlsym(RTLD_DEFAULT, "XESetCloseDisplay");
    XExtCodes *codes = NULL;
    if (slot >= 0 && a && c) {
        add_extension_fn add;
        set_close_fn set_close;
        memcpy(&add, &a, sizeof add);
        memcpy(&set_close, &c, sizeof set_close);
        codes = add(display);
        if (codes) {
            set_close(display, codes->extension, on_x_close);
            watched[slot] = display;
        }
    }
    pthread_mutex_unlock(&watched_lock);
    if (!codes)
        glr_log(GLR_LOG_WARN, "replay loop: cannot watch the program's X display for its closing (%s)",
                slot < 0 ? "too many displays" : "no XAddExtension/XESetCloseDisplay");
}
