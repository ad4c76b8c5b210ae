/* The pixel history's cache of driver answers (debugger/pixel/pixel_cache.c): in one process, a
 * second history of the same capture and back buffer takes the driver's answers from the first
 * (no driver replay) and must be identical to the same history run with the driver (the cache
 * cleared), apart from its timings; a capture file that changed (its modification time) misses.
 * usage: pixel_cache_check CAPTURE X1,Y1 X2,Y2 [TARGET] (the capture should have earlier passes, so
 * the kept answers include their images; TARGET as `glreplay pixel --target`, default the back
 * buffer). Exit 0 on success, 1 with a line on failure. */
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "debugger/pixel/pixel_history.h"

static double wall[8];   /* each history's wall seconds, printed (the benchmark's figures) */
static int n_wall;

static struct pxh_target target;   /* zero: the back buffer */

static cJSON *history(const char *path, int x, int y, bool *cached)
{
    char err[512] = "";
    struct pxh_options o = { .path = path, .x = x, .y = y, .target = target, .driver = true, .keep = true };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cJSON *h = pxh_run(&o, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (n_wall < 8)
        wall[n_wall++] = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    if (!h) {
        fprintf(stderr, "FAIL: history of (%d, %d): %s\n", x, y, err);
        exit(1);
    }
    *cached = cJSON_IsTrue(cJSON_GetObjectItem(h, "driver_cached"));
    cJSON_DeleteItemFromObject(h, "seconds");   /* the only member allowed to differ */
    cJSON_DeleteItemFromObject(h, "driver_cached");
    return h;
}

int main(int argc, char **argv)
{
    int x1, y1, x2, y2;
    if ((argc != 4 && argc != 5) || sscanf(argv[2], "%d,%d", &x1, &y1) != 2 ||
        sscanf(argv[3], "%d,%d", &x2, &y2) != 2 || (argc == 5 && !pxh_parse_target(argv[4], &target))) {
        fprintf(stderr, "usage: pixel_cache_check CAPTURE X1,Y1 X2,Y2 [TARGET]\n");
        return 2;
    }
    const char *path = argv[1];
    bool c1, c2, c3, c4;
    pxh_cache_clear();
    cJSON *a = history(path, x1, y1, &c1);
    cJSON *b = history(path, x2, y2, &c2);      /* from the first's answers */
    pxh_cache_clear();
    cJSON *ref = history(path, x2, y2, &c3);    /* the driver again */
    if (c1 || !c2 || c3) {
        fprintf(stderr, "FAIL: driver_cached %d %d %d, want 0 1 0\n", c1, c2, c3);
        return 1;
    }
    /* the comparison must compare something: the driver's values of events, earlier passes' images */
    int checked = cJSON_GetObjectItem(cJSON_GetObjectItem(ref, "driver_check"), "events_checked")->valueint;
    cJSON *ep = cJSON_GetObjectItem(ref, "earlier_passes");
    int images = cJSON_GetArraySize(cJSON_GetObjectItem(ep, "images"));
    if (checked < 1 || (argc == 4 && images < 1)) {   /* an FBO target may be the first pass */
        fprintf(stderr, "FAIL: the reference history checks %d events against the driver and takes %d images\n",
                checked, images);
        return 1;
    }
    if (!cJSON_Compare(b, ref, true)) {
        char *sb = cJSON_PrintUnformatted(b), *sr = cJSON_PrintUnformatted(ref);
        fprintf(stderr, "FAIL: the history from the cache differs from the driver's:\n%s\n%s\n", sb, sr);
        return 1;
    }
    /* the same again, and then the file changed: the cache must miss */
    cJSON_Delete(history(path, x1, y1, &c4));
    if (!c4) {
        fprintf(stderr, "FAIL: a third history of the same capture did not use the cache\n");
        return 1;
    }
    struct stat st;   /* a modification time other than the file's (a run before may have set one) */
    if (stat(path, &st) != 0) {
        perror("stat");
        return 1;
    }
    struct timespec ts[2] = { { 0, UTIME_OMIT }, { st.st_mtim.tv_sec - 1, st.st_mtim.tv_nsec } };
    if (utimensat(AT_FDCWD, path, ts, 0) != 0) {
        perror("utimensat");
        return 1;
    }
    cJSON_Delete(history(path, x1, y1, &c4));
    if (c4) {
        fprintf(stderr, "FAIL: a history of the changed capture used the cache\n");
        return 1;
    }
    printf("pixel cache (%s): (%d, %d) after (%d, %d) from the kept driver answers equals the driver's history "
           "(%d events checked, %d earlier-pass images); a changed capture misses\n",
           argc == 5 ? argv[4] : "back", x2, y2, x1, y1, checked, images);
    printf("wall s: first %.2f, from the cache %.2f, the driver again %.2f, from the cache %.2f, changed file %.2f\n",
           wall[0], wall[1], wall[2], wall[3], wall[4]);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(ref);
    return 0;
}
