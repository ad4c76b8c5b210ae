/* shadow: shadow memory of the shader debugger.
 *
 * When a breakpoint's hit count is reached, the stopped warp's context is copied into an
 * immutable snapshot: active/alive/helper masks, per-lane line, every lane's variables (typed and
 * named), the call stack of the focused lane, built-ins, uniforms, bound resources and the
 * pipeline state at the draw (JSON from the state model). The GPU then continues to the end of the
 * frame; the IDE inspects only snapshots.
 *
 * The module does not depend on the GPU model (the model depends on it): a snapshot is assembled
 * through a builder by whoever owns the warp (see debugger/dbg_warp_copy.c), then frozen.
 * Frozen snapshots are reference counted and never change; a store keeps them under a memory
 * budget, evicting the oldest ones that nobody holds.
 *
 * Prefix: sh_. Thread safety: a frozen snapshot may be read from any thread; the store is locked
 * internally; a builder belongs to one thread. */
#ifndef GLR_SHADOW_H
#define GLR_SHADOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SH_LANES 32

typedef enum { SH_SCALAR_FLOAT, SH_SCALAR_INT, SH_SCALAR_UINT, SH_SCALAR_BOOL } sh_scalar;

typedef enum {
    SH_TYPE_SCALAR, SH_TYPE_VECTOR, SH_TYPE_MATRIX, SH_TYPE_ARRAY, SH_TYPE_STRUCT,
    SH_TYPE_OPAQUE, /* sampler/image: one word, the unit */
    SH_TYPE_OTHER
} sh_type_kind;

typedef struct sh_member {
    const char *name;
    int type;
    int offset;            /* word offset inside the struct */
} sh_member;

/* A type: a value occupies `components` 32-bit words (matrices column-major, arrays element after
 * element, structs member after member). */
typedef struct sh_type {
    sh_type_kind kind;
    sh_scalar scalar;      /* scalar/vector/matrix element type */
    int rows;              /* vector size or matrix rows (1 for scalars) */
    int columns;           /* matrix columns (1 otherwise) */
    int length;            /* array length or struct member count */
    int element;           /* array element type, matrix column type; -1 otherwise */
    int components;
    int width;             /* bits of each scalar: 64 for doubles (two words per component, low
                            * word first, so `components` is 2 * rows * columns); 0 or 32 else */
    const char *name;      /* struct or opaque type name ("" if none) */
    const sh_member *members;
} sh_type;

typedef enum {
    SH_VAR_LOCAL, SH_VAR_GLOBAL, SH_VAR_INPUT, SH_VAR_OUTPUT, SH_VAR_UNIFORM, SH_VAR_BUILTIN
} sh_var_class;

/* A variable: lanes[component * SH_LANES + lane] for per-lane values, or one word per component
 * (lanes == 1) for values that are the same in every lane (uniforms). */
typedef struct sh_var {
    const char *name;
    const char *function;  /* locals: the function ("main"); NULL otherwise */
    sh_var_class klass;
    int type;
    int builtin;           /* SPIR-V BuiltIn for built-ins, -1 otherwise */
    int decl_line;         /* 0 if unknown */
    int lanes;             /* SH_LANES or 1 */
    const uint32_t *words;
} sh_var;

typedef struct sh_frame {
    const char *function;
    int line;
} sh_frame;

/* Where the warp sits in the frame and what its lanes are. */
typedef struct sh_header {
    uint64_t hit;          /* which hit of the breakpoint made the stop (0: pause/step) */
    int draw;              /* draw index in the frame */
    uint64_t event;        /* command stream record of the draw */
    int stage;             /* gm_stage values: 0 VS .. 4 FS, 5 CS */
    int warp;              /* warp id within the draw and stage */
    int focus_lane;
    int shader;            /* the debugger's captured-shader id */
    int program;           /* captured GL program name */
    int line;              /* focused lane's line */
    int pc;
    uint32_t active, alive, helper, killed;
    int lane_line[SH_LANES];
    /* Fragment warps: window coordinates per lane; vertex warps: gl_VertexID per lane
     * (lane_x) and gl_InstanceID (lane_y). */
    int lane_x[SH_LANES], lane_y[SH_LANES];
    int lane_pos_known;    /* 0: the shader does not read gl_FragCoord / gl_VertexID and the
                            * runner did not say: lane_x/lane_y are unknown (0) */
    /* Compute warps (stage 5): lane_x is each lane's gl_LocalInvocationIndex; the warp's
     * workgroup (gl_WorkGroupID; -1s when unknown), the group's local size and its index
     * among the dispatch's groups. */
    int workgroup[3];
    int local_size[3];
    int64_t group_index;
} sh_header;

typedef struct sh_snapshot sh_snapshot;
typedef struct sh_builder sh_builder;

sh_builder *sh_builder_new(void);
/* Frees an unfinished builder. */
void sh_builder_free(sh_builder *b);
/* Types: returns the type index. Members are added to the last struct type added, in order. */
int sh_builder_add_type(sh_builder *b, const sh_type *t);
int sh_builder_add_member(sh_builder *b, int struct_type, const char *name, int type, int offset);
/* Copies the words (lanes * components of the type). Returns the variable index or -1. */
int sh_builder_add_var(sh_builder *b, const sh_var *v);
void sh_builder_push_frame(sh_builder *b, const char *function, int line); /* innermost last */
void sh_builder_set_header(sh_builder *b, const sh_header *h);
/* Free-form descriptions kept with the snapshot: the thread name, the bound resources (JSON
 * array text) and the pipeline state at the draw (JSON object text from sm_query_json). */
void sh_builder_set_text(sh_builder *b, const char *title, const char *resources_json,
                         const char *pipeline_json);
/* Freezes the builder into a snapshot (refcount 1) and frees the builder. NULL on memory
 * exhaustion or when an earlier add failed (message in err). */
sh_snapshot *sh_builder_finish(sh_builder *b, char *err, size_t err_size);

sh_snapshot *sh_snapshot_ref(sh_snapshot *s);
void sh_snapshot_unref(sh_snapshot *s);

const sh_header *sh_snapshot_header(const sh_snapshot *s);
uint64_t sh_snapshot_id(const sh_snapshot *s);      /* set by the store, 0 before */
size_t sh_snapshot_bytes(const sh_snapshot *s);     /* memory it holds */
int sh_snapshot_type_count(const sh_snapshot *s);
const sh_type *sh_snapshot_type(const sh_snapshot *s, int i);
int sh_snapshot_var_count(const sh_snapshot *s);
const sh_var *sh_snapshot_var(const sh_snapshot *s, int i);
/* First variable of that name visible from the focused lane's function (locals of the current
 * function first, then globals, inputs, outputs, uniforms, built-ins); -1 if none. */
int sh_snapshot_find_var(const sh_snapshot *s, const char *name);
int sh_snapshot_frame_count(const sh_snapshot *s);
const sh_frame *sh_snapshot_frame(const sh_snapshot *s, int depth); /* 0 = innermost */
const char *sh_snapshot_title(const sh_snapshot *s);
const char *sh_snapshot_resources(const sh_snapshot *s);
const char *sh_snapshot_pipeline(const sh_snapshot *s);

/* One lane's word of a variable component (lanes == 1 variables ignore the lane). */
static inline uint32_t sh_var_word(const sh_var *v, int component, int lane)
{
    return v->lanes == 1 ? v->words[component] : v->words[(size_t)component * SH_LANES + (size_t)lane];
}

/* GLSL spelling of a type ("vec3", "mat4", "float[4]", "Light"). */
const char *sh_type_glsl(const sh_snapshot *s, int type, char *buf, size_t size);
/* A value as GLSL-like text ("vec3(0.5, 1, 0)", "{color: vec3(...), ...}", arrays "[...]"),
 * from `words` (components of the type, one lane's words in order). Long aggregates are cut with
 * "..." at max_chars. Returns buf. */
char *sh_format_value(const sh_snapshot *s, int type, const uint32_t *words, char *buf,
                      size_t size);
/* One component of a vector or matrix (words: its one word, or two for a double), as
 * sh_format_value writes it. Returns buf. */
char *sh_format_component(sh_scalar scalar, int width, const uint32_t *words, char *buf, size_t size);
/* Gathers one lane's words of a variable into out (components words). */
void sh_var_lane_words(const sh_snapshot *s, const sh_var *v, int lane, uint32_t *out);
/* Whole snapshot as strict JSON (header, stack, variables with focused-lane values and per-lane
 * values, resources, pipeline). malloc'd; NULL on memory exhaustion. */
char *sh_snapshot_to_json(const sh_snapshot *s);

/* ---- store: snapshots under a memory budget ---- */
typedef struct sh_store sh_store;
/* budget_bytes 0: 256 MiB. */
sh_store *sh_store_new(size_t budget_bytes);
void sh_store_free(sh_store *st);
/* Takes a reference; assigns the snapshot's id (1, 2, ...). Then evicts the oldest snapshots
 * while the total exceeds the budget (never the one just added); evicted snapshots stay alive
 * for whoever still holds a reference. Returns the id. */
uint64_t sh_store_add(sh_store *st, sh_snapshot *s);
/* A new reference to the snapshot with that id, or NULL if unknown or evicted. */
sh_snapshot *sh_store_get(sh_store *st, uint64_t id);
size_t sh_store_bytes(sh_store *st);
size_t sh_store_count(sh_store *st);
uint64_t sh_store_evictions(sh_store *st);

#ifdef __cplusplus
}
#endif
#endif
