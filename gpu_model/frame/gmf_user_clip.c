/* User clip planes (glClipPlane + GL_CLIP_PLANEi) for vertex stages that write no
 * gl_ClipDistance, as llvmpipe's draw module clips them: the distance to plane i is
 * dot(v, plane i), v the shader's gl_ClipVertex, else gl_Position. Mesa's state tracker
 * (st_update_clip) gives the driver the planes in eye coordinates (what glClipPlane stored)
 * whenever a GLSL vertex shader is bound, so a GLSL shader without gl_ClipVertex has its eye
 * planes applied to gl_Position as they are (piglit vs-clip-based-on-position); ARB vertex
 * programs get clip-space planes (the eye plane times the inverse projection at the draw,
 * Mesa's _ClipUserPlane). The distances go into the pipeline vertex's clip_dist[] and are
 * clipped against like gl_ClipDistance. */
#include <string.h>

#include "gmf_internal.h"

/* Inverse of a column-major 4x4 matrix (Gauss-Jordan, partial pivoting, in double); false
 * when singular. */
static bool invert4(const float m[16], double inv[16])
{
    double a[4][8];
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++) {
            a[r][c] = m[c * 4 + r];
            a[r][4 + c] = r == c;
        }
    for (int col = 0; col < 4; col++) {
        int piv = col;
        for (int r = col + 1; r < 4; r++)
            if ((a[r][col] < 0 ? -a[r][col] : a[r][col]) > (a[piv][col] < 0 ? -a[piv][col] : a[piv][col]))
                piv = r;
        if (a[piv][col] == 0.0)
            return false;
        for (int k = 0; k < 8; k++) {
            double t = a[col][k];
            a[col][k] = a[piv][k];
            a[piv][k] = t;
        }
        double dv = a[col][col];
        for (int k = 0; k < 8; k++)
            a[col][k] /= dv;
        for (int r = 0; r < 4; r++) {
            if (r == col || a[r][col] == 0.0)
                continue;
            double f = a[r][col];
            for (int k = 0; k < 8; k++)
                a[r][k] -= f * a[col][k];
        }
    }
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < 4; c++)
            inv[c * 4 + r] = a[r][4 + c];
    return true;
}

void gmf_user_clip_setup(gmf_draw_ctx *d)
{
    const gmf_prog *p = d->p;
    memset(d->ucp, 0, sizeof d->ucp);
    if (!p->user_clip)
        return;
    const struct sm_fixed_state *ff = &d->st->ff;
    bool glsl_vs = (d->st->program || d->st->pipeline) && !p->ff_vs;
    if (glsl_vs || p->clipv_var >= 0) {
        memcpy(d->ucp, ff->clip_plane, sizeof d->ucp);
        return;
    }
    double pinv[16];
    const float *proj = d->st->projection.m[d->st->projection.depth];
    bool ok = invert4(proj, pinv);
    for (int i = 0; i < GM_PIPE_MAX_CLIP_DIST; i++)
        for (int c = 0; c < 4; c++) {
            const float *e = ff->clip_plane[i];
            d->ucp[i][c] = ok ? (float)(e[0] * pinv[c * 4 + 0] + e[1] * pinv[c * 4 + 1] +
                                        e[2] * pinv[c * 4 + 2] + e[3] * pinv[c * 4 + 3])
                              : e[c];
        }
}

void gmf_user_clip_dist(const gmf_draw_ctx *d, const float v[4], float out[GM_PIPE_MAX_CLIP_DIST])
{
    for (int i = 0; i < GM_PIPE_MAX_CLIP_DIST; i++)
        out[i] = v[0] * d->ucp[i][0] + v[1] * d->ucp[i][1] + v[2] * d->ucp[i][2] +
                 v[3] * d->ucp[i][3];
}
