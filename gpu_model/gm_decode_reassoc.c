/* Float multiply/add chains in the order Mesa's llvmpipe evaluates them.
 *
 * Mesa compiles GLSL through NIR, whose algebraic pass (nir_opt_algebraic.py, "Propagate constants
 * up multiplication chains", Mesa 22.3) rewrites inexact float chains so that constants meet:
 *   fmul(fmul(a, b), #c) -> fmul(fmul(a, c), b)   and   fadd(fadd(a, b), #c) -> fadd(fadd(a, c), b)
 * when a and b are not constants and both the inner and the outer result have one use. The
 * values differ in the last bit: glmark2's `fract(FragCoord.x * FragCoord.y * 0.0001)` at
 * (246.5, 99.5) is 2.4526751 on llvmpipe ((x * 0.0001) * y) and 2.4526749 as written, and five
 * `fract(3.0 * d)` steps later one pixel is 0 on llvmpipe and 255 in the model. glslang's SPIR-V
 * keeps the source order, so this pass applies the same rewrite to the SPIR-V words before the
 * decoder reads them, on the same conditions:
 * - the outer op is OpFAdd or OpFMul with one OpConstant/OpConstantComposite operand (either
 *   side: NIR matches commutative operands both ways), or OpVectorTimesScalar by a constant;
 * - its other operand is an OpFAdd / OpFMul (the same operation) of two non-constant values,
 *   a being the first one (the order NIR's matcher tries first);
 * - the inner and the outer result are each used once. Uses are counted over every word of every
 *   instruction but names, decorations, debug lines and non-semantic debug info; a literal that
 *   happens to equal an id only makes the count larger, so the rewrite is skipped (what the model
 *   did before). A value stored to a variable counts as used once by the store here, where NIR
 *   would count the loads: such chains are skipped too (OpStore is not an arithmetic use).
 *   NIR also merges equal expressions (nir_opt_cse) before it counts: `a.x * a.y` written twice is
 *   one value used twice there, two ids in glslang's SPIR-V. So each value gets a structural
 *   number (opcode, type and the numbers of its operands, loads numbered by their pointer,
 *   commutative operands sorted) and a result whose number is shared by another instruction
 *   counts as used more than once. Numbers merge more than NIR does (loads across stores,
 *   expressions in branches that do not dominate each other), which again only skips rewrites;
 * - neither result is decorated NoContraction (GLSL `precise`: exact in NIR), and the module has
 *   no Invariant decoration (Mesa makes what feeds an invariant output exact).
 * The inner instruction becomes (a op c) and the outer (inner op b); ids, types and debug info are
 * unchanged (the inner value was used by the outer alone). */
#include "gm_decode_reassoc.h"

#include <spirv/unified1/spirv.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Instructions whose id operands are not uses of values. */
static bool not_a_use(uint32_t op)
{
    switch (op) {
    case SpvOpName: case SpvOpMemberName: case SpvOpDecorate: case SpvOpMemberDecorate:
    case SpvOpDecorateString: case SpvOpMemberDecorateString: case SpvOpLine: case SpvOpNoLine:
    case SpvOpString: case SpvOpSource: case SpvOpSourceContinued: case SpvOpSourceExtension:
    case SpvOpModuleProcessed: case SpvOpEntryPoint: case SpvOpExecutionMode:
        return true;
    default:
        return false;
    }
}

/* Instructions with a result type and a result id (words 1 and 2) that function bodies hold and
 * that compute a value: everything but the ones without a result. */
static bool result_at_2(uint32_t op)
{
    switch (op) {
    case SpvOpStore: case SpvOpCopyMemory: case SpvOpLabel: case SpvOpBranch:
    case SpvOpBranchConditional: case SpvOpSwitch: case SpvOpReturn: case SpvOpReturnValue:
    case SpvOpKill: case SpvOpUnreachable: case SpvOpSelectionMerge: case SpvOpLoopMerge:
    case SpvOpLine: case SpvOpNoLine: case SpvOpControlBarrier: case SpvOpMemoryBarrier:
    case SpvOpEmitVertex: case SpvOpEndPrimitive: case SpvOpImageWrite: case SpvOpAtomicStore:
    case SpvOpFunction: case SpvOpFunctionEnd: case SpvOpTerminateInvocation:
    case SpvOpDemoteToHelperInvocation:
        return false;
    default:
        return true;
    }
}

typedef struct {
    uint32_t *w;
    size_t n;
    uint32_t bound;
    uint32_t *def;      /* id -> word offset of its defining instruction, 0 if none */
    uint32_t *uses;
    uint8_t *is_const;  /* OpConstant / OpConstantComposite */
    uint8_t *exact;     /* NoContraction */
    uint8_t *nonsemantic_set;
    uint64_t *vn;       /* id -> structural value number, 0 if none */
    uint64_t *chain_vn; /* numbers of the float chain instructions, sorted */
    size_t nchain;
} reassoc;

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdull;
}

/* Structural number of the result of the instruction at w (wc words, result at word 2), from the
 * numbers of its operands. Instructions whose value is not a function of their operands (phis,
 * calls, variables, parameters, atomics, images) get a number of their own. */
static uint64_t value_number(const reassoc *r, const uint32_t *w, uint32_t wc, uint32_t op)
{
    switch (op) {
    case SpvOpPhi: case SpvOpFunctionCall: case SpvOpVariable: case SpvOpFunctionParameter:
    case SpvOpUndef: case SpvOpImageRead: case SpvOpImageSampleImplicitLod:
    case SpvOpImageSampleExplicitLod: case SpvOpImageFetch: case SpvOpAtomicIAdd:
    case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT: case SpvOpAtomicFMaxEXT: case SpvOpReadClockKHR:
        return mix(0x5eed, w[2]);
    default:
        break;
    }
    uint64_t h = mix(mix(0x1234, op), w[1]);
    uint64_t ops[2] = {0, 0};
    for (uint32_t k = 3; k < wc; k++) {
        uint32_t x = w[k];
        uint64_t v = x < r->bound && r->vn[x] ? r->vn[x] : mix(0x717e, x);   /* literal or id */
        if ((op == SpvOpFMul || op == SpvOpFAdd) && wc == 5)
            ops[k - 3] = v;
        else
            h = mix(h, v);
    }
    if ((op == SpvOpFMul || op == SpvOpFAdd) && wc == 5)
        h = mix(mix(h, ops[0] < ops[1] ? ops[0] : ops[1]), ops[0] < ops[1] ? ops[1] : ops[0]);
    return h ? h : 1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Does another float chain instruction compute the same number as id? (r->chain_vn: the numbers
 * of all of them, sorted) */
static bool shared_number(const reassoc *r, uint32_t id)
{
    const uint64_t *hit = bsearch(&r->vn[id], r->chain_vn, r->nchain, sizeof *r->chain_vn, cmp_u64);
    if (!hit)
        return false;
    return (hit > r->chain_vn && hit[-1] == *hit) ||
           (hit + 1 < r->chain_vn + r->nchain && hit[1] == *hit);
}

static bool is_float_chain_op(uint32_t op)
{
    return op == SpvOpFMul || op == SpvOpFAdd;
}

/* Inner instruction (offset) if id is an unused-elsewhere op of two non-constants, else 0. */
static uint32_t inner_chain(const reassoc *r, uint32_t id, uint32_t op)
{
    if (id >= r->bound || !r->def[id] || r->uses[id] != 1 || r->exact[id] || shared_number(r, id))
        return 0;
    uint32_t at = r->def[id];
    const uint32_t *w = r->w + at;
    if ((w[0] & 0xffffu) != op || (w[0] >> 16) != 5)
        return 0;
    if (w[3] >= r->bound || w[4] >= r->bound || r->is_const[w[3]] || r->is_const[w[4]])
        return 0;
    return at;
}

static void rewrite_one(reassoc *r, uint32_t at)
{
    uint32_t *w = r->w + at;
    uint32_t op = w[0] & 0xffffu;
    if ((w[0] >> 16) != 5 || w[2] >= r->bound || r->uses[w[2]] != 1 || r->exact[w[2]] ||
        shared_number(r, w[2]))
        return;
    uint32_t x = w[3], y = w[4];
    if (x >= r->bound || y >= r->bound)
        return;
    uint32_t inner_op = op == SpvOpVectorTimesScalar ? SpvOpFMul : op;
    uint32_t in_at = 0, c = 0;
    if (r->is_const[y] && !r->is_const[x]) {
        in_at = inner_chain(r, x, inner_op), c = y;
    } else if (r->is_const[x] && !r->is_const[y] && op != SpvOpVectorTimesScalar) {
        in_at = inner_chain(r, y, inner_op), c = x;
    }
    if (!in_at)
        return;
    uint32_t *iw = r->w + in_at;
    uint32_t a = iw[3], b = iw[4];
    /* inner = a op c (a vector times a scalar constant stays OpVectorTimesScalar) */
    if (op == SpvOpVectorTimesScalar)
        iw[0] = (5u << 16) | SpvOpVectorTimesScalar;
    iw[3] = a;
    iw[4] = c;
    /* outer = inner op b, both of the outer's type */
    w[0] = (5u << 16) | inner_op;
    w[3] = iw[2];
    w[4] = b;
}

int gm_reassoc_constants(uint32_t *words, size_t n)
{
    if (n < 5)
        return 0;
    reassoc r = { words, n, words[3], NULL, NULL, NULL, NULL, NULL, NULL, NULL, 0 };
    if (r.bound == 0)
        return 0;
    r.def = calloc(r.bound, sizeof *r.def);
    r.uses = calloc(r.bound, sizeof *r.uses);
    r.is_const = calloc(r.bound, 1);
    r.exact = calloc(r.bound, 1);
    r.nonsemantic_set = calloc(r.bound, 1);
    r.vn = calloc(r.bound, sizeof *r.vn);
    int rc = 0;
    if (!r.def || !r.uses || !r.is_const || !r.exact || !r.nonsemantic_set || !r.vn) {
        rc = -1;
        goto out;
    }
    bool invariant = false, any = false, in_function = false;
    for (size_t i = 5; i < n;) {
        uint32_t wc = words[i] >> 16, op = words[i] & 0xffffu;
        if (wc == 0 || i + wc > n)
            goto out;   /* malformed: leave it to the decoder's own checks */
        const uint32_t *w = words + i;
        if (op == SpvOpDecorate && wc >= 3 && w[1] < r.bound) {
            if (w[2] == SpvDecorationNoContraction)
                r.exact[w[1]] = 1;
            if (w[2] == SpvDecorationInvariant)
                invariant = true;
        } else if (op == SpvOpMemberDecorate && wc >= 4 && w[3] == SpvDecorationInvariant) {
            invariant = true;
        } else if (op == SpvOpExtInstImport && wc >= 3 && w[1] < r.bound) {
            r.nonsemantic_set[w[1]] = strncmp((const char *)(w + 2), "NonSemantic.", 12) == 0;
        } else if ((op == SpvOpConstant || op == SpvOpConstantComposite) && wc >= 3 &&
                   w[2] < r.bound) {
            r.is_const[w[2]] = 1;
        }
        if (is_float_chain_op(op) || op == SpvOpVectorTimesScalar) {
            if (wc == 5 && w[2] < r.bound) {
                r.def[w[2]] = (uint32_t)i;
                any = true;
            }
        }
        /* value numbers of results inside functions (result type at word 1, id at word 2) */
        if (in_function && wc >= 3 && result_at_2(op) && w[2] < r.bound)
            r.vn[w[2]] = value_number(&r, w, wc, op);
        if (op == SpvOpFunction)
            in_function = true;
        else if (op == SpvOpFunctionEnd)
            in_function = false;
        else if ((op == SpvOpConstant || op == SpvOpConstantComposite) && w[2] < r.bound)
            r.vn[w[2]] = value_number(&r, w, wc, op);
        bool debug = op == SpvOpExtInst && wc >= 4 && w[3] < r.bound && r.nonsemantic_set[w[3]];
        if (!not_a_use(op) && !debug)
            for (uint32_t k = 1; k < wc; k++)
                if (w[k] < r.bound)
                    r.uses[w[k]]++;
        i += wc;
    }
    if (invariant || !any)
        goto out;
    /* Every id was counted once at its own definition (the result word): uses = count - 1. */
    for (uint32_t id = 0; id < r.bound; id++)
        if (r.def[id] && r.uses[id] > 0)
            r.uses[id]--;
    for (uint32_t id = 0; id < r.bound; id++)
        r.nchain += r.def[id] != 0;
    if (!(r.chain_vn = malloc(r.nchain * sizeof *r.chain_vn))) {
        rc = -1;
        goto out;
    }
    r.nchain = 0;
    for (uint32_t id = 0; id < r.bound; id++)
        if (r.def[id])
            r.chain_vn[r.nchain++] = r.vn[id];
    qsort(r.chain_vn, r.nchain, sizeof *r.chain_vn, cmp_u64);
    for (uint32_t id = 0; id < r.bound; id++)
        if (r.def[id])
            rewrite_one(&r, r.def[id]);
out:
    free(r.def);
    free(r.uses);
    free(r.is_const);
    free(r.exact);
    free(r.nonsemantic_set);
    free(r.vn);
    free(r.chain_vn);
    return rc;
}
