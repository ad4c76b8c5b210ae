/* test_msaa.c - sample-level multisampling: per-sample coverage with the standard 4x
 * positions, gl_SampleMaskIn, GL_SAMPLE_MASK, GL_SAMPLE_COVERAGE, alpha-to-coverage,
 * per-sample depth, sample shading passes, GL_MULTISAMPLE off, and resolve rounding. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <string.h>

#define W 8
#define H 8
#define NS 4

typedef struct h_t {
    float pos[6][4];
    uint32_t mask_in[H][W];
    int lanes, sample_lanes[NS];
} h_t;

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    h_t *h = user;
    (void)inst;
    for (int i = 0; i < count; i++)
        memcpy(out[i].pos, h->pos[id[i]], sizeof(out[i].pos));
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    h_t *h = user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->live & (1u << l)))
            continue;
        h->lanes++;
        if (w->sample_id >= 0 && w->sample_id < NS)
            h->sample_lanes[w->sample_id]++;
        h->mask_in[w->y[l]][w->x[l]] |= w->sample_mask_in[l];
        w->color[0].f[0][l] = 1.0f;
        w->color[0].f[3][l] = 0.3f;
    }
    return 0;
}

/* Deferred shading (gm_pipe_internal.h): queue up to 3 warps, complete them in order. */
static gm_pipe_fs_warp *fifo[64];
static int fifo_head, fifo_n;
static int fs_queued(void *user, gm_pipe_fs_warp *w)
{
    if (!w) {
        if (fifo_n == 0)
            return 1;
        gm_pipe_fs_warp *o = fifo[fifo_head];
        fifo_head = (fifo_head + 1) % 64;
        fifo_n--;
        return fs_cb(user, o);
    }
    fifo[(fifo_head + fifo_n) % 64] = w;
    fifo_n++;
    return fifo_n >= 3 ? GM_PIPE_QUEUED_FULL : GM_PIPE_QUEUED;
}

static gm_pipe_context ctx;
static gm_surface rt, ds;
static h_t h;

/* Rectangle x0..x1 (window pixels) over the whole height, depth from zl (left edge of
 * the framebuffer) to zr (right edge), as two triangles. */
static void rect(float x0, float x1, float zl, float zr)
{
    float nx0 = x0 / W * 2.0f - 1.0f, nx1 = x1 / W * 2.0f - 1.0f;
    float z0 = zl + (zr - zl) * (nx0 + 1.0f) * 0.5f, z1 = zl + (zr - zl) * (nx1 + 1.0f) * 0.5f;
    float p[6][4] = {{nx0, -1, z0, 1}, {nx1, -1, z1, 1}, {nx0, 1, z0, 1},
                     {nx1, -1, z1, 1}, {nx1, 1, z1, 1}, {nx0, 1, z0, 1}};
    memcpy(h.pos, p, sizeof(p));
}

static void reset(void)
{
    memset(&ctx, 0, sizeof(ctx));
    memset(&h, 0, sizeof(h));
    gm_surface_free(&rt);
    gm_surface_free(&ds);
    gm_surface_alloc(&rt, GM_FMT_RGBA8, W, H, 1, NS);
    gm_surface_alloc(&ds, GM_FMT_D32F, W, H, 1, NS);
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.fb.width = W;
    ctx.fb.height = H;
    ctx.fb.color[0] = &rt;
    ctx.vs = vs_cb; ctx.vs_user = &h;
    ctx.fs = fs_cb; ctx.fs_user = &h;
}

static int draw(void)
{
    gm_pipe_draw d = {GL_TRIANGLES, 0, 6, NULL, 0, 0, 1, 0};
    return gm_pipe_draw_exec(&ctx, &d);
}

/* Samples of pixel (x, y) whose red channel was written. */
static uint32_t written(int x, int y)
{
    uint32_t m = 0;
    for (int s = 0; s < NS; s++)
        if (gm_surface_texel(&rt, x, y, 0)[s * 4] != 0)
            m |= 1u << s;
    return m;
}

int main(void)
{
    /* standard 4x positions: x offsets 0.375, 0.875, 0.125, 0.625 */
    reset();
    rect(0.0f, 2.5f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(1, 3), 0xf);
    CHECK_EQ_INT(written(2, 3), 0x5);      /* samples at x 2.375 and 2.125 */
    CHECK_EQ_INT(written(3, 3), 0);
    CHECK_EQ_INT(h.mask_in[3][2], 0x5);
    CHECK_EQ_INT(h.mask_in[3][0], 0xf);
    /* once per pixel and triangle: pixels on the shared diagonal are shaded twice */
    CHECK(h.lanes >= 3 * H && h.lanes <= 3 * H + 8);
    CHECK_EQ_INT(ctx.stats.fragments_passed, (2 * 4 + 2) * H);

    /* edge at 2.7: sample 3 (2.625) joins */
    reset();
    rect(0.0f, 2.7f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(2, 0), 0xd);

    /* GL_SAMPLE_MASK */
    reset();
    ctx.state.sample_mask = 0x3;
    rect(0.0f, 8.0f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(5, 5), 0x3);

    /* GL_SAMPLE_COVERAGE 0.5 inverted: the first two samples are removed */
    reset();
    ctx.state.sample_coverage = true;
    ctx.state.sample_coverage_value = 0.5f;
    ctx.state.sample_coverage_invert = true;
    rect(0.0f, 8.0f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(5, 5), 0xc);

    /* GL_MULTISAMPLE off: pixel centres decide, every sample written */
    reset();
    ctx.state.multisample = false;
    rect(0.0f, 2.7f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(2, 0), 0xf);
    reset();
    ctx.state.multisample = false;
    rect(0.0f, 2.4f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(2, 0), 0);

    /* alpha-to-coverage: the shader's alpha 0.3 keeps samples with 0.3 > s/4 */
    CHECK_EQ_INT(gm_msaa_alpha_to_coverage(0.3f, 4), 0x3);
    CHECK_EQ_INT(gm_msaa_alpha_to_coverage(0.0f, 4), 0x0);
    CHECK_EQ_INT(gm_msaa_alpha_to_coverage(1.0f, 4), 0xf);
    reset();
    ctx.state.alpha_to_coverage = true;
    rect(0.0f, 8.0f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(4, 4), 0x3);

    /* per-sample depth: window z = x / 8 against a cleared 4.5 / 8 */
    reset();
    ctx.fb.depth = &ds;
    gm_pipe_clear_depth_stencil(&ctx, true, 4.5f / 8.0f, false, 0);
    ctx.state.depth_test = true;
    ctx.state.depth_func = GL_LESS;
    rect(0.0f, 8.0f, -1.0f, 1.0f);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(written(3, 2), 0xf);
    CHECK_EQ_INT(written(4, 2), 0x5);      /* 4.375 and 4.125 are nearer than 4.5 */
    CHECK_EQ_INT(written(5, 2), 0);

    /* sample shading: one pass per sample, each lane sees its own sample */
    reset();
    ctx.state.sample_shading = true;
    ctx.state.min_sample_shading = 1.0f;
    rect(0.0f, 2.5f, 0, 0);
    CHECK_EQ_INT(draw(), 0);
    CHECK_EQ_INT(h.sample_lanes[0], 3 * H);
    CHECK_EQ_INT(h.sample_lanes[1], 2 * H);
    CHECK_EQ_INT(h.sample_lanes[2], 3 * H);
    CHECK_EQ_INT(h.sample_lanes[3], 2 * H);
    CHECK_EQ_INT(written(2, 1), 0x5);

    /* deferred (queued) warps give the same samples as synchronous ones: two overlapping
     * depth-sloped rectangles, sample shading and alpha-to-coverage */
    uint8_t img[2][W * H * NS * 4];
    for (int pass = 0; pass < 2; pass++) {
        reset();
        fifo_head = fifo_n = 0;
        if (pass) ctx.fs = fs_queued;
        ctx.fb.depth = &ds;
        gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
        ctx.state.depth_test = true;
        ctx.state.depth_func = GL_LESS;
        ctx.state.sample_shading = true;
        ctx.state.min_sample_shading = 1.0f;
        rect(0.0f, 6.3f, -1.0f, 1.0f);
        CHECK_EQ_INT(draw(), 0);
        ctx.state.alpha_to_coverage = true;
        rect(1.6f, 8.0f, 1.0f, -1.0f);
        CHECK_EQ_INT(draw(), 0);
        CHECK_EQ_INT(fifo_n, 0);
        memcpy(img[pass], rt.data, sizeof(img[pass]));
    }
    CHECK(memcmp(img[0], img[1], sizeof(img[0])) == 0);

    /* resolve: float average of the samples, rounded to nearest */
    gm_surface one;
    gm_surface_alloc(&one, GM_FMT_RGBA8, W, H, 1, 1);
    reset();
    uint8_t *p = gm_surface_texel(&rt, 0, 0, 0);
    p[0] = 255;                 /* red: 255,0,0,0 -> 63.75 -> 64 */
    p[1] = 1; p[5] = 2;         /* green: 1,2,0,0 -> 0.75 -> 1 */
    p[2] = 2; p[6] = 0;         /* blue: 2,0,0,0 -> 0.5 -> 0 or 1 (nearest even: 0) */
    CHECK_EQ_INT(gm_pipe_resolve(&rt, &one), 0);
    uint8_t *q = gm_surface_texel(&one, 0, 0, 0);
    CHECK_EQ_INT(q[0], 64);
    CHECK_EQ_INT(q[1], 1);
    CHECK(q[2] <= 1);
    gm_surface bad;
    gm_surface_alloc(&bad, GM_FMT_RGBA8, W + 1, H, 1, 1);
    CHECK(gm_pipe_resolve(&rt, &bad) != 0);   /* size mismatch: clear error */
    gm_surface_free(&bad);
    gm_surface_free(&one);
    gm_surface_free(&rt);
    gm_surface_free(&ds);
    TEST_DONE();
}
