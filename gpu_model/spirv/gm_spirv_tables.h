/* SPIR-V grammar tables (generated at build time by gen_spirv_tables.py) and a
 * generic operand walker built on them. Internal to gpu_model. */
#ifndef GM_SPIRV_TABLES_H
#define GM_SPIRV_TABLES_H

#include <stdint.h>

typedef enum {
    GM_SPV_CAT_BIT_ENUM,
    GM_SPV_CAT_VALUE_ENUM,
    GM_SPV_CAT_ID,
    GM_SPV_CAT_LITERAL,
    GM_SPV_CAT_COMPOSITE,
} gm_spv_category;

typedef enum { GM_SPV_Q_ONE, GM_SPV_Q_OPTIONAL, GM_SPV_Q_MANY } gm_spv_quantifier;

typedef struct {
    uint32_t value;
    const char *name;
    uint16_t first_param; /* index into the parameter-kind list */
    uint16_t param_count;
} gm_spv_enumerant;

typedef struct {
    const char *name;
    gm_spv_category category;
    uint16_t first_enumerant;
    uint16_t enumerant_count;
    uint8_t base_count;  /* composites: operand kinds of the parts */
    uint16_t bases[2];
} gm_spv_operand_kind;

typedef struct {
    uint16_t kind;
    uint8_t quantifier; /* gm_spv_quantifier */
} gm_spv_operand;

typedef struct {
    uint32_t opcode;
    const char *name;
    const char *klass;
    uint16_t first_operand;
    uint16_t operand_count;
} gm_spv_op_info;

extern const unsigned gm_spv_operand_kind_count;
extern const unsigned gm_spv_max_opcode;
extern const unsigned gm_spv_kind_IdResultType;
extern const unsigned gm_spv_kind_IdResult;
extern const unsigned gm_spv_kind_LiteralString;
extern const unsigned gm_spv_kind_LiteralContextDependentNumber;

/* NULL for opcodes the grammar does not know. */
const gm_spv_op_info *gm_spv_op_info_get(unsigned opcode);
const gm_spv_operand *gm_spv_op_operands(const gm_spv_op_info *info);
const gm_spv_operand_kind *gm_spv_operand_kind_get(unsigned kind);
const gm_spv_enumerant *gm_spv_enumerant_get(unsigned kind, uint32_t value);
unsigned gm_spv_enumerant_param(const gm_spv_enumerant *e, unsigned i);

/* GLSL.std.450 extended instruction names; NULL when unknown. */
const char *gm_glsl450_name(unsigned op);
int gm_glsl450_operand_count(unsigned op);

/* Name of an opcode for messages: the grammar name or "Op<number>". buf >= 24 bytes. */
const char *gm_spv_op_name(unsigned opcode, char *buf, unsigned buf_size);

/* Generic walk of one instruction's operands using the grammar.
 * words points at the instruction (word 0 = count|opcode). For each operand word group
 * the callback gets the operand kind, the index of its first word and its word count.
 * Context-dependent literals (OpConstant values, OpSwitch selectors) take the remaining
 * words of the instruction unless literal_words says otherwise (width/32, from the type).
 * Returns 0 when the operands exactly fill the instruction, -1 otherwise (msg filled). */
typedef void (*gm_spv_operand_cb)(void *ctx, unsigned kind, unsigned first_word, unsigned nwords);
int gm_spv_walk_operands(const uint32_t *words, unsigned literal_words, gm_spv_operand_cb cb,
                         void *ctx, char *msg, unsigned msg_size);

#endif
