/* Loading the debugger engine (shim/glr_engine.h) on demand, and refusing a debugger without it. */
#ifndef GLR_SHIM_ENGINE_LOAD_H
#define GLR_SHIM_ENGINE_LOAD_H

#include <stddef.h>
#include "shim/glr_engine.h"

/* The engine, loaded on the first call (GLREPLAY_ENGINE, else libglreplay-engine.so in the shim's
 * own directory); later calls return the same table. NULL with a one-line reason when it cannot be
 * loaded (the next call tries again). Thread-safe. */
const struct glr_engine *glr_engine_get(char *err, size_t err_size);
/* The engine if a previous glr_engine_get loaded it, else NULL; never loads it. */
const struct glr_engine *glr_engine_loaded(void);
/* Refuses a DAP connection with `why`: through the engine when it is loaded (the first request
 * fails with why), else with an output event carrying why and a terminated event, written here
 * without a JSON library. Closes fd. */
void glr_engine_refuse_fd(int fd, const char *initial, size_t initial_len, const char *why);

#endif
