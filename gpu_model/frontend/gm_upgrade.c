/* Legacy GLSL -> core GLSL source-to-source upgrade, keeping every line number.
 *
 * glslang's SPIR-V path only takes desktop GLSL >= 3.30 core and ES >= 3.10, while the
 * programs we capture use anything the driver accepts. This pass rewrites the #version
 * line, attribute/varying, compatibility built-ins, legacy texture functions and words
 * that became keywords, token by token outside comments. Declarations the replacements
 * need go on extra lines right after the #version line, followed by a `#line` directive
 * so glslang numbers the original lines exactly as the driver did. */
#include "gm_ext_prelude.h"
#include "gm_frontend.h"
#include "gm_subroutine.h"
#include "gm_pp.h"
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
static int word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && !strncmp(s, w, n); }

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

/* The state an active #extension directive leaves for `name` (the last one decides; `all`
 * only disables). */
static int ext_enabled(const gm_pp_result *pp, const char *name, size_t n)
{
    int on = 0;
    for (int i = 0; i < pp->ext_count; i++) {
        const gm_pp_extension *e = &pp->ext[i];
        if (strlen(e->name) == n && strncmp(e->name, name, n) == 0)
            on = e->behavior != GM_PP_DISABLE;
        else if (strcmp(e->name, "all") == 0 && e->behavior == GM_PP_DISABLE)
            on = 0;
    }
    return on;
}

/* Is one of the space-separated extensions of list enabled? */
static int any_ext_enabled(const gm_pp_result *pp, const char *list)
{
    while (list && *list) {
        while (*list == ' ')
            list++;
        size_t n = strcspn(list, " ");
        if (n && ext_enabled(pp, list, n))
            return 1;
        list += n;
    }
    return 0;
}

static int is_core_extension(const char *name, size_t n)
{
    for (const char *const *e = gm_upgrade_core_extensions; *e; e++)
        if (strlen(*e) == n && strncmp(*e, name, n) == 0)
            return 1;
    return 0;
}

typedef struct {
    gm_stage stage;
    int es;
    int version;        /* as written in the source (__VERSION__) */
    int src_version;    /* desktop-equivalent version used for keyword decisions */
    const gm_pp_result *pp;
    unsigned char used[256];
    unsigned char user_declared[256];
    strbuf renames;
    int compat;
    int mark_on_rewrite; /* the analysis stopped early: mark what the rewrite meets */
    int in_precision;    /* inside a desktop `precision ... ;` statement being blanked */
    int after_gs;        /* a fragment shader fed by a geometry shader */
    int after_tes;       /* a fragment shader fed by a tessellation evaluation shader (no GS) */
    int pipe;            /* GM_UP_PIPE_*: the program's later stages */
    int pervertex;       /* 1: after `gl_PerVertex`, 2: inside its redeclared block (rewrite) */
    int next_is_operator; /* the identifier being rewritten is followed by an operator */
} upgrade_ctx;

/* A gl_PerVertex redeclaration may list compatibility members (`vec4 gl_ClipVertex;` in GLSL
 * 1.50 compatibility) that core GLSL lacks: they are dropped from the block, and the shader's
 * uses of them get the upgrade pass's own variables (glr_ClipVertex, ...) like any other use.
 * Steps the block state *state (see upgrade_ctx.pervertex) over one token. */
static void pervertex_step(int *state, const char *tok, size_t n)
{
    if (word_is(tok, n, "gl_PerVertex"))
        *state = 1;
    else if (n == 1 && tok[0] == '{' && *state == 1)
        *state = 2;
    else if (n == 1 && tok[0] == '}' && *state == 2)
        *state = 0;
    else if (n == 1 && tok[0] == ';' && *state == 1)
        *state = 0;
}

static const gm_upgrade_rename *find_rename_in(const char *word, int stage_bit)
{
    for (unsigned i = 0; i < gm_upgrade_rename_count; i++) {
        const gm_upgrade_rename *r = &gm_upgrade_renames[i];
        if ((r->stage == GM_UP_ANY || r->stage == stage_bit) && strcmp(r->from, word) == 0)
            return r;
    }
    return NULL;
}

static const gm_upgrade_rename *find_rename(const upgrade_ctx *c, const char *word)
{
    const gm_upgrade_rename *r = NULL;
    if (c->stage == GM_STAGE_FRAGMENT && (c->after_gs || c->after_tes))
        r = find_rename_in(word, c->after_gs ? GM_UP_FS_AFTER_GS : GM_UP_FS_AFTER_TES);
    if (!r)
        r = find_rename_in(word, c->stage == GM_STAGE_VERTEX     ? GM_UP_VS
                                 : c->stage == GM_STAGE_FRAGMENT ? GM_UP_FS
                                 : c->stage == GM_STAGE_GEOMETRY ? GM_UP_GS
                                 : c->stage == GM_STAGE_TESS_EVALUATION ? GM_UP_TES : -1);
    return r;
}

/* Is w[0..n) a compatibility member of a geometry shader's gl_in[]? */
static int gs_in_member(const char *w, size_t n)
{
    for (const char *const *m = gm_upgrade_gs_in_members; *m; m++)
        if (word_is(w, n, *m))
            return 1;
    return 0;
}

/* The variables a per-vertex array's compatibility members become in this stage: `gl_in`
 * (out_array 0) or a TCS's `gl_out` (1) -> the name prefix of the array variables and the key
 * prefix of their declarations; NULL when the stage has no such array. A GS's and a TES's
 * gl_in[] are the previous stage's outputs (glr_ from the VS, glr_tcs_ from a TCS, glr_tes_
 * from a TES), a TCS's gl_out[] its own glr_tcs_ outputs. */
static const char *per_vertex_prefix(const upgrade_ctx *c, int out_array, const char **key)
{
    if (out_array) {
        *key = "TCSOut";
        return c->stage == GM_STAGE_TESS_CONTROL ? "glr_tcs_" : NULL;
    }
    switch (c->stage) {
    case GM_STAGE_GEOMETRY:
        *key = c->pipe & GM_UP_PIPE_TES ? "GSInTES" : "GSIn";
        return c->pipe & GM_UP_PIPE_TES ? "glr_tes_" : "glr_";
    case GM_STAGE_TESS_EVALUATION:
        *key = c->pipe & GM_UP_PIPE_TCS ? "TESInTCS" : "GSIn";
        return c->pipe & GM_UP_PIPE_TCS ? "glr_tcs_" : "glr_";
    case GM_STAGE_TESS_CONTROL:
        *key = "GSIn";
        return "glr_";
    default:
        return NULL;
    }
}

static void mark_gs_in(upgrade_ctx *c, int out_array, const char *member, size_t n)
{
    const char *kp = NULL;
    if (!per_vertex_prefix(c, out_array, &kp))
        return;
    char key[64];
    snprintf(key, sizeof key, "%s%.*s", kp, (int)(n > 3 ? n - 3 : 0), member + 3);
    mark_decl(c->used, key);
    c->compat = 1;
}

/* A built-in the active text uses: mark the declarations its replacement needs, unless the
 * shader redeclares it itself (`flat out vec4 gl_FrontColor;`: prev is the type). */
static void note_use(upgrade_ctx *c, const char *word, const char *prev)
{
    const gm_upgrade_rename *r = find_rename(c, word);
    if (!r)
        return;
    if (strncmp(word, "gl_", 3) == 0)
        c->compat = 1;
    if (!r->decl)
        return;
    int d = find_decl(r->decl);
    /* gl_TexCoord redeclarations are replaced by the standard declaration (rewrite_text), so
     * that every stage has the same array size: GL lets each stage size it differently. */
    int redeclared = prev && (strcmp(prev, "vec4") == 0 || strcmp(prev, "float") == 0) &&
                     strcmp(word, "gl_TexCoord") != 0;
    if (d >= 0 && redeclared)
        c->user_declared[d] = 1;
    else
        mark_decl(c->used, r->decl);
}

/* Decides which declarations to insert from the preprocessed, macro-expanded active text:
 * a built-in mentioned only in an inactive branch, or only as the name of a macro
 * (`#define gl_FragColor out_Color`), needs none. */
static void analyse_uses(upgrade_ctx *c)
{
    char prev[64] = "", word[128];
    const gm_pp_token *t = c->pp->expanded;
    size_t count = c->pp->expanded_count;
    int pervertex = 0;
    for (size_t i = 0; i < count; i++) {
        if (!t[i].len)
            continue;
        pervertex_step(&pervertex, t[i].s, t[i].len);
        if (pervertex == 2 && is_ident_start(t[i].s[0]))
            continue; /* members of a redeclared gl_PerVertex declare nothing */
        if (is_ident_start(t[i].s[0])) {
            if (t[i].len >= sizeof word) {
                prev[0] = 0;
                continue;
            }
            memcpy(word, t[i].s, t[i].len);
            word[t[i].len] = 0;
            const char *kp;
            int out_array = !strcmp(word, "gl_out");
            if ((out_array || !strcmp(word, "gl_in")) && per_vertex_prefix(c, out_array, &kp) &&
                i + 1 < count && t[i + 1].len == 1 && t[i + 1].s[0] == '[') {
                /* gl_in[...].gl_FrontColor */
                size_t k = i + 1;
                int depth = 0;
                for (; k < count; k++) {
                    depth += t[k].len == 1 && t[k].s[0] == '[';
                    depth -= t[k].len == 1 && t[k].s[0] == ']';
                    if (!depth)
                        break;
                }
                if (k + 2 < count && t[k + 1].len == 1 && t[k + 1].s[0] == '.' &&
                    gs_in_member(t[k + 2].s, t[k + 2].len))
                    mark_gs_in(c, out_array, t[k + 2].s, t[k + 2].len);
            }
            /* A member after '.' is no built-in variable (gl_in[i].gl_FrontColor above). */
            if (i == 0 || !(t[i - 1].len == 1 && t[i - 1].s[0] == '.'))
                note_use(c, word, prev[0] ? prev : NULL);
            size_t n = t[i].len < sizeof prev ? t[i].len : sizeof prev - 1;
            memcpy(prev, word, n);
            prev[n] = 0;
        } else if (t[i].s[0] != '[' && t[i].s[0] != ']' && !isdigit((unsigned char)t[i].s[0])) {
            prev[0] = 0;
        }
    }
}

static int is_precision_word(const char *w)
{
    return strcmp(w, "lowp") == 0 || strcmp(w, "mediump") == 0 || strcmp(w, "highp") == 0;
}

static void put_spaces(strbuf *out, size_t n)
{
    while (n--)
        sb_putn(out, " ", 1);
}

/* A user identifier that is a keyword of the upgraded version: glr_u_WORD (recorded). */
static void rename_keyword(upgrade_ctx *c, strbuf *out, const char *word)
{
    sb_printf(out, "glr_u_%s", word);
    char pair[300];
    snprintf(pair, sizeof pair, "%s=glr_u_%s\n", word, word);
    if (!c->renames.data || !strstr(c->renames.data, pair))
        sb_puts(&c->renames, pair);
}

/* Rewrites one identifier of the active text. */
static void rewrite_ident(upgrade_ctx *c, strbuf *out, const char *id, size_t n, const char *prev)
{
    char word[128];
    if (n >= sizeof word) {
        sb_putn(out, id, n);
        return;
    }
    memcpy(word, id, n);
    word[n] = 0;
    /* Desktop GLSL ignores precision qualifiers, but glslang's linker insists that they match
     * between stages: drop them (and `precision` statements) as the driver does. */
    /* Below GLSL 1.30 (without GL_ARB_ES2_compatibility) Mesa's lexer takes these words for
     * identifiers (`float lowp = 1.0;`, piglit glsl-precision-110): used as a name (followed
     * by an operator), they are renamed like other later keywords. Used as a qualifier, Mesa
     * rejects the shader; the model keeps dropping them there (the pass is more lenient). */
    int prec_ident = !c->es && c->src_version < 130 && c->next_is_operator &&
                     !any_ext_enabled(c->pp, "GL_ARB_ES2_compatibility");
    if (prec_ident && (is_precision_word(word) || strcmp(word, "precision") == 0)) {
        rename_keyword(c, out, word);
        return;
    }
    if (!c->es && is_precision_word(word)) {
        put_spaces(out, n);
        return;
    }
    if (!c->es && strcmp(word, "precision") == 0) {
        c->in_precision = 1;
        put_spaces(out, n);
        return;
    }
    /* The upgraded text has another #version: __VERSION__ keeps the driver's value. */
    if (strcmp(word, "__VERSION__") == 0) {
        sb_printf(out, "%d", c->version);
        return;
    }
    if (strcmp(word, "attribute") == 0) {
        sb_puts(out, "in");
        return;
    }
    if (strcmp(word, "varying") == 0) {
        sb_puts(out, c->stage == GM_STAGE_FRAGMENT ? "in" : "out");
        return;
    }
    const gm_upgrade_rename *r = find_rename(c, word);
    if (r) {
        sb_puts(out, r->to);
        if (c->mark_on_rewrite)
            note_use(c, word, prev);
        return;
    }
    for (const gm_upgrade_keyword *k = gm_upgrade_new_keywords; k->word; k++) {
        if (k->since > c->src_version && strcmp(k->word, word) == 0 &&
            !any_ext_enabled(c->pp, k->exts)) {
            rename_keyword(c, out, word);
            return;
        }
    }
    sb_putn(out, id, n);
}

static void rewrite_text(upgrade_ctx *c, strbuf *out, const char *s, size_t start, size_t end);

/* `gl_in[INDEX].gl_FrontColor` (a geometry shader reading a compatibility varying; the text
 * from j is what follows gl_in) becomes `glr_FrontColor[INDEX]`, the vertex shader's output
 * as an input array. Returns where the access ends, or 0 (nothing written) for any other
 * use of gl_in. The access must be on one line. */
static size_t gs_in_access(upgrade_ctx *c, strbuf *out, const char *s, size_t j, size_t end,
                           int out_array)
{
    const char *kp, *prefix = per_vertex_prefix(c, out_array, &kp);
    if (!prefix)
        return 0;
    size_t k = j;
    while (k < end && isspace((unsigned char)s[k]))
        k++;
    if (k >= end || s[k] != '[')
        return 0;
    size_t open = k;
    int depth = 0;
    for (; k < end; k++) {
        depth += s[k] == '[';
        depth -= s[k] == ']';
        if (!depth)
            break;
    }
    if (k >= end)
        return 0;
    size_t close = k++;
    while (k < end && isspace((unsigned char)s[k]))
        k++;
    if (k >= end || s[k] != '.')
        return 0;
    k++;
    while (k < end && isspace((unsigned char)s[k]))
        k++;
    size_t m = k;
    while (k < end && is_ident_char(s[k]))
        k++;
    if (!gs_in_member(s + m, k - m))
        return 0;
    sb_puts(out, prefix);
    sb_putn(out, s + m + 3, k - m - 3);
    sb_putn(out, "[", 1);
    rewrite_text(c, out, s, open + 1, close);
    sb_putn(out, "]", 1);
    if (c->mark_on_rewrite)
        mark_gs_in(c, out_array, s + m, k - m);
    return k;
}

/* `unsigned int` at s[i, j) (the word `unsigned`, then blanks and `int` on the line) in a shader
 * that enables GL_EXT_gpu_shader4, whose type it is: returns where `int` ends, else 0. */
static size_t unsigned_int(const upgrade_ctx *c, const char *s, size_t i, size_t j, size_t end)
{
    if (!word_is(s + i, j - i, "unsigned") || !ext_enabled(c->pp, "GL_EXT_gpu_shader4", 18))
        return 0;
    size_t k = j;
    while (k < end && (s[k] == ' ' || s[k] == '\t'))
        k++;
    if (k == j || k + 3 > end || strncmp(s + k, "int", 3) != 0 || (k + 3 < end && is_ident_char(s[k + 3])))
        return 0;
    return k + 3;
}

/* `invariant` at s[i, j) qualifying an input (an `in`, or a fragment shader's `varying`, before
 * the `;` on the line; returns 1), or a fragment shader's `invariant NAME;` of an input (2):
 * GLSL 1.50 allowed both, and later versions (and glslang) only take invariant outputs.
 * Invariance only constrains how outputs are computed. */
static int invariant_input(const upgrade_ctx *c, const char *s, size_t i, size_t j, size_t end)
{
    if (!word_is(s + i, j - i, "invariant"))
        return 0;
    int words = 0, outputs = 0;
    for (size_t k = j; k < end && s[k] != ';';) {
        if (!is_ident_start(s[k])) {
            k++;
            continue;
        }
        size_t e = k;
        while (e < end && is_ident_char(s[e]))
            e++;
        if (word_is(s + k, e - k, "in") || word_is(s + k, e - k, "attribute") ||
            (c->stage == GM_STAGE_FRAGMENT && word_is(s + k, e - k, "varying")))
            return 1;
        outputs |= word_is(s + k, e - k, "out") || word_is(s + k, e - k, "gl_FragColor") ||
                   word_is(s + k, e - k, "gl_FragData");
        words++;
        k = e;
    }
    /* `invariant NAME;` in a fragment shader names an input (redeclared invariant) */
    return c->stage == GM_STAGE_FRAGMENT && words && !outputs ? 2 : 0;
}

/* Token pass over s[start, end) of the comment-free text: identifiers are rewritten, numbers
 * and punctuation copied (blanked inside a dropped precision statement). */
static void rewrite_text(upgrade_ctx *c, strbuf *out, const char *s, size_t start, size_t end)
{
    size_t i = start, stmt_start = out->len;
    char prev[64] = "";
    sb_putn(out, "", 0); /* out->data exists */
    while (i < end) {
        char ch = s[i];
        /* in_precision: blanking a statement up to its ';' (a desktop precision statement or
         * a gl_TexCoord redeclaration) */
        if (c->in_precision && !is_ident_start(ch)) {
            sb_putn(out, ch == '\n' || ch == '\t' ? &ch : " ", 1);
            if (ch == ';')
                c->in_precision = 0;
            i++;
            continue;
        }
        if (is_ident_start(ch)) {
            size_t j = i;
            while (j < end && is_ident_char(s[j]))
                j++;
            size_t after = word_is(s + i, j - i, "gl_in") ? gs_in_access(c, out, s, j, end, 0)
                           : word_is(s + i, j - i, "gl_out") ? gs_in_access(c, out, s, j, end, 1) : 0;
            if (after) {
                i = after;
                prev[0] = 0;
                continue;
            }
            int inv = invariant_input(c, s, i, j, end);
            if (inv) {
                put_spaces(out, j - i); /* GLSL 1.50's `invariant in`: no effect on an input */
                c->in_precision = inv == 2; /* `invariant NAME;`: the whole statement */
                i = j;
                continue;
            }
            size_t k = unsigned_int(c, s, i, j, end);
            if (k) {   /* GL_EXT_gpu_shader4's `unsigned int` is uint */
                sb_puts(out, "uint");
                put_spaces(out, k - i - 4);
                strcpy(prev, "uint");
                i = k;
                continue;
            }
            pervertex_step(&c->pervertex, s + i, j - i);
            int compat_member = 0;
            if (c->pervertex == 2 && j - i > 3 && !strncmp(s + i, "gl_", 3)) {
                char w[64];
                snprintf(w, sizeof w, "%.*s", (int)(j - i), s + i);
                compat_member = find_rename(c, w) != NULL;
            }
            if (!c->in_precision && (compat_member || (!strcmp(prev, "vec4") && word_is(s + i, j - i, "gl_TexCoord") &&
                find_rename(c, "gl_TexCoord"))) && !memchr(out->data + stmt_start, '\n', out->len - stmt_start)) {
                /* `varying vec4 gl_TexCoord[4];`: dropped, the standard declaration is used. */
                size_t n = out->len - stmt_start;
                out->len = stmt_start;
                put_spaces(out, n + (j - i));
                c->in_precision = 1;
            } else if (c->in_precision) {
                put_spaces(out, j - i);
            } else {
                /* a word followed by an operator or ';' ',' ')' ']' is a variable's name */
                size_t k = j;
                while (k < end && (s[k] == ' ' || s[k] == '\t'))
                    k++;
                c->next_is_operator = k < end && s[k] && strchr("=;,)]+-*/<>!&|?:.", s[k]);
                rewrite_ident(c, out, s + i, j - i, prev[0] ? prev : NULL);
            }
            size_t n = j - i < sizeof prev - 1 ? j - i : sizeof prev - 1;
            memcpy(prev, s + i, n);
            prev[n] = 0;
            i = j;
            continue;
        }
        if (isdigit((unsigned char)ch) || (ch == '.' && i + 1 < end && isdigit((unsigned char)s[i + 1]))) {
            size_t j = i + 1;
            /* Numbers (1.0e-5, 0x1Fu) never contain identifiers to rewrite. */
            while (j < end && (is_ident_char(s[j]) || s[j] == '.' ||
                               ((s[j] == '+' || s[j] == '-') && (s[j - 1] == 'e' || s[j - 1] == 'E'))))
                j++;
            sb_putn(out, s + i, j - i);
            i = j;
            continue;
        }
        if (!isspace((unsigned char)ch) && ch != '[' && ch != ']')
            prev[0] = 0;
        pervertex_step(&c->pervertex, &ch, 1);
        sb_putn(out, &ch, 1);
        if (ch == ';' || ch == '{' || ch == '}')
            stmt_start = out->len;
        i++;
    }
}

/* Directive word of a line (after '#' and blanks); sets *rest to what follows it. */
static size_t directive_word(const char *s, size_t start, size_t end, size_t *at, size_t *rest)
{
    size_t i = start;
    while (i < end && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
        i++;
    if (i >= end || s[i] != '#')
        return 0;
    i++;
    while (i < end && (s[i] == ' ' || s[i] == '\t'))
        i++;
    *at = i;
    while (i < end && is_ident_char(s[i]))
        i++;
    *rest = i;
    return i - *at;
}

/* An active #extension line of the upgraded text. Extensions that are core in the target are
 * dropped; `require` becomes `enable`: the driver accepted the shader, so the extension is
 * there, and glslang only warns about an enabled extension it does not know (Mesa extensions
 * such as GL_ARB_shader_bit_encoding or GL_MESA_shader_integer_functions) instead of failing.
 * The line itself always stays (blank when dropped) so numbering is kept. */
static void rewrite_extension(strbuf *out, const char *s, size_t start, size_t end, size_t rest)
{
    size_t i = rest;
    while (i < end && (s[i] == ' ' || s[i] == '\t'))
        i++;
    size_t name = i;
    while (i < end && is_ident_char(s[i]))
        i++;
    if (is_core_extension(s + name, i - name))
        return;
    const char *req = NULL;
    for (size_t k = i; k + 7 <= end; k++)
        if (strncmp(s + k, "require", 7) == 0 && !is_ident_char(s[k + 7]) && !is_ident_char(s[k - 1]))
            req = s + k;
    if (!req) {
        sb_putn(out, s + start, end - start);
        return;
    }
    sb_putn(out, s + start, (size_t)(req - s) - start);
    sb_puts(out, "enable ");
    sb_putn(out, req + 7, end - (size_t)(req - s) - 7);
}

/* The upgraded body: every physical line of the comment-free text from `from` on, in order.
 * Conditional directives and lines of inactive branches become empty lines (the analysis
 * resolved them, so glslang, whose predefined macros differ for the new #version, never
 * evaluates them again); #define and #undef stay, rewritten like code, so glslang expands
 * the same macros. */
static void rewrite_body(upgrade_ctx *c, strbuf *out, size_t from, int first_line)
{
    const char *s = c->pp->clean;
    size_t ls = from;
    for (int line = first_line; line <= c->pp->line_count; line++) {
        size_t le = ls;
        while (s[le] && s[le] != '\n')
            le++;
        int kind = c->pp->kind[line - 1];
        size_t at, rest, n = 0;
        if (kind == GM_PP_CODE) {
            rewrite_text(c, out, s, ls, le);
        } else if (kind == GM_PP_DIRECTIVE) {
            c->in_precision = 0;
            n = directive_word(s, ls, le, &at, &rest);
            if (!n) {
                rewrite_text(c, out, s, ls, le); /* continuation of a #define */
            } else if (word_is(s + at, n, "define") || word_is(s + at, n, "undef")) {
                /* A precision word as the macro's name is kept as written: Qt 5 prefixes its
                 * desktop shaders with `#define lowp` (and mediump, highp), which rewrite_ident
                 * would blank into a `#define` without a name. Other names are rewritten as in
                 * code (`#define gl_FragColor out_Color` defines the renamed output). */
                size_t start = rest, name = rest;
                while (start < le && (s[start] == ' ' || s[start] == '\t'))
                    start++;
                name = start;
                while (name < le && (s[name] == '_' || (s[name] >= 'a' && s[name] <= 'z') ||
                                     (s[name] >= 'A' && s[name] <= 'Z') || (s[name] >= '0' && s[name] <= '9')))
                    name++;
                char word[16] = "";
                if (name - start < sizeof word)
                    memcpy(word, s + start, name - start);
                if (word[0] && is_precision_word(word)) {
                    sb_putn(out, s + ls, name - ls);
                    rewrite_text(c, out, s, name, le);
                } else {
                    sb_putn(out, s + ls, rest - ls);
                    rewrite_text(c, out, s, rest, le);
                }
            } else if (word_is(s + at, n, "extension")) {
                rewrite_extension(out, s, ls, le, rest);
            } else if (!word_is(s + at, n, "version")) {
                sb_putn(out, s + ls, le - ls); /* #line, #pragma, #error, # */
            }
            c->in_precision = 0; /* `#define P precision` blanks no code after it */
        }
        if (!s[le])
            break;
        sb_putn(out, "\n", 1);
        ls = le + 1;
    }
}

/* A source without #version is GLSL 1.10 in a desktop context and GLSL ES 1.00 in an ES one;
 * the context is not known here, so ES 1.00 shaders are recognised by a precision statement
 * in their active text when preprocessed as desktop GLSL (desktop 1.10 reserves `precision`;
 * a `precision` under `#ifdef GL_ES` is inactive there, as in glmark2's desktop shaders). */
static int looks_like_es100(const gm_pp_result *pp)
{
    for (size_t i = 0; i < pp->expanded_count; i++)
        if (pp->expanded[i].len == 9 && memcmp(pp->expanded[i].s, "precision", 9) == 0)
            return 1;
    return 0;
}

int gm_glsl_is_es(const char *source)
{
    if (!source)
        return 0;
    version_info v;
    find_version(source, &v);
    if (v.found)
        return strcmp(v.profile, "es") == 0 || v.version == 100;
    gm_pp_result pp;
    if (gm_pp_analyse(source, 110, 0, "", &pp) != 0)
        return 0;
    int es = looks_like_es100(&pp);
    gm_pp_free(&pp);
    return es;
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
    version_info v;
    find_version(text, &v);
    if (!v.found)
        return text; /* upgraded sources always have one; a current one without is invalid */
    int es = strcmp(v.profile, "es") == 0;
    char *ext = gm_ext_prelude(text, stage, v.version, es);
    if (!blocks && !vgs && !ext)
        return text;
    strbuf out = {0};
    sb_putn(&out, text, v.line_end);
    sb_puts(&out, "\n");
    if (ext)
        sb_puts(&out, ext);
    free(ext);
    if (blocks) {
        /* std430 itself needs GLSL 4.30 (or this extension) on desktop, ES 3.10 on ES. */
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

static char *upgrade_source(const char *source, gm_stage stage, int after_gs, int program_es,
                            gm_upgrade_info *info, char *err, size_t err_size);

char *gm_glsl_upgrade(const char *source, gm_stage stage, gm_upgrade_info *info, char *err,
                      size_t err_size)
{
    return gm_glsl_upgrade_in_program(source, stage, 0, 0, info, err, err_size);
}

char *gm_glsl_upgrade_in_program(const char *source, gm_stage stage, int after_geometry,
                                 int program_es, gm_upgrade_info *info, char *err, size_t err_size)
{
    char *text = upgrade_source(source, stage, after_geometry, program_es, info, err, err_size);
    if (text && !(text = fix_driver_layouts(text, stage, err, err_size)))
        gm_upgrade_info_free(info);
    if (text && strstr(text, "subroutine")) {
        int changed;
        err[0] = 0;
        char *lowered = gm_lower_subroutines(text, &changed, err, err_size);
        if (changed) {
            free(text);
            text = lowered;
        } else if (err[0]) {
            free(text);
            gm_upgrade_info_free(info);
            return NULL;
        }
    }
    return text;
}

/* A source glslang takes as it is (desktop >= 3.30 core, ES >= 3.10) gets only edits that keep
 * every character's position: desktop precision qualifiers and statements become spaces (Mesa
 * ignores them; glslang's linker wants them equal between stages) and `require` in active
 * #extension directives becomes `enable ` (see rewrite_extension). */
static char *fix_current_source(const char *source, const gm_pp_result *pp, int es)
{
    char *t = strdup(source);
    if (!t)
        return NULL;
    const char *s = pp->clean; /* same offsets as source, comments blanked */
    size_t ls = 0;
    int in_precision = 0;
    for (int line = 1; line <= pp->line_count; line++) {
        size_t le = ls;
        while (s[le] && s[le] != '\n')
            le++;
        int kind = pp->kind[line - 1];
        size_t at, rest, n = directive_word(s, ls, le, &at, &rest);
        if (kind == GM_PP_DIRECTIVE && n && word_is(s + at, n, "extension")) {
            for (size_t k = rest; k + 7 <= le; k++)
                if (!strncmp(s + k, "require", 7) && !is_ident_char(s[k + 7]) && !is_ident_char(s[k - 1]))
                    memcpy(t + k, "enable ", 7);
        } else if (!es && (kind == GM_PP_CODE || (kind == GM_PP_DIRECTIVE && n && word_is(s + at, n, "define")))) {
            for (size_t i = ls; i < le;) {
                if (in_precision) {
                    in_precision = s[i] != ';';
                    t[i++] = ' ';
                    continue;
                }
                if (!is_ident_start(s[i]) || (i > ls && is_ident_char(s[i - 1]))) {
                    i++;
                    continue;
                }
                size_t j = i;
                while (j < le && is_ident_char(s[j]))
                    j++;
                int prec = word_is(s + i, j - i, "precision");
                if (prec || word_is(s + i, j - i, "lowp") || word_is(s + i, j - i, "mediump") ||
                    word_is(s + i, j - i, "highp"))
                    memset(t + i, ' ', j - i);
                in_precision = prec;
                i = j;
            }
        }
        if (!s[le])
            break;
        ls = le + 1;
    }
    return t;
}

/* Does the shader enable an extension whose features glslang only gives from a later GLSL
 * version than the source's (the atomic built-ins of buffer blocks and arrays of arrays from
 * 4.30, clock2x32ARB and the float atomics from 4.50)? Mesa takes them with the extension at any version, so such a
 * source is upgraded to the target version. */
static int needs_later_version(const gm_pp_result *pp, int version)
{
    return (version < 430 && (ext_enabled(pp, "GL_ARB_shader_storage_buffer_object", 35) ||
                              ext_enabled(pp, "GL_ARB_arrays_of_arrays", 23))) ||
           (version < 450 && (ext_enabled(pp, "GL_ARB_shader_clock", 19) ||
                              ext_enabled(pp, "GL_NV_shader_atomic_float", 25) ||
                              ext_enabled(pp, "GL_INTEL_shader_atomic_float_minmax", 35)));
}

static char *upgrade_source(const char *source, gm_stage stage, int after_gs, int program_es,
                            gm_upgrade_info *info, char *err, size_t err_size)
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
    gm_pp_result pp;
    if (v.found) {
        es = strcmp(v.profile, "es") == 0 || version == 100;
    } else {
        if (gm_pp_analyse(source, 110, 0, "", &pp) != 0) {
            snprintf(err, err_size, "out of memory");
            return NULL;
        }
        es = program_es || looks_like_es100(&pp), version = es ? 100 : 110;
        gm_pp_free(&pp);
    }
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
    if (gm_pp_analyse(source, version, es, v.profile, &pp) != 0) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    /* Desktop stages that came before their core version through an extension
     * (GL_ARB_compute_shader in 4.20 and below, GL_ARB_tessellation_shader below 4.00,
     * GL_ARB_geometry_shader4 below 1.50) are upgraded too: glslang only takes them from
     * the version that made them core. */
    int stage_min = stage == GM_STAGE_COMPUTE ? 430
                    : stage == GM_STAGE_TESS_CONTROL || stage == GM_STAGE_TESS_EVALUATION ? 400
                    : stage == GM_STAGE_GEOMETRY ? 150 : 0;
    int needs = es ? version < 310 : (version < 330 || compat_profile || version < stage_min ||
                                      needs_later_version(&pp, version));
    if (!needs) {
        char *copy = fix_current_source(source, &pp, es);
        gm_pp_free(&pp);
        if (!copy)
            snprintf(err, err_size, "out of memory");
        return copy;
    }

    upgrade_ctx c;
    memset(&c, 0, sizeof c);
    c.stage = stage;
    c.pipe = after_gs;   /* GM_UP_PIPE_* flags */
    c.after_gs = (c.pipe & GM_UP_PIPE_GS) && stage == GM_STAGE_FRAGMENT;
    c.after_tes = (c.pipe & GM_UP_PIPE_TES) && !(c.pipe & GM_UP_PIPE_GS) && stage == GM_STAGE_FRAGMENT;
    c.es = es;
    c.version = version;
    c.src_version = es ? (version == 100 ? 120 : 330) : version;
    c.pp = &pp;
    c.mark_on_rewrite = !pp.complete;
    analyse_uses(&c);
    strbuf body = {0};
    size_t body_start = v.found ? v.line_end : 0;
    if (v.found && source[body_start] == '\n')
        body_start++;
    if (!v.found || source[v.line_end] == '\n')
        rewrite_body(&c, &body, body_start, v.found ? v.line + 1 : 1);

    strbuf out = {0};
    /* Lines before #version are comments/blank: kept as blank lines. */
    if (v.found)
        sb_putn(&out, pp.clean, v.line_start);
    int target = es ? 310 : (version > 450 ? version : 450);
    sb_printf(&out, "#version %d%s\n", target, es ? " es" : " core");
    for (unsigned i = 0; i < gm_upgrade_decl_count; i++)
        if (c.used[i] && !c.user_declared[i])
            emit_decl(&out, gm_upgrade_decls[i].text, es);
    /* The next original line keeps its number. */
    sb_printf(&out, "#line %d\n", v.found ? v.line + 1 : 1);
    if (body.data)
        sb_putn(&out, body.data, body.len);
    free(body.data);
    gm_pp_free(&pp);
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
