/* Open addressing with linear probing and backward-shift deletion (no tombstones), so lookups stay
 * short however many objects a frame creates and deletes. */
#include <stdlib.h>
#include "statemodel/sm_map.h"

static uint32_t slot_of(uint32_t key, uint32_t cap)
{
    return (key * 2654435761u) & (cap - 1);
}

void *sm_map_get(const struct sm_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    for (uint32_t i = slot_of(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
        if (!m->vals[i])
            return NULL;
        if (m->keys[i] == key)
            return m->vals[i];
    }
}

static bool grow(struct sm_map *m)
{
    uint32_t ncap = m->cap ? m->cap * 2 : 16;
    uint32_t *nk = calloc(ncap, sizeof *nk);
    void **nv = calloc(ncap, sizeof *nv);
    if (!nk || !nv) {
        free(nk);
        free(nv);
        return false;
    }
    for (uint32_t i = 0; i < m->cap; i++) {
        if (!m->vals[i])
            continue;
        uint32_t j = slot_of(m->keys[i], ncap);
        while (nv[j])
            j = (j + 1) & (ncap - 1);
        nk[j] = m->keys[i];
        nv[j] = m->vals[i];
    }
    free(m->keys);
    free(m->vals);
    m->keys = nk;
    m->vals = nv;
    m->cap = ncap;
    return true;
}

bool sm_map_put(struct sm_map *m, uint32_t key, void *val)
{
    if (!val)
        return false;
    if ((m->count + 1) * 4 > m->cap * 3 && !grow(m))
        return false;
    uint32_t i = slot_of(key, m->cap);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & (m->cap - 1);
    if (!m->vals[i])
        m->count++;
    m->keys[i] = key;
    m->vals[i] = val;
    return true;
}

void *sm_map_remove(struct sm_map *m, uint32_t key)
{
    if (!m->cap)
        return NULL;
    uint32_t mask = m->cap - 1, i = slot_of(key, m->cap);
    while (m->vals[i] && m->keys[i] != key)
        i = (i + 1) & mask;
    if (!m->vals[i])
        return NULL;
    void *v = m->vals[i];
    m->vals[i] = NULL;
    m->count--;
    /* Shift back the entries of the probe run that follows so every key stays reachable. */
    for (uint32_t j = (i + 1) & mask; m->vals[j]; j = (j + 1) & mask) {
        uint32_t home = slot_of(m->keys[j], m->cap);
        bool between = (i <= j) ? (i < home && home <= j) : (i < home || home <= j);
        if (between)
            continue;
        m->keys[i] = m->keys[j];
        m->vals[i] = m->vals[j];
        m->vals[j] = NULL;
        i = j;
    }
    return v;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

uint32_t *sm_map_sorted_keys(const struct sm_map *m, size_t *n)
{
    *n = 0;
    if (!m->count)
        return NULL;
    uint32_t *out = malloc(m->count * sizeof *out);
    if (!out)
        return NULL;
    size_t k = 0;
    for (uint32_t i = 0; i < m->cap; i++)
        if (m->vals[i])
            out[k++] = m->keys[i];
    qsort(out, k, sizeof *out, cmp_u32);
    *n = k;
    return out;
}

void sm_map_free(struct sm_map *m, void (*free_val)(void *))
{
    if (free_val)
        for (uint32_t i = 0; i < m->cap; i++)
            if (m->vals[i])
                free_val(m->vals[i]);
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->cap = m->count = 0;
}
