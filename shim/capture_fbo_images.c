/* Reference images of the framebuffer bound for drawing at the end of a captured frame: every
 * colour attachment it draws to, besides the default framebuffer's back buffer (capture_readback.c).
 * Programs that finish a frame with an FBO bound (render-to-texture tools, offscreen renderers)
 * get their real output checked by `glreplay replay --verify`.
 *
 * Read through GLR_REAL only, under the snapshot's error discipline (shim/snapshot.h): the
 * program's pending error is kept, every binding touched (read framebuffer, its read buffer, the
 * active unit's texture binding, the renderbuffer binding, pixel-pack state) is put back. */
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "shim/capture_file.h"
#include "registry/glr_gl_enums.h"

#define MAX_ATTACHMENT_IMAGES 8

/* Width and height of an attachment of the bound draw framebuffer; false when unknown. */
static bool attachment_size(struct glr_snap *sn, GLenum att, GLint *w, GLint *h)
{
    GLint type = GL_NONE, name = 0;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, att,
                                                    GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_NONE)
        return false;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, att,
                                                    GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    *w = *h = 0;
    if (type == GL_RENDERBUFFER) {
        GLint saved = 0;
        GLR_REAL(glGetIntegerv)(GL_RENDERBUFFER_BINDING, &saved);
        GLR_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, (GLuint)name);
        GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, w);
        GLR_REAL(glGetRenderbufferParameteriv)(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, h);
        GLR_REAL(glBindRenderbuffer)(GL_RENDERBUFFER, (GLuint)saved);
        return *w > 0 && *h > 0;
    }
    if (type != GL_TEXTURE || !glr_snap_has(sn, 1, 0, 3, 1)) /* GetTexLevelParameter: ES 3.1 */
        return false;
    GLenum target = glr_snap_texture_target(sn, (GLuint)name);
    GLenum binding = glr_snap_texture_binding(target);
    if (!binding || target == GL_TEXTURE_BUFFER || target == GL_TEXTURE_2D_MULTISAMPLE ||
        target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY || target == GL_TEXTURE_EXTERNAL_OES)
        return false; /* not read as images */
    GLint level = 0, face = 0;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, att,
                                                    GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    GLenum query = target;
    if (target == GL_TEXTURE_CUBE_MAP) {
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, att,
                                                        GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_CUBE_MAP_FACE, &face);
        query = face ? (GLenum)face : GL_TEXTURE_CUBE_MAP_POSITIVE_X;
    }
    GLint saved = 0;
    GLR_REAL(glGetIntegerv)(binding, &saved);
    GLR_REAL(glBindTexture)(target, (GLuint)name);
    GLR_REAL(glGetTexLevelParameteriv)(query, level, GL_TEXTURE_WIDTH, w);
    GLR_REAL(glGetTexLevelParameteriv)(query, level, GL_TEXTURE_HEIGHT, h);
    GLR_REAL(glBindTexture)(target, (GLuint)saved);
    return *w > 0 && *h > 0 && *w <= 16384 && *h <= 16384;
}

static bool append(struct glr_ref_image **images, unsigned *n, const struct glr_ref_image *im)
{
    struct glr_ref_image *p = realloc(*images, (*n + 1) * sizeof *p);
    if (!p)
        return false;
    *images = p;
    p[(*n)++] = *im;
    return true;
}

bool glr_draw_fbo_bound_cheap(void)
{
    /* GL_DRAW_FRAMEBUFFER_BINDING (GL 3.0, ES 3.0) has the value of GL_FRAMEBUFFER_BINDING
     * (ARB/EXT_framebuffer_object, ES 2.0). Older contexts may lack both: asking would raise an
     * error the program could see, so they count as drawing into their surface. */
    const struct glr_ctx_desc *d = glr_current_ctx_desc();
    if (!d || (d->is_es ? d->major < 2 : d->major < 3))
        return false;
    GLint fbo = 0;
    GLR_REAL(glGetIntegerv)(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    return fbo != 0;
}

unsigned glr_read_draw_fbo_images(struct glr_ref_image **images, unsigned *n_images)
{
    struct glr_snap_guard g;
    if (!glr_snap_guard_begin(&g))
        return 0;
    struct glr_snap *sn = &g.sn;
    unsigned added = 0;
    GLint fbo = 0;
    if (glr_snap_has(sn, 3, 0, 3, 0))
        GLR_REAL(glGetIntegerv)(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (!fbo) {
        glr_snap_guard_end(&g);
        return 0;
    }
    GLint samples = 0, max_db = 1;
    GLR_REAL(glGetIntegerv)(GL_SAMPLES, &samples);
    GLR_REAL(glGetIntegerv)(GL_MAX_DRAW_BUFFERS, &max_db);
    if (max_db > MAX_ATTACHMENT_IMAGES)
        max_db = MAX_ATTACHMENT_IMAGES;
    if (samples > 0) {
        glr_log(GLR_LOG_INFO, "capture: framebuffer %d bound for drawing at the swap is multisampled; its "
                "attachments are not kept as reference images", fbo);
        glr_snap_guard_end(&g);
        return 0;
    }
    GLint read_fbo = 0;
    GLR_REAL(glGetIntegerv)(GL_READ_FRAMEBUFFER_BINDING, &read_fbo);
    GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)fbo);
    GLint read_buf = GL_NONE;
    GLR_REAL(glGetIntegerv)(GL_READ_BUFFER, &read_buf);
    for (GLint i = 0; i < max_db; i++) {
        GLint att = GL_NONE;
        GLR_REAL(glGetIntegerv)(GL_DRAW_BUFFER0 + (GLenum)i, &att);
        if (att < GL_COLOR_ATTACHMENT0 || att >= GL_COLOR_ATTACHMENT0 + 32)
            continue;
        GLint ctype = GL_NONE, w = 0, h = 0;
        if (!attachment_size(sn, (GLenum)att, &w, &h))
            continue;
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, (GLenum)att,
                                                        GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE, &ctype);
        if (ctype == GL_INT || ctype == GL_UNSIGNED_INT) {
            glr_log(GLR_LOG_INFO, "capture: framebuffer %d attachment 0x%04x is an integer format; not kept as "
                    "a reference image", fbo, (unsigned)att);
            continue;
        }
        struct glr_ref_image im = { .fbo = (uint32_t)fbo, .attachment = (uint32_t)att,
                                    .width = (uint32_t)w, .height = (uint32_t)h };
        im.pixels = malloc((size_t)w * (size_t)h * 4);
        if (!im.pixels)
            break;
        while (GLR_REAL(glGetError)() != GL_NO_ERROR)
            ;
        struct glr_snap_pack pk;
        GLR_REAL(glReadBuffer)((GLenum)att);
        glr_snap_pack_begin(sn, &pk);
        GLR_REAL(glReadPixels)(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, im.pixels);
        glr_snap_pack_end(sn, &pk);
        if (GLR_REAL(glGetError)() != GL_NO_ERROR || !append(images, n_images, &im)) {
            free(im.pixels);
            continue;
        }
        added++;
    }
    GLR_REAL(glReadBuffer)((GLenum)read_buf);
    GLR_REAL(glBindFramebuffer)(GL_READ_FRAMEBUFFER, (GLuint)read_fbo);
    glr_snap_guard_end(&g);
    return added;
}
