/* Special operand values for the executor's bit-identity tests (test_exec_fast: pre-decoded form
 * against the general path; compile/tests/test_native: compiled runs against the interpreter):
 * NaNs of different payloads and signs, infinities, signed zeros, denormals, the largest float,
 * values at the 2^23 and 2^32 boundaries; integers INT_MIN, INT_MAX, -1, ... */
#ifndef GM_SPECIAL_VALUES_H
#define GM_SPECIAL_VALUES_H

#include "gpu_model.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The inputs the tests' fragment shaders read: a and b special floats, i and j special integers
 * (gm_fill_special), and a uniform u. */
#define GM_SPECIAL_INPUTS                                                                    \
    "#version 450\n"                                                                         \
    "layout(location=0) in vec4 a;\n"                                                        \
    "layout(location=1) in vec4 b;\n"                                                        \
    "layout(location=2) flat in ivec4 i;\n"                                                  \
    "layout(location=3) flat in ivec4 j;\n"                                                  \
    "uniform vec4 u;\n"

static const uint32_t gm_fspecial[] = {
    0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
    0x7fc00000u, 0xffc00001u, 0x7fc00005u, 0x00000001u, 0x807fffffu, 0x7f7fffffu, 0x3eaaaaabu,
    0xc0490fdbu, 0x4b000001u, 0xcb7fffffu, 0x1e3ce508u, 0x5f000000u, 0x40400000u, 0x4f800000u};
static const uint32_t gm_ispecial[] = {
    0u, 1u, 0xffffffffu, 0x80000000u, 0x7fffffffu, 7u, 0xfffffff9u, 0x10000u, 3u, 0xdeadbeefu, 31u,
    0x80000001u, 0x01000001u};

/* The special values into four vec4/ivec4 inputs (a, b float; i, j int), in a pattern seed varies;
 * seed 2 pairs each float with the next one, so two NaNs of different payloads meet in one
 * operation (x86 returns the first operand's). */
static inline void gm_fill_special(uint32_t (*in[4])[GM_LANES], int seed)
{
    const int nf = (int)(sizeof gm_fspecial / sizeof gm_fspecial[0]);
    const int ni = (int)(sizeof gm_ispecial / sizeof gm_ispecial[0]);
    for (int k = 0; k < 4; k++)
        for (int l = 0; l < GM_LANES; l++) {
            int t = seed + l * 4 + k;
            in[0][k][l] = gm_fspecial[t % nf];
            in[1][k][l] = gm_fspecial[(seed == 2 ? t + 1 : t * 7 + 3) % nf];
            in[2][k][l] = gm_ispecial[t % ni];
            in[3][k][l] = gm_ispecial[(t * 5 + 2) % ni];
        }
}

/* Runs the warp once with the lanes of mask active and copies the 4 output words of its 32 lanes
 * (o) into out; -1 (and the error) when it did not finish. */
static inline int gm_run_special(gm_warp *w, gm_mask mask, uint32_t (*o)[GM_LANES], uint32_t out[4][GM_LANES])
{
    gm_warp_begin(w, mask, 0);
    if (gm_warp_run(w, 0) != GM_RUN_DONE) {
        fprintf(stderr, "run: %s\n", gm_warp_error(w));
        return -1;
    }
    memcpy(out, o, 4 * sizeof out[0]);
    return 0;
}

/* The fragment shader `src` (named `name`; `expr` names it in messages) compiled and turned into
 * a program; NULL, with the reason on stderr and cr freed, when either step fails. */
static inline gm_program *gm_special_program(const char *src, const char *name, const char *expr,
                                             gm_compile_result *cr)
{
    gm_shader_source s = {GM_STAGE_FRAGMENT, src, name};
    if (gm_compile_program(&s, 1, cr) != 0) {
        fprintf(stderr, "%s: compile failed:\n%s\n", expr, cr->log);
        return NULL;
    }
    char err[256];
    gm_program *p = gm_program_create(cr->shaders[0].spirv, cr->shaders[0].word_count, err, sizeof err);
    if (!p) {
        fprintf(stderr, "%s: %s\n", expr, err);
        gm_compile_result_free(cr);
    }
    return p;
}

#endif
