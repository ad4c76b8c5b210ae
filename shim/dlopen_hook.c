/* dlopen interposition: a program (or GLFW, libepoxy, SDL, glad) that dlopen()s a GL library gets a
 * handle to the shim, so dlsym() through it finds the wrappers.
 *
 * glibc's dlopen looks at its caller's address to apply the caller's RUNPATH/RPATH and $ORIGIN. So
 * for every library that is not a GL library, the exported dlopen is an assembly stub that jumps
 * straight to the real dlopen, leaving the program's return address in place: the program sees
 * exactly what it would see without the shim. Only GL library names go through C code.
 */
#include <dlfcn.h>
#include <string.h>
#include "shim/shim_internal.h"

typedef void *(*dlopen_fn)(const char *, int);
GLR_HIDDEN dlopen_fn glr_next_dlopen;

static void resolve_next_dlopen(void)
{
    if (!glr_next_dlopen) {
        void *p = dlsym(RTLD_NEXT, "dlopen");
        memcpy(&glr_next_dlopen, &p, sizeof p);
    }
}

void *glr_real_dlopen(const char *file, int flags)
{
    resolve_next_dlopen();
    return glr_next_dlopen(file, flags);
}

static bool has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* libGL.so*, libGLX.so*, libOpenGL.so*, libEGL.so*, libGLESv2.so*, libGLESv1_CM.so* (any dir). */
static bool is_gl_library(const char *file)
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

/* Called by the stub: non-zero when the C path must handle this call. Resolves the real dlopen. */
GLR_HIDDEN int glr_dlopen_wants(const char *file)
{
    resolve_next_dlopen();
    glr_shim_init();
    return !glr_disabled && is_gl_library(file);
}

static void *shim_handle(void)
{
    Dl_info info;
    if (!dladdr((void *)glr_dlopen_wants, &info) || !info.dli_fname)
        return NULL;
    return glr_next_dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
}

GLR_HIDDEN void *glr_dlopen_gl(const char *file, int flags)
{
    void *real = glr_next_dlopen(file, flags);
    if (!real)
        return NULL; /* same failure (and dlerror text) as without the shim, e.g. RTLD_NOLOAD */
    glr_remember_gl_library(real);
    void *self = shim_handle();
    if (!self) {
        glr_log(GLR_LOG_ERROR, "dlopen(%s): cannot get the shim's own handle; GL calls through this handle are not intercepted", file);
        return real;
    }
    glr_log(GLR_LOG_DEBUG, "dlopen(%s) redirected to the shim", file);
    return self;
}

/* void *dlopen(const char *file, int flags) */
__asm__(
    ".text\n"
    ".globl dlopen\n"
    ".type dlopen, @function\n"
    "dlopen:\n"
    "    .cfi_startproc\n"
    "    push %rdi\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    push %rsi\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    sub $8, %rsp\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    call glr_dlopen_wants\n"
    "    add $8, %rsp\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    pop %rsi\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    pop %rdi\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    test %eax, %eax\n"
    "    jnz glr_dlopen_gl\n"
    "    jmp *glr_next_dlopen(%rip)\n"
    "    .cfi_endproc\n"
    ".size dlopen, .-dlopen\n");
