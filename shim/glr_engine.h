/* The one interface between the preloaded shim (libglreplay.so, C only: interception, tracking,
 * capture, the socket line server, the in-process replay loop) and the debugger engine
 * (libglreplay-engine.so: the DAP server over a capture, the GPU model, glslang, cJSON, libpng).
 * The shim never links the engine: it loads it with dlopen(RTLD_LOCAL | RTLD_NOW) the first time a
 * debugger attaches (shim/engine_load.c), so a program that is never debugged pays nothing for it.
 * The engine exports one symbol, GLR_ENGINE_ENTRY, a function returning the table below. A change
 * of any signature here bumps GLR_ENGINE_ABI: a shim refuses an engine of another ABI. */
#ifndef GLR_ENGINE_H
#define GLR_ENGINE_H

#include <stddef.h>

#define GLR_ENGINE_ABI 2
#define GLR_ENGINE_ENTRY "glr_engine_entry"
/* The engine's file name; the shim looks for it in its own directory (GLREPLAY_ENGINE overrides). */
#define GLR_ENGINE_FILE "libglreplay-engine.so"

/* Bounds on what a silent client may hold the paused program for (0: none). */
struct glr_engine_live_limits {
    unsigned handshake_timeout_ms;
    unsigned idle_timeout_ms;
    unsigned write_timeout_ms;
    /* Set to 1 (atomically) when the session starts its first pass of the GPU model: the client
     * then waits for a stop, the moment the paused program's first replayed pass costs least
     * (shim/ipc.c, live_keep_going). NULL: not wanted. */
    int *model_pass_started;
};

struct glr_engine {
    unsigned abi;   /* GLR_ENGINE_ABI of the engine */
    /* The command of the first complete DAP request in `initial` into cmd ("" if none). */
    void (*first_command)(const char *initial, size_t initial_len, char *cmd, size_t cmd_size);
    /* Fails the first request in `initial` (if any) with `why`, sends an output and a terminated
     * event, closes fd. */
    void (*refuse_fd)(int fd, const char *initial, size_t initial_len, const char *why);
    /* Serves the one accepted DAP connection fd (owned: closed at the end) over the capture file
     * at capture_path, on the calling thread, until the client leaves. 0, or -1 with a reason. */
    int (*serve_capture_fd)(int fd, const char *initial, size_t initial_len, const char *capture_path,
                            const struct glr_engine_live_limits *limits, char *err, size_t err_size);
};

typedef const struct glr_engine *(*glr_engine_entry_fn)(void);

#endif
