/* Internal to the pass reset (pass_reset_plan.c: the plan, pass_reset_diff.c: calls that set
 * changed state back, pass_reset_util.c: call lists and name sets). */
#ifndef GLRH_PASS_RESET_INTERNAL_H
#define GLRH_PASS_RESET_INTERNAL_H

#include <GL/glcorearb.h>
#include "replay/player/pass_reset.h"

/* A set of 64-bit keys (open addressing; key 0 is stored as a flag). */
struct pr_set {
    uint64_t *keys;
    size_t cap, used;
    bool has_zero;
};
bool pr_set_add(struct pr_set *s, uint64_t key);
bool pr_set_has(const struct pr_set *s, uint64_t key);
void pr_set_free(struct pr_set *s);

/* Key of a shared object: the share group (id of its first context) and the name. */
static inline uint64_t pr_key(const struct sm_context *c, uint32_t name)
{
    return ((uint64_t)sm_context_share_id(c) << 32) | name;
}

/* Appends a call with n arguments (each a uint64_t: use PR_U/PR_I/PR_F/PR_D) for context ctx;
 * NULL when memory ran out (l->failed). */
struct glr_call *pr_emit(struct sm_call_list *l, uint32_t ctx, uint32_t cmd, int n, ...);
/* Blob i of c: a copy owned by the list. */
void pr_blob(struct sm_call_list *l, struct glr_call *c, int i, const void *data, size_t size);
/* Appends a copy of call c (its blobs borrowed). */
struct glr_call *pr_copy(struct sm_call_list *l, const struct glr_call *c);
uint64_t pr_f(float f);
uint64_t pr_d(double d);
#define PR_U(x) ((uint64_t)(x))
#define PR_I(x) ((uint64_t)(int64_t)(x))
#define PR_F(x) pr_f(x)
#define PR_D(x) pr_d(x)

/* Index into sm_context_state.buffer[] of a buffer target, or -1 (GL_ELEMENT_ARRAY_BUFFER: -1,
 * it is vertex array state). */
int pr_buffer_target_index(uint32_t target);
extern const uint32_t pr_buffer_targets[SM_BT_COUNT];
/* Index into sm_texture_unit.bound[] of a texture target (cube faces: the cube map), or -1. */
int pr_tex_target_index(uint32_t target);
extern const uint32_t pr_tex_targets[SM_TT_COUNT];

/* Framebuffer images the frame overwrites whole before reading them (pass_reset_cover.c). */
enum pr_obj { PR_OBJ_TEXTURE = 1, PR_OBJ_RENDERBUFFER, PR_OBJ_DEFAULT_COLOR, PR_OBJ_DEFAULT_DS };
struct pr_cover {
    uint64_t key;
    uint16_t got;        /* attachment points covered by whole clears so far */
    bool decided, covered;
};

struct glrh_reset {
    struct glr_restore *restore;
    const struct sm_state *init;   /* the initial state (borrowed from restore) */
    struct sm_state *end;          /* the model of the live contexts: end of frame, then each
                                    * reset call applied as it is planned */
    struct pr_set buf_written, tex_written, rb_written;   /* pr_key */
    struct pr_set default_written;                        /* context ids */
    /* Sync objects: made by the frame and still alive at its end (deleted after each pass), and
     * initial ones the frame deletes (made again before each pass). */
    struct pr_sync { uint64_t handle; uint32_t ctx; } *syncs_made, *syncs_gone;
    size_t n_syncs_made, n_syncs_gone;
    struct pr_cover *cover;        /* pass_reset_cover.c */
    size_t n_cover, cap_cover;
    struct pr_set relink;                                 /* programs, pr_key */
    struct pr_set used_buf, used_tex;                     /* pr_key */
    struct pr_set queries_remade;  /* (ctx id << 32 | name): kept results the frame replaces */
    struct sm_call_list reset;     /* before every pass after the first */
    struct sm_call_list end_calls; /* after every pass */
    struct glrh_reset_summary sum;
    char *why;
    size_t why_size;
    bool failed;
};

/* Gives up on the plan with a one-line reason (the first reason is kept). Returns false. */
bool pr_fail(struct glrh_reset *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Key of an image for the pr_cover_* functions (default framebuffers: name 0). */
uint64_t pr_cover_key(int kind, const struct sm_context *c, uint32_t name);
/* A draw, clear or blit (call; NULL: any write) into framebuffer fbo of c. */
void pr_cover_framebuffer_write(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo,
                                const struct glr_call *call);
/* A read of framebuffer fbo (blit source, glReadPixels, glCopyTex*). */
void pr_cover_framebuffer_read(struct glrh_reset *p, const struct sm_context *c, uint32_t fbo);
/* Any other read or write of an image: its earlier contents matter unless already covered. */
void pr_cover_touch(struct glrh_reset *p, uint64_t key);
/* Whether the saved contents must be put back: written or read before being covered whole. */
bool pr_cover_needs_contents(const struct glrh_reset *p, uint64_t key);
void pr_cover_free(struct glrh_reset *p);

/* The walk through the frame (pass_reset_walk.c); then the objects' part of the plan
 * (pass_reset_objects.c): created/deleted objects and syncs, shader and program changes, uploads.
 * Each returns false after pr_fail. */
bool pr_walk(struct glrh_reset *p, const struct glrh_capture *cap);
bool pr_created_and_deleted(struct glrh_reset *p);
bool pr_check_programs(struct glrh_reset *p);
bool pr_uploads(struct glrh_reset *p);
/* Names of the live objects of a kind visible to c (malloc'd; NULL if memory runs out). */
uint32_t *pr_names_of(const struct sm_context *c, enum sm_object_kind k, size_t *n);

/* Appends calls to p->reset that set back what differs between p->end and p->init, applying each
 * to p->end: objects (texture/sampler parameters, program uniforms and block bindings, vertex
 * arrays, framebuffer objects), then each context's state and bindings. false: pr_fail called. */
bool pr_diff_objects(struct glrh_reset *p);
bool pr_diff_context(struct glrh_reset *p);
/* Applies calls [from, p->reset.count) to p->end. */
void pr_apply_from(struct glrh_reset *p, size_t from);

#endif
