/* The scope of a do-while body that is a single statement (piglit fs-do-while-scope).
 *
 * GLSL (4.60 section 6.3, the same in earlier versions): "The body of a do-while loop
 * introduces a new scope lasting only between the do and while (not including the while test
 * expression), whether or not the body is simple or compound". Mesa follows it; glslang 12
 * opens no scope for a simple body, so in `do int i = 0; while (i <= 0 && ...);` its test reads
 * the body's `i` instead of the outer one. Bracing such a body gives glslang the scope Mesa
 * gives it. The braces go on the lines where the body starts and ends: every line keeps its
 * number (OpLine, error messages). */
#include "gm_do_scope.h"
#include "gm_src_blank.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static size_t skip_space(const char *c, size_t i)
{
    while (c[i] && isspace((unsigned char)c[i])) i++;
    return i;
}

static int word_at(const char *c, size_t i, const char *w)
{
    size_t n = strlen(w);
    return !strncmp(c + i, w, n) && (i == 0 || !ident_char(c[i - 1])) && !ident_char(c[i + n]);
}

/* After `while` at i: 1 when it is `while (...) ;` (a do-while's test), 0 when a while loop;
 * *after is past the ';' or the ')'. -1 when the text ends first. */
static int while_is_test(const char *c, size_t i, size_t *after)
{
    size_t k = skip_space(c, i + 5);
    if (c[k] != '(') return -1;
    int depth = 0;
    for (; c[k]; k++) {
        if (c[k] == '(') depth++;
        else if (c[k] == ')' && --depth == 0) break;
    }
    if (!c[k]) return -1;
    size_t e = skip_space(c, k + 1);
    *after = c[e] == ';' ? e + 1 : k + 1;
    return c[e] == ';';
}

/* Where the body of the `do` whose body starts at j ends: the offset of its `while`, or 0. */
static size_t body_end(const char *c, size_t j)
{
    int pending = 0, paren = 0, brace = 0;
    for (size_t k = j; c[k];) {
        char ch = c[k];
        if (ch == '(') paren++;
        else if (ch == ')') paren--;
        else if (ch == '{') brace++;
        else if (ch == '}') brace--;
        if (paren < 0 || brace < 0) return 0;
        if (!paren && !brace && word_at(c, k, "do")) {
            pending++;
            k += 2;
            continue;
        }
        if (!paren && !brace && word_at(c, k, "while")) {
            size_t after;
            int test = while_is_test(c, k, &after);
            if (test < 0) return 0;
            if (test && pending == 0) return k;
            if (test) pending--;
            k = after;
            continue;
        }
        k++;
    }
    return 0;
}

typedef struct { size_t at; char ch; } insert;

static int by_position(const void *a, const void *b)
{
    const insert *x = a, *y = b;
    return x->at < y->at ? -1 : x->at > y->at;
}

char *gm_brace_do_bodies(const char *src, int *changed)
{
    *changed = 0;
    char *c = gm_code_only(src);
    if (!c)
        return NULL;
    size_t n = strlen(src), count = 0, cap = 0;
    insert *ins = NULL;
    for (size_t i = 0; c[i]; i++) {
        if (!word_at(c, i, "do"))
            continue;
        size_t j = skip_space(c, i + 2);
        if (c[j] == '{' || !c[j])
            continue;
        size_t k = body_end(c, j);
        if (!k)
            continue;
        if (count + 2 > cap) {
            cap = cap ? cap * 2 : 8;
            insert *grown = realloc(ins, cap * sizeof *ins);
            if (!grown) { free(ins); free(c); return NULL; }
            ins = grown;
        }
        ins[count++] = (insert){j, '{'};
        ins[count++] = (insert){k, '}'};
    }
    free(c);
    char *out = malloc(n + count + 1);
    if (!out) { free(ins); return NULL; }
    if (count)
        qsort(ins, count, sizeof *ins, by_position);
    size_t o = 0, from = 0;
    for (size_t m = 0; m < count; m++) {
        memcpy(out + o, src + from, ins[m].at - from);
        o += ins[m].at - from;
        from = ins[m].at;
        out[o++] = ins[m].ch;
    }
    memcpy(out + o, src + from, n - from);
    out[o + n - from] = 0;
    free(ins);
    *changed = count > 0;
    return out;
}
