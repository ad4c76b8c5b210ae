/* A GLSL preprocessor used for analysis by the upgrade pass (gm_pp.c, gm_pp_expr.c).
 *
 * The upgrade pass rewrites source text, but its decisions (which compatibility built-ins a
 * shader uses, whether gl_FragColor needs an output, which extensions are enabled) must be made
 * on the text the driver's preprocessor produces: the active branches of #if/#ifdef/#elif/#else,
 * with object- and function-like macros expanded. gm_pp_analyse runs that preprocessor over a
 * source and reports, per physical line, whether the line is active code, an active directive,
 * a conditional directive or inside an inactive branch, the macro-expanded tokens of the active
 * code, and the #extension directives of the active text. Internal to gpu_model/frontend. */
#ifndef GM_PP_H
#define GM_PP_H

#include <stddef.h>

enum {
    GM_PP_CODE,        /* active line of code (or blank) */
    GM_PP_DIRECTIVE,   /* active #define, #undef, #extension, #version, #line, #pragma, #error */
    GM_PP_CONDITIONAL, /* #if, #ifdef, #ifndef, #elif, #else, #endif (resolved by the analysis) */
    GM_PP_INACTIVE,    /* inside a branch that is not taken */
};

enum { GM_PP_DISABLE, GM_PP_ENABLE, GM_PP_REQUIRE, GM_PP_WARN };

typedef struct {
    const char *s;
    unsigned len;
} gm_pp_token;

typedef struct {
    char name[96];
    int behavior; /* GM_PP_* above */
    int line;     /* physical, 1-based */
} gm_pp_extension;

typedef struct gm_pp_result {
    char *clean;           /* the source with comments replaced by spaces; newlines kept */
    int line_count;        /* physical lines */
    unsigned char *kind;   /* per physical line (index 0 = line 1): GM_PP_CODE ... */
    gm_pp_token *expanded; /* the active code after macro expansion (tokens point into memory
                            * owned by the result) */
    size_t expanded_count;
    int complete;          /* 0: expansion stopped at a size limit (expanded holds what was done) */
    gm_pp_extension *ext;  /* active #extension directives, in order */
    int ext_count;
    /* internal storage */
    char *joined;
    void *arena;
} gm_pp_result;

/* Preprocesses src as a GLSL `version` (es: GLSL ES; profile: "core", "compatibility" or "")
 * shader would be by Mesa. The #version line itself is classified as a directive and ignored.
 * Returns 0, or -1 when out of memory (out is then empty). */
int gm_pp_analyse(const char *src, int version, int es, const char *profile, gm_pp_result *out);
void gm_pp_free(gm_pp_result *r);

/* Is `name` defined as a macro by the driver (an extension Mesa's llvmpipe advertises)? The
 * heuristic used for #ifdef GL_...: ARB, EXT, OES and KHR extensions are. */
int gm_pp_extension_macro(const char *name, unsigned len);

/* #if expression evaluation over already expanded tokens (gm_pp_expr.c): identifiers are 0,
 * `defined` has been replaced. Returns 1/0, or -1 on a malformed expression. */
int gm_pp_eval(const gm_pp_token *t, size_t n);

#endif
