/* Bodies for functions that are declared, called only from code Mesa folds away, and never
 * defined (piglit glsl-const-folding-01: `if (degrees(0.0) != 0.0) bad_constant_folding();`).
 *
 * Mesa links after its constant folding and dead-code elimination, so such a call is gone
 * when its linker looks for the body; glslang's linker looks before any folding and refuses
 * ("No function definition (body) found"). The program linked on the driver, so no call of
 * such a function runs: a body that returns an uninitialized value of the return type lets
 * glslang link without changing what any invocation computes. The body is appended after the
 * last line, so every line keeps its number. */
#include "gm_stub_functions.h"
#include "gm_src_blank.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Finds the global prototype `RET name(PARAMS);` in the comment-free text c: sets the
 * return type's span [*rs, *re) and the parameter list's (inside the parentheses). */
static int find_prototype(const char *c, const char *name, size_t *rs, size_t *re, size_t *ps,
                          size_t *pe)
{
    size_t n = strlen(name);
    int depth = 0;
    size_t stmt = 0;   /* where the current global statement starts */
    for (size_t i = 0; c[i]; i++) {
        char ch = c[i];
        if (ch == '#' ) {   /* a directive line: skip it */
            while (c[i] && c[i] != '\n') i++;
            stmt = i + 1;
            if (!c[i]) break;
            continue;
        }
        if (ch == '{') depth++;
        else if (ch == '}') { if (depth) depth--; if (!depth) stmt = i + 1; continue; }
        else if (ch == ';' && !depth) { stmt = i + 1; continue; }
        if (depth || strncmp(c + i, name, n) || (i && ident_char(c[i - 1])) || ident_char(c[i + n]))
            continue;
        size_t k = i + n;
        while (c[k] == ' ' || c[k] == '\t' || c[k] == '\n' || c[k] == '\r') k++;
        if (c[k] != '(') continue;
        size_t open = k, close = k;
        while (c[close] && c[close] != ')' && c[close] != '{' && c[close] != ';') close++;
        if (c[close] != ')') continue;
        k = close + 1;
        while (c[k] == ' ' || c[k] == '\t' || c[k] == '\n' || c[k] == '\r') k++;
        if (c[k] != ';') continue;   /* a definition, or a call */
        size_t a = stmt, b = i;
        while (a < b && isspace((unsigned char)c[a])) a++;
        while (b > a && isspace((unsigned char)c[b - 1])) b--;
        if (a == b) continue;
        *rs = a; *re = b; *ps = open + 1; *pe = close;
        return 1;
    }
    return 0;
}

/* Appends to *out (length *len) the body of name, from the prototype in src; 0 when src has
 * no such prototype, -1 when out of memory. */
static int append_body(char **out, size_t *len, const char *src, const char *comment_free,
                       const char *name)
{
    size_t rs, re, ps, pe;
    if (!find_prototype(comment_free, name, &rs, &re, &ps, &pe))
        return 0;
    /* `void f(int);` defines as `void f(int glr_stub_p0) {}`: glslang wants named parameters
     * only where they are used, so the list is copied as written. */
    size_t need = (re - rs) + (pe - ps) + strlen(name) + 96;
    char *grown = realloc(*out, *len + need + 1);
    if (!grown)
        return -1;
    *out = grown;
    char *p = grown + *len;
    int is_void = re - rs == 4 && !strncmp(src + rs, "void", 4);
    int w = snprintf(p, need + 1, "\n%.*s %s(%.*s) { ", (int)(re - rs), src + rs, name,
                     (int)(pe - ps), src + ps);
    if (is_void)
        w += snprintf(p + w, need + 1 - (size_t)w, "}");
    else
        w += snprintf(p + w, need + 1 - (size_t)w, "%.*s glr_stub_r; return glr_stub_r; }",
                      (int)(re - rs), src + rs);
    *len += (size_t)w;
    return 1;
}

char *gm_stub_undefined_functions(const char *src, const char *link_log, int *changed)
{
    *changed = 0;
    size_t len = strlen(src);
    char *out = malloc(len + 1);
    char *cf = gm_src_blank(src, 0);
    if (!out || !cf) {
        free(out);
        free(cf);
        return NULL;
    }
    memcpy(out, src, len + 1);
    /* glslang lists each missing body as "No function definition (body) found: \n    NAME(" */
    static const char key[] = "No function definition (body) found:";
    for (const char *m = link_log ? strstr(link_log, key) : NULL; m; m = strstr(m + 1, key)) {
        const char *q = m + sizeof key - 1;
        while (*q && isspace((unsigned char)*q)) q++;
        char name[128];
        size_t n = 0;
        while (ident_char(q[n]) && n + 1 < sizeof name) { name[n] = q[n]; n++; }
        name[n] = 0;
        if (!n || q[n] != '(')
            continue;
        /* once per name, even when the log repeats it */
        char tag[160];
        snprintf(tag, sizeof tag, " %s(", name);
        if (strstr(out + strlen(src), tag))
            continue;
        int r = append_body(&out, &len, src, cf, name);
        if (r < 0) {
            free(out);
            free(cf);
            return NULL;
        }
        if (r > 0) {
            out[len] = 0;
            *changed = 1;
        }
    }
    free(cf);
    return out;
}
