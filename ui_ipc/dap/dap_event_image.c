/* glreplay/eventImages: the driver's image after draws, clears and blits of the capture, as PNGs
 * scaled down to a requested size — the frame view of the VS Code extension (thumbnails per event,
 * the way RenderDoc's event browser shows them, and one large image). One headless replay (EGL
 * surfaceless, the replayer's on_image callback, as `glreplay report` makes its thumbnails) on a
 * thread of its own, so the server's I/O thread keeps serving; the session counts as running
 * meanwhile, like the pixel history.
 *
 * Arguments: `events` (optional array of record numbers; without it every draw, clear and blit, at
 * most DAP_EVIMG_MAX), `maxSide` (optional, the longer side of each PNG, default 128).
 * Body: { images: [{event, command, width, height, sourceWidth, sourceHeight, mimeType, data}],
 *         missing: [asked events with no image], truncated (images left out: over DAP_EVIMG_MAX
 *         images or DAP_EVIMG_PIXELS pixels) }. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "debugger/dbg_capture.h"
#include "registry/glr_call_codec.h"
#include "replay/player/image_util.h"
#include "replay/player/player.h"
#include "replay/replay.h"
#include "ui_ipc/dap/dap_event_image.h"
#include "ui_ipc/dap/dap_session_internal.h"

#define DAP_EVIMG_MAX 1024          /* images in one answer (each at most maxSide^2 pixels) */
#define DAP_EVIMG_SIDE_MAX 4096
/* Pixels of all the images of one answer (before PNG compression): 1024 thumbnails of 256x256, or
 * four 4096x4096 images; what does not fit is left out (truncated), so a large request cannot make
 * the server hold gigabytes. */
#define DAP_EVIMG_PIXELS (64ull << 20)

struct evimg_job {
    struct dap_session *s;
    cJSON *req;
    char *path;
    uint64_t *want;     /* sorted record numbers asked for; NULL: every image event */
    size_t n_want;
    unsigned max_side;
    cJSON *images;      /* answer items, filled by on_image */
    size_t n_images;
    uint64_t pixels;    /* sum of the answer's images' pixels */
    bool truncated, failed;
};

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool wanted(const struct evimg_job *j, uint64_t record)
{
    if (!j->want)
        return true;
    return bsearch(&record, j->want, j->n_want, sizeof *j->want, cmp_u64) != NULL;
}

static void on_image(void *user, uint64_t record, uint32_t cmd, const uint8_t *rgba, unsigned w, unsigned h)
{
    struct evimg_job *j = user;
    if (j->failed || !wanted(j, record))
        return;
    if (j->n_images >= DAP_EVIMG_MAX) {
        j->truncated = true;
        return;
    }
    unsigned tw, th;
    unsigned side = w > h ? w : h;
    uint64_t area = side > j->max_side ? (uint64_t)j->max_side * j->max_side : (uint64_t)w * h;  /* bound */
    if (j->pixels + area > DAP_EVIMG_PIXELS) {
        j->truncated = true;
        return;
    }
    uint8_t *small = glrh_thumb_rgba(rgba, w, h, j->max_side, &tw, &th);
    char *b64 = small ? dap_png_base64(small, tw, th) : NULL;
    free(small);
    cJSON *o = b64 ? cJSON_CreateObject() : NULL;
    if (!o) {
        free(b64);
        j->failed = true;
        return;
    }
    cJSON_AddNumberToObject(o, "event", (double)record);
    const char *name = glr_call_name(cmd);
    cJSON_AddStringToObject(o, "command", name ? name : "");
    cJSON_AddNumberToObject(o, "width", tw);
    cJSON_AddNumberToObject(o, "height", th);
    cJSON_AddNumberToObject(o, "sourceWidth", w);
    cJSON_AddNumberToObject(o, "sourceHeight", h);
    cJSON_AddStringToObject(o, "mimeType", "image/png");
    cJSON_AddStringToObject(o, "data", b64);
    free(b64);
    cJSON_AddItemToArray(j->images, o);
    j->n_images++;
    j->pixels += (uint64_t)tw * th;
}

static int restore_snapshot(void *user, const struct glrh_capture *cap, struct glr_dispatch *d,
                            glrh_make_current_fn make_current, void *mc, char *err, size_t err_size)
{
    (void)cap;
    struct glr_restore_stats st;
    return glr_restore_run(user, d, make_current, mc, &st, err, err_size);
}

/* The replay; 0, or -1 with err set. */
static int run_replay(struct evimg_job *j, char *err, size_t n)
{
    struct glrh_capture *cap = glrh_capture_open(j->path, err, n);
    if (!cap)
        return -1;
    FILE *devnull = fopen("/dev/null", "w");
    struct glrh_options opt = { .loops = 1, .out = devnull ? devnull : stderr, .on_image = on_image, .on_image_user = j };
    struct glr_restore *snapshot = NULL;
    int rc = 0;
    if (strcmp(cap->initial_state, "snapshot") == 0) {
        if (!(snapshot = glr_restore_load(j->path, err, n)))
            rc = -1;
        opt.restore = restore_snapshot;
        opt.restore_user = snapshot;
        opt.snapshot = snapshot;
    }
    struct glrh_result res;
    if (rc == 0)
        rc = glrh_replay(cap, &opt, &res, err, n);
    if (rc == 0 && j->failed) {
        snprintf(err, n, "out of memory encoding the images");
        rc = -1;
    }
    glr_restore_free(snapshot);
    glrh_capture_close(cap);
    if (devnull)
        fclose(devnull);
    return rc;
}

static void job_free(struct evimg_job *j)
{
    cJSON_Delete(j->req);
    cJSON_Delete(j->images);
    free(j->path);
    free(j->want);
    free(j);
}

static void *worker(void *arg)
{
    struct evimg_job *j = arg;
    struct dap_session *s = j->s;
    char err[512] = "", msg[600];
    int rc = run_replay(j, err, sizeof err);
    cJSON *body = NULL;
    if (rc == 0 && (body = cJSON_CreateObject())) {
        cJSON *missing = cJSON_CreateArray();
        for (size_t i = 0; i < j->n_want; i++) {
            bool found = false;
            for (cJSON *o = j->images->child; o && !found; o = o->next)
                found = (uint64_t)cJSON_GetObjectItemCaseSensitive(o, "event")->valuedouble == j->want[i];
            if (!found && !j->truncated)
                cJSON_AddItemToArray(missing, cJSON_CreateNumber((double)j->want[i]));
        }
        cJSON_AddItemToObject(body, "images", j->images);
        j->images = NULL;
        cJSON_AddItemToObject(body, "missing", missing);
        cJSON_AddBoolToObject(body, "truncated", j->truncated);
    }
    pthread_mutex_t *lock = s->host.lock;   /* the server's: outlives the session */
    pthread_mutex_lock(lock);
    if (!s->closing) {
        if (body) {
            dap_respond(s, j->req, true, body, NULL);
            body = NULL;
        } else {
            snprintf(msg, sizeof msg, "glreplay/eventImages: %s", rc ? err : "out of memory");
            dap_respond(s, j->req, false, NULL, msg);
        }
    }
    cJSON_Delete(body);
    dap_session_job_done(s);
    pthread_mutex_unlock(lock);
    job_free(j);
    return NULL;
}

void dap_event_images_request(struct dap_session *s, const cJSON *req, const cJSON *args)
{
    const char *fail = NULL;
    char msg[300];
    const cJSON *ev = args ? cJSON_GetObjectItemCaseSensitive(args, "events") : NULL;
    const cJSON *ms = args ? cJSON_GetObjectItemCaseSensitive(args, "maxSide") : NULL;
    double side = 128;
    if (s->in_process)
        fail = "the driver's images are not available in a live session (debug the capture with glreplay dap)";
    else if (s->running)
        fail = "the GPU model or another replay is busy; retry when it ends";
    else if (ev && (!cJSON_IsArray(ev) || cJSON_GetArraySize(ev) > DAP_EVIMG_MAX))
        fail = "'events' must be an array of at most 1024 event numbers";
    else if (ms && (!cJSON_IsNumber(ms) || ms->valuedouble < 1 || ms->valuedouble > DAP_EVIMG_SIDE_MAX))
        fail = "'maxSide' must be a number from 1 to 4096";
    if (ms && !fail)
        side = ms->valuedouble;
    if (fail) {
        snprintf(msg, sizeof msg, "glreplay/eventImages: %s", fail);
        dap_respond(s, req, false, NULL, msg);
        return;
    }
    struct evimg_job *j = calloc(1, sizeof *j);
    if (!j || !(j->req = cJSON_Duplicate(req, true)) || !(j->images = cJSON_CreateArray()) ||
        !(j->path = strdup(s->cap->path)))
        goto oom;
    j->s = s;
    j->max_side = (unsigned)side;
    if (ev) {
        int n = cJSON_GetArraySize(ev);
        if (!(j->want = malloc(sizeof *j->want * (size_t)(n ? n : 1))))
            goto oom;
        for (const cJSON *e = ev->child; e; e = e->next) {
            if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble != (double)(uint64_t)e->valuedouble ||
                e->valuedouble >= (double)s->cap->n_records) {
                job_free(j);
                snprintf(msg, sizeof msg, "glreplay/eventImages: 'events' holds a value that is not an event number "
                                          "of this capture (0 to %llu)", (unsigned long long)s->cap->n_records - 1);
                dap_respond(s, req, false, NULL, msg);
                return;
            }
            j->want[j->n_want++] = (uint64_t)e->valuedouble;
        }
        qsort(j->want, j->n_want, sizeof *j->want, cmp_u64);
    }
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s->running = true;
    s->side_job = true;   /* a replay of the driver: the stop stays as it is */
    int rc = pthread_create(&t, &attr, worker, j);
    pthread_attr_destroy(&attr);
    if (rc == 0)
        return;
    s->running = false;
    s->side_job = false;
    job_free(j);
    dap_respond(s, req, false, NULL, "glreplay/eventImages: cannot start a thread");
    return;
oom:
    if (j)
        job_free(j);
    dap_respond(s, req, false, NULL, "out of memory");
}
