/* setVariable (issue 14): change a lane's variable at the stop and go on with it. The model is
 * deterministic, so a value set at a stop is an *override*: (the stop's instruction, the lane, the
 * variable, words). Every later pass of the session (the refresh that makes the new snapshot,
 * continues, steps) writes it into the warp when that instruction is about to issue
 * (dap_engine.c, before anything else looks at it), so the lane runs on with the new value;
 * a run from the frame's start (restart, a continue from the frame's end) forgets them.
 * Passes with overrides are never resumed (the suspended pass ran without them).
 *
 * What can be set: a scalar, vector or matrix of the focused lane (Locals, their components,
 * members and elements) or of any lane (the Warp scope's per-lane entries), of thread 1 (the
 * stopped warp); per-lane storage only (not uniforms, not doubles). The value is a GLSL
 * expression evaluated on that lane (`0.5`, `vec3(1, 0, 0)`, `n_dot_l * 2.0`) whose components
 * must match the variable's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dap_eval.h"
#include "debugger/dap_params.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define REF_BASE 1000   /* as dap_inspect.c numbers variable references */

static sh_var_class class_of(const gm_var_info *v)
{
    if (v->builtin >= 0)
        return SH_VAR_BUILTIN;
    switch (v->klass) {
    case GM_VAR_LOCAL: return SH_VAR_LOCAL;
    case GM_VAR_INPUT: return SH_VAR_INPUT;
    case GM_VAR_OUTPUT: return SH_VAR_OUTPUT;
    case GM_VAR_UNIFORM:
    case GM_VAR_OPAQUE: return SH_VAR_UNIFORM;
    default: return SH_VAR_GLOBAL;
    }
}

bool dap_override_apply(gm_warp *w, const struct dap_override *o)
{
    const gm_program *p = gm_warp_program(w);
    int n = gm_program_var_count(p);
    for (int i = 0; i < n; i++) {
        const gm_var_info *v = gm_program_var(p, i);
        if (!v || !v->name || strcmp(v->name, o->name) || (int)class_of(v) != o->klass)
            continue;
        if ((v->function != NULL) != (o->function[0] != 0) || (v->function && strcmp(v->function, o->function)))
            continue;
        uint32_t (*lanes)[GM_LANES] = gm_warp_var_lanes(w, i);
        if (!lanes)
            return false;
        for (int k = 0; k < o->n; k++)
            lanes[o->offset + k][o->key.lane] = o->words[k];
        return true;
    }
    /* A parameter of a function on the stack (dap_params.c): its value's words, through the
     * address the lane's parameter register holds. */
    struct dap_param prm[64];
    int np = o->klass == SH_VAR_LOCAL ? dap_stack_params(w, prm, 64) : 0;
    for (int i = 0; i < np; i++)
        if (!strcmp(prm[i].name, o->name) && !strcmp(prm[i].function, o->function))
            return o->offset + o->n <= prm[i].words && dap_write_param(w, &prm[i], o->key.lane, o->offset, o->words, o->n);
    return false;
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

/* The (variable, lane, type, word offset) a setVariable names; false with msg. */
static bool target(struct dap_session *s, const struct dap_ref *r, const char *name, int *var, int *lane, int *type,
                   int *offset, char *msg, size_t n)
{
    const sh_snapshot *snap = s->snap;
    int nv = sh_snapshot_var_count(snap);
    *lane = s->focus;
    *offset = 0;
    switch (r->kind) {
    case DAP_REF_LOCALS: {
        const sh_frame *f = sh_snapshot_frame(snap, r->depth);
        bool outer = r->depth == sh_snapshot_frame_count(snap) - 1;
        for (int pass = 0; pass < 2; pass++)
            for (int v = 0; v < nv; v++) {
                const sh_var *sv = sh_snapshot_var(snap, v);
                bool want = pass == 0 ? sv->klass == SH_VAR_LOCAL && f && in_function(sv, f->function)
                                      : outer && (sv->klass == SH_VAR_GLOBAL || sv->klass == SH_VAR_INPUT ||
                                                  sv->klass == SH_VAR_OUTPUT);
                if (want && !strcmp(sv->name, name)) {
                    *var = v;
                    *type = sv->type;
                    return true;
                }
            }
        snprintf(msg, n, "no variable '%.60s' in this scope", name);
        return false;
    }
    case DAP_REF_LANES: {
        int l;
        if (sscanf(name, "lane %d", &l) != 1 || l < 0 || l >= SH_LANES) {
            snprintf(msg, n, "'%.60s' is not a lane of this variable", name);
            return false;
        }
        *var = r->var;
        *lane = l;
        *type = sh_snapshot_var(snap, r->var)->type;
        return true;
    }
    case DAP_REF_VALUE: {
        const sh_type *t = sh_snapshot_type(snap, r->type);
        *var = r->var;
        *lane = r->lane;
        if (t->kind == SH_TYPE_VECTOR && strlen(name) == 1 && strchr("xyzw", name[0]) &&
            strchr("xyzw", name[0]) - "xyzw" < t->rows) {
            int k = (int)(strchr("xyzw", name[0]) - "xyzw");
            *type = -1;   /* one scalar of the vector's kind: resolved by the caller */
            *offset = r->offset + k;
            return true;
        }
        int k;
        if ((t->kind == SH_TYPE_ARRAY || t->kind == SH_TYPE_MATRIX) && sscanf(name, "[%d]", &k) == 1 && k >= 0 &&
            k < (t->kind == SH_TYPE_ARRAY ? t->length : t->columns)) {
            *type = t->element;
            *offset = r->offset + k * sh_snapshot_type(snap, t->element)->components;
            return true;
        }
        for (int m = 0; t->kind == SH_TYPE_STRUCT && m < t->length; m++)
            if (!strcmp(t->members[m].name, name)) {
                *type = t->members[m].type;
                *offset = r->offset + t->members[m].offset;
                return true;
            }
        snprintf(msg, n, "no member '%.60s' here", name);
        return false;
    }
    default:
        snprintf(msg, n, "only Locals and the Warp scope's lanes can be set (uniforms are the draw's, built-ins the "
                 "pipeline's)");
        return false;
    }
}

/* The value text of an expression ("1.5", "vec3(1, 0, 0)", "true") as n words of `scalar`. */
static bool to_words(const char *text, sh_scalar scalar, int n, uint32_t *out, char *msg, size_t msz)
{
    const char *p = strchr(text, '(');
    p = p ? p + 1 : text;
    int k = 0;
    for (;; k++) {
        while (*p == ' ')
            p++;
        if (!*p || *p == ')')
            break;
        char *end;
        double d;
        if (!strncmp(p, "true", 4) || !strncmp(p, "false", 5)) {
            d = *p == 't';
            end = (char *)p + (*p == 't' ? 4 : 5);
        } else {
            d = strtod(p, &end);
            if (end == p) {
                snprintf(msg, msz, "cannot read the value '%.80s'", text);
                return false;
            }
        }
        if (k >= n) {
            snprintf(msg, msz, "'%.80s' has more components than the variable (%d)", text, n);
            return false;
        }
        switch (scalar) {
        case SH_SCALAR_FLOAT: {
            float f = (float)d;
            memcpy(&out[k], &f, 4);
            break;
        }
        case SH_SCALAR_BOOL:
            out[k] = d != 0;
            break;
        case SH_SCALAR_INT:
        case SH_SCALAR_UINT:
            if (d != floor(d) || d < (scalar == SH_SCALAR_INT ? -2147483648.0 : 0) ||
                d > (scalar == SH_SCALAR_INT ? 2147483647.0 : 4294967295.0)) {
                snprintf(msg, msz, "%g is not a%s", d, scalar == SH_SCALAR_INT ? "n int" : " uint");
                return false;
            }
            out[k] = scalar == SH_SCALAR_INT ? (uint32_t)(int32_t)d : (uint32_t)d;
            break;
        }
        p = end;
        while (*p == ' ')
            p++;
        if (*p == ',')
            p++;
    }
    if (k == 1 && n > 1) {
        /* A scalar for a vector or matrix: every component, as a GLSL constructor would. */
        for (int i = 1; i < n; i++)
            out[i] = out[0];
        k = n;
    }
    if (k != n) {
        snprintf(msg, msz, "'%.80s' has %d component(s), the variable %d", text, k, n);
        return false;
    }
    return true;
}

static void set_variable(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *jr = cJSON_GetObjectItemCaseSensitive(args, "variablesReference");
    const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "name"));
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "value"));
    char msg[300];
    if (!cJSON_IsNumber(jr) || !name || !value) {
        dap_respond(s, req, false, NULL, "setVariable: 'variablesReference', 'name' and 'value' are required");
        return;
    }
    if (s->running || !s->stopped || !s->snap || !s->have_key) {
        dap_respond(s, req, false, NULL, "setVariable: not stopped (or a pass is running)");
        return;
    }
    int ref = jr->valuedouble >= REF_BASE && jr->valuedouble < 1e9 ? (int)jr->valuedouble : -1;
    if (ref < 0 || ref - REF_BASE >= s->n_refs) {
        dap_respond(s, req, false, NULL, "setVariable: unknown variablesReference (it expires when execution resumes)");
        return;
    }
    const struct dap_ref *r = &s->refs[ref - REF_BASE];
    if (r->thread > 1) {
        dap_respond(s, req, false, NULL, "setVariable: only the stopped warp's variables (thread 1) can be set");
        return;
    }
    int var, lane, type, offset;
    if (!target(s, r, name, &var, &lane, &type, &offset, msg, sizeof msg)) {
        char m2[400];
        snprintf(m2, sizeof m2, "setVariable: %s", msg);
        dap_respond(s, req, false, NULL, m2);
        return;
    }
    const sh_var *sv = sh_snapshot_var(s->snap, var);
    const sh_type *t = type >= 0 ? sh_snapshot_type(s->snap, type) : NULL;
    sh_scalar scalar = t ? t->scalar : sh_snapshot_type(s->snap, s->refs[ref - REF_BASE].type)->scalar;
    int n = t ? t->components : 1;
    int width = t ? t->width : sh_snapshot_type(s->snap, s->refs[ref - REF_BASE].type)->width;
    if (sv->lanes != SH_LANES || sv->klass == SH_VAR_UNIFORM || sv->klass == SH_VAR_BUILTIN) {
        dap_respond(s, req, false, NULL, "setVariable: only per-lane variables (locals, globals, inputs, outputs)");
        return;
    }
    if ((t && t->kind != SH_TYPE_SCALAR && t->kind != SH_TYPE_VECTOR && t->kind != SH_TYPE_MATRIX) || width == 64 ||
        n > 16) {
        dap_respond(s, req, false, NULL, "setVariable: only 32-bit scalars, vectors and matrices (set a member or an "
                    "element of an aggregate)");
        return;
    }
    /* The value: a GLSL expression on that lane (in the innermost frame's names). */
    char text[1024], tn[96];
    const sh_frame *f = sh_snapshot_frame(s->snap, r->kind == DAP_REF_LOCALS ? r->depth : 0);
    struct dap_override o;
    memset(&o, 0, sizeof o);
    if (dap_eval_frame(s->snap, lane, f ? f->function : NULL, value, text, sizeof text, tn, sizeof tn) != 0 ||
        !to_words(text, scalar, n, o.words, msg, sizeof msg)) {
        char m2[1200];
        snprintf(m2, sizeof m2, "setVariable: %s", msg[0] && strcmp(text, msg) ? msg : text);
        dap_respond(s, req, false, NULL, m2);
        return;
    }
    o.key = s->key;
    o.key.lane = lane;
    snprintf(o.name, sizeof o.name, "%s", sv->name);
    snprintf(o.function, sizeof o.function, "%s", sv->function ? sv->function : "");
    o.klass = sv->klass;
    o.offset = offset;
    o.n = n;
    struct dap_override *no = realloc(s->overrides, (size_t)(s->n_overrides + 1) * sizeof *no);
    if (!no) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    s->overrides = no;
    s->overrides[s->n_overrides++] = o;
    char shown[1024];
    if (t)
        sh_format_value(s->snap, type, o.words, shown, sizeof shown);
    else if (scalar == SH_SCALAR_FLOAT) {
        float fv;
        memcpy(&fv, o.words, 4);
        snprintf(shown, sizeof shown, "%g", (double)fv);
    } else if (scalar == SH_SCALAR_BOOL)
        snprintf(shown, sizeof shown, "%s", o.words[0] ? "true" : "false");
    else if (scalar == SH_SCALAR_INT)
        snprintf(shown, sizeof shown, "%d", (int)o.words[0]);
    else
        snprintf(shown, sizeof shown, "%u", o.words[0]);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "value", shown);
    if (t)
        cJSON_AddStringToObject(b, "type", sh_type_glsl(s->snap, type, tn, sizeof tn));
    cJSON_AddNumberToObject(b, "variablesReference", 0);
    dap_respond(s, req, true, b, NULL);
    /* The view: the same stop again with the value in place (a new snapshot; `stopped` follows). */
    if (dap_start_pass(s, DAP_PASS_REFRESH, DAP_STEP_NEXT) != 0)
        dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
}

bool dap_setvar_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (strcmp(cmd, "setVariable"))
        return false;
    set_variable(s, req, args);
    return true;
}
