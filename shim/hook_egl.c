/* EGL hooks: context lifetime, current context, swaps, thread release and display termination. */
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/replay_loop.h"

/* EGL_TRUE from egl.xml, without pulling in the system EGL headers. */
#include "registry/glr_egl_enums.h"   /* generated from egl.xml */

EGLContext glr_hook_eglCreateContext(EGLDisplay dpy, EGLConfig config, EGLContext share, const EGLint *attribs)
{
    EGLContext c = glr_call_eglCreateContext(dpy, config, share, attribs);
    if (!glr_disabled)
        glr_ctx_created(GLR_CTX_EGL, dpy, c, share, attribs, "eglCreateContext");
    return c;
}

EGLBoolean glr_hook_eglDestroyContext(EGLDisplay dpy, EGLContext ctx)
{
    /* A program shutting down destroys its contexts before it terminates its display: a replayed
     * pass a live session left finishing on its own thread (same display) ends first. */
    glr_replay_loop_drain(2000);
    if (!glr_disabled && glr_ctx_is_current(GLR_CTX_EGL, dpy, ctx))
        glr_capture_before_release();
    EGLBoolean ok = glr_call_eglDestroyContext(dpy, ctx);
    if (ok == EGL_TRUE && !glr_disabled)
        glr_ctx_destroyed(GLR_CTX_EGL, dpy, ctx);
    return ok;
}

EGLBoolean glr_hook_eglMakeCurrent(EGLDisplay dpy, EGLSurface draw, EGLSurface read, EGLContext ctx)
{
    if (!glr_disabled && !glr_ctx_is_current(GLR_CTX_EGL, dpy, ctx))
        glr_capture_before_release();
    EGLBoolean ok = glr_call_eglMakeCurrent(dpy, draw, read, ctx);
    if (ok == EGL_TRUE && !glr_disabled) {
        uint32_t w, h;
        glr_surface_size(GLR_CTX_EGL, dpy, draw, &w, &h);
        glr_ctx_made_current(GLR_CTX_EGL, dpy, ctx, w, h);
        glr_pbuffer_made_current(dpy, draw);
    }
    return ok;
}

EGLBoolean glr_hook_eglSwapBuffers(EGLDisplay dpy, EGLSurface surface)
{
    bool ends_frame = !glr_disabled && glr_frame_swap_counts(surface);
    if (!glr_disabled)
        glr_capture_before_swap(GLR_CTX_EGL, dpy, surface, ends_frame);
    EGLBoolean ok = glr_call_eglSwapBuffers(dpy, surface);
    if (!glr_disabled) {
        if (ends_frame)
            glr_frame_end();
        glr_replay_loop_after_swap();   /* the loop a capture's end asked for (replay_loop_trigger.c) */
        glr_capture_after_swap();
    }
    return ok;
}

EGLBoolean glr_hook_eglSwapBuffersWithDamageKHR(EGLDisplay dpy, EGLSurface surface, const EGLint *rects, EGLint n)
{
    bool ends_frame = !glr_disabled && glr_frame_swap_counts(surface);
    if (!glr_disabled)
        glr_capture_before_swap(GLR_CTX_EGL, dpy, surface, ends_frame);
    EGLBoolean ok = glr_call_eglSwapBuffersWithDamageKHR(dpy, surface, rects, n);
    if (!glr_disabled) {
        if (ends_frame)
            glr_frame_end();
        glr_replay_loop_after_swap();   /* the loop a capture's end asked for (replay_loop_trigger.c) */
        glr_capture_after_swap();
    }
    return ok;
}

EGLBoolean glr_hook_eglSwapBuffersWithDamageEXT(EGLDisplay dpy, EGLSurface surface, const EGLint *rects, EGLint n)
{
    bool ends_frame = !glr_disabled && glr_frame_swap_counts(surface);
    if (!glr_disabled)
        glr_capture_before_swap(GLR_CTX_EGL, dpy, surface, ends_frame);
    EGLBoolean ok = glr_call_eglSwapBuffersWithDamageEXT(dpy, surface, rects, n);
    if (!glr_disabled) {
        if (ends_frame)
            glr_frame_end();
        glr_replay_loop_after_swap();   /* the loop a capture's end asked for (replay_loop_trigger.c) */
        glr_capture_after_swap();
    }
    return ok;
}

EGLBoolean glr_hook_eglReleaseThread(void)
{
    EGLBoolean ok = glr_call_eglReleaseThread();
    if (ok == EGL_TRUE && !glr_disabled) {
        struct glr_context *c = glr_ctx_current();
        if (c)
            glr_ctx_made_current(GLR_CTX_EGL, NULL, NULL, 0, 0);
    }
    return ok;
}

EGLBoolean glr_hook_eglTerminate(EGLDisplay dpy)
{
    glr_replay_loop_drain(2000);   /* the same, for a program that terminates without destroying */
    EGLBoolean ok = glr_call_eglTerminate(dpy);
    if (ok == EGL_TRUE && !glr_disabled)
        glr_ctx_display_terminated(dpy);
    return ok;
}

EGLSurface glr_hook_eglCreatePbufferSurface(EGLDisplay dpy, EGLConfig config, const EGLint *attribs)
{
    EGLSurface s = glr_call_eglCreatePbufferSurface(dpy, config, attribs);
    if (!glr_disabled)
        glr_pbuffer_created(dpy, s);
    return s;
}

EGLBoolean glr_hook_eglDestroySurface(EGLDisplay dpy, EGLSurface surface)
{
    EGLBoolean ok = glr_call_eglDestroySurface(dpy, surface);
    if (ok == EGL_TRUE && !glr_disabled)
        glr_pbuffer_destroyed(dpy, surface);
    return ok;
}
