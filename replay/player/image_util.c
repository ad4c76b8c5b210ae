/* Image comparison and PNG output (libpng's simplified API). */
#include <stdio.h>
#include <stdlib.h>
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

uint8_t *glrh_thumb_rgba(const uint8_t *rgba, unsigned w, unsigned h, unsigned max_side, unsigned *tw_out, unsigned *th_out)
{
    if (!w || !h)
        return NULL;
    unsigned side = w > h ? w : h;
    unsigned tw = w, th = h;
    if (max_side && side > max_side) {
        tw = (unsigned)((uint64_t)w * max_side / side);
        th = (unsigned)((uint64_t)h * max_side / side);
        tw += !tw;
        th += !th;
    }
    uint8_t *small = malloc((size_t)tw * th * 4);
    if (!small)
        return NULL;
    /* A box filter: every thumbnail pixel is the mean of the source pixels it covers, so thin lines
     * and small objects still show (point sampling would drop them). */
    for (unsigned y = 0; y < th; y++) {
        unsigned y0 = (unsigned)((uint64_t)y * h / th), y1 = (unsigned)((uint64_t)(y + 1) * h / th);
        if (y1 <= y0)
            y1 = y0 + 1;
        for (unsigned x = 0; x < tw; x++) {
            unsigned x0 = (unsigned)((uint64_t)x * w / tw), x1 = (unsigned)((uint64_t)(x + 1) * w / tw);
            if (x1 <= x0)
                x1 = x0 + 1;
            uint64_t sum[4] = { 0 };
            for (unsigned sy = y0; sy < y1; sy++) {
                const uint8_t *row = rgba + ((size_t)sy * w + x0) * 4;
                for (unsigned sx = x0; sx < x1; sx++, row += 4)
                    for (int c = 0; c < 4; c++)
                        sum[c] += row[c];
            }
            uint64_t n = (uint64_t)(y1 - y0) * (x1 - x0);
            uint8_t *o = small + ((size_t)y * tw + x) * 4;
            for (int c = 0; c < 4; c++)
                o[c] = (uint8_t)((sum[c] + n / 2) / n);
        }
    }
    *tw_out = tw;
    *th_out = th;
    return small;
}
