/* The entry point of libglreplay-engine.so (shim/glr_engine.h): the live-attach half of the DAP
 * server, handed to the preloaded shim as a table. The only symbol the engine exports. */
#include "shim/glr_engine.h"
#include "ui_ipc/dap/dap.h"

static int serve_capture_fd(int fd, const char *initial, size_t initial_len, const char *capture_path,
                            const struct glr_engine_live_limits *limits, char *err, size_t err_size)
{
    struct glr_dap_options opt = { 0 };
    if (limits) {
        opt.handshake_timeout_ms = limits->handshake_timeout_ms;
        opt.idle_timeout_ms = limits->idle_timeout_ms;
        opt.write_timeout_ms = limits->write_timeout_ms;
        opt.model_pass_started = limits->model_pass_started;
    }
    return glr_dap_serve_capture_fd(fd, initial, initial_len, capture_path, &opt, err, err_size);
}

static const struct glr_engine engine = {
    .abi = GLR_ENGINE_ABI,
    .first_command = glr_dap_first_command,
    .refuse_fd = glr_dap_refuse_fd,
    .serve_capture_fd = serve_capture_fd,
};

__attribute__((visibility("default"))) const struct glr_engine *glr_engine_entry(void);

const struct glr_engine *glr_engine_entry(void)
{
    return &engine;
}
