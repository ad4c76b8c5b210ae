/* A program for check_group_signals.py: counts the SIGINTs it is delivered, in a C handler (a
 * Python handler would merge two close signals into one call), prints "got N" and exits with
 * 10 + N. `sigint_count default` keeps SIGINT's default action instead and dies of it.
 * It prints "ready" once the handler is in place and waits up to 5 s for the first signal, then
 * 300 ms for a second one that a forwarding parent would send. */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t count;

static void on_sigint(int sig)
{
    (void)sig;
    count++;
}

/* Sleeps ms milliseconds in all, across interruptions by the handler. */
static void sleep_ms(long ms)
{
    struct timespec left = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&left, &left) != 0)
        ;
}

int main(int argc, char **argv)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    /* The default action even if the test runner left SIGINT ignored. */
    sa.sa_handler = argc > 1 && strcmp(argv[1], "default") == 0 ? SIG_DFL : on_sigint;
    sigaction(SIGINT, &sa, NULL);
    printf("ready\n");
    fflush(stdout);
    for (int i = 0; i < 500 && !count; i++)
        sleep_ms(10);
    sleep_ms(300);
    printf("got %d\n", (int)count);
    fflush(stdout);
    return 10 + (int)count;
}
