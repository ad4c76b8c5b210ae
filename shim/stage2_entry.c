/* Stage 2's only export (shim/stage_abi.h): stage 1 calls it once, after dlopen, with its
 * services; the shim's start-up (environment, capture set-up) runs here rather than in a
 * constructor, so that those services are there before anything needs them. */
#include <stddef.h>
#include "shim/shim_internal.h"
#include "shim/stage_abi.h"

_Static_assert(sizeof(glr_proc) == sizeof(glr_stage_fn), "one table for both stages");

/* The in-application API's capture start: the shim is started first (as in glr_stage2_entry; a
 * no-op after it), here rather than in capture.c, which start-up calls. */
static int capture_begin(const char *path)
{
    glr_shim_init();
    return glreplay_capture_begin(path);
}

static const struct glr_stage2 stage2 = {
    .version = GLR_STAGE_ABI_VERSION,
    .wrappers = (const glr_stage_fn *)glr_wrapper_tab,
    .n_wrappers = GLR_CMD_COUNT,
    .dlopen_wants = glr_dlopen_wants,
    .dlopen_gl = glr_dlopen_gl,
    .capture_begin = capture_begin,
    .capture_end = glreplay_capture_end,
};

GLR_EXPORT const struct glr_stage2 *glr_stage2_entry(const struct glr_stage1 *s1);

const struct glr_stage2 *glr_stage2_entry(const struct glr_stage1 *s1)
{
    if (!s1 || s1->version != GLR_STAGE_ABI_VERSION || !s1->lookup_next) {
        glr_disabled = true; /* nothing at exit either */
        return NULL; /* stage 1 of another build: it reports the mismatch and passes calls through */
    }
    glr_stage1 = s1;
    glr_gpa_wrappers = glr_wrapper_tab;
    glr_shim_init();
    return &stage2;
}
