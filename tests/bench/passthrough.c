/* The baseline of bench_exec_overhead.py: the smallest C preload library that intercepts GL the way
 * the shim does (glXSwapBuffers and eglSwapBuffers forwarded through dlsym(RTLD_NEXT)), with a
 * constructor, linking libc only. The shim's start-up cost is measured against this. */
#include <dlfcn.h>

static void *next_glx_swap, *next_egl_swap;

__attribute__((constructor)) static void passthrough_init(void)
{
    next_glx_swap = dlsym(RTLD_NEXT, "glXSwapBuffers");
    next_egl_swap = dlsym(RTLD_NEXT, "eglSwapBuffers");
}

__attribute__((visibility("default"))) void glXSwapBuffers(void *dpy, unsigned long drawable);
void glXSwapBuffers(void *dpy, unsigned long drawable)
{
    if (next_glx_swap)
        ((void (*)(void *, unsigned long))next_glx_swap)(dpy, drawable);
}

__attribute__((visibility("default"))) unsigned eglSwapBuffers(void *dpy, void *surface);
unsigned eglSwapBuffers(void *dpy, void *surface)
{
    return next_egl_swap ? ((unsigned (*)(void *, void *))next_egl_swap)(dpy, surface) : 0;
}
