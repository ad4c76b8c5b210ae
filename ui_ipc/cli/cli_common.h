/* Shared helpers of the glreplay CLI verbs. */
#ifndef GLR_CLI_COMMON_H
#define GLR_CLI_COMMON_H

#include <stdbool.h>

/* Prints "glreplay: <message>" on stderr (one line). */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Absolute path of libglreplay.so: $GLREPLAY_SHIM, next to the build tree, or the install dir.
 * Returns NULL (after printing why) when none exists. */
const char *cli_find_shim(void);

/* The default socket path for a process: $XDG_RUNTIME_DIR/glreplay/<pid>.sock, or a per-uid
 * directory under /tmp when XDG_RUNTIME_DIR is unset. Writes into buf; false if it does not fit. */
bool cli_default_socket_path(char *buf, unsigned long size, int pid);

int cli_run(int argc, char **argv);
/* The same start, as a child this process waits for (signals forwarded); its exit status, or
 * 128+signal. For verbs that must act when the program has ended (capture). */
int cli_run_supervised(int argc, char **argv);

#endif
