/* Restoring the samples of multisample renderbuffers and textures (RESOURCE_BLOB kinds 5 and 6,
 * docs/GLCAP_FORMAT.md) after the restore calls made those objects: replay/restore.c calls this,
 * replay/ms_samples.c does the GL work. */
#ifndef GLR_REPLAY_RESTORE_MULTISAMPLE_H
#define GLR_REPLAY_RESTORE_MULTISAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct glr_dispatch;
struct sm_state;

enum { GLR_RESTORE_MS_RENDERBUFFER = 5, GLR_RESTORE_MS_TEXTURE = 6 };

/* One saved content of kind 5 or 6 (captured names; data as written by the snapshot). */
struct glr_ms_content {
    uint32_t kind, ctx_id, name, width, height, internal_format, format, type;
    const void *data;
    uint64_t size;
};

/* Whether kind is one of the multisample content kinds. */
bool glr_restore_ms_kind(uint32_t kind);
/* A size check at load time: size is whole planes of width x height pixels in format/type. */
bool glr_restore_ms_size_ok(const struct glr_ms_content *c);
/* Writes the content into the live object (the replay's name for c->name) on the current context,
 * which is in any state (s, the initial state, gives a texture's target): every binding and switch touched is put back. With GLREPLAY_RESTORE_CHECK=1
 * in the environment, the object is read back the same way afterwards and compared byte for byte
 * (a line on stderr either way). 0, or -1 with a one-line reason in why. */
int glr_restore_ms_write(struct glr_dispatch *d, const struct sm_state *s, const struct glr_ms_content *c, char *why,
                         size_t why_size);

#endif
