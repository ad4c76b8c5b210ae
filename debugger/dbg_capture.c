/* Indexing a capture for the debugger: walks the command stream once through the state model,
 * collecting the shader texts each glLinkProgram linked, the programs and the draws; compiles each
 * program in the GPU model once to learn which lines have code (for breakpoint verification). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>
#include "capture/glcap_file.h"
#include "gpu_model/gpu_model.h"
#include "gpu_model/arbasm/arbasm.h"
#include "replay/player/player.h"
#include "statemodel/statemodel.h"
#include "registry/glr_call_codec.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_capture_shaders.h"
#ifdef GLR_HAVE_FRAME_RUNNER
#include "debugger/dbg_ff_sources.h"
#endif
#include "debugger/dbg_disasm.h"
#include "debugger/dbg_funcs.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml (no GL headers in this module) */

static int stage_of_gl(uint32_t type)
{
    switch (type) {
    case GL_VERTEX_SHADER: return GM_STAGE_VERTEX;
    case GL_TESS_CONTROL_SHADER: return GM_STAGE_TESS_CONTROL;
    case GL_TESS_EVALUATION_SHADER: return GM_STAGE_TESS_EVALUATION;
    case GL_GEOMETRY_SHADER: return GM_STAGE_GEOMETRY;
    case GL_FRAGMENT_SHADER: return GM_STAGE_FRAGMENT;
    case GL_COMPUTE_SHADER: return GM_STAGE_COMPUTE;
    default: return -1;
    }
}

static void seterr(char *err, size_t n, const char *fmt, const char *a, const char *b)
{
    if (n)
        snprintf(err, n, fmt, a, b);
}

/* After a glLinkProgram: the program's linked shaders become captured shaders. */
static void note_link(struct dbg_capture *c, const struct sm_state *st, uint32_t ctx_id, uint32_t prog_name)
{
    const struct sm_context *ctx = sm_context_get(st, ctx_id);
    const struct sm_program *p = ctx ? sm_get_program(ctx, prog_name) : NULL;
    if (!p)
        return;
    struct dbg_program prog = { .ctx_id = ctx_id, .name = prog_name };
    for (int k = 0; k < 6; k++)
        prog.shader[k] = -1;
    for (uint32_t i = 0; i < p->n_linked; i++) {
        int stage = stage_of_gl(p->linked[i].type);
        if (stage < 0 || !p->linked[i].source)
            continue;
        /* The GL name: the attached shader with that text, if still attached. */
        uint32_t gl_name = 0;
        for (uint32_t a = 0; a < p->n_attached; a++) {
            const struct sm_shader *sh = sm_get_shader(ctx, p->attached[a]);
            if (sh && sh->source && strcmp(sh->source, p->linked[i].source) == 0)
                gl_name = sh->name;
        }
        prog.shader[stage] = dbg_capture_add_named_shader(c, stage, p->linked[i].source, gl_name, prog_name);
    }
    dbg_capture_add_program(c, &prog);
}

/* After a glProgramStringARB: the ARB program's text becomes a captured shader of its stage
 * (a one-stage program). Its lines are the assembly's; the model runs its GLSL translation
 * (gpu_model/arbasm), which keeps every instruction on its line. */
static void note_arb_string(struct dbg_capture *c, const struct sm_state *st, uint32_t ctx_id, uint32_t target)
{
    const struct sm_context *ctx = sm_context_get(st, ctx_id);
    int t = sm_arb_target_index(target);
    const struct sm_arb_program *ap = ctx && t >= 0 ? sm_bound_arb_program(ctx, t) : NULL;
    if (!ap || !ap->source || strncmp(ap->source, t ? "!!ARBfp1.0" : "!!ARBvp1.0", 10))
        return;
    int stage = t ? GM_STAGE_FRAGMENT : GM_STAGE_VERTEX;
    struct dbg_program prog = { .ctx_id = ctx_id, .name = 0 };
    for (int k = 0; k < 6; k++)
        prog.shader[k] = -1;
    int before = c->n_shaders;
    uint32_t shown = ap->name >= SM_ARB_DEFAULT_NAME(0) ? 0 : ap->name;   /* the default object is 0 */
    prog.shader[stage] = dbg_capture_add_named_shader(c, stage, ap->source, shown, 0);
    if (prog.shader[stage] < 0)
        return;
    struct dbg_shader *sh = &c->shaders[prog.shader[stage]];
    if (c->n_shaders > before)   /* a new entry: named after the ARB program */
        snprintf(sh->name, sizeof sh->name, "arb%s%u.%s", t ? "fp" : "vp", shown, t ? "frag" : "vert");
    dbg_capture_add_program(c, &prog);
}

int dbg_capture_draw_shader(const struct dbg_capture *c, int draw, int stage)
{
    for (int i = 0; i < c->n_ff_draws; i++)
        if (c->ff_draws[i].draw == draw && (stage == GM_STAGE_VERTEX || stage == GM_STAGE_FRAGMENT)) {
            int sh = c->ff_draws[i].shader[stage == GM_STAGE_FRAGMENT];
            if (sh >= 0)
                return sh;
            break;
        }
    if (draw < 0 || draw >= c->n_draws)
        return -1;
    const struct dbg_draw *d = &c->draws[draw];
    int shader = -1;
    for (int i = 0; i < c->n_programs; i++)   /* the draw's context first, then its share group */
        if (c->programs[i].name == d->program && (shader < 0 || c->programs[i].ctx_id == d->ctx_id))
            shader = c->programs[i].shader[stage];
    return shader >= 0 && shader < c->n_shaders ? shader : -1;
}

/* Compiles a program's stages in the model; marks each shader's lines with code. */
static void compile_program(struct dbg_capture *c, const struct dbg_program *p)
{
    gm_shader_source src[6];
    int n = 0, idx[6];
    for (int st = 0; st < 6; st++)
        if (p->shader[st] >= 0 && !c->shaders[p->shader[st]].has_code) {
            idx[n] = p->shader[st];
            src[n++] = (gm_shader_source){ .stage = (gm_stage)st, .source = c->shaders[p->shader[st]].source };
        }
    if (!n)
        return;
    /* Linking needs every stage, including those already compiled with another program. */
    n = 0;
    for (int st = 0; st < 6; st++)
        if (p->shader[st] >= 0) {
            idx[n] = p->shader[st];
            src[n++] = (gm_shader_source){ .stage = (gm_stage)st, .source = c->shaders[p->shader[st]].source };
        }
    /* ARB assembly (a one-stage program of note_arb_string): compile its GLSL translation */
    arbasm_result arb;
    memset(&arb, 0, sizeof arb);
    if (n == 1 && !strncmp(src[0].source, "!!ARB", 5)) {
        if (arbasm_translate(src[0].source, strlen(src[0].source), NULL, &arb) != 0) {
            struct dbg_shader *s = &c->shaders[idx[0]];
            free(s->compile_error);
            s->compile_error = strdup(arb.error);
            return;
        }
        src[0].source = arb.glsl;
    }
    gm_compile_result r;
    memset(&r, 0, sizeof r);
    int rc = gm_compile_program(src, n, &r);
    arbasm_result_free(&arb);
    for (int i = 0; i < n; i++) {
        struct dbg_shader *s = &c->shaders[idx[i]];
        if (s->has_code)
            continue;
        if (rc != 0 || !r.ok) {
            free(s->compile_error);
            s->compile_error = strdup(r.log && *r.log ? r.log : "the GPU model could not compile the program");
            continue;
        }
        for (int k = 0; k < r.shader_count; k++) {
            if ((int)r.shaders[k].stage != s->stage)
                continue;
            char perr[256];
            gm_program *gp = gm_program_create(r.shaders[k].spirv, r.shaders[k].word_count, perr, sizeof perr);
            if (!gp) {
                free(s->compile_error);
                s->compile_error = strdup(perr);
                break;
            }
            s->has_code = calloc((size_t)s->line_count + 2, 1);
            if (s->has_code)
                for (int line = 1; line <= s->line_count; line++)
                    s->has_code[line] = (unsigned char)gm_program_line_has_code(gp, line);
            s->n_funcs = dbg_program_funcs(gp, &s->funcs);
            s->disasm = dbg_disasm_build(gp);
            gm_program_destroy(gp);
            break;
        }
    }
    gm_compile_result_free(&r);
}

/* The state at the start: the INITIAL_STATE section, or fresh contexts from METADATA. */
static struct sm_state *load_initial(const char *path, char *err, size_t n)
{
    glcap_reader *r = glcap_reader_open(path, NULL, err, n);
    if (!r)
        return NULL;
    struct sm_state *s = NULL;
    void *data = NULL;
    size_t size = 0;
    int64_t idx = glcap_reader_find(r, GLCAP_SECTION_INITIAL_STATE, 0);
    if (idx >= 0) {
        if (glcap_reader_load(r, (uint32_t)idx, &data, &size) != 0) {
            seterr(err, n, "%s%s", glcap_reader_error(r), "");
            goto out;
        }
        s = sm_deserialize(data, size, err, n);
        free(data);
        if (!s)
            goto out;
    } else if (!(s = sm_state_new())) {
        seterr(err, n, "%s%s", "out of memory", "");
        goto out;
    }
    idx = glcap_reader_find(r, GLCAP_SECTION_METADATA, 0);
    if (idx >= 0 && glcap_reader_load(r, (uint32_t)idx, &data, &size) == 0) {
        char *meta = malloc(size + 1);
        if (meta) {
            memcpy(meta, data, size);
            meta[size] = 0;
            bool dflt;
            char e2[256];
            sm_declare_capture_contexts(s, meta, &dflt, e2, sizeof e2);
            free(meta);
        }
        free(data);
    }
out:
    glcap_reader_close(r);
    return s;
}

struct dbg_capture *dbg_capture_open(const char *path, char *err, size_t err_size)
{
    struct dbg_capture *c = calloc(1, sizeof *c);
    if (!c) {
        seterr(err, err_size, "%s%s", "out of memory", "");
        return NULL;
    }
    c->path = strdup(path);
    c->cap = glrh_capture_open(path, err, err_size);
    if (!c->cap || !c->path)
        goto fail;
    c->initial = load_initial(path, err, err_size);
    if (!c->initial)
        goto fail;
    /* Programs already linked when the capture began (a frame captured from a running program,
     * live attach): their shaders are captured shaders too. Once per share group. */
    for (size_t ci = 0; ci < sm_context_count(c->initial); ci++) {
        const struct sm_context *ctx = sm_context_at(c->initial, ci);
        uint32_t id = sm_context_id(ctx);
        if (sm_context_share_id(ctx) != id)
            continue;
        size_t n = sm_object_names(ctx, SM_OBJ_PROGRAM, NULL, 0);
        uint32_t *names = n ? calloc(n, sizeof *names) : NULL;
        if (names)
            sm_object_names(ctx, SM_OBJ_PROGRAM, names, n);
        for (size_t k = 0; names && k < n; k++)
            note_link(c, c->initial, id, names[k]);
        free(names);
    }
    struct sm_state *st = sm_state_clone(c->initial);
    if (!st) {
        seterr(err, err_size, "%s%s", "out of memory", "");
        goto fail;
    }
    struct glr_stream s;
    struct glr_call call;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    int rc;
    uint32_t current_program[64] = { 0 };
    while ((rc = glr_stream_next(&s, &call)) == 1) {
        uint64_t rec = s.index - 1;
        sm_apply(st, &call);
        if (call.cmd == GLR_CMD_glLinkProgram || call.cmd == GLR_CMD_glLinkProgramARB)
            note_link(c, st, call.ctx_id, (uint32_t)call.args[0]);
        else if (call.cmd == GLR_CMD_glProgramStringARB)
            note_arb_string(c, st, call.ctx_id, (uint32_t)call.args[0]);
        else if (call.cmd == GLR_CMD_glCreateShaderProgramv && (call.flags & GLR_CALL_HAS_RET))
            note_link(c, st, call.ctx_id, (uint32_t)call.ret);
        /* A glCallList(s) record runs the draws of its display lists (the GPU model runs them):
         * listed with program 0 (any program: a list may bind its own), so a pass that looks for
         * a breakpoint's shader runs up to it. */
        bool list_call = call.cmd == GLR_CMD_glCallList || call.cmd == GLR_CMD_glCallLists;
        if (glrh_cmd_is_draw(call.cmd) || list_call) {
            const struct sm_context *ctx = sm_context_get(st, call.ctx_id);
            uint32_t prog = ctx && !list_call ? sm_context_state(ctx)->program : 0;
            struct dbg_draw *d = realloc(c->draws, (size_t)(c->n_draws + 1) * sizeof *d);
            if (!d)
                break;
            c->draws = d;
            c->draws[c->n_draws++] = (struct dbg_draw){ rec, call.ctx_id, call.cmd, prog };
        }
        (void)current_program;
    }
    c->n_records = s.index;
    sm_state_free(st);
    if (rc < 0) {
        seterr(err, err_size, "%s: %s", path, s.err);
        goto fail;
    }
    for (int i = 0; i < c->n_programs; i++)
        compile_program(c, &c->programs[i]);
#ifdef GLR_HAVE_FRAME_RUNNER
    /* Draws without a GLSL stage: the sources the model generates for them (dbg_ff_sources.c). */
    int before = c->n_programs;
    if (dbg_capture_may_run_ff(c) && dbg_capture_add_ff(c) == 0)
        for (int i = before; i < c->n_programs; i++)
            compile_program(c, &c->programs[i]);
#endif
    return c;
fail:
    dbg_capture_close(c);
    return NULL;
}

void dbg_capture_close(struct dbg_capture *c)
{
    if (!c)
        return;
    for (int i = 0; i < c->n_shaders; i++) {
        free(c->shaders[i].source);
        free(c->shaders[i].has_code);
        free(c->shaders[i].funcs);
        dbg_disasm_free(c->shaders[i].disasm);
        free(c->shaders[i].compile_error);
    }
    free(c->shaders);
    free(c->programs);
    free(c->draws);
    free(c->ff_draws);
    free(c->ff_error);
    if (c->initial)
        sm_state_free(c->initial);
    if (c->cap)
        glrh_capture_close(c->cap);
    free(c->path);
    free(c);
}

char *dbg_capture_state_json(const struct dbg_capture *c, uint64_t event, char *err, size_t err_size)
{
    if (event > c->n_records) {
        if (err_size)
            snprintf(err, err_size, "event %llu is past the end of the capture (%llu records)",
                     (unsigned long long)event, (unsigned long long)c->n_records);
        return NULL;
    }
    struct sm_state *st = sm_state_clone(c->initial);
    if (!st) {
        seterr(err, err_size, "%s%s", "out of memory", "");
        return NULL;
    }
    struct glr_stream s;
    struct glr_call call;
    uint32_t ctx_id = 0;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    while (s.index < event && glr_stream_next(&s, &call) == 1) {
        sm_apply(st, &call);
        if (call.ctx_id)
            ctx_id = call.ctx_id;
    }
    char *json = sm_query_json(st, ctx_id);
    sm_state_free(st);
    if (!json)
        seterr(err, err_size, "%s%s", "no context at that event", "");
    return json;
}

char *dbg_capture_events_json(const struct dbg_capture *c, uint64_t start, uint64_t count)
{
    cJSON *arr = cJSON_CreateArray();
    struct glr_stream s;
    struct glr_call call;
    int draw = 0;
    glr_stream_init(&s, c->cap->stream, c->cap->stream_size);
    while (glr_stream_next(&s, &call) == 1) {
        uint64_t rec = s.index - 1;
        bool is_draw = glrh_cmd_is_draw(call.cmd);
        if (rec >= start && (!count || rec < start + count)) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddNumberToObject(o, "event", (double)rec);
            cJSON_AddStringToObject(o, "name", glr_call_name(call.cmd));
            cJSON_AddNumberToObject(o, "ctx", call.ctx_id);
            if (is_draw)
                cJSON_AddNumberToObject(o, "draw", draw);
            cJSON_AddItemToArray(arr, o);
        }
        draw += is_draw;
    }
    char *out = cJSON_PrintUnformatted(arr);
    cJSON_Delete(arr);
    return out;
}
