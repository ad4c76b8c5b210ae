/* Restoring multisample renderbuffer and texture samples (RESOURCE_BLOB kinds 5 and 6): the live
 * object is found under its replay name and measured, then replay/ms_samples.c draws every sample. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/dispatch_internal.h"
#include "replay/ms_samples.h"
#include "replay/restore_multisample.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

typedef void (*ms_get_rb_fn)(unsigned, unsigned, int *);
typedef void (*ms_bind_rb_fn)(unsigned, unsigned);

bool glr_restore_ms_kind(uint32_t kind)
{
    return kind == GLR_RESTORE_MS_RENDERBUFFER || kind == GLR_RESTORE_MS_TEXTURE;
}

bool glr_restore_ms_size_ok(const struct glr_ms_content *c)
{
    unsigned format, type, bpp;
    uint64_t plane = (uint64_t)c->width * c->height;
    if (!glr_ms_transfer(c->internal_format, &format, &type, &bpp) || format != c->format || type != c->type)
        return false;
    plane *= bpp;
    return plane && c->size && c->size % plane == 0;
}

static void fill_gl(struct glr_dispatch *d, struct glr_ms_gl *gl)
{
#define MS_FILL(ret, name, params) gl->name = (ret(*) params)glr_dispatch_proc(d, GLR_CMD_##name);
    GLR_MS_GL_FUNCS(MS_FILL)
#undef MS_FILL
}

/* The live object of a content, measured on the current context; false (why) when it is missing or
 * differs from the capture. Bindings used to measure it are put back. */
static bool live_image(struct glr_dispatch *d, const struct glr_ms_gl *gl, const struct sm_state *s,
                       const struct glr_ms_content *c, struct glr_ms_image *img, char *why, size_t n)
{
    memset(img, 0, sizeof *img);
    int w = 0, h = 0, layers = 1, fmt = 0, samples = 0, saved = 0;
    if (c->kind == GLR_RESTORE_MS_RENDERBUFFER) {
        ms_get_rb_fn get_rb = (ms_get_rb_fn)glr_dispatch_proc(d, GLR_CMD_glGetRenderbufferParameteriv);
        ms_bind_rb_fn bind_rb = (ms_bind_rb_fn)glr_dispatch_proc(d, GLR_CMD_glBindRenderbuffer);
        if (!get_rb || !bind_rb) {
            snprintf(why, n, "no renderbuffer queries");
            return false;
        }
        img->target = GL_RENDERBUFFER;
        img->name = (unsigned)glr_dispatch_lookup(d, c->ctx_id, GLR_OBJ_RENDERBUFFER, c->name);
        gl->glGetIntegerv(GL_RENDERBUFFER_BINDING, &saved);
        bind_rb(GL_RENDERBUFFER, img->name);
        get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &w);
        get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_HEIGHT, &h);
        get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_INTERNAL_FORMAT, &fmt);
        get_rb(GL_RENDERBUFFER, GL_RENDERBUFFER_SAMPLES, &samples);
        bind_rb(GL_RENDERBUFFER, (unsigned)saved);
    } else {
        const struct sm_context *ctx = sm_context_get(s, c->ctx_id);
        const struct sm_texture *t = ctx ? sm_get_texture(ctx, c->name) : NULL;
        if (!t || (t->target != GL_TEXTURE_2D_MULTISAMPLE && t->target != GL_TEXTURE_2D_MULTISAMPLE_ARRAY)) {
            snprintf(why, n, "texture %u is not a multisample texture in the initial state", c->name);
            return false;
        }
        img->target = t->target;
        img->name = (unsigned)glr_dispatch_lookup(d, c->ctx_id, GLR_OBJ_TEXTURE, c->name);
        bool array = t->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY;
        gl->glGetIntegerv(array ? GL_TEXTURE_BINDING_2D_MULTISAMPLE_ARRAY : GL_TEXTURE_BINDING_2D_MULTISAMPLE,
                          &saved);
        gl->glBindTexture(t->target, img->name);
        gl->glGetTexLevelParameteriv(t->target, 0, GL_TEXTURE_WIDTH, &w);
        gl->glGetTexLevelParameteriv(t->target, 0, GL_TEXTURE_HEIGHT, &h);
        gl->glGetTexLevelParameteriv(t->target, 0, GL_TEXTURE_INTERNAL_FORMAT, &fmt);
        gl->glGetTexLevelParameteriv(t->target, 0, GL_TEXTURE_SAMPLES, &samples);
        if (array)
            gl->glGetTexLevelParameteriv(t->target, 0, GL_TEXTURE_DEPTH, &layers);
        gl->glBindTexture(t->target, (unsigned)saved);
    }
    img->width = w;
    img->height = h;
    img->layers = layers;
    img->samples = samples;
    img->internal_format = (unsigned)fmt;
    if ((uint32_t)w != c->width || (uint32_t)h != c->height || (uint32_t)fmt != c->internal_format) {
        snprintf(why, n, "the replay object is %dx%d format 0x%04x, the capture's %ux%u format 0x%04x", w, h,
                 (unsigned)fmt, c->width, c->height, c->internal_format);
        return false;
    }
    if (glr_ms_size(img) != c->size) {
        snprintf(why, n, "the replay object has %d samples x %d layers: %llu bytes, the capture holds %llu", samples,
                 layers, (unsigned long long)glr_ms_size(img), (unsigned long long)c->size);
        return false;
    }
    return true;
}

/* Reads the restored samples back and compares them with what was written. */
static int check_written(const struct glr_ms_gl *gl, const struct glr_ms_image *img, const struct glr_ms_content *c,
                         char *why, size_t n)
{
    uint8_t *back = malloc((size_t)c->size);
    if (!back) {
        snprintf(why, n, "out of memory for the restore check");
        return -1;
    }
    bool stencil_kept = true;
    int rc = glr_ms_read(gl, img, back, &stencil_kept, why, n);
    if (rc == 0) {
        uint64_t diff = 0, first = 0;
        const uint8_t *want = c->data;
        for (uint64_t i = 0; i < c->size; i++)
            if (back[i] != want[i] && !diff++)
                first = i;
        fprintf(stderr, "glreplay: restore check: multisample %s %u: %llu bytes, %llu differ%s\n",
                c->kind == GLR_RESTORE_MS_RENDERBUFFER ? "renderbuffer" : "texture", c->name,
                (unsigned long long)c->size, (unsigned long long)diff, diff ? "" : " (every sample equal)");
        if (diff) {
            snprintf(why, n, "read back after the restore, %llu of %llu bytes differ (first at byte %llu)",
                     (unsigned long long)diff, (unsigned long long)c->size, (unsigned long long)first);
            rc = -1;
        }
    }
    free(back);
    return rc;
}

int glr_restore_ms_write(struct glr_dispatch *d, const struct sm_state *s, const struct glr_ms_content *c, char *why,
                         size_t n)
{
    struct glr_ms_gl gl;
    fill_gl(d, &gl);
    if (!gl.glGetIntegerv || !gl.glBindTexture || !gl.glGetTexLevelParameteriv) {
        snprintf(why, n, "no GL queries");
        return -1;
    }
    const char *check = getenv("GLREPLAY_RESTORE_CHECK");
    bool checking = check && *check && *check != '0';
    /* The check also asks that the write raised no GL error: errors pending before it (the
     * replay's own) are taken first, in that mode only. */
    typedef unsigned (*get_error_fn)(void);
    get_error_fn get_error = (get_error_fn)glr_dispatch_proc(d, GLR_CMD_glGetError);
    for (int i = 0; checking && get_error && i < 64 && get_error() != 0; i++)
        ;
    struct glr_ms_image img;
    if (!live_image(d, &gl, s, c, &img, why, n))
        return -1;
    if (glr_ms_write(&gl, &img, c->data, why, n) != 0)
        return -1;
    if (!checking)
        return 0;
    int rc = check_written(&gl, &img, c, why, n);
    unsigned e = get_error ? get_error() : 0;
    if (rc == 0 && e) {
        snprintf(why, n, "the restore raised GL error 0x%04x", e);
        rc = -1;
    }
    return rc;
}
