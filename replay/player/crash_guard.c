/* See crash_guard.h. The handler only calls async-signal-safe functions (write, _exit). */
#include "replay/player/crash_guard.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "registry/glr_call.h"
#include "registry/glr_call_codec.h"

static const int guarded[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
#define N_GUARDED (sizeof guarded / sizeof guarded[0])

static struct sigaction saved[N_GUARDED];
static const char *guard_what = "the replay";
static volatile sig_atomic_t armed;
static volatile sig_atomic_t guard_cmd = -1;
static volatile uint64_t guard_record;

static void put_str(const char *s)
{
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

static void put_num(uint64_t v)
{
    char b[24];
    int i = (int)sizeof b;
    b[--i] = 0;
    do
        b[--i] = (char)('0' + v % 10);
    while ((v /= 10) && i > 0);
    put_str(b + i);
}

static void on_fault(int sig)
{
    if (!armed)
        return; /* SA_RESETHAND: the fault repeats with the default action (a bug of glreplay) */
    put_str("glreplay: ");
    put_str(guard_what);
    put_str(" crashed (signal ");
    put_num((uint64_t)sig);
    if (guard_record == GLRH_GUARD_RESTORE) {
        put_str(") restoring the initial state");
    } else {
        put_str(") at record ");
        put_num(guard_record);
    }
    if (guard_cmd >= 0 && (uint32_t)guard_cmd < GLR_CMD_COUNT) {
        put_str(" (");
        put_str(glr_call_name((uint32_t)guard_cmd));
        put_str(")");
    }
    put_str(": the capture holds data this driver cannot take\n");
    _exit(3);
}

void glrh_crash_guard_install(const char *what)
{
    guard_what = what;
    armed = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fault;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    for (size_t i = 0; i < N_GUARDED; i++)
        sigaction(guarded[i], &sa, &saved[i]);
}

void glrh_crash_guard_remove(void)
{
    armed = 0;
    for (size_t i = 0; i < N_GUARDED; i++)
        sigaction(guarded[i], &saved[i], NULL);
}

void glrh_crash_guard_arm(uint64_t record, int cmd)
{
    guard_record = record;
    guard_cmd = cmd;
    armed = 1;
}

void glrh_crash_guard_disarm(void)
{
    armed = 0;
}

void glrh_crash_guard_rearm(void)
{
    armed = 1;
}
