/* Which captured frames keep their reference images in full, and a hash for the others
 * (GLREPLAY_CAPTURE_IMAGES; shim/capture_refs.c). */
#ifndef GLR_SHIM_CAPTURE_REFS_H
#define GLR_SHIM_CAPTURE_REFS_H

#include <stdint.h>
#include "shim/capture_file.h"

/* Reads GLREPLAY_CAPTURE_IMAGES (once, at start-up). */
void glr_refs_init(void) __attribute__((visibility("hidden")));
/* After the images of frame `newest` were added: every image the policy does not keep in full is
 * reduced to its hash (pixels freed). `first` is the capture's first frame. */
void glr_refs_thin(struct glr_ref_image *images, unsigned n, uint64_t first, uint64_t newest)
    __attribute__((visibility("hidden")));

#endif
