/* Pixel transfer state around pixel rectangles (EGL surfaceless, compatibility context), into an
 * FBO with a colour texture and a depth-stencil renderbuffer, every frame:
 * glDrawPixels(GL_STENCIL_INDEX) with GL_INDEX_SHIFT, GL_INDEX_OFFSET and GL_MAP_STENCIL on (Mesa
 * 22.3's llvmpipe writes the indices unchanged), quads through stencil tests that show the
 * values, an RGBA glDrawPixels under scale and bias at 2x zoom, a glCopyPixels of it, and a
 * texture uploaded (whole, then a sub-image) under scale and bias drawn on a quad.
 * Usage: pixel_stencil FRAMES. Prints a checksum of read-back colour and stencil. */
#include <stdio.h>
#include <stdlib.h>
#include "../support/gl_test_util.h"

#define W 96
#define H 64

static void quad(float x0, float y0, float x1, float y1)
{
    glBegin(GL_QUADS);
    glTexCoord2f(0, 0); glVertex2f(x0, y0);
    glTexCoord2f(1, 0); glVertex2f(x1, y0);
    glTexCoord2f(1, 1); glVertex2f(x1, y1);
    glTexCoord2f(0, 1); glVertex2f(x0, y1);
    glEnd();
}

int main(int argc, char **argv)
{
    int frames = argc > 1 ? atoi(argv[1]) : 2;
    struct glt_egl egl;
    if (glt_egl_open(&egl, "pixel_stencil", W, H, 0, 0, 0, 0) != 0)
        return 1;
    GLuint tex, rb, fbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W, H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "pixel_stencil: framebuffer incomplete\n");
        return 1;
    }
    glViewport(0, 0, W, H);
    unsigned char stencil_img[32 * 16];
    for (int i = 0; i < 32 * 16; i++)
        stencil_img[i] = (unsigned char)(i % 5);
    const GLushort smap[4] = { 3, 9, 200, 77 };
    unsigned char img[12 * 8 * 4];
    for (int i = 0; i < 12 * 8; i++)
        for (int k = 0; k < 4; k++)
            img[i * 4 + k] = (unsigned char)((i * (k + 3) * 11 + k * 60) & 255);
    unsigned char timg[8 * 8 * 4];
    for (int i = 0; i < 8 * 8; i++) {
        timg[i * 4] = (unsigned char)(i * 4);
        timg[i * 4 + 1] = (unsigned char)(255 - i * 3);
        timg[i * 4 + 2] = (unsigned char)(i * 2);
        timg[i * 4 + 3] = (unsigned char)(128 + i);
    }
    GLuint utex;
    glGenTextures(1, &utex);
    unsigned long checksum = 0;
    for (int f = 0; f < frames; f++) {
        glClearColor(0.1f, 0.2f, 0.3f, 1.0f);
        glClearStencil(0);
        glClear(GL_COLOR_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
        glPixelMapusv(GL_PIXEL_MAP_S_TO_S, 4, smap);
        glPixelTransferi(GL_INDEX_SHIFT, 1);
        glPixelTransferi(GL_INDEX_OFFSET, 2 + f);
        glPixelTransferi(GL_MAP_STENCIL, GL_TRUE);
        glWindowPos2i(40, 30);
        glDrawPixels(32, 16, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, stencil_img);
        glPixelTransferi(GL_MAP_STENCIL, GL_FALSE);
        glPixelTransferi(GL_INDEX_SHIFT, 0);
        glPixelTransferi(GL_INDEX_OFFSET, 0);
        /* a colour per stencil value: 1 red, 2 green, 3 blue, 4 white (0 and others: clear) */
        glEnable(GL_STENCIL_TEST);
        glStencilOp(GL_KEEP, GL_KEEP, GL_KEEP);
        for (int v = 1; v <= 4; v++) {
            glStencilFunc(GL_EQUAL, v, 0xff);
            glColor3f(v == 1 || v == 4 ? 1.0f : 0.0f, v == 2 || v == 4 ? 1.0f : 0.0f, v >= 3 ? 1.0f : 0.0f);
            quad(-1.0f, -1.0f, 1.0f, 1.0f);
        }
        glDisable(GL_STENCIL_TEST);
        /* an RGBA image scaled and biased, at 2x zoom, and a copy of it */
        glPixelTransferf(GL_RED_SCALE, 0.75f);
        glPixelTransferf(GL_BLUE_BIAS, 0.1f * (float)(f + 1));
        glPixelZoom(2.0f, 2.0f);
        glWindowPos2i(2, 2);
        glDrawPixels(12, 8, GL_RGBA, GL_UNSIGNED_BYTE, img);
        glPixelZoom(1.0f, 1.0f);
        glPixelTransferf(GL_RED_SCALE, 1.0f);
        glWindowPos2i(2, 40);
        glCopyPixels(2, 2, 24, 16, GL_COLOR);
        glPixelTransferf(GL_BLUE_BIAS, 0.0f);
        /* a texture uploaded under a red scale and a blue bias, then a sub-image under an alpha
         * scale and bias (the state model keeps the first, the model uploads the second) */
        glBindTexture(GL_TEXTURE_2D, utex);
        glPixelTransferf(GL_RED_SCALE, 0.5f);
        glPixelTransferf(GL_BLUE_BIAS, 0.25f);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, timg);
        glPixelTransferf(GL_RED_SCALE, 1.0f);
        glPixelTransferf(GL_BLUE_BIAS, 0.0f);
        glPixelTransferf(GL_ALPHA_SCALE, 0.0f);
        glPixelTransferf(GL_ALPHA_BIAS, 1.0f);
        glTexSubImage2D(GL_TEXTURE_2D, 0, 2, 2, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, timg);
        glPixelTransferf(GL_ALPHA_SCALE, 1.0f);
        glPixelTransferf(GL_ALPHA_BIAS, 0.0f);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glEnable(GL_TEXTURE_2D);
        glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_REPLACE);
        quad(0.3f, -0.9f, 0.9f, -0.1f);
        glDisable(GL_TEXTURE_2D);
        unsigned char px[W * H * 4], st[W * H];
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
        glReadPixels(0, 0, W, H, GL_STENCIL_INDEX, GL_UNSIGNED_BYTE, st);
        for (size_t i = 0; i < sizeof px; i += 4)
            checksum = checksum * 31 + px[i] + px[i + 1] * 7u + px[i + 2] * 13u + px[i + 3] * 3u;
        for (size_t i = 0; i < sizeof st; i++)
            checksum = checksum * 31 + st[i];
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
        glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        eglSwapBuffers(egl.dpy, egl.surf);
    }
    printf("pixel_stencil: %d frames, checksum %lu\n", frames, checksum);
    glt_egl_close(&egl);
    return 0;
}
