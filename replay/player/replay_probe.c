/* The pixel probe of pixel history (glrh_options.probe): the driver's value of one pixel after
 * the calls the caller asks for, read between replayed calls without disturbing the replayed
 * state (gl_readback.c saves and restores every binding it touches). */
#include "replay/player/replayer_internal.h"
#include "replay/player/gl_readback.h"
#include "replay/dispatch_internal.h"   /* glr_dispatch_proc, as replay_readback.c */
#include "replay/ms_samples.h"
#include "registry/glr_call_codec.h"

#include <stdlib.h>

/* Every layer of the texture image attached (layered: glFramebufferTexture) at `att` of the bound
 * draw framebuffer (glrh_probe_format.layers > 1), layer after layer: each attached alone to a
 * framebuffer of our own and read as the format says. 0, or -1. */
static int read_layered_attachment(struct replayer *r, GLenum att, unsigned w, unsigned h,
                                   const struct glrh_probe_format *fmt, uint8_t *out)
{
    typedef void (*gen_fn)(GLsizei, GLuint *);
    typedef void (*del_fn)(GLsizei, const GLuint *);
    typedef void (*layer_fn)(GLenum, GLenum, GLuint, GLint, GLint);
    gen_fn gen = (gen_fn)glr_dispatch_proc(r->disp, GLR_CMD_glGenFramebuffers);
    del_fn del = (del_fn)glr_dispatch_proc(r->disp, GLR_CMD_glDeleteFramebuffers);
    layer_fn attach = (layer_fn)glr_dispatch_proc(r->disp, GLR_CMD_glFramebufferTextureLayer);
    const struct glrh_gl *gl = &r->gl;
    if (!gen || !del || !attach || !gl->GetFramebufferAttachmentParameteriv || !gl->BindFramebuffer)
        return -1;
    glrh_gl_drain_errors(gl);
    GLint fbo = 0, type = 0, name = 0, level = 0, old_read = 0;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (!fbo)
        return -1;
    gl->GetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_TEXTURE)
        return -1;
    gl->GetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    gl->GetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_TEXTURE_LEVEL, &level);
    if (glrh_gl_drain_errors(gl) != GL_NO_ERROR || !name)
        return -1;
    GLuint tmp = 0;
    gen(1, &tmp);
    gl->GetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &old_read);
    size_t plane = (size_t)w * h * fmt->bytes;
    int rc = tmp ? 0 : -1;
    for (unsigned l = 0; rc == 0 && l < fmt->layers; l++) {
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, tmp);
        attach(GL_READ_FRAMEBUFFER, att, (GLuint)name, level, (GLint)l);
        gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)old_read);
        rc = glrh_read_framebuffer_as(gl, r->current->desc, tmp, att, w, h, fmt->format, fmt->type, out + l * plane);
    }
    gl->BindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)old_read);
    if (tmp)
        del(1, &tmp);
    if (glrh_gl_drain_errors(gl) != GL_NO_ERROR)
        rc = -1;
    return rc;
}

/* Every sample of the multisample image attached at `att` of the bound draw framebuffer
 * (glrh_probe_format.samples > 1), in replay/ms_samples.h's layout: 0, or -1 when it is not such
 * an image of that size and format, or cannot be read. Bindings are put back by glr_ms_read. */
static int read_ms_attachment(struct replayer *r, GLenum att, unsigned w, unsigned h,
                              const struct glrh_probe_format *fmt, void *out)
{
    struct glr_ms_gl ms;
#define MS_FILL(ret, name, params) ms.name = (ret(*) params)glr_dispatch_proc(r->disp, GLR_CMD_##name);
    GLR_MS_GL_FUNCS(MS_FILL)
#undef MS_FILL
    const struct glrh_gl *gl = &r->gl;
    if (!gl->GetFramebufferAttachmentParameteriv || !ms.glBlitFramebuffer || !ms.glTexImage2DMultisample)
        return -1;
    glrh_gl_drain_errors(gl);
    GLint fbo = 0, type = 0, name = 0;
    gl->GetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &fbo);
    if (!fbo)
        return -1;
    gl->GetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type == GL_TEXTURE || type == GL_RENDERBUFFER)
        gl->GetFramebufferAttachmentParameteriv(GL_DRAW_FRAMEBUFFER, att, GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME, &name);
    if (glrh_gl_drain_errors(gl) != GL_NO_ERROR || !name)
        return -1;
    struct glr_ms_image img = { type == GL_RENDERBUFFER ? GL_RENDERBUFFER : GL_TEXTURE_2D_MULTISAMPLE, (unsigned)name,
                                fmt->internal_format, (int)w, (int)h, 1, (int)fmt->samples };
    unsigned f, t, bpp;
    if (!glr_ms_transfer(img.internal_format, &f, &t, &bpp) || f != fmt->format || t != fmt->type ||
        bpp != fmt->bytes || glr_ms_size(&img) != (uint64_t)w * h * bpp * fmt->samples)
        return -1;
    bool stencil_kept = true;
    char why[200];
    int rc = glr_ms_read(&ms, &img, out, &stencil_kept, why, sizeof why);
    if (glrh_gl_drain_errors(gl) != GL_NO_ERROR)
        rc = -1;
    return rc == 0 && stencil_kept ? 0 : -1;
}

void glrh_probe_after_call(struct replayer *r, const struct glr_call *c)
{
    const struct glrh_probe *p = r->opt->probe;
    uint32_t buffer = 0;
    if (!r->current || !p->want(p->user, r->record, c, &buffer))
        return;
    uint8_t px[4] = { 0, 0, 0, 0 };
    bool ok = glrh_read_draw_pixel(&r->gl, r->current->desc, (GLenum)buffer, p->x, p->y, px) == 0;
    p->got(p->user, r->record, ok, px);
    if (!p->want_image)
        return;
    uint32_t att;
    unsigned w, h;
    struct glrh_probe_format fmt = { GL_RGBA, GL_UNSIGNED_BYTE, 4, 0, 0, 0 };
    for (int i = 0; p->want_image(p->user, r->record, i, &att, &w, &h, &fmt); i++) {
        unsigned samples = fmt.samples > 1 ? fmt.samples : 1, layers = fmt.layers > 1 ? fmt.layers : 1;
        bool ok_size = w && h && w <= 16384 && h <= 16384 && fmt.bytes && fmt.bytes <= 16 && samples <= 32 &&
                       layers <= 2048 * 6 && (samples == 1 || layers == 1);
        uint8_t *img = ok_size ? malloc((size_t)w * h * fmt.bytes * samples * layers) : NULL;
        bool rgba8 = fmt.format == GL_RGBA && fmt.type == GL_UNSIGNED_BYTE;
        bool got = img && (samples > 1 ? read_ms_attachment(r, (GLenum)att, w, h, &fmt, img)
                           : layers > 1 ? read_layered_attachment(r, (GLenum)att, w, h, &fmt, img)
                           : rgba8 ? glrh_read_draw_attachment(&r->gl, r->current->desc, (GLenum)att, w, h, img)
                                   : glrh_read_draw_attachment_as(&r->gl, r->current->desc, (GLenum)att, w, h,
                                                                  fmt.format, fmt.type, img)) == 0;
        fmt = (struct glrh_probe_format){ GL_RGBA, GL_UNSIGNED_BYTE, 4, 0, 0, 0 };
        if (!p->got_image(p->user, r->record, i, got ? img : NULL))
            free(img);
    }
}
