/* GPU model telemetry over a capture: the loader shared by `glreplay profile` (ui_ipc/cli) and the
 * DAP request glreplay/profile, and that request (see dap_profile.h).
 *
 * Isolation: profile ids are numbered across the whole process, but a result is stored only in
 * the session that ran it. A session asking for an id it does not hold is refused, with a message
 * that says whether the id belongs to another connection or does not exist.
 *
 * A run happens on its own thread, so the server keeps answering every connection meanwhile;
 * the session counts as running (like a debugger pass) until the answer is sent. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "replay/player/player.h"
#include "registry/glr_call_codec.h"
#include "debugger/snapshot_contents.h"
#include "debugger/dbg_capture.h"
#include "ui_ipc/dap/dap_profile.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define KEEP_RESULTS 8

/* ---------------------------------------------------------------- loading */

static char *load_metadata(const char *path, char *err, size_t n)
{
    glcap_reader *rd = glcap_reader_open(path, NULL, err, n);
    if (!rd)
        return NULL;
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
    void *data = NULL;
    size_t size = 0;
    char *meta = NULL;
    if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &data, &size) == 0 && (meta = malloc(size + 1))) {
        memcpy(meta, data, size);
        meta[size] = 0;
    } else {
        snprintf(err, n, "%s: %s", path, idx < 0 ? "no METADATA section" : "cannot read the METADATA section");
    }
    free(data);
    glcap_reader_close(rd);
    return meta;
}

/* Each context's window: its first MAKE_CURRENT with a surface size, else its first reference
 * image (the frame it swapped), else the frame runner's default. */
static gmf_surface_desc *plan_surfaces(const struct dbg_capture *cap, int *n_out)
{
    const struct glrh_capture *c = cap->cap;
    gmf_surface_desc *s = calloc(c->n_ctxs + 1, sizeof *s);
    int n = 0;
    if (!s)
        return NULL;
    for (unsigned i = 0; i < c->n_ctxs; i++)
        s[n++] = (gmf_surface_desc){ .ctx_id = c->ctxs[i].id };
    struct glr_stream st;
    struct glr_call call;
    glr_stream_init(&st, c->stream, c->stream_size);
    while (glr_stream_next(&st, &call) == 1) {
        if (call.cmd != GLR_PSEUDO_MAKE_CURRENT || !call.ctx_id || !call.args[0] || !call.args[1])
            continue;
        for (int i = 0; i < n; i++)
            if (s[i].ctx_id == call.ctx_id && !s[i].width) {
                s[i].width = (int)call.args[0];
                s[i].height = (int)call.args[1];
            }
    }
    for (int i = 0; i < n; i++)
        for (unsigned k = 0; k < c->n_images && !s[i].width; k++)
            if (c->images[k].ctx_id == s[i].ctx_id) {
                s[i].width = (int)c->images[k].width;
                s[i].height = (int)c->images[k].height;
            }
    /* Contexts with no size are left out: the runner gives them its default. */
    int k = 0;
    for (int i = 0; i < n; i++)
        if (s[i].width > 0 && s[i].height > 0)
            s[k++] = s[i];
    *n_out = k;
    return s;
}

gmt_profile *dap_profile_capture(const struct dbg_capture *cap, const gmt_profile_options *opt, char *err,
                                 size_t err_size)
{
    char *meta = load_metadata(cap->path, err, err_size);
    if (!meta)
        return NULL;
    int n_surf = 0;
    gmf_surface_desc *surf = plan_surfaces(cap, &n_surf);
    if (!surf) {
        free(meta);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    const char *base = strrchr(cap->path, '/');
    size_t srcs_size = 0;
    char e1[256];
    void *srcs = glcap_read_optional_section(cap->path, GLCAP_SECTION_SHADER_SOURCES, 0, &srcs_size, e1, sizeof e1);
    gmt_profile_input in = { .metadata_json = meta, .surfaces = surf, .n_surfaces = n_surf,
                             .program_sources = srcs, .program_sources_size = srcs_size,
                             .initial = cap->initial, .stream = cap->cap->stream,
                             .stream_size = cap->cap->stream_size, .name = base ? base + 1 : cap->path };
    /* A mid-run capture: the pixels its snapshot keeps outside the state model (without them the
     * frame runs from blank images). */
    struct glr_restore *snap = NULL;
    gmf_content *contents = NULL;
    if (strstr(meta, "\"initial_state\":\"snapshot\"")) {
        char e2[256];
        if ((snap = glr_restore_load(cap->path, e2, sizeof e2)))
            contents = gmf_snapshot_content_list(snap, &in.n_contents);
        in.contents = contents;
    }
    gmt_profile *p = gmt_profile_run(&in, opt, err, err_size);
    free(srcs);
    free(contents);
    glr_restore_free(snap);
    free(surf);
    free(meta);
    return p;
}

/* ---------------------------------------------------------------- arguments */

static bool number(const cJSON *args, const char *key, double *out, bool *bad)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    if (!v)
        return false;
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1e15) {
        *bad = true;
        return false;
    }
    *out = v->valuedouble;
    return true;
}

int dap_profile_parse_args(const cJSON *args, gmt_profile_options *opt, char *err, size_t err_size)
{
    memset(opt, 0, sizeof *opt);
    bool bad = false;
    double v;
    const cJSON *b = cJSON_GetObjectItemCaseSensitive(args, "counters");
    if (b && !cJSON_IsBool(b)) {
        snprintf(err, err_size, "'counters' must be true or false");
        return -1;
    }
    opt->counters = cJSON_IsTrue(b);
    if (number(args, "counterMask", &v, &bad)) {
        opt->counter_mask = (uint64_t)v;
        opt->counters = true;
    }
    if (number(args, "pcSampling", &v, &bad)) {
        uint32_t p = (uint32_t)v;
        if (!p || (p & (p - 1)) || v != (double)p) {
            snprintf(err, err_size, "'pcSampling' must be a power of two");
            return -1;
        }
        opt->pc_period = p;
    }
    const cJSON *mode = cJSON_GetObjectItemCaseSensitive(args, "pcMode");
    if (mode) {
        if (!cJSON_IsString(mode) || (strcmp(mode->valuestring, "all") && strcmp(mode->valuestring, "round-robin"))) {
            snprintf(err, err_size, "'pcMode' must be \"round-robin\" or \"all\"");
            return -1;
        }
        opt->pc_all_warps = !strcmp(mode->valuestring, "all");
    }
    if (number(args, "seed", &v, &bad))
        opt->pc_seed = (uint64_t)v;
    if (number(args, "edges", &v, &bad)) {
        if (v < 1) {
            snprintf(err, err_size, "'edges' must be >= 1");
            return -1;
        }
        opt->edge_period = (uint32_t)v;
    }
    b = cJSON_GetObjectItemCaseSensitive(args, "edgesExact");
    opt->edge_exact = cJSON_IsTrue(b);
    const cJSON *tb = cJSON_GetObjectItemCaseSensitive(args, "traceBuffers");
    if (tb) {
        if (!cJSON_IsString(tb) || gmt_profile_parse_trace_types(opt, tb->valuestring, err, err_size) != 0) {
            if (!cJSON_IsString(tb))
                snprintf(err, err_size, "'traceBuffers' must be a string such as \"bb,mem\"");
            return -1;
        }
    }
    if (bad) {
        snprintf(err, err_size, "counterMask, pcSampling, seed and edges must be non-negative numbers");
        return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- per-session results */

static atomic_int next_id = 1;

struct dap_profile_store {
    int ids[KEEP_RESULTS];
    char *bodies[KEEP_RESULTS];   /* the answer's body as JSON text */
    int n;
    int *owned;                   /* every id this session ran (kept or dropped) */
    int n_owned;
};

void dap_profile_session_end(struct dap_session *s)
{
    struct dap_profile_store *st = s->profiles;
    if (!st)
        return;
    for (int i = 0; i < st->n; i++)
        free(st->bodies[i]);
    free(st->owned);
    free(st);
    s->profiles = NULL;
}

static int store(struct dap_session *s, int id, char *body)
{
    if (!s->profiles && !(s->profiles = calloc(1, sizeof *s->profiles)))
        return -1;
    struct dap_profile_store *st = s->profiles;
    int *no = realloc(st->owned, (size_t)(st->n_owned + 1) * sizeof *no);
    if (!no)
        return -1;
    st->owned = no;
    st->owned[st->n_owned++] = id;
    if (st->n == KEEP_RESULTS) {
        free(st->bodies[0]);
        memmove(&st->ids[0], &st->ids[1], (KEEP_RESULTS - 1) * sizeof st->ids[0]);
        memmove(&st->bodies[0], &st->bodies[1], (KEEP_RESULTS - 1) * sizeof st->bodies[0]);
        st->n--;
    }
    st->ids[st->n] = id;
    st->bodies[st->n++] = body;
    return 0;
}

static void fetch(struct dap_session *s, const cJSON *req, int id)
{
    const struct dap_profile_store *st = s->profiles;
    for (int i = 0; st && i < st->n; i++)
        if (st->ids[i] == id) {
            cJSON *b = cJSON_Parse(st->bodies[i]);
            if (!b)
                dap_respond(s, req, false, NULL, "out of memory");
            else
                dap_respond(s, req, true, b, NULL);
            return;
        }
    char msg[200];
    bool mine = false;
    for (int i = 0; st && i < st->n_owned; i++)
        mine |= st->owned[i] == id;
    if (mine)
        snprintf(msg, sizeof msg, "glreplay/profile: profile %d is no longer kept (a session keeps its last %d)", id,
                 KEEP_RESULTS);
    else if (id > 0 && id < atomic_load(&next_id))
        snprintf(msg, sizeof msg, "glreplay/profile: refused: profile %d belongs to another connection", id);
    else
        snprintf(msg, sizeof msg, "glreplay/profile: no profile %d", id);
    dap_respond(s, req, false, NULL, msg);
}

/* ---------------------------------------------------------------- the answer */

/* The shader id (dbg_capture) that a (context, program, stage) ran: the program's entry in the
 * capture, by context first, then by name alone (programs shared between contexts). */
static int shader_of(const struct dbg_capture *cap, uint32_t ctx, uint32_t program, int stage)
{
    if (stage < 0 || stage >= 6)
        return 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < cap->n_programs; i++) {
            const struct dbg_program *pr = &cap->programs[i];
            if (pr->name == program && (pass || pr->ctx_id == ctx) && pr->shader[stage] >= 0)
                return pr->shader[stage] + 1;
        }
    return 0;
}

const char *dap_profile_source(void *ctx, uint32_t ctx_id, uint32_t program, gm_stage stage, const char *file)
{
    (void)file;
    const struct dbg_capture *cap = ctx;
    const struct dbg_shader *sh = dbg_capture_shader(cap, shader_of(cap, ctx_id, program, (int)stage));
    return sh ? sh->source : NULL;
}

/* Per-line data an editor can show next to the source (decorations, a hotspot list): the
 * client-facing source (file path when a breakpoint file bound it, else sourceReference) and
 * line, with issued instructions, share of the frame, PC samples and their scheduler states. */
static cJSON *editor_lines(struct dap_session *s, const gmt_profile *p)
{
    const gmt_profile_line *lines;
    size_t n = gmt_profile_lines(p, &lines);
    uint64_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += lines[i].instructions;
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n && i < 2000; i++) {
        const gmt_profile_line *l = &lines[i];
        int sh = l->line > 0 ? shader_of(s->cap, l->ctx_id, l->program, l->stage) : 0;
        if (!sh)
            continue;
        int client_line = l->line;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddItemToObject(o, "source", dap_source_json(s, sh, l->line, &client_line));
        cJSON_AddNumberToObject(o, "line", client_line);
        cJSON_AddNumberToObject(o, "shader", sh);
        cJSON_AddNumberToObject(o, "shaderLine", l->line);
        cJSON_AddNumberToObject(o, "instructions", (double)l->instructions);
        cJSON_AddNumberToObject(o, "share", total ? (double)l->instructions / (double)total : 0.0);
        cJSON_AddNumberToObject(o, "lanesPerInstruction",
                                l->instructions ? (double)l->lanes / (double)l->instructions : 0.0);
        cJSON_AddNumberToObject(o, "samples", (double)l->samples);
        cJSON *r = cJSON_AddObjectToObject(o, "reasons");
        for (int k = 0; k < GM_STALL_COUNT; k++)
            if (l->reasons[k])
                cJSON_AddNumberToObject(r, gm_stall_name((gm_stall)k), (double)l->reasons[k]);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* One run on its own thread (the server's I/O thread keeps serving every connection). The
 * session is marked running for the duration, like a pass of the debugger: it is not freed
 * while the job runs, and other passes wait. */
struct job {
    struct dap_session *s;
    cJSON *req;
    gmt_profile_options opt;
    bool chrome;
};

static void answer(struct dap_session *s, const cJSON *req, gmt_profile *p, cJSON *prof, cJSON *trace,
                   const char *err)
{
    if (!p || !prof) {
        char msg[600];
        snprintf(msg, sizeof msg, "glreplay/profile: %s", p ? "out of memory" : err);
        dap_respond(s, req, false, NULL, msg);
        cJSON_Delete(prof);
        cJSON_Delete(trace);
        return;
    }
    int id = atomic_fetch_add(&next_id, 1);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "id", id);
    cJSON_AddItemToObject(b, "profile", prof);
    cJSON_AddItemToObject(b, "lines", editor_lines(s, p));
    if (trace)
        cJSON_AddItemToObject(b, "chromeTrace", trace);
    char *text = cJSON_PrintUnformatted(b);
    if (!text || store(s, id, text) != 0) {
        free(text);
        cJSON_Delete(b);
        dap_respond(s, req, false, NULL, "glreplay/profile: out of memory");
        return;
    }
    dap_respond(s, req, true, b, NULL);
}

static void *worker(void *arg)
{
    struct job *j = arg;
    struct dap_session *s = j->s;
    char err[512] = "";
    /* s->cap is immutable while the session lives (and the session lives while running). */
    gmt_profile *p = dap_profile_capture(s->cap, &j->opt, err, sizeof err);
    cJSON *prof = p ? gmt_profile_to_json(p) : NULL;
    cJSON *trace = p && j->chrome ? gmt_profile_chrome_trace(p) : NULL;
    pthread_mutex_t *lock = s->host.lock;   /* the server's: outlives the session */
    pthread_mutex_lock(lock);
    if (!s->closing) {
        answer(s, j->req, p, prof, trace, err);
    } else {
        cJSON_Delete(prof);
        cJSON_Delete(trace);
    }
    dap_session_job_done(s);
    pthread_mutex_unlock(lock);
    gmt_profile_destroy(p);
    cJSON_Delete(j->req);
    free(j);
    return NULL;
}

void dap_profile_request(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const cJSON *idv = cJSON_GetObjectItemCaseSensitive(args, "id");
    if (idv) {
        if (!cJSON_IsNumber(idv) || idv->valuedouble != (double)(int)idv->valuedouble)
            dap_respond(s, req, false, NULL, "glreplay/profile: 'id' must be an integer");
        else
            fetch(s, req, (int)idv->valuedouble);
        return;
    }
    struct job *j = calloc(1, sizeof *j);
    char err[512];
    if (!j) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    if (dap_profile_parse_args(args, &j->opt, err, sizeof err) != 0) {
        char msg[600];
        snprintf(msg, sizeof msg, "glreplay/profile: %s", err);
        dap_respond(s, req, false, NULL, msg);
        free(j);
        return;
    }
    if (s->running) {
        dap_respond(s, req, false, NULL,
                    "glreplay/profile: the GPU model is busy with a pass or another profile of this session; retry when it ends");
        free(j);
        return;
    }
    j->s = s;
    j->chrome = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "chromeTrace"));
    j->req = cJSON_Duplicate(req, true);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->running = true;
    int rc = j->req ? pthread_create(&t, &attr, worker, j) : -1;
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->running = false;
        cJSON_Delete(j->req);
        free(j);
        dap_respond(s, req, false, NULL, "glreplay/profile: cannot start a thread");
    }
}
