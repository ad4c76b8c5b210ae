/* Generic SPIR-V operand walker driven by the generated grammar tables. The decoder uses
 * it to validate instruction sizes and the tests use it to prove every instruction of a
 * module can be decoded from the tables alone. */
#include "gm_spirv_tables.h"

#include <stdio.h>
#include <string.h>

const char *gm_spv_op_name(unsigned opcode, char *buf, unsigned buf_size)
{
    const gm_spv_op_info *info = gm_spv_op_info_get(opcode);
    if (info)
        return info->name;
    snprintf(buf, buf_size, "Op<%u>", opcode);
    return buf;
}

typedef struct {
    const uint32_t *words;
    unsigned wc;
    unsigned pos;
    unsigned literal_words;
    gm_spv_operand_cb cb;
    void *ctx;
    char *msg;
    unsigned msg_size;
} walker;

static int take(walker *w, unsigned kind, unsigned n)
{
    if (w->pos + n > w->wc) {
        snprintf(w->msg, w->msg_size, "operand %s runs past the end of the instruction",
                 gm_spv_operand_kind_get(kind)->name);
        return -1;
    }
    if (w->cb)
        w->cb(w->ctx, kind, w->pos, n);
    w->pos += n;
    return 0;
}

static int walk_kind(walker *w, unsigned kind);

/* Parameters that follow an enumerant value (e.g. Decoration Offset <n>). */
static int walk_params(walker *w, unsigned kind, uint32_t value)
{
    const gm_spv_enumerant *e = gm_spv_enumerant_get(kind, value);
    if (!e) {
        snprintf(w->msg, w->msg_size, "unknown %s value %u", gm_spv_operand_kind_get(kind)->name,
                 value);
        return -1;
    }
    for (unsigned i = 0; i < e->param_count; i++)
        if (walk_kind(w, gm_spv_enumerant_param(e, i)) != 0)
            return -1;
    return 0;
}

static int walk_kind(walker *w, unsigned kind)
{
    const gm_spv_operand_kind *k = gm_spv_operand_kind_get(kind);
    if (w->pos >= w->wc) {
        snprintf(w->msg, w->msg_size, "missing operand %s", k->name);
        return -1;
    }
    switch (k->category) {
    case GM_SPV_CAT_ID:
        return take(w, kind, 1);
    case GM_SPV_CAT_LITERAL:
        if (kind == gm_spv_kind_LiteralString) {
            unsigned n = 0;
            /* A string ends at the word holding its NUL byte. */
            while (w->pos + n < w->wc) {
                uint32_t word = w->words[w->pos + n++];
                if ((word & 0xff000000u) == 0 || (word & 0xff0000u) == 0 || (word & 0xff00u) == 0 ||
                    (word & 0xffu) == 0)
                    return take(w, kind, n);
            }
            snprintf(w->msg, w->msg_size, "unterminated string");
            return -1;
        }
        if (kind == gm_spv_kind_LiteralContextDependentNumber)
            return take(w, kind, w->literal_words ? w->literal_words : w->wc - w->pos);
        return take(w, kind, 1);
    case GM_SPV_CAT_COMPOSITE:
        for (unsigned i = 0; i < k->base_count; i++)
            if (walk_kind(w, k->bases[i]) != 0)
                return -1;
        return 0;
    case GM_SPV_CAT_VALUE_ENUM: {
        uint32_t v = w->words[w->pos];
        if (take(w, kind, 1) != 0)
            return -1;
        return walk_params(w, kind, v);
    }
    case GM_SPV_CAT_BIT_ENUM: {
        uint32_t v = w->words[w->pos];
        if (take(w, kind, 1) != 0)
            return -1;
        /* Parameters of set bits follow in increasing bit order. */
        for (unsigned bit = 0; bit < 32; bit++)
            if (v & (1u << bit))
                if (walk_params(w, kind, 1u << bit) != 0)
                    return -1;
        return 0;
    }
    }
    return -1;
}

int gm_spv_walk_operands(const uint32_t *words, unsigned literal_words, gm_spv_operand_cb cb,
                         void *ctx, char *msg, unsigned msg_size)
{
    char dummy[8];
    if (!msg) {
        msg = dummy;
        msg_size = sizeof dummy;
    }
    unsigned wc = words[0] >> 16, opcode = words[0] & 0xffffu;
    const gm_spv_op_info *info = gm_spv_op_info_get(opcode);
    if (!info) {
        snprintf(msg, msg_size, "unknown opcode %u", opcode);
        return -1;
    }
    walker w = {words, wc, 1, literal_words, cb, ctx, msg, msg_size};
    const gm_spv_operand *ops = gm_spv_op_operands(info);
    for (unsigned i = 0; i < info->operand_count; i++) {
        const gm_spv_operand *o = &ops[i];
        if (o->quantifier == GM_SPV_Q_ONE) {
            if (walk_kind(&w, o->kind) != 0)
                return -1;
        } else if (o->quantifier == GM_SPV_Q_OPTIONAL) {
            if (w.pos < wc && walk_kind(&w, o->kind) != 0)
                return -1;
        } else {
            while (w.pos < wc)
                if (walk_kind(&w, o->kind) != 0)
                    return -1;
        }
    }
    if (w.pos != wc) {
        snprintf(msg, msg_size, "%s: %u words left over", info->name, wc - w.pos);
        return -1;
    }
    return 0;
}
