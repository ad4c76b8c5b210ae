/* Checkpoints of a frame runner's state at a draw boundary (gmf_checkpoint.c), for a debugger
 * that starts a pass at a later draw instead of the frame's first (debugger/dbg_runner_ckpt.c).
 *
 * A checkpoint keeps what the records do not rebuild: the model's images (textures with every
 * level, renderbuffers, default framebuffers), the counters (draw and warp numbering, totals,
 * unsupported-feature counts), the pipeline's carried state (statistics, line stipple counter),
 * the client arrays as the last draw left them, and the timing model's state. To start from one, a new runner is fed the same records up to
 * the checkpoint with gmf_set_programs_only on (state calls applied and programs compiled in the
 * frame's order, nothing drawn), then gmf_checkpoint_install puts the kept state in.
 *
 * Frames whose shaders write buffers of the state model (storage or atomic-counter blocks,
 * compute, transform feedback, query results, program pipelines) are not kept: those writes live
 * in the state model, which the records alone rebuild without them. Nor are frames that used
 * glBegin/glEnd, display lists or pixel rectangles (see gmf_checkpoint.c). gmf_checkpoint_take
 * says why. */
#ifndef GMF_CHECKPOINT_H
#define GMF_CHECKPOINT_H

#include <stddef.h>
#include "gmf_frame.h"

typedef struct gmf_checkpoint gmf_checkpoint;

/* The runner's state now (between two records, no draw running). `prev`, when given, is an
 * earlier checkpoint of the same pass: images equal to its images share their memory with it
 * (only what changed since is copied). NULL with *why set when it cannot be kept. */
gmf_checkpoint *gmf_checkpoint_take(const gmf_runner *r, const gmf_checkpoint *prev, const char **why);
/* The memory this checkpoint alone holds (images shared with another one counted in the first). */
size_t gmf_checkpoint_bytes(const gmf_checkpoint *c);
/* Puts c's state into r, which was fed the same records in programs-only mode. 0, or -1 (out of
 * memory, or another timing setting: r is then unusable). */
int gmf_checkpoint_install(gmf_runner *r, const gmf_checkpoint *c);
void gmf_checkpoint_free(gmf_checkpoint *c);

#endif
