/* glr_report_write: the report's folder (checked and laid out), the page's files, then the passes
 * that fill data/ and thumbs/: events and state (report_events.c), driver thumbnails
 * (report_thumbs.c), and the GPU model's agreement and profile, which come from `glreplay model
 * --compare --json` and `glreplay profile --json` run as child processes (the same code and
 * output as those verbs; a model crash cannot take the report down with it). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "ui_ipc/report/report.h"
#include "replay/player/player.h"

#define MARKER "glreplay-report.txt"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A folder of the report: created, or when it exists a real folder (not a link to elsewhere),
 * emptied of the .js and .png files an earlier report left. */
static int prepare_subdir(const char *dir, const char *sub, char *err, size_t n)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    struct stat st;
    if (lstat(path, &st) == 0) {
        if (!S_ISDIR(st.st_mode)) {
            snprintf(err, n, "%s exists and is not a folder", path);
            return -1;
        }
        DIR *d = opendir(path);
        if (!d) {
            snprintf(err, n, "%s: %s", path, strerror(errno));
            return -1;
        }
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            size_t l = strlen(e->d_name);
            bool ours = (l > 3 && !strcmp(e->d_name + l - 3, ".js")) || (l > 4 && !strcmp(e->d_name + l - 4, ".png"));
            if (ours)
                unlinkat(dirfd(d), e->d_name, 0);
        }
        closedir(d);
        return 0;
    }
    if (mkdir(path, 0777) != 0) {
        snprintf(err, n, "cannot create %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* The output folder: new, empty, or an earlier report (its marker file) — never a folder of
 * other files the report would mix with or overwrite. */
static int prepare_out(const char *dir, char *err, size_t n)
{
    struct stat st;
    if (!*dir) {
        snprintf(err, n, "report: --out needs a folder");
        return -1;
    }
    /* The report's file paths are DIR plus at most ~40 characters, in 4096-byte buffers. */
    if (strlen(dir) > 3000) {
        snprintf(err, n, "report: the --out path is too long (%zu characters; at most 3000)", strlen(dir));
        return -1;
    }
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT || mkdir(dir, 0777) != 0) {
            snprintf(err, n, "report: cannot create the folder %s: %s", dir, strerror(errno));
            return -1;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        snprintf(err, n, "report: %s exists and is not a folder", dir);
        return -1;
    } else {
        char marker[4096];
        snprintf(marker, sizeof marker, "%s/" MARKER, dir);
        DIR *d = opendir(dir);
        if (!d) {
            snprintf(err, n, "report: %s: %s", dir, strerror(errno));
            return -1;
        }
        bool empty = true;
        struct dirent *e;
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
                empty = false;
        closedir(d);
        if (!empty && access(marker, F_OK) != 0) {
            snprintf(err, n, "report: %s is not empty and holds no earlier report (%s): choose a new folder", dir,
                     MARKER);
            return -1;
        }
    }
    const char *subs[] = { "data", "data/d", "data/s", "data/tex", "data/dtex", "thumbs" };
    for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++)
        if (prepare_subdir(dir, subs[i], err, n) != 0)
            return -1;
    char marker[4096];
    snprintf(marker, sizeof marker, "%s/" MARKER, dir);
    FILE *f = fopen(marker, "w");
    if (!f || fputs("A report written by `glreplay report`; open index.html in a browser.\n", f) < 0 || fclose(f)) {
        snprintf(err, n, "report: cannot write %s", marker);
        return -1;
    }
    return 0;
}

static int write_assets(const char *dir, char *err, size_t n)
{
    for (size_t i = 0; i < glrr_n_assets; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, glrr_assets[i].name);
        FILE *f = fopen(path, "wb");
        bool ok = f && fwrite(glrr_assets[i].data, 1, glrr_assets[i].size, f) == glrr_assets[i].size;
        if (f)
            ok &= fclose(f) == 0;
        if (!ok) {
            snprintf(err, n, "cannot write %s: %s", path, strerror(errno));
            return -1;
        }
    }
    return 0;
}

/* data/model.js: per record, the comparisons `glreplay model --compare --json` made after it. */
static cJSON *model_json(const char *exe, const char *capture, char *why, size_t n)
{
    const char *argv[] = { exe, "model", capture, "--compare", "--json", NULL };
    char *out = glrr_run_capture_stdout(argv, why, n);
    if (!out)
        return NULL;
    cJSON *m = cJSON_Parse(out);
    free(out);
    if (!m) {
        snprintf(why, n, "glreplay model --compare --json gave no JSON");
        return NULL;
    }
    cJSON *res = cJSON_CreateObject();
    cJSON *by = cJSON_AddObjectToObject(res, "by_record");
    const cJSON *ev;
    cJSON_ArrayForEach(ev, cJSON_GetObjectItemCaseSensitive(m, "events"))
    {
        const cJSON *rec = cJSON_GetObjectItemCaseSensitive(ev, "record");
        if (!cJSON_IsNumber(rec))
            continue;
        char key[32];
        snprintf(key, sizeof key, "%.0f", rec->valuedouble);
        cJSON *o = cJSON_CreateObject();
        const char *keep[] = { "kind", "command", "compare", "unsupported", "failed", "cycles", "instructions",
                               "fs_lanes", "primitives" };
        for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++) {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(ev, keep[i]);
            if (v)
                cJSON_AddItemToObject(o, keep[i], cJSON_Duplicate(v, true));
        }
        cJSON_AddItemToObject(by, key, o);
    }
    const char *top[] = { "totals", "targets", "comparisons", "failing_comparisons", "unsupported" };
    for (size_t i = 0; i < sizeof top / sizeof top[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(m, top[i]);
        if (v)
            cJSON_AddItemToObject(res, top[i], cJSON_Duplicate(v, true));
    }
    cJSON_Delete(m);
    return res;
}

static cJSON *profile_json(const char *exe, const char *capture, char *why, size_t n)
{
    const char *argv[] = { exe, "profile", capture, "--json", "--counters", "--pc-sampling", "64", NULL };
    char *out = glrr_run_capture_stdout(argv, why, n);
    if (!out)
        return NULL;
    cJSON *p = cJSON_Parse(out);
    free(out);
    if (!p)
        snprintf(why, n, "glreplay profile --json gave no JSON");
    return p;
}

/* data/NAME.js: the section's JSON, or {"error": why} when it could not be made (the page says so),
 * or null when it was not asked for. */
static int write_optional(const char *dir, const char *name, cJSON *j, bool asked, const char *why, char *err,
                          size_t n)
{
    if (!j) {
        j = asked ? cJSON_CreateObject() : cJSON_CreateNull();
        if (asked)
            cJSON_AddStringToObject(j, "error", why);
    }
    char path[4096], prefix[64];
    snprintf(path, sizeof path, "%s/data/%s.js", dir, name);
    snprintf(prefix, sizeof prefix, "glrReport.%s", name);
    int rc = glrr_write_js(path, prefix, j, err, n);
    cJSON_Delete(j);
    return rc;
}

int glr_report_write(const struct glr_report_options *o, char *err, size_t err_size)
{
    double t0 = now_s();
    /* The whole capture is validated before anything is written. */
    struct glrh_capture *cap = glrh_capture_open(o->capture, err, err_size);
    if (!cap)
        return -1;
    char program[256];
    snprintf(program, sizeof program, "%s", cap->program ? cap->program : "");
    glrh_capture_close(cap);
    if (prepare_out(o->out_dir, err, err_size) != 0 || write_assets(o->out_dir, err, err_size) != 0)
        return -1;
    struct glrr_events_summary sum;
    if (glrr_write_events(o->capture, o->out_dir, o->progress, &sum, err, err_size) != 0)
        return -1;
    double t_events = now_s();
    uint64_t thumbs = 0, driver_textures = 0;
    char thumb_err[512] = "";
    if (glrr_write_thumbs(o->capture, o->out_dir, o->thumb_max, o->progress, &thumbs, &driver_textures, thumb_err,
                          sizeof thumb_err) != 0) {
        fprintf(stderr, "glreplay: warning: report: no driver thumbnails: %s\n", thumb_err);
        /* The page then shows the model's texture images only, and says why. */
        if (write_optional(o->out_dir, "dtex", NULL, true, thumb_err, err, err_size) != 0)
            return -1;
    }
    double t_thumbs = now_s();
    char why[1024] = "";
    cJSON *model = NULL;
    if (o->model) {
        if (o->progress)
            fprintf(stderr, "glreplay: report: the GPU model against the driver...\n");
        if (!(model = model_json(o->self_exe, o->capture, why, sizeof why)))
            fprintf(stderr, "glreplay: warning: report: no model agreement: %s\n", why);
    }
    bool have_model = model != NULL;
    if (write_optional(o->out_dir, "model", model, o->model, why, err, err_size) != 0)
        return -1;
    double t_model = now_s();
    cJSON *profile = NULL;
    if (o->profile) {
        if (o->progress)
            fprintf(stderr, "glreplay: report: profiling in the GPU model...\n");
        if (!(profile = profile_json(o->self_exe, o->capture, why, sizeof why)))
            fprintf(stderr, "glreplay: warning: report: no profile: %s\n", why);
    }
    bool have_profile = profile != NULL;
    if (write_optional(o->out_dir, "profile", profile, o->profile, why, err, err_size) != 0)
        return -1;
    double t_end = now_s();
    cJSON *info = cJSON_CreateObject();
    cJSON_AddStringToObject(info, "program", program);
    cJSON_AddNumberToObject(info, "thumbnails", (double)thumbs);
    cJSON_AddNumberToObject(info, "driver_texture_images", (double)driver_textures);
    cJSON_AddStringToObject(info, "thumbnail_error", thumb_err);
    cJSON_AddNumberToObject(info, "thumb_max", o->thumb_max);
    cJSON *t = cJSON_AddObjectToObject(info, "seconds");
    cJSON_AddNumberToObject(t, "events", t_events - t0);
    cJSON_AddNumberToObject(t, "thumbnails", t_thumbs - t_events);
    cJSON_AddNumberToObject(t, "model", t_model - t_thumbs);
    cJSON_AddNumberToObject(t, "profile", t_end - t_model);
    if (write_optional(o->out_dir, "info", info, true, "", err, err_size) != 0)
        return -1;
    printf("report: %s/index.html: %llu events (%llu draws, %llu clears, %llu blits), %llu thumbnails, %llu driver texture images%s%s; "
           "%.2f s (events %.2f, thumbnails %.2f, model %.2f, profile %.2f)\n",
           o->out_dir, (unsigned long long)sum.records, (unsigned long long)sum.draws,
           (unsigned long long)sum.clears, (unsigned long long)sum.blits, (unsigned long long)thumbs,
           (unsigned long long)driver_textures,
           o->model ? (have_model ? ", model agreement" : ", model agreement FAILED") : "",
           o->profile ? (have_profile ? ", profile" : ", profile FAILED") : "", t_end - t0, t_events - t0,
           t_thumbs - t_events, t_model - t_thumbs, t_end - t_model);
    return 0;
}
