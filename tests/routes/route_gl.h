/* The few GL functions a route program draws with, resolved through the route under test.
 * Declared here with plain C types so that no program links libGL/libOpenGL by accident: every
 * pointer comes from the loader the program exercises. */
#ifndef ROUTE_GL_H
#define ROUTE_GL_H

#include <stdbool.h>

typedef void (*route_proc)(void);
/* Looks up one GL function by name; `user` is passed through. */
typedef route_proc (*route_getproc)(const char *name, void *user);

struct route_gl {
    void (*ClearColor)(float r, float g, float b, float a);
    void (*Clear)(unsigned mask);
    void (*ReadPixels)(int x, int y, int w, int h, unsigned format, unsigned type, void *pixels);
    const unsigned char *(*GetString)(unsigned name);
    void (*Finish)(void);
};

/* Resolves every member through `get`; prints which one is missing and returns false if any is. */
bool route_gl_load(struct route_gl *gl, const char *route, route_getproc get, void *user);

/* Checks that the context is a real driver context (GL_VERSION and GL_RENDERER are non-empty).
 * Calls glGetString twice. */
bool route_gl_is_real(const struct route_gl *gl, const char *route);

/* One frame: clears the bound framebuffer (w x h) to the colour of frame `index` and reads its
 * centre back: one glClearColor, one glClear, one glReadPixels. True when the pixel matches. */
bool route_gl_frame(const struct route_gl *gl, const char *route, unsigned index, int w, int h);

#endif
