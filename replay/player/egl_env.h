/* EGL surfaceless set-up for the headless replayer: the display, one context + pbuffer per
 * captured context. Internal to replay/player. */
#ifndef GLRH_EGL_ENV_H
#define GLRH_EGL_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <EGL/egl.h>
#include "replay/player/player.h"

struct glrh_egl {
    EGLDisplay dpy;
};

/* Opens a display without a window system: Mesa's surfaceless platform, else (or when
 * GLREPLAY_EGL_DEVICE names one) a device of EGL_EXT_platform_device. */
int glrh_egl_open(struct glrh_egl *e, char *err, size_t err_size);
void glrh_egl_close(struct glrh_egl *e);

/* Creates a context with the captured attributes (API, version, profile, flags) sharing with
 * `share` (EGL_NO_CONTEXT for none), and a width x height pbuffer for its default framebuffer,
 * RGB8 with an alpha channel when `alpha`, depth 24 and stencil 8, with desc->samples samples when
 * the driver has such a config (else single-sampled). When the driver lacks that
 * version, the lowest version of the same kind is asked for (the driver gives its highest) and
 * *downgraded is set. */
int glrh_egl_create(struct glrh_egl *e, const struct glrh_context *desc, EGLContext share, unsigned width,
                    unsigned height, bool alpha, EGLContext *ctx_out, EGLSurface *surf_out, char *err,
                    size_t err_size);
/* The same, reporting in *downgraded whether a lower version had to be used. */
int glrh_egl_create_ex(struct glrh_egl *e, const struct glrh_context *desc, EGLContext share, unsigned width,
                       unsigned height, bool alpha, EGLContext *ctx_out, EGLSurface *surf_out, bool *downgraded,
                       char *err, size_t err_size);
bool glrh_egl_make_current(struct glrh_egl *e, EGLSurface surf, EGLContext ctx);
void glrh_egl_destroy(struct glrh_egl *e, EGLContext ctx, EGLSurface surf);

/* The driver's GL function (never the shim's wrappers: the replayer does not load the shim). */
void *glrh_egl_proc(const char *name);

#endif
