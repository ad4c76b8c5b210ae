/* The comparisons of compare/: model images against the driver's read-back (per draw, clear and
 * swap), against the capture's reference images, and buffer contents (shader storage after a
 * dispatch, transform feedback after a draw); per-target statistics and the JSON lists. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/mcmp_internal.h"
#include "replay/player/crash_guard.h"
#include "replay/player/image_util.h"
#include "replay/replay.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

#define DEPTH_TOLERANCE (1.0 / 65536.0)

static void mcmp_warn(struct mcmp_run *r, const char *message)
{
    if (r->hooks.warn)
        r->hooks.warn(r->hooks.user, message);
}

static void mcmp_line(struct mcmp_run *r, const char *line)
{
    if (r->hooks.line)
        r->hooks.line(r->hooks.user, line);
}

static struct mcmp_target_stat *target_stat(struct mcmp_run *r, const char *name)
{
    for (size_t i = 0; i < r->n_targets; i++)
        if (!strcmp(r->targets[i].name, name))
            return &r->targets[i];
    struct mcmp_target_stat *n = realloc(r->targets, (r->n_targets + 1) * sizeof *n);
    if (!n)
        return NULL;
    r->targets = n;
    struct mcmp_target_stat *t = &n[r->n_targets++];
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

static void write_png(struct mcmp_run *r, uint64_t record, const char *what, const char *target,
                      const uint8_t *px, int w, int h)
{
    char tn[80], path[4096], err[4200];
    safe_name(tn, sizeof tn, target);
    snprintf(path, sizeof path, "%s/%06llu_%s_%s.png", r->png_dir, (unsigned long long)record, tn, what);
    if (glrh_write_png(path, px, (unsigned)w, (unsigned)h, err, sizeof err) != 0) {
        static bool warned;
        if (!warned)
            mcmp_warn(r, err);
        warned = true;
    }
}

/* Records one comparison's result (per target statistics, JSON, text). */
static void note_result(struct mcmp_run *r, const char *target, const struct cmp *c, uint64_t record,
                        cJSON *list)
{
    r->comparisons++;
    struct mcmp_target_stat *t = target_stat(r, target);
    if (t) {
        t->compared++;
        t->last_agreement = c->agreement;
        if (c->agreement < t->min_agreement) {
            t->min_agreement = c->agreement;
            t->min_record = record;
        }
    }
    if (c->agreement < MCMP_PASS_FRACTION) {
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
void mcmp_compare_targets(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
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
                if (dp && mcmp_guarded_read(r->drv, t->attachment, false, w, h, dp) == 0) {
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
            if (dz && mcmp_guarded_read(r->drv, 0, true, w, h, dz) == 0) {
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
void mcmp_compare_buffers(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
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
        GLuint name = (GLuint)glr_dispatch_lookup(r->drv->disp, ctx_id, GLR_OBJ_BUFFER, ib->buffer);
        glrh_crash_guard_rearm();
        get_sub(name, (GLintptr)ib->offset, (GLsizeiptr)size, dp);
        glrh_crash_guard_disarm();
        if (glrh_gl_drain_errors(&r->drv->gl) != GL_NO_ERROR) {
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
void mcmp_compare_images(struct mcmp_run *r, uint32_t ctx_id, uint64_t record, cJSON *list, char *text,
                         size_t text_size)
{
    static PFNGLGETTEXTUREIMAGEPROC get_image;
    static PFNGLMEMORYBARRIERPROC barrier;
    if (!get_image)
        get_image = (PFNGLGETTEXTUREIMAGEPROC)glrh_get_proc(NULL, "glGetTextureImage");
    if (!barrier)
        barrier = (PFNGLMEMORYBARRIERPROC)glrh_get_proc(NULL, "glMemoryBarrier");
    const struct sm_context *c = sm_context_get(gmf_state(r->m), ctx_id);
    if (!c || !get_image || !barrier || !r->drv->current)
        return;
    const struct glrh_gl *gl = &r->drv->gl;
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
        GLuint name = (GLuint)glr_dispatch_lookup(r->drv->disp, ctx_id, GLR_OBJ_TEXTURE, iu->texture);
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

static void note_uncompared(struct mcmp_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note_uncompared(struct mcmp_run *r, const char *fmt, ...)
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
static void compare_fbo_references(struct mcmp_run *r, uint32_t frame, uint32_t ctx_id, uint64_t record, cJSON *o,
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
        snprintf(name, sizeof name, "ctx%u/fbo%u/color%u@reference", ctx_id, im->fbo, im->attachment - GL_COLOR_ATTACHMENT0);
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
void mcmp_compare_end_references(struct mcmp_run *r, uint64_t record)
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
            mcmp_line(r, line);
    }
}

static const struct glrh_image *reference_for(struct mcmp_run *r, uint32_t frame, uint32_t ctx_id)
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

void mcmp_on_swap(struct mcmp_run *r, const struct glr_call *c, uint64_t record)
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
    if (r->compare && mcmp_make_current(r->drv, c->ctx_id) == 0) {
        uint8_t *dp = malloc((size_t)w * (size_t)h * 4);
        if (dp && glrh_read_back_buffer(&r->drv->gl, r->drv->current->desc, (unsigned)w, (unsigned)h, dp) == 0) {
            uint8_t *diff = r->png_dir ? malloc((size_t)w * (size_t)h * 4) : NULL;
            struct cmp cd;
            compare_rgba(mp, dp, w, h, r->drv->current->alpha, &cd, diff);
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
        mcmp_line(r, line);
    free(mp);
}
