/* A program whose window (default framebuffer) is multisampled: an EGL pbuffer config with
 * EGL_SAMPLES 4 (as GLFW_SAMPLES 4 asks of GLX). Each frame clears and draws a few overlapping
 * triangles with depth testing, so their edges hold partly covered pixels that only a 4x resolve
 * gives; the swap resolves. EGL surfaceless, GL 3.3 core. Usage: msaa_window FRAMES; prints a
 * checksum of the last frame. */
#include <stdio.h>
#include <stdlib.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

#define W 64
#define H 48

static const char *vs_src =
    "#version 330 core\n"
    "uniform float t;\n"
    "uniform int k;\n"
    "out vec3 col;\n"
    "void main() {\n"
    "    float a = t * (1.0 + 0.3 * float(k)) + float(gl_VertexID) * 2.0944 + float(k);\n"
    "    float r = 0.9 - 0.2 * float(k);\n"
    "    gl_Position = vec4(r * cos(a) + 0.1 * float(k), r * sin(a) * 1.2, 0.2 * float(k) - 0.3 + 0.4 * sin(a), 1.0);\n"
    "    col = vec3(float(gl_VertexID == 0), float(gl_VertexID == 1) * 0.8 + 0.1 * float(k), float(gl_VertexID == 2));\n"
    "}\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec3 col;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(col, 1.0); }\n";

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "msaa_window: shader compile failed\n");
        exit(1);
    }
    return s;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 4;
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!dpy || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "msaa_window: no EGL surfaceless display\n");
        return 1;
    }
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_STENCIL_SIZE, 8,
                                EGL_SAMPLE_BUFFERS, 1, EGL_SAMPLES, 4, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) {
        fprintf(stderr, "msaa_window: no 4x RGBA8 pbuffer config\n");
        return 1;
    }
    const EGLint pb[] = { EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb);
    const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (!surf || !ctx || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "msaa_window: no GL 3.3 core context on a 4x pbuffer\n");
        return 1;
    }
    GLint samples = 0;
    glGetIntegerv(GL_SAMPLES, &samples);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    glUseProgram(prog);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glEnable(GL_DEPTH_TEST);
    glViewport(0, 0, W, H);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.15f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glUniform1f(glGetUniformLocation(prog, "t"), 0.4f * (float)f);
        for (int k = 0; k < 3; k++) {
            glUniform1i(glGetUniformLocation(prog, "k"), k);
            glDrawArrays(GL_TRIANGLES, 0, 3);
        }
        if (f == frames - 1) {
            static unsigned char px[W * H * 4];
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
            for (size_t i = 0; i < sizeof px; i++)
                checksum = checksum * 31 + px[i];
        }
        eglSwapBuffers(dpy, surf);
    }
    printf("msaa_window: %d frames, %d samples, checksum %lu, error 0x%x\n", frames, samples, checksum, glGetError());
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
