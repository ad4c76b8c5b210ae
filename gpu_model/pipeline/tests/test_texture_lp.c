/* test_texture_lp.c - llvmpipe-exact texture arithmetic (gm_texture_lp.c): fast log2 and
 * the integer log2 shortcuts, LOD / mip level selection with bias and clamps, 8.8
 * fixed-point coordinates and wraps, 8-bit lerps and mip weights, the float path's wraps
 * and fused lerps, and the texture unit
 * end to end (bilinear and trilinear RGBA8 results that differ from float filtering).
 * Expected values are worked out by hand from the rules in gm_texture_lp.h. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_sampler_iface.h"
#include "gm_texture_lp.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

static void test_log2(void)
{
    /* exact at powers of two, linear in between: log2(3) ~ 1.585 but fast gives 1.5 */
    CHECK(gm_lp_fast_log2(1.0f) == 0.0f);
    CHECK(gm_lp_fast_log2(8.0f) == 3.0f);
    CHECK(gm_lp_fast_log2(0.25f) == -2.0f);
    CHECK(gm_lp_fast_log2(3.0f) == 1.5f);
    CHECK(gm_lp_fast_log2(6.0f) == 2.5f);
    CHECK(gm_lp_fast_log2(0.75f) == -0.5f);
    CHECK(gm_lp_fast_log2(0.0f) == -127.0f);    /* zero exponent field, mantissa 1 */
    /* (floor(log2 x) + 1) >> 1 */
    CHECK_EQ_INT(gm_lp_ilog2_sqrt(2.0f), 1);
    CHECK_EQ_INT(gm_lp_ilog2_sqrt(1.9f), 0);
    CHECK_EQ_INT(gm_lp_ilog2_sqrt(8.0f), 2);
    CHECK_EQ_INT(gm_lp_ilog2_sqrt(0.3f), -1);
    CHECK_EQ_INT(gm_lp_ilog2_sqrt(0.0f), -63);
    /* floor(log2(x * sqrt 2)) */
    CHECK_EQ_INT(gm_lp_ilog2(1.5f), 1);
    CHECK_EQ_INT(gm_lp_ilog2(1.4f), 0);
    CHECK_EQ_INT(gm_lp_ilog2(0.7f), -1);
    /* cvtps2dq rounding: ties to even */
    CHECK_EQ_INT(gm_lp_iround(0.5f), 0);
    CHECK_EQ_INT(gm_lp_iround(1.5f), 2);
    CHECK_EQ_INT(gm_lp_iround(2.5f), 2);
    CHECK_EQ_INT(gm_lp_iround(-1.5f), -2);
    CHECK_EQ_INT(gm_lp_iround(-0.5f), 0);
    CHECK_EQ_INT(gm_lp_iround(NAN), INT32_MIN);
    CHECK_EQ_INT(gm_lp_ifloor(-0.25f), -1);
    CHECK_EQ_INT(gm_lp_ifloor(1e20f), INT32_MIN);
}

static void test_lerp(void)
{
    CHECK_EQ_INT(gm_lp_lerp8(128, 0, 255), 128);    /* float: 127.5 */
    CHECK_EQ_INT(gm_lp_lerp8(128, 85, 170), 128);   /* float: 127.5 */
    CHECK_EQ_INT(gm_lp_lerp8(255, 0, 255), 254);    /* weight 255/256, not 1 */
    CHECK_EQ_INT(gm_lp_lerp8(255, 255, 0), 1);
    CHECK_EQ_INT(gm_lp_lerp8(64, 10, 20), 13);      /* (640 + 128) >> 8 = 3 */
    CHECK_EQ_INT(gm_lp_lerp8(64, 20, 10), 18);      /* (-640 + 128) >> 8 = -2 */
    CHECK_EQ_INT(gm_lp_lerp8(1, 0, 128), 1);        /* (128 + 128) >> 8 = 1 */
    CHECK_EQ_INT(gm_lp_lerp8(1, 0, 127), 0);
    /* every weight and pair: weight 0 keeps a, the result stays between a and b, and it
     * is within one step of the exact w/256 interpolation */
    int bad = 0;
    for (int w = 0; w < 256; w++)
        for (int a = 0; a < 256; a += 5)
            for (int b = 0; b < 256; b += 3) {
                int r = gm_lp_lerp8(w, a, b);
                int lo = a < b ? a : b, hi = a < b ? b : a;
                double exact = a + (double)w * (b - a) / 256.0;
                if ((w == 0 && r != a) || r < lo || r > hi || fabs(r - exact) > 0.5 + 1e-9)
                    bad++;
            }
    CHECK_EQ_INT(bad, 0);
    /* exactly a + floor((w * (b - a) + 128) / 256) as bytes, for every input (the inline
     * version shifts instead of dividing) */
    for (int w = 0; w < 256; w++)
        for (int a = 0; a < 256; a++)
            for (int b = 0; b < 256; b++) {
                int v = w * (b - a) + 128;
                int fl = v >= 0 ? v / 256 : -((-v + 255) / 256);
                if (gm_lp_lerp8(w, a, b) != (uint8_t)(a + fl))
                    bad++;
            }
    CHECK_EQ_INT(bad, 0);
    CHECK_EQ_INT(gm_lp_mip_weight8(0.5f), 128);
    CHECK_EQ_INT(gm_lp_mip_weight8(0.75f), 192);
    CHECK_EQ_INT(gm_lp_mip_weight8(0.999f), 255);
    CHECK_EQ_INT(gm_lp_mip_weight8(1.0f / 256.0f), 1);
    CHECK_EQ_INT(gm_lp_mip_weight8(0.0039f), 0);     /* truncated, not rounded */
    CHECK_EQ_INT(gm_lp_mip_weight8(-0.25f), 0);
}

/* The four-channel filters (SSE2 where built with it) agree with gm_lp_lerp8 per channel
 * and gm_unorm8_to_float: every weight pair over pseudo-random texels, every byte. */
static void test_lerp_vector(void)
{
    uint32_t seed = 12345u;
    int bad = 0;
    for (int wx = 0; wx < 256; wx++)
        for (int wy = 0; wy < 256; wy += 3) {
            uint8_t v[4][4], out[4];
            for (int k = 0; k < 16; k++) {
                seed = seed * 1664525u + 1013904223u;
                v[k / 4][k % 4] = (uint8_t)(seed >> 24);
            }
            gm_lp_bilerp8(wx, wy, (const uint8_t (*)[4])v, out);
            for (int ch = 0; ch < 4; ch++) {
                uint8_t want = gm_lp_lerp8(wy, gm_lp_lerp8(wx, v[0][ch], v[1][ch]),
                                           gm_lp_lerp8(wx, v[2][ch], v[3][ch]));
                bad += out[ch] != want;
            }
        }
    CHECK_EQ_INT(bad, 0);
    for (int w8 = 0; w8 < 256; w8++)
        for (int x = 0; x < 256; x++) {
            const uint8_t a[4] = {(uint8_t)x, (uint8_t)(255 - x), (uint8_t)(x * 7), 0};
            const uint8_t b[4] = {(uint8_t)(x * 13), (uint8_t)x, 255, (uint8_t)(x ^ w8)};
            float one[4], two[4];
            gm_lp_mip8_to_float(a, b, false, w8, one);
            gm_lp_mip8_to_float(a, b, true, w8, two);
            for (int ch = 0; ch < 4; ch++) {
                bad += memcmp(&one[ch], &(float){gm_unorm8_to_float(a[ch])}, 4) != 0;
                float want = gm_unorm8_to_float(gm_lp_lerp8(w8, a[ch], b[ch]));
                bad += memcmp(&two[ch], &want, 4) != 0;
            }
        }
    CHECK_EQ_INT(bad, 0);
}

static void test_axis(void)
{
    gm_lp_axis a;
    /* size 4, repeat: u = 0.5 -> 512 - 128 = 384: texel 1, weight 128 */
    gm_lp_axis_linear(0.5f, 4, true, true, true, 0, &a);
    CHECK(a.i0 == 1 && a.i1 == 2 && a.w == 128);
    /* u = 0 -> -128: texel -1 wraps to 3, then 0 */
    gm_lp_axis_linear(0.0f, 4, true, true, true, 0, &a);
    CHECK(a.i0 == 3 && a.i1 == 0 && a.w == 128);
    gm_lp_axis_linear(0.0f, 4, true, true, false, 0, &a);   /* clamp to edge */
    CHECK(a.i0 == 0 && a.i1 == 0 && a.w == 128);
    gm_lp_axis_linear(1.0f, 4, true, true, false, 0, &a);
    CHECK(a.i0 == 3 && a.i1 == 3);
    /* 0.3 * 1024 = 307.2 -> 307 - 128 = 179 (float filtering: weight 0.7 = 179.2/256) */
    gm_lp_axis_linear(0.3f, 4, true, true, true, 0, &a);
    CHECK(a.i0 == 0 && a.i1 == 1 && a.w == 179);
    /* a tie rounds to even: 2.5 -> 2, -126 -> texel -1 weight 130 (half-up: 131) */
    gm_lp_axis_linear(2.5f / 1024.0f, 4, true, true, true, 0, &a);
    CHECK(a.i0 == 3 && a.w == 130);
    /* texel offset moves the integer part only */
    gm_lp_axis_linear(0.5f, 4, true, true, true, 1, &a);
    CHECK(a.i0 == 2 && a.i1 == 3 && a.w == 128);
    /* rectangle (unnormalized): 1.75 texels -> 448 - 128 = 320 */
    gm_lp_axis_linear(1.75f, 4, true, false, false, 0, &a);
    CHECK(a.i0 == 1 && a.i1 == 2 && a.w == 64);
    /* non-power-of-two repeat wraps the float coordinate first: 1.25 -> 0.25 * 3 * 256 =
     * 192 - 128 = 64; 0.05 -> 38.4 -> 38 - 128 = -90: texel 2 (wrapped), weight 166 */
    gm_lp_axis_linear(1.25f, 3, false, true, true, 0, &a);
    CHECK(a.i0 == 0 && a.i1 == 1 && a.w == 64);
    gm_lp_axis_linear(0.05f, 3, false, true, true, 0, &a);
    CHECK(a.i0 == 2 && a.i1 == 0 && a.w == 166);
    /* nearest */
    CHECK_EQ_INT(gm_lp_axis_nearest(-0.1f, 4, true, true, true, 0), 3);
    CHECK_EQ_INT(gm_lp_axis_nearest(-0.1f, 4, true, true, false, 0), 0);
    CHECK_EQ_INT(gm_lp_axis_nearest(-0.1f, 3, false, true, true, 0), 2);
    CHECK_EQ_INT(gm_lp_axis_nearest(0.6f, 4, true, true, true, 2), 0);
    CHECK_EQ_INT(gm_lp_axis_nearest(2.9f, 4, true, false, false, 0), 2);
}

static void test_axis_float(void)
{
    int i0 = -9, i1 = -9;
    float w = -1.0f;
    /* repeat, power of two: u * size - 0.5 */
    CHECK(gm_lp_axis_linear_f(GL_REPEAT, 0.3f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 0 && i1 == 1 && w == 0.3f * 4.0f - 0.5f);
    CHECK(gm_lp_axis_linear_f(GL_REPEAT, 0.0f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 3 && i1 == 0 && w == 0.5f);
    /* repeat, not a power of two: fract first; below texel 0 wraps to the last one */
    CHECK(gm_lp_axis_linear_f(GL_REPEAT, 1.05f, 3, false, true, 0, &i0, &i1, &w));
    CHECK(i0 == 2 && i1 == 0 && fabsf(w - 0.65f) < 1e-5f);
    /* clamp to edge: clamped to [0, size - 0.5] before the fraction */
    CHECK(gm_lp_axis_linear_f(GL_CLAMP_TO_EDGE, 0.05f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 0 && i1 == 1 && w == 0.0f);
    CHECK(gm_lp_axis_linear_f(GL_CLAMP_TO_EDGE, 1.0f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 3 && i1 == 3 && w == 0.5f);
    /* mirrored repeat: |2 * (u/2 - round(u/2))| */
    CHECK(gm_lp_axis_linear_f(GL_MIRRORED_REPEAT, -0.1f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 0 && i1 == 0 && fabsf(w - 0.9f) < 1e-5f);
    CHECK(gm_lp_axis_linear_f(GL_MIRRORED_REPEAT, 1.1f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 3 && i1 == 3 && fabsf(w - 0.1f) < 1e-5f);
    /* border: raw indices, -1 is the border colour */
    CHECK(gm_lp_axis_linear_f(GL_CLAMP_TO_BORDER, 0.0f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == -1 && i1 == 0 && w == 0.5f);
    /* texel offsets: integer after scaling (power of two), normalized otherwise */
    CHECK(gm_lp_axis_linear_f(GL_REPEAT, 0.3f, 4, true, true, 2, &i0, &i1, &w));
    CHECK(i0 == 2 && i1 == 3);
    /* mirror clamps: |u * size| (at most size but for TO_BORDER) - 0.5; border texels are
     * index size (the mirror wrap would fold -1 onto texel 0) */
    CHECK(gm_lp_axis_linear_f(GL_MIRROR_CLAMP_TO_EDGE, -0.3f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 0 && i1 == 1 && fabsf(w - 0.7f) < 1e-6f);
    CHECK(gm_lp_axis_linear_f(GL_MIRROR_CLAMP_EXT, 1.5f, 4, true, true, 0, &i0, &i1, &w));
    CHECK(i0 == 3 && i1 == 4 && w == 0.5f);
    CHECK(gm_lp_axis_linear_f(GL_MIRROR_CLAMP_TO_BORDER_EXT, 0.0f, 4, true, true, 0, &i0,
                              &i1, &w));
    CHECK(i0 == 4 && i1 == 0 && w == 0.5f);
    CHECK(!gm_lp_axis_linear_f(GL_MIRRORED_REPEAT, 2.5f, 4, true, false, 0, &i0, &i1, &w));
    /* the lerp is one fused multiply-add: weight 1 need not give b exactly */
    const float s = (float)(1.0 / 255.0);
    CHECK(gm_lp_lerpf(1.0f, 3 * s, 1 * s) != 1 * s);
    CHECK(gm_lp_lerpf(1.0f, 3 * s, 1 * s) == fmaf(1.0f, 1 * s - 3 * s, 3 * s));
    CHECK(gm_lp_lerpf(0.0f, 3 * s, 1 * s) == 3 * s);
}

static gm_lp_lod_in lod_in(int mip, float rho2)
{
    gm_lp_lod_in in;
    memset(&in, 0, sizeof(in));
    in.mip = in.sampler_mip = mip;
    in.min_eq_mag = true;
    in.min_lod = -1000.0f;
    in.max_lod = 1000.0f;
    in.rho = rho2;
    in.rho_squared = true;
    in.first_level = 0;
    in.last_level = 3;
    return in;
}

/* llvmpipe's float nearest wrap, at texel boundaries where it differs from
 * floor(u * size) wrapped as an integer (the rules gm_pipe_e2e_nearest checks against
 * the driver itself). */
static int near(uint32_t wrap, float u, int size, int offset, bool *border)
{
    bool pot = (size & (size - 1)) == 0;
    return gm_lp_wrap_nearest_f(wrap, u, size, pot, true, offset, border);
}

static void test_wrap_nearest(void)
{
    bool b = true;
    /* NPOT repeat: fract(-0.8) * 5 truncates to 0 (floor(-4.0) mod 5 would be 1) */
    CHECK_EQ_INT(near(GL_REPEAT, -0.8f, 5, 0, &b), 0);
    CHECK(!b);
    CHECK_EQ_INT(near(GL_REPEAT, -1.6f, 5, 0, &b), 1);
    CHECK_EQ_INT(near(GL_REPEAT, NAN, 5, 0, &b), 4);   /* fract_safe(NaN) = 1 - eps */
    CHECK_EQ_INT(near(GL_REPEAT, -0.1f, 4, 0, &b), 3);   /* power of two: mask */
    CHECK_EQ_INT(near(GL_REPEAT, 0.6f, 4, 2, &b), 0);
    /* mirrored repeat: the float mirror, not the integer one */
    CHECK_EQ_INT(near(GL_MIRRORED_REPEAT, -0.857142866f, 7, 0, &b), 6);
    CHECK_EQ_INT(near(GL_MIRRORED_REPEAT, 1.0f, 4, 0, &b), 3);
    CHECK_EQ_INT(near(GL_MIRRORED_REPEAT, NAN, 4, 0, &b), 0);
    /* clamp to edge: the offset joins as a float before the truncation (7.9999995 + 1
     * rounds to 9) */
    CHECK_EQ_INT(near(GL_CLAMP_TO_EDGE, 0.49999997f, 16, 1, &b), 9);
    CHECK_EQ_INT(near(GL_CLAMP_TO_EDGE, -0.3f, 16, 0, &b), 0);
    /* GL_CLAMP and MIRROR_CLAMP_EXT never sample the border with nearest filtering */
    CHECK_EQ_INT(near(GL_CLAMP, 1.5f, 5, 0, &b), 4);
    CHECK(!b);
    CHECK_EQ_INT(near(GL_MIRROR_CLAMP_EXT, -3.0f, 5, 0, &b), 4);
    CHECK(!b);
    /* mirror clamp: |scaled| truncated: -0.2 * 5 = -1 picks texel 1 */
    CHECK_EQ_INT(near(GL_MIRROR_CLAMP_TO_EDGE, -0.2f, 5, 0, &b), 1);
    CHECK_EQ_INT(near(GL_MIRROR_CLAMP_TO_EDGE, NAN, 5, 0, &b), 4);
    /* border modes */
    near(GL_MIRROR_CLAMP_TO_BORDER_EXT, 1.0f, 5, 0, &b);
    CHECK(b);
    near(GL_MIRROR_CLAMP_TO_BORDER_EXT, NAN, 5, 0, &b);
    CHECK(b);
    CHECK_EQ_INT(near(GL_MIRROR_CLAMP_TO_BORDER_EXT, -0.99f, 5, 0, &b), 4);
    CHECK(!b);
    near(GL_CLAMP_TO_BORDER, -0.1f, 4, 0, &b);
    CHECK(b);
    CHECK_EQ_INT(near(GL_CLAMP_TO_BORDER, 0.3f, 4, 1, &b), 2);
    CHECK(!b);
    /* rectangle (unnormalized) clamp: 2.9 texels -> 2 */
    CHECK_EQ_INT(gm_lp_wrap_nearest_f(GL_CLAMP_TO_EDGE, 2.9f, 4, true, false, 0, &b), 2);
}

static void test_lod(void)
{
    gm_lp_lod_sel s;
    float rho[3] = {0, 0, 0};
    const float size[3] = {64, 32, 1};
    const float dx[3] = {1.0f / 64, 1.0f / 32, 0}, dy[3] = {0.5f / 64, 0, 0};
    bool sq = false;
    rho[0] = gm_lp_rho(2, size, dx, dy, &sq);
    CHECK(sq && rho[0] == 2.0f);                    /* max(1 + 1, 0.25) */
    rho[1] = gm_lp_rho(1, size, dx, dy, &sq);
    CHECK(!sq && rho[1] == 1.0f);                   /* 1D: max(|dx|, |dy|) * size */
    const float inf_dx[3] = {INFINITY, 0, 0};
    CHECK(gm_lp_rho(2, size, inf_dx, dy, &sq) == 0.0f);

    /* trilinear: rho^2 = 3 -> lod 0.5 * 1.5 = 0.75 (log2 would give 0.792) */
    gm_lp_lod_in in = lod_in(GM_LP_MIP_LINEAR, 3.0f);
    gm_lp_lod_select(&in, &s);
    CHECK(s.minified && s.level0 == 0 && s.level1 == 1 && s.fpart == 0.75f);
    in.rho = 6.0f;                                   /* lod 1.25 */
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 1 && s.level1 == 2 && s.fpart == 0.25f);
    in.rho = 1e6f;                                   /* beyond the last level */
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 3 && s.level1 == 3 && s.fpart == 0.0f);
    in.rho = 0.5f;                                   /* magnified: base level */
    gm_lp_lod_select(&in, &s);
    CHECK(!s.minified && s.level0 == 0 && s.level1 == 0 && s.fpart == 0.0f);
    in.first_level = 1;                              /* base level 1, lod 1.25 -> 2/3 */
    in.rho = 6.0f;
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 2 && s.level1 == 3 && s.fpart == 0.25f);

    /* nearest mip filter without bias or clamps: exact integer log2 of rho; rho^2 = 2 is
     * level 1 while the general path (any bias, even 0 from the shader) gives
     * iround(0.5) = 0 */
    in = lod_in(GM_LP_MIP_NEAREST, 2.0f);
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 1 && s.minified);
    in.has_shader_bias = true;
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 0 && s.minified);
    in.shader_bias = 1.0f;                           /* 0.5 + 1 = 1.5 -> 2 (even) */
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 2);
    in = lod_in(GM_LP_MIP_NEAREST, 2.0f);
    in.lod_bias = -0.25f;                            /* sampler bias: 0.25 -> 0 */
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 0);

    /* clamps: max LOD 0.5 -> levels 0/1 at 0.5; a negative min LOD is no clamp (Mesa uses
     * max(min, 0)); min == max forces that LOD */
    in = lod_in(GM_LP_MIP_LINEAR, 16.0f);            /* lod 2 */
    in.max_lod = 0.5f;
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 0 && s.level1 == 1 && s.fpart == 0.5f);
    in = lod_in(GM_LP_MIP_LINEAR, 0.0625f);          /* lod -2 */
    in.min_lod = -0.5f;
    gm_lp_lod_select(&in, &s);
    CHECK(!s.minified && s.level0 == 0);
    in.min_lod = 0.25f;                              /* applied: 0.25 */
    gm_lp_lod_select(&in, &s);
    CHECK(s.minified && s.level0 == 0 && s.level1 == 1 && s.fpart == 0.25f);
    in = lod_in(GM_LP_MIP_LINEAR, 1.0f);
    in.min_lod = in.max_lod = 2.0f;
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 2 && s.level1 == 3 && s.fpart == 0.0f);
    /* explicit LOD with the sampler bias */
    in = lod_in(GM_LP_MIP_LINEAR, 0.0f);
    in.explicit_lod = true;
    in.lod = 1.5f;
    in.lod_bias = 0.25f;
    gm_lp_lod_select(&in, &s);
    CHECK(s.level0 == 1 && s.fpart == 0.75f);

    /* no mip filter: only the min/mag switch, at rho > 1 */
    in = lod_in(GM_LP_MIP_NONE, 1.0f);
    in.min_eq_mag = false;
    gm_lp_lod_select(&in, &s);
    CHECK(!s.minified && s.level0 == 0);
    in.rho = 1.0001f;
    gm_lp_lod_select(&in, &s);
    CHECK(s.minified && s.level0 == 0);
}

static void put8(gm_surface *s, int x, int y, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    const float c[4] = {r / 255.0f, g / 255.0f, b / 255.0f, a / 255.0f};
    gm_format_pack_rgba(s->format, c, gm_surface_texel(s, x, y, 0));
}

static uint8_t to8(float f) { return (uint8_t)lrintf(f * 255.0f); }

static void test_unit(void)
{
    /* 4x4 RGBA8 with red = 85 * x, green = 85 * y; level 1 all 255, level 2 all 0 */
    gm_tex_image img;
    memset(&img, 0, sizeof(img));
    img.target = GM_TEX_2D;
    img.format = GM_FMT_RGBA8;
    img.num_levels = 3;
    img.max_level = 1000;
    gm_surface_alloc(&img.level[0], GM_FMT_RGBA8, 4, 4, 1, 1);
    gm_surface_alloc(&img.level[1], GM_FMT_RGBA8, 2, 2, 1, 1);
    gm_surface_alloc(&img.level[2], GM_FMT_RGBA8, 1, 1, 1, 1);
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++)
            put8(&img.level[0], x, y, (uint8_t)(85 * x), (uint8_t)(85 * y), 7, 255);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) put8(&img.level[1], x, y, 255, 255, 255, 255);
    put8(&img.level[2], 0, 0, 0, 0, 0, 0);
    gm_tex_sampler smp;
    gm_tex_sampler_default(&smp);
    smp.min_filter = GL_LINEAR_MIPMAP_LINEAR;
    smp.mag_filter = GL_LINEAR;
    float o[4];
    /* bilinear at the corner of texels 1 and 2: lerp8(128, 85, 170) = 128 (float 127.5) */
    float c[4] = {0.5f, 0.5f, 0, 0};
    gm_tex_sample_lod(&img, &smp, c, -1.0f, 0, false, NULL, o);
    CHECK_EQ_INT(to8(o[0]), 128);
    CHECK_EQ_INT(to8(o[1]), 128);
    CHECK_EQ_INT(to8(o[2]), 7);
    CHECK(o[0] == 128.0f * (float)(1.0 / 255.0));   /* llvmpipe's 8-bit -> float */
    /* u = 0.3: weight 179, lerp8(179, 0, 85) = (15215 + 128) >> 8 = 59 */
    float c2[4] = {0.3f, 0.125f, 0, 0};
    gm_tex_sample_lod(&img, &smp, c2, 0.0f, 0, false, NULL, o);
    CHECK_EQ_INT(to8(o[0]), 59);
    CHECK_EQ_INT(to8(o[1]), 0);
    /* trilinear between level 1 (255) and level 2 (0) at lod 1.75: weight 192,
     * lerp8(192, 255, 0) = 255 + ((-48960 + 128) >> 8) = 64 */
    gm_tex_sample_lod(&img, &smp, c, 1.75f, 0, false, NULL, o);
    CHECK_EQ_INT(to8(o[0]), 64);
    CHECK_EQ_INT(to8(o[3]), 64);
    /* mirrored repeat is not an AoS wrap: float filtering, (85 + 170) / 2 = 127.5 */
    smp.wrap_s = smp.wrap_t = GL_MIRRORED_REPEAT;
    gm_tex_sample_lod(&img, &smp, c, -1.0f, 0, false, NULL, o);
    CHECK(fabsf(o[0] - 0.5f) < 1e-6f);
    smp.wrap_s = smp.wrap_t = GL_REPEAT;

    /* the executor callback with quad derivatives: rho^2 = (4 * 0.375)^2 + (4 * 0.1875)^2
     * = 2.8125 -> lod 0.5 * fast_log2 = 0.703125 (log2 would give 0.746), mip weight 180;
     * at the texel centre (1.5, 1.5) level 0 gives red 85, level 1 255:
     * 85 + ((180 * 170 + 128) >> 8) = 205 (weight 190 from log2 would give 211) */
    gm_tex_units units;
    memset(&units, 0, sizeof(units));
    units.unit[0].image = &img;
    units.unit[0].sampler = &smp;
    static gm_sample_request req;
    static gm_texel_out out;
    memset(&req, 0, sizeof(req));
    req.op = GM_TEX_SAMPLE;
    req.mask = 0x1;
    req.dim = GM_DIM_2D;
    req.coord_count = 2;
    req.has_grad = 1;
    req.coord.f[0][0] = 0.375f;
    req.coord.f[1][0] = 0.375f;
    req.ddx[0][0] = 0.375f;
    req.ddx[1][0] = 0.1875f;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK_EQ_INT(to8(out.f[0][0]), 205);
    CHECK_EQ_INT(to8(out.f[1][0]), 205);
    /* with a shader bias of -0.703125 the LOD is 0: base level only, red 85 */
    req.has_bias = 1;
    req.bias[0] = -0.703125f;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK_EQ_INT(to8(out.f[0][0]), 85);
    for (int l = 0; l < 3; l++) gm_surface_free(&img.level[l]);
}

int main(void)
{
    test_log2();
    test_lerp();
    test_lerp_vector();
    test_axis();
    test_axis_float();
    test_wrap_nearest();
    test_lod();
    test_unit();
    TEST_DONE();
}
