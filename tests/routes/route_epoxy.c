/* Loader route (b): libepoxy. Epoxy dlopen()s libGL.so.1 and resolves core functions with dlsym and
 * the rest with glXGetProcAddressARB; this program calls GLX and GL only through epoxy. */
#include <epoxy/gl.h>
#include <epoxy/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>

#include "route_report.h"

#define ROUTE "epoxy"
#define FRAMES 4u
#define W 64
#define H 48

static bool frame(unsigned index)
{
    const unsigned char want[4] = { (unsigned char)(10 + 50 * index), 90, (unsigned char)(250 - 40 * index), 255 };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    return route_pixel_is(ROUTE, got, want);
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "route " ROUTE ": cannot open the X display\n");
        return route_finish(ROUTE, 0, false);
    }
    static const int attribs[] = { GLX_X_RENDERABLE, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT,
                                   GLX_RENDER_TYPE, GLX_RGBA_BIT, GLX_DOUBLEBUFFER, True,
                                   GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None };
    int n = 0;
    GLXFBConfig *configs = glXChooseFBConfig(dpy, DefaultScreen(dpy), attribs, &n);
    if (!configs || n < 1) {
        fprintf(stderr, "route " ROUTE ": no GLX framebuffer config\n");
        return route_finish(ROUTE, 0, false);
    }
    GLXFBConfig cfg = configs[0];
    XFree(configs);
    XVisualInfo *vi = glXGetVisualFromFBConfig(dpy, cfg);
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone) };
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    XFree(vi);
    GLXContext ctx = glXCreateNewContext(dpy, cfg, GLX_RGBA_TYPE, NULL, True);
    bool ok = ctx && glXMakeCurrent(dpy, win, ctx);
    ok = ok && glGetString(GL_VERSION) != NULL;
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = frame(i);
        glXSwapBuffers(dpy, win);
    }
    glXMakeCurrent(dpy, None, NULL);
    if (ctx)
        glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XCloseDisplay(dpy);
    route_expect_call("glClear", FRAMES);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glXCreateNewContext", 1);
    route_expect_call("glXSwapBuffers", FRAMES);
    route_expect("frames", FRAMES);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
