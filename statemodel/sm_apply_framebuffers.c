/* Framebuffer objects: attachments, draw/read buffers, default parameters. */
#include <string.h>
#include "statemodel/sm_apply.h"

static struct sm_framebuffer *fb_of(struct sm_ap *a, bool named, uint32_t arg)
{
    return named ? ap_fbo(a, arg) : ap_bound_fbo(a, arg);
}

static void attach(struct sm_ap *a, struct sm_framebuffer *f, uint32_t point,
                   struct sm_attachment at)
{
    if (!f)
        return;
    if (!f->name) {
        ap_error(a, "attachment to the default framebuffer");
        return;
    }
    if (!at.name)
        memset(&at, 0, sizeof at);
    if (point >= GL_COLOR_ATTACHMENT0 && point < GL_COLOR_ATTACHMENT0 + SM_MAX_COLOR_ATTACH) {
        f->color[point - GL_COLOR_ATTACHMENT0] = at;
    } else if (point == GL_DEPTH_ATTACHMENT) {
        f->depth = at;
    } else if (point == GL_STENCIL_ATTACHMENT) {
        f->stencil = at;
    } else if (point == GL_DEPTH_STENCIL_ATTACHMENT) {
        f->depth = at;
        f->stencil = at;
    } else {
        ap_error(a, "invalid attachment point");
    }
}

static bool layered_target(uint32_t t)
{
    return t == GL_TEXTURE_3D || t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ||
           t == GL_TEXTURE_CUBE_MAP || t == GL_TEXTURE_CUBE_MAP_ARRAY ||
           t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

/* glFramebufferTexture(target, attachment, texture, level) / glNamedFramebufferTexture(fb, ...) */
static void h_fb_texture(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferTexture;
    uint32_t tex = ap_u(a, 2);
    struct sm_texture *t = tex ? ap_texture(a, tex, false) : NULL;
    if (tex && !t) {
        ap_error(a, "no such texture");
        return;
    }
    attach(a, fb_of(a, named, ap_u(a, 0)), ap_u(a, 1),
           (struct sm_attachment){ .type = GL_TEXTURE, .name = tex, .level = ap_i(a, 3),
                                   .layered = t && layered_target(t->target) });
}

/* glFramebufferTexture1D/2D(target, attachment, textarget, texture, level), 3D(..., zoffset) */
static void h_fb_texture_nd(struct sm_ap *a)
{
    bool is3d = a->cmd == GLR_CMD_glFramebufferTexture3D;
    attach(a, fb_of(a, false, ap_u(a, 0)), ap_u(a, 1),
           (struct sm_attachment){ .type = GL_TEXTURE, .name = ap_u(a, 3), .level = ap_i(a, 4),
                                   .textarget = ap_u(a, 2), .layer = is3d ? ap_i(a, 5) : 0 });
}

/* glFramebufferTextureLayer(target, attachment, texture, level, layer) and the named form */
static void h_fb_texture_layer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferTextureLayer;
    attach(a, fb_of(a, named, ap_u(a, 0)), ap_u(a, 1),
           (struct sm_attachment){ .type = GL_TEXTURE, .name = ap_u(a, 2), .level = ap_i(a, 3),
                                   .layer = ap_i(a, 4) });
}

/* glFramebufferRenderbuffer(target, attachment, rbtarget, renderbuffer) and the named form */
static void h_fb_renderbuffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferRenderbuffer;
    attach(a, fb_of(a, named, ap_u(a, 0)), ap_u(a, 1),
           (struct sm_attachment){ .type = GL_RENDERBUFFER, .name = ap_u(a, 3) });
}

static void set_draw_buffers(struct sm_ap *a, struct sm_framebuffer *f, int32_t n,
                             const uint32_t *bufs)
{
    if (!f)
        return;
    if (n < 0 || n > SM_MAX_DRAW_BUFFERS) {
        ap_error(a, "draw buffer count out of range");
        return;
    }
    for (int i = 0; i < SM_MAX_DRAW_BUFFERS; i++)
        f->draw_buffers[i] = i < n ? bufs[i] : GL_NONE;
    f->n_draw_buffers = (uint32_t)n;
}

static void h_draw_buffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferDrawBuffer;
    struct sm_framebuffer *f = named ? ap_fbo(a, ap_u(a, 0)) : ap_fbo(a, a->c->st.draw_fbo);
    uint32_t buf = ap_u(a, named ? 1 : 0);
    set_draw_buffers(a, f, 1, &buf);
}

static void h_draw_buffers(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferDrawBuffers;
    struct sm_framebuffer *f = named ? ap_fbo(a, ap_u(a, 0)) : ap_fbo(a, a->c->st.draw_fbo);
    int32_t n = ap_i(a, named ? 1 : 0);
    const uint32_t *bufs = n > 0 ? ap_blob(a, named ? 2 : 1, (uint64_t)n * 4) : NULL;
    if (n > 0 && !bufs) {
        ap_error(a, "draw buffers missing from the recorded call");
        return;
    }
    set_draw_buffers(a, f, n, bufs);
}

static void h_read_buffer(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferReadBuffer;
    struct sm_framebuffer *f = named ? ap_fbo(a, ap_u(a, 0)) : ap_fbo(a, a->c->st.read_fbo);
    if (f)
        f->read_buffer = ap_u(a, named ? 1 : 0);
}

static void h_fb_parameter(struct sm_ap *a)
{
    bool named = a->cmd == GLR_CMD_glNamedFramebufferParameteri;
    struct sm_framebuffer *f = fb_of(a, named, ap_u(a, 0));
    if (!f)
        return;
    int32_t v = ap_i(a, 2);
    switch (ap_u(a, 1)) {
    case GL_FRAMEBUFFER_DEFAULT_WIDTH: f->default_width = v; break;
    case GL_FRAMEBUFFER_DEFAULT_HEIGHT: f->default_height = v; break;
    case GL_FRAMEBUFFER_DEFAULT_LAYERS: f->default_layers = v; break;
    case GL_FRAMEBUFFER_DEFAULT_SAMPLES: f->default_samples = v; break;
    case GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS: f->default_fixed_sample_locations = v != 0; break;
    default: ap_error(a, "framebuffer parameter not modelled"); break;
    }
}

void sm_register_framebuffers(sm_apply_fn *t)
{
    t[GLR_CMD_glFramebufferTexture] = h_fb_texture;
    t[GLR_CMD_glNamedFramebufferTexture] = h_fb_texture;
    t[GLR_CMD_glFramebufferTexture1D] = h_fb_texture_nd;
    t[GLR_CMD_glFramebufferTexture2D] = h_fb_texture_nd;
    t[GLR_CMD_glFramebufferTexture3D] = h_fb_texture_nd;
    t[GLR_CMD_glFramebufferTextureLayer] = h_fb_texture_layer;
    t[GLR_CMD_glNamedFramebufferTextureLayer] = h_fb_texture_layer;
    t[GLR_CMD_glFramebufferRenderbuffer] = h_fb_renderbuffer;
    t[GLR_CMD_glNamedFramebufferRenderbuffer] = h_fb_renderbuffer;
    t[GLR_CMD_glDrawBuffer] = h_draw_buffer;
    t[GLR_CMD_glNamedFramebufferDrawBuffer] = h_draw_buffer;
    t[GLR_CMD_glDrawBuffers] = h_draw_buffers;
    t[GLR_CMD_glNamedFramebufferDrawBuffers] = h_draw_buffers;
    t[GLR_CMD_glReadBuffer] = h_read_buffer;
    t[GLR_CMD_glNamedFramebufferReadBuffer] = h_read_buffer;
    t[GLR_CMD_glFramebufferParameteri] = h_fb_parameter;
    t[GLR_CMD_glNamedFramebufferParameteri] = h_fb_parameter;
}
