/* test_texture.c - texture units: filtering, wrap modes, border, mipmaps and LOD,
 * cube faces, arrays, shadow compare, swizzle, texelFetch, gather, size/levels
 * queries, the executor callback, and BC1/RGTC decoding. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_sampler_iface.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

static void put(gm_surface *s, int x, int y, int z, float r, float g, float b, float a)
{
    const float c[4] = {r, g, b, a};
    gm_format_pack_rgba(s->format, c, gm_surface_texel(s, x, y, z));
}

static bool near(float a, float b) { return fabsf(a - b) < 1.0f / 255.0f; }

int main(void)
{
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
            put(&img.level[0], x, y, 0, (float)x / 3.0f, (float)y / 3.0f, 0.0f, 1.0f);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 2; x++) put(&img.level[1], x, y, 0, 0, 0, 1.0f, 1.0f);
    put(&img.level[2], 0, 0, 0, 1, 1, 1, 1);

    gm_tex_sampler smp;
    gm_tex_sampler_default(&smp);
    smp.min_filter = GL_NEAREST;
    smp.mag_filter = GL_NEAREST;
    float o[4];
    float c[4] = {0.375f, 0.625f, 0, 0};   /* texel (1, 2) */
    gm_tex_sample_lod(&img, &smp, c, 0.0f, 0, false, NULL, o);
    CHECK(near(o[0], 1.0f / 3.0f) && near(o[1], 2.0f / 3.0f));
    /* linear at a texel corner: average of 4 texels */
    smp.mag_filter = GL_LINEAR;
    float c2[4] = {0.5f, 0.5f, 0, 0};
    gm_tex_sample_lod(&img, &smp, c2, -1.0f, 0, false, NULL, o);
    CHECK(near(o[0], 0.5f) && near(o[1], 0.5f));
    /* wrap modes at u = -0.125 (texel -1): repeat -> 3, clamp -> 0, mirror -> 0 */
    smp.mag_filter = GL_NEAREST;
    float c3[4] = {-0.125f, 0.125f, 0, 0};
    gm_tex_sample_lod(&img, &smp, c3, 0, 0, false, NULL, o);
    CHECK(near(o[0], 1.0f));
    smp.wrap_s = GL_CLAMP_TO_EDGE;
    gm_tex_sample_lod(&img, &smp, c3, 0, 0, false, NULL, o);
    CHECK(near(o[0], 0.0f));
    smp.wrap_s = GL_MIRRORED_REPEAT;
    float c4[4] = {-0.375f, 0.125f, 0, 0};   /* texel -2 -> mirrored 1 */
    gm_tex_sample_lod(&img, &smp, c4, 0, 0, false, NULL, o);
    CHECK(near(o[0], 1.0f / 3.0f));
    smp.wrap_s = GL_CLAMP_TO_BORDER;
    smp.border[0] = 0.25f; smp.border[3] = 0.5f;
    gm_tex_sample_lod(&img, &smp, c3, 0, 0, false, NULL, o);
    CHECK(o[0] == 0.25f && o[3] == 0.5f);
    smp.wrap_s = GL_REPEAT;
    /* mipmaps: LOD 1 -> level 1 (blue), LOD 5 clamps to level 2 (white) */
    smp.min_filter = GL_NEAREST_MIPMAP_NEAREST;
    gm_tex_sample_lod(&img, &smp, c, 1.0f, 0, false, NULL, o);
    CHECK(near(o[2], 1.0f) && near(o[0], 0.0f));
    gm_tex_sample_lod(&img, &smp, c, 5.0f, 0, false, NULL, o);
    CHECK(near(o[0], 1.0f) && near(o[1], 1.0f));
    smp.min_filter = GL_NEAREST_MIPMAP_LINEAR;   /* halfway between levels 1 and 2 */
    gm_tex_sample_lod(&img, &smp, c, 1.5f, 0, false, NULL, o);
    CHECK(near(o[0], 0.5f) && near(o[2], 1.0f));
    /* base/max level and max_lod */
    img.base_level = 1;
    CHECK_EQ_INT(gm_tex_query_levels(&img), 2);
    int32_t sz[3];
    CHECK_EQ_INT(gm_tex_size(&img, 0, sz), 2);
    CHECK_EQ_INT(sz[0], 2);
    img.base_level = 0;
    smp.max_lod = 0.5f;
    smp.min_filter = GL_NEAREST_MIPMAP_NEAREST;
    gm_tex_sample_lod(&img, &smp, c, 3.0f, 0, false, NULL, o);   /* clamped to 0.5 -> level 0/1 */
    CHECK(near(o[2], 1.0f) || near(o[1], 2.0f / 3.0f));
    smp.max_lod = 1000.0f;
    /* LOD from derivatives: one texel per pixel at level 0 -> lod 0; 2 -> 1 */
    float dx[3] = {0.25f, 0, 0}, dy[3] = {0, 0.25f, 0};
    CHECK(fabsf(gm_tex_compute_lod(&img, dx, dy)) < 1e-6f);
    dx[0] = 0.5f;
    CHECK(fabsf(gm_tex_compute_lod(&img, dx, dy) - 1.0f) < 1e-6f);
    /* swizzle */
    img.swizzle[0] = 1; img.swizzle[1] = 0; img.swizzle[2] = 4; img.swizzle[3] = 5;
    smp.min_filter = GL_NEAREST;
    gm_tex_sample_lod(&img, &smp, c, 0.0f, 0, false, NULL, o);
    CHECK(near(o[0], 2.0f / 3.0f) && near(o[1], 1.0f / 3.0f) && o[2] == 0.0f && o[3] == 1.0f);
    memset(img.swizzle, 0, 4);
    /* texelFetch, out of range -> 0 */
    int32_t ic[4] = {3, 1, 0, 0};
    gm_tex_fetch(&img, ic, 0, o);
    CHECK(near(o[0], 1.0f) && near(o[1], 1.0f / 3.0f));
    ic[0] = 4;
    gm_tex_fetch(&img, ic, 0, o);
    CHECK(o[0] == 0.0f && o[3] == 0.0f);

    /* executor callback: implicit LOD from gradients, gather, size, levels */
    gm_tex_units units;
    memset(&units, 0, sizeof(units));
    units.unit[3].image = &img;
    units.unit[3].sampler = &smp;
    static gm_sample_request req;
    static gm_texel_out out;
    memset(&req, 0, sizeof(req));
    req.op = GM_TEX_SAMPLE; req.mask = 0x3; req.unit = 3; req.dim = GM_DIM_2D;
    req.coord_count = 2; req.has_grad = 1;
    for (int l = 0; l < 2; l++) {
        req.coord.f[0][l] = 0.375f; req.coord.f[1][l] = 0.625f;
        req.ddx[0][l] = l ? 0.5f : 0.25f; req.ddy[1][l] = 0.25f;
    }
    smp.min_filter = GL_NEAREST_MIPMAP_NEAREST;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK(near(out.f[1][0], 2.0f / 3.0f));   /* lane 0: lod 0 */
    CHECK(near(out.f[2][1], 1.0f));          /* lane 1: lod 1 -> blue level */
    req.op = GM_TEX_GATHER; req.component = 0; req.has_grad = 0;
    req.coord.f[0][0] = 0.5f; req.coord.f[1][0] = 0.5f;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK(near(out.f[0][0], 1.0f / 3.0f) && near(out.f[1][0], 2.0f / 3.0f) &&
          near(out.f[2][0], 2.0f / 3.0f) && near(out.f[3][0], 1.0f / 3.0f));
    req.op = GM_TEX_QUERY_SIZE; req.lod[0] = 1;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK_EQ_INT(out.i[0][0], 2);
    req.op = GM_TEX_QUERY_LEVELS;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK_EQ_INT(out.i[0][0], 3);
    /* textureQueryLod: llvmpipe's 0.5 * fast_log2(rho^2); rho = 4 * 0.75 = 3 gives
     * 0.5 * (3 - 1 + 9/8) = 1.5625 (log2f would give 1.585); .x rounds it for a nearest
     * mip filter and keeps it for a linear one */
    req.op = GM_TEX_QUERY_LOD; req.has_grad = 1;
    memset(req.ddx, 0, sizeof req.ddx); memset(req.ddy, 0, sizeof req.ddy);
    req.ddx[0][0] = 0.75f;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK(out.f[1][0] == 1.5625f && out.f[0][0] == 2.0f);
    smp.min_filter = GL_LINEAR_MIPMAP_LINEAR;
    gm_tex_sample_fn(&units, &req, &out);
    CHECK(out.f[1][0] == 1.5625f && out.f[0][0] == 1.5625f);
    smp.min_filter = GL_NEAREST_MIPMAP_NEAREST;
    req.op = GM_TEX_SAMPLE; req.unit = 7;   /* unbound unit -> (0,0,0,1) */
    gm_tex_sample_fn(&units, &req, &out);
    CHECK(out.f[0][0] == 0.0f && out.f[3][0] == 1.0f);

    /* cube map: +X face selected for direction (1, 0.1, 0.1), faces coloured by index */
    gm_tex_image cube;
    memset(&cube, 0, sizeof(cube));
    cube.target = GM_TEX_CUBE; cube.format = GM_FMT_RGBA8; cube.num_levels = 1; cube.max_level = 1000;
    gm_surface_alloc(&cube.level[0], GM_FMT_RGBA8, 2, 2, 6, 1);
    for (int f = 0; f < 6; f++)
        for (int y = 0; y < 2; y++)
            for (int x = 0; x < 2; x++) put(&cube.level[0], x, y, f, (float)f / 5.0f, 0, 0, 1);
    const float dirs[6][3] = {{1, .1f, .1f}, {-1, .1f, .1f}, {.1f, 1, .1f}, {.1f, -1, .1f}, {.1f, .1f, 1}, {.1f, .1f, -1}};
    for (int f = 0; f < 6; f++) {
        float cc[4] = {dirs[f][0], dirs[f][1], dirs[f][2], 0};
        gm_tex_sample_lod(&cube, &smp, cc, 0, 0, false, NULL, o);
        CHECK(near(o[0], (float)f / 5.0f));
    }
    /* 2D array: layer from the last coordinate, rounded and clamped */
    gm_tex_image arr;
    memset(&arr, 0, sizeof(arr));
    arr.target = GM_TEX_2D_ARRAY; arr.format = GM_FMT_R8; arr.num_levels = 1; arr.max_level = 1000;
    gm_surface_alloc(&arr.level[0], GM_FMT_R8, 1, 1, 3, 1);
    for (int z = 0; z < 3; z++) put(&arr.level[0], 0, 0, z, (float)z / 2.0f, 0, 0, 0);
    float ca[4] = {0.5f, 0.5f, 1.4f, 0};
    gm_tex_sample_lod(&arr, &smp, ca, 0, 0, false, NULL, o);
    CHECK(near(o[0], 0.5f));
    ca[2] = 9.0f;
    gm_tex_sample_lod(&arr, &smp, ca, 0, 0, false, NULL, o);
    CHECK(near(o[0], 1.0f) && o[3] == 1.0f);

    /* shadow compare on a depth texture */
    gm_tex_image dt;
    memset(&dt, 0, sizeof(dt));
    dt.target = GM_TEX_2D; dt.format = GM_FMT_D32F; dt.num_levels = 1; dt.max_level = 1000;
    gm_surface_alloc(&dt.level[0], GM_FMT_D32F, 1, 1, 1, 1);
    gm_format_pack_depth(GM_FMT_D32F, 0.5f, dt.level[0].data);
    smp.compare = true; smp.compare_func = GL_LEQUAL;
    float cd[4] = {0.5f, 0.5f, 0, 0};
    gm_tex_sample_lod(&dt, &smp, cd, 0, 0.4f, true, NULL, o);
    CHECK(o[0] == 1.0f);
    gm_tex_sample_lod(&dt, &smp, cd, 0, 0.6f, true, NULL, o);
    CHECK(o[0] == 0.0f);

    /* BC1: colour0 = white (0xffff), colour1 = black, indices 0 and 1 alternate */
    uint8_t blk[8] = {0xff, 0xff, 0x00, 0x00, 0x44, 0x44, 0x44, 0x44};
    uint8_t rgba[16][4];
    CHECK_EQ_INT(gm_tex_decode_block(GM_FMT_BC1_RGB, blk, rgba), 0);
    CHECK_EQ_INT(rgba[0][0], 255);
    CHECK_EQ_INT(rgba[2][0], 255);
    CHECK_EQ_INT(rgba[1][0], 0);   /* index 1 */
    uint8_t rg[8] = {200, 100, 0, 0, 0, 0, 0, 0};
    CHECK_EQ_INT(gm_tex_decode_block(GM_FMT_RGTC1, rg, rgba), 0);
    CHECK_EQ_INT(rgba[5][0], 200);
    CHECK(gm_tex_decode_block(GM_FMT_ETC2_RGB8, blk, rgba) != 0);

    for (int i = 0; i < 3; i++) gm_surface_free(&img.level[i]);
    gm_surface_free(&cube.level[0]);
    gm_surface_free(&arr.level[0]);
    gm_surface_free(&dt.level[0]);
    TEST_DONE();
}
