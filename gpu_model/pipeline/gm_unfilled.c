/* gm_unfilled.c - polygon mode GL_LINE / GL_POINT as llvmpipe does it.
 *
 * llvmpipe does not rasterize unfilled polygons itself: when either face's fill mode is
 * not GL_FILL it hands the draw to gallium's draw module, whose pipeline runs, per
 * triangle after clipping: cull (draw_pipe_cull.c: the determinant of the window
 * positions decides the face, zero area counts as back facing), polygon offset
 * (draw_pipe_offset.c: computed in float from the triangle and added to each vertex's
 * window z, clamped to [0,1], for the fill mode of the triangle's face), flatshade (flat
 * attributes of the provoking vertex copied to the other two, so the lines and points
 * carry the triangle's flat values) and unfilled (draw_pipe_unfilled.c: lines v2-v0,
 * v0-v1, v1-v2, points v0, v1, v2, each only where the decomposition's edge flag and the
 * vertex's own edge flag are both set).  Lines and points then take llvmpipe's usual
 * line and point setup; filled faces its triangle setup (without its own offset). */
#include "gm_setup.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <string.h>

static bool culled(const gm_pipe_state *st, bool front, bool zero_area)
{
    uint32_t cf = st->cull_face;
    bool cull_front = cf == GL_FRONT || cf == GL_FRONT_AND_BACK;
    bool cull_back = cf == GL_BACK || cf == GL_FRONT_AND_BACK;
    if (zero_area)
        return cull_back;
    return front ? cull_front : cull_back;
}

/* draw_pipe_offset.c do_offset_tri: the offset added to each vertex's window z. */
static float draw_offset(const gm_draw_ctx *dc, const gm_pvert *const v[3], float det)
{
    const gm_pipe_state *st = &dc->ctx->state;
    float inv_det = 1.0f / det;
    float ex = v[0]->win[0] - v[2]->win[0], ey = v[0]->win[1] - v[2]->win[1];
    float ez = v[0]->win[2] - v[2]->win[2];
    float fx = v[1]->win[0] - v[2]->win[0], fy = v[1]->win[1] - v[2]->win[1];
    float fz = v[1]->win[2] - v[2]->win[2];
    float a = ey * fz - ez * fy, b = ez * fx - ex * fz;
    float dzdx = fabsf(a * inv_det), dzdy = fabsf(b * inv_det);
    float mult = fmaxf(dzdx, dzdy) * st->offset_factor;
    float zoffset;
    if (dc->rs.float_depth) {
        /* units scaled by 2^(exponent of the largest z - 23) */
        float maxz = fmaxf(v[0]->win[2], fmaxf(v[1]->win[2], v[2]->win[2]));
        int32_t bits;
        memcpy(&bits, &maxz, 4);
        bits &= 0xff << 23;
        bits -= 23 << 23;
        if (bits < 0) bits = 0;
        float scale;
        memcpy(&scale, &bits, 4);
        zoffset = st->offset_units * scale + mult;
    } else {
        zoffset = (float)((double)st->offset_units * (double)dc->rs.mrd * 2.0) + mult;
    }
    if (st->offset_clamp != 0.0f)
        zoffset = st->offset_clamp < 0.0f ? fmaxf(zoffset, st->offset_clamp)
                                          : fminf(zoffset, st->offset_clamp);
    return zoffset;
}

void gm_unfilled_tri(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                     const gm_pvert *v2, unsigned edges)
{
    gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_state *st = &ctx->state;
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_pvert *in[3] = {v0, v1, v2};

    /* cull stage: det < 0 is "counter-clockwise" for draw, which is a positive area for
     * llvmpipe's setup (the same vertices give area = -det) */
    float ex = v0->win[0] - v2->win[0], ey = v0->win[1] - v2->win[1];
    float fx = v1->win[0] - v2->win[0], fy = v1->win[1] - v2->win[1];
    float det = ex * fy - ey * fx;
    bool front = gm_tri_front(dc, det < 0.0f ? 1 : -1);
    if (culled(st, front, det == 0.0f)) {
        ctx->stats.primitives_culled++;
        return;
    }
    uint32_t mode = front ? dc->fill_front : dc->fill_back;

    /* copies carrying the offset z and the provoking vertex's flat values */
    gm_pipe_vertex vd[3];
    gm_pvert pv[3];
    const gm_pvert *prov = st->flatshade_first ? v0 : v2;
    /* draw_pipe_offset.c decides once per draw, on the first triangle that reaches it (its
     * face's fill mode picks the enable), and offsets every later triangle the same way */
    if (dc->offset_state < 0)
        dc->offset_state = (mode == GL_FILL ? st->polygon_offset_fill
                            : mode == GL_LINE ? st->polygon_offset_line
                                                 : st->polygon_offset_point) ? 1 : 0;
    bool offset = dc->offset_state == 1;
    float zoff = offset ? draw_offset(dc, in, det) : 0.0f;
    for (int i = 0; i < 3; i++) {
        vd[i] = *in[i]->v;
        pv[i] = *in[i];
        pv[i].v = &vd[i];
        if (offset) {
            float z = pv[i].win[2] + zoff;
            pv[i].win[2] = z < 0.0f ? 0.0f : z > 1.0f ? 1.0f : z;
        }
        for (int s = 0; s < info->num_varyings; s++)
            if (info->interp[s] == GM_INTERP_FLAT)
                memcpy(vd[i].var[s], prov->v->var[s], sizeof(vd[i].var[s]));
    }

    if (mode == GL_FILL) {
        dc->stipple_counter = 0.0f;   /* the stipple stage resets on triangles */
        if (st->polygon_stipple)
            dc->pstipple_on = true;
        gm_draw_triangle(dc, &pv[0], &pv[1], &pv[2]);
        return;
    }
    dc->prim_face = front ? 1 : 0;
    if (mode == GL_LINE) {
        if (edges & GM_TRI_RESET_STIPPLE)
            dc->stipple_counter = 0.0f;
        if ((edges & 4u) && !in[2]->v->no_edge) gm_line_out(dc, &pv[2], &pv[0]);
        if ((edges & 1u) && !in[0]->v->no_edge) gm_line_out(dc, &pv[0], &pv[1]);
        if ((edges & 2u) && !in[1]->v->no_edge) gm_line_out(dc, &pv[1], &pv[2]);
    } else {
        for (int i = 0; i < 3; i++)
            if ((edges & (1u << i)) && !in[i]->v->no_edge) {
                dc->stipple_counter = 0.0f;   /* ... and on points */
                gm_draw_point(dc, &pv[i]);
            }
    }
    dc->prim_face = -1;
}
