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
    for (int i = 0; p->want_image(p->user, r->record, i, &att, &w, &h); i++) {
        uint8_t *img = w && h && w <= 16384 && h <= 16384 ? malloc((size_t)w * h * 4) : NULL;
        bool got = img && glrh_read_draw_attachment(&r->gl, r->current->desc, (GLenum)att, w, h, img) == 0;
        if (!p->got_image(p->user, r->record, i, got ? img : NULL))
            free(img);
    }
}
