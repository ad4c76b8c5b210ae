/* Capture control: GLREPLAY_CAPTURE_FRAMES / GLREPLAY_CAPTURE_OUT, frame boundaries, reference
 * images, and writing the .glcap file (docs/GLCAP_FORMAT.md).
 *
 * A capture records from the start of its first frame to the swap that ends its last frame; a frame
 * still open when the program exits or destroys the context ends there. Anything that goes wrong
 * (out of memory, budget, write error) drops the capture with one log line; the program goes on.
 */
#include <stdio.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <time.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_state.h"
#include "shim/capture_file.h"
#include "shim/capture_async.h"
#include "shim/capture_refs.h"
#include "shim/track.h"
#include "shim/snapshot.h"
#include "shim/replay_loop.h"
#include "registry/glr_call.h"

static pthread_mutex_t cap_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cap_done = PTHREAD_COND_INITIALIZER;  /* a capture's outcome is known */
/* Outcomes of the last captures (written or not), by epoch: a socket request waits for its own. */
struct outcome {
    uint64_t epoch;
    bool ok;
};
static struct outcome outcomes[16];
static unsigned n_outcomes;
static bool armed;
static bool cap_from_start;
static int cap_drawn;          /* a draw or clear was recorded in this capture */  /* began before any context existed */
static uint64_t first_frame, last_frame;
static char out_path[4096];

struct ctx_info {
    uint32_t id, share_group;
    int api;
    bool described;
    struct glr_ctx_desc desc;
};
static struct ctx_info ctxs[64];
static unsigned n_ctxs;

static struct glr_ref_image *images;
static unsigned n_images;
/* The file job of the capture recording now, or of the last one if it was dropped before its end
 * (aborted when the next capture starts or at exit); files in the writer's queue (capture_async.c). */
static struct glr_capture_job *cur_job;
/* The replay loop's hooks at a capture's end (glr_capture_set_loop_hooks), set at start-up. */
static const struct glr_capture_loop_hooks *loop_hooks;

void glr_capture_set_loop_hooks(const struct glr_capture_loop_hooks *hooks)
{
    loop_hooks = hooks;
}
static unsigned jobs_in_flight;

/* cap_lock held. */
static void note_outcome_locked(uint64_t epoch, bool ok)
{
    outcomes[n_outcomes++ % (sizeof outcomes / sizeof outcomes[0])] = (struct outcome){ epoch, ok };
    pthread_cond_broadcast(&cap_done);
}

/* Whether capture `epoch` has an outcome yet (cap_lock held). */
static bool outcome_locked(uint64_t epoch, bool *ok)
{
    for (unsigned i = 0; i < sizeof outcomes / sizeof outcomes[0]; i++)
        if (i < n_outcomes && outcomes[i].epoch == epoch) {
            *ok = outcomes[i].ok;
            return true;
        }
    return false;
}

/* The capture whose end waits for its file (finish_recording with `wait`), and its result: that
 * waiter publishes the outcome itself, while it still holds cap_lock, so a socket request sees the
 * capture ended only after the swap has taken its replay loop (replay_loop_trigger.c). */
static uint64_t sync_epoch;
static bool sync_known, sync_ok;

/* On the writer thread: a file was written or given up. */
static void job_done(uint64_t epoch, bool ok)
{
    pthread_mutex_lock(&cap_lock);
    jobs_in_flight--;
    if (epoch == sync_epoch) {
        sync_known = true;
        sync_ok = ok;
        pthread_cond_broadcast(&cap_done);
    } else {
        note_outcome_locked(epoch, ok);
    }
    pthread_mutex_unlock(&cap_lock);
}

/* Waits (cap_lock held) until every queued capture file is written: at exit. A child forked while
 * files were queued has no writer thread for them and does not wait. */
static void wait_writer_locked(void)
{
    while (jobs_in_flight && glr_wq_alive())
        pthread_cond_wait(&cap_done, &cap_lock);
}

/* A dropped capture's job (cap_lock held, no record in flight). */
static void abort_job_locked(void)
{
    if (cur_job) {
        glr_rec_stream_to(NULL, 0);
        glr_wq_abort(cur_job);
        cur_job = NULL;
        glr_ref_pixels_give(NULL, 0);
    }
}

static bool finish_recording(const char *why_end, bool wait);

/* A capture glr_capture_fail dropped: ended as one that wrote nothing (cap_lock held). */
static void end_dropped_locked(void)
{
    if (__atomic_exchange_n(&glr_cap_fail_pending, 0, __ATOMIC_ACQ_REL) &&
        !__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST))
        finish_recording("dropped", false);
}

static bool parse_frames(const char *s)
{
    char *end;
    unsigned long long a = strtoull(s, &end, 10);
    if (end == s)
        return false;
    unsigned long long b = a;
    if (*end == '-') {
        const char *t = end + 1;
        b = strtoull(t, &end, 10);
        if (end == t || b < a)
            return false;
    }
    if (*end)
        return false;
    first_frame = a;
    last_frame = b;
    return true;
}

/* Program sources entries met while recording (glr_capture_keep_program_sources), for the
 * capture's SHADER_SOURCES section; their own lock: hooks add to them outside cap_lock. */
static pthread_mutex_t src_lock = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *src_buf;
static size_t src_len, src_cap;

void glr_capture_keep_program_sources(const void *entry, size_t size)
{
    uint64_t epoch;
    if (!glr_capture_recording(&epoch) || !size || size > (64u << 20))
        return;
    pthread_mutex_lock(&src_lock);
    if (src_len + size + 10 > src_cap) {
        size_t cap = (src_len + size + 10) * 2;
        uint8_t *n = realloc(src_buf, cap);
        if (!n) {
            pthread_mutex_unlock(&src_lock);
            glr_log(GLR_LOG_WARN, "capture: out of memory keeping a program's sources");
            return;
        }
        src_buf = n;
        src_cap = cap;
    }
    uint64_t v = size;
    do {
        src_buf[src_len++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
        v >>= 7;
    } while (v);
    memcpy(src_buf + src_len, entry, size);
    src_len += size;
    pthread_mutex_unlock(&src_lock);
}

/* Starts recording (cap_lock held); false when the writer's queue is full (logged). */
static bool start_recording(void)
{
    end_dropped_locked();   /* a dropped capture no swap has ended yet (glreplay_capture_begin) */
    glr_rec_setup_fences();
    abort_job_locked();   /* the previous capture was dropped before its end */
    glr_cap_epoch++;
    /* The file's job first: while GLR_WQ_MAX_JOBS earlier files are still queued, this waits up to
     * GLR_WQ_WAIT_JOB_MS, then the capture does not start. */
    cur_job = glr_wq_open(out_path, glr_cap_epoch, job_done);
    if (!cur_job) {
        glr_log(GLR_LOG_ERROR, "capture of frame %llu not started: %u capture files are still being written "
                "(or out of memory); the program continues", (unsigned long long)first_frame, GLR_WQ_MAX_JOBS);
        note_outcome_locked(glr_cap_epoch, false);
        return false;
    }
    jobs_in_flight++;
    cap_from_start = n_ctxs == 0;
    cap_drawn = 0;
    glr_pbuffers_forget_drawn();
    glr_snapshot_discard();
    if (!cap_from_start) {
        /* Contexts exist: save the initial state of the current one and its objects (snapshot.c). */
        int api = 0;
        uint32_t cur = glr_ctx_id(glr_ctx_current());
        for (unsigned i = 0; i < n_ctxs; i++)
            if (ctxs[i].id == cur)
                api = ctxs[i].api;
        if (!cur || glr_snapshot_take(api) != 0)
            glr_log(GLR_LOG_WARN, "capture: starting after contexts exist without an initial-state snapshot; "
                    "objects created before the capture are missing from it");
    }
    pthread_mutex_lock(&src_lock);
    src_len = 0;   /* entries of an earlier capture that was dropped */
    pthread_mutex_unlock(&src_lock);
    glr_cap_seq = 0;
    glr_cap_bytes = 0;
    glr_cap_fail_reason[0] = 0;
    glr_rec_stream_to(cur_job, glr_cap_epoch);
    __atomic_or_fetch(&glr_slow_mode, GLR_SLOW_RECORD, __ATOMIC_SEQ_CST);
    __atomic_store_n(&glr_cap_recording, 1, __ATOMIC_SEQ_CST);
    glr_log(GLR_LOG_INFO, "capture: recording frames %llu-%llu", (unsigned long long)first_frame,
            (unsigned long long)last_frame);
    /* Contexts that exist already and the one current here: the replayer recreates them. */
    for (unsigned i = 0; i < n_ctxs; i++) {
        struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_CONTEXT_CREATE, 0);
        if (r) {
            glr_rec_uvar(r, ctxs[i].id);
            glr_rec_uvar(r, ctxs[i].share_group);
            glr_rec_uvar(r, (uint64_t)ctxs[i].api);
            glr_rec_end(r);
        }
    }
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_MAKE_CURRENT, glr_ctx_id(glr_ctx_current()));
    if (r) {
        glr_rec_uvar(r, 0); /* surface size not known here; the context is already set up */
        glr_rec_uvar(r, 0);
        glr_rec_end(r);
    }
    glr_rec_live_maps();
    return true;
}

/* Ends the recording. What the file still needs is handed to the writer thread (capture_async.c),
 * whose queue holds it; the program goes on unless `wait`: then this waits (cap_lock released
 * meanwhile) for the file and the result says whether it was written. Without `wait` the result is
 * true when the writer took the job. */
static bool finish_recording(const char *why_end, bool wait)
{
    bool was = __atomic_exchange_n(&glr_cap_recording, 0, __ATOMIC_SEQ_CST);
    __atomic_and_fetch(&glr_slow_mode, ~(unsigned)GLR_SLOW_RECORD, __ATOMIC_SEQ_CST);
    glr_rec_quiesce();
    glr_rec_stream_to(NULL, 0);
    armed = false;
    struct glr_capture_job *job = was ? cur_job : NULL;
    struct glr_rec_segment *segs = NULL;
    unsigned n_segs = 0;
    if (job && !(segs = glr_rec_detach(glr_cap_epoch, &n_segs))) {
        glr_log(GLR_LOG_ERROR, "capture dropped: out of memory at its end");
        job = NULL;
        was = false;
    }
    if (!job) {
        if (was)
            glr_log(GLR_LOG_ERROR, "capture dropped: no file job at its end");
        else if (glr_cap_fail_reason[0])
            glr_log(GLR_LOG_ERROR, "capture: nothing written (%s)", glr_cap_fail_reason);
        abort_job_locked();
        glr_rec_release(glr_cap_epoch);
        glr_snapshot_discard();
        for (unsigned i = 0; i < n_images; i++)
            free(images[i].pixels);
        free(images);
        images = NULL;
        n_images = 0;
        note_outcome_locked(glr_cap_epoch, false);
        return false;
    }
    cur_job = NULL;
    struct glr_capture_summary *sum = &job->sum;
    /* An in-app capture (open-ended) that the program's exit ends: its last frame is the one in
     * progress, as glreplay_capture_end would say (UINT64_MAX is no frame a reader accepts). */
    uint64_t last = last_frame != UINT64_MAX ? last_frame
                    : glr_frame_index() > first_frame ? glr_frame_index() : first_frame;
    *sum = (struct glr_capture_summary){
        .first_frame = first_frame, .last_frame = last, .end_reason = why_end, .initial_default = cap_from_start,
    };
    for (unsigned i = 0; i < n_ctxs; i++) {
        sum->contexts[sum->n_contexts] = ctxs[i].desc;
        sum->contexts[sum->n_contexts].id = ctxs[i].id;
        sum->contexts[sum->n_contexts].share_group = ctxs[i].share_group;
        sum->contexts[sum->n_contexts].api = ctxs[i].api;
        sum->n_contexts++;
    }
    for (int i = 0; i < GLR_CMD_COUNT; i++)
        if (glr_cap_unsized[i] && sum->n_unsized < GLR_MAX_UNSIZED_LISTED)
            sum->unsized[sum->n_unsized++] = glr_cmd_name(i);
    /* Everything the file needs leaves the recorder, the snapshot and this file's globals: the next
     * capture may start at once, while this one's file is still written. */
    sum->snapshot_held = glr_snapshot_ready();
    sum->snapshot_losses = glr_snapshot_losses(sum->snapshot_first_loss, sizeof sum->snapshot_first_loss);
    job->snap = glr_snapshot_detach();
    job->segs = segs;
    job->n_segs = n_segs;
    job->images = images;
    job->n_images = n_images;
    images = NULL;
    n_images = 0;
    pthread_mutex_lock(&src_lock);
    job->program_sources = src_buf;
    job->program_sources_size = src_len;
    src_buf = NULL;
    src_len = src_cap = 0;
    pthread_mutex_unlock(&src_lock);
    uint64_t epoch = glr_cap_epoch;
    if (wait) {
        sync_epoch = epoch;
        sync_known = false;
    }
    glr_wq_finish(job);
    glr_ref_pixels_give(NULL, 0);   /* the spare image buffer is not kept past the capture */
    if (!wait)
        return true;
    while (!sync_known && glr_wq_alive())
        pthread_cond_wait(&cap_done, &cap_lock);
    bool ok = sync_known && sync_ok;
    sync_epoch = 0;
    note_outcome_locked(epoch, ok);
    return ok;
}

static void keep_end_images_at_exit(void);
static void glr_capture_at_exit_record(void);

void glr_capture_init(void)
{
    const char *frames = getenv("GLREPLAY_CAPTURE_FRAMES");
    const char *out = getenv("GLREPLAY_CAPTURE_OUT");
    const char *max = getenv("GLREPLAY_CAPTURE_MAX_MB");
    if (max && *max) {
        /* A whole number of MiB; anything else (abc, -1, 12x, overflow) would make a budget of 0
         * that silently drops every capture: refused with a warning, the default kept. */
        char *end;
        errno = 0;
        unsigned long long mb = strtoull(max, &end, 10);
        if (max[0] < '0' || max[0] > '9' || *end || errno || mb > (SIZE_MAX >> 20))
            glr_log(GLR_LOG_ERROR, "GLREPLAY_CAPTURE_MAX_MB=%s is not a number of MiB; using the default %zu",
                    max, glr_cap_budget >> 20);
        else
            glr_cap_budget = (size_t)mb << 20;
    }
    atexit(keep_end_images_at_exit);   /* also for glreplay_capture_begin and socket captures */
    glr_refs_init();
    if (!frames || !*frames)
        return;
    if (!parse_frames(frames)) {
        glr_log(GLR_LOG_ERROR, "GLREPLAY_CAPTURE_FRAMES=%s is not N or N-M; no capture", frames);
        return;
    }
    if (out && *out)
        snprintf(out_path, sizeof out_path, "%s", out);
    else
        snprintf(out_path, sizeof out_path, "glreplay-%d-frame%llu.glcap", (int)getpid(),
                 (unsigned long long)first_frame);
    armed = true;
    if (first_frame == 0 && !start_recording())
        armed = false;
}

static struct ctx_info *ctx_by_id(uint32_t id)
{
    for (unsigned i = 0; i < n_ctxs; i++)
        if (ctxs[i].id == id)
            return &ctxs[i];
    return NULL;
}

void glr_capture_context_created(uint32_t id, uint32_t share_group, int api)
{
    pthread_mutex_lock(&cap_lock);
    if (n_ctxs < sizeof ctxs / sizeof ctxs[0])
        ctxs[n_ctxs++] = (struct ctx_info){ .id = id, .share_group = share_group, .api = api };
    else
        glr_log(GLR_LOG_WARN, "capture: more than %zu contexts; context %u is not described",
                sizeof ctxs / sizeof ctxs[0], id);
    pthread_mutex_unlock(&cap_lock);
    glr_track_context_created(id, share_group);
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_CONTEXT_CREATE, 0);
    if (r) {
        glr_rec_uvar(r, id);
        glr_rec_uvar(r, share_group);
        glr_rec_uvar(r, (uint64_t)api);
        glr_rec_end(r);
    }
}

void glr_capture_made_current(uint32_t id, uint32_t width, uint32_t height)
{
    /* The description read by the recorders (client arrays, link names, reference images) is per
     * thread: it must follow the context current on this thread, whichever thread first made the
     * context current (a program that creates its context on one thread and renders on another,
     * Teeworlds, or one that switches contexts). */
    if (!id) {
        glr_set_current_ctx_desc(NULL);
        goto record;
    }
    pthread_mutex_lock(&cap_lock);
    struct ctx_info *c = ctx_by_id(id);
    bool describe = c && !c->described;
    if (describe)
        c->described = true;
    struct glr_ctx_desc known = { 0 };
    if (c && !describe)
        known = c->desc;
    pthread_mutex_unlock(&cap_lock);
    if (describe) {
        struct glr_ctx_desc d;
        glr_describe_current_context(&d);   /* also sets this thread's description */
        pthread_mutex_lock(&cap_lock);
        c->desc = d;
        pthread_mutex_unlock(&cap_lock);
        glr_track_context_described(id, d.is_es, d.major, d.minor, d.profile_mask);
    } else {
        /* Described by another thread, or earlier on this one: an empty description (not yet
         * filled, or a context beyond the table) clears this thread's, as the context's own is
         * unknown. */
        glr_set_current_ctx_desc(known.major ? &known : NULL);
    }
record:;
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_MAKE_CURRENT, id);
    if (r) {
        glr_rec_uvar(r, width);
        glr_rec_uvar(r, height);
        glr_rec_end(r);
    }
}

void glr_capture_context_destroyed(uint32_t id, unsigned alive_after)
{
    glr_track_context_destroyed(id);
    (void)alive_after;
    /* A capture does not end when a context is destroyed: programs destroy probe contexts before
     * they draw (glmark2, SDL), and one that never swaps has its capture written at exit (or at
     * glreplay_capture_end). Destroyed contexts simply stay unused in the replay. */
}

/* The end of a capture that no swap ends: a program that never swaps (test runners such as piglit's
 * shader_runner, offscreen tools), glreplay_capture_end, the context destroyed while current, the
 * program exiting. What the frame drew so far is kept as reference images, as a swap keeps them:
 * the default framebuffer's back buffer (when the context has a draw surface) and every colour
 * attachment of the framebuffer bound for drawing, tagged with the frame in progress (which has no
 * swap record): the replay compares them after its last record. Only the context current on this
 * thread can be read, so they are read when it stops being current (released, another made
 * current, destroyed while current) and at exit. They are provisional: a later release or swap of
 * the same context replaces them, so the images kept are its last state.
 * The default framebuffer is read only at glreplay_capture_end, where the program says its
 * surface is current, and when it is a pbuffer (shim/pbuffers.c), which no window system can
 * take away: at a release or at exit the window may already be gone (piglit's waffle
 * destroys the window, then releases the context from an exit handler), and reading a destroyed
 * drawable crashes the driver (SIGBUS in swrast) or raises an X error that ends the program.
 * Framebuffer objects belong to the context and are safe to read while it is current.
 * Called with cap_lock held. */
static void drop_provisional_locked(uint32_t ctx)
{
    unsigned k = 0;
    for (unsigned i = 0; i < n_images; i++) {
        if (images[i].provisional && images[i].ctx_id == ctx)
            free(images[i].pixels);
        else
            images[k++] = images[i];
    }
    n_images = k;
}

/* The reference images of context ctx at frame `frame`: the back buffer of `surface` (none when
 * NULL) and every colour attachment of the framebuffer object bound for drawing, which is the
 * frame's output too. Called with cap_lock held, the context current on this thread. */
static void keep_images_locked(uint32_t ctx, uint64_t frame, bool provisional, int api, void *display, void *surface)
{
    struct glr_ref_image img;
    if (surface && glr_read_back_buffer(api, display, surface, &img) == 0) {
        img.frame = frame;
        img.ctx_id = ctx;
        img.provisional = provisional;
        struct glr_ref_image *n = realloc(images, (n_images + 1) * sizeof *n);
        if (n) {
            images = n;
            images[n_images++] = img;
        } else {
            free(img.pixels);
        }
    }
    unsigned first_fbo_image = n_images;
    glr_read_draw_fbo_images(&images, &n_images);
    for (unsigned i = first_fbo_image; i < n_images; i++) {
        images[i].frame = frame;
        images[i].ctx_id = ctx;
        images[i].provisional = provisional;
    }
    glr_refs_thin(images, n_images, first_frame, frame);
}

static void keep_end_images_locked(bool with_default)
{
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST))
        return;
    if (!glr_current_ctx_desc() || !glr_ctx_current()) {
        glr_log(GLR_LOG_DEBUG, "capture: no context current on this thread: no end-of-capture images");
        return;
    }
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    uint64_t frame = glr_frame_index();
    if (!ctx)
        return;
    drop_provisional_locked(ctx);
    int api = 0;
    void *display = NULL, *surface = NULL;
    if (!glr_ctx_current_surface(&api, &display, &surface))
        surface = NULL;
    /* A pbuffer is kept at a release only when the frame drew or cleared it: otherwise (a program
     * that renders into framebuffer objects) its contents are undefined, in the replay too. */
    else if (!with_default && !glr_pbuffer_drawn(display, surface))
        surface = NULL;
    keep_images_locked(ctx, frame, true, api, display, surface);
}

void glr_capture_before_release(void)
{
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST) || !glr_ctx_current())
        return;
    pthread_mutex_lock(&cap_lock);
    keep_end_images_locked(false);
    pthread_mutex_unlock(&cap_lock);
}

/* Registered with atexit at start-up, so it runs after the program's own exit handlers but before
 * the libraries' destructors (the driver's among them), while a context current on the exiting
 * thread still works. The file itself is written later, by the shim's destructor. */
static void keep_end_images_at_exit(void)
{
    if (glr_disabled || !__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST))
        return;
    pthread_mutex_lock(&cap_lock);
    keep_end_images_locked(false);
    pthread_mutex_unlock(&cap_lock);
}

void glr_capture_before_swap(int api, void *display, void *surface, bool ends_frame)
{
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST)) {
        if (__atomic_load_n(&glr_cap_fail_pending, __ATOMIC_ACQUIRE)) {
            pthread_mutex_lock(&cap_lock);
            end_dropped_locked();
            pthread_mutex_unlock(&cap_lock);
        }
        return;
    }
    uint64_t frame = glr_frame_index();
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    struct glr_rec *r = glr_rec_begin_pseudo(GLR_PSEUDO_SWAP, ctx);
    if (r) {
        glr_rec_uvar(r, frame);
        glr_rec_end(r);
    }
    pthread_mutex_lock(&cap_lock);
    drop_provisional_locked(ctx);   /* the swap shows what the context drew */
    keep_images_locked(ctx, frame, false, api, display, surface);
    /* A replay loop wanted for this capture runs after the real swap (replay_loop_trigger.c, through
     * the hooks start-up registered: the loop is above the capture). */
    const struct glr_capture_loop_hooks *lh = loop_hooks;
    if (ends_frame && frame >= last_frame && finish_recording("last frame swapped", lh && lh->pending()) && lh)
        lh->capture_written(api, display, surface, out_path);
    pthread_mutex_unlock(&cap_lock);
}

void glr_capture_after_swap(void)
{
    if (__atomic_load_n(&armed, __ATOMIC_ACQUIRE) && !__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST) &&
        glr_frame_index() >= first_frame) {
        pthread_mutex_lock(&cap_lock);
        /* Past the asked frame: a request read the frame counter just before a swap counted it,
         * and armed after this thread's check (or two threads swapped at once). Waiting for
         * equality would never start: the capture takes the frames from here instead. */
        uint64_t now = glr_frame_index();
        if (armed && now > first_frame && last_frame != UINT64_MAX) {
            last_frame += now - first_frame;
            first_frame = now;
        }
        if (armed && !__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST) && now >= first_frame && !start_recording())
            armed = false;
        pthread_mutex_unlock(&cap_lock);
    }
}

void glr_capture_at_exit(void)
{
    glr_capture_at_exit_record();
    pthread_mutex_lock(&cap_lock);
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST) && cur_job) {
        glr_rec_quiesce();    /* no record still hands blocks to it */
        abort_job_locked();   /* a capture dropped before its end */
    }
    wait_writer_locked();   /* everything is flushed before the process ends */
    pthread_mutex_unlock(&cap_lock);
}

static void glr_capture_at_exit_record(void)
{
    if (__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST) && n_ctxs == 0) {
        /* GLREPLAY_CAPTURE_* is inherited by every process the program starts (shells, helpers):
         * one that never created a context has nothing to capture and must not write the file. */
        __atomic_store_n(&glr_cap_recording, 0, __ATOMIC_SEQ_CST);
        glr_log(GLR_LOG_DEBUG, "capture: no GL context in this process; nothing written");
        return;
    }
    if (__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&cap_lock);
        finish_recording("program exited", true);
        pthread_mutex_unlock(&cap_lock);
    } else if (armed) {
        glr_log(GLR_LOG_WARN, "capture: the program ended before frame %llu; nothing captured",
                (unsigned long long)first_frame);
        pthread_mutex_lock(&cap_lock);
        armed = false;
        note_outcome_locked(glr_cap_epoch + 1, false);   /* the capture that would have started */
        pthread_mutex_unlock(&cap_lock);
    }
}

/* In-application API (shim/include/glreplay_app.h): exported by stage 1 (stage1_load.c), which
 * forwards here. */
int glreplay_capture_begin(const char *path)
{
    if (glr_disabled || !path || !*path)
        return -1;
    pthread_mutex_lock(&cap_lock);
    int rc = -1;
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST)) {
        snprintf(out_path, sizeof out_path, "%s", path);
        first_frame = glr_frame_index();
        last_frame = UINT64_MAX;
        armed = false;
        rc = start_recording() ? 0 : -1;
    }
    pthread_mutex_unlock(&cap_lock);
    return rc;
}

int glreplay_capture_end(void)
{
    pthread_mutex_lock(&cap_lock);
    int rc = -1;
    if (__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST)) {
        last_frame = glr_frame_index();
        keep_end_images_locked(true);
        rc = finish_recording("glreplay_capture_end", true) ? 0 : -1;
    }
    pthread_mutex_unlock(&cap_lock);
    return rc;
}

/* A capture requested over the socket: frames [next, next + count - 1], waiting (on the server
 * thread, never the program's) until the file is written or the attempt ends. */
int glr_capture_request(unsigned count, const char *path, char *msg, size_t n)
{
    if (count == 0 || count > 1000) {
        snprintf(msg, n, "error frame count must be 1..1000");
        return -1;
    }
    pthread_mutex_lock(&cap_lock);
    if (armed || __atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST)) {
        pthread_mutex_unlock(&cap_lock);
        snprintf(msg, n, "error a capture is already in progress");
        return -1;
    }
    first_frame = glr_frame_index() + 1;
    last_frame = first_frame + count - 1;
    if (path && *path)
        snprintf(out_path, sizeof out_path, "%s", path);
    else
        snprintf(out_path, sizeof out_path, "glreplay-%d-frame%llu.glcap", (int)getpid(),
                 (unsigned long long)first_frame);
    armed = true;
    uint64_t target = glr_cap_epoch + 1;   /* the next capture to start is this one */
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 120;
    int rc = 0;
    bool ok = false;
    while (!outcome_locked(target, &ok) && rc == 0)
        rc = pthread_cond_timedwait(&cap_done, &cap_lock, &deadline);
    if (!outcome_locked(target, &ok)) {
        armed = false;
        snprintf(msg, n, "error timed out waiting for frame %llu (is the program still swapping?)",
                 (unsigned long long)first_frame);
        pthread_mutex_unlock(&cap_lock);
        return -1;
    }
    if (ok)
        snprintf(msg, n, "ok %s", out_path);
    else
        snprintf(msg, n, "error capture of frame %llu failed (see the program's stderr)",
                 (unsigned long long)first_frame);
    pthread_mutex_unlock(&cap_lock);
    return ok ? 0 : -1;
}

void glr_capture_note_draw(void)
{
    __atomic_store_n(&cap_drawn, 1, __ATOMIC_RELAXED);
    if (glr_pbuffer_current() && __atomic_load_n(&glr_cap_recording, __ATOMIC_RELAXED))
        glr_pbuffer_note_draw(glr_draw_fbo_bound_cheap());
}
