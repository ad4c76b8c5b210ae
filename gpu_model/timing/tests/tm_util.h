/* Shared helpers of the timing-model tests: compile a shader, build warps with per-lane
 * inputs, record issue events, compare with run-to-completion results. */
#ifndef TM_UTIL_H
#define TM_UTIL_H

#include "gm_test.h"
#include "gm_timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    gm_compile_result cr;
    gm_program *p;
} tm_shader;

__attribute__((unused)) static int shader_init(tm_shader *s, gm_stage st, const char *src)
{
    memset(s, 0, sizeof *s);
    gm_shader_source in = {st, src, "timing_test.glsl"};
    if (gm_compile_program(&in, 1, &s->cr) != 0) {
        fprintf(stderr, "compile failed:\n%s\n", s->cr.log);
        return -1;
    }
    char err[256];
    s->p = gm_program_create(s->cr.shaders[0].spirv, s->cr.shaders[0].word_count, err, sizeof err);
    if (!s->p) {
        fprintf(stderr, "decode failed: %s\n", err);
        return -1;
    }
    return 0;
}

__attribute__((unused)) static void shader_free(tm_shader *s)
{
    gm_program_destroy(s->p);
    gm_compile_result_free(&s->cr);
}

/* Sets input `name` component 0 of every lane: value(warp, lane) as float or int bits. */
typedef uint32_t (*tm_value_fn)(int warp, int lane);

__attribute__((unused)) static void set_input(gm_program *p, gm_warp *w, const char *name,
                                              int warp, tm_value_fn fn)
{
    int v = gm_program_find_var(p, name, GM_VAR_INPUT);
    uint32_t (*lanes)[GM_LANES] = v >= 0 ? gm_warp_var_lanes(w, v) : NULL;
    if (!lanes) {
        fprintf(stderr, "no input %s\n", name);
        gm_test_failures++;
        return;
    }
    for (int l = 0; l < GM_LANES; l++)
        lanes[0][l] = fn(warp, l);
}

__attribute__((unused)) static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Output words of a warp (all components, all lanes) appended to a buffer. */
__attribute__((unused)) static size_t output_words(gm_program *p, gm_warp *w, uint32_t *out,
                                                   size_t cap)
{
    size_t n = 0;
    for (int i = 0; i < gm_program_output_count(p); i++) {
        int var = gm_program_output_var(p, i);
        gm_var_info info = *gm_program_var(p, var);
        gm_type_desc td;
        gm_type_get(p, info.type, &td);
        uint32_t (*lanes)[GM_LANES] = gm_warp_var_lanes(w, var);
        if (!lanes)
            continue;
        for (int k = 0; k < td.components; k++)
            for (int l = 0; l < GM_LANES; l++)
                if (n < cap)
                    out[n++] = lanes[k][l];
    }
    return n;
}

/* Issue log. */
typedef struct {
    uint64_t cycle;
    int sm, sp, warp_id, pc;
    gm_mask active;
} tm_event;

typedef struct {
    tm_event *ev;
    size_t n, cap;
    int pause_at; /* pause the simulation at this event index (-1: never) */
} tm_log;

__attribute__((unused)) static int log_issue(void *ctx, const gm_timing_issue *e)
{
    tm_log *lg = ctx;
    int pause = lg->pause_at >= 0 && (size_t)lg->pause_at == lg->n;
    if (pause)
        lg->pause_at = -1;
    if (lg->n == lg->cap) {
        lg->cap = lg->cap ? lg->cap * 2 : 4096;
        lg->ev = realloc(lg->ev, lg->cap * sizeof *lg->ev);
    }
    tm_event x = {e->cycle, e->sm, e->subpartition, e->warp_id, e->pc, e->active};
    lg->ev[lg->n++] = x;
    return pause; /* seen once: a resumed run does not report it again */
}

__attribute__((unused)) static uint64_t log_hash(const tm_log *lg)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < lg->n; i++) {
        const tm_event *e = &lg->ev[i];
        uint64_t v[6] = {e->cycle, (uint64_t)e->sm, (uint64_t)e->sp, (uint64_t)e->warp_id,
                         (uint64_t)e->pc, e->active};
        for (int k = 0; k < 6; k++) {
            h ^= v[k];
            h *= 1099511628211ull;
        }
    }
    return h;
}

#endif
