/* fork, exec and exit from a non-main thread, with GL (EGL surfaceless, no X).
 *
 * usage: forkexec GL_PROGRAM
 *   1. forks before any GL: the child draws 2 frames with its own context and exits 3;
 *   2. draws 2 frames in the parent (context left current until exit);
 *   3. forks with the parent's context alive: the child calls exit(5) (atexit handlers and library
 *      destructors run in a child of a GL process);
 *   4. forks and execs GL_PROGRAM (another GL program; LD_PRELOAD carries the shim into it), whose
 *      exit status must be 0;
 *   5. a second thread calls exit(42) while the main thread waits in pthread_join.
 * stdout is the same with and without the shim; the exit status is 42 when everything went right
 * (1 otherwise). Process ids go to stderr ("forkexec: pid ROLE PID") for the driver. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "egl_draw.h"

static int wait_child(pid_t pid, const char *role)
{
    int status = 0;
    if (waitpid(pid, &status, 0) != pid) {
        perror("forkexec: waitpid");
        return -1;
    }
    if (WIFEXITED(status)) {
        printf("%s: exit %d\n", role, WEXITSTATUS(status));
        fflush(stdout);
        return WEXITSTATUS(status);
    }
    printf("%s: killed by signal %d\n", role, WIFSIGNALED(status) ? WTERMSIG(status) : -1);
    fflush(stdout);
    return -1;
}

static pid_t fork_flushed(const char *role)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        perror("forkexec: fork");
        exit(1);
    }
    if (pid == 0)
        fprintf(stderr, "forkexec: pid %s %d\n", role, (int)getpid());
    return pid;
}

static void *exit_from_thread(void *arg)
{
    (void)arg;
    printf("exiting from a second thread\n");
    fflush(stdout);
    exit(42);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: forkexec GL_PROGRAM\n");
        return 2;
    }
    fprintf(stderr, "forkexec: pid parent %d\n", (int)getpid());
    bool ok = true;

    pid_t pid = fork_flushed("gl-child");
    if (pid == 0) {
        bool drew = egl_draw_init(24, 16) && egl_draw_frame(1) && egl_draw_frame(2);
        egl_draw_finish();
        exit(drew ? 3 : 1);
    }
    ok = wait_child(pid, "gl-child") == 3 && ok;

    ok = egl_draw_init(32, 24) && egl_draw_frame(3) && egl_draw_frame(4) && ok;
    printf("parent: drew 2 frames: %s\n", ok ? "ok" : "FAILED");

    pid = fork_flushed("exit-child");
    if (pid == 0)
        exit(5);
    ok = wait_child(pid, "exit-child") == 5 && ok;

    pid = fork_flushed("exec-child");
    if (pid == 0) {
        execl(argv[1], argv[1], (char *)NULL);
        perror("forkexec: exec");
        _exit(127);
    }
    ok = wait_child(pid, "exec-child") == 0 && ok;

    if (!ok) {
        fprintf(stderr, "forkexec: FAILED\n");
        return 1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, exit_from_thread, NULL) != 0)
        return 1;
    pthread_join(t, NULL); /* never returns: the thread exits the process */
    return 1;
}
