/* GLX and EGL context tracking: which contexts exist, their share groups, and which one is current
 * on each thread; plus the process-wide frame counter (frame N ends at the (N+1)-th swap).
 *
 * GLX and EGL both defer destroying a context that is current on some thread until it is released
 * there; the table mirrors that so a context destroyed while current elsewhere stays valid for the
 * thread still using it.
 */
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <EGL/egl.h>   /* EGL_DRAW (Khronos header, generated from egl.xml) */
#include "shim/shim_internal.h"

struct glr_context {
    uint32_t id;           /* 1, 2, ... in creation order; stable name in logs and captures */
    int api;               /* enum glr_ctx_api */
    void *display;
    void *handle;          /* GLXContext or EGLContext */
    uint32_t share_group;  /* id of the first context of its share group */
    unsigned current_on;   /* number of threads it is current on (0 or 1 by the APIs' rules) */
    bool destroy_requested;
    struct glr_context *next;
};

static pthread_mutex_t ctx_lock = PTHREAD_MUTEX_INITIALIZER;
static struct glr_context *ctx_list;
static uint32_t ctx_next_id = 1;
static unsigned ctx_created, ctx_alive, ctx_threads;
static uint64_t frame_counter;
static const struct glr_ctx_observer *observer;

void glr_ctx_set_observer(const struct glr_ctx_observer *o)
{
    __atomic_store_n(&observer, o, __ATOMIC_RELEASE);
}

static const struct glr_ctx_observer *current_observer(void)
{
    return __atomic_load_n(&observer, __ATOMIC_ACQUIRE);
}

static __thread struct glr_context *tls_current __attribute__((tls_model("initial-exec")));
static __thread bool tls_counted __attribute__((tls_model("initial-exec")));
/* The id of tls_current, kept beside it so that every recorded call reads one thread-local word
 * instead of calling glr_ctx_current and glr_ctx_id (issue 17 §3: 1.5 ns of a recorded call). A
 * context's id never changes and tls_current changes only in glr_ctx_made_current. */
__thread uint32_t glr_ctx_tls_id __attribute__((tls_model("initial-exec")));

static struct glr_context *find_locked(int api, void *display, void *handle)
{
    for (struct glr_context *c = ctx_list; c; c = c->next)
        if (c->api == api && c->handle == handle && (api == GLR_CTX_GLX || c->display == display))
            return c;
    return NULL;
}

static void unlink_locked(struct glr_context *dead)
{
    for (struct glr_context **pp = &ctx_list; *pp; pp = &(*pp)->next)
        if (*pp == dead) {
            *pp = dead->next;
            ctx_alive--;
            free(dead);
            return;
        }
}

void glr_ctx_created(int api, void *display, void *handle, void *share, const int *attribs, const char *how)
{
    (void)attribs;
    if (!handle)
        return;
    struct glr_context *c = calloc(1, sizeof *c);
    if (!c) {
        glr_log(GLR_LOG_ERROR, "out of memory tracking a new context; it will not be captured");
        return;
    }
    pthread_mutex_lock(&ctx_lock);
    c->id = ctx_next_id++;
    c->api = api;
    c->display = display;
    c->handle = handle;
    struct glr_context *s = share ? find_locked(api, display, share) : NULL;
    c->share_group = s ? s->share_group : c->id;
    c->next = ctx_list;
    ctx_list = c;
    ctx_created++;
    ctx_alive++;
    pthread_mutex_unlock(&ctx_lock);
    glr_log(GLR_LOG_DEBUG, "context %u created by %s (share group %u)", c->id, how, c->share_group);
    const struct glr_ctx_observer *o = current_observer();
    if (o)
        o->created(c->id, c->share_group, api);
}

void glr_ctx_destroyed(int api, void *display, void *handle)
{
    pthread_mutex_lock(&ctx_lock);
    struct glr_context *c = find_locked(api, display, handle);
    uint32_t id = c ? c->id : 0;
    /* Read before the unlink frees c: a context still current elsewhere stays counted alive. */
    bool deferred = c && c->current_on;
    if (c) {
        if (deferred)
            c->destroy_requested = true;
        else
            unlink_locked(c);
    }
    unsigned alive_after = ctx_alive - (deferred ? 1u : 0u);
    pthread_mutex_unlock(&ctx_lock);
    const struct glr_ctx_observer *o = current_observer();
    if (id && o)
        o->destroyed(id, alive_after);
}

void glr_ctx_made_current(int api, void *display, void *handle, uint32_t width, uint32_t height)
{
    pthread_mutex_lock(&ctx_lock);
    struct glr_context *old = tls_current;
    struct glr_context *c = handle ? find_locked(api, display, handle) : NULL;
    if (old != c) {
        if (old) {
            old->current_on--;
            if (old->destroy_requested && !old->current_on)
                unlink_locked(old);
        }
        if (c)
            c->current_on++;
    }
    bool changed = tls_current != c;
    tls_current = c;
    glr_ctx_tls_id = c ? c->id : 0;
    if (c && !tls_counted) {
        tls_counted = true;
        ctx_threads++;
    }
    uint32_t id = c ? c->id : 0;
    pthread_mutex_unlock(&ctx_lock);
    const struct glr_ctx_observer *o = current_observer();
    if (changed && o)
        o->made_current(id, width, height);
}

void glr_ctx_display_terminated(void *display)
{
    /* eglTerminate: contexts of the display are destroyed once no thread has them current. */
    pthread_mutex_lock(&ctx_lock);
    for (struct glr_context *c = ctx_list, *n; c; c = n) {
        n = c->next;
        if (c->api == GLR_CTX_EGL && c->display == display) {
            if (c->current_on)
                c->destroy_requested = true;
            else
                unlink_locked(c);
        }
    }
    pthread_mutex_unlock(&ctx_lock);
}

uint32_t glr_ctx_id(const struct glr_context *c)
{
    return c ? c->id : 0;
}

uint32_t glr_ctx_share_group(const struct glr_context *c)
{
    return c ? c->share_group : 0;
}

struct glr_context *glr_ctx_current(void)
{
    return tls_current;
}

bool glr_ctx_current_surface(int *api, void **display, void **surface)
{
    const struct glr_context *c = tls_current;
    if (!c)
        return false;
    *api = c->api;
    *display = c->display;
    if (c->api == GLR_CTX_GLX)
        *surface = (void *)(uintptr_t)GLR_REAL(glXGetCurrentDrawable)();
    else
        *surface = GLR_REAL(eglGetCurrentSurface)(EGL_DRAW);
    return *surface != NULL;
}

bool glr_ctx_is_current(int api, void *display, void *handle)
{
    const struct glr_context *c = tls_current;
    return c && c->api == api && c->display == display && c->handle == handle;
}

void glr_frame_end(void)
{
    __atomic_add_fetch(&frame_counter, 1, __ATOMIC_RELAXED);
}

uint64_t glr_frame_index(void)
{
    return __atomic_load_n(&frame_counter, __ATOMIC_RELAXED);
}

void glr_ctx_summary(unsigned *created, unsigned *alive, unsigned *threads)
{
    pthread_mutex_lock(&ctx_lock);
    *created = ctx_created;
    *alive = ctx_alive;
    *threads = ctx_threads;
    pthread_mutex_unlock(&ctx_lock);
}
