/* Bodies for declared functions that only code Mesa folds away calls (gm_stub_functions.c).
 * Internal to gpu_model/frontend. */
#ifndef GM_STUB_FUNCTIONS_H
#define GM_STUB_FUNCTIONS_H

/* A copy of src with a body appended (after the last line) for each function that glslang's
 * link_log reports without one and that src declares at global scope; *changed says whether
 * any was. NULL when out of memory. */
char *gm_stub_undefined_functions(const char *src, const char *link_log, int *changed);

#endif
