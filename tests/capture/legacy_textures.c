/* A legacy GLX program for the snapshot tests (tests/capture/check_legacy_textures.py): textures of
 * GL 1.0 component counts (3, 4) and GL_RGB5 drawn with glBegin, as Chromium B.S.U. and Armagetron
 * make them; and one texture of a format the snapshot does not read back (GL_RGB10_A2UI, never
 * drawn), which the capture must report as lost. Renders 4 frames of 64x64 and exits. */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) return 1;
    int attr[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 8, GLX_GREEN_SIZE, 8, GLX_BLUE_SIZE, 8, None };
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attr);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, RootWindow(dpy, vi->screen), vi->visual, AllocNone) };
    Window win = XCreateWindow(dpy, RootWindow(dpy, vi->screen), 0, 0, 64, 64, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    XMapWindow(dpy, win);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    glXMakeCurrent(dpy, win, ctx);
    GLuint tex[3];
    glGenTextures(3, tex);
    GLint fmts[3] = { 3, 4, GL_RGB5 };
    unsigned char px[16 * 16 * 4];
    for (int t = 0; t < 3; t++) {
        for (int i = 0; i < 16 * 16 * 4; i++) px[i] = (unsigned char)(i * (7 + t * 13));
        glBindTexture(GL_TEXTURE_2D, tex[t]);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexImage2D(GL_TEXTURE_2D, 0, fmts[t], 16, 16, 0, t == 1 ? GL_RGBA : GL_RGB, GL_UNSIGNED_BYTE, px);
    }
    GLuint lost;
    glGenTextures(1, &lost);
    glBindTexture(GL_TEXTURE_2D, lost);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGB10_A2UI, 4, 4, 0, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, px);
    glEnable(GL_TEXTURE_2D);
    for (int f = 0; f < 4; f++) {
        glClear(GL_COLOR_BUFFER_BIT);
        for (int t = 0; t < 3; t++) {
            glBindTexture(GL_TEXTURE_2D, tex[t]);
            float x = -1.0f + t * 0.66f;
            glBegin(GL_QUADS);
            glTexCoord2f(0, 0); glVertex2f(x, -1);
            glTexCoord2f(1, 0); glVertex2f(x + 0.66f, -1);
            glTexCoord2f(1, 1); glVertex2f(x + 0.66f, 1);
            glTexCoord2f(0, 1); glVertex2f(x, 1);
            glEnd();
        }
        glXSwapBuffers(dpy, win);
    }
    glXMakeCurrent(dpy, None, NULL);
    glXDestroyContext(dpy, ctx);
    XCloseDisplay(dpy);
    return 0;
}
