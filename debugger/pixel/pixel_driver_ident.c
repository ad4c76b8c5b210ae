/* The identity of the GL driver that made a pixel history's answers, for the on-disk cache
 * (pixel_disk_cache.c): a Mesa upgraded in place under the same environment replaces its files
 * (swrast_dri.so, libLLVM, libGLX_mesa...), and the old driver's answers must then not be taken.
 *
 * After a driver replay every shared object mapped in this process (dl_iterate_phdr: the driver
 * that the context loaded, its LLVM, the GL/EGL dispatch libraries) is named with its file's
 * device, inode, size and modification time. The cache keeps that list in its entry; a later
 * history (often another process, before any context is made, since a hit skips the replay)
 * stats the same paths again: any missing or changed file is a miss. Mapped libraries that are
 * not the driver's (libc, glreplay's own) are named too: replacing them may change the answers
 * as well, and the only cost is a miss after a system upgrade.
 *
 * GL_RENDERER/GL_VERSION are not part of it: they would need a context at lookup (the cost the
 * cache saves), and they are made by these same libraries under the environment variables that
 * the cache's key already holds.
 *
 * Bytes (the machine's order): u32 count, then per library u64 dev, ino, size, mtime s, mtime ns,
 * u32 path length, the path (no NUL). */
#include <link.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pixel_internal.h"

#define IDENT_FIELDS 5
#define MAX_LIBS 4096

struct ident_buf {
    uint8_t *b;
    size_t n, cap;
    uint32_t count;
    bool failed;
};

static void append(struct ident_buf *o, const void *p, size_t n)
{
    if (o->failed)
        return;
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 4096;
        while (cap < o->n + n)
            cap *= 2;
        uint8_t *nb = realloc(o->b, cap);
        if (!nb) {
            o->failed = true;
            return;
        }
        o->b = nb;
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void file_id(const struct stat *st, uint64_t id[IDENT_FIELDS])
{
    id[0] = (uint64_t)st->st_dev;
    id[1] = (uint64_t)st->st_ino;
    id[2] = (uint64_t)st->st_size;
    id[3] = (uint64_t)st->st_mtim.tv_sec;
    id[4] = (uint64_t)st->st_mtim.tv_nsec;
}

static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct ident_buf *o = data;
    const char *name = info->dlpi_name;
    size_t len = name ? strlen(name) : 0;
    struct stat st;
    /* the program itself (empty name) is in the key already; the vdso has no file */
    if (len == 0 || name[0] != '/' || len >= PATH_MAX || o->count >= MAX_LIBS || stat(name, &st) != 0)
        return 0;
    uint64_t id[IDENT_FIELDS];
    file_id(&st, id);
    uint32_t l = (uint32_t)len;
    append(o, id, sizeof id);
    append(o, &l, sizeof l);
    append(o, name, len);
    o->count++;
    return 0;
}

uint8_t *pxh_driver_ident(size_t *size)
{
    struct ident_buf o = { 0 };
    uint32_t zero = 0;
    append(&o, &zero, sizeof zero);   /* the count, set below */
    dl_iterate_phdr(add_object, &o);
    if (o.failed) {
        free(o.b);
        return NULL;
    }
    memcpy(o.b, &o.count, sizeof o.count);
    *size = o.n;
    return o.b;
}

bool pxh_driver_ident_same(const uint8_t *b, size_t n)
{
    uint32_t count;
    if (n < sizeof count)
        return false;
    memcpy(&count, b, sizeof count);
    size_t at = sizeof count;
    for (uint32_t i = 0; i < count; i++) {
        uint64_t want[IDENT_FIELDS], now[IDENT_FIELDS];
        uint32_t len;
        if (n - at < sizeof want + sizeof len)
            return false;
        memcpy(want, b + at, sizeof want);
        memcpy(&len, b + at + sizeof want, sizeof len);
        at += sizeof want + sizeof len;
        if (len == 0 || len >= PATH_MAX || n - at < len)
            return false;
        char path[PATH_MAX];
        memcpy(path, b + at, len);
        path[len] = 0;
        at += len;
        struct stat st;
        if (path[0] != '/' || strlen(path) != len || stat(path, &st) != 0)
            return false;
        file_id(&st, now);
        if (memcmp(want, now, sizeof want) != 0)
            return false;
    }
    return at == n;
}
