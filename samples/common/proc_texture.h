/* Procedural RGBA8 textures generated on the CPU, so samples upload deterministic texel data
 * without image files. */
#ifndef SAMPLES_PROC_TEXTURE_H
#define SAMPLES_PROC_TEXTURE_H

#include <stdint.h>

/* Allocates a w x h RGBA8 checkerboard of `cell`-texel squares alternating colours a and b,
 * with a thin darker border in each cell so orientation and filtering are visible.
 * Returns NULL on allocation failure; free() the result. */
uint8_t *proc_texture_checker(int w, int h, int cell, const uint8_t a[4], const uint8_t b[4]);

/* Allocates a w x h RGBA8 texture of concentric rings (a "target"), useful for spotting
 * distortions in post-processing. */
uint8_t *proc_texture_rings(int w, int h, const uint8_t a[4], const uint8_t b[4]);

#endif
