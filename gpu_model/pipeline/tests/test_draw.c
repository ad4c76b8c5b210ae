/* test_draw.c - attribute interpolation (smooth, flat with both provoking vertex
 * conventions, noperspective), warp packing (8 quads, helpers, deterministic order),
 * early depth test skipping warps, discard, gl_FragDepth, instancing, shader abort, quads
 * and quad strips (provoking vertex, gl_PrimitiveID, no diagonal in polygon mode GL_LINE). */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <math.h>
#include <string.h>

#define W 32
#define H 32

typedef struct h_t {
    float pos[8][4];
    float val[8];
    int warps, max_quads, lanes;
    float seen[H][W];
    float flat_seen[H][W];
    int prim_seen[H][W];   /* gl_PrimitiveID + 1 */
    int instance_seen;
    bool discard_left, write_depth, abort_fs;
} h_t;

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    h_t *h = user;
    h->instance_seen |= 1 << inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, h->pos[id[i]], sizeof(out[i].pos));
        out[i].pos[0] += 0.5f * (float)inst;
        for (int s = 0; s < 3; s++) out[i].var[s][0] = h->val[id[i]];
    }
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    h_t *h = user;
    if (h->abort_fs) return 1;
    h->warps++;
    if (w->num_quads > h->max_quads) h->max_quads = w->num_quads;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->live & (1u << l))) continue;
        h->lanes++;
        h->seen[w->y[l]][w->x[l]] = w->in[0][0][l];
        h->flat_seen[w->y[l]][w->x[l]] = w->in[1][0][l];
        h->prim_seen[w->y[l]][w->x[l]] = w->primitive_id + 1;
        w->color[0].f[0][l] = w->in[1][0][l];
        w->color[0].f[1][l] = w->in[2][0][l];
        w->color[0].f[3][l] = 1.0f;
        if (h->discard_left && w->x[l] < W / 2) w->discard |= 1u << l;
        if (h->write_depth) w->depth[l] = 0.25f;
    }
    return 0;
}

static gm_pipe_context ctx;
static gm_surface rt, ds;
static h_t h;

static void reset(void)
{
    memset(&ctx, 0, sizeof(ctx));
    memset(&h, 0, sizeof(h));
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.fb.width = W; ctx.fb.height = H;
    ctx.fb.color[0] = &rt;
    ctx.fb.depth = &ds;
    ctx.vs = vs_cb; ctx.vs_user = &h;
    ctx.fs = fs_cb; ctx.fs_user = &h;
    ctx.info.num_varyings = 3;
    ctx.info.interp[0] = GM_INTERP_SMOOTH;
    ctx.info.interp[1] = GM_INTERP_FLAT;
    ctx.info.interp[2] = GM_INTERP_NOPERSPECTIVE;
    memset(rt.data, 0, rt.layer_stride);
}

static void set_tri(float w0, float w1, float w2)
{
    /* a triangle covering the lower-left half of the viewport, with w per vertex */
    float p[3][2] = {{-1, -1}, {1, -1}, {-1, 1}};
    float w[3] = {w0, w1, w2};
    for (int i = 0; i < 3; i++) {
        h.pos[i][0] = p[i][0] * w[i];
        h.pos[i][1] = p[i][1] * w[i];
        h.pos[i][2] = 0.0f;
        h.pos[i][3] = w[i];
        h.val[i] = (float)(i * 10);
    }
}

static void test_interp(void)
{
    reset();
    set_tri(1, 1, 1);
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    /* affine: value = 10 * (x_ndc+1)/4*... at pixel (x,y): s = (x+0.5)/W*2, t likewise */
    float x = 5.5f, y = 9.5f;
    float b1 = x / W, b2 = y / H;
    float expect = 10.0f * b1 + 20.0f * b2;
    CHECK(fabsf(h.seen[9][5] - expect) < 1e-4f);
    /* flat: last vertex by default (value 20), first with flatshade_first (0) */
    CHECK(gm_unorm8_to_float(gm_surface_texel(&rt, 3, 3, 0)[0]) == 1.0f);   /* 20 clamps */
    reset();
    set_tri(1, 1, 1);
    ctx.state.flatshade_first = true;
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK_EQ_INT(gm_surface_texel(&rt, 3, 3, 0)[0], 0);
    /* every pixel whose centre is inside is shaded once; warps have <= 8 quads */
    CHECK(h.max_quads <= 8 && h.max_quads >= 1);
    int covered = 0;
    for (int yy = 0; yy < H; yy++)
        for (int xx = 0; xx < W; xx++)
            covered += gm_surface_texel(&rt, xx, yy, 0)[3] != 0;
    CHECK_EQ_INT(covered, h.lanes);
    /* centres strictly inside: x + y <= W - 2; the W pixels on the hypotenuse depend
     * on the fill rule */
    CHECK(covered == W * (W - 1) / 2 || covered == W * (W - 1) / 2 + W);

    /* perspective: with w0 = 1, w1 = 4 the perspective-correct value at the screen
     * midpoint of edge v0-v1 is biased toward v0 */
    reset();
    set_tri(1, 4, 1);
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    /* pixel centre at x = 15.5 (screen t = 15.5/64 along the 2W-wide edge) row 0.5 */
    {
        float st = 15.5f / W, sy = 0.5f / H;
        /* barycentrics in screen space: b1 = st, b2 = sy, b0 = 1 - st - sy */
        float b0 = 1 - st - sy, b1s = st, b2s = sy;
        float pc = (b1s * 10.0f / 4.0f + b2s * 20.0f) / (b0 + b1s / 4.0f + b2s);
        float np = b1s * 10.0f + b2s * 20.0f;
        CHECK(fabsf(h.seen[0][15] - pc) < 1e-3f);
        (void)np;
    }
}

static void test_early_depth_and_discard(void)
{
    reset();
    set_tri(1, 1, 1);
    gm_pipe_clear_depth_stencil(&ctx, true, 0.0f, false, 0);
    ctx.state.depth_test = true;
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK_EQ_INT(h.warps, 0);          /* early depth test killed every warp */
    CHECK_EQ_INT(ctx.stats.fragments_passed, 0);
    /* with discard the test is late: warps run, nothing is written */
    reset();
    set_tri(1, 1, 1);
    ctx.info.fs_may_discard = true;
    h.discard_left = true;
    gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
    ctx.state.depth_test = true;
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK(h.warps > 0);
    CHECK_EQ_INT(gm_surface_texel(&rt, 2, 2, 0)[3], 0);       /* discarded */
    CHECK_EQ_INT(gm_surface_texel(&rt, 20, 2, 0)[3], 255);
    /* gl_FragDepth */
    reset();
    set_tri(1, 1, 1);
    ctx.info.fs_writes_depth = true;
    h.write_depth = true;
    gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
    ctx.state.depth_test = true;
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK(fabsf(gm_format_unpack_depth(ds.format, gm_surface_texel(&ds, 1, 1, 0)) - 0.25f) < 1e-6f);
}

static void test_instances_and_errors(void)
{
    reset();
    set_tri(1, 1, 1);
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 3, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    CHECK_EQ_INT(h.instance_seen, 7);
    CHECK_EQ_INT(ctx.stats.vs_invocations, 9);
    h.abort_fs = true;
    CHECK(gm_pipe_draw_exec(&ctx, &d) != 0);
    CHECK(strstr(ctx.error, "fragment") != NULL);
    gm_pipe_draw bad = {0x77, 0, 3, NULL, 0, 0, 1, 0};
    CHECK(gm_pipe_draw_exec(&ctx, &bad) != 0);
    gm_pipe_draw neg = {GL_TRIANGLES, 0, -3, NULL, 0, 0, 1, 0};
    CHECK(gm_pipe_draw_exec(&ctx, &neg) != 0);
    ctx.vs = NULL;
    CHECK(gm_pipe_draw_exec(&ctx, &d) != 0);
    CHECK(gm_pipe_draw_exec(NULL, &d) != 0);
}

static void test_planes_eval(void)
{
    /* interpolateAt via the planes must agree with the interpolated inputs */
    reset();
    set_tri(1, 2, 3);
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    for (int winsys = 0; winsys < 2; winsys++) {
        reset();
        set_tri(1, 2, 3);
        ctx.fb.winsys_orientation = winsys;
        CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
        CHECK(h.seen[4][6] > 0.0f);
    }
}

/* GL_QUADS / GL_QUAD_STRIP as llvmpipe splits them: the quad's last vertex is provoking under
 * both conventions, both triangles carry the quad's gl_PrimitiveID, and in polygon mode GL_LINE
 * the inner diagonal (v1-v3) is not drawn. */
static void test_quads(void)
{
    for (int mode = 0; mode < 2; mode++)
        for (int ff = 0; ff < 2; ff++) {
            reset();
            ctx.state.flatshade_first = ff;
            /* two axis-aligned quads: x in [2,14] and [18,30], y in [2,30] (pixels) */
            static const float qx[2][2] = {{2, 14}, {18, 30}};
            for (int q = 0; q < 2; q++) {
                float xs[4] = {qx[q][0], qx[q][1], qx[q][1], qx[q][0]}, ys[4] = {2, 2, 30, 30};
                for (int k = 0; k < 4; k++) {
                    /* quad strip order: bottom-left, top-left, bottom-right, top-right */
                    int v = mode == 0 ? q * 4 + k : 0;
                    if (mode == 1 && q == 1) break;
                    h.pos[v][0] = xs[k] / W * 2 - 1;
                    h.pos[v][1] = ys[k] / H * 2 - 1;
                    h.pos[v][3] = 1.0f;
                    h.val[v] = (float)(v * 10);
                }
            }
            if (mode == 1) {   /* strip of two quads: x 2, 14, 30 at the bottom and the top */
                static const float sx[6] = {2, 2, 14, 14, 30, 30}, sy[6] = {2, 30, 2, 30, 2, 30};
                for (int v = 0; v < 6; v++) {
                    h.pos[v][0] = sx[v] / W * 2 - 1;
                    h.pos[v][1] = sy[v] / H * 2 - 1;
                    h.pos[v][3] = 1.0f;
                    h.val[v] = (float)(v * 10);
                }
            }
            gm_pipe_draw d = {mode ? GL_QUAD_STRIP : GL_QUADS, 0, mode ? 6 : 8, NULL, 0, 0, 1, 0};
            CHECK(gm_pipe_draw_exec(&ctx, &d) == 0);
            /* quad 0 and quad 1: one primitive id each, flat from the quad's last vertex */
            float last0 = 30.0f, last1 = mode ? 50.0f : 70.0f;
            int x1 = mode ? 20 : 24;
            CHECK_EQ_INT(h.prim_seen[8][6], 1);
            CHECK_EQ_INT(h.prim_seen[24][10], 1);
            CHECK_EQ_INT(h.prim_seen[8][x1], 2);
            CHECK_EQ_INT(h.prim_seen[24][x1 + 4], 2);
            CHECK(h.flat_seen[8][6] == last0 && h.flat_seen[24][10] == last0);
            CHECK(h.flat_seen[8][x1] == last1 && h.flat_seen[24][x1 + 4] == last1);
        }
    /* polygon mode GL_LINE: the outline is drawn, the diagonal of the quad is not */
    reset();
    ctx.state.polygon_mode = ctx.state.polygon_mode_back = GL_LINE;
    float xs[4] = {2.5f, 14.5f, 14.5f, 2.5f}, ys[4] = {2.5f, 2.5f, 29.5f, 29.5f};
    for (int k = 0; k < 4; k++) {
        h.pos[k][0] = xs[k] / W * 2 - 1;
        h.pos[k][1] = ys[k] / H * 2 - 1;
        h.pos[k][3] = 1.0f;
    }
    gm_pipe_draw d = {GL_QUADS, 0, 4, NULL, 0, 0, 1, 0};
    CHECK(gm_pipe_draw_exec(&ctx, &d) == 0);
    CHECK(h.prim_seen[2][8] != 0 && h.prim_seen[16][2] != 0);   /* bottom and left edges */
    CHECK(h.prim_seen[16][8] == 0);                             /* the centre: no diagonal */
}

int main(void)
{
    gm_surface_alloc(&rt, GM_FMT_RGBA8, W, H, 1, 1);
    gm_surface_alloc(&ds, GM_FMT_D32F, W, H, 1, 1);
    test_quads();
    test_interp();
    test_early_depth_and_discard();
    test_instances_and_errors();
    test_planes_eval();
    gm_surface_free(&rt);
    gm_surface_free(&ds);
    TEST_DONE();
}
