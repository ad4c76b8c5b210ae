/* Driver read-backs for a capture, through the real driver functions (never the wrappers, so they
 * are not recorded). Every piece of state they change is saved and restored, and only valid calls
 * are made, so no GL error is raised that the program could later read with glGetError. */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "shim/shim_internal.h"
#include "shim/capture_file.h"
#include "shim/capture.h"
#include "shim/capture_refs.h"

/* GL enums used here (values from gl.xml). */
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "registry/glr_glx_enums.h"   /* generated from glx.xml */
#include "registry/glr_egl_enums.h"   /* generated from egl.xml */

static __thread struct glr_ctx_desc tls_desc; /* of the context current on this thread */

const struct glr_ctx_desc *glr_current_ctx_desc(void)
{
    return tls_desc.major ? &tls_desc : NULL;
}

/* Bits of a default-framebuffer depth or stencil buffer (core profiles): 0 when the window has
 * none. Asked only when the attachment exists, so no GL error is left behind. */
static GLint attachment_bits(GLenum attachment, GLenum pname)
{
    GLint type = 0, bits = 0;
    GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, attachment,
                                                    GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE, &type);
    if (type != GL_NONE)
        GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, attachment, pname, &bits);
    return bits;
}

void glr_set_current_ctx_desc(const struct glr_ctx_desc *d)
{
    if (d)
        tls_desc = *d;
    else
        memset(&tls_desc, 0, sizeof tls_desc);
}

static void copy_str(char *dst, size_t n, const GLubyte *s)
{
    snprintf(dst, n, "%s", s ? (const char *)s : "");
}

void glr_describe_current_context(struct glr_ctx_desc *d)
{
    memset(d, 0, sizeof *d);
    copy_str(d->version, sizeof d->version, GLR_REAL(glGetString)(GL_VERSION));
    copy_str(d->renderer, sizeof d->renderer, GLR_REAL(glGetString)(GL_RENDERER));
    copy_str(d->vendor, sizeof d->vendor, GLR_REAL(glGetString)(GL_VENDOR));
    copy_str(d->glsl, sizeof d->glsl, GLR_REAL(glGetString)(GL_SHADING_LANGUAGE_VERSION));
    const char *v = d->version;
    if (strncmp(v, "OpenGL ES", 9) == 0) {
        d->is_es = 1;
        v += 9;
        while (*v && (*v < '0' || *v > '9'))
            v++;
    }
    if (sscanf(v, "%d.%d", &d->major, &d->minor) != 2)
        d->major = d->minor = 0;
    /* Only query what this context version defines: an invalid enum would leave a GL error. */
    if (!d->is_es && d->major >= 3)
        GLR_REAL(glGetIntegerv)(GL_CONTEXT_FLAGS, &d->flags);
    if (!d->is_es && (d->major > 3 || (d->major == 3 && d->minor >= 2)))
        GLR_REAL(glGetIntegerv)(GL_CONTEXT_PROFILE_MASK, &d->profile_mask);
    /* The window's sample count: GL_SAMPLES describes the bound draw framebuffer, so only when that
     * is the default one (it is at a context's first make-current). */
    GLint draw_fbo = 0;
    if (d->is_es ? d->major >= 2 : d->major >= 3)
        GLR_REAL(glGetIntegerv)(GL_FRAMEBUFFER_BINDING, &draw_fbo);
    if (!draw_fbo && d->major >= 1)
        GLR_REAL(glGetIntegerv)(GL_SAMPLES, &d->samples);
    /* The window's alpha bits: the replay's pbuffer must have alpha exactly when the window had it,
     * or reads and blends of destination alpha differ (piglit's `probe rgba` in a window). Core
     * profiles have no GL_ALPHA_BITS: their default colour buffer is asked instead. */
    /* Depth and stencil sizes too: llvmpipe rasterizes a framebuffer without depth/stencil buffer
     * differently (its linear path), so the replay's pbuffer must match the window's. */
    d->alpha_bits = d->depth_bits = d->stencil_bits = -1;
    /* Only with a draw surface: a context first made current without one (EGL_NO_SURFACE, a
     * surfaceless setup step) has an incomplete default framebuffer whose bits say nothing of the
     * window it draws into later; then the replay keeps its defaults. */
    int surf_api = 0;
    void *surf_dpy = NULL, *surf = NULL;
    if (!draw_fbo && d->major >= 1 && glr_ctx_current_surface(&surf_api, &surf_dpy, &surf)) {
        GLint a = -1, z = -1, s = -1;
        if (!d->is_es && (d->profile_mask & 1)) {
            GLboolean dbl = 0;
            GLR_REAL(glGetBooleanv)(GL_DOUBLEBUFFER, &dbl);
            GLR_REAL(glGetFramebufferAttachmentParameteriv)(GL_DRAW_FRAMEBUFFER, dbl ? GL_BACK_LEFT : GL_FRONT_LEFT,
                                                            GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE, &a);
            z = attachment_bits(GL_DEPTH, GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE);
            s = attachment_bits(GL_STENCIL, GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE);
        } else {
            GLR_REAL(glGetIntegerv)(GL_ALPHA_BITS, &a);
            GLR_REAL(glGetIntegerv)(GL_DEPTH_BITS, &z);
            GLR_REAL(glGetIntegerv)(GL_STENCIL_BITS, &s);
        }
        d->alpha_bits = a;
        d->depth_bits = z;
        d->stencil_bits = s;
    }
    tls_desc = *d;
}

int glr_surface_query_size(int api, void *display, void *surface, uint32_t *w, uint32_t *h)
{
    if (api == GLR_CTX_GLX) {
        unsigned int uw = 0, uh = 0;
        GLR_REAL(glXQueryDrawable)((Display *)display, (GLXDrawable)(uintptr_t)surface, GLX_WIDTH, &uw);
        GLR_REAL(glXQueryDrawable)((Display *)display, (GLXDrawable)(uintptr_t)surface, GLX_HEIGHT, &uh);
        *w = uw;
        *h = uh;
    } else {
        EGLint ew = 0, eh = 0;
        GLR_REAL(eglQuerySurface)(display, surface, EGL_WIDTH, &ew);
        GLR_REAL(eglQuerySurface)(display, surface, EGL_HEIGHT, &eh);
        *w = (uint32_t)ew;
        *h = (uint32_t)eh;
    }
    return (*w && *h && *w <= 16384 && *h <= 16384) ? 0 : -1;
}

/* BGRA bytes to RGBA, in place: blue and red swap places. Four pixels per step in a 16-byte
 * vector (GCC/Clang vector extensions: one SSE2 register on x86-64, the baseline, so no ISA
 * dispatch; a 32-byte vector spills to the stack there), the tail a pixel at a time. The plain 64-bit word loop this replaces cost ~27
 * instructions per recorded call at 60k calls per 640x360 frame (docs/BENCHMARKS.md, "Session 16
 * (rec18)"); the read-back runs at every captured frame's swap, on the program's thread. */
typedef uint32_t glr_px4 __attribute__((vector_size(16)));

static void bgra_to_rgba(uint8_t *p, size_t pixels)
{
    const glr_px4 keep = {0xff00ff00u, 0xff00ff00u, 0xff00ff00u, 0xff00ff00u};
    const glr_px4 low = {0xffu, 0xffu, 0xffu, 0xffu};
    size_t i = 0;
    for (; i + 4 <= pixels; i += 4) {
        glr_px4 v;
        memcpy(&v, p + 4 * i, sizeof v);
        v = (v & keep) | ((v >> 16) & low) | ((v & low) << 16);
        memcpy(p + 4 * i, &v, sizeof v);
    }
    for (; i < pixels; i++) {
        uint8_t t = p[4 * i];
        p[4 * i] = p[4 * i + 2];
        p[4 * i + 2] = t;
    }
}

int glr_read_back_buffer(int api, void *display, void *surface, struct glr_ref_image *out)
{
    memset(out, 0, sizeof *out);
    const struct glr_ctx_desc *d = &tls_desc;
    if (!d->major || glr_surface_query_size(api, display, surface, &out->width, &out->height) != 0)
        return -1;
    out->attachment = GL_BACK;
    out->pixels = glr_ref_pixels_take((size_t)out->width * out->height * 4);
    if (!out->pixels)
        return -1;
    bool es = d->is_es;
    bool has_read_fbo = es ? d->major >= 3 : d->major >= 3;
    bool has_pack_params = !es || d->major >= 3;
    GLint read_fbo = 0, read_buf = 0, align = 4, row_len = 0, skip_rows = 0, skip_pix = 0, pack_buf = 0;
    GLenum fbo_target = has_read_fbo ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    GLR_REAL(glGetIntegerv)(has_read_fbo ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &read_fbo);
    GLR_REAL(glGetIntegerv)(GL_PACK_ALIGNMENT, &align);
    if (has_pack_params) {
        GLR_REAL(glGetIntegerv)(GL_PACK_ROW_LENGTH, &row_len);
        GLR_REAL(glGetIntegerv)(GL_PACK_SKIP_ROWS, &skip_rows);
        GLR_REAL(glGetIntegerv)(GL_PACK_SKIP_PIXELS, &skip_pix);
        GLR_REAL(glGetIntegerv)(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
    }
    if (read_fbo)
        GLR_REAL(glBindFramebuffer)(fbo_target, 0);
    if (has_pack_params) {
        /* The read buffer is per framebuffer: save the default framebuffer's own. */
        GLR_REAL(glGetIntegerv)(GL_READ_BUFFER, &read_buf);
        if (read_buf != GL_BACK)
            GLR_REAL(glReadBuffer)(GL_BACK);
        GLR_REAL(glPixelStorei)(GL_PACK_ROW_LENGTH, 0);
        GLR_REAL(glPixelStorei)(GL_PACK_SKIP_ROWS, 0);
        GLR_REAL(glPixelStorei)(GL_PACK_SKIP_PIXELS, 0);
        if (pack_buf)
            GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, 0);
    }
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, 1);
    /* Desktop GL reads BGRA (core since 1.2): window buffers are BGRA in Mesa and most drivers, and
     * a read in their own layout is a plain copy there, where RGBA converts pixel by pixel (0.5 ms
     * of a 640x360 frame on llvmpipe, ~8 ns per call of a 60k-call frame: docs/BENCHMARKS.md,
     * "Recording many frames"). The swap to RGBA here costs a tenth of that. ES keeps RGBA, the
     * one format it must read. */
    bool bgra = !es && (d->major > 1 || d->minor >= 2);
    GLR_REAL(glReadPixels)(0, 0, (GLsizei)out->width, (GLsizei)out->height, bgra ? GL_BGRA : GL_RGBA,
                           GL_UNSIGNED_BYTE, out->pixels);
    if (bgra)
        bgra_to_rgba(out->pixels, (size_t)out->width * out->height);
    GLR_REAL(glPixelStorei)(GL_PACK_ALIGNMENT, align);
    if (has_pack_params) {
        if (pack_buf)
            GLR_REAL(glBindBuffer)(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
        GLR_REAL(glPixelStorei)(GL_PACK_SKIP_PIXELS, skip_pix);
        GLR_REAL(glPixelStorei)(GL_PACK_SKIP_ROWS, skip_rows);
        GLR_REAL(glPixelStorei)(GL_PACK_ROW_LENGTH, row_len);
        if (read_buf != GL_BACK)
            GLR_REAL(glReadBuffer)((GLenum)read_buf);
    }
    if (read_fbo)
        GLR_REAL(glBindFramebuffer)(fbo_target, (GLuint)read_fbo);
    return 0;
}
