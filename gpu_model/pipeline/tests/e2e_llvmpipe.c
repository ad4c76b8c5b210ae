/* e2e_llvmpipe.c - renders random triangles with the real llvmpipe (EGL surfaceless,
 * desktop GL 3.3 core) and with the pipeline model, and compares coverage and
 * interpolated colours pixel by pixel.  Both an FBO (raster y = window y) and an EGL
 * pbuffer (window-system orientation, raster y flipped) are checked.
 * Exit 77 (skip) when no EGL/llvmpipe is available. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 133
#define H 97
#define NTRI 400

typedef struct tri_data { float pos[3][4]; float col[3][4]; } tri_data;

static const char *vs_src =
    "#version 330 core\n"
    "layout(location=0) in vec4 p; layout(location=1) in vec4 c;\n"
    "out vec4 vc; flat out vec4 fc; noperspective out vec4 nc;\n"
    "void main() { gl_Position = p; vc = c; fc = c; nc = c; }\n";
static const char *fs_src =
    "#version 330 core\n"
    "in vec4 vc; flat in vec4 fc; noperspective in vec4 nc; uniform int mode;\n"
    "out vec4 o;\n"
    "void main() { o = mode == 0 ? vec4(vc.rgb, 1.0) : mode == 1 ? vec4(fc.rgb, 1.0) :\n"
    "  vec4(nc.rgb, 1.0); }\n";

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

/* ---- model side ---- */
typedef struct model { const tri_data *t; int mode; } model;

static int m_vs(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    model *m = user;
    (void)inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, m->t->pos[id[i]], sizeof(out[i].pos));
        for (int s = 0; s < 3; s++)
            memcpy(out[i].var[s], m->t->col[id[i]], sizeof(out[i].var[s]));
    }
    return 0;
}

static int m_fs(void *user, gm_pipe_fs_warp *w)
{
    model *m = user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        for (int c = 0; c < 3; c++)
            w->color[0].f[c][l] = w->in[m->mode][c][l];
        w->color[0].f[3][l] = 1.0f;
    }
    return 0;
}

typedef struct stats { long pixels, cov_diff, exact, within1, compared; } stats;

static void compare(const uint8_t *drv, const gm_surface *ms, stats *st, int verbose)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *a = drv + ((size_t)y * W + x) * 4;
            const uint8_t *b = gm_surface_texel(ms, x, y, 0);
            st->pixels++;
            if ((a[3] != 0) != (b[3] != 0)) {
                st->cov_diff++;
                if (verbose) fprintf(stderr, "coverage differs at %d,%d (driver %d)\n", x, y, a[3] != 0);
                continue;
            }
            if (!a[3]) continue;
            st->compared++;
            int md = 0;
            for (int c = 0; c < 3; c++) {
                int d = abs((int)a[c] - (int)b[c]);
                if (d > md) md = d;
            }
            if (md == 0) st->exact++;
            if (md <= 1) st->within1++;
        }
}

static void random_tri(unsigned *seed, tri_data *t, int kind)
{
    for (int v = 0; v < 3; v++) {
        float x = gm_test_randf(seed, -15.0f, W + 15.0f), y = gm_test_randf(seed, -15.0f, H + 15.0f);
        if (kind == 1) {   /* small triangles */
            float cx = gm_test_randf(seed, 0, W), cy = gm_test_randf(seed, 0, H);
            x = cx + gm_test_randf(seed, -4, 4); y = cy + gm_test_randf(seed, -4, 4);
        }
        float w = kind == 2 ? gm_test_randf(seed, 0.3f, 3.0f) : 1.0f;
        t->pos[v][0] = (x / W * 2.0f - 1.0f) * w;
        t->pos[v][1] = (y / H * 2.0f - 1.0f) * w;
        t->pos[v][2] = gm_test_randf(seed, -0.9f, 0.9f) * w;
        t->pos[v][3] = w;
        if (kind == 3) t->pos[v][2] = gm_test_randf(seed, -2.5f, 1.5f) * w;  /* near/far clip */
        for (int c = 0; c < 3; c++) t->col[v][c] = gm_test_randf(seed, 0.0f, 1.0f);
        t->col[v][3] = 1.0f;
    }
}

static int run(bool pbuffer, EGLDisplay dpy, EGLContext ectx, EGLSurface surf, stats *total)
{
    if (!eglMakeCurrent(dpy, surf, surf, ectx))
        return -1;
    GLuint fbo = 0, rb = 0;
    if (!pbuffer) {
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            return -1;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, fs_src));
    glLinkProgram(prog);
    glUseProgram(prog);
    GLint mode_loc = glGetUniformLocation(prog, "mode");
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, 16, (void *)0);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, 16, (void *)48);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glViewport(0, 0, W, H);

    gm_surface ms;
    gm_surface_alloc(&ms, GM_FMT_RGBA8, W, H, 1, 1);
    uint8_t *drv = malloc((size_t)W * H * 4);
    unsigned seed = pbuffer ? 4242u : 1234u;
    stats kinds[4] = {{0}};
    for (int i = 0; i < NTRI; i++) {
        tri_data t;
        int kind = i % 4;
        random_tri(&seed, &t, kind);
        int mode = (i / 4) % 3;
        glBufferData(GL_ARRAY_BUFFER, sizeof(t), &t, GL_STREAM_DRAW);
        glUniform1i(mode_loc, mode);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv);

        memset(ms.data, 0, ms.layer_stride);
        model m = {&t, mode};
        gm_pipe_context ctx;
        memset(&ctx, 0, sizeof(ctx));
        gm_pipe_state_default(&ctx.state, W, H);
        ctx.fb.width = W; ctx.fb.height = H;
        ctx.fb.color[0] = &ms;
        ctx.fb.winsys_orientation = pbuffer;
        ctx.info.num_varyings = 3;
        ctx.info.interp[0] = GM_INTERP_SMOOTH;
        ctx.info.interp[1] = GM_INTERP_FLAT;
        ctx.info.interp[2] = GM_INTERP_NOPERSPECTIVE;
        ctx.vs = m_vs; ctx.vs_user = &m;
        ctx.fs = m_fs; ctx.fs_user = &m;
        /* The struct layout: pos[3][4] then col[3][4]; vertex id v -> pos[v] */
        gm_pipe_draw d = {GL_TRIANGLES, 0, 3, NULL, 0, 0, 1, 0};
        if (gm_pipe_draw_exec(&ctx, &d) != 0) {
            fprintf(stderr, "model draw failed: %s\n", ctx.error);
            return -1;
        }
        stats before = kinds[kind];
        compare(drv, &ms, &kinds[kind], getenv("GM_VERBOSE") != NULL);
        if (getenv("GM_VERBOSE") && kinds[kind].cov_diff != before.cov_diff)
            fprintf(stderr, "  triangle %d kind %d mode %d\n", i, kind, mode);
    }
    /* points (sizes 1..6) and lines: coverage only, flat colour */
    stats pts = {0}, lns = {0};
    for (int i = 0; i < 200; i++) {
        tri_data t;
        random_tri(&seed, &t, i % 2 ? 1 : 0);
        bool points = i < 100;
        float psize = 1.0f + (float)(i % 6) * 1.0f + (i % 3 == 0 ? 0.4f : 0.0f);
        glBufferData(GL_ARRAY_BUFFER, sizeof(t), &t, GL_STREAM_DRAW);
        glUniform1i(mode_loc, 1);
        glPointSize(psize);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(points ? GL_POINTS : GL_LINES, 0, points ? 3 : 2);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv);
        memset(ms.data, 0, ms.layer_stride);
        model m = {&t, 1};
        gm_pipe_context ctx;
        memset(&ctx, 0, sizeof(ctx));
        gm_pipe_state_default(&ctx.state, W, H);
        ctx.state.point_size = psize;
        ctx.fb.width = W; ctx.fb.height = H;
        ctx.fb.color[0] = &ms;
        ctx.fb.winsys_orientation = pbuffer;
        ctx.info.num_varyings = 3;
        ctx.info.interp[1] = GM_INTERP_FLAT;
        ctx.info.interp[2] = GM_INTERP_NOPERSPECTIVE;
        ctx.vs = m_vs; ctx.vs_user = &m;
        ctx.fs = m_fs; ctx.fs_user = &m;
        gm_pipe_draw d = {points ? GL_POINTS : GL_LINES, 0, points ? 3 : 2, NULL, 0, 0, 1, 0};
        if (gm_pipe_draw_exec(&ctx, &d) != 0) return -1;
        if (getenv("GM_VERBOSE_PTS") && points) fprintf(stderr, "point batch %d size %.1f: %.2f,%.2f %.2f,%.2f %.2f,%.2f\n", i, psize, (t.pos[0][0]/t.pos[0][3]+1)*W/2, (t.pos[0][1]/t.pos[0][3]+1)*H/2, (t.pos[1][0]/t.pos[1][3]+1)*W/2, (t.pos[1][1]/t.pos[1][3]+1)*H/2, (t.pos[2][0]/t.pos[2][3]+1)*W/2, (t.pos[2][1]/t.pos[2][3]+1)*H/2);
        compare(drv, &ms, points ? &pts : &lns, getenv("GM_VERBOSE_PTS") && points);
    }
    printf("%s points     : coverage mismatches %ld of %ld px; colour within 1/255 %.4f%%\n",
           pbuffer ? "pbuffer" : "fbo    ", pts.cov_diff, pts.pixels,
           pts.compared ? 100.0 * pts.within1 / pts.compared : 100.0);
    printf("%s lines      : coverage mismatches %ld of %ld px (not asserted: see DESIGN.md)\n",
           pbuffer ? "pbuffer" : "fbo    ", lns.cov_diff, lns.pixels);
    total->pixels += pts.pixels; total->cov_diff += pts.cov_diff;
    total->exact += pts.exact; total->within1 += pts.within1; total->compared += pts.compared;
    static const char *names[4] = {"large", "small", "perspective", "z-clipped"};
    for (int k = 0; k < 4; k++) {
        stats *s = &kinds[k];
        printf("%s %-11s: coverage mismatches %ld of %ld px; colour exact %.4f%%, within 1/255 %.4f%% of %ld\n",
               pbuffer ? "pbuffer" : "fbo    ", names[k], s->cov_diff, s->pixels,
               s->compared ? 100.0 * s->exact / s->compared : 100.0,
               s->compared ? 100.0 * s->within1 / s->compared : 100.0, s->compared);
        total->pixels += s->pixels; total->cov_diff += s->cov_diff;
        total->exact += s->exact; total->within1 += s->within1; total->compared += s->compared;
    }
    gm_surface_free(&ms);
    free(drv);
    return 0;
}

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "no EGL surfaceless display: skipping\n");
        return 77;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint cattr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                      EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint ncfg = 0;
    eglChooseConfig(dpy, cattr, &cfg, 1, &ncfg);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, ncfg ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT) {
        fprintf(stderr, "cannot create a GL 3.3 context: skipping\n");
        return 77;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx))
        return 77;
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    printf("driver: %s\n", renderer ? renderer : "?");
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    const char *fused = getenv("GM_VIEWPORT_FUSED");
    if (fused) gm_pipe_viewport_fused = atoi(fused);
    stats total = {0};
    if (run(false, dpy, ectx, EGL_NO_SURFACE, &total) != 0) {
        fprintf(stderr, "FBO run failed\n");
        return 1;
    }
    if (ncfg) {
        EGLint pattr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
        EGLSurface pb = eglCreatePbufferSurface(dpy, cfg, pattr);
        if (pb != EGL_NO_SURFACE) {
            if (run(true, dpy, ectx, pb, &total) != 0) {
                fprintf(stderr, "pbuffer run failed\n");
                return 1;
            }
        } else {
            printf("no pbuffer support: window-system orientation not checked\n");
        }
    }
    double cov = 100.0 * (double)(total.pixels - total.cov_diff) / (double)total.pixels;
    double w1 = total.compared ? 100.0 * (double)total.within1 / (double)total.compared : 100.0;
    printf("TOTAL: coverage agreement %.5f%% (%ld mismatches of %ld px), colour within 1/255 %.4f%%\n",
           cov, total.cov_diff, total.pixels, w1);
    /* Targets from the project brief: >= 99.9% of pixels within +-1/255. */
    CHECK(cov >= 99.99);
    CHECK(w1 >= 99.9);
    TEST_DONE();
}
