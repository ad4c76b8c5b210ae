/* --timeout and Ctrl-C for the model verbs (cli_stop.h). The handlers only set a flag: the
 * model checks it between warps, so the verb still reports and frees what it has. */
#include "ui_ipc/cli/cli_stop.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

static volatile sig_atomic_t stop_flag;   /* 0 running, 1 timer, 2 Ctrl-C */
static double armed_seconds;
static char reason[64];

static void on_alarm(int sig)
{
    (void)sig;
    if (!stop_flag)
        stop_flag = 1;
}

static void on_interrupt(int sig)
{
    if (!stop_flag)
        stop_flag = 2;
    signal(sig, SIG_DFL);   /* a second Ctrl-C ends the process as usual */
}

const volatile sig_atomic_t *cli_stop_arm(double seconds)
{
    stop_flag = 0;
    armed_seconds = seconds;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    if (seconds > 0) {
        sa.sa_handler = on_alarm;
        sigaction(SIGALRM, &sa, NULL);
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = (time_t)seconds;
        it.it_value.tv_usec = (suseconds_t)((seconds - floor(seconds)) * 1e6);
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1;
        setitimer(ITIMER_REAL, &it, NULL);
    }
    return &stop_flag;
}

void cli_stop_disarm(void)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    setitimer(ITIMER_REAL, &it, NULL);
    signal(SIGINT, SIG_DFL);
}

const char *cli_stop_reason(void)
{
    if (stop_flag == 1) {
        snprintf(reason, sizeof reason, "the --timeout of %g s", armed_seconds);
        return reason;
    }
    return stop_flag == 2 ? "Ctrl-C" : NULL;
}

bool cli_parse_timeout(const char *s, double *seconds)
{
    if (!s || !*s)
        return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || *end || !(v > 0) || v > 86400)
        return false;
    *seconds = v;
    return true;
}
