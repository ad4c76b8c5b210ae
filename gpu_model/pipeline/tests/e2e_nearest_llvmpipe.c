/* e2e_nearest_llvmpipe.c - GL_NEAREST (and GL_LINEAR) sampling at and next to texel
 * boundaries, with the real llvmpipe (EGL surfaceless, GL 3.3 compatibility so GL_CLAMP
 * is accepted) and with the model's texture units, pixel by pixel into an RGBA32F target. Textures of odd
 * (non-power-of-two) and power-of-two sizes, RGBA8 (llvmpipe's 8-bit path for REPEAT /
 * CLAMP_TO_EDGE) and RGBA16F (its float path for every wrap), every wrap mode the driver
 * accepts, with and without a texel offset. Each pixel's coordinate comes exactly from an
 * RGBA32F texture (texelFetch), so both sides sample the very same floats: k / size + m,
 * one ulp either side of it, texel centres, tiny perturbations and large repeat counts.
 * Nearest filtering has no rounding freedom: every pixel must agree exactly; the linear
 * filter (llvmpipe's weights and lerps) is held to the same bar.
 * GM_NEAREST_E2E_VERBOSE=1 prints the differing pixels.
 * Exit 77 (skip) when no EGL/llvmpipe is available. */
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
#define NWRAPS 8
#define NSIZES 5

static const char *vs_src =
    "#version 330 core\n"
    "layout(location=0) in vec2 p;\n"
    "void main() { gl_Position = vec4(p, 0.0, 1.0); }\n";
static const char *fs_src =
    "#version 330 core\n"
    "uniform sampler2D t, ct; uniform int off; out vec4 o;\n"
    "void main() {\n"
    "  vec2 P = texelFetch(ct, ivec2(gl_FragCoord.xy), 0).xy;\n"
    "  o = off != 0 ? textureLodOffset(t, P, 0.0, ivec2(1, -2)) : textureLod(t, P, 0.0);\n"
    "}\n";

static const uint32_t wraps[NWRAPS] = {
    GL_REPEAT, GL_MIRRORED_REPEAT, GL_CLAMP_TO_EDGE, GL_CLAMP_TO_BORDER,
    GL_CLAMP, GL_MIRROR_CLAMP_TO_EDGE, GL_MIRROR_CLAMP_EXT,
    GL_MIRROR_CLAMP_TO_BORDER_EXT};
static const char *wrap_names[NWRAPS] = {
    "REPEAT", "MIRRORED_REPEAT", "CLAMP_TO_EDGE", "CLAMP_TO_BORDER", "CLAMP",
    "MIRROR_CLAMP_TO_EDGE", "MIRROR_CLAMP_EXT", "MIRROR_CLAMP_TO_BORDER_EXT"};
static const int sizes[NSIZES][2] = {{5, 3}, {7, 6}, {22, 18}, {13, 10}, {16, 8}};
static const float border[4] = {0.25f, 0.5f, 0.75f, 1.0f};

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(s, sizeof(log), NULL, log);
        fprintf(stderr, "shader: %s\n", log);
    }
    return s;
}

/* One coordinate along an axis of `n` texels, at or next to a texel boundary. */
static float boundary_coord(unsigned *seed, int n)
{
    int k = (int)(gm_test_rand(seed) % (unsigned)(n + 1));
    int m = (int)(gm_test_rand(seed) % 9) - 4;
    if (gm_test_rand(seed) % 8 == 0)
        m = (int)(gm_test_rand(seed) % 2000) - 1000;
    float u = (float)k / (float)n + (float)m;
    switch (gm_test_rand(seed) % 6) {
    case 0: return u;
    case 1: return nextafterf(u, INFINITY);
    case 2: return nextafterf(u, -INFINITY);
    case 3: return ((float)k + 0.5f) / (float)n + (float)m;
    case 4: return u + gm_test_randf(seed, -1e-5f, 1e-5f);
    default: return (float)(k + m * n) / (float)n;
    }
}

typedef struct tally { long px, exact; } tally;

/* Model and driver for one texture / wrap / offset; returns the differing pixels. */
static long run_case(unsigned *seed, GLuint prog, int fmt16f, int linear, uint32_t wrap,
                     const int size[2],
                     int off, const float *coords, int verbose,
                     const char *wname)
{
    int w = size[0], h = size[1];
    uint8_t *px = malloc((size_t)w * h * 4);
    float *fl = malloc((size_t)w * h * 4 * sizeof(float));
    for (int i = 0; i < w * h * 4; i++) {
        px[i] = (uint8_t)(gm_test_rand(seed) >> 7);
        fl[i] = (float)px[i] / 256.0f;   /* exact in half float */
    }
    gm_tex_image img;
    memset(&img, 0, sizeof(img));
    img.target = GM_TEX_2D;
    img.format = fmt16f ? GM_FMT_RGBA16F : GM_FMT_RGBA8;
    img.num_levels = 1;
    img.max_level = 1000;
    gm_surface_alloc(&img.level[0], img.format, w, h, 1, 1);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            void *dst = gm_surface_texel(&img.level[0], x, y, 0);
            size_t i = ((size_t)y * w + x) * 4;
            if (fmt16f) gm_format_pack_rgba(img.format, fl + i, dst);
            else memcpy(dst, px + i, 4);
        }

    GLuint tex;
    glGenTextures(1, &tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (fmt16f)
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, w, h, 0, GL_RGBA, GL_FLOAT, fl);
    else
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, px);
    GLint filter = linear ? GL_LINEAR : GL_NEAREST;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, filter);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, (GLint)wrap);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, (GLint)wrap);
    glTexParameterfv(GL_TEXTURE_2D, GL_TEXTURE_BORDER_COLOR, border);
    glUniform1i(glGetUniformLocation(prog, "off"), off);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    static float drv[W * H * 4];
    glReadPixels(0, 0, W, H, GL_RGBA, GL_FLOAT, drv);
    glDeleteTextures(1, &tex);

    gm_tex_sampler smp;
    gm_tex_sampler_default(&smp);
    smp.min_filter = smp.mag_filter = linear ? GL_LINEAR : GL_NEAREST;
    smp.wrap_s = smp.wrap_t = wrap;
    memcpy(smp.border, border, sizeof(border));
    gm_tex_units units;
    memset(&units, 0, sizeof(units));
    units.unit[0].image = &img;
    units.unit[0].sampler = &smp;
    static gm_sample_request req;
    static gm_texel_out out;
    long bad = 0;
    for (int p = 0; p < W * H; p++) {
        memset(&req, 0, sizeof(req));
        req.op = GM_TEX_SAMPLE;
        req.mask = 1u;
        req.dim = GM_DIM_2D;
        req.coord_count = 2;
        req.coord.f[0][0] = coords[p * 4];
        req.coord.f[1][0] = coords[p * 4 + 1];
        req.has_lod = true;
        req.lod[0] = 0.0f;
        req.has_offset = off != 0;
        req.offset[0][0] = 1;
        req.offset[1][0] = -2;
        gm_tex_sample_fn(&units, &req, &out);
        const float *d = drv + (size_t)p * 4;
        bool same = true;
        for (int k = 0; k < 4; k++)
            same = same && out.f[k][0] == d[k];
        if (!same) {
            bad++;
            if (verbose)
                printf("  %s %s %dx%d %s off %d: P (%.9g %.9g) model %.6g %.6g %.6g %.6g driver "
                       "%.6g %.6g %.6g %.6g\n", linear ? "linear" : "nearest",
                       fmt16f ? "16F" : "8", w, h,
                       wname, off, coords[p * 4], coords[p * 4 + 1], out.f[0][0],
                       out.f[1][0], out.f[2][0], out.f[3][0], d[0], d[1], d[2], d[3]);
        }
    }
    gm_surface_free(&img.level[0]);
    free(px);
    free(fl);
    return bad;
}

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
                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                        EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx)) {
        fprintf(stderr, "cannot create a GL 3.3 compatibility context: skipping\n");
        return 77;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("driver: %s\n", renderer ? renderer : "?");
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    /* the mirror-clamp wraps need their extensions; without them the case is left out */
    bool have[NWRAPS];
    for (int i = 0; i < NWRAPS; i++) have[i] = true;
    have[5] = epoxy_gl_version() >= 44 ||
              epoxy_has_gl_extension("GL_ARB_texture_mirror_clamp_to_edge") ||
              epoxy_has_gl_extension("GL_EXT_texture_mirror_clamp");
    have[6] = have[7] = epoxy_has_gl_extension("GL_EXT_texture_mirror_clamp");

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
    GLuint prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "program does not link\n");
        return 1;
    }
    glUseProgram(prog);
    glUniform1i(glGetUniformLocation(prog, "t"), 0);
    glUniform1i(glGetUniformLocation(prog, "ct"), 1);
    static const float quad[12] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof(quad), quad, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, NULL);
    glEnableVertexAttribArray(0);

    GLuint ctex;
    glGenTextures(1, &ctex);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_2D, ctex);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    static float coords[W * H * 4];

    int verbose = getenv("GM_NEAREST_E2E_VERBOSE") != NULL;
    unsigned seed = 0x4e45u;
    tally per_wrap[2][2][NWRAPS];
    memset(per_wrap, 0, sizeof(per_wrap));
    for (int lin = 0; lin < 2; lin++)
    for (int f = 0; f < 2; f++)
        for (int wi = 0; wi < NWRAPS; wi++) {
            if (!have[wi]) continue;
            for (int si = 0; si < NSIZES; si++)
                for (int off = 0; off < 2; off++) {
                    for (int p = 0; p < W * H; p++) {
                        coords[p * 4] = boundary_coord(&seed, sizes[si][0]);
                        coords[p * 4 + 1] = boundary_coord(&seed, sizes[si][1]);
                        coords[p * 4 + 2] = coords[p * 4 + 3] = 0.0f;
                    }
                    glActiveTexture(GL_TEXTURE1);
                    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, W, H, 0, GL_RGBA, GL_FLOAT,
                                 coords);
                    long bad = run_case(&seed, prog, f, lin, wraps[wi], sizes[si], off,
                                        coords,
                                        verbose, wrap_names[wi]);
                    per_wrap[lin][f][wi].px += W * H;
                    per_wrap[lin][f][wi].exact += W * H - bad;
                }
        }
    if (glGetError() != GL_NO_ERROR) {
        fprintf(stderr, "GL error\n");
        return 1;
    }
    long total = 0, exact = 0;
    for (int lin = 0; lin < 2; lin++)
    for (int f = 0; f < 2; f++)
        for (int wi = 0; wi < NWRAPS; wi++) {
            const tally *t = &per_wrap[lin][f][wi];
            const char *filt = lin ? "LINEAR" : "NEAREST";
            if (!t->px) {
                printf("%-7s %-7s %-27s: not supported by the driver, left out\n", filt,
                       f ? "RGBA16F" : "RGBA8", wrap_names[wi]);
                continue;
            }
            printf("%-7s %-7s %-27s: %6ld px, %5ld differ\n", filt, f ? "RGBA16F" : "RGBA8",
                   wrap_names[wi], t->px, t->px - t->exact);
            total += t->px;
            exact += t->exact;
        }
    printf("TOTAL: %ld px, %ld differ\n", total, total - exact);
    CHECK(total > 0);
    CHECK(total == exact);
    TEST_DONE();
}
