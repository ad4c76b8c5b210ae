/* The pass reset plan's object work (see pass_reset.h): objects the frame creates (deleted after
 * every pass) and deletes (the plan gives up), shaders and programs it changes (relinks), and the
 * restore list's uploads for the contents the frame writes. */
#include <stdlib.h>
#include <string.h>
#include "replay/player/pass_reset_internal.h"

/* ---------------------------------------------------------------- created and deleted objects */

static const void *get_object(const struct sm_context *c, enum sm_object_kind k, uint32_t name)
{
    switch (k) {
    case SM_OBJ_BUFFER: return sm_get_buffer(c, name);
    case SM_OBJ_TEXTURE: return sm_get_texture(c, name);
    case SM_OBJ_RENDERBUFFER: return sm_get_renderbuffer(c, name);
    case SM_OBJ_SAMPLER: return sm_get_sampler(c, name);
    case SM_OBJ_SHADER: return sm_get_shader(c, name);
    case SM_OBJ_PROGRAM: return sm_get_program(c, name);
    case SM_OBJ_VAO: return sm_get_vao(c, name);
    case SM_OBJ_FRAMEBUFFER: return sm_get_framebuffer(c, name);
    case SM_OBJ_TRANSFORM_FEEDBACK: return sm_get_transform_feedback(c, name);
    case SM_OBJ_PIPELINE: return sm_get_pipeline(c, name);
    case SM_OBJ_QUERY: return sm_get_query(c, name);
    default: return NULL;
    }
}

static uint32_t delete_cmd(enum sm_object_kind k)
{
    switch (k) {
    case SM_OBJ_BUFFER: return GLR_CMD_glDeleteBuffers;
    case SM_OBJ_TEXTURE: return GLR_CMD_glDeleteTextures;
    case SM_OBJ_RENDERBUFFER: return GLR_CMD_glDeleteRenderbuffers;
    case SM_OBJ_SAMPLER: return GLR_CMD_glDeleteSamplers;
    case SM_OBJ_SHADER: return GLR_CMD_glDeleteShader;
    case SM_OBJ_PROGRAM: return GLR_CMD_glDeleteProgram;
    case SM_OBJ_VAO: return GLR_CMD_glDeleteVertexArrays;
    case SM_OBJ_FRAMEBUFFER: return GLR_CMD_glDeleteFramebuffers;
    case SM_OBJ_TRANSFORM_FEEDBACK: return GLR_CMD_glDeleteTransformFeedbacks;
    case SM_OBJ_PIPELINE: return GLR_CMD_glDeleteProgramPipelines;
    case SM_OBJ_QUERY: return GLR_CMD_glDeleteQueries;
    default: return GLR_CMD_COUNT;
    }
}

static bool per_context(enum sm_object_kind k)
{
    return k == SM_OBJ_VAO || k == SM_OBJ_FRAMEBUFFER || k == SM_OBJ_TRANSFORM_FEEDBACK || k == SM_OBJ_PIPELINE ||
           k == SM_OBJ_QUERY;
}

uint32_t *pr_names_of(const struct sm_context *c, enum sm_object_kind k, size_t *n)
{
    *n = sm_object_names(c, k, NULL, 0);
    uint32_t *v = malloc((*n ? *n : 1) * sizeof *v);
    if (v)
        sm_object_names(c, k, v, *n);
    return v;
}

static void syncs(struct glrh_reset *p)
{
    for (size_t i = 0; i < p->n_syncs_made; i++) {
        pr_emit(&p->end_calls, p->syncs_made[i].ctx, GLR_CMD_glDeleteSync, 1, PR_U(p->syncs_made[i].handle));
        p->sum.objects_created++;
    }
    for (size_t i = 0; i < p->n_syncs_gone; i++) {
        struct glr_call *c = pr_emit(&p->reset, p->syncs_gone[i].ctx, GLR_CMD_glFenceSync, 2,
                                     PR_U(GL_SYNC_GPU_COMMANDS_COMPLETE), PR_U(0));
        if (c) {
            c->ret = p->syncs_gone[i].handle;
            c->flags |= GLR_CALL_HAS_RET;
        }
    }
}

bool pr_created_and_deleted(struct glrh_reset *p)
{
    syncs(p);
    for (size_t ci = 0; ci < sm_context_count(p->end); ci++) {
        const struct sm_context *e = sm_context_at(p->end, ci);
        uint32_t id = sm_context_id(e);
        const struct sm_context *i0 = sm_context_get(p->init, id);
        if (!i0)
            continue;   /* declared by a CONTEXT_CREATE record, never used by the frame (see walk) */
        bool first_of_group = sm_context_share_id(e) == id;
        for (int k = 0; k < SM_OBJ_COUNT; k++) {
            if (k == SM_OBJ_SYNC || (!per_context(k) && !first_of_group))
                continue;
            size_t n;
            uint32_t *names = pr_names_of(e, k, &n);
            if (!names)
                return pr_fail(p, "out of memory");
            for (size_t j = 0; j < n; j++) {
                if (get_object(i0, k, names[j]))
                    continue;
                /* Made by the frame: deleted after every pass, so passes do not pile them up. */
                uint32_t cmd = delete_cmd(k);
                struct glr_call *c;
                if (k == SM_OBJ_SHADER || k == SM_OBJ_PROGRAM) {
                    pr_emit(&p->end_calls, id, cmd, 1, PR_U(names[j]));
                } else {
                    c = pr_emit(&p->end_calls, id, cmd, 2, PR_I(1), PR_U(0));
                    pr_blob(&p->end_calls, c, 1, &names[j], 4);
                }
                p->sum.objects_created++;
            }
            free(names);
            names = pr_names_of(i0, k, &n);
            if (!names)
                return pr_fail(p, "out of memory");
            for (size_t j = 0; j < n && !p->failed; j++)
                if (!get_object(e, k, names[j]))
                    pr_fail(p, "the frame deletes %s %u of the initial state", sm_object_kind_name(k), names[j]);
            free(names);
        }
    }
    return !p->failed;
}

/* ---------------------------------------------------------------- shaders and programs */

static bool str_eq(const char *a, const char *b)
{
    return !strcmp(a ? a : "", b ? b : "");
}

static bool bindings_eq(const struct sm_name_binding *a, uint32_t na, const struct sm_name_binding *b, uint32_t nb)
{
    if (na != nb)
        return false;
    for (uint32_t i = 0; i < na; i++)
        if (!str_eq(a[i].name, b[i].name) || a[i].index != b[i].index || a[i].index2 != b[i].index2)
            return false;
    return true;
}

/* Shaders must be as they were; programs relinked by the frame are linked again, which gives the
 * initial program only when its attachments and link inputs are the initial ones and are what it
 * was linked from. */
bool pr_check_programs(struct glrh_reset *p)
{
    for (size_t ci = 0; ci < sm_context_count(p->init); ci++) {
        const struct sm_context *i0 = sm_context_at(p->init, ci);
        uint32_t id = sm_context_id(i0);
        const struct sm_context *e = sm_context_get(p->end, id);
        if (!e || sm_context_share_id(i0) != id)
            continue;
        size_t n;
        uint32_t *names = pr_names_of(i0, SM_OBJ_SHADER, &n);
        if (!names)
            return pr_fail(p, "out of memory");
        for (size_t j = 0; j < n && !p->failed; j++) {
            const struct sm_shader *a = sm_get_shader(i0, names[j]), *b = sm_get_shader(e, names[j]);
            if (b && (!str_eq(a->source, b->source) || a->compiled != b->compiled))
                pr_fail(p, "the frame changes shader %u", names[j]);
        }
        free(names);
        names = pr_names_of(i0, SM_OBJ_PROGRAM, &n);
        if (!names)
            return pr_fail(p, "out of memory");
        for (size_t j = 0; j < n && !p->failed; j++) {
            const struct sm_program *a = sm_get_program(i0, names[j]), *b = sm_get_program(e, names[j]);
            if (!b || b->link_count == a->link_count)
                continue;
            bool ok = a->n_attached == b->n_attached && a->n_attached == a->n_linked &&
                      !memcmp(a->attached, b->attached, a->n_attached * sizeof *a->attached) &&
                      bindings_eq(a->attrib_bindings, a->n_attrib_bindings, b->attrib_bindings, b->n_attrib_bindings) &&
                      bindings_eq(a->frag_bindings, a->n_frag_bindings, b->frag_bindings, b->n_frag_bindings) &&
                      a->n_tf_varyings == b->n_tf_varyings && a->separable == b->separable;
            for (uint32_t s = 0; ok && s < a->n_attached; s++) {
                const struct sm_shader *sh = sm_get_shader(i0, a->attached[s]);
                ok = sh && sh->compiled && sh->type == a->linked[s].type && str_eq(sh->source, a->linked[s].source);
            }
            if (!ok)
                pr_fail(p, "the frame relinks program %u with other inputs than its initial link", names[j]);
            else if (!pr_set_add(&p->relink, pr_key(i0, names[j])))
                pr_fail(p, "out of memory");
            else
                p->sum.programs_relinked++;
        }
        free(names);
    }
    return !p->failed;
}

/* ---------------------------------------------------------------- contents: uploads from the restore list */

static bool is_tex_content(uint32_t cmd)
{
    switch (cmd) {
    case GLR_CMD_glTexImage1D: case GLR_CMD_glTexImage2D: case GLR_CMD_glTexImage3D:
    case GLR_CMD_glCompressedTexImage1D: case GLR_CMD_glCompressedTexImage2D: case GLR_CMD_glCompressedTexImage3D:
    case GLR_CMD_glTexSubImage1D: case GLR_CMD_glTexSubImage2D: case GLR_CMD_glTexSubImage3D:
    case GLR_CMD_glCompressedTexSubImage1D: case GLR_CMD_glCompressedTexSubImage2D:
    case GLR_CMD_glCompressedTexSubImage3D: case GLR_CMD_glTexImage2DMultisample:
    case GLR_CMD_glTexImage3DMultisample: case GLR_CMD_glTexBuffer: case GLR_CMD_glTexBufferRange:
    case GLR_CMD_glGenerateMipmap:
        return true;
    default:
        return false;
    }
}

/* Unpack state back to GL's defaults on every context before uploading (the restore's uploads
 * assume a fresh context). */
static void unpack_defaults(struct glrh_reset *p)
{
    for (size_t ci = 0; ci < sm_context_count(p->end); ci++) {
        const struct sm_context *e = sm_context_at(p->end, ci);
        uint32_t id = sm_context_id(e);
        const struct sm_context_state *st = sm_context_state(e);
        if (st->buffer[SM_BT_PIXEL_UNPACK])
            pr_emit(&p->reset, id, GLR_CMD_glBindBuffer, 2, PR_U(GL_PIXEL_UNPACK_BUFFER), PR_U(0));
        const struct sm_pixel_store *u = &st->unpack;
        struct { uint32_t pname; int32_t v, dv; } e2[] = {
            { GL_UNPACK_SWAP_BYTES, u->swap_bytes, 0 }, { GL_UNPACK_LSB_FIRST, u->lsb_first, 0 },
            { GL_UNPACK_ROW_LENGTH, u->row_length, 0 }, { GL_UNPACK_IMAGE_HEIGHT, u->image_height, 0 },
            { GL_UNPACK_SKIP_ROWS, u->skip_rows, 0 }, { GL_UNPACK_SKIP_PIXELS, u->skip_pixels, 0 },
            { GL_UNPACK_SKIP_IMAGES, u->skip_images, 0 }, { GL_UNPACK_ALIGNMENT, u->alignment, 4 },
        };
        for (size_t i = 0; i < sizeof e2 / sizeof e2[0]; i++)
            if (e2[i].v != e2[i].dv)
                pr_emit(&p->reset, id, GLR_CMD_glPixelStorei, 2, PR_U(e2[i].pname), PR_I(e2[i].dv));
    }
}

/* The restore list's content calls for the objects the frame writes. Buffers go through
 * GL_COPY_WRITE_BUFFER so no vertex array's element buffer is touched. */
bool pr_uploads(struct glrh_reset *p)
{
    const struct sm_call_list *l = glr_restore_call_list(p->restore);
    if (!l)
        return pr_fail(p, "out of memory making the restore calls");
    unpack_defaults(p);
    uint32_t buf = 0, tex = 0, tex_target = 0, rb = 0;
    bool tex_bound = false, rb_bound = false, buf_bound = false;
    for (size_t i = 0; i < l->count && !p->failed; i++) {
        const struct glr_call *c = &l->calls[i];
        const struct sm_context *ic = sm_context_get(p->init, c->ctx_id);
        if (!ic)
            continue;
        const struct sm_buffer *b;
        struct glr_call *o;
        switch (c->cmd) {
        case GLR_CMD_glPixelStorei:
        case GLR_CMD_glActiveTexture:
            pr_copy(&p->reset, c);
            break;
        case GLR_CMD_glBindBuffer:
            if (c->args[1]) {
                buf = (uint32_t)c->args[1];
                buf_bound = false;
            }
            break;
        case GLR_CMD_glBufferData:
        case GLR_CMD_glBufferStorage:
        case GLR_CMD_glMapBufferRange:
            if (!buf || !pr_set_has(&p->buf_written, pr_key(ic, buf)))
                break;
            if (!buf_bound)
                pr_emit(&p->reset, c->ctx_id, GLR_CMD_glBindBuffer, 2, PR_U(GL_COPY_WRITE_BUFFER), PR_U(buf));
            buf_bound = true;
            if (c->cmd != GLR_CMD_glBufferStorage) {
                o = pr_copy(&p->reset, c);
                if (o)
                    o->args[0] = GL_COPY_WRITE_BUFFER;
                break;
            }
            b = sm_get_buffer(ic, buf);
            if (!b || !b->data_known)
                break;   /* contents never known: nothing to put back */
            if (!(b->storage_flags & GL_DYNAMIC_STORAGE_BIT))
                return pr_fail(p, "the frame writes immutable buffer %u, which has no dynamic storage", buf);
            {
                const struct sm_buffer *eb = sm_get_buffer(sm_context_get(p->end, c->ctx_id), buf);
                if (b->mapped || (eb && eb->mapped))
                    pr_emit(&p->reset, c->ctx_id, GLR_CMD_glUnmapBuffer, 1, PR_U(GL_COPY_WRITE_BUFFER));
            }
            o = pr_emit(&p->reset, c->ctx_id, GLR_CMD_glBufferSubData, 4, PR_U(GL_COPY_WRITE_BUFFER), PR_U(0),
                        PR_U(b->size), PR_U(0));
            if (o) {
                o->blobs[3].data = b->data;
                o->blobs[3].size = b->size;
            }
            break;
        case GLR_CMD_glBindTexture:
            if (c->args[1]) {
                tex = (uint32_t)c->args[1];
                tex_target = (uint32_t)c->args[0];
                tex_bound = false;
            }
            break;
        case GLR_CMD_glBindRenderbuffer:
            if (c->args[1]) {
                rb = (uint32_t)c->args[1];
                rb_bound = false;
            }
            break;
        case GLR_CMD_glRenderbufferStorage:
        case GLR_CMD_glRenderbufferStorageMultisample:
            if (!rb || !pr_set_has(&p->rb_written, pr_key(ic, rb)) ||
                !pr_cover_needs_contents(p, pr_cover_key(PR_OBJ_RENDERBUFFER, ic, rb)))
                break;
            if (!rb_bound)
                pr_emit(&p->reset, c->ctx_id, GLR_CMD_glBindRenderbuffer, 2, PR_U(GL_RENDERBUFFER), PR_U(rb));
            rb_bound = true;
            pr_copy(&p->reset, c);
            break;
        case GLR_CMD_glLinkProgram:
            if (pr_set_has(&p->relink, pr_key(ic, (uint32_t)c->args[0])))
                pr_copy(&p->reset, c);
            break;
        default:
            if (is_tex_content(c->cmd) && tex && pr_set_has(&p->tex_written, pr_key(ic, tex)) &&
                pr_cover_needs_contents(p, pr_cover_key(PR_OBJ_TEXTURE, ic, tex))) {
                if (!tex_bound)
                    pr_emit(&p->reset, c->ctx_id, GLR_CMD_glBindTexture, 2, PR_U(tex_target), PR_U(tex));
                tex_bound = true;
                pr_copy(&p->reset, c);
            }
            break;
        }
    }
    if (p->reset.failed)
        return pr_fail(p, "out of memory");
    return !p->failed;
}

