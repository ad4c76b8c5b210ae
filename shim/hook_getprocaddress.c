/* GetProcAddress hooks: hand out the shim's wrapper for every registry command the driver has,
 * NULL for a command the driver lacks and for names that are not GL/GLX/EGL commands at all. */
#include <string.h>
#include "shim/shim_internal.h"

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
    return glr_wrapper_tab[cmd];
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
