/* sm_apply: resolves a call's command to its canonical form, dispatches it to the handler of its
 * area, and counts commands the model does not handle. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_internal.h"
#include "statemodel/sm_map.h"

static sm_apply_fn handlers[GLR_CMD_COUNT];
static uint32_t canonical[GLR_CMD_COUNT];
static uint8_t cmd_class[GLR_CMD_COUNT];
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

/* A suffixed command that the registry does not mark as an alias but that has the same
 * parameters as its unsuffixed core form (glBindFramebufferEXT): apply it as the core one. The
 * unsuffixed form is generated (glr_cmd_info.unsuffixed, registry/gl_annotations.txt). */
static int suffix_fallback(uint32_t cmd)
{
    const struct glr_cmd_info *ci = &glr_cmds[cmd];
    int b = ci->unsuffixed;
    if (b < 0 || !handlers[b])
        return -1;
    const struct glr_cmd_info *bi = &glr_cmds[b];
    if (bi->nparams != ci->nparams || bi->ret_kind != ci->ret_kind)
        return -1;
    for (int i = 0; i < ci->nparams; i++)
        if (glr_cmd_params(bi)[i].kind != glr_cmd_params(ci)[i].kind ||
            glr_cmd_params(bi)[i].is_pointer != glr_cmd_params(ci)[i].is_pointer)
            return -1;
    return b;
}

static void init_tables(void)
{
    sm_register_objects(handlers);
    sm_register_buffers(handlers);
    sm_register_textures(handlers);
    sm_register_programs(handlers);
    sm_register_vertex(handlers);
    sm_register_framebuffers(handlers);
    sm_register_raster(handlers);
    sm_register_matrix(handlers);
    sm_register_current(handlers);   /* sm_apply_current.c */
    sm_register_arb_program(handlers);
    sm_register_fixed(handlers);
    sm_register_rasterpos(handlers);   /* sm_apply_rasterpos.c */
    sm_register_include(handlers);
    sm_register_subroutine(handlers);
    sm_register_spirv(handlers);
    for (unsigned k = 0; k < glr_values_count; k++) {   /* generated from gl_annotations.txt */
        const struct glr_cmd_values *v = &glr_values[k];
        if (glr_cmds[v->cmd].api != GLR_API_GL || glr_cmds[v->cmd].alias >= 0 || handlers[v->cmd])
            continue;
        if (v->family == GLR_VALUES_UNIFORM)
            sm_register_uniform_family(handlers, v);
        else if (v->family == GLR_VALUES_ATTRIB)
            sm_register_attrib_family(handlers, v);
    }
    for (uint32_t i = 0; i < GLR_CMD_COUNT; i++) {
        uint32_t c = i;
        for (int hops = 0; hops < 8 && glr_cmds[c].alias >= 0; hops++)
            c = (uint32_t)glr_cmds[c].alias;
        if (!handlers[c]) {
            int f = suffix_fallback(c);
            if (f >= 0)
                c = (uint32_t)f;
        }
        canonical[i] = c;
        if (glr_cmds[i].api != GLR_API_GL)
            cmd_class[i] = SM_CMD_NO_STATE;   /* GLX/EGL: context management is the shim's */
        else if (handlers[c])
            cmd_class[i] = SM_CMD_APPLIED;
        else if ((glr_cmds[i].flags | glr_cmds[c].flags) & GLR_CF_NO_STATE)   /* generated class */
            cmd_class[i] = SM_CMD_NO_STATE;
        else
            cmd_class[i] = SM_CMD_UNHANDLED;
    }
}

enum sm_cmd_class sm_cmd_class(uint32_t cmd)
{
    pthread_once(&init_once, init_tables);
    if (cmd == GLR_PSEUDO_CONTEXT_CREATE)
        return SM_CMD_APPLIED;
    if (cmd == GLR_PSEUDO_MAKE_CURRENT || cmd == GLR_PSEUDO_BUFFER_DATA)
        return SM_CMD_APPLIED;
    if (cmd > GLR_PSEUDO_CONTEXT_CREATE && cmd < GLR_PSEUDO_END)
        return SM_CMD_NO_STATE;
    return cmd < GLR_CMD_COUNT ? (enum sm_cmd_class)cmd_class[cmd] : SM_CMD_UNHANDLED;
}

uint32_t sm_cmd_canonical(uint32_t cmd)
{
    pthread_once(&init_once, init_tables);
    return cmd < GLR_CMD_COUNT ? canonical[cmd] : cmd;
}

/* The public entries below fill the tables first (an applier cannot: it sits below this file). */
bool sm_imm_decode(const struct glr_call *call, struct sm_imm_value *out)
{
    uint32_t cmd = call ? call->cmd : 0;
    if (call && cmd < GLR_CMD_COUNT && sm_imm_kind_of(cmd) == SM_IMM_NONE)
        cmd = sm_cmd_canonical(cmd);   /* an alias (glFogCoordfEXT) decodes as its core form */
    return sm_imm_decode_as(call, cmd, out);
}

bool sm_is_attrib_value_cmd(uint32_t cmd)
{
    pthread_once(&init_once, init_tables);   /* the family table is filled with the handler table */
    return sm_attrib_family_has(cmd);
}

/* Records of the shim's events (enum glr_pseudo_cmd). CONTEXT_CREATE (args: new context id,
 * share group = id of the group's first context, window-system API) declares the context unless
 * it already is (the capture's metadata, which knows its GL API and version, may have declared it
 * first); the record does not carry the GL API, so a context first seen here is GL
 * compatibility 2.1 like any undeclared one. Make-current, swap and client-array data change no
 * state the model keeps. */
static bool apply_pseudo(struct sm_state *s, const struct glr_call *call)
{
    if (call->cmd == GLR_PSEUDO_MAKE_CURRENT) {
        /* GL sets the viewport and scissor box to the draw surface's size the first time a
         * context is made current: the record carries that size (0 when unknown). */
        struct sm_context *c = call->ctx_id ? sm_ctx_find(s, call->ctx_id) : NULL;
        uint64_t w = call->args[0], h = call->args[1];
        if (c && w && h && w <= INT32_MAX && h <= INT32_MAX && !c->st.viewport[0][2] && !c->st.viewport[0][3] &&
            !c->st.scissor[0][2] && !c->st.scissor[0][3]) {
            for (int i = 0; i < SM_MAX_VIEWPORTS; i++) {
                c->st.viewport[i][0] = c->st.viewport[i][1] = 0;
                c->st.viewport[i][2] = (float)w;
                c->st.viewport[i][3] = (float)h;
                c->st.scissor[i][0] = c->st.scissor[i][1] = 0;
                c->st.scissor[i][2] = (int32_t)w;
                c->st.scissor[i][3] = (int32_t)h;
            }
        }
        return true;
    }
    if (call->cmd == GLR_PSEUDO_BUFFER_DATA) {
        /* Bytes written through a mapping (args: map pointer, offset in map, map length, buffer,
         * offset in buffer): update the contents when the model knows them. */
        struct sm_context *c = call->ctx_id ? sm_ctx_find(s, call->ctx_id) : NULL;
        struct sm_buffer *b = c && call->args[3] <= UINT32_MAX ?
            sm_map_get(&c->share->buffers, (uint32_t)call->args[3]) : NULL;
        uint64_t off = call->args[4], n = call->blobs[0].size;
        if (!b || !call->blobs[0].data || off > b->size || n > b->size - off)
            return true;
        if (!b->data_known && off == 0 && n == b->size && n) {
            /* The write covers the whole buffer: its contents are known from here on. */
            free(b->data);
            b->data = malloc((size_t)n);
            b->data_known = b->data != NULL;
        }
        if (b->data_known && n)
            memcpy(b->data + off, call->blobs[0].data, (size_t)n);
        return true;
    }
    if (call->cmd != GLR_PSEUDO_CONTEXT_CREATE)
        return true;
    uint64_t id = call->args[0], group = call->args[1];
    if (id == 0 || id > UINT32_MAX) {
        sm_error(s, "context creation record with an invalid context id");
        return true;
    }
    if (sm_ctx_find(s, (uint32_t)id))
        return true;
    uint32_t share_with = 0;
    if (group != id && group <= UINT32_MAX && sm_ctx_find(s, (uint32_t)group))
        share_with = (uint32_t)group;
    if (!sm_context_create(s, (uint32_t)id, share_with, SM_API_GL_COMPAT, 2, 1))
        sm_error(s, "out of memory");
    return true;
}

bool sm_apply(struct sm_state *s, const struct glr_call *call)
{
    pthread_once(&init_once, init_tables);
    if (s && call && call->cmd >= GLR_CMD_COUNT && call->cmd < GLR_PSEUDO_END)
        return apply_pseudo(s, call);
    if (!s || !call || call->cmd >= GLR_CMD_COUNT) {
        if (s)
            sm_error(s, "call with an invalid command id");
        return false;
    }
    uint32_t cmd = call->cmd;
    if (cmd_class[cmd] == SM_CMD_NO_STATE)
        return true;
    if (cmd_class[cmd] == SM_CMD_UNHANDLED) {
        if (!s->unhandled_counts)
            s->unhandled_counts = calloc(GLR_CMD_COUNT, sizeof *s->unhandled_counts);
        if (s->unhandled_counts)
            s->unhandled_counts[cmd]++;
        s->unhandled_calls++;
        return false;
    }
    if (call->ctx_id == 0) {
        sm_error(s, "%s called with no current context", glr_cmd_name(cmd));
        return true;
    }
    struct sm_context *c = sm_ctx_find(s, call->ctx_id);
    if (!c && !(c = sm_ctx_add(s, call->ctx_id, NULL, SM_API_GL_COMPAT, 2, 1))) {
        sm_error(s, "out of memory");
        return true;
    }
    struct sm_ap a = { s, c, call, canonical[cmd], { 0 } };
    handlers[a.cmd](&a);
    for (int i = 0; i < GLR_MAX_PARAMS; i++)
        free(a.aligned[i]);
    return true;
}
