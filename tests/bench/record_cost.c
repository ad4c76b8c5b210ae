/* record_cost: a frame loop of cheap GL calls, to measure what recording costs the program,
 * everything included: the record inside each call, the reference image at each swap and the
 * capture file written when the capture ends (issue 17 §3; tests/bench/run_record_cost.py runs it
 * natively, under the shim idle and recording, and under apitrace).
 *
 * A GL 3.3 core context on an EGL pbuffer (EGL surfaceless platform: no X server), so the program
 * swaps and frames end as in a windowed program. GL is called through the linked libOpenGL (what an
 * LD_PRELOAD interposer replaces). Each frame: a clear, --calls cheap state calls (glUniform4f,
 * glBindTexture, glBindVertexArray in turn), one draw, eglSwapBuffers.
 *
 * Output ("key=value" tokens):
 *   record_cost frames=F calls_per_frame=N width=W height=H
 *   record_cost_result loop_ns=T max_frame_ns=M median_frame_ns=D max_frame=K loop_cpu_ns=C
 * loop_ns: CLOCK_MONOTONIC time of the whole frame loop on the program's thread; max_frame_ns the
 * slowest frame (a capture's end shows here when its file is written on the program's thread);
 * loop_cpu_ns: the CPU time of the program's thread in the loop (CLOCK_THREAD_CPUTIME_ID: what
 * recording costs the program's own thread, without the capture writer's).
 *
 * --inapp-begin F PATH: after frame F's swap, glreplay_capture_begin(PATH) (the shim's in-app API,
 * found with dlsym; tests/capture/check_back_to_back.py): a second capture right after the one
 * GLREPLAY_CAPTURE_FRAMES ended. Prints "record_cost_inapp begin_ns=T rc=R".
 * --second-thread F: after frame F's swap, a second thread creates a context of its own, makes it
 * current without a surface, makes a few GL calls and destroys it (a second recording thread in
 * the middle of a capture whose stream is already being handed to the writer:
 * tests/capture/check_long_capture.py).
 * --upload BYTES: each frame also uploads BYTES bytes (glBufferSubData; the second thread a
 * glBufferData of as many) and reads 16 of them back (glGetBufferSubData, which replay --verify
 * compares): records larger than the recorder's 64 KiB move limit, which keep a padded tag
 * (shim/recorder.c), in the streamed blocks and in the merge of two threads' streams. */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#define GL_GLEXT_PROTOTYPES 1
#include <GL/glcorearb.h>

static double thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static long arg_long(const char *name, const char *v, long lo, long hi)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || *end || n < lo || n > hi) {
        fprintf(stderr, "record_cost: %s wants an integer in [%ld, %ld], got '%s'\n", name, lo, hi, v);
        exit(2);
    }
    return n;
}

struct second {
    EGLDisplay dpy;
    EGLConfig cfg;
    long upload;
    int ok;
};

/* BYTES bytes that differ with `seed`, uploaded to the bound GL_COPY_WRITE_BUFFER at offset 0 (or
 * as its whole store), then 16 of them read back. */
static int upload_and_read(long bytes, unsigned seed, int whole)
{
    uint8_t *data = malloc((size_t)bytes);
    if (!data)
        return 0;
    for (long i = 0; i < bytes; i++)
        data[i] = (uint8_t)(i * 31 + seed * 7 + (i >> 9));
    if (whole)
        glBufferData(GL_COPY_WRITE_BUFFER, bytes, data, GL_STREAM_DRAW);
    else
        glBufferSubData(GL_COPY_WRITE_BUFFER, 0, bytes, data);
    uint8_t back[16];
    glGetBufferSubData(GL_COPY_WRITE_BUFFER, bytes - 16, 16, back);
    int ok = memcmp(back, data + bytes - 16, 16) == 0;
    free(data);
    return ok;
}

static void *second_thread(void *p)
{
    struct second *s = p;
    static const EGLint attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                      EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    if (!eglBindAPI(EGL_OPENGL_API))   /* the bound API is per thread */
        return NULL;
    EGLContext c = eglCreateContext(s->dpy, s->cfg, EGL_NO_CONTEXT, attribs);
    if (c == EGL_NO_CONTEXT || !eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, c))
        return NULL;
    GLuint t;
    glGenTextures(1, &t);
    glBindTexture(GL_TEXTURE_2D, t);
    glDeleteTextures(1, &t);
    if (s->upload) {
        GLuint b;
        glGenBuffers(1, &b);
        glBindBuffer(GL_COPY_WRITE_BUFFER, b);
        int ok = upload_and_read(s->upload, 99, 1);
        glDeleteBuffers(1, &b);
        if (!ok)
            return NULL;
    }
    glFinish();
    eglMakeCurrent(s->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(s->dpy, c);
    s->ok = 1;
    return NULL;
}

static GLuint compile(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    return ok ? s : 0;
}

int main(int argc, char **argv)
{
    long frames = 30, calls = 20000, width = 640, height = 360, inapp_frame = -1, second_frame = -1, upload = 0;
    const char *inapp_path = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc) {
            fprintf(stderr, "usage: record_cost [--frames F] [--calls N] [--size WxH] [--upload BYTES] [--second-thread F] [--inapp-begin F PATH]\n");
            return 2;
        }
        if (strcmp(argv[i], "--frames") == 0) {
            frames = arg_long("--frames", argv[++i], 1, 100000);
        } else if (strcmp(argv[i], "--calls") == 0) {
            calls = arg_long("--calls", argv[++i], 3, 100000000);
        } else if (strcmp(argv[i], "--inapp-begin") == 0 && i + 2 < argc) {
            inapp_frame = arg_long("--inapp-begin", argv[++i], 0, 100000);
            inapp_path = argv[++i];
        } else if (strcmp(argv[i], "--upload") == 0) {
            upload = arg_long("--upload", argv[++i], 16, 256L << 20);
        } else if (strcmp(argv[i], "--second-thread") == 0) {
            second_frame = arg_long("--second-thread", argv[++i], 0, 100000);
        } else if (strcmp(argv[i], "--size") == 0) {
            if (sscanf(argv[++i], "%ldx%ld", &width, &height) != 2 || width < 1 || height < 1 || width > 4096 ||
                height > 4096) {
                fprintf(stderr, "record_cost: --size wants WxH up to 4096x4096\n");
                return 2;
            }
        } else {
            fprintf(stderr, "record_cost: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    EGLint major, minor, n = 0;
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, &major, &minor) || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "record_cost: no EGL surfaceless display (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }
    static const EGLint cfg_attribs[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                                          EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    /* Exactly RGBA8: eglChooseConfig lists deeper configs (10-bit) first. */
    EGLConfig cfgs[256], cfg = NULL;
    eglChooseConfig(dpy, cfg_attribs, cfgs, 256, &n);
    for (EGLint i = 0; i < n && !cfg; i++) {
        EGLint r = 0, a = 0;
        eglGetConfigAttrib(dpy, cfgs[i], EGL_RED_SIZE, &r);
        eglGetConfigAttrib(dpy, cfgs[i], EGL_ALPHA_SIZE, &a);
        if (r == 8 && a == 8)
            cfg = cfgs[i];
    }
    if (!cfg) {
        fprintf(stderr, "record_cost: no RGBA8 pbuffer config for desktop OpenGL\n");
        return 1;
    }
    const EGLint pb_attribs[] = { EGL_WIDTH, (EGLint)width, EGL_HEIGHT, (EGLint)height, EGL_NONE };
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attribs);
    static const EGLint ctx_attribs[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                          EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                          EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attribs);
    if (surf == EGL_NO_SURFACE || ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "record_cost: pbuffer or GL 3.3 core context failed (0x%x)\n", (unsigned)eglGetError());
        return 1;
    }
    GLuint v = compile(GL_VERTEX_SHADER, "#version 330 core\nuniform vec4 u;\nout vec4 c;\n"
                                         "void main() { c = u; gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1)"
                                         " * 1.5 - 0.75, 0.0, 1.0); }\n");
    GLuint f = compile(GL_FRAGMENT_SHADER, "#version 330 core\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n");
    GLuint prog = glCreateProgram();
    if (!v || !f) {
        fprintf(stderr, "record_cost: shader compile failed\n");
        return 1;
    }
    glAttachShader(prog, v);
    glAttachShader(prog, f);
    glLinkProgram(prog);
    glUseProgram(prog);
    GLint loc = glGetUniformLocation(prog, "u");
    GLuint tex[2], vao[2];
    glGenTextures(2, tex);
    glGenVertexArrays(2, vao);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    }
    glViewport(0, 0, (GLsizei)width, (GLsizei)height);
    GLuint upbuf = 0;
    if (upload) {
        glGenBuffers(1, &upbuf);
        glBindBuffer(GL_COPY_WRITE_BUFFER, upbuf);
        glBufferData(GL_COPY_WRITE_BUFFER, upload, NULL, GL_STREAM_DRAW);
    }
    double *frame_ns = calloc((size_t)frames, sizeof *frame_ns);
    if (!frame_ns || loc < 0) {
        fprintf(stderr, "record_cost: setup failed\n");
        return 1;
    }
    double t0 = now_ns(), c0 = thread_cpu_ns();
    for (long fr = 0; fr < frames; fr++) {
        double fs = now_ns();
        glClearColor((float)(fr % 6) / 5.0f, 0.2f, 0.4f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        for (long i = 0; i < calls; i += 3) {
            glUniform4f(loc, (float)i, 0.5f, 0.25f, 1.0f);
            glBindTexture(GL_TEXTURE_2D, tex[i & 1]);
            glBindVertexArray(vao[(i >> 1) & 1]);
        }
        /* Colours that are exact in 8 bits (k/5): the replay is compared bit for bit. */
        glUniform4f(loc, 0.8f, (float)(fr % 5) / 5.0f, 0.2f, 1.0f);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        if (upload && !upload_and_read(upload, (unsigned)fr, 0)) {
            fprintf(stderr, "record_cost: the upload did not read back\n");
            return 1;
        }
        eglSwapBuffers(dpy, surf);
        if (fr == inapp_frame) {
            int (*begin)(const char *) = (int (*)(const char *))dlsym(RTLD_DEFAULT, "glreplay_capture_begin");
            double bs = now_ns();
            int rc = begin ? begin(inapp_path) : -2;
            printf("record_cost_inapp begin_ns=%.0f rc=%d\n", now_ns() - bs, rc);
        }
        if (fr == second_frame) {
            struct second s = { dpy, cfg, upload, 0 };
            pthread_t t;
            if (pthread_create(&t, NULL, second_thread, &s) != 0 || pthread_join(t, NULL) != 0 || !s.ok) {
                fprintf(stderr, "record_cost: the second thread's context failed\n");
                return 1;
            }
        }
        frame_ns[fr] = now_ns() - fs;
    }
    double loop = now_ns() - t0, loop_cpu = thread_cpu_ns() - c0;
    long worst = 0;
    for (long i = 1; i < frames; i++)
        if (frame_ns[i] > frame_ns[worst])
            worst = i;
    double max_ns = frame_ns[worst];
    qsort(frame_ns, (size_t)frames, sizeof *frame_ns, cmp_double);
    printf("record_cost frames=%ld calls_per_frame=%ld width=%ld height=%ld\n", frames, (calls + 2) / 3 * 3 + 3,
           width, height);
    printf("record_cost_result loop_ns=%.0f max_frame_ns=%.0f median_frame_ns=%.0f max_frame=%ld loop_cpu_ns=%.0f\n",
           loop, max_ns, frame_ns[frames / 2], worst, loop_cpu);
    free(frame_ns);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    return 0;
}
