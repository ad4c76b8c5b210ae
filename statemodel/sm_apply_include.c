/* GL_ARB_shading_language_include: named strings (glNamedStringARB, glDeleteNamedStringARB) live
 * in the share group, and compiling a shader (glCompileShader, glCompileShaderIncludeARB with its
 * search paths) resolves the `#include` lines of its source against them, as the driver's
 * preprocessor does. The shader's source becomes the resolved text: the model compiles it as the
 * driver did, and a restored state (glShaderSource + glCompileShader) needs no named strings.
 *
 * Paths (the extension's rules): an absolute path names a string directly; a relative one in
 * double quotes is looked up first under the directory of the string that includes it, then
 * under each search path in order; in angle brackets only under the search paths. `.` and `..`
 * components are resolved and repeated `/` collapse. An #include that names no string stays as
 * it is (the compile then fails in the model as it would have in the driver). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_blob.h"
#include "statemodel/sm_internal.h"

#define MAX_DEPTH 32                     /* nested includes (a cycle stops here) */
#define MAX_EXPANDED (64u << 20)         /* bytes of resolved source */

/* The path with `.`/`..` resolved and `//` collapsed, as a malloc'd string starting with '/';
 * NULL when it is not absolute, climbs above the root, or memory runs out. */
static char *normalize(const char *path)
{
    if (path[0] != '/')
        return NULL;
    size_t n = strlen(path);
    char *out = malloc(n + 2);
    if (!out)
        return NULL;
    size_t len = 0;
    for (const char *p = path; *p;) {
        while (*p == '/')
            p++;
        const char *e = strchr(p, '/');
        size_t c = e ? (size_t)(e - p) : strlen(p);
        if (c == 0)
            break;
        if (c == 1 && p[0] == '.') {
            /* nothing */
        } else if (c == 2 && p[0] == '.' && p[1] == '.') {
            if (!len) {
                free(out);
                return NULL;
            }
            while (len && out[len - 1] != '/')
                len--;
            len--; /* the '/' before the removed component */
        } else {
            out[len++] = '/';
            memcpy(out + len, p, c);
            len += c;
        }
        p += c;
    }
    if (!len)
        out[len++] = '/';
    out[len] = 0;
    return out;
}

static struct sm_named_string *find(struct sm_share_group *g, const char *norm)
{
    for (uint32_t i = 0; i < g->n_named_strings; i++)
        if (!strcmp(g->named_strings[i].name, norm))
            return &g->named_strings[i];
    return NULL;
}

/* A string parameter given with an explicit length (or -1: NUL-terminated), as a C string. */
static char *string_param(struct sm_ap *a, int blob, int32_t len)
{
    const struct glr_blob *b = &a->call->blobs[blob];
    if (!b->data)
        return NULL;
    size_t n = len >= 0 && (uint64_t)len <= b->size ? (size_t)len : (size_t)b->size;
    const char *nul = memchr(b->data, 0, n);
    if (nul)
        n = (size_t)(nul - (const char *)b->data);
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, b->data, n);
        s[n] = 0;
    }
    return s;
}

static void h_named_string(struct sm_ap *a)
{
    char *name = string_param(a, 2, ap_i(a, 1));
    char *text = string_param(a, 4, ap_i(a, 3));
    char *norm = name ? normalize(name) : NULL;
    free(name);
    if (!norm || !text) {
        ap_error(a, "named string missing, not an absolute path, or out of memory");
        free(norm);
        free(text);
        return;
    }
    struct sm_share_group *g = a->c->share;
    struct sm_named_string *s = find(g, norm);
    if (s) {
        free(norm);
        free(s->text);
        s->text = text;
        return;
    }
    if (g->n_named_strings == g->cap_named_strings) {
        uint32_t cap = g->cap_named_strings ? g->cap_named_strings * 2 : 8;
        struct sm_named_string *d = realloc(g->named_strings, cap * sizeof *d);
        if (!d) {
            ap_error(a, "out of memory");
            free(norm);
            free(text);
            return;
        }
        g->named_strings = d;
        g->cap_named_strings = cap;
    }
    g->named_strings[g->n_named_strings++] = (struct sm_named_string){norm, text};
}

static void h_delete_named_string(struct sm_ap *a)
{
    char *name = string_param(a, 1, ap_i(a, 0));
    char *norm = name ? normalize(name) : NULL;
    free(name);
    struct sm_share_group *g = a->c->share;
    struct sm_named_string *s = norm ? find(g, norm) : NULL;
    free(norm);
    if (!s)
        return;
    free(s->name);
    free(s->text);
    *s = g->named_strings[--g->n_named_strings];
}

typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->failed || n == 0)
        return;
    if (b->len + n + 1 > MAX_EXPANDED) {
        b->failed = 1;
        return;
    }
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

/* The named string an #include of `path` (quoted with `quote`: '"' or '<') reaches from a string
 * in directory dir ("" for the shader's own source). */
static struct sm_named_string *resolve(struct sm_share_group *g, const char *path, char quote,
                                       const char *dir, char *const *search, uint32_t n_search)
{
    char *tmp;
    struct sm_named_string *s = NULL;
    if (path[0] == '/') {
        char *norm = normalize(path);
        s = norm ? find(g, norm) : NULL;
        free(norm);
        return s;
    }
    for (int k = quote == '"' && dir[0] ? -1 : 0; k < (int)n_search && !s; k++) {
        const char *base = k < 0 ? dir : search[k];
        size_t n = strlen(base) + strlen(path) + 2;
        if (!(tmp = malloc(n)))
            return NULL;
        snprintf(tmp, n, "%s/%s", base, path);
        char *norm = normalize(tmp);
        free(tmp);
        s = norm ? find(g, norm) : NULL;
        free(norm);
    }
    return s;
}

/* Appends text to out with its #include lines resolved; dir: the directory of the string text
 * came from ("" for a shader source). */
static void expand(struct sm_share_group *g, buf *out, const char *text, const char *dir,
                   char *const *search, uint32_t n_search, int depth, int *found)
{
    for (const char *l = text; *l && !out->failed;) { /* a full buffer stops every level */
        const char *end = strchr(l, '\n');
        size_t n = end ? (size_t)(end - l) + 1 : strlen(l);
        const char *p = l;
        while (*p == ' ' || *p == '\t')
            p++;
        struct sm_named_string *s = NULL;
        if (*p == '#' && depth < MAX_DEPTH) {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!strncmp(p, "include", 7) && (p[7] == ' ' || p[7] == '\t' || p[7] == '"' || p[7] == '<')) {
                p += 7;
                while (*p == ' ' || *p == '\t')
                    p++;
                char quote = *p, close = quote == '<' ? '>' : '"';
                const char *q = (quote == '"' || quote == '<') ? memchr(p + 1, close, (size_t)(l + n - p - 1)) : NULL;
                char *path = q ? strndup(p + 1, (size_t)(q - p - 1)) : NULL;
                if (path)
                    s = resolve(g, path, quote, dir, search, n_search);
                free(path);
            }
        }
        if (s) {
            /* the string's directory: its normalized name up to the last '/' */
            const char *slash = strrchr(s->name, '/');
            char *sdir = strndup(s->name, (size_t)(slash - s->name));
            if (!sdir) {
                out->failed = 1;
                return;
            }
            expand(g, out, s->text, sdir, search, n_search, depth + 1, found);
            free(sdir);
            if (s->text[0] && s->text[strlen(s->text) - 1] != '\n')
                put(out, "\n", 1);
            *found = 1;
        } else {
            put(out, l, n);
        }
        l += n;
    }
}

/* Resolves the #include lines of sh's source (search: the glCompileShaderIncludeARB paths). */
static void resolve_includes(struct sm_ap *a, struct sm_shader *sh, char *const *search,
                             uint32_t n_search)
{
    struct sm_share_group *g = a->c->share;
    if (!sh->source || !g->n_named_strings || !strstr(sh->source, "include"))
        return;
    buf out = {0};
    int found = 0;
    expand(g, &out, sh->source, "", search, n_search, 0, &found);
    if (out.failed) {
        ap_error(a, "shader source with its includes too large or out of memory");
        free(out.data);
        return;
    }
    if (!found) {
        free(out.data);
        return;
    }
    free(sh->source);
    sh->source = out.data;
}

void sm_shader_compile_includes(struct sm_ap *a, struct sm_shader *sh)
{
    resolve_includes(a, sh, NULL, 0);
}

static void h_compile_shader_include(struct sm_ap *a)
{
    struct sm_shader *sh = ap_shader(a, ap_u(a, 0));
    if (!sh)
        return;
    uint32_t n = 0;
    char **paths = ap_i(a, 1) > 0 ? sm_strings_split(&a->call->blobs[2], &n) : NULL;
    /* search paths must be absolute: normalized here, others dropped */
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        char *norm = normalize(paths[i]);
        free(paths[i]);
        if (norm)
            paths[k++] = norm;
    }
    resolve_includes(a, sh, paths, k);
    for (uint32_t i = 0; i < k; i++)
        free(paths[i]);
    free(paths);
    sh->compiled = true;
}

void sm_register_include(sm_apply_fn *t)
{
    t[GLR_CMD_glNamedStringARB] = h_named_string;
    t[GLR_CMD_glDeleteNamedStringARB] = h_delete_named_string;
    t[GLR_CMD_glCompileShaderIncludeARB] = h_compile_shader_include;
}
