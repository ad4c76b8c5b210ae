/* What a session sends (dap_session.h: dap_respond, dap_event, dap_output): messages framed and
 * numbered on the session's connection. A leaf of the DAP layer: every request handler answers
 * through it, and it calls only the wire framing, so the handlers and the session's dispatcher do
 * not call each other in a circle through their replies. */
#include <stdlib.h>
#include "ui_ipc/dap/dap_session_internal.h"
#include "ui_ipc/dap/dap_wire.h"

static void send_msg(struct dap_session *s, cJSON *msg)
{
    if (s->closing) {
        cJSON_Delete(msg);
        return;
    }
    cJSON_AddNumberToObject(msg, "seq", ++s->seq);
    size_t len;
    char *data = dap_wire_frame(msg, &len);
    cJSON_Delete(msg);
    if (data) {
        s->host.send(s->conn, data, len);
        free(data);
    }
}

void dap_respond(struct dap_session *s, const cJSON *req, bool ok, cJSON *body, const char *message)
{
    cJSON *r = cJSON_CreateObject();
    cJSON_AddStringToObject(r, "type", "response");
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(req, "seq");
    const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(req, "command");
    cJSON_AddNumberToObject(r, "request_seq", cJSON_IsNumber(seq) ? seq->valuedouble : 0);
    cJSON_AddBoolToObject(r, "success", ok);
    cJSON_AddStringToObject(r, "command", cJSON_IsString(cmd) ? cmd->valuestring : "unknown");
    if (!ok) {
        cJSON_AddStringToObject(r, "message", message ? message : "failed");
        if (!body) {
            body = cJSON_CreateObject();
            cJSON *e = cJSON_AddObjectToObject(body, "error");
            cJSON_AddNumberToObject(e, "id", 1);
            cJSON_AddStringToObject(e, "format", message ? message : "failed");
            cJSON_AddBoolToObject(e, "showUser", false);
        }
    }
    if (body)
        cJSON_AddItemToObject(r, "body", body);
    send_msg(s, r);
}

void dap_event(struct dap_session *s, const char *name, cJSON *body)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "type", "event");
    cJSON_AddStringToObject(e, "event", name);
    if (body)
        cJSON_AddItemToObject(e, "body", body);
    send_msg(s, e);
}

void dap_output(struct dap_session *s, const char *category, const char *text)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "category", category);
    cJSON_AddStringToObject(b, "output", text);
    dap_event(s, "output", b);
}
