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

/* MSAA coverage after the shader: alpha-to-coverage (render target 0's alpha) and
 * gl_SampleMask narrow each lane's samples (llvmpipe applies both before the late depth
 * test). Returns the lanes with samples left. */
static uint32_t ms_shader_coverage(gm_draw_ctx *dc, gm_fs_pending *p, uint32_t live)
{
    gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_fs_warp *w = &p->w;
    bool a2c = dc->rs.ms && ctx->state.alpha_to_coverage && ctx->fb.color[0] &&
               !(ctx->info.rt_is_integer & 1u);
    bool smo = dc->rs.ms && ctx->info.fs_writes_sample_mask;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(live & (1u << l)))
            continue;
        uint32_t m = p->smask[l];
        if (a2c)
            m &= gm_msaa_alpha_to_coverage(w->color[0].f[3][l], dc->rs.samples);
        if (smo)
            m &= w->sample_mask_out[l];
        p->smask[l] = m;
        if (!m)
            live &= ~(1u << l);
    }
    return live;
}

/* After the shader: discard, late depth/stencil (or none after the early test), colour. */
static void finish_warp(gm_draw_ctx *dc, gm_fs_pending *p)
{
    gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_raster_state *rs = &dc->rs;
    const gm_pipe_fs_warp *w = &p->w;
    uint32_t live = p->live;
    int wl = gm_watch_lane(ctx, w, live);
    /* quads whose shaded (live) lanes were all discarded */
    for (int q = 0; q < GM_PIPE_WARP_QUADS; q++) {
        uint32_t qm = 0xfu << (4 * q);
        if ((live & qm) && !(live & ~w->discard & qm))
            ctx->stats.quads_killed++;
    }
    live &= ~w->discard;
    if (p->ms) {
        live = ms_shader_coverage(dc, p, live);
        if (wl >= 0)
            gm_watch_shaded(ctx, w, wl, (live >> wl) & 1u ? p->smask[wl] : 0u, w->depth[wl]);
        if (!p->early) {
            if (info->fs_writes_depth)
                for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
                    for (int s = 0; s < rs->samples; s++)
                        p->zs[s][l] = clampf(w->depth[l], rs->zmin, rs->zmax);
            live = gm_fragops_depth_stencil_ms(ctx, w, live, p->smask, p->zs, p->front);
        }
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            if (live & (1u << l))
                ctx->stats.fragments_passed += (uint64_t)__builtin_popcount(p->smask[l]);
        gm_fragops_color_ms(ctx, w, live, p->smask, rs->ms && ctx->state.alpha_to_one);
        return;
    }
    if (wl >= 0)
        gm_watch_shaded(ctx, w, wl, (live >> wl) & 1u,
                        info->fs_writes_depth ? clampf(w->depth[wl], rs->zmin, rs->zmax) : p->z[wl]);
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

/* Interpolation offset (raster space, pixels from the centre) of a lane (lp_bld_interp.c):
 * in a per-sample pass the shaded sample for `sample` inputs (every input when
 * GL_SAMPLE_SHADING forced the passes); for centroid inputs of partially covered pixels the
 * first covered sample; else the centre. */
static void lane_offset(const gm_raster_state *rs, int sample, uint32_t cov, uint8_t loc,
                        float *ox, float *oy)
{
    *ox = *oy = 0.0f;
    if (sample >= 0 && (rs->inputs_at_sample || loc == GM_LOC_SAMPLE)) {
        *ox = rs->spx[sample];
        *oy = rs->spy[sample];
    } else if (loc == GM_LOC_CENTROID && rs->ms && cov && (cov & rs->all_samples) != rs->all_samples) {
        int s = __builtin_ctz(cov);
        *ox = rs->spx[s];
        *oy = rs->spy[s];
    }
}

/* gl_PointCoord of lane l of a point sprite. */
static inline void point_coord(const gm_pipe_context *ctx, const gm_prim_raster *pr,
                               const gm_raster_state *rs, gm_pipe_fs_warp *w, const float *rx,
                               const float *ry, int l)
{
    if (!pr->is_point || !(pr->point_size > 0.0f))
        return;
    float px = (rx[l] + 0.5f - pr->point_center[0]) / pr->point_size + 0.5f;
    float py = (ry[l] + 0.5f - pr->point_center[1]) / pr->point_size + 0.5f;
    /* GL's default origin is upper-left: t grows downwards in window space */
    bool down_is_raster_plus = rs->flipped;
    if (!down_is_raster_plus) py = 1.0f - py;
    if (!ctx->state.point_sprite_upper_left) py = 1.0f - py;
    w->point_coord[0][l] = px;
    w->point_coord[1][l] = py;
}

/* One component of an input at the pixel centres of lanes `present`: the arithmetic of
 * interpolate_inputs' general loop. A full warp takes the loop without lane tests, which
 * the compiler vectorizes (fmaf stays exactly rounded per lane). */
_Static_assert(GM_PIPE_WARP_LANES == 32, "a full warp is UINT32_MAX below");
static inline __attribute__((always_inline)) void centre_component(
    float *restrict dst, uint8_t mode, float a0, float dx, float dy, const float *restrict rx,
    const float *restrict ry, const float *restrict oow, uint32_t present)
{
    if (mode == GM_INTERP_FLAT) {
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            if (present & (1u << l))
                dst[l] = a0;
    } else if (present == UINT32_MAX && mode == GM_INTERP_SMOOTH) {
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            dst[l] = fmaf(dy, ry[l], fmaf(dx, rx[l], a0)) * oow[l];
    } else if (present == UINT32_MAX) {
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            dst[l] = fmaf(dy, ry[l], fmaf(dx, rx[l], a0));
    } else {
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
            if (!(present & (1u << l)))
                continue;
            float a = fmaf(dy, ry[l], fmaf(dx, rx[l], a0));
            dst[l] = mode == GM_INTERP_SMOOTH ? a * oow[l] : a;
        }
    }
}

/* Every input at the pixel centre (no MSAA rasterization, no per-sample pass: lane_offset
 * is 0 for every lane and input), input by input across the lanes instead of lane by lane. */
static inline __attribute__((always_inline)) void interpolate_at_centres(
    gm_pipe_fs_warp *w, const gm_pipe_shader_info *info, const gm_pipe_planes *pl,
    const float *rx, const float *ry)
{
    uint32_t present = w->present;
    float oow[GM_PIPE_WARP_LANES];
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        if (present & (1u << l))
            oow[l] = 1.0f / fmaf(pl->dady[0][3], ry[l], fmaf(pl->dadx[0][3], rx[l], pl->a0[0][3]));
    for (int s = 0; s < info->num_varyings; s++)
        for (int c = 0; c < 4; c++)
            centre_component(w->in[s][c], info->interp[s], pl->a0[s + 1][c], pl->dadx[s + 1][c],
                             pl->dady[s + 1][c], rx, ry, oow, present);
}

/* Interpolated inputs (and gl_PointCoord) of the present lanes. cov[l] = samples alive
 * for centroid inputs: llvmpipe picks the centroid from the mask after the early
 * depth/stencil test. */
/* Built twice, picked once at load time (ifunc): with FMA the fmaf() calls below become
 * one instruction instead of a libm call through the PLT each (about 3% of a frame).
 * fmaf is exactly rounded either way, and nothing here is an a * b + c that the compiler
 * could contract, so both versions give the same bits. */
#ifndef __SANITIZE_THREAD__   /* an ifunc resolver crashes at load under ThreadSanitizer */
__attribute__((target_clones("fma", "default")))
#endif
static void interpolate_inputs(gm_draw_ctx *dc, gm_prim_raster *pr, int sample,
                               const float *rx, const float *ry, const uint32_t *cov)
{
    gm_pipe_context *ctx = dc->ctx;
    gm_pipe_fs_warp *w = dc->warp;
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_pipe_planes *pl = &pr->planes;
    const gm_raster_state *rs = &dc->rs;
    if (sample < 0 && !rs->ms) {
        interpolate_at_centres(w, info, pl, rx, ry);
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            if (w->present & (1u << l))
                point_coord(ctx, pr, rs, w, rx, ry, l);
        return;
    }
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->present & (1u << l)))
            continue;
        float ww = fmaf(pl->dady[0][3], ry[l], fmaf(pl->dadx[0][3], rx[l], pl->a0[0][3]));
        float oow = 1.0f / ww;
        float ix = rx[l], iy = ry[l], ioow = oow;
        bool moved = false;
        for (int s = 0; s < info->num_varyings; s++) {
            uint8_t mode = info->interp[s];
            float ox, oy;
            lane_offset(rs, sample, sample >= 0 ? dc->pass_cov[l] : cov[l], info->loc[s],
                        &ox, &oy);
            if (ox != 0.0f || oy != 0.0f) {
                ix = rx[l] + ox;
                iy = ry[l] + oy;
                float wv = fmaf(pl->dady[0][3], iy, fmaf(pl->dadx[0][3], ix, pl->a0[0][3]));
                ioow = 1.0f / wv;
                moved = true;
            } else if (moved) {
                ix = rx[l]; iy = ry[l]; ioow = oow;
                moved = false;
            }
            for (int c = 0; c < 4; c++) {
                float a;
                if (mode == GM_INTERP_FLAT) {
                    a = pl->a0[s + 1][c];
                } else {
                    a = fmaf(pl->dadx[s + 1][c], ix, pl->a0[s + 1][c]);
                    a = fmaf(pl->dady[s + 1][c], iy, a);
                    if (mode == GM_INTERP_SMOOTH)
                        a = a * ioow;
                }
                w->in[s][c][l] = a;
            }
        }
        point_coord(ctx, pr, rs, w, rx, ry, l);
    }
}

/* Depth (plus the primitive's offset) and w of the present lanes at raster position
 * (rx, ry). Built twice like interpolate_inputs: with FMA each fmaf is one instruction
 * instead of a libm call through the PLT, with the same exactly rounded bits. */
#ifndef __SANITIZE_THREAD__   /* an ifunc resolver crashes at load under ThreadSanitizer */
__attribute__((target_clones("fma", "default")))
#endif
static void eval_zw(const gm_pipe_planes *pl, uint32_t present, const float *rx,
                    const float *ry, float z_offset, float *z, float *ww)
{
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(present & (1u << l)))
            continue;
        float zz = fmaf(pl->dady[0][2], ry[l], fmaf(pl->dadx[0][2], rx[l], pl->a0[0][2]));
        z[l] = zz + z_offset;
        ww[l] = fmaf(pl->dady[0][3], ry[l], fmaf(pl->dadx[0][3], rx[l], pl->a0[0][3]));
    }
}

/* eval_zw for every lane (the lanes outside `present` computed from stale positions and
 * dropped by the caller): no lane test, so the loop vectorizes. */
#ifndef __SANITIZE_THREAD__   /* an ifunc resolver crashes at load under ThreadSanitizer */
__attribute__((target_clones("fma", "default")))
#endif
static void eval_zw_all(const gm_pipe_planes *pl, const float *restrict rx,
                        const float *restrict ry, float z_offset, float *restrict z,
                        float *restrict ww)
{
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        float zz = fmaf(pl->dady[0][2], ry[l], fmaf(pl->dadx[0][2], rx[l], pl->a0[0][2]));
        z[l] = zz + z_offset;
        ww[l] = fmaf(pl->dady[0][3], ry[l], fmaf(pl->dadx[0][3], rx[l], pl->a0[0][3]));
    }
}

/* a where the lane mask m is all ones, else b (bit select: vectorizes, keeps NaN payloads) */
static inline float pick_f(uint32_t m, float a, float b)
{
    uint32_t ua, ub;
    memcpy(&ua, &a, 4);
    memcpy(&ub, &b, 4);
    uint32_t r = (ua & m) | (ub & ~m);
    float f;
    memcpy(&f, &r, 4);
    return f;
}

/* shade_pass's per-lane set-up without per-sample fragment operations (lanes_general below
 * with them): raster position,
 * gl_FragCoord, gl_SampleMaskIn and the clamped depth of the present lanes, every lane
 * computed and the present ones kept by a mask (what the lane-by-lane loops wrote, and the
 * other lanes left as they were), so the loops vectorize. */
static void centre_lanes(const gm_raster_state *rs, const gm_pipe_planes *pl, float z_offset,
                         gm_pipe_fs_warp *w, float *restrict rx, float *restrict ry,
                         float *restrict z)
{
    uint32_t present = w->present, live = w->live;
    float zu[GM_PIPE_WARP_LANES], ww[GM_PIPE_WARP_LANES];
    int flip_base = rs->flipped ? rs->fb_height - 1 : 0, flip_sign = rs->flipped ? -1 : 1;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        /* raster coordinates (pixel index as float: llvmpipe's pixoff) */
        rx[l] = (float)w->x[l];
        ry[l] = (float)(flip_base + flip_sign * w->y[l]);
    }
    eval_zw_all(pl, rx, ry, z_offset, zu, ww);
    float fbh = (float)rs->fb_height, zmin = rs->zmin, zmax = rs->zmax;
    bool flipped = rs->flipped;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        uint32_t m = 0u - ((present >> l) & 1u);
        float fy = flipped ? fbh - (ry[l] + 0.5f) : ry[l] + 0.5f;
        w->frag_coord[0][l] = pick_f(m, rx[l] + 0.5f, w->frag_coord[0][l]);
        w->frag_coord[1][l] = pick_f(m, fy, w->frag_coord[1][l]);
        w->frag_coord[2][l] = pick_f(m, zu[l], w->frag_coord[2][l]);
        w->frag_coord[3][l] = pick_f(m, ww[l], w->frag_coord[3][l]);
        w->sample_mask_in[l] = (((live >> l) & 1u) & m) | (w->sample_mask_in[l] & ~m);
        /* depth clamp to the viewport depth range (llvmpipe clamps before the test) */
        z[l] = pick_f(m, clampf(zu[l], zmin, zmax), z[l]);
    }
}

/* Tests set this to 1 to take lanes_general for every warp (centre_lanes is checked
 * against it, test_tri_order.c). */
int gm_pipe_lanes_general = 0;

/* centre_lanes lane by lane, with per-sample fragment operations (ms: each sample's depth
 * too) or without them. */
static void lanes_general(const gm_raster_state *rs, const gm_pipe_planes *pl, float z_offset,
                          bool ms, gm_pipe_fs_warp *w, gm_fs_pending *cur, float *rx,
                          float *ry, float *z)
{
    float ww[GM_PIPE_WARP_LANES];
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->present & (1u << l)))
            continue;
        /* raster coordinates (pixel index as float: llvmpipe's pixoff) */
        int rpy = rs->flipped ? rs->fb_height - 1 - w->y[l] : w->y[l];
        rx[l] = (float)w->x[l];
        ry[l] = (float)rpy;
    }
    eval_zw(pl, w->present, rx, ry, z_offset, z, ww);
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(w->present & (1u << l)))
            continue;
        w->frag_coord[0][l] = rx[l] + 0.5f;
        w->frag_coord[1][l] = rs->flipped ? (float)rs->fb_height - (ry[l] + 0.5f) : ry[l] + 0.5f;
        w->frag_coord[2][l] = z[l];
        w->frag_coord[3][l] = ww[l];
        if (!ms)
            w->sample_mask_in[l] = (w->live >> l) & 1u;
        for (int smp = 0; ms && smp < rs->samples; smp++) {
            /* per-sample depth at the sample position (the centre without MSAA
             * rasterization: every sample of the pixel gets the centre's depth) */
            float sx = rx[l] + (rs->ms ? rs->spx[smp] : 0.0f);
            float sy = ry[l] + (rs->ms ? rs->spy[smp] : 0.0f);
            float zsv = fmaf(pl->dady[0][2], sy, fmaf(pl->dadx[0][2], sx, pl->a0[0][2]));
            cur->zs[smp][l] = clampf(zsv + z_offset, rs->zmin, rs->zmax);
        }
    }
    /* depth clamp to the viewport depth range (llvmpipe clamps before the test) */
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        if (w->present & (1u << l))
            z[l] = clampf(z[l], rs->zmin, rs->zmax);
}

/* Builds the inputs of the current warp and runs its shader: once per pixel
 * (sample = -1), or for one sample of a per-sample shading pass. */
static void shade_pass(gm_draw_ctx *dc, gm_prim_raster *pr, int sample)
{
    gm_pipe_context *ctx = dc->ctx;
    gm_pipe_fs_warp *w = dc->warp;
    gm_fs_pending *cur = pending_of(w);
    const gm_pipe_shader_info *info = &ctx->info;
    const gm_pipe_planes *pl = &pr->planes;
    const gm_raster_state *rs = &dc->rs;
    float *z = cur->z;
    float rx[GM_PIPE_WARP_LANES], ry[GM_PIPE_WARP_LANES];
    bool ms = rs->samples > 1;   /* per-sample fragment operations */

    w->quad_dy = rs->flipped ? -1 : 1;
    w->sample_id = sample;
    w->sample_pos[0] = w->sample_pos[1] = 0.5f;
    if (sample >= 0) {
        w->sample_pos[0] = rs->spx[sample] + 0.5f;
        w->sample_pos[1] = rs->flipped ? 0.5f - rs->spy[sample] : rs->spy[sample] + 0.5f;
    }
    cur->ms = ms;
    cur->sample = sample;
    w->front_facing = pr->front;
    w->point = pr->is_point && pr->point_size > 0.0f;
    w->primitive_id = dc->primitive_id;
    w->aa = dc->aa;
    w->aa_slot = dc->aa_slot;
    /* The shader may run after this primitive is done: it reads the record's copy. */
    cur->planes = *pl;
    w->planes = &cur->planes;
    if (!ms && !gm_pipe_lanes_general)
        centre_lanes(rs, pl, pr->z_offset, w, rx, ry, z);
    else
        lanes_general(rs, pl, pr->z_offset, ms, w, cur, rx, ry, z);

    uint32_t live = w->live;
    bool early = info->fs_early_fragment_tests ||
                 (!info->fs_writes_depth && !info->fs_may_discard && !info->fs_has_side_effects &&
                  !(rs->ms && (info->fs_writes_sample_mask || ctx->state.alpha_to_coverage)));
    if (ms)
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            cur->smask[l] = (live >> l) & 1u ? w->sample_mask_in[l] : 0u;
    int wl = gm_watch_lane(ctx, w, live);
    if (wl >= 0)
        gm_watch_fragment(ctx, w, wl, early, sample, &dc->prim);
    if (early) {
        live = ms ? gm_fragops_depth_stencil_ms(ctx, w, live, cur->smask, cur->zs, pr->front)
                  : gm_fragops_depth_stencil(ctx, w, live, z, pr->front);
        if (!live && !info->fs_early_fragment_tests)
            return;   /* no lane survives: the warp is never launched */
    }
    w->live = live;
    interpolate_inputs(dc, pr, sample, rx, ry,
                       ms && early ? cur->smask : w->sample_mask_in);
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

static void run_warp(gm_draw_ctx *dc, gm_prim_raster *pr)
{
    if (!dc->rs.per_sample) {
        shade_pass(dc, pr, -1);
        return;
    }
    /* Sample shading: one pass per sample over the same quads, the lanes covering that
     * sample live (the others are helpers). The scratch warp changes when a pass is
     * queued, so the quads are kept here. */
    gm_pipe_fs_warp *w0 = dc->warp;
    int nq = w0->num_quads;
    uint32_t present = w0->present, cov[GM_PIPE_WARP_LANES];
    int32_t xs[GM_PIPE_WARP_LANES], ys[GM_PIPE_WARP_LANES];
    memcpy(cov, w0->sample_mask_in, sizeof(cov));
    memcpy(xs, w0->x, sizeof(xs));
    memcpy(ys, w0->y, sizeof(ys));
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(present & (1u << l)))
            cov[l] = 0; /* stale from an earlier warp in the scratch warp */
        dc->pass_cov[l] = cov[l];
    }
    for (int s = 0; s < dc->rs.samples && !dc->failed; s++) {
        uint32_t live = 0;
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            if (cov[l] & (1u << s))
                live |= 1u << l;
        if (!live)
            continue;
        gm_pipe_fs_warp *w = dc->warp;
        w->num_quads = nq;
        w->present = present;
        w->live = live;
        memcpy(w->x, xs, sizeof(xs));
        memcpy(w->y, ys, sizeof(ys));
        for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
            w->sample_mask_in[l] = cov[l] & (1u << s);
        shade_pass(dc, pr, s);
    }
}

void gm_pipe_warp_add_quad(gm_draw_ctx *dc, gm_prim_raster *pr, int qx, int qy,
                           const uint32_t smask[4])
{
    gm_pipe_fs_warp *w = dc->warp;
    const gm_raster_state *rs = &dc->rs;
    /* Subgroups: llvmpipe's subgroup is a 4x2 pixel block, a left quad (raster x % 4 == 0)
     * and the right one that follows it in this row-by-row order; a left quad never takes a
     * warp's last slot, so both are in one warp and subgroup ops see the whole block. */
    if (w->num_quads == GM_PIPE_WARP_QUADS - 1 && dc->ctx->info.fs_uses_subgroups && !(qx & 2))
        gm_pipe_warp_flush(dc, pr);
    w = dc->warp;
    int q = w->num_quads;
    for (int i = 0; i < 4; i++) {
        int l = q * 4 + i;
        int rxp = qx + (i & 1), ryp = qy + (i >> 1);
        w->x[l] = rxp;
        w->y[l] = rs->flipped ? rs->fb_height - 1 - ryp : ryp;
        w->sample_mask_in[l] = smask[i];
        if (smask[i])
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
