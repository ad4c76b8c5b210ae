/* Hand-off of Debug Adapter Protocol connections from the program-side line server (ui_ipc.h).
 * A connection whose first bytes are "Content-Length:" is a DAP session: once its first message is
 * complete (header and body; or 4 KiB read, or a header block without a usable length) the server
 * stops reading it and passes the descriptor to a handler; every other connection keeps the line
 * protocol. */
#ifndef GLR_SOCKET_SERVER_DAP_H
#define GLR_SOCKET_SERVER_DAP_H

#include <stddef.h>
#include "shim/server/socket_server.h"

/* Called on the server thread with the connection's fd (the handler owns it from now on) and the
 * bytes already read from it (its first message, whole unless it exceeds 4 KiB). Must not block:
 * start a thread for the session. */
typedef void (*glr_ipc_dap_handler)(void *user, int fd, const char *initial, size_t len);

/* glr_ipc_server_start, with DAP connections handed to `dap`. */
struct glr_ipc_server *glr_ipc_server_start_dap(const char *path, glr_ipc_handler handler, glr_ipc_dap_handler dap,
                                                void *user, char *err, size_t err_size);

#endif
