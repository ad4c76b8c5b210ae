/* Which commands GL compiles into a display list (glr_registry.h), shared by the shim's list
 * recorder and the GPU model's lists compiled inside a captured frame. */
#include <stdbool.h>
#include <string.h>
#include "registry/glr_registry.h"

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* GL executes these at once even between glNewList and glEndList (OpenGL 4.6 compatibility
 * profile, 21.4.1 "Commands Not Usable In Display Lists"): queries, object names, client state and
 * client-memory pointers, pixel store, buffer object data, shader/program building, framebuffer
 * and renderbuffer objects, sync, feedback/select. */
static bool executed_immediately(const char *n)
{
    static const char *const prefixes[] = {
        "glGet", "glIs", "glGen", "glDelete", "glCreate", "glNewList", "glEndList", "glFeedbackBuffer",
        "glSelectBuffer", "glRenderMode", "glReadPixels", "glReadnPixels", "glFlush", "glFinish", "glFenceSync",
        "glClientWaitSync", "glWaitSync", "glPixelStore", "glClientActiveTexture", "glEnableClientState",
        "glDisableClientState", "glPushClientAttrib", "glPopClientAttrib", "glClientAttribDefault",
        "glInterleavedArrays", "glEnableVertexAttribArray", "glDisableVertexAttribArray", "glEnableVertexArray",
        "glDisableVertexArray", "glVertexAttribBinding", "glVertexBindingDivisor", "glBindVertexBuffer",
        "glBindVertexArray", "glVertexArray", "glBindBuffer", "glBufferData", "glBufferSubData", "glBufferStorage",
        "glNamedBuffer", "glMapBuffer", "glMapNamedBuffer", "glUnmapBuffer", "glUnmapNamedBuffer",
        "glFlushMapped", "glCopyBufferSubData", "glCopyNamedBufferSubData", "glClearBufferData",
        "glClearBufferSubData", "glClearNamedBufferData", "glClearNamedBufferSubData", "glInvalidateBuffer",
        "glShaderSource", "glCompileShader", "glAttachShader", "glAttachObject", "glDetachShader", "glDetachObject",
        "glLinkProgram", "glValidateProgram", "glBindAttribLocation", "glBindFragDataLocation", "glShaderBinary",
        "glProgramBinary", "glProgramParameteri", "glTransformFeedbackVaryings", "glReleaseShaderCompiler",
        "glSpecializeShader", "glBindFramebuffer", "glBindRenderbuffer", "glFramebufferTexture",
        "glFramebufferRenderbuffer", "glFramebufferParameteri", "glRenderbufferStorage", "glNamedFramebuffer",
        "glNamedRenderbuffer", "glCheckFramebufferStatus", "glCheckNamedFramebufferStatus", "glGenerateMipmap",
        "glGenerateTextureMipmap",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts(n, prefixes[i]))
            return true;
    /* glVertexPointer, glVertexAttribPointer, glTexCoordPointer, ...; glVertexAttrib*Format. */
    return strstr(n, "Pointer") != NULL || (starts(n, "glVertexAttrib") && strstr(n, "Format"));
}

bool glr_cmd_compiled_into_list(uint32_t cmd)
{
    /* 0 unknown, 1 compiled, 2 executed at once; filled on first use (races write equal values). */
    static uint8_t table[GLR_CMD_COUNT];
    if (cmd >= GLR_CMD_COUNT)
        return false;
    uint8_t t = __atomic_load_n(&table[cmd], __ATOMIC_RELAXED);
    if (!t) {
        t = glr_cmds[cmd].api == GLR_API_GL && !executed_immediately(glr_cmd_name(cmd)) ? 1 : 2;
        __atomic_store_n(&table[cmd], t, __ATOMIC_RELAXED);
    }
    return t == 1;
}
