/* Read-only accessors of the public API: contexts, objects by name, counters. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_internal.h"

size_t sm_context_count(const struct sm_state *s) { return s ? s->n_ctx : 0; }

const struct sm_context *sm_context_at(const struct sm_state *s, size_t i)
{
    return (s && i < s->n_ctx) ? s->ctx[i] : NULL;
}

const struct sm_context *sm_context_get(const struct sm_state *s, uint32_t ctx_id)
{
    return s ? sm_ctx_find(s, ctx_id) : NULL;
}

uint32_t sm_context_id(const struct sm_context *c) { return c->id; }

enum sm_api sm_context_api(const struct sm_context *c, int *major, int *minor)
{
    if (major)
        *major = c->major;
    if (minor)
        *minor = c->minor;
    return c->api;
}

uint32_t sm_context_share_id(const struct sm_context *c) { return c->share->id; }

const struct sm_context_state *sm_context_state(const struct sm_context *c) { return &c->st; }

const struct sm_buffer *sm_get_buffer(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->buffers, name);
}

const struct sm_texture *sm_get_texture(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->textures, name);
}

const struct sm_renderbuffer *sm_get_renderbuffer(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->renderbuffers, name);
}

const struct sm_sampler *sm_get_sampler(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->samplers, name);
}

const struct sm_shader *sm_get_shader(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->shaders, name);
}

const struct sm_program *sm_get_program(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->share->programs, name);
}

const struct sm_sync *sm_get_sync(const struct sm_context *c, uint64_t handle)
{
    for (uint32_t i = 0; i < c->share->n_syncs; i++)
        if (c->share->syncs[i].handle == handle)
            return &c->share->syncs[i];
    return NULL;
}

const struct sm_vao *sm_get_vao(const struct sm_context *c, uint32_t name)
{
    return name ? sm_map_get(&c->vaos, name) : &c->default_vao;
}

const struct sm_framebuffer *sm_get_framebuffer(const struct sm_context *c, uint32_t name)
{
    return name ? sm_map_get(&c->fbos, name) : &c->default_fb;
}

const struct sm_transform_feedback *sm_get_transform_feedback(const struct sm_context *c,
                                                              uint32_t name)
{
    return name ? sm_map_get(&c->tfos, name) : &c->default_tfo;
}

const struct sm_pipeline *sm_get_pipeline(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->pipelines, name);
}

const struct sm_query *sm_get_query(const struct sm_context *c, uint32_t name)
{
    return sm_map_get(&c->queries, name);
}

bool sm_set_query_result(struct sm_state *s, uint32_t ctx_id, uint32_t name, uint32_t target, uint64_t result)
{
    struct sm_context *c = (struct sm_context *)sm_context_get(s, ctx_id);
    if (!c || !name)
        return false;
    struct sm_query *q = sm_map_get(&c->queries, name);
    if (!q) {
        q = sm_query_new(name);
        if (!q || !sm_map_put(&c->queries, name, q)) {
            free(q);
            return false;
        }
    }
    q->target = target;
    q->has_result = true;
    q->result = result;
    return true;
}

static const char *const kind_names[SM_OBJ_COUNT] = {
    "buffer", "texture", "renderbuffer", "sampler", "shader", "program", "sync",
    "vertex_array", "framebuffer", "transform_feedback", "program_pipeline", "query",
};

const char *sm_object_kind_name(enum sm_object_kind k)
{
    return (unsigned)k < SM_OBJ_COUNT ? kind_names[k] : "?";
}

static const struct sm_map *kind_map(const struct sm_context *c, enum sm_object_kind k)
{
    switch (k) {
    case SM_OBJ_BUFFER: return &c->share->buffers;
    case SM_OBJ_TEXTURE: return &c->share->textures;
    case SM_OBJ_RENDERBUFFER: return &c->share->renderbuffers;
    case SM_OBJ_SAMPLER: return &c->share->samplers;
    case SM_OBJ_SHADER: return &c->share->shaders;
    case SM_OBJ_PROGRAM: return &c->share->programs;
    case SM_OBJ_VAO: return &c->vaos;
    case SM_OBJ_FRAMEBUFFER: return &c->fbos;
    case SM_OBJ_TRANSFORM_FEEDBACK: return &c->tfos;
    case SM_OBJ_PIPELINE: return &c->pipelines;
    case SM_OBJ_QUERY: return &c->queries;
    default: return NULL;
    }
}

size_t sm_object_count(const struct sm_context *c, enum sm_object_kind k)
{
    if (k == SM_OBJ_SYNC)
        return c->share->n_syncs;
    const struct sm_map *m = kind_map(c, k);
    return m ? m->count : 0;
}

size_t sm_object_names(const struct sm_context *c, enum sm_object_kind k, uint32_t *names,
                       size_t max)
{
    if (k == SM_OBJ_SYNC) {
        for (uint32_t i = 0; i < c->share->n_syncs && i < max; i++)
            names[i] = (uint32_t)c->share->syncs[i].handle;
        return c->share->n_syncs;
    }
    const struct sm_map *m = kind_map(c, k);
    if (!m)
        return 0;
    size_t n;
    uint32_t *keys = sm_map_sorted_keys(m, &n);
    for (size_t i = 0; i < n && i < max; i++)
        names[i] = keys[i];
    free(keys);
    return n;
}

bool sm_is_enabled(const struct sm_context *c, uint32_t cap, uint32_t index)
{
    if (cap == GL_BLEND)
        return index < SM_MAX_DRAW_BUFFERS && c->st.blend_enabled[index];
    if (cap == GL_SCISSOR_TEST)
        return index < SM_MAX_VIEWPORTS && c->st.scissor_test[index];
    const struct sm_cap *e = sm_caps_find(&c->st, cap, index);
    return e ? e->enabled : sm_cap_default(cap);
}

const struct sm_uniform *sm_program_uniform(const struct sm_program *p, int32_t location)
{
    uint32_t lo = 0, hi = p->n_uniforms;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (p->uniforms[mid].location == location)
            return &p->uniforms[mid];
        if (p->uniforms[mid].location < location)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

uint64_t sm_unhandled_calls(const struct sm_state *s) { return s->unhandled_calls; }

size_t sm_unhandled_list(const struct sm_state *s, uint32_t *cmds, uint64_t *counts, size_t max)
{
    size_t n = 0;
    if (!s->unhandled_counts)
        return 0;
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++) {
        if (!s->unhandled_counts[i])
            continue;
        if (n < max) {
            if (cmds)
                cmds[n] = i;
            if (counts)
                counts[n] = s->unhandled_counts[i];
        }
        n++;
    }
    return n;
}

uint64_t sm_error_count(const struct sm_state *s) { return s->errors; }
const char *sm_first_error(const struct sm_state *s) { return s->first_error; }
