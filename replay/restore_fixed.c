/* A compatibility context's fixed-function state at the frame start (RESOURCE_BLOB kind 7,
 * written by shim/snapshot_fixed.c as the GL calls that set it): issued through the dispatcher on
 * that context after the state model's restore calls. */
#include <stdio.h>
#include "replay/restore_fixed.h"
#include "replay/restore_matrix_class.h"
#include "registry/glr_call_codec.h"

int glr_restore_fixed_function(struct glr_dispatch *d, const void *data, size_t size, struct glr_restore_stats *st,
                               char *why, size_t why_size)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, data, size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1) {
        if (c.cmd >= GLR_CMD_COUNT) {
            snprintf(why, why_size, "record %llu is an event, not a GL call", (unsigned long long)s.index);
            return -1;
        }
        int r = glr_dispatch_call(d, &c);
        st->calls++;
        if (r == GLR_DISPATCH_MISSING || r == GLR_DISPATCH_BAD) {
            st->calls_failed++;
            if (!st->first_failed)
                st->first_failed = glr_cmd_name(c.cmd);
        } else {
            glr_restore_matrix_loaded(d, &c);
        }
    }
    if (k < 0) {
        snprintf(why, why_size, "%s", s.err);
        return -1;
    }
    return 0;
}
