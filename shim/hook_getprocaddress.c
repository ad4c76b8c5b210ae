/* GetProcAddress hooks: hand out the shim's entry point for every registry command the driver
 * has, NULL for a command the driver lacks and for names that are not GL/GLX/EGL commands at all.
 * The entry point is stage 1's exported trampoline of that command (it jumps to the wrapper), the
 * pointer dlsym and the dynamic linker give for the name too: a program that compares them, or
 * caches one and calls the other, sees one function. */
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/stage_abi.h"

const glr_proc *glr_gpa_wrappers;

/* Command `cmd`'s stage 1 trampoline (the wrapper itself when no stage 1 gave its trampolines). */
static glr_proc entry_point(int cmd)
{
    const struct glr_stage1 *s1 = glr_stage1;
    if (!s1 || !s1->trampolines || (size_t)cmd >= s1->n_trampolines)
        return glr_gpa_wrappers ? glr_gpa_wrappers[cmd] : NULL;
    glr_proc f;
    const char *t = s1->trampolines + (size_t)cmd * s1->trampoline_bytes;
    memcpy(&f, &t, sizeof f);
    return f;
}

static glr_proc wrapper_for(const char *name, glr_proc real_answer)
{
    int cmd = glr_cmd_find(name);
    if (cmd < 0) {
        glr_log(GLR_LOG_DEBUG, "GetProcAddress(%s): not a registry command, returning NULL", name);
        return NULL;
    }
    if (!glr_driver_has(cmd, real_answer)) {
        glr_log(GLR_LOG_DEBUG, "GetProcAddress(%s): the driver lacks it, returning NULL", name);
        return NULL;
    }
    return entry_point(cmd);
}

__GLXextFuncPtr glr_hook_glXGetProcAddressARB(const GLubyte *name)
{
    __GLXextFuncPtr real = glr_call_glXGetProcAddressARB(name);
    if (glr_disabled || !name)
        return real;
    return (__GLXextFuncPtr)wrapper_for((const char *)name, (glr_proc)real);
}

__GLXextFuncPtr glr_hook_glXGetProcAddress(const GLubyte *name)
{
    __GLXextFuncPtr real = glr_call_glXGetProcAddress(name);
    if (glr_disabled || !name)
        return real;
    return (__GLXextFuncPtr)wrapper_for((const char *)name, (glr_proc)real);
}

__eglMustCastToProperFunctionPointerType glr_hook_eglGetProcAddress(const char *name)
{
    __eglMustCastToProperFunctionPointerType real = glr_call_eglGetProcAddress(name);
    if (glr_disabled || !name)
        return real;
    return (__eglMustCastToProperFunctionPointerType)wrapper_for(name, (glr_proc)real);
}
