/* The dispatcher's entry: checks a call against the replay's limits, then runs the generated
 * per-command code (glr_dispatch_gen.c), which calls down into dispatch.c's helpers. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "replay/dispatch_state.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

/* glCopyImageSubData names a texture or a renderbuffer by its target argument, so the registry
 * gives its names no object class and the generated code cannot remap them: done here. */
static int copy_image_sub_data(struct glr_dispatch *d, const struct glr_call *c)
{
    struct glr_call m = *c;
    for (int i = 0; i <= 6; i += 6) {
        int cls = (uint32_t)c->args[i + 1] == GL_RENDERBUFFER ? GLR_OBJ_RENDERBUFFER : GLR_OBJ_TEXTURE;
        m.args[i] = glr_dispatch_lookup(d, c->ctx_id, cls, c->args[i]);
    }
    return glr_dispatch_generated(d, &m);
}

/* The largest image side the replay driver reports for any texture kind or renderbuffer. */
static int64_t max_image_side(struct glr_dispatch *d)
{
    if (!d->max_side) {
        static const uint32_t limits[] = {
            GL_MAX_TEXTURE_SIZE, GL_MAX_3D_TEXTURE_SIZE, GL_MAX_CUBE_MAP_TEXTURE_SIZE, GL_MAX_ARRAY_TEXTURE_LAYERS,
            GL_MAX_RENDERBUFFER_SIZE, GL_MAX_RECTANGLE_TEXTURE_SIZE,
        };
        for (size_t i = 0; i < sizeof limits / sizeof *limits; i++) {
            int64_t v = d->env.get_int(d, limits[i]);   /* dispatch.c's driver query (glr_dispatch_create) */
            if (v > d->max_side)
                d->max_side = v;
        }
        if (!d->max_side)
            d->max_side = -1;
    }
    return d->max_side;
}

/* Image sizes (width/height/depth of texture and renderbuffer commands) beyond the replay
 * driver's limits: Mesa does not survive all of them. */
static bool sides_over_limits(struct glr_dispatch *d, const struct glr_call *c)
{
    static const enum glr_role sides[] = { GLR_ROLE_width, GLR_ROLE_height, GLR_ROLE_depth };
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    if (!(ci->flags & GLR_CF_IMAGE_SIDES))
        return false;
    for (size_t k = 0; k < sizeof sides / sizeof *sides; k++) {
        int i = glr_cmd_param_role(ci, sides[k]);
        if (i < 0 || glr_cmd_params(ci)[i].kind != GLR_KIND_I32)
            continue;
        int64_t v = (int32_t)c->args[i];
        int64_t limit = max_image_side(d);
        if (limit > 0 && v > limit) {
            glr_dispatch_set_reason(d, "%s %" PRId64 " is beyond the replay driver's limit %" PRId64, glr_role_names[sides[k]], v, limit);
            return true;
        }
    }
    return false;
}

/* The replay's pointers of the mappings call c ends (an unmap, or a delete of mapped buffers),
 * asked from the driver before c runs: up to max of them, NULL-free. */
static size_t mappings_ended(struct glr_dispatch *d, const struct glr_call *c, uint8_t **out, size_t max)
{
    typedef void (*ptr_fn)(uint32_t, uint32_t, void **);
    typedef void (*param_fn)(uint32_t, uint32_t, int32_t *);
    if (!d->n_mappings)
        return 0;
    void *p = NULL;
    switch (c->cmd) {
    case GLR_CMD_glUnmapBuffer: case GLR_CMD_glUnmapBufferARB: case GLR_CMD_glUnmapBufferOES: {
        ptr_fn get = (ptr_fn)glr_dispatch_proc(d, GLR_CMD_glGetBufferPointerv);
        if (get)
            get((uint32_t)c->args[0], GL_BUFFER_MAP_POINTER, &p);
        break;
    }
    case GLR_CMD_glUnmapNamedBuffer: case GLR_CMD_glUnmapNamedBufferEXT: {
        ptr_fn get = (ptr_fn)glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferPointerv);
        if (get)
            get((uint32_t)glr_dispatch_map(d, c, GLR_OBJ_BUFFER, c->args[0]), GL_BUFFER_MAP_POINTER, &p);
        break;
    }
    case GLR_CMD_glDeleteBuffers: case GLR_CMD_glDeleteBuffersARB: {
        /* Deleting a mapped buffer unmaps it. */
        ptr_fn get = (ptr_fn)glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferPointerv);
        param_fn param = (param_fn)glr_dispatch_proc(d, GLR_CMD_glGetNamedBufferParameteriv);
        struct glr_names n;
        if (!get || !param || glr_dispatch_names_in(d, c, GLR_OBJ_BUFFER, 1, &n) != 0)
            return 0;
        size_t k = 0;
        for (uint32_t i = 0; i < n.count && k < max; i++) {
            int32_t mapped = 0;
            void *q = NULL;
            if (n.names[i])
                param(n.names[i], GL_BUFFER_MAPPED, &mapped);
            if (mapped)
                get(n.names[i], GL_BUFFER_MAP_POINTER, &q);
            if (q)
                out[k++] = q;
        }
        glr_dispatch_names_free(&n);
        d->reason[0] = 0;
        return k;
    }
    default:
        return 0;
    }
    if (p && max)
        out[0] = p;
    return p && max ? 1 : 0;
}

/* Forgets the mappings whose replay pointer is one of ended[0..n): a later write through their
 * captured pointer is refused instead of landing in memory the driver may have reused. */
static void drop_mappings(struct glr_dispatch *d, uint8_t *const *ended, size_t n)
{
    size_t kept = 0;
    for (size_t i = 0; i < d->n_mappings; i++) {
        bool gone = false;
        for (size_t k = 0; k < n && !gone; k++)
            gone = d->mappings[i].replay == ended[k];
        if (!gone)
            d->mappings[kept++] = d->mappings[i];
    }
    d->n_mappings = kept;
}

/* Vertex invocations one draw may ask of the replay driver (count x instances): the GPU model's
 * budget (gpu_model/frame/gmf_frame.h), a few seconds of llvmpipe. A crafted glDrawArraysInstanced
 * of 2^31 - 1 instances would keep the replay busy for hours. */
#define GLR_REPLAY_MAX_DRAW_INVOCATIONS (1ull << 28)

static bool draw_over_budget(struct glr_dispatch *d, const struct glr_call *c)
{
    const struct glr_cmd_info *ci = &glr_cmds[c->cmd];
    if (!(ci->flags & GLR_CF_DRAW_NAMED))
        return false;
    int ic = glr_cmd_param_role(ci, GLR_ROLE_count);
    if (ic < 0 || glr_cmd_params(ci)[ic].kind != GLR_KIND_I32)
        return false;
    int64_t count = (int32_t)c->args[ic], instances = 1;
    int ii = glr_cmd_param_role(ci, GLR_ROLE_instancecount);
    if (ii < 0)
        ii = glr_cmd_param_role(ci, GLR_ROLE_primcount);
    if (ii >= 0 && glr_cmd_params(ci)[ii].kind == GLR_KIND_I32)
        instances = (int32_t)c->args[ii];
    if (count <= 0 || instances <= 0 || (uint64_t)count * (uint64_t)instances <= GLR_REPLAY_MAX_DRAW_INVOCATIONS)
        return false;
    glr_dispatch_set_reason(d, "%" PRId64 " vertices x %" PRId64 " instances is over the replay's budget of %llu vertex "
               "invocations per draw", count, instances, (unsigned long long)GLR_REPLAY_MAX_DRAW_INVOCATIONS);
    return true;
}

int glr_dispatch_call(struct glr_dispatch *d, const struct glr_call *c)
{
    if (c->cmd >= GLR_CMD_COUNT || glr_cmds[c->cmd].api != GLR_API_GL)
        return GLR_DISPATCH_SKIPPED;
    d->reason[0] = 0;
    if (sides_over_limits(d, c) || draw_over_budget(d, c))
        return GLR_DISPATCH_BAD;
    if (c->cmd == GLR_CMD_glCopyImageSubData || c->cmd == GLR_CMD_glCopyImageSubDataEXT ||
        c->cmd == GLR_CMD_glCopyImageSubDataOES)
        return copy_image_sub_data(d, c);
    uint8_t *ended[sizeof d->mappings / sizeof d->mappings[0]];
    size_t n_ended = mappings_ended(d, c, ended, sizeof ended / sizeof ended[0]);
    int res = glr_dispatch_generated(d, c);
    if (n_ended)
        drop_mappings(d, ended, n_ended);
    return res;
}
