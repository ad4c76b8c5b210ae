/* test_tri_order.c - the rasterizer's fast paths (gm_tri_order.c: quads tested with stepped
 * edge values, covered 4x4 blocks without tests) against its per-pixel path
 * (gm_tri_order_general = 1), and the warps' vectorized lane set-up (gm_warp.c centre_lanes:
 * gl_FragCoord, depth, gl_SampleMaskIn) against the lane-by-lane one (gm_pipe_lanes_general
 * = 1), every lane compared, those outside `present` too: random triangles from sub-pixel to larger than a 64x64 tile,
 * with and without a scissor, both raster orientations, a multisampled target with
 * GL_MULTISAMPLE off (a covered pixel's mask is every sample), subgroup warps, and polygon
 * stipple / MSAA rasterization (which take the per-pixel path in both), a depth range that
 * clamps and polygon offset. Every fragment warp's lanes (position, live, coverage, inputs)
 * must arrive in the same order with the same values. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "gm_tri_order.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_test.h"

#include <string.h>

#define W 203
#define H 157
#define NTRI 400

typedef struct harness {
    float (*pos)[4];
    uint64_t hash;            /* FNV-1a over every warp's lanes, in arrival order */
    long warps, live, full_quads;
} harness;

static void mix(uint64_t *h, uint32_t v)
{
    for (int i = 0; i < 4; i++) {
        *h ^= (v >> (8 * i)) & 0xffu;
        *h *= 0x100000001b3ull;
    }
}

static int vs_cb(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    harness *h = user;
    (void)inst;
    for (int i = 0; i < count; i++)
        memcpy(out[i].pos, h->pos[id[i]], sizeof(out[i].pos));
    return 0;
}

static int fs_cb(void *user, gm_pipe_fs_warp *w)
{
    harness *h = user;
    h->warps++;
    mix(&h->hash, (uint32_t)w->num_quads);
    mix(&h->hash, w->present);
    mix(&h->hash, w->live);
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {   /* every lane: the others stay as they were */
        uint32_t v[6];
        memcpy(&v[0], &w->frag_coord[0][l], 4);
        memcpy(&v[1], &w->frag_coord[1][l], 4);
        memcpy(&v[2], &w->frag_coord[2][l], 4);
        memcpy(&v[3], &w->frag_coord[3][l], 4);
        memcpy(&v[4], &w->depth[l], 4);
        v[5] = w->sample_mask_in[l];
        for (int i = 0; i < 6; i++)
            mix(&h->hash, v[i]);
    }
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->present & (1u << l)))
            continue;
        mix(&h->hash, (uint32_t)w->x[l]);
        mix(&h->hash, (uint32_t)w->y[l]);
        if (w->live & (1u << l))
            h->live++;
        if (l % 4 == 0 && ((w->live >> l) & 0xfu) == 0xfu)
            h->full_quads++;
    }
    return 0;
}

typedef struct variant {
    bool winsys, scissor, ms_target, multisample, stipple, subgroups;
} variant;

/* One draw of NTRI random triangles; the harness gets what the shader saw. */
static void draw(const variant *v, unsigned seed, harness *h)
{
    static float pos[3 * NTRI][4];
    gm_pipe_context ctx;
    gm_surface ms;
    memset(&ms, 0, sizeof(ms));
    memset(&ctx, 0, sizeof(ctx));
    memset(h, 0, sizeof(*h));
    h->hash = 0xcbf29ce484222325ull;
    h->pos = pos;
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.fb.width = W;
    ctx.fb.height = H;
    ctx.fb.winsys_orientation = v->winsys;
    if (v->ms_target) {
        CHECK_EQ_INT(gm_surface_alloc(&ms, GM_FMT_RGBA8, W, H, 1, 4), 0);
        ctx.fb.color[0] = &ms;
    }
    ctx.state.multisample = v->multisample;
    ctx.state.scissor_enable = v->scissor;
    ctx.state.scissor[0] = 37; ctx.state.scissor[1] = 21;
    ctx.state.scissor[2] = 101; ctx.state.scissor[3] = 90;
    if (v->stipple) {
        ctx.state.polygon_stipple = true;
        for (int r = 0; r < 32; r++)
            ctx.state.polygon_stipple_rows[r] = 0x9e3779b9u * (uint32_t)(r + 1);
    }
    ctx.info.fs_uses_subgroups = v->subgroups;
    ctx.state.depth_range[0] = 0.4f;   /* window z 0.25-0.75 clamped */
    ctx.state.depth_range[1] = 0.6f;
    if (seed & 1) {
        ctx.state.polygon_offset_fill = true;
        ctx.state.offset_factor = 1.5f;
        ctx.state.offset_units = 3.0f;
    }
    ctx.vs = vs_cb; ctx.vs_user = h;
    ctx.fs = fs_cb; ctx.fs_user = h;
    for (int t = 0; t < NTRI; t++) {
        /* sizes from a fraction of a pixel to more than a 64x64 tile, some off screen */
        float size = (t % 4 == 0) ? gm_test_randf(&seed, 64.0f, 260.0f)
                   : (t % 4 == 1) ? gm_test_randf(&seed, 8.0f, 40.0f)
                                  : gm_test_randf(&seed, 0.3f, 6.0f);
        float cx = gm_test_randf(&seed, -20.0f, W + 20.0f), cy = gm_test_randf(&seed, -20.0f, H + 20.0f);
        for (int i = 0; i < 3; i++) {
            float x = cx + gm_test_randf(&seed, -size, size), y = cy + gm_test_randf(&seed, -size, size);
            if (gm_test_rand(&seed) % 4 == 0) { x = (float)(int)x + 0.5f; y = (float)(int)y; }
            float *p = pos[3 * t + i];
            p[0] = x / W * 2.0f - 1.0f;
            p[1] = y / H * 2.0f - 1.0f;
            p[2] = gm_test_randf(&seed, -0.5f, 0.5f);
            p[3] = 1.0f;
        }
    }
    gm_pipe_draw d = {GL_TRIANGLES, 0, 3 * NTRI, NULL, GL_UNSIGNED_INT, 0, 1, 0};
    CHECK_EQ_INT(gm_pipe_draw_exec(&ctx, &d), 0);
    gm_surface_free(&ms);
}

/* The fast paths (general = 0) against the per-pixel / lane-by-lane ones. */
static void compare(const variant *v, unsigned seed)
{
    harness fast, general;
    gm_tri_order_general = gm_pipe_lanes_general = 0;
    draw(v, seed, &fast);
    gm_tri_order_general = gm_pipe_lanes_general = 1;
    draw(v, seed, &general);
    gm_tri_order_general = gm_pipe_lanes_general = 0;
    if (getenv("GM_VERBOSE"))
        fprintf(stderr, "stipple %d scissor %d ms %d: warps %ld full quads %ld\n", v->stipple,
                v->scissor, v->multisample, general.warps, general.full_quads);
    CHECK(general.warps > 100 && general.full_quads > 500);   /* the draw reaches covered blocks */
    CHECK_EQ_INT(fast.warps, general.warps);
    CHECK_EQ_INT(fast.live, general.live);
    CHECK_EQ_INT(fast.full_quads, general.full_quads);
    CHECK(fast.hash == general.hash);
    if (fast.hash != general.hash)
        fprintf(stderr, "variant winsys %d scissor %d ms_target %d multisample %d stipple %d "
                "subgroups %d seed %u: warps differ\n", v->winsys, v->scissor, v->ms_target,
                v->multisample, v->stipple, v->subgroups, seed);
}

int main(void)
{
    for (int m = 0; m < 32; m++) {
        variant v = {m & 1, (m >> 1) & 1, (m >> 2) & 1, false, (m >> 3) & 1, (m >> 4) & 1};
        compare(&v, 0x1234567u + (unsigned)m * 7919u);
    }
    variant msaa = {false, true, true, true, false, false};   /* MSAA rasterization */
    compare(&msaa, 99u);
    TEST_DONE();
}
