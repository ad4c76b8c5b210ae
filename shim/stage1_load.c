/* Stage 1 of the preloaded shim (shim/stage_abi.h): loading stage 2 and the trampolines' first call.
 *
 * Nothing happens at load but a look at the environment and at the libraries already mapped.
 * Stage 2 is loaded at the earliest point that is safe to dlopen from: at start when the program
 * links a GL library or GLREPLAY_CAPTURE_FRAMES or GLREPLAY_LOG asks for work (or messages) from
 * the start; otherwise when it dlopens a GL library, at its first GL/GLX/EGL call (GetProcAddress
 * and context creation are such calls) or its first in-application API call. A first GL call
 * made from a signal handler therefore finds stage 2 loaded in practice (docs/SHIM.md, "Two
 * stages", says what remains). With GLREPLAY_DISABLE, or should stage 2 be missing or refuse
 * (after one error line), it is never loaded and every call passes straight to the driver: the
 * program behaves as without the shim.
 */
#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>
#include "shim/stage_abi.h"
#include "glr_stage1_trampolines.h"

#define S1_HIDDEN __attribute__((visibility("hidden")))

extern S1_HIDDEN const glr_stage_fn *glr_s1_table; /* stage1_table.c */
typedef void *(*dlopen_fn)(const char *, int);
S1_HIDDEN dlopen_fn glr_s1_next_dlopen;

S1_HIDDEN bool glr_s1_gl_library_mapped(void); /* stage1_gl_library.c */

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const struct glr_stage2 *stage2;
/* GLREPLAY_DISABLE (read once, at start): stage 2 is never loaded. */
static bool disabled;
static char self_path[PATH_MAX];

/* dlsym(RTLD_NEXT) resolves from its caller's address, so this must not become a tail call from
 * stage 2's code: the barrier keeps the call inside stage 1. */
static void *lookup_next(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    __asm__ volatile("" : "+r"(p));
    return p;
}

static struct glr_stage1 services = {
    .version = GLR_STAGE_ABI_VERSION,
    .lookup_next = lookup_next,
    .trampoline_bytes = GLR_S1_TRAMPOLINE_BYTES,
    .n_trampolines = GLR_S1_N_ENTRIES,
};

/* The real dlopen: stage 1's own exported dlopen would do for these absolute paths too, but needs
 * no detour. */
S1_HIDDEN dlopen_fn glr_s1_resolve_dlopen(void)
{
    dlopen_fn f = __atomic_load_n(&glr_s1_next_dlopen, __ATOMIC_ACQUIRE);
    if (!f) {
        void *p = lookup_next("dlopen");
        memcpy(&f, &p, sizeof p);
        __atomic_store_n(&glr_s1_next_dlopen, f, __ATOMIC_RELEASE);
    }
    return f;
}

/* The first trampoline: looked up by its exported name in stage 1's own scope (found through
 * dladdr of this file's code), not referenced at link time, so that this file and the generated
 * trampolines, which jump to its first-call path, do not depend on each other. Trampoline i is
 * GLR_S1_TRAMPOLINE_BYTES * i further. */
static const char *trampolines(void)
{
    static const char *first;
    const char *t = __atomic_load_n(&first, __ATOMIC_ACQUIRE);
    if (t)
        return t;
    Dl_info di;
    void *self = dladdr((void *)lookup_next, &di) && di.dli_fname
                     ? glr_s1_resolve_dlopen()(di.dli_fname, RTLD_LAZY | RTLD_NOLOAD) : NULL;
    t = self ? dlsym(self, GLR_S1_FIRST_NAME) : NULL;
    if (self)
        dlclose(self);
    __atomic_store_n(&first, t, __ATOMIC_RELEASE);
    return t;
}

static void s1_error(const char *what, const char *why)
{
    /* GLREPLAY_LOG's default level shows errors; the shim's own logger lives in stage 2. */
    fprintf(stderr, "glreplay: error: %s: %s; GL calls go to the driver without the shim\n", what, why);
}

/* Stage 2's path: stage 1's directory (its origin, fixed at load, so a relative LD_PRELOAD still
 * works after the program changed directory) and GLR_STAGE2_FILE. */
static int stage2_path(char *out, size_t n)
{
    Dl_info di;
    if (!dladdr((void *)lookup_next, &di) || !di.dli_fname)
        return -1;
    snprintf(self_path, sizeof self_path, "%s", di.dli_fname);
    void *self = glr_s1_resolve_dlopen()(self_path, RTLD_LAZY | RTLD_NOLOAD);
    char origin[PATH_MAX] = "";
    int rc = self ? dlinfo(self, RTLD_DI_ORIGIN, origin) : -1;
    if (self)
        dlclose(self);
    if (rc != 0 || !origin[0])
        return -1;
    return (size_t)snprintf(out, n, "%s/%s", origin, GLR_STAGE2_FILE) < n ? 0 : -1;
}

static void load(void)
{
    char path[PATH_MAX + 32];
    if (stage2_path(path, sizeof path) != 0) {
        s1_error("cannot find the directory of libglreplay.so", GLR_STAGE2_FILE " not loaded");
        return;
    }
    services.self_path = self_path;
    services.trampolines = trampolines();
    void *h = glr_s1_resolve_dlopen()(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror(); /* names the file */
        s1_error("cannot load the shim's core", why ? why : path);
        return;
    }
    glr_stage2_entry_fn entry;
    void *sym = dlsym(h, GLR_STAGE2_ENTRY);
    memcpy(&entry, &sym, sizeof entry);
    const struct glr_stage2 *s2 = entry ? entry(&services) : NULL;
    if (!s2 || s2->version != GLR_STAGE_ABI_VERSION || s2->n_wrappers != GLR_S1_N_ENTRIES) {
        s1_error(path, "not the stage 2 of this libglreplay.so (another build)");
        return; /* left loaded: its entry may have started threads; it does nothing more */
    }
    stage2 = s2;
    __atomic_store_n(&glr_s1_table, s2->wrappers, __ATOMIC_RELEASE);
}

/* Stage 2, loaded and started on the first call from any thread; NULL when it cannot be or
 * GLREPLAY_DISABLE says not to. */
S1_HIDDEN const struct glr_stage2 *glr_s1_stage2(void)
{
    if (__atomic_load_n(&disabled, __ATOMIC_RELAXED))
        return NULL;
    pthread_once(&load_once, load);
    return stage2;
}

/* Without stage 2: a command no library provides does nothing and answers 0. */
static long nothing(void)
{
    return 0;
}

/* Without stage 2 (GLREPLAY_DISABLE, or it could not be loaded) the trampolines jump through this
 * table instead: entry i starts at trampoline i's first-call tail, and becomes the driver's
 * definition of its name once that is looked up (dladdr finds the name: trampoline i is at a
 * fixed offset), so that later calls take the trampolines' four-instruction path straight to the
 * driver. Filled at the first call (a process that never calls GL writes none of it). */
static glr_stage_fn next_of[GLR_S1_N_ENTRIES];
static pthread_once_t next_once = PTHREAD_ONCE_INIT;

static void publish_next_table(void)
{
    const char *first = trampolines();
    if (!first)
        return; /* every call keeps taking the first-call path: still correct */
    for (size_t i = 0; i < GLR_S1_N_ENTRIES; i++) {
        const char *tail = first + i * GLR_S1_TRAMPOLINE_BYTES + GLR_S1_LAZY_OFFSET;
        memcpy(&next_of[i], &tail, sizeof tail);
    }
    __atomic_store_n(&glr_s1_table, next_of, __ATOMIC_RELEASE);
}

static glr_stage_fn next_definition(unsigned id)
{
    pthread_once(&next_once, publish_next_table);
    Dl_info di;
    const char *first = trampolines();
    const char *trampoline = first ? first + (size_t)id * GLR_S1_TRAMPOLINE_BYTES : NULL;
    void *p = trampoline && dladdr(trampoline, &di) && di.dli_sname ? lookup_next(di.dli_sname) : NULL;
    glr_stage_fn f;
    long (*none)(void) = nothing;
    if (p)
        memcpy(&f, &p, sizeof f);
    else
        memcpy(&f, &none, sizeof f);
    __atomic_store_n(&next_of[id], f, __ATOMIC_RELEASE);
    return f;
}

/* The trampolines' first call (the assembly in stage1_first_call.c saves the arguments): the
 * wrapper of command `id`, or without stage 2 the driver's own definition of the trampoline's
 * name. */
S1_HIDDEN glr_stage_fn glr_s1_resolve(unsigned id)
{
    const struct glr_stage2 *s2 = glr_s1_stage2();
    if (s2 && id < s2->n_wrappers)
        return s2->wrappers[id];
    return id < GLR_S1_N_ENTRIES ? next_definition(id) : NULL;
}

/* At start: GLREPLAY_DISABLE as stage 2 reads it (set, not empty, not "0"); stage 2 loaded now
 * when the environment asks for work from the first instant, or when the program links a GL
 * library (mapped before any constructor runs), so that its first GL call, wherever it is made
 * from, does not dlopen. */
__attribute__((constructor)) static void stage1_start(void)
{
    const char *dis = getenv("GLREPLAY_DISABLE");
    if (dis && dis[0] && strcmp(dis, "0") != 0) {
        __atomic_store_n(&disabled, true, __ATOMIC_RELAXED);
        return;
    }
    const char *frames = getenv("GLREPLAY_CAPTURE_FRAMES"), *log = getenv("GLREPLAY_LOG");
    if ((frames && *frames) || (log && *log) || glr_s1_gl_library_mapped())
        glr_s1_stage2();
}

/* The in-application API (shim/include/glreplay_app.h), found by the program with dlsym. */
__attribute__((visibility("default"))) int glreplay_capture_begin(const char *path)
{
    const struct glr_stage2 *s2 = glr_s1_stage2();
    return s2 ? s2->capture_begin(path) : -1;
}

__attribute__((visibility("default"))) int glreplay_capture_end(void)
{
    const struct glr_stage2 *s2 = glr_s1_stage2();
    return s2 ? s2->capture_end() : -1;
}
