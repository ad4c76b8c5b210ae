/* The pixel history's cache of driver answers (debugger/pixel/pixel_cache.c): in one process, a
 * second history of the same capture and back buffer takes the driver's answers from the first
 * (no driver replay) and must be identical to the same history run with the driver (the cache
 * cleared), apart from its timings; a capture file that changed (its modification time) misses.
 * On disk (debugger/pixel/pixel_disk_cache.c, in a directory of its own under GLREPLAY_PIXEL_CACHE):
 * the first history writes one entry; with the in-process cache cleared (another process, as far as
 * the cache can tell) the second takes it and equals the driver's history; a copy of the capture
 * under another name hits (the entry is named by content); a corrupt or truncated entry, or an
 * entry of other content in the name of this one, misses without harm and is written again.
 * The driver's identity in an entry (debugger/pixel/pixel_driver_ident.c): this process's mapped
 * libraries are found unchanged; the same bytes with a file's modification time changed, cut
 * short, or with a path length past their end are not.
 * usage: pixel_cache_check CAPTURE X1,Y1 X2,Y2 [TARGET] (the capture should have earlier passes, so
 * the kept answers include their images; TARGET as `glreplay pixel --target`, default the back
 * buffer). Exit 0 on success, 1 with a line on failure. */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "debugger/pixel/pixel_history.h"
#include "debugger/pixel/pixel_internal.h"

static double wall[64];   /* each history's wall seconds; the first three and disk_hit printed */
static int n_wall, disk_hit;

static struct pxh_target target;   /* zero: the back buffer */
static bool disk;                  /* the histories use the on-disk cache */

static cJSON *history(const char *path, int x, int y, bool *cached)
{
    char err[512] = "";
    struct pxh_options o = { .path = path, .x = x, .y = y, .target = target, .driver = true, .keep = true,
                             .no_disk_cache = !disk };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cJSON *h = pxh_run(&o, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (n_wall < 64)
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

static char cache_dir[64];

/* The one entry in cache_dir (false: none, or more than one), its path into out. */
static bool the_entry(char *out, size_t n)
{
    DIR *d = opendir(cache_dir);
    int found = 0;
    for (struct dirent *de; d && (de = readdir(d));)
        if (strstr(de->d_name, ".glpx") && ++found == 1)
            snprintf(out, n, "%s/%s", cache_dir, de->d_name);
    if (d)
        closedir(d);
    return found == 1;
}

static void fail_if(bool bad, const char *what)
{
    if (bad) {
        fprintf(stderr, "FAIL: on disk: %s\n", what);
        exit(1);
    }
}

/* A history from a fresh process's point of view (the in-process cache cleared) that must (or must
 * not) come from the disk, and must equal ref apart from that. */
static void disk_history(const char *path, int x, int y, const cJSON *ref, bool want_cached, const char *what)
{
    bool c;
    pxh_cache_clear();
    cJSON *h = history(path, x, y, &c);
    if (c != want_cached || !cJSON_Compare(h, ref, true)) {
        fprintf(stderr, "FAIL: on disk: %s: driver_cached %d (want %d), %s the driver's history\n", what, c,
                want_cached, cJSON_Compare(h, ref, true) ? "equal to" : "differs from");
        exit(1);
    }
    cJSON_Delete(h);
}

/* Overwrites the entry's bytes at off (negative: from the end) with n copies of v. */
static void damage(const char *entry, long off, size_t n, int v)
{
    FILE *f = fopen(entry, "r+b");
    fail_if(!f || fseek(f, off, off < 0 ? SEEK_END : SEEK_SET) != 0, "cannot open the entry to damage it");
    for (size_t i = 0; i < n; i++)
        fputc(v, f);
    fclose(f);
}

/* The driver identity's bytes: this process's libraries (the driver among them after a history)
 * match; changed or malformed bytes do not, and are read within their bounds. */
static void ident_checks(void)
{
    size_t n = 0;
    uint8_t *b = pxh_driver_ident(&n);
    uint32_t count = 0;
    fail_if(!b || n < 4, "no driver identity");
    memcpy(&count, b, 4);
    fail_if(count == 0, "no mapped library in the driver identity");
    fail_if(!pxh_driver_ident_same(b, n), "this process's own libraries do not match their identity");
    fail_if(pxh_driver_ident_same(b, n - 1), "an identity cut short matched");
    uint8_t *c = malloc(n);
    fail_if(!c, "out of memory");
    memcpy(c, b, n);
    c[4 + 8 * 4] ^= 1;   /* the first library's modification time (ns) */
    fail_if(pxh_driver_ident_same(c, n), "a library with another modification time matched");
    memcpy(c, b, n);
    memset(c + 4 + 8 * 5, 0xff, 4);   /* the first path's length, past the end */
    fail_if(pxh_driver_ident_same(c, n), "a path length past the end matched");
    memcpy(c, b, n);
    memset(c, 0, 4);   /* no library, but bytes left over */
    fail_if(pxh_driver_ident_same(c, n), "an identity with bytes past its count matched");
    free(c);
    free(b);
}

static void disk_checks(const char *path, int x1, int y1, int x2, int y2, const cJSON *ref)
{
    snprintf(cache_dir, sizeof cache_dir, "/tmp/glr-pxdisk.XXXXXX");
    fail_if(!mkdtemp(cache_dir), "mkdtemp");
    setenv("GLREPLAY_PIXEL_CACHE", cache_dir, 1);
    disk = true;
    char entry[512], copy[600];
    bool c;
    pxh_cache_clear();
    cJSON_Delete(history(path, x1, y1, &c));
    fail_if(c || !the_entry(entry, sizeof entry), "the first history did not write one entry");
    disk_hit = n_wall;
    disk_history(path, x2, y2, ref, true, "a second process's history");
    /* the entry went to the in-process cache too: with the disk cache off the next one is from memory */
    setenv("GLREPLAY_PIXEL_CACHE", "0", 1);
    cJSON_Delete(history(path, x1, y1, &c));
    fail_if(!c, "a history right after a disk hit did not take the in-process cache");
    setenv("GLREPLAY_PIXEL_CACHE", cache_dir, 1);
    /* the same content under another name */
    snprintf(copy, sizeof copy, "%s/copy.glcap", cache_dir);
    char cmd[1400];
    snprintf(cmd, sizeof cmd, "cp '%s' '%s'", path, copy);
    fail_if(system(cmd) != 0, "cannot copy the capture");
    pxh_cache_clear();
    cJSON_Delete(history(copy, x2, y2, &c));
    fail_if(!c, "a copy of the capture (same content) missed");
    /* damaged entries: a byte of an image, the header's plan, the end cut off, other content */
    struct stat st;
    fail_if(stat(entry, &st) != 0, "the entry went away");
    damage(entry, -7, 1, 0x5a);
    disk_history(path, x2, y2, ref, false, "an entry with a changed image byte");
    disk_history(path, x2, y2, ref, true, "the entry written again after a damaged one");
    damage(entry, 64, 8, 0xff);   /* the image count */
    disk_history(path, x2, y2, ref, false, "an entry with a damaged header");
    fail_if(truncate(entry, st.st_size / 2) != 0, "truncate");
    disk_history(path, x2, y2, ref, false, "a truncated entry");
    damage(entry, 8, 8, 0);       /* the capture content hash: another capture's entry */
    disk_history(path, x2, y2, ref, false, "an entry of other content");
    fail_if(truncate(entry, 3) != 0, "truncate");
    disk_history(path, x2, y2, ref, false, "an entry of 3 bytes");
    /* the bound: 0 MB keeps nothing (each write removes what is above it, its own entry too) */
    setenv("GLREPLAY_PIXEL_CACHE_MB", "0", 1);
    unlink(entry);
    unlink(copy);
    disk_history(path, x2, y2, ref, false, "with a bound of 0 MB");
    fail_if(the_entry(entry, sizeof entry), "an entry was kept above the bound");
    unsetenv("GLREPLAY_PIXEL_CACHE_MB");
    rmdir(cache_dir);
    disk = false;
    printf("pixel cache on disk: another process's history from the entry equals the driver's; a copy of the "
           "capture hits; damaged, truncated and foreign entries miss; the size bound holds\n");
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
    disk_checks(path, x1, y1, x2, y2, ref);
    ident_checks();
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
    printf("wall s: first %.2f, from the cache %.2f, the driver again %.2f, first with the disk cache %.2f, from "
           "the disk %.2f\n", wall[0], wall[1], wall[2], wall[disk_hit - 1], wall[disk_hit]);
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(ref);
    return 0;
}
