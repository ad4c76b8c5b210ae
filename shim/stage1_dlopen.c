/* dlopen interposition, stage 1's part: a program (or GLFW, libepoxy, SDL, glad) that dlopen()s a
 * GL library gets a handle to the shim, so dlsym() through it finds the trampolines; stage 2
 * (dlopen_hook.c) does that redirection, loaded on the first such dlopen.
 *
 * glibc's dlopen looks at its caller's address to apply the caller's RUNPATH/RPATH and $ORIGIN. So
 * for every library that is not a GL library, the exported dlopen is an assembly stub that jumps
 * straight to the real dlopen, leaving the program's return address in place: the program sees
 * exactly what it would see without the shim, and stage 2 is not loaded for it.
 */
#include <stdbool.h>
#include "shim/stage_abi.h"

#define S1_HIDDEN __attribute__((visibility("hidden")))
typedef void *(*dlopen_fn)(const char *, int);
S1_HIDDEN dlopen_fn glr_s1_resolve_dlopen(void);
S1_HIDDEN const struct glr_stage2 *glr_s1_stage2(void);
S1_HIDDEN bool glr_s1_is_gl_library(const char *file); /* stage1_gl_library.c */

/* Called by the stub: non-zero when stage 2 handles this call. Resolves the real dlopen. */
S1_HIDDEN int glr_s1_dlopen_wants(const char *file)
{
    glr_s1_resolve_dlopen();
    if (!glr_s1_is_gl_library(file))
        return 0;
    const struct glr_stage2 *s2 = glr_s1_stage2();
    return s2 && s2->dlopen_wants(file);
}

/* Only after glr_s1_dlopen_wants said yes: stage 2 is there. */
S1_HIDDEN void *glr_s1_dlopen_gl(const char *file, int flags)
{
    return glr_s1_stage2()->dlopen_gl(file, flags);
}

/* void *dlopen(const char *file, int flags) */
__asm__(
    ".text\n"
    ".hidden glr_s1_dlopen_wants\n"
    ".hidden glr_s1_dlopen_gl\n"
    ".hidden glr_s1_next_dlopen\n"
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
    "    call glr_s1_dlopen_wants\n"
    "    add $8, %rsp\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    pop %rsi\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    pop %rdi\n"
    "    .cfi_adjust_cfa_offset -8\n"
    "    test %eax, %eax\n"
    "    jnz glr_s1_dlopen_gl\n"
    "    jmp *glr_s1_next_dlopen(%rip)\n"
    "    .cfi_endproc\n"
    ".size dlopen, .-dlopen\n");
