/* Every sample of a multisample image, read and written exactly: see ms_samples.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <GL/glcorearb.h>   /* enum values only (no prototypes): calls go through glr_ms_gl */
#include "replay/ms_samples_internal.h"

/* How a format's values reach a shader and back. */
enum ms_class { MS_FLOAT, MS_INT, MS_UINT, MS_DEPTH, MS_DEPTH_STENCIL };

struct ms_format {
    unsigned ifmt, format, type, bpp;
    enum ms_class cls;
    bool srgb;
};

/* Client transfers that keep every bit (half floats as GL_HALF_FLOAT, packed formats packed). */
static const struct ms_format formats[] = {
    { GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, MS_FLOAT, false },
    { GL_RGBA, GL_RGBA, GL_UNSIGNED_BYTE, 4, MS_FLOAT, false },
    { GL_SRGB8_ALPHA8, GL_RGBA, GL_UNSIGNED_BYTE, 4, MS_FLOAT, true },
    { GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, 3, MS_FLOAT, false },
    { GL_RGB, GL_RGB, GL_UNSIGNED_BYTE, 3, MS_FLOAT, false },
    { GL_RG8, GL_RG, GL_UNSIGNED_BYTE, 2, MS_FLOAT, false },
    { GL_R8, GL_RED, GL_UNSIGNED_BYTE, 1, MS_FLOAT, false },
    { GL_RGB10_A2, GL_RGBA, GL_UNSIGNED_INT_2_10_10_10_REV, 4, MS_FLOAT, false },
    { GL_RGBA16, GL_RGBA, GL_UNSIGNED_SHORT, 8, MS_FLOAT, false },
    { GL_RG16, GL_RG, GL_UNSIGNED_SHORT, 4, MS_FLOAT, false },
    { GL_R16, GL_RED, GL_UNSIGNED_SHORT, 2, MS_FLOAT, false },
    { GL_RGBA16F, GL_RGBA, GL_HALF_FLOAT, 8, MS_FLOAT, false },
    { GL_RGB16F, GL_RGB, GL_HALF_FLOAT, 6, MS_FLOAT, false },
    { GL_RG16F, GL_RG, GL_HALF_FLOAT, 4, MS_FLOAT, false },
    { GL_R16F, GL_RED, GL_HALF_FLOAT, 2, MS_FLOAT, false },
    { GL_RGBA32F, GL_RGBA, GL_FLOAT, 16, MS_FLOAT, false },
    { GL_RG32F, GL_RG, GL_FLOAT, 8, MS_FLOAT, false },
    { GL_R32F, GL_RED, GL_FLOAT, 4, MS_FLOAT, false },
    { GL_R11F_G11F_B10F, GL_RGB, GL_UNSIGNED_INT_10F_11F_11F_REV, 4, MS_FLOAT, false },
    { GL_R8I, GL_RED_INTEGER, GL_BYTE, 1, MS_INT, false },
    { GL_R16I, GL_RED_INTEGER, GL_SHORT, 2, MS_INT, false },
    { GL_R32I, GL_RED_INTEGER, GL_INT, 4, MS_INT, false },
    { GL_RG8I, GL_RG_INTEGER, GL_BYTE, 2, MS_INT, false },
    { GL_RG16I, GL_RG_INTEGER, GL_SHORT, 4, MS_INT, false },
    { GL_RG32I, GL_RG_INTEGER, GL_INT, 8, MS_INT, false },
    { GL_RGBA8I, GL_RGBA_INTEGER, GL_BYTE, 4, MS_INT, false },
    { GL_RGBA16I, GL_RGBA_INTEGER, GL_SHORT, 8, MS_INT, false },
    { GL_RGBA32I, GL_RGBA_INTEGER, GL_INT, 16, MS_INT, false },
    { GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1, MS_UINT, false },
    { GL_R16UI, GL_RED_INTEGER, GL_UNSIGNED_SHORT, 2, MS_UINT, false },
    { GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4, MS_UINT, false },
    { GL_RG8UI, GL_RG_INTEGER, GL_UNSIGNED_BYTE, 2, MS_UINT, false },
    { GL_RG16UI, GL_RG_INTEGER, GL_UNSIGNED_SHORT, 4, MS_UINT, false },
    { GL_RG32UI, GL_RG_INTEGER, GL_UNSIGNED_INT, 8, MS_UINT, false },
    { GL_RGBA8UI, GL_RGBA_INTEGER, GL_UNSIGNED_BYTE, 4, MS_UINT, false },
    { GL_RGBA16UI, GL_RGBA_INTEGER, GL_UNSIGNED_SHORT, 8, MS_UINT, false },
    { GL_RGBA32UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT, 16, MS_UINT, false },
    { GL_RGB10_A2UI, GL_RGBA_INTEGER, GL_UNSIGNED_INT_2_10_10_10_REV, 4, MS_UINT, false },
    { GL_DEPTH_COMPONENT16, GL_DEPTH_COMPONENT, GL_UNSIGNED_SHORT, 2, MS_DEPTH, false },
    { GL_DEPTH_COMPONENT24, GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, 4, MS_DEPTH, false },
    { GL_DEPTH_COMPONENT32F, GL_DEPTH_COMPONENT, GL_FLOAT, 4, MS_DEPTH, false },
    { GL_DEPTH24_STENCIL8, GL_DEPTH_STENCIL, GL_UNSIGNED_INT_24_8, 4, MS_DEPTH_STENCIL, false },
    { GL_DEPTH32F_STENCIL8, GL_DEPTH_STENCIL, GL_FLOAT_32_UNSIGNED_INT_24_8_REV, 8, MS_DEPTH_STENCIL, false },
};

static const struct ms_format *find_format(unsigned ifmt)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].ifmt == ifmt)
            return &formats[i];
    return NULL;
}

bool glr_ms_transfer(unsigned ifmt, unsigned *format, unsigned *type, unsigned *bpp)
{
    const struct ms_format *f = find_format(ifmt);
    if (!f)
        return false;
    *format = f->format;
    *type = f->type;
    *bpp = f->bpp;
    return true;
}

uint64_t glr_ms_size(const struct glr_ms_image *img)
{
    const struct ms_format *f = find_format(img->internal_format);
    if (!f || img->width <= 0 || img->height <= 0 || img->samples <= 0 || img->layers <= 0)
        return 0;
    return (uint64_t)img->width * (uint64_t)img->height * f->bpp * (uint64_t)img->samples * (uint64_t)img->layers;
}

/* ---------------------------------------------------------------- shaders */

/* PASS_DEPTH_UINT writes a 24-bit depth given as an integer; PASS_DEPTH_SEARCH finds one bit of a
 * 24-bit depth with the depth test (see read_d24). */
enum ms_pass { PASS_COLOR, PASS_DEPTH, PASS_STENCIL_BIT, PASS_DEPTH_UINT, PASS_DEPTH_SEARCH };

static const char *vs_src =
    "#version 150\n"
    "void main() {\n"
    "    vec2 p = vec2(float((gl_VertexID & 1) * 4 - 1), float((gl_VertexID >> 1) * 4 - 1));\n"
    "    gl_Position = vec4(p, 0.0, 1.0);\n"
    "}\n";

/* A fragment shader that fetches texel `idx` (a sample of a sampler2DMS, or a layer of a
 * sampler2DArray) at the fragment's pixel and writes it as a colour, a depth, or (stencil pass)
 * keeps the fragment only where bit `bit` is set. */
static void fs_source(char *buf, size_t n, enum ms_pass pass, enum ms_class cls, bool from_ms)
{
    bool uint_src = pass == PASS_STENCIL_BIT || pass == PASS_DEPTH_UINT || pass == PASS_DEPTH_SEARCH;
    const char *pfx = uint_src || cls == MS_UINT ? "u" : cls == MS_INT ? "i" : "";
    const char *fetch = from_ms ? "texelFetch(src, ivec2(gl_FragCoord.xy), idx)"
                                : "texelFetch(src, ivec3(ivec2(gl_FragCoord.xy), idx), 0)";
    char body[256];
    if (pass == PASS_COLOR)
        snprintf(body, sizeof body, "out %svec4 o;\nvoid main() { o = %s; }\n", pfx, fetch);
    else if (pass == PASS_DEPTH)
        snprintf(body, sizeof body, "void main() { gl_FragDepth = %s.r; }\n", fetch);
    else if (pass == PASS_DEPTH_UINT)   /* float(d) / (2^24 - 1) converts back to d exactly */
        snprintf(body, sizeof body, "void main() { gl_FragDepth = float(%s.r) / 16777215.0; }\n", fetch);
    else if (pass == PASS_DEPTH_SEARCH)
        snprintf(body, sizeof body,
                 "uniform int bit;\nout uint o;\n"
                 "void main() { uint c = %s.r | (1u << uint(bit)); gl_FragDepth = float(c) / 16777215.0; o = c; }\n",
                 fetch);
    else
        snprintf(body, sizeof body, "uniform int bit;\nvoid main() { if (((%s.r >> uint(bit)) & 1u) == 0u) discard; }\n",
                 fetch);
    snprintf(buf, n, "#version 150\nuniform %ssampler%s src;\nuniform int idx;\n%s", pfx,
             from_ms ? "2DMS" : "2DArray", body);
}

static unsigned compile(const struct glr_ms_gl *gl, unsigned type, const char *src)
{
    unsigned sh = gl->glCreateShader(type);
    gl->glShaderSource(sh, 1, &src, NULL);
    gl->glCompileShader(sh);
    int ok = 0;
    gl->glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        gl->glDeleteShader(sh);
        return 0;
    }
    return sh;
}

/* A linked program for one kind of pass reading texture unit `unit`; 0 on failure. */
static unsigned make_program(const struct glr_ms_gl *gl, enum ms_pass pass, enum ms_class cls, bool from_ms, int unit)
{
    char fs[768];
    fs_source(fs, sizeof fs, pass, cls, from_ms);
    unsigned v = compile(gl, GL_VERTEX_SHADER, vs_src), f = v ? compile(gl, GL_FRAGMENT_SHADER, fs) : 0;
    if (!f) {
        if (v)
            gl->glDeleteShader(v);
        return 0;
    }
    unsigned p = gl->glCreateProgram();
    gl->glAttachShader(p, v);
    gl->glAttachShader(p, f);
    gl->glLinkProgram(p);
    gl->glDeleteShader(v);
    gl->glDeleteShader(f);
    int ok = 0;
    gl->glGetProgramiv(p, GL_LINK_STATUS, &ok);
    if (!ok) {
        gl->glDeleteProgram(p);
        return 0;
    }
    gl->glUseProgram(p);
    gl->glUniform1i(gl->glGetUniformLocation(p, "src"), unit);
    return p;
}

static void draw_pass(const struct glr_ms_gl *gl, unsigned prog, int idx, int bit)
{
    gl->glUseProgram(prog);
    gl->glUniform1i(gl->glGetUniformLocation(prog, "idx"), idx);
    if (bit >= 0)
        gl->glUniform1i(gl->glGetUniformLocation(prog, "bit"), bit);
    gl->glDrawArrays(GL_TRIANGLES, 0, 3);
}

/* ---------------------------------------------------------------- attachments */

static unsigned attachment_of(enum ms_class cls)
{
    return cls == MS_DEPTH_STENCIL ? GL_DEPTH_STENCIL_ATTACHMENT : cls == MS_DEPTH ? GL_DEPTH_ATTACHMENT
                                                                                   : GL_COLOR_ATTACHMENT0;
}

/* Attaches layer `layer` of the image to framebuffer target fb_target (bound). */
static void attach_image(const struct glr_ms_gl *gl, unsigned fb_target, unsigned att, const struct glr_ms_image *img,
                         int layer)
{
    if (img->target == GL_RENDERBUFFER)
        gl->glFramebufferRenderbuffer(fb_target, att, GL_RENDERBUFFER, img->name);
    else if (img->target == GL_TEXTURE_2D_MULTISAMPLE_ARRAY)
        gl->glFramebufferTextureLayer(fb_target, att, img->name, 0, layer);
    else
        gl->glFramebufferTexture2D(fb_target, att, GL_TEXTURE_2D_MULTISAMPLE, img->name, 0);
}

static void fb_buffers(const struct glr_ms_gl *gl, unsigned fb_target, enum ms_class cls)
{
    bool color = cls != MS_DEPTH && cls != MS_DEPTH_STENCIL;
    if (fb_target == GL_DRAW_FRAMEBUFFER)
        gl->glDrawBuffer(color ? GL_COLOR_ATTACHMENT0 : GL_NONE);
    else
        gl->glReadBuffer(color ? GL_COLOR_ATTACHMENT0 : GL_NONE);
}

/* A single-sample 2D array texture of `planes` layers in the image's format on texture unit `unit`
 * (left active), with `data` (or none). */
static unsigned make_array(const struct glr_ms_gl *gl, int unit, unsigned ifmt, const struct ms_format *f, int w, int h,
                           int planes, const void *data)
{
    unsigned tex = 0;
    gl->glActiveTexture(GL_TEXTURE0 + (unsigned)unit);
    gl->glGenTextures(1, &tex);
    gl->glBindTexture(GL_TEXTURE_2D_ARRAY, tex);
    gl->glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    gl->glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAX_LEVEL, 0);
    gl->glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, (int)ifmt, w, h, planes, 0, f->format, f->type, data);
    return tex;
}

static bool begin(struct ms_ctx *m, const struct glr_ms_image *img, const struct ms_format **f, char *why, size_t n)
{
    if (!glr_ms_complete(m->gl, why, n) || !glr_ms_version(m, why, n))
        return false;
    *f = find_format(img->internal_format);
    if (!*f) {
        glr_ms_why(why, n, "format 0x%04x is not handled", img->internal_format);
        return false;
    }
    if (img->width <= 0 || img->height <= 0 || img->samples <= 0 || img->samples > 32 || img->layers <= 0) {
        glr_ms_why(why, n, "size %dx%d, %d layers, %d samples is not a multisample image", img->width, img->height,
                img->layers, img->samples);
        return false;
    }
    int tf = 0, paused = 0;
    m->gl->glGetIntegerv(GL_TRANSFORM_FEEDBACK_ACTIVE, &tf);
    m->gl->glGetIntegerv(GL_TRANSFORM_FEEDBACK_PAUSED, &paused);
    if (tf && !paused) {
        glr_ms_why(why, n, "transform feedback is active: drawing would record into it");
        return false;
    }
    glr_ms_save(m);
    glr_ms_neutral(m, img->width, img->height);
    m->gl->glGenVertexArrays(1, &m->vao_made);
    m->gl->glBindVertexArray(m->vao_made);
    m->gl->glGenFramebuffers(2, m->fbo);
    return true;
}

static void end(struct ms_ctx *m)
{
    glr_ms_restore(m);
    m->gl->glDeleteFramebuffers(2, m->fbo);
    m->gl->glDeleteVertexArrays(1, &m->vao_made);
}

/* ---------------------------------------------------------------- read */

static bool is_d24(unsigned ifmt)
{
    return ifmt == GL_DEPTH24_STENCIL8 || ifmt == GL_DEPTH_COMPONENT24;
}

static const struct ms_format r32ui = { GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, 4, MS_UINT, false };

/* The exact 24-bit depth of every sample of ds_tex (the multisample copy of layer `layer`), into
 * layers layer*samples+s of the R32UI array darr. Sampling a 24-bit depth gives a float that does
 * not always tell neighbouring values apart (llvmpipe maps both 2^24-2 and 2^24-1 to 1.0), so the
 * depth test finds the value bit by bit instead: with the prefix p found so far (per sample, in
 * the R32UI multisample texture ping[i]), a fragment of depth c = p | bit passes LEQUAL exactly
 * where the bit is set, and writes c. float(c)/(2^24-1) converts back to c exactly. The caller's
 * framebuffers (read_fb, draw_fb) are bound again at the end. */
static void read_d24(const struct glr_ms_gl *gl, const struct glr_ms_image *img, unsigned ds_att, unsigned ds_tex,
                     unsigned darr, int layer, unsigned prog_search, unsigned prog_extract, const unsigned ping[2],
                     unsigned read_fb, unsigned draw_fb)
{
    unsigned fb[2];
    static const unsigned zero[4] = { 0, 0, 0, 0 };
    gl->glGenFramebuffers(2, fb);
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, fb[0]);
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, fb[1]);
    gl->glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, ping[0], 0);
    gl->glClearBufferuiv(GL_COLOR, 0, zero);
    gl->glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, ds_att, GL_TEXTURE_2D_MULTISAMPLE, ds_tex, 0);
    gl->glActiveTexture(GL_TEXTURE1);
    int i = 0;
    for (int b = 23; b >= 0; b--, i ^= 1) {
        unsigned src = ping[i], dst = ping[i ^ 1];
        gl->glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, src, 0);
        gl->glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, dst, 0);
        gl->glBlitFramebuffer(0, 0, img->width, img->height, 0, 0, img->width, img->height, GL_COLOR_BUFFER_BIT,
                              GL_NEAREST);
        gl->glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, src);
        gl->glEnable(GL_DEPTH_TEST);
        gl->glDepthFunc(GL_LEQUAL);
        gl->glDepthMask(0);
        gl->glEnable(GL_SAMPLE_MASK);
        for (int s = 0; s < img->samples; s++) {
            gl->glSampleMaski(0, 1u << s);
            draw_pass(gl, prog_search, s, b);
        }
    }
    gl->glDisable(GL_DEPTH_TEST);
    gl->glDepthFunc(GL_ALWAYS);
    gl->glDepthMask(1);
    gl->glDisable(GL_SAMPLE_MASK);
    gl->glSampleMaski(0, 0xFFFFFFFFu);
    gl->glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ping[i]);
    gl->glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, ds_att, GL_TEXTURE_2D_MULTISAMPLE, 0, 0);
    for (int s = 0; s < img->samples; s++) {
        gl->glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, darr, 0, layer * img->samples + s);
        draw_pass(gl, prog_extract, s, -1);
    }
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fb);
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, draw_fb);
    gl->glDeleteFramebuffers(2, fb);
    gl->glActiveTexture(GL_TEXTURE0);
}

int glr_ms_read(const struct glr_ms_gl *gl, const struct glr_ms_image *img, void *out, bool *stencil_kept, char *why,
                size_t n)
{
    struct ms_ctx m = { .gl = gl };
    const struct ms_format *f;
    *stencil_kept = true;
    if (!begin(&m, img, &f, why, n))
        return -1;
    bool has_stencil = f->cls == MS_DEPTH_STENCIL;
    bool read_stencil = has_stencil && m.stencil_tex;
    *stencil_kept = !has_stencil || read_stencil;
    int planes = img->samples * img->layers, rc = -1;
    unsigned att = attachment_of(f->cls);
    /* Unit 0: the temporary multisample copy of one layer; unit 1: the planes. */
    unsigned ms_tex = 0, arr, prog = 0, prog_st = 0, ping[2] = { 0, 0 }, darr = 0, prog_search = 0, prog_extract = 0;
    uint32_t *dv = NULL;
    gl->glActiveTexture(GL_TEXTURE0);
    gl->glGenTextures(1, &ms_tex);
    gl->glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ms_tex);
    gl->glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, img->samples, img->internal_format, img->width, img->height,
                                1);
    int got_samples = 0;
    gl->glGetTexLevelParameteriv(GL_TEXTURE_2D_MULTISAMPLE, 0, GL_TEXTURE_SAMPLES, &got_samples);
    arr = make_array(gl, 1, img->internal_format, f, img->width, img->height, planes, NULL);
    if (got_samples != img->samples) {
        glr_ms_why(why, n, "a %d-sample copy got %d samples", img->samples, got_samples);
        goto out;
    }
    bool depth = f->cls == MS_DEPTH || f->cls == MS_DEPTH_STENCIL;
    bool d24 = is_d24(img->internal_format);
    if (d24) {
        /* 24-bit depth: found with the depth test (read_d24) into R32UI planes. */
        for (int k = 0; k < 2; k++) {
            gl->glActiveTexture(GL_TEXTURE1);
            gl->glGenTextures(1, &ping[k]);
            gl->glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, ping[k]);
            gl->glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, img->samples, GL_R32UI, img->width, img->height,
                                        1);
        }
        darr = make_array(gl, 1, GL_R32UI, &r32ui, img->width, img->height, planes, NULL);
        prog_search = make_program(gl, PASS_DEPTH_SEARCH, MS_UINT, true, 1);
        prog_extract = make_program(gl, PASS_COLOR, MS_UINT, true, 1);
        if (!prog_search || !prog_extract) {
            glr_ms_why(why, n, "the depth-search shader did not compile or link");
            goto out;
        }
    }
    prog = make_program(gl, depth ? PASS_DEPTH : PASS_COLOR, f->cls, true, 0);
    if (read_stencil)
        prog_st = make_program(gl, PASS_STENCIL_BIT, f->cls, true, 0);
    if (!prog || (read_stencil && !prog_st)) {
        glr_ms_why(why, n, "the sample-fetch shader did not compile or link");
        goto out;
    }
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, m.fbo[0]);
    fb_buffers(gl, GL_READ_FRAMEBUFFER, f->cls);
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m.fbo[1]);
    fb_buffers(gl, GL_DRAW_FRAMEBUFFER, f->cls);
    if (f->srgb)
        gl->glEnable(GL_FRAMEBUFFER_SRGB);   /* decoded by the fetch, encoded again by the write */
    unsigned blit_mask = f->cls == MS_DEPTH_STENCIL ? (GL_DEPTH_BUFFER_BIT | GL_STENCIL_BUFFER_BIT)
                       : f->cls == MS_DEPTH         ? GL_DEPTH_BUFFER_BIT
                                                    : GL_COLOR_BUFFER_BIT;
    for (int l = 0; l < img->layers; l++) {
        /* The layer's samples, copied as they are into the texture the shader can fetch from. */
        attach_image(gl, GL_READ_FRAMEBUFFER, att, img, l);
        gl->glFramebufferTexture2D(GL_DRAW_FRAMEBUFFER, att, GL_TEXTURE_2D_MULTISAMPLE, ms_tex, 0);
        if (gl->glCheckFramebufferStatus(GL_READ_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE ||
            gl->glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            glr_ms_why(why, n, "the image or its copy is not a complete framebuffer");
            goto out;
        }
        if (f->srgb)
            gl->glDisable(GL_FRAMEBUFFER_SRGB);
        gl->glBlitFramebuffer(0, 0, img->width, img->height, 0, 0, img->width, img->height, blit_mask, GL_NEAREST);
        if (f->srgb)
            gl->glEnable(GL_FRAMEBUFFER_SRGB);
        if (depth)
            gl->glEnable(GL_DEPTH_TEST);
        for (int s = 0; s < img->samples; s++) {
            gl->glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, att, arr, 0, l * img->samples + s);
            if (gl->glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
                glr_ms_why(why, n, "a layer of the single-sample copy is not a complete framebuffer");
                goto out;
            }
            if (!d24)
                draw_pass(gl, prog, s, -1);
        }
        gl->glDisable(GL_DEPTH_TEST);
        if (d24)
            read_d24(gl, img, att, ms_tex, darr, l, prog_search, prog_extract, ping, m.fbo[0], m.fbo[1]);
        if (read_stencil) {
            /* Stencil through stencil texturing, one pass per bit: bit b set where the sample has it. */
            gl->glActiveTexture(GL_TEXTURE0);
            gl->glTexParameteri(GL_TEXTURE_2D_MULTISAMPLE, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_STENCIL_INDEX);
            gl->glEnable(GL_STENCIL_TEST);
            for (int s = 0; s < img->samples; s++) {
                gl->glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, att, arr, 0, l * img->samples + s);
                static const int zero = 0;
                gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 0xFFu);
                gl->glClearBufferiv(GL_STENCIL, 0, &zero);
                for (int b = 0; b < 8; b++) {
                    gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 1u << b);
                    draw_pass(gl, prog_st, s, b);
                }
            }
            gl->glDisable(GL_STENCIL_TEST);
            /* Depth again for the next layer's copy (the mode is a property of the texture). */
            gl->glTexParameteri(GL_TEXTURE_2D_MULTISAMPLE, GL_DEPTH_STENCIL_TEXTURE_MODE, GL_DEPTH_COMPONENT);
        } else if (has_stencil) {
            for (int s = 0; s < img->samples; s++) {
                static const int zero = 0;
                gl->glFramebufferTextureLayer(GL_DRAW_FRAMEBUFFER, att, arr, 0, l * img->samples + s);
                gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 0xFFu);
                gl->glClearBufferiv(GL_STENCIL, 0, &zero);
            }
        }
    }
    gl->glActiveTexture(GL_TEXTURE1);
    gl->glBindTexture(GL_TEXTURE_2D_ARRAY, arr);
    gl->glGetTexImage(GL_TEXTURE_2D_ARRAY, 0, f->format, f->type, out);
    if (d24) {
        /* The depth found by read_d24 in the top 24 bits, the stencil byte (if any) kept. */
        uint64_t px = (uint64_t)img->width * (uint64_t)img->height * (uint64_t)planes;
        dv = malloc((size_t)px * 4);
        if (!dv) {
            glr_ms_why(why, n, "out of memory");
            goto out;
        }
        gl->glBindTexture(GL_TEXTURE_2D_ARRAY, darr);
        gl->glGetTexImage(GL_TEXTURE_2D_ARRAY, 0, GL_RED_INTEGER, GL_UNSIGNED_INT, dv);
        uint8_t *o = out;
        for (uint64_t i = 0; i < px; i++) {
            uint32_t v;
            memcpy(&v, o + i * 4, 4);
            v = (dv[i] << 8) | (has_stencil ? (v & 0xFFu) : 0u);
            memcpy(o + i * 4, &v, 4);
        }
    }
    rc = 0;
out:
    free(dv);
    for (int k = 0; k < 2; k++)
        if (ping[k])
            gl->glDeleteTextures(1, &ping[k]);
    if (darr)
        gl->glDeleteTextures(1, &darr);
    if (prog_search)
        gl->glDeleteProgram(prog_search);
    if (prog_extract)
        gl->glDeleteProgram(prog_extract);
    if (prog)
        gl->glDeleteProgram(prog);
    if (prog_st)
        gl->glDeleteProgram(prog_st);
    gl->glDeleteTextures(1, &ms_tex);
    gl->glDeleteTextures(1, &arr);
    end(&m);
    return rc;
}

/* ---------------------------------------------------------------- write */

/* The stencil byte of every packed depth/stencil pixel, as R8UI planes (so writing needs no stencil
 * texturing). */
static uint8_t *stencil_planes(const struct ms_format *f, const void *data, uint64_t px)
{
    uint8_t *st = malloc(px ? px : 1);
    if (!st)
        return NULL;
    const uint8_t *p = data;
    for (uint64_t i = 0; i < px; i++) {
        uint32_t v;
        if (f->type == GL_UNSIGNED_INT_24_8) {
            memcpy(&v, p + i * 4, 4);
        } else {
            memcpy(&v, p + i * 8 + 4, 4);   /* FLOAT_32_UNSIGNED_INT_24_8_REV: float, then 24 unused | 8 */
        }
        st[i] = (uint8_t)(v & 0xFFu);
    }
    return st;
}

int glr_ms_write(const struct glr_ms_gl *gl, const struct glr_ms_image *img, const void *data, char *why, size_t n)
{
    struct ms_ctx m = { .gl = gl };
    const struct ms_format *f;
    if (!begin(&m, img, &f, why, n))
        return -1;
    bool depth = f->cls == MS_DEPTH || f->cls == MS_DEPTH_STENCIL, has_stencil = f->cls == MS_DEPTH_STENCIL;
    int planes = img->samples * img->layers, rc = -1;
    unsigned att = attachment_of(f->cls);
    unsigned arr = 0, st_arr = 0, prog = 0, prog_st = 0;
    uint8_t *st = NULL;
    uint32_t *dv = NULL;
    bool d24 = is_d24(img->internal_format);
    if (d24) {
        /* 24-bit depth as integers (the top 24 bits of each pixel), written exactly by PASS_DEPTH_UINT. */
        uint64_t px = (uint64_t)img->width * (uint64_t)img->height * (uint64_t)planes;
        dv = malloc((size_t)px * 4);
        if (!dv) {
            glr_ms_why(why, n, "out of memory");
            goto out;
        }
        for (uint64_t i = 0; i < px; i++) {
            memcpy(&dv[i], (const uint8_t *)data + i * 4, 4);
            dv[i] >>= 8;
        }
        arr = make_array(gl, 1, GL_R32UI, &r32ui, img->width, img->height, planes, dv);
    } else {
        arr = make_array(gl, 1, img->internal_format, f, img->width, img->height, planes, data);
    }
    if (has_stencil) {
        static const struct ms_format r8ui = { GL_R8UI, GL_RED_INTEGER, GL_UNSIGNED_BYTE, 1, MS_UINT, false };
        st = stencil_planes(f, data, (uint64_t)img->width * (uint64_t)img->height * (uint64_t)planes);
        if (!st) {
            glr_ms_why(why, n, "out of memory");
            goto out;
        }
        st_arr = make_array(gl, 0, GL_R8UI, &r8ui, img->width, img->height, planes, st);
        prog_st = make_program(gl, PASS_STENCIL_BIT, MS_UINT, false, 0);
    }
    prog = make_program(gl, d24 ? PASS_DEPTH_UINT : depth ? PASS_DEPTH : PASS_COLOR, d24 ? MS_UINT : f->cls, false, 1);
    if (!prog || (has_stencil && !prog_st)) {
        glr_ms_why(why, n, "the sample-write shader did not compile or link");
        goto out;
    }
    gl->glBindFramebuffer(GL_DRAW_FRAMEBUFFER, m.fbo[1]);
    fb_buffers(gl, GL_DRAW_FRAMEBUFFER, f->cls);
    gl->glEnable(GL_SAMPLE_MASK);
    if (f->srgb)
        gl->glEnable(GL_FRAMEBUFFER_SRGB);
    for (int l = 0; l < img->layers; l++) {
        attach_image(gl, GL_DRAW_FRAMEBUFFER, att, img, l);
        if (gl->glCheckFramebufferStatus(GL_DRAW_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
            glr_ms_why(why, n, "the image is not a complete framebuffer");
            goto out;
        }
        /* One pass per sample: the sample mask lets the pixel's value reach that sample only. */
        if (depth)
            gl->glEnable(GL_DEPTH_TEST);
        for (int s = 0; s < img->samples; s++) {
            gl->glSampleMaski(0, 1u << s);
            draw_pass(gl, prog, l * img->samples + s, -1);
        }
        gl->glDisable(GL_DEPTH_TEST);
        if (has_stencil) {
            static const int zero = 0;
            gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 0xFFu);
            gl->glSampleMaski(0, 0xFFFFFFFFu);
            gl->glClearBufferiv(GL_STENCIL, 0, &zero);
            gl->glEnable(GL_STENCIL_TEST);
            for (int s = 0; s < img->samples; s++) {
                gl->glSampleMaski(0, 1u << s);
                for (int b = 0; b < 8; b++) {
                    gl->glStencilMaskSeparate(GL_FRONT_AND_BACK, 1u << b);
                    draw_pass(gl, prog_st, l * img->samples + s, b);
                }
            }
            gl->glDisable(GL_STENCIL_TEST);
        }
    }
    rc = 0;
out:
    free(st);
    free(dv);
    if (prog)
        gl->glDeleteProgram(prog);
    if (prog_st)
        gl->glDeleteProgram(prog_st);
    gl->glDeleteTextures(1, &arr);
    if (st_arr)
        gl->glDeleteTextures(1, &st_arr);
    end(&m);
    return rc;
}
