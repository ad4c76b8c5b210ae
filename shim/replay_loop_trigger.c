/* When the in-process replay loop runs (see replay_loop.h): GLREPLAY_REPLAY_LOOP=N for the capture
 * GLREPLAY_CAPTURE_FRAMES asks for, or a socket request for the next capture. The capture ends in
 * the swap hook before the real swap (capture.c); the loop is remembered for that thread and runs
 * right after the real swap, so the window first shows the program's own frame. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <time.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/replay_loop.h"

#define MAX_PASSES 100000u

struct pending_loop {
    unsigned passes;
    glr_replay_loop_keep_going_fn keep_going;
    void *user;
    uint64_t serial;         /* of the armed request it answers, 0 for the environment's */
    int api;
    void *display, *surface;
    char path[4096];
};

static __thread struct pending_loop *tls_pending;

static pthread_mutex_t req_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t req_done = PTHREAD_COND_INITIALIZER;
static uint64_t req_next_serial;
static uint64_t req_armed;       /* serial of the request waiting for its capture, 0: none */
static unsigned req_passes;
static glr_replay_loop_keep_going_fn req_keep_going;
static void *req_user;
static uint64_t done_serial;     /* last request whose loop ended */
static int done_result;          /* its passes, or -1 */

static bool env_used;

/* GLREPLAY_REPLAY_LOOP=N applies once, to the capture GLREPLAY_CAPTURE_FRAMES asks for. */
static unsigned env_passes(void)
{
    const char *v = getenv("GLREPLAY_REPLAY_LOOP");
    const char *frames = getenv("GLREPLAY_CAPTURE_FRAMES");
    if (env_used || !v || !*v || !frames || !*frames)
        return 0;
    env_used = true;
    char *end;
    unsigned long n = strtoul(v, &end, 10);
    if (*end || v[0] == '-' || n < 1 || n > MAX_PASSES) {
        glr_log(GLR_LOG_ERROR, "GLREPLAY_REPLAY_LOOP=%s is not a pass count 1..%u; no replay loop", v, MAX_PASSES);
        return 0;
    }
    return (unsigned)n;
}

bool glr_replay_loop_pending(void)
{
    pthread_mutex_lock(&req_lock);
    bool armed = req_armed != 0;
    pthread_mutex_unlock(&req_lock);
    const char *v = getenv("GLREPLAY_REPLAY_LOOP");
    return armed || (!env_used && v && *v);
}

/* Test switch GLREPLAY_REPLAY_LOOP_TEST_KEEP_GOING=1: the environment's N passes are run the way
 * the live debugger runs its loop, passes == 0 and a keep_going that stops after N. */
static unsigned keep_going_limit;

static int keep_going_until_limit(void *user, unsigned passes_done)
{
    (void)user;
    return passes_done < keep_going_limit;
}

void glr_replay_loop_capture_written(int api, void *display, void *surface, const char *path)
{
    unsigned passes = 0;
    uint64_t serial = 0;
    glr_replay_loop_keep_going_fn keep_going = NULL;
    void *user = NULL;
    pthread_mutex_lock(&req_lock);
    if (req_armed) {
        passes = req_passes;
        keep_going = req_keep_going;
        user = req_user;
        serial = req_armed;
        req_armed = 0;
    }
    pthread_mutex_unlock(&req_lock);
    if (!serial) {
        passes = env_passes();
        const char *kg = getenv("GLREPLAY_REPLAY_LOOP_TEST_KEEP_GOING");
        if (passes && kg && strcmp(kg, "1") == 0) {
            keep_going_limit = passes;
            keep_going = keep_going_until_limit;
            passes = 0;
        }
    }
    if (!passes && !keep_going)
        return;
    struct pending_loop *p = tls_pending ? tls_pending : calloc(1, sizeof *p);
    if (!p) {
        glr_log(GLR_LOG_ERROR, "replay loop abandoned: out of memory; the program continues");
        if (serial)
            glr_replay_loop_disarm(serial);   /* lets a waiter see the end */
        return;
    }
    p->passes = passes;
    p->keep_going = keep_going;
    p->user = user;
    p->serial = serial;
    p->api = api;
    p->display = display;
    p->surface = surface;
    snprintf(p->path, sizeof p->path, "%s", path);
    tls_pending = p;
}

static void finish_request(uint64_t serial, int result)
{
    pthread_mutex_lock(&req_lock);
    if (serial > done_serial) {
        done_serial = serial;
        done_result = result;
    }
    pthread_cond_broadcast(&req_done);
    pthread_mutex_unlock(&req_lock);
}

void glr_replay_loop_after_swap(void)
{
    struct pending_loop *p = tls_pending;
    if (!p)
        return;
    tls_pending = NULL;
    struct glr_capture_result cr = { .path = p->path, .api = p->api, .display = p->display, .surface = p->surface };
    int ran = glr_replay_loop_run(&cr, p->passes, p->keep_going, p->user);
    if (p->keep_going && glr_log_level >= GLR_LOG_INFO) {
        /* The moment the paused program goes on (CLOCK_MONOTONIC, as a client's clock reads it):
         * the live acceptance test (tests/dap/live_acceptance.py) measures the resume by it. */
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        uint64_t at = glr_replay_loop_interrupted_at(), now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        glr_log(GLR_LOG_INFO, "replay loop: the program resumes at %lld.%06ld s (monotonic clock), %.1f ms after "
                "the session's end reached it", (long long)ts.tv_sec, ts.tv_nsec / 1000,
                at && now >= at ? (double)(now - at) / 1e6 : 0.0);
    }
    if (p->serial)
        finish_request(p->serial, ran);
    free(p);
}

uint64_t glr_replay_loop_arm(unsigned passes, glr_replay_loop_keep_going_fn keep_going, void *user)
{
    if ((!passes && !keep_going) || passes > MAX_PASSES)
        return 0;
    pthread_mutex_lock(&req_lock);
    uint64_t serial = 0;
    if (!req_armed) {
        serial = ++req_next_serial;
        req_armed = serial;
        req_passes = passes;
        req_keep_going = keep_going;
        req_user = user;
    }
    pthread_mutex_unlock(&req_lock);
    return serial;
}

bool glr_replay_loop_disarm(uint64_t serial)
{
    pthread_mutex_lock(&req_lock);
    bool was = serial && req_armed == serial;
    if (was)
        req_armed = 0;
    pthread_mutex_unlock(&req_lock);
    if (was)
        finish_request(serial, -1);
    return was;
}

int glr_replay_loop_wait(uint64_t serial, unsigned timeout_s, int *result)
{
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_s;
    pthread_mutex_lock(&req_lock);
    int w = 0;
    while (done_serial < serial && w == 0)
        w = pthread_cond_timedwait(&req_done, &req_lock, &deadline);
    bool done = done_serial >= serial;
    /* Requests end in serial order (one capture at a time), so done_result is this one's. */
    if (done && result)
        *result = done_result;
    pthread_mutex_unlock(&req_lock);
    return done ? 0 : -1;
}

int glr_replay_loop_request(unsigned passes, unsigned count, const char *path, char *msg, size_t n)
{
    if (passes < 1 || passes > MAX_PASSES) {
        snprintf(msg, n, "error loop pass count must be 1..%u", MAX_PASSES);
        return -1;
    }
    uint64_t serial = glr_replay_loop_arm(passes, NULL, NULL);
    if (!serial) {
        snprintf(msg, n, "error a replay loop request is already waiting for its capture");
        return -1;
    }
    char cap_msg[4400];
    int rc = glr_capture_request(count, path, cap_msg, sizeof cap_msg);
    /* Still armed: no capture, or it did not end at a swap (program exit): no loop. */
    if (glr_replay_loop_disarm(serial) || rc != 0) {
        if (rc != 0)
            snprintf(msg, n, "%s", cap_msg);
        else
            snprintf(msg, n, "error the capture did not end at a swap; no replay loop");
        return -1;
    }
    /* The capture's swap took the request: wait for the passes (on this server thread only). */
    int result = -1;
    if (glr_replay_loop_wait(serial, 600, &result) != 0) {
        snprintf(msg, n, "error timed out waiting for the replay loop");
        return -1;
    }
    const char *file = strncmp(cap_msg, "ok ", 3) == 0 ? cap_msg + 3 : cap_msg;
    if (result >= 0) {
        snprintf(msg, n, "ok loop %d passes %s", result, file);
        return 0;
    }
    snprintf(msg, n, "error replay loop abandoned (see the program's stderr); the program continues");
    return -1;
}
