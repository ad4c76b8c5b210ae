/* test_fragops.c - depth and stencil tests, blending (8-bit fixed-point path and float
 * path), colour masks, logic op, clears with scissor and masks. Drives the pipeline
 * with full-screen quads whose FS outputs a constant colour. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <math.h>
#include <string.h>

#define W 8
#define H 8

typedef struct fsout {
    float color[4]; float color1[4]; float z; bool write_z; uint32_t ucolor[4];
    float z_slope;   /* z_ndc grows by z_slope * x_ndc: a depth ramp along x */
    const float (*pixel_color)[4];   /* when set: colour 0 of pixel (x, y) is [y * W + x] */
} fsout;

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    const fsout *o = user;
    (void)inst;
    for (int i = 0; i < count; i++) {
        out[i].pos[0] = (id[i] & 1) ? 1.0f : -1.0f;
        out[i].pos[1] = (id[i] & 2) ? 1.0f : -1.0f;
        out[i].pos[2] = o->z + o->z_slope * out[i].pos[0];
        out[i].pos[3] = 1.0f;
    }
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    const fsout *o = user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        for (int c = 0; c < 4; c++) {
            w->color[0].f[c][l] = o->pixel_color && w->x[l] < W && w->y[l] < H
                                      ? o->pixel_color[w->y[l] * W + w->x[l]][c]
                                      : o->color[c];
            w->color[1].u[c][l] = o->ucolor[c];
            w->color[GM_PIPE_MAX_RT].f[c][l] = o->color1[c];
        }
    return 0;
}

static gm_pipe_context ctx;
static gm_surface rt, rti, ds;
static fsout out;

static void reset(void)
{
    memset(&ctx, 0, sizeof(ctx));
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.fb.width = W; ctx.fb.height = H;
    ctx.fb.color[0] = &rt;
    ctx.fb.depth = &ds;
    ctx.fb.stencil = &ds;
    ctx.vs = vs_cb; ctx.vs_user = &out;
    ctx.fs = fs_cb; ctx.fs_user = &out;
    memset(&out, 0, sizeof(out));
}

static void draw(void)
{
    gm_pipe_draw d = {GL_TRIANGLE_STRIP, 0, 4, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
}

static const uint8_t *px(int x, int y) { return gm_surface_texel(&rt, x, y, 0); }

static void test_depth(void)
{
    static const uint32_t funcs[8] = {GL_NEVER, GL_LESS, GL_EQUAL, GL_LEQUAL,
                                      GL_GREATER, GL_NOTEQUAL, GL_GEQUAL, GL_ALWAYS};
    /* stored depth 0.5 (z_ndc 0); fragments at 0.25, 0.5, 0.75 */
    static const int expect[8][3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0},
                                     {0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {1, 1, 1}};
    for (int f = 0; f < 8; f++)
        for (int k = 0; k < 3; k++) {
            reset();
            gm_pipe_clear_depth_stencil(&ctx, true, 0.5f, true, 0);
            const float black[4] = {0, 0, 0, 0};
            gm_pipe_clear_color(&ctx, 0, black);
            ctx.state.depth_test = true;
            ctx.state.depth_func = funcs[f];
            out.z = -0.5f + 0.5f * (float)k;
            out.color[0] = 1.0f; out.color[3] = 1.0f;
            draw();
            CHECK_EQ_INT(px(3, 3)[0] == 255, expect[f][k]);
        }
    /* depth write mask */
    reset();
    gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
    ctx.state.depth_test = true;
    ctx.state.depth_write = false;
    out.z = 0.0f;
    draw();
    CHECK(gm_format_unpack_depth(ds.format, gm_surface_texel(&ds, 2, 2, 0)) == 1.0f);
    ctx.state.depth_write = true;
    draw();
    CHECK(fabsf(gm_format_unpack_depth(ds.format, gm_surface_texel(&ds, 2, 2, 0)) - 0.5f) < 1e-6f);
}

/* The per-warp path of a depth test without stencil on D24S8 against ds_sample's general
 * path, which a stencil test that always passes and keeps the buffer forces: the same depth
 * buffer bytes (stencil bytes untouched), colours and pass/fail counts for every compare
 * function, with and without depth writes, for a depth ramp along x over a stored ramp
 * along y. */
static void test_depth24_fast_path(void)
{
    static const uint32_t funcs[8] = {GL_NEVER, GL_LESS, GL_EQUAL, GL_LEQUAL,
                                      GL_GREATER, GL_NOTEQUAL, GL_GEQUAL, GL_ALWAYS};
    size_t bytes = (size_t)ds.row_stride * H, cbytes = (size_t)rt.row_stride * H;
    static uint8_t dsb[2][W * H * 8], cb[2][W * H * 8];
    CHECK(bytes <= sizeof dsb[0] && cbytes <= sizeof cb[0]);
    for (int f = 0; f < 8; f++)
        for (int wr = 0; wr < 2; wr++) {
            uint64_t pass[2], fail[2];
            for (int general = 0; general < 2; general++) {
                reset();
                const float black[4] = {0, 0, 0, 0};
                gm_pipe_clear_color(&ctx, 0, black);
                for (int y = 0; y < H; y++)
                    for (int x = 0; x < W; x++) {
                        uint8_t *p = gm_surface_texel(&ds, x, y, 0);
                        gm_format_pack_depth(ds.format, (float)y / (float)(H - 1), p);
                        gm_format_pack_stencil(ds.format, (uint8_t)(x * 16 + y + 1), p);
                    }
                ctx.state.depth_test = true;
                ctx.state.depth_func = funcs[f];
                ctx.state.depth_write = wr;
                ctx.state.stencil_test = general;
                out.z_slope = 0.9f;
                out.color[0] = 1.0f; out.color[1] = 0.5f; out.color[3] = 1.0f;
                draw();
                memcpy(dsb[general], ds.data, bytes);
                memcpy(cb[general], rt.data, cbytes);
                pass[general] = ctx.stats.depth_pass;
                fail[general] = ctx.stats.depth_fail;
            }
            CHECK(memcmp(dsb[0], dsb[1], bytes) == 0);
            CHECK(memcmp(cb[0], cb[1], cbytes) == 0);
            CHECK_EQ_INT((int)pass[0], (int)pass[1]);
            CHECK_EQ_INT((int)fail[0], (int)fail[1]);
            CHECK_EQ_INT((int)(pass[0] + fail[0]), W * H);
            if (funcs[f] == GL_LESS)   /* the ramps cross: some pass, some fail */
                CHECK(pass[0] > 0 && fail[0] > 0);
            for (int y = 0; y < H; y++)   /* stencil bytes kept */
                for (int x = 0; x < W; x++)
                    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, x, y, 0)),
                                 (x * 16 + y + 1) & 0xff);
        }
}

/* The per-warp RGBA8 write without blending: colours clamped and rounded to nearest like
 * the general path (NaN and negatives to 0, above 1 to 255, 0.5 * 255 = 127.5 to 128). */
static void test_plain_rgba8(void)
{
    reset();
    out.color[0] = -0.5f; out.color[1] = 0.5f; out.color[2] = 1.5f; out.color[3] = NAN;
    draw();
    CHECK_EQ_INT(px(1, 2)[0], 0);
    CHECK_EQ_INT(px(1, 2)[1], 128);
    CHECK_EQ_INT(px(1, 2)[2], 255);
    CHECK_EQ_INT(px(1, 2)[3], 0);
    out.color[0] = 1.0f; out.color[1] = 0.25f; out.color[2] = 0.0f; out.color[3] = 1.0f;
    draw();
    CHECK_EQ_INT(px(6, 5)[0], 255);
    CHECK_EQ_INT(px(6, 5)[1], 64);  /* 63.75 rounds to nearest, not down */
    CHECK_EQ_INT(px(6, 5)[2], 0);
    CHECK_EQ_INT(px(6, 5)[3], 255);
}

/* The per-warp RGBA8 write (four lanes at a time in SSE2) against write_rt's per-lane 8-bit
 * path (blending on with GL_ONE, GL_ZERO, which writes the source's unorm8 value): every
 * pixel a different colour, with NaNs, infinities, signed zeros, denormals, exact unorm8
 * values and the ties half-way between them, and values just around 0 and 1. */
static float special_channel(unsigned *seed)
{
    unsigned k = gm_test_rand(seed) % 256u;
    switch (gm_test_rand(seed) % 12u) {
    case 0: return NAN;
    case 1: return -NAN;
    case 2: return (gm_test_rand(seed) & 1) ? INFINITY : -INFINITY;
    case 3: return (gm_test_rand(seed) & 1) ? 0.0f : -0.0f;
    case 4: return (gm_test_rand(seed) & 1) ? 1e-40f : -1e-40f;
    case 5: return (float)k / 255.0f;
    case 6: return ((float)k + 0.5f) / 255.0f;
    case 7: return nextafterf(((float)k + 0.5f) / 255.0f, (gm_test_rand(seed) & 1) ? 2.0f : -1.0f);
    case 8: return nextafterf(1.0f, (gm_test_rand(seed) & 1) ? 2.0f : 0.0f);
    case 9: return gm_test_randf(seed, 1.0f, 1e30f);
    default: return gm_test_randf(seed, -0.5f, 1.5f);
    }
}

static void test_plain_rgba8_lanes(void)
{
    static float colors[W * H][4];
    unsigned seed = 0x5eed1234u;
    for (int round = 0; round < 200; round++) {
        for (int p = 0; p < W * H; p++)
            for (int c = 0; c < 4; c++)
                colors[p][c] = special_channel(&seed);
        uint8_t plain[W * H * 4], general[W * H * 4];
        reset();
        out.pixel_color = colors;
        draw();
        memcpy(plain, rt.data, sizeof(plain));
        memset(rt.data, 0x5a, sizeof(plain));
        gm_pipe_blend_rt *b = &ctx.state.blend[0];
        b->enable = true;
        b->src_rgb = b->src_alpha = GL_ONE;
        b->dst_rgb = b->dst_alpha = GL_ZERO;
        draw();
        memcpy(general, rt.data, sizeof(general));
        int bad = 0;
        for (int i = 0; i < W * H * 4; i++)
            if (plain[i] != general[i]) {
                if (bad++ < 4)
                    fprintf(stderr, "round %d pixel %d channel %d: %.9g -> plain %u, general %u\n",
                            round, i / 4, i % 4, (double)colors[i / 4][i % 4], plain[i], general[i]);
            }
        CHECK_EQ_INT(bad, 0);
        if (bad)
            break;
    }
}

static void test_stencil(void)
{
    reset();
    gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, true, 5);
    ctx.state.stencil_test = true;
    gm_pipe_stencil_face *f = &ctx.state.stencil[0];
    f->func = GL_EQUAL; f->ref = 5; f->value_mask = 0xff;
    f->zpass_op = GL_INCR; f->fail_op = GL_ZERO;
    draw();
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 6);
    draw();   /* now 6 != 5: fail op -> 0 */
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 0);
    /* write mask, INVERT, DECR_WRAP */
    f->func = GL_ALWAYS; f->zpass_op = GL_DECR_WRAP;
    draw();
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 255);
    f->zpass_op = GL_INVERT; f->write_mask = 0x0f;
    draw();
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 0xf0);
    /* zfail op with the depth test failing; back face uses stencil[1] */
    ctx.state.depth_test = true; ctx.state.depth_func = GL_NEVER;
    f->write_mask = 0xff; f->zfail_op = GL_REPLACE; f->ref = 77;
    draw();
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 77);
    ctx.state.front_face = GL_CW;   /* the quad is now back-facing */
    ctx.state.stencil[1] = *f;
    ctx.state.stencil[1].ref = 9;
    draw();
    CHECK_EQ_INT(gm_format_unpack_stencil(ds.format, gm_surface_texel(&ds, 1, 1, 0)), 9);
}

static void test_blend(void)
{
    reset();
    const float dst[4] = {0.2f, 0.4f, 0.6f, 0.8f};
    gm_pipe_clear_color(&ctx, 0, dst);
    uint8_t d8[4];
    memcpy(d8, px(0, 0), 4);
    gm_pipe_blend_rt *b = &ctx.state.blend[0];
    b->enable = true;
    b->src_rgb = b->src_alpha = GL_SRC_ALPHA;
    b->dst_rgb = b->dst_alpha = GL_ONE_MINUS_SRC_ALPHA;
    out.color[0] = 1.0f; out.color[1] = 0.0f; out.color[2] = 0.5f; out.color[3] = 0.25f;
    draw();
    /* expected in 8-bit fixed point */
    uint8_t s8[4] = {255, 0, 128, 64};
    for (int c = 0; c < 4; c++) {
        unsigned a = s8[c] * 64u, bb = d8[c] * (255u - 64u);
        a = (a + (a >> 8) + 0x80) >> 8;
        bb = (bb + (bb >> 8) + 0x80) >> 8;
        unsigned e = a + bb > 255 ? 255 : a + bb;
        CHECK_EQ_INT(px(4, 4)[c], e);
    }
    /* min / max / subtract / constant colour */
    gm_pipe_clear_color(&ctx, 0, dst);
    b->eq_rgb = GL_MAX; b->eq_alpha = GL_MIN;
    draw();
    CHECK_EQ_INT(px(1, 1)[0], 255);
    CHECK_EQ_INT(px(1, 1)[1], d8[1]);
    CHECK_EQ_INT(px(1, 1)[3], 64);
    gm_pipe_clear_color(&ctx, 0, dst);
    b->eq_rgb = b->eq_alpha = GL_FUNC_REVERSE_SUBTRACT;
    b->src_rgb = b->src_alpha = GL_ONE; b->dst_rgb = b->dst_alpha = GL_ONE;
    draw();
    CHECK_EQ_INT(px(1, 1)[0], 0);                 /* 51 - 255 saturates at 0 */
    CHECK_EQ_INT(px(1, 1)[1], d8[1]);
    gm_pipe_clear_color(&ctx, 0, dst);
    b->eq_rgb = b->eq_alpha = GL_FUNC_ADD;
    b->src_rgb = b->src_alpha = GL_CONSTANT_COLOR; b->dst_rgb = b->dst_alpha = GL_ZERO;
    ctx.state.blend_color[0] = 0.5f;
    draw();
    CHECK_EQ_INT(px(1, 1)[0], 128);
    CHECK_EQ_INT(px(1, 1)[1], 0);
    /* dual source */
    gm_pipe_clear_color(&ctx, 0, dst);
    b->src_rgb = b->src_alpha = GL_SRC1_COLOR;
    out.color1[0] = 0.5f;
    draw();
    CHECK_EQ_INT(px(1, 1)[0], 128);
    /* colour write mask */
    b->enable = false;
    gm_pipe_clear_color(&ctx, 0, dst);
    b->color_mask = 0x5;   /* R and B */
    draw();
    CHECK_EQ_INT(px(2, 2)[0], 255);
    CHECK_EQ_INT(px(2, 2)[1], d8[1]);
    CHECK_EQ_INT(px(2, 2)[2], 128);
    CHECK_EQ_INT(px(2, 2)[3], d8[3]);
    /* float render target: blending in float, no clamping */
    gm_surface f32;
    gm_surface_alloc(&f32, GM_FMT_RGBA32F, W, H, 1, 1);
    reset();
    ctx.fb.color[0] = &f32;
    const float two[4] = {2.0f, 2.0f, 2.0f, 2.0f};
    gm_pipe_clear_color(&ctx, 0, two);
    b = &ctx.state.blend[0];
    b->enable = true; b->src_rgb = b->src_alpha = GL_ONE; b->dst_rgb = b->dst_alpha = GL_ONE;
    out.color[0] = 1.5f;
    draw();
    float o[4];
    gm_format_unpack_rgba(GM_FMT_RGBA32F, gm_surface_texel(&f32, 3, 3, 0), o);
    CHECK(o[0] == 3.5f);
    gm_surface_free(&f32);
}

static void test_clear_and_mrt(void)
{
    reset();
    const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    gm_pipe_clear_color(&ctx, 0, red);
    ctx.state.scissor_enable = true;
    ctx.state.scissor[0] = 2; ctx.state.scissor[1] = 1; ctx.state.scissor[2] = 3; ctx.state.scissor[3] = 2;
    gm_pipe_clear_color(&ctx, 0, green);
    CHECK_EQ_INT(px(2, 1)[1], 255);
    CHECK_EQ_INT(px(4, 2)[1], 255);
    CHECK_EQ_INT(px(5, 2)[1], 0);
    CHECK_EQ_INT(px(2, 3)[1], 0);
    /* scissored draw */
    out.color[2] = 1.0f;
    draw();
    CHECK_EQ_INT(px(3, 2)[2], 255);
    CHECK_EQ_INT(px(0, 0)[2], 0);
    /* integer MRT */
    reset();
    ctx.fb.color[1] = &rti;
    ctx.info.rt_is_integer = 2;
    const uint32_t zero[4] = {0, 0, 0, 0};
    gm_pipe_clear_color_i(&ctx, 1, zero);
    out.ucolor[0] = 1234567; out.ucolor[3] = 42;
    draw();
    uint32_t v[4];
    gm_format_unpack_rgba_i(rti.format, gm_surface_texel(&rti, 7, 7, 0), v);
    CHECK_EQ_INT(v[0], 1234567);
    CHECK_EQ_INT(v[3], 42);
    /* logic op XOR on unorm8 */
    reset();
    const float grey[4] = {1.0f, 0.0f, 1.0f, 1.0f};
    gm_pipe_clear_color(&ctx, 0, grey);
    ctx.state.color_logic_op = true;
    ctx.state.logic_op = GL_XOR;
    out.color[0] = 1.0f; out.color[1] = 1.0f;
    draw();
    CHECK_EQ_INT(px(0, 0)[0], 0);
    CHECK_EQ_INT(px(0, 0)[1], 255);
}

int main(void)
{
    gm_surface_alloc(&rt, GM_FMT_RGBA8, W, H, 1, 1);
    gm_surface_alloc(&rti, GM_FMT_RGBA32UI, W, H, 1, 1);
    gm_surface_alloc(&ds, GM_FMT_D24S8, W, H, 1, 1);
    test_depth();
    test_depth24_fast_path();
    test_plain_rgba8();
    test_plain_rgba8_lanes();
    test_stencil();
    test_blend();
    test_clear_and_mrt();
    gm_surface_free(&rt);
    gm_surface_free(&rti);
    gm_surface_free(&ds);
    TEST_DONE();
}
