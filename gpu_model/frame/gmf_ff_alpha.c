/* The fixed-function alpha test of a fragment warp (glAlphaFunc): a leaf under the fragment
 * outputs (gmf_fs_io.c) and the fixed-function state (gmf_ffunc.c) that sets its function and
 * reference. */
#include <math.h>
#include <stdint.h>

#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "gm_pipe_internal.h"   /* gm_compare_func: floats compare exactly as doubles */

/* x in [0, 1] to 8 bits, rounded to nearest even as llvmpipe's float-to-unorm8 conversion. */
static float unorm8(float x)
{
    x = x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;   /* NaN -> 0 */
    return rintf(x * 255.0f);
}

void gmf_ff_alpha_test(const gmf_draw_ctx *d, gm_pipe_fs_warp *fw)
{
    if (!d->alpha_test)
        return;
    float ref = d->alpha_unorm8 ? unorm8(d->alpha_ref) : d->alpha_ref;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(fw->live & (1u << l)))
            continue;
        float a = fw->color[0].f[3][l];
        if (d->alpha_unorm8)
            a = unorm8(a);
        if (!gm_compare_func(d->alpha_func, a, ref))
            fw->discard |= 1u << l;
    }
}
