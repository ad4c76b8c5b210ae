/* bench_alu: throughput of the SIMT executor on an ALU-heavy fragment-like shader.
 * Prints warp instructions/s and lane instructions/s on one thread (not a test: it
 * asserts nothing about time). Usage: bench_alu [warps] [--llvmpipe ROUNDS]
 *
 * With --llvmpipe, the same fragment shader also runs on llvmpipe (EGL surfaceless,
 * LP_NUM_THREADS=0: one thread, like the model here) over the same number of fragments, the two
 * alternating for ROUNDS rounds, each timed in process CPU seconds. llvmpipe's work is counted in
 * the model's units: the model's lane-instructions per fragment times the fragments it shaded.
 * Its time also covers rasterising, interpolating and writing the pixels, so a third run with a
 * pass-through shader over the same fragments is timed as well; subtracting it gives the
 * shader's own time (the ratio against that is the stricter one). Exit status 1 when a row of
 * llvmpipe's pixels disagrees with the model's outputs, 77 without llvmpipe. */
#include "gpu_model.h"

#include <epoxy/egl.h>
#include <epoxy/gl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *shader_body =
    "layout(location=0) in vec2 uv;\n"
    "layout(location=0) out vec4 o;\n"
    "uniform float time;\n"
    "void main() {\n"
    "  vec3 c = vec3(uv, 0.5);\n"
    "  for (int i = 0; i < 16; i++) {\n"
    "    c = fract(c * 1.7 + vec3(0.13, 0.27, 0.41) * time);\n"
    "    c = c * c * (3.0 - 2.0 * c);\n"
    "    float d = dot(c, vec3(0.3, 0.59, 0.11));\n"
    "    c = mix(c, vec3(d), 0.25) + c.zxy * 0.1;\n"
    "  }\n"
    "  o = vec4(c, 1.0);\n"
    "}\n";

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
static double now(void) { return clock_s(CLOCK_MONOTONIC); }
/* CPU time of this process: what a loaded, shared machine distorts least. */
static double cpu_now(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

/* The model's side: one program and one warp, run over `warps` warps of 32 fragments. */
typedef struct model_bench {
    gm_compile_result cr;
    gm_program *p;
    gm_warp *w;
    uint32_t (*uv)[GM_LANES], (*out)[GM_LANES];
} model_bench;

static int model_open(model_bench *m)
{
    static char src_text[2048];
    snprintf(src_text, sizeof src_text, "#version 450\n%s", shader_body);
    gm_shader_source src = {GM_STAGE_FRAGMENT, src_text, "bench.frag"};
    if (gm_compile_program(&src, 1, &m->cr) != 0) {
        fprintf(stderr, "bench_alu: compile failed:\n%s\n", m->cr.log);
        return -1;
    }
    char err[256];
    m->p = gm_program_create(m->cr.shaders[0].spirv, m->cr.shaders[0].word_count, err, sizeof err);
    if (!m->p) {
        fprintf(stderr, "bench_alu: %s\n", err);
        return -1;
    }
    float t = 0.37f;
    gm_program_set_uniform_by_name(m->p, "time", &t, 1);
    m->w = gm_warp_create(m->p, 0);
    m->uv = gm_warp_var_lanes(m->w, gm_program_find_var(m->p, "uv", GM_VAR_INPUT));
    m->out = gm_warp_var_lanes(m->w, gm_program_find_var(m->p, "o", GM_VAR_OUTPUT));
    if (!m->uv || !m->out) {
        fprintf(stderr, "bench_alu: interface not found\n");
        return -1;
    }
    return 0;
}

static void model_close(model_bench *m)
{
    gm_warp_destroy(m->w);
    gm_program_destroy(m->p);
    gm_compile_result_free(&m->cr);
}

typedef struct run_figures {
    uint64_t warp_instr, lane_instr;
    double wall_s, cpu_s;
    float checksum;
} run_figures;

static int model_run(model_bench *m, long warps, run_figures *r)
{
    memset(r, 0, sizeof *r);
    double t0 = now(), c0 = cpu_now();
    for (long i = 0; i < warps; i++) {
        for (int l = 0; l < GM_LANES; l++) {
            float x = (float)(i % 640) / 640.0f + (float)l / 4096.0f, y = (float)(i / 640) / 480.0f;
            memcpy(&m->uv[0][l], &x, 4);
            memcpy(&m->uv[1][l], &y, 4);
        }
        gm_warp_begin(m->w, 0xffffffffu, 0);
        if (gm_warp_run(m->w, 0) != GM_RUN_DONE) {
            fprintf(stderr, "bench_alu: %s\n", gm_warp_error(m->w));
            return -1;
        }
        r->warp_instr += gm_warp_issued(m->w);
        r->lane_instr += gm_warp_lane_instructions(m->w);
        float f;
        memcpy(&f, &m->out[0][i & 31], 4);
        r->checksum += f;
    }
    r->wall_s = now() - t0;
    r->cpu_s = cpu_now() - c0;
    return 0;
}

/* llvmpipe's side: the bench shader and a pass-through one drawn over a 640x480 target. */
enum { LP_W = 640, LP_H = 480 };
typedef struct lp_bench {
    EGLDisplay dpy;
    GLuint prog[2]; /* 0: the bench shader, 1: pass-through */
    GLint time_loc;
} lp_bench;

static GLuint lp_shader(GLenum type, const char *text)
{
    GLuint sh = glCreateShader(type);
    glShaderSource(sh, 1, &text, NULL);
    glCompileShader(sh);
    GLint ok = 0;
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024];
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        fprintf(stderr, "bench_alu: llvmpipe shader: %s\n", log);
        return 0;
    }
    return sh;
}

static GLuint lp_program(const char *frag_body)
{
    static const char *vs = "#version 450\n"
                            "layout(location=0) out vec2 uv;\n"
                            "void main() {\n" /* one triangle covering the viewport */
                            "  vec2 p = vec2(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0);\n"
                            "  uv = p * 0.5 + 0.5;\n"
                            "  gl_Position = vec4(p, 0.0, 1.0);\n"
                            "}\n";
    char fs[2048];
    snprintf(fs, sizeof fs, "#version 450\n%s", frag_body);
    GLuint v = lp_shader(GL_VERTEX_SHADER, vs), f = lp_shader(GL_FRAGMENT_SHADER, fs);
    if (!v || !f)
        return 0;
    GLuint p = glCreateProgram();
    glAttachShader(p, v);
    glAttachShader(p, f);
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    return ok ? p : 0;
}

static int lp_open(lp_bench *b)
{
    setenv("LP_NUM_THREADS", "0", 1); /* one thread, as the model runs here */
    b->dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (b->dpy == EGL_NO_DISPLAY || !eglInitialize(b->dpy, NULL, NULL)) {
        fprintf(stderr, "bench_alu: no EGL surfaceless display\n");
        return -1;
    }
    eglBindAPI(EGL_OPENGL_API);
    EGLint attr[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                     EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
    EGLContext ctx = eglCreateContext(b->dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(b->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "bench_alu: no GL 4.5 core context\n");
        return -1;
    }
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    if (!renderer || !strstr(renderer, "llvmpipe")) {
        fprintf(stderr, "bench_alu: the renderer is %s, not llvmpipe\n", renderer ? renderer : "?");
        return -1;
    }
    GLuint fbo, rb, vao;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, LP_W, LP_H);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, LP_W, LP_H);
    b->prog[0] = lp_program(shader_body);
    b->prog[1] = lp_program("layout(location=0) in vec2 uv;\n"
                            "layout(location=0) out vec4 o;\n"
                            "void main() { o = vec4(uv, 0.5, 1.0); }\n");
    if (!b->prog[0] || !b->prog[1] ||
        glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
        fprintf(stderr, "bench_alu: llvmpipe set-up failed\n");
        return -1;
    }
    b->time_loc = glGetUniformLocation(b->prog[0], "time");
    for (int k = 0; k < 2; k++) { /* compile both now, not in the first timed draw */
        glUseProgram(b->prog[k]);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glFinish();
    return 0;
}

/* Draws the whole target `draws` times with program k; CPU seconds. */
static double lp_run(lp_bench *b, int k, long draws)
{
    glUseProgram(b->prog[k]);
    double c0 = cpu_now();
    for (long d = 0; d < draws; d++) {
        if (k == 0)
            glUniform1f(b->time_loc, 0.37f + (float)d * 1e-3f);
        glDrawArrays(GL_TRIANGLES, 0, 3);
    }
    glFinish();
    return cpu_now() - c0;
}

/* Proof that llvmpipe ran the shader: one row of 32 pixels read back against the model's
 * outputs for the same inputs (uv at the pixel centres, time 0.37 in both), as 8-bit
 * unorm with one step of tolerance. Returns the pixels that agree. */
static int lp_agree(lp_bench *b, model_bench *m)
{
    enum { ROW = LP_H / 2 };
    uint8_t px[GM_LANES][4];
    lp_run(b, 0, 1);
    glReadPixels(0, ROW, GM_LANES, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    for (int l = 0; l < GM_LANES; l++) {
        float x = ((float)l + 0.5f) / LP_W, y = ((float)ROW + 0.5f) / LP_H;
        memcpy(&m->uv[0][l], &x, 4);
        memcpy(&m->uv[1][l], &y, 4);
    }
    gm_warp_begin(m->w, 0xffffffffu, 0);
    int ok = gm_warp_run(m->w, 0) == GM_RUN_DONE, agree = 0;
    for (int l = 0; ok && l < GM_LANES; l++) {
        int same = 1;
        for (int k = 0; k < 4; k++) {
            float f;
            memcpy(&f, &m->out[k][l], 4);
            float c = f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f;
            int v = (int)(c * 255.0f + 0.5f);
            same &= abs(v - px[l][k]) <= 1;
        }
        agree += same;
    }
    return agree;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ROUNDS rounds of model / llvmpipe / llvmpipe pass-through over the same fragments. */
static int side_by_side(model_bench *m, long warps, int rounds)
{
    lp_bench b;
    if (lp_open(&b) != 0)
        return 77; /* no llvmpipe here: a test skips */
    const long draws = (warps * GM_LANES + LP_W * LP_H - 1) / (LP_W * LP_H);
    const double frags = (double)draws * LP_W * LP_H;
    double model_g[64], lp_g[64], lp_shader_g[64], ratio[64], ratio_shader[64];
    if (rounds > 64)
        rounds = 64;
    printf("bench_alu --llvmpipe: model %ld warps (%ld fragments), llvmpipe %ld draws of %dx%d "
           "(%.0f fragments), %d rounds; G = 1e9 model lane-instructions per CPU second\n",
           warps, warps * GM_LANES, draws, LP_W, LP_H, frags, rounds);
    for (int r = 0; r < rounds; r++) {
        run_figures f;
        if (model_run(m, warps, &f) != 0)
            return 1;
        const double per_frag = (double)f.lane_instr / ((double)warps * GM_LANES);
        double lp_s = lp_run(&b, 0, draws), pass_s = lp_run(&b, 1, draws);
        model_g[r] = (double)f.lane_instr / f.cpu_s / 1e9;
        lp_g[r] = per_frag * frags / lp_s / 1e9;
        lp_shader_g[r] = lp_s > pass_s ? per_frag * frags / (lp_s - pass_s) / 1e9 : 0.0;
        ratio[r] = lp_g[r] / model_g[r];
        ratio_shader[r] = lp_shader_g[r] / model_g[r];
        printf("round %d: model %.3f CPU s = %.2f G; llvmpipe %.3f CPU s = %.2f G (%.2fx), "
               "pass-through %.3f s, shader alone %.2f G (%.2fx)\n",
               r + 1, f.cpu_s, model_g[r], lp_s, lp_g[r], ratio[r], pass_s, lp_shader_g[r],
               ratio_shader[r]);
        fflush(stdout);
    }
    const int agree = lp_agree(&b, m);
    printf("llvmpipe ran the shader: %d of %d pixels of a row agree with the model's outputs\n",
           agree, GM_LANES);
    printf("median: model %.2f G, llvmpipe %.2f G, shader alone %.2f G; llvmpipe / model: "
           "%.2fx, shader alone %.2fx (medians of the per-round ratios)\n",
           median(model_g, rounds), median(lp_g, rounds), median(lp_shader_g, rounds),
           median(ratio, rounds), median(ratio_shader, rounds));
    return agree == GM_LANES ? 0 : 1; /* a figure for a shader llvmpipe did not run is void */
}

int main(int argc, char **argv)
{
    long warps = 20000;
    int rounds = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--llvmpipe") && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else
            warps = atol(argv[i]);
    }
    if (warps <= 0 || warps > 100000000L) {
        fprintf(stderr, "bench_alu: bad warp count\n");
        return 2;
    }
    model_bench m;
    if (model_open(&m) != 0)
        return 1;
    int rc = 0;
    if (rounds > 0) {
        rc = side_by_side(&m, warps, rounds);
    } else {
        run_figures f;
        if (model_run(&m, warps, &f) != 0)
            return 1;
        printf("bench_alu: %ld warps (%ld fragments), %llu warp instructions, %.1f instructions/warp\n",
               warps, warps * GM_LANES, (unsigned long long)f.warp_instr,
               (double)f.warp_instr / (double)warps);
        printf("bench_alu: %.3f s, %.1f M warp-instructions/s, %.1f M lane-instructions/s (checksum %g)\n",
               f.wall_s, (double)f.warp_instr / f.wall_s / 1e6, (double)f.lane_instr / f.wall_s / 1e6,
               (double)f.checksum);
        printf("bench_alu: %.3f CPU s, %.1f M lane-instructions per CPU second\n", f.cpu_s,
               f.cpu_s > 0 ? (double)f.lane_instr / f.cpu_s / 1e6 : 0.0);
    }
    model_close(&m);
    return rc;
}
