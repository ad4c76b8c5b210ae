/* A program whose frames end with a framebuffer object still bound for drawing (an offscreen
 * renderer): each frame draws into two colour attachments at once (a texture and a renderbuffer),
 * then swaps without binding framebuffer 0. Its output is in the attachments, so glreplay keeps them
 * as reference images. It reads attachment 1 through its own read-buffer setting after each swap,
 * so a capture that changed the read state would change its checksum. EGL surfaceless, no X.
 * Usage: fbo_output FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

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


int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "fbo_output", 64, 48, 0, 3, 3, 1) != 0)
        return 1;

    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("fbo_output", GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, glt_shader("fbo_output", GL_FRAGMENT_SHADER, fs_src));
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
        eglSwapBuffers(egl.dpy, egl.surf); /* the framebuffer object stays bound */
        unsigned char px[4];
        glReadPixels(60, 40, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = checksum * 31 + px[0] + px[1] * 7u + px[2] * 13u;
    }
    printf("fbo_output: %d frames, checksum %lu, error 0x%x\n", frames, checksum, glGetError());
    glt_egl_close(&egl);
    return 0;
}
