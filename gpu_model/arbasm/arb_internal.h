/* Private: the tokenizer, text buffers and binding parser shared by the arbasm sources. */
#ifndef ARB_INTERNAL_H
#define ARB_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include "arbasm.h"

typedef struct arb_sb { char *p; size_t n, cap; bool oom; } arb_sb;
void arb_sb_add(arb_sb *b, const char *s);
void arb_sb_addf(arb_sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

enum arb_tok { T_EOF, T_ID, T_NUM, T_PUNCT };
typedef struct arb_token {
    enum arb_tok kind;
    char text[64];     /* identifiers longer than this are an error */
    double num;
    bool is_int;
    int line;
} arb_token;

#define ARB_MAX_LIST 1024   /* vec4 expressions one binding may expand to (matrix, ranges) */

typedef struct arb_parser {
    const char *src, *end, *pos;
    int line;
    arb_token tok;          /* current token */
    jmp_buf fail;
    arbasm_result *out;
    const arbasm_options *opts;
    bool vp;                /* vertex program */
    bool shadow_option, draw_buffers_option, pixel_center_integer;
    int max_env, max_local; /* highest index used + 1 */
    char **allocs;          /* every string made during the translation, freed at its end, so */
    int n_allocs, cap_allocs; /* an error (longjmp) anywhere leaks nothing */
} arb_parser;

/* Stops the translation with "line N: message". */
_Noreturn void arb_fail(arb_parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void arb_next(arb_parser *p);
bool arb_is(const arb_parser *p, const char *punct_or_word);
void arb_expect(arb_parser *p, const char *punct_or_word);
int arb_int(arb_parser *p);                    /* a non-negative integer literal */
/* snprintf that stops the translation with an error instead of truncating. */
void arb_fmt(arb_parser *p, char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* A copy of s owned by the parser (freed by arb_free_allocs). */
char *arb_strdup(arb_parser *p, const char *s);
void arb_free_allocs(arb_parser *p);

/* Parses a program parameter binding after its first token (state., program., a constant):
 * appends its vec4 GLSL expressions (one per row / element) to exprs. An array range [a..b] or
 * a whole matrix expands to several; `single` rejects those. Returns the count appended. */
int arb_param_binding(arb_parser *p, char **exprs, int max, bool single);

#endif
