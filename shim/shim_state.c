/* Shim start-up (environment, the capture's set-up) and the exit summary; the switches, logging
 * and call counts it reads are in shim_log.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/replay_loop.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* A new context: the capture describes it and the command server starts (the first context is
 * when a program has become a GL program worth attaching to). */
static void context_created(uint32_t id, uint32_t share_group, int api)
{
    glr_capture_context_created(id, share_group, api);
    glr_ipc_ensure_started();
}

static const struct glr_ctx_observer ctx_observer = {
    .created = context_created,
    .destroyed = glr_capture_context_destroyed,
    .made_current = glr_capture_made_current,
};

static const struct glr_capture_loop_hooks loop_hooks = {
    .pending = glr_replay_loop_pending,
    .capture_written = glr_replay_loop_capture_written,
};

static void init_once_fn(void)
{
    /* First, whatever the switches say: the tracking and the capture called these before they
     * were callbacks. */
    glr_ctx_set_observer(&ctx_observer);
    glr_capture_set_loop_hooks(&loop_hooks);
    const char *dis = getenv("GLREPLAY_DISABLE");
    glr_disabled = dis && dis[0] && strcmp(dis, "0") != 0;
    const char *lv = getenv("GLREPLAY_LOG");
    if (lv && *lv) {
        int l = glr_log_parse_level(lv);
        if (l < 0)
            glr_log(GLR_LOG_ERROR, "GLREPLAY_LOG=%s is not one of error, warn, info, debug; using error", lv);
        else
            glr_log_level = l;
    }
    if (glr_disabled)
        return;
    if (glr_log_level >= GLR_LOG_INFO)
        __atomic_or_fetch(&glr_slow_mode, GLR_SLOW_COUNT, __ATOMIC_RELAXED);
    glr_capture_init();
    glr_log(GLR_LOG_DEBUG, "loaded into pid %d", (int)getpid());
}

void glr_shim_init(void)
{
    pthread_once(&init_once, init_once_fn);
}

/* No constructor: stage 2 starts in glr_stage2_entry (stage2_entry.c), once stage 1 gave it its
 * services. */

static int by_count_desc(const void *a, const void *b)
{
    uint64_t ca = glr_call_count(*(const int *)a), cb = glr_call_count(*(const int *)b);
    if (ca != cb)
        return ca < cb ? 1 : -1;
    return strcmp(glr_cmd_name(*(const int *)a), glr_cmd_name(*(const int *)b));
}

/* At exit with GLREPLAY_LOG=info: the first visible proof of interception. */
__attribute__((destructor)) static void glr_shim_summary(void)
{
    if (glr_disabled)
        return;
    /* exit() does not stop the program's other threads: a render thread may still be in GL calls
     * while this runs (Teeworlds, issue 13 §8). From here on their calls go straight to the driver
     * (no counting, recording or list tracking), so the exit work below shares nothing with them;
     * a record in flight is waited for by the capture's quiesce. Nothing the wrappers use is
     * freed. */
    __atomic_store_n(&glr_slow_mode, 0u, __ATOMIC_SEQ_CST);
    glr_capture_at_exit();
    __atomic_store_n(&glr_disabled, true, __ATOMIC_SEQ_CST);
    glr_ipc_stop();
    if (glr_log_level < GLR_LOG_INFO)
        return;
    static int order[GLR_CMD_COUNT];
    int used = 0;
    uint64_t total = 0;
    for (int i = 0; i < GLR_CMD_COUNT; i++) {
        uint64_t c = glr_call_count(i);
        if (c) {
            order[used++] = i;
            total += c;
        }
    }
    qsort(order, (size_t)used, sizeof order[0], by_count_desc);
    unsigned created, alive, threads;
    glr_ctx_summary(&created, &alive, &threads);
    glr_log(GLR_LOG_INFO, "summary: pid %d, frames %llu, contexts %u (alive %u), threads %u, calls %llu, functions %d",
            (int)getpid(), (unsigned long long)glr_frame_index(), created, alive, threads,
            (unsigned long long)total, used);
    for (int k = 0; k < used; k++)
        glr_log(GLR_LOG_INFO, "  %10llu %s", (unsigned long long)glr_call_count(order[k]),
                glr_cmd_name(order[k]));
}
