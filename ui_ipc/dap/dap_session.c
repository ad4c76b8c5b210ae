/* DAP session, the router: the protocol's state machine, breakpoints, and each request sent to
 * its handler (see dap_session.h). Passes and their results are in dap_pass.c, which reaches the
 * handlers through the hooks installed here; inspection requests (threads, stackTrace, scopes,
 * variables, evaluate) are in dap_inspect.c, custom glreplay/... requests in dap_custom.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shadow/shadow.h"
#include "debugger/dbg_bind.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_engine.h"
#include "debugger/dbg_eval.h"
#include "ui_ipc/dap/dap_history.h"
#include "ui_ipc/dap/dap_session_internal.h"
#include "ui_ipc/dap/dap_wire.h"

/* ---------------------------------------------------------------- lifetime */

/* The request handlers' part of a session's end (dap_pass.c frees the rest). */
static void handlers_free(struct dap_session *s)
{
#ifdef GLR_HAVE_PROFILE
    dap_profile_session_end(s);
#endif
    dap_feat_free(s);
    dap_inspect_reset(s);
    dap_history_free(s->hist);
    s->hist = NULL;
#ifdef GLR_HAVE_PIXEL
    dap_pixel_feed_free(s->pixel_feed);
    s->pixel_feed = NULL;
#endif
}

struct dap_session *dap_session_new(struct dbg_capture *cap, struct dbg_runner *runner,
                                    const struct glr_dap_options *opt, const struct dap_session_host *host, void *conn)
{
    struct dap_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cap = cap;
    s->runner = runner;
    s->host = *host;
    s->hooks = (struct dap_pass_hooks){
        .view_reset = dap_inspect_reset,
        .history_clear = dap_history_clear,
        .park_done = dap_park_done,
        .is_function_bp = dap_feat_is_function_bp,
        .is_instruction_bp = dap_feat_is_instruction_bp,
        .stopped = dap_history_stopped,
        .exception_stopped = dap_feat_exception_stopped,
        .reverse = dap_history_reverse,
        .handlers_free = handlers_free,
        .redispatch = dap_session_message,
    };
    s->conn = conn;
    s->log_limit = opt && opt->log_limit > 0 ? opt->log_limit : 20;
    s->in_process = opt && opt->in_process;
    s->model_pass_started = opt ? opt->model_pass_started : NULL;
    s->store = sh_store_new(opt ? opt->snapshot_budget : 0);
    s->next_bp_id = 1;
    atomic_init(&s->pause, 0);
    if (!s->store) {
        free(s);
        return NULL;
    }
    return s;
}






bool dap_session_busy(const struct dap_session *s)
{
    return s->running || s->reading;
}

bool dap_session_configured(const struct dap_session *s)
{
    return s->configured;
}

void dap_session_timeout(struct dap_session *s, const char *why)
{
    char text[300];
    snprintf(text, sizeof text, "glreplay: %s\n", why);
    dap_output(s, "stderr", text);
    if (!s->terminated) {
        s->terminated = true;
        dap_event(s, "terminated", NULL);
    }
}

void dap_session_release(struct dap_session *s)
{
    s->closing = true;
    atomic_store(&s->pause, 1);   /* a running pass stops collecting; the worker frees us */
    if (!s->running && !s->reading)
        dap_session_free(s);
}


/* ---------------------------------------------------------------- breakpoints */

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool jint(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valuedouble;
    return true;
}

static struct dap_src *source_for(struct dap_session *s, const char *key)
{
    for (int i = 0; i < s->n_sources; i++)
        if (!strcmp(s->sources[i].key, key))
            return &s->sources[i];
    struct dap_src *n = realloc(s->sources, (size_t)(s->n_sources + 1) * sizeof *n);
    if (!n)
        return NULL;
    s->sources = n;
    struct dap_src *src = &s->sources[s->n_sources++];
    memset(src, 0, sizeof *src);
    src->key = strdup(key);
    return src;
}

/* The file text of a breakpoint source is bound to the capture's shaders (or why not). */
static int bind_text(struct dap_session *s, const char *text, const char *read_why, struct dbg_binding *binds,
                     const char **why)
{
    if (!text) {
        *why = read_why;
        return 0;
    }
    int n = dbg_bind_text(s->cap, text, binds, DAP_MAX_BINDINGS);
    if (n > DAP_MAX_BINDINGS)
        n = DAP_MAX_BINDINGS;
    if (!n)
        *why = "no shader of the capture contains this file's text";
    return n;
}

static void set_breakpoints_bound(struct dap_session *s, const cJSON *req, const cJSON *args, const char *key,
                                  const char *path, double ref, const struct dbg_binding *binds, int n_binds,
                                  const char *why);

/* A breakpoint file is read on a thread of its own: a file on a slow or hung mount must not stop
 * the server's only I/O thread (dbg_read_source already refuses FIFOs and devices without
 * blocking). The session's later messages are held meanwhile, so the client's order is kept. */
struct source_read {
    struct dap_session *s;
    cJSON *req;
    char path[];
};

static void *read_source_main(void *arg)
{
    struct source_read *r = arg;
    struct dap_session *s = r->s;
    char why[200] = "";
    char *text = dbg_read_source(r->path, why, sizeof why);
    pthread_mutex_t *lock = s->host.lock;
    pthread_mutex_lock(lock);
    s->reading = false;
    if (s->closing) {
        if (!s->running)
            dap_session_free(s);
    } else {
        const cJSON *args = cJSON_GetObjectItemCaseSensitive(r->req, "arguments");
        char key[4200];
        snprintf(key, sizeof key, "path:%s", r->path);
        struct dbg_binding binds[DAP_MAX_BINDINGS];
        const char *bwhy = NULL;
        int n = bind_text(s, text, why, binds, &bwhy);
        set_breakpoints_bound(s, r->req, args, key, r->path, 0, binds, n, bwhy);
        /* The messages that arrived meanwhile, in order (one of them may start another read). */
        while (!s->reading && !s->closing && s->held && cJSON_GetArraySize(s->held) > 0)
            dap_session_message(s, cJSON_DetachItemFromArray(s->held, 0));
        s->host.wake(s->host.server);
    }
    pthread_mutex_unlock(lock);
    free(text);
    cJSON_Delete(r->req);
    free(r);
    return NULL;
}

/* Takes ownership of req when it returns true (the answer comes from the reader thread). */
static bool read_source_async(struct dap_session *s, cJSON *req, const char *path)
{
    size_t n = strlen(path);
    struct source_read *r = malloc(sizeof *r + n + 1);
    if (!r)
        return false;
    r->s = s;
    r->req = req;
    memcpy(r->path, path, n + 1);
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->reading = true;
    int rc = pthread_create(&t, &attr, read_source_main, r);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->reading = false;
        free(r);
        return false;
    }
    return true;
}

/* Returns true if it took ownership of req (answered later, off the I/O thread). */
static bool set_breakpoints(struct dap_session *s, cJSON *req, const cJSON *args)
{
    const cJSON *source = cJSON_GetObjectItemCaseSensitive(args, "source");
    if (!cJSON_IsObject(source)) {
        dap_respond(s, req, false, NULL, "setBreakpoints: missing 'source'");
        return false;
    }
    if (s->running) {
        /* The running pass reads the breakpoints: changing them now would race with it. */
        dap_respond(s, req, false, NULL, "setBreakpoints: a pass of the GPU model is running; pause first");
        return false;
    }
    const char *path = jstr(source, "path");
    double ref = 0;
    jint(source, "sourceReference", &ref);
    char key[4200];
    struct dbg_binding binds[DAP_MAX_BINDINGS];
    int n_binds = 0;
    const char *why = NULL;
    if (ref > 0) {
        const struct dbg_shader *sh = dbg_capture_shader(s->cap, (int)ref);
        snprintf(key, sizeof key, "ref:%d", (int)ref);
        if (sh) {
            binds[0] = (struct dbg_binding){ sh->id, 0, sh->line_count };
            n_binds = 1;
        } else {
            why = "unknown sourceReference";
        }
    } else if (path) {
        snprintf(key, sizeof key, "path:%s", path);
        /* A shader's own display name (a source served by reference) binds to that shader. */
        for (int i = 0; i < s->cap->n_shaders && !n_binds; i++)
            if (!strcmp(s->cap->shaders[i].name, path))
                binds[n_binds++] = (struct dbg_binding){ s->cap->shaders[i].id, 0, s->cap->shaders[i].line_count };
        if (!n_binds) {
            if (read_source_async(s, req, path))
                return true;
            /* No thread: read here (bounded for regular files, FIFOs and devices refused). */
            char read_why[200] = "";
            char *text = dbg_read_source(path, read_why, sizeof read_why);
            n_binds = bind_text(s, text, read_why, binds, &why);
            free(text);
            set_breakpoints_bound(s, req, args, key, path, ref, binds, n_binds, why);
            return false;
        }
    } else {
        dap_respond(s, req, false, NULL, "setBreakpoints: source has neither path nor sourceReference");
        return false;
    }
    set_breakpoints_bound(s, req, args, key, path, ref, binds, n_binds, why);
    return false;
}

static void set_breakpoints_bound(struct dap_session *s, const cJSON *req, const cJSON *args, const char *key,
                                  const char *path, double ref, const struct dbg_binding *binds, int n_binds,
                                  const char *why)
{
    struct dap_src *src = source_for(s, key);
    if (!src || !src->key) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    for (int b = 0; b < src->n_bps; b++) {
        free(src->bps[b].condition);
        free(src->bps[b].log_message);
    }
    free(src->bps);
    src->bps = NULL;
    src->n_bps = 0;
    /* A shader this file is now bound to gains a path: tell the client (loadedSource changed). */
    cJSON *before[DAP_MAX_BINDINGS] = { 0 };
    for (int k = 0; k < n_binds; k++) {
        const struct dbg_shader *sh = dbg_capture_shader(s->cap, binds[k].shader);
        before[k] = sh ? dap_shader_source_json(s, sh) : NULL;
    }
    free(src->path);
    src->path = path && ref <= 0 ? strdup(path) : NULL;
    memcpy(src->binds, binds, (size_t)n_binds * sizeof *binds);
    src->n_binds = n_binds;
    for (int k = 0; k < n_binds; k++) {
        const struct dbg_shader *sh = dbg_capture_shader(s->cap, binds[k].shader);
        /* Before configurationDone the sources are not announced yet (begin() does it). */
        cJSON *now = sh && s->configured ? dap_shader_source_json(s, sh) : NULL;
        if (before[k] && now && !cJSON_Compare(before[k], now, true)) {
            cJSON_Delete(before[k]);
            cJSON *b = cJSON_CreateObject();
            cJSON_AddStringToObject(b, "reason", "changed");
            cJSON_AddItemToObject(b, "source", now);
            dap_event(s, "loadedSource", b);
        } else {
            cJSON_Delete(before[k]);
            cJSON_Delete(now);
        }
    }

    const cJSON *list = cJSON_GetObjectItemCaseSensitive(args, "breakpoints");
    int count = cJSON_IsArray(list) ? cJSON_GetArraySize(list) : 0;
    src->bps = calloc((size_t)count + 1, sizeof *src->bps);
    cJSON *body = cJSON_CreateObject();
    cJSON *out = cJSON_AddArrayToObject(body, "breakpoints");
    const cJSON *bp;
    cJSON_ArrayForEach(bp, list) {
        if (!src->bps)
            break;
        struct dap_src_bp *e = &src->bps[src->n_bps++];
        e->id = s->next_bp_id++;
        double line = 0;
        jint(bp, "line", &line);
        e->line = (int)line;
        const char *cond = jstr(bp, "condition"), *hc = jstr(bp, "hitCondition"), *lm = jstr(bp, "logMessage");
        e->condition = cond && *cond ? strdup(cond) : NULL;
        e->log_message = lm ? strdup(lm) : NULL;
        char msg[256] = "";
        bool verified = false;
        int shown_line = e->line;
        char cerr[160] = "";
        if (e->line < 1) {
            snprintf(msg, sizeof msg, "line %d: lines start at 1", e->line);
        } else if (e->condition && dbg_eval_syntax(e->condition, cerr, sizeof cerr) != 0) {
            /* A condition that cannot parse would never stop: refuse it now, with the error. */
            snprintf(msg, sizeof msg, "condition '%.60s': %s", e->condition, cerr);
        } else if (hc && !dbg_parse_hit_condition(hc, &e->hit_op, &e->hit_n)) {
            snprintf(msg, sizeof msg, "hit condition '%.60s' not understood (use N, == N, = N, >= N, > N, <= N, < N or %% N)", hc);
        } else if (why) {
            snprintf(msg, sizeof msg, "%s", why);
        } else {
            for (int k = 0; k < n_binds && e->n_locs < DAP_MAX_BINDINGS; k++) {
                const struct dbg_shader *sh = dbg_capture_shader(s->cap, binds[k].shader);
                char m2[256];
                int at = dbg_bind_line(sh, e->line + binds[k].offset, binds[k].offset + binds[k].file_lines, m2,
                                       sizeof m2);
                if (!at) {
                    if (!msg[0])
                        snprintf(msg, sizeof msg, "%s", m2);
                    continue;
                }
                if (!verified)
                    shown_line = at - binds[k].offset;
                verified = true;
                e->loc_shader[e->n_locs] = sh->id;
                e->loc_line[e->n_locs++] = at;
            }
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", e->id);
        cJSON_AddBoolToObject(o, "verified", verified);
        cJSON_AddNumberToObject(o, "line", verified ? shown_line : e->line);
        if (verified && n_binds > 1) {
            snprintf(msg, sizeof msg, "bound to %d shaders", e->n_locs);
        }
        if (msg[0])
            cJSON_AddStringToObject(o, "message", msg);
        if (!verified)
            e->n_locs = 0;
        cJSON_AddItemToArray(out, o);
    }
    dap_respond(s, req, true, body, NULL);
    /* While the frame is idle (no stop), new breakpoints run it again. */
    if (s->configured && !s->stopped && !s->running && count > 0 && !s->terminated && !dap_nothing_to_stop(s)) {
        /* The client was told it stopped (at the frame's end): no request of its own said the
         * frame goes on, so `continued` does (DAP: ContinuedEvent). */
        if (dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT) == 0)
            dap_session_continued(s);
    }
}

/* ---------------------------------------------------------------- requests */

static cJSON *capabilities(void)
{
    cJSON *c = cJSON_CreateObject();
    static const char *yes[] = { "supportsConfigurationDoneRequest", "supportsHitConditionalBreakpoints",
                                 "supportsConditionalBreakpoints", "supportsLogPoints", "supportsLoadedSourcesRequest",
                                 "supportsEvaluateForHovers", "supportsTerminateRequest", "supportsReadMemoryRequest",
                                 "supportsBreakpointLocationsRequest", "supportsCompletionsRequest",
                                 "supportsRestartRequest", "supportsStepBack" };
    for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
        cJSON_AddBoolToObject(c, yes[i], true);
    cJSON_AddBoolToObject(c, "supportsExceptionInfoRequest", true);
    cJSON_AddBoolToObject(c, "supportsExceptionFilterOptions", true);
    cJSON_AddBoolToObject(c, "supportsFunctionBreakpoints", true);
    cJSON_AddBoolToObject(c, "supportsDisassembleRequest", true);
    cJSON_AddBoolToObject(c, "supportsInstructionBreakpoints", true);
    cJSON_AddBoolToObject(c, "supportsSteppingGranularity", true);
    cJSON_AddBoolToObject(c, "supportsSetVariable", true);
    cJSON_AddBoolToObject(c, "supportsSetExpression", true);
    cJSON_AddItemToObject(c, "exceptionBreakpointFilters", dbg_exc_filters_json());
    return c;
}

bool dap_session_set_vertex(struct dap_session *s, const cJSON *vertex, char *err, size_t err_size)
{
#ifdef GLR_HAVE_PIXEL
    if (dap_vertex_resolve(s->cap, vertex, &s->pixel, err, err_size) != 0)
        return false;
    s->pixel_pending = true;
    return true;
#else
    (void)s;
    (void)vertex;
    snprintf(err, err_size, "vertex: not available: this server is built without the pixel history engine");
    return false;
#endif
}

bool dap_session_set_pixel(struct dap_session *s, const cJSON *pixel, char *err, size_t err_size)
{
#ifdef GLR_HAVE_PIXEL
    struct dap_pixel_req rq;
    if (!dap_pixel_parse(pixel, &rq, err, err_size))
        return false;
    rq.driver = !s->in_process;   /* no driver replay inside the program */
    struct pxh_pass_feed *feed = NULL;
    rq.pass_feed = &feed;
    if (dap_pixel_resolve(s->cap, &rq, &s->pixel, err, err_size) != 0) {
        dap_pixel_feed_free(feed);
        return false;
    }
    dap_pixel_feed_free(s->pixel_feed);
    s->pixel_feed = feed;
    s->pixel_pending = true;
    return true;
#else
    (void)s;
    (void)pixel;
    snprintf(err, err_size, "pixel: not available: this server is built without the pixel history engine");
    return false;
#endif
}

/* Whether the thread a step names (threadId; 1 when absent) can step; sets s->step_thread.
 * Thread t >= 2 is resident warp t-2: the step replays the frame to that warp's last
 * instruction and follows its focused lane; the stop it reaches is thread 1 of the new stop. */
static bool step_thread_ok(struct dap_session *s, const cJSON *args)
{
    const cJSON *jt = cJSON_GetObjectItemCaseSensitive(args, "threadId");
    int t = cJSON_IsNumber(jt) && jt->valuedouble >= 1 && jt->valuedouble < 1e6 ? (int)jt->valuedouble : 1;
    if (cJSON_IsNumber(jt) && jt->valuedouble != t)
        return false;
    if (t != 1 && (t - 2 >= s->n_others || !s->other_key_ok || !s->other_key_ok[t - 2]))
        return false;
    s->step_thread = t;
    return true;
}

/* launch: the server already serves one capture (glreplay dap CAPTURE, or the program's own
 * socket), so a `program` that is a capture file must be that capture; any other `program` is
 * the executable the editor started under the shim (the VS Code extension's `glreplay run --
 * PROGRAM`), whose socket this is. noDebug runs the frame once without stopping. */
static bool launch_args(struct dap_session *s, const cJSON *args, char *why, size_t n)
{
    const char *program = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "program"));
    size_t plen = program ? strlen(program) : 0;
    if (plen > 6 && !strcmp(program + plen - 6, ".glcap")) {
        char *a = realpath(program, NULL), *b = realpath(s->cap->path, NULL);
        bool same = a && b ? !strcmp(a, b) : !strcmp(program, s->cap->path);
        free(a);
        free(b);
        if (!same) {
            snprintf(why, n, "launch: this server serves %.120s, not %.120s (start `glreplay dap` on that capture)",
                     s->cap->path, program);
            return false;
        }
    }
    s->no_debug = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "noDebug"));
    return true;
}

/* restart: the frame runs again from its start with the current breakpoints. */
static void restart(struct dap_session *s, const cJSON *req)
{
    if (!s->configured || s->terminated) {
        dap_respond(s, req, false, NULL, "restart: not configured, or terminated");
        return;
    }
    if (s->running) {
        dap_respond(s, req, false, NULL, "restart: the frame is running; pause first");
        return;
    }
    dap_respond(s, req, true, NULL, NULL);
    if (s->snap)
        sh_snapshot_unref(s->snap);
    s->snap = NULL;
    dap_session_drop_others(s);
    dap_inspect_reset(s);
    dap_history_clear(s);
    s->have_key = false;
    s->pos_seq = 0;
    s->pos_partial = false;
    s->pos_lane = 0;
    if (dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT) != 0)
        dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
}

static void begin(struct dap_session *s)
{
    if (s->pending_attach) {
        dap_respond(s, s->pending_attach, true, NULL, NULL);
        cJSON_Delete(s->pending_attach);
        s->pending_attach = NULL;
    }
    char line[512];
    snprintf(line, sizeof line, "glreplay: %s: %d draws, %d shaders; runner: %s\n", s->cap->path, s->cap->n_draws,
             s->cap->n_shaders, s->runner->name);
    dap_output(s, "console", line);
    dap_loaded_source_events(s, "new", 0);   /* the capture's shaders are known from here */
    int n = 0;
    for (int i = 0; i < s->n_sources; i++)
        n += s->sources[i].n_bps;
    if (!dap_nothing_to_stop(s))
        dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT);
    else   /* a client shows "running" until told otherwise: the frame's end, where it would end */
        dap_stop_at_end(s, n || s->n_fn_bps ? "no breakpoint is bound to a line of the capture's shaders: the frame has "
                                          "nothing to stop at"
                                        : "no breakpoints: nothing to stop at in the frame", false);
}

void dap_session_bad_message(struct dap_session *s, const char *why)
{
    cJSON *fake = cJSON_CreateObject();
    cJSON_AddStringToObject(fake, "command", "unknown");
    char msg[300];
    snprintf(msg, sizeof msg, "malformed message: %s", why);
    dap_respond(s, fake, false, NULL, msg);
    cJSON_Delete(fake);
}

void dap_session_message(struct dap_session *s, cJSON *msg)
{
    if (s->reading || s->parking) {
        /* A breakpoint file is being read, or the model goes back to the stop (dap_park.c):
         * answer in the client's order once it is bound or there. */
        if (s->parking)
            dap_park_hold(s, msg);
        if (!s->held)
            s->held = cJSON_CreateArray();
        if (s->held)
            cJSON_AddItemToArray(s->held, msg);
        else
            cJSON_Delete(msg);
        return;
    }
    const char *type = jstr(msg, "type");
    const char *cmd = jstr(msg, "command");
    const cJSON *seq = cJSON_GetObjectItemCaseSensitive(msg, "seq");
    if (!type || strcmp(type, "request") != 0) {
        /* Responses to reverse requests and events from the client: none are expected. */
        if (!type || (strcmp(type, "response") && strcmp(type, "event")))
            dap_session_bad_message(s, "'type' must be \"request\", \"response\" or \"event\"");
        cJSON_Delete(msg);
        return;
    }
    if (!cmd || !cJSON_IsNumber(seq)) {
        dap_respond(s, msg, false, NULL, "malformed request: 'command' (string) and 'seq' (number) are required");
        cJSON_Delete(msg);
        return;
    }
    cJSON *args = cJSON_GetObjectItemCaseSensitive(msg, "arguments");
    if (args && !cJSON_IsObject(args)) {
        dap_respond(s, msg, false, NULL, "malformed request: 'arguments' must be an object");
        cJSON_Delete(msg);
        return;
    }
    if (!s->initialized && strcmp(cmd, "initialize") != 0 && strcmp(cmd, "disconnect") != 0) {
        dap_respond(s, msg, false, NULL, "the first request must be 'initialize'");
        cJSON_Delete(msg);
        return;
    }
    if (!strcmp(cmd, "initialize")) {
        if (s->initialized) {
            dap_respond(s, msg, false, NULL, "already initialized");
        } else {
            s->initialized = true;
            dap_respond(s, msg, true, capabilities(), NULL);
            dap_event(s, "initialized", NULL);
        }
    } else if (!strcmp(cmd, "attach") || !strcmp(cmd, "launch")) {
        char perr[400];
        const cJSON *px = cJSON_GetObjectItemCaseSensitive(args, "pixel");
        const cJSON *vx = cJSON_GetObjectItemCaseSensitive(args, "vertex");
        if (s->attached) {
            dap_respond(s, msg, false, NULL, "already attached");
        } else if (cmd[0] == 'l' && !launch_args(s, args, perr, sizeof perr)) {
            dap_respond(s, msg, false, NULL, perr);
        } else if (px && vx) {
            dap_respond(s, msg, false, NULL, "'pixel' and 'vertex' cannot both start the session");
        } else if (px && !dap_session_set_pixel(s, px, perr, sizeof perr)) {
            dap_respond(s, msg, false, NULL, perr);
        } else if (vx && !dap_session_set_vertex(s, vx, perr, sizeof perr)) {
            dap_respond(s, msg, false, NULL, perr);
        } else {
            s->attached = true;
            if (s->configured) {
                dap_respond(s, msg, true, NULL, NULL);
            } else {
                s->pending_attach = msg;   /* answered after configurationDone */
                msg = NULL;
            }
        }
    } else if (!strcmp(cmd, "setBreakpoints")) {
        if (set_breakpoints(s, msg, args))
            msg = NULL;   /* answered by the reader thread */
    } else if (!strcmp(cmd, "setDataBreakpoints")) {
        cJSON *b = cJSON_CreateObject();
        cJSON *arr = cJSON_AddArrayToObject(b, "breakpoints");
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(args, "breakpoints");
        for (int i = 0; cJSON_IsArray(list) && i < cJSON_GetArraySize(list); i++) {
            cJSON *o = cJSON_CreateObject();
            cJSON_AddBoolToObject(o, "verified", false);
            cJSON_AddStringToObject(o, "message", "only shader source lines can have breakpoints");
            cJSON_AddItemToArray(arr, o);
        }
        dap_respond(s, msg, true, b, NULL);
    } else if (!strcmp(cmd, "configurationDone")) {
        if (s->configured) {
            dap_respond(s, msg, false, NULL, "configurationDone was already sent");
        } else {
            s->configured = true;
            dap_respond(s, msg, true, NULL, NULL);
            begin(s);
        }
    } else if (!strcmp(cmd, "continue") || !strcmp(cmd, "next") || !strcmp(cmd, "stepIn") ||
               !strcmp(cmd, "stepOut")) {
        if (s->running) {
            dap_respond(s, msg, false, NULL, "the frame is already running");
        } else if (cmd[0] != 'c' && !s->stopped) {
            dap_respond(s, msg, false, NULL, "not stopped: nothing to step");
        } else if (cmd[0] != 'c' && !step_thread_ok(s, args)) {
            /* A thread that does not exist, or a resident warp of an earlier draw (no replay
             * position known): refused rather than stepping thread 1. */
            dap_respond(s, msg, false, NULL,
                        "this thread cannot step: threads are 1 (the stopped warp) and the resident warps of its draw "
                        "(threads change at every stop)");
        } else if (cmd[0] == 'c' && s->snap && s->pos_partial && dap_park_first(s, msg)) {
            /* held: handled again once a full run is parked at the stop (its position counted) */
        } else {
            cJSON *b = NULL;
            if (cmd[0] == 'c') {
                b = cJSON_CreateObject();
                cJSON_AddBoolToObject(b, "allThreadsContinued", true);
            }
            dap_respond(s, msg, true, b, NULL);
            enum dbg_step st = !strcmp(cmd, "stepIn") ? DBG_STEP_IN : !strcmp(cmd, "stepOut") ? DBG_STEP_OUT : DBG_STEP_NEXT;
            /* granularity "instruction" (the Disassembly view): next/stepIn go one IR instruction. */
            const char *gran = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "granularity"));
            if (st != DBG_STEP_OUT && gran && !strcmp(gran, "instruction"))
                st = DBG_STEP_INSTRUCTION;
            /* A kept stop this step led to before (after a step back) is shown as it was. */
            bool kept = cmd[0] != 'c' && s->step_thread == 1 && dap_history_forward(s, st);
            if (cmd[0] == 'c' && !s->snap && dap_nothing_to_stop(s))
                dap_stop_at_end(s, "nothing to stop at: no breakpoint is bound, no exception filter is set", false);
            else if (!kept && dap_start_pass(s, cmd[0] == 'c' ? (s->snap ? DAP_PASS_CONTINUE : DAP_PASS_RUN) : DAP_PASS_STEP, st) != 0)
                dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
        }
    } else if (!strcmp(cmd, "pause")) {
        dap_respond(s, msg, true, NULL, NULL);
        if (s->running) {
            atomic_store(&s->pause, 1);
        } else if (!s->stopped && s->configured) {
            atomic_store(&s->pause, 1);
            dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT);
        }
    } else if (!strcmp(cmd, "disconnect") || !strcmp(cmd, "terminate")) {
        dap_respond(s, msg, true, NULL, NULL);
        if (cmd[0] == 't') {
            s->terminated = true;
            dap_event(s, "terminated", NULL);
        } else {
            s->host.close_after_flush(s->conn);
        }
        atomic_store(&s->pause, 1);
    } else if (!strcmp(cmd, "restart")) {
        restart(s, msg);
    } else if (!dap_history_request(s, cmd, msg, args) && !dap_inspect_request(s, cmd, msg, args) &&
               !dap_protocol_extra_request(s, cmd, msg, args) && !dap_feat_request(s, cmd, msg, args) &&
               !dap_warp_eval_request(s, cmd, msg, args) && !dap_setvar_request(s, cmd, msg, args) &&
               !dap_custom_request(s, cmd, msg, args)) {
        char m[200];
        snprintf(m, sizeof m, "unsupported request '%.100s'", cmd);
        dap_respond(s, msg, false, NULL, m);
    }
    cJSON_Delete(msg);
}
