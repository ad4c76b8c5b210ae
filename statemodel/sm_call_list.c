/* sm_call_list: a growable list of generated calls with the blobs it owns. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_restore.h"

void sm_call_list_free(struct sm_call_list *l)
{
    if (!l)
        return;
    for (size_t i = 0; i < l->n_owned; i++)
        free(l->owned[i]);
    free(l->owned);
    free(l->calls);
    memset(l, 0, sizeof *l);
}

struct glr_call *sm_call_list_push(struct sm_call_list *l)
{
    if (l->failed)
        return NULL;
    if (l->count == l->cap) {
        size_t nc = l->cap ? l->cap * 2 : 64;
        void *p = realloc(l->calls, nc * sizeof *l->calls);
        if (!p) {
            l->failed = true;
            return NULL;
        }
        l->calls = p;
        l->cap = nc;
    }
    struct glr_call *c = &l->calls[l->count++];
    memset(c, 0, sizeof *c);
    c->seq = l->count - 1;
    return c;
}

struct glr_call *rs_emit(struct rs *r, uint32_t cmd, int n, ...)
{
    struct glr_call *c = sm_call_list_push(r->l);
    if (!c)
        return NULL;
    c->cmd = cmd;
    c->ctx_id = r->ctx;
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n && i < GLR_MAX_PARAMS; i++)
        c->args[i] = va_arg(ap, uint64_t);
    va_end(ap);
    return c;
}

void rs_blob_ref(struct glr_call *c, int i, const void *data, uint64_t size)
{
    if (!c)
        return;
    c->blobs[i].data = data;
    c->blobs[i].size = data ? size : 0;
}

void sm_call_list_own_blob(struct sm_call_list *l, struct glr_call *c, int i, const void *data, uint64_t size)
{
    if (!c || l->failed)
        return;
    if (l->n_owned == l->cap_owned) {
        size_t nc = l->cap_owned ? l->cap_owned * 2 : 64;
        void *p = realloc(l->owned, nc * sizeof *l->owned);
        if (!p) {
            l->failed = true;
            return;
        }
        l->owned = p;
        l->cap_owned = nc;
    }
    void *copy = malloc(size ? (size_t)size : 1);
    if (!copy) {
        l->failed = true;
        return;
    }
    if (size)
        memcpy(copy, data, (size_t)size);
    l->owned[l->n_owned++] = copy;
    c->blobs[i].data = copy;
    c->blobs[i].size = size;
}

void rs_blob_own(struct rs *r, struct glr_call *c, int i, const void *data, uint64_t size)
{
    sm_call_list_own_blob(r->l, c, i, data, size);
}

uint64_t rs_f(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

uint64_t rs_d(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    return b;
}
