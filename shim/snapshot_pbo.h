/* Asynchronous read-back of texture images for the snapshot through pixel buffer objects
 * (shim/snapshot_pbo.c). */
#ifndef GLR_SHIM_SNAPSHOT_PBO_H
#define GLR_SHIM_SNAPSHOT_PBO_H

#include <stdbool.h>
#include <stdint.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"

#define GLR_SNAP_PBO_RING 3

struct glr_snap_pbo {
    bool usable;                       /* desktop GL >= 3.0; a hardware driver or GLREPLAY_SNAPSHOT_PBO=1 */
    unsigned n_pbo;                    /* PBOs created so far (names in pbo[]) */
    GLuint pbo[GLR_SNAP_PBO_RING];
    uint64_t cap[GLR_SNAP_PBO_RING];   /* bytes allocated in each */
    struct glr_snap_pbo_read {
        uint32_t texture;
        int face, level;
        GLenum format, type;
        uint64_t size;
        unsigned slot;
    } pending[GLR_SNAP_PBO_RING];      /* reads issued, oldest first */
    unsigned n_pending;
};

GLR_SNAP_HIDDEN void glr_snap_pbo_begin(struct glr_snap *sn, struct glr_snap_pbo *p);
/* Issues glGetTexImage(face, level, format, type) of the texture bound to face's target into a PBO;
 * its contents reach the snapshot's state model (texture `texture`, face index f) when the read is
 * collected, at a later read or at glr_snap_pbo_end. Call with GL_PIXEL_PACK_BUFFER bound to 0 and
 * the snapshot's pack state (glr_snap_pack_begin); leaves it so. False: nothing was issued (no PBO
 * support, no memory): the caller reads synchronously. */
GLR_SNAP_HIDDEN bool glr_snap_pbo_read(struct glr_snap *sn, struct glr_snap_pbo *p, uint32_t texture, int f,
                                       GLenum face, int level, GLenum format, GLenum type, uint64_t size);
/* Collects every read still in flight and deletes the PBOs. Restores the GL_PIXEL_PACK_BUFFER
 * binding it found. */
GLR_SNAP_HIDDEN void glr_snap_pbo_end(struct glr_snap *sn, struct glr_snap_pbo *p);

/* Buffer contents are read through a read-only mapping of the buffer itself (GL 3.0 / ES 3.0),
 * the state model copying from it, instead of a copy into client memory first. */
GLR_SNAP_HIDDEN bool glr_snap_map_buffers(const struct glr_snap *sn);

#endif
