/* The pbuffers the program created (EGL and GLX), so a capture that ends without a swap can keep
 * a pbuffer's colour buffer as its reference image when the context is released: unlike a
 * window's, a pbuffer cannot have been destroyed under the driver by the window system (reading a
 * vanished window crashes the driver; see capture.c), so reading it before the release is safe.
 * Offscreen EGL tools render into pbuffers and release their context before exiting. */
#include <pthread.h>
#include <stdlib.h>
#include "shim/shim_internal.h"

struct pbuf {
    void *display;
    void *surface;
    bool drawn;   /* a draw or clear went to it while a capture recorded */
};

static pthread_mutex_t pb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pbuf *pbufs;
static unsigned n_pbufs, cap_pbufs;

void glr_pbuffer_created(void *display, void *surface)
{
    if (!surface)
        return;
    pthread_mutex_lock(&pb_lock);
    if (n_pbufs == cap_pbufs) {
        unsigned cap = cap_pbufs ? cap_pbufs * 2 : 8;
        struct pbuf *n = realloc(pbufs, cap * sizeof *n);
        if (n) {
            pbufs = n;
            cap_pbufs = cap;
        }
    }
    if (n_pbufs < cap_pbufs)   /* out of memory: the pbuffer is treated as a window (no image) */
        pbufs[n_pbufs++] = (struct pbuf){ display, surface, false };
    pthread_mutex_unlock(&pb_lock);
}

void glr_pbuffer_destroyed(void *display, void *surface)
{
    pthread_mutex_lock(&pb_lock);
    for (unsigned i = 0; i < n_pbufs; i++)
        if (pbufs[i].display == display && pbufs[i].surface == surface) {
            pbufs[i] = pbufs[--n_pbufs];
            break;
        }
    pthread_mutex_unlock(&pb_lock);
}

bool glr_pbuffer_known(void *display, void *surface)
{
    bool found = false;
    pthread_mutex_lock(&pb_lock);
    for (unsigned i = 0; i < n_pbufs && !found; i++)
        found = pbufs[i].display == display && pbufs[i].surface == surface;
    pthread_mutex_unlock(&pb_lock);
    return found;
}

bool glr_pbuffer_drawn(void *display, void *surface)
{
    bool drawn = false;
    pthread_mutex_lock(&pb_lock);
    for (unsigned i = 0; i < n_pbufs; i++)
        if (pbufs[i].display == display && pbufs[i].surface == surface)
            drawn = pbufs[i].drawn;
    pthread_mutex_unlock(&pb_lock);
    return drawn;
}

void glr_pbuffers_forget_drawn(void)
{
    pthread_mutex_lock(&pb_lock);
    for (unsigned i = 0; i < n_pbufs; i++)
        pbufs[i].drawn = false;
    pthread_mutex_unlock(&pb_lock);
}

/* The pbuffer this thread draws into (none: NULL), set at each make-current, so a draw costs one
 * test when no pbuffer is current. */
static __thread void *tls_display, *tls_surface;
static __thread bool tls_marked;

void glr_pbuffer_made_current(void *display, void *surface)
{
    bool known = surface && glr_pbuffer_known(display, surface);
    tls_display = display;
    tls_surface = known ? surface : NULL;
    tls_marked = false;
}

void glr_pbuffer_note_draw(bool fbo_bound)
{
    if (!tls_surface || tls_marked || fbo_bound)
        return;
    pthread_mutex_lock(&pb_lock);
    for (unsigned i = 0; i < n_pbufs; i++)
        if (pbufs[i].display == tls_display && pbufs[i].surface == tls_surface)
            pbufs[i].drawn = true;
    pthread_mutex_unlock(&pb_lock);
    tls_marked = true;
}

bool glr_pbuffer_current(void)
{
    return tls_surface && !tls_marked;
}
