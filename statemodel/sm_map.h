/* sm_map: a small open-addressing hash map from a non-zero GL name (uint32_t) to an object pointer.
 * Objects are owned by whoever puts them in; sm_map_free can free them. */
#ifndef SM_MAP_H
#define SM_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sm_map {
    uint32_t *keys;
    void **vals;      /* NULL: empty slot */
    uint32_t cap;     /* power of two, or 0 */
    uint32_t count;
};

void *sm_map_get(const struct sm_map *m, uint32_t key);
/* Inserts or replaces; false if memory runs out. */
bool sm_map_put(struct sm_map *m, uint32_t key, void *val);
/* Removes key and returns its value (NULL if absent). */
void *sm_map_remove(struct sm_map *m, uint32_t key);
/* All keys ascending, malloc'd (NULL with *n 0 when empty or out of memory: check *n vs count). */
uint32_t *sm_map_sorted_keys(const struct sm_map *m, size_t *n);
void sm_map_free(struct sm_map *m, void (*free_val)(void *));

#endif
