/* gm_texture_quad.h - llvmpipe's 8-bit ("AoS") filtering of a 2D texture for the four lanes
 * of a 2x2 quad at once (issue 17 §1): the lanes share the quad's LOD selection, so the level
 * choice, the filter and the mip weight are one decision, and the coordinate arithmetic (8.8
 * fixed point, wraps), the texel addresses, the byte lerps and the float conversion run on
 * four lanes in SSE2 registers. The arithmetic is gm_texture_lp.h's per-lane arithmetic
 * (gm_lp_axis_linear, gm_lp_axis_nearest, gm_lp_bilerp8, gm_lp_mip8_to_float) lane for
 * lane; results are bit-identical, which tests/test_texture_quad.c checks against it.
 *
 * Internal to gpu_model/pipeline (gm_texture.c and the unit test). */
#ifndef GM_TEXTURE_QUAD_H
#define GM_TEXTURE_QUAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One mip level as the quad filter reads it: RGBA8 (4 bytes per texel) or RGB8 (3). */
typedef struct gm_texq_level {
    const uint8_t *base[4];   /* each lane's layer of the level */
    size_t row_stride;
    size_t texel_stride;      /* bytes per texel times samples */
    int width, height;
    bool rgb8;                /* 3-byte texels, alpha 255 */
    size_t readable;          /* bytes of the surface from base[0] on (RGB8's gathers) */
    /* set by gm_texq_level_ready: the texels may be read by 32-bit gathers from base[0],
     * delta[l] being lane l's layer from lane 0's (without it: the SSE2 loads) */
    bool gather;
    int32_t delta[4];
    int32_t gather_last;      /* RGB8: the largest index whose 4-byte read stays readable */
} gm_texq_level;

/* Fills in lv's gather fields once its other fields (readable too) are set. */
void gm_texq_level_ready(gm_texq_level *lv);

/* The request-wide addressing: wraps (REPEAT, else CLAMP_TO_EDGE) and whether level 0's
 * sizes are powers of two (llvmpipe's repeat arithmetic is chosen by those). */
typedef struct gm_texq_addr {
    bool repeat_s, repeat_t;
    bool pot_s, pot_t;
} gm_texq_addr;

/* Filters four lanes at normalized coordinates s[4], t[4] (denormals already flushed) on
 * level lv0, and when lv1 is not NULL also on lv1, lerped in with the 8-bit mip weight w8
 * (gm_lp_mip_weight8); linear selects the bilinear filter, else nearest. off_s / off_t are
 * the lanes' texel offsets or NULL. out[channel][lane] gets the float results (before any
 * swizzle). Returns false, writing nothing, when a lane's coordinate or offset lies outside
 * the range the 32-bit vector arithmetic covers exactly (non-finite or huge values, offsets
 * beyond +-2^20): the caller then samples the quad lane by lane. Without SSE2 it always
 * returns false. */
bool gm_texq_sample(const gm_texq_addr *addr, const gm_texq_level *lv0,
                    const gm_texq_level *lv1, int w8, bool linear, const float s[4],
                    const float t[4], const int32_t *off_s, const int32_t *off_t,
                    float out[4][4]);

/* Where the CPU has AVX2, gm_texq_sample reads RGBA8 texels with gathers (the same bits).
 * on = false keeps it on the SSE2 code, on = true uses AVX2 where the CPU has it again;
 * returns whether AVX2 was in use. For the unit test, which runs every case both ways. */
bool gm_texq_use_avx2(bool on);

#endif
