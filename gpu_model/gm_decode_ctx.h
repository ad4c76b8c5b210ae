/* State shared by the decoder passes (gm_decode.c: module, types, constants, interface;
 * gm_decode_code.c: function bodies to IR). Internal. */
#ifndef GM_DECODE_CTX_H
#define GM_DECODE_CTX_H

#include "gm_ir.h"

#include <stddef.h>
#include <stdint.h>

/* Decorations we use, per id. */
typedef struct {
    int location, binding, builtin, component, block, buffer_block, array_stride, flat;
    int offset;          /* a variable's Offset (atomic counters: bytes into their buffer) */
} gm_deco;

/* What is statically known about a pointer value. */
typedef struct {
    gm_space space;
    int static_addr;     /* address when known at decode time, else -1 */
    int binding;         /* buffers */
    gm_buffer_kind bkind;
    int matrix_stride;   /* layout of the pointee inside its block */
    int row_major;
    int vec_stride;      /* byte stride between vector components (buffers) */
    int output;          /* points into Output storage: helpers must not write */
    int arrayed;         /* buffers: an array of blocks (GM_BUF_ARRAYED) */
    int block_elems;     /* blocks still selected by the array levels above the block */
    int local;           /* Function/Private storage (llvmpipe's registers or constant data) */
    int const_only;      /* ... an array llvmpipe keeps as constant data (gm_decode_constvars.c) */
} gm_ptr;

typedef struct gm_decoder {
    gm_program *p;
    const uint32_t *words;
    size_t nwords;
    char *err;
    size_t err_size;
    int failed;

    gm_deco *deco;          /* per id */
    int *file_of;           /* OpString id -> file index */
    gm_ptr *ptr;            /* per id */
    int *label_block;       /* label id -> block index */
    int *func_index;        /* function id -> index */
    uint32_t *value_word0;  /* first word of constants (for literal indexes) */
    uint8_t *is_const;
    uint8_t *const_only_var; /* per id: gm_const_only_vars() (NULL: none) */
    uint8_t *dynamic_val;    /* per id: gm_dynamic_values() (NULL: every value is) */
    int *glsl_import;       /* ext inst import id -> 1 GLSL.std.450, 2 NonSemantic,
                               3 SPV_AMD_shader_trinary_minmax, 0 other */
    int entry_id;
    int cur_file, cur_line;
    int cap_code, cap_aux, cap_regs, cap_tex, cap_vars;
    int execution_model;
    /* Legacy shadow lookups: inside a glr_shadow* wrapper (gm_upgrade_tables.c) the depth
     * compare's vec4 is the texture's GL_DEPTH_TEXTURE_MODE swizzle, not the float smeared:
     * the Dref sample writes 4 words to legacy_tmp and the vec4(r) built from its result id
     * (legacy_id) copies them. */
    int in_legacy_shadow_fn;
    uint32_t legacy_id;
    int legacy_tmp;
    /* Uniform initializers (`uniform vec4 c = vec4(...)`): the driver gives a uniform its
     * initializer at link until glUniform* sets it; applied when uniform memory is allocated. */
    struct gm_uniform_init { int addr, ncomp; uint32_t constant; } *uinit;
    int n_uinit;
} gm_decoder;

int gm_dec_fail(gm_decoder *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int gm_dec_alloc_regs(gm_decoder *d, int n);
int gm_dec_emit(gm_decoder *d, int op, int n, int dst, int a, int b, int c, uint32_t x);
int gm_dec_aux(gm_decoder *d, uint32_t v);
/* Grows *ptr (elements of `elem` bytes, capacity *cap) to hold `need`, zeroing the new part;
 * NULL when out of memory (the old block is kept). */
void *gm_dec_grow(void *ptr, int *cap, int need, size_t elem);
int gm_dec_type_words(gm_decoder *d, int type);
const char *gm_dec_opname(unsigned opcode);
/* Pass 2: function bodies. */
int gm_decode_functions(gm_decoder *d);

#endif
