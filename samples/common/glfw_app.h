/* GLFW window/context creation shared by the GLFW-based samples. Includes GLFW without its GL
 * header: GL comes from libepoxy. */
#ifndef SAMPLES_GLFW_APP_H
#define SAMPLES_GLFW_APP_H

#include <epoxy/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <stdbool.h>

typedef enum GlfwAppApi {
    GLFW_APP_GL33_CORE,   /* desktop GL 3.3 core, forward-compatible, GLX */
    GLFW_APP_GLES30_EGL,  /* OpenGL ES 3.0 through EGL */
} GlfwAppApi;

/* Sets an error callback that prints to stderr, then glfwInit(); exits 1 on failure
 * (typically: no X display). */
void glfw_app_init(const char *name);

typedef enum GlfwAppWindowKind {
    /* Visible, double-buffered: the window the sample presents with glfwSwapBuffers. Note that
     * glfwCreateWindow itself clears and swaps such a window once (GLFW hides stale VRAM), so
     * that swap ends the shim's frame 0 and the sample's frame N is the shim's frame N + 1. */
    GLFW_APP_WINDOW_PRESENTED,
    /* Hidden and single-buffered: only a drawable for a worker context that renders to
     * textures. Never swapped, not even by GLFW at creation. */
    GLFW_APP_WINDOW_OFFSCREEN,
} GlfwAppWindowKind;

/* Creates a non-resizable window with an RGBA8 + depth24 default framebuffer and the requested
 * context (shared with `share` if not NULL), makes it current and sets swap interval 0.
 * Exits 1 on failure. */
GLFWwindow *glfw_app_create_window(const char *name, int width, int height, GlfwAppApi api,
                                   GlfwAppWindowKind kind, GLFWwindow *share);

/* Prints GL_RENDERER / GL_VERSION to stderr (they differ between drivers, so never stdout). */
void glfw_app_print_renderer(const char *name);

#endif
