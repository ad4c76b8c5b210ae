/* The interface between the two stages of the preloaded shim (issue 16 §1, docs/BENCHMARKS.md).
 *
 * Stage 1, libglreplay.so, is what LD_PRELOAD names: it exports every GL/GLX/EGL entry point as a
 * generated trampoline, plus dlopen and the in-application capture API, and does nothing at load.
 * Stage 2, libglreplay-core.so (the interception core: tracking, capture, the socket server, the
 * replay loop), is loaded from stage 1's directory with dlopen(RTLD_LOCAL) at the first GL call,
 * the first dlopen of a GL library, the first in-application API call, or at start when the
 * environment asks for work then. A process that never uses GL pays stage 1 only.
 *
 * Stage 2 exports one symbol, GLR_STAGE2_ENTRY; stage 1 calls it once, with the services that
 * only stage 1 can give (it is in the global scope; stage 2 is not), and gets the table its
 * trampolines jump through. */
#ifndef GLR_STAGE_ABI_H
#define GLR_STAGE_ABI_H

#include <stddef.h>

#define GLR_STAGE2_FILE "libglreplay-core.so"
#define GLR_STAGE2_ENTRY "glr_stage2_entry"
/* Bumped on any change of the structures below: the two files come from one build. */
#define GLR_STAGE_ABI_VERSION 2

typedef void (*glr_stage_fn)(void);

struct glr_stage1 {
    int version;
    /* dlsym(RTLD_NEXT, name) as seen from stage 1: the next definition after the preloaded shim
     * in the global scope (the driver's). Stage 2 is not in the global scope, so RTLD_NEXT from
     * its own code would not mean this. */
    void *(*lookup_next)(const char *name);
    /* Stage 1's file: a program's dlopen of a GL library gets stage 1's handle (dlopen of this
     * with RTLD_NOLOAD), so that dlsym through it finds the exported trampolines. */
    const char *self_path;
    /* Stage 1's exported trampolines, one per command in command-id order, `trampoline_bytes`
     * apart: what GetProcAddress answers, so that a program sees one pointer per function whether
     * it asks GetProcAddress, dlsym or the dynamic linker (a trampoline jumps to the wrapper). */
    const char *trampolines;
    size_t trampoline_bytes;
    size_t n_trampolines;
};

struct glr_stage2 {
    int version;
    /* One wrapper per registry command, indexed by command id (glr_wrapper_tab). */
    const glr_stage_fn *wrappers;
    size_t n_wrappers;
    /* dlopen of a GL library (stage 1 tells those from others): whether stage 2 redirects it
     * (not with GLREPLAY_DISABLE), and the redirection (dlopen_hook.c). */
    int (*dlopen_wants)(const char *file);
    void *(*dlopen_gl)(const char *file, int flags);
    /* The in-application API (shim/include/glreplay_app.h). */
    int (*capture_begin)(const char *path);
    int (*capture_end)(void);
};

typedef const struct glr_stage2 *(*glr_stage2_entry_fn)(const struct glr_stage1 *s1);

#endif
