/* gm_pipe_watch.c - the pixel-history observer's side of the per-fragment operations
 * (gm_pipe_watch.h). The fragment operations call these only for the lane at the watched
 * pixel (gm_watch_lane gives -1 when nobody watches), so the hot loops keep one integer
 * compare. Values are read from the surfaces before and after the operation the pipeline
 * itself performs, so what is reported is what the model stored. */
#include "gm_pipe_internal.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <string.h>

int gm_watch_lane_slow(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, uint32_t mask)
{
    const gm_pipe_watch *wa = ctx->watch;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        if ((mask & (1u << l)) && w->x[l] == wa->x && w->y[l] == wa->y)
            return l;
    return -1;
}

static void emit(const gm_pipe_context *ctx, gm_watch_rec *r)
{
    ctx->watch->fn(ctx->watch->user, r);
}

void gm_watch_fragment(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l, bool early,
                       int sample, const gm_watch_prim *prim)
{
    gm_watch_rec r;
    memset(&r, 0, sizeof r);
    r.kind = GM_WATCH_FRAGMENT;
    r.lane = l;
    r.primitive_id = w->primitive_id;
    r.front = w->front_facing;
    r.sample_pass = sample;
    r.coverage = w->sample_mask_in[l];
    for (int c = 0; c < 4; c++)
        r.frag_coord[c] = w->frag_coord[c][l];
    r.early = early;
    if (prim)
        r.prim = *prim;
    emit(ctx, &r);
}

void gm_watch_shaded(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l,
                     uint32_t coverage_after, float depth)
{
    gm_watch_rec r;
    memset(&r, 0, sizeof r);
    r.kind = GM_WATCH_SHADED;
    r.lane = l;
    r.discarded = (w->discard >> l) & 1u;
    r.coverage_after = coverage_after;
    for (int rt = 0; rt < GM_PIPE_MAX_RT && rt < 8; rt++)
        for (int c = 0; c < 4; c++)
            r.out_f[rt][c] = w->color[rt].f[c][l];
    r.frag_depth = depth;
    emit(ctx, &r);
}

/* The depth value as the format stores it (integers for D16/D24, the float otherwise), the
 * representation the depth test compares (gm_fragops.c). */
static double depth_repr(gm_format f, const uint8_t *p)
{
    switch (f) {
    case GM_FMT_D16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case GM_FMT_D24X8: case GM_FMT_D24S8: { uint32_t v; memcpy(&v, p, 4); return v & 0xffffffu; }
    default: { float v; memcpy(&v, p, 4); return v; }
    }
}

static uint8_t *sample_ptr(const gm_surface *s, int x, int y, int smp)
{
    return gm_surface_texel(s, x, y, 0) +
           (smp < s->samples ? (size_t)smp * gm_format_get(s->format)->bytes : 0);
}

void gm_watch_ds_before(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int l, int smp,
                        float z, const gm_pipe_stencil_face *sf, bool depth_on, bool stencil_on,
                        gm_watch_rec *r)
{
    memset(r, 0, sizeof *r);
    r->kind = GM_WATCH_DEPTH_STENCIL;
    r->lane = l;
    r->sample = smp;
    r->depth_on = depth_on;
    r->stencil_on = stencil_on;
    r->depth_pass = r->stencil_pass = true;
    if (depth_on) {
        const gm_surface *ds = ctx->fb.depth;
        uint8_t t[8] = {0};
        gm_format_pack_depth(ds->format, z, t);
        r->depth_in = ds->format == GM_FMT_D16 || ds->format == GM_FMT_D24X8 ||
                      ds->format == GM_FMT_D24S8 ? depth_repr(ds->format, t) : (double)z;
        r->depth_stored = depth_repr(ds->format, sample_ptr(ds, w->x[l], w->y[l], smp));
        r->depth_func = ctx->state.depth_func;
        r->depth_pass = gm_compare_func(r->depth_func, r->depth_in, r->depth_stored);
    }
    if (stencil_on) {
        const gm_surface *ss = ctx->fb.stencil;
        uint8_t s = gm_format_unpack_stencil(ss->format, sample_ptr(ss, w->x[l], w->y[l], smp));
        r->stencil_func = sf->func;
        r->stencil_ref = sf->ref;
        r->stencil_stored = s;
        r->stencil_pass = gm_compare_func(sf->func, (double)(sf->ref & sf->value_mask),
                                          (double)(s & sf->value_mask));
    }
}

void gm_watch_ds_after(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, gm_watch_rec *r,
                       bool passed)
{
    int l = r->lane;
    r->passed = passed;
    if (r->stencil_on)
        r->stencil_after = gm_format_unpack_stencil(
            ctx->fb.stencil->format, sample_ptr(ctx->fb.stencil, w->x[l], w->y[l], r->sample));
    r->depth_written = passed && r->depth_on && ctx->state.depth_write;
    emit(ctx, r);
}

static void read_texel(const gm_surface *s, const uint8_t *p, bool integer, float out[4])
{
    if (integer) {
        uint32_t u[4];
        gm_format_unpack_rgba_i(s->format, p, u);
        memcpy(out, u, sizeof u);
    } else {
        gm_format_unpack_rgba(s->format, p, out);
    }
}

void gm_watch_color_before(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, int rt, int l,
                           int smp, bool alpha_to_one, gm_watch_rec *r)
{
    const gm_surface *s = ctx->fb.color[rt];
    const gm_format_info *fi = gm_format_get(s->format);
    const gm_pipe_blend_rt *b = &ctx->state.blend[rt];
    memset(r, 0, sizeof *r);
    r->kind = GM_WATCH_COLOR;
    r->lane = l;
    r->rt = rt;
    r->sample = smp;
    r->surface = s->data;
    r->integer = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    r->blend = b->enable && !r->integer && !ctx->state.color_logic_op;
    r->blend_src_rgb = b->src_rgb;
    r->blend_dst_rgb = b->dst_rgb;
    r->blend_src_alpha = b->src_alpha;
    r->blend_dst_alpha = b->dst_alpha;
    r->eq_rgb = b->eq_rgb;
    r->eq_alpha = b->eq_alpha;
    r->color_mask = b->color_mask;
    for (int c = 0; c < 4; c++)
        r->src[c] = w->color[rt].f[c][l];
    if (alpha_to_one && !r->integer)
        r->src[3] = 1.0f;
    if (smp < (s->samples > 0 ? s->samples : 1))
        read_texel(s, sample_ptr(s, w->x[l], w->y[l], smp), r->integer, r->dst);
}

void gm_watch_color_after(const gm_pipe_context *ctx, const gm_pipe_fs_warp *w, gm_watch_rec *r)
{
    const gm_surface *s = ctx->fb.color[r->rt];
    int l = r->lane;
    if (r->sample >= (s->samples > 0 ? s->samples : 1))
        return;   /* the target has fewer samples: nothing was written */
    read_texel(s, sample_ptr(s, w->x[l], w->y[l], r->sample), r->integer, r->after);
    emit(ctx, r);
}

void gm_watch_clip_region(const gm_pipe_context *ctx, bool flipped, int *x0, int *y0, int *x1, int *y1)
{
    if (ctx->info.fs_has_side_effects)
        return;   /* stores and atomics elsewhere in the image may matter later */
    const gm_pipe_watch *wa = ctx->watch;
    int rx = wa->x & ~1;
    int ry = (flipped ? ctx->fb.height - 1 - wa->y : wa->y) & ~1;
    /* the whole quad: its helper lanes give the pixel's derivatives */
    if (rx > *x0) *x0 = rx;
    if (ry > *y0) *y0 = ry;
    if (rx + 1 < *x1) *x1 = rx + 1;
    if (ry + 1 < *y1) *y1 = ry + 1;
}
