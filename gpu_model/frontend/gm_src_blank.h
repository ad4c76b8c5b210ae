/* GLSL source with comments or preprocessor lines blanked (gm_src_blank.c). Internal to
 * gpu_model/frontend. */
#ifndef GM_SRC_BLANK_H
#define GM_SRC_BLANK_H

/* A copy of s with comments, and preprocessor lines when `directives`, replaced by spaces (same
 * offsets and lines), or NULL when out of memory. */
char *gm_src_blank(const char *s, int directives);
/* gm_src_blank(s, 1). */
char *gm_code_only(const char *s);

#endif
