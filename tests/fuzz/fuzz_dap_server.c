/* Fuzz target: the DAP server as a client reaches it — Content-Length framing, JSON bodies and
 * every request with any arguments — over a real connection (a socketpair) to a session serving a
 * small capture, as `glreplay dap` and the live attach serve it (glr_dap_serve_fd). The input is
 * the byte stream the client sends, in pieces split by a 6-byte marker ("\\0WAIT\\0": wait up to 2 s
 * for a stopped or terminated event, as a debugger waits before it inspects a stop); then the
 * client closes its side, and the target waits until the server has answered, ended the session
 * and finished its pass.
 * The capture comes from GLREPLAY_FUZZ_CAPTURE (the suite and run_fuzz.sh capture a sample). */
#include "fuzz_target.h"

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ui_ipc/dap/dap.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner.h"

static struct dbg_capture *cap;
static struct dbg_runner *runner;
static bool echo;   /* GLREPLAY_FUZZ_ECHO=1: the server's answers on stderr (to check seeds) */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *path = getenv("GLREPLAY_FUZZ_CAPTURE");
    echo = getenv("GLREPLAY_FUZZ_ECHO") && !strcmp(getenv("GLREPLAY_FUZZ_ECHO"), "1");
    char err[512];
    if (!path || !(cap = dbg_capture_open(path, err, sizeof err)) ||
        !(runner = dbg_runner_create(cap, err, sizeof err))) {
        fprintf(stderr, "fuzz_dap_server: GLREPLAY_FUZZ_CAPTURE must name a capture: %s\n",
                path ? err : "not set");
        exit(2);
    }
    /* One pass at a time, nothing prepared in the background: each input starts from the same
     * state, so a finding replays. */
    dbg_runner_set_spares(runner, false);
    return 0;
}

struct client {
    int fd;
    const uint8_t *data;
    size_t size;
    char tail[64];    /* the end of what was read, to find an event split over two reads */
};

/* The 6-byte marker that splits an input into what the client sends before and after the
 * server stopped: a debugger looks at a stop only once it was told of it. */
static const char wait_marker[6] = { 0, 'W', 'A', 'I', 'T', 0 };

/* Reads what the server sent for up to ms milliseconds (0: what is there now); true once a
 * stopped, terminated or exited event arrived, or the server closed the connection. */
static bool read_answers(struct client *c, int ms)
{
    struct pollfd p = { c->fd, POLLIN, 0 };
    char buf[65536 + sizeof c->tail];
    while (poll(&p, 1, ms) > 0) {
        size_t keep = strlen(c->tail);
        memcpy(buf, c->tail, keep);
        ssize_t n = read(c->fd, buf + keep, 65536);
        if (n <= 0)
            return true;
        if (echo)
            fwrite(buf + keep, 1, (size_t)n, stderr);
        size_t len = keep + (size_t)n;
        buf[len] = 0;
        bool seen = strstr(buf, "\"event\":\"stopped\"") || strstr(buf, "\"event\":\"terminated\"") ||
                    strstr(buf, "\"event\":\"exited\"");
        size_t t = len < sizeof c->tail - 1 ? len : sizeof c->tail - 1;
        memcpy(c->tail, buf + len - t, t);
        c->tail[t] = 0;
        for (size_t i = 0; i < t; i++)   /* a NUL in the data must not cut the kept tail short */
            if (!c->tail[i])
                c->tail[i] = ' ';
        if (seen)
            return true;
    }
    return false;
}

/* The client: sends the input piece by piece (pieces split by wait_marker: after each it waits
 * up to 2 s for the server to stop or end), closes its sending side, reads every answer until the
 * server closes the connection. */
static void *client_main(void *arg)
{
    struct client *c = arg;
    size_t at = 0;
    while (at < c->size) {
        const uint8_t *m = memmem(c->data + at, c->size - at, wait_marker, sizeof wait_marker);
        size_t piece = m ? (size_t)(m - (c->data + at)) : c->size - at;
        size_t done = 0;
        while (done < piece) {
            ssize_t n = send(c->fd, c->data + at + done, piece - done, MSG_NOSIGNAL);
            if (n <= 0)
                break;
            done += (size_t)n;
            read_answers(c, 0);
        }
        at += piece;
        if (m) {
            at += sizeof wait_marker;
            for (int waited = 0; waited < 2000 && !read_answers(c, 50); waited += 50)
                ;
        }
    }
    shutdown(c->fd, SHUT_WR);
    for (;;) {
        char buf[65536];
        ssize_t n = read(c->fd, buf, sizeof buf);
        if (n <= 0)
            break;
        if (echo)
            fwrite(buf, 1, (size_t)n, stderr);
    }
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
        return 0;
    struct client c = { sv[1], data, size, "" };
    pthread_t t;
    if (pthread_create(&t, NULL, client_main, &c) != 0) {
        close(sv[0]);
        close(sv[1]);
        return 0;
    }
    /* Small bounds: an input cannot make the target hold much memory or wait long. */
    struct glr_dap_options opt = { .max_message = 1 << 20, .max_output = 8 << 20, .snapshot_budget = 64 << 20,
                                   .write_timeout_ms = 2000 };
    char err[512];
    glr_dap_serve_fd(sv[0], NULL, 0, cap, runner, &opt, err, sizeof err);   /* closes sv[0] */
    pthread_join(t, NULL);
    close(sv[1]);
    return 0;
}
