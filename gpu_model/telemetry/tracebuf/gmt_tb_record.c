/* The two instrumented passes: the hooks the frame runner calls for every issued warp
 * instruction.
 *
 * Pass 1 only counts segment executions (a table lookup and an increment per instruction
 * that starts a segment). Pass 2 records: a warp starting a segment reserves the segment's
 * records in every type buffer with one atomic add on that buffer's cursor and remembers
 * where they go (per call depth, since a call starts the callee's segments before the
 * caller's segment ends); the segment's instructions then fill them in issue order. Every
 * record gets the warp's next sequence number, so (warp_seq, seq) orders the merged trace.
 * The atomic add is the only operation on a shared buffer: warps never wait for each other
 * and nothing tests the buffer bound, which is exact by construction (DESIGN.md); the cursors
 * are checked after the pass. (The model issues from one thread, so the live-warp table and
 * the reference trace need no lock either.) */
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_internal.h"

/* ------------------------------------------------------------------ live warps */

static size_t warp_hash(uint64_t seq, size_t cap)
{
    return (size_t)((seq * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static int warps_grow(gmt_tracebuf *t)
{
    size_t cap = t->warps_cap ? 2 * t->warps_cap : 64;
    gmt_tb_warp *nw = calloc(cap, sizeof *nw);
    if (!nw)
        return -1;
    for (size_t i = 0; i < t->warps_cap; i++) {
        if (!t->warps[i].used)
            continue;
        size_t h = warp_hash(t->warps[i].warp_seq, cap);
        while (nw[h].used)
            h = (h + 1) & (cap - 1);
        nw[h] = t->warps[i];
    }
    free(t->warps);
    t->warps = nw;
    t->warps_cap = cap;
    t->last_warp = NULL;
    return 0;
}

static gmt_tb_warp *warp_get(gmt_tracebuf *t, uint64_t seq)
{
    if (t->last_warp && t->last_warp->warp_seq == seq)
        return t->last_warp;
    if (2 * (t->warps_used + 1) > t->warps_cap && warps_grow(t) != 0) {
        gmt_tb_fail(t, "out of memory");
        return NULL;
    }
    size_t h = warp_hash(seq, t->warps_cap);
    while (t->warps[h].used && t->warps[h].warp_seq != seq)
        h = (h + 1) & (t->warps_cap - 1);
    gmt_tb_warp *ws = &t->warps[h];
    if (!ws->used) {
        memset(ws, 0, sizeof *ws);
        ws->used = 1;
        ws->warp_seq = seq;
        ws->prog = -1;
        t->warps_used++;
        t->warps_seen++;
    }
    t->last_warp = ws;
    return ws;
}

/* Forgets the live warps (their draw ended, so they all retired) after adding up what they
 * wrote. */
static void warps_clear(gmt_tracebuf *t)
{
    for (size_t i = 0; i < t->warps_cap; i++) {
        gmt_tb_warp *ws = &t->warps[i];
        if (!ws->used)
            continue;
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
            atomic_fetch_add_explicit(&t->written[k], ws->written[k], memory_order_relaxed);
        if (ws->pending.count) {
            t->lost_pending += ws->pending.count;
            gmt_tb_fail(t, "warp %llu ended right after writing a chosen variable (pc %d)",
                        (unsigned long long)ws->warp_seq, ws->pending.pc);
        }
        ws->used = 0;
    }
    t->warps_used = 0;
    t->last_warp = NULL;
}

/* ------------------------------------------------------------------ records */

static void ref_append(gmt_tracebuf *t, const void *rec, size_t size)
{
    if (!t->cfg.reference || t->ref_failed)
        return;
    if (t->ref_size + size > t->ref_cap) {
        size_t cap = t->ref_cap ? 2 * t->ref_cap : 1 << 16;
        while (cap < t->ref_size + size)
            cap *= 2;
        uint8_t *n = realloc(t->ref, cap);
        if (!n) {
            t->ref_failed = true;
            gmt_tb_fail(t, "out of memory for the reference trace");
            return;
        }
        t->ref = n;
        t->ref_cap = cap;
    }
    memcpy(t->ref + t->ref_size, rec, size);
    t->ref_size += size;
}

/* Puts a finished record in its reserved place (and the reference). */
static void emit(gmt_tracebuf *t, gmt_tb_warp *ws, gmt_tb_slot *sl, gmt_tb_type type,
                 const void *rec, size_t size)
{
    if (!sl->left[type]) {
        /* Only reachable when the static record count of a segment is wrong. */
        gmt_tb_fail(t, "%s record outside its reservation (warp %llu)", gmt_tb_type_name(type),
                    (unsigned long long)ws->warp_seq);
        return;
    }
    memcpy(sl->next[type], rec, size);
    sl->next[type] += size;
    sl->left[type]--;
    ws->written[type]++;
    ref_append(t, rec, size);
}

static void key_init(gmt_tb_key *k, gmt_tb_warp *ws, gmt_tb_type type, gm_stage stage)
{
    k->warp_seq = ws->warp_seq;
    k->seq = ws->seq++;
    k->type = (uint16_t)type;
    k->stage = (uint16_t)stage;
}

static void record_mem(gmt_tracebuf *t, gmt_tb_warp *ws, gmt_tb_slot *sl, const gm_timing_issue *ev,
                       const gm_warp *w)
{
    const gm_program *p = w->p;
    const gm_inst *in = &p->code[ev->pc];
    gmt_tb_mem r;
    memset(&r, 0, sizeof r);
    key_init(&r.k, ws, GMT_TB_MEM, p->stage);
    r.draw = (uint32_t)ev->draw;
    r.program = (uint32_t)ws->prog;
    r.pc = (uint32_t)ev->pc;
    r.line = ev->line;
    uint32_t lo = 0;
    if (in->op == GM_OP_BUF_ATOMIC) {
        const uint32_t *aux = p->aux + in->x;
        r.op = GMT_TB_MEM_ATOMIC;
        r.binding = (uint16_t)aux[1];
        r.kind = (uint16_t)aux[2];
        r.size = 4;
        r.mask = ev->active & ~w->helper;
    } else {
        /* Word k of the access is at lane address + aux[b + k] (struct members, strides). */
        const uint32_t *offs = p->aux + in->b;
        uint32_t hi = 0;
        lo = UINT32_MAX;
        for (int k = 0; k < in->n; k++) {
            lo = offs[k] < lo ? offs[k] : lo;
            hi = offs[k] > hi ? offs[k] : hi;
        }
        if (in->n == 0)
            lo = 0;
        r.op = in->op == GM_OP_BUF_LOAD ? GMT_TB_MEM_LOAD : GMT_TB_MEM_STORE;
        r.binding = (uint16_t)(in->x >> 2);
        r.kind = (uint16_t)(in->x & 3);
        r.size = (uint16_t)(in->n ? hi - lo + 4 : 0);
        r.mask = in->op == GM_OP_BUF_LOAD ? ev->active : ev->active & ~w->helper;
    }
    const uint32_t *addr = w->R[in->a];
    for (int l = 0; l < GM_LANES; l++)
        if ((r.mask >> l) & 1)
            r.offset[l] = addr[l] + lo;
    emit(t, ws, sl, GMT_TB_MEM, &r, sizeof r);
}

static void record_tex(gmt_tracebuf *t, gmt_tb_warp *ws, gmt_tb_slot *sl, const gm_timing_issue *ev,
                       const gm_warp *w)
{
    const gm_program *p = w->p;
    const gm_inst *in = &p->code[ev->pc];
    const gm_tex_desc *d = &p->tex[in->x];
    gmt_tb_tex r;
    memset(&r, 0, sizeof r);
    key_init(&r.k, ws, GMT_TB_TEX, p->stage);
    r.draw = (uint32_t)ev->draw;
    r.program = (uint32_t)ws->prog;
    r.pc = (uint32_t)ev->pc;
    r.line = ev->line;
    r.mask = ev->active;
    r.is_image = in->op == GM_OP_IMAGE;
    r.op = (uint16_t)(r.is_image ? d->image_op : d->kind);
    r.dim = (uint16_t)d->dim;
    r.coord_n = (uint16_t)(d->coord_n < 0 ? 0 : d->coord_n > 4 ? 4 : d->coord_n);
    r.coord_int = r.is_image || d->kind == GM_TEX_FETCH;
    int first = r.mask ? __builtin_ctz(r.mask) : -1;
    r.unit = -1;
    if (d->handle >= 0 && first >= 0) {
        const uint32_t *u = w->R[d->handle];
        r.unit = (int32_t)u[first];
        for (int l = first; l < GM_LANES; l++)
            if (((r.mask >> l) & 1) && u[l] != u[first])
                r.unit_mixed = 1;
    }
    /* LOD operand (the executor derives implicit LODs from quad derivatives at sampling). */
    r.lod_mode = GMT_TB_LOD_NONE;
    int lod_int = 0, lod_reg = -1;
    if (!r.is_image) {
        if (d->kind == GM_TEX_FETCH || d->kind == GM_TEX_QUERY_SIZE) {
            if (d->lod >= 0)
                r.lod_mode = GMT_TB_LOD_EXPLICIT, lod_reg = d->lod, lod_int = 1;
        } else if (d->kind == GM_TEX_SAMPLE || d->kind == GM_TEX_GATHER || d->kind == GM_TEX_QUERY_LOD) {
            if (d->lod >= 0)
                r.lod_mode = GMT_TB_LOD_EXPLICIT, lod_reg = d->lod;
            else if (d->grad_x >= 0)
                r.lod_mode = GMT_TB_LOD_GRAD;
            else if (d->bias >= 0)
                r.lod_mode = GMT_TB_LOD_BIAS, lod_reg = d->bias;
            else
                r.lod_mode = GMT_TB_LOD_IMPLICIT;
        }
    }
    if (lod_reg >= 0 && first >= 0) {
        uint32_t v = w->R[lod_reg][first];
        if (lod_int)
            r.lod = (float)(int32_t)v;
        else
            memcpy(&r.lod, &v, sizeof r.lod);
    }
    for (int k = 0; k < r.coord_n && first >= 0; k++) {
        const uint32_t *c = w->R[d->coord + k];
        uint32_t mn = c[first], mx = c[first];
        for (int l = first + 1; l < GM_LANES; l++) {
            if (!((r.mask >> l) & 1))
                continue;
            if (r.coord_int) {
                if ((int32_t)c[l] < (int32_t)mn)
                    mn = c[l];
                if ((int32_t)c[l] > (int32_t)mx)
                    mx = c[l];
            } else {
                float f, fmn, fmx;
                memcpy(&f, &c[l], 4);
                memcpy(&fmn, &mn, 4);
                memcpy(&fmx, &mx, 4);
                if (f < fmn)
                    mn = c[l];
                if (f > fmx)
                    mx = c[l];
            }
        }
        r.cmin[k] = mn;
        r.cmax[k] = mx;
    }
    for (int l = 0; l < GM_LANES; l++) {
        if (!((r.mask >> l) & 1))
            continue;
        if (r.coord_n >= 1)
            r.s[l] = w->R[d->coord][l];
        if (r.coord_n >= 2)
            r.t[l] = w->R[d->coord + 1][l];
    }
    emit(t, ws, sl, GMT_TB_TEX, &r, sizeof r);
}

/* Values of the chosen variables the warp's previous instruction wrote, read now. */
static void flush_pending(gmt_tracebuf *t, gmt_tb_warp *ws, const gmt_tb_prog *g, const gm_warp *w)
{
    gmt_tb_pending *pd = &ws->pending;
    gmt_tb_reg r;
    for (uint32_t k = 0; k < pd->count; k++) {
        const gmt_tb_regw *e = &g->regw[pd->first + k];
        memset(&r, 0, sizeof r);
        r.k.warp_seq = ws->warp_seq;
        r.k.seq = pd->seq0 + k;
        r.k.type = GMT_TB_REG;
        r.k.stage = (uint16_t)g->stage;
        r.draw = pd->draw;
        r.program = (uint32_t)ws->prog;
        r.pc = (uint32_t)pd->pc;
        r.line = pd->line;
        r.mask = pd->mask;
        r.var = e->var;
        r.comp = e->comp;
        const uint32_t *v = w->R[e->word];
        for (int l = 0; l < GM_LANES; l++)
            if ((pd->mask >> l) & 1)
                r.value[l] = v[l];
        memcpy(pd->dst + (size_t)k * sizeof r, &r, sizeof r);
        ws->written[GMT_TB_REG]++;
        ref_append(t, &r, sizeof r);
    }
    pd->count = 0;
}

/* ------------------------------------------------------------------ the passes */

static int prog_of(gmt_tracebuf *t, const gm_warp *w)
{
    if (w->p == t->last_p && t->cur_gl_program == t->last_gl)
        return t->last_prog;
    int i = gmt_tb_prog_find(t, w->p, t->cur_gl_program);
    if (i >= 0) {
        t->last_p = w->p;
        t->last_gl = t->cur_gl_program;
        t->last_prog = i;
    }
    return i;
}

static void issue_count(gmt_tracebuf *t, const gm_timing_issue *ev)
{
    int pi = prog_of(t, ev->warp);
    if (pi < 0)
        return;
    int s = t->progs[pi].seg_at[ev->pc];
    if (s >= 0)
        t->progs[pi].segs[s].count++;
}

static void issue_record(gmt_tracebuf *t, const gm_timing_issue *ev)
{
    const gm_warp *w = ev->warp;
    gmt_tb_warp *ws = warp_get(t, ev->warp_seq);
    if (!ws)
        return;
    if (ws->prog < 0 && (ws->prog = prog_of(t, w)) < 0)
        return;
    gmt_tb_prog *g = &t->progs[ws->prog];
    if (ws->pending.count)
        flush_pending(t, ws, g, w);
    int pc = ev->pc;
    gmt_tb_slot *sl = &ws->slot[w->depth];
    int s = g->seg_at[pc];
    if (s >= 0) {
        gmt_tb_seg *seg = &g->segs[s];
        if (++seg->count2 > seg->count) {
            /* Not the frame pass 1 ran: record nothing more of it (memory stays safe). */
            gmt_tb_fail(t, "program %d block %d ran more often in pass 2 than in pass 1 (not the "
                        "same frame?)", ws->prog, seg->block);
            memset(sl, 0, sizeof *sl);
            return;
        }
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
            uint32_t n = seg->nrec[k];
            sl->left[k] = n;
            if (!n)
                continue;
            uint64_t bytes = (uint64_t)n * gmt_tb_record_size((gmt_tb_type)k);
            uint64_t off = atomic_fetch_add_explicit(&t->buf[k].cursor, bytes, memory_order_relaxed);
            sl->next[k] = t->buf[k].base + off;
        }
        if (seg->nrec[GMT_TB_FLOW]) {
            gmt_tb_flow r;
            memset(&r, 0, sizeof r);
            key_init(&r.k, ws, GMT_TB_FLOW, g->stage);
            r.draw = (uint32_t)ev->draw;
            r.program = (uint32_t)ws->prog;
            r.block = (uint32_t)seg->block;
            r.mask = ev->active;
            r.cycle = ev->cycle;
            r.pc = (uint32_t)pc;
            r.line = ev->line;
            emit(t, ws, sl, GMT_TB_FLOW, &r, sizeof r);
        }
    }
    switch (g->pc_kind[pc]) {
    case GMT_TB_PC_MEM:
        record_mem(t, ws, sl, ev, w);
        break;
    case GMT_TB_PC_TEX:
        record_tex(t, ws, sl, ev, w);
        break;
    default:
        break;
    }
    uint32_t nr = g->regw_first[pc + 1] - g->regw_first[pc];
    if (nr) {
        if (sl->left[GMT_TB_REG] < nr) {
            gmt_tb_fail(t, "reg records outside their reservation (warp %llu)",
                        (unsigned long long)ws->warp_seq);
            return;
        }
        const gm_inst *in = &w->p->code[pc];
        gmt_tb_pending *pd = &ws->pending;
        pd->dst = sl->next[GMT_TB_REG];
        pd->first = g->regw_first[pc];
        pd->count = nr;
        pd->seq0 = ws->seq;
        pd->mask = in->op == GM_OP_STORE && (in->x & 1) ? ev->active & ~w->helper : ev->active;
        pd->draw = (uint32_t)ev->draw;
        pd->pc = pc;
        pd->line = ev->line;
        ws->seq += nr;
        sl->next[GMT_TB_REG] += (size_t)nr * sizeof(gmt_tb_reg);
        sl->left[GMT_TB_REG] -= nr;
    }
}

void gmt_tracebuf_on_issue(void *ctx, const gm_timing_issue *ev)
{
    gmt_tracebuf *t = ctx;
    if (t->pass == 1)
        issue_count(t, ev);
    else if (t->pass == 2 && t->sized && !t->finished)
        issue_record(t, ev);
}

void gmt_tracebuf_on_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)cycle;
    gmt_tracebuf *t = ctx;
    t->cur_gl_program = ev->kind == GMF_EV_DRAW ? ev->program : 0;
}

void gmt_tracebuf_on_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    (void)ev;
    (void)cycle;
    gmt_tracebuf *t = ctx;
    if (t->pass == 2)
        warps_clear(t);
}

int gmt_tracebuf_hooks(gmt_tracebuf *t, int pass, gmf_hooks *out)
{
    if (!t || !out)
        return -1;
    memset(out, 0, sizeof *out);
    if (pass == 1) {
        if (t->sized)
            return -1;
    } else if (pass == 2) {
        if (!t->sized || t->finished)
            return -1;
    } else {
        return -1;
    }
    t->pass = pass;
    out->ctx = t;
    out->issue = gmt_tracebuf_on_issue;
    out->draw_begin = gmt_tracebuf_on_draw_begin;
    out->draw_end = gmt_tracebuf_on_draw_end;
    return 0;
}

void gmt_tb_warps_flush(gmt_tracebuf *t)
{
    warps_clear(t);
}
