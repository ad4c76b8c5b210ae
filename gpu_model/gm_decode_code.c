/* SPIR-V -> register IR, function bodies (decoder pass B). Every instruction becomes
 * zero or more IR instructions with operands resolved to register words; pointers are
 * resolved statically where possible (constant access chains become plain copies).
 * Instructions the executor cannot run are reported by their grammar name. */
#include "gm_decode_ctx.h"
#include "gm_spirv_tables.h"
#include "gm_opcodes.h"   /* generated from gpu_model/ir/gm_opcodes.py */
#include "exec/gm_exec.h" /* GM_DERIV_WINDOW_Y */

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int reg(gm_decoder *d, uint32_t id)
{
    if (id == 0 || id >= d->p->bound || d->p->reg_of[id] < 0)
        return gm_dec_fail(d, "id %u is used but has no value", id);
    return d->p->reg_of[id];
}

static int words(gm_decoder *d, uint32_t id)
{
    return id < d->p->bound ? d->p->ncomp_of[id] : 0;
}

static const gm_type *tyof(gm_decoder *d, uint32_t id)
{
    if (id == 0 || id >= d->p->bound)
        return NULL;
    int t = d->p->type_of[id];
    return t > 0 && (uint32_t)t < d->p->bound ? &d->p->types[t] : NULL;
}

/* The value is a double (scalar, vector or matrix of 64-bit floats). */
static int is_f64(gm_decoder *d, uint32_t id)
{
    const gm_type *t = tyof(d, id);
    return t && t->scalar == GM_SCALAR_FLOAT && t->width == 64 &&
           (t->kind == GM_TYPE_SCALAR || t->kind == GM_TYPE_VECTOR || t->kind == GM_TYPE_MATRIX);
}

/* The value is a 64-bit integer (scalar or vector of int64_t/uint64_t). */
static int is_i64(gm_decoder *d, uint32_t id)
{
    const gm_type *t = tyof(d, id);
    return t && (t->scalar == GM_SCALAR_INT || t->scalar == GM_SCALAR_UINT) && t->width == 64 &&
           (t->kind == GM_TYPE_SCALAR || t->kind == GM_TYPE_VECTOR);
}

/* Components of two words (doubles and 64-bit integers): same moves, selects, shuffles. */
static int is_64(gm_decoder *d, uint32_t id) { return is_f64(d, id) || is_i64(d, id); }

/* The gm_sg_op computing a subgroup built-in input, or -1. */
static int subgroup_builtin(int builtin)
{
    switch (builtin) {
    case SpvBuiltInSubgroupSize: return GM_SG_SIZE;
    case SpvBuiltInSubgroupLocalInvocationId: return GM_SG_INVOCATION;
    case SpvBuiltInSubgroupEqMask: return GM_SG_EQ_MASK;
    case SpvBuiltInSubgroupGeMask: return GM_SG_GE_MASK;
    case SpvBuiltInSubgroupGtMask: return GM_SG_GT_MASK;
    case SpvBuiltInSubgroupLeMask: return GM_SG_LE_MASK;
    case SpvBuiltInSubgroupLtMask: return GM_SG_LT_MASK;
    default: return -1;
    }
}

static int block_of(gm_decoder *d, uint32_t label)
{
    if (label == 0 || label >= d->p->bound || d->label_block[label] < 0)
        return gm_dec_fail(d, "branch to unknown label %u", label);
    return d->label_block[label];
}

/* Byte offsets of every word of `type` inside a buffer, given the layout context. */
static int buffer_offsets(gm_decoder *d, int type, int base, int matrix_stride, int row_major,
                          int vec_stride, int *out, int *count, int max)
{
    const gm_type *t = &d->p->types[type];
    /* A double is 8 bytes: its low word, then its high word 4 bytes on. */
    const int es = t->width == 64 ? 8 : 4, nw = es / 4;
    if (vec_stride < es)
        vec_stride = es;
    switch (t->kind) {
    case GM_TYPE_SCALAR:
        for (int h = 0; h < nw; h++) {
            if (*count >= max)
                return -1;
            out[(*count)++] = base + 4 * h;
        }
        return 0;
    case GM_TYPE_VECTOR:
        for (int i = 0; i < t->rows; i++)
            for (int h = 0; h < nw; h++) {
                if (*count >= max)
                    return -1;
                out[(*count)++] = base + i * vec_stride + 4 * h;
            }
        return 0;
    case GM_TYPE_MATRIX:
        for (int c = 0; c < t->cols; c++)
            for (int r = 0; r < t->rows; r++)
                for (int h = 0; h < nw; h++) {
                    if (*count >= max)
                        return -1;
                    out[(*count)++] = base + 4 * h + (row_major ? r * matrix_stride + c * es
                                                                : c * matrix_stride + r * es);
                }
        return 0;
    case GM_TYPE_ARRAY:
        for (int i = 0; i < t->length; i++)
            if (buffer_offsets(d, t->elem, base + i * t->array_stride, matrix_stride, row_major,
                               4, out, count, max))
                return -1;
        return 0;
    case GM_TYPE_STRUCT:
        for (int i = 0; i < t->length; i++)
            if (buffer_offsets(d, t->members[i], base + t->member_byte_off[i],
                               t->member_matrix_stride[i], t->member_row_major[i], 4, out,
                               count, max))
                return -1;
        return 0;
    default:
        return -1;
    }
}

/* Emits the aux list of byte offsets of a buffer access; returns its aux index. */
static int buffer_offset_list(gm_decoder *d, uint32_t ptr_id, int type)
{
    const gm_ptr *pi = &d->ptr[ptr_id];
    int n = d->p->types[type].ncomp, count = 0;
    int *offs = malloc((size_t)(n > 0 ? n : 1) * sizeof *offs);
    if (!offs)
        return gm_dec_fail(d, "out of memory");
    int vs = pi->vec_stride ? pi->vec_stride : 4;
    if (buffer_offsets(d, type, 0, pi->matrix_stride, pi->row_major, vs, offs, &count, n) ||
        count != n) {
        free(offs);
        return gm_dec_fail(d, "cannot lay out a buffer access of this type");
    }
    int first = d->p->aux_count;
    for (int i = 0; i < n; i++)
        if (gm_dec_aux(d, (uint32_t)offs[i]) < 0) {
            free(offs);
            return -1;
        }
    free(offs);
    return first;
}

static int pointee_of(gm_decoder *d, uint32_t ptr_id)
{
    const gm_type *pt = tyof(d, ptr_id);
    if (!pt || pt->kind != GM_TYPE_POINTER)
        return gm_dec_fail(d, "id %u is not a pointer", ptr_id);
    /* A module's own OpTypePointer names the pointee: an id past the bound or not a type is
     * refused here rather than read (found by fuzz_spirv_decode). */
    if (pt->pointee <= 0 || (uint32_t)pt->pointee >= d->p->bound || d->p->types[pt->pointee].kind == GM_TYPE_VOID)
        return gm_dec_fail(d, "pointer id %u points to id %d, which is not a type", ptr_id, pt->pointee);
    return pt->pointee;
}

/* Load `n` words through a pointer into register dst. */
static int emit_load(gm_decoder *d, int dst, uint32_t ptr_id)
{
    int pointee = pointee_of(d, ptr_id);
    if (pointee < 0)
        return -1;
    int n = d->p->types[pointee].ncomp;
    const gm_ptr *pi = &d->ptr[ptr_id];
    int pr = reg(d, ptr_id);
    if (pr < 0)
        return -1;
    switch (pi->space) {
    case GM_SPACE_REG:
        if (pi->static_addr >= 0)
            return gm_dec_emit(d, GM_OP_COPY, n, dst, pi->static_addr, 0, 0, 0);
        return gm_dec_emit(d, GM_OP_REG_LOAD_DYN, n, dst, pr, 0, 0, 0);
    case GM_SPACE_SHARED:
        return gm_dec_emit(d, GM_OP_SH_LOAD, n, dst, pr, 0, 0, 0);
    case GM_SPACE_UNIFORM:
        if (pi->static_addr >= 0)
            return gm_dec_emit(d, GM_OP_UNI_LOAD, n, dst, pi->static_addr, 0, 0, 0);
        return gm_dec_emit(d, GM_OP_UNI_LOAD_DYN, n, dst, pr, 0, 0, 0);
    case GM_SPACE_BUFFER: {
        int list = buffer_offset_list(d, ptr_id, pointee);
        if (list < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_BUF_LOAD, n, dst, pr, list, 0,
                           ((uint32_t)pi->binding << 2) | pi->bkind | (pi->arrayed ? GM_BUF_ARRAYED : 0));
    }
    default:
        return gm_dec_fail(d, "load through a pointer of unknown storage");
    }
}

static int emit_store(gm_decoder *d, uint32_t ptr_id, int src)
{
    int pointee = pointee_of(d, ptr_id);
    if (pointee < 0)
        return -1;
    int n = d->p->types[pointee].ncomp;
    const gm_ptr *pi = &d->ptr[ptr_id];
    int pr = reg(d, ptr_id);
    if (pr < 0)
        return -1;
    switch (pi->space) {
    case GM_SPACE_REG:
        if (pi->static_addr >= 0)
            return gm_dec_emit(d, GM_OP_STORE, n, pi->static_addr, src, 0, 0,
                               (uint32_t)pi->output);
        return gm_dec_emit(d, GM_OP_REG_STORE_DYN, n, 0, pr, src, 0, (uint32_t)pi->output);
    case GM_SPACE_BUFFER: {
        int list = buffer_offset_list(d, ptr_id, pointee);
        if (list < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_BUF_STORE, n, 0, pr, list, src,
                           ((uint32_t)pi->binding << 2) | pi->bkind | (pi->arrayed ? GM_BUF_ARRAYED : 0));
    }
    case GM_SPACE_SHARED:
        return gm_dec_emit(d, GM_OP_SH_STORE, n, 0, pr, src, 0, 0);
    case GM_SPACE_UNIFORM:
        return gm_dec_fail(d, "store to a uniform");
    default:
        return gm_dec_fail(d, "store through a pointer of unknown storage");
    }
}

static int const_value(gm_decoder *d, uint32_t id, uint32_t *v)
{
    if (id == 0 || id >= d->p->bound || !d->is_const[id])
        return 0;
    *v = d->value_word0[id];
    return 1;
}

/* An array of samplers or images (handles in uniform memory): its dynamic index keeps the
 * clamp, the other uniform arrays read 0 out of range as llvmpipe's constant buffer does. */
static int is_opaque_array(const gm_program *p, const gm_type *t)
{
    while (t->kind == GM_TYPE_ARRAY)
        t = &p->types[t->elem];
    return t->kind == GM_TYPE_SAMPLER || t->kind == GM_TYPE_IMAGE;
}

/* OpAccessChain: walks the type, folding constant indexes; dynamic indexes become
 * per-lane address arithmetic whose out-of-range rule is llvmpipe's for that storage
 * (GM_INDEX_*, gm_ir.h); no rule lets a bad index escape the variable. */
static int access_chain(gm_decoder *d, const uint32_t *w, unsigned wc)
{
    gm_program *p = d->p;
    uint32_t rid = w[2], base = w[3];
    if (base >= p->bound || rid >= p->bound)
        return gm_dec_fail(d, "bad access chain");
    gm_ptr pi = d->ptr[base];
    int type = pointee_of(d, base);
    if (type < 0)
        return -1;
    if (pi.space == GM_SPACE_NONE) {
        const gm_type *bt = tyof(d, base);
        (void)bt;
        return gm_dec_fail(d, "access chain on a pointer of unknown storage");
    }
    int buffer = pi.space == GM_SPACE_BUFFER;
    int dst = reg(d, rid);
    if (dst < 0)
        return -1;
    int cur_src = reg(d, base); /* register holding the running dynamic address */
    int dynamic = pi.static_addr < 0;
    int off = 0;
    if (!pi.vec_stride)
        pi.vec_stride = 4;
    for (unsigned i = 4; i < wc; i++) {
        const gm_type *t = &p->types[type];
        uint32_t idx_id = w[i], cv = 0;
        int is_const = const_value(d, idx_id, &cv);
        int stride, limit, next, mode = GM_INDEX_CLAMP;
        switch (t->kind) {
        case GM_TYPE_STRUCT:
            if (!is_const || cv >= (uint32_t)t->length)
                return gm_dec_fail(d, "struct index is not a valid constant");
            off += buffer ? t->member_byte_off[cv] : t->member_off[cv];
            if (buffer) {
                pi.matrix_stride = t->member_matrix_stride[cv];
                pi.row_major = t->member_row_major[cv];
                pi.vec_stride = 4;
            }
            type = t->members[cv];
            continue;
        case GM_TYPE_ARRAY:
            next = t->elem;
            stride = buffer ? t->array_stride : p->types[t->elem].ncomp;
            /* atomic counter arrays have no ArrayStride: 4 bytes a counter */
            if (buffer && !stride && pi.bkind == GM_BUFFER_ATOMIC_COUNTER)
                stride = 4 * p->types[t->elem].ncomp;
            limit = t->length > 0 ? t->length - 1 : 0x3fffffff;
            if (buffer && pi.block_elems > 1 && t->length > 0) {
                /* a level of an array of blocks: selects the element (binding + k) */
                pi.block_elems /= t->length;
                stride = pi.block_elems << GM_BLOCK_ELEM_SHIFT;
            }
            if (pi.space == GM_SPACE_REG && pi.local)
                mode = pi.const_only ? GM_INDEX_ZERO : GM_INDEX_UMIN;
            else if (pi.space == GM_SPACE_UNIFORM && !is_opaque_array(p, t))
                mode = GM_INDEX_ZERO;
            break;
        case GM_TYPE_MATRIX:
            next = t->elem;
            stride = buffer ? (pi.row_major ? (t->width == 64 ? 8 : 4) : pi.matrix_stride)
                            : p->types[t->elem].ncomp;
            limit = t->cols - 1;
            if (buffer)
                pi.vec_stride = pi.row_major ? pi.matrix_stride : 4;
            if (pi.space == GM_SPACE_REG && pi.local)
                mode = GM_INDEX_UMIN;
            else if (pi.space == GM_SPACE_UNIFORM)
                mode = GM_INDEX_ZERO;
            break;
        case GM_TYPE_VECTOR:
            next = t->elem;
            stride = !buffer ? p->types[t->elem].ncomp
                     : t->width == 64 && pi.vec_stride < 8 ? 8 : pi.vec_stride;
            limit = t->rows - 1;
            if ((pi.space == GM_SPACE_REG && pi.local) || pi.space == GM_SPACE_UNIFORM)
                mode = GM_INDEX_VEC;
            break;
        default:
            return gm_dec_fail(d, "access chain indexes into a non-composite");
        }
        if (is_const) {
            int32_t ci = (int32_t)cv;
            if (ci < 0)
                ci = 0;
            if (ci > limit)
                ci = limit;
            off += ci * stride;
        } else {
            int ir = reg(d, idx_id);
            if (ir < 0)
                return -1;
            if (mode != GM_INDEX_CLAMP && d->dynamic_val && !d->dynamic_val[idx_id])
                mode = GM_INDEX_ZERO;   /* Mesa's constant index out of range: undefined */
            int ax = gm_dec_aux(d, (uint32_t)stride);
            if (ax < 0 || gm_dec_aux(d, (uint32_t)limit) < 0 || gm_dec_aux(d, (uint32_t)mode) < 0)
                return -1;
            if (gm_dec_emit(d, GM_OP_ADDR_ADD, 1, dst, cur_src, ir, 0, (uint32_t)ax) < 0)
                return -1;
            cur_src = dst;
            dynamic = 1;
        }
        type = next;
    }
    d->ptr[rid] = pi;
    if (!dynamic) {
        d->ptr[rid].static_addr = pi.static_addr + off;
        for (int l = 0; l < GM_LANES; l++)
            p->init_regs[dst][l] = (uint32_t)(pi.static_addr + off);
        p->init_mask[dst] = 1;
        return 0;
    }
    d->ptr[rid].static_addr = -1;
    if (cur_src != dst || off)
        return gm_dec_emit(d, GM_OP_ADDR_CONST, 1, dst, cur_src, 0, 0, (uint32_t)off);
    return 0;
}

/* OpArrayLength (structure pointer, member): the trailing runtime array of a storage block; its
 * length depends on the buffer range bound when the shader runs (GM_OP_BUF_LENGTH). */
static int array_length(gm_decoder *d, const uint32_t *w, unsigned wc)
{
    gm_program *p = d->p;
    if (wc < 5 || w[3] >= p->bound)
        return gm_dec_fail(d, "short OpArrayLength");
    int st = pointee_of(d, w[3]);
    if (st < 0)
        return -1;
    const gm_type *t = &p->types[st];
    const gm_ptr *pi = &d->ptr[w[3]];
    if (pi->space != GM_SPACE_BUFFER || t->kind != GM_TYPE_STRUCT || w[4] >= (uint32_t)t->length ||
        p->types[t->members[w[4]]].kind != GM_TYPE_ARRAY || p->types[t->members[w[4]]].length != 0)
        return gm_dec_fail(d, "OpArrayLength of something other than a block's runtime array");
    int dst = reg(d, w[2]), pr = reg(d, w[3]);
    if (dst < 0 || pr < 0)
        return -1;
    int ax = gm_dec_aux(d, (uint32_t)t->member_byte_off[w[4]]);
    if (ax < 0 || gm_dec_aux(d, (uint32_t)p->types[t->members[w[4]]].array_stride) < 0)
        return -1;
    return gm_dec_emit(d, GM_OP_BUF_LENGTH, 1, dst, pr, ax, 0,
                       ((uint32_t)pi->binding << 2) | pi->bkind | (pi->arrayed ? GM_BUF_ARRAYED : 0));
}

/* Word offset inside a composite for OpCompositeExtract/Insert literal indexes. */
static int composite_offset(gm_decoder *d, int type, const uint32_t *idx, unsigned n, int *out_type)
{
    int off = 0;
    for (unsigned i = 0; i < n; i++) {
        const gm_type *t = &d->p->types[type];
        uint32_t k = idx[i];
        switch (t->kind) {
        case GM_TYPE_STRUCT:
            if (k >= (uint32_t)t->length)
                return gm_dec_fail(d, "composite index out of range");
            off += t->member_off[k];
            type = t->members[k];
            break;
        case GM_TYPE_ARRAY:
        case GM_TYPE_MATRIX:
        case GM_TYPE_VECTOR: {
            int len = t->kind == GM_TYPE_ARRAY ? t->length
                      : t->kind == GM_TYPE_MATRIX ? t->cols : t->rows;
            if (k >= (uint32_t)len)
                return gm_dec_fail(d, "composite index out of range");
            off += (int)k * d->p->types[t->elem].ncomp;
            type = t->elem;
            break;
        }
        default:
            return gm_dec_fail(d, "composite index into a scalar");
        }
    }
    *out_type = type;
    return off;
}

static int copy_list_begin(gm_decoder *d) { return d->p->aux_count; }

static int copy_pair(gm_decoder *d, int dst, int src)
{
    return gm_dec_aux(d, (uint32_t)dst) < 0 || gm_dec_aux(d, (uint32_t)src) < 0 ? -1 : 0;
}

/* Maps SPIR-V componentwise ops to IR ops (result words = n). */
static int simple_op(unsigned op)
{
    switch (op) {
    case SpvOpFAdd: return GM_OP_FADD;
    case SpvOpFSub: return GM_OP_FSUB;
    case SpvOpFMul: return GM_OP_FMUL;
    case SpvOpFDiv: return GM_OP_FDIV;
    case SpvOpFMod: return GM_OP_FMOD;
    case SpvOpFRem: return GM_OP_FREM;
    case SpvOpFNegate: return GM_OP_FNEG;
    case SpvOpIAdd: return GM_OP_IADD;
    case SpvOpISub: return GM_OP_ISUB;
    case SpvOpIMul: return GM_OP_IMUL;
    case SpvOpSDiv: return GM_OP_SDIV;
    case SpvOpUDiv: return GM_OP_UDIV;
    case SpvOpSMod: return GM_OP_SMOD;
    case SpvOpSRem: return GM_OP_SREM;
    case SpvOpUMod: return GM_OP_UMOD;
    case SpvOpSNegate: return GM_OP_SNEG;
    case SpvOpBitwiseAnd: return GM_OP_AND;
    case SpvOpBitwiseOr: return GM_OP_OR;
    case SpvOpBitwiseXor: return GM_OP_XOR;
    case SpvOpNot: return GM_OP_NOT;
    case SpvOpShiftLeftLogical: return GM_OP_SHL;
    case SpvOpShiftRightLogical: return GM_OP_SHR_L;
    case SpvOpShiftRightArithmetic: return GM_OP_SHR_A;
    case SpvOpBitCount: return GM_OP_BIT_COUNT;
    case SpvOpBitReverse: return GM_OP_BIT_REVERSE;
    case SpvOpLogicalNot: return GM_OP_LNOT;
    case SpvOpLogicalAnd: return GM_OP_LAND;
    case SpvOpLogicalOr: return GM_OP_LOR;
    case SpvOpLogicalEqual: return GM_OP_LEQ;
    case SpvOpLogicalNotEqual: return GM_OP_LNE;
    case SpvOpIEqual: return GM_OP_IEQ;
    case SpvOpINotEqual: return GM_OP_INE;
    case SpvOpSLessThan: return GM_OP_SLT;
    case SpvOpSLessThanEqual: return GM_OP_SLE;
    case SpvOpSGreaterThan: return GM_OP_SGT;
    case SpvOpSGreaterThanEqual: return GM_OP_SGE;
    case SpvOpULessThan: return GM_OP_ULT;
    case SpvOpULessThanEqual: return GM_OP_ULE;
    case SpvOpUGreaterThan: return GM_OP_UGT;
    case SpvOpUGreaterThanEqual: return GM_OP_UGE;
    case SpvOpFOrdEqual: return GM_OP_FOEQ;
    case SpvOpFOrdNotEqual: return GM_OP_FONE;
    case SpvOpFOrdLessThan: return GM_OP_FOLT;
    case SpvOpFOrdLessThanEqual: return GM_OP_FOLE;
    case SpvOpFOrdGreaterThan: return GM_OP_FOGT;
    case SpvOpFOrdGreaterThanEqual: return GM_OP_FOGE;
    case SpvOpFUnordEqual: return GM_OP_FUEQ;
    case SpvOpFUnordNotEqual: return GM_OP_FUNE;
    case SpvOpFUnordLessThan: return GM_OP_FULT;
    case SpvOpFUnordLessThanEqual: return GM_OP_FULE;
    case SpvOpFUnordGreaterThan: return GM_OP_FUGT;
    case SpvOpFUnordGreaterThanEqual: return GM_OP_FUGE;
    case SpvOpIsNan: return GM_OP_ISNAN;
    case SpvOpIsInf: return GM_OP_ISINF;
    case SpvOpConvertFToS: return GM_OP_F2S;
    case SpvOpConvertFToU: return GM_OP_F2U;
    case SpvOpConvertSToF: return GM_OP_S2F;
    case SpvOpConvertUToF: return GM_OP_U2F;
    case SpvOpQuantizeToF16: return GM_OP_QUANT16;
    case SpvOpBitcast: case SpvOpCopyObject: case SpvOpUConvert: case SpvOpSConvert:
    case SpvOpFConvert: case SpvOpCopyLogical:
        return GM_OP_COPY;
    default: return -1;
    }
}

/* Texture / image instructions: fills a descriptor and emits GM_OP_TEX / GM_OP_IMAGE. */
static int decode_image(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc)
{
    gm_program *p = d->p;
    gm_tex_desc t;
    memset(&t, 0, sizeof t);
    t.dref = t.lod = t.bias = t.grad_x = t.grad_y = t.offset = t.sample = t.min_lod = -1;
    t.component = t.gather_offsets = t.data = t.data2 = -1;
    t.const_offset = 0;
    int has_result = op != SpvOpImageWrite;
    uint32_t rid = has_result ? w[2] : 0;
    unsigned at = has_result ? 3 : 1; /* first operand: the image */
    uint32_t img = w[at];
    const gm_type *it = tyof(d, img);
    if (!it || (it->kind != GM_TYPE_SAMPLER && it->kind != GM_TYPE_IMAGE))
        return gm_dec_fail(d, "%s on a non-image", gm_dec_opname(op));
    t.handle = reg(d, img);
    t.dim = (gm_tex_dim)it->dim;
    t.arrayed = it->arrayed;
    t.ms = it->ms;
    t.shadow = it->depth == 1;
    t.rtype = it->scalar == GM_SCALAR_INT ? GM_TEX_RESULT_INT
              : it->scalar == GM_SCALAR_UINT ? GM_TEX_RESULT_UINT : GM_TEX_RESULT_FLOAT;
    unsigned next = at + 1;
    int is_image = 0;
    switch (op) {
    case SpvOpImageSampleImplicitLod: t.kind = GM_TEX_SAMPLE; break;
    case SpvOpImageSampleExplicitLod: t.kind = GM_TEX_SAMPLE; t.explicit_lod = 1; break;
    case SpvOpImageSampleDrefImplicitLod: t.kind = GM_TEX_SAMPLE; t.dref_op = 1; break;
    case SpvOpImageSampleDrefExplicitLod:
        t.kind = GM_TEX_SAMPLE; t.dref_op = 1; t.explicit_lod = 1; break;
    case SpvOpImageSampleProjImplicitLod: t.kind = GM_TEX_SAMPLE; t.proj = 1; break;
    case SpvOpImageSampleProjExplicitLod:
        t.kind = GM_TEX_SAMPLE; t.proj = 1; t.explicit_lod = 1; break;
    case SpvOpImageSampleProjDrefImplicitLod:
        t.kind = GM_TEX_SAMPLE; t.proj = 1; t.dref_op = 1; break;
    case SpvOpImageSampleProjDrefExplicitLod:
        t.kind = GM_TEX_SAMPLE; t.proj = 1; t.dref_op = 1; t.explicit_lod = 1; break;
    case SpvOpImageFetch: t.kind = GM_TEX_FETCH; break;
    case SpvOpImageGather: t.kind = GM_TEX_GATHER; break;
    case SpvOpImageDrefGather: t.kind = GM_TEX_GATHER; t.dref_op = 1; break;
    case SpvOpImageQuerySizeLod: t.kind = GM_TEX_QUERY_SIZE; break;
    case SpvOpImageQuerySize:
        t.kind = GM_TEX_QUERY_SIZE;
        is_image = it->kind == GM_TYPE_IMAGE && it->sampled == 2;
        break;
    case SpvOpImageQueryLod: t.kind = GM_TEX_QUERY_LOD; break;
    case SpvOpImageQueryLevels: t.kind = GM_TEX_QUERY_LEVELS; break;
    case SpvOpImageQuerySamples: t.kind = GM_TEX_QUERY_SAMPLES; break;
    case SpvOpImageRead: is_image = 1; t.image_op = GM_IMG_LOAD; break;
    case SpvOpImageWrite: is_image = 1; t.image_op = GM_IMG_STORE; break;
    default:
        return gm_dec_fail(d, "%s is not supported", gm_dec_opname(op));
    }
    if (is_image && op == SpvOpImageQuerySize)
        t.image_op = GM_IMG_SIZE;
    int coord_needed = op != SpvOpImageQuerySize && op != SpvOpImageQuerySizeLod &&
                       op != SpvOpImageQueryLevels && op != SpvOpImageQuerySamples;
    if (coord_needed) {
        if (next >= wc)
            return gm_dec_fail(d, "%s without coordinates", gm_dec_opname(op));
        t.coord = reg(d, w[next]);
        t.coord_n = words(d, w[next]);
        next++;
    }
    if (op == SpvOpImageQuerySizeLod) {
        t.lod = reg(d, w[next++]);
    }
    if (t.dref_op) {
        t.dref = reg(d, w[next++]);
        t.shadow = 1;
    }
    if (op == SpvOpImageGather)
        t.component = reg(d, w[next++]);
    if (op == SpvOpImageWrite) {
        t.data = reg(d, w[next]);
        t.data_n = words(d, w[next]);
        next++;
    }
    if (next < wc) {
        uint32_t mask = w[next++];
        if (mask & SpvImageOperandsBiasMask)
            t.bias = reg(d, w[next++]);
        if (mask & SpvImageOperandsLodMask)
            t.lod = reg(d, w[next++]);
        if (mask & SpvImageOperandsGradMask) {
            t.grad_n = words(d, w[next]);
            t.grad_x = reg(d, w[next++]);
            t.grad_y = reg(d, w[next++]);
        }
        if (mask & SpvImageOperandsConstOffsetMask) {
            t.offset = reg(d, w[next++]);
            t.const_offset = 1;
        }
        if (mask & SpvImageOperandsOffsetMask)
            t.offset = reg(d, w[next++]);
        if (mask & SpvImageOperandsConstOffsetsMask)
            t.gather_offsets = reg(d, w[next++]);
        if (mask & SpvImageOperandsSampleMask)
            t.sample = reg(d, w[next++]);
        if (mask & SpvImageOperandsMinLodMask)
            t.min_lod = reg(d, w[next++]);
        if (next > wc)
            return gm_dec_fail(d, "%s: image operands run past the instruction",
                               gm_dec_opname(op));
    }
    if (d->failed)
        return -1;
    int dst = 0;
    if (has_result) {
        dst = reg(d, rid);
        if (dst < 0)
            return -1;
        t.result_n = words(d, rid);
        if (d->in_legacy_shadow_fn && t.dref_op && t.kind == GM_TEX_SAMPLE && t.result_n == 1) {
            int tmp = gm_dec_alloc_regs(d, 4);
            if (tmp < 0)
                return -1;
            t.legacy_shadow = 1;
            t.result_n = 4;
            d->legacy_id = rid;
            d->legacy_tmp = tmp;
            dst = tmp;
        }
    }
    gm_tex_desc *nt = realloc(p->tex, (size_t)(p->tex_count + 1) * sizeof *nt);
    if (!nt)
        return gm_dec_fail(d, "out of memory");
    p->tex = nt;
    nt[p->tex_count] = t;
    int idx = p->tex_count++;
    if (t.legacy_shadow) {   /* the float result: the first word of the four */
        if (gm_dec_emit(d, GM_OP_TEX, 4, dst, 0, 0, 0, (uint32_t)idx) < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_COPY, 1, reg(d, rid), dst, 0, 0, 0);
    }
    return gm_dec_emit(d, is_image ? GM_OP_IMAGE : GM_OP_TEX, t.result_n, dst, 0, 0, 0,
                       (uint32_t)idx);
}

/* interpolateAtOffset(v, off): the executor has no attribute planes, so the input is
 * extended from the pixel centre by its screen-space gradient, v + dFdx(v)*off.x +
 * dFdy(v)*off.y, with fine (per-row/column) derivatives; d/dy is taken along window y
 * (GM_DERIV_WINDOW_Y: the offset is in window coordinates, the quad's rows may run the
 * other way in y-flipped framebuffers, see gm_warp_set_quad_dy). Inputs are affine in screen space
 * when interpolated linearly (noperspective, or w constant over the primitive), so there
 * this equals the plane evaluation llvmpipe does (up to float rounding); under a varying w
 * it is the first-order approximation of it. */
static int interpolate_at_offset(gm_decoder *d, int dst, int n, uint32_t ptr_id, int off)
{
    int t = gm_dec_alloc_regs(d, 3 * n);
    if (t < 0)
        return -1;
    int v = t, dx = t + n, dy = t + 2 * n;
    if (emit_load(d, v, ptr_id) < 0 ||
        gm_dec_emit(d, GM_OP_DPDX, n, dx, v, 0, 0, 1) < 0 ||
        gm_dec_emit(d, GM_OP_DPDY, n, dy, v, 0, 0, 1 | GM_DERIV_WINDOW_Y) < 0 ||
        gm_dec_emit(d, GM_OP_VEC_TIMES_SCALAR, n, dx, dx, off, 0, 0) < 0 ||
        gm_dec_emit(d, GM_OP_VEC_TIMES_SCALAR, n, dy, dy, off + 1, 0, 0) < 0 ||
        gm_dec_emit(d, GM_OP_FADD, n, v, v, dx, 0, 0) < 0)
        return -1;
    return gm_dec_emit(d, GM_OP_FADD, n, dst, v, dy, 0, 0);
}

/* GLSL.std.450 on doubles: the functions GLSL defines for double (GM_OP_DEXT, n = every
 * result word); any other instruction is refused by name. */
static int ext_inst_f64(gm_decoder *d, uint32_t inst, const char *name, const uint32_t *w,
                        int nops, int dst, int n, int a, int b, int c, int in_n)
{
    uint32_t x = inst | ((uint32_t)in_n << 16);
    switch (inst) {
    case GLSLstd450Round: case GLSLstd450RoundEven: case GLSLstd450Trunc: case GLSLstd450FAbs:
    case GLSLstd450FSign: case GLSLstd450Floor: case GLSLstd450Ceil: case GLSLstd450Fract:
    case GLSLstd450Sqrt: case GLSLstd450InverseSqrt: case GLSLstd450FMin: case GLSLstd450FMax:
    case GLSLstd450NMin: case GLSLstd450NMax: case GLSLstd450FClamp: case GLSLstd450NClamp:
    case GLSLstd450FMix: case GLSLstd450Step: case GLSLstd450SmoothStep: case GLSLstd450Fma:
    case GLSLstd450Ldexp: case GLSLstd450Length: case GLSLstd450Distance:
    case GLSLstd450Normalize: case GLSLstd450Cross: case GLSLstd450FaceForward:
    case GLSLstd450Reflect: case GLSLstd450Determinant: case GLSLstd450MatrixInverse:
    case GLSLstd450ModfStruct: case GLSLstd450FrexpStruct:
        return gm_dec_emit(d, GM_OP_DEXT, n, dst, a, b, c, x);
    case GLSLstd450Refract:
        /* eta may be a float or a double scalar */
        if (nops == 3 && !is_f64(d, w[7]))
            x |= 1u << 31;
        return gm_dec_emit(d, GM_OP_DEXT, n, dst, a, b, c, x);
    case GLSLstd450Modf:
    case GLSLstd450Frexp: {
        /* both results into a temp (fraction/mantissa n words, then the whole part n words
         * or the exponents n/2 words), then the second goes through the pointer */
        int second = inst == GLSLstd450Modf ? n : n / 2;
        int tmp = gm_dec_alloc_regs(d, n + second);
        if (tmp < 0)
            return -1;
        x = (inst == GLSLstd450Modf ? GLSLstd450ModfStruct : GLSLstd450FrexpStruct) |
            ((uint32_t)in_n << 16);
        if (gm_dec_emit(d, GM_OP_DEXT, n + second, tmp, a, 0, 0, x) < 0 ||
            gm_dec_emit(d, GM_OP_COPY, n, dst, tmp, 0, 0, 0) < 0)
            return -1;
        if (pointee_of(d, w[6]) < 0)
            return -1;
        return emit_store(d, w[6], tmp + n);
    }
    default:
        return gm_dec_fail(d, "GLSL.std.450 %s on doubles is not supported", name);
    }
}

/* AMD_shader_trinary_minmax (min3, max3, mid3) as Mesa's GLSL compiler builds them, from
 * two-operand GLSL.std.450 min/max (so NaNs behave as there): min3(x,y,z) = min(x, min(y,z)),
 * max3 likewise, mid3(x,y,z) = max(min(x,y), max(min(x,z), min(y,z))). */
static int ext_inst_trinary(gm_decoder *d, const uint32_t *w, unsigned wc)
{
    uint32_t inst = w[4];
    if (wc != 8 || inst < 1 || inst > 9)
        return gm_dec_fail(d, "bad SPV_AMD_shader_trinary_minmax instruction %u", inst);
    if (is_64(d, w[2]))
        return gm_dec_fail(d, "SPV_AMD_shader_trinary_minmax on 64-bit values is not supported");
    /* instructions 1..9: {F,U,S}Min3, {F,U,S}Max3, {F,U,S}Mid3 */
    static const uint32_t mins[3] = {GLSLstd450FMin, GLSLstd450UMin, GLSLstd450SMin};
    static const uint32_t maxs[3] = {GLSLstd450FMax, GLSLstd450UMax, GLSLstd450SMax};
    int kind = (int)(inst - 1) % 3, fn = (int)(inst - 1) / 3;
    int dst = reg(d, w[2]), n = words(d, w[2]);
    int x = reg(d, w[5]), y = reg(d, w[6]), z = reg(d, w[7]);
    if (d->failed)
        return -1;
    uint32_t mn = mins[kind] | (uint32_t)n << 16, mx = maxs[kind] | (uint32_t)n << 16;
    int t = gm_dec_alloc_regs(d, 3 * n);
    if (t < 0)
        return -1;
    if (fn < 2) {
        uint32_t f = fn == 0 ? mn : mx;
        return gm_dec_emit(d, GM_OP_EXT, n, t, y, z, 0, f) < 0 ? -1
               : gm_dec_emit(d, GM_OP_EXT, n, dst, x, t, 0, f);
    }
    if (gm_dec_emit(d, GM_OP_EXT, n, t, x, z, 0, mn) < 0 ||          /* min(x, z) */
        gm_dec_emit(d, GM_OP_EXT, n, t + n, y, z, 0, mn) < 0 ||      /* min(y, z) */
        gm_dec_emit(d, GM_OP_EXT, n, t + 2 * n, t, t + n, 0, mx) < 0 ||
        gm_dec_emit(d, GM_OP_EXT, n, t, x, y, 0, mn) < 0)            /* min(x, y) */
        return -1;
    return gm_dec_emit(d, GM_OP_EXT, n, dst, t, t + 2 * n, 0, mx);
}

static int ext_inst(gm_decoder *d, const uint32_t *w, unsigned wc)
{
    uint32_t rid = w[2], set = w[3], inst = w[4];
    if (set >= d->p->bound)
        return gm_dec_fail(d, "bad OpExtInst set");
    if (d->glsl_import[set] == 2)
        return 0; /* NonSemantic debug info: no code */
    if (d->glsl_import[set] == 3)
        return ext_inst_trinary(d, w, wc);
    if (d->glsl_import[set] != 1)
        return gm_dec_fail(d, "OpExtInst of an unsupported instruction set");
    const char *name = gm_glsl450_name(inst);
    if (!name)
        return gm_dec_fail(d, "unknown GLSL.std.450 instruction %u", inst);
    int nops = (int)wc - 5;
    if (nops != gm_glsl450_operand_count(inst))
        return gm_dec_fail(d, "GLSL.std.450 %s: wrong operand count", name);
    int dst = reg(d, rid);
    int n = words(d, rid);
    int a = nops > 0 ? reg(d, w[5]) : 0;
    int b = nops > 1 ? reg(d, w[6]) : 0;
    int c = nops > 2 ? reg(d, w[7]) : 0;
    if (d->failed)
        return -1;
    int in_n = nops > 0 ? words(d, w[5]) : 0;
    if (inst == GLSLstd450PackDouble2x32 || inst == GLSLstd450UnpackDouble2x32)
        return gm_dec_emit(d, GM_OP_COPY, n, dst, a, 0, 0, 0); /* same words: low, high */
    if (nops > 0 && (is_f64(d, rid) || is_f64(d, w[5])))
        return ext_inst_f64(d, inst, name, w, nops, dst, n, a, b, c, in_n);
    if (nops > 0 && (is_i64(d, rid) || is_i64(d, w[5]))) {
        switch (inst) {
        case GLSLstd450SAbs: case GLSLstd450SSign: case GLSLstd450SMin: case GLSLstd450SMax:
        case GLSLstd450UMin: case GLSLstd450UMax: case GLSLstd450SClamp: case GLSLstd450UClamp:
            if (!is_i64(d, rid))
                break;
            return gm_dec_emit(d, GM_OP_LEXT, n, dst, a, b, c, inst);
        default:
            break;
        }
        return gm_dec_fail(d, "GLSL.std.450 %s on 64-bit integers is not supported", name);
    }
    switch (inst) {
    case GLSLstd450Modf:
    case GLSLstd450Frexp: {
        /* Second result goes through a pointer: compute both into a temp, then store. */
        int tmp = gm_dec_alloc_regs(d, 2 * n);
        if (tmp < 0)
            return -1;
        uint32_t sub = inst == GLSLstd450Modf ? GLSLstd450ModfStruct : GLSLstd450FrexpStruct;
        if (gm_dec_emit(d, GM_OP_EXT, n, tmp, a, 0, 0, sub | ((uint32_t)in_n << 16)) < 0 ||
            gm_dec_emit(d, GM_OP_COPY, n, dst, tmp, 0, 0, 0) < 0)
            return -1;
        /* the pointer operand (w[6]) must be stored to */
        int pointee = pointee_of(d, w[6]);
        if (pointee < 0)
            return -1;
        return emit_store(d, w[6], tmp + n);
    }
    case GLSLstd450ModfStruct:
    case GLSLstd450FrexpStruct:
        return gm_dec_emit(d, GM_OP_EXT, in_n, dst, a, 0, 0, inst | ((uint32_t)in_n << 16));
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
        /* One sample per pixel: the value at the pixel centre. */
        return emit_load(d, dst, w[5]);
    case GLSLstd450InterpolateAtOffset:
        return interpolate_at_offset(d, dst, n, w[5], b);
    default:
        return gm_dec_emit(d, GM_OP_EXT, n, dst, a, b, c, inst | ((uint32_t)in_n << 16));
    }
}

static int add_tex_desc(gm_decoder *d, const gm_tex_desc *t)
{
    gm_program *p = d->p;
    gm_tex_desc *nt = realloc(p->tex, (size_t)(p->tex_count + 1) * sizeof *nt);
    if (!nt)
        return gm_dec_fail(d, "out of memory");
    p->tex = nt;
    nt[p->tex_count] = *t;
    return p->tex_count++;
}

/* OpImageTexelPointer: the image unit is loaded here (the image operand is a pointer to the
 * image uniform); the descriptor (unit register, coordinates, sample) waits in the pointer
 * for the atomic that uses it (image_atomic). */
static int texel_pointer(gm_decoder *d, const uint32_t *w, unsigned wc)
{
    if (wc < 6)
        return gm_dec_fail(d, "short OpImageTexelPointer");
    uint32_t rid = w[2], img = w[3];
    int pointee = pointee_of(d, img);
    if (pointee < 0)
        return -1;
    const gm_type *it = &d->p->types[pointee];
    const gm_ptr *ip = &d->ptr[img];
    if (it->kind != GM_TYPE_IMAGE || ip->space != GM_SPACE_UNIFORM)
        return gm_dec_fail(d, "OpImageTexelPointer on something other than an image uniform");
    int h = gm_dec_alloc_regs(d, 1);
    if (h < 0)
        return -1;
    if (ip->static_addr >= 0) {
        if (gm_dec_emit(d, GM_OP_UNI_LOAD, 1, h, ip->static_addr, 0, 0, 0) < 0)
            return -1;
    } else if (gm_dec_emit(d, GM_OP_UNI_LOAD_DYN, 1, h, reg(d, img), 0, 0, 0) < 0) {
        return -1;
    }
    gm_tex_desc t;
    memset(&t, 0, sizeof t);
    t.dref = t.lod = t.bias = t.grad_x = t.grad_y = t.offset = t.sample = t.min_lod = -1;
    t.component = t.gather_offsets = t.data = t.data2 = -1;
    t.handle = h;
    t.coord = reg(d, w[4]);
    t.coord_n = words(d, w[4]);
    if (it->ms)
        t.sample = reg(d, w[5]);
    t.dim = (gm_tex_dim)it->dim;
    t.arrayed = it->arrayed;
    t.ms = it->ms;
    t.rtype = it->scalar == GM_SCALAR_INT ? GM_TEX_RESULT_INT
              : it->scalar == GM_SCALAR_UINT ? GM_TEX_RESULT_UINT : GM_TEX_RESULT_FLOAT;
    if (d->failed || rid >= d->p->bound)
        return -1;
    int idx = add_tex_desc(d, &t);
    if (idx < 0)
        return -1;
    d->ptr[rid].space = GM_SPACE_IMAGE;
    d->ptr[rid].binding = idx;
    d->ptr[rid].static_addr = -1;
    return 0;
}

/* imageAtomic*(): an atomic on a texel pointer becomes GM_OP_IMAGE with an atomic image op. */
static int image_atomic(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc, int desc)
{
    gm_image_op iop;
    switch (op) {
    case SpvOpAtomicIAdd: iop = GM_IMG_ATOMIC_ADD; break;
    case SpvOpAtomicSMin: case SpvOpAtomicUMin: iop = GM_IMG_ATOMIC_MIN; break;
    case SpvOpAtomicSMax: case SpvOpAtomicUMax: iop = GM_IMG_ATOMIC_MAX; break;
    case SpvOpAtomicAnd: iop = GM_IMG_ATOMIC_AND; break;
    case SpvOpAtomicOr: iop = GM_IMG_ATOMIC_OR; break;
    case SpvOpAtomicXor: iop = GM_IMG_ATOMIC_XOR; break;
    case SpvOpAtomicExchange: iop = GM_IMG_ATOMIC_EXCHANGE; break;
    case SpvOpAtomicCompareExchange: iop = GM_IMG_ATOMIC_COMP_SWAP; break;
    default:
        return gm_dec_fail(d, "%s on an image is not supported", gm_dec_opname(op));
    }
    if (desc < 0 || desc >= d->p->tex_count)
        return gm_dec_fail(d, "image atomic without its texel pointer");
    gm_tex_desc t = d->p->tex[desc];
    t.kind = 0;
    t.image_op = iop;
    if (op == SpvOpAtomicCompareExchange) {
        if (wc < 9)
            return gm_dec_fail(d, "short OpAtomicCompareExchange");
        t.data = reg(d, w[7]);
        t.data2 = reg(d, w[8]);
    } else {
        if (wc < 7)
            return gm_dec_fail(d, "short %s", gm_dec_opname(op));
        t.data = reg(d, w[6]);
    }
    t.data_n = 1;
    t.result_n = 1;
    int dst = reg(d, w[2]);
    if (d->failed)
        return -1;
    int idx = add_tex_desc(d, &t);
    if (idx < 0)
        return -1;
    return gm_dec_emit(d, GM_OP_IMAGE, 1, dst, 0, 0, 0, (uint32_t)idx);
}

static int atomic_op(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc)
{
    uint32_t ptr_id = op == SpvOpAtomicStore ? w[1] : w[3];
    const gm_ptr *pi = &d->ptr[ptr_id < d->p->bound ? ptr_id : 0];
    if (op == SpvOpAtomicLoad)
        return emit_load(d, reg(d, w[2]), ptr_id);
    if (op == SpvOpAtomicStore)
        return emit_store(d, ptr_id, reg(d, w[4]));
    if (pi->space == GM_SPACE_IMAGE)
        return image_atomic(d, op, w, wc, pi->binding);
    if (pi->space != GM_SPACE_BUFFER && pi->space != GM_SPACE_SHARED)
        return gm_dec_fail(d, "%s on non-buffer memory is not supported", gm_dec_opname(op));
    int dst = reg(d, w[2]);
    int pr = reg(d, ptr_id);
    int val = 0, cmp = 0;
    switch (op) {
    case SpvOpAtomicIIncrement:
    case SpvOpAtomicIDecrement:
        break;
    case SpvOpAtomicCompareExchange:
        if (wc < 9)
            return gm_dec_fail(d, "short OpAtomicCompareExchange");
        val = reg(d, w[7]);
        cmp = reg(d, w[8]);
        break;
    default:
        if (wc < 7)
            return gm_dec_fail(d, "short %s", gm_dec_opname(op));
        val = reg(d, w[6]);
        break;
    }
    if (d->failed)
        return -1;
    int ax = gm_dec_aux(d, op);
    if (pi->space == GM_SPACE_SHARED)
        return ax < 0 ? -1 : gm_dec_emit(d, GM_OP_SH_ATOMIC, 1, dst, pr, val, cmp, (uint32_t)ax);
    if (ax < 0 || gm_dec_aux(d, (uint32_t)pi->binding | (pi->arrayed ? GM_BUF_ARRAYED : 0)) < 0 ||
        gm_dec_aux(d, pi->bkind) < 0)
        return -1;
    d->p->uses_discard |= 0;
    return gm_dec_emit(d, GM_OP_BUF_ATOMIC, 1, dst, pr, val, cmp, (uint32_t)ax);
}

/* Componentwise instructions with a 64-bit integer operand or result get the ops of
 * exec/gm_exec_i64.c. Returns 1 when emitted, 0 when not such an instruction, -1. */
static int i64_simple(gm_decoder *d, unsigned op, int sop, const uint32_t *w, unsigned wc)
{
    int r64 = is_i64(d, w[2]), a64 = is_i64(d, w[3]), gop = GM_OP_LALU;
    if (!r64 && !a64)
        return 0;
    uint32_t x = (uint32_t)sop;
    switch (sop >= 0 && sop < GM_OP_COUNT ? (gm_i64_class)gm_op_table[sop].i64 : GM_I64K_NONE) {
    case GM_I64K_SAME: /* every operand 64-bit (gm_opcodes.py i64='same') */
        if (!r64 || !a64 || (wc > 4 && !is_i64(d, w[4])))
            return gm_dec_fail(d, "%s mixing 64-bit and 32-bit operands", gm_dec_opname(op));
        break;
    case GM_I64K_SHIFT:
        if (!r64 || !a64)
            return gm_dec_fail(d, "%s of a 32-bit base by a 64-bit count is not supported",
                               gm_dec_opname(op));
        if (!is_i64(d, w[4]))
            x |= GM_I64_B32;
        break;
    case GM_I64K_F2I:
        gop = GM_OP_LCONV;
        x = is_f64(d, w[3]) ? (sop == GM_OP_F2S ? GM_I64_D2S : GM_I64_D2U)
                            : (sop == GM_OP_F2S ? GM_I64_F2S : GM_I64_F2U);
        break;
    case GM_I64K_I2F:
        gop = GM_OP_LCONV;
        x = is_f64(d, w[2]) ? (sop == GM_OP_S2F ? GM_I64_S2D : GM_I64_U2D)
                            : (sop == GM_OP_S2F ? GM_I64_S2F : GM_I64_U2F);
        break;
    case GM_I64K_RESIZE:
        if (r64 == a64 || op == SpvOpBitcast || op == SpvOpCopyObject || op == SpvOpCopyLogical)
            return 0; /* same width, or a bitcast (packInt2x32, doubleBitsToInt64): words as they are */
        gop = GM_OP_LCONV;
        x = a64 ? GM_I64_TRUNC : op == SpvOpSConvert ? GM_I64_SEXT : GM_I64_ZEXT;
        break;
    case GM_I64K_CMP:
        if (a64)
            break;
        return gm_dec_fail(d, "%s on 64-bit integers is not supported", gm_dec_opname(op));
    case GM_I64K_NONE:
        return gm_dec_fail(d, "%s on 64-bit integers is not supported", gm_dec_opname(op));
    }
    int dst = reg(d, w[2]), a = reg(d, w[3]), b = wc > 4 ? reg(d, w[4]) : 0;
    if (d->failed)
        return -1;
    return gm_dec_emit(d, gop, words(d, w[2]), dst, a, b, 0, x) < 0 ? -1 : 1;
}

/* Componentwise instructions with a double operand or result get the 64-bit ops
 * (exec/gm_exec_f64.c). Returns 1 when emitted, 0 when not a double instruction, -1. */
static int f64_simple(gm_decoder *d, unsigned op, int sop, const uint32_t *w, unsigned wc)
{
    int res64 = is_f64(d, w[2]), a64 = wc > 3 && is_f64(d, w[3]), gop;
    if (!res64 && !a64)
        return 0;
    /* The double opcode of each float one (and DCMP for the comparisons): gm_opcodes.py's f64. */
    gop = sop >= 0 && sop < GM_OP_COUNT ? gm_op_table[sop].f64 : 0;
    if (sop == GM_OP_COPY) {
        if (op != SpvOpFConvert || res64 == a64)
            return 0; /* bitcasts (packDouble2x32) and copies move words unchanged */
        gop = res64 ? GM_OP_F2D : GM_OP_D2F;
    } else if (!gop) {
        return gm_dec_fail(d, "%s on doubles is not supported", gm_dec_opname(op));
    }
    int dst = reg(d, w[2]), a = reg(d, w[3]), b = wc > 4 ? reg(d, w[4]) : 0;
    if (d->failed)
        return -1;
    return gm_dec_emit(d, gop, words(d, w[2]), dst, a, b, 0,
                       gop == GM_OP_DCMP ? (uint32_t)sop : 0) < 0 ? -1 : 1;
}

static int decode_inst(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc, int func,
                       int *cur_block)
{
    gm_program *p = d->p;
    int sop = simple_op(op);
    if (sop >= 0 && wc > 3) {
        int r = i64_simple(d, op, sop, w, wc);
        if (r)
            return r < 0 ? -1 : 0;
        r = f64_simple(d, op, sop, w, wc);
        if (r)
            return r < 0 ? -1 : 0;
    }
    if (sop >= 0) {
        int dst = reg(d, w[2]);
        int a = reg(d, w[3]);
        int b = wc > 4 ? reg(d, w[4]) : 0;
        if (d->failed)
            return -1;
        return gm_dec_emit(d, sop, words(d, w[2]), dst, a, b, 0, 0);
    }
    switch (op) {
    case SpvOpNop: case SpvOpSource: case SpvOpSourceContinued: case SpvOpSourceExtension:
    case SpvOpModuleProcessed: case SpvOpUndef: case SpvOpVariable: case SpvOpName:
    case SpvOpMemberName: case SpvOpString: case SpvOpMemoryBarrier:
        /* memoryBarrier*(): warps run one instruction at a time over one memory, so every
         * write is already visible in program order: nothing to do. */
        return 0;
    case SpvOpControlBarrier: {
        /* barrier() in a compute shader (execution scope Workgroup): the scheduler holds
         * the group's warps there. Other scopes (subgroup) need nothing in the model. */
        uint32_t scope = 0;
        if (d->execution_model != SpvExecutionModelGLCompute ||
            !const_value(d, w[1], &scope) || scope != SpvScopeWorkgroup)
            return 0;
        return gm_dec_emit(d, GM_OP_BARRIER, 0, 0, 0, 0, 0, 0);
    }
    case SpvOpEmitVertex: case SpvOpEndPrimitive:
    case SpvOpEmitStreamVertex: case SpvOpEndStreamPrimitive: {
        /* geometry shaders: the frame runner's emit hook collects the lanes' outputs */
        uint32_t stream = 0;
        if ((op == SpvOpEmitStreamVertex || op == SpvOpEndStreamPrimitive) &&
            !const_value(d, w[1], &stream))
            return gm_dec_fail(d, "%s with a non-constant stream", gm_dec_opname(op));
        uint32_t end = op == SpvOpEndPrimitive || op == SpvOpEndStreamPrimitive;
        return gm_dec_emit(d, GM_OP_GS_EMIT, 0, 0, 0, 0, 0, end | stream << 1);
    }
    case SpvOpFunctionParameter: {
        const gm_type *t = tyof(d, w[2]);
        if (t && t->kind == GM_TYPE_POINTER) {
            gm_ptr *pi = &d->ptr[w[2]];
            pi->static_addr = -1;
            pi->vec_stride = 4;
            switch (t->storage) {
            case SpvStorageClassFunction: case SpvStorageClassPrivate:
            case SpvStorageClassInput: case SpvStorageClassOutput:
                pi->space = GM_SPACE_REG;
                break;
            case SpvStorageClassWorkgroup:
                pi->space = GM_SPACE_SHARED;
                break;
            case SpvStorageClassUniformConstant:
                pi->space = GM_SPACE_UNIFORM;
                break;
            default:
                pi->space = GM_SPACE_NONE; /* buffer pointers cannot be passed */
                break;
            }
        }
        return 0;
    }
    case SpvOpLabel: {
        int b = block_of(d, w[1]);
        if (b < 0)
            return -1;
        p->blocks[b].first_pc = p->code_count;
        *cur_block = b;
        return 0;
    }
    case SpvOpSelectionMerge:
        if (*cur_block >= 0)
            p->blocks[*cur_block].merge = block_of(d, w[1]);
        return d->failed ? -1 : 0;
    case SpvOpLoopMerge:
        if (*cur_block >= 0) {
            p->blocks[*cur_block].merge = block_of(d, w[1]);
            p->blocks[*cur_block].cont = block_of(d, w[2]);
        }
        return d->failed ? -1 : 0;
    case SpvOpBranch: {
        int b = block_of(d, w[1]);
        return b < 0 ? -1 : gm_dec_emit(d, GM_OP_BRANCH, 0, 0, 0, 0, 0, (uint32_t)b);
    }
    case SpvOpBranchConditional: {
        int c = reg(d, w[1]), t = block_of(d, w[2]), f = block_of(d, w[3]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, GM_OP_BRANCH_COND, 0, 0, c, t, f, 0);
    }
    case SpvOpSwitch: {
        int sel = reg(d, w[1]), def = block_of(d, w[2]);
        if (d->failed)
            return -1;
        if (is_i64(d, w[1])) /* its case literals are two words each */
            return gm_dec_fail(d, "OpSwitch on a 64-bit selector is not supported");
        unsigned npairs = (wc - 3) / 2;
        int ax = gm_dec_aux(d, npairs);
        if (ax < 0 || gm_dec_aux(d, (uint32_t)def) < 0)
            return -1;
        for (unsigned i = 0; i < npairs; i++) {
            int b = block_of(d, w[4 + 2 * i]);
            if (b < 0 || gm_dec_aux(d, w[3 + 2 * i]) < 0 || gm_dec_aux(d, (uint32_t)b) < 0)
                return -1;
        }
        return gm_dec_emit(d, GM_OP_SWITCH, 0, 0, sel, 0, 0, (uint32_t)ax);
    }
    case SpvOpReturn:
        return gm_dec_emit(d, GM_OP_RETURN, 0, 0, 0, 0, 0, 0);
    case SpvOpReturnValue: {
        int a = reg(d, w[1]);
        if (a < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_RETURN_VALUE, p->funcs[func].ret_n, p->funcs[func].ret_reg,
                           a, 0, 0, 0);
    }
    case SpvOpKill:
    case SpvOpTerminateInvocation:
        p->uses_discard = 1;
        return gm_dec_emit(d, GM_OP_KILL, 0, 0, 0, 0, 0, 0);
    case SpvOpDemoteToHelperInvocation:
        p->uses_discard = 1;
        return gm_dec_emit(d, GM_OP_DEMOTE, 0, 0, 0, 0, 0, 0);
    case SpvOpSubgroupBallotKHR: case SpvOpSubgroupFirstInvocationKHR:
    case SpvOpSubgroupReadInvocationKHR: case SpvOpSubgroupAnyKHR: case SpvOpSubgroupAllKHR:
    case SpvOpSubgroupAllEqualKHR: {
        /* ARB_shader_ballot / ARB_shader_group_vote over llvmpipe-sized subgroups */
        if (wc < (op == SpvOpSubgroupReadInvocationKHR ? 5u : 4u))
            return gm_dec_fail(d, "short %s", gm_dec_opname(op));
        int dst = reg(d, w[2]), a = reg(d, w[3]);
        int b = op == SpvOpSubgroupReadInvocationKHR ? reg(d, w[4]) : 0;
        if (d->failed)
            return -1;
        p->uses_subgroups = 1;
        gm_sg_op sg = op == SpvOpSubgroupBallotKHR ? GM_SG_BALLOT
                      : op == SpvOpSubgroupFirstInvocationKHR ? GM_SG_READ_FIRST
                      : op == SpvOpSubgroupReadInvocationKHR ? GM_SG_READ_INVOCATION
                      : op == SpvOpSubgroupAnyKHR ? GM_SG_ANY
                      : op == SpvOpSubgroupAllKHR ? GM_SG_ALL : GM_SG_ALL_EQUAL;
        return gm_dec_emit(d, GM_OP_SUBGROUP, words(d, w[2]), dst, a, b, 0,
                           (uint32_t)sg | (uint32_t)words(d, w[3]) << 8);
    }
    case SpvOpIsHelperInvocationEXT:
        return gm_dec_emit(d, GM_OP_IS_HELPER, 1, reg(d, w[2]), 0, 0, 0, 0);
    case SpvOpUnreachable:
        return gm_dec_emit(d, GM_OP_UNREACHABLE, 0, 0, 0, 0, 0, 0);
    case SpvOpPhi: {
        int dst = reg(d, w[2]);
        unsigned npairs = (wc - 3) / 2;
        int ax = gm_dec_aux(d, npairs);
        if (dst < 0 || ax < 0)
            return -1;
        for (unsigned i = 0; i < npairs; i++) {
            int src = reg(d, w[3 + 2 * i]), b = block_of(d, w[4 + 2 * i]);
            if (src < 0 || b < 0 || gm_dec_aux(d, (uint32_t)b) < 0 ||
                gm_dec_aux(d, (uint32_t)src) < 0)
                return -1;
        }
        return gm_dec_emit(d, GM_OP_PHI, words(d, w[2]), dst, 0, 0, 0, (uint32_t)ax);
    }
    case SpvOpFunctionCall: {
        uint32_t fid = w[3];
        int fi = fid < p->bound ? d->func_index[fid] : -1;
        if (fi < 0)
            return gm_dec_fail(d, "call of an unknown function");
        gm_function *f = &p->funcs[fi];
        if ((int)wc - 4 != f->param_count)
            return gm_dec_fail(d, "call of %s with %d arguments, expected %d", f->name,
                               (int)wc - 4, f->param_count);
        for (int i = 0; i < f->param_count; i++) {
            int src = reg(d, w[4 + i]);
            int pr = reg(d, (uint32_t)f->params[i]);
            if (src < 0 || pr < 0)
                return -1;
            /* Pointer arguments: the callee's parameter inherits what is known. */
            const gm_type *at = tyof(d, w[4 + i]);
            if (at && at->kind == GM_TYPE_POINTER && d->ptr[w[4 + i]].space == GM_SPACE_BUFFER)
                return gm_dec_fail(d, "passing a buffer pointer to %s is not supported",
                                   f->name);
            if (gm_dec_emit(d, GM_OP_COPY, words(d, w[4 + i]), pr, src, 0, 0, 0) < 0)
                return -1;
        }
        if (gm_dec_emit(d, GM_OP_CALL, 0, 0, 0, 0, 0, (uint32_t)fi) < 0)
            return -1;
        if (f->ret_n > 0)
            return gm_dec_emit(d, GM_OP_COPY, f->ret_n, reg(d, w[2]), f->ret_reg, 0, 0, 0);
        return 0;
    }
    case SpvOpLoad: {
        int dst = reg(d, w[2]);
        if (dst >= 0 && w[3] < p->bound) { /* subgroup built-ins are computed, not inputs */
            int sg = subgroup_builtin(d->deco[w[3]].builtin);
            if (sg >= 0 && (p->uses_subgroups = 1))
                return gm_dec_emit(d, GM_OP_SUBGROUP, words(d, w[2]), dst, 0, 0, 0, (uint32_t)sg);
        }
        return dst < 0 ? -1 : emit_load(d, dst, w[3]);
    }
    case SpvOpStore: {
        int src = reg(d, w[2]);
        return src < 0 ? -1 : emit_store(d, w[1], src);
    }
    case SpvOpCopyMemory: {
        int pointee = pointee_of(d, w[2]);
        if (pointee < 0)
            return -1;
        int tmp = gm_dec_alloc_regs(d, p->types[pointee].ncomp);
        if (tmp < 0 || emit_load(d, tmp, w[2]) < 0)
            return -1;
        return emit_store(d, w[1], tmp);
    }
    case SpvOpAccessChain:
    case SpvOpInBoundsAccessChain:
        return access_chain(d, w, wc);
    case SpvOpArrayLength:
        return array_length(d, w, wc);
    case SpvOpCompositeConstruct: {
        int dst = reg(d, w[2]);
        if (dst < 0)
            return -1;
        if (d->legacy_id && wc == 7 && w[3] == d->legacy_id && w[4] == d->legacy_id &&
            w[5] == d->legacy_id && w[6] == d->legacy_id && words(d, w[2]) == 4)
            return gm_dec_emit(d, GM_OP_COPY, 4, dst, d->legacy_tmp, 0, 0, 0);
        int first = copy_list_begin(d), off = 0;
        for (unsigned i = 3; i < wc; i++) {
            int src = reg(d, w[i]);
            if (src < 0)
                return -1;
            for (int k = 0; k < words(d, w[i]); k++)
                if (copy_pair(d, dst + off++, src + k))
                    return -1;
        }
        return gm_dec_emit(d, GM_OP_COPY_LIST, off, 0, 0, 0, 0, (uint32_t)first);
    }
    case SpvOpCompositeExtract: {
        int dst = reg(d, w[2]), src = reg(d, w[3]), rt;
        if (d->failed)
            return -1;
        int off = composite_offset(d, p->type_of[w[3]], w + 4, wc - 4, &rt);
        if (off < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_COPY, words(d, w[2]), dst, src + off, 0, 0, 0);
    }
    case SpvOpCompositeInsert: {
        int dst = reg(d, w[2]), obj = reg(d, w[3]), comp = reg(d, w[4]), rt;
        if (d->failed)
            return -1;
        int off = composite_offset(d, p->type_of[w[4]], w + 5, wc - 5, &rt);
        if (off < 0)
            return -1;
        int n = words(d, w[2]), on = words(d, w[3]);
        int first = copy_list_begin(d);
        for (int k = 0; k < n; k++)
            if (copy_pair(d, dst + k, (k >= off && k < off + on) ? obj + k - off : comp + k))
                return -1;
        return gm_dec_emit(d, GM_OP_COPY_LIST, n, 0, 0, 0, 0, (uint32_t)first);
    }
    case SpvOpVectorShuffle: {
        int dst = reg(d, w[2]), v1 = reg(d, w[3]), v2 = reg(d, w[4]);
        if (d->failed)
            return -1;
        /* component indexes; a double component is cw = 2 words */
        int cw = is_64(d, w[3]) ? 2 : 1;
        int n1 = words(d, w[3]) / cw, n = (int)wc - 5;
        int first = copy_list_begin(d);
        for (int k = 0; k < n; k++) {
            uint32_t s = w[5 + k];
            int src = s == 0xffffffffu ? v1
                      : (int)s < n1 ? v1 + (int)s * cw : v2 + ((int)s - n1) * cw;
            for (int h = 0; h < cw; h++)
                if (copy_pair(d, dst + k * cw + h, src + h))
                    return -1;
        }
        return gm_dec_emit(d, GM_OP_COPY_LIST, n * cw, 0, 0, 0, 0, (uint32_t)first);
    }
    case SpvOpVectorExtractDynamic: {
        int dst = reg(d, w[2]), v = reg(d, w[3]), i = reg(d, w[4]);
        if (d->failed)
            return -1;
        if (is_64(d, w[3]))
            return gm_dec_emit(d, GM_OP_DEXTRACT_DYN, 2, dst, v, i, 0,
                               (uint32_t)words(d, w[3]) / 2);
        /* an index Mesa knows at compile time reads undefined (0) out of range */
        uint32_t undef = d->dynamic_val && !d->dynamic_val[w[4]] ? GM_EXTRACT_UNDEF : 0;
        return gm_dec_emit(d, GM_OP_VEC_EXTRACT_DYN, 1, dst, v, i, 0,
                           (uint32_t)words(d, w[3]) | undef);
    }
    case SpvOpVectorInsertDynamic: {
        int dst = reg(d, w[2]), v = reg(d, w[3]), c = reg(d, w[4]), i = reg(d, w[5]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, is_64(d, w[2]) ? GM_OP_DINSERT_DYN : GM_OP_VEC_INSERT_DYN,
                           words(d, w[2]), dst, v, c, i, 0);
    }
    case SpvOpSelect: {
        int dst = reg(d, w[2]), c = reg(d, w[3]), a = reg(d, w[4]), b = reg(d, w[5]);
        if (d->failed)
            return -1;
        int n = words(d, w[2]);
        if (is_64(d, w[2])) /* condition per component: one word per two */
            return gm_dec_emit(d, GM_OP_DSELECT, n, dst, c, a, b,
                               (uint32_t)(words(d, w[3]) == 1));
        return gm_dec_emit(d, GM_OP_SELECT, n, dst, c, a, b,
                           (uint32_t)(words(d, w[3]) == 1 && n > 1));
    }
    case SpvOpVectorTimesScalar:
    case SpvOpMatrixTimesScalar: {
        int dst = reg(d, w[2]), a = reg(d, w[3]), b = reg(d, w[4]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, is_f64(d, w[2]) ? GM_OP_DVEC_TIMES_SCALAR : GM_OP_VEC_TIMES_SCALAR,
                           words(d, w[2]), dst, a, b, 0, 0);
    }
    case SpvOpMatrixTimesVector:
    case SpvOpVectorTimesMatrix:
    case SpvOpMatrixTimesMatrix:
    case SpvOpOuterProduct:
    case SpvOpTranspose:
    case SpvOpDot: {
        int dst = reg(d, w[2]), a = reg(d, w[3]), b = wc > 4 ? reg(d, w[4]) : 0;
        if (d->failed)
            return -1;
        const gm_type *ta = tyof(d, w[3]), *tb = wc > 4 ? tyof(d, w[4]) : NULL;
        /* Every form but OpTranspose has two operands, each with a type (a crafted module may
         * leave one out). */
        if (!ta || (op != SpvOpTranspose && !tb))
            return gm_dec_fail(d, "matrix/vector instruction with a missing or untyped operand");
        int gop, n = words(d, w[2]);
        uint32_t x = 0;
        switch (op) {
        case SpvOpMatrixTimesVector:
            gop = GM_OP_MAT_TIMES_VEC;
            x = (uint32_t)ta->rows | ((uint32_t)ta->cols << 8);
            break;
        case SpvOpVectorTimesMatrix:
            gop = GM_OP_VEC_TIMES_MAT;
            x = (uint32_t)tb->rows | ((uint32_t)tb->cols << 8);
            break;
        case SpvOpMatrixTimesMatrix:
            gop = GM_OP_MAT_TIMES_MAT;
            x = (uint32_t)ta->rows | ((uint32_t)ta->cols << 8) | ((uint32_t)tb->cols << 16);
            break;
        case SpvOpOuterProduct:
            gop = GM_OP_OUTER;
            x = (uint32_t)ta->rows | ((uint32_t)tb->rows << 8);
            break;
        case SpvOpTranspose:
            gop = GM_OP_TRANSPOSE;
            x = (uint32_t)ta->rows | ((uint32_t)ta->cols << 8);
            break;
        default:
            gop = GM_OP_DOT;
            n = ta->rows;
            break;
        }
        if (is_f64(d, w[3])) {
            /* doubles: n is the result's words; dot takes its size from x */
            static const int dop[][2] = {
                {GM_OP_MAT_TIMES_VEC, GM_OP_DMAT_TIMES_VEC}, {GM_OP_VEC_TIMES_MAT, GM_OP_DVEC_TIMES_MAT},
                {GM_OP_MAT_TIMES_MAT, GM_OP_DMAT_TIMES_MAT}, {GM_OP_OUTER, GM_OP_DOUTER},
                {GM_OP_TRANSPOSE, GM_OP_DTRANSPOSE}, {GM_OP_DOT, GM_OP_DDOT}};
            for (unsigned k = 0; k < sizeof dop / sizeof dop[0]; k++)
                if (dop[k][0] == gop) {
                    if (gop == GM_OP_DOT)
                        x = (uint32_t)ta->rows;
                    return gm_dec_emit(d, dop[k][1], words(d, w[2]), dst, a, b, 0, x);
                }
        }
        return gm_dec_emit(d, gop, n, dst, a, b, 0, x);
    }
    case SpvOpAny:
    case SpvOpAll: {
        int dst = reg(d, w[2]), a = reg(d, w[3]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, op == SpvOpAny ? GM_OP_ANY : GM_OP_ALL, words(d, w[3]), dst, a, 0,
                           0, 0);
    }
    case SpvOpIAddCarry: case SpvOpISubBorrow: case SpvOpUMulExtended: case SpvOpSMulExtended: {
        int dst = reg(d, w[2]), a = reg(d, w[3]), b = reg(d, w[4]);
        if (d->failed)
            return -1;
        int gop = op == SpvOpIAddCarry ? GM_OP_IADD_CARRY : op == SpvOpISubBorrow
                  ? GM_OP_ISUB_BORROW : op == SpvOpUMulExtended ? GM_OP_UMUL_EXT : GM_OP_SMUL_EXT;
        return gm_dec_emit(d, gop, words(d, w[3]), dst, a, b, 0, 0);
    }
    case SpvOpBitFieldInsert: {
        int dst = reg(d, w[2]), base = reg(d, w[3]), ins = reg(d, w[4]);
        int offr = reg(d, w[5]), cnt = reg(d, w[6]);
        if (d->failed)
            return -1;
        int ax = gm_dec_aux(d, (uint32_t)offr);
        if (ax < 0 || gm_dec_aux(d, (uint32_t)cnt) < 0)
            return -1;
        return gm_dec_emit(d, GM_OP_BFI, words(d, w[2]), dst, base, ins, 0, (uint32_t)ax);
    }
    case SpvOpBitFieldSExtract:
    case SpvOpBitFieldUExtract: {
        int dst = reg(d, w[2]), base = reg(d, w[3]), offr = reg(d, w[4]), cnt = reg(d, w[5]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, op == SpvOpBitFieldSExtract ? GM_OP_BFE_S : GM_OP_BFE_U,
                           words(d, w[2]), dst, base, offr, cnt, 0);
    }
    case SpvOpDPdx: case SpvOpDPdy: case SpvOpFwidth:
    case SpvOpDPdxFine: case SpvOpDPdyFine: case SpvOpFwidthFine:
    case SpvOpDPdxCoarse: case SpvOpDPdyCoarse: case SpvOpFwidthCoarse: {
        int dst = reg(d, w[2]), a = reg(d, w[3]);
        if (d->failed)
            return -1;
        if (is_f64(d, w[3]))
            return gm_dec_fail(d, "%s on doubles is not supported", gm_dec_opname(op));
        int gop = (op == SpvOpDPdx || op == SpvOpDPdxFine || op == SpvOpDPdxCoarse) ? GM_OP_DPDX
                  : (op == SpvOpDPdy || op == SpvOpDPdyFine || op == SpvOpDPdyCoarse)
                      ? GM_OP_DPDY : GM_OP_FWIDTH;
        int fine = op == SpvOpDPdxFine || op == SpvOpDPdyFine || op == SpvOpFwidthFine;
        return gm_dec_emit(d, gop, words(d, w[2]), dst, a, 0, 0, (uint32_t)fine);
    }
    case SpvOpExtInst:
        return ext_inst(d, w, wc);
    case SpvOpSampledImage:
    case SpvOpImage: {
        int dst = reg(d, w[2]), a = reg(d, w[3]);
        if (d->failed)
            return -1;
        return gm_dec_emit(d, GM_OP_COPY, 1, dst, a, 0, 0, 0);
    }
    case SpvOpImageSampleImplicitLod: case SpvOpImageSampleExplicitLod:
    case SpvOpImageSampleDrefImplicitLod: case SpvOpImageSampleDrefExplicitLod:
    case SpvOpImageSampleProjImplicitLod: case SpvOpImageSampleProjExplicitLod:
    case SpvOpImageSampleProjDrefImplicitLod: case SpvOpImageSampleProjDrefExplicitLod:
    case SpvOpImageFetch: case SpvOpImageGather: case SpvOpImageDrefGather:
    case SpvOpImageRead: case SpvOpImageWrite: case SpvOpImageQuerySizeLod:
    case SpvOpImageQuerySize: case SpvOpImageQueryLod: case SpvOpImageQueryLevels:
    case SpvOpImageQuerySamples:
        return decode_image(d, op, w, wc);
    case SpvOpImageTexelPointer:
        return texel_pointer(d, w, wc);
    case SpvOpAtomicLoad: case SpvOpAtomicStore: case SpvOpAtomicExchange:
    case SpvOpAtomicCompareExchange: case SpvOpAtomicIIncrement: case SpvOpAtomicIDecrement:
    case SpvOpAtomicIAdd: case SpvOpAtomicISub: case SpvOpAtomicSMin: case SpvOpAtomicUMin:
    case SpvOpAtomicSMax: case SpvOpAtomicUMax: case SpvOpAtomicAnd: case SpvOpAtomicOr:
    case SpvOpAtomicXor: case SpvOpAtomicFAddEXT: case SpvOpAtomicFMinEXT:
    case SpvOpAtomicFMaxEXT:
        return atomic_op(d, op, w, wc);
    case SpvOpReadClockKHR: {
        /* ARB_shader_clock: one value per subgroup issue, from the program's counter */
        int dst = reg(d, w[2]);
        if (d->failed)
            return -1;
        d->p->reads_clock = 1;
        return gm_dec_emit(d, GM_OP_SUBGROUP, words(d, w[2]), dst, 0, 0, 0, GM_SG_CLOCK);
    }
    default:
        return gm_dec_fail(d, "unsupported instruction %s", gm_dec_opname(op));
    }
}

int gm_decode_functions(gm_decoder *d)
{
    gm_program *p = d->p;
    int func = -1, cur_block = -1;
    d->cur_line = 0;
    d->cur_file = 0;
    for (size_t i = 5; i < d->nwords;) {
        const uint32_t *w = &d->words[i];
        unsigned wc = w[0] >> 16, op = w[0] & 0xffff;
        i += wc;
        if (op == SpvOpLine) {
            d->cur_file = w[1] < p->bound ? d->file_of[w[1]] : 0;
            d->cur_line = (int)w[2];
            continue;
        }
        if (op == SpvOpNoLine) {
            d->cur_line = 0;
            continue;
        }
        if (op == SpvOpFunction) {
            func = d->func_index[w[2]];
            const char *fn = w[2] < p->bound ? p->names[w[2]] : NULL;
            d->in_legacy_shadow_fn = fn && !strncmp(fn, "glr_shadow", 10);
            d->legacy_id = 0;
            continue;
        }
        if (op == SpvOpFunctionEnd) {
            func = -1;
            cur_block = -1;
            continue;
        }
        if (func < 0)
            continue;
        if (decode_inst(d, op, w, wc, func, &cur_block) < 0) {
            if (!d->failed)
                gm_dec_fail(d, "cannot decode %s", gm_dec_opname(op));
            /* Add the source line so the user can find the construct. */
            if (d->cur_line > 0) {
                size_t l = strlen(d->err);
                snprintf(d->err + l, d->err_size > l ? d->err_size - l : 0, " (line %d)",
                         d->cur_line);
            }
            return -1;
        }
    }
    for (int f = 0; f < p->func_count; f++)
        if (p->funcs[f].block_count <= 0)
            return gm_dec_fail(d, "function %s has no body", p->funcs[f].name);
    /* Every block must end in a terminator so execution never runs off a block. */
    for (int b = 0; b < p->block_count; b++) {
        if (p->blocks[b].first_pc < 0)
            return gm_dec_fail(d, "block %d has no code", b);
        int end = b + 1 < p->block_count ? p->blocks[b + 1].first_pc : p->code_count;
        int op = end > p->blocks[b].first_pc ? p->code[end - 1].op : GM_OP_NOP;
        if (op != GM_OP_BRANCH && op != GM_OP_BRANCH_COND && op != GM_OP_SWITCH &&
            op != GM_OP_RETURN && op != GM_OP_RETURN_VALUE && op != GM_OP_KILL &&
            op != GM_OP_UNREACHABLE)
            return gm_dec_fail(d, "block %d does not end in a branch or return", b);
    }
    return 0;
}
