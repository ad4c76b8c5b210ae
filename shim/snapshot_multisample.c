/* Multisample contents in the snapshot: see snapshot_multisample.h. The GL work is shared with the
 * restore (replay/ms_samples.c) so both sides use one layout; here it runs on the program's context
 * through the real driver functions. */
#include <stdlib.h>
#include "shim/shim_internal.h"
#include "shim/snapshot_multisample.h"
#include "replay/ms_samples.h"
#include "registry/glr_gl_enums.h"

static void fill_gl(struct glr_ms_gl *gl)
{
#define MS_FILL(ret, name, params) gl->name = (ret(*) params)GLR_REAL(name);
    GLR_MS_GL_FUNCS(MS_FILL)
#undef MS_FILL
}

static void snap_ms(struct glr_snap *sn, uint32_t kind, const struct glr_ms_image *img)
{
    const char *what = kind == GLR_SNAP_BLOB_MS_RENDERBUFFER ? "renderbuffer" : "texture";
    if (sn->es) {
        glr_snap_warn(sn, "multisample %s %u: samples are not kept on OpenGL ES (no sample read-back there)", what,
                      img->name);
        return;
    }
    unsigned format, type, bpp;
    uint64_t size = glr_ms_size(img);
    if (!glr_ms_transfer(img->internal_format, &format, &type, &bpp) || !size) {
        glr_snap_warn(sn, "multisample %s %u (format 0x%04x): samples not kept (format not handled)", what, img->name,
                      img->internal_format);
        return;
    }
    if (size > ((uint64_t)1 << 31)) {
        glr_snap_warn(sn, "multisample %s %u: %llu bytes of samples; not kept", what, img->name,
                      (unsigned long long)size);
        return;
    }
    uint8_t *data = malloc((size_t)size);
    if (!data) {
        glr_snap_warn(sn, "multisample %s %u: no memory for its %llu bytes", what, img->name, (unsigned long long)size);
        return;
    }
    struct glr_ms_gl gl;
    fill_gl(&gl);
    char why[256];
    bool stencil_kept = true;
    /* The program's own pending error was taken when the snapshot began: errors seen here are the
     * snapshot's, and this read-back must raise none (said as a warning if it does). */
    while (GLR_REAL(glGetError)() != GL_NO_ERROR)
        ;
    int rc = glr_ms_read(&gl, img, data, &stencil_kept, why, sizeof why);
    GLenum err = GLR_REAL(glGetError)();
    if (rc == 0 && err != GL_NO_ERROR)
        glr_snap_warn(sn, "multisample %s %u: the sample read-back raised GL error 0x%04x", what, img->name,
                      (unsigned)err);
    if (rc != 0) {
        glr_snap_warn(sn, "multisample %s %u: samples not kept: %s", what, img->name, why);
        free(data);
        return;
    }
    if (!stencil_kept)
        glr_snap_warn(sn, "multisample %s %u: stencil samples are not kept (no GL 4.3 stencil texturing); "
                      "depth and the rest are", what, img->name);
    struct glr_snap_blob b = { .kind = kind, .ctx_id = sn->ctx, .name = img->name, .width = (uint32_t)img->width,
                               .height = (uint32_t)img->height, .internal_format = img->internal_format,
                               .format = format, .type = type, .data = data, .size = size };
    if (!glr_snap_add_blob(sn, &b)) {
        free(data);
        return;
    }
    sn->bytes_read += size;
}

void glr_snap_ms_renderbuffer(struct glr_snap *sn, unsigned rb, int w, int h, unsigned fmt, int samples)
{
    struct glr_ms_image img = { .target = GL_RENDERBUFFER, .name = rb, .internal_format = fmt, .width = w,
                                .height = h, .layers = 1, .samples = samples };
    snap_ms(sn, GLR_SNAP_BLOB_MS_RENDERBUFFER, &img);
}

void glr_snap_ms_texture(struct glr_snap *sn, unsigned tex, unsigned target, int w, int h, int layers, unsigned fmt,
                         int samples)
{
    struct glr_ms_image img = { .target = target, .name = tex, .internal_format = fmt, .width = w, .height = h,
                                .layers = layers > 0 ? layers : 1, .samples = samples };
    snap_ms(sn, GLR_SNAP_BLOB_MS_TEXTURE, &img);
}
