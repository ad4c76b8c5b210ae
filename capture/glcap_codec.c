/* glcap_codec.c: out-of-line parts of the payload codec (growth, errors,
 * multi-byte varints). */
#include "capture/glcap_codec.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void glcap_wbuf_init(glcap_wbuf *w)
{
    w->data = NULL;
    w->len = 0;
    w->cap = 0;
    w->failed = false;
}

void glcap_wbuf_free(glcap_wbuf *w)
{
    free(w->data);
    glcap_wbuf_init(w);
}

void glcap_wbuf_reset(glcap_wbuf *w)
{
    /* After a failure cap was frozen at the old len: an underestimate of
     * the allocation, which is harmless (growth reallocs from there). */
    w->len = 0;
    w->failed = false;
}

uint8_t *glcap_wbuf_detach(glcap_wbuf *w, size_t *len)
{
    uint8_t *d = w->failed ? NULL : w->data;
    *len = d ? w->len : 0;
    if (!d)
        free(w->data);
    glcap_wbuf_init(w);
    return d;
}

uint8_t *glcap_wbuf_grow(glcap_wbuf *w, size_t n)
{
    if (w->failed)
        return NULL;
    if (n > SIZE_MAX / 2 - w->len)
        goto fail;
    size_t need = w->len + n;
    size_t ncap = w->cap ? w->cap : 256;
    while (ncap < need)
        ncap *= 2;
    uint8_t *nd = realloc(w->data, ncap);
    if (!nd)
        goto fail;
    w->data = nd;
    w->cap = ncap;
    return w->data + w->len;
fail:
    /* Freeze: with cap == len every later put takes this path and fails,
     * so no later small write lands after a lost big one. */
    w->failed = true;
    w->cap = w->len;
    return NULL;
}

void glcap_cursor_init(glcap_cursor *c, const void *data, size_t size)
{
    c->start = data;
    c->p = data;
    c->end = c->p + (data ? size : 0);
    c->failed = false;
    c->msg[0] = '\0';
}

static void cursor_vfail(glcap_cursor *c, const char *fmt, va_list ap)
{
    if (c->failed)
        return;
    c->failed = true;
    vsnprintf(c->msg, sizeof c->msg, fmt, ap);
    c->p = c->end; /* every later read fails fast */
}

static void cursor_failf(glcap_cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void cursor_failf(glcap_cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cursor_vfail(c, fmt, ap);
    va_end(ap);
}

bool glcap_cursor_fail(glcap_cursor *c, const char *fmt, ...)
{
    if (c->failed)
        return false;
    char what[128];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    cursor_failf(c, "%s at offset %zu", what, glcap_cursor_offset(c));
    return false;
}

bool glcap_cursor_expect_end(glcap_cursor *c)
{
    if (c->failed)
        return false;
    if (c->p != c->end) {
        cursor_failf(c, "%zu unexpected bytes at the end (offset %zu)", glcap_cursor_left(c),
                     glcap_cursor_offset(c));
        return false;
    }
    return true;
}

uint64_t glcap_cursor_short(glcap_cursor *c, const char *what, size_t need)
{
    if (!c->failed)
        cursor_failf(c, "payload truncated: %s at offset %zu needs %zu bytes, %zu left", what,
                     glcap_cursor_offset(c), need, glcap_cursor_left(c));
    return 0;
}

uint64_t glcap_get_uvar_slow(glcap_cursor *c)
{
    size_t at = glcap_cursor_offset(c);
    uint64_t v = 0;
    for (unsigned i = 0; i < 10; i++) {
        if (c->p >= c->end) {
            if (!c->failed)
                cursor_failf(c, "payload truncated: varint at offset %zu is cut off", at);
            return 0;
        }
        uint8_t b = *c->p++;
        /* The 10th byte holds bit 63 only. */
        if (i == 9 && b > 1) {
            cursor_failf(c, "varint at offset %zu overflows 64 bits", at);
            return 0;
        }
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (b < 0x80)
            return v;
    }
    cursor_failf(c, "varint at offset %zu overflows 64 bits", at);
    return 0;
}

bool glcap_get_bool(glcap_cursor *c)
{
    size_t at = glcap_cursor_offset(c);
    uint8_t b = glcap_get_u8(c);
    if (b > 1) {
        cursor_failf(c, "bool at offset %zu has value %u", at, b);
        return false;
    }
    return b != 0;
}

uint64_t glcap_get_uvar_below(glcap_cursor *c, uint64_t limit, const char *what)
{
    size_t at = glcap_cursor_offset(c);
    uint64_t v = glcap_get_uvar(c);
    if (c->failed)
        return 0;
    if (v >= limit) {
        cursor_failf(c, "%s at offset %zu is %" PRIu64 ", must be below %" PRIu64, what, at, v,
                     limit);
        return 0;
    }
    return v;
}

size_t glcap_get_count(glcap_cursor *c, size_t min_elem_size, const char *what)
{
    size_t at = glcap_cursor_offset(c);
    uint64_t n = glcap_get_uvar(c);
    if (c->failed)
        return 0;
    size_t left = glcap_cursor_left(c);
    /* Elements of size 0 (rare) are still bounded: one per byte left. */
    size_t per = min_elem_size ? min_elem_size : 1;
    if (n > left / per) {
        cursor_failf(c, "%s count %" PRIu64 " at offset %zu cannot fit in the %zu bytes left", what,
                     n, at, left);
        return 0;
    }
    return (size_t)n;
}

const void *glcap_get_bytes(glcap_cursor *c, size_t *len)
{
    size_t at = glcap_cursor_offset(c);
    uint64_t n = glcap_get_uvar(c);
    *len = 0;
    if (c->failed)
        return NULL;
    if (n > glcap_cursor_left(c)) {
        cursor_failf(c, "payload truncated: %" PRIu64 "-byte string at offset %zu, %zu bytes left",
                     n, at, glcap_cursor_left(c));
        return NULL;
    }
    const void *p = c->p;
    c->p += n;
    *len = (size_t)n;
    return p;
}

char *glcap_get_strdup(glcap_cursor *c)
{
    size_t at = glcap_cursor_offset(c);
    size_t n;
    const char *s = glcap_get_str(c, &n);
    if (!s)
        return NULL;
    if (memchr(s, '\0', n)) {
        cursor_failf(c, "string at offset %zu contains a NUL byte", at);
        return NULL;
    }
    char *copy = malloc(n + 1);
    if (!copy) {
        cursor_failf(c, "out of memory for a %zu-byte string at offset %zu", n, at);
        return NULL;
    }
    memcpy(copy, s, n);
    copy[n] = '\0';
    return copy;
}
