/* gm_raster.c - llvmpipe's fixed-point triangle setup (lp_setup_tri.c rules). */
#include "gm_raster.h"

#include <math.h>

int32_t gm_rast_snap(float v, float pixel_offset)
{
    float s = (v - pixel_offset) * (float)GM_FIXED_ONE;
    /* cvtps2dq: round to nearest even, out of range / NaN -> INT32_MIN */
    if (!(s >= -2147483648.0f && s < 2147483648.0f))
        return INT32_MIN;
    return (int32_t)lrintf(s);
}

int64_t gm_rast_area(const int32_t fx[3], const int32_t fy[3])
{
    int64_t dx01 = (int64_t)fx[0] - fx[1], dy01 = (int64_t)fy[0] - fy[1];
    int64_t dx20 = (int64_t)fx[2] - fx[0], dy20 = (int64_t)fy[2] - fy[0];
    return dx01 * dy20 - dx20 * dy01;
}

void gm_rast_tri_edges(const int32_t fx[3], const int32_t fy[3], bool bottom_edge_rule,
                       gm_tri_edges *e)
{
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        int64_t dcdx = (int64_t)fy[i] - fy[j];
        int64_t dcdy = (int64_t)fx[i] - fx[j];
        int64_t c = dcdx * fx[i] - dcdy * fy[i];
        /* Fill convention (SSE path of lp_setup_tri.c): left edges always, and
         * horizontal edges on the top (or bottom) side. */
        if (dcdx < 0)
            c++;
        else if (dcdx == 0) {
            if (!bottom_edge_rule ? dcdy >= 0 : dcdy < 0)
                c++;
        }
        e->c[i] = c;
        e->dcdx[i] = dcdx * GM_FIXED_ONE;
        e->dcdy[i] = dcdy * GM_FIXED_ONE;
    }
    int32_t minx = fx[0], maxx = fx[0], miny = fy[0], maxy = fy[0];
    for (int i = 1; i < 3; i++) {
        if (fx[i] < minx) minx = fx[i];
        if (fx[i] > maxx) maxx = fx[i];
        if (fy[i] < miny) miny = fy[i];
        if (fy[i] > maxy) maxy = fy[i];
    }
    int adj = bottom_edge_rule ? 1 : 0;
    /* Arithmetic shifts round toward -inf like llvmpipe's. */
    e->minx = minx >> GM_FIXED_ORDER;
    e->maxx = (maxx - 1) >> GM_FIXED_ORDER;
    e->miny = (miny + adj) >> GM_FIXED_ORDER;
    e->maxy = (maxy - 1 + adj) >> GM_FIXED_ORDER;
}
