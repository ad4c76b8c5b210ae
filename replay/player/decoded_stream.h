/* The command stream decoded once for every --loop pass (issue 17 §4): records in a compact
 * binary form (header, the argument slots a record uses, the blobs it has), so a pass after the
 * first copies fields instead of decoding varints. Bounded: a stream whose decoded form would pass
 * the budget is decoded per pass as before. */
#ifndef GLRH_DECODED_STREAM_H
#define GLRH_DECODED_STREAM_H

#include <stddef.h>
#include <stdint.h>
#include "registry/glr_call.h"

struct glrh_decoded;

/* The decoded form's memory limit: ~64 bytes for a call of 3 arguments, so ~8 M such calls. */
#define GLRH_DECODED_BUDGET ((size_t)512 << 20)

/* Decodes the whole stream; NULL when it does not fit in budget bytes, is malformed (the pass then
 * reports the error as before) or memory runs out. */
struct glrh_decoded *glrh_decoded_build(const void *stream, size_t size, size_t budget);
void glrh_decoded_free(struct glrh_decoded *d);
size_t glrh_decoded_bytes(const struct glrh_decoded *d);

/* Iteration: a cursor over the records; next fills *c (1), or returns 0 at the end. *c must be the
 * same struct across calls (only the slots the previous record used are cleared). */
struct glrh_decoded_cursor {
    const uint8_t *p, *end;
    int used;          /* argument slots the previous record filled */
    uint32_t blobs;    /* blob slots the previous record filled (the caller never writes the call) */
};
void glrh_decoded_begin(const struct glrh_decoded *d, struct glrh_decoded_cursor *k, struct glr_call *c);
int glrh_decoded_next(struct glrh_decoded_cursor *k, struct glr_call *c);

#endif
