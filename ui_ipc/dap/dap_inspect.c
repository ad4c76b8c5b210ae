/* Inspection requests over the current snapshot: threads, stackTrace, scopes, variables (paged,
 * aggregates expanded lazily), source, loadedSources, evaluate, readMemory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ui_ipc/dap/dap_capture.h"
#include "ui_ipc/dap/dap_eval.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define REF_BASE 1000   /* dynamic references; 1..5 are the scopes of frame 0 */
/* Frame ids: (thread - 1) * FRAME_STRIDE + depth + 1, so thread 1's frames are 1, 2, ... */
#define FRAME_STRIDE 1024

void dap_inspect_reset(struct dap_session *s)
{
    free(s->refs);
    s->refs = NULL;
    s->n_refs = s->cap_refs = 0;
    cJSON_Delete(s->pipeline);
    s->pipeline = NULL;
}

static int new_ref(struct dap_session *s, struct dap_ref r)
{
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
    r.thread = s->view_thread > 0 ? s->view_thread : 1;
    s->refs[s->n_refs++] = r;
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
    const struct dap_shader *sh = dap_capture_shader(s->cap, shader);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", sh ? sh->name : "unknown shader");
    if (sh) {
        cJSON_AddNumberToObject(o, "sourceReference", sh->id);
        cJSON_AddStringToObject(o, "origin", "captured shader");
    }
    return o;
}

static bool need_stop(struct dap_session *s, const cJSON *req)
{
    if (s->snap && !s->running)
        return true;
    dap_respond(s, req, false, NULL, s->running ? "the frame is running" : "not stopped");
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

/* The thread a request is about: threadId, the thread part of frameId, or a reference's thread. */
static int request_thread(struct dap_session *s, const char *cmd, const cJSON *args)
{
    const cJSON *j;
    if (!strcmp(cmd, "stackTrace") && cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "threadId")))
        return (int)j->valuedouble;
    if (cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "frameId")) && j->valuedouble >= 1)
        return 1 + ((int)j->valuedouble - 1) / FRAME_STRIDE;
    if (!strcmp(cmd, "variables") && cJSON_IsNumber(j = cJSON_GetObjectItemCaseSensitive(args, "variablesReference"))) {
        int ref = (int)j->valuedouble;
        if (ref >= REF_BASE && ref - REF_BASE < s->n_refs)
            return s->refs[ref - REF_BASE].thread;
    }
    return 1;
}

static void stack_trace(struct dap_session *s, const cJSON *req)
{
    if (s->at_end && !s->snap && !s->running) {
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
    for (int d = 0; d < n; d++) {
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
    int depth = cJSON_IsNumber(fid) ? ((int)fid->valuedouble - 1) % FRAME_STRIDE : 0;
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
    if (t && (t->kind == SH_TYPE_ARRAY || t->kind == SH_TYPE_STRUCT)) {
        ref = new_ref(s, (struct dap_ref){ .kind = DAP_REF_VALUE, .var = var, .lane = lane, .type = type, .offset = offset });
        if (t->kind == SH_TYPE_ARRAY)
            cJSON_AddNumberToObject(o, "indexedVariables", t->length);
        else
            cJSON_AddNumberToObject(o, "namedVariables", t->length);
    }
    cJSON_AddNumberToObject(o, "variablesReference", ref);
    char mref[64];
    snprintf(mref, sizeof mref, "v%d.l%d.o%d", var, lane, offset);
    cJSON_AddStringToObject(o, "memoryReference", mref);
    return o;
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
    int ref = cJSON_IsNumber(jr) ? (int)jr->valuedouble : -1;
    int start = cJSON_IsNumber(js) && js->valuedouble > 0 ? (int)js->valuedouble : 0;
    int count = cJSON_IsNumber(jc) && jc->valuedouble > 0 ? (int)jc->valuedouble : 0;
    if (ref < REF_BASE || ref - REF_BASE >= s->n_refs) {
        dap_respond(s, req, false, NULL, "unknown variablesReference (it expires when execution resumes)");
        return;
    }
    struct dap_ref r = s->refs[ref - REF_BASE];
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "variables");
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
            struct { const char *name, *type; char value[320]; } extra[4];
            snprintf(extra[0].value, sizeof extra[0].value, "%s", ((h->helper >> s->focus) & 1) ? "true" : "false");
            extra[0].name = "gl_HelperInvocation";
            extra[0].type = "bool";
            snprintf(extra[1].value, sizeof extra[1].value, "%d", s->focus);
            extra[1].name = "lane";
            extra[1].type = "int";
            snprintf(extra[2].value, sizeof extra[2].value, "0x%08x (alive 0x%08x, helper 0x%08x, killed 0x%08x)",
                     h->active, h->alive, h->helper, h->killed);
            extra[2].name = "activeMask";
            extra[2].type = "uint";
            lane_label(s, s->focus, v, sizeof v);
            snprintf(extra[3].value, sizeof extra[3].value, "draw %d (event %llu), program %d, %s", h->draw,
                     (unsigned long long)h->event, h->program, v);
            extra[3].name = "invocation";
            extra[3].type = "string";
            for (int k = 0; k < 4; k++, i++)
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
        if (t->kind == SH_TYPE_ARRAY) {
            const sh_type *el = sh_snapshot_type(s->snap, t->element);
            int last = count > 0 && start + count < t->length ? start + count : t->length;
            for (int k = start; k < last; k++) {
                char name[32];
                snprintf(name, sizeof name, "[%d]", k);
                cJSON_AddItemToArray(arr, value_entry(s, name, NULL, r.var, r.lane, t->element, r.offset + k * el->components));
            }
        } else {
            for (int k = 0; k < t->length; k++, i++)
                if (PAGE_OK(i))
                    cJSON_AddItemToArray(arr, value_entry(s, t->members[k].name, NULL, r.var, r.lane, t->members[k].type,
                                                          r.offset + t->members[k].offset));
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
    const struct dap_shader *sh = cJSON_IsNumber(r) ? dap_capture_shader(s->cap, (int)r->valuedouble) : NULL;
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
        const struct dap_shader *sh = &s->cap->shaders[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", sh->name);
        cJSON_AddNumberToObject(o, "sourceReference", sh->id);
        char origin[96];
        snprintf(origin, sizeof origin, "%s of program %u", dap_stage_short(sh->stage), sh->program);
        cJSON_AddStringToObject(o, "origin", origin);
        cJSON_AddItemToArray(arr, o);
    }
    dap_respond(s, req, true, b, NULL);
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
    if (dap_eval(s->snap, s->focus, e->valuestring, text, sizeof text, type, sizeof type) != 0) {
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

/* memoryReference "v<var>.l<lane>.o<word offset>": the lane's words of that variable. */
static void read_memory(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (!need_stop(s, req))
        return;
    const char *mr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "memoryReference"));
    const cJSON *jo = cJSON_GetObjectItemCaseSensitive(args, "offset");
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "count");
    int var, lane, off;
    if (!mr || sscanf(mr, "v%d.l%d.o%d", &var, &lane, &off) != 3 || !sh_snapshot_var(s->snap, var) || lane < 0 ||
        lane >= SH_LANES || off < 0 || !cJSON_IsNumber(jc) || jc->valuedouble < 0) {
        dap_respond(s, req, false, NULL, "readMemory: unknown memoryReference or bad count");
        return;
    }
    const sh_var *v = sh_snapshot_var(s->snap, var);
    const sh_type *t = sh_snapshot_type(s->snap, v->type);
    size_t total = (size_t)t->components * 4;
    long long start = (long long)off * 4 + (cJSON_IsNumber(jo) ? (long long)jo->valuedouble : 0);
    long long want = (long long)jc->valuedouble;
    cJSON *b = cJSON_CreateObject();
    char addr[64];
    snprintf(addr, sizeof addr, "%s+%lld", mr, start);
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
        stack_trace(s, req);
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
