/* Sizes of arrays that nothing reads become 1, so glslang compiles declarations whose size only
 * Mesa's constant folding evaluates (gm_dead_arrays.c). Internal to gpu_model/frontend. */
#ifndef GM_DEAD_ARRAYS_H
#define GM_DEAD_ARRAYS_H

/* A copy of src with those sizes replaced (same length, same lines); *changed says whether any
 * was. NULL when out of memory. */
char *gm_dead_array_sizes(const char *src, int *changed);
/* A copy of src where implicitly sized arrays indexed only by integer literals get the size
 * largest index + 1 written into their declaration (`a[]` -> `a[5]`: same lines); *changed says
 * whether any did. NULL when out of memory. */
char *gm_implicit_array_sizes(const char *src, int *changed);
/* The same for one of several units linked into one stage: the size counts the indices of the
 * other units (others[0..n_others)) too, as Mesa sizes such an array at link time. */
char *gm_implicit_array_sizes_units(const char *src, const char *const *others, int n_others,
                                    int *changed);

#endif
