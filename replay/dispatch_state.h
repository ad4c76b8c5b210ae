/* The dispatcher's state, shared by dispatch.c (the helpers the generated code calls) and
 * dispatch_call.c (the entry that calls the generated code): two files so that calls run one way,
 * dispatch_call.c -> glr_dispatch_gen.c -> dispatch.c. Internal to replay/dispatch*.c. */
#ifndef GLR_DISPATCH_STATE_H
#define GLR_DISPATCH_STATE_H

#include "replay/dispatch_internal.h"
#include "registry/glr_sizes.h"

/* Captured name -> replay name, open addressing, one table per (namespace, class). */
struct name_map {
    uint32_t ns;
    int obj_class;
    uint64_t *keys, *vals;
    size_t cap, used;
};

struct glr_dispatch {
    glr_get_proc_fn get_proc;
    glr_namespace_fn ns;
    void *user;
    void *procs[GLR_CMD_COUNT];
    unsigned char proc_state[GLR_CMD_COUNT]; /* 0 unknown, 1 found, 2 missing */
    struct name_map *maps;
    size_t n_maps;
    /* Per object class, the last context's namespace and map (map_for runs for every object
     * parameter and uniform location of every call; the namespace function is pure, and a map
     * is only ever added until glr_dispatch_reset_names, which clears this). */
    struct { uint32_t ctx_id, ns; size_t map; bool valid, has_map; } ns_cache[GLR_OBJ_COUNT];
    /* Live buffer mappings: the captured pointer a map call returned -> this replay's pointer and
     * the length the replay's driver really mapped (what bounds every write through it). */
    struct { uint64_t captured; uint8_t *replay; uint64_t length; } mappings[64];
    size_t n_mappings;
    /* GL state the size rules read (glr_sizes.h): the replay context's. */
    struct glr_size_env env;
    /* Why the last call was refused (GLR_DISPATCH_BAD), one line. */
    char reason[192];
    /* Largest image side the replay driver takes (any texture kind or renderbuffer); 0 unknown. */
    int64_t max_side;
    /* Captured uniform locations -> this driver's. */
    struct glr_uloc *uloc;
};

/* Sets why the last call was refused (GLR_DISPATCH_BAD), one line. */
void glr_dispatch_set_reason(struct glr_dispatch *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
