/* Read-only queries on a decoded program (types, variables, interface, line table)
 * and uniform updates. */
#include "gm_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gm_stage gm_program_stage(const gm_program *p) { return p->stage; }

int gm_type_get(const gm_program *p, int type, gm_type_desc *out)
{
    if (!p || !out || type <= 0 || (uint32_t)type >= p->bound)
        return -1;
    const gm_type *t = &p->types[type];
    memset(out, 0, sizeof *out);
    out->kind = t->kind;
    out->scalar = t->scalar;
    out->rows = t->rows;
    out->columns = t->kind == GM_TYPE_MATRIX ? t->cols : 1;
    out->length = t->length;
    out->element = t->elem;
    out->components = t->ncomp;
    out->width = t->width;
    out->name = t->name ? t->name : "";
    if (t->kind == GM_TYPE_SAMPLER || t->kind == GM_TYPE_IMAGE) {
        out->image_dim = t->dim;
        out->image_depth = t->depth;
        out->image_arrayed = t->arrayed;
        out->image_ms = t->ms;
    }
    return 0;
}

int gm_type_member_interp(const gm_program *p, int type, int i)
{
    if (!p || type <= 0 || (uint32_t)type >= p->bound)
        return 0;
    const gm_type *t = &p->types[type];
    if (t->kind != GM_TYPE_STRUCT || i < 0 || i >= t->length || !t->member_interp)
        return 0;
    return t->member_interp[i];
}

int gm_type_member(const gm_program *p, int type, int i, int *member_type, const char **name,
                   int *word_offset)
{
    if (!p || type <= 0 || (uint32_t)type >= p->bound)
        return -1;
    const gm_type *t = &p->types[type];
    if (t->kind != GM_TYPE_STRUCT || i < 0 || i >= t->length)
        return -1;
    if (member_type)
        *member_type = t->members[i];
    if (name)
        *name = t->member_names && t->member_names[i] ? t->member_names[i] : "";
    if (word_offset)
        *word_offset = t->member_off[i];
    return 0;
}

int gm_program_var_count(const gm_program *p) { return p ? p->var_count : 0; }

const gm_var_info *gm_program_var(const gm_program *p, int index)
{
    if (!p || index < 0 || index >= p->var_count)
        return NULL;
    return &p->vars[index].info;
}

int gm_program_find_var(const gm_program *p, const char *name, gm_var_class klass)
{
    for (int i = 0; p && name && i < p->var_count; i++)
        if (p->vars[i].info.klass == klass && strcmp(p->vars[i].info.name, name) == 0)
            return i;
    return -1;
}

int gm_program_find_builtin(const gm_program *p, int builtin, int *var, int *word_offset)
{
    for (int i = 0; p && i < p->var_count; i++) {
        const gm_var *v = &p->vars[i];
        if (v->info.klass != GM_VAR_INPUT && v->info.klass != GM_VAR_OUTPUT)
            continue;
        if (v->info.builtin == builtin) {
            *var = i;
            *word_offset = 0;
            return 0;
        }
        const gm_type *t = &p->types[v->info.type];
        if (t->kind == GM_TYPE_STRUCT && t->member_builtin)
            for (int m = 0; m < t->length; m++)
                if (t->member_builtin[m] == builtin) {
                    *var = i;
                    *word_offset = t->member_off[m];
                    return 0;
                }
    }
    return -1;
}

int gm_program_input_count(const gm_program *p) { return p ? p->input_count : 0; }
int gm_program_input_var(const gm_program *p, int i)
{
    return p && i >= 0 && i < p->input_count ? p->inputs[i] : -1;
}
int gm_program_output_count(const gm_program *p) { return p ? p->output_count : 0; }
int gm_program_output_var(const gm_program *p, int i)
{
    return p && i >= 0 && i < p->output_count ? p->outputs[i] : -1;
}

int gm_program_uniform_count(const gm_program *p) { return p ? p->uniform_count : 0; }

const gm_uniform_info *gm_program_uniform(const gm_program *p, int i)
{
    return p && i >= 0 && i < p->uniform_count ? &p->uniforms[i] : NULL;
}

/* "name" or "name[k]": returns the uniform and sets *elem. */
static int find_uniform_elem(const gm_program *p, const char *name, int *elem)
{
    *elem = 0;
    if (!p || !name)
        return -1;
    for (int i = 0; i < p->uniform_count; i++)
        if (strcmp(p->uniforms[i].name, name) == 0)
            return i;
    size_t n = strlen(name);
    if (n < 3 || name[n - 1] != ']')
        return -1;
    const char *open = strrchr(name, '[');
    if (!open)
        return -1;
    char *end;
    long k = strtol(open + 1, &end, 10);
    if (end != name + n - 1 || k < 0)
        return -1;
    size_t base = (size_t)(open - name);
    for (int i = 0; i < p->uniform_count; i++)
        if (strlen(p->uniforms[i].name) == base && strncmp(p->uniforms[i].name, name, base) == 0) {
            if (k >= p->uniforms[i].array_size)
                return -1;
            *elem = (int)k;
            return i;
        }
    return -1;
}

int gm_program_find_uniform(const gm_program *p, const char *name)
{
    int elem;
    return find_uniform_elem(p, name, &elem);
}

int gm_program_set_uniform(gm_program *p, int uniform, int first, int count, const void *words)
{
    if (!p || uniform < 0 || uniform >= p->uniform_count || first < 0 || count < 0 || !words)
        return -1;
    const gm_uniform_info *u = &p->uniforms[uniform];
    if (first + count > u->array_size)
        return -1;
    int ew = p->uniform_elem_words[uniform];
    memcpy(p->umem + p->uniform_addr[uniform] + first * ew, words,
           (size_t)count * (size_t)ew * sizeof(uint32_t));
    return 0;
}

int gm_program_set_uniform_by_name(gm_program *p, const char *name, const void *words, int count)
{
    int elem, u = find_uniform_elem(p, name, &elem);
    if (u < 0)
        return -1;
    return gm_program_set_uniform(p, u, elem, count, words);
}

int gm_program_set_uniform_by_location(gm_program *p, int location, const void *words, int count)
{
    for (int i = 0; p && i < p->uniform_count; i++) {
        const gm_uniform_info *u = &p->uniforms[i];
        if (u->location >= 0 && location >= u->location && location < u->location + u->array_size)
            return gm_program_set_uniform(p, i, location - u->location, count, words);
    }
    return -1;
}

const uint32_t *gm_program_uniform_data(const gm_program *p, int uniform)
{
    if (!p || uniform < 0 || uniform >= p->uniform_count)
        return NULL;
    return p->umem + p->uniform_addr[uniform];
}

int gm_program_block_count(const gm_program *p) { return p ? p->block_info_count : 0; }
const gm_block_info *gm_program_block(const gm_program *p, int i)
{
    return p && i >= 0 && i < p->block_info_count ? &p->blocks_info[i] : NULL;
}

int gm_program_pc_count(const gm_program *p) { return p ? p->code_count : 0; }
int gm_program_pc_line(const gm_program *p, int pc)
{
    return p && pc >= 0 && pc < p->code_count ? p->code[pc].line : 0;
}
const char *gm_program_pc_file(const gm_program *p, int pc)
{
    if (!p || pc < 0 || pc >= p->code_count || p->lines[pc].file >= p->file_count)
        return NULL;
    return p->files[p->lines[pc].file];
}

int gm_program_line_has_code(const gm_program *p, int line)
{
    for (int i = 0; p && i < p->code_count; i++)
        if (p->code[i].line == line)
            return 1;
    return 0;
}

int gm_program_writes_depth(const gm_program *p) { return p ? p->writes_depth : 0; }

/* Whether any instruction may store to word `word` of register variable `var`: a static store
 * covering it, or any dynamically indexed store to an output (its target is not known). Outputs
 * are written only through these two ops (gm_decode_code.c emit_store). */
int gm_program_may_store_var_word(const gm_program *p, int var, int word)
{
    if (!p || var < 0 || var >= p->var_count || p->vars[var].space != GM_SPACE_REG)
        return 0;
    uint32_t at = (uint32_t)(p->vars[var].addr + word);
    for (int i = 0; i < p->code_count; i++) {
        const gm_inst *in = &p->code[i];
        if (in->op == GM_OP_STORE && at >= in->d && at < in->d + in->n)
            return 1;
        if (in->op == GM_OP_REG_STORE_DYN && (in->x & 1))
            return 1;
    }
    return 0;
}
int gm_program_uses_discard(const gm_program *p) { return p ? p->uses_discard : 0; }
int gm_program_uses_subgroups(const gm_program *p) { return p ? p->uses_subgroups : 0; }
int gm_program_origin_upper_left(const gm_program *p) { return p ? p->origin_upper_left : 0; }
int gm_program_early_fragment_tests(const gm_program *p) { return p ? p->early_tests : 0; }

/* One name per gm_op, in enum order (the assert below catches an op added without one). */
static const char *const op_names[] = {
    "nop", "copy", "copy_list", "store", "phi", "uni_load", "uni_load_dyn", "reg_load_dyn",
    "reg_store_dyn", "buf_load", "buf_store", "buf_atomic", "addr_add", "addr_const",
    "fadd", "fsub", "fmul", "fdiv", "fmod", "frem", "fneg", "vec_times_scalar",
    "mat_times_vec", "vec_times_mat", "mat_times_mat", "outer", "transpose", "dot",
    "iadd", "isub", "imul", "sdiv", "udiv", "smod", "srem", "umod", "sneg",
    "iadd_carry", "isub_borrow", "umul_ext", "smul_ext",
    "and", "or", "xor", "not", "shl", "shr_l", "shr_a", "bit_count", "bit_reverse", "bfi",
    "bfe_s", "bfe_u", "lnot", "land", "lor", "leq", "lne", "ieq", "ine", "slt", "sle", "sgt",
    "sge", "ult", "ule", "ugt", "uge", "foeq", "fone", "folt", "fole", "fogt", "foge", "fueq",
    "fune", "fult", "fule", "fugt", "fuge", "isnan", "isinf", "any", "all", "select",
    "f2s", "f2u", "s2f", "u2f", "quant16", "vec_extract_dyn", "vec_insert_dyn",
    "dpdx", "dpdy", "fwidth", "ext", "tex", "image", "branch", "branch_cond", "switch",
    "return", "return_value", "kill", "demote", "unreachable", "call", "is_helper",
    "barrier", "sh_load", "sh_store", "sh_atomic", "gs_emit",
    "dadd", "dsub", "dmul", "ddiv", "dmod", "drem", "dneg", "dcmp", "disnan", "disinf",
    "f2d", "d2f", "s2d", "u2d", "d2s", "d2u", "dvec_times_scalar", "dmat_times_vec",
    "dvec_times_mat", "dmat_times_mat", "douter", "dtranspose", "ddot", "dselect",
    "dextract_dyn", "dinsert_dyn", "dext", "lalu", "lconv", "lext", "subgroup", "buf_length",
};
_Static_assert(sizeof op_names / sizeof op_names[0] == GM_OP_COUNT,
               "op_names must name every gm_op");

char *gm_program_dump(const gm_program *p)
{
    if (!p)
        return NULL;
    size_t cap = 256 + (size_t)p->code_count * 96, len = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    len += (size_t)snprintf(s + len, cap - len, "; %d words/lane, %d instructions\n", p->nregs,
                            p->code_count);
    for (int b = 0; b < p->block_count; b++) {
        const gm_block *bl = &p->blocks[b];
        int end = b + 1 < p->block_count ? p->blocks[b + 1].first_pc : p->code_count;
        if (b == p->funcs[bl->func].first_block && len < cap)
            len += (size_t)snprintf(s + len, cap - len, "function %s\n", p->funcs[bl->func].name);
        if (len < cap)
            len += (size_t)snprintf(s + len, cap - len, " block %d (merge %d, continue %d)\n", b,
                                    bl->merge, bl->cont);
        for (int pc = bl->first_pc; pc < end && len < cap; pc++) {
            const gm_inst *in = &p->code[pc];
            len += (size_t)snprintf(s + len, cap - len, "  %4d L%-4d %-16s n=%u d=%u a=%u b=%u c=%u x=%u\n",
                                    pc, in->line, in->op < GM_OP_COUNT ? op_names[in->op] : "?",
                                    in->n, in->d, in->a, in->b, in->c, in->x);
        }
    }
    if (len >= cap)
        s[cap - 1] = 0;
    return s;
}
