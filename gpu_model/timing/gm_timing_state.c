/* Copying the timing model's state between two models at a point where none of its warps is in
 * flight (the frame runner drains it at every draw's end): what a later draw can observe of the
 * earlier ones is the clock, the issue sequence, the SM the next warp goes to, each SM's texture
 * cache (hits change latencies, and so which warp issues when), its texture/memory unit free
 * cycles, the schedulers' last issuers, the batch numbering and statistics, and the totals. A
 * debugger checkpoint (debugger/dbg_runner_ckpt.c) keeps such a copy so that a pass started at
 * that draw interleaves its warps exactly as a pass from the frame's first draw does.
 *
 * Not copied: the per-program data (tm_prog, built on first use from a gm_program pointer, which
 * differs between runners; it is static data of the program), the callbacks (the owner's), and
 * each slot's scratch arrays (launch treats their stale entries as already past). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "gm_timing_internal.h"

static int drained(const gm_timing *t)
{
    if (t->resident || t->q_n > t->q_head || t->paused || t->capture || t->await)
        return false;
    for (int s = 0; s < t->cfg.sm_count; s++) {
        const tm_sm *sm = &t->sms[s];
        if (sm->resident)
            return false;
        for (int p = 0; p < t->cfg.subpartitions_per_sm; p++) {
            if (sm->sps[p].busy_warp)
                return false;
            for (int k = 0; k < TM_MAX_POS; k++)
                if (sm->sps[p].pw[k])
                    return false;
        }
    }
    return true;
}

static void *dup_n(const void *src, size_t n)
{
    if (!src || !n)
        return NULL;
    void *d = malloc(n);
    if (d)
        memcpy(d, src, n);
    return d;
}

int gm_timing_drained(const gm_timing *t)
{
    return t && drained(t);
}

int gm_timing_copy_state(gm_timing *dst, const gm_timing *src)
{
    if (!dst || !src || !drained(src) || !drained(dst) ||
        memcmp(&dst->cfg, &src->cfg, sizeof dst->cfg) != 0)
        return -1;
    /* Batches first (the only allocation that can fail halfway). */
    tm_batch *nb = src->batch_cap ? calloc((size_t)src->batch_cap, sizeof *nb) : NULL;
    if (src->batch_cap && !nb)
        return -1;
    for (int b = 0; b < src->batch_n; b++) {
        const tm_batch *sb = &src->batches[b];
        nb[b] = *sb;
        nb[b].tex_ids = dup_n(sb->tex_ids, (size_t)sb->d.texture_id_count * sizeof *sb->tex_ids);
        nb[b].groups = dup_n(sb->groups, (size_t)sb->group_count * sizeof *sb->groups);
        nb[b].sizes = dup_n(sb->sizes, (size_t)sb->size_cap * sizeof *sb->sizes);
        if ((sb->tex_ids && sb->d.texture_id_count && !nb[b].tex_ids) || (sb->groups && sb->group_count && !nb[b].groups) ||
            (sb->sizes && sb->size_cap && !nb[b].sizes)) {
            for (int k = 0; k <= b; k++) {
                free(nb[k].tex_ids);
                free(nb[k].groups);
                free(nb[k].sizes);
            }
            free(nb);
            return -1;
        }
    }
    for (int b = 0; b < dst->batch_n; b++) {
        free(dst->batches[b].tex_ids);
        free(dst->batches[b].groups);
        free(dst->batches[b].sizes);
    }
    free(dst->batches);
    dst->batches = nb;
    dst->batch_n = src->batch_n;
    dst->batch_cap = src->batch_cap;
    const gm_timing_config *c = &src->cfg;
    for (int s = 0; s < c->sm_count; s++) {
        tm_sm *d = &dst->sms[s];
        const tm_sm *o = &src->sms[s];
        d->resident = o->resident;
        d->finished = o->finished;
        d->retire_min = o->retire_min;
        d->launched = o->launched;
        size_t lines = (size_t)o->cache.sets * (size_t)o->cache.ways;
        memcpy(d->cache.tag, o->cache.tag, lines * sizeof *d->cache.tag);
        memcpy(d->cache.stamp, o->cache.stamp, lines * sizeof *d->cache.stamp);
        d->cache.clock = o->cache.clock;
        memcpy(d->tex_free, o->tex_free, (size_t)c->tex_units_per_sm * sizeof *d->tex_free);
        memcpy(d->tex_out, o->tex_out, (size_t)c->tex_queue_depth * sizeof *d->tex_out);
        d->tex_out_n = o->tex_out_n;
        d->mem_free = o->mem_free;
        memcpy(d->mem_out, o->mem_out, (size_t)c->mem_queue_depth * sizeof *d->mem_out);
        d->mem_out_n = o->mem_out_n;
        memcpy(d->samples, o->samples, (size_t)c->warp_slots_per_sm * sizeof *d->samples);
        /* pw[] and busy_warp are all NULL in both (drained) */
        memcpy(d->sps, o->sps, (size_t)c->subpartitions_per_sm * sizeof *d->sps);
        memcpy(d->wake, o->wake, sizeof d->wake);
    }
    dst->q_head = dst->q_n = 0;
    dst->cycle = src->cycle;
    dst->seq = src->seq;
    dst->next_sm = src->next_sm;
    dst->resident = src->resident;
    dst->in_cycle = src->in_cycle;
    dst->cur_sm = src->cur_sm;
    dst->cur_sp = src->cur_sp;
    dst->any_issue = src->any_issue;
    dst->any_launch = src->any_launch;
    dst->await_done = src->await_done;
    dst->error_pending = src->error_pending;
    memcpy(dst->err, src->err, sizeof dst->err);
    dst->tags = src->tags;
    dst->total = src->total;
    return 0;
}

size_t gm_timing_state_bytes(const gm_timing *t)
{
    if (!t)
        return 0;
    const gm_timing_config *c = &t->cfg;
    size_t per_sm = (size_t)c->tex_cache_lines * 16 + (size_t)c->tex_units_per_sm * 8 +
                    (size_t)(c->tex_queue_depth + c->mem_queue_depth) * 8 +
                    (size_t)c->warp_slots_per_sm * (sizeof(gm_timing_slot_sample) + sizeof(tm_slot)) +
                    (size_t)c->subpartitions_per_sm * sizeof(tm_sp);
    size_t b = (size_t)t->batch_cap * sizeof(tm_batch);
    for (int i = 0; i < t->batch_n; i++)
        b += (size_t)t->batches[i].d.texture_id_count * 4 + (size_t)t->batches[i].group_count * sizeof(tm_group) +
             (size_t)t->batches[i].size_cap * sizeof(tm_texsize);
    return sizeof *t + (size_t)c->sm_count * (sizeof(tm_sm) + per_sm) + b;
}
