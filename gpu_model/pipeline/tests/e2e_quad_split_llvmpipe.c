/* e2e_quad_split_llvmpipe.c - the diagonal along which llvmpipe splits a smooth GL_QUADS quad,
 * model against the real driver (EGL surfaceless, GL 3.2 compatibility context). The quad is a
 * parallelogram whose colours are not affine (red, green, blue, white at v0..v3), so the two
 * splits differ by up to 255 at its centre. llvmpipe's fast path splits it v0-v2; the draw
 * module's pipeline v1-v3: where a vertex of the draw's 4096-vertex segment needs clipping (the
 * Teeworlds menu gradient, a quad larger than the window), for indexed draws and flat varyings
 * (GL_POLYGON_OFFSET_LINE with filled polygons keeps the fast path). Every case must agree pixel for pixel (gm_draw.c, GL_QUADS).
 * Exit 77 (skip) without EGL/llvmpipe. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 64
#define H 48
#define MAXQ 1100

typedef struct vert { float pos[4]; float col[4]; } vert;

typedef struct quad_case {
    const char *name;
    bool depth;        /* a depth/stencil attachment */
    float scale;       /* of the quad that may reach outside the viewport (> 1.6: clipped) */
    bool indexed;
    bool flat;         /* the colour read from a flat varying */
    bool offset_line;  /* GL_POLYGON_OFFSET_LINE enabled (polygon mode stays GL_FILL) */
    int nquads;        /* > 1: quad 0 takes `scale`, the last one covers the centre */
} quad_case;

static vert verts[4 * MAXQ];
static uint32_t idx[4 * MAXQ];

static void build(const quad_case *c)
{
    static const float p[4][2] = {{-0.5f, -0.6f}, {0.6f, -0.5f}, {0.5f, 0.6f}, {-0.6f, 0.5f}};
    static const float col[4][4] = {{1, 0, 0, 1}, {0, 1, 0, 1}, {0, 0, 1, 1}, {1, 1, 1, 1}};
    for (int q = 0; q < c->nquads; q++) {
        float s = q == 0 ? c->scale : 0.01f;
        if (c->nquads > 1 && q == c->nquads - 1)
            s = 1.0f;
        for (int i = 0; i < 4; i++) {
            vert *v = &verts[4 * q + i];
            v->pos[0] = p[i][0] * s;
            v->pos[1] = p[i][1] * s;
            v->pos[2] = 0.0f;
            v->pos[3] = 1.0f;
            memcpy(v->col, col[i], sizeof(v->col));
            idx[4 * q + i] = (uint32_t)(4 * q + i);
        }
    }
}

static const char *vs_src =
    "#version 130\n"
    "in vec4 p; in vec4 c; out vec4 vc; flat out vec4 fc;\n"
    "void main() { gl_Position = p; vc = c; fc = c; }\n";
static const char *fs_smooth =
    "#version 130\n"
    "in vec4 vc; out vec4 o;\n"
    "void main() { o = vec4(vc.rgb, 1.0); }\n";
static const char *fs_flat =
    "#version 130\n"
    "flat in vec4 fc; out vec4 o;\n"
    "void main() { o = vec4(fc.rgb, 1.0); }\n";

static GLuint program(const char *fs)
{
    GLuint p = glCreateProgram();
    const char *src[2] = {vs_src, fs};
    GLenum type[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(type[i]);
        glShaderSource(s, 1, &src[i], NULL);
        glCompileShader(s);
        glAttachShader(p, s);
    }
    glBindAttribLocation(p, 0, "p");
    glBindAttribLocation(p, 1, "c");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    return ok ? p : 0;
}

static int m_vs(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    (void)user; (void)inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, verts[id[i]].pos, sizeof(out[i].pos));
        memcpy(out[i].var[0], verts[id[i]].col, sizeof(out[i].var[0]));
    }
    return 0;
}

static int m_fs(void *user, gm_pipe_fs_warp *w)
{
    (void)user;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        for (int c = 0; c < 3; c++)
            w->color[0].f[c][l] = w->in[0][c][l];
        w->color[0].f[3][l] = 1.0f;
    }
    return 0;
}

/* Pixels that differ between the driver's image and the model's; the centre's green on each
 * side tells the split (0: v0-v2, about 250: v1-v3). */
static long run_case(const quad_case *c, GLuint prog_smooth, GLuint prog_flat, uint8_t *drv)
{
    build(c);
    GLuint fb, rb, db = 0;
    glGenFramebuffers(1, &fb);
    glBindFramebuffer(GL_FRAMEBUFFER, fb);
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    if (c->depth) {
        glGenRenderbuffers(1, &db);
        glBindRenderbuffer(GL_RENDERBUFFER, db);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W, H);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, db);
    }
    glViewport(0, 0, W, H);
    glUseProgram(c->flat ? prog_flat : prog_smooth);
    glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(vert), verts[0].pos);
    glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(vert), verts[0].col);
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    (c->offset_line ? glEnable : glDisable)(GL_POLYGON_OFFSET_LINE);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    if (c->indexed)
        glDrawElements(GL_QUADS, 4 * c->nquads, GL_UNSIGNED_INT, idx);
    else
        glDrawArrays(GL_QUADS, 0, 4 * c->nquads);
    glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fb);
    glDeleteRenderbuffers(1, &rb);
    if (db)
        glDeleteRenderbuffers(1, &db);

    gm_surface ms, ds;
    gm_surface_alloc(&ms, GM_FMT_RGBA8, W, H, 1, 1);
    gm_surface_alloc(&ds, GM_FMT_D24S8, W, H, 1, 1);
    memset(ms.data, 0, ms.layer_stride);
    gm_pipe_context ctx;
    memset(&ctx, 0, sizeof(ctx));
    gm_pipe_state_default(&ctx.state, W, H);
    ctx.state.polygon_offset_line = c->offset_line;
    ctx.fb.width = W;
    ctx.fb.height = H;
    ctx.fb.color[0] = &ms;
    if (c->depth)
        ctx.fb.depth = ctx.fb.stencil = &ds;
    ctx.info.num_varyings = 1;
    ctx.info.interp[0] = c->flat ? GM_INTERP_FLAT : GM_INTERP_SMOOTH;
    ctx.vs = m_vs;
    ctx.fs = m_fs;
    gm_pipe_draw dr = {GL_QUADS, 0, 4 * c->nquads, c->indexed ? idx : NULL,
                       GL_UNSIGNED_INT, 0, 1, 0};
    long diff = -1;
    if (gm_pipe_draw_exec(&ctx, &dr) != 0) {
        fprintf(stderr, "%s: model draw failed: %s\n", c->name, ctx.error);
    } else {
        diff = 0;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                if (memcmp(drv + ((size_t)y * W + x) * 4, gm_surface_texel(&ms, x, y, 0), 4) != 0)
                    diff++;
        const uint8_t *dc = drv + ((size_t)(H / 2) * W + W / 2) * 4;
        const uint8_t *mc = gm_surface_texel(&ms, W / 2, H / 2, 0);
        printf("%-44s centre green: driver %3d model %3d; %ld px differ\n", c->name, dc[1], mc[1], diff);
    }
    gm_surface_free(&ms);
    gm_surface_free(&ds);
    return diff;
}

int main(void)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "no EGL surfaceless display: skipping\n");
        return 77;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                        EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ectx)) {
        fprintf(stderr, "cannot create a GL 3.2 compatibility context: skipping\n");
        return 77;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "not llvmpipe: skipping\n");
        return 77;
    }
    GLuint ps = program(fs_smooth), pf = program(fs_flat);
    CHECK(ps != 0 && pf != 0);
    static const quad_case cases[] = {
        {"inside, depth (v0-v2)", true, 1.0f, false, false, false, 1},
        {"inside, no depth (v0-v2)", false, 1.0f, false, false, false, 1},
        {"past the viewport, depth (clipped: v1-v3)", true, 2.5f, false, false, false, 1},
        {"past the viewport, no depth (clipped: v1-v3)", false, 2.5f, false, false, false, 1},
        {"indexed, inside (v1-v3)", true, 1.0f, true, false, false, 1},
        {"flat, inside (v1-v3)", true, 1.0f, false, true, false, 1},
        {"offset line enabled, filled, inside (v0-v2)", true, 1.0f, false, false, true, 1},
        {"1024 quads, the first clipped (v1-v3)", true, 2.5f, false, false, false, 1024},
        {"1025 quads, the first clipped (v0-v2)", true, 2.5f, false, false, false, 1025},
    };
    uint8_t *drv = malloc((size_t)W * H * 4);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        long d = run_case(&cases[i], ps, pf, drv);
        CHECK(d == 0);
    }
    free(drv);
    TEST_DONE();
}
