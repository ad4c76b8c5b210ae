/* Restore calls for a context's fixed state (only values that differ from the GL defaults, so a
 * GLES context never receives a desktop-only call for state it cannot have), and the top level. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_restore.h"

static bool all_same(const void *arr, size_t elem, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (memcmp((const char *)arr, (const char *)arr + i * elem, elem))
            return false;
    return true;
}

static bool integral(float f) { return f == (float)(int32_t)f; }

static void restore_viewports(struct rs *r, const struct sm_context_state *st,
                              const struct sm_context_state *d)
{
    if (all_same(st->viewport, sizeof st->viewport[0], SM_MAX_VIEWPORTS) &&
        integral(st->viewport[0][0]) && integral(st->viewport[0][1]) &&
        integral(st->viewport[0][2]) && integral(st->viewport[0][3])) {
        if (memcmp(st->viewport[0], d->viewport[0], sizeof st->viewport[0]))
            rs_emit(r, GLR_CMD_glViewport, 4, I((int32_t)st->viewport[0][0]),
                    I((int32_t)st->viewport[0][1]), I((int32_t)st->viewport[0][2]),
                    I((int32_t)st->viewport[0][3]));
    } else {
        for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
            rs_emit(r, GLR_CMD_glViewportIndexedf, 5, U(i), F(st->viewport[i][0]),
                    F(st->viewport[i][1]), F(st->viewport[i][2]), F(st->viewport[i][3]));
    }
    if (all_same(st->scissor, sizeof st->scissor[0], SM_MAX_VIEWPORTS)) {
        if (memcmp(st->scissor[0], d->scissor[0], sizeof st->scissor[0]))
            rs_emit(r, GLR_CMD_glScissor, 4, I(st->scissor[0][0]), I(st->scissor[0][1]),
                    I(st->scissor[0][2]), I(st->scissor[0][3]));
    } else {
        for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
            rs_emit(r, GLR_CMD_glScissorIndexed, 5, U(i), I(st->scissor[i][0]),
                    I(st->scissor[i][1]), I(st->scissor[i][2]), I(st->scissor[i][3]));
    }
    if (all_same(st->depth_range, sizeof st->depth_range[0], SM_MAX_VIEWPORTS)) {
        if (memcmp(st->depth_range[0], d->depth_range[0], sizeof st->depth_range[0])) {
            if (r->gles)
                rs_emit(r, GLR_CMD_glDepthRangef, 2, F((float)st->depth_range[0][0]),
                        F((float)st->depth_range[0][1]));
            else
                rs_emit(r, GLR_CMD_glDepthRange, 2, D(st->depth_range[0][0]),
                        D(st->depth_range[0][1]));
        }
    } else {
        for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
            rs_emit(r, GLR_CMD_glDepthRangeIndexed, 3, U(i), D(st->depth_range[i][0]),
                    D(st->depth_range[i][1]));
    }
    if (all_same(st->scissor_test, sizeof st->scissor_test[0], SM_MAX_VIEWPORTS)) {
        if (st->scissor_test[0])
            rs_emit(r, GLR_CMD_glEnable, 1, U(GL_SCISSOR_TEST));
    } else {
        for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
            if (st->scissor_test[i])
                rs_emit(r, GLR_CMD_glEnablei, 2, U(GL_SCISSOR_TEST), U(i));
    }
}

static void restore_blend(struct rs *r, const struct sm_context_state *st,
                          const struct sm_context_state *d)
{
    if (all_same(st->blend_enabled, sizeof st->blend_enabled[0], SM_MAX_DRAW_BUFFERS)) {
        if (st->blend_enabled[0])
            rs_emit(r, GLR_CMD_glEnable, 1, U(GL_BLEND));
    } else {
        for (uint32_t i = 0; i < SM_MAX_DRAW_BUFFERS; i++)
            if (st->blend_enabled[i])
                rs_emit(r, GLR_CMD_glEnablei, 2, U(GL_BLEND), U(i));
    }
    bool same = all_same(st->blend, sizeof st->blend[0], SM_MAX_DRAW_BUFFERS);
    for (uint32_t i = 0; i < (same ? 1u : SM_MAX_DRAW_BUFFERS); i++) {
        const struct sm_blend *b = &st->blend[i], *db = &d->blend[i];
        if (b->src_rgb != db->src_rgb || b->dst_rgb != db->dst_rgb ||
            b->src_alpha != db->src_alpha || b->dst_alpha != db->dst_alpha) {
            if (same)
                rs_emit(r, GLR_CMD_glBlendFuncSeparate, 4, U(b->src_rgb), U(b->dst_rgb),
                        U(b->src_alpha), U(b->dst_alpha));
            else
                rs_emit(r, GLR_CMD_glBlendFuncSeparatei, 5, U(i), U(b->src_rgb), U(b->dst_rgb),
                        U(b->src_alpha), U(b->dst_alpha));
        }
        if (b->eq_rgb != db->eq_rgb || b->eq_alpha != db->eq_alpha) {
            if (same)
                rs_emit(r, GLR_CMD_glBlendEquationSeparate, 2, U(b->eq_rgb), U(b->eq_alpha));
            else
                rs_emit(r, GLR_CMD_glBlendEquationSeparatei, 3, U(i), U(b->eq_rgb), U(b->eq_alpha));
        }
    }
    if (memcmp(st->blend_color, d->blend_color, sizeof st->blend_color))
        rs_emit(r, GLR_CMD_glBlendColor, 4, F(st->blend_color[0]), F(st->blend_color[1]),
                F(st->blend_color[2]), F(st->blend_color[3]));
    bool msame = all_same(st->color_mask, sizeof st->color_mask[0], SM_MAX_DRAW_BUFFERS);
    for (uint32_t i = 0; i < (msame ? 1u : SM_MAX_DRAW_BUFFERS); i++) {
        const bool *m = st->color_mask[i];
        if (!memcmp(m, d->color_mask[i], sizeof st->color_mask[i]))
            continue;
        if (msame)
            rs_emit(r, GLR_CMD_glColorMask, 4, U(m[0]), U(m[1]), U(m[2]), U(m[3]));
        else
            rs_emit(r, GLR_CMD_glColorMaski, 5, U(i), U(m[0]), U(m[1]), U(m[2]), U(m[3]));
    }
    if (st->logic_op != d->logic_op)
        rs_emit(r, GLR_CMD_glLogicOp, 1, U(st->logic_op));
}

static void restore_depth_stencil(struct rs *r, const struct sm_context_state *st,
                                  const struct sm_context_state *d)
{
    if (st->depth_func != d->depth_func)
        rs_emit(r, GLR_CMD_glDepthFunc, 1, U(st->depth_func));
    if (st->depth_mask != d->depth_mask)
        rs_emit(r, GLR_CMD_glDepthMask, 1, U(st->depth_mask));
    static const uint32_t faces[2] = { GL_FRONT, GL_BACK };
    for (int f = 0; f < 2; f++) {
        const struct sm_stencil_face *s = &st->stencil[f], *ds = &d->stencil[f];
        if (s->func != ds->func || s->ref != ds->ref || s->value_mask != ds->value_mask)
            rs_emit(r, GLR_CMD_glStencilFuncSeparate, 4, U(faces[f]), U(s->func), I(s->ref),
                    U(s->value_mask));
        if (s->fail != ds->fail || s->zfail != ds->zfail || s->zpass != ds->zpass)
            rs_emit(r, GLR_CMD_glStencilOpSeparate, 4, U(faces[f]), U(s->fail), U(s->zfail),
                    U(s->zpass));
        if (s->write_mask != ds->write_mask)
            rs_emit(r, GLR_CMD_glStencilMaskSeparate, 2, U(faces[f]), U(s->write_mask));
    }
}

static void restore_pixel_store(struct rs *r, const struct sm_pixel_store *p, bool pack)
{
    struct { uint32_t pname; int32_t v, dv; } e[] = {
        { pack ? GL_PACK_SWAP_BYTES : GL_UNPACK_SWAP_BYTES, p->swap_bytes, 0 },
        { pack ? GL_PACK_LSB_FIRST : GL_UNPACK_LSB_FIRST, p->lsb_first, 0 },
        { pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, p->row_length, 0 },
        { pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, p->image_height, 0 },
        { pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, p->skip_rows, 0 },
        { pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, p->skip_pixels, 0 },
        { pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, p->skip_images, 0 },
        { pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, p->alignment, 4 },
    };
    for (size_t i = 0; i < sizeof e / sizeof *e; i++)
        if (e[i].v != e[i].dv)
            rs_emit(r, GLR_CMD_glPixelStorei, 2, U(e[i].pname), I(e[i].v));
}

/* Legacy matrix stacks (compatibility contexts): each stack that is not a lone identity is
 * loaded level by level (glPushMatrix between levels); texture stacks on their unit. The active
 * texture unit is set again by the caller afterwards. */
static bool is_identity(const float *m)
{
    for (int i = 0; i < 16; i++)
        if (m[i] != (i % 5 == 0 ? 1.0f : 0.0f))
            return false;
    return true;
}

static bool restore_stack(struct rs *r, uint32_t mode, const struct sm_matrix_stack *m)
{
    if (m->depth == 0 && is_identity(m->m[0]))
        return false;
    rs_emit(r, GLR_CMD_glMatrixMode, 1, U(mode));
    for (uint32_t i = 0; i <= m->depth && i < SM_MATRIX_STACK_DEPTH; i++) {
        if (i)
            rs_emit(r, GLR_CMD_glPushMatrix, 0);
        struct glr_call *c = rs_emit(r, GLR_CMD_glLoadMatrixf, 1, U(0));
        rs_blob_own(r, c, 0, m->m[i], sizeof m->m[i]);
    }
    return true;
}

static void restore_matrices(struct rs *r, const struct sm_context_state *st)
{
    bool changed = restore_stack(r, GL_MODELVIEW, &st->modelview);
    changed |= restore_stack(r, GL_PROJECTION, &st->projection);
    for (uint32_t u = 0; u < SM_MAX_TEXTURE_COORDS; u++) {
        const struct sm_matrix_stack *m = &st->texture[u];
        if (m->depth == 0 && is_identity(m->m[0]))
            continue;
        rs_emit(r, GLR_CMD_glActiveTexture, 1, U(GL_TEXTURE0 + u));
        changed |= restore_stack(r, GL_TEXTURE, m);
    }
    if (changed || st->matrix_mode != GL_MODELVIEW)
        rs_emit(r, GLR_CMD_glMatrixMode, 1, U(st->matrix_mode));
}

void rs_context_state(struct rs *r)
{
    const struct sm_context_state *st = &r->c->st;
    struct sm_context_state d;
    sm_context_state_defaults(&d);
    /* Enables: every recorded cap that differs from its default. */
    for (uint32_t i = 0; i < st->n_caps; i++) {
        const struct sm_cap *c = &st->caps[i];
        if (c->enabled == sm_cap_default(c->cap))
            continue;
        bool per_unit = c->cap == GL_TEXTURE_1D || c->cap == GL_TEXTURE_2D ||
                        c->cap == GL_TEXTURE_3D || c->cap == GL_TEXTURE_CUBE_MAP ||
                        c->cap == GL_TEXTURE_RECTANGLE || c->cap == GL_TEXTURE_GEN_S ||
                        c->cap == GL_TEXTURE_GEN_T || c->cap == GL_TEXTURE_GEN_R ||
                        c->cap == GL_TEXTURE_GEN_Q;
        if (per_unit) {
            rs_emit(r, GLR_CMD_glActiveTexture, 1, U(GL_TEXTURE0 + c->index));
            rs_emit(r, c->enabled ? GLR_CMD_glEnable : GLR_CMD_glDisable, 1, U(c->cap));
        } else if (c->index) {
            rs_emit(r, c->enabled ? GLR_CMD_glEnablei : GLR_CMD_glDisablei, 2, U(c->cap), U(c->index));
        } else {
            rs_emit(r, c->enabled ? GLR_CMD_glEnable : GLR_CMD_glDisable, 1, U(c->cap));
        }
    }
    if (r->compat && !r->gles)
        restore_matrices(r, st);
    rs_emit(r, GLR_CMD_glActiveTexture, 1, U(GL_TEXTURE0 + st->active_texture));
    restore_viewports(r, st, &d);
    restore_blend(r, st, &d);
    restore_depth_stencil(r, st, &d);
    if (memcmp(st->clear_color, d.clear_color, sizeof st->clear_color))
        rs_emit(r, GLR_CMD_glClearColor, 4, F(st->clear_color[0]), F(st->clear_color[1]),
                F(st->clear_color[2]), F(st->clear_color[3]));
    if (st->clear_depth != d.clear_depth) {
        if (r->gles)
            rs_emit(r, GLR_CMD_glClearDepthf, 1, F((float)st->clear_depth));
        else
            rs_emit(r, GLR_CMD_glClearDepth, 1, D(st->clear_depth));
    }
    if (st->clear_stencil != d.clear_stencil)
        rs_emit(r, GLR_CMD_glClearStencil, 1, I(st->clear_stencil));
    if (st->cull_face_mode != d.cull_face_mode)
        rs_emit(r, GLR_CMD_glCullFace, 1, U(st->cull_face_mode));
    if (st->front_face != d.front_face)
        rs_emit(r, GLR_CMD_glFrontFace, 1, U(st->front_face));
    if (st->polygon_mode[0] == st->polygon_mode[1]) {
        if (st->polygon_mode[0] != d.polygon_mode[0])
            rs_emit(r, GLR_CMD_glPolygonMode, 2, U(GL_FRONT_AND_BACK), U(st->polygon_mode[0]));
    } else {
        rs_emit(r, GLR_CMD_glPolygonMode, 2, U(GL_FRONT), U(st->polygon_mode[0]));
        rs_emit(r, GLR_CMD_glPolygonMode, 2, U(GL_BACK), U(st->polygon_mode[1]));
    }
    if (st->polygon_offset_clamp != 0.0f)
        rs_emit(r, GLR_CMD_glPolygonOffsetClamp, 3, F(st->polygon_offset_factor),
                F(st->polygon_offset_units), F(st->polygon_offset_clamp));
    else if (st->polygon_offset_factor != 0.0f || st->polygon_offset_units != 0.0f)
        rs_emit(r, GLR_CMD_glPolygonOffset, 2, F(st->polygon_offset_factor),
                F(st->polygon_offset_units));
    if (st->line_width != d.line_width)
        rs_emit(r, GLR_CMD_glLineWidth, 1, F(st->line_width));
    if (st->point_size != d.point_size)
        rs_emit(r, GLR_CMD_glPointSize, 1, F(st->point_size));
    if (st->point_sprite_coord_origin != d.point_sprite_coord_origin)
        rs_emit(r, GLR_CMD_glPointParameteri, 2, U(GL_POINT_SPRITE_COORD_ORIGIN),
                I((int32_t)st->point_sprite_coord_origin));
    if (st->sample_coverage_value != d.sample_coverage_value ||
        st->sample_coverage_invert != d.sample_coverage_invert)
        rs_emit(r, GLR_CMD_glSampleCoverage, 2, F(st->sample_coverage_value),
                U(st->sample_coverage_invert));
    if (st->sample_mask != d.sample_mask)
        rs_emit(r, GLR_CMD_glSampleMaski, 2, U(0), U(st->sample_mask));
    if (st->min_sample_shading != d.min_sample_shading)
        rs_emit(r, GLR_CMD_glMinSampleShading, 1, F(st->min_sample_shading));
    if (st->provoking_vertex != d.provoking_vertex)
        rs_emit(r, GLR_CMD_glProvokingVertex, 1, U(st->provoking_vertex));
    if (st->primitive_restart_index != d.primitive_restart_index)
        rs_emit(r, GLR_CMD_glPrimitiveRestartIndex, 1, U(st->primitive_restart_index));
    if (st->patch_vertices != d.patch_vertices)
        rs_emit(r, GLR_CMD_glPatchParameteri, 2, U(GL_PATCH_VERTICES), I(st->patch_vertices));
    if (memcmp(st->patch_outer, d.patch_outer, sizeof st->patch_outer)) {
        struct glr_call *c = rs_emit(r, GLR_CMD_glPatchParameterfv, 2,
                                     U(GL_PATCH_DEFAULT_OUTER_LEVEL), U(0));
        rs_blob_own(r, c, 1, st->patch_outer, sizeof st->patch_outer);
    }
    if (memcmp(st->patch_inner, d.patch_inner, sizeof st->patch_inner)) {
        struct glr_call *c = rs_emit(r, GLR_CMD_glPatchParameterfv, 2,
                                     U(GL_PATCH_DEFAULT_INNER_LEVEL), U(0));
        rs_blob_own(r, c, 1, st->patch_inner, sizeof st->patch_inner);
    }
    if (st->clip_origin != d.clip_origin || st->clip_depth_mode != d.clip_depth_mode)
        rs_emit(r, GLR_CMD_glClipControl, 2, U(st->clip_origin), U(st->clip_depth_mode));
    restore_pixel_store(r, &st->pack, true);
    restore_pixel_store(r, &st->unpack, false);
    for (uint32_t i = 0; i < st->n_hints; i++)
        rs_emit(r, GLR_CMD_glHint, 2, U(st->hints[i].target), U(st->hints[i].mode));
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_attrib_value *v = &st->attrib_value[i];
        if (!memcmp(v, &d.attrib_value[i], sizeof *v))
            continue;
        static const uint32_t cmds[4] = { GLR_CMD_glVertexAttrib4fv, GLR_CMD_glVertexAttribI4iv,
                                          GLR_CMD_glVertexAttribI4uiv, GLR_CMD_glVertexAttribL4dv };
        struct glr_call *c = rs_emit(r, cmds[v->kind & 3], 2, U(i), U(0));
        rs_blob_own(r, c, 1, &v->v, v->kind == SM_VK_DOUBLE ? 32 : 16);
    }
}

/* Work in progress at capture time: active queries and transform feedback. */
void rs_context_finish(struct rs *r)
{
    const struct sm_context_state *st = &r->c->st;
    for (uint32_t i = 0; i < st->n_active_queries; i++) {
        const struct sm_active_query *q = &st->active_queries[i];
        if (q->index)
            rs_emit(r, GLR_CMD_glBeginQueryIndexed, 3, U(q->target), U(q->index), U(q->name));
        else
            rs_emit(r, GLR_CMD_glBeginQuery, 2, U(q->target), U(q->name));
    }
    const struct sm_transform_feedback *t = st->tfo ? sm_map_get(&r->c->tfos, st->tfo)
                                                    : &r->c->default_tfo;
    if (t && t->active) {
        rs_emit(r, GLR_CMD_glBeginTransformFeedback, 1, U(t->primitive_mode));
        if (t->paused)
            rs_emit(r, GLR_CMD_glPauseTransformFeedback, 0);
    }
}

bool sm_restore_calls(const struct sm_state *s, struct sm_call_list *out)
{
    if (!s || !out)
        return false;
    /* Shared objects once per group, on the group's first context. */
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct sm_share_group *grp = s->groups[g];
        for (size_t i = 0; i < s->n_ctx; i++) {
            if (s->ctx[i]->share != grp)
                continue;
            struct rs r = { out, s->ctx[i]->id, s->ctx[i], s->ctx[i]->api == SM_API_GLES,
                            s->ctx[i]->api == SM_API_GL_COMPAT, 0 };
            rs_shared_objects(&r, grp);
            break;
        }
    }
    for (size_t i = 0; i < s->n_ctx; i++) {
        const struct sm_context *c = s->ctx[i];
        struct rs r = { out, c->id, c, c->api == SM_API_GLES, c->api == SM_API_GL_COMPAT, 0 };
        rs_context_objects(&r);
        rs_context_bindings(&r);
        rs_context_state(&r);
        rs_context_finish(&r);
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        for (size_t i = 0; i < s->n_ctx; i++) {
            if (s->ctx[i]->share != s->groups[g])
                continue;
            struct rs r = { out, s->ctx[i]->id, s->ctx[i], false, false, 0 };
            rs_shared_finish(&r, s->groups[g]);
            break;
        }
    }
    return !out->failed;
}
