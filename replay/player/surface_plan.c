/* The default framebuffer a replay gives each captured context. One rule for every consumer (the
 * headless replayer, `glreplay model`'s driver side and the GPU model) so that they all draw into
 * a surface of the same size: when they disagree, a comparison measures the sizes, not the
 * rendering. */
#include "replay/player/player.h"

void glrh_plan_surface(const struct glrh_capture *cap, unsigned index, struct glrh_surface *out)
{
    out->w = out->h = 0;
    out->alpha = false;
    if (index >= cap->n_ctxs)
        return;
    const struct glrh_context *desc = &cap->ctxs[index];
    unsigned dw = 0, dh = 0;
    for (unsigned i = 0; i < cap->n_images; i++) {
        const struct glrh_image *im = &cap->images[i];
        if (im->fbo)
            continue;
        if ((uint64_t)im->width * im->height > (uint64_t)dw * dh) {
            dw = im->width;
            dh = im->height;
        }
        if (im->ctx_id != desc->id)
            continue;
        if (!out->w) {   /* the window it swapped first */
            out->w = im->width;
            out->h = im->height;
        }
        /* A window without alpha reads back 255: any other alpha means the window had alpha. */
        size_t n = (size_t)im->width * im->height;
        for (size_t p = 0; p < n && !out->alpha; p++)
            out->alpha = im->pixels[4 * p + 3] != 255;
    }
    /* The window's own alpha bits, where the capture says them: an image drawn with alpha 1
     * everywhere cannot tell, and a program that never swapped left no image. */
    if (desc->alpha_known)
        out->alpha = desc->alpha_bits > 0;
    /* Frames kept only as a hash still say the window's size. */
    for (unsigned i = 0; !out->w && i < cap->n_hashes; i++)
        if (!cap->hashes[i].fbo && cap->hashes[i].ctx_id == desc->id) {
            out->w = cap->hashes[i].width;
            out->h = cap->hashes[i].height;
        }
    if (!out->w && desc->surface_w && desc->surface_h) {   /* its surface at its first make-current */
        out->w = desc->surface_w;
        out->h = desc->surface_h;
    }
    if (!out->w) {
        out->w = dw ? dw : 256;
        out->h = dw ? dh : 256;
    }
}
