/* Live attach helpers: serve one connection over a capture file (the shim captures the program's
 * next frame, then hands the connection here), or refuse it with a DAP-shaped reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "ui_ipc/dap/dap.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner.h"
#include "ui_ipc/dap/dap_wire.h"

int glr_dap_serve_capture_fd(int fd, const char *initial, size_t initial_len, const char *capture_path,
                             const struct glr_dap_options *opt, char *err, size_t err_size)
{
    struct dbg_capture *cap = dbg_capture_open(capture_path, err, err_size);
    if (!cap) {
        glr_dap_refuse_fd(fd, initial, initial_len, err);
        return -1;
    }
    struct dbg_runner *runner = dbg_runner_create(cap, err, err_size);
    if (!runner) {
        glr_dap_refuse_fd(fd, initial, initial_len, err);
        dbg_capture_close(cap);
        return -1;
    }
    struct glr_dap_options o = { 0 };
    if (opt)
        o = *opt;
    o.in_process = true;   /* inside the program: no driver replay here */
    int rc = glr_dap_serve_fd(fd, initial, initial_len, cap, runner, &o, err, err_size);
    dbg_runner_destroy(runner);
    dbg_capture_close(cap);
    return rc;
}

void glr_dap_first_command(const char *initial, size_t initial_len, char *cmd, size_t cmd_size)
{
    cJSON *req = NULL;
    size_t used;
    char err[200];
    if (cmd_size)
        cmd[0] = 0;
    if (initial_len &&
        dap_wire_parse(initial, initial_len, DAP_MAX_MESSAGE, &req, &used, err, sizeof err) == DAP_WIRE_MESSAGE) {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(req, "type");
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(req, "command");
        if (cJSON_IsString(type) && !strcmp(type->valuestring, "request") && cJSON_IsString(c))
            snprintf(cmd, cmd_size, "%s", c->valuestring);
    }
    cJSON_Delete(req);
}

static void send_msg(int fd, cJSON *m)
{
    size_t len;
    char *framed = dap_wire_frame(m, &len);
    if (framed) {
        /* Best effort and never blocking: the client may be gone already. */
        ssize_t w = send(fd, framed, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        (void)w;
    }
    free(framed);
    cJSON_Delete(m);
}

void glr_dap_refuse_fd(int fd, const char *initial, size_t initial_len, const char *why)
{
    int seq = 1;
    cJSON *req = NULL;
    size_t used;
    char err[200];
    if (initial_len &&
        dap_wire_parse(initial, initial_len, DAP_MAX_MESSAGE, &req, &used, err, sizeof err) == DAP_WIRE_MESSAGE) {
        const cJSON *rs = cJSON_GetObjectItemCaseSensitive(req, "seq");
        const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(req, "command");
        if (cJSON_IsNumber(rs) && cJSON_IsString(cmd)) {
            cJSON *r = cJSON_CreateObject();
            cJSON_AddNumberToObject(r, "seq", seq++);
            cJSON_AddStringToObject(r, "type", "response");
            cJSON_AddNumberToObject(r, "request_seq", rs->valuedouble);
            cJSON_AddBoolToObject(r, "success", 0);
            cJSON_AddStringToObject(r, "command", cmd->valuestring);
            cJSON_AddStringToObject(r, "message", why);
            send_msg(fd, r);
        }
    }
    cJSON_Delete(req);
    char text[600];
    snprintf(text, sizeof text, "glreplay: %s\n", why);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "seq", seq++);
    cJSON_AddStringToObject(o, "type", "event");
    cJSON_AddStringToObject(o, "event", "output");
    cJSON *b = cJSON_AddObjectToObject(o, "body");
    cJSON_AddStringToObject(b, "category", "stderr");
    cJSON_AddStringToObject(b, "output", text);
    send_msg(fd, o);
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "seq", seq++);
    cJSON_AddStringToObject(t, "type", "event");
    cJSON_AddStringToObject(t, "event", "terminated");
    send_msg(fd, t);
    close(fd);
}
