/* glMultiDrawArrays / glMultiDrawElements / glMultiDrawElementsBaseVertex through a GLSL 1.10
 * program (EGL surfaceless, compatibility context), over client-memory vertex arrays (whose bytes
 * change every frame, so only data recorded at each draw replays right) and over buffers; the
 * element forms with indices in a buffer and, last, in client memory.
 * Usage: multi_draw FRAMES. Prints a checksum of read-back pixels. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 110\n"
    "attribute vec2 pos;\n"
    "attribute vec4 col;\n"
    "varying vec4 v_col;\n"
    "void main() { v_col = col; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 110\n"
    "varying vec4 v_col;\n"
    "void main() { gl_FragColor = v_col; }\n";

#define N 24   /* vertices: 8 triangles in a row, three rows drawn by different commands */

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 5;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "multi_draw", 96, 64, 24, 0, 0, 0) != 0)
        return 1;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, glt_shader("multi_draw", GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, glt_shader("multi_draw", GL_FRAGMENT_SHADER, fs_src));
    glBindAttribLocation(prog, 0, "pos");
    glBindAttribLocation(prog, 1, "col");
    glLinkProgram(prog);
    glUseProgram(prog);

    static float pos[N][2];
    static unsigned char col[N][4];
    static const GLushort idx[12] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
    GLuint vbo[3];
    glGenBuffers(3, vbo);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, vbo[0]);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, sizeof idx, idx, GL_STATIC_DRAW);

    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        for (int i = 0; i < N; i++) {
            int tri = i / 3, k = i % 3;
            pos[i][0] = -0.95f + 0.24f * (float)tri + (k == 1 ? 0.2f : 0.0f) + 0.01f * (float)f;
            pos[i][1] = (k == 2 ? 0.3f : 0.0f) - 0.1f;
            col[i][0] = (unsigned char)(30 * tri + 10 * f);
            col[i][1] = (unsigned char)(80 * k);
            col[i][2] = (unsigned char)(255 - 20 * tri);
            col[i][3] = 255;
        }
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        /* client memory */
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, pos);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, col);
        glEnableVertexAttribArray(0);
        glEnableVertexAttribArray(1);
        const GLint firsts[3] = { 3, 9, 18 };
        const GLsizei counts[3] = { 3, 6, 3 };
        glMultiDrawArrays(GL_TRIANGLES, firsts, counts, 3);   /* row at y -0.1 */
        /* same pointers, moved down: elements from the element buffer */
        for (int i = 0; i < N; i++)
            pos[i][1] -= 0.45f;
        const GLsizei ecounts[2] = { 3, 6 };
        const void *eoffs[2] = { (const void *)(uintptr_t)0, (const void *)(uintptr_t)(6 * sizeof(GLushort)) };
        glMultiDrawElements(GL_TRIANGLES, ecounts, GL_UNSIGNED_SHORT, eoffs, 2);
        const GLint bases[2] = { 12, 3 };
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, ecounts, GL_UNSIGNED_SHORT, eoffs, 2, bases);
        /* buffers: moved up */
        for (int i = 0; i < N; i++)
            pos[i][1] += 0.9f;
        glBindBuffer(GL_ARRAY_BUFFER, vbo[1]);
        glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STREAM_DRAW);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, (const void *)0);
        glBindBuffer(GL_ARRAY_BUFFER, vbo[2]);
        glBufferData(GL_ARRAY_BUFFER, sizeof col, col, GL_STREAM_DRAW);
        glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, 0, (const void *)0);
        glMultiDrawArrays(GL_TRIANGLES, firsts, counts, 3);
        glMultiDrawElementsBaseVertex(GL_TRIANGLES, ecounts, GL_UNSIGNED_SHORT, eoffs, 2, bases);
        /* indices in client memory (no element buffer) */
        if (argc > 2 && !strcmp(argv[2], "client-indices")) {
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, 0);
            const void *cidx[2] = { idx, idx + 6 };
            glMultiDrawElements(GL_TRIANGLES, ecounts, GL_UNSIGNED_SHORT, cidx, 2);
            glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, vbo[0]);
        }
        unsigned char px[96 * 64 * 4];
        glReadPixels(0, 0, 96, 64, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("multi_draw: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
