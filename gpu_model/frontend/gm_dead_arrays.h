/* Sizes of arrays that nothing reads become 1, so glslang compiles declarations whose size only
 * Mesa's constant folding evaluates (gm_dead_arrays.c). Internal to gpu_model/frontend. */
#ifndef GM_DEAD_ARRAYS_H
#define GM_DEAD_ARRAYS_H

/* A copy of src with those sizes replaced (same length, same lines); *changed says whether any
 * was. NULL when out of memory. */
char *gm_dead_array_sizes(const char *src, int *changed);

#endif
