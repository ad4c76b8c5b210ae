/* Private: emitting restore calls into an sm_call_list. */
#ifndef SM_RESTORE_H
#define SM_RESTORE_H

#include "statemodel/sm_internal.h"

struct rs {
    struct sm_call_list *l;
    uint32_t ctx;                    /* ctx_id the calls run on */
    const struct sm_context *c;
    bool gles, compat;
    uint32_t temp_name;              /* next name for temporary shaders (outside captured names) */
};

/* Appends a call with n arguments, each passed as uint64_t (use U/I/F/D below). Returns the call
 * (valid until the next emit) or NULL when memory ran out. */
struct glr_call *rs_emit(struct rs *r, uint32_t cmd, int n, ...);
/* Blob i: borrowed from the state, or copied into the list. */
void rs_blob_ref(struct glr_call *c, int i, const void *data, uint64_t size);
void rs_blob_own(struct rs *r, struct glr_call *c, int i, const void *data, uint64_t size);
uint64_t rs_f(float f);
uint64_t rs_d(double d);

#define U(x) ((uint64_t)(x))
#define I(x) ((uint64_t)(int64_t)(x))
#define F(x) rs_f(x)
#define D(x) rs_d(x)

/* Shared objects of a share group, per-context objects, bindings and state (sm_restore_*.c). */
void rs_shared_objects(struct rs *r, const struct sm_share_group *g);
void rs_shared_finish(struct rs *r, const struct sm_share_group *g);
void rs_context_objects(struct rs *r);
void rs_context_bindings(struct rs *r);
void rs_context_state(struct rs *r);
void rs_context_finish(struct rs *r);
/* ARB assembly programs (sm_restore_arb.c): objects of a share group; a context's bindings and
 * environment parameters. Compatibility contexts only. */
void rs_arb_programs(struct rs *r, const struct sm_share_group *g);
void rs_arb_context(struct rs *r);

#endif
