/* frametime.so: a test-only LD_PRELOAD library that makes a program's animation deterministic and
 * dumps its back buffer at chosen frames, so two runs (with and without libglreplay.so) can be
 * compared byte for byte.
 *
 * 1. Time. clock_gettime, gettimeofday and time answer a virtual clock when they are called from
 *    the main executable: it starts at a fixed value and advances FRAMETIME_STEP_US (default
 *    10000) per swap. Calls from libraries (the driver's threads, libX11, ...) see the real clock,
 *    so nothing inside the driver can spin forever on a frozen clock.
 * 2. Dumps. Right before glXSwapBuffers / eglSwapBuffers forwards, if the frame about to end is
 *    listed in FRAMETIME_DUMP_FRAMES ("0,5,9"), the current context's back buffer is read with
 *    glReadPixels and written to FRAMETIME_DUMP_DIR/frame_NNNN.pam (RGBA, top row first). Frame N
 *    ends with the (N+1)-th swap of the process, as in the shim's numbering.
 *
 * Placement: LD_PRELOAD="libglreplay.so frametime.so" (the shim sees exactly the program's calls,
 * frametime sits between the shim and the driver) or LD_PRELOAD=frametime.so alone. Everything
 * frametime calls is the driver's own function (RTLD_NEXT, i.e. after frametime), never the
 * shim's. To see swaps that programs resolve through dlopen("libGL.so.1") + dlsym (glmark2,
 * GLFW), frametime redirects dlopen of the GL libraries to its own handle; frametime links libGL
 * and libEGL, so dlsym through that handle finds frametime's swap and GetProcAddress functions
 * first and the driver's functions for every other name. Its dlopen calls the real dlopen
 * (dlsym(RTLD_NEXT, "dlopen")): the shim interposes dlopen too and comes before frametime.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <EGL/egl.h>
#include <GL/gl.h>
#include <GL/glx.h>
#include "registry/glr_gl_enums.h"   /* the back buffer read's enums (core since GL 3.0) */

#define FT_MAX_DUMPS 64
/* Virtual clock origin: non-zero so that programs that treat 0 as "unset" behave normally. */
#define FT_START_NS (1000ull * 1000000000ull)
#define FT_EPOCH_S 1700000000ull

static uint64_t step_ns = 10000000ull;
static unsigned long swaps; /* atomically incremented at every swap */
static int dump_frames[FT_MAX_DUMPS];
static int n_dump_frames;
static const char *dump_dir = ".";
static uintptr_t main_lo, main_hi; /* address range of the main executable's segments */

typedef void *(*dlopen_fn)(const char *, int);
typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);
typedef int (*gettimeofday_fn)(struct timeval *, void *);
typedef time_t (*time_fn)(time_t *);

/* ---- resolving the next (real) definition ---- */

static void *next_sym(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p)
        fprintf(stderr, "frametime: %s not found after frametime.so\n", name);
    return p;
}

/* Function pointers are converted through memcpy: ISO C has no object-to-function conversion. */
#define NEXT(type, name)                                                                          \
    ({                                                                                            \
        static type fn_;                                                                          \
        if (!fn_) {                                                                               \
            void *p_ = next_sym(name);                                                            \
            memcpy(&fn_, &p_, sizeof p_);                                                         \
        }                                                                                         \
        fn_;                                                                                      \
    })

static void *real_dlopen(const char *file, int flags)
{
    return NEXT(dlopen_fn, "dlopen")(file, flags);
}

/* ---- the virtual clock ---- */

static int find_main_range(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    /* The first object reported is the main executable. */
    uintptr_t lo = UINTPTR_MAX, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (a < lo)
            lo = a;
        if (a + ph->p_memsz > hi)
            hi = a + ph->p_memsz;
    }
    main_lo = lo;
    main_hi = hi;
    return 1;
}

static bool from_main(const void *ret)
{
    uintptr_t a = (uintptr_t)ret;
    return a >= main_lo && a < main_hi;
}

static uint64_t virtual_ns(void)
{
    return FT_START_NS + __atomic_load_n(&swaps, __ATOMIC_RELAXED) * step_ns;
}

static bool is_virtual_clock(clockid_t id)
{
    switch (id) {
    case CLOCK_REALTIME:
    case CLOCK_MONOTONIC:
    case CLOCK_MONOTONIC_RAW:
    case CLOCK_REALTIME_COARSE:
    case CLOCK_MONOTONIC_COARSE:
    case CLOCK_BOOTTIME:
        return true;
    default:
        return false; /* CPU-time clocks stay real */
    }
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    if (!from_main(__builtin_return_address(0)) || !is_virtual_clock(id))
        return NEXT(clock_gettime_fn, "clock_gettime")(id, ts);
    uint64_t ns = virtual_ns();
    if (id == CLOCK_REALTIME || id == CLOCK_REALTIME_COARSE)
        ns += FT_EPOCH_S * 1000000000ull;
    ts->tv_sec = (time_t)(ns / 1000000000ull);
    ts->tv_nsec = (long)(ns % 1000000000ull);
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    if (!from_main(__builtin_return_address(0)))
        return NEXT(gettimeofday_fn, "gettimeofday")(tv, tz);
    uint64_t us = virtual_ns() / 1000u + FT_EPOCH_S * 1000000ull;
    tv->tv_sec = (time_t)(us / 1000000u);
    tv->tv_usec = (suseconds_t)(us % 1000000u);
    return 0;
}

time_t time(time_t *out)
{
    if (!from_main(__builtin_return_address(0)))
        return NEXT(time_fn, "time")(out);
    time_t t = (time_t)(virtual_ns() / 1000000000ull + FT_EPOCH_S);
    if (out)
        *out = t;
    return t;
}

/* ---- back-buffer dumps ---- */

typedef void (*get_integerv_fn)(GLenum, GLint *);
typedef void (*pixel_storei_fn)(GLenum, GLint);
typedef void (*bind_framebuffer_fn)(GLenum, GLuint);
typedef void (*bind_buffer_fn)(GLenum, GLuint);
typedef void (*read_buffer_fn)(GLenum);
typedef void (*read_pixels_fn)(GLint, GLint, GLsizei, GLsizei, GLenum, GLenum, void *);
typedef const GLubyte *(*get_string_fn)(GLenum);

/* A GL function of the driver: libGL's export when it has one, else the driver's GetProcAddress. */
static void *gl_fn(const char *name)
{
    void *p = dlsym(RTLD_NEXT, name);
    if (!p) {
        __GLXextFuncPtr (*gpa)(const GLubyte *) = NULL;
        void *g = dlsym(RTLD_NEXT, "glXGetProcAddressARB");
        memcpy(&gpa, &g, sizeof g);
        __GLXextFuncPtr f = gpa ? gpa((const GLubyte *)name) : NULL;
        memcpy(&p, &f, sizeof p);
    }
    return p;
}

#define GL(type, name)                                                                            \
    ({                                                                                            \
        static type fn_;                                                                          \
        if (!fn_) {                                                                               \
            void *p_ = gl_fn(name);                                                               \
            memcpy(&fn_, &p_, sizeof p_);                                                         \
        }                                                                                         \
        fn_;                                                                                      \
    })

static bool wants_dump(unsigned long frame)
{
    for (int i = 0; i < n_dump_frames; i++)
        if ((unsigned long)dump_frames[i] == frame)
            return true;
    return false;
}

static void write_pam(unsigned long frame, int w, int h, const unsigned char *rgba)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/frame_%04lu.pam", dump_dir, frame);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "frametime: cannot write %s: %s\n", path, strerror(errno));
        return;
    }
    fprintf(f, "P7\nWIDTH %d\nHEIGHT %d\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", w, h);
    for (int y = h - 1; y >= 0; y--) /* GL rows are bottom-up */
        fwrite(rgba + (size_t)y * (size_t)w * 4u, 4, (size_t)w, f);
    if (fclose(f) != 0)
        fprintf(stderr, "frametime: error writing %s\n", path);
}

/* Reads the back buffer of the current context's window-system framebuffer, leaving every piece
 * of state it touches as it found it (binding, read buffer, pack state), so the program's next
 * commands behave as without frametime. */
static void dump_back_buffer(unsigned long frame, int w, int h)
{
    const GLubyte *version = GL(get_string_fn, "glGetString")(GL_VERSION);
    if (!version || w <= 0 || h <= 0)
        return;
    bool es = strncmp((const char *)version, "OpenGL ES", 9) == 0;
    int major = atoi((const char *)version + (es ? 10 : 0));
    bool gl3 = major >= 3; /* read framebuffer, pack buffers, pack row length */
    get_integerv_fn get = GL(get_integerv_fn, "glGetIntegerv");
    pixel_storei_fn store = GL(pixel_storei_fn, "glPixelStorei");
    GLint fb = 0, pack_buf = 0, read_buf = 0, align = 4, row_len = 0, skip_rows = 0, skip_px = 0;
    get(gl3 ? GL_READ_FRAMEBUFFER_BINDING : GL_FRAMEBUFFER_BINDING, &fb);
    get(GL_PACK_ALIGNMENT, &align);
    if (gl3 || !es) {
        get(GL_READ_BUFFER, &read_buf);
        get(GL_PACK_ROW_LENGTH, &row_len);
        get(GL_PACK_SKIP_ROWS, &skip_rows);
        get(GL_PACK_SKIP_PIXELS, &skip_px);
    }
    if (gl3)
        get(GL_PIXEL_PACK_BUFFER_BINDING, &pack_buf);
    bind_framebuffer_fn bind_fb = GL(bind_framebuffer_fn, "glBindFramebuffer");
    GLenum fb_target = gl3 ? GL_READ_FRAMEBUFFER : GL_FRAMEBUFFER;
    if (fb && bind_fb)
        bind_fb(fb_target, 0);
    if (pack_buf)
        GL(bind_buffer_fn, "glBindBuffer")(GL_PIXEL_PACK_BUFFER, 0);
    if (gl3 || !es) {
        /* GL_BACK on a single-buffered window would raise an error the program could observe. */
        GLint double_buffered = 1;
        if (!es)
            get(GL_DOUBLEBUFFER, &double_buffered);
        GL(read_buffer_fn, "glReadBuffer")(double_buffered ? GL_BACK : GL_FRONT);
        store(GL_PACK_ROW_LENGTH, 0);
        store(GL_PACK_SKIP_ROWS, 0);
        store(GL_PACK_SKIP_PIXELS, 0);
    }
    store(GL_PACK_ALIGNMENT, 1);
    unsigned char *rgba = malloc((size_t)w * (size_t)h * 4u);
    if (rgba) {
        GL(read_pixels_fn, "glReadPixels")(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
        write_pam(frame, w, h, rgba);
        free(rgba);
    } else {
        fprintf(stderr, "frametime: out of memory for a %dx%d dump\n", w, h);
    }
    store(GL_PACK_ALIGNMENT, align);
    if (gl3 || !es) {
        store(GL_PACK_ROW_LENGTH, row_len);
        store(GL_PACK_SKIP_ROWS, skip_rows);
        store(GL_PACK_SKIP_PIXELS, skip_px);
        GL(read_buffer_fn, "glReadBuffer")((GLenum)read_buf);
    }
    if (pack_buf)
        GL(bind_buffer_fn, "glBindBuffer")(GL_PIXEL_PACK_BUFFER, (GLuint)pack_buf);
    if (fb && bind_fb)
        bind_fb(fb_target, (GLuint)fb);
}

/* Called at every swap before it forwards: dumps if asked, then advances the clock. */
static void frame_ends(bool is_current, int w, int h)
{
    unsigned long frame = __atomic_load_n(&swaps, __ATOMIC_RELAXED);
    if (is_current && wants_dump(frame))
        dump_back_buffer(frame, w, h);
    __atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
}

typedef void (*glx_swap_fn)(Display *, GLXDrawable);
typedef GLXDrawable (*glx_get_drawable_fn)(void);
typedef void (*glx_query_drawable_fn)(Display *, GLXDrawable, int, unsigned int *);

void glXSwapBuffers(Display *dpy, GLXDrawable drawable)
{
    bool current = n_dump_frames > 0 && GL(glx_get_drawable_fn, "glXGetCurrentDrawable")() == drawable;
    unsigned w = 0, h = 0;
    if (current) {
        glx_query_drawable_fn query = GL(glx_query_drawable_fn, "glXQueryDrawable");
        query(dpy, drawable, GLX_WIDTH, &w);
        query(dpy, drawable, GLX_HEIGHT, &h);
    }
    frame_ends(current, (int)w, (int)h);
    NEXT(glx_swap_fn, "glXSwapBuffers")(dpy, drawable);
}

typedef EGLBoolean (*egl_swap_fn)(EGLDisplay, EGLSurface);
typedef EGLSurface (*egl_get_surface_fn)(EGLint);
typedef EGLBoolean (*egl_query_surface_fn)(EGLDisplay, EGLSurface, EGLint, EGLint *);

EGLBoolean eglSwapBuffers(EGLDisplay dpy, EGLSurface surface)
{
    bool current = n_dump_frames > 0 && NEXT(egl_get_surface_fn, "eglGetCurrentSurface")(EGL_DRAW) == surface;
    EGLint w = 0, h = 0;
    if (current) {
        egl_query_surface_fn query = NEXT(egl_query_surface_fn, "eglQuerySurface");
        query(dpy, surface, EGL_WIDTH, &w);
        query(dpy, surface, EGL_HEIGHT, &h);
    }
    frame_ends(current, w, h);
    return NEXT(egl_swap_fn, "eglSwapBuffers")(dpy, surface);
}

/* ---- handing out frametime's swaps through GetProcAddress and dlopen/dlsym ---- */

static void (*own_function(const char *name))(void)
{
    if (strcmp(name, "glXSwapBuffers") == 0)
        return (void (*)(void))glXSwapBuffers;
    if (strcmp(name, "eglSwapBuffers") == 0)
        return (void (*)(void))eglSwapBuffers;
    return NULL;
}

typedef __GLXextFuncPtr (*glx_gpa_fn)(const GLubyte *);
typedef __eglMustCastToProperFunctionPointerType (*egl_gpa_fn)(const char *);

__GLXextFuncPtr glXGetProcAddressARB(const GLubyte *name)
{
    void (*own)(void) = name ? own_function((const char *)name) : NULL;
    return own ? own : NEXT(glx_gpa_fn, "glXGetProcAddressARB")(name);
}

void (*glXGetProcAddress(const GLubyte *name))(void)
{
    void (*own)(void) = name ? own_function((const char *)name) : NULL;
    return own ? own : NEXT(glx_gpa_fn, "glXGetProcAddress")(name);
}

__eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *name)
{
    void (*own)(void) = name ? own_function(name) : NULL;
    return own ? own : NEXT(egl_gpa_fn, "eglGetProcAddress")(name);
}

static bool is_gl_library(const char *file)
{
    if (!file)
        return false;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    static const char *const names[] = { "libGL.so", "libGLX.so", "libEGL.so", "libOpenGL.so", "libGLESv2.so" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strncmp(base, names[i], strlen(names[i])) == 0)
            return true;
    return false;
}

void *dlopen(const char *file, int flags)
{
    void *real = real_dlopen(file, flags);
    if (!real || !is_gl_library(file))
        return real;
    Dl_info info;
    if (!dladdr((void *)is_gl_library, &info) || !info.dli_fname)
        return real;
    void *self = real_dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    return self ? self : real;
}

/* ---- configuration ---- */

__attribute__((constructor)) static void frametime_init(void)
{
    dl_iterate_phdr(find_main_range, NULL);
    const char *s = getenv("FRAMETIME_STEP_US");
    if (s && *s) {
        char *end;
        unsigned long long us = strtoull(s, &end, 10);
        if (*end || us == 0 || us > 10000000ull)
            fprintf(stderr, "frametime: FRAMETIME_STEP_US=%s is not 1..10000000; using %llu\n", s,
                    (unsigned long long)(step_ns / 1000u));
        else
            step_ns = us * 1000u;
    }
    const char *list = getenv("FRAMETIME_DUMP_FRAMES");
    for (const char *p = list; p && *p;) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || (*end && *end != ',')) {
            fprintf(stderr, "frametime: bad FRAMETIME_DUMP_FRAMES '%s' (want e.g. 0,5,9)\n", list);
            n_dump_frames = 0;
            break;
        }
        if (n_dump_frames < FT_MAX_DUMPS)
            dump_frames[n_dump_frames++] = (int)v;
        p = *end ? end + 1 : end;
    }
    const char *dir = getenv("FRAMETIME_DUMP_DIR");
    if (dir && *dir)
        dump_dir = dir;
}
