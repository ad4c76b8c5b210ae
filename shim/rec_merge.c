/* The merge of a capture's per-thread record streams into one stream in global sequence order,
 * for the capture writer (capture.h: glr_rec_merge_segments). A leaf under the writer: it reads the
 * segments the recorder detached (glr_rec_detach), each a packed stream of its own thread
 * (capture/glcap_packed.h) that starts from the state the segment carries, and hands the records
 * on in the 1.0 form, which the writer packs again against the merged stream's own state. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "capture_async.h"
#include "capture/glcap_packed.h"

struct cursor {
    const struct glr_rec_segment *seg;
    glcap_pack_state st;
    size_t pos;          /* where the record in `rec` starts */
    size_t len;          /* its packed length; 0: the segment is done */
    glcap_packed_rec rec;
    uint64_t index;
};

static int advance(struct cursor *c, char *err, size_t err_size)
{
    c->pos += c->len;
    c->len = 0;
    if (c->pos >= c->seg->len)
        return 0;
    const uint8_t *b = c->seg->buf;
    c->len = glcap_packed_next(&c->st, b + c->pos, b + c->seg->len, &c->rec, c->index++, c->pos, err, err_size);
    if (!c->len)
        return -1;
    if (!c->rec.has_head) {
        snprintf(err, err_size, "thread %u's record %llu has no header", c->seg->thread_id,
                 (unsigned long long)c->index - 1);
        return -1;
    }
    return 0;
}

static uint8_t *put_uvar(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

int glr_rec_merge_segments(const struct glr_rec_segment *segs, unsigned n,
                           int (*sink)(void *user, const void *data, size_t size, uint32_t thread_id), void *user,
                           char *err, size_t err_size)
{
    struct cursor *cur = calloc(n ? n : 1, sizeof *cur);
    uint8_t *tmp = NULL;
    size_t tmp_cap = 0;
    int rc = 0;
    if (!cur) {
        snprintf(err, err_size, "out of memory merging the threads' streams");
        return -1;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        if (!segs[i].len)
            continue;
        struct cursor *c = &cur[k++];
        c->seg = &segs[i];
        glcap_pack_init(&c->st);
        glcap_pack_set(&c->st, segs[i].seq0, segs[i].ctx0, segs[i].tid0);
        if (advance(c, err, err_size) != 0) {
            rc = -1;
            goto out;
        }
    }
    for (;;) {
        unsigned best = k;
        uint64_t best_seq = UINT64_MAX;
        for (unsigned i = 0; i < k; i++)
            if (cur[i].len && cur[i].rec.seq < best_seq) {
                best_seq = cur[i].rec.seq;
                best = i;
            }
        if (best == k)
            break;
        const glcap_packed_rec *r = &cur[best].rec;
        size_t need = 4 + 4 * 10 + (size_t)r->n;
        if (need > tmp_cap) {
            uint8_t *t = realloc(tmp, need);
            if (!t) {
                snprintf(err, err_size, "out of memory merging the threads' streams");
                rc = -1;
                break;
            }
            tmp = t;
            tmp_cap = need;
        }
        /* The 1.0 record: u32 body size, then the header (mode 0 carries it in its body). */
        uint8_t *q = tmp + 4;
        if (r->mode) {
            q = put_uvar(q, r->cmd);
            q = put_uvar(q, r->seq);
            q = put_uvar(q, r->ctx);
            q = put_uvar(q, r->tid);
        }
        memcpy(q, r->data, (size_t)r->n);
        q += r->n;
        uint32_t body = (uint32_t)(q - tmp - 4);
        memcpy(tmp, &body, 4);
        if (sink(user, tmp, (size_t)(q - tmp), cur[best].seg->thread_id) != 0) {
            snprintf(err, err_size, "writing the merged stream failed");
            rc = -1;
            break;
        }
        if (advance(&cur[best], err, err_size) != 0) {
            rc = -1;
            break;
        }
    }
out:
    free(cur);
    free(tmp);
    return rc;
}
