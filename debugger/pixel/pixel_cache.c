/* The driver's answers of one pixel history, kept for the next history of the same capture and
 * target in this process (a DAP session clicks pixel after pixel of one frame; each history would
 * otherwise replay the frame on llvmpipe again: contexts, the snapshot's restore, the shader
 * compiles and every earlier pass, most of a history's time on terrain).
 *
 * What the driver gives a history does not depend on the pixel except for the target's value
 * after each probed record, so the first history of a (capture, target) also reads the whole
 * target after each of those records (pixel_feed.c, want_targets) and this file keeps them with
 * the earlier passes' images. A later history whose plan is the same (same records, textures and
 * sizes: the plan depends on the capture and target only) copies the images and reads its pixel
 * from the kept targets: no driver replay. One entry (the last capture and target), keyed by the
 * file's identity and modification time; a changed file misses. Histories may run on DAP worker
 * threads at once: the entry is locked and copied out, never lent. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pixel_internal.h"
#include "pixel_feed_priv.h"

/* Bounds of what is kept: the target images (one per probed record) and the entry in all. A frame
 * that draws into its target many times (a game's hundreds of draws into the back buffer) is not
 * kept: reading the whole target after each draw would cost the first history more than it saves. */
#define CACHE_MAX_TARGETS 64    /* back buffer, or an FBO target of one size (pxh_feed_target_size) */
#define CACHE_MAX_TARGET_BYTES (256ull << 20)
#define CACHE_MAX_BYTES (640ull << 20)
#define DISK_ONLY_MAX_TARGET_BYTES (64ull << 20)   /* 17 targets of 1280x720 */

struct cache_key {
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    struct pxh_target t;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static bool have;
static struct cache_key key;
static struct pxh_feed kept;   /* probes (records, buffers, images) and imgs (with their rgba) */

static bool key_of(const char *path, const struct pxh_target *t, struct cache_key *k)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return false;
    memset(k, 0, sizeof *k);
    k->dev = st.st_dev;
    k->ino = st.st_ino;
    k->size = st.st_size;
    k->mtime = st.st_mtim;
    k->t = *t;
    return true;
}

static bool same_key(const struct cache_key *a, const struct cache_key *b)
{
    return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime.tv_sec == b->mtime.tv_sec &&
           a->mtime.tv_nsec == b->mtime.tv_nsec && a->t.ctx_id == b->t.ctx_id && a->t.fbo == b->t.fbo &&
           a->t.attachment == b->t.attachment;
}

static void drop(void)
{
    for (size_t i = 0; i < kept.n_probes; i++)
        free(kept.probes[i].image);
    for (size_t i = 0; i < kept.n_imgs; i++)
        free(kept.imgs[i].rgba);
    free(kept.probes);
    free(kept.imgs);
    memset(&kept, 0, sizeof kept);
    have = false;
}

void pxh_cache_clear(void)
{
    pthread_mutex_lock(&lock);
    drop();
    pthread_mutex_unlock(&lock);
}

void pxh_feed_want_targets(struct pxh_feed *f, unsigned w, unsigned h, bool keep, bool disk)
{
    uint64_t bytes = (uint64_t)w * h * 4 * f->n_probes;
    /* a one-shot history that only writes the on-disk entry pays the reads and the write for a
     * later process that may never come: a smaller bound (terrain 1280x720: 3 targets, 11 MB) */
    uint64_t max_targets = keep ? CACHE_MAX_TARGET_BYTES : DISK_ONLY_MAX_TARGET_BYTES;
    if (!w || !h || w > 16384 || h > 16384 || !f->n_probes || f->n_probes > CACHE_MAX_TARGETS ||
        bytes > max_targets || bytes + f->bytes > CACHE_MAX_BYTES)
        return;
    f->want_targets = keep || disk;   /* the whole-target reads only serve a history that keeps them */
    f->tw = w;
    f->th = h;
}

static bool same_plan(const struct pxh_feed *a, const struct pxh_feed *b)
{
    if (a->n_probes != b->n_probes || a->n_imgs != b->n_imgs || a->tw != b->tw || a->th != b->th)
        return false;
    for (size_t i = 0; i < a->n_probes; i++)
        if (a->probes[i].record != b->probes[i].record || a->probes[i].buffer != b->probes[i].buffer)
            return false;
    for (size_t i = 0; i < a->n_imgs; i++) {
        const struct feed_img *x = &a->imgs[i], *y = &b->imgs[i];
        if (x->record != y->record || x->tex != y->tex || x->type != y->type || x->att != y->att || x->w != y->w ||
            x->h != y->h || x->bytes != y->bytes || x->format != y->format || x->data_type != y->data_type ||
            x->level != y->level || x->layer != y->layer || x->samples != y->samples || x->layers != y->layers)
            return false;
    }
    return true;
}

bool pxh_kept_answer(const struct pxh_feed *from, struct pxh_feed *f, int x, int y)
{
    if (!same_plan(f, from))
        return false;
    size_t n = 0;
    for (; n < f->n_imgs; n++) {
        const struct feed_img *src = &from->imgs[n];
        size_t sz = (size_t)pxh_feed_img_bytes(src);
        if (!(f->imgs[n].rgba = malloc(sz)))
            break;
        memcpy(f->imgs[n].rgba, src->rgba, sz);
    }
    if (n < f->n_imgs) {   /* out of memory: the driver replay gives them */
        while (n > 0)
            free(f->imgs[--n].rgba), f->imgs[n].rgba = NULL;
        return false;
    }
    for (size_t i = 0; i < f->n_probes; i++) {
        struct feed_probe *p = &f->probes[i];
        p->answered = true;
        p->ok = x >= 0 && y >= 0 && (unsigned)x < f->tw && (unsigned)y < f->th;   /* as a read outside fails */
        if (p->ok)
            memcpy(p->rgba, from->probes[i].image + ((size_t)y * f->tw + (size_t)x) * 4, 4);
    }
    return true;
}

bool pxh_cache_take(struct pxh_feed *f, const char *path, const struct pxh_target *t, int x, int y)
{
    struct cache_key k;
    if (!f->tw || !key_of(path, t, &k))
        return false;
    pthread_mutex_lock(&lock);
    bool hit = have && same_key(&k, &key) && pxh_kept_answer(&kept, f, x, y);
    pthread_mutex_unlock(&lock);
    return hit;
}

void pxh_cache_put(struct pxh_feed *f, const char *path, const struct pxh_target *t)
{
    struct cache_key k;
    if (!f->want_targets || !key_of(path, t, &k))
        return;
    /* Only a complete answer is kept: every probed record read whole, every image given. */
    for (size_t i = 0; i < f->n_probes; i++)
        if (!f->probes[i].answered || !f->probes[i].image)
            return;
    for (size_t i = 0; i < f->n_imgs; i++)
        if (!f->imgs[i].rgba)
            return;
    struct feed_probe *probes = calloc(f->n_probes, sizeof *probes);
    struct feed_img *imgs = calloc(f->n_imgs ? f->n_imgs : 1, sizeof *imgs);
    bool ok = probes && imgs;
    for (size_t i = 0; ok && i < f->n_imgs; i++) {
        size_t sz = (size_t)pxh_feed_img_bytes(&f->imgs[i]);
        imgs[i] = f->imgs[i];
        ok = (imgs[i].rgba = malloc(sz)) != NULL;
        if (ok)
            memcpy(imgs[i].rgba, f->imgs[i].rgba, sz);
    }
    if (!ok) {
        for (size_t i = 0; imgs && i < f->n_imgs; i++)
            free(imgs[i].rgba);
        free(imgs);
        free(probes);
        return;
    }
    /* the target images are the feed's no longer: the history reads its pixel from rgba */
    for (size_t i = 0; i < f->n_probes; i++) {
        probes[i] = f->probes[i];
        f->probes[i].image = NULL;
    }
    pthread_mutex_lock(&lock);
    drop();
    key = k;
    kept.probes = probes;
    kept.n_probes = f->n_probes;
    kept.imgs = imgs;
    kept.n_imgs = f->n_imgs;
    kept.tw = f->tw;
    kept.th = f->th;
    have = true;
    pthread_mutex_unlock(&lock);
}
