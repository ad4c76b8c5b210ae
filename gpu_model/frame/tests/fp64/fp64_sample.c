/* fp64_sample: double vertex attributes and flat double varyings for the GPU model's e2e test
 * (`glreplay model --compare` must agree with llvmpipe draw by draw, with no draw noting a
 * 64-bit attribute). EGL surfaceless pbuffer, GL 4.5 core, no X server. Each frame:
 *  1. a dvec4 attribute from a buffer (glVertexAttribLPointer) passed on as a flat dvec3 and a
 *     flat double (the dvec3 takes two locations, so the double sits after them) and a flat
 *     dmat2; the FS does double math whose result float math would lose (fract of a large
 *     scaled value);
 *  2. the same program fed through a DSA vertex array (glVertexArrayAttribLFormat at a
 *     relative offset), instanced with a divisor on the doubles. (An L array of fewer than
 *     4 components feeding a dvec4 leaves the rest undefined: llvmpipe reads on in memory.)
 *  3. the double attribute disabled: its current value (glVertexAttribL4d) feeds every vertex.
 * Usage: fp64_sample [--frames N] [--size WxH] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../../../tests/support/gl_test_util.h"

static const char *vs_src =
    "#version 450 core\n"
    "layout(location = 0) in vec2 pos;\n"
    "layout(location = 1) in dvec4 dv;\n"
    "layout(location = 0) flat out dvec3 dcol;\n"
    "layout(location = 2) flat out double dw;\n"
    "layout(location = 3) flat out dmat2 dm;\n"
    "uniform vec2 shift;\n"
    "void main() {\n"
    "  gl_Position = vec4(pos + shift * float(gl_InstanceID), 0.0, 1.0);\n"
    "  dcol = dv.xyz * 1.0000001LF;\n"
    "  dw = dv.w + dv.x * 1.0e-9LF;\n"
    "  dm = dmat2(dv.x, dv.y, dv.z, dv.w);\n"
    "}\n";

static const char *fs_src =
    "#version 450 core\n"
    "layout(location = 0) flat in dvec3 dcol;\n"
    "layout(location = 2) flat in double dw;\n"
    "layout(location = 3) flat in dmat2 dm;\n"
    "out vec4 o;\n"
    "void main() {\n"
    "  double t = dcol.x * 1.0e7LF + dw;\n"
    "  dvec3 f = fract(dcol * 1.0e6LF + dvec3(dw));\n"
    "  double det = determinant(dm);\n"
    "  o = vec4(vec3(f), float(fract(t)) * 0.5 + float(clamp(det, -1.0LF, 1.0LF)) * 0.25 + 0.25);\n"
    "}\n";

int main(int argc, char **argv)
{
    int frames = 1, width = 96, height = 64;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc) {
            frames = atoi(argv[++i]);
        } else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &width, &height) != 2 || width <= 0 || height <= 0) {
                fprintf(stderr, "fp64_sample: bad --size\n");
                return 2;
            }
        } else {
            fprintf(stderr, "usage: fp64_sample [--frames N] [--size WxH]\n");
            return 2;
        }
    }
    struct glt_egl egl;
    if (glt_egl_open(&egl, "fp64_sample", width, height, 0, 4, 5, 1) != 0)
        return 1;
    GLuint prog = glt_program("fp64_sample", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    GLint shift = glGetUniformLocation(prog, "shift");
    static const float pos[] = { -0.9f, -0.9f, 0.9f, -0.9f, -0.9f, 0.9f,
                                 0.9f, -0.9f, 0.9f, 0.9f, -0.9f, 0.9f };
    /* Values whose low bits matter: x * 1e6 keeps digits float would round away. */
    static const double dv[] = { 0.123456789012, 0.5000001234567, 0.9876543210987, 0.25,
                                 0.3333333333333, 0.6666666666667, 0.1428571428571, -0.5,
                                 0.7071067811865, 0.5772156649015, 0.3010299956640, 0.75,
                                 0.2718281828459, 0.3141592653590, 0.1618033988750, 0.125,
                                 0.4142135623731, 0.1732050807569, 0.2236067977500, 0.875,
                                 0.6931471805599, 0.1098612288668, 0.2302585092994, -0.25 };
    GLuint bufs[2];
    glGenBuffers(2, bufs);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glBufferData(GL_ARRAY_BUFFER, sizeof pos, pos, GL_STATIC_DRAW);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
    glBufferData(GL_ARRAY_BUFFER, sizeof dv, dv, GL_STATIC_DRAW);
    /* VAO 1: classic pointers */
    GLuint vao[2];
    glGenVertexArrays(1, &vao[0]);
    glBindVertexArray(vao[0]);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[0]);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, bufs[1]);
    glVertexAttribLPointer(1, 4, GL_DOUBLE, 0, NULL);
    glEnableVertexAttribArray(1);
    /* VAO 2: DSA formats, one double into the rows (the last instance reads the next row's x) */
    glCreateVertexArrays(1, &vao[1]);
    glVertexArrayVertexBuffer(vao[1], 0, bufs[0], 0, 2 * sizeof(float));
    glVertexArrayAttribFormat(vao[1], 0, 2, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao[1], 0, 0);
    glEnableVertexArrayAttrib(vao[1], 0);
    glVertexArrayVertexBuffer(vao[1], 1, bufs[1], 4 * sizeof(double), 4 * sizeof(double));
    glVertexArrayAttribLFormat(vao[1], 1, 4, GL_DOUBLE, sizeof(double));
    glVertexArrayAttribBinding(vao[1], 1, 1);
    glVertexArrayBindingDivisor(vao[1], 1, 1);
    glEnableVertexArrayAttrib(vao[1], 1);
    glViewport(0, 0, width, height);
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.1f, 0.2f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUseProgram(prog);
        glUniform2f(shift, 0.0f, 0.0f);
        glBindVertexArray(vao[0]);
        glDrawArrays(GL_TRIANGLES, 0, 6);
        glBindVertexArray(vao[1]);
        glViewport(0, 0, width / 2, height / 2);
        glUniform2f(shift, 0.3f, 0.2f);
        glDrawArraysInstanced(GL_TRIANGLES, 0, 3, 3);
        glBindVertexArray(vao[0]);
        glDisableVertexAttribArray(1);
        glVertexAttribL4d(1, 0.1234567890123 + 0.01 * f, 0.9876543210123, 0.55555555555, 0.375);
        glViewport(width / 2, height / 2, width / 2, height / 2);
        glUniform2f(shift, 0.0f, 0.0f);
        glDrawArrays(GL_TRIANGLES, 3, 3);
        glEnableVertexAttribArray(1);
        glViewport(0, 0, width, height);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    glt_egl_close(&egl);
    return 0;
}
