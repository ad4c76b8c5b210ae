/* test_texture_float.c - llvmpipe's float ("SoA") bilinear filter of a 2D level, the path of
 * half-float and float textures (OpenArena's RGBA16F lightmaps), against a reference built
 * here from the per-lane arithmetic: gm_lp_axis_linear_f per axis, each texel unpacked
 * value by value (gm_half_to_float, or the float bits), and gm_lp_lerpf along x, then y.
 * gm_texture.c reads such texels straight from the level and lerps the four channels at
 * once (bilinear_plain_2d, with FMA where the CPU has it); the results must be the same bits
 * for every wrap mode, power-of-two and other sizes, layers of 2D arrays, texel offsets,
 * coordinates on texel edges and far outside, subnormal, infinite and NaN texels, with MXCSR
 * as a program starts and with the shaders' flush-to-zero / denormals-are-zero modes. Lanes
 * whose footprint leaves the level (CLAMP_TO_BORDER) take the per-texel route and are not
 * compared here (test_texture covers the border colours). */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_texture_lp.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

/* Texel bits: mostly ordinary values, sometimes subnormal, infinite or NaN. */
static void fill(gm_surface *s, unsigned *seed)
{
    const bool half = s->format == GM_FMT_RGBA16F;
    const size_t n = s->layer_stride * (size_t)s->depth / (half ? 2u : 4u);
    for (size_t i = 0; i < n; i++) {
        unsigned r = gm_test_rand(seed), kind = r % 64;
        if (half) {
            uint16_t h = (uint16_t)(gm_test_rand(seed) & 0xbfffu);   /* |x| < 2 mostly */
            if (kind == 0) h = (uint16_t)(0x7c00u | (r >> 8 & 0x3ffu));   /* inf / NaN */
            if (kind == 1) h = (uint16_t)(r >> 8 & 0x83ffu);              /* subnormal */
            memcpy(s->data + 2 * i, &h, 2);
        } else {
            float f = gm_test_randf(seed, -2.0f, 2.0f);
            uint32_t u;
            memcpy(&u, &f, 4);
            if (kind == 0) u = 0x7f800000u | (r >> 8);
            if (kind == 1) u = r >> 9;                                     /* subnormal */
            memcpy(s->data + 4 * i, &u, 4);
        }
    }
}

static void texel_ref(const gm_surface *s, int x, int y, int z, float out[4])
{
    const bool half = s->format == GM_FMT_RGBA16F;
    const uint8_t *p = s->data + (size_t)z * s->layer_stride + (size_t)y * s->row_stride +
                       (size_t)x * (half ? 8u : 16u);
    for (int c = 0; c < 4; c++) {
        if (half) {
            uint16_t h;
            memcpy(&h, p + 2 * c, 2);
            out[c] = gm_half_to_float(h);
        } else {
            memcpy(&out[c], p + 4 * c, 4);
        }
    }
}


static int compared, skipped;

static int run(unsigned seed)
{
    static const uint32_t wraps[] = {GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT,
                                     GL_CLAMP_TO_BORDER};
    const int sizes[] = {1, 2, 3, 4, 5, 8, 13, 16, 31, 64};
    for (int iter = 0; iter < 3000; iter++) {
        gm_tex_image img;
        memset(&img, 0, sizeof(img));
        const bool array = iter % 3 == 1;
        img.target = array ? GM_TEX_2D_ARRAY : GM_TEX_2D;
        img.format = iter % 4 == 3 ? GM_FMT_RGBA32F : GM_FMT_RGBA16F;
        const int w = sizes[gm_test_rand(&seed) % 10], h = sizes[gm_test_rand(&seed) % 10];
        const int layers = array ? 3 : 1;
        if (gm_surface_alloc(&img.level[0], img.format, w, h, layers, 1))
            return 1;
        fill(&img.level[0], &seed);
        img.num_levels = 1;
        img.max_level = 1000;
        for (int c = 0; c < 4; c++)
            img.swizzle[c] = (uint8_t)c;
        gm_tex_sampler smp;
        gm_tex_sampler_default(&smp);
        smp.min_filter = smp.mag_filter = GL_LINEAR;
        smp.wrap_s = wraps[gm_test_rand(&seed) % 4];
        smp.wrap_t = wraps[gm_test_rand(&seed) % 4];
        const bool pot_s = (w & (w - 1)) == 0, pot_t = (h & (h - 1)) == 0;
        for (int k = 0; k < 8; k++) {
            float coord[4] = {gm_test_rand_coord(&seed, w), gm_test_rand_coord(&seed, h),
                              (float)(gm_test_rand(&seed) % 5) - 1.0f, 0.0f};
            int32_t off[3] = {0, 0, 0};
            const bool has_off = gm_test_rand(&seed) % 3 == 0;
            if (has_off) {
                off[0] = (int32_t)(gm_test_rand(&seed) % 16) - 8;
                off[1] = (int32_t)(gm_test_rand(&seed) % 16) - 8;
            }
            float got[4];
            gm_tex_sample_lod(&img, &smp, coord, 0.0f, 0.0f, false, has_off ? off : NULL, got);
            /* the reference */
            int a0[2], a1[2];
            float wt[2];
            const uint32_t wr[2] = {smp.wrap_s, smp.wrap_t};
            const int size[2] = {w, h};
            const bool pot[2] = {pot_s, pot_t};
            bool inside = true;
            for (int d = 0; d < 2; d++) {
                if (!gm_lp_axis_linear_f(wr[d], coord[d], size[d], pot[d], true, off[d], &a0[d],
                                         &a1[d], &wt[d]))
                    inside = false;
                inside = inside && a0[d] >= 0 && a0[d] < size[d] && a1[d] >= 0 && a1[d] < size[d];
            }
            if (!inside) {
                skipped++;
                continue;
            }
            int z = 0;
            if (array) {
                z = (int)floorf(coord[2] + 0.5f);
                z = z < 0 ? 0 : (z >= layers ? layers - 1 : z);
            }
            float v[4][4], want[4];
            texel_ref(&img.level[0], a0[0], a0[1], z, v[0]);
            texel_ref(&img.level[0], a1[0], a0[1], z, v[1]);
            texel_ref(&img.level[0], a0[0], a1[1], z, v[2]);
            texel_ref(&img.level[0], a1[0], a1[1], z, v[3]);
            for (int c = 0; c < 4; c++)
                want[c] = gm_lp_lerpf(wt[1], gm_lp_lerpf(wt[0], v[0][c], v[1][c]),
                                      gm_lp_lerpf(wt[0], v[2][c], v[3][c]));
            compared++;
            if (memcmp(got, want, sizeof(got)) != 0 && gm_test_failures < 20) {
                fprintf(stderr, "iteration %d: %s %dx%d%s wraps 0x%x 0x%x at (%.9g, %.9g) off "
                        "%d,%d: (%.9g %.9g %.9g %.9g), expected (%.9g %.9g %.9g %.9g)\n", iter,
                        gm_format_get(img.format)->name, w, h, array ? " array" : "",
                        smp.wrap_s, smp.wrap_t, coord[0], coord[1], off[0], off[1], got[0],
                        got[1], got[2], got[3], want[0], want[1], want[2], want[3]);
                gm_test_failures++;
            }
        }
        gm_surface_free(&img.level[0]);
    }
    return 0;
}

int main(void)
{
    if (gm_test_run_with_ftz_daz(run, 0xf10a7u, 0xda2u))
        return 1;
    printf("%d lanes compared, %d outside the level (not compared)\n", compared, skipped);
    if (compared < 10000) {
        fprintf(stderr, "too few lanes compared\n");
        gm_test_failures++;
    }
    TEST_DONE();
}
