/* End-of-frame work shared by all samples: GL error checks (debug builds) and back-buffer dumps.
 *
 * Call sample_frame_end() right before the swap that ends frame `frame`, with the default
 * framebuffer bound, then swap. At exit call sample_finish() for the deterministic stdout line. */
#ifndef SAMPLES_SAMPLE_FRAME_H
#define SAMPLES_SAMPLE_FRAME_H

#include <stdbool.h>

#include "sample_args.h"

/* Drains glGetError() and prints every error with `where` to stderr. Counts them for
 * sample_finish(). Compiled out (returns 0) when NDEBUG is defined (release builds).
 * Safe to call from several threads, each with its own current context. */
int sample_gl_check(const char *name, const char *where);

/* Checks GL errors (debug builds), then, if `frame` is in --dump-frames, reads back the default
 * framebuffer's back buffer (RGBA8, pack alignment 1) and writes <dump-dir>/frame_NNNN.pam.
 * Exits with status 1 if the dump cannot be written. */
void sample_frame_end(const SampleArgs *args, const char *name, int frame, int fb_width,
                      int fb_height);

/* Prints "<name>: N frames" to stdout and returns the exit status: 0, or 1 when GL errors were
 * seen during the run. */
int sample_finish(const char *name, int frames_done);

#endif
