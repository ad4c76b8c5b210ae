/* The analysis preprocessor of the upgrade pass (see gm_pp.h).
 *
 * Translation phases as in Mesa's glcpp: comments become spaces (newlines kept, so every
 * physical line keeps its number), backslash-newline joins lines, then each logical line is a
 * directive or code. Conditionals are evaluated with macro expansion, `defined`, and the macros
 * the driver predefines (__VERSION__, GL_ES, GL_core_profile, GL_compatibility_profile,
 * GL_FRAGMENT_PRECISION_HIGH, __LINE__, __FILE__ and the extension names). Macro expansion
 * follows the C rules closely enough for analysis: arguments are expanded before substitution,
 * the result is rescanned together with the text after it (so a function-like macro name at
 * the end of an expansion takes its arguments from the source), and a macro is not expanded
 * again inside its own expansion (hide sets). Token pasting (##) is kept as a token. The amount
 * of work is bounded (the input is untrusted): past the limit the rest is left unexpanded and
 * `complete` is 0. */
#include "gm_pp.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { EXPANSION_BUDGET = 1000000, MAX_DEPTH = 32, MAX_PARAMS = 64, MAX_NESTING = 256 };

typedef struct hsnode {
    int macro;
    const struct hsnode *up;
} hsnode;

typedef struct {
    gm_pp_token t;
    const hsnode *hs; /* macros not to expand again for this token */
} xtok;

typedef struct {
    xtok *v;
    size_t n, cap;
} xvec;

typedef struct {
    gm_pp_token name;
    int func, nparams;
    gm_pp_token params[MAX_PARAMS];
    gm_pp_token *body;
    size_t body_n;
} macro;

typedef struct chunk {
    struct chunk *next;
    size_t used, size;
    _Alignas(16) unsigned char data[];
} chunk;

typedef struct {
    gm_pp_result *r;
    macro *macros;
    int macro_count, macro_cap;
    long budget;
    int failed;
    int line; /* physical line of the logical line being processed */
    char version_text[16];
    chunk *arena;
    size_t out_cap;
} pp;

static void *arena_alloc(pp *p, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (!p->arena || p->arena->used + n > p->arena->size) {
        size_t size = n > 65536 ? n : 65536;
        chunk *c = malloc(sizeof *c + size);
        if (!c) {
            p->failed = 1;
            return NULL;
        }
        c->next = p->arena;
        c->used = 0;
        c->size = size;
        p->arena = c;
    }
    void *m = p->arena->data + p->arena->used;
    p->arena->used += n;
    return m;
}

static int xpush(pp *p, xvec *v, xtok t)
{
    if (v->n == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        xtok *d = realloc(v->v, cap * sizeof *d);
        if (!d) {
            p->failed = 1;
            return -1;
        }
        v->v = d;
        v->cap = cap;
    }
    v->v[v->n++] = t;
    return 0;
}

static int tok_is(gm_pp_token t, const char *s)
{
    size_t l = strlen(s);
    return t.len == l && memcmp(t.s, s, l) == 0;
}

static int tok_eq(gm_pp_token a, gm_pp_token b) { return a.len == b.len && memcmp(a.s, b.s, a.len) == 0; }
static int ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }
static int is_ident(gm_pp_token t) { return t.len && ident_start(t.s[0]); }

/* Tokens of s[0..n): identifiers, pp-numbers, punctuators (two-character ones joined). */
static int tokenize(pp *p, const char *s, size_t n, xvec *out)
{
    static const char *const two[] = {"##", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "++",
                                      "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", NULL};
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (isspace((unsigned char)c)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        if (ident_start(c)) {
            while (j < n && ident_char(s[j]))
                j++;
        } else if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            while (j < n && (ident_char(s[j]) || s[j] == '.' ||
                             ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
        } else if (i + 1 < n) {
            for (const char *const *t = two; *t; t++)
                if (c == (*t)[0] && s[i + 1] == (*t)[1]) {
                    j = i + 2;
                    break;
                }
        }
        xtok t = {{s + i, (unsigned)(j - i)}, NULL};
        if (xpush(p, out, t))
            return -1;
        i = j;
    }
    return 0;
}

static int find_macro(const pp *p, gm_pp_token name)
{
    for (int i = p->macro_count - 1; i >= 0; i--)
        if (tok_eq(p->macros[i].name, name))
            return i;
    return -1;
}

int gm_pp_extension_macro(const char *name, unsigned len)
{
    static const char *const vendors[] = {"GL_ARB_", "GL_EXT_", "GL_OES_", "GL_KHR_", NULL};
    for (const char *const *v = vendors; *v; v++)
        if (len > strlen(*v) && strncmp(name, *v, strlen(*v)) == 0)
            return 1;
    return 0;
}

/* Macros that are always there and cannot be #define'd (__LINE__ & co); returns a token or
 * a zero-length one. */
static gm_pp_token builtin_value(pp *p, gm_pp_token t)
{
    gm_pp_token v = {NULL, 0};
    if (tok_is(t, "__VERSION__")) {
        v.s = p->version_text;
    } else if (tok_is(t, "__FILE__")) {
        v.s = "0";
    } else if (tok_is(t, "__LINE__")) {
        char *b = arena_alloc(p, 16);
        if (!b)
            return v;
        snprintf(b, 16, "%d", p->line);
        v.s = b;
    } else if (is_ident(t) && t.len > 3 && !memcmp(t.s, "GL_", 3) && gm_pp_extension_macro(t.s, t.len)) {
        v.s = "1";
    }
    if (v.s)
        v.len = (unsigned)strlen(v.s);
    return v;
}

static int expand(pp *p, const xtok *in, size_t n, xvec *out, int depth);

/* Function-like invocation: the name was popped, the stack's top is '('. Collects the
 * arguments (popping them) and pushes the substituted body back; returns 0, or 1 when the
 * invocation is not closed (the stack is then as it was). */
static int invoke(pp *p, int m, const hsnode *h, xvec *stack, int depth)
{
    const macro *mc = &p->macros[m];
    size_t save = stack->n, starts[MAX_PARAMS + 1], ends[MAX_PARAMS + 1];
    xvec args = {0};
    int nargs = 0, level = 0, closed = 0;
    stack->n--; /* '(' */
    starts[0] = 0;
    while (stack->n) {
        xtok t = stack->v[--stack->n];
        if (tok_is(t.t, "(")) {
            level++;
        } else if (tok_is(t.t, ")")) {
            if (level-- == 0) {
                closed = 1;
                break;
            }
        } else if (tok_is(t.t, ",") && level == 0) {
            if (nargs < MAX_PARAMS) {
                ends[nargs] = args.n;
                nargs++;
                starts[nargs] = args.n;
            }
            continue;
        }
        if (xpush(p, &args, t))
            break;
    }
    if (!closed || p->failed) {
        free(args.v);
        stack->n = save;
        return 1;
    }
    ends[nargs] = args.n;
    nargs++;
    /* Arguments are expanded before substitution. */
    xvec expanded[MAX_PARAMS];
    memset(expanded, 0, sizeof expanded);
    for (int a = 0; a < nargs && a < mc->nparams; a++)
        expand(p, args.v + starts[a], ends[a] - starts[a], &expanded[a], depth + 1);
    xvec body = {0};
    for (size_t b = 0; b < mc->body_n; b++) {
        int param = -1;
        for (int k = 0; k < mc->nparams && is_ident(mc->body[b]); k++)
            if (tok_eq(mc->body[b], mc->params[k]))
                param = k;
        if (param < 0) {
            xpush(p, &body, (xtok){mc->body[b], h});
        } else if (param < nargs) {
            for (size_t k = 0; k < expanded[param].n; k++)
                xpush(p, &body, (xtok){expanded[param].v[k].t, h});
        }
    }
    for (int a = 0; a < MAX_PARAMS; a++)
        free(expanded[a].v);
    free(args.v);
    for (size_t k = body.n; k-- > 0;)
        xpush(p, stack, body.v[k]);
    p->budget -= (long)body.n;
    free(body.v);
    return 0;
}

/* Expands in[0..n) into out (appended). */
static int expand(pp *p, const xtok *in, size_t n, xvec *out, int depth)
{
    xvec stack = {0};
    for (size_t k = n; k-- > 0;)
        xpush(p, &stack, in[k]);
    while (stack.n && !p->failed) {
        xtok t = stack.v[--stack.n];
        int m = is_ident(t.t) && p->budget > 0 && depth < MAX_DEPTH ? find_macro(p, t.t) : -1;
        if (m < 0 || p->budget <= 0) {
            gm_pp_token v = is_ident(t.t) ? builtin_value(p, t.t) : (gm_pp_token){NULL, 0};
            if (m < 0 && is_ident(t.t) && (p->budget <= 0 || depth >= MAX_DEPTH))
                p->r->complete = 0;
            xpush(p, out, v.len ? (xtok){v, t.hs} : t);
            continue;
        }
        int hidden = 0;
        for (const hsnode *h = t.hs; h && !hidden; h = h->up)
            hidden = h->macro == m;
        if (hidden) {
            xpush(p, out, t);
            continue;
        }
        p->budget--;
        hsnode *h = arena_alloc(p, sizeof *h);
        if (!h)
            break;
        h->macro = m;
        h->up = t.hs;
        const macro *mc = &p->macros[m];
        if (mc->func) {
            if (!stack.n || !tok_is(stack.v[stack.n - 1].t, "(") || invoke(p, m, h, &stack, depth))
                xpush(p, out, t);
            continue;
        }
        for (size_t k = mc->body_n; k-- > 0;)
            xpush(p, &stack, (xtok){mc->body[k], h});
        p->budget -= (long)mc->body_n;
    }
    free(stack.v);
    return p->failed ? -1 : 0;
}

static void define(pp *p, const xtok *t, size_t n)
{
    if (n < 3 || !is_ident(t[2].t))
        return;
    macro mc;
    memset(&mc, 0, sizeof mc);
    mc.name = t[2].t;
    size_t b = 3;
    /* Function-like only when '(' follows the name with no space. */
    if (n > 3 && tok_is(t[3].t, "(") && t[3].t.s == t[2].t.s + t[2].t.len) {
        mc.func = 1;
        for (b = 4; b < n && !tok_is(t[b].t, ")"); b++)
            if (is_ident(t[b].t) && mc.nparams < MAX_PARAMS)
                mc.params[mc.nparams++] = t[b].t;
        b++;
    }
    mc.body_n = b < n ? n - b : 0;
    if (mc.body_n) {
        mc.body = arena_alloc(p, mc.body_n * sizeof *mc.body);
        if (!mc.body)
            return;
        for (size_t k = 0; k < mc.body_n; k++)
            mc.body[k] = t[b + k].t;
    }
    int m = find_macro(p, mc.name);
    if (m >= 0) {
        p->macros[m] = mc;
        return;
    }
    if (p->macro_count == p->macro_cap) {
        int cap = p->macro_cap ? p->macro_cap * 2 : 32;
        macro *d = realloc(p->macros, (size_t)cap * sizeof *d);
        if (!d) {
            p->failed = 1;
            return;
        }
        p->macros = d;
        p->macro_cap = cap;
    }
    p->macros[p->macro_count++] = mc;
}

static void undef(pp *p, const xtok *t, size_t n)
{
    int m = n >= 3 ? find_macro(p, t[2].t) : -1;
    if (m >= 0)
        p->macros[m].name.len = 0; /* matches nothing any more */
}

static int is_defined(pp *p, gm_pp_token name)
{
    return find_macro(p, name) >= 0 || tok_is(name, "__LINE__") || tok_is(name, "__FILE__") ||
           tok_is(name, "__VERSION__") || builtin_value(p, name).len;
}

/* Value of the #if / #elif expression in t[2..n). */
static int condition(pp *p, const xtok *t, size_t n)
{
    xvec pre = {0}, ex = {0};
    for (size_t k = 2; k < n; k++) {
        if (tok_is(t[k].t, "defined")) {
            size_t at = k + 1;
            int paren = at < n && tok_is(t[at].t, "(");
            if (paren)
                at++;
            if (at < n && is_ident(t[at].t)) {
                xtok v = {{is_defined(p, t[at].t) ? "1" : "0", 1}, NULL};
                xpush(p, &pre, v);
                k = at + (paren && at + 1 < n && tok_is(t[at + 1].t, ")"));
                continue;
            }
        }
        xpush(p, &pre, t[k]);
    }
    expand(p, pre.v, pre.n, &ex, 0);
    gm_pp_token *flat = ex.n ? malloc(ex.n * sizeof *flat) : NULL;
    int v = 0;
    if (flat) {
        for (size_t k = 0; k < ex.n; k++)
            flat[k] = ex.v[k].t;
        v = gm_pp_eval(flat, ex.n) == 1; /* a malformed expression is an error in Mesa */
    }
    free(flat);
    free(pre.v);
    free(ex.v);
    return v;
}

static void flush(pp *p, xvec *pending)
{
    if (!pending->n)
        return;
    xvec out = {0};
    expand(p, pending->v, pending->n, &out, 0);
    gm_pp_result *r = p->r;
    if (r->expanded_count + out.n > p->out_cap) {
        size_t cap = (r->expanded_count + out.n) * 2;
        gm_pp_token *d = realloc(r->expanded, cap * sizeof *d);
        if (!d) {
            p->failed = 1;
            free(out.v);
            return;
        }
        r->expanded = d;
        p->out_cap = cap;
    }
    for (size_t k = 0; k < out.n; k++)
        r->expanded[r->expanded_count++] = out.v[k].t;
    free(out.v);
    pending->n = 0;
}

static void add_extension(pp *p, const xtok *t, size_t n)
{
    if (n < 5 || !is_ident(t[2].t) || !tok_is(t[3].t, ":"))
        return;
    gm_pp_result *r = p->r;
    gm_pp_extension *d = realloc(r->ext, (size_t)(r->ext_count + 1) * sizeof *d);
    if (!d) {
        p->failed = 1;
        return;
    }
    r->ext = d;
    gm_pp_extension *e = &r->ext[r->ext_count++];
    snprintf(e->name, sizeof e->name, "%.*s", (int)t[2].t.len, t[2].t.s);
    e->behavior = tok_is(t[4].t, "require") ? GM_PP_REQUIRE : tok_is(t[4].t, "enable") ? GM_PP_ENABLE
                  : tok_is(t[4].t, "warn")  ? GM_PP_WARN : GM_PP_DISABLE;
    e->line = p->line;
}

/* Comments to spaces (newlines kept). */
static void strip_comments(char *s)
{
    for (size_t i = 0; s[i];) {
        if (s[i] == '/' && s[i + 1] == '/') {
            while (s[i] && s[i] != '\n')
                s[i++] = ' ';
        } else if (s[i] == '/' && s[i + 1] == '*') {
            s[i] = s[i + 1] = ' ';
            i += 2;
            while (s[i] && !(s[i] == '*' && s[i + 1] == '/')) {
                if (s[i] != '\n')
                    s[i] = ' ';
                i++;
            }
            if (s[i])
                s[i] = s[i + 1] = ' ', i += 2;
        } else {
            i++;
        }
    }
}

typedef struct {
    int parent_active, active, taken, seen_else;
} cond_frame;

int gm_pp_analyse(const char *src, int version, int es, const char *profile, gm_pp_result *r)
{
    memset(r, 0, sizeof *r);
    r->complete = 1;
    pp p;
    memset(&p, 0, sizeof p);
    p.r = r;
    p.budget = EXPANSION_BUDGET;
    snprintf(p.version_text, sizeof p.version_text, "%d", version);
    size_t len = strlen(src);
    r->clean = malloc(len + 1);
    r->joined = malloc(len + 1);
    int lines = 1;
    for (size_t i = 0; i < len; i++)
        lines += src[i] == '\n';
    r->kind = calloc((size_t)lines, 1);
    if (!r->clean || !r->joined || !r->kind) {
        gm_pp_free(r);
        return -1;
    }
    memcpy(r->clean, src, len + 1);
    strip_comments(r->clean);
    r->line_count = lines;

    /* Predefined macros (bodies point at static strings). */
    static const char one[] = "1";
    xtok def[4] = {{{"#", 1}, NULL}, {{"define", 6}, NULL}, {{NULL, 0}, NULL}, {{one, 1}, NULL}};
    const char *pre[3] = {es ? "GL_ES" : NULL, es ? "GL_FRAGMENT_PRECISION_HIGH" : NULL,
                          es ? NULL : !strcmp(profile, "compatibility") ? "GL_compatibility_profile"
                                      : version >= 150                  ? "GL_core_profile" : NULL};
    for (int k = 0; k < 3; k++)
        if (pre[k]) {
            def[2].t = (gm_pp_token){pre[k], (unsigned)strlen(pre[k])};
            define(&p, def, 4);
        }

    cond_frame stack[MAX_NESTING];
    int depth = 0, active = 1;
    xvec pending = {0}, line = {0};
    size_t i = 0, j = 0;
    int phys = 1;
    const char *c = r->clean;
    char *out = r->joined;
    while (c[i] && !p.failed) {
        /* One logical line: physical lines joined by backslash-newline. */
        size_t start = j;
        int first = phys, last = phys;
        while (c[i] && c[i] != '\n') {
            if (c[i] == '\\' && (c[i + 1] == '\n' || (c[i + 1] == '\r' && c[i + 2] == '\n'))) {
                i += c[i + 1] == '\n' ? 2 : 3;
                last = ++phys;
                continue;
            }
            out[j++] = c[i++];
        }
        if (c[i] == '\n')
            i++, phys++;
        out[j++] = 0;
        p.line = first;
        line.n = 0;
        tokenize(&p, out + start, j - 1 - start, &line);
        int kind = active ? GM_PP_CODE : GM_PP_INACTIVE;
        if (line.n && tok_is(line.v[0].t, "#")) {
            gm_pp_token d = line.n > 1 ? line.v[1].t : (gm_pp_token){"", 0};
            int is_if = tok_is(d, "if") || tok_is(d, "ifdef") || tok_is(d, "ifndef");
            if (active)
                flush(&p, &pending);
            if (is_if) {
                kind = GM_PP_CONDITIONAL;
                int v = 0;
                if (active && tok_is(d, "if"))
                    v = condition(&p, line.v, line.n);
                else if (active && line.n > 2)
                    v = is_defined(&p, line.v[2].t) == tok_is(d, "ifdef");
                if (depth < MAX_NESTING)
                    stack[depth] = (cond_frame){active, active && v, active && v, 0};
                depth++;
                active = active && v;
            } else if (tok_is(d, "elif") || tok_is(d, "else")) {
                kind = GM_PP_CONDITIONAL;
                if (depth > 0 && depth <= MAX_NESTING) {
                    cond_frame *f = &stack[depth - 1];
                    int v = 0;
                    if (f->parent_active && !f->taken && !f->seen_else)
                        v = tok_is(d, "else") ? 1 : condition(&p, line.v, line.n);
                    f->seen_else |= tok_is(d, "else");
                    f->active = v;
                    f->taken |= v;
                    active = v;
                }
            } else if (tok_is(d, "endif")) {
                kind = GM_PP_CONDITIONAL;
                if (depth > 0) {
                    depth--;
                    active = depth < MAX_NESTING ? stack[depth].parent_active : 0;
                }
            } else if (active) {
                kind = GM_PP_DIRECTIVE;
                if (tok_is(d, "define"))
                    define(&p, line.v, line.n);
                else if (tok_is(d, "undef"))
                    undef(&p, line.v, line.n);
                else if (tok_is(d, "extension"))
                    add_extension(&p, line.v, line.n);
            }
        } else if (active) {
            for (size_t k = 0; k < line.n; k++)
                xpush(&p, &pending, line.v[k]);
        }
        for (int l = first; l <= last && l <= lines; l++)
            r->kind[l - 1] = (unsigned char)kind;
    }
    flush(&p, &pending);
    free(pending.v);
    free(line.v);
    free(p.macros);
    r->arena = p.arena;
    if (p.failed) {
        gm_pp_free(r);
        return -1;
    }
    return 0;
}

void gm_pp_free(gm_pp_result *r)
{
    if (!r)
        return;
    free(r->clean);
    free(r->joined);
    free(r->kind);
    free(r->expanded);
    free(r->ext);
    for (chunk *c = r->arena; c;) {
        chunk *n = c->next;
        free(c);
        c = n;
    }
    memset(r, 0, sizeof *r);
}
