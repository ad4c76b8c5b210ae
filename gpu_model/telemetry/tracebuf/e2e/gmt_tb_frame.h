/* A captured frame loaded for repeated model runs (the e2e test and the benchmark of the trace
 * buffers): the capture (replay/headless), its METADATA and its initial-state snapshot, and one
 * model run of the whole command stream on a fresh frame runner with optional hooks. */
#ifndef GMT_TB_FRAME_H
#define GMT_TB_FRAME_H

#include <stddef.h>

#include "gmf_frame.h"

typedef struct gmt_tb_frame gmt_tb_frame;

/* NULL with a one-line message on a missing/corrupt capture. */
gmt_tb_frame *gmt_tb_frame_open(const char *path, char *err, size_t err_size);
void gmt_tb_frame_close(gmt_tb_frame *f);

/* Runs the frame once on a new runner (timing model on); hooks may be NULL. totals (may be
 * NULL) gets the runner's totals. 0, or -1 with a message. */
int gmt_tb_frame_run(gmt_tb_frame *f, const gmf_hooks *hooks, gmf_totals *totals, char *err,
                     size_t err_size);

#endif
