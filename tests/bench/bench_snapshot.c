/* bench_snapshot: how long the shim's initial-state snapshot takes for a program holding N MiB of
 * live buffers and textures (half each; default 256 MiB).
 *
 *   bench_snapshot SHIM.so [MiB]
 *
 * The parent re-runs this program under SHIM.so with frame 2 captured (GLREPLAY_CAPTURE_FRAMES=2,
 * GLREPLAY_LOG=info) and prints the shim's own "snapshot: ... read in S s" line and the time of the
 * swap that started the capture (which includes the snapshot). The child: a GL 4.5 core context on
 * EGL surfaceless (no X), MiB/2 of buffers (16 MiB each) and MiB/2 of RGBA8 textures (2048x2048,
 * 16 MiB each) filled with non-constant data, then 4 frames. Nothing is asserted; figures go to
 * docs/BENCHMARKS.md. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <epoxy/egl.h>
#include <epoxy/gl.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int child(unsigned mib)
{
    EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) {
        fprintf(stderr, "bench_snapshot: no EGL surfaceless display\n");
        return 1;
    }
    static const EGLint cfg_attrs[] = { EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                        EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attrs, &cfg, 1, &n) || n < 1 || !eglBindAPI(EGL_OPENGL_API)) {
        fprintf(stderr, "bench_snapshot: no desktop GL pbuffer config\n");
        return 1;
    }
    static const EGLint ctx_attrs[] = { EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 5,
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE };
    static const EGLint pb_attrs[] = { EGL_WIDTH, 256, EGL_HEIGHT, 256, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attrs);
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb_attrs);
    if (ctx == EGL_NO_CONTEXT || surf == EGL_NO_SURFACE || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        fprintf(stderr, "bench_snapshot: cannot create a GL 4.5 core context\n");
        return 1;
    }
    const size_t chunk = (size_t)16 << 20;
    unsigned chunks = mib / 16;
    uint32_t *data = malloc(chunk);
    if (!data)
        return 1;
    uint32_t x = 12345;
    for (size_t i = 0; i < chunk / 4; i++) {
        x = x * 1664525u + 1013904223u;
        data[i] = x;
    }
    unsigned nbuf = chunks / 2, ntex = chunks - nbuf;
    GLuint *bufs = calloc(nbuf + 1, sizeof *bufs), *tex = calloc(ntex + 1, sizeof *tex);
    glGenBuffers((GLsizei)nbuf, bufs);
    for (unsigned i = 0; i < nbuf; i++) {
        glBindBuffer(GL_ARRAY_BUFFER, bufs[i]);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)chunk, data, GL_STATIC_DRAW);
    }
    glGenTextures((GLsizei)ntex, tex);
    for (unsigned i = 0; i < ntex; i++) {
        glBindTexture(GL_TEXTURE_2D, tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2048, 2048, 0, GL_RGBA, GL_UNSIGNED_BYTE, data);
    }
    glFinish();
    double dt[4], cpu_snapshot = 0;
    for (unsigned f = 0; f < 4; f++) {
        glClearColor(0.1f * (float)f, 0.2f, 0.3f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        double t0 = now_s(), c0 = thread_cpu_s();
        eglSwapBuffers(dpy, surf);
        dt[f] = now_s() - t0;
        if (f == 1)
            cpu_snapshot = thread_cpu_s() - c0;   /* stable on a loaded machine, unlike the wall time */
    }
    /* The swap ending frame 1 starts the capture of frame 2 (snapshot); the one ending frame 2
     * writes the .glcap (zstd of the contents). */
    printf("bench_snapshot: %u MiB live (%u MiB buffers, %u MiB textures); swap times: frame 0 %.3f s, "
           "frame 1 (snapshot) %.3f s (CPU of the program's thread %.3f s), frame 2 (write) %.3f s, frame 3 %.3f s\n",
           chunks * 16, nbuf * 16, ntex * 16, dt[0], dt[1], cpu_snapshot, dt[2], dt[3]);
    glDeleteBuffers((GLsizei)nbuf, bufs);
    glDeleteTextures((GLsizei)ntex, tex);
    free(bufs);
    free(tex);
    free(data);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglDestroySurface(dpy, surf);
    eglTerminate(dpy);
    return 0;
}

int main(int argc, char **argv)
{
    if (getenv("GLR_BENCH_SNAPSHOT_CHILD"))
        return child(argc > 1 ? (unsigned)atoi(argv[1]) : 256);
    if (argc < 2) {
        fprintf(stderr, "usage: bench_snapshot SHIM.so [MiB]\n");
        return 2;
    }
    unsigned mib = argc > 2 ? (unsigned)atoi(argv[2]) : 256;
    if (mib < 32 || mib > 4096) {
        fprintf(stderr, "bench_snapshot: MiB must be 32..4096\n");
        return 2;
    }
    char out[64], mibs[16];
    snprintf(out, sizeof out, "/tmp/bench_snapshot-%d.glcap", (int)getpid());
    snprintf(mibs, sizeof mibs, "%u", mib);
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        setenv("GLR_BENCH_SNAPSHOT_CHILD", "1", 1);
        setenv("LD_PRELOAD", argv[1], 1);
        setenv("GLREPLAY_CAPTURE_FRAMES", "2", 1);
        setenv("GLREPLAY_CAPTURE_OUT", out, 1);
        setenv("GLREPLAY_LOG", "info", 1);
        setenv("GLREPLAY_CAPTURE_MAX_MB", "8192", 1);
        execl("/proc/self/exe", argv[0], mibs, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *f = fdopen(fds[0], "r");
    char line[1024];
    int found = 0;
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, "snapshot:") || strstr(line, "error")) {
            fputs(line, stdout);
            found += strstr(line, "read in") != NULL;
        }
    int st = 0;
    waitpid(pid, &st, 0);
    unlink(out);
    if (!found || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "bench_snapshot: the run under the shim failed or printed no snapshot time\n");
        return 1;
    }
    return 0;
}
