/* Query objects and conditional rendering in the model (see DESIGN.md, "Queries and copies").
 *
 * Each context's query objects count what the model's draws do between glBeginQuery and
 * glEndQuery: samples that passed the depth and stencil tests (the pipeline's
 * fragments_passed, per sample when multisampled) and primitives out of primitive assembly
 * before clipping and culling (the pipeline's primitives_in, strips decomposed; llvmpipe's
 * draw module counts the same in its stream-output stage). In a model every result is
 * available at once, so conditional rendering in every mode (WAIT, NO_WAIT, BY_REGION_*,
 * *_INVERTED) uses the real result, and results read into a GL_QUERY_BUFFER are written into
 * the model's buffer contents (the state model's, as SSBO writes are). A result an earlier
 * frame left in an object comes from the capture's snapshot (sm_query.has_result). */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"

typedef struct gmf_query {
    uint32_t ctx_id, name;
    uint32_t target, index;
    bool active;
    bool has_result;
    uint64_t result;          /* raw count (ANY_SAMPLES_*: reduced to 0/1 when read) */
    bool incomplete;          /* a draw counted in it failed in the model */
} gmf_query;

typedef struct gmf_cond {
    uint32_t ctx_id;
    bool on;
    uint32_t query, mode;
} gmf_cond;

struct gmf_queries {
    gmf_query *q;
    int n, cap;
    gmf_cond *cond;
    int n_cond;
};

static gmf_queries *qs_get(gmf_runner *r)
{
    if (!r->queries)
        r->queries = calloc(1, sizeof *r->queries);
    return r->queries;
}

void gmf_queries_free(gmf_runner *r)
{
    if (!r->queries)
        return;
    free(r->queries->q);
    free(r->queries->cond);
    free(r->queries);
    r->queries = NULL;
}

static gmf_query *query_find(gmf_runner *r, uint32_t ctx_id, uint32_t name, bool create)
{
    gmf_queries *qs = qs_get(r);
    if (!qs)
        return NULL;
    for (int i = 0; i < qs->n; i++)
        if (qs->q[i].ctx_id == ctx_id && qs->q[i].name == name)
            return &qs->q[i];
    if (!create)
        return NULL;
    if (qs->n == qs->cap) {
        int cap = qs->cap ? 2 * qs->cap : 16;
        gmf_query *n = realloc(qs->q, (size_t)cap * sizeof *n);
        if (!n)
            return NULL;
        qs->q = n;
        qs->cap = cap;
    }
    gmf_query *q = &qs->q[qs->n++];
    memset(q, 0, sizeof *q);
    q->ctx_id = ctx_id;
    q->name = name;
    return q;
}

static gmf_cond *cond_get(gmf_runner *r, uint32_t ctx_id)
{
    gmf_queries *qs = qs_get(r);
    if (!qs)
        return NULL;
    for (int i = 0; i < qs->n_cond; i++)
        if (qs->cond[i].ctx_id == ctx_id)
            return &qs->cond[i];
    gmf_cond *n = realloc(qs->cond, (size_t)(qs->n_cond + 1) * sizeof *n);
    if (!n)
        return NULL;
    qs->cond = n;
    gmf_cond *c = &qs->cond[qs->n_cond++];
    memset(c, 0, sizeof *c);
    c->ctx_id = ctx_id;
    return c;
}

/* GL_ARB_pipeline_statistics_query counters the model counts: primitives out of primitive
 * assembly, which is what llvmpipe's draw module counts both as submitted (ia_primitives) and
 * as reaching the clipper (c_invocations) when no geometry or tessellation stage runs. */
static bool counted_statistic(uint32_t t)
{
    return t == GL_PRIMITIVES_SUBMITTED_ARB || t == GL_CLIPPING_INPUT_PRIMITIVES_ARB;
}

/* The other pipeline statistics: accepted, their draws modelled, but no count is kept; only
 * reading one into a buffer (where the model's result matters) is reported. */
static bool uncounted_statistic(uint32_t t)
{
    return t == GL_VERTICES_SUBMITTED_ARB || t == GL_VERTEX_SHADER_INVOCATIONS_ARB ||
           t == GL_TESS_CONTROL_SHADER_PATCHES_ARB || t == GL_TESS_EVALUATION_SHADER_INVOCATIONS_ARB ||
           t == GL_GEOMETRY_SHADER_INVOCATIONS || t == GL_GEOMETRY_SHADER_PRIMITIVES_EMITTED_ARB ||
           t == GL_FRAGMENT_SHADER_INVOCATIONS_ARB || t == GL_COMPUTE_SHADER_INVOCATIONS_ARB ||
           t == GL_CLIPPING_OUTPUT_PRIMITIVES_ARB;
}

static bool counted_target(uint32_t t)
{
    return t == GL_SAMPLES_PASSED || t == GL_ANY_SAMPLES_PASSED ||
           t == GL_ANY_SAMPLES_PASSED_CONSERVATIVE || t == GL_PRIMITIVES_GENERATED ||
           t == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN || counted_statistic(t);
}

/* The result as GL reports it (booleans for the any-samples targets); false when unknown. */
static bool query_value(gmf_runner *r, uint32_t ctx_id, uint32_t name, uint64_t *v,
                        uint32_t *target)
{
    gmf_query *q = query_find(r, ctx_id, name, false);
    uint64_t raw;
    uint32_t t;
    if (q && q->has_result) {
        raw = q->result;
        t = q->target;
    } else {
        const struct sm_context *c = sm_context_get(r->sm, ctx_id);
        const struct sm_query *sq = c ? sm_get_query(c, name) : NULL;
        if (!sq || !sq->has_result)
            return false;
        raw = sq->result;
        t = sq->target;
    }
    if (t == GL_ANY_SAMPLES_PASSED || t == GL_ANY_SAMPLES_PASSED_CONSERVATIVE)
        raw = raw != 0;
    *v = raw;
    if (target)
        *target = t;
    return true;
}

void gmf_queries_initial(gmf_runner *r, const struct sm_state *initial)
{
    for (size_t i = 0; initial && i < sm_context_count(initial); i++) {
        const struct sm_context *c = sm_context_at(initial, i);
        size_t n = sm_object_count(c, SM_OBJ_QUERY);
        uint32_t *names = n ? malloc(n * sizeof *names) : NULL;
        if (!names)
            continue;
        n = sm_object_names(c, SM_OBJ_QUERY, names, n);
        for (size_t k = 0; k < n; k++) {
            const struct sm_query *sq = sm_get_query(c, names[k]);
            if (!sq || !sq->has_result)
                continue;
            gmf_query *q = query_find(r, sm_context_id(c), names[k], true);
            if (!q)
                continue;
            q->target = sq->target;
            q->index = sq->index;
            q->has_result = true;
            q->result = sq->result;
        }
        free(names);
    }
}

void gmf_queries_after_draw(gmf_runner *r, const gmf_event *ev)
{
    if (!r->queries)
        return;
    gmf_queries *qs = r->queries;
    for (int i = 0; i < qs->n; i++) {
        gmf_query *q = &qs->q[i];
        if (!q->active || q->ctx_id != ev->ctx_id)
            continue;
        if (ev->failed)
            q->incomplete = true;
        switch (q->target) {
        case GL_SAMPLES_PASSED: case GL_ANY_SAMPLES_PASSED:
        case GL_ANY_SAMPLES_PASSED_CONSERVATIVE:
            q->result += ev->stats.fragments_passed;
            break;
        case GL_PRIMITIVES_GENERATED:
            if (q->index == 0)
                q->result += ev->stats.primitives;
            break;
        case GL_PRIMITIVES_SUBMITTED_ARB: case GL_CLIPPING_INPUT_PRIMITIVES_ARB:
            if (ev->kind == GMF_EV_DRAW)
                q->result += ev->stats.primitives;
            break;
        default:
            break;
        }
    }
}

/* Primitives transform feedback wrote (gmf_xfb.c), into the context's active
 * GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN queries of stream 0. */
void gmf_queries_add_written(gmf_runner *r, uint32_t ctx_id, uint64_t prims)
{
    if (!r->queries)
        return;
    for (int i = 0; i < r->queries->n; i++) {
        gmf_query *q = &r->queries->q[i];
        if (q->active && q->ctx_id == ctx_id && q->index == 0 &&
            q->target == GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
            q->result += prims;
    }
}

bool gmf_cond_render_skip(gmf_runner *r, uint32_t ctx_id, int kind, gmf_event *ev)
{
    if ((kind == GMF_EV_DRAW || kind == GMF_EV_CLEAR) && gmf_render_mode_off(r, ctx_id))
        goto discarded;   /* GL_SELECT / GL_FEEDBACK: nothing is rasterized (gmf_rendermode.c) */
    if (!r->queries)
        return false;
    gmf_cond *cd = NULL;
    for (int i = 0; i < r->queries->n_cond; i++)
        if (r->queries->cond[i].ctx_id == ctx_id)
            cd = &r->queries->cond[i];
    if (!cd || !cd->on)
        return false;
    uint64_t v;
    if (!query_value(r, ctx_id, cd->query, &v, NULL)) {
        gmf_note(ev, "conditional rendering on query %u without a result (drawn)", cd->query);
        return false;
    }
    bool inverted = cd->mode == GL_QUERY_WAIT_INVERTED || cd->mode == GL_QUERY_NO_WAIT_INVERTED ||
                    cd->mode == GL_QUERY_BY_REGION_WAIT_INVERTED ||
                    cd->mode == GL_QUERY_BY_REGION_NO_WAIT_INVERTED;
    bool pass = (v != 0) != inverted;
    if (pass)
        return false;
    /* Discarded: still an event of its kind, so observers and comparisons see it. */
discarded:
    if (kind == GMF_EV_DRAW) {
        ev->kind = GMF_EV_DRAW;
        ev->draw = r->totals.draws++;
        const struct sm_context *c = sm_context_get(r->sm, ctx_id);
        if (c) {
            ev->program = sm_context_state(c)->program;
            ev->fbo = sm_context_state(c)->draw_fbo;
        }
    } else if (kind == GMF_EV_CLEAR) {
        ev->kind = GMF_EV_CLEAR;
        ev->draw = r->totals.clears++;
    }
    if (ev->kind != GMF_EV_NONE)
        gmf_hooks_draw_begin(r, ev);   /* paired with the runner's draw_end */
    return true;
}

/* Writes a result into the model's buffer `buffer` at `offset` as the call's type
 * (32-bit results clamp, as llvmpipe's get_query_result_resource does). */
static void write_result(const struct sm_context *c, uint32_t buffer,
                         uint64_t offset, uint64_t v, int bits, bool is_signed, gmf_event *ev,
                         const char *fn)
{
    const struct sm_buffer *b = sm_get_buffer(c, buffer);
    size_t n = (size_t)bits / 8;
    if (!b || !b->data_known || !b->data) {
        gmf_note(ev, "%s: query buffer %u contents unknown", fn, buffer);
        return;
    }
    if (offset > b->size || b->size - offset < n) {
        gmf_note(ev, "%s: offset past the end of query buffer %u", fn, buffer);
        return;
    }
    uint8_t bytes[8];
    if (bits == 32) {
        uint32_t w;
        if (is_signed)
            w = (uint32_t)(v > 0x7fffffffu ? 0x7fffffffu : v);
        else
            w = (uint32_t)(v > 0xffffffffu ? 0xffffffffu : v);
        memcpy(bytes, &w, 4);
    } else {
        memcpy(bytes, &v, 8);
    }
    memcpy(b->data + offset, bytes, n);
}

static void get_result_into_buffer(gmf_runner *r, const struct sm_context *c, uint32_t name,
                                   uint32_t pname, uint32_t buffer, uint64_t offset, uint32_t k,
                                   gmf_event *ev)
{
    const char *fn = glr_cmd_name(k);   /* for the notes */
    const struct glr_cmd_values *rt = glr_cmd_values_of(k);   /* "family result" in gl_annotations.txt */
    uint8_t type = rt && rt->family == GLR_VALUES_RESULT ? rt->type : GLR_VT_UI;
    int bits = type == GLR_VT_I64 || type == GLR_VT_UI64 ? 64 : 32;
    bool is_signed = type == GLR_VT_I || type == GLR_VT_I64;
    uint64_t v = 0;
    uint32_t target = 0;
    if (pname == GL_QUERY_RESULT_AVAILABLE) {
        v = 1;   /* every result is available in a model */
    } else if (pname == GL_QUERY_TARGET) {
        gmf_query *q = query_find(r, sm_context_id(c), name, false);
        const struct sm_query *sq = sm_get_query(c, name);
        v = q && q->target ? q->target : sq ? sq->target : 0;
    } else if (pname == GL_QUERY_RESULT || pname == GL_QUERY_RESULT_NO_WAIT) {
        if (!query_value(r, sm_context_id(c), name, &v, &target)) {
            gmf_note(ev, "%s: query %u has no result in the model", fn, name);
            return;
        }
        if (!counted_target(target)) {
            gmf_note(ev, "%s: query %u of target 0x%04x not modelled", fn, name, target);
            return;
        }
        gmf_query *q = query_find(r, sm_context_id(c), name, false);
        if (q && q->incomplete)
            gmf_note(ev, "%s: query %u counted draws that failed in the model", fn, name);
    } else {
        gmf_note(ev, "%s: pname 0x%04x not modelled", fn, pname);
        return;
    }
    write_result(c, buffer, offset, v, bits, is_signed, ev, fn);
}

bool gmf_queries_cmd(gmf_runner *r, const struct glr_call *call, uint32_t k, gmf_event *ev)
{
    const char *n = glr_cmd_name(k);
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c)
        return false;
    if (k == GLR_CMD_glBeginQuery || k == GLR_CMD_glBeginQueryIndexed) {
        bool ix = k == GLR_CMD_glBeginQueryIndexed;
        uint32_t target = (uint32_t)call->args[0];
        gmf_query *q = query_find(r, call->ctx_id, (uint32_t)call->args[ix ? 2 : 1], true);
        if (!q)
            return true;
        q->target = target;
        q->index = ix ? (uint32_t)call->args[1] : 0;
        q->active = true;
        q->has_result = false;
        q->incomplete = false;
        q->result = 0;
        /* time queries and the uncounted pipeline statistics are not modelled (read into a
         * buffer: noted there), nor is transform feedback overflow */
        if (!counted_target(target) && target != GL_TIME_ELAPSED && !uncounted_statistic(target))
            gmf_note(ev, "%s: target 0x%04x not modelled", n, target);
        else if (target == GL_PRIMITIVES_GENERATED && q->index != 0)
            gmf_note(ev, "%s: primitives generated on vertex stream %u not modelled", n, q->index);
        return true;
    }
    if (k == GLR_CMD_glEndQuery || k == GLR_CMD_glEndQueryIndexed) {
        uint32_t target = (uint32_t)call->args[0];
        uint32_t index = k == GLR_CMD_glEndQueryIndexed ? (uint32_t)call->args[1] : 0;
        gmf_queries *qs = qs_get(r);
        for (int i = 0; qs && i < qs->n; i++) {
            gmf_query *q = &qs->q[i];
            if (q->ctx_id == call->ctx_id && q->active && q->target == target && q->index == index) {
                q->active = false;
                q->has_result = true;
            }
        }
        return true;
    }
    if (k == GLR_CMD_glBeginConditionalRender) {
        gmf_cond *cd = cond_get(r, call->ctx_id);
        if (cd) {
            cd->on = true;
            cd->query = (uint32_t)call->args[0];
            cd->mode = (uint32_t)call->args[1];
        }
        return true;
    }
    if (k == GLR_CMD_glEndConditionalRender) {
        gmf_cond *cd = cond_get(r, call->ctx_id);
        if (cd)
            cd->on = false;
        return true;
    }
    if (glr_cmds[k].readback == GLR_RBC_GET_QUERY_OBJECT) {   /* glGetQueryObject* */
        /* (id, pname, params): with a query buffer bound, params is an offset into it. */
        uint32_t qb = sm_context_state(c)->buffer[SM_BT_QUERY];
        if (qb)
            get_result_into_buffer(r, c, (uint32_t)call->args[0], (uint32_t)call->args[1], qb,
                                   call->args[2], k, ev);
        return true;
    }
    if (glr_cmds[k].writes == GLR_WRITES_QUERY_RESULT) {   /* the rest: glGetQueryBufferObject* */
        /* (id, buffer, pname, offset) */
        get_result_into_buffer(r, c, (uint32_t)call->args[0], (uint32_t)call->args[2],
                               (uint32_t)call->args[1], call->args[3], k, ev);
        return true;
    }
    return false;
}
