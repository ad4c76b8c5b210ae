/* A legacy program that sets its fixed-function matrices once, at start-up (glOrtho, glRotate,
 * a pushed modelview level, a texture matrix), and then draws every frame with ftransform() and
 * gl_TextureMatrix over client arrays: a capture of a later frame must carry those matrices in its initial state.
 * Compatibility context, EGL surfaceless, no X. Usage: legacy_matrices FRAMES */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

static const char *vs_src =
    "#version 110\n"
    "varying vec2 uv;\n"
    "void main() { uv = (gl_TextureMatrix[0] * gl_MultiTexCoord0).xy; gl_Position = ftransform(); }\n";
static const char *fs_src =
    "#version 110\n"
    "varying vec2 uv;\n"
    "uniform float t;\n"
    "void main() { gl_FragColor = vec4(fract(uv * 3.0), t, 1.0); }\n";

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 6;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "legacy_matrices", 80, 60, 0, 0, 0, 0) != 0)
        return 1;
    GLuint prog = glt_program("legacy_matrices", GL_VERTEX_SHADER, vs_src, GL_FRAGMENT_SHADER, fs_src);
    GLint t_loc = glGetUniformLocation(prog, "t");
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glOrtho(-2.0, 2.0, -1.5, 1.5, -1.0, 1.0);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();
    glRotatef(30.0f, 0.0f, 0.0f, 1.0f);
    glPushMatrix();
    glScalef(1.5f, 0.8f, 1.0f);
    glActiveTexture(GL_TEXTURE0);
    glMatrixMode(GL_TEXTURE);
    glLoadIdentity();
    glScalef(2.0f, 0.5f, 1.0f);
    glMatrixMode(GL_MODELVIEW);
    glUseProgram(prog);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.1f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glUniform1f(t_loc, (float)f / (float)frames);
        static const float pos[] = { -1.0f, -1.0f, 1.0f, -1.0f, 0.0f, 1.0f };
        static const float tc[] = { 0.0f, 0.0f, 1.0f, 0.0f, 0.5f, 1.0f };
        glEnableClientState(GL_VERTEX_ARRAY);
        glEnableClientState(GL_TEXTURE_COORD_ARRAY);
        glVertexPointer(2, GL_FLOAT, 0, pos);
        glTexCoordPointer(2, GL_FLOAT, 0, tc);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        unsigned char px[4];
        glReadPixels(40, 30, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
        checksum = checksum * 31 + px[0] + px[1] * 7u + px[2] * 13u;
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("legacy_matrices: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
