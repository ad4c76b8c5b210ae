/* The driver side of the model-vs-driver comparison: the captured contexts as EGL surfaceless
 * contexts, each record re-issued through the replay dispatcher in lock step with the model, and
 * read-back of the bound draw framebuffer for the comparisons (compare/model_compare.h). */
#include <stdlib.h>
#include <string.h>

#include "compare/mcmp_internal.h"
#include "replay/player/crash_guard.h"
#include "replay/player/replay_client_arrays.h"
#include "replay/replay.h"

static struct dctx *dctx_of(struct mcmp_driver *d, uint32_t id)
{
    for (unsigned i = 0; i < d->n; i++)
        if (d->ctxs[i].desc->id == id)
            return &d->ctxs[i];
    return NULL;
}


int mcmp_make_current(struct mcmp_driver *d, uint32_t id)
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
    return mcmp_make_current(user, id);
}

static void driver_close(struct mcmp_driver *d)
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

static int driver_open(struct mcmp_driver *d, const struct glrh_capture *cap, const gmf_surface_desc *surf,
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

static void driver_client_array(struct mcmp_driver *d, const struct glr_call *c)
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

static bool lacks_client_memory(const struct mcmp_driver *d, const struct glr_call *c)
{
    return glr_call_lacks_client_memory(d->unsized, c);
}

static void driver_skip(struct mcmp_driver *d, const struct glr_call *c, const char *why)
{
    if (!d->skipped++)
        snprintf(d->first_skipped, sizeof d->first_skipped, "%s (%s)", glr_call_name(c->cmd), why);
}

static const char *dispatch_failure(int res)
{
    return res == GLR_DISPATCH_MISSING ? "the driver lacks it" : "malformed record";
}

/* Replays one record on the driver. */
void mcmp_driver_feed(struct mcmp_driver *d, const struct glr_call *c, bool is_draw)
{
    switch (c->cmd) {
    case GLR_PSEUDO_CONTEXT_CREATE:
    case GLR_PSEUDO_SWAP:
        return;
    case GLR_PSEUDO_MAKE_CURRENT:
        if (c->ctx_id)
            mcmp_make_current(d, c->ctx_id);
        return;
    case GLR_PSEUDO_CLIENT_ARRAY:
        if (c->ctx_id && mcmp_make_current(d, c->ctx_id) == 0)
            driver_client_array(d, c);
        return;
    case GLR_PSEUDO_BUFFER_MAPPED:
    case GLR_PSEUDO_BUFFER_DATA: {
        /* Bytes the program wrote through a mapping, and mappings live when the capture began:
         * through the replay's own mapping, exactly as `glreplay replay` does. */
        if (!c->ctx_id || mcmp_make_current(d, c->ctx_id) != 0) {
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
    if (mcmp_make_current(d, c->ctx_id) != 0) {
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
static int driver_read(struct mcmp_driver *d, GLenum buffer, bool depth, int w, int h, void *out)
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
    struct glrh_saved_transfer xfer;   /* the stored pixels, not scaled, biased or mapped */
    glrh_transfer_save_and_reset(gl, glrh_context_compat(desc), &xfer);
    if (depth)
        gl->ReadPixels(0, 0, w, h, GL_DEPTH_COMPONENT, GL_FLOAT, out);
    else
        gl->ReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
    GLenum e = glrh_gl_drain_errors(gl);
    glrh_transfer_restore(gl, &xfer);
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
int mcmp_guarded_read(struct mcmp_driver *d, GLenum buffer, bool depth, int w, int h, void *out)
{
    glrh_crash_guard_rearm();
    int res = driver_read(d, buffer, depth, w, h, out);
    glrh_crash_guard_disarm();
    return res;
}

int mcmp_init(struct mcmp_run *r)
{
    r->drv = calloc(1, sizeof *r->drv);
    if (!r->drv)
        return -1;
    r->drv->egl.dpy = EGL_NO_DISPLAY;
    return 0;
}

void mcmp_close(struct mcmp_run *r)
{
    if (r->drv)
        driver_close(r->drv);
    free(r->drv);
    free(r->targets);
    r->drv = NULL;
    r->targets = NULL;
}

int mcmp_driver_open(struct mcmp_run *r, const struct glrh_capture *cap, const gmf_surface_desc *surf,
                     int n_surf, char *err, size_t n)
{
    return driver_open(r->drv, cap, surf, n_surf, err, n);
}

int mcmp_driver_restore(struct mcmp_run *r, struct glr_restore *snapshot, struct glr_restore_stats *st,
                        char *err, size_t n)
{
    return glr_restore_run(snapshot, r->drv->disp, make_current_cb, r->drv, st, err, n);
}

uint64_t mcmp_driver_skipped(const struct mcmp_run *r)
{
    return r->drv->skipped;
}
