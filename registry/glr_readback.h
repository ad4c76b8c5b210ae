/* What a read-back returned to the program, recorded in the blob of the call's output parameter
 * (glReadPixels' pixels, glGetBufferSubData's data, glGetQueryObject*'s params, ...), which older
 * captures leave empty. The replayer reads the same back and compares (replay --verify):
 *   u8 flags | u64 size (bytes the call wrote, little-endian) | u64 XXH3-64 of them | the bytes
 *   when GLR_RB_BYTES (small reads)
 * Written by shim/readback_rec.c, read by replay/player/replay_readback.c. Layout:
 * docs/GLCAP_FORMAT.md, "Read-backs". */
#ifndef GLR_READBACK_H
#define GLR_READBACK_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "registry/glr_sizes.h"

enum {
    GLR_RB_HASHED = 1u << 0,   /* size and hash describe the bytes */
    GLR_RB_BYTES = 1u << 1,    /* the bytes follow */
    GLR_RB_BUFFER = 1u << 2,   /* written into the bound pixel pack buffer at the pointer's offset */
    GLR_RB_UNCHECKED = 1u << 3,/* not comparable: rows with gaps, an unsized or unreadable destination */
};

#define GLR_RB_HEADER 17u
#define GLR_RB_MAX_BYTES 64u   /* reads up to this size keep their bytes (piglit probes: one pixel) */

struct glr_readback {
    uint8_t flags;
    uint64_t size, hash;
    const uint8_t *bytes;      /* NULL unless GLR_RB_BYTES */
};

/* Parses a blob; false when it is not a read-back description (older captures: empty). */
static inline bool glr_readback_parse(const uint8_t *p, uint64_t n, struct glr_readback *rb)
{
    if (!p || n < GLR_RB_HEADER || (p[0] & ~0xFu))
        return false;
    rb->flags = p[0];
    memcpy(&rb->size, p + 1, 8);
    memcpy(&rb->hash, p + 9, 8);
    rb->bytes = NULL;
    if (rb->flags & GLR_RB_BYTES) {
        if (rb->size > GLR_RB_MAX_BYTES || n != GLR_RB_HEADER + rb->size)
            return false;
        rb->bytes = p + GLR_RB_HEADER;
    } else if (n != GLR_RB_HEADER) {
        return false;
    }
    return true;
}

/* Where a read-back's sizing reads state: the pack state through env, the dimensions of a
 * texture level (glGetTexImage) through tex_dims (false when unknown). */
struct glr_readback_env {
    const struct glr_size_env *env;
    bool (*tex_dims)(void *user, uint32_t target, int32_t level, int64_t dims[3]);
    void *user;
};

/* Bytes read-back command `cmd` (packed arguments a) writes to its destination, or -1 when there is
 * no rule (glGetTextureImage, compressed images, sub-images) or GL would refuse the call (a bufSize
 * too small). */
int64_t glr_readback_size(const struct glr_readback_env *e, int cmd, const uint64_t *a);

#endif
