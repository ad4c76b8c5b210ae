/* Fixed context state: enables, viewport/scissor/depth range, blend, colour masks, depth/stencil,
 * clear values, rasterization, pixel store, hints, transform feedback progress. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"

#define ST(a) (&(a)->c->st)

/* Legacy caps that apply to the active texture unit. */
static bool per_unit_cap(uint32_t cap)
{
    return cap == GL_TEXTURE_1D || cap == GL_TEXTURE_2D || cap == GL_TEXTURE_3D ||
           cap == GL_TEXTURE_CUBE_MAP || cap == GL_TEXTURE_RECTANGLE || cap == GL_TEXTURE_GEN_S ||
           cap == GL_TEXTURE_GEN_T || cap == GL_TEXTURE_GEN_R || cap == GL_TEXTURE_GEN_Q;
}

static void set_cap(struct sm_ap *a, uint32_t cap, bool indexed, uint32_t index, bool on)
{
    struct sm_context_state *st = ST(a);
    if (!indexed && sm_legacy_client_cap(a, cap, on))
        return;
    if (cap == GL_BLEND || cap == GL_SCISSOR_TEST) {
        bool *arr = cap == GL_BLEND ? st->blend_enabled : st->scissor_test;
        uint32_t n = cap == GL_BLEND ? SM_MAX_DRAW_BUFFERS : SM_MAX_VIEWPORTS;
        if (indexed && index >= n) {
            ap_error(a, "cap index out of range");
            return;
        }
        for (uint32_t i = 0; i < n; i++)
            if (!indexed || i == index)
                arr[i] = on;
        return;
    }
    if (!indexed && per_unit_cap(cap))
        index = st->active_texture;
    if (!sm_caps_set(st, cap, indexed || per_unit_cap(cap) ? index : 0, on))
        ap_error(a, "out of memory");
    /* glEnable(GL_COLOR_MATERIAL) leaves the materials as they are until the next glColor: GL 2.1
     * section 2.14.3 has the current colour track the material "while enabled", and Mesa 22's
     * vbo keeps the materials as current attributes that its update at glEnable does not reach
     * (llvmpipe draws piglit's dlist-color-material with the material's own diffuse alpha). */
}

static void h_enable(struct sm_ap *a)
{
    bool on = a->cmd == GLR_CMD_glEnable || a->cmd == GLR_CMD_glEnablei;
    bool indexed = a->cmd == GLR_CMD_glEnablei || a->cmd == GLR_CMD_glDisablei;
    set_cap(a, ap_u(a, 0), indexed, indexed ? ap_u(a, 1) : 0, on);
}

/* ------------------------------------------------------------------ viewport, scissor, depth range */

static bool vp_range(struct sm_ap *a, uint32_t first, int32_t count)
{
    if (count < 0 || first >= SM_MAX_VIEWPORTS || (uint32_t)count > SM_MAX_VIEWPORTS - first) {
        ap_error(a, "viewport index out of range");
        return false;
    }
    return true;
}

static void set_viewport(struct sm_context_state *st, uint32_t i, float x, float y, float w, float h)
{
    st->viewport[i][0] = x;
    st->viewport[i][1] = y;
    st->viewport[i][2] = w;
    st->viewport[i][3] = h;
}

static void h_viewport(struct sm_ap *a)
{
    for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
        set_viewport(ST(a), i, (float)ap_i(a, 0), (float)ap_i(a, 1), (float)ap_i(a, 2),
                     (float)ap_i(a, 3));
}

static void h_viewport_indexed(struct sm_ap *a)
{
    uint32_t i = ap_u(a, 0);
    if (!vp_range(a, i, 1))
        return;
    if (a->cmd == GLR_CMD_glViewportIndexedf) {
        set_viewport(ST(a), i, ap_f(a, 1), ap_f(a, 2), ap_f(a, 3), ap_f(a, 4));
        return;
    }
    const float *v = ap_blob(a, 1, 16);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    set_viewport(ST(a), i, v[0], v[1], v[2], v[3]);
}

static void h_viewport_array(struct sm_ap *a)
{
    uint32_t first = ap_u(a, 0);
    int32_t count = ap_i(a, 1);
    if (!vp_range(a, first, count) || !count)
        return;
    const float *v = ap_blob(a, 2, (uint64_t)count * 16);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    for (int32_t k = 0; k < count; k++)
        set_viewport(ST(a), first + (uint32_t)k, v[4 * k], v[4 * k + 1], v[4 * k + 2], v[4 * k + 3]);
}

static void set_scissor(struct sm_context_state *st, uint32_t i, const int32_t v[4])
{
    memcpy(st->scissor[i], v, sizeof st->scissor[i]);
    st->scissor_given = true;
}

static void h_scissor(struct sm_ap *a)
{
    int32_t v[4] = { ap_i(a, 0), ap_i(a, 1), ap_i(a, 2), ap_i(a, 3) };
    for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
        set_scissor(ST(a), i, v);
}

static void h_scissor_indexed(struct sm_ap *a)
{
    uint32_t i = ap_u(a, 0);
    if (!vp_range(a, i, 1))
        return;
    if (a->cmd == GLR_CMD_glScissorIndexed) {
        int32_t v[4] = { ap_i(a, 1), ap_i(a, 2), ap_i(a, 3), ap_i(a, 4) };
        set_scissor(ST(a), i, v);
        return;
    }
    const int32_t *v = ap_blob(a, 1, 16);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    set_scissor(ST(a), i, v);
}

static void h_scissor_array(struct sm_ap *a)
{
    uint32_t first = ap_u(a, 0);
    int32_t count = ap_i(a, 1);
    if (!vp_range(a, first, count) || !count)
        return;
    const int32_t *v = ap_blob(a, 2, (uint64_t)count * 16);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    for (int32_t k = 0; k < count; k++)
        set_scissor(ST(a), first + (uint32_t)k, v + 4 * k);
}

static void h_depth_range(struct sm_ap *a)
{
    double n, f;
    if (a->cmd == GLR_CMD_glDepthRangef) {
        n = ap_f(a, 0);
        f = ap_f(a, 1);
    } else {
        n = ap_d(a, 0);
        f = ap_d(a, 1);
    }
    for (int i = 0; i < SM_MAX_VIEWPORTS; i++) {
        ST(a)->depth_range[i][0] = n;
        ST(a)->depth_range[i][1] = f;
    }
}

static void h_depth_range_indexed(struct sm_ap *a)
{
    uint32_t i = ap_u(a, 0);
    if (!vp_range(a, i, 1))
        return;
    ST(a)->depth_range[i][0] = ap_d(a, 1);
    ST(a)->depth_range[i][1] = ap_d(a, 2);
}

static void h_depth_range_array(struct sm_ap *a)
{
    uint32_t first = ap_u(a, 0);
    int32_t count = ap_i(a, 1);
    if (!vp_range(a, first, count) || !count)
        return;
    const double *v = ap_blob(a, 2, (uint64_t)count * 16);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    for (int32_t k = 0; k < count; k++) {
        ST(a)->depth_range[first + (uint32_t)k][0] = v[2 * k];
        ST(a)->depth_range[first + (uint32_t)k][1] = v[2 * k + 1];
    }
}

/* ------------------------------------------------------------------ blend and colour */

static bool draw_buffer_ok(struct sm_ap *a, uint32_t buf)
{
    if (buf >= SM_MAX_DRAW_BUFFERS) {
        ap_error(a, "draw buffer index out of range");
        return false;
    }
    return true;
}

/* Applies to one draw buffer (indexed forms) or all. */
#define FOR_BUFFERS(a, indexed, buf, body)                                 \
    do {                                                                   \
        if ((indexed) && !draw_buffer_ok(a, buf))                          \
            break;                                                         \
        for (uint32_t i_ = 0; i_ < SM_MAX_DRAW_BUFFERS; i_++) {            \
            if ((indexed) && i_ != (buf))                                  \
                continue;                                                  \
            struct sm_blend *b = &ST(a)->blend[i_];                        \
            (void)b;                                                       \
            body;                                                          \
        }                                                                  \
    } while (0)

static void h_blend_func(struct sm_ap *a)
{
    bool ix = a->cmd == GLR_CMD_glBlendFunci;
    int o = ix ? 1 : 0;
    FOR_BUFFERS(a, ix, ap_u(a, 0), {
        b->src_rgb = b->src_alpha = ap_u(a, o);
        b->dst_rgb = b->dst_alpha = ap_u(a, o + 1);
    });
}

static void h_blend_func_separate(struct sm_ap *a)
{
    bool ix = a->cmd == GLR_CMD_glBlendFuncSeparatei;
    int o = ix ? 1 : 0;
    FOR_BUFFERS(a, ix, ap_u(a, 0), {
        b->src_rgb = ap_u(a, o);
        b->dst_rgb = ap_u(a, o + 1);
        b->src_alpha = ap_u(a, o + 2);
        b->dst_alpha = ap_u(a, o + 3);
    });
}

static void h_blend_equation(struct sm_ap *a)
{
    bool ix = a->cmd == GLR_CMD_glBlendEquationi;
    int o = ix ? 1 : 0;
    FOR_BUFFERS(a, ix, ap_u(a, 0), { b->eq_rgb = b->eq_alpha = ap_u(a, o); });
}

static void h_blend_equation_separate(struct sm_ap *a)
{
    bool ix = a->cmd == GLR_CMD_glBlendEquationSeparatei;
    int o = ix ? 1 : 0;
    FOR_BUFFERS(a, ix, ap_u(a, 0), {
        b->eq_rgb = ap_u(a, o);
        b->eq_alpha = ap_u(a, o + 1);
    });
}

static void h_blend_color(struct sm_ap *a)
{
    for (int i = 0; i < 4; i++)
        ST(a)->blend_color[i] = ap_f(a, i);
}

static void h_color_mask(struct sm_ap *a)
{
    bool ix = a->cmd == GLR_CMD_glColorMaski;
    int o = ix ? 1 : 0;
    FOR_BUFFERS(a, ix, ap_u(a, 0), {
        for (int c = 0; c < 4; c++)
            ST(a)->color_mask[i_][c] = ap_u(a, o + c) != 0;
    });
}

static void h_logic_op(struct sm_ap *a) { ST(a)->logic_op = ap_u(a, 0); }

/* ------------------------------------------------------------------ depth and stencil */

static void h_depth_func(struct sm_ap *a) { ST(a)->depth_func = ap_u(a, 0); }
static void h_depth_mask(struct sm_ap *a) { ST(a)->depth_mask = ap_u(a, 0) != 0; }

/* Faces a stencil command with a face argument applies to: bit 0 front, bit 1 back. */
static int faces_of(struct sm_ap *a, uint32_t face)
{
    switch (face) {
    case GL_FRONT: return 1;
    case GL_BACK: return 2;
    case GL_FRONT_AND_BACK: return 3;
    default: ap_error(a, "invalid face"); return 0;
    }
}

static void h_stencil_func(struct sm_ap *a)
{
    bool sep = a->cmd == GLR_CMD_glStencilFuncSeparate;
    int faces = sep ? faces_of(a, ap_u(a, 0)) : 3, o = sep ? 1 : 0;
    for (int f = 0; f < 2; f++)
        if (faces & (1 << f)) {
            ST(a)->stencil[f].func = ap_u(a, o);
            ST(a)->stencil[f].ref = ap_i(a, o + 1);
            ST(a)->stencil[f].value_mask = ap_u(a, o + 2);
        }
}

static void h_stencil_op(struct sm_ap *a)
{
    bool sep = a->cmd == GLR_CMD_glStencilOpSeparate;
    int faces = sep ? faces_of(a, ap_u(a, 0)) : 3, o = sep ? 1 : 0;
    for (int f = 0; f < 2; f++)
        if (faces & (1 << f)) {
            ST(a)->stencil[f].fail = ap_u(a, o);
            ST(a)->stencil[f].zfail = ap_u(a, o + 1);
            ST(a)->stencil[f].zpass = ap_u(a, o + 2);
        }
}

static void h_stencil_mask(struct sm_ap *a)
{
    bool sep = a->cmd == GLR_CMD_glStencilMaskSeparate;
    int faces = sep ? faces_of(a, ap_u(a, 0)) : 3;
    for (int f = 0; f < 2; f++)
        if (faces & (1 << f))
            ST(a)->stencil[f].write_mask = ap_u(a, sep ? 1 : 0);
}

/* ------------------------------------------------------------------ clear values */

static void h_clear_color(struct sm_ap *a)
{
    for (int i = 0; i < 4; i++)
        ST(a)->clear_color[i] = ap_f(a, i);
}

static void h_clear_depth(struct sm_ap *a)
{
    ST(a)->clear_depth = a->cmd == GLR_CMD_glClearDepthf ? (double)ap_f(a, 0) : ap_d(a, 0);
}

static void h_clear_stencil(struct sm_ap *a) { ST(a)->clear_stencil = ap_i(a, 0); }

/* ------------------------------------------------------------------ rasterization */

static void h_cull_face(struct sm_ap *a) { ST(a)->cull_face_mode = ap_u(a, 0); }
static void h_front_face(struct sm_ap *a) { ST(a)->front_face = ap_u(a, 0); }

static void h_polygon_mode(struct sm_ap *a)
{
    int faces = faces_of(a, ap_u(a, 0));
    for (int f = 0; f < 2; f++)
        if (faces & (1 << f))
            ST(a)->polygon_mode[f] = ap_u(a, 1);
}

static void h_polygon_offset(struct sm_ap *a)
{
    ST(a)->polygon_offset_factor = ap_f(a, 0);
    ST(a)->polygon_offset_units = ap_f(a, 1);
    ST(a)->polygon_offset_clamp = a->cmd == GLR_CMD_glPolygonOffsetClamp ? ap_f(a, 2) : 0.0f;
}

static void h_line_width(struct sm_ap *a) { ST(a)->line_width = ap_f(a, 0); }

static void h_line_stipple(struct sm_ap *a)
{
    int32_t r = ap_i(a, 0);
    ST(a)->line_stipple_repeat = r < 1 ? 1 : r > 256 ? 256 : r;
    ST(a)->line_stipple_pattern = ap_u(a, 1) & 0xFFFFu;
}

/* glPolygonStipple: 32x32 bits from client memory under the unpack state (row length, skips,
 * alignment, LSB first). A pixel unpack buffer source is not read (the pattern is kept). */
static void h_polygon_stipple(struct sm_ap *a)
{
    const struct sm_context_state *cs = ST(a);
    if (cs->buffer[SM_BT_PIXEL_UNPACK])
        return;
    const struct sm_pixel_store *u = &cs->unpack;
    int64_t row_len = u->row_length > 0 ? u->row_length : 32;
    int64_t row_bytes = (row_len + 7) / 8;
    if (u->alignment > 1 && row_bytes % u->alignment)
        row_bytes += u->alignment - row_bytes % u->alignment;
    int64_t skip_rows = u->skip_rows > 0 ? u->skip_rows : 0, skip_px = u->skip_pixels > 0 ? u->skip_pixels : 0;
    uint64_t need = (uint64_t)((skip_rows + 31) * row_bytes + (skip_px + 32 + 7) / 8);
    const uint8_t *src = ap_bytes(a, 0, need);
    if (!src)
        return;
    for (int r = 0; r < 32; r++) {
        uint32_t row = 0;
        for (int x = 0; x < 32; x++) {
            int64_t bit = skip_px + x;
            uint8_t byte = src[(skip_rows + r) * row_bytes + bit / 8];
            unsigned on = u->lsb_first ? (byte >> (bit % 8)) & 1u : (byte >> (7 - bit % 8)) & 1u;
            row |= (uint32_t)on << (31 - x);
        }
        ST(a)->polygon_stipple[r] = row;
    }
}
static void h_point_size(struct sm_ap *a) { ST(a)->point_size = ap_f(a, 0); }

static void h_point_parameter(struct sm_ap *a)
{
    bool vec;
    char kind = sm_setter_form(a->cmd, &vec);   /* "family setter" in registry/gl_annotations.txt */
    uint32_t v;
    if (vec) {
        const void *p = ap_blob(a, 1, 4);
        if (!p) {
            ap_error(a, "values missing from the recorded call");
            return;
        }
        if (kind == 'f') {
            float f;
            memcpy(&f, p, 4);
            v = (uint32_t)f;
        } else {
            memcpy(&v, p, 4);
        }
    } else {
        v = kind == 'f' ? (uint32_t)ap_f(a, 1) : ap_u(a, 1);
    }
    if (ap_u(a, 0) == GL_POINT_SPRITE_COORD_ORIGIN)
        ST(a)->point_sprite_coord_origin = v;
    else
        sm_fixed_point_parameter(a);   /* size range, fade, attenuation: sm_apply_fixed.c */
}

static void h_sample_coverage(struct sm_ap *a)
{
    ST(a)->sample_coverage_value = ap_f(a, 0);
    ST(a)->sample_coverage_invert = ap_u(a, 1) != 0;
}

static void h_sample_mask(struct sm_ap *a)
{
    if (ap_u(a, 0) != 0)
        ap_error(a, "sample mask word out of range");
    else
        ST(a)->sample_mask = ap_u(a, 1);
}

static void h_min_sample_shading(struct sm_ap *a) { ST(a)->min_sample_shading = ap_f(a, 0); }
static void h_provoking_vertex(struct sm_ap *a) { ST(a)->provoking_vertex = ap_u(a, 0); }
static void h_restart_index(struct sm_ap *a) { ST(a)->primitive_restart_index = ap_u(a, 0); }

static void h_patch_parameteri(struct sm_ap *a)
{
    if (ap_u(a, 0) == GL_PATCH_VERTICES)
        ST(a)->patch_vertices = ap_i(a, 1);
    else
        ap_error(a, "invalid patch parameter");
}

static void h_patch_parameterfv(struct sm_ap *a)
{
    bool outer = ap_u(a, 0) == GL_PATCH_DEFAULT_OUTER_LEVEL;
    if (!outer && ap_u(a, 0) != GL_PATCH_DEFAULT_INNER_LEVEL) {
        ap_error(a, "invalid patch parameter");
        return;
    }
    int n = outer ? 4 : 2;
    const float *v = ap_blob(a, 1, (uint64_t)n * 4);
    if (!v) {
        ap_error(a, "values missing from the recorded call");
        return;
    }
    memcpy(outer ? ST(a)->patch_outer : ST(a)->patch_inner, v, (size_t)n * 4);
}

static void h_clip_control(struct sm_ap *a)
{
    ST(a)->clip_origin = ap_u(a, 0);
    ST(a)->clip_depth_mode = ap_u(a, 1);
}

/* ------------------------------------------------------------------ pixel store, hints */

static void h_pixel_store(struct sm_ap *a)
{
    int32_t v = a->cmd == GLR_CMD_glPixelStoref ? (int32_t)ap_f(a, 1) : ap_i(a, 1);
    struct sm_pixel_store *ps;
    uint32_t pname = ap_u(a, 0);
    switch (pname) {
    case GL_PACK_SWAP_BYTES: case GL_PACK_LSB_FIRST: case GL_PACK_ROW_LENGTH:
    case GL_PACK_IMAGE_HEIGHT: case GL_PACK_SKIP_ROWS: case GL_PACK_SKIP_PIXELS:
    case GL_PACK_SKIP_IMAGES: case GL_PACK_ALIGNMENT:
        ps = &ST(a)->pack;
        break;
    default:
        ps = &ST(a)->unpack;
        break;
    }
    switch (pname) {
    case GL_PACK_SWAP_BYTES: case GL_UNPACK_SWAP_BYTES: ps->swap_bytes = v != 0; break;
    case GL_PACK_LSB_FIRST: case GL_UNPACK_LSB_FIRST: ps->lsb_first = v != 0; break;
    case GL_PACK_ROW_LENGTH: case GL_UNPACK_ROW_LENGTH: ps->row_length = v; break;
    case GL_PACK_IMAGE_HEIGHT: case GL_UNPACK_IMAGE_HEIGHT: ps->image_height = v; break;
    case GL_PACK_SKIP_ROWS: case GL_UNPACK_SKIP_ROWS: ps->skip_rows = v; break;
    case GL_PACK_SKIP_PIXELS: case GL_UNPACK_SKIP_PIXELS: ps->skip_pixels = v; break;
    case GL_PACK_SKIP_IMAGES: case GL_UNPACK_SKIP_IMAGES: ps->skip_images = v; break;
    case GL_PACK_ALIGNMENT: case GL_UNPACK_ALIGNMENT:
        if (v != 1 && v != 2 && v != 4 && v != 8)
            ap_error(a, "invalid alignment");
        else
            ps->alignment = v;
        break;
    default:
        ap_error(a, "pixel store parameter not modelled");
        break;
    }
}

static void h_hint(struct sm_ap *a)
{
    struct sm_context_state *st = ST(a);
    uint32_t target = ap_u(a, 0), mode = ap_u(a, 1);
    for (uint32_t i = 0; i < st->n_hints; i++)
        if (st->hints[i].target == target) {
            st->hints[i].mode = mode;
            return;
        }
    void *p = realloc(st->hints, (st->n_hints + 1) * sizeof *st->hints);
    if (!p) {
        ap_error(a, "out of memory");
        return;
    }
    st->hints = p;
    st->hints[st->n_hints++] = (struct sm_hint){ target, mode };
}

/* ------------------------------------------------------------------ transform feedback */

static void h_tf_progress(struct sm_ap *a)
{
    struct sm_transform_feedback *t = ap_tfo(a, ST(a)->tfo);
    if (!t)
        return;
    switch (a->cmd) {
    case GLR_CMD_glBeginTransformFeedback:
        t->active = true;
        t->paused = false;
        t->primitive_mode = ap_u(a, 0);
        break;
    case GLR_CMD_glEndTransformFeedback:
        t->active = t->paused = false;
        t->primitive_mode = 0;
        break;
    case GLR_CMD_glPauseTransformFeedback:
        t->paused = true;
        break;
    default:
        t->paused = false;
        break;
    }
}

/* glTransformFeedbackBufferBase(xfb, index, buffer) / ...Range(xfb, index, buffer, offset, size) */
static void h_tf_buffer(struct sm_ap *a)
{
    bool range = a->cmd == GLR_CMD_glTransformFeedbackBufferRange;
    struct sm_transform_feedback *t = ap_tfo(a, ap_u(a, 0));
    uint32_t index = ap_u(a, 1);
    if (!t)
        return;
    if (index >= SM_MAX_TFB_BUFFERS) {
        ap_error(a, "binding index out of range");
        return;
    }
    t->buffers[index] = (struct sm_indexed_buffer){ ap_u(a, 2), range ? ap_u64(a, 3) : 0,
                                                    range ? ap_u64(a, 4) : 0 };
}

void sm_register_raster(sm_apply_fn *t)
{
    t[GLR_CMD_glEnable] = h_enable;
    t[GLR_CMD_glDisable] = h_enable;
    t[GLR_CMD_glEnablei] = h_enable;
    t[GLR_CMD_glDisablei] = h_enable;
    t[GLR_CMD_glViewport] = h_viewport;
    t[GLR_CMD_glViewportIndexedf] = h_viewport_indexed;
    t[GLR_CMD_glViewportIndexedfv] = h_viewport_indexed;
    t[GLR_CMD_glViewportArrayv] = h_viewport_array;
    t[GLR_CMD_glScissor] = h_scissor;
    t[GLR_CMD_glScissorIndexed] = h_scissor_indexed;
    t[GLR_CMD_glScissorIndexedv] = h_scissor_indexed;
    t[GLR_CMD_glScissorArrayv] = h_scissor_array;
    t[GLR_CMD_glDepthRange] = h_depth_range;
    t[GLR_CMD_glDepthRangef] = h_depth_range;
    t[GLR_CMD_glDepthRangeIndexed] = h_depth_range_indexed;
    t[GLR_CMD_glDepthRangeArrayv] = h_depth_range_array;
    t[GLR_CMD_glBlendFunc] = h_blend_func;
    t[GLR_CMD_glBlendFunci] = h_blend_func;
    t[GLR_CMD_glBlendFuncSeparate] = h_blend_func_separate;
    t[GLR_CMD_glBlendFuncSeparatei] = h_blend_func_separate;
    t[GLR_CMD_glBlendEquation] = h_blend_equation;
    t[GLR_CMD_glBlendEquationi] = h_blend_equation;
    t[GLR_CMD_glBlendEquationSeparate] = h_blend_equation_separate;
    t[GLR_CMD_glBlendEquationSeparatei] = h_blend_equation_separate;
    t[GLR_CMD_glBlendColor] = h_blend_color;
    t[GLR_CMD_glColorMask] = h_color_mask;
    t[GLR_CMD_glColorMaski] = h_color_mask;
    t[GLR_CMD_glLogicOp] = h_logic_op;
    t[GLR_CMD_glDepthFunc] = h_depth_func;
    t[GLR_CMD_glDepthMask] = h_depth_mask;
    t[GLR_CMD_glStencilFunc] = h_stencil_func;
    t[GLR_CMD_glStencilFuncSeparate] = h_stencil_func;
    t[GLR_CMD_glStencilOp] = h_stencil_op;
    t[GLR_CMD_glStencilOpSeparate] = h_stencil_op;
    t[GLR_CMD_glStencilMask] = h_stencil_mask;
    t[GLR_CMD_glStencilMaskSeparate] = h_stencil_mask;
    t[GLR_CMD_glClearColor] = h_clear_color;
    t[GLR_CMD_glClearDepth] = h_clear_depth;
    t[GLR_CMD_glClearDepthf] = h_clear_depth;
    t[GLR_CMD_glClearStencil] = h_clear_stencil;
    t[GLR_CMD_glCullFace] = h_cull_face;
    t[GLR_CMD_glFrontFace] = h_front_face;
    t[GLR_CMD_glPolygonMode] = h_polygon_mode;
    t[GLR_CMD_glPolygonOffset] = h_polygon_offset;
    t[GLR_CMD_glPolygonOffsetClamp] = h_polygon_offset;
    t[GLR_CMD_glLineWidth] = h_line_width;
    t[GLR_CMD_glLineStipple] = h_line_stipple;
    t[GLR_CMD_glPolygonStipple] = h_polygon_stipple;
    t[GLR_CMD_glPointSize] = h_point_size;
    t[GLR_CMD_glPointParameteri] = h_point_parameter;
    t[GLR_CMD_glPointParameterf] = h_point_parameter;
    t[GLR_CMD_glPointParameteriv] = h_point_parameter;
    t[GLR_CMD_glPointParameterfv] = h_point_parameter;
    t[GLR_CMD_glSampleCoverage] = h_sample_coverage;
    t[GLR_CMD_glSampleMaski] = h_sample_mask;
    t[GLR_CMD_glMinSampleShading] = h_min_sample_shading;
    t[GLR_CMD_glProvokingVertex] = h_provoking_vertex;
    t[GLR_CMD_glPrimitiveRestartIndex] = h_restart_index;
    t[GLR_CMD_glPatchParameteri] = h_patch_parameteri;
    t[GLR_CMD_glPatchParameterfv] = h_patch_parameterfv;
    t[GLR_CMD_glClipControl] = h_clip_control;
    t[GLR_CMD_glPixelStorei] = h_pixel_store;
    t[GLR_CMD_glPixelStoref] = h_pixel_store;
    t[GLR_CMD_glHint] = h_hint;
    t[GLR_CMD_glBeginTransformFeedback] = h_tf_progress;
    t[GLR_CMD_glEndTransformFeedback] = h_tf_progress;
    t[GLR_CMD_glPauseTransformFeedback] = h_tf_progress;
    t[GLR_CMD_glResumeTransformFeedback] = h_tf_progress;
    t[GLR_CMD_glTransformFeedbackBufferBase] = h_tf_buffer;
    t[GLR_CMD_glTransformFeedbackBufferRange] = h_tf_buffer;
}
