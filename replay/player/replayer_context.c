/* The replayer's current context and its error line: the two things both the replay loop
 * (replayer.c) and the image checks (replay_images.c) need. They live below both so that the
 * image checks, which replayer.c calls, do not call back up into it. */
#include <stdarg.h>
#include <stdio.h>
#include "replay/player/replayer_internal.h"

void glrh_seterr(struct replayer *r, const char *fmt, ...)
{
    if (!r->err_size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err, r->err_size, fmt, ap);
    va_end(ap);
}

static struct rctx *rctx_of(struct replayer *r, uint32_t id)
{
    for (unsigned i = 0; i < r->cap->n_ctxs; i++)
        if (r->ctxs[i].desc->id == id)
            return &r->ctxs[i];
    return NULL;
}

int glrh_make_current(struct replayer *r, uint32_t id)
{
    if (r->current && r->current->desc->id == id)
        return 0;
    struct rctx *c = rctx_of(r, id);
    if (!c || c->ctx == EGL_NO_CONTEXT) {
        glrh_seterr(r, "record %llu: context %u does not exist", (unsigned long long)r->record, id);
        return -1;
    }
    if (!glrh_egl_make_current(&r->egl, c->surf, c->ctx)) {
        glrh_seterr(r, "record %llu: cannot make context %u current (EGL error 0x%04x)", (unsigned long long)r->record, id,
               (unsigned)eglGetError());
        return -1;
    }
    r->current = c;
    return 0;
}
