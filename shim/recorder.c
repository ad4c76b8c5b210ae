/* The capture recorder: per-thread stream buffers filled by the generated slow paths.
 *
 * Each thread appends to its own buffer (no lock on the recording path); a global sequence number
 * orders calls across threads, and the buffers are merged by it when the capture ends. A record is
 *   u32 body_size | body
 *   body = uvar cmd | uvar seq | uvar ctx_id | uvar thread_id | args | ret | blobs
 * args and ret by their registry kind (svar for signed, uvar for unsigned and pointers, 4/8 raw
 * bytes for floats); one blob per pointer parameter: uvar (size + 1) then the bytes, 0 when the
 * call referenced no client memory or glreplay could not size it.
 */
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"

struct glr_rec {
    uint8_t *buf;
    size_t len, cap;
    size_t rec_start;     /* offset of the open record's size field */
    uint32_t thread_id;
    uint64_t epoch;       /* capture this buffer belongs to */
    bool failed;
    int busy;             /* inside a record: the capture end waits for 0 before merging */
    struct glr_rec *next;
};

/* Whether membarrier(PRIVATE_EXPEDITED) is registered (set once, before any capture records). */
GLR_HIDDEN bool glr_rec_asymmetric;

void glr_rec_setup_fences(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    glr_rec_asymmetric = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

static __thread struct glr_rec *tls_rec __attribute__((tls_model("initial-exec")));
static struct glr_rec *all_recs;
static uint32_t next_thread_id;
static pthread_mutex_t recs_lock = PTHREAD_MUTEX_INITIALIZER;

static bool reserve(struct glr_rec *r, size_t extra)
{
    if (r->len + extra <= r->cap)
        return true;
    size_t cap = r->cap ? r->cap : 1u << 20;
    while (cap < r->len + extra)
        cap *= 2;
    if (!glr_capture_may_grow(cap - r->cap)) {
        r->failed = true;
        return false;
    }
    uint8_t *nb = realloc(r->buf, cap);
    if (!nb) {
        r->failed = true;
        glr_capture_fail("out of memory growing a thread's stream buffer");
        return false;
    }
    r->buf = nb;
    r->cap = cap;
    return true;
}

static inline void put_uvar(struct glr_rec *r, uint64_t v)
{
    uint8_t *p = r->buf + r->len;
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    r->len = (size_t)(p - r->buf);
}

static inline void put_svar(struct glr_rec *r, int64_t v)
{
    put_uvar(r, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline void put_raw(struct glr_rec *r, const void *d, size_t n)
{
    memcpy(r->buf + r->len, d, n);
    r->len += n;
}

static void put_value(struct glr_rec *r, int kind, uint64_t v)
{
    switch (kind) {
    case GLR_KIND_I32:
    case GLR_KIND_I64:
        put_svar(r, (int64_t)v);
        break;
    case GLR_KIND_F32: {
        uint32_t b = (uint32_t)v;
        put_raw(r, &b, 4);
        break;
    }
    case GLR_KIND_F64:
        put_raw(r, &v, 8);
        break;
    default:
        put_uvar(r, v);
        break;
    }
}

static struct glr_rec *thread_rec(void)
{
    struct glr_rec *r = tls_rec;
    if (r)
        return r;
    r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    pthread_mutex_lock(&recs_lock);
    r->thread_id = next_thread_id++;
    r->next = all_recs;
    all_recs = r;
    pthread_mutex_unlock(&recs_lock);
    tls_rec = r;
    return r;
}

static struct glr_rec *open_record(int cmd, uint32_t ctx_id)
{
    struct glr_rec *r = thread_rec();
    if (!r)
        return NULL;
    /* busy before the check, checked again by the capture end after it stops recording: either
     * this thread sees the capture stopped, or the capture end sees this thread busy and waits.
     * With membarrier the capture end pays for the store-load ordering (an asymmetric fence) and
     * this path needs only a compiler barrier; without it, a full fence here. */
    if (__builtin_expect(glr_rec_asymmetric, 1)) {
        __atomic_store_n(&r->busy, 1, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&r->busy, 1, __ATOMIC_SEQ_CST);
    }
    uint64_t epoch;
    if (!glr_capture_recording(&epoch)) {
        __atomic_store_n(&r->busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    if (r->epoch != epoch) {
        r->epoch = epoch;
        r->len = 0;
        r->failed = false;
    }
    if (r->failed || !reserve(r, 4 + 4 * 10 + (GLR_MAX_PARAMS + 1) * 10)) {
        __atomic_store_n(&r->busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    r->rec_start = r->len;
    r->len += 4;
    put_uvar(r, (uint64_t)cmd);
    put_uvar(r, glr_capture_next_seq());
    put_uvar(r, ctx_id);
    put_uvar(r, r->thread_id);
    return r;
}

struct glr_rec *glr_rec_begin(int cmd, const uint64_t *args, int nargs, uint64_t ret)
{
    struct glr_rec *r = open_record(cmd, glr_ctx_id(glr_ctx_current()));
    if (!r)
        return NULL;
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    for (int i = 0; i < nargs; i++)
        put_value(r, ci->params[i].kind, args[i]);
    if (ci->ret_kind != GLR_KIND_VOID)
        put_value(r, ci->ret_kind, ret);
    return r;
}

struct glr_rec *glr_rec_begin_pseudo(int pseudo_cmd, uint32_t ctx_id)
{
    return open_record(pseudo_cmd, ctx_id);
}

void glr_rec_uvar(struct glr_rec *r, uint64_t v)
{
    if (!r->failed && reserve(r, 10))
        put_uvar(r, v);
}

void glr_rec_blob(struct glr_rec *r, const void *data, int64_t size)
{
    if (r->failed)
        return;
    if (!data || size <= 0) {
        if (data && size < 0)
            glr_capture_note_unsized(glr_capture_current_cmd(r->buf + r->rec_start + 4));
        reserve(r, 1);
        if (!r->failed)
            put_uvar(r, 0);
        return;
    }
    if (!reserve(r, (size_t)size + 10))
        return;
    put_uvar(r, (uint64_t)size + 1);
    put_raw(r, data, (size_t)size);
}

void glr_rec_string(struct glr_rec *r, const char *s)
{
    glr_rec_blob(r, s, s ? (int64_t)strlen(s) + 1 : 0);
}

/* An array of strings (glShaderSource, glTransformFeedbackVaryings): the blob holds
 * u32 count, then per string u32 length and its bytes (no terminator). */
void glr_rec_strings(struct glr_rec *r, const char *const *strings, int64_t count, const int *lengths)
{
    if (r->failed)
        return;
    if (!strings || count <= 0 || count > (1 << 20)) {
        glr_rec_blob(r, NULL, 0);
        return;
    }
    uint64_t total = 4;
    for (int64_t i = 0; i < count; i++) {
        size_t n = !strings[i] ? 0 : lengths && lengths[i] >= 0 ? (size_t)lengths[i] : strlen(strings[i]);
        total += 4 + n;
    }
    if (!reserve(r, total + 10))
        return;
    put_uvar(r, total + 1);
    uint32_t c32 = (uint32_t)count;
    put_raw(r, &c32, 4);
    for (int64_t i = 0; i < count; i++) {
        uint32_t n = !strings[i] ? 0 : lengths && lengths[i] >= 0 ? (uint32_t)lengths[i] : (uint32_t)strlen(strings[i]);
        put_raw(r, &n, 4);
        if (n)
            put_raw(r, strings[i], n);
    }
}

void glr_rec_end(struct glr_rec *r)
{
    if (r->failed) {
        r->len = r->rec_start;
    } else {
        uint32_t body = (uint32_t)(r->len - r->rec_start - 4);
        memcpy(r->buf + r->rec_start, &body, 4);
    }
    __atomic_store_n(&r->busy, 0, __ATOMIC_RELEASE);
}

void glr_rec_quiesce(void)
{
    if (glr_rec_asymmetric)
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    pthread_mutex_lock(&recs_lock);
    for (struct glr_rec *r = all_recs; r; r = r->next)
        while (__atomic_load_n(&r->busy, __ATOMIC_SEQ_CST) && r != tls_rec)
            sched_yield();
    pthread_mutex_unlock(&recs_lock);
}

/* Merge: every thread's records in global sequence order, appended through `sink`. Each buffer is
 * already in increasing seq order, so this is a k-way merge reading seq from each record head. */
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

int glr_rec_merge(uint64_t epoch, int (*sink)(void *user, const void *data, size_t size), void *user,
                  uint32_t *threads_out)
{
    pthread_mutex_lock(&recs_lock);
    size_t n = 0;
    for (struct glr_rec *r = all_recs; r; r = r->next)
        n++;
    struct glr_rec **live = calloc(n ? n : 1, sizeof *live);
    size_t *pos = calloc(n ? n : 1, sizeof *pos);
    if (!live || !pos) {
        pthread_mutex_unlock(&recs_lock);
        free(live);
        free(pos);
        return -1;
    }
    size_t k = 0;
    for (struct glr_rec *r = all_recs; r; r = r->next)
        if (r->epoch == epoch && r->len)
            live[k++] = r;
    pthread_mutex_unlock(&recs_lock);
    if (threads_out)
        *threads_out = (uint32_t)k;
    int rc = 0;
    for (;;) {
        size_t best = k;
        uint64_t best_seq = UINT64_MAX;
        for (size_t i = 0; i < k; i++) {
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
        if (sink(user, live[best]->buf + pos[best], 4 + (size_t)body) != 0) {
            rc = -1;
            break;
        }
        pos[best] += 4 + (size_t)body;
    }
    free(live);
    free(pos);
    return rc;
}

void glr_rec_release(uint64_t epoch)
{
    /* Free the big buffers of a finished capture; thread records stay registered for reuse. */
    pthread_mutex_lock(&recs_lock);
    for (struct glr_rec *r = all_recs; r; r = r->next)
        if (r->epoch == epoch) {
            free(r->buf);
            r->buf = NULL;
            r->len = r->cap = 0;
        }
    pthread_mutex_unlock(&recs_lock);
}
