/* `glreplay dap --socket P F.glcap`: serves a capture file over the Debug Adapter Protocol on a
 * Unix socket until SIGINT/SIGTERM; `--stdio` forms: cli_dap_stdio.c. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli_common.h"
#include "cli_opts.h"
#include "cli_dap.h"
#include "ui_ipc/dap/dap.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner.h"

#define USAGE "usage: glreplay dap --socket P F.glcap | --stdio F.glcap | --stdio --connect P | --stdio --pid N"

/* --pid's value: the running program's default socket, which --connect then names. */
struct pid_target {
    char *sock;
    size_t sock_size;
    const char **connect_to;
};

static bool parse_pid(const char *s, void *dest)
{
    struct pid_target *t = dest;
    char *end;
    long pid = strtol(s, &end, 10);
    if (*end || pid <= 0 || pid > 4194304 || !cli_default_socket_path(t->sock, t->sock_size, (int)pid))
        return false;
    *t->connect_to = t->sock;
    return true;
}

int cli_dap(int argc, char **argv)
{
    const char *sock = NULL, *path = NULL, *connect_to = NULL;
    bool stdio = false;
    char pid_sock[512];
    bool help_asked = false;
    struct pid_target pid = { .sock = pid_sock, .sock_size = sizeof pid_sock, .connect_to = &connect_to };
    const struct cli_opt opts[] = {
        { .name = "--help", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "-h", .flag = &help_asked, .set_to = true, .stop = true },
        { .name = "--stdio", .flag = &stdio, .set_to = true },
        { .name = "--connect", .str = &connect_to, .needs = "a value" },
        { .name = "--pid", .parse = parse_pid, .dest = &pid, .needs = "a value",
          .refused = "%v: %o needs a process id, got '%a'" },
        { .name = "--socket", .str = &sock, .needs = "a path" },
    };
    const struct cli_verb v = { .verb = "dap", .usage = USAGE, .opts = opts, .n = sizeof opts / sizeof *opts,
                                .extra = "%v: unexpected argument '%a' (%u)", .path_later = true };
    int prc = cli_parse(&v, argc, argv, &path, NULL);
    if (prc == 1) {
        printf(USAGE "\n\nServes F.glcap to a debugger (VS Code, nvim-dap) over the Debug Adapter Protocol on\n"
                     "the Unix socket P (its directory is created 0700, the socket is 0600) until SIGINT/SIGTERM.\n\n"
                     "  --socket P    the socket path\n"
                     "  --stdio       speak DAP on stdin/stdout instead, for editors that start the adapter as a\n"
                     "                process: one session on F.glcap, or with --connect P / --pid N a relay to the\n"
                     "                socket of a running program (glreplay run) or of `glreplay dap --socket`\n"
                     "  --connect P   (with --stdio) the socket to relay to\n"
                     "  --pid N       (with --stdio) the running program's default socket\n");
        return 0;
    }
    if (prc != 0)
        return 2;
    if (stdio) {
        if (sock || (connect_to && path) || (!connect_to && !path)) {
            cli_error("dap: --stdio takes a capture file, or --connect P / --pid N, and no --socket (" USAGE ")");
            return 2;
        }
        return connect_to ? cli_dap_stdio_connect(connect_to) : cli_dap_stdio_serve(path);
    }
    if (connect_to) {
        cli_error("dap: --connect and --pid go with --stdio (" USAGE ")");
        return 2;
    }
    if (!sock || !path) {
        cli_error("dap: %s (" USAGE ")", !path ? "no capture file given" : "--socket P (or --stdio) is required");
        return 2;
    }
    char err[512];
    struct dbg_capture *cap = dbg_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 1;
    }
    struct dbg_runner *runner = dbg_runner_create(cap, err, sizeof err);
    if (!runner) {
        cli_error("%s", err);
        dbg_capture_close(cap);
        return 1;
    }
    /* Signals are taken by sigwait in glr_dap_server_wait: block them before any thread starts. */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_BLOCK, &set, NULL);
    struct glr_dap_server *srv = glr_dap_server_start(sock, cap, runner, NULL, err, sizeof err);
    if (!srv) {
        cli_error("dap: %s", err);
        dbg_runner_destroy(runner);
        dbg_capture_close(cap);
        return 1;
    }
    printf("glreplay: DAP server for %s listening on %s (%d shaders, %d draws, runner: %s)\n", path, sock,
           cap->n_shaders, cap->n_draws, runner->name);
    fflush(stdout);
    glr_dap_server_wait(srv);
    glr_dap_server_stop(srv);
    dbg_runner_destroy(runner);
    dbg_capture_close(cap);
    return 0;
}
