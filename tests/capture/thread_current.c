/* A context that is already current on a second thread when a capture starts (issue 13 §3): the
 * main thread swaps a pbuffer (it counts the frames, so captures start on it); a worker thread made
 * its own, unshared context current once, before any capture, and keeps it current. At every frame
 * the worker's first GL call is a draw that ADDS a constant colour into a texture of its context
 * (blending GL_ONE, GL_ONE), then it reads a pixel back. Such a context joins the capture's initial
 * state when it first runs during the capture: its texture must be read back before that draw ran,
 * or the snapshot already holds the draw and the replay adds it a second time.
 * Usage: thread_current FRAMES. Prints the worker's read-backs, one line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 32
#define H 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int asked, done_steps, quit, failed;
static struct glt_egl egl;
static EGLContext worker_ctx;
static unsigned char got[1024][4];

static void *worker(void *arg)
{
    (void)arg;
    /* Its own context, no surface (EGL_KHR_surfaceless_context): current from here to the end. */
    if (!eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, worker_ctx)) {
        fprintf(stderr, "thread_current: eglMakeCurrent on the worker failed\n");
        pthread_mutex_lock(&lock);
        failed = 1;
        done_steps = -1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
        return NULL;
    }
    GLuint tex, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glViewport(0, 0, W, H);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glEnable(GL_BLEND);
    glBlendFunc(GL_ONE, GL_ONE);
    glColor4f(0.02f, 0.04f, 0.06f, 0.0f);
    glFinish();
    for (int step = 0;; step++) {
        pthread_mutex_lock(&lock);
        while (asked == step && !quit)
            pthread_cond_wait(&cond, &lock);
        pthread_mutex_unlock(&lock);
        if (quit)
            break;
        glRectf(-1, -1, 1, 1);   /* the first call of the step: adds to what the texture holds */
        glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got[step % 1024]);
        pthread_mutex_lock(&lock);
        done_steps = step + 1;
        pthread_cond_broadcast(&cond);
        pthread_mutex_unlock(&lock);
    }
    eglMakeCurrent(egl.dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    if (frames < 1 || frames > 1024 || glt_egl_open(&egl, "thread_current", W, H, 0, 0, 0, 0) != 0)
        return 1;
    EGLConfig cfg;
    EGLint n = 0;
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    const EGLint ctx_attr[] = { EGL_NONE };
    if (!eglChooseConfig(egl.dpy, cfg_attr, &cfg, 1, &n) || n < 1 ||
        !(worker_ctx = eglCreateContext(egl.dpy, cfg, EGL_NO_CONTEXT, ctx_attr))) {
        fprintf(stderr, "thread_current: no second context\n");
        return 1;
    }
    pthread_t th;
    if (pthread_create(&th, NULL, worker, NULL) != 0)
        return 1;
    for (int f = 0; f < frames && !failed; f++) {
        pthread_mutex_lock(&lock);
        asked = f + 1;
        pthread_cond_broadcast(&cond);
        while (done_steps != f + 1 && done_steps >= 0)
            pthread_cond_wait(&cond, &lock);
        pthread_mutex_unlock(&lock);
        glClearColor(0.1f * (float)(f % 10), 0.5f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    pthread_mutex_lock(&lock);
    quit = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    pthread_join(th, NULL);
    if (failed)
        return 1;
    printf("thread_current:");
    for (int f = 0; f < frames; f++)
        printf(" %u,%u,%u", got[f][0], got[f][1], got[f][2]);
    printf("\n");
    glt_egl_close(&egl);
    return 0;
}
