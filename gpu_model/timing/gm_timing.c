/* Timing model: configuration, lifetime, batches, submission, observers, statistics.
 * The cycle loop itself is in gm_timing_sched.c. */
#include "gm_timing_internal.h"
#include "gm_timing_ahead.h"
#include "gm_exec.h" /* struct gm_warp: its program and id */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const stall_names[GM_STALL_COUNT] = {
    "selected", "not_selected", "exec_dependency", "short_scoreboard", "long_scoreboard",
    "barrier", "branch_resolving", "no_instruction", "tex_throttle", "drained",
};
static const char *const class_names[GM_LAT_COUNT] = {
    "alu", "transcendental", "texture", "memory", "barrier", "branch",
};

const char *gm_stall_name(gm_stall s)
{
    return (unsigned)s < GM_STALL_COUNT ? stall_names[s] : "unknown";
}

const char *gm_lat_class_name(gm_lat_class c)
{
    return (unsigned)c < GM_LAT_COUNT ? class_names[c] : "unknown";
}

void gm_timing_config_default(gm_timing_config *c)
{
    memset(c, 0, sizeof *c);
    c->sm_count = 4;
    c->warp_slots_per_sm = 16;
    c->subpartitions_per_sm = 4;
    c->policy = GM_SCHED_LRR;
    c->latency[GM_LAT_ALU] = 4;
    c->latency[GM_LAT_TRANSCENDENTAL] = 16;
    c->latency[GM_LAT_BARRIER] = 4;
    c->latency[GM_LAT_BRANCH] = 4;
    c->alu_cycles_per_word = 1;
    c->sfu_cycles_per_word = 4;
    c->launch_latency = 8;
    c->tex_units_per_sm = 1;
    c->tex_queue_depth = 16;
    c->tex_lines_per_cycle = 4;
    c->tex_hit_latency = 24;
    c->tex_miss_latency = 200;
    c->tex_cache_lines = 64;
    c->tex_cache_ways = 4;
    c->mem_latency = 200;
    c->ubo_latency = 16;
    c->mem_queue_depth = 16;
    c->mem_issue_cycles = 1;
}

static int in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

static const char *check_config(const gm_timing_config *c)
{
    if (!in_range(c->sm_count, 1, 1024))
        return "sm_count must be 1..1024";
    if (!in_range(c->warp_slots_per_sm, 1, 64))
        return "warp_slots_per_sm must be 1..64";
    if (!in_range(c->subpartitions_per_sm, 1, c->warp_slots_per_sm))
        return "subpartitions_per_sm must be 1..warp_slots_per_sm";
    if (c->policy != GM_SCHED_LRR && c->policy != GM_SCHED_GTO)
        return "unknown scheduling policy";
    const int used[] = {GM_LAT_ALU, GM_LAT_TRANSCENDENTAL, GM_LAT_BARRIER, GM_LAT_BRANCH};
    for (size_t i = 0; i < sizeof used / sizeof used[0]; i++)
        if (!in_range(c->latency[used[i]], 1, 1 << 20))
            return "latencies must be 1..2^20 cycles";
    if (!in_range(c->alu_cycles_per_word, 0, 64) || !in_range(c->sfu_cycles_per_word, 0, 64))
        return "cycles per word must be 0..64";
    if (!in_range(c->launch_latency, 0, 1 << 20))
        return "launch_latency must be 0..2^20";
    if (!in_range(c->tex_units_per_sm, 1, 64) || !in_range(c->tex_queue_depth, 1, 1 << 16) ||
        !in_range(c->tex_lines_per_cycle, 1, 1024))
        return "texture units, queue depth and lines per cycle must be positive";
    if (!in_range(c->tex_hit_latency, 1, 1 << 20) || !in_range(c->tex_miss_latency, 1, 1 << 20) ||
        !in_range(c->mem_latency, 1, 1 << 20) || !in_range(c->ubo_latency, 1, 1 << 20))
        return "texture/memory latencies must be 1..2^20 cycles";
    if (!in_range(c->tex_cache_ways, 1, 64) || !in_range(c->tex_cache_lines, 1, 1 << 20) ||
        c->tex_cache_lines % c->tex_cache_ways != 0)
        return "tex_cache_lines must be a multiple of tex_cache_ways";
    int sets = c->tex_cache_lines / c->tex_cache_ways;
    if (sets & (sets - 1))
        return "tex_cache_lines / tex_cache_ways must be a power of two";
    if (!in_range(c->mem_queue_depth, 1, 1 << 16) || !in_range(c->mem_issue_cycles, 1, 1 << 16))
        return "mem_queue_depth and mem_issue_cycles must be positive";
    return NULL;
}

gm_timing *gm_timing_create(const gm_timing_config *cfg, char *err, size_t err_size)
{
    gm_timing_config def;
    if (!cfg) {
        gm_timing_config_default(&def);
        cfg = &def;
    }
    const char *bad = check_config(cfg);
    if (bad) {
        if (err && err_size)
            snprintf(err, err_size, "timing model: %s", bad);
        return NULL;
    }
    gm_timing *t = calloc(1, sizeof *t);
    if (!t)
        goto oom;
    t->cfg = *cfg;
    t->sms = calloc((size_t)cfg->sm_count, sizeof *t->sms);
    t->qreq = calloc(1, sizeof *t->qreq);
    t->qout = calloc(1, sizeof *t->qout);
    if (!t->sms || !t->qreq || !t->qout)
        goto oom;
    for (int s = 0; s < cfg->sm_count; s++) {
        tm_sm *sm = &t->sms[s];
        sm->slots = calloc((size_t)cfg->warp_slots_per_sm, sizeof *sm->slots);
        sm->sps = calloc((size_t)cfg->subpartitions_per_sm, sizeof *sm->sps);
        sm->tex_free = calloc((size_t)cfg->tex_units_per_sm, sizeof *sm->tex_free);
        sm->tex_out = calloc((size_t)cfg->tex_queue_depth, sizeof *sm->tex_out);
        sm->mem_out = calloc((size_t)cfg->mem_queue_depth, sizeof *sm->mem_out);
        sm->samples = calloc((size_t)cfg->warp_slots_per_sm, sizeof *sm->samples);
        if (!sm->slots || !sm->sps || !sm->tex_free || !sm->tex_out || !sm->mem_out ||
            !sm->samples || tm_cache_init(&sm->cache, cfg->tex_cache_lines, cfg->tex_cache_ways))
            goto oom;
        for (int p = 0; p < cfg->subpartitions_per_sm; p++) {
            sm->sps[p].last_pos = -1;
            for (int pos = 0; pos < TM_MAX_POS; pos++)
                sm->sps[p].rdy[pos] = TM_NEVER; /* no warp: never eligible */
            /* slots p, p + n, p + 2n, ... */
            sm->sps[p].npos = (cfg->warp_slots_per_sm - p + cfg->subpartitions_per_sm - 1) /
                              cfg->subpartitions_per_sm;
        }
    }
    t->total.first_cycle = TM_NEVER;
    return t;
oom:
    gm_timing_destroy(t);
    if (err && err_size)
        snprintf(err, err_size, "timing model: out of memory");
    return NULL;
}

static void free_warp(tm_warp *tw)
{
    free(tw);
}

void gm_timing_destroy(gm_timing *t)
{
    if (!t)
        return;
    if (t->sms) {
        for (int s = 0; s < t->cfg.sm_count; s++) {
            tm_sm *sm = &t->sms[s];
            if (sm->slots)
                for (int i = 0; i < t->cfg.warp_slots_per_sm; i++) {
                    if (sm->slots[i].w) {
                        gm_warp_set_env(sm->slots[i].w->w, &sm->slots[i].w->env);
                        free_warp(sm->slots[i].w);
                    }
                    free(sm->slots[i].ready);
                    free(sm->slots[i].rcls);
                    free(sm->slots[i].tr_pc);
                    free(sm->slots[i].tr_mask);
                    tm_ahead_free(&sm->slots[i]);
                }
            free(sm->slots);
            free(sm->sps);
            free(sm->tex_free);
            free(sm->tex_out);
            free(sm->mem_out);
            free(sm->samples);
            tm_cache_free(&sm->cache);
        }
        free(t->sms);
    }
    for (size_t i = t->q_head; i < t->q_n; i++) {
        gm_warp_set_env(t->queue[i]->w, &t->queue[i]->env);
        free_warp(t->queue[i]);
    }
    free(t->queue);
    while (t->free_warps) {
        tm_warp *next = t->free_warps->next_free;
        free_warp(t->free_warps);
        t->free_warps = next;
    }
    for (int b = 0; b < t->batch_n; b++) {
        free(t->batches[b].tex_ids);
        free(t->batches[b].groups);
        free(t->batches[b].sizes);
    }
    free(t->batches);
    for (int i = 0; i < t->prog_n; i++)
        tm_prog_free(t->progs[i]);
    free(t->progs);
    free(t->qreq);
    free(t->qout);
    free(t);
}

tm_prog *tm_prog_for(gm_timing *t, const gm_program *p)
{
    for (int i = 0; i < t->prog_n; i++)
        if (t->progs[i]->p == p)
            return t->progs[i];
    tm_prog **np = realloc(t->progs, (size_t)(t->prog_n + 1) * sizeof *np);
    if (!np)
        return NULL;
    t->progs = np;
    tm_prog *tp = tm_prog_build(p, &t->cfg, t->barrier_fn, t->barrier_ctx);
    if (!tp)
        return NULL;
    t->progs[t->prog_n++] = tp;
    return tp;
}

void gm_timing_forget_program(gm_timing *t, const gm_program *p)
{
    if (!t)
        return;
    for (int i = 0; i < t->prog_n; i++)
        if (t->progs[i]->p == p) {
            tm_prog_free(t->progs[i]);
            t->progs[i] = t->progs[--t->prog_n];
            return;
        }
}

int gm_timing_batch_begin(gm_timing *t, const gm_timing_batch_desc *d)
{
    if (!t || !d)
        return -1;
    if (d->depends_on < -1 || d->depends_on >= t->batch_n) {
        tm_set_error(t, "batch depends on unknown batch %d", d->depends_on);
        return -1;
    }
    if (d->warps_per_group > t->cfg.warp_slots_per_sm) {
        tm_set_error(t, "workgroup of %d warps does not fit in %d warp slots",
                     d->warps_per_group, t->cfg.warp_slots_per_sm);
        return -1;
    }
    if (d->texture_id_count < 0 || (d->texture_id_count > 0 && !d->texture_ids)) {
        tm_set_error(t, "bad texture id table");
        return -1;
    }
    if (t->batch_n == t->batch_cap) {
        int cap = t->batch_cap ? t->batch_cap * 2 : 16;
        tm_batch *nb = realloc(t->batches, (size_t)cap * sizeof *nb);
        if (!nb) {
            tm_set_error(t, "out of memory");
            return -1;
        }
        t->batches = nb;
        t->batch_cap = cap;
    }
    tm_batch *b = &t->batches[t->batch_n];
    memset(b, 0, sizeof *b);
    b->d = *d;
    if (b->d.warps_per_group < 1)
        b->d.warps_per_group = 1;
    if (d->texture_id_count > 0) {
        b->tex_ids = malloc((size_t)d->texture_id_count * sizeof *b->tex_ids);
        if (!b->tex_ids) {
            tm_set_error(t, "out of memory");
            return -1;
        }
        memcpy(b->tex_ids, d->texture_ids, (size_t)d->texture_id_count * sizeof *b->tex_ids);
    }
    b->d.texture_ids = NULL;
    b->released = !d->held;
    b->st.first_cycle = TM_NEVER;
    return t->batch_n++;
}

static tm_batch *get_batch(gm_timing *t, int batch)
{
    if (!t || batch < 0 || batch >= t->batch_n) {
        if (t)
            tm_set_error(t, "unknown batch %d", batch);
        return NULL;
    }
    return &t->batches[batch];
}

int gm_timing_batch_close(gm_timing *t, int batch)
{
    tm_batch *b = get_batch(t, batch);
    if (!b)
        return -1;
    b->closed = 1;
    if (b->retired == b->submitted)
        b->done = 1;
    return 0;
}

int gm_timing_batch_release(gm_timing *t, int batch)
{
    tm_batch *b = get_batch(t, batch);
    if (!b)
        return -1;
    b->released = 1;
    return 0;
}

/* ---- environment wrapper: sees the texture requests of the issuing instruction ---- */

static uint32_t texture_id(const tm_batch *b, uint32_t unit)
{
    return unit < (uint32_t)b->d.texture_id_count ? b->tex_ids[unit] : unit;
}

/* Texture size at a level (level -1: level count), asked once per batch. */
static int size_query(void *ctx, uint32_t unit, int level, int32_t size[3])
{
    tm_warp *tw = ctx;
    gm_timing *t = tw->t;
    tm_batch *b = &t->batches[tw->batch];
    return tm_size_cached(&b->sizes, &b->size_n, &b->size_cap, &tw->env, t->qreq, t->qout, unit,
                          level, size);
}

static void wrap_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    tm_warp *tw = ctx;
    gm_timing *t = tw->t;
    if ((t->capture == tw || t->ahead == tw) &&
        (req->op == GM_TEX_SAMPLE || req->op == GM_TEX_FETCH || req->op == GM_TEX_GATHER))
        tm_tex_lines(req, texture_id(&t->batches[tw->batch], req->unit), size_query, tw,
                     t->ahead == tw ? tm_ahead_tags(t, tw) : &t->tags);
    if (tw->env.sample)
        tw->env.sample(tw->env.ctx, req, out);
}

static void wrap_image(void *ctx, const gm_image_request *req, gm_texel_out *out)
{
    tm_warp *tw = ctx;
    tw->env.image(tw->env.ctx, req, out);
}

static void *wrap_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    tm_warp *tw = ctx;
    return tw->env.buffer(tw->env.ctx, kind, binding, size);
}

int gm_timing_submit(gm_timing *t, int batch, gm_warp *w, const gm_env *env, void *user)
{
    tm_batch *b = get_batch(t, batch);
    if (!b)
        return -1;
    if (!w) {
        tm_set_error(t, "submit: no warp");
        return -1;
    }
    if (b->closed) {
        tm_set_error(t, "submit to closed batch %d", batch);
        return -1;
    }
    tm_prog *tp = tm_prog_for(t, w->p);
    /* 64-byte aligned: the fields of a scheduler visit share one cache line. */
    tm_warp *tw = t->free_warps; /* a retired warp's memory first */
    if (tw)
        t->free_warps = tw->next_free;
    else
        tw = aligned_alloc(64, (sizeof *tw + 63) / 64 * 64);
    if (tw)
        memset(tw, 0, sizeof *tw);
    if (!tp || !tw) {
        free(tw);
        tm_set_error(t, "out of memory");
        return -1;
    }
    if (t->q_n == t->q_cap) {
        /* Compact consumed entries first, then grow. */
        if (t->q_head > 0) {
            memmove(t->queue, t->queue + t->q_head, (t->q_n - t->q_head) * sizeof *t->queue);
            t->q_n -= t->q_head;
            t->q_head = 0;
        }
        if (t->q_n == t->q_cap) {
            size_t cap = t->q_cap ? t->q_cap * 2 : 256;
            tm_warp **nq = realloc(t->queue, cap * sizeof *nq);
            if (!nq) {
                free(tw);
                tm_set_error(t, "out of memory");
                return -1;
            }
            t->queue = nq;
            t->q_cap = cap;
        }
    }
    tw->t = t;
    tw->w = w;
    tw->warp_id = w->id;
    tw->user = user;
    if (env)
        tw->env = *env;
    tw->batch = batch;
    tw->index = b->submitted++;
    tw->group = b->d.warps_per_group > 1 ? tw->index / b->d.warps_per_group : -1;
    tw->seq = t->seq++;
    tw->tp = tp;
    tw->sm = tw->slot = tw->sp = -1;
    tw->pc = -1;
    tw->tex_ahead = (uint8_t)(t->tex_ahead != 0);
    gm_env wrapped = {tw, wrap_sample, tw->env.image ? wrap_image : NULL,
                      tw->env.buffer ? wrap_buffer : NULL};
    gm_warp_set_env(w, &wrapped);
    t->queue[t->q_n++] = tw;
    b->st.warps++;
    t->total.warps++;
    return 0;
}

void gm_timing_set_retire_callback(gm_timing *t, gm_timing_retire_fn fn, void *ctx)
{
    t->retire_fn = fn;
    t->retire_ctx = ctx;
}

void gm_timing_set_issue_observer(gm_timing *t, gm_timing_issue_fn fn, void *ctx)
{
    t->issue_fn = fn;
    t->issue_ctx = ctx;
}

void gm_timing_set_tex_run_ahead(gm_timing *t, int on)
{
    t->tex_ahead = on;
}

void gm_timing_set_cycle_observer(gm_timing *t, gm_timing_cycle_fn fn, void *ctx)
{
    t->cycle_fn = fn;
    t->cycle_ctx = ctx;
}

void gm_timing_set_mem_observer(gm_timing *t, gm_timing_mem_fn fn, void *ctx)
{
    t->mem_fn = fn;
    t->mem_ctx = ctx;
}

void gm_timing_set_barrier_hook(gm_timing *t, gm_timing_barrier_fn fn, void *ctx)
{
    t->barrier_fn = fn;
    t->barrier_ctx = ctx;
}

gm_timing_status gm_timing_run(gm_timing *t)
{
    if (!t)
        return GM_TIMING_ERROR;
    t->await = NULL;
    return tm_run(t);
}

gm_timing_status gm_timing_run_until(gm_timing *t, const gm_warp *w)
{
    if (!t)
        return GM_TIMING_ERROR;
    int found = 0;
    for (size_t i = t->q_head; i < t->q_n && !found; i++)
        found = t->queue[i]->w == w;
    for (int s = 0; s < t->cfg.sm_count && !found; s++)
        for (int i = 0; i < t->cfg.warp_slots_per_sm && !found; i++)
            found = t->sms[s].slots[i].w && t->sms[s].slots[i].w->w == w;
    if (!found)
        return GM_TIMING_RETIRED; /* not submitted, or already retired */
    t->await = w;
    gm_timing_status st = tm_run(t);
    t->await = NULL;
    return st;
}

uint64_t gm_timing_cycle(const gm_timing *t) { return t ? t->cycle : 0; }

void gm_timing_get_config(const gm_timing *t, gm_timing_config *out)
{
    if (!out)
        return;
    if (t)
        *out = t->cfg;
    else
        gm_timing_config_default(out);
}

int gm_timing_slot_warp(const gm_timing *t, int sm, int slot, gm_timing_resident *out)
{
    if (!t || !out || sm < 0 || sm >= t->cfg.sm_count || slot < 0 ||
        slot >= t->cfg.warp_slots_per_sm)
        return 0;
    const tm_warp *tw = t->sms[sm].slots[slot].w;
    if (!tw)
        return 0;
    *out = (gm_timing_resident){ .warp = tw->w, .user = tw->user, .sm = sm, .slot = slot,
                                 .subpartition = tw->sp, .batch = tw->batch,
                                 .warp_id = tw->warp_id, .warp_seq = tw->seq,
                                 .finished = tw->finished };
    return 1;
}
const char *gm_timing_error(const gm_timing *t) { return t ? t->err : "no timing model"; }

static void finish_stats(const gm_timing_stats *in, gm_timing_stats *out)
{
    *out = *in;
    if (out->first_cycle == TM_NEVER)
        out->first_cycle = 0;
    out->cycles = out->end_cycle > out->first_cycle ? out->end_cycle - out->first_cycle : 0;
}

int gm_timing_batch_stats(const gm_timing *t, int batch, gm_timing_stats *out)
{
    if (!t || !out || batch < 0 || batch >= t->batch_n)
        return -1;
    finish_stats(&t->batches[batch].st, out);
    return 0;
}

void gm_timing_total_stats(const gm_timing *t, gm_timing_stats *out)
{
    if (!t || !out)
        return;
    finish_stats(&t->total, out);
    /* Counted per batch only (per issue and per state change, the scheduler's hottest
     * adds): the total is their sum. */
    for (int b = 0; b < t->batch_n; b++) {
        const gm_timing_stats *s = &t->batches[b].st;
        out->instructions += s->instructions;
        out->lane_instructions += s->lane_instructions;
        for (int i = 0; i < GM_LAT_COUNT; i++)
            out->issued_by_class[i] += s->issued_by_class[i];
        for (int i = 0; i < GM_STALL_COUNT; i++)
            out->stall[i] += s->stall[i];
    }
}
