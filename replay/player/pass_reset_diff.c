/* Calls that set back what a frame changed: every field compared between the model of the live
 * contexts (p->end) and the initial state (p->init); only differing fields are emitted, so a GLES
 * context never receives a call for state it cannot have unless the frame itself changed it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"
/* Every GL enum from the registry (guarded: the names glcorearb.h already has keep its definition). */
#include "registry/glr_gl_enums.h"

#define EMIT(ctx, cmd, n, ...) pr_emit(&p->reset, ctx, GLR_CMD_##cmd, n, __VA_ARGS__)
#define DIFF(a, b) (memcmp(&(a), &(b), sizeof(a)) != 0)

/* ---------------------------------------------------------------- texture and sampler parameters */

static void sampling(struct glrh_reset *p, uint32_t ctx, bool texture, uint32_t obj, const struct sm_sampling *a,
                     const struct sm_sampling *b)
{
    uint32_t ci = texture ? GLR_CMD_glTexParameteri : GLR_CMD_glSamplerParameteri;
    uint32_t cf = texture ? GLR_CMD_glTexParameterf : GLR_CMD_glSamplerParameterf;
    struct { uint32_t pname; uint32_t v, w; } ints[] = {
        { GL_TEXTURE_MIN_FILTER, a->min_filter, b->min_filter }, { GL_TEXTURE_MAG_FILTER, a->mag_filter, b->mag_filter },
        { GL_TEXTURE_WRAP_S, a->wrap_s, b->wrap_s }, { GL_TEXTURE_WRAP_T, a->wrap_t, b->wrap_t },
        { GL_TEXTURE_WRAP_R, a->wrap_r, b->wrap_r }, { GL_TEXTURE_COMPARE_MODE, a->compare_mode, b->compare_mode },
        { GL_TEXTURE_COMPARE_FUNC, a->compare_func, b->compare_func },
        { GL_TEXTURE_SRGB_DECODE_EXT, a->srgb_decode, b->srgb_decode },
        { GL_TEXTURE_BASE_LEVEL, (uint32_t)a->base_level, (uint32_t)b->base_level },
        { GL_TEXTURE_MAX_LEVEL, (uint32_t)a->max_level, (uint32_t)b->max_level },
        { GL_TEXTURE_SWIZZLE_R, a->swizzle[0], b->swizzle[0] }, { GL_TEXTURE_SWIZZLE_G, a->swizzle[1], b->swizzle[1] },
        { GL_TEXTURE_SWIZZLE_B, a->swizzle[2], b->swizzle[2] }, { GL_TEXTURE_SWIZZLE_A, a->swizzle[3], b->swizzle[3] },
        { GL_DEPTH_STENCIL_TEXTURE_MODE, a->depth_stencil_mode, b->depth_stencil_mode },
        { GL_DEPTH_TEXTURE_MODE, a->depth_texture_mode, b->depth_texture_mode },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (!texture && i >= 8)
            break;
        if (ints[i].v != ints[i].w)
            pr_emit(&p->reset, ctx, ci, 3, PR_U(obj), PR_U(ints[i].pname), PR_I((int32_t)ints[i].v));
    }
    struct { uint32_t pname; float v, w; } fl[] = {
        { GL_TEXTURE_MIN_LOD, a->min_lod, b->min_lod }, { GL_TEXTURE_MAX_LOD, a->max_lod, b->max_lod },
        { GL_TEXTURE_LOD_BIAS, a->lod_bias, b->lod_bias }, { GL_TEXTURE_MAX_ANISOTROPY, a->max_anisotropy, b->max_anisotropy },
    };
    for (size_t i = 0; i < sizeof fl / sizeof fl[0]; i++)
        if (fl[i].v != fl[i].w)
            pr_emit(&p->reset, ctx, cf, 3, PR_U(obj), PR_U(fl[i].pname), PR_F(fl[i].v));
    if (DIFF(a->border, b->border) || a->border_kind != b->border_kind) {
        uint32_t cmd = a->border_kind == SM_VK_INT ? (texture ? GLR_CMD_glTexParameterIiv : GLR_CMD_glSamplerParameterIiv)
                     : a->border_kind == SM_VK_UINT ? (texture ? GLR_CMD_glTexParameterIuiv : GLR_CMD_glSamplerParameterIuiv)
                     : (texture ? GLR_CMD_glTexParameterfv : GLR_CMD_glSamplerParameterfv);
        struct glr_call *c = pr_emit(&p->reset, ctx, cmd, 3, PR_U(obj), PR_U(GL_TEXTURE_BORDER_COLOR), PR_U(0));
        pr_blob(&p->reset, c, 2, a->border, 16);
    }
}

/* ---------------------------------------------------------------- program uniforms */

static uint32_t uniform_cmd(const struct sm_uniform *u)
{
    static const char *const sfx[] = { "f", "i", "ui", "d", "i64", "ui64" };
    char name[48];
    if (u->kind > SM_VK_UINT64)
        return GLR_CMD_COUNT;
    if (u->cols == 1)
        snprintf(name, sizeof name, "glUniform%u%sv%s", u->rows, sfx[u->kind], u->kind >= SM_VK_INT64 ? "ARB" : "");
    else if (u->cols == u->rows)
        snprintf(name, sizeof name, "glUniformMatrix%u%sv", u->cols, sfx[u->kind]);
    else
        snprintf(name, sizeof name, "glUniformMatrix%ux%u%sv", u->cols, u->rows, sfx[u->kind]);
    int id = glr_cmd_find(name);
    return id < 0 ? GLR_CMD_COUNT : (uint32_t)id;
}

static void uniform(struct glrh_reset *p, uint32_t ctx, const struct sm_uniform *u, bool zero)
{
    uint32_t cmd = uniform_cmd(u);
    if (cmd == GLR_CMD_COUNT)
        return;
    bool wide = u->kind == SM_VK_DOUBLE || u->kind == SM_VK_INT64 || u->kind == SM_VK_UINT64;
    size_t size = (size_t)u->cols * u->rows * (wide ? 8 : 4);
    uint8_t zeros[128] = { 0 };
    struct glr_call *c;
    if (u->cols > 1) {
        c = pr_emit(&p->reset, ctx, cmd, 4, PR_I(u->location), PR_I(1), PR_U(0), PR_U(0));
        pr_blob(&p->reset, c, 3, zero ? zeros : u->data, size);
    } else {
        c = pr_emit(&p->reset, ctx, cmd, 3, PR_I(u->location), PR_I(1), PR_U(0));
        pr_blob(&p->reset, c, 2, zero ? zeros : u->data, size);
    }
}

/* Whether two programs' uniform or storage block bindings (block index -> binding point) agree. */
static bool block_bindings_same(const struct sm_name_binding *a, uint32_t na, const struct sm_name_binding *b,
                                uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (a[i].index != b[i].index || a[i].index2 != b[i].index2)
            return false;
    return true;
}

static void program(struct glrh_reset *p, uint32_t ctx, const struct sm_program *a, const struct sm_program *b,
                    bool relinked)
{
    size_t before = p->reset.count;
    EMIT(ctx, glUseProgram, 1, PR_U(a->name));
    size_t after_use = p->reset.count;
    for (uint32_t i = 0; i < a->n_uniforms; i++) {
        const struct sm_uniform *u = &a->uniforms[i], *v = relinked ? NULL : sm_program_uniform(b, u->location);
        if (!v || DIFF(*u, *v))
            uniform(p, ctx, u, false);
    }
    if (!relinked)
        for (uint32_t i = 0; i < b->n_uniforms; i++)
            if (!sm_program_uniform(a, b->uniforms[i].location))
                uniform(p, ctx, &b->uniforms[i], true);   /* set by the frame only: back to 0 */
    if (p->reset.count == after_use)
        p->reset.count = before;   /* nothing to set: drop the glUseProgram */
    if (!block_bindings_same(a->ubo_bindings, a->n_ubo_bindings, b->ubo_bindings, b->n_ubo_bindings) ||
        relinked)
        for (uint32_t i = 0; i < a->n_ubo_bindings; i++)
            EMIT(ctx, glUniformBlockBinding, 3, PR_U(a->name), PR_U(a->ubo_bindings[i].index),
                 PR_U(a->ubo_bindings[i].index2));
    if (!block_bindings_same(a->ssbo_bindings, a->n_ssbo_bindings, b->ssbo_bindings, b->n_ssbo_bindings) ||
        relinked)
        for (uint32_t i = 0; i < a->n_ssbo_bindings; i++)
            EMIT(ctx, glShaderStorageBlockBinding, 3, PR_U(a->name), PR_U(a->ssbo_bindings[i].index),
                 PR_U(a->ssbo_bindings[i].index2));
}

/* ---------------------------------------------------------------- vertex arrays and framebuffers */

static bool vao(struct glrh_reset *p, uint32_t ctx, bool core, const struct sm_vao *a, const struct sm_vao *b)
{
    if (!DIFF(*a, *b))
        return true;
    if (!a->name && core)
        return true;   /* no default vertex array in a core context: nothing the frame can use */
    if (DIFF(a->legacy, b->legacy))
        return pr_fail(p, "the frame changes legacy client arrays of vertex array %u", a->name);
    EMIT(ctx, glBindVertexArray, 1, PR_U(a->name));
    if (a->element_buffer != b->element_buffer)
        EMIT(ctx, glBindBuffer, 2, PR_U(GL_ELEMENT_ARRAY_BUFFER), PR_U(a->element_buffer));
    bool binding_done[SM_MAX_VERTEX_ATTRIBS] = { false };
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_vertex_attrib *x = &a->attrib[i], *y = &b->attrib[i];
        if (x->enabled != y->enabled) {
            if (x->enabled)
                EMIT(ctx, glEnableVertexAttribArray, 1, PR_U(i));
            else
                EMIT(ctx, glDisableVertexAttribArray, 1, PR_U(i));
        }
        struct sm_vertex_attrib x2 = *x, y2 = *y;
        x2.enabled = y2.enabled = false;
        bool classic = x->binding == i && x->relative_offset == 0;
        bool fmt_diff = DIFF(x2, y2) || (classic && DIFF(a->binding[i], b->binding[i]));
        if (!fmt_diff)
            continue;
        if (classic) {
            const struct sm_vertex_binding *vb = &a->binding[i];
            binding_done[i] = true;
            if (!vb->buffer && x->pointer)
                continue;   /* a client-side array: each draw's CLIENT_ARRAY record sets its pointer */
            EMIT(ctx, glBindBuffer, 2, PR_U(GL_ARRAY_BUFFER), PR_U(vb->buffer));
            if (x->is_long)
                EMIT(ctx, glVertexAttribLPointer, 5, PR_U(i), PR_I(x->size), PR_U(x->type), PR_I(x->stride),
                     PR_U(x->pointer));
            else if (x->integer)
                EMIT(ctx, glVertexAttribIPointer, 5, PR_U(i), PR_I(x->size), PR_U(x->type), PR_I(x->stride),
                     PR_U(x->pointer));
            else
                EMIT(ctx, glVertexAttribPointer, 6, PR_U(i), PR_I(x->size), PR_U(x->type), PR_U(x->normalized),
                     PR_I(x->stride), PR_U(x->pointer));
            if (vb->divisor != b->binding[i].divisor)
                EMIT(ctx, glVertexAttribDivisor, 2, PR_U(i), PR_U(vb->divisor));
        } else {
            if (x->is_long)
                EMIT(ctx, glVertexAttribLFormat, 4, PR_U(i), PR_I(x->size), PR_U(x->type), PR_U(x->relative_offset));
            else if (x->integer)
                EMIT(ctx, glVertexAttribIFormat, 4, PR_U(i), PR_I(x->size), PR_U(x->type), PR_U(x->relative_offset));
            else
                EMIT(ctx, glVertexAttribFormat, 5, PR_U(i), PR_I(x->size), PR_U(x->type), PR_U(x->normalized),
                     PR_U(x->relative_offset));
            EMIT(ctx, glVertexAttribBinding, 2, PR_U(i), PR_U(x->binding));
        }
    }
    for (uint32_t j = 0; j < SM_MAX_VERTEX_ATTRIBS; j++) {
        const struct sm_vertex_binding *x = &a->binding[j], *y = &b->binding[j];
        if (binding_done[j] || !DIFF(*x, *y))
            continue;
        EMIT(ctx, glBindVertexBuffer, 4, PR_U(j), PR_U(x->buffer), PR_U(x->offset), PR_I(x->stride));
        if (x->divisor != y->divisor)
            EMIT(ctx, glVertexBindingDivisor, 2, PR_U(j), PR_U(x->divisor));
    }
    return true;
}

static void attach(struct glrh_reset *p, uint32_t ctx, uint32_t att, const struct sm_attachment *a)
{
    if (a->type == GL_TEXTURE && a->name) {
        if (a->layered)
            EMIT(ctx, glFramebufferTexture, 4, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(a->name), PR_I(a->level));
        else if (a->textarget == GL_TEXTURE_3D)
            EMIT(ctx, glFramebufferTexture3D, 6, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(a->textarget),
                 PR_U(a->name), PR_I(a->level), PR_I(a->layer));
        else if (a->textarget == GL_TEXTURE_1D)
            EMIT(ctx, glFramebufferTexture1D, 5, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(a->textarget),
                 PR_U(a->name), PR_I(a->level));
        else if (a->textarget)
            EMIT(ctx, glFramebufferTexture2D, 5, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(a->textarget),
                 PR_U(a->name), PR_I(a->level));
        else
            EMIT(ctx, glFramebufferTextureLayer, 5, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(a->name),
                 PR_I(a->level), PR_I(a->layer));
    } else {
        EMIT(ctx, glFramebufferRenderbuffer, 4, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(att), PR_U(GL_RENDERBUFFER),
             PR_U(a->type == GL_RENDERBUFFER ? a->name : 0));
    }
}

static bool fbo(struct glrh_reset *p, uint32_t ctx, const struct sm_framebuffer *a, const struct sm_framebuffer *b)
{
    if (!DIFF(*a, *b))
        return true;
    if (a->default_width != b->default_width || a->default_height != b->default_height ||
        a->default_layers != b->default_layers || a->default_samples != b->default_samples)
        return pr_fail(p, "the frame changes default parameters of framebuffer %u", a->name);
    EMIT(ctx, glBindFramebuffer, 2, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(a->name));
    if (a->name) {
        for (uint32_t i = 0; i < SM_MAX_COLOR_ATTACH; i++)
            if (DIFF(a->color[i], b->color[i]))
                attach(p, ctx, GL_COLOR_ATTACHMENT0 + i, &a->color[i]);
        if (DIFF(a->depth, b->depth))
            attach(p, ctx, GL_DEPTH_ATTACHMENT, &a->depth);
        if (DIFF(a->stencil, b->stencil))
            attach(p, ctx, GL_STENCIL_ATTACHMENT, &a->stencil);
    }
    if (a->n_draw_buffers != b->n_draw_buffers || DIFF(a->draw_buffers, b->draw_buffers)) {
        struct glr_call *c = EMIT(ctx, glDrawBuffers, 2, PR_I(a->n_draw_buffers), PR_U(0));
        pr_blob(&p->reset, c, 1, a->draw_buffers, a->n_draw_buffers * sizeof a->draw_buffers[0]);
    }
    if (a->read_buffer != b->read_buffer) {
        EMIT(ctx, glBindFramebuffer, 2, PR_U(GL_READ_FRAMEBUFFER), PR_U(a->name));
        EMIT(ctx, glReadBuffer, 1, PR_U(a->read_buffer));
    }
    return true;
}

/* ---------------------------------------------------------------- objects */

static uint32_t *names_of(const struct sm_context *c, enum sm_object_kind k, size_t *n, bool with_zero)
{
    size_t m = sm_object_names(c, k, NULL, 0);
    uint32_t *v = malloc((m + 1) * sizeof *v);
    if (!v)
        return NULL;
    sm_object_names(c, k, v + 1, m);
    v[0] = 0;
    *n = m + (with_zero ? 1 : 0);
    if (!with_zero)
        memmove(v, v + 1, m * sizeof *v);
    return v;
}

bool pr_diff_objects(struct glrh_reset *p)
{
    for (size_t ci = 0; ci < sm_context_count(p->init) && !p->failed; ci++) {
        const struct sm_context *a = sm_context_at(p->init, ci);
        uint32_t id = sm_context_id(a);
        const struct sm_context *b = sm_context_get(p->end, id);
        if (!b)
            continue;
        size_t from = p->reset.count, n;
        uint32_t *names;
        if (sm_context_share_id(a) == id) {
            names = names_of(a, SM_OBJ_TEXTURE, &n, false);
            for (size_t j = 0; names && j < n; j++) {
                const struct sm_texture *x = sm_get_texture(a, names[j]), *y = sm_get_texture(b, names[j]);
                if (!y || !x->target || x->target == GL_TEXTURE_BUFFER || !DIFF(x->params, y->params))
                    continue;
                EMIT(id, glBindTexture, 2, PR_U(x->target), PR_U(x->name));
                sampling(p, id, true, x->target, &x->params, &y->params);
            }
            free(names);
            names = names_of(a, SM_OBJ_SAMPLER, &n, false);
            for (size_t j = 0; names && j < n; j++) {
                const struct sm_sampler *x = sm_get_sampler(a, names[j]), *y = sm_get_sampler(b, names[j]);
                if (y && DIFF(x->params, y->params))
                    sampling(p, id, false, x->name, &x->params, &y->params);
            }
            free(names);
            names = names_of(a, SM_OBJ_PROGRAM, &n, false);
            for (size_t j = 0; names && j < n; j++) {
                const struct sm_program *x = sm_get_program(a, names[j]), *y = sm_get_program(b, names[j]);
                if (y && x->link_count)
                    program(p, id, x, y, pr_set_has(&p->relink, pr_key(a, names[j])));
            }
            free(names);
        }
        bool core = sm_context_api(a, NULL, NULL) == SM_API_GL_CORE;
        names = names_of(a, SM_OBJ_VAO, &n, true);
        for (size_t j = 0; names && j < n && !p->failed; j++) {
            const struct sm_vao *x = sm_get_vao(a, names[j]), *y = sm_get_vao(b, names[j]);
            if (x && y)
                vao(p, id, core, x, y);
        }
        free(names);
        names = names_of(a, SM_OBJ_FRAMEBUFFER, &n, true);
        for (size_t j = 0; names && j < n && !p->failed; j++) {
            const struct sm_framebuffer *x = sm_get_framebuffer(a, names[j]), *y = sm_get_framebuffer(b, names[j]);
            if (x && y)
                fbo(p, id, x, y);
        }
        free(names);
        names = names_of(a, SM_OBJ_TRANSFORM_FEEDBACK, &n, true);
        for (size_t j = 0; names && j < n && !p->failed; j++) {
            const struct sm_transform_feedback *x = sm_get_transform_feedback(a, names[j]),
                                               *y = sm_get_transform_feedback(b, names[j]);
            if (x && y && DIFF(*x, *y))
                pr_fail(p, "the frame changes transform feedback object %u", names[j]);
        }
        free(names);
        names = names_of(a, SM_OBJ_PIPELINE, &n, false);
        for (size_t j = 0; names && j < n && !p->failed; j++) {
            const struct sm_pipeline *x = sm_get_pipeline(a, names[j]), *y = sm_get_pipeline(b, names[j]);
            if (x && y && DIFF(*x, *y))
                pr_fail(p, "the frame changes program pipeline %u", names[j]);
        }
        free(names);
        pr_apply_from(p, from);
    }
    return !p->failed;
}

/* ---------------------------------------------------------------- context state */

static bool all_same(const void *arr, size_t elem, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (memcmp((const char *)arr, (const char *)arr + i * elem, elem))
            return false;
    return true;
}

static void enable(struct glrh_reset *p, uint32_t ctx, uint32_t cap, bool on)
{
    pr_emit(&p->reset, ctx, on ? GLR_CMD_glEnable : GLR_CMD_glDisable, 1, PR_U(cap));
}

static void enable_i(struct glrh_reset *p, uint32_t ctx, uint32_t cap, uint32_t i, bool on)
{
    pr_emit(&p->reset, ctx, on ? GLR_CMD_glEnablei : GLR_CMD_glDisablei, 2, PR_U(cap), PR_U(i));
}

static bool is_unit_cap(uint32_t cap)
{
    return cap == GL_TEXTURE_1D || cap == GL_TEXTURE_2D || cap == GL_TEXTURE_3D || cap == GL_TEXTURE_CUBE_MAP ||
           cap == GL_TEXTURE_RECTANGLE || cap == GL_TEXTURE_GEN_S || cap == GL_TEXTURE_GEN_T || cap == GL_TEXTURE_GEN_R ||
           cap == GL_TEXTURE_GEN_Q;
}

/* Returns whether it switched the active texture unit (legacy per-unit enables). */
static bool caps(struct glrh_reset *p, uint32_t ctx, const struct sm_context *a, const struct sm_context *b)
{
    bool unit_touched = false;
    const struct sm_context_state *sa = sm_context_state(a), *sb = sm_context_state(b);
    for (int pass = 0; pass < 2; pass++) {
        const struct sm_context_state *s = pass ? sb : sa;
        for (uint32_t i = 0; i < s->n_caps; i++) {
            const struct sm_cap *c = &s->caps[i];
            /* Each (cap, index) once: from a's list, then those only in b's. */
            if (pass) {
                bool in_a = false;
                for (uint32_t j = 0; j < sa->n_caps && !in_a; j++)
                    in_a = sa->caps[j].cap == c->cap && sa->caps[j].index == c->index;
                if (in_a)
                    continue;
            }
            bool on = sm_is_enabled(a, c->cap, c->index);
            if (on == sm_is_enabled(b, c->cap, c->index))
                continue;
            if (is_unit_cap(c->cap)) {
                EMIT(ctx, glActiveTexture, 1, PR_U(GL_TEXTURE0 + c->index));
                unit_touched = true;
                enable(p, ctx, c->cap, on);
            } else if (c->index) {
                enable_i(p, ctx, c->cap, c->index, on);
            } else {
                enable(p, ctx, c->cap, on);
            }
        }
    }
    if (DIFF(sa->blend_enabled, sb->blend_enabled)) {
        if (all_same(sa->blend_enabled, sizeof sa->blend_enabled[0], SM_MAX_DRAW_BUFFERS))
            enable(p, ctx, GL_BLEND, sa->blend_enabled[0]);
        else
            for (uint32_t i = 0; i < SM_MAX_DRAW_BUFFERS; i++)
                if (sa->blend_enabled[i] != sb->blend_enabled[i])
                    enable_i(p, ctx, GL_BLEND, i, sa->blend_enabled[i]);
    }
    if (DIFF(sa->scissor_test, sb->scissor_test)) {
        if (all_same(sa->scissor_test, sizeof sa->scissor_test[0], SM_MAX_VIEWPORTS))
            enable(p, ctx, GL_SCISSOR_TEST, sa->scissor_test[0]);
        else
            for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
                if (sa->scissor_test[i] != sb->scissor_test[i])
                    enable_i(p, ctx, GL_SCISSOR_TEST, i, sa->scissor_test[i]);
    }
    return unit_touched;
}

static void fixed_state(struct glrh_reset *p, uint32_t ctx, bool gles, const struct sm_context_state *a,
                        const struct sm_context_state *b)
{
    if (DIFF(a->viewport, b->viewport)) {
        if (all_same(a->viewport, sizeof a->viewport[0], SM_MAX_VIEWPORTS))
            EMIT(ctx, glViewport, 4, PR_I((int32_t)a->viewport[0][0]), PR_I((int32_t)a->viewport[0][1]),
                 PR_I((int32_t)a->viewport[0][2]), PR_I((int32_t)a->viewport[0][3]));
        else
            for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
                EMIT(ctx, glViewportIndexedf, 5, PR_U(i), PR_F(a->viewport[i][0]), PR_F(a->viewport[i][1]),
                     PR_F(a->viewport[i][2]), PR_F(a->viewport[i][3]));
    }
    if (DIFF(a->scissor, b->scissor)) {
        if (all_same(a->scissor, sizeof a->scissor[0], SM_MAX_VIEWPORTS))
            EMIT(ctx, glScissor, 4, PR_I(a->scissor[0][0]), PR_I(a->scissor[0][1]), PR_I(a->scissor[0][2]),
                 PR_I(a->scissor[0][3]));
        else
            for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
                EMIT(ctx, glScissorIndexed, 5, PR_U(i), PR_I(a->scissor[i][0]), PR_I(a->scissor[i][1]),
                     PR_I(a->scissor[i][2]), PR_I(a->scissor[i][3]));
    }
    if (DIFF(a->depth_range, b->depth_range)) {
        if (gles)
            EMIT(ctx, glDepthRangef, 2, PR_F((float)a->depth_range[0][0]), PR_F((float)a->depth_range[0][1]));
        else if (all_same(a->depth_range, sizeof a->depth_range[0], SM_MAX_VIEWPORTS))
            EMIT(ctx, glDepthRange, 2, PR_D(a->depth_range[0][0]), PR_D(a->depth_range[0][1]));
        else
            for (uint32_t i = 0; i < SM_MAX_VIEWPORTS; i++)
                EMIT(ctx, glDepthRangeIndexed, 3, PR_U(i), PR_D(a->depth_range[i][0]), PR_D(a->depth_range[i][1]));
    }
    if (DIFF(a->blend, b->blend)) {
        if (all_same(a->blend, sizeof a->blend[0], SM_MAX_DRAW_BUFFERS)) {
            const struct sm_blend *x = &a->blend[0];
            EMIT(ctx, glBlendFuncSeparate, 4, PR_U(x->src_rgb), PR_U(x->dst_rgb), PR_U(x->src_alpha), PR_U(x->dst_alpha));
            EMIT(ctx, glBlendEquationSeparate, 2, PR_U(x->eq_rgb), PR_U(x->eq_alpha));
        } else {
            for (uint32_t i = 0; i < SM_MAX_DRAW_BUFFERS; i++) {
                const struct sm_blend *x = &a->blend[i];
                if (!DIFF(*x, b->blend[i]))
                    continue;
                EMIT(ctx, glBlendFuncSeparatei, 5, PR_U(i), PR_U(x->src_rgb), PR_U(x->dst_rgb), PR_U(x->src_alpha),
                     PR_U(x->dst_alpha));
                EMIT(ctx, glBlendEquationSeparatei, 3, PR_U(i), PR_U(x->eq_rgb), PR_U(x->eq_alpha));
            }
        }
    }
    if (DIFF(a->blend_color, b->blend_color))
        EMIT(ctx, glBlendColor, 4, PR_F(a->blend_color[0]), PR_F(a->blend_color[1]), PR_F(a->blend_color[2]),
             PR_F(a->blend_color[3]));
    if (DIFF(a->color_mask, b->color_mask)) {
        if (all_same(a->color_mask, sizeof a->color_mask[0], SM_MAX_DRAW_BUFFERS))
            EMIT(ctx, glColorMask, 4, PR_U(a->color_mask[0][0]), PR_U(a->color_mask[0][1]), PR_U(a->color_mask[0][2]),
                 PR_U(a->color_mask[0][3]));
        else
            for (uint32_t i = 0; i < SM_MAX_DRAW_BUFFERS; i++)
                EMIT(ctx, glColorMaski, 5, PR_U(i), PR_U(a->color_mask[i][0]), PR_U(a->color_mask[i][1]),
                     PR_U(a->color_mask[i][2]), PR_U(a->color_mask[i][3]));
    }
    if (a->logic_op != b->logic_op)
        EMIT(ctx, glLogicOp, 1, PR_U(a->logic_op));
    if (a->depth_func != b->depth_func)
        EMIT(ctx, glDepthFunc, 1, PR_U(a->depth_func));
    if (a->depth_mask != b->depth_mask)
        EMIT(ctx, glDepthMask, 1, PR_U(a->depth_mask));
    static const uint32_t faces[2] = { GL_FRONT, GL_BACK };
    for (int f = 0; f < 2; f++) {
        const struct sm_stencil_face *x = &a->stencil[f], *y = &b->stencil[f];
        if (x->func != y->func || x->ref != y->ref || x->value_mask != y->value_mask)
            EMIT(ctx, glStencilFuncSeparate, 4, PR_U(faces[f]), PR_U(x->func), PR_I(x->ref), PR_U(x->value_mask));
        if (x->fail != y->fail || x->zfail != y->zfail || x->zpass != y->zpass)
            EMIT(ctx, glStencilOpSeparate, 4, PR_U(faces[f]), PR_U(x->fail), PR_U(x->zfail), PR_U(x->zpass));
        if (x->write_mask != y->write_mask)
            EMIT(ctx, glStencilMaskSeparate, 2, PR_U(faces[f]), PR_U(x->write_mask));
    }
    if (DIFF(a->clear_color, b->clear_color))
        EMIT(ctx, glClearColor, 4, PR_F(a->clear_color[0]), PR_F(a->clear_color[1]), PR_F(a->clear_color[2]),
             PR_F(a->clear_color[3]));
    if (a->clear_depth != b->clear_depth) {
        if (gles)
            EMIT(ctx, glClearDepthf, 1, PR_F((float)a->clear_depth));
        else
            EMIT(ctx, glClearDepth, 1, PR_D(a->clear_depth));
    }
    if (a->clear_stencil != b->clear_stencil)
        EMIT(ctx, glClearStencil, 1, PR_I(a->clear_stencil));
    if (a->cull_face_mode != b->cull_face_mode)
        EMIT(ctx, glCullFace, 1, PR_U(a->cull_face_mode));
    if (a->front_face != b->front_face)
        EMIT(ctx, glFrontFace, 1, PR_U(a->front_face));
    if (DIFF(a->polygon_mode, b->polygon_mode)) {
        EMIT(ctx, glPolygonMode, 2, PR_U(GL_FRONT), PR_U(a->polygon_mode[0]));
        EMIT(ctx, glPolygonMode, 2, PR_U(GL_BACK), PR_U(a->polygon_mode[1]));
    }
    if (a->polygon_offset_factor != b->polygon_offset_factor || a->polygon_offset_units != b->polygon_offset_units ||
        a->polygon_offset_clamp != b->polygon_offset_clamp) {
        if (a->polygon_offset_clamp != 0.0f || b->polygon_offset_clamp != 0.0f)
            EMIT(ctx, glPolygonOffsetClamp, 3, PR_F(a->polygon_offset_factor), PR_F(a->polygon_offset_units),
                 PR_F(a->polygon_offset_clamp));
        else
            EMIT(ctx, glPolygonOffset, 2, PR_F(a->polygon_offset_factor), PR_F(a->polygon_offset_units));
    }
    if (a->line_width != b->line_width)
        EMIT(ctx, glLineWidth, 1, PR_F(a->line_width));
    if (a->point_size != b->point_size)
        EMIT(ctx, glPointSize, 1, PR_F(a->point_size));
    if (a->point_sprite_coord_origin != b->point_sprite_coord_origin)
        EMIT(ctx, glPointParameteri, 2, PR_U(GL_POINT_SPRITE_COORD_ORIGIN), PR_I((int32_t)a->point_sprite_coord_origin));
    if (a->sample_coverage_value != b->sample_coverage_value || a->sample_coverage_invert != b->sample_coverage_invert)
        EMIT(ctx, glSampleCoverage, 2, PR_F(a->sample_coverage_value), PR_U(a->sample_coverage_invert));
    if (a->sample_mask != b->sample_mask)
        EMIT(ctx, glSampleMaski, 2, PR_U(0), PR_U(a->sample_mask));
    if (a->min_sample_shading != b->min_sample_shading)
        EMIT(ctx, glMinSampleShading, 1, PR_F(a->min_sample_shading));
    if (a->provoking_vertex != b->provoking_vertex)
        EMIT(ctx, glProvokingVertex, 1, PR_U(a->provoking_vertex));
    if (a->primitive_restart_index != b->primitive_restart_index)
        EMIT(ctx, glPrimitiveRestartIndex, 1, PR_U(a->primitive_restart_index));
    if (a->patch_vertices != b->patch_vertices)
        EMIT(ctx, glPatchParameteri, 2, PR_U(GL_PATCH_VERTICES), PR_I(a->patch_vertices));
    if (DIFF(a->patch_outer, b->patch_outer)) {
        struct glr_call *c = EMIT(ctx, glPatchParameterfv, 2, PR_U(GL_PATCH_DEFAULT_OUTER_LEVEL), PR_U(0));
        pr_blob(&p->reset, c, 1, a->patch_outer, sizeof a->patch_outer);
    }
    if (DIFF(a->patch_inner, b->patch_inner)) {
        struct glr_call *c = EMIT(ctx, glPatchParameterfv, 2, PR_U(GL_PATCH_DEFAULT_INNER_LEVEL), PR_U(0));
        pr_blob(&p->reset, c, 1, a->patch_inner, sizeof a->patch_inner);
    }
    if (a->clip_origin != b->clip_origin || a->clip_depth_mode != b->clip_depth_mode)
        EMIT(ctx, glClipControl, 2, PR_U(a->clip_origin), PR_U(a->clip_depth_mode));
    for (int pack = 0; pack < 2; pack++) {
        const struct sm_pixel_store *x = pack ? &a->pack : &a->unpack, *y = pack ? &b->pack : &b->unpack;
        struct { uint32_t pname; int32_t v, w; } e[] = {
            { pack ? GL_PACK_SWAP_BYTES : GL_UNPACK_SWAP_BYTES, x->swap_bytes, y->swap_bytes },
            { pack ? GL_PACK_LSB_FIRST : GL_UNPACK_LSB_FIRST, x->lsb_first, y->lsb_first },
            { pack ? GL_PACK_ROW_LENGTH : GL_UNPACK_ROW_LENGTH, x->row_length, y->row_length },
            { pack ? GL_PACK_IMAGE_HEIGHT : GL_UNPACK_IMAGE_HEIGHT, x->image_height, y->image_height },
            { pack ? GL_PACK_SKIP_ROWS : GL_UNPACK_SKIP_ROWS, x->skip_rows, y->skip_rows },
            { pack ? GL_PACK_SKIP_PIXELS : GL_UNPACK_SKIP_PIXELS, x->skip_pixels, y->skip_pixels },
            { pack ? GL_PACK_SKIP_IMAGES : GL_UNPACK_SKIP_IMAGES, x->skip_images, y->skip_images },
            { pack ? GL_PACK_ALIGNMENT : GL_UNPACK_ALIGNMENT, x->alignment, y->alignment },
        };
        for (size_t i = 0; i < sizeof e / sizeof e[0]; i++)
            if (e[i].v != e[i].w)
                EMIT(ctx, glPixelStorei, 2, PR_U(e[i].pname), PR_I(e[i].v));
    }
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_attrib_value *v = &a->attrib_value[i];
        if (!DIFF(*v, b->attrib_value[i]))
            continue;
        static const uint32_t cmds[4] = { GLR_CMD_glVertexAttrib4fv, GLR_CMD_glVertexAttribI4iv,
                                          GLR_CMD_glVertexAttribI4uiv, GLR_CMD_glVertexAttribL4dv };
        struct glr_call *c = pr_emit(&p->reset, ctx, cmds[v->kind & 3], 2, PR_U(i), PR_U(0));
        pr_blob(&p->reset, c, 1, &v->v, v->kind == SM_VK_DOUBLE ? 32 : 16);
    }
}

static bool hints(struct glrh_reset *p, uint32_t ctx, const struct sm_context_state *a, const struct sm_context_state *b)
{
    for (int pass = 0; pass < 2; pass++) {
        const struct sm_context_state *s = pass ? b : a, *o = pass ? a : b;
        for (uint32_t i = 0; i < s->n_hints; i++) {
            uint32_t mine = s->hints[i].mode, other = GL_DONT_CARE;
            for (uint32_t j = 0; j < o->n_hints; j++)
                if (o->hints[j].target == s->hints[i].target)
                    other = o->hints[j].mode;
            if (mine == other)
                continue;
            EMIT(ctx, glHint, 2, PR_U(s->hints[i].target), PR_U(pass ? other : mine));
        }
    }
    return true;
}

static void indexed(struct glrh_reset *p, uint32_t ctx, uint32_t target, const struct sm_indexed_buffer *a,
                    const struct sm_indexed_buffer *b, int n)
{
    for (int i = 0; i < n; i++) {
        if (!DIFF(a[i], b[i]))
            continue;
        if (a[i].buffer && a[i].size)
            EMIT(ctx, glBindBufferRange, 5, PR_U(target), PR_U(i), PR_U(a[i].buffer), PR_U(a[i].offset), PR_U(a[i].size));
        else
            EMIT(ctx, glBindBufferBase, 3, PR_U(target), PR_U(i), PR_U(a[i].buffer));
    }
}

static void bindings(struct glrh_reset *p, uint32_t ctx, bool compat, bool active_touched,
                     const struct sm_context_state *a, const struct sm_context_state *b)
{
    if (a->vao != b->vao)
        EMIT(ctx, glBindVertexArray, 1, PR_U(a->vao));
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (a->buffer[i] != b->buffer[i])
            EMIT(ctx, glBindBuffer, 2, PR_U(pr_buffer_targets[i]), PR_U(a->buffer[i]));
    indexed(p, ctx, GL_UNIFORM_BUFFER, a->ubo, b->ubo, SM_MAX_UBO_BINDINGS);
    indexed(p, ctx, GL_SHADER_STORAGE_BUFFER, a->ssbo, b->ssbo, SM_MAX_SSBO_BINDINGS);
    indexed(p, ctx, GL_ATOMIC_COUNTER_BUFFER, a->atomic, b->atomic, SM_MAX_ATOMIC_BINDINGS);
    for (uint32_t u = 0; u < SM_MAX_TEXTURE_UNITS; u++) {
        if (!DIFF(a->unit[u].bound, b->unit[u].bound))
            goto sampler;
        EMIT(ctx, glActiveTexture, 1, PR_U(GL_TEXTURE0 + u));
        active_touched = true;
        for (int t = 0; t < SM_TT_COUNT; t++)
            if (a->unit[u].bound[t] != b->unit[u].bound[t])
                EMIT(ctx, glBindTexture, 2, PR_U(pr_tex_targets[t]), PR_U(a->unit[u].bound[t]));
    sampler:
        if (a->unit[u].sampler != b->unit[u].sampler)
            EMIT(ctx, glBindSampler, 2, PR_U(u), PR_U(a->unit[u].sampler));
    }
    if (active_touched || a->active_texture != b->active_texture)
        EMIT(ctx, glActiveTexture, 1, PR_U(GL_TEXTURE0 + a->active_texture));
    if (compat && a->client_active_texture != b->client_active_texture)
        EMIT(ctx, glClientActiveTexture, 1, PR_U(GL_TEXTURE0 + a->client_active_texture));
    for (uint32_t i = 0; i < SM_MAX_IMAGE_UNITS; i++) {
        const struct sm_image_unit *x = &a->image[i];
        if (DIFF(*x, b->image[i]))
            EMIT(ctx, glBindImageTexture, 7, PR_U(i), PR_U(x->texture), PR_I(x->level), PR_U(x->layered),
                 PR_I(x->layer), PR_U(x->access ? x->access : GL_READ_ONLY), PR_U(x->format ? x->format : GL_R8));
    }
    if (a->draw_fbo != b->draw_fbo)
        EMIT(ctx, glBindFramebuffer, 2, PR_U(GL_DRAW_FRAMEBUFFER), PR_U(a->draw_fbo));
    if (a->read_fbo != b->read_fbo)
        EMIT(ctx, glBindFramebuffer, 2, PR_U(GL_READ_FRAMEBUFFER), PR_U(a->read_fbo));
    if (a->renderbuffer != b->renderbuffer)
        EMIT(ctx, glBindRenderbuffer, 2, PR_U(GL_RENDERBUFFER), PR_U(a->renderbuffer));
    if (a->program != b->program)
        EMIT(ctx, glUseProgram, 1, PR_U(a->program));
    if (a->pipeline != b->pipeline)
        EMIT(ctx, glBindProgramPipeline, 1, PR_U(a->pipeline));
    if (a->tfo != b->tfo)
        EMIT(ctx, glBindTransformFeedback, 2, PR_U(GL_TRANSFORM_FEEDBACK), PR_U(a->tfo));
}

bool pr_diff_context(struct glrh_reset *p)
{
    for (size_t ci = 0; ci < sm_context_count(p->init) && !p->failed; ci++) {
        const struct sm_context *a = sm_context_at(p->init, ci);
        uint32_t id = sm_context_id(a);
        const struct sm_context *b = sm_context_get(p->end, id);
        if (!b)
            continue;
        const struct sm_context_state *sa = sm_context_state(a), *sb = sm_context_state(b);
        if (sa->n_active_queries != sb->n_active_queries ||
            (sa->n_active_queries &&
             memcmp(sa->active_queries, sb->active_queries, sa->n_active_queries * sizeof *sa->active_queries)))
            return pr_fail(p, "the frame leaves other queries active than it found on context %u", id);
        enum sm_api api = sm_context_api(a, NULL, NULL);
        bool unit_touched = caps(p, id, a, b);
        fixed_state(p, id, api == SM_API_GLES, sa, sb);
        hints(p, id, sa, sb);
        bindings(p, id, api == SM_API_GL_COMPAT, unit_touched, sa, sb);
    }
    return !p->failed;
}
