/* Pipeline state of a draw from the state model: rasterizer, viewport, depth/stencil,
 * blending and output state. The pipeline takes GL enum values, so most fields pass
 * through unchanged. */
#include <string.h>

#include "gmf_internal.h"

static bool on(const struct sm_context *c, uint32_t cap) { return sm_is_enabled(c, cap, 0); }

void gmf_pipe_state_from_sm(const struct sm_context *c, const gm_pipe_framebuffer *fb,
                            gm_pipe_state *ps, gmf_event *ev)
{
    const struct sm_context_state *st = sm_context_state(c);
    int maj, min;
    enum sm_api api = sm_context_api(c, &maj, &min);
    (void)ev;   /* everything here is modelled now (the legacy alpha test: gmf_ffunc.c) */
    gm_pipe_state_default(ps, fb->width, fb->height);

    ps->cull_face = on(c, GL_CULL_FACE) ? st->cull_face_mode : 0;
    ps->front_face = st->front_face;
    ps->polygon_mode = st->polygon_mode[0];
    ps->polygon_mode_back = st->polygon_mode[1];
    ps->flatshade_first = st->provoking_vertex == GL_FIRST_VERTEX_CONVENTION;
    ps->clip_origin_upper_left = st->clip_origin == GL_UPPER_LEFT;
    ps->clip_depth_zero_to_one = st->clip_depth_mode == GL_ZERO_TO_ONE;
    ps->depth_clamp = on(c, GL_DEPTH_CLAMP);
    ps->clip_plane_enable = 0;
    for (int i = 0; i < 8; i++)
        if (on(c, GL_CLIP_DISTANCE0 + (uint32_t)i))
            ps->clip_plane_enable |= (uint8_t)(1u << i);
    ps->rasterizer_discard = on(c, GL_RASTERIZER_DISCARD);
    ps->line_width = st->line_width;
    /* line and polygon stipple are compatibility-only state (llvmpipe: the draw module) */
    if (api == SM_API_GL_COMPAT) {
        ps->line_stipple = on(c, GL_LINE_STIPPLE);
        ps->line_stipple_factor = st->line_stipple_repeat;
        ps->line_stipple_pattern = (uint16_t)st->line_stipple_pattern;
        ps->polygon_stipple = on(c, GL_POLYGON_STIPPLE);
        memcpy(ps->polygon_stipple_rows, st->polygon_stipple, sizeof ps->polygon_stipple_rows);
        /* antialiased points: the draw module's aapoint stage (gm_aa.c); Mesa's state tracker
         * turns point smoothing off for point sprites. GL_POLYGON_SMOOTH: llvmpipe ignores it,
         * as the model does. */
        ps->point_smooth = on(c, GL_POINT_SMOOTH) && !on(c, GL_POINT_SPRITE);
    }
    /* antialiased lines (the aaline stage): desktop GL, core profiles included */
    ps->line_smooth = api != SM_API_GLES && on(c, GL_LINE_SMOOTH);
    /* Mesa's state tracker clamps the rasterizer's point size (the one used when no shader
     * writes gl_PointSize) to GL_POINT_SIZE_MIN / GL_POINT_SIZE_MAX, in its CLAMP order */
    float psz = st->point_size, pmin = st->ff.point_size_min, pmax = st->ff.point_size_max;
    ps->point_size = psz > pmin ? (psz > pmax ? pmax : psz) : pmin;
    ps->program_point_size = on(c, GL_PROGRAM_POINT_SIZE) || api == SM_API_GLES;
    ps->point_sprite_upper_left = st->point_sprite_coord_origin != GL_LOWER_LEFT;
    /* Mesa keeps GL_POINT_SPRITE on in core and ES contexts: legacy point rules only apply
     * to compatibility contexts with point sprites off */
    ps->legacy_points = api == SM_API_GL_COMPAT && !on(c, GL_POINT_SPRITE);
    ps->polygon_offset_fill = on(c, GL_POLYGON_OFFSET_FILL);
    ps->polygon_offset_line = on(c, GL_POLYGON_OFFSET_LINE);
    ps->polygon_offset_point = on(c, GL_POLYGON_OFFSET_POINT);
    ps->offset_factor = st->polygon_offset_factor;
    ps->offset_units = st->polygon_offset_units;
    ps->offset_clamp = st->polygon_offset_clamp;
    ps->scissor_enable = st->scissor_test[0];
    memcpy(ps->scissor, st->scissor[0], sizeof ps->scissor);
    /* A context that never set its viewport/scissor has the size of its first surface (the
     * state model cannot know it and keeps zeros). A zero scissor box with a viewport known is
     * one the program set (glScissor(0, 0, 0, 0): nothing passes; piglit gl-1.0-no-op-paths):
     * the state model sets both boxes together when it learns the surface size. */
    bool viewport_known = st->viewport[0][2] > 0 && st->viewport[0][3] > 0;
    if (viewport_known)
        memcpy(ps->viewport, st->viewport[0], sizeof ps->viewport);
    /* (glScissor(0, 0, 0, 0) is a real, empty box: piglit gl-1.0-no-op-paths) */
    if (!st->scissor_given && !st->scissor[0][0] && !st->scissor[0][1] && !st->scissor[0][2] &&
        !st->scissor[0][3]) {
        ps->scissor[2] = fb->width;
        ps->scissor[3] = fb->height;
    }
    ps->depth_range[0] = (float)st->depth_range[0][0];
    ps->depth_range[1] = (float)st->depth_range[0][1];
    ps->primitive_restart = on(c, GL_PRIMITIVE_RESTART) || on(c, GL_PRIMITIVE_RESTART_FIXED_INDEX);
    ps->primitive_restart_fixed_index = on(c, GL_PRIMITIVE_RESTART_FIXED_INDEX);
    ps->restart_index = st->primitive_restart_index;
    ps->multisample = on(c, GL_MULTISAMPLE);

    ps->depth_test = on(c, GL_DEPTH_TEST);
    ps->depth_write = st->depth_mask;
    ps->depth_func = st->depth_func;
    ps->stencil_test = on(c, GL_STENCIL_TEST);
    for (int f = 0; f < 2; f++) {
        const struct sm_stencil_face *s = &st->stencil[f];
        gm_pipe_stencil_face *o = &ps->stencil[f];
        o->func = s->func;
        o->fail_op = s->fail;
        o->zfail_op = s->zfail;
        o->zpass_op = s->zpass;
        o->ref = (uint8_t)(s->ref < 0 ? 0 : s->ref > 255 ? 255 : s->ref);
        o->value_mask = (uint8_t)s->value_mask;
        o->write_mask = (uint8_t)s->write_mask;
    }
    for (int i = 0; i < GM_PIPE_MAX_RT && i < SM_MAX_DRAW_BUFFERS; i++) {
        gm_pipe_blend_rt *b = &ps->blend[i];
        const struct sm_blend *sb = &st->blend[i];
        b->enable = st->blend_enabled[i];
        b->eq_rgb = sb->eq_rgb;
        b->eq_alpha = sb->eq_alpha;
        b->src_rgb = sb->src_rgb;
        b->dst_rgb = sb->dst_rgb;
        b->src_alpha = sb->src_alpha;
        b->dst_alpha = sb->dst_alpha;
        b->color_mask = (uint8_t)((st->color_mask[i][0] ? 1 : 0) | (st->color_mask[i][1] ? 2 : 0) |
                                  (st->color_mask[i][2] ? 4 : 0) | (st->color_mask[i][3] ? 8 : 0));
    }
    memcpy(ps->blend_color, st->blend_color, sizeof ps->blend_color);
    ps->framebuffer_srgb = on(c, GL_FRAMEBUFFER_SRGB);
    ps->dither = on(c, GL_DITHER);
    ps->color_logic_op = on(c, GL_COLOR_LOGIC_OP);
    ps->logic_op = st->logic_op;
    ps->sample_coverage = on(c, GL_SAMPLE_COVERAGE);
    ps->sample_coverage_value = st->sample_coverage_value;
    ps->sample_coverage_invert = st->sample_coverage_invert;
    ps->alpha_to_coverage = on(c, GL_SAMPLE_ALPHA_TO_COVERAGE);
    ps->sample_mask = on(c, GL_SAMPLE_MASK) ? st->sample_mask : 0xffffffffu;
    ps->alpha_to_one = on(c, GL_SAMPLE_ALPHA_TO_ONE);
    ps->sample_shading = on(c, GL_SAMPLE_SHADING);
    ps->min_sample_shading = st->min_sample_shading;
}
