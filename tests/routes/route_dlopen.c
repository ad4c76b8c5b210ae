/* Loader route (c): dlopen("libGL.so.1") + dlsym. GLX entry points and glClear come from dlsym on
 * the handle; the other GL functions from glXGetProcAddressARB found the same way. glClear is
 * also resolved through glXGetProcAddressARB and both pointers are called, so the summary must
 * count the calls of both. The program links neither libGL nor libX11's GLX. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>

#include "route_gl.h"
#include "route_report.h"

#define ROUTE "dlopen"
#define FRAMES 3u
#define W 64
#define H 48

/* GLX 1.0 entry points, with opaque types: this program does not include GL/glx.h. */
typedef XVisualInfo *(*choose_visual_fn)(Display *, int, int *);
typedef void *(*create_context_fn)(Display *, XVisualInfo *, void *, Bool);
typedef Bool (*make_current_fn)(Display *, Drawable, void *);
typedef void (*swap_buffers_fn)(Display *, Drawable);
typedef void (*destroy_context_fn)(Display *, void *);
typedef route_proc (*get_proc_address_fn)(const unsigned char *);

static void *libgl;
static get_proc_address_fn get_proc_address_arb;

static void *sym(const char *name)
{
    void *p = dlsym(libgl, name);
    if (!p)
        fprintf(stderr, "route " ROUTE ": dlsym(libGL.so.1, %s) failed\n", name);
    return p;
}

static route_proc get_gpa(const char *name, void *user)
{
    (void)user;
    return get_proc_address_arb((const unsigned char *)name);
}

int main(void)
{
    libgl = dlopen("libGL.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!libgl) {
        fprintf(stderr, "route " ROUTE ": dlopen(libGL.so.1): %s\n", dlerror());
        return route_finish(ROUTE, 0, false);
    }
    choose_visual_fn choose_visual;
    create_context_fn create_context;
    make_current_fn make_current;
    swap_buffers_fn swap_buffers;
    destroy_context_fn destroy_context;
    void (*clear_direct)(unsigned);
    void *p[7] = { sym("glXChooseVisual"), sym("glXCreateContext"), sym("glXMakeCurrent"), sym("glXSwapBuffers"),
                   sym("glXDestroyContext"), sym("glXGetProcAddressARB"), sym("glClear") };
    for (int i = 0; i < 7; i++)
        if (!p[i])
            return route_finish(ROUTE, 0, false);
    memcpy(&choose_visual, &p[0], sizeof p[0]);
    memcpy(&create_context, &p[1], sizeof p[1]);
    memcpy(&make_current, &p[2], sizeof p[2]);
    memcpy(&swap_buffers, &p[3], sizeof p[3]);
    memcpy(&destroy_context, &p[4], sizeof p[4]);
    memcpy(&get_proc_address_arb, &p[5], sizeof p[5]);
    memcpy(&clear_direct, &p[6], sizeof p[6]);

    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "route " ROUTE ": cannot open the X display\n");
        return route_finish(ROUTE, 0, false);
    }
    /* GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE.. (GL/glx.h values) */
    int attribs[] = { 4, 5, 8, 8, 9, 8, 10, 8, 0 };
    XVisualInfo *vi = choose_visual(dpy, DefaultScreen(dpy), attribs);
    if (!vi) {
        fprintf(stderr, "route " ROUTE ": glXChooseVisual found no visual\n");
        return route_finish(ROUTE, 0, false);
    }
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone) };
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    void *ctx = create_context(dpy, vi, NULL, True);
    XFree(vi);
    struct route_gl gl;
    bool ok = ctx && make_current(dpy, win, ctx);
    ok = ok && route_gl_load(&gl, ROUTE, get_gpa, NULL) && route_gl_is_real(&gl, ROUTE);
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = route_gl_frame(&gl, ROUTE, i, W, H);
        clear_direct(0x00004000u); /* the dlsym'd glClear: same colour again */
        swap_buffers(dpy, win);
    }
    make_current(dpy, None, NULL);
    if (ctx)
        destroy_context(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XCloseDisplay(dpy);
    dlclose(libgl);
    route_expect_call("glClear", 2 * FRAMES);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glGetString", 2);
    route_expect_call("glXCreateContext", 1);
    route_expect_call("glXMakeCurrent", 2);
    route_expect_call("glXSwapBuffers", FRAMES);
    route_expect_call("glXGetProcAddressARB", 5);
    route_expect("frames", FRAMES);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
