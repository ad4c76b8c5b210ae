/* The pixel probe of pixel history (glrh_options.probe): the driver's value of one pixel after
 * the calls the caller asks for, read between replayed calls without disturbing the replayed
 * state (gl_readback.c saves and restores every binding it touches). */
#include "replay/player/replayer_internal.h"
#include "replay/player/gl_readback.h"

#include <stdlib.h>

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
    struct glrh_probe_format fmt = { GL_RGBA, GL_UNSIGNED_BYTE, 4 };
    for (int i = 0; p->want_image(p->user, r->record, i, &att, &w, &h, &fmt); i++) {
        bool ok_size = w && h && w <= 16384 && h <= 16384 && fmt.bytes && fmt.bytes <= 16;
        uint8_t *img = ok_size ? malloc((size_t)w * h * fmt.bytes) : NULL;
        bool rgba8 = fmt.format == GL_RGBA && fmt.type == GL_UNSIGNED_BYTE;
        bool got = img && (rgba8 ? glrh_read_draw_attachment(&r->gl, r->current->desc, (GLenum)att, w, h, img)
                                 : glrh_read_draw_attachment_as(&r->gl, r->current->desc, (GLenum)att, w, h,
                                                                fmt.format, fmt.type, img)) == 0;
        fmt = (struct glrh_probe_format){ GL_RGBA, GL_UNSIGNED_BYTE, 4 };
        if (!p->got_image(p->user, r->record, i, got ? img : NULL))
            free(img);
    }
}
