/* Copies the per-PC and per-block facts of a program from the register IR (gm_ir.h) into a
 * gmt_prog, once per program; see gmt_prog.h. */
#include <stdlib.h>
#include <string.h>

#include "gm_ir.h"
#include "gmt_prog.h"

const gm_program *gmt_warp_program(const gm_warp *w)
{
    return w ? gm_warp_program(w) : NULL;
}

static void prog_free(gmt_prog *g)
{
    if (!g)
        return;
    free(g->block_of);
    free(g->line_of);
    free(g->flags);
    free(g->file_of);
    for (int i = 0; i < g->file_count; i++)
        free(g->files[i]);
    free(g->files);
    for (int b = 0; b < g->block_count; b++)
        free(g->blocks[b].succ);
    free(g->blocks);
    for (int i = 0; i < g->func_count; i++)
        free(g->funcs[i]);
    free(g->funcs);
    free(g);
}

static int is_branch_op(int op)
{
    return op == GM_OP_BRANCH || op == GM_OP_BRANCH_COND || op == GM_OP_SWITCH ||
           op == GM_OP_RETURN || op == GM_OP_RETURN_VALUE || op == GM_OP_KILL ||
           op == GM_OP_UNREACHABLE || op == GM_OP_CALL;
}

/* Static successors of a block's terminator. */
static int fill_succ(gmt_prog_block *bk, const gm_program *p)
{
    const gm_inst *in = &p->code[bk->last_pc];
    int tmp[2];
    const uint32_t *aux = NULL;
    int n = 0;
    switch (in->op) {
    case GM_OP_BRANCH:
        tmp[n++] = (int)in->x;
        break;
    case GM_OP_BRANCH_COND:
        tmp[n++] = (int)in->b;
        if (in->c != in->b)
            tmp[n++] = (int)in->c;
        break;
    case GM_OP_SWITCH:
        if (in->x < (uint32_t)p->aux_count) {
            aux = p->aux + in->x;
            n = 1 + (int)aux[0];
        }
        break;
    default:
        break;
    }
    if (!n)
        return 0;
    bk->succ = malloc((size_t)n * sizeof *bk->succ);
    if (!bk->succ)
        return -1;
    if (aux) {
        bk->succ[0] = (int)aux[1];
        for (int i = 1; i < n; i++)
            bk->succ[i] = (int)aux[2 * i + 1];
    } else {
        memcpy(bk->succ, tmp, (size_t)n * sizeof *tmp);
    }
    bk->n_succ = n;
    return 0;
}

static gmt_prog *prog_build(const gm_program *p, uint32_t ctx_id, uint32_t program)
{
    gmt_prog *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->key = p;
    g->ctx_id = ctx_id;
    g->program = program;
    g->stage = p->stage;
    int n = p->code_count;
    g->pc_count = n;
    g->block_of = malloc((size_t)(n ? n : 1) * sizeof *g->block_of);
    g->line_of = malloc((size_t)(n ? n : 1) * sizeof *g->line_of);
    g->flags = calloc((size_t)(n ? n : 1), 1);
    g->file_of = malloc((size_t)(n ? n : 1) * sizeof *g->file_of);
    g->files = calloc((size_t)(p->file_count ? p->file_count : 1), sizeof *g->files);
    g->blocks = calloc((size_t)(p->block_count ? p->block_count : 1), sizeof *g->blocks);
    g->funcs = calloc((size_t)(p->func_count ? p->func_count : 1), sizeof *g->funcs);
    if (!g->block_of || !g->line_of || !g->flags || !g->file_of || !g->files || !g->blocks ||
        !g->funcs)
        goto oom;
    for (int i = 0; i < p->file_count; i++) {
        g->files[i] = strdup(p->files[i] ? p->files[i] : "");
        if (!g->files[i])
            goto oom;
        g->file_count = i + 1;
    }
    for (int i = 0; i < p->func_count; i++) {
        g->funcs[i] = strdup(p->funcs[i].name ? p->funcs[i].name : "");
        if (!g->funcs[i])
            goto oom;
        g->func_count = i + 1;
    }
    int b = -1;
    for (int pc = 0; pc < n; pc++) {
        while (b + 1 < p->block_count && p->blocks[b + 1].first_pc <= pc)
            b++;
        g->block_of[pc] = b;
        g->line_of[pc] = p->code[pc].line;
        g->file_of[pc] = p->lines && p->lines[pc].file >= 0 && p->lines[pc].file < p->file_count
                             ? (uint16_t)p->lines[pc].file : 0xffff;
        if (is_branch_op(p->code[pc].op))
            g->flags[pc] |= GMT_PC_BRANCH;
    }
    g->block_count = p->block_count;
    for (int k = 0; k < p->block_count; k++) {
        gmt_prog_block *bk = &g->blocks[k];
        bk->first_pc = p->blocks[k].first_pc;
        bk->last_pc = (k + 1 < p->block_count ? p->blocks[k + 1].first_pc : n) - 1;
        bk->func = p->blocks[k].func;
        if (bk->last_pc >= bk->first_pc && bk->last_pc < n) {
            g->flags[bk->last_pc] |= GMT_PC_TERMINATOR;
            for (int pc = bk->first_pc; pc <= bk->last_pc; pc++) {
                int l = g->line_of[pc];
                if (l <= 0)
                    continue;
                if (!bk->line_min || l < bk->line_min)
                    bk->line_min = l;
                if (l > bk->line_max)
                    bk->line_max = l;
            }
            if (fill_succ(bk, p) != 0)
                goto oom;
        }
    }
    return g;
oom:
    prog_free(g);
    return NULL;
}

int gmt_progs_get(gmt_progs *t, const gm_program *p, uint32_t ctx_id, uint32_t program)
{
    if (t->n > 0 && t->last >= 0 && t->last < t->n) {
        const gmt_prog *g = t->v[t->last];
        if (g->key == p && g->ctx_id == ctx_id && g->program == program)
            return t->last;
    }
    for (int i = t->n - 1; i >= 0; i--) {
        const gmt_prog *g = t->v[i];
        /* The pointer could be reused by a program created after another was destroyed:
         * the code size and stage must match too. */
        if (g->key == p && g->ctx_id == ctx_id && g->program == program &&
            g->pc_count == p->code_count && g->stage == p->stage) {
            t->last = i;
            return i;
        }
    }
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        gmt_prog **v = realloc(t->v, (size_t)cap * sizeof *v);
        if (!v)
            return -1;
        t->v = v;
        t->cap = cap;
    }
    gmt_prog *g = prog_build(p, ctx_id, program);
    if (!g)
        return -1;
    t->v[t->n] = g;
    t->last = t->n;
    return t->n++;
}

void gmt_progs_free(gmt_progs *t)
{
    for (int i = 0; i < t->n; i++)
        prog_free(t->v[i]);
    free(t->v);
    memset(t, 0, sizeof *t);
}

const char *gmt_prog_file(const gmt_prog *g)
{
    for (int pc = 0; pc < g->pc_count; pc++)
        if (g->file_of[pc] != 0xffff)
            return g->files[g->file_of[pc]];
    return g->file_count ? g->files[0] : "";
}

const char *gmt_prog_pc_file(const gmt_prog *g, int pc)
{
    if (pc < 0 || pc >= g->pc_count || g->file_of[pc] == 0xffff)
        return NULL;
    return g->files[g->file_of[pc]];
}

int gmt_prog_cmp(const gmt_prog *a, const gmt_prog *b)
{
    if (a->ctx_id != b->ctx_id)
        return a->ctx_id < b->ctx_id ? -1 : 1;
    if (a->program != b->program)
        return a->program < b->program ? -1 : 1;
    if (a->stage != b->stage)
        return a->stage < b->stage ? -1 : 1;
    return 0;
}

const char *gmt_source_line(const char *text, int line, int *len)
{
    if (!text || line < 1)
        return NULL;
    const char *s = text;
    for (int i = 1; i < line; i++) {
        s = strchr(s, '\n');
        if (!s)
            return NULL;
        s++;
    }
    const char *e = strchr(s, '\n');
    int n = e ? (int)(e - s) : (int)strlen(s);
    if (n > 0 && s[n - 1] == '\r')
        n--;
    *len = n;
    return s;
}
