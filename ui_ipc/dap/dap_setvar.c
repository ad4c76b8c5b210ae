/* setVariable (issue 14): change a lane's variable at the stop and go on with it. The model is
 * deterministic, so a value set at a stop is an *override*: (the stop's instruction, the lane, the
 * variable, words). Every later pass of the session (the refresh that makes the new snapshot,
 * continues, steps) writes it into the warp when that instruction is about to issue
 * (dbg_engine.c, before anything else looks at it), so the lane runs on with the new value;
 * a run from the frame's start (restart, a continue from the frame's end) forgets them.
 * Passes with overrides are never resumed (the suspended pass ran without them).
 *
 * What can be set: a scalar, vector or matrix of the focused lane (Locals, their components,
 * members and elements) or of any lane (the Warp scope's per-lane entries), of thread 1 (the
 * stopped warp); per-lane storage only (not uniforms, not doubles). The value is a GLSL
 * expression evaluated on that lane (`0.5`, `vec3(1, 0, 0)`, `n_dot_l * 2.0`) whose components
 * must match the variable's. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gpu_model/gpu_model.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_params.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define REF_BASE 1000   /* as dap_inspect.c numbers variable references */

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

/* Where an assignment writes: `n` words of `scalar` at word `offset` of variable `var`, lane
 * `lane`; `type` is their snapshot type (-1: one component of a vector, or a swizzle). A swizzle
 * (`v.zx`) writes component word `offset + swz[k]` from the value's component k. */
struct place {
    int var, lane, type, offset, n, width;
    sh_scalar scalar;
    int swz[4], n_swz;
};

/* Fills scalar/n/width from type (or from the vector `vec_type` a component belongs to). */
static void place_type(const sh_snapshot *snap, struct place *pl, int vec_type)
{
    const sh_type *t = pl->type >= 0 ? sh_snapshot_type(snap, pl->type) : sh_snapshot_type(snap, vec_type);
    pl->scalar = t->scalar;
    pl->width = t->width;
    pl->n = pl->type >= 0 ? t->components : pl->n_swz > 0 ? pl->n_swz : 1;
}

/* The back half of setVariable and setExpression: evaluates `value` on the place's lane (names as
 * in `function`), keeps it as overrides, answers, and replays to the stop with it in place. */
static void assign(struct dap_session *s, const cJSON *req, const char *cmd, const struct place *pl, const char *value,
                   const char *function)
{
    char msg[300];
    const sh_var *sv = sh_snapshot_var(s->snap, pl->var);
    const sh_type *t = pl->type >= 0 ? sh_snapshot_type(s->snap, pl->type) : NULL;
    if (sv->lanes != SH_LANES || sv->klass == SH_VAR_UNIFORM || sv->klass == SH_VAR_BUILTIN) {
        snprintf(msg, sizeof msg, "%s: only per-lane variables (locals, globals, inputs, outputs)", cmd);
        dap_respond(s, req, false, NULL, msg);
        return;
    }
    if ((t && t->kind != SH_TYPE_SCALAR && t->kind != SH_TYPE_VECTOR && t->kind != SH_TYPE_MATRIX) || pl->width == 64 ||
        pl->n > 16) {
        snprintf(msg, sizeof msg, "%s: only 32-bit scalars, vectors and matrices (set a member or an element of an "
                 "aggregate)", cmd);
        dap_respond(s, req, false, NULL, msg);
        return;
    }
    /* The value: a GLSL expression on that lane. */
    char text[1024], tn[96];
    uint32_t words[16];
    msg[0] = 0;
    if (dbg_eval_frame(s->snap, pl->lane, function, value, text, sizeof text, tn, sizeof tn) != 0 ||
        !to_words(text, pl->scalar, pl->n, words, msg, sizeof msg)) {
        char m2[1200];
        snprintf(m2, sizeof m2, "%s: %s", cmd, msg[0] && strcmp(text, msg) ? msg : text);
        dap_respond(s, req, false, NULL, m2);
        return;
    }
    /* One override for contiguous words; one per component for a swizzle. */
    int n_new = pl->n_swz > 0 ? pl->n_swz : 1;
    struct dbg_override *no = realloc(s->overrides, (size_t)(s->n_overrides + n_new) * sizeof *no);
    if (!no) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    s->overrides = no;
    for (int k = 0; k < n_new; k++) {
        struct dbg_override o;
        memset(&o, 0, sizeof o);
        o.key = s->key;
        o.key.lane = pl->lane;
        snprintf(o.name, sizeof o.name, "%s", sv->name);
        snprintf(o.function, sizeof o.function, "%s", sv->function ? sv->function : "");
        o.klass = sv->klass;
        if (pl->n_swz > 0) {
            o.offset = pl->offset + pl->swz[k];
            o.n = 1;
            o.words[0] = words[k];
        } else {
            o.offset = pl->offset;
            o.n = pl->n;
            memcpy(o.words, words, (size_t)pl->n * sizeof *words);
        }
        s->overrides[s->n_overrides++] = o;
    }
    char shown[1024];
    if (t)
        sh_format_value(s->snap, pl->type, words, shown, sizeof shown);
    else {
        size_t used = 0;
        shown[0] = 0;
        for (int k = 0; k < pl->n && used < sizeof shown; k++) {
            float fv;
            memcpy(&fv, &words[k], 4);
            used += (size_t)snprintf(shown + used, sizeof shown - used, "%s", k ? ", " : pl->n > 1 ? "(" : "");
            if (used >= sizeof shown)
                break;
            if (pl->scalar == SH_SCALAR_FLOAT)
                used += (size_t)snprintf(shown + used, sizeof shown - used, "%g", (double)fv);
            else if (pl->scalar == SH_SCALAR_BOOL)
                used += (size_t)snprintf(shown + used, sizeof shown - used, "%s", words[k] ? "true" : "false");
            else if (pl->scalar == SH_SCALAR_INT)
                used += (size_t)snprintf(shown + used, sizeof shown - used, "%d", (int)words[k]);
            else
                used += (size_t)snprintf(shown + used, sizeof shown - used, "%u", words[k]);
        }
        if (pl->n > 1 && used + 1 < sizeof shown)
            strcat(shown, ")");
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "value", shown);
    if (t)
        cJSON_AddStringToObject(b, "type", sh_type_glsl(s->snap, pl->type, tn, sizeof tn));
    cJSON_AddNumberToObject(b, "variablesReference", 0);
    dap_respond(s, req, true, b, NULL);
    /* The view: the same stop again with the value in place (a new snapshot; `stopped` follows). */
    if (dap_start_pass(s, DAP_PASS_REFRESH, DBG_STEP_NEXT) != 0)
        dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
}

static bool can_set(struct dap_session *s, const cJSON *req, const char *cmd)
{
    if (s->running || !s->stopped || !s->snap || !s->have_key) {
        char msg[120];
        snprintf(msg, sizeof msg, "%s: not stopped (or a pass is running)", cmd);
        dap_respond(s, req, false, NULL, msg);
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
    if (!can_set(s, req, "setVariable"))
        return;
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
    struct place pl;
    memset(&pl, 0, sizeof pl);
    if (!target(s, r, name, &pl.var, &pl.lane, &pl.type, &pl.offset, msg, sizeof msg)) {
        char m2[400];
        snprintf(m2, sizeof m2, "setVariable: %s", msg);
        dap_respond(s, req, false, NULL, m2);
        return;
    }
    place_type(s->snap, &pl, r->type);
    const sh_frame *f = sh_snapshot_frame(s->snap, r->kind == DAP_REF_LOCALS ? r->depth : 0);
    assign(s, req, "setVariable", &pl, value, f ? f->function : NULL);
}

/* A name as `evaluate` resolves it in `function` (its locals first, then globals, inputs,
 * outputs; uniforms and built-ins are found to say they cannot be set). */
static int find_name(const sh_snapshot *snap, const char *function, const char *name)
{
    int nv = sh_snapshot_var_count(snap);
    for (int v = 0; v < nv && function; v++) {
        const sh_var *sv = sh_snapshot_var(snap, v);
        if (sv->klass == SH_VAR_LOCAL && in_function(sv, function) && !strcmp(sv->name, name))
            return v;
    }
    static const sh_var_class order[] = { SH_VAR_GLOBAL, SH_VAR_INPUT, SH_VAR_OUTPUT, SH_VAR_UNIFORM, SH_VAR_BUILTIN };
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        for (int v = 0; v < nv; v++)
            if (sh_snapshot_var(snap, v)->klass == order[k] && !strcmp(sh_snapshot_var(snap, v)->name, name))
                return v;
    return -1;
}

/* Parses an assignable expression: name ( '.' member | '.' swizzle | '[' integer ']' )*. The
 * indexes are constants: an assignment names one place of the lane. false with msg. */
static bool parse_place(const sh_snapshot *snap, const char *function, int lane, const char *expr, struct place *pl,
                        char *msg, size_t n)
{
    memset(pl, 0, sizeof *pl);
    pl->lane = lane;
    const char *p = expr;
    while (*p == ' ')
        p++;
    char name[64];
    size_t k = 0;
    while ((isalnum((unsigned char)*p) || *p == '_') && k + 1 < sizeof name)
        name[k++] = *p++;
    name[k] = 0;
    if (!k || isdigit((unsigned char)name[0])) {
        snprintf(msg, n, "'%.80s' is not an assignable expression (a variable, v.x, s.member, a[2])", expr);
        return false;
    }
    pl->var = find_name(snap, function, name);
    if (pl->var < 0) {
        snprintf(msg, n, "unknown variable '%s'", name);
        return false;
    }
    pl->type = sh_snapshot_var(snap, pl->var)->type;
    int vec_type = -1;
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        if (pl->type < 0) {
            snprintf(msg, n, "nothing can follow a component in '%.80s'", expr);
            return false;
        }
        const sh_type *t = sh_snapshot_type(snap, pl->type);
        if (*p == '[') {
            char *end;
            long idx = strtol(p + 1, &end, 10);
            while (*end == ' ')
                end++;
            if (end == p + 1 || *end != ']') {
                snprintf(msg, n, "an index must be an integer constant in '%.80s'", expr);
                return false;
            }
            p = end + 1;
            int len = t->kind == SH_TYPE_ARRAY ? t->length : t->kind == SH_TYPE_MATRIX ? t->columns
                    : t->kind == SH_TYPE_VECTOR ? t->rows : 0;
            if (idx < 0 || idx >= len) {
                snprintf(msg, n, "index %ld is outside [0, %d) in '%.80s'", idx, len, expr);
                return false;
            }
            if (t->kind == SH_TYPE_VECTOR) {
                vec_type = pl->type;
                pl->type = -1;
                pl->offset += (int)idx * (t->width == 64 ? 2 : 1);
            } else {
                pl->offset += (int)idx * sh_snapshot_type(snap, t->element)->components;
                pl->type = t->element;
            }
            continue;
        }
        if (*p != '.') {
            snprintf(msg, n, "unexpected '%c' in '%.80s'", *p, expr);
            return false;
        }
        p++;
        while (*p == ' ')
            p++;
        char m[64];
        k = 0;
        while ((isalnum((unsigned char)*p) || *p == '_') && k + 1 < sizeof m)
            m[k++] = *p++;
        m[k] = 0;
        if (t->kind == SH_TYPE_STRUCT) {
            int i = 0;
            while (i < t->length && strcmp(t->members[i].name, m))
                i++;
            if (i == t->length) {
                snprintf(msg, n, "no member '%s' in '%.80s'", m, expr);
                return false;
            }
            pl->offset += t->members[i].offset;
            pl->type = t->members[i].type;
            continue;
        }
        if (t->kind != SH_TYPE_VECTOR || k == 0 || k > 4) {
            snprintf(msg, n, "'.%s' names nothing here in '%.80s'", m, expr);
            return false;
        }
        /* A swizzle: distinct components of one set (xyzw, rgba, stpq), as GLSL requires of an
         * l-value. */
        static const char *sets[] = { "xyzw", "rgba", "stpq" };
        int set = -1;
        unsigned seen = 0;
        for (size_t c = 0; c < k; c++) {
            int found = -1;
            for (int s2 = 0; s2 < 3 && found < 0; s2++)
                if (strchr(sets[s2], m[c]) && (set < 0 || set == s2)) {
                    found = (int)(strchr(sets[s2], m[c]) - sets[s2]);
                    set = s2;
                }
            if (found < 0 || found >= t->rows || (seen >> found) & 1) {
                snprintf(msg, n, "'.%s' is not an assignable swizzle of a %d-component vector", m, t->rows);
                return false;
            }
            seen |= 1u << found;
            pl->swz[pl->n_swz++] = found;
        }
        if (t->width == 64) {
            snprintf(msg, n, "doubles cannot be set");
            return false;
        }
        vec_type = pl->type;
        pl->type = -1;
        if (pl->n_swz == 1) {   /* one component: contiguous */
            pl->offset += pl->swz[0];
            pl->n_swz = 0;
        }
    }
    place_type(snap, pl, vec_type);
    return true;
}

/* setExpression: the expression names a place of the focused lane (in frameId's function). */
static void set_expression(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const char *expr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "expression"));
    const char *value = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "value"));
    if (!expr || !value) {
        dap_respond(s, req, false, NULL, "setExpression: 'expression' and 'value' are required");
        return;
    }
    if (!can_set(s, req, "setExpression"))
        return;
    const cJSON *fid = cJSON_GetObjectItemCaseSensitive(args, "frameId");
    const char *function = sh_snapshot_frame(s->snap, 0) ? sh_snapshot_frame(s->snap, 0)->function : NULL;
    if (cJSON_IsNumber(fid)) {
        /* frameId: thread t's frames are (t - 1) * DAP_FRAME_STRIDE + depth + 1 (dap_inspect.c). */
        double v = fid->valuedouble;
        const sh_frame *f = v >= 1 && v < DAP_FRAME_STRIDE + 1 ? sh_snapshot_frame(s->snap, (int)v - 1) : NULL;
        if (!f) {
            dap_respond(s, req, false, NULL, v > DAP_FRAME_STRIDE && v < 1e9
                        ? "setExpression: only the stopped warp's variables (thread 1) can be set"
                        : "setExpression: unknown frameId");
            return;
        }
        function = f->function;
    }
    struct place pl;
    char msg[300];
    if (!parse_place(s->snap, function, s->focus, expr, &pl, msg, sizeof msg)) {
        char m2[400];
        snprintf(m2, sizeof m2, "setExpression: %s", msg);
        dap_respond(s, req, false, NULL, m2);
        return;
    }
    assign(s, req, "setExpression", &pl, value, function);
}

bool dap_setvar_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "setVariable"))
        set_variable(s, req, args);
    else if (!strcmp(cmd, "setExpression"))
        set_expression(s, req, args);
    else
        return false;
    return true;
}
