/* Braces around do-while bodies that are a single statement, for their GLSL scope
 * (gm_do_scope.c). Internal to gpu_model/frontend. */
#ifndef GM_DO_SCOPE_H
#define GM_DO_SCOPE_H

/* A copy of src where each `do STATEMENT while (...)` reads `do {STATEMENT }while (...)`
 * (same lines); *changed says whether any did. NULL when out of memory. */
char *gm_brace_do_bodies(const char *src, int *changed);

#endif
