/* Test rig: compile GLSL, decode, run one warp with per-lane inputs, read outputs. */
#ifndef GM_RIG_H
#define GM_RIG_H

#include "gm_test.h"
#include "gpu_model.h"

#include <string.h>

typedef struct {
    gm_compile_result cr;
    gm_program *p;
    gm_warp *w;
} gm_rig;

__attribute__((unused)) static int rig_init(gm_rig *r, gm_stage st, const char *src)
{
    memset(r, 0, sizeof *r);
    gm_shader_source s = {st, src, "test.glsl"};
    if (gm_compile_program(&s, 1, &r->cr) != 0) {
        fprintf(stderr, "compile failed:\n%s\n%s\n", r->cr.log, src);
        return -1;
    }
    char err[256];
    r->p = gm_program_create(r->cr.shaders[0].spirv, r->cr.shaders[0].word_count, err, sizeof err);
    if (!r->p) {
        fprintf(stderr, "decode failed: %s\n%s\n", err, src);
        return -1;
    }
    r->w = gm_warp_create(r->p, 0);
    return r->w ? 0 : -1;
}

__attribute__((unused)) static void rig_free(gm_rig *r)
{
    gm_warp_destroy(r->w);
    gm_program_destroy(r->p);
    gm_compile_result_free(&r->cr);
}

__attribute__((unused)) static uint32_t (*rig_var(gm_rig *r, const char *name, gm_var_class k))[GM_LANES]
{
    int v = gm_program_find_var(r->p, name, k);
    if (v < 0) {
        fprintf(stderr, "no variable %s\n", name);
        return NULL;
    }
    return gm_warp_var_lanes(r->w, v);
}

__attribute__((unused)) static void rig_setf(gm_rig *r, const char *name, int comp, int lane, float f)
{
    uint32_t (*v)[GM_LANES] = rig_var(r, name, GM_VAR_INPUT);
    if (v)
        memcpy(&v[comp][lane], &f, 4);
}

__attribute__((unused)) static void rig_seti(gm_rig *r, const char *name, int comp, int lane, int32_t i)
{
    uint32_t (*v)[GM_LANES] = rig_var(r, name, GM_VAR_INPUT);
    if (v)
        memcpy(&v[comp][lane], &i, 4);
}

__attribute__((unused)) static float rig_outf(gm_rig *r, const char *name, int comp, int lane)
{
    uint32_t (*v)[GM_LANES] = rig_var(r, name, GM_VAR_OUTPUT);
    float f = 0;
    if (v)
        memcpy(&f, &v[comp][lane], 4);
    return f;
}

__attribute__((unused)) static int32_t rig_outi(gm_rig *r, const char *name, int comp, int lane)
{
    uint32_t (*v)[GM_LANES] = rig_var(r, name, GM_VAR_OUTPUT);
    return v ? (int32_t)v[comp][lane] : 0;
}

__attribute__((unused)) static int rig_run(gm_rig *r, gm_mask active)
{
    gm_warp_begin(r->w, active, 0);
    gm_run_status st = gm_warp_run(r->w, 1000000);
    if (st != GM_RUN_DONE)
        fprintf(stderr, "run: status %d %s\n", st, gm_warp_error(r->w));
    return st == GM_RUN_DONE ? 0 : -1;
}

__attribute__((unused)) static int feq(float a, float b, float tol)
{
    if (a != a && b != b)
        return 1;
    float d = a > b ? a - b : b - a;
    float m = (a < 0 ? -a : a) > (b < 0 ? -b : b) ? (a < 0 ? -a : a) : (b < 0 ? -b : b);
    return d <= tol || d <= tol * m;
}

#endif
