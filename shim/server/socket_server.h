/* The socket server a program under glreplay listens on (shim/server, linked into the shim; the CLI
 * serves `glreplay dap` on it too). Public header of the folder.
 *
 * A connection speaks either a minimal line protocol (one request line, one reply line: capture
 * requests, status) or, when its first bytes are "Content-Length:", the Debug Adapter Protocol
 * (served by ui_ipc/dap on a thread of its own; see socket_server_dap.h). */
#ifndef GLR_SOCKET_SERVER_H
#define GLR_SOCKET_SERVER_H

#include <stddef.h>

/* Handles one request line (without its newline) on a worker thread of its own (one request at a
 * time per connection; several connections' requests may run at once); writes a one-line reply
 * (without newline) into reply. May block (e.g. until a capture is written): neither the server
 * thread nor the program's threads wait for it. */
typedef void (*glr_ipc_handler)(void *user, const char *request, char *reply, size_t reply_size);

struct glr_ipc_server;

/* Creates the socket at `path` (its directory is created 0700 if missing; the socket is 0600;
 * a stale socket file of a dead process is replaced) and serves it from a background thread.
 * Peers of another uid are refused (SO_PEERCRED). At most 16 connections: one idle for
 * GLREPLAY_IPC_IDLE_S seconds (default 30) is closed, and the longest-idle one makes room for a
 * new connection when all are taken. NULL on error, with the reason in err. */
struct glr_ipc_server *glr_ipc_server_start(const char *path, glr_ipc_handler handler, void *user, char *err,
                                            size_t err_size);
/* Stops the thread, closes every connection and removes the socket file. */
void glr_ipc_server_stop(struct glr_ipc_server *s);

/* The default socket path of process `pid`: $XDG_RUNTIME_DIR/glreplay/<pid>.sock, or
 * /tmp/glreplay-<uid>/<pid>.sock when XDG_RUNTIME_DIR is unset. 0 on success. */
int glr_ipc_default_path(char *buf, size_t size, int pid);

/* Longest request line accepted; a longer one gets an error reply and the connection is closed. */
#define GLR_IPC_MAX_LINE 4096

#endif
