/* The command stream decoded once (decoded_stream.h). One record:
 *   u32 cmd | u32 ctx_id | u32 thread_id | u32 flags | u64 seq | u64 ret | u8 slots | u8 pad[3] |
 *   u32 blob mask | u64 args[slots] | (const void *data, u64 size) per set bit of the mask
 * Blob data points into the loaded stream, which outlives the decoded form. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/decoded_stream.h"
#include "registry/glr_call_codec.h"
#include "registry/glr_registry.h"

struct glrh_decoded {
    uint8_t *buf;
    size_t len;
};

struct head {
    uint32_t cmd, ctx_id, thread_id, flags;
    uint64_t seq, ret;
    uint8_t slots, pad[3];
    uint32_t blob_mask;
};

_Static_assert(GLR_MAX_PARAMS <= 32, "the blob mask has 32 bits");

static size_t record_bytes(const struct glr_call *c, struct head *h)
{
    int slots = 0;
    uint32_t mask = 0;
    /* Only the slots the record's command can fill (its parameters, or an event's fields). */
    bool has_blob;
    int n = c->cmd < GLR_CMD_COUNT ? glr_cmds[c->cmd].nparams : glr_pseudo_fields(c->cmd, &has_blob);
    if (n < 1)
        n = 1;   /* an event's blob is in slot 0 */
    if (n > GLR_MAX_PARAMS)
        n = GLR_MAX_PARAMS;
    for (int i = 0; i < n; i++) {
        if (c->args[i] || c->blobs[i].data || c->blobs[i].size)
            slots = i + 1;
        if (c->blobs[i].data || c->blobs[i].size)
            mask |= 1u << i;
    }
    *h = (struct head){ .cmd = c->cmd, .ctx_id = c->ctx_id, .thread_id = c->thread_id, .flags = c->flags,
                        .seq = c->seq, .ret = c->ret, .slots = (uint8_t)slots, .blob_mask = mask };
    return sizeof *h + (size_t)slots * 8 + (size_t)__builtin_popcount(mask) * sizeof(struct glr_blob);
}

struct glrh_decoded *glrh_decoded_build(const void *stream, size_t size, size_t budget)
{
    struct glrh_decoded *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    struct glr_stream s;
    struct glr_call c;
    size_t cap = 0;
    int k;
    glr_stream_init(&s, stream, size);
    while ((k = glr_stream_next(&s, &c)) == 1) {
        struct head h;
        size_t n = record_bytes(&c, &h);
        if (d->len + n > budget)
            goto fail;
        if (d->len + n > cap) {
            size_t ncap = cap ? cap * 2 : (size_t)1 << 20;
            while (ncap < d->len + n)
                ncap *= 2;
            if (ncap > budget)
                ncap = budget;
            uint8_t *nb = realloc(d->buf, ncap);
            if (!nb)
                goto fail;
            d->buf = nb;
            cap = ncap;
        }
        uint8_t *p = d->buf + d->len;
        memcpy(p, &h, sizeof h);
        p += sizeof h;
        memcpy(p, c.args, (size_t)h.slots * 8);
        p += (size_t)h.slots * 8;
        for (uint32_t m = h.blob_mask; m; m &= m - 1) {
            memcpy(p, &c.blobs[__builtin_ctz(m)], sizeof(struct glr_blob));
            p += sizeof(struct glr_blob);
        }
        d->len += n;
    }
    if (k < 0)
        goto fail;
    return d;
fail:
    glrh_decoded_free(d);
    return NULL;
}

void glrh_decoded_free(struct glrh_decoded *d)
{
    if (!d)
        return;
    free(d->buf);
    free(d);
}

size_t glrh_decoded_bytes(const struct glrh_decoded *d)
{
    return d ? d->len : 0;
}

void glrh_decoded_begin(const struct glrh_decoded *d, struct glrh_decoded_cursor *k, struct glr_call *c)
{
    k->p = d->buf;
    k->end = d->buf + d->len;
    k->used = GLR_MAX_PARAMS;
    k->blobs = 0;
    memset(c, 0, sizeof *c);
}

/* Per record of a repeated pass, so kept short (a call-heavy frame replays ~60k of them per
 * pass): only the slots the previous record filled and this one does not are cleared, and the
 * blob slots are visited by their mask, not one by one (most calls carry no blob). */
int glrh_decoded_next(struct glrh_decoded_cursor *k, struct glr_call *c)
{
    if (k->p >= k->end)
        return 0;
    struct head h;
    memcpy(&h, k->p, sizeof h);
    const uint8_t *p = k->p + sizeof h;
    for (int i = h.slots; i < k->used; i++)
        c->args[i] = 0;
    for (uint32_t m = k->blobs & ~h.blob_mask; m; m &= m - 1)
        c->blobs[__builtin_ctz(m)] = (struct glr_blob){ 0 };
    c->cmd = h.cmd;
    c->ctx_id = h.ctx_id;
    c->thread_id = h.thread_id;
    c->flags = h.flags;
    c->seq = h.seq;
    c->ret = h.ret;
    for (int i = 0; i < h.slots; i++, p += 8) /* a few words: no library memcpy call */
        memcpy(&c->args[i], p, 8);
    for (uint32_t m = h.blob_mask; m; m &= m - 1) {
        memcpy(&c->blobs[__builtin_ctz(m)], p, sizeof(struct glr_blob));
        p += sizeof(struct glr_blob);
    }
    k->used = h.slots;
    k->blobs = h.blob_mask;
    k->p = p;
    return 1;
}
