/* Always-on object tracking: a process-wide state model (statemodel/) fed by the generated wrappers
 * of object creation/deletion and link-input commands, and by the context hooks. See track.h.
 *
 * Cost: only tracked commands (glGen*, glCreate*, glDelete*, glShaderSource, glLinkProgram, ...)
 * come here, after the driver returned; one mutex per call. Hot state-setting commands never do. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include "shim/shim_internal.h"
#include "shim/track.h"
#include "statemodel/statemodel.h"

static pthread_mutex_t track_lock = PTHREAD_MUTEX_INITIALIZER;
static struct sm_state *track_state;

/* Contexts known to the shim: declared in the model at their first make-current. */
struct track_ctx {
    uint32_t id, share_group;
    bool declared;
    bool es;
    int major, minor, profile_mask;
};
static struct track_ctx *tctx;
static size_t n_tctx, cap_tctx;

static struct sm_state *state_locked(void)
{
    if (!track_state)
        track_state = sm_state_new();
    return track_state;
}

void glr_track_blob(struct glr_blob *b, const void *data, int64_t size)
{
    b->data = data && size > 0 ? data : NULL;
    b->size = data && size > 0 ? (uint64_t)size : 0;
}

void glr_track_string(struct glr_blob *b, const char *s)
{
    glr_track_blob(b, s, s ? (int64_t)strlen(s) + 1 : 0);
}

unsigned glr_track_strings(struct glr_blob *b, const char *const *strings, int64_t count, const int *lengths)
{
    b->data = NULL;
    b->size = 0;
    if (!strings || count <= 0 || count > (1 << 20))
        return 0;
    uint64_t total = 4;
    for (int64_t i = 0; i < count; i++)
        total += 4 + (!strings[i] ? 0 : lengths && lengths[i] >= 0 ? (size_t)lengths[i] : strlen(strings[i]));
    uint8_t *p = malloc(total);
    if (!p)
        return 0;
    uint32_t c32 = (uint32_t)count;
    memcpy(p, &c32, 4);
    size_t o = 4;
    for (int64_t i = 0; i < count; i++) {
        uint32_t n = !strings[i] ? 0 : lengths && lengths[i] >= 0 ? (uint32_t)lengths[i] : (uint32_t)strlen(strings[i]);
        memcpy(p + o, &n, 4);
        o += 4;
        if (n)
            memcpy(p + o, strings[i], n);
        o += n;
    }
    b->data = p;
    b->size = total;
    return 1;
}

void glr_track_call(uint32_t cmd, const uint64_t *args, const struct glr_blob *blobs, int nargs, uint64_t ret,
                    int has_ret, unsigned owned_mask)
{
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    if (!glr_disabled && ctx) {
        struct glr_call c;
        memset(&c, 0, sizeof c);
        c.cmd = cmd;
        c.ctx_id = ctx;
        c.flags = has_ret ? GLR_CALL_HAS_RET : 0;
        c.ret = ret;
        for (int i = 0; i < nargs && i < GLR_MAX_PARAMS; i++) {
            c.args[i] = args[i];
            c.blobs[i] = blobs[i];
        }
        pthread_mutex_lock(&track_lock);
        struct sm_state *s = state_locked();
        if (s)
            sm_apply(s, &c);
        pthread_mutex_unlock(&track_lock);
    }
    for (int i = 0; i < nargs && i < 32; i++)
        if (owned_mask & (1u << i))
            free((void *)blobs[i].data);
}

static struct track_ctx *tctx_find(uint32_t id)
{
    for (size_t i = 0; i < n_tctx; i++)
        if (tctx[i].id == id)
            return &tctx[i];
    return NULL;
}

void glr_track_context_created(uint32_t id, uint32_t share_group)
{
    if (glr_disabled)
        return;
    pthread_mutex_lock(&track_lock);
    if (n_tctx == cap_tctx) {
        size_t cap = cap_tctx ? cap_tctx * 2 : 8;
        struct track_ctx *n = realloc(tctx, cap * sizeof *n);
        if (n) {
            tctx = n;
            cap_tctx = cap;
        }
    }
    if (n_tctx < cap_tctx)
        tctx[n_tctx++] = (struct track_ctx){ .id = id, .share_group = share_group };
    pthread_mutex_unlock(&track_lock);
}

void glr_track_context_described(uint32_t id, bool es, int major, int minor, int profile_mask)
{
    if (glr_disabled)
        return;
    pthread_mutex_lock(&track_lock);
    struct track_ctx *t = tctx_find(id);
    struct sm_state *s = state_locked();
    if (t && s && !t->declared) {
        /* Share with any declared context of the same group (the group's first one may never
         * have been made current). */
        uint32_t share_with = 0;
        for (size_t i = 0; i < n_tctx && !share_with; i++)
            if (tctx[i].declared && tctx[i].share_group == t->share_group && sm_context_get(s, tctx[i].id))
                share_with = tctx[i].id;
        enum sm_api api = es ? SM_API_GLES : (profile_mask & 1) ? SM_API_GL_CORE : SM_API_GL_COMPAT;
        t->declared = sm_context_create(s, id, share_with, api, major, minor);
    }
    if (t) {
        t->es = es;
        t->major = major;
        t->minor = minor;
        t->profile_mask = profile_mask;
    }
    pthread_mutex_unlock(&track_lock);
}

void glr_track_context_destroyed(uint32_t id)
{
    pthread_mutex_lock(&track_lock);
    struct track_ctx *t = tctx_find(id);
    if (t) {
        if (track_state && t->declared)
            sm_context_destroy(track_state, id);
        *t = tctx[--n_tctx];
    }
    pthread_mutex_unlock(&track_lock);
}

struct sm_state *glr_track_clone(void)
{
    pthread_mutex_lock(&track_lock);
    struct sm_state *c = track_state ? sm_state_clone(track_state) : NULL;
    pthread_mutex_unlock(&track_lock);
    return c;
}

bool glr_track_context_version(uint32_t id, bool *es, int *major, int *minor, int *profile_mask)
{
    pthread_mutex_lock(&track_lock);
    struct track_ctx *t = tctx_find(id);
    bool ok = t && t->major;
    if (ok) {
        *es = t->es;
        *major = t->major;
        *minor = t->minor;
        *profile_mask = t->profile_mask;
    }
    pthread_mutex_unlock(&track_lock);
    return ok;
}

/* ---------------------------------------------------------------- program sources by binary */

bool glr_track_program_linked_from_binary(uint32_t program)
{
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    pthread_mutex_lock(&track_lock);
    const struct sm_context *c = track_state ? sm_context_get(track_state, ctx) : NULL;
    const struct sm_program *p = c ? sm_get_program(c, program) : NULL;
    bool yes = p && p->binary && !p->n_linked;
    pthread_mutex_unlock(&track_lock);
    return yes;
}

uint8_t *glr_track_program_entry(uint32_t program, uint64_t binary_hash, size_t *size)
{
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    *size = 0;
    pthread_mutex_lock(&track_lock);
    uint8_t *e = track_state ? sm_program_sources_encode(track_state, ctx, program, binary_hash, size) : NULL;
    pthread_mutex_unlock(&track_lock);
    return e;
}

bool glr_track_program_sources(uint32_t program, const void *entry, size_t size, char *err, size_t err_size)
{
    uint32_t ctx = glr_ctx_id(glr_ctx_current());
    snprintf(err, err_size, "no tracking state");
    pthread_mutex_lock(&track_lock);
    bool ok = track_state && sm_program_sources_apply(track_state, ctx, program, entry, size, err, err_size);
    pthread_mutex_unlock(&track_lock);
    return ok;
}
