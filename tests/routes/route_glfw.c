/* Loader route (a): GLFW. GL functions come from glfwGetProcAddress (GLFW dlopen()s libGL.so.1
 * and asks glXGetProcAddressARB), swaps go through GLFW's dlsym'd glXSwapBuffers. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdio.h>

#include "route_gl.h"
#include "route_report.h"

#define ROUTE "glfw"
#define FRAMES 3u
#define W 64
#define H 48

static route_proc get_glfw(const char *name, void *user)
{
    (void)user;
    return (route_proc)glfwGetProcAddress(name);
}

static void on_error(int code, const char *what)
{
    fprintf(stderr, "route " ROUTE ": GLFW error %d: %s\n", code, what);
}

int main(void)
{
    glfwSetErrorCallback(on_error);
    if (!glfwInit())
        return route_finish(ROUTE, 0, false);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    GLFWwindow *win = glfwCreateWindow(W, H, "route glfw", NULL, NULL);
    if (!win) {
        glfwTerminate();
        return route_finish(ROUTE, 0, false);
    }
    glfwMakeContextCurrent(win);
    struct route_gl gl;
    bool ok = route_gl_load(&gl, ROUTE, get_glfw, NULL) && route_gl_is_real(&gl, ROUTE);
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = route_gl_frame(&gl, ROUTE, i, W, H);
        glfwSwapBuffers(win);
    }
    glfwDestroyWindow(win);
    glfwTerminate();
    /* GLFW 3.3 clears and swaps once itself when it creates a double-buffered window. */
    route_expect_call("glClear", FRAMES + 1);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glXSwapBuffers", FRAMES + 1);
    route_expect("frames", FRAMES + 1);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
