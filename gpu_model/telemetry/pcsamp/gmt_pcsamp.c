/* PC sampling with stall reasons: the sampler itself (hooks, sampling points, records,
 * accounting). Aggregation and outputs are in gmt_pcsamp_report.c. See gmt_pcsamp.h and
 * DESIGN.md in this folder. */
#include <stdlib.h>
#include <string.h>

#include "gmt_pcsamp_internal.h"

void gmt_pcsamp_default_config(gmt_pcsamp_config *c)
{
    memset(c, 0, sizeof *c);
    c->period = 1024;
    c->mode = GMT_PCSAMP_ROUND_ROBIN;
    c->random_offset = false;
    c->seed = 1;
    c->max_records = (size_t)1 << 22;
}

gmt_pcsamp *gmt_pcsamp_create(const gmt_pcsamp_config *cfg, const gm_timing_config *tc,
                              char *err, size_t err_size)
{
    gmt_pcsamp_config def;
    if (!cfg) {
        gmt_pcsamp_default_config(&def);
        cfg = &def;
    }
    gm_timing_config tdef;
    if (!tc) {
        gm_timing_config_default(&tdef);
        tc = &tdef;
    }
    if (cfg->period == 0 || (cfg->period & (cfg->period - 1)) != 0) {
        snprintf(err, err_size, "PC sampling period must be a power of two >= 1 (got %u)",
                 cfg->period);
        return NULL;
    }
    if (cfg->mode != GMT_PCSAMP_ROUND_ROBIN && cfg->mode != GMT_PCSAMP_ALL_WARPS) {
        snprintf(err, err_size, "PC sampling mode %d is not round_robin or all_warps", cfg->mode);
        return NULL;
    }
    if (tc->sm_count < 1 || tc->warp_slots_per_sm < 1) {
        snprintf(err, err_size, "timing configuration has no SMs or warp slots");
        return NULL;
    }
    gmt_pcsamp *s = calloc(1, sizeof *s);
    if (!s || !(s->sm = calloc((size_t)tc->sm_count, sizeof *s->sm))) {
        free(s);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    s->cfg = *cfg;
    s->nsm = tc->sm_count;
    s->nslots = tc->warp_slots_per_sm;
    s->mask = cfg->period - 1;
    s->off_period = UINT64_MAX;
    for (int i = 0; i < s->nsm; i++)
        s->sm[i].rr = -1;
    return s;
}

void gmt_pcsamp_destroy(gmt_pcsamp *s)
{
    if (!s)
        return;
    free(s->sm);
    free(s->rec);
    free(s->batches);
    free(s->lines);
    free(s->line_prog);
    gmt_progs_free(&s->progs);
    free(s);
}

/* ---- hooks ---- */

static void on_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)cycle;
    gmt_pcsamp *s = ctx;
    if (ev->kind == GMF_EV_DRAW) {
        s->cur_ctx = ev->ctx_id;
        s->cur_prog = ev->program;
    }
}

static void on_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)ctx;
    (void)ev;
    (void)cycle;
}

static gmt_batch_info *batch_slot(gmt_pcsamp *s, int batch)
{
    if (batch < 0)
        return NULL;
    if (batch >= s->nb) {
        int nb = s->nb ? s->nb : 64;
        while (nb <= batch)
            nb *= 2;
        gmt_batch_info *v = realloc(s->batches, (size_t)nb * sizeof *v);
        if (!v) {
            s->oom = 1;
            return NULL;
        }
        memset(v + s->nb, 0, (size_t)(nb - s->nb) * sizeof *v);
        s->batches = v;
        s->nb = nb;
    }
    return &s->batches[batch];
}

/* Learns which draw, stage and program a batch belongs to (its first issue). */
static void on_issue(void *ctx, const gm_timing_issue *ev)
{
    gmt_pcsamp *s = ctx;
    if (ev->batch >= 0 && ev->batch < s->nb && s->batches[ev->batch].known)
        return;
    gmt_batch_info *b = batch_slot(s, ev->batch);
    if (!b)
        return;
    b->known = 1;
    b->draw = ev->draw;
    b->stage = ev->stage;
    b->ctx_id = s->cur_ctx;
    b->program = s->cur_prog;
    const gm_program *p = gmt_warp_program(ev->warp);
    b->prog = p ? gmt_progs_get(&s->progs, p, s->cur_ctx, s->cur_prog) : -1;
    if (p && b->prog < 0)
        s->oom = 1;
}

static void add_record(gmt_pcsamp *s, gmt_sm_acct *a, uint64_t cycle, int sm, int slot,
                       const gm_timing_slot_sample *x)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4096;
        if (cap > s->cfg.max_records)
            cap = s->cfg.max_records;
        gmt_pc_sample *v = s->n < cap ? realloc(s->rec, cap * sizeof *v) : NULL;
        if (!v) {
            a->dropped_full++;
            return;
        }
        s->rec = v;
        s->cap = cap;
    }
    gmt_pc_sample *r = &s->rec[s->n++];
    memset(r, 0, sizeof *r);
    r->cycle = cycle;
    r->sm = sm;
    r->slot = slot;
    r->warp_seq = x->warp_seq;
    r->warp_id = x->warp_id;
    r->batch = x->batch;
    r->draw = -1;
    r->pc = x->pc;
    r->state = x->state;
    a->samples++;
}

/* The sampling point of the period holding `cycle`: its last cycle, or a pseudo-random one. */
static inline int is_point(gmt_pcsamp *s, uint64_t cycle)
{
    uint64_t in = cycle & s->mask;
    if (!s->cfg.random_offset)
        return in == s->mask;
    uint64_t k = cycle >> __builtin_ctz(s->cfg.period);
    if (k != s->off_period) {
        s->off_period = k;
        s->off = gmt_mix64(s->cfg.seed * 0x100000001b3ull ^ k) & s->mask;
    }
    return in == s->off;
}

static void on_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *slots,
                     int slot_count)
{
    gmt_pcsamp *s = ctx;
    if (!s->seen) {
        s->seen = 1;
        s->first_cycle = cycle;
    }
    if (cycle >= s->end_cycle)
        s->end_cycle = cycle + 1;
    if (s->finished || sm < 0 || sm >= s->nsm || !is_point(s, cycle))
        return;
    gmt_sm_acct *a = &s->sm[sm];
    a->points++;
    if (slot_count > s->nslots)
        slot_count = s->nslots;
    if (s->cfg.mode == GMT_PCSAMP_ALL_WARPS) {
        int any = 0;
        for (int i = 0; i < slot_count; i++)
            if (slots[i].resident) {
                any = 1;
                add_record(s, a, cycle, sm, i, &slots[i]);
            }
        if (!any)
            a->dropped_idle++;
        return;
    }
    /* Round robin: the next resident slot after the one sampled last on this SM. */
    for (int k = 1; k <= slot_count; k++) {
        int i = (a->rr + k) % slot_count;
        if (i < 0)
            i += slot_count;
        if (slots[i].resident) {
            a->rr = i;
            add_record(s, a, cycle, sm, i, &slots[i]);
            return;
        }
    }
    a->dropped_idle++;
}

void gmt_pcsamp_hooks(gmt_pcsamp *s, gmf_hooks *out)
{
    memset(out, 0, sizeof *out);
    out->ctx = s;
    out->draw_begin = on_draw_begin;
    out->draw_end = on_draw_end;
    out->issue = on_issue;
    out->cycle = on_cycle;
}

const gmt_pc_sample *gmt_pcsamp_samples(const gmt_pcsamp *s, size_t *count)
{
    *count = s->n;
    return s->rec;
}

int gmt_pcsamp_get_stats(const gmt_pcsamp *s, int sm, gmt_pcsamp_stats *out)
{
    memset(out, 0, sizeof *out);
    if (sm >= s->nsm)
        return -1;
    out->first_cycle = s->seen ? s->first_cycle : 0;
    out->end_cycle = s->end_cycle;
    for (int i = 0; i < s->nsm; i++) {
        if (sm >= 0 && i != sm)
            continue;
        out->points += s->sm[i].points;
        out->samples += s->sm[i].samples;
        out->dropped_idle += s->sm[i].dropped_idle;
        out->dropped_full += s->sm[i].dropped_full;
    }
    out->dropped = out->dropped_idle + out->dropped_full;
    out->total = out->samples + out->dropped;
    for (size_t i = 0; i < s->n; i++)
        if ((sm < 0 || s->rec[i].sm == sm) && s->rec[i].state < GM_STALL_COUNT)
            out->by_state[s->rec[i].state]++;
    return 0;
}

const char *gmt_pcsamp_stage_name(gm_stage st)
{
    static const char *const names[GM_STAGE_COUNT] = {
        "vertex", "tess_control", "tess_evaluation", "geometry", "fragment", "compute"};
    return st >= 0 && st < GM_STAGE_COUNT ? names[st] : "unknown";
}
