/* The API state at every event of a report, stored compactly: the events are cut into chunks of
 * GLRR_STATE_CHUNK records; data/s/<chunk>.js holds each context's state (sm_query_json, as
 * `glreplay state --json` prints it) before the chunk's first record, and for every record the
 * changes it made to any context's state as {p: path, b: before, a: after} (b or a left out when
 * the key did not exist), and "objects": {record: the texture or buffer an upload wrote}. The page rebuilds the state after an event from the chunk's base and the
 * changes up to it, and highlights the event's own changes. A 10,000-event frame is 40 small
 * files, loaded only when an event of theirs is selected. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/report/report.h"
#include "statemodel/statemodel.h"

struct ctx_tree {
    uint32_t id;
    cJSON *tree;      /* the context's state now (owned): sm_query_tree, the JSON of sm_query_json */
    bool seen;        /* still a context of the state (set while refreshing) */
};

struct glrr_states {
    const char *dir;
    struct ctx_tree *ctx;
    size_t n_ctx, cap_ctx;
    cJSON *chunk;      /* the chunk being filled: {chunk, first, base, changes} */
    cJSON *changes;
    uint64_t chunk_index;
    uint64_t files;
};

static struct ctx_tree *find(struct glrr_states *t, uint32_t id)
{
    for (size_t i = 0; i < t->n_ctx; i++)
        if (t->ctx[i].id == id)
            return &t->ctx[i];
    return NULL;
}

static void emit(cJSON *out, const cJSON *path, const cJSON *before, const cJSON *after)
{
    cJSON *c = cJSON_CreateObject();
    cJSON_AddItemToObject(c, "p", cJSON_Duplicate(path, true));
    if (before)
        cJSON_AddItemToObject(c, "b", cJSON_Duplicate(before, true));
    if (after)
        cJSON_AddItemToObject(c, "a", cJSON_Duplicate(after, true));
    cJSON_AddItemToArray(out, c);
}

/* The changes from a to b, appended to out with paths under `path` (an array of keys and indices).
 * Objects compare key by key and arrays of equal length element by element; an array whose length
 * changed is one change (a binding added to a list shifts the rest: the page finds the new
 * elements itself). */
static void diff(const cJSON *a, const cJSON *b, cJSON *path, cJSON *out)
{
    if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
        const cJSON *x;
        cJSON_ArrayForEach(x, a)
        {
            const cJSON *y = cJSON_GetObjectItemCaseSensitive(b, x->string);
            cJSON_AddItemToArray(path, cJSON_CreateString(x->string));
            if (y)
                diff(x, y, path, out);
            else
                emit(out, path, x, NULL);
            cJSON_DeleteItemFromArray(path, cJSON_GetArraySize(path) - 1);
        }
        cJSON_ArrayForEach(x, b)
        {
            if (cJSON_GetObjectItemCaseSensitive(a, x->string))
                continue;
            cJSON_AddItemToArray(path, cJSON_CreateString(x->string));
            emit(out, path, NULL, x);
            cJSON_DeleteItemFromArray(path, cJSON_GetArraySize(path) - 1);
        }
        return;
    }
    if (cJSON_IsArray(a) && cJSON_IsArray(b) && cJSON_GetArraySize(a) == cJSON_GetArraySize(b)) {
        const cJSON *x = a->child, *y = b->child;
        for (int i = 0; x && y; i++, x = x->next, y = y->next) {
            cJSON_AddItemToArray(path, cJSON_CreateNumber(i));
            diff(x, y, path, out);
            cJSON_DeleteItemFromArray(path, cJSON_GetArraySize(path) - 1);
        }
        return;
    }
    if (!cJSON_Compare(a, b, true))
        emit(out, path, a, b);
}

static int flush(struct glrr_states *t, char *err, size_t n)
{
    if (!t->chunk)
        return 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/data/s/%" PRIu64 ".js", t->dir, t->chunk_index);
    int rc = glrr_write_js(path, "glrReport.states", t->chunk, err, n);
    cJSON_Delete(t->chunk);
    t->chunk = t->changes = NULL;
    t->files++;
    return rc;
}

/* Re-reads every context's state; records what changed at `rec` (or, with rec < 0, only takes the
 * states in). */
static int refresh(struct glrr_states *t, const struct sm_state *s, int64_t rec)
{
    for (size_t i = 0; i < t->n_ctx; i++)
        t->ctx[i].seen = false;
    size_t n = sm_context_count(s);
    for (size_t i = 0; i < n; i++) {
        uint32_t id = sm_context_id(sm_context_at(s, i));
        cJSON *now = sm_query_tree(s, id);
        if (!now)
            return -1;
        struct ctx_tree *c = find(t, id);
        /* Most records change nothing: one comparison, no diff. */
        if (c && c->tree && cJSON_Compare(c->tree, now, true)) {
            c->seen = true;
            cJSON_Delete(now);
            continue;
        }
        if (!c) {
            if (t->n_ctx == t->cap_ctx) {
                size_t cap = t->cap_ctx ? 2 * t->cap_ctx : 4;
                struct ctx_tree *m = realloc(t->ctx, cap * sizeof *m);
                if (!m) {
                    cJSON_Delete(now);
                    return -1;
                }
                t->ctx = m;
                t->cap_ctx = cap;
            }
            c = &t->ctx[t->n_ctx++];
            *c = (struct ctx_tree){ .id = id };
        }
        c->seen = true;
        if (rec >= 0) {
            cJSON *ch = cJSON_CreateArray(), *path = cJSON_CreateArray();
            if (c->tree)
                diff(c->tree, now, path, ch);
            else
                emit(ch, path, NULL, now);   /* a context created by this event: the whole state */
            cJSON_Delete(path);
            if (cJSON_GetArraySize(ch)) {
                cJSON *e = cJSON_CreateArray();
                cJSON_AddItemToArray(e, cJSON_CreateNumber((double)rec));
                cJSON_AddItemToArray(e, cJSON_CreateNumber(id));
                cJSON_AddItemToArray(e, ch);
                cJSON_AddItemToArray(t->changes, e);
            } else {
                cJSON_Delete(ch);
            }
        }
        cJSON_Delete(c->tree);
        c->tree = now;
    }
    /* Contexts the event destroyed: their whole state goes. */
    for (size_t i = 0; i < t->n_ctx;) {
        if (t->ctx[i].seen) {
            i++;
            continue;
        }
        if (rec >= 0) {
            cJSON *ch = cJSON_CreateArray(), *path = cJSON_CreateArray(), *e = cJSON_CreateArray();
            emit(ch, path, t->ctx[i].tree, NULL);
            cJSON_Delete(path);
            cJSON_AddItemToArray(e, cJSON_CreateNumber((double)rec));
            cJSON_AddItemToArray(e, cJSON_CreateNumber(t->ctx[i].id));
            cJSON_AddItemToArray(e, ch);
            cJSON_AddItemToArray(t->changes, e);
        }
        cJSON_Delete(t->ctx[i].tree);
        t->ctx[i] = t->ctx[--t->n_ctx];
    }
    return 0;
}

struct glrr_states *glrr_states_new(const char *out_dir, const struct sm_state *initial)
{
    struct glrr_states *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->dir = out_dir;
    if (refresh(t, initial, -1) != 0) {
        glrr_states_free(t);
        return NULL;
    }
    return t;
}

int glrr_states_before(struct glrr_states *t, uint64_t rec, char *err, size_t n)
{
    if (rec % GLRR_STATE_CHUNK && t->chunk)
        return 0;
    if (flush(t, err, n) != 0)
        return -1;
    t->chunk_index = rec / GLRR_STATE_CHUNK;
    t->chunk = cJSON_CreateObject();
    cJSON_AddNumberToObject(t->chunk, "chunk", (double)t->chunk_index);
    cJSON_AddNumberToObject(t->chunk, "first", (double)(t->chunk_index * GLRR_STATE_CHUNK));
    cJSON *base = cJSON_AddObjectToObject(t->chunk, "base");
    for (size_t i = 0; i < t->n_ctx; i++) {
        char key[16];
        snprintf(key, sizeof key, "%u", t->ctx[i].id);
        cJSON_AddItemToObject(base, key, cJSON_Duplicate(t->ctx[i].tree, true));
    }
    t->changes = cJSON_AddArrayToObject(t->chunk, "changes");
    return 0;
}

int glrr_states_after(struct glrr_states *t, uint64_t rec, const struct sm_state *s, char *err, size_t n)
{
    if (refresh(t, s, (int64_t)rec) != 0) {
        snprintf(err, n, "report: out of memory reading the state at event %" PRIu64, rec);
        return -1;
    }
    return 0;
}

void glrr_states_object(struct glrr_states *t, uint64_t rec, cJSON *obj)
{
    if (!obj)
        return;
    if (!t->chunk) {
        cJSON_Delete(obj);
        return;
    }
    cJSON *objects = cJSON_GetObjectItemCaseSensitive(t->chunk, "objects");
    if (!objects)
        objects = cJSON_AddObjectToObject(t->chunk, "objects");
    char key[32];
    snprintf(key, sizeof key, "%" PRIu64, rec);
    cJSON_AddItemToObject(objects, key, obj);
}

int glrr_states_finish(struct glrr_states *t, char *err, size_t n)
{
    return flush(t, err, n);
}

void glrr_states_free(struct glrr_states *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_ctx; i++)
        cJSON_Delete(t->ctx[i].tree);
    free(t->ctx);
    cJSON_Delete(t->chunk);
    free(t);
}
