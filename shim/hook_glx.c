/* GLX hooks: context lifetime, current context, swaps. Each forwards first and records only what
 * the driver accepted, so return values and errors are exactly the driver's. */
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/replay_loop.h"

GLXContext glr_hook_glXCreateContext(Display *dpy, XVisualInfo *vis, GLXContext share, Bool direct)
{
    GLXContext c = glr_call_glXCreateContext(dpy, vis, share, direct);
    if (!glr_disabled)
        glr_ctx_created(GLR_CTX_GLX, dpy, c, share, NULL, "glXCreateContext");
    return c;
}

GLXContext glr_hook_glXCreateNewContext(Display *dpy, GLXFBConfig config, int render_type, GLXContext share,
                                        Bool direct)
{
    GLXContext c = glr_call_glXCreateNewContext(dpy, config, render_type, share, direct);
    if (!glr_disabled)
        glr_ctx_created(GLR_CTX_GLX, dpy, c, share, NULL, "glXCreateNewContext");
    return c;
}

GLXContext glr_hook_glXCreateContextAttribsARB(Display *dpy, GLXFBConfig config, GLXContext share, Bool direct,
                                               const int *attribs)
{
    GLXContext c = glr_call_glXCreateContextAttribsARB(dpy, config, share, direct, attribs);
    if (!glr_disabled)
        glr_ctx_created(GLR_CTX_GLX, dpy, c, share, attribs, "glXCreateContextAttribsARB");
    return c;
}

void glr_hook_glXDestroyContext(Display *dpy, GLXContext ctx)
{
    /* A program shutting down destroys its contexts before it closes its display: a replayed pass
     * a live session left finishing on its own thread (same display) ends first. */
    glr_replay_loop_drain(2000);
    if (!glr_disabled && glr_ctx_is_current(GLR_CTX_GLX, dpy, ctx))
        glr_capture_before_release();
    glr_call_glXDestroyContext(dpy, ctx);
    if (!glr_disabled)
        glr_ctx_destroyed(GLR_CTX_GLX, dpy, ctx);
}

Bool glr_hook_glXMakeCurrent(Display *dpy, GLXDrawable drawable, GLXContext ctx)
{
    if (!glr_disabled && !glr_ctx_is_current(GLR_CTX_GLX, dpy, ctx))
        glr_capture_before_release();
    Bool ok = glr_call_glXMakeCurrent(dpy, drawable, ctx);
    if (ok && !glr_disabled) {
        uint32_t w, h;
        glr_surface_size(GLR_CTX_GLX, dpy, (void *)(uintptr_t)drawable, &w, &h);
        glr_ctx_made_current(GLR_CTX_GLX, dpy, ctx, w, h);
        glr_pbuffer_made_current(dpy, (void *)(uintptr_t)drawable);
    }
    return ok;
}

Bool glr_hook_glXMakeContextCurrent(Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx)
{
    if (!glr_disabled && !glr_ctx_is_current(GLR_CTX_GLX, dpy, ctx))
        glr_capture_before_release();
    Bool ok = glr_call_glXMakeContextCurrent(dpy, draw, read, ctx);
    if (ok && !glr_disabled) {
        uint32_t w, h;
        glr_surface_size(GLR_CTX_GLX, dpy, (void *)(uintptr_t)draw, &w, &h);
        glr_ctx_made_current(GLR_CTX_GLX, dpy, ctx, w, h);
        glr_pbuffer_made_current(dpy, (void *)(uintptr_t)draw);
    }
    return ok;
}

void glr_hook_glXSwapBuffers(Display *dpy, GLXDrawable drawable)
{
    bool ends_frame = !glr_disabled && glr_frame_swap_counts((void *)(uintptr_t)drawable);
    if (!glr_disabled)
        glr_capture_before_swap(GLR_CTX_GLX, dpy, (void *)(uintptr_t)drawable, ends_frame);
    glr_call_glXSwapBuffers(dpy, drawable);
    if (!glr_disabled) {
        if (ends_frame)
            glr_frame_end();
        glr_replay_loop_after_swap();   /* the loop a capture's end asked for (replay_loop_trigger.c) */
        glr_capture_after_swap();
    }
}

GLXPbuffer glr_hook_glXCreatePbuffer(Display *dpy, GLXFBConfig config, const int *attribs)
{
    GLXPbuffer p = glr_call_glXCreatePbuffer(dpy, config, attribs);
    if (!glr_disabled)
        glr_pbuffer_created(dpy, (void *)(uintptr_t)p);
    return p;
}

void glr_hook_glXDestroyPbuffer(Display *dpy, GLXPbuffer pbuf)
{
    glr_call_glXDestroyPbuffer(dpy, pbuf);
    if (!glr_disabled)
        glr_pbuffer_destroyed(dpy, (void *)(uintptr_t)pbuf);
}
