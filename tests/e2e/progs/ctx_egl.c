/* Context tracking under EGL (surfaceless platform, pbuffers, no X): several contexts (desktop GL
 * and GLES), a share group, three threads, a context destroyed while current on another thread
 * which keeps drawing until it calls eglReleaseThread, and eglTerminate destroying the rest.
 *
 *   main: A (GL) current on pbuffer 1, 2 frames; creates B (GL, shares A), C (GL, alone),
 *         D (GLES 2).
 *   t1:   B current on pbuffer 2, makes a texture, 2 frames, releases with eglMakeCurrent.
 *   main: the texture is visible in A (shared).
 *   t2:   C current on pbuffer 3, the texture is not visible; waits.
 *   main: destroys C while t2 has it current.
 *   t2:   2 more frames with C, eglReleaseThread: C really goes away.
 *   main: D current on pbuffer 1, 1 frame, releases; destroys B; eglTerminate (A and D are
 *         destroyed by it, not individually).
 * Summary: contexts 4, alive 0, threads 3, frames 4 (7 swaps; frames are counted on one drawable at a time). */
#include <EGL/egl.h>
#include <GL/gl.h>
#include <pthread.h>
#include <stdio.h>

#include "route_report.h"
#include "step_sync.h"

#define W 40
#define H 30

static EGLDisplay dpy;
static EGLConfig cfg; /* renderable as GL and GLES 2, used by every surface and context */
static EGLSurface pbuf[3];
static EGLContext ctx_a, ctx_b, ctx_c, ctx_d;
static GLuint shared_tex;
static struct step_sync sync_steps = STEP_SYNC_INIT;
static bool ok = true;
static pthread_mutex_t ok_lock = PTHREAD_MUTEX_INITIALIZER;

static void expect_true(bool cond, const char *what)
{
    if (cond)
        return;
    fprintf(stderr, "ctx_egl: %s (EGL error 0x%x)\n", what, (unsigned)eglGetError());
    pthread_mutex_lock(&ok_lock);
    ok = false;
    pthread_mutex_unlock(&ok_lock);
}

static void frame(int s, unsigned index)
{
    const unsigned char want[4] = { (unsigned char)(40 + 70 * s), (unsigned char)(30 * index), 99, 255 };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    expect_true(route_pixel_is("ctx_egl", got, want), "wrong pixel");
    eglSwapBuffers(dpy, pbuf[s]);
}

static void *thread_b(void *arg)
{
    (void)arg;
    eglBindAPI(EGL_OPENGL_API);
    expect_true(eglMakeCurrent(dpy, pbuf[1], pbuf[1], ctx_b), "t1: eglMakeCurrent(B) failed");
    glGenTextures(1, &shared_tex);
    glBindTexture(GL_TEXTURE_2D, shared_tex);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFinish();
    frame(1, 0);
    frame(1, 1);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    step_set(&sync_steps, 1);
    return NULL;
}

static void *thread_c(void *arg)
{
    (void)arg;
    step_wait(&sync_steps, 2);
    eglBindAPI(EGL_OPENGL_API);
    expect_true(eglMakeCurrent(dpy, pbuf[2], pbuf[2], ctx_c), "t2: eglMakeCurrent(C) failed");
    expect_true(!glIsTexture(shared_tex), "t2: a texture of another share group is visible in C");
    step_set(&sync_steps, 3);
    step_wait(&sync_steps, 4); /* main has destroyed C meanwhile */
    frame(2, 0);
    frame(2, 1);
    expect_true(eglReleaseThread(), "t2: eglReleaseThread failed");
    return NULL;
}

static EGLConfig choose(EGLint renderable)
{
    const EGLint attribs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, renderable,
                               EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    EGLConfig c = NULL;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, attribs, &c, 1, &n) || n < 1)
        return NULL;
    return c;
}

int main(void)
{
    EGLint major, minor;
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        fprintf(stderr, "ctx_egl: cannot initialise EGL (set EGL_PLATFORM=surfaceless)\n");
        return 1;
    }
    cfg = choose(EGL_OPENGL_BIT | EGL_OPENGL_ES2_BIT);
    if (!cfg) {
        fprintf(stderr, "ctx_egl: no pbuffer config for both GL and GLES 2\n");
        return 1;
    }
    static const EGLint pb_attribs[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    for (int i = 0; i < 3; i++)
        pbuf[i] = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
    eglBindAPI(EGL_OPENGL_API);
    ctx_a = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL);
    if (ctx_a == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, pbuf[0], pbuf[0], ctx_a)) {
        fprintf(stderr, "ctx_egl: cannot create or bind the first context (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }
    frame(0, 0);
    frame(0, 1);
    ctx_b = eglCreateContext(dpy, cfg, ctx_a, NULL);
    ctx_c = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL);
    eglBindAPI(EGL_OPENGL_ES_API);
    static const EGLint es_attribs[] = { EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE };
    ctx_d = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, es_attribs);
    eglBindAPI(EGL_OPENGL_API);
    if (ctx_b == EGL_NO_CONTEXT || ctx_c == EGL_NO_CONTEXT || ctx_d == EGL_NO_CONTEXT) {
        fprintf(stderr, "ctx_egl: context creation failed (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }

    pthread_t t1, t2;
    pthread_create(&t1, NULL, thread_b, NULL);
    pthread_create(&t2, NULL, thread_c, NULL);
    step_wait(&sync_steps, 1);
    pthread_join(t1, NULL);
    expect_true(glIsTexture(shared_tex), "main: B's texture is not visible in A (same share group)");
    step_set(&sync_steps, 2);
    step_wait(&sync_steps, 3);
    expect_true(eglDestroyContext(dpy, ctx_c), "main: eglDestroyContext(C) while current elsewhere failed");
    step_set(&sync_steps, 4);
    pthread_join(t2, NULL);

    eglBindAPI(EGL_OPENGL_ES_API);
    expect_true(eglMakeCurrent(dpy, pbuf[0], pbuf[0], ctx_d), "main: eglMakeCurrent(D) failed");
    frame(0, 2);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglBindAPI(EGL_OPENGL_API);
    expect_true(eglDestroyContext(dpy, ctx_b), "main: eglDestroyContext(B) failed");
    expect_true(eglTerminate(dpy), "main: eglTerminate failed"); /* A and D go with the display */

    route_expect("contexts", 4);
    route_expect("alive", 0);
    route_expect("threads", 3);
    /* 7 swaps on 3 drawables, frames counted on one (shim/frame_window.c): drawable 0's two swaps
     * are frames 1-2; drawable 1 swaps twice in a row and takes over at its second (frame 3),
     * then drawable 2 likewise (frame 4); drawable 0's last swap is its first since: no frame. */
    route_expect("frames", 4);
    route_expect_call("eglSwapBuffers", 7);
    route_expect_call("eglCreateContext", 4);
    route_expect_call("eglDestroyContext", 2);
    route_expect_call("eglReleaseThread", 1);
    route_expect_call("eglTerminate", 1);
    route_expect_call("glClear", 7);
    route_expect_call("glIsTexture", 2);
    return route_finish("ctx_egl", 7, ok);
}
