/* Loader route (d): a glad 2 loader generated at build time (python3-glad, GL 3.3 core, its own
 * internal loader: gladLoaderLoadGL dlopen()s libGL.so.1 and uses glXGetProcAddressARB). GLFW only
 * makes the window and context; no GL pointer comes from GLFW. */
/* The generated header-only loader; this file holds its implementation. */
#define GLAD_GL_IMPLEMENTATION
#include "glad_gl.h"
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdio.h>

#include "route_report.h"

#define ROUTE "glad"
#define FRAMES 3u
#define W 64
#define H 48

static void on_error(int code, const char *what)
{
    fprintf(stderr, "route " ROUTE ": GLFW error %d: %s\n", code, what);
}

static bool frame(unsigned index)
{
    const unsigned char want[4] = { 200, (unsigned char)(30 + 60 * index), 120, 255 };
    glClearColor(want[0] / 255.0f, want[1] / 255.0f, want[2] / 255.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    unsigned char got[4] = { 0, 0, 0, 0 };
    glReadPixels(W / 2, H / 2, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, got);
    return route_pixel_is(ROUTE, got, want);
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
    GLFWwindow *win = glfwCreateWindow(W, H, "route glad", NULL, NULL);
    if (!win) {
        glfwTerminate();
        return route_finish(ROUTE, 0, false);
    }
    glfwMakeContextCurrent(win);
    int version = gladLoaderLoadGL();
    bool ok = version >= GLAD_MAKE_VERSION(3, 3);
    if (!ok)
        fprintf(stderr, "route " ROUTE ": gladLoaderLoadGL gave version %d.%d, expected 3.3+\n",
                GLAD_VERSION_MAJOR(version), GLAD_VERSION_MINOR(version));
    /* Two glad pointers must also differ from NULL for a GL 3.3 function. */
    ok = ok && glGenVertexArrays != NULL && glBindVertexArray != NULL;
    GLuint vao = 0;
    if (ok) {
        glGenVertexArrays(1, &vao);
        glBindVertexArray(vao);
        glBindVertexArray(0);
        glDeleteVertexArrays(1, &vao);
    }
    for (unsigned i = 0; ok && i < FRAMES; i++) {
        ok = frame(i);
        glfwSwapBuffers(win);
    }
    gladLoaderUnloadGL();
    glfwDestroyWindow(win);
    glfwTerminate();
    /* GLFW 3.3 clears and swaps once itself when it creates a double-buffered window. */
    route_expect_call("glClear", FRAMES + 1);
    route_expect_call("glClearColor", FRAMES);
    route_expect_call("glReadPixels", FRAMES);
    route_expect_call("glGenVertexArrays", 1);
    route_expect_call("glBindVertexArray", 2);
    route_expect_call("glDeleteVertexArrays", 1);
    route_expect("frames", FRAMES + 1);
    route_expect("contexts", 1);
    route_expect("alive", 0);
    route_expect("threads", 1);
    return route_finish(ROUTE, FRAMES, ok);
}
