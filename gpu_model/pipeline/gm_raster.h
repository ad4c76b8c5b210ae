/* gm_raster.h - llvmpipe-exact fixed-point coverage for triangles (internal).
 *
 * Vertices are in raster space (llvmpipe's framebuffer space: y = row index of the
 * rasterizer, which is window y for FBOs and height - window y for window-system
 * framebuffers).  Positions are snapped to 1/256 pixel after subtracting the pixel
 * centre offset (0.5); pixel (px, py) is covered when every edge function evaluated
 * at (px*256, py*256) is > 0 (see lp_setup_tri.c / lp_rast_tri.c). */
#ifndef GM_RASTER_H
#define GM_RASTER_H

#include <stdbool.h>
#include <stdint.h>

#define GM_FIXED_ORDER 8
#define GM_FIXED_ONE (1 << GM_FIXED_ORDER)

typedef struct gm_tri_edges {
    int64_t c[3];          /* edge constants incl. fill-rule adjustment */
    int64_t dcdx[3], dcdy[3];   /* already scaled by GM_FIXED_ONE */
    int minx, miny, maxx, maxy; /* inclusive pixel bounding box (not clipped) */
} gm_tri_edges;

/* Snap one coordinate like llvmpipe (cvtps2dq of (v - offset) * 256, nearest even). */
int32_t gm_rast_snap(float v, float pixel_offset);

/* Signed fixed-point area of a snapped triangle: > 0 is llvmpipe's "ccw". */
int64_t gm_rast_area(const int32_t fx[3], const int32_t fy[3]);

/* Edge setup for a triangle with positive area (vertices already in llvmpipe order). */
void gm_rast_tri_edges(const int32_t fx[3], const int32_t fy[3], bool bottom_edge_rule,
                       gm_tri_edges *e);

static inline bool gm_rast_tri_inside(const gm_tri_edges *e, int px, int py)
{
    for (int i = 0; i < 3; i++) {
        int64_t v = e->c[i] - e->dcdx[i] * px + e->dcdy[i] * py;
        if (v <= 0)
            return false;
    }
    return true;
}

/* Coverage of a sample at offset (ox, oy) (1/256 pixel, raster space) from the pixel's
 * corner, for vertices snapped without the pixel-centre offset (multisampling). */
static inline bool gm_rast_tri_inside_at(const gm_tri_edges *e, int px, int py,
                                         int32_t ox, int32_t oy)
{
    for (int i = 0; i < 3; i++) {
        int64_t v = e->c[i] - e->dcdx[i] * px + e->dcdy[i] * py -
                    (e->dcdx[i] / GM_FIXED_ONE) * ox + (e->dcdy[i] / GM_FIXED_ONE) * oy;
        if (v <= 0)
            return false;
    }
    return true;
}

#endif
