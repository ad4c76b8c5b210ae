/* Fuzz target: the SPIR-V decoder into the model's IR (gm_program_create) and the SIMT executor
 * running the result on a full warp with an instruction budget (a decoded program that then
 * reads or writes outside its registers is a finding). The same bytes also go through
 * gm_spirv_specialize as an application's GL_ARB_gl_spirv module would (entry point "main" of a
 * vertex and of a fragment stage, two specialization constants), and what it accepts is decoded.
 * Input: SPIR-V words (little-endian); a trailing partial word is dropped. */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_model/gpu_model.h"
#include "gpu_model/spirv/gm_spirv_spec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t words = size / 4;
    if (words < 5 || words > (1u << 18))
        return 0;
    uint32_t *spirv = malloc(words * 4);
    if (!spirv)
        return 0;
    memcpy(spirv, data, words * 4);
    char err[256];
    gm_program *p = gm_program_create(spirv, words, err, sizeof err);
    gm_warp *w = p ? gm_warp_create(p, 0) : NULL;
    if (w) {
        gm_warp_begin(w, 0xffffffffu, 0);
        gm_warp_run(w, 20000);
    }
    gm_warp_destroy(w);
    gm_program_destroy(p);
    static const uint32_t ids[2] = { 0, 1 }, values[2] = { 42, 0x3f000000u };
    for (uint32_t model = 0; model <= 4; model += 4) {
        size_t n = 0;
        uint32_t *s = gm_spirv_specialize(data, size & ~(size_t)3, "main", model, ids, values, 2, &n,
                                          err, sizeof err);
        if (!s)
            s = gm_spirv_specialize(data, size & ~(size_t)3, "main", model, NULL, NULL, 0, &n, err,
                                    sizeof err);
        gm_program_destroy(s ? gm_program_create(s, n, err, sizeof err) : NULL);
        free(s);
    }
    free(spirv);
    return 0;
}
