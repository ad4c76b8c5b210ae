/* statemodel: a pure C model of OpenGL context state and objects (no GL calls, no GL headers).
 *
 * A struct sm_state holds share groups (shared objects: buffers, textures, renderbuffers,
 * samplers, shaders, programs, syncs) and contexts (per-context objects: VAOs, FBOs, transform
 * feedback objects, program pipelines, queries; and all context state). sm_apply() applies one
 * recorded call (struct glr_call) to it, so the state at any event of a capture is known without a
 * driver. The state serializes to a versioned byte buffer (capture section INITIAL_STATE) and to
 * JSON, and produces the GL calls that restore it on a live context.
 *
 * Enum-valued fields hold raw GLenum values (uint32_t). Names are the CAPTURED object names.
 * The structures are read-only for users: change the state only through the functions here.
 * See statemodel/DESIGN.md for what is modelled and what is not yet.
 */
#ifndef STATEMODEL_H
#define STATEMODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "registry/glr_call.h"
#include "statemodel/sm_fixed_state.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Version of the serialized form (binary and JSON); bumped on any layout change. */
#define SM_FORMAT_VERSION_NUMBER 9
#define SM_FORMAT_VERSION ((unsigned)SM_FORMAT_VERSION_NUMBER)   /* 2: legacy matrix stacks; 3: query results; 4: block names; 5: ARB programs; 6: GL_DEPTH_TEXTURE_MODE; 7: SPIR-V modules of shaders; 8: program binaries; 9: images' pixel-transfer scale and bias; versions 1 to 8 are still read */

/* Fixed limits of the model (at least what GL 4.6 / GLES 3.2 drivers report on Mesa). Commands that
 * name an index beyond them are counted as errors (sm_state.errors) and otherwise ignored, as the
 * driver would raise GL_INVALID_VALUE. */
#define SM_MAX_TEXTURE_UNITS   96
#define SM_MAX_VERTEX_ATTRIBS  32
#define SM_MAX_DRAW_BUFFERS    8
#define SM_MAX_COLOR_ATTACH    8
#define SM_MAX_VIEWPORTS       16
#define SM_MAX_UBO_BINDINGS    96
#define SM_MAX_SSBO_BINDINGS   96
#define SM_MAX_ATOMIC_BINDINGS 16
#define SM_MAX_TFB_BUFFERS     4
#define SM_MAX_IMAGE_UNITS     32
#define SM_MAX_LEVELS          16
#define SM_MAX_LEGACY_TEXCOORD 8
#define SM_MAX_CLIP_PLANES     8

enum sm_api { SM_API_GL_COMPAT = 0, SM_API_GL_CORE = 1, SM_API_GLES = 2 };

/* Texture targets a unit has a binding for (index into sm_texture_unit.bound[]). */
enum sm_tex_target {
    SM_TT_1D, SM_TT_2D, SM_TT_3D, SM_TT_1D_ARRAY, SM_TT_2D_ARRAY, SM_TT_RECTANGLE, SM_TT_CUBE_MAP,
    SM_TT_CUBE_MAP_ARRAY, SM_TT_BUFFER, SM_TT_2D_MULTISAMPLE, SM_TT_2D_MULTISAMPLE_ARRAY,
    SM_TT_EXTERNAL_OES, SM_TT_COUNT
};

/* The key under which the share group's textures map holds the object a binding names: the
 * name itself, or for name 0 the target's default texture (GL keeps one per target; a
 * compatibility program may define images on it: piglit gl-1.4-tex1d-2dborder). The keys
 * 0xfffffff0 + target are outside what glGenTextures hands out in practice. */
#define SM_DEFAULT_TEXTURE_KEY 0xfffffff0u
static inline uint32_t sm_texture_key(uint32_t name, int ti)
{
    return name ? name : SM_DEFAULT_TEXTURE_KEY + (uint32_t)ti;
}

/* Non-indexed buffer binding points of a context (index into sm_context_state.buffer[]).
 * GL_ELEMENT_ARRAY_BUFFER is VAO state (sm_vao.element_buffer). */
enum sm_buffer_target {
    SM_BT_ARRAY, SM_BT_COPY_READ, SM_BT_COPY_WRITE, SM_BT_PIXEL_PACK, SM_BT_PIXEL_UNPACK,
    SM_BT_TEXTURE, SM_BT_DRAW_INDIRECT, SM_BT_DISPATCH_INDIRECT, SM_BT_QUERY, SM_BT_PARAMETER,
    SM_BT_UNIFORM, SM_BT_SHADER_STORAGE, SM_BT_ATOMIC_COUNTER, SM_BT_TRANSFORM_FEEDBACK,
    SM_BT_COUNT
};

/* Shader stages of a program pipeline (index into sm_pipeline.stage[]). */
enum sm_stage { SM_ST_VERTEX, SM_ST_TESS_CONTROL, SM_ST_TESS_EVAL, SM_ST_GEOMETRY, SM_ST_FRAGMENT,
                SM_ST_COMPUTE, SM_ST_COUNT };

/* Legacy (compatibility) client-side arrays of a VAO (index into sm_vao.legacy[]);
 * texture coordinate arrays follow SM_LA_TEXCOORD0. */
enum sm_legacy_slot { SM_LA_VERTEX, SM_LA_NORMAL, SM_LA_COLOR, SM_LA_SECONDARY_COLOR,
                       SM_LA_FOG_COORD, SM_LA_EDGE_FLAG, SM_LA_INDEX, SM_LA_TEXCOORD0,
                       SM_LA_COUNT = SM_LA_TEXCOORD0 + SM_MAX_LEGACY_TEXCOORD };

/* Component type of a uniform value or a current vertex attribute. */
enum sm_value_kind { SM_VK_FLOAT = 0, SM_VK_INT = 1, SM_VK_UINT = 2, SM_VK_DOUBLE = 3,
                     SM_VK_INT64 = 4, SM_VK_UINT64 = 5 };

/* ---------------------------------------------------------------- shared objects */

struct sm_buffer {
    uint32_t name;
    uint32_t first_target;   /* GLenum of the first binding (0: generated, never bound) */
    uint64_t size;
    uint32_t usage;          /* glBufferData usage (0 for immutable storage) */
    bool immutable;          /* glBufferStorage */
    uint32_t storage_flags;
    bool data_known;         /* data holds all `size` bytes of contents */
    uint8_t *data;
    bool mapped;
    uint32_t map_access;     /* glMapBufferRange access bits (or GL_READ_ONLY.. for glMapBuffer) */
    uint64_t map_offset, map_length;
};

/* Sampling parameters: of a texture object, or of a sampler object (which ignores the texture-
 * only fields base_level..srgb_decode's neighbours marked below). */
struct sm_sampling {
    uint32_t min_filter, mag_filter;
    uint32_t wrap_s, wrap_t, wrap_r;
    float min_lod, max_lod, lod_bias, max_anisotropy;
    uint32_t compare_mode, compare_func;
    uint32_t border_kind;    /* SM_VK_FLOAT, SM_VK_INT or SM_VK_UINT: how border[] was set */
    uint32_t border[4];      /* bit patterns of floats, or the integers */
    uint32_t srgb_decode;    /* GL_EXT_texture_sRGB_decode */
    /* texture only */
    int32_t base_level, max_level;
    uint32_t swizzle[4];
    uint32_t depth_stencil_mode;
    uint32_t depth_texture_mode;   /* GL_DEPTH_TEXTURE_MODE (compatibility profile) */
};

/* One image of a texture: one level of one face (cube maps) or of the whole layered texture. */
struct sm_tex_image {
    bool defined;
    bool generated;          /* made by glGenerateMipmap: restored by calling it again */
    bool compressed;
    uint32_t internal_format;
    int32_t width, height, depth;   /* depth = layers for array textures */
    int32_t samples;
    bool fixed_sample_locations;
    /* Contents as last uploaded in one piece, when known (tightly described by these fields). */
    uint8_t *data;
    uint64_t data_size;
    uint32_t data_format, data_type; /* client format/type of data (compressed: unused) */
    int32_t data_alignment;          /* GL_UNPACK_ALIGNMENT data was laid out with */
    /* glPixelTransfer scale and bias GL applies to that colour data (xfer: not the defaults) */
    bool xfer;
    float xfer_scale[4], xfer_bias[4];
};

struct sm_texture {
    uint32_t name;
    uint32_t target;         /* GLenum; 0 until first bound (or glCreateTextures) */
    bool immutable;
    int32_t immutable_levels;
    struct sm_sampling params;
    /* texture buffer (GL_TEXTURE_BUFFER) */
    uint32_t buffer, buffer_format;
    uint64_t buffer_offset, buffer_size;   /* size 0: the whole buffer */
    struct sm_tex_image image[6][SM_MAX_LEVELS];   /* [face][level]; face 0 unless a cube map */
};

struct sm_renderbuffer {
    uint32_t name;
    bool created;            /* bound once (or glCreateRenderbuffers) */
    uint32_t internal_format;
    int32_t width, height, samples;
};

struct sm_sampler {
    uint32_t name;
    struct sm_sampling params;
};

/* A SPIR-V module given with glShaderBinary(GL_SHADER_BINARY_FORMAT_SPIR_V) and what
 * glSpecializeShader chose for it (GL_ARB_gl_spirv; sm_apply_spirv.c). */
struct sm_spirv {
    uint8_t *binary; uint32_t size;         /* the module's bytes as given */
    char *entry;                            /* entry point; NULL until glSpecializeShader */
    uint32_t n_spec; uint32_t *spec_ids, *spec_values;   /* specialization constants */
};

struct sm_shader {
    uint32_t name;
    uint32_t type;           /* GL_VERTEX_SHADER, ... */
    char *source;            /* NUL-terminated; NULL until glShaderSource */
    struct sm_spirv *spirv;  /* a SPIR-V shader (then source is NULL); NULL for GLSL */
    bool compiled;           /* glCompileShader was called (the model does not know the result) */
    bool delete_pending;     /* deleted while attached: lives until detached */
};

struct sm_name_binding { char *name; uint32_t index; uint32_t index2; };
struct sm_linked_shader { uint32_t type; char *source; struct sm_spirv *spirv; };

/* A uniform value set by glUniform* / glProgramUniform*, kept BY LOCATION: each element of an
 * array uniform is its own location. Matrices are stored column-major (transposed on input). */
struct sm_uniform {
    int32_t location;
    uint8_t kind;            /* enum sm_value_kind */
    uint8_t cols, rows;      /* vectors: cols 1, rows = components; matrices: cols x rows */
    uint8_t data[128];       /* cols*rows components of the kind's size */
};

struct sm_program {
    uint32_t name;
    uint32_t *attached; uint32_t n_attached;        /* shader names, in attach order */
    struct sm_name_binding *attrib_bindings; uint32_t n_attrib_bindings;   /* name -> index */
    struct sm_name_binding *frag_bindings; uint32_t n_frag_bindings;       /* name -> color,index */
    char **tf_varyings; uint32_t n_tf_varyings;
    uint32_t tf_buffer_mode;
    bool separable, binary_retrievable;
    uint32_t link_count;     /* glLinkProgram calls (0: never linked) */
    struct sm_linked_shader *linked; uint32_t n_linked; /* shaders as they were at the last link */
    /* The binary of a program last linked by glProgramBinary (NULL otherwise):
     * restore loads it again where no sources are known (sm_program_sources.c). Format version 8. */
    uint8_t *binary; uint32_t binary_size; uint32_t binary_format;
    struct sm_uniform *uniforms; uint32_t n_uniforms;   /* sorted by location */
    struct sm_name_binding *ubo_bindings; uint32_t n_ubo_bindings;   /* index -> binding (name NULL) */
    struct sm_name_binding *ssbo_bindings; uint32_t n_ssbo_bindings;
    /* Uniform names the program asked for with glGetUniformLocation since the last link:
     * name -> location (in `index`, as uint32_t). Only for showing values with their names. */
    struct sm_name_binding *uniform_names; uint32_t n_uniform_names;
    /* Block names -> block index (`index`; `index2` 0: uniform block, 1: shader storage block),
     * from glGetUniformBlockIndex / glGetProgramResourceIndex(GL_SHADER_STORAGE_BLOCK) or read by
     * a snapshot: the model finds a block's index (and so its binding) by its name. Since the
     * last link; format version 4. */
    struct sm_name_binding *block_names; uint32_t n_block_names;
    /* GL_ARB_shader_subroutine names the program asked for since the last link (glGetSubroutineIndex,
     * glGetSubroutineUniformLocation): name "S:f:NAME" (function) or "S:u:NAME" (subroutine
     * uniform), S the stage digit (0 vertex .. 5 compute), -> index or location (`index`).
     * Not serialized (sm_apply_subroutine.c). */
    struct sm_name_binding *subroutine_names; uint32_t n_subroutine_names;
    bool delete_pending;
};

struct sm_sync {
    uint64_t handle;         /* GLsync as captured */
    uint32_t condition, flags;
};

/* ---------------------------------------------------------------- per-context objects */

struct sm_vertex_attrib {
    bool enabled;
    int32_t size;            /* 1..4 or GL_BGRA */
    uint32_t type;
    bool normalized, integer, is_long;
    uint32_t relative_offset;
    uint32_t binding;        /* vertex buffer binding index */
    int32_t stride;          /* stride as passed to gl*Pointer (0 = tightly packed) */
    uint64_t pointer;        /* as passed to gl*Pointer: an offset, or a client address when no
                              * buffer was bound (client-side array; its data is in the draw's blobs) */
};

struct sm_vertex_binding {
    uint32_t buffer;
    uint64_t offset;
    int32_t stride;          /* effective stride in bytes */
    uint32_t divisor;
};

struct sm_legacy_array {
    bool enabled;
    int32_t size;
    uint32_t type;
    int32_t stride;
    uint64_t pointer;
    uint32_t buffer;
};

struct sm_vao {
    uint32_t name;           /* 0: the context's default vertex array */
    bool created;
    uint32_t element_buffer;
    struct sm_vertex_attrib attrib[SM_MAX_VERTEX_ATTRIBS];
    struct sm_vertex_binding binding[SM_MAX_VERTEX_ATTRIBS];
    struct sm_legacy_array legacy[SM_LA_COUNT];
};

struct sm_attachment {
    uint32_t type;           /* 0 (none), GL_TEXTURE or GL_RENDERBUFFER */
    uint32_t name;
    int32_t level;
    int32_t layer;           /* layer or cube face index for glFramebufferTextureLayer/3D */
    uint32_t textarget;      /* target passed to glFramebufferTexture1D/2D/3D (0 otherwise) */
    bool layered;            /* glFramebufferTexture on a layered texture */
};

struct sm_framebuffer {
    uint32_t name;           /* 0: the default framebuffer (only draw/read buffers apply) */
    bool created;
    struct sm_attachment color[SM_MAX_COLOR_ATTACH];
    struct sm_attachment depth, stencil;
    uint32_t draw_buffers[SM_MAX_DRAW_BUFFERS];
    uint32_t n_draw_buffers;
    uint32_t read_buffer;
    int32_t default_width, default_height, default_layers, default_samples;
    bool default_fixed_sample_locations;
};

struct sm_indexed_buffer { uint32_t buffer; uint64_t offset, size; /* size 0: BindBufferBase */ };

struct sm_transform_feedback {
    uint32_t name;           /* 0: the context's default object */
    bool created;
    struct sm_indexed_buffer buffers[SM_MAX_TFB_BUFFERS];
    bool active, paused;
    uint32_t primitive_mode;
};

struct sm_pipeline {
    uint32_t name;
    bool created;
    uint32_t stage[SM_ST_COUNT];
    uint32_t active_program;
};

struct sm_query {
    uint32_t name;
    uint32_t target;         /* 0 until first begun (or glCreateQueries) */
    bool active;
    uint32_t index;          /* glBeginQueryIndexed index */
    /* The result an earlier frame left in the object, read by the snapshot (format version 3) so
     * a frame that tests it (conditional rendering, a query buffer) replays the same; cleared
     * when the frame begins the query again. Occlusion and primitives-generated targets only. */
    bool has_result;
    uint64_t result;
};

/* ---------------------------------------------------------------- context state */

struct sm_blend {
    uint32_t src_rgb, dst_rgb, src_alpha, dst_alpha;
    uint32_t eq_rgb, eq_alpha;
};

struct sm_stencil_face {
    uint32_t func; int32_t ref; uint32_t value_mask, write_mask;
    uint32_t fail, zfail, zpass;
};

struct sm_pixel_store {
    bool swap_bytes, lsb_first;
    int32_t row_length, image_height, skip_rows, skip_pixels, skip_images, alignment;
};

struct sm_texture_unit {
    uint32_t bound[SM_TT_COUNT];   /* texture name per enum sm_tex_target */
    uint32_t sampler;
};

struct sm_image_unit {
    uint32_t texture; int32_t level; bool layered; int32_t layer; uint32_t access, format;
};

struct sm_attrib_value {
    uint32_t kind;           /* enum sm_value_kind: FLOAT, INT, UINT or DOUBLE */
    union { float f[4]; int32_t i[4]; uint32_t u[4]; double d[4]; } v;
};

/* A glEnable cap not covered by a dedicated field (all except GL_BLEND and GL_SCISSOR_TEST). */
struct sm_cap { uint32_t cap; uint32_t index; bool enabled; };
struct sm_hint { uint32_t target, mode; };
struct sm_active_query { uint32_t target, index, name; };

/* Legacy (compatibility) matrix stacks: m[depth] is the current matrix, column-major as
 * glLoadMatrixf takes it. One depth for all stacks (GL requires at least 32 / 2 / 2). */
#define SM_MATRIX_STACK_DEPTH 32
#define SM_MAX_TEXTURE_COORDS 8
struct sm_matrix_stack { uint32_t depth; float m[SM_MATRIX_STACK_DEPTH][16]; };

/* ARB assembly programs (GL_ARB_vertex_program / GL_ARB_fragment_program): shared objects named
 * by glGenProgramsARB; the text given to glProgramStringARB and the local parameters.
 * Target index 0 is GL_VERTEX_PROGRAM_ARB, 1 GL_FRAGMENT_PROGRAM_ARB (sm_arb_target_index). */
#define SM_ARB_MAX_ENV 256       /* Mesa's MAX_PROGRAM_ENV_PARAMS */
#define SM_ARB_MAX_LOCAL 4096    /* Mesa's MAX_PROGRAM_LOCAL_PARAMS */
struct sm_arb_program {
    uint32_t name, target;       /* target 0 until first bound */
    char *source; uint32_t length;   /* NULL until glProgramStringARB */
    uint32_t generation;         /* bumped by every glProgramStringARB (caches key on it) */
    float (*local)[4]; uint32_t n_local;   /* local[i] for i < n_local; beyond: zeros */
};

/* What glPushClientAttrib saves (GL_CLIENT_VERTEX_ARRAY_BIT: the legacy arrays of the bound
 * vertex array, the client active unit, the array buffer binding; GL_CLIENT_PIXEL_STORE_BIT: the
 * pixel store). Not serialized: a capture starts with an empty stack. */
#define SM_CLIENT_STACK_DEPTH 16
struct sm_client_attrib {
    uint32_t mask;
    struct sm_legacy_array legacy[SM_LA_COUNT];
    uint32_t client_active_texture, array_buffer;
    struct sm_pixel_store pack, unpack;
};

#define SM_MAX_SUBROUTINE_UNIFORMS 64
struct sm_context_state {
    /* glUniformSubroutinesuiv per stage (0 vertex .. 5 compute): subroutine index at each
     * subroutine uniform location; n 0 after glUseProgram (the driver's defaults apply). Not
     * serialized (sm_apply_subroutine.c). */
    uint32_t subroutine_sel[6][SM_MAX_SUBROUTINE_UNIFORMS];
    uint32_t n_subroutine_sel[6];
    /* bindings */
    uint32_t buffer[SM_BT_COUNT];
    struct sm_indexed_buffer ubo[SM_MAX_UBO_BINDINGS];
    struct sm_indexed_buffer ssbo[SM_MAX_SSBO_BINDINGS];
    struct sm_indexed_buffer atomic[SM_MAX_ATOMIC_BINDINGS];
    struct sm_texture_unit unit[SM_MAX_TEXTURE_UNITS];
    struct sm_image_unit image[SM_MAX_IMAGE_UNITS];
    uint32_t active_texture;         /* unit index (not GL_TEXTURE0 + i) */
    uint32_t client_active_texture;  /* legacy, unit index */
    uint32_t vao, draw_fbo, read_fbo, renderbuffer, program, pipeline, tfo;
    /* viewport / scissor / depth range per viewport index */
    float viewport[SM_MAX_VIEWPORTS][4];
    int32_t scissor[SM_MAX_VIEWPORTS][4];
    double depth_range[SM_MAX_VIEWPORTS][2];
    bool scissor_test[SM_MAX_VIEWPORTS];
    bool scissor_given;   /* a glScissor* call set a box: an all-zero box is a real one */
    /* blend and colour */
    bool blend_enabled[SM_MAX_DRAW_BUFFERS];
    struct sm_blend blend[SM_MAX_DRAW_BUFFERS];
    float blend_color[4];
    bool color_mask[SM_MAX_DRAW_BUFFERS][4];
    uint32_t logic_op;
    /* depth / stencil */
    uint32_t depth_func;
    bool depth_mask;
    struct sm_stencil_face stencil[2];   /* [0] front, [1] back */
    /* clear values */
    float clear_color[4];
    double clear_depth;
    int32_t clear_stencil;
    /* rasterization */
    uint32_t cull_face_mode, front_face;
    uint32_t polygon_mode[2];            /* front, back */
    float polygon_offset_factor, polygon_offset_units, polygon_offset_clamp;
    float line_width, point_size;
    uint32_t point_sprite_coord_origin;
    /* glLineStipple (repeat 1..256, 16-bit pattern) and glPolygonStipple (row r from the bottom,
     * bit 31 = leftmost pixel, as unpacked with the unpack state of the call); compatibility
     * state, not serialized: a snapshot capture carries them in its fixed-function blob */
    int32_t line_stipple_repeat;
    uint32_t line_stipple_pattern;
    uint32_t polygon_stipple[32];
    float sample_coverage_value; bool sample_coverage_invert;
    uint32_t sample_mask;
    float min_sample_shading;
    uint32_t provoking_vertex;
    uint32_t primitive_restart_index;
    int32_t patch_vertices;
    float patch_outer[4], patch_inner[2];
    uint32_t clip_origin, clip_depth_mode;
    /* pixel store */
    struct sm_pixel_store pack, unpack;
    /* current generic vertex attributes */
    struct sm_attrib_value attrib_value[SM_MAX_VERTEX_ATTRIBS];
    /* current values of the legacy (compatibility) attributes, indexed by enum sm_legacy_slot:
     * what glColor*, glNormal*, glTexCoord*, glMultiTexCoord*, glSecondaryColor*, glFogCoord*,
     * glEdgeFlag* and glIndex* last set (a disabled legacy array reads these). Floats, after
     * the command's own conversion (normalized colours, edge flag 0/1 in [0]). */
    float legacy_current[SM_LA_COUNT][4];
    /* enables other than GL_BLEND / GL_SCISSOR_TEST, sorted by (cap, index) */
    struct sm_cap *caps; uint32_t n_caps, cap_caps;
    struct sm_hint *hints; uint32_t n_hints;
    struct sm_active_query *active_queries; uint32_t n_active_queries;
    /* legacy matrix state (glMatrixMode, glLoadMatrix*, glPushMatrix, glRotate*, ...); texture
     * matrices per unit, selected by the active texture unit. Not serialized or restored yet:
     * a loaded checkpoint has identity matrices. */
    uint32_t matrix_mode;
    struct sm_matrix_stack modelview, projection, texture[SM_MAX_TEXTURE_COORDS];
    /* ARB programs (sm_apply_arb_program.c): bound per target, environment parameters per
     * target (format version 5). */
    uint32_t arb_program[2];
    float arb_env[2][SM_ARB_MAX_ENV][4];
    /* fixed-function state (sm_apply_fixed.c); not serialized: a mid-run capture carries it as
     * calls (RESOURCE_BLOB kind 7) that are applied again */
    struct sm_fixed_state ff;
    struct sm_client_attrib client_stack[SM_CLIENT_STACK_DEPTH];
    uint32_t client_stack_depth;
};

struct sm_context;
struct sm_share_group;
struct sm_state;

/* ---------------------------------------------------------------- lifetime */

struct sm_state *sm_state_new(void);
void sm_state_free(struct sm_state *s);
/* A deep copy (e.g. the state at a checkpoint); NULL if memory runs out. */
struct sm_state *sm_state_clone(const struct sm_state *s);

/* Declares a context before its first call: its API/version and the context it shares objects
 * with (0: a new share group). A call naming an undeclared context creates it as a GL
 * compatibility context in its own share group. Returns false if ctx_id is 0, already exists,
 * or share_with names no context. */
bool sm_context_create(struct sm_state *s, uint32_t ctx_id, uint32_t share_with,
                       enum sm_api api, int major, int minor);
/* Removes a context (its per-context objects go; shared objects stay while its group lives). */
void sm_context_destroy(struct sm_state *s, uint32_t ctx_id);
/* Declares the contexts a capture's METADATA section lists (JSON: "contexts": [{"id",
 * "share_group", "es", "major", "minor", "profile_mask", ...}], in creation order) with their API
 * and version; contexts already declared are left as they are. *initial_default (may be NULL) is
 * set when "initial_state" is "default" (the capture starts at context creation, so every context
 * starts with GL's default state). Returns the number declared, or -1 with a one-line message in
 * err when the JSON is malformed. */
int sm_declare_capture_contexts(struct sm_state *s, const char *json, bool *initial_default,
                                char *err, size_t err_size);

/* ---------------------------------------------------------------- applying calls */

/* Applies one recorded call to the state of call->ctx_id. Returns false only when the command is
 * not modelled and may change state (counted, see sm_unhandled_*); invalid arguments (unknown
 * names, out-of-range indices) are counted in sm_error_count() and ignored like the driver does.
 * Blobs must have the layouts the shim records (statemodel/DESIGN.md, "Blob layouts"). Pseudo
 * records (enum glr_pseudo_cmd) are accepted: GLR_PSEUDO_CONTEXT_CREATE declares its context
 * (joining the share group's first context) if it is not declared yet; the others are no-ops. */
bool sm_apply(struct sm_state *s, const struct glr_call *call);

/* How the model treats a command: applied, known to have no state effect, or unhandled. */
enum sm_cmd_class { SM_CMD_APPLIED = 0, SM_CMD_NO_STATE = 1, SM_CMD_UNHANDLED = 2 };
enum sm_cmd_class sm_cmd_class(uint32_t cmd);
/* The command a call of cmd is applied as: registry aliases followed, and a vendor-suffixed
 * command that the registry does not alias but that has its core form's parameters and the model
 * handles that form (glGenerateMipmapEXT, glBindFramebufferEXT) mapped to the core form. Pseudo
 * commands and unknown numbers are returned as they are. */
uint32_t sm_cmd_canonical(uint32_t cmd);

/* Unhandled commands seen by sm_apply: the number of calls, and per distinct command. */
uint64_t sm_unhandled_calls(const struct sm_state *s);
/* Fills up to max command ids (enum glr_cmd_id) seen unhandled with their call counts; returns
 * the number of distinct commands. */
size_t sm_unhandled_list(const struct sm_state *s, uint32_t *cmds, uint64_t *counts, size_t max);
/* Calls with invalid arguments (ignored) and the message of the first one ("" if none). */
uint64_t sm_error_count(const struct sm_state *s);
const char *sm_first_error(const struct sm_state *s);

/* ---------------------------------------------------------------- setting object contents
 * For the capturer, which reads contents back from the driver at the frame start. */
bool sm_set_buffer_data(struct sm_state *s, uint32_t ctx_id, uint32_t buffer,
                        const void *data, uint64_t size);
bool sm_set_texture_image_data(struct sm_state *s, uint32_t ctx_id, uint32_t texture, int face,
                               int level, uint32_t format, uint32_t type, int32_t alignment,
                               const void *data, uint64_t size);

/* ---------------------------------------------------------------- reading */

size_t sm_context_count(const struct sm_state *s);
/* The i-th context (in creation order), or NULL. */
const struct sm_context *sm_context_at(const struct sm_state *s, size_t i);
const struct sm_context *sm_context_get(const struct sm_state *s, uint32_t ctx_id);
uint32_t sm_context_id(const struct sm_context *c);
enum sm_api sm_context_api(const struct sm_context *c, int *major, int *minor);
/* Id of the first context of c's share group (the same for all contexts that share objects). */
uint32_t sm_context_share_id(const struct sm_context *c);
const struct sm_context_state *sm_context_state(const struct sm_context *c);

/* Objects by name (NULL if none). Shared objects are looked up in the context's share group. */
const struct sm_buffer *sm_get_buffer(const struct sm_context *c, uint32_t name);
const struct sm_texture *sm_get_texture(const struct sm_context *c, uint32_t name);
const struct sm_renderbuffer *sm_get_renderbuffer(const struct sm_context *c, uint32_t name);
const struct sm_sampler *sm_get_sampler(const struct sm_context *c, uint32_t name);
const struct sm_shader *sm_get_shader(const struct sm_context *c, uint32_t name);
const struct sm_program *sm_get_program(const struct sm_context *c, uint32_t name);
const struct sm_arb_program *sm_get_arb_program(const struct sm_context *c, uint32_t name);
/* GL's default program object 0 of target index t (0 vertex, 1 fragment), which takes strings
 * and parameters while no program is bound, is kept under this name. */
#define SM_ARB_DEFAULT_NAME(t) (0xFFFFFFF0u + (uint32_t)(t))
/* The program object bound to target index t, the default object included; NULL if it has
 * never been given anything. */
const struct sm_arb_program *sm_bound_arb_program(const struct sm_context *c, int t);
/* Names of the ARB program objects visible to c, ascending: fills up to max, returns the total. */
size_t sm_arb_program_names(const struct sm_context *c, uint32_t *names, size_t max);
/* 0 for GL_VERTEX_PROGRAM_ARB, 1 for GL_FRAGMENT_PROGRAM_ARB, else -1. */
int sm_arb_target_index(uint32_t target);
/* The enum sm_tex_target index of a texture target (GL_TEXTURE_2D ...), else -1; and back. */
int sm_tex_target_index(uint32_t target);
uint32_t sm_tex_target_enum(int idx);
const struct sm_sync *sm_get_sync(const struct sm_context *c, uint64_t handle);
const struct sm_vao *sm_get_vao(const struct sm_context *c, uint32_t name);     /* 0: default */
const struct sm_framebuffer *sm_get_framebuffer(const struct sm_context *c, uint32_t name);
const struct sm_transform_feedback *sm_get_transform_feedback(const struct sm_context *c,
                                                              uint32_t name);
const struct sm_pipeline *sm_get_pipeline(const struct sm_context *c, uint32_t name);
const struct sm_query *sm_get_query(const struct sm_context *c, uint32_t name);
/* Records the target and the available result of query `name` of context ctx_id (the snapshot reads
 * them from the driver). False when there is no such context or memory ran out. */
bool sm_set_query_result(struct sm_state *s, uint32_t ctx_id, uint32_t name, uint32_t target, uint64_t result);

/* Object kinds, for counting and listing names. */
enum sm_object_kind { SM_OBJ_BUFFER, SM_OBJ_TEXTURE, SM_OBJ_RENDERBUFFER, SM_OBJ_SAMPLER,
                      SM_OBJ_SHADER, SM_OBJ_PROGRAM, SM_OBJ_SYNC, SM_OBJ_VAO, SM_OBJ_FRAMEBUFFER,
                      SM_OBJ_TRANSFORM_FEEDBACK, SM_OBJ_PIPELINE, SM_OBJ_QUERY, SM_OBJ_COUNT };
const char *sm_object_kind_name(enum sm_object_kind k);
/* Number of live objects of a kind visible to c (excluding default objects 0). */
size_t sm_object_count(const struct sm_context *c, enum sm_object_kind k);
/* Fills up to max names sorted ascending; returns the total (sync handles truncated to 32 bits:
 * use sm_get_sync). */
size_t sm_object_names(const struct sm_context *c, enum sm_object_kind k, uint32_t *names,
                       size_t max);

/* Whether a cap is enabled (index: draw buffer / viewport for indexed caps, else 0). */
bool sm_is_enabled(const struct sm_context *c, uint32_t cap, uint32_t index);
/* The uniform at a location of a program, or NULL if never set since the last link. */
const struct sm_uniform *sm_program_uniform(const struct sm_program *p, int32_t location);

/* GL enum names from the registry: the preferred name of a value ("GL_BLEND"), or NULL; and the
 * value of a name (false if unknown). */
const char *sm_enum_name(uint32_t value);
bool sm_enum_value(const char *name, uint32_t *value);
/* The preferred name of a value in a registry group (gl.xml group=, e.g. "EnableCap",
 * "LightName", "AttribMask"), or NULL if the group has no such value. */
const char *sm_enum_name_in(const char *group, uint32_t value);

/* The client format and type (glGetTexImage's, glReadPixels') that read an internal format's
 * every bit and upload it again unchanged, with the bytes per pixel: colour (float, integer and
 * normalized), depth and depth-stencil, GL 1.0's component counts and the sized legacy formats.
 * false: none known (compressed, multisample-only or unknown formats). */
bool sm_exact_transfer(uint32_t ifmt, uint32_t *format, uint32_t *type, unsigned *bpp);

/* ---------------------------------------------------------------- serialization */

/* Binary form (capture section INITIAL_STATE). sm_serialize returns a malloc'd buffer (free it)
 * and its size, or NULL if memory runs out. sm_deserialize validates everything: on bad input it
 * returns NULL and writes a one-line reason to err (if err_size > 0). */
uint8_t *sm_serialize(const struct sm_state *s, size_t *size);
struct sm_state *sm_deserialize(const void *data, size_t size, char *err, size_t err_size);

/* Sources of programs loaded from binaries (sm_program_sources.c). A program linked from source
 * whose binary the program then reads back (glGetProgramBinary, as Qt's and engines' binary caches
 * do) can be described by an entry: its link inputs (sources by stage, attribute/frag-data
 * bindings, transform-feedback varyings, separable) and the XXH3-64 hash of the binary. A later
 * glProgramBinary of that binary, in this run or another, gets the sources back, so the GPU model
 * and the debugger have GLSL and restore can link from source.
 *   sm_program_sources_encode: an entry for program `name` of context ctx (malloc'd; NULL when the
 *     program has no GLSL link inputs or memory runs out).
 *   sm_program_sources_hash: the key of a binary.
 *   sm_program_sources_entry_hash: the binary hash an entry is for (false: not a valid entry).
 *   sm_program_sources_apply: gives the program `name` of ctx the entry's link inputs (untrusted
 *     bytes: validated; false with a one-line reason).
 *   sm_program_sources_add: keeps entries (a section: each entry prefixed by its LEB128 size) so
 *     glProgramBinary calls applied later find them; false with a reason on bad input.
 *   sm_program_sources_section: the section of every entry kept (malloc'd; NULL when none). */
uint8_t *sm_program_sources_encode(const struct sm_state *s, uint32_t ctx, uint32_t name, uint64_t binary_hash,
                                   size_t *size);
uint64_t sm_program_sources_hash(const void *binary, size_t size);
bool sm_program_sources_entry_hash(const void *entry, size_t size, uint64_t *hash);
bool sm_program_sources_apply(struct sm_state *s, uint32_t ctx, uint32_t name, const void *entry, size_t size,
                              char *err, size_t err_size);
bool sm_program_sources_add(struct sm_state *s, const void *section, size_t size, char *err, size_t err_size);
uint8_t *sm_program_sources_section(const struct sm_state *s, size_t *size);

/* JSON form: a malloc'd NUL-terminated string (free it); and back, validated like the binary. */
char *sm_to_json(const struct sm_state *s);
struct sm_state *sm_from_json(const char *json, char *err, size_t err_size);

/* Whether two states are equal (same contexts, objects, contents and state). */
bool sm_state_equal(const struct sm_state *a, const struct sm_state *b);

/* ---------------------------------------------------------------- restore */

/* A list of calls that recreate a state on live contexts. Blob data either belongs to the list or
 * points into the sm_state it was made from (object contents): keep that state alive and
 * unchanged while the list is used. */
struct sm_call_list {
    struct glr_call *calls;
    size_t count, cap;
    void **owned; size_t n_owned, cap_owned;
    bool failed;             /* memory ran out: the list is incomplete */
};

void sm_call_list_free(struct sm_call_list *l);
/* Appends a zeroed call (seq = its index), or NULL when memory runs out (l->failed set). */
struct glr_call *sm_call_list_push(struct sm_call_list *l);
/* Blob i of call c becomes a copy of data owned by the list (nothing when c is NULL). */
void sm_call_list_own_blob(struct sm_call_list *l, struct glr_call *c, int i, const void *data, uint64_t size);

/* Appends the calls that restore the state: for each share group, its shared objects (on its
 * first context), then for each context its per-context objects, bindings and state. Each call
 * carries the ctx_id it must run on. Names are the captured names (the replayer remaps). Calls
 * that create objects by return value (glCreateShader, glCreateProgram, glFenceSync) have the
 * captured name/handle in call->ret with GLR_CALL_HAS_RET. Returns false if memory ran out. */
bool sm_restore_calls(const struct sm_state *s, struct sm_call_list *out);

/* ---------------------------------------------------------------- queries for the CLI */

/* The state of one context as the CLI shows it: bound program and its uniforms, VAO and
 * attribute layout, textures and samplers per unit, framebuffer and attachments, viewport,
 * scissor, blend/depth/stencil/raster state. ctx_id 0: the first context. NULL if no such
 * context (or memory). */
char *sm_query_json(const struct sm_state *s, uint32_t ctx_id);   /* malloc'd, strict JSON */
/* The same as a cJSON tree (the caller frees it with cJSON_Delete), for callers that compare
 * states without printing them (the report's state at every event). */
struct cJSON;
struct cJSON *sm_query_tree(const struct sm_state *s, uint32_t ctx_id);
/* The texture bound to a target on the active unit (a cube face counts as GL_TEXTURE_CUBE_MAP) and
 * the buffer bound to a buffer target (GL_ELEMENT_ARRAY_BUFFER: the bound VAO's); 0 if none. */
uint32_t sm_bound_texture_name(const struct sm_context *c, uint32_t target);
uint32_t sm_bound_buffer_name(const struct sm_context *c, uint32_t target);
bool sm_query_text(const struct sm_state *s, uint32_t ctx_id, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
