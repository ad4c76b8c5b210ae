/* shadow: the snapshot's layout, shared by the files of the module (not public). */
#ifndef GLR_SH_INTERNAL_H
#define GLR_SH_INTERNAL_H

#include <stdatomic.h>
#include "shadow/shadow.h"

struct sh_snapshot {
    atomic_int refs;
    uint64_t id;
    size_t bytes;
    sh_header header;
    sh_type *types;
    int n_types;
    sh_var *vars;
    int n_vars;
    sh_frame *frames;      /* outermost first */
    int n_frames;
    char *title, *resources, *pipeline;
};

void sh_snapshot_destroy(struct sh_snapshot *s);

#endif
