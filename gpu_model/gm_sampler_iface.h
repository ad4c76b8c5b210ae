/* gpu_model <-> pipeline resource interface: how a running shader reaches textures,
 * images and buffer memory. The shader executor (gpu_model/exec) fills the requests;
 * the pipeline (gpu_model/pipeline) implements the callbacks over its texture and
 * buffer objects. Everything is per warp: arrays of GM_LANES values, one per lane,
 * structure-of-arrays like the executor's registers. Only lanes set in `mask` matter. */
#ifndef GM_SAMPLER_IFACE_H
#define GM_SAMPLER_IFACE_H

#include <stddef.h>
#include <stdint.h>

#define GM_LANES 32
typedef uint32_t gm_mask; /* bit i = lane i */

typedef enum {
    GM_TEX_SAMPLE,        /* filtered sample: texture*, textureProj*, textureLod*, textureGrad* */
    GM_TEX_FETCH,         /* texelFetch: icoord, lod (int) or sample */
    GM_TEX_GATHER,        /* textureGather: component (or compare when shadow) */
    GM_TEX_QUERY_SIZE,    /* textureSize: out.i[0..2] = size at lod (lod[] as int) */
    GM_TEX_QUERY_LOD,     /* textureQueryLod: out.f[0..1] */
    GM_TEX_QUERY_LEVELS,  /* textureQueryLevels: out.i[0] */
    GM_TEX_QUERY_SAMPLES, /* textureSamples: out.i[0] */
} gm_tex_op;

typedef enum { /* SPIR-V Dim values, so they can be compared with the spec */
    GM_DIM_1D = 0, GM_DIM_2D = 1, GM_DIM_3D = 2, GM_DIM_CUBE = 3, GM_DIM_RECT = 4,
    GM_DIM_BUFFER = 5, GM_DIM_SUBPASS = 6,
} gm_tex_dim;

typedef enum { GM_TEX_RESULT_FLOAT, GM_TEX_RESULT_INT, GM_TEX_RESULT_UINT } gm_tex_result_type;

typedef struct gm_sample_request {
    gm_tex_op op;
    gm_mask mask;
    unsigned unit;      /* texture unit: the value of the sampler uniform */
    gm_tex_dim dim;
    int arrayed;        /* layer is the last coordinate */
    int shadow;         /* compare against dref */
    int legacy_shadow;  /* pre-GLSL-1.30 shadow*(): the vec4 that GL_DEPTH_TEXTURE_MODE makes of
                           the compare (llvmpipe's sampler view swizzle); else the float */
    int multisampled;
    gm_tex_result_type result_type; /* sampler type of the shader: float/int/uint texels */
    int coord_count;    /* coordinates incl. array layer (projective q already divided out) */
    /* Flags of what the arrays below carry. For GM_TEX_SAMPLE exactly one of:
     * has_lod (explicit level) or has_grad (explicit gradients, or for implicit-LOD
     * sampling in a fragment shader the 2x2-quad derivatives of the coordinates the
     * executor computed; add bias when has_bias). Vertex-stage implicit sampling gets
     * has_lod with lod 0. */
    int has_lod, has_bias, has_grad, has_offset, has_sample, has_min_lod;
    int component;      /* gather: which component (0..3) */
    union {
        float f[4][GM_LANES];
        int32_t i[4][GM_LANES]; /* GM_TEX_FETCH / QUERY_SIZE integer coordinates */
    } coord;
    float lod[GM_LANES];     /* explicit lod (float), or integer lod for fetch/size as float */
    float bias[GM_LANES];
    float min_lod[GM_LANES];
    float dref[GM_LANES];    /* depth compare reference (already divided for Proj) */
    float ddx[3][GM_LANES];  /* d coord / dx, per coordinate (not the layer) */
    float ddy[3][GM_LANES];
    int32_t offset[3][GM_LANES]; /* texel offset (ConstOffset / Offset) */
    int32_t gather_offsets[4][2]; /* textureGatherOffsets (ConstOffsets), has_offset==2 */
    int32_t sample[GM_LANES];
} gm_sample_request;

/* Texel results: 4 components per lane (float, int or uint bits by result_type). */
typedef union gm_texel_out {
    float f[4][GM_LANES];
    int32_t i[4][GM_LANES];
    uint32_t u[4][GM_LANES];
} gm_texel_out;

typedef void (*gm_sample_fn)(void *ctx, const gm_sample_request *req, gm_texel_out *out);

typedef enum {
    GM_IMG_LOAD, GM_IMG_STORE, GM_IMG_SIZE,
    GM_IMG_ATOMIC_ADD, GM_IMG_ATOMIC_MIN, GM_IMG_ATOMIC_MAX, GM_IMG_ATOMIC_AND,
    GM_IMG_ATOMIC_OR, GM_IMG_ATOMIC_XOR, GM_IMG_ATOMIC_EXCHANGE, GM_IMG_ATOMIC_COMP_SWAP,
} gm_image_op;

typedef struct gm_image_request {
    gm_image_op op;
    gm_mask mask;
    unsigned unit;       /* image unit: the value of the image uniform */
    gm_tex_dim dim;
    int arrayed;
    gm_tex_result_type result_type;
    int signed_atomic;   /* atomics: compare as int32 rather than uint32 */
    int32_t coord[3][GM_LANES];
    int32_t sample[GM_LANES];
    gm_texel_out data;     /* store: texel; atomics: operand in [0] (and comparator in [1]) */
} gm_image_request;

/* Loads, sizes and atomics fill out (atomics: the previous value in component 0). */
typedef void (*gm_image_fn)(void *ctx, const gm_image_request *req, gm_texel_out *out);

typedef enum { GM_BUFFER_UNIFORM, GM_BUFFER_STORAGE, GM_BUFFER_ATOMIC_COUNTER } gm_buffer_kind;

/* Returns the bytes bound to (kind, binding), already offset by the bound range start,
 * and the size of that range; NULL when nothing is bound. The executor bounds-checks
 * every access against *size (reads out of range give 0, writes are dropped), and
 * writes SSBO data through this pointer directly. */
typedef void *(*gm_buffer_fn)(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size);

/* Everything a warp reaches outside itself. Any callback may be NULL: sampling then
 * returns (0,0,0,1), buffers read as zeros. */
typedef struct gm_env {
    void *ctx;
    gm_sample_fn sample;
    gm_image_fn image;
    gm_buffer_fn buffer;
} gm_env;

#endif
