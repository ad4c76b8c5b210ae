/* The replay loop's contexts (see replay_loop.h): each made like its captured context (API,
 * version, profile, flags) on the program's display with the config of the program's drawable,
 * sharing with the loop contexts of its captured share group and nothing of the program's; the one
 * that swaps is current on the program's drawable, the others on pbuffers of their own. The
 * program's binding (context, draw and read drawables, EGL bound API) is saved first and put back
 * after.
 * All calls are the driver's real functions (GLR_REAL): the shim's context tracking never sees the
 * loop's contexts, and the program's frame counter is not advanced by the loop's swaps. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/replay_loop_internal.h"
#include "replay/player/player.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "registry/glr_glx_enums.h"   /* generated from glx.xml */
#include "registry/glr_egl_enums.h"   /* generated from egl.xml */


/* ---- X errors: a refused glXCreateContextAttribsARB raises an X error whose default handler
 * would exit the program; trap it for the duration of the call (Xlib is loaded: GLX needs it). */

typedef int (*x_handler_fn)(Display *, XErrorEvent *);
static int x_error_seen;
/* The handler is process-wide, and a live session's passes make contexts on a thread of their own
 * while another may be destroying the last session's: one trap at a time, or the second would
 * "restore" the first's trap handler for good. */
static pthread_mutex_t x_trap_lock = PTHREAD_MUTEX_INITIALIZER;

static int trap_x_error(Display *dpy, XErrorEvent *ev)
{
    (void)dpy;
    x_error_seen = ev->error_code ? ev->error_code : 1;
    return 0;
}

struct x_trap {
    x_handler_fn (*set_handler)(x_handler_fn);
    int (*sync)(Display *, Bool);
    x_handler_fn old;
};

static void x_trap_begin(struct x_trap *t, Display *dpy)
{
    void *set = dlsym(RTLD_DEFAULT, "XSetErrorHandler"), *sync = dlsym(RTLD_DEFAULT, "XSync");
    memset(t, 0, sizeof *t);
    memcpy(&t->set_handler, &set, sizeof set);
    memcpy(&t->sync, &sync, sizeof sync);
    pthread_mutex_lock(&x_trap_lock);
    x_error_seen = 0;
    if (!t->set_handler || !t->sync)
        return;
    t->sync(dpy, False);
    t->old = t->set_handler(trap_x_error);
}

/* The X error code trapped since x_trap_begin (0: none). */
static int x_trap_end(struct x_trap *t, Display *dpy)
{
    if (t->set_handler && t->sync) {
        t->sync(dpy, False);
        t->set_handler(t->old);
    }
    int seen = x_error_seen;
    pthread_mutex_unlock(&x_trap_lock);
    return seen;
}

/* ---- saving the program's binding ---- */

static int find_glx_config(struct glr_loop_ws *w, char *err, size_t n)
{
    Display *dpy = w->display;
    int id = 0;
    if (GLR_REAL(glXQueryContext)(dpy, w->prog_ctx, GLX_FBCONFIG_ID, &id) != 0 || !id) {
        snprintf(err, n, "glXQueryContext(GLX_FBCONFIG_ID) failed");
        return -1;
    }
    /* The drawable's own config when it has one: a context made from an X visual may carry another
     * (glxgears: no depth buffer in the context's, 32 bits in the window's), and a live session's
     * pbuffer standing in for the window must have the window's buffers. */
    unsigned drawable_id = 0;
    GLR_REAL(glXQueryDrawable)(dpy, (GLXDrawable)(uintptr_t)w->target, GLX_FBCONFIG_ID, &drawable_id);
    if (drawable_id)
        id = (int)drawable_id;
    GLR_REAL(glXQueryContext)(dpy, w->prog_ctx, GLX_SCREEN, &w->screen);
    const int want[] = { GLX_FBCONFIG_ID, id, None };
    int count = 0;
    GLXFBConfig *cfgs = GLR_REAL(glXChooseFBConfig)(dpy, w->screen, want, &count);
    if (!cfgs || count < 1) {
        snprintf(err, n, "no GLX framebuffer config with id 0x%x", (unsigned)id);
        return -1;
    }
    w->config = cfgs[0];
    /* The array is Xlib memory; the config it points to belongs to the display and stays valid. */
    void *xfree = dlsym(RTLD_DEFAULT, "XFree");
    if (xfree) {
        int (*f)(void *);
        memcpy(&f, &xfree, sizeof f);
        f(cfgs);
    }
    return 0;
}

static int find_egl_config(struct glr_loop_ws *w, char *err, size_t n)
{
    /* The surface's config is the one a context must be compatible with to draw to it. */
    EGLint id = 0;
    if (GLR_REAL(eglQuerySurface)(w->display, w->target, EGL_CONFIG_ID, &id) != EGL_TRUE || !id)
        GLR_REAL(eglQueryContext)(w->display, w->prog_ctx, EGL_CONFIG_ID, &id);
    const EGLint want[] = { EGL_CONFIG_ID, id, EGL_NONE };
    EGLConfig cfg = NULL;
    EGLint count = 0;
    if (!id || GLR_REAL(eglChooseConfig)(w->display, want, &cfg, 1, &count) != EGL_TRUE || count < 1) {
        snprintf(err, n, "no EGL config for the program's surface (config id %d)", id);
        return -1;
    }
    w->config = cfg;
    return 0;
}

int glr_loop_ws_save(struct glr_loop_ws *w, int api, void *display, void *surface, char *err, size_t n)
{
    memset(w, 0, sizeof *w);
    w->api = api;
    if (api == GLR_CTX_GLX) {
        w->prog_ctx = GLR_REAL(glXGetCurrentContext)();
        w->display = GLR_REAL(glXGetCurrentDisplay)();
        w->prog_draw = (void *)(uintptr_t)GLR_REAL(glXGetCurrentDrawable)();
        w->prog_read = (void *)(uintptr_t)GLR_REAL(glXGetCurrentReadDrawable)();
    } else if (api == GLR_CTX_EGL) {
        w->prog_egl_api = GLR_REAL(eglQueryAPI)();
        w->prog_ctx = GLR_REAL(eglGetCurrentContext)();
        w->display = GLR_REAL(eglGetCurrentDisplay)();
        w->prog_draw = GLR_REAL(eglGetCurrentSurface)(EGL_DRAW);
        w->prog_read = GLR_REAL(eglGetCurrentSurface)(EGL_READ);
    } else {
        snprintf(err, n, "unknown window-system API %d", api);
        return -1;
    }
    if (!w->prog_ctx || !w->display) {
        snprintf(err, n, "no %s context is current on this thread", api == GLR_CTX_GLX ? "GLX" : "EGL");
        return -1;
    }
    if (display && display != w->display) {
        snprintf(err, n, "the swap's display is not the current context's display");
        return -1;
    }
    w->target = surface ? surface : w->prog_draw;
    if (!w->target) {
        snprintf(err, n, "the program's context has no drawable");
        return -1;
    }
    return api == GLR_CTX_GLX ? find_glx_config(w, err, n) : find_egl_config(w, err, n);
}

/* ---- attributes ---- */

/* Test hook: GLREPLAY_REPLAY_LOOP_TEST_VERSION=M.N replaces the captured version (a version the
 * driver lacks exercises the failure path). */
static void version_override(int *major, int *minor)
{
    const char *v = getenv("GLREPLAY_REPLAY_LOOP_TEST_VERSION");
    int a, b;
    if (v && sscanf(v, "%d.%d", &a, &b) == 2) {
        *major = a;
        *minor = b;
    }
}

static void glx_attribs(struct glr_loop_ctx *c, const struct glrh_context *d, int major, int minor)
{
    int k = 0;
    c->attribs[k++] = GLX_CONTEXT_MAJOR_VERSION_ARB;
    c->attribs[k++] = major;
    c->attribs[k++] = GLX_CONTEXT_MINOR_VERSION_ARB;
    c->attribs[k++] = minor;
    c->attribs[k++] = GLX_RENDER_TYPE;
    c->attribs[k++] = GLX_RGBA_TYPE;
    int profile = d->es ? GLX_CONTEXT_ES2_PROFILE_BIT_EXT : d->profile_mask;
    if (profile) {
        c->attribs[k++] = GLX_CONTEXT_PROFILE_MASK_ARB;
        c->attribs[k++] = profile;
    }
    int flags = 0;
    if (!d->es && (d->flags & GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT))
        flags |= GLX_CONTEXT_FORWARD_COMPATIBLE_BIT_ARB;
    if (d->flags & GL_CONTEXT_FLAG_DEBUG_BIT)
        flags |= GLX_CONTEXT_DEBUG_BIT_ARB;
    if (flags) {
        c->attribs[k++] = GLX_CONTEXT_FLAGS_ARB;
        c->attribs[k++] = flags;
    }
    c->attribs[k] = None;
}

static void egl_attribs(struct glr_loop_ctx *c, const struct glrh_context *d, int major, int minor)
{
    int k = 0;
    c->egl_api = d->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API;
    c->attribs[k++] = EGL_CONTEXT_MAJOR_VERSION;
    c->attribs[k++] = major;
    c->attribs[k++] = EGL_CONTEXT_MINOR_VERSION;
    c->attribs[k++] = minor;
    if (!d->es && d->profile_mask) {
        c->attribs[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        c->attribs[k++] = d->profile_mask;
    }
    if (!d->es && (d->flags & GL_CONTEXT_FLAG_FORWARD_COMPATIBLE_BIT)) {
        c->attribs[k++] = EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE;
        c->attribs[k++] = EGL_TRUE;
    }
    if (d->flags & GL_CONTEXT_FLAG_DEBUG_BIT) {
        c->attribs[k++] = EGL_CONTEXT_OPENGL_DEBUG;
        c->attribs[k++] = EGL_TRUE;
    }
    c->attribs[k] = EGL_NONE;
}

int glr_loop_ws_add(struct glr_loop_ws *w, const struct glrh_context *d, bool swaps, char *err, size_t n)
{
    if (w->n_ctxs == GLR_LOOP_MAX_CTXS) {
        snprintf(err, n, "the frame uses more than %d contexts", GLR_LOOP_MAX_CTXS);
        return -1;
    }
    struct glr_loop_ctx *c = &w->ctxs[w->n_ctxs++];
    memset(c, 0, sizeof *c);
    c->captured_id = d->id;
    c->share_group = d->share_group;
    c->swaps = swaps;
    c->width = d->surface_w ? d->surface_w : 64;
    c->height = d->surface_h ? d->surface_h : 64;
    int major = d->major, minor = d->minor;
    version_override(&major, &minor);
    if (w->api == GLR_CTX_GLX)
        glx_attribs(c, d, major, minor);
    else
        egl_attribs(c, d, major, minor);
    return 0;
}

/* ---- creating and switching ---- */

static void destroy_one(struct glr_loop_ws *w, struct glr_loop_ctx *c)
{
    if (w->api == GLR_CTX_GLX) {
        if (c->ctx)
            GLR_REAL(glXDestroyContext)(w->display, c->ctx);
        if (c->own_surface)
            GLR_REAL(glXDestroyPbuffer)(w->display, (GLXPbuffer)(uintptr_t)c->surface);
    } else {
        if (c->ctx)
            GLR_REAL(eglDestroyContext)(w->display, c->ctx);
        if (c->own_surface)
            GLR_REAL(eglDestroySurface)(w->display, c->surface);
    }
    c->ctx = NULL;
    c->surface = NULL;
    c->own_surface = false;
}

static void *share_of(const struct glr_loop_ws *w, const struct glr_loop_ctx *c)
{
    for (unsigned i = 0; i < w->n_ctxs; i++)
        if (&w->ctxs[i] != c && w->ctxs[i].ctx && w->ctxs[i].share_group == c->share_group)
            return w->ctxs[i].ctx;
    return NULL;
}

static int create_glx(struct glr_loop_ws *w, struct glr_loop_ctx *c, char *err, size_t n)
{
    Display *dpy = w->display;
    struct x_trap t;
    x_trap_begin(&t, dpy);
    c->ctx = GLR_REAL(glXCreateContextAttribsARB)(dpy, w->config, share_of(w, c), True, c->attribs);
    int xerr = x_trap_end(&t, dpy);
    if (!c->ctx || xerr) {
        snprintf(err, n, "glXCreateContextAttribsARB refused a version %d.%d context (X error %d)", c->attribs[1],
                 c->attribs[3], xerr);
        if (c->ctx && xerr)
            GLR_REAL(glXDestroyContext)(dpy, c->ctx);
        c->ctx = NULL;
        return -1;
    }
    if (c->swaps) {
        c->surface = w->offscreen ? w->prep_surface : w->target;
        return 0;
    }
    const int pb[] = { GLX_PBUFFER_WIDTH, (int)c->width, GLX_PBUFFER_HEIGHT, (int)c->height, None };
    x_trap_begin(&t, dpy);
    GLXPbuffer p = GLR_REAL(glXCreatePbuffer)(dpy, w->config, pb);
    xerr = x_trap_end(&t, dpy);
    if (!p || xerr) {
        snprintf(err, n, "glXCreatePbuffer failed for context %u (X error %d)", c->captured_id, xerr);
        return -1;
    }
    c->surface = (void *)(uintptr_t)p;
    c->own_surface = true;
    return 0;
}

static int create_egl(struct glr_loop_ws *w, struct glr_loop_ctx *c, char *err, size_t n)
{
    GLR_REAL(eglBindAPI)(c->egl_api);
    c->ctx = GLR_REAL(eglCreateContext)(w->display, w->config, share_of(w, c), c->attribs);
    if (!c->ctx) {
        snprintf(err, n, "eglCreateContext refused a version %d.%d context (EGL error 0x%04x)", c->attribs[1],
                 c->attribs[3], (unsigned)GLR_REAL(eglGetError)());
        return -1;
    }
    if (c->swaps) {
        c->surface = w->offscreen ? w->prep_surface : w->target;
        return 0;
    }
    const EGLint pb[] = { EGL_WIDTH, (EGLint)c->width, EGL_HEIGHT, (EGLint)c->height, EGL_NONE };
    c->surface = GLR_REAL(eglCreatePbufferSurface)(w->display, w->config, pb);
    c->own_surface = c->surface != NULL;   /* else surfaceless (EGL_KHR_surfaceless_context) */
    return 0;
}

static int bind(struct glr_loop_ws *w, struct glr_loop_ctx *c)
{
    bool ok;
    if (w->api == GLR_CTX_GLX) {
        Display *dpy = w->display;
        GLXDrawable d = (GLXDrawable)(uintptr_t)c->surface;
        struct x_trap t;
        x_trap_begin(&t, dpy);
        ok = GLR_REAL(glXMakeContextCurrent)(dpy, d, d, c->ctx);
        ok = !x_trap_end(&t, dpy) && ok;
    } else {
        /* The API is per thread: the context may have been made on the pass's own thread. */
        GLR_REAL(eglBindAPI)(c->egl_api);
        ok = GLR_REAL(eglMakeCurrent)(w->display, c->surface, c->surface, c->ctx) == EGL_TRUE;
    }
    if (!ok)
        return -1;
    w->switched = true;
    w->current = c;
    return 0;
}

bool glr_loop_ws_can_stand_in(struct glr_loop_ws *w)
{
    if (w->api == GLR_CTX_GLX) {
        int types = 0;
        return GLR_REAL(glXGetFBConfigAttrib)(w->display, w->config, GLX_DRAWABLE_TYPE, &types) == 0 &&
               (types & GLX_PBUFFER_BIT);
    }
    EGLint types = 0;
    return GLR_REAL(eglGetConfigAttrib)(w->display, w->config, EGL_SURFACE_TYPE, &types) == EGL_TRUE &&
           (types & EGL_PBUFFER_BIT);
}

/* The window's size in pixels (0 when the driver does not say). */
static void target_size(struct glr_loop_ws *w, unsigned *width, unsigned *height)
{
    *width = *height = 0;
    if (w->api == GLR_CTX_GLX) {
        GLR_REAL(glXQueryDrawable)(w->display, (GLXDrawable)(uintptr_t)w->target, GLX_WIDTH, width);
        GLR_REAL(glXQueryDrawable)(w->display, (GLXDrawable)(uintptr_t)w->target, GLX_HEIGHT, height);
        return;
    }
    EGLint ew = 0, eh = 0;
    if (GLR_REAL(eglQuerySurface)(w->display, w->target, EGL_WIDTH, &ew) == EGL_TRUE && ew > 0)
        *width = (unsigned)ew;
    if (GLR_REAL(eglQuerySurface)(w->display, w->target, EGL_HEIGHT, &eh) == EGL_TRUE && eh > 0)
        *height = (unsigned)eh;
}

/* EGL: the stand-in is a pbuffer of the window's config, which must offer pbuffers. */
static int create_prep_surface_egl(struct glr_loop_ws *w, char *err, size_t n)
{
    unsigned width, height;
    target_size(w, &width, &height);
    const EGLint pb[] = { EGL_WIDTH, width ? (EGLint)width : 64, EGL_HEIGHT, height ? (EGLint)height : 64, EGL_NONE };
    EGLSurface p = GLR_REAL(eglCreatePbufferSurface)(w->display, w->config, pb);
    if (!p) {
        snprintf(err, n, "eglCreatePbufferSurface failed for the window's stand-in (EGL error 0x%04x)",
                 (unsigned)GLR_REAL(eglGetError)());
        return -1;
    }
    w->prep_surface = p;
    return 0;
}

/* The swapping context's pbuffer while it is prepared off the window: the window's size (its
 * back buffer is what the restore fills), the window's config. */
static int create_prep_surface(struct glr_loop_ws *w, char *err, size_t n)
{
    if (w->api == GLR_CTX_EGL)
        return create_prep_surface_egl(w, err, n);
    Display *dpy = w->display;
    unsigned width, height;
    target_size(w, &width, &height);
    const int pb[] = { GLX_PBUFFER_WIDTH, width ? (int)width : 64, GLX_PBUFFER_HEIGHT, height ? (int)height : 64,
                       None };
    struct x_trap t;
    x_trap_begin(&t, dpy);
    GLXPbuffer p = GLR_REAL(glXCreatePbuffer)(dpy, w->config, pb);
    int xerr = x_trap_end(&t, dpy);
    if (!p || xerr) {
        snprintf(err, n, "glXCreatePbuffer failed for the window's stand-in (X error %d)", xerr);
        return -1;
    }
    w->prep_surface = (void *)(uintptr_t)p;
    return 0;
}

static void destroy_prep_surface(struct glr_loop_ws *w)
{
    if (w->prep_surface && w->api == GLR_CTX_GLX)
        GLR_REAL(glXDestroyPbuffer)(w->display, (GLXPbuffer)(uintptr_t)w->prep_surface);
    else if (w->prep_surface)
        GLR_REAL(eglDestroySurface)(w->display, w->prep_surface);
    w->prep_surface = NULL;
}

int glr_loop_ws_create(struct glr_loop_ws *w, char *err, size_t n)
{
    if (w->offscreen && !w->prep_surface && create_prep_surface(w, err, n) != 0)
        return -1;
    /* The previous pass's contexts go once the new ones are current (none of theirs is then). */
    struct glr_loop_ctx old[GLR_LOOP_MAX_CTXS];
    memcpy(old, w->ctxs, sizeof old);
    for (unsigned i = 0; i < w->n_ctxs; i++) {
        w->ctxs[i].ctx = NULL;
        w->ctxs[i].surface = NULL;
        w->ctxs[i].own_surface = false;
    }
    int rc = 0;
    struct glr_loop_ctx *swapper = NULL;
    for (unsigned i = 0; i < w->n_ctxs && rc == 0; i++) {
        rc = w->api == GLR_CTX_GLX ? create_glx(w, &w->ctxs[i], err, n) : create_egl(w, &w->ctxs[i], err, n);
        if (w->ctxs[i].swaps)
            swapper = &w->ctxs[i];
    }
    if (rc == 0 && (!swapper || bind(w, swapper) != 0)) {
        snprintf(err, n, "cannot make the loop context current on the program's drawable");
        rc = -1;
    }
    if (rc != 0) {
        for (unsigned i = 0; i < w->n_ctxs; i++)
            destroy_one(w, &w->ctxs[i]);
        w->current = NULL;
    }
    for (unsigned i = 0; i < w->n_ctxs; i++)
        destroy_one(w, &old[i]);
    return rc;
}

int glr_loop_ws_make_current(struct glr_loop_ws *w, uint32_t captured_id)
{
    if (w->current && w->current->captured_id == captured_id)
        return 0;
    for (unsigned i = 0; i < w->n_ctxs; i++)
        if (w->ctxs[i].captured_id == captured_id && w->ctxs[i].ctx)
            return bind(w, &w->ctxs[i]);
    return -1;
}

void glr_loop_ws_swap(struct glr_loop_ws *w)
{
    if (w->api == GLR_CTX_GLX)
        GLR_REAL(glXSwapBuffers)(w->display, (GLXDrawable)(uintptr_t)w->target);
    else
        GLR_REAL(eglSwapBuffers)(w->display, w->target);
}

/* On the pass's own thread: nothing of the loop's current there any more. */
static void release_current(struct glr_loop_ws *w)
{
    if (w->current && w->api == GLR_CTX_GLX)
        GLR_REAL(glXMakeContextCurrent)(w->display, None, None, NULL);
    else if (w->current)   /* EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT: null handles (egl.xml) */
        GLR_REAL(eglMakeCurrent)(w->display, NULL, NULL, NULL);
    w->current = NULL;
    w->switched = false;
}

void glr_loop_ws_release(struct glr_loop_ws *w)
{
    release_current(w);
}

/* The stand-in's image into the window's back buffer: the swapping context is current with the
 * window to draw and the pbuffer to read. One blit; what it depends on is set and put back. */
static int present_blit(struct glr_loop_ws *w, void *(*proc)(void *, const char *), void *user)
{
    void (*get)(GLenum, GLint *), (*bind_fb)(GLenum, GLuint), (*enable)(GLenum), (*disable)(GLenum);
    void (*read_buf)(GLenum), (*draw_bufs)(GLsizei, const GLenum *);
    GLboolean (*is_enabled)(GLenum);
    void (*blit)(GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLint, GLbitfield, GLenum);
    void *f[8] = { proc(user, "glGetIntegerv"), proc(user, "glBindFramebuffer"), proc(user, "glEnable"),
                   proc(user, "glDisable"), proc(user, "glReadBuffer"), proc(user, "glDrawBuffers"),
                   proc(user, "glIsEnabled"), proc(user, "glBlitFramebuffer") };
    for (int i = 0; i < 8; i++)
        if (!f[i])
            return -1;
    memcpy(&get, &f[0], sizeof get);
    memcpy(&bind_fb, &f[1], sizeof bind_fb);
    memcpy(&enable, &f[2], sizeof enable);
    memcpy(&disable, &f[3], sizeof disable);
    memcpy(&read_buf, &f[4], sizeof read_buf);
    memcpy(&draw_bufs, &f[5], sizeof draw_bufs);
    memcpy(&is_enabled, &f[6], sizeof is_enabled);
    memcpy(&blit, &f[7], sizeof blit);
    unsigned width, height;
    target_size(w, &width, &height);
    GLint read_fb = 0, draw_fb = 0, read_b = 0, draw_b = 0, dbl = 0;
    get(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    get(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    bind_fb(GL_READ_FRAMEBUFFER, 0);
    bind_fb(GL_DRAW_FRAMEBUFFER, 0);
    get(GL_READ_BUFFER, &read_b);
    get(GL_DRAW_BUFFER0, &draw_b);
    get(GL_DOUBLEBUFFER, &dbl);
    const GLenum switches[3] = { GL_SCISSOR_TEST, GL_FRAMEBUFFER_SRGB, GL_RASTERIZER_DISCARD };
    GLboolean on[3];
    for (int i = 0; i < 3; i++)
        if ((on[i] = is_enabled(switches[i])))
            disable(switches[i]);
    GLenum shown = dbl ? GL_BACK : GL_FRONT;   /* the buffer a swap shows */
    read_buf(shown);
    draw_bufs(1, &shown);
    blit(0, 0, (GLint)width, (GLint)height, 0, 0, (GLint)width, (GLint)height, GL_COLOR_BUFFER_BIT, GL_NEAREST);
    const GLenum db = (GLenum)draw_b;
    read_buf((GLenum)read_b);
    draw_bufs(1, &db);
    for (int i = 0; i < 3; i++)
        if (on[i])
            enable(switches[i]);
    bind_fb(GL_READ_FRAMEBUFFER, (GLuint)read_fb);
    bind_fb(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    return 0;
}

int glr_loop_ws_adopt(struct glr_loop_ws *w, void *(*proc)(void *user, const char *name),
                      void (*before_swap)(void *user), void *user, char *err, size_t n)
{
    struct glr_loop_ctx *c = NULL;
    for (unsigned i = 0; i < w->n_ctxs && !c; i++)
        if (w->ctxs[i].swaps && w->ctxs[i].ctx)
            c = &w->ctxs[i];
    w->offscreen = false;
    w->current = NULL;
    w->switched = false;
    if (!c) {
        destroy_prep_surface(w);
        snprintf(err, n, "no loop context swaps the program's drawable");
        return -1;
    }
    c->surface = w->target;
    bool shown = false;
    if (proc && w->prep_surface) {
        bool ok;
        if (w->api == GLR_CTX_GLX) {
            Display *dpy = w->display;
            struct x_trap t;
            x_trap_begin(&t, dpy);
            ok = GLR_REAL(glXMakeContextCurrent)(dpy, (GLXDrawable)(uintptr_t)w->target,
                                                 (GLXDrawable)(uintptr_t)w->prep_surface, c->ctx);
            ok = !x_trap_end(&t, dpy) && ok;
        } else {
            /* Drawing to the window, reading the stand-in: EGL allows the two to differ. */
            GLR_REAL(eglBindAPI)(c->egl_api);
            ok = GLR_REAL(eglMakeCurrent)(w->display, w->target, w->prep_surface, c->ctx) == EGL_TRUE;
        }
        if (ok) {
            w->switched = true;
            shown = present_blit(w, proc, user) == 0;
        }
    }
    /* Then current on the window alone: the pbuffer is current nowhere and can go. */
    if (bind(w, c) != 0) {
        destroy_prep_surface(w);
        snprintf(err, n, "cannot make the loop context current on the program's drawable");
        return -1;
    }
    destroy_prep_surface(w);
    if (shown) {
        if (before_swap)
            before_swap(user);   /* the window's back buffer holds the pass's image now */
        glr_loop_ws_swap(w);
    }
    return 0;
}

void glr_loop_ws_discard(struct glr_loop_ws *w)
{
    release_current(w);
    for (unsigned i = 0; i < w->n_ctxs; i++)
        destroy_one(w, &w->ctxs[i]);
    destroy_prep_surface(w);
}

int glr_loop_ws_restore(struct glr_loop_ws *w, char *err, size_t n)
{
    int rc = 0;
    if (w->switched) {
        if (w->api == GLR_CTX_GLX) {
            if (!GLR_REAL(glXMakeContextCurrent)(w->display, (GLXDrawable)(uintptr_t)w->prog_draw,
                                                 (GLXDrawable)(uintptr_t)w->prog_read, w->prog_ctx)) {
                snprintf(err, n, "glXMakeContextCurrent could not rebind the program's context");
                rc = -1;
            }
        } else {
            GLR_REAL(eglBindAPI)(w->prog_egl_api);
            if (GLR_REAL(eglMakeCurrent)(w->display, w->prog_draw, w->prog_read, w->prog_ctx) != EGL_TRUE) {
                snprintf(err, n, "eglMakeCurrent could not rebind the program's context (EGL error 0x%04x)",
                         (unsigned)GLR_REAL(eglGetError)());
                rc = -1;
            }
        }
    } else if (w->api == GLR_CTX_EGL && w->prog_egl_api) {
        GLR_REAL(eglBindAPI)(w->prog_egl_api);
    }
    for (unsigned i = 0; i < w->n_ctxs; i++)
        destroy_one(w, &w->ctxs[i]);
    destroy_prep_surface(w);   /* a failed preparation's, or none */
    w->current = NULL;
    w->switched = false;
    return rc;
}
