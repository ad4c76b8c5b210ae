/* How many bytes of client memory a pointer parameter of a command reads: one set of rules for
 * the recorder (what to copy from the program) and the replayer (what a recorded blob must hold
 * before it is handed to the driver). The per-parameter rules are generated from the registry
 * (gen_registry.py: registry len expressions and the pointer-or-offset table); the COMPSIZE rules
 * the registry leaves to implementations are written per command in gl_annotations.txt and
 * computed by glr_compsize.c (glr_size_rules.h). No GL calls: GL state the rules
 * depend on (buffer bindings, pixel-store parameters) comes through the caller's getter. */
#ifndef GLR_SIZES_H
#define GLR_SIZES_H

#include <stdbool.h>
#include <stdint.h>

/* Where the rules read GL state: the program's context in the shim, the replay context in the
 * replayer. get_int answers 0 for state the context does not have (it must not raise a GL error
 * the program could see). */
struct glr_size_env {
    int32_t (*get_int)(void *user, uint32_t pname);
    void *user;
};

enum {
    GLR_SIZE_UNKNOWN = -1, /* no rule: the recorder stores nothing and lists the command as unsized */
    GLR_SIZE_OFFSET = -2,  /* an offset into the buffer bound at the parameter's binding point: no
                            * client memory; the value itself is passed on */
    GLR_SIZE_STRING = -3,  /* a NUL-terminated string */
    GLR_SIZE_AT_DRAW = -4, /* a vertex array pointer: an offset into GL_ARRAY_BUFFER, or a client
                            * address the draws read (recorded at each draw), never read here */
};

/* Bytes parameter `param` of command `cmd` (packed arguments `a`, as in struct glr_call) reads or
 * writes, or one of the GLR_SIZE_* codes. Sizes that overflow are GLR_SIZE_UNKNOWN. */
int64_t glr_param_size(const struct glr_size_env *e, int cmd, int param, const uint64_t *a);

/* Bytes a read-back of width x height x depth pixels (dims 1, 2 or 3) writes under the pack state
 * (GL_PACK_ALIGNMENT, ROW_LENGTH, SKIP_*, IMAGE_HEIGHT), or a negative GLR_SIZE_* code. */
int64_t glr_pack_size(const struct glr_size_env *e, uint32_t format, uint32_t type, int64_t w, int64_t h, int64_t d,
                      int dims);

static inline bool glr_size_bound(const struct glr_size_env *e, uint32_t binding)
{
    return e->get_int(e->user, binding) != 0;
}

#endif
