/* A program that streams vertex data through a persistent, coherent buffer mapping (GL 4.4
 * glBufferStorage), as modern engines do: the buffer is mapped once at start-up and written every
 * frame without any unmap. EGL surfaceless with a pbuffer, so it needs no X server; each frame ends
 * with eglSwapBuffers (a frame boundary for glreplay). Usage: persistent_map FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 440 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "layout(location = 1) in vec3 col;\n"
    "out vec3 v_col;\n"
    "void main() { v_col = col; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 440 core\n"
    "in vec3 v_col;\n"
    "out vec4 frag;\n"
    "void main() { frag = vec4(v_col, 1.0); }\n";


int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 8;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "persistent_map", 96, 64, 0, 4, 4, 1) != 0)
        return 1;

    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("persistent_map", GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, glt_shader("persistent_map", GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    const GLsizeiptr size = 3 * 5 * sizeof(float);
    const GLbitfield flags = GL_MAP_WRITE_BIT | GL_MAP_PERSISTENT_BIT | GL_MAP_COHERENT_BIT;
    glBufferStorage(GL_ARRAY_BUFFER, size, NULL, flags);
    float *mapped = glMapBufferRange(GL_ARRAY_BUFFER, 0, size, flags);
    if (!mapped)
        return 1;
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 5 * sizeof(float), (void *)0);
    glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 5 * sizeof(float), (void *)(2 * sizeof(float)));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glUseProgram(prog);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glFinish(); /* the GPU is done with last frame's vertices before they are overwritten */
        float t = (float)f / 8.0f;
        const float v[15] = { -0.8f + 0.1f * t, -0.8f, 1.0f - t * 0.5f, 0.2f, t,
                              0.8f, -0.7f + 0.1f * t, 0.1f, 1.0f - t * 0.3f, 0.3f,
                              0.0f, 0.8f - 0.1f * t, t * 0.4f, 0.5f, 1.0f - t * 0.2f };
        memcpy(mapped, v, sizeof v); /* no unmap, no flush: coherent */
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        unsigned char px[4];
        glReadPixels(48, 32, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = checksum * 31 + px[0] + px[1] * 7u + px[2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("persistent_map: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
