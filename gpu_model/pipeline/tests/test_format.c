/* test_format.c - texel conversions: llvmpipe's float->unorm8 rounding, half floats,
 * packed formats, sRGB, depth/stencil packing, GL enum mapping. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

int main(void)
{
    /* float -> unorm8: x*255 round-to-nearest-even, clamp, NaN -> 0 */
    CHECK_EQ_INT(gm_float_to_unorm8(0.0f), 0);
    CHECK_EQ_INT(gm_float_to_unorm8(1.0f), 255);
    CHECK_EQ_INT(gm_float_to_unorm8(2.0f), 255);
    CHECK_EQ_INT(gm_float_to_unorm8(-1.0f), 0);
    CHECK_EQ_INT(gm_float_to_unorm8(NAN), 0);
    CHECK_EQ_INT(gm_float_to_unorm8(0.5f), 128);           /* 127.5 -> 128 (even) */
    CHECK_EQ_INT(gm_float_to_unorm8(1.5f / 255.0f), 2);   /* 1.5 -> 2 */
    CHECK_EQ_INT(gm_float_to_unorm8(2.5f / 255.0f), 2);   /* 2.5 -> 2 (even) */
    for (int i = 0; i < 256; i++)
        CHECK_EQ_INT(gm_float_to_unorm8(gm_unorm8_to_float((uint8_t)i)), i);

    /* half floats */
    CHECK_EQ_INT(gm_float_to_half(1.0f), 0x3c00);
    CHECK_EQ_INT(gm_float_to_half(-2.0f), 0xc000);
    CHECK_EQ_INT(gm_float_to_half(65504.0f), 0x7bff);
    CHECK_EQ_INT(gm_float_to_half(1e6f), 0x7c00);
    CHECK_EQ_INT(gm_float_to_half(5.9604645e-8f), 0x0001);
    CHECK(gm_half_to_float(0x3555) > 0.333f && gm_half_to_float(0x3555) < 0.3334f);
    for (uint32_t h = 0; h < 0x7c00; h += 7)
        CHECK_EQ_INT(gm_float_to_half(gm_half_to_float((uint16_t)h)), h);

    /* round trips through every plain colour format */
    const float c[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    gm_format fl[] = {GM_FMT_RGBA8, GM_FMT_BGRA8, GM_FMT_RGBA16F, GM_FMT_RGBA32F,
                      GM_FMT_RGB10A2, GM_FMT_R11G11B10F, GM_FMT_RGBA16, GM_FMT_RGB565,
                      GM_FMT_RGBA8_SNORM, GM_FMT_RGB9E5};
    for (size_t i = 0; i < sizeof(fl) / sizeof(fl[0]); i++) {
        uint8_t t[16] = {0};
        float o[4];
        gm_format_pack_rgba(fl[i], c, t);
        gm_format_unpack_rgba(fl[i], t, o);
        const gm_format_info *fi = gm_format_get(fl[i]);
        for (int k = 0; k < fi->channels && k < 3; k++)
            CHECK(fabsf(o[k] - c[k]) < 0.02f);
    }
    /* legacy luminance/alpha formats keep luminance from red and alpha from alpha (an
     * RGBA (L, L, L, A) texel, as a snapshot reads a GL_LUMINANCE_ALPHA texture back) */
    {
        uint8_t t[4] = {0};
        const float la[4] = {0.2f, 0.2f, 0.2f, 0.6f};
        float o[4];
        gm_format_pack_rgba(GM_FMT_LA8, la, t);
        CHECK_EQ_INT(t[0], 51);
        CHECK_EQ_INT(t[1], 153);
        gm_format_unpack_rgba(GM_FMT_LA8, t, o);
        CHECK(fabsf(o[2] - 0.2f) < 0.002f && fabsf(o[3] - 0.6f) < 0.002f);
        gm_format_pack_rgba(GM_FMT_L8, la, t);
        CHECK_EQ_INT(t[0], 51);
        gm_format_pack_rgba(GM_FMT_A8, la, t);
        CHECK_EQ_INT(t[0], 153);
    }
    /* GL 1.x sized formats as llvmpipe stores them: quantization, intensity in every channel,
     * padded formats read alpha 1, read-backs of luminance/intensity give (L, 0, 0, 1/A) */
    {
        CHECK_EQ_INT(gm_format_from_gl(GL_INTENSITY), GM_FMT_I8);        /* GL_INTENSITY */
        CHECK_EQ_INT(gm_format_from_gl(GL_LUMINANCE16), GM_FMT_L16);       /* GL_LUMINANCE16 */
        CHECK_EQ_INT(gm_format_from_gl(GL_LUMINANCE4_ALPHA4), GM_FMT_LA4);       /* GL_LUMINANCE4_ALPHA4 */
        CHECK_EQ_INT(gm_format_from_gl(GL_RGB4), GM_FMT_RGBX4);     /* GL_RGB4 */
        CHECK_EQ_INT(gm_format_from_gl(GL_R3_G3_B2), GM_FMT_R3G3B2);    /* GL_R3_G3_B2 */
        CHECK_EQ_INT(gm_format_from_gl(GL_RGBA2), GM_FMT_RGBA4);     /* GL_RGBA2 */
        uint8_t t[8] = {0};
        float o[4];
        const float v[4] = {0.4f, 0.7f, 0.3f, 0.2f};
        gm_format_pack_rgba(GM_FMT_I8, v, t);
        gm_format_unpack_rgba(GM_FMT_I8, t, o);
        CHECK_EQ_INT(t[0], 102);
        CHECK(o[3] == o[0] && o[1] == o[0]);
        gm_format_readback_rgba(GM_FMT_I8, o);
        CHECK(o[1] == 0.0f && o[2] == 0.0f && o[3] == 1.0f);
        gm_format_pack_rgba(GM_FMT_LA4, v, t);
        CHECK_EQ_INT(t[0], 6 | (3 << 4));                         /* 0.4*15 = 6, 0.2*15 = 3 */
        gm_format_unpack_rgba(GM_FMT_LA4, t, o);
        gm_format_readback_rgba(GM_FMT_LA4, o);
        CHECK(fabsf(o[0] - 0.4f) < 1e-6f && o[1] == 0.0f && fabsf(o[3] - 0.2f) < 1e-6f);
        gm_format_pack_rgba(GM_FMT_R3G3B2, v, t);
        CHECK_EQ_INT(t[0], (3 << 5) | (5 << 2) | 1);               /* 2.8 -> 3, 4.9 -> 5, 0.9 -> 1 */
        gm_format_unpack_rgba(GM_FMT_RGBX4, t, o);
        CHECK(o[3] == 1.0f);
        gm_format_pack_rgba(GM_FMT_L16, v, t);
        gm_format_unpack_rgba(GM_FMT_L16, t, o);
        CHECK(fabsf(o[2] - 0.4f) < 1e-4f && o[3] == 1.0f);
        CHECK(!gm_format_has_alpha(GM_FMT_RGBX16) && gm_format_has_alpha(GM_FMT_LA16));
    }
    /* RGB10A2 layout */
    {
        uint8_t t[4];
        uint32_t v;
        const float one[4] = {1.0f, 0.0f, 0.0f, 1.0f};
        gm_format_pack_rgba(GM_FMT_RGB10A2, one, t);
        memcpy(&v, t, 4);
        CHECK_EQ_INT(v, 0x3ffu | (3u << 30));
    }
    /* sRGB encode on pack, decode on unpack */
    {
        uint8_t t[4];
        const float half[4] = {0.5f, 0.0f, 1.0f, 0.5f};
        gm_format_pack_rgba(GM_FMT_SRGB8_A8, half, t);
        CHECK_EQ_INT(t[0], 188);     /* linear 0.5 -> sRGB 0.7354 -> 188 */
        CHECK_EQ_INT(t[3], 128);     /* alpha stays linear */
        float o[4];
        gm_format_unpack_rgba(GM_FMT_SRGB8_A8, t, o);
        CHECK(fabsf(o[0] - 0.5f) < 0.005f);
    }
    /* integer formats keep bits, saturate to the channel width */
    {
        uint8_t t[16];
        const uint32_t v[4] = {300, 7, 0, 1};
        uint32_t o[4];
        gm_format_pack_rgba_i(GM_FMT_RGBA8UI, v, t);
        gm_format_unpack_rgba_i(GM_FMT_RGBA8UI, t, o);
        CHECK_EQ_INT(o[0], 255);
        CHECK_EQ_INT(o[1], 7);
        const uint32_t s[4] = {(uint32_t)-5, 0, 0, 0};
        gm_format_pack_rgba_i(GM_FMT_RGBA32I, s, t);
        gm_format_unpack_rgba_i(GM_FMT_RGBA32I, t, o);
        CHECK_EQ_INT((int32_t)o[0], -5);
    }
    /* depth / stencil */
    {
        uint8_t t[8] = {0};
        uint32_t v;
        gm_format_pack_depth(GM_FMT_D24S8, 1.0f, t);
        gm_format_pack_stencil(GM_FMT_D24S8, 0xab, t);
        memcpy(&v, t, 4);
        CHECK_EQ_INT(v, 0xabffffffu);
        gm_format_pack_depth(GM_FMT_D24S8, 0.5f, t);
        memcpy(&v, t, 4);
        CHECK_EQ_INT(v & 0xffffffu, 0x800000u);    /* trunc(0.5 * 2^24) - (that >> 24) */
        CHECK_EQ_INT(gm_format_unpack_stencil(GM_FMT_D24S8, t), 0xab);
        gm_format_pack_depth(GM_FMT_D16, 0.5f, t);
        uint16_t d16;
        memcpy(&d16, t, 2);
        CHECK_EQ_INT(d16, 32768);
        gm_format_pack_depth(GM_FMT_D32F, 0.3f, t);
        CHECK(gm_format_unpack_depth(GM_FMT_D32F, t) == 0.3f);
    }
    CHECK_EQ_INT(gm_format_from_gl(GL_RGBA8), GM_FMT_RGBA8);
    CHECK_EQ_INT(gm_format_from_gl(GL_DEPTH24_STENCIL8), GM_FMT_D24S8);
    CHECK_EQ_INT(gm_format_from_gl(0xdead), GM_FMT_NONE);
    CHECK(strcmp(gm_format_get((gm_format)9999)->name, "NONE") == 0);
    /* sample positions and resolve */
    float sp[8][2];
    CHECK_EQ_INT(gm_pipe_sample_positions(4, sp), 4);
    CHECK(sp[0][0] == 0.375f && sp[0][1] == 0.125f);
    CHECK_EQ_INT(gm_pipe_sample_positions(3, sp), -1);
    {
        gm_surface ms4, one;
        CHECK(gm_surface_alloc(&ms4, GM_FMT_RGBA8, 2, 2, 1, 4) == 0);
        CHECK(gm_surface_alloc(&one, GM_FMT_RGBA8, 2, 2, 1, 1) == 0);
        uint8_t *p = gm_surface_texel(&ms4, 1, 1, 0);
        p[0] = 255; p[4] = 255;            /* two of four samples red */
        CHECK_EQ_INT(gm_pipe_resolve(&ms4, &one), 0);
        CHECK_EQ_INT(gm_surface_texel(&one, 1, 1, 0)[0], 128);
        CHECK(gm_pipe_resolve(&one, &ms4) != 0);
        gm_surface_free(&ms4);
        gm_surface_free(&one);
    }
    gm_surface s;
    CHECK(gm_surface_alloc(&s, GM_FMT_RGBA8, -1, 4, 1, 1) != 0);
    CHECK(gm_surface_alloc(&s, GM_FMT_RGBA8, 4, 4, 1, 1) == 0);
    gm_surface_free(&s);
    TEST_DONE();
}
