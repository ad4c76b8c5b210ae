/* The merge of a capture's per-thread record streams into one stream in global sequence order,
 * for the capture writer (capture.h: glr_rec_merge_segments). A leaf under the writer: it reads the
 * segments the recorder detached (glr_rec_detach) and knows only the record head's layout, so the
 * writer does not call back into the recorder that feeds it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "capture_async.h"

/* The sequence number of a record (its head: u32 size, uvar cmd, uvar seq). */
static uint64_t record_seq(const uint8_t *rec)
{
    const uint8_t *p = rec + 4;
    while (*p & 0x80) /* skip cmd */
        p++;
    p++;
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        v |= (uint64_t)(*p & 0x7f) << shift;
        if (!(*p++ & 0x80))
            break;
    }
    return v;
}

int glr_rec_merge_segments(const struct glr_rec_segment *segs, unsigned n,
                           int (*sink)(void *user, const void *data, size_t size, uint32_t thread_id), void *user)
{
    const struct glr_rec_segment **live = calloc(n ? n : 1, sizeof *live);
    size_t *pos = calloc(n ? n : 1, sizeof *pos);
    int rc = 0;
    if (!live || !pos) {
        rc = -1;
        goto out;
    }
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++)
        if (segs[i].len)
            live[k++] = &segs[i];
    if (k == 1) {   /* one thread: its buffer is the stream, handed over in one piece */
        rc = sink(user, live[0]->buf, live[0]->len, live[0]->thread_id) != 0 ? -1 : 0;
        goto out;
    }
    for (;;) {
        unsigned best = k;
        uint64_t best_seq = UINT64_MAX;
        for (unsigned i = 0; i < k; i++) {
            if (pos[i] >= live[i]->len)
                continue;
            uint64_t s = record_seq(live[i]->buf + pos[i]);
            if (s < best_seq) {
                best_seq = s;
                best = i;
            }
        }
        if (best == k)
            break;
        uint32_t body;
        memcpy(&body, live[best]->buf + pos[best], 4);
        if (sink(user, live[best]->buf + pos[best], 4 + (size_t)body, live[best]->thread_id) != 0) {
            rc = -1;
            break;
        }
        pos[best] += 4 + (size_t)body;
    }
out:
    free(live);
    free(pos);
    return rc;
}
