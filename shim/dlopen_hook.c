/* dlopen interposition, stage 2's part: a program (or GLFW, libepoxy, SDL, glad) that dlopen()s a
 * GL library gets a handle to the shim's stage 1, so dlsym() through it finds the exported
 * trampolines. Stage 1 (stage1_dlopen.c) exports dlopen, passes every other library straight to
 * the real dlopen, and hands GL library names to the functions here.
 */
#include <dlfcn.h>
#include "shim/shim_internal.h"
#include "shim/stage_abi.h"

int glr_dlopen_wants(const char *file)
{
    (void)file; /* stage 1 passes GL library names only */
    glr_shim_init();
    return !glr_disabled;
}

void *glr_dlopen_gl(const char *file, int flags)
{
    void *real = glr_real_dlopen(file, flags);
    if (!real)
        return NULL; /* same failure (and dlerror text) as without the shim, e.g. RTLD_NOLOAD */
    glr_remember_gl_library(real);
    void *self = glr_real_dlopen(glr_stage1->self_path, RTLD_LAZY | RTLD_NOLOAD);
    if (!self) {
        glr_log(GLR_LOG_ERROR, "dlopen(%s): cannot get the shim's own handle; GL calls through this handle are not intercepted", file);
        return real;
    }
    glr_log(GLR_LOG_DEBUG, "dlopen(%s) redirected to the shim", file);
    return self;
}
