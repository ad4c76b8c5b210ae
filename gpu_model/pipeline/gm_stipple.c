/* gm_stipple.c - line stipple as llvmpipe does it.
 *
 * llvmpipe leaves GL_LINE_STIPPLE to the draw module's stipple stage (draw_pipe_stipple.c),
 * which runs after clipping and before line setup: a line of length max(|dx|, |dy|) window
 * pixels (the Euclidean length for smooth or multisampled lines) is walked one pixel step at a time; step i
 * is "on" when bit ((counter + i) / factor) & 15 of the pattern is set, and each run of "on"
 * steps becomes a line of its own, its ends interpolated linearly in window space at i/length
 * (every attribute, 1/w included). The counter grows by ceil(length) and carries over from
 * draw to draw (gm_pipe_context.line_stipple_counter); it is reset where a primitive starts
 * (the decomposition's DRAW_PIPE_RESET_STIPPLE: every GL_LINES line, the first line of a strip
 * or loop, every triangle of GL_TRIANGLES/strips/fans, the first of a quad, polygon or clipped
 * polygon, every point), when that primitive reaches the stage: a line clipped away loses its
 * reset. The flat attributes of the provoking vertex are copied
 * to both ends first (draw's flatshade stage), so every piece keeps the line's flat values. */
#include "gm_setup.h"

#include <math.h>
#include <string.h>

static void seg_vertex(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b, const gm_pvert *prov,
                       float t, gm_pvert *out, gm_pipe_vertex *vd)
{
    const gm_pipe_shader_info *info = &dc->ctx->info;
    *vd = *a->v;
    *out = *a;
    out->v = vd;
    if (t > 0.0f) {
        for (int c = 0; c < 4; c++) {
            out->win[c] = a->win[c] + t * (b->win[c] - a->win[c]);
            vd->pos[c] = a->v->pos[c] + t * (b->v->pos[c] - a->v->pos[c]);
        }
        vd->point_size = a->v->point_size + t * (b->v->point_size - a->v->point_size);
        for (int s = 0; s < info->num_varyings; s++)
            for (int c = 0; c < 4; c++)
                vd->var[s][c] = a->v->var[s][c] + t * (b->v->var[s][c] - a->v->var[s][c]);
    }
    for (int s = 0; s < info->num_varyings; s++)
        if (info->interp[s] == GM_INTERP_FLAT)
            memcpy(vd->var[s], prov->v->var[s], sizeof(vd->var[s]));
}

static void emit_segment(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b, float t0, float t1)
{
    gm_pipe_vertex vd[2];
    gm_pvert p[2];
    const gm_pvert *prov = dc->ctx->state.flatshade_first ? a : b;
    seg_vertex(dc, a, b, prov, t0, &p[0], &vd[0]);
    if (t1 < 1.0f) {
        seg_vertex(dc, a, b, prov, t1, &p[1], &vd[1]);
    } else {
        /* the far end unchanged (flat values still from the provoking vertex) */
        seg_vertex(dc, b, a, prov, 0.0f, &p[1], &vd[1]);
    }
    gm_draw_line(dc, &p[0], &p[1]);
}

void gm_line_out(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b)
{
    const gm_pipe_state *st = &dc->ctx->state;
    if (!st->line_stipple) {
        gm_draw_line(dc, a, b);
        return;
    }
    if (dc->stipple_reset) {
        dc->stipple_counter = 0.0f;
        dc->stipple_reset = false;
    }
    float dx = a->win[0] > b->win[0] ? a->win[0] - b->win[0] : b->win[0] - a->win[0];
    float dy = a->win[1] > b->win[1] ? a->win[1] - b->win[1] : b->win[1] - a->win[1];
    /* "rectangular" lines (smooth or multisampled: Mesa's line_rectangular) walk the
     * Euclidean length */
    float length = st->line_smooth || dc->rs.ms ? sqrtf(dx * dx + dy * dy) : (dx > dy ? dx : dy);
    int factor = st->line_stipple_factor < 1 ? 1 : st->line_stipple_factor;
    uint32_t pattern = st->line_stipple_pattern;
    float start = 0.0f;
    bool state = false;
    int counter = (int)dc->stipple_counter;
    for (int i = 0; (float)i < length && !dc->failed; i++) {
        bool on = ((1u << (((counter + i) / factor) & 0xf)) & pattern) != 0;
        if (on != state) {
            if (state) {
                if (start != (float)i)
                    emit_segment(dc, a, b, start / length, (float)i / length);
            } else {
                start = (float)i;
            }
            state = on;
        }
    }
    if (state && start < length && !dc->failed)
        emit_segment(dc, a, b, start / length, 1.0f);
    /* the counter moves by the number of steps walked, ceil(length) (measured on llvmpipe:
     * a strip's second line continues the pattern there) */
    dc->stipple_counter += ceilf(length);
}
