/* gm_tri.c - triangle setup and rasterization following llvmpipe (lp_setup_tri.c for
 * snapping, orientation and fill rule; lp_state_setup.c for a0/dadx/dady). */
#include "gm_setup.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_tri_order.h"

#include <math.h>
#include <string.h>

static void coef(const float a[3], const float d[4], float x0c, float y0c,
                 float *a0, float *dadx, float *dady)
{
    /* d = dx01_ooa, dy01_ooa, dx20_ooa, dy20_ooa */
    float da01 = a[0] - a[1];
    float da20 = a[2] - a[0];
    float dx = da01 * d[3] - da20 * d[1];
    float dy = da20 * d[0] - da01 * d[2];
    float attr_v0 = dx * x0c + dy * y0c;
    *a0 = a[0] - attr_v0;
    *dadx = dx;
    *dady = dy;
}

static float polygon_offset(const gm_draw_ctx *dc, const gm_pvert *v[3], float ooa)
{
    const gm_pipe_state *st = &dc->ctx->state;
    float dx01 = v[0]->win[0] - v[1]->win[0], dy01 = v[0]->win[1] - v[1]->win[1];
    float dz01 = v[0]->win[2] - v[1]->win[2];
    float dx20 = v[2]->win[0] - v[0]->win[0], dy20 = v[2]->win[1] - v[0]->win[1];
    float dz20 = v[2]->win[2] - v[0]->win[2];
    float res1 = dz20 * dy01 - dy20 * dz01;
    float res2 = dx20 * dz01 - dz20 * dx01;
    float dzdx = fabsf(res1 * ooa), dzdy = fabsf(res2 * ooa);
    float maxv = (dzdx > dzdy || dzdx != dzdx) ? dzdx : dzdy;
    float mult = maxv * st->offset_factor;
    float zoff;
    if (dc->rs.float_depth) {
        float mz = fmaxf(fabsf(v[0]->win[2]), fmaxf(fabsf(v[1]->win[2]), fabsf(v[2]->win[2])));
        uint32_t bits;
        memcpy(&bits, &mz, 4);
        int32_t e = (int32_t)(bits & 0x7f800000u) - (23 << 23);
        if (e < 0) e = 0;
        float scale;
        uint32_t ue = (uint32_t)e;
        memcpy(&scale, &ue, 4);
        zoff = scale * st->offset_units + mult;
    } else {
        /* lp_state_setup.c: pgon_offset_units = (float)(units * mrd * 2) (measured: 1000
         * units move a D24 depth by 1999-2000) */
        float units = (float)((double)st->offset_units * (double)dc->rs.mrd * 2.0);
        zoff = units + mult;
    }
    if (st->offset_clamp > 0.0f) zoff = fminf(st->offset_clamp, zoff);
    else if (st->offset_clamp < 0.0f) zoff = fmaxf(st->offset_clamp, zoff);
    return zoff;
}

void gm_setup_tri_planes(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                         const gm_pvert *v2, const gm_pvert *pv, gm_prim_raster *pr)
{
    const gm_pipe_shader_info *info = &dc->ctx->info;
    const gm_pvert *v[3] = {v0, v1, v2};
    float x0c = v0->win[0] - dc->plane_offset, y0c = v0->win[1] - dc->plane_offset;
    float dx01 = v0->win[0] - v1->win[0], dy01 = v0->win[1] - v1->win[1];
    float dx20 = v2->win[0] - v0->win[0], dy20 = v2->win[1] - v0->win[1];
    float e = dx01 * dy20, f = dy01 * dx20;
    float ooa = 1.0f / (e - f);
    float d[4] = {dx01 * ooa, dy01 * ooa, dx20 * ooa, dy20 * ooa};
    gm_pipe_planes *pl = &pr->planes;

    memset(pl->a0[0], 0, sizeof(pl->a0[0]));
    for (int c = 2; c < 4; c++) {
        float a[3] = {v0->win[c], v1->win[c], v2->win[c]};
        coef(a, d, x0c, y0c, &pl->a0[0][c], &pl->dadx[0][c], &pl->dady[0][c]);
    }
    for (int s = 0; s < info->num_varyings; s++) {
        uint8_t mode = info->interp[s];
        for (int c = 0; c < 4; c++) {
            if (mode == GM_INTERP_FLAT) {
                pl->a0[s + 1][c] = pv->v->var[s][c];
                pl->dadx[s + 1][c] = pl->dady[s + 1][c] = 0.0f;
                continue;
            }
            float a[3];
            for (int i = 0; i < 3; i++) {
                a[i] = v[i]->v->var[s][c];
                if (mode == GM_INTERP_SMOOTH)
                    a[i] = a[i] * v[i]->win[3];
            }
            coef(a, d, x0c, y0c, &pl->a0[s + 1][c], &pl->dadx[s + 1][c], &pl->dady[s + 1][c]);
        }
    }
    pl->info = info;
    pl->y_flipped = dc->rs.flipped;
    pl->fb_height = dc->rs.fb_height;
    const gm_pipe_state *st = &dc->ctx->state;
    pr->z_offset = 0.0f;
    if ((st->polygon_offset_fill || st->polygon_offset_line || st->polygon_offset_point) && !dc->unfilled &&
        (st->offset_factor != 0.0f || st->offset_units != 0.0f))
        pr->z_offset = polygon_offset(dc, v, ooa);
    pr->provoking = pv;
}

/* Is the triangle (raster-space fixed-point area sign) front facing? */
bool gm_tri_front(const gm_draw_ctx *dc, int64_t area)
{
    const gm_pipe_state *st = &dc->ctx->state;
    /* llvmpipe's positive area is clockwise in y-up window space, counter-clockwise
     * when the raster is y-flipped (window-system framebuffers). */
    bool gl_ccw = dc->rs.flipped ? area > 0 : area < 0;
    if (st->clip_origin_upper_left)
        gl_ccw = !gl_ccw;
    return gl_ccw == (st->front_face != GL_CW);
}

void gm_draw_triangle(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                      const gm_pvert *v2)
{
    gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_state *st = &ctx->state;
    const gm_pvert *v[3] = {v0, v1, v2};
    int32_t fx[3], fy[3];
    for (int i = 0; i < 3; i++) {
        /* llvmpipe snaps without the pixel-centre offset when multisampling */
        float off = dc->rs.ms ? 0.0f : 0.5f;
        fx[i] = gm_rast_snap(v[i]->win[0], off);
        fy[i] = gm_rast_snap(v[i]->win[1], off);
    }
    int64_t area = gm_rast_area(fx, fy);
    if (area == 0)
        return;
    bool front = gm_tri_front(dc, area);
    if (st->cull_face == GL_FRONT_AND_BACK ||
        (st->cull_face == GL_FRONT && front) || (st->cull_face == GL_BACK && !front)) {
        ctx->stats.primitives_culled++;
        return;
    }
    const gm_pvert *pv = st->flatshade_first ? v0 : v2;
    if (area < 0) {
        /* make it llvmpipe-ccw, keeping the provoking vertex in place */
        const gm_pvert *t;
        int32_t tx, ty;
        if (st->flatshade_first) {
            t = v[1]; v[1] = v[2]; v[2] = t;
            tx = fx[1]; fx[1] = fx[2]; fx[2] = tx;
            ty = fy[1]; fy[1] = fy[2]; fy[2] = ty;
        } else {
            t = v[0]; v[0] = v[1]; v[1] = t;
            tx = fx[0]; fx[0] = fx[1]; fx[1] = tx;
            ty = fy[0]; fy[0] = fy[1]; fy[1] = ty;
        }
    }
    gm_tri_edges e;
    gm_rast_tri_edges(fx, fy, dc->rs.bottom_edge_rule, &e);
    int x0 = e.minx - 1, x1 = e.maxx + 1, y0 = e.miny - 1, y1 = e.maxy + 1;
    const int *rg = dc->rs.region;
    if (x0 < rg[0]) x0 = rg[0];
    if (y0 < rg[1]) y0 = rg[1];
    if (x1 > rg[2]) x1 = rg[2];
    if (y1 > rg[3]) y1 = rg[3];
    if (x0 > x1 || y0 > y1)
        return;

    gm_prim_raster pr;
    memset(&pr, 0, sizeof(pr));
    pr.front = front;
    gm_setup_tri_planes(dc, v[0], v[1], v[2], pv, &pr);
    gm_pipe_warp_begin(dc, &pr);
    /* llvmpipe's order: tiles, then blocks (gm_tri_order.c) */
    gm_tri_emit_quads(dc, &pr, &e, x0, y0, x1, y1);
    gm_pipe_warp_flush(dc, &pr);
}
