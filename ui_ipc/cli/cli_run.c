/* `glreplay run [--socket P] [--frame N [--count K] --out F] -- APP ARGS`: APP runs in this process
 * with the shim preloaded (the CLI execs it), so its pid, signals and exit status are its own; with
 * --frame/--out a detached helper checks the capture once APP has ended (cli_run_reporter.c).
 * `glreplay capture` starts APP as a child it waits for instead, since its exit status is the
 * capture's. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_run_reporter.h"

#define RUN_USAGE "usage: glreplay run [--socket P] [--frame N [--count K] --out F.glcap] -- APP ARGS"

static pid_t child_pid;

/* `capture` runs the program as a child in a process group of its own, so every signal reaches it
 * once (issue 13 §8): one sent to this process (`kill PID`) or to its group (`kill -- -PGID`, a test
 * runner's or `timeout`'s group kill) is forwarded to the program's group, which the sender's
 * signal did not reach; one typed at the terminal (Ctrl-C, a hangup: SI_KERNEL) went to the
 * terminal's foreground group, which is the program's (terminal_to), so it is not forwarded.
 * (With the child in this process's group a group kill reached it directly, and a waiting parent
 * cannot tell that kill from a kill of its own pid: it arrived twice.) */
static void forward_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    if (child_pid <= 0 || si->si_code == SI_KERNEL)
        return;
    kill(-child_pid, sig);
}

/* The terminal this process had in the foreground (-1: none), handed to the program's group while
 * it runs, as a shell hands it to a job: Ctrl-C, Ctrl-Z and terminal reads are the program's. */
static int fg_tty = -1;

static void terminal_to(pid_t pgrp)
{
    if (fg_tty >= 0)
        tcsetpgrp(fg_tty, pgrp);
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

/* Parses [--socket P] [--frame N [--count K] --out F] -- APP ARGS (the capture options only when
 * plan is not NULL) and sets the environment APP needs. The index of APP in argv, or -1 (the error
 * said; *rc is the exit status). *capture: the capture options were given (plan prepared). */
static int prepare(int argc, char **argv, const char **socket_path, int *rc, struct cli_capture_plan *plan,
                   bool *capture)
{
    int i;
    const char *none, *out = NULL;
    unsigned long long frame = CLI_NO_FRAME, count = 0;
    *rc = 2;
    *socket_path = NULL;
    *capture = false;
    const struct cli_opt opts[] = {
        { .name = "--socket", .str = socket_path },
        { .name = "--frame", .parse = cli_parse_frame, .dest = &frame, .needs = "a frame number" },
        { .name = "--count", .parse = cli_parse_count, .dest = &count, .needs = "a number of frames, at least 1" },
        { .name = "--out", .str = &out },
    };
    const struct cli_verb v = { .verb = "run", .usage = RUN_USAGE, .opts = opts, .n = plan ? 4 : 1, .program = true,
                                .unknown = "%v: unexpected argument '%a' (%u)",
                                .extra = "%v: unexpected argument '%a' (%u)" };
    if (cli_parse(&v, argc, argv, &none, &i) != 0)
        return -1;
    if ((frame != CLI_NO_FRAME) != (out != NULL) || (count && frame == CLI_NO_FRAME) || (out && !out[0])) {
        cli_error("run: --frame and --out go together (--count with them) (" RUN_USAGE ")");
        return -1;
    }
    if (i >= argc) {
        cli_error("run: no program given (" RUN_USAGE ")");
        return -1;
    }
    if (out) {
        if (cli_capture_prepare(plan, "run", frame, count ? count : 1, out) != 0)
            return -1;
        *capture = true;
    }
    const char *shim = cli_find_shim();
    if (!shim)
        return -1;
    if (set_preload(shim) != 0 || (*socket_path && setenv("GLREPLAY_SOCKET", *socket_path, 1) != 0)) {
        cli_error("run: cannot set the environment: %s", strerror(errno));
        return -1;
    }
    return i;
}

static void announce(const char *app, const char *socket_path, pid_t pid)
{
    char sock[256];
    if (socket_path)
        snprintf(sock, sizeof sock, "%s", socket_path);
    else if (!cli_default_socket_path(sock, sizeof sock, (int)pid))
        snprintf(sock, sizeof sock, "(path too long)");
    fprintf(stderr, "glreplay: running %s (pid %d), socket %s\n", app, (int)pid, sock);
}

int cli_run(int argc, char **argv)
{
    const char *socket_path;
    struct cli_capture_plan plan;
    bool capture;
    int rc, i = prepare(argc, argv, &socket_path, &rc, &plan, &capture);
    if (i < 0)
        return rc;
    pid_t helper = 0;
    if (capture && cli_run_start_reporter(&plan, &helper) != 0) {
        cli_capture_plan_free(&plan);
        return 2;
    }
    /* The program replaces this process (exec, not fork): it keeps the pid the socket is named
     * after, its terminal's process group and every signal sent to it exactly once, and its exit
     * status or death by a signal is what the caller sees, as without glreplay. (A forwarding
     * parent delivered a Ctrl-C or a `timeout` signal to the group twice.) */
    announce(argv[i], socket_path, getpid());
    fflush(NULL);
    execvp(argv[i], argv + i);
    int e = errno;
    /* The program never ran: the helper's "not written" would only repeat this line. */
    if (capture) {
        kill(helper, SIGTERM);
        cli_capture_plan_free(&plan);
    }
    cli_error("run: cannot start %s: %s", argv[i], strerror(e));
    return 127;
}

int cli_run_supervised(int argc, char **argv)
{
    const char *socket_path;
    bool capture;
    int rc, i = prepare(argc, argv, &socket_path, &rc, NULL, &capture);
    if (i < 0)
        return rc;
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) {
        cli_error("run: pipe: %s", strerror(errno));
        return 2;
    }
    /* Before the fork: a Ctrl-C as soon as the program runs must not end this process (the
     * program would be left without its capture check). exec resets the child's handlers. */
    struct sigaction sa = { .sa_sigaction = forward_signal, .sa_flags = SA_SIGINFO };
    sigemptyset(&sa.sa_mask);
    /* The signals a group kill commonly carries besides these (SIGQUIT, SIGUSR1/2) are passed on
     * as well: the program's group no longer gets them directly. */
    static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
    struct sigaction old_disp[sizeof forwarded / sizeof forwarded[0]];
    for (size_t k = 0; k < sizeof forwarded / sizeof forwarded[0]; k++)
        sigaction(forwarded[k], &sa, &old_disp[k]);
    /* tcsetpgrp from a group that is no longer in the foreground raises SIGTTOU: ignored here
     * (exec gives the program the default action back). */
    struct sigaction ttou_ign = { .sa_handler = SIG_IGN }, ttou_old;
    sigemptyset(&ttou_ign.sa_mask);
    sigaction(SIGTTOU, &ttou_ign, &ttou_old);
    if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
        fg_tty = STDIN_FILENO;
    /* The forwarded signals are blocked across the fork: one that arrived in the child before its
     * exec would run the inherited forward_signal, which has no child to pass it to there, and be
     * lost (seen under load: a `kill PID` of glreplay never reached the program). The child puts
     * their dispositions back first and then unblocks them, so what is pending takes the
     * program's action; the parent unblocks once child_pid is set. */
    sigset_t fwd_set, old_mask;
    sigemptyset(&fwd_set);
    for (size_t k = 0; k < sizeof forwarded / sizeof forwarded[0]; k++)
        sigaddset(&fwd_set, forwarded[k]);
    sigprocmask(SIG_BLOCK, &fwd_set, &old_mask);
    pid_t parent = getpid();
    child_pid = fork();
    if (child_pid < 0) {
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        cli_error("run: fork: %s", strerror(errno));
        return 2;
    }
    if (child_pid == 0) {
        /* Dispositions the program inherits as it would have (an ignored SIGQUIT stays ignored). */
        for (size_t k = 0; k < sizeof forwarded / sizeof forwarded[0]; k++) {
            struct sigaction dfl = { .sa_handler = old_disp[k].sa_handler == SIG_IGN ? SIG_IGN : SIG_DFL };
            sigemptyset(&dfl.sa_mask);
            sigaction(forwarded[k], &dfl, NULL);
        }
        sigprocmask(SIG_SETMASK, &old_mask, NULL);
        close(ready[0]);
        /* Its own group (set on both sides of the fork, whichever runs first), in the foreground. */
        setpgid(0, 0);
        /* A SIGKILL (or any death) of glreplay, which a kill of its group can no longer carry to
         * the program, ends the program too: it is not left running without its supervisor. */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)   /* it died before the prctl */
            _exit(127);
        terminal_to(getpid());
        sigaction(SIGTTOU, &ttou_old, NULL);   /* as the program would have had it */
        execvp(argv[i], argv + i);
        int e = errno;
        ssize_t w = write(ready[1], &e, sizeof e);
        (void)w;
        _exit(127);
    }
    sigprocmask(SIG_SETMASK, &old_mask, NULL);
    close(ready[1]);
    setpgid(child_pid, child_pid);
    terminal_to(child_pid);
    int exec_errno = 0;
    if (read(ready[0], &exec_errno, sizeof exec_errno) == (ssize_t)sizeof exec_errno) {
        cli_error("run: cannot start %s: %s", argv[i], strerror(exec_errno));
        waitpid(child_pid, NULL, 0);
        terminal_to(getpgrp());
        return 127;
    }
    close(ready[0]);
    announce(argv[i], socket_path, child_pid);
    int status;
    for (;;) {
        if (waitpid(child_pid, &status, WUNTRACED) < 0) {
            if (errno == EINTR)
                continue;
            cli_error("run: waitpid: %s", strerror(errno));
            terminal_to(getpgrp());
            return 2;
        }
        if (!WIFSTOPPED(status))
            break;
        /* Ctrl-Z stopped the program: this process stops too, so the shell sees its job stopped;
         * `fg` or `bg` continues this process, which continues the program (in the foreground
         * again only if this process got the terminal back). */
        terminal_to(getpgrp());
        raise(SIGSTOP);
        if (fg_tty >= 0 && tcgetpgrp(fg_tty) == getpgrp())
            terminal_to(child_pid);
        kill(-child_pid, SIGCONT);
    }
    terminal_to(getpgrp());
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return 1;
}
