/* The capture recorder: generated slow paths append each call of a captured frame to the calling
 * thread's stream buffer, encoded as in docs/GLCAP_FORMAT.md ("Command stream"). */
#ifndef GLR_SHIM_RECORDER_H
#define GLR_SHIM_RECORDER_H

#include <stdint.h>
#include <string.h>

struct glr_rec;

/* Starts a record of command `cmd` with its packed arguments and return value; NULL when this
 * call is not being recorded (no capture in progress, or the capture failed). */
struct glr_rec *glr_rec_begin(int cmd, const uint64_t *args, int nargs, uint64_t ret)
    __attribute__((visibility("hidden")));
/* Client memory a pointer parameter referenced: size < 0 means glreplay cannot size it. */
void glr_rec_blob(struct glr_rec *r, const void *data, int64_t size) __attribute__((visibility("hidden")));
void glr_rec_string(struct glr_rec *r, const char *s) __attribute__((visibility("hidden")));
void glr_rec_strings(struct glr_rec *r, const char *const *strings, int64_t count, const int *lengths)
    __attribute__((visibility("hidden")));
void glr_rec_end(struct glr_rec *r) __attribute__((visibility("hidden")));

/* Before a draw is recorded: the data of every enabled client-memory vertex array in the vertex
 * range the draw reads, as GLR_PSEUDO_CLIENT_ARRAY events. */
void glr_rec_client_arrays(int cmd, const uint64_t *args) __attribute__((visibility("hidden")));

/* Before a draw is recorded: bytes changed in persistent write mappings (shim/buffer_maps.c). */
void glr_rec_persistent_maps(void) __attribute__((visibility("hidden")));

/* A draw or clear was recorded (a capture then ends when the program destroys its last context). */
void glr_capture_note_draw(void) __attribute__((visibility("hidden")));

/* Bytes of client memory parameter `param` of `cmd` references, for lengths the registry gives as
 * COMPSIZE(...) (pixel data, pname-dependent arrays, index arrays); -1 when unknown. */
int64_t glr_compsize(int cmd, int param, const uint64_t *args) __attribute__((visibility("hidden")));

static inline uint64_t glr_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline uint64_t glr_f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

#endif
