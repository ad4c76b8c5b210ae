/* The shim's process-wide switches (GLREPLAY_DISABLE, the slow-path mode), logging and per-command
 * call counts. A leaf: every other file of the shim uses these, and they use nothing of the shim,
 * so the files that start the shim up (shim_state.c) and the rest do not call each other in a
 * circle through them. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "shim/shim_internal.h"

GLR_HIDDEN unsigned glr_slow_mode;
GLR_HIDDEN int glr_log_level = GLR_LOG_ERROR;
GLR_HIDDEN bool glr_disabled;

/* Per-command call counts, only touched on the slow path (GLREPLAY_LOG=info or more). */
static uint64_t call_counts[GLR_CMD_COUNT];

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

int glr_log_parse_level(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(s, level_names[i]) == 0)
            return i;
    return -1;
}

void glr_note_call(int cmd)
{
    if (glr_slow_mode & GLR_SLOW_COUNT)
        __atomic_add_fetch(&call_counts[cmd], 1, __ATOMIC_RELAXED);
}

uint64_t glr_call_count(int cmd)
{
    return __atomic_load_n(&call_counts[cmd], __ATOMIC_RELAXED);
}
