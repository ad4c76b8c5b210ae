/* Loader route (f): EGL on the surfaceless platform (EGL_PLATFORM=surfaceless, no X server) with
 * GL linked directly: libOpenGL (desktop GL) or, built with ROUTE_GLES, libGLESv2. Calls reach the
 * shim through ordinary symbol binding. Frames are drawn into a pbuffer and end with
 * eglSwapBuffers (a no-op on a pbuffer that still ends the frame for the shim). */
#include <EGL/egl.h>
#include <stdio.h>
#include <string.h>
#ifdef ROUTE_GLES
#include <GLES2/gl2.h>
#define ROUTE "egl-gles2"
#define API EGL_OPENGL_ES_API
#define RENDERABLE EGL_OPENGL_ES2_BIT
#else
#include <GL/gl.h>
#define ROUTE "egl-opengl"
#define API EGL_OPENGL_API
#define RENDERABLE EGL_OPENGL_BIT
#endif

#include "route_report.h"

#define FRAMES 3u
#define W 32
#define H 24

static bool frame(unsigned index)
{
    const unsigned char want[4] = { 90, (unsigned char)(10 + 70 * index), (unsigned char)(230 - 50 * index), 255 };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    return route_pixel_is(ROUTE, got, want);
}

static int fail(const char *what)
{
    fprintf(stderr, "route " ROUTE ": %s failed (EGL error 0x%x)\n", what, (unsigned)eglGetError());
    return route_finish(ROUTE, 0, false);
}

int main(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor))
        return fail("eglInitialize");
    const char *vendor = eglQueryString(dpy, EGL_VENDOR);
    if (!vendor || !*vendor)
        return fail("eglQueryString(EGL_VENDOR)");
    if (!eglBindAPI(API))
        return fail("eglBindAPI");
    static const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, RENDERABLE,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, attribs, &cfg, 1, &n) || n < 1)
        return fail("eglChooseConfig");
    static const EGLint pb_attribs[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
    if (surf == EGL_NO_SURFACE)
        return fail("eglCreatePbufferSurface");
#ifdef ROUTE_GLES
    static const EGLint ctx_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
#else
    static const EGLint ctx_attribs[] = { EGL_NONE };
#endif
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT)
        return fail("eglCreateContext");
    if (!eglMakeCurrent(dpy, surf, surf, ctx))
        return fail("eglMakeCurrent");
    const GLubyte *version = glGetString(GL_VERSION);
    bool ok = version && *version;
#ifdef ROUTE_GLES
    ok = ok && strncmp((const char *)version, "OpenGL ES", 9) == 0;
#endif
    if (!ok)
        fprintf(stderr, "route " ROUTE ": unexpected GL_VERSION '%s'\n", version ? (const char *)version : "(null)");
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = frame(i);
        eglSwapBuffers(dpy, surf);
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    route_expect_call("glClear", FRAMES);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glGetString", 1);
    route_expect_call("eglCreateContext", 1);
    route_expect_call("eglMakeCurrent", 2);
    route_expect_call("eglSwapBuffers", FRAMES);
    route_expect("frames", FRAMES);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
