/* The packed command-stream form (glcap_packed.h; layout in docs/GLCAP_FORMAT.md).
 *
 * A packed record starts with `uvar tag`, tag = n << 2 | mode:
 *   mode 0: the 1.0 body verbatim, n bytes (anything the other modes cannot say);
 *   mode 1: seq is the previous record's + 1: uvar cmd | uvar ctx_id | uvar thread_id | n field bytes;
 *   mode 2: ctx_id and thread_id are the previous record's: uvar cmd | uvar seq | n field bytes;
 *   mode 3: both: uvar cmd | n field bytes.
 * "Previous" is the previous record of the section, of any mode; before the first record it is
 * seq 2^64-1 (so a first seq of 0 is predicted), ctx_id 0, thread_id 0. A mode 0 body whose first
 * four varints decode sets the state from them; otherwise the state stays.
 * The packer uses modes 1-3 only for headers in the shortest varint encoding (what the shim
 * writes), copying their bytes, so unpacking (which re-encodes them shortest) gives back the input
 * bytes exactly. */
#include "capture/glcap_packed.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

void glcap_pack_init(glcap_pack_state *st)
{
    st->seq = UINT64_MAX;
    st->ctx = 0;
    st->tid = 0;
    st->ct_bytes = 0;
    st->ct_len = 0;
    st->exp = st->exp_mask = 0;
    st->exp_len = 0;
}

/* A varint at p (not past end): its length, or 0 when cut off or longer than 64 bits. */
static inline unsigned uvar_get(const uint8_t *p, const uint8_t *end, uint64_t *v)
{
    uint64_t r = 0;
    size_t avail = (size_t)(end - p);
    for (unsigned i = 0; i < 10 && i < avail; i++) {
        uint8_t b = p[i];
        r |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            if (i == 9 && b > 1)
                return 0;
            *v = r;
            return i + 1;
        }
    }
    return 0;
}

static inline unsigned uvar_len(uint64_t v)
{
    unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);
    return (bits + 6) / 7;
}

static inline uint8_t *uvar_put(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

/* The bytes after cmd of a record that the state predicts in full (glcap_pack_state.exp). */
static void set_expect(glcap_pack_state *st)
{
    uint64_t v = st->seq + 1;
    unsigned L = uvar_len(v);
    st->exp_len = 0;
    if (!st->ct_len || L + st->ct_len > 8)
        return;
    uint8_t e[16] = {0};
    uvar_put(e, v);
    uint64_t w;
    memcpy(&w, e, 8);
    st->exp = w | st->ct_bytes << (8 * L);
    st->exp_len = L + st->ct_len;
    st->exp_mask = ~UINT64_C(0) >> (64 - 8 * st->exp_len);
}

/* The first four varints of a 1.0 body (cmd, seq, ctx_id, thread_id); false when they do not all
 * decode. len[] gets their lengths. */
static inline bool head_get(const uint8_t *body, const uint8_t *end, uint64_t v[4], unsigned len[4])
{
    const uint8_t *p = body;
    for (int i = 0; i < 4; i++) {
        len[i] = uvar_get(p, end, &v[i]);
        if (!len[i])
            return false;
        p += len[i];
    }
    return true;
}

size_t glcap_pack_record(glcap_pack_state *st, const uint8_t *body, uint32_t body_size, uint8_t *hdr,
                         size_t *fields_off)
{
    uint64_t v[4];
    unsigned len[4];
    if (head_get(body, body + body_size, v, len)) {
        bool shortest = len[0] == uvar_len(v[0]) && len[1] == uvar_len(v[1]) && len[2] == uvar_len(v[2]) &&
                        len[3] == uvar_len(v[3]);
        bool next = v[1] == st->seq + 1, same = v[2] == st->ctx && v[3] == st->tid;
        st->seq = v[1];
        st->ctx = v[2];
        st->tid = v[3];
        st->ct_len = 0;
        st->exp_len = 0;
        if (shortest && (next || same)) {
            size_t head = (size_t)len[0] + len[1] + len[2] + len[3];
            uint64_t n = body_size - head;
            unsigned mode = (next ? 1u : 0u) | (same ? 2u : 0u);
            uint8_t *q = uvar_put(hdr, n << 2 | mode);
            memcpy(q, body, len[0]);                      /* cmd */
            q += len[0];
            if (!next) {
                memcpy(q, body + len[0], len[1]);         /* seq */
                q += len[1];
            }
            if (!same) {
                memcpy(q, body + len[0] + len[1], (size_t)len[2] + len[3]);   /* ctx_id, thread_id */
                q += len[2] + len[3];
            }
            *fields_off = head;
            return (size_t)(q - hdr);
        }
    }
    *fields_off = 0;
    return (size_t)(uvar_put(hdr, (uint64_t)body_size << 2) - hdr);
}

/* The low 7 bits of each of the first L bytes of y (L = 1..8), as one value: a varint of at most
 * 8 bytes decoded without a loop. */
static inline uint64_t uvar_compact(uint64_t y, unsigned L)
{
    y &= ~UINT64_C(0) >> (64 - 8 * L);
    return (y & 0x7f) | ((y >> 1) & (UINT64_C(0x7f) << 7)) | ((y >> 2) & (UINT64_C(0x7f) << 14)) |
           ((y >> 3) & (UINT64_C(0x7f) << 21)) | ((y >> 4) & (UINT64_C(0x7f) << 28)) |
           ((y >> 5) & (UINT64_C(0x7f) << 35)) | ((y >> 6) & (UINT64_C(0x7f) << 42)) |
           ((y >> 7) & (UINT64_C(0x7f) << 49));
}

/* Mode 3 (seq, context and thread all predicted), recognised by comparing the header bytes after
 * cmd with the expected ones: most records of a capture. 0 when the record is anything else. */
static inline size_t pack_next(glcap_pack_state *st, const uint8_t *b, uint32_t body, const uint8_t *in_end,
                               uint8_t *o)
{
    if ((size_t)(in_end - b) < 32)
        return 0;
    uint64_t x;
    memcpy(&x, b, 8);
    uint64_t m1 = ~x & UINT64_C(0x8080808080808080);
    if (!m1)
        return 0;
    unsigned lc = ((unsigned)__builtin_ctzll(m1) >> 3) + 1;
    unsigned head = lc + st->exp_len;
    if (head > 8 || head > body || ((x >> (8 * lc)) & st->exp_mask) != st->exp || (lc > 1 && !b[lc - 1]))
        return 0;
    st->seq++;
    if ((st->exp & 0x7f) != 0x7f)
        st->exp++;                        /* the next seq's low byte, without a carry */
    else
        set_expect(st);
    uint64_t n = body - head;
    uint64_t tag = n << 2 | 3;
    uint8_t *q = tag < 0x80 ? (*o = (uint8_t)tag, o + 1) : uvar_put(o, tag);
    memcpy(q, &x, 8);                     /* cmd */
    q += lc;
    const uint8_t *f = b + head;
    if (n <= 32 && (size_t)(in_end - f) >= 32) {
        memcpy(q, f, 16);
        memcpy(q + 16, f + 16, 16);
    } else {
        memcpy(q, f, n);
    }
    return (size_t)(q - o) + n;
}

/* The usual record, packed from one 8-byte load of its header: four shortest varints within its
 * first 8 bytes, seq or context and thread predicted. Returns the packed length, or 0 when the
 * record is anything else (glcap_pack_record then packs it). `in_end` bounds the loads; `o` has
 * room for body + 5 + 32 bytes (the stores below write whole 8- and 16-byte words). Every record
 * of a capture goes through here, so it is written for few instructions: the context and thread
 * are compared as bytes with the previous record's, and only seq is decoded. */
static inline size_t pack_fast(glcap_pack_state *st, const uint8_t *b, uint32_t body, const uint8_t *in_end,
                               uint8_t *o)
{
    const uint64_t hi = UINT64_C(0x8080808080808080), lo = UINT64_C(0x7f7f7f7f7f7f7f7f);
    if ((size_t)(in_end - b) < 32)
        return 0;
    uint64_t x;
    memcpy(&x, b, 8);
    uint64_t m1 = ~x & hi;                 /* the last byte of each varint */
    uint64_t m2 = m1 & (m1 - 1), m3 = m2 & (m2 - 1), m4 = m3 & (m3 - 1);
    if (!m4)
        return 0;
    unsigned p1 = (unsigned)__builtin_ctzll(m1) >> 3, p2 = (unsigned)__builtin_ctzll(m2) >> 3;
    unsigned p3 = (unsigned)__builtin_ctzll(m3) >> 3, p4 = (unsigned)__builtin_ctzll(m4) >> 3;
    unsigned head = p4 + 1;
    if (head > body)
        return 0;
    /* Shortest encodings only: no 0x00 byte that ends a varint of more than one byte (one that
     * follows a byte with the continuation bit). */
    uint64_t zero = ~(((x & lo) + lo) | x | lo);
    if (zero & (x << 8) & (~UINT64_C(0) >> (64 - 8 * head)))
        return 0;
    unsigned lc = p1 + 1, ls = p2 - p1, lct = p4 - p2;
    uint64_t y = x >> (8 * lc);
    uint64_t seq;
    if (ls <= 4) {
        y &= ~UINT64_C(0) >> (64 - 8 * ls);
        seq = (y & 0x7f) | ((y >> 1) & 0x3f80) | ((y >> 2) & 0x1fc000) | ((y >> 3) & 0xfe00000);
    } else {
        seq = uvar_compact(y, ls);
    }
    uint64_t ct = (x >> (8 * (p2 + 1))) & (~UINT64_C(0) >> (64 - 8 * lct));   /* p2 + 1 <= 6 */
    bool next = seq == st->seq + 1, same;
    if (ct == st->ct_bytes && lct == st->ct_len) {
        same = true;
    } else {
        uint64_t ctx = uvar_compact(ct, p3 - p2), tid = uvar_compact(ct >> (8 * (p3 - p2)), p4 - p3);
        same = ctx == st->ctx && tid == st->tid;
        st->ctx = ctx;
        st->tid = tid;
        st->ct_bytes = ct;
        st->ct_len = lct;
    }
    st->seq = seq;
    set_expect(st);
    if (!(next | same)) {             /* mode 0, the state already taken from its header */
        uint8_t *q = uvar_put(o, (uint64_t)body << 2);
        memcpy(q, b, body);
        return (size_t)(q - o) + body;
    }
    uint64_t n = body - head;
    uint64_t tag = n << 2 | (next ? 1u : 0u) | (same ? 2u : 0u);
    uint8_t *q = tag < 0x80 ? (*o = (uint8_t)tag, o + 1) : uvar_put(o, tag);
    memcpy(q, &x, 8);                      /* cmd (and seq after it) */
    q += next ? lc : lc + ls;
    if (!same) {
        memcpy(q, &ct, 8);                 /* ctx_id, thread_id */
        q += lct;
    }
    const uint8_t *f = b + head;
    if (n <= 32 && (size_t)(in_end - f) >= 32) {
        memcpy(q, f, 16);                  /* fixed-size copies: no call for a few field bytes */
        memcpy(q + 16, f + 16, 16);
    } else {
        memcpy(q, f, n);
    }
    return (size_t)(q - o) + n;
}

size_t glcap_pack_block(glcap_pack_state *st, const uint8_t *in, size_t size, uint8_t *out, size_t out_cap,
                        size_t *out_len, uint64_t *records)
{
    size_t off = 0, o = 0;
    uint64_t count = 0;
    const uint8_t *in_end = in + size;
    while (size - off >= 4) {
        uint32_t body;
        memcpy(&body, in + off, 4);
        if (body > size - off - 4)
            break;
        /* A packed record is never longer than the 1.0 one plus one byte (its tag has at most 5
         * bytes where the size had 4), and the fast path stores up to 32 bytes past its end:
         * checking that room first keeps the state untouched when the record does not fit. */
        if ((size_t)body + 5 + 32 > out_cap - o || out_cap < o)
            break;
        const uint8_t *b = in + off + 4;
        size_t k = st->exp_len ? pack_next(st, b, body, in_end, out + o) : 0;
        if (!k)
            k = pack_fast(st, b, body, in_end, out + o);
        if (!k) {
            size_t fields;
            size_t h = glcap_pack_record(st, b, body, out + o, &fields);
            memcpy(out + o + h, b + fields, body - fields);
            k = h + (body - fields);
        }
        o += k;
        off += 4 + (size_t)body;
        count++;
    }
    *out_len = o;
    *records += count;
    return off;
}

static int perr(char *err, size_t err_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int perr(char *err, size_t err_size, const char *fmt, ...)
{
    if (err_size) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, err_size, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void glcap_pack_set(glcap_pack_state *st, uint64_t seq, uint64_t ctx, uint64_t tid)
{
    st->seq = seq;
    st->ctx = ctx;
    st->tid = tid;
    st->ct_len = 0;
    st->exp_len = 0;
}

size_t glcap_packed_next(glcap_pack_state *st, const uint8_t *p, const uint8_t *end, glcap_packed_rec *r,
                         uint64_t index, size_t at, char *err, size_t err_size)
{
    const uint8_t *start = p;
    uint64_t tag;
    unsigned k = uvar_get(p, end, &tag);
    if (!k) {
        perr(err, err_size, "packed record %" PRIu64 " at byte %zu: tag cut off", index, at);
        return 0;
    }
    p += k;
    uint64_t n = tag >> 2;
    unsigned mode = (unsigned)(tag & 3);
    r->mode = mode;
    if (mode == 0) {
        if (n > (uint64_t)(end - p) || n > UINT32_MAX) {
            perr(err, err_size, "packed record %" PRIu64 " at byte %zu: a %" PRIu64
                 "-byte body runs past the stream's end", index, at, n);
            return 0;
        }
        uint64_t v[4];
        unsigned len[4];
        r->has_head = head_get(p, p + n, v, len);
        if (r->has_head) {
            glcap_pack_set(st, v[1], v[2], v[3]);
            r->cmd = v[0];
        }
        r->seq = st->seq;
        r->ctx = st->ctx;
        r->tid = st->tid;
        r->data = p;
        r->n = n;
        r->body = n;
        return (size_t)(p - start) + (size_t)n;
    }
    bool next = mode & 1, same = mode & 2;
    uint64_t cmd = 0, seq = 0, ctx = 0, tid = 0;
    unsigned kc = uvar_get(p, end, &cmd), ks = 0, kx = 0, ky = 0;
    if (kc && !next)
        ks = uvar_get(p + kc, end, &seq);
    if (kc && (next || ks) && !same) {
        kx = uvar_get(p + kc + ks, end, &ctx);
        ky = kx ? uvar_get(p + kc + ks + kx, end, &tid) : 0;
    }
    if (!kc || (!next && !ks) || (!same && (!kx || !ky))) {
        perr(err, err_size, "packed record %" PRIu64 " at byte %zu: header cut off", index, at);
        return 0;
    }
    p += kc + ks + kx + ky;
    seq = next ? st->seq + 1 : seq;
    if (same) {
        ctx = st->ctx;
        tid = st->tid;
    }
    if (n > (uint64_t)(end - p)) {
        perr(err, err_size, "packed record %" PRIu64 " at byte %zu: %" PRIu64
             " field bytes run past the stream's end", index, at, n);
        return 0;
    }
    uint64_t body = (uint64_t)uvar_len(cmd) + uvar_len(seq) + uvar_len(ctx) + uvar_len(tid) + n;
    if (body > UINT32_MAX) {
        perr(err, err_size, "packed record %" PRIu64 ": body of %" PRIu64 " bytes (over 4 GiB)", index,
             body);
        return 0;
    }
    if (same) {   /* the context and thread bytes stay known: a packer going on keeps its shortcut */
        st->seq = seq;
        st->exp_len = 0;
    } else {
        glcap_pack_set(st, seq, ctx, tid);
    }
    r->has_head = 1;
    r->cmd = cmd;
    r->seq = seq;
    r->ctx = ctx;
    r->tid = tid;
    r->data = p;
    r->n = n;
    r->body = body;
    return (size_t)(p - start) + (size_t)n;
}

/* The sum of uvar_len(s) for the k numbers s from a on: a few steps, one per varint length. */
static uint64_t uvar_len_sum(uint64_t a, uint64_t k)
{
    uint64_t sum = 0;
    while (k) {
        unsigned L = uvar_len(a);
        /* The first number one byte longer; none for the longest (10 bytes). */
        uint64_t m = L < 10 ? (UINT64_C(1) << (7 * L)) - a : k;
        if (m > k)
            m = k;
        sum += m * L;
        a += m;
        k -= m;
    }
    return sum;
}

/* The longest usual record: a one-byte tag (n <= 31 field bytes), a two-byte cmd. */
#define SCAN_RUN_MAX (1 + 2 + 31)

int glcap_packed_scan(glcap_pack_state *st, const uint8_t *in, size_t size, uint64_t *records, uint64_t *unpacked,
                      char *err, size_t err_size)
{
    const uint8_t *p = in, *end = in + size;
    uint64_t count = *records, bytes = *unpacked;
    uint64_t seq = st->seq;
    /* The 1.0 size of a mode 3 record but cmd and fields: u32, seq (its length changes only at a
     * power of two), context, thread. */
    unsigned ct = uvar_len(st->ctx) + uvar_len(st->tid), head = 4 + ct + uvar_len(seq);
    while (p < end) {
        /* A run of usual records (mode 3, a one-byte tag, a cmd of one or two bytes) while the
         * longest of them still fits before end: no bounds test per record, and their 1.0 bytes
         * summed once for the run. Each one's 1.0 form is its packed bytes less the tag, plus the
         * u32 size, seq (the previous + 1), context and thread. */
        const uint8_t *run = p;
        uint64_t k = 0;
        while (end - p >= SCAN_RUN_MAX) {
            uint8_t t = p[0];
            size_t lc = 1 + (p[1] >> 7);
            if ((t & 0x83) != 3 || p[lc] >= 0x80)
                break;
            p += 1 + lc + (t >> 2);
            k++;
        }
        if (k) {
            bytes += (uint64_t)(p - run) - k + k * (4 + ct) + uvar_len_sum(seq + 1, k);
            seq += k;
            count += k;
            head = 4 + ct + uvar_len(seq);
            if (p >= end)
                break;
        }
        /* Near the end, and every other record: one at a time, with bounds tests. */
        uint8_t t = p[0];
        if ((t & 0x83) == 3 && end - p >= 3) {
            unsigned lc = p[1] < 0x80 ? 1 : p[2] < 0x80 ? 2 : 0;
            size_t n = t >> 2;
            if (lc && n <= (size_t)(end - p) - 1 - lc) {
                seq++;
                if (!(seq & (seq - 1)))
                    head = 4 + ct + uvar_len(seq);
                bytes += head + lc + n;
                count++;
                p += 1 + lc + n;
                continue;
            }
        }
        st->seq = seq;
        st->exp_len = 0;
        glcap_packed_rec r;
        size_t k1 = glcap_packed_next(st, p, end, &r, count - *records, (size_t)(p - in), err, err_size);
        if (!k1)
            return -1;
        p += k1;
        bytes += 4 + r.body;
        count++;
        seq = st->seq;
        ct = uvar_len(st->ctx) + uvar_len(st->tid);
        head = 4 + ct + uvar_len(seq);
    }
    st->seq = seq;
    st->exp_len = 0;
    *records = count;
    *unpacked = bytes;
    return 0;
}

/* One pass over the packed records: counts the unpacked bytes, and writes them when out is set. */
static int unpack_pass(const uint8_t *in, size_t size, uint8_t *out, uint64_t out_size, uint64_t *total,
                       char *err, size_t err_size)
{
    glcap_pack_state st;
    glcap_pack_init(&st);
    const uint8_t *p = in, *end = in + size;
    uint64_t t = 0, rec = 0;
    while (p < end) {
        glcap_packed_rec r;
        size_t k = glcap_packed_next(&st, p, end, &r, rec, (size_t)(p - in), err, err_size);
        if (!k)
            return -1;
        if (out) {
            if (4 + r.body > out_size - t)
                return perr(err, err_size, "packed stream unpacks past its size");
            uint32_t b = (uint32_t)r.body;
            uint8_t *q = out + t;
            memcpy(q, &b, 4);
            q += 4;
            if (r.mode) {
                q = uvar_put(q, r.cmd);
                q = uvar_put(q, r.seq);
                q = uvar_put(q, r.ctx);
                q = uvar_put(q, r.tid);
            }
            memcpy(q, r.data, (size_t)r.n);
        }
        p += k;
        t += 4 + r.body;
        rec++;
    }
    *total = t;
    return 0;
}

int glcap_unpacked_size(const uint8_t *packed, size_t size, uint64_t *unpacked, char *err, size_t err_size)
{
    return unpack_pass(packed, size, NULL, 0, unpacked, err, err_size);
}

int glcap_unpack(const uint8_t *packed, size_t size, uint8_t *out, uint64_t out_size, char *err,
                 size_t err_size)
{
    uint64_t total = 0;
    if (unpack_pass(packed, size, out, out_size, &total, err, err_size) < 0)
        return -1;
    if (total != out_size)
        return perr(err, err_size, "packed stream unpacks to %" PRIu64 " bytes, not %" PRIu64, total,
                    out_size);
    return 0;
}
