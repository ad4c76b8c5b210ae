/* Command stream decoder; the encoding is described in shim/recorder.c and docs/GLCAP_FORMAT.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "glr_call_codec.h"

void glr_stream_init(struct glr_stream *s, const void *data, size_t size)
{
    memset(s, 0, sizeof *s);
    s->base = s->p = data;
    s->end = s->base + size;
}

static int fail(struct glr_stream *s, const char *what)
{
    if (!s->bad)
        snprintf(s->err, sizeof s->err, "command stream corrupt at record %llu (byte %llu): %s",
                 (unsigned long long)s->index, (unsigned long long)(s->p - s->base), what);
    s->bad = true;
    return -1;
}

static bool get_uvar(const uint8_t **pp, const uint8_t *end, uint64_t *out)
{
    const uint8_t *p = *pp;
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (p >= end)
            return false;
        uint8_t b = *p++;
        if (shift == 63 && b > 1)
            return false;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *pp = p;
            *out = v;
            return true;
        }
    }
    return false;
}

static bool get_value(const uint8_t **pp, const uint8_t *end, int kind, uint64_t *out)
{
    switch (kind) {
    case GLR_KIND_I32:
    case GLR_KIND_I64: {
        uint64_t z;
        if (!get_uvar(pp, end, &z))
            return false;
        *out = (z >> 1) ^ (uint64_t)(-(int64_t)(z & 1));
        return true;
    }
    case GLR_KIND_F32: {
        if (end - *pp < 4)
            return false;
        uint32_t b;
        memcpy(&b, *pp, 4);
        *pp += 4;
        *out = b;
        return true;
    }
    case GLR_KIND_F64:
        if (end - *pp < 8)
            return false;
        memcpy(out, *pp, 8);
        *pp += 8;
        return true;
    default:
        return get_uvar(pp, end, out);
    }
}

static bool get_blob(const uint8_t **pp, const uint8_t *end, struct glr_blob *b)
{
    uint64_t n;
    if (!get_uvar(pp, end, &n))
        return false;
    if (n == 0) {
        b->data = NULL;
        b->size = 0;
        return true;
    }
    n--;
    if (n > (uint64_t)(end - *pp))
        return false;
    b->data = *pp;
    b->size = n;
    *pp += n;
    return true;
}

int glr_pseudo_fields(uint32_t cmd, bool *has_blob)
{
    *has_blob = false;
    switch (cmd) {
    case GLR_PSEUDO_CONTEXT_CREATE: return 3;
    case GLR_PSEUDO_MAKE_CURRENT: return 2;
    case GLR_PSEUDO_SWAP: return 1;
    case GLR_PSEUDO_CLIENT_ARRAY: *has_blob = true; return 8;
    case GLR_PSEUDO_BUFFER_DATA: *has_blob = true; return 5;
    case GLR_PSEUDO_BUFFER_MAPPED: return 5;
    case GLR_PSEUDO_MAP_READ: *has_blob = true; return 4;
    default: return -1;
    }
}

const char *glr_call_name(uint32_t cmd)
{
    if (cmd < GLR_CMD_COUNT)
        return glr_cmd_name(cmd);
    switch (cmd) {
    case GLR_PSEUDO_CONTEXT_CREATE: return "<context created>";
    case GLR_PSEUDO_MAKE_CURRENT: return "<make current>";
    case GLR_PSEUDO_SWAP: return "<swap>";
    case GLR_PSEUDO_CLIENT_ARRAY: return "<client array data>";
    case GLR_PSEUDO_BUFFER_DATA: return "<mapped buffer data>";
    case GLR_PSEUDO_BUFFER_MAPPED: return "<buffer mapped before the capture>";
    case GLR_PSEUDO_MAP_READ: return "<read through a mapping>";
    default: return "<unknown>";
    }
}

int glr_stream_next(struct glr_stream *s, struct glr_call *c)
{
    if (s->bad)
        return -1;
    if (s->p == s->end)
        return 0;
    if (s->end - s->p < 4)
        return fail(s, "truncated record header");
    uint32_t body;
    memcpy(&body, s->p, 4);
    if (body > (uint64_t)(s->end - s->p - 4))
        return fail(s, "record longer than the stream");
    const uint8_t *p = s->p + 4, *end = p + body;
    memset(c, 0, sizeof *c);
    uint64_t cmd, seq, ctx, thread;
    if (!get_uvar(&p, end, &cmd) || !get_uvar(&p, end, &seq) || !get_uvar(&p, end, &ctx) ||
        !get_uvar(&p, end, &thread))
        return fail(s, "truncated record header fields");
    if (cmd >= GLR_PSEUDO_END)
        return fail(s, "unknown command id");
    if (ctx > UINT32_MAX || thread > UINT32_MAX)
        return fail(s, "context or thread id out of range");
    c->cmd = (uint32_t)cmd;
    c->seq = seq;
    c->ctx_id = (uint32_t)ctx;
    c->thread_id = (uint32_t)thread;
    if (cmd < GLR_CMD_COUNT) {
        const struct glr_cmd_info *ci = &glr_cmds[cmd];
        for (int i = 0; i < ci->nparams; i++)
            if (!get_value(&p, end, glr_cmd_params(ci)[i].kind, &c->args[i]))
                return fail(s, "truncated argument");
        if (ci->ret_kind != GLR_KIND_VOID) {
            if (!get_value(&p, end, ci->ret_kind, &c->ret))
                return fail(s, "truncated return value");
            c->flags |= GLR_CALL_HAS_RET;
        }
        for (int i = 0; i < ci->nparams; i++)
            if (glr_cmd_params(ci)[i].is_pointer && !get_blob(&p, end, &c->blobs[i]))
                return fail(s, "blob larger than its record");
    } else {
        bool has_blob;
        int n = glr_pseudo_fields((uint32_t)cmd, &has_blob);
        for (int i = 0; i < n; i++)
            if (!get_uvar(&p, end, &c->args[i]))
                return fail(s, "truncated event field");
        if (has_blob && !get_blob(&p, end, &c->blobs[0]))
            return fail(s, "event data larger than its record");
    }
    if (p != end)
        return fail(s, "record has trailing bytes");
    s->p = end;
    s->index++;
    return 1;
}

/* ---------------------------------------------------------------- encoding */

struct enc {
    uint8_t *p;
    size_t n, cap;
    bool failed;
};

static void put_bytes(struct enc *e, const void *data, size_t n)
{
    if (e->failed)
        return;
    if (e->cap - e->n < n) {
        size_t cap = e->cap ? e->cap : 256;
        while (cap - e->n < n)
            cap *= 2;
        uint8_t *q = realloc(e->p, cap);
        if (!q) {
            e->failed = true;
            return;
        }
        e->p = q;
        e->cap = cap;
    }
    if (n)
        memcpy(e->p + e->n, data, n);
    e->n += n;
}

static void put_uvar(struct enc *e, uint64_t v)
{
    uint8_t b[10];
    size_t n = 0;
    do {
        b[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v)
            b[n] |= 0x80;
        n++;
    } while (v);
    put_bytes(e, b, n);
}

static void put_value(struct enc *e, int kind, uint64_t v)
{
    switch (kind) {
    case GLR_KIND_I32:
    case GLR_KIND_I64:
        put_uvar(e, (v << 1) ^ (uint64_t)((int64_t)v >> 63));   /* zigzag */
        break;
    case GLR_KIND_F32: {
        uint32_t b = (uint32_t)v;
        put_bytes(e, &b, 4);
        break;
    }
    case GLR_KIND_F64:
        put_bytes(e, &v, 8);
        break;
    default:
        put_uvar(e, v);
    }
}

bool glr_call_encode(const struct glr_call *c, uint8_t **buf, size_t *size, size_t *cap)
{
    if (c->cmd >= GLR_CMD_COUNT)
        return false;
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    struct enc e = { *buf, *size, *cap, false };
    size_t start = e.n;
    uint32_t body = 0;
    put_bytes(&e, &body, 4);   /* patched below */
    put_uvar(&e, c->cmd);
    put_uvar(&e, c->seq);
    put_uvar(&e, c->ctx_id);
    put_uvar(&e, c->thread_id);
    for (int i = 0; i < ci->nparams; i++)
        put_value(&e, glr_cmd_params(ci)[i].kind, c->args[i]);
    if (ci->ret_kind != GLR_KIND_VOID)
        put_value(&e, ci->ret_kind, (c->flags & GLR_CALL_HAS_RET) ? c->ret : 0);
    for (int i = 0; i < ci->nparams; i++) {
        if (!glr_cmd_params(ci)[i].is_pointer)
            continue;
        const struct glr_blob *b = &c->blobs[i];
        put_uvar(&e, b->data && b->size ? b->size + 1 : 0);
        if (b->data && b->size)
            put_bytes(&e, b->data, (size_t)b->size);
    }
    if (!e.failed) {
        body = (uint32_t)(e.n - start - 4);
        memcpy(e.p + start, &body, 4);
    }
    *buf = e.p;
    *cap = e.cap;
    *size = e.failed ? start : e.n;
    return !e.failed;
}
