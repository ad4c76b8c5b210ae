/* gm_texture_aniso.h - llvmpipe's anisotropic filter (Mesa 22.3 gallivm,
 * lp_build_sample_aniso and lp_build_pmin), for the model's texture units.
 *
 * llvmpipe filters a sampler anisotropically when Mesa's state tracker gives it a
 * max_anisotropy above 1 ((unsigned) GL_TEXTURE_MAX_ANISOTROPY, so 2.0 and up). Such a
 * sampler bypasses every other filter path (no 8-bit AoS filtering, no min/mag switch,
 * no mip interpolation):
 *
 *  - LOD: from the 2x2 quad's coordinate differences (explicit gradients are ignored),
 *    scaled by the view's base size: px2 = |d(s,t)/dx|^2, py2 = |d(s,t)/dy|^2 in texels,
 *    lod = 0.5 * fast_log2(min(px2, py2)) (the minor axis; the clamp by max_aniso^2
 *    compares pmin2 > pmin2 * max_aniso^2 and so never applies), then bias and min/max
 *    LOD as usual; the level is trunc(lod) + base level, clamped to the view's levels.
 *  - Filter: Heckbert's elliptical weighted average over that one level. The ellipse
 *    A u^2 + B u v + C v^2 = F of the derivatives (scaled to the level) is scanned
 *    texel by texel over its bounding box (floor/ceil of centre -/+ half box), q
 *    updated incrementally (q += dq, dq += 2A), each texel inside (trunc(q) <= 1023)
 *    weighted by exp(-2 q / 1023) (a 1024-entry table of six-decimal values) and
 *    fetched with the nearest filter at (u / level width, v / level height), llvmpipe's
 *    wrap rules (npot REPEAT: fraction, scale, truncate); the sum of weighted texels is
 *    divided by the sum of weights. A lane whose weights sum to 0 gets the bilinear
 *    sample of that level instead.
 *
 * Internal to gpu_model/pipeline (gm_texture.c calls it per lane). */
#ifndef GM_TEXTURE_ANISO_H
#define GM_TEXTURE_ANISO_H

#include "gm_pipeline.h"
#include "gm_sampler_iface.h"
#include "gm_texture_lp.h"

#include <stdbool.h>
#include <stdint.h>

/* llvmpipe's sampler state has anisotropy on (state tracker: (unsigned) max > 1). */
bool gm_tex_aniso_on(const gm_tex_sampler *smp);

/* The targets the model filters anisotropically as llvmpipe does (2D, 2D array, 3D: the 2D
 * filter in s and t, probes at the nearest layer or r). llvmpipe crashes compiling a 1D
 * anisotropic sampler, and runs the 2D filter on a cube map's selected face with its own
 * derivative transform (not modelled): the model reports those. */
bool gm_tex_aniso_target_modelled(gm_tex_target t);

/* Largest number of texels one lane's ellipse may cover before the model gives up on it
 * (llvmpipe loops over any box; a degenerate one would stall the model). */
#define GM_TEX_ANISO_MAX_PROBES (1 << 16)

/* Weight of table entry i (0..1023) as in Mesa's table: expf(-2 * i / 1023) rounded to six
 * decimals. */
float gm_tex_aniso_weight(int i);

/* The texel of lane l of an implicit-LOD sample request through llvmpipe's anisotropic
 * filter. `in` holds the sampler's LOD state as lod_in_init fills it; coord the lane's
 * coordinates (layer last for arrays). Returns false when the ellipse is beyond
 * GM_TEX_ANISO_MAX_PROBES (out is then the level's bilinear sample). */
/* The texel reads the filter needs, given by gm_texture.c (which calls gm_tex_aniso_lane):
 * passed in rather than called by name so this file stays a leaf under gm_texture.c instead of
 * the two calling each other. level_sample: one level's nearest or bilinear sample through
 * llvmpipe's float ("SoA") filter path, swizzled; fetch: gm_tex_fetch. */
typedef struct gm_tex_aniso_texels {
    void (*level_sample)(const gm_tex_image *img, const gm_tex_sampler *smp, const float coord[4],
                         int level, bool linear, float ref, bool shadow, const int32_t *offset,
                         float out[4]);
    void (*fetch)(const gm_tex_image *img, const int32_t coord[4], int level_or_sample,
                  float out[4]);
} gm_tex_aniso_texels;

bool gm_tex_aniso_lane(const gm_tex_aniso_texels *tx, const gm_tex_image *img,
                       const gm_tex_sampler *smp, const gm_lp_lod_in *in,
                       const struct gm_sample_request *req, int l, const float coord[4],
                       const int32_t *offset, float ref, bool shadow, float out[4]);

#endif
