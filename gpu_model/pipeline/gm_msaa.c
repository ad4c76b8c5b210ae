/* gm_msaa.c - multisample helpers: standard sample positions (llvmpipe exposes 4x with
 * the Direct3D standard pattern) and a box-filter resolve. Rasterization itself is
 * single-sample (see DESIGN.md). */
#include "gm_pipeline.h"

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
                gm_format_pack_rgba(dst->format, acc, gm_surface_texel(dst, x, y, z));
            }
    return 0;
}
