/* Custom requests: glreplay/capture, glreplay/events, glreplay/state, glreplay/image,
 * glreplay/focus, glreplay/profile, glreplay/pixelHistory, glreplay/debugPixel, glreplay/debugVertex;
 * glreplay/eventImages (dap_event_image.c). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/player/player.h"
#include "debugger/dbg_capture.h"
#include "ui_ipc/dap/dap_event_image.h"
#include "ui_ipc/dap/dap_session_internal.h"

static bool num_arg(const cJSON *args, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(args, key);
    if (!cJSON_IsNumber(v))
        return false;
    *out = v->valuedouble;
    return true;
}

static void capture_info(struct dap_session *s, const cJSON *req)
{
    cJSON *b = cJSON_CreateObject();
    cJSON_AddStringToObject(b, "path", s->cap->path);
    cJSON_AddNumberToObject(b, "records", (double)s->cap->n_records);
    cJSON_AddNumberToObject(b, "draws", s->cap->n_draws);
    cJSON_AddStringToObject(b, "runner", s->runner->name);
    cJSON_AddStringToObject(b, "program", s->cap->cap->program ? s->cap->cap->program : "");
    cJSON *sh = cJSON_AddArrayToObject(b, "shaders");
    for (int i = 0; i < s->cap->n_shaders; i++) {
        const struct dbg_shader *d = &s->cap->shaders[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", d->id);
        cJSON_AddStringToObject(o, "name", d->name);
        cJSON_AddStringToObject(o, "stage", dbg_stage_short(d->stage));
        cJSON_AddNumberToObject(o, "glName", d->gl_name);
        cJSON_AddNumberToObject(o, "program", d->program);
        cJSON_AddNumberToObject(o, "lines", d->line_count);
        if (d->compile_error)
            cJSON_AddStringToObject(o, "modelError", d->compile_error);
        cJSON_AddItemToArray(sh, o);
    }
    cJSON *dr = cJSON_AddArrayToObject(b, "drawList");
    for (int i = 0; i < s->cap->n_draws; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "draw", i);
        cJSON_AddNumberToObject(o, "event", (double)s->cap->draws[i].record);
        cJSON_AddNumberToObject(o, "program", s->cap->draws[i].program);
        cJSON_AddItemToArray(dr, o);
    }
    dap_respond(s, req, true, b, NULL);
}

static void events(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    double start = 0, count = 0;
    num_arg(args, "start", &start);
    num_arg(args, "count", &count);
    if (start < 0 || count < 0) {
        dap_respond(s, req, false, NULL, "glreplay/events: start and count must be >= 0");
        return;
    }
    char *json = dbg_capture_events_json(s->cap, (uint64_t)start, (uint64_t)count);
    cJSON *arr = json ? cJSON_Parse(json) : NULL;
    free(json);
    if (!arr) {
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "total", (double)s->cap->n_records);
    cJSON_AddItemToObject(b, "events", arr);
    dap_respond(s, req, true, b, NULL);
}

static void state(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    double ev;
    if (!num_arg(args, "event", &ev)) {
        if (s->snap)
            ev = (double)sh_snapshot_header(s->snap)->event;
        else {
            dap_respond(s, req, false, NULL, "glreplay/state: 'event' is required when not stopped");
            return;
        }
    }
    if (ev < 0) {
        dap_respond(s, req, false, NULL, "glreplay/state: 'event' must be >= 0");
        return;
    }
    char err[256];
    char *json = dbg_capture_state_json(s->cap, (uint64_t)ev, err, sizeof err);
    cJSON *st = json ? cJSON_Parse(json) : NULL;
    free(json);
    if (!st) {
        dap_respond(s, req, false, NULL, err);
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "event", ev);
    cJSON_AddItemToObject(b, "state", st);
    dap_respond(s, req, true, b, NULL);
}

/* The reference image the driver produced at a captured swap (the only render-target contents
 * a capture file holds without running the model). */
static void image(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const struct glrh_capture *c = s->cap->cap;
    double idx = c->n_images ? c->n_images - 1 : 0;
    num_arg(args, "image", &idx);
    if (num_arg(args, "event", &(double){ 0 })) {
        dap_respond(s, req, false, NULL,
                    "glreplay/image: render targets at an arbitrary event are not available offline yet; "
                    "use 'image' (index of a swap's reference image)");
        return;
    }
    if (!c->n_images || idx < 0 || idx >= c->n_images) {
        dap_respond(s, req, false, NULL, "glreplay/image: the capture has no such reference image");
        return;
    }
    const struct glrh_image *im = &c->images[(unsigned)idx];
    char *b64 = dap_png_base64(im->pixels, im->width, im->height);
    if (!b64) {
        dap_respond(s, req, false, NULL, "out of memory encoding the PNG");
        return;
    }
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "image", idx);
    cJSON_AddNumberToObject(b, "frame", im->frame);
    cJSON_AddNumberToObject(b, "width", im->width);
    cJSON_AddNumberToObject(b, "height", im->height);
    cJSON_AddStringToObject(b, "mimeType", "image/png");
    cJSON_AddStringToObject(b, "data", b64);
    free(b64);
    dap_respond(s, req, true, b, NULL);
}

/* Changes the focused lane of the current stop: {lane} or {pixel:[x,y]} or {vertex:id}. */
static void focus(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    if (!s->snap || s->running) {
        dap_respond(s, req, false, NULL, "glreplay/focus: not stopped");
        return;
    }
    const sh_header *h = sh_snapshot_header(s->snap);
    int lane = -1;
    double v;
    const cJSON *px = cJSON_GetObjectItemCaseSensitive(args, "pixel");
    if (num_arg(args, "lane", &v)) {
        lane = v >= 0 && v < SH_LANES ? (int)v : -1;
    } else if (cJSON_IsArray(px) && cJSON_GetArraySize(px) == 2 && !h->lane_pos_known) {
        dap_respond(s, req, false, NULL, "glreplay/focus: this shader does not read gl_FragCoord, so the lanes' pixels are "
                                         "unknown (the frame runner does not report them yet); focus by lane");
        return;
    } else if (cJSON_IsArray(px) && cJSON_GetArraySize(px) == 2) {
        int x = (int)cJSON_GetArrayItem(px, 0)->valuedouble, y = (int)cJSON_GetArrayItem(px, 1)->valuedouble;
        for (int l = 0; l < SH_LANES && lane < 0 && h->stage == 4; l++)
            if (h->lane_x[l] == x && h->lane_y[l] == y && (((h->alive | h->helper | h->killed) >> l) & 1))
                lane = l;
    } else if (num_arg(args, "vertex", &v)) {
        for (int l = 0; l < SH_LANES && lane < 0 && h->stage != 4; l++)
            if (h->lane_x[l] == (int)v)
                lane = l;
    }
    if (lane < 0) {
        dap_respond(s, req, false, NULL, "glreplay/focus: no such lane, pixel or vertex in the stopped warp");
        return;
    }
    s->focus = lane;
    dap_inspect_reset(s);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "lane", lane);
    int client_line = h->lane_line[lane];
    cJSON_Delete(dap_source_json(s, h->shader, h->lane_line[lane], &client_line));
    cJSON_AddNumberToObject(b, "line", client_line);
    cJSON_AddBoolToObject(b, "active", (h->active >> lane) & 1);
    dap_respond(s, req, true, b, NULL);
    cJSON *ib = cJSON_CreateObject();
    cJSON *areas = cJSON_AddArrayToObject(ib, "areas");
    cJSON_AddItemToArray(areas, cJSON_CreateString("variables"));
    cJSON_AddItemToArray(areas, cJSON_CreateString("stacks"));
    dap_event(s, "invalidated", ib);
}

#ifdef GLR_HAVE_PIXEL
/* glreplay/pixelHistory and glreplay/debugPixel run the frame (in the model, and for the history
 * on the driver too: seconds for a large frame) on their own thread, so the server's I/O thread
 * keeps serving every connection. The session counts as running meanwhile, like a pass. */
struct pixel_job {
    struct dap_session *s;
    cJSON *req, *args;
    bool debug;
    bool vertex;         /* glreplay/debugVertex */
};

static void debug_pixel_answer(struct dap_session *s, const cJSON *req)
{
    const struct dap_pixel_stop *p = &s->pixel;
    const struct dbg_shader *sh = dbg_capture_shader(s->cap, p->bp.shader);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "event", (double)p->record);
    cJSON_AddNumberToObject(b, "draw", p->draw);
    cJSON_AddNumberToObject(b, "primitive", p->primitive);
    cJSON_AddNumberToObject(b, "fragment", (double)p->bp.hit_n);
    cJSON_AddBoolToObject(b, "written", p->written);
    cJSON_AddStringToObject(b, "shader", sh ? sh->name : "");
    cJSON_AddNumberToObject(b, "line", p->bp.line);
    cJSON *o = cJSON_AddArrayToObject(b, "output");
    for (int k = 0; k < 4; k++)
        cJSON_AddItemToArray(o, cJSON_CreateNumber(p->output[k]));
    dap_respond(s, req, true, b, NULL);
}

/* glreplay/debugVertex's answer: the vertex, its draw and the stop's line; from a pixel also the
 * primitive's vertices with the gl_Position the rasterizer took for each. */
static void debug_vertex_answer(struct dap_session *s, const cJSON *req)
{
    const struct dap_pixel_stop *p = &s->pixel;
    const struct dbg_shader *sh = dbg_capture_shader(s->cap, p->bp.shader);
    cJSON *b = cJSON_CreateObject();
    cJSON_AddNumberToObject(b, "event", (double)p->record);
    cJSON_AddNumberToObject(b, "draw", p->draw);
    cJSON_AddNumberToObject(b, "vertex", p->x);
    cJSON_AddNumberToObject(b, "instance", p->y);
    cJSON_AddStringToObject(b, "shader", sh ? sh->name : "");
    cJSON_AddNumberToObject(b, "line", p->bp.line);
    if (p->corner >= 0) {
        cJSON_AddNumberToObject(b, "primitive", p->primitive);
        cJSON_AddNumberToObject(b, "corner", p->corner);
        cJSON_AddNumberToObject(b, "provoking", p->provoking);
        cJSON *vs = cJSON_AddArrayToObject(b, "vertices");
        for (int i = 0; i < p->n_vertices; i++) {
            cJSON *v = cJSON_CreateObject();
            cJSON_AddNumberToObject(v, "vertex", p->vertex_id[i]);
            cJSON *pos = cJSON_AddArrayToObject(v, "position");
            for (int k = 0; k < 4; k++)
                cJSON_AddItemToArray(pos, cJSON_CreateNumber(p->position[i][k]));
            cJSON_AddItemToArray(vs, v);
        }
    }
    dap_respond(s, req, true, b, NULL);
}

static void *pixel_worker(void *arg)
{
    struct pixel_job *j = arg;
    struct dap_session *s = j->s;
    char err[512] = "", msg[600];
    /* s->cap is immutable while the session lives (and it lives while running) */
    cJSON *hist = NULL;
    struct dap_pixel_req rq;
    struct dap_pixel_stop stop;
    struct pxh_pass_feed *feed = NULL;
    bool ok;
    if (j->vertex)
        ok = dap_vertex_resolve(s->cap, j->args, &stop, err, sizeof err) == 0;
    else if (j->debug) {
        ok = dap_pixel_parse(j->args, &rq, err, sizeof err);
        rq.driver = !s->in_process;   /* no driver replay inside the program */
        rq.pass_feed = &feed;
        ok = ok && dap_pixel_resolve(s->cap, &rq, &stop, err, sizeof err) == 0;
    } else
        ok = (hist = dap_pixel_history(s->cap, j->args, !s->in_process, err, sizeof err)) != NULL;
    pthread_mutex_t *lock = s->host.lock;   /* the server's: outlives the session */
    pthread_mutex_lock(lock);
    if (s->closing) {
        cJSON_Delete(hist);
        dap_session_job_done(s);
    } else if (!ok) {
        snprintf(msg, sizeof msg, "glreplay/%s: %s", j->vertex ? "debugVertex" : j->debug ? "debugPixel" : "pixelHistory",
                 err);
        dap_respond(s, j->req, false, NULL, msg);
        dap_session_job_done(s);
    } else if (!j->debug) {
        dap_respond(s, j->req, true, hist, NULL);
        dap_session_job_done(s);
    } else {
        s->pixel = stop;
        s->pixel_pending = true;
        dap_pixel_feed_free(s->pixel_feed);
        s->pixel_feed = feed;   /* the pass's own run takes it (dap_pass.c) */
        feed = NULL;
        if (j->vertex)
            debug_vertex_answer(s, j->req);
        else
            debug_pixel_answer(s, j->req);
        /* the pass starts where the job ends: the session leaves its stop (a custom request
         * the client's UI does not know to imply that: `continued`), the stopped event follows */
        if (!dap_session_job_done(s)) {
            if (dap_start_pass(s, DAP_PASS_RUN, DBG_STEP_NEXT) != 0) {
                s->pixel_pending = false;
                dap_output(s, "stderr", "cannot start a pass of the GPU model\n");
            } else {
                dap_session_continued(s);
            }
        }
    }
    pthread_mutex_unlock(lock);
    dap_pixel_feed_free(feed);   /* not taken */
    cJSON_Delete(j->req);
    cJSON_Delete(j->args);
    free(j);
    return NULL;
}

static void pixel_request(struct dap_session *s, const cJSON *req, const cJSON *args, bool debug, bool vertex)
{
    const char *name = vertex ? "glreplay/debugVertex" : debug ? "glreplay/debugPixel" : "glreplay/pixelHistory";
    char msg[200];
    if (s->running || (debug && !s->configured)) {
        snprintf(msg, sizeof msg, "%s: %s", name, s->running ? "the GPU model is busy with a pass; retry when it ends"
                                                              : "send configurationDone first");
        dap_respond(s, req, false, NULL, msg);
        return;
    }
    struct pixel_job *j = calloc(1, sizeof *j);
    if (!j || !(j->req = cJSON_Duplicate(req, true)) ||
        !(j->args = args ? cJSON_Duplicate(args, true) : cJSON_CreateObject())) {
        if (j) {
            cJSON_Delete(j->req);
            free(j);
        }
        dap_respond(s, req, false, NULL, "out of memory");
        return;
    }
    j->s = s;
    j->debug = debug;
    j->vertex = vertex;
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->running = true;
    s->side_job = true;   /* the pass (debugPixel, debugVertex) starts when the job is done */
    int rc = pthread_create(&t, &attr, pixel_worker, j);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        s->running = false;
        s->side_job = false;
        cJSON_Delete(j->req);
        cJSON_Delete(j->args);
        free(j);
        snprintf(msg, sizeof msg, "%s: cannot start a thread", name);
        dap_respond(s, req, false, NULL, msg);
    }
}
#endif

bool dap_custom_request(struct dap_session *s, const char *cmd, const cJSON *req, const cJSON *args)
{
    if (!strcmp(cmd, "glreplay/capture"))
        capture_info(s, req);
    else if (!strcmp(cmd, "glreplay/events"))
        events(s, req, args);
    else if (!strcmp(cmd, "glreplay/state"))
        state(s, req, args);
    else if (!strcmp(cmd, "glreplay/image"))
        image(s, req, args);
    else if (!strcmp(cmd, "glreplay/focus"))
        focus(s, req, args);
    else if (!strcmp(cmd, "glreplay/eventImages"))
        dap_event_images_request(s, req, args);
    else if (!strcmp(cmd, "glreplay/profile"))
#ifdef GLR_HAVE_PROFILE
        dap_profile_request(s, req, args);
#else
        dap_respond(s, req, false, NULL, "not available: GPU model telemetry is not built into this server");
#endif
#ifdef GLR_HAVE_PIXEL
    else if (!strcmp(cmd, "glreplay/pixelHistory"))
        pixel_request(s, req, args, false, false);
    else if (!strcmp(cmd, "glreplay/debugPixel"))
        pixel_request(s, req, args, true, false);
    else if (!strcmp(cmd, "glreplay/debugVertex"))
        pixel_request(s, req, args, true, true);
#else
    else if (!strcmp(cmd, "glreplay/pixelHistory") || !strcmp(cmd, "glreplay/debugPixel") ||
             !strcmp(cmd, "glreplay/debugVertex"))
        dap_respond(s, req, false, NULL, "not available: this server is built without the pixel history engine");
#endif
    else
        return false;
    return true;
}
