/* ui_ipc/dap: the Debug Adapter Protocol server of glreplay (see shared ARCHITECTURE.md, "DAP over
 * the socket"). A server listens on a Unix stream socket (directory 0700, socket 0600, peers of
 * another uid refused) and serves each connection as an independent debug session over one
 * capture: breakpoints on shader lines, stops at the N-th invocation, snapshots in shadow memory.
 *
 * Threads: one I/O thread per server (poll over every connection; it never waits for a client),
 * one worker thread per session while a pass of the GPU model runs. */
#ifndef GLR_DAP_H
#define GLR_DAP_H

#include <stdbool.h>
#include <stddef.h>

struct dbg_capture;
struct dbg_runner;
struct glr_dap_server;

struct glr_dap_options {
    size_t max_message;        /* 0: DAP_MAX_MESSAGE */
    size_t max_output;         /* bytes queued for a client that does not read before it is dropped;
                                * 0: 64 MiB */
    size_t snapshot_budget;    /* shadow memory per session; 0: 256 MiB */
    int log_limit;             /* logpoint lines per logpoint and pass; 0: 20 */
    /* Bounds on what a silent client can hold (0: none; the live attach sets them, shim/ipc.c). */
    unsigned handshake_timeout_ms; /* nothing received for this long before configurationDone */
    unsigned idle_timeout_ms;      /* nothing received for this long after it, no pass running */
    unsigned write_timeout_ms;     /* output pending and not a byte read by the client this long */
    /* Served inside the program (live attach, glr_dap_serve_capture_fd): nothing may replay on a
     * driver in this process (glreplay/pixelHistory then runs the model only). */
    bool in_process;
    /* Set to 1 (atomically) when a session starts a pass of the GPU model (NULL: none); the live
     * attach starts the paused program's first replayed pass then (shim/ipc.c). */
    int *model_pass_started;
};

/* Serves `cap` (indexed capture) with `runner` on a socket at `path`. The capture and runner
 * must outlive the server. NULL with a one-line reason. */
struct glr_dap_server *glr_dap_server_start(const char *path, struct dbg_capture *cap, struct dbg_runner *runner,
                                            const struct glr_dap_options *opt, char *err, size_t err_size);
/* Blocks until a signal or until glr_dap_server_stop is called from another thread. */
void glr_dap_server_wait(struct glr_dap_server *s);
/* Stops the I/O thread, ends every session, removes the socket file. */
void glr_dap_server_stop(struct glr_dap_server *s);

/* Live attach (dap_live.c, used by the shim): serves ONE already accepted connection `fd` (owned:
 * closed at the end) on the calling thread until the client disconnects and the session's pass has
 * ended. `initial` holds bytes already read from it. 0, or -1 with a reason (fd closed). */
int glr_dap_serve_fd(int fd, const char *initial, size_t initial_len, struct dbg_capture *cap,
                     struct dbg_runner *runner, const struct glr_dap_options *opt, char *err, size_t err_size);
/* The same over the capture file at `capture_path` (opened and closed here), with `opt` (may be
 * NULL: no timeouts). */
int glr_dap_serve_capture_fd(int fd, const char *initial, size_t initial_len, const char *capture_path,
                             const struct glr_dap_options *opt, char *err, size_t err_size);
/* The command of the first complete DAP request in `initial` into cmd ("" if there is none). */
void glr_dap_first_command(const char *initial, size_t initial_len, char *cmd, size_t cmd_size);
/* Answers a connection that cannot be served: the first request in `initial` (if any) fails with
 * `why`, an output and a terminated event follow, and fd is closed. */
void glr_dap_refuse_fd(int fd, const char *initial, size_t initial_len, const char *why);

#endif
