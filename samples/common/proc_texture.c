/* Procedural textures, see proc_texture.h. */
#include "proc_texture.h"

#include <stdlib.h>
#include <string.h>

uint8_t *proc_texture_checker(int w, int h, int cell, const uint8_t a[4], const uint8_t b[4])
{
    if (w <= 0 || h <= 0 || cell <= 0)
        return NULL;
    uint8_t *px = malloc((size_t)w * h * 4);
    if (!px)
        return NULL;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            int cx = x / cell, cy = y / cell;
            const uint8_t *c = ((cx + cy) & 1) ? b : a;
            uint8_t *p = px + ((size_t)y * w + x) * 4;
            memcpy(p, c, 4);
            if (x % cell == 0 || y % cell == 0) /* border line: 3/4 brightness */
                for (int k = 0; k < 3; ++k)
                    p[k] = (uint8_t)(p[k] * 3 / 4);
        }
    return px;
}

uint8_t *proc_texture_rings(int w, int h, const uint8_t a[4], const uint8_t b[4])
{
    if (w <= 0 || h <= 0)
        return NULL;
    uint8_t *px = malloc((size_t)w * h * 4);
    if (!px)
        return NULL;
    int ring = (w < h ? w : h) / 16;
    if (ring < 1)
        ring = 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            /* Integer distance-squared bands keep the result exact on every machine. */
            long dx = 2 * x - w + 1, dy = 2 * y - h + 1;
            long d2 = (dx * dx + dy * dy) / 4;
            long band = 0;
            while ((band + 1) * (band + 1) * ring * ring <= d2)
                ++band;
            memcpy(px + ((size_t)y * w + x) * 4, (band & 1) ? b : a, 4);
        }
    return px;
}
