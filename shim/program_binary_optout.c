/* GLREPLAY_NO_PROGRAM_BINARY=1 (opt-in): programs compile from source instead of loading cached
 * program binaries. A capture holds the GLSL sources a program was linked from, which the GPU model,
 * the debugger and `glreplay state` need; a program made by glProgramBinary has none. Qt 5
 * (QOpenGLProgramBinaryCache) and other engines fall back to compiling when the driver offers no
 * binary format or rejects a binary, so with this variable set:
 *  - glGetIntegerv(GL_NUM_PROGRAM_BINARY_FORMATS) answers 0 (the program does not ask for binaries);
 *  - glProgramBinary / glProgramBinaryOES load nothing: the driver is handed the same format with a
 *    zero-length binary, which the ARB_get_program_binary rules reject by setting the program's
 *    GL_LINK_STATUS to GL_FALSE (no GL error), exactly what a stale cache entry does, so the program
 *    takes its own recovery path. The call is recorded as made (length 0), so a replay makes the
 *    same failed load.
 * Without the variable both calls are forwarded untouched, and the program sources cache
 * (shim/program_cache.c) keeps and restores the sources of binaries the program reads back and
 * loads. */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/program_cache.h"
#include "registry/glr_gl_enums.h"

static int opt_out = -1; /* -1: not read yet */

static bool no_program_binary(void)
{
    int v = __atomic_load_n(&opt_out, __ATOMIC_RELAXED);
    if (v < 0) {
        const char *e = getenv("GLREPLAY_NO_PROGRAM_BINARY");
        v = e && *e && strcmp(e, "0") != 0;
        __atomic_store_n(&opt_out, v, __ATOMIC_RELAXED);
    }
    return v && !glr_disabled;
}

void glr_hook_glGetIntegerv(GLenum pname, GLint *data)
{
    glr_call_glGetIntegerv(pname, data);
    if (pname == GL_NUM_PROGRAM_BINARY_FORMATS && data && no_program_binary())
        *data = 0;
}

/* A non-null pointer for the zero-length binary (some drivers check the pointer first). */
static const unsigned char empty_binary[1];

void glr_hook_glProgramBinary(GLuint program, GLenum format, const void *binary, GLsizei length)
{
    if (no_program_binary()) {
        glr_call_glProgramBinary(program, format, empty_binary, 0);
    } else {
        glr_call_glProgramBinary(program, format, binary, length);
        glr_program_cache_load(program, binary, length);
    }
}

void glr_hook_glProgramBinaryOES(GLuint program, GLenum format, const void *binary, GLint length)
{
    if (no_program_binary()) {
        glr_call_glProgramBinaryOES(program, format, empty_binary, 0);
    } else {
        glr_call_glProgramBinaryOES(program, format, binary, length);
        glr_program_cache_load(program, binary, length);
    }
}

/* The binary a program reads back is what it will load later: keep its sources. A program that
 * passes no length pointer gets the length here through a local (the call only writes it). */
void glr_hook_glGetProgramBinary(GLuint program, GLsizei size, GLsizei *length, GLenum *format, void *binary)
{
    GLsizei local = 0;
    glr_call_glGetProgramBinary(program, size, length ? length : &local, format, binary);
    GLsizei got = length ? *length : local;
    if (got > 0 && got <= size)
        glr_program_cache_store(program, binary, got);
}

void glr_hook_glGetProgramBinaryOES(GLuint program, GLsizei size, GLsizei *length, GLenum *format, void *binary)
{
    GLsizei local = 0;
    glr_call_glGetProgramBinaryOES(program, size, length ? length : &local, format, binary);
    GLsizei got = length ? *length : local;
    if (got > 0 && got <= size)
        glr_program_cache_store(program, binary, got);
}
