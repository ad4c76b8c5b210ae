/* test_watch.c - the pixel-history observer (gm_pipe_watch.h): the records of the fragments at
 * the watched pixel, in pipeline order, with the values the pipeline stored (depth test with
 * both values, blending inputs and result, discard); nothing without a watch or elsewhere; the
 * quad-only rasterization of gm_pipe_watch.clip. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <string.h>

#define W 32
#define H 32

static gm_pipe_context ctx;
static gm_surface rt, ds;
static float tri_z;
static int lanes;
static bool discard_all;
static gm_watch_rec recs[64];
static int n_recs;

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    (void)user; (void)inst;
    static const float p[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};   /* the lower-left half */
    for (int i = 0; i < count; i++) {
        out[i].pos[0] = p[id[i]][0];
        out[i].pos[1] = p[id[i]][1];
        out[i].pos[2] = tri_z;
        out[i].pos[3] = 1.0f;
    }
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    (void)user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->live & (1u << l)))
            continue;
        lanes++;
        w->color[0].f[0][l] = 1.0f;
        w->color[0].f[1][l] = 0.5f;
        w->color[0].f[2][l] = 0.0f;
        w->color[0].f[3][l] = 0.5f;
        if (discard_all)
            w->discard |= 1u << l;
    }
    return 0;
}

static void on_rec(void *user, const gm_watch_rec *r)
{
    (void)user;
    if (n_recs < 64)
        recs[n_recs++] = *r;
}

static void reset(void)
{
    memset(&ctx, 0, sizeof(ctx));
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.fb.width = W; ctx.fb.height = H;
    ctx.fb.color[0] = &rt;
    ctx.fb.depth = &ds;
    ctx.vs = vs_cb;
    ctx.fs = fs_cb;
    memset(rt.data, 0, rt.layer_stride);
    gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
    ctx.state.depth_test = true;
    ctx.state.depth_func = GL_LESS;
    n_recs = 0;
    lanes = 0;
    discard_all = false;
}

static int draw(float z)
{
    tri_z = z;
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
    return gm_pipe_draw_exec(&ctx, &d);
}

static void test_records(void)
{
    reset();
    gm_pipe_watch wa = { .x = 5, .y = 6, .fn = on_rec };
    ctx.watch = &wa;
    ctx.state.blend[0].enable = true;
    ctx.state.blend[0].src_rgb = ctx.state.blend[0].src_alpha = GL_SRC_ALPHA;
    ctx.state.blend[0].dst_rgb = ctx.state.blend[0].dst_alpha = GL_ONE_MINUS_SRC_ALPHA;
    CHECK_EQ_INT(draw(0.0f), 0);
    /* one fragment: entered with its tests first (no discard: early), shaded, written */
    CHECK_EQ_INT(n_recs, 4);
    CHECK_EQ_INT(recs[0].kind, GM_WATCH_FRAGMENT);
    CHECK(recs[0].early);
    CHECK(recs[0].frag_coord[0] == 5.5f && recs[0].frag_coord[1] == 6.5f);
    CHECK_EQ_INT(recs[1].kind, GM_WATCH_DEPTH_STENCIL);
    CHECK(recs[1].depth_on && recs[1].depth_pass && recs[1].passed && recs[1].depth_written);
    CHECK(recs[1].depth_stored == 1.0 && recs[1].depth_in == 0.5);   /* D32F: z = 0.5 at ndc 0 */
    CHECK_EQ_INT(recs[2].kind, GM_WATCH_SHADED);
    CHECK(!recs[2].discarded && recs[2].out_f[0][0] == 1.0f && recs[2].out_f[0][3] == 0.5f);
    CHECK_EQ_INT(recs[3].kind, GM_WATCH_COLOR);
    CHECK(recs[3].blend && recs[3].surface == rt.data);
    CHECK(recs[3].dst[0] == 0.0f && recs[3].src[1] == 0.5f);
    /* the stored result: 1.0 * 0.5 + 0 in unorm8 fixed point = 128 */
    CHECK_EQ_INT(gm_surface_texel(&rt, 5, 6, 0)[0], 128);
    CHECK(recs[3].after[0] == gm_unorm8_to_float(128));
    /* a farther triangle: its fragment fails the early depth test, never shaded */
    n_recs = 0;
    CHECK_EQ_INT(draw(0.5f), 0);
    CHECK_EQ_INT(n_recs, 2);
    CHECK_EQ_INT(recs[0].kind, GM_WATCH_FRAGMENT);
    CHECK_EQ_INT(recs[1].kind, GM_WATCH_DEPTH_STENCIL);
    CHECK(!recs[1].depth_pass && !recs[1].passed && recs[1].depth_stored == 0.5 && recs[1].depth_in == 0.75);
    /* a discarding shader: late tests, SHADED says discarded, nothing written */
    reset();
    ctx.watch = &wa;
    ctx.info.fs_may_discard = true;
    discard_all = true;
    CHECK_EQ_INT(draw(0.0f), 0);
    CHECK_EQ_INT(n_recs, 2);
    CHECK(!recs[0].early);
    CHECK_EQ_INT(recs[1].kind, GM_WATCH_SHADED);
    CHECK(recs[1].discarded && recs[1].coverage_after == 0);
    CHECK_EQ_INT(gm_surface_texel(&rt, 5, 6, 0)[0], 0);
    /* outside the triangle and without a watch: nothing */
    reset();
    gm_pipe_watch far = { .x = 30, .y = 30, .fn = on_rec };
    ctx.watch = &far;
    CHECK_EQ_INT(draw(0.0f), 0);
    CHECK_EQ_INT(n_recs, 0);
    ctx.watch = NULL;
    CHECK_EQ_INT(draw(0.0f), 0);
    CHECK_EQ_INT(n_recs, 0);
}

static void test_clip(void)
{
    reset();
    gm_pipe_watch wa = { .x = 5, .y = 6, .clip = true, .fn = on_rec };
    ctx.watch = &wa;
    CHECK_EQ_INT(draw(0.0f), 0);
    CHECK_EQ_INT(lanes, 4);                 /* the pixel's quad only */
    CHECK_EQ_INT(n_recs, 4);
    CHECK_EQ_INT(gm_surface_texel(&rt, 5, 6, 0)[0], 255);
    CHECK_EQ_INT(gm_surface_texel(&rt, 4, 7, 0)[0], 255);
    CHECK_EQ_INT(gm_surface_texel(&rt, 2, 2, 0)[0], 0);   /* left undrawn */
    /* a shader with side effects runs everywhere */
    reset();
    ctx.watch = &wa;
    ctx.info.fs_has_side_effects = true;
    CHECK_EQ_INT(draw(0.0f), 0);
    CHECK(lanes > 400);
}

int main(void)
{
    gm_surface_alloc(&rt, GM_FMT_RGBA8, W, H, 1, 1);
    gm_surface_alloc(&ds, GM_FMT_D32F, W, H, 1, 1);
    test_records();
    test_clip();
    gm_surface_free(&rt);
    gm_surface_free(&ds);
    TEST_DONE();
}
