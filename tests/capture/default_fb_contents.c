/* A program that draws over its window's last image without clearing it after frame 0 (UI over the
 * last frame, accumulation): each frame blends a triangle over the colour buffer, with a depth test
 * (LESS) and a stencil test that counts coverage (at most 2 layers) against what earlier frames
 * left. It does the same in a framebuffer of single-sample renderbuffers (RGBA8, depth24/stencil8),
 * blitted into the window's left half first. So a capture of a later frame replays (and models)
 * right only if the window's colour, depth and stencil and the renderbuffers' pixels are restored
 * from the snapshot (RESOURCE_BLOB kinds 1, 2 and 3). EGL surfaceless
 * pbuffer (RGBA8, depth 24, stencil 8), GL 3.3 core. Usage: default_fb_contents FRAMES; prints a
 * checksum of the last frame. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 48
#define H 40

static const char *vs_src =
    "#version 330 core\n"
    "uniform float t;\n"
    "out vec3 col;\n"
    "void main() {\n"
    "    float a = t + float(gl_VertexID) * 2.0944;\n"
    "    gl_Position = vec4(0.9 * cos(a) + 0.1 * sin(t * 3.0), 0.9 * sin(a), 0.7 * sin(a * 1.3 + t), 1.0);\n"
    "    col = vec3(fract(t * 0.31), float(gl_VertexID == 1), fract(t * 0.17 + float(gl_VertexID) * 0.4));\n"
    "}\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec3 col;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(col, 0.6); }\n";

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl e;
    e.dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!e.dpy || !eglInitialize(e.dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "default_fb_contents: no EGL surfaceless display\n");
        return 1;
    }
    /* The snapshot keeps the window's depth and stencil only with 24 + 8 bits. */
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
                                EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(e.dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, "default_fb_contents: no RGBA8 D24S8 pbuffer config\n");
        return 1;
    }
    const EGLint pb[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    e.surf = eglCreatePbufferSurface(e.dpy, cfg, pb);
    const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    e.ctx = eglCreateContext(e.dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (!e.surf || !e.ctx || !eglMakeCurrent(e.dpy, e.surf, e.surf, e.ctx)) {
        fprintf(stderr, "default_fb_contents: no GL 3.3 core context\n");
        return 1;
    }
    GLuint prog = glt_program("default_fb_contents", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glUseProgram(prog);
    /* The framebuffer of renderbuffers (half the window's width). */
    GLuint rb[2], fbo;
    glGenRenderbuffers(2, rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[0]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W / 2, H);
    glBindRenderbuffer(GL_RENDERBUFFER, rb[1]);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W / 2, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb[0]);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb[1]);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return 1;
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glEnable(GL_STENCIL_TEST);
    glStencilFunc(GL_GREATER, 2, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_INCR);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glUniform1f(glGetUniformLocation(prog, "t"), 0.7f * (float)f + 0.2f);
        for (int pass = 0; pass < 2; pass++) {   /* the renderbuffers, then the window */
            glBindFramebuffer(GL_FRAMEBUFFER, pass ? 0 : fbo);
            glViewport(0, 0, pass ? W : W / 2, H);
            if (f == 0) {
                glClearColor(0.1f, 0.2f + 0.3f * (float)pass, 0.3f, 1.0f);
                glClearDepth(1.0);
                glClearStencil(0);
                glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
            }
            if (pass) {
                glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
                glBlitFramebuffer(0, 0, W / 2, H, 0, 0, W / 2, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            }
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        if (f == frames - 1) {
            static unsigned char px[W * H * 4];
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
            for (size_t i = 0; i < sizeof px; i++)
                checksum = checksum * 31 + px[i];
        }
        eglSwapBuffers(e.dpy, e.surf);
    }
    printf("default_fb_contents: %d frames, checksum %lu, error 0x%x\n", frames, checksum, glGetError());
    glt_egl_close(&e);
    return 0;
}
