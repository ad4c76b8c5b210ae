/* Display lists kept for later captures: the kept lists per share group, their memory cap, and which
 * commands GL compiles into a list. See display_lists.h; the glNewList / glEndList / glDeleteLists
 * hooks (display_list_hooks.c) tell this file of lists, and the recording itself is recorder.c's
 * (a list buffer per thread), which calls down to this file for the cap. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/display_lists.h"
#include "registry/glr_call.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

struct dl_entry {
    uint32_t share_group, name, ctx_id;
    uint8_t *data;          /* NULL when dropped (or empty) */
    size_t size;
    const char *why;        /* dropped: the cause */
};

static pthread_mutex_t dl_lock = PTHREAD_MUTEX_INITIALIZER;
/* Every kept or dropped list, sorted by (share_group, name): lists are usually made with rising
 * names, so an insert is mostly an append. Guarded by dl_lock. */
static struct dl_entry *entries;
static size_t n_entries, cap_entries;
static unsigned open_lists;            /* threads with a list open; guarded by dl_lock */
static size_t dl_bytes;                /* bytes reserved by list buffers, atomic */
static size_t dl_cap;                  /* GLREPLAY_LIST_MAX_MB, set at the first list */

/* The list open on this thread. */
static __thread struct { uint32_t name, share_group, ctx_id; } tls_open;

static const char *const why_cap = "its records went over the display-list memory cap (GLREPLAY_LIST_MAX_MB, "
                                   "default 256) or memory ran out while it was compiled";

/* ---------------------------------------------------------------- compiled commands */

bool glr_dl_compiled(int cmd)
{
    if (cmd >= GLR_CMD_COUNT)
        return cmd == GLR_PSEUDO_CLIENT_ARRAY;  /* data a draw inside the list read */
    return cmd >= 0 && glr_cmd_compiled_into_list((uint32_t)cmd);   /* registry/glr_dlist.c */
}

/* ---------------------------------------------------------------- memory */

static size_t cap_bytes(void)
{
    size_t c = __atomic_load_n(&dl_cap, __ATOMIC_RELAXED);
    if (!c) {
        const char *e = getenv("GLREPLAY_LIST_MAX_MB");
        unsigned long long mb = e && *e ? strtoull(e, NULL, 10) : 256;
        c = mb ? (size_t)mb << 20 : 1;
        __atomic_store_n(&dl_cap, c, __ATOMIC_RELAXED);
    }
    return c;
}

bool glr_dl_may_grow(size_t bytes)
{
    size_t cap = cap_bytes();
    size_t now = __atomic_add_fetch(&dl_bytes, bytes, __ATOMIC_RELAXED);
    if (now <= cap)
        return true;
    __atomic_sub_fetch(&dl_bytes, bytes, __ATOMIC_RELAXED);
    return false;
}

void glr_dl_release_bytes(size_t bytes)
{
    __atomic_sub_fetch(&dl_bytes, bytes, __ATOMIC_RELAXED);
}

/* ---------------------------------------------------------------- kept lists */

static int cmp_key(const struct dl_entry *e, uint32_t group, uint32_t name)
{
    if (e->share_group != group)
        return e->share_group < group ? -1 : 1;
    return e->name < name ? -1 : e->name > name ? 1 : 0;
}

/* First entry not below (group, name). */
static size_t lower_bound_locked(uint32_t group, uint32_t name)
{
    if (n_entries && cmp_key(&entries[n_entries - 1], group, name) < 0)
        return n_entries;  /* the usual append */
    size_t lo = 0, hi = n_entries;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cmp_key(&entries[mid], group, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static void drop_entry_locked(struct dl_entry *e)
{
    if (e->data) {
        glr_dl_release_bytes(e->size);
        free(e->data);
    }
    e->data = NULL;
}

static void store(uint32_t group, uint32_t name, uint32_t ctx_id, uint8_t *buf, size_t size, size_t reserved,
                  bool failed)
{
    const char *why = NULL;
    if (failed) {
        free(buf);
        glr_dl_release_bytes(reserved);
        buf = NULL;
        size = 0;
        why = why_cap;
        glr_log(GLR_LOG_INFO, "display list %u of share group %u was not kept: %s", name, group, why);
    } else if (buf && size < reserved) {
        uint8_t *s = size ? realloc(buf, size) : NULL;
        if (s || !size) {
            if (!size)
                free(buf);
            buf = s;
            glr_dl_release_bytes(reserved - size);
        } else {
            size = reserved;  /* keep the bigger buffer, accounted as it is */
        }
    }
    pthread_mutex_lock(&dl_lock);
    size_t at = lower_bound_locked(group, name);
    if (at < n_entries && cmp_key(&entries[at], group, name) == 0) {
        drop_entry_locked(&entries[at]);  /* a new list replaces the old one of that name */
    } else {
        if (n_entries == cap_entries) {
            size_t cap = cap_entries ? cap_entries * 2 : 64;
            struct dl_entry *n = realloc(entries, cap * sizeof *n);
            if (!n) {
                pthread_mutex_unlock(&dl_lock);
                free(buf);
                if (buf)
                    glr_dl_release_bytes(size);
                glr_log(GLR_LOG_WARN, "display list %u of share group %u was not kept: out of memory", name, group);
                return;
            }
            entries = n;
            cap_entries = cap;
        }
        memmove(&entries[at + 1], &entries[at], (n_entries - at) * sizeof *entries);
        n_entries++;
    }
    entries[at] = (struct dl_entry){ .share_group = group, .name = name, .ctx_id = ctx_id, .data = buf,
                                     .size = buf ? size : 0, .why = why };
    pthread_mutex_unlock(&dl_lock);
}

/* ---------------------------------------------------------------- lists opened, closed, deleted */

void glr_dl_opening(void)
{
    cap_bytes();   /* the cap is read before the list's first record needs it */
}

void glr_dl_opened(uint32_t name, uint32_t share_group, uint32_t ctx_id)
{
    tls_open.name = name;
    tls_open.share_group = share_group;
    tls_open.ctx_id = ctx_id;
    /* Every thread takes the wrappers' slow path while some list is open (only the thread that
     * compiles records into it; the others forward as they do during a capture). */
    pthread_mutex_lock(&dl_lock);
    if (open_lists++ == 0)
        __atomic_or_fetch(&glr_slow_mode, GLR_SLOW_LIST, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&dl_lock);
}

void glr_dl_closed(uint8_t *buf, size_t size, size_t reserved, bool failed)
{
    store(tls_open.share_group, tls_open.name, tls_open.ctx_id, buf, size, reserved, failed);
    pthread_mutex_lock(&dl_lock);
    if (open_lists && --open_lists == 0)
        __atomic_and_fetch(&glr_slow_mode, ~(unsigned)GLR_SLOW_LIST, __ATOMIC_SEQ_CST);
    pthread_mutex_unlock(&dl_lock);
}

void glr_dl_deleted(uint32_t share_group, uint32_t list, uint32_t range)
{
    uint32_t group = share_group;
    uint64_t last = (uint64_t)list + (uint64_t)range;  /* one past */
    pthread_mutex_lock(&dl_lock);
    size_t a = lower_bound_locked(group, list), b = a;
    while (b < n_entries && entries[b].share_group == group && entries[b].name < last) {
        drop_entry_locked(&entries[b]);
        b++;
    }
    memmove(&entries[a], &entries[b], (n_entries - b) * sizeof *entries);
    n_entries -= b - a;
    pthread_mutex_unlock(&dl_lock);
}

/* ---------------------------------------------------------------- snapshot */

struct glr_dl_copy *glr_dl_copy_all(size_t *n)
{
    *n = 0;
    pthread_mutex_lock(&dl_lock);
    struct glr_dl_copy *out = n_entries ? calloc(n_entries, sizeof *out) : NULL;
    bool oom = n_entries && !out;
    for (size_t i = 0; out && i < n_entries; i++) {
        const struct dl_entry *e = &entries[i];
        struct glr_dl_copy *o = &out[i];
        o->share_group = e->share_group;
        o->name = e->name;
        o->ctx_id = e->ctx_id;
        o->why = e->why;
        o->size = e->size;
        if (e->data) {
            o->data = malloc(e->size);
            if (!o->data) {
                o->size = 0;
                o->why = "out of memory copying it at the snapshot";
                continue;
            }
            memcpy(o->data, e->data, e->size);
        }
    }
    if (out)
        *n = n_entries;
    pthread_mutex_unlock(&dl_lock);
    if (oom)
        glr_log(GLR_LOG_ERROR, "snapshot: out of memory listing the display lists; none is kept");
    return out;
}

void glr_dl_free_copies(struct glr_dl_copy *c, size_t n)
{
    for (size_t i = 0; c && i < n; i++)
        free(c[i].data);
    free(c);
}
