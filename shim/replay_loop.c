/* The in-process replay loop's passes (see replay_loop.h and docs/REPLAY.md): the capture file is
 * loaded and validated (replay/player); the first pass restores its initial state
 * (replay/restore.c) on a fresh loop context current on the program's drawable, later passes reset
 * what the frame changed (replay/player/pass_reset.h) or start afresh; each pass re-issues the
 * command stream through the replay dispatcher, whose functions are the driver's real ones, and
 * each captured swap swaps that drawable. Frames of several contexts are replayed on this thread in
 * their recorded order, each captured context on a loop context of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include <time.h>
#include "shim/shim_internal.h"
#include "shim/capture_file.h"
#include "shim/replay_loop.h"
#include "shim/replay_loop_internal.h"
#include "replay/replay.h"
#include "replay/player/player.h"
#include "replay/player/pass_reset.h"
#include "replay/restore_reset.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

struct loop_run {
    struct glrh_capture *cap;
    struct glr_restore *snapshot;
    struct glr_dispatch *disp;
    struct glrh_reset *reset;      /* passes after the first keep the context and objects */
    uint32_t frame_ctx;            /* the captured context that swapped: its loop context swaps the window */
    const struct glrh_context *desc;
    struct glr_loop_ws ws;
    bool unsized[GLR_CMD_COUNT];   /* commands whose client memory the recorder could not size */
    bool verify;
    bool prep;                     /* fresh passes run on a thread of their own (GLX, live) */
    bool swap_pending;             /* such a pass swapped: the render thread shows its image */
    uint64_t pending_frame;        /* the captured frame that swap ended (for verify) */
    bool test_skip_draws;          /* GLREPLAY_REPLAY_LOOP_TEST_SKIP_DRAWS=1: a wrong frame, for tests */
    unsigned pass;                 /* 0-based, of this run */
    void **copies;                 /* client-array copies alive until their draw ran */
    size_t n_copies, cap_copies;
    bool copies_drawn;
    uint64_t missing, bad;         /* calls not replayed, over the run */
    const char *first_problem;
    unsigned frames_identical, frames_differing;
};

static int loop_busy;   /* one loop at a time in the process */
/* Set by glr_replay_loop_interrupt (another thread: a live session ended): the pass in progress
 * stops at its next call, so the program resumes within a call instead of after a whole pass. */
static int loop_interrupted;
static uint64_t interrupted_at_ns;   /* CLOCK_MONOTONIC of the first interrupt of the loop (0: none) */

void glr_replay_loop_interrupt(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t expect = 0, now = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    __atomic_compare_exchange_n(&interrupted_at_ns, &expect, now, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    __atomic_store_n(&loop_interrupted, 1, __ATOMIC_RELEASE);
}

uint64_t glr_replay_loop_interrupted_at(void)
{
    return __atomic_load_n(&interrupted_at_ns, __ATOMIC_RELAXED);
}

/* ---- dispatcher callbacks: the driver's real functions, the capture's namespaces ---- */

static void *real_proc(void *user, const char *name)
{
    struct loop_run *r = user;
    glr_proc p = glr_lookup_exported(name);
    if (!p) {
        if (r->ws.api == GLR_CTX_GLX)
            p = (glr_proc)GLR_REAL(glXGetProcAddressARB)((const GLubyte *)name);
        else
            p = (glr_proc)GLR_REAL(eglGetProcAddress)(name);
    }
    void *v;
    memcpy(&v, &p, sizeof v);
    return v;
}

static uint32_t capture_namespace(void *user, uint32_t ctx_id, int obj_class)
{
    struct loop_run *r = user;
    return glrh_namespace(r->cap, ctx_id, obj_class);
}

static int restore_make_current(void *user, uint32_t ctx_id)
{
    struct loop_run *r = user;
    return glr_loop_ws_make_current(&r->ws, ctx_id);
}

/* ---- client-memory vertex arrays (CLIENT_ARRAY records) ---- */

static void free_copies(struct loop_run *r)
{
    for (size_t i = 0; i < r->n_copies; i++)
        free(r->copies[i]);
    r->n_copies = 0;
    r->copies_drawn = false;
}

static unsigned vertex_bytes(uint64_t size, uint64_t type)
{
    unsigned comps = size == GL_BGRA ? 4 : (unsigned)size;
    switch (type) {
    case GL_BYTE: case GL_UNSIGNED_BYTE: return comps;
    case GL_SHORT: case GL_UNSIGNED_SHORT: case GL_HALF_FLOAT: return comps * 2;
    case GL_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_2_10_10_10_REV: case GL_UNSIGNED_INT_10F_11F_11F_REV: return 4;
    case GL_DOUBLE: return comps * 8;
    default: return comps * 4;                              /* INT, UNSIGNED_INT, FLOAT, FIXED */
    }
}

/* args: index, size, type, normalized, integer, stride, first vertex, captured pointer; blob: the
 * bytes from the first vertex on. The pointer handed to GL is moved back by `first` vertices so
 * vertex `first` lands on the copy. */
static int client_array(struct loop_run *r, const struct glr_call *c)
{
    if (r->copies_drawn)
        free_copies(r);
    if (r->n_copies == r->cap_copies) {
        size_t cap = r->cap_copies ? r->cap_copies * 2 : 16;
        void **n = realloc(r->copies, cap * sizeof *n);
        if (!n)
            return GLR_DISPATCH_BAD;
        r->copies = n;
        r->cap_copies = cap;
    }
    size_t size = c->blobs[0].size;
    void *mem = malloc(size ? size : 1);
    if (!mem)
        return GLR_DISPATCH_BAD;
    if (size)
        memcpy(mem, c->blobs[0].data, size);
    r->copies[r->n_copies++] = mem;
    unsigned stride = c->args[5] ? (unsigned)c->args[5] : vertex_bytes(c->args[1], c->args[2]);
    uintptr_t base = (uintptr_t)mem - (uintptr_t)c->args[6] * stride;
    GLint array_buf = 0;
    GLR_REAL(glGetIntegerv)(GL_ARRAY_BUFFER_BINDING, &array_buf);
    if (array_buf)
        GLR_REAL(glBindBuffer)(GL_ARRAY_BUFFER, 0);
    if (c->args[4])
        GLR_REAL(glVertexAttribIPointer)((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2],
                                         (GLsizei)c->args[5], (const void *)base);
    else
        GLR_REAL(glVertexAttribPointer)((GLuint)c->args[0], (GLint)c->args[1], (GLenum)c->args[2],
                                        (GLboolean)c->args[3], (GLsizei)c->args[5], (const void *)base);
    if (array_buf)
        GLR_REAL(glBindBuffer)(GL_ARRAY_BUFFER, (GLuint)array_buf);
    return GLR_DISPATCH_OK;
}

/* A call passing client memory the recorder could not size (its bytes are not in the capture):
 * replaying it would hand the driver an address of the capture's past. */
static bool lacks_client_memory(const struct loop_run *r, const struct glr_call *c)
{
    return glr_call_lacks_client_memory(r->unsized, c);
}

static void count(struct loop_run *r, int k, uint32_t cmd)
{
    if (k == GLR_DISPATCH_MISSING || k == GLR_DISPATCH_BAD) {
        if (k == GLR_DISPATCH_MISSING)
            r->missing++;
        else
            r->bad++;
        if (!r->first_problem)
            r->first_problem = glr_call_name(cmd);
    }
}

/* ---- swaps: optional check against the reference image, then the real swap ---- */

static const struct glrh_image *reference_of(const struct loop_run *r, uint64_t frame)
{
    for (unsigned i = 0; i < r->cap->n_images; i++)
        if (r->cap->images[i].frame == frame && r->cap->images[i].ctx_id == r->frame_ctx)
            return &r->cap->images[i];
    /* A frame the capture keeps only as a hash of its image (GLREPLAY_CAPTURE_IMAGES). */
    for (unsigned i = 0; i < r->cap->n_hashes; i++)
        if (r->cap->hashes[i].frame == frame && r->cap->hashes[i].ctx_id == r->frame_ctx && !r->cap->hashes[i].fbo)
            return &r->cap->hashes[i];
    return NULL;
}

static void verify_swap(struct loop_run *r, uint64_t frame)
{
    const struct glrh_image *ref = reference_of(r, frame);
    struct glr_ref_image img;
    if (!ref) {
        glr_log(GLR_LOG_WARN, "replay loop: pass %u: frame %llu has no reference image to compare with", r->pass + 1,
                (unsigned long long)frame);
        return;
    }
    if (glr_read_back_buffer(r->ws.api, r->ws.display, r->ws.target, &img) != 0) {
        glr_log(GLR_LOG_WARN, "replay loop: pass %u: frame %llu: cannot read the back buffer", r->pass + 1,
                (unsigned long long)frame);
        return;
    }
    size_t differing = 0, total = (size_t)img.width * img.height;
    if (img.width != ref->width || img.height != ref->height) {
        differing = total;
    } else if (!ref->pixels) {
        differing = XXH3_64bits(img.pixels, total * 4) != ref->hash ? total : 0;   /* which ones: unknown */
    } else {
        for (size_t p = 0; p < total; p++)
            differing += memcmp(img.pixels + 4 * p, ref->pixels + 4 * p, 4) != 0;
    }
    free(img.pixels);
    if (!differing) {
        r->frames_identical++;
        glr_log(GLR_LOG_INFO, "replay loop: pass %u: frame %llu: identical to reference", r->pass + 1,
                (unsigned long long)frame);
    } else {
        r->frames_differing++;
        glr_log(GLR_LOG_WARN, "replay loop: pass %u: frame %llu: differs from reference (%zu of %zu pixels)",
                r->pass + 1, (unsigned long long)frame, differing, total);
    }
}

/* ---- the live debugger's passes on fresh contexts, run off the render thread (replay_loop_prep.c) ---- */

static void log_restore_stats(const struct glr_restore_stats *st)
{
    if (st->calls_failed || st->contents_failed)
        glr_log(GLR_LOG_WARN, "replay loop: initial state: %llu of %llu restore calls failed (first: %s), %u "
                "framebuffer image(s) not restored", (unsigned long long)st->calls_failed,
                (unsigned long long)st->calls, st->first_failed ? st->first_failed : "-", st->contents_failed);
}

static int run_stream(struct loop_run *r, char *err, size_t n);

/* On the pass's own thread: the loop contexts, the swapping one on a pbuffer standing in for the
 * window, the whole initial state restored on them and the frame drawn (the slow, uninterruptible
 * calls: the restore's first blit, the first draws' shader compiles). */
static int prep_work(void *user, char *err, size_t n)
{
    struct loop_run *r = user;
    struct glr_restore_stats st;
    r->ws.offscreen = true;
    int rc = glr_loop_ws_create(&r->ws, err, n);
    if (rc == 0 && r->snapshot) {
        rc = glr_restore_run(r->snapshot, r->disp, restore_make_current, r, &st, err, n);
        if (rc == 0 && r->pass == 0)
            log_restore_stats(&st);
        else if (rc == GLR_RESTORE_INTERRUPTED)
            rc = 0;   /* the session ended: the render thread sees the interrupt too */
    }
    if (rc == 0 && !__atomic_load_n(&loop_interrupted, __ATOMIC_ACQUIRE))
        rc = run_stream(r, err, n);   /* the frame itself, on the stand-in: first draws compile here */
    glr_loop_ws_release(&r->ws);   /* the render thread binds them from here on */
    return rc;
}

static void free_run(struct loop_run *r);

static void verify_shown(void *user)
{
    struct loop_run *r = user;
    verify_swap(r, r->pending_frame);
}

/* On the preparing thread, when the render thread went back to the program meanwhile. */
static void prep_orphaned(void *user)
{
    struct loop_run *r = user;
    glr_loop_ws_discard(&r->ws);
    free_run(r);
}

/* A pass on fresh contexts (the first, or every one when the frame's effects cannot be undone):
 * made, restored and drawn on a thread of its own, the window's part on a pbuffer standing in for
 * it; then this thread shows the image in the window (one blit, one swap). 0 (done, or interrupted),
 * -1 (err), or 1: the session ended first, and r now belongs to that thread (the caller must not
 * touch it). */
static int prepared_pass(struct loop_run *r, char *err, size_t n)
{
    if (r->ws.switched) {
        /* The previous pass's contexts go first, the program's context current again meanwhile:
         * if the session ends during this pass, this thread returns to the program as it is. */
        if (glr_loop_ws_restore(&r->ws, err, n) != 0)
            return -1;
        if (r->snapshot)
            glr_restore_forget_copies(r->snapshot);   /* its uploads died with those contexts */
    }
    glr_dispatch_reset_names(r->disp);
    r->swap_pending = false;
    if (r->ws.api == GLR_CTX_GLX)
        glr_loop_prep_watch_x_close(r->ws.display);
    const struct glr_loop_prep p = { .work = prep_work, .orphaned = prep_orphaned, .user = r };
    int rc = glr_loop_prep_run(&p, &loop_interrupted, err, n);
    if (rc != 0 || __atomic_load_n(&loop_interrupted, __ATOMIC_ACQUIRE))
        return rc;
    return glr_loop_ws_adopt(&r->ws, r->swap_pending ? real_proc : NULL, r->verify ? verify_shown : NULL, r, err, n);
}

/* ---- one pass ---- */

/* Before a pass: a fresh context with the whole initial state, or (passes after the first, with a
 * reset plan) the same context with only what the frame changed set back. */
static int start_pass(struct loop_run *r, char *err, size_t n)
{
    struct glr_restore_stats st;
    if (r->reset && r->pass > 0) {
        if (glrh_reset_run(r->reset, r->disp, restore_make_current, r, &st) != 0) {
            snprintf(err, n, "the pass reset could not make the loop context current");
            return -1;
        }
        if ((st.calls_failed || st.contents_failed) && r->pass == 1)
            glr_log(GLR_LOG_WARN, "replay loop: pass reset: %llu of %llu calls failed (first: %s), %u saved "
                    "image(s) not copied", (unsigned long long)st.calls_failed, (unsigned long long)st.calls,
                    st.first_failed ? st.first_failed : "-", st.contents_failed);
        return 0;
    }
    glr_dispatch_reset_names(r->disp);
    if (glr_loop_ws_create(&r->ws, err, n) != 0)
        return -1;
    if (!r->snapshot)
        return 0;
    int rc = glr_restore_run(r->snapshot, r->disp, restore_make_current, r, &st, err, n);
    if (rc == GLR_RESTORE_INTERRUPTED)
        return 0;   /* the session ended: the stream loop stops at once, the program resumes */
    if (rc != 0)
        return -1;
    if (r->pass == 0)
        log_restore_stats(&st);
    return 0;
}

/* The frame's command stream, on the loop contexts current on this thread. */
static int run_stream(struct loop_run *r, char *err, size_t n)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, r->cap->stream, r->cap->stream_size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        if (__atomic_load_n(&loop_interrupted, __ATOMIC_RELAXED))
            break;   /* the rest of the pass is not shown: keep_going ends the loop next */
        if (!c.ctx_id || c.cmd == GLR_PSEUDO_CONTEXT_CREATE || c.cmd == GLR_PSEUDO_MAKE_CURRENT ||
            (c.cmd < GLR_CMD_COUNT && glr_cmds[c.cmd].api != GLR_API_GL))
            continue;   /* no context, or GLX/EGL: the loop has its own contexts and drawables */
        if (c.cmd == GLR_PSEUDO_SWAP && c.ctx_id != r->frame_ctx)
            continue;   /* another window's swap: only the swapping context's window is shown */
        if (glr_loop_ws_make_current(&r->ws, c.ctx_id) != 0) {
            snprintf(err, n, "cannot make the loop context of context %u current", c.ctx_id);
            return -1;
        }
        if (c.cmd >= GLR_CMD_COUNT) {
            switch (c.cmd) {
            case GLR_PSEUDO_SWAP:
                if (r->ws.offscreen) {
                    /* Drawn on the stand-in: the render thread shows it (and verifies it there). */
                    r->swap_pending = true;
                    r->pending_frame = c.args[0];
                    break;
                }
                if (r->verify)
                    verify_swap(r, c.args[0]);
                glr_loop_ws_swap(&r->ws);
                break;
            case GLR_PSEUDO_BUFFER_MAPPED:
                count(r, glr_dispatch_buffer_mapped(r->disp, &c), c.cmd);
                break;
            case GLR_PSEUDO_BUFFER_DATA:
                count(r, glr_dispatch_buffer_data(r->disp, &c), c.cmd);
                break;
            case GLR_PSEUDO_CLIENT_ARRAY:
                count(r, client_array(r, &c), c.cmd);
                break;
            default:
                break;
            }
            continue;
        }
        if (r->test_skip_draws && glrh_cmd_is_draw(c.cmd))
            continue;   /* skipping a draw is always safe, and the frame comes out wrong */
        if (lacks_client_memory(r, &c)) {
            count(r, GLR_DISPATCH_BAD, c.cmd);
            continue;
        }
        int res = glr_dispatch_call(r->disp, &c);
        count(r, res, c.cmd);
        if (res == GLR_DISPATCH_OK && r->n_copies && glrh_cmd_is_draw(c.cmd))
            r->copies_drawn = true;
    }
    /* Each context's work done before the next pass or the program goes on. */
    for (unsigned i = 0; i < r->ws.n_ctxs; i++)
        if (glr_loop_ws_make_current(&r->ws, r->ws.ctxs[i].captured_id) == 0)
            GLR_REAL(glFinish)();
    free_copies(r);
    if (k < 0) {
        snprintf(err, n, "%s: COMMAND_STREAM: %s", r->cap->path, s.err);
        return -1;
    }
    if (r->reset)
        glrh_reset_end_pass(r->reset, r->disp, restore_make_current, r);   /* what the frame created */
    return 0;
}

/* 0, -1 (err), or 1: r was handed to a pass's own thread (see prepared_pass). */
static int run_pass(struct loop_run *r, char *err, size_t n)
{
    if (r->prep && !(r->reset && r->pass > 0))
        return prepared_pass(r, err, n);
    if (start_pass(r, err, n) != 0)
        return -1;
    return run_stream(r, err, n);
}

/* Snapshot captures looped more than once keep their context and objects across passes (shaders
 * stay compiled) when the frame's effects can be undone (replay/player/pass_reset.h); otherwise,
 * or with GLREPLAY_FULL_RESTORE=1, every pass starts on a fresh context. */
static void plan_reset(struct loop_run *r, unsigned passes)
{
    const char *full = getenv("GLREPLAY_FULL_RESTORE");
    if (!r->snapshot || passes == 1 || (full && strcmp(full, "1") == 0))
        return;
    char why[200] = "";
    r->reset = glrh_reset_plan(r->snapshot, r->cap, why, sizeof why);
    if (!r->reset)
        glr_log(GLR_LOG_INFO, "replay loop: a fresh context for every pass: %s", why);
}

/* ---- set-up: the capture, its context, its initial state ---- */

static bool has_id(const uint32_t *ids, unsigned n, uint32_t id)
{
    for (unsigned i = 0; i < n; i++)
        if (ids[i] == id)
            return true;
    return false;
}

/* The loop contexts: one per captured context with calls in the frame or state in the snapshot;
 * the one that swapped draws to the program's window. */
static int plan_contexts(struct loop_run *r, char *err, size_t n)
{
    struct glr_stream s;
    struct glr_call c;
    uint32_t ids[GLR_LOOP_MAX_CTXS + 1];
    unsigned n_ids = 0;
    glr_stream_init(&s, r->cap->stream, r->cap->stream_size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        if (c.cmd == GLR_PSEUDO_SWAP && !r->frame_ctx)
            r->frame_ctx = c.ctx_id;
        bool gl = c.cmd < GLR_CMD_COUNT ? glr_cmds[c.cmd].api == GLR_API_GL
                                        : c.cmd != GLR_PSEUDO_CONTEXT_CREATE && c.cmd != GLR_PSEUDO_MAKE_CURRENT;
        if (gl && c.ctx_id && !has_id(ids, n_ids, c.ctx_id) && n_ids <= GLR_LOOP_MAX_CTXS)
            ids[n_ids++] = c.ctx_id;
    }
    if (k < 0) {
        snprintf(err, n, "%s: COMMAND_STREAM: %s", r->cap->path, s.err);
        return -1;
    }
    if (!r->frame_ctx) {
        snprintf(err, n, "the capture ends with no swap");
        return -1;
    }
    const struct sm_state *init = r->snapshot ? glr_restore_state(r->snapshot) : NULL;
    for (unsigned i = 0; init && i < r->cap->n_ctxs; i++) {
        uint32_t id = r->cap->ctxs[i].id;
        if (r->cap->ctxs[i].described && sm_context_get(init, id) && !has_id(ids, n_ids, id) &&
            n_ids <= GLR_LOOP_MAX_CTXS)
            ids[n_ids++] = id;
    }
    if (!has_id(ids, n_ids, r->frame_ctx) && n_ids <= GLR_LOOP_MAX_CTXS)
        ids[n_ids++] = r->frame_ctx;
    if (n_ids > GLR_LOOP_MAX_CTXS) {
        snprintf(err, n, "the frame uses more than %d contexts", GLR_LOOP_MAX_CTXS);
        return -1;
    }
    r->desc = glrh_capture_context(r->cap, r->frame_ctx);
    for (unsigned i = 0; i < n_ids; i++) {
        const struct glrh_context *d = glrh_capture_context(r->cap, ids[i]);
        if (!d || !d->described) {
            snprintf(err, n, "context %u of the capture is not described", ids[i]);
            return -1;
        }
        if (glr_loop_ws_add(&r->ws, d, ids[i] == r->frame_ctx, err, n) != 0)
            return -1;
    }
    return 0;
}

static int load(struct loop_run *r, const char *path, char *err, size_t n)
{
    r->cap = glrh_capture_open(path, err, n);
    if (!r->cap)
        return -1;
    if (strcmp(r->cap->initial_state, "snapshot") == 0) {
        if (!(r->snapshot = glr_restore_load(path, err, n)))
            return -1;
        /* The first pass restores the whole state on fresh contexts (the slowest part of a
         * pass): an interrupt stops it between two of its calls. */
        glr_restore_set_interrupt(r->snapshot, &loop_interrupted);
    } else if (!r->cap->initial_default) {
        snprintf(err, n, "the capture's initial state \"%s\" cannot be restored", r->cap->initial_state);
        return -1;
    }
    if (plan_contexts(r, err, n) != 0)
        return -1;
    for (unsigned i = 0; i < r->cap->n_unsized; i++) {
        int cmd = glr_cmd_find(r->cap->unsized[i]);
        if (cmd >= 0)
            r->unsized[cmd] = true;
    }
    r->disp = glr_dispatch_create(real_proc, capture_namespace, r);
    if (!r->disp) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    return 0;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static unsigned env_uint(const char *name, unsigned max)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return 0;
    char *end;
    unsigned long x = strtoul(v, &end, 10);
    return (*end || x > max) ? 0 : (unsigned)x;
}

int glr_replay_loop_run(const struct glr_capture_result *cr, unsigned passes, glr_replay_loop_keep_going_fn keep_going,
                        void *user)
{
    char err[768] = "";
    if (!cr || !cr->path || (!passes && !keep_going)) {
        glr_log(GLR_LOG_ERROR, "replay loop: bad arguments (no capture, or no pass count and no keep_going)");
        return -1;
    }
    if (__atomic_exchange_n(&loop_busy, 1, __ATOMIC_ACQ_REL)) {
        glr_log(GLR_LOG_ERROR, "replay loop: another loop is running; this one is abandoned, the program continues");
        return -1;
    }
    struct loop_run *r = calloc(1, sizeof *r);
    int ran = -1;
    if (!r) {
        glr_log(GLR_LOG_ERROR, "replay loop abandoned: out of memory; the program continues");
        __atomic_store_n(&loop_busy, 0, __ATOMIC_RELEASE);
        return -1;
    }
    __atomic_store_n(&loop_interrupted, 0, __ATOMIC_RELEASE);   /* keep_going sees an earlier end */
    __atomic_store_n(&interrupted_at_ns, 0, __ATOMIC_RELAXED);
    r->verify = env_uint("GLREPLAY_REPLAY_LOOP_VERIFY", 1) == 1;
    /* A live session (keep_going) may end at any moment: a fresh pass's set-up must not hold the
     * program. GLX and EGL alike: the window's stand-in is a pbuffer of the window's config. */
    r->prep = keep_going && (cr->api == GLR_CTX_GLX || cr->api == GLR_CTX_EGL);
    r->test_skip_draws = env_uint("GLREPLAY_REPLAY_LOOP_TEST_SKIP_DRAWS", 1) == 1;
    unsigned delay = env_uint("GLREPLAY_REPLAY_LOOP_DELAY_MS", 60000);
    bool saved = false;
    double busy = 0;   /* time in passes, pauses excluded */
    if (glr_loop_ws_save(&r->ws, cr->api, cr->display, cr->surface, err, sizeof err) != 0)
        goto out;
    saved = true;
    if (r->prep && !glr_loop_ws_can_stand_in(&r->ws)) {
        r->prep = false;   /* no pbuffer of the window's config: the passes run here, as before */
        glr_log(GLR_LOG_INFO, "replay loop: the window's config offers no pbuffer: fresh passes run on the "
                "program's thread");
    }
    /* Asked before anything is loaded or created: a live session that ends before its first pass
     * (shim/ipc.c defers it) leaves at once, without the fresh contexts' first, uninterruptible
     * driver calls (llvmpipe: 30-450 ms for the restore's first blit). */
    if (keep_going && !keep_going(user, 0)) {
        ran = 0;
        goto out;
    }
    if (load(r, cr->path, err, sizeof err) != 0)
        goto out;
    plan_reset(r, passes);
    char times[48] = "until told to stop";
    if (passes)
        snprintf(times, sizeof times, "%u times", passes);
    glr_log(GLR_LOG_INFO, "replay loop: replaying frames %llu-%llu of %s (%s %d.%d, %u context%s) %s",
            (unsigned long long)r->cap->first_frame, (unsigned long long)r->cap->last_frame, cr->path,
            r->desc->es ? "OpenGL ES" : "OpenGL", r->desc->major, r->desc->minor, r->ws.n_ctxs,
            r->ws.n_ctxs == 1 ? "" : "s", times);
    for (r->pass = 0; !passes || r->pass < passes; r->pass++) {
        if (keep_going && r->pass > 0 && !keep_going(user, r->pass))
            break;
        if (__atomic_load_n(&loop_interrupted, __ATOMIC_RELAXED))
            break;   /* a live session ended (while the capture loaded): no contexts for nothing */
        double t0 = now_s();
        unsigned pass_no = r->pass + 1;
        int pr = run_pass(r, err, sizeof err);
        if (pr == 1) {
            /* Nothing of the loop is current here (the contexts were on the other thread): the
             * program's binding was never changed. */
            glr_log(GLR_LOG_INFO, "replay loop: the session ended while pass %u was set up; the program continues "
                    "(the set-up finishes on a thread of its own)", pass_no);
            __atomic_store_n(&loop_busy, 0, __ATOMIC_RELEASE);
            return (int)pass_no - 1;
        }
        if (pr != 0)
            goto out;
        busy += now_s() - t0;
        if (delay)
            sleep_ms(delay);
    }
    ran = (int)r->pass;
out:;
    char rerr[256] = "";
    if (saved && glr_loop_ws_restore(&r->ws, rerr, sizeof rerr) != 0)
        glr_log(GLR_LOG_ERROR, "replay loop: %s", rerr);
    if (ran < 0) {
        char where[32] = "";
        if (r->pass)
            snprintf(where, sizeof where, " in pass %u", r->pass + 1);
        glr_log(GLR_LOG_ERROR, "replay loop abandoned%s: %s; the program continues", where, err);
    } else {
        if (r->missing || r->bad)
            glr_log(GLR_LOG_WARN, "replay loop: %llu calls missing in the driver, %llu malformed (first: %s)",
                    (unsigned long long)r->missing, (unsigned long long)r->bad, r->first_problem);
        if (r->verify)
            glr_log(GLR_LOG_INFO, "replay loop: verify: %u frame images identical to their reference, %u differ",
                    r->frames_identical, r->frames_differing);
        glr_log(GLR_LOG_INFO, "replay loop: %d passes ran (%.1f ms per pass); the program continues", ran,
                ran ? busy * 1000.0 / ran : 0.0);
    }
    free_run(r);
    __atomic_store_n(&loop_busy, 0, __ATOMIC_RELEASE);
    return ran;
}

static void free_run(struct loop_run *r)
{
    free_copies(r);
    free(r->copies);
    glrh_reset_free(r->reset);
    glr_dispatch_destroy(r->disp);
    glr_restore_free(r->snapshot);
    if (r->cap)
        glrh_capture_close(r->cap);
    free(r);
}
