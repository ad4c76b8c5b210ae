/* Shim start-up, environment, logging, call counting and the exit summary. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"

GLR_HIDDEN unsigned glr_slow_mode;
GLR_HIDDEN int glr_log_level = GLR_LOG_ERROR;
GLR_HIDDEN bool glr_disabled;

/* Per-command call counts, only touched on the slow path (GLREPLAY_LOG=info or more). */
static uint64_t call_counts[GLR_CMD_COUNT];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static const char *const level_names[] = { "error", "warn", "info", "debug" };

void glr_log(int level, const char *fmt, ...)
{
    if (level > glr_log_level)
        return;
    /* One write per message so lines from several threads do not interleave. */
    char buf[1024];
    int n = snprintf(buf, sizeof buf, "glreplay: %s: ", level_names[level]);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    size_t len = (size_t)n + (m < 0 ? 0 : (size_t)m);
    if (len > sizeof buf - 2)
        len = sizeof buf - 2;
    buf[len++] = '\n';
    ssize_t w = write(STDERR_FILENO, buf, len);
    (void)w;
}

static int parse_level(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, level_names[i]) == 0)
            return i;
    return -1;
}

static void init_once_fn(void)
{
    const char *dis = getenv("GLREPLAY_DISABLE");
    glr_disabled = dis && dis[0] && strcmp(dis, "0") != 0;
    const char *lv = getenv("GLREPLAY_LOG");
    if (lv && *lv) {
        int l = parse_level(lv);
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

__attribute__((constructor)) static void glr_shim_constructor(void)
{
    glr_shim_init();
}

void glr_note_call(int cmd)
{
    if (glr_slow_mode & GLR_SLOW_COUNT)
        __atomic_add_fetch(&call_counts[cmd], 1, __ATOMIC_RELAXED);
}

static int by_count_desc(const void *a, const void *b)
{
    uint64_t ca = call_counts[*(const int *)a], cb = call_counts[*(const int *)b];
    if (ca != cb)
        return ca < cb ? 1 : -1;
    return strcmp(glr_cmd_name(*(const int *)a), glr_cmd_name(*(const int *)b));
}

/* At exit with GLREPLAY_LOG=info: the first visible proof of interception. */
__attribute__((destructor)) static void glr_shim_summary(void)
{
    if (glr_disabled)
        return;
    glr_capture_at_exit();
    glr_ipc_stop();
    if (glr_log_level < GLR_LOG_INFO)
        return;
    static int order[GLR_CMD_COUNT];
    int used = 0;
    uint64_t total = 0;
    for (int i = 0; i < GLR_CMD_COUNT; i++) {
        uint64_t c = __atomic_load_n(&call_counts[i], __ATOMIC_RELAXED);
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
        glr_log(GLR_LOG_INFO, "  %10llu %s", (unsigned long long)call_counts[order[k]],
                glr_cmd_name(order[k]));
}
