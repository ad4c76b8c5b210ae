/* gmf_pixel_watch.c - the frame runner's side of pixel history: the watched pixel handed to
 * the pipeline's fragment observer, and one pixel of a colour target read as the model holds
 * it (RGBA8 converted exactly as gmf_read_color does, so it compares with the driver's
 * read-back). See debugger/pixel/ and docs/PIXEL_HISTORY.md. */
#include <string.h>

#include "gmf_internal.h"

void gmf_set_pixel_watch(gmf_runner *r, gm_pipe_watch *w)
{
    r->pipe.watch = w;
}

uint32_t gmf_draw_framebuffer(gmf_runner *r, uint32_t ctx_id)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    return c ? sm_context_state(c)->draw_fbo : 0;
}

int gmf_pixel_read(gmf_runner *r, uint32_t ctx_id, uint32_t fbo, uint32_t buffer, int x, int y,
                   gmf_pixel *out)
{
    memset(out, 0, sizeof *out);
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    if (!c)
        return -1;
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    gm_surface view;
    const gm_surface *s = gmf_fb_read_surface(r, c, fbo, fbo ? buffer : GL_BACK, false, &view, &ev);
    if (!s || !s->data || x < 0 || y < 0 || x >= s->width || y >= s->height)
        return -1;
    const gm_format_info *fi = gm_format_get(s->format);
    if (fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_STENCIL || fi->kind == GM_KIND_DEPTH_STENCIL)
        return -1;
    const uint8_t *t = gm_surface_texel(s, x, y, 0);   /* sample 0, as read-backs give */
    out->id = s->data;
    out->width = s->width;
    out->height = s->height;
    out->integer = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    if (out->integer) {
        gm_format_unpack_rgba_i(s->format, t, out->u);
        return 0;
    }
    float v[4] = { 0, 0, 0, 1 };
    gm_format_unpack_rgba(s->format, t, v);
    gm_format_readback_rgba(s->format, v);
    memcpy(out->f, v, sizeof v);
    if (s->format == GM_FMT_RGBA8)
        memcpy(out->rgba8, t, 4);
    else
        for (int k = 0; k < 4; k++)
            out->rgba8[k] = gm_float_to_unorm8(v[k]);
    return 0;
}
