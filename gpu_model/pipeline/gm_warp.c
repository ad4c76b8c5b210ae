/* gm_warp.c - groups covered quads into fragment warps, interpolates inputs the way
 * llvmpipe's lp_bld_interp.c does (a = fma(dady, y, fma(dadx, x, a0)), perspective
 * divide by 1/w interpolated at the pixel), runs the FS callback and the fragment
 * operations.  Warps are filled with up to 8 quads in raster order per primitive.
 * A callback may queue a warp's shader (GM_PIPE_QUEUED, gm_pipe_internal.h): the warp
 * then waits in the draw's queue and its late operations run, in submission order, when
 * the callback completes it. */
#include "gm_setup.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gm_pipe_planes_eval(const gm_pipe_planes *p, int slot, float wx, float wy,
                         float out[4])
{
    /* window -> raster position relative to pixel-centre-at-integer convention */
    float x = wx - 0.5f;
    float y = p->y_flipped ? ((float)p->fb_height - wy) - 0.5f : wy - 0.5f;
    int s = slot + 1;
    uint8_t mode = p->info ? p->info->interp[slot] : GM_INTERP_SMOOTH;
    float oow = 1.0f;
    if (mode == GM_INTERP_SMOOTH) {
        float w = fmaf(p->dady[0][3], y, fmaf(p->dadx[0][3], x, p->a0[0][3]));
        oow = 1.0f / w;
    }
    for (int c = 0; c < 4; c++) {
        if (mode == GM_INTERP_FLAT) {
            out[c] = p->a0[s][c];
            continue;
        }
        float a = fmaf(p->dady[s][c], y, fmaf(p->dadx[s][c], x, p->a0[s][c]));
        out[c] = mode == GM_INTERP_SMOOTH ? a * oow : a;
    }
}

void gm_pipe_warp_begin(gm_draw_ctx *dc, gm_prim_raster *pr)
{
    (void)pr;
    gm_pipe_fs_warp *w = dc->warp;
    w->num_quads = 0;
    w->live = 0;
    w->present = 0;
}

static float clampf(float v, float lo, float hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* ---- the deferred-fragment queue (see gm_pipe_internal.h) ---- */

static gm_fs_pending *pending_of(gm_pipe_fs_warp *w)
{
    return (gm_fs_pending *)(void *)w;   /* w is the record's first member */
}

int gm_pipe_fs_queue_init(gm_draw_ctx *dc)
{
    memset(&dc->fsq, 0, sizeof(dc->fsq));
    gm_fs_pending *p = calloc(1, sizeof(*p));
    dc->warp = p ? &p->w : NULL;
    return p ? 0 : -1;
}

void gm_pipe_fs_queue_free(gm_draw_ctx *dc)
{
    gm_fs_queue *q = &dc->fsq;
    for (int i = 0; i < q->cap; i++)
        free(q->e[i]);
    free(q->e);
    memset(q, 0, sizeof(*q));
    if (dc->warp)
        free(pending_of(dc->warp));
    dc->warp = NULL;
}

/* Room for one more queued warp, and a record to become the scratch warp after it:
 * 0, or -1 (out of memory). */
static int queue_reserve(gm_draw_ctx *dc)
{
    gm_fs_queue *q = &dc->fsq;
    if (q->n == q->cap) {
        int cap = q->cap ? 2 * q->cap : 16;
        gm_fs_pending **e = calloc((size_t)cap, sizeof(*e));
        if (!e)
            return -1;
        /* oldest first from 0: queued records keep their addresses (only pointers move) */
        for (int i = 0; i < q->cap; i++)
            e[i] = q->e[(q->head + i) % q->cap];
        free(q->e);
        q->e = e;
        q->head = 0;
        q->cap = cap;
    }
    gm_fs_pending **slot = &q->e[(q->head + q->n) % q->cap];
    if (!*slot)
        *slot = calloc(1, sizeof(**slot));
    return *slot ? 0 : -1;
}

/* The queued warp becomes the newest entry; the free record there becomes the scratch. */
static void queue_push(gm_draw_ctx *dc)
{
    gm_fs_queue *q = &dc->fsq;
    gm_fs_pending **slot = &q->e[(q->head + q->n) % q->cap];
    gm_fs_pending *spare = *slot;
    *slot = pending_of(dc->warp);
    dc->warp = &spare->w;
    q->n++;
}

/* After the shader: discard, late depth/stencil (or none after the early test), colour. */
static void finish_warp(gm_draw_ctx *dc, gm_fs_pending *p)
{
    gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_raster_state *rs = &dc->rs;
    const gm_pipe_fs_warp *w = &p->w;
    uint32_t live = p->live;
    /* quads whose shaded (live) lanes were all discarded */
    for (int q = 0; q < GM_PIPE_WARP_QUADS; q++) {
        uint32_t qm = 0xfu << (4 * q);
        if ((live & qm) && !(live & ~w->discard & qm))
            ctx->stats.quads_killed++;
    }
    live &= ~w->discard;
    if (!p->early) {
        if (info->fs_writes_depth)
            for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
                p->z[l] = clampf(w->depth[l], rs->zmin, rs->zmax);
        live = gm_fragops_depth_stencil(ctx, w, live, p->z, p->front);
    }
    ctx->stats.fragments_passed += (uint64_t)__builtin_popcount(live);
    gm_fragops_color(ctx, w, live);
}

/* Completes the oldest queued warp (its outputs from the callback) and applies its late
 * operations. 0, or -1 when the callback aborted (it dropped its queue: so does this). */
static int complete_oldest(gm_draw_ctx *dc)
{
    gm_fs_queue *q = &dc->fsq;
    gm_fs_pending *p = q->e[q->head];
    if (!p->done && dc->ctx->fs(dc->ctx->fs_user, NULL) != 0) {
        dc->failed = 1;
        q->n = 0;
        return -1;
    }
    q->head = (q->head + 1) % q->cap;
    q->n--;
    finish_warp(dc, p);
    return 0;
}

int gm_pipe_fs_drain(gm_draw_ctx *dc)
{
    while (dc->fsq.n > 0)
        if (complete_oldest(dc) != 0)
            return -1;
    return dc->failed ? -1 : 0;
}

static void run_warp(gm_draw_ctx *dc, gm_prim_raster *pr)
{
    gm_pipe_context *ctx = dc->ctx;
    gm_pipe_fs_warp *w = dc->warp;
    gm_fs_pending *cur = pending_of(w);
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_pipe_planes *pl = &pr->planes;
    const gm_raster_state *rs = &dc->rs;
    float *z = cur->z;
    float rx[GM_PIPE_WARP_LANES], ry[GM_PIPE_WARP_LANES];

    w->quad_dy = rs->flipped ? -1 : 1;
    w->front_facing = pr->front;
    w->primitive_id = dc->primitive_id;
    /* The shader may run after this primitive is done: it reads the record's copy. */
    cur->planes = *pl;
    w->planes = &cur->planes;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->present & (1u << l)))
            continue;
        /* raster coordinates (pixel index as float: llvmpipe's pixoff) */
        int rpy = rs->flipped ? rs->fb_height - 1 - w->y[l] : w->y[l];
        rx[l] = (float)w->x[l];
        ry[l] = (float)rpy;
        float zz = fmaf(pl->dady[0][2], ry[l], fmaf(pl->dadx[0][2], rx[l], pl->a0[0][2]));
        zz += pr->z_offset;
        float ww = fmaf(pl->dady[0][3], ry[l], fmaf(pl->dadx[0][3], rx[l], pl->a0[0][3]));
        z[l] = zz;
        w->frag_coord[0][l] = rx[l] + 0.5f;
        w->frag_coord[1][l] = rs->flipped ? (float)rs->fb_height - (ry[l] + 0.5f) : ry[l] + 0.5f;
        w->frag_coord[2][l] = zz;
        w->frag_coord[3][l] = ww;
        w->sample_mask_in[l] = (w->live >> l) & 1u;
        float oow = 1.0f / ww;
        for (int s = 0; s < info->num_varyings; s++) {
            uint8_t mode = info->interp[s];
            for (int c = 0; c < 4; c++) {
                float a;
                if (mode == GM_INTERP_FLAT) {
                    a = pl->a0[s + 1][c];
                } else {
                    a = fmaf(pl->dadx[s + 1][c], rx[l], pl->a0[s + 1][c]);
                    a = fmaf(pl->dady[s + 1][c], ry[l], a);
                    if (mode == GM_INTERP_SMOOTH)
                        a = a * oow;
                }
                w->in[s][c][l] = a;
            }
        }
        if (pr->is_point && pr->point_size > 0.0f) {
            float px = (rx[l] + 0.5f - pr->point_center[0]) / pr->point_size + 0.5f;
            float py = (ry[l] + 0.5f - pr->point_center[1]) / pr->point_size + 0.5f;
            /* GL's default origin is upper-left: t grows downwards in window space */
            bool down_is_raster_plus = rs->flipped;
            if (!down_is_raster_plus) py = 1.0f - py;
            if (!ctx->state.point_sprite_upper_left) py = 1.0f - py;
            w->point_coord[0][l] = px;
            w->point_coord[1][l] = py;
        }
    }

    /* depth clamp to the viewport depth range (llvmpipe clamps before the test) */
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        if (w->present & (1u << l))
            z[l] = clampf(z[l], rs->zmin, rs->zmax);

    uint32_t live = w->live;
    bool early = info->fs_early_fragment_tests ||
                 (!info->fs_writes_depth && !info->fs_may_discard && !info->fs_has_side_effects);
    if (early) {
        live = gm_fragops_depth_stencil(ctx, w, live, z, pr->front);
        if (!live && !info->fs_early_fragment_tests)
            return;   /* no lane survives: the warp is never launched */
    }
    w->live = live;
    memset(w->color, 0, sizeof(w->color));
    memset(w->sample_mask_out, 0, sizeof(w->sample_mask_out));
    w->discard = 0;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        w->depth[l] = z[l];
    ctx->stats.fs_warps++;
    ctx->stats.fs_lanes_live += (uint64_t)__builtin_popcount(live);
    ctx->stats.fs_lanes_helper += (uint64_t)__builtin_popcount(w->present & ~live);
    cur->live = live;
    cur->early = early;
    cur->front = pr->front;
    /* A record for the queue is reserved before the call: once the callback has queued
     * the warp, nothing may fail. */
    if (queue_reserve(dc) != 0) {
        snprintf(ctx->error, sizeof(ctx->error), "out of memory queueing a fragment warp");
        dc->failed = 1;
        return;
    }
    int rc = ctx->fs ? ctx->fs(ctx->fs_user, w) : 0;
    if (rc != 0 && rc != GM_PIPE_QUEUED && rc != GM_PIPE_QUEUED_FULL) {
        dc->failed = 1;
        dc->fsq.n = 0;   /* the callback dropped whatever it had queued */
        return;
    }
    cur->done = rc == 0;
    if (cur->done && dc->fsq.n == 0) {
        finish_warp(dc, cur);   /* ran synchronously and nothing older is pending */
        return;
    }
    queue_push(dc);
    if (rc == GM_PIPE_QUEUED_FULL)
        complete_oldest(dc);
}

void gm_pipe_warp_add_quad(gm_draw_ctx *dc, gm_prim_raster *pr, int qx, int qy, unsigned cov)
{
    gm_pipe_fs_warp *w = dc->warp;
    const gm_raster_state *rs = &dc->rs;
    int q = w->num_quads;
    for (int i = 0; i < 4; i++) {
        int l = q * 4 + i;
        int rxp = qx + (i & 1), ryp = qy + (i >> 1);
        w->x[l] = rxp;
        w->y[l] = rs->flipped ? rs->fb_height - 1 - ryp : ryp;
        if (cov & (1u << i))
            w->live |= 1u << l;
        w->present |= 1u << l;
    }
    w->num_quads = q + 1;
    if (w->num_quads == GM_PIPE_WARP_QUADS)
        gm_pipe_warp_flush(dc, pr);
}

void gm_pipe_warp_flush(gm_draw_ctx *dc, gm_prim_raster *pr)
{
    if (dc->warp->num_quads > 0 && !dc->failed)
        run_warp(dc, pr);
    /* a queued warp was swapped out: this is the next scratch warp */
    gm_pipe_fs_warp *w = dc->warp;
    w->num_quads = 0;
    w->live = 0;
    w->present = 0;
}
