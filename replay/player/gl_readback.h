/* The few GL functions the headless replayer calls itself (read-backs, client arrays), resolved
 * from the driver, and read-backs that leave the replayed GL state exactly as they found it.
 * Internal to replay/player. */
#ifndef GLRH_GL_READBACK_H
#define GLRH_GL_READBACK_H

#include <stdbool.h>
#include <stdint.h>
#include <GL/glcorearb.h>
#include "replay/player/player.h"

struct glrh_gl {
    PFNGLREADPIXELSPROC ReadPixels;
    PFNGLGETINTEGERVPROC GetIntegerv;
    PFNGLBINDFRAMEBUFFERPROC BindFramebuffer;
    PFNGLREADBUFFERPROC ReadBuffer;
    PFNGLPIXELSTOREIPROC PixelStorei;
    PFNGLBINDBUFFERPROC BindBuffer;
    PFNGLGETERRORPROC GetError;
    PFNGLFINISHPROC Finish;
    PFNGLFLUSHPROC Flush;
    PFNGLVERTEXATTRIBPOINTERPROC VertexAttribPointer;
    PFNGLVERTEXATTRIBIPOINTERPROC VertexAttribIPointer;
    PFNGLGETFRAMEBUFFERATTACHMENTPARAMETERIVPROC GetFramebufferAttachmentParameteriv;
    PFNGLGETTEXTURELEVELPARAMETERIVPROC GetTextureLevelParameteriv;
    PFNGLGETNAMEDRENDERBUFFERPARAMETERIVPROC GetNamedRenderbufferParameteriv;
    PFNGLGETFLOATVPROC GetFloatv;
    void (*PixelTransferf)(GLenum pname, GLfloat param);   /* compatibility only */
};

/* gl_transfer.c: the glPixelTransfer values glReadPixels applies (scales, biases, GL_MAP_COLOR)
 * set to their defaults around a read-back in a compatibility context, then put back. */
#define GLRH_TRANSFER_VALUES 11
struct glrh_saved_transfer {
    GLfloat v[GLRH_TRANSFER_VALUES];
    unsigned changed;   /* bit i: value i was not the default and was reset */
};
bool glrh_context_compat(const struct glrh_context *d);   /* pixel transfer state exists */
void glrh_transfer_save_and_reset(const struct glrh_gl *gl, bool compat, struct glrh_saved_transfer *s);
void glrh_transfer_restore(const struct glrh_gl *gl, const struct glrh_saved_transfer *s);

/* false (with the missing name in *missing) when a function every context needs is absent. */
bool glrh_gl_load(struct glrh_gl *gl, const char **missing);

/* Drains the GL error flags; returns the first one (GL_NO_ERROR if none). */
GLenum glrh_gl_drain_errors(const struct glrh_gl *gl);

/* The default framebuffer's back buffer, w x h RGBA8 rows bottom-up, of the current context
 * (described by d). 0 on success. */
int glrh_read_back_buffer(const struct glrh_gl *gl, const struct glrh_context *d, unsigned w, unsigned h,
                          uint8_t *pixels);

/* Colour attachment `att` (GL_COLOR_ATTACHMENTi) of the framebuffer object bound for drawing, or
 * GL_BACK while the default framebuffer is bound for drawing, w x h RGBA8 rows bottom-up. -1 when
 * `att` does not name an image of the bound framebuffer or it cannot be read as RGBA8. */
int glrh_read_draw_attachment(const struct glrh_gl *gl, const struct glrh_context *d, GLenum att, unsigned w,
                              unsigned h, uint8_t *pixels);
/* The same for any attachment of the framebuffer object bound for drawing (GL_DEPTH_ATTACHMENT,
 * GL_DEPTH_STENCIL_ATTACHMENT too) in any glReadPixels format and type: pixels holds w x h of
 * them, rows bottom-up. The pixel history takes float and depth images of earlier passes so. */
int glrh_read_draw_attachment_as(const struct glrh_gl *gl, const struct glrh_context *d, GLenum att, unsigned w,
                                 unsigned h, GLenum format, GLenum type, void *pixels);
/* The same from framebuffer object `fbo` (bound for reading meanwhile, then put back): colour
 * attachment `att`, or the depth/stencil image when att is not a colour attachment. */
int glrh_read_framebuffer_as(const struct glrh_gl *gl, const struct glrh_context *d, GLuint fbo, GLenum att,
                             unsigned w, unsigned h, GLenum format, GLenum type, void *pixels);

/* The colour buffer the current draw framebuffer draws to first (draw buffer 0), as RGBA8 rows
 * bottom-up, in a malloc'd buffer. The default framebuffer is surf_w x surf_h. -1 when it cannot
 * be read as RGBA8 (an integer or depth-only target, no colour attachment). */
int glrh_read_draw_buffer(const struct glrh_gl *gl, const struct glrh_context *d, unsigned surf_w, unsigned surf_h,
                          uint8_t **pixels, unsigned *w, unsigned *h);

/* One pixel (x, y) of the framebuffer bound for drawing: colour buffer `buffer`
 * (GL_COLOR_ATTACHMENTi) of a framebuffer object, the back buffer of the default one; RGBA8.
 * 0, or -1 when it cannot be read. */
int glrh_read_draw_pixel(const struct glrh_gl *gl, const struct glrh_context *d, GLenum buffer, int x, int y,
                         uint8_t rgba[4]);

#endif
