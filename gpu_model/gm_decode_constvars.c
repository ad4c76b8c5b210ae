/* Which Function/Private arrays llvmpipe would turn into constant data.
 *
 * Mesa moves a shader-local array that is only ever written with constants (through constant
 * indexes) into the shader's constant data (nir_opt_large_constants), and a dynamic index then
 * reads that data block: an out-of-range index gives 0 in llvmpipe (measured: float[4] with index
 * -1, 4 or 5; also float[2] and vec4[2]). An array written with a run-time value or at a run-time
 * index stays in registers instead, where llvmpipe clamps the index as an unsigned number to the
 * last element (lp_bld_nir_soa.c, load/store of a register array: umin(index, length - 1)).
 * The access chain (gm_decode_code.c) picks the rule per variable from this scan.
 *
 * The scan is conservative: a pointer into the variable that is used by anything other than
 * OpLoad, OpStore (as its pointer), an access chain or OpCopyObject (passed to a function, to
 * OpCopyMemory, to an atomic, to Modf's out operand, ...) keeps the variable out. */
#include "gm_decode_constvars.h"
#include "gm_spirv_tables.h"

#include <spirv/unified1/spirv.h>
#include <stdlib.h>
#include <string.h>

uint8_t *gm_const_only_vars(const uint32_t *words, size_t nwords, uint32_t bound)
{
    if (!words || nwords < 5 || bound == 0)
        return NULL;
    uint8_t *out = calloc(bound, 1);
    uint32_t *root = calloc(bound, sizeof *root);       /* pointer id -> its variable */
    uint8_t *info = calloc(bound, 1);                   /* bit flags below, per id */
    enum { CONSTANT = 1, ARRAY_TYPE = 2, CONST_IDX = 4, NONSEMANTIC = 8,
           PTR_TO_ARRAY = 16 };
    if (!out || !root || !info) {
        free(out);
        free(root);
        free(info);
        return NULL;
    }
    size_t i = 5;
    while (i < nwords) {
        uint32_t op = words[i] & 0xffffu, wc = words[i] >> 16;
        if (wc == 0 || i + wc > nwords)
            break;
        const uint32_t *w = words + i;
        i += wc;
#define ID_OK(x) ((x) > 0 && (x) < bound)
        switch (op) {
        case SpvOpName: case SpvOpMemberName: case SpvOpDecorate: case SpvOpMemberDecorate:
        case SpvOpLine: case SpvOpNoLine: case SpvOpSource: case SpvOpString:
            continue;
        case SpvOpExtInstImport:
            if (wc >= 3 && ID_OK(w[1]) &&
                strncmp((const char *)(w + 2), "NonSemantic.", 12) == 0)
                info[w[1]] |= NONSEMANTIC;
            continue;
        case SpvOpExtInst:   /* debug info names variables without using them */
            if (wc >= 4 && ID_OK(w[3]) && (info[w[3]] & NONSEMANTIC))
                continue;
            break;
        case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
        case SpvOpConstantComposite: case SpvOpConstantNull:
            if (wc >= 3 && ID_OK(w[2]))
                info[w[2]] |= CONSTANT;
            continue;
        case SpvOpTypeArray:
            if (wc >= 2 && ID_OK(w[1]))
                info[w[1]] |= ARRAY_TYPE;
            continue;
        case SpvOpTypePointer:
            if (wc >= 4 && ID_OK(w[1]) && ID_OK(w[3]) && (info[w[3]] & ARRAY_TYPE))
                info[w[1]] |= PTR_TO_ARRAY;
            continue;
        case SpvOpVariable:
            if (wc >= 4 && ID_OK(w[1]) && ID_OK(w[2]) && (info[w[1]] & PTR_TO_ARRAY) &&
                (w[3] == SpvStorageClassFunction || w[3] == SpvStorageClassPrivate)) {
                root[w[2]] = w[2];
                info[w[2]] |= CONST_IDX;
                out[w[2]] = 1;
                /* an initializer must be a constant too */
                if (wc >= 5 && (!ID_OK(w[4]) || !(info[w[4]] & CONSTANT)))
                    out[w[2]] = 0;
            }
            continue;
        case SpvOpAccessChain: case SpvOpInBoundsAccessChain:
            if (wc >= 4 && ID_OK(w[2]) && ID_OK(w[3]) && root[w[3]]) {
                root[w[2]] = root[w[3]];
                int all_const = (info[w[3]] & CONST_IDX) != 0;
                for (uint32_t k = 4; k < wc; k++)
                    if (!ID_OK(w[k]) || !(info[w[k]] & CONSTANT))
                        all_const = 0;
                if (all_const)
                    info[w[2]] |= CONST_IDX;
                continue;
            }
            break;
        case SpvOpCopyObject:
            if (wc >= 4 && ID_OK(w[2]) && ID_OK(w[3]) && root[w[3]]) {
                root[w[2]] = root[w[3]];
                info[w[2]] |= info[w[3]] & CONST_IDX;
                continue;
            }
            break;
        case SpvOpLoad:
            if (wc >= 4 && ID_OK(w[3]) && root[w[3]])
                continue;
            break;
        case SpvOpStore:
            if (wc >= 3 && ID_OK(w[1]) && root[w[1]]) {
                if (!(info[w[1]] & CONST_IDX) || !ID_OK(w[2]) || !(info[w[2]] & CONSTANT))
                    out[root[w[1]]] = 0;
                if (ID_OK(w[2]) && root[w[2]])   /* storing the pointer itself */
                    out[root[w[2]]] = 0;
                continue;
            }
            break;
        default:
            break;
        }
        /* Any other use of a pointer into a candidate (words that are literals and happen
         * to equal such an id only make the scan more careful). */
        for (uint32_t k = 1; k < wc; k++)
            if (ID_OK(w[k]) && root[w[k]])
                out[root[w[k]]] = 0;
#undef ID_OK
    }
    free(root);
    free(info);
    return out;
}

/* Values Mesa knows at compile time: everything not reached from a uniform, an input, a buffer,
 * a built-in, a function parameter or call, through loads, stores and operations. Mesa
 * propagates such a value into the index, and a constant index out of range makes the load
 * undefined (nir_lower_vars_to_ssa's undef: 0 in llvmpipe for these tests, though it can vary)
 * and drops the store, where a run-time index follows the GM_INDEX_* rule. */
uint8_t *gm_dynamic_values(const uint32_t *words, size_t nwords, uint32_t bound)
{
    if (!words || nwords < 5 || bound == 0)
        return NULL;
    uint8_t *dyn = calloc(bound, 1);
    uint32_t *root = calloc(bound, sizeof *root);
    uint8_t *local = calloc(bound, 1);   /* Function/Private variables */
    if (!dyn || !root || !local) {
        free(dyn);
        free(root);
        free(local);
        return NULL;
    }
#define ID_OK(x) ((x) > 0 && (x) < bound)
    for (int changed = 1, round = 0; changed && round < 64; round++) {
        changed = 0;
        int in_func = 0;
        for (size_t i = 5; i < nwords;) {
            uint32_t op = words[i] & 0xffffu, wc = words[i] >> 16;
            if (wc == 0 || i + wc > nwords)
                break;
            const uint32_t *w = words + i;
            i += wc;
            uint32_t res = 0, start = 1, taint = 0;
            const gm_spv_op_info *oi = gm_spv_op_info_get(op);
            if (oi && oi->operand_count > 0) {
                const gm_spv_operand *o = gm_spv_op_operands(oi);
                if (o[0].kind == gm_spv_kind_IdResultType && wc >= 3) {
                    res = w[2];
                    start = 3;
                } else if (o[0].kind == gm_spv_kind_IdResult && wc >= 2) {
                    res = w[1];
                    start = 2;
                }
            }
            switch (op) {
            case SpvOpFunction:
                in_func = 1;
                continue;
            case SpvOpVariable:
                if (wc >= 4 && ID_OK(w[2])) {
                    root[w[2]] = w[2];
                    local[w[2]] = w[3] == SpvStorageClassFunction ||
                                  w[3] == SpvStorageClassPrivate;
                    if (!local[w[2]] && !dyn[w[2]])
                        dyn[w[2]] = 1, changed = 1;
                    if (wc >= 5 && ID_OK(w[4]) && dyn[w[4]] && !dyn[w[2]])
                        dyn[w[2]] = 1, changed = 1;
                }
                continue;
            case SpvOpAccessChain: case SpvOpInBoundsAccessChain: case SpvOpCopyObject:
                if (wc >= 4 && ID_OK(w[2]) && ID_OK(w[3]) && root[w[3]]) {
                    root[w[2]] = root[w[3]];
                    /* a store through a run-time index makes the whole variable run-time */
                    for (uint32_t k = 4; k < wc; k++)
                        if (ID_OK(w[k]) && dyn[w[k]] && !dyn[w[2]])
                            dyn[w[2]] = 1, changed = 1;
                    if (dyn[w[3]] && !dyn[w[2]] && !local[root[w[3]]])
                        dyn[w[2]] = 1, changed = 1;
                    continue;
                }
                break;
            case SpvOpLoad:
                if (wc >= 4 && ID_OK(w[2]) && ID_OK(w[3])) {
                    uint32_t r = root[w[3]];
                    taint = !r || dyn[r] || dyn[w[3]];
                    if (taint && !dyn[w[2]])
                        dyn[w[2]] = 1, changed = 1;
                }
                continue;
            case SpvOpStore:
                if (wc >= 3 && ID_OK(w[1]) && ID_OK(w[2])) {
                    uint32_t r = root[w[1]];
                    if (r && (dyn[w[2]] || dyn[w[1]]) && !dyn[r])
                        dyn[r] = 1, changed = 1;
                }
                continue;
            case SpvOpFunctionParameter:
            case SpvOpFunctionCall:
                taint = 1;
                /* a callee may store anything through a pointer argument */
                for (uint32_t k = 4; op == SpvOpFunctionCall && k < wc; k++)
                    if (ID_OK(w[k]) && root[w[k]] && !dyn[root[w[k]]])
                        dyn[root[w[k]]] = 1, changed = 1;
                break;
            default:
                if (!in_func)
                    continue;   /* types, constants, decorations */
                for (uint32_t k = start; k < wc; k++)
                    if (ID_OK(w[k]) && dyn[w[k]])
                        taint = 1;
                break;
            }
            if (taint && ID_OK(res) && !dyn[res])
                dyn[res] = 1, changed = 1;
        }
    }
#undef ID_OK
    free(root);
    free(local);
    return dyn;
}
