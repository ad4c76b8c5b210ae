/* arbasm tokenizer and text buffers. Comments run from '#' to the end of the line; the token
 * keeps its line so instructions land on their own line of the generated GLSL. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arb_internal.h"

void arb_sb_add(arb_sb *b, const char *s)
{
    size_t n = strlen(s);
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *q = realloc(b->p, cap);
        if (!q) {
            b->oom = true;
            return;
        }
        b->p = q;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n + 1);
    b->n += n;
}

void arb_sb_addf(arb_sb *b, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof tmp) {
        b->oom = true;   /* never happens with the bounded pieces built here */
        return;
    }
    arb_sb_add(b, tmp);
}

_Noreturn void arb_fail(arb_parser *p, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    p->out->error_line = p->tok.line;
    snprintf(p->out->error, sizeof p->out->error, "line %d: %s", p->tok.line, msg);
    longjmp(p->fail, 1);
}

void arb_next(arb_parser *p)
{
    arb_token *t = &p->tok;
    for (;;) {
        while (p->pos < p->end && isspace((unsigned char)*p->pos)) {
            if (*p->pos == '\n')
                p->line++;
            p->pos++;
        }
        if (p->pos < p->end && *p->pos == '#') {
            while (p->pos < p->end && *p->pos != '\n')
                p->pos++;
            continue;
        }
        break;
    }
    t->line = p->line;
    t->text[0] = 0;
    t->num = 0;
    t->is_int = false;
    if (p->pos >= p->end) {
        t->kind = T_EOF;
        return;
    }
    const char *s = p->pos;
    unsigned char c = (unsigned char)*s;
    if (isalpha(c) || c == '_' || c == '$') {
        size_t n = 0;
        while (s + n < p->end && (isalnum((unsigned char)s[n]) || s[n] == '_' || s[n] == '$'))
            n++;
        if (n >= sizeof t->text)
            arb_fail(p, "identifier too long");
        memcpy(t->text, s, n);
        t->text[n] = 0;
        t->kind = T_ID;
        p->pos += n;
        return;
    }
    if (isdigit(c) || (c == '.' && s + 1 < p->end && isdigit((unsigned char)s[1]))) {
        /* An integer followed by ".." is a range start, not a float. */
        size_t n = 0;
        bool is_int = true;
        while (s + n < p->end && isdigit((unsigned char)s[n]))
            n++;
        if (s + n < p->end && s[n] == '.' && !(s + n + 1 < p->end && s[n + 1] == '.')) {
            is_int = false;
            n++;
            while (s + n < p->end && isdigit((unsigned char)s[n]))
                n++;
        }
        if (s + n < p->end && (s[n] == 'e' || s[n] == 'E')) {
            size_t m = n + 1;
            if (s + m < p->end && (s[m] == '+' || s[m] == '-'))
                m++;
            if (s + m < p->end && isdigit((unsigned char)s[m])) {
                is_int = false;
                n = m;
                while (s + n < p->end && isdigit((unsigned char)s[n]))
                    n++;
            }
        }
        if (n >= sizeof t->text)
            arb_fail(p, "number too long");
        memcpy(t->text, s, n);
        t->text[n] = 0;
        t->num = strtod(t->text, NULL);
        t->is_int = is_int;
        t->kind = T_NUM;
        p->pos += n;
        return;
    }
    t->kind = T_PUNCT;
    if (c == '.' && s + 1 < p->end && s[1] == '.') {
        strcpy(t->text, "..");
        p->pos += 2;
        return;
    }
    if (!strchr(";,.[]{}=+-", c))
        arb_fail(p, "unexpected character '%c'", isprint(c) ? c : '?');
    t->text[0] = (char)c;
    t->text[1] = 0;
    p->pos++;
}

bool arb_is(const arb_parser *p, const char *s)
{
    return (p->tok.kind == T_PUNCT || p->tok.kind == T_ID) && !strcmp(p->tok.text, s);
}

void arb_expect(arb_parser *p, const char *s)
{
    if (!arb_is(p, s))
        arb_fail(p, "expected '%s' at '%s'", s, p->tok.kind == T_EOF ? "end of program" : p->tok.text);
    arb_next(p);
}

int arb_int(arb_parser *p)
{
    if (p->tok.kind != T_NUM || !p->tok.is_int || p->tok.num > 65535)
        arb_fail(p, "expected an integer at '%s'", p->tok.text);
    int v = (int)p->tok.num;
    arb_next(p);
    return v;
}

char *arb_strdup(arb_parser *p, const char *s)
{
    if (p->n_allocs == p->cap_allocs) {
        int cap = p->cap_allocs ? p->cap_allocs * 2 : 64;
        char **n = realloc(p->allocs, (size_t)cap * sizeof *n);
        if (!n)
            arb_fail(p, "out of memory");
        p->allocs = n;
        p->cap_allocs = cap;
    }
    char *d = strdup(s);
    if (!d)
        arb_fail(p, "out of memory");
    p->allocs[p->n_allocs++] = d;
    return d;
}

void arb_free_allocs(arb_parser *p)
{
    for (int i = 0; i < p->n_allocs; i++)
        free(p->allocs[i]);
    free(p->allocs);
    p->allocs = NULL;
    p->n_allocs = p->cap_allocs = 0;
}

void arb_fmt(arb_parser *p, char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    if (k < 0 || (size_t)k >= n)
        arb_fail(p, "expression too long");
}
