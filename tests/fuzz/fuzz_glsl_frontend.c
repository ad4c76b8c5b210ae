/* Fuzz target: the model's GLSL front end before glslang — the preprocessor analysis (gm_pp:
 * macros, #if expressions, #line, #extension) and the source-to-source upgrade of legacy GLSL
 * (gm_upgrade). Input: one byte choosing the stage and options, then the shader source.
 * glslang itself is not fuzzed here (its own project fuzzes it). */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_model/frontend/gm_frontend.h"
#include "gpu_model/frontend/gm_pp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > (1u << 20))
        return 0;
    static const gm_stage stages[] = { GM_STAGE_VERTEX, GM_STAGE_FRAGMENT, GM_STAGE_GEOMETRY, GM_STAGE_COMPUTE };
    gm_stage stage = stages[data[0] & 3];
    char *src = malloc(size);
    if (!src)
        return 0;
    memcpy(src, data + 1, size - 1);
    src[size - 1] = 0;
    gm_pp_result pp;
    static const char *profiles[] = { "core", "compatibility", "", "" };
    if (gm_pp_analyse(src, (data[0] & 4) ? 110 : 330, (data[0] >> 3) & 1, profiles[(data[0] >> 4) & 3], &pp) == 0)
        gm_pp_free(&pp);
    gm_glsl_is_es(src);
    gm_upgrade_info info;
    memset(&info, 0, sizeof info);
    char err[256];
    free(gm_glsl_upgrade_in_program(src, stage, (data[0] >> 6) & 1, (data[0] >> 7) & 1, &info, err, sizeof err));
    gm_upgrade_info_free(&info);
    free(src);
    return 0;
}
