/* #if / #elif expression evaluation for the analysis preprocessor (gm_pp.h): integer
 * arithmetic with C precedence over macro-expanded tokens, as Mesa's glcpp does it (64-bit
 * values, identifiers left after expansion are 0, division by zero is an error). */
#include "gm_pp.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const gm_pp_token *t;
    size_t n, i;
    int err, depth;
} expr;

static int is(const expr *e, const char *op)
{
    if (e->i >= e->n)
        return 0;
    size_t l = strlen(op);
    return e->t[e->i].len == l && memcmp(e->t[e->i].s, op, l) == 0;
}

static int64_t cond(expr *e);

static int64_t number(expr *e, const gm_pp_token *t)
{
    char buf[64];
    if (t->len >= sizeof buf) {
        e->err = 1;
        return 0;
    }
    memcpy(buf, t->s, t->len);
    buf[t->len] = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 0);
    if (*end == 'u' || *end == 'U')
        end++;
    if (*end)
        e->err = 1; /* floats and junk are not integer constants */
    return (int64_t)v;
}

static int64_t primary(expr *e)
{
    if (e->i >= e->n || ++e->depth > 200) {
        e->err = 1;
        return 0;
    }
    int64_t v = 0;
    const gm_pp_token *t = &e->t[e->i];
    if (is(e, "(")) {
        e->i++;
        v = cond(e);
        if (!is(e, ")"))
            e->err = 1;
        e->i++;
    } else if (is(e, "-") || is(e, "+") || is(e, "!") || is(e, "~")) {
        char op = t->s[0];
        e->i++;
        v = primary(e);
        v = op == '-' ? (int64_t)(0 - (uint64_t)v) : op == '!' ? !v : op == '~' ? ~v : v;
    } else if (isdigit((unsigned char)t->s[0])) {
        e->i++;
        v = number(e, t);
    } else if (isalpha((unsigned char)t->s[0]) || t->s[0] == '_') {
        e->i++; /* an identifier that is not a macro */
    } else {
        e->err = 1;
    }
    e->depth--;
    return v;
}

/* Binary operators by precedence level, lowest first (?: is handled by cond). */
static const char *const levels[][4] = {
    {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"},
    {"+", "-"}, {"*", "/", "%"},
};
enum { LEVELS = sizeof levels / sizeof levels[0] };

static int64_t apply(expr *e, const char *op, int64_t a, int64_t b)
{
    uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
    switch (op[0]) {
    case '|': return op[1] ? (a || b) : (int64_t)(ua | ub);
    case '&': return op[1] ? (a && b) : (int64_t)(ua & ub);
    case '^': return (int64_t)(ua ^ ub);
    case '=': return a == b;
    case '!': return a != b;
    case '<': return op[1] == '<' ? (int64_t)(ua << (ub & 63)) : op[1] ? a <= b : a < b;
    case '>': return op[1] == '>' ? a >> (ub & 63) : op[1] ? a >= b : a > b;
    case '+': return (int64_t)(ua + ub);
    case '-': return (int64_t)(ua - ub);
    case '*': return (int64_t)(ua * ub);
    default:
        if (b == 0 || (a == INT64_MIN && b == -1)) {
            e->err = 1;
            return 0;
        }
        return op[0] == '/' ? a / b : a % b;
    }
}

static int64_t binary(expr *e, int level)
{
    if (level == LEVELS)
        return primary(e);
    int64_t v = binary(e, level + 1);
    for (;;) {
        const char *op = NULL;
        for (int k = 0; k < 4 && levels[level][k]; k++)
            if (is(e, levels[level][k]))
                op = levels[level][k];
        if (!op || e->err)
            return v;
        e->i++;
        int64_t r = binary(e, level + 1);
        v = apply(e, op, v, r);
    }
}

static int64_t cond(expr *e)
{
    int64_t c = binary(e, 0);
    if (!is(e, "?"))
        return c;
    e->i++;
    int64_t a = cond(e);
    if (!is(e, ":")) {
        e->err = 1;
        return 0;
    }
    e->i++;
    int64_t b = cond(e);
    return c ? a : b;
}

int gm_pp_eval(const gm_pp_token *t, size_t n)
{
    expr e = {t, n, 0, 0, 0};
    if (!n)
        return -1;
    int64_t v = cond(&e);
    if (e.err || e.i != n)
        return -1;
    return v != 0;
}
