/* window_grab PID OUT.pam: reads what the X server shows in the top-level window of process PID
 * (XGetImage of the window, as a screenshot would) and writes it as a PAM P7 RGB_ALPHA file, rows
 * top-down, alpha 255 — the same layout as the samples' --dump-frames files. The replay-loop test
 * uses it to see the frames the loop swaps into the program's window while the program is paused.
 * Exit 0 written, 1 window not found or unreadable, 2 bad usage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/Xatom.h>

/* The window whose _NET_WM_PID (set by GLFW) is `pid`: window names are not unique when tests run
 * side by side. */
static Window find_by_pid(Display *dpy, Window w, Atom net_wm_pid, unsigned long pid)
{
    Atom type;
    int format;
    unsigned long nitems, after;
    unsigned char *prop = NULL;
    if (XGetWindowProperty(dpy, w, net_wm_pid, 0, 1, False, XA_CARDINAL, &type, &format, &nitems, &after, &prop) ==
            Success && prop) {
        int match = type == XA_CARDINAL && format == 32 && nitems == 1 && *(unsigned long *)(void *)prop == pid;
        XFree(prop);
        XWindowAttributes at;
        /* Only a shown window (a program may have hidden ones, e.g. shared_threads' worker). */
        match = match && XGetWindowAttributes(dpy, w, &at) && at.map_state == IsViewable;
        if (match)
            return w;
    }
    Window root, parent, *kids = NULL;
    unsigned nkids = 0;
    Window found = 0;
    if (XQueryTree(dpy, w, &root, &parent, &kids, &nkids)) {
        for (unsigned i = 0; i < nkids && !found; i++)
            found = find_by_pid(dpy, kids[i], net_wm_pid, pid);
        if (kids)
            XFree(kids);
    }
    return found;
}

/* Position of the lowest set bit of a channel mask, and its width. */
static void mask_shift(unsigned long mask, int *shift, int *bits)
{
    *shift = 0;
    *bits = 0;
    if (!mask)
        return;
    while (!(mask & 1)) {
        mask >>= 1;
        (*shift)++;
    }
    while (mask & 1) {
        mask >>= 1;
        (*bits)++;
    }
}

static unsigned channel(unsigned long px, unsigned long mask)
{
    int shift, bits;
    mask_shift(mask, &shift, &bits);
    if (!bits)
        return 0;
    unsigned long v = (px & mask) >> shift;
    unsigned long max = (1ul << bits) - 1;
    return (unsigned)((v * 255 + max / 2) / max);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: window_grab PID OUT.pam\n");
        return 2;
    }
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        fprintf(stderr, "window_grab: cannot open the X display\n");
        return 1;
    }
    char *end;
    unsigned long pid = strtoul(argv[1], &end, 10);
    if (end == argv[1] || *end) {
        fprintf(stderr, "window_grab: '%s' is not a process id\n", argv[1]);
        XCloseDisplay(dpy);
        return 2;
    }
    Atom net_wm_pid = XInternAtom(dpy, "_NET_WM_PID", True);
    Window w = net_wm_pid != None ? find_by_pid(dpy, DefaultRootWindow(dpy), net_wm_pid, pid) : 0;
    XWindowAttributes at;
    if (!w || !XGetWindowAttributes(dpy, w, &at)) {
        fprintf(stderr, "window_grab: no window of process %s\n", argv[1]);
        XCloseDisplay(dpy);
        return 1;
    }
    XImage *img = XGetImage(dpy, w, 0, 0, (unsigned)at.width, (unsigned)at.height, AllPlanes, ZPixmap);
    if (!img) {
        fprintf(stderr, "window_grab: cannot read the window of process %s\n", argv[1]);
        XCloseDisplay(dpy);
        return 1;
    }
    FILE *f = fopen(argv[2], "wb");
    if (!f) {
        perror(argv[2]);
        XDestroyImage(img);
        XCloseDisplay(dpy);
        return 1;
    }
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", at.width, at.height);
    for (int y = 0; y < at.height; y++)
        for (int x = 0; x < at.width; x++) {
            unsigned long px = XGetPixel(img, x, y);
            unsigned char rgba[4] = { (unsigned char)channel(px, img->red_mask),
                                      (unsigned char)channel(px, img->green_mask),
                                      (unsigned char)channel(px, img->blue_mask), 255 };
            fwrite(rgba, 1, 4, f);
        }
    int rc = fclose(f) == 0 ? 0 : 1;
    XDestroyImage(img);
    XCloseDisplay(dpy);
    return rc;
}
