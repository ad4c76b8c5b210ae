/* Standard DAP requests that only read what the session already knows: breakpointLocations
 * (the lines of a source where a breakpoint binds as given) and completions (names for the
 * debug console: the stopped warp's variables and the evaluator's built-in functions). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_bind.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_eval_tex.h"
#include "ui_ipc/dap/dap_session_internal.h"

/* The bindings of a request's source: a shader by sourceReference or display name, or a file
 * a setBreakpoints already bound (files are read by setBreakpoints only: see dap_session.c). */
static int source_bindings(struct dap_session *s, const cJSON *source, struct dbg_binding *out)
{
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(source, "sourceReference");
    const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(source, "path"));
    const struct dbg_shader *sh = NULL;
    if (cJSON_IsNumber(ref) && ref->valuedouble > 0)
        sh = dbg_capture_shader(s->cap, (int)ref->valuedouble);
    for (int i = 0; !sh && path && i < s->cap->n_shaders; i++)
        if (!strcmp(s->cap->shaders[i].name, path))
            sh = &s->cap->shaders[i];
    if (sh) {
        out[0] = (struct dbg_binding){ sh->id, 0, sh->line_count };
        return 1;
    }
    for (int i = 0; path && i < s->n_sources; i++)
        if (s->sources[i].path && !strcmp(s->sources[i].path, path)) {
            memcpy(out, s->sources[i].binds, (size_t)s->sources[i].n_binds * sizeof *out);
            return s->sources[i].n_binds;
        }
    return -1;
}

static void breakpoint_locations(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(args, "source");
    const cJSON *jl = cJSON_GetObjectItemCaseSensitive(args, "line");
    const cJSON *je = cJSON_GetObjectItemCaseSensitive(args, "endLine");
    if (!cJSON_IsObject(source) || !cJSON_IsNumber(jl)) {
        dap_respond(s, req, false, NULL, "breakpointLocations: 'source' and 'line' are required");
        return;
    }
    struct dbg_binding binds[DAP_MAX_BINDINGS];
    int n = source_bindings(s, source, binds);
    if (n < 0) {
        dap_respond(s, req, false, NULL,
                    "breakpointLocations: unknown source (a file is known once setBreakpoints names it)");
        return;
    }
    int first = jl->valuedouble < 1 ? 1 : jl->valuedouble > 1e7 ? 10000000 : (int)jl->valuedouble;
    int last = cJSON_IsNumber(je) && je->valuedouble >= first ? (je->valuedouble > first + 100000 ? first + 100000
                                                                                                  : (int)je->valuedouble)
                                                              : first;
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "breakpoints");
    /* A line is a location when it has code in at least one bound shader (it would bind there,
     * not move): the lines that setBreakpoints verifies unmoved. */
    for (int line = first; line <= last; line++) {
        bool code = false;
        for (int k = 0; k < n && !code; k++) {
            const struct dbg_shader *sh = dbg_capture_shader(s->cap, binds[k].shader);
            if (!sh || line > binds[k].file_lines)
                continue;
            char msg[200];
            code = dbg_bind_line(sh, line + binds[k].offset, line + binds[k].offset, msg, sizeof msg) ==
                   line + binds[k].offset;
        }
        if (code) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "line", line);
            cJSON_AddItemToArray(arr, o);
        }
    }
    dap_respond(s, req, true, b, NULL);
}

/* The evaluator's functions (dbg_eval.c) and the built-ins it knows without a declaration. */
static const char *const builtin_names[] = {
    "abs", "clamp", "cross", "distance", "dot", "exp", "floor", "fract", "inversesqrt", "isinf", "isnan",
    "length", "max", "min", "mix", "normalize", "pow", "reflect", "sign", "smoothstep", "sqrt", "step",
    "float", "int", "uint", "bool", "vec2", "vec3", "vec4", "ivec2", "ivec3", "ivec4", "uvec2", "uvec3", "uvec4",
    "bvec2", "bvec3", "bvec4", "mat2", "mat3", "mat4", "gl_HelperInvocation",
    /* derivatives over the lane's quad (the texture functions: dbg_tex_fn_name) */
    "dFdx", "dFdy", "fwidth", "dFdxFine", "dFdyFine", "fwidthFine", "dFdxCoarse", "dFdyCoarse", "fwidthCoarse",
};

static void add_item(cJSON *arr, const char *label, const char *type, size_t replace, int start)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "label", label);
    cJSON_AddStringToObject(o, "type", type);
    cJSON_AddNumberToObject(o, "start", start);
    cJSON_AddNumberToObject(o, "length", (double)replace);
    cJSON_AddItemToArray(arr, o);
}

static void completions(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const char *text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "text"));
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "column");
    if (!text || !cJSON_IsNumber(jc)) {
        dap_respond(s, req, false, NULL, "completions: 'text' and 'column' are required");
        return;
    }
    /* column counts from 1 (linesStartAt1/columnsStartAt1 are the defaults this server keeps):
     * the word before it is the prefix, which each item replaces (start: 1-based too). */
    size_t len = strlen(text);
    size_t col = jc->valuedouble < 1 ? 0 : jc->valuedouble - 1 > (double)len ? len : (size_t)jc->valuedouble - 1;
    size_t w = col;
    while (w > 0 && (text[w - 1] == '_' || (text[w - 1] >= '0' && text[w - 1] <= '9') ||
                     ((text[w - 1] | 32) >= 'a' && (text[w - 1] | 32) <= 'z')))
        w--;
    bool member = w > 0 && text[w - 1] == '.';
    const char *prefix = text + w;
    size_t plen = col - w;
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "targets");
    if (!member) {
        int column = (int)w + 1;   /* the prefix's first column */
        /* A side job (pixel history, finding debugPixel's invocation) leaves the stop as it is:
         * its names still complete (no pass is needed for them). */
        if (s->snap && (!s->running || s->side_job)) {
            int nv = sh_snapshot_var_count(s->snap);
            const sh_frame *top = sh_snapshot_frame(s->snap, 0);
            size_t tl = top ? strcspn(top->function, "(") : 0;
            for (int i = 0; i < nv; i++) {
                const sh_var *v = sh_snapshot_var(s->snap, i);
                if (strncmp(v->name, prefix, plen) != 0)
                    continue;
                /* Locals of the innermost frame only: those are the names `evaluate` resolves. */
                if (v->klass == SH_VAR_LOCAL &&
                    (!v->function || !top || strcspn(v->function, "(") != tl || strncmp(v->function, top->function, tl)))
                    continue;
                bool dup = false;
                for (int k = 0; k < cJSON_GetArraySize(arr) && !dup; k++)
                    dup = !strcmp(cJSON_GetArrayItem(arr, k)->child->valuestring, v->name);
                if (!dup)
                    add_item(arr, v->name, "variable", plen, column);
            }
        }
        for (size_t i = 0; i < sizeof builtin_names / sizeof builtin_names[0]; i++) {
            bool dup = false;   /* gl_HelperInvocation may be a variable of the snapshot too */
            for (int k = 0; k < cJSON_GetArraySize(arr) && !dup; k++)
                dup = !strcmp(cJSON_GetArrayItem(arr, k)->child->valuestring, builtin_names[i]);
            if (!dup && !strncmp(builtin_names[i], prefix, plen))
                add_item(arr, builtin_names[i], strncmp(builtin_names[i], "gl_", 3) ? "function" : "variable", plen,
                         column);
        }
        /* sampling through the model's texture units (dbg_eval_tex.c) */
        for (int i = 0; dbg_tex_fn_name(i); i++)
            if (!strncmp(dbg_tex_fn_name(i), prefix, plen))
                add_item(arr, dbg_tex_fn_name(i), "function", plen, column);
    }
    dap_respond(s, req, true, b, NULL);
}

bool dap_protocol_extra_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "breakpointLocations"))
        breakpoint_locations(s, req, args);
    else if (!strcmp(cmd, "completions"))
        completions(s, req, args);
    else
        return false;
    return true;
}
