/* Image helpers of the headless replayer: comparing RGBA8 images and writing PNGs.
 * Internal to replay/player. */
#ifndef GLRH_IMAGE_UTIL_H
#define GLRH_IMAGE_UTIL_H

#include <stdint.h>

struct glrh_diff {
    uint64_t pixels;          /* pixels with any channel different */
    unsigned first_x, first_y;/* first differing pixel, origin bottom-left (GL window coordinates) */
    uint8_t got[4], want[4];  /* its values */
    unsigned max_delta;       /* largest absolute channel difference over the image */
};

/* Compares two w x h RGBA8 images with the same row order. */
void glrh_image_diff(const uint8_t *got, const uint8_t *want, unsigned w, unsigned h, struct glrh_diff *d);

/* Writes a w x h RGBA8 image whose rows are stored bottom-up (as glReadPixels gives them) to a
 * PNG file, top row first as viewers expect. 0 on success; -1 with a message in err. */
int glrh_write_png(const char *path, const uint8_t *pixels, unsigned w, unsigned h, char *err, unsigned long err_size);

/* A w x h RGBA8 image scaled down (box filter) so that its longer side is at most max_side (0: no
 * limit); rows keep their order. Sets *tw, *th; malloc'd, NULL when out of memory or empty. Used
 * by the thumbnails of `glreplay report` and by the DAP request glreplay/eventImages. */
uint8_t *glrh_thumb_rgba(const uint8_t *rgba, unsigned w, unsigned h, unsigned max_side, unsigned *tw, unsigned *th);

#endif
