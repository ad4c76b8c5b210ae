/* Samplers in the evaluator (issue 14): the GLSL name of a sampler type from its SPIR-V image
 * description (the snapshot keeps the name, so a snapshot says which texture functions a sampler
 * takes), and the description back from the name when `evaluate` samples through it. */
#ifndef GLR_DAP_EVAL_TEX_H
#define GLR_DAP_EVAL_TEX_H

#include <stdbool.h>
#include <stddef.h>
#include "gpu_model/gm_sampler_iface.h"

struct dap_sampler_kind {
    gm_tex_dim dim;
    int arrayed, shadow, ms;
    gm_tex_result_type result;
    int coords;        /* coordinates of texture(): dimensions + the layer */
    int size_comps;    /* components of textureSize() */
};

/* "isampler2DArray", "samplerCubeShadow", ... into buf; false for descriptions GLSL has no
 * sampler for (buf then holds "sampler"). scalar: 0 float, 1 int, 2 uint; depth as SPIR-V's
 * OpTypeImage Depth operand (1: a shadow sampler). */
bool dap_sampler_glsl_name(int dim, int arrayed, int depth, int ms, int scalar, char *buf, size_t size);
/* Parses such a name; false when it is not a sampler type's name. */
bool dap_sampler_kind_parse(const char *name, struct dap_sampler_kind *k);

#endif
