/* Mesa keeps a classification of each legacy matrix (translation, rotation, scale, perspective,
 * "general") that glLoadIdentity does not reset and that picks the routine computing the matrix's
 * inverse. This program starts every frame with glLoadIdentity, glTranslatef and glRotatef, as
 * games do, and draws quads whose colour is the low bits of gl_ModelViewMatrixInverse's entries
 * (one entry per column, a different rotation per row), so a replay that restores the modelview
 * with another classification than the program's run had shows a different image.
 * Usage: matrix_history FRAMES. Prints a checksum of the last frame's pixels. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 330 compatibility\n"
    "out vec4 v_bits;\n"
    "uniform int u_col;\n"
    "void main() {\n"
    "    mat4 inv = gl_ModelViewMatrixInverse;\n"
    "    vec4 a = inv[u_col % 4];\n"
    "    uvec4 b = floatBitsToUint(a) & 255u;\n"
    "    v_bits = vec4(b) / 255.0;\n"
    "    gl_Position = gl_ProjectionMatrix * vec4(gl_Vertex.xy, 0.0, 1.0);\n"
    "}\n";
static const char *fs_src =
    "#version 330 compatibility\n"
    "in vec4 v_bits;\n"
    "out vec4 color;\n"
    "void main() { color = v_bits; }\n";

#define W 64
#define H 64

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 5;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "matrix_history", W, H, 0, 0, 0, 0) != 0)
        return 1;
    GLuint prog = glt_program("matrix_history", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    glUseProgram(prog);
    GLint u_col = glGetUniformLocation(prog, "u_col");
    glMatrixMode(GL_PROJECTION);
    glOrtho(0, 8, 0, 8, -1, 1);
    glMatrixMode(GL_MODELVIEW);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClear(GL_COLOR_BUFFER_BIT);
        for (int row = 0; row < 8; row++) {
            /* What a game does per object: the identity, then its placement. The quads' positions
             * do not use the modelview (the vertex shader takes gl_Vertex as is). */
            glLoadIdentity();
            glTranslatef(0.37f * (float)row, -1.3f, -5.5f - 0.1f * (float)f);
            glRotatef(17.0f + 23.7f * (float)row + 3.1f * (float)f, 0.3f, 0.8f, 0.5f);
            for (int col = 0; col < 8; col++) {
                glUniform1i(u_col, col);
                glRectf((float)col, (float)row, (float)col + 1.0f, (float)row + 1.0f);
            }
        }
        unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = 0;
        for (size_t i = 0; i < sizeof px; i++)
            checksum = checksum * 31 + px[i];
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("matrix_history: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
