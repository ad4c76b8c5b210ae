/* Operand extents of IR instructions (gm_op_operands.h): the table's declared extents
 * (gm_op_table_operands, generated from gm_opcodes.py) and the hand rules of its custom opcodes,
 * which follow the executor's semantics of each (exec/). */
#include "gm_op_operands.h"
#include "gm_sampler_iface.h"
#include "gm_spirv_tables.h"

#include <spirv/unified1/GLSL.std.450.h>

int gm_glsl450_int_result(unsigned e)
{
    switch (e) {
    case GLSLstd450SAbs: case GLSLstd450SSign: case GLSLstd450UMin: case GLSLstd450SMin:
    case GLSLstd450UMax: case GLSLstd450SMax: case GLSLstd450UClamp: case GLSLstd450SClamp:
    case GLSLstd450IMix: case GLSLstd450FindILsb: case GLSLstd450FindSMsb: case GLSLstd450FindUMsb:
    case GLSLstd450Frexp: case GLSLstd450FrexpStruct: case GLSLstd450Modf:
        return 1;
    default:
        return (e >= GLSLstd450PackSnorm4x8 && e <= GLSLstd450UnpackDouble2x32) || e >= GLSLstd450Count;
    }
}

/* GLSL.std.450 on floats (EXT) or doubles (DEXT): x = instruction | operand words << 16 (0: the
 * result's n). Ldexp's exponent is an integer (per component); Refract's eta a scalar. */
static void ext_operands(const gm_inst *in, int dbl, int32_t *dst_n, gm_op_type *result, gm_op_src_fn *fn,
                         void *ctx)
{
    unsigned e = in->x & 0xffff;
    int64_t m = in->x >> 16;
    int nops = gm_glsl450_operand_count(e);
    gm_op_type ft = dbl ? GM_OPT_F64 : GM_OPT_F32;
    if (m <= 0)
        m = in->n;
    if (e == GLSLstd450ModfStruct || e == GLSLstd450FrexpStruct)
        *dst_n = 2 * (int32_t)in->n;
    if (nops < 0 || gm_glsl450_int_result(e))
        *result = GM_OPT_NONE;
    if (nops > 0)
        fn(ctx, in->a, m, ft);
    if (nops > 1)
        fn(ctx, in->b, e == GLSLstd450Ldexp ? (dbl ? m / 2 : m) : m, e == GLSLstd450Ldexp ? GM_OPT_NONE : ft);
    if (nops > 2)
        fn(ctx, in->c, e == GLSLstd450Refract ? (dbl ? 2 : 1) : m, ft);
}

/* Texture and image instructions: everything their descriptor names. */
static void tex_operands(const gm_program *p, const gm_inst *in, int32_t *dst_n, gm_op_src_fn *fn, void *ctx)
{
    if (in->x >= (uint32_t)p->tex_count)
        return;
    const gm_tex_desc *t = &p->tex[in->x];
    if (in->op == GM_OP_IMAGE && t->image_op == GM_IMG_STORE)
        *dst_n = 0;
    fn(ctx, t->handle, 1, GM_OPT_NONE);
    fn(ctx, t->coord, t->coord_n, GM_OPT_NONE);
    const int singles[] = {t->dref, t->lod, t->bias, t->sample, t->min_lod, t->component, t->data2};
    for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++)
        fn(ctx, singles[i], 1, GM_OPT_NONE);
    fn(ctx, t->grad_x, t->grad_n, GM_OPT_NONE);
    fn(ctx, t->grad_y, t->grad_n, GM_OPT_NONE);
    fn(ctx, t->offset, 3, GM_OPT_NONE);
    fn(ctx, t->data, t->data_n, GM_OPT_NONE);
}

/* The rest of a custom opcode's operands (the table said d's extent, if any). */
static void custom_operands(const gm_program *p, const gm_inst *in, int32_t *dst, int32_t *dst_n,
                            gm_op_type *result, gm_op_src_fn *fn, void *ctx)
{
    const uint32_t *aux = p->aux;
    const uint32_t naux = p->aux_count > 0 ? (uint32_t)p->aux_count : 0;
    const int64_t n = in->n;
    switch (in->op) {
    case GM_OP_COPY_LIST:
        /* Pairs (dst, src): the destination range is their span; sources one by one. */
        if ((uint64_t)in->x + 2u * (uint64_t)in->n <= naux && in->n > 0) {
            uint32_t lo = UINT32_MAX, hi = 0;
            for (uint32_t k = 0; k < in->n; k++) {
                uint32_t dw = aux[in->x + 2 * k], sw = aux[in->x + 2 * k + 1];
                lo = dw < lo ? dw : lo;
                hi = dw + 1 > hi ? dw + 1 : hi;
                fn(ctx, sw, 1, GM_OPT_NONE);
            }
            *dst = (int32_t)lo;
            *dst_n = (int32_t)(hi - lo);
        }
        break;
    case GM_OP_PHI:
        if (in->x < naux) {
            uint32_t pairs = aux[in->x];
            for (uint32_t i = 0; i < pairs && (uint64_t)in->x + 2 + 2 * (uint64_t)i < naux; i++)
                fn(ctx, aux[in->x + 2 + 2 * i], n, GM_OPT_NONE);
        }
        break;
    case GM_OP_BFI: /* offset and count: register words kept in aux */
        if ((uint64_t)in->x + 1 < naux) {
            fn(ctx, aux[in->x], 1, GM_OPT_NONE);
            fn(ctx, aux[in->x + 1], 1, GM_OPT_NONE);
        }
        break;
    case GM_OP_EXT: case GM_OP_DEXT:
        ext_operands(in, in->op == GM_OP_DEXT, dst_n, result, fn, ctx);
        break;
    case GM_OP_LALU: { /* 64-bit integers: comparisons read 2n words a side */
        int op = (int)(in->x & 0xffff);
        int64_t sn = op >= GM_OP_IEQ && op <= GM_OP_UGE ? 2 * n : n;
        fn(ctx, in->a, sn, GM_OPT_NONE);
        if (op != GM_OP_SNEG && op != GM_OP_NOT)
            fn(ctx, in->b, in->x & GM_I64_B32 ? sn / 2 : sn, GM_OPT_NONE);
        break;
    }
    case GM_OP_LCONV: /* source words: half, twice or as many as the result's */
        fn(ctx, in->a,
           in->x <= GM_I64_ZEXT || in->x == GM_I64_F2S || in->x == GM_I64_F2U ? n / 2
           : in->x == GM_I64_TRUNC || in->x == GM_I64_S2F || in->x == GM_I64_U2F ? 2 * n
           : n, GM_OPT_NONE);
        break;
    case GM_OP_LEXT:
        fn(ctx, in->a, n, GM_OPT_NONE);
        if (in->x != GLSLstd450SAbs && in->x != GLSLstd450SSign)
            fn(ctx, in->b, n, GM_OPT_NONE);
        if (in->x == GLSLstd450SClamp || in->x == GLSLstd450UClamp)
            fn(ctx, in->c, n, GM_OPT_NONE);
        break;
    case GM_OP_SUBGROUP: /* a: the operand's words (none for built-ins), b: an invocation */
        if (in->x >> 8)
            fn(ctx, in->a, in->x >> 8, GM_OPT_NONE);
        if ((in->x & 0xff) == GM_SG_READ_INVOCATION)
            fn(ctx, in->b, 1, GM_OPT_NONE);
        break;
    case GM_OP_TEX: case GM_OP_IMAGE:
        tex_operands(p, in, dst_n, fn, ctx);
        break;
    default:
        break;
    }
}

void gm_op_operands(const gm_program *p, const gm_inst *in, int32_t *dst, int32_t *dst_n, gm_op_type *result,
                    gm_op_src_fn *fn, void *ctx)
{
    gm_op_type res = in->op < GM_OP_COUNT ? (gm_op_type)gm_op_table[in->op].nan : GM_OPT_NONE;
    *dst = (int32_t)in->d;
    *dst_n = 0;
    if (gm_op_table_operands(in, dst_n, fn, ctx) == 1)
        custom_operands(p, in, dst, dst_n, &res, fn, ctx);
    if (result)
        *result = res;
}
