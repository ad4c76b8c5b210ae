/* The helper of `glreplay run --frame N --out F` (cli_run_reporter.h). The program keeps this
 * process (exec): its pid, process group, terminal, signals and exit status are its own. What
 * must happen after it ends (the file check) is done by a helper that is neither its child nor in
 * its process group or session:
 *   - forked twice, the middle process reaped before the exec, so the program has no child it did
 *     not make (no SIGCHLD, nothing for its wait() to collect);
 *   - in a session of its own, so no signal meant for the program (Ctrl-C, Ctrl-Z, a hangup, a
 *     `kill -- -PGID`, `timeout`) reaches it: it needs none;
 *   - it learns of the end through a pidfd of the program (readable when the process has
 *     terminated, whatever it exec'd or how it died), so no descriptor is left open in the program.
 * Its stdin and stdout are /dev/null (a pipeline reading the program's output ends with the
 * program); it keeps stderr for its one line, so a caller reading stderr through a pipe gets that
 * line before end of file. At a terminal the line may come after the shell's next prompt. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cli_common.h"
#include "cli_run_reporter.h"

static _Noreturn void reporter(const struct cli_capture_plan *plan, pid_t program, int ready_fd)
{
    int pidfd = (int)syscall(SYS_pidfd_open, program, 0);
    int msg[2] = { pidfd >= 0 ? 0 : errno, (int)getpid() };
    ssize_t w = write(ready_fd, msg, sizeof msg);
    (void)w;
    close(ready_fd);
    if (pidfd < 0)
        _exit(1);
    int nul = open("/dev/null", O_RDWR);
    if (nul >= 0) {
        dup2(nul, STDIN_FILENO);
        dup2(nul, STDOUT_FILENO);
        if (nul > STDERR_FILENO)
            close(nul);
    }
    /* Nothing else the CLI inherited stays open here (a pipe's write end would keep its reader
     * waiting for this process). */
    for (int fd = STDERR_FILENO + 1; fd < pidfd; fd++)
        close(fd);
    syscall(SYS_close_range, (unsigned)pidfd + 1, ~0u, 0);
    struct pollfd pf = { .fd = pidfd, .events = POLLIN };
    while (poll(&pf, 1, -1) < 0 && errno == EINTR)
        ;
    _exit(cli_capture_check(plan, -1));
}

int cli_run_start_reporter(const struct cli_capture_plan *plan, pid_t *helper_pid)
{
    int ready[2];
    if (pipe2(ready, O_CLOEXEC) != 0) {
        cli_error("run: pipe: %s", strerror(errno));
        return -1;
    }
    pid_t program = getpid();
    pid_t mid = fork();
    if (mid < 0) {
        cli_error("run: fork: %s", strerror(errno));
        close(ready[0]);
        close(ready[1]);
        return -1;
    }
    if (mid == 0) {
        close(ready[0]);
        setsid();
        /* Default dispositions: an ignored SIGTERM inherited from the caller should not make the
         * helper unkillable; it is sent no signal otherwise. */
        signal(SIGTERM, SIG_DFL);
        pid_t helper = fork();
        if (helper == 0)
            reporter(plan, program, ready[1]);
        _exit(helper < 0 ? 1 : 0);
    }
    close(ready[1]);
    while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
        ;
    int msg[2] = { -1, 0 };
    ssize_t n = read(ready[0], msg, sizeof msg);
    close(ready[0]);
    if (n != (ssize_t)sizeof msg || msg[0] != 0) {
        cli_error("run: cannot start the capture check: %s", n == (ssize_t)sizeof msg ? strerror(msg[0]) : "no helper");
        return -1;
    }
    *helper_pid = msg[1];
    return 0;
}
