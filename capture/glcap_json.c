/* glcap_json.h: a recursive-descent reader building a small tree (first child, next sibling). */
#include <locale.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_json.h"

/* Metadata nests three levels; anything deeper than this is not ours (and bounds the recursion). */
#define MAX_DEPTH 64

struct parser {
    const char *p;
    locale_t c_locale;
};

static void skip_ws(struct parser *ps)
{
    while (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')
        ps->p++;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                   : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                   : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16)
            return -1;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) { o[0] = (char)cp; return 1; }
    if (cp < 0x800) { o[0] = (char)(0xC0 | cp >> 6); o[1] = (char)(0x80 | (cp & 0x3F)); return 2; }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12); o[1] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18); o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* A string at ps->p (on its opening quote) into a malloc'd buffer; NULL if invalid. */
static char *parse_string(struct parser *ps)
{
    const char *s = ++ps->p;
    size_t raw = 0;
    while (s[raw] && s[raw] != '"') {
        if (s[raw] == '\\' && s[raw + 1])
            raw++;
        raw++;
    }
    if (!s[raw])
        return NULL;
    char *out = malloc(raw + 1);   /* decoding never grows the text: \uXXXX (6) -> at most 3 bytes */
    if (!out)
        return NULL;
    size_t k = 0;
    const char *p = s;
    while (*p != '"') {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20)
            goto bad;
        if (c != '\\') {
            out[k++] = (char)c;
            p++;
            continue;
        }
        p++;
        switch (*p) {
        case '"': case '\\': case '/': out[k++] = *p; p++; break;
        case 'b': out[k++] = '\b'; p++; break;
        case 'f': out[k++] = '\f'; p++; break;
        case 'n': out[k++] = '\n'; p++; break;
        case 'r': out[k++] = '\r'; p++; break;
        case 't': out[k++] = '\t'; p++; break;
        case 'u': {
            unsigned cp, lo;
            if (hex4(p + 1, &cp) != 0)
                goto bad;
            p += 5;
            if (cp >= 0xD800 && cp <= 0xDBFF) {   /* a surrogate pair: its low half must follow */
                if (p[0] != '\\' || p[1] != 'u' || hex4(p + 2, &lo) != 0 || lo < 0xDC00 || lo > 0xDFFF)
                    goto bad;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                p += 6;
            } else if ((cp >= 0xDC00 && cp <= 0xDFFF) || cp == 0) {
                goto bad;   /* a lone low surrogate; NUL would cut the C string */
            }
            k += put_utf8(out + k, cp);
            break;
        }
        default:
            goto bad;
        }
    }
    out[k] = 0;
    ps->p = p + 1;
    return out;
bad:
    free(out);
    return NULL;
}

static int parse_number(struct parser *ps, double *out)
{
    const char *s = ps->p, *p = s;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return -1;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return -1;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return -1;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    /* The grammar was checked above; strtod_l in the C locale reads it whatever the program's
     * LC_NUMERIC says. */
    char *end;
    *out = strtod_l(s, &end, ps->c_locale);
    if (end != p)
        return -1;
    ps->p = p;
    return 0;
}

static struct glcap_json *parse_value(struct parser *ps, int depth);

/* The elements (or members, with keys) of an array or object; ps->p is past its opening bracket. */
static int parse_children(struct parser *ps, struct glcap_json *v, char close, int depth)
{
    struct glcap_json **tail = &v->child;
    skip_ws(ps);
    if (*ps->p == close) {
        ps->p++;
        return 0;
    }
    for (;;) {
        char *key = NULL;
        if (close == '}') {
            skip_ws(ps);
            if (*ps->p != '"' || !(key = parse_string(ps)))
                return -1;
            skip_ws(ps);
            if (*ps->p != ':') {
                free(key);
                return -1;
            }
            ps->p++;
        }
        struct glcap_json *c = parse_value(ps, depth + 1);
        if (!c) {
            free(key);
            return -1;
        }
        c->key = key;
        *tail = c;
        tail = &c->next;
        skip_ws(ps);
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p != close)
            return -1;
        ps->p++;
        return 0;
    }
}

static struct glcap_json *parse_value(struct parser *ps, int depth)
{
    if (depth > MAX_DEPTH)
        return NULL;
    skip_ws(ps);
    struct glcap_json *v = calloc(1, sizeof *v);
    if (!v)
        return NULL;
    const char *p = ps->p;
    int rc = 0;
    if (*p == '{' || *p == '[') {
        v->type = *p == '{' ? GLCAP_JSON_OBJECT : GLCAP_JSON_ARRAY;
        ps->p++;
        rc = parse_children(ps, v, *p == '{' ? '}' : ']', depth);
    } else if (*p == '"') {
        v->type = GLCAP_JSON_STRING;
        rc = (v->str = parse_string(ps)) ? 0 : -1;
    } else if (!strncmp(p, "true", 4)) {
        v->type = GLCAP_JSON_TRUE;
        ps->p += 4;
    } else if (!strncmp(p, "false", 5)) {
        v->type = GLCAP_JSON_FALSE;
        ps->p += 5;
    } else if (!strncmp(p, "null", 4)) {
        v->type = GLCAP_JSON_NULL;
        ps->p += 4;
    } else {
        v->type = GLCAP_JSON_NUMBER;
        rc = parse_number(ps, &v->num);
    }
    if (rc != 0) {
        glcap_json_free(v);
        return NULL;
    }
    return v;
}

struct glcap_json *glcap_json_parse(const char *text)
{
    if (!text)
        return NULL;
    struct parser ps = { .p = text, .c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0) };
    if (ps.c_locale == (locale_t)0)
        return NULL;
    struct glcap_json *v = parse_value(&ps, 0);
    skip_ws(&ps);
    if (v && *ps.p) {   /* one value and nothing after it */
        glcap_json_free(v);
        v = NULL;
    }
    freelocale(ps.c_locale);
    return v;
}

void glcap_json_free(struct glcap_json *v)
{
    /* Siblings iteratively, children recursively (depth is bounded by the parser). */
    while (v) {
        struct glcap_json *next = v->next;
        glcap_json_free(v->child);
        free(v->key);
        free(v->str);
        free(v);
        v = next;
    }
}

const struct glcap_json *glcap_json_get(const struct glcap_json *v, const char *key)
{
    if (!glcap_json_is(v, GLCAP_JSON_OBJECT))
        return NULL;
    for (const struct glcap_json *c = v->child; c; c = c->next)
        if (!strcmp(c->key, key))
            return c;
    return NULL;
}

size_t glcap_json_count(const struct glcap_json *v)
{
    size_t n = 0;
    for (const struct glcap_json *c = v ? v->child : NULL; c; c = c->next)
        n++;
    return n;
}
