/* Display lists in the model: the lists a mid-run capture keeps (RESOURCE_BLOB kind 4) and those
 * the frame compiles (glNewList .. glEndList in the stream), executed by glCallList / glCallLists
 * (every type of the names array, glListBase, nesting to GL's limit of 64) by feeding the list's
 * calls through the runner: state changes inside a list reach the state model when the list is
 * called, draws run in the model. A GL_COMPILE list's calls are not executed while it is
 * compiled; GL_COMPILE_AND_EXECUTE ones are. Commands GL executes at once even inside
 * glNewList (glr_cmd_compiled_into_list) are executed, not compiled. The draws of a call record
 * make one event (gmf_event.draws counts them; each is counted in the totals). */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "statemodel/registry/glr_call_codec.h"

#define MAX_LIST_NESTING 64   /* GL_MAX_LIST_NESTING's value in every GL implementation */

struct gmf_list {
    uint32_t share, name;
    struct sm_call_list calls;
    bool has_client_arrays;
};

struct gmf_lists {
    struct gmf_list *v;
    size_t n, cap;
    /* the list being compiled (one at a time: glNewList inside glNewList is an error) */
    bool compiling;
    uint32_t comp_ctx, comp_mode;
    struct gmf_list comp;
    struct { uint32_t ctx, base; } *bases;
    size_t n_bases;
    int depth;
};

static struct gmf_lists *lists_get(gmf_runner *r)
{
    if (!r->lists)
        r->lists = calloc(1, sizeof *r->lists);
    return r->lists;
}

void gmf_lists_free(gmf_runner *r)
{
    struct gmf_lists *L = r->lists;
    if (!L)
        return;
    for (size_t i = 0; i < L->n; i++)
        sm_call_list_free(&L->v[i].calls);
    sm_call_list_free(&L->comp.calls);
    free(L->v);
    free(L->bases);
    free(L);
    r->lists = NULL;
}

static uint32_t share_of(gmf_runner *r, uint32_t ctx_id)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    return c ? sm_context_share_id(c) : 0;
}

static struct gmf_list *find(struct gmf_lists *L, uint32_t share, uint32_t name)
{
    for (size_t i = 0; L && i < L->n; i++)
        if (L->v[i].share == share && L->v[i].name == name)
            return &L->v[i];
    return NULL;
}

static void drop(struct gmf_lists *L, uint32_t share, uint32_t name)
{
    struct gmf_list *l = find(L, share, name);
    if (!l)
        return;
    sm_call_list_free(&l->calls);
    *l = L->v[--L->n];
}

/* Takes l (its calls) into the table, replacing a list of the same name. -1: out of memory. */
static int put(struct gmf_lists *L, struct gmf_list *l)
{
    drop(L, l->share, l->name);
    if (L->n == L->cap) {
        size_t cap = L->cap ? L->cap * 2 : 16;
        struct gmf_list *v = realloc(L->v, cap * sizeof *v);
        if (!v)
            return -1;
        L->v = v;
        L->cap = cap;
    }
    L->v[L->n++] = *l;
    memset(l, 0, sizeof *l);
    return 0;
}

/* A copy of call c (its blobs owned by the list). */
static void append(struct gmf_list *l, const struct glr_call *c)
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
    if (c->cmd == GLR_PSEUDO_CLIENT_ARRAY)
        l->has_client_arrays = true;
}

int gmf_lists_keep(gmf_runner *r, uint32_t ctx_id, uint32_t name, const void *data, size_t size)
{
    struct gmf_lists *L = lists_get(r);
    if (!L)
        return -1;
    struct gmf_list l = { share_of(r, ctx_id), name, { 0 }, false };
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, data, size);
    int k;
    while ((k = glr_stream_next(&s, &c)) == 1)
        append(&l, &c);
    if (k < 0 || l.calls.failed) {
        /* a corrupt list is not executed (its calls are reported when it is called) */
        sm_call_list_free(&l.calls);
        return l.calls.failed ? -1 : 0;
    }
    return put(L, &l) == 0 ? 1 : (sm_call_list_free(&l.calls), -1);
}

bool gmf_lists_compile(gmf_runner *r, const struct glr_call *c, gmf_event *ev)
{
    if (c->cmd == GLR_CMD_glNewList) {
        struct gmf_lists *L = lists_get(r);
        if (!L) {
            gmf_note(ev, "out of memory (glNewList)");
            return true;
        }
        if (L->compiling) {
            gmf_note(ev, "glNewList while a list is compiled (GL_INVALID_OPERATION)");
            return true;
        }
        uint32_t mode = (uint32_t)c->args[1];
        if (!c->args[0] || (mode != GL_COMPILE && mode != GL_COMPILE_AND_EXECUTE))
            return true;   /* GL_INVALID_VALUE / GL_INVALID_ENUM: nothing compiled */
        L->compiling = true;
        L->comp_ctx = c->ctx_id;
        L->comp_mode = mode;
        memset(&L->comp, 0, sizeof L->comp);
        L->comp.share = share_of(r, c->ctx_id);
        L->comp.name = (uint32_t)c->args[0];
        return true;
    }
    struct gmf_lists *L = r->lists;
    /* calls of a list being executed are the list's, not the program's: never compiled again */
    if (!L || !L->compiling || c->ctx_id != L->comp_ctx || L->depth > 0)
        return false;
    if (c->cmd == GLR_CMD_glEndList) {
        L->compiling = false;
        if (L->comp.calls.failed || put(L, &L->comp) != 0) {
            gmf_note(ev, "out of memory (display list %u)", L->comp.name);
            sm_call_list_free(&L->comp.calls);
        }
        return true;
    }
    bool compiled = c->cmd < GLR_CMD_COUNT ? glr_cmd_compiled_into_list(c->cmd)
                                           : c->cmd == GLR_PSEUDO_CLIENT_ARRAY;
    if (!compiled)
        return false;
    append(&L->comp, c);
    return L->comp_mode == GL_COMPILE;
}

/* Adds what an inner event ran to the call record's event. */
static void merge(gmf_event *o, const gmf_event *t)
{
    if (t->kind == GMF_EV_DRAW) {
        if (o->kind != GMF_EV_DRAW || !o->draws) {
            o->kind = GMF_EV_DRAW;
            o->draw = t->draw;
            o->program = t->program;
            o->fbo = t->fbo;
        }
        o->draws += t->draws;
        o->stats.vs_invocations += t->stats.vs_invocations;
        o->stats.primitives += t->stats.primitives;
        o->stats.fs_warps += t->stats.fs_warps;
        o->stats.fs_lanes += t->stats.fs_lanes;
        o->stats.fragments_passed += t->stats.fragments_passed;
        o->stats.cycles += t->stats.cycles;
        o->stats.vs_cycles += t->stats.vs_cycles;
        o->stats.fs_cycles += t->stats.fs_cycles;
        o->stats.gs_cycles += t->stats.gs_cycles;
        o->stats.instructions += t->stats.instructions;
    } else if (t->kind == GMF_EV_CLEAR && o->kind == GMF_EV_NONE) {
        o->kind = GMF_EV_CLEAR;
        o->draw = t->draw;
        o->fbo = t->fbo;
    }
    o->failed = o->failed || t->failed;
    o->seconds += t->seconds;
    /* notes were counted when first made; copied here once each */
    for (int i = 0; i < t->n_unsupported && i < GMF_MAX_NOTES; i++) {
        bool dup = false;
        for (int j = 0; j < o->n_unsupported && j < GMF_MAX_NOTES; j++)
            dup = dup || !strcmp(o->unsupported[j], t->unsupported[i]);
        if (dup)
            continue;
        if (o->n_unsupported < GMF_MAX_NOTES)
            memcpy(o->unsupported[o->n_unsupported], t->unsupported[i], sizeof o->unsupported[0]);
        if (o->n_unsupported <= GMF_MAX_NOTES)
            o->n_unsupported++;
    }
}

static void exec_list(gmf_runner *r, struct gmf_lists *L, uint32_t ctx_id, uint32_t name, const struct glr_call *call,
                      gmf_event *ev)
{
    if (L->depth >= MAX_LIST_NESTING)
        return;   /* GL ignores a glCallList nested deeper than GL_MAX_LIST_NESTING */
    struct gmf_list *l = find(L, share_of(r, ctx_id), name);
    if (!l) {
        gmf_note(ev, "display list %u not in the capture (never compiled, or dropped by the shim)", name);
        return;
    }
    gmf_event *t = malloc(sizeof *t);
    if (!t) {
        gmf_note(ev, "out of memory (display list)");
        ev->failed = true;
        return;
    }
    L->depth++;
    /* The list's calls: a copy of the table entry's (glDeleteLists cannot run inside a list, but
     * a list compiled in the frame may be stored again by a nested glNewList's error path). */
    size_t n = l->calls.count;
    const struct glr_call *calls = l->calls.calls;
    bool client = l->has_client_arrays;
    for (size_t i = 0; i < n && !r->stopped; i++) {
        struct glr_call cc = calls[i];
        cc.ctx_id = ctx_id;
        cc.seq = call->seq;
        gmf_feed(r, &cc, ev->record, t);
        r->totals.records--;   /* records count the stream's, not the lists' calls */
        merge(ev, t);
    }
    L->depth--;
    free(t);
    if (client) {
        /* the list's client arrays belong to its own draws (their bytes are the list's) */
        memset(r->client, 0, sizeof r->client);
        memset(r->client_legacy, 0, sizeof r->client_legacy);
        r->client_used = false;
    }
}

static uint32_t list_base(struct gmf_lists *L, uint32_t ctx)
{
    for (size_t i = 0; i < L->n_bases; i++)
        if (L->bases[i].ctx == ctx)
            return L->bases[i].base;
    return 0;
}

/* One element of glCallLists' array of `type`, or false for an unknown type / short array. */
static bool list_offset(uint32_t type, const uint8_t *p, size_t avail, size_t i, uint32_t *out)
{
    switch (type) {
    case GL_BYTE: if (i + 1 > avail) return false; *out = (uint32_t)(int32_t)(int8_t)p[i]; return true;
    case GL_UNSIGNED_BYTE: if (i + 1 > avail) return false; *out = p[i]; return true;
    case GL_SHORT: { int16_t v; if (2 * i + 2 > avail) return false; memcpy(&v, p + 2 * i, 2); *out = (uint32_t)(int32_t)v; return true; }
    case GL_UNSIGNED_SHORT: { uint16_t v; if (2 * i + 2 > avail) return false; memcpy(&v, p + 2 * i, 2); *out = v; return true; }
    case GL_INT: case GL_UNSIGNED_INT: { uint32_t v; if (4 * i + 4 > avail) return false; memcpy(&v, p + 4 * i, 4); *out = v; return true; }
    case GL_FLOAT: { float v; if (4 * i + 4 > avail) return false; memcpy(&v, p + 4 * i, 4); *out = (uint32_t)(int64_t)v; return true; }
    case GL_2_BYTES: if (2 * i + 2 > avail) return false; *out = (uint32_t)p[2 * i] << 8 | p[2 * i + 1]; return true;
    case GL_3_BYTES: if (3 * i + 3 > avail) return false;
        *out = (uint32_t)p[3 * i] << 16 | (uint32_t)p[3 * i + 1] << 8 | p[3 * i + 2]; return true;
    case GL_4_BYTES: if (4 * i + 4 > avail) return false;
        *out = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
        return true;
    default: return false;
    }
}

bool gmf_lists_cmd(gmf_runner *r, const struct glr_call *c, uint32_t k, gmf_event *ev)
{
    if (k != GLR_CMD_glCallList && k != GLR_CMD_glCallLists && k != GLR_CMD_glListBase &&
        k != GLR_CMD_glDeleteLists)
        return false;
    struct gmf_lists *L = lists_get(r);
    if (!L) {
        gmf_note(ev, "out of memory (%s)", glr_cmds[k].name);
        return true;
    }
    if (k == GLR_CMD_glListBase) {
        for (size_t i = 0; i < L->n_bases; i++)
            if (L->bases[i].ctx == c->ctx_id) {
                L->bases[i].base = (uint32_t)c->args[0];
                return true;
            }
        void *nb = realloc(L->bases, (L->n_bases + 1) * sizeof *L->bases);
        if (!nb) {
            gmf_note(ev, "out of memory (glListBase)");
            return true;
        }
        L->bases = nb;
        L->bases[L->n_bases].ctx = c->ctx_id;
        L->bases[L->n_bases++].base = (uint32_t)c->args[0];
        return true;
    }
    if (k == GLR_CMD_glDeleteLists) {
        uint32_t first = (uint32_t)c->args[0];
        int32_t range = (int32_t)c->args[1];
        uint32_t share = share_of(r, c->ctx_id);
        for (size_t i = 0; i < L->n;)
            if (L->v[i].share == share && L->v[i].name - first < (uint32_t)(range > 0 ? range : 0)) {
                sm_call_list_free(&L->v[i].calls);
                L->v[i] = L->v[--L->n];
            } else {
                i++;
            }
        return true;
    }
    if (k == GLR_CMD_glCallList) {
        exec_list(r, L, c->ctx_id, (uint32_t)c->args[0], c, ev);
        return true;
    }
    int32_t n = (int32_t)c->args[0];
    uint32_t type = (uint32_t)c->args[1];
    const struct glr_blob *b = &c->blobs[2];
    if (n <= 0)
        return true;
    if (!b->data) {
        gmf_note(ev, "glCallLists: the names array was not recorded");
        ev->failed = true;
        return true;
    }
    uint32_t base = list_base(L, c->ctx_id);
    for (int32_t i = 0; i < n && !r->stopped; i++) {
        uint32_t off;
        if (!list_offset(type, b->data, (size_t)b->size, (size_t)i, &off)) {
            gmf_note(ev, "glCallLists: names array shorter than its count, or type 0x%x unknown", type);
            ev->failed = true;
            break;
        }
        /* base is read again for each name: a list may call glListBase (GL says so) */
        exec_list(r, L, c->ctx_id, list_base(L, c->ctx_id) + off, c, ev);
        (void)base;
    }
    return true;
}

