/* Restoring a capture's initial state (INITIAL_STATE + RESOURCE_BLOB sections, written by the
 * shim's snapshot: docs/GLCAP_FORMAT.md) on fresh replay contexts, before each replay pass.
 *
 * The state model's restore calls (sm_restore_calls) run through the dispatcher, so the objects
 * they create get replay names bound to the captured ones exactly like the stream's own glGen*
 * calls; then the contents the model does not hold (the default framebuffer's colour and
 * depth/stencil) are copied in with a blit from a temporary texture. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "replay/dispatch_internal.h"
#include "glr_dispatch_pfn.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */
#include "capture/glcap_file.h"
#include "capture/glcap_codec.h"
#include "replay/restore_reset.h"
#include "replay/restore_multisample.h"
#include "replay/restore_fixed.h"
#include "replay/restore_lists.h"
#include "replay/restore_matrix_class.h"

#define RESOURCE_INDEX_VERSION 1u
enum { BLOB_DEFAULT_COLOR = 1, BLOB_DEFAULT_DEPTH_STENCIL = 2, BLOB_RENDERBUFFER = 3,
       /* 4: display lists (restore_lists.h), 5, 6: multisample samples (restore_multisample.h),
        * 7: fixed-function state (restore_fixed.h) */
       BLOB_KIND_END = GLR_RESTORE_FIXED_FUNCTION + 1 };

struct rblob {
    uint32_t kind, ctx_id, name, width, height, internal_format, format, type;
    void *data;
    uint64_t size;
    /* Between passes on kept contexts (glr_restore_recopy): the pixels stay uploaded in a texture
     * attached to a read framebuffer (and a draw framebuffer for renderbuffers) of ctx_id, so each
     * copy is one blit. Names of the driver, not of the capture; 0: not made yet. */
    GLuint kept_tex, kept_fbo[2];
};

struct glr_restore {
    struct sm_state *s;
    uint32_t capture_ctx;
    struct rblob *blobs;
    size_t n_blobs;
    struct sm_call_list calls;
    bool have_calls;
    struct glr_query_maker *queries;   /* restore_queries.c, made at the first restore */
    const int *interrupt;              /* glr_restore_set_interrupt: nonzero stops the restore */
};

void glr_restore_set_interrupt(struct glr_restore *r, const int *flag)
{
    r->interrupt = flag;
}

/* Whether the restore should stop before its next call or content (another thread set the flag). */
static bool interrupted(const struct glr_restore *r)
{
    return r->interrupt && __atomic_load_n(r->interrupt, __ATOMIC_RELAXED);
}

static void seterr(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void seterr(char *err, size_t n, const char *fmt, ...)
{
    if (!n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

void glr_restore_free(struct glr_restore *r)
{
    if (!r)
        return;
    if (r->have_calls)
        sm_call_list_free(&r->calls);
    sm_state_free(r->s);
    glr_query_maker_free(r->queries);
    for (size_t i = 0; i < r->n_blobs; i++)
        free(r->blobs[i].data);
    free(r->blobs);
    free(r);
}

const struct sm_state *glr_restore_state(const struct glr_restore *r)
{
    return r ? r->s : NULL;
}

/* Bytes per pixel of client data in format/type (what the snapshot reads renderbuffers as); 0 for
 * combinations it never writes. */
static unsigned transfer_bytes(uint32_t format, uint32_t type)
{
    unsigned comps;
    switch (format) {
    case GL_RED: case GL_ALPHA: case GL_LUMINANCE: case GL_RED_INTEGER: case GL_DEPTH_COMPONENT:
    case GL_STENCIL_INDEX: comps = 1; break;
    case GL_RG: case GL_LUMINANCE_ALPHA: case GL_RG_INTEGER: comps = 2; break;
    case GL_RGB: case GL_RGB_INTEGER: comps = 3; break;
    case GL_RGBA: case GL_RGBA_INTEGER: comps = 4; break;
    case GL_DEPTH_STENCIL:
        return type == GL_UNSIGNED_INT_24_8 ? 4 : type == GL_FLOAT_32_UNSIGNED_INT_24_8_REV ? 8 : 0;
    default:
        return 0;
    }
    switch (type) {
    case GL_UNSIGNED_BYTE: return comps;
    case GL_UNSIGNED_SHORT: return comps * 2;
    case GL_INT: case GL_UNSIGNED_INT: case GL_FLOAT: return comps * 4;
    case GL_UNSIGNED_INT_2_10_10_10_REV: return comps == 4 ? 4 : 0;
    default: return 0;
    }
}

static int load_blob(glcap_reader *rd, const char *path, struct rblob *b, uint32_t section_id, char *err,
                     size_t n)
{
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_RESOURCE_BLOB, section_id);
    if (idx < 0) {
        seterr(err, n, "%s: INITIAL_STATE names RESOURCE_BLOB %u, which the file lacks", path, section_id);
        return -1;
    }
    size_t size = 0;
    if (glcap_reader_load(rd, (uint32_t)idx, &b->data, &size) != 0) {
        seterr(err, n, "%s", glcap_reader_error(rd));
        return -1;
    }
    uint64_t px = (uint64_t)b->width * b->height;
    unsigned bpp = b->kind == BLOB_RENDERBUFFER ? transfer_bytes(b->format, b->type) : 4;
    if (b->kind == GLR_RESTORE_DISPLAY_LIST || b->kind == GLR_RESTORE_FIXED_FUNCTION) {   /* kinds 4, 7: records */
        bpp = 1;
        px = b->size;
    }
    if (glr_restore_ms_kind(b->kind)) {   /* kinds 5, 6: whole sample planes (restore_multisample.h) */
        struct glr_ms_content mc = { .kind = b->kind, .width = b->width, .height = b->height,
                                     .internal_format = b->internal_format, .format = b->format, .type = b->type,
                                     .size = b->size };
        bpp = glr_restore_ms_size_ok(&mc) ? 1 : 0;
        px = b->size;
    }
    if (size != b->size || !bpp || size != px * bpp) {
        seterr(err, n, "%s: RESOURCE_BLOB %u: %zu bytes, expected %llu", path, section_id, size,
               (unsigned long long)b->size);
        return -1;
    }
    return 0;
}

/* RESOURCE_BLOB 0, the index: uvar version | uvar capture ctx | uvar count | per content: uvar kind,
 * ctx_id, name, width, height, internal_format, format, type, size; content k is RESOURCE_BLOB k. */
static int load_index(glcap_reader *rd, const char *path, struct glr_restore *r, char *err, size_t n)
{
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_RESOURCE_BLOB, 0);
    if (idx < 0)
        return 0;   /* no contents outside the model */
    void *data = NULL;
    size_t size = 0;
    if (glcap_reader_load(rd, (uint32_t)idx, &data, &size) != 0) {
        seterr(err, n, "%s", glcap_reader_error(rd));
        return -1;
    }
    glcap_cursor c;
    glcap_cursor_init(&c, data, size);
    uint64_t version = glcap_get_uvar(&c);
    if (glcap_cursor_ok(&c) && version != RESOURCE_INDEX_VERSION) {
        seterr(err, n, "%s: RESOURCE_BLOB 0: index version %llu (this glreplay reads %u)", path,
               (unsigned long long)version, RESOURCE_INDEX_VERSION);
        free(data);
        return -1;
    }
    r->capture_ctx = (uint32_t)glcap_get_uvar(&c);
    size_t nb = glcap_get_count(&c, 9, "contents");
    if (glcap_cursor_ok(&c) && nb && !(r->blobs = calloc(nb, sizeof *r->blobs))) {
        seterr(err, n, "out of memory");
        free(data);
        return -1;
    }
    for (size_t i = 0; glcap_cursor_ok(&c) && i < nb; i++) {
        struct rblob *b = &r->blobs[i];
        b->kind = (uint32_t)glcap_get_uvar_below(&c, BLOB_KIND_END, "content kind");
        b->ctx_id = (uint32_t)glcap_get_uvar(&c);
        b->name = (uint32_t)glcap_get_uvar(&c);
        b->width = (uint32_t)glcap_get_uvar_below(&c, 16385, "content width");
        b->height = (uint32_t)glcap_get_uvar_below(&c, 16385, "content height");
        b->internal_format = (uint32_t)glcap_get_uvar(&c);
        b->format = (uint32_t)glcap_get_uvar(&c);
        b->type = (uint32_t)glcap_get_uvar(&c);
        b->size = glcap_get_uvar(&c);
        if (glcap_cursor_ok(&c) && b->kind == 0)
            glcap_cursor_fail(&c, "content kind 0");
        if (!glcap_cursor_ok(&c))
            break;
        r->n_blobs = i + 1;
        if (load_blob(rd, path, b, (uint32_t)(i + 1), err, n) != 0) {
            free(data);
            return -1;
        }
    }
    glcap_cursor_expect_end(&c);
    if (!glcap_cursor_ok(&c)) {
        seterr(err, n, "%s: RESOURCE_BLOB 0: %s", path, glcap_cursor_error(&c));
        free(data);
        return -1;
    }
    free(data);
    return 0;
}

struct glr_restore *glr_restore_load(const char *path, char *err, size_t n)
{
    glcap_reader *rd = glcap_reader_open(path, NULL, err, n);
    if (!rd)
        return NULL;
    struct glr_restore *r = calloc(1, sizeof *r);
    void *data = NULL;
    size_t size = 0;
    int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_INITIAL_STATE, 0);
    if (!r) {
        seterr(err, n, "out of memory");
        goto fail;
    }
    if (idx < 0) {
        seterr(err, n, "%s: no INITIAL_STATE section (the capture has no initial-state snapshot)", path);
        goto fail;
    }
    if (glcap_reader_load(rd, (uint32_t)idx, &data, &size) != 0) {
        seterr(err, n, "%s", glcap_reader_error(rd));
        goto fail;
    }
    char sm_err[256];
    r->s = sm_deserialize(data, size, sm_err, sizeof sm_err);
    if (!r->s) {
        seterr(err, n, "%s: INITIAL_STATE: %s", path, sm_err);
        goto fail;
    }
    if (load_index(rd, path, r, err, n) != 0)
        goto fail;
    free(data);
    glcap_reader_close(rd);
    return r;
fail:
    free(data);
    glcap_reader_close(rd);
    glr_restore_free(r);
    return NULL;
}

/* ---------------------------------------------------------------- default framebuffer */

#define PROC(d, name) ((glr_pfn_##name)glr_dispatch_proc(d, GLR_CMD_##name))

/* Copies one default-framebuffer blob into the current context's default framebuffer: a
 * temporary texture of the same format, attached to a temporary read framebuffer, blitted. Every
 * object it makes is deleted and every binding it sets is put back to its default, so the fresh
 * context is as before apart from the pixels. */
static int blit_default(struct glr_dispatch *d, const struct rblob *b)
{
    glr_pfn_glGenTextures gen_tex = PROC(d, glGenTextures);
    glr_pfn_glBindTexture bind_tex = PROC(d, glBindTexture);
    glr_pfn_glTexImage2D tex_image = PROC(d, glTexImage2D);
    glr_pfn_glTexParameteri tex_param = PROC(d, glTexParameteri);
    glr_pfn_glDeleteTextures del_tex = PROC(d, glDeleteTextures);
    glr_pfn_glGenFramebuffers gen_fb = PROC(d, glGenFramebuffers);
    glr_pfn_glBindFramebuffer bind_fb = PROC(d, glBindFramebuffer);
    glr_pfn_glFramebufferTexture2D fb_tex = PROC(d, glFramebufferTexture2D);
    glr_pfn_glCheckFramebufferStatus fb_status = PROC(d, glCheckFramebufferStatus);
    glr_pfn_glBlitFramebuffer blit = PROC(d, glBlitFramebuffer);
    glr_pfn_glDeleteFramebuffers del_fb = PROC(d, glDeleteFramebuffers);
    if (!gen_tex || !bind_tex || !tex_image || !tex_param || !del_tex || !gen_fb || !bind_fb || !fb_tex ||
        !fb_status || !blit || !del_fb)
        return -1;
    bool color = b->kind == BLOB_DEFAULT_COLOR;
    GLuint tex = 0, fbo = 0;
    gen_tex(1, &tex);
    bind_tex(GL_TEXTURE_2D, tex);
    tex_param(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    /* Rows are 4 bytes per pixel: the default unpack alignment (4) reads them tightly. */
    tex_image(GL_TEXTURE_2D, 0, color ? GL_RGBA8 : GL_DEPTH24_STENCIL8, (GLsizei)b->width, (GLsizei)b->height,
              0, color ? GL_RGBA : GL_DEPTH_STENCIL, color ? GL_UNSIGNED_BYTE : GL_UNSIGNED_INT_24_8, b->data);
    gen_fb(1, &fbo);
    bind_fb(GL_READ_FRAMEBUFFER, fbo);
    fb_tex(GL_READ_FRAMEBUFFER, color ? GL_COLOR_ATTACHMENT0 : GL_DEPTH_STENCIL_ATTACHMENT, GL_TEXTURE_2D,
           tex, 0);
    int rc = -1;
    if (fb_status(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) {
        blit(0, 0, (GLint)b->width, (GLint)b->height, 0, 0, (GLint)b->width, (GLint)b->height,
             color ? GL_COLOR_BUFFER_BIT : (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT), GL_NEAREST);
        rc = 0;
    }
    bind_fb(GL_READ_FRAMEBUFFER, 0);
    del_fb(1, &fbo);
    bind_tex(GL_TEXTURE_2D, 0);
    del_tex(1, &tex);
    return rc;
}

static uint32_t rb_attachment(uint32_t format)
{
    return format == GL_DEPTH_STENCIL ? GL_DEPTH_STENCIL_ATTACHMENT : format == GL_DEPTH_COMPONENT ? GL_DEPTH_ATTACHMENT
         : format == GL_STENCIL_INDEX ? GL_STENCIL_ATTACHMENT : GL_COLOR_ATTACHMENT0;
}

/* A renderbuffer's pixels, after the restore calls made it (and set the captured state): a temporary
 * texture holding them is blitted into it (or, with to_default, a default-framebuffer blob into draw
 * framebuffer 0). Every binding, switch and write mask this touches is saved and put back, so the
 * restored state is unchanged. */
static int blit_saved(struct glr_dispatch *d, const struct glr_restore *r, struct rblob *b, bool to_default, bool keep)
{
    glr_pfn_glGetIntegerv get_int = PROC(d, glGetIntegerv);
    glr_pfn_glGetBooleanv get_bool = PROC(d, glGetBooleanv);
    glr_pfn_glIsEnabled is_enabled = PROC(d, glIsEnabled);
    glr_pfn_glEnable enable = PROC(d, glEnable);
    glr_pfn_glDisable disable = PROC(d, glDisable);
    glr_pfn_glColorMask color_mask = PROC(d, glColorMask);
    glr_pfn_glDepthMask depth_mask = PROC(d, glDepthMask);
    glr_pfn_glStencilMaskSeparate stencil_mask = PROC(d, glStencilMaskSeparate);
    glr_pfn_glPixelStorei store = PROC(d, glPixelStorei);
    glr_pfn_glBindBuffer bind_buf = PROC(d, glBindBuffer);
    glr_pfn_glGenTextures gen_tex = PROC(d, glGenTextures);
    glr_pfn_glBindTexture bind_tex = PROC(d, glBindTexture);
    glr_pfn_glActiveTexture active_tex = PROC(d, glActiveTexture);
    glr_pfn_glTexImage2D tex_image = PROC(d, glTexImage2D);
    glr_pfn_glDeleteTextures del_tex = PROC(d, glDeleteTextures);
    glr_pfn_glGenFramebuffers gen_fb = PROC(d, glGenFramebuffers);
    glr_pfn_glBindFramebuffer bind_fb = PROC(d, glBindFramebuffer);
    glr_pfn_glFramebufferTexture2D fb_tex = PROC(d, glFramebufferTexture2D);
    glr_pfn_glFramebufferRenderbuffer fb_rb = PROC(d, glFramebufferRenderbuffer);
    glr_pfn_glCheckFramebufferStatus fb_status = PROC(d, glCheckFramebufferStatus);
    glr_pfn_glBlitFramebuffer blit = PROC(d, glBlitFramebuffer);
    glr_pfn_glDeleteFramebuffers del_fb = PROC(d, glDeleteFramebuffers);
    if (!get_int || !get_bool || !is_enabled || !enable || !disable || !color_mask || !depth_mask || !stencil_mask ||
        !store || !bind_buf || !gen_tex || !bind_tex || !active_tex || !tex_image || !del_tex || !gen_fb || !bind_fb ||
        !fb_tex || !fb_rb || !fb_status || !blit || !del_fb)
        return -1;
    bool color_blob = b->kind == BLOB_DEFAULT_COLOR;
    uint32_t ifmt = to_default ? (color_blob ? GL_RGBA8 : GL_DEPTH24_STENCIL8) : b->internal_format;
    uint32_t fmt = to_default ? (color_blob ? GL_RGBA : GL_DEPTH_STENCIL) : b->format;
    uint32_t type = to_default ? (color_blob ? GL_UNSIGNED_BYTE : GL_UNSIGNED_INT_24_8) : b->type;
    GLuint rb = to_default ? 0 : (GLuint)glr_dispatch_lookup(d, b->ctx_id, GLR_OBJ_RENDERBUFFER, b->name);
    const struct sm_context *c = sm_context_get(r->s, b->ctx_id);
    bool desktop = c && sm_context_api(c, NULL, NULL) != SM_API_GLES;
    GLint draw_fb = 0, read_fb = 0, tex2d = 0, unpack_buf = 0, active = 0, unpack[4] = { 4, 0, 0, 0 };
    GLint stencil_wm[2] = { -1, -1 };
    GLboolean cmask[4] = { 1, 1, 1, 1 }, dmask = 1;
    static const GLenum unpack_pn[4] = { GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                         GL_UNPACK_SKIP_PIXELS };
    get_int(GL_DRAW_FRAMEBUFFER_BINDING, &draw_fb);
    get_int(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    get_int(GL_ACTIVE_TEXTURE, &active);
    active_tex(GL_TEXTURE0);
    get_int(GL_TEXTURE_BINDING_2D, &tex2d);
    get_int(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpack_buf);
    for (int i = 0; i < 4; i++)
        get_int(unpack_pn[i], &unpack[i]);
    get_bool(GL_COLOR_WRITEMASK, cmask);
    get_bool(GL_DEPTH_WRITEMASK, &dmask);
    get_int(GL_STENCIL_WRITEMASK, &stencil_wm[0]);
    get_int(GL_STENCIL_BACK_WRITEMASK, &stencil_wm[1]);
    color_mask(1, 1, 1, 1);
    depth_mask(1);
    stencil_mask(GL_FRONT_AND_BACK, 0xFFFFFFFFu);
    bool scissor = is_enabled(GL_SCISSOR_TEST), discard = is_enabled(GL_RASTERIZER_DISCARD);
    bool srgb = desktop && is_enabled(GL_FRAMEBUFFER_SRGB);
    if (scissor)
        disable(GL_SCISSOR_TEST);
    if (discard)
        disable(GL_RASTERIZER_DISCARD);
    if (srgb)
        disable(GL_FRAMEBUFFER_SRGB);
    if (unpack_buf)
        bind_buf(GL_PIXEL_UNPACK_BUFFER, 0);
    store(GL_UNPACK_ALIGNMENT, to_default ? 4 : 1);
    for (int i = 1; i < 4; i++)
        if (unpack[i])
            store(unpack_pn[i], 0);
    GLuint tex = b->kept_tex, fbo[2] = { b->kept_fbo[0], b->kept_fbo[1] };
    uint32_t att = to_default ? (color_blob ? GL_COLOR_ATTACHMENT0 : GL_DEPTH_STENCIL_ATTACHMENT)
                              : rb_attachment(b->format);
    bool made = tex != 0;
    if (!made) {
        gen_tex(1, &tex);
        bind_tex(GL_TEXTURE_2D, tex);
        tex_image(GL_TEXTURE_2D, 0, (GLint)ifmt, (GLsizei)b->width, (GLsizei)b->height, 0, fmt, type, b->data);
        gen_fb(2, fbo);
    }
    bind_fb(GL_READ_FRAMEBUFFER, fbo[0]);
    if (!made)
        fb_tex(GL_READ_FRAMEBUFFER, att, GL_TEXTURE_2D, tex, 0);
    bind_fb(GL_DRAW_FRAMEBUFFER, to_default ? 0 : fbo[1]);
    if (!to_default && !made)
        fb_rb(GL_DRAW_FRAMEBUFFER, att, GL_RENDERBUFFER, rb);
    int rc = -1;
    if (fb_status(GL_READ_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE &&
        fb_status(GL_DRAW_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE) {
        GLbitfield mask = att == GL_COLOR_ATTACHMENT0 ? GL_COLOR_BUFFER_BIT
                        : att == GL_DEPTH_ATTACHMENT ? GL_DEPTH_BUFFER_BIT
                        : att == GL_STENCIL_ATTACHMENT ? GL_STENCIL_BUFFER_BIT
                                                         : (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT);
        blit(0, 0, (GLint)b->width, (GLint)b->height, 0, 0, (GLint)b->width, (GLint)b->height, mask, GL_NEAREST);
        rc = 0;
    }
    bind_fb(GL_READ_FRAMEBUFFER, (GLuint)read_fb);
    bind_fb(GL_DRAW_FRAMEBUFFER, (GLuint)draw_fb);
    bind_tex(GL_TEXTURE_2D, (GLuint)tex2d);
    if (keep && rc == 0) {
        b->kept_tex = tex;
        b->kept_fbo[0] = fbo[0];
        b->kept_fbo[1] = fbo[1];
    } else {
        del_fb(2, fbo);
        del_tex(1, &tex);
        b->kept_tex = b->kept_fbo[0] = b->kept_fbo[1] = 0;
    }
    active_tex((GLenum)active);
    for (int i = 0; i < 4; i++)
        store(unpack_pn[i], unpack[i]);
    if (unpack_buf)
        bind_buf(GL_PIXEL_UNPACK_BUFFER, (GLuint)unpack_buf);
    if (scissor)
        enable(GL_SCISSOR_TEST);
    if (discard)
        enable(GL_RASTERIZER_DISCARD);
    if (srgb)
        enable(GL_FRAMEBUFFER_SRGB);
    color_mask(cmask[0], cmask[1], cmask[2], cmask[3]);
    depth_mask(dmask);
    stencil_mask(GL_FRONT, (GLuint)stencil_wm[0]);
    stencil_mask(GL_BACK, (GLuint)stencil_wm[1]);
    return rc;
}

/* A multisample content (kinds 5, 6): every sample drawn in by restore_multisample.c. */
static int restore_ms(struct glr_dispatch *d, const struct glr_restore *r, const struct rblob *b)
{
    struct glr_ms_content mc = { .kind = b->kind, .ctx_id = b->ctx_id, .name = b->name, .width = b->width,
                                 .height = b->height, .internal_format = b->internal_format, .format = b->format,
                                 .type = b->type, .data = b->data, .size = b->size };
    char why[256];
    if (glr_restore_ms_write(d, r->s, &mc, why, sizeof why) == 0)
        return 0;
    fprintf(stderr, "glreplay: warning: multisample %s %u: samples not restored: %s\n",
            b->kind == GLR_RESTORE_MS_RENDERBUFFER ? "renderbuffer" : "texture", b->name, why);
    return -1;
}

static int blit_renderbuffer(struct glr_dispatch *d, const struct glr_restore *r, struct rblob *b)
{
    return blit_saved(d, r, b, false, false);
}

/* The same for a default-framebuffer blob on a context in any state (between replay passes):
 * the pixels go to draw framebuffer 0, every binding and switch touched is put back. */
static int blit_default_saved(struct glr_dispatch *d, const struct glr_restore *r, struct rblob *b)
{
    return blit_saved(d, r, b, true, true);
}

int glr_restore_run(struct glr_restore *r, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                    struct glr_restore_stats *st, char *err, size_t n)
{
    struct glr_restore_stats local;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if (!r->have_calls) {
        memset(&r->calls, 0, sizeof r->calls);
        r->have_calls = true;
        if (!sm_restore_calls(r->s, &r->calls) || r->calls.failed) {
            seterr(err, n, "out of memory making the restore calls");
            return -1;
        }
    }
    /* Pixels first, on contexts still in their default state; then objects and state. */
    for (size_t i = 0; i < r->n_blobs; i++) {
        const struct rblob *b = &r->blobs[i];
        if (b->kind != BLOB_DEFAULT_COLOR && b->kind != BLOB_DEFAULT_DEPTH_STENCIL)
            continue;
        if (interrupted(r))
            return GLR_RESTORE_INTERRUPTED;
        if (make_current(user, b->ctx_id) != 0 || blit_default(d, b) != 0)
            st->contents_failed++;
        else
            st->contents_restored++;
    }
    uint32_t cur = 0;
    bool cur_ok = false;
    for (size_t i = 0; i < r->calls.count; i++) {
        const struct glr_call *c = &r->calls.calls[i];
        if (interrupted(r))
            return GLR_RESTORE_INTERRUPTED;
        if (c->ctx_id != cur) {
            /* A context the replay did not create (never described in METADATA): its calls are
             * counted as failed, the others still run. */
            cur = c->ctx_id;
            cur_ok = make_current(user, c->ctx_id) == 0;
        }
        if (!cur_ok) {
            st->calls++;
            st->calls_failed++;
            if (!st->first_failed)
                st->first_failed = "(context not created)";
            continue;
        }
        int k = glr_dispatch_call(d, c);
        st->calls++;
        if (k == GLR_DISPATCH_MISSING || k == GLR_DISPATCH_BAD) {
            st->calls_failed++;
            if (!st->first_failed)
                st->first_failed = glr_cmd_name(c->cmd);
        } else {
            glr_restore_matrix_loaded(d, c);
        }
    }
    /* Fixed-function state of compatibility contexts (restore_fixed.c). */
    for (size_t i = 0; i < r->n_blobs; i++) {
        const struct rblob *b = &r->blobs[i];
        char why[256];
        if (b->kind != GLR_RESTORE_FIXED_FUNCTION)
            continue;
        if (interrupted(r))
            return GLR_RESTORE_INTERRUPTED;
        if (make_current(user, b->ctx_id) != 0) {
            st->contents_failed++;
            fprintf(stderr, "glreplay: warning: context %u: fixed-function state not restored: the context was "
                    "not created\n", b->ctx_id);
        } else if (glr_restore_fixed_function(d, b->data, (size_t)b->size, st, why, sizeof why) != 0) {
            st->contents_failed++;
            fprintf(stderr, "glreplay: warning: context %u: fixed-function state not restored: its records are "
                    "corrupt: %s\n", b->ctx_id, why);
        }
    }
    /* Display lists: compiled after the objects they use exist (restore_lists.c). */
    for (size_t i = 0; i < r->n_blobs; i++) {
        const struct rblob *b = &r->blobs[i];
        char why[256];
        if (b->kind != GLR_RESTORE_DISPLAY_LIST)
            continue;
        if (interrupted(r))
            return GLR_RESTORE_INTERRUPTED;
        if (make_current(user, b->ctx_id) != 0) {
            st->contents_failed++;
            fprintf(stderr, "glreplay: warning: display list %u: context %u was not created\n", b->name, b->ctx_id);
        } else if (glr_restore_list(d, b->ctx_id, b->name, b->data, (size_t)b->size, st, why, sizeof why) != 0) {
            st->contents_failed++;
            fprintf(stderr, "glreplay: warning: display list %u not restored: %s\n", b->name, why);
        }
    }
    /* Renderbuffer pixels last: the renderbuffers exist now (with their replay names). */
    for (size_t i = 0; i < r->n_blobs; i++) {
        struct rblob *b = &r->blobs[i];
        if (b->kind != BLOB_RENDERBUFFER && !glr_restore_ms_kind(b->kind))
            continue;
        if (interrupted(r))
            return GLR_RESTORE_INTERRUPTED;
        if (make_current(user, b->ctx_id) != 0 ||
            (b->kind == BLOB_RENDERBUFFER ? blit_renderbuffer(d, r, b) : restore_ms(d, r, b)) != 0)
            st->contents_failed++;
        else
            st->contents_restored++;
    }
    /* Query results earlier frames left (the query objects exist now). The contexts are fresh:
     * objects a maker kept on earlier ones are gone. */
    glr_query_maker_forget(r->queries);
    if (interrupted(r))
        return GLR_RESTORE_INTERRUPTED;
    glr_restore_query_results(glr_restore_query_maker(r), r->s, d, make_current, user, NULL, NULL, st);
    return 0;
}

struct glr_query_maker *glr_restore_query_maker(struct glr_restore *r)
{
    if (r && !r->queries)
        r->queries = glr_query_maker_new();
    return r ? r->queries : NULL;
}

/* ---------------------------------------------------------------- between passes (restore_reset.h) */

const struct sm_call_list *glr_restore_call_list(struct glr_restore *r)
{
    if (!r->have_calls) {
        memset(&r->calls, 0, sizeof r->calls);
        r->have_calls = true;
        if (!sm_restore_calls(r->s, &r->calls) || r->calls.failed)
            r->calls.failed = true;
    }
    return r->calls.failed ? NULL : &r->calls;
}

size_t glr_restore_content_count(const struct glr_restore *r)
{
    return r ? r->n_blobs : 0;
}

bool glr_restore_content_at(const struct glr_restore *r, size_t i, struct glr_restore_saved *out)
{
    if (!r || i >= r->n_blobs)
        return false;
    const struct rblob *b = &r->blobs[i];
    *out = (struct glr_restore_saved){ b->kind, b->ctx_id, b->name, b->width, b->height, b->internal_format,
                                       b->format, b->type, b->data, b->size };
    return true;
}

bool glr_restore_has_contents(const struct glr_restore *r, bool default_fb, uint32_t ctx_id, uint32_t name)
{
    for (size_t i = 0; i < r->n_blobs; i++) {
        const struct rblob *b = &r->blobs[i];
        bool rb = b->kind == BLOB_RENDERBUFFER || b->kind == GLR_RESTORE_MS_RENDERBUFFER;
        if (b->kind == GLR_RESTORE_DISPLAY_LIST || b->kind == GLR_RESTORE_FIXED_FUNCTION)
            continue;
        if (default_fb ? (!rb && b->kind != GLR_RESTORE_MS_TEXTURE && b->ctx_id == ctx_id)
                       : (rb && b->name == name))
            return true;
    }
    return false;
}

int glr_restore_recopy(struct glr_restore *r, struct glr_dispatch *d, glr_make_current_fn make_current, void *user,
                       glr_restore_want_fn want, void *want_user, struct glr_restore_stats *st)
{
    for (size_t i = 0; i < r->n_blobs; i++) {
        struct rblob *b = &r->blobs[i];
        if (b->kind == GLR_RESTORE_DISPLAY_LIST || b->kind == GLR_RESTORE_FIXED_FUNCTION)
            continue;   /* lists stay compiled, fixed-function state stays set, on kept contexts */
        if (glr_restore_ms_kind(b->kind)) {
            /* Multisample renderbuffers when the frame changed them; multisample textures always
             * (the reset plan tracks no texture contents of its own for them). */
            if (b->kind == GLR_RESTORE_MS_RENDERBUFFER &&
                !want(want_user, GLR_CONTENT_RENDERBUFFER, b->ctx_id, b->name))
                continue;
            if (make_current(user, b->ctx_id) != 0 || restore_ms(d, r, b) != 0)
                st->contents_failed++;
            else
                st->contents_restored++;
            continue;
        }
        bool is_default = b->kind != BLOB_RENDERBUFFER;
        enum glr_restore_content what = b->kind == BLOB_RENDERBUFFER ? GLR_CONTENT_RENDERBUFFER
                                      : b->kind == BLOB_DEFAULT_COLOR ? GLR_CONTENT_DEFAULT_COLOR
                                                                      : GLR_CONTENT_DEFAULT_DEPTH_STENCIL;
        if (!want(want_user, what, b->ctx_id, b->name))
            continue;
        if (make_current(user, b->ctx_id) != 0 ||
            (is_default ? blit_default_saved(d, r, b) : blit_saved(d, r, b, false, true)) != 0)
            st->contents_failed++;
        else
            st->contents_restored++;
    }
    return st->contents_failed ? -1 : 0;
}

void glr_restore_forget_copies(struct glr_restore *r)
{
    for (size_t i = 0; r && i < r->n_blobs; i++)
        r->blobs[i].kept_tex = r->blobs[i].kept_fbo[0] = r->blobs[i].kept_fbo[1] = 0;
    if (r)
        glr_query_maker_forget(r->queries);
}
