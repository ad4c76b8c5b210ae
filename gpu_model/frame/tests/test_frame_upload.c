/* Unit tests of the frame runner's pure parts: texture upload conversion (client format/type/
 * alignment -> model surface), unsized internal formats, and a runner fed records without any
 * program (clears on the default framebuffer, unsupported draws reported by name). */
#include <string.h>

#include "gmf_internal.h"
#include "../../tests/gm_test.h"

static void test_formats(void)
{
    CHECK(gmf_format_from_gl(GL_RGBA, GL_UNSIGNED_BYTE) == GM_FMT_RGBA8);
    CHECK(gmf_format_from_gl(GL_RGBA, GL_FLOAT) == GM_FMT_RGBA32F);
    CHECK(gmf_format_from_gl(GL_RGB, GL_UNSIGNED_SHORT_5_6_5) == GM_FMT_RGB565);
    CHECK(gmf_format_from_gl(GL_LUMINANCE, GL_UNSIGNED_BYTE) == GM_FMT_L8);
    CHECK(gmf_format_from_gl(GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT) == GM_FMT_D16);
    CHECK(gmf_format_from_gl(GL_RGBA8, 0) == GM_FMT_RGBA8);
    CHECK(gmf_format_from_gl(0x1234, 0) == GM_FMT_NONE);
}

static void test_unpack(void)
{
    gm_surface s;
    /* RGB / UNSIGNED_BYTE, 3x2, alignment 4: rows padded to 12 bytes. */
    CHECK(gm_surface_alloc(&s, GM_FMT_RGBA8, 3, 2, 1, 1) == 0);
    uint8_t rgb[24];
    for (int i = 0; i < 24; i++)
        rgb[i] = (uint8_t)(i * 10);
    CHECK(gmf_unpack_to_surface(rgb, sizeof rgb, GL_RGB, GL_UNSIGNED_BYTE, 4, 3, 2, 1, &s, 0) == 0);
    const uint8_t *t = gm_surface_texel(&s, 0, 1, 0); /* row 1 starts at byte 12 */
    CHECKF(t[0] == 120 && t[1] == 130 && t[2] == 140 && t[3] == 255, "%u %u %u %u", t[0], t[1], t[2], t[3]);
    t = gm_surface_texel(&s, 2, 0, 0);
    CHECK(t[0] == 60 && t[1] == 70 && t[2] == 80);
    /* Too little data is refused, not read past. */
    CHECK(gmf_unpack_to_surface(rgb, 20, GL_RGB, GL_UNSIGNED_BYTE, 4, 3, 2, 1, &s, 0) != 0);
    /* BGRA swizzle. */
    uint8_t bgra[4] = { 1, 2, 3, 4 };
    CHECK(gmf_unpack_to_surface(bgra, 4, GL_BGRA, GL_UNSIGNED_BYTE, 1, 1, 1, 1, &s, 0) == 0);
    t = gm_surface_texel(&s, 0, 0, 0);
    CHECK(t[0] == 3 && t[1] == 2 && t[2] == 1 && t[3] == 4);
    /* Luminance-alpha into RGBA8. */
    uint8_t la[2] = { 200, 50 };
    CHECK(gmf_unpack_to_surface(la, 2, GL_LUMINANCE_ALPHA, GL_UNSIGNED_BYTE, 1, 1, 1, 1, &s, 0) == 0);
    CHECK(t[0] == 200 && t[1] == 200 && t[2] == 200 && t[3] == 50);
    /* Packed 5_6_5: full red. */
    uint16_t px = 0xF800;
    CHECK(gmf_unpack_to_surface(&px, 2, GL_RGB, GL_UNSIGNED_SHORT_5_6_5, 1, 1, 1, 1, &s, 0) == 0);
    CHECK(t[0] == 255 && t[1] == 0 && t[2] == 0 && t[3] == 255);
    /* Floats: 0.5 -> 128 (round to nearest). */
    float f[4] = { 0.5f, 1.0f, 0.0f, 0.25f };
    CHECK(gmf_unpack_to_surface(f, 16, GL_RGBA, GL_FLOAT, 4, 1, 1, 1, &s, 0) == 0);
    CHECKF(t[0] == 128 && t[1] == 255 && t[2] == 0 && t[3] == 64, "%u %u %u %u", t[0], t[1], t[2], t[3]);
    gm_surface_free(&s);
    /* Depth from UNSIGNED_INT_24_8 into D24S8: depth and stencil both land. */
    CHECK(gm_surface_alloc(&s, GM_FMT_D24S8, 1, 1, 1, 1) == 0);
    uint32_t ds = (0x800000u << 8) | 7u;
    CHECK(gmf_unpack_to_surface(&ds, 4, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4, 1, 1, 1, &s, 0) == 0);
    float z = gm_format_unpack_depth(GM_FMT_D24S8, s.data);
    CHECKF(z > 0.49f && z < 0.51f, "%f", z);
    CHECK(gm_format_unpack_stencil(GM_FMT_D24S8, s.data) == 7);
    gm_surface_free(&s);
    /* The model's image budget: a 16384x16384 RGBA32F target (4 GiB) is refused, not allocated;
     * 16384x16384 RGBA8 (exactly 1 GiB) is within it (not allocated here). */
    CHECK(gm_surface_alloc(&s, GM_FMT_RGBA32F, 16384, 16384, 1, 1) == -1 && s.data == NULL);
    CHECK(gm_surface_alloc(&s, GM_FMT_RGBA8, 8192, 8192, 17, 1) == -1 && s.data == NULL);
    CHECK((uint64_t)16384 * 16384 * 4 <= GM_SURFACE_MAX_BYTES);
}

/* Records built by hand: a context, a clear colour and glClear, a draw without a program. */
static void test_runner(void)
{
    gmf_surface_desc sd = { 1, 8, 4, false };
    gmf_config cfg = { .surfaces = &sd, .n_surfaces = 1 };
    char err[128];
    gmf_runner *r = gmf_create(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r)
        return;
    gmf_event ev;
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = GLR_PSEUDO_CONTEXT_CREATE;
    c.ctx_id = 1;
    c.args[0] = 1;
    c.args[1] = 1;
    CHECK(gmf_feed(r, &c, 0, &ev) == GMF_OK);
    memset(&c, 0, sizeof c);
    c.ctx_id = 1;
    c.cmd = GLR_CMD_glClearColor;
    float col[4] = { 1.0f, 0.5f, 0.0f, 1.0f };
    for (int i = 0; i < 4; i++) {
        uint32_t b;
        memcpy(&b, &col[i], 4);
        c.args[i] = b;
    }
    CHECK(gmf_feed(r, &c, 1, &ev) == GMF_OK && ev.kind == GMF_EV_NONE);
    memset(&c, 0, sizeof c);
    c.ctx_id = 1;
    c.cmd = GLR_CMD_glClear;
    c.args[0] = GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT;
    CHECK(gmf_feed(r, &c, 2, &ev) == GMF_OK && ev.kind == GMF_EV_CLEAR);
    uint8_t *px = NULL;
    int w = 0, h = 0;
    CHECK(gmf_read_default(r, 1, &px, &w, &h) == 0 && w == 8 && h == 4);
    if (px)
        CHECKF(px[0] == 255 && px[1] == 128 && px[2] == 0 && px[3] == 255, "%u %u %u %u", px[0], px[1],
               px[2], px[3]);
    free(px);
    gmf_target tg[GMF_MAX_TARGETS];
    CHECK(gmf_current_targets(r, 1, tg, GMF_MAX_TARGETS) == 2);
    memset(&c, 0, sizeof c);
    c.ctx_id = 1;
    c.cmd = GLR_CMD_glDrawArrays;
    c.args[0] = GL_TRIANGLES;
    c.args[2] = 3;
    /* no program: the fixed-function stages are generated and run (gpu_model/fixedfunc) */
    CHECK(gmf_feed(r, &c, 3, &ev) == GMF_OK && ev.kind == GMF_EV_DRAW && !ev.failed);
    CHECK(ev.n_unsupported == 0);
    /* a program pipeline that was never created (gmf_pipeline.c): reported, counted, the draw failed */
    struct glr_call pc;
    memset(&pc, 0, sizeof pc);
    pc.ctx_id = 1;
    pc.cmd = GLR_CMD_glBindProgramPipeline;
    pc.args[0] = 5;
    CHECK(gmf_feed(r, &pc, 4, &ev) == GMF_OK);
    CHECK(gmf_feed(r, &c, 5, &ev) == GMF_OK && ev.kind == GMF_EV_DRAW && ev.failed);
    CHECK(ev.n_unsupported == 1 && strstr(ev.unsupported[0], "pipeline"));
    const char *names[4];
    uint64_t counts[4];
    CHECK(gmf_unsupported_list(r, names, counts, 4) == 1 && counts[0] == 1);
    gmf_totals t;
    gmf_get_totals(r, &t);
    CHECK(t.draws == 2 && t.clears == 1 && t.draws_failed == 1);
    gmf_destroy(r);
}

int main(void)
{
    test_formats();
    test_unpack();
    test_runner();
    TEST_DONE();
}
