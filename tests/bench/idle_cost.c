/* idle_cost: times cheap GL state calls, to measure what an interposer (the glreplay shim, apitrace)
 * adds to each call when it is idle.
 *
 * A GL 3.3 core context on EGL surfaceless (no X, no surface). GL is called DIRECTLY through the
 * symbols of the linked libOpenGL (a PLT call): that is exactly what an LD_PRELOAD library
 * interposes. A loader such as libepoxy would add its own indirection and hide the difference.
 *
 * Output: one line per fact, "key=value" tokens (values with spaces double-quoted), e.g.
 *   idle_cost renderer="llvmpipe (LLVM 15.0.6, 256 bits)" version="4.5 (Core Profile) Mesa 22.3.6"
 *   idle_cost resolved=glUniform4f library="/usr/lib/x86_64-linux-gnu/libOpenGL.so.0"
 *   idle_cost_result call=glUniform4f calls=5000000 reps=3 ns_per_call=24.512 best_slice_ns=21.870
 *   idle_cost_done
 * Each loop is timed with CLOCK_MONOTONIC. ns_per_call: the best of --reps repetitions of the whole
 * loop. best_slice_ns: the fastest 10k-call slice of all repetitions (the least disturbed by other
 * processes on a shared machine; lower than ns_per_call when the machine is busy).
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include "idle_cost.h"

struct options {
    double calls_millions;
    int reps;
};

static void usage(FILE *f)
{
    fprintf(f, "usage: idle_cost [--calls MILLIONS] [--reps R]\n"
               "  --calls MILLIONS  calls per loop and call type, in millions (default 5; > 0)\n"
               "  --reps R          timed repetitions per loop, best kept (default 3; 1..1000)\n");
}

static int parse_args(int argc, char **argv, struct options *o)
{
    o->calls_millions = 5.0;
    o->reps = 3;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            exit(0);
        }
        if ((strcmp(a, "--calls") == 0 || strcmp(a, "--reps") == 0) && i + 1 >= argc) {
            fprintf(stderr, "idle_cost: %s needs a value\n", a);
            return -1;
        }
        if (strcmp(a, "--calls") == 0) {
            char *end;
            errno = 0;
            double v = strtod(argv[++i], &end);
            if (errno || *end || !(v > 0.0) || v > 10000.0) {
                fprintf(stderr, "idle_cost: --calls wants a number of millions in (0, 10000], got '%s'\n", argv[i]);
                return -1;
            }
            o->calls_millions = v;
        } else if (strcmp(a, "--reps") == 0) {
            char *end;
            errno = 0;
            long v = strtol(argv[++i], &end, 10);
            if (errno || *end || v < 1 || v > 1000) {
                fprintf(stderr, "idle_cost: --reps wants an integer in [1, 1000], got '%s'\n", argv[i]);
                return -1;
            }
            o->reps = (int)v;
        } else {
            fprintf(stderr, "idle_cost: unknown argument '%s'\n", a);
            usage(stderr);
            return -1;
        }
    }
    return 0;
}

/* A GL 3.3 core context current on no surface (EGL_KHR_surfaceless_context). */
static int make_context(void)
{
    EGLDisplay dpy = EGL_NO_DISPLAY;
    const char *client_exts = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    if (client_exts && strstr(client_exts, "EGL_MESA_platform_surfaceless"))
        dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY) {
        /* No platform-display route: Mesa honours EGL_PLATFORM for the default display. */
        setenv("EGL_PLATFORM", "surfaceless", 0);
        dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    }
    EGLint major, minor;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor)) {
        fprintf(stderr, "idle_cost: no EGL surfaceless display (EGL error 0x%x)\n", (unsigned)eglGetError());
        return -1;
    }
    if (!eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "idle_cost: eglBindAPI(EGL_OPENGL_API) failed (0x%x)\n", (unsigned)eglGetError());
        return -1;
    }
    static const EGLint cfg_attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, 0, EGL_NONE };
    EGLConfig cfg = NULL;
    EGLint n = 0;
    /* Surfaceless needs no config at all when EGL_KHR_no_config_context is there. */
    const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
    int no_config = exts && strstr(exts, "EGL_KHR_no_config_context");
    if (!no_config && (!eglChooseConfig(dpy, cfg_attribs, &cfg, 1, &n) || n < 1)) {
        fprintf(stderr, "idle_cost: no EGL config for desktop OpenGL\n");
        return -1;
    }
    static const EGLint ctx_attribs[] = {
        EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, no_config ? EGL_NO_CONFIG_KHR : cfg, EGL_NO_CONTEXT, ctx_attribs);
    if (ctx == EGL_NO_CONTEXT) {
        fprintf(stderr, "idle_cost: eglCreateContext (GL 3.3 core) failed (0x%x)\n", (unsigned)eglGetError());
        return -1;
    }
    if (!eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        fprintf(stderr, "idle_cost: eglMakeCurrent without a surface failed (0x%x)\n", (unsigned)eglGetError());
        return -1;
    }
    return 0;
}

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[1024] = "";
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        fprintf(stderr, "idle_cost: shader compile failed: %s\n", log);
        return 0;
    }
    return s;
}

static int make_scene(struct scene *s)
{
    static const char *vs = "#version 330 core\n"
                            "uniform vec4 u_color;\n"
                            "out vec4 v_color;\n"
                            "void main() { v_color = u_color; gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n";
    static const char *fs = "#version 330 core\n"
                            "in vec4 v_color;\n"
                            "out vec4 o_color;\n"
                            "void main() { o_color = v_color; }\n";
    GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
    if (!v || !f)
        return -1;
    GLuint prog = glCreateProgram();
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    GLint ok = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        fprintf(stderr, "idle_cost: program link failed\n");
        return -1;
    }
    glUseProgram(prog);
    s->loc = glGetUniformLocation(prog, "u_color");
    if (s->loc < 0) {
        fprintf(stderr, "idle_cost: uniform u_color has no location\n");
        return -1;
    }
    glGenTextures(2, s->tex);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, s->tex[i]);
        const unsigned char texel[4] = { 255, (unsigned char)(i * 255), 0, 255 };
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, texel);
    }
    glGenVertexArrays(2, s->vao);
    for (int i = 0; i < 2; i++)
        glBindVertexArray(s->vao[i]);
    GLenum err = glGetError();
    if (err != GL_NO_ERROR) {
        fprintf(stderr, "idle_cost: GL error 0x%x while setting up\n", err);
        return -1;
    }
    return 0;
}

double idle_cost_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The loops. Values change every call (alternating objects, a moving uniform) so no layer can skip
 * a call as redundant. Each returns the number of GL calls it made. */
static long loop_uniform(const struct scene *s, long n)
{
    for (long i = 0; i < n; i++)
        glUniform4f(s->loc, (float)(i & 255), 0.5f, 0.25f, 1.0f);
    return n;
}

static long loop_bind_texture(const struct scene *s, long n)
{
    for (long i = 0; i < n; i++)
        glBindTexture(GL_TEXTURE_2D, s->tex[i & 1]);
    return n;
}

static long loop_bind_vertex_array(const struct scene *s, long n)
{
    for (long i = 0; i < n; i++)
        glBindVertexArray(s->vao[i & 1]);
    return n;
}

/* The three calls in turn, as a program's draw setup makes them; n calls in all. */
static long loop_mixed(const struct scene *s, long n)
{
    long iters = n / 3;
    for (long i = 0; i < iters; i++) {
        glBindVertexArray(s->vao[i & 1]);
        glBindTexture(GL_TEXTURE_2D, s->tex[i & 1]);
        glUniform4f(s->loc, (float)(i & 255), 0.5f, 0.25f, 1.0f);
    }
    return iters * 3;
}

struct bench {
    const char *name;
    long (*run)(const struct scene *, long);
};

static const struct bench benches[] = {
    { "glUniform4f", loop_uniform },
    { "glBindTexture", loop_bind_texture },
    { "glBindVertexArray", loop_bind_vertex_array },
    { "mixed", loop_mixed },
};

int main(int argc, char **argv)
{
    struct options o;
    if (parse_args(argc, argv, &o) != 0)
        return 2;
    if (make_context() != 0)
        return 1;
    struct scene s;
    if (make_scene(&s) != 0)
        return 1;
    printf("idle_cost renderer=\"%s\" version=\"%s\"\n", (const char *)glGetString(GL_RENDERER),
           (const char *)glGetString(GL_VERSION));

    /* Which library this program's glUniform4f binds to: proves who sits in the call path. */
    Dl_info info;
    void (*uniform_fn)(GLint, GLfloat, GLfloat, GLfloat, GLfloat) = glUniform4f;
    void *fn;
    memcpy(&fn, &uniform_fn, sizeof fn); /* function to object pointer, as dladdr wants */
    const char *lib = dladdr(fn, &info) && info.dli_fname ? info.dli_fname : "?";
    printf("idle_cost resolved=glUniform4f library=\"%s\"\n", lib);

    long n = (long)(o.calls_millions * 1e6 + 0.5);
    if (n < 3)
        n = 3; /* the mixed loop needs one iteration */
    for (size_t b = 0; b < sizeof benches / sizeof benches[0]; b++) {
        benches[b].run(&s, n / 10 + 3); /* warm-up: caches, lazy resolution in interposers */
        double best_rep = -1.0, best_slice = -1.0;
        long made = 0;
        for (int r = 0; r < o.reps; r++) {
            /* A repetition is timed whole and in slices shorter than a scheduler time slice: on a
             * shared machine the fastest slice is the cost of the calls with nobody else running. */
            double rep_ns = 0.0;
            made = 0;
            for (long done = 0; done < n; done += SLICE_CALLS) {
                long want = n - done < SLICE_CALLS ? n - done : SLICE_CALLS;
                if (want < 3)
                    want = 3;
                double t0 = idle_cost_now_ns();
                long got = benches[b].run(&s, want);
                double t = idle_cost_now_ns() - t0;
                rep_ns += t;
                made += got;
                if (want == SLICE_CALLS && (best_slice < 0.0 || t / (double)got < best_slice))
                    best_slice = t / (double)got;
            }
            double per_call = rep_ns / (double)made;
            if (best_rep < 0.0 || per_call < best_rep)
                best_rep = per_call;
        }
        if (best_slice < 0.0)
            best_slice = best_rep; /* loops shorter than one slice */
        GLenum err = glGetError();
        if (err != GL_NO_ERROR) {
            fprintf(stderr, "idle_cost: GL error 0x%x in the %s loop\n", err, benches[b].name);
            return 1;
        }
        printf("idle_cost_result call=%s calls=%ld reps=%d ns_per_call=%.3f best_slice_ns=%.3f\n",
               benches[b].name, made, o.reps, best_rep, best_slice);
        fflush(stdout);
    }
    if (idle_cost_paired(&s, n, o.reps) != 0)
        return 1;
    printf("idle_cost_done\n");
    return 0;
}
