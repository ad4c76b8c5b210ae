/* A minimal EGL surfaceless GL context with a pbuffer, for the test programs that need "some real
 * GL" without an X server (EGL_PLATFORM=surfaceless). */
#ifndef EGL_DRAW_H
#define EGL_DRAW_H

#include <stdbool.h>

/* Creates the display, a desktop-GL context and a w x h pbuffer and makes them current. */
bool egl_draw_init(int w, int h);
/* Clears to a colour derived from `index`, checks the read-back centre pixel, swaps. */
bool egl_draw_frame(unsigned index);
/* Releases and terminates (the context goes with the display). */
void egl_draw_finish(void);

#endif
