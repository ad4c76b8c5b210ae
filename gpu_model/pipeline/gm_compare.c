/* gm_compare.c - GL comparison functions (depth, stencil, shadow compare) on doubles. A leaf of
 * its own so the depth/stencil tests (gm_fragops.c), the shadow-compare sampler and pixel history
 * (gm_pipe_watch.c) share it without gm_pipe_watch.c calling back into gm_fragops.c. */
#include "gm_pipe_internal.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

bool gm_compare_func(uint32_t func, double a, double b)
{
    switch (func) {
    case GL_NEVER: return false;
    case GL_LESS: return a < b;
    case GL_EQUAL: return a == b;
    case GL_LEQUAL: return a <= b;
    case GL_GREATER: return a > b;
    case GL_NOTEQUAL: return a != b;
    case GL_GEQUAL: return a >= b;
    case GL_ALWAYS: return true;
    default: return true;
    }
}
