/* glcap_packed.h: the packed form of a command-stream record sequence (section compression 2,
 * GLCAP_COMPRESSION_ZSTD_PACKED, since format 1.1).
 *
 * The 1.0 record is `u32 body_size | uvar cmd | uvar seq | uvar ctx_id | uvar thread_id | fields`.
 * In a capture nearly every record's seq is the previous record's plus one and its context and
 * thread are the previous record's, so those ~6 bytes of a ~19-byte record only disturb zstd's
 * matches (the seq differs in every record) and cost it time. The packed form drops what the
 * previous record predicts and writes the size as a varint; unpacking gives back the 1.0 bytes
 * exactly, so every consumer of a loaded COMMAND_STREAM is unchanged. Layout:
 * docs/GLCAP_FORMAT.md ("Packed command stream").
 *
 * Both directions keep the same small state (what the previous record's header said), so a
 * stream packed in pieces (blocks while the capture records, then the merged rest) unpacks in
 * one pass. The unpacker treats its input as untrusted: every length is checked, errors are
 * one-line messages.
 */
#ifndef GLCAP_PACKED_H
#define GLCAP_PACKED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the previous record's header said (seq, context, thread); the packer also keeps the
 * context and thread as their varint bytes (ct_len 0: not known). */
typedef struct glcap_pack_state {
    uint64_t seq, ctx, tid;
    uint64_t ct_bytes;
    unsigned ct_len;
    /* The header bytes after cmd that the next record has when it is predicted in full: seq + 1
     * then ct_bytes (exp_len 0: not known, or longer than 8 bytes). */
    uint64_t exp, exp_mask;
    unsigned exp_len;
} glcap_pack_state;

void glcap_pack_init(glcap_pack_state *st);

/* Most bytes a packed record header takes (the tag and up to three varints). */
#define GLCAP_PACK_HDR_MAX 40

/* Packs the 1.0 record whose body (after the u32 size) is body[0..body_size): writes its packed
 * header to hdr and returns the header's length; the packed record is that header followed by
 * body[*fields_off .. body_size). Advances the state. */
size_t glcap_pack_record(glcap_pack_state *st, const uint8_t *body, uint32_t body_size, uint8_t *hdr,
                         size_t *fields_off);

/* Packs whole 1.0 records from in[0..size) into out[0..out_cap) until the next one does not fit
 * or the input ends: returns the input bytes consumed, *out_len the bytes written, *records += the
 * records packed. Stops early (consumed < size) also before a record whose u32 size runs past the
 * input; a caller with whole records sees that only when a record alone is larger than out_cap
 * (then glcap_pack_record packs it piecewise). */
size_t glcap_pack_block(glcap_pack_state *st, const uint8_t *in, size_t size, uint8_t *out, size_t out_cap,
                        size_t *out_len, uint64_t *records);

/* One packed record as read back (glcap_packed_next). Modes 1-3: the header is cmd, seq, ctx, tid
 * and the record's field bytes are data[0..n). Mode 0: data[0..n) is the 1.0 body verbatim; its
 * header fields are set when its first four varints decode (has_head). */
typedef struct glcap_packed_rec {
    unsigned mode;
    int has_head;
    uint64_t cmd, seq, ctx, tid;
    const uint8_t *data;
    uint64_t n;
    uint64_t body;      /* the 1.0 body size (after the u32 size) */
} glcap_packed_rec;

/* Reads the packed record at p[0..end) with the state st (advanced past it): returns its packed
 * length, or 0 with a one-line message in err (naming record `index` at byte `at`) when it is cut
 * off or its 1.0 body would exceed 4 GiB. The state is also left as glcap_pack_record expects, so
 * a packer can go on from records read here (the shim's recorder writes packed records; the
 * writer reads them to count them and to take over the state). */
size_t glcap_packed_next(glcap_pack_state *st, const uint8_t *p, const uint8_t *end, glcap_packed_rec *r,
                         uint64_t index, size_t at, char *err, size_t err_size);

/* Reads whole packed records in[0..size) with the state st (advanced past them): *records += how
 * many, *unpacked += the bytes of their 1.0 form. 0, or -1 with a one-line message in err when one
 * is cut off (as glcap_packed_next). The usual record (a one-byte tag, seq, context and thread
 * predicted, cmd under 2^14) is read in a few instructions. */
int glcap_packed_scan(glcap_pack_state *st, const uint8_t *in, size_t size, uint64_t *records, uint64_t *unpacked,
                      char *err, size_t err_size);

/* Sets the state to what a record with this header leaves (as glcap_pack_record does). */
void glcap_pack_set(glcap_pack_state *st, uint64_t seq, uint64_t ctx, uint64_t tid);

/* The size of the 1.0 stream that packed[0..size) unpacks to; -1 with a one-line message in err
 * when the packed stream is malformed (cut inside a record, a record too large for a u32 body). */
int glcap_unpacked_size(const uint8_t *packed, size_t size, uint64_t *unpacked, char *err, size_t err_size);

/* Unpacks packed[0..size) into out, which has exactly the glcap_unpacked_size() bytes. */
int glcap_unpack(const uint8_t *packed, size_t size, uint8_t *out, uint64_t out_size, char *err,
                 size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* GLCAP_PACKED_H */
