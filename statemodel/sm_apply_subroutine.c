/* GL_ARB_shader_subroutine: the subroutine uniform selections of the current program
 * (glUniformSubroutinesuiv, per stage, reset by glUseProgram) and the indices and locations the
 * driver gave the program's subroutine functions and uniforms (the returns of
 * glGetSubroutineIndex / glGetSubroutineUniformLocation, recorded like glGetUniformLocation's):
 * the model feeds its dispatch of subroutine calls from them (gpu_model/frame/gmf_subroutine.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "statemodel/sm_apply.h"
#include "statemodel/sm_blob.h"
#include "statemodel/sm_internal.h"

/* 0 vertex, 1 tess control, 2 tess evaluation, 3 geometry, 4 fragment, 5 compute; -1 other */
int sm_subroutine_stage(uint32_t shadertype)
{
    switch (shadertype) {
    case GL_VERTEX_SHADER: return 0;
    case GL_TESS_CONTROL_SHADER: return 1;
    case GL_TESS_EVALUATION_SHADER: return 2;
    case GL_GEOMETRY_SHADER: return 3;
    case GL_FRAGMENT_SHADER: return 4;
    case GL_COMPUTE_SHADER: return 5;
    default: return -1;
    }
}

/* glGetSubroutineIndex(program, shadertype, name) -> index;
 * glGetSubroutineUniformLocation(program, shadertype, name) -> location */
static void h_get_subroutine(struct sm_ap *a)
{
    bool uniform = a->cmd == GLR_CMD_glGetSubroutineUniformLocation;
    int64_t ret = uniform ? (int64_t)(int32_t)a->call->ret : (int64_t)(uint32_t)a->call->ret;
    int stage = sm_subroutine_stage(ap_u(a, 1));
    if (!(a->call->flags & GLR_CALL_HAS_RET) || ret < 0 || ret == GL_INVALID_INDEX || stage < 0)
        return;
    struct sm_program *p = ap_program(a, ap_u(a, 0));
    if (!p || !p->link_count)
        return;
    char *name = sm_blob_cstr(&a->call->blobs[2]);
    if (!name) {
        ap_error(a, "subroutine name missing from the recorded call");
        return;
    }
    size_t n = strlen(name) + 8;
    char *key = malloc(n);
    if (!key) {
        free(name);
        ap_error(a, "out of memory");
        return;
    }
    snprintf(key, n, "%d:%c:%s", stage, uniform ? 'u' : 'f', name);
    free(name);
    for (uint32_t i = 0; i < p->n_subroutine_names; i++)
        if (!strcmp(p->subroutine_names[i].name, key)) {
            p->subroutine_names[i].index = (uint32_t)ret;
            free(key);
            return;
        }
    void *d = realloc(p->subroutine_names, (p->n_subroutine_names + 1) * sizeof *p->subroutine_names);
    if (!d) {
        free(key);
        ap_error(a, "out of memory");
        return;
    }
    p->subroutine_names = d;
    p->subroutine_names[p->n_subroutine_names++] = (struct sm_name_binding){key, (uint32_t)ret, 0};
}

/* glUniformSubroutinesuiv(shadertype, count, indices) */
static void h_uniform_subroutines(struct sm_ap *a)
{
    int stage = sm_subroutine_stage(ap_u(a, 0));
    int32_t count = ap_i(a, 1);
    if (stage < 0 || count < 0)
        return;
    if (count > SM_MAX_SUBROUTINE_UNIFORMS) {
        ap_error(a, "more subroutine uniforms than the model keeps (64)");
        return;
    }
    const uint32_t *idx = count ? ap_blob(a, 2, (uint64_t)count * 4) : NULL;
    if (count && !idx) {
        ap_error(a, "subroutine indices missing from the recorded call");
        return;
    }
    if (count)
        memcpy(a->c->st.subroutine_sel[stage], idx, (size_t)count * 4);
    a->c->st.n_subroutine_sel[stage] = (uint32_t)count;
}

void sm_register_subroutine(sm_apply_fn *t)
{
    t[GLR_CMD_glGetSubroutineIndex] = h_get_subroutine;
    t[GLR_CMD_glGetSubroutineUniformLocation] = h_get_subroutine;
    t[GLR_CMD_glUniformSubroutinesuiv] = h_uniform_subroutines;
}
