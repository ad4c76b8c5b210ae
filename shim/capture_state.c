/* The capture in progress as the recording path sees it: whether one records and its epoch, its
 * byte budget, dropping it, the commands it could not size, and the size of a surface made current
 * while it records. A leaf under the recorder, the
 * tracking files and the capture's control (capture.c, which starts and ends captures and reads
 * this state at the end): what the recorder calls here calls nothing of theirs back (issue 16 §4). */
#include <stdio.h>
#include "shim/shim_internal.h"
#include "shim/capture.h"
#include "shim/capture_state.h"
#include "shim/snapshot.h"

int glr_cap_recording;
uint64_t glr_cap_epoch;
uint64_t glr_cap_seq;
size_t glr_cap_bytes, glr_cap_budget = (size_t)2048 << 20;
char glr_cap_fail_reason[256];
int glr_cap_fail_pending;
unsigned char glr_cap_unsized[GLR_CMD_COUNT];

bool glr_capture_recording(uint64_t *epoch)
{
    if (!__atomic_load_n(&glr_cap_recording, __ATOMIC_SEQ_CST))
        return false;
    *epoch = __atomic_load_n(&glr_cap_epoch, __ATOMIC_RELAXED);
    glr_snapshot_join(*epoch);   /* other threads' contexts join the initial state (snapshot.c) */
    return true;
}

void glr_rec_join_slow(void)
{
    uint64_t epoch;
    (void)glr_capture_recording(&epoch);   /* joins when recording */
}

uint64_t glr_capture_next_seq(void)
{
    return __atomic_fetch_add(&glr_cap_seq, 1, __ATOMIC_RELAXED);
}

bool glr_capture_may_grow(size_t bytes)
{
    size_t now = __atomic_add_fetch(&glr_cap_bytes, bytes, __ATOMIC_RELAXED);
    if (now > glr_cap_budget) {
        glr_capture_fail("the capture exceeds GLREPLAY_CAPTURE_MAX_MB");
        return false;
    }
    return true;
}

void glr_capture_fail(const char *why)
{
    if (__atomic_exchange_n(&glr_cap_recording, 0, __ATOMIC_SEQ_CST)) {
        snprintf(glr_cap_fail_reason, sizeof glr_cap_fail_reason, "%s", why);
        glr_log(GLR_LOG_ERROR, "capture dropped: %s; the program continues", why);
        /* Called from inside a recorded call (cap_lock may be held): the capture is ended at the
         * next swap or capture start, which tell a waiting requester and free what it held. */
        __atomic_store_n(&glr_cap_fail_pending, 1, __ATOMIC_RELEASE);
    }
}

void glr_capture_note_unsized(int cmd)
{
    if (cmd >= 0 && cmd < GLR_CMD_COUNT && !__atomic_exchange_n(&glr_cap_unsized[cmd], 1, __ATOMIC_RELAXED))
        glr_log(GLR_LOG_WARN, "capture: %s passed client memory glreplay cannot size; it is not recorded",
                glr_cmd_name(cmd));
}


void glr_surface_size(int api, void *display, void *surface, uint32_t *w, uint32_t *h)
{
    *w = *h = 0;
    uint64_t epoch;
    if (!surface || !glr_capture_recording(&epoch))
        return;
    if (glr_surface_query_size(api, display, surface, w, h) != 0)
        *w = *h = 0;
}
