/* Snapshot builder and read access. A builder accumulates copies of everything (names, words), so
 * a frozen snapshot owns all it points to and outlives the warp, the program and the frame. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shadow/shadow.h"
#include "shadow/sh_internal.h"

struct sh_builder {
    struct sh_snapshot *s;
    bool failed;
    char why[128];
    int cap_types, cap_vars, cap_frames;
};

static char *dup_str(struct sh_snapshot *s, const char *str)
{
    if (!str)
        return NULL;
    char *d = strdup(str);
    if (d)
        s->bytes += strlen(str) + 1;
    return d;
}

static bool grow(void **arr, int *cap, int need, size_t elem)
{
    if (need <= *cap)
        return true;
    int nc = *cap ? *cap * 2 : 16;
    while (nc < need)
        nc *= 2;
    void *p = realloc(*arr, (size_t)nc * elem);
    if (!p)
        return false;
    *arr = p;
    *cap = nc;
    return true;
}

static void fail(sh_builder *b, const char *why)
{
    if (!b->failed)
        snprintf(b->why, sizeof b->why, "%s", why);
    b->failed = true;
}

sh_builder *sh_builder_new(void)
{
    sh_builder *b = calloc(1, sizeof *b);
    if (!b)
        return NULL;
    b->s = calloc(1, sizeof *b->s);
    if (!b->s) {
        free(b);
        return NULL;
    }
    atomic_init(&b->s->refs, 1);
    b->s->bytes = sizeof *b->s;
    return b;
}

void sh_snapshot_destroy(struct sh_snapshot *s)
{
    for (int i = 0; i < s->n_types; i++) {
        free((char *)s->types[i].name);
        for (int m = 0; m < (s->types[i].kind == SH_TYPE_STRUCT ? s->types[i].length : 0); m++)
            free((char *)s->types[i].members[m].name);
        free((void *)s->types[i].members);
    }
    free(s->types);
    for (int i = 0; i < s->n_vars; i++) {
        free((char *)s->vars[i].name);
        free((char *)s->vars[i].function);
        free((void *)s->vars[i].words);
    }
    free(s->vars);
    for (int i = 0; i < s->n_frames; i++)
        free((char *)s->frames[i].function);
    free(s->frames);
    free(s->title);
    free(s->resources);
    free(s->pipeline);
    free(s);
}

void sh_builder_free(sh_builder *b)
{
    if (!b)
        return;
    sh_snapshot_destroy(b->s);
    free(b);
}

int sh_builder_add_type(sh_builder *b, const sh_type *t)
{
    struct sh_snapshot *s = b->s;
    if (b->failed || !grow((void **)&s->types, &b->cap_types, s->n_types + 1, sizeof *s->types)) {
        fail(b, "out of memory (types)");
        return -1;
    }
    sh_type *d = &s->types[s->n_types];
    *d = *t;
    d->name = dup_str(s, t->name ? t->name : "");
    d->members = NULL;
    /* Builders that predate the width leave it 0: 32-bit words. Float scalars, vectors and
     * matrices (doubles) and int/uint scalars and vectors (GL_ARB_gpu_shader_int64) can be
     * 64-bit. */
    bool wide_float = d->scalar == SH_SCALAR_FLOAT &&
                      (t->kind == SH_TYPE_SCALAR || t->kind == SH_TYPE_VECTOR || t->kind == SH_TYPE_MATRIX);
    bool wide_int = (d->scalar == SH_SCALAR_INT || d->scalar == SH_SCALAR_UINT) &&
                    (t->kind == SH_TYPE_SCALAR || t->kind == SH_TYPE_VECTOR);
    if (d->width != 64 || !(wide_float || wide_int))
        d->width = 32;
    if (t->kind == SH_TYPE_STRUCT) {
        d->length = 0; /* members are counted as they are added */
    }
    s->bytes += sizeof *d;
    return s->n_types++;
}

int sh_builder_add_member(sh_builder *b, int struct_type, const char *name, int type, int offset)
{
    struct sh_snapshot *s = b->s;
    if (b->failed || struct_type < 0 || struct_type >= s->n_types || s->types[struct_type].kind != SH_TYPE_STRUCT) {
        fail(b, "member added to a type that is not a struct");
        return -1;
    }
    sh_type *t = &s->types[struct_type];
    sh_member *m = realloc((void *)t->members, (size_t)(t->length + 1) * sizeof *m);
    if (!m) {
        fail(b, "out of memory (members)");
        return -1;
    }
    m[t->length] = (sh_member){ dup_str(s, name ? name : ""), type, offset };
    t->members = m;
    s->bytes += sizeof *m;
    return t->length++;
}

int sh_builder_add_var(sh_builder *b, const sh_var *v)
{
    struct sh_snapshot *s = b->s;
    if (b->failed)
        return -1;
    /* A malformed variable is refused alone; the snapshot stays usable. */
    if (v->type < 0 || v->type >= s->n_types || (v->lanes != 1 && v->lanes != SH_LANES) || !v->words)
        return -1;
    if (!grow((void **)&s->vars, &b->cap_vars, s->n_vars + 1, sizeof *s->vars)) {
        fail(b, "out of memory (variables)");
        return -1;
    }
    size_t n = (size_t)s->types[v->type].components * (size_t)v->lanes;
    uint32_t *w = malloc(n ? n * sizeof *w : 1);
    if (!w) {
        fail(b, "out of memory (variable words)");
        return -1;
    }
    if (n)
        memcpy(w, v->words, n * sizeof *w);
    sh_var *d = &s->vars[s->n_vars];
    *d = *v;
    d->name = dup_str(s, v->name ? v->name : "");
    d->function = dup_str(s, v->function);
    d->words = w;
    s->bytes += sizeof *d + n * sizeof *w;
    return s->n_vars++;
}

void sh_builder_push_frame(sh_builder *b, const char *function, int line)
{
    struct sh_snapshot *s = b->s;
    if (b->failed)
        return;
    if (!grow((void **)&s->frames, &b->cap_frames, s->n_frames + 1, sizeof *s->frames)) {
        fail(b, "out of memory (frames)");
        return;
    }
    s->frames[s->n_frames++] = (sh_frame){ dup_str(s, function ? function : "?"), line };
    s->bytes += sizeof(sh_frame);
}

void sh_builder_set_header(sh_builder *b, const sh_header *h)
{
    b->s->header = *h;
}

void sh_builder_set_text(sh_builder *b, const char *title, const char *resources_json,
                         const char *pipeline_json)
{
    struct sh_snapshot *s = b->s;
    free(s->title);
    free(s->resources);
    free(s->pipeline);
    s->title = dup_str(s, title ? title : "");
    s->resources = dup_str(s, resources_json ? resources_json : "[]");
    s->pipeline = dup_str(s, pipeline_json ? pipeline_json : "{}");
    if (!s->title || !s->resources || !s->pipeline)
        fail(b, "out of memory (texts)");
}

sh_snapshot *sh_builder_finish(sh_builder *b, char *err, size_t err_size)
{
    if (!b)
        return NULL;
    if (!b->failed && !b->s->title)
        sh_builder_set_text(b, "", "[]", "{}");
    if (b->failed) {
        if (err_size)
            snprintf(err, err_size, "snapshot: %s", b->why);
        sh_builder_free(b);
        return NULL;
    }
    struct sh_snapshot *s = b->s;
    free(b);
    return s;
}

sh_snapshot *sh_snapshot_ref(sh_snapshot *s)
{
    if (s)
        atomic_fetch_add(&s->refs, 1);
    return s;
}

void sh_snapshot_unref(sh_snapshot *s)
{
    if (s && atomic_fetch_sub(&s->refs, 1) == 1)
        sh_snapshot_destroy(s);
}

const sh_header *sh_snapshot_header(const sh_snapshot *s) { return &s->header; }
uint64_t sh_snapshot_id(const sh_snapshot *s) { return s->id; }
size_t sh_snapshot_bytes(const sh_snapshot *s) { return s->bytes; }
int sh_snapshot_type_count(const sh_snapshot *s) { return s->n_types; }
int sh_snapshot_var_count(const sh_snapshot *s) { return s->n_vars; }
int sh_snapshot_frame_count(const sh_snapshot *s) { return s->n_frames; }
const char *sh_snapshot_title(const sh_snapshot *s) { return s->title ? s->title : ""; }
const char *sh_snapshot_resources(const sh_snapshot *s) { return s->resources ? s->resources : "[]"; }
const char *sh_snapshot_pipeline(const sh_snapshot *s) { return s->pipeline ? s->pipeline : "{}"; }

const sh_type *sh_snapshot_type(const sh_snapshot *s, int i)
{
    return i >= 0 && i < s->n_types ? &s->types[i] : NULL;
}

const sh_var *sh_snapshot_var(const sh_snapshot *s, int i)
{
    return i >= 0 && i < s->n_vars ? &s->vars[i] : NULL;
}

const sh_frame *sh_snapshot_frame(const sh_snapshot *s, int depth)
{
    return depth >= 0 && depth < s->n_frames ? &s->frames[s->n_frames - 1 - depth] : NULL;
}

/* Bare function name: "shade_light(i1;vf3;" -> "shade_light". */
static size_t fn_len(const char *f)
{
    const char *p = strchr(f, '(');
    return p ? (size_t)(p - f) : strlen(f);
}

int sh_snapshot_find_var(const sh_snapshot *s, const char *name)
{
    const char *cur = s->n_frames ? s->frames[s->n_frames - 1].function : "main";
    static const sh_var_class order[] = { SH_VAR_GLOBAL, SH_VAR_INPUT, SH_VAR_OUTPUT, SH_VAR_UNIFORM,
                                          SH_VAR_BUILTIN };
    for (int i = 0; i < s->n_vars; i++) {
        const sh_var *v = &s->vars[i];
        if (v->klass == SH_VAR_LOCAL && strcmp(v->name, name) == 0 && v->function &&
            fn_len(v->function) == fn_len(cur) && strncmp(v->function, cur, fn_len(cur)) == 0)
            return i;
    }
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        for (int i = 0; i < s->n_vars; i++)
            if (s->vars[i].klass == order[k] && strcmp(s->vars[i].name, name) == 0)
                return i;
    return -1;
}

void sh_var_lane_words(const sh_snapshot *s, const sh_var *v, int lane, uint32_t *out)
{
    int n = s->types[v->type].components;
    for (int c = 0; c < n; c++)
        out[c] = sh_var_word(v, c, lane);
}
