/* The capture recorder: per-thread stream buffers filled by the generated slow paths.
 *
 * Each thread appends to its own buffer (no lock on the recording path); a global sequence number
 * orders calls across threads, and the buffers are merged by it when the capture ends. A record's
 * 1.0 form (docs/GLCAP_FORMAT.md, "Command stream") is
 *   u32 body_size | body
 *   body = uvar cmd | uvar seq | uvar ctx_id | uvar thread_id | args | ret | blobs
 * args and ret by their registry kind (svar for signed, uvar for unsigned and pointers, 4/8 raw
 * bytes for floats); one blob per pointer parameter: uvar (size + 1) then the bytes, 0 when the
 * call referenced no client memory or glreplay could not size it.
 * A capture's thread buffers hold the records already packed (capture/glcap_packed.h: the seq,
 * context and thread that this thread's previous record predicts left out, the size a varint tag
 * in front), so the writer thread only checks and compresses the blocks of the only recording
 * thread, with no second pass over them; each thread's buffers form one packed stream (the state
 * before a buffer's first record goes with it: glr_rec_segment), which the merge at the capture's
 * end reads back when several threads recorded. The slow path leaves 5 bytes for the tag and
 * moves a record of up to 64 KiB down over the unused ones at its end; a larger one keeps a
 * 5-byte tag (a varint with padding, which every reader reads). Display lists keep the 1.0 form.
 *
 * Calls with only scalar arguments are encoded inline by the generated wrappers
 * (glr_rec_fast_open in recorder.h); the functions here take every other record and arm that
 * fast state. What keeps the fast record cheap and still correct:
 *  - busy / quiesce: a thread marks itself busy, then checks that the capture records. The capture
 *    end stops recording (glr_capture_recording, glr_rec_live = 0), issues an asymmetric fence
 *    (membarrier) and waits for every busy thread: either a record saw the capture stopped or the
 *    end sees it busy. The recording side then needs only a compiler barrier.
 *  - sequence numbers: the first thread to record in a capture owns the counter glr_rec_seq
 *    ("solo") and increments it without an atomic read-modify-write. The next thread to record
 *    (join_capture) clears the owner's solo flag, fences and waits until the owner is out of its
 *    record; from then on every thread numbers its calls with an atomic add. So the numbers stay
 *    unique and increasing in the order calls were recorded, across threads, as before.
 */
#include <stdlib.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <linux/membarrier.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/display_lists.h"
#include "shim/capture_async.h"

/* A capture record's tag slot: a varint of up to 5 bytes says n << 2 | mode for n < 2^33. */
#define GLR_REC_TAG_SLOT 5u
/* Records up to this size move down over the slot's unused bytes (the tag in its shortest form);
 * larger ones (big uploads) keep the padded slot rather than being copied again. */
#define GLR_REC_MOVE_MAX ((size_t)64 << 10)

struct glr_rec {
    struct glr_rec_fast f;  /* first: the fast record casts between the two */
    uint8_t *buf, *end;     /* the buffer; f.pos is where the next record starts */
    uint8_t *rec_start;     /* the open record's size field (its tag slot in a capture buffer) */
    /* A capture buffer: the open record's mode and header, and where its field bytes start
     * (after rec_start); what the thread's previous record said (seq in f.last_seq). */
    unsigned open_mode;
    uint32_t open_fields;
    uint64_t open_seq, open_cmd;
    uint32_t open_ctx;
    uint64_t last_ctx, last_tid;
    /* The state before the first record of the buffer now filled (glr_rec_segment). */
    uint64_t seg_seq, seg_ctx, seg_tid;
    uint32_t thread_id;
    uint64_t epoch;         /* capture this buffer belongs to */
    uint64_t seq_epoch;     /* capture in which this thread has joined the numbering */
    bool failed;
    /* A display list's recorder (display_lists.h): a malloc'd buffer of its own, grown within the
     * lists' memory cap, never armed for fast records. */
    bool list;
    int mirror_cmd;         /* capture record also copied into the open list: its cmd; -1: not */
    struct glr_rec *next;
};

/* Whether membarrier(PRIVATE_EXPEDITED) is registered (set once, before any capture records). */
GLR_HIDDEN bool glr_rec_asymmetric;
/* Non-zero while a capture may take fast records: a generation number, new for every capture. */
GLR_HIDDEN unsigned glr_rec_live;
/* The global sequence number; alone on its cache line (its owner writes it on every call). */
GLR_HIDDEN struct glr_rec_counter glr_rec_seq;
GLR_HIDDEN __thread struct glr_rec_fast *glr_rec_tls __attribute__((tls_model("initial-exec")));

static struct glr_rec *all_recs;
static uint32_t next_thread_id;
static pthread_mutex_t recs_lock = PTHREAD_MUTEX_INITIALIZER;
/* Joining the numbering of a capture: seq_epoch is the capture numbered, seq_owner the thread
 * that numbers alone (NULL once two threads record). */
static pthread_mutex_t join_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t seq_epoch;
static struct glr_rec *seq_owner;
static unsigned live_gen;
/* The file job the capture now recording streams its full blocks to (capture_async.c), and that
 * capture's epoch; NULL when none. Set and cleared by capture.c while no record is in flight. */
static struct glr_capture_job *stream_job;
static uint64_t stream_epoch;
/* The recorder of the display list open on this thread (glNewList .. glEndList); NULL otherwise. */
static __thread struct glr_rec *tls_list __attribute__((tls_model("initial-exec")));

static void full_fence_others(void)
{
    if (glr_rec_asymmetric)
        syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
    else
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void wait_not_busy(struct glr_rec *r)
{
    while (__atomic_load_n(&r->f.busy, __ATOMIC_ACQUIRE))
        sched_yield();
}

/* Every thread out of its record (but the caller's own, which may be open). */
static void wait_all_records(void)
{
    full_fence_others();
    struct glr_rec *self = (struct glr_rec *)glr_rec_tls;
    pthread_mutex_lock(&recs_lock);
    for (struct glr_rec *r = all_recs; r; r = r->next)
        if (r != self)
            wait_not_busy(r);
    pthread_mutex_unlock(&recs_lock);
}

/* At the start of every capture (capture.c, before it records): fences once, and invalidates the
 * fast state of every thread, waiting for any record still in flight from a dropped capture. */
void glr_rec_setup_fences(void)
{
    static bool done;
    if (!done) {
        done = true;
        glr_rec_asymmetric = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
    }
    __atomic_store_n(&glr_rec_live, 0, __ATOMIC_SEQ_CST);
    wait_all_records();
    if (++live_gen == 0)
        live_gen = 1;
    __atomic_store_n(&glr_rec_live, live_gen, __ATOMIC_SEQ_CST);
}

/* The calling thread takes part in the numbering of capture `epoch`. Called with its busy clear:
 * it may wait for the owner, and the capture end may wait for it. */
static void join_capture(struct glr_rec *r, uint64_t epoch)
{
    pthread_mutex_lock(&join_lock);
    if (seq_epoch != epoch) {
        /* First to record in this capture: nobody else numbers calls of it yet. */
        seq_epoch = epoch;
        seq_owner = r;
        __atomic_store_n(&glr_rec_seq.next, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&r->f.solo, 1, __ATOMIC_RELAXED);
    } else {
        __atomic_store_n(&r->f.solo, 0, __ATOMIC_RELAXED);
        struct glr_rec *o = seq_owner;
        if (o && o != r) {
            /* The owner stops numbering alone: after the fence, a record of its either sees
             * solo == 0 or is seen busy here; once it is out, its plain increments are visible. */
            __atomic_store_n(&o->f.solo, 0, __ATOMIC_SEQ_CST);
            full_fence_others();
            wait_not_busy(o);
            seq_owner = NULL;
        }
    }
    r->seq_epoch = epoch;
    pthread_mutex_unlock(&join_lock);
}

static uint64_t next_seq(struct glr_rec *r)
{
    if (__atomic_load_n(&r->f.solo, __ATOMIC_RELAXED)) {
        uint64_t s = __atomic_load_n(&glr_rec_seq.next, __ATOMIC_RELAXED);
        __atomic_store_n(&glr_rec_seq.next, s + 1, __ATOMIC_RELAXED);
        return s;
    }
    return __atomic_fetch_add(&glr_rec_seq.next, 1, __ATOMIC_RELAXED);
}

static void disarm_fast(struct glr_rec *r)
{
    r->f.limit = NULL;
}

/* The packed stream of this thread's buffers starts afresh (a new capture): the state of
 * glcap_pack_init. */
static void reset_pack_state(struct glr_rec *r)
{
    r->f.last_seq = r->seg_seq = UINT64_MAX;
    r->last_ctx = r->last_tid = r->seg_ctx = r->seg_tid = 0;
    r->f.same = 0;
}

static void rec_fail(struct glr_rec *r)
{
    r->failed = true;
    disarm_fast(r);
    /* The capture is dropped: no thread takes fast records of it any more. */
    unsigned live = r->f.live;
    if (live)
        __atomic_compare_exchange_n(&glr_rec_live, &live, 0, false, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

static bool list_reserve(struct glr_rec *r, size_t len, size_t cap, size_t extra);

void glr_rec_stream_to(struct glr_capture_job *job, uint64_t epoch)
{
    stream_job = job;
    stream_epoch = epoch;
}

/* Called with this thread busy in a record whose buffer is full. While it is the only thread that
 * has recorded in the capture (solo: see the top of this file), its whole records go to the writer
 * thread as one block and it records on in a fresh buffer. Every record of the block numbers below
 * any record still to come from any thread: a second thread clears solo and waits for this one to
 * leave its record before it takes a number. So the file's stream is the blocks in the order they
 * came, then the merge of what the threads hold at the end. False: no hand-off (the caller grows
 * the buffer as before), or the capture was dropped (r->failed). */
static bool stream_block(struct glr_rec *r, size_t len, size_t cap, size_t extra)
{
    struct glr_capture_job *job = stream_job;
    if (!job || r->epoch != stream_epoch || !__atomic_load_n(&r->f.solo, __ATOMIC_RELAXED))
        return false;
    size_t whole = r->rec_start ? (size_t)(r->rec_start - r->buf) : len;   /* the open record stays */
    size_t open = len - whole;
    if (whole < cap / 2 || open + extra > GLR_STREAM_BLOCK)
        return false;   /* mostly one big record (a large upload): grow instead */
    uint8_t *nb = glr_wq_take_buffer();
    if (!nb)
        return false;
    memcpy(nb, r->buf + whole, open);
    if (!glr_wq_block(job, r->buf, whole, cap, r->thread_id)) {
        r->buf = r->end = r->f.pos = r->rec_start = NULL;
        munmap(nb, GLR_STREAM_BLOCK);
        rec_fail(r);
        glr_capture_fail("the capture writer fell behind (its queue stayed full) or belongs to the parent "
                         "process; nothing more is recorded");
        return false;
    }
    bool had_open = r->rec_start != NULL;
    r->seg_seq = r->f.last_seq;   /* the open record (if any) was packed after the last one handed over */
    r->seg_ctx = r->last_ctx;
    r->seg_tid = r->last_tid;
    r->buf = nb;
    r->end = nb + GLR_STREAM_BLOCK;
    r->f.pos = nb + open;
    r->rec_start = had_open ? nb : NULL;
    if (r->f.limit)
        r->f.limit = r->end - GLR_REC_FAST_MAX + 1;
    return true;
}

static bool reserve(struct glr_rec *r, size_t extra)
{
    size_t len = (size_t)(r->f.pos - r->buf), cap = (size_t)(r->end - r->buf);
    if (len + extra <= cap)
        return true;
    if (r->list)
        return list_reserve(r, len, cap, extra);
    if (cap && stream_block(r, len, cap, extra))
        return true;
    if (r->failed)
        return false;
    size_t ncap = cap ? cap : (size_t)2 << 20;  /* one huge page */
    while (ncap < len + extra)
        ncap *= 2;
    if (!glr_capture_may_grow(ncap - cap)) {
        rec_fail(r);
        return false;
    }
    size_t open = r->rec_start ? (size_t)(r->rec_start - r->buf) : 0;
    /* Buffers are mappings of their own (grown with mremap, no copy) with transparent huge pages
     * (THP is "madvise" on Debian): a stream buffer is written once, front to back, so 4 KiB page
     * faults were a visible share of every record's cost. */
    void *m = r->buf ? mremap(r->buf, cap, ncap, MREMAP_MAYMOVE)
                     : mmap(NULL, ncap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        rec_fail(r);
        glr_capture_fail("out of memory growing a thread's stream buffer");
        return false;
    }
    uint8_t *nb = m;
    madvise(nb, ncap, MADV_HUGEPAGE);
    r->buf = nb;
    r->end = nb + ncap;
    r->f.pos = nb + len;
    if (r->rec_start)
        r->rec_start = nb + open;
    if (r->f.limit)  /* still armed: the same room, in the new buffer */
        r->f.limit = r->end - GLR_REC_FAST_MAX + 1;
    return true;
}

static inline void put_uvar(struct glr_rec *r, uint64_t v)
{
    r->f.pos = glr_put_uvar(r->f.pos, v);
}

static inline void put_raw(struct glr_rec *r, const void *d, size_t n)
{
    memcpy(r->f.pos, d, n);
    r->f.pos += n;
}

static void put_value(struct glr_rec *r, int kind, uint64_t v)
{
    switch (kind) {
    case GLR_KIND_I32:
    case GLR_KIND_I64:
        r->f.pos = glr_put_svar(r->f.pos, (int64_t)v);
        break;
    case GLR_KIND_F32:
        r->f.pos = glr_put_raw4(r->f.pos, v);
        break;
    case GLR_KIND_F64:
        r->f.pos = glr_put_raw8(r->f.pos, v);
        break;
    default:
        put_uvar(r, v);
        break;
    }
}

static struct glr_rec *thread_rec(void)
{
    struct glr_rec *r = (struct glr_rec *)glr_rec_tls;
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
    glr_rec_tls = &r->f;
    return r;
}

static void set_busy(struct glr_rec *r)
{
    if (__builtin_expect(glr_rec_asymmetric, 1)) {
        __atomic_store_n(&r->f.busy, 1, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&r->f.busy, 1, __ATOMIC_SEQ_CST);
    }
}

/* After a record opened by the slow path: let the next calls of this thread take fast records
 * while the capture, the context and the buffer stay as they are. */
static void arm_fast(struct glr_rec *r, unsigned live, uint32_t ctx_id)
{
    /* While a display list is open here every call also goes to the list: no fast records. */
    if (!live || r->failed || tls_list || (size_t)(r->end - r->buf) < GLR_REC_FAST_MAX) {
        disarm_fast(r);
        return;
    }
    r->f.live = live;
    r->f.ctx_id = ctx_id;
    r->f.same = ctx_id == r->last_ctx && r->thread_id == r->last_tid;
    r->f.limit = r->end - GLR_REC_FAST_MAX + 1;
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
    uint64_t epoch;
    unsigned live;
    for (;;) {
        set_busy(r);
        live = __atomic_load_n(&glr_rec_live, __ATOMIC_RELAXED);
        if (!glr_capture_recording(&epoch)) {
            __atomic_store_n(&r->f.busy, 0, __ATOMIC_RELEASE);
            return NULL;
        }
        if (r->seq_epoch == epoch)
            break;
        __atomic_store_n(&r->f.busy, 0, __ATOMIC_RELEASE);
        join_capture(r, epoch);
    }
    if (r->epoch != epoch) {
        r->epoch = epoch;
        r->f.pos = r->buf;
        r->failed = false;
        reset_pack_state(r);
    }
    size_t need = GLR_REC_TAG_SLOT + 4 * 10 + (GLR_MAX_PARAMS + 1) * 10;
    if (need < GLR_REC_FAST_MAX)
        need = GLR_REC_FAST_MAX;
    r->rec_start = NULL;
    if (r->failed || !reserve(r, need)) {
        __atomic_store_n(&r->f.busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    if (cmd < GLR_CMD_COUNT)
        arm_fast(r, live, ctx_id);
    /* Packed against this thread's previous record: the tag slot, cmd, then what it does not
     * predict. */
    uint64_t seq = next_seq(r);
    bool next = seq == r->f.last_seq + 1, same = ctx_id == r->last_ctx && r->thread_id == r->last_tid;
    r->open_mode = (next ? 1u : 0u) | (same ? 2u : 0u);
    r->open_seq = seq;
    r->open_cmd = (uint64_t)cmd;
    r->open_ctx = ctx_id;
    r->rec_start = r->f.pos;
    r->f.pos += GLR_REC_TAG_SLOT;
    put_uvar(r, (uint64_t)cmd);
    if (!next)
        put_uvar(r, seq);
    if (!same) {
        put_uvar(r, ctx_id);
        put_uvar(r, r->thread_id);
    }
    /* Mode 0 keeps the whole 1.0 body (cmd on): its n counts from the slot's end. */
    r->open_fields = r->open_mode ? (uint32_t)(r->f.pos - r->rec_start) : GLR_REC_TAG_SLOT;
    r->mirror_cmd = tls_list && glr_dl_compiled(cmd) ? cmd : -1;
    return r;
}

/* A record that goes only to the display list open on this thread (no capture records it). The
 * list's records number their calls from 0 (seq) and carry thread id 0. */
static struct glr_rec *open_list_record(int cmd, uint32_t ctx_id)
{
    struct glr_rec *l = tls_list;
    if (!l || l->failed || !glr_dl_compiled(cmd))
        return NULL;
    l->rec_start = NULL;
    if (!reserve(l, 4 + 4 * 10 + (GLR_MAX_PARAMS + 1) * 10))
        return NULL;
    l->rec_start = l->f.pos;
    l->f.pos += 4;
    put_uvar(l, (uint64_t)cmd);
    put_uvar(l, l->seq_epoch++);
    put_uvar(l, ctx_id);
    put_uvar(l, 0);
    l->mirror_cmd = -1;
    return l;
}

static struct glr_rec *open_any_record(int cmd, uint32_t ctx_id)
{
    struct glr_rec *r = open_record(cmd, ctx_id);
    if (!r && __builtin_expect(tls_list != NULL, 0))
        r = open_list_record(cmd, ctx_id);
    return r;
}

struct glr_rec *glr_rec_begin(int cmd, const uint64_t *args, int nargs, uint64_t ret)
{
    struct glr_rec *r = open_any_record(cmd, glr_ctx_current_id());
    if (!r)
        return NULL;
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    for (int i = 0; i < nargs; i++)
        put_value(r, glr_cmd_params(ci)[i].kind, args[i]);
    if (ci->ret_kind != GLR_KIND_VOID)
        put_value(r, ci->ret_kind, ret);
    return r;
}

struct glr_rec *glr_rec_begin_pseudo(int pseudo_cmd, uint32_t ctx_id)
{
    return open_any_record(pseudo_cmd, ctx_id);
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
        if (data && size == GLR_SIZE_UNKNOWN && !r->list)
            glr_capture_note_unsized((int)r->open_cmd);
        if (reserve(r, 1))
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

static void list_append(struct glr_rec *l, const struct glr_rec *r, const uint8_t *fields, size_t n);

/* Writes the open capture record's tag (its field bytes are known now) and takes its header as the
 * state the next record is packed against. */
static void close_packed(struct glr_rec *r)
{
    uint8_t *start = r->rec_start, *after_slot = start + GLR_REC_TAG_SLOT;
    uint64_t n = (uint64_t)(r->f.pos - (start + r->open_fields));
    uint64_t tag = n << 2 | r->open_mode;
    size_t rest = (size_t)(r->f.pos - after_slot);
    uint8_t t[GLR_REC_TAG_SLOT];
    uint8_t *e = glr_put_uvar(t, tag);
    size_t k = (size_t)(e - t);
    if (k < GLR_REC_TAG_SLOT && rest <= GLR_REC_MOVE_MAX) {
        memmove(start + k, after_slot, rest);
        memcpy(start, t, k);
        r->f.pos -= GLR_REC_TAG_SLOT - k;
    } else {
        /* Padded to the slot: continuation bytes that add nothing (tag < 2^35: n < 2^33). */
        for (unsigned i = 0; i < GLR_REC_TAG_SLOT - 1; i++)
            start[i] = (uint8_t)((tag >> (7 * i)) | 0x80);
        start[GLR_REC_TAG_SLOT - 1] = (uint8_t)(tag >> (7 * (GLR_REC_TAG_SLOT - 1)));
    }
    r->f.last_seq = r->open_seq;
    r->last_ctx = r->open_ctx;
    r->last_tid = r->thread_id;
    r->f.same = r->open_ctx == r->f.ctx_id;
}

void glr_rec_end(struct glr_rec *r)
{
    if (r->failed) {
        if (r->rec_start)
            r->f.pos = r->rec_start;
        if (__builtin_expect(r->mirror_cmd >= 0, 0) && tls_list && !r->list)
            tls_list->failed = true;  /* the call is lost to the list too: it is dropped, and said */
    } else if (r->list) {
        uint32_t body = (uint32_t)(r->f.pos - r->rec_start - 4);
        memcpy(r->rec_start, &body, 4);
    } else {
        if (__builtin_expect(r->mirror_cmd >= 0, 0) && tls_list) {
            const uint8_t *fields = r->rec_start + r->open_fields;
            list_append(tls_list, r, fields, (size_t)(r->f.pos - fields));
        }
        close_packed(r);
    }
    r->mirror_cmd = -1;
    r->rec_start = NULL;
    __atomic_store_n(&r->f.busy, 0, __ATOMIC_RELEASE);
}

/* ---- Display lists (display_lists.h) ---------------------------------------------------------- */

/* Grows a list's buffer (malloc'd, doubling from 4 KiB) within the lists' memory cap. */
static bool list_reserve(struct glr_rec *r, size_t len, size_t cap, size_t extra)
{
    size_t ncap = cap ? cap : 4096;
    while (ncap < len + extra)
        ncap *= 2;
    if (!glr_dl_may_grow(ncap - cap)) {
        r->failed = true;
        return false;
    }
    uint8_t *nb = realloc(r->buf, ncap);
    if (!nb) {
        glr_dl_release_bytes(ncap - cap);
        r->failed = true;
        return false;
    }
    size_t open = r->rec_start ? (size_t)(r->rec_start - r->buf) : 0;
    r->buf = nb;
    r->end = nb + ncap;
    r->f.pos = nb + len;
    if (r->rec_start)
        r->rec_start = nb + open;
    return true;
}

/* A copy of the open capture record r, in the 1.0 form, into the open list l. `fields` are the
 * record's bytes after its packed header (mode 0: the whole 1.0 body). */
static void list_append(struct glr_rec *l, const struct glr_rec *r, const uint8_t *fields, size_t n)
{
    if (l->failed || !reserve(l, 4 + 4 * 10 + n))
        return;
    uint8_t *start = l->f.pos;
    l->f.pos += 4;
    if (r->open_mode) {
        put_uvar(l, r->open_cmd);
        put_uvar(l, r->open_seq);
        put_uvar(l, r->open_ctx);
        put_uvar(l, r->thread_id);
    }
    put_raw(l, fields, n);
    uint32_t body = (uint32_t)(l->f.pos - start - 4);
    memcpy(start, &body, 4);
}

bool glr_rec_list_open(void)
{
    if (tls_list)
        return false;
    struct glr_rec *l = calloc(1, sizeof *l);
    if (!l)
        return false;
    l->list = true;
    l->mirror_cmd = -1;
    tls_list = l;
    /* This thread's capture fast state (if armed) must not take the list's calls past the list. */
    struct glr_rec *r = (struct glr_rec *)glr_rec_tls;
    if (r)
        disarm_fast(r);
    return true;
}

bool glr_rec_list_is_open(void)
{
    return tls_list != NULL;
}

uint8_t *glr_rec_list_close(size_t *size, size_t *reserved, bool *failed)
{
    struct glr_rec *l = tls_list;
    tls_list = NULL;
    if (!l) {
        *size = *reserved = 0;
        *failed = true;
        return NULL;
    }
    uint8_t *buf = l->buf;
    *size = l->buf ? (size_t)(l->f.pos - l->buf) : 0;
    *reserved = (size_t)(l->end - l->buf);
    *failed = l->failed;
    free(l);
    return buf;
}

void glr_rec_quiesce(void)
{
    /* Recording has stopped (capture.c): no fast record starts after this. */
    __atomic_store_n(&glr_rec_live, 0, __ATOMIC_SEQ_CST);
    wait_all_records();
}

struct glr_rec_segment *glr_rec_detach(uint64_t epoch, unsigned *n_out)
{
    pthread_mutex_lock(&recs_lock);
    unsigned n = 0;
    for (struct glr_rec *r = all_recs; r; r = r->next)
        n++;
    struct glr_rec_segment *segs = calloc(n ? n : 1, sizeof *segs);
    unsigned k = 0;
    if (!segs) {
        pthread_mutex_unlock(&recs_lock);
        *n_out = 0;
        return NULL;
    }
    for (struct glr_rec *r = all_recs; r; r = r->next) {
        if (r->epoch != epoch || !r->buf)
            continue;
        segs[k++] = (struct glr_rec_segment){ .buf = r->buf, .len = (size_t)(r->f.pos - r->buf),
                                              .cap = (size_t)(r->end - r->buf), .thread_id = r->thread_id,
                                              .seq0 = r->seg_seq, .ctx0 = r->seg_ctx, .tid0 = r->seg_tid };
        r->buf = r->end = r->f.pos = NULL;
        r->f.limit = NULL;
    }
    pthread_mutex_unlock(&recs_lock);
    *n_out = k;
    return segs;
}

/* Each segment is in increasing seq order, so this is a k-way merge reading seq from each record
 * head. */
void glr_rec_release(uint64_t epoch)
{
    /* Free the big buffers of a finished capture; thread records stay registered for reuse. */
    pthread_mutex_lock(&recs_lock);
    for (struct glr_rec *r = all_recs; r; r = r->next)
        if (r->epoch == epoch) {
            if (r->buf)
                munmap(r->buf, (size_t)(r->end - r->buf));
            r->buf = r->end = r->f.pos = NULL;
            r->f.limit = NULL;
        }
    pthread_mutex_unlock(&recs_lock);
}
