/* e2e_msaa_llvmpipe.c - 4x multisampled rendering, llvmpipe (EGL surfaceless) against
 * the pipeline model, compared per sample (texelFetch of a 2D multisample colour
 * texture) and after a glBlitFramebuffer resolve. Cases: per-sample coverage with a
 * per-sample depth test, centroid inputs, GL_SAMPLE_MASK, GL_SAMPLE_COVERAGE,
 * alpha-to-coverage, alpha-to-one and sample shading. Exit 77 (skip) without llvmpipe. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 61
#define H 47
#define NS 4
#define NTRI 3                /* overlapping triangles per frame (depth tested) */

typedef struct frame { float pos[3 * NTRI][4]; float col[3 * NTRI][4]; } frame;

enum { C_PLAIN, C_CENTROID, C_SAMPLE_MASK, C_COVERAGE, C_A2C, C_A2ONE, C_SHADING, C_POINTS,
       C_LINES, C_COUNT };
static const char *case_names[C_COUNT] = {
    "coverage+depth", "centroid", "sample mask", "sample coverage", "alpha-to-coverage",
    "alpha-to-one", "sample shading", "points", "lines"};

static const char *vs_src =
    "#version 330 core\n"
    "layout(location=0) in vec4 p; layout(location=1) in vec4 c;\n"
    "out vec4 vc; centroid out vec4 cc;\n"
    "void main() { gl_Position = p; vc = c; cc = c; }\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec4 vc; centroid in vec4 cc; uniform int mode; out vec4 o;\n"
    "void main() { o = mode == 1 ? cc : vc; }\n";
/* sample s of the multisample texture, one pixel per fragment */
static const char *fetch_vs =
    "#version 330 core\n"
    "void main() { vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
    "  gl_Position = vec4(p, 0.0, 1.0); }\n";
static const char *fetch_fs =
    "#version 330 core\n"
    "uniform sampler2DMS t; uniform int s; out vec4 o;\n"
    "void main() { o = texelFetch(t, ivec2(gl_FragCoord.xy), s); }\n";

static GLuint program(const char *vs, const char *fs)
{
    GLuint p = glCreateProgram();
    const char *src[2] = {vs, fs};
    GLenum type[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(type[i]);
        glShaderSource(s, 1, &src[i], NULL);
        glCompileShader(s);
        GLint ok = 0;
        glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
        if (!ok) {
            char log[1024];
            glGetShaderInfoLog(s, sizeof(log), NULL, log);
            fprintf(stderr, "shader: %s\n", log);
        }
        glAttachShader(p, s);
    }
    glLinkProgram(p);
    return p;
}

/* ---- model side ---- */
typedef struct model { const frame *f; int slot; } model;

static int m_vs(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    model *m = user;
    (void)inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, m->f->pos[id[i]], sizeof(out[i].pos));
        for (int s = 0; s < 2; s++)
            memcpy(out[i].var[s], m->f->col[id[i]], sizeof(out[i].var[s]));
    }
    return 0;
}

static int m_fs(void *user, gm_pipe_fs_warp *w)
{
    model *m = user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++)
        for (int c = 0; c < 4; c++)
            w->color[0].f[c][l] = w->in[m->slot][c][l];
    return 0;
}

static void random_frame(unsigned *seed, frame *f, bool small)
{
    for (int v = 0; v < 3 * NTRI; v++) {
        float x = gm_test_randf(seed, -10.0f, W + 10.0f), y = gm_test_randf(seed, -10.0f, H + 10.0f);
        if (small && v % 3) {   /* small triangles: many partially covered pixels */
            x = f->pos[v - v % 3][0] * 0.5f * W + 0.5f * W + gm_test_randf(seed, -6, 6);
            y = f->pos[v - v % 3][1] * 0.5f * H + 0.5f * H + gm_test_randf(seed, -6, 6);
        }
        f->pos[v][0] = x / W * 2.0f - 1.0f;
        f->pos[v][1] = y / H * 2.0f - 1.0f;
        f->pos[v][2] = gm_test_randf(seed, -0.9f, 0.9f);
        f->pos[v][3] = 1.0f;
        for (int c = 0; c < 3; c++)
            f->col[v][c] = gm_test_randf(seed, 0.0f, 1.0f);
        f->col[v][3] = gm_test_randf(seed, 0.05f, 1.0f);
    }
}

typedef struct stats { long samples, exact, within1, px, px_exact, px_within1; } stats;

static void cmp_bytes(const uint8_t *a, const uint8_t *b, long *exact, long *within1)
{
    int md = 0;
    for (int c = 0; c < 4; c++) {
        int d = abs((int)a[c] - (int)b[c]);
        if (d > md) md = d;
    }
    *exact += md == 0;
    *within1 += md <= 1;
}

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "no EGL surfaceless display: skipping\n");
        return 77;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 0,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx)) {
        fprintf(stderr, "cannot create a GL 4.0 context: skipping\n");
        return 77;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("driver: %s\n", renderer ? renderer : "?");
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    /* multisample FBO: colour texture (fetchable per sample) + depth/stencil */
    GLuint tex, drb, msfbo, rtex, rfbo, stex, sfbo;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
    glTexImage2DMultisample(GL_TEXTURE_2D_MULTISAMPLE, NS, GL_RGBA8, W, H, GL_TRUE);
    glGenRenderbuffers(1, &drb);
    glBindRenderbuffer(GL_RENDERBUFFER, drb);
    glRenderbufferStorageMultisample(GL_RENDERBUFFER, NS, GL_DEPTH24_STENCIL8, W, H);
    glGenFramebuffers(1, &msfbo);
    glBindFramebuffer(GL_FRAMEBUFFER, msfbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D_MULTISAMPLE, tex, 0);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, drb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "multisample FBO incomplete: skipping\n");
        return 77;
    }
    GLint got = 0;
    glGetIntegerv(GL_SAMPLES, &got);
    if (got != NS) {
        fprintf(stderr, "driver gave %d samples: skipping\n", got);
        return 77;
    }
    GLuint *sfb[2] = {&rfbo, &sfbo}, *stx[2] = {&rtex, &stex};
    for (int i = 0; i < 2; i++) {   /* resolve target and per-sample readback target */
        glGenTextures(1, stx[i]);
        glBindTexture(GL_TEXTURE_2D, *stx[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, W, H, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
        glGenFramebuffers(1, sfb[i]);
        glBindFramebuffer(GL_FRAMEBUFFER, *sfb[i]);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, *stx[i], 0);
    }
    GLuint prog = program(vs_src, fs_src), fprog = program(fetch_vs, fetch_fs);
    GLint mode_loc = glGetUniformLocation(prog, "mode");
    GLuint vao, evao, vbo;
    glGenVertexArrays(1, &evao);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16, (void *)(sizeof(float) * 4 * 3 * NTRI));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glViewport(0, 0, W, H);

    gm_surface mc, md, res;
    gm_surface_alloc(&mc, GM_FMT_RGBA8, W, H, 1, NS);
    gm_surface_alloc(&md, GM_FMT_D24S8, W, H, 1, NS);
    gm_surface_alloc(&res, GM_FMT_RGBA8, W, H, 1, 1);
    uint8_t *drv = malloc((size_t)W * H * 4 * (NS + 1));
    unsigned seed = 777u;
    stats st[C_COUNT];
    memset(st, 0, sizeof(st));
    const int frames = 40;
    for (int cs = 0; cs < C_COUNT; cs++)
        for (int fi = 0; fi < frames; fi++) {
            frame f;
            random_frame(&seed, &f, fi % 2 == 1);
            uint32_t smask = 1u + (uint32_t)(fi % 15);
            float cov = (float)(fi % 5) * 0.25f;
            bool inv = fi % 2 == 0;
            /* ---- driver ---- */
            glBindFramebuffer(GL_FRAMEBUFFER, msfbo);
            glBindVertexArray(vao);
            glUseProgram(prog);
            glUniform1i(mode_loc, cs == C_CENTROID ? 1 : 0);
            glBufferData(GL_ARRAY_BUFFER, sizeof(f), &f, GL_STREAM_DRAW);
            glClearColor(0, 0, 0, 0);
            glClearDepth(1.0);
            glEnable(GL_DEPTH_TEST);
            glDepthFunc(GL_LESS);
            glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
            if (cs == C_SAMPLE_MASK) { glEnable(GL_SAMPLE_MASK); glSampleMaski(0, smask); }
            if (cs == C_COVERAGE) { glEnable(GL_SAMPLE_COVERAGE); glSampleCoverage(cov, inv); }
            if (cs == C_A2C) glEnable(GL_SAMPLE_ALPHA_TO_COVERAGE);
            if (cs == C_A2ONE) glEnable(GL_SAMPLE_ALPHA_TO_ONE);
            if (cs == C_SHADING) { glEnable(GL_SAMPLE_SHADING); glMinSampleShading(1.0f); }
            glPointSize(1.0f + (float)(fi % 5) * 0.85f);
            glDrawArrays(cs == C_POINTS ? GL_POINTS : cs == C_LINES ? GL_LINES : GL_TRIANGLES, 0,
                         cs == C_LINES ? 2 * NTRI : 3 * NTRI);
            glDisable(GL_SAMPLE_MASK);
            glDisable(GL_SAMPLE_COVERAGE);
            glDisable(GL_SAMPLE_ALPHA_TO_COVERAGE);
            glDisable(GL_SAMPLE_ALPHA_TO_ONE);
            glDisable(GL_SAMPLE_SHADING);
            glDisable(GL_DEPTH_TEST);
            /* per-sample readback */
            glBindFramebuffer(GL_FRAMEBUFFER, sfbo);
            glUseProgram(fprog);
            glBindVertexArray(evao);
            glActiveTexture(GL_TEXTURE0);
            glBindTexture(GL_TEXTURE_2D_MULTISAMPLE, tex);
            glUniform1i(glGetUniformLocation(fprog, "t"), 0);
            for (int s = 0; s < NS; s++) {
                glUniform1i(glGetUniformLocation(fprog, "s"), s);
                glDrawArrays(GL_TRIANGLES, 0, 3);
                glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv + (size_t)s * W * H * 4);
            }
            /* resolve */
            glBindFramebuffer(GL_READ_FRAMEBUFFER, msfbo);
            glBindFramebuffer(GL_DRAW_FRAMEBUFFER, rfbo);
            glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL_COLOR_BUFFER_BIT, GL_NEAREST);
            glBindFramebuffer(GL_FRAMEBUFFER, rfbo);
            glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv + (size_t)NS * W * H * 4);

            /* ---- model ---- */
            model m = {&f, cs == C_CENTROID ? 1 : 0};
            gm_pipe_context ctx;
            memset(&ctx, 0, sizeof(ctx));
            gm_pipe_state_default(&ctx.state, W, H);
            ctx.fb.width = W; ctx.fb.height = H;
            ctx.fb.color[0] = &mc;
            ctx.fb.depth = ctx.fb.stencil = &md;
            float zero[4] = {0, 0, 0, 0};
            gm_pipe_clear_color(&ctx, 0, zero);
            gm_pipe_clear_depth_stencil(&ctx, true, 1.0f, false, 0);
            ctx.state.depth_test = true;
            ctx.state.depth_func = GL_LESS;
            ctx.state.sample_mask = cs == C_SAMPLE_MASK ? smask : ~0u;
            ctx.state.sample_coverage = cs == C_COVERAGE;
            ctx.state.sample_coverage_value = cov;
            ctx.state.sample_coverage_invert = inv;
            ctx.state.alpha_to_coverage = cs == C_A2C;
            ctx.state.alpha_to_one = cs == C_A2ONE;
            ctx.state.sample_shading = cs == C_SHADING;
            ctx.state.min_sample_shading = 1.0f;
            ctx.info.num_varyings = 2;
            ctx.info.loc[1] = GM_LOC_CENTROID;
            ctx.vs = m_vs; ctx.vs_user = &m;
            ctx.fs = m_fs; ctx.fs_user = &m;
            ctx.state.point_size = 1.0f + (float)(fi % 5) * 0.85f;
            gm_pipe_draw d = {cs == C_POINTS ? GL_POINTS : cs == C_LINES ? GL_LINES
                                                                          : GL_TRIANGLES,
                              0, cs == C_LINES ? 2 * NTRI : 3 * NTRI, NULL, 0, 0, 1, 0};
            if (gm_pipe_draw_exec(&ctx, &d) != 0) {
                fprintf(stderr, "model draw failed: %s\n", ctx.error);
                return 1;
            }
            CHECK(gm_pipe_resolve(&mc, &res) == 0);
            stats *t = &st[cs];
            for (int y = 0; y < H; y++)
                for (int x = 0; x < W; x++) {
                    for (int s = 0; s < NS; s++) {
                        const uint8_t *a = drv + (size_t)s * W * H * 4 + ((size_t)y * W + x) * 4;
                        const uint8_t *b = gm_surface_texel(&mc, x, y, 0) + s * 4;
                        t->samples++;
                        long ex = 0, w1 = 0;
                        cmp_bytes(a, b, &ex, &w1);
                        t->exact += ex;
                        t->within1 += w1;
                        if (!w1 && getenv("GM_VERBOSE"))
                            fprintf(stderr, "%s frame %d (%d,%d) sample %d: driver %d,%d,%d,%d model %d,%d,%d,%d\n",
                                    case_names[cs], fi, x, y, s, a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]);
                    }
                    cmp_bytes(drv + (size_t)NS * W * H * 4 + ((size_t)y * W + x) * 4,
                              gm_surface_texel(&res, x, y, 0), &t->px_exact, &t->px_within1);
                    t->px++;
                }
        }
    double worst = 100.0, worst_res = 100.0;
    for (int cs = 0; cs < C_COUNT; cs++) {
        stats *t = &st[cs];
        double w1 = 100.0 * (double)t->within1 / (double)t->samples;
        double r1 = 100.0 * (double)t->px_within1 / (double)t->px;
        printf("%-18s: samples exact %.4f%%, within 1/255 %.4f%% of %ld; resolve exact %.4f%%, "
               "within 1/255 %.4f%%\n", case_names[cs], 100.0 * (double)t->exact / (double)t->samples,
               w1, t->samples, 100.0 * (double)t->px_exact / (double)t->px, r1);
        if (w1 < worst) worst = w1;
        if (r1 < worst_res) worst_res = r1;
    }
    CHECK(worst >= 99.9);
    CHECK(worst_res >= 99.9);
    gm_surface_free(&mc);
    gm_surface_free(&md);
    gm_surface_free(&res);
    free(drv);
    TEST_DONE();
}
