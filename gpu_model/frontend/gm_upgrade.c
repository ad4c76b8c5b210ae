/* Legacy GLSL -> core GLSL source-to-source upgrade, keeping every line number.
 *
 * glslang's SPIR-V path only takes desktop GLSL >= 3.30 core and ES >= 3.10, while the
 * programs we capture use anything the driver accepts. This pass rewrites the #version
 * line, attribute/varying, compatibility built-ins, legacy texture functions and words
 * that became keywords, token by token outside comments. Declarations the replacements
 * need go on extra lines right after the #version line, followed by a `#line` directive
 * so glslang numbers the original lines exactly as the driver did. */
#include "gm_upgrade_tables.h"
#include "gpu_model.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    char *data;
    size_t len, cap;
    int failed;
} strbuf;

static void sb_putn(strbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    /* Sizes that could wrap len + n + 1 or the doubling below fail instead of copying. */
    if (n > SIZE_MAX / 4 || b->len > SIZE_MAX / 4) {
        b->failed = 1;
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
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

static void sb_puts(strbuf *b, const char *s) { sb_putn(b, s, strlen(s)); }

static void sb_printf(strbuf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        sb_putn(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

static int is_ident_start(char c) { return isalpha((unsigned char)c) || c == '_'; }
static int is_ident_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The #version directive, located outside comments. */
typedef struct {
    int found;
    int version;
    char profile[32];
    size_t line_start, line_end; /* byte range of the directive's line (no newline) */
    int line;                    /* 1-based */
} version_info;

/* Finds the first preprocessor directive line; returns 1 when it is #version. Lines
 * before it can only be blank or comments (GLSL rule), so a simple scan suffices. */
static void find_version(const char *src, version_info *v)
{
    memset(v, 0, sizeof *v);
    int line = 1, in_block = 0;
    const char *p = src;
    while (*p) {
        const char *ls = p;
        const char *le = strchr(p, '\n');
        if (!le)
            le = p + strlen(p);
        const char *q = ls;
        /* Skip whitespace and comments at line start. */
        for (;;) {
            if (in_block) {
                const char *end = NULL;
                for (const char *r = q; r + 1 < le + 1 && r < le; r++)
                    if (r[0] == '*' && r[1] == '/') {
                        end = r;
                        break;
                    }
                if (!end)
                    break;
                in_block = 0;
                q = end + 2;
                continue;
            }
            while (q < le && isspace((unsigned char)*q))
                q++;
            if (q + 1 < le && q[0] == '/' && q[1] == '*') {
                in_block = 1;
                q += 2;
                continue;
            }
            break;
        }
        if (!in_block && q < le && *q == '#') {
            const char *r = q + 1;
            while (r < le && (*r == ' ' || *r == '\t'))
                r++;
            if ((size_t)(le - r) >= 7 && strncmp(r, "version", 7) == 0) {
                v->found = 1;
                v->line = line;
                v->line_start = (size_t)(ls - src);
                v->line_end = (size_t)(le - src);
                r += 7;
                v->version = (int)strtol(r, (char **)&r, 10);
                while (r < le && (*r == ' ' || *r == '\t'))
                    r++;
                size_t n = 0;
                while (r < le && is_ident_char(*r) && n + 1 < sizeof v->profile)
                    v->profile[n++] = *r++;
                v->profile[n] = 0;
            }
            return; /* the first directive decides */
        }
        if (!in_block && q < le && !(q + 1 < le && q[0] == '/' && q[1] == '/'))
            return; /* code before any directive: no #version */
        if (!*le)
            break;
        p = le + 1;
        line++;
    }
}

static int find_decl(const char *key)
{
    for (unsigned i = 0; i < gm_upgrade_decl_count; i++)
        if (strcmp(gm_upgrade_decls[i].key, key) == 0)
            return (int)i;
    return -1;
}

static void mark_decl(unsigned char *used, const char *key)
{
    int d = find_decl(key);
    if (d < 0 || used[d])
        return;
    used[d] = 1;
    /* Dependencies are single words separated by spaces. */
    const char *s = gm_upgrade_decls[d].deps;
    while (s && *s) {
        char dep[64];
        size_t n = 0;
        while (*s == ' ')
            s++;
        while (*s && *s != ' ' && n + 1 < sizeof dep)
            dep[n++] = *s++;
        dep[n] = 0;
        if (n)
            mark_decl(used, dep);
    }
}

static void emit_decl(strbuf *out, const char *text, int es)
{
    for (const char *s = text; *s; s++) {
        if (s[0] == '%' && s[1] == 'P') {
            if (es)
                sb_puts(out, "highp ");
            s++;
        } else {
            sb_putn(out, s, 1);
        }
    }
    sb_puts(out, "\n");
}

/* Is the #extension on this directive line one that is core in the target? */
static int is_core_extension(const char *line, size_t n)
{
    const char *p = line, *end = line + n;
    while (p < end && isspace((unsigned char)*p))
        p++;
    if (p >= end || *p != '#')
        return 0;
    p++;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    if ((size_t)(end - p) < 9 || strncmp(p, "extension", 9) != 0)
        return 0;
    p += 9;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    for (const char *const *e = gm_upgrade_core_extensions; *e; e++) {
        size_t l = strlen(*e);
        if ((size_t)(end - p) >= l && strncmp(p, *e, l) == 0 && !is_ident_char(p[l]))
            return 1;
    }
    return 0;
}

typedef struct {
    gm_stage stage;
    int es;
    int src_version;    /* desktop-equivalent version used for keyword decisions */
    unsigned char used[256];
    unsigned char user_declared[256];
    strbuf renames;
    int compat;
} upgrade_ctx;

/* Rewrites one identifier. prev is the previous identifier token (to spot user
 * redeclarations of built-in arrays such as `varying vec4 gl_TexCoord[4];`). */
static void rewrite_ident(upgrade_ctx *c, strbuf *out, const char *id, size_t n, const char *prev)
{
    char word[128];
    if (n >= sizeof word) {
        sb_putn(out, id, n);
        return;
    }
    memcpy(word, id, n);
    word[n] = 0;
    int stage_bit = c->stage == GM_STAGE_VERTEX ? GM_UP_VS
                    : c->stage == GM_STAGE_FRAGMENT ? GM_UP_FS : 0;
    if (strcmp(word, "attribute") == 0) {
        sb_puts(out, "in");
        return;
    }
    if (strcmp(word, "varying") == 0) {
        sb_puts(out, c->stage == GM_STAGE_FRAGMENT ? "in" : "out");
        return;
    }
    for (unsigned i = 0; i < gm_upgrade_rename_count; i++) {
        const gm_upgrade_rename *r = &gm_upgrade_renames[i];
        if ((r->stage != GM_UP_ANY && r->stage != stage_bit) || strcmp(r->from, word) != 0)
            continue;
        sb_puts(out, r->to);
        if (strncmp(word, "gl_", 3) == 0)
            c->compat = 1;
        if (r->decl) {
            int d = find_decl(r->decl);
            int redeclared = prev && (strcmp(prev, "vec4") == 0 || strcmp(prev, "float") == 0);
            if (d >= 0 && redeclared)
                c->user_declared[d] = 1;
            else
                mark_decl(c->used, r->decl);
        }
        return;
    }
    for (const gm_upgrade_keyword *k = gm_upgrade_new_keywords; k->word; k++) {
        if (k->since > c->src_version && strcmp(k->word, word) == 0) {
            sb_printf(out, "glr_u_%s", word);
            if (!c->renames.data || !strstr(c->renames.data, word))
                sb_printf(&c->renames, "%s=glr_u_%s\n", word, word);
            return;
        }
    }
    sb_putn(out, id, n);
}

/* Token pass over [start, end): identifiers outside comments are rewritten; comments,
 * numbers, punctuation and newlines are copied unchanged so lines stay where they are. */
static void rewrite_range(upgrade_ctx *c, strbuf *out, const char *src, size_t start, size_t end)
{
    size_t i = start;
    int line_start = 1;
    char prev[64] = "";
    while (i < end) {
        char ch = src[i];
        if (ch == '/' && i + 1 < end && src[i + 1] == '/') {
            size_t j = i;
            while (j < end && src[j] != '\n')
                j++;
            sb_putn(out, src + i, j - i);
            i = j;
            continue;
        }
        if (ch == '/' && i + 1 < end && src[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < end && !(src[j] == '*' && src[j + 1] == '/'))
                j++;
            j = j + 2 <= end ? j + 2 : end;
            sb_putn(out, src + i, j - i);
            i = j;
            continue;
        }
        if (ch == '#' && line_start) {
            size_t j = i;
            while (j < end && src[j] != '\n')
                j++;
            if (is_core_extension(src + i, j - i)) {
                /* Keep the line (numbering) but drop the directive. */
                i = j;
                continue;
            }
        }
        if (ch == '\n') {
            line_start = 1;
            sb_putn(out, &ch, 1);
            i++;
            continue;
        }
        if (!isspace((unsigned char)ch))
            line_start = 0;
        if (is_ident_start(ch)) {
            size_t j = i;
            while (j < end && is_ident_char(src[j]))
                j++;
            rewrite_ident(c, out, src + i, j - i, prev[0] ? prev : NULL);
            size_t n = j - i < sizeof prev - 1 ? j - i : sizeof prev - 1;
            memcpy(prev, src + i, n);
            prev[n] = 0;
            i = j;
            continue;
        }
        if (isdigit((unsigned char)ch) ||
            (ch == '.' && i + 1 < end && isdigit((unsigned char)src[i + 1]))) {
            size_t j = i + 1;
            /* Numbers (1.0e-5, 0x1Fu) never contain identifiers to rewrite. */
            while (j < end && (is_ident_char(src[j]) || src[j] == '.' ||
                               ((src[j] == '+' || src[j] == '-') &&
                                (src[j - 1] == 'e' || src[j - 1] == 'E'))))
                j++;
            sb_putn(out, src + i, j - i);
            i = j;
            continue;
        }
        if (!isspace((unsigned char)ch) && ch != '[' && ch != ']' && !isdigit((unsigned char)ch))
            prev[0] = 0;
        sb_putn(out, &ch, 1);
        i++;
    }
}

/* ES 1.00 shaders announce themselves with precision statements when #version is
 * missing (desktop 1.10 reserves `precision`). */
static int looks_like_es100(const char *src)
{
    const char *p = src;
    while ((p = strstr(p, "precision")) != NULL) {
        if ((p == src || !is_ident_char(p[-1])) && !is_ident_char(p[9]))
            return 1;
        p += 9;
    }
    return 0;
}

/* Block layouts the driver chooses. GL's default block layout is `shared`; `shared` and `packed`
 * leave the offsets to the implementation, and Mesa 22.3 on llvmpipe (UseSTD430AsDefaultPacking)
 * lays such uniform and buffer blocks out with std430 rules: glGetActiveUniformsiv(GL_UNIFORM_OFFSET)
 * gives `float arr[2]` a stride of 4 in a shared, packed or unqualified uniform block, on desktop
 * and ES contexts alike. Unused members of packed blocks stop being active uniforms but keep their
 * space. The capture holds no offsets, so the source is rewritten to say what Mesa does: `shared`
 * and `packed` inside layout(...) become std430, and `layout(std430) uniform;` after the #version
 * line makes std430 the default for unqualified uniform blocks (a later `layout(std140) uniform;`
 * still overrides it). glslang's SPIR-V path rejects shared/packed and takes std430 uniform blocks
 * only with GL_EXT_scalar_block_layout (and std430 at all before GLSL 4.30 only with
 * GL_ARB_shader_storage_buffer_object); neither changes anything else. Only sources with a block or a
 * shared/packed qualifier are touched; every line keeps its number (a #line follows the insert). */
#define LAYOUT_PRELUDE "#extension GL_EXT_scalar_block_layout : enable\nlayout(std430) uniform;\n"

/* Next identifier token at or after *i outside comments, or 0 at the end; the punctuation
 * character between tokens (if any) is returned in *punct. */
static size_t next_token(const char *s, size_t *i, char *punct)
{
    *punct = 0;
    while (s[*i]) {
        char ch = s[*i];
        if (ch == '/' && s[*i + 1] == '/') {
            while (s[*i] && s[*i] != '\n')
                (*i)++;
        } else if (ch == '/' && s[*i + 1] == '*') {
            const char *e = strstr(s + *i + 2, "*/");
            *i = e ? (size_t)(e - s) + 2 : strlen(s);
        } else if (is_ident_start(ch) || isdigit((unsigned char)ch)) {
            size_t j = *i;
            while (is_ident_char(s[j]) || (isdigit((unsigned char)ch) && s[j] == '.'))
                j++;
            size_t n = j - *i;
            if (isdigit((unsigned char)ch)) {
                *i = j; /* numbers are not identifiers */
                continue;
            }
            return n;
        } else if (isspace((unsigned char)ch)) {
            (*i)++;
        } else {
            *punct = ch;
            return 0;
        }
    }
    return 0;
}

static int word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && !strncmp(s, w, n); }

/* Rewrites shared/packed inside layout(...) to std430 (in place: the replacement is padded to the
 * same length, "shared" -> "std430", "packed" -> "std430", both six letters) and reports whether
 * the source declares a uniform block (`uniform NAME {`) or had such a qualifier. */
static int rewrite_block_layouts(char *s)
{
    int found = 0, in_layout = 0, depth = 0;
    size_t i = 0, prev_at = 0, prev_n = 0, prev2_at = 0, prev2_n = 0;
    for (;;) {
        char punct;
        size_t n = next_token(s, &i, &punct);
        if (!n) {
            if (!s[i])
                break;
            if (punct == '(' && prev_n && word_is(s + prev_at, prev_n, "layout") && !in_layout)
                in_layout = 1, depth = 0;
            if (in_layout && punct == '(')
                depth++;
            if (in_layout && punct == ')' && --depth == 0)
                in_layout = 0;
            if (punct == '{' && prev_n && prev2_n && word_is(s + prev2_at, prev2_n, "uniform"))
                found = 1;
            if (punct != '{' || !prev_n)
                prev_n = prev2_n = 0;
            i++;
            continue;
        }
        if (in_layout && (word_is(s + i, n, "shared") || word_is(s + i, n, "packed"))) {
            memcpy(s + i, "std430", 6);
            found = 1;
        }
        prev2_at = prev_at, prev2_n = prev_n;
        prev_at = i, prev_n = n;
        i += n;
    }
    return found;
}

/* The uniform standing for gl_LocalGroupSizeARB (gmf_compute.c sets it by this name). */
#define GM_VARIABLE_GROUP_SIZE "glr_LocalGroupSizeARB"

/* ARB_compute_variable_group_size, which glslang does not know: `layout(local_size_variable) in;`
 * becomes `layout(local_size_x = 1) in;` and gl_LocalGroupSizeARB the uniform GM_VARIABLE_GROUP_SIZE
 * (declared by the caller), which the frame layer sets from glDispatchComputeGroupSizeARB's
 * arguments; the #extension line is blanked (kept as an empty line). Returns the rewritten text
 * (a new string, or NULL when out of memory) and sets *found, or returns NULL with *found 0 when
 * the source does not use the extension. */
static char *rewrite_variable_group_size(const char *s, int *found)
{
    *found = 0;
    if (!strstr(s, "local_size_variable") && !strstr(s, "gl_LocalGroupSizeARB"))
        return NULL;
    strbuf out = {0};
    size_t i = 0, copied = 0;
    int line_start = 1;
    for (;;) {
        char punct;
        size_t from = i;
        size_t n = next_token(s, &i, &punct);
        for (size_t k = from; k < i; k++)
            if (s[k] == '\n')
                line_start = 1;
        if (!n) {
            if (!s[i])
                break;
            if (punct == '#' && line_start) {
                const char *e = s + i + 1;
                while (*e == ' ' || *e == '\t')
                    e++;
                if (!strncmp(e, "extension", 9)) {
                    e += 9;
                    while (*e == ' ' || *e == '\t')
                        e++;
                    if (!strncmp(e, "GL_ARB_compute_variable_group_size", 34)) {
                        sb_putn(&out, s + copied, i - copied);
                        while (s[i] && s[i] != '\n')
                            i++;
                        copied = i;
                        *found = 1;
                        continue;
                    }
                }
            }
            line_start = 0;
            i++;
            continue;
        }
        line_start = 0;
        const char *to = word_is(s + i, n, "local_size_variable")    ? "local_size_x = 1"
                         : word_is(s + i, n, "gl_LocalGroupSizeARB") ? GM_VARIABLE_GROUP_SIZE
                                                                     : NULL;
        if (to) {
            sb_putn(&out, s + copied, i - copied);
            sb_puts(&out, to);
            copied = i + n;
            *found = 1;
        }
        i += n;
    }
    sb_puts(&out, s + copied);
    if (out.failed || !*found) {
        free(out.data);
        return NULL;
    }
    return out.data;
}

/* Applies rewrite_block_layouts (and, for compute shaders, rewrite_variable_group_size) and
 * inserts the declarations they need after the #version line of an already upgraded (or
 * current) source; takes ownership of text. */
static char *fix_driver_layouts(char *text, gm_stage stage, char *err, size_t err_size)
{
    int blocks = rewrite_block_layouts(text), vgs = 0;
    if (stage == GM_STAGE_COMPUTE) {
        char *t = rewrite_variable_group_size(text, &vgs);
        if (t || vgs) {
            free(text);
            text = t;
        }
        if (!text) {
            snprintf(err, err_size, "out of memory");
            return NULL;
        }
    }
    if (!blocks && !vgs)
        return text;
    version_info v;
    find_version(text, &v);
    if (!v.found)
        return text; /* upgraded sources always have one; a current one without is invalid */
    strbuf out = {0};
    sb_putn(&out, text, v.line_end);
    sb_puts(&out, "\n");
    if (blocks) {
        /* std430 itself needs GLSL 4.30 (or this extension) on desktop, ES 3.10 on ES. */
        int es = strcmp(v.profile, "es") == 0;
        if (!es && v.version < 430)
            sb_puts(&out, "#extension GL_ARB_shader_storage_buffer_object : enable\n");
        sb_puts(&out, LAYOUT_PRELUDE);
    }
    if (vgs)
        sb_puts(&out, "uniform uvec3 " GM_VARIABLE_GROUP_SIZE ";\n");
    sb_printf(&out, "#line %d", v.line + 1);
    sb_puts(&out, text + v.line_end);
    free(text);
    if (out.failed) {
        free(out.data);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    return out.data;
}

static char *upgrade_source(const char *source, gm_stage stage, gm_upgrade_info *info, char *err,
                            size_t err_size);

char *gm_glsl_upgrade(const char *source, gm_stage stage, gm_upgrade_info *info, char *err,
                      size_t err_size)
{
    char *text = upgrade_source(source, stage, info, err, err_size);
    if (text && !(text = fix_driver_layouts(text, stage, err, err_size)))
        gm_upgrade_info_free(info);
    return text;
}

static char *upgrade_source(const char *source, gm_stage stage, gm_upgrade_info *info, char *err,
                            size_t err_size)
{
    gm_upgrade_info dummy;
    if (!info)
        info = &dummy;
    memset(info, 0, sizeof *info);
    if (!source) {
        snprintf(err, err_size, "no shader source");
        return NULL;
    }
    version_info v;
    find_version(source, &v);
    int es, version = v.found ? v.version : 110;
    if (v.found)
        es = strcmp(v.profile, "es") == 0 || version == 100;
    else
        es = looks_like_es100(source), version = es ? 100 : 110;
    int compat_profile = strcmp(v.profile, "compatibility") == 0;
    if (v.found && !es && (version < 110 || version > 460)) {
        snprintf(err, err_size, "line %d: unsupported GLSL version %d", v.line, version);
        return NULL;
    }
    if (es && version != 100 && version != 300 && version != 310 && version != 320) {
        snprintf(err, err_size, "line %d: unsupported GLSL ES version %d", v.line, version);
        return NULL;
    }
    info->original_version = version;
    info->original_es = es;
    int needs = es ? version < 310 : (version < 330 || compat_profile);
    if (!needs) {
        char *copy = strdup(source);
        if (!copy)
            snprintf(err, err_size, "out of memory");
        return copy;
    }

    upgrade_ctx c;
    memset(&c, 0, sizeof c);
    c.stage = stage;
    c.es = es;
    c.src_version = es ? (version == 100 ? 120 : 330) : version;
    strbuf body = {0};
    size_t body_start = v.found ? v.line_end : 0;
    rewrite_range(&c, &body, source, body_start, strlen(source));

    strbuf out = {0};
    /* Lines before #version are comments/blank: copied as they are. */
    if (v.found)
        sb_putn(&out, source, v.line_start);
    int target = es ? 310 : (version > 450 ? version : 450);
    sb_printf(&out, "#version %d%s\n", target, es ? " es" : " core");
    for (unsigned i = 0; i < gm_upgrade_decl_count; i++)
        if (c.used[i] && !c.user_declared[i])
            emit_decl(&out, gm_upgrade_decls[i].text, es);
    /* The next original line keeps its number; without #version that is line 1. */
    sb_printf(&out, "#line %d", v.found ? v.line + 1 : 1);
    if (!v.found)
        sb_puts(&out, "\n");
    if (body.data)
        sb_putn(&out, body.data, body.len);
    free(body.data);
    if (out.failed || c.renames.failed) {
        free(out.data);
        free(c.renames.data);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    info->upgraded = 1;
    info->compatibility = c.compat || compat_profile;
    info->renames = c.renames.data;
    return out.data;
}

void gm_upgrade_info_free(gm_upgrade_info *info)
{
    if (!info)
        return;
    free(info->renames);
    info->renames = NULL;
}
