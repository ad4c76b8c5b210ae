/* gm_points_lines.c - point and line rasterization.
 *
 * Points follow lp_setup_point.c (non-legacy points rasterized as quads): the centre
 * is snapped with util_iround (halves away from zero; measured), the width is
 * max(1, iround(size * 256)) in 1/256 pixels, and four axis-aligned planes with the
 * same fill convention as triangles select the pixels.  Attributes are constant over
 * the point; gl_PointCoord is derived from the unsnapped centre.
 *
 * Lines follow lp_setup_line.c exactly (see the comment above gm_draw_line). */
#include "gm_setup.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <string.h>

/* util_iround on x86-64 (the portable path): halves away from zero, (int)(f + 0.5f) with the
 * float addition's own rounding.  llvmpipe's subpixel_snap() of points and lines. */
static int32_t iround_away(float f)
{
    if (!(f > -2147483520.0f && f < 2147483520.0f))
        return f > 0.0f ? INT32_MAX : INT32_MIN;
    return f >= 0.0f ? (int32_t)(f + 0.5f) : (int32_t)(f - 0.5f);
}

void gm_draw_point(gm_draw_ctx *dc, const gm_pvert *v0)
{
    const gm_pipe_state *st = &dc->ctx->state;
    const gm_pipe_shader_info *info = &dc->ctx->info;
    if (st->point_smooth && !dc->rs.ms) {
        gm_aa_point(dc, v0);
        return;
    }
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
    bool legacy = st->legacy_points && !dc->rs.ms;
    if (legacy) {
        /* lp_setup_point.c, legacy rules: the width is a whole number of pixels (halves
         * round down), the square is centred on the pixel holding the (unoffset) centre,
         * even widths on the nearest pixel corner; coverage is the whole square. */
        int lw = (iround_away(size * (float)GM_FIXED_ONE) + GM_FIXED_ONE / 2 - 1) & ~(GM_FIXED_ONE - 1);
        if (lw < GM_FIXED_ONE) lw = GM_FIXED_ONE;
        int iw = lw >> GM_FIXED_ORDER;
        int lx = iround_away(v0->win[0] * (float)GM_FIXED_ONE);
        int ly = iround_away(v0->win[1] * (float)GM_FIXED_ONE) - adj;
        if (iw == 1) {
            bx0 = lx >> GM_FIXED_ORDER;
            by0 = ly >> GM_FIXED_ORDER;
        } else if (iw & 1) {
            bx0 = (lx >> GM_FIXED_ORDER) - (iw - 1) / 2;
            by0 = (ly >> GM_FIXED_ORDER) - (iw - 1) / 2;
        } else {
            bx0 = ((lx + GM_FIXED_ONE / 2) >> GM_FIXED_ORDER) - iw / 2;
            by0 = ((ly + GM_FIXED_ONE / 2) >> GM_FIXED_ORDER) - iw / 2;
        }
        bx1 = bx0 + iw - 1;
        by1 = by0 + iw - 1;
    }
    const int *rg = dc->rs.region;
    if (bx0 < rg[0]) bx0 = rg[0];
    if (by0 < rg[1]) by0 = rg[1];
    if (bx1 > rg[2]) bx1 = rg[2];
    if (by1 > rg[3]) by1 = rg[3];
    if (bx0 > bx1 || by0 > by1)
        return;

    gm_prim_raster pr;
    memset(&pr, 0, sizeof(pr));
    pr.front = dc->prim_face != 0;
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
    /* llvmpipe's point setup applies no polygon offset (GL_POLYGON_OFFSET_POINT only acts on
     * polygons drawn as points, gm_unfilled.c): measured by gm_pipe_e2e_polymode */

    gm_pipe_warp_begin(dc, &pr);
    for (int qy = by0 & ~1; qy <= by1; qy += 2)
        for (int qx = bx0 & ~1; qx <= bx1; qx += 2) {
            uint32_t sm[4] = {0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                int px = qx + (i & 1), py = qy + (i >> 1);
                if (px < bx0 || px > bx1 || py < by0 || py > by1) continue;
                if (gm_pstipple_kill(dc, px, py)) continue;
                int ns = dc->rs.ms ? dc->rs.samples : 1;
                for (int smp = 0; smp < ns; smp++) {
                    int sx = px * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfx[smp] : 0);
                    int sy = py * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfy[smp] : 0);
                    bool in = legacy || (sx >= x0 && sx < x1);
                    in = in && (legacy || (adj ? (sy > y0 && sy <= y1) : (sy >= y0 && sy < y1)));
                    if (in) sm[i] |= dc->rs.ms ? 1u << smp : dc->rs.all_samples;
                }
                if (dc->rs.ms) sm[i] &= dc->rs.state_mask;
            }
            if (sm[0] | sm[1] | sm[2] | sm[3]) gm_pipe_warp_add_quad(dc, &pr, qx, qy, sm);
        }
    gm_pipe_warp_flush(dc, &pr);
}

/* ---- lines (lp_setup_line.c) ----
 *
 * llvmpipe rasterizes a line as a quadrilateral with four edge planes:
 * - single-sampled: a parallelogram round(width) pixels wide along the minor axis whose
 *   ends are moved by the "diamond exit" tests below (each end pixel is drawn when the
 *   segment leaves that pixel's diamond);
 * - multisampled ("rectangular lines"): a rectangle of the line's width around the
 *   segment, end points and the width offset snapped separately.
 * Positions are snapped to 1/256 pixel rounding halves away from zero (util_iround), the
 * width is rounded the same way, the four planes use the same fill convention as
 * triangles except that a horizontal edge with the top-left rule is adjusted only for
 * dcdy > 0, and the bounding box rounds up at both ends.  Wide lines are rasterized here
 * too (llvmpipe does not use draw's wide-line stage).  Attributes use the line's own plane
 * setup (setup_line_coefficients): a gradient only along the major axis ("preferred
 * wide-lines formula") referenced at the first vertex.  No polygon offset is applied
 * (draw applies GL_POLYGON_OFFSET_LINE to the triangle before it is unfilled, which the
 * pipeline does not model).  Measured by gm_pipe_e2e_lines (tests/lines). */

/* lp_setup_line.c sign(): true for x >= 0 (so -0 counts as positive) */
static bool nonneg(float x)
{
    return x >= 0.0f;
}

static float frac_pos(float f)
{
    return f - floorf(f);
}

/* subpixel_snap() */
static int32_t snap_fixed(float a)
{
    return iround_away((float)GM_FIXED_ONE * a);
}

typedef struct line_quad {
    int32_t x[4], y[4];
    float grad_dx, grad_dy;   /* attribute gradient direction (info.dx / info.dy) */
} line_quad;

/* Parallelogram of a single-sampled line: x-major or y-major with the diamond-exit end
 * adjustments.  a/b are the line's vertices in submission order. */
static void line_diamond(const float *a, const float *b, int32_t fixed_width, float po,
                         line_quad *q)
{
    float dx = a[0] - b[0], dy = a[1] - b[1];
    float xo = 0.0f, yo = 0.0f, xoe = 0.0f, yoe = 0.0f;
    float x1d = a[0] - floorf(a[0]) - 0.5f, y1d = a[1] - floorf(a[1]) - 0.5f;
    float x2d = b[0] - floorf(b[0]) - 0.5f, y2d = b[1] - floorf(b[1]) - 0.5f;
    const float *p1 = a, *p2 = b;
    bool draw_start, draw_end, will_start, will_end;
    q->grad_dx = dx;
    q->grad_dy = dy;
    if (fabsf(dx) >= fabsf(dy)) {
        float dydx = dy / dx;
        if (y2d == -0.5f && dy < 0.0f)
            y2d = 0.5f;
        /* start: drawn when inside the diamond, or when the segment leaves the
         * start pixel's diamond through its far side */
        if (fabsf(x1d) + fabsf(y1d) < 0.5f)
            draw_start = true;
        else if (nonneg(x1d) == nonneg(-dx))
            draw_start = false;
        else if (nonneg(-y1d) != nonneg(dy))
            draw_start = true;
        else {
            float yi = frac_pos(a[1]) + x1d * dydx;
            draw_start = yi < 1.0f && yi > 0.0f;
        }
        /* end: drawn when the segment enters the end pixel's diamond and leaves it */
        if (fabsf(x2d) + fabsf(y2d) < 0.5f)
            draw_end = false;
        else if (nonneg(x2d) != nonneg(-dx))
            draw_end = false;
        else if (nonneg(-y2d) == nonneg(dy))
            draw_end = true;
        else {
            float yi = frac_pos(b[1]) + x2d * dydx;
            draw_end = yi < 1.0f && yi > 0.0f;
        }
        /* would the plain parallelogram cover the end pixels already? */
        will_start = nonneg(-x1d) != nonneg(dx);
        will_end = nonneg(x2d) == nonneg(-dx) || x2d == 0.0f;
        q->grad_dx = dx * (1.0f + dydx * dydx);
        q->grad_dy = 0.0f;
        if (dx < 0.0f) {
            /* quad runs from the right end point to the left one */
            p1 = b; p2 = a;
            if (will_start != draw_start) {
                xoe = -x1d - 0.5f;
                yoe = xoe * dydx;
            }
            if (will_end != draw_end) {
                xo = -x2d - 0.5f;
                yo = xo * dydx;
            }
        } else {
            if (will_start != draw_start) {
                xo = -x1d + 0.5f;
                yo = xo * dydx;
            }
            if (will_end != draw_end) {
                xoe = -x2d + 0.5f;
                yoe = xoe * dydx;
            }
        }
        int32_t hw = fixed_width / 2;
        q->x[0] = q->x[3] = snap_fixed(p1[0] + xo - po);
        q->x[1] = q->x[2] = snap_fixed(p2[0] + xoe - po);
        int32_t y1s = snap_fixed(p1[1] + yo - po), y2s = snap_fixed(p2[1] + yoe - po);
        q->y[0] = y1s - hw; q->y[1] = y2s - hw; q->y[2] = y2s + hw; q->y[3] = y1s + hw;
    } else {
        float dxdy = dx / dy;
        if (x2d == -0.5f && dx < 0.0f)
            x2d = 0.5f;
        if (fabsf(x1d) + fabsf(y1d) < 0.5f)
            draw_start = true;
        else if (nonneg(-y1d) == nonneg(dy))
            draw_start = false;
        else if (nonneg(x1d) != nonneg(-dx))
            draw_start = true;
        else {
            float xi = frac_pos(a[0]) + y1d * dxdy;
            draw_start = xi < 1.0f && xi > 0.0f;
        }
        if (fabsf(x2d) + fabsf(y2d) < 0.5f)
            draw_end = false;
        else if (nonneg(-y2d) != nonneg(dy))
            draw_end = false;
        else if (nonneg(x2d) == nonneg(-dx))
            draw_end = true;
        else {
            /* note the asymmetric >= 0 of the driver's y-major end test */
            float xi = frac_pos(b[0]) + y2d * dxdy;
            draw_end = xi < 1.0f && xi >= 0.0f;
        }
        will_start = nonneg(y1d) == nonneg(dy);
        will_end = nonneg(-y2d) == nonneg(dy) || y2d == 0.0f;
        q->grad_dx = 0.0f;
        q->grad_dy = dy * (1.0f + dxdy * dxdy);
        if (dy > 0.0f) {
            /* quad runs from the lower end point to the upper one */
            p1 = b; p2 = a;
            if (will_start != draw_start) {
                yoe = -y1d + 0.5f;
                xoe = yoe * dxdy;
            }
            if (will_end != draw_end) {
                yo = -y2d + 0.5f;
                xo = yo * dxdy;
            }
        } else {
            if (will_start != draw_start) {
                yo = -y1d - 0.5f;
                xo = yo * dxdy;
            }
            if (will_end != draw_end) {
                yoe = -y2d - 0.5f;
                xoe = yoe * dxdy;
            }
        }
        int32_t hw = fixed_width / 2;
        int32_t x1s = snap_fixed(p1[0] + xo - po), x2s = snap_fixed(p2[0] + xoe - po);
        q->x[0] = x1s - hw; q->x[1] = x2s - hw; q->x[2] = x2s + hw; q->x[3] = x1s + hw;
        q->y[0] = q->y[3] = snap_fixed(p1[1] + yo - po);
        q->y[1] = q->y[2] = snap_fixed(p2[1] + yoe - po);
    }
}

/* Rectangle of a multisampled line (llvmpipe's rectangular_lines). */
static void line_rect(const float *a, const float *b, float width, float po, line_quad *q)
{
    float dx = a[0] - b[0], dy = a[1] - b[1];
    float scale = (width * 0.5f) / sqrtf(dx * dx + dy * dy);
    int32_t tx = snap_fixed(-dy * scale), ty = snap_fixed(dx * scale);
    int32_t ax = snap_fixed(a[0] - po), ay = snap_fixed(a[1] - po);
    int32_t bx = snap_fixed(b[0] - po), by = snap_fixed(b[1] - po);
    q->x[0] = ax - tx; q->x[1] = bx - tx; q->x[2] = bx + tx; q->x[3] = ax + tx;
    q->y[0] = ay - ty; q->y[1] = by - ty; q->y[2] = by + ty; q->y[3] = ay + ty;
    q->grad_dx = dx;
    q->grad_dy = dy;
}

/* Attribute planes of a line (setup_line_coefficients): da * grad * 1/(dx²+dy²),
 * referenced at the first vertex. */
static void line_planes(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b,
                        const line_quad *q, const gm_pvert *pv, gm_prim_raster *pr)
{
    const gm_pipe_shader_info *info = &dc->ctx->info;
    gm_pipe_planes *pl = &pr->planes;
    float dx = a->win[0] - b->win[0], dy = a->win[1] - b->win[1];
    float ooa = 1.0f / (dx * dx + dy * dy);
    float x0c = a->win[0] - dc->plane_offset, y0c = a->win[1] - dc->plane_offset;
    memset(pl->a0[0], 0, sizeof(pl->a0[0]));
    memset(pl->dadx[0], 0, sizeof(pl->dadx[0]));
    memset(pl->dady[0], 0, sizeof(pl->dady[0]));
    for (int s = 0; s <= info->num_varyings; s++) {
        uint8_t mode = s == 0 ? GM_INTERP_NOPERSPECTIVE : info->interp[s - 1];
        for (int c = s == 0 ? 2 : 0; c < 4; c++) {
            if (mode == GM_INTERP_FLAT) {
                pl->a0[s][c] = pv->v->var[s - 1][c];
                pl->dadx[s][c] = pl->dady[s][c] = 0.0f;
                continue;
            }
            float a1 = s == 0 ? a->win[c] : a->v->var[s - 1][c];
            float a2 = s == 0 ? b->win[c] : b->v->var[s - 1][c];
            if (mode == GM_INTERP_SMOOTH) {
                a1 = a1 * a->win[3];
                a2 = a2 * b->win[3];
            }
            float da = a1 - a2;
            float ddx = da * q->grad_dx * ooa, ddy = da * q->grad_dy * ooa;
            pl->dadx[s][c] = ddx;
            pl->dady[s][c] = ddy;
            pl->a0[s][c] = a1 - (ddx * x0c + ddy * y0c);
        }
    }
    pl->info = info;
    pl->y_flipped = dc->rs.flipped;
    pl->fb_height = dc->rs.fb_height;
    pr->z_offset = 0.0f;
    pr->provoking = pv;
}

void gm_draw_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1)
{
    const gm_pipe_state *st = &dc->ctx->state;
    if (st->line_smooth && !dc->rs.ms) {
        gm_aa_line(dc, v0, v1);
        return;
    }
    float dx = v0->win[0] - v1->win[0], dy = v0->win[1] - v1->win[1];
    if (dx * dx + dy * dy == 0.0f)
        return;
    float width = st->line_width > 1.0f ? st->line_width : 1.0f;
    line_quad q;
    if (dc->rs.ms) {
        /* no centre offset when multisampling; the attribute planes of rectangular lines
         * are referenced 1 pixel from the first vertex (measured against the driver) */
        line_rect(v0->win, v1->win, st->line_width > 0.0f ? st->line_width : 1.0f, 0.0f, &q);
        dc->plane_offset = 1.0f;
    } else {
        line_diamond(v0->win, v1->win, (int32_t)(width + 0.5f) * GM_FIXED_ONE, 0.5f, &q);
    }

    /* four edge planes, same evaluation as the triangle edges */
    struct { int64_t c[4], dcdx[4], dcdy[4]; } e;
    int32_t minx = q.x[0], maxx = q.x[0], miny = q.y[0], maxy = q.y[0];
    for (int i = 0; i < 4; i++) {
        int j = (i + 1) & 3;
        int64_t dcdx = (int64_t)q.y[i] - q.y[j], dcdy = (int64_t)q.x[i] - q.x[j];
        int64_t c = dcdx * q.x[i] - dcdy * q.y[i];
        if (dcdx < 0)
            c++;
        else if (dcdx == 0 && (dc->rs.bottom_edge_rule ? dcdy < 0 : dcdy > 0))
            c++;
        e.c[i] = c;
        e.dcdx[i] = dcdx;
        e.dcdy[i] = dcdy;
        if (q.x[i] < minx) minx = q.x[i];
        if (q.x[i] > maxx) maxx = q.x[i];
        if (q.y[i] < miny) miny = q.y[i];
        if (q.y[i] > maxy) maxy = q.y[i];
    }
    /* llvmpipe's bounding box only decides whether the line is binned at all (it rounds
     * up at both ends, so it is not conservative for multisampled coverage): the planes
     * decide coverage, tested over a box one pixel larger. */
    int adj = dc->rs.bottom_edge_rule ? 1 : 0;
    int bx0 = (minx + GM_FIXED_ONE - 1) >> GM_FIXED_ORDER;
    int bx1 = ((maxx + GM_FIXED_ONE - 1) >> GM_FIXED_ORDER) - 1;
    int by0 = (miny + GM_FIXED_ONE - 1 + adj) >> GM_FIXED_ORDER;
    int by1 = ((maxy + GM_FIXED_ONE - 1 + adj) >> GM_FIXED_ORDER) - 1;
    const int *rg = dc->rs.region;
    if (bx1 < bx0 || by1 < by0 || bx0 > rg[2] || bx1 < rg[0] || by0 > rg[3] || by1 < rg[1]) {
        dc->plane_offset = 0.5f;
        return;
    }
    bx0 = (minx >> GM_FIXED_ORDER) - 1;
    by0 = (miny >> GM_FIXED_ORDER) - 1;
    bx1 = (maxx >> GM_FIXED_ORDER) + 1;
    by1 = (maxy >> GM_FIXED_ORDER) + 1;
    if (bx0 < rg[0]) bx0 = rg[0];
    if (by0 < rg[1]) by0 = rg[1];
    if (bx1 > rg[2]) bx1 = rg[2];
    if (by1 > rg[3]) by1 = rg[3];

    gm_prim_raster pr;
    memset(&pr, 0, sizeof(pr));
    pr.front = dc->prim_face != 0;
    line_planes(dc, v0, v1, &q, st->flatshade_first ? v0 : v1, &pr);
    dc->plane_offset = 0.5f;
    gm_pipe_warp_begin(dc, &pr);
    for (int qy = by0 & ~1; qy <= by1; qy += 2)
        for (int qx = bx0 & ~1; qx <= bx1; qx += 2) {
            uint32_t sm[4] = {0, 0, 0, 0};
            for (int i = 0; i < 4; i++) {
                int px = qx + (i & 1), py = qy + (i >> 1);
                if (px < bx0 || px > bx1 || py < by0 || py > by1)
                    continue;
                if (gm_pstipple_kill(dc, px, py))
                    continue;
                int ns = dc->rs.ms ? dc->rs.samples : 1;
                for (int smp = 0; smp < ns; smp++) {
                    int64_t sx = (int64_t)px * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfx[smp] : 0);
                    int64_t sy = (int64_t)py * GM_FIXED_ONE + (dc->rs.ms ? dc->rs.sfy[smp] : 0);
                    bool in = true;
                    for (int k = 0; k < 4 && in; k++)
                        in = e.c[k] - e.dcdx[k] * sx + e.dcdy[k] * sy > 0;
                    if (in)
                        sm[i] |= dc->rs.ms ? 1u << smp : dc->rs.all_samples;
                }
                if (dc->rs.ms)
                    sm[i] &= dc->rs.state_mask;
            }
            if (sm[0] | sm[1] | sm[2] | sm[3])
                gm_pipe_warp_add_quad(dc, &pr, qx, qy, sm);
        }
    gm_pipe_warp_flush(dc, &pr);
}
