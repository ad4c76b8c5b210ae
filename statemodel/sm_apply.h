/* Private: how sm_apply dispatches a recorded call to the handler of its (canonical) command. */
#ifndef SM_APPLY_H
#define SM_APPLY_H

#include "statemodel/sm_internal.h"
#include "statemodel/sm_current.h"

/* One call being applied. cmd is the canonical command (aliases resolved). */
struct sm_ap {
    struct sm_state *s;
    struct sm_context *c;
    const struct glr_call *call;
    uint32_t cmd;
    /* Aligned copies of blobs made by ap_blob (freed after the handler): blobs of decoded
     * streams point into the stream bytes, at any address. */
    void *aligned[GLR_MAX_PARAMS];
};

typedef void (*sm_apply_fn)(struct sm_ap *a);

/* Each area registers its handlers into the table indexed by enum glr_cmd_id. */
void sm_register_objects(sm_apply_fn *tab);
void sm_register_buffers(sm_apply_fn *tab);
void sm_register_textures(sm_apply_fn *tab);
void sm_register_programs(sm_apply_fn *tab);
void sm_register_vertex(sm_apply_fn *tab);
void sm_register_framebuffers(sm_apply_fn *tab);
void sm_register_raster(sm_apply_fn *tab);
void sm_register_matrix(sm_apply_fn *tab);
void sm_register_current(sm_apply_fn *tab);   /* glColor*, glVertex*, ... (sm_current.h) */
void sm_register_arb_program(sm_apply_fn *tab);
void sm_register_fixed(sm_apply_fn *tab);   /* sm_apply_fixed.c */
void sm_register_include(sm_apply_fn *tab); /* sm_apply_include.c: named strings, #include */
void sm_register_subroutine(sm_apply_fn *tab); /* sm_apply_subroutine.c */
/* Resolves the #include lines of a shader's source being compiled (sm_apply_include.c). */
void sm_shader_compile_includes(struct sm_ap *a, struct sm_shader *sh);
void sm_register_spirv(sm_apply_fn *tab);   /* sm_apply_spirv.c */
void sm_register_legacy_client(sm_apply_fn *tab);   /* sm_apply_legacy_client.c (from sm_register_fixed) */
/* The value families of registry/gl_annotations.txt ("family uniform", "family attrib"):
 * register the handler of a command of that family with the shape its line states. */
void sm_register_uniform_family(sm_apply_fn *tab, const struct glr_cmd_values *v);
void sm_register_attrib_family(sm_apply_fn *tab, const struct glr_cmd_values *v);

/* The form of a fixed-function setter (its "family setter" line): the element type 'f', 'i' or 'd'
 * and whether the values come through a pointer; 0 for a command of no such line. */
static inline char sm_setter_form(uint32_t cmd, bool *vec)
{
    const struct glr_cmd_values *v = glr_cmd_values_of(cmd);
    *vec = v && v->family == GLR_VALUES_SETTER && (v->flags & GLR_VF_VECTOR);
    if (!v || v->family != GLR_VALUES_SETTER)
        return 0;
    return v->type == GLR_VT_D ? 'd' : v->type == GLR_VT_I ? 'i' : 'f';
}

/* The state model's kind of values kept as a registry value type (enum glr_value_type). */
static inline uint8_t sm_vk_of_value_type(uint8_t t)
{
    switch (t) {
    case GLR_VT_D: return SM_VK_DOUBLE;
    case GLR_VT_I64: return SM_VK_INT64;
    case GLR_VT_UI64: return SM_VK_UINT64;
    case GLR_VT_UB: case GLR_VT_US: case GLR_VT_UI: return SM_VK_UINT;
    case GLR_VT_B: case GLR_VT_S: case GLR_VT_I: return SM_VK_INT;
    default: return SM_VK_FLOAT;
    }
}

/* Argument accessors. */
static inline uint32_t ap_u(const struct sm_ap *a, int i) { return (uint32_t)a->call->args[i]; }
static inline int32_t ap_i(const struct sm_ap *a, int i) { return (int32_t)a->call->args[i]; }
static inline uint64_t ap_u64(const struct sm_ap *a, int i) { return a->call->args[i]; }
static inline float ap_f(const struct sm_ap *a, int i) { return glr_arg_f32(a->call, i); }
static inline double ap_d(const struct sm_ap *a, int i) { return glr_arg_f64(a->call, i); }
/* The blob of parameter i if it holds at least `need` bytes, else NULL; 8-byte aligned, so it
 * can be read as an array of its element type (a misaligned blob is copied once per call). */
const void *ap_blob(struct sm_ap *a, int i, uint64_t need);
/* The same without the alignment guarantee, for data only copied with memcpy (buffer contents:
 * large, not worth a copy). */
static inline const void *ap_bytes(const struct sm_ap *a, int i, uint64_t need)
{
    const struct glr_blob *b = &a->call->blobs[i];
    return (b->data && b->size >= need && need > 0) ? b->data : NULL;
}

/* Shared-object lookups in the context's share group; create: make it if absent (binding a name
 * that was never generated creates it in compatibility contexts; the model is lenient). */
struct sm_buffer *ap_buffer(struct sm_ap *a, uint32_t name, bool create);
struct sm_texture *ap_texture(struct sm_ap *a, uint32_t name, bool create);
struct sm_renderbuffer *ap_renderbuffer(struct sm_ap *a, uint32_t name, bool create);
struct sm_sampler *ap_sampler(struct sm_ap *a, uint32_t name, bool create);
struct sm_program *ap_program(struct sm_ap *a, uint32_t name);
struct sm_shader *ap_shader(struct sm_ap *a, uint32_t name);
struct sm_vao *ap_vao(struct sm_ap *a, uint32_t name);             /* 0: default VAO */
struct sm_framebuffer *ap_fbo(struct sm_ap *a, uint32_t name);     /* 0: default FB */
struct sm_transform_feedback *ap_tfo(struct sm_ap *a, uint32_t name);
/* The texture bound to target on the active unit (NULL + error if none or bad target). */
struct sm_texture *ap_bound_texture(struct sm_ap *a, uint32_t target);
/* The buffer bound to a (non-indexed or element) target (NULL + error if none). */
struct sm_buffer *ap_bound_buffer(struct sm_ap *a, uint32_t target);
/* The framebuffer bound to target (GL_FRAMEBUFFER means draw). */
struct sm_framebuffer *ap_bound_fbo(struct sm_ap *a, uint32_t target);

/* Array of GLuints in blob i holding n names, or NULL + error. */
const uint32_t *ap_names(struct sm_ap *a, int blob_index, int32_t n);
/* Reports an invalid argument of the current call. */
void ap_error(struct sm_ap *a, const char *what);

/* Sets a sampling parameter (texture or sampler) from values converted to double and, for
 * integer forms, the raw integers. */
void sm_sampling_param(struct sm_ap *a, struct sm_sampling *p, uint32_t pname,
                       const double *v, const int64_t *iv, int n, uint32_t border_kind);

/* Fixed-function point parameters (size range, fade threshold, attenuation) of a
 * glPointParameter* call (sm_apply_fixed.c). */
void sm_fixed_point_parameter(struct sm_ap *a);
/* A plane (row vector) times the inverse of the column-major matrix m, in double (a normal
 * with w 0 gives Mesa's TRANSFORM_NORMAL by the inverse modelview). sm_apply_fixed.c. */
void sm_fixed_plane_to_eye(const float *m, const double in[4], float out[4]);
void sm_register_rasterpos(sm_apply_fn *tab);
/* A legacy client array cap (GL_VERTEX_ARRAY, ...: glEnableClientState's, which compatibility
 * contexts also take through glEnable/glDisable, as Mesa's enable.c does) on the current VAO;
 * false for any other cap. sm_apply_vertex.c. */
bool sm_legacy_client_cap(struct sm_ap *a, uint32_t cap, bool on);   /* sm_apply_vertex.c */

/* The appliers sit below sm_apply.c (it fills its tables by calling their sm_register_*), so they
 * do not call its public entries back; these are what those entries are built on. */
/* Decodes call as command cmd of an immediate-mode family (sm_apply_current.c; sm_imm_decode
 * passes the call's own command, or its canonical form when that one has no family). */
bool sm_imm_decode_as(const struct glr_call *call, uint32_t cmd, struct sm_imm_value *out);
/* sm_imm_decode for the call a handler is applying (its canonical command is a->cmd). */
bool sm_imm_decode_applied(const struct sm_ap *a, struct sm_imm_value *out);
/* Whether sm_register_attrib_family registered cmd (sm_apply_vertex.c; valid once the tables
 * are filled, which sm_is_attrib_value_cmd sees to). */
bool sm_attrib_family_has(uint32_t cmd);

#endif
