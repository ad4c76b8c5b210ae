/* Fuzz target: the SPIR-V decoder into the model's IR (gm_program_create) and the SIMT executor
 * running the result on a full warp with an instruction budget (a decoded program that then
 * reads or writes outside its registers is a finding). Input: SPIR-V words (little-endian); a
 * trailing partial word is dropped. */
#include "fuzz_target.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_model/gpu_model.h"

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
    free(spirv);
    return 0;
}
