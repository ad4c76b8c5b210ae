/* Warp lifetime and the state queries a debugger needs at a stop (masks, per-lane
 * lines, call stack, variables). Execution itself is in gm_exec.c. */
#include "gm_exec.h"

#include <spirv/unified1/spirv.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

gm_warp *gm_warp_create(gm_program *p, int warp_id)
{
    if (!p)
        return NULL;
    gm_warp *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->p = p;
    w->id = warp_id;
    int maxn = 8;
    for (int i = 0; i < p->code_count; i++)
        if (p->code[i].n > maxn)
            maxn = p->code[i].n;
    w->scratch_words = 2 * maxn + 8; /* carry/extended ops write 2n words */
    /* Slack after the last register: an instruction reads at most 2n+16 words from a
     * valid start, so even a malformed module cannot read past the allocation. */
    size_t slack = (size_t)w->scratch_words + 16;
    w->R = malloc(((size_t)p->nregs + slack) * sizeof *w->R);
    w->scratch = malloc((size_t)w->scratch_words * sizeof *w->scratch);
    if (!w->R || !w->scratch) {
        gm_warp_destroy(w);
        return NULL;
    }
    /* Constants, static pointers and variable initializers; the slack zeroed. Not calloc:
     * the registers are copied over whole (tens of KB per warp, hundreds of warps per frame
     * with the timing model's pools), so zeroing them first only cost time. */
    memcpy(w->R, p->init_regs, (size_t)p->nregs * sizeof *w->R);
    memset(w->R + p->nregs, 0, slack * sizeof *w->R);
    w->done = 1;
    w->pc = -1;
    w->quad_dy = 1;
    return w;
}

void gm_warp_destroy(gm_warp *w)
{
    if (!w)
        return;
    free(w->R);
    free(w->scratch);
    free(w);
}

void gm_warp_set_env(gm_warp *w, const gm_env *env)
{
    if (env)
        w->env = *env;
    else
        memset(&w->env, 0, sizeof w->env);
}

void gm_warp_get_env(const gm_warp *w, gm_env *env)
{
    *env = w->env;
}

void gm_warp_set_subgroups(gm_warp *w, const uint8_t group[GM_LANES],
                           const uint8_t invocation[GM_LANES])
{
    for (int l = 0; l < GM_LANES; l++) {
        w->sg_group[l] = group[l];
        w->sg_inv[l] = invocation[l] < GM_SUBGROUP_SIZE ? invocation[l] : GM_SUBGROUP_SIZE - 1;
    }
}

void gm_warp_set_quad_dy(gm_warp *w, int quad_dy) { w->quad_dy = quad_dy < 0 ? -1 : 1; }

void gm_warp_set_observer(gm_warp *w, gm_observer_fn fn, void *ctx)
{
    w->observer = fn;
    w->observer_ctx = ctx;
}

void gm_warp_begin(gm_warp *w, gm_mask active, gm_mask helper)
{
    gm_program *p = w->p;
    w->alive = active | helper;
    w->helper = helper;
    w->killed = 0;
    w->error = 0;
    w->err[0] = 0;
    w->done = 0;
    w->depth = 0;
    w->skip_observe = 0;
    w->barrier_passed = 0;
    w->issued = w->lane_instr = 0;
    w->loop_limited = 0;
    for (int l = 0; l < GM_LANES; l++) { /* subgroups: consecutive lanes by default */
        w->sg_group[l] = (uint8_t)(l / GM_SUBGROUP_SIZE);
        w->sg_inv[l] = (uint8_t)(l % GM_SUBGROUP_SIZE);
    }
    gm_frame *f = &w->frames[0];
    memset(f, 0, sizeof *f);
    f->loop_budget = GM_LOOP_ITERATION_LIMIT;
    f->func = p->entry;
    f->live = w->alive;
    int first = p->funcs[p->entry].first_block;
    for (int l = 0; l < GM_LANES; l++) {
        f->next[l] = first;
        f->prev[l] = -1;
    }
    /* Outputs start at zero; built-in helper flag from the helper mask. (Tessellation
     * control outputs live in the patch's shared memory, which the caller zeroes.) */
    for (int i = 0; i < p->output_count; i++) {
        const gm_var *v = &p->vars[p->outputs[i]];
        if (v->space != GM_SPACE_REG)
            continue;
        memset(w->R[v->addr], 0, (size_t)v->ncomp * sizeof *w->R);
    }
    for (int i = 0; i < p->input_count; i++) {
        const gm_var *v = &p->vars[p->inputs[i]];
        if (v->info.builtin == SpvBuiltInHelperInvocation)
            for (int l = 0; l < GM_LANES; l++)
                w->R[v->addr][l] = (helper >> l) & 1;
    }
    w->pc = -1;
    gm_exec_set_mask(w, 0);
}

uint32_t (*gm_warp_var_lanes(gm_warp *w, int var))[GM_LANES]
{
    if (!w || var < 0 || var >= w->p->var_count)
        return NULL;
    const gm_var *v = &w->p->vars[var];
    if (v->space != GM_SPACE_REG)
        return NULL;
    return &w->R[v->addr];
}

gm_run_status gm_warp_step(gm_warp *w) { return gm_warp_run(w, 1); }
const char *gm_warp_error(const gm_warp *w) { return w->err; }
gm_mask gm_warp_alive_mask(const gm_warp *w) { return w->done ? 0 : w->alive; }
gm_mask gm_warp_killed_mask(const gm_warp *w) { return w->killed; }
gm_mask gm_warp_helper_mask(const gm_warp *w) { return w->helper; }
const gm_program *gm_warp_program(const gm_warp *w) { return w->p; }
gm_mask gm_warp_active_mask(const gm_warp *w) { return w->done || w->pc < 0 ? 0 : w->mask; }
int gm_warp_pc(const gm_warp *w) { return w->done ? -1 : w->pc; }
uint64_t gm_warp_issued(const gm_warp *w) { return w->issued; }
uint32_t gm_warp_loops_limited(const gm_warp *w) { return w->loop_limited; }
uint32_t gm_program_loops_limited(const gm_program *p) { return p ? p->loops_limited : 0; }

void gm_program_set_abort(gm_program *p, const volatile sig_atomic_t *flag)
{
    if (p)
        p->abort_flag = flag;
}
uint64_t gm_warp_lane_instructions(const gm_warp *w) { return w->lane_instr; }
int gm_warp_call_depth(const gm_warp *w) { return w->done ? 0 : w->depth + 1; }

const char *gm_warp_frame_function(const gm_warp *w, int depth)
{
    if (depth < 0 || depth > w->depth)
        return NULL;
    return w->p->funcs[w->frames[depth].func].name;
}

int gm_warp_frame_line(const gm_warp *w, int depth)
{
    if (depth < 0 || depth > w->depth || w->done)
        return 0;
    if (depth == w->depth)
        return w->pc >= 0 ? w->p->code[w->pc].line : 0;
    int pc = w->frames[depth].return_pc - 1; /* the call instruction */
    return pc >= 0 ? w->p->code[pc].line : 0;
}

int gm_warp_lane_line(const gm_warp *w, int lane)
{
    if (lane < 0 || lane >= GM_LANES || w->done || !((w->alive >> lane) & 1))
        return 0;
    const gm_program *p = w->p;
    for (int d = w->depth; d >= 0; d--) {
        const gm_frame *f = &w->frames[d];
        if (d == w->depth && w->pc >= 0 && ((w->mask >> lane) & 1))
            return p->code[w->pc].line;
        if (d < w->depth && ((f->call_mask >> lane) & 1))
            return p->code[f->return_pc - 1].line;
        if ((f->live >> lane) & 1) {
            int b = f->next[lane];
            if (b < 0)
                return 0;
            int pc = p->blocks[b].first_pc;
            /* The first instruction with a line (phis may have none). */
            while (pc < p->code_count && p->code[pc].line == 0 &&
                   p->code[pc].op == GM_OP_PHI)
                pc++;
            return pc < p->code_count ? p->code[pc].line : 0;
        }
    }
    return 0;
}

int gm_warp_read_var(const gm_warp *w, int var, int lane, uint32_t *out, int max_words)
{
    const gm_program *p = w->p;
    if (var < 0 || var >= p->var_count || lane < 0 || lane >= GM_LANES || !out)
        return -1;
    const gm_var *v = &p->vars[var];
    int n = v->ncomp < max_words ? v->ncomp : max_words;
    switch (v->space) {
    case GM_SPACE_REG:
        for (int k = 0; k < n; k++)
            out[k] = w->R[v->addr + k][lane];
        return v->ncomp;
    case GM_SPACE_UNIFORM:
        for (int k = 0; k < n; k++)
            out[k] = p->umem[v->addr + k];
        return v->ncomp;
    default:
        return -1;
    }
}

/* ---- compute support ---- */

int gm_program_shared_words(const gm_program *p) { return p ? p->shared_words : 0; }
int gm_program_reads_clock(const gm_program *p) { return p ? p->reads_clock : 0; }

void gm_program_local_size(const gm_program *p, int size[3])
{
    for (int k = 0; k < 3; k++)
        size[k] = p && p->local_size[k] > 0 ? p->local_size[k] : 1;
}

int gm_program_pc_is_barrier(const gm_program *p, int pc)
{
    return p && pc >= 0 && pc < p->code_count && p->code[pc].op == GM_OP_BARRIER;
}

void gm_warp_set_shared(gm_warp *w, uint32_t *words, uint32_t count)
{
    w->shared = words;
    w->shared_count = words ? count : 0;
}

void gm_warp_set_barrier_stop(gm_warp *w, int on) { w->barrier_stop = on != 0; }

void gm_warp_set_gs_emit(gm_warp *w, gm_gs_emit_fn fn, void *ctx)
{
    w->gs_emit = fn;
    w->gs_emit_ctx = ctx;
}

int gm_warp_at_barrier(const gm_warp *w)
{
    return !w->done && w->barrier_passed && gm_program_pc_is_barrier(w->p, w->pc);
}
