/* Stage 1's knowledge of which libraries are GL libraries (shim/stage_abi.h): the names a
 * program's dlopen is redirected for (stage1_dlopen.c) and, at start, whether the program already
 * has one mapped (stage1_load.c loads stage 2 then, rather than at a first GL call that might come
 * from a signal handler). A leaf: it calls nothing else in stage 1. */
#include <link.h>
#include <stdbool.h>
#include <string.h>

#define S1_HIDDEN __attribute__((visibility("hidden")))

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* libGL.so*, libGLX.so*, libOpenGL.so*, libEGL.so*, libGLESv2.so*, libGLESv1_CM.so* (any dir):
 * the vendor-neutral names a program or toolkit links or dlopens. */
S1_HIDDEN bool glr_s1_is_gl_library(const char *file)
{
    if (!file)
        return false;
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    static const char *const names[] = { "libGL.so", "libGLX.so", "libOpenGL.so", "libEGL.so",
                                          "libGLESv2.so", "libGLESv1_CM.so" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (has_prefix(base, names[i]))
            return true;
    return false;
}

static int stop_at_gl(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    return glr_s1_is_gl_library(info->dlpi_name);
}

/* Whether a GL library is mapped now (at start: one the program links). */
S1_HIDDEN bool glr_s1_gl_library_mapped(void)
{
    return dl_iterate_phdr(stop_at_gl, NULL) != 0;
}
