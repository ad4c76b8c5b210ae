/* The stdio form of `glreplay dap`, for editors that start a debug adapter as a process and speak
 * DAP on its stdin/stdout (Helix, Zed, Emacs dap-mode/dape, Eclipse, nvim-dap before its `pipe`
 * adapter): `--stdio F.glcap` serves a capture file, `--stdio --connect P` / `--stdio --pid N`
 * relays to the Unix socket of a running program (its live attach) or of `glreplay dap --socket`.
 * The same server and sessions serve both forms: stdio is relayed through a socketpair into the
 * connection code the socket form uses. Nothing else is written to stdout. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_dap.h"
#include "ui_ipc/dap/dap.h"

static bool write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

/* Copies stdin to sock and sock to stdout until sock ends; at the end of stdin the socket's
 * sending side is shut so the server sees the client leave, and its last answers still arrive. */
static void relay(int sock)
{
    struct pollfd p[2] = { { STDIN_FILENO, POLLIN, 0 }, { sock, POLLIN, 0 } };
    char buf[65536];
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            return;
        }
        if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t n = read(sock, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0 || !write_all(STDOUT_FILENO, buf, (size_t)n))
                return;
        }
        if (p[0].fd >= 0 && (p[0].revents & (POLLIN | POLLHUP | POLLERR))) {
            ssize_t n = read(STDIN_FILENO, buf, sizeof buf);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0 || !write_all(sock, buf, (size_t)n)) {
                shutdown(sock, SHUT_WR);
                p[0].fd = -1;   /* poll ignores it from now on */
            }
        }
    }
}

static void *relay_main(void *arg)
{
    relay(*(int *)arg);
    return NULL;
}

int cli_dap_stdio_serve(const char *capture_path)
{
    signal(SIGPIPE, SIG_IGN);
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
        cli_error("dap: --stdio: socketpair: %s", strerror(errno));
        return 1;
    }
    pthread_t t;
    if (pthread_create(&t, NULL, relay_main, &sv[1]) != 0) {
        cli_error("dap: --stdio: cannot start the relay thread");
        close(sv[0]);
        close(sv[1]);
        return 1;
    }
    char err[512];
    int rc = glr_dap_serve_capture_fd(sv[0], NULL, 0, capture_path, NULL, err, sizeof err);   /* closes sv[0] */
    pthread_join(t, NULL);
    close(sv[1]);
    if (rc != 0) {
        cli_error("dap: %s", err);
        return 1;
    }
    return 0;
}

int cli_dap_stdio_connect(const char *socket_path)
{
    signal(SIGPIPE, SIG_IGN);
    struct sockaddr_un a;
    memset(&a, 0, sizeof a);
    a.sun_family = AF_UNIX;
    if (strlen(socket_path) >= sizeof a.sun_path) {
        cli_error("dap: %s: socket path too long", socket_path);
        return 2;
    }
    memcpy(a.sun_path, socket_path, strlen(socket_path));
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a) != 0) {
        cli_error("dap: cannot connect to %s: %s", socket_path, strerror(errno));
        if (s >= 0)
            close(s);
        return 1;
    }
    relay(s);
    close(s);
    return 0;
}
