/* Internal to the in-process replay loop (replay_loop*.c): the window-system side — the program's
 * current binding saved and put back, the loop's own contexts. Every call here is a real driver
 * function (GLR_REAL), never one of the shim's wrappers. */
#ifndef GLR_SHIM_REPLAY_LOOP_INTERNAL_H
#define GLR_SHIM_REPLAY_LOOP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct glrh_context;

#define GLR_LOOP_MAX_CTXS 16

/* One loop context standing for one captured context. */
struct glr_loop_ctx {
    uint32_t captured_id, share_group;  /* the captured context and its share group */
    bool swaps;              /* the context that swapped: current on the program's drawable */
    int attribs[16];         /* context attributes (GLX_CONTEXT_* or EGL_CONTEXT_*), None/EGL_NONE-ended */
    unsigned egl_api;        /* EGL: EGL_OPENGL_API or EGL_OPENGL_ES_API */
    unsigned width, height;  /* the pbuffer of a context that does not swap */
    void *ctx;               /* GLXContext / EGLContext, NULL until created */
    void *surface;           /* its drawable: the program's, or its own pbuffer (NULL: EGL surfaceless) */
    bool own_surface;
};

struct glr_loop_ws {
    int api;                 /* GLR_CTX_GLX or GLR_CTX_EGL */
    void *display;           /* the program's current display */
    void *prog_ctx;          /* the program's current context (restored at the end) */
    void *prog_draw, *prog_read;  /* its draw and read drawables (GLXDrawable as an integer) */
    unsigned prog_egl_api;   /* EGL: the thread's bound API (eglQueryAPI) */
    void *target;            /* the drawable the passes swap (the captured swap's) */
    void *config;            /* GLXFBConfig or EGLConfig of the program's drawable */
    int screen;              /* GLX screen of the program's context */
    struct glr_loop_ctx ctxs[GLR_LOOP_MAX_CTXS];
    unsigned n_ctxs;
    struct glr_loop_ctx *current;  /* the loop context current on this thread, or NULL */
    bool switched;           /* the program's context is no longer current on this thread */
    /* The live debugger's fresh passes (replay_loop_prep.c), GLX and EGL: the contexts are made and
     * restored on a thread of their own, the swapping one on this pbuffer of the window's size and
     * config (never on the program's window, which the program may draw to again at any moment). */
    bool offscreen;
    void *prep_surface;      /* that pbuffer (GLXPbuffer as an integer, or EGLSurface), 0 when none */
};

/* Saves the calling thread's current binding and finds its drawable's config; fails (err) when no
 * context of `api` is current. `surface` is the captured swap's drawable (NULL: the current draw
 * drawable). */
int glr_loop_ws_save(struct glr_loop_ws *w, int api, void *display, void *surface, char *err, size_t n);
/* Whether a pbuffer of the window's config can stand in for the window (offscreen passes): the
 * config's GLX_DRAWABLE_TYPE or EGL_SURFACE_TYPE offers pbuffers. */
bool glr_loop_ws_can_stand_in(struct glr_loop_ws *w);
/* Adds a loop context like captured context `desc` (no GL call yet); `swaps`: the one that swaps
 * the program's drawable (the others get a pbuffer of their captured surface size). */
int glr_loop_ws_add(struct glr_loop_ws *w, const struct glrh_context *desc, bool swaps, char *err, size_t n);
/* Destroys the loop contexts of a previous pass, if any, and creates them all afresh (each sharing
 * with the first of its captured share group, none with the program), leaving the swapping one
 * current on the program's drawable. */
int glr_loop_ws_create(struct glr_loop_ws *w, char *err, size_t n);
/* Makes the loop context of captured context `id` current (no-op if it is); -1 if there is none. */
int glr_loop_ws_make_current(struct glr_loop_ws *w, uint32_t captured_id);
/* Swaps the program's drawable (the swapping loop context must be current). */
void glr_loop_ws_swap(struct glr_loop_ws *w);
/* After glr_loop_ws_create with w->offscreen on another thread: that thread lets go of its loop
 * context (nothing current there any more). */
void glr_loop_ws_release(struct glr_loop_ws *w);
/* Then on the render thread: the pbuffer goes and the swapping loop context is made current on the
 * program's drawable; with `proc` (GL function lookup), the stand-in's image is shown in the window
 * first (blit to its back buffer, every binding and switch the blit touches put back; then
 * before_swap, if any, then the swap). 0, or -1 with err. */
int glr_loop_ws_adopt(struct glr_loop_ws *w, void *(*proc)(void *user, const char *name),
                      void (*before_swap)(void *user), void *user, char *err, size_t n);
/* On the thread that made them (offscreen, the render thread gone on): lets go and destroys the loop
 * contexts and the pbuffer; the program's binding is not touched. */
void glr_loop_ws_discard(struct glr_loop_ws *w);
/* Makes the program's context current again exactly as saved and destroys the loop contexts.
 * 0, or -1 with err when the driver refused to rebind the program's context (logged by the caller). */
int glr_loop_ws_restore(struct glr_loop_ws *w, char *err, size_t n);

/* ---- replay_loop_prep.c: work on a thread of its own that the render thread can walk away from ---- */

struct glr_loop_prep {
    int (*work)(void *user, char *err, size_t n);   /* on the new thread: 0, or -1 with err */
    void (*orphaned)(void *user);   /* on that thread after work, when the caller stopped waiting:
                                       user belongs to it then (it frees everything) */
    void *user;
};
/* Runs p->work on a new thread and waits for it, checking *interrupt every millisecond: 0 or -1
 * (work's result, err), or 1 when *interrupt was set first: the thread goes on alone and calls
 * p->orphaned; the caller must not touch p->user again. -1 also when no thread could start. */
int glr_loop_prep_run(const struct glr_loop_prep *p, const int *interrupt, char *err, size_t n);
/* GLX: the program's XCloseDisplay(display) first waits for the passes left to their own threads
 * (glr_replay_loop_drain): a program may close its display without destroying its context, right
 * after a session's end left a pass finishing. Once per display, on the thread that uses it. */
void glr_loop_prep_watch_x_close(void *display);


#endif
