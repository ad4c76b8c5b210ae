/* The capture recorder: generated slow paths append each call of a captured frame to the calling
 * thread's stream buffer, already in the file's packed form (docs/GLCAP_FORMAT.md, "Packed command
 * stream"; capture/glcap_packed.h), each thread's buffers one packed stream of their own.
 *
 * Two ways in. Calls with only scalar arguments (no client memory: binds, uniforms, enables, most
 * draws) take the inline fast record below: one TLS load, one bounds check, the record encoded
 * straight into the thread's buffer. Everything else, and any fast record that cannot be taken
 * (first call of a thread or a capture, buffer full, another context current), goes through
 * glr_rec_begin / glr_rec_blob / glr_rec_end in recorder.c, which also (re)arms the fast state.
 */
#ifndef GLR_SHIM_RECORDER_H
#define GLR_SHIM_RECORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "registry/glr_sizes.h"

struct glr_rec;

/* Starts a record of command `cmd` with its packed arguments and return value; NULL when this
 * call is not being recorded (no capture in progress, or the capture failed). */
struct glr_rec *glr_rec_begin(int cmd, const uint64_t *args, int nargs, uint64_t ret)
    __attribute__((visibility("hidden")));
/* Client memory a pointer parameter referenced, size by glr_param_size: GLR_SIZE_UNKNOWN means
 * glreplay cannot size it (the command is listed as unsized); the other negative codes (an offset
 * into a bound buffer, a vertex array pointer) store no data. */
void glr_rec_blob(struct glr_rec *r, const void *data, int64_t size) __attribute__((visibility("hidden")));
void glr_rec_string(struct glr_rec *r, const char *s) __attribute__((visibility("hidden")));
void glr_rec_strings(struct glr_rec *r, const char *const *strings, int64_t count, const int *lengths)
    __attribute__((visibility("hidden")));
void glr_rec_end(struct glr_rec *r) __attribute__((visibility("hidden")));
/* The output parameter `param` of a read-back command (glReadPixels, glGetTexImage,
 * glGetBufferSubData, glGetQueryObject*, ...), after the real call: what it returned to the
 * program, as a read-back description (registry/glr_readback.h; shim/readback_rec.c). */
void glr_rec_readback(struct glr_rec *w, int cmd, int param, const uint64_t *a, const void *ptr)
    __attribute__((visibility("hidden")));
/* Right after a map call recorded while a capture records: what the read mapping held (a
 * GLR_PSEUDO_MAP_READ record; shim/readback_rec.c). */
void glr_rec_map_read(uint32_t ctx, const void *ptr, uint32_t buffer, uint64_t offset, uint64_t length)
    __attribute__((visibility("hidden")));
/* After a program was linked while a capture records (shim/link_names.c). */
void glr_rec_link_names(uint64_t program) __attribute__((visibility("hidden")));

/* Before a draw is recorded: the data of every enabled client-memory vertex array in the vertex
 * range the draw reads, as GLR_PSEUDO_CLIENT_ARRAY events. */
void glr_rec_client_arrays(int cmd, const uint64_t *args) __attribute__((visibility("hidden")));

/* Before a draw is recorded: bytes changed in persistent write mappings (shim/buffer_maps.c). */
void glr_rec_persistent_maps(void) __attribute__((visibility("hidden")));

/* A draw or clear was recorded (a capture then ends when the program destroys its last context). */
void glr_capture_note_draw(void) __attribute__((visibility("hidden")));

/* The size rules of pointer parameters (glr_param_size) read the program's context through this
 * (shim/size_env.c). */
extern const struct glr_size_env glr_rec_size_env __attribute__((visibility("hidden")));

static inline uint64_t glr_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline uint64_t glr_f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

/* ---- Inline fast record ------------------------------------------------------------------------
 * The part of a thread's recorder state the fast record touches (first member of struct glr_rec,
 * one cache line). recorder.c explains the protocol; in short:
 *  - busy: set around every record; the capture end (and a thread that takes over numbering)
 *    waits for it to drop. With membarrier the setter needs only a compiler barrier.
 *  - live == glr_rec_live: this thread's fast state belongs to the capture now recording. The
 *    capture end zeroes glr_rec_live before it waits, so a fast record is either seen busy or
 *    not taken.
 *  - solo: this thread is the only one that has recorded in this capture, so the global sequence
 *    number glr_rec_seq is its alone: a plain increment, no atomic read-modify-write. A second
 *    thread clears it (and waits for this thread to leave its record) before it numbers calls.
 */
#define GLR_REC_FAST_MAX 256  /* bytes a fast record may take at most (gen_registry.py checks) */

struct glr_rec_fast {
    uint8_t *pos;        /* where the next record starts */
    uint8_t *limit;      /* fast records start below this (room for GLR_REC_FAST_MAX); NULL: none */
    uint32_t live;       /* == glr_rec_live while the fast state is valid */
    uint32_t ctx_id;     /* the context current when it was armed */
    int busy;
    int solo;
    /* The previous record of this thread's stream said context ctx_id and this thread: the next
     * record's header may leave both out (packed modes 2 and 3). */
    int same;
    uint64_t last_seq;   /* the previous record's seq */
};
extern __thread struct glr_rec_fast *glr_rec_tls __attribute__((tls_model("initial-exec"), visibility("hidden")));
extern unsigned glr_rec_live __attribute__((visibility("hidden")));
struct glr_rec_counter {
    uint64_t next;
    uint8_t pad[56];
} __attribute__((aligned(64)));
extern struct glr_rec_counter glr_rec_seq __attribute__((visibility("hidden")));
extern bool glr_rec_asymmetric __attribute__((visibility("hidden")));

static inline uint8_t *glr_put_uvar(uint8_t *p, uint64_t v)
{
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static inline uint8_t *glr_put_svar(uint8_t *p, int64_t v)
{
    return glr_put_uvar(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline uint8_t *glr_put_raw4(uint8_t *p, uint64_t bits)
{
    uint32_t b = (uint32_t)bits;
    memcpy(p, &b, 4);
    return p + 4;
}

static inline uint8_t *glr_put_raw8(uint8_t *p, uint64_t bits)
{
    memcpy(p, &bits, 8);
    return p + 8;
}

/* Opens a fast record of command `cmd`: returns where its arguments go (and sets *fields to it),
 * or NULL when the caller must take glr_rec_begin instead. `f` is what glr_rec_join_fast returned
 * before the call was forwarded (NULL: take glr_rec_begin): its fast state was armed for the
 * context current on this thread then, and the call cannot have changed either (a GL call does
 * not make another context current, and only this thread's own records re-arm f), so the context
 * is not compared again; the capture may have ended meanwhile (live), and the buffer may be full.
 * `o` keeps where the record starts, its fields and its mode for the close (in registers: no store
 * and reload through f). The record is written in the packed form of the file (capture/glcap_packed.h), so the writer
 * thread only compresses it: a one-byte tag slot (n << 2 | mode, written at the close), cmd,
 * and seq unless this thread numbers alone (then seq is the previous record's + 1: mode 3; else
 * mode 2). */
/* An open fast record, kept in registers between glr_rec_fast_open and glr_rec_fast_close. */
struct glr_rec_open {
    uint8_t *start;    /* its tag slot */
    uint8_t *fields;   /* its field bytes start here */
    uint32_t mode;     /* its packed mode (2 or 3) */
};

static inline __attribute__((always_inline)) uint8_t *glr_rec_fast_open(struct glr_rec_fast *f, uint32_t cmd,
                                                                        struct glr_rec_open *o)
{
    if (__builtin_expect(!f, 0))
        return NULL;
    if (__builtin_expect(glr_rec_asymmetric, 1)) {
        __atomic_store_n(&f->busy, 1, __ATOMIC_RELAXED);
        __atomic_signal_fence(__ATOMIC_SEQ_CST);
    } else {
        __atomic_store_n(&f->busy, 1, __ATOMIC_SEQ_CST);
    }
    uint8_t *p = f->pos;
    if (__builtin_expect(f->live != __atomic_load_n(&glr_rec_live, __ATOMIC_RELAXED) ||
                         (uintptr_t)p >= (uintptr_t)f->limit || !f->same, 0)) {
        __atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
        return NULL;
    }
    uint8_t *q = glr_put_uvar(p + 1, cmd);
    uint64_t seq;
    if (__builtin_expect(__atomic_load_n(&f->solo, __ATOMIC_RELAXED), 1)) {
        seq = __atomic_load_n(&glr_rec_seq.next, __ATOMIC_RELAXED);
        __atomic_store_n(&glr_rec_seq.next, seq + 1, __ATOMIC_RELAXED);
        o->mode = 3;
    } else {
        seq = __atomic_fetch_add(&glr_rec_seq.next, 1, __ATOMIC_RELAXED);
        o->mode = 2;
        q = glr_put_uvar(q, seq);
    }
    f->last_seq = seq;
    o->start = p;
    o->fields = q;
    return q;
}

/* While recording: the context current on this thread joins the capture's initial state unless it
 * has already (capture.c, shim/snapshot.c glr_snapshot_join). */
void glr_rec_join_slow(void) __attribute__((visibility("hidden")));

/* glr_rec_join_fast is called by a recorded wrapper BEFORE it forwards the call: a context already
 * current on another thread when the capture began must be read back as it was before its first
 * call of the capture ran, not after (a draw, a blend or a sub-image upload would otherwise be in
 * the snapshot and run again at replay). Once this thread has recorded for ctx_id in this capture
 * (its fast state is armed for it), it has joined and this is two loads and a compare, and the
 * answer is that fast state, for the fast record (glr_rec_fast_open, which then need not test the
 * context again; the record is written after the call, or before it: gen_registry.py
 * records_before_call); NULL otherwise, after joining.
 * glr_rec_fast_armed is that test alone: this thread's fast state when it is armed for ctx_id in
 * the capture now recording (the thread has then joined), else NULL, and no join. */
static inline __attribute__((always_inline)) struct glr_rec_fast *glr_rec_fast_armed(uint32_t ctx_id)
{
    struct glr_rec_fast *f = glr_rec_tls;
    if (__builtin_expect(f && f->live == __atomic_load_n(&glr_rec_live, __ATOMIC_RELAXED) && f->ctx_id == ctx_id, 1))
        return f;
    return NULL;
}

static inline __attribute__((always_inline)) struct glr_rec_fast *glr_rec_join_fast(uint32_t ctx_id)
{
    struct glr_rec_fast *f = glr_rec_fast_armed(ctx_id);
    if (__builtin_expect(f != NULL, 1))
        return f;
    glr_rec_join_slow();
    return NULL;
}

static inline void glr_rec_join_before(uint32_t ctx_id)
{
    (void)glr_rec_join_fast(ctx_id);
}

/* Closes the fast record that glr_rec_fast_open started and described in `o`; `end` is one past
 * its last byte. The tag is n << 2 | mode for its n field bytes: one byte up
 * to 31 of them, else two (a fast record has at most GLR_REC_FAST_MAX bytes), the record then
 * moved up by one. */
static inline __attribute__((always_inline)) void glr_rec_fast_close(struct glr_rec_fast *f,
                                                                     const struct glr_rec_open *o, uint8_t *end)
{
    uint8_t *p = o->start;
    uint32_t tag = (uint32_t)(end - o->fields) << 2 | o->mode;
    if (__builtin_expect(tag < 0x80, 1)) {
        *p = (uint8_t)tag;
    } else {
        memmove(p + 2, p + 1, (size_t)(end - p - 1));
        p[0] = (uint8_t)(tag | 0x80);
        p[1] = (uint8_t)(tag >> 7);
        end++;
    }
    f->pos = end;
    __atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
}

/* glr_rec_fast_close for a record whose fields take at most 31 bytes (the generator sums their
 * longest encodings): its tag is always one byte, so no branch to the move and no call to memmove
 * (which would make the generated body save registers for it: gen_registry.py
 * records_before_call). */
static inline __attribute__((always_inline)) void glr_rec_fast_close_short(struct glr_rec_fast *f,
                                                                           const struct glr_rec_open *o, uint8_t *end)
{
    *o->start = (uint8_t)((uint32_t)(end - o->fields) << 2 | o->mode);
    f->pos = end;
    __atomic_store_n(&f->busy, 0, __ATOMIC_RELEASE);
}

#endif
