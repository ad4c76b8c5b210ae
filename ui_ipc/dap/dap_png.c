/* PNG (base64) of an RGBA8 image for DAP replies (dap_session_internal.h: dap_png_base64): a leaf
 * under the requests that send images (glreplay/eventImages, frame images, heat maps). */
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include "ui_ipc/dap/dap_session_internal.h"

struct mem { unsigned char *p; size_t n, cap; bool failed; };

static void png_write(png_structp png, png_bytep data, png_size_t len)
{
    struct mem *m = png_get_io_ptr(png);
    if (m->n + len > m->cap) {
        size_t nc = (m->n + len) * 2;
        unsigned char *np = realloc(m->p, nc);
        if (!np) {
            m->failed = true;
            return;
        }
        m->p = np;
        m->cap = nc;
    }
    memcpy(m->p + m->n, data, len);
    m->n += len;
}

static void png_flush(png_structp png)
{
    (void)png;
}

/* PNG of an RGBA8 bottom-up image, base64 encoded; malloc'd. */
char *dap_png_base64(const uint8_t *px, unsigned w, unsigned h)
{
    struct mem m = { 0 };
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(m.p);
        return NULL;
    }
    png_set_write_fn(png, &m, png_write, png_flush);
    png_set_IHDR(png, info, w, h, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (unsigned y = 0; y < h; y++)
        png_write_row(png, (png_bytep)(px + (size_t)(h - 1 - y) * w * 4));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    if (m.failed) {
        free(m.p);
        return NULL;
    }
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(m.n / 3 * 4 + 8);
    if (out) {
        size_t o = 0;
        for (size_t i = 0; i < m.n; i += 3) {
            uint32_t v = (uint32_t)m.p[i] << 16 | (i + 1 < m.n ? (uint32_t)m.p[i + 1] << 8 : 0) | (i + 2 < m.n ? m.p[i + 2] : 0);
            out[o++] = tab[(v >> 18) & 63];
            out[o++] = tab[(v >> 12) & 63];
            out[o++] = i + 1 < m.n ? tab[(v >> 6) & 63] : '=';
            out[o++] = i + 2 < m.n ? tab[v & 63] : '=';
        }
        out[o] = 0;
    }
    free(m.p);
    return out;
}
