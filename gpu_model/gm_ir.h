/* Register IR of gpu_model: what the decoder (gm_decode*.c) produces from SPIR-V once
 * and the SIMT executor (exec/) runs. Internal header; see DESIGN.md.
 *
 * Every SPIR-V value (SSA id), variable and constant owns a range of "components" in a
 * warp's register file; a component is 32 lanes of 32 bits, so an instruction on a
 * vec4 is a loop over 4*32 contiguous words. */
#ifndef GM_IR_H
#define GM_IR_H

#include "gpu_model.h"

#include <signal.h>
#include <stdint.h>

/* Address spaces a pointer can point into. */
typedef enum {
    GM_SPACE_NONE,
    GM_SPACE_REG,     /* Function/Private/Input/Output: per-lane register words */
    GM_SPACE_UNIFORM, /* loose uniforms and opaque handles: program uniform memory */
    GM_SPACE_BUFFER,  /* UBO/SSBO/push constants: bytes through gm_env.buffer */
    GM_SPACE_SHARED,  /* Workgroup (compute `shared`): words of the workgroup's shared memory,
                         one copy for all warps of a group (gm_warp_set_shared) */
    GM_SPACE_IMAGE,   /* OpImageTexelPointer result: a texel of an image for atomics (decoder
                         only: the atomic becomes GM_OP_IMAGE with the pointer's descriptor) */
} gm_space;

typedef struct gm_type {
    gm_type_kind kind;
    gm_scalar scalar;
    int width;       /* bits of scalars */
    int rows, cols;  /* vector size / matrix rows; matrix columns */
    int length;      /* array length (0: runtime) / member count */
    int elem;        /* array element / vector component / matrix column type id */
    int ncomp;       /* 32-bit words in registers */
    int *members;    /* struct member type ids */
    int *member_off; /* struct member word offsets */
    char **member_names;
    int member_cap;  /* allocated length of the member arrays */
    /* Buffer layout (from Offset/ArrayStride/MatrixStride/RowMajor decorations). */
    int *member_byte_off;
    int *member_matrix_stride;
    uint8_t *member_row_major;
    uint8_t *member_interp;   /* Flat 1 / NoPerspective 2 on a block member, 0 none */
    int *member_builtin;
    int array_stride;
    int is_block, is_buffer_block;
    /* Pointers. */
    uint32_t storage;
    int pointee;
    /* Images. */
    int dim, depth, arrayed, ms, sampled, image; /* image: the OpTypeImage of a sampled image */
    char *name;
} gm_type;

/* An element of an array of blocks (`uniform B { } b[4]`): element k reads the buffer bound at
 * the declared binding + k. Its lanes' addresses carry the element above GM_BLOCK_ELEM_SHIFT and
 * the byte offset inside the block below; the instruction's binding field carries GM_BUF_ARRAYED
 * (exec/gm_exec_bufarr.c). */
#define GM_BUF_ARRAYED (1u << 31)
#define GM_BLOCK_ELEM_SHIFT 24
#define GM_MAX_BLOCK_ELEMS 64   /* element << shift stays a positive int */

/* IR opcodes (GM_OP_*): generated from gpu_model/ir/gm_opcodes.py, where each one's operands,
 * latency class and flags are declared. */
#include "gm_opcode_enum.h"

/* GM_OP_ADDR_ADD's out-of-range rule (aux[x+2]), as llvmpipe treats a dynamic index of each kind
 * of storage (limit = length - 1):
 *  CLAMP  clamp(index, 0, limit): buffers, shared memory, stage inputs and outputs, opaque arrays;
 *  UMIN   min((unsigned)index, limit): arrays and matrix columns in registers (lp_bld_nir_soa's
 *         register arrays: index -1 is the last element);
 *  VEC    a vector component: a load reads clamp(index, 0, limit) (Mesa's vector extract picks by
 *         comparisons), a store out of range writes nothing (its vector insert matches no
 *         component): the address gets GM_ADDR_NOSTORE;
 *  ZERO   loads out of range read 0, stores write nothing (uniform arrays and matrices, arrays
 *         kept as constant data): the address becomes GM_ADDR_ZERO. */
enum { GM_INDEX_CLAMP, GM_INDEX_UMIN, GM_INDEX_VEC, GM_INDEX_ZERO };
#define GM_ADDR_NOSTORE 0x80000000u   /* register/uniform address: stores drop it, loads mask it */
#define GM_ADDR_ZERO    0xc0000000u   /* beyond every register and uniform word, even masked */
#define GM_EXTRACT_UNDEF 0x10000u     /* GM_OP_VEC_EXTRACT_DYN's x: out of range reads 0 */

#define GM_I64_B32 0x10000u
typedef enum {
    GM_I64_SEXT, GM_I64_ZEXT, GM_I64_TRUNC,  /* 32 <-> 64-bit integers */
    GM_I64_F2S, GM_I64_F2U, GM_I64_D2S, GM_I64_D2U, /* float/double -> 64-bit */
    GM_I64_S2F, GM_I64_U2F, GM_I64_S2D, GM_I64_U2D, /* 64-bit -> float/double */
} gm_i64_conv;

typedef enum {
    GM_SG_SIZE, GM_SG_INVOCATION,                      /* gl_SubGroupSizeARB, ...InvocationARB */
    GM_SG_EQ_MASK, GM_SG_GE_MASK, GM_SG_GT_MASK, GM_SG_LE_MASK, GM_SG_LT_MASK, /* uvec4 */
    GM_SG_BALLOT,                                      /* uvec4: bit per invocation */
    GM_SG_READ_FIRST, GM_SG_READ_INVOCATION,
    GM_SG_ANY, GM_SG_ALL, GM_SG_ALL_EQUAL,
    GM_SG_CLOCK,  /* OpReadClockKHR: gm_program.clock_ticks, advanced by each read (2 words) */
} gm_sg_op;
/* llvmpipe's subgroup: one SIMD vector of its JIT code, 8 x 32-bit lanes (256-bit AVX). */
#define GM_SUBGROUP_SIZE 8

typedef struct gm_inst {
    uint16_t op;
    uint16_t n;
    int32_t line;
    uint32_t d, a, b, c;
    uint32_t x;
} gm_inst;

typedef struct gm_block {
    int first_pc;
    int label;     /* SPIR-V id */
    int func;
    int merge;     /* structured merge block (-1) */
    int cont;      /* loop continue target (-1) */
} gm_block;

typedef struct gm_function {
    char *name;
    int id;
    int first_block, block_count;
    int ret_reg, ret_n;  /* return value words */
    int *params;         /* parameter register words */
    int param_count;
} gm_function;

/* Texture/image instruction descriptor (inst.x indexes program->tex). */
typedef struct gm_tex_desc {
    int kind;              /* GM_TEX_* op, or image ops */
    int image_op;          /* gm_image_op for GM_OP_IMAGE */
    int proj, explicit_lod, dref_op;
    int handle;            /* register word holding the unit (per lane) */
    int coord, coord_n;    /* register word and count of the coordinate operand */
    int dref;
    int lod, bias, grad_x, grad_y, grad_n, offset, const_offset, sample, min_lod, component;
    int gather_offsets;    /* constant words in regs (4 ivec2) or -1 */
    int data, data_n;      /* image store / atomic operand */
    int data2;             /* compare-exchange comparator */
    int result_n;
    gm_tex_dim dim;
    int arrayed, shadow, ms;
    gm_tex_result_type rtype;
    int sparse;
    int legacy_shadow;     /* a pre-1.30 shadow*() (the upgrade pass's glr_shadow* wrappers):
                              4 words, GL_DEPTH_TEXTURE_MODE applied (gm_sample_request) */
} gm_tex_desc;

typedef struct gm_var {
    gm_var_info info;
    int id;          /* SPIR-V id */
    gm_space space;
    int addr;        /* register word / uniform word / 0 for buffers */
    int ncomp;
    int func;        /* locals: function index */
} gm_var;

typedef struct gm_line {
    int file;        /* index into program->files */
    int line;
} gm_line;

/* A handler of the executor's pre-decoded form (exec/gm_exec_fast.c): runs one instruction for
 * a warp (whole-warp or partially active variant); returns 0, or 1 when the general path must
 * run it. */
typedef int (*gm_fast_op)(gm_warp *w, const gm_inst *in);

/* A compiled run (compile/gm_native.h): runs instructions pc .. pc + native_len[pc] - 1 for a
 * whole warp and returns how many completed (fewer when a handler it calls declined: the general
 * path runs that one). R: the warp's registers, umem: the program's uniform memory, code and fast:
 * the program's instructions and whole-warp handlers. */
typedef int (*gm_native_fn)(uint32_t (*R)[GM_LANES], const uint32_t *umem, gm_warp *w, const gm_inst *code,
                            const gm_fast_op *fast);
/* Compiled control flow (compile/gm_native.h): runs a converged whole warp from the first
 * instruction of block `block` through the blocks that are compiled whole, following uniform
 * branches, until a branch leaves them, a branch condition diverges, a loop's back-edge would
 * spend the last of `budget` or the run is interrupted (the interpreter takes that branch), or a
 * handler declines. On return: pc, block, prev (the block it came from, when taken: a branch was
 * taken), budget, and issued (instructions completed). */
typedef struct gm_native_cf {
    int32_t block, prev, pc, budget, taken, pad;
    uint64_t issued;
} gm_native_cf;
typedef int (*gm_native_flow_fn)(uint32_t (*R)[GM_LANES], const uint32_t *umem, gm_warp *w, const gm_inst *code,
                                 const gm_fast_op *fast, gm_native_cf *cf, const volatile sig_atomic_t *abort);

struct gm_program {
    gm_stage stage;
    uint32_t bound;
    uint32_t loops_limited; /* loops of all its warps ended by GM_LOOP_ITERATION_LIMIT */
    const volatile sig_atomic_t *abort_flag;   /* gm_program_set_abort */
    gm_type *types;       /* indexed by SPIR-V id (kind GM_TYPE_VOID when not a type) */
    int *reg_of;          /* id -> register word, -1 */
    int *ncomp_of;        /* id -> words */
    int *type_of;         /* id -> type id */
    char **names;         /* OpName per id */
    int nregs;            /* words per lane */
    uint32_t (*init_regs)[GM_LANES]; /* constants and static pointers, copied into warps */
    uint8_t *init_mask;   /* which register words init_regs defines */
    gm_inst *code;
    int code_count;
    gm_fast_op *fast;     /* per pc: the full-mask handler, or NULL; then per pc the partial-mask
                           * one (2 * code_count entries, gm_exec_fast_build) */
    gm_native_fn *native; /* per pc: the compiled run starting there, or NULL (no table: none) */
    uint16_t *native_len; /* per pc: instructions in that run */
    void *native_lib;     /* the loaded object holding them */
    gm_native_flow_fn native_flow;  /* compiled control flow, or NULL */
    uint8_t *native_flow_entry;     /* per pc: 1 at the first instruction of a block it runs */
    gm_line *lines;       /* per pc */
    char **files;
    int file_count;
    gm_block *blocks;
    int block_count;
    gm_function *funcs;
    int func_count;
    int entry;            /* function index of the entry point */
    uint32_t *aux;
    int aux_count;
    gm_tex_desc *tex;
    int tex_count;
    gm_var *vars;
    int var_count;
    int *inputs, input_count, *outputs, output_count;
    gm_uniform_info *uniforms;
    int *uniform_addr;    /* word address of element 0 in umem */
    int *uniform_elem_words;
    int uniform_count;
    gm_block_info *blocks_info;
    int block_info_count;
    uint32_t *umem;       /* uniform memory */
    int umem_words;
    int writes_depth, uses_discard, origin_upper_left, early_tests;
    int uses_subgroups;   /* any GM_OP_SUBGROUP: fragment warps keep llvmpipe's 4x2 blocks whole */
    int max_call_depth;
    /* Compute: words of Workgroup storage (shared variables), LocalSize execution mode. */
    int shared_words;
    int local_size[3];
    uint64_t clock_ticks; /* OpReadClockKHR: reads so far (monotonic, deterministic) */
    int reads_clock;      /* the shader has an OpReadClockKHR */
};

/* ---- compute support (used by the frame runner; see DESIGN.md "Compute") ---- */

/* Words of workgroup shared memory a compute program needs (0 when none). */
int gm_program_shared_words(const gm_program *p);
/* Does the program read the shader clock (ARB_shader_clock)? Its results may then differ from
 * any other run's, the driver's included. */
int gm_program_reads_clock(const gm_program *p);
/* The LocalSize execution mode (1,1,1 when absent). */
void gm_program_local_size(const gm_program *p, int size[3]);
/* The shared memory of the warp's workgroup: every warp of a group gets the same `words`
 * (at least gm_program_shared_words, zeroed by the caller at group start). Accesses past
 * `count` read 0 / are dropped. NULL detaches it. */
void gm_warp_set_shared(gm_warp *w, uint32_t *words, uint32_t count);
/* Barrier stops for schedulers without the timing model: when on, gm_warp_run returns
 * GM_RUN_PAUSED before a GM_OP_BARRIER instruction (gm_warp_at_barrier() then returns 1);
 * the next run executes it. The timing model instead marks barrier PCs through its
 * barrier hook (gm_program_pc_is_barrier) and keeps this off. */
void gm_warp_set_barrier_stop(gm_warp *w, int on);
int gm_warp_at_barrier(const gm_warp *w);
int gm_program_pc_is_barrier(const gm_program *p, int pc);
/* Builds p->fast, the executor's pre-decoded form, from p->code (once, at the end of
 * gm_program_create; exec/gm_exec_fast.c). Returns 0, or -1 when out of memory. */
int gm_exec_fast_build(gm_program *p);

/* ---- geometry shaders (frame runner, gmf_geometry.c) ---- */
#define GM_GS_EMIT_VERTEX 0u
#define GM_GS_END_PRIMITIVE 1u
/* Called when the warp executes EmitVertex/EndPrimitive (and the stream variants) with the
 * lanes that execute it; the lanes' outputs are readable (gm_warp_var_lanes) during the call. */
typedef void (*gm_gs_emit_fn)(void *ctx, gm_warp *w, int end_primitive, int stream,
                              gm_mask lanes);
void gm_warp_set_gs_emit(gm_warp *w, gm_gs_emit_fn fn, void *ctx);

#endif
