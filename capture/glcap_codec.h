/* glcap_codec.h: bounds-checked binary encoding of section payloads.
 *
 * glcap_wbuf is a growable little-endian writer; glcap_cursor reads it back.
 * Every cursor read is bounds-checked: a read past the end (or a malformed
 * varint, or a length larger than what is left) returns 0/NULL, sets a
 * sticky error with a message and makes every later read fail too, so a
 * decoder checks glcap_cursor_ok() once at the end (and before it uses a
 * value to index or allocate anything: see glcap_get_count). Writers record
 * allocation failure the same way (glcap_wbuf.failed).
 *
 * Encodings (docs/GLCAP_FORMAT.md, "Payload codec"):
 *   u8/u16/u32/u64, f32/f64  fixed-size little-endian (floats: IEEE bits)
 *   uvar                     unsigned LEB128, at most 10 bytes, no overlong
 *                            10th byte (value must fit in 64 bits)
 *   svar                     zigzag-mapped signed value as uvar
 *   bytes, str               uvar length, then that many bytes (no NUL)
 *   bool                     u8 that must be 0 or 1
 * The fast paths are inline; errors and rare cases go to glcap_codec.c.
 */
#ifndef GLCAP_CODEC_H
#define GLCAP_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define GLCAP_HOST_LE 1
#else
#define GLCAP_HOST_LE 0
#endif

#if defined(__GNUC__)
#define GLCAP_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define GLCAP_LIKELY(x) (x)
#endif

static inline uint16_t glcap_load_le16(const uint8_t *p)
{
    uint16_t v;
    memcpy(&v, p, 2);
    return GLCAP_HOST_LE ? v : (uint16_t)(p[0] | p[1] << 8);
}
static inline uint32_t glcap_load_le32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return GLCAP_HOST_LE ? v
        : ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}
static inline uint64_t glcap_load_le64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return GLCAP_HOST_LE ? v : ((uint64_t)glcap_load_le32(p) | (uint64_t)glcap_load_le32(p + 4) << 32);
}
static inline void glcap_store_le16(uint8_t *p, uint16_t v)
{
    if (GLCAP_HOST_LE) { memcpy(p, &v, 2); return; }
    p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8);
}
static inline void glcap_store_le32(uint8_t *p, uint32_t v)
{
    if (GLCAP_HOST_LE) { memcpy(p, &v, 4); return; }
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void glcap_store_le64(uint8_t *p, uint64_t v)
{
    if (GLCAP_HOST_LE) { memcpy(p, &v, 8); return; }
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}

/* ======================================================================
 * Writer
 */
typedef struct glcap_wbuf {
    uint8_t *data;
    size_t len;
    size_t cap;
    bool failed; /* an allocation failed: data is incomplete, len frozen */
} glcap_wbuf;

void glcap_wbuf_init(glcap_wbuf *w);
void glcap_wbuf_free(glcap_wbuf *w);
/* Empties the buffer, keeping its memory (and clearing failed). */
void glcap_wbuf_reset(glcap_wbuf *w);
/* Takes the bytes (malloc'd, caller frees; NULL if empty or failed) and
 * leaves the buffer empty. */
uint8_t *glcap_wbuf_detach(glcap_wbuf *w, size_t *len);
/* Slow path of glcap_wbuf_reserve. */
uint8_t *glcap_wbuf_grow(glcap_wbuf *w, size_t n);

/* Room for n more bytes at data + len, or NULL (failed set). */
static inline uint8_t *glcap_wbuf_reserve(glcap_wbuf *w, size_t n)
{
    if (GLCAP_LIKELY(w->cap - w->len >= n))
        return w->data + w->len;
    return glcap_wbuf_grow(w, n);
}

static inline void glcap_put_u8(glcap_wbuf *w, uint8_t v)
{
    uint8_t *p = glcap_wbuf_reserve(w, 1);
    if (p) { *p = v; w->len += 1; }
}
static inline void glcap_put_u16(glcap_wbuf *w, uint16_t v)
{
    uint8_t *p = glcap_wbuf_reserve(w, 2);
    if (p) { glcap_store_le16(p, v); w->len += 2; }
}
static inline void glcap_put_u32(glcap_wbuf *w, uint32_t v)
{
    uint8_t *p = glcap_wbuf_reserve(w, 4);
    if (p) { glcap_store_le32(p, v); w->len += 4; }
}
static inline void glcap_put_u64(glcap_wbuf *w, uint64_t v)
{
    uint8_t *p = glcap_wbuf_reserve(w, 8);
    if (p) { glcap_store_le64(p, v); w->len += 8; }
}
static inline void glcap_put_bool(glcap_wbuf *w, bool v) { glcap_put_u8(w, v ? 1 : 0); }
static inline void glcap_put_f32(glcap_wbuf *w, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    glcap_put_u32(w, u);
}
static inline void glcap_put_f64(glcap_wbuf *w, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    glcap_put_u64(w, u);
}
static inline void glcap_put_uvar(glcap_wbuf *w, uint64_t v)
{
    uint8_t *p = glcap_wbuf_reserve(w, 10);
    if (!p)
        return;
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    w->len += n;
}
static inline void glcap_put_svar(glcap_wbuf *w, int64_t v)
{
    glcap_put_uvar(w, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63)); /* zigzag */
}
/* n raw bytes, no length (the reader must know n). */
static inline void glcap_put_raw(glcap_wbuf *w, const void *data, size_t n)
{
    if (n == 0)
        return;
    uint8_t *p = glcap_wbuf_reserve(w, n);
    if (p) { memcpy(p, data, n); w->len += n; }
}
/* uvar length + bytes. */
static inline void glcap_put_bytes(glcap_wbuf *w, const void *data, size_t n)
{
    glcap_put_uvar(w, n);
    glcap_put_raw(w, data, n);
}
/* A NUL-terminated string (NULL is written as ""), without its NUL. */
static inline void glcap_put_str(glcap_wbuf *w, const char *s)
{
    glcap_put_bytes(w, s ? s : "", s ? strlen(s) : 0);
}

/* ======================================================================
 * Cursor (reader)
 */
typedef struct glcap_cursor {
    const uint8_t *p;     /* next byte */
    const uint8_t *end;
    const uint8_t *start;
    bool failed;
    char msg[160];        /* the first error, "" while ok */
} glcap_cursor;

void glcap_cursor_init(glcap_cursor *c, const void *data, size_t size);
static inline bool glcap_cursor_ok(const glcap_cursor *c) { return !c->failed; }
/* The first error as one line ("u32 at offset 12: needs 4 bytes, 2 left"),
 * or "" if none. */
static inline const char *glcap_cursor_error(const glcap_cursor *c) { return c->msg; }
static inline size_t glcap_cursor_offset(const glcap_cursor *c) { return (size_t)(c->p - c->start); }
static inline size_t glcap_cursor_left(const glcap_cursor *c) { return (size_t)(c->end - c->p); }
static inline bool glcap_cursor_at_end(const glcap_cursor *c) { return c->p == c->end; }

/* Records a decoder's own error (bad enum, inconsistent value) at the
 * current offset, unless an error is already recorded; returns false. */
bool glcap_cursor_fail(glcap_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fails unless every byte has been read ("N unexpected bytes at the end"). */
bool glcap_cursor_expect_end(glcap_cursor *c);

/* Slow paths (out of line). */
uint64_t glcap_cursor_short(glcap_cursor *c, const char *what, size_t need);
uint64_t glcap_get_uvar_slow(glcap_cursor *c);

static inline uint8_t glcap_get_u8(glcap_cursor *c)
{
    if (GLCAP_LIKELY(c->p < c->end))
        return *c->p++;
    return (uint8_t)glcap_cursor_short(c, "u8", 1);
}
static inline uint16_t glcap_get_u16(glcap_cursor *c)
{
    if (GLCAP_LIKELY(c->end - c->p >= 2)) {
        uint16_t v = glcap_load_le16(c->p);
        c->p += 2;
        return v;
    }
    return (uint16_t)glcap_cursor_short(c, "u16", 2);
}
static inline uint32_t glcap_get_u32(glcap_cursor *c)
{
    if (GLCAP_LIKELY(c->end - c->p >= 4)) {
        uint32_t v = glcap_load_le32(c->p);
        c->p += 4;
        return v;
    }
    return (uint32_t)glcap_cursor_short(c, "u32", 4);
}
static inline uint64_t glcap_get_u64(glcap_cursor *c)
{
    if (GLCAP_LIKELY(c->end - c->p >= 8)) {
        uint64_t v = glcap_load_le64(c->p);
        c->p += 8;
        return v;
    }
    return glcap_cursor_short(c, "u64", 8);
}
static inline float glcap_get_f32(glcap_cursor *c)
{
    uint32_t u = glcap_get_u32(c);
    float v;
    memcpy(&v, &u, 4);
    return v;
}
static inline double glcap_get_f64(glcap_cursor *c)
{
    uint64_t u = glcap_get_u64(c);
    double v;
    memcpy(&v, &u, 8);
    return v;
}
/* 0 or 1; anything else is an error. */
bool glcap_get_bool(glcap_cursor *c);

static inline uint64_t glcap_get_uvar(glcap_cursor *c)
{
    if (GLCAP_LIKELY(c->p < c->end && *c->p < 0x80))
        return *c->p++; /* one byte: the common case */
    return glcap_get_uvar_slow(c);
}
static inline int64_t glcap_get_svar(glcap_cursor *c)
{
    uint64_t u = glcap_get_uvar(c);
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}
/* A uvar that must be < limit (an enum, an index into a table already
 * read); what names it in the message. Returns 0 on error. */
uint64_t glcap_get_uvar_below(glcap_cursor *c, uint64_t limit, const char *what);
/* A uvar element count for an array whose elements take at least
 * min_elem_size bytes each in the payload: fails (returns 0) if the count
 * could not possibly fit in what is left, so it is safe to allocate. */
size_t glcap_get_count(glcap_cursor *c, size_t min_elem_size, const char *what);

/* n raw bytes: a pointer into the payload, or NULL (error) if fewer left.
 * n == 0 gives a non-NULL pointer. */
static inline const void *glcap_get_raw(glcap_cursor *c, size_t n)
{
    if (GLCAP_LIKELY((size_t)(c->end - c->p) >= n)) {
        const void *v = c->p;
        c->p += n;
        return v;
    }
    glcap_cursor_short(c, "raw bytes", n);
    return NULL;
}
/* uvar length + bytes: a pointer into the payload and its length, or NULL
 * with *len 0. */
const void *glcap_get_bytes(glcap_cursor *c, size_t *len);
/* Same for a string: NOT NUL-terminated, use *len. */
static inline const char *glcap_get_str(glcap_cursor *c, size_t *len)
{
    return (const char *)glcap_get_bytes(c, len);
}
/* A string as a malloc'd NUL-terminated copy (free it); NULL on error,
 * including a string that contains a NUL byte or if memory runs out. */
char *glcap_get_strdup(glcap_cursor *c);

#ifdef __cplusplus
}
#endif

#endif /* GLCAP_CODEC_H */
