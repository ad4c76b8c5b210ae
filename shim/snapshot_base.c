/* The snapshot's base, under snapshot.c and its per-kind files (snapshot_objects.c, snapshot_context.c,
 * ...): version tests, applying synthesized calls to the snapshot's state, warnings, resource blobs,
 * tight pixel-pack state, and the GL error discipline of a read-back. A leaf of the snapshot: the
 * per-kind files call it and the hub (snapshot.c) calls them, so nothing here calls back up. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/snapshot.h"
#include "shim/track.h"
#include "registry/glr_gl_enums.h"

bool glr_snap_has(const struct glr_snap *sn, int gl_major, int gl_minor, int es_major, int es_minor)
{
    if (sn->es)
        return es_major >= 0 && (sn->major > es_major || (sn->major == es_major && sn->minor >= es_minor));
    return gl_major >= 0 && (sn->major > gl_major || (sn->major == gl_major && sn->minor >= gl_minor));
}

static void apply_va(struct glr_snap *sn, uint32_t cmd, bool has_ret, uint64_t ret, int blob_index,
                     const void *blob, uint64_t blob_size, int nargs, va_list ap)
{
    struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = sn->ctx;
    if (has_ret) {
        c.ret = ret;
        c.flags = GLR_CALL_HAS_RET;
    }
    for (int i = 0; i < nargs && i < GLR_MAX_PARAMS; i++)
        c.args[i] = va_arg(ap, uint64_t);
    if (blob_index >= 0 && blob_index < GLR_MAX_PARAMS && blob && blob_size) {
        c.blobs[blob_index].data = blob;
        c.blobs[blob_index].size = blob_size;
    }
    sm_apply(sn->s, &c);
}

void glr_snap_apply(struct glr_snap *sn, uint32_t cmd, int blob_index, const void *blob, uint64_t blob_size,
                    int nargs, ...)
{
    va_list ap;
    va_start(ap, nargs);
    apply_va(sn, cmd, false, 0, blob_index, blob, blob_size, nargs, ap);
    va_end(ap);
}

void glr_snap_apply_ret(struct glr_snap *sn, uint32_t cmd, uint64_t ret, int blob_index, const void *blob,
                        uint64_t blob_size, int nargs, ...)
{
    va_list ap;
    va_start(ap, nargs);
    apply_va(sn, cmd, true, ret, blob_index, blob, blob_size, nargs, ap);
    va_end(ap);
}

void glr_snap_warn(struct glr_snap *sn, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!sn->warnings) {
        /* cut at the field's size (the first 159 bytes say which object and why) */
        size_t n = strnlen(buf, sizeof sn->first_warning - 1);
        memcpy(sn->first_warning, buf, n);
        sn->first_warning[n] = 0;
    }
    if (sn->warnings++ < 20)
        glr_log(GLR_LOG_WARN, "snapshot: %s", buf);
}

bool glr_snap_add_blob(struct glr_snap *sn, const struct glr_snap_blob *b)
{
    if (sn->n_blobs == sn->cap_blobs) {
        size_t cap = sn->cap_blobs ? sn->cap_blobs * 2 : 8;
        struct glr_snap_blob *n = realloc(sn->blobs, cap * sizeof *n);
        if (!n)
            return false;
        sn->blobs = n;
        sn->cap_blobs = cap;
    }
    sn->blobs[sn->n_blobs++] = *b;
    return true;
}

void glr_snap_pack_begin(struct glr_snap *sn, struct glr_snap_pack *sv)
{
    static const GLenum pn[7] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
                                  GL_PIXEL_PACK_BUFFER_BINDING, GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES };
    bool es2 = sn->es && sn->major < 3;
    int n = es2 ? 1 : sn->es ? 5 : 7;
    memset(sv, 0, sizeof *sv);
    sv->v[0] = 4;
    for (int i = 0; i < n; i++)
        GLR_REAL(glGetIntegerv)(pn[i], &sv->v[i]);
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, 1);
    for (int i = 1; i < n; i++) {
        if (!sv->v[i])
            continue;
        if (pn[i] == GL_PIXEL_PACK_BUFFER_BINDING)
            GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
        else
            GLR_REAL(glPixelStorei)(pn[i], 0);
    }
}

void glr_snap_pack_end(struct glr_snap *sn, const struct glr_snap_pack *sv)
{
    static const GLenum pn[7] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
                                  GL_PIXEL_PACK_BUFFER_BINDING, GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES };
    bool es2 = sn->es && sn->major < 3;
    int n = es2 ? 1 : sn->es ? 5 : 7;
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, sv->v[0]);
    for (int i = 1; i < n; i++) {
        if (!sv->v[i])
            continue;
        if (pn[i] == GL_PIXEL_PACK_BUFFER_BINDING)
            GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, (GLuint)sv->v[i]);
        else
            GLR_REAL(glPixelStorei)(pn[i], sv->v[i]);
    }
}

/* ---------------------------------------------------------------- GL errors */

/* Raises `e` again on the current context with a call that has no other effect, so the program's
 * next glGetError still reports the error it caused before the snapshot. */
static void reraise(struct glr_snap *sn, GLenum e)
{
    switch (e) {
    case GL_INVALID_ENUM:
        GLR_REAL(glEnable)(0);
        break;
    case GL_INVALID_VALUE:
        GLR_REAL(glLineWidth)(-1.0f);
        break;
    case GL_INVALID_OPERATION:
        if (glr_snap_has(sn, 3, 0, 3, 0)) {
            /* Binding a vertex array name that was never generated. */
            GLuint probe = 0x7ffffff0u;
            while (GLR_REAL(glIsVertexArray)(probe))
                probe++;
            GLR_REAL(glBindVertexArray)(probe);
        } else {
            GLR_REAL(glUseProgram)(0x7ffffff0u);   /* INVALID_VALUE on some; best effort */
        }
        break;
    default:
        glr_log(GLR_LOG_WARN, "snapshot: the program had GL error 0x%04x pending; it cannot be raised again",
                (unsigned)e);
        break;
    }
}

/* Does the current context advertise extension `name`? (GL/ES 3.0+: the indexed list; before: the
 * space-separated string, matched as a whole word.) */
bool glr_snap_has_extension(const struct glr_snap *sn, const char *name)
{
    if (sn->major >= 3) {
        GLint n = 0;
        GLR_REAL(glGetIntegerv)(GL_NUM_EXTENSIONS, &n);
        for (GLint i = 0; i < n; i++) {
            const char *e = (const char *)GLR_REAL(glGetStringi)(GL_EXTENSIONS, (GLuint)i);
            if (e && !strcmp(e, name))
                return true;
        }
        return false;
    }
    const char *all = (const char *)GLR_REAL(glGetString)(GL_EXTENSIONS);
    size_t len = strlen(name);
    for (const char *p = all; p && (p = strstr(p, name)); p += len)
        if ((p == all || p[-1] == ' ') && (p[len] == ' ' || p[len] == 0))
            return true;
    return false;
}

/* Fills sn's version fields from the context current on this thread; false if none. */
bool glr_snap_init(struct glr_snap *sn)
{
    /* The version of the context itself (it may have been described on another thread). */
    int profile = 0;
    sn->ctx = glr_ctx_id(glr_ctx_current());
    if (!sn->ctx || !glr_track_context_version(sn->ctx, &sn->es, &sn->major, &sn->minor, &profile))
        return false;
    sn->core = !sn->es && (profile & 1);
    /* GL_TEXTURE_TARGET (direct state access) is answered by Mesa in core profiles only. */
    sn->dsa = sn->core && (sn->major > 4 || (sn->major == 4 && sn->minor >= 5));
    /* llvmpipe is GL 4.5 with the extension: without it the anisotropy of every texture and sampler
     * is lost (neverball's 8x, Pink Pony, Trigger Rally replayed with a quarter of the pixels off). */
    sn->aniso = glr_snap_has(sn, 4, 6, -1, 0) || glr_snap_has_extension(sn, "GL_ARB_texture_filter_anisotropic") ||
                glr_snap_has_extension(sn, "GL_EXT_texture_filter_anisotropic");
    return true;
}

/* GL_DEBUG_OUTPUT is switched off during the read-back, so a program's debug callback never hears of
 * the errors a probe raises (they are drained below). */
bool glr_snap_debug_output_begin(struct glr_snap *sn)
{
    if (!glr_snap_has(sn, 4, 3, 3, 2) || !GLR_REAL(glIsEnabled)(GL_DEBUG_OUTPUT))
        return false;
    GLR_REAL(glDisable)(GL_DEBUG_OUTPUT);
    return true;
}

/* The read-back errors are drained; the program's own pending error (read before) is raised again. */
void glr_snap_errors_end(struct glr_snap *sn, unsigned pending, bool debug_was_on)
{
    if (debug_was_on)
        GLR_REAL(glEnable)(GL_DEBUG_OUTPUT);
    unsigned own = 0;
    GLenum e, first = GL_NO_ERROR;
    while ((e = GLR_REAL(glGetError)()) != GL_NO_ERROR && own < 64) {
        if (!own)
            first = e;
        own++;
    }
    if (own)
        glr_log(GLR_LOG_DEBUG, "snapshot: the read-back raised GL error 0x%04x (drained)", (unsigned)first);
    if (pending != GL_NO_ERROR)
        reraise(sn, pending);
}

bool glr_snap_guard_begin(struct glr_snap_guard *g)
{
    memset(g, 0, sizeof *g);
    if (!glr_snap_init(&g->sn))
        return false;
    g->pending = GLR_REAL(glGetError)();
    g->debug_on = glr_snap_debug_output_begin(&g->sn);
    return true;
}

void glr_snap_guard_end(struct glr_snap_guard *g)
{
    glr_snap_errors_end(&g->sn, g->pending, g->debug_on);
}

