/* Specialization of an application's SPIR-V module (GL_ARB_gl_spirv): see gm_spirv_spec.h.
 * The decoder runs the first OpEntryPoint and reads OpSpecConstant* as constants with their
 * default values; this pass makes the module say what glSpecializeShader chose, so the decoder
 * needs no notion of either. The input is untrusted: every instruction length and every id
 * is checked against the module before use. */
#include "gm_spirv_spec.h"

#include <spirv/unified1/spirv.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SPEC_MAX_BYTES (64u << 20)   /* far above any real shader; bounds the copies below */

static void fail(char *err, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(char *err, size_t n, const char *fmt, ...)
{
    if (!err || !n)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, n, fmt, ap);
    va_end(ap);
}

static uint32_t bswap32(uint32_t v)
{
    return (v >> 24) | ((v >> 8) & 0xff00u) | ((v << 8) & 0xff0000u) | (v << 24);
}

/* A literal string operand starting at word `at` of an instruction of `len` words equals s. */
static bool literal_is(const uint32_t *w, uint32_t at, uint32_t len, const char *s)
{
    size_t max = (size_t)(len - at) * 4;
    const char *lit = (const char *)(w + at);
    size_t n = strnlen(lit, max);
    return n < max && strcmp(lit, s) == 0;   /* unterminated: not a valid literal */
}

uint32_t *gm_spirv_specialize(const void *bytes, size_t size, const char *entry, uint32_t exec_model,
                              const uint32_t *ids, const uint32_t *values, uint32_t n,
                              size_t *words_out, char *err, size_t err_size)
{
    *words_out = 0;
    if (!bytes || size < 20 || size % 4 || size > SPEC_MAX_BYTES) {
        fail(err, err_size, "SPIR-V binary of %zu bytes (not a whole module of 32-bit words)", size);
        return NULL;
    }
    size_t wc = size / 4;
    uint32_t *w = malloc(size);
    if (!w) {
        fail(err, err_size, "out of memory");
        return NULL;
    }
    memcpy(w, bytes, size);
    if (w[0] == bswap32(SpvMagicNumber))   /* a module in the other byte order (SPIR-V 2.3) */
        for (size_t i = 0; i < wc; i++)
            w[i] = bswap32(w[i]);
    if (w[0] != SpvMagicNumber) {
        fail(err, err_size, "not a SPIR-V module (magic number 0x%08x)", w[0]);
        free(w);
        return NULL;
    }
    uint32_t bound = w[3];
    if (bound == 0 || bound > (1u << 22)) {
        fail(err, err_size, "SPIR-V id bound %u out of range", bound);
        free(w);
        return NULL;
    }
    /* Pass 1: the chosen entry point's function id, and the SpecId of each id. */
    int64_t *spec_of = malloc((size_t)bound * sizeof *spec_of);
    bool *used = calloc(n ? n : 1, sizeof *used);
    if (!spec_of || !used) {
        fail(err, err_size, "out of memory");
        free(spec_of);
        free(used);
        free(w);
        return NULL;
    }
    for (uint32_t i = 0; i < bound; i++)
        spec_of[i] = -1;
    uint32_t entry_fn = 0;
    bool bad = false;
    for (size_t i = 5; i < wc;) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        if (len == 0 || len > wc - i) {
            fail(err, err_size, "SPIR-V instruction at word %zu runs past the end of the module", i);
            bad = true;
            break;
        }
        if (op == SpvOpEntryPoint && len >= 4 && w[i + 1] == exec_model && !entry_fn &&
            literal_is(w + i, 3, len, entry))
            entry_fn = w[i + 2];
        else if (op == SpvOpDecorate && len >= 4 && w[i + 2] == SpvDecorationSpecId && w[i + 1] < bound)
            spec_of[w[i + 1]] = w[i + 3];
        else if (op == SpvOpFunction)
            break;   /* no entry points or decorations past the first function */
        i += len;
    }
    if (!bad && !entry_fn) {
        fail(err, err_size, "entry point \"%s\" for this shader's stage is not in the SPIR-V module", entry);
        bad = true;
    }
    /* Pass 2: rewrite in place, dropping the other entry points and their execution modes. */
    size_t out = 5;
    for (size_t i = 5; !bad && i < wc;) {
        uint32_t op = w[i] & 0xffffu, len = w[i] >> 16;
        if (len == 0 || len > wc - i) {
            fail(err, err_size, "SPIR-V instruction at word %zu runs past the end of the module", i);
            bad = true;
            break;
        }
        bool keep = true;
        if (op == SpvOpEntryPoint)
            keep = len >= 3 && w[i + 2] == entry_fn && w[i + 1] == exec_model;
        else if ((op == SpvOpExecutionMode || op == SpvOpExecutionModeId) && len >= 2)
            keep = w[i + 1] == entry_fn;
        else if ((op == SpvOpSpecConstant || op == SpvOpSpecConstantTrue ||
                  op == SpvOpSpecConstantFalse) && len >= 3 && w[i + 2] < bound &&
                 spec_of[w[i + 2]] >= 0) {
            uint32_t sid = (uint32_t)spec_of[w[i + 2]];
            for (uint32_t k = 0; k < n; k++) {
                if (ids[k] != sid)
                    continue;
                used[k] = true;
                if (op == SpvOpSpecConstant && len >= 4) {
                    w[i + 3] = values[k];
                    if (len >= 5)   /* a 64-bit constant: GL gives 32 bits, the rest is zero */
                        w[i + 4] = 0;
                } else if (op != SpvOpSpecConstant) {
                    w[i] = (len << 16) | (values[k] ? SpvOpSpecConstantTrue : SpvOpSpecConstantFalse);
                }
            }
        }
        if (keep) {
            memmove(w + out, w + i, (size_t)len * 4);
            out += len;
        }
        i += len;
    }
    for (uint32_t k = 0; !bad && k < n; k++)
        if (!used[k]) {
            fail(err, err_size, "specialization constant id %u is not in the SPIR-V module", ids[k]);
            bad = true;
        }
    free(spec_of);
    free(used);
    if (bad) {
        free(w);
        return NULL;
    }
    *words_out = out;
    return w;
}
