/* The GL state the shared size rules (registry/glr_sizes.h) read while recording: the
 * program's current context, through the real driver. State the context does not have reads as 0
 * without a query, so the program never sees a GL error of ours: OpenGL ES 2 has no unpack row
 * length, skips or image height and no pixel unpack buffer; desktop GL before 2.1 has no pixel
 * unpack buffer. */
#include "shim/shim_internal.h"
#include "shim/capture_file.h"
#include "shim/recorder.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

static bool context_lacks(uint32_t pname)
{
    const struct glr_ctx_desc *cd = glr_current_ctx_desc();
    if (!cd)
        return false;
    bool es2 = cd->is_es && cd->major < 3;
    bool pre21 = !cd->is_es && (cd->major < 2 || (cd->major == 2 && cd->minor < 1));
    switch (pname) {
    case GL_UNPACK_ROW_LENGTH: case GL_UNPACK_SKIP_ROWS: case GL_UNPACK_SKIP_PIXELS:
    case GL_UNPACK_SKIP_IMAGES: case GL_UNPACK_IMAGE_HEIGHT:
        return es2;
    case GL_PIXEL_UNPACK_BUFFER_BINDING:
        return es2 || pre21;
    default:
        return false;
    }
}

static int32_t program_get_int(void *user, uint32_t pname)
{
    (void)user;
    if (context_lacks(pname))
        return 0;
    GLint v = 0;
    GLR_REAL(glGetIntegerv)(pname, &v);
    return v;
}

const struct glr_size_env glr_rec_size_env = { program_get_int, NULL };
