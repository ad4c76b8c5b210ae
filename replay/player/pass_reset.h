/* Resetting a snapshot capture's state between replay passes without recreating anything.
 *
 * The first pass starts like every replay: fresh contexts and the full initial-state restore
 * (replay/restore.c). Later passes keep the contexts and every object (so shaders stay compiled,
 * programs linked, and the driver's compiled shader variants stay cached) and undo only what the
 * frame changed. The plan is made once, before the first pass, by running the frame's command
 * stream through a copy of the initial state model:
 *   - objects the frame creates are deleted at the end of every pass (end list);
 *   - buffers, textures and renderbuffers the frame writes (uploads, copies, mipmap generation,
 *     mapped writes, draws/clears/blits into framebuffer attachments, transform feedback, storage
 *     buffers and images bound at draws) get their saved contents again, and the default
 *     framebuffer and renderbuffers their saved pixels;
 *   - programs the frame relinks are linked again; uniform values, block bindings, texture and
 *     sampler parameters, vertex array and framebuffer object contents the frame changed are set
 *     back; then every context state field and binding that differs between the end of the frame
 *     (as the model sees it after the steps above) and the initial state is set back.
 * Whatever the plan cannot undo (a command the model cannot follow, an initial object the frame
 * deletes, a shader whose source the frame changes, ...) makes glrh_reset_plan return NULL with
 * the reason: the replayer then restores everything before every pass, as before. */
#ifndef GLRH_PASS_RESET_H
#define GLRH_PASS_RESET_H

#include <stdio.h>
#include "replay/player/player.h"
#include "replay/restore_reset.h"

struct glrh_reset;

/* What the plan found (for --benchmark and tests). */
struct glrh_reset_summary {
    unsigned buffers_written, textures_written, renderbuffers_written, default_written;
    unsigned objects_created, programs_relinked;
    size_t reset_calls, end_calls;
    /* Resources bound where the frame draws (vertex/index/uniform/storage buffers of the draw's
     * vertex array and bindings; textures bound on any unit): count and bytes (buffer sizes;
     * texture images at their uploaded size, else width*height*depth*4). */
    unsigned used_buffers, used_textures;
    uint64_t used_buffer_bytes, used_texture_bytes;
};

/* Plans the reset of a snapshot capture (restore loaded with glr_restore_load, kept alive and
 * unchanged while the plan is used). NULL with a one-line reason in why when the frame's effects
 * cannot be undone this way. */
struct glrh_reset *glrh_reset_plan(struct glr_restore *restore, const struct glrh_capture *cap, char *why,
                                   size_t why_size);
void glrh_reset_free(struct glrh_reset *p);
void glrh_reset_summary(const struct glrh_reset *p, struct glrh_reset_summary *out);

/* At the end of every pass: deletes the objects the frame created. */
void glrh_reset_end_pass(struct glrh_reset *p, struct glr_dispatch *d, glr_make_current_fn make_current,
                         void *user);
/* Before every pass after the first: sets the state back. 0, or -1 when a context could not be
 * made current (err set by make_current's owner). Failed calls and copies are counted in st. */
int glrh_reset_run(struct glrh_reset *p, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                   struct glr_restore_stats *st);

#endif
