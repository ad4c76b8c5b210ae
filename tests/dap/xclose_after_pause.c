/* xclose_after_pause: a GLX program that closes its X display without destroying its context,
 * right after a live debug session let it go (issue 14). It draws frames on a small window; the
 * first swap that returns more than PAUSE_MS after the previous one (the program was paused by a
 * live session, which has just ended) is followed at once by XCloseDisplay, the context left
 * undestroyed, as some programs do at exit. A replayed pass the session's end left finishing on a
 * thread of its own still uses that display: the shim must make it end first. The program then
 * lives on for a second (a pass still using the closed display would crash it meanwhile) and exits
 * 0, printing "closed the display after a pause of N ms". Exit 3: no pause within 120 s.
 *
 * usage: xclose_after_pause [PAUSE_MS]   (default 150). DISPLAY must be set. */
#include <GL/gl.h>
#include <GL/glx.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

int main(int argc, char **argv)
{
    double pause_ms = argc > 1 ? atof(argv[1]) : 150.0;
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "xclose_after_pause: cannot open the X display\n");
        return 2;
    }
    int attrs[] = { GLX_RGBA, GLX_DOUBLEBUFFER, GLX_DEPTH_SIZE, 16, None };
    XVisualInfo *vi = glXChooseVisual(dpy, DefaultScreen(dpy), attrs);
    if (!vi) {
        fprintf(stderr, "xclose_after_pause: no double-buffered RGBA visual\n");
        return 2;
    }
    Window root = RootWindow(dpy, vi->screen);
    XSetWindowAttributes swa = { .colormap = XCreateColormap(dpy, root, vi->visual, AllocNone) };
    Window win = XCreateWindow(dpy, root, 0, 0, 96, 96, 0, vi->depth, InputOutput, vi->visual, CWColormap, &swa);
    XMapWindow(dpy, win);
    GLXContext ctx = glXCreateContext(dpy, vi, NULL, True);
    XFree(vi);
    if (!ctx || !glXMakeCurrent(dpy, win, ctx)) {
        fprintf(stderr, "xclose_after_pause: cannot make a GLX context current\n");
        return 2;
    }
    double start = now_ms(), last = start;
    for (unsigned frame = 0; now_ms() - start < 120000.0; frame++) {
        float t = (float)(frame % 200) / 200.0f;
        glClearColor(t, 0.3f, 1.0f - t, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
        glBegin(GL_TRIANGLES);
        glColor3f(1, 1, 0);
        glVertex2f(-0.8f + t, -0.8f);
        glVertex2f(0.8f, -0.8f);
        glVertex2f(0.0f, 0.8f - t);
        glEnd();
        glXSwapBuffers(dpy, win);
        double now = now_ms();
        if (frame > 0 && now - last > pause_ms) {
            /* The context is neither released nor destroyed: only the display goes. */
            XCloseDisplay(dpy);
            usleep(1000000);
            printf("xclose_after_pause: closed the display after a pause of %.0f ms\n", now - last);
            fflush(stdout);
            return 0;
        }
        last = now;
        usleep(2000);
    }
    fprintf(stderr, "xclose_after_pause: no pause longer than %.0f ms within 120 s\n", pause_ms);
    return 3;
}
