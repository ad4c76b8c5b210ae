/* A program whose frames end with a framebuffer object still bound for drawing (an offscreen
 * renderer): each frame draws into two colour attachments at once (a texture and a renderbuffer),
 * then swaps without binding framebuffer 0. Its output is in the attachments, so glreplay keeps them
 * as reference images. It reads attachment 1 through its own read-buffer setting after each swap,
 * so a capture that changed the read state would change its checksum. EGL surfaceless, no X.
 * Usage: fbo_output FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "uniform float t;\n"
    "out vec2 uv;\n"
    "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos * (0.6 + 0.3 * t), 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec2 uv;\n"
    "uniform float t;\n"
    "layout(location = 0) out vec4 c0;\n"
    "layout(location = 1) out vec4 c1;\n"
    "void main() { c0 = vec4(uv, t, 1.0); c1 = vec4(1.0 - uv.x, t * uv.y, 0.5, 1.0); }\n";

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "shader compile failed\n");
        exit(1);
    }
    return s;
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (!dpy || !eglInitialize(dpy, NULL, NULL) || !eglBindAPI(EGL_OPENGL_API))
        return 1;
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1)
        return 1;
    const EGLint pb[] = { EGL_WIDTH, 64, EGL_HEIGHT, 48, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb);
    const EGLint cattr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, cattr);
    if (!surf || !ctx || !eglMakeCurrent(dpy, surf, surf, ctx))
        return 1;

    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    GLint t_loc = glGetUniformLocation(prog, "t");
    const float quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    /* 100x70 texture (not the window's size) and a 100x70 renderbuffer. */
    GLuint tex, rb, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 100, 70, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glBindTexture(GL_TEXTURE_2D, 0);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 100, 70);
    glBindRenderbuffer(GL_RENDERBUFFER, 0);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT1, GL_RENDERBUFFER, rb);
    const GLenum bufs[2] = { GL_COLOR_ATTACHMENT0, GL_COLOR_ATTACHMENT1 };
    glDrawBuffers(2, bufs);
    glReadBuffer(GL_COLOR_ATTACHMENT1);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        return 1;
    glUseProgram(prog);
    glViewport(0, 0, 100, 70);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClearColor(0.2f, 0.0f, 0.1f * (float)f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform1f(t_loc, (float)f / (float)frames);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        eglSwapBuffers(dpy, surf); /* the framebuffer object stays bound */
        unsigned char px[4];
        glReadPixels(60, 40, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = checksum * 31 + px[0] + px[1] * 7u + px[2] * 13u;
    }
    printf("fbo_output: %d frames, checksum %lu, error 0x%x\n", frames, checksum, glGetError());
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
