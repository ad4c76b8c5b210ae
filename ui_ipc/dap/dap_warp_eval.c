/* The whole warp at once, and the whole frame (issue 15 §6):
 *
 *  - glreplay/evaluateWarp {expression, frameId?, threadId?}: the expression on every lane of the
 *    stopped warp (or of resident warp threadId), one row per lane with its state (active,
 *    inactive, finished, discarded; helper), its pixel or invocation, and the value or the error.
 *    Names resolve as in `evaluate` with that frameId (the frame's function's locals first).
 *  - glreplay/heatmap {source|shader, line, expression, component?, min?, max?, draw?}: runs the
 *    frame once in the model and records, for every fragment that reaches `line` of a fragment
 *    shader (each arrival, as a logpoint there would count it; the last one at a pixel wins, so
 *    later draws cover earlier ones), the expression's value there; answers a PNG heat map of
 *    the frame (values from min to max, default the range seen, on a blue-green-yellow ramp;
 *    pixels no fragment reached are transparent, NaN is magenta, infinities red/white) and the
 *    numbers (range, fragments, pixels, NaNs). The pass runs on a worker thread like a debugger
 *    pass (the session is busy meanwhile).
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/glcap_file.h"
#include "replay/player/player.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_eval.h"
#include "debugger/dbg_heatmap.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define FRAME_STRIDE 1024   /* frame ids, as dap_inspect.c numbers them */

static const char *lane_state(const sh_header *h, int l)
{
    if ((h->killed >> l) & 1)
        return "discarded";
    if (!((h->alive >> l) & 1))
        return (h->helper >> l) & 1 ? "inactive" : "finished";
    return (h->active >> l) & 1 ? "active" : "inactive";
}

static void evaluate_warp(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const char *expr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "expression"));
    if (!expr) {
        dap_respond(s, req, false, NULL, "glreplay/evaluateWarp: 'expression' (string) is required");
        return;
    }
    if (!s->stopped || !s->snap) {
        dap_respond(s, req, false, NULL, "glreplay/evaluateWarp: not stopped in a warp");
        return;
    }
    const sh_snapshot *snap = s->snap;
    int thread = 1;
    const cJSON *jt = cJSON_GetObjectItemCaseSensitive(args, "threadId");
    const cJSON *fid = cJSON_GetObjectItemCaseSensitive(args, "frameId");
    if (cJSON_IsNumber(fid) && fid->valuedouble >= 1 && fid->valuedouble < 1e9)
        thread = 1 + ((int)fid->valuedouble - 1) / FRAME_STRIDE;
    if (cJSON_IsNumber(jt))
        thread = jt->valuedouble >= 1 && jt->valuedouble < 1e6 ? (int)jt->valuedouble : -1;
    if (thread != 1) {
        if (thread < 2 || thread - 2 >= s->n_others) {
            dap_respond(s, req, false, NULL, "glreplay/evaluateWarp: unknown thread");
            return;
        }
        snap = s->others[thread - 2];
    }
    const char *function = NULL;
    if (cJSON_IsNumber(fid)) {
        const sh_frame *f = fid->valuedouble >= 1 && fid->valuedouble < 1e9
                                ? sh_snapshot_frame(snap, ((int)fid->valuedouble - 1) % FRAME_STRIDE) : NULL;
        if (!f) {
            dap_respond(s, req, false, NULL, "glreplay/evaluateWarp: unknown frameId");
            return;
        }
        function = f->function;
    }
    const sh_header *h = sh_snapshot_header(snap);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "expression", expr);
    cJSON_AddStringToObject(b, "warp", sh_snapshot_title(snap));
    cJSON_AddNumberToObject(b, "focusLane", h->focus_lane);
    cJSON *rows = cJSON_AddArrayToObject(b, "lanes");
    int ok = 0;
    struct dap_sample_ctx sc = { s, snap, false };   /* texture functions through the model (dap_inspect.c) */
    struct dbg_eval_env env = { dap_sample_at_stop, &sc };
    for (int l = 0; l < SH_LANES; l++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "lane", l);
        cJSON_AddStringToObject(r, "state", lane_state(h, l));
        cJSON_AddBoolToObject(r, "helper", (h->helper >> l) & 1);
        if (h->lane_pos_known) {
            cJSON_AddNumberToObject(r, "x", h->lane_x[l]);
            cJSON_AddNumberToObject(r, "y", h->lane_y[l]);
        }
        char text[512], type[96] = "";
        if (dbg_eval_frame_env(snap, l, function, expr, &env, text, sizeof text, type, sizeof type) == 0) {
            cJSON_AddStringToObject(r, "value", text);
            cJSON_AddStringToObject(r, "type", type);
            ok++;
        } else {
            cJSON_AddStringToObject(r, "error", text);
        }
        cJSON_AddItemToArray(rows, r);
    }
    if (sc.not_parked && dap_park_retry(s, req, &sc)) {
        cJSON_Delete(b);   /* answered once the model is parked at the stop (dap_park.c) */
        return;
    }
    if (!ok) {
        /* The same error on every lane: a bad expression, said once. */
        char msg[600];
        const cJSON *e0 = cJSON_GetObjectItemCaseSensitive(cJSON_GetArrayItem(rows, 0), "error");
        snprintf(msg, sizeof msg, "glreplay/evaluateWarp: %s", cJSON_GetStringValue(e0) ? e0->valuestring : "error");
        cJSON_Delete(b);
        dap_respond(s, req, false, NULL, msg);
        return;
    }
    dap_respond(s, req, true, b, NULL);
}

/* ---------------------------------------------------------------- heat map */

struct heat {
    struct dap_session *s;
    cJSON *req;
    struct dbg_heat *core;   /* dbg_heatmap.c */
    int shader, line;        /* the bound location */
};

static void heat_answer(struct heat *ht, const cJSON *args, int rc, const char *err)
{
    struct dap_session *s = ht->s;
    char msg[600];
    if (rc != 0) {
        snprintf(msg, sizeof msg, "glreplay/heatmap: the frame could not run: %s", err);
        dap_respond(s, ht->req, false, NULL, msg);
        return;
    }
    const cJSON *jmin = cJSON_GetObjectItemCaseSensitive(args, "min");
    const cJSON *jmax = cJSON_GetObjectItemCaseSensitive(args, "max");
    struct dbg_heat_stats st;
    char why[300];
    unsigned char *px = dbg_heat_image(ht->core, cJSON_IsNumber(jmin) ? &jmin->valuedouble : NULL,
                                       cJSON_IsNumber(jmax) ? &jmax->valuedouble : NULL, &st, why, sizeof why);
    if (!px) {
        snprintf(msg, sizeof msg, "glreplay/heatmap: %s", why);
        dap_respond(s, ht->req, false, NULL, msg);
        return;
    }
    char *b64 = dap_png_base64(px, st.width, st.height);
    free(px);
    if (!b64) {
        dap_respond(s, ht->req, false, NULL, "glreplay/heatmap: out of memory encoding the PNG");
        return;
    }
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "component");
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "expression", cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "expression")));
    cJSON_AddNumberToObject(b, "component", cJSON_IsNumber(jc) ? jc->valuedouble : 0);
    cJSON_AddNumberToObject(b, "width", st.width);
    cJSON_AddNumberToObject(b, "height", st.height);
    cJSON_AddNumberToObject(b, "min", st.min);
    cJSON_AddNumberToObject(b, "max", st.max);
    cJSON_AddNumberToObject(b, "fragments", (double)st.fragments);
    cJSON_AddNumberToObject(b, "pixels", (double)st.pixels);
    cJSON_AddNumberToObject(b, "nan", (double)st.nans);
    cJSON_AddNumberToObject(b, "errors", (double)st.errors);
    if (st.errors)
        cJSON_AddStringToObject(b, "firstError", st.first_error);
    /* Row-major from the bottom row (window y = 0), the values the image shows: for a client
     * that reads numbers, not colours. NaN and no-fragment are null. Only for small frames. */
    if ((size_t)st.width * st.height <= 65536 && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(args, "values"))) {
        cJSON *vals = cJSON_AddArrayToObject(b, "values");
        for (unsigned y = 0; y < st.height; y++)
            for (unsigned x = 0; x < st.width; x++) {
                float v;
                bool ok = dbg_heat_value(ht->core, x, y, &v) && isfinite(v);
                cJSON_AddItemToArray(vals, ok ? cJSON_CreateNumber(v) : cJSON_CreateNull());
            }
    }
    cJSON_AddStringToObject(b, "mimeType", "image/png");
    cJSON_AddStringToObject(b, "data", b64);
    free(b64);
    dap_respond(s, ht->req, true, b, NULL);
}

static void heat_free(struct heat *ht)
{
    cJSON_Delete(ht->req);
    dbg_heat_free(ht->core);
    free(ht);
}

static void *heat_main(void *arg)
{
    struct heat *ht = arg;
    struct dap_session *s = ht->s;
    char err[256] = "";
    int rc = dbg_heat_run(ht->core, s->runner, ht->shader, ht->line, err, sizeof err);
    pthread_mutex_t *lock = s->host.lock;   /* the server's: outlives the session */
    pthread_mutex_lock(lock);
    if (!s->closing) {
        cJSON *args = cJSON_GetObjectItemCaseSensitive(ht->req, "arguments");
        heat_answer(ht, args, rc, err);
    }
    dap_session_job_done(s);
    pthread_mutex_unlock(lock);
    heat_free(ht);
    return NULL;
}

/* The location: {shader: id or name} or {source: {sourceReference | path}} (a path a
 * setBreakpoints bound) and `line` (the shader's own line for a shader, the file's for a path). */
static bool heat_location(struct dap_session *s, const cJSON *args, struct heat *ht, char *err, size_t n)
{
    const cJSON *jl = cJSON_GetObjectItemCaseSensitive(args, "line");
    if (!cJSON_IsNumber(jl) || jl->valuedouble < 1 || jl->valuedouble > 1e7) {
        snprintf(err, n, "'line' (a line number) is required");
        return false;
    }
    int line = (int)jl->valuedouble;
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(args, "source");
    const cJSON *jsh = cJSON_GetObjectItemCaseSensitive(args, "shader");
    const cJSON *ref = cJSON_GetObjectItemCaseSensitive(src, "sourceReference");
    const char *path = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(src, "path"));
    const struct dbg_shader *sh = NULL;
    int offset = 0;
    if (cJSON_IsNumber(jsh))
        sh = dbg_capture_shader(s->cap, (int)jsh->valuedouble);
    else if (cJSON_IsNumber(ref))
        sh = dbg_capture_shader(s->cap, (int)ref->valuedouble);
    const char *name = cJSON_IsString(jsh) ? jsh->valuestring : path;
    for (int i = 0; !sh && name && i < s->cap->n_shaders; i++)
        if (!strcmp(s->cap->shaders[i].name, name))
            sh = &s->cap->shaders[i];
    for (int i = 0; !sh && path && i < s->n_sources; i++)
        if (s->sources[i].path && !strcmp(s->sources[i].path, path))
            for (int k = 0; !sh && k < s->sources[i].n_binds; k++) {
                const struct dbg_shader *c = dbg_capture_shader(s->cap, s->sources[i].binds[k].shader);
                if (c && c->stage == GM_STAGE_FRAGMENT) {
                    sh = c;
                    offset = s->sources[i].binds[k].offset;
                }
            }
    if (!sh) {
        snprintf(err, n, "no fragment shader named by 'shader' or 'source' (a file path is known once setBreakpoints "
                 "bound it)");
        return false;
    }
    if (sh->stage != GM_STAGE_FRAGMENT) {
        snprintf(err, n, "%s is not a fragment shader: a heat map shows fragment values", sh->name);
        return false;
    }
    char msg[200];
    int at = dbg_bind_line(sh, line + offset, sh->line_count, msg, sizeof msg);
    if (at <= 0) {
        snprintf(err, n, "line %d: %s", line, msg);
        return false;
    }
    ht->shader = sh->id;
    ht->line = at;
    return true;
}

static void heatmap(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    char err[300], msg[400];
    const char *expr = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(args, "expression"));
    const cJSON *jc = cJSON_GetObjectItemCaseSensitive(args, "component");
    const cJSON *jd = cJSON_GetObjectItemCaseSensitive(args, "draw");
    struct heat *ht = calloc(1, sizeof *ht);
    if (!ht) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    ht->s = s;
    bool ok = true;
    if (!expr || dbg_eval_syntax(expr, err, sizeof err) != 0) {
        if (!expr)
            snprintf(err, sizeof err, "'expression' (string) is required");
        ok = false;
    } else if (jc && (!cJSON_IsNumber(jc) || jc->valuedouble < 0 || jc->valuedouble > 15)) {
        snprintf(err, sizeof err, "'component' must be 0..15");
        ok = false;
    } else if (jd && (!cJSON_IsNumber(jd) || jd->valuedouble < 0 || jd->valuedouble >= s->cap->n_draws)) {
        snprintf(err, sizeof err, "'draw' must be a draw of the frame (0..%d)", s->cap->n_draws - 1);
        ok = false;
    } else {
        ok = heat_location(s, args, ht, err, sizeof err);
    }
    if (ok && s->running) {
        snprintf(err, sizeof err, "the GPU model is busy with a pass of this session; retry when it ends");
        ok = false;
    }
    if (!ok) {
        snprintf(msg, sizeof msg, "glreplay/heatmap: %s", err);
        dap_respond(s, req, false, NULL, msg);
        free(ht);
        return;
    }
    ht->core = dbg_heat_new(expr, jc ? (int)jc->valuedouble : 0, jd ? (int)jd->valuedouble : -1);
    ht->req = cJSON_Duplicate(req, true);
    if (!ht->core || !ht->req) {
        dap_respond(s, req, false, NULL, "out of memory");
        heat_free(ht);
        return;
    }
    /* The frame's size when the capture has a reference image; grows with the pixels seen. */
    const struct glrh_capture *c = s->cap->cap;
    if (c && c->n_images)
        dbg_heat_size(ht->core, c->images[c->n_images - 1].width, c->images[c->n_images - 1].height);
    /* The view's stop stays: this pass abandons a suspended one, the next continue runs anew. */
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->running = true;
    int rc = pthread_create(&t, &attr, heat_main, ht);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->running = false;
        dap_respond(s, req, false, NULL, "glreplay/heatmap: cannot start a thread");
        heat_free(ht);
    }
}

bool dap_warp_eval_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "glreplay/evaluateWarp"))
        evaluate_warp(s, req, args);
    else if (!strcmp(cmd, "glreplay/heatmap"))
        heatmap(s, req, args);
    else
        return false;
    return true;
}
