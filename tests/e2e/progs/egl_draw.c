/* A minimal EGL surfaceless GL context (see egl_draw.h). */
#include "egl_draw.h"

#include <EGL/egl.h>
#include <GL/gl.h>
#include <stdio.h>

static EGLDisplay dpy = EGL_NO_DISPLAY;
static EGLSurface surf = EGL_NO_SURFACE;
static int width, height;

bool egl_draw_init(int w, int h)
{
    width = w;
    height = h;
    EGLint major, minor, n = 0;
    EGLConfig cfg;
    static const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                      EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    const EGLint pb_attribs[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_API) ||
        !eglChooseConfig(dpy, attribs, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, "egl_draw: no EGL display or config (0x%x)\n", (unsigned)eglGetError());
        return false;
    }
    surf = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL);
    if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "egl_draw: no context (0x%x)\n", (unsigned)eglGetError());
        return false;
    }
    return true;
}

bool egl_draw_frame(unsigned index)
{
    const unsigned char want[3] = { (unsigned char)(17 * index), 140, (unsigned char)(255 - 23 * index) };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(width / 2, height / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    eglSwapBuffers(dpy, surf);
    if (got[0] != want[0] || got[1] != want[1] || got[2] != want[2]) {
        fprintf(stderr, "egl_draw: read back %u,%u,%u, expected %u,%u,%u\n", got[0], got[1], got[2], want[0],
                want[1], want[2]);
        return false;
    }
    return true;
}

void egl_draw_finish(void)
{
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
}
