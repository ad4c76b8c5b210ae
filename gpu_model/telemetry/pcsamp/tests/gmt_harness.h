/* Test and benchmark harness of the pcsamp module: several gmf_hooks sets multiplexed onto a
 * timing model (as the profile spine does onto the frame runner), shaders compiled from GLSL,
 * and batches of warps with per-lane inputs. No GL driver. */
#ifndef GMT_HARNESS_H
#define GMT_HARNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gm_timing.h"
#include "gmf_frame.h"

#define GMTH_MAX_HOOKS 8

typedef struct gmth {
    gmf_hooks h[GMTH_MAX_HOOKS];
    int n;
    gm_timing *t;
} gmth;

static int gmth_issue(void *ctx, const gm_timing_issue *ev)
{
    gmth *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].issue)
            m->h[i].issue(m->h[i].ctx, ev);
    return 0;
}

static void gmth_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *s, int n)
{
    gmth *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].cycle)
            m->h[i].cycle(m->h[i].ctx, cycle, sm, s, n);
}

__attribute__((unused)) static void gmth_add(gmth *m, const gmf_hooks *h)
{
    if (m->n < GMTH_MAX_HOOKS)
        m->h[m->n++] = *h;
}

/* Installs the multiplexer on a timing model (cycle observer only if some hook wants it). */
__attribute__((unused)) static void gmth_install(gmth *m, gm_timing *t)
{
    m->t = t;
    int cyc = 0;
    for (int i = 0; i < m->n; i++)
        cyc |= m->h[i].cycle != NULL;
    gm_timing_set_issue_observer(t, gmth_issue, m);
    gm_timing_set_cycle_observer(t, cyc ? gmth_cycle : NULL, m);
}

__attribute__((unused)) static void gmth_draw(gmth *m, int begin, uint64_t draw, uint32_t ctx_id,
                                              uint32_t program)
{
    gmf_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = GMF_EV_DRAW;
    ev.draw = draw;
    ev.ctx_id = ctx_id;
    ev.program = program;
    for (int i = 0; i < m->n; i++) {
        void (*fn)(void *, const gmf_event *, uint64_t) = begin ? m->h[i].draw_begin
                                                                : m->h[i].draw_end;
        if (fn)
            fn(m->h[i].ctx, &ev, m->t ? gm_timing_cycle(m->t) : 0);
    }
}

typedef struct gmth_shader {
    gm_compile_result cr;
    gm_program *p;
} gmth_shader;

__attribute__((unused)) static int gmth_shader_init(gmth_shader *s, gm_stage st, const char *src,
                                                    const char *name)
{
    memset(s, 0, sizeof *s);
    gm_shader_source in = {st, src, name};
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

__attribute__((unused)) static void gmth_shader_free(gmth_shader *s)
{
    gm_program_destroy(s->p);
    gm_compile_result_free(&s->cr);
}

/* Runs `nwarps` warps of p in one batch labelled `draw`: input "v" of lane l of warp w is
 * (w * 3 + l) * scale as float. Returns the model status. */
__attribute__((unused)) static gm_timing_status gmth_run_batch(gmth *m, gm_program *p, int nwarps,
                                                               int draw, float scale)
{
    gm_warp **w = calloc((size_t)nwarps, sizeof *w);
    gm_timing_batch_desc d = {gm_program_stage(p), draw, -1, 0, 0, NULL, 0};
    int b = gm_timing_batch_begin(m->t, &d);
    int var = gm_program_find_var(p, "v", GM_VAR_INPUT);
    for (int i = 0; i < nwarps; i++) {
        w[i] = gm_warp_create(p, i);
        uint32_t (*lanes)[GM_LANES] = var >= 0 ? gm_warp_var_lanes(w[i], var) : NULL;
        for (int l = 0; lanes && l < GM_LANES; l++) {
            float f = (float)(i * 3 + l) * scale;
            memcpy(&lanes[0][l], &f, 4);
        }
        gm_warp_begin(w[i], 0xffffffffu, 0);
        gm_timing_submit(m->t, b, w[i], NULL, NULL);
    }
    gm_timing_batch_close(m->t, b);
    gm_timing_status st = gm_timing_run(m->t);
    for (int i = 0; i < nwarps; i++)
        gm_warp_destroy(w[i]);
    free(w);
    return st;
}

#endif
