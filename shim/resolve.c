/* Finding the driver's real function for each command, lazily on first call.
 *
 * Order (as the driver's own loader would find it): the next library after the shim's stage 1 in
 * the global scope (RTLD_NEXT), then the GL libraries the program dlopen()ed privately (their real handles),
 * then the real glXGetProcAddressARB / eglGetProcAddress for functions no library exports.
 */
#include <dlfcn.h>
#include <string.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/stage_abi.h"

#define MAX_GL_LIBS 16
static void *gl_libs[MAX_GL_LIBS];
static int n_gl_libs;
static pthread_mutex_t libs_lock = PTHREAD_MUTEX_INITIALIZER;

void glr_remember_gl_library(void *real_handle)
{
    pthread_mutex_lock(&libs_lock);
    int known = 0;
    for (int i = 0; i < n_gl_libs; i++)
        known |= gl_libs[i] == real_handle;
    if (!known && n_gl_libs < MAX_GL_LIBS)
        __atomic_store_n(&gl_libs[n_gl_libs++], real_handle, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&libs_lock);
}

/* Stage 1's services (stage_abi.h), set by glr_stage2_entry before anything else runs. */
const struct glr_stage1 *glr_stage1;

/* A symbol exported by the real GL libraries (never the shim's own): the next definition after
 * stage 1 in the global scope, which only stage 1 can ask for (stage_abi.h). */
glr_proc glr_lookup_exported(const char *name)
{
    void *p = glr_stage1->lookup_next(name);
    int n = __atomic_load_n(&n_gl_libs, __ATOMIC_ACQUIRE);
    for (int i = 0; !p && i < n; i++)
        p = dlsym(__atomic_load_n(&gl_libs[i], __ATOMIC_ACQUIRE), name);
    glr_proc f;
    memcpy(&f, &p, sizeof f); /* object pointer to function pointer, as dlsym requires */
    return f;
}

typedef void *(*dlopen_fn)(const char *, int);
static dlopen_fn next_dlopen;

/* The real dlopen, found from stage 1 (RTLD_NEXT from stage 2's own code would not find it). Here,
 * beside the other look-ups of the next library, so that resolving sits below the dlopen hook and
 * the engine loader that use it (issue 16 §4). */
static dlopen_fn resolve_next_dlopen(void)
{
    dlopen_fn f = __atomic_load_n(&next_dlopen, __ATOMIC_ACQUIRE);
    if (!f) {
        void *p = glr_stage1->lookup_next("dlopen");
        memcpy(&f, &p, sizeof p);
        __atomic_store_n(&next_dlopen, f, __ATOMIC_RELEASE);
    }
    return f;
}

void *glr_real_dlopen(const char *file, int flags)
{
    return resolve_next_dlopen()(file, flags);
}

typedef glr_proc (*gpa_fn)(const char *);

/* The real GetProcAddress: GLX's for GL and GLX commands (GLVND dispatches those to whichever
 * vendor owns the current context, GLX or EGL), EGL's for EGL commands or, for GL commands, when
 * GLX has none. The command's API is the registry's (glr_cmds[].api), not its name's prefix. */
static glr_proc real_get_proc_address(int cmd, const char *name)
{
    gpa_fn glx = (gpa_fn)glr_lookup_exported("glXGetProcAddressARB");
    gpa_fn egl = (gpa_fn)glr_lookup_exported("eglGetProcAddress");
    const unsigned api = glr_cmds[cmd].api;
    glr_proc p = NULL;
    if (api != GLR_API_EGL && glx)
        p = glx(name);
    if (!p && api != GLR_API_GLX && egl)
        p = egl(name);
    return p;
}

glr_proc glr_resolve_real(int cmd)
{
    const char *name = glr_cmd_name(cmd);
    glr_proc p = glr_lookup_exported(name);
    if (!p)
        p = real_get_proc_address(cmd, name);
    if (!p) {
        static unsigned char reported[GLR_CMD_COUNT];
        if (!__atomic_exchange_n(&reported[cmd], 1, __ATOMIC_RELAXED))
            glr_log(GLR_LOG_ERROR, "%s was called but no GL library provides it; the call does nothing", name);
        return NULL;
    }
    return p; /* the thunk that asked stores it in glr_real_tab (glr_shim_real_tab.c) */
}

/* Whether the driver implements a command. A real GetProcAddress answer of NULL settles it. GLVND
 * answers non-NULL for any gl* name (it makes dispatch stubs on demand), so for those ask Mesa's
 * dispatch table (libglapi's _glapi_get_proc_offset) when Mesa is the loaded driver. */
bool glr_driver_has(int cmd, glr_proc real_answer)
{
    if (!real_answer)
        return false;
    const char *name = glr_cmd_name(cmd);
    if (glr_cmds[cmd].api != GLR_API_GL)
        return true;
    void *glapi = glr_real_dlopen("libglapi.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!glapi)
        return true;
    int (*offset_of)(const char *) = NULL;
    void *sym = dlsym(glapi, "_glapi_get_proc_offset");
    memcpy(&offset_of, &sym, sizeof offset_of);
    bool has = !offset_of || offset_of(name) >= 0;
    dlclose(glapi);
    return has;
}
