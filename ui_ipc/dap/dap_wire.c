/* DAP framing (see dap_wire.h). Header fields other than Content-Length are allowed and
 * ignored, as the protocol says; Content-Length must be present once, decimal, within the cap. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "ui_ipc/dap/dap_wire.h"

static const char *find_end(const char *buf, size_t len)
{
    for (size_t i = 0; i + 3 < len; i++)
        if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' && buf[i + 3] == '\n')
            return buf + i;
    return NULL;
}

enum dap_wire_status dap_wire_parse(const char *buf, size_t len, size_t max_body, cJSON **msg, size_t *used,
                                    char *err, size_t err_size)
{
    *msg = NULL;
    *used = 0;
    const char *end = find_end(buf, len < DAP_MAX_HEADER + 4 ? len : DAP_MAX_HEADER + 4);
    if (!end) {
        if (len >= DAP_MAX_HEADER + 4) {
            snprintf(err, err_size, "message header longer than %u bytes or not terminated by CRLF CRLF",
                     DAP_MAX_HEADER);
            return DAP_WIRE_FATAL;
        }
        /* Reject obvious garbage early instead of waiting for a header that never comes. */
        for (size_t i = 0; i < len; i++)
            if (buf[i] == 0 || (!isprint((unsigned char)buf[i]) && buf[i] != '\r' && buf[i] != '\n' && buf[i] != '\t')) {
                snprintf(err, err_size, "binary data where a message header was expected");
                return DAP_WIRE_FATAL;
            }
        return DAP_WIRE_NEED_MORE;
    }
    long long length = -1;
    const char *p = buf;
    while (p < end) {
        const char *eol = p;
        while (eol < end && !(eol[0] == '\r' && eol[1] == '\n'))
            eol++;
        const char *colon = memchr(p, ':', (size_t)(eol - p));
        if (!colon) {
            snprintf(err, err_size, "malformed message header line (no ':')");
            return DAP_WIRE_FATAL;
        }
        if ((size_t)(colon - p) == 14 && strncasecmp(p, "Content-Length", 14) == 0) {
            if (length >= 0) {
                snprintf(err, err_size, "duplicate Content-Length");
                return DAP_WIRE_FATAL;
            }
            const char *v = colon + 1;
            while (v < eol && (*v == ' ' || *v == '\t'))
                v++;
            if (v == eol) {
                snprintf(err, err_size, "empty Content-Length");
                return DAP_WIRE_FATAL;
            }
            length = 0;
            for (; v < eol && *v != ' ' && *v != '\t'; v++) {
                if (*v < '0' || *v > '9' || length > (long long)max_body) {
                    snprintf(err, err_size, *v < '0' || *v > '9' ? "Content-Length is not a decimal number"
                                                                 : "message larger than the limit");
                    return DAP_WIRE_FATAL;
                }
                length = length * 10 + (*v - '0');
            }
            for (; v < eol; v++)
                if (*v != ' ' && *v != '\t') {
                    snprintf(err, err_size, "Content-Length is not a decimal number");
                    return DAP_WIRE_FATAL;
                }
        }
        p = eol + 2;
    }
    if (length < 0) {
        snprintf(err, err_size, "message header without Content-Length");
        return DAP_WIRE_FATAL;
    }
    if ((size_t)length > max_body) {
        snprintf(err, err_size, "message of %lld bytes is larger than the limit of %zu bytes", length, max_body);
        return DAP_WIRE_FATAL;
    }
    size_t head = (size_t)(end - buf) + 4;
    if (len - head < (size_t)length)
        return DAP_WIRE_NEED_MORE;
    *used = head + (size_t)length;
    const char *parse_end = NULL;
    cJSON *j = cJSON_ParseWithLengthOpts(buf + head, (size_t)length, &parse_end, false);
    if (!j || !cJSON_IsObject(j)) {
        cJSON_Delete(j);
        snprintf(err, err_size, "message body is not a JSON object");
        return DAP_WIRE_BAD_JSON;
    }
    /* Trailing non-space bytes inside the frame make it malformed too. */
    for (const char *q = parse_end; q && q < buf + head + length; q++)
        if (!isspace((unsigned char)*q)) {
            cJSON_Delete(j);
            snprintf(err, err_size, "trailing data after the JSON body");
            return DAP_WIRE_BAD_JSON;
        }
    *msg = j;
    return DAP_WIRE_MESSAGE;
}

char *dap_wire_frame(const cJSON *msg, size_t *len)
{
    char *body = cJSON_PrintUnformatted(msg);
    if (!body)
        return NULL;
    size_t blen = strlen(body);
    char head[48];
    int hl = snprintf(head, sizeof head, "Content-Length: %zu\r\n\r\n", blen);
    char *out = malloc((size_t)hl + blen);
    if (out) {
        memcpy(out, head, (size_t)hl);
        memcpy(out + hl, body, blen);
        *len = (size_t)hl + blen;
    }
    free(body);
    return out;
}
