/* Block names at link time. A shader names its uniform and storage blocks; the driver numbers
 * them at link, and the program binds each by that number (glUniformBlockBinding). A replay on
 * the driver needs nothing more, but the GPU model compiles the source itself and must learn
 * which of its blocks the driver gave which index. When the program asked (glGetUniformBlockIndex)
 * the capture holds the answer; when it did not (piglit's shader_runner, programs that rely on the
 * declaration order), the shim asks the driver right after a link recorded in a capture and
 * records the queries with their answers, after the link's own record: exactly the calls the
 * program could have made. The snapshot does the same for programs linked before the capture
 * (snapshot_objects.c). Only valid queries on a linked program: no GL error is raised. */
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_file.h"
#include "registry/glr_gl_enums.h"

static void record_name(GLuint prog, GLuint index, const char *name, bool storage)
{
    uint64_t args[3] = { prog, storage ? GL_SHADER_STORAGE_BLOCK : (uintptr_t)name, (uintptr_t)name };
    struct glr_rec *r = storage ? glr_rec_begin(GLR_CMD_glGetProgramResourceIndex, args, 3, index)
                                : glr_rec_begin(GLR_CMD_glGetUniformBlockIndex, args, 2, index);
    if (!r)
        return;
    glr_rec_string(r, name);
    glr_rec_end(r);
}

static void record_blocks(GLuint prog, bool storage)
{
    GLint n = 0;
    if (storage)
        GLR_REAL(glGetProgramInterfaceiv)(prog, GL_SHADER_STORAGE_BLOCK, GL_ACTIVE_RESOURCES, &n);
    else
        GLR_REAL(glGetProgramiv)(prog, GL_ACTIVE_UNIFORM_BLOCKS, &n);
    for (GLint i = 0; i < n && i < 4096; i++) {
        char name[256];
        GLsizei len = 0;
        if (storage)
            GLR_REAL(glGetProgramResourceName)(prog, GL_SHADER_STORAGE_BLOCK, (GLuint)i, (GLsizei)sizeof name, &len,
                                               name);
        else
            GLR_REAL(glGetActiveUniformBlockName)(prog, (GLuint)i, (GLsizei)sizeof name, &len, name);
        if (len <= 0 || (size_t)len >= sizeof name)
            continue;   /* longer than any real block name: the model then says it guessed */
        name[len] = 0;
        record_name(prog, (GLuint)i, name, storage);
    }
}

void glr_rec_link_names(uint64_t program)
{
    uint64_t epoch;
    if (!glr_capture_recording(&epoch) || !program || program > UINT32_MAX)
        return;
    const struct glr_ctx_desc *d = glr_current_ctx_desc();
    if (!d)
        return;
    int v = d->major * 10 + d->minor;
    bool ubo = d->is_es ? v >= 30 : v >= 31;
    bool ssbo = d->is_es ? v >= 31 : v >= 43;
    GLuint prog = (GLuint)program;
    if (!ubo || !GLR_REAL(glIsProgram)(prog))
        return;
    GLint linked = 0;
    GLR_REAL(glGetProgramiv)(prog, GL_LINK_STATUS, &linked);
    if (!linked)
        return;
    record_blocks(prog, false);
    if (ssbo)
        record_blocks(prog, true);
}
