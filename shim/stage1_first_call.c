/* The trampolines' common first-call path (stage 1, shim/stage_abi.h): a generated trampoline
 * whose table is not there yet jumps here with its command id in %r11. The arguments of the program's call are still in their registers: they are saved, stage
 * 2 is loaded (glr_s1_resolve), and the call continues in the wrapper it returned as if the
 * program had called it directly (same stack, same return address).
 *
 * Saved: the integer argument registers, %rax (vector-register count of a variadic call) and the
 * eight vector argument registers (GL takes float and double arguments there; no GL, GLX or EGL
 * function takes 256-bit vectors). Arguments on the stack stay where they are.
 */

__asm__(
    ".text\n"
    ".hidden glr_s1_first_call\n"
    ".hidden glr_s1_resolve\n"
    ".globl glr_s1_first_call\n"
    ".type glr_s1_first_call, @function\n"
    ".p2align 4\n"
    "glr_s1_first_call:\n"
    "    .cfi_startproc\n"
    "    pushq %rbp\n"
    "    .cfi_adjust_cfa_offset 8\n"
    "    .cfi_rel_offset %rbp, 0\n"
    "    movq %rsp, %rbp\n"
    "    .cfi_def_cfa_register %rbp\n"
    /* Entry %rsp is 8 mod 16 (a call's return address); after %rbp and eight more pushes and
     * 128 bytes it is 0 mod 16, as the call below needs. */
    "    pushq %rdi\n"
    "    pushq %rsi\n"
    "    pushq %rdx\n"
    "    pushq %rcx\n"
    "    pushq %r8\n"
    "    pushq %r9\n"
    "    pushq %rax\n"
    "    pushq %r11\n"
    "    subq $128, %rsp\n"
    "    movdqu %xmm0, 0(%rsp)\n"
    "    movdqu %xmm1, 16(%rsp)\n"
    "    movdqu %xmm2, 32(%rsp)\n"
    "    movdqu %xmm3, 48(%rsp)\n"
    "    movdqu %xmm4, 64(%rsp)\n"
    "    movdqu %xmm5, 80(%rsp)\n"
    "    movdqu %xmm6, 96(%rsp)\n"
    "    movdqu %xmm7, 112(%rsp)\n"
    "    movl %r11d, %edi\n"
    "    call glr_s1_resolve\n"
    "    movq %rax, %r10\n"
    "    movdqu 0(%rsp), %xmm0\n"
    "    movdqu 16(%rsp), %xmm1\n"
    "    movdqu 32(%rsp), %xmm2\n"
    "    movdqu 48(%rsp), %xmm3\n"
    "    movdqu 64(%rsp), %xmm4\n"
    "    movdqu 80(%rsp), %xmm5\n"
    "    movdqu 96(%rsp), %xmm6\n"
    "    movdqu 112(%rsp), %xmm7\n"
    "    addq $128, %rsp\n"
    "    popq %r11\n"
    "    popq %rax\n"
    "    popq %r9\n"
    "    popq %r8\n"
    "    popq %rcx\n"
    "    popq %rdx\n"
    "    popq %rsi\n"
    "    popq %rdi\n"
    "    popq %rbp\n"
    "    .cfi_def_cfa %rsp, 8\n"
    "    .cfi_restore %rbp\n"
    "    jmp *%r10\n"
    "    .cfi_endproc\n"
    ".size glr_s1_first_call, .-glr_s1_first_call\n");
