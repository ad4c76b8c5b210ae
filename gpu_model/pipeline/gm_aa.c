/* gm_aa.c - antialiased lines and points (GL_LINE_SMOOTH, GL_POINT_SMOOTH) as llvmpipe
 * draws them.
 *
 * llvmpipe has no antialiasing of its own: it installs the draw module's aaline and aapoint
 * pipeline stages (draw_pipe_aaline.c, draw_pipe_aapoint.c), which turn every line or point
 * that reaches them (after clipping, the polygon-mode and stipple stages) into a quad of two
 * triangles carrying one extra generic vec4, and bind a copy of the fragment shader that
 * multiplies the alpha of every colour output by a coverage computed from that vec4
 * (nir_lower_aaline_fs / nir_lower_aapoint_fs).  The triangles are drawn with the draw
 * module's "no cull" rasterizer state: no culling, no polygon offset, counter-clockwise
 * front faces in gallium's raster space.  Single-sampled only (multisampled smooth lines and
 * points keep the ordinary rasterization).
 *
 * The model does the same: the extra vec4 is a hidden smooth varying after the program's own
 * (perspective-interpolated, as llvmpipe treats a NIR input without an interpolation
 * qualifier), the two triangles go through gm_draw_triangle, and gm_pipe_aa_apply() (called
 * by the fragment callback right after the shader, before the legacy alpha test, which
 * llvmpipe runs after the shader too) applies the coverage.  Every value is computed with
 * the same float operations in the same order as the driver, so coverage matches bit for
 * bit wherever the interpolated vec4 does. */
#include "gm_setup.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */

#include <math.h>
#include <stdio.h>
#include <string.h>

/* llvmpipe's PIPE_CAPF_MAX_LINE_WIDTH_AA: the state tracker clamps smooth line widths to it */
#define GM_AA_MAX_LINE_WIDTH 255.0f

/* The quad's vertices: copies of the primitive's vertices with the hidden slot filled. */
typedef struct aa_quad {
    gm_pipe_vertex vert[4];
    gm_pvert pv[4];
} aa_quad;

/* Draws triangles (a, b, c) of q with the draw module's no-cull rasterizer state and the
 * hidden slot interpolated. */
static void aa_tris(gm_draw_ctx *dc, aa_quad *q, const int (*tris)[3], int mode)
{
    gm_pipe_context *ctx = dc->ctx;
    gm_pipe_state saved = ctx->state;
    gm_pipe_shader_info info_saved = ctx->info;
    int slot = ctx->info.num_varyings;
    gm_pipe_state *st = &ctx->state;
    st->cull_face = 0;
    st->polygon_offset_fill = st->polygon_offset_line = st->polygon_offset_point = false;
    /* draw_get_rasterizer_no_cull: a fixed front face in gallium's raster space, and the
     * quads' triangles always wind the same way there, so llvmpipe finds them front facing
     * (measured: gl_FrontFacing of polymode_sample --smooth's line loop); the model's
     * gm_tri_front reads the winding in window space, hence the orientation's choice */
    st->clip_origin_upper_left = false;
    st->front_face = dc->rs.flipped ? GL_CCW : GL_CW;
    ctx->info.num_varyings = slot + 1;
    ctx->info.interp[slot] = GM_INTERP_SMOOTH;
    ctx->info.loc[slot] = GM_LOC_CENTER;
    /* the aapoint shader discards outside the unit circle: no early depth test */
    if (mode == GM_AA_POINT)
        ctx->info.fs_may_discard = true;
    dc->aa = mode;
    dc->aa_slot = slot;
    for (int t = 0; t < 2 && !dc->failed; t++)
        gm_draw_triangle(dc, &q->pv[tris[t][0]], &q->pv[tris[t][1]], &q->pv[tris[t][2]]);
    dc->aa = GM_AA_NONE;
    ctx->info = info_saved;
    ctx->state = saved;
}

/* Is there a varying slot left for the coverage vec4? (llvmpipe has 80 inputs; the model 32) */
static bool aa_slot_free(gm_draw_ctx *dc, const char *what)
{
    if (dc->ctx->info.num_varyings < GM_PIPE_MAX_VARYINGS)
        return true;
    snprintf(dc->ctx->error, sizeof(dc->ctx->error),
             "%s: the fragment shader uses all %d varying slots, none is left for the "
             "coverage", what, GM_PIPE_MAX_VARYINGS);
    dc->failed = 1;
    return false;
}

static void aa_dup(aa_quad *q, int i, const gm_pvert *src, const gm_pvert *flat_from,
                   const gm_pipe_shader_info *info)
{
    q->vert[i] = *src->v;
    /* the draw module's flatshade stage (precalc_flat) copies the provoking vertex's flat
     * attributes to both ends of a line before the aaline stage */
    for (int s = 0; s < info->num_varyings; s++)
        if (info->interp[s] == GM_INTERP_FLAT)
            memcpy(q->vert[i].var[s], flat_from->v->var[s], sizeof q->vert[i].var[s]);
    q->pv[i] = *src;
    q->pv[i].v = &q->vert[i];
}

static void set4(float *d, float a, float b, float c, float e)
{
    d[0] = a; d[1] = b; d[2] = c; d[3] = e;
}

/* draw_pipe_aaline.c aaline_line() (Mesa 22.3.6): the segment lengthened by half a pixel at
 * each end and widened to half_width on each side; the coverage vec4 is (across, half_width, along,
 * half_length) with across and along signed distances from the centre line and midpoint. */
void gm_aa_line(gm_draw_ctx *dc, const gm_pvert *v0, const gm_pvert *v1)
{
    const gm_pipe_state *st = &dc->ctx->state;
    const gm_pipe_shader_info *info = &dc->ctx->info;
    if (!aa_slot_free(dc, "antialiased line"))
        return;
    float lw = st->line_width < GM_AA_MAX_LINE_WIDTH ? st->line_width : GM_AA_MAX_LINE_WIDTH;
    /* aaline_first_line() */
    float half_width = lw <= 1.0f ? 1.0f : 0.5f * lw + 0.5f;
    float dx = v1->win[0] - v0->win[0];
    float dy = v1->win[1] - v0->win[1];
    /* the direction (a zero-length line gets atan2f(0, 0) = 0 and a quad of zero coverage,
     * still shaded: without blending its colour is written) through libm's atan2f, cosf and
     * sinf, as the driver computes it */
    float a = atan2f(dy, dx);
    float c_a = cosf(a), s_a = sinf(a);
    float half_length = 0.5f * sqrtf(dx * dx + dy * dy);
    /* segments shorter than a pixel: coverage along the line falls to 0 with the length
     * (draw_pipe_aaline.c, so that a degenerate piece of a stippled line stays invisible) */
    if (half_length < 0.5f)
        half_length = 2.0f * half_length;
    else
        half_length = half_length + 0.5f;
    float t_w = half_width, t_l = 0.5f;
    const gm_pvert *flat_from = st->flatshade_first ? v0 : v1;
    aa_quad q;
    for (int i = 0; i < 4; i++)
        aa_dup(&q, i, i / 2 ? v1 : v0, flat_from, info);
    /*  1 +-------------------+ 3
     *    | *v0           v1* |
     *  0 +-------------------+ 2   */
    float *p;
    p = q.pv[0].win;
    p[0] += (-t_l * c_a - t_w * s_a);
    p[1] += (-t_l * s_a + t_w * c_a);
    p = q.pv[1].win;
    p[0] += (-t_l * c_a - -t_w * s_a);
    p[1] += (-t_l * s_a + -t_w * c_a);
    p = q.pv[2].win;
    p[0] += (t_l * c_a - t_w * s_a);
    p[1] += (t_l * s_a + t_w * c_a);
    p = q.pv[3].win;
    p[0] += (t_l * c_a - -t_w * s_a);
    p[1] += (t_l * s_a + -t_w * c_a);
    int slot = info->num_varyings;
    set4(q.vert[0].var[slot], -half_width, half_width, -half_length, half_length);
    set4(q.vert[1].var[slot], half_width, half_width, -half_length, half_length);
    set4(q.vert[2].var[slot], -half_width, half_width, half_length, half_length);
    set4(q.vert[3].var[slot], half_width, half_width, half_length, half_length);
    static const int tris[2][3] = {{2, 1, 0}, {3, 1, 2}};
    aa_tris(dc, &q, tris, GM_AA_LINE);
}

/* draw_pipe_aapoint.c aapoint_point(): a square of the point's radius around the centre;
 * the coverage vec4 is (x, y, k, 1) with x, y from -1 to 1 across the square and k the
 * squared distance where the attenuation starts (NORMALIZE off: (1 - 1/r)^2). */
void gm_aa_point(gm_draw_ctx *dc, const gm_pvert *v0)
{
    const gm_pipe_context *ctx = dc->ctx;
    const gm_pipe_shader_info *info = &ctx->info;
    if (!aa_slot_free(dc, "antialiased point"))
        return;
    float radius;
    if (info->vs_writes_point_size && ctx->state.program_point_size)
        radius = 0.5f * v0->v->point_size;   /* point_size_per_vertex: the PSIZ output */
    else
        radius = ctx->state.point_size <= 2.0f ? 1.0f : 0.5f * ctx->state.point_size;
    float k = 1.0f / radius;
    k = 1.0f - 2.0f * k + k * k;
    aa_quad q;
    for (int i = 0; i < 4; i++)
        aa_dup(&q, i, v0, v0, info);
    q.pv[0].win[0] -= radius; q.pv[0].win[1] -= radius;
    q.pv[1].win[0] += radius; q.pv[1].win[1] -= radius;
    q.pv[2].win[0] += radius; q.pv[2].win[1] += radius;
    q.pv[3].win[0] -= radius; q.pv[3].win[1] += radius;
    int slot = info->num_varyings;
    set4(q.vert[0].var[slot], -1.0f, -1.0f, k, 1.0f);
    set4(q.vert[1].var[slot], 1.0f, -1.0f, k, 1.0f);
    set4(q.vert[2].var[slot], 1.0f, 1.0f, k, 1.0f);
    set4(q.vert[3].var[slot], -1.0f, 1.0f, k, 1.0f);
    static const int tris[2][3] = {{0, 1, 2}, {0, 2, 3}};
    aa_tris(dc, &q, tris, GM_AA_POINT);
}

static float fsat(float x)
{
    /* NIR fsat: NaN -> 0 */
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}

void gm_pipe_aa_apply(gm_pipe_fs_warp *fw, uint8_t rt_is_integer)
{
    if (fw->aa == GM_AA_NONE)
        return;
    const int s = fw->aa_slot;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        if (!(fw->present & (1u << l)))
            continue;
        float x = fw->in[s][0][l], y = fw->in[s][1][l], z = fw->in[s][2][l], w = fw->in[s][3][l];
        float cov;
        if (fw->aa == GM_AA_LINE) {
            /* nir_lower_aaline_fs (22.3): saturate(half_width - |across|) *
             * saturate(half_length - |along|) */
            cov = fsat(y - fabsf(x)) * fsat(w - fabsf(z));
        } else {
            /* nir_lower_aapoint_fs: d = x² + y²; discard when 1 < d; the coverage factor
             * (1 - d) / (1 - k) where k >= d, else 1 (the driver's select, as written) */
            float d = x * x + y * y;
            if (w < d)
                fw->discard |= 1u << l;
            float c = (1.0f / (w - z)) * (w - d);
            cov = z >= d ? c : w;
        }
        for (int rt = 0; rt <= GM_PIPE_MAX_RT; rt++) {
            if (rt < GM_PIPE_MAX_RT && (rt_is_integer >> rt) & 1u)
                continue;
            fw->color[rt].f[3][l] = fw->color[rt].f[3][l] * cov;
        }
    }
}
