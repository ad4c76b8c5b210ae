/* Unit tests of a snapshot's saved pixels fed to the frame runner (gmf_initial_contents.c): the
 * default framebuffer's colour (rows bottom-up) and depth/stencil (24_8 bit for bit), contents
 * that do not fit or have no surface skipped without harm; and render target writes to 16-bit
 * float formats rounding toward zero as llvmpipe does (gm_format_pack_rgba_rt). */
#include <string.h>

#include "gmf_internal.h"
#include "../../tests/gm_test.h"

enum { W = 8, H = 4 };

static gmf_runner *runner_with_context(void)
{
    gmf_surface_desc sd = { 1, W, H, true };
    gmf_config cfg = { .surfaces = &sd, .n_surfaces = 1 };
    char err[128];
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r)
        return NULL;
    gmf_event ev;
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = GLR_PSEUDO_CONTEXT_CREATE;
    c.ctx_id = 1;
    c.args[0] = 1;
    c.args[1] = 1;
    CHECK(gmf_feed(r, &c, 0, &ev) == GMF_OK);
    return r;
}

static void test_default_framebuffer(void)
{
    gmf_runner *r = runner_with_context();
    if (!r)
        return;
    static uint8_t color[W * H * 4];
    static uint32_t ds[W * H];
    for (int i = 0; i < W * H; i++) {
        color[4 * i] = (uint8_t)i, color[4 * i + 1] = (uint8_t)(3 * i), color[4 * i + 2] = 200, color[4 * i + 3] = 255;
        ds[i] = ((0xABCDE0u + (uint32_t)i) << 8) | (uint32_t)(i & 0xff);   /* depth << 8 | stencil */
    }
    gmf_content c[5] = {
        { 1, 1, 0, W, H, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, color, sizeof color, 0, 0 },
        { 2, 1, 0, W, H, GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, ds, sizeof ds, 0, 0 },
        { 1, 1, 0, W, H, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, color, 7, 0, 0 },     /* short: skipped */
        { 3, 1, 42, W, H, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, color, sizeof color, 0, 0 }, /* no such renderbuffer */
        { 4, 1, 1, 0, 0, 0, 0, 0, color, 16, 0, 0 },                                /* display list: not ours */
    };
    CHECK(gmf_feed_initial_contents(r, c, 5) == 2);
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(gmf_read_default(r, 1, &px, &w, &h) == 0 && w == W && h == H);
    if (px && w == W && h == H) {
        /* gmf_read_default gives rows bottom-up like the content: compare both ways round. */
        int same = 0;
        for (int i = 0; i < W * H * 4; i++)
            same += px[i] == color[i];
        CHECKF(same == W * H * 4, "%d of %d bytes", same, W * H * 4);
    }
    free(px);
    gmf_default_fb *fb = gmf_default_fb_get(r, 1);
    CHECK(fb != NULL);
    if (fb) {
        int same = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const uint8_t *t = gm_surface_texel(&fb->ds, x, y, 0);
                uint32_t v = ds[y * W + x];
                uint32_t got;   /* the model's D24S8: depth in the low 24 bits, stencil above */
                memcpy(&got, t, 4);
                same += (got & 0xffffffu) == v >> 8 && gm_format_unpack_stencil(fb->ds.format, t) == (v & 0xff);
            }
        CHECKF(same == W * H, "%d of %d depth/stencil texels", same, W * H);
    }
    gmf_destroy(r);
}

static void test_half_rounding(void)
{
    /* 1 + 1.75/1024 lies between the halves 1 + 1/1024 and 1 + 2/1024: an upload rounds to the
     * nearest, a render target write (llvmpipe) toward zero. */
    float v[4] = { 1.0f + 1.75f / 1024.0f, -(1.0f + 1.75f / 1024.0f), 3000.0f - 0.0002f, 0.0f };
    uint16_t up[4], rt[4];
    gm_format_pack_rgba(GM_FMT_RGBA16F, v, up);
    gm_format_pack_rgba_rt(GM_FMT_RGBA16F, v, rt);
    CHECKF(up[0] == 0x3c02 && rt[0] == 0x3c01, "%04x %04x", up[0], rt[0]);
    CHECKF(up[1] == 0xbc02 && rt[1] == 0xbc01, "%04x %04x", up[1], rt[1]);
    CHECKF(up[2] == 0x69dc && rt[2] == 0x69db, "%04x %04x", up[2], rt[2]);   /* 3000, 2998 */
    CHECK(up[3] == 0 && rt[3] == 0);
    uint8_t a[4], b[4];
    float u8[4] = { 0.5f, 0.25f, 1.0f, 0.0f };
    gm_format_pack_rgba(GM_FMT_RGBA8, u8, a);
    gm_format_pack_rgba_rt(GM_FMT_RGBA8, u8, b);
    CHECK(memcmp(a, b, 4) == 0);   /* other formats: unchanged */
}

int main(void)
{
    test_default_framebuffer();
    test_half_rounding();
    TEST_DONE();
}
