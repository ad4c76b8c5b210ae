/* Session requests for the breakpoints that are not source lines (issue 15 §3, §7):
 *  - setExceptionBreakpoints / exceptionInfo: the filters of dbg_exception.h;
 *  - setFunctionBreakpoints: `main` of a stage or a named GLSL function. A function breakpoint
 *    binds, in every captured shader that has the function (of the stage named, if any), to the
 *    function's entry line (dbg_funcs.h) and then counts hits, conditions and hit conditions
 *    exactly as a line breakpoint there does (dbg_engine.c): a lane hits when it arrives at that
 *    line from another line, i.e. once per call.
 * Names: "main", "shade_light", a stage alone ("fragment": its main), "STAGE:NAME" with STAGE one of vertex/vs/vert, fragment/fs/frag,
 * geometry/gs/geom, tess_control/tcs/tesc, tess_evaluation/tes/tese, compute/cs/comp, or a
 * captured shader's display name ("program3-FS-shader5.frag:main"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "debugger/dbg_capture.h"
#include "debugger/dbg_disasm.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_funcs.h"
#include "ui_ipc/dap/dap_session_internal.h"

static void free_bps(struct dap_src_bp **bps, int *n)
{
    for (int i = 0; i < *n; i++) {
        free((*bps)[i].condition);
        free((*bps)[i].log_message);
    }
    free(*bps);
    *bps = NULL;
    *n = 0;
}

void dap_feat_free(struct dap_session *s)
{
    free_bps(&s->fn_bps, &s->n_fn_bps);
    free_bps(&s->ins_bps, &s->n_ins_bps);
}

/* ---------------------------------------------------------------- exceptions */

void dap_feat_exception_stopped(struct dap_session *s, const struct dbg_exc_hit *x, cJSON *body)
{
    (void)s;
    /* VS Code shows `text` in the exception widget; description stays the thread's title. */
    cJSON_AddStringToObject(body, "text", x->text);
}

static void set_exception_breakpoints(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    char err[200];
    unsigned bits = 0;
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "breakpoints");
    if (!dbg_exc_parse(args, &bits, arr, err, sizeof err)) {
        cJSON_Delete(b);
        dap_respond(s, req, false, NULL, err);
        return;
    }
    unsigned before = s->exc_filters;
    s->exc_filters = bits;
    dap_respond(s, req, true, b, NULL);
    /* While the frame is idle (no stop), newly set filters run it again, as new breakpoints do. */
    if (bits && bits != before && s->configured && !s->stopped && !s->running && !s->terminated)
        dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT);
}

static void exception_info(struct dap_session *s, const cJSON *req)
{
    if (!s->stopped || !s->snap || !s->have_exc) {
        dap_respond(s, req, false, NULL, "exceptionInfo: not stopped on an exception");
        return;
    }
    const struct dbg_exc_hit *x = &s->exc;
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "exceptionId", x->id);
    cJSON_AddStringToObject(b, "description", x->text);
    cJSON_AddStringToObject(b, "breakMode", "always");
    cJSON *d = cJSON_AddObjectToObject(b, "details");
    cJSON_AddStringToObject(d, "message", x->text);
    cJSON_AddStringToObject(d, "typeName", x->id);
    char trace[256];
    snprintf(trace, sizeof trace, "%s (pc %d, line %d)", sh_snapshot_title(s->snap), x->at.pc, x->at.line);
    cJSON_AddStringToObject(d, "stackTrace", trace);
    /* Every lane that did it, for a client that lists them. */
    cJSON *inner = cJSON_AddArrayToObject(d, "innerException");
    for (int l = 0; l < 32; l++)
        if ((x->lanes >> l) & 1) {
            cJSON *e = cJSON_CreateObject();
            char msg[64];
            const sh_header *h = sh_snapshot_header(s->snap);
            if (h->lane_pos_known)
                snprintf(msg, sizeof msg, "lane %d (%d, %d)", l, h->lane_x[l], h->lane_y[l]);
            else
                snprintf(msg, sizeof msg, "lane %d", l);
            cJSON_AddStringToObject(e, "message", msg);
            cJSON_AddItemToArray(inner, e);
        }
    dap_respond(s, req, true, b, NULL);
}

/* ---------------------------------------------------------------- function breakpoints */

static int stage_of_word(const char *w, size_t n)
{
    static const struct { const char *word; int stage; } words[] = {
        { "vertex", GM_STAGE_VERTEX }, { "vs", GM_STAGE_VERTEX }, { "vert", GM_STAGE_VERTEX },
        { "fragment", GM_STAGE_FRAGMENT }, { "fs", GM_STAGE_FRAGMENT }, { "frag", GM_STAGE_FRAGMENT },
        { "geometry", GM_STAGE_GEOMETRY }, { "gs", GM_STAGE_GEOMETRY }, { "geom", GM_STAGE_GEOMETRY },
        { "tess_control", GM_STAGE_TESS_CONTROL }, { "tcs", GM_STAGE_TESS_CONTROL }, { "tesc", GM_STAGE_TESS_CONTROL },
        { "tess_evaluation", GM_STAGE_TESS_EVALUATION }, { "tes", GM_STAGE_TESS_EVALUATION }, { "tese", GM_STAGE_TESS_EVALUATION },
        { "compute", GM_STAGE_COMPUTE }, { "cs", GM_STAGE_COMPUTE }, { "comp", GM_STAGE_COMPUTE },
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].word) == n && !strncasecmp(words[i].word, w, n))
            return words[i].stage;
    return -1;
}

/* Binds one function breakpoint; false with msg when nothing matches. */
static bool bind_function(struct dap_session *s, const char *spec, struct dap_src_bp *e, char *msg, size_t n)
{
    const char *colon = strrchr(spec, ':');
    const char *fname = colon ? colon + 1 : spec;
    int stage = -1, shader = 0;
    if (!colon && (stage = stage_of_word(spec, strlen(spec))) >= 0)
        fname = "main";   /* a stage's name alone: its main */
    if (colon) {
        size_t pl = (size_t)(colon - spec);
        stage = stage_of_word(spec, pl);
        for (int i = 0; stage < 0 && !shader && i < s->cap->n_shaders; i++)
            if (strlen(s->cap->shaders[i].name) == pl && !strncmp(s->cap->shaders[i].name, spec, pl))
                shader = s->cap->shaders[i].id;
        if (stage < 0 && !shader) {
            snprintf(msg, n, "'%.*s' is neither a stage (vertex, fragment, geometry, tess_control, tess_evaluation, "
                     "compute) nor a captured shader's name", (int)(pl > 60 ? 60 : pl), spec);
            return false;
        }
    }
    if (!*fname) {
        snprintf(msg, n, "no function name after ':'");
        return false;
    }
    bool known = false;
    for (int i = 0; i < s->cap->n_shaders && e->n_locs < DAP_MAX_BINDINGS; i++) {
        const struct dbg_shader *sh = &s->cap->shaders[i];
        if ((stage >= 0 && sh->stage != stage) || (shader && sh->id != shader))
            continue;
        for (int f = 0; f < sh->n_funcs; f++)
            if (!strcmp(sh->funcs[f].name, fname)) {
                known = true;
                if (sh->funcs[f].line <= 0)
                    continue;
                e->loc_shader[e->n_locs] = sh->id;
                e->loc_line[e->n_locs++] = sh->funcs[f].line;
                break;
            }
    }
    if (!e->n_locs) {
        snprintf(msg, n, known ? "function '%.80s' has no code" : "no captured shader%s has a function '%.80s'",
                 known ? fname : stage >= 0 ? " of that stage" : "", fname);
        return false;
    }
    return true;
}

static void set_function_breakpoints(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(args, "breakpoints");
    if (!cJSON_IsArray(list)) {
        dap_respond(s, req, false, NULL, "setFunctionBreakpoints: 'breakpoints' (an array) is required");
        return;
    }
    if (s->running) {
        /* The running pass reads the breakpoints' conditions: changing them now would race. */
        dap_respond(s, req, false, NULL, "setFunctionBreakpoints: a pass of the GPU model is running; pause first");
        return;
    }
    int count = cJSON_GetArraySize(list);
    if (count > 256) {
        dap_respond(s, req, false, NULL, "setFunctionBreakpoints: at most 256 breakpoints");
        return;
    }
    struct dap_src_bp *nb = calloc((size_t)count + 1, sizeof *nb);
    if (!nb) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "breakpoints");
    int kept = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        const char *name = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "name"));
        const char *cond = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "condition"));
        const char *hitc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "hitCondition"));
        char msg[300] = "";
        struct dap_src_bp e;
        memset(&e, 0, sizeof e);
        bool ok = true;
        if (!name || !*name) {
            snprintf(msg, sizeof msg, "a function breakpoint needs a 'name'");
            ok = false;
        } else if (hitc && !dbg_parse_hit_condition(hitc, &e.hit_op, &e.hit_n)) {
            snprintf(msg, sizeof msg, "hit condition '%.60s': expected N, == N, >= N, > N, <= N, < N or %% N", hitc);
            ok = false;
        } else if (cond && *cond) {
            char perr[200];
            if (dbg_eval_syntax(cond, perr, sizeof perr) != 0) {
                snprintf(msg, sizeof msg, "condition '%.60s': %s", cond, perr);
                ok = false;
            }
        }
        if (ok)
            ok = bind_function(s, name, &e, msg, sizeof msg);
        e.id = ++s->next_bp_id;
        cJSON_AddNumberToObject(o, "id", e.id);
        cJSON_AddBoolToObject(o, "verified", ok);
        if (!ok) {
            cJSON_AddStringToObject(o, "message", msg);
            continue;
        }
        int client_line;
        cJSON_AddItemToObject(o, "source", dap_source_json(s, e.loc_shader[0], e.loc_line[0], &client_line));
        cJSON_AddNumberToObject(o, "line", client_line);
        if (e.n_locs > 1) {
            snprintf(msg, sizeof msg, "bound in %d shaders", e.n_locs);
            cJSON_AddStringToObject(o, "message", msg);
        }
        e.line = client_line;
        e.condition = cond && *cond ? strdup(cond) : NULL;
        nb[kept++] = e;
    }
    free_bps(&s->fn_bps, &s->n_fn_bps);
    s->fn_bps = nb;
    s->n_fn_bps = kept;
    dap_respond(s, req, true, b, NULL);
    if (kept && s->configured && !s->stopped && !s->running && !s->terminated)
        dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT);
}

bool dap_feat_is_function_bp(const struct dap_session *s, int id)
{
    for (int i = 0; i < s->n_fn_bps; i++)
        if (s->fn_bps[i].id == id)
            return true;
    return false;
}

/* ---------------------------------------------------------------- instructions (issue 15 §4) */

/* The shader and pc of an address (dbg_disasm.h); NULL when no captured shader has it. */
static const struct dbg_shader *shader_at(struct dap_session *s, uint64_t addr, int64_t delta, int64_t *pc)
{
    const struct dbg_shader *sh = dbg_capture_shader(s->cap, (int)(addr >> 32));
    *pc = (int64_t)(uint32_t)addr + delta;
    return sh && sh->disasm ? sh : NULL;
}

static bool num_arg(const cJSON *args, const char *key, double lo, double hi, double *v)
{
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(args, key);
    if (!j)
        return true;
    if (!cJSON_IsNumber(j) || j->valuedouble < lo || j->valuedouble > hi || j->valuedouble != (double)(int64_t)j->valuedouble)
        return false;
    *v = j->valuedouble;
    return true;
}

static void disassemble(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const char *ref = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "memoryReference"));
    double off = 0, ioff = 0, count = -1;
    uint64_t addr;
    if (!ref || !dbg_disasm_parse_address(ref, &addr)) {
        dap_respond(s, req, false, NULL, "disassemble: 'memoryReference' must be an instruction address (\"0x...\", "
                    "from a stack frame's instructionPointerReference)");
        return;
    }
    if (!num_arg(args, "offset", -1e9, 1e9, &off) || !num_arg(args, "instructionOffset", -1e9, 1e9, &ioff) ||
        !num_arg(args, "instructionCount", 0, 20000, &count) || count < 0) {
        dap_respond(s, req, false, NULL, "disassemble: 'instructionCount' (0..20000) is required; 'offset' and "
                    "'instructionOffset' must be integers");
        return;
    }
    int64_t pc0;
    /* One address per instruction: a byte offset and an instruction offset move alike. */
    const struct dbg_shader *sh = shader_at(s, addr, (int64_t)off + (int64_t)ioff, &pc0);
    if (!sh) {
        dap_respond(s, req, false, NULL, "disassemble: no captured shader at this address (or it did not compile)");
        return;
    }
    const struct dbg_disasm *d = sh->disasm;
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "instructions");
    int64_t base = (int64_t)((uint64_t)(uint32_t)sh->id << 32);
    for (int64_t i = 0; i < (int64_t)count; i++) {
        int64_t pc = pc0 + i;
        cJSON *o = cJSON_CreateObject();
        char a[32];
        snprintf(a, sizeof a, "0x%llx", (unsigned long long)(uint64_t)(base + pc));
        cJSON_AddStringToObject(o, "address", a);
        if (pc < 0 || pc >= d->n) {
            /* Exactly instructionCount entries: addresses outside the shader are filler. */
            cJSON_AddStringToObject(o, "instruction", "??");
            cJSON_AddStringToObject(o, "presentationHint", "invalid");
            cJSON_AddItemToArray(arr, o);
            continue;
        }
        const struct dbg_dinst *in = &d->ins[pc];
        cJSON_AddStringToObject(o, "instruction", in->text);
        if (d->n_funcs > 0)
            cJSON_AddStringToObject(o, "symbol", d->funcs[in->func]);
        if (in->line > 0) {
            int client_line;
            cJSON_AddItemToObject(o, "location", dap_source_json(s, sh->id, in->line, &client_line));
            cJSON_AddNumberToObject(o, "line", client_line > 0 ? client_line : in->line);
        }
        cJSON_AddItemToArray(arr, o);
    }
    dap_respond(s, req, true, b, NULL);
}

static void set_instruction_breakpoints(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(args, "breakpoints");
    if (!cJSON_IsArray(list)) {
        dap_respond(s, req, false, NULL, "setInstructionBreakpoints: 'breakpoints' (an array) is required");
        return;
    }
    if (s->running) {
        dap_respond(s, req, false, NULL, "setInstructionBreakpoints: a pass of the GPU model is running; pause first");
        return;
    }
    int count = cJSON_GetArraySize(list);
    if (count > 1024) {
        dap_respond(s, req, false, NULL, "setInstructionBreakpoints: at most 1024 breakpoints");
        return;
    }
    struct dap_src_bp *nb = calloc((size_t)count + 1, sizeof *nb);
    if (!nb) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(b, "breakpoints");
    int kept = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, list) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToArray(arr, o);
        const char *ref = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "instructionReference"));
        const char *cond = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "condition"));
        const char *hitc = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(it, "hitCondition"));
        double off = 0;
        uint64_t addr = 0;
        int64_t pc = -1;
        char msg[300] = "";
        struct dap_src_bp e;
        memset(&e, 0, sizeof e);
        const struct dbg_shader *sh = NULL;
        char perr[200];
        if (!ref || !dbg_disasm_parse_address(ref, &addr) || !num_arg(it, "offset", -1e9, 1e9, &off))
            snprintf(msg, sizeof msg, "'instructionReference' must be an instruction address (\"0x...\") and "
                     "'offset' an integer");
        else if (!(sh = shader_at(s, addr, (int64_t)off, &pc)) || pc < 0 || pc >= sh->disasm->n)
            snprintf(msg, sizeof msg, "no instruction of a captured shader at %.40s%+lld", ref, (long long)off);
        else if (hitc && !dbg_parse_hit_condition(hitc, &e.hit_op, &e.hit_n))
            snprintf(msg, sizeof msg, "hit condition '%.60s': expected N, == N, >= N, > N, <= N, < N or %% N", hitc);
        else if (cond && *cond && dbg_eval_syntax(cond, perr, sizeof perr) != 0)
            snprintf(msg, sizeof msg, "condition '%.60s': %s", cond, perr);
        e.id = ++s->next_bp_id;
        cJSON_AddNumberToObject(o, "id", e.id);
        cJSON_AddBoolToObject(o, "verified", !msg[0]);
        if (msg[0]) {
            cJSON_AddStringToObject(o, "message", msg);
            continue;
        }
        char a[32];
        snprintf(a, sizeof a, "0x%llx", (unsigned long long)dbg_disasm_address(sh->id, (int)pc));
        cJSON_AddStringToObject(o, "instructionReference", a);
        e.n_locs = 1;
        e.loc_shader[0] = sh->id;
        e.loc_line[0] = sh->disasm->ins[pc].line;
        e.line = (int)pc;   /* the pc (collect_bps: pc1 = line + 1) */
        if (e.loc_line[0] > 0) {
            int client_line;
            cJSON_AddItemToObject(o, "source", dap_source_json(s, sh->id, e.loc_line[0], &client_line));
            cJSON_AddNumberToObject(o, "line", client_line);
        }
        e.condition = cond && *cond ? strdup(cond) : NULL;
        nb[kept++] = e;
    }
    free_bps(&s->ins_bps, &s->n_ins_bps);
    s->ins_bps = nb;
    s->n_ins_bps = kept;
    dap_respond(s, req, true, b, NULL);
    if (kept && s->configured && !s->stopped && !s->running && !s->terminated)
        dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT);
}

bool dap_feat_is_instruction_bp(const struct dap_session *s, int id)
{
    for (int i = 0; i < s->n_ins_bps; i++)
        if (s->ins_bps[i].id == id)
            return true;
    return false;
}

bool dap_feat_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "setExceptionBreakpoints"))
        set_exception_breakpoints(s, req, args);
    else if (!strcmp(cmd, "exceptionInfo"))
        exception_info(s, req);
    else if (!strcmp(cmd, "setFunctionBreakpoints"))
        set_function_breakpoints(s, req, args);
    else if (!strcmp(cmd, "setInstructionBreakpoints"))
        set_instruction_breakpoints(s, req, args);
    else if (!strcmp(cmd, "disassemble"))
        disassemble(s, req, args);
    else
        return false;
    return true;
}
