/* GL_ARB_shader_subroutine: values of the uniforms the front end's lowering introduces
 * (gpu_model/frontend/gm_subroutine.c), from the state model (statemodel/sm_apply_subroutine.c):
 *   glr_subidx_F  the index the driver gave subroutine function F (glGetSubroutineIndex's return);
 *                 a function the program never asked for gets a value no selection equals;
 *   glr_sub_U[e]  the subroutine index glUniformSubroutinesuiv selected at U's location + e
 *                 (glGetSubroutineUniformLocation's return for U or U[k]; without one, the
 *                 uniforms' order in the stage); -1 when nothing is selected since glUseProgram,
 *                 which makes the dispatcher call the type's first function, the driver's default. */
#include "gmf_internal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The recorded index/location of "S:kind:name" (or of an element "name[k]": minus k), or -1. */
static int64_t lookup(const struct sm_program *sp, int stage, char kind, const char *name)
{
    char key[192];
    snprintf(key, sizeof key, "%d:%c:%s", stage, kind, name);
    size_t n = strlen(key);
    for (uint32_t i = 0; i < sp->n_subroutine_names; i++) {
        const char *k = sp->subroutine_names[i].name;
        if (!k || strncmp(k, key, n))
            continue;
        if (!k[n])
            return sp->subroutine_names[i].index;
        if (k[n] == '[') {
            int e = atoi(k + n + 1);
            if ((int64_t)sp->subroutine_names[i].index >= e)
                return (int64_t)sp->subroutine_names[i].index - e;
        }
    }
    return -1;
}

static void upload_stage(const struct sm_context_state *st, const struct sm_program *sp,
                         gm_program *gp, int stage)
{
    if (!gp)
        return;
    int n = gm_program_uniform_count(gp), fallback_loc = 0;
    for (int u = 0; u < n; u++) {
        const gm_uniform_info *ui = gm_program_uniform(gp, u);
        if (!ui || !ui->name)
            continue;
        if (!strncmp(ui->name, "glr_subidx_", 11)) {
            int64_t idx = lookup(sp, stage, 'f', ui->name + 11);
            int32_t v = idx >= 0 ? (int32_t)idx : INT_MIN + u;
            gm_program_set_uniform(gp, u, 0, 1, &v);
        } else if (!strncmp(ui->name, "glr_sub_", 8)) {
            int64_t loc = lookup(sp, stage, 'u', ui->name + 8);
            if (loc < 0)
                loc = fallback_loc;
            fallback_loc += ui->array_size;
            for (int e = 0; e < ui->array_size; e++) {
                int64_t l = loc + e;
                int32_t v = l < st->n_subroutine_sel[stage] ? (int32_t)st->subroutine_sel[stage][l] : -1;
                gm_program_set_uniform(gp, u, e, 1, &v);
            }
        }
    }
}

void gmf_prog_upload_subroutines(const struct sm_context *c, const struct sm_program *sp, gmf_prog *p)
{
    const struct sm_context_state *st = sm_context_state(c);
    if (!st || !sp)
        return;
    upload_stage(st, sp, p->vs, 0);
    upload_stage(st, sp, p->tcs, 1);
    upload_stage(st, sp, p->tes, 2);
    upload_stage(st, sp, p->gs, 3);
    upload_stage(st, sp, p->fs, 4);
    upload_stage(st, sp, p->cs, 5);
}
