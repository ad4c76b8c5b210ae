/* The snapshot store: ids, a memory budget, eviction of the oldest snapshots. Eviction only drops
 * the store's reference: a session still showing an evicted snapshot keeps it alive. */
#include <pthread.h>
#include <stdlib.h>
#include "shadow/shadow.h"
#include "shadow/sh_internal.h"

struct sh_store {
    pthread_mutex_t lock;
    size_t budget, bytes;
    uint64_t next_id, evictions;
    sh_snapshot **items;   /* oldest first */
    size_t n, cap;
};

sh_store *sh_store_new(size_t budget_bytes)
{
    sh_store *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    pthread_mutex_init(&st->lock, NULL);
    st->budget = budget_bytes ? budget_bytes : (size_t)256 << 20;
    st->next_id = 1;
    return st;
}

void sh_store_free(sh_store *st)
{
    if (!st)
        return;
    for (size_t i = 0; i < st->n; i++)
        sh_snapshot_unref(st->items[i]);
    free(st->items);
    pthread_mutex_destroy(&st->lock);
    free(st);
}

uint64_t sh_store_add(sh_store *st, sh_snapshot *s)
{
    pthread_mutex_lock(&st->lock);
    if (st->n == st->cap) {
        size_t nc = st->cap ? st->cap * 2 : 16;
        sh_snapshot **p = realloc(st->items, nc * sizeof *p);
        if (!p) {
            pthread_mutex_unlock(&st->lock);
            return 0;
        }
        st->items = p;
        st->cap = nc;
    }
    s->id = st->next_id++;
    st->items[st->n++] = sh_snapshot_ref(s);
    st->bytes += s->bytes;
    size_t drop = 0;
    while (st->bytes > st->budget && drop + 1 < st->n) {
        st->bytes -= st->items[drop]->bytes;
        sh_snapshot_unref(st->items[drop]);
        drop++;
        st->evictions++;
    }
    if (drop) {
        for (size_t i = drop; i < st->n; i++)
            st->items[i - drop] = st->items[i];
        st->n -= drop;
    }
    uint64_t id = s->id;
    pthread_mutex_unlock(&st->lock);
    return id;
}

sh_snapshot *sh_store_get(sh_store *st, uint64_t id)
{
    sh_snapshot *r = NULL;
    pthread_mutex_lock(&st->lock);
    for (size_t i = 0; i < st->n; i++)
        if (st->items[i]->id == id) {
            r = sh_snapshot_ref(st->items[i]);
            break;
        }
    pthread_mutex_unlock(&st->lock);
    return r;
}

size_t sh_store_bytes(sh_store *st)
{
    pthread_mutex_lock(&st->lock);
    size_t b = st->bytes;
    pthread_mutex_unlock(&st->lock);
    return b;
}

size_t sh_store_count(sh_store *st)
{
    pthread_mutex_lock(&st->lock);
    size_t n = st->n;
    pthread_mutex_unlock(&st->lock);
    return n;
}

uint64_t sh_store_evictions(sh_store *st)
{
    pthread_mutex_lock(&st->lock);
    uint64_t e = st->evictions;
    pthread_mutex_unlock(&st->lock);
    return e;
}
