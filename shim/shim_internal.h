/* Internal interface of the shim's stage 2 (libglreplay-core.so; stage_abi.h). Not installed; it
 * exports only glr_stage2_entry, and stage 1 (libglreplay.so) the GL/GLX/EGL/dlopen entry points. */
#ifndef GLR_SHIM_INTERNAL_H
#define GLR_SHIM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "glr_shim_pfn.h"
#include "shim/recorder.h"

#define GLR_EXPORT __attribute__((visibility("default")))
#define GLR_HIDDEN __attribute__((visibility("hidden")))

/* Non-zero when any wrapper must take its slow path (counting for the summary, capture later).
 * Zero on the idle path: the only cost a wrapper adds then is loading this and a branch. */
enum {
    GLR_SLOW_COUNT = 1u << 0,
    GLR_SLOW_RECORD = 1u << 1,
    /* A display list is open on some thread: its calls are recorded into the list (display_lists.h). */
    GLR_SLOW_LIST = 1u << 2,
};
extern GLR_HIDDEN unsigned glr_slow_mode;

/* Logging (GLREPLAY_LOG): messages go to stderr prefixed "glreplay: <level>: ". */
enum glr_log_level { GLR_LOG_ERROR = 0, GLR_LOG_WARN, GLR_LOG_INFO, GLR_LOG_DEBUG };
extern GLR_HIDDEN int glr_log_level;
GLR_HIDDEN void glr_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The level a GLREPLAY_LOG value names, -1 for none (shim_log.c). */
GLR_HIDDEN int glr_log_parse_level(const char *s);

/* GLREPLAY_DISABLE=1: every entry point forwards and nothing else happens. */
extern GLR_HIDDEN bool glr_disabled;

GLR_HIDDEN void glr_shim_init(void);

/* The socket server (ipc.c): started at the first context creation, stopped at exit. */
GLR_HIDDEN void glr_ipc_ensure_started(void);
GLR_HIDDEN void glr_ipc_stop(void);

/* Slow-path bookkeeping of one call (counts per command for the summary). */
GLR_HIDDEN void glr_note_call(int cmd);
GLR_HIDDEN uint64_t glr_call_count(int cmd);

/* Real-function resolution (resolve.c). */
GLR_HIDDEN glr_proc glr_resolve_real(int cmd);
GLR_HIDDEN glr_proc glr_lookup_exported(const char *name);
GLR_HIDDEN void glr_remember_gl_library(void *real_handle);
/* Whether the driver implements command `cmd`, given the real GetProcAddress answer. */
GLR_HIDDEN bool glr_driver_has(int cmd, glr_proc real_answer);
/* The real dlopen (dlopen_hook.c), found through stage 1: usable once glr_stage2_entry ran, which
 * is before any other shim code. */
GLR_HIDDEN void *glr_real_dlopen(const char *file, int flags);
/* A program's dlopen of a GL library, handed over by stage 1 (dlopen_hook.c, stage_abi.h). */
GLR_HIDDEN int glr_dlopen_wants(const char *file);
GLR_HIDDEN void *glr_dlopen_gl(const char *file, int flags);
/* Stage 1's services, set before glr_shim_init runs (stage2_entry.c). */
struct glr_stage1;
extern GLR_HIDDEN const struct glr_stage1 *glr_stage1;
/* The wrapper table (glr_wrapper_tab), handed to the GetProcAddress hooks (hook_getprocaddress.c) by
 * stage2_entry.c before glr_shim_init runs: the wrappers call those hooks, so the hooks take the
 * table the wrappers fill from above instead of linking to it (issue 16 §4). */
extern GLR_HIDDEN const glr_proc *glr_gpa_wrappers;
/* The in-application API (capture.c), reached through stage 1's exports. */
GLR_HIDDEN int glreplay_capture_begin(const char *path);
GLR_HIDDEN int glreplay_capture_end(void);

/* Contexts (contexts.c). */
enum glr_ctx_api { GLR_CTX_GLX = 1, GLR_CTX_EGL = 2 };
struct glr_context;
GLR_HIDDEN void glr_ctx_created(int api, void *display, void *handle, void *share, const int *attribs,
                                const char *how);
GLR_HIDDEN void glr_ctx_destroyed(int api, void *display, void *handle);
GLR_HIDDEN void glr_ctx_made_current(int api, void *display, void *handle, uint32_t width, uint32_t height);
/* Size of a draw surface, only while a capture records (0, 0 otherwise or when unknown):
 * capture_state.c, over glr_surface_query_size (capture_readback.c: 0, or -1 when unknown). */
GLR_HIDDEN void glr_surface_size(int api, void *display, void *surface, uint32_t *w, uint32_t *h);
GLR_HIDDEN int glr_surface_query_size(int api, void *display, void *surface, uint32_t *w, uint32_t *h);
GLR_HIDDEN void glr_ctx_display_terminated(void *display);
/* Who hears of context events (the capture, the server): set by shim start-up (shim_state.c)
 * before the first context exists, so that context tracking sits below the capture and the server
 * instead of calling up into them (issue 16 §4). Called outside the context table's lock. */
struct glr_ctx_observer {
    void (*created)(uint32_t id, uint32_t share_group, int api);
    void (*destroyed)(uint32_t id, unsigned alive_after);
    void (*made_current)(uint32_t id, uint32_t width, uint32_t height);
};
GLR_HIDDEN void glr_ctx_set_observer(const struct glr_ctx_observer *observer);
/* Pbuffers the program created (shim/pbuffers.c): their colour buffer may be read at a release. */
GLR_HIDDEN void glr_pbuffer_created(void *display, void *surface);
GLR_HIDDEN void glr_pbuffer_destroyed(void *display, void *surface);
GLR_HIDDEN bool glr_pbuffer_known(void *display, void *surface);
/* Whether a draw or clear reached the pbuffer (not a framebuffer object) since the capture began;
 * forgetting that when a capture begins (its contents before are not in the capture). */
GLR_HIDDEN bool glr_pbuffer_drawn(void *display, void *surface);
GLR_HIDDEN void glr_pbuffers_forget_drawn(void);
/* This thread's draw surface at a make-current; a draw or clear on it (fbo_bound: a framebuffer
 * object was bound for drawing, so the pbuffer was not drawn to); whether a pbuffer not yet
 * marked drawn is current (only then is the binding worth asking for). */
GLR_HIDDEN void glr_pbuffer_made_current(void *display, void *surface);
GLR_HIDDEN void glr_pbuffer_note_draw(bool fbo_bound);
GLR_HIDDEN bool glr_pbuffer_current(void);
GLR_HIDDEN struct glr_context *glr_ctx_current(void);
/* The window-system API, display and draw surface of the context current on this thread (false
 * when none, or it has no draw surface: a surfaceless context). */
GLR_HIDDEN bool glr_ctx_current_surface(int *api, void **display, void **surface);
/* Whether (api, display, handle) is the context current on this thread. */
GLR_HIDDEN bool glr_ctx_is_current(int api, void *display, void *handle);
GLR_HIDDEN uint32_t glr_ctx_id(const struct glr_context *c);
/* glr_ctx_id(glr_ctx_current()) without the two calls: the recorded wrappers' hot path. */
extern GLR_HIDDEN __thread uint32_t glr_ctx_tls_id __attribute__((tls_model("initial-exec")));
static inline uint32_t glr_ctx_current_id(void)
{
    return glr_ctx_tls_id;
}
GLR_HIDDEN uint32_t glr_ctx_share_group(const struct glr_context *c);
GLR_HIDDEN void glr_frame_end(void);
/* Whether a swap of `surface` (a GLX drawable or EGL surface) ends a frame: frames are counted on
 * one window when a program swaps several (shim/frame_window.c). */
GLR_HIDDEN bool glr_frame_swap_counts(void *surface);
GLR_HIDDEN uint64_t glr_frame_index(void);
GLR_HIDDEN void glr_ctx_summary(unsigned *created, unsigned *alive, unsigned *threads);

#endif
