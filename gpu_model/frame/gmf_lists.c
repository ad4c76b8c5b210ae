/* Display lists in the model: the lists a mid-run capture keeps (RESOURCE_BLOB kind 4) and those
 * the frame compiles (glNewList .. glEndList in the stream), executed by glCallList / glCallLists
 * (every type of the names array, glListBase, nesting to GL's limit of 64) by feeding the list's
 * calls through the runner: state changes inside a list reach the state model when the list is
 * called, draws run in the model. A GL_COMPILE list's calls are not executed while it is
 * compiled; GL_COMPILE_AND_EXECUTE ones are. Commands GL executes at once even inside
 * glNewList (glr_cmd_compiled_into_list) are executed, not compiled. The draws of a call record
 * make one event (gmf_event.draws counts them; each is counted in the totals).
 *
 * A GL_COMPILE_AND_EXECUTE list's vertices run when Mesa runs them: its vbo save module gathers
 * the vertex commands (glBegin .. glEnd, attributes, glRect*, and every array draw, which it turns
 * into vertices) into a vertex node and executes the node (through its immediate-mode loopback)
 * only when the node is closed, by the next command compiled into the list that is not a vertex
 * command (SAVE_FLUSH_VERTICES) or by glEndList (vbo_save_api.c compile_vertex_list). A command
 * GL executes at once, such as a read-back, does not close it: the driver reads the framebuffer
 * without those vertices. So the model holds them back and runs them at that record. */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "statemodel/sm_lists.h"
#include "statemodel/sm_current.h"

struct gmf_lists {
    struct sm_lists *L;
    bool client;           /* a list's CLIENT_ARRAY data was fed since the call began */
    bool pending;          /* vertex commands of a GL_COMPILE_AND_EXECUTE list held back */
    size_t pending_from;   /* the first of them, as the list's call index */
    bool flushing;         /* running them: they are not compiled again */
};

/* The runner's lists, made on first use (NULL: out of memory). */
static struct gmf_lists *lists_get(gmf_runner *r)
{
    if (!r->lists && (r->lists = calloc(1, sizeof *r->lists)) && !(r->lists->L = sm_lists_new())) {
        free(r->lists);
        r->lists = NULL;
    }
    return r->lists;
}

void gmf_lists_free(gmf_runner *r)
{
    if (!r->lists)
        return;
    sm_lists_free(r->lists->L);
    free(r->lists);
    r->lists = NULL;
}

static uint32_t share_of(gmf_runner *r, uint32_t ctx_id)
{
    const struct sm_context *c = sm_context_get(r->sm, ctx_id);
    return c ? sm_context_share_id(c) : 0;
}

int gmf_lists_keep(gmf_runner *r, uint32_t ctx_id, uint32_t name, const void *data, size_t size)
{
    struct gmf_lists *G = lists_get(r);
    r->from_snapshot = true;   /* kept lists come with a snapshot */
    return G ? sm_lists_keep(G->L, share_of(r, ctx_id), name, data, size) : -1;
}

static void flush_pending(gmf_runner *r, struct gmf_lists *G, gmf_event *ev, gmf_feed_fn feed);

/* Whether Mesa's vbo save module takes the command into a vertex node (see the top). */
static bool vertex_cmd(const struct glr_call *c)
{
    if (c->cmd == GLR_PSEUDO_CLIENT_ARRAY)
        return true;
    if (c->cmd >= GLR_CMD_COUNT)
        return false;
    uint32_t k = c->cmd;
    enum sm_imm_kind kind = sm_imm_kind_of(k);
    return k == GLR_CMD_glBegin || k == GLR_CMD_glEnd || k == GLR_CMD_glArrayElement ||
           kind == SM_IMM_ATTRIB || kind == SM_IMM_VERTEX || kind == SM_IMM_RECT || sm_is_attrib_value_cmd(k) ||
           (glr_cmds[k].flags & GLR_CF_MATERIAL) ||   /* glMaterial*: gl_annotations.txt */
           ((glr_cmds[k].flags & GLR_CF_ARRAY_DRAW) &&   /* not the indirect draws */
            glr_cmd_param_role(&glr_cmds[k], GLR_ROLE_indirect) < 0);
}

bool gmf_lists_compile(gmf_runner *r, const struct glr_call *c, gmf_event *ev, gmf_feed_fn feed)
{
    if (c->cmd != GLR_CMD_glNewList && !r->lists)
        return false;
    struct gmf_lists *G = lists_get(r);
    if (!G) {
        gmf_note(ev, "out of memory (display lists)");
        return false;
    }
    if (G->flushing)
        return false;
    bool ce = sm_lists_depth(G->L) == 0 && sm_lists_compiling(G->L, c->ctx_id) == GL_COMPILE_AND_EXECUTE;
    bool compiled = c->cmd < GLR_CMD_COUNT ? glr_cmd_compiled_into_list(c->cmd) : c->cmd == GLR_PSEUDO_CLIENT_ARRAY;
    if (ce && G->pending && (c->cmd == GLR_CMD_glEndList || (compiled && !vertex_cmd(c))))
        flush_pending(r, G, ev, feed);   /* the vertex node closes: its vertices run now */
    size_t before = sm_lists_compiled_count(G->L);
    bool consumed = sm_lists_compile(G->L, share_of(r, c->ctx_id), c);
    if (!consumed && ce && vertex_cmd(c) && sm_lists_compiled_count(G->L) > before) {
        if (!G->pending) {
            G->pending = true;
            G->pending_from = before;
        }
        return true;   /* held back until the node closes */
    }
    return consumed;
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

/* One call of an executed list: fed through the runner, what it ran added to the record's event.
 * A draw compiled from client arrays keeps the arrays enabled when it was compiled (GL copies
 * their elements into the list), whatever is enabled when the list runs: the CLIENT_ARRAY records
 * before it say which legacy arrays those were and their layout, and the draw runs with a copy of
 * the context's vertex arrays where exactly those are enabled (x->vao, set as the override). */
struct exec_ctx {
    gmf_runner *r;
    gmf_feed_fn feed;    /* the runner's gmf_feed, passed in so that this file does not call the hub */
    gmf_event *ev, *t;
    struct sm_vao vao;
    bool vao_pending;    /* CLIENT_ARRAY records seen since the last other call */
};

static void list_array(struct exec_ctx *x, const struct glr_call *c)
{
    uint64_t idx = c->args[0];
    if (!x->vao_pending) {
        const struct sm_context *ctx = sm_context_get(x->r->sm, c->ctx_id);
        const struct sm_vao *cur = ctx ? sm_get_vao(ctx, sm_context_state(ctx)->vao) : NULL;
        if (!cur)
            return;
        x->vao = *cur;
        for (int i = 0; i < SM_LA_COUNT; i++)
            x->vao.legacy[i].enabled = false;
        x->vao_pending = true;
    }
    if (idx < GLR_CLIENT_ARRAY_LEGACY_BASE || idx - GLR_CLIENT_ARRAY_LEGACY_BASE >= SM_LA_COUNT)
        return;   /* generic attributes keep the context's layout */
    struct sm_legacy_array *la = &x->vao.legacy[idx - GLR_CLIENT_ARRAY_LEGACY_BASE];
    *la = (struct sm_legacy_array){ .enabled = true, .size = (int32_t)c->args[1], .type = (uint32_t)c->args[2],
                                    .stride = (int32_t)c->args[5], .pointer = 0, .buffer = 0 };
}

static void exec_call(void *user, const struct glr_call *c)
{
    struct exec_ctx *x = user;
    if (x->r->stopped)
        return;
    bool override = false;
    if (c->cmd == GLR_PSEUDO_CLIENT_ARRAY) {
        x->r->lists->client = true;
        list_array(x, c);
    } else if (x->vao_pending) {
        x->vao_pending = false;   /* the records precede their draw: this call is it */
        if (!x->r->vao_override) {
            x->r->vao_override = &x->vao;
            override = true;
        }
    }
    x->feed(x->r, c, x->ev->record, x->t);
    if (override && x->r->vao_override == &x->vao)
        x->r->vao_override = NULL;
    x->r->totals.records--;   /* records count the stream's, not the lists' calls */
    gmf_note_runner_set(x->r);
    merge(x->ev, x->t);
}

static void missing_list(void *user, uint32_t name)
{
    struct exec_ctx *x = user;
    /* A frame that begins at context creation holds every list ever compiled: one it lacks
     * does not exist, and GL ignores it (piglit's gl-1.0-dlist-bitmap calls such names). */
    if (!x->r->from_snapshot)
        return;
    gmf_note(x->ev, "display list %u not in the capture (never compiled, or dropped by the shim)", name);
}

/* Runs the held-back vertex commands of the list being compiled, as a list call runs its calls. */
static void flush_pending(gmf_runner *r, struct gmf_lists *G, gmf_event *ev, gmf_feed_fn feed)
{
    G->pending = false;
    gmf_event *t = malloc(sizeof *t);
    if (!t) {
        gmf_note(ev, "out of memory (display list vertices)");
        ev->failed = true;
        return;
    }
    struct exec_ctx x = { .r = r, .feed = feed, .ev = ev, .t = t };
    G->flushing = true;
    G->client = false;
    size_t n = sm_lists_compiled_count(G->L);
    for (size_t i = G->pending_from; i < n; i++) {
        const struct glr_call *cc = sm_lists_compiled_call(G->L, i);
        if (cc) {   /* (each was counted as a stream record when it was held back) */
            struct glr_call copy = *cc;
            exec_call(&x, &copy);
        }
    }
    G->flushing = false;
    free(t);
    if (G->client) {   /* the client arrays were the list's, as after a list call */
        memset(r->client, 0, sizeof r->client);
        memset(r->client_legacy, 0, sizeof r->client_legacy);
        r->client_used = false;
    }
}

bool gmf_lists_cmd(gmf_runner *r, const struct glr_call *c, uint32_t k, gmf_event *ev, gmf_feed_fn feed)
{
    if (k != GLR_CMD_glCallList && k != GLR_CMD_glCallLists && k != GLR_CMD_glListBase &&
        k != GLR_CMD_glDeleteLists)
        return false;
    struct gmf_lists *G = lists_get(r);
    gmf_event *t = malloc(sizeof *t);
    if (!G || !t) {
        free(t);
        gmf_note(ev, "out of memory (%s)", glr_cmd_name(k));
        ev->failed = true;
        return true;
    }
    bool outer = sm_lists_depth(G->L) == 0, bad;
    if (outer)
        G->client = false;
    struct exec_ctx x = { .r = r, .feed = feed, .ev = ev, .t = t };
    sm_lists_call(G->L, share_of(r, c->ctx_id), c, exec_call, missing_list, &x, &bad);
    free(t);
    if (bad) {
        gmf_note(ev, "%s: names array not recorded, short or of an unknown type, or lists calling each other "
                 "past 2^24 calls", glr_cmd_name(k));
        ev->failed = true;
    }
    if (outer && G->client) {
        /* the lists' client arrays belong to their own draws (their bytes are the lists') */
        memset(r->client, 0, sizeof r->client);
        memset(r->client_legacy, 0, sizeof r->client_legacy);
        r->client_used = false;
    }
    return true;
}

bool gmf_lists_executing(const gmf_runner *r)
{
    return r->lists && sm_lists_depth(r->lists->L) > 0;
}
