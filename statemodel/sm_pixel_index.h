/* Colour-index pixels converted to RGBA by the pixel maps (sm_pixel_index.c). */
#ifndef SM_PIXEL_INDEX_H
#define SM_PIXEL_INDEX_H

#include <stdbool.h>
#include <stdint.h>
#include "statemodel/statemodel.h"

/* Pixel (x, y) of a w-pixel-wide GL_COLOR_INDEX image of `type` (GL_BITMAP or an integer or float
 * type) in src (size bytes) under the unpack state ps, as RGBA through the context's pixel maps;
 * false when the type is not one of those or the pixel lies past the end of the data. */
bool sm_color_index_rgba(const struct sm_fixed_state *ff, const struct sm_pixel_store *ps, uint32_t type,
                         const uint8_t *src, uint64_t size, int w, int x, int y, float rgba[4]);

#endif
