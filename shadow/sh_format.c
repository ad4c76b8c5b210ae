/* Text and JSON views of snapshot values: the same spelling for the IDE, the CLI and tests. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "shadow/shadow.h"
#include "shadow/sh_internal.h"

static const char *scalar_prefix(sh_scalar s)
{
    switch (s) {
    case SH_SCALAR_INT: return "i";
    case SH_SCALAR_UINT: return "u";
    case SH_SCALAR_BOOL: return "b";
    default: return "";
    }
}

static const char *scalar_name(sh_scalar s)
{
    switch (s) {
    case SH_SCALAR_INT: return "int";
    case SH_SCALAR_UINT: return "uint";
    case SH_SCALAR_BOOL: return "bool";
    default: return "float";
    }
}

const char *sh_type_glsl(const sh_snapshot *s, int type, char *buf, size_t size)
{
    const sh_type *t = sh_snapshot_type(s, type);
    if (!t) {
        snprintf(buf, size, "?");
        return buf;
    }
    bool wide = t->width == 64, dbl = wide && t->scalar == SH_SCALAR_FLOAT;
    switch (t->kind) {
    case SH_TYPE_SCALAR:
        snprintf(buf, size, "%s", dbl ? "double" : !wide ? scalar_name(t->scalar)
                                  : t->scalar == SH_SCALAR_UINT ? "uint64_t" : "int64_t");
        break;
    case SH_TYPE_VECTOR:
        snprintf(buf, size, "%s%svec%d", dbl ? "d" : scalar_prefix(t->scalar),
                 wide && !dbl ? "64" : "", t->rows);
        break;
    case SH_TYPE_MATRIX:
        if (t->rows == t->columns)
            snprintf(buf, size, "%smat%d", dbl ? "d" : "", t->columns);
        else
            snprintf(buf, size, "%smat%dx%d", dbl ? "d" : "", t->columns, t->rows);
        break;
    case SH_TYPE_ARRAY: {
        char el[64];
        snprintf(buf, size, "%s[%d]", sh_type_glsl(s, t->element, el, sizeof el), t->length);
        break;
    }
    case SH_TYPE_STRUCT:
    case SH_TYPE_OPAQUE: snprintf(buf, size, "%s", t->name && *t->name ? t->name : "struct"); break;
    default: snprintf(buf, size, "?"); break;
    }
    return buf;
}

/* Appends to buf with an overflow mark; returns false once full. */
struct out { char *buf; size_t size, len; bool full; };

static void put(struct out *o, const char *text)
{
    if (o->full)
        return;
    size_t n = strlen(text);
    if (o->len + n + 4 >= o->size) {
        size_t room = o->size > o->len + 4 ? o->size - o->len - 4 : 0;
        memcpy(o->buf + o->len, text, room);
        o->len += room;
        memcpy(o->buf + o->len, "...", 4);
        o->full = true;
        return;
    }
    memcpy(o->buf + o->len, text, n + 1);
    o->len += n;
}

static void put_scalar(struct out *o, sh_scalar k, uint32_t w)
{
    char t[48];
    switch (k) {
    case SH_SCALAR_INT: snprintf(t, sizeof t, "%d", (int32_t)w); break;
    case SH_SCALAR_UINT: snprintf(t, sizeof t, "%u", w); break;
    case SH_SCALAR_BOOL: snprintf(t, sizeof t, "%s", w ? "true" : "false"); break;
    default: {
        float f;
        memcpy(&f, &w, sizeof f);
        if (isnan(f))
            snprintf(t, sizeof t, "nan");
        else if (isinf(f))
            snprintf(t, sizeof t, "%sinf", f < 0 ? "-" : "");
        else
            snprintf(t, sizeof t, "%.9g", (double)f);
        break;
    }
    }
    put(o, t);
}

/* A double from its two words (low word first, as the GPU model keeps it): %.17g, the
 * shortest spelling that always reads back as the same double. */
static void put_double(struct out *o, const uint32_t *w)
{
    char t[48];
    uint64_t bits = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    double d;
    memcpy(&d, &bits, sizeof d);
    if (isnan(d))
        snprintf(t, sizeof t, "nan");
    else if (isinf(d))
        snprintf(t, sizeof t, "%sinf", d < 0 ? "-" : "");
    else
        snprintf(t, sizeof t, "%.17g", d);
    put(o, t);
}

/* A 64-bit component (double or GL_ARB_gpu_shader_int64 integer): low word, then high. */
static void put_wide(struct out *o, sh_scalar sc, const uint32_t *w)
{
    char t[32];
    uint64_t bits = (uint64_t)w[0] | (uint64_t)w[1] << 32;
    if (sc == SH_SCALAR_FLOAT) {
        put_double(o, w);
        return;
    }
    if (sc == SH_SCALAR_UINT)
        snprintf(t, sizeof t, "%llu", (unsigned long long)bits);
    else
        snprintf(t, sizeof t, "%lld", (long long)(int64_t)bits);
    put(o, t);
}

static void put_value(const sh_snapshot *s, struct out *o, int type, const uint32_t *w, int depth)
{
    const sh_type *t = sh_snapshot_type(s, type);
    char name[64];
    if (!t || depth > 16) {
        put(o, "?");
        return;
    }
    switch (t->kind) {
    case SH_TYPE_SCALAR:
        if (t->width == 64)
            put_wide(o, t->scalar, w);
        else
            put_scalar(o, t->scalar, w[0]);
        break;
    case SH_TYPE_OPAQUE:
        put(o, "unit ");
        put_scalar(o, SH_SCALAR_INT, w[0]);
        break;
    case SH_TYPE_VECTOR:
    case SH_TYPE_MATRIX: {
        put(o, sh_type_glsl(s, type, name, sizeof name));
        put(o, "(");
        int n = t->rows * t->columns;
        for (int i = 0; i < n && !o->full; i++) {
            if (i)
                put(o, ", ");
            if (t->width == 64)
                put_wide(o, t->scalar, w + 2 * i);
            else
                put_scalar(o, t->scalar, w[i]);
        }
        put(o, ")");
        break;
    }
    case SH_TYPE_ARRAY: {
        const sh_type *el = sh_snapshot_type(s, t->element);
        int step = el ? el->components : 1;
        put(o, "[");
        for (int i = 0; i < t->length && !o->full; i++) {
            if (i)
                put(o, ", ");
            put_value(s, o, t->element, w + (size_t)i * (size_t)step, depth + 1);
        }
        put(o, "]");
        break;
    }
    case SH_TYPE_STRUCT:
        put(o, "{");
        for (int i = 0; i < t->length && !o->full; i++) {
            if (i)
                put(o, ", ");
            put(o, t->members[i].name);
            put(o, ": ");
            put_value(s, o, t->members[i].type, w + t->members[i].offset, depth + 1);
        }
        put(o, "}");
        break;
    default:
        put(o, "?");
        break;
    }
}

char *sh_format_component(sh_scalar scalar, int width, const uint32_t *words, char *buf, size_t size)
{
    if (!size)
        return buf;
    struct out o = { buf, size, 0, size < 8 };
    buf[0] = 0;
    if (o.full)
        return buf;
    if (width == 64)
        put_double(&o, words);
    else
        put_scalar(&o, scalar, words[0]);
    return buf;
}

char *sh_format_value(const sh_snapshot *s, int type, const uint32_t *words, char *buf, size_t size)
{
    if (!size)
        return buf;
    struct out o = { buf, size, 0, size < 8 };
    buf[0] = 0;
    if (o.full)
        return buf;
    put_value(s, &o, type, words, 0);
    return buf;
}

static const char *class_name(sh_var_class k)
{
    static const char *n[] = { "local", "global", "input", "output", "uniform", "builtin" };
    return (unsigned)k < sizeof n / sizeof n[0] ? n[k] : "?";
}

static const char *stage_name(int st)
{
    static const char *n[] = { "VS", "TCS", "TES", "GS", "FS", "CS" };
    return st >= 0 && st < 6 ? n[st] : "?";
}

char *sh_snapshot_to_json(const sh_snapshot *s)
{
    const sh_header *h = &s->header;
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON_AddStringToObject(root, "title", sh_snapshot_title(s));
    cJSON_AddNumberToObject(root, "snapshot", (double)s->id);
    cJSON_AddNumberToObject(root, "hit", (double)h->hit);
    cJSON_AddNumberToObject(root, "draw", h->draw);
    cJSON_AddNumberToObject(root, "event", (double)h->event);
    cJSON_AddStringToObject(root, "stage", stage_name(h->stage));
    cJSON_AddNumberToObject(root, "warp", h->warp);
    cJSON_AddNumberToObject(root, "lane", h->focus_lane);
    cJSON_AddNumberToObject(root, "shader", h->shader);
    cJSON_AddNumberToObject(root, "program", h->program);
    cJSON_AddNumberToObject(root, "line", h->line);
    cJSON_AddNumberToObject(root, "activeMask", h->active);
    cJSON_AddNumberToObject(root, "aliveMask", h->alive);
    cJSON_AddNumberToObject(root, "helperMask", h->helper);
    cJSON_AddNumberToObject(root, "killedMask", h->killed);
    if (h->stage == 5 && h->lane_pos_known) {
        /* Compute: the warp's workgroup ([-1,-1,-1] when unknown) and the group's local size. */
        cJSON *wg = cJSON_AddArrayToObject(root, "workgroup");
        cJSON *ls = cJSON_AddArrayToObject(root, "localSize");
        for (int k = 0; k < 3; k++) {
            cJSON_AddItemToArray(wg, cJSON_CreateNumber(h->workgroup[k]));
            cJSON_AddItemToArray(ls, cJSON_CreateNumber(h->local_size[k]));
        }
        cJSON_AddNumberToObject(root, "groupIndex", (double)h->group_index);
    }
    cJSON *lanes = cJSON_AddArrayToObject(root, "lanes");
    for (int l = 0; l < SH_LANES; l++) {
        cJSON *lo = cJSON_CreateObject();
        cJSON_AddNumberToObject(lo, "lane", l);
        cJSON_AddBoolToObject(lo, "active", (h->active >> l) & 1);
        cJSON_AddBoolToObject(lo, "helper", (h->helper >> l) & 1);
        cJSON_AddNumberToObject(lo, "line", h->lane_line[l]);
        if (!h->lane_pos_known) {
        } else if (h->stage == 5) {
            cJSON_AddNumberToObject(lo, "localInvocationIndex", h->lane_x[l]);
        } else if (h->stage == 4) {
            cJSON_AddNumberToObject(lo, "x", h->lane_x[l]);
            cJSON_AddNumberToObject(lo, "y", h->lane_y[l]);
        } else if (h->stage == 3) {   /* geometry: gl_PrimitiveIDIn and gl_InvocationID */
            cJSON_AddNumberToObject(lo, "primitiveId", h->lane_x[l]);
            cJSON_AddNumberToObject(lo, "invocationId", h->lane_y[l]);
        } else {
            cJSON_AddNumberToObject(lo, "vertexId", h->lane_x[l]);
            cJSON_AddNumberToObject(lo, "instanceId", h->lane_y[l]);
        }
        cJSON_AddItemToArray(lanes, lo);
    }
    cJSON *stack = cJSON_AddArrayToObject(root, "stack");
    for (int d = 0; d < s->n_frames; d++) {
        const sh_frame *f = sh_snapshot_frame(s, d);
        cJSON *fo = cJSON_CreateObject();
        cJSON_AddStringToObject(fo, "function", f->function);
        cJSON_AddNumberToObject(fo, "line", f->line);
        cJSON_AddItemToArray(stack, fo);
    }
    cJSON *vars = cJSON_AddArrayToObject(root, "variables");
    uint32_t words[4096];
    char text[2048], tname[96];
    for (int i = 0; i < s->n_vars; i++) {
        const sh_var *v = &s->vars[i];
        const sh_type *t = &s->types[v->type];
        cJSON *vo = cJSON_CreateObject();
        cJSON_AddStringToObject(vo, "name", v->name);
        cJSON_AddStringToObject(vo, "class", class_name(v->klass));
        if (v->function)
            cJSON_AddStringToObject(vo, "function", v->function);
        cJSON_AddStringToObject(vo, "type", sh_type_glsl(s, v->type, tname, sizeof tname));
        if (t->components <= (int)(sizeof words / sizeof words[0])) {
            sh_var_lane_words(s, v, h->focus_lane, words);
            cJSON_AddStringToObject(vo, "value", sh_format_value(s, v->type, words, text, sizeof text));
            if (v->lanes == SH_LANES) {
                cJSON *pl = cJSON_AddArrayToObject(vo, "lanes");
                for (int l = 0; l < SH_LANES; l++) {
                    sh_var_lane_words(s, v, l, words);
                    cJSON_AddItemToArray(pl, cJSON_CreateString(sh_format_value(s, v->type, words, text,
                                                                                sizeof text)));
                }
            }
        }
        cJSON_AddItemToArray(vars, vo);
    }
    cJSON *res = cJSON_Parse(sh_snapshot_resources(s));
    cJSON_AddItemToObject(root, "resources", res ? res : cJSON_CreateArray());
    cJSON *pipe = cJSON_Parse(sh_snapshot_pipeline(s));
    cJSON_AddItemToObject(root, "pipeline", pipe ? pipe : cJSON_CreateObject());
    char *out = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    return out;
}
