/* Inspection requests over the current snapshot: threads, stackTrace, scopes, variables (paged,
 * aggregates expanded lazily), source, loadedSources, evaluate, readMemory. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_capture.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_disasm.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define REF_BASE 1000   /* dynamic references; 1..5 are the scopes of frame 0 */
/* Frame ids: (thread - 1) * FRAME_STRIDE + depth + 1, so thread 1's frames are 1, 2, ... */
#define FRAME_STRIDE DAP_FRAME_STRIDE

void dap_inspect_reset(struct dap_session *s)
{
    free(s->refs);
    s->refs = NULL;
    s->n_refs = s->cap_refs = 0;
    free(s->ref_slots);
    s->ref_slots = NULL;
    s->n_ref_slots = 0;
    cJSON_Delete(s->pipeline);
    s->pipeline = NULL;
}

static bool same_ref(const struct dap_ref *a, const struct dap_ref *b)
{
    return a->kind == b->kind && a->depth == b->depth && a->var == b->var && a->lane == b->lane &&
           a->type == b->type && a->offset == b->offset && a->json == b->json && a->thread == b->thread &&
           !strcmp(a->eval, b->eval);
}

static unsigned hash_ref(const struct dap_ref *r)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a over the identifying fields */
    const int f[] = { (int)r->kind, r->depth, r->var, r->lane, r->type, r->offset, r->thread };
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        h = (h ^ (uint32_t)f[i]) * 1099511628211ull;
    h = (h ^ (uint64_t)(uintptr_t)r->json) * 1099511628211ull;
    for (const char *c = r->eval; *c; c++)
        h = (h ^ (unsigned char)*c) * 1099511628211ull;
    return (unsigned)(h ^ h >> 32);
}

/* The slot of r in the table: where it is, or the empty slot where it goes. */
static int *ref_slot(struct dap_session *s, const struct dap_ref *r)
{
    unsigned mask = (unsigned)s->n_ref_slots - 1;
    for (unsigned i = hash_ref(r) & mask;; i = (i + 1) & mask) {
        int *slot = &s->ref_slots[i];
        if (!*slot || same_ref(&s->refs[*slot - 1], r))
            return slot;
    }
}

/* Keeps the table at most half full (so ref_slot always finds an empty slot). */
static bool grow_slots(struct dap_session *s)
{
    if (s->n_ref_slots && (s->n_refs + 1) * 2 <= s->n_ref_slots)
        return true;
    int n = s->n_ref_slots ? s->n_ref_slots * 2 : 128;
    int *slots = calloc((size_t)n, sizeof *slots);
    if (!slots)
        return false;
    free(s->ref_slots);
    s->ref_slots = slots;
    s->n_ref_slots = n;
    for (int i = 0; i < s->n_refs; i++)
        *ref_slot(s, &s->refs[i]) = i + 1;
    return true;
}

/* The reference of r: the one handed out before for the same thing during this stop, or a new one. */
static int new_ref(struct dap_session *s, struct dap_ref r)
{
    r.thread = s->view_thread > 0 ? s->view_thread : 1;
    if (!grow_slots(s))
        return 0;
    int *slot = ref_slot(s, &r);
    if (*slot)
        return REF_BASE + *slot - 1;
    if (s->n_refs >= 1000000)
        return 0;
    if (s->n_refs == s->cap_refs) {
        int nc = s->cap_refs ? s->cap_refs * 2 : 64;
        struct dap_ref *p = realloc(s->refs, (size_t)nc * sizeof *p);
        if (!p)
            return 0;
        s->refs = p;
        s->cap_refs = nc;
    }
    s->refs[s->n_refs++] = r;
    *slot = s->n_refs;
    return REF_BASE + s->n_refs - 1;
}

cJSON *dap_source_json(struct dap_session *s, int shader, int shader_line, int *client_line)
{
    *client_line = shader_line;
    for (int i = 0; i < s->n_sources; i++) {
        const struct dap_src *src = &s->sources[i];
        if (!src->path)
            continue;
        for (int k = 0; k < src->n_binds; k++)
            if (src->binds[k].shader == shader && shader_line > src->binds[k].offset &&
                shader_line <= src->binds[k].offset + src->binds[k].file_lines) {
                cJSON *o = cJSON_CreateObject();
                const char *base = strrchr(src->path, '/');
                cJSON_AddStringToObject(o, "name", base ? base + 1 : src->path);
                cJSON_AddStringToObject(o, "path", src->path);
                *client_line = shader_line - src->binds[k].offset;
                return o;
            }
    }
    const struct dbg_shader *sh = dbg_capture_shader(s->cap, shader);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", sh ? sh->name : "unknown shader");
    if (sh) {
        cJSON_AddNumberToObject(o, "sourceReference", sh->id);
        cJSON_AddStringToObject(o, "origin", "captured shader");
    }
    return o;
}

/* The file on disk a breakpoint bound to a shader (the shader's text contains it; stack frames
 * in its lines already show that file, see dap_source_json), or NULL. */
static const char *bound_file(const struct dap_session *s, int shader)
{
    for (int i = 0; i < s->n_sources; i++)
        for (int k = 0; s->sources[i].path && k < s->sources[i].n_binds; k++)
            if (s->sources[i].binds[k].shader == shader)
                return s->sources[i].path;
    return NULL;
}

cJSON *dap_shader_source_json(struct dap_session *s, const struct dbg_shader *sh)
{
    /* The captured text stays the content (sourceReference: the program's prepended lines are
     * part of it); path says where the file is on disk (the spec allows both). */
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", sh->name);
    const char *path = bound_file(s, sh->id);
    if (path)
        cJSON_AddStringToObject(o, "path", path);
    cJSON_AddNumberToObject(o, "sourceReference", sh->id);
    return o;
}

void dap_loaded_source_events(struct dap_session *s, const char *reason, int shader)
{
    for (int i = 0; i < s->cap->n_shaders; i++) {
        const struct dbg_shader *sh = &s->cap->shaders[i];
        if (shader && sh->id != shader)
            continue;
        cJSON *b = cJSON_CreateObject();
        cJSON_AddStringToObject(b, "reason", reason);
        cJSON_AddItemToObject(b, "source", dap_shader_source_json(s, sh));
        dap_event(s, "loadedSource", b);
    }
}

/* A pass of the model is changing the stop; a side job (dap_session_internal.h: side_job) leaves it as it is. */
static bool pass_running(const struct dap_session *s)
{
    return s->running && !s->side_job;
}

static bool need_stop(struct dap_session *s, const cJSON *req)
{
    if (s->snap && !pass_running(s))
        return true;
    dap_respond(s, req, false, NULL, pass_running(s) ? "the frame is running" : "not stopped");
    return false;
}

static const char *bare_function(const char *f, char *buf, size_t n)
{
    const char *p = strchr(f, '(');
    size_t len = p ? (size_t)(p - f) : strlen(f);
    snprintf(buf, n, "%.*s", (int)len, f);
    return buf;
}

/* Thread 1 is the stopped warp (focused); with the timing model, threads 2.. are the other warps
 * resident in the model at the stop, each a snapshot of its own. */
static void threads(struct dap_session *s, const cJSON *req)
{
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "threads");
    cJSON *t = cJSON_CreateObject();
    cJSON_AddNumberToObject(t, "id", 1);
    cJSON_AddStringToObject(t, "name", s->snap ? sh_snapshot_title(s->snap) : s->at_end ? "end of frame" : "frame");
    cJSON_AddItemToArray(arr, t);
    for (int i = 0; s->snap && i < s->n_others; i++) {
        t = cJSON_CreateObject();
        cJSON_AddNumberToObject(t, "id", i + 2);
        cJSON_AddStringToObject(t, "name", sh_snapshot_title(s->others[i]));
        cJSON_AddItemToArray(arr, t);
    }
    dap_respond(s, req, true, b, NULL);
}

/* A client's number as an int: an id or count outside what a session can hold (or NaN) becomes -1,
 * never a conversion whose result C leaves undefined. */
static int jint(const cJSON *j)
{
    return cJSON_IsNumber(j) && j->valuedouble >= -1e9 && j->valuedouble <= 1e9 ? (int)j->valuedouble : -1;
}

/* The thread a request is about: threadId, the thread part of frameId, or a reference's thread. */
static int request_thread(struct dap_session *s, const char *cmd, const cJSON *args)
{
    const cJSON *j;
    if (!strcmp(cmd, "stackTrace") && cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "threadId")))
        return jint(j);
    if (cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "frameId")) && j->valuedouble >= 1)
        return 1 + (jint(j) - 1) / FRAME_STRIDE;
    if (!strcmp(cmd, "variables") && cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "variablesReference"))) {
        int ref = jint(j);
        if (ref >= REF_BASE && ref - REF_BASE < s->n_refs)
            return s->refs[ref - REF_BASE].thread;
    }
    return 1;
}

static void stack_trace(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (s->at_end && !s->snap && !pass_running(s)) {
        /* Stopped at the end of the frame: no invocation, no frames. */
        cJSON *b = cJSON_CreateObject();
        cJSON_AddArrayToObject(b, "stackFrames");
        cJSON_AddNumberToObject(b, "totalFrames", 0);
        dap_respond(s, req, true, b, NULL);
        return;
    }
    if (!need_stop(s, req))
        return;
    const sh_header *h = sh_snapshot_header(s->snap);
    int n = sh_snapshot_frame_count(s->snap);
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "stackFrames");
    /* startFrame/levels page the frames (levels 0 or absent: all); totalFrames is the whole. */
    const cJSON *jf = cJSON_GetObjectItemCaseSensitive(args, "startFrame");
    const cJSON *jl = cJSON_GetObjectItemCaseSensitive(args, "levels");
    int first = cJSON_IsNumber(jf) && jf->valuedouble > 0 ? (jf->valuedouble < n ? jint(jf) : n) : 0;
    int last = cJSON_IsNumber(jl) && jl->valuedouble > 0 && jl->valuedouble < n - first ? first + jint(jl) : n;
    for (int d = first; d < last; d++) {
        const sh_frame *f = sh_snapshot_frame(s->snap, d);
        int line = d == 0 ? h->lane_line[s->focus] : f->line;
        if (line <= 0)
            line = f->line;
        int client_line;
        cJSON *o = cJSON_CreateObject();
        char fn[128], name[200];
        bare_function(f->function, fn, sizeof fn);
        snprintf(name, sizeof name, "%s (lane %d)", fn, s->focus);
        cJSON_AddNumberToObject(o, "id", (s->view_thread > 1 ? s->view_thread - 1 : 0) * FRAME_STRIDE + d + 1);
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddItemToObject(o, "source", dap_source_json(s, h->shader, line, &client_line));
        cJSON_AddNumberToObject(o, "line", client_line > 0 ? client_line : 1);
        cJSON_AddNumberToObject(o, "column", 1);
        if (d == 0 && h->shader > 0 && ((h->active >> s->focus) & 1) && h->pc >= 0) {
            /* The instruction the focused lane is at (disassemble, dbg_disasm.h). */
            char ip[32];
            snprintf(ip, sizeof ip, "0x%llx", (unsigned long long)dbg_disasm_address(h->shader, h->pc));
            cJSON_AddStringToObject(o, "instructionPointerReference", ip);
        }
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(b, "totalFrames", n);
    dap_respond(s, req, true, b, NULL);
}

static void scopes(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (!need_stop(s, req))
        return;
    const cJSON *fid = cJSON_GetObjectItemCaseSensitive(args, "frameId");
    int depth = cJSON_IsNumber(fid) ? (jint(fid) - 1) % FRAME_STRIDE : 0;
    if (depth < 0 || depth >= sh_snapshot_frame_count(s->snap)) {
        dap_respond(s, req, false, NULL, "unknown frameId");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "scopes");
    static const struct { const char *name, *hint; enum dap_ref_kind kind; bool expensive; } sc[] = {
        { "Locals", "locals", DAP_REF_LOCALS, false },
        { "Warp", NULL, DAP_REF_WARP, false },
        { "Uniforms", NULL, DAP_REF_UNIFORMS, false },
        { "Built-ins", NULL, DAP_REF_BUILTINS, false },
        { "Pipeline state", NULL, DAP_REF_PIPELINE, true },
    };
    for (size_t i = 0; i < sizeof sc / sizeof sc[0]; i++) {
        struct dap_ref r = { .kind = sc[i].kind, .depth = depth, .var = -1 };
        int ref = new_ref(s, r);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sc[i].name);
        if (sc[i].hint)
            cJSON_AddStringToObject(o, "presentationHint", sc[i].hint);
        cJSON_AddNumberToObject(o, "variablesReference", ref);
        cJSON_AddBoolToObject(o, "expensive", sc[i].expensive);
        cJSON_AddItemToArray(arr, o);
    }
    dap_respond(s, req, true, b, NULL);
}

/* One variable entry for a lane's value of (var, type, offset). */
static cJSON *value_entry(struct dap_session *s, const char *name, const char *eval_name, int var, int lane, int type,
                          int offset)
{
    const sh_var *v = sh_snapshot_var(s->snap, var);
    const sh_type *t = sh_snapshot_type(s->snap, type);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    char tn[96];
    cJSON_AddStringToObject(o, "type", sh_type_glsl(s->snap, type, tn, sizeof tn));
    int comps = t ? t->components : 0;
    const sh_type *vt = sh_snapshot_type(s->snap, v->type);
    uint32_t *words = malloc((size_t)(vt->components > 0 ? vt->components : 1) * sizeof *words);
    char text[1024] = "?";
    if (words && comps > 0) {
        sh_var_lane_words(s->snap, v, lane, words);
        sh_format_value(s->snap, type, words + offset, text, sizeof text);
    }
    free(words);
    cJSON_AddStringToObject(o, "value", text);
    if (eval_name)
        cJSON_AddStringToObject(o, "evaluateName", eval_name);
    int ref = 0;
    if (t && (t->kind == SH_TYPE_ARRAY || t->kind == SH_TYPE_STRUCT || t->kind == SH_TYPE_VECTOR ||
              t->kind == SH_TYPE_MATRIX)) {
        struct dap_ref r = { .kind = DAP_REF_VALUE, .var = var, .lane = lane, .type = type, .offset = offset };
        if (eval_name && strlen(eval_name) < sizeof r.eval)
            snprintf(r.eval, sizeof r.eval, "%s", eval_name);
        ref = new_ref(s, r);
        if (t->kind == SH_TYPE_STRUCT)
            cJSON_AddNumberToObject(o, "namedVariables", t->length);
        else
            cJSON_AddNumberToObject(o, "indexedVariables", t->kind == SH_TYPE_ARRAY ? t->length
                                                             : t->kind == SH_TYPE_MATRIX ? t->columns : t->rows);
    }
    cJSON_AddNumberToObject(o, "variablesReference", ref);
    char mref[64];
    snprintf(mref, sizeof mref, "0x%llx",
             (unsigned long long)(var + 1) << 32 | (unsigned long long)lane << 24 | (unsigned long long)offset * 4);
    cJSON_AddStringToObject(o, "memoryReference", mref);
    return o;
}

/* The components of a vector value: x, y, z, w (each a scalar; no further children). */
static void vector_components(struct dap_session *s, cJSON *arr, const struct dap_ref *r, const sh_type *t, int start,
                              int count)
{
    const sh_var *v = sh_snapshot_var(s->snap, r->var);
    const sh_type *vt = sh_snapshot_type(s->snap, v->type);
    uint32_t *words = malloc((size_t)(vt->components > 0 ? vt->components : 1) * sizeof *words);
    if (!words)
        return;
    sh_var_lane_words(s->snap, v, r->lane, words);
    int step = t->width == 64 ? 2 : 1;
    int last = count > 0 && start + count < t->rows ? start + count : t->rows;
    static const char *sc_names[] = { "float", "int", "uint", "bool" };
    for (int k = start; k < last && k < 4; k++) {
        char name[8], text[64], ev[200];
        snprintf(name, sizeof name, "%c", "xyzw"[k]);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", name);
        int at = r->offset + k * step;
        cJSON_AddStringToObject(o, "value", at + step <= vt->components
                                                ? sh_format_component(t->scalar, t->width, words + at, text, sizeof text)
                                                : "?");
        const char *tn = t->width == 64 ? "double" : (unsigned)t->scalar < 4 ? sc_names[t->scalar] : "?";
        cJSON_AddStringToObject(o, "type", tn);
        if (r->eval[0]) {
            snprintf(ev, sizeof ev, "%s.%s", r->eval, name);
            cJSON_AddStringToObject(o, "evaluateName", ev);
        }
        cJSON_AddNumberToObject(o, "variablesReference", 0);
        cJSON_AddItemToArray(arr, o);
    }
    free(words);
}

/* Whether a container's children are indexed (elements, lanes, components) or named. */
static bool ref_indexed(struct dap_session *s, const struct dap_ref *r)
{
    if (r->kind == DAP_REF_LANES)
        return true;
    if (r->kind == DAP_REF_PIPELINE)
        return r->json && cJSON_IsArray(r->json);
    if (r->kind != DAP_REF_VALUE)
        return false;
    const sh_type *t = sh_snapshot_type(s->snap, r->type);
    return t && t->kind != SH_TYPE_STRUCT;
}

static bool in_function(const sh_var *v, const char *fn)
{
    if (!v->function)
        return false;
    const char *a = strchr(v->function, '('), *b = strchr(fn, '(');
    size_t la = a ? (size_t)(a - v->function) : strlen(v->function);
    size_t lb = b ? (size_t)(b - fn) : strlen(fn);
    return la == lb && !strncmp(v->function, fn, la);
}

static void lane_label(struct dap_session *s, int lane, char *buf, size_t n)
{
    const sh_header *h = sh_snapshot_header(s->snap);
    const char *state = ((h->active >> lane) & 1) ? "" : ((h->alive >> lane) & 1) ? " inactive" : " finished";
    const char *helper = ((h->helper >> lane) & 1) ? " helper" : "";
    if (!h->lane_pos_known)
        snprintf(buf, n, "lane %d%s%s", lane, state, helper);
    else if (h->stage == 4)
        snprintf(buf, n, "lane %d (%d,%d)%s%s", lane, h->lane_x[lane], h->lane_y[lane], state, helper);
    else if (h->stage == 5)
        snprintf(buf, n, "lane %d (invocation %d)%s%s", lane, h->lane_x[lane], state, helper);
    else if (h->stage == 3)
        snprintf(buf, n, "lane %d (primitive %d invocation %d)%s%s", lane, h->lane_x[lane], h->lane_y[lane], state,
                 helper);
    else
        snprintf(buf, n, "lane %d (vertex %d)%s%s", lane, h->lane_x[lane], state, helper);
}

/* Appends entries [start, start+count) of a generated list; `i` is the running index. */
#define PAGE_OK(i) ((i) >= start && (count <= 0 || (i) < start + count))

static void pipeline_entries(struct dap_session *s, cJSON *arr, const cJSON *node, int start, int count)
{
    int i = 0;
    const cJSON *c;
    cJSON_ArrayForEach(c, node) {
        if (PAGE_OK(i)) {
            cJSON *o = cJSON_CreateObject();
            char name[64];
            if (c->string)
                snprintf(name, sizeof name, "%s", c->string);
            else
                snprintf(name, sizeof name, "[%d]", i);
            cJSON_AddStringToObject(o, "name", name);
            int ref = 0;
            if (cJSON_IsObject(c) || cJSON_IsArray(c)) {
                ref = new_ref(s, (struct dap_ref){ .kind = DAP_REF_PIPELINE, .json = c });
                char v[32];
                snprintf(v, sizeof v, cJSON_IsArray(c) ? "[%d]" : "{%d}", cJSON_GetArraySize(c));
                cJSON_AddStringToObject(o, "value", v);
            } else {
                char *v = cJSON_PrintUnformatted(c);
                cJSON_AddStringToObject(o, "value", v ? v : "?");
                free(v);
            }
            cJSON_AddNumberToObject(o, "variablesReference", ref);
            cJSON_AddItemToArray(arr, o);
        }
        i++;
    }
}

static void variables(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (!need_stop(s, req))
        return;
    const cJSON *jr = cJSON_GetObjectItemCaseSensitive(args, "variablesReference");
    const cJSON *js = cJSON_GetObjectItemCaseSensitive(args, "start");
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "count");
    int ref = jint(jr);
    int start = jint(js) > 0 ? jint(js) : 0;
    int count = jint(jc) > 0 ? jint(jc) : 0;
    const char *filter = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "filter"));
    if (ref < REF_BASE || ref - REF_BASE >= s->n_refs) {
        dap_respond(s, req, false, NULL, "unknown variablesReference (it expires when execution resumes)");
        return;
    }
    struct dap_ref r = s->refs[ref - REF_BASE];
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "variables");
    /* filter: a container's children are either indexed (array elements, lanes, vector and
     * matrix components) or named (scope entries, struct and block members): the other kind is
     * an empty list. */
    bool indexed = ref_indexed(s, &r);
    if (filter && ((!strcmp(filter, "indexed") && !indexed) || (!strcmp(filter, "named") && indexed))) {
        dap_respond(s, req, true, b, NULL);
        return;
    }
    int nv = sh_snapshot_var_count(s->snap);
    int i = 0;
    const sh_header *h = sh_snapshot_header(s->snap);
    switch (r.kind) {
    case DAP_REF_LOCALS: {
        const sh_frame *f = sh_snapshot_frame(s->snap, r.depth);
        for (int pass = 0; pass < 2; pass++)
            for (int v = 0; v < nv; v++) {
                const sh_var *var = sh_snapshot_var(s->snap, v);
                bool want = pass == 0 ? (var->klass == SH_VAR_LOCAL && in_function(var, f->function))
                                      : (r.depth == sh_snapshot_frame_count(s->snap) - 1 &&
                                         (var->klass == SH_VAR_GLOBAL || var->klass == SH_VAR_INPUT ||
                                          var->klass == SH_VAR_OUTPUT));
                if (want && PAGE_OK(i))
                    cJSON_AddItemToArray(arr, value_entry(s, var->name, var->name, v, s->focus, var->type, 0));
                i += want;
            }
        break;
    }
    case DAP_REF_UNIFORMS:
    case DAP_REF_BUILTINS:
        for (int v = 0; v < nv; v++) {
            const sh_var *var = sh_snapshot_var(s->snap, v);
            bool want = var->klass == (r.kind == DAP_REF_UNIFORMS ? SH_VAR_UNIFORM : SH_VAR_BUILTIN);
            if (want && PAGE_OK(i))
                cJSON_AddItemToArray(arr, value_entry(s, var->name, var->name, v, s->focus, var->type, 0));
            i += want;
        }
        if (r.kind == DAP_REF_BUILTINS) {
            char v[160];
            struct { const char *name, *type; char value[320]; } extra[5];
            int nx = 0;
            /* Snapshots of fragment warps carry gl_HelperInvocation (dbg_builtins.c); others say
             * it from the warp's masks. */
            if (sh_snapshot_find_var(s->snap, "gl_HelperInvocation") < 0) {
                snprintf(extra[nx].value, sizeof extra[nx].value, "%s", ((h->helper >> s->focus) & 1) ? "true" : "false");
                extra[nx].name = "gl_HelperInvocation";
                extra[nx++].type = "bool";
            }
            snprintf(extra[nx].value, sizeof extra[nx].value, "%d", s->focus);
            extra[nx].name = "lane";
            extra[nx++].type = "int";
            snprintf(extra[nx].value, sizeof extra[nx].value, "0x%08x (alive 0x%08x, helper 0x%08x, killed 0x%08x)",
                     h->active, h->alive, h->helper, h->killed);
            extra[nx].name = "activeMask";
            extra[nx++].type = "uint";
            lane_label(s, s->focus, v, sizeof v);
            snprintf(extra[nx].value, sizeof extra[nx].value, "draw %d (event %llu), program %d, %s", h->draw,
                     (unsigned long long)h->event, h->program, v);
            extra[nx].name = "invocation";
            extra[nx++].type = "string";
            /* Built-ins the shader does not declare, from what the lane stands for, where the
             * snapshot has no such variable (the model's built-ins are added by dbg_builtins.c). */
            if (h->lane_pos_known && h->stage == 4 && sh_snapshot_find_var(s->snap, "gl_FragCoord") < 0) {
                extra[nx].name = "gl_FragCoord.xy";
                extra[nx].type = "vec2";
                snprintf(extra[nx++].value, sizeof extra[0].value, "vec2(%g, %g)", h->lane_x[s->focus] + 0.5,
                         h->lane_y[s->focus] + 0.5);
            } else if (h->lane_pos_known && h->stage == 0 && sh_snapshot_find_var(s->snap, "gl_VertexID") < 0) {
                extra[nx].name = "gl_VertexID";
                extra[nx].type = "int";
                snprintf(extra[nx++].value, sizeof extra[0].value, "%d", h->lane_x[s->focus]);
            } else if (h->lane_pos_known && h->stage == 5 &&
                       sh_snapshot_find_var(s->snap, "gl_LocalInvocationIndex") < 0) {
                extra[nx].name = "gl_LocalInvocationIndex";
                extra[nx].type = "uint";
                snprintf(extra[nx++].value, sizeof extra[0].value, "%d", h->lane_x[s->focus]);
            }
            for (int k = 0; k < nx; k++, i++)
                if (PAGE_OK(i)) {
                    cJSON *o = cJSON_CreateObject();
                    cJSON_AddStringToObject(o, "name", extra[k].name);
                    cJSON_AddStringToObject(o, "value", extra[k].value);
                    cJSON_AddStringToObject(o, "type", extra[k].type);
                    cJSON_AddNumberToObject(o, "variablesReference", 0);
                    cJSON_AddItemToArray(arr, o);
                }
        }
        break;
    case DAP_REF_WARP:
        for (int v = 0; v < nv; v++) {
            const sh_var *var = sh_snapshot_var(s->snap, v);
            bool want = var->lanes == SH_LANES &&
                        (var->klass != SH_VAR_LOCAL ||
                         in_function(var, sh_snapshot_frame(s->snap, 0)->function) ||
                         in_function(var, sh_snapshot_frame(s->snap, r.depth)->function));
            if (want && PAGE_OK(i)) {
                cJSON *o = cJSON_CreateObject();
                cJSON_AddStringToObject(o, "name", var->name);
                char tn[96], val[64];
                cJSON_AddStringToObject(o, "type", sh_type_glsl(s->snap, var->type, tn, sizeof tn));
                snprintf(val, sizeof val, "32 lanes (%d active)", __builtin_popcount(h->active));
                cJSON_AddStringToObject(o, "value", val);
                cJSON_AddNumberToObject(o, "variablesReference",
                                        new_ref(s, (struct dap_ref){ .kind = DAP_REF_LANES, .var = v, .type = var->type }));
                cJSON_AddNumberToObject(o, "indexedVariables", SH_LANES);
                cJSON_AddItemToArray(arr, o);
            }
            i += want;
        }
        break;
    case DAP_REF_LANES: {
        const sh_var *var = sh_snapshot_var(s->snap, r.var);
        for (int l = 0; l < SH_LANES; l++, i++)
            if (PAGE_OK(i)) {
                char label[96], ev[160];
                lane_label(s, l, label, sizeof label);
                snprintf(ev, sizeof ev, "%s", var->name);
                cJSON_AddItemToArray(arr, value_entry(s, label, NULL, r.var, l, var->type, 0));
            }
        break;
    }
    case DAP_REF_VALUE: {
        const sh_type *t = sh_snapshot_type(s->snap, r.type);
        char ev[200];
        if (t->kind == SH_TYPE_ARRAY || t->kind == SH_TYPE_MATRIX) {
            /* Array elements; matrix columns (each a vector, expandable in turn). */
            const sh_type *el = sh_snapshot_type(s->snap, t->element);
            int n = t->kind == SH_TYPE_ARRAY ? t->length : t->columns;
            int last = count > 0 && start + count < n ? start + count : n;
            for (int k = start; k < last; k++) {
                char name[32];
                snprintf(name, sizeof name, "[%d]", k);
                snprintf(ev, sizeof ev, "%s[%d]", r.eval, k);
                cJSON_AddItemToArray(arr, value_entry(s, name, r.eval[0] ? ev : NULL, r.var, r.lane, t->element,
                                                      r.offset + k * el->components));
            }
        } else if (t->kind == SH_TYPE_VECTOR) {
            vector_components(s, arr, &r, t, start, count);
        } else {
            for (int k = 0; k < t->length; k++, i++)
                if (PAGE_OK(i)) {
                    snprintf(ev, sizeof ev, "%s.%s", r.eval, t->members[k].name);
                    cJSON_AddItemToArray(arr, value_entry(s, t->members[k].name, r.eval[0] ? ev : NULL, r.var, r.lane,
                                                          t->members[k].type, r.offset + t->members[k].offset));
                }
        }
        break;
    }
    case DAP_REF_PIPELINE: {
        const cJSON *node = r.json;
        if (!node) {
            if (!s->pipeline)
                s->pipeline = cJSON_Parse(sh_snapshot_pipeline(s->snap));
            node = s->pipeline;
        }
        if (node)
            pipeline_entries(s, arr, node, start, count);
        break;
    }
    }
    dap_respond(s, req, true, b, NULL);
}

static void source(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(args, "source");
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(args, "sourceReference");
    if (cJSON_IsObject(src) && cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(src, "sourceReference")))
        r = cJSON_GetObjectItemCaseSensitive(src, "sourceReference");
    const struct dbg_shader *sh = cJSON_IsNumber(r) ? dbg_capture_shader(s->cap, jint(r)) : NULL;
    if (!sh) {
        dap_respond(s, req, false, NULL, "unknown sourceReference");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "content", sh->source);
    cJSON_AddStringToObject(b, "mimeType", "text/x-glsl");
    dap_respond(s, req, true, b, NULL);
}

static void loaded_sources(struct dap_session *s, const cJSON *req)
{
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "sources");
    for (int i = 0; i < s->cap->n_shaders; i++) {
        const struct dbg_shader *sh = &s->cap->shaders[i];
        cJSON *o = dap_shader_source_json(s, sh);
        char origin[96];
        snprintf(origin, sizeof origin, "%s of program %u", dbg_stage_short(sh->stage), sh->program);
        cJSON_AddStringToObject(o, "origin", origin);
        cJSON_AddItemToArray(arr, o);
    }
    dap_respond(s, req, true, b, NULL);
}

/* evaluate's texture functions: through the texture units of the warp the pass is parked at. */
int dap_sample_at_stop(void *ctx, const gm_sample_request *rq, gm_texel_out *out, char *err, size_t err_size)
{
    struct dap_sample_ctx *c = ctx;
    const sh_header *h = sh_snapshot_header(c->snap);
    if (!c->s->runner || !c->s->runner->sample_parked) {
        snprintf(err, err_size, "this runner cannot sample textures");
        return -1;
    }
    int rc = c->s->runner->sample_parked(c->s->runner->impl, h->draw, h->stage, rq, out, err, err_size);
    if (rc == DBG_EVAL_NOT_PARKED)
        c->not_parked = true;   /* evaluate parks the model at the stop and retries (dap_park.c) */
    return rc;
}

static void evaluate(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(args, "expression");
    if (!cJSON_IsString(e)) {
        dap_respond(s, req, false, NULL, "evaluate: 'expression' (string) is required");
        return;
    }
    if (!need_stop(s, req))
        return;
    char text[2048], type[96] = "";
    /* frameId: names mean what they mean in that frame's function (its locals, parameters). */
    const cJSON *fid = cJSON_GetObjectItemCaseSensitive(args, "frameId");
    const char *function = NULL;
    if (cJSON_IsNumber(fid)) {
        const sh_frame *f = fid->valuedouble >= 1 && fid->valuedouble < 1e9
                                ? sh_snapshot_frame(s->snap, (jint(fid) - 1) % FRAME_STRIDE) : NULL;
        if (!f) {
            dap_respond(s, req, false, NULL, "evaluate: unknown frameId");
            return;
        }
        function = f->function;
    }
    struct dap_sample_ctx sc = { s, s->snap, false };
    struct dbg_eval_env env = { dap_sample_at_stop, &sc };
    if (dbg_eval_frame_env(s->snap, s->focus, function, e->valuestring, &env, text, sizeof text, type, sizeof type) !=
        0) {
        if (!dap_park_retry(s, req, &sc))
            dap_respond(s, req, false, NULL, text);
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "result", text);
    cJSON_AddStringToObject(b, "type", type);
    cJSON_AddNumberToObject(b, "variablesReference", 0);
    dap_respond(s, req, true, b, NULL);
}

static void base64(const uint8_t *in, size_t n, char *out)
{
    static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16 | (i + 1 < n ? (uint32_t)in[i + 1] << 8 : 0) | (i + 2 < n ? in[i + 2] : 0);
        out[o++] = tab[(v >> 18) & 63];
        out[o++] = tab[(v >> 12) & 63];
        out[o++] = i + 1 < n ? tab[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? tab[v & 63] : '=';
    }
    out[o] = 0;
}

/* Memory of a stop: each (variable, lane) is a region of its own in one flat address space,
 *   address = (var + 1) << 32 | lane << 24 | byte offset inside the lane's value
 * (a value is < 16 MiB). `address` in the answer is that number as "0x..." text, as the spec
 * requires; memoryReference is either such a number ("0x...", or decimal) or the
 * "v<var>.l<lane>.o<word offset>" that variables give. */
static bool parse_memref(const char *mr, int *var, int *lane, long long *byte)
{
    int off;
    if (sscanf(mr, "v%d.l%d.o%d", var, lane, &off) == 3) {
        *byte = (long long)off * 4;
        return off >= 0;
    }
    char *end;
    unsigned long long a = strtoull(mr, &end, 0);
    if (end == mr || *end || !(a >> 32))
        return false;
    *var = (int)((a >> 32) - 1);
    *lane = (int)((a >> 24) & 0xff);
    *byte = (long long)(a & 0xffffff);
    return true;
}

/* memoryReference: see parse_memref; the lane's words of that variable. */
static void read_memory(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (!need_stop(s, req))
        return;
    const char *mr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "memoryReference"));
    const cJSON *jo = cJSON_GetObjectItemCaseSensitive(args, "offset");
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "count");
    int var, lane;
    long long off;
    if (!mr || !parse_memref(mr, &var, &lane, &off) || !sh_snapshot_var(s->snap, var) || lane < 0 ||
        lane >= SH_LANES || !cJSON_IsNumber(jc) || jc->valuedouble < 0 || jc->valuedouble > (1 << 24)) {
        dap_respond(s, req, false, NULL, "readMemory: unknown memoryReference or bad count");
        return;
    }
    const sh_var *v = sh_snapshot_var(s->snap, var);
    const sh_type *t = sh_snapshot_type(s->snap, v->type);
    size_t total = (size_t)t->components * 4;
    double jo_v = cJSON_IsNumber(jo) ? jo->valuedouble : 0;
    long long start = off + (jo_v > -(1 << 24) && jo_v < (1 << 24) ? (long long)jo_v : 1 << 24);
    long long want = (long long)jc->valuedouble;
    cJSON *b = cJSON_CreateObject();
    char addr[64];
    long long in_region = start < 0 ? 0 : start > 0xffffff ? 0xffffff : start;
    snprintf(addr, sizeof addr, "0x%llx",
             (unsigned long long)(var + 1) << 32 | (unsigned long long)lane << 24 | (unsigned long long)in_region);
    cJSON_AddStringToObject(b, "address", addr);
    if (start < 0 || (size_t)start >= total || want == 0) {
        cJSON_AddNumberToObject(b, "unreadableBytes", (double)want);
        dap_respond(s, req, true, b, NULL);
        return;
    }
    size_t n = (size_t)want < total - (size_t)start ? (size_t)want : total - (size_t)start;
    uint32_t *words = malloc(total);
    char *enc = malloc(n / 3 * 4 + 8);
    if (!words || !enc) {
        free(words);
        free(enc);
        cJSON_Delete(b);
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    sh_var_lane_words(s->snap, v, lane, words);
    base64((const uint8_t *)words + start, n, enc);
    cJSON_AddStringToObject(b, "data", enc);
    if ((long long)n < want)
        cJSON_AddNumberToObject(b, "unreadableBytes", (double)(want - (long long)n));
    free(words);
    free(enc);
    dap_respond(s, req, true, b, NULL);
}

static bool dispatch(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args);

bool dap_inspect_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    /* Another thread than the stopped warp: answer over its snapshot, its first live lane focused
     * (the pipeline state stays the stop's: parsed from it before the switch). */
    int t = s->snap ? request_thread(s, cmd, args) : 1;
    if (t < 1 || t > s->n_others + 1) {
        if (!strcmp(cmd, "stackTrace") || !strcmp(cmd, "scopes") || !strcmp(cmd, "evaluate") ||
            !strcmp(cmd, "variables")) {
            dap_respond(s, req, false, NULL, "unknown thread (threads change at every stop)");
            return true;
        }
        t = 1;
    }
    if (t == 1) {
        s->view_thread = 1;
        return dispatch(s, cmd, req, args);
    }
    if (!s->pipeline)
        s->pipeline = cJSON_Parse(sh_snapshot_pipeline(s->snap));
    sh_snapshot *snap = s->snap;
    int focus = s->focus;
    s->snap = s->others[t - 2];
    s->focus = sh_snapshot_header(s->snap)->focus_lane;
    s->view_thread = t;
    bool handled = dispatch(s, cmd, req, args);
    s->snap = snap;
    s->focus = focus;
    s->view_thread = 1;
    return handled;
}

static bool dispatch(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "threads"))
        threads(s, req);
    else if (!strcmp(cmd, "stackTrace"))
        stack_trace(s, req, args);
    else if (!strcmp(cmd, "scopes"))
        scopes(s, req, args);
    else if (!strcmp(cmd, "variables"))
        variables(s, req, args);
    else if (!strcmp(cmd, "source"))
        source(s, req, args);
    else if (!strcmp(cmd, "loadedSources"))
        loaded_sources(s, req);
    else if (!strcmp(cmd, "evaluate"))
        evaluate(s, req, args);
    else if (!strcmp(cmd, "readMemory"))
        read_memory(s, req, args);
    else
        return false;
    return true;
}
