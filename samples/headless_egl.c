/* headless_egl: an OpenGL 3.3 core program with no window system, the way offscreen renderers and
 * render servers run: EGL on Mesa's surfaceless platform, a pbuffer as its default framebuffer,
 * eglSwapBuffers ending each frame (a pbuffer's swap shows nothing, but it is the frame's end for
 * the program and for glreplay). One full-surface draw of an animated ring pattern (a loop in the
 * fragment shader), no vertex buffer (gl_VertexID). Needs no DISPLAY. Animation depends only on the
 * frame index. */
#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>

#include "common/gl_program.h"
#include "common/sample_args.h"
#include "common/sample_frame.h"
#include "common/sample_util.h"

#define NAME "headless_egl"

static const char shader_prefix[] =
    "#version 330 core\n"
    "#define OCTAVES 3\n";

typedef struct Headless {
    EGLDisplay dpy;
    EGLSurface surf;
    EGLContext ctx;
} Headless;

/* An exactly-RGBA8 pbuffer config for desktop GL: eglChooseConfig lists deeper ones (10-bit) first. */
static EGLConfig rgba8_pbuffer_config(EGLDisplay dpy)
{
    static const EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE,
                                  EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                  EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig configs[256];
    EGLint count = 0;
    if (!eglChooseConfig(dpy, want, configs, 256, &count))
        return NULL;
    for (EGLint i = 0; i < count; i++) {
        EGLint red = 0, alpha = 0;
        eglGetConfigAttrib(dpy, configs[i], EGL_RED_SIZE, &red);
        eglGetConfigAttrib(dpy, configs[i], EGL_ALPHA_SIZE, &alpha);
        if (red == 8 && alpha == 8)
            return configs[i];
    }
    return NULL;
}

static void headless_open(Headless *h, int width, int height)
{
    h->dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major = 0, minor = 0;
    if (h->dpy == EGL_NO_DISPLAY || !eglInitialize(h->dpy, &major, &minor))
        sample_fatal(NAME ": no EGL surfaceless display (Mesa's EGL_MESA_platform_surfaceless)");
    if (!eglBindAPI(EGL_OPENGL_API))
        sample_fatal(NAME ": EGL cannot bind desktop OpenGL");
    EGLConfig config = rgba8_pbuffer_config(h->dpy);
    if (!config)
        sample_fatal(NAME ": no RGBA8 pbuffer config for desktop OpenGL");
    const EGLint surface_attribs[] = {EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE};
    h->surf = eglCreatePbufferSurface(h->dpy, config, surface_attribs);
    static const EGLint context_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    h->ctx = eglCreateContext(h->dpy, config, EGL_NO_CONTEXT, context_attribs);
    if (h->surf == EGL_NO_SURFACE || h->ctx == EGL_NO_CONTEXT ||
        !eglMakeCurrent(h->dpy, h->surf, h->surf, h->ctx))
        sample_fatal(NAME ": pbuffer or GL 3.3 core context failed (EGL error 0x%x)",
                     (unsigned)eglGetError());
}

static void headless_close(Headless *h)
{
    eglMakeCurrent(h->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(h->dpy, h->ctx);
    eglDestroySurface(h->dpy, h->surf);
    eglTerminate(h->dpy);
}

int main(int argc, char **argv)
{
    SampleArgs args;
    sample_args_parse_or_exit(&args, NAME, argc, argv);
    Headless h;
    headless_open(&h, args.width, args.height);
    fprintf(stderr, "%s: GL_RENDERER=%s GL_VERSION=%s\n", NAME, (const char *)glGetString(GL_RENDERER),
            (const char *)glGetString(GL_VERSION));

    GlProgramDesc d = {.sample = NAME, .prefix = shader_prefix,
                       .vert_file = "screen.vert", .frag_file = "rings.frag"};
    GLuint prog = gl_program_build(&args, &d);
    GLint u_phase = gl_program_uniform(prog, "u_phase");
    GLint u_tint = gl_program_uniform(prog, "u_tint");
    GLuint vao = 0;
    glGenVertexArrays(1, &vao); /* a core context draws only with a vertex array bound */

    int frame = args.first_frame;
    for (; frame < args.frames; ++frame) {
        const float phase = (float)frame * 0.05f;
        glViewport(0, 0, args.width, args.height);
        glClearColor(0.0f, 0.0f, 0.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(prog);
        glUniform1f(u_phase, phase);
        glUniform3f(u_tint, 0.9f, 0.7f + 0.2f * sinf(phase), 1.0f);
        glBindVertexArray(vao);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glBindVertexArray(0);
        sample_frame_end(&args, NAME, frame, args.width, args.height);
        eglSwapBuffers(h.dpy, h.surf);
    }

    glDeleteVertexArrays(1, &vao);
    glDeleteProgram(prog);
    int status = sample_finish(NAME, frame);
    headless_close(&h);
    return status;
}
