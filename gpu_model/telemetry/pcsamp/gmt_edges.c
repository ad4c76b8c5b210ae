/* Edge profiles from sampled taken-branch traces: per-slot rings and counters, exact edge
 * counting, sampling and the rebuild of branch traces from the code layout. Outputs are in
 * gmt_edges_report.c. See gmt_edges.h and DESIGN.md in this folder. */
#include <stdlib.h>
#include <string.h>

#include "gmt_edges_internal.h"

void gmt_edges_default_config(gmt_edges_config *c)
{
    memset(c, 0, sizeof *c);
    c->period = 1000;
    c->random_delta = 0;
    c->seed = 1;
    c->keep = 16;
    c->counter = GMT_EDGES_COUNT_PER_SLOT;
    c->exact = true;
}

static uint64_t first_sample(const gmt_edges_config *cfg, uint64_t counter_index)
{
    if (!cfg->period)
        return UINT64_MAX;
    return 1 + gmt_mix64(cfg->seed * 0x2545f4914f6cdd1dull ^ (counter_index + 1)) % cfg->period;
}

gmt_edges *gmt_edges_create(const gmt_edges_config *cfg, const gm_timing_config *tc, char *err,
                            size_t err_size)
{
    gmt_edges_config def;
    if (!cfg) {
        gmt_edges_default_config(&def);
        cfg = &def;
    }
    gm_timing_config tdef;
    if (!tc) {
        gm_timing_config_default(&tdef);
        tc = &tdef;
    }
    if (cfg->keep < 1 || cfg->keep > GMT_EDGES_MAX_KEEP) {
        snprintf(err, err_size, "edge profile: kept branches per sample must be 1..%d (got %d)",
                 GMT_EDGES_MAX_KEEP, cfg->keep);
        return NULL;
    }
    if (cfg->period && cfg->random_delta >= cfg->period) {
        snprintf(err, err_size, "edge profile: random delta %u must be below the period %u",
                 cfg->random_delta, cfg->period);
        return NULL;
    }
    if (!cfg->period && !cfg->exact) {
        snprintf(err, err_size, "edge profile: neither sampling (period 0) nor exact counting");
        return NULL;
    }
    if (cfg->counter != GMT_EDGES_COUNT_PER_SLOT && cfg->counter != GMT_EDGES_COUNT_PER_SM) {
        snprintf(err, err_size, "edge profile: counter scope %d is not per_slot or per_sm",
                 (int)cfg->counter);
        return NULL;
    }
    if (tc->sm_count < 1 || tc->warp_slots_per_sm < 1) {
        snprintf(err, err_size, "timing configuration has no SMs or warp slots");
        return NULL;
    }
    gmt_edges *e = calloc(1, sizeof *e);
    if (!e || !(e->slots = calloc((size_t)tc->sm_count * (size_t)tc->warp_slots_per_sm,
                                  sizeof *e->slots))) {
        free(e);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    e->cfg = *cfg;
    e->nsm = tc->sm_count;
    e->nslots = tc->warp_slots_per_sm;
    e->sm_count = calloc((size_t)e->nsm, sizeof *e->sm_count);
    if (!e->sm_count) {
        gmt_edges_destroy(e);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    /* Each counter starts at a pseudo-random phase in [1, B]: counters that all started at 0
     * would sample at the same moments of the frame (all slots reach B together) and favour
     * the shaders running then. */
    for (int i = 0; i < e->nsm * e->nslots; i++)
        e->slots[i].count.next_sample = first_sample(cfg, (uint64_t)i);
    for (int i = 0; i < e->nsm; i++)
        e->sm_count[i].next_sample = first_sample(cfg, (uint64_t)i);
    return e;
}

void gmt_edges_destroy(gmt_edges *e)
{
    if (!e)
        return;
    for (int i = 0; i < e->progs.n && i < e->prof_cap; i++) {
        free(e->prof[i].edges);
        free(e->prof[i].index);
        free(e->prof[i].blocks);
    }
    free(e->prof);
    free(e->order);
    gmt_progs_free(&e->progs);
    free(e->sm_count);
    free(e->slots);
    free(e);
}

/* ---- edge table ---- */

static uint32_t edge_hash(int from, int to)
{
    return (uint32_t)gmt_mix64(((uint64_t)(uint32_t)from << 32) | (uint32_t)to);
}

static int grow_index(gmt_eprof *p)
{
    int cap = p->index_cap ? p->index_cap * 2 : 64;
    int *ix = calloc((size_t)cap, sizeof *ix);
    if (!ix)
        return -1;
    for (int i = 0; i < p->n; i++) {
        uint32_t h = edge_hash(p->edges[i].from, p->edges[i].to) & (uint32_t)(cap - 1);
        while (ix[h])
            h = (h + 1) & (uint32_t)(cap - 1);
        ix[h] = i + 1;
    }
    free(p->index);
    p->index = ix;
    p->index_cap = cap;
    return 0;
}

/* Kind of the transition from_pc -> to_pc of a program (block-level facts only, so an edge's
 * kind does not depend on which traversal created it). */
static gmt_edge_kind classify(const gmt_prog *g, int from_pc, int to_pc)
{
    if (from_pc < 0)
        return GMT_EDGE_ENTRY;
    if (to_pc < 0)
        return GMT_EDGE_EXIT;
    int u = g->block_of[from_pc], v = g->block_of[to_pc];
    int at_start = v >= 0 && g->blocks[v].first_pc == to_pc;
    if (!(g->flags[from_pc] & GMT_PC_TERMINATOR))
        return at_start && u >= 0 && g->blocks[u].func != g->blocks[v].func ? GMT_EDGE_CALL
                                                                          : GMT_EDGE_RECONVERGE;
    if (!at_start)
        return GMT_EDGE_RETURN;
    if (u >= 0)
        for (int i = 0; i < g->blocks[u].n_succ; i++)
            if (g->blocks[u].succ[i] == v)
                return v == u + 1 ? GMT_EDGE_FALLTHROUGH : GMT_EDGE_BRANCH;
    return GMT_EDGE_RECONVERGE;
}

/* The edge from_pc -> to_pc of program `prog` (created on first use), or NULL. */
static gmt_edge *edge_at(gmt_edges *e, int prog, int from_pc, int to_pc)
{
    const gmt_prog *g = e->progs.v[prog];
    gmt_eprof *p = &e->prof[prog];
    int from = from_pc < 0 ? GMT_EDGES_ENTRY : g->block_of[from_pc];
    int to = to_pc < 0 ? GMT_EDGES_EXIT : g->block_of[to_pc];
    if (p->index_cap) {
        uint32_t m = (uint32_t)(p->index_cap - 1), h = edge_hash(from, to) & m;
        for (; p->index[h]; h = (h + 1) & m) {
            gmt_edge *x = &p->edges[p->index[h] - 1];
            if (x->from == from && x->to == to)
                return x;
        }
    }
    if ((p->n + 1) * 2 > p->index_cap && grow_index(p) != 0)
        return NULL;
    if (p->n == p->cap) {
        int cap = p->cap ? p->cap * 2 : 16;
        gmt_edge *v = realloc(p->edges, (size_t)cap * sizeof *v);
        if (!v)
            return NULL;
        p->edges = v;
        p->cap = cap;
    }
    gmt_edge *x = &p->edges[p->n];
    memset(x, 0, sizeof *x);
    x->from = from;
    x->to = to;
    x->kind = classify(g, from_pc, to_pc);
    uint32_t m = (uint32_t)(p->index_cap - 1), h = edge_hash(from, to) & m;
    while (p->index[h])
        h = (h + 1) & m;
    p->index[h] = ++p->n;
    return x;
}

/* ---- rebuilding a sampled trace ---- */

typedef struct trace_ent {
    int prog, from_pc, to_pc;
} trace_ent;

/* Fall-through branches crossed running straight from pc a to pc b of one program, newest
 * first, into out (at most max). Returns the count, or -1 when b < a (inconsistent). */
static int walk_back(const gmt_prog *g, int prog, int a, int b, trace_ent *out, int max)
{
    if (a < 0 || b < a || b >= g->pc_count)
        return -1;
    int n = 0;
    for (int k = g->block_of[b]; k > 0 && n < max && g->blocks[k].first_pc > a; k--)
        out[n++] = (trace_ent){prog, g->blocks[k].first_pc - 1, g->blocks[k].first_pc};
    return n;
}

/* Rebuilds the last C branches of a slot's trace ending at the current PC and adds them to
 * the sampled profiles. */
static void take_sample(gmt_edges *e, gmt_slot *s)
{
    int C = e->cfg.keep;
    trace_ent buf[GMT_EDGES_MAX_KEEP];
    int n = 0;
    e->st.samples++;
    /* Position after the newest branch: the current warp's PC, or the end of the previous
     * warp (its exit is the newest ring entry then). */
    int pos_prog = s->prog, pos_pc = s->live ? s->last_pc : -1;
    for (int i = 0; i < s->ring_n && n < C; i++) {
        const gmt_ring_ent *r = &s->ring[(s->ring_head - 1 - i + 2 * GMT_EDGES_RING) %
                                         GMT_EDGES_RING];
        /* fall-throughs between this entry's target and the position after it */
        if (r->to_pc >= 0) {
            if (pos_pc < 0 || r->prog != pos_prog) {
                e->st.rebuild_failed++;
                return;
            }
            int k = walk_back(e->progs.v[r->prog], r->prog, r->to_pc, pos_pc, buf + n, C - n);
            if (k < 0) {
                e->st.rebuild_failed++;
                return;
            }
            n += k;
        } else if (pos_pc >= 0) {
            e->st.rebuild_failed++; /* a warp end followed by code without a launch */
            return;
        }
        if (n >= C)
            break;
        if (r->from_pc >= 0) /* a taken branch (a launch marker is not a branch) */
            buf[n++] = (trace_ent){r->prog, r->from_pc, r->to_pc};
        pos_prog = r->prog;
        pos_pc = r->from_pc;
    }
    /* The ring held the whole history of the slot when it never wrapped: the fall-throughs
     * from the first launch are in it. Otherwise the window is as far as the ring reaches. */
    for (int i = 0; i < n; i++) {
        gmt_edge *x = edge_at(e, buf[i].prog, buf[i].from_pc, buf[i].to_pc);
        if (!x) {
            e->oom = 1;
            return;
        }
        x->sampled++;
    }
    e->st.kept += (uint64_t)n;
}

static void ring_push(gmt_slot *s, int prog, int from_pc, int to_pc)
{
    s->ring[s->ring_head] = (gmt_ring_ent){prog, from_pc, to_pc};
    s->ring_head = (s->ring_head + 1) % GMT_EDGES_RING;
    if (s->ring_n < GMT_EDGES_RING)
        s->ring_n++;
}

static void schedule_next(gmt_edges *e, gmt_bcounter *c, int counter_index)
{
    uint64_t step = e->cfg.period;
    if (e->cfg.random_delta) {
        uint64_t d = e->cfg.random_delta;
        uint64_t r = gmt_mix64(e->cfg.seed ^
                               gmt_mix64(((uint64_t)counter_index << 40) ^ c->nsamples));
        step = step - d + r % (2 * d + 1);
    }
    c->nsamples++;
    c->next_sample = c->counter + step;
}

/* One retired branch of the slot's warp: from_pc -> to_pc (-1: warp end). */
static void branch(gmt_edges *e, gmt_slot *s, int slot_index, int from_pc, int to_pc)
{
    int taken = to_pc != from_pc + 1;
    e->st.branches++;
    if (e->cfg.exact) {
        gmt_edge *x = edge_at(e, s->prog, from_pc, to_pc);
        if (x)
            x->exact++;
        else
            e->oom = 1;
    }
    if (!e->cfg.period)
        return;
    if (taken) {
        e->st.taken++;
        ring_push(s, s->prog, from_pc, to_pc);
    }
    int ci = e->cfg.counter == GMT_EDGES_COUNT_PER_SM ? slot_index / e->nslots : slot_index;
    gmt_bcounter *c = e->cfg.counter == GMT_EDGES_COUNT_PER_SM ? &e->sm_count[ci] : &s->count;
    c->counter++;
    if (c->counter >= c->next_sample) {
        take_sample(e, s);
        schedule_next(e, c, ci);
    }
}

static void end_warp(gmt_edges *e, gmt_slot *s, int slot_index)
{
    if (!s->live)
        return;
    int last = s->last_pc;
    s->live = 0;
    branch(e, s, slot_index, last, -1);
}

static void end_all(gmt_edges *e)
{
    for (int i = 0; i < e->nsm * e->nslots; i++)
        end_warp(e, &e->slots[i], i);
}

static int ensure_prof(gmt_edges *e, int prog)
{
    if (prog < e->prof_cap)
        return 0;
    int cap = e->prof_cap ? e->prof_cap * 2 : 16;
    while (cap <= prog)
        cap *= 2;
    gmt_eprof *v = realloc(e->prof, (size_t)cap * sizeof *v);
    if (!v)
        return -1;
    memset(v + e->prof_cap, 0, (size_t)(cap - e->prof_cap) * sizeof *v);
    e->prof = v;
    e->prof_cap = cap;
    return 0;
}

/* ---- hooks ---- */

static void on_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)cycle;
    gmt_edges *e = ctx;
    if (ev->kind == GMF_EV_DRAW) {
        e->cur_ctx = ev->ctx_id;
        e->cur_prog = ev->program;
    }
}

/* The frame runner runs a draw's warps to completion before it ends: every warp has ended. */
static void on_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)ev;
    (void)cycle;
    gmt_edges *e = ctx;
    if (!e->finished)
        end_all(e);
}

static void on_issue(void *ctx, const gm_timing_issue *ev)
{
    gmt_edges *e = ctx;
    if (e->finished)
        return;
    if (ev->sm < 0 || ev->sm >= e->nsm || ev->slot < 0 || ev->slot >= e->nslots) {
        e->bad_events++;
        return;
    }
    int si = ev->sm * e->nslots + ev->slot;
    gmt_slot *s = &e->slots[si];
    if (s->live && s->warp_seq == ev->warp_seq) {
        const gmt_prog *g = e->progs.v[s->prog];
        int prev = s->last_pc, cur = ev->pc;
        if (cur < 0 || cur >= g->pc_count) {
            e->bad_events++;
            return;
        }
        s->last_pc = cur; /* a sample taken at this branch rebuilds up to here */
        if (cur != prev + 1 || (g->flags[prev] & GMT_PC_BRANCH))
            branch(e, s, si, prev, cur);
        return;
    }
    /* A new warp in the slot: the previous one has retired. */
    end_warp(e, s, si);
    const gm_program *p = gmt_warp_program(ev->warp);
    int prog = p ? gmt_progs_get(&e->progs, p, e->cur_ctx, e->cur_prog) : -1;
    if (prog < 0 || ensure_prof(e, prog) != 0) {
        if (p)
            e->oom = 1;
        e->bad_events++;
        return;
    }
    if (ev->pc < 0 || ev->pc >= e->progs.v[prog]->pc_count) {
        e->bad_events++;
        return;
    }
    s->live = 1;
    s->warp_seq = ev->warp_seq;
    s->prog = prog;
    s->last_pc = ev->pc;
    e->st.warps++;
    if (e->cfg.exact) {
        gmt_edge *x = edge_at(e, prog, -1, ev->pc);
        if (x)
            x->exact++;
        else
            e->oom = 1;
    }
    if (e->cfg.period)
        ring_push(s, prog, -1, ev->pc);
}

void gmt_edges_hooks(gmt_edges *e, gmf_hooks *out)
{
    memset(out, 0, sizeof *out);
    out->ctx = e;
    out->draw_begin = on_draw_begin;
    out->draw_end = on_draw_end;
    out->issue = on_issue;
}

static int cmp_edge(const void *a, const void *b)
{
    const gmt_edge *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    return x->to < y->to ? -1 : x->to > y->to;
}

void gmt_edges_finish(gmt_edges *e, uint64_t end_cycle)
{
    (void)end_cycle;
    if (e->finished)
        return;
    end_all(e);
    e->finished = 1;
    e->st.scale = e->st.kept ? (double)e->st.branches / (double)e->st.kept : 0.0;
    for (int i = 0; i < e->progs.n; i++) {
        gmt_eprof *p = &e->prof[i];
        const gmt_prog *g = e->progs.v[i];
        qsort(p->edges, (size_t)p->n, sizeof *p->edges, cmp_edge);
        free(p->index); /* the order changed; lookups are over */
        p->index = NULL;
        p->index_cap = 0;
        for (int k = 0; k < p->n; k++)
            p->edges[k].estimate = (double)p->edges[k].sampled * e->st.scale;
        /* ENTRY edges are not branches, so never sampled: estimate them by flow conservation at
         * the block they enter (estimated out-edges minus the other estimated in-edges). */
        for (int k = 0; k < p->n; k++) {
            gmt_edge *x = &p->edges[k];
            if (x->kind != GMT_EDGE_ENTRY)
                continue;
            double in = 0, out = 0;
            for (int j = 0; j < p->n; j++) {
                if (j != k && p->edges[j].to == x->to)
                    in += p->edges[j].estimate;
                if (p->edges[j].from == x->to)
                    out += p->edges[j].estimate;
            }
            x->estimate = out > in ? out - in : 0.0;
        }
        p->blocks = calloc((size_t)(g->block_count ? g->block_count : 1), sizeof *p->blocks);
        if (!p->blocks) {
            e->oom = 1;
            continue;
        }
        for (int b = 0; b < g->block_count; b++) {
            p->blocks[b].first_pc = g->blocks[b].first_pc;
            p->blocks[b].last_pc = g->blocks[b].last_pc;
            p->blocks[b].line_min = g->blocks[b].line_min;
            p->blocks[b].line_max = g->blocks[b].line_max;
            int f = g->blocks[b].func;
            p->blocks[b].function = f >= 0 && f < g->func_count ? g->funcs[f] : NULL;
        }
    }
    e->order = malloc((size_t)(e->progs.n ? e->progs.n : 1) * sizeof *e->order);
    if (!e->order) {
        e->oom = 1;
        return;
    }
    for (int i = 0; i < e->progs.n; i++) {
        int j = i;
        e->order[i] = i;
        while (j > 0 && gmt_prog_cmp(e->progs.v[e->order[j]], e->progs.v[e->order[j - 1]]) < 0) {
            int t = e->order[j];
            e->order[j] = e->order[j - 1];
            e->order[j - 1] = t;
            j--;
        }
    }
}

void gmt_edges_get_stats(const gmt_edges *e, gmt_edges_stats *out)
{
    *out = e->st;
    if (!e->finished)
        out->scale = e->st.kept ? (double)e->st.branches / (double)e->st.kept : 0.0;
}

double gmt_edges_error(const gmt_edges *e)
{
    if (!e->cfg.exact || !e->st.kept)
        return -1.0;
    double scale = (double)e->st.branches / (double)e->st.kept;
    double num = 0, den = 0;
    for (int i = 0; i < e->progs.n; i++)
        for (int k = 0; k < e->prof[i].n; k++) {
            const gmt_edge *x = &e->prof[i].edges[k];
            if (x->kind == GMT_EDGE_ENTRY)
                continue;
            double est = (double)x->sampled * scale;
            num += est > (double)x->exact ? est - (double)x->exact : (double)x->exact - est;
            den += (double)x->exact;
        }
    return den > 0 ? num / den : -1.0;
}

int gmt_edges_program_count(const gmt_edges *e)
{
    return e->progs.n;
}

int gmt_edges_get_program(const gmt_edges *e, int i, gmt_edges_program *out)
{
    memset(out, 0, sizeof *out);
    if (i < 0 || i >= e->progs.n)
        return -1;
    int k = e->order ? e->order[i] : i;
    const gmt_prog *g = e->progs.v[k];
    out->ctx_id = g->ctx_id;
    out->program = g->program;
    out->stage = g->stage;
    out->file = gmt_prog_file(g);
    out->block_count = g->block_count;
    out->blocks = e->prof[k].blocks;
    out->edge_count = e->prof[k].n;
    out->edges = e->prof[k].edges;
    return 0;
}

const char *gmt_edge_kind_name(gmt_edge_kind k)
{
    static const char *const names[] = {"fallthrough", "branch", "reconverge", "call",
                                        "return", "entry", "exit"};
    return k >= 0 && k <= GMT_EDGE_EXIT ? names[k] : "unknown";
}
