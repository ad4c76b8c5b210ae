/* The helpers every apply handler uses (sm_apply.h, "helpers for handlers"): errors, recorded
 * blobs, name arrays, and the objects a call names or binds, created on first use. A leaf of the
 * state model's apply files: the handlers call it, it calls only the state and map layers, so the
 * dispatcher (sm_apply.c) and the handlers do not call each other in a circle through it. */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_internal.h"
#include "statemodel/sm_map.h"

void ap_error(struct sm_ap *a, const char *what)
{
    sm_error(a->s, "%s (seq %llu): %s", glr_cmd_name(a->call->cmd),
             (unsigned long long)a->call->seq, what);
}

const void *ap_blob(struct sm_ap *a, int i, uint64_t need)
{
    const struct glr_blob *b = &a->call->blobs[i];
    if (!b->data || b->size < need || need == 0)
        return NULL;
    if (((uintptr_t)b->data & 7) == 0)
        return b->data;
    if (!a->aligned[i]) {
        if (b->size > SIZE_MAX || !(a->aligned[i] = malloc((size_t)b->size))) {
            ap_error(a, "out of memory");
            return NULL;
        }
        memcpy(a->aligned[i], b->data, (size_t)b->size);
    }
    return a->aligned[i];
}

const uint32_t *ap_names(struct sm_ap *a, int blob_index, int32_t n)
{
    if (n <= 0)
        return NULL;
    const uint32_t *p = ap_blob(a, blob_index, (uint64_t)n * 4);
    if (!p)
        ap_error(a, "names array missing from the recorded call");
    return p;
}

#define GET_OR_CREATE(fn, type, map, ctor)                                  \
    type *fn(struct sm_ap *a, uint32_t name, bool create)                   \
    {                                                                       \
        if (!name)                                                          \
            return NULL;                                                    \
        type *o = sm_map_get(&a->c->share->map, name);                      \
        if (!o && create) {                                                 \
            o = ctor(name);                                                 \
            if (o && !sm_map_put(&a->c->share->map, name, o)) {             \
                free(o);                                                    \
                o = NULL;                                                   \
            }                                                               \
            if (!o)                                                         \
                ap_error(a, "out of memory");                               \
        }                                                                   \
        return o;                                                           \
    }

GET_OR_CREATE(ap_buffer, struct sm_buffer, buffers, sm_buffer_new)
GET_OR_CREATE(ap_texture, struct sm_texture, textures, sm_texture_new)
GET_OR_CREATE(ap_renderbuffer, struct sm_renderbuffer, renderbuffers, sm_renderbuffer_new)
GET_OR_CREATE(ap_sampler, struct sm_sampler, samplers, sm_sampler_new)

struct sm_program *ap_program(struct sm_ap *a, uint32_t name)
{
    struct sm_program *p = name ? sm_map_get(&a->c->share->programs, name) : NULL;
    if (!p)
        ap_error(a, "no such program");
    return p;
}

struct sm_shader *ap_shader(struct sm_ap *a, uint32_t name)
{
    struct sm_shader *sh = name ? sm_map_get(&a->c->share->shaders, name) : NULL;
    if (!sh)
        ap_error(a, "no such shader");
    return sh;
}

struct sm_vao *ap_vao(struct sm_ap *a, uint32_t name)
{
    struct sm_vao *v = name ? sm_map_get(&a->c->vaos, name) : &a->c->default_vao;
    if (!v)
        ap_error(a, "no such vertex array");
    return v;
}

struct sm_framebuffer *ap_fbo(struct sm_ap *a, uint32_t name)
{
    struct sm_framebuffer *f = name ? sm_map_get(&a->c->fbos, name) : &a->c->default_fb;
    if (!f)
        ap_error(a, "no such framebuffer");
    return f;
}

struct sm_transform_feedback *ap_tfo(struct sm_ap *a, uint32_t name)
{
    struct sm_transform_feedback *t = name ? sm_map_get(&a->c->tfos, name) : &a->c->default_tfo;
    if (!t)
        ap_error(a, "no such transform feedback object");
    return t;
}

struct sm_texture *ap_bound_texture(struct sm_ap *a, uint32_t target)
{
    int face = sm_cube_face(target);
    int ti = sm_tex_target_index(face >= 0 ? GL_TEXTURE_CUBE_MAP : target);
    if (ti < 0) {
        ap_error(a, "invalid texture target");
        return NULL;
    }
    uint32_t name = a->c->st.unit[a->c->st.active_texture].bound[ti];
    /* the default texture is made at its first use and knows its target from the start */
    struct sm_texture *t = ap_texture(a, sm_texture_key(name, ti), !name);
    if (t && !name && !t->target)
        t->target = face >= 0 ? GL_TEXTURE_CUBE_MAP : target;
    if (!t)
        ap_error(a, "no texture bound to the target");
    return t;
}

struct sm_buffer *ap_bound_buffer(struct sm_ap *a, uint32_t target)
{
    uint32_t name;
    if (target == GL_ELEMENT_ARRAY_BUFFER) {
        struct sm_vao *v = ap_vao(a, a->c->st.vao);
        name = v ? v->element_buffer : 0;
    } else {
        int bi = sm_buffer_target_index(target);
        if (bi < 0) {
            ap_error(a, "invalid buffer target");
            return NULL;
        }
        name = a->c->st.buffer[bi];
    }
    struct sm_buffer *b = ap_buffer(a, name, false);
    if (!b)
        ap_error(a, "no buffer bound to the target");
    return b;
}

struct sm_framebuffer *ap_bound_fbo(struct sm_ap *a, uint32_t target)
{
    if (target == GL_READ_FRAMEBUFFER)
        return ap_fbo(a, a->c->st.read_fbo);
    if (target == GL_DRAW_FRAMEBUFFER || target == GL_FRAMEBUFFER)
        return ap_fbo(a, a->c->st.draw_fbo);
    ap_error(a, "invalid framebuffer target");
    return NULL;
}
