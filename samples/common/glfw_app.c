/* See glfw_app.h. */
#include "glfw_app.h"

#include <stdio.h>

#include "sample_util.h"

static const char *app_name = "sample";

static void on_glfw_error(int code, const char *description)
{
    fprintf(stderr, "%s: GLFW error 0x%x: %s\n", app_name, code, description);
}

void glfw_app_init(const char *name)
{
    app_name = name;
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit())
        sample_fatal("%s: glfwInit failed (is DISPLAY set? run under xvfb-run)", name);
}

GLFWwindow *glfw_app_create_window(const char *name, int width, int height, GlfwAppApi api,
                                   GlfwAppWindowKind kind, GLFWwindow *share)
{
    const bool presented = kind == GLFW_APP_WINDOW_PRESENTED;
    glfwDefaultWindowHints();
    glfwWindowHint(GLFW_RESIZABLE, GLFW_FALSE);
    glfwWindowHint(GLFW_VISIBLE, presented ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_RED_BITS, 8);
    glfwWindowHint(GLFW_GREEN_BITS, 8);
    glfwWindowHint(GLFW_BLUE_BITS, 8);
    glfwWindowHint(GLFW_ALPHA_BITS, 8);
    glfwWindowHint(GLFW_DEPTH_BITS, 24);
    glfwWindowHint(GLFW_DOUBLEBUFFER, presented ? GLFW_TRUE : GLFW_FALSE);
    switch (api) {
    case GLFW_APP_GL33_CORE:
        glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_API);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
        glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
        glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
        break;
    case GLFW_APP_GLES30_EGL:
        glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
        glfwWindowHint(GLFW_CONTEXT_CREATION_API, GLFW_EGL_CONTEXT_API);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
        glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
        break;
    }
    GLFWwindow *win = glfwCreateWindow(width, height, name, NULL, share);
    if (!win)
        sample_fatal("%s: cannot create a %dx%d window with the requested context", name, width,
                     height);
    glfwMakeContextCurrent(win);
    /* Never wait for vblank: frame pacing must not depend on the display. */
    if (presented)
        glfwSwapInterval(0);
    return win;
}

void glfw_app_print_renderer(const char *name)
{
    fprintf(stderr, "%s: GL_RENDERER=%s GL_VERSION=%s\n", name,
            (const char *)glGetString(GL_RENDERER), (const char *)glGetString(GL_VERSION));
}
