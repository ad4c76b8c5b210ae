/* The samples of multisample renderbuffers and textures in the initial-state snapshot
 * (RESOURCE_BLOB kinds 5 and 6, docs/GLCAP_FORMAT.md), read by replay/ms_samples.c through the
 * real driver functions. Internal to the shim's snapshot. */
#ifndef GLR_SHIM_SNAPSHOT_MULTISAMPLE_H
#define GLR_SHIM_SNAPSHOT_MULTISAMPLE_H

#include "shim/snapshot.h"

enum { GLR_SNAP_BLOB_MS_RENDERBUFFER = 5, GLR_SNAP_BLOB_MS_TEXTURE = 6 };

/* Keeps every sample of renderbuffer rb (w x h, format fmt, samples > 0) as a kind 5 content, or
 * logs why not. Bindings and state are put back; GL errors are left for the snapshot to drain. */
GLR_SNAP_HIDDEN void glr_snap_ms_renderbuffer(struct glr_snap *sn, unsigned rb, int w, int h, unsigned fmt,
                                              int samples);
/* The same for a GL_TEXTURE_2D_MULTISAMPLE(_ARRAY) texture (layers: 1, or the array's depth): kind 6. */
GLR_SNAP_HIDDEN void glr_snap_ms_texture(struct glr_snap *sn, unsigned tex, unsigned target, int w, int h, int layers,
                                         unsigned fmt, int samples);

#endif
