/* The headless replay loop: contexts from the capture recreated on EGL surfaceless, the command
 * stream re-issued through the dispatcher, each swap's back buffer compared with its reference
 * image. One thread replays every captured thread's calls in their recorded global order,
 * switching the current context as the records' context changes. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "replay/player/replayer_internal.h"
#include "replay/player/pass_reset.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- Crash safety net: a driver fault on recorded data ends with one line, not a core dump. ---- */

static volatile sig_atomic_t crash_cmd = -1;
static volatile uint64_t crash_record;

static void put_str(const char *s)
{
    ssize_t w = write(2, s, strlen(s));
    (void)w;
}

static void put_num(uint64_t v)
{
    char b[24];
    int i = (int)sizeof b;
    b[--i] = 0;
    do
        b[--i] = (char)('0' + v % 10);
    while ((v /= 10) && i > 0);
    put_str(b + i);
}

static void on_crash(int sig)
{
    put_str("glreplay: replay crashed (signal ");
    put_num((uint64_t)sig);
    put_str(") at record ");
    put_num(crash_record);
    if (crash_cmd >= 0) {
        put_str(" (");
        put_str(glr_call_name((uint32_t)crash_cmd));
        put_str(")");
    }
    put_str(": the capture holds data this driver cannot take\n");
    _exit(3);
}

static void install_crash_handler(struct sigaction *saved)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_crash;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, &saved[i]);
}

static void restore_crash_handler(const struct sigaction *saved)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &saved[i], NULL);
}

/* ---- Contexts ---- */


/* Each context's pbuffer, by the rule every replay of the capture follows (surface_plan.c). */
static void plan_surfaces(struct replayer *r)
{
    const struct glrh_capture *cap = r->cap;
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        struct rctx *c = &r->ctxs[i];
        struct glrh_surface s;
        glrh_plan_surface(cap, i, &s);
        c->desc = &cap->ctxs[i];
        c->ctx = EGL_NO_CONTEXT;
        c->surf = EGL_NO_SURFACE;
        c->w = s.w;
        c->h = s.h;
        c->alpha = s.alpha;
    }
}

static void destroy_contexts(struct replayer *r)
{
    if (r->egl.dpy == EGL_NO_DISPLAY)
        return;
    glrh_egl_make_current(&r->egl, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    r->current = NULL;
    for (unsigned i = 0; i < r->cap->n_ctxs; i++) {
        glrh_egl_destroy(&r->egl, r->ctxs[i].ctx, r->ctxs[i].surf);
        r->ctxs[i].ctx = EGL_NO_CONTEXT;
        r->ctxs[i].surf = EGL_NO_SURFACE;
    }
}

/* Creates every described context, in id order, each sharing with the first of its share group. */
static int create_contexts(struct replayer *r)
{
    unsigned n = r->cap->n_ctxs;
    bool *done = calloc(n ? n : 1, sizeof *done);
    if (!done) {
        glrh_seterr(r, "out of memory");
        return -1;
    }
    for (;;) {
        struct rctx *next = NULL;
        for (unsigned i = 0; i < n; i++)
            if (!done[i] && r->ctxs[i].desc->described && (!next || r->ctxs[i].desc->id < next->desc->id))
                next = &r->ctxs[i];
        if (!next)
            break;
        done[next - r->ctxs] = true;
        EGLContext share = EGL_NO_CONTEXT;
        for (unsigned i = 0; i < n; i++)
            if (r->ctxs[i].ctx != EGL_NO_CONTEXT && r->ctxs[i].desc->share_group == next->desc->share_group) {
                share = r->ctxs[i].ctx;
                break;
            }
        bool downgraded;
        if (glrh_egl_create_ex(&r->egl, next->desc, share, next->w, next->h, next->alpha, &next->ctx, &next->surf,
                               &downgraded, r->err, r->err_size) != 0) {
            free(done);
            return -1;
        }
        if (downgraded && r->pass == 0)
            fprintf(stderr, "glreplay: warning: context %u: this driver has no %s %d.%d; replaying on a lower version\n",
                    next->desc->id, next->desc->es ? "OpenGL ES" : "OpenGL", next->desc->major, next->desc->minor);
    }
    free(done);
    return 0;
}

/* With --gl-errors, what the driver rejected while the initial state was restored on a context
 * is said when the restore leaves it (a restore that a vendor driver refuses in part explains
 * images that differ later). */
static void report_restore_errors(struct replayer *r)
{
    if (!r->opt->gl_errors || !r->current)
        return;
    GLenum e = glrh_gl_drain_errors(&r->gl);
    if (e != GL_NO_ERROR)
        fprintf(r->out, "restore of context %u: the driver raised GL error 0x%04x\n", r->current->desc->id,
                (unsigned)e);
}

static int restore_make_current(void *mc, uint32_t ctx_id)
{
    struct replayer *r = mc;
    if (!r->current || r->current->desc->id != ctx_id)
        report_restore_errors(r);
    return glrh_make_current(r, ctx_id);
}

/* ---- The pass ---- */

static void progress(struct replayer *r)
{
    double t = now_s();
    if (t - r->last_progress < 0.25)
        return;
    r->last_progress = t;
    unsigned passes = r->res->replayed_once_only ? 1 : (r->opt->loops ? r->opt->loops : 1);
    fprintf(stderr, "\rglreplay: pass %u/%u, record %llu/%llu ", r->pass + 1, passes, (unsigned long long)r->record,
            (unsigned long long)r->cap->n_records);
}

/* A call of a command the recorder could not size client memory for, that passed a pointer
 * whose bytes are not in the capture: replaying it would hand the driver an address of the
 * captured process. */
static bool lacks_client_memory(const struct replayer *r, const struct glr_call *c)
{
    return glr_call_lacks_client_memory(r->unsized, c);
}

/* A call refused as malformed: counted, with the first reason per command kept for the report. */
static void note_bad(struct replayer *r, uint32_t cmd, const char *reason)
{
    if (!r->bad[cmd]++ && !r->bad_reason[cmd])
        r->bad_reason[cmd] = strdup(reason);
}

static void note_map_result(struct replayer *r, int k)
{
    r->res->counts[k]++;
    if (k == GLR_DISPATCH_BAD && !r->map_bad++ && !r->map_bad_reason)
        r->map_bad_reason = strdup(glr_dispatch_reason(r->disp));
}

static void dispatch_gl(struct replayer *r, const struct glr_call *c)
{
    if (!c->ctx_id || glr_cmds[c->cmd].api != GLR_API_GL) {
        /* GLX/EGL calls (contexts are recreated from METADATA) and GL calls made with no context. */
        r->res->counts[GLR_DISPATCH_SKIPPED]++;
        return;
    }
    if (lacks_client_memory(r, c)) {
        r->res->counts[GLR_DISPATCH_BAD]++;
        r->unrecorded[c->cmd]++;
        return;
    }
    if (r->opt->before_draw && r->pass == 0 && r->current && glrh_cmd_is_draw(c->cmd))
        r->opt->before_draw(r->opt->before_draw_user, r->record, c, r->current->desc);
    int k = glr_dispatch_call(r->disp, c);
    r->res->counts[k]++;
    if (k == GLR_DISPATCH_MISSING)
        r->missing[c->cmd]++;
    else if (k == GLR_DISPATCH_BAD)
        note_bad(r, c->cmd, glr_dispatch_reason(r->disp));
    if (k != GLR_DISPATCH_OK) {
        /* Reads into client memory are skipped (nothing to replay), yet --verify reads them. */
        if (k == GLR_DISPATCH_SKIPPED && r->opt->verify)
            glrh_verify_readback(r, c);
        return;
    }
    /* glGetError between glBegin and glEnd is itself an error (GL_INVALID_OPERATION, returned by
     * the next glGetError): the calls inside are checked together after glEnd. */
    if (c->cmd == GLR_CMD_glBegin)
        r->in_begin_end = true;
    else if (c->cmd == GLR_CMD_glEnd)
        r->in_begin_end = false;
    if (r->opt->gl_errors && !r->in_begin_end) {
        GLenum e = glrh_gl_drain_errors(&r->gl);
        if (e != GL_NO_ERROR && !r->gl_error_count[c->cmd]++)
            r->gl_error_first[c->cmd] = e;
    }
    if (r->opt->verify)
        glrh_verify_readback(r, c);
    bool draw = glrh_cmd_is_draw(c->cmd);
    if (draw && r->n_copies)
        r->copies_drawn = true;
    if (r->opt->png_dir && r->pass == 0 && (draw || glrh_cmd_is_clear(c->cmd)))
        glrh_png_after_draw(r, c->cmd);
    if (r->opt->on_image && r->pass == 0 && (draw || glrh_cmd_is_clear(c->cmd) || glrh_cmd_is_blit(c->cmd)))
        glrh_image_after_draw(r, c->cmd);
    if (r->opt->probe && r->pass == 0)
        glrh_probe_after_call(r, c);
}

/* The next record of the pass: from the decoded form when there is one, else decoded here. */
static int next_record(struct replayer *r, struct glr_stream *s, struct glrh_decoded_cursor *dc, struct glr_call *c)
{
    return r->decoded ? glrh_decoded_next(dc, c) : glr_stream_next(s, c);
}

static int run_pass(struct replayer *r)
{
    struct glr_stream s;
    struct glr_call c;
    struct glrh_decoded_cursor dc;
    glr_stream_init(&s, r->cap->stream, r->cap->stream_size);
    if (r->decoded)
        glrh_decoded_begin(r->decoded, &dc, &c);
    r->swap_index = 0;
    r->in_begin_end = false;
    r->current = NULL;
    memset(r->image_used, 0, (r->cap->n_images + r->cap->n_hashes) * sizeof *r->image_used);
    int k;
    for (r->record = 0; (k = next_record(r, &s, &dc, &c)) == 1; r->record++) {
        crash_record = r->record;
        crash_cmd = (sig_atomic_t)c.cmd;
        if (r->opt->progress && (r->record & 1023) == 0)
            progress(r);
        switch (c.cmd) {
        case GLR_PSEUDO_CONTEXT_CREATE:
            continue; /* contexts are created before the pass, from METADATA */
        case GLR_PSEUDO_MAKE_CURRENT:
            if (c.ctx_id && glrh_make_current(r, c.ctx_id) != 0)
                return -1;
            continue;
        case GLR_PSEUDO_SWAP:
            if (glrh_on_swap(r, &c) != 0)
                return -1;
            continue;
        case GLR_PSEUDO_BUFFER_MAPPED:
            if (c.ctx_id && glrh_make_current(r, c.ctx_id) != 0)
                return -1;
            note_map_result(r, glr_dispatch_buffer_mapped(r->disp, &c));
            continue;
        case GLR_PSEUDO_BUFFER_DATA:
            /* Bytes the program wrote through a mapping: through the replay's own mapping. */
            if (c.ctx_id && glrh_make_current(r, c.ctx_id) != 0)
                return -1;
            note_map_result(r, glr_dispatch_buffer_data(r->disp, &c));
            continue;
        case GLR_PSEUDO_MAP_READ:
            /* What a read mapping held: compared, when verifying, on the mapping just replayed. */
            if (!c.ctx_id || !r->opt->verify)
                continue;
            if (glrh_make_current(r, c.ctx_id) != 0)
                return -1;
            glrh_verify_map_read(r, &c);
            continue;
        case GLR_PSEUDO_CLIENT_ARRAY:
            if (!c.ctx_id)
                continue;
            if (glrh_make_current(r, c.ctx_id) != 0)
                return -1;
            r->res->counts[glrh_client_array(r, &c)]++;
            continue;
        default:
            break;
        }
        /* The context already current is tested here, not in a call per record. */
        if (c.ctx_id && glr_cmds[c.cmd].api == GLR_API_GL &&
            !(r->current && r->current->desc->id == c.ctx_id) && glrh_make_current(r, c.ctx_id) != 0)
            return -1;
        dispatch_gl(r, &c);
        if (r->opt->probe && r->pass == 0 && r->opt->probe->stop && r->record >= r->opt->probe->last)
            break;   /* the prober asked for nothing later */
    }
    crash_cmd = -1;
    if (k < 0) {
        glrh_seterr(r, "%s: COMMAND_STREAM: %s", r->cap->path, s.err);
        return -1;
    }
    if (r->opt->verify && r->readback)
        glrh_verify_end_images(r);
    /* Finish every context's work, so a pass's time includes its rendering. */
    for (unsigned i = 0; i < r->cap->n_ctxs; i++)
        if (r->ctxs[i].ctx != EGL_NO_CONTEXT && glrh_make_current(r, r->ctxs[i].desc->id) == 0)
            r->gl.Finish();
    glrh_free_copies(r);
    return 0;
}

static void report_problems(struct replayer *r)
{
    if (r->map_bad)
        fprintf(stderr, "glreplay: warning: buffer mapping records: %s (%llu not replayed)\n",
                r->map_bad_reason ? r->map_bad_reason : "malformed", (unsigned long long)r->map_bad);
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++) {
        if (r->missing[i])
            fprintf(stderr, "glreplay: warning: %s is not available in the replaying driver (%llu calls not replayed)\n",
                    glr_cmd_name(i), (unsigned long long)r->missing[i]);
        if (r->bad[i])
            fprintf(stderr, "glreplay: warning: %s: %s (%llu calls not replayed)\n", glr_cmd_name(i),
                    r->bad_reason[i] ? r->bad_reason[i] : "recorded data is malformed", (unsigned long long)r->bad[i]);
        if (r->unrecorded[i])
            fprintf(stderr, "glreplay: warning: %s: the capture lacks the client memory it read (the recorder could "
                            "not size it; %llu calls not replayed)\n",
                    glr_cmd_name(i), (unsigned long long)r->unrecorded[i]);
        if (r->gl_error_count && r->gl_error_count[i])
            fprintf(r->out, "GL error 0x%04x after %s (%llu of its calls raised errors)\n", r->gl_error_first[i],
                    glr_cmd_name(i), (unsigned long long)r->gl_error_count[i]);
    }
}

static void replayer_free(struct replayer *r)
{
    destroy_contexts(r);
    glrh_egl_close(&r->egl);
    glr_dispatch_destroy(r->disp);
    glrh_free_copies(r);
    free(r->copies);
    for (uint64_t i = 0; i < r->n_first_pass; i++)
        free(r->first_pass[i].pixels);
    free(r->first_pass);
    free(r->ctxs);
    free(r->image_used);
    free(r->missing);
    free(r->bad);
    if (r->bad_reason)
        for (uint32_t i = 0; i < GLR_CMD_COUNT; i++)
            free(r->bad_reason[i]);
    free(r->bad_reason);
    free(r->map_bad_reason);
    free(r->unrecorded);
    free(r->unsized);
    free(r->gl_error_count);
    free(r->gl_error_first);
    free(r->swap_pixels);
}

/* The pass reset for a snapshot capture replayed more than once (see pass_reset.h), or NULL:
 * every pass then starts from scratch. */
static struct glrh_reset *plan_reset(struct replayer *r, unsigned passes, struct glr_restore **own)
{
    const struct glrh_options *opt = r->opt;
    const char *env = getenv("GLREPLAY_FULL_RESTORE");
    if (passes < 2 || r->cap->initial_default || !opt->restore || strcmp(r->cap->initial_state, "snapshot") != 0)
        return NULL;
    char *why = r->res->full_restore_why;
    size_t why_size = sizeof r->res->full_restore_why;
    struct glrh_reset *p = NULL;
    if (opt->full_restore || (env && strcmp(env, "1") == 0)) {
        snprintf(why, why_size, "asked for (GLREPLAY_FULL_RESTORE=1)");
    } else {
        struct glr_restore *snap = opt->snapshot;
        if (!snap)
            snap = *own = glr_restore_load(r->cap->path, why, why_size);
        if (snap)
            p = glrh_reset_plan(snap, r->cap, why, why_size);
    }
    r->res->kept_objects = p != NULL;
    if (opt->benchmark) {
        if (p) {
            struct glrh_reset_summary s;
            glrh_reset_summary(p, &s);
            fprintf(r->out, "reset: passes after the first keep contexts and objects; the frame writes %u buffers, "
                            "%u textures, %u renderbuffers, %u default framebuffers, creates %u objects, relinks %u "
                            "programs; %zu reset calls, %zu deletions per pass\n",
                    s.buffers_written, s.textures_written, s.renderbuffers_written, s.default_written,
                    s.objects_created, s.programs_relinked, s.reset_calls, s.end_calls);
            fprintf(r->out, "frame uses: %u buffers (%llu bytes), %u textures (%llu bytes) of the initial state\n",
                    s.used_buffers, (unsigned long long)s.used_buffer_bytes, s.used_textures,
                    (unsigned long long)s.used_texture_bytes);
        } else {
            fprintf(r->out, "reset: full restore before every pass: %s\n", why);
        }
    }
    return p;
}

int glrh_replay(const struct glrh_capture *cap, const struct glrh_options *opt, struct glrh_result *res, char *err,
                size_t err_size)
{
    memset(res, 0, sizeof *res);
    struct replayer r = {
        .cap = cap, .opt = opt, .out = opt->out ? opt->out : stdout, .res = res, .err = err, .err_size = err_size,
    };
    r.egl.dpy = EGL_NO_DISPLAY;
    unsigned passes = opt->loops ? opt->loops : 1;
    if (!cap->initial_default && !opt->restore) {
        res->replayed_once_only = passes > 1;
        passes = 1;
    }
    r.readback = opt->verify || opt->png_dir || (passes > 1 && !opt->benchmark);
    int rc = -1;
    r.ctxs = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *r.ctxs);
    r.image_used = calloc(cap->n_images + cap->n_hashes + 1, sizeof *r.image_used);
    r.missing = calloc(GLR_CMD_COUNT, sizeof *r.missing);
    r.bad = calloc(GLR_CMD_COUNT, sizeof *r.bad);
    r.unrecorded = calloc(GLR_CMD_COUNT, sizeof *r.unrecorded);
    r.bad_reason = calloc(GLR_CMD_COUNT, sizeof *r.bad_reason);
    r.unsized = calloc(GLR_CMD_COUNT, sizeof *r.unsized);
    if (opt->gl_errors) {
        r.gl_error_count = calloc(GLR_CMD_COUNT, sizeof *r.gl_error_count);
        r.gl_error_first = calloc(GLR_CMD_COUNT, sizeof *r.gl_error_first);
    }
    r.disp = glr_dispatch_create(glrh_get_proc, glrh_namespace, (void *)r.cap);
    if (!r.ctxs || !r.image_used || !r.missing || !r.bad || !r.bad_reason || !r.unrecorded || !r.unsized || !r.disp ||
        (opt->gl_errors && (!r.gl_error_count || !r.gl_error_first))) {
        glrh_seterr(&r, "out of memory");
        goto out;
    }
    for (unsigned i = 0; i < cap->n_unsized; i++) {
        int cmd = glr_cmd_find(cap->unsized[i]);
        if (cmd >= 0)
            r.unsized[cmd] = true;
    }
    if (opt->png_dir && mkdir(opt->png_dir, 0777) != 0 && errno != EEXIST) {
        glrh_seterr(&r, "%s: cannot create the PNG folder: %s", opt->png_dir, strerror(errno));
        goto out;
    }
    if (glrh_egl_open(&r.egl, err, err_size) != 0)
        goto out;
    const char *missing = NULL;
    if (!glrh_gl_load(&r.gl, &missing)) {
        glrh_seterr(&r, "the GL driver has no %s", missing);
        goto out;
    }
    plan_surfaces(&r);
    /* Several passes: decode the stream once (a bounded compact form, decoded_stream.h); the
     * loader has validated it, so a failure here is only the budget or memory, and each pass then
     * decodes as before. */
    if (passes > 1)
        r.decoded = glrh_decoded_build(cap->stream, cap->stream_size, GLRH_DECODED_BUDGET);
    struct glr_restore *own_snapshot = NULL;
    struct glrh_reset *reset = plan_reset(&r, passes, &own_snapshot);
    struct sigaction saved[4];
    install_crash_handler(saved);
    for (r.pass = 0; r.pass < passes; r.pass++) {
        double t_setup = now_s();
        if (r.pass > 0 && reset) {
            /* Same contexts, same objects: only what the frame changed is set back. */
            struct glr_restore_stats st;
            if (glrh_reset_run(reset, r.disp, restore_make_current, &r, &st) != 0)
                break;
            if (opt->benchmark && r.pass == 1)
                fprintf(r.out, "reset: %llu calls and %u saved image%s copied before each pass\n",
                        (unsigned long long)st.calls, st.contents_restored, st.contents_restored == 1 ? "" : "s");
            if ((st.calls_failed || st.contents_failed) && r.pass == 1)
                fprintf(stderr, "glreplay: warning: pass reset: %llu of %llu calls failed (first: %s), %u saved image(s) "
                                "not copied\n", (unsigned long long)st.calls_failed, (unsigned long long)st.calls,
                        st.first_failed ? st.first_failed : "-", st.contents_failed);
        } else {
            /* From scratch: fresh contexts (so fresh objects) and no name mappings. */
            destroy_contexts(&r);
            glr_dispatch_reset_names(r.disp);
            if (create_contexts(&r) != 0)
                break;
            if (!cap->initial_default && opt->restore &&
                opt->restore(opt->restore_user, cap, r.disp, restore_make_current, &r, err, err_size) != 0)
                break;
            if (r.pass == 0)
                report_restore_errors(&r);
        }
        double t0 = now_s();
        if (r.pass == 0)
            res->setup_seconds = t0 - t_setup;
        else
            res->reset_seconds += t0 - t_setup;
        if (run_pass(&r) != 0)
            break;
        double t1 = now_s();
        res->seconds += t1 - t0;
        if (r.pass == 0)
            res->first_seconds = t1 - t0;
        if (reset && r.pass + 1 < passes) {
            glrh_reset_end_pass(reset, r.disp, restore_make_current, &r);
            res->reset_seconds += now_s() - t1;
        }
        res->passes++;
    }
    restore_crash_handler(saved);
    if (reset)
        glr_restore_forget_copies(opt->snapshot ? opt->snapshot : own_snapshot);
    glrh_reset_free(reset);
    glr_restore_free(own_snapshot);
    if (opt->benchmark && res->passes > 1) {
        /* Steady state: passes 2..N with the work between passes counted in. */
        double later = res->seconds - res->first_seconds + res->reset_seconds;
        unsigned n = res->passes - 1;
        fprintf(r.out, "benchmark: steady state: %u passes in %.3f s: %.2f passes/s including the reset between passes "
                       "(%s: %.2f ms per pass); first pass %.1f ms after %.1f ms of setup\n",
                n, later, later > 0 ? n / later : 0.0,
                res->kept_objects ? "kept objects, reset what the frame changed" : "contexts recreated, full restore",
                1e3 * res->reset_seconds / n, 1e3 * res->first_seconds, 1e3 * res->setup_seconds);
    }
    if (opt->progress)
        fprintf(stderr, "\r\033[K");
    if (res->passes == passes)
        rc = 0;
    report_problems(&r);
out:
    replayer_free(&r);
    return rc;
}
