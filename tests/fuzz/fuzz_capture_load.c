/* Fuzz target: loading a capture as every verb does before it replays — the container and its
 * METADATA (glrh_capture_open), `info`'s statistics, the snapshot's initial state and resource
 * blobs (glr_restore_load: state-model deserialization), and the command stream applied to a
 * state model record by record (sm_apply), then serialized and printed as `state` prints it.
 * Input: one mode byte, then a .glcap image; mode bit 0 recomputes the stored checksums first so
 * mutations reach what the checksums guard. Findings: sanitizer reports, crashes, hangs. */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/player/player.h"
#include "replay/replay.h"
#include "registry/glr_call_codec.h"
#include "statemodel/statemodel.h"

/* The stream through a fresh state model (a capture without a snapshot starts from nothing). */
static void apply_stream(const struct glrh_capture *cap, struct sm_state *sm)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    while (glr_stream_next(&s, &c) == 1)
        sm_apply(sm, &c);
    size_t size = 0;
    free(sm_serialize(sm, &size));
    /* JSON spells contents out: a 256 MiB zero-filled buffer (what a short glBufferData leaves)
     * takes seconds and proves nothing more than the binary form did. */
    if (size < (16u << 20)) {
        free(sm_to_json(sm));
        free(sm_query_json(sm, 1));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64], err[1024];
    int fd = fuzz_capture_image(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    struct glrh_capture *cap = glrh_capture_open(path, err, sizeof err);
    if (cap) {
        struct glrh_stats st;
        if (glrh_capture_stats(cap, &st, err, sizeof err) == 0)
            glrh_stats_free(&st);
        struct glr_restore *r = glr_restore_load(path, err, sizeof err);
        const struct sm_state *initial = r ? glr_restore_state(r) : NULL;
        struct sm_state *sm = initial ? sm_state_clone(initial) : sm_state_new();
        if (sm)
            apply_stream(cap, sm);
        sm_state_free(sm);
        glr_restore_free(r);
        glrh_capture_close(cap);
    }
    close(fd);
    return 0;
}
