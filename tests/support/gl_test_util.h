/* Helpers shared by the small GL test programs (each is one executable, so this header is
 * self-contained): an EGL surfaceless pbuffer context and shader compilation that exits with the
 * driver's log. The programs use libepoxy for EGL and GL. */
#ifndef GLR_TESTS_GL_TEST_UTIL_H
#define GLR_TESTS_GL_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

struct glt_egl {
    EGLDisplay dpy;
    EGLSurface surf;
    EGLContext ctx;
};

/* A w x h RGBA8 pbuffer (with depth_bits of depth when > 0) on Mesa's surfaceless platform and a
 * desktop GL context made current on it: major.minor core when core, else a compatibility
 * context of the driver's default version (major/minor ignored). 0, or -1 (message printed). */
static inline int glt_egl_open(struct glt_egl *e, const char *who, int w, int h, int depth_bits, int major,
                               int minor, int core)
{
    e->dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!e->dpy || !eglInitialize(e->dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "%s: no EGL surfaceless display\n", who);
        return -1;
    }
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, depth_bits > 0 ? depth_bits : 0,
                                EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(e->dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, "%s: no RGBA8 pbuffer config\n", who);
        return -1;
    }
    const EGLint pb[] = { EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE };
    e->surf = eglCreatePbufferSurface(e->dpy, cfg, pb);
    const EGLint core_attr[] = { EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION, minor,
                                 EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    const EGLint compat_attr[] = { EGL_NONE };
    e->ctx = eglCreateContext(e->dpy, cfg, EGL_NO_CONTEXT, core ? core_attr : compat_attr);
    if (!e->surf || !e->ctx || !eglMakeCurrent(e->dpy, e->surf, e->surf, e->ctx)) {
        fprintf(stderr, "%s: no GL %s context\n", who, core ? "core" : "compatibility");
        return -1;
    }
    return 0;
}

static inline void glt_egl_close(struct glt_egl *e)
{
    eglMakeCurrent(e->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(e->dpy);
}

/* Compiles a shader; on failure prints the driver's log and exits 1. */
static inline GLuint glt_shader(const char *who, GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "%s: shader compile failed: %s\n", who, log);
        exit(1);
    }
    return s;
}

/* Links a program of one or two shaders (b may be NULL); exits 1 with the log on failure. */
static inline GLuint glt_program(const char *who, GLenum ta, const char *a, GLenum tb, const char *b)
{
    GLuint p = glCreateProgram();
    glAttachShader(p, glt_shader(who, ta, a));
    if (b)
        glAttachShader(p, glt_shader(who, tb, b));
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = "";
        glGetProgramInfoLog(p, sizeof log, NULL, log);
        fprintf(stderr, "%s: link failed: %s\n", who, log);
        exit(1);
    }
    return p;
}

#endif
