/* The state of the capture in progress that the recording path reads (capture_state.c), shared with
 * the capture's control (capture.c), which starts and ends captures. Internal to those two files. */
#ifndef GLR_SHIM_CAPTURE_STATE_H
#define GLR_SHIM_CAPTURE_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "registry/glr_registry.h"

#define GLR_CAP_HIDDEN __attribute__((visibility("hidden")))

extern GLR_CAP_HIDDEN int glr_cap_recording;       /* read on every recorded call */
extern GLR_CAP_HIDDEN uint64_t glr_cap_epoch;       /* the capture recording now, or the last one */
extern GLR_CAP_HIDDEN uint64_t glr_cap_seq;
extern GLR_CAP_HIDDEN size_t glr_cap_bytes, glr_cap_budget;   /* recorded so far; the most allowed */
extern GLR_CAP_HIDDEN char glr_cap_fail_reason[256];
extern GLR_CAP_HIDDEN int glr_cap_fail_pending;     /* dropped by glr_capture_fail, not yet ended */
extern GLR_CAP_HIDDEN unsigned char glr_cap_unsized[GLR_CMD_COUNT];   /* commands met unsized */

#endif
