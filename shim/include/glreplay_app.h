/* glreplay in-application capture API.
 *
 * For programs with their own notion of a frame (offscreen tools, test runners): bracket the work
 * to capture with glreplay_app_capture_begin() / glreplay_app_capture_end(). The functions are
 * found at run time with dlsym, so a program built with this header runs unchanged (the calls do
 * nothing and return -1) when it is not started under glreplay.
 *
 *   #include "glreplay_app.h"
 *   glreplay_app_capture_begin("work.glcap");
 *   ... GL calls ...
 *   glreplay_app_capture_end();
 *
 * Header-only; link with -ldl on glibc older than 2.34.
 */
#ifndef GLREPLAY_APP_H
#define GLREPLAY_APP_H

#include <dlfcn.h>

/* Starts recording every GL call from now on into `path`; 0 on success, -1 if glreplay is not
 * loaded or a capture is already running. */
static inline int glreplay_app_capture_begin(const char *path)
{
    int (*fn)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "glreplay_capture_begin");
    return fn ? fn(path) : -1;
}

/* Ends the capture and writes the file; 0 when it was written. */
static inline int glreplay_app_capture_end(void)
{
    int (*fn)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "glreplay_capture_end");
    return fn ? fn() : -1;
}

#endif
