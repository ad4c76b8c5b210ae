/* Image comparison and PNG output (libpng's simplified API). */
#include <stdio.h>
#include <string.h>
#include <png.h>
#include "replay/player/image_util.h"

void glrh_image_diff(const uint8_t *got, const uint8_t *want, unsigned w, unsigned h, struct glrh_diff *d)
{
    memset(d, 0, sizeof *d);
    size_t n = (size_t)w * h;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *a = got + 4 * i, *b = want + 4 * i;
        if (memcmp(a, b, 4) == 0)
            continue;
        if (!d->pixels++) {
            d->first_x = (unsigned)(i % w);
            d->first_y = (unsigned)(i / w);
            memcpy(d->got, a, 4);
            memcpy(d->want, b, 4);
        }
        for (int c = 0; c < 4; c++) {
            unsigned delta = a[c] > b[c] ? (unsigned)(a[c] - b[c]) : (unsigned)(b[c] - a[c]);
            if (delta > d->max_delta)
                d->max_delta = delta;
        }
    }
}

int glrh_write_png(const char *path, const uint8_t *pixels, unsigned w, unsigned h, char *err, unsigned long err_size)
{
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = w;
    img.height = h;
    img.format = PNG_FORMAT_RGBA;
    /* A negative row stride tells libpng the rows are stored bottom-up. */
    png_int_32 stride = -(png_int_32)(w * 4);
    if (!png_image_write_to_file(&img, path, 0, pixels, stride, NULL)) {
        snprintf(err, err_size, "%s: cannot write PNG: %s", path, img.message);
        png_image_free(&img);
        return -1;
    }
    return 0;
}
