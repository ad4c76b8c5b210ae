/* gm_draw.c - draw entry point: index fetch with primitive restart, vertex shading
 * in warps of 32, primitive assembly (gallium's decomposition order and provoking
 * vertex rules), clip test and clipping (draw_pipe_clip.c: frustum planes without a
 * guard band, then user clip distances), viewport transform. */
#include "gm_setup.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* llvmpipe's draw JIT maps the viewport with fmuladd, fused on FMA CPUs; the
 * e2e test compares both variants against the driver. */
int gm_pipe_viewport_fused = 1;

void gm_pipe_state_default(gm_pipe_state *s, int w, int h)
{
    memset(s, 0, sizeof(*s));
    s->cull_face = 0;
    s->front_face = GL_CCW;
    s->polygon_mode = GL_FILL;
    s->polygon_mode_back = GL_FILL;
    s->line_width = 1.0f;
    s->point_size = 1.0f;
    s->point_sprite_upper_left = true;
    s->viewport[2] = (float)w;
    s->viewport[3] = (float)h;
    s->depth_range[1] = 1.0f;
    s->scissor[2] = w;
    s->scissor[3] = h;
    s->depth_func = GL_LESS;
    s->depth_write = true;
    for (int f = 0; f < 2; f++) {
        s->stencil[f].func = GL_ALWAYS;
        s->stencil[f].fail_op = s->stencil[f].zfail_op = s->stencil[f].zpass_op = GL_KEEP;
        s->stencil[f].value_mask = 0xff;
        s->stencil[f].write_mask = 0xff;
    }
    for (int i = 0; i < GM_PIPE_MAX_RT; i++) {
        s->blend[i].eq_rgb = s->blend[i].eq_alpha = GL_FUNC_ADD;
        s->blend[i].src_rgb = s->blend[i].src_alpha = GL_ONE;
        s->blend[i].dst_rgb = s->blend[i].dst_alpha = GL_ZERO;
        s->blend[i].color_mask = 0xf;
    }
    s->logic_op = GL_COPY;
    s->sample_coverage_value = 1.0f;
    s->sample_mask = ~0u;
    s->multisample = true;
    s->dither = true;
}

void gm_viewport_apply(const gm_raster_state *rs, const float clip[4], float win[4],
                       bool fused)
{
    float oow = 1.0f / clip[3];
    for (int i = 0; i < 3; i++) {
        float t = clip[i] * oow;
        win[i] = fused ? fmaf(t, rs->scale[i], rs->trans[i]) : t * rs->scale[i] + rs->trans[i];
    }
    win[3] = oow;
}

static void setup_raster_state(gm_pipe_context *ctx, gm_raster_state *rs)
{
    const gm_pipe_state *st = &ctx->state;
    const gm_pipe_framebuffer *fb = &ctx->fb;
    float hw = st->viewport[2] * 0.5f, hh = st->viewport[3] * 0.5f;
    float n = st->depth_range[0], f = st->depth_range[1];
    rs->flipped = fb->winsys_orientation;
    rs->fb_height = fb->height;
    rs->scale[0] = hw;
    rs->trans[0] = hw + st->viewport[0];
    rs->scale[1] = st->clip_origin_upper_left ? -hh : hh;
    rs->trans[1] = hh + st->viewport[1];
    if (rs->flipped) {
        rs->scale[1] = -rs->scale[1];
        rs->trans[1] = (float)fb->height - rs->trans[1];
    }
    if (st->clip_depth_zero_to_one) {
        rs->scale[2] = f - n;
        rs->trans[2] = n;
    } else {
        rs->scale[2] = (f - n) * 0.5f;
        rs->trans[2] = (n + f) * 0.5f;
    }
    rs->zmin = fminf(n, f);
    rs->zmax = fmaxf(n, f);
    /* Mesa: bottom_edge_rule for Y_0_TOP (window system), flipped by upper-left origin */
    rs->bottom_edge_rule = rs->flipped ^ st->clip_origin_upper_left;
    /* draw region: framebuffer, intersected with the scissor (raster space) */
    int x0 = 0, y0 = 0, x1 = fb->width - 1, y1 = fb->height - 1;
    if (st->scissor_enable) {
        int sx0 = st->scissor[0], sy0 = st->scissor[1];
        int sx1 = st->scissor[0] + st->scissor[2] - 1, sy1 = st->scissor[1] + st->scissor[3] - 1;
        if (rs->flipped) {
            int t0 = fb->height - 1 - sy1, t1 = fb->height - 1 - sy0;
            sy0 = t0; sy1 = t1;
        }
        if (sx0 > x0) x0 = sx0;
        if (sy0 > y0) y0 = sy0;
        if (sx1 < x1) x1 = sx1;
        if (sy1 < y1) y1 = sy1;
    }
    if (ctx->watch && ctx->watch->clip)
        gm_watch_clip_region(ctx, rs->flipped, &x0, &y0, &x1, &y1);
    rs->region[0] = x0; rs->region[1] = y0; rs->region[2] = x1; rs->region[3] = y1;
    rs->float_depth = false;
    rs->mrd = 1.0f / 16777215.0f;
    if (fb->depth) {
        gm_format df = fb->depth->format;
        if (df == GM_FMT_D32F || df == GM_FMT_D32F_S8) { rs->float_depth = true; rs->mrd = 0.0f; }
        else if (df == GM_FMT_D16) rs->mrd = 1.0f / 65535.0f;
    }
    gm_msaa_setup(ctx, rs);
}

/* ---- clipping ---------------------------------------------------------------------- */

/* Cull distances are bits 14..21 of a vertex's clipmask: a primitive whose vertices share
 * one (all of them outside that cull plane) is dropped, as draw's cull stage does
 * (cull_distance_is_out: negative, infinite or NaN); they never clip. */
#define CULL_SHIFT 14
#define CULL_BITS (((1u << GM_PIPE_MAX_CLIP_DIST) - 1u) << CULL_SHIFT)

static uint32_t compute_clipmask(const gm_pipe_context *ctx, const gm_pipe_vertex *v)
{
    const gm_pipe_state *st = &ctx->state;
    const float *p = v->pos;
    uint32_t m = 0;
    if (p[0] > p[3]) m |= 1u << 0;
    if (0.0f > p[0] + p[3]) m |= 1u << 1;
    if (p[1] > p[3]) m |= 1u << 2;
    if (0.0f > p[1] + p[3]) m |= 1u << 3;
    if (!st->depth_clamp) {
        if (st->clip_depth_zero_to_one ? 0.0f > p[2] : 0.0f > p[2] + p[3]) m |= 1u << 4;
        if (p[2] > p[3]) m |= 1u << 5;
    }
    for (int i = 0; i < GM_PIPE_MAX_CLIP_DIST && i < ctx->info.num_clip_dist; i++) {
        if (!(st->clip_plane_enable & (1u << i)))
            continue;
        float d = v->clip_dist[i];
        if (0.0f > d || isinf(d) || isnan(d))
            m |= 1u << (6 + i);
    }
    /* cull distances follow the clip distances in clip_dist[] (gm_pipe_shader_info) */
    for (int i = 0; i < ctx->info.num_cull_dist &&
                    ctx->info.num_clip_dist + i < GM_PIPE_MAX_CLIP_DIST; i++) {
        float d = v->clip_dist[ctx->info.num_clip_dist + i];
        if (0.0f > d || isinf(d) || isnan(d))
            m |= 1u << (CULL_SHIFT + i);
    }
    /* NaN positions: llvmpipe's unordered compares flag them outside */
    for (int i = 0; i < 4; i++)
        if (isnan(p[i])) m |= 1u;
    return m;
}

static float clip_dist(const gm_pipe_context *ctx, const gm_pipe_vertex *v, int plane)
{
    const float *p = v->pos;
    switch (plane) {
    case 0: return -p[0] + p[3];
    case 1: return p[0] + p[3];
    case 2: return -p[1] + p[3];
    case 3: return p[1] + p[3];
    case 4: return ctx->state.clip_depth_zero_to_one ? p[2] : p[2] + p[3];
    case 5: return -p[2] + p[3];
    default: return v->clip_dist[plane - 6];
    }
}

#define MAX_CLIP_VERTS (6 + GM_PIPE_MAX_CLIP_DIST + 3)

typedef struct clip_pool {
    gm_pipe_vertex v[MAX_CLIP_VERTS + 2];
    gm_pvert pv[MAX_CLIP_VERTS + 2];
    int n;
} clip_pool;

static float linterp(float t, float out, float in) { return out + t * (in - out); }

/* draw_pipe_clip.c interp(): dst = out + t * (in - out); window coords in C order. */
static void clip_interp(gm_draw_ctx *dc, gm_pvert *dst, gm_pipe_vertex *dv, float t,
                        const gm_pvert *out, const gm_pvert *in)
{
    const gm_pipe_shader_info *info = &dc->ctx->info;
    const gm_pipe_vertex *o = out->v, *i = in->v;
    for (int c = 0; c < 4; c++)
        dv->pos[c] = linterp(t, o->pos[c], i->pos[c]);
    for (int c = 0; c < GM_PIPE_MAX_CLIP_DIST; c++)
        dv->clip_dist[c] = linterp(t, o->clip_dist[c], i->clip_dist[c]);
    dv->point_size = linterp(t, o->point_size, i->point_size);
    dv->no_edge = false;
    gm_viewport_apply(&dc->rs, dv->pos, dst->win, false);
    /* screen-space t for noperspective attributes */
    float t_np = t;
    for (int k = 0; k < 2; k++) {
        if (i->pos[k] != o->pos[k]) {
            float ic = i->pos[k] / i->pos[3], oc = o->pos[k] / o->pos[3];
            float dcoord = dv->pos[k] / dv->pos[3];
            t_np = (dcoord - oc) / (ic - oc);
            break;
        }
    }
    for (int s = 0; s < info->num_varyings; s++) {
        float tt = info->interp[s] == GM_INTERP_NOPERSPECTIVE ? t_np : t;
        for (int c = 0; c < 4; c++)
            dv->var[s][c] = linterp(tt, o->var[s][c], i->var[s][c]);
    }
    dst->v = dv;
    dst->clipmask = 0;
}

/* Clips a triangle (draw_pipe_clip.c do_clip_tri).  `edges` are the decomposition's
 * edge flags (bit 0: v0-v1, bit 1: v1-v2, bit 2: v2-v0); they only matter in polygon
 * mode GL_LINE/GL_POINT, where edges along a frustum plane are hidden and edges along a
 * user clip plane are drawn, as draw does. */
static void clip_triangle(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                          const gm_pvert *v2, uint32_t clipmask, unsigned edges)
{
    static __thread clip_pool pool;
    const gm_pvert *a[MAX_CLIP_VERTS + 1], *b[MAX_CLIP_VERTS + 1];
    bool ea[MAX_CLIP_VERTS + 1], eb[MAX_CLIP_VERTS + 1];
    const gm_pvert **inl = a, **outl = b;
    bool *ine = ea, *oute = eb;
    const gm_pipe_state *st = &dc->ctx->state;
    int n = 3;
    pool.n = 0;
    inl[0] = v0; inl[1] = v1; inl[2] = v2;
    ine[0] = edges & 1; ine[1] = (edges >> 1) & 1; ine[2] = (edges >> 2) & 1;
    while (clipmask && n >= 3) {
        int plane = __builtin_ctz(clipmask);
        clipmask &= ~(1u << plane);
        const gm_pvert *vp = inl[0];
        bool ep = ine[0];
        float dp_prev = clip_dist(dc->ctx, vp->v, plane);
        int outcount = 0;
        if (isinf(dp_prev) || isnan(dp_prev))
            return;
        inl[n] = inl[0];
        ine[n] = ine[0];
        for (int i = 1; i <= n; i++) {
            const gm_pvert *vv = inl[i];
            float dp = clip_dist(dc->ctx, vv->v, plane);
            bool diff;
            if (isinf(dp) || isnan(dp))
                return;
            if (dp_prev >= 0.0f) {
                if (outcount >= MAX_CLIP_VERTS) return;
                oute[outcount] = ep;
                outl[outcount++] = vp;
                diff = dp < 0.0f;
            } else {
                diff = !(dp < 0.0f);
            }
            if (diff) {
                if (outcount >= MAX_CLIP_VERTS || pool.n >= MAX_CLIP_VERTS) return;
                gm_pvert *nv = &pool.pv[pool.n];
                gm_pipe_vertex *nd = &pool.v[pool.n];
                pool.n++;
                float denom = dp - dp_prev;
                if (dp < 0.0f) {
                    if (-dp < dp_prev) clip_interp(dc, nv, nd, dp / denom, vv, vp);
                    else clip_interp(dc, nv, nd, -dp_prev / denom, vp, vv);
                    /* leaving: the new edge runs along the clip plane */
                    nd->no_edge = plane < 6;
                    oute[outcount] = plane < 6 ? ep : true;
                } else {
                    if (-dp_prev < dp) clip_interp(dc, nv, nd, -dp_prev / denom, vp, vv);
                    else clip_interp(dc, nv, nd, dp / denom, vv, vp);
                    /* entering: the rest of the original edge */
                    nd->no_edge = vp->v->no_edge;
                    oute[outcount] = ep;
                }
                outl[outcount++] = nv;
            }
            vp = vv;
            ep = ine[i];
            dp_prev = dp;
        }
        const gm_pvert **t = inl; inl = outl; outl = t;
        bool *te = ine; ine = oute; oute = te;
        n = outcount;
    }
    if (n < 3)
        return;
    /* flat attributes come from the original provoking vertex */
    const gm_pvert *prov = st->flatshade_first ? v0 : v2;
    bool has_flat = false;
    for (int s = 0; s < dc->ctx->info.num_varyings; s++)
        if (dc->ctx->info.interp[s] == GM_INTERP_FLAT) has_flat = true;
    if (has_flat && inl[0] != prov && pool.n < MAX_CLIP_VERTS + 2) {
        gm_pvert *nv = &pool.pv[pool.n];
        gm_pipe_vertex *nd = &pool.v[pool.n];
        pool.n++;
        *nd = *inl[0]->v;
        *nv = *inl[0];
        nv->v = nd;
        for (int s = 0; s < dc->ctx->info.num_varyings; s++)
            if (dc->ctx->info.interp[s] == GM_INTERP_FLAT)
                memcpy(nd->var[s], prov->v->var[s], sizeof(nd->var[s]));
        inl[0] = nv;
    }
    dc->ctx->stats.primitives_clipped++;
    if (dc->unfilled) {
        /* draw_pipe_clip.c emit_poly: a fan around inl[0] with the edge flags carried */
        bool ff = st->flatshade_first;
        unsigned e_first = ff ? 1u : 4u, e_mid = ff ? 2u : 1u, e_last = ff ? 4u : 2u;
        if (!ine[0]) e_first = 0;
        unsigned fl = e_first | e_mid | GM_TRI_RESET_STIPPLE;
        for (int i = 2; i < n && !dc->failed; i++, fl = e_mid) {
            if (!ine[i - 1]) fl &= ~e_mid;
            if (i == n - 1 && ine[i]) fl |= e_last;
            if (ff) gm_unfilled_tri(dc, inl[0], inl[i - 1], inl[i], fl);
            else gm_unfilled_tri(dc, inl[i - 1], inl[i], inl[0], fl);
        }
        return;
    }
    for (int i = 2; i < n && !dc->failed; i++) {
        if (st->flatshade_first)
            gm_draw_triangle(dc, inl[0], inl[i - 1], inl[i]);
        else
            gm_draw_triangle(dc, inl[i - 1], inl[i], inl[0]);
    }
}

/* Pixel history: the primitive about to be rasterized (gm_watch_prim), from its shaded vertices. */
static void note_prim(gm_draw_ctx *dc, const gm_pvert *a, const gm_pvert *b, const gm_pvert *c, int n, int provoking)
{
    if (!dc->ctx->watch || !dc->pv_vid)
        return;
    const gm_pvert *v[3] = { a, b, c };
    gm_watch_prim *p = &dc->prim;
    p->n = n;
    p->provoking = provoking;
    p->instance_id = dc->instance;
    for (int i = 0; i < n; i++) {
        ptrdiff_t k = v[i] - dc->pv_base;
        if (k < 0 || k >= dc->pv_n) {
            p->n = 0;   /* not one of the draw's shaded vertices */
            return;
        }
        p->vertex_id[i] = dc->pv_vid[k];
        memcpy(p->clip[i], v[i]->v->pos, sizeof p->clip[i]);
    }
}

/* `edges`: edge flags of the decomposition (bit 0: v0-v1, 1: v1-v2, 2: v2-v0) and
 * GM_TRI_RESET_STIPPLE where the triangle starts a primitive. */
/* Does the draw interpolate any varying flat (glShadeModel(GL_FLAT) included, which the frame
 * layer turns into flat colour varyings)? */
static bool any_flat(const gm_draw_ctx *dc)
{
    for (int s = 0; s < dc->ctx->info.num_varyings; s++)
        if (dc->ctx->info.interp[s] == GM_INTERP_FLAT)
            return true;
    return false;
}

static void emit_triangle(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1,
                          const gm_pvert *v2, unsigned edges)
{
    const gm_pipe_state *st = &dc->ctx->state;
    dc->ctx->stats.primitives_in++;
    note_prim(dc, v0, v1, v2, 3, st->flatshade_first ? 0 : 2);
    uint32_t any = (v0->clipmask | v1->clipmask | v2->clipmask) & ~CULL_BITS;
    uint32_t all = v0->clipmask & v1->clipmask & v2->clipmask;
    if (!st->rasterizer_discard && all == 0) {
        if (any)
            clip_triangle(dc, v0, v1, v2, any, edges);
        else if (dc->unfilled)
            gm_unfilled_tri(dc, v0, v1, v2, edges);
        else
            gm_draw_triangle(dc, v0, v1, v2);
    }
    dc->primitive_id++;
}

/* draw_pipe_clip.c do_clip_line: parametric clipping of both ends. */
static void clip_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1, uint32_t mask)
{
    static __thread gm_pipe_vertex nv[2];
    gm_pvert p0 = *v0, p1 = *v1;
    float t0 = 0.0f, t1 = 0.0f;
    while (mask) {
        int plane = __builtin_ctz(mask);
        mask &= ~(1u << plane);
        float dp0 = clip_dist(dc->ctx, v0->v, plane), dp1 = clip_dist(dc->ctx, v1->v, plane);
        if (isnan(dp0) || isnan(dp1) || isinf(dp0) || isinf(dp1))
            return;
        if (dp1 < 0.0f && dp0 < 0.0f)
            return;
        if (dp1 < 0.0f) {
            float t = dp1 / (dp1 - dp0);
            t1 = fmaxf(t1, t);
        } else if (dp0 < 0.0f) {
            float t = dp0 / (dp0 - dp1);
            t0 = fmaxf(t0, t);
        }
    }
    if (v0->clipmask) clip_interp(dc, &p0, &nv[0], t0, v0, v1);
    if (v1->clipmask) clip_interp(dc, &p1, &nv[1], t1, v1, v0);
    /* flat values stay those of the provoking endpoint */
    const gm_pvert *prov = dc->ctx->state.flatshade_first ? v0 : v1;
    for (int s = 0; s < dc->ctx->info.num_varyings; s++)
        if (dc->ctx->info.interp[s] == GM_INTERP_FLAT) {
            if (p0.v != v0->v) memcpy(nv[0].var[s], prov->v->var[s], sizeof(nv[0].var[s]));
            if (p1.v != v1->v) memcpy(nv[1].var[s], prov->v->var[s], sizeof(nv[1].var[s]));
        }
    if (t0 + t1 >= 1.0f)
        return;
    gm_line_out(dc, &p0, &p1);
}

/* reset: the line starts a primitive (line stipple counter back to 0) */
static void emit_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1, bool reset)
{
    dc->ctx->stats.primitives_in++;
    note_prim(dc, v0, v1, NULL, 2, dc->ctx->state.flatshade_first ? 0 : 1);
    /* the reset travels with the line: lost when clipping drops it */
    dc->stipple_reset = reset;
    uint32_t any = (v0->clipmask | v1->clipmask) & ~CULL_BITS;
    if (!dc->ctx->state.rasterizer_discard && (v0->clipmask & v1->clipmask) == 0) {
        if (any) clip_line(dc, v0, v1, any);
        else gm_line_out(dc, v0, v1);
    }
    dc->stipple_reset = false;
    dc->primitive_id++;
}

static void emit_point(gm_draw_ctx *dc, const gm_pvert *v0)
{
    dc->ctx->stats.primitives_in++;
    note_prim(dc, v0, NULL, NULL, 1, 0);
    /* points are culled when their centre is outside any clip plane (llvmpipe) */
    if (!dc->ctx->state.rasterizer_discard && v0->clipmask == 0) {
        dc->stipple_counter = 0.0f;   /* the stipple stage resets on points */
        gm_draw_point(dc, v0);
    }
    dc->primitive_id++;
}

/* ---- primitive assembly ------------------------------------------------------------ */

/* draw's vertex split hands a draw's vertices to the pipeline-or-not decision in segments of
 * this many (measured with quads, see GL_QUADS below) */
#define QUAD_SEGMENT 4096

/* Does a vertex of vs[from, to) fail draw's clip test (any clip or cull bit)? */
static bool segment_clipped(const gm_pvert *const *vs, int from, int to)
{
    for (int k = from; k < to; k++)
        if (vs[k]->clipmask)
            return true;
    return false;
}

static void assemble(gm_draw_ctx *dc, uint32_t mode, const gm_pvert *const *vs, int n)
{
    bool ff = dc->ctx->state.flatshade_first;
    int i;
    switch (mode) {
    case GL_POINTS:
        for (i = 0; i < n && !dc->failed; i++) emit_point(dc, vs[i]);
        break;
    case GL_LINES:
        for (i = 0; i + 1 < n && !dc->failed; i += 2) emit_line(dc, vs[i], vs[i + 1], true);
        break;
    case GL_LINE_STRIP:
    case GL_LINE_LOOP:
        for (i = 0; i + 1 < n && !dc->failed; i++) emit_line(dc, vs[i], vs[i + 1], i == 0);
        if (mode == GL_LINE_LOOP && n >= 2 && !dc->failed) emit_line(dc, vs[n - 1], vs[0], false);
        break;
    case GL_TRIANGLES:
        for (i = 0; i + 2 < n && !dc->failed; i += 3) emit_triangle(dc, vs[i], vs[i + 1], vs[i + 2], 15);
        break;
    case GL_TRIANGLE_STRIP:
        for (i = 0; i + 2 < n && !dc->failed; i++) {
            if (ff) emit_triangle(dc, vs[i], vs[i + 1 + (i & 1)], vs[i + 2 - (i & 1)], 15);
            else emit_triangle(dc, vs[i + (i & 1)], vs[i + 1 - (i & 1)], vs[i + 2], 15);
        }
        break;
    case GL_TRIANGLE_FAN:
        for (i = 0; i + 2 < n && !dc->failed; i++) {
            if (ff) emit_triangle(dc, vs[i + 1], vs[i + 2], vs[0], 15);
            else emit_triangle(dc, vs[0], vs[i + 1], vs[i + 2], 15);
        }
        break;
    /* Quads, quad strips and polygons as llvmpipe splits them (lp_setup_vbuf.c and
     * draw_decompose_tmp.h agree on the triangles): the diagonal of a quad is v1-v3,
     * the last vertex of a quad is provoking whatever the convention (llvmpipe has no
     * PIPE_CAP_QUADS_FOLLOW_PROVOKING_VERTEX_CONVENTION); the inner diagonals carry no
     * edge flag, so polygon mode GL_LINE/GL_POINT does not draw them. */
    /* both triangles of a quad have the quad's gl_PrimitiveID (measured on llvmpipe) */
    /* Filled, smooth, non-indexed quads with the last-vertex convention that reach llvmpipe's
     * setup directly (lp_setup_vbuf.c draw_arrays: the rect() attempt, then the triangles
     * (v0,v1,v2)(v0,v2,v3)) are split along v0-v2 instead (measured: smooth colours red,
     * green, blue, white at v0..v3 give (0.5, 0, 0.5) at the centre; piglit
     * vs-textureLod-miplevels-2). The draw module's pipeline decomposes them v1-v3
     * (draw_decompose_tmp.h), and it takes every quad of a segment of 4096 vertices (draw's
     * vertex split) where one vertex needs clipping (draw's post-VS clip test; the Teeworlds menu
     * gradient, a quad larger than the window), besides flat shading, polygon modes and stipple
     * (draw_need_pipeline; GL_POLYGON_OFFSET_LINE with filled polygons is not one). Indexed
     * quads (draw_elements) are always split v1-v3. Measured on llvmpipe (Mesa 22.3.6,
     * gm_pipe_e2e_quad_split, docs/FIDELITY.md): a quad past the viewport with or without a
     * depth buffer, 1024 quads (4096 vertices) clipped by their first and 1025 not,
     * glDrawElements inside the viewport. */
    case GL_QUADS: {
        const gm_pipe_state *qs = &dc->ctx->state;
        bool v0v2 = !ff && !dc->unfilled && !dc->indexed && !any_flat(dc) && !qs->quads_from_list;
        int n4 = n & ~3;
        bool seg_v0v2 = v0v2;
        for (i = 0; i + 3 < n && !dc->failed; i += 4) {
            if (v0v2 && i % QUAD_SEGMENT == 0)
                seg_v0v2 = !segment_clipped(vs, i, i + QUAD_SEGMENT < n4 ? i + QUAD_SEGMENT : n4);
            const gm_pvert *q0 = vs[i], *q1 = vs[i + 1], *q2 = vs[i + 2], *q3 = vs[i + 3];
            if (ff) { emit_triangle(dc, q3, q0, q1, 3 | 8); dc->primitive_id--; emit_triangle(dc, q3, q1, q2, 6); }
            else if (seg_v0v2) { emit_triangle(dc, q0, q1, q2, 3 | 8); dc->primitive_id--; emit_triangle(dc, q0, q2, q3, 6); }
            else { emit_triangle(dc, q0, q1, q3, 5 | 8); dc->primitive_id--; emit_triangle(dc, q1, q2, q3, 3); }
        }
        break;
    }
    case GL_QUAD_STRIP:
        for (i = 0; i + 3 < n && !dc->failed; i += 2) {
            const gm_pvert *q0 = vs[i], *q1 = vs[i + 1], *q2 = vs[i + 2], *q3 = vs[i + 3];
            if (ff) { emit_triangle(dc, q3, q2, q0, 3 | 8); dc->primitive_id--; emit_triangle(dc, q3, q0, q1, 6); }
            else { emit_triangle(dc, q2, q0, q3, 5 | 8); dc->primitive_id--; emit_triangle(dc, q0, q1, q3, 3); }
        }
        break;
    case GL_POLYGON:
        /* a fan around v0; only the outer edges are flagged */
        for (i = 0; i + 2 < n && !dc->failed; i++) {
            bool last = i + 3 == n;
            if (ff) emit_triangle(dc, vs[0], vs[i + 1], vs[i + 2], 2u | (i == 0 ? 9u : 0u) | (last ? 4u : 0u));
            else emit_triangle(dc, vs[i + 1], vs[i + 2], vs[0], 1u | (i == 0 ? 12u : 0u) | (last ? 2u : 0u));
        }
        break;
    case GL_LINES_ADJACENCY:
        for (i = 0; i + 3 < n && !dc->failed; i += 4) emit_line(dc, vs[i + 1], vs[i + 2], true);
        break;
    case GL_LINE_STRIP_ADJACENCY:
        for (i = 1; i + 2 < n && !dc->failed; i++) emit_line(dc, vs[i], vs[i + 1], i == 1);
        break;
    case GL_TRIANGLES_ADJACENCY:
        for (i = 0; i + 5 < n && !dc->failed; i += 6) emit_triangle(dc, vs[i], vs[i + 2], vs[i + 4], 15);
        break;
    case GL_TRIANGLE_STRIP_ADJACENCY:
        for (i = 0; 2 * i + 4 < n && !dc->failed; i++) {
            int a = 2 * i, b = 2 * i + 2, c = 2 * i + 4;
            if (i & 1) { int t = a; a = b; b = t; }
            if (ff && (i & 1)) { int t = b; b = c; c = t; int u = a; a = b; b = u; }
            emit_triangle(dc, vs[a], vs[b], vs[c], 15);
        }
        break;
    default:
        break;
    }
}

/* ---- draw ---------------------------------------------------------------------------- */

static int fail(gm_pipe_context *ctx, const char *msg)
{
    snprintf(ctx->error, sizeof(ctx->error), "%s", msg);
    return -1;
}

static uint32_t read_index(const gm_pipe_draw *d, int i)
{
    const uint8_t *p = d->indices;
    switch (d->index_type) {
    case GL_UNSIGNED_BYTE: return p[d->first + i];
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, p + 2 * (size_t)(d->first + i), 2); return v; }
    default: { uint32_t v; memcpy(&v, p + 4 * (size_t)(d->first + i), 4); return v; }
    }
}

/* Completes the oldest vertex warp the VS callback queued (GM_PIPE_QUEUED): 0 or -1. */
static int vs_complete(gm_pipe_context *ctx)
{
    return ctx->vs(ctx->vs_user, NULL, 0, 0, NULL) != 0 ? -1 : 0;
}

/* Open-addressing map from vertex id to shaded slot. */
typedef struct vmap { int32_t *key; int32_t *val; int cap; } vmap;

static int vmap_find_or_add(vmap *m, int32_t key, int next, bool *added)
{
    uint32_t h = ((uint32_t)key * 2654435761u) & (uint32_t)(m->cap - 1);
    while (m->val[h] >= 0) {
        if (m->key[h] == key) { *added = false; return m->val[h]; }
        h = (h + 1) & (uint32_t)(m->cap - 1);
    }
    m->key[h] = key; m->val[h] = next; *added = true;
    return next;
}

int gm_pipe_draw_exec(gm_pipe_context *ctx, const gm_pipe_draw *d)
{
    if (!ctx || !d)
        return -1;
    ctx->error[0] = 0;
    if (!ctx->vs)
        return fail(ctx, "no vertex shader callback");
    if (d->count < 0 || d->first < 0 || d->instance_count < 0)
        return fail(ctx, "negative count, first or instance count");
    if (d->mode > GL_PATCHES)
        return fail(ctx, "invalid primitive mode");
    if (d->mode == GL_PATCHES) {
        ctx->stats.unsupported++;
        return fail(ctx, "GL_PATCHES needs tessellation (unsupported by the pipeline)");
    }
    if (d->indices && d->index_type != GL_UNSIGNED_BYTE &&
        d->index_type != GL_UNSIGNED_SHORT && d->index_type != GL_UNSIGNED_INT)
        return fail(ctx, "invalid index type");
    if (ctx->fb.width <= 0 || ctx->fb.height <= 0 || ctx->fb.width > 16384 || ctx->fb.height > 16384)
        return fail(ctx, "invalid framebuffer size");
    if (ctx->info.num_varyings < 0 || ctx->info.num_varyings > GM_PIPE_MAX_VARYINGS)
        return fail(ctx, "invalid number of varyings");
    for (int i = 0; i < GM_PIPE_MAX_RT; i++) {
        gm_surface *s = ctx->fb.color[i];
        if (s && (s->width < ctx->fb.width || s->height < ctx->fb.height || !s->data))
            return fail(ctx, "colour attachment smaller than the framebuffer");
    }
    if (ctx->fb.depth && (ctx->fb.depth->width < ctx->fb.width || ctx->fb.depth->height < ctx->fb.height))
        return fail(ctx, "depth attachment smaller than the framebuffer");
    if (ctx->fb.stencil && (ctx->fb.stencil->width < ctx->fb.width || ctx->fb.stencil->height < ctx->fb.height))
        return fail(ctx, "stencil attachment smaller than the framebuffer");
    if (d->count == 0 || d->instance_count == 0)
        return 0;

    gm_draw_ctx dc;
    memset(&dc, 0, sizeof(dc));
    dc.plane_offset = 0.5f;
    dc.ctx = ctx;
    dc.prim_face = -1;
    dc.stipple_counter = ctx->line_stipple_counter;
    dc.offset_state = -1;
    dc.indexed = d->indices != NULL;
    /* polygon mode GL_LINE/GL_POINT on either face: llvmpipe hands the draw to the draw
     * module's pipeline (cull, offset, flatshade, unfilled stages: gm_unfilled.c) */
    {
        /* st_atom_rasterizer.c: a culled face takes the other face's fill mode */
        uint32_t fm = ctx->state.polygon_mode, bm = ctx->state.polygon_mode_back;
        if (fm != GL_LINE && fm != GL_POINT) fm = GL_FILL;
        if (bm != GL_LINE && bm != GL_POINT) bm = GL_FILL;
        uint32_t cf = ctx->state.cull_face;
        if (cf == GL_FRONT || cf == GL_FRONT_AND_BACK) fm = bm;
        if (cf == GL_BACK || cf == GL_FRONT_AND_BACK) bm = fm;
        dc.fill_front = fm;
        dc.fill_back = bm;
        dc.unfilled = fm != GL_FILL || bm != GL_FILL || ctx->state.line_stipple ||
                      ctx->state.polygon_stipple;
    }
    setup_raster_state(ctx, &dc.rs);
    /* Single-sampled GL_LINE_SMOOTH or GL_POINT_SMOOTH also make llvmpipe leave polygon offset
     * to the draw module (lp_state_rasterizer.c), whose pipeline then takes filled triangles
     * when an offset is enabled (draw_need_pipeline): the offset is applied per vertex */
    if ((ctx->state.line_smooth || ctx->state.point_smooth) && !dc.rs.ms &&
        (ctx->state.polygon_offset_fill || ctx->state.polygon_offset_line ||
         ctx->state.polygon_offset_point))
        dc.unfilled = true;
    int warp_ok = gm_pipe_fs_queue_init(&dc);
    int n = d->count;
    int32_t *ids = malloc(sizeof(int32_t) * (size_t)n);
    uint8_t *restart = calloc((size_t)n, 1);
    int *slot = malloc(sizeof(int) * (size_t)n);
    gm_pipe_vertex *shaded = malloc(sizeof(gm_pipe_vertex) * (size_t)n);
    gm_pvert *pverts = malloc(sizeof(gm_pvert) * (size_t)n);
    int32_t *slot_vid = malloc(sizeof(int32_t) * (size_t)n);   /* gl_VertexID of each shaded slot */
    const gm_pvert **seq = malloc(sizeof(gm_pvert *) * (size_t)n);
    vmap m = {0};
    m.cap = 64;
    while (m.cap < 2 * n) m.cap <<= 1;
    m.key = malloc(sizeof(int32_t) * (size_t)m.cap);
    m.val = malloc(sizeof(int32_t) * (size_t)m.cap);
    int rc = 0;
    int vs_pending = 0;   /* vertex warps queued by the VS callback, not completed yet */
    if (warp_ok != 0 || !ids || !restart || !slot || !shaded || !pverts || !slot_vid || !seq || !m.key || !m.val) {
        rc = fail(ctx, "out of memory");
        goto done;
    }
    uint32_t restart_index = ctx->state.restart_index;
    if (ctx->state.primitive_restart_fixed_index)
        restart_index = d->index_type == GL_UNSIGNED_BYTE ? 0xffu :
                        d->index_type == GL_UNSIGNED_SHORT ? 0xffffu : 0xffffffffu;
    bool use_restart = d->indices && (ctx->state.primitive_restart || ctx->state.primitive_restart_fixed_index);
    for (int i = 0; i < n; i++) {
        if (d->indices) {
            uint32_t idx = read_index(d, i);
            if (use_restart && idx == restart_index) { restart[i] = 1; ids[i] = 0; continue; }
            ids[i] = (int32_t)(idx + (uint32_t)d->base_vertex);
        } else {
            ids[i] = d->first + i;
        }
    }

    for (int inst = 0; inst < d->instance_count && rc == 0; inst++) {
        /* unique vertices in order of first use, shaded in batches of 32 */
        for (int i = 0; i < m.cap; i++) m.val[i] = -1;
        int nunique = 0;
        int32_t batch_ids[GM_PIPE_WARP_LANES];
        int batch_n = 0, batch_first = 0;
        for (int i = 0; i <= n; i++) {
            bool flush = (i == n);
            if (i < n && !restart[i]) {
                bool added;
                slot[i] = vmap_find_or_add(&m, ids[i], nunique, &added);
                if (added) {
                    if (batch_n == 0) batch_first = nunique;
                    slot_vid[nunique] = ids[i];
                    batch_ids[batch_n++] = ids[i];
                    nunique++;
                    flush = batch_n == GM_PIPE_WARP_LANES;
                }
            }
            if (flush && batch_n > 0) {
                memset(&shaded[batch_first], 0, sizeof(gm_pipe_vertex) * (size_t)batch_n);
                ctx->stats.vs_invocations += (uint64_t)batch_n;
                int vrc = ctx->vs(ctx->vs_user, batch_ids, batch_n, inst, &shaded[batch_first]);
                if (vrc == GM_PIPE_QUEUED || vrc == GM_PIPE_QUEUED_FULL) {
                    vs_pending++;
                    if (vrc == GM_PIPE_QUEUED_FULL) {
                        if (vs_complete(ctx) != 0) {
                            vs_pending = 0;   /* the callback dropped its queue */
                            rc = fail(ctx, "vertex shader aborted the draw");
                            break;
                        }
                        vs_pending--;
                    }
                } else if (vrc != 0) {
                    vs_pending = 0;
                    rc = fail(ctx, "vertex shader aborted the draw");
                    break;
                }
                batch_n = 0;
            }
        }
        /* every vertex of the instance is shaded before primitive assembly */
        while (rc == 0 && vs_pending > 0) {
            if (vs_complete(ctx) != 0) {
                vs_pending = 0;
                rc = fail(ctx, "vertex shader aborted the draw");
            } else {
                vs_pending--;
            }
        }
        if (rc)
            break;
        for (int u = 0; u < nunique; u++) {
            gm_pvert *pv = &pverts[u];
            pv->v = &shaded[u];
            if (!ctx->info.vs_writes_point_size || !ctx->state.program_point_size)
                shaded[u].point_size = ctx->state.point_size;
            pv->clipmask = compute_clipmask(ctx, &shaded[u]);
            gm_viewport_apply(&dc.rs, shaded[u].pos, pv->win,
                              gm_pipe_viewport_fused != 0 && !ctx->info.viewport_unfused);
        }
        dc.primitive_id = 0;
        dc.pv_base = pverts;
        dc.pv_vid = slot_vid;
        dc.pv_n = nunique;
        dc.instance = inst;
        int start = 0;
        for (int i = 0; i <= n; i++) {
            if (i == n || restart[i]) {
                int cnt = 0;
                for (int k = start; k < i; k++)
                    seq[cnt++] = &pverts[slot[k]];
                assemble(&dc, d->mode, seq, cnt);
                start = i + 1;
            }
        }
        if (dc.failed)
            rc = ctx->error[0] ? -1 : fail(ctx, "fragment shader aborted the draw");
    }
    if (ctx->state.line_stipple)
        ctx->line_stipple_counter = dc.stipple_counter;
    /* queued fragment warps complete (late operations in order) before the draw returns */
    if (gm_pipe_fs_drain(&dc) != 0 && rc == 0)
        rc = ctx->error[0] ? -1 : fail(ctx, "fragment shader aborted the draw");
done:
    while (vs_pending > 0 && vs_complete(ctx) == 0)
        vs_pending--;
    gm_pipe_fs_queue_free(&dc);
    free(ids); free(restart); free(slot); free(shaded); free(pverts); free(slot_vid);
    free(seq); free(m.key); free(m.val);
    return rc;
}
