/* The GL state the multisample passes (ms_samples.c) touch: saved before, set to a neutral
 * state where only the pass's shader decides what is written, and put back after. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <GL/glcorearb.h>   /* enum values only (no prototypes): calls go through glr_ms_gl */
#include "replay/ms_samples_internal.h"
#include "registry/glr_gl_enums.h"   /* generated from gl.xml */

void glr_ms_why(char *why, size_t n, const char *fmt, ...)
{
    if (!n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------- saved state */

/* Switches turned off (or on) for the passes; put back as they were. */
static const unsigned plain_caps[] = {
    GL_DEPTH_TEST, GL_STENCIL_TEST, GL_CULL_FACE, GL_RASTERIZER_DISCARD, GL_SAMPLE_ALPHA_TO_COVERAGE,
    GL_SAMPLE_ALPHA_TO_ONE, GL_SAMPLE_COVERAGE, GL_COLOR_LOGIC_OP, GL_DITHER, GL_POLYGON_OFFSET_FILL,
    GL_DEPTH_CLAMP, GL_FRAMEBUFFER_SRGB, GL_MULTISAMPLE, GL_SAMPLE_MASK, GL_CLIP_DISTANCE0, GL_CLIP_DISTANCE1,
    GL_CLIP_DISTANCE2, GL_CLIP_DISTANCE3, GL_CLIP_DISTANCE4, GL_CLIP_DISTANCE5, GL_CLIP_DISTANCE6,
    GL_CLIP_DISTANCE7, GL_SAMPLE_SHADING, GL_ALPHA_TEST,
};
#define N_CAPS (sizeof plain_caps / sizeof plain_caps[0])
_Static_assert(N_CAPS == GLR_MS_N_CAPS, "GLR_MS_N_CAPS (ms_samples_internal.h) counts plain_caps");

static const unsigned pack_pn[8] = { GL_PACK_ALIGNMENT, GL_PACK_ROW_LENGTH, GL_PACK_SKIP_ROWS, GL_PACK_SKIP_PIXELS,
                                     GL_PACK_IMAGE_HEIGHT, GL_PACK_SKIP_IMAGES, GL_PACK_SWAP_BYTES, GL_PACK_LSB_FIRST };
static const unsigned unpack_pn[8] = { GL_UNPACK_ALIGNMENT, GL_UNPACK_ROW_LENGTH, GL_UNPACK_SKIP_ROWS,
                                       GL_UNPACK_SKIP_PIXELS, GL_UNPACK_IMAGE_HEIGHT, GL_UNPACK_SKIP_IMAGES,
                                       GL_UNPACK_SWAP_BYTES, GL_UNPACK_LSB_FIRST };
static const unsigned stencil_pn[2][7] = {
    { GL_STENCIL_FUNC, GL_STENCIL_REF, GL_STENCIL_VALUE_MASK, GL_STENCIL_FAIL, GL_STENCIL_PASS_DEPTH_FAIL,
      GL_STENCIL_PASS_DEPTH_PASS, GL_STENCIL_WRITEMASK },
    { GL_STENCIL_BACK_FUNC, GL_STENCIL_BACK_REF, GL_STENCIL_BACK_VALUE_MASK, GL_STENCIL_BACK_FAIL,
      GL_STENCIL_BACK_PASS_DEPTH_FAIL, GL_STENCIL_BACK_PASS_DEPTH_PASS, GL_STENCIL_BACK_WRITEMASK },
};

bool glr_ms_version(struct ms_ctx *m, char *why, size_t n)
{
    const struct glr_ms_gl *gl = m->gl;
    m->major = m->minor = 0;
    gl->glGetIntegerv(GL_MAJOR_VERSION, &m->major);
    gl->glGetIntegerv(GL_MINOR_VERSION, &m->minor);
    int v = m->major * 10 + m->minor;
    if (v < 32) {
        glr_ms_why(why, n, "multisample contents need desktop GL 3.2 (sampler2DMS); the context is %d.%d",
                m->major, m->minor);
        return false;
    }
    int mask = 0;
    gl->glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
    /* Entry points of later versions are used only where the context has them. */
    m->compat = (mask & GL_CONTEXT_COMPATIBILITY_PROFILE_BIT) != 0 && gl->glClampColor;
    m->indexed = v >= 41 && gl->glViewportIndexedf && gl->glDepthRangeIndexed && gl->glGetFloati_v &&
                 gl->glGetDoublei_v;
    m->samplers = v >= 33 && gl->glBindSampler;
    m->stencil_tex = v >= 43;
    return true;
}

void glr_ms_save(struct ms_ctx *m)
{
    const struct glr_ms_gl *gl = m->gl;
    gl->glGetIntegerv(GL_CURRENT_PROGRAM, &m->program);
    gl->glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &m->vao);
    gl->glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &m->draw_fb);
    gl->glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &m->read_fb);
    gl->glGetIntegerv(GL_ACTIVE_TEXTURE, &m->active);
    gl->glGetIntegerv(GL_PIXEL_PACK_BUFFER_BINDING, &m->pack_buf);
    gl->glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &m->unpack_buf);
    for (int i = 0; i < 8; i++) {
        gl->glGetIntegerv(pack_pn[i], &m->pack[i]);
        gl->glGetIntegerv(unpack_pn[i], &m->unpack[i]);
    }
    for (int u = 0; u < 2; u++) {
        gl->glActiveTexture(GL_TEXTURE0 + (unsigned)u);
        gl->glGetIntegerv(GL_TEXTURE_BINDING_2D_MULTISAMPLE, &m->tex_ms[u]);
        gl->glGetIntegerv(GL_TEXTURE_BINDING_2D_ARRAY, &m->tex_array[u]);
        if (m->samplers)
            gl->glGetIntegerv(GL_SAMPLER_BINDING, &m->sampler[u]);
    }
    for (size_t i = 0; i < N_CAPS; i++) {
        if ((plain_caps[i] == GL_SAMPLE_SHADING && m->major < 4) || (plain_caps[i] == GL_ALPHA_TEST && !m->compat))
            continue;
        m->caps[i] = gl->glIsEnabled(plain_caps[i]);
    }
    m->blend0 = gl->glIsEnabledi(GL_BLEND, 0);
    gl->glGetBooleani_v(GL_COLOR_WRITEMASK, 0, m->cmask);
    gl->glGetBooleanv(GL_DEPTH_WRITEMASK, &m->dmask);
    gl->glGetIntegerv(GL_DEPTH_FUNC, &m->depth_func);
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < 7; i++)
            gl->glGetIntegerv(stencil_pn[f][i], &m->stencil[f][i]);
    gl->glGetIntegeri_v(GL_SAMPLE_MASK_VALUE, 0, &m->sample_mask);
    gl->glGetIntegerv(GL_POLYGON_MODE, m->polygon);
    if (m->compat)
        gl->glGetIntegerv(GL_CLAMP_FRAGMENT_COLOR, &m->clamp_frag);
    m->max_vp = 1;
    m->scissor_bits = 0;
    if (m->indexed) {
        gl->glGetIntegerv(GL_MAX_VIEWPORTS, &m->max_vp);
        if (m->max_vp > 32)
            m->max_vp = 32;
        for (int i = 0; i < m->max_vp; i++)
            if (gl->glIsEnabledi(GL_SCISSOR_TEST, (unsigned)i))
                m->scissor_bits |= 1u << i;
        gl->glGetFloati_v(GL_VIEWPORT, 0, m->viewport_f);
        gl->glGetDoublei_v(GL_DEPTH_RANGE, 0, m->depth_range);
    } else {
        m->scissor_bits = gl->glIsEnabled(GL_SCISSOR_TEST) ? 1u : 0u;
        gl->glGetIntegerv(GL_VIEWPORT, m->viewport_i);
        gl->glGetDoublev(GL_DEPTH_RANGE, m->depth_range);
    }
}

/* The fixed state every pass starts from: nothing but the shader decides what is written. */
void glr_ms_neutral(struct ms_ctx *m, int w, int h)
{
    const struct glr_ms_gl *gl = m->gl;
    for (size_t i = 0; i < N_CAPS; i++) {
        if ((plain_caps[i] == GL_SAMPLE_SHADING && m->major < 4) || (plain_caps[i] == GL_ALPHA_TEST && !m->compat))
            continue;
        if (plain_caps[i] == GL_MULTISAMPLE)
            gl->glEnable(GL_MULTISAMPLE);   /* the sample mask applies only with multisampling on */
        else
            gl->glDisable(plain_caps[i]);
    }
    gl->glDisablei(GL_BLEND, 0);
    if (m->indexed) {
        for (int i = 0; i < m->max_vp; i++)
            if (m->scissor_bits & (1u << i))
                gl->glDisablei(GL_SCISSOR_TEST, (unsigned)i);
        gl->glViewportIndexedf(0, 0, 0, (float)w, (float)h);
        gl->glDepthRangeIndexed(0, 0.0, 1.0);
    } else {
        gl->glDisable(GL_SCISSOR_TEST);
        gl->glViewport(0, 0, w, h);
        gl->glDepthRange(0.0, 1.0);
    }
    gl->glColorMaski(0, 1, 1, 1, 1);
    gl->glDepthMask(1);
    gl->glDepthFunc(GL_ALWAYS);
    gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 0xFFu);
    gl->glStencilFuncSeparate(GL_FRONT_AND_BACK, GL_ALWAYS, 0xFF, 0xFFu);
    gl->glStencilOpSeparate(GL_FRONT_AND_BACK, GL_REPLACE, GL_REPLACE, GL_REPLACE);
    gl->glSampleMaski(0, 0xFFFFFFFFu);
    gl->glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
    if (m->compat)
        gl->glClampColor(GL_CLAMP_FRAGMENT_COLOR, GL_FIXED_ONLY);
    if (m->pack_buf)
        gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
    if (m->unpack_buf)
        gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    for (int i = 0; i < 8; i++) {
        gl->glPixelStorei(pack_pn[i], i == 0 ? 1 : 0);
        gl->glPixelStorei(unpack_pn[i], i == 0 ? 1 : 0);
    }
    for (int u = 0; u < 2; u++)
        if (m->samplers && m->sampler[u])
            gl->glBindSampler((unsigned)u, 0);
}

void glr_ms_restore(struct ms_ctx *m)
{
    const struct glr_ms_gl *gl = m->gl;
    gl->glUseProgram((unsigned)m->program);
    gl->glBindVertexArray((unsigned)m->vao);
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (unsigned)m->draw_fb);
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, (unsigned)m->read_fb);
    for (int u = 0; u < 2; u++) {
        gl->glActiveTexture(GL_TEXTURE0 + (unsigned)u);
        gl->glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, (unsigned)m->tex_ms[u]);
        gl->glBindTexture(GL_TEXTURE_2D_ARRAY, (unsigned)m->tex_array[u]);
        if (m->samplers && m->sampler[u])
            gl->glBindSampler((unsigned)u, (unsigned)m->sampler[u]);
    }
    gl->glActiveTexture((unsigned)m->active);
    for (int i = 0; i < 8; i++) {
        gl->glPixelStorei(pack_pn[i], m->pack[i]);
        gl->glPixelStorei(unpack_pn[i], m->unpack[i]);
    }
    if (m->pack_buf)
        gl->glBindBuffer(GL_PIXEL_PACK_BUFFER, (unsigned)m->pack_buf);
    if (m->unpack_buf)
        gl->glBindBuffer(GL_PIXEL_UNPACK_BUFFER, (unsigned)m->unpack_buf);
    for (size_t i = 0; i < N_CAPS; i++) {
        if ((plain_caps[i] == GL_SAMPLE_SHADING && m->major < 4) || (plain_caps[i] == GL_ALPHA_TEST && !m->compat))
            continue;
        (m->caps[i] ? gl->glEnable : gl->glDisable)(plain_caps[i]);
    }
    if (m->blend0)
        gl->glEnablei(GL_BLEND, 0);
    if (m->indexed) {
        for (int i = 0; i < m->max_vp; i++)
            if (m->scissor_bits & (1u << i))
                gl->glEnablei(GL_SCISSOR_TEST, (unsigned)i);
        gl->glViewportIndexedf(0, m->viewport_f[0], m->viewport_f[1], m->viewport_f[2], m->viewport_f[3]);
        gl->glDepthRangeIndexed(0, m->depth_range[0], m->depth_range[1]);
    } else {
        if (m->scissor_bits)
            gl->glEnable(GL_SCISSOR_TEST);
        gl->glViewport(m->viewport_i[0], m->viewport_i[1], m->viewport_i[2], m->viewport_i[3]);
        gl->glDepthRange(m->depth_range[0], m->depth_range[1]);
    }
    gl->glColorMaski(0, m->cmask[0], m->cmask[1], m->cmask[2], m->cmask[3]);
    gl->glDepthMask(m->dmask);
    gl->glDepthFunc((unsigned)m->depth_func);
    static const unsigned face[2] = { GL_FRONT, GL_BACK };
    for (int f = 0; f < 2; f++) {
        const int *s = m->stencil[f];
        gl->glStencilFuncSeparate(face[f], (unsigned)s[0], s[1], (unsigned)s[2]);
        gl->glStencilOpSeparate(face[f], (unsigned)s[3], (unsigned)s[4], (unsigned)s[5]);
        gl->glStencilMaskSeparate(face[f], (unsigned)s[6]);
    }
    gl->glSampleMaski(0, (unsigned)m->sample_mask);
    if (m->polygon[0] == m->polygon[1] || !m->compat) {
        gl->glPolygonMode(GL_FRONT_AND_BACK, (unsigned)m->polygon[0]);
    } else {
        gl->glPolygonMode(GL_FRONT, (unsigned)m->polygon[0]);
        gl->glPolygonMode(GL_BACK, (unsigned)m->polygon[1]);
    }
    if (m->compat)
        gl->glClampColor(GL_CLAMP_FRAGMENT_COLOR, (unsigned)m->clamp_frag);
}

/* Every GL entry point this needs; false (why set) when the resolver lacks one. */
/* Entry points of GL 3.3 and later, or of compatibility profiles only: see glr_ms_version. */
static bool optional(const char *name)
{
    static const char *const names[] = { "glViewportIndexedf", "glDepthRangeIndexed", "glGetFloati_v",
                                         "glGetDoublei_v", "glBindSampler", "glClampColor" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

bool glr_ms_complete(const struct glr_ms_gl *gl, char *why, size_t n)
{
#define MS_CHECK(ret, name, params)                                                                    \
    if (!gl->name && !optional(#name)) {                                                                                   \
        glr_ms_why(why, n, "the GL function %s is not available", #name);                               \
        return false;                                                                                  \
    }
    GLR_MS_GL_FUNCS(MS_CHECK)
#undef MS_CHECK
    return true;
}
