/* GLSL ES mediump/lowp arithmetic at the precision Mesa's llvmpipe computes it.
 *
 * Mesa's GLSL compiler (lower_precision) runs an ES shader's mediump/lowp expression trees in 16
 * bits when the driver offers 16-bit floats and ints, which llvmpipe does (FP16 on CPUs with F16C,
 * INT16 and 16-bit constants always): each operand is converted to 16 bits (f2fmp: float rounded
 * to half; i2imp: int wrapped to its low 16 bits), the operation runs in 16 bits, and the result
 * goes back to 32 bits where a highp value needs it (f2f32; i2i32 sign-extends a signed result,
 * u2u32 zero-extends an unsigned one). Checked on Mesa 22.3.6 llvmpipe with probes (fragment
 * shaders writing RGBA32UI): `mediump int b = a * 3` with a = 40000 gives 0xffffd4c0, uint(b) then
 * 0x0000d4c0; `mediump float g = f * 1.5` with f = 1.2345678 gives 1.8515625 (half-rounded) while
 * a mediump variable assigned from a highp expression keeps all 32 bits (variables stay 32-bit).
 *
 * glslang marks exactly those results with the RelaxedPrecision decoration (GLSL precision
 * propagation: an operation is mediump when its highest-precision operand is). This pass rewrites
 * the SPIR-V so the model computes the same values: for every RelaxedPrecision arithmetic result
 * (list below) of a 32-bit float or int scalar/vector, its operands are narrowed first and the
 * result after (OpQuantizeToF16 for floats; OpBitFieldSExtract / OpBitFieldUExtract (x, 0, 16) for
 * signed / unsigned ints). The original result id becomes the narrowed value, so uses, debug info
 * and names need no change. Loads, stores, constructors, swizzles, selects and calls are left as
 * they are (Mesa does not lower variable copies either); so are the built-ins Mesa keeps at high
 * precision (pack/unpack, frexp/ldexp, bit reversal, bit counts, findLSB/MSB, interpolateAt*).
 * Shaders without RelaxedPrecision (every desktop GLSL shader: Mesa ignores precision there, and
 * the caller applies this to ES shaders only) are untouched, so highp code runs as before.
 * Float unary operations (sin, sqrt, fract, ...) of a 32-bit operand give the full 32-bit result
 * (float_unary). Int unary operations narrow like the others (-m of a 32-bit m is
 * 16-bit on llvmpipe). Derivatives are not lowered (dFdx of a mediump value is full precision).
 * Known differences: NIR folds some conversion pairs away (f2f32(f2fmp(x)) -> x when the 16-bit
 * operation itself folded away, e.g. a multiply by a constant that rounds to 1.0), and 16-bit
 * shifts mask the count to 4 bits; the model narrows and shifts as 32-bit then. */
#include "gm_relaxed.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

enum { K_NONE, K_FLOAT, K_SINT, K_UINT };

typedef struct {
    uint32_t *w;
    size_t n, cap;
    int failed;
} wbuf;

static void put(wbuf *b, const uint32_t *w, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n > b->cap) {
        size_t cap = (b->n + n) * 2 + 64;
        uint32_t *d = realloc(b->w, cap * sizeof *d);
        if (!d) {
            b->failed = 1;
            return;
        }
        b->w = d;
        b->cap = cap;
    }
    memcpy(b->w + b->n, w, n * sizeof *w);
    b->n += n;
}

/* Is op (an ordinary instruction, or GLSL.std.450 instruction `ext` of OpExtInst) an arithmetic
 * operation that Mesa runs in 16 bits when it is mediump? */
static int lowerable(unsigned op, unsigned ext)
{
    switch (op) {
    case SpvOpFNegate: case SpvOpFAdd: case SpvOpFSub: case SpvOpFMul: case SpvOpFDiv:
    case SpvOpFRem: case SpvOpFMod: case SpvOpVectorTimesScalar: case SpvOpDot:
    case SpvOpMatrixTimesVector: case SpvOpVectorTimesMatrix:
    case SpvOpConvertFToU: case SpvOpConvertFToS: case SpvOpConvertSToF: case SpvOpConvertUToF:
    case SpvOpSNegate: case SpvOpIAdd: case SpvOpISub: case SpvOpIMul: case SpvOpSDiv:
    case SpvOpUDiv: case SpvOpSRem: case SpvOpSMod: case SpvOpUMod:
    case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical: case SpvOpShiftRightArithmetic:
    case SpvOpBitwiseOr: case SpvOpBitwiseXor: case SpvOpBitwiseAnd: case SpvOpNot:
    case SpvOpBitcast:
        return 1;
    case SpvOpExtInst:
        switch (ext) {
        case GLSLstd450Modf: case GLSLstd450ModfStruct: case GLSLstd450Frexp:
        case GLSLstd450FrexpStruct: case GLSLstd450Ldexp:
        case GLSLstd450PackSnorm4x8: case GLSLstd450PackUnorm4x8: case GLSLstd450PackSnorm2x16:
        case GLSLstd450PackUnorm2x16: case GLSLstd450PackHalf2x16: case GLSLstd450PackDouble2x32:
        case GLSLstd450UnpackSnorm2x16: case GLSLstd450UnpackUnorm2x16:
        case GLSLstd450UnpackHalf2x16: case GLSLstd450UnpackSnorm4x8:
        case GLSLstd450UnpackUnorm4x8: case GLSLstd450UnpackDouble2x32:
        case GLSLstd450FindILsb: case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
        case GLSLstd450InterpolateAtCentroid: case GLSLstd450InterpolateAtSample:
        case GLSLstd450InterpolateAtOffset:
            return 0;
        default:
            return 1;
        }
    default:
        return 0;
    }
}

/* Does op have a result type and a result id (words 1 and 2)? The instructions of a module that
 * have three or more words and neither are listed; types have a result but no type. */
static int has_result_type(unsigned op)
{
    if (op >= SpvOpTypeVoid && op <= SpvOpTypeForwardPointer)
        return 0;
    switch (op) {
    case SpvOpSourceContinued: case SpvOpSource: case SpvOpSourceExtension: case SpvOpName:
    case SpvOpMemberName: case SpvOpString: case SpvOpLine: case SpvOpExtension:
    case SpvOpExtInstImport: case SpvOpMemoryModel: case SpvOpEntryPoint: case SpvOpExecutionMode:
    case SpvOpExecutionModeId: case SpvOpCapability: case SpvOpDecorate: case SpvOpMemberDecorate:
    case SpvOpDecorationGroup: case SpvOpGroupDecorate: case SpvOpGroupMemberDecorate:
    case SpvOpDecorateId: case SpvOpDecorateString: case SpvOpMemberDecorateString:
    case SpvOpStore: case SpvOpCopyMemory: case SpvOpCopyMemorySized: case SpvOpControlBarrier:
    case SpvOpMemoryBarrier: case SpvOpSelectionMerge: case SpvOpLoopMerge: case SpvOpBranch:
    case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturnValue: case SpvOpImageWrite:
    case SpvOpAtomicStore: case SpvOpEmitStreamVertex: case SpvOpEndStreamPrimitive:
    case SpvOpLabel: case SpvOpFunctionEnd: case SpvOpKill: case SpvOpReturn: case SpvOpNoLine:
    case SpvOpModuleProcessed:
        return 0;
    default:
        return 1;
    }
}

/* Constants the identity rules look at: scalar OpConstant values and composite constituents. */
typedef struct {
    const uint32_t *s;
    const uint32_t *def;   /* word index of each id's defining OpConstant / OpConstantComposite */
    const unsigned char *kind;
    const uint32_t *type_of;
    uint32_t nb;
} consts_t;

enum { C_ZERO, C_ONE, C_ALL16 };

/* Is constant id, narrowed to 16 bits as Mesa narrows constants of mediump operations (a float
 * rounded to half, an int's low 16 bits), 0, 1 or (ints) 0xffff in every component? */
static int const_is(const consts_t *c, uint32_t id, int what, int depth)
{
    if (id >= c->nb || !c->def[id] || depth > 2)
        return 0;
    const uint32_t *w = c->s + c->def[id];
    unsigned wc = w[0] >> 16, op = w[0] & 0xffff;
    if (op == SpvOpConstantComposite) {
        for (unsigned k = 3; k < wc; k++)
            if (!const_is(c, w[k], what, depth + 1))
                return 0;
        return wc > 3;
    }
    if (op == SpvOpConstantNull)
        return what == C_ZERO;
    if (op != SpvOpConstant || wc != 4 || w[1] >= c->nb)
        return 0;
    if (c->kind[w[1]] == K_FLOAT) {
        float f;
        memcpy(&f, &w[3], 4);
        /* The halves nearest 1.0 are 1 - 2^-11 and 1 + 2^-10; ties go to 1.0 (even). */
        if (what == C_ONE)
            return f >= 1.0f - 0x1p-12f && f <= 1.0f + 0x1p-11f;
        return what == C_ZERO && f >= -0x1p-25f && f <= 0x1p-25f;
    }
    uint32_t v = w[3] & 0xffffu;
    return what == C_ZERO ? v == 0 : what == C_ONE ? v == 1 : v == 0xffffu;
}

/* For an operation that Mesa folds to one of its operands once its constants are 16-bit (x + 0,
 * x * 1, x & 0xffff, x | 0, x ^ 0, shifts by 0, x / 1, x - 0), the index (in w) of the operand
 * it becomes; 0 when it is no such identity. The narrowing conversions around it then cancel
 * (NIR: i2i32(i2imp(a)) -> a), so the result is that operand's own 32-bit value. */
static unsigned identity_operand(const consts_t *c, unsigned op, const uint32_t *w, unsigned wc)
{
    if (wc != 5)
        return 0;
    switch (op) {
    case SpvOpIAdd: case SpvOpFAdd: case SpvOpBitwiseOr: case SpvOpBitwiseXor:
        return const_is(c, w[4], C_ZERO, 0) ? 3 : const_is(c, w[3], C_ZERO, 0) ? 4 : 0;
    case SpvOpIMul: case SpvOpFMul:
        return const_is(c, w[4], C_ONE, 0) ? 3 : const_is(c, w[3], C_ONE, 0) ? 4 : 0;
    case SpvOpVectorTimesScalar:
        return const_is(c, w[4], C_ONE, 0) ? 3 : 0;
    case SpvOpBitwiseAnd:
        return const_is(c, w[4], C_ALL16, 0) ? 3 : const_is(c, w[3], C_ALL16, 0) ? 4 : 0;
    case SpvOpISub: case SpvOpFSub: case SpvOpShiftLeftLogical: case SpvOpShiftRightLogical:
    case SpvOpShiftRightArithmetic:
        return const_is(c, w[4], C_ZERO, 0) ? 3 : 0;
    case SpvOpSDiv: case SpvOpUDiv: case SpvOpFDiv:
        return const_is(c, w[4], C_ONE, 0) ? 3 : 0;
    default:
        return 0;
    }
}

/* Float operations that are one NIR unary ALU op: applied to a 32-bit (wide) operand, llvmpipe
 * returns the full 32-bit result (the 16-bit conversions around them cancel); applied to a narrow
 * operand, a half-rounded one. Probed: sin, cos, exp2, log2, sqrt, inversesqrt, fract (floor,
 * ceil, trunc, round, sign are the same kind of NIR op). Negation and abs gave a full result in one
 * probe and a half-rounded one in another (`floatBitsToUint(-f)`), so they stay with the rounding
 * operations. radians/degrees/length/exp/log/tan/... are several ops in Mesa (a multiply at
 * least), so they round like any binary operation. */
static int float_unary(unsigned op, unsigned ext)
{
    if (op != SpvOpExtInst)
        return 0;
    switch (ext) {
    case GLSLstd450FSign: case GLSLstd450Floor: case GLSLstd450Ceil:
    case GLSLstd450Trunc: case GLSLstd450Fract: case GLSLstd450Round: case GLSLstd450RoundEven:
    case GLSLstd450Sin: case GLSLstd450Cos: case GLSLstd450Exp2: case GLSLstd450Log2:
    case GLSLstd450Sqrt: case GLSLstd450InverseSqrt:
        return 1;
    default:
        return 0;
    }
}

static int is_conversion(unsigned op)
{
    return op == SpvOpConvertFToU || op == SpvOpConvertFToS || op == SpvOpConvertSToF ||
           op == SpvOpConvertUToF;
}

/* Value states: a value computed by a 16-bit operation is "narrow" (held as its 32-bit extension:
 * sign for int, zero for uint, exact for float); any other value is "wide". */
enum { V_WIDE, V_NARROW };
/* Function variables: every store narrow so far (loads of it are narrow), or not. */
enum { VAR_NONE, VAR_NARROW, VAR_WIDE };

typedef struct {
    const uint32_t *s;
    size_t n, first_function;
    uint32_t nb, glsl_set, c0, c16, bound;
    const unsigned char *kind, *relaxed;
    const uint32_t *type_of;
    const consts_t *consts;
    unsigned char *state;   /* V_* per id */
    unsigned char *var;     /* VAR_* per Function variable id (VAR_NONE: not one) */
} pass_t;

static void put_narrow(wbuf *out, uint32_t t, uint32_t kind, uint32_t res, uint32_t val, const pass_t *p)
{
    if (kind == K_FLOAT) {
        const uint32_t q[4] = { (4u << 16) | SpvOpQuantizeToF16, t, res, val };
        put(out, q, 4);
    } else {
        const uint32_t x[6] = { (6u << 16) | (kind == K_SINT ? SpvOpBitFieldSExtract : SpvOpBitFieldUExtract),
                                t, res, val, p->c0, p->c16 };
        put(out, x, 6);
    }
}

/* One pass over the functions: value states (and, with out, the rewritten code). */
static void run_pass(pass_t *p, wbuf *out)
{
    const uint32_t *s = p->s;
    uint32_t bound = p->bound;
    for (size_t i = p->first_function; i < p->n;) {
        unsigned wc = s[i] >> 16, op = s[i] & 0xffff;
        const uint32_t *w = s + i;
        i += wc;
        if (op == SpvOpVariable && wc >= 4 && w[3] == SpvStorageClassFunction && w[2] < p->nb &&
            p->var[w[2]] == VAR_NONE)
            p->var[w[2]] = wc >= 5 ? VAR_WIDE : VAR_NARROW; /* an initializer is a wide store */
        else if (op == SpvOpStore && wc >= 3 && w[1] < p->nb && w[2] < p->nb && p->var[w[1]] &&
                 p->state[w[2]] != V_NARROW)
            p->var[w[1]] = VAR_WIDE;
        else if ((op == SpvOpAccessChain || op == SpvOpInBoundsAccessChain) && wc >= 4 && w[3] < p->nb &&
                 p->var[w[3]])
            p->var[w[3]] = VAR_WIDE; /* partial writes: not followed */
        else if (op == SpvOpLoad && wc >= 4 && w[2] < p->nb && w[3] < p->nb)
            p->state[w[2]] = p->var[w[3]] == VAR_NARROW ? V_NARROW : V_WIDE;
        unsigned ext = op == SpvOpExtInst && wc >= 5 ? w[4] : 0;
        if (wc < 4 || !lowerable(op, ext) || w[2] >= p->nb || !p->relaxed[w[2]] || w[1] >= p->nb ||
            p->kind[w[1]] == K_NONE || (op == SpvOpExtInst && w[3] != p->glsl_set) || wc > 64 ||
            (op == SpvOpBitcast && (p->kind[w[1]] == K_FLOAT || w[3] >= p->nb ||
                                    p->kind[p->type_of[w[3]]] == K_FLOAT))) {
            if (out)
                put(out, w, wc);
            continue;
        }
        uint32_t t = w[1], res = w[2];
        unsigned last = wc - 1; /* the only operand of a unary op */
        if (float_unary(op, ext) && wc == (op == SpvOpExtInst ? 6u : 4u) && w[last] < p->nb &&
            p->state[w[last]] != V_NARROW) {
            p->state[res] = V_WIDE; /* computed at 32 bits from the 32-bit operand */
            if (out)
                put(out, w, wc);
            continue;
        }
        unsigned ident = identity_operand(p->consts, op, w, wc);
        if (op == SpvOpBitcast && p->state[w[3]] != V_NARROW)
            ident = 3; /* int <-> uint of a 32-bit value: nothing to convert */
        if (ident) {
            /* The operand itself (a bitcast keeps types right); a narrow operand of the other
             * signedness is re-extended. */
            uint32_t a = w[ident];
            int narrow = a < p->nb && p->state[a] == V_NARROW;
            p->state[res] = narrow ? V_NARROW : V_WIDE;
            if (!out)
                continue;
            int retype = a < p->nb && p->type_of[a] != t;
            if (narrow && retype && p->kind[t] != K_FLOAT) {
                uint32_t tmp = bound++;
                const uint32_t b[4] = { (4u << 16) | SpvOpBitcast, t, tmp, a };
                put(out, b, 4);
                put_narrow(out, t, p->kind[t], res, tmp, p);
            } else {
                const uint32_t b[4] = { (4u << 16) | (retype ? SpvOpBitcast : SpvOpCopyObject), t, res, a };
                put(out, b, 4);
            }
            continue;
        }
        p->state[res] = V_NARROW;
        if (!out)
            continue;
        uint32_t ins[64];
        memcpy(ins, w, wc * sizeof *w);
        /* Operands (every id after the result; after the set and number for OpExtInst) are
         * narrowed, except a conversion's: NIR converts the 32-bit value straight to 16 bits
         * (f2fmp(u2f32(a)) -> u2fmp(a)). */
        for (unsigned k = op == SpvOpExtInst ? 5 : 3; k < wc && !is_conversion(op); k++) {
            uint32_t a = ins[k];
            if (a >= p->nb || p->state[a] == V_NARROW || !p->type_of[a] || p->type_of[a] >= p->nb ||
                p->kind[p->type_of[a]] == K_NONE)
                continue;
            uint32_t nid = bound++;
            put_narrow(out, p->type_of[a], p->kind[p->type_of[a]], nid, a, p);
            ins[k] = nid;
        }
        uint32_t tmp = bound++;
        ins[2] = tmp;
        put(out, ins, wc);
        put_narrow(out, t, p->kind[t], res, tmp, p);
    }
    p->bound = bound;
}

int gm_relax_precision(uint32_t **spirv, size_t *count)
{
    uint32_t *s = *spirv;
    size_t n = *count;
    if (n < 5 || s[0] != SpvMagicNumber)
        return 0;
    uint32_t nb = s[3]; /* ids below nb are the module's own */
    if (nb > (1u << 22))
        return 0; /* implausible bound: left alone (the decoder reports it) */
    unsigned char *kind = calloc(nb, 1);     /* of a type id: K_* of its scalar */
    unsigned char *relaxed = calloc(nb, 1);  /* decorated RelaxedPrecision */
    uint32_t *type_of = calloc(nb, sizeof *type_of);
    uint32_t *def = calloc(nb, sizeof *def);
    unsigned char *state = calloc(nb, 1), *var = calloc(nb, 1);
    int rc = 0;
    if (!kind || !relaxed || !type_of || !def || !state || !var) {
        rc = -1;
        goto done;
    }
    uint32_t glsl_set = 0, int_type = 0;
    size_t first_function = 0;
    int any = 0;
    for (size_t i = 5; i < n;) {
        unsigned wc = s[i] >> 16, op = s[i] & 0xffff;
        if (!wc || i + wc > n)
            goto done; /* malformed: left alone (the decoder reports it) */
        const uint32_t *w = s + i;
        if (op == SpvOpDecorate && wc >= 3 && w[2] == SpvDecorationRelaxedPrecision && w[1] < nb)
            relaxed[w[1]] = 1, any = 1;
        else if (op == SpvOpExtInstImport && wc >= 3 && !strcmp((const char *)&w[2], "GLSL.std.450"))
            glsl_set = w[1];
        else if (op == SpvOpTypeFloat && wc >= 3 && w[1] < nb && w[2] == 32)
            kind[w[1]] = K_FLOAT;
        else if (op == SpvOpTypeInt && wc >= 4 && w[1] < nb && w[2] == 32) {
            kind[w[1]] = w[3] ? K_SINT : K_UINT;
            int_type = w[1];
        } else if (op == SpvOpTypeVector && wc >= 4 && w[1] < nb && w[2] < nb)
            kind[w[1]] = kind[w[2]];
        else if (op == SpvOpFunction && !first_function)
            first_function = i;
        else if ((op == SpvOpConstant || op == SpvOpConstantComposite || op == SpvOpConstantNull) &&
                 wc >= 3 && w[2] < nb)
            def[w[2]] = (uint32_t)i;
        /* Result types of every instruction with a type and a result. */
        if (wc >= 3 && has_result_type(op) && w[1] < nb && w[2] < nb)
            type_of[w[2]] = w[1];
        i += wc;
    }
    if (!any || !first_function || !int_type)
        goto done; /* nothing relaxed (or no int type for the extract's offset/count: no ints) */

    consts_t cs = { s, def, kind, type_of, nb };
    pass_t p = { s, n, first_function, nb, glsl_set, nb, nb + 1, nb + 2, kind, relaxed, type_of, &cs,
                 state, var };
    /* Variables' states depend on the values stored, which depend on loads: a few passes settle
     * them (a variable only ever goes from narrow to wide). */
    for (int k = 0; k < 3; k++)
        run_pass(&p, NULL);
    wbuf out = {0};
    put(&out, s, first_function);
    /* Constants 0 and 16 for the int extracts, placed before the first function. */
    const uint32_t consts[8] = { (4u << 16) | SpvOpConstant, int_type, p.c0, 0,
                                 (4u << 16) | SpvOpConstant, int_type, p.c16, 16 };
    put(&out, consts, 8);
    run_pass(&p, &out);
    if (out.failed) {
        free(out.w);
        rc = -1;
        goto done;
    }
    out.w[3] = p.bound;
    free(*spirv);
    *spirv = out.w;
    *count = out.n;
done:
    free(kind);
    free(relaxed);
    free(type_of);
    free(def);
    free(state);
    free(var);
    return rc;
}
