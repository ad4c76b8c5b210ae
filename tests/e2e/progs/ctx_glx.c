/* Context tracking under GLX: several contexts (three creation entry points), a share group,
 * three threads, and a context destroyed while it is current on another thread, which keeps
 * drawing with it until it releases it (GLX defers the destruction).
 *
 *   main: A (core 3.3) current on window 1, 2 frames; creates B (shares A), C (alone), D (legacy,
 *         shares A).
 *   t1:   B current on window 2, makes a texture, 2 frames, releases.
 *   main: the texture is visible in A (shared).
 *   t2:   C current on window 3, the texture is not visible (not shared); waits.
 *   main: destroys C while t2 has it current.
 *   t2:   2 more frames with C (must still work), releases: C really goes away.
 *   main: destroys B, D current on window 1 sees the texture, 1 frame, releases, destroys A.
 *         D is never destroyed.
 * Summary: contexts 4, alive 1 (D), threads 3, frames 4 (7 swaps; frames are counted on one drawable at a time). */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <pthread.h>
#include <stdio.h>

#include "route_report.h"
#include "step_sync.h"

#define W 40
#define H 30

static Display *dpy;
static GLXFBConfig cfg;
static Window win[3];
static GLXContext ctx_a, ctx_b, ctx_c, ctx_d;
static GLuint shared_tex;
static struct step_sync sync_steps = STEP_SYNC_INIT;
static bool ok = true;
static pthread_mutex_t ok_lock = PTHREAD_MUTEX_INITIALIZER;

static void expect_true(bool cond, const char *what)
{
    if (cond)
        return;
    fprintf(stderr, "ctx_glx: %s\n", what);
    pthread_mutex_lock(&ok_lock);
    ok = false;
    pthread_mutex_unlock(&ok_lock);
}

/* Clears window `w` to a colour of its own, checks the read-back pixel and swaps. */
static void frame(int w, unsigned index)
{
    const unsigned char want[4] = { (unsigned char)(40 + 70 * w), (unsigned char)(30 * index), 99, 255 };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    expect_true(route_pixel_is("ctx_glx", got, want), "wrong pixel");
    glXSwapBuffers(dpy, win[w]);
}

static void *thread_b(void *arg)
{
    (void)arg;
    expect_true(glXMakeCurrent(dpy, win[1], ctx_b), "t1: glXMakeCurrent(B) failed");
    glGenTextures(1, &shared_tex);
    glBindTexture(GL_TEXTURE_2D, shared_tex);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFinish();
    frame(1, 0);
    frame(1, 1);
    glXMakeCurrent(dpy, None, NULL);
    step_set(&sync_steps, 1);
    return NULL;
}

static void *thread_c(void *arg)
{
    (void)arg;
    step_wait(&sync_steps, 2);
    expect_true(glXMakeCurrent(dpy, win[2], ctx_c), "t2: glXMakeCurrent(C) failed");
    expect_true(!glIsTexture(shared_tex), "t2: a texture of another share group is visible in C");
    step_set(&sync_steps, 3);
    step_wait(&sync_steps, 4); /* main has destroyed C meanwhile */
    frame(2, 0);
    frame(2, 1);
    glXMakeCurrent(dpy, None, NULL);
    return NULL;
}

static GLXContext create_attribs(GLXContext share)
{
    typedef GLXContext (*create_fn)(Display *, GLXFBConfig, GLXContext, Bool, const int *);
    create_fn create = (create_fn)glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    static const int attribs[] = { GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 3,
                                   GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_CORE_PROFILE_BIT_ARB, None };
    return create ? create(dpy, cfg, share, True, attribs) : NULL;
}

int main(void)
{
    if (!XInitThreads() || !(dpy = XOpenDisplay(NULL))) {
        fprintf(stderr, "ctx_glx: cannot open the X display\n");
        return 1;
    }
    static const int fb_attribs[] = { GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                                      GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
                                      GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None };
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), fb_attribs, &n);
    if (!configs || n < 1) {
        fprintf(stderr, "ctx_glx: no framebuffer config\n");
        return 1;
    }
    cfg = configs[0];
    XFree(configs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, cfg);
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone) };
    for (int i = 0; i < 3; i++)
        win[i] = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);

    ctx_a = create_attribs(NULL);
    if (!ctx_a || !glXMakeCurrent(dpy, win[0], ctx_a)) {
        fprintf(stderr, "ctx_glx: cannot create or bind the first context\n");
        return 1;
    }
    frame(0, 0);
    frame(0, 1);
    ctx_b = create_attribs(ctx_a);
    ctx_c = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    ctx_d = glXCreateContext(dpy, vi, ctx_a, True);
    XFree(vi);
    if (!ctx_b || !ctx_c || !ctx_d) {
        fprintf(stderr, "ctx_glx: context creation failed\n");
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
    glXDestroyContext(dpy, ctx_c); /* current on t2 right now */
    step_set(&sync_steps, 4);
    pthread_join(t2, NULL);

    glXDestroyContext(dpy, ctx_b);
    expect_true(glXMakeCurrent(dpy, win[0], ctx_d), "main: glXMakeCurrent(D) failed");
    expect_true(glIsTexture(shared_tex), "main: B's texture is not visible in D (same share group)");
    frame(0, 2);
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx_a);
    /* D is deliberately left alive. */
    for (int i = 0; i < 3; i++)
        XDestroyWindow(dpy, win[i]);
    XFreeColormap(dpy, swa.colormap);
    XCloseDisplay(dpy);

    route_expect("contexts", 4);
    route_expect("alive", 1);
    route_expect("threads", 3);
    /* 7 swaps on 3 drawables, frames counted on one (shim/frame_window.c): drawable 0's two swaps
     * are frames 1-2; drawable 1 swaps twice in a row and takes over at its second (frame 3),
     * then drawable 2 likewise (frame 4); drawable 0's last swap is its first since: no frame. */
    route_expect("frames", 4);
    route_expect_call("glXSwapBuffers", 7);
    route_expect_call("glXCreateContextAttribsARB", 2);
    route_expect_call("glXCreateNewContext", 1);
    route_expect_call("glXCreateContext", 1);
    route_expect_call("glXDestroyContext", 3);
    route_expect_call("glClear", 7);
    route_expect_call("glIsTexture", 3);
    return route_finish("ctx_glx", 7, ok);
}
