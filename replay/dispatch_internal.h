/* Support for the generated dispatcher (glr_dispatch_gen.c): function lookup, name remapping,
 * client memory from blobs. Internal to replay/. */
#ifndef GLR_DISPATCH_INTERNAL_H
#define GLR_DISPATCH_INTERNAL_H

#include <stdint.h>
#include <string.h>
#include "replay/replay.h"

struct glr_strings {
    uint32_t count;
    const char **ptrs;   /* each NUL-terminated (into buf): calls without a length array need it */
    int *lens;
    char *buf;
};

struct glr_names {
    uint32_t count;
    uint32_t *names;
};

void *glr_dispatch_proc(struct glr_dispatch *d, int cmd);
uint64_t glr_dispatch_map(struct glr_dispatch *d, const struct glr_call *c, int obj_class, uint64_t captured);
void glr_dispatch_bind(struct glr_dispatch *d, const struct glr_call *c, int obj_class, uint64_t captured,
                       uint64_t replayed);
int glr_dispatch_strings(struct glr_dispatch *d, const struct glr_blob *b, struct glr_strings *out);
void glr_dispatch_strings_free(struct glr_strings *s);
/* Names parameter i of call c: as many names as the recorder's size rule says the call reads or
 * writes (n), which its blob must hold; -1 (reason set) when it does not. */
int glr_dispatch_names_out(struct glr_dispatch *d, const struct glr_call *c, int i, struct glr_names *out);
int glr_dispatch_names_in(struct glr_dispatch *d, const struct glr_call *c, int obj_class, int i, struct glr_names *out);
/* Client memory of const pointer parameter i for the driver: the recorded blob when it holds at
 * least what the recorder's size rule (glr_param_size, on the replay context's state) says the call
 * reads; the value itself when it is an offset into a bound buffer or a vertex array pointer; NULL
 * when the program passed NULL and null_ok (the command takes NULL as "no data"). Else -1 with the
 * reason set: nothing is passed on. */
int glr_dispatch_client(struct glr_dispatch *d, const struct glr_call *c, int i, int null_ok, const void **out);
/* Whether a call's count argument asks for more strings than were recorded (reason set). */
bool glr_dispatch_count_over(struct glr_dispatch *d, uint64_t count_arg, uint32_t recorded);
void glr_dispatch_names_bind(struct glr_dispatch *d, const struct glr_call *c, int obj_class,
                             const struct glr_blob *b, struct glr_names *n);
void glr_dispatch_names_free(struct glr_names *n);
/* A map call returned replay_ptr for the captured pointer c->ret; length: bytes it mapped (-1: the
 * whole buffer, asked from the driver). */
void glr_dispatch_mapped(struct glr_dispatch *d, const struct glr_call *c, void *replay_ptr, int64_t length);
/* Uniform locations (replay/uniform_locations.h), called by the generated code: the replay
 * location of a captured one in `program` (a replay name; 0: the program glUniform* goes to), a
 * replayed glGetUniformLocation's answer, and the calls that choose or relink programs. */
int32_t glr_dispatch_uniform_location(struct glr_dispatch *d, const struct glr_call *c, uint32_t program,
                                      int32_t captured);
void glr_dispatch_uniform_location_found(struct glr_dispatch *d, const struct glr_call *c, uint32_t program,
                                         int32_t replay);
void glr_dispatch_program_used(struct glr_dispatch *d, const struct glr_call *c, uint32_t program);
void glr_dispatch_pipeline_bound(struct glr_dispatch *d, const struct glr_call *c, uint32_t pipeline);
void glr_dispatch_pipeline_active(struct glr_dispatch *d, const struct glr_call *c, uint32_t pipeline,
                                  uint32_t program);
void glr_dispatch_program_relinked(struct glr_dispatch *d, const struct glr_call *c, uint32_t program);
int glr_dispatch_generated(struct glr_dispatch *d, const struct glr_call *c);
/* Whether a buffer is bound to the binding point whose GL_*_BINDING enum is given: read-backs
 * (glReadPixels, glGetTexImage, ...) and query-result reads then write into that buffer at the
 * offset their pointer argument holds, which changes the buffer, so the replay issues them. */
bool glr_dispatch_output_bound(struct glr_dispatch *d, uint32_t binding);

static inline float glr_bits_f32(uint64_t v)
{
    uint32_t b = (uint32_t)v;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static inline double glr_bits_f64(uint64_t v)
{
    double d;
    memcpy(&d, &v, sizeof d);
    return d;
}

#endif
