/* gpu_model: an in-process software GPU (pure C, no GL calls).
 * This header is the module's one public interface: the GLSL front end (legacy GLSL
 * upgraded source-to-source, compiled to SPIR-V with line info by glslang), the decoded
 * shader program (interface, uniforms, variables, line table) and the SIMT warp executor
 * (32 lanes, stepping, observer hook). See gpu_model/DESIGN.md. */
#ifndef GPU_MODEL_H
#define GPU_MODEL_H

#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "gm_sampler_iface.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    GM_STAGE_VERTEX, GM_STAGE_TESS_CONTROL, GM_STAGE_TESS_EVALUATION, GM_STAGE_GEOMETRY,
    GM_STAGE_FRAGMENT, GM_STAGE_COMPUTE, GM_STAGE_COUNT
} gm_stage;

/* ------------------------------------------------------------------ front end */

/* What the upgrade pass did to a legacy shader. */
typedef struct gm_upgrade_info {
    int upgraded;          /* 0: source compiled as given */
    int original_version;  /* e.g. 110, 300 */
    int original_es;
    int compatibility;     /* used compatibility-profile features */
    /* Identifiers renamed because they are keywords in the target version,
     * "old=new" pairs separated by '\n' (NULL if none). Caller frees with the result. */
    char *renames;
} gm_upgrade_info;

/* Rewrites GLSL that glslang's SPIR-V path rejects (#version < 330, ES < 3.10,
 * attribute/varying, compatibility built-ins, texture2D & co) into core GLSL with the
 * same number of lines, every statement on its original line. Compatibility state
 * becomes ordinary uniforms named glr_<Name> (glr_ModelViewProjectionMatrix,
 * glr_LightSource[i].diffuse ...), built-in attributes become inputs glr_Vertex,
 * glr_Normal, glr_Color, glr_MultiTexCoord0..7, glr_SecondaryColor, glr_FogCoord,
 * built-in varyings glr_FrontColor, glr_BackColor, glr_TexCoord[], glr_FogFragCoord
 * (a fragment shader's gl_Color reads glr_FrontColor), gl_FragColor becomes output
 * glr_FragColor (location 0) and gl_FragData glr_FragData[] (locations 0..).
 * Returns a malloc'd string (the source itself, copied, when nothing is needed), or
 * NULL with a message in err. */
char *gm_glsl_upgrade(const char *source, gm_stage stage, gm_upgrade_info *info, char *err,
                      size_t err_size);
void gm_upgrade_info_free(gm_upgrade_info *info);

typedef struct gm_shader_source {
    gm_stage stage;
    const char *source; /* as given to glShaderSource (strings concatenated) */
    const char *name;   /* file name for the line table / messages; may be NULL */
} gm_shader_source;

typedef struct gm_compiled_shader {
    gm_stage stage;
    uint32_t *spirv;
    size_t word_count;
    char *compiled_source; /* the text glslang compiled (upgraded or original) */
    gm_upgrade_info upgrade;
} gm_compiled_shader;

typedef struct gm_compile_result {
    int ok;
    char *log; /* glslang's messages (errors with original line numbers); never NULL */
    int shader_count;
    gm_compiled_shader shaders[GM_STAGE_COUNT];
} gm_compile_result;

/* Compiles and links the stages of one program together (so inter-stage locations
 * match), one SPIR-V module per stage with OpLine debug info. A stage may come from several
 * sources (shader objects linked together, as GL allows): shaders[] then holds one entry per
 * stage, whose compiled_source is the unit defining main(). Returns 0 on success. */
#define GM_MAX_SHADER_UNITS 32
int gm_compile_program(const gm_shader_source *sources, int count, gm_compile_result *out);
void gm_compile_result_free(gm_compile_result *r);

/* ------------------------------------------------------------------ program */

typedef struct gm_program gm_program;

/* Decodes one stage's SPIR-V (entry point "main") into the register IR. Unsupported
 * instructions are reported by name. NULL on error with a message in err. */
gm_program *gm_program_create(const uint32_t *spirv, size_t word_count, char *err,
                              size_t err_size);
void gm_program_destroy(gm_program *p);
gm_stage gm_program_stage(const gm_program *p);

typedef enum { GM_SCALAR_FLOAT, GM_SCALAR_INT, GM_SCALAR_UINT, GM_SCALAR_BOOL } gm_scalar;

typedef enum {
    GM_TYPE_VOID, GM_TYPE_SCALAR, GM_TYPE_VECTOR, GM_TYPE_MATRIX, GM_TYPE_ARRAY,
    GM_TYPE_STRUCT, GM_TYPE_SAMPLER, GM_TYPE_IMAGE, GM_TYPE_POINTER, GM_TYPE_OTHER
} gm_type_kind;

/* Types are handles (indexes) into the program; a value of a type occupies
 * `components` 32-bit words, laid out recursively (matrix column-major, then arrays
 * element after element, structs member after member). */
typedef struct gm_type_desc {
    gm_type_kind kind;
    gm_scalar scalar;      /* scalar/vector/matrix element type */
    int rows;              /* vector size, or matrix rows */
    int columns;           /* matrix columns (1 otherwise) */
    int length;            /* array length (0 runtime-sized) or struct member count */
    int element;           /* array element type / matrix column type */
    int components;        /* flattened 32-bit words */
    int width;             /* bits of each scalar: 32, or 64 for doubles and 64-bit integers
                            * (a component takes two consecutive words, low then high); 0 for
                            * non-numeric */
    const char *name;      /* struct name (may be "") */
    /* Samplers and images: SPIR-V Dim, Depth (1: shadow), Arrayed and MS operands */
    int image_dim, image_depth, image_arrayed, image_ms;
} gm_type_desc;
int gm_type_get(const gm_program *p, int type, gm_type_desc *out);
/* Struct member i: its type, name and word offset inside the struct. */
int gm_type_member(const gm_program *p, int type, int i, int *member_type, const char **name,
                   int *word_offset);
/* Interpolation qualifier of a block member: 1 flat, 2 noperspective, 0 none of its own. */
int gm_type_member_interp(const gm_program *p, int type, int i);

typedef enum {
    GM_VAR_LOCAL, GM_VAR_GLOBAL, GM_VAR_INPUT, GM_VAR_OUTPUT, GM_VAR_UNIFORM, GM_VAR_BUFFER,
    GM_VAR_OPAQUE /* samplers/images: value is the unit */
} gm_var_class;

typedef struct gm_var_info {
    const char *name;      /* from OpName (original GLSL name) */
    const char *function;  /* locals: the function's name ("main", "f(f1;"); else NULL */
    gm_var_class klass;
    int type;
    int location;          /* inputs/outputs/uniforms; -1 when none */
    int builtin;           /* SPIR-V BuiltIn for built-in variables, else -1 */
    int binding;           /* blocks/samplers/images; -1 when none */
    int component;         /* Component decoration (0 if none) */
    int flat;              /* interpolation: 1 flat, 2 noperspective, 0 smooth */
    int decl_line;         /* first line the variable appears on, 0 if unknown */
} gm_var_info;

int gm_program_var_count(const gm_program *p);
const gm_var_info *gm_program_var(const gm_program *p, int index);
int gm_program_find_var(const gm_program *p, const char *name, gm_var_class klass);

/* Inputs and outputs (also listed as variables): indexes into the variable table. */
int gm_program_input_count(const gm_program *p);
int gm_program_input_var(const gm_program *p, int i);
int gm_program_output_count(const gm_program *p);
int gm_program_output_var(const gm_program *p, int i);

/* Where a built-in (SPIR-V BuiltIn value, e.g. 0 = Position) lives: the variable and
 * the word offset inside it (gl_Position sits in the gl_PerVertex block). 0 if found. */
int gm_program_find_builtin(const gm_program *p, int builtin, int *var, int *word_offset);

/* Loose uniforms flattened GL-style to leaves ("m", "a[0]" for arrays of basic types
 * reported once with array_size, "s.member", "lights[1].color"). */
typedef struct gm_uniform_info {
    const char *name;
    int location;          /* of element 0; element k is location + k */
    int type;              /* element type */
    int array_size;        /* 1 for non-arrays */
    int is_opaque;         /* sampler/image: one int (the unit) per element */
    int opaque_type;       /* the sampler/image type for opaque uniforms */
    int initialized;       /* the shader gives it an initializer (its value until set) */
} gm_uniform_info;
int gm_program_uniform_count(const gm_program *p);
const gm_uniform_info *gm_program_uniform(const gm_program *p, int i);
int gm_program_find_uniform(const gm_program *p, const char *name); /* "a" or "a[2]" */
/* Sets count elements starting at element first (32-bit words: float bits, int, bool
 * 0/1). Returns 0, or -1 when out of range. */
int gm_program_set_uniform(gm_program *p, int uniform, int first, int count, const void *words);
int gm_program_set_uniform_by_name(gm_program *p, const char *name, const void *words, int count);
int gm_program_set_uniform_by_location(gm_program *p, int location, const void *words, int count);
const uint32_t *gm_program_uniform_data(const gm_program *p, int uniform);

/* Uniform / storage blocks (UBO/SSBO): name is the block type name. */
typedef struct gm_block_info {
    const char *name;
    const char *instance_name;
    int binding;
    int is_storage;
    int is_atomic_counter; /* atomic_uint storage: bound by layout(binding) to an atomic counter buffer */
    int array_size;        /* an array of blocks: its elements (binding + k each); else 1 */
    size_t size;           /* static size in bytes (runtime array excluded) */
    int type;
} gm_block_info;
int gm_program_block_count(const gm_program *p);
const gm_block_info *gm_program_block(const gm_program *p, int i);

/* Line table: the source line of an instruction (PC), 0 when none. */
int gm_program_pc_count(const gm_program *p);
int gm_program_pc_line(const gm_program *p, int pc);
const char *gm_program_pc_file(const gm_program *p, int pc);
/* PCs issued at a line, for breakpoints: returns 1 if any instruction has that line. */
int gm_program_line_has_code(const gm_program *p, int line);
/* Fragment-shader facts the pipeline needs. */
int gm_program_writes_depth(const gm_program *p);
int gm_program_uses_discard(const gm_program *p);
/* 1 when some instruction may store word `word` of register variable `var` (outputs) */
int gm_program_may_store_var_word(const gm_program *p, int var, int word);
/* Subgroup operations or built-ins (ARB_shader_ballot, ARB_shader_group_vote). */
int gm_program_uses_subgroups(const gm_program *p);
int gm_program_origin_upper_left(const gm_program *p);
int gm_program_early_fragment_tests(const gm_program *p);
/* Disassembly of the register IR (for debugging the model); malloc'd. */
char *gm_program_dump(const gm_program *p);

/* ------------------------------------------------------------------ warps */

typedef struct gm_warp gm_warp;

typedef enum {
    GM_RUN_DONE,    /* every lane finished (returned from main or was killed) */
    GM_RUN_PAUSED,  /* stopped by the instruction budget or the observer */
    GM_RUN_ERROR,   /* runtime error (message via gm_warp_error) */
} gm_run_status;

/* Observer: called before each warp instruction issues, with the lanes that execute
 * it. Return nonzero to pause the warp before that instruction (the next run call
 * resumes there without observing it again). */
typedef struct gm_issue {
    int warp_id;
    int pc;
    int line;
    gm_mask active;
    int call_depth;
} gm_issue;
typedef int (*gm_observer_fn)(void *ctx, gm_warp *w, const gm_issue *issue);

gm_warp *gm_warp_create(gm_program *p, int warp_id);
void gm_warp_destroy(gm_warp *w);
void gm_warp_set_env(gm_warp *w, const gm_env *env);
/* The environment the warp samples and loads through (debuggers sample like its shader would). */
void gm_warp_get_env(const gm_warp *w, gm_env *env);
void gm_warp_set_observer(gm_warp *w, gm_observer_fn fn, void *ctx);
/* Starts a new invocation group: lanes in `active` run main(); lanes in `helper` run
 * but never write outputs or memory (fragment helper lanes). Outputs are zeroed. */
void gm_warp_begin(gm_warp *w, gm_mask active, gm_mask helper);
/* Pointer to a variable's storage for all lanes: words[component][GM_LANES]
 * (inputs: fill before running; outputs: read after). NULL for uniforms/blocks. */
uint32_t (*gm_warp_var_lanes(gm_warp *w, int var))[GM_LANES];
/* Runs at most max_instructions warp instructions (0 = no limit). */
gm_run_status gm_warp_run(gm_warp *w, uint64_t max_instructions);
gm_run_status gm_warp_step(gm_warp *w);
const char *gm_warp_error(const gm_warp *w);

/* State at a stop. */
gm_mask gm_warp_alive_mask(const gm_warp *w);   /* not finished, not killed */
gm_mask gm_warp_killed_mask(const gm_warp *w);  /* discarded lanes */
gm_mask gm_warp_helper_mask(const gm_warp *w);
const gm_program *gm_warp_program(const gm_warp *w); /* the program the warp runs */
/* Fragment warps: +1 when lanes 2,3 of a quad lie at window y + 1 (the default), -1 in
 * y-flipped (window-system) framebuffers. Only window-y derivatives (interpolateAtOffset) use it. */
void gm_warp_set_quad_dy(gm_warp *w, int quad_dy);
/* Subgroups (ARB_shader_ballot, ARB_shader_group_vote): the subgroup of each lane (lanes with
 * equal ids form one) and its invocation index in it (0..7: llvmpipe's 8-lane subgroups).
 * gm_warp_begin resets them to groups of 8 consecutive lanes; call after it. */
void gm_warp_set_subgroups(gm_warp *w, const uint8_t group[GM_LANES],
                           const uint8_t invocation[GM_LANES]);
gm_mask gm_warp_active_mask(const gm_warp *w);  /* lanes of the next instruction */
int gm_warp_pc(const gm_warp *w);               /* next instruction, -1 when done */
int gm_warp_lane_line(const gm_warp *w, int lane); /* where that lane waits, 0 if done */
uint64_t gm_warp_issued(const gm_warp *w);      /* warp instructions issued so far */
/* Loops ended by the loop limit since gm_warp_begin: llvmpipe ends a loop after 65535
 * iterations of all the loops of one function call, and so does the model. */
uint32_t gm_warp_loops_limited(const gm_warp *w);
/* The same summed over every warp of a program since it was created. */
uint32_t gm_program_loops_limited(const gm_program *p);
/* A flag that, once nonzero, makes the program's warps stop with a runtime error ("stopped") at
 * their next loop end: how a long run is interrupted between warps without waiting for a
 * warp's loops to end (the frame runner sets it from gmf_set_abort). NULL: none. */
void gm_program_set_abort(gm_program *p, const volatile sig_atomic_t *flag);
uint64_t gm_warp_lane_instructions(const gm_warp *w); /* sum of active lanes issued */
/* Call stack (0 = main): function name and the line of the call site / current line. */
int gm_warp_call_depth(const gm_warp *w);
const char *gm_warp_frame_function(const gm_warp *w, int depth);
int gm_warp_frame_line(const gm_warp *w, int depth);
/* Copies a variable's value for one lane (components words). Locals of functions not
 * on the stack read their last values. Returns the component count, -1 on error. */
int gm_warp_read_var(const gm_warp *w, int var, int lane, uint32_t *out, int max_words);

#ifdef __cplusplus
}
#endif
#endif
