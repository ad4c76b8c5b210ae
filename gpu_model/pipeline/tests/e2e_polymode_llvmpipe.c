/* e2e_polymode_llvmpipe.c - polygon modes per face, quads, quad strips, polygons, edge
 * flags, culling, provoking vertex, polygon offset (fill/line/point), line and polygon
 * stipple, legacy points, wide lines: random draws rendered by the real llvmpipe (EGL
 * surfaceless, GL 3.2 compatibility context, GLSL 1.30 with vertex arrays and a client-memory
 * edge flag array) and by the pipeline model, compared pixel by pixel in an FBO and in a
 * pbuffer (window-system orientation). Colour: red = the (flat or smooth) colour, green
 * carries gl_FrontFacing, blue fract(16 gl_FragCoord.z) (polygon offset).
 * GM_VERBOSE=1 prints each case that differs, GM_VERBOSE_PX=1 a few of its pixels,
 * GM_CASE=K a coverage map of case K ('d' driver only, 'm' model only).  Exit 77 (skip) without EGL/llvmpipe. */
#include "gm_pipeline.h"
#include "gm_pipe_internal.h"
#include "gm_test.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 97
#define H 73
#define NCASE 600
#define MAXV 12

typedef struct vert { float pos[4]; float col[4]; } vert;

typedef struct draw_case {
    uint32_t mode;
    int n;
    vert v[MAXV];
    uint8_t ef[MAXV];
    uint32_t front_mode, back_mode, cull, front_face;
    bool first_vertex, flat, offset_line, offset_point, offset_fill;
    float line_width, point_size, factor, units;
    bool stipple;
    int stipple_factor;
    uint16_t stipple_pattern;
    bool pstipple;
    uint8_t pstipple_bytes[128];
    bool sprite;   /* GL_POINT_SPRITE: quad point rules instead of GL 2.1's */
} draw_case;

static const char *vs_src =
    "#version 130\n"
    "in vec4 p; in vec4 c;\n"
    "out vec4 vc; flat out vec4 fc;\n"
    "void main() { gl_Position = p; vc = c; fc = c; }\n";
/* red: colour, green: colour/2 + 0.5 on front faces, blue: depth (fine) */
static const char *fs_src =
    "#version 130\n"
    "in vec4 vc; flat in vec4 fc; uniform int flat_mode;\n"
    "out vec4 o;\n"
    "void main() { vec4 c = flat_mode != 0 ? fc : vc;\n"
    "  o = vec4(c.r, c.g * 0.5 + (gl_FrontFacing ? 0.5 : 0.0), fract(gl_FragCoord.z * 16.0), 1.0); }\n";

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
static int m_vs(void *user, const int32_t *id, int count, int32_t inst, gm_pipe_vertex *out)
{
    const draw_case *d = user;
    (void)inst;
    for (int i = 0; i < count; i++) {
        memcpy(out[i].pos, d->v[id[i]].pos, sizeof(out[i].pos));
        memcpy(out[i].var[0], d->v[id[i]].col, sizeof(out[i].var[0]));
        memcpy(out[i].var[1], d->v[id[i]].col, sizeof(out[i].var[1]));
        out[i].no_edge = !d->ef[id[i]];
    }
    return 0;
}

static int m_fs(void *user, gm_pipe_fs_warp *w)
{
    const draw_case *d = user;
    int slot = d->flat ? 1 : 0;
    for (int l = 0; l < GM_PIPE_WARP_LANES; l++) {
        float z = w->frag_coord[2][l] * 16.0f;
        w->color[0].f[0][l] = w->in[slot][0][l];
        w->color[0].f[1][l] = w->in[slot][1][l] * 0.5f + (w->front_facing ? 0.5f : 0.0f);
        w->color[0].f[2][l] = z - floorf(z);
        w->color[0].f[3][l] = 1.0f;
    }
    return 0;
}

typedef struct stats { long cases, cases_differ, pixels, cov_diff, compared, within1; } stats;

static void compare(const uint8_t *drv, const gm_surface *ms, stats *st, long *cov, long *off)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            const uint8_t *a = drv + ((size_t)y * W + x) * 4;
            const uint8_t *b = gm_surface_texel(ms, x, y, 0);
            st->pixels++;
            if ((a[3] != 0) != (b[3] != 0)) {
                st->cov_diff++;
                (*cov)++;
                if (getenv("GM_VERBOSE_PX") && *cov < 4)
                    fprintf(stderr, "  px %d,%d coverage: driver %d\n", x, y, a[3] != 0);
                continue;
            }
            if (!a[3]) continue;
            st->compared++;
            int md = 0;
            for (int c = 0; c < 2; c++) {
                int dd = abs((int)a[c] - (int)b[c]);
                if (dd > md) md = dd;
            }
            /* depth in blue: fract() of 16 z wraps, allow 2/255 and the wrap */
            int dz = abs((int)a[2] - (int)b[2]);
            if (dz > 2 && dz < 253) md = md > 2 ? md : 2;
            if (md <= 1) st->within1++;
            else {
                (*off)++;
                if (getenv("GM_VERBOSE_PX") && *off < 4)
                    fprintf(stderr, "  px %d,%d driver %d %d %d model %d %d %d\n", x, y, a[0], a[1],
                            a[2], b[0], b[1], b[2]);
            }
        }
}

#define NMODES 10
static const uint32_t modes[NMODES] = {GL_TRIANGLES, GL_TRIANGLE_STRIP, GL_TRIANGLE_FAN,
                                       GL_QUADS, GL_QUAD_STRIP, GL_POLYGON,
                                       GL_LINES, GL_LINE_STRIP, GL_LINE_LOOP, GL_POINTS};
static const char *mode_names[NMODES] = {"triangles", "tri strip", "tri fan", "quads", "quad strip",
                                         "polygon", "lines", "line strip", "line loop", "points"};
static const uint32_t fills[3] = {GL_FILL, GL_LINE, GL_POINT};

static void random_case(unsigned *seed, draw_case *d, int k)
{
    memset(d, 0, sizeof(*d));
    int mi = k % NMODES;
    d->mode = modes[mi];
    static const int counts[NMODES] = {6, 6, 6, 8, 8, 7, 6, 5, 5, 6};
    d->n = counts[mi] + (int)(gm_test_rand(seed) % 3u) * (mi == 3 ? 4 : mi == 4 ? 2 : 1);
    if (d->n > MAXV) d->n = MAXV;
    /* polygons and quads as convex shapes around a centre (some crossing the frustum),
     * the rest random */
    float cx = gm_test_randf(seed, 0.0f, W), cy = gm_test_randf(seed, 0.0f, H);
    float r = gm_test_randf(seed, 4.0f, 60.0f);
    float a0 = gm_test_randf(seed, 0.0f, 6.283f);
    bool clip_z = gm_test_rand(seed) % 5u == 0;
    for (int i = 0; i < d->n; i++) {
        float x, y;
        if (mi == 5 || mi == 3) {
            int j = mi == 3 ? i % 4 : i, nn = mi == 3 ? 4 : d->n;
            float ang = a0 + 6.283f * (float)j / (float)nn;
            float rr = r * gm_test_randf(seed, 0.7f, 1.0f);
            float ox = mi == 3 ? (float)(i / 4) * gm_test_randf(seed, -20.0f, 20.0f) : 0.0f;
            x = cx + ox + rr * cosf(ang);
            y = cy + rr * sinf(ang);
        } else {
            x = gm_test_randf(seed, -10.0f, W + 10.0f);
            y = gm_test_randf(seed, -10.0f, H + 10.0f);
        }
        if (gm_test_rand(seed) % 2u) { x = floorf(x) + 0.5f; y = floorf(y) + 0.5f; }
        vert *v = &d->v[i];
        v->pos[0] = x / W * 2.0f - 1.0f;
        v->pos[1] = y / H * 2.0f - 1.0f;
        v->pos[2] = clip_z ? gm_test_randf(seed, -1.6f, 1.6f) : gm_test_randf(seed, -0.9f, 0.9f);
        v->pos[3] = 1.0f;
        for (int c = 0; c < 3; c++) v->col[c] = gm_test_randf(seed, 0.0f, 1.0f);
        v->col[3] = 1.0f;
        d->ef[i] = gm_test_rand(seed) % 4u != 0;
    }
    if (gm_test_rand(seed) % 3u == 0)
        for (int i = 0; i < d->n; i++) d->ef[i] = 1;
    d->front_mode = fills[gm_test_rand(seed) % 3u];
    d->back_mode = fills[gm_test_rand(seed) % 3u];
    static const uint32_t culls[4] = {0, 0, GL_FRONT, GL_BACK};
    d->cull = culls[gm_test_rand(seed) % 4u];
    d->front_face = gm_test_rand(seed) % 2u ? GL_CCW : GL_CW;
    d->first_vertex = gm_test_rand(seed) % 2u;
    d->flat = gm_test_rand(seed) % 2u;
    d->line_width = (float)(1 + gm_test_rand(seed) % 3u);
    d->point_size = (float)(1 + gm_test_rand(seed) % 4u);
    d->offset_line = gm_test_rand(seed) % 3u == 0;
    d->offset_point = gm_test_rand(seed) % 3u == 0;
    d->offset_fill = gm_test_rand(seed) % 3u == 0;
    d->factor = gm_test_randf(seed, -2.0f, 2.0f);
    d->units = gm_test_randf(seed, -40000.0f, 40000.0f);
    d->stipple = gm_test_rand(seed) % 2u == 0;
    d->stipple_factor = 1 + (int)(gm_test_rand(seed) % 3u);
    d->stipple_pattern = (uint16_t)gm_test_rand(seed);
    d->pstipple = gm_test_rand(seed) % 3u == 0;
    d->sprite = gm_test_rand(seed) % 3u == 0;
    if (d->sprite)   /* fractional sizes only mean something to quad points */
        d->point_size += gm_test_randf(seed, 0.0f, 1.0f);
    for (int i = 0; i < 128; i++)
        d->pstipple_bytes[i] = (uint8_t)gm_test_rand(seed);
}

/* the driver's line stipple counter carries over from draw to draw (one GL context) */
static float stipple_carry;

static int run(bool pbuffer, EGLDisplay dpy, EGLContext ectx, EGLSurface surf, stats *per_mode)
{
    if (!eglMakeCurrent(dpy, surf, surf, ectx))
        return -1;
    if (!pbuffer) {
        GLuint fbo, rb;
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glGenRenderbuffers(1, &rb);
        glBindRenderbuffer(GL_RENDERBUFFER, rb);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, W, H);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
        /* a depth buffer gives polygon offset units their meaning (depth test stays off) */
        GLuint db;
        glGenRenderbuffers(1, &db);
        glBindRenderbuffer(GL_RENDERBUFFER, db);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH24_STENCIL8, W, H);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_STENCIL_ATTACHMENT, GL_RENDERBUFFER, db);
        if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            return -1;
    }
    GLuint prog = glCreateProgram();
    glAttachShader(prog, compile(GL_VERTEX_SHADER, vs_src));
    glAttachShader(prog, compile(GL_FRAGMENT_SHADER, fs_src));
    glBindAttribLocation(prog, 0, "p");
    glBindAttribLocation(prog, 1, "c");
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) return -1;
    glUseProgram(prog);
    GLint flat_loc = glGetUniformLocation(prog, "flat_mode");
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glViewport(0, 0, W, H);

    gm_surface ms, ds;
    gm_surface_alloc(&ms, GM_FMT_RGBA8, W, H, 1, 1);
    gm_surface_alloc(&ds, GM_FMT_D24S8, W, H, 1, 1);
    uint8_t *drv = malloc((size_t)W * H * 4);
    unsigned seed = pbuffer ? 777u : 4321u;
    for (int k = 0; k < NCASE; k++) {
        draw_case d;
        random_case(&seed, &d, k);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glBufferData(GL_ARRAY_BUFFER, sizeof(vert) * (size_t)d.n, d.v, GL_STREAM_DRAW);
        glVertexAttribPointer(0, 4, GL_FLOAT, GL_FALSE, sizeof(vert), (void *)0);
        glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(vert), (void *)16);
        glEnableVertexAttribArray(0);
        glEnableVertexAttribArray(1);
        /* edge flags from client memory (legacy programs' usual source) */
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glEdgeFlagPointer(1, d.ef);
        glEnableClientState(GL_EDGE_FLAG_ARRAY);
        glUniform1i(flat_loc, d.flat);
        glPolygonMode(GL_FRONT, d.front_mode);
        glPolygonMode(GL_BACK, d.back_mode);
        if (d.cull) { glEnable(GL_CULL_FACE); glCullFace(d.cull); } else glDisable(GL_CULL_FACE);
        glFrontFace(d.front_face);
        glProvokingVertex(d.first_vertex ? GL_FIRST_VERTEX_CONVENTION : GL_LAST_VERTEX_CONVENTION);
        glLineWidth(d.line_width);
        glPointSize(d.point_size);
        (d.sprite ? glEnable : glDisable)(GL_POINT_SPRITE);
        (d.offset_line ? glEnable : glDisable)(GL_POLYGON_OFFSET_LINE);
        (d.offset_point ? glEnable : glDisable)(GL_POLYGON_OFFSET_POINT);
        (d.offset_fill ? glEnable : glDisable)(GL_POLYGON_OFFSET_FILL);
        glPolygonOffset(d.factor, d.units);
        (d.stipple ? glEnable : glDisable)(GL_LINE_STIPPLE);
        glLineStipple(d.stipple_factor, d.stipple_pattern);
        (d.pstipple ? glEnable : glDisable)(GL_POLYGON_STIPPLE);
        glPolygonStipple(d.pstipple_bytes);
        glClearColor(0, 0, 0, 0);
        glClear(GL_COLOR_BUFFER_BIT);
        glDrawArrays(d.mode, 0, d.n);
        glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, drv);

        memset(ms.data, 0, ms.layer_stride);
        gm_pipe_context ctx;
        memset(&ctx, 0, sizeof(ctx));
        gm_pipe_state_default(&ctx.state, W, H);
        gm_pipe_state *st = &ctx.state;
        st->polygon_mode = d.front_mode;
        st->polygon_mode_back = d.back_mode;
        st->cull_face = d.cull;
        st->front_face = d.front_face;
        st->flatshade_first = d.first_vertex;
        st->line_width = d.line_width;
        st->point_size = d.point_size;
        st->legacy_points = !d.sprite;   /* compatibility context: GL 2.1 rules unless sprites */
        st->polygon_offset_line = d.offset_line;
        st->polygon_offset_point = d.offset_point;
        st->polygon_offset_fill = d.offset_fill;
        st->offset_factor = d.factor;
        st->offset_units = d.units;
        st->line_stipple = d.stipple;
        st->line_stipple_factor = d.stipple_factor;
        st->line_stipple_pattern = d.stipple_pattern;
        st->polygon_stipple = d.pstipple;
        for (int r = 0; r < 32; r++)
            st->polygon_stipple_rows[r] = (uint32_t)d.pstipple_bytes[4 * r] << 24 |
                                          (uint32_t)d.pstipple_bytes[4 * r + 1] << 16 |
                                          (uint32_t)d.pstipple_bytes[4 * r + 2] << 8 |
                                          d.pstipple_bytes[4 * r + 3];
        ctx.fb.width = W; ctx.fb.height = H;
        ctx.fb.color[0] = &ms;
        ctx.fb.depth = ctx.fb.stencil = &ds;
        ctx.fb.winsys_orientation = pbuffer;
        ctx.info.num_varyings = 2;
        ctx.info.interp[0] = GM_INTERP_SMOOTH;
        ctx.info.interp[1] = GM_INTERP_FLAT;
        ctx.vs = m_vs; ctx.vs_user = &d;
        ctx.fs = m_fs; ctx.fs_user = &d;
        ctx.line_stipple_counter = stipple_carry;
        gm_pipe_draw dr = {d.mode, 0, d.n, NULL, 0, 0, 1, 0};
        if (gm_pipe_draw_exec(&ctx, &dr) != 0) {
            fprintf(stderr, "model draw failed: %s\n", ctx.error);
            return -1;
        }
        stipple_carry = ctx.line_stipple_counter;
        if (getenv("GM_CASE") && atoi(getenv("GM_CASE")) == k) {
            /* coverage map: '#' both, 'd' driver only, 'm' model only (top row first) */
            for (int y = H - 1; y >= 0; y--) {
                for (int x = 0; x < W; x++) {
                    bool a = drv[((size_t)y * W + x) * 4 + 3] != 0;
                    bool b = gm_surface_texel(&ms, x, y, 0)[3] != 0;
                    fputc(a && b ? '#' : a ? 'd' : b ? 'm' : '.', stderr);
                }
                fputc('\n', stderr);
            }
            for (int i = 0; i < d.n; i++)
                fprintf(stderr, "v%d %.2f %.2f %.2f ef %d\n", i, (d.v[i].pos[0] + 1) * W / 2,
                        (d.v[i].pos[1] + 1) * H / 2, d.v[i].pos[2], d.ef[i]);
        }
        stats *s = &per_mode[k % NMODES];
        long cov = 0, off = 0;
        compare(drv, &ms, s, &cov, &off);
        s->cases++;
        if (cov || off) {
            s->cases_differ++;
            if (getenv("GM_VERBOSE"))
                fprintf(stderr, "%s case %d %s n=%d front %#x back %#x cull %#x ff %#x pv-first %d "
                        "flat %d lw %.0f ps %.0f off l%d p%d f%d: %ld coverage, %ld colour\n",
                        pbuffer ? "pbuffer" : "fbo", k, mode_names[k % NMODES], d.n, d.front_mode,
                        d.back_mode, d.cull, d.front_face, d.first_vertex, d.flat,
                        d.line_width, d.point_size, d.offset_line, d.offset_point,
                        d.offset_fill, cov, off);
        }
    }
    glDisableClientState(GL_EDGE_FLAG_ARRAY);
    gm_surface_free(&ms);
    gm_surface_free(&ds);
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
                      EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_DEPTH_SIZE, 24, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig cfg;
    EGLint ncfg = 0;
    eglChooseConfig(dpy, cattr, &cfg, 1, &ncfg);
    EGLint ctxattr[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2,
                        EGL_CONTEXT_OPENGL_PROFILE_MASK,
                        EGL_CONTEXT_OPENGL_COMPATIBILITY_PROFILE_BIT, EGL_NONE};
    EGLContext ectx = eglCreateContext(dpy, ncfg ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
    if (ectx == EGL_NO_CONTEXT) {
        fprintf(stderr, "cannot create a GL 3.2 compatibility context: skipping\n");
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
    stats fbo[NMODES] = {{0}}, pb[NMODES] = {{0}};
    if (run(false, dpy, ectx, EGL_NO_SURFACE, fbo) != 0) {
        fprintf(stderr, "FBO run failed\n");
        return 1;
    }
    bool have_pb = false;
    if (ncfg) {
        EGLint pattr[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
        EGLSurface s = eglCreatePbufferSurface(dpy, cfg, pattr);
        if (s != EGL_NO_SURFACE) {
            if (run(true, dpy, ectx, s, pb) != 0) {
                fprintf(stderr, "pbuffer run failed\n");
                return 1;
            }
            have_pb = true;
        }
    }
    long px = 0, bad = 0, cases = 0, cdiff = 0;
    double agree_o[2] = {100.0, 100.0};
    for (int o = 0; o < (have_pb ? 2 : 1); o++) {
        long opx = 0, obad = 0;
        for (int m = 0; m < NMODES; m++) {
            stats *s = o ? &pb[m] : &fbo[m];
            long b = s->cov_diff + (s->compared - s->within1);
            printf("%s %-10s: %ld of %ld cases differ; %ld of %ld px differ (%ld coverage)\n",
                   o ? "pbuffer" : "fbo    ", mode_names[m], s->cases_differ, s->cases, b,
                   s->pixels, s->cov_diff);
            px += s->pixels; bad += b; cases += s->cases; cdiff += s->cases_differ;
            opx += s->pixels; obad += b;
        }
        agree_o[o] = 100.0 * (double)(opx - obad) / (double)opx;
    }
    double agree = 100.0 * (double)(px - bad) / (double)px;
    printf("TOTAL: %ld of %ld cases differ; pixels agree %.5f%% (%ld of %ld differ); FBO %.5f%%, "
           "pbuffer %.5f%%\n", cdiff, cases, agree, bad, px, agree_o[0], agree_o[1]);
    /* FBO: 99.997% (a few draws mixing filled and line/point faces under polygon stipple
     * differ);
     * pbuffer (window-system orientation): single end pixels of lines (DESIGN.md) */
    CHECK(agree_o[0] >= 99.99);
    CHECK(agree_o[1] >= 99.9);
    TEST_DONE();
}
