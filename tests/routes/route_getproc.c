/* Loader route (g): what glXGetProcAddress(ARB) and eglGetProcAddress answer.
 *
 * - Names that are no registry command (glNotARealFunction, glXNotReal, eglNotReal) and a registry
 *   command llvmpipe lacks (glMulticastBarrierNV): under the shim the answer must be NULL (asked
 *   before any display is open and again with a context current). Without
 *   the shim GLVND makes a dispatch stub for any gl* name, so these answers differ by design and
 *   go to stderr as "shimcheck:" lines that the driver checks in the shim run only.
 * - Real extension functions (glBindFramebufferEXT, eglGetPlatformDisplayEXT): non-NULL in every
 *   run; under the shim the pointer must be the shim's entry point (dladdr names the shim, on
 *   stderr), the very pointer dlsym gives for the name in the global scope and through a handle
 *   of the GL library (one function, however the program looks it up; natively GLVND's answers
 *   may differ), and its calls must be counted (expect lines). */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>

#include "route_report.h"

#define ROUTE "getproc"
#define W 32
#define H 24
#define BIND_CALLS 3u

static const char *phase = "before-display";

static void report(const char *via, const char *name, const void *p)
{
    const char *where = "nowhere";
    Dl_info info;
    if (p && dladdr(p, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        where = slash ? slash + 1 : info.dli_fname;
    }
    fprintf(stderr, "shimcheck: %s: %s(%s) = %s in %s\n", phase, via, name, p ? "non-NULL" : "NULL", where);
}

/* Whether GetProcAddress's answer `p` is dlsym's for `name`, in the global scope and through a
 * handle of `library`. */
static void report_same(const char *via, const char *name, const void *p, const char *library)
{
    void *lib = dlopen(library, RTLD_LAZY);
    bool same = p && p == dlsym(RTLD_DEFAULT, name) && lib && p == dlsym(lib, name);
    fprintf(stderr, "shimcheck: %s: %s(%s) is dlsym's: %s\n", phase, via, name, same ? "yes" : "no");
    if (lib)
        dlclose(lib);
}

static const void *as_ptr(void (*f)(void))
{
    const void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}

/* Asks every GetProcAddress about names the shim must answer NULL for. */
static void lookup_absent_names(void)
{
    static const char *const gl_names[] = { "glNotARealFunction", "glXNotReal", "glMulticastBarrierNV" };
    for (size_t i = 0; i < sizeof gl_names / sizeof gl_names[0]; i++) {
        report("glXGetProcAddressARB", gl_names[i], as_ptr(glXGetProcAddressARB((const GLubyte *)gl_names[i])));
        report("glXGetProcAddress", gl_names[i], as_ptr(glXGetProcAddress((const GLubyte *)gl_names[i])));
    }
    static const char *const egl_names[] = { "eglNotReal", "glNotARealFunction" };
    for (size_t i = 0; i < sizeof egl_names / sizeof egl_names[0]; i++)
        report("eglGetProcAddress", egl_names[i], as_ptr(eglGetProcAddress(egl_names[i])));
}

int main(void)
{
    lookup_absent_names();

    /* A real GL extension function, called in a legacy (compatibility) GLX context. */
    PFNGLBINDFRAMEBUFFEREXTPROC bind_fb =
        (PFNGLBINDFRAMEBUFFEREXTPROC)glXGetProcAddressARB((const GLubyte *)"glBindFramebufferEXT");
    report("glXGetProcAddressARB", "glBindFramebufferEXT", as_ptr((void (*)(void))bind_fb));
    report_same("glXGetProcAddressARB", "glBindFramebufferEXT", as_ptr((void (*)(void))bind_fb), "libGL.so.1");
    printf("glBindFramebufferEXT: %s\n", bind_fb ? "found" : "missing");
    bool ok = bind_fb != NULL;

    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "route " ROUTE ": cannot open the X display\n");
        return route_finish(ROUTE, 0, false);
    }
    int attribs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None };
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attribs);
    if (!vi) {
        fprintf(stderr, "route " ROUTE ": glXChooseVisual found no visual\n");
        return route_finish(ROUTE, 0, false);
    }
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone) };
    Window win = XCreateWindow(dpy, root, 0, 0, W, H, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    XFree(vi);
    ok = ok && ctx && glXMakeCurrent(dpy, win, ctx);
    /* Again with the driver loaded and a context current: now "the driver lacks it" is knowable. */
    phase = "context-current";
    if (ok)
        lookup_absent_names();
    for (unsigned i = 0; ok && i < BIND_CALLS; i++)
        bind_fb(GL_FRAMEBUFFER_EXT, 0);
    ok = ok && glGetError() == GL_NO_ERROR;
    glXMakeCurrent(dpy, None, NULL);
    if (ctx)
        glXDestroyContext(dpy, ctx);
    XDestroyWindow(dpy, win);
    XFreeColormap(dpy, swa.colormap);
    XCloseDisplay(dpy);

    /* A real EGL extension function, used to open the surfaceless platform. */
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_platform_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    report("eglGetProcAddress", "eglGetPlatformDisplayEXT", as_ptr((void (*)(void))get_platform_display));
    report_same("eglGetProcAddress", "eglGetPlatformDisplayEXT", as_ptr((void (*)(void))get_platform_display),
                "libEGL.so.1");
    printf("eglGetPlatformDisplayEXT: %s\n", get_platform_display ? "found" : "missing");
    ok = ok && get_platform_display != NULL;
    if (ok) {
        EGLDisplay edpy = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
        EGLint major = 0, minor = 0;
        ok = edpy != EGL_NO_DISPLAY && eglInitialize(edpy, &major, &minor);
        if (!ok)
            fprintf(stderr, "route " ROUTE ": the surfaceless EGL display did not initialise\n");
        else
            eglTerminate(edpy);
    }
    route_expect_call("glBindFramebufferEXT", BIND_CALLS);
    route_expect_call("eglGetPlatformDisplayEXT", 1);
    route_expect_call("glXCreateContext", 1);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    route_expect("frames", 0);
    return route_finish(ROUTE, 0, ok);
}
