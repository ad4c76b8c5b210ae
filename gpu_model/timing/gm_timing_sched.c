/* The cycle loop of the timing model: retire, launch, and per SM per sub-partition pick
 * one eligible warp and step it one instruction; every resident warp gets a stall
 * reason every cycle. Cycles in which nothing can change (no issue, no launch, every
 * warp waiting on a known future cycle) are skipped in one step with the same
 * accounting, unless a cycle observer wants to see each of them. A warp whose waits
 * follow from its own clocks is event-driven: touched only at its own issue, its states
 * until the next one computed then (see "event-driven warps" below); a sub-partition of
 * only such warps issues ahead of the cycle loop while nothing outside it can change its
 * picks ("issuing ahead"). Everything iterates in a fixed order (SM, sub-partition, slot),
 * so the schedule is deterministic. */
#include "gm_timing_internal.h"
#include "gm_timing_ahead.h"
#include "gm_exec.h" /* struct gm_warp: next pc, mask and counters read inline per issue */

#include <stdlib.h>
#include <string.h>

#define ELIGIBLE 0xff

/* Something outside a sub-partition's own evaluation changed what its warps see (a launch,
 * a retirement, a released barrier, a new entry in the SM's texture/memory queues): it is
 * evaluated at its next visit, this very cycle if it comes later in the fixed order. */
static void wake_sp(gm_timing *t, int smi, int spi)
{
    if (t->sms[smi].wake[spi] > t->cycle)
        t->sms[smi].wake[spi] = t->cycle;
    if (t->cycle_wake > t->cycle)
        t->cycle_wake = t->cycle; /* it may have been read already this cycle (tm_run) */
}

static void wake_sm(gm_timing *t, int smi)
{
    for (int p = 0; p < t->cfg.subpartitions_per_sm; p++)
        wake_sp(t, smi, p);
}

static int peek_observer(void *ctx, gm_warp *w, const gm_issue *is)
{
    (void)ctx;
    (void)w;
    (void)is;
    return 1; /* pause before the first instruction: its pc and mask become readable */
}

/* Group bookkeeping: release a workgroup's barrier once every live member waits. */
static void barrier_check(gm_timing *t, tm_warp *tw)
{
    tm_batch *b = &t->batches[tw->batch];
    if (tw->group < 0)
        return;
    tm_group *g = &b->groups[tw->group];
    if (g->arrived == 0 || g->arrived + g->finished < g->members)
        return;
    g->arrived = 0;
    tm_sm *sm = &t->sms[tw->sm];
    for (int i = 0; i < t->cfg.warp_slots_per_sm; i++) {
        tm_warp *o = sm->slots[i].w;
        if (o && o->batch == tw->batch && o->group == tw->group && o->at_barrier) {
            o->barrier_go = 1;
            sm->sps[o->sp].known[o->slot / t->cfg.subpartitions_per_sm] = 0;
            wake_sp(t, tw->sm, o->sp);
        }
    }
}

/* gm_warp_pc / gm_warp_active_mask, inline: read once per issued instruction. */
static inline int warp_pc(const gm_warp *w) { return w->done ? -1 : w->pc; }
static inline gm_mask warp_mask(const gm_warp *w) { return w->done || w->pc < 0 ? 0 : w->mask; }

/* Run-ahead. Without an issue observer nobody looks at a warp's registers between its
 * issues, and an instruction that touches only the warp's own registers and control state
 * (tm_pcinfo.private_exec) gives the same results whenever it runs. So when a warp's next
 * instruction is private, the executor runs it and the private ones after it at once, up
 * to the next shared access (texture, memory, barrier, ...) or TM_TRACE_CAP instructions,
 * and records each one's pc and active mask. The scheduler then issues them from the trace
 * at their own cycles with the same accounting (one issue, popcount(mask) lane
 * instructions, the executor's final status with the last one), so the schedule, the
 * statistics and the results are those of stepping one instruction per issue; the warp's
 * register file stays hot instead of being reloaded for every instruction. Shared
 * accesses still execute at their issue, in issue order (texture cache lookups, memory). */
static void run_ahead(gm_timing *t, tm_warp *tw)
{
    if (tw->pre) {   /* this run already ran on another thread (gm_timing_pre.c) */
        tm_pre_adopt(t, tw);
        return;
    }
    int n = 0;
    gm_warp *w = tw->w;
    /* Without an executor observer or lock-step barrier stops every recorded instruction
     * executes once with its recorded mask, so the executor's lane count grows by the sum
     * of the trace's popcounts: the batch gets it now instead of one popcount per issue
     * (statistics are read once the batch's warps retired, by then every entry issued). */
    const int plain = !w->observer && !w->barrier_stop;
    const uint64_t lanes0 = w->lane_instr;
    /* One executor call for the whole run (it records each pc and mask), not one call per
     * instruction: the same instructions and trace as stepping (gm_warp_run_private). */
    if (tw->tex_ahead && plain)   /* across texture instructions too (gm_timing_ahead.c) */
        tw->tr_status = tm_ahead_run(t, tw, &n);
    else
        tw->tr_status = gm_warp_run_private(w, tw->tp->private_pc, TM_TRACE_CAP, tw->tr_pc,
                                            tw->tr_mask, &n);
    tw->tr_head = 0;
    tw->tr_n = n;
    tw->tr_lanes_counted = plain;
    if (plain)
        t->batches[tw->batch].st.lane_instructions += w->lane_instr - lanes0;
}

/* After launch or an issue: what comes next (pc, mask, barrier arrival). */
static void set_next_slow(gm_timing *t, tm_warp *tw)
{
    if (tw->tr_n == 0 && !t->issue_fn)
        run_ahead(t, tw);
    if (tw->tr_n > 0) {
        tw->pc = tw->tr_pc[tw->tr_head];
        tw->mask = tw->tr_mask[tw->tr_head];
    } else {
        tw->pc = warp_pc(tw->w);
        tw->mask = warp_mask(tw->w);
    }
    tw->wait_until = 0;
    tw->ready_cached = 0;
    if (tw->pc < 0 || tw->pc >= tw->tp->p->code_count || !tw->tp->pc[tw->pc].barrier)
        return;
    tw->at_barrier = 1;
    tw->barrier_go = 0;
    if (tw->group < 0) {
        tw->barrier_go = 1;
        return;
    }
    t->batches[tw->batch].groups[tw->group].arrived++;
    barrier_check(t, tw);
}

/* The common case inline: the next instruction is already in the run-ahead trace, whose
 * entries are private (tm_pcinfo.private_exec), so never a barrier. */
static inline void set_next(gm_timing *t, tm_warp *tw)
{
    if (tw->tr_n > 0) {
        tw->pc = tw->tr_pc[tw->tr_head];
        tw->mask = tw->tr_mask[tw->tr_head];
        tw->wait_until = 0;
        tw->ready_cached = 0;
        return;
    }
    set_next_slow(t, tw);
}

static void finish(gm_timing *t, tm_warp *tw, gm_run_status st)
{
    tw->finished = 1;
    t->sms[tw->sm].finished++;
    tw->status = st;
    tw->pc = -1;
    uint64_t r = tw->max_ready > t->cycle + 1 ? tw->max_ready : t->cycle + 1;
    tw->retire_at = r;
    if (r < t->sms[tw->sm].retire_min)
        t->sms[tw->sm].retire_min = r;
    if (st == GM_RUN_ERROR) {
        tm_set_error(t, "warp %d (batch %d): %s", tw->warp_id, tw->batch, gm_warp_error(tw->w));
        t->error_pending = 1;
    }
    if (tw->group >= 0) {
        tm_group *g = &t->batches[tw->batch].groups[tw->group];
        g->finished++;
        if (tw->at_barrier && !tw->barrier_go && g->arrived > 0)
            g->arrived--;
        barrier_check(t, tw);
    }
}

/* Counts the cycles spent in the previous state when the state changes (and at
 * retirement), so a warp waiting many cycles costs nothing per cycle. Inline: a call
 * per state change (about two per issue) cost more than the add. */
static inline __attribute__((always_inline)) void account_at(gm_timing *t, tm_warp *tw,
                                                             uint64_t now)
{
    if (!tw->state_valid)
        return;
    /* Per batch only, like the issue counts (summed in gm_timing_total_stats). */
    t->batches[tw->batch].st.stall[tw->state] += now - tw->state_since;
}

static inline __attribute__((always_inline)) void account(gm_timing *t, tm_warp *tw)
{
    account_at(t, tw, t->cycle);
}

/* ---- queues ---- */

static int queue_count(uint64_t *out, int *n, uint64_t now, uint64_t *earliest)
{
    int k = 0;
    uint64_t e = TM_NEVER;
    for (int i = 0; i < *n; i++)
        if (out[i] > now) {
            out[k++] = out[i];
            if (out[i] < e)
                e = out[i];
        }
    *n = k;
    if (earliest)
        *earliest = e;
    return k;
}

static uint64_t tex_request(gm_timing *t, tm_sm *sm, tm_warp *tw, int query, int *lines_out,
                            int *hits_out)
{
    const gm_timing_config *c = &t->cfg;
    const uint64_t now = t->cycle;
    int lines = 0, hits = 0;
    if (!query) {
        lines = t->tags.count + t->tags.overflow;
        for (int i = 0; i < t->tags.count; i++)
            hits += tm_cache_access(&sm->cache, t->tags.tags[i]);
    }
    int busy = (lines + c->tex_lines_per_cycle - 1) / c->tex_lines_per_cycle;
    if (busy < 1)
        busy = 1;
    int u = 0;
    for (int i = 1; i < c->tex_units_per_sm; i++)
        if (sm->tex_free[i] < sm->tex_free[u])
            u = i;
    uint64_t start = sm->tex_free[u] > now + 1 ? sm->tex_free[u] : now + 1;
    sm->tex_free[u] = start + (uint64_t)busy;
    uint64_t done = start + (uint64_t)busy +
                    (uint64_t)(hits < lines ? c->tex_miss_latency : c->tex_hit_latency);
    queue_count(sm->tex_out, &sm->tex_out_n, now, NULL);
    if (sm->tex_out_n < c->tex_queue_depth)
        sm->tex_out[sm->tex_out_n++] = done;
    wake_sm(t, tw->sm); /* a texture warp elsewhere on the SM may now be throttled */
    gm_timing_stats *s[2] = {&t->batches[tw->batch].st, &t->total};
    for (int i = 0; i < 2; i++) {
        s[i]->tex_requests++;
        s[i]->tex_lines += (uint64_t)lines;
        s[i]->tex_hits += (uint64_t)hits;
        s[i]->tex_misses += (uint64_t)(lines - hits);
    }
    *lines_out = lines;
    *hits_out = hits;
    return done;
}

static uint64_t mem_request(gm_timing *t, tm_sm *sm, tm_warp *tw, int store)
{
    const gm_timing_config *c = &t->cfg;
    const uint64_t now = t->cycle;
    uint64_t start = sm->mem_free > now + 1 ? sm->mem_free : now + 1;
    sm->mem_free = start + (uint64_t)c->mem_issue_cycles;
    uint64_t done = start + (uint64_t)c->mem_latency;
    queue_count(sm->mem_out, &sm->mem_out_n, now, NULL);
    if (sm->mem_out_n < c->mem_queue_depth)
        sm->mem_out[sm->mem_out_n++] = done;
    wake_sm(t, tw->sm);
    gm_timing_stats *s[2] = {&t->batches[tw->batch].st, &t->total};
    for (int i = 0; i < 2; i++) {
        s[i]->mem_requests++;
        s[i]->mem_stores += (uint64_t)store;
    }
    return done;
}

/* ---- eligibility ---- */

/* The scoreboard wait of the warp's next instruction at `now`: the cycle its sources and
 * destination (write-after-write) are written and the reason meanwhile (that of the first
 * word with the latest ready cycle). Its ready cycles change only at the warp's own issue.
 * A result <= now means no wait (the words are then not looked at). */
static inline __attribute__((always_inline)) uint64_t scoreboard_need(const tm_warp *tw,
                                                                      const tm_pcinfo *pi,
                                                                      const uint64_t now,
                                                                      uint8_t *why_out)
{
    uint64_t need = tw->wild_ready;
    uint8_t why = GM_STALL_EXEC_DEPENDENCY;
    if (pi->kind == TM_K_DYN_LOAD || pi->kind == TM_K_DYN_STORE)
        need = need > tw->max_reg_ready ? need : tw->max_reg_ready;
    if (tw->max_reg_ready > now && pi->words_n >= 0) {
        /* The same words in the same order as the ranges below (first maximum wins). */
        const int32_t *wl = tw->tp->words + pi->words_first;
        const uint64_t *ready = tw->ready;
        for (int i = 0; i < pi->words_n; i++)
            if (ready[wl[i]] > need) {
                need = ready[wl[i]];
                why = tw->rcls[wl[i]];
            }
    } else if (tw->max_reg_ready > now) {
        const int32_t *r = tw->tp->ranges + 2 * pi->src_first;
        for (int i = 0; i < pi->chk_count; i++) {
            const int32_t lo = r[2 * i], n = r[2 * i + 1];
            for (int k = lo; k < lo + n; k++)
                if (tw->ready[k] > need) {
                    need = tw->ready[k];
                    why = tw->rcls[k];
                }
        }
    }
    *why_out = why;
    return need;
}

/* Returns ELIGIBLE or the stall reason, and sets tw->until. Inline in both visits of
 * look(): a call per evaluation cost more than the checks of a typical one. */
static inline __attribute__((always_inline)) int evaluate_at(gm_timing *t, tm_sm *sm,
                                                            tm_warp *tw, const uint64_t now)
{
    if (tw->finished) {
        tw->until = tw->retire_at;
        return GM_STALL_DRAINED;
    }
    if (now < tw->wait_until) {
        tw->until = tw->wait_until;
        return tw->wait_state;
    }
    if (now < tw->fetch_ready) {
        tw->wait_until = tw->until = tw->fetch_ready;
        return tw->wait_state = GM_STALL_NO_INSTRUCTION;
    }
    if (now < tw->branch_ready) {
        tw->wait_until = tw->until = tw->branch_ready;
        return tw->wait_state = GM_STALL_BRANCH_RESOLVING;
    }
    if (tw->at_barrier && !tw->barrier_go) {
        tw->until = TM_NEVER;
        return GM_STALL_BARRIER;
    }
    const tm_pcinfo *pi = &tw->tp->pc[tw->pc];
    uint8_t why;
    const uint64_t need = scoreboard_need(tw, pi, now, &why);
    if (need > now) {
        tw->wait_until = tw->until = need;
        /* Everything checked before the scoreboard is settled until the warp's own next
         * issue, so an instruction that needs no queue is eligible once `need` has come:
         * no second evaluation then (the fast path answers ready_cached after the wait). */
        tw->ready_cached = pi->cls != GM_LAT_TEXTURE && pi->cls != GM_LAT_MEMORY;
        return tw->wait_state = why;
    }
    /* Queue space for texture / memory requests. */
    if (pi->cls == GM_LAT_TEXTURE || (pi->cls == GM_LAT_MEMORY && pi->kind != TM_K_UBO_LOAD)) {
        uint64_t e;
        int full = pi->cls == GM_LAT_TEXTURE
                       ? queue_count(sm->tex_out, &sm->tex_out_n, now, &e) >= t->cfg.tex_queue_depth
                       : queue_count(sm->mem_out, &sm->mem_out_n, now, &e) >= t->cfg.mem_queue_depth;
        if (full) {
            tw->until = e;
            return GM_STALL_TEX_THROTTLE;
        }
    }
    /* Only its own issue can make it ineligible again (queues aside). */
    tw->ready_cached = pi->cls != GM_LAT_TEXTURE && pi->cls != GM_LAT_MEMORY;
    tw->until = now + 1;
    return ELIGIBLE;
}

static inline __attribute__((always_inline)) int evaluate(gm_timing *t, tm_sm *sm,
                                                         tm_warp *tw)
{
    return evaluate_at(t, sm, tw, t->cycle);
}

/* ---- issue ---- */

/* When the result of an instruction of a class that needs no shared unit (ALU,
 * transcendental, branch: every private_exec one) issued at `now` is written, and the
 * stall reason of a warp waiting for it (both per PC, tm_pcinfo.private_*); a branch also
 * holds the warp's next fetch. */
static inline __attribute__((always_inline)) uint64_t private_done(tm_warp *tw,
                                                                   const tm_pcinfo *pi,
                                                                   uint64_t now, uint8_t *why)
{
    const uint64_t done = now + pi->private_latency;
    *why = pi->private_why;
    if (pi->cls == GM_LAT_BRANCH)
        tw->branch_ready = done;
    return done;
}

/* The scoreboard after an issue whose results are written at `done`. */
static inline __attribute__((always_inline)) void record_words(tm_warp *tw,
                                                               const tm_pcinfo *pi,
                                                               uint64_t done, uint8_t why)
{
    {
        /* Locals: a store through rcls (uint8_t) may alias anything, which would make the
         * compiler reload pi and tw on every iteration. One to four words (scalars and
         * vectors) written straight: the loop's set-up cost more than those stores. */
        uint64_t *ready = tw->ready + pi->dst;
        uint8_t *rcls = tw->rcls + pi->dst;
        const int n = pi->dst_n;
        switch (n) {
        case 4:
            ready[3] = done;
            rcls[3] = why;
            __attribute__((fallthrough));
        case 3:
            ready[2] = done;
            rcls[2] = why;
            __attribute__((fallthrough));
        case 2:
            ready[1] = done;
            rcls[1] = why;
            __attribute__((fallthrough));
        case 1:
            ready[0] = done;
            rcls[0] = why;
            __attribute__((fallthrough));
        case 0:
            break;
        default:
            for (int k = 0; k < n; k++) {
                ready[k] = done;
                rcls[k] = why;
            }
        }
    }
    if (pi->dst_n > 0 && done > tw->max_reg_ready)
        tw->max_reg_ready = done;
    if (pi->kind == TM_K_DYN_STORE) {
        tw->wild_ready = done;
        if (done > tw->max_reg_ready)
            tw->max_reg_ready = done;
    }
    if (done > tw->max_ready)
        tw->max_ready = done;
}

/* The scoreboard and the port after an issue at `now` (issue_ahead sets the port's issuer
 * once, after its last issue). */
static inline __attribute__((always_inline)) void record_result(tm_sp *sp, tm_warp *tw,
                                                                const tm_pcinfo *pi,
                                                                uint64_t now, uint64_t done,
                                                                uint8_t why)
{
    record_words(tw, pi, done, why);
    sp->busy_until = now + pi->issue_cycles;
    sp->busy_warp = tw;
    sp->last_seq = tw->seq;
}

static gm_timing_status issue(gm_timing *t, int smi, int spi, tm_warp *tw)
{
    tm_sm *sm = &t->sms[smi];
    tm_sp *sp = &sm->sps[spi];
    const tm_pcinfo *pi = &tw->tp->pc[tw->pc];
    tm_batch *b = &t->batches[tw->batch];
    const uint64_t now = t->cycle;
    if (t->issue_fn && !tw->observed) {
        gm_timing_issue ev = {now, smi, spi, tw->slot, tw->batch, b->d.draw, b->d.stage,
                              tw->warp_id, tw->seq, tw->pc, tw->tp->p->code[tw->pc].line,
                              tw->mask, (gm_lat_class)pi->cls, tw->w, tw->user};
        if (t->issue_fn(t->issue_ctx, &ev)) {
            tw->observed = 1;
            t->paused = tw;
            return GM_TIMING_PAUSED;
        }
    }
    tw->observed = 0;
    t->paused = NULL;
    const int texq = pi->cls == GM_LAT_TEXTURE;
    if (texq && pi->kind != TM_K_TEX_QUERY) {
        tm_tagset_reset(&t->tags);
        if (tw->tr_n > 0)
            tm_ahead_lines(t, tw, &t->tags);   /* ran ahead: the lines it recorded then */
        else
            t->capture = tw;
    }
    gm_run_status st;
    uint64_t di, dl;
    if (tw->tr_n > 0) {
        /* Already executed (run-ahead): issue it from the trace. */
        di = 1;
        dl = tw->tr_lanes_counted ? 0 : (uint64_t)gm_popcount32(tw->mask);
        tw->tr_head++;
        tw->tr_n--;
        st = tw->tr_n ? GM_RUN_PAUSED : tw->tr_status;
        if (!tw->tr_n)
            tw->tr_ahead_end = 0; /* the next trace starts at entry 0 */
    } else {
        gm_warp *w = tw->w;
        uint64_t lanes0 = w->lane_instr, issued0 = w->issued;
        st = gm_warp_step(w);
        dl = w->lane_instr - lanes0;
        di = w->issued - issued0;
    }
    t->capture = NULL;
    /* Per batch only: the totals of these are summed over the batches when asked for
     * (gm_timing_total_stats), which saves a second set of adds per issue. */
    b->st.instructions += di;
    b->st.lane_instructions += dl;
    b->st.issued_by_class[pi->cls] += di;
    const gm_timing_config *c = &t->cfg;
    uint64_t done;
    uint8_t why;
    switch (pi->cls) {
    case GM_LAT_BARRIER:
        done = now + (uint64_t)c->latency[GM_LAT_BARRIER];
        why = GM_STALL_EXEC_DEPENDENCY;
        tw->at_barrier = tw->barrier_go = 0;
        break;
    case GM_LAT_TEXTURE: {
        int lines = 0, hits = 0;
        done = tex_request(t, sm, tw, pi->kind == TM_K_TEX_QUERY, &lines, &hits);
        why = GM_STALL_LONG_SCOREBOARD;
        if (t->mem_fn) {
            gm_timing_mem_event ev = {now, done, smi, tw->batch, tw->warp_id, tw->pc, 1, 0,
                                      lines, hits, lines - hits};
            t->mem_fn(t->mem_ctx, &ev);
        }
        break;
    }
    case GM_LAT_MEMORY:
        if (pi->kind == TM_K_UBO_LOAD) {
            done = now + (uint64_t)c->ubo_latency;
            why = GM_STALL_SHORT_SCOREBOARD;
            break;
        }
        done = mem_request(t, sm, tw, pi->kind == TM_K_MEM_STORE);
        why = GM_STALL_LONG_SCOREBOARD;
        if (t->mem_fn) {
            gm_timing_mem_event ev = {now, done, smi, tw->batch, tw->warp_id, tw->pc, 0,
                                      pi->kind == TM_K_MEM_STORE, 0, 0, 0};
            t->mem_fn(t->mem_ctx, &ev);
        }
        break;
    default: /* ALU, transcendental, branch */
        done = private_done(tw, pi, now, &why);
        break;
    }
    record_result(sp, tw, pi, now, done, why);
    if (st == GM_RUN_PAUSED)
        set_next(t, tw);
    else
        finish(t, tw, st);
    return GM_TIMING_IDLE;
}

/* Evaluates a warp and records in the sub-partition's view how long the answer holds: an
 * eligible warp whose next instruction needs no queue until it issues (the issue resets
 * it), a timed wait until it ends, a draining warp until it retires; barrier and queue
 * waits are looked at again every visit. */
static inline __attribute__((always_inline)) uint8_t look(gm_timing *t, tm_sm *sm, tm_sp *sp,
                                                          int pos, tm_warp *tw)
{
    const uint64_t now = t->cycle;
    uint8_t st;
    if (tw->ready_cached && !tw->finished)
        st = ELIGIBLE;
    else
        st = (uint8_t)evaluate(t, sm, tw);
    uint64_t k = 0;
    if (st == ELIGIBLE)
        k = tw->ready_cached ? TM_NEVER : 0;
    else if (tw->finished)
        k = tw->retire_at;
    else if (now < tw->wait_until)
        k = tw->wait_until;
    sp->known[pos] = k;
    sp->kst[pos] = st;
    return st;
}

/* ---- event-driven warps ---- */

/* A warp whose next instruction waits only on its own clocks (tm_pcinfo.timed_wait: no
 * barrier, no queue space) is event-driven: at its issue the scoreboard wait of the next
 * instruction is computed once, and its state in every cycle until its next issue follows
 * from three cycles alone (as a visit in each of those cycles would find it):
 *   t < fetch_ready: no_instruction; t < branch_ready: branch_resolving;
 *   t < sb_need: sb_why; else eligible, i.e. not_selected until it issues.
 * Nothing visits it for its states: they are counted in one step when they become
 * known (make_fast) and at its next issue, and the sub-partition only needs a visit once
 * its port is free and the earliest such warp is eligible (tm_sp.rdy). */
static inline uint8_t fast_state_at(const tm_warp *tw, uint64_t at)
{
    if (at < tw->fetch_ready)
        return GM_STALL_NO_INSTRUCTION;
    if (at < tw->branch_ready)
        return GM_STALL_BRANCH_RESOLVING;
    if (at < tw->sb_need)
        return tw->sb_why;
    return GM_STALL_NOT_SELECTED;
}

/* Whether a warp's waits until its next issue follow from its own clocks alone (the pc of
 * an unfinished warp is valid, as evaluate() assumes). */
static inline int next_is_timed(const tm_warp *tw)
{
    return !tw->finished && tw->tp->pc[tw->pc].timed_wait;
}

/* Makes the warp at `pos` event-driven from cycle `from` (its port cycles end, or its
 * launch): the scoreboard wait of its next instruction, read now (its ready cycles stay
 * as they are until its next issue), and the cycle it becomes eligible. The states until
 * then are known now and counted at once (fetch, branch, scoreboard reason, in the order
 * evaluate() checks them); from then on it is `not_selected` until it issues, counted at
 * its issue from state_since. (So a batch's stall counts may run ahead of the cycle for
 * its resident warps; they are complete once its warps retired, as before.) `stall`: its
 * batch's counts, which the caller has at hand. */
static inline __attribute__((always_inline)) void make_fast(uint64_t *stall, tm_sp *sp, int pos,
                                                            tm_warp *tw, const uint64_t now,
                                                            const uint64_t from,
                                                            const int may_be_slow)
{
    const tm_pcinfo *pi = &tw->tp->pc[tw->pc];
    uint8_t why;
    const uint64_t need = scoreboard_need(tw, pi, now, &why);
    const uint64_t fetch = tw->fetch_ready, branch = tw->branch_ready;
    tw->sb_need = need;
    tw->sb_why = why;
    uint64_t a = from;
    if (fetch > a || branch > a || need > a) {
        if (fetch > a) {
            stall[GM_STALL_NO_INSTRUCTION] += fetch - a;
            a = fetch;
        }
        if (branch > a) {
            stall[GM_STALL_BRANCH_RESOLVING] += branch - a;
            a = branch;
        }
        if (need > a) {
            stall[why] += need - a;
            a = need;
        }
    }
    tw->until = a; /* next_event() */
    tw->state_since = a;
    sp->rdy[pos] = a;
    /* (rarely set: no read-modify-write of it per issue; never in issue_ahead) */
    if (may_be_slow && sp->slow)
        sp->slow &= ~(1ull << pos);
}

/* Makes the warp at `pos` evaluated at visits (its next instruction needs a queue or a
 * barrier, or it finished): its state so far is `s` since `from`; looked at next visit. */
static inline void make_slow(tm_sp *sp, int pos, tm_warp *tw, uint8_t s, uint64_t from)
{
    tw->state = s;
    tw->state_valid = s != TM_NO_STATE;
    tw->state_since = from;
    sp->cur[pos] = s;
    sp->known[pos] = 0;
    sp->rdy[pos] = TM_NEVER;
    sp->slow |= 1ull << pos;
}

/* ---- issuing ahead ---- */

/* Whether the sub-partition's next issues depend on nothing outside it: every position
 * holds an event-driven warp (no slow one: none waits for a queue or a barrier, none
 * finished, so none retires and, with no free slot, nothing launches into it), nobody
 * watches single issues or cycles, and the policy is LRR (what it picks depends on
 * last_pos and rdy[] alone). Then its issue order and cycles up to the next instruction
 * that leaves the run-ahead trace follow from rdy[] and busy_until alone. */
static inline int can_issue_ahead(const gm_timing *t, const tm_sp *sp)
{
    return sp->resident == sp->npos && !t->issue_fn && !t->cycle_fn &&
           t->cfg.policy == GM_SCHED_LRR;
}

/* With slow positions the sub-partition may still issue ahead up to the first cycle one of
 * them can change (the bound returned): each must be in a wait that ends at a known cycle
 * (known[pos], after this visit: a timed wait before a texture/memory/barrier instruction,
 * or a finished warp draining until it retires), not eligible and not the port's issuer.
 * Until the earliest such cycle their states stay what this visit gave them, nothing can
 * launch into the sub-partition (it is full; a finished warp retires only at its cycle),
 * and a released barrier or a new queue entry changes none of their answers (those are
 * looked at again once the wait ends); so LRR's picks among the event-driven positions
 * are those of the visits. `st`: this visit's answers of the slow positions. Returns
 * `now` (no issuing ahead) when one of them does not qualify. */
static inline uint64_t slow_bound(const tm_sp *sp, const uint8_t *st, const uint64_t now)
{
    uint64_t e = TM_NEVER;
    for (uint64_t m = sp->slow; m; m &= m - 1) {
        const int pos = __builtin_ctzll(m);
        const uint64_t k = sp->known[pos];
        if (st[pos] == ELIGIBLE || k <= now)
            return now;
        e = k < e ? k : e;
    }
    return e;
}

/* The trace entries from tr_head on that issue_ahead may issue: a private instruction
 * with another entry after it whose wait is a timed one (the warp stays event-driven).
 * Sets tr_ahead_end to the first entry that is not; returns whether tr_head is. */
static int ahead_stretch(tm_warp *tw)
{
    const tm_pcinfo *pc = tw->tp->pc;
    const int32_t *tr = tw->tr_pc;
    const int end = tw->tr_head + tw->tr_n - 1; /* the last entry is never issued ahead */
    int j = tw->tr_head;
    while (j < end && pc[tr[j]].private_exec && pc[tr[j + 1]].timed_wait)
        j++;
    tw->tr_ahead_end = j;
    return j > tw->tr_head;
}

/* Issues, at their own cycles, the instructions the visits of the coming cycles would
 * issue in this sub-partition (can_issue_ahead), without those visits: at each step the
 * port frees at busy_until, the first cycle it can issue is max(busy_until, earliest rdy),
 * and LRR picks the first position after last_pos due by then, exactly as the visit at
 * that cycle would. Each issue is the trace path of issue() (the instruction already ran:
 * private, nothing shared, no executor call) with the same statistics and stall adds as
 * subpartition_cycle. Stops before an instruction that is the last of its warp's trace
 * (what comes after it is only known once the executor runs on: maybe a shared access,
 * maybe its end), which the visit at that cycle then issues (the sub-partition's wake,
 * computed by the caller from rdy[] and busy_until). Nothing of another sub-partition is
 * read or written but the batch's statistics (sums), so running ahead of the global cycle
 * changes no other visit; a visit woken earlier from outside finds the port busy. */
static void issue_ahead(gm_timing *t, tm_sp *sp, const uint64_t bound)
{
    const int npos = sp->npos;
    int bi = -1;
    gm_timing_stats *bst = NULL;
    tm_warp *last = NULL; /* the port's last issuer (busy_warp, last_seq: set once) */
    for (;;) {
        /* One pass in LRR order: the first position due when the port frees issues then;
         * if none is, the earliest rdy is the cycle, and the first position in that order
         * with it issues (the only ones due then). */
        const uint64_t *rd = sp->rdy;
        const uint64_t free_at = sp->busy_until;
        uint64_t at = TM_NEVER;
        int pos = 0;
        for (int i = 0, p = sp->last_pos; i < npos; i++) {
            p = p + 1 < npos ? p + 1 : 0;
            const uint64_t v = rd[p];
            if (v <= free_at) {
                at = free_at;
                pos = p;
                break;
            }
            if (v < at) {
                at = v;
                pos = p;
            }
        }
        if (at >= bound) /* a slow position may change then (slow_bound) */
            break;
        tm_warp *tw = sp->pw[pos];
        /* Also stops before an entry that is not private (a texture fetch that ran ahead,
         * gm_timing_ahead.c) or one followed by such an entry (the warp then needs the
         * queue: slow, which only the visit makes it): the visit at that cycle issues it.
         * Which entries those are depends on the trace alone: found once per stretch. */
        if (tw->tr_head >= tw->tr_ahead_end && !ahead_stretch(tw))
            break;
        const tm_pcinfo *pi = &tw->tp->pc[tw->pc];
        if (tw->batch != bi) { /* (the positions mostly hold warps of one batch) */
            bi = tw->batch;
            bst = &t->batches[bi].st;
        }
        uint64_t *const stall = bst->stall;
        stall[GM_STALL_NOT_SELECTED] += at - tw->state_since;
        bst->instructions++;
        bst->lane_instructions += tw->tr_lanes_counted ? 0 : (uint64_t)gm_popcount32(tw->mask);
        bst->issued_by_class[pi->cls]++;
        tw->tr_head++;
        tw->tr_n--;
        uint8_t why;
        const uint64_t done = private_done(tw, pi, at, &why);
        record_words(tw, pi, done, why);
        sp->busy_until = at + pi->issue_cycles;
        last = tw;
        sp->last_pos = pos;
        set_next(t, tw); /* the next trace entry: private, so a timed wait */
        stall[GM_STALL_SELECTED] += sp->busy_until - at;
        make_fast(stall, sp, pos, tw, at, sp->busy_until, 0);
    }
    if (last) {
        sp->busy_warp = last;
        sp->last_seq = last->seq;
    }
}

/* One sub-partition for one cycle. Event-driven positions are only read for the pick (is
 * rdy[] due); slow ones are evaluated as before and get their states here. */
static gm_timing_status subpartition_cycle(gm_timing *t, int smi, int spi)
{
    tm_sm *sm = &t->sms[smi];
    tm_sp *sp = &sm->sps[spi];
    const int nsp = t->cfg.subpartitions_per_sm;
    const int npos = sp->npos; /* slots spi, spi + nsp, ... */
    const uint64_t now = t->cycle;
    const int port_busy = sp->busy_until > now;
    tm_warp *chosen = NULL;
    int chosen_pos = -1;
    uint8_t st[TM_MAX_POS];
    /* The caller (tm_run) skips a sub-partition with nothing resident, or that cannot
     * issue or change state before its wake, unless a cycle observer wants every cycle. */
    sm->wake[spi] = TM_NEVER; /* a wake_sp() during this visit (its own issue) lowers it again */
    /* Slow positions whose answer may have changed are looked at; the others keep theirs. */
    for (uint64_t m = sp->slow; m; m &= m - 1) {
        const int pos = __builtin_ctzll(m);
        st[pos] = sp->kst[pos];
        if (now < sp->known[pos])
            continue;
        tm_warp *tw = sp->pw[pos];
        if (!tw->finished && now < tw->wait_until) {
            st[pos] = tw->wait_state; /* known timed wait: nothing to recompute */
            sp->known[pos] = tw->wait_until;
            sp->kst[pos] = st[pos];
        } else {
            st[pos] = look(t, sm, sp, pos, tw);
        }
    }
    const uint64_t slow = sp->slow;
#define ELIGIBLE_AT(pos) \
    ((slow >> (pos)) & 1 ? st[pos] == ELIGIBLE : sp->rdy[pos] <= now)
    if (port_busy) {
        /* The multi-cycle issue of busy_warp holds the port. */
    } else if (t->paused && t->paused->sm == smi && t->paused->sp == spi) {
        chosen = t->paused;
        chosen_pos = (chosen->slot - spi) / nsp;
    } else if (t->cfg.policy == GM_SCHED_GTO) {
        for (int pos = 0; pos < npos; pos++) {
            tm_warp *tw = sp->pw[pos];
            if (!tw || !ELIGIBLE_AT(pos))
                continue;
            if (tw->seq == sp->last_seq) {
                chosen = tw;
                chosen_pos = pos;
                break;
            }
            if (!chosen || tw->seq < chosen->seq) {
                chosen = tw;
                chosen_pos = pos;
            }
        }
    } else if (!slow) {
        /* Every resident warp event-driven (the common case): eligible = rdy due. */
        const uint64_t *rd = sp->rdy;
        for (int i = 1; i <= npos; i++) {
            /* (last_pos + i) mod npos, last_pos in [-1, npos): no division. */
            int pos = sp->last_pos + i;
            if (pos >= npos)
                pos -= npos;
            if (rd[pos] <= now) { /* empty positions: rdy TM_NEVER */
                chosen_pos = pos;
                break;
            }
        }
        if (chosen_pos >= 0)
            chosen = sp->pw[chosen_pos];
    } else {
        for (int i = 1; i <= npos; i++) {
            int pos = sp->last_pos + i;
            if (pos >= npos)
                pos -= npos;
            if (ELIGIBLE_AT(pos)) { /* empty positions: rdy TM_NEVER, not slow */
                chosen = sp->pw[pos];
                chosen_pos = pos;
                break;
            }
        }
    }
#undef ELIGIBLE_AT
    int issued_pc = chosen ? chosen->pc : -1;
    if (chosen) {
        uint64_t *const stall = t->batches[chosen->batch].st.stall;
        /* Its states up to this cycle, before the issue changes the clocks they follow. */
        if ((slow >> chosen_pos) & 1) {
            account(t, chosen);
            chosen->state_since = now;
        } else {
            /* Eligible since state_since (make_fast counted the waits before). */
            stall[GM_STALL_NOT_SELECTED] += now - chosen->state_since;
            chosen->state_since = now; /* (an observer may pause the issue) */
        }
        gm_timing_status r = issue(t, smi, spi, chosen);
        if (r != GM_TIMING_IDLE) {
            sm->wake[spi] = now; /* paused: this visit resumes on the next run */
            return r;
        }
        sp->last_pos = chosen_pos;
        t->any_issue = 1;
        if (next_is_timed(chosen)) {
            /* `selected` while its issue holds the port, then event-driven. */
            stall[GM_STALL_SELECTED] += sp->busy_until - now;
            make_fast(stall, sp, chosen_pos, chosen, now, sp->busy_until, 1);
            if (can_issue_ahead(t, sp)) {
                const uint64_t bound = sp->slow ? slow_bound(sp, st, now) : TM_NEVER;
                if (bound > now)
                    issue_ahead(t, sp, bound);
            }
        } else {
            make_slow(sp, chosen_pos, chosen, GM_STALL_SELECTED, now);
            /* Its next instruction evaluated now, while its scoreboard is in cache. Exact:
             * until its own next issue, what decides its eligibility is fixed except the
             * queues and barriers, and answers that depend on them are not kept (known 0:
             * looked at again next visit). Its state this cycle is `selected` whatever
             * this says; a finished warp drains from the next cycle. */
            if (!chosen->finished)
                (void)look(t, sm, sp, chosen_pos, chosen);
        }
    }
    /* States of the slow positions in this cycle, and the first cycle at which any of them
     * can change. The warp shown `selected`: the issuer, or while the port is busy (then
     * nobody issued) the warp holding it, unless it finished. */
    tm_warp *const sel = chosen ? chosen
                         : port_busy && sp->busy_warp && !sp->busy_warp->finished ? sp->busy_warp
                                                                                  : NULL;
    const uint64_t busy_until = sp->busy_until;
    uint64_t wake = TM_NEVER;
    for (uint64_t m = sp->slow; m; m &= m - 1) {
        const int pos = __builtin_ctzll(m);
        tm_warp *tw = sp->pw[pos];
        uint64_t at;
        uint8_t s;
        if (tw == sel) {
            s = GM_STALL_SELECTED;
            tw->until = busy_until;
            at = tw->finished ? now + 1 : busy_until; /* a finished issuer drains next */
        } else if (st[pos] == ELIGIBLE) {
            s = GM_STALL_NOT_SELECTED;
            /* Stays eligible until it issues (the port frees at busy_until), unless it
             * needs a queue that may fill up: those are looked at every cycle. (Its
             * `until` is only read by next_event(), never while a warp is eligible.) */
            at = sp->known[pos] == TM_NEVER && busy_until > now ? busy_until : now + 1;
        } else {
            s = st[pos];
            /* Timed waits and draining: known[] holds the cycle they end; barrier and
             * queue waits were evaluated this visit (until is fresh). */
            at = sp->known[pos] > now ? sp->known[pos] : tw->until;
        }
        /* The state change, without touching unchanged warps. cur[] mirrors tw->state
         * (TM_NO_STATE from placement until the first), so when it differs the warp's
         * state does too: no second comparison on the warp. */
        if (sp->cur[pos] != s) {
            account(t, tw);
            tw->state = s;
            tw->state_valid = 1;
            tw->state_since = now;
            sp->cur[pos] = s;
        }
        if (at < wake)
            wake = at;
    }
    /* Event-driven positions: the port frees and the earliest of them is eligible. */
    {
        /* Stops at the first one eligible by the time the port frees (the common case in
         * issue-bound frames): the wake is busy_until then whatever the others say. */
        const uint64_t *rd = sp->rdy;
        uint64_t r = TM_NEVER;
        for (int pos = 0; pos < npos; pos++) {
            const uint64_t v = rd[pos];
            if (v <= busy_until) {
                r = busy_until;
                break;
            }
            r = v < r ? v : r;
        }
        if (r != TM_NEVER) {
            if (r < busy_until)
                r = busy_until;
            if (r < wake)
                wake = r;
        }
    }
    if (t->cycle_fn) {
        for (int pos = 0; pos < npos; pos++) {
            tm_warp *tw = sp->pw[pos];
            gm_timing_slot_sample *smp = &sm->samples[spi + pos * nsp];
            smp->resident = tw != NULL;
            if (!tw)
                continue;
            smp->subpartition = spi;
            smp->warp_id = tw->warp_id;
            smp->batch = tw->batch;
            smp->warp_seq = tw->seq;
            smp->pc = tw == chosen ? issued_pc : tw->pc; /* the issuer: what it issued */
            if ((sp->slow >> pos) & 1)
                smp->state = (gm_stall)tw->state;
            else
                smp->state = (gm_stall)(tw == sel ? GM_STALL_SELECTED : fast_state_at(tw, now));
        }
    }
    if (wake < sm->wake[spi])
        sm->wake[spi] = wake;
    return GM_TIMING_IDLE;
}
/* ---- retire and launch ---- */

static void retire_due(gm_timing *t)
{
    for (int s = 0; s < t->cfg.sm_count; s++) {
        tm_sm *sm = &t->sms[s];
        /* A draining warp waits for its last results: no slot scan until the first is due. */
        if (!sm->resident || !sm->finished || sm->retire_min > t->cycle)
            continue;
        uint64_t next_min = TM_NEVER;
        sm->retire_min = TM_NEVER; /* lowered by a finish() during the scan, if any */
        for (int i = 0; i < t->cfg.warp_slots_per_sm; i++) {
            tm_warp *tw = sm->slots[i].w;
            if (!tw || !tw->finished)
                continue;
            if (tw->retire_at > t->cycle) {
                if (tw->retire_at < next_min)
                    next_min = tw->retire_at;
                continue;
            }
            account(t, tw);
            sm->slots[i].w = NULL;
            {
                /* An empty position: skipped by the first pass of subpartition_cycle. */
                tm_sp *psp = &sm->sps[tw->sp];
                const int pos = i / t->cfg.subpartitions_per_sm;
                psp->pw[pos] = NULL;
                psp->known[pos] = TM_NEVER;
                psp->kst[pos] = 0;
                psp->rdy[pos] = TM_NEVER; /* finished warps are slow: already so */
                psp->slow &= ~(1ull << pos);
            }
            sm->resident--;
            sm->finished--;
            sm->sps[tw->sp].resident--;
            t->resident--;
            wake_sp(t, s, tw->sp);
            for (int p = 0; p < t->cfg.subpartitions_per_sm; p++)
                if (sm->sps[p].busy_warp == tw)
                    sm->sps[p].busy_warp = NULL;
            tm_batch *b = &t->batches[tw->batch];
            b->retired++;
            b->st.warps_retired++;
            t->total.warps_retired++;
            b->st.end_cycle = t->cycle;
            t->total.end_cycle = t->cycle;
            if (b->closed && b->retired == b->submitted)
                b->done = 1;
            gm_warp_set_env(tw->w, &tw->env);
            gm_warp_set_observer(tw->w, NULL, NULL);
            if (t->await == tw->w)
                t->await_done = 1;
            if (t->retire_fn)
                t->retire_fn(t->retire_ctx, tw->w, tw->user, tw->batch, tw->status);
            tw->next_free = t->free_warps; /* reused by the next submit */
            t->free_warps = tw;
        }
        if (next_min < sm->retire_min)
            sm->retire_min = next_min;
    }
}

static int ensure_groups(tm_batch *b, int group)
{
    if (group < b->group_count)
        return 0;
    int n = group + 1 > 2 * b->group_count ? group + 1 : 2 * b->group_count;
    tm_group *g = realloc(b->groups, (size_t)n * sizeof *g);
    if (!g)
        return -1;
    memset(g + b->group_count, 0, (size_t)(n - b->group_count) * sizeof *g);
    b->groups = g;
    b->group_count = n;
    return 0;
}

static int place(gm_timing *t, int smi, tm_warp *tw)
{
    tm_sm *sm = &t->sms[smi];
    int slot = 0;
    while (sm->slots[slot].w)
        slot++;
    tm_slot *sl = &sm->slots[slot];
    int nregs = tw->tp->nregs > 0 ? tw->tp->nregs : 1;
    if (sl->cap < nregs) {
        /* Fresh zeroed arrays: stale entries of earlier warps are all <= now anyway. */
        free(sl->ready);
        free(sl->rcls);
        sl->ready = calloc((size_t)nregs, sizeof *sl->ready);
        sl->rcls = calloc((size_t)nregs, 1);
        sl->cap = sl->ready && sl->rcls ? nregs : 0;
        if (!sl->cap)
            return -1;
    }
    if (!sl->tr_pc) {
        sl->tr_pc = malloc(TM_TRACE_CAP * sizeof *sl->tr_pc);
        sl->tr_mask = malloc(TM_TRACE_CAP * sizeof *sl->tr_mask);
        if (!sl->tr_pc || !sl->tr_mask) {
            free(sl->tr_pc);
            free(sl->tr_mask);
            sl->tr_pc = NULL;
            sl->tr_mask = NULL;
            return -1;
        }
    }
    tw->tr_pc = sl->tr_pc;
    tw->tr_mask = sl->tr_mask;
    tw->tr_head = tw->tr_n = tw->tr_ahead_end = 0;
    sl->w = tw;
    tm_sp *psp = &sm->sps[slot % t->cfg.subpartitions_per_sm];
    const int pos = slot / t->cfg.subpartitions_per_sm;
    psp->pw[pos] = tw;
    sm->resident++;
    sm->sps[slot % t->cfg.subpartitions_per_sm].resident++;
    t->resident++;
    wake_sp(t, smi, slot % t->cfg.subpartitions_per_sm);
    tw->sm = smi;
    tw->slot = slot;
    tw->sp = slot % t->cfg.subpartitions_per_sm;
    tw->ready = sl->ready;
    tw->rcls = sl->rcls;
    tw->fetch_ready = t->cycle + (uint64_t)t->cfg.launch_latency;
    tw->branch_ready = tw->wild_ready = tw->max_reg_ready = tw->max_ready = 0;
    tm_batch *b = &t->batches[tw->batch];
    if (b->st.first_cycle == TM_NEVER)
        b->st.first_cycle = t->cycle;
    if (t->total.first_cycle == TM_NEVER)
        t->total.first_cycle = t->cycle;
    if (tw->group >= 0)
        b->groups[tw->group].members++;
    /* Let the executor pick the first block so pc and mask are known before issue (done
     * with the first run-ahead on another thread for a tw->pre warp: gm_timing_pre.c). */
    gm_run_status st;
    if (tw->pre) {
        st = tm_pre_launch(t, tw);
    } else {
        gm_warp_set_observer(tw->w, peek_observer, NULL);
        st = gm_warp_run(tw->w, 0);
        gm_warp_set_observer(tw->w, NULL, NULL);
    }
    if (st == GM_RUN_PAUSED)
        set_next(t, tw);
    else
        finish(t, tw, st);
    /* Its states start now: launch comes before this cycle's visits (wake_sp above). */
    if (next_is_timed(tw))
        make_fast(b->st.stall, psp, pos, tw, t->cycle, t->cycle, 1);
    else
        make_slow(psp, pos, tw, TM_NO_STATE, t->cycle);
    return 0;
}

/* Launches from the head of the queue, at most one warp or workgroup per SM per cycle. */
static int launch(gm_timing *t)
{
    int launched = 0;
    for (int s = 0; s < t->cfg.sm_count; s++)
        t->sms[s].launched = 0;
    while (t->q_head < t->q_n) {
        tm_warp *head = t->queue[t->q_head];
        tm_batch *b = &t->batches[head->batch];
        if (!b->released)
            break;
        if (b->d.depends_on >= 0 && !t->batches[b->d.depends_on].done)
            break;
        int size = 1;
        if (head->group >= 0) {
            int g = b->d.warps_per_group;
            int end = (head->group + 1) * g;
            if (end > b->submitted) {
                if (!b->closed)
                    break; /* the workgroup is not complete yet */
                end = b->submitted;
            }
            size = end - head->index;
            if (ensure_groups(b, head->group) != 0) {
                tm_set_error(t, "out of memory");
                return -1;
            }
        }
        /* Every SM full (the common case while the queue waits): no SM search. The same
         * answer as the search, which finds no SM with `size` free slots then. */
        if (t->resident + size > t->cfg.sm_count * t->cfg.warp_slots_per_sm)
            break;
        int smi = -1;
        for (int i = 0; i < t->cfg.sm_count; i++) {
            int s = (t->next_sm + i) % t->cfg.sm_count;
            if (!t->sms[s].launched && t->cfg.warp_slots_per_sm - t->sms[s].resident >= size) {
                smi = s;
                break;
            }
        }
        if (smi < 0)
            break;
        for (int k = 0; k < size; k++) {
            tm_warp *tw = t->queue[t->q_head++];
            if (place(t, smi, tw) != 0) {
                tm_set_error(t, "out of memory");
                return -1;
            }
        }
        t->sms[smi].launched = 1;
        t->next_sm = (smi + 1) % t->cfg.sm_count;
        launched++;
    }
    return launched;
}

/* Earliest future cycle at which any state can change (idle skip). */
static uint64_t next_event(gm_timing *t)
{
    uint64_t e = TM_NEVER;
    for (int s = 0; s < t->cfg.sm_count; s++) {
        tm_sm *sm = &t->sms[s];
        if (!sm->resident)
            continue;
        for (int i = 0; i < t->cfg.warp_slots_per_sm; i++)
            if (sm->slots[i].w && sm->slots[i].w->until < e)
                e = sm->slots[i].w->until;
        for (int p = 0; p < t->cfg.subpartitions_per_sm; p++)
            if (sm->sps[p].busy_until > t->cycle && sm->sps[p].busy_until < e)
                e = sm->sps[p].busy_until;
        for (int i = 0; i < sm->tex_out_n; i++)
            if (sm->tex_out[i] > t->cycle && sm->tex_out[i] < e)
                e = sm->tex_out[i];
        for (int i = 0; i < sm->mem_out_n; i++)
            if (sm->mem_out[i] > t->cycle && sm->mem_out[i] < e)
                e = sm->mem_out[i];
    }
    return e;
}

gm_timing_status tm_run(gm_timing *t)
{
    const int nsm = t->cfg.sm_count, nsp = t->cfg.subpartitions_per_sm;
    for (;;) {
        if (!t->in_cycle) {
            retire_due(t);
            if (t->error_pending) {
                t->error_pending = 0;
                return GM_TIMING_ERROR;
            }
            if (t->await_done) {
                t->await_done = 0;
                return GM_TIMING_RETIRED;
            }
            int l = launch(t);
            if (l < 0)
                return GM_TIMING_ERROR;
            if (t->resident == 0)
                return t->q_head < t->q_n ? GM_TIMING_BLOCKED : GM_TIMING_IDLE;
            t->any_launch = l > 0;
            t->any_issue = 0;
            t->cur_sm = t->cur_sp = 0;
            t->in_cycle = 1;
            t->cycle_wake = TM_NEVER;
        }
        /* The position in the cycle in locals (kept in t only across a visit, which an
         * observer may pause: the next tm_run resumes at that sub-partition). */
        const uint64_t now = t->cycle;
        uint64_t cw = TM_NEVER; /* the earliest wake of the sub-partitions seen this cycle */
        for (int smi = t->cur_sm, spi = t->cur_sp; smi < nsm; smi++, spi = 0) {
            tm_sm *sm = &t->sms[smi];
            if (sm->resident) {
                const uint64_t *wk = sm->wake;
                for (; spi < nsp; spi++) {
                    /* Nothing can issue or change state before its wake (computed at the
                     * end of its last visit; TM_NEVER once empty): skip it without setting
                     * up a visit. The cycle observer sees every cycle, so it disables this. */
                    if (wk[spi] <= now || t->cycle_fn) {
                        t->cur_sm = smi;
                        t->cur_sp = spi;
                        gm_timing_status r = subpartition_cycle(t, smi, spi);
                        if (r != GM_TIMING_IDLE) {
                            if (cw < t->cycle_wake)
                                t->cycle_wake = cw;
                            return r;
                        }
                    }
                    /* Gathered here instead of in a second pass (a later wake_sp() lowers
                     * t->cycle_wake too). */
                    if (wk[spi] < cw)
                        cw = wk[spi];
                }
            } else if (t->cycle_fn) {
                for (int i = 0; i < t->cfg.warp_slots_per_sm; i++)
                    sm->samples[i].resident = 0;
            }
            if (t->cycle_fn)
                t->cycle_fn(t->cycle_ctx, now, smi, sm->samples, t->cfg.warp_slots_per_sm);
        }
        t->cur_sm = nsm;
        t->cur_sp = 0;
        if (cw < t->cycle_wake)
            t->cycle_wake = cw;
        t->in_cycle = 0;
        uint64_t next = t->cycle + 1;
        /* Jump to the first cycle at which any sub-partition can issue or change a warp's
         * state; the cycles in between would change nothing (stall accounting is lazy),
         * so the schedule and statistics are those of visiting every cycle. Not while the
         * front end may launch again next cycle, a cycle observer wants every cycle, or an
         * error is to be reported. */
        if (!t->cycle_fn && !t->error_pending && !(t->any_launch && t->q_head < t->q_n)) {
            uint64_t e = t->cycle_wake; /* the earliest sub-partition wake */
            if (e == TM_NEVER && !t->any_issue && !t->any_launch) {
                e = next_event(t); /* only timers outside the warps are left */
                if (e == TM_NEVER) {
                    tm_set_error(t, "deadlock at cycle %llu: every resident warp waits forever "
                                    "(a workgroup barrier not reached by all its warps?)",
                                 (unsigned long long)t->cycle);
                    return GM_TIMING_ERROR;
                }
            }
            if (e != TM_NEVER && e > next)
                next = e;
        }
        t->cycle = next;
    }
}
