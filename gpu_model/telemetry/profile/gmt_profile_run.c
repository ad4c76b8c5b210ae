/* A profile run: the frame runner with a hook multiplexer (the spine's recorder, then each enabled
 * method in a fixed order), once, or twice when trace buffers need a sizing pass. */
#include <stdlib.h>
#include <string.h>

#include "gmt_profile_internal.h"

const char *const gmt_act_names[GMT_ACT_COUNT] = {
    "warp instructions", "active lanes", "texture requests", "texture cache misses", "memory requests",
    "fragments shaded",
};

/* ------------------------------------------------------------------ multiplexer */

struct mux {
    gmt_profile *p;
    gmf_hooks h[1 + GMT_MAX_METHOD_HOOKS];
    int n;
};

static void mux_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].draw_begin)
            m->h[i].draw_begin(m->h[i].ctx, ev, cycle);
}

static void mux_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].draw_end)
            m->h[i].draw_end(m->h[i].ctx, ev, cycle);
}

static void mux_issue(void *ctx, const gm_timing_issue *ev)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].issue)
            m->h[i].issue(m->h[i].ctx, ev);
}

static void mux_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *slots, int n)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].cycle)
            m->h[i].cycle(m->h[i].ctx, cycle, sm, slots, n);
}

static void mux_mem(void *ctx, const gm_timing_mem_event *ev)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].mem)
            m->h[i].mem(m->h[i].ctx, ev);
}

static void mux_units(void *ctx, uint64_t cycle, int sm, uint32_t ctx_id, const gmf_unit_counts *c)
{
    struct mux *m = ctx;
    for (int i = 0; i < m->n; i++)
        if (m->h[i].units)
            m->h[i].units(m->h[i].ctx, cycle, sm, ctx_id, c);
}

/* ------------------------------------------------------------------ the spine's recorder */

void gmt_profile_note(gmt_profile *p, const char *note)
{
    for (int i = 0; i < p->n_notes; i++)
        if (!strcmp(p->notes[i], note))
            return;
    if (p->n_notes < (int)(sizeof p->notes / sizeof p->notes[0]) - 1)
        p->notes[p->n_notes++] = note;
}

static void act_add(gmt_profile *p, uint64_t cycle, enum gmt_act k, uint64_t v)
{
    struct gmt_activity *a = &p->act;
    while (cycle / a->width >= GMT_MAX_BUCKETS) {
        /* Double the bucket width: bucket i takes 2i and 2i+1. */
        for (int s = 0; s < GMT_ACT_COUNT; s++)
            for (size_t i = 0; i < GMT_MAX_BUCKETS / 2; i++)
                a->v[s][i] = a->v[s][2 * i] + a->v[s][2 * i + 1];
        for (int s = 0; s < GMT_ACT_COUNT; s++)
            memset(&a->v[s][GMT_MAX_BUCKETS / 2], 0, GMT_MAX_BUCKETS / 2 * sizeof a->v[s][0]);
        a->width *= 2;
        a->n = (a->n + 1) / 2;
    }
    size_t b = (size_t)(cycle / a->width);
    a->v[k][b] += v;
    if (b + 1 > a->n)
        a->n = b + 1;
}

static void rec_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    gmt_profile *p = ctx;
    p->in_draw = true;
    p->draw_start = cycle;
    p->cur_ctx = ev->ctx_id;
    p->cur_program = ev->kind == GMF_EV_DRAW || ev->kind == GMF_EV_DISPATCH ? ev->program : 0;
}

static void rec_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    gmt_profile *p = ctx;
    if (p->m.pass != p->m.passes - 1)
        return; /* slices and lines come from the last pass (the one the outputs describe) */
    if (ev->kind == GMF_EV_SWAP) {
        if (p->n_swaps == p->cap_swaps) {
            size_t cap = p->cap_swaps ? 2 * p->cap_swaps : 16;
            struct gmt_swap *n = realloc(p->swaps, cap * sizeof *n);
            if (!n) {
                p->oom = true;
                return;
            }
            p->swaps = n;
            p->cap_swaps = cap;
        }
        p->swaps[p->n_swaps++] = (struct gmt_swap){ ev->ctx_id, cycle, ev->record };
        return;
    }
    if (p->n_slices == p->cap_slices) {
        size_t cap = p->cap_slices ? 2 * p->cap_slices : 64;
        gmt_profile_slice *n = realloc(p->slices, cap * sizeof *n);
        if (!n) {
            p->oom = true;
            return;
        }
        p->slices = n;
        p->cap_slices = cap;
    }
    gmt_profile_slice *s = &p->slices[p->n_slices++];
    memset(s, 0, sizeof *s);
    s->clear = ev->kind == GMF_EV_CLEAR;
    s->dispatch = ev->kind == GMF_EV_DISPATCH;
    s->index = ev->draw;
    s->record = ev->record;
    s->ctx_id = ev->ctx_id;
    s->program = ev->kind == GMF_EV_DRAW || ev->kind == GMF_EV_DISPATCH ? ev->program : 0;
    s->fbo = ev->fbo;
    /* A draw that failed before it started has no draw_begin: an empty slice at its end. */
    s->start_cycle = p->in_draw ? p->draw_start : cycle;
    s->end_cycle = cycle >= s->start_cycle ? cycle : s->start_cycle;
    s->stats = ev->stats;
    s->failed = ev->failed;
    s->n_unsupported = ev->n_unsupported;
    p->in_draw = false;
}

static void rec_issue(void *ctx, const gm_timing_issue *ev)
{
    gmt_profile *p = ctx;
    if (p->m.pass != p->m.passes - 1)
        return;
    unsigned lanes = (unsigned)__builtin_popcount(ev->active);
    act_add(p, ev->cycle, GMT_ACT_INSTRUCTIONS, 1);
    act_add(p, ev->cycle, GMT_ACT_LANES, lanes);
    gmt_profile_line *l = gmt_profile_line_at(p, p->cur_ctx, p->cur_program, ev->stage, ev->line);
    if (l) {
        l->instructions++;
        l->lanes += lanes;
    }
}

static void rec_mem(void *ctx, const gm_timing_mem_event *ev)
{
    gmt_profile *p = ctx;
    if (p->m.pass != p->m.passes - 1)
        return;
    if (ev->is_texture) {
        act_add(p, ev->cycle, GMT_ACT_TEX_REQUESTS, 1);
        act_add(p, ev->cycle, GMT_ACT_TEX_MISSES, (uint64_t)(ev->misses > 0 ? ev->misses : 0));
    } else {
        act_add(p, ev->cycle, GMT_ACT_MEM_REQUESTS, 1);
    }
}

static void rec_units(void *ctx, uint64_t cycle, int sm, uint32_t ctx_id, const gmf_unit_counts *c)
{
    (void)sm;
    (void)ctx_id;
    gmt_profile *p = ctx;
    if (p->m.pass != p->m.passes - 1)
        return;
    act_add(p, cycle, GMT_ACT_FRAGMENTS, c->fragments_shaded);
}

/* ------------------------------------------------------------------ runs */

static int run_pass(gmt_profile *p, const gmt_profile_input *in, int pass, char *err, size_t err_size)
{
    gmf_config cfg = { .metadata_json = in->metadata_json, .surfaces = in->surfaces,
                       .n_surfaces = in->n_surfaces, .timing = GMF_TIMING_ON,
                       .program_sources = in->program_sources, .program_sources_size = in->program_sources_size };
    gmf_runner *r = gmf_create(&cfg, err, err_size);
    if (!r)
        return -1;
    if (!gmf_timing_model(r)) {
        snprintf(err, err_size, "the frame runner has no timing model");
        gmf_destroy(r);
        return -1;
    }
    struct mux *m = calloc(1, sizeof *m);
    if (!m) {
        snprintf(err, err_size, "out of memory");
        gmf_destroy(r);
        return -1;
    }
    m->p = p;
    p->m.pass = pass;
    p->in_draw = false;
    m->h[m->n++] = (gmf_hooks){ .ctx = p, .draw_begin = rec_draw_begin, .draw_end = rec_draw_end,
                                .issue = rec_issue, .mem = rec_mem, .units = rec_units };
    m->n += gmt_methods_hooks(p, pass, &m->h[m->n]);
    gmf_hooks mh = { .ctx = m, .draw_begin = mux_draw_begin, .draw_end = mux_draw_end, .issue = mux_issue,
                     .mem = mux_mem, .units = mux_units };
    /* Only a method that watches every cycle gets the cycle hook: it turns off the idle skip. */
    for (int i = 0; i < m->n; i++)
        if (m->h[i].cycle)
            mh.cycle = mux_cycle;
    gmf_set_hooks(r, &mh);
    gmf_set_abort(r, p->opt.abort_flag);
    int rc = 0;
    if (in->initial && (gmf_feed_initial_state(r, in->initial) != 0 ||
                        gmf_feed_initial_contents(r, in->contents, in->n_contents) < 0)) {
        snprintf(err, err_size, "out of memory restoring the capture's initial state");
        rc = -1;
    }
    if (rc == 0 && gmf_run_stream(r, in->stream, in->stream_size, NULL, NULL, err, err_size) == GMF_ERROR) {
        if (!err[0])
            snprintf(err, err_size, "the frame runner failed (out of memory)");
        rc = -1;
    }
    if (rc == 0 && p->opt.abort_flag && *p->opt.abort_flag) {
        snprintf(err, err_size, "stopped before the frame's end");
        rc = -1;
    }
    uint64_t end = gm_timing_cycle(gmf_timing_model(r));
    if (pass == p->m.passes - 1) {
        p->end_cycle = end;
        gmf_get_totals(r, &p->totals);
    }
    gmf_set_hooks(r, NULL);
    gmf_destroy(r);
    free(m);
    if (rc == 0 && gmt_methods_end_pass(p, pass, end, err, err_size) != 0)
        rc = -1;
    return rc;
}

static int by_instructions(const void *a, const void *b)
{
    const gmt_profile_line *x = a, *y = b;
    uint64_t kx = x->instructions + x->samples, ky = y->instructions + y->samples;
    if (kx != ky)
        return kx < ky ? 1 : -1;
    if (x->program != y->program)
        return x->program < y->program ? -1 : 1;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

gmt_profile *gmt_profile_run(const gmt_profile_input *in, const gmt_profile_options *opt, char *err,
                             size_t err_size)
{
    if (err_size)
        err[0] = 0;
    if (!in || !in->stream) {
        snprintf(err, err_size, "no command stream to profile");
        return NULL;
    }
    gmt_profile *p = calloc(1, sizeof *p);
    if (!p) {
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    if (opt)
        p->opt = *opt;
    if (p->opt.pc_period && (p->opt.pc_period & (p->opt.pc_period - 1))) {
        snprintf(err, err_size, "the PC sampling period must be a power of two (got %u)", p->opt.pc_period);
        free(p);
        return NULL;
    }
    p->clock_ghz = p->opt.clock_ghz > 0 ? p->opt.clock_ghz : 1.0;
    p->opt.clock_ghz = p->clock_ghz;
    snprintf(p->name, sizeof p->name, "%s", in->name ? in->name : "frame");
    p->act.width = 256;
    gm_timing_config tc;
    gm_timing_config_default(&tc); /* the frame runner's timing model uses the defaults */
    p->m.passes = 1;
    if (gmt_methods_create(p, &tc, err, err_size) != 0) {
        gmt_profile_destroy(p);
        return NULL;
    }
    for (int pass = 0; pass < p->m.passes; pass++)
        if (run_pass(p, in, pass, err, err_size) != 0) {
            gmt_profile_destroy(p);
            return NULL;
        }
    gmt_methods_fold_lines(p);
    if (p->oom) {
        snprintf(err, err_size, "out of memory recording the profile");
        gmt_profile_destroy(p);
        return NULL;
    }
    p->sorted = calloc(p->lines.n + 1, sizeof *p->sorted);
    if (!p->sorted) {
        snprintf(err, err_size, "out of memory");
        gmt_profile_destroy(p);
        return NULL;
    }
    size_t k = 0;
    for (size_t i = 0; i < p->lines.cap; i++) {
        gmt_profile_line *e = &p->lines.v[i];
        if (!e->line && !e->program && !e->ctx_id)
            continue;
        p->sorted[k] = *e;
        if (p->sorted[k].line < 0)
            p->sorted[k].line = 0;
        k++;
    }
    qsort(p->sorted, k, sizeof *p->sorted, by_instructions);
    return p;
}

void gmt_profile_destroy(gmt_profile *p)
{
    if (!p)
        return;
    gmt_methods_destroy(p);
    free(p->slices);
    free(p->swaps);
    free(p->lines.v);
    free(p->sorted);
    free(p);
}

const gmt_profile_options *gmt_profile_get_options(const gmt_profile *p)
{
    return &p->opt;
}

size_t gmt_profile_slices(const gmt_profile *p, const gmt_profile_slice **out)
{
    *out = p->slices;
    return p->n_slices;
}

size_t gmt_profile_lines(const gmt_profile *p, const gmt_profile_line **out)
{
    *out = p->sorted;
    return p->lines.n;
}

uint64_t gmt_profile_end_cycle(const gmt_profile *p)
{
    return p->end_cycle;
}

bool gmt_profile_has(const gmt_profile *p, const char *method)
{
    if (!strcmp(method, "counters"))
        return p->m.counters != NULL;
    if (!strcmp(method, "pcsamp"))
        return p->m.pcsamp != NULL;
    if (!strcmp(method, "edges"))
        return p->m.edges != NULL;
    if (!strcmp(method, "tracebuf"))
        return p->m.tracebuf != NULL;
    return false;
}

const char *const *gmt_profile_notes(const gmt_profile *p)
{
    return p->notes;
}
