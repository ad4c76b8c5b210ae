/* Read-backs done between replayed calls. Every binding and pixel-store value they touch is saved
 * and restored, including the read buffer, which is state of the framebuffer object it was set
 * on, so the replayed stream continues from exactly the state it left. Only enums valid for the
 * context's API and version are queried, so no GL error is raised on the way. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/egl_env.h"
#include "replay/player/gl_readback.h"

bool glrh_gl_load(struct glrh_gl *gl, const char **missing)
{
    memset(gl, 0, sizeof *gl);
#define LOAD(field, name, required)                                   \
    do {                                                              \
        *(void **)&gl->field = glrh_egl_proc(name);                   \
        if ((required) && !gl->field) {                               \
            *missing = name;                                          \
            return false;                                             \
        }                                                             \
    } while (0)
    LOAD(ReadPixels, "glReadPixels", true);
    LOAD(GetIntegerv, "glGetIntegerv", true);
    LOAD(PixelStorei, "glPixelStorei", true);
    LOAD(GetError, "glGetError", true);
    LOAD(Finish, "glFinish", true);
    LOAD(Flush, "glFlush", true);
    LOAD(BindBuffer, "glBindBuffer", true);
    LOAD(BindFramebuffer, "glBindFramebuffer", false);
    LOAD(ReadBuffer, "glReadBuffer", false);
    LOAD(VertexAttribPointer, "glVertexAttribPointer", false);
    LOAD(VertexAttribIPointer, "glVertexAttribIPointer", false);
    LOAD(GetFramebufferAttachmentParameteriv, "glGetFramebufferAttachmentParameteriv", false);
    LOAD(GetTextureLevelParameteriv, "glGetTextureLevelParameteriv", false);
    LOAD(GetNamedRenderbufferParameteriv, "glGetNamedRenderbufferParameteriv", false);
    LOAD(GetFloatv, "glGetFloatv", false);
    LOAD(PixelTransferf, "glPixelTransferf", false);
#undef LOAD
    return true;
}

GLenum glrh_gl_drain_errors(const struct glrh_gl *gl)
{
    GLenum first = GL_NO_ERROR, e;
    for (int i = 0; i < 32 && (e = gl->GetError()) != GL_NO_ERROR; i++)
        if (first == GL_NO_ERROR)
            first = e;
    return first;
}

/* What the context's API and version define (the same rules the shim uses when it captures). */
struct features {
    bool split_fbo;   /* GL_READ_FRAMEBUFFER / GL_DRAW_FRAMEBUFFER exist */
    bool pack_params; /* GL_PACK_ROW_LENGTH, SKIP_*, GL_PIXEL_PACK_BUFFER */
    bool read_buffer; /* glReadBuffer */
    bool draw_buffers;/* GL_DRAW_BUFFER0 */
    bool dsa;         /* glGetTextureLevelParameteriv and friends (4.5) */
    bool transfer;    /* glPixelTransfer state applies to read-backs (compatibility) */
};

static struct features features_of(const struct glrh_gl *gl, const struct glrh_context *d)
{
    struct features f = { 0 };
    f.split_fbo = d->major >= 3 && gl->BindFramebuffer;
    f.pack_params = !d->es || d->major >= 3;
    f.read_buffer = (!d->es || d->major >= 3) && gl->ReadBuffer;
    f.draw_buffers = d->es ? d->major >= 3 : d->major >= 2;
    f.dsa = !d->es && (d->major > 4 || (d->major == 4 && d->minor >= 5)) && gl->GetTextureLevelParameteriv &&
            gl->GetNamedRenderbufferParameteriv;
    f.transfer = glrh_context_compat(d);
    return f;
}

struct saved_pack {
    GLint align, row_len, skip_rows, skip_pix, pack_buf;
};

static void pack_save_and_reset(const struct glrh_gl *gl, struct features f, struct saved_pack *s)
{
    memset(s, 0, sizeof *s);
    s->align = 4;
    gl->GetIntegerv(GL_PACK_ALIGNMENT, &s->align);
    if (f.pack_params) {
        gl->GetIntegerv(GL_PACK_ROW_LENGTH, &s->row_len);
        gl->GetIntegerv(GL_PACK_SKIP_ROWS, &s->skip_rows);
        gl->GetIntegerv(GL_PACK_SKIP_PIXELS, &s->skip_pix);
        gl->GetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &s->pack_buf);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, 0);
        gl->PixelStorei(GL_PACK_SKIP_ROWS, 0);
        gl->PixelStorei(GL_PACK_SKIP_PIXELS, 0);
        if (s->pack_buf)
            gl->BindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    }
    gl->PixelStorei(GL_PACK_ALIGNMENT, 1);
}

static void pack_restore(const struct glrh_gl *gl, struct features f, const struct saved_pack *s)
{
    gl->PixelStorei(GL_PACK_ALIGNMENT, s->align);
    if (f.pack_params) {
        if (s->pack_buf)
            gl->BindBuffer(GL_PIXEL_PACK_BUFFER, (GLuint)s->pack_buf);
        gl->PixelStorei(GL_PACK_SKIP_PIXELS, s->skip_pix);
        gl->PixelStorei(GL_PACK_SKIP_ROWS, s->skip_rows);
        gl->PixelStorei(GL_PACK_ROW_LENGTH, s->row_len);
    }
}

/* Reads colour buffer `buffer` (GL_BACK, GL_COLOR_ATTACHMENTi; 0 = leave the read buffer) of
 * framebuffer `fbo` into pixels. */
static int read_framebuffer_as(const struct glrh_gl *gl, struct features f, GLuint fbo, GLenum buffer, int x, int y,
                               unsigned w, unsigned h, GLenum format, GLenum type, void *pixels);

static int read_framebuffer_at(const struct glrh_gl *gl, struct features f, GLuint fbo, GLenum buffer, int x, int y,
                               unsigned w, unsigned h, uint8_t *pixels)
{
    return read_framebuffer_as(gl, f, fbo, buffer, x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
}

/* The same in any format and type glReadPixels takes (depth and depth-stencil too: buffer 0). */
static int read_framebuffer_as(const struct glrh_gl *gl, struct features f, GLuint fbo, GLenum buffer, int x, int y,
                               unsigned w, unsigned h, GLenum format, GLenum type, void *pixels)
{
    GLenum target = f.split_fbo ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLint old_fbo = 0, old_read = 0;
    if (gl->BindFramebuffer)
        gl->GetIntegerv(f.split_fbo ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &old_fbo);
    if ((GLuint)old_fbo != fbo)
        gl->BindFramebuffer(target, fbo);
    bool set_read = f.read_buffer && buffer;
    if (set_read) {
        gl->GetIntegerv(GL_READ_BUFFER, &old_read);
        if ((GLenum)old_read != buffer)
            gl->ReadBuffer(buffer);
    }
    struct saved_pack sp;
    struct glrh_saved_transfer st;
    pack_save_and_reset(gl, f, &sp);
    glrh_transfer_save_and_reset(gl, f.transfer, &st);
    gl->ReadPixels(x, y, (GLsizei)w, (GLsizei)h, format, type, pixels);
    GLenum e = glrh_gl_drain_errors(gl);
    glrh_transfer_restore(gl, &st);
    pack_restore(gl, f, &sp);
    if (set_read && (GLenum)old_read != buffer)
        gl->ReadBuffer((GLenum)old_read);
    if ((GLuint)old_fbo != fbo)
        gl->BindFramebuffer(target, (GLuint)old_fbo);
    return e == GL_NO_ERROR ? 0 : -1;
}

static int read_framebuffer(const struct glrh_gl *gl, struct features f, GLuint fbo, GLenum buffer, unsigned w,
                            unsigned h, uint8_t *pixels)
{
    return read_framebuffer_at(gl, f, fbo, buffer, 0, 0, w, h, pixels);
}

int glrh_read_draw_pixel(const struct glrh_gl *gl, const struct glrh_context *d, GLenum buffer, int x, int y,
                         uint8_t rgba[4])
{
    struct features f = features_of(gl, d);
    glrh_gl_drain_errors(gl);
    GLint fbo = 0;
    if (gl->BindFramebuffer)
        gl->GetIntegerv(f.split_fbo ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fbo);
    return read_framebuffer_at(gl, f, (GLuint)fbo, fbo ? buffer : GL_BACK, x, y, 1, 1, rgba);
}

int glrh_read_back_buffer(const struct glrh_gl *gl, const struct glrh_context *d, unsigned w, unsigned h,
                          uint8_t *pixels)
{
    struct features f = features_of(gl, d);
    /* Errors the replayed stream left are not ours to report as read-back failures. */
    glrh_gl_drain_errors(gl);
    return read_framebuffer(gl, f, 0, GL_BACK, w, h, pixels);
}

int glrh_read_draw_attachment(const struct glrh_gl *gl, const struct glrh_context *d, GLenum att, unsigned w,
                              unsigned h, uint8_t *pixels)
{
    struct features f = features_of(gl, d);
    glrh_gl_drain_errors(gl);
    GLint fbo = 0;
    if (gl->BindFramebuffer)
        gl->GetIntegerv(f.split_fbo ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fbo);
    if (!fbo)   /* the default framebuffer: its back buffer only (the pixel history's cache) */
        return att == GL_BACK ? read_framebuffer(gl, f, 0, GL_BACK, w, h, pixels) : -1;
    return read_framebuffer(gl, f, (GLuint)fbo, att, w, h, pixels);
}

int glrh_read_draw_attachment_as(const struct glrh_gl *gl, const struct glrh_context *d, GLenum att, unsigned w,
                                 unsigned h, GLenum format, GLenum type, void *pixels)
{
    struct features f = features_of(gl, d);
    glrh_gl_drain_errors(gl);
    GLint fbo = 0;
    if (gl->BindFramebuffer)
        gl->GetIntegerv(f.split_fbo ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fbo);
    if (!fbo)
        return -1;
    bool colour = att != GL_DEPTH_ATTACHMENT && att != GL_STENCIL_ATTACHMENT && att != GL_DEPTH_STENCIL_ATTACHMENT;
    return read_framebuffer_as(gl, f, (GLuint)fbo, colour ? att : 0, 0, 0, w, h, format, type, pixels);
}

int glrh_read_framebuffer_as(const struct glrh_gl *gl, const struct glrh_context *d, GLuint fbo, GLenum att,
                             unsigned w, unsigned h, GLenum format, GLenum type, void *pixels)
{
    struct features f = features_of(gl, d);
    glrh_gl_drain_errors(gl);
    bool colour = att != GL_DEPTH_ATTACHMENT && att != GL_STENCIL_ATTACHMENT && att != GL_DEPTH_STENCIL_ATTACHMENT;
    return fbo && f.split_fbo ? read_framebuffer_as(gl, f, fbo, colour ? att : 0, 0, 0, w, h, format, type, pixels)
                              : -1;
}

/* Size of a framebuffer attachment; falls back to the viewport's extent where the context has no
 * direct-state-access queries. */
static void attachment_size(const struct glrh_gl *gl, struct features f, GLuint fbo, GLenum att, unsigned *w,
                            unsigned *h)
{
    GLint vp[4] = { 0, 0, 0, 0 };
    gl->GetIntegerv(GL_VIEWPORT, vp);
    *w = (unsigned)(vp[0] + vp[2] > 0 ? vp[0] + vp[2] : 1);
    *h = (unsigned)(vp[1] + vp[3] > 0 ? vp[1] + vp[3] : 1);
    if (!f.dsa || !gl->GetFramebufferAttachmentParameteriv)
        return;
    GLenum target = GL_READ_FRAMEBUFFER;
    GLint old_fbo = 0;
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &old_fbo);
    gl->BindFramebuffer(target, fbo);
    GLint type = 0, name = 0, level = 0;
    gl->GetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_TEXTURE || type == GL_RENDERBUFFER)
        gl->GetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    if (type == GL_TEXTURE)
        gl->GetFramebufferAttachmentParameteriv(target, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    gl->BindFramebuffer(target, (GLuint)old_fbo);
    GLint tw = 0, th = 0;
    if (type == GL_TEXTURE && name) {
        gl->GetTextureLevelParameteriv((GLuint)name, level, GL_TEXTURE_WIDTH, &tw);
        gl->GetTextureLevelParameteriv((GLuint)name, level, GL_TEXTURE_HEIGHT, &th);
    } else if (type == GL_RENDERBUFFER && name) {
        gl->GetNamedRenderbufferParameteriv((GLuint)name, GL_RENDERBUFFER_WIDTH, &tw);
        gl->GetNamedRenderbufferParameteriv((GLuint)name, GL_RENDERBUFFER_HEIGHT, &th);
    }
    glrh_gl_drain_errors(gl);
    if (tw > 0 && th > 0 && tw <= 16384 && th <= 16384) {
        *w = (unsigned)tw;
        *h = (unsigned)th;
    }
}

int glrh_read_draw_buffer(const struct glrh_gl *gl, const struct glrh_context *d, unsigned surf_w, unsigned surf_h,
                          uint8_t **pixels, unsigned *w, unsigned *h)
{
    struct features f = features_of(gl, d);
    glrh_gl_drain_errors(gl);
    GLint fbo = 0;
    if (gl->BindFramebuffer)
        gl->GetIntegerv(f.split_fbo ? GL_DRAW_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fbo);
    GLint buffer = fbo ? GL_COLOR_ATTACHMENT0 : GL_BACK;
    if (f.draw_buffers) {
        GLint db = GL_NONE;
        gl->GetIntegerv(GL_DRAW_BUFFER0, &db);
        if (db != GL_NONE)
            buffer = db;
    }
    if (fbo) {
        attachment_size(gl, f, (GLuint)fbo, (GLenum)buffer, w, h);
    } else {
        *w = surf_w;
        *h = surf_h;
        /* A pbuffer has one colour buffer: front and back draws both land in it. */
        buffer = GL_BACK;
    }
    *pixels = malloc((size_t)*w * *h * 4);
    if (!*pixels)
        return -1;
    if (read_framebuffer(gl, f, (GLuint)fbo, (GLenum)buffer, *w, *h, *pixels) != 0) {
        free(*pixels);
        *pixels = NULL;
        return -1;
    }
    return 0;
}
