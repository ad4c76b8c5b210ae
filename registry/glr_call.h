/* One recorded API call, decoded: the unit the recorder writes, the state model applies and the
 * replayer re-issues. The binary encoding in the command stream is in glr_call_codec.h. */
#ifndef GLR_CALL_H
#define GLR_CALL_H

#include <stdint.h>
#include <string.h>
#include "glr_registry.h"

/* Client memory a pointer parameter referenced (input data it read, or output it wrote).
 * size 0 with data NULL: the pointer was NULL or referenced nothing the recorder could size. */
struct glr_blob {
    const void *data;
    uint64_t size;
};

struct glr_call {
    uint32_t cmd;        /* enum glr_cmd_id */
    uint32_t ctx_id;     /* the shim's id of the context current on the calling thread; 0 = none */
    uint32_t thread_id;  /* the shim's index of the calling thread (0 = first thread seen) */
    uint32_t flags;      /* GLR_CALL_* */
    uint64_t seq;        /* position in the whole capture, across threads */
    /* Parameter values, one slot each, by glr_cmd_params(&glr_cmds[cmd])[i].kind:
     * I32/I64 sign-extended, U32/U64 zero-extended, F32 as its bit pattern in the low 32 bits,
     * F64 as its bit pattern, PTR as the pointer's value (an address in the captured process:
     * meaningful for handles and for buffer offsets passed as pointers; client data is in blobs). */
    uint64_t args[GLR_MAX_PARAMS];
    uint64_t ret;        /* return value, encoded like the parameters by ret_kind */
    struct glr_blob blobs[GLR_MAX_PARAMS];
};

enum {
    GLR_CALL_HAS_RET = 1u << 0,
};

/* Records in a command stream that are not registry commands: events the shim observed.
 * Their bodies (after cmd, seq, ctx_id, thread_id) are documented in docs/GLCAP_FORMAT.md. */
enum glr_pseudo_cmd {
    GLR_PSEUDO_CONTEXT_CREATE = GLR_CMD_COUNT, /* uvar new ctx id, uvar share group, uvar api */
    GLR_PSEUDO_MAKE_CURRENT,                   /* header ctx_id becomes current; uvar width, height of
                                                * its draw surface (0, 0 if none or unknown) */
    GLR_PSEUDO_SWAP,                           /* uvar frame index that this swap ends */
    GLR_PSEUDO_CLIENT_ARRAY,                   /* client-memory vertex array data for the next draw */
    GLR_PSEUDO_BUFFER_MAPPED,                  /* a mapping that existed when the capture started: uvar
                                                * captured map pointer, buffer name, offset, length,
                                                * access bits (GL_MAP_*) */
    GLR_PSEUDO_BUFFER_DATA,                    /* bytes written through a buffer mapping: uvar captured map
                                                * pointer, offset in the map, map length, buffer name,
                                                * offset in the buffer; blob: the bytes */
    GLR_PSEUDO_MAP_READ,                       /* what a read mapping held when the program got it (right
                                                * after its map call): uvar captured map pointer, buffer
                                                * name, offset in the buffer, map length; blob: a
                                                * read-back description (registry/glr_readback.h) */
    GLR_PSEUDO_END
};

/* GLR_PSEUDO_CLIENT_ARRAY attribute index of a legacy (fixed-function) client array: this base plus
 * its enum sm_legacy_slot (vertex, normal, color, secondary color, fog coord, edge flag, index,
 * then texture coordinates of client texture unit 0, 1, ...). Generic attributes are below it. */
#define GLR_CLIENT_ARRAY_LEGACY_BASE 128u

static inline float glr_arg_f32(const struct glr_call *c, int i)
{
    uint32_t b = (uint32_t)c->args[i];
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline double glr_arg_f64(const struct glr_call *c, int i)
{
    double d;
    memcpy(&d, &c->args[i], sizeof d);
    return d;
}

static inline int32_t glr_arg_i32(const struct glr_call *c, int i) { return (int32_t)c->args[i]; }
static inline uint32_t glr_arg_u32(const struct glr_call *c, int i) { return (uint32_t)c->args[i]; }

#endif
