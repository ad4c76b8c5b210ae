/* The pass reset plan's walk through the frame (see pass_reset.h): every call is applied to a copy
 * of the initial state model, and before that classified: what it writes (buffers, textures,
 * renderbuffers, framebuffer images: pass_reset_cover.c), what a draw can read, the sync objects it
 * makes and deletes. A command the model cannot follow, or whose written object is unknown, gives
 * up the plan. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"

/* ---------------------------------------------------------------- what a command writes */

/* What a command writes is generated from the registry (gen_registry.py write_class:
 * struct glr_cmd_info.writes): draws, clears, blits and dispatches; buffer and texture uploads,
 * renderbuffer storage; read-backs into the pack buffer and query results. */
enum { W_UNKNOWN = GLR_WRITES_UNKNOWN, W_NONE = GLR_WRITES_NONE, W_DRAW = GLR_WRITES_DRAW,
       W_BUFFER = GLR_WRITES_BUFFER, W_TEXTURE = GLR_WRITES_TEXTURE, W_RENDERBUFFER = GLR_WRITES_RENDERBUFFER,
       W_PACK = GLR_WRITES_PACK, W_QUERY_RESULT = GLR_WRITES_QUERY_RESULT, W_COPY_IMAGE = GLR_WRITES_COPY_IMAGE };

static int classify(uint32_t cmd)
{
    return glr_cmds[cmd].writes;
}

static uint32_t bound_buffer(const struct sm_context *c, uint32_t target)
{
    const struct sm_context_state *st = sm_context_state(c);
    if (target == GL_ELEMENT_ARRAY_BUFFER) {
        const struct sm_vao *v = sm_get_vao(c, st->vao);
        return v ? v->element_buffer : 0;
    }
    int i = pr_buffer_target_index(target);
    return i < 0 ? 0 : st->buffer[i];
}

static uint32_t bound_texture(const struct sm_context *c, uint32_t target)
{
    const struct sm_context_state *st = sm_context_state(c);
    int i = pr_tex_target_index(target);
    if (i < 0 || st->active_texture >= SM_MAX_TEXTURE_UNITS)
        return 0;
    return st->unit[st->active_texture].bound[i];
}

/* Adds an object to a written (or used) set; textures and renderbuffers written or read other
 * than by whole clears need their saved contents (pass_reset_cover.c). */
static void mark(struct glrh_reset *p, struct pr_set *s, const struct sm_context *c, uint32_t name)
{
    if (!name)
        return;
    if (!pr_set_add(s, pr_key(c, name)))
        pr_fail(p, "out of memory");
    if (s == &p->tex_written || s == &p->used_tex)
        pr_cover_touch(p, pr_cover_key(PR_OBJ_TEXTURE, c, name));
    else if (s == &p->rb_written)
        pr_cover_touch(p, pr_cover_key(PR_OBJ_RENDERBUFFER, c, name));
}

static void mark_fbo_call(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo, const struct glr_call *call)
{
    pr_cover_framebuffer_write(p, c, fbo, call);
    if (!fbo) {
        if (!pr_set_add(&p->default_written, sm_context_id(c)))
            pr_fail(p, "out of memory");
        return;
    }
    const struct sm_framebuffer *f = sm_get_framebuffer(c, fbo);
    if (!f)
        return;
    const struct sm_attachment *att[SM_MAX_COLOR_ATTACH + 2];
    for (int i = 0; i < SM_MAX_COLOR_ATTACH; i++)
        att[i] = &f->color[i];
    att[SM_MAX_COLOR_ATTACH] = &f->depth;
    att[SM_MAX_COLOR_ATTACH + 1] = &f->stencil;
    for (int i = 0; i < SM_MAX_COLOR_ATTACH + 2; i++) {
        if (att[i]->type == GL_TEXTURE && att[i]->name && !pr_set_add(&p->tex_written, pr_key(c, att[i]->name)))
            pr_fail(p, "out of memory");
        else if (att[i]->type == GL_RENDERBUFFER && att[i]->name &&
                 !pr_set_add(&p->rb_written, pr_key(c, att[i]->name)))
            pr_fail(p, "out of memory");
    }
}

static void mark_fbo(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo)
{
    mark_fbo_call(p, c, fbo, NULL);
}

/* A draw, clear, blit or dispatch: its framebuffer, transform feedback, storage buffers and images
 * are written; its vertex arrays, buffers and textures are used. */
static void on_draw(struct glrh_reset *p, const struct sm_context *c, const struct glr_call *call)
{
    const struct sm_context_state *st = sm_context_state(c);
    const struct glr_cmd_info *ci = &glr_cmds[call->cmd];
    bool is_draw = glrh_cmd_is_draw(call->cmd);
    if (call->cmd == GLR_CMD_glBlitFramebuffer || call->cmd == GLR_CMD_glBlitNamedFramebuffer ||
        call->cmd == GLR_CMD_glCopyPixels)
        pr_cover_framebuffer_read(p, c, call->cmd == GLR_CMD_glBlitNamedFramebuffer ? (uint32_t)call->args[0]
                                                                                      : st->read_fbo);
    if (is_draw || (ci->flags & GLR_CF_DISPATCH_COMPUTE)) {
        /* What the draw can read: textures on every unit (a texture it also renders to must
         * keep its contents), images. */
        for (int u = 0; u < SM_MAX_TEXTURE_UNITS; u++)
            for (int t2 = 0; t2 < SM_TT_COUNT; t2++)
                mark(p, &p->used_tex, c, st->unit[u].bound[t2]);
    }
    if (!(ci->flags & GLR_CF_DISPATCH_COMPUTE))
        mark_fbo_call(p, c, st->draw_fbo, call);
    for (int i = 0; i < ci->nparams; i++)
        if (glr_cmd_params(ci)[i].obj_class == GLR_OBJ_FRAMEBUFFER && !glr_cmd_params(ci)[i].is_pointer)
            mark_fbo(p, c, (uint32_t)call->args[i]);
    const struct sm_transform_feedback *t = sm_get_transform_feedback(c, st->tfo);
    if (t && t->active)
        for (int i = 0; i < SM_MAX_TFB_BUFFERS; i++)
            mark(p, &p->buf_written, c, t->buffers[i].buffer);
    for (int i = 0; i < SM_MAX_SSBO_BINDINGS; i++)
        mark(p, &p->buf_written, c, st->ssbo[i].buffer);
    for (int i = 0; i < SM_MAX_ATOMIC_BINDINGS; i++)
        mark(p, &p->buf_written, c, st->atomic[i].buffer);
    for (int i = 0; i < SM_MAX_IMAGE_UNITS; i++)
        mark(p, &p->tex_written, c, st->image[i].texture);
    /* Used: what the draw can read. */
    const struct sm_vao *v = sm_get_vao(c, st->vao);
    if (v) {
        mark(p, &p->used_buf, c, v->element_buffer);
        for (int i = 0; i < SM_MAX_VERTEX_ATTRIBS; i++)
            if (v->attrib[i].enabled && v->attrib[i].binding < SM_MAX_VERTEX_ATTRIBS)
                mark(p, &p->used_buf, c, v->binding[v->attrib[i].binding].buffer);
    }
    for (int i = 0; i < SM_MAX_UBO_BINDINGS; i++)
        mark(p, &p->used_buf, c, st->ubo[i].buffer);
    for (int i = 0; i < SM_MAX_SSBO_BINDINGS; i++)
        mark(p, &p->used_buf, c, st->ssbo[i].buffer);
}

static void on_write(struct glrh_reset *p, const struct sm_context *c, const struct glr_call *call, int kind)
{
    const struct glr_cmd_info *ci = &glr_cmds[call->cmd];
    const struct sm_context_state *st = sm_context_state(c);
    switch (kind) {
    case W_DRAW:
        on_draw(p, c, call);
        return;
    case W_PACK:
        mark(p, &p->buf_written, c, st->buffer[SM_BT_PIXEL_PACK]);
        if (call->cmd == GLR_CMD_glReadPixels || call->cmd == GLR_CMD_glReadnPixels)
            pr_cover_framebuffer_read(p, c, st->read_fbo);
        else
            for (int i = 0; i < ci->nparams; i++)
                if (glr_cmd_params(ci)[i].obj_class == GLR_OBJ_TEXTURE && !glr_cmd_params(ci)[i].is_pointer)
                    pr_cover_touch(p, pr_cover_key(PR_OBJ_TEXTURE, c, (uint32_t)call->args[i]));
        return;
    case W_QUERY_RESULT:
        mark(p, &p->buf_written, c, st->buffer[SM_BT_QUERY]);
        return;
    case W_COPY_IMAGE:
        /* glCopyImageSubData(srcName, srcTarget, ..., dstName, dstTarget, ...) */
        if (ci->nparams > 7) {
            pr_cover_touch(p, pr_cover_key((uint32_t)call->args[1] == GL_RENDERBUFFER ? PR_OBJ_RENDERBUFFER
                                                                                      : PR_OBJ_TEXTURE,
                                           c, (uint32_t)call->args[0]));
            if ((uint32_t)call->args[7] == GL_RENDERBUFFER)
                mark(p, &p->rb_written, c, (uint32_t)call->args[6]);
            else
                mark(p, &p->tex_written, c, (uint32_t)call->args[6]);
        }
        return;
    default:
        break;
    }
    if (ci->flags & GLR_CF_COPY_TEX)
        pr_cover_framebuffer_read(p, c, st->read_fbo);
    bool named = false;
    for (int i = 0; i < ci->nparams; i++) {
        const struct glr_param_info *pi = &glr_cmd_params(ci)[i];
        if (pi->is_pointer)
            continue;
        if (kind == W_BUFFER && pi->obj_class == GLR_OBJ_BUFFER) {
            mark(p, &p->buf_written, c, (uint32_t)call->args[i]);
            named = true;
        } else if (kind == W_TEXTURE && pi->obj_class == GLR_OBJ_TEXTURE) {
            mark(p, &p->tex_written, c, (uint32_t)call->args[i]);
            named = true;
        } else if (kind == W_RENDERBUFFER && pi->obj_class == GLR_OBJ_RENDERBUFFER) {
            mark(p, &p->rb_written, c, (uint32_t)call->args[i]);
            named = true;
        }
    }
    if (named)
        return;
    if (kind == W_RENDERBUFFER) {
        mark(p, &p->rb_written, c, st->renderbuffer);
        return;
    }
    /* Target-based: every parameter naming a target (target, readTarget, writeTarget). */
    bool any = false;
    for (int i = 0; i < ci->nparams; i++) {
        if (glr_cmd_params(ci)[i].is_pointer || !(glr_cmd_params(ci)[i].flags & GLR_PF_TARGET))
            continue;
        uint32_t t = (uint32_t)call->args[i];
        if (kind == W_BUFFER)
            mark(p, &p->buf_written, c, bound_buffer(c, t));
        else
            mark(p, &p->tex_written, c, bound_texture(c, t));
        any = true;
    }
    if (!any)
        pr_fail(p, "the frame calls %s: which object it writes is unknown", glr_str(ci->name));
}

/* ---------------------------------------------------------------- sync objects */

static bool sync_push(struct pr_sync **v, size_t *n, uint64_t handle, uint32_t ctx)
{
    struct pr_sync *nv = realloc(*v, (*n + 1) * sizeof **v);
    if (!nv)
        return false;
    *v = nv;
    nv[(*n)++] = (struct pr_sync){ handle, ctx };
    return true;
}

/* glFenceSync / glDeleteSync of the frame (sync handles are not object names: tracked here). */
static void on_sync(struct glrh_reset *p, const struct sm_context *c, const struct glr_call *call)
{
    if (call->cmd == GLR_CMD_glFenceSync) {
        if ((call->flags & GLR_CALL_HAS_RET) && call->ret &&
            !sync_push(&p->syncs_made, &p->n_syncs_made, call->ret, sm_context_id(c)))
            pr_fail(p, "out of memory");
        return;
    }
    uint64_t h = call->args[0];
    for (size_t i = 0; i < p->n_syncs_made; i++)
        if (p->syncs_made[i].handle == h) {
            p->syncs_made[i] = p->syncs_made[--p->n_syncs_made];
            return;
        }
    const struct sm_context *ic = sm_context_get(p->init, sm_context_id(c));
    if (h && ic && sm_get_sync(ic, h) && !sync_push(&p->syncs_gone, &p->n_syncs_gone, h, sm_context_id(c)))
        pr_fail(p, "out of memory");
}

/* ---------------------------------------------------------------- the walk */

bool pr_walk(struct glrh_reset *p, const struct glrh_capture *cap)
{
    uint8_t *kinds = calloc(GLR_CMD_COUNT, 1);
    if (!kinds)
        return pr_fail(p, "out of memory");
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, cap->stream, cap->stream_size);
    int k = 1; /* glr_stream_next's last result; 1 (no decode error) if p had failed already */
    while (!p->failed && (k = glr_stream_next(&s, &c)) == 1) {
        const struct sm_context *ctx = c.ctx_id ? sm_context_get(p->end, c.ctx_id) : NULL;
        if (c.cmd >= GLR_CMD_COUNT) {
            /* CONTEXT_CREATE: the replayer makes every context before the pass (from METADATA); one
             * the initial state lacks fails the plan below if the frame calls GL on it. */
            if (ctx && c.cmd == GLR_PSEUDO_BUFFER_DATA)
                mark(p, &p->buf_written, ctx, (uint32_t)c.args[3]);
            else if (ctx && c.cmd == GLR_PSEUDO_BUFFER_MAPPED)
                mark(p, &p->buf_written, ctx, (uint32_t)c.args[1]);
            continue;
        }
        if (!c.ctx_id || glr_cmds[c.cmd].api != GLR_API_GL)
            continue;
        if (!ctx) {
            pr_fail(p, "the frame uses context %u, which the initial state lacks", c.ctx_id);
            break;
        }
        if (c.cmd == GLR_CMD_glNewList || c.cmd == GLR_CMD_glDeleteLists) {
            /* The lists of the initial state are compiled once, by the first pass's restore; a
             * frame that compiles or deletes lists needs them made again: full restore. */
            pr_fail(p, "the frame calls %s: display lists are made again only by a full restore",
                    glr_cmd_name(c.cmd));
            break;
        }
        if (c.cmd == GLR_CMD_glFenceSync || c.cmd == GLR_CMD_glDeleteSync)
            on_sync(p, ctx, &c);
        if (!kinds[c.cmd])
            kinds[c.cmd] = (uint8_t)classify(c.cmd);
        if (kinds[c.cmd] != W_NONE)
            on_write(p, ctx, &c, kinds[c.cmd]);
        if (!sm_apply(p->end, &c))
            pr_fail(p, "the frame calls %s, which the state model cannot follow", glr_cmd_name(c.cmd));
    }
    free(kinds);
    if (!p->failed && k < 0)
        pr_fail(p, "the command stream cannot be decoded");
    return !p->failed;
}

