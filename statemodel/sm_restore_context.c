/* Restore calls for one context: per-context objects (VAOs, FBOs, transform feedback objects,
 * pipelines, queries), then bindings, then state (only what differs from the GL defaults). */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_restore.h"

#define FOR_SORTED(map, type, var, body)                                  \
    do {                                                                  \
        size_t n_;                                                        \
        uint32_t *k_ = sm_map_sorted_keys(&(map), &n_);                   \
        for (size_t i_ = 0; i_ < n_; i_++) {                              \
            const type *var = sm_map_get(&(map), k_[i_]);                 \
            body;                                                         \
        }                                                                 \
        free(k_);                                                         \
    } while (0)

static void gen_name(struct rs *r, uint32_t cmd, uint32_t name)
{
    struct glr_call *c = rs_emit(r, cmd, 2, U(1), U(0));
    rs_blob_own(r, c, 1, &name, 4);
}

/* ------------------------------------------------------------------ vertex arrays */

static int32_t eff_stride(const struct sm_vertex_attrib *a)
{
    if (a->stride)
        return a->stride;
    uint32_t t = a->type;
    if (t == GL_INT_2_10_10_10_REV || t == GL_UNSIGNED_INT_2_10_10_10_REV ||
        t == GL_UNSIGNED_INT_10F_11F_11F_REV)
        return 4;
    return (a->size == (int32_t)GL_BGRA ? 4 : a->size) * (int32_t)sm_type_size(t);
}

/* The attribute is fully described by one gl*Pointer call. */
static bool classic(const struct sm_vao *v, uint32_t i)
{
    const struct sm_vertex_attrib *a = &v->attrib[i];
    return a->binding == i && a->relative_offset == 0 && v->binding[i].offset == a->pointer &&
           v->binding[i].stride == eff_stride(a);
}

static void restore_vao(struct rs *r, const struct sm_vao *v)
{
    struct sm_vao d;
    sm_vao_defaults(&d, v->name);
    if (v->name) {
        gen_name(r, GLR_CMD_glGenVertexArrays, v->name);
        if (!v->created)
            return;
    }
    rs_emit(r, GLR_CMD_glBindVertexArray, 1, U(v->name));
    for (uint32_t i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++) {
        const struct sm_vertex_attrib *a = &v->attrib[i];
        const struct sm_vertex_binding *b = &v->binding[i];
        bool attr_default = !memcmp(a, &d.attrib[i], sizeof *a);
        bool bind_default = !memcmp(b, &d.binding[i], sizeof *b);
        if (!attr_default || !bind_default) {
            if (classic(v, i)) {
                rs_emit(r, GLR_CMD_glBindBuffer, 2, U(GL_ARRAY_BUFFER), U(b->buffer));
                if (a->is_long)
                    rs_emit(r, GLR_CMD_glVertexAttribLPointer, 5, U(i), I(a->size), U(a->type),
                            I(a->stride), U(a->pointer));
                else if (a->integer)
                    rs_emit(r, GLR_CMD_glVertexAttribIPointer, 5, U(i), I(a->size), U(a->type),
                            I(a->stride), U(a->pointer));
                else
                    rs_emit(r, GLR_CMD_glVertexAttribPointer, 6, U(i), I(a->size), U(a->type),
                            U(a->normalized), I(a->stride), U(a->pointer));
                if (b->divisor)
                    rs_emit(r, GLR_CMD_glVertexAttribDivisor, 2, U(i), U(b->divisor));
            } else {
                if (a->is_long)
                    rs_emit(r, GLR_CMD_glVertexAttribLFormat, 4, U(i), I(a->size), U(a->type),
                            U(a->relative_offset));
                else if (a->integer)
                    rs_emit(r, GLR_CMD_glVertexAttribIFormat, 4, U(i), I(a->size), U(a->type),
                            U(a->relative_offset));
                else
                    rs_emit(r, GLR_CMD_glVertexAttribFormat, 5, U(i), I(a->size), U(a->type),
                            U(a->normalized), U(a->relative_offset));
                rs_emit(r, GLR_CMD_glVertexAttribBinding, 2, U(i), U(a->binding));
                rs_emit(r, GLR_CMD_glBindVertexBuffer, 4, U(i), U(b->buffer), U(b->offset),
                        I(b->stride));
                if (b->divisor)
                    rs_emit(r, GLR_CMD_glVertexBindingDivisor, 2, U(i), U(b->divisor));
            }
        }
        if (a->enabled)
            rs_emit(r, GLR_CMD_glEnableVertexAttribArray, 1, U(i));
    }
    if (v->element_buffer)
        rs_emit(r, GLR_CMD_glBindBuffer, 2, U(GL_ELEMENT_ARRAY_BUFFER), U(v->element_buffer));
    /* Legacy client arrays (compatibility contexts only). */
    for (int k = 0; k < SM_LA_COUNT && r->compat; k++) {
        const struct sm_legacy_array *la = &v->legacy[k];
        if (!memcmp(la, &d.legacy[k], sizeof *la))
            continue;
        rs_emit(r, GLR_CMD_glBindBuffer, 2, U(GL_ARRAY_BUFFER), U(la->buffer));
        uint32_t cap = 0;
        switch (k) {
        case SM_LA_VERTEX:
            rs_emit(r, GLR_CMD_glVertexPointer, 4, I(la->size), U(la->type), I(la->stride), U(la->pointer));
            cap = GL_VERTEX_ARRAY;
            break;
        case SM_LA_NORMAL:
            rs_emit(r, GLR_CMD_glNormalPointer, 3, U(la->type), I(la->stride), U(la->pointer));
            cap = GL_NORMAL_ARRAY;
            break;
        case SM_LA_COLOR:
            rs_emit(r, GLR_CMD_glColorPointer, 4, I(la->size), U(la->type), I(la->stride), U(la->pointer));
            cap = GL_COLOR_ARRAY;
            break;
        case SM_LA_SECONDARY_COLOR:
            rs_emit(r, GLR_CMD_glSecondaryColorPointer, 4, I(la->size), U(la->type), I(la->stride),
                    U(la->pointer));
            cap = GL_SECONDARY_COLOR_ARRAY;
            break;
        case SM_LA_FOG_COORD:
            rs_emit(r, GLR_CMD_glFogCoordPointer, 3, U(la->type), I(la->stride), U(la->pointer));
            cap = GL_FOG_COORD_ARRAY;
            break;
        case SM_LA_EDGE_FLAG:
            rs_emit(r, GLR_CMD_glEdgeFlagPointer, 2, I(la->stride), U(la->pointer));
            cap = GL_EDGE_FLAG_ARRAY;
            break;
        case SM_LA_INDEX:
            rs_emit(r, GLR_CMD_glIndexPointer, 3, U(la->type), I(la->stride), U(la->pointer));
            cap = GL_INDEX_ARRAY;
            break;
        default:
            rs_emit(r, GLR_CMD_glClientActiveTexture, 1, U(GL_TEXTURE0 + (uint32_t)(k - SM_LA_TEXCOORD0)));
            rs_emit(r, GLR_CMD_glTexCoordPointer, 4, I(la->size), U(la->type), I(la->stride),
                    U(la->pointer));
            cap = GL_TEXTURE_COORD_ARRAY;
            break;
        }
        if (la->enabled)
            rs_emit(r, GLR_CMD_glEnableClientState, 1, U(cap));
    }
    if (r->compat && r->c->st.client_active_texture)
        rs_emit(r, GLR_CMD_glClientActiveTexture, 1, U(GL_TEXTURE0 + r->c->st.client_active_texture));
}

/* ------------------------------------------------------------------ framebuffers */

static bool layered_target(uint32_t t)
{
    return t == GL_TEXTURE_3D || t == GL_TEXTURE_1D_ARRAY || t == GL_TEXTURE_2D_ARRAY ||
           t == GL_TEXTURE_CUBE_MAP || t == GL_TEXTURE_CUBE_MAP_ARRAY ||
           t == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
}

static void restore_attachment(struct rs *r, uint32_t point, const struct sm_attachment *a)
{
    if (!a->type || !a->name)
        return;
    if (a->type == GL_RENDERBUFFER) {
        rs_emit(r, GLR_CMD_glFramebufferRenderbuffer, 4, U(GL_FRAMEBUFFER), U(point),
                U(GL_RENDERBUFFER), U(a->name));
        return;
    }
    const struct sm_texture *t = sm_map_get(&r->c->share->textures, a->name);
    uint32_t tt = t ? t->target : GL_TEXTURE_2D;
    if (a->textarget) {
        if (tt == GL_TEXTURE_1D)
            rs_emit(r, GLR_CMD_glFramebufferTexture1D, 5, U(GL_FRAMEBUFFER), U(point),
                    U(a->textarget), U(a->name), I(a->level));
        else if (tt == GL_TEXTURE_3D)
            rs_emit(r, GLR_CMD_glFramebufferTexture3D, 6, U(GL_FRAMEBUFFER), U(point),
                    U(a->textarget), U(a->name), I(a->level), I(a->layer));
        else
            rs_emit(r, GLR_CMD_glFramebufferTexture2D, 5, U(GL_FRAMEBUFFER), U(point),
                    U(a->textarget), U(a->name), I(a->level));
    } else if (a->layered || !layered_target(tt)) {
        bool has_fbt = !r->gles || r->c->major > 3 || (r->c->major == 3 && r->c->minor >= 2);
        if (!has_fbt && !a->layered && (tt == GL_TEXTURE_2D || tt == GL_TEXTURE_2D_MULTISAMPLE ||
                                        tt == GL_TEXTURE_RECTANGLE))
            rs_emit(r, GLR_CMD_glFramebufferTexture2D, 5, U(GL_FRAMEBUFFER), U(point), U(tt),
                    U(a->name), I(a->level));
        else
            rs_emit(r, GLR_CMD_glFramebufferTexture, 4, U(GL_FRAMEBUFFER), U(point), U(a->name),
                    I(a->level));
    } else {
        rs_emit(r, GLR_CMD_glFramebufferTextureLayer, 5, U(GL_FRAMEBUFFER), U(point), U(a->name),
                I(a->level), I(a->layer));
    }
}

static void restore_draw_read(struct rs *r, const struct sm_framebuffer *f)
{
    struct sm_framebuffer d;
    sm_framebuffer_defaults(&d, f->name, f->name == 0);
    if (f->n_draw_buffers != d.n_draw_buffers ||
        memcmp(f->draw_buffers, d.draw_buffers, sizeof d.draw_buffers)) {
        struct glr_call *c = rs_emit(r, GLR_CMD_glDrawBuffers, 2, I(f->n_draw_buffers), U(0));
        rs_blob_own(r, c, 1, f->draw_buffers, 4ull * f->n_draw_buffers);
    }
    if (f->read_buffer != d.read_buffer)
        rs_emit(r, GLR_CMD_glReadBuffer, 1, U(f->read_buffer));
}

static void restore_fbo(struct rs *r, const struct sm_framebuffer *f)
{
    gen_name(r, GLR_CMD_glGenFramebuffers, f->name);
    if (!f->created)
        return;
    rs_emit(r, GLR_CMD_glBindFramebuffer, 2, U(GL_FRAMEBUFFER), U(f->name));
    for (uint32_t i = 0; i < SM_MAX_COLOR_ATTACH; i++)
        restore_attachment(r, GL_COLOR_ATTACHMENT0 + i, &f->color[i]);
    if (f->depth.type && !memcmp(&f->depth, &f->stencil, sizeof f->depth)) {
        restore_attachment(r, GL_DEPTH_STENCIL_ATTACHMENT, &f->depth);
    } else {
        restore_attachment(r, GL_DEPTH_ATTACHMENT, &f->depth);
        restore_attachment(r, GL_STENCIL_ATTACHMENT, &f->stencil);
    }
    restore_draw_read(r, f);
    struct { uint32_t pname; int32_t v; } params[] = {
        { GL_FRAMEBUFFER_DEFAULT_WIDTH, f->default_width },
        { GL_FRAMEBUFFER_DEFAULT_HEIGHT, f->default_height },
        { GL_FRAMEBUFFER_DEFAULT_LAYERS, f->default_layers },
        { GL_FRAMEBUFFER_DEFAULT_SAMPLES, f->default_samples },
        { GL_FRAMEBUFFER_DEFAULT_FIXED_SAMPLE_LOCATIONS, f->default_fixed_sample_locations },
    };
    for (size_t i = 0; i < sizeof params / sizeof *params; i++)
        if (params[i].v)
            rs_emit(r, GLR_CMD_glFramebufferParameteri, 3, U(GL_FRAMEBUFFER), U(params[i].pname),
                    I(params[i].v));
}

/* ------------------------------------------------------------------ transform feedback, pipelines */

static void tfo_buffers(struct rs *r, const struct sm_transform_feedback *t)
{
    for (uint32_t i = 0; i < SM_MAX_TFB_BUFFERS; i++) {
        const struct sm_indexed_buffer *b = &t->buffers[i];
        if (!b->buffer)
            continue;
        if (b->size)
            rs_emit(r, GLR_CMD_glBindBufferRange, 5, U(GL_TRANSFORM_FEEDBACK_BUFFER), U(i),
                    U(b->buffer), U(b->offset), U(b->size));
        else
            rs_emit(r, GLR_CMD_glBindBufferBase, 3, U(GL_TRANSFORM_FEEDBACK_BUFFER), U(i),
                    U(b->buffer));
    }
}

void rs_context_objects(struct rs *r)
{
    const struct sm_context *c = r->c;
    restore_vao(r, &c->default_vao);
    FOR_SORTED(c->vaos, struct sm_vao, v, restore_vao(r, v));
    rs_emit(r, GLR_CMD_glBindVertexArray, 1, U(0));
    FOR_SORTED(c->fbos, struct sm_framebuffer, f, restore_fbo(r, f));
    rs_emit(r, GLR_CMD_glBindFramebuffer, 2, U(GL_FRAMEBUFFER), U(0));
    restore_draw_read(r, &c->default_fb);
    FOR_SORTED(c->tfos, struct sm_transform_feedback, t, {
        gen_name(r, GLR_CMD_glGenTransformFeedbacks, t->name);
        if (t->created) {
            rs_emit(r, GLR_CMD_glBindTransformFeedback, 2, U(GL_TRANSFORM_FEEDBACK), U(t->name));
            tfo_buffers(r, t);
        }
    });
    rs_emit(r, GLR_CMD_glBindTransformFeedback, 2, U(GL_TRANSFORM_FEEDBACK), U(0));
    tfo_buffers(r, &c->default_tfo);
    static const uint32_t bits[SM_ST_COUNT] = {
        GL_VERTEX_SHADER_BIT, GL_TESS_CONTROL_SHADER_BIT, GL_TESS_EVALUATION_SHADER_BIT,
        GL_GEOMETRY_SHADER_BIT, GL_FRAGMENT_SHADER_BIT, GL_COMPUTE_SHADER_BIT,
    };
    FOR_SORTED(c->pipelines, struct sm_pipeline, p, {
        gen_name(r, GLR_CMD_glGenProgramPipelines, p->name);
        if (p->created) {
            rs_emit(r, GLR_CMD_glBindProgramPipeline, 1, U(p->name));
            for (int s = 0; s < SM_ST_COUNT; s++)
                if (p->stage[s])
                    rs_emit(r, GLR_CMD_glUseProgramStages, 3, U(p->name), U(bits[s]), U(p->stage[s]));
            if (p->active_program)
                rs_emit(r, GLR_CMD_glActiveShaderProgram, 2, U(p->name), U(p->active_program));
        }
    });
    if (c->pipelines.count)
        rs_emit(r, GLR_CMD_glBindProgramPipeline, 1, U(0));
    FOR_SORTED(c->queries, struct sm_query, q, {
        gen_name(r, GLR_CMD_glGenQueries, q->name);
        /* A query's target is fixed by its first use: use it once (active ones begin later). */
        if (q->target == GL_TIMESTAMP) {
            rs_emit(r, GLR_CMD_glQueryCounter, 2, U(q->name), U(GL_TIMESTAMP));
        } else if (q->target && !q->active) {
            if (q->index) {
                rs_emit(r, GLR_CMD_glBeginQueryIndexed, 3, U(q->target), U(q->index), U(q->name));
                rs_emit(r, GLR_CMD_glEndQueryIndexed, 2, U(q->target), U(q->index));
            } else {
                rs_emit(r, GLR_CMD_glBeginQuery, 2, U(q->target), U(q->name));
                rs_emit(r, GLR_CMD_glEndQuery, 1, U(q->target));
            }
        }
    });
}

/* ------------------------------------------------------------------ bindings */

static void indexed_bindings(struct rs *r, uint32_t target, const struct sm_indexed_buffer *b,
                             uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!b[i].buffer)
            continue;
        if (b[i].size)
            rs_emit(r, GLR_CMD_glBindBufferRange, 5, U(target), U(i), U(b[i].buffer),
                    U(b[i].offset), U(b[i].size));
        else
            rs_emit(r, GLR_CMD_glBindBufferBase, 3, U(target), U(i), U(b[i].buffer));
    }
}

void rs_context_bindings(struct rs *r)
{
    const struct sm_context_state *st = &r->c->st;
    rs_arb_context(r);   /* sm_restore_arb.c */
    indexed_bindings(r, GL_UNIFORM_BUFFER, st->ubo, SM_MAX_UBO_BINDINGS);
    indexed_bindings(r, GL_SHADER_STORAGE_BUFFER, st->ssbo, SM_MAX_SSBO_BINDINGS);
    indexed_bindings(r, GL_ATOMIC_COUNTER_BUFFER, st->atomic, SM_MAX_ATOMIC_BINDINGS);
    if (st->tfo)
        rs_emit(r, GLR_CMD_glBindTransformFeedback, 2, U(GL_TRANSFORM_FEEDBACK), U(st->tfo));
    /* Generic bindings after the indexed ones, which also set them. */
    bool touched[SM_BT_COUNT] = { [SM_BT_ARRAY] = true };
    for (uint32_t i = 0; i < SM_MAX_UBO_BINDINGS; i++)
        touched[SM_BT_UNIFORM] |= st->ubo[i].buffer != 0;
    for (uint32_t i = 0; i < SM_MAX_SSBO_BINDINGS; i++)
        touched[SM_BT_SHADER_STORAGE] |= st->ssbo[i].buffer != 0;
    for (uint32_t i = 0; i < SM_MAX_ATOMIC_BINDINGS; i++)
        touched[SM_BT_ATOMIC_COUNTER] |= st->atomic[i].buffer != 0;
    /* Object restore bound transform feedback buffers, which also sets the generic binding. */
    touched[SM_BT_TRANSFORM_FEEDBACK] = r->c->tfos.count != 0;
    for (uint32_t i = 0; i < SM_MAX_TFB_BUFFERS; i++)
        touched[SM_BT_TRANSFORM_FEEDBACK] |= r->c->default_tfo.buffers[i].buffer != 0;
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (st->buffer[i] || touched[i])
            rs_emit(r, GLR_CMD_glBindBuffer, 2, U(sm_buffer_target_enum(i)), U(st->buffer[i]));
    for (uint32_t u = 0; u < SM_MAX_TEXTURE_UNITS; u++) {
        const struct sm_texture_unit *tu = &st->unit[u];
        bool any = tu->sampler != 0;
        for (int t = 0; t < SM_TT_COUNT; t++)
            any |= tu->bound[t] != 0;
        if (!any)
            continue;
        rs_emit(r, GLR_CMD_glActiveTexture, 1, U(GL_TEXTURE0 + u));
        for (int t = 0; t < SM_TT_COUNT; t++)
            if (tu->bound[t])
                rs_emit(r, GLR_CMD_glBindTexture, 2, U(sm_tex_target_enum(t)), U(tu->bound[t]));
        if (tu->sampler)
            rs_emit(r, GLR_CMD_glBindSampler, 2, U(u), U(tu->sampler));
    }
    for (uint32_t i = 0; i < SM_MAX_IMAGE_UNITS; i++) {
        const struct sm_image_unit *im = &st->image[i];
        if (im->texture)
            rs_emit(r, GLR_CMD_glBindImageTexture, 7, U(i), U(im->texture), I(im->level),
                    U(im->layered), I(im->layer), U(im->access), U(im->format));
    }
    rs_emit(r, GLR_CMD_glBindVertexArray, 1, U(st->vao));
    if (st->draw_fbo == st->read_fbo) {
        rs_emit(r, GLR_CMD_glBindFramebuffer, 2, U(GL_FRAMEBUFFER), U(st->draw_fbo));
    } else {
        rs_emit(r, GLR_CMD_glBindFramebuffer, 2, U(GL_DRAW_FRAMEBUFFER), U(st->draw_fbo));
        rs_emit(r, GLR_CMD_glBindFramebuffer, 2, U(GL_READ_FRAMEBUFFER), U(st->read_fbo));
    }
    if (st->renderbuffer)
        rs_emit(r, GLR_CMD_glBindRenderbuffer, 2, U(GL_RENDERBUFFER), U(st->renderbuffer));
    if (st->program)
        rs_emit(r, GLR_CMD_glUseProgram, 1, U(st->program));
    if (st->pipeline)
        rs_emit(r, GLR_CMD_glBindProgramPipeline, 1, U(st->pipeline));
}
