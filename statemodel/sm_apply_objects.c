/* Object names: generation, creation and deletion, and the binding points of every kind. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"

/* ------------------------------------------------------------------ generic name handling */

typedef void *(*ctor_fn)(uint32_t name);

static void *new_buffer(uint32_t n) { return sm_buffer_new(n); }
static void *new_texture(uint32_t n) { return sm_texture_new(n); }
static void *new_renderbuffer(uint32_t n) { return sm_renderbuffer_new(n); }
static void *new_sampler(uint32_t n) { return sm_sampler_new(n); }
static void *new_vao(uint32_t n) { return sm_vao_new(n); }
static void *new_fbo(uint32_t n) { return sm_framebuffer_new(n); }
static void *new_tfo(uint32_t n) { return sm_tfo_new(n); }
static void *new_pipeline(uint32_t n) { return sm_pipeline_new(n); }
static void *new_query(uint32_t n) { return sm_query_new(n); }

/* Adds the names of blob `bi` (n of them) to map; returns the objects made, or NULL on error. */
static void gen_names(struct sm_ap *a, struct sm_map *m, int32_t n, int bi, ctor_fn ctor,
                      void (*init)(void *obj, struct sm_ap *a))
{
    const uint32_t *names = ap_names(a, bi, n);
    for (int32_t i = 0; names && i < n; i++) {
        if (!names[i] || sm_map_get(m, names[i]))
            continue;
        void *o = ctor(names[i]);
        if (!o || !sm_map_put(m, names[i], o)) {
            free(o);
            ap_error(a, "out of memory");
            return;
        }
        if (init)
            init(o, a);
    }
}

static void del_names(struct sm_ap *a, struct sm_map *m, int32_t n, int bi,
                      void (*unbind)(struct sm_ap *a, uint32_t name), void (*free_fn)(void *))
{
    const uint32_t *names = ap_names(a, bi, n);
    for (int32_t i = 0; names && i < n; i++) {
        if (!names[i])
            continue;
        void *o = sm_map_remove(m, names[i]);
        if (!o)
            continue;
        if (unbind)
            unbind(a, names[i]);
        free_fn(o);
    }
}

/* ------------------------------------------------------------------ buffers */

static void unbind_buffer(struct sm_ap *a, uint32_t name)
{
    struct sm_context_state *st = &a->c->st;
    for (int i = 0; i < SM_BT_COUNT; i++)
        if (st->buffer[i] == name)
            st->buffer[i] = 0;
    for (int i = 0; i < SM_MAX_UBO_BINDINGS; i++)
        if (st->ubo[i].buffer == name)
            st->ubo[i] = (struct sm_indexed_buffer){ 0, 0, 0 };
    for (int i = 0; i < SM_MAX_SSBO_BINDINGS; i++)
        if (st->ssbo[i].buffer == name)
            st->ssbo[i] = (struct sm_indexed_buffer){ 0, 0, 0 };
    for (int i = 0; i < SM_MAX_ATOMIC_BINDINGS; i++)
        if (st->atomic[i].buffer == name)
            st->atomic[i] = (struct sm_indexed_buffer){ 0, 0, 0 };
    struct sm_vao *v = st->vao ? sm_map_get(&a->c->vaos, st->vao) : &a->c->default_vao;
    if (v) {
        if (v->element_buffer == name)
            v->element_buffer = 0;
        for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++)
            if (v->binding[i].buffer == name)
                v->binding[i].buffer = 0;
        for (int i = 0; i < SM_LA_COUNT; i++)
            if (v->legacy[i].buffer == name)
                v->legacy[i].buffer = 0;
    }
    struct sm_transform_feedback *t = st->tfo ? sm_map_get(&a->c->tfos, st->tfo)
                                              : &a->c->default_tfo;
    for (int i = 0; t && i < SM_MAX_TFB_BUFFERS; i++)
        if (t->buffers[i].buffer == name)
            t->buffers[i] = (struct sm_indexed_buffer){ 0, 0, 0 };
}

static void h_gen_buffers(struct sm_ap *a)
{
    gen_names(a, &a->c->share->buffers, ap_i(a, 0), 1, new_buffer, NULL);
}

static void h_delete_buffers(struct sm_ap *a)
{
    del_names(a, &a->c->share->buffers, ap_i(a, 0), 1, unbind_buffer, sm_buffer_free);
}

static void h_bind_buffer(struct sm_ap *a)
{
    uint32_t target = ap_u(a, 0), name = ap_u(a, 1);
    struct sm_buffer *b = ap_buffer(a, name, true);
    if (b && !b->first_target)
        b->first_target = target;
    if (target == GL_ELEMENT_ARRAY_BUFFER) {
        struct sm_vao *v = ap_vao(a, a->c->st.vao);
        if (v)
            v->element_buffer = name;
        return;
    }
    int bi = sm_buffer_target_index(target);
    if (bi < 0) {
        ap_error(a, "invalid buffer target");
        return;
    }
    a->c->st.buffer[bi] = name;
}

/* The indexed binding array of a target, or NULL + error. */
static struct sm_indexed_buffer *indexed_slot(struct sm_ap *a, uint32_t target, uint32_t index)
{
    struct sm_context_state *st = &a->c->st;
    struct sm_indexed_buffer *arr = NULL;
    uint32_t n = 0;
    switch (target) {
    case GL_UNIFORM_BUFFER: arr = st->ubo; n = SM_MAX_UBO_BINDINGS; break;
    case GL_SHADER_STORAGE_BUFFER: arr = st->ssbo; n = SM_MAX_SSBO_BINDINGS; break;
    case GL_ATOMIC_COUNTER_BUFFER: arr = st->atomic; n = SM_MAX_ATOMIC_BINDINGS; break;
    case GL_TRANSFORM_FEEDBACK_BUFFER: {
        struct sm_transform_feedback *t = ap_tfo(a, st->tfo);
        if (!t)
            return NULL;
        arr = t->buffers;
        n = SM_MAX_TFB_BUFFERS;
        break;
    }
    default:
        ap_error(a, "invalid indexed buffer target");
        return NULL;
    }
    if (index >= n) {
        ap_error(a, "binding index out of range");
        return NULL;
    }
    return &arr[index];
}

static void bind_indexed(struct sm_ap *a, uint32_t target, uint32_t index, uint32_t name,
                         uint64_t offset, uint64_t size)
{
    struct sm_indexed_buffer *slot = indexed_slot(a, target, index);
    if (!slot)
        return;
    struct sm_buffer *b = ap_buffer(a, name, true);
    if (b && !b->first_target)
        b->first_target = target;
    *slot = (struct sm_indexed_buffer){ name, name ? offset : 0, name ? size : 0 };
    /* The indexed binds also bind the generic target. */
    int bi = sm_buffer_target_index(target);
    if (bi >= 0)
        a->c->st.buffer[bi] = name;
}

static void h_bind_buffer_base(struct sm_ap *a)
{
    bind_indexed(a, ap_u(a, 0), ap_u(a, 1), ap_u(a, 2), 0, 0);
}

static void h_bind_buffer_range(struct sm_ap *a)
{
    bind_indexed(a, ap_u(a, 0), ap_u(a, 1), ap_u(a, 2), ap_u64(a, 3), ap_u64(a, 4));
}

/* glBindBuffersBase(target, first, count, buffers) / Range(..., offsets, sizes) */
static void h_bind_buffers(struct sm_ap *a)
{
    uint32_t target = ap_u(a, 0), first = ap_u(a, 1);
    int32_t count = ap_i(a, 2);
    bool range = a->cmd == GLR_CMD_glBindBuffersRange;
    const uint32_t *names = count > 0 ? ap_blob(a, 3, (uint64_t)count * 4) : NULL;
    const int64_t *offs = range && count > 0 ? ap_blob(a, 4, (uint64_t)count * 8) : NULL;
    const int64_t *sizes = range && count > 0 ? ap_blob(a, 5, (uint64_t)count * 8) : NULL;
    if (range && names && (!offs || !sizes)) {
        ap_error(a, "offsets/sizes missing from the recorded call");
        return;
    }
    for (int32_t i = 0; i < count; i++)
        bind_indexed(a, target, first + (uint32_t)i, names ? names[i] : 0,
                     range && names ? (uint64_t)offs[i] : 0,
                     range && names ? (uint64_t)sizes[i] : 0);
}

/* ------------------------------------------------------------------ textures and samplers */

/* Deleting a texture or renderbuffer detaches it from the framebuffers bound in the deleting
 * context (GL: only those; attachments of other framebuffers keep the dangling name). */
static void detach_from_bound_fbos(struct sm_ap *a, uint32_t type, uint32_t name)
{
    uint32_t fbs[2] = { a->c->st.draw_fbo, a->c->st.read_fbo };
    for (int k = 0; k < 2; k++) {
        struct sm_framebuffer *f = fbs[k] ? sm_map_get(&a->c->fbos, fbs[k]) : NULL;
        if (!f)
            continue;
        for (int i = 0; i < SM_MAX_COLOR_ATTACH; i++)
            if (f->color[i].type == type && f->color[i].name == name)
                memset(&f->color[i], 0, sizeof f->color[i]);
        if (f->depth.type == type && f->depth.name == name)
            memset(&f->depth, 0, sizeof f->depth);
        if (f->stencil.type == type && f->stencil.name == name)
            memset(&f->stencil, 0, sizeof f->stencil);
    }
}

static void unbind_texture(struct sm_ap *a, uint32_t name)
{
    struct sm_context_state *st = &a->c->st;
    for (int u = 0; u < SM_MAX_TEXTURE_UNITS; u++)
        for (int t = 0; t < SM_TT_COUNT; t++)
            if (st->unit[u].bound[t] == name)
                st->unit[u].bound[t] = 0;
    for (int i = 0; i < SM_MAX_IMAGE_UNITS; i++)
        if (st->image[i].texture == name)
            st->image[i].texture = 0;
    detach_from_bound_fbos(a, GL_TEXTURE, name);
}

static void h_gen_textures(struct sm_ap *a)
{
    gen_names(a, &a->c->share->textures, ap_i(a, 0), 1, new_texture, NULL);
}

static void set_texture_target(struct sm_texture *t, uint32_t target)
{
    if (t->target)
        return;
    t->target = target;
    if (target == GL_TEXTURE_RECTANGLE || target == GL_TEXTURE_EXTERNAL_OES) {
        int32_t base = t->params.base_level, max = t->params.max_level;
        sm_sampling_defaults(&t->params, true);
        t->params.base_level = base;
        t->params.max_level = max;
    }
}

static void init_created_texture(void *obj, struct sm_ap *a)
{
    set_texture_target(obj, ap_u(a, 0));
}

/* glCreateTextures(target, n, textures) */
static void h_create_textures(struct sm_ap *a)
{
    gen_names(a, &a->c->share->textures, ap_i(a, 1), 2, new_texture, init_created_texture);
}

static void h_delete_textures(struct sm_ap *a)
{
    del_names(a, &a->c->share->textures, ap_i(a, 0), 1, unbind_texture, sm_texture_free);
}

static void bind_texture_on(struct sm_ap *a, uint32_t unit, uint32_t target, uint32_t name)
{
    int ti = sm_tex_target_index(target);
    if (ti < 0 || unit >= SM_MAX_TEXTURE_UNITS) {
        ap_error(a, ti < 0 ? "invalid texture target" : "texture unit out of range");
        return;
    }
    if (name) {
        struct sm_texture *t = ap_texture(a, name, true);
        if (!t)
            return;
        if (t->target && t->target != target) {
            ap_error(a, "texture bound to a target other than its own");
            return;
        }
        set_texture_target(t, target);
    }
    a->c->st.unit[unit].bound[ti] = name;
}

static void h_bind_texture(struct sm_ap *a)
{
    bind_texture_on(a, a->c->st.active_texture, ap_u(a, 0), ap_u(a, 1));
}

/* glBindTextureUnit(unit, texture): binds to the texture's own target (0 unbinds all targets). */
static void h_bind_texture_unit(struct sm_ap *a)
{
    uint32_t unit = ap_u(a, 0), name = ap_u(a, 1);
    if (unit >= SM_MAX_TEXTURE_UNITS) {
        ap_error(a, "texture unit out of range");
        return;
    }
    if (!name) {
        memset(a->c->st.unit[unit].bound, 0, sizeof a->c->st.unit[unit].bound);
        return;
    }
    struct sm_texture *t = ap_texture(a, name, false);
    if (!t || !t->target) {
        ap_error(a, "texture has no target yet");
        return;
    }
    bind_texture_on(a, unit, t->target, name);
}

/* glBindTextures(first, count, textures) */
static void h_bind_textures(struct sm_ap *a)
{
    uint32_t first = ap_u(a, 0);
    int32_t count = ap_i(a, 1);
    const uint32_t *names = count > 0 ? ap_blob(a, 2, (uint64_t)count * 4) : NULL;
    for (int32_t i = 0; i < count; i++) {
        uint32_t unit = first + (uint32_t)i;
        if (unit >= SM_MAX_TEXTURE_UNITS) {
            ap_error(a, "texture unit out of range");
            return;
        }
        uint32_t name = names ? names[i] : 0;
        if (!name) {
            memset(a->c->st.unit[unit].bound, 0, sizeof a->c->st.unit[unit].bound);
            continue;
        }
        struct sm_texture *t = ap_texture(a, name, false);
        if (t && t->target)
            bind_texture_on(a, unit, t->target, name);
        else
            ap_error(a, "texture has no target yet");
    }
}

static void h_active_texture(struct sm_ap *a)
{
    uint32_t u = ap_u(a, 0) - GL_TEXTURE0;
    if (u >= SM_MAX_TEXTURE_UNITS) {
        ap_error(a, "texture unit out of range");
        return;
    }
    if (a->cmd == GLR_CMD_glClientActiveTexture) {
        if (u < SM_MAX_LEGACY_TEXCOORD)
            a->c->st.client_active_texture = u;
        else
            ap_error(a, "client texture unit out of range");
    } else {
        a->c->st.active_texture = u;
    }
}

static void unbind_sampler(struct sm_ap *a, uint32_t name)
{
    for (int u = 0; u < SM_MAX_TEXTURE_UNITS; u++)
        if (a->c->st.unit[u].sampler == name)
            a->c->st.unit[u].sampler = 0;
}

static void h_gen_samplers(struct sm_ap *a)
{
    gen_names(a, &a->c->share->samplers, ap_i(a, 0), 1, new_sampler, NULL);
}

static void h_delete_samplers(struct sm_ap *a)
{
    del_names(a, &a->c->share->samplers, ap_i(a, 0), 1, unbind_sampler, free);
}

static void h_bind_sampler(struct sm_ap *a)
{
    uint32_t unit = ap_u(a, 0), name = ap_u(a, 1);
    if (unit >= SM_MAX_TEXTURE_UNITS) {
        ap_error(a, "texture unit out of range");
        return;
    }
    if (name && !ap_sampler(a, name, true))
        return;
    a->c->st.unit[unit].sampler = name;
}

/* glBindSamplers(first, count, samplers) */
static void h_bind_samplers(struct sm_ap *a)
{
    uint32_t first = ap_u(a, 0);
    int32_t count = ap_i(a, 1);
    const uint32_t *names = count > 0 ? ap_blob(a, 2, (uint64_t)count * 4) : NULL;
    for (int32_t i = 0; i < count; i++) {
        uint32_t unit = first + (uint32_t)i;
        if (unit >= SM_MAX_TEXTURE_UNITS) {
            ap_error(a, "texture unit out of range");
            return;
        }
        a->c->st.unit[unit].sampler = names ? names[i] : 0;
    }
}

/* glBindImageTexture(unit, texture, level, layered, layer, access, format) */
static void h_bind_image_texture(struct sm_ap *a)
{
    uint32_t unit = ap_u(a, 0);
    if (unit >= SM_MAX_IMAGE_UNITS) {
        ap_error(a, "image unit out of range");
        return;
    }
    a->c->st.image[unit] = (struct sm_image_unit){ ap_u(a, 1), ap_i(a, 2), ap_u(a, 3) != 0,
                                                   ap_i(a, 4), ap_u(a, 5), ap_u(a, 6) };
}

/* ------------------------------------------------------------------ renderbuffers */

static void unbind_renderbuffer(struct sm_ap *a, uint32_t name)
{
    if (a->c->st.renderbuffer == name)
        a->c->st.renderbuffer = 0;
    detach_from_bound_fbos(a, GL_RENDERBUFFER, name);
}

static void h_gen_renderbuffers(struct sm_ap *a)
{
    gen_names(a, &a->c->share->renderbuffers, ap_i(a, 0), 1, new_renderbuffer, NULL);
}

static void init_created_rb(void *obj, struct sm_ap *a)
{
    (void)a;
    ((struct sm_renderbuffer *)obj)->created = true;
}

static void h_create_renderbuffers(struct sm_ap *a)
{
    gen_names(a, &a->c->share->renderbuffers, ap_i(a, 0), 1, new_renderbuffer, init_created_rb);
}

static void h_delete_renderbuffers(struct sm_ap *a)
{
    del_names(a, &a->c->share->renderbuffers, ap_i(a, 0), 1, unbind_renderbuffer, free);
}

static void h_bind_renderbuffer(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 1);
    if (name) {
        struct sm_renderbuffer *r = ap_renderbuffer(a, name, true);
        if (!r)
            return;
        r->created = true;
    }
    a->c->st.renderbuffer = name;
}

/* ------------------------------------------------------------------ per-context objects */

static void init_created_vao(void *o, struct sm_ap *a) { (void)a; ((struct sm_vao *)o)->created = true; }
static void init_created_fbo(void *o, struct sm_ap *a) { (void)a; ((struct sm_framebuffer *)o)->created = true; }
static void init_created_tfo(void *o, struct sm_ap *a) { (void)a; ((struct sm_transform_feedback *)o)->created = true; }
static void init_created_pipe(void *o, struct sm_ap *a) { (void)a; ((struct sm_pipeline *)o)->created = true; }
static void init_created_query(void *o, struct sm_ap *a) { ((struct sm_query *)o)->target = ap_u(a, 0); }

static void unbind_vao(struct sm_ap *a, uint32_t name)
{
    if (a->c->st.vao == name)
        a->c->st.vao = 0;
}

static void unbind_fbo(struct sm_ap *a, uint32_t name)
{
    if (a->c->st.draw_fbo == name)
        a->c->st.draw_fbo = 0;
    if (a->c->st.read_fbo == name)
        a->c->st.read_fbo = 0;
}

static void unbind_tfo(struct sm_ap *a, uint32_t name)
{
    if (a->c->st.tfo == name)
        a->c->st.tfo = 0;
}

static void unbind_pipeline(struct sm_ap *a, uint32_t name)
{
    if (a->c->st.pipeline == name)
        a->c->st.pipeline = 0;
}

static void unbind_query(struct sm_ap *a, uint32_t name)
{
    struct sm_context_state *st = &a->c->st;
    for (uint32_t i = 0; i < st->n_active_queries;) {
        if (st->active_queries[i].name == name) {
            st->active_queries[i] = st->active_queries[--st->n_active_queries];
            continue;
        }
        i++;
    }
}

static void h_gen_vaos(struct sm_ap *a) { gen_names(a, &a->c->vaos, ap_i(a, 0), 1, new_vao, NULL); }
static void h_create_vaos(struct sm_ap *a) { gen_names(a, &a->c->vaos, ap_i(a, 0), 1, new_vao, init_created_vao); }
static void h_delete_vaos(struct sm_ap *a) { del_names(a, &a->c->vaos, ap_i(a, 0), 1, unbind_vao, free); }
static void h_gen_fbos(struct sm_ap *a) { gen_names(a, &a->c->fbos, ap_i(a, 0), 1, new_fbo, NULL); }
static void h_create_fbos(struct sm_ap *a) { gen_names(a, &a->c->fbos, ap_i(a, 0), 1, new_fbo, init_created_fbo); }
static void h_delete_fbos(struct sm_ap *a) { del_names(a, &a->c->fbos, ap_i(a, 0), 1, unbind_fbo, free); }
static void h_gen_tfos(struct sm_ap *a) { gen_names(a, &a->c->tfos, ap_i(a, 0), 1, new_tfo, NULL); }
static void h_create_tfos(struct sm_ap *a) { gen_names(a, &a->c->tfos, ap_i(a, 0), 1, new_tfo, init_created_tfo); }
static void h_delete_tfos(struct sm_ap *a) { del_names(a, &a->c->tfos, ap_i(a, 0), 1, unbind_tfo, free); }
static void h_gen_pipes(struct sm_ap *a) { gen_names(a, &a->c->pipelines, ap_i(a, 0), 1, new_pipeline, NULL); }
static void h_create_pipes(struct sm_ap *a) { gen_names(a, &a->c->pipelines, ap_i(a, 0), 1, new_pipeline, init_created_pipe); }
static void h_delete_pipes(struct sm_ap *a) { del_names(a, &a->c->pipelines, ap_i(a, 0), 1, unbind_pipeline, free); }
static void h_gen_queries(struct sm_ap *a) { gen_names(a, &a->c->queries, ap_i(a, 0), 1, new_query, NULL); }
static void h_create_queries(struct sm_ap *a) { gen_names(a, &a->c->queries, ap_i(a, 1), 2, new_query, init_created_query); }
static void h_delete_queries(struct sm_ap *a) { del_names(a, &a->c->queries, ap_i(a, 0), 1, unbind_query, free); }

/* Gets a per-context object for a bind, creating it for a name that was never generated. */
static void *bind_obj(struct sm_ap *a, struct sm_map *m, uint32_t name, ctor_fn ctor)
{
    void *o = sm_map_get(m, name);
    if (!o) {
        o = ctor(name);
        if (!o || !sm_map_put(m, name, o)) {
            free(o);
            ap_error(a, "out of memory");
            return NULL;
        }
    }
    return o;
}

static void h_bind_vao(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 0);
    if (name) {
        struct sm_vao *v = bind_obj(a, &a->c->vaos, name, new_vao);
        if (!v)
            return;
        v->created = true;
    }
    a->c->st.vao = name;
}

static void h_bind_fbo(struct sm_ap *a)
{
    uint32_t target = ap_u(a, 0), name = ap_u(a, 1);
    if (name) {
        struct sm_framebuffer *f = bind_obj(a, &a->c->fbos, name, new_fbo);
        if (!f)
            return;
        f->created = true;
    }
    if (target == GL_FRAMEBUFFER || target == GL_DRAW_FRAMEBUFFER)
        a->c->st.draw_fbo = name;
    if (target == GL_FRAMEBUFFER || target == GL_READ_FRAMEBUFFER)
        a->c->st.read_fbo = name;
    if (target != GL_FRAMEBUFFER && target != GL_DRAW_FRAMEBUFFER && target != GL_READ_FRAMEBUFFER)
        ap_error(a, "invalid framebuffer target");
}

static void h_bind_tfo(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 1);
    if (name) {
        struct sm_transform_feedback *t = bind_obj(a, &a->c->tfos, name, new_tfo);
        if (!t)
            return;
        t->created = true;
    }
    a->c->st.tfo = name;
}

static void h_bind_pipeline(struct sm_ap *a)
{
    uint32_t name = ap_u(a, 0);
    if (name) {
        struct sm_pipeline *p = bind_obj(a, &a->c->pipelines, name, new_pipeline);
        if (!p)
            return;
        p->created = true;
    }
    a->c->st.pipeline = name;
}

/* ------------------------------------------------------------------ queries */

static void begin_query(struct sm_ap *a, uint32_t target, uint32_t index, uint32_t name)
{
    struct sm_query *q = bind_obj(a, &a->c->queries, name, new_query);
    if (!q)
        return;
    q->target = target;
    q->index = index;
    q->active = true;
    q->has_result = false;   /* the frame makes its own result now */
    struct sm_context_state *st = &a->c->st;
    void *p = realloc(st->active_queries, (st->n_active_queries + 1) * sizeof *st->active_queries);
    if (!p) {
        ap_error(a, "out of memory");
        return;
    }
    st->active_queries = p;
    st->active_queries[st->n_active_queries++] = (struct sm_active_query){ target, index, name };
}

static void end_query(struct sm_ap *a, uint32_t target, uint32_t index)
{
    struct sm_context_state *st = &a->c->st;
    for (uint32_t i = 0; i < st->n_active_queries; i++) {
        struct sm_active_query *e = &st->active_queries[i];
        if (e->target != target || e->index != index)
            continue;
        struct sm_query *q = sm_map_get(&a->c->queries, e->name);
        if (q)
            q->active = false;
        *e = st->active_queries[--st->n_active_queries];
        return;
    }
    ap_error(a, "no active query for the target");
}

static void h_begin_query(struct sm_ap *a)
{
    if (a->cmd == GLR_CMD_glBeginQueryIndexed)
        begin_query(a, ap_u(a, 0), ap_u(a, 1), ap_u(a, 2));
    else
        begin_query(a, ap_u(a, 0), 0, ap_u(a, 1));
}

static void h_end_query(struct sm_ap *a)
{
    end_query(a, ap_u(a, 0), a->cmd == GLR_CMD_glEndQueryIndexed ? ap_u(a, 1) : 0);
}

/* glQueryCounter(id, target): makes the object a timestamp query. */
static void h_query_counter(struct sm_ap *a)
{
    struct sm_query *q = bind_obj(a, &a->c->queries, ap_u(a, 0), new_query);
    if (q) {
        q->target = ap_u(a, 1);
        q->has_result = false;
    }
}

/* ------------------------------------------------------------------ syncs */

static void h_fence_sync(struct sm_ap *a)
{
    struct sm_share_group *g = a->c->share;
    if (!(a->call->flags & GLR_CALL_HAS_RET) || !a->call->ret) {
        ap_error(a, "glFenceSync without its returned handle");
        return;
    }
    if (g->n_syncs == g->cap_syncs) {
        uint32_t nc = g->cap_syncs ? g->cap_syncs * 2 : 4;
        void *p = realloc(g->syncs, nc * sizeof *g->syncs);
        if (!p) {
            ap_error(a, "out of memory");
            return;
        }
        g->syncs = p;
        g->cap_syncs = nc;
    }
    g->syncs[g->n_syncs++] = (struct sm_sync){ a->call->ret, ap_u(a, 0), ap_u(a, 1) };
}

static void h_delete_sync(struct sm_ap *a)
{
    struct sm_share_group *g = a->c->share;
    uint64_t h = ap_u64(a, 0);
    for (uint32_t i = 0; i < g->n_syncs; i++)
        if (g->syncs[i].handle == h) {
            memmove(&g->syncs[i], &g->syncs[i + 1], (g->n_syncs - i - 1) * sizeof *g->syncs);
            g->n_syncs--;
            return;
        }
}

void sm_register_objects(sm_apply_fn *t)
{
    t[GLR_CMD_glGenBuffers] = h_gen_buffers;
    t[GLR_CMD_glCreateBuffers] = h_gen_buffers;
    t[GLR_CMD_glDeleteBuffers] = h_delete_buffers;
    t[GLR_CMD_glBindBuffer] = h_bind_buffer;
    t[GLR_CMD_glBindBufferBase] = h_bind_buffer_base;
    t[GLR_CMD_glBindBufferRange] = h_bind_buffer_range;
    t[GLR_CMD_glBindBuffersBase] = h_bind_buffers;
    t[GLR_CMD_glBindBuffersRange] = h_bind_buffers;
    t[GLR_CMD_glGenTextures] = h_gen_textures;
    t[GLR_CMD_glCreateTextures] = h_create_textures;
    t[GLR_CMD_glDeleteTextures] = h_delete_textures;
    t[GLR_CMD_glBindTexture] = h_bind_texture;
    t[GLR_CMD_glBindTextureUnit] = h_bind_texture_unit;
    t[GLR_CMD_glBindTextures] = h_bind_textures;
    t[GLR_CMD_glActiveTexture] = h_active_texture;
    t[GLR_CMD_glClientActiveTexture] = h_active_texture;
    t[GLR_CMD_glGenSamplers] = h_gen_samplers;
    t[GLR_CMD_glCreateSamplers] = h_gen_samplers;
    t[GLR_CMD_glDeleteSamplers] = h_delete_samplers;
    t[GLR_CMD_glBindSampler] = h_bind_sampler;
    t[GLR_CMD_glBindSamplers] = h_bind_samplers;
    t[GLR_CMD_glBindImageTexture] = h_bind_image_texture;
    t[GLR_CMD_glGenRenderbuffers] = h_gen_renderbuffers;
    t[GLR_CMD_glCreateRenderbuffers] = h_create_renderbuffers;
    t[GLR_CMD_glDeleteRenderbuffers] = h_delete_renderbuffers;
    t[GLR_CMD_glBindRenderbuffer] = h_bind_renderbuffer;
    t[GLR_CMD_glGenVertexArrays] = h_gen_vaos;
    t[GLR_CMD_glCreateVertexArrays] = h_create_vaos;
    t[GLR_CMD_glDeleteVertexArrays] = h_delete_vaos;
    t[GLR_CMD_glBindVertexArray] = h_bind_vao;
    t[GLR_CMD_glGenFramebuffers] = h_gen_fbos;
    t[GLR_CMD_glCreateFramebuffers] = h_create_fbos;
    t[GLR_CMD_glDeleteFramebuffers] = h_delete_fbos;
    t[GLR_CMD_glBindFramebuffer] = h_bind_fbo;
    t[GLR_CMD_glGenTransformFeedbacks] = h_gen_tfos;
    t[GLR_CMD_glCreateTransformFeedbacks] = h_create_tfos;
    t[GLR_CMD_glDeleteTransformFeedbacks] = h_delete_tfos;
    t[GLR_CMD_glBindTransformFeedback] = h_bind_tfo;
    t[GLR_CMD_glGenProgramPipelines] = h_gen_pipes;
    t[GLR_CMD_glCreateProgramPipelines] = h_create_pipes;
    t[GLR_CMD_glDeleteProgramPipelines] = h_delete_pipes;
    t[GLR_CMD_glBindProgramPipeline] = h_bind_pipeline;
    t[GLR_CMD_glGenQueries] = h_gen_queries;
    t[GLR_CMD_glCreateQueries] = h_create_queries;
    t[GLR_CMD_glDeleteQueries] = h_delete_queries;
    t[GLR_CMD_glBeginQuery] = h_begin_query;
    t[GLR_CMD_glBeginQueryIndexed] = h_begin_query;
    t[GLR_CMD_glEndQuery] = h_end_query;
    t[GLR_CMD_glEndQueryIndexed] = h_end_query;
    t[GLR_CMD_glQueryCounter] = h_query_counter;
    t[GLR_CMD_glFenceSync] = h_fence_sync;
    t[GLR_CMD_glDeleteSync] = h_delete_sync;
}
