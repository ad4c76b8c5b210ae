/* e2e_aniso_llvmpipe.c - anisotropic filtering (GL_TEXTURE_MAX_ANISOTROPY) of the model's
 * texture units against the real llvmpipe (EGL surfaceless, GL 3.3 core + the anisotropic
 * extension), into an RGBA32F target so results compare as exact floats: random 2D and
 * 2D-array RGBA8 textures (power of two and not, full mip chains), max anisotropy 1.5 (off
 * in llvmpipe), 2, 4, 8 and 16, every min filter, LINEAR / NEAREST mag, REPEAT and
 * CLAMP_TO_EDGE, LOD bias and max LOD, texture() and texture(bias), with coordinates
 * stretched far more along one axis than the other (p * sc, p * p * sc) so the footprint
 * is a long ellipse. Coordinates are single float products of gl_FragCoord, so the model
 * computes bit-identical ones. Then 20 cases of 3D textures (8 slices, mipmapped in depth
 * too, r varying along y), which llvmpipe filters with the same elliptical filter in s and t at
 * the nearest r. Exit 77 (skip) when no EGL/llvmpipe is available.
 * GM_ANISO_E2E_VERBOSE=1 prints every case. GM_ANISO_E2E_1D=1 runs those cases on 1D textures
 * instead: llvmpipe (Mesa 22.3, LLVM 15) crashes compiling an anisotropic 1D sampler (in
 * LLVMBuildShuffleVector), which is why the model reports 1D anisotropy rather than model it. */
#include "gm_pipeline.h"
#include "gm_sampler_iface.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 64
#define NCASES 48
#define NCASES_3D 20

static const char *vs_src =
    "#version 330 core\n"
    "layout(location=0) in vec2 p;\n"
    "void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
static const char *fs_src[4] = {
    "#version 330 core\nuniform sampler2D t;\n"
    "uniform vec2 sc; uniform int mode; uniform float bias, layer; out vec4 o;\n"
    "void main() {\n"
    "  vec2 p = gl_FragCoord.xy;\n"
    "  vec2 uv = mode >= 10 ? (p * p) * sc : p * sc;\n"
    "  o = mode % 10 == 1 ? texture(t, uv, bias) : texture(t, uv);\n"
    "}\n",
    "#version 330 core\nuniform sampler2DArray t;\n"
    "uniform vec2 sc; uniform int mode; uniform float bias, layer; out vec4 o;\n"
    "void main() {\n"
    "  vec2 p = gl_FragCoord.xy;\n"
    "  vec2 uv = mode >= 10 ? (p * p) * sc : p * sc;\n"
    "  o = mode % 10 == 1 ? texture(t, vec3(uv, layer), bias) : texture(t, vec3(uv, layer));\n"
    "}\n",
    "#version 330 core\nuniform sampler1D t;\n"
    "uniform vec2 sc; uniform int mode; uniform float bias, layer; out vec4 o;\n"
    "void main() {\n"
    "  vec2 p = gl_FragCoord.xy;\n"
    "  vec2 uv = mode >= 10 ? (p * p) * sc : p * sc;\n"
    "  o = mode % 10 == 1 ? texture(t, uv.x, bias) : texture(t, uv.x);\n"
    "}\n",
    "#version 330 core\nuniform sampler3D t;\n"
    "uniform vec2 sc; uniform int mode; uniform float bias, layer; out vec4 o;\n"
    "void main() {\n"
    "  vec2 p = gl_FragCoord.xy;\n"
    "  vec2 uv = mode >= 10 ? (p * p) * sc : p * sc;\n"
    "  float r = layer + uv.y * 0.25;\n"
    "  o = mode % 10 == 1 ? texture(t, vec3(uv, r), bias) : texture(t, vec3(uv, r));\n"
    "}\n",
};

static const uint32_t min_filters[6] = {
    GL_NEAREST, GL_LINEAR, GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST,
    GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR};
static const float anisos[5] = {1.5f, 2.0f, 4.0f, 8.0f, 16.0f};

typedef struct acase {
    int array, npot, mode;
    int dim1;   /* a 1D texture (array 0) */
    int dim3;   /* a 3D texture (array 0); layer is then the r coordinate */
    uint32_t min_f, mag_f, wrap_s, wrap_t;
    float aniso, bias_s, max_lod, sc[2], bias, layer;
} acase;

static void random_case(unsigned *seed, int i, acase *c)
{
    memset(c, 0, sizeof(*c));
    c->array = i % 4 == 3;
    c->npot = i % 3 == 2;
    c->aniso = anisos[i % 5];
    c->min_f = i % 2 ? min_filters[gm_test_rand(seed) % 6] : GL_LINEAR_MIPMAP_LINEAR;
    c->mag_f = i % 2 && gm_test_rand(seed) % 2 ? GL_NEAREST : GL_LINEAR;
    /* llvmpipe (Mesa 22.3, LLVM 15) crashes compiling an anisotropic sampler whose min
     * filter has no mip filter: not tested */
    if (c->aniso >= 2.0f && (c->min_f == GL_NEAREST || c->min_f == GL_LINEAR))
        c->min_f = c->min_f == GL_NEAREST ? GL_NEAREST_MIPMAP_NEAREST
                                             : GL_LINEAR_MIPMAP_NEAREST;
    c->wrap_s = gm_test_rand(seed) % 3 ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    c->wrap_t = gm_test_rand(seed) % 3 ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    unsigned r = gm_test_rand(seed) % 6;
    c->bias_s = r == 0 ? gm_test_randf(seed, -1.0f, 1.0f) : 0.0f;
    c->max_lod = r == 1 ? gm_test_randf(seed, 0.5f, 3.0f) : 1000.0f;
    c->mode = (gm_test_rand(seed) % 4 == 0 ? 1 : 0) + (gm_test_rand(seed) % 2 ? 10 : 0);
    float size = c->npot ? 40.0f : 64.0f;
    /* one axis stretched: 1 to 16 times the other, either way round */
    int major = (int)(gm_test_rand(seed) % 2);
    float base = gm_test_randf(seed, 0.2f, 2.0f) / size;
    float ratio = gm_test_randf(seed, 1.0f, 16.0f);
    c->sc[major] = base * ratio * (gm_test_rand(seed) % 4 == 0 ? -1.0f : 1.0f);
    c->sc[1 - major] = base;
    if (c->mode >= 10) {
        c->sc[0] /= 64.0f;
        c->sc[1] /= 64.0f;
    }
    c->bias = gm_test_randf(seed, -1.5f, 1.5f);
    c->layer = (float)(gm_test_rand(seed) % 3);
}

typedef struct tex_data {
    int w[8], h[8], levels, layers;
    uint8_t *px[8];
} tex_data;

static void make_texture(unsigned *seed, const acase *c, tex_data *t)
{
    int w = c->npot ? 40 : 64, h = c->dim1 ? 1 : c->npot ? 24 : 32;
    t->layers = c->array ? 3 : c->dim3 ? 8 : 1;
    t->levels = 0;
    for (int l = 0; l < 8; l++) {
        t->w[l] = w;
        t->h[l] = h;
        int dd = c->dim3 ? (8 >> l > 0 ? 8 >> l : 1) : t->layers;
        size_t n = (size_t)w * h * dd * 4;
        t->px[l] = malloc(n);
        for (size_t i = 0; i < n; i++)
            t->px[l][i] = (uint8_t)(gm_test_rand(seed) >> 7);
        t->levels++;
        if (w == 1 && h == 1 && (!c->dim3 || dd == 1)) break;
        w = w > 1 ? w / 2 : 1;
        h = h > 1 ? h / 2 : 1;
    }
}

static void coord_of(const acase *c, int x, int y, float P[3])
{
    float p[2] = {(float)x + 0.5f, (float)y + 0.5f};
    for (int k = 0; k < 2; k++)
        P[k] = c->mode >= 10 ? (p[k] * p[k]) * c->sc[k] : p[k] * c->sc[k];
    P[2] = c->dim3 ? c->layer + P[1] * 0.25f : c->layer;   /* 3D: r varies along y */
}

/* The model's texel for pixel (x, y): its 2x2 quad in lanes 0-3 with the coarse
 * derivatives, as the executor builds fragment-stage requests. */
static void model_pixel(const acase *c, gm_tex_units *units, int x, int y, float outf[4])
{
    static gm_sample_request req;
    static gm_texel_out out;
    memset(&req, 0, sizeof(req));
    req.op = GM_TEX_SAMPLE;
    int lane = (x & 1) + 2 * (y & 1);
    req.mask = 1u << lane;
    req.dim = c->dim1 ? GM_DIM_1D : c->dim3 ? GM_DIM_3D : GM_DIM_2D;
    req.arrayed = c->array;
    req.coord_count = c->dim1 ? 1 : c->array || c->dim3 ? 3 : 2;
    float q[4][3];
    for (int i = 0; i < 4; i++)
        coord_of(c, (x & ~1) + (i & 1), (y & ~1) + (i >> 1), q[i]);
    for (int l = 0; l < 4; l++) {
        for (int k = 0; k < req.coord_count; k++)
            req.coord.f[k][l] = q[l][k];
        for (int k = 0; k < (c->dim1 ? 1 : c->dim3 ? 3 : 2); k++) {
            req.ddx[k][l] = q[1][k] - q[0][k];
            req.ddy[k][l] = q[2][k] - q[0][k];
        }
        req.bias[l] = c->bias;
    }
    req.has_grad = 1;
    req.has_bias = c->mode % 10 == 1;
    gm_tex_sample_fn(units, &req, &out);
    for (int k = 0; k < 4; k++)
        outf[k] = out.f[k][lane];
}

static void upload(const acase *c, const tex_data *td, gm_tex_image *img)
{
    GLenum tgt = c->dim1 ? GL_TEXTURE_1D : c->dim3 ? GL_TEXTURE_3D : c->array ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
    memset(img, 0, sizeof(*img));
    img->target = c->dim1 ? GM_TEX_1D : c->dim3 ? GM_TEX_3D : c->array ? GM_TEX_2D_ARRAY : GM_TEX_2D;
    img->format = GM_FMT_RGBA8;
    img->num_levels = td->levels;
    img->base_level = 0;
    img->max_level = 1000;
    for (int l = 0; l < td->levels; l++) {
        int w = td->w[l], h = td->h[l], d = c->dim3 ? (8 >> l > 0 ? 8 >> l : 1) : td->layers;
        gm_surface_alloc(&img->level[l], img->format, w, h, d, 1);
        for (int z = 0; z < d; z++)
            for (int y = 0; y < h; y++)
                for (int x = 0; x < w; x++)
                    memcpy(gm_surface_texel(&img->level[l], x, y, z),
                           td->px[l] + (((size_t)z * h + y) * w + x) * 4, 4);
        if (c->dim1)
            glTexImage1D(tgt, l, GL_RGBA8, w, 0, GL_RGBA, GL_UNSIGNED_BYTE, td->px[l]);
        else if (c->array || c->dim3)
            glTexImage3D(tgt, l, GL_RGBA8, w, h, d, 0, GL_RGBA, GL_UNSIGNED_BYTE, td->px[l]);
        else
            glTexImage2D(tgt, l, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, td->px[l]);
    }
}

typedef struct stats { long px, exact, within1; } stats;

static void run_case(unsigned *seed, int i, const GLuint *progs, stats *on, stats *off, int dims)
{
    acase c;
    random_case(seed, i, &c);
    if (dims != 2) {
        c.dim1 = dims == 1;
        c.dim3 = dims == 3;
        c.array = 0;
        c.layer = (c.layer + 0.5f) / 3.0f;   /* r inside the texture */
    }
    tex_data td;
    make_texture(seed, &c, &td);
    GLenum tgt = c.dim1 ? GL_TEXTURE_1D : c.dim3 ? GL_TEXTURE_3D : c.array ? GL_TEXTURE_2D_ARRAY : GL_TEXTURE_2D;
    GLuint prog = progs[c.dim1 ? 2 : c.dim3 ? 3 : c.array];
    glUseProgram(prog);
    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(tgt, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    gm_tex_image img;
    upload(&c, &td, &img);
    glTexParameteri(tgt, GL_TEXTURE_MIN_FILTER, (GLint)c.min_f);
    glTexParameteri(tgt, GL_TEXTURE_MAG_FILTER, (GLint)c.mag_f);
    glTexParameteri(tgt, GL_TEXTURE_WRAP_S, (GLint)c.wrap_s);
    glTexParameteri(tgt, GL_TEXTURE_WRAP_T, (GLint)c.wrap_t);
    glTexParameterf(tgt, GL_TEXTURE_LOD_BIAS, c.bias_s);
    glTexParameterf(tgt, GL_TEXTURE_MAX_LOD, c.max_lod);
    glTexParameterf(tgt, GL_TEXTURE_MAX_ANISOTROPY_EXT, c.aniso);
    glUniform1i(glGetUniformLocation(prog, "t"), 0);
    glUniform1i(glGetUniformLocation(prog, "mode"), c.mode);
    glUniform2fv(glGetUniformLocation(prog, "sc"), 1, c.sc);
    glUniform1f(glGetUniformLocation(prog, "bias"), c.bias);
    glUniform1f(glGetUniformLocation(prog, "layer"), c.layer);
    if (getenv("GM_ANISO_E2E_VERBOSE"))
        printf("case %2d: drawing: %s %s aniso %.1f min %04x mag %04x wrap %04x/%04x mode %d\n",
               i, c.array ? "array" : "2D", c.npot ? "npot" : "pot", c.aniso, c.min_f, c.mag_f,
               c.wrap_s, c.wrap_t, c.mode);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    static float drv[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, drv);
    glDeleteTextures(1, &tex);

    gm_tex_sampler smp;
    gm_tex_sampler_default(&smp);
    smp.min_filter = c.min_f;
    smp.mag_filter = c.mag_f;
    smp.wrap_s = c.wrap_s;
    smp.wrap_t = c.wrap_t;
    smp.lod_bias = c.bias_s;
    smp.max_lod = c.max_lod;
    smp.max_anisotropy = c.aniso;
    gm_tex_units units;
    memset(&units, 0, sizeof(units));
    units.unit[0].image = &img;
    units.unit[0].sampler = &smp;
    stats cs = {0, 0, 0};
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float mf[4];
            model_pixel(&c, &units, x, y, mf);
            const float *d = drv + ((size_t)y * W + x) * 4;
            float diff = 0.0f;
            for (int k = 0; k < 4; k++) {
                float e = fabsf(mf[k] - d[k]);
                if (!(e <= diff)) diff = e;   /* NaN counts as a difference */
            }
            if (diff != 0.0f && getenv("GM_ANISO_E2E_PIXELS"))
                printf("  case %d (%d,%d): model %.9g %.9g %.9g %.9g driver %.9g %.9g %.9g "
                       "%.9g\n", i, x, y, mf[0], mf[1], mf[2], mf[3], d[0], d[1], d[2], d[3]);
            cs.px++;
            cs.exact += diff == 0.0f;
            cs.within1 += diff <= 1.0f / 255.0f + 1e-6f;
        }
    if (cs.exact != cs.px || getenv("GM_ANISO_E2E_VERBOSE"))
        printf("case %2d: %s %s aniso %4.1f min %04x mag %04x wrap %04x/%04x bias %.3f maxlod "
               "%.2f mode %2d sc %.5f %.5f: exact %.2f%%, within 1/255 %.2f%%\n", i,
               c.dim1 ? "1D      " : c.dim3 ? "3D      " : c.array ? "2D array" : "2D      ", c.npot ? "npot" : "pot ", c.aniso, c.min_f,
               c.mag_f, c.wrap_s, c.wrap_t, c.bias_s, c.max_lod, c.mode, c.sc[0], c.sc[1],
               100.0 * cs.exact / cs.px, 100.0 * cs.within1 / cs.px);
    stats *s = c.aniso >= 2.0f ? on : off;
    s->px += cs.px;
    s->exact += cs.exact;
    s->within1 += cs.within1;
    for (int l = 0; l < td.levels; l++) {
        free(td.px[l]);
        gm_surface_free(&img.level[l]);
    }
}

static void report(const char *name, const stats *s)
{
    printf("%-22s: %7ld px, exact %.4f%%, within 1/255 %.4f%%\n", name, s->px,
           s->px ? 100.0 * s->exact / s->px : 100.0, s->px ? 100.0 * s->within1 / s->px : 100.0);
}

static double share(long part, long whole) { return whole ? (double)part / (double)whole : 1.0; }

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY,
                                              NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "no EGL surfaceless display: skipping\n");
        return 77;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                        EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx)) {
        fprintf(stderr, "cannot create a GL 3.3 context: skipping\n");
        return 77;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("driver: %s\n", renderer ? renderer : "?");
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    if (!epoxy_has_gl_extension("GL_EXT_texture_filter_anisotropic") &&
        !epoxy_has_gl_extension("GL_ARB_texture_filter_anisotropic")) {
        fprintf(stderr, "no anisotropic filtering extension: skipping\n");
        return 77;
    }
    GLuint fbo, rb;
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA32F, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "FBO incomplete\n");
        return 1;
    }
    glViewport(0, 0, W, H);
    GLuint vs = glCreateShader(GL_VERTEX_SHADER);
    glShaderSource(vs, 1, &vs_src, NULL);
    glCompileShader(vs);
    GLuint progs[4];
    for (int t = 0; t < 4; t++) {
        GLuint fs = glCreateShader(GL_FRAGMENT_SHADER);
        glShaderSource(fs, 1, &fs_src[t], NULL);
        glCompileShader(fs);
        progs[t] = glCreateProgram();
        glAttachShader(progs[t], vs);
        glAttachShader(progs[t], fs);
        glLinkProgram(progs[t]);
        GLint ok = 0;
        glGetProgramiv(progs[t], GL_LINK_STATUS, &ok);
        if (!ok) {
            fprintf(stderr, "program %d does not link\n", t);
            return 1;
        }
    }
    static const float quad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    setvbuf(stdout, NULL, _IOLBF, 0);
    unsigned seed = 0xa1150u;
    stats on = {0, 0, 0}, off = {0, 0, 0};
    for (int i = 0; i < NCASES; i++)
        run_case(&seed, i, progs, &on, &off, 2);
    report("anisotropic (2..16)", &on);
    report("max anisotropy 1.5", &off);
    stats on3 = {0, 0, 0}, off3 = {0, 0, 0};
    for (int i = 0; i < NCASES_3D; i++)
        run_case(&seed, i, progs, &on3, &off3, getenv("GM_ANISO_E2E_1D") ? 1 : 3);
    report("3D anisotropic", &on3);
    report("3D max anisotropy 1.5", &off3);
    CHECK(on.px > 0 && off.px > 0);
    /* the elliptical filter is followed operation for operation: exact floats */
    CHECK(share(on.exact, on.px) >= 0.999);
    CHECK(share(on.within1, on.px) >= 0.9999);
    CHECK(share(off.exact, off.px) >= 0.998);
    CHECK(on3.px > 0 && share(on3.exact, on3.px) >= 0.999 && share(off3.exact, off3.px) >= 0.998);
    TEST_DONE();
}
