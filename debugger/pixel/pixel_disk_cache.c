/* The driver's answers of a pixel history kept on disk, for the next history of the same capture
 * and target in another process (`glreplay pixel` runs one history per process: without this every
 * click of a pixel in a shell loop or a script replays the frame on llvmpipe again).
 *
 * What is kept is what the in-process cache (pixel_cache.c) keeps: the whole target after every
 * probed record and the earlier passes' images. An entry is named by a hash of the capture's
 * content, the target and what made the answers (this executable, the environment variables that
 * choose or tune the driver; XXH3); it holds those again and a hash of its payload, so a renamed, copied
 * or touched capture still hits, and a changed capture, another build or a corrupt or foreign
 * entry misses. Entries are untrusted input: every count and size is checked against the plan of
 * the history that reads it and the bounds of what is written, before anything is used.
 *
 * Where: GLREPLAY_PIXEL_CACHE=DIR, else $XDG_CACHE_HOME/glreplay/pixel, else
 * ~/.cache/glreplay/pixel; GLREPLAY_PIXEL_CACHE=0 turns it off. Directories are made 0700,
 * entries 0600 and written under a temporary name then renamed (another process reads a whole
 * entry or none). The directory is kept under GLREPLAY_PIXEL_CACHE_MB megabytes (default 1024):
 * a write removes the least recently used entries (a hit marks its entry used) above that.
 *
 * A driver (Mesa) upgraded in place under the same environment misses too: an entry names the
 * files of the libraries mapped when its answers were made (pixel_driver_ident.c), and a take
 * finds them all unchanged or misses. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "pixel_internal.h"
#include "pixel_feed_priv.h"

extern char **environ;

#define ENTRY_MAGIC "GLRPXHC2"    /* 8 bytes; the 1 is the format's version */
#define ENTRY_SUFFIX ".glpx"
#define HEADER_BYTES 96
#define PROBE_BYTES 16
#define IMG_BYTES 48
#define MAX_ENTRY_BYTES (700ull << 20)   /* above pixel_cache.c's bound of what it keeps in all */
#define DEFAULT_BOUND_MB 1024

/* ---- where, and under what identity ---- */

/* mkdir of base, then of base/sub/sub... for each sub (those that are missing; 0700): base's
 * parent must exist (the cache folder's, XDG_CACHE_HOME's or HOME's). */
static bool make_below(char *dir, size_t n, const char *base, const char *const *subs)
{
    if (snprintf(dir, n, "%s", base) >= (int)n || dir[0] != '/' || (mkdir(dir, 0700) != 0 && errno != EEXIST))
        return false;
    for (; *subs; subs++) {
        size_t len = strlen(dir);
        if (snprintf(dir + len, n - len, "/%s", *subs) >= (int)(n - len) || (mkdir(dir, 0700) != 0 && errno != EEXIST))
            return false;
    }
    struct stat st;
    return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The cache directory into dir (false: off or unusable). Read at every use: a test or a DAP
 * client's environment may change it between histories. */
static bool cache_dir(char *dir, size_t n)
{
    static const char *const none[] = { NULL }, *const xdg_subs[] = { "glreplay", "pixel", NULL },
                             *const home_subs[] = { ".cache", "glreplay", "pixel", NULL };
    const char *env = getenv("GLREPLAY_PIXEL_CACHE");
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    bool ok;
    if (env && *env) {
        if (strcmp(env, "0") == 0)
            return false;
        ok = make_below(dir, n, env, none);
    } else if (xdg && xdg[0] == '/') {
        ok = make_below(dir, n, xdg, xdg_subs);
    } else {
        ok = home && make_below(dir, n, home, home_subs);
    }
    return ok && strlen(dir) < n - 40;
}

bool pxh_disk_on(void)
{
    char dir[PATH_MAX - 64];
    return cache_dir(dir, sizeof dir);
}

/* What made the answers besides the capture: this executable (a rebuild may replay differently)
 * and the environment variables that choose or tune the driver. */
static uint64_t maker_hash(void)
{
    XXH3_state_t *x = XXH3_createState();
    if (!x)
        return 0;
    XXH3_64bits_reset(x);
    struct stat st;
    if (stat("/proc/self/exe", &st) == 0) {
        uint64_t id[4] = { (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec, (uint64_t)st.st_mtim.tv_nsec,
                           (uint64_t)st.st_ino };
        XXH3_64bits_update(x, id, sizeof id);
    }
    static const char *const prefixes[] = { "MESA_", "LIBGL_", "GALLIUM_", "LP_", "EGL_", "__GLX_", "__EGL_",
                                            "GLREPLAY_REPLAY" };
    for (char **e = environ; e && *e; e++)
        for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
            if (strncmp(*e, prefixes[i], strlen(prefixes[i])) == 0 &&
                strncmp(*e, "MESA_SHADER_CACHE", 17) != 0)   /* where compiles are kept, not what they give */
                XXH3_64bits_update(x, *e, strlen(*e) + 1);
    uint64_t h = XXH3_64bits_digest(x);
    XXH3_freeState(x);
    return h;
}

/* The capture's content hash (XXH3) and size (false: unreadable). */
static bool capture_hash(const char *path, uint64_t *hash, uint64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    XXH3_state_t *x = XXH3_createState();
    uint64_t total = 0;
    bool ok = buf && x;
    if (ok)
        XXH3_64bits_reset(x);
    while (ok) {
        ssize_t r = read(fd, buf, CHUNK);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            ok = false;
        if (r <= 0)
            break;
        XXH3_64bits_update(x, buf, (size_t)r);
        total += (uint64_t)r;
    }
    if (ok)
        *hash = XXH3_64bits_digest(x);
    XXH3_freeState(x);
    free(buf);
    close(fd);
    *size = total;
    return ok;
}

struct entry_key {
    uint64_t capture, capture_size, maker;
    struct pxh_target t;
    char path[PATH_MAX];
};

static bool key_of(const char *capture, const struct pxh_target *t, struct entry_key *k)
{
    char dir[PATH_MAX - 64];
    memset(k, 0, sizeof *k);
    if (!cache_dir(dir, sizeof dir) || !capture_hash(capture, &k->capture, &k->capture_size))
        return false;
    k->maker = maker_hash();
    k->t = *t;
    uint64_t id[5] = { k->capture, k->maker, t->ctx_id, t->fbo, (uint32_t)t->attachment };
    uint64_t name = XXH3_64bits(id, sizeof id);
    snprintf(k->path, sizeof k->path, "%s/%016llx" ENTRY_SUFFIX, dir, (unsigned long long)name);
    return true;
}

/* ---- the entry's bytes: fixed-width fields in the machine's byte order (an entry written on a
 * machine of the other order fails the key's checks: a miss) ---- */

static void put32(uint8_t **p, uint32_t v)
{
    memcpy(*p, &v, 4);
    *p += 4;
}

static void put64(uint8_t **p, uint64_t v)
{
    memcpy(*p, &v, 8);
    *p += 8;
}

static uint32_t get32(const uint8_t **p)
{
    uint32_t v;
    memcpy(&v, *p, 4);
    *p += 4;
    return v;
}

static uint64_t get64(const uint8_t **p)
{
    uint64_t v;
    memcpy(&v, *p, 8);
    *p += 8;
    return v;
}

/* Which image of its object an entry's image is, in one word: level (4 bits), samples (6), layer (20);
 * 0 for level 0, layer 0 of a single-sample image (what the word held before it said this). */
static uint32_t image_word(const struct feed_img *m)
{
    return ((uint32_t)m->level & 0xfu) << 26 | ((m->samples > 1 ? m->samples : 0u) & 0x3fu) << 20 |
           ((uint32_t)m->layer & 0xfffffu);
}

static uint64_t img_size(const struct feed_img *m)
{
    return pxh_feed_img_bytes(m);
}

/* Header: magic, key (capture hash and size, maker, target), the plan's shape (target size,
 * counts, the driver identity's size), the payload's size and hash. Payload: the driver's identity
 * (pixel_driver_ident.c), probes, images' descriptions, the target after each probe (tw x th x 4),
 * each image's bytes. */
static void write_header(uint8_t *b, const struct entry_key *k, const struct pxh_feed *f, uint32_t ident,
                         uint64_t payload, uint64_t payload_hash)
{
    uint8_t *p = b;
    memcpy(p, ENTRY_MAGIC, 8);
    p += 8;
    put64(&p, k->capture);
    put64(&p, k->capture_size);
    put64(&p, k->maker);
    put32(&p, k->t.ctx_id);
    put32(&p, k->t.fbo);
    put32(&p, (uint32_t)k->t.attachment);
    put32(&p, f->tw);
    put32(&p, f->th);
    put32(&p, ident);
    put64(&p, f->n_probes);
    put64(&p, f->n_imgs);
    put64(&p, payload);
    put64(&p, payload_hash);
    memset(p, 0, HEADER_BYTES - (size_t)(p - b));
}

/* Removes the least recently used entries until the directory's entries take at most the bound. */
static void bound_directory(const char *entry_path)
{
    const char *env = getenv("GLREPLAY_PIXEL_CACHE_MB");
    uint64_t bound = (uint64_t)DEFAULT_BOUND_MB << 20;
    if (env && *env) {
        char *end;
        unsigned long long mb = strtoull(env, &end, 10);
        if (*end == 0)
            bound = (uint64_t)mb << 20;
    }
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", entry_path);
    char *slash = strrchr(dir, '/');
    if (!slash)
        return;
    *slash = 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct old { char name[64]; uint64_t size; struct timespec used; } *v = NULL;
    size_t n = 0, cap = 0;
    uint64_t total = 0;
    for (struct dirent *de; (de = readdir(d));) {
        size_t len = strlen(de->d_name);
        struct stat st;
        if (len >= 64 || len < sizeof ENTRY_SUFFIX || strcmp(de->d_name + len - 5, ENTRY_SUFFIX) != 0 ||
            fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
            continue;
        if (n == cap) {
            struct old *nv = realloc(v, (cap = cap ? cap * 2 : 32) * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        memcpy(v[n].name, de->d_name, len + 1);   /* len < sizeof name, checked above */
        v[n].size = (uint64_t)st.st_size;
        v[n].used = st.st_mtim;
        total += v[n++].size;
    }
    while (total > bound && n > 0) {   /* the oldest first; n is small (bounded by the bound) */
        size_t o = 0;
        for (size_t i = 1; i < n; i++)
            if (v[i].used.tv_sec < v[o].used.tv_sec ||
                (v[i].used.tv_sec == v[o].used.tv_sec && v[i].used.tv_nsec < v[o].used.tv_nsec))
                o = i;
        unlinkat(dirfd(d), v[o].name, 0);
        total -= v[o].size;
        v[o] = v[--n];
    }
    free(v);
    closedir(d);
}

void pxh_disk_put(const struct pxh_feed *f, const char *capture, const struct pxh_target *t)
{
    if (!f->want_targets)
        return;
    for (size_t i = 0; i < f->n_probes; i++)   /* only a complete answer, as pixel_cache.c keeps */
        if (!f->probes[i].answered || !f->probes[i].image)
            return;
    for (size_t i = 0; i < f->n_imgs; i++)
        if (!f->imgs[i].rgba)
            return;
    struct entry_key k;
    if (!key_of(capture, t, &k))
        return;
    const uint8_t *ident = f->driver_ident;   /* named during the replay (pixel_feed.c) */
    size_t ident_size = f->driver_ident_size;
    if (!ident || ident_size > UINT32_MAX)
        return;
    uint64_t target_bytes = (uint64_t)f->tw * f->th * 4;
    uint64_t payload = ident_size + f->n_probes * (PROBE_BYTES + target_bytes) + f->n_imgs * IMG_BYTES;
    for (size_t i = 0; i < f->n_imgs; i++)
        payload += img_size(&f->imgs[i]);
    uint8_t *b = HEADER_BYTES + payload > MAX_ENTRY_BYTES ? NULL : malloc(HEADER_BYTES + payload);
    if (!b)
        return;
    uint8_t *p = b + HEADER_BYTES;
    memcpy(p, ident, ident_size);
    p += ident_size;
    for (size_t i = 0; i < f->n_probes; i++) {
        put64(&p, f->probes[i].record);
        put32(&p, f->probes[i].buffer);
        put32(&p, f->probes[i].ok);
    }
    for (size_t i = 0; i < f->n_imgs; i++) {
        const struct feed_img *m = &f->imgs[i];
        put64(&p, m->record);
        put32(&p, m->tex);
        put32(&p, m->att);
        put32(&p, m->internal_format);
        put32(&p, m->w);
        put32(&p, m->h);
        put32(&p, m->type);
        put32(&p, m->format);
        put32(&p, m->data_type);
        put32(&p, m->bytes);
        put32(&p, image_word(m));   /* 0 before session 14 */
    }
    for (size_t i = 0; i < f->n_probes; i++, p += target_bytes)
        memcpy(p, f->probes[i].image, target_bytes);
    for (size_t i = 0; i < f->n_imgs; i++) {
        memcpy(p, f->imgs[i].rgba, img_size(&f->imgs[i]));
        p += img_size(&f->imgs[i]);
    }
    write_header(b, &k, f, (uint32_t)ident_size, payload, XXH3_64bits(b + HEADER_BYTES, payload));
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.XXXXXX", k.path);
    int fd = mkstemp(tmp);   /* 0600 */
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    bool ok = out && fwrite(b, 1, HEADER_BYTES + payload, out) == HEADER_BYTES + payload;
    if (out ? fclose(out) != 0 : fd >= 0 && close(fd) != 0)
        ok = false;
    if (ok)
        ok = rename(tmp, k.path) == 0;
    if (!ok && fd >= 0)
        unlink(tmp);
    free(b);
    if (ok)
        bound_directory(k.path);
}

/* The entry's file, whole (NULL: none, not a plain file, or too large). */
static uint8_t *read_entry(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    FILE *in = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!in) {
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    struct stat st;
    uint8_t *buf = NULL;
    *size = 0;
    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= HEADER_BYTES &&
        (uint64_t)st.st_size <= MAX_ENTRY_BYTES && (buf = malloc((size_t)st.st_size)) &&
        fread(buf, 1, (size_t)st.st_size, in) == (size_t)st.st_size && fgetc(in) == EOF) {
        *size = (size_t)st.st_size;
    } else {   /* not a plain file, too small or large, or changed while read */
        free(buf);
        buf = NULL;
    }
    fclose(in);
    return buf;
}

/* Parses and checks an entry against the key and this history's plan (f: its probes' records and
 * buffers, its images' descriptions, the target's size); fills kept (probes with their images,
 * images with their bytes, all copied out of buf). false: anything differs or does not add up. */
static bool parse_entry(const uint8_t *buf, size_t size, const struct entry_key *k, const struct pxh_feed *f,
                        struct pxh_feed *kept)
{
    const uint8_t *p = buf;
    if (memcmp(p, ENTRY_MAGIC, 8) != 0)
        return false;
    p += 8;
    uint64_t cap_hash = get64(&p), cap_size = get64(&p), maker = get64(&p);
    uint32_t ctx = get32(&p), fbo = get32(&p), att = get32(&p), tw = get32(&p), th = get32(&p);
    uint32_t ident = get32(&p);
    uint64_t n_probes = get64(&p), n_imgs = get64(&p), payload = get64(&p), payload_hash = get64(&p);
    if (cap_hash != k->capture || cap_size != k->capture_size || maker != k->maker || ctx != k->t.ctx_id ||
        fbo != k->t.fbo || att != (uint32_t)k->t.attachment || tw != f->tw || th != f->th ||
        n_probes != f->n_probes || n_imgs != f->n_imgs || payload != size - HEADER_BYTES || ident > payload ||
        XXH3_64bits(buf + HEADER_BYTES, payload) != payload_hash ||
        !pxh_driver_ident_same(buf + HEADER_BYTES, ident))   /* the driver that made them is still there */
        return false;
    /* the counts are the plan's (bounded by pixel_cache.c's want_targets), so these cannot wrap */
    uint64_t target_bytes = (uint64_t)tw * th * 4;
    uint64_t need = ident + n_probes * (PROBE_BYTES + target_bytes) + n_imgs * IMG_BYTES;
    if (need > payload)
        return false;
    p = buf + HEADER_BYTES + ident;
    kept->probes = calloc(n_probes ? n_probes : 1, sizeof *kept->probes);
    kept->imgs = calloc(n_imgs ? n_imgs : 1, sizeof *kept->imgs);
    if (!kept->probes || !kept->imgs)
        return false;
    kept->n_probes = n_probes;
    kept->n_imgs = n_imgs;
    kept->tw = tw;
    kept->th = th;
    kept->want_targets = true;
    for (size_t i = 0; i < n_probes; i++) {
        struct feed_probe *q = &kept->probes[i];
        q->record = get64(&p);
        q->buffer = get32(&p);
        q->ok = get32(&p) != 0;
        q->answered = true;
        if (q->record != f->probes[i].record || q->buffer != f->probes[i].buffer)
            return false;
    }
    for (size_t i = 0; i < n_imgs; i++) {
        struct feed_img *m = &kept->imgs[i];
        const struct feed_img *want = &f->imgs[i];
        m->record = get64(&p);
        m->tex = get32(&p);
        m->att = get32(&p);
        m->internal_format = get32(&p);
        m->w = get32(&p);
        m->h = get32(&p);
        m->type = get32(&p);
        m->format = get32(&p);
        m->data_type = get32(&p);
        m->bytes = get32(&p);
        uint32_t ll = get32(&p);
        m->level = want->level;
        m->layer = want->layer;
        m->samples = want->samples;
        m->layers = want->layers;   /* (from the plan, as the capture's hash is the entry's key) */
        if (ll != image_word(want) || m->record != want->record || m->tex != want->tex || m->att != want->att || m->w != want->w ||
            m->h != want->h || m->type != want->type || m->format != want->format ||
            m->data_type != want->data_type || m->bytes != want->bytes)
            return false;
        need += img_size(m);   /* each below the plan's bound: w, h <= 16384, bytes <= 16 */
    }
    if (need != payload)
        return false;
    for (size_t i = 0; i < n_probes; i++) {
        if (!(kept->probes[i].image = malloc(target_bytes)))
            return false;
        memcpy(kept->probes[i].image, p, target_bytes);
        p += target_bytes;
    }
    for (size_t i = 0; i < n_imgs; i++) {
        uint64_t sz = img_size(&kept->imgs[i]);
        if (!(kept->imgs[i].rgba = malloc(sz)))
            return false;
        memcpy(kept->imgs[i].rgba, p, sz);
        p += sz;
    }
    return true;
}

static void free_kept(struct pxh_feed *kept)
{
    for (size_t i = 0; kept->probes && i < kept->n_probes; i++)
        free(kept->probes[i].image);
    for (size_t i = 0; kept->imgs && i < kept->n_imgs; i++)
        free(kept->imgs[i].rgba);
    free(kept->probes);
    free(kept->imgs);
}

bool pxh_disk_take(struct pxh_feed *f, const char *capture, const struct pxh_target *t, int x, int y, bool keep)
{
    struct entry_key k;
    if (!f->want_targets || !key_of(capture, t, &k))
        return false;
    size_t size = 0;
    uint8_t *buf = read_entry(k.path, &size);
    if (!buf)
        return false;
    struct pxh_feed kept;
    memset(&kept, 0, sizeof kept);
    bool ok = parse_entry(buf, size, &k, f, &kept);
    free(buf);
    if (ok)
        ok = pxh_kept_answer(&kept, f, x, y);
    if (ok && keep)   /* the next history in this process from memory */
        pxh_cache_put(&kept, capture, t);
    free_kept(&kept);
    if (ok)
        utimensat(AT_FDCWD, k.path, NULL, AT_SYMLINK_NOFOLLOW);   /* used now: the last to go */
    return ok;
}
