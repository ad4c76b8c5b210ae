/* A program that caches its GLSL program as a binary, as Qt 5 does: each frame it links a program
 * from source, reads its binary back (glGetProgramBinary) and creates a second program from that
 * binary with glProgramBinary, then draws with the second one. When the driver offers no binary
 * format or rejects the binary (GL_LINK_STATUS false, as under GLREPLAY_NO_PROGRAM_BINARY=1), it
 * links the second program from source instead, as a program with a stale cache does.
 * Usage: program_binary FRAMES. Prints how the program was made and a checksum of the pixels. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 64
#define H 48

static const char *vs_src =
    "#version 330 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "out vec2 v;\n"
    "void main() { v = pos; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec2 v;\n"
    "uniform float t;\n"
    "out vec4 c;\n"
    "void main() { c = vec4(fract(v.x * 2.0 + t), v.y * 0.5 + 0.5, 0.3, 1.0); }\n";

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 4;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "program_binary", W, H, 0, 3, 3, 1) != 0)
        return 1;
    static const float quad[] = { -0.9f, -0.9f, 0.8f, -0.7f, -0.6f, 0.9f };
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quad, quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    unsigned long checksum = 0;
    int loaded = 0;
    for (int f = 0; f < frames; f++) {
        GLuint src = glt_program("program_binary", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
        GLint formats = 0, len = 0, ok = 0;
        glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS, &formats);
        GLuint prog = glCreateProgram();
        if (formats > 0) {
            glGetProgramiv(src, GL_PROGRAM_BINARY_LENGTH, &len);
            void *bin = malloc(len > 0 ? (size_t)len : 1);
            GLenum fmt = 0;
            glGetProgramBinary(src, len, NULL, &fmt, bin);
            glProgramBinary(prog, fmt, bin, len);
            free(bin);
            glGetProgramiv(prog, GL_LINK_STATUS, &ok);
        }
        if (!ok) {
            glDeleteProgram(prog);
            prog = glt_program("program_binary", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
        } else {
            loaded++;
        }
        glDeleteProgram(src);
        if (glGetError() != GL_NO_ERROR) {
            fprintf(stderr, "program_binary: a GL error\n");
            return 1;
        }
        glClearColor(0.1f, 0.1f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(prog);
        glUniform1f(glGetUniformLocation(prog, "t"), 0.1f * (float)f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        static unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
        glUseProgram(0);
        glDeleteProgram(prog);
    }
    printf("program_binary: %d frames, checksum %lu\n", frames, checksum);
    fprintf(stderr, "program_binary: %d of %d programs loaded from a binary\n", loaded, frames);
    glt_egl_close(&egl);
    return 0;
}
