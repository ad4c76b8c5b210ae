/* GL_ARB_shader_subroutine for glslang, which refuses subroutines when generating SPIR-V: a source
 * rewrite into plain GLSL with the same lines.
 *
 *   subroutine vec4 getcolor(float x);       ->  vec4 glr_call_getcolor(int glr_i, float x);
 *   subroutine uniform getcolor GetColor[2]; ->  uniform int glr_sub_GetColor[2];
 *   subroutine(getcolor) vec4 red(float x)   ->  vec4 red(float x)
 *   GetColor[i](0.5)                         ->  glr_call_getcolor(glr_sub_GetColor[i], 0.5)
 *
 * and, at the end of the source, one `uniform int glr_subidx_F;` per subroutine function and a
 * dispatcher per subroutine type that calls the function whose index the selected value is,
 * or the type's first function (declaration order: Mesa's default, the first compatible
 * subroutine) when none matches. The frame layer (gmf_subroutine.c) sets glr_subidx_F to the
 * index the driver gave F and glr_sub_U[e] to the index glUniformSubroutinesuiv selected at
 * U's location, from the state model. Explicit `layout(index = N)` is not handled. */
#include "gm_subroutine.h"

#include <ctype.h>
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
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
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
static void puts_(sbuf *b, const char *s) { put(b, s, strlen(s)); }

static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Tokens outside comments and preprocessor lines. */
static tok *tokenize(const char *s, size_t *count)
{
    size_t n = 0, cap = 256;
    tok *t = malloc(cap * sizeof *t);
    int line_start = 1;
    for (size_t i = 0; t && s[i];) {
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
        if (s[i] == '\n') {
            line_start = 1;
            i++;
            continue;
        }
        if (isspace((unsigned char)s[i])) {
            i++;
            continue;
        }
        if (s[i] == '#' && line_start) { /* a directive: to the end of its (continued) line */
            while (s[i] && !(s[i] == '\n' && s[i - 1] != '\\'))
                i++;
            continue;
        }
        line_start = 0;
        size_t j = i + 1;
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

#define MAXN 64

typedef struct {
    char name[64];
    char ret[64];
    char params[512]; /* as declared, without parentheses */
    int nfuncs;
    int funcs[MAXN];
} sub_type;

typedef struct {
    char name[64];
    int type;
} sub_uniform;

typedef struct {
    const char *s;
    const tok *t;
    size_t n;
    sub_type types[MAXN];
    int ntypes;
    sub_uniform unis[MAXN];
    int nunis;
    char funcs[MAXN][64];
    int nfuncs;
} ctx;

static int is(const ctx *c, size_t k, const char *w)
{
    return k < c->n && strlen(w) == c->t[k].len && !strncmp(c->s + c->t[k].at, w, c->t[k].len);
}

static void copy_tok(const ctx *c, size_t k, char *out, size_t size)
{
    size_t n = c->t[k].len < size - 1 ? c->t[k].len : size - 1;
    memcpy(out, c->s + c->t[k].at, n);
    out[n] = 0;
}

static int find_type(const ctx *c, size_t k)
{
    for (int i = 0; i < c->ntypes; i++)
        if (is(c, k, c->types[i].name))
            return i;
    return -1;
}

static int find_uniform(const ctx *c, size_t k)
{
    for (int i = 0; i < c->nunis; i++)
        if (is(c, k, c->unis[i].name))
            return i;
    return -1;
}

/* Index of the token closing the bracket opened at k ('(' or '['), or n. */
static size_t matching(const ctx *c, size_t k)
{
    char open = c->s[c->t[k].at], close = open == '(' ? ')' : ']';
    int depth = 0;
    for (size_t i = k; i < c->n; i++) {
        if (c->t[i].len != 1)
            continue;
        depth += c->s[c->t[i].at] == open;
        depth -= c->s[c->t[i].at] == close;
        if (!depth)
            return i;
    }
    return c->n;
}

/* Copies s[from, to) with every character but newlines blanked. */
static void blank(sbuf *out, const char *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        put(out, s[i] == '\n' ? "\n" : " ", 1);
}

/* The newlines of s[from, to). */
static void newlines(sbuf *out, const char *s, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (s[i] == '\n')
            put(out, "\n", 1);
}

/* Parameters of a dispatcher: "int glr_i" then each declared parameter with the name glr_aK;
 * args: "glr_a0, glr_a1". */
static void dispatcher_params(const char *params, sbuf *decl, sbuf *args)
{
    puts_(decl, "int glr_i");
    const char *p = params;
    while (*p == ' ' || *p == '\t' || *p == '\n')
        p++;
    if (!*p || !strncmp(p, "void", 4))
        return;
    int k = 0;
    while (*p) {
        const char *e = p;
        int depth = 0;
        while (*e && !(depth == 0 && *e == ',')) {
            depth += *e == '(' || *e == '[';
            depth -= *e == ')' || *e == ']';
            e++;
        }
        /* trailing array suffix, then the name if there are two words before it */
        const char *end = e;
        while (end > p && isspace((unsigned char)end[-1]))
            end--;
        const char *suffix = end;
        if (suffix > p && suffix[-1] == ']') {
            while (suffix > p && *suffix != '[')
                suffix--;
        }
        const char *w = suffix;
        while (w > p && isspace((unsigned char)w[-1]))
            w--;
        const char *name_end = w;
        while (w > p && ident_char(w[-1]))
            w--;
        const char *type_end = w;
        while (type_end > p && isspace((unsigned char)type_end[-1]))
            type_end--;
        int named = type_end > p && name_end > w; /* a word before the last one */
        char buf[32];
        snprintf(buf, sizeof buf, ", ");
        puts_(decl, buf);
        put(decl, p, (size_t)((named ? type_end : suffix) - p));
        snprintf(buf, sizeof buf, " glr_a%d", k);
        puts_(decl, buf);
        put(decl, suffix, (size_t)(end - suffix));
        snprintf(buf, sizeof buf, "%sglr_a%d", k ? ", " : "", k);
        puts_(args, buf);
        k++;
        p = *e ? e + 1 : e;
    }
}

char *gm_lower_subroutines(const char *src, int *changed, char *err, size_t err_size)
{
    *changed = 0;
    if (!strstr(src, "subroutine"))
        return NULL;
    ctx c;
    memset(&c, 0, sizeof c);
    c.s = src;
    tok *t = tokenize(src, &c.n);
    if (!t) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    c.t = t;
    /* Pass 1: types, uniforms and functions. */
    for (size_t k = 0; k < c.n; k++) {
        if (!is(&c, k, "subroutine"))
            continue;
        if (is(&c, k + 1, "uniform") && k + 3 < c.n) {
            int ty = find_type(&c, k + 2);
            if (ty < 0 || c.nunis == MAXN) {
                snprintf(err, err_size, "subroutine uniform of an unknown subroutine type");
                free(t);
                return NULL;
            }
            sub_uniform *u = &c.unis[c.nunis++];
            copy_tok(&c, k + 3, u->name, sizeof u->name);
            u->type = ty;
        } else if (is(&c, k + 1, "(")) {
            size_t close = matching(&c, k + 1);
            /* the function name: the identifier before the next '(' */
            size_t f = close + 1;
            while (f + 1 < c.n && !is(&c, f + 1, "("))
                f++;
            if (f + 1 >= c.n || c.nfuncs == MAXN)
                continue;
            int fi = c.nfuncs++;
            copy_tok(&c, f, c.funcs[fi], sizeof c.funcs[fi]);
            for (size_t i = k + 2; i < close; i++) {
                int ty = find_type(&c, i);
                if (ty >= 0 && c.types[ty].nfuncs < MAXN)
                    c.types[ty].funcs[c.types[ty].nfuncs++] = fi;
            }
        } else if (k + 3 < c.n && is(&c, k + 3, "(") && c.ntypes < MAXN) {
            sub_type *ty = &c.types[c.ntypes++];
            copy_tok(&c, k + 1, ty->ret, sizeof ty->ret);
            copy_tok(&c, k + 2, ty->name, sizeof ty->name);
            size_t close = matching(&c, k + 3);
            if (close >= c.n) {
                c.ntypes--;
                continue;
            }
            size_t from = c.t[k + 3].at + 1, to = c.t[close].at;
            size_t len = to - from < sizeof ty->params - 1 ? to - from : sizeof ty->params - 1;
            memcpy(ty->params, src + from, len);
            ty->params[len] = 0;
        }
    }
    if (!c.ntypes) {
        free(t);
        return NULL;
    }
    /* Pass 2: rewrite. */
    sbuf out = {0};
    size_t copied = 0;
    for (size_t k = 0; k < c.n; k++) {
        size_t at = c.t[k].at;
        if (is(&c, k, "subroutine")) {
            put(&out, src + copied, at - copied);
            if (is(&c, k + 1, "uniform")) {
                size_t semi = k;
                while (semi < c.n && !is(&c, semi, ";"))
                    semi++;
                const sub_uniform *u = &c.unis[find_uniform(&c, k + 3)];
                puts_(&out, "uniform int glr_sub_");
                puts_(&out, u->name);
                for (size_t b = k + 4; is(&c, b, "[");) { /* arrays (of arrays) */
                    size_t cl = matching(&c, b);
                    if (cl >= c.n)
                        break;
                    put(&out, src + c.t[b].at, c.t[cl].at + 1 - c.t[b].at);
                    b = cl + 1;
                }
                puts_(&out, ";");
                size_t end = semi < c.n ? c.t[semi].at + 1 : strlen(src);
                newlines(&out, src, at, end);
                copied = end;
                k = semi;
            } else if (is(&c, k + 1, "(")) {
                size_t close = matching(&c, k + 1);
                size_t end = close < c.n ? c.t[close].at + 1 : strlen(src);
                blank(&out, src, at, end);
                copied = end;
                k = close;
            } else {
                int ty = find_type(&c, k + 2);
                size_t close = is(&c, k + 3, "(") ? matching(&c, k + 3) : c.n;
                size_t end = close + 1 < c.n && is(&c, close + 1, ";") ? c.t[close + 1].at + 1 : at;
                if (ty < 0 || end == at) {
                    copied = at;
                    continue;
                }
                sbuf decl = {0}, args = {0};
                dispatcher_params(c.types[ty].params, &decl, &args);
                puts_(&out, c.types[ty].ret);
                puts_(&out, " glr_call_");
                puts_(&out, c.types[ty].name);
                puts_(&out, "(");
                if (decl.data)
                    puts_(&out, decl.data);
                puts_(&out, ");");
                free(decl.data);
                free(args.data);
                newlines(&out, src, at, end);
                copied = end;
                k = close + 1;
            }
            continue;
        }
        int u = find_uniform(&c, k);
        if (u >= 0 && !(k > 0 && is(&c, k - 1, "."))) {
            size_t p = k + 1;
            size_t bracket_end = 0;
            while (is(&c, p, "[") && matching(&c, p) < c.n) {
                bracket_end = matching(&c, p);
                p = bracket_end + 1;
            }
            if (!is(&c, p, "("))
                continue;
            put(&out, src + copied, at - copied);
            puts_(&out, "glr_call_");
            puts_(&out, c.types[c.unis[u].type].name);
            puts_(&out, "(glr_sub_");
            puts_(&out, c.unis[u].name);
            if (bracket_end)
                put(&out, src + c.t[k + 1].at, c.t[bracket_end].at + 1 - c.t[k + 1].at);
            if (!is(&c, p + 1, ")"))
                puts_(&out, ", ");
            copied = c.t[p].at + 1;
            k = p;
        }
    }
    put(&out, src + copied, strlen(src) - copied);
    /* The dispatchers, after every function they call. */
    puts_(&out, "\n");
    for (int f = 0; f < c.nfuncs; f++) {
        puts_(&out, "uniform int glr_subidx_");
        puts_(&out, c.funcs[f]);
        puts_(&out, ";\n");
    }
    for (int i = 0; i < c.ntypes; i++) {
        const sub_type *ty = &c.types[i];
        if (!ty->nfuncs)
            continue;
        sbuf decl = {0}, args = {0};
        dispatcher_params(ty->params, &decl, &args);
        int is_void = !strcmp(ty->ret, "void");
        char line[512];
        snprintf(line, sizeof line, "%s glr_call_%s(%s) {\n", ty->ret, ty->name, decl.data ? decl.data : "");
        puts_(&out, line);
        for (int k = 0; k <= ty->nfuncs; k++) {
            const char *fn = c.funcs[ty->funcs[k < ty->nfuncs ? k : 0]];
            if (k < ty->nfuncs)
                snprintf(line, sizeof line, "  if (glr_i == glr_subidx_%s) ", fn);
            else
                snprintf(line, sizeof line, "  ");
            puts_(&out, line);
            if (is_void)
                snprintf(line, sizeof line, "{ %s(%s); return; }\n", fn, args.data ? args.data : "");
            else
                snprintf(line, sizeof line, "return %s(%s);\n", fn, args.data ? args.data : "");
            puts_(&out, line);
        }
        puts_(&out, "}\n");
        free(decl.data);
        free(args.data);
    }
    free(t);
    if (out.failed) {
        free(out.data);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    *changed = 1;
    return out.data;
}
