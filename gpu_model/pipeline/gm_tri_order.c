/* The order in which a triangle's quads reach the fragment shader: llvmpipe's.
 *
 * The order is invisible to most shaders, but not to those with side effects whose results
 * depend on it (an SSBO atomicAdd handing out slots, atomic counters: piglit ssbo-atomicAdd-int,
 * nv_shader_atomic_float ssbo-atomicAdd-float). llvmpipe bins a triangle into 64x64 tiles
 * (raster space, x fastest) and rasterizes each tile (lp_rast_tri.c, lp_rast_tri_tmp.h):
 * a tile the triangle covers entirely is shaded 4x4 block by 4x4 block, rows of blocks from the
 * top of the tile (lp_rast_shade_tile); any other tile is split into 16x16 blocks, the
 * partially covered ones first and then the covered ones (each set in row-major order), and a
 * partial 16x16 block likewise into 4x4 blocks, partial ones first. A block counts as covered
 * when every edge is still inside one block step past it (llvmpipe's edge offsets "eo" are
 * taken over the block's full size), so a block that ends exactly on an edge is partial.
 * Within a 4x4 block the quads go top-left, top-right, bottom-left, bottom-right: the pairs
 * are llvmpipe's 4x2 subgroups.
 *
 * The model runs one triangle at a time; llvmpipe runs a tile's triangles in turn, tile by
 * tile, so across the triangles of one draw the orders still differ (docs/FIDELITY.md). */
#include "gm_tri_order.h"

enum { TILE = 64, BLOCK16 = 16, BLOCK4 = 4 };

/* Tests set this to 1 to take the per-pixel path everywhere (the fast paths below are
 * checked against it, test_tri_order.c). */
int gm_tri_order_general = 0;

typedef struct walk {
    gm_draw_ctx *dc;
    gm_prim_raster *pr;
    const gm_tri_edges *e;
    int x0, y0, x1, y1;   /* inclusive pixel region (scissor, framebuffer) */
    /* one coverage bit per pixel (no MSAA rasterization, no polygon stipple): the quads take
     * quad_plain, and those of covered blocks need no edge test at all */
    bool plain;
    uint32_t all;         /* a covered pixel's sample mask (dc->rs.all_samples) */
} walk;

/* Every pixel of the s x s block at (bx, by) covered, by llvmpipe's conservative test: the
 * edge functions at the block's corners one step past its last pixel, and the block inside
 * the region. */
static bool block_full(const walk *k, int bx, int by, int s)
{
    if (bx < k->x0 || by < k->y0 || bx + s - 1 > k->x1 || by + s - 1 > k->y1)
        return false;
    return gm_rast_tri_inside(k->e, bx, by) && gm_rast_tri_inside(k->e, bx + s, by) &&
           gm_rast_tri_inside(k->e, bx, by + s) && gm_rast_tri_inside(k->e, bx + s, by + s);
}

/* Does the s x s block at (bx, by) reach the region and the triangle's bounding box? */
static bool block_touches(const walk *k, int bx, int by, int s)
{
    return bx + s - 1 >= k->x0 && by + s - 1 >= k->y0 && bx <= k->x1 && by <= k->y1;
}

/* A plain quad's coverage: each edge evaluated once at the quad's top-left pixel and
 * stepped by its exact integer increments to the other three (gm_rast_tri_inside per
 * pixel multiplies twice per edge), and the region tested per column and row. Bit i of the
 * result is pixel i (x = qx + (i & 1), y = qy + (i >> 1)). */
static unsigned quad_plain(const walk *k, int qx, int qy)
{
    const gm_tri_edges *e = k->e;
    unsigned in = 0xfu;
    for (int j = 0; j < 3; j++) {
        int64_t v0 = e->c[j] - e->dcdx[j] * qx + e->dcdy[j] * qy;
        int64_t v1 = v0 - e->dcdx[j], v2 = v0 + e->dcdy[j], v3 = v2 - e->dcdx[j];
        in &= (unsigned)(v0 > 0) | (unsigned)(v1 > 0) << 1 | (unsigned)(v2 > 0) << 2 |
              (unsigned)(v3 > 0) << 3;
    }
    unsigned cols = (unsigned)(qx >= k->x0 && qx <= k->x1) |
                    (unsigned)(qx + 1 >= k->x0 && qx + 1 <= k->x1) << 1;
    unsigned rows = (unsigned)(qy >= k->y0 && qy <= k->y1) |
                    (unsigned)(qy + 1 >= k->y0 && qy + 1 <= k->y1) << 1;
    unsigned reg = ((rows & 1u) ? cols : 0u) | ((rows & 2u) ? cols << 2 : 0u);
    return in & reg;
}

/* One quad's coverage (as gm_draw_triangle always computed it), handed to the warp. */
static void emit_quad(const walk *k, int qx, int qy)
{
    gm_draw_ctx *dc = k->dc;
    uint32_t sm[4] = {0, 0, 0, 0};
    if (k->plain) {
        unsigned in = quad_plain(k, qx, qy);
        if (!in)
            return;
        for (int i = 0; i < 4; i++)
            sm[i] = (in >> i) & 1u ? k->all : 0u;
        gm_pipe_warp_add_quad(dc, k->pr, qx, qy, sm);
        return;
    }
    for (int i = 0; i < 4; i++) {
        int px = qx + (i & 1), py = qy + (i >> 1);
        if (px < k->x0 || px > k->x1 || py < k->y0 || py > k->y1)
            continue;
        /* window-aligned 32x32 pattern (llvmpipe: a fragment kill at the top of the
         * shader, draw_pipe_pstipple.c) */
        if (gm_pstipple_kill(dc, px, py))
            continue;
        if (!dc->rs.ms) {
            if (gm_rast_tri_inside(k->e, px, py))
                sm[i] = dc->rs.all_samples;
            continue;
        }
        for (int s = 0; s < dc->rs.samples; s++)
            if (gm_rast_tri_inside_at(k->e, px, py, dc->rs.sfx[s], dc->rs.sfy[s]))
                sm[i] |= 1u << s;
        sm[i] &= dc->rs.state_mask;
    }
    if (sm[0] | sm[1] | sm[2] | sm[3])
        gm_pipe_warp_add_quad(dc, k->pr, qx, qy, sm);
}

static void emit_block4(const walk *k, int bx, int by)
{
    if (!block_touches(k, bx, by, BLOCK4))
        return;
    emit_quad(k, bx, by);
    emit_quad(k, bx + 2, by);
    emit_quad(k, bx, by + 2);
    emit_quad(k, bx + 2, by + 2);
}

/* A 4x4 block that block_full found covered (it lies inside the region): a plain one's
 * pixels are all covered without testing them. */
static void emit_block4_full(const walk *k, int bx, int by)
{
    if (!k->plain) {
        emit_block4(k, bx, by);
        return;
    }
    const uint32_t sm[4] = {k->all, k->all, k->all, k->all};
    gm_pipe_warp_add_quad(k->dc, k->pr, bx, by, sm);
    gm_pipe_warp_add_quad(k->dc, k->pr, bx + 2, by, sm);
    gm_pipe_warp_add_quad(k->dc, k->pr, bx, by + 2, sm);
    gm_pipe_warp_add_quad(k->dc, k->pr, bx + 2, by + 2, sm);
}

/* The s x s blocks of the (big x big) block at (bx, by): partial ones first, then covered
 * ones, each row-major; a partial 16x16 block splits again into 4x4 blocks. */
static void emit_split(const walk *k, int bx, int by, int big, int s)
{
    for (int pass = 0; pass < 2; pass++)
        for (int y = by; y < by + big; y += s)
            for (int x = bx; x < bx + big; x += s) {
                if (!block_touches(k, x, y, s))
                    continue;
                bool full = block_full(k, x, y, s);
                if (full != (pass == 1))
                    continue;
                if (s == BLOCK4 && full)
                    emit_block4_full(k, x, y);
                else if (s == BLOCK4)
                    emit_block4(k, x, y);
                else if (full)
                    for (int y4 = y; y4 < y + s; y4 += BLOCK4)
                        for (int x4 = x; x4 < x + s; x4 += BLOCK4)
                            emit_block4_full(k, x4, y4);
                else
                    emit_split(k, x, y, s, BLOCK4);
            }
}

void gm_tri_emit_quads(gm_draw_ctx *dc, gm_prim_raster *pr, const gm_tri_edges *e, int x0,
                       int y0, int x1, int y1)
{
    walk k = {dc, pr, e, x0, y0, x1, y1, !dc->rs.ms && !dc->pstipple_on && !gm_tri_order_general,
              dc->rs.all_samples};
    for (int ty = y0 - (y0 % TILE + TILE) % TILE; ty <= y1; ty += TILE)
        for (int tx = x0 - (x0 % TILE + TILE) % TILE; tx <= x1; tx += TILE) {
            if (block_full(&k, tx, ty, TILE)) {
                for (int y = ty; y < ty + TILE; y += BLOCK4)
                    for (int x = tx; x < tx + TILE; x += BLOCK4)
                        emit_block4_full(&k, x, y);
            } else {
                emit_split(&k, tx, ty, TILE, BLOCK16);
            }
        }
}
