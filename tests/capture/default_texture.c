/* A GL 1.0-style program (compatibility context, EGL surfaceless): its texture lives in texture
 * name 0 (the 2D target's default texture; glTexImage2D with internal format 3 and no
 * glGenTextures), defined once at start-up, then every frame draws glBegin/glEnd quads sampling
 * it, as xscreensaver's atlantis does. A capture of a later frame must keep the default texture's
 * image (the snapshot), and a replay with --gl-errors must find no error in the glBegin/glEnd
 * pairs. Usage: default_texture FRAMES. Prints a checksum of read-back pixels. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 64
#define H 48

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 4;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "default_texture", W, H, 0, 0, 0, 0) != 0)
        return 1;
    static unsigned char img[16 * 16 * 3];
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            unsigned char *p = &img[(y * 16 + x) * 3];
            p[0] = (unsigned char)(x * 16);
            p[1] = (unsigned char)(y * 16);
            p[2] = (unsigned char)((x ^ y) & 1 ? 220 : 40);
        }
    glTexImage2D(GL_TEXTURE_2D, 0, 3, 16, 16, 0, GL_RGB, GL_UNSIGNED_BYTE, img);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glEnable(GL_TEXTURE_2D);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.2f, 0.3f, 1);
        glClear(GL_COLOR_BUFFER_BIT);
        float o = 0.1f * (float)f;
        glBegin(GL_QUADS);
        glColor3f(1, 0.8f, 0.6f);
        glTexCoord2f(0, 0);
        glVertex2f(-0.9f + o, -0.9f);
        glTexCoord2f(1, 0);
        glVertex2f(0.7f + o, -0.9f);
        glTexCoord2f(1, 1);
        glVertex2f(0.7f + o, 0.8f);
        glTexCoord2f(0, 1);
        glVertex2f(-0.9f + o, 0.8f);
        glEnd();
        static unsigned char px[W * H * 4];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        for (int i = 0; i < W * H * 4; i++)
            checksum = checksum * 31 + px[i];
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("default_texture: %d frames, checksum %lu\n", frames, checksum % 1000000007ul);
    glt_egl_close(&egl);
    return 0;
}
