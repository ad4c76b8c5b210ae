/* Display lists as recorded calls (sm_lists.h). */
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_lists.h"
#include "statemodel/statemodel.h"
#include "registry/glr_call_codec.h"
#include "registry/glr_registry.h"
#include "registry/glr_gl_enums.h"

struct sm_list {
    uint32_t share, name;
    struct sm_call_list calls;
};

struct sm_lists {
    struct sm_list *v;
    size_t n, cap;
    bool compiling;            /* one list at a time: glNewList inside glNewList is an error */
    uint32_t comp_ctx, comp_mode;
    struct sm_list comp;
    struct { uint32_t ctx, base; } *bases;
    size_t n_bases;
    int depth;
    uint64_t budget;           /* calls left to the outermost glCallList(s) (see exec_list) */
};

/* A list may call other lists several times each, 64 levels deep: a capture (untrusted) could make
 * one call run for ever. GL would hang the program on such lists, so no real capture holds one;
 * the walk stops after this many calls per outermost glCallList(s) and says so. */
#define CALL_BUDGET (1ull << 24)

struct sm_lists *sm_lists_new(void)
{
    return calloc(1, sizeof(struct sm_lists));
}

void sm_lists_free(struct sm_lists *L)
{
    if (!L)
        return;
    for (size_t i = 0; i < L->n; i++)
        sm_call_list_free(&L->v[i].calls);
    sm_call_list_free(&L->comp.calls);
    free(L->v);
    free(L->bases);
    free(L);
}

int sm_lists_depth(const struct sm_lists *L)
{
    return L ? L->depth : 0;
}

static struct sm_list *find(struct sm_lists *L, uint32_t share, uint32_t name)
{
    for (size_t i = 0; i < L->n; i++)
        if (L->v[i].share == share && L->v[i].name == name)
            return &L->v[i];
    return NULL;
}

/* Takes l's calls into the table, replacing a list of the same name. -1: out of memory. */
static int put(struct sm_lists *L, struct sm_list *l)
{
    struct sm_list *old = find(L, l->share, l->name);
    if (old) {
        sm_call_list_free(&old->calls);
        *old = *l;
        memset(l, 0, sizeof *l);
        return 0;
    }
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 16;
        struct sm_list *v = realloc(L->v, cap * sizeof *v);
        if (!v)
            return -1;
        L->v = v;
        L->cap = cap;
    }
    L->v[L->n++] = *l;
    memset(l, 0, sizeof *l);
    return 0;
}

/* A copy of call c whose blobs the list owns. */
static void append(struct sm_list *l, const struct glr_call *c)
{
    struct glr_call *o = sm_call_list_push(&l->calls);
    if (!o)
        return;
    uint64_t seq = o->seq;
    *o = *c;
    o->seq = seq;
    for (int i = 0; i < GLR_MAX_PARAMS; i++) {
        o->blobs[i].data = NULL;
        o->blobs[i].size = 0;
        if (c->blobs[i].data)
            sm_call_list_own_blob(&l->calls, o, i, c->blobs[i].data, c->blobs[i].size);
    }
}

int sm_lists_keep(struct sm_lists *L, uint32_t share, uint32_t name, const void *data, size_t size)
{
    struct sm_list l = { share, name, { 0 } };
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, data, size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1)
        append(&l, &c);
    bool oom = l.calls.failed;
    if (k < 0 || oom || put(L, &l) != 0) {
        sm_call_list_free(&l.calls);
        return k < 0 && !oom ? 0 : -1;
    }
    return 1;
}

bool sm_lists_compile(struct sm_lists *L, uint32_t share, const struct glr_call *c)
{
    if (!L || L->depth > 0)
        return false;
    if (c->cmd == GLR_CMD_glNewList) {
        uint32_t mode = (uint32_t)c->args[1];
        if (L->compiling || !c->args[0] || (mode != GL_COMPILE && mode != GL_COMPILE_AND_EXECUTE))
            return true;   /* GL_INVALID_OPERATION / VALUE / ENUM: nothing compiled */
        L->compiling = true;
        L->comp_ctx = c->ctx_id;
        L->comp_mode = mode;
        memset(&L->comp, 0, sizeof L->comp);
        L->comp.share = share;
        L->comp.name = (uint32_t)c->args[0];
        return true;
    }
    if (!L->compiling || c->ctx_id != L->comp_ctx)
        return false;
    if (c->cmd == GLR_CMD_glEndList) {
        L->compiling = false;
        if (L->comp.calls.failed || put(L, &L->comp) != 0)
            sm_call_list_free(&L->comp.calls);   /* out of memory: the list stays unknown */
        return true;
    }
    bool compiled = c->cmd < GLR_CMD_COUNT ? glr_cmd_compiled_into_list(c->cmd) : c->cmd == GLR_PSEUDO_CLIENT_ARRAY;
    if (!compiled)
        return false;
    append(&L->comp, c);
    return L->comp_mode == GL_COMPILE;
}

uint32_t sm_lists_compiling(const struct sm_lists *L, uint32_t ctx_id)
{
    return L && L->compiling && L->comp_ctx == ctx_id ? L->comp_mode : 0;
}

size_t sm_lists_compiled_count(const struct sm_lists *L)
{
    return L && L->compiling ? L->comp.calls.count : 0;
}

const struct glr_call *sm_lists_compiled_call(const struct sm_lists *L, size_t i)
{
    return L && L->compiling && i < L->comp.calls.count ? &L->comp.calls.calls[i] : NULL;
}

static void exec_list(struct sm_lists *L, uint32_t share, uint32_t ctx_id, uint32_t name, uint64_t seq,
                      sm_list_exec_fn exec, sm_list_missing_fn missing, void *user)
{
    if (L->depth >= SM_MAX_LIST_NESTING || !L->budget)
        return;   /* GL ignores a glCallList nested deeper than GL_MAX_LIST_NESTING */
    struct sm_list *l = find(L, share, name);
    if (!l) {
        if (missing)
            missing(user, name);
        return;
    }
    /* No call a list holds can change the table while it runs: glNewList, glEndList and
     * glDeleteLists are executed at once, never compiled. */
    L->depth++;
    for (size_t i = 0; i < l->calls.count && L->budget; i++) {
        L->budget--;
        struct glr_call cc = l->calls.calls[i];
        cc.ctx_id = ctx_id;
        cc.seq = seq;
        exec(user, &cc);
    }
    L->depth--;
}

static uint32_t list_base(struct sm_lists *L, uint32_t ctx)
{
    for (size_t i = 0; i < L->n_bases; i++)
        if (L->bases[i].ctx == ctx)
            return L->bases[i].base;
    return 0;
}

/* Element i of glCallLists' names of `type`; false for an unknown type or a short array. */
static bool list_offset(uint32_t type, const uint8_t *p, size_t avail, size_t i, uint32_t *out)
{
    size_t w = type == GL_BYTE || type == GL_UNSIGNED_BYTE ? 1 : type == GL_SHORT || type == GL_UNSIGNED_SHORT ||
               type == GL_2_BYTES ? 2 : type == GL_3_BYTES ? 3 : 4;
    if (i >= avail / w)
        return false;
    const uint8_t *q = p + i * w;
    switch (type) {
    case GL_BYTE: *out = (uint32_t)(int32_t)(int8_t)q[0]; return true;
    case GL_UNSIGNED_BYTE: *out = q[0]; return true;
    case GL_SHORT: { int16_t v; memcpy(&v, q, 2); *out = (uint32_t)(int32_t)v; return true; }
    case GL_UNSIGNED_SHORT: { uint16_t v; memcpy(&v, q, 2); *out = v; return true; }
    case GL_INT: case GL_UNSIGNED_INT: memcpy(out, q, 4); return true;
    case GL_FLOAT: { float v; memcpy(&v, q, 4); *out = (uint32_t)(int64_t)v; return true; }
    case GL_2_BYTES: *out = (uint32_t)q[0] << 8 | q[1]; return true;
    case GL_3_BYTES: *out = (uint32_t)q[0] << 16 | (uint32_t)q[1] << 8 | q[2]; return true;
    case GL_4_BYTES: *out = (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]; return true;
    default: return false;
    }
}

bool sm_lists_call(struct sm_lists *L, uint32_t share, const struct glr_call *c, sm_list_exec_fn exec,
                   sm_list_missing_fn missing, void *user, bool *bad)
{
    uint32_t k = c->cmd < GLR_CMD_COUNT ? sm_cmd_canonical(c->cmd) : c->cmd;
    *bad = false;
    if (k == GLR_CMD_glListBase) {
        for (size_t i = 0; i < L->n_bases; i++)
            if (L->bases[i].ctx == c->ctx_id) {
                L->bases[i].base = (uint32_t)c->args[0];
                return true;
            }
        void *nb = realloc(L->bases, (L->n_bases + 1) * sizeof *L->bases);
        if (!nb) {
            *bad = true;
            return true;
        }
        L->bases = nb;
        L->bases[L->n_bases].ctx = c->ctx_id;
        L->bases[L->n_bases++].base = (uint32_t)c->args[0];
        return true;
    }
    if (k == GLR_CMD_glDeleteLists) {
        if (L->depth > 0)
            return true;   /* never compiled by GL: only a corrupt list holds it (and it would
                            * free the list being executed) */
        uint32_t first = (uint32_t)c->args[0];
        int32_t range = (int32_t)c->args[1];
        for (size_t i = 0; i < L->n;)
            if (L->v[i].share == share && L->v[i].name - first < (uint32_t)(range > 0 ? range : 0)) {
                sm_call_list_free(&L->v[i].calls);
                L->v[i] = L->v[--L->n];
            } else {
                i++;
            }
        return true;
    }
    bool outer = L->depth == 0;
    if (outer && (k == GLR_CMD_glCallList || k == GLR_CMD_glCallLists))
        L->budget = CALL_BUDGET;
    if (k == GLR_CMD_glCallList) {
        exec_list(L, share, c->ctx_id, (uint32_t)c->args[0], c->seq, exec, missing, user);
        *bad = outer && !L->budget;
        return true;
    }
    if (k != GLR_CMD_glCallLists)
        return false;
    int32_t n = (int32_t)c->args[0];
    uint32_t type = (uint32_t)c->args[1];
    const struct glr_blob *b = &c->blobs[2];
    if (n <= 0)
        return true;
    if (!b->data) {
        *bad = true;
        return true;
    }
    /* the base in effect when glCallLists starts (a list that changes it affects later calls) */
    uint32_t base = list_base(L, c->ctx_id);
    for (int32_t i = 0; i < n; i++) {
        uint32_t off;
        if (!list_offset(type, b->data, (size_t)b->size, (size_t)i, &off)) {
            *bad = true;
            break;
        }
        exec_list(L, share, c->ctx_id, base + off, c->seq, exec, missing, user);
    }
    if (outer && !L->budget)
        *bad = true;
    return true;
}

struct listed {
    struct sm_state *s;
    struct sm_lists *L;
};

static uint32_t share_in(const struct sm_state *s, uint32_t ctx_id)
{
    const struct sm_context *c = sm_context_get(s, ctx_id);
    return c ? sm_context_share_id(c) : 0;
}

static void apply_listed_call(void *user, const struct glr_call *c)
{
    struct listed *x = user;
    sm_apply_listed(x->s, x->L, c);
}

bool sm_apply_listed(struct sm_state *s, struct sm_lists *L, const struct glr_call *c)
{
    if (!L)
        return sm_apply(s, c);
    uint32_t share = share_in(s, c->ctx_id);
    if (sm_lists_compile(L, share, c))
        return true;
    struct listed x = { s, L };
    bool bad;
    if (c->cmd < GLR_CMD_COUNT && sm_lists_call(L, share, c, apply_listed_call, NULL, &x, &bad))
        return true;
    return sm_apply(s, c);
}
