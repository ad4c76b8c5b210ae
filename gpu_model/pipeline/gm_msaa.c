/* gm_msaa.c - multisample helpers: standard sample positions (llvmpipe exposes 4x with
 * the Direct3D standard pattern), the per-draw multisample raster state (sample offsets,
 * GL_SAMPLE_MASK / GL_SAMPLE_COVERAGE, sample shading), alpha-to-coverage and a
 * box-filter resolve. See DESIGN.md "Multisampling". */
#include "gm_setup.h"

#include <string.h>

int gm_pipe_sample_positions(int samples, float (*pos)[2])
{
    static const float p1[1][2] = {{0.5f, 0.5f}};
    static const float p2[2][2] = {{0.75f, 0.75f}, {0.25f, 0.25f}};
    static const float p4[4][2] = {{0.375f, 0.125f}, {0.875f, 0.375f},
                                   {0.125f, 0.625f}, {0.625f, 0.875f}};
    static const int p8[8][2] = {{9, 5}, {7, 13}, {13, 11}, {5, 3}, {3, 15}, {1, 7}, {11, 1}, {15, 9}};
    switch (samples) {
    case 0: case 1: memcpy(pos, p1, sizeof(p1)); return 1;
    case 2: memcpy(pos, p2, sizeof(p2)); return 2;
    case 4: memcpy(pos, p4, sizeof(p4)); return 4;
    case 8:
        for (int i = 0; i < 8; i++) { pos[i][0] = (float)p8[i][0] / 16.0f; pos[i][1] = (float)p8[i][1] / 16.0f; }
        return 8;
    default:
        return -1;
    }
}

int gm_pipe_resolve(const gm_surface *ms, gm_surface *dst)
{
    if (!ms || !dst || !ms->data || !dst->data || dst->samples != 1 ||
        ms->width != dst->width || ms->height != dst->height)
        return -1;
    const gm_format_info *fi = gm_format_get(ms->format);
    if (fi->block || fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_DEPTH_STENCIL)
        return -1;
    bool integer = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    for (int z = 0; z < ms->depth && z < dst->depth; z++)
        for (int y = 0; y < ms->height; y++)
            for (int x = 0; x < ms->width; x++) {
                const uint8_t *p = gm_surface_texel(ms, x, y, z);
                float acc[4] = {0, 0, 0, 0}, t[4];
                if (integer) {   /* integer formats: sample 0 (GL requires no resolve) */
                    gm_format_unpack_rgba(ms->format, p, t);
                    gm_format_pack_rgba(dst->format, t, gm_surface_texel(dst, x, y, z));
                    continue;
                }
                for (int s = 0; s < ms->samples; s++) {
                    gm_format_unpack_rgba(ms->format, p + (size_t)s * fi->bytes, t);
                    for (int c = 0; c < 4; c++) acc[c] += t[c];
                }
                for (int c = 0; c < 4; c++) acc[c] /= (float)ms->samples;
                gm_format_pack_rgba_rt(dst->format, acc, gm_surface_texel(dst, x, y, z));
            }
    return 0;
}

void gm_msaa_setup(const gm_pipe_context *ctx, gm_raster_state *rs)
{
    const gm_pipe_state *st = &ctx->state;
    const gm_pipe_framebuffer *fb = &ctx->fb;
    const gm_surface *any = NULL;
    for (int i = 0; i < GM_PIPE_MAX_RT && !any; i++)
        any = fb->color[i];
    if (!any) any = fb->depth;
    if (!any) any = fb->stencil;
    int n = any && any->samples > 1 ? any->samples : 1;
    float pos[GM_PIPE_MAX_SAMPLES][2];
    if (n > GM_PIPE_MAX_SAMPLES || gm_pipe_sample_positions(n, pos) != n) {
        n = 1;
        gm_pipe_sample_positions(1, pos);
    }
    rs->samples = n;
    rs->all_samples = (n >= 32) ? ~0u : (1u << n) - 1u;
    /* Mesa disables multisample rasterization with GL_MULTISAMPLE off: pixel centres,
     * every sample of a covered pixel written. */
    rs->ms = n > 1 && st->multisample;
    for (int s = 0; s < n; s++) {
        /* the positions are in raster space (llvmpipe uses one table for both
         * orientations); all standard positions are multiples of 1/16 */
        rs->sfx[s] = (int32_t)(pos[s][0] * (float)GM_FIXED_ONE);
        rs->sfy[s] = (int32_t)(pos[s][1] * (float)GM_FIXED_ONE);
        rs->spx[s] = pos[s][0] - 0.5f;
        rs->spy[s] = pos[s][1] - 0.5f;
    }
    uint32_t m = rs->all_samples;
    if (rs->ms) {
        /* st_atom_msaa.c: the coverage value selects the first nr samples */
        if (st->sample_coverage) {
            unsigned nr = (unsigned)(st->sample_coverage_value * (float)n);
            uint32_t cm = nr >= 32 ? ~0u : (1u << nr) - 1u;
            if (st->sample_coverage_invert)
                cm = ~cm;
            m &= cm;
        }
        m &= st->sample_mask;
    }
    rs->state_mask = m;
    const gm_pipe_shader_info *info = &ctx->info;
    bool sample_loc = false;
    for (int i = 0; i < info->num_varyings; i++)
        if (info->loc[i] == GM_LOC_SAMPLE)
            sample_loc = true;
    rs->inputs_at_sample = rs->ms && st->sample_shading && st->min_sample_shading * (float)n > 1.0f;
    rs->per_sample = rs->ms && (info->fs_per_sample || sample_loc || rs->inputs_at_sample);
}

uint32_t gm_msaa_alpha_to_coverage(float alpha, int samples)
{
    /* sample s is kept when alpha > s / samples (lp_build_alpha_to_coverage) */
    uint32_t m = 0;
    float step = 1.0f / (float)samples;
    for (int s = 0; s < samples; s++)
        if (alpha > step * (float)s)
            m |= 1u << s;
    return m;
}
