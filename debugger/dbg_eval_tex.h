/* Samplers and texture functions in the evaluator (issue 14).
 *
 *  - The GLSL name of a sampler type from its SPIR-V image description (the snapshot keeps the
 *    name, so a snapshot says which texture functions a sampler takes), and the description back
 *    from the name when `evaluate` samples through it.
 *  - The GLSL texture functions `evaluate` knows (texture, textureLod, textureGrad, textureProj*
 *    with their Offset/Lod/Grad forms, textureGather[Offset], texelFetch[Offset], textureSize,
 *    textureQueryLod, textureQueryLevels, textureSamples and the GLSL 1.10 names), turned into the
 *    very request the model's texture instruction (gpu_model/exec/gm_exec_res.c) makes for one
 *    lane: projective divide before the sampler, implicit LOD from the coarse derivatives of the
 *    (divided) coordinates over the lane's 2x2 quad, level 0 outside fragment shaders. The request
 *    goes to the model's own sampler (dbg_eval_env.sample): there is no second sampler here. */
#ifndef GLR_DAP_EVAL_TEX_H
#define GLR_DAP_EVAL_TEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "gpu_model/gm_sampler_iface.h"

struct dbg_sampler_kind {
    gm_tex_dim dim;
    int arrayed, shadow, ms;
    gm_tex_result_type result;
    int coords;        /* coordinates of texture(): dimensions + the layer */
    int size_comps;    /* components of textureSize() */
};

/* "isampler2DArray", "samplerCubeShadow", ... into buf; false for descriptions GLSL has no
 * sampler for (buf then holds "sampler"). scalar: 0 float, 1 int, 2 uint; depth as SPIR-V's
 * OpTypeImage Depth operand (1: a shadow sampler). */
bool dbg_sampler_glsl_name(int dim, int arrayed, int depth, int ms, int scalar, char *buf, size_t size);
/* Parses such a name; false when it is not a sampler type's name. */
bool dbg_sampler_kind_parse(const char *name, struct dbg_sampler_kind *k);

/* A texture function by its GLSL name (NULL: not one). */
struct dbg_tex_fn;
const struct dbg_tex_fn *dbg_tex_fn_find(const char *name);
/* The i-th function name (for completions); NULL past the last. */
const char *dbg_tex_fn_name(int i);

/* One argument after the sampler, as numbers: n components, each as float and as int (the
 * evaluator's own conversions). */
struct dbg_tex_arg {
    int n;
    float f[4];
    int32_t i[4];
};

/* The coordinate argument (the one after the sampler) evaluated for another lane of the quad;
 * false when it cannot be (the evaluator's error stands). */
typedef bool (*dbg_tex_coord_at_fn)(void *ctx, int lane, struct dbg_tex_arg *out);

/* The shape of a function's result. */
struct dbg_tex_result {
    int comps;                 /* 1, 2 or 4 (textureSize: the sampler's size components) */
    bool is_float;             /* else int (queries) or the sampler's result type */
    gm_tex_result_type type;   /* when !is_float and not a query: the sampler's */
    bool query_int;            /* textureSize/QueryLevels/Samples: int components */
};

/* Fills req (zeroed by the caller) for `lane` of a warp of a fragment shader (fragment: implicit
 * LOD from the quad through coord_at) or of another stage (level 0), from the n arguments after
 * the sampler. The sampler's unit is set by the caller. 0, or -1 with a message ("takes 2 to 3
 * arguments", "the offset needs 2 components", ...). */
int dbg_tex_request(const struct dbg_tex_fn *fn, const struct dbg_sampler_kind *k, bool fragment, int lane,
                    const struct dbg_tex_arg *args, int n, dbg_tex_coord_at_fn coord_at, void *ctx,
                    gm_sample_request *req, struct dbg_tex_result *res, char *err, size_t err_size);

/* What the model's texture instruction leaves in the result before sampling (gm_exec_res.c):
 * (0, 0, 0, 1) for samples, fetches and gathers (what an unbound unit gives), 0 for queries. */
void dbg_tex_default_out(const gm_sample_request *req, gm_texel_out *out);

#endif
