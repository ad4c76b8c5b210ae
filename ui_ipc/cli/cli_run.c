/* `glreplay run [--socket P] -- APP ARGS`: start APP with the shim preloaded and wait for it.
 * The exit status is the program's (128+signal when it was killed), so scripts can use it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_common.h"

static pid_t child_pid;

static void forward_signal(int sig)
{
    if (child_pid > 0)
        kill(child_pid, sig);
}

static int set_preload(const char *shim)
{
    const char *old = getenv("LD_PRELOAD");
    size_t len = strlen(shim) + (old ? strlen(old) + 1 : 0) + 1;
    char *v = malloc(len);
    if (!v)
        return -1;
    /* The shim goes first so it sees the program's calls before any other preloaded library. */
    snprintf(v, len, "%s%s%s", shim, old && *old ? " " : "", old ? old : "");
    int r = setenv("LD_PRELOAD", v, 1);
    free(v);
    return r;
}

int cli_run(int argc, char **argv)
{
    const char *socket_path = NULL;
    int i = 0;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            i++;
            break;
        } else if (strcmp(argv[i], "--socket") == 0 && i + 1 < argc) {
            socket_path = argv[++i];
        } else {
            cli_error("run: unexpected argument '%s' (usage: glreplay run [--socket P] -- APP ARGS)", argv[i]);
            return 2;
        }
    }
    if (i >= argc) {
        cli_error("run: no program given (usage: glreplay run [--socket P] -- APP ARGS)");
        return 2;
    }
    const char *shim = cli_find_shim();
    if (!shim)
        return 2;
    if (set_preload(shim) != 0 || (socket_path && setenv("GLREPLAY_SOCKET", socket_path, 1) != 0)) {
        cli_error("run: cannot set the environment: %s", strerror(errno));
        return 2;
    }
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) {
        cli_error("run: pipe: %s", strerror(errno));
        return 2;
    }
    child_pid = fork();
    if (child_pid < 0) {
        cli_error("run: fork: %s", strerror(errno));
        return 2;
    }
    if (child_pid == 0) {
        close(ready[0]);
        execvp(argv[i], argv + i);
        int e = errno;
        ssize_t w = write(ready[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    close(ready[1]);
    int exec_errno = 0;
    if (read(ready[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        cli_error("run: cannot start %s: %s", argv[i], strerror(exec_errno));
        waitpid(child_pid, NULL, 0);
        return 127;
    }
    close(ready[0]);
    char sock[256];
    if (socket_path)
        snprintf(sock, sizeof sock, "%s", socket_path);
    else if (!cli_default_socket_path(sock, sizeof sock, (int)child_pid))
        snprintf(sock, sizeof sock, "(path too long)");
    fprintf(stderr, "glreplay: running %s (pid %d), socket %s\n", argv[i], (int)child_pid, sock);
    struct sigaction sa = { .sa_handler = forward_signal };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    int status;
    while (waitpid(child_pid, &status, 0) < 0) {
        if (errno != EINTR) {
            cli_error("run: waitpid: %s", strerror(errno));
            return 2;
        }
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}
