/* DAP wire format: "Content-Length: N\r\n\r\n" + N bytes of JSON. Incremental, bounded parsing:
 * a message larger than the cap, a malformed header or invalid JSON is reported, never read past
 * the buffer. */
#ifndef GLR_DAP_WIRE_H
#define GLR_DAP_WIRE_H

#include <stddef.h>
#include <cjson/cJSON.h>

#define DAP_MAX_MESSAGE (4u << 20)   /* body cap */
#define DAP_MAX_HEADER 1024          /* header block cap */

enum dap_wire_status {
    DAP_WIRE_NEED_MORE,   /* incomplete: read more bytes */
    DAP_WIRE_MESSAGE,     /* *msg parsed, *used bytes consumed */
    DAP_WIRE_BAD_JSON,    /* a complete frame whose body is not a JSON object: *used consumed */
    DAP_WIRE_FATAL,       /* framing broken (bad header, too large): close the connection */
};

/* Looks at the start of buf. err receives a one-line reason for BAD_JSON / FATAL. */
enum dap_wire_status dap_wire_parse(const char *buf, size_t len, size_t max_body, cJSON **msg, size_t *used,
                                    char *err, size_t err_size);

/* Frames a message: malloc'd "Content-Length..." + JSON, its length in *len. NULL on OOM. */
char *dap_wire_frame(const cJSON *msg, size_t *len);

#endif
