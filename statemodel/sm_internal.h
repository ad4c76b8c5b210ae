/* Private structures and helpers shared by the statemodel sources. */
#ifndef SM_INTERNAL_H
#define SM_INTERNAL_H

#include "statemodel/statemodel.h"
#include "statemodel/sm_map.h"
#include "registry/glr_gl_enums.h"

struct sm_share_group {
    uint32_t id;                 /* unique in the state; serialized */
    uint32_t refs;               /* contexts using it */
    struct sm_map buffers, textures, renderbuffers, samplers, shaders, programs;
    struct sm_map arb_programs;  /* struct sm_arb_program (sm_apply_arb_program.c) */
    struct sm_sync *syncs;
    uint32_t n_syncs, cap_syncs;
    struct sm_named_string *named_strings;   /* GL_ARB_shading_language_include (sm_apply_include.c) */
    uint32_t n_named_strings, cap_named_strings;
};

struct sm_context {
    uint32_t id;
    enum sm_api api;
    int major, minor;
    struct sm_share_group *share;
    struct sm_context_state st;
    struct sm_vao default_vao;
    struct sm_framebuffer default_fb;
    struct sm_transform_feedback default_tfo;
    struct sm_map vaos, fbos, tfos, pipelines, queries;
};

struct sm_state {
    struct sm_context **ctx;
    size_t n_ctx, cap_ctx;
    struct sm_share_group **groups;
    size_t n_groups, cap_groups;
    uint32_t next_group_id;
    uint64_t unhandled_calls;
    uint64_t *unhandled_counts;  /* [GLR_CMD_COUNT], allocated on the first unhandled call */
    uint64_t errors;
    char first_error[160];
    /* Link inputs of programs loaded from binaries, by binary hash (sm_program_sources.c): a
     * glProgramBinary of a known binary gets these sources. Not serialized with the state. */
    struct sm_program_source { uint64_t hash; uint8_t *entry; size_t size; } *prog_sources;
    size_t n_prog_sources;
};

/* ---- sm_state.c */
void sm_context_state_defaults(struct sm_context_state *st);
/* The legacy matrix stacks and mode as GL starts them (identity, depth 0, GL_MODELVIEW). */
void sm_matrix_defaults(struct sm_context_state *st);
/* GL's initial fixed-function state (sm_fixed_defaults.c). */
void sm_fixed_defaults(struct sm_fixed_state *ff);
/* The material(s) colour material tracks take the current colour (sm_apply_fixed.c). */
void sm_fixed_color_material_update(struct sm_context_state *st);
void sm_vao_defaults(struct sm_vao *v, uint32_t name);
void sm_framebuffer_defaults(struct sm_framebuffer *f, uint32_t name, bool is_default);
void sm_sampling_defaults(struct sm_sampling *p, bool rectangle_or_external);
struct sm_context *sm_ctx_find(const struct sm_state *s, uint32_t id);
/* Creates the context and its own share group (or joins `group`). */
struct sm_context *sm_ctx_add(struct sm_state *s, uint32_t id, struct sm_share_group *group,
                              enum sm_api api, int major, int minor);
struct sm_share_group *sm_group_add(struct sm_state *s, uint32_t id);
/* ---- sm_program_sources.c (its destructor: sm_objects_free.c) */
void sm_program_sources_free(struct sm_state *s);
/* Fills a program just loaded from `bin` with the sources the state knows for that binary. */
void sm_program_sources_lookup(struct sm_state *s, struct sm_program *p, const void *bin, size_t size);
/* ---- sm_apply_include.c (its destructor: sm_objects_free.c) */
struct sm_named_string {
    char *name;   /* normalized absolute path */
    char *text;
};
void sm_named_strings_free(struct sm_share_group *g);
/* ---- sm_apply_subroutine.c */
int sm_subroutine_stage(uint32_t shadertype);
void sm_error(struct sm_state *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Object constructors/destructors (zeroed + GL defaults). */
struct sm_buffer *sm_buffer_new(uint32_t name);
struct sm_texture *sm_texture_new(uint32_t name);
struct sm_renderbuffer *sm_renderbuffer_new(uint32_t name);
struct sm_sampler *sm_sampler_new(uint32_t name);
struct sm_shader *sm_shader_new(uint32_t name, uint32_t type);
struct sm_program *sm_program_new(uint32_t name);
struct sm_vao *sm_vao_new(uint32_t name);
struct sm_framebuffer *sm_framebuffer_new(uint32_t name);
struct sm_transform_feedback *sm_tfo_new(uint32_t name);
struct sm_pipeline *sm_pipeline_new(uint32_t name);
struct sm_query *sm_query_new(uint32_t name);
void sm_buffer_free(void *p);
void sm_texture_free(void *p);
void sm_shader_free(void *p);
/* SPIR-V modules of shaders (sm_apply_spirv.c; sm_spirv_free: sm_objects_free.c); sm_spirv_dup sets *oom when memory runs out. */
void sm_spirv_free(struct sm_spirv *s);
struct sm_spirv *sm_spirv_dup(const struct sm_spirv *s, bool *oom);
/* Same module, entry point and constants (both NULL: equal). */
bool sm_spirv_equal(const struct sm_spirv *a, const struct sm_spirv *b);
void sm_program_free(void *p);
void sm_arb_program_free(void *p);
void sm_program_clear_link(struct sm_program *p);
void sm_context_state_free(struct sm_context_state *st);

/* Cap list (sorted by cap, index). */
bool sm_caps_set(struct sm_context_state *st, uint32_t cap, uint32_t index, bool on);
const struct sm_cap *sm_caps_find(const struct sm_context_state *st, uint32_t cap, uint32_t index);
bool sm_cap_default(uint32_t cap);

/* Enum <-> model index mappings; -1 if the GLenum is not one (texture targets: statemodel.h). */
int sm_buffer_target_index(uint32_t target);
uint32_t sm_buffer_target_enum(int idx);
int sm_stage_of_shader_type(uint32_t type);
uint32_t sm_shader_type_of_stage(int stage);

/* Cube face index of a glTexImage2D target (GL_TEXTURE_CUBE_MAP_POSITIVE_X..), or -1. */
int sm_cube_face(uint32_t target);
/* Size in bytes of one vertex component type (packed types: the whole 4-byte vertex). */
uint32_t sm_type_size(uint32_t type);

/* ---- deep copy helpers (sm_clone.c) */
char *sm_strdup(const char *s);
void *sm_memdup(const void *p, size_t n);
/* Memory for megabytes of object contents (sm_contents_alloc.c): huge pages where possible; free(). */
void *sm_contents_alloc(size_t size);

/* ---- generated enum tables */
#include "statemodel/sm_enum_table.h"

#endif
