/* EGL headless set-up (Mesa's surfaceless platform, or a device of EGL_EXT_platform_device): display, configs, contexts matching the captured ones, pbuffers.
 * Pbuffers rather than surfaceless contexts: a pbuffer is a real default framebuffer (its colour
 * buffer is the back buffer, so GL_BACK draws and reads work and rows are bottom-up as in a
 * window), which is what the captured program drew into. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/egl_env.h"
#include "replay/player/player.h"
#include <EGL/eglext.h>

static void seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t n, const char *fmt, ...)
{
    if (!n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

static bool has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && (p = strstr(p, word)); p += n)
        if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
            return true;
    return false;
}

/* The display of EGL_EXT_platform_device's device number `index` (EGL_EXT_device_enumeration):
 * how vendor drivers (NVIDIA's among them) render without a window system, where Mesa's
 * surfaceless platform is missing. */
static EGLDisplay open_device_display(long index, char *err, size_t n)
{
    PFNEGLQUERYDEVICESEXTPROC query = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    EGLDeviceEXT devs[16];
    EGLint count = 0;
    if (!query || !query(16, devs, &count) || count <= 0) {
        seterr(err, n, "EGL lists no devices (eglQueryDevicesEXT)");
        return EGL_NO_DISPLAY;
    }
    if (index < 0 || index >= count) {
        seterr(err, n, "GLREPLAY_EGL_DEVICE=%ld: EGL lists %d device(s), numbered from 0", index, (int)count);
        return EGL_NO_DISPLAY;
    }
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, devs[index], NULL);
    if (dpy == EGL_NO_DISPLAY)
        seterr(err, n, "cannot open EGL device %ld (EGL error 0x%04x)", index, (unsigned)eglGetError());
    return dpy;
}

/* GLREPLAY_EGL_DEVICE: unset, Mesa's surfaceless platform when EGL has it, else device 0 of
 * EGL_EXT_platform_device; a number N, that device always (to replay on one GPU of several, or on
 * a vendor driver beside Mesa). */
int glrh_egl_open(struct glrh_egl *e, char *err, size_t n)
{
    memset(e, 0, sizeof *e);
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    const char *want = getenv("GLREPLAY_EGL_DEVICE");
    bool surfaceless = has_word(client, "EGL_MESA_platform_surfaceless");
    bool device = has_word(client, "EGL_EXT_platform_device") && has_word(client, "EGL_EXT_device_enumeration");
    long index = 0;
    if (want && *want) {
        char *end = NULL;
        index = strtol(want, &end, 10);
        if (*end || index < 0) {
            seterr(err, n, "GLREPLAY_EGL_DEVICE=%s: not a device number", want);
            return -1;
        }
        surfaceless = false;
    }
    const char *what = surfaceless ? "surfaceless display" : "device display";
    if (surfaceless) {
        e->dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    } else if (device) {
        e->dpy = open_device_display(index, err, n);
        if (e->dpy == EGL_NO_DISPLAY)
            return -1;
    } else {
        seterr(err, n, "EGL has neither Mesa's surfaceless platform (EGL_MESA_platform_surfaceless) nor "
                       "EGL_EXT_platform_device: install Mesa's EGL");
        return -1;
    }
    EGLint major, minor;
    if (e->dpy == EGL_NO_DISPLAY || !eglInitialize(e->dpy, &major, &minor)) {
        seterr(err, n, "cannot open the EGL %s (EGL error 0x%04x)", what, (unsigned)eglGetError());
        e->dpy = EGL_NO_DISPLAY;
        return -1;
    }
    return 0;
}

void glrh_egl_close(struct glrh_egl *e)
{
    if (e->dpy != EGL_NO_DISPLAY) {
        eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglTerminate(e->dpy);
        eglReleaseThread();
    }
    e->dpy = EGL_NO_DISPLAY;
}

static EGLint attr(EGLDisplay dpy, EGLConfig c, EGLint a)
{
    EGLint v = 0;
    eglGetConfigAttrib(dpy, c, a, &v);
    return v;
}

/* The RGB8 (+A8 when asked), depth 24 stencil 8 pbuffer config of `samples` samples (0: single) closest to that. */
/* want_depth/want_stencil: the window's own sizes when the capture says them (METADATA
 * depth_bits/stencil_bits), else -1: then 24/8 is preferred. The sizes matter beyond depth testing:
 * llvmpipe's linear rasterizer, which shades whole tiles in 8-bit fixed point, runs only on a
 * framebuffer without a depth/stencil buffer, so a window without one rounds some tiles
 * differently from a pbuffer with one (piglit's shader_runner in its window: 64x64 tiles one step
 * off). */
static bool choose_config(EGLDisplay dpy, EGLint renderable, bool alpha, EGLint samples, int want_depth,
                          int want_stencil, EGLConfig *out)
{
    int wd = want_depth >= 0 ? want_depth : 24, ws = want_stencil >= 0 ? want_stencil : 8;
    EGLint total = 0;
    if (!eglGetConfigs(dpy, NULL, 0, &total) || total <= 0)
        return false;
    EGLConfig cfgs[512];
    if (total > 512)
        total = 512;
    if (!eglGetConfigs(dpy, cfgs, total, &total))
        return false;
    int best_score = -1;
    for (EGLint i = 0; i < total; i++) {
        EGLConfig c = cfgs[i];
        if (!(attr(dpy, c, EGL_SURFACE_TYPE) & EGL_PBUFFER_BIT) || !(attr(dpy, c, EGL_RENDERABLE_TYPE) & renderable) ||
            attr(dpy, c, EGL_COLOR_BUFFER_TYPE) != EGL_RGB_BUFFER || attr(dpy, c, EGL_RED_SIZE) != 8 ||
            attr(dpy, c, EGL_GREEN_SIZE) != 8 || attr(dpy, c, EGL_BLUE_SIZE) != 8 ||
            attr(dpy, c, EGL_ALPHA_SIZE) != (alpha ? 8 : 0) || attr(dpy, c, EGL_SAMPLES) != samples)
            continue;
        EGLint depth = attr(dpy, c, EGL_DEPTH_SIZE), stencil = attr(dpy, c, EGL_STENCIL_SIZE);
        int score = 1000 - (depth > wd ? depth - wd : wd - depth) * 10 - (stencil > ws ? stencil - ws : ws - stencil);
        if ((want_depth >= 0 && (depth == 0) != (want_depth == 0)) ||
            (want_stencil >= 0 && (stencil == 0) != (want_stencil == 0)))
            score -= 500;   /* a depth or stencil buffer the window lacked (or the reverse) */
        if (score > best_score) {
            best_score = score;
            *out = c;
        }
    }
    return best_score >= 0;
}

static const char *api_name(const struct glrh_context *d)
{
    if (d->es)
        return "OpenGL ES";
    return d->profile_mask == 1 ? "OpenGL core" : d->profile_mask == 2 ? "OpenGL compatibility" : "OpenGL";
}

/* eglCreateContext with the captured API's attributes at version major.minor. */
static EGLContext create_context(EGLDisplay dpy, EGLConfig cfg, EGLContext share, const struct glrh_context *d,
                                 int major, int minor)
{
    EGLint attrs[16], k = 0;
    attrs[k++] = EGL_CONTEXT_MAJOR_VERSION;
    attrs[k++] = major;
    attrs[k++] = EGL_CONTEXT_MINOR_VERSION;
    attrs[k++] = minor;
    if (!d->es && (major > 3 || (major == 3 && minor >= 2)) && d->profile_mask) {
        attrs[k++] = EGL_CONTEXT_OPENGL_PROFILE_MASK;
        attrs[k++] = d->profile_mask == 1 ? EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT
                                          : EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT;
    }
    /* GL_CONTEXT_FLAGS bits: 1 forward compatible, 2 debug, 4 robust access. (8, no error, is not
     * requested: replay wants GL errors reported like the captured program saw them.) Asked for
     * with EGL_KHR_create_context's flags word, which EGL 1.4 drivers understand too. */
    EGLint flags = 0;
    if (!d->es && (d->flags & 1))
        flags |= EGL_CONTEXT_OPENGL_FORWARD_COMPATIBLE_BIT_KHR;
    if (d->flags & 2)
        flags |= EGL_CONTEXT_OPENGL_DEBUG_BIT_KHR;
    if (d->flags & 4)
        flags |= EGL_CONTEXT_OPENGL_ROBUST_ACCESS_BIT_KHR;
    if (flags) {
        attrs[k++] = EGL_CONTEXT_FLAGS_KHR;
        attrs[k++] = flags;
    }
    attrs[k++] = EGL_NONE;
    return eglCreateContext(dpy, cfg, share, attrs);
}

int glrh_egl_create(struct glrh_egl *e, const struct glrh_context *d, EGLContext share, unsigned width,
                    unsigned height, bool alpha, EGLContext *ctx_out, EGLSurface *surf_out, char *err, size_t n)
{
    return glrh_egl_create_ex(e, d, share, width, height, alpha, ctx_out, surf_out, NULL, err, n);
}

int glrh_egl_create_ex(struct glrh_egl *e, const struct glrh_context *d, EGLContext share, unsigned width,
                       unsigned height, bool alpha, EGLContext *ctx_out, EGLSurface *surf_out, bool *downgraded,
                       char *err, size_t n)
{
    if (downgraded)
        *downgraded = false;
    EGLint renderable = d->es ? (d->major >= 3 ? EGL_OPENGL_ES3_BIT : d->major == 2 ? EGL_OPENGL_ES2_BIT
                                                                                    : EGL_OPENGL_ES_BIT)
                              : EGL_OPENGL_BIT;
    if (!eglBindAPI(d->es ? EGL_OPENGL_ES_API : EGL_OPENGL_API)) {
        seterr(err, n, "context %u: EGL cannot bind the %s API", d->id, api_name(d));
        return -1;
    }
    EGLConfig cfg;
    /* A multisampled window is replayed with the same sample count (single-sampled if the driver
     * has no such config). */
    int want_depth = d->zs_known ? d->depth_bits : -1, want_stencil = d->zs_known ? d->stencil_bits : -1;
    if ((d->samples <= 1 || !choose_config(e->dpy, renderable, alpha, d->samples, want_depth, want_stencil, &cfg)) &&
        !choose_config(e->dpy, renderable, alpha, 0, want_depth, want_stencil, &cfg)) {
        seterr(err, n, "context %u: no EGL pbuffer config with RGB8%s for %s", d->id, alpha ? "A8" : "", api_name(d));
        return -1;
    }
    EGLContext ctx = create_context(e->dpy, cfg, share, d, d->major, d->minor);
    if (ctx == EGL_NO_CONTEXT) {
        /* The replaying driver may support less than the capturing one did: ask for the lowest
         * version of the same kind (Mesa then gives its highest) and say so. */
        bool lower = d->es ? d->minor > 0 : (d->major > 3 || (d->major == 3 && d->minor > 2));
        EGLint first_error = eglGetError();
        if (lower) {
            ctx = create_context(e->dpy, cfg, share, d, d->es ? d->major : 3, d->es ? 0 : 2);
            if (ctx != EGL_NO_CONTEXT && downgraded)
                *downgraded = true;
        }
        if (ctx == EGL_NO_CONTEXT) {
            seterr(err, n, "context %u: cannot create an %s %d.%d context%s (EGL error 0x%04x)", d->id, api_name(d),
                   d->major, d->minor, share != EGL_NO_CONTEXT ? " in its share group" : "", (unsigned)first_error);
            return -1;
        }
    }
    const EGLint pb[] = { EGL_WIDTH, (EGLint)width, EGL_HEIGHT, (EGLint)height, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(e->dpy, cfg, pb);
    if (surf == EGL_NO_SURFACE) {
        seterr(err, n, "context %u: cannot create a %ux%u pbuffer (EGL error 0x%04x)", d->id, width, height,
               (unsigned)eglGetError());
        eglDestroyContext(e->dpy, ctx);
        return -1;
    }
    *ctx_out = ctx;
    *surf_out = surf;
    return 0;
}

bool glrh_egl_make_current(struct glrh_egl *e, EGLSurface surf, EGLContext ctx)
{
    return eglMakeCurrent(e->dpy, surf, surf, ctx) == EGL_TRUE;
}

void glrh_egl_destroy(struct glrh_egl *e, EGLContext ctx, EGLSurface surf)
{
    if (surf != EGL_NO_SURFACE)
        eglDestroySurface(e->dpy, surf);
    if (ctx != EGL_NO_CONTEXT)
        eglDestroyContext(e->dpy, ctx);
}

void *glrh_egl_proc(const char *name)
{
    return (void *)eglGetProcAddress(name);
}

/* The dispatcher's resolver for the headless replayer (headless.h). Here, not with the capture
 * loader: a program that loads captures without replaying them on EGL (the debugger engine inside
 * a program, shim/glr_engine.h) must not pull in libEGL. */
void *glrh_get_proc(void *user, const char *name)
{
    (void)user;
    return glrh_egl_proc(name);
}
