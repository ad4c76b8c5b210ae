/* GLSL -> SPIR-V through glslang's C API, with OpLine debug info.
 * Legacy sources go through gm_glsl_upgrade first (line numbers preserved). All stages
 * of a program are linked in one glslang program so glslang_program_map_io gives the
 * stages matching locations. Identifiers the upgrade pass renamed get their original
 * names back in OpName, so uniforms keep the names the application uses. */
#include "gpu_model.h"
#include "gm_dead_arrays.h"
#include "gm_do_scope.h"
#include "gm_gs_layout.h"
#include "gm_stub_functions.h"
#include "gm_frontend.h"
#include "gm_relaxed.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static int init_ok;
/* glslang's front end keeps global state (symbol tables); serialize compiles. */
static pthread_mutex_t compile_lock = PTHREAD_MUTEX_INITIALIZER;

static void init_glslang(void) { init_ok = glslang_initialize_process(); }

static glslang_stage_t to_glslang_stage(gm_stage s)
{
    switch (s) {
    case GM_STAGE_VERTEX: return GLSLANG_STAGE_VERTEX;
    case GM_STAGE_TESS_CONTROL: return GLSLANG_STAGE_TESSCONTROL;
    case GM_STAGE_TESS_EVALUATION: return GLSLANG_STAGE_TESSEVALUATION;
    case GM_STAGE_GEOMETRY: return GLSLANG_STAGE_GEOMETRY;
    case GM_STAGE_FRAGMENT: return GLSLANG_STAGE_FRAGMENT;
    case GM_STAGE_COMPUTE: return GLSLANG_STAGE_COMPUTE;
    default: return GLSLANG_STAGE_VERTEX;
    }
}

static const char *stage_name(gm_stage s)
{
    static const char *names[] = {"vertex", "tess control", "tess evaluation", "geometry",
                                  "fragment", "compute"};
    return (unsigned)s < GM_STAGE_COUNT ? names[s] : "unknown";
}

typedef struct {
    char *data;
    size_t len, cap;
} logbuf;

static void log_add(logbuf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (!n)
        return;
    if (b->len + n + 2 > b->cap) {
        size_t cap = (b->len + n + 2) * 2;
        char *d = realloc(b->data, cap);
        if (!d)
            return;
        b->data = d;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    if (b->data[b->len - 1] != '\n')
        b->data[b->len++] = '\n';
    b->data[b->len] = 0;
}

static void log_addf(logbuf *b, const char *fmt, const char *a, const char *c)
{
    char tmp[1024];
    snprintf(tmp, sizeof tmp, fmt, a, c);
    log_add(b, tmp);
}

/* Length in words of a SPIR-V literal string of n bytes (NUL-terminated, padded). */
static unsigned string_words(size_t n) { return (unsigned)(n / 4 + 1); }

/* Looks a renamed identifier up in "old=new\n" pairs; returns the old name or NULL. */
static const char *original_name(const char *renames, const char *name, char *buf, size_t size)
{
    const char *p = renames;
    while (p && *p) {
        const char *eq = strchr(p, '=');
        const char *nl = strchr(p, '\n');
        if (!eq || !nl || eq > nl)
            return NULL;
        size_t nn = (size_t)(nl - eq - 1);
        if (strlen(name) == nn && strncmp(eq + 1, name, nn) == 0 && (size_t)(eq - p) < size) {
            memcpy(buf, p, (size_t)(eq - p));
            buf[eq - p] = 0;
            return buf;
        }
        p = nl + 1;
    }
    return NULL;
}

/* Rewrites OpName / OpMemberName strings that the upgrade pass renamed. */
static int restore_names(gm_compiled_shader *sh)
{
    const char *renames = sh->upgrade.renames;
    if (!renames || !*renames || sh->word_count < 5)
        return 0;
    uint32_t *out = malloc(sh->word_count * sizeof(uint32_t) + 4096);
    size_t cap = sh->word_count + 1024, n = 5;
    if (!out)
        return -1;
    memcpy(out, sh->spirv, 5 * sizeof(uint32_t));
    for (size_t i = 5; i < sh->word_count;) {
        unsigned wc = sh->spirv[i] >> 16, op = sh->spirv[i] & 0xffff;
        if (wc == 0 || i + wc > sh->word_count)
            break;
        unsigned str_at = op == 5 ? 2 : op == 6 ? 3 : 0; /* OpName / OpMemberName */
        char orig[128];
        const char *name = str_at && wc > str_at ? (const char *)&sh->spirv[i + str_at] : NULL;
        const char *old = NULL;
        if (name && memchr(name, 0, (wc - str_at) * 4))
            old = original_name(renames, name, orig, sizeof orig);
        if (old) {
            size_t len = strlen(old);
            unsigned nw = str_at + string_words(len);
            if (n + nw > cap) {
                cap = (n + nw) * 2;
                uint32_t *d = realloc(out, cap * sizeof(uint32_t));
                if (!d) {
                    free(out);
                    return -1;
                }
                out = d;
            }
            memcpy(out + n, sh->spirv + i, str_at * sizeof(uint32_t));
            out[n] = (nw << 16) | op;
            memset(out + n + str_at, 0, (nw - str_at) * sizeof(uint32_t));
            memcpy(out + n + str_at, old, len);
            n += nw;
        } else {
            if (n + wc > cap) {
                cap = (n + wc) * 2;
                uint32_t *d = realloc(out, cap * sizeof(uint32_t));
                if (!d) {
                    free(out);
                    return -1;
                }
                out = d;
            }
            memcpy(out + n, sh->spirv + i, wc * sizeof(uint32_t));
            n += wc;
        }
        i += wc;
    }
    free(sh->spirv);
    sh->spirv = out;
    sh->word_count = n;
    return 0;
}

/* The source with its `#line` directives blanked (the newline kept), or NULL when it has none or
 * reads __LINE__ (whose value they set). A debugger shows and binds the lines of the text the
 * program passed (ioquake3's `#line 0` after a 40-line prelude, Qt's prepended `#line 1`), so the
 * model numbers lines physically: after a #line, glslang's numbers would repeat or shift the
 * prelude's and breakpoints would land on other lines. Only compile errors and __LINE__ see
 * #line; a shader reading __LINE__ keeps its directives. */
static char *strip_line_directives(const char *src)
{
    if (!src || !strstr(src, "line") || strstr(src, "__LINE__"))
        return NULL;
    char *out = NULL;
    for (const char *l = src; *l;) {
        const char *p = l;
        while (*p == ' ' || *p == '\t')
            p++;
        const char *end = strchr(l, '\n');
        if (!end)
            end = l + strlen(l);
        if (*p == '#') {
            p++;
            while (*p == ' ' || *p == '\t')
                p++;
            if (!strncmp(p, "line", 4) && (p[4] == ' ' || p[4] == '\t')) {
                if (!out && !(out = strdup(src)))
                    return NULL;
                memset(out + (l - src), ' ', (size_t)(end - l));
            }
        }
        l = *end ? end + 1 : end;
    }
    return out;
}

/* Does text define or declare a function named main (a `main` token followed by `(`)? The unit
 * holding main() gives its stage's name and shown source when several shader objects make one
 * stage. */
static int names_main(const char *text)
{
    for (const char *s = text ? strstr(text, "main") : NULL; s; s = strstr(s + 4, "main")) {
        if (s > text && (isalnum((unsigned char)s[-1]) || s[-1] == '_'))
            continue;
        const char *e = s + 4;
        while (*e == ' ' || *e == '\t' || *e == '\n' || *e == '\r')
            e++;
        if (*e == '(')
            return 1;
    }
    return 0;
}

/* Compiles and links the units in sources (one or more per stage) into one module per stage:
 * out->shaders[] holds the stages in the order they first appear. */
static int compile_linked(const gm_shader_source *sources, int count, gm_compile_result *out,
                          int dead_arrays, int pipe, const char *stub_log)
{
    memset(out, 0, sizeof *out);
    logbuf log = {0};
    if (count <= 0 || count > GM_MAX_SHADER_UNITS || !sources) {
        log_add(&log, count > GM_MAX_SHADER_UNITS ? "error: too many shader objects in one program"
                                           : "error: no shader stages to compile");
        out->log = log.data ? log.data : strdup("");
        return -1;
    }
    pthread_once(&init_once, init_glslang);
    if (!init_ok) {
        log_add(&log, "error: glslang_initialize_process failed");
        out->log = log.data ? log.data : strdup("");
        return -1;
    }

    int ok = 1;
    glslang_input_t inputs[GM_MAX_SHADER_UNITS];
    glslang_shader_t *shaders[GM_MAX_SHADER_UNITS] = {0};
    char *unit_text[GM_MAX_SHADER_UNITS] = {0};
    gm_upgrade_info unit_up[GM_MAX_SHADER_UNITS];
    int slot_of[GM_MAX_SHADER_UNITS], primary[GM_STAGE_COUNT];
    memset(unit_up, 0, sizeof unit_up);
    /* One context made every stage: a vertex shader without #version and without precision
     * statements is ES 1.00 when its fragment shader is. */
    int has_gs = pipe, es = 0;   /* the whole program's GM_UP_PIPE_* flags (gm_frontend.h) */
    for (int k = 0; k < count; k++)
        es |= gm_glsl_is_es(sources[k].source);
    for (int i = 0; i < count && ok; i++) {
        if ((unsigned)sources[i].stage >= GM_STAGE_COUNT) {
            log_add(&log, "error: bad shader stage");
            ok = 0;
            break;
        }
        int s = 0;
        while (s < out->shader_count && out->shaders[s].stage != sources[i].stage)
            s++;
        if (s == out->shader_count) {
            out->shaders[s].stage = sources[i].stage;
            primary[s] = i;
            out->shader_count++;
        }
        slot_of[i] = s;
        char err[256];
        char *physical = strip_line_directives(sources[i].source);
        unit_text[i] = gm_glsl_upgrade_in_program(physical ? physical : sources[i].source,
                                                  sources[i].stage, has_gs, es, &unit_up[i], err,
                                                  sizeof err);
        free(physical);
        if (!unit_text[i]) {
            log_addf(&log, "error: %s shader: %s", stage_name(sources[i].stage), err);
            ok = 0;
        }
        if (unit_text[i] && primary[s] != i && !names_main(unit_text[primary[s]]) &&
            names_main(unit_text[i]))
            primary[s] = i;
    }
    /* A do-while body that is one statement has its own scope (gm_do_scope.c). */
    for (int i = 0; i < count && ok; i++) {
        int changed = 0;
        char *t = gm_brace_do_bodies(unit_text[i], &changed);
        if (t && changed) {
            free(unit_text[i]);
            unit_text[i] = t;
        } else {
            free(t);
        }
    }
    /* The units of a geometry shader share its input primitive (gm_gs_layout.c). */
    char *gs_units[GM_MAX_SHADER_UNITS];
    int gs_at[GM_MAX_SHADER_UNITS], n_gs = 0;
    for (int i = 0; i < count && ok; i++)
        if (sources[i].stage == GM_STAGE_GEOMETRY) {
            gs_at[n_gs] = i;
            gs_units[n_gs++] = unit_text[i];
        }
    if (n_gs > 1) {
        gm_gs_share_input_layout(gs_units, n_gs);
        for (int g = 0; g < n_gs; g++)
            unit_text[gs_at[g]] = gs_units[g];
    }
    /* The retries' array sizes (gm_dead_arrays.c), an implicit size counting every unit of the
     * stage: computed from the texts as upgraded, then swapped in. */
    char *sized[GM_MAX_SHADER_UNITS] = {0};
    for (int i = 0; i < count && ok && dead_arrays; i++) {
        const char *others[GM_MAX_SHADER_UNITS];
        int n_others = 0;
        for (int j = 0; j < count; j++)
            if (j != i && slot_of[j] == slot_of[i])
                others[n_others++] = unit_text[j];
        int changed;
        sized[i] = dead_arrays == 2
                       ? gm_implicit_array_sizes_units(unit_text[i], others, n_others, &changed)
                       : gm_dead_array_sizes(unit_text[i], &changed);
    }
    for (int i = 0; i < count; i++)
        if (sized[i]) {
            free(unit_text[i]);
            unit_text[i] = sized[i];
        }
    /* The retry after "No function definition (body) found" (gm_stub_functions.c): bodies in
     * the first unit of each stage that declares them. */
    int stubbed_slot[GM_STAGE_COUNT] = {0};
    for (int i = 0; i < count && ok && stub_log; i++) {
        if (stubbed_slot[slot_of[i]])
            continue;
        int changed = 0;
        char *t = gm_stub_undefined_functions(unit_text[i], stub_log, &changed);
        if (t && changed) {
            free(unit_text[i]);
            unit_text[i] = t;
            stubbed_slot[slot_of[i]] = 1;
        } else {
            free(t);
        }
    }

    /* glslang's default limits, with llvmpipe's (Mesa 22.3, glxinfo -l) where the defaults are
     * lower than what shaders the driver accepted use (an atomic counter at binding 3 fails
     * with glslang's one atomic-counter binding). */
    glslang_resource_t limits = *glslang_default_resource();
    limits.max_atomic_counter_bindings = 16;
    limits.max_vertex_atomic_counter_buffers = limits.max_tess_control_atomic_counter_buffers = 16;
    limits.max_tess_evaluation_atomic_counter_buffers = limits.max_geometry_atomic_counter_buffers = 16;
    limits.max_fragment_atomic_counter_buffers = limits.max_compute_atomic_counter_buffers = 16;
    limits.max_combined_atomic_counter_buffers = 80;
    limits.max_vertex_atomic_counters = limits.max_tess_control_atomic_counters = 4096;
    limits.max_tess_evaluation_atomic_counters = limits.max_geometry_atomic_counters = 4096;
    limits.max_fragment_atomic_counters = limits.max_compute_atomic_counters = 4096;
    limits.max_combined_atomic_counters = 4096;
    limits.max_atomic_counter_buffer_size = 16384;
    pthread_mutex_lock(&compile_lock);
    glslang_program_t *program = ok ? glslang_program_create() : NULL;
    for (int i = 0; i < count && ok; i++) {
        gm_compiled_shader *sh = &out->shaders[slot_of[i]];
        glslang_input_t *in = &inputs[i];
        memset(in, 0, sizeof *in);
        in->language = GLSLANG_SOURCE_GLSL;
        in->stage = to_glslang_stage(sh->stage);
        in->client = GLSLANG_CLIENT_OPENGL;
        in->client_version = GLSLANG_TARGET_OPENGL_450;
        in->target_language = GLSLANG_TARGET_SPV;
        in->target_language_version = GLSLANG_TARGET_SPV_1_0;
        in->code = unit_text[i];
        in->default_version = 110;
        in->default_profile = GLSLANG_NO_PROFILE;
        in->messages = GLSLANG_MSG_SPV_RULES_BIT;
        in->resource = &limits;
        shaders[i] = glslang_shader_create(in);
        if (!shaders[i]) {
            log_add(&log, "error: glslang_shader_create failed");
            ok = 0;
            break;
        }
        glslang_shader_set_options(shaders[i], GLSLANG_SHADER_AUTO_MAP_BINDINGS |
                                                   GLSLANG_SHADER_AUTO_MAP_LOCATIONS);
        if (!glslang_shader_preprocess(shaders[i], in) || !glslang_shader_parse(shaders[i], in)) {
            log_addf(&log, "%s shader failed to compile:", stage_name(sh->stage), NULL);
            log_add(&log, glslang_shader_get_info_log(shaders[i]));
            log_add(&log, glslang_shader_get_info_debug_log(shaders[i]));
            ok = 0;
            break;
        }
        log_add(&log, glslang_shader_get_info_log(shaders[i]));
        glslang_program_add_shader(program, shaders[i]);
    }
    if (ok && !glslang_program_link(program, GLSLANG_MSG_SPV_RULES_BIT)) {
        log_add(&log, "link failed:");
        log_add(&log, glslang_program_get_info_log(program));
        ok = 0;
    }
    if (ok && !glslang_program_map_io(program)) {
        log_add(&log, "glslang_program_map_io failed:");
        log_add(&log, glslang_program_get_info_log(program));
        ok = 0;
    }
    /* Each stage keeps the text (and renames) of its unit holding main(); the units' own
     * copies are freed below. */
    for (int s = 0; s < out->shader_count; s++) {
        out->shaders[s].compiled_source = unit_text[primary[s]];
        out->shaders[s].upgrade = unit_up[primary[s]];
        unit_text[primary[s]] = NULL;
        memset(&unit_up[primary[s]], 0, sizeof unit_up[0]);
    }
    size_t emitted = 0; /* glslang appends each stage's module to one vector */
    for (int slot = 0; slot < out->shader_count && ok; slot++) {
        gm_compiled_shader *sh = &out->shaders[slot];
        int i = primary[slot];
        /* The per-stage intermediate exists only after linking. */
        if (sources[i].name)
            glslang_program_set_source_file(program, inputs[i].stage, sources[i].name);
        glslang_spv_options_t opts;
        memset(&opts, 0, sizeof opts);
        opts.generate_debug_info = true;
        opts.disable_optimizer = true;
        glslang_program_SPIRV_generate_with_options(program, inputs[i].stage, &opts);
        size_t words = glslang_program_SPIRV_get_size(program);
        const char *msgs = glslang_program_SPIRV_get_messages(program);
        if (msgs && *msgs)
            log_add(&log, msgs);
        if (words < emitted + 5) {
            log_addf(&log, "error: no SPIR-V generated for the %s shader", stage_name(sh->stage),
                     NULL);
            ok = 0;
            break;
        }
        uint32_t *all = malloc(words * sizeof(uint32_t));
        if (!all) {
            ok = 0;
            break;
        }
        glslang_program_SPIRV_get(program, all);
        size_t start = all[emitted] == 0x07230203u ? emitted : 0;
        sh->word_count = words - start;
        sh->spirv = malloc(sh->word_count * sizeof(uint32_t));
        if (sh->spirv)
            memcpy(sh->spirv, all + start, sh->word_count * sizeof(uint32_t));
        free(all);
        emitted = words;
        if (!sh->spirv) {
            ok = 0;
            break;
        }
        if (restore_names(sh) != 0) {
            log_add(&log, "error: out of memory");
            ok = 0;
        }
        /* ES mediump/lowp arithmetic at llvmpipe's 16-bit precision (desktop GLSL ignores it). */
        if (ok && sh->upgrade.original_es && gm_relax_precision(&sh->spirv, &sh->word_count) != 0) {
            log_add(&log, "error: out of memory");
            ok = 0;
        }
    }
    if (program)
        glslang_program_delete(program);
    for (int i = 0; i < count; i++)
        if (shaders[i])
            glslang_shader_delete(shaders[i]);
    pthread_mutex_unlock(&compile_lock);
    for (int i = 0; i < count; i++) {
        free(unit_text[i]);
        gm_upgrade_info_free(&unit_up[i]);
    }

    out->ok = ok;
    out->log = log.data ? log.data : strdup("");
    return ok ? 0 : -1;
}

/* glslang's linker rejects `patch` arrays between the tessellation stages that GL (and Mesa)
 * accept ("Array sizes must be compatible" for the same `vec2 m[16]` on both sides). The model
 * matches stage interfaces by name itself (gmf_geometry.c, gmf_tess.c), so such a program is
 * compiled as two glslang programs: the stages up to the TCS, and the TES with what follows. */
static bool tess_patch_array_quirk(const gm_shader_source *sources, int count, const char *log)
{
    bool tcs = false, tes = false;
    for (int i = 0; i < count; i++) {
        tcs |= sources[i].stage == GM_STAGE_TESS_CONTROL;
        tes |= sources[i].stage == GM_STAGE_TESS_EVALUATION;
    }
    return tcs && tes && log &&
           strstr(log, "Linking tessellation control and tessellation evaluation stages: "
                       "Array sizes must be compatible");
}

/* glslang's linker matches an output to the next stage's input by name and refuses one name
 * at different explicit locations ("Layout location qualifier must match"); GL matches
 * explicitly located variables by location (separate shader objects: a struct `s` at location 0
 * feeding `s2` at location 0). The model matches stage interfaces itself (gmf_program.c), so
 * such a program is compiled one glslang program per stage. */
static bool location_mismatch(const char *log)
{
    return log && strstr(log, "Layout location qualifier must match");
}

/* The GM_UP_PIPE_* flags of a whole program (the upgrade of each stage needs them, also when
 * the stages are compiled apart). */
static int pipe_flags(const gm_shader_source *sources, int count)
{
    int pipe = 0;
    for (int k = 0; k < count; k++)
        pipe |= sources[k].stage == GM_STAGE_GEOMETRY ? 1
                : sources[k].stage == GM_STAGE_TESS_EVALUATION ? 2
                : sources[k].stage == GM_STAGE_TESS_CONTROL ? 4 : 0;
    return pipe;
}

static int compile_program(const gm_shader_source *sources, int count, gm_compile_result *out,
                           int dead_arrays, const char *stub_log)
{
    int pipe = pipe_flags(sources, count);
    int rc = compile_linked(sources, count, out, dead_arrays, pipe, stub_log);
    bool per_stage = rc != 0 && location_mismatch(out->log);
    if (rc == 0 || (!per_stage && !tess_patch_array_quirk(sources, count, out->log)))
        return rc;
    /* groups: one per stage, or the stages up to the TCS and the TES with what follows */
    enum { MAXG = GM_STAGE_COUNT };
    gm_shader_source part[MAXG][GM_MAX_SHADER_UNITS];
    int n[MAXG] = { 0 };
    for (int i = 0; i < count; i++) {
        int g = per_stage ? (int)sources[i].stage
                          : sources[i].stage >= GM_STAGE_TESS_EVALUATION && sources[i].stage != GM_STAGE_COMPUTE;
        if (g < 0 || g >= MAXG)
            return rc;
        part[g][n[g]++] = sources[i];
    }
    gm_compile_result r[MAXG];
    memset(r, 0, sizeof r);
    int ok = 1;
    for (int g = 0; g < MAXG; g++)
        if (n[g])
            ok = (compile_linked(part[g], n[g], &r[g], dead_arrays, pipe, stub_log) == 0) && ok;
    if (!ok) {   /* keep the first log: the error the whole program gave */
        for (int g = 0; g < MAXG; g++)
            gm_compile_result_free(&r[g]);
        return rc;
    }
    gm_compile_result_free(out);
    memset(out, 0, sizeof *out);
    size_t len = 1;
    for (int g = 0; g < MAXG; g++) {
        len += r[g].log ? strlen(r[g].log) : 0;
        for (int k = 0; k < r[g].shader_count && out->shader_count < GM_STAGE_COUNT; k++) {
            out->shaders[out->shader_count++] = r[g].shaders[k];   /* ownership moves */
            memset(&r[g].shaders[k], 0, sizeof r[g].shaders[k]);
        }
    }
    out->log = malloc(len);
    if (out->log) {
        out->log[0] = 0;
        for (int g = 0; g < MAXG; g++)
            if (r[g].log)
                strcat(out->log, r[g].log);
    } else {
        out->log = strdup("");
    }
    for (int g = 0; g < MAXG; g++) {
        r[g].shader_count = 0;
        gm_compile_result_free(&r[g]);
    }
    out->ok = 1;
    return 0;
}

int gm_compile_program(const gm_shader_source *sources, int count, gm_compile_result *out)
{
    int rc = compile_program(sources, count, out, 0, NULL);
    /* A function declared and called only from code Mesa folds away (gm_stub_functions.c):
     * again with bodies for the functions the linker names; the first error stays when that
     * does not help. */
    if (rc != 0 && out->log && strstr(out->log, "No function definition (body) found")) {
        gm_compile_result retry;
        if (compile_program(sources, count, &retry, 0, out->log) == 0) {
            gm_compile_result_free(out);
            *out = retry;
            return 0;
        }
        gm_compile_result_free(&retry);
    }
    /* An array size glslang cannot fold, or .length() of an implicitly sized array (see
     * gm_dead_arrays.c): again with those sizes written as Mesa determines them; the first error
     * stays when that does not help. */
    int kind = rc == 0 || !out->log ? 0
               : strstr(out->log, "array size must be a constant integer expression") ? 1
               : strstr(out->log, "array must be declared with a size before using this method") ? 2 : 0;
    if (!kind)
        return rc;
    gm_compile_result retry;
    if (compile_program(sources, count, &retry, kind, NULL) != 0) {
        gm_compile_result_free(&retry);
        return rc;
    }
    gm_compile_result_free(out);
    *out = retry;
    return 0;
}

void gm_compile_result_free(gm_compile_result *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->shader_count && i < GM_STAGE_COUNT; i++) {
        free(r->shaders[i].spirv);
        free(r->shaders[i].compiled_source);
        gm_upgrade_info_free(&r->shaders[i].upgrade);
    }
    free(r->log);
    memset(r, 0, sizeof *r);
}
