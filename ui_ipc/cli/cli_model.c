/* `glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark]`
 *
 * Runs every draw and clear of a capture in the GPU model (gpu_model/frame). With --compare the
 * same frame is replayed on the driver (EGL surfaceless, through the replay dispatcher) in lock
 * step: after every draw and clear, each render target of the bound draw framebuffer is read
 * from both and compared (colour: a pixel agrees when every channel is within +-1/255; depth: within
 * 1/65536, desktop GL only), and at every swap the default framebuffer; after every compute
 * dispatch, instead, every bound shader storage buffer ("ctxN/ssboB": share of 32-bit words equal, or
 * as floats within 1e-5 relative, model's state-model contents vs glGetNamedBufferSubData) and
 * atomic counter buffer ("ctxN/atomicB"), storage buffers left out for a program that reads the
 * shader clock (compare_buffers). --png DIR writes the
 * model's image after each draw/clear and, where they differ, the driver's and a diff image.
 * --benchmark times the model and the driver on the same frames (per frame, swap to swap).
 * --trace-hash observes every issued warp instruction (draw, stage, warp, pc, line, active mask)
 * and prints their count and a hash of the sequence: equal hashes mean the same warps ran in the
 * same order (the determinism check); it also reads a variable at a sample of instructions.
 * Warps run through the timing model (gpu_model/timing), which gives each draw a cycle count
 * (text: "N cycles", JSON: "cycles", "vs_cycles", "gs_cycles", "fs_cycles", "tess_cycles" with tessellation,
 * "instructions"); --no-timing
 * runs them to completion in the executor alone (faster, no cycle counts, same images).
 *
 * Every swap's model image is also compared with the capture's reference image of it (what the
 * program's own driver showed), and so are the reference images of the framebuffer object bound
 * for drawing at a swap: a replay that lost the program's data on both sides cannot pass.
 *
 * Exit status: 0 ran (with --compare: every comparison >= 99.9%, every reference compared, no
 * draw or dispatch failed or met an unsupported feature, the driver side replayed every record);
 * 1 --compare failed (the reasons are printed, and in JSON "fail_reasons"); 2 bad usage or the
 * capture/driver could not be used. */
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli_common.h"
#include "cli_model.h"
#include "cli_stop.h"
#include "capture/glcap_file.h"
#include "gmf_frame.h"
#include "debugger/snapshot_contents.h"
#include "replay/player/crash_guard.h"
#include "replay/player/egl_env.h"
#include "replay/player/gl_readback.h"
#include "replay/player/player.h"
#include "replay/player/image_util.h"
#include "replay/player/replay_client_arrays.h"
#include "replay/replay.h"
#include "statemodel/statemodel.h"

#define USAGE "usage: glreplay model F.glcap [--compare] [--png DIR] [--json] [--benchmark] [--trace-hash] [--no-timing] [--timeout S]"
#define PASS_FRACTION 0.999
#define DEPTH_TOLERANCE (1.0 / 65536.0)

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ------------------------------------------------------------------ the driver side */

struct dctx {
    const struct glrh_context *desc;
    EGLContext ctx;
    EGLSurface surf;
    unsigned w, h;
    bool alpha;
};

struct driver {
    struct glrh_egl egl;
    struct glrh_gl gl;
    struct glr_dispatch *disp;
    struct dctx *ctxs;
    unsigned n;
    struct dctx *current;
    void **copies;
    size_t n_copies, cap_copies;
    bool copies_drawn;
    bool *unsized;
    /* Records the driver side could not replay (malformed, a function the driver lacks, client
     * memory the capture does not hold, a mapping write with no mapping): its image is then not
     * the program's, so a comparison with it proves nothing. */
    uint64_t skipped;
    char first_skipped[128];
};

static struct dctx *dctx_of(struct driver *d, uint32_t id)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->ctxs[i].desc->id == id)
            return &d->ctxs[i];
    return NULL;
}


static int make_current(struct driver *d, uint32_t id)
{
    if (d->current && d->current->desc->id == id)
        return 0;
    struct dctx *c = dctx_of(d, id);
    if (!c || c->ctx == EGL_NO_CONTEXT || !glrh_egl_make_current(&d->egl, c->surf, c->ctx))
        return -1;
    d->current = c;
    return 0;
}

static int make_current_cb(void *user, uint32_t id)
{
    return make_current(user, id);
}

static void driver_close(struct driver *d)
{
    if (d->egl.dpy != EGL_NO_DISPLAY) {
        glrh_egl_make_current(&d->egl, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        for (unsigned i = 0; i < d->n; i++)
            if (d->ctxs[i].ctx != EGL_NO_CONTEXT)
                glrh_egl_destroy(&d->egl, d->ctxs[i].ctx, d->ctxs[i].surf);
        glrh_egl_close(&d->egl);
    }
    glr_dispatch_destroy(d->disp);
    for (size_t i = 0; i < d->n_copies; i++)
        free(d->copies[i]);
    free(d->copies);
    free(d->ctxs);
    free(d->unsized);
    memset(d, 0, sizeof *d);
    d->egl.dpy = EGL_NO_DISPLAY;
}

static int driver_open(struct driver *d, const struct glrh_capture *cap, const gmf_surface_desc *surf,
                       int n_surf, char *err, size_t n)
{
    memset(d, 0, sizeof *d);
    d->egl.dpy = EGL_NO_DISPLAY;
    d->ctxs = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *d->ctxs);
    d->unsized = calloc(GLR_CMD_COUNT, sizeof *d->unsized);
    d->disp = glr_dispatch_create(glrh_get_proc, glrh_namespace, (void *)cap);
    if (!d->ctxs || !d->unsized || !d->disp) {
        snprintf(err, n, "out of memory");
        return -1;
    }
    for (unsigned i = 0; i < cap->n_unsized; i++) {
        int cmd = glr_cmd_find(cap->unsized[i]);
        if (cmd >= 0)
            d->unsized[cmd] = true;
    }
    if (glrh_egl_open(&d->egl, err, n) != 0)
        return -1;
    const char *missing = NULL;
    if (!glrh_gl_load(&d->gl, &missing)) {
        snprintf(err, n, "the GL driver has no %s", missing);
        return -1;
    }
    d->n = cap->n_ctxs;
    for (unsigned i = 0; i < d->n; i++) {
        d->ctxs[i].desc = &cap->ctxs[i];
        d->ctxs[i].ctx = EGL_NO_CONTEXT;
        d->ctxs[i].surf = EGL_NO_SURFACE;
        d->ctxs[i].w = 256;
        d->ctxs[i].h = 256;
        for (int k = 0; k < n_surf; k++)
            if (surf[k].ctx_id == cap->ctxs[i].id) {
                d->ctxs[i].w = (unsigned)surf[k].width;
                d->ctxs[i].h = (unsigned)surf[k].height;
                d->ctxs[i].alpha = surf[k].alpha;
            }
    }
    /* In id order, each sharing with the first created context of its share group. */
    for (;;) {
        struct dctx *next = NULL;
        for (unsigned i = 0; i < d->n; i++)
            if (d->ctxs[i].ctx == EGL_NO_CONTEXT && d->ctxs[i].desc->described &&
                (!next || d->ctxs[i].desc->id < next->desc->id))
                next = &d->ctxs[i];
        if (!next)
            break;
        EGLContext share = EGL_NO_CONTEXT;
        for (unsigned i = 0; i < d->n; i++)
            if (d->ctxs[i].ctx != EGL_NO_CONTEXT &&
                d->ctxs[i].desc->share_group == next->desc->share_group) {
                share = d->ctxs[i].ctx;
                break;
            }
        if (glrh_egl_create(&d->egl, next->desc, share, next->w, next->h, next->alpha, &next->ctx,
                            &next->surf, err, n) != 0)
            return -1;
    }
    return 0;
}

static void driver_client_array(struct driver *d, const struct glr_call *c)
{
    if (d->copies_drawn) {
        for (size_t i = 0; i < d->n_copies; i++)
            free(d->copies[i]);
        d->n_copies = 0;
        d->copies_drawn = false;
    }
    if (d->n_copies == d->cap_copies) {
        size_t cap = d->cap_copies ? 2 * d->cap_copies : 16;
        void **nc = realloc(d->copies, cap * sizeof *nc);
        if (!nc)
            return;
        d->copies = nc;
        d->cap_copies = cap;
    }
    size_t size = c->blobs[0].size;
    void *mem = malloc(size ? size : 1);
    if (!mem)
        return;
    if (size)
        memcpy(mem, c->blobs[0].data, size);
    d->copies[d->n_copies++] = mem;
    glrh_point_client_array(&d->gl, c, mem);
}

static bool lacks_client_memory(const struct driver *d, const struct glr_call *c)
{
    return glr_call_lacks_client_memory(d->unsized, c);
}

static void driver_skip(struct driver *d, const struct glr_call *c, const char *why)
{
    if (!d->skipped++)
        snprintf(d->first_skipped, sizeof d->first_skipped, "%s (%s)", glr_call_name(c->cmd), why);
}

static const char *dispatch_failure(int res)
{
    return res == GLR_DISPATCH_MISSING ? "the driver lacks it" : "malformed record";
}

/* Replays one record on the driver. */
static void driver_feed(struct driver *d, const struct glr_call *c, bool is_draw)
{
    switch (c->cmd) {
    case GLR_PSEUDO_CONTEXT_CREATE:
    case GLR_PSEUDO_SWAP:
        return;
    case GLR_PSEUDO_MAKE_CURRENT:
        if (c->ctx_id)
            make_current(d, c->ctx_id);
        return;
    case GLR_PSEUDO_CLIENT_ARRAY:
        if (c->ctx_id && make_current(d, c->ctx_id) == 0)
            driver_client_array(d, c);
        return;
    case GLR_PSEUDO_BUFFER_MAPPED:
    case GLR_PSEUDO_BUFFER_DATA: {
        /* Bytes the program wrote through a mapping, and mappings live when the capture began:
         * through the replay's own mapping, exactly as `glreplay replay` does. */
        if (!c->ctx_id || make_current(d, c->ctx_id) != 0) {
            driver_skip(d, c, "no context");
            return;
        }
        int res = c->cmd == GLR_PSEUDO_BUFFER_DATA ? glr_dispatch_buffer_data(d->disp, c)
                                                   : glr_dispatch_buffer_mapped(d->disp, c);
        if (res != GLR_DISPATCH_OK)
            driver_skip(d, c, "no live mapping holds its bytes");
        return;
    }
    default:
        break;
    }
    if (c->cmd >= GLR_CMD_COUNT || !c->ctx_id || glr_cmds[c->cmd].api != GLR_API_GL)
        return;
    if (make_current(d, c->ctx_id) != 0) {
        driver_skip(d, c, "its context could not be made current");
        return;
    }
    if (lacks_client_memory(d, c)) {
        driver_skip(d, c, "client memory not in the capture");
        return;
    }
    int res = glr_dispatch_call(d->disp, c);
    if (res == GLR_DISPATCH_BAD || res == GLR_DISPATCH_MISSING)
        driver_skip(d, c, dispatch_failure(res));
    if (is_draw && d->n_copies)
        d->copies_drawn = true;
}

/* Reads the bound draw framebuffer's colour buffer `buffer` (GL_BACK or GL_COLOR_ATTACHMENTi) or
 * its depth (depth = true) into out; every binding and pack state touched is restored. */
static int driver_read(struct driver *d, GLenum buffer, bool depth, int w, int h, void *out)
{
    const struct glrh_gl *gl = &d->gl;
    const struct glrh_context *desc = d->current->desc;
    bool gl3 = !desc->es ? desc->major >= 3 : desc->major >= 3;
    if (!gl3 || !gl->BindFramebuffer || !gl->ReadBuffer)
        return -1;
    if (depth && desc->es)
        return -1;
    glrh_gl_drain_errors(gl);
    GLint draw_fbo = 0, read_fbo = 0, read_buf = 0, align = 4, pack_buf = 0, row = 0, sr = 0, sp = 0;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fbo);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
    if (read_fbo != draw_fbo)
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)draw_fbo);
    gl->GetIntegerv(GL_READ_BUFFER, &read_buf);
    if (!depth && (GLenum)read_buf != buffer)
        gl->ReadBuffer(buffer);
    gl->GetIntegerv(GL_PACK_ALIGNMENT, &align);
    gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
    gl->GetIntegerv(GL_PACK_ROW_LENGTH, &row);
    gl->GetIntegerv(GL_PACK_SKIP_ROWS, &sr);
    gl->GetIntegerv(GL_PACK_SKIP_PIXELS, &sp);
    if (pack_buf)
        gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, 0);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, 0);
    if (depth)
        gl->ReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_FLOAT, out);
    else
        gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    GLenum e = glrh_gl_drain_errors(gl);
    gl->PixelStorei(GL_PACK_ALIGNMENT, align);
    gl->PixelStorei(GL_PACK_ROW_LENGTH, row);
    gl->PixelStorei(GL_PACK_SKIP_ROWS, sr);
    gl->PixelStorei(GL_PACK_SKIP_PIXELS, sp);
    if (pack_buf)
        gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
    if (!depth && (GLenum)read_buf != buffer)
        gl->ReadBuffer((GLenum)read_buf);
    if (read_fbo != draw_fbo)
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fbo);
    glrh_gl_drain_errors(gl);
    return e == GL_NO_ERROR ? 0 : -1;
}

/* driver_read under the crash guard, for the record last fed to the driver. */
static int guarded_read(struct driver *d, GLenum buffer, bool depth, int w, int h, void *out)
{
    glrh_crash_guard_rearm();
    int res = driver_read(d, buffer, depth, w, h, out);
    glrh_crash_guard_disarm();
    return res;
}

/* ------------------------------------------------------------------ the run */

struct target_stat {
    char name[64];
    uint64_t compared;
    double min_agreement, last_agreement;
    uint64_t min_record;
};

struct run {
    const struct glrh_capture *cap;
    gmf_runner *m;
    struct driver drv;
    bool compare, json, benchmark, progress, trace;
    bool no_timing;           /* --no-timing */
    bool timing;              /* the runner uses the timing model (per-draw cycles) */
    uint64_t trace_hash, trace_count, trace_reads;
    uint64_t stopped_record;   /* --timeout / Ctrl-C: the record the run stopped at */
    const char *png_dir;
    cJSON *root, *events, *swaps;
    struct target_stat *targets;
    size_t n_targets;
    uint64_t comparisons, failing;
    /* Reference images of the capture that could not be compared with the model (size differs,
     * the attachment is not bound in the model): each one is a failure of --compare. */
    uint64_t uncompared;
    char first_uncompared[160];
    double worst;
    char worst_name[96];
    bool passed;              /* --compare's verdict (report) */
    /* benchmark */
    double model_frame_s, driver_frame_s, last_progress;
    cJSON *frames;
    unsigned frame_index;
    bool *image_used;
};

static struct target_stat *target_stat(struct run *r, const char *name)
{
    for (size_t i = 0; i < r->n_targets; i++)
        if (!strcmp(r->targets[i].name, name))
            return &r->targets[i];
    struct target_stat *n = realloc(r->targets, (r->n_targets + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->targets = n;
    struct target_stat *t = &n[r->n_targets++];
    memset(t, 0, sizeof *t);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->min_agreement = 1.0;
    return t;
}

struct cmp {
    uint64_t pixels, agree;
    unsigned max_delta;
    double agreement;
};

static void compare_rgba(const uint8_t *a, const uint8_t *b, int w, int h, bool alpha, struct cmp *c,
                         uint8_t *diff)
{
    memset(c, 0, sizeof *c);
    c->pixels = (uint64_t)w * (uint64_t)h;
    int nc = alpha ? 4 : 3;
    for (uint64_t i = 0; i < c->pixels; i++) {
        unsigned md = 0;
        for (int k = 0; k < nc; k++) {
            int dlt = abs((int)a[4 * i + k] - (int)b[4 * i + k]);
            if ((unsigned)dlt > md)
                md = (unsigned)dlt;
        }
        if (md > c->max_delta)
            c->max_delta = md;
        if (md <= 1)
            c->agree++;
        if (diff) {
            uint8_t g = (uint8_t)((b[4 * i] + b[4 * i + 1] + b[4 * i + 2]) / 12);
            diff[4 * i + 0] = md > 1 ? (uint8_t)(128 + (md > 127 ? 127 : md)) : g;
            diff[4 * i + 1] = md > 1 ? 0 : g;
            diff[4 * i + 2] = md > 1 ? 0 : g;
            diff[4 * i + 3] = 255;
        }
    }
    c->agreement = c->pixels ? (double)c->agree / (double)c->pixels : 1.0;
}

static void compare_depth(const float *a, const float *b, int w, int h, struct cmp *c)
{
    memset(c, 0, sizeof *c);
    c->pixels = (uint64_t)w * (uint64_t)h;
    double maxd = 0;
    for (uint64_t i = 0; i < c->pixels; i++) {
        double dd = fabs((double)a[i] - (double)b[i]);
        if (dd > maxd)
            maxd = dd;
        if (dd <= DEPTH_TOLERANCE)
            c->agree++;
    }
    c->max_delta = (unsigned)(maxd * 65536.0 > 1e9 ? 1e9 : maxd * 65536.0);
    c->agreement = c->pixels ? (double)c->agree / (double)c->pixels : 1.0;
}

static void safe_name(char *out, size_t n, const char *in)
{
    size_t k = 0;
    for (; in[k] && k + 1 < n; k++)
        out[k] = (in[k] == '/' || in[k] == ' ') ? '_' : in[k];
    out[k] = 0;
}

static void write_png(struct run *r, uint64_t record, const char *what, const char *target,
                      const uint8_t *px, int w, int h)
{
    char tn[80], path[4096], err[4200];
    safe_name(tn, sizeof tn, target);
    snprintf(path, sizeof path, "%s/%06llu_%s_%s.png", r->png_dir, (unsigned long long)record, tn, what);
    if (glrh_write_png(path, px, (unsigned)w, (unsigned)h, err, sizeof err) != 0) {
        static bool warned;
        if (!warned)
            cli_error("warning: %s", err);
        warned = true;
    }
}

/* Records one comparison's result (per target statistics, JSON, text). */
static void note_result(struct run *r, const char *target, const struct cmp *c, uint64_t record,
                        cJSON *list)
{
    r->comparisons++;
    struct target_stat *t = target_stat(r, target);
    if (t) {
        t->compared++;
        t->last_agreement = c->agreement;
        if (c->agreement < t->min_agreement) {
            t->min_agreement = c->agreement;
            t->min_record = record;
        }
    }
    if (c->agreement < PASS_FRACTION) {
        r->failing++;
        if (c->agreement < r->worst || r->failing == 1) {
            r->worst = c->agreement;
            snprintf(r->worst_name, sizeof r->worst_name, "%s at record %llu", target,
                     (unsigned long long)record);
        }
    }
    if (list) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "target", target);
        cJSON_AddNumberToObject(o, "agreement", c->agreement);
        cJSON_AddNumberToObject(o, "pixels", (double)c->pixels);
        cJSON_AddNumberToObject(o, "differing", (double)(c->pixels - c->agree));
        cJSON_AddNumberToObject(o, "max_delta", c->max_delta);
        cJSON_AddItemToArray(list, o);
    }
}

/* Compares every target of the draw framebuffer bound on ctx after a draw/clear. */
static void compare_targets(struct run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                            size_t text_size)
{
    gmf_target tg[GMF_MAX_TARGETS];
    int n = gmf_current_targets(r->m, ctx_id, tg, GMF_MAX_TARGETS);
    size_t used = strlen(text);
    for (int i = 0; i < n; i++) {
        const gmf_target *t = &tg[i];
        struct cmp c;
        if (t->kind == GMF_TARGET_COLOR) {
            uint8_t *mp = NULL;
            int w, h;
            if (t->integer || gmf_read_color(r->m, ctx_id, t->draw_buffer, &mp, &w, &h) != 0)
                continue;
            uint8_t *dp = NULL, *diff = NULL;
            if (r->compare) {
                dp = malloc((size_t)w * (size_t)h * 4);
                diff = r->png_dir ? malloc((size_t)w * (size_t)h * 4) : NULL;
                if (dp && guarded_read(&r->drv, t->attachment, false, w, h, dp) == 0) {
                    compare_rgba(mp, dp, w, h, t->has_alpha, &c, diff);
                    note_result(r, t->name, &c, record, list);
                    if (used < text_size)
                        used += (size_t)snprintf(text + used, text_size - used, " %s %.4f%%", t->name,
                                                 100.0 * c.agreement);
                    if (r->png_dir && c.agree < c.pixels) {
                        write_png(r, record, "driver", t->name, dp, w, h);
                        write_png(r, record, "diff", t->name, diff, w, h);
                    }
                }
            }
            if (r->png_dir)
                write_png(r, record, "model", t->name, mp, w, h);
            free(mp);
            free(dp);
            free(diff);
        } else if (r->compare) {
            float *mz = NULL;
            int w, h;
            if (gmf_read_depth(r->m, ctx_id, &mz, &w, &h) != 0)
                continue;
            float *dz = malloc((size_t)w * (size_t)h * sizeof *dz);
            if (dz && guarded_read(&r->drv, 0, true, w, h, dz) == 0) {
                compare_depth(mz, dz, w, h, &c);
                note_result(r, t->name, &c, record, list);
                if (used < text_size)
                    used += (size_t)snprintf(text + used, text_size - used, " %s %.4f%%", t->name,
                                             100.0 * c.agreement);
            }
            free(mz);
            free(dz);
        }
    }
}

/* Two buffer words agree when their bits are equal, or as floats within 1e-5 relative (the
 * model's and the driver's transcendental functions may differ in the last bits; integers
 * stored in the same words differ far more than that unless they are equal). */
static bool words_agree(uint32_t a, uint32_t b)
{
    if (a == b)
        return true;
    float fa, fb;
    memcpy(&fa, &a, 4);
    memcpy(&fb, &b, 4);
    if (!isfinite(fa) || !isfinite(fb))
        return false;
    float m = fmaxf(fabsf(fa), fabsf(fb));
    return fabsf(fa - fb) <= 1e-5f * m && m >= 1e-30f;
}

/* After a compute dispatch: the contents of every shader storage buffer bound on the context,
 * as the model wrote them (the state model's buffer) and as the driver did (read back with
 * glGetNamedBufferSubData after a glMemoryBarrier, which changes no state); agreement = share
 * of 32-bit words that agree. Target name "ssbo<binding>"; the bound atomic counter buffers too
 * ("atomic<binding>"). A dispatch whose program reads the shader clock (clock) has its storage
 * buffers left uncompared: their contents differ between any two runs. With xfb, after a draw: the buffers
 * of the active transform feedback object instead ("xfb<index>"), what the model's capture
 * wrote against what the driver's did. */
static void compare_buffers(struct run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                            size_t text_size, bool xfb, bool clock)
{
    static PFNGLGETNAMEDBUFFERSUBDATAPROC get_sub;
    static PFNGLMEMORYBARRIERPROC barrier;
    if (!get_sub)
        get_sub = (PFNGLGETNAMEDBUFFERSUBDATAPROC)glrh_get_proc(NULL, "glGetNamedBufferSubData");
    if (!barrier)
        barrier = (PFNGLMEMORYBARRIERPROC)glrh_get_proc(NULL, "glMemoryBarrier");
    const struct sm_context *c = sm_context_get(gmf_state(r->m), ctx_id);
    if (!c || !get_sub || !barrier)
        return;
    const struct sm_context_state *st = sm_context_state(c);
    const struct sm_transform_feedback *tf = xfb ? sm_get_transform_feedback(c, st->tfo) : NULL;
    if (xfb && (!tf || !tf->active))
        return;
    size_t used = strlen(text);
    bool synced = false;
    /* after a dispatch: storage buffers, then atomic counter buffers ("atomic<binding>") */
    unsigned n_ssbo = xfb ? 0 : SM_MAX_SSBO_BINDINGS;
    unsigned n = xfb ? SM_MAX_TFB_BUFFERS : SM_MAX_SSBO_BINDINGS + SM_MAX_ATOMIC_BINDINGS;
    for (unsigned k = 0; k < n; k++) {
        bool atomic = !xfb && k >= n_ssbo;
        unsigned i = atomic ? k - n_ssbo : k;
        const struct sm_indexed_buffer *ib = xfb ? &tf->buffers[i] : atomic ? &st->atomic[i] : &st->ssbo[i];
        if (!xfb && !atomic && clock) {
            /* the program reads the shader clock: what it stores differs on every run, the
             * driver's too; its storage buffers are not compared (atomic counters are) */
            if (ib->buffer && used < text_size)
                used += (size_t)snprintf(text + used, text_size - used,
                                         " ctx%u/ssbo%u not compared (shader clock)", ctx_id, i);
            continue;
        }
        const struct sm_buffer *b = ib->buffer ? sm_get_buffer(c, ib->buffer) : NULL;
        if (!b || !b->data || !b->data_known || ib->offset >= b->size)
            continue;
        uint64_t size = ib->size ? ib->size : b->size - ib->offset;
        if (ib->offset + size > b->size)
            size = b->size - ib->offset;
        size &= ~(uint64_t)3;
        if (!size || size > (256u << 20))
            continue;
        uint8_t *dp = malloc(size);
        if (!dp)
            continue;
        if (!synced) {
            barrier(GL_ALL_BARRIER_BITS);
            synced = true;
        }
        GLuint name = (GLuint)glr_dispatch_lookup(r->drv.disp, ctx_id, GLR_OBJ_BUFFER, ib->buffer);
        glrh_crash_guard_rearm();
        get_sub(name, (GLintptr)ib->offset, (GLsizeiptr)size, dp);
        glrh_crash_guard_disarm();
        if (glrh_gl_drain_errors(&r->drv.gl) != GL_NO_ERROR) {
            free(dp);
            continue;
        }
        struct cmp cm = { size / 4, 0, 0, 0 };
        const uint8_t *mp = b->data + ib->offset;
        for (uint64_t k = 0; k < size / 4; k++) {
            uint32_t a, d;
            memcpy(&a, mp + 4 * k, 4);
            memcpy(&d, dp + 4 * k, 4);
            cm.agree += words_agree(a, d);
        }
        cm.agreement = (double)cm.agree / (double)cm.pixels;
        char tname[32];
        snprintf(tname, sizeof tname, xfb ? "ctx%u/xfb%u" : atomic ? "ctx%u/atomic%u" : "ctx%u/ssbo%u",
                 ctx_id, i);
        note_result(r, tname, &cm, record, list);
        if (used < text_size)
            used += (size_t)snprintf(text + used, text_size - used, " %s %.4f%%", tname,
                                     100.0 * cm.agreement);
        free(dp);
    }
}

/* After a compute dispatch: every texture level bound to an image unit for writing, as the model
 * holds it and as the driver does (glGetTextureImage as RGBA8 after a glMemoryBarrier, the pack
 * state set aside and restored); agreement = share of texels whose channels are within +-1/255.
 * Target name "image<unit>". A compute shader that only writes an image is otherwise compared
 * nowhere (its frame may draw nothing and end without a swap). */
static void compare_images(struct run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                           size_t text_size)
{
    static PFNGLGETTEXTUREIMAGEPROC get_image;
    static PFNGLMEMORYBARRIERPROC barrier;
    if (!get_image)
        get_image = (PFNGLGETTEXTUREIMAGEPROC)glrh_get_proc(NULL, "glGetTextureImage");
    if (!barrier)
        barrier = (PFNGLMEMORYBARRIERPROC)glrh_get_proc(NULL, "glMemoryBarrier");
    const struct sm_context *c = sm_context_get(gmf_state(r->m), ctx_id);
    if (!c || !get_image || !barrier || !r->drv.current)
        return;
    const struct glrh_gl *gl = &r->drv.gl;
    const struct sm_context_state *st = sm_context_state(c);
    size_t used = strlen(text);
    for (unsigned i = 0; i < SM_MAX_IMAGE_UNITS; i++) {
        const struct sm_image_unit *iu = &st->image[i];
        if (!iu->texture || iu->access == GL_READ_ONLY)
            continue;
        uint8_t *mp = NULL;
        int w, h, d;
        if (gmf_read_texture(r->m, ctx_id, iu->texture, iu->level, &mp, &w, &h, &d) != 0)
            continue;   /* integer formats: their words are not RGBA8 */
        size_t size = (size_t)w * (size_t)h * (size_t)d * 4;
        uint8_t *dp = malloc(size);
        if (!dp || size > (1u << 30)) {
            free(mp);
            free(dp);
            continue;
        }
        glrh_gl_drain_errors(gl);
        barrier(GL_ALL_BARRIER_BITS);
        GLint align = 4, pack_buf = 0, row = 0, sr = 0, sp = 0, ih = 0, si = 0;
        gl->GetIntegerv(GL_PACK_ALIGNMENT, &align);
        gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
        gl->GetIntegerv(GL_PACK_ROW_LENGTH, &row);
        gl->GetIntegerv(GL_PACK_SKIP_ROWS, &sr);
        gl->GetIntegerv(GL_PACK_SKIP_PIXELS, &sp);
        gl->GetIntegerv(GL_PACK_IMAGE_HEIGHT, &ih);
        gl->GetIntegerv(GL_PACK_SKIP_IMAGES, &si);
        if (pack_buf)
            gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
        gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
        gl->PixelStorei(GL_PACK_SKIP_ROWS, 0);
        gl->PixelStorei(GL_PACK_SKIP_PIXELS, 0);
        gl->PixelStorei(GL_PACK_IMAGE_HEIGHT, 0);
        gl->PixelStorei(GL_PACK_SKIP_IMAGES, 0);
        GLuint name = (GLuint)glr_dispatch_lookup(r->drv.disp, ctx_id, GLR_OBJ_TEXTURE, iu->texture);
        glrh_crash_guard_rearm();
        get_image(name, iu->level, GL_RGBA, GL_UNSIGNED_BYTE, (GLsizei)size, dp);
        glrh_crash_guard_disarm();
        GLenum e = glrh_gl_drain_errors(gl);
        gl->PixelStorei(GL_PACK_ALIGNMENT, align);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, row);
        gl->PixelStorei(GL_PACK_SKIP_ROWS, sr);
        gl->PixelStorei(GL_PACK_SKIP_PIXELS, sp);
        gl->PixelStorei(GL_PACK_IMAGE_HEIGHT, ih);
        gl->PixelStorei(GL_PACK_SKIP_IMAGES, si);
        if (pack_buf)
            gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
        if (e == GL_NO_ERROR) {
            struct cmp cm;
            compare_rgba(mp, dp, w, h * d, true, &cm, NULL);
            char tname[32];
            snprintf(tname, sizeof tname, "ctx%u/image%u", ctx_id, i);
            note_result(r, tname, &cm, record, list);
            if (used < text_size)
                used += (size_t)snprintf(text + used, text_size - used, " %s %.4f%%", tname,
                                         100.0 * cm.agreement);
        }
        free(mp);
        free(dp);
    }
}

static void note_uncompared(struct run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_uncompared(struct run *r, const char *fmt, ...)
{
    if (r->uncompared++)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->first_uncompared, sizeof r->first_uncompared, fmt, ap);
    va_end(ap);
}

/* The capture's reference images of the colour attachments of the framebuffer object the program
 * had bound for drawing at this swap (it never swapped that framebuffer, but it is what the
 * frame drew): each is compared with the model's attachment. */
static void compare_fbo_references(struct run *r, uint32_t frame, uint32_t ctx_id, uint64_t record, cJSON *o,
                                   char *line, size_t line_size)
{
    gmf_target tg[GMF_MAX_TARGETS];
    int n = -1;
    size_t used = strlen(line);
    for (unsigned i = 0; i < r->cap->n_images; i++) {
        const struct glrh_image *im = &r->cap->images[i];
        if (r->image_used[i] || !im->fbo || im->ctx_id != ctx_id || (frame != UINT32_MAX && im->frame != frame))
            continue;
        r->image_used[i] = true;
        if (n < 0)
            n = gmf_current_targets(r->m, ctx_id, tg, GMF_MAX_TARGETS);
        const gmf_target *t = NULL;
        for (int k = 0; k < n; k++)
            if (tg[k].kind == GMF_TARGET_COLOR && tg[k].attachment == im->attachment && !tg[k].integer)
                t = &tg[k];
        uint8_t *mp = NULL;
        int w = 0, h = 0;
        if (!t || gmf_read_color(r->m, ctx_id, t->draw_buffer, &mp, &w, &h) != 0 || (unsigned)w != im->width ||
            (unsigned)h != im->height) {
            note_uncompared(r, "frame %u context %u framebuffer %u attachment 0x%04x (%s)", frame, ctx_id, im->fbo,
                            im->attachment, !t ? "not a colour target of the model's draw framebuffer"
                                                  : "the model's attachment has another size");
            free(mp);
            continue;
        }
        char name[96];
        snprintf(name, sizeof name, "ctx%u/fbo%u/color%u@reference", ctx_id, im->fbo, im->attachment - 0x8CE0u);
        struct cmp cr;
        compare_rgba(mp, im->pixels, w, h, t->has_alpha, &cr, NULL);
        note_result(r, name, &cr, record, o ? cJSON_GetObjectItem(o, "reference_compare") : NULL);
        if (used < line_size)
            used += (size_t)snprintf(line + used, line_size - used, " %s %.4f%%", name, 100.0 * cr.agreement);
        free(mp);
    }
}

/* After the last record: the reference images no swap matched, which the shim keeps when a
 * capture ends without a swap (a program that never swaps, a context released or destroyed;
 * shim/capture.c): each is compared with the model's framebuffer of its context as the frame left
 * it (the back buffer, or the colour attachment of the framebuffer object bound for drawing). */
static void compare_end_references(struct run *r, uint64_t record)
{
    for (unsigned i = 0; i < r->cap->n_images; i++) {
        const struct glrh_image *im = &r->cap->images[i];
        if (r->image_used[i])
            continue;
        char line[1024];
        snprintf(line, sizeof line, "end of frame %u (context %u):", im->frame, im->ctx_id);
        cJSON *o = r->swaps ? cJSON_CreateObject() : NULL;
        if (o) {
            cJSON_AddNumberToObject(o, "record", (double)record);
            cJSON_AddNumberToObject(o, "frame", im->frame);
            cJSON_AddNumberToObject(o, "context", im->ctx_id);
            cJSON_AddBoolToObject(o, "end_of_capture", true);
            cJSON_AddArrayToObject(o, "compare");
            cJSON_AddArrayToObject(o, "reference_compare");
            cJSON_AddItemToArray(r->swaps, o);
        }
        if (im->fbo) {
            const struct sm_context *c = sm_context_get(gmf_state(r->m), im->ctx_id);
            if (!c || sm_context_state(c)->draw_fbo != im->fbo) {
                r->image_used[i] = true;
                note_uncompared(r, "end of frame %u context %u framebuffer %u (not bound for drawing in the model)",
                                im->frame, im->ctx_id, im->fbo);
                continue;
            }
            compare_fbo_references(r, UINT32_MAX, im->ctx_id, record, o, line, sizeof line);
        } else {
            r->image_used[i] = true;
            uint8_t *mp = NULL;
            int w = 0, h = 0;
            if (gmf_read_default(r->m, im->ctx_id, &mp, &w, &h) != 0 || (unsigned)w != im->width ||
                (unsigned)h != im->height) {
                note_uncompared(r, "end of frame %u context %u back buffer (reference %ux%u, model %dx%d)", im->frame,
                                im->ctx_id, im->width, im->height, w, h);
                free(mp);
                continue;
            }
            bool alpha = false;
            for (size_t p = 0; p < (size_t)w * (size_t)h && !alpha; p++)
                alpha = im->pixels[4 * p + 3] != 255;
            struct cmp cr;
            compare_rgba(mp, im->pixels, w, h, alpha, &cr, NULL);
            char name[80];
            snprintf(name, sizeof name, "ctx%u/default/back@reference", im->ctx_id);
            note_result(r, name, &cr, record, o ? cJSON_GetObjectItem(o, "reference_compare") : NULL);
            size_t k = strlen(line);
            snprintf(line + k, sizeof line - k, " %s %.4f%%", name, 100.0 * cr.agreement);
            free(mp);
        }
        if (!r->json)
            printf("%s\n", line);
    }
}

static const struct glrh_image *reference_for(struct run *r, uint32_t frame, uint32_t ctx_id)
{
    for (unsigned i = 0; i < r->cap->n_images; i++) {
        const struct glrh_image *im = &r->cap->images[i];
        if (!r->image_used[i] && !im->fbo && im->frame == frame && im->ctx_id == ctx_id) {
            r->image_used[i] = true;
            return im;
        }
    }
    return NULL;
}

static void on_swap(struct run *r, const struct glr_call *c, uint64_t record)
{
    uint32_t frame = (uint32_t)c->args[0];
    uint8_t *mp = NULL;
    int w, h;
    if (!c->ctx_id || gmf_read_default(r->m, c->ctx_id, &mp, &w, &h) != 0)
        return;
    char name[64];
    snprintf(name, sizeof name, "ctx%u/default/back", c->ctx_id);
    cJSON *o = r->swaps ? cJSON_CreateObject() : NULL;
    if (o) {
        cJSON_AddNumberToObject(o, "record", (double)record);
        cJSON_AddNumberToObject(o, "frame", frame);
        cJSON_AddNumberToObject(o, "context", c->ctx_id);
        /* "compare": the model against the driver replay; "reference_compare": against the
         * capture's reference images (what the program's driver showed). */
        cJSON_AddArrayToObject(o, "compare");
        cJSON_AddArrayToObject(o, "reference_compare");
        cJSON_AddItemToArray(r->swaps, o);
    }
    char line[1024];
    int k = snprintf(line, sizeof line, "frame %u (context %u, %dx%d):", frame, c->ctx_id, w, h);
    const struct glrh_image *ref = reference_for(r, frame, c->ctx_id);
    struct cmp cr;
    if (ref && (int)ref->width == w && (int)ref->height == h) {
        /* The capture's own reference image (what the program's driver showed): the model must
         * agree with it as with the driver replay, or a replay that lost the program's data (on
         * both sides alike) would pass. */
        bool alpha = false;
        for (size_t p = 0; p < (size_t)w * (size_t)h && !alpha; p++)
            alpha = ref->pixels[4 * p + 3] != 255;
        compare_rgba(mp, ref->pixels, w, h, alpha, &cr, NULL);
        k += snprintf(line + k, sizeof line - (size_t)k, " reference %.4f%%", 100.0 * cr.agreement);
        if (o)
            cJSON_AddNumberToObject(o, "reference_agreement", cr.agreement);
        if (r->compare) {
            char rname[80];
            snprintf(rname, sizeof rname, "%s@reference", name);
            note_result(r, rname, &cr, record, o ? cJSON_GetObjectItem(o, "reference_compare") : NULL);
        }
    } else if (ref && r->compare) {
        note_uncompared(r, "frame %u context %u back buffer (reference %ux%u, model %dx%d)", frame, c->ctx_id,
                        ref->width, ref->height, w, h);
    }
    if (r->compare)
        compare_fbo_references(r, frame, c->ctx_id, record, o, line, sizeof line);
    k = (int)strlen(line);
    if (r->compare && make_current(&r->drv, c->ctx_id) == 0) {
        uint8_t *dp = malloc((size_t)w * (size_t)h * 4);
        if (dp && glrh_read_back_buffer(&r->drv.gl, r->drv.current->desc, (unsigned)w, (unsigned)h, dp) == 0) {
            uint8_t *diff = r->png_dir ? malloc((size_t)w * (size_t)h * 4) : NULL;
            struct cmp cd;
            compare_rgba(mp, dp, w, h, r->drv.current->alpha, &cd, diff);
            cJSON *list = o ? cJSON_GetObjectItem(o, "compare") : NULL;
            note_result(r, name, &cd, record, list);
            k += snprintf(line + k, sizeof line - (size_t)k, " driver %.4f%%", 100.0 * cd.agreement);
            if (r->png_dir && cd.agree < cd.pixels) {
                write_png(r, record, "driver_swap", name, dp, w, h);
                write_png(r, record, "diff_swap", name, diff, w, h);
            }
            free(diff);
        }
        free(dp);
    }
    if (r->png_dir)
        write_png(r, record, "model_swap", name, mp, w, h);
    if (!r->json)
        printf("%s\n", line);
    free(mp);
}

/* The event's JSON object (appended to "events"); its "compare" list is filled afterwards. */
static cJSON *event_json(struct run *r, const gmf_event *ev)
{
    const char *kind = ev->kind == GMF_EV_DRAW ? "draw" : ev->kind == GMF_EV_CLEAR ? "clear"
                       : ev->kind == GMF_EV_DISPATCH ? "dispatch" : "note";
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kind", kind);
    cJSON_AddNumberToObject(o, "index", (double)ev->draw);
    cJSON_AddNumberToObject(o, "record", (double)ev->record);
    cJSON_AddStringToObject(o, "command", glr_call_name(ev->cmd));
    cJSON_AddNumberToObject(o, "context", ev->ctx_id);
    if (ev->kind == GMF_EV_DRAW) {
        cJSON_AddNumberToObject(o, "draws", ev->draws);   /* > 1: a glCallList(s) record's draws */
        cJSON_AddNumberToObject(o, "program", ev->program);
        cJSON_AddNumberToObject(o, "vs_invocations", (double)ev->stats.vs_invocations);
        cJSON_AddNumberToObject(o, "primitives", (double)ev->stats.primitives);
        cJSON_AddNumberToObject(o, "fs_warps", (double)ev->stats.fs_warps);
        cJSON_AddNumberToObject(o, "fs_lanes", (double)ev->stats.fs_lanes);
        cJSON_AddNumberToObject(o, "fragments_passed", (double)ev->stats.fragments_passed);
        if (r->timing) {
            cJSON_AddNumberToObject(o, "cycles", (double)ev->stats.cycles);
            cJSON_AddNumberToObject(o, "vs_cycles", (double)ev->stats.vs_cycles);
            cJSON_AddNumberToObject(o, "fs_cycles", (double)ev->stats.fs_cycles);
            cJSON_AddNumberToObject(o, "gs_cycles", (double)ev->stats.gs_cycles);
            if (ev->stats.tess_cycles)
                cJSON_AddNumberToObject(o, "tess_cycles", (double)ev->stats.tess_cycles);
            cJSON_AddNumberToObject(o, "instructions", (double)ev->stats.instructions);
        }
    }
    if (ev->kind == GMF_EV_DISPATCH) {
        cJSON_AddNumberToObject(o, "program", ev->program);
        if (r->timing) {
            cJSON_AddNumberToObject(o, "cycles", (double)ev->stats.cycles);
            cJSON_AddNumberToObject(o, "instructions", (double)ev->stats.instructions);
        }
    }
    if (ev->kind != GMF_EV_NONE) {
        cJSON_AddNumberToObject(o, "framebuffer", ev->fbo);
        cJSON_AddBoolToObject(o, "failed", ev->failed);
        cJSON_AddNumberToObject(o, "seconds", ev->seconds);
    }
    cJSON *u = cJSON_AddArrayToObject(o, "unsupported");
    for (int i = 0; i < ev->n_unsupported && i < GMF_MAX_NOTES; i++)
        cJSON_AddItemToArray(u, cJSON_CreateString(ev->unsupported[i]));
    cJSON_AddItemToObject(o, "compare", cJSON_CreateArray());
    cJSON_AddItemToArray(r->events, o);
    return o;
}

static void print_event(const struct run *r, const gmf_event *ev, const char *cmp_text)
{
    char cyc[48] = "";
    if (r->timing)
        snprintf(cyc, sizeof cyc, ", %llu cycles", (unsigned long long)ev->stats.cycles);
    if (ev->kind == GMF_EV_DRAW && ev->draws > 1)   /* the draws inside a glCallList(s) */
        printf("draws %llu-%llu (record %llu, %s, program %u, fbo %u): %llu fragments%s%s%s",
               (unsigned long long)ev->draw, (unsigned long long)(ev->draw + ev->draws - 1),
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, ev->fbo,
               (unsigned long long)ev->stats.fs_lanes, cyc, ev->failed ? " FAILED" : "", cmp_text);
    else if (ev->kind == GMF_EV_DRAW)
        printf("draw %llu (record %llu, %s, program %u, fbo %u): %llu fragments%s%s%s", (unsigned long long)ev->draw,
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, ev->fbo,
               (unsigned long long)ev->stats.fs_lanes, cyc, ev->failed ? " FAILED" : "", cmp_text);
    else if (ev->kind == GMF_EV_CLEAR)
        printf("clear %llu (record %llu, %s, fbo %u)%s", (unsigned long long)ev->draw, (unsigned long long)ev->record,
               glr_call_name(ev->cmd), ev->fbo, cmp_text);
    else if (ev->kind == GMF_EV_DISPATCH)
        printf("dispatch %llu (record %llu, %s, program %u)%s%s%s", (unsigned long long)ev->draw,
               (unsigned long long)ev->record, glr_call_name(ev->cmd), ev->program, cyc,
               ev->failed ? " FAILED" : "", cmp_text);
    else
        printf("record %llu (%s)", (unsigned long long)ev->record, glr_call_name(ev->cmd));
    for (int i = 0; i < ev->n_unsupported && i < GMF_MAX_NOTES; i++)
        printf("%s unsupported: %s", i ? ";" : "", ev->unsupported[i]);
    printf("\n");
}

static void progress(struct run *r, uint64_t record)
{
    gmf_totals tt;
    gmf_get_totals(r->m, &tt);
    uint64_t draws = tt.draws;
    double t = now_s();
    if (t - r->last_progress < 0.25)
        return;
    r->last_progress = t;
    fprintf(stderr, "\rglreplay: model: record %llu/%llu, %llu draws ", (unsigned long long)record,
            (unsigned long long)r->cap->n_records, (unsigned long long)draws);
}

static int run_stream(struct run *r, char *err, size_t err_size)
{
    struct glr_stream s;
    struct glr_call c;
    gmf_event *ev = malloc(sizeof *ev);
    if (!ev) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    glr_stream_init(&s, r->cap->stream, r->cap->stream_size);
    int k;
    uint64_t rec = 0;
    double driver_t = 0, frame_model_t = 0;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        uint64_t record = rec++;
        if (r->progress && (record & 255) == 0)
            progress(r, record);
        gmf_status st = gmf_feed(r->m, &c, record, ev);
        if (st == GMF_STOPPED && cli_stop_reason()) {
            r->stopped_record = record;
            break;
        }
        frame_model_t += ev->seconds;
        if (r->compare || r->benchmark) {
            double t0 = now_s();
            glrh_crash_guard_arm(record, (int)c.cmd);
            driver_feed(&r->drv, &c, ev->kind == GMF_EV_DRAW);
            glrh_crash_guard_disarm();
            if (r->benchmark && c.cmd == GLR_PSEUDO_SWAP && r->drv.current)
                r->drv.gl.Finish();
            driver_t += now_s() - t0;
        }
        if (ev->kind == GMF_EV_SWAP) {
            if (r->benchmark) {
                cJSON *f = cJSON_CreateObject();
                cJSON_AddNumberToObject(f, "frame", (double)c.args[0]);
                cJSON_AddNumberToObject(f, "model_seconds", frame_model_t);
                cJSON_AddNumberToObject(f, "driver_seconds", driver_t);
                cJSON_AddItemToArray(r->frames, f);
                frame_model_t = driver_t = 0;
            }
            on_swap(r, &c, record);
        } else if (ev->kind != GMF_EV_NONE || ev->n_unsupported) {
            char text[1024] = "";
            cJSON *obj = r->json ? event_json(r, ev) : NULL;
            if (ev->kind != GMF_EV_NONE && (r->compare || r->png_dir) && !r->benchmark) {
                if (r->compare && c.ctx_id)
                    make_current(&r->drv, c.ctx_id);
                /* A dispatch writes buffers and images, not the render targets (which may
                 * still hold undefined contents before the frame's first clear). */
                if (ev->kind == GMF_EV_DISPATCH) {
                    if (r->compare) {
                        compare_buffers(r, c.ctx_id, record,
                                        obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                        sizeof text, false, ev->reads_clock);
                        compare_images(r, c.ctx_id, record,
                                       obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                       sizeof text);
                    }
                } else {
                    compare_targets(r, c.ctx_id, record,
                                    obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text, sizeof text);
                    if (r->compare && ev->kind == GMF_EV_DRAW)   /* transform feedback output */
                        compare_buffers(r, c.ctx_id, record,
                                        obj ? cJSON_GetObjectItem(obj, "compare") : NULL, text,
                                        sizeof text, true, false);
                }
            }
            if (!r->json)
                print_event(r, ev, text);
        }
        if (st == GMF_ERROR) {
            snprintf(err, err_size, "the model failed at record %llu (out of memory)", (unsigned long long)record);
            free(ev);
            return -1;
        }
    }
    free(ev);
    if (r->progress)
        fprintf(stderr, "\r\033[K");
    if (k < 0) {
        snprintf(err, err_size, "%s: COMMAND_STREAM: %s", r->cap->path, s.err);
        return -1;
    }
    return 0;
}

/* Default framebuffer of each context: the same rule as `glreplay replay` (glrh_plan_surface),
 * so the model, the driver side and the replayer all draw into surfaces of one size. */
static gmf_surface_desc *plan_surfaces(const struct glrh_capture *cap, int *n)
{
    gmf_surface_desc *s = calloc(cap->n_ctxs ? cap->n_ctxs : 1, sizeof *s);
    if (!s)
        return NULL;
    for (unsigned i = 0; i < cap->n_ctxs; i++) {
        struct glrh_surface plan;
        glrh_plan_surface(cap, i, &plan);
        s[i].ctx_id = cap->ctxs[i].id;
        s[i].width = (int)plan.w;
        s[i].height = (int)plan.h;
        s[i].alpha = plan.alpha;
    }
    *n = (int)cap->n_ctxs;
    return s;
}


/* Why --compare fails, one phrase per reason (empty: it passes). A comparison passes only when
 * the model ran everything and agreed with both the driver and the capture's references: a draw
 * the model failed or skipped, a feature it does not run, a record the driver side could not
 * replay, a reference image that could not be compared, or nothing compared at all each fail it,
 * whatever the pixels say. */
static void fail_reasons(struct run *r, const gmf_totals *t, int n_unsupported, char *out, size_t n)
{
    size_t k = 0;
    out[0] = 0;
#define REASON(...)                                                              \
    do {                                                                        \
        if (k < n)                                                              \
            k += (size_t)snprintf(out + k, n - k, "%s", k ? "; " : "");         \
        if (k < n)                                                              \
            k += (size_t)snprintf(out + k, n - k, __VA_ARGS__);                 \
    } while (0)
    if (r->failing)
        REASON("%llu of %llu comparisons below %.1f%% (worst: %s, %.4f%%)", (unsigned long long)r->failing,
               (unsigned long long)r->comparisons, 100.0 * PASS_FRACTION, r->worst_name, 100.0 * r->worst);
    if (t->draws_failed)
        REASON("%llu of %llu draws failed in the model", (unsigned long long)t->draws_failed,
               (unsigned long long)t->draws);
    if (t->dispatches_failed)
        REASON("%llu of %llu dispatches failed in the model", (unsigned long long)t->dispatches_failed,
               (unsigned long long)t->dispatches);
    if (t->draws_with_unsupported)
        REASON("%llu draws with unsupported features", (unsigned long long)t->draws_with_unsupported);
    if (n_unsupported)
        REASON("%d unsupported feature%s (listed above)", n_unsupported, n_unsupported == 1 ? "" : "s");
    if (r->drv.skipped)
        REASON("the driver replay skipped %llu records (first: %s)", (unsigned long long)r->drv.skipped,
               r->drv.first_skipped);
    if (r->uncompared)
        REASON("%llu reference images not compared (first: %s)", (unsigned long long)r->uncompared,
               r->first_uncompared);
    if (!r->comparisons)
        REASON("nothing was compared (no draw, clear, dispatch or swap reached a target)");
#undef REASON
}

static void report(struct run *r, double wall)
{
    gmf_totals t;
    gmf_get_totals(r->m, &t);
    const char *names[64];
    uint64_t counts[64];
    int nu = gmf_unsupported_list(r->m, names, counts, 64);
    char why[1024];
    fail_reasons(r, &t, nu, why, sizeof why);
    bool pass = !why[0];
    r->passed = pass;
    if (r->json) {
        cJSON *tot = cJSON_AddObjectToObject(r->root, "totals");
        cJSON_AddNumberToObject(tot, "records", (double)t.records);
        cJSON_AddNumberToObject(tot, "draws", (double)t.draws);
        cJSON_AddNumberToObject(tot, "clears", (double)t.clears);
        cJSON_AddNumberToObject(tot, "swaps", (double)t.swaps);
        cJSON_AddNumberToObject(tot, "draws_with_unsupported", (double)t.draws_with_unsupported);
        cJSON_AddNumberToObject(tot, "draws_failed", (double)t.draws_failed);
        cJSON_AddNumberToObject(tot, "vs_invocations", (double)t.vs_invocations);
        cJSON_AddNumberToObject(tot, "fs_warps", (double)t.fs_warps);
        cJSON_AddNumberToObject(tot, "fs_lanes", (double)t.fs_lanes);
        cJSON_AddNumberToObject(tot, "model_seconds", t.model_seconds);
        cJSON_AddBoolToObject(tot, "timing", t.timing);
        if (t.timing)
            cJSON_AddNumberToObject(tot, "cycles", (double)t.cycles);
        cJSON_AddNumberToObject(tot, "wall_seconds", wall);
        cJSON *u = cJSON_AddArrayToObject(r->root, "unsupported");
        for (int i = 0; i < nu && i < 64; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "feature", names[i]);
            cJSON_AddNumberToObject(o, "count", (double)counts[i]);
            cJSON_AddItemToArray(u, o);
        }
        cJSON *tl = cJSON_AddArrayToObject(r->root, "targets");
        for (size_t i = 0; i < r->n_targets; i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddStringToObject(o, "target", r->targets[i].name);
            cJSON_AddNumberToObject(o, "comparisons", (double)r->targets[i].compared);
            cJSON_AddNumberToObject(o, "min_agreement", r->targets[i].min_agreement);
            cJSON_AddNumberToObject(o, "final_agreement", r->targets[i].last_agreement);
            cJSON_AddItemToArray(tl, o);
        }
        if (r->trace) {
            char hx[32];
            snprintf(hx, sizeof hx, "%016llx", (unsigned long long)r->trace_hash);
            cJSON *tr = cJSON_AddObjectToObject(r->root, "trace");
            cJSON_AddNumberToObject(tr, "instructions", (double)r->trace_count);
            cJSON_AddStringToObject(tr, "hash", hx);
            cJSON_AddNumberToObject(tr, "variable_reads", (double)r->trace_reads);
        }
        if (r->compare) {
            cJSON_AddNumberToObject(r->root, "comparisons", (double)r->comparisons);
            cJSON_AddNumberToObject(r->root, "failing_comparisons", (double)r->failing);
            cJSON_AddStringToObject(r->root, "result", pass ? "pass" : "fail");
            cJSON_AddStringToObject(r->root, "fail_reasons", why);
            cJSON_AddNumberToObject(r->root, "driver_skipped_records", (double)r->drv.skipped);
            cJSON_AddNumberToObject(r->root, "loops_limited", (double)t.loops_limited);
            cJSON_AddNumberToObject(r->root, "references_not_compared", (double)r->uncompared);
        }
        char *s = cJSON_PrintUnformatted(r->root);
        if (s)
            printf("%s\n", s);
        free(s);
        return;
    }
    printf("model: %llu draws (%llu with unsupported features, %llu failed), %llu clears, %llu swaps; "
           "%llu vertices shaded, %llu fragment warps, %llu fragments; %.3f s in the model\n",
           (unsigned long long)t.draws, (unsigned long long)t.draws_with_unsupported,
           (unsigned long long)t.draws_failed, (unsigned long long)t.clears, (unsigned long long)t.swaps,
           (unsigned long long)t.vs_invocations, (unsigned long long)t.fs_warps,
           (unsigned long long)t.fs_lanes, t.model_seconds);
    if (t.timing)
        printf("timing: %llu cycles over the draws (timing model: 4 SMs x 16 warp slots)\n",
               (unsigned long long)t.cycles);
    if (t.loops_limited)
        printf("loops: %llu shader loops ended at 65535 iterations (llvmpipe's loop limit; the driver "
               "ends them there too)\n", (unsigned long long)t.loops_limited);
    for (int i = 0; i < nu && i < 64; i++)
        printf("unsupported: %s (%llu times)\n", names[i], (unsigned long long)counts[i]);
    for (size_t i = 0; i < r->n_targets; i++)
        printf("target %s: %llu comparisons, lowest %.4f%% (record %llu), final %.4f%%\n", r->targets[i].name,
               (unsigned long long)r->targets[i].compared, 100.0 * r->targets[i].min_agreement,
               (unsigned long long)r->targets[i].min_record, 100.0 * r->targets[i].last_agreement);
    if (r->trace)
        printf("trace: %llu warp instructions observed, hash %016llx, %llu variable reads\n",
               (unsigned long long)r->trace_count, (unsigned long long)r->trace_hash,
               (unsigned long long)r->trace_reads);
    if (r->compare) {
        if (pass)
            printf("compare: PASS: %llu comparisons, all at or above %.1f%%\n", (unsigned long long)r->comparisons,
                   100.0 * PASS_FRACTION);
        else
            printf("compare: FAIL: %s\n", why);
    }
}

static void print_benchmark(struct run *r)
{
    int n = cJSON_GetArraySize(r->frames);
    for (int i = 0; i < n; i++) {
        cJSON *f = cJSON_GetArrayItem(r->frames, i);
        double m = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "model_seconds"));
        double d = cJSON_GetNumberValue(cJSON_GetObjectItem(f, "driver_seconds"));
        if (!r->json)
            printf("benchmark: frame %d: model %.4f s, llvmpipe %.4f s, ratio %.1fx\n",
                   (int)cJSON_GetNumberValue(cJSON_GetObjectItem(f, "frame")), m, d, d > 0 ? m / d : 0.0);
    }
}

/* --trace-hash: FNV-1a over every issued instruction's identity. */
static void fnv(uint64_t *h, uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        *h ^= (v >> (8 * i)) & 0xff;
        *h *= 1099511628211ull;
    }
}

static int trace_observer(void *ctx, gm_warp *w, const gmf_issue *is)
{
    struct run *r = ctx;
    fnv(&r->trace_hash, is->draw);
    fnv(&r->trace_hash, (uint64_t)is->stage << 32 | (uint32_t)is->pc);
    fnv(&r->trace_hash, is->warp);
    fnv(&r->trace_hash, (uint64_t)(uint32_t)is->line << 32 | is->active);
    if ((r->trace_count++ & 1023) == 0 && is->active) {
        /* A debugger reads lane variables here: read one, lane of the lowest active bit. */
        uint32_t words[64];
        int lane = __builtin_ctz(is->active);
        if (gm_warp_read_var(w, 0, lane, words, 64) >= 0)
            r->trace_reads++;
    }
    return 0;
}

int cli_model(int argc, char **argv)
{
    struct run r;
    memset(&r, 0, sizeof r);
    r.drv.egl.dpy = EGL_NO_DISPLAY;
    const char *path = NULL;
    double timeout = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--compare"))
            r.compare = true;
        else if (!strcmp(a, "--json"))
            r.json = true;
        else if (!strcmp(a, "--benchmark"))
            r.benchmark = true;
        else if (!strcmp(a, "--trace-hash"))
            r.trace = true;
        else if (!strcmp(a, "--no-timing"))
            r.no_timing = true;
        else if (!strcmp(a, "--timeout")) {
            if (i + 1 >= argc || !cli_parse_timeout(argv[i + 1], &timeout)) {
                cli_error("model: --timeout needs a number of seconds (" USAGE ")");
                return 2;
            }
            i++;
        } else if (!strcmp(a, "--png")) {
            if (i + 1 >= argc) {
                cli_error("model: --png needs a folder (" USAGE ")");
                return 2;
            }
            r.png_dir = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            cli_error("model: unknown option '%s' (" USAGE ")", a);
            return 2;
        } else if (!path) {
            path = a;
        } else {
            cli_error("model: more than one capture file given (" USAGE ")");
            return 2;
        }
    }
    if (!path) {
        cli_error("model: no capture file given (" USAGE ")");
        return 2;
    }
    char err[1024];
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (!cap) {
        cli_error("%s", err);
        return 2;
    }
    char *meta = glcap_read_metadata(path, err, sizeof err);
    if (!meta) {
        cli_error("%s", err);
        glrh_capture_close(cap);
        return 2;
    }
    if (r.png_dir && mkdir(r.png_dir, 0777) != 0 && errno != EEXIST) {
        cli_error("%s: cannot create the PNG folder: %s", r.png_dir, strerror(errno));
        free(meta);
        glrh_capture_close(cap);
        return 2;
    }
    size_t srcs_size = 0;
    void *srcs = glcap_read_optional_section(path, GLCAP_SECTION_SHADER_SOURCES, 0, &srcs_size, err, sizeof err);
    if (!srcs && err[0]) {
        cli_error("%s", err);
        free(meta);
        glrh_capture_close(cap);
        return 2;
    }
    int n_surf = 0;
    gmf_surface_desc *surf = plan_surfaces(cap, &n_surf);
    gmf_config cfg = { .metadata_json = meta, .surfaces = surf, .n_surfaces = n_surf,
                       .timing = r.no_timing ? GMF_TIMING_OFF : GMF_TIMING_DEFAULT,
                       .program_sources = srcs, .program_sources_size = srcs_size };
    r.cap = cap;
    r.image_used = calloc(cap->n_images + cap->n_hashes + 1, sizeof *r.image_used);
    r.m = surf && r.image_used ? gmf_create(&cfg, err, sizeof err) : NULL;
    if (r.m) {
        gmf_totals tt;
        gmf_get_totals(r.m, &tt);
        r.timing = tt.timing;
    }
    int rc = 2;
    if (!r.m) {
        cli_error("model: %s", surf ? err : "out of memory");
        goto out;
    }
    if ((r.compare || r.benchmark) && driver_open(&r.drv, cap, surf, n_surf, err, sizeof err) != 0) {
        cli_error("model: driver: %s", err);
        goto out;
    }
    r.progress = isatty(2) != 0;
    r.trace_hash = 1469598103934665603ull;
    gmf_set_abort(r.m, cli_stop_arm(timeout));
    if (r.trace)
        gmf_set_observer(r.m, trace_observer, &r);
    r.root = cJSON_CreateObject();
    cJSON_AddStringToObject(r.root, "capture", path);
    r.events = cJSON_AddArrayToObject(r.root, "events");
    r.swaps = cJSON_AddArrayToObject(r.root, "swaps");
    r.frames = cJSON_AddArrayToObject(r.root, "benchmark");
    if (!r.json)
        setvbuf(stdout, NULL, _IOLBF, 0);
    double t0 = now_s();
    /* A capture taken from a running program starts from its snapshot: both sides start there. */
    struct glr_restore *snapshot = NULL;
    if (meta && strstr(meta, "\"initial_state\":\"snapshot\"")) {
        if (!(snapshot = glr_restore_load(path, err, sizeof err))) {
            cli_error("model: %s", err);
            goto out;
        }
        if (gmf_feed_initial_state(r.m, glr_restore_state(snapshot)) != 0 ||
            gmf_feed_snapshot_contents(r.m, snapshot) < 0) {
            cli_error("model: out of memory restoring the initial state");
            glr_restore_free(snapshot);
            goto out;
        }
        struct glr_restore_stats st;
        int restored = 0;
        if (r.compare || r.benchmark) {
            glrh_crash_guard_install("the driver side of model --compare");
            glrh_crash_guard_arm(GLRH_GUARD_RESTORE, -1);
            restored = glr_restore_run(snapshot, r.drv.disp, make_current_cb, &r.drv, &st, err, sizeof err);
            glrh_crash_guard_remove();
        }
        if (restored != 0) {
            cli_error("model: driver: %s", err);
            glr_restore_free(snapshot);
            goto out;
        }
        glr_restore_free(snapshot);
    }
    /* The driver side gets the replayer's crash guard: a driver fault on the capture's data ends
     * with one line naming the record (exit 3), not a core dump. */
    glrh_crash_guard_install("the driver side of model --compare");
    int ran = run_stream(&r, err, sizeof err);
    glrh_crash_guard_remove();
    if (ran != 0) {
        cli_error("model: %s", err);
        goto out;
    }
    const char *stopped_by = cli_stop_reason();
    cli_stop_disarm();
    if (stopped_by) {
        /* Only what ran is reported; the comparisons at the capture's end would compare images
         * the model did not finish: no verdict. */
        r.compare = false;
        report(&r, now_s() - t0);
        cli_error("model: stopped by %s at record %llu: the figures above cover the records before it",
                  stopped_by, (unsigned long long)r.stopped_record);
        rc = 1;
        goto out;
    }
    if (r.compare) {
        gmf_totals tt;
        gmf_get_totals(r.m, &tt);
        compare_end_references(&r, tt.records);
    }
    if (r.benchmark)
        print_benchmark(&r);
    report(&r, now_s() - t0);
    rc = r.compare && !r.passed ? 1 : 0;
out:
    driver_close(&r.drv);
    gmf_destroy(r.m);
    cJSON_Delete(r.root);
    free(r.targets);
    free(r.image_used);
    free(surf);
    free(meta);
    free(srcs);
    glrh_capture_close(cap);
    return rc;
}
