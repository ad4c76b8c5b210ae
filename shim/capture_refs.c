/* Reference images of a capture of many frames. Every captured swap (and every end-of-capture
 * framebuffer) is read back and hashed, so `replay --verify` checks every frame; only the frames
 * GLREPLAY_CAPTURE_IMAGES names keep their pixels (stored, compressed, shown as differences and
 * PNGs). Keeping and compressing the whole back buffer of every frame made a recorded frame 200-460x
 * apitrace's bytes and cost ~21 M instructions per frame (issue 17 §3).
 *   ends (default)  the capture's first frame and its last (the newest frame is kept in full until a
 *                   newer one replaces it, so memory holds at most two frames of images)
 *   all             every frame
 *   none            hashes only
 *   N,M-K,...       those frames (absolute frame numbers), hashes for the others */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>
#include "shim/shim_internal.h"
#include "shim/capture_refs.h"

enum policy { KEEP_ENDS, KEEP_ALL, KEEP_NONE, KEEP_LIST };

#define MAX_RANGES 64

static enum policy policy = KEEP_ENDS;
static struct { uint64_t a, b; } ranges[MAX_RANGES];
static unsigned n_ranges;

static bool parse_list(const char *s)
{
    n_ranges = 0;
    while (*s) {
        char *end;
        if (*s < '0' || *s > '9')
            return false;
        uint64_t a = strtoull(s, &end, 10), b = a;
        if (*end == '-') {
            const char *t = end + 1;
            if (*t < '0' || *t > '9')
                return false;
            b = strtoull(t, &end, 10);
            if (b < a)
                return false;
        }
        if (n_ranges == MAX_RANGES)
            return false;
        ranges[n_ranges].a = a;
        ranges[n_ranges++].b = b;
        if (*end == ',')
            end++;
        else if (*end)
            return false;
        s = end;
    }
    return n_ranges > 0;
}

void glr_refs_init(void)
{
    const char *v = getenv("GLREPLAY_CAPTURE_IMAGES");
    if (!v || !*v || strcmp(v, "ends") == 0)
        policy = KEEP_ENDS;
    else if (strcmp(v, "all") == 0)
        policy = KEEP_ALL;
    else if (strcmp(v, "none") == 0)
        policy = KEEP_NONE;
    else if (parse_list(v))
        policy = KEEP_LIST;
    else
        glr_log(GLR_LOG_ERROR, "GLREPLAY_CAPTURE_IMAGES=%s is not ends, all, none or a list of frames "
                "(5,7-9); using ends", v);
}

static bool keep_full(uint64_t frame, uint64_t first, uint64_t newest)
{
    switch (policy) {
    case KEEP_ALL:
        return true;
    case KEEP_NONE:
        return false;
    case KEEP_LIST:
        for (unsigned i = 0; i < n_ranges; i++)
            if (frame >= ranges[i].a && frame <= ranges[i].b)
                return true;
        return false;
    case KEEP_ENDS:
    default:
        return frame == first || frame == newest;
    }
}

void glr_refs_thin(struct glr_ref_image *images, unsigned n, uint64_t first, uint64_t newest)
{
    for (unsigned i = 0; i < n; i++) {
        struct glr_ref_image *im = &images[i];
        if (!im->pixels || keep_full(im->frame, first, newest))
            continue;
        size_t size = (size_t)im->width * im->height * 4;
        im->hash = XXH3_64bits(im->pixels, size);
        im->hash_only = true;
        glr_ref_pixels_give(im->pixels, size);
        im->pixels = NULL;
    }
}

/* Every captured frame reads its image into a buffer that the next frame's thinning frees: one
 * buffer kept in between spares the program a fresh allocation per frame, whose first touch
 * (page faults and zeroed pages, ~0.9 MB at 640x360) cost more than the read-back's copy. Swaps
 * on several threads may race for it, hence the lock (one take and one give per frame). */
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static void *spare;
static size_t spare_size;

void *glr_ref_pixels_take(size_t size)
{
    void *p = NULL;
    pthread_mutex_lock(&spare_lock);
    if (spare && spare_size == size) {
        p = spare;
        spare = NULL;
    }
    pthread_mutex_unlock(&spare_lock);
    return p ? p : malloc(size);
}

void glr_ref_pixels_give(void *p, size_t size)
{
    pthread_mutex_lock(&spare_lock);
    void *old = spare;
    spare = p;
    spare_size = size;
    pthread_mutex_unlock(&spare_lock);
    free(old);
}
