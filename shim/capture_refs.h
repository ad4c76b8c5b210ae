/* Which captured frames keep their reference images in full, and a hash for the others
 * (GLREPLAY_CAPTURE_IMAGES; shim/capture_refs.c). */
#ifndef GLR_SHIM_CAPTURE_REFS_H
#define GLR_SHIM_CAPTURE_REFS_H

#include <stddef.h>
#include <stdint.h>
#include "shim/capture_file.h"

/* Reads GLREPLAY_CAPTURE_IMAGES (once, at start-up). */
void glr_refs_init(void) __attribute__((visibility("hidden")));
/* After the images of frame `newest` were added: every image the policy does not keep in full is
 * reduced to its hash (pixels freed). `first` is the capture's first frame. */
void glr_refs_thin(struct glr_ref_image *images, unsigned n, uint64_t first, uint64_t newest)
    __attribute__((visibility("hidden")));

/* A buffer of `size` bytes for a read-back image (malloc'd: free() it, or hand it back below): the
 * one a thinned frame gave back when its size matches, else a new one. NULL when out of memory. */
void *glr_ref_pixels_take(size_t size) __attribute__((visibility("hidden")));
/* An image buffer no longer needed: kept for the next read-back (one at most), else freed; NULL
 * frees the kept one (the capture ended). */
void glr_ref_pixels_give(void *p, size_t size) __attribute__((visibility("hidden")));

#endif
