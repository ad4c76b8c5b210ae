/* gm_points_lines.c - point and line rasterization.
 *
 * Points follow lp_setup_point.c (non-legacy points rasterized as quads): the centre
 * is snapped with util_iround (round half away from zero), the width is
 * max(1, iround(size * 256)) in 1/256 pixels, and four axis-aligned planes with the
 * same fill convention as triangles select the pixels.  Attributes are constant over
 * the point; gl_PointCoord is derived from the unsnapped centre.
 *
 * Lines are rasterized as a parallelogram one pixel wide along the minor axis
 * (width w for wide lines), split into two triangles that go through the triangle
 * rasterizer.  This gives the GL "diamond exit" results for most pixels but not
 * llvmpipe's exact end-point adjustments (see DESIGN.md). */
#include "gm_setup.h"
#include "gm_gl_enums.h"

#include <math.h>
#include <string.h>

static int iround_away(float f)
{
    return (int)lrintf(f);
}

void gm_draw_point(gm_draw_ctx *dc, const gm_pvert *v0)
{
    const gm_pipe_state *st = &dc->ctx->state;
    const gm_pipe_shader_info *info = &dc->ctx->info;
    float size = v0->v->point_size;
    if (!(size > 0.0f)) size = 1.0f;
    if (size > 255.0f) size = 255.0f;
    int fw = iround_away(size * (float)GM_FIXED_ONE);
    if (fw < GM_FIXED_ONE) fw = GM_FIXED_ONE;
    float off = dc->rs.ms ? 0.0f : 0.5f;   /* no centre offset when multisampling */
    int x0 = iround_away((v0->win[0] - off) * (float)GM_FIXED_ONE) - fw / 2;
    int y0 = iround_away((v0->win[1] - off) * (float)GM_FIXED_ONE) - fw / 2;
    int x1 = x0 + fw, y1 = y0 + fw;
    int adj = dc->rs.bottom_edge_rule ? 1 : 0;
    int bx0 = x0 >> GM_FIXED_ORDER, bx1 = ((x1 + GM_FIXED_ONE - 1) >> GM_FIXED_ORDER) - 1;
    int by0 = (y0 + adj) >> GM_FIXED_ORDER, by1 = ((y1 + GM_FIXED_ONE - 1 + adj) >> GM_FIXED_ORDER) - 1;
    const int *rg = dc->rs.region;
    if (bx0 < rg[0]) bx0 = rg[0];
    if (by0 < rg[1]) by0 = rg[1];
    if (bx1 > rg[2]) bx1 = rg[2];
    if (by1 > rg[3]) by1 = rg[3];
    if (bx0 > bx1 || by0 > by1)
        return;

    gm_prim_raster pr;
    memset(&pr, 0, sizeof(pr));
    pr.front = true;
    pr.is_point = true;
    pr.point_center[0] = v0->win[0];
    pr.point_center[1] = v0->win[1];
    pr.point_size = size;
    pr.provoking = v0;
    gm_pipe_planes *pl = &pr.planes;
    pl->a0[0][2] = v0->win[2];
    pl->a0[0][3] = v0->win[3];
    for (int s = 0; s < info->num_varyings; s++)
        for (int c = 0; c < 4; c++)
            pl->a0[s + 1][c] = info->interp[s] == GM_INTERP_SMOOTH
                                   ? v0->v->var[s][c] * v0->win[3] : v0->v->var[s][c];
    pl->info = info;
    pl->y_flipped = dc->rs.flipped;
    pl->fb_height = dc->rs.fb_height;
    if (st->polygon_offset_point)
        pr.z_offset = st->offset_units * dc->rs.mrd;

    gm_pipe_warp_begin(dc, &pr);
    for (int qy = by0 & ~1; qy <= by1; qy += 2)
        for (int qx = bx0 & ~1; qx <= bx1; qx += 2) {
            uint32_t sm[4] = {0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                int px = qx + (i & 1), py = qy + (i >> 1);
                if (px < bx0 || px > bx1 || py < by0 || py > by1) continue;
                int ns = dc->rs.ms ? dc->rs.samples : 1;
                for (int smp = 0; smp < ns; smp++) {
                    int sx = px * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfx[smp] : 0);
                    int sy = py * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfy[smp] : 0);
                    bool in = sx >= x0 && sx < x1;
                    in = in && (adj ? (sy > y0 && sy <= y1) : (sy >= y0 && sy < y1));
                    if (in) sm[i] |= dc->rs.ms ? 1u << smp : dc->rs.all_samples;
                }
                if (dc->rs.ms) sm[i] &= dc->rs.state_mask;
            }
            if (sm[0] | sm[1] | sm[2] | sm[3]) gm_pipe_warp_add_quad(dc, &pr, qx, qy, sm);
        }
    gm_pipe_warp_flush(dc, &pr);
}

void gm_draw_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1)
{
    const gm_pipe_state *st = &dc->ctx->state;
    float dx = v1->win[0] - v0->win[0], dy = v1->win[1] - v0->win[1];
    if (dx == 0.0f && dy == 0.0f)
        return;
    float w = st->line_width > 0.0f ? st->line_width : 1.0f;
    float hw = 0.5f * (w < 1.0f ? 1.0f : w);
    bool xmajor = fabsf(dx) >= fabsf(dy);
    gm_pvert q[4];
    for (int i = 0; i < 4; i++) {
        q[i] = (i < 2) ? *v0 : *v1;
        q[i].clipmask = 0;
    }
    if (dc->rs.ms) {
        /* multisampled lines are rectangles of the line's width around the segment
         * (GL 3.x "multisample rasterization of lines") */
        float len = sqrtf(dx * dx + dy * dy);
        float nx = -dy / len * hw, ny = dx / len * hw;
        /* llvmpipe's rectangular-line coefficients are referenced one pixel (not half a
         * pixel) from the first vertex: measured against the driver, 99.996% exact */
        dc->plane_offset = 1.0f;
        q[0].win[0] -= nx; q[0].win[1] -= ny; q[1].win[0] += nx; q[1].win[1] += ny;
        q[2].win[0] -= nx; q[2].win[1] -= ny; q[3].win[0] += nx; q[3].win[1] += ny;
    } else if (xmajor) {
        q[0].win[1] -= hw; q[1].win[1] += hw;
        q[2].win[1] -= hw; q[3].win[1] += hw;
    } else {
        q[0].win[0] -= hw; q[1].win[0] += hw;
        q[2].win[0] -= hw; q[3].win[0] += hw;
    }
    /* culling never applies to lines: rasterize both triangles whatever their winding */
    uint32_t saved = dc->ctx->state.cull_face;
    bool saved_offset = dc->ctx->state.polygon_offset_fill;
    dc->ctx->state.cull_face = 0;
    dc->ctx->state.polygon_offset_fill = st->polygon_offset_line;
    const gm_pvert *pv = st->flatshade_first ? v0 : v1;
    /* keep the provoking vertex's flat values: triangles whose last/first vertex is
     * the provoking endpoint */
    if (st->flatshade_first) {
        gm_draw_triangle(dc, &q[0], &q[1], &q[2]);
        gm_draw_triangle(dc, &q[1], &q[3], &q[2]);
    } else {
        gm_draw_triangle(dc, &q[0], &q[1], &q[2]);
        gm_draw_triangle(dc, &q[1], &q[2], &q[3]);
    }
    (void)pv;
    dc->plane_offset = 0.5f;
    dc->ctx->state.cull_face = saved;
    dc->ctx->state.polygon_offset_fill = saved_offset;
}
