/* gm_half.h - half-float conversions, one value or four at once (issue 17 §1: OpenArena's GL2
 * renderer keeps its lightmaps and render targets in RGBA16F, so every texel it filters and
 * every colour it writes or blends passes through them). gm_half_to_float and gm_float_to_half
 * (declared in gm_pipeline.h) are the reference; with F16C (checked once at run time) one
 * vcvtph2ps / vcvtps2ph converts four channels with the same bits for every input: where the
 * instruction would differ (a NaN or infinite half, whose payload vcvtph2ps quiets; a float
 * beyond the largest half, which vcvtps2ph's round toward zero keeps finite) the four values
 * go through the scalar code. tests/test_half.c compares all 65,536 halves and a dense sweep of
 * floats, with and without the shaders' flush-to-zero modes, against the scalar conversions.
 *
 * Internal to gpu_model/pipeline (gm_format.c, gm_texture.c and the unit test). */
#ifndef GM_HALF_H
#define GM_HALF_H

#include <stdbool.h>
#include <stdint.h>

/* What llvmpipe's render target writes keep of a float stored as a half: the mantissa cut to
 * the half's bits (round toward zero), multiples of 2^-24 below the normal halves; infinities
 * and NaN unchanged. gm_float_to_half of the result then has nothing left to round. */
float gm_half_cut_rtz(float x);

/* Whether the CPU has F16C (the vector paths below are taken only then). */
bool gm_half4_f16c(void);

/* Four halves at src (8 bytes, any alignment) to floats: gm_half_to_float of each. */
void gm_half4_to_float(const void *src, float out[4]);

/* Four floats to halves at dst (8 bytes, any alignment): gm_float_to_half(gm_half_cut_rtz(x))
 * of each, what gm_format_pack_rgba_rt stores in an RGBA16F texel. */
void gm_float4_to_half_rtz(const float in[4], void *dst);

/* The same without F16C, value by value (the reference of the test). */
void gm_half4_to_float_scalar(const void *src, float out[4]);
void gm_float4_to_half_rtz_scalar(const float in[4], void *dst);

#endif
