/* Loading a .glcap for the counters' end-to-end test and benchmark: METADATA and
 * COMMAND_STREAM through the container reader, default framebuffer sizes from the stream's
 * MAKE_CURRENT records. Captures that start from a snapshot of a running program are refused
 * (restoring one needs the replay library, which is built after the GPU model): capture from
 * frame 0. */
#ifndef GMT_CAPTURE_H
#define GMT_CAPTURE_H

#include <stddef.h>

#include "gmf_frame.h"

struct gmt_capture {
    char *metadata;            /* JSON text */
    void *stream;
    size_t stream_size;
    gmf_surface_desc *surfaces;
    int n_surfaces;
};

/* 0, or -1 with a one-line message in err. */
int gmt_capture_load(const char *path, struct gmt_capture *cap, char *err, size_t err_size);
void gmt_capture_free(struct gmt_capture *cap);

/* A runner for the capture (timing model on), with hooks when h is not NULL. */
gmf_runner *gmt_capture_runner(const struct gmt_capture *cap, const gmf_hooks *h, char *err,
                               size_t err_size);

#endif
