/* A fragment warp's inputs (interpolated varyings, built-ins, subgroup values) written into the
 * executor's registers, and its outputs read back for the pipeline (with the alpha test and
 * alpha-to-coverage): a leaf under the shading and the worker threads that both run fragment
 * warps. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "gm_pipe_internal.h"

static inline void put_f(uint32_t *dst, float f) { memcpy(dst, &f, 4); }

/* llvmpipe's fragment subgroups: its JIT shades a 4x4 block of one primitive as two
 * 8-lane vectors, the 4x2 half-blocks; in each, the left quad's pixels are invocations
 * 0..3 and the right quad's 4..7, quad pixels in the order (x,y),(x+1,y),(x,y+1),(x+1,y+1)
 * as the model's quad lanes are (measured with gl_SubGroupInvocationARB on Mesa 22.3
 * llvmpipe, AVX2). Quads start at even raster x; two quads share a half-block when their
 * origins lie on the same raster row and in the same 4-pixel column. */
static void fs_subgroups(gm_warp *w, const gm_pipe_fs_warp *fw)
{
    uint8_t group[GM_LANES], inv[GM_LANES];
    int nq = fw->num_quads < GM_LANES / 4 ? fw->num_quads : GM_LANES / 4;
    for (int q = 0; q < GM_LANES / 4; q++) {
        int g = q;
        for (int e = 0; e < q && q < nq; e++)
            if (fw->y[4 * e] == fw->y[4 * q] && fw->x[4 * e] >> 2 == fw->x[4 * q] >> 2) {
                g = group[4 * e];
                break;
            }
        for (int i = 0; i < 4; i++) {
            group[4 * q + i] = (uint8_t)g;
            inv[4 * q + i] = (uint8_t)(((fw->x[4 * q] >> 1) & 1) * 4 + i);
        }
    }
    gm_warp_set_subgroups(w, group, inv);
}

/* gl_Layer / gl_ViewportIndex in the FS: the flat hidden varying at slot (the geometry
 * shader's value), or 0 when no stage before writes it. */
static void fs_flat_builtin(gm_warp *w, int var, int slot, const gm_pipe_fs_warp *fw)
{
    if (var < 0)
        return;
    uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, var);
    if (slot >= 0)
        memcpy(v[0], fw->in[slot][0], sizeof v[0]);
    else
        memset(v[0], 0, sizeof v[0]);
}

void gmf_fs_inputs(gmf_draw_ctx *d, gm_warp *w, const gm_pipe_fs_warp *fw)
{
    gmf_prog *p = d->p;
    /* Only present lanes are shaded: in queued per-sample passes the pipeline's scratch warp
     * can carry live bits of lanes outside `present` (stale records, gm_warp.c run_warp);
     * fs_outputs discards them. */
    gm_warp_begin(w, fw->live & fw->present, fw->present & ~fw->live);
    gm_warp_set_quad_dy(w, fw->quad_dy);   /* quad rows' window-y direction (interpolateAtOffset) */
    fs_subgroups(w, fw);
    for (int c = 0; c < p->n_fs_in; c++) {
        const gmf_chunk *ch = &p->fs_in[c];
        if (ch->location < 0 || ch->location >= GM_PIPE_MAX_VARYINGS)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, ch->var);
        for (int k = 0; k < ch->n && ch->comp + k < 4; k++)
            memcpy(v[ch->word + k], fw->in[ch->location][ch->comp + k], sizeof v[0]);
    }
    if (p->fragcoord_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->fragcoord_var);
        memcpy(v, fw->frag_coord, sizeof fw->frag_coord);
    }
    if (p->frontfacing_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->frontfacing_var);
        for (int l = 0; l < GM_LANES; l++)
            v[0][l] = fw->front_facing ? 1u : 0u;
    }
    if (p->pointcoord_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->pointcoord_var);
        memcpy(v, fw->point_coord, sizeof fw->point_coord);
    }
    if (p->fs_clip_slot >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->fs_clip_var);
        for (int k = 0; k < p->fs_clip_n; k++)
            memcpy(v[k], fw->in[p->fs_clip_slot + k / 4][k % 4], sizeof v[0]);
    }
    if (p->fs_cull_slot >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->fs_cull_var);
        for (int k = 0; k < p->fs_cull_n; k++)
            memcpy(v[k], fw->in[p->fs_cull_slot + k / 4][k % 4], sizeof v[0]);
    }
    if (p->primid_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->primid_var);
        if (p->primid_slot >= 0)   /* a GS's gl_PrimitiveID, a hidden flat varying */
            memcpy(v[0], fw->in[p->primid_slot][0], sizeof v[0]);
        else
            for (int l = 0; l < GM_LANES; l++)
                memcpy(&v[0][l], &fw->primitive_id, 4);
    }
    fs_flat_builtin(w, p->fs_layer_var, p->gsx || !p->tes ? p->layer_slot : -1, fw);
    fs_flat_builtin(w, p->fs_vpi_var, p->gsx || !p->tes ? p->vpi_slot : -1, fw);
    /* Sample built-ins: gl_SampleID is 0 outside per-sample passes (sample_id -1);
     * gl_SamplePosition is the sample's offset inside its pixel, the same for all lanes. */
    if (p->sampleid_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->sampleid_var);
        uint32_t id = fw->sample_id > 0 ? (uint32_t)fw->sample_id : 0u;
        for (int l = 0; l < GM_LANES; l++)
            v[0][l] = id;
    }
    if (p->samplepos_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->samplepos_var);
        for (int l = 0; l < GM_LANES; l++) {
            put_f(&v[0][l], fw->sample_pos[0]);
            put_f(&v[1][l], fw->sample_pos[1]);
        }
    }
    if (p->maskin_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->maskin_var);
        memcpy(v[0], fw->sample_mask_in, sizeof v[0]);
    }
    /* gl_SampleMask is undefined where not written: start from all samples on, so a shader
     * that writes it on some paths only leaves coverage alone elsewhere. */
    if (p->maskout_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->maskout_var);
        for (int l = 0; l < GM_LANES; l++)
            v[0][l] = 0xffffffffu;
    }
}

/* FS outputs of a finished warp into the pipeline's warp. */
void gmf_fs_outputs(gmf_draw_ctx *d, gm_warp *w, gm_pipe_fs_warp *fw)
{
    gmf_prog *p = d->p;
    for (int c = 0; c < p->n_fs_out; c++) {
        const gmf_chunk *ch = &p->fs_out[c];
        if (ch->location < 0 || ch->location >= GM_PIPE_MAX_RT)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, ch->var);
        int first = ch->location, last = ch->location;
        if (p->broadcast_color0 && ch->location == 0)
            last = GM_PIPE_MAX_RT - 1;
        for (int rt = first; rt <= last; rt++)
            for (int k = 0; k < ch->n && ch->comp + k < 4; k++)
                memcpy(fw->color[rt].u[ch->comp + k], v[ch->word + k], sizeof v[0]);
    }
    if (p->fragdepth_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->fragdepth_var);
        memcpy(fw->depth, v[0], sizeof fw->depth);
    }
    if (p->maskout_var >= 0) {
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, p->maskout_var);
        memcpy(fw->sample_mask_out, v[0], sizeof fw->sample_mask_out);
    }
    fw->discard |= (gm_warp_killed_mask(w) & fw->live) | (fw->live & ~fw->present);
    gm_pipe_aa_apply(fw, d->r->pipe.info.rt_is_integer);   /* smooth lines/points (gm_aa.c) */
    gmf_ff_alpha_test(d, fw);   /* legacy alpha test (gmf_ffunc.c) */
}
