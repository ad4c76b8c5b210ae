/* Writes RGBA8 images as PAM files (netpbm P7, TUPLTYPE RGB_ALPHA).
 *
 * PAM is chosen for frame dumps because it is trivial to write, lossless, carries alpha, and two
 * identical frames give byte-identical files (no timestamps or compression settings). */
#ifndef SAMPLES_PAM_WRITER_H
#define SAMPLES_PAM_WRITER_H

#include <stdbool.h>
#include <stdint.h>

/* Writes a width x height RGBA8 image to path. `pixels` holds rows of width*4 bytes; when
 * bottom_up is true the first row in memory is the bottom row (glReadPixels order) and the rows
 * are written flipped so the file is top-down as PAM requires. Returns false and prints the
 * reason to stderr on failure. */
bool pam_write_rgba(const char *path, int width, int height, const uint8_t *pixels,
                    bool bottom_up);

#endif
