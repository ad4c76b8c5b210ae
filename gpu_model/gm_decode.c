/* SPIR-V -> register IR, module level: header, debug names, decorations, types,
 * constants, global variables, register allocation, the interface tables (inputs,
 * outputs, uniforms, blocks). Function bodies are translated by gm_decode_code.c.
 * The module is decoded once; warps then run the IR. */
#include "gm_decode_ctx.h"
#include "gm_decode_constvars.h"
#include "gm_decode_reassoc.h"
#include "gm_spirv_tables.h"
#include "compile/gm_native.h"

#include <spirv/unified1/spirv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BOUND (1u << 22)

int gm_dec_type_words(gm_decoder *d, int type)
{
    if (type <= 0 || (uint32_t)type >= d->p->bound)
        return 0;
    return d->p->types[type].ncomp;
}

static char *copy_string(const uint32_t *w, unsigned nwords)
{
    size_t max = (size_t)nwords * 4;
    const char *s = (const char *)w;
    size_t n = strnlen(s, max);
    char *r = malloc(n + 1);
    if (r) {
        memcpy(r, s, n);
        r[n] = 0;
    }
    return r;
}

static int ensure_members(gm_decoder *d, uint32_t id, int count)
{
    if (count < 0 || count > 4097)   /* GL's structs are far smaller; a module cannot size memory */
        return gm_dec_fail(d, "struct of %d members", count);
    gm_type *t = &d->p->types[id];
    int cap = t->member_cap;
    if (count <= cap)
        return 0;
    int nc = count;
#define GROW_ARR(field, T)                                                      \
    do {                                                                        \
        T *n_ = realloc(t->field, (size_t)nc * sizeof(T));                      \
        if (!n_)                                                                \
            return gm_dec_fail(d, "out of memory");                             \
        memset(n_ + cap, 0, (size_t)(nc - cap) * sizeof(T));                   \
        t->field = n_;                                                          \
    } while (0)
    GROW_ARR(member_names, char *);
    GROW_ARR(member_byte_off, int);
    GROW_ARR(member_matrix_stride, int);
    GROW_ARR(member_row_major, uint8_t);
    GROW_ARR(member_interp, uint8_t);
    GROW_ARR(member_builtin, int);
    GROW_ARR(members, int);
    GROW_ARR(member_off, int);
#undef GROW_ARR
    for (int i = cap; i < nc; i++)
        t->member_builtin[i] = -1;
    t->member_cap = nc;
    return 0;
}

static int check_id(gm_decoder *d, uint32_t id)
{
    if (id == 0 || id >= d->p->bound)
        return gm_dec_fail(d, "id %u out of range", id);
    return 0;
}

static int new_type(gm_decoder *d, uint32_t id, gm_type_kind kind)
{
    if (check_id(d, id))
        return -1;
    gm_type *t = &d->p->types[id];
    t->kind = kind;
    /* A crafted module may define the same id twice: the first definition's name goes. */
    free(t->name);
    t->name = d->p->names[id] ? strdup(d->p->names[id]) : NULL;
    t->array_stride = d->deco[id].array_stride;
    t->is_block = d->deco[id].block;
    t->is_buffer_block = d->deco[id].buffer_block;
    return 0;
}

static const gm_type *type_of_id(gm_decoder *d, uint32_t tid)
{
    if (tid == 0 || tid >= d->p->bound || d->p->types[tid].kind == GM_TYPE_VOID)
        return NULL;
    return &d->p->types[tid];
}

static int decode_type(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc)
{
    gm_program *p = d->p;
    uint32_t id = w[1];
    gm_type *t;
    switch (op) {
    case SpvOpTypeVoid:
        if (new_type(d, id, GM_TYPE_VOID))
            return -1;
        p->types[id].ncomp = 0;
        return 0;
    case SpvOpTypeBool:
    case SpvOpTypeInt:
    case SpvOpTypeFloat:
        if (new_type(d, id, GM_TYPE_SCALAR))
            return -1;
        t = &p->types[id];
        t->scalar = op == SpvOpTypeBool ? GM_SCALAR_BOOL
                    : op == SpvOpTypeFloat ? GM_SCALAR_FLOAT
                    : (wc > 3 && w[3]) ? GM_SCALAR_INT : GM_SCALAR_UINT;
        t->width = op == SpvOpTypeBool ? 32 : (int)w[2];
        /* double and 64-bit integers: two words per component (low halves, then high
         * halves); no 8/16-bit types */
        if (t->width != 32 && !(op != SpvOpTypeBool && t->width == 64))
            return gm_dec_fail(d, "%s with width %d is not supported (32 and 64 bits only)",
                               gm_dec_opname(op), t->width);
        t->rows = t->cols = 1;
        t->ncomp = t->width / 32;
        return 0;
    case SpvOpTypeVector:
    case SpvOpTypeMatrix: {
        const gm_type *c = type_of_id(d, w[2]);
        if (!c || w[3] < 1 || w[3] > 4)
            return gm_dec_fail(d, "%s: bad component type", gm_dec_opname(op));
        if (new_type(d, id, op == SpvOpTypeVector ? GM_TYPE_VECTOR : GM_TYPE_MATRIX))
            return -1;
        t = &p->types[id];
        t->elem = (int)w[2];
        t->scalar = c->scalar;
        t->width = c->width;
        if (op == SpvOpTypeVector) {
            t->rows = (int)w[3];
            t->cols = 1;
        } else {
            t->rows = c->rows;
            t->cols = (int)w[3];
        }
        t->ncomp = t->rows * t->cols * (c->width == 64 ? 2 : 1);
        return 0;
    }
    case SpvOpTypeArray:
    case SpvOpTypeRuntimeArray: {
        const gm_type *e = type_of_id(d, w[2]);
        if (!e)
            return gm_dec_fail(d, "%s: bad element type", gm_dec_opname(op));
        int len = 0;
        if (op == SpvOpTypeArray) {
            if (check_id(d, w[3]) || !d->is_const[w[3]])
                return gm_dec_fail(d, "array length is not a constant");
            len = (int)d->value_word0[w[3]];
            if (len <= 0 || len > (1 << 20))
                return gm_dec_fail(d, "bad array length %d", len);
        }
        if (new_type(d, id, GM_TYPE_ARRAY))
            return -1;
        t = &p->types[id];
        t->elem = (int)w[2];
        t->length = len;
        t->scalar = e->scalar;
        t->ncomp = len * e->ncomp;
        if (t->ncomp > (1 << 20))
            return gm_dec_fail(d, "array too large");
        return 0;
    }
    case SpvOpTypeStruct: {
        int n = (int)wc - 2;
        if (new_type(d, id, GM_TYPE_STRUCT) || ensure_members(d, id, n > 0 ? n : 1))
            return -1;
        t = &p->types[id];
        t->length = n;
        int off = 0;
        for (int i = 0; i < n; i++) {
            const gm_type *m = type_of_id(d, w[2 + i]);
            if (!m)
                return gm_dec_fail(d, "struct member %d has an unknown type", i);
            t->members[i] = (int)w[2 + i];
            t->member_off[i] = off;
            off += m->ncomp;
        }
        t->ncomp = off;
        return 0;
    }
    case SpvOpTypePointer:
        if (new_type(d, id, GM_TYPE_POINTER))
            return -1;
        t = &p->types[id];
        t->storage = w[2];
        t->pointee = (int)w[3];
        t->ncomp = 1;
        return 0;
    case SpvOpTypeFunction:
        if (new_type(d, id, GM_TYPE_OTHER))
            return -1;
        p->types[id].ncomp = 0;
        p->types[id].elem = (int)w[2]; /* return type */
        return 0;
    case SpvOpTypeImage: {
        const gm_type *s = type_of_id(d, w[2]);
        if (new_type(d, id, GM_TYPE_IMAGE))
            return -1;
        t = &p->types[id];
        t->scalar = s ? s->scalar : GM_SCALAR_FLOAT;
        t->dim = (int)w[3];
        t->depth = (int)w[4];
        t->arrayed = (int)w[5];
        t->ms = (int)w[6];
        t->sampled = (int)w[7];
        t->ncomp = 1;
        return 0;
    }
    case SpvOpTypeSampler:
        if (new_type(d, id, GM_TYPE_SAMPLER))
            return -1;
        p->types[id].ncomp = 1;
        return 0;
    case SpvOpTypeSampledImage: {
        const gm_type *im = type_of_id(d, w[2]);
        if (!im || im->kind != GM_TYPE_IMAGE)
            return gm_dec_fail(d, "OpTypeSampledImage of a non-image");
        gm_type copy = *im;
        if (new_type(d, id, GM_TYPE_SAMPLER))
            return -1;
        t = &p->types[id];
        t->scalar = copy.scalar;
        t->dim = copy.dim;
        t->depth = copy.depth;
        t->arrayed = copy.arrayed;
        t->ms = copy.ms;
        t->sampled = 1;
        t->image = (int)w[2];
        t->ncomp = 1;
        return 0;
    }
    default:
        return gm_dec_fail(d, "unsupported type instruction %s", gm_dec_opname(op));
    }
}

/* Constants live in the registers (filled once per warp from init_regs). */
static int decode_constant(gm_decoder *d, unsigned op, const uint32_t *w, unsigned wc)
{
    gm_program *p = d->p;
    uint32_t tid = w[1], id = w[2];
    if (check_id(d, id))
        return -1;
    const gm_type *t = type_of_id(d, tid);
    if (!t)
        return gm_dec_fail(d, "%s: unknown result type", gm_dec_opname(op));
    int n = t->ncomp;
    int r = gm_dec_alloc_regs(d, n);
    if (r < 0)
        return -1;
    p->reg_of[id] = r;
    p->ncomp_of[id] = n;
    p->type_of[id] = (int)tid;
    d->is_const[id] = 1;
    uint32_t v = 0;
    switch (op) {
    case SpvOpConstant:
    case SpvOpSpecConstant:
        if (wc < 4)
            return gm_dec_fail(d, "OpConstant without a value");
        v = w[3];
        if (n == 2) { /* 64-bit literal: low-order word first */
            if (wc < 5)
                return gm_dec_fail(d, "64-bit OpConstant without its high word");
            for (int l = 0; l < GM_LANES; l++) {
                p->init_regs[r][l] = w[3];
                p->init_regs[r + 1][l] = w[4];
            }
            p->init_mask[r] = p->init_mask[r + 1] = 1;
            d->value_word0[id] = v;
            return 0;
        }
        break;
    case SpvOpConstantTrue:
    case SpvOpSpecConstantTrue:
        v = 1;
        break;
    case SpvOpConstantFalse:
    case SpvOpSpecConstantFalse:
    case SpvOpConstantNull:
    case SpvOpUndef:
        v = 0;
        break;
    case SpvOpConstantComposite:
    case SpvOpSpecConstantComposite: {
        int off = 0;
        for (unsigned i = 3; i < wc; i++) {
            uint32_t c = w[i];
            if (check_id(d, c) || p->reg_of[c] < 0)
                return gm_dec_fail(d, "constant composite of an unknown constant");
            int cn = p->ncomp_of[c];
            if (off + cn > n)
                return gm_dec_fail(d, "constant composite too large");
            for (int k = 0; k < cn; k++) {
                memcpy(p->init_regs[r + off + k], p->init_regs[p->reg_of[c] + k],
                       sizeof p->init_regs[0]);
                p->init_mask[r + off + k] = 1;
            }
            off += cn;
        }
        d->value_word0[id] = n ? p->init_regs[r][0] : 0;
        return 0;
    }
    default:
        return gm_dec_fail(d, "unsupported constant instruction %s", gm_dec_opname(op));
    }
    for (int k = 0; k < n; k++) {
        for (int l = 0; l < GM_LANES; l++)
            p->init_regs[r + k][l] = v;
        p->init_mask[r + k] = 1;
    }
    d->value_word0[id] = v;
    return 0;
}

static int add_var(gm_decoder *d, uint32_t id, gm_var_class klass, int type, gm_space space,
                   int addr, int func)
{
    gm_program *p = d->p;
    void *v = gm_dec_grow(p->vars, &d->cap_vars, p->var_count + 1, sizeof *p->vars);
    if (!v)
        return gm_dec_fail(d, "out of memory");
    p->vars = v;
    gm_var *var = &p->vars[p->var_count];
    memset(var, 0, sizeof *var);
    var->id = (int)id;
    var->space = space;
    var->addr = addr;
    var->ncomp = gm_dec_type_words(d, type);
    var->func = func;
    var->info.name = p->names[id] ? p->names[id] : "";
    var->info.klass = klass;
    var->info.type = type;
    var->info.location = d->deco[id].location;
    var->info.builtin = d->deco[id].builtin;
    var->info.binding = d->deco[id].binding;
    var->info.component = d->deco[id].component > 0 ? d->deco[id].component : 0;
    var->info.flat = d->deco[id].flat;
    var->info.decl_line = d->cur_line;
    return p->var_count++;
}

/* Global and function-local OpVariable: storage plus one pointer word. */
static int decode_variable(gm_decoder *d, const uint32_t *w, unsigned wc, int func)
{
    gm_program *p = d->p;
    uint32_t tid = w[1], id = w[2], sc = w[3];
    if (check_id(d, id))
        return -1;
    const gm_type *pt = type_of_id(d, tid);
    if (!pt || pt->kind != GM_TYPE_POINTER)
        return gm_dec_fail(d, "OpVariable of a non-pointer type");
    int pointee = pt->pointee;
    const gm_type *t = type_of_id(d, (uint32_t)pointee);
    if (!t)
        return gm_dec_fail(d, "OpVariable of an unknown type");
    int preg = gm_dec_alloc_regs(d, 1);
    if (preg < 0)
        return -1;
    p->reg_of[id] = preg;
    p->ncomp_of[id] = 1;
    p->type_of[id] = (int)tid;
    gm_ptr *ptr = &d->ptr[id];
    ptr->static_addr = 0;
    ptr->binding = d->deco[id].binding >= 0 ? d->deco[id].binding : 0;
    ptr->vec_stride = 4;
    gm_var_class klass = GM_VAR_GLOBAL;
    switch (sc) {
    case SpvStorageClassOutput:
        /* Tessellation control outputs are one copy per patch that every invocation of
         * the patch reads and writes (gl_out[], patch out, gl_TessLevel*): the frame runner
         * runs a patch's invocations as one warp, so they live in its shared memory. */
        if (d->execution_model == SpvExecutionModelTessellationControl)
            goto shared_storage;
        /* fall through */
    case SpvStorageClassFunction:
    case SpvStorageClassPrivate:
    case SpvStorageClassInput: {
        int addr = gm_dec_alloc_regs(d, t->ncomp);
        if (addr < 0)
            return -1;
        ptr->space = GM_SPACE_REG;
        ptr->static_addr = addr;
        ptr->output = sc == SpvStorageClassOutput;
        ptr->local = sc == SpvStorageClassFunction || sc == SpvStorageClassPrivate;
        ptr->const_only = ptr->local && d->const_only_var && d->const_only_var[id];
        klass = sc == SpvStorageClassFunction ? GM_VAR_LOCAL
                : sc == SpvStorageClassInput ? GM_VAR_INPUT
                : sc == SpvStorageClassOutput ? GM_VAR_OUTPUT : GM_VAR_GLOBAL;
        /* Initializer (constant). */
        if (wc > 4) {
            uint32_t init = w[4];
            if (check_id(d, init) || !d->is_const[init])
                return gm_dec_fail(d, "OpVariable initializer is not a constant");
            for (int k = 0; k < t->ncomp && k < p->ncomp_of[init]; k++) {
                memcpy(p->init_regs[addr + k], p->init_regs[p->reg_of[init] + k],
                       sizeof p->init_regs[0]);
                p->init_mask[addr + k] = 1;
            }
        }
        break;
    }
    case SpvStorageClassWorkgroup:
    shared_storage:
        /* Compute `shared`: one copy per workgroup, word-addressed like registers. */
        if (t->ncomp > (1 << 20) - p->shared_words)
            return gm_dec_fail(d, "shared variables too large");
        ptr->space = GM_SPACE_SHARED;
        ptr->static_addr = p->shared_words;
        p->shared_words += t->ncomp;
        klass = sc == SpvStorageClassOutput ? GM_VAR_OUTPUT : GM_VAR_GLOBAL;
        break;
    case SpvStorageClassUniformConstant: {
        ptr->space = GM_SPACE_UNIFORM;
        ptr->static_addr = p->umem_words;
        p->umem_words += t->ncomp;
        if (wc > 4) {   /* an initializer: the uniform's value until the program sets it */
            uint32_t init = w[4];
            if (check_id(d, init) || !d->is_const[init])
                return gm_dec_fail(d, "uniform initializer is not a constant");
            struct gm_uniform_init *ui = realloc(d->uinit, (size_t)(d->n_uinit + 1) * sizeof *ui);
            if (!ui)
                return gm_dec_fail(d, "out of memory");
            d->uinit = ui;
            ui[d->n_uinit++] = (struct gm_uniform_init){ ptr->static_addr, t->ncomp, init };
        }
        klass = (t->kind == GM_TYPE_SAMPLER || t->kind == GM_TYPE_IMAGE ||
                 (t->kind == GM_TYPE_ARRAY && (p->types[t->elem].kind == GM_TYPE_SAMPLER ||
                                               p->types[t->elem].kind == GM_TYPE_IMAGE)))
                    ? GM_VAR_OPAQUE : GM_VAR_UNIFORM;
        break;
    }
    case SpvStorageClassUniform:
    case SpvStorageClassStorageBuffer:
    case SpvStorageClassPushConstant: {
        /* An array (of arrays) of blocks: one buffer binding per element (GL 4.6 section
         * 7.6.2.2), which the access chain picks (gm_decode_code.c). */
        const gm_type *bt = t;
        int elems = 1;
        while (bt->kind == GM_TYPE_ARRAY && bt->length > 0 && elems <= GM_MAX_BLOCK_ELEMS) {
            elems *= bt->length;
            bt = &p->types[bt->elem];
        }
        if (bt != t && (bt->kind != GM_TYPE_STRUCT || !(bt->is_block || bt->is_buffer_block)))
            bt = t, elems = 1;   /* not blocks: an array inside a block's own layout */
        if (elems > GM_MAX_BLOCK_ELEMS)
            return gm_dec_fail(d, "array of more than %d blocks", GM_MAX_BLOCK_ELEMS);
        ptr->space = GM_SPACE_BUFFER;
        ptr->static_addr = 0;
        ptr->arrayed = bt != t;
        ptr->block_elems = elems;
        ptr->bkind = (sc == SpvStorageClassStorageBuffer || bt->is_buffer_block)
                         ? GM_BUFFER_STORAGE : GM_BUFFER_UNIFORM;
        klass = GM_VAR_BUFFER;
        break;
    }
    case SpvStorageClassAtomicCounter:
        ptr->space = GM_SPACE_BUFFER;
        ptr->bkind = GM_BUFFER_ATOMIC_COUNTER;
        /* counters sharing a binding sit at their Offset (layout(offset), or SPIR-V's) */
        ptr->static_addr = d->deco[id].offset > 0 && d->deco[id].offset < (1 << 24) ? d->deco[id].offset : 0;
        klass = GM_VAR_BUFFER;
        break;
    default:
        return gm_dec_fail(d, "OpVariable in storage class %u is not supported", sc);
    }
    for (int l = 0; l < GM_LANES; l++)
        p->init_regs[preg][l] = (uint32_t)ptr->static_addr;
    p->init_mask[preg] = 1;
    int vi = add_var(d, id, klass, pointee, ptr->space, ptr->static_addr, func);
    if (vi < 0)
        return -1;
    if (func >= 0)
        p->vars[vi].info.function = p->funcs[func].name;
    return 0;
}

static void decorate(gm_decoder *d, uint32_t id, uint32_t deco, const uint32_t *args,
                     unsigned nargs)
{
    gm_deco *g = &d->deco[id];
    uint32_t a = nargs ? args[0] : 0;
    switch (deco) {
    case SpvDecorationLocation: g->location = (int)a; break;
    case SpvDecorationBinding: g->binding = (int)a; break;
    case SpvDecorationOffset: g->offset = (int)a; break;
    case SpvDecorationBuiltIn: g->builtin = (int)a; break;
    case SpvDecorationComponent: g->component = (int)a; break;
    case SpvDecorationBlock: g->block = 1; break;
    case SpvDecorationBufferBlock: g->buffer_block = 1; break;
    case SpvDecorationArrayStride: g->array_stride = (int)a; break;
    case SpvDecorationFlat: g->flat = 1; break;
    case SpvDecorationNoPerspective: g->flat = 2; break;
    default: break;
    }
}

static int member_decorate(gm_decoder *d, uint32_t id, int m, uint32_t deco, uint32_t a)
{
    if (m < 0 || m > 4096 || ensure_members(d, id, m + 1))
        return gm_dec_fail(d, "bad OpMemberDecorate");
    gm_type *t = &d->p->types[id];
    switch (deco) {
    case SpvDecorationOffset: t->member_byte_off[m] = (int)a; break;
    case SpvDecorationMatrixStride: t->member_matrix_stride[m] = (int)a; break;
    case SpvDecorationRowMajor: t->member_row_major[m] = 1; break;
    case SpvDecorationBuiltIn: t->member_builtin[m] = (int)a; break;
    case SpvDecorationFlat: t->member_interp[m] = 1; break;
    case SpvDecorationNoPerspective: t->member_interp[m] = 2; break;
    default: break;
    }
    return 0;
}

/* Pass A over the whole module. In function bodies it only allocates registers and
 * numbers blocks and functions, so pass B can resolve forward references. */
static int pass_a(gm_decoder *d)
{
    gm_program *p = d->p;
    int func = -1;
    for (size_t i = 5; i < d->nwords && !d->failed;) {
        const uint32_t *w = &d->words[i];
        unsigned wc = w[0] >> 16, op = w[0] & 0xffff;
        if (wc == 0 || i + wc > d->nwords)
            return gm_dec_fail(d, "truncated instruction at word %zu", i);
        char msg[128];
        if (gm_spv_walk_operands(w, 0, NULL, NULL, msg, sizeof msg) != 0)
            return gm_dec_fail(d, "malformed %s at word %zu: %s", gm_dec_opname(op), i, msg);
        i += wc;
        switch (op) {
        case SpvOpName:
            if (check_id(d, w[1]))
                return -1;
            free(p->names[w[1]]);
            p->names[w[1]] = copy_string(w + 2, wc - 2);
            break;
        case SpvOpMemberName:
            /* the member index is checked before anything is sized by it (fuzz_spirv_decode:
             * a 4 G-member struct was allocated first) */
            if (w[2] > 4096)
                return gm_dec_fail(d, "bad OpMemberName");
            if (check_id(d, w[1]) || ensure_members(d, w[1], (int)w[2] + 1))
                return -1;
            free(p->types[w[1]].member_names[w[2]]);
            p->types[w[1]].member_names[w[2]] = copy_string(w + 3, wc - 3);
            break;
        case SpvOpString:
            if (check_id(d, w[1]))
                return -1;
            {
                char **f = realloc(p->files, (size_t)(p->file_count + 1) * sizeof *f);
                if (!f)
                    return gm_dec_fail(d, "out of memory");
                p->files = f;
                p->files[p->file_count] = copy_string(w + 2, wc - 2);
                d->file_of[w[1]] = p->file_count++;
            }
            break;
        case SpvOpLine:
            d->cur_file = check_id(d, w[1]) ? 0 : d->file_of[w[1]];
            d->cur_line = (int)w[2];
            break;
        case SpvOpNoLine:
            d->cur_line = 0;
            break;
        case SpvOpDecorate:
            if (check_id(d, w[1]))
                return -1;
            decorate(d, w[1], w[2], w + 3, wc - 3);
            break;
        case SpvOpMemberDecorate:
            if (check_id(d, w[1]) ||
                member_decorate(d, w[1], (int)w[2], w[3], wc > 4 ? w[4] : 0))
                return -1;
            break;
        case SpvOpExtInstImport: {
            if (check_id(d, w[1]))
                return -1;
            char *name = copy_string(w + 2, wc - 2);
            if (!name)
                return gm_dec_fail(d, "out of memory");
            d->glsl_import[w[1]] = strcmp(name, "GLSL.std.450") == 0 ? 1
                                   : strncmp(name, "NonSemantic.", 12) == 0 ? 2
                                   : strcmp(name, "SPV_AMD_shader_trinary_minmax") == 0 ? 3 : 0;
            free(name);
            break;
        }
        case SpvOpEntryPoint:
            if (wc < 3)
                return gm_dec_fail(d, "OpEntryPoint of %u words", wc);
            if (check_id(d, w[2]))
                return -1;   /* an entry point id past the bound (found by fuzzing) */
            if (!d->entry_id) {
                d->entry_id = (int)w[2];
                d->execution_model = (int)w[1];
            }
            break;
        case SpvOpExecutionMode:
            if (w[2] == SpvExecutionModeOriginUpperLeft)
                p->origin_upper_left = 1;
            else if (w[2] == SpvExecutionModeDepthReplacing)
                p->writes_depth = 1;
            else if (w[2] == SpvExecutionModeEarlyFragmentTests)
                p->early_tests = 1;
            else if (w[2] == SpvExecutionModeLocalSize && wc >= 6)
                for (int k = 0; k < 3; k++)
                    p->local_size[k] = (int)w[3 + k];
            break;
        case SpvOpTypeVoid: case SpvOpTypeBool: case SpvOpTypeInt: case SpvOpTypeFloat:
        case SpvOpTypeVector: case SpvOpTypeMatrix: case SpvOpTypeArray:
        case SpvOpTypeRuntimeArray: case SpvOpTypeStruct: case SpvOpTypePointer:
        case SpvOpTypeFunction: case SpvOpTypeImage: case SpvOpTypeSampler:
        case SpvOpTypeSampledImage: case SpvOpTypeForwardPointer: case SpvOpTypeOpaque:
        case SpvOpTypeEvent: case SpvOpTypeDeviceEvent: case SpvOpTypeReserveId:
        case SpvOpTypeQueue: case SpvOpTypePipe:
            if (decode_type(d, op, w, wc))
                return -1;
            break;
        case SpvOpConstant: case SpvOpConstantTrue: case SpvOpConstantFalse:
        case SpvOpConstantComposite: case SpvOpConstantNull: case SpvOpSpecConstant:
        case SpvOpSpecConstantTrue: case SpvOpSpecConstantFalse:
        case SpvOpSpecConstantComposite:
            if (decode_constant(d, op, w, wc))
                return -1;
            break;
        case SpvOpUndef:
            if (func < 0 && decode_constant(d, op, w, wc))
                return -1;
            if (func >= 0) {
                int n = gm_dec_type_words(d, (int)w[1]);
                int r = gm_dec_alloc_regs(d, n);
                if (r < 0 || check_id(d, w[2]))
                    return -1;
                p->reg_of[w[2]] = r;
                p->ncomp_of[w[2]] = n;
                p->type_of[w[2]] = (int)w[1];
            }
            break;
        case SpvOpVariable:
            if (decode_variable(d, w, wc, func))
                return -1;
            break;
        case SpvOpFunction: {
            if (check_id(d, w[2]))
                return -1;
            gm_function *f = realloc(p->funcs, (size_t)(p->func_count + 1) * sizeof *f);
            if (!f)
                return gm_dec_fail(d, "out of memory");
            p->funcs = f;
            func = p->func_count++;
            memset(&f[func], 0, sizeof f[func]);
            f[func].id = (int)w[2];
            f[func].name = strdup(p->names[w[2]] ? p->names[w[2]] : "?");
            f[func].first_block = p->block_count;
            d->func_index[w[2]] = func;
            f[func].ret_n = gm_dec_type_words(d, (int)w[1]);
            f[func].ret_reg = gm_dec_alloc_regs(d, f[func].ret_n);
            if (f[func].ret_reg < 0)
                return -1;
            p->type_of[w[2]] = (int)w[1];
            break;
        }
        case SpvOpFunctionEnd:
            if (func < 0)
                return gm_dec_fail(d, "OpFunctionEnd outside a function");
            p->funcs[func].block_count = p->block_count - p->funcs[func].first_block;
            func = -1;
            break;
        case SpvOpLabel: {
            if (func < 0 || check_id(d, w[1]))
                return gm_dec_fail(d, "OpLabel outside a function");
            int cap = p->block_count;
            gm_block *b = realloc(p->blocks, (size_t)(cap + 1) * sizeof *b);
            if (!b)
                return gm_dec_fail(d, "out of memory");
            p->blocks = b;
            b[cap].first_pc = -1;
            b[cap].label = (int)w[1];
            b[cap].func = func;
            b[cap].merge = b[cap].cont = -1;
            d->label_block[w[1]] = p->block_count++;
            break;
        }
        default: {
            /* Any other instruction with a result in a function gets registers now. */
            if (func < 0)
                break;
            const gm_spv_op_info *info = gm_spv_op_info_get(op);
            if (!info || info->operand_count < 2)
                break;
            const gm_spv_operand *ops = gm_spv_op_operands(info);
            if (ops[0].kind != gm_spv_kind_IdResultType || ops[1].kind != gm_spv_kind_IdResult)
                break;
            if (check_id(d, w[2]))
                return -1;
            int n = gm_dec_type_words(d, (int)w[1]);
            int r = gm_dec_alloc_regs(d, n);
            if (r < 0)
                return -1;
            p->reg_of[w[2]] = r;
            p->ncomp_of[w[2]] = n;
            p->type_of[w[2]] = (int)w[1];
            if (op == SpvOpFunctionParameter) {
                gm_function *f = &p->funcs[func];
                int *pa = realloc(f->params, (size_t)(f->param_count + 1) * sizeof *pa);
                if (!pa)
                    return gm_dec_fail(d, "out of memory");
                f->params = pa;
                pa[f->param_count++] = (int)w[2];
            }
            break;
        }
        }
    }
    if (func >= 0)
        return gm_dec_fail(d, "function without OpFunctionEnd");
    return d->failed ? -1 : 0;
}

/* ---- interface tables ---- */

static int add_uniform(gm_decoder *d, const char *name, int type, int array_size, int addr,
                       int *location, int elem_words)
{
    gm_program *p = d->p;
    gm_uniform_info *u = realloc(p->uniforms, (size_t)(p->uniform_count + 1) * sizeof *u);
    int *ua = realloc(p->uniform_addr, (size_t)(p->uniform_count + 1) * sizeof *ua);
    int *uw = realloc(p->uniform_elem_words, (size_t)(p->uniform_count + 1) * sizeof *uw);
    if (u)
        p->uniforms = u;
    if (ua)
        p->uniform_addr = ua;
    if (uw)
        p->uniform_elem_words = uw;
    if (!u || !ua || !uw)
        return gm_dec_fail(d, "out of memory");
    gm_uniform_info *ui = &p->uniforms[p->uniform_count];
    const gm_type *t = &p->types[type];
    memset(ui, 0, sizeof *ui);   /* `initialized` and later fields start cleared (valgrind found it read) */
    ui->name = strdup(name);
    ui->location = *location;
    ui->type = type;
    ui->array_size = array_size;
    ui->is_opaque = t->kind == GM_TYPE_SAMPLER || t->kind == GM_TYPE_IMAGE;
    ui->opaque_type = ui->is_opaque ? type : -1;
    p->uniform_addr[p->uniform_count] = addr;
    p->uniform_elem_words[p->uniform_count] = elem_words;
    p->uniform_count++;
    *location += array_size;
    return 0;
}

/* GL-style flattening: arrays of basic types stay one entry; structs expand. */
static int flatten_uniform(gm_decoder *d, const char *name, int type, int addr, int *location)
{
    gm_program *p = d->p;
    const gm_type *t = &p->types[type];
    char buf[512];
    if (t->kind == GM_TYPE_STRUCT) {
        for (int i = 0; i < t->length; i++) {
            const char *mn = t->member_names && t->member_names[i] ? t->member_names[i] : "?";
            snprintf(buf, sizeof buf, "%s.%s", name, mn);
            if (flatten_uniform(d, buf, t->members[i], addr + t->member_off[i], location))
                return -1;
        }
        return 0;
    }
    if (t->kind == GM_TYPE_ARRAY) {
        const gm_type *e = &p->types[t->elem];
        if (e->kind == GM_TYPE_STRUCT || e->kind == GM_TYPE_ARRAY) {
            for (int i = 0; i < t->length; i++) {
                snprintf(buf, sizeof buf, "%s[%d]", name, i);
                if (flatten_uniform(d, buf, t->elem, addr + i * e->ncomp, location))
                    return -1;
            }
            return 0;
        }
        return add_uniform(d, name, t->elem, t->length, addr, location, e->ncomp);
    }
    return add_uniform(d, name, type, 1, addr, location, t->ncomp);
}

static size_t block_size(const gm_program *p, int type)
{
    const gm_type *t = &p->types[type];
    if (t->kind != GM_TYPE_STRUCT)
        return (size_t)t->ncomp * 4;
    size_t end = 0;
    for (int i = 0; i < t->length; i++) {
        const gm_type *m = &p->types[t->members[i]];
        size_t sz;
        if (m->kind == GM_TYPE_ARRAY)
            sz = (size_t)m->length * (size_t)m->array_stride;
        else if (m->kind == GM_TYPE_MATRIX)
            sz = (size_t)(t->member_row_major[i] ? m->rows : m->cols) *
                 (size_t)t->member_matrix_stride[i];
        else if (m->kind == GM_TYPE_STRUCT)
            sz = block_size(p, t->members[i]);
        else
            sz = (size_t)m->ncomp * 4;
        size_t e = (size_t)t->member_byte_off[i] + sz;
        if (e > end)
            end = e;
    }
    return end;
}

static int build_interface(gm_decoder *d)
{
    gm_program *p = d->p;
    for (int i = 0; i < p->var_count; i++) {
        gm_var *v = &p->vars[i];
        if (v->info.klass == GM_VAR_INPUT || v->info.klass == GM_VAR_OUTPUT) {
            int **list = v->info.klass == GM_VAR_INPUT ? &p->inputs : &p->outputs;
            int *cnt = v->info.klass == GM_VAR_INPUT ? &p->input_count : &p->output_count;
            int *n = realloc(*list, (size_t)(*cnt + 1) * sizeof *n);
            if (!n)
                return gm_dec_fail(d, "out of memory");
            *list = n;
            n[(*cnt)++] = i;
            if (v->info.builtin == SpvBuiltInFragDepth)
                p->writes_depth = 1;
        } else if (v->info.klass == GM_VAR_UNIFORM || v->info.klass == GM_VAR_OPAQUE) {
            int loc = v->info.location >= 0 ? v->info.location : -1;
            int before = p->uniform_count;
            if (flatten_uniform(d, v->info.name, v->info.type, v->addr, &loc))
                return -1;
            if (v->info.location < 0)
                for (int u = before; u < p->uniform_count; u++)
                    p->uniforms[u].location = -1;
        } else if (v->info.klass == GM_VAR_BUFFER) {
            gm_block_info *b = realloc(p->blocks_info,
                                       (size_t)(p->block_info_count + 1) * sizeof *b);
            if (!b)
                return gm_dec_fail(d, "out of memory");
            p->blocks_info = b;
            gm_block_info *bi = &b[p->block_info_count++];
            const gm_type *t = &p->types[v->info.type];
            while (d->ptr[v->id].arrayed && t->kind == GM_TYPE_ARRAY)
                t = &p->types[t->elem];   /* the block of an array of blocks */
            bi->name = t->name ? t->name : "";
            bi->instance_name = v->info.name;
            bi->binding = d->ptr[v->id].binding;
            bi->array_size = d->ptr[v->id].arrayed ? d->ptr[v->id].block_elems : 1;
            bi->is_storage = d->ptr[v->id].bkind == GM_BUFFER_STORAGE;
            bi->is_atomic_counter = d->ptr[v->id].bkind == GM_BUFFER_ATOMIC_COUNTER;
            bi->size = block_size(p, (int)(t - p->types));   /* one element's, for arrays */
            bi->type = (int)(t - p->types);
        }
    }
    p->umem = calloc((size_t)p->umem_words + 1, sizeof *p->umem);
    if (!p->umem)
        return gm_dec_fail(d, "out of memory");
    /* Initializers: a constant's components sit in the registers the decoder gave it (the same
     * value in every lane; lane 0 is read), in the order uniform memory lays them out. */
    for (int i = 0; i < d->n_uinit; i++) {
        const struct gm_uniform_init *ui = &d->uinit[i];
        int n = ui->ncomp < p->ncomp_of[ui->constant] ? ui->ncomp : p->ncomp_of[ui->constant];
        for (int k = 0; k < n && ui->addr + k < p->umem_words; k++)
            p->umem[ui->addr + k] = p->init_regs[p->reg_of[ui->constant] + k][0];
        for (int u = 0; u < p->uniform_count; u++)
            if (p->uniform_addr[u] >= ui->addr && p->uniform_addr[u] < ui->addr + n)
                p->uniforms[u].initialized = 1;
    }
    return 0;
}

static void free_decoder(gm_decoder *d)
{
    free(d->deco);
    free(d->uinit);
    free(d->ptr);
    free(d->label_block);
    free(d->func_index);
    free(d->value_word0);
    free(d->is_const);
    free(d->const_only_var);
    free(d->dynamic_val);
    free(d->glsl_import);
    free(d->file_of);
}

/* The tables below are sized by the id bound. The header's bound is only a promise (a crafted
 * 560-byte module said 786,436: 300 MB and seconds per shader), so size them by the largest
 * result id the module defines instead (the grammar says which word holds it); an id used but
 * never defined is then out of range, as it is invalid anyway. */
static uint32_t defined_bound(const uint32_t *w, size_t n, uint32_t header_bound)
{
    uint32_t max_id = 0;
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16;
        if (count == 0 || count > n - i)
            break;   /* malformed: the decoder reports it */
        const gm_spv_op_info *info = gm_spv_op_info_get(w[i] & 0xffffu);
        if (info && info->operand_count > 0) {
            const gm_spv_operand *ops = gm_spv_op_operands(info);
            unsigned at = ops[0].kind == gm_spv_kind_IdResultType ? 2
                        : ops[0].kind == gm_spv_kind_IdResult ? 1 : 0;
            if (at && at < count && w[i + at] < header_bound && w[i + at] > max_id)
                max_id = w[i + at];
        }
        i += count;
    }
    return max_id + 1;
}

gm_program *gm_program_create(const uint32_t *spirv, size_t word_count, char *err,
                              size_t err_size)
{
    char dummy[8];
    if (!err) {
        err = dummy;
        err_size = sizeof dummy;
    }
    if (!spirv || word_count < 5 || spirv[0] != SpvMagicNumber) {
        snprintf(err, err_size, "not a SPIR-V module (bad magic number or too short)");
        return NULL;
    }
    uint32_t bound = spirv[3];
    if (bound == 0 || bound > MAX_BOUND) {
        snprintf(err, err_size, "SPIR-V id bound %u out of range", bound);
        return NULL;
    }
    bound = defined_bound(spirv, word_count, bound);
    /* The decoder reads a copy whose float chains are in llvmpipe's order (gm_decode_reassoc.c). */
    uint32_t *words = malloc(word_count * sizeof *words);
    if (!words || (memcpy(words, spirv, word_count * sizeof *words),
                   gm_reassoc_constants(words, word_count)) != 0) {
        free(words);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    gm_program *p = calloc(1, sizeof *p);
    gm_decoder d;
    memset(&d, 0, sizeof d);
    d.p = p;
    d.words = words;
    d.nwords = word_count;
    d.err = err;
    d.err_size = err_size;
    if (!p)
        goto oom;
    p->bound = bound;
    p->local_size[0] = p->local_size[1] = p->local_size[2] = 1;
    p->types = calloc(bound, sizeof *p->types);
    p->reg_of = malloc(bound * sizeof *p->reg_of);
    p->ncomp_of = calloc(bound, sizeof *p->ncomp_of);
    p->type_of = calloc(bound, sizeof *p->type_of);
    p->names = calloc(bound, sizeof *p->names);
    d.deco = malloc(bound * sizeof *d.deco);
    d.ptr = calloc(bound, sizeof *d.ptr);
    d.label_block = malloc(bound * sizeof *d.label_block);
    d.func_index = malloc(bound * sizeof *d.func_index);
    d.value_word0 = calloc(bound, sizeof *d.value_word0);
    d.is_const = calloc(bound, 1);
    d.glsl_import = calloc(bound, sizeof *d.glsl_import);
    d.file_of = calloc(bound, sizeof *d.file_of);
    if (!p->types || !p->reg_of || !p->ncomp_of || !p->type_of || !p->names || !d.deco ||
        !d.ptr || !d.label_block || !d.func_index || !d.value_word0 || !d.is_const ||
        !d.glsl_import || !d.file_of)
        goto oom;
    for (uint32_t i = 0; i < bound; i++) {
        p->reg_of[i] = -1;
        d.label_block[i] = -1;
        d.func_index[i] = -1;
        gm_deco *g = &d.deco[i];
        memset(g, 0, sizeof *g);
        g->location = g->binding = g->builtin = g->offset = -1;
        d.ptr[i].static_addr = -1;
    }
    d.const_only_var = gm_const_only_vars(words, word_count, bound);
    d.dynamic_val = gm_dynamic_values(words, word_count, bound);
    if (pass_a(&d) != 0)
        goto fail;
    if (!d.entry_id || d.func_index[d.entry_id] < 0) {
        gm_dec_fail(&d, "module has no entry point");
        goto fail;
    }
    switch (d.execution_model) {
    case SpvExecutionModelVertex: p->stage = GM_STAGE_VERTEX; break;
    case SpvExecutionModelFragment: p->stage = GM_STAGE_FRAGMENT; break;
    case SpvExecutionModelGLCompute: p->stage = GM_STAGE_COMPUTE; break;
    case SpvExecutionModelGeometry: p->stage = GM_STAGE_GEOMETRY; break;
    case SpvExecutionModelTessellationControl: p->stage = GM_STAGE_TESS_CONTROL; break;
    case SpvExecutionModelTessellationEvaluation: p->stage = GM_STAGE_TESS_EVALUATION; break;
    default:
        gm_dec_fail(&d, "execution model %d is not supported", d.execution_model);
        goto fail;
    }
    p->entry = d.func_index[d.entry_id];
    if (gm_decode_functions(&d) != 0 || build_interface(&d) != 0)
        goto fail;
    if (gm_exec_fast_build(p) != 0)
        goto oom;
    gm_native_attach(p); /* opt-in; the interpreter runs whatever it does not install */
    free_decoder(&d);
    free(words);
    return p;
oom:
    snprintf(err, err_size, "out of memory");
fail:
    free_decoder(&d);
    free(words);
    gm_program_destroy(p);
    return NULL;
}

void gm_program_destroy(gm_program *p)
{
    if (!p)
        return;
    if (p->types) {
        for (uint32_t i = 0; i < p->bound; i++) {
            gm_type *t = &p->types[i];
            if (t->member_names) {
                for (int m = 0; m < t->member_cap; m++)
                    free(t->member_names[m]);
            }
            free(t->member_names);
            free(t->members);
            free(t->member_off);
            free(t->member_byte_off);
            free(t->member_matrix_stride);
            free(t->member_row_major);
            free(t->member_interp);
            free(t->member_builtin);
            free(t->name);
        }
    }
    if (p->names)
        for (uint32_t i = 0; i < p->bound; i++)
            free(p->names[i]);
    for (int i = 0; i < p->file_count; i++)
        free(p->files[i]);
    for (int i = 0; i < p->func_count; i++) {
        free(p->funcs[i].name);
        free(p->funcs[i].params);
    }
    for (int i = 0; i < p->uniform_count; i++)
        free((char *)p->uniforms[i].name);
    free(p->types);
    free(p->reg_of);
    free(p->ncomp_of);
    free(p->type_of);
    free(p->names);
    free(p->init_regs);
    free(p->init_mask);
    free(p->code);
    free(p->fast);
    gm_native_release(p);
    free(p->lines);
    free(p->files);
    free(p->blocks);
    free(p->funcs);
    free(p->aux);
    free(p->tex);
    free(p->vars);
    free(p->inputs);
    free(p->outputs);
    free(p->uniforms);
    free(p->uniform_addr);
    free(p->uniform_elem_words);
    free(p->blocks_info);
    free(p->umem);
    free(p);
}
