/* Decoding a command stream (the COMMAND_STREAM section of a .glcap, written by the shim's
 * recorder) into struct glr_call records. Every length and value is validated against the
 * section's bounds: a corrupt stream is reported with the record index, never read past. */
#ifndef GLR_CALL_CODEC_H
#define GLR_CALL_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include "glr_call.h"

struct glr_stream {
    const uint8_t *base, *p, *end;
    uint64_t index;      /* records decoded so far */
    bool bad;
    char err[192];
};

void glr_stream_init(struct glr_stream *s, const void *data, size_t size);

/* 1: *c holds the next record (its blobs point into the stream data); 0: end of stream;
 * -1: corrupt (s->err says what and where). Pseudo records (enum glr_pseudo_cmd) put their
 * numbers in c->args[] and client data in c->blobs[0]. */
int glr_stream_next(struct glr_stream *s, struct glr_call *c);

/* Appends call c (a GL command, not a pseudo record) to a growing buffer in the stream's record
 * encoding, so glr_stream_next reads it back (blobs of pointer parameters included; the return
 * value when GLR_CALL_HAS_RET is set and the command returns one). *buf is realloc'd (free it);
 * false when memory ran out or c is not a GL command. */
bool glr_call_encode(const struct glr_call *c, uint8_t **buf, size_t *size, size_t *cap);

/* Human name of a command or pseudo command ("glDrawArrays", "<swap>"). */
const char *glr_call_name(uint32_t cmd);

/* Number of uvar fields a pseudo record's body carries (before its optional blob). */
int glr_pseudo_fields(uint32_t cmd, bool *has_blob);

#endif
