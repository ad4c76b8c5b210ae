/* Array sizes that Mesa determines and glslang does not, for a retry after glslang's error.
 *
 * 1. Sizes of arrays nothing reads (gm_dead_array_sizes).
 *
 * Mesa folds every built-in function with constant arguments (bitCount, bitfieldExtract, findMSB,
 * fma, ldexp, packDouble2x32, ...), so `float a[bitCount(7) == 3 ? 1 : -1];` is a constant array
 * size to the driver; glslang folds only some built-ins and rejects the declaration ("array size
 * must be a constant integer expression"). Shaders use such declarations as compile-time
 * assertions (piglit's STATIC_ASSERT macro): the array is declared and never used. The driver
 * accepted the shader, so its size was positive, and an array that no expression names has no
 * effect but its size: such sizes become 1. An array named anywhere but in a declaration keeps its
 * size (and glslang's error). Only the bracketed size changes, padded with blanks, so every line
 * and column stays where it was.
 *
 * 2. Implicitly sized arrays whose .length() is asked (gm_implicit_array_sizes). `float a[];
 * a[4] = 1.0; a.length()` is 5 to Mesa, which sizes such an array by the largest constant index
 * the stage uses; glslang sizes it the same way but only at link time, and refuses .length()
 * before. The declaration gets that size written in (`a[5]`) when every index of the array is
 * an integer literal; otherwise it stays as it was. Used by gm_compile.c as retries. */
#include "gm_dead_arrays.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    size_t at, len;
} tok;

typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} strbuf_t;

static void sb_add(strbuf_t *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = 0;
}

static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Tokens of s outside comments: identifiers, numbers, and single punctuation characters. */
static tok *tokenize(const char *s, size_t *count)
{
    size_t n = 0, cap = 256;
    tok *t = malloc(cap * sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; s[i];) {
        size_t j = i + 1;
        if (s[i] == '/' && s[i + 1] == '/') {
            while (s[i] && s[i] != '\n')
                i++;
            continue;
        }
        if (s[i] == '/' && s[i + 1] == '*') {
            const char *e = strstr(s + i + 2, "*/");
            i = e ? (size_t)(e - s) + 2 : strlen(s);
            continue;
        }
        if (isspace((unsigned char)s[i]) || s[i] == '\\') {
            i++;
            continue;
        }
        if (ident_start(s[i]) || isdigit((unsigned char)s[i]))
            while (ident_char(s[j]) || (isdigit((unsigned char)s[i]) && s[j] == '.'))
                j++;
        if (n == cap) {
            tok *d = realloc(t, (cap *= 2) * sizeof *t);
            if (!d) {
                free(t);
                return NULL;
            }
            t = d;
        }
        t[n].at = i;
        t[n++].len = j - i;
        i = j;
    }
    *count = n;
    return t;
}

static int is(const char *s, const tok *t, const char *w)
{
    return strlen(w) == t->len && !strncmp(s + t->at, w, t->len);
}

/* Is t a basic type name (the element type of a declaration)? */
static int basic_type(const char *s, const tok *t)
{
    static const char *const prefixes[] = {"vec", "ivec", "uvec", "bvec", "dvec", "mat", "dmat",
                                           "i64vec", "u64vec", NULL};
    static const char *const words[] = {"float", "int", "uint", "bool", "double", "int64_t",
                                        "uint64_t", NULL};
    for (const char *const *w = words; *w; w++)
        if (is(s, t, *w))
            return 1;
    for (const char *const *p = prefixes; *p; p++) {
        size_t n = strlen(*p);
        if (t->len > n && !strncmp(s + t->at, *p, n) && isdigit((unsigned char)s[t->at + n]))
            return 1;
    }
    return 0;
}

/* Index of the ']' closing the '[' at token k, or 0 when it is not on the same line. */
static size_t closing(const char *s, const tok *t, size_t n, size_t k)
{
    int depth = 0;
    for (size_t i = k; i < n; i++) {
        if (memchr(s + t[k].at, '\n', t[i].at - t[k].at))
            return 0;
        depth += is(s, &t[i], "[");
        depth -= is(s, &t[i], "]");
        if (!depth)
            return i;
    }
    return 0;
}

/* Is every occurrence of the identifier at token k a declaration `TYPE NAME [size]`? */
static int only_declared(const char *s, const tok *t, size_t n, size_t k)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].len != t[k].len || strncmp(s + t[i].at, s + t[k].at, t[k].len))
            continue;
        if (i == 0 || i + 1 >= n || !basic_type(s, &t[i - 1]) || !is(s, &t[i + 1], "["))
            return 0;
        if (i >= 2 && is(s, &t[i - 2], "."))
            return 0;
    }
    return 1;
}

char *gm_dead_array_sizes(const char *src, int *changed)
{
    *changed = 0;
    size_t n = 0;
    tok *t = tokenize(src, &n);
    char *out = t ? strdup(src) : NULL;
    if (!out) {
        free(t);
        return NULL;
    }
    for (size_t k = 1; k + 1 < n; k++) {
        if (!ident_start(src[t[k].at]) || !basic_type(src, &t[k - 1]) || !is(src, &t[k + 1], "["))
            continue;
        size_t close = closing(src, t, n, k + 1);
        if (!close || close == k + 2)
            continue; /* not on one line, or unsized */
        if (close == k + 3 && isdigit((unsigned char)src[t[k + 2].at]))
            continue; /* a literal size: glslang folds it */
        if (!only_declared(src, t, n, k))
            continue;
        size_t from = t[k + 1].at + 1, to = t[close].at;
        memset(out + from, ' ', to - from);
        out[from] = '1';
        *changed = 1;
    }
    free(t);
    return out;
}

/* The largest integer-literal index of every `NAME[` in s (tokens t[0..n)), NAME being name_len
 * bytes at name, skipping token k (the declaration; SIZE_MAX: none) and any other implicitly sized
 * declaration `TYPE NAME[]` (another unit's); -2 when NAME never appears there, -1 when one use is
 * not a literal or the name is used without an index (other than .length()). */
static long max_literal_index(const char *s, const tok *t, size_t n, size_t k, const char *name,
                              size_t name_len)
{
    long max = -2;
    for (size_t i = 0; i < n; i++) {
        if (i == k || t[i].len != name_len || strncmp(s + t[i].at, name, name_len))
            continue;
        if (i + 2 < n && is(s, &t[i + 1], ".") && is(s, &t[i + 2], "length"))
            continue;
        if (i > 0 && basic_type(s, &t[i - 1]) && i + 2 < n && is(s, &t[i + 1], "[") &&
            is(s, &t[i + 2], "]"))
            continue;
        if (i + 3 >= n || !is(s, &t[i + 1], "[") || !is(s, &t[i + 3], "]") ||
            !isdigit((unsigned char)s[t[i + 2].at]))
            return -1;
        long v = strtol(s + t[i + 2].at, NULL, 0);
        if (v > max)
            max = v;
    }
    return max;
}

char *gm_implicit_array_sizes(const char *src, int *changed)
{
    return gm_implicit_array_sizes_units(src, NULL, 0, changed);
}

char *gm_implicit_array_sizes_units(const char *src, const char *const *others, int n_others,
                                    int *changed)
{
    *changed = 0;
    size_t n = 0;
    tok *t = tokenize(src, &n);
    size_t *on = n_others > 0 ? calloc((size_t)n_others, sizeof *on) : NULL;
    tok **ot = n_others > 0 ? calloc((size_t)n_others, sizeof *ot) : NULL;
    int ok = t && (n_others <= 0 || (on && ot));
    for (int u = 0; ok && u < n_others; u++)
        ok = others[u] && (ot[u] = tokenize(others[u], &on[u])) != NULL;
    strbuf_t out = {0};
    size_t copied = 0;
    for (size_t k = 1; ok && k + 2 < n; k++) {
        if (!ident_start(src[t[k].at]) || !basic_type(src, &t[k - 1]) || !is(src, &t[k + 1], "[") ||
            !is(src, &t[k + 2], "]"))
            continue;
        /* the stage's largest literal index, over every unit linked into it (Mesa sizes a global
         * implicitly sized array at link time) */
        long max = max_literal_index(src, t, n, k, src + t[k].at, t[k].len);
        for (int u = 0; u < n_others && max != -1; u++) {
            long m = max_literal_index(others[u], ot[u], on[u], SIZE_MAX, src + t[k].at, t[k].len);
            max = m == -1 ? -1 : m > max ? m : max;
        }
        if (max < 0 || max > 65535)
            continue;
        char size[16];
        snprintf(size, sizeof size, "%ld", max + 1);
        sb_add(&out, src + copied, t[k + 1].at + 1 - copied);
        sb_add(&out, size, strlen(size));
        copied = t[k + 2].at;
        *changed = 1;
    }
    for (int u = 0; ot && u < n_others; u++)
        free(ot[u]);
    free(ot);
    free(on);
    free(t);
    if (!ok) {
        free(out.data);
        return NULL;
    }
    sb_add(&out, src + copied, strlen(src) - copied);
    if (out.failed) {
        free(out.data);
        return NULL;
    }
    return out.data;
}
