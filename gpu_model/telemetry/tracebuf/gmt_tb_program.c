/* Static analysis of a program for the trace buffers: splits its blocks into segments
 * (straight-line pieces entered only at their first pc), and finds which instructions make
 * memory, texture and register-value records, so that one segment execution's records are
 * known before it runs. Programs are numbered in the order a run first meets them; the
 * second pass meets them in the same order (the frame runner is deterministic), which is how
 * its programs (other pointers: another runner) are matched with the first pass's. */
#include <stdlib.h>
#include <string.h>

#include "gmt_tb_internal.h"

void gmt_tb_prog_free(gmt_tb_prog *g)
{
    free(g->segs);
    free(g->seg_at);
    free(g->pc_kind);
    free(g->regw_first);
    free(g->regw);
    memset(g, 0, sizeof *g);
}

/* Chosen-variable words that a static-address write of words [d, d+n) hits. */
static int add_regw(const gmt_tracebuf *t, const gm_program *p, uint32_t d, uint32_t n,
                    gmt_tb_regw *out, int max)
{
    int count = 0;
    for (int v = 0; v < p->var_count; v++) {
        const gm_var *var = &p->vars[v];
        if (var->space != GM_SPACE_REG || !var->info.name || var->ncomp <= 0)
            continue;
        for (int c = 0; c < t->cfg.var_count; c++) {
            if (strcmp(var->info.name, t->cfg.vars[c]) != 0)
                continue;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t w = d + k;
                if (w < (uint32_t)var->addr || w >= (uint32_t)(var->addr + var->ncomp))
                    continue;
                if (out && count < max)
                    out[count] = (gmt_tb_regw){(uint16_t)c, (uint16_t)(w - (uint32_t)var->addr), w};
                count++;
            }
        }
    }
    return count;
}

/* Reg records of one instruction (out may be NULL to count). */
static int inst_regw(const gmt_tracebuf *t, const gm_program *p, const gm_inst *in,
                     gmt_tb_regw *out, int max)
{
    if (!t->cfg.var_count || !(t->cfg.types & GMT_TB_BIT(GMT_TB_REG)))
        return 0;
    switch (in->op) {
    case GM_OP_STORE:
    case GM_OP_COPY:
        return add_regw(t, p, in->d, in->n, out, max);
    case GM_OP_COPY_LIST: {
        int count = 0;
        for (uint32_t k = 0; k < in->n; k++) {
            uint32_t dst = p->aux[in->x + 2 * k];
            count += add_regw(t, p, dst, 1, out ? out + count : NULL, max - count);
        }
        return count;
    }
    default:
        return 0;
    }
}

static int analyse(const gmt_tracebuf *t, gmt_tb_prog *g, const gm_program *p)
{
    int n = p->code_count;
    g->p = p;
    g->stage = p->stage;
    g->code_count = n;
    g->block_count = p->block_count;
    g->seg_at = malloc(((size_t)n + 1) * sizeof *g->seg_at);
    g->pc_kind = calloc((size_t)n + 1, 1);
    g->regw_first = calloc((size_t)n + 2, sizeof *g->regw_first);
    int *block_at = malloc(((size_t)n + 1) * sizeof *block_at);
    if (!g->seg_at || !g->pc_kind || !g->regw_first || !block_at) {
        free(block_at);
        return -1;
    }
    for (int pc = 0; pc <= n; pc++)
        g->seg_at[pc] = -1, block_at[pc] = -1;
    /* Block of every pc: blocks own the pcs from their first pc up to the next block's. */
    for (int b = 0; b < p->block_count; b++)
        if (p->blocks[b].first_pc >= 0 && p->blocks[b].first_pc < n)
            block_at[p->blocks[b].first_pc] = b;
    int cur = -1;
    int nseg = 0;
    for (int pc = 0; pc < n; pc++) {
        if (block_at[pc] >= 0)
            cur = block_at[pc];
        else
            block_at[pc] = cur;
        if (block_at[pc] >= 0 &&
            (p->blocks[block_at[pc]].first_pc == pc || (pc > 0 && p->code[pc - 1].op == GM_OP_CALL)))
            nseg++;
    }
    g->segs = calloc(nseg ? (size_t)nseg : 1, sizeof *g->segs);
    if (!g->segs) {
        free(block_at);
        return -1;
    }
    /* Segments and per-pc records. */
    int nregw = 0;
    for (int pc = 0; pc < n; pc++) {
        const gm_inst *in = &p->code[pc];
        if ((in->op == GM_OP_BUF_LOAD || in->op == GM_OP_BUF_STORE || in->op == GM_OP_BUF_ATOMIC) &&
            (t->cfg.types & GMT_TB_BIT(GMT_TB_MEM)))
            g->pc_kind[pc] = GMT_TB_PC_MEM;
        else if ((in->op == GM_OP_TEX || in->op == GM_OP_IMAGE) && (t->cfg.types & GMT_TB_BIT(GMT_TB_TEX)))
            g->pc_kind[pc] = GMT_TB_PC_TEX;
        g->regw_first[pc] = (uint32_t)nregw;
        nregw += inst_regw(t, p, in, NULL, 0);
    }
    g->regw_first[n] = (uint32_t)nregw;
    for (int v = 0; v < p->var_count; v++)
        for (int c = 0; c < t->cfg.var_count; c++)
            if (p->vars[v].space == GM_SPACE_REG && p->vars[v].info.name &&
                !strcmp(p->vars[v].info.name, t->cfg.vars[c]))
                g->vars_found |= 1u << c;
    g->regw = calloc(nregw ? (size_t)nregw : 1, sizeof *g->regw);
    if (!g->regw) {
        free(block_at);
        return -1;
    }
    for (int pc = 0; pc < n; pc++)
        inst_regw(t, p, &p->code[pc], g->regw + g->regw_first[pc],
                  (int)(g->regw_first[pc + 1] - g->regw_first[pc]));
    int s = -1;
    for (int pc = 0; pc < n; pc++) {
        int b = block_at[pc];
        if (b < 0)
            continue; /* code outside every block (none in practice): never entered */
        int block_start = p->blocks[b].first_pc == pc;
        if (block_start || (pc > 0 && p->code[pc - 1].op == GM_OP_CALL)) {
            if (s >= 0)
                g->segs[s].end_pc = pc;
            s++;
            g->segs[s].block = b;
            g->segs[s].first_pc = pc;
            g->segs[s].block_start = block_start;
            g->segs[s].nrec[GMT_TB_FLOW] = block_start && (t->cfg.types & GMT_TB_BIT(GMT_TB_FLOW));
            g->seg_at[pc] = s;
        }
        if (s < 0)
            continue;
        if (g->pc_kind[pc] == GMT_TB_PC_MEM)
            g->segs[s].nrec[GMT_TB_MEM]++;
        else if (g->pc_kind[pc] == GMT_TB_PC_TEX)
            g->segs[s].nrec[GMT_TB_TEX]++;
        g->segs[s].nrec[GMT_TB_REG] += g->regw_first[pc + 1] - g->regw_first[pc];
    }
    if (s >= 0)
        g->segs[s].end_pc = n;
    g->seg_count = s + 1;
    free(block_at);
    return 0;
}

/* Trace program index of p in the current pass, analysing it on first sight. -1: out of
 * memory or (pass 2) a program pass 1 did not have at this position. */
int gmt_tb_prog_find(gmt_tracebuf *t, const gm_program *p, uint32_t gl_program)
{
    if (t->pass == 2) {
        for (int i = 0; i < t->pass2_progs; i++)
            if (t->progs[i].p == p && t->progs[i].gl_program == gl_program)
                return i;
        int i = t->pass2_progs;
        if (i >= t->nprogs) {
            gmt_tb_fail(t, "pass 2 met more programs than pass 1 (not the same frame?)");
            return -1;
        }
        gmt_tb_prog *g = &t->progs[i];
        if (g->gl_program != gl_program || g->stage != p->stage || g->code_count != p->code_count ||
            g->block_count != p->block_count) {
            gmt_tb_fail(t, "pass 2 program %d (GL program %u) differs from pass 1's (GL program %u)",
                        i, gl_program, g->gl_program);
            return -1;
        }
        g->p = p;
        g->seen_in_pass2 = 1;
        t->pass2_progs++;
        return i;
    }
    for (int i = t->nprogs - 1; i >= 0; i--)
        if (t->progs[i].p == p && t->progs[i].gl_program == gl_program &&
            t->progs[i].code_count == p->code_count && t->progs[i].block_count == p->block_count)
            return i;
    if (t->nprogs == t->progs_cap) {
        int cap = t->progs_cap ? 2 * t->progs_cap : 8;
        gmt_tb_prog *np = realloc(t->progs, (size_t)cap * sizeof *np);
        if (!np) {
            gmt_tb_fail(t, "out of memory");
            return -1;
        }
        t->progs = np;
        t->progs_cap = cap;
    }
    gmt_tb_prog *g = &t->progs[t->nprogs];
    memset(g, 0, sizeof *g);
    g->gl_program = gl_program;
    if (analyse(t, g, p) != 0) {
        gmt_tb_prog_free(g);
        gmt_tb_fail(t, "out of memory");
        return -1;
    }
    return t->nprogs++;
}
