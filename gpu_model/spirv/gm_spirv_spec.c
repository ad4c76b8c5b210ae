/* Specialization of an application's SPIR-V module (GL_ARB_gl_spirv): see gm_spirv_spec.h.
 * The decoder runs the first OpEntryPoint and reads OpSpecConstant* as constants with their
 * default values; this pass makes the module say what glSpecializeShader chose, so the decoder
 * needs no notion of either. The input is untrusted: every instruction length and every id
 * is checked against the module before use. */
#include "gm_spirv_spec.h"

#include <spirv/unified1/spirv.h>
#include <stdarg.h>
#include <stdint.h>
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

/* Scalar 32-bit constants known after specialization, for folding OpSpecConstantOp. */
typedef struct {
    uint8_t *type_kind;   /* per type id: 1 bool, 2 int32, 3 uint32, 4 float32 */
    uint8_t *known;       /* per id: value[] holds its constant value */
    uint32_t *value;
    uint32_t bound;
} folder;

/* The value of OpSpecConstantOp `sop` on scalar operands a, b, c (SPIR-V 2.12: the opcodes
 * allowed in shaders); false when not folded (vectors, other opcodes): the decoder then
 * reports the instruction it cannot take. */
static bool fold_op(uint32_t sop, uint32_t a, uint32_t b, uint32_t c, int nops, uint32_t *r)
{
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    if (nops == 1) {
        switch (sop) {
        case SpvOpSNegate: *r = (uint32_t)-(int64_t)sa; return true;
        case SpvOpNot: *r = ~a; return true;
        case SpvOpLogicalNot: *r = !a; return true;
        case SpvOpSConvert: case SpvOpUConvert: *r = a; return true;   /* 32 to 32 bits */
        default: return false;
        }
    }
    if (nops == 3)
        return sop == SpvOpSelect ? (*r = a ? b : c, true) : false;
    if (nops != 2)
        return false;
    switch (sop) {
    case SpvOpIAdd: *r = a + b; return true;
    case SpvOpISub: *r = a - b; return true;
    case SpvOpIMul: *r = a * b; return true;
    case SpvOpUDiv: *r = b ? a / b : 0; return true;
    case SpvOpSDiv: *r = b && !(sa == INT32_MIN && sb == -1) ? (uint32_t)(sa / sb) : 0; return true;
    case SpvOpUMod: *r = b ? a % b : 0; return true;
    case SpvOpSRem: *r = b && sb != -1 ? (uint32_t)(sa % sb) : 0; return true;
    case SpvOpSMod: {
        if (!b || sb == -1) { *r = 0; return true; }
        int32_t m = sa % sb;
        *r = (uint32_t)(m && ((m < 0) != (sb < 0)) ? m + sb : m);
        return true;
    }
    case SpvOpShiftRightLogical: *r = a >> (b & 31); return true;
    case SpvOpShiftRightArithmetic: *r = (uint32_t)(sa >> (b & 31)); return true;
    case SpvOpShiftLeftLogical: *r = a << (b & 31); return true;
    case SpvOpBitwiseOr: *r = a | b; return true;
    case SpvOpBitwiseXor: *r = a ^ b; return true;
    case SpvOpBitwiseAnd: *r = a & b; return true;
    case SpvOpLogicalOr: *r = a || b; return true;
    case SpvOpLogicalAnd: *r = a && b; return true;
    case SpvOpLogicalEqual: *r = !a == !b; return true;
    case SpvOpLogicalNotEqual: *r = !a != !b; return true;
    case SpvOpIEqual: *r = a == b; return true;
    case SpvOpINotEqual: *r = a != b; return true;
    case SpvOpULessThan: *r = a < b; return true;
    case SpvOpSLessThan: *r = sa < sb; return true;
    case SpvOpUGreaterThan: *r = a > b; return true;
    case SpvOpSGreaterThan: *r = sa > sb; return true;
    case SpvOpULessThanEqual: *r = a <= b; return true;
    case SpvOpSLessThanEqual: *r = sa <= sb; return true;
    case SpvOpUGreaterThanEqual: *r = a >= b; return true;
    case SpvOpSGreaterThanEqual: *r = sa >= sb; return true;
    default: return false;
    }
}

/* Records a scalar constant, or rewrites a foldable OpSpecConstantOp at w (len words) into an
 * OpConstant/OpConstantTrue/False in place (never longer). Returns the instruction's new length. */
static uint32_t fold(folder *f, uint32_t *w, uint32_t len)
{
    uint32_t op = w[0] & 0xffffu;
    if ((op == SpvOpTypeBool && len >= 2) || ((op == SpvOpTypeInt || op == SpvOpTypeFloat) && len >= 3)) {
        if (w[1] < f->bound && (op == SpvOpTypeBool || w[2] == 32))
            f->type_kind[w[1]] = op == SpvOpTypeBool ? 1 : op == SpvOpTypeFloat ? 4 : len >= 4 && w[3] ? 2 : 3;
        return len;
    }
    if (len < 3 || w[1] >= f->bound || w[2] >= f->bound || !f->type_kind[w[1]])
        return len;
    uint32_t id = w[2];
    switch (op) {
    case SpvOpConstant: case SpvOpSpecConstant:
        if (len == 4) {
            f->known[id] = 1;
            f->value[id] = w[3];
        }
        return len;
    case SpvOpConstantTrue: case SpvOpSpecConstantTrue:
    case SpvOpConstantFalse: case SpvOpSpecConstantFalse:
        f->known[id] = 1;
        f->value[id] = op == SpvOpConstantTrue || op == SpvOpSpecConstantTrue;
        return len;
    case SpvOpSpecConstantOp: {
        if (len < 5 || len > 7)
            return len;
        uint32_t ops[3] = { 0, 0, 0 };
        int n = (int)len - 4;
        for (int k = 0; k < n; k++) {
            if (w[4 + k] >= f->bound || !f->known[w[4 + k]])
                return len;
            ops[k] = f->value[w[4 + k]];
        }
        uint32_t r;
        if (!fold_op(w[3], ops[0], ops[1], ops[2], n, &r))
            return len;
        f->known[id] = 1;
        f->value[id] = r;
        if (f->type_kind[w[1]] == 1) {
            w[0] = (3u << 16) | (r ? SpvOpConstantTrue : SpvOpConstantFalse);
            return 3;
        }
        w[0] = (4u << 16) | SpvOpConstant;
        w[3] = r;
        return 4;
    }
    default:
        return len;
    }
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
    folder f = { calloc(bound, 1), calloc(bound, 1), calloc(bound, sizeof(uint32_t)), bound };
    if (!spec_of || !used || !f.type_kind || !f.known || !f.value) {
        fail(err, err_size, "out of memory");
        free(spec_of);
        free(used);
        free(f.type_kind);
        free(f.known);
        free(f.value);
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
            out += fold(&f, w + out, len);   /* constants after specialization */
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
    free(f.type_kind);
    free(f.known);
    free(f.value);
    if (bad) {
        free(w);
        return NULL;
    }
    *words_out = out;
    return w;
}
