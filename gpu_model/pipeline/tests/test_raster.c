/* test_raster.c - rasterization rules: fill convention, watertight meshes, tiny and
 * degenerate triangles, clipping, culling. Uses the full draw path with callbacks
 * that pass positions through and count fragment hits per pixel. */
#include "gm_pipeline.h"
#include "gm_raster.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <string.h>

#define W 64
#define H 48

typedef struct harness {
    float (*pos)[4];          /* clip-space positions indexed by vertex id */
    int hits[H][W];
    int helpers;
} harness;

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    harness *h = user;
    (void)inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, h->pos[id[i]], sizeof(out[i].pos));
        out[i].var[0][0] = (float)id[i];
    }
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    harness *h = user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (w->live & (1u << l)) {
            if (w->x[l] >= 0 && w->x[l] < W && w->y[l] >= 0 && w->y[l] < H)
                h->hits[w->y[l]][w->x[l]]++;
        } else if (w->present & (1u << l)) {
            h->helpers++;
        }
    }
    return 0;
}

static void init_ctx(gm_pipe_context *ctx, harness *h, bool winsys)
{
    memset(ctx, 0, sizeof(*ctx));
    gm_pipe_state_default(&ctx->state, W, H);
    ctx->fb.width = W;
    ctx->fb.height = H;
    ctx->fb.winsys_orientation = winsys;
    ctx->vs = vs_cb; ctx->vs_user = h;
    ctx->fs = fs_cb; ctx->fs_user = h;
    ctx->info.num_varyings = 1;
    memset(h->hits, 0, sizeof(h->hits));
    h->helpers = 0;
}

/* window coords -> clip coords for the default viewport */
static void win2clip(float x, float y, float out[4])
{
    out[0] = x / W * 2.0f - 1.0f;
    out[1] = y / H * 2.0f - 1.0f;
    out[2] = 0.0f;
    out[3] = 1.0f;
}

/* A jittered grid mesh covering the whole viewport (and beyond, to exercise
 * clipping): every pixel must be hit exactly once. */
static void test_mesh(bool winsys, unsigned seed)
{
    enum { GX = 13, GY = 11 };
    static float pos[(GX + 1) * (GY + 1)][4];
    static uint32_t idx[GX * GY * 6];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, winsys);
    h.pos = pos;
    for (int j = 0; j <= GY; j++)
        for (int i = 0; i <= GX; i++) {
            float x = -6.0f + (W + 12.0f) * i / GX, y = -5.0f + (H + 10.0f) * j / GY;
            if (i > 0 && i < GX) x += gm_test_randf(&seed, -1.0f, 1.0f);
            if (j > 0 && j < GY) y += gm_test_randf(&seed, -1.0f, 1.0f);
            /* put some vertices exactly on pixel centres and pixel edges */
            if ((i + j) % 5 == 0) { x = (float)(int)x + 0.5f; y = (float)(int)y + 0.5f; }
            if ((i + j) % 7 == 0) { x = (float)(int)x; }
            win2clip(x, y, pos[j * (GX + 1) + i]);
        }
    int k = 0;
    for (int j = 0; j < GY; j++)
        for (int i = 0; i < GX; i++) {
            uint32_t a = (uint32_t)(j * (GX + 1) + i), b = a + 1, c = a + GX + 1, d = c + 1;
            bool flip = ((i ^ j) & 1) != 0;     /* mix diagonals and windings */
            if (flip) { idx[k++] = a; idx[k++] = b; idx[k++] = d; idx[k++] = a; idx[k++] = d; idx[k++] = c; }
            else { idx[k++] = a; idx[k++] = c; idx[k++] = b; idx[k++] = b; idx[k++] = c; idx[k++] = d; }
        }
    gm_pipe_draw d = {GL_TRIANGLES, 0, k, idx, GL_UNSIGNED_INT, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            if (h.hits[y][x] != 1) { bad++; if (getenv("GM_VERBOSE")) fprintf(stderr, "pixel %d,%d hits %d\n", x, y, h.hits[y][x]); }
    CHECK_EQ_INT(bad, 0);
}

/* A fan around a centre exactly on a pixel centre: hit once each. */
static void test_fan(bool winsys)
{
    enum { N = 37 };
    static float pos[N + 2][4];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, winsys);
    h.pos = pos;
    win2clip(20.5f, 20.5f, pos[0]);
    for (int i = 0; i <= N; i++) {
        /* square outline of half-size 12, with vertices at 37 positions */
        float t = (float)i / N * 4.0f;
        float x, y;
        if (t < 1) { x = 8.5f + 24 * t; y = 8.5f; }
        else if (t < 2) { x = 32.5f; y = 8.5f + 24 * (t - 1); }
        else if (t < 3) { x = 32.5f - 24 * (t - 2); y = 32.5f; }
        else { x = 8.5f; y = 32.5f - 24 * (t - 3); }
        win2clip(x, y, pos[i + 1]);
    }
    gm_pipe_draw d = {GL_TRIANGLE_FAN, 0, N + 2, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int inside = 0, bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            if (h.hits[y][x] > 1) bad++;
            inside += h.hits[y][x];
        }
    CHECK_EQ_INT(bad, 0);
    /* square [8.5, 32.5): pixel centres x+0.5 in it -> x in 8..31: 24x24 */
    CHECK_EQ_INT(inside, 24 * 24);
}

/* The fill rule on an axis-aligned rectangle whose edges lie on pixel centres. */
static void test_fill_rule(bool winsys)
{
    static float pos[4][4];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, winsys);
    h.pos = pos;
    win2clip(2.5f, 3.5f, pos[0]);
    win2clip(10.5f, 3.5f, pos[1]);
    win2clip(2.5f, 9.5f, pos[2]);
    win2clip(10.5f, 9.5f, pos[3]);
    gm_pipe_draw d = {GL_TRIANGLE_STRIP, 0, 4, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int total = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) total += h.hits[y][x];
    CHECK_EQ_INT(total, 8 * 6);
    /* left edge (x = 2.5 centre) included, right (10.5) excluded */
    CHECK_EQ_INT(h.hits[5][2], 1);
    CHECK_EQ_INT(h.hits[5][10], 0);
    /* Horizontal edges: llvmpipe's rule is top-left in its raster space.  FBOs:
     * raster y = window y, so the edge at smaller window y is included.  Window-system
     * framebuffers: raster is flipped and bottom_edge_rule is set, which again
     * includes the smaller window y edge (GL's "bottom" edge). */
    CHECK_EQ_INT(h.hits[3][5], 1);
    CHECK_EQ_INT(h.hits[9][5], 0);
}

static void test_tiny_and_degenerate(void)
{
    static float pos[9][4];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, false);
    h.pos = pos;
    /* tiny triangle containing the centre of pixel (5,5) */
    win2clip(5.4f, 5.4f, pos[0]); win2clip(5.7f, 5.4f, pos[1]); win2clip(5.4f, 5.7f, pos[2]);
    /* tiny triangle containing no centre */
    win2clip(7.1f, 7.1f, pos[3]); win2clip(7.3f, 7.1f, pos[4]); win2clip(7.1f, 7.3f, pos[5]);
    /* degenerate (collinear) */
    win2clip(1.0f, 1.0f, pos[6]); win2clip(20.0f, 20.0f, pos[7]); win2clip(10.0f, 10.0f, pos[8]);
    gm_pipe_draw d = {GL_TRIANGLES, 0, 9, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int total = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) total += h.hits[y][x];
    CHECK_EQ_INT(h.hits[5][5], 1);
    CHECK_EQ_INT(total, 1);
    /* the quad of pixel (5,5) ran with three helper lanes */
    CHECK_EQ_INT(h.helpers, 3);
}

static void test_cull(void)
{
    static float pos[6][4];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, false);
    h.pos = pos;
    /* CCW (front) and CW (back) triangles in window space */
    win2clip(1, 1, pos[0]); win2clip(20, 1, pos[1]); win2clip(1, 20, pos[2]);
    win2clip(30, 1, pos[3]); win2clip(30, 20, pos[4]); win2clip(49, 1, pos[5]);
    for (int winsys = 0; winsys < 2; winsys++) {
        init_ctx(&ctx, &h, winsys);
        ctx.state.cull_face = GL_BACK;
        gm_pipe_draw d = {GL_TRIANGLES, 0, 6, NULL, 0, 0, 1, 0};
        CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
        CHECK(h.hits[5][5] == 1);
        CHECK(h.hits[5][35] == 0);
        init_ctx(&ctx, &h, winsys);
        ctx.state.cull_face = GL_FRONT;
        CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
        CHECK(h.hits[5][5] == 0);
        CHECK(h.hits[5][35] == 1);
    }
}

static void test_clip_near_and_user(void)
{
    static float pos[3][4] = {
        {-0.5f, -0.5f, -2.0f, 1.0f},    /* in front of the near plane */
        {0.5f, -0.5f, 0.0f, 1.0f},
        {0.0f, 0.5f, 0.0f, 1.0f},
    };
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, false);
    h.pos = pos;
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int total = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) { total += h.hits[y][x]; CHECK(h.hits[y][x] <= 1); }
    CHECK(total > 0);
    CHECK_EQ_INT(h.hits[12][16], 0);       /* near the clipped-away corner */
    CHECK(ctx.stats.primitives_clipped == 1);
    /* depth clamp disables near clipping: the corner comes back */
    init_ctx(&ctx, &h, false);
    ctx.state.depth_clamp = true;
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK_EQ_INT(h.hits[12][17], 1);
}

static void test_snap(void)
{
    /* round to nearest even of (v - 0.5) * 256 */
    CHECK_EQ_INT(gm_rast_snap(0.5f, 0.5f), 0);
    CHECK_EQ_INT(gm_rast_snap(1.5f, 0.5f), 256);
    CHECK_EQ_INT(gm_rast_snap(0.5f + 1.5f / 256.0f, 0.5f), 2);
    CHECK_EQ_INT(gm_rast_snap(0.5f + 0.5f / 256.0f, 0.5f), 0);
    CHECK_EQ_INT(gm_rast_snap(0.5f + 2.5f / 256.0f, 0.5f), 2);
}

static void test_restart_and_strip(void)
{
    static float pos[8][4];
    harness h;
    gm_pipe_context ctx;
    init_ctx(&ctx, &h, false);
    h.pos = pos;
    win2clip(0, 0, pos[0]); win2clip(10, 0, pos[1]); win2clip(0, 10, pos[2]); win2clip(10, 10, pos[3]);
    win2clip(20, 0, pos[4]); win2clip(30, 0, pos[5]); win2clip(20, 10, pos[6]); win2clip(30, 10, pos[7]);
    uint16_t idx[9] = {0, 1, 2, 3, 0xffff, 4, 5, 6, 7};
    ctx.state.primitive_restart = true;
    ctx.state.restart_index = 0xffff;
    gm_pipe_draw d = {GL_TRIANGLE_STRIP, 0, 9, idx, GL_UNSIGNED_SHORT, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    int total = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) { total += h.hits[y][x]; CHECK(h.hits[y][x] <= 1); }
    CHECK_EQ_INT(total, 200);
    CHECK_EQ_INT(h.hits[5][15], 0);   /* no triangle bridging the restart */
    CHECK_EQ_INT(ctx.stats.vs_invocations, 8);
    /* bad input: invalid index type */
    gm_pipe_draw bad = {GL_TRIANGLES, 0, 3, idx, 0x1234, 0, 1, 0};
    CHECK(gm_pipe_draw_exec(&ctx, &bad) != 0);
    CHECK(ctx.error[0] != 0);
}

int main(void)
{
    test_snap();
    for (int winsys = 0; winsys < 2; winsys++) {
        for (unsigned seed = 1; seed < 40; seed++)
            test_mesh(winsys, seed * 7919u);
        test_fan(winsys);
        test_fill_rule(winsys);
    }
    test_tiny_and_degenerate();
    test_cull();
    test_clip_near_and_user();
    test_restart_and_strip();
    TEST_DONE();
}
