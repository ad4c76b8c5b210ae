/* Compute dispatches in the model (glDispatchCompute, glDispatchComputeIndirect,
 * glDispatchComputeGroupSizeARB).
 *
 * ARB_compute_variable_group_size: the front end compiles `layout(local_size_variable) in;` as a
 * local size of 1 and gl_LocalGroupSizeARB as the uniform VARIABLE_GROUP_SIZE (gm_upgrade.c);
 * glDispatchComputeGroupSizeARB's last three arguments give the dispatch's local size, which
 * also sets that uniform. Mismatches GL rejects (a variable-size program with another dispatch,
 * a fixed-size one with this dispatch, sizes out of range) run nothing, as in GL.
 *
 * A dispatch runs every workgroup of the grid in order (x fastest, then y, then z). A workgroup
 * of N invocations is ceil(N / 32) warps; invocation i (gl_LocalInvocationIndex) is lane i % 32
 * of warp i / 32. The group's warps share one block of `shared` memory (zeroed at group start)
 * and meet at every barrier():
 *  - with the timing model, the group's warps form one workgroup of the dispatch's batch
 *    (gm_timing_batch_desc.warps_per_group): launched together on one SM, held at each
 *    GM_OP_BARRIER pc (the barrier hook) until every live warp of the group arrived; many
 *    groups are in flight at once;
 *  - without it (GMF_TIMING_OFF), or when a group has more warps than an SM has slots, the
 *    warps run in lock-step phases: each warp runs until it stops before a barrier (or ends),
 *    then the next phase starts.
 * Storage buffers are the state model's buffer contents (as for fragment-shader SSBO writes),
 * so later draws, vertex fetch and dispatches, and readers of the state model see what a
 * dispatch wrote. Image load/store/atomics reach the model's textures through the image units
 * (glBindImageTexture). memoryBarrier*() / glMemoryBarrier need nothing: warps execute one
 * instruction at a time over a single memory, in a deterministic order. */
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "gm_ir.h"

enum { BI_NUM_WORKGROUPS = 24, BI_WORKGROUP_ID = 26, BI_LOCAL_ID = 27, BI_GLOBAL_ID = 28,
       BI_LOCAL_INDEX = 29 };

/* The uniform the front end declares for gl_LocalGroupSizeARB (gm_upgrade.c). */
#define VARIABLE_GROUP_SIZE "glr_LocalGroupSizeARB"
/* GL_MAX_COMPUTE_VARIABLE_GROUP_INVOCATIONS_ARB / _SIZE_ARB as the model reports them (the
 * extension's minimums: 512 invocations; 512, 512, 64 per dimension). */
#define VARIABLE_GROUP_INVOCATIONS 512u

/* Limit on invocations per dispatch, so a corrupt capture cannot run for hours. */
#define GMF_MAX_CS_INVOCATIONS (1ull << 28)

typedef struct cs_run {
    gmf_draw_ctx *d;
    gm_program *cs;
    int ls[3];            /* local size */
    uint32_t groups[3];   /* grid */
    int invocations;      /* per group */
    int wpg;              /* warps per group */
    int shared_words;
    int bi_var[5];        /* variables of the built-ins above (-1) */
    uint64_t dispatch;
    uint64_t warps;       /* warps started so far */
} cs_run;

/* ---- images (glBindImageTexture units) ---- */



/* ---- blocks ---- */

/* ---- one warp's built-ins ---- */

static void set_builtins(const cs_run *cr, gm_warp *w, int k, const uint32_t gid[3])
{
    for (int b = 0; b < 5; b++) {
        if (cr->bi_var[b] < 0)
            continue;
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w, cr->bi_var[b]);
        if (!v)
            continue;
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t li = (uint32_t)(k * GM_LANES + l);
            uint32_t lid[3] = { li % (uint32_t)cr->ls[0], li / (uint32_t)cr->ls[0] % (uint32_t)cr->ls[1],
                                li / (uint32_t)(cr->ls[0] * cr->ls[1]) };
            switch (b) {
            case 0:
                for (int c = 0; c < 3; c++)
                    v[c][l] = cr->groups[c];
                break;
            case 1:
                for (int c = 0; c < 3; c++)
                    v[c][l] = gid[c];
                break;
            case 2:
                for (int c = 0; c < 3; c++)
                    v[c][l] = lid[c];
                break;
            case 3:
                for (int c = 0; c < 3; c++)
                    v[c][l] = gid[c] * (uint32_t)cr->ls[c] + lid[c];
                break;
            default:
                v[0][l] = li;
                break;
            }
        }
    }
}

/* llvmpipe's compute subgroups: its JIT runs each row of the workgroup (fixed y and z) in
 * SIMD vectors of 8 along x, so a subgroup is up to 8 invocations x = 8c..8c+7 of one row,
 * invocation index x % 8 (measured on Mesa 22.3 llvmpipe with local_size 5x3: rows of 5,
 * ballots 0x1f). A subgroup whose invocations straddle two of the model's warps (a row
 * crossing a multiple of 32 invocations inside an 8-chunk, e.g. local_size_x 5 with more
 * than 32 invocations) is split there: documented as not matching. */
static void set_subgroups(const cs_run *cr, gm_warp *w, int k)
{
    uint8_t group[GM_LANES], inv[GM_LANES];
    uint32_t first = 0;
    for (int l = 0; l < GM_LANES; l++) {
        uint32_t li = (uint32_t)(k * GM_LANES + l);
        uint32_t x = li % (uint32_t)cr->ls[0], row = li / (uint32_t)cr->ls[0];
        uint32_t key = row * (((uint32_t)cr->ls[0] + 7u) / 8u) + x / 8u; /* chunk number */
        if (l == 0)
            first = key;
        group[l] = (uint8_t)(key - first); /* < 32: at most one new chunk per lane */
        inv[l] = (uint8_t)(x % 8u);
    }
    gm_warp_set_subgroups(w, group, inv);
}

/* Starts warp k of a group: lanes, shared memory, built-ins. */
static void begin_warp(cs_run *cr, gm_warp *w, int k, const uint32_t gid[3], uint32_t *shared,
                       bool barrier_stops)
{
    int n = cr->invocations - k * GM_LANES;
    gm_mask m = n >= GM_LANES ? 0xffffffffu : ((1u << n) - 1u);
    gm_warp_set_env(w, &cr->d->env[0]);
    gm_warp_set_shared(w, shared, (uint32_t)cr->shared_words);
    gm_warp_set_barrier_stop(w, barrier_stops);
    gm_warp_begin(w, m, 0);
    set_subgroups(cr, w, k);
    set_builtins(cr, w, k, gid);
    cr->warps++;
}

static void group_id(const cs_run *cr, uint64_t g, uint32_t gid[3])
{
    gid[0] = (uint32_t)(g % cr->groups[0]);
    gid[1] = (uint32_t)(g / cr->groups[0] % cr->groups[1]);
    gid[2] = (uint32_t)(g / ((uint64_t)cr->groups[0] * cr->groups[1]));
}

/* ---- executor path: lock-step phases ---- */

static int run_lockstep(cs_run *cr, uint32_t *shared)
{
    gmf_draw_ctx *d = cr->d;
    gmf_runner *r = d->r;
    uint64_t ngroups = (uint64_t)cr->groups[0] * cr->groups[1] * cr->groups[2];
    for (uint64_t g = 0; g < ngroups && !gmf_aborted(r); g++) {
        uint32_t gid[3];
        group_id(cr, g, gid);
        memset(shared, 0, (size_t)cr->shared_words * 4);
        uint64_t first_warp = cr->warps;
        for (int k = 0; k < cr->wpg; k++) {
            gm_warp *w = gmf_prog_cs_warp(d->p, k);
            if (!w) {
                gmf_note(d->ev, "out of memory creating compute warps");
                return -1;
            }
            begin_warp(cr, w, k, gid, shared, true);
            gm_warp_set_observer(w, r->obs ? gmf_executor_observe : NULL, r->obs ? r : NULL);
        }
        for (int phase = 0;; phase++) {
            int waiting = 0;
            for (int k = 0; k < cr->wpg; k++) {
                gm_warp *w = d->p->cs_pool ? d->p->cs_pool[k] : d->p->vw;
                if (r->obs) {
                    gmf_issue *i = &r->cur_issue;
                    i->draw = cr->dispatch;
                    i->stage = GM_STAGE_COMPUTE;
                    i->warp = first_warp + (uint64_t)k;
                    i->frame_warp = r->frame_warps + first_warp + (uint64_t)k;
                    i->program = d->p->name;
                    i->file = gm_program_pc_count(cr->cs) > 0 ? gm_program_pc_file(cr->cs, 0) : NULL;
                    i->cycle = 0;
                    i->sm = -1;
                    i->lane_x = i->lane_y = NULL;
                }
                for (;;) {
                    gm_run_status s = gm_warp_run(w, 0);
                    if (s == GM_RUN_ERROR) {
                        gmf_note(d->ev, "compute shader runtime error: %s", gm_warp_error(w));
                        return -1;
                    }
                    if (r->stopped)
                        return -1;
                    if (s == GM_RUN_DONE)
                        break;
                    if (gm_warp_at_barrier(w)) {
                        waiting++;
                        break;
                    }
                    /* an observer pause that did not stop the run: resume */
                }
            }
            if (!waiting)
                break;
        }
    }
    r->frame_warps += cr->warps;
    return 0;
}

/* ---- timing model path ---- */

static int barrier_hook(void *ctx, const gm_program *p, int pc)
{
    (void)ctx;
    return gm_program_pc_is_barrier(p, pc);
}

/* Runs the model until every warp of in-flight group slot `slot` retired. 0, or -1 (noted). */
static int drain_group(cs_run *cr, gmf_flight *fl)
{
    gmf_runner *r = cr->d->r;
    for (int k = 0; k < cr->wpg; k++) {
        gmf_flight *f = &fl[k];
        while (!f->retired) {
            gm_timing_status ts = gm_timing_run_until(r->tm, f->w);
            if (f->retired)
                break;
            if (ts == GM_TIMING_ERROR && r->tm_warp_error) {
                r->tm_warp_error = false;
                continue;
            }
            if (ts == GM_TIMING_PAUSED)
                return -1; /* the observer stopped the run */
            gmf_note(cr->d->ev, "timing model: %s", ts == GM_TIMING_ERROR ? gm_timing_error(r->tm)
                                                                          : "compute warp did not retire");
            return -1;
        }
        if (f->status == GM_RUN_ERROR) {
            gmf_note(cr->d->ev, "compute shader runtime error: %s", gm_warp_error(f->w));
            return -1;
        }
    }
    return 0;
}

static int run_timing(cs_run *cr)
{
    gmf_draw_ctx *d = cr->d;
    gmf_runner *r = d->r;
    gm_timing_set_barrier_hook(r->tm, barrier_hook, NULL);
    gm_timing_set_issue_observer(r->tm, r->obs || r->has_hooks ? gmf_timing_observe : NULL, r);
    gm_timing_batch_desc bd = { GM_STAGE_COMPUTE, (int)cr->dispatch, -1, 0, cr->wpg, NULL, 0 };
    int batch = gm_timing_batch_begin(r->tm, &bd);
    if (batch < 0) {
        gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
        return -1;
    }
    /* Groups in flight: enough to fill every SM twice over (as draws keep 2x the slots). */
    int inflight = r->flight_max / cr->wpg;
    if (inflight < 1)
        inflight = 1;
    uint64_t ngroups = (uint64_t)cr->groups[0] * cr->groups[1] * cr->groups[2];
    gmf_flight *fl = calloc((size_t)inflight * (size_t)cr->wpg, sizeof *fl);
    uint32_t *shared = calloc((size_t)inflight * (size_t)(cr->shared_words + 1), 4);
    int rc = 0;
    if (!fl || !shared) {
        gmf_note(d->ev, "out of memory");
        rc = -1;
    }
    uint64_t head = 0; /* oldest group in flight */
    const char *file = gm_program_pc_count(cr->cs) > 0 ? gm_program_pc_file(cr->cs, 0) : NULL;
    for (uint64_t g = 0; g < ngroups && rc == 0 && !gmf_aborted(r); g++) {
        if (g - head >= (uint64_t)inflight) {
            if (drain_group(cr, fl + (head % (uint64_t)inflight) * (uint64_t)cr->wpg) != 0) {
                rc = -1;
                break;
            }
            head++;
        }
        int slot = (int)(g % (uint64_t)inflight);
        uint32_t *sh = shared + (size_t)slot * (size_t)(cr->shared_words + 1);
        memset(sh, 0, (size_t)cr->shared_words * 4);
        uint32_t gid[3];
        group_id(cr, g, gid);
        for (int k = 0; k < cr->wpg && rc == 0; k++) {
            gm_warp *w = gmf_prog_cs_warp(d->p, slot * cr->wpg + k);
            gmf_flight *f = &fl[slot * cr->wpg + k];
            if (!w) {
                gmf_note(d->ev, "out of memory creating compute warps");
                rc = -1;
                break;
            }
            memset(f, 0, sizeof *f);
            f->w = w;
            f->stage = GM_STAGE_COMPUTE;
            f->draw = cr->dispatch;
            f->warp = cr->warps;
            f->frame_warp = r->frame_warps++;
            f->program = d->p->name;
            f->file = file;
            begin_warp(cr, w, k, gid, sh, false);
            if (gm_timing_submit(r->tm, batch, w, &d->env[0], f) != 0) {
                gmf_note(d->ev, "timing model: %s", gm_timing_error(r->tm));
                rc = -1;
            }
        }
    }
    gm_timing_batch_close(r->tm, batch);
    /* Every submitted warp retires before the dispatch returns (they use `shared` and fl). */
    while (!r->stopped) {
        gm_timing_status ts = gm_timing_run(r->tm);
        if (ts == GM_TIMING_ERROR && r->tm_warp_error) {
            r->tm_warp_error = false;
            continue;
        }
        break;
    }
    if (rc == 0 && fl)
        for (uint64_t g = head; g < ngroups && g < head + (uint64_t)inflight && !r->stopped; g++)
            if (drain_group(cr, fl + (g % (uint64_t)inflight) * (uint64_t)cr->wpg) != 0) {
                rc = -1;
                break;
            }
    gm_timing_stats st;
    if (gm_timing_batch_stats(r->tm, batch, &st) == 0) {
        d->ev->stats.cycles = st.cycles;
        d->ev->stats.instructions = st.instructions;
        r->totals.cs_cycles += st.cycles;
    }
    free(fl);
    free(shared);
    return rc;
}

/* ---- the dispatch ---- */

static bool dispatch_size(gmf_runner *r, const struct sm_context *c,
                          const struct sm_context_state *st, const struct glr_call *call,
                          uint32_t cmd, uint32_t groups[3], gmf_event *ev)
{
    (void)r;
    if (cmd == GLR_CMD_glDispatchComputeIndirect) {
        const struct sm_buffer *b = st->buffer[SM_BT_DISPATCH_INDIRECT]
                                        ? sm_get_buffer(c, st->buffer[SM_BT_DISPATCH_INDIRECT]) : NULL;
        uint64_t off = call->args[0];
        if (!b || !b->data_known || !b->data || off + 12 > b->size || (off & 3)) {
            gmf_note(ev, "indirect dispatch parameters unknown (no DISPATCH_INDIRECT buffer contents)");
            return false;
        }
        memcpy(groups, b->data + off, 12);
        return true;
    }
    for (int k = 0; k < 3; k++)
        groups[k] = (uint32_t)call->args[k];
    return true;
}

static void run_dispatch(gmf_runner *r, const struct sm_context *c,
                         const struct sm_context_state *st, const struct glr_call *call,
                         uint32_t cmd, gmf_event *ev);

/* The local size of a glDispatchComputeGroupSizeARB (its arguments 3-5) into ls; checks the program kind against the dispatch. False when GL
 * rejects the dispatch (noted on the event). */
static bool variable_group_size(gmf_prog *p, const struct glr_call *call, uint32_t cmd, int ls[3],
                                gmf_event *ev)
{
    const char *src = p->cr.shader_count > 0 ? p->cr.shaders[0].compiled_source : NULL;
    bool variable = src && strstr(src, "uniform uvec3 " VARIABLE_GROUP_SIZE ";");
    bool by_size = cmd == GLR_CMD_glDispatchComputeGroupSizeARB;
    if (variable != by_size) {
        gmf_note(ev, "%s with a program of %s group size: GL_INVALID_OPERATION, nothing runs",
                 by_size ? "glDispatchComputeGroupSizeARB" : "glDispatchCompute", variable ? "variable" : "fixed");
        return false;
    }
    if (!by_size)
        return true;
    static const uint64_t max_size[3] = { 512, 512, 64 };
    uint64_t inv = 1;
    for (int k = 0; k < 3; k++) {
        uint64_t v = call->args[3 + k];
        if (v == 0 || v > max_size[k]) {
            gmf_note(ev, "glDispatchComputeGroupSizeARB group size %llu (dimension %d) out of range: "
                     "GL_INVALID_VALUE, nothing runs", (unsigned long long)v, k);
            return false;
        }
        ls[k] = (int)v;
        inv *= v;
    }
    if (inv > VARIABLE_GROUP_INVOCATIONS) {
        gmf_note(ev, "glDispatchComputeGroupSizeARB group of %llu invocations (more than %u): "
                 "GL_INVALID_VALUE, nothing runs", (unsigned long long)inv, VARIABLE_GROUP_INVOCATIONS);
        return false;
    }
    return true;
}

/* A dispatch is a slice of the telemetry hooks like a draw (draw_begin / draw_end with
 * ev->kind GMF_EV_DISPATCH), so profiles and counters charge its warps to its context and
 * program. */
void gmf_dispatch(gmf_runner *r, const struct glr_call *call, uint32_t cmd, gmf_event *ev)
{
    ev->kind = GMF_EV_DISPATCH;
    ev->draw = r->totals.dispatches++;
    const struct sm_context *c = sm_context_get(r->sm, call->ctx_id);
    if (!c) {
        gmf_note(ev, "dispatch without a context");
        ev->failed = true;
        r->totals.dispatches_failed++;
        gmf_hooks_draw_end(r, ev);
        return;
    }
    const struct sm_context_state *st = sm_context_state(c);
    ev->program = st->program;
    gmf_hooks_draw_begin(r, ev);
    run_dispatch(r, c, st, call, cmd, ev);
    gmf_hooks_draw_end(r, ev);
}

static void run_dispatch(gmf_runner *r, const struct sm_context *c,
                         const struct sm_context_state *st, const struct glr_call *call,
                         uint32_t cmd, gmf_event *ev)
{
    const struct sm_program *sp = st->program ? sm_get_program(c, st->program) : NULL;
    gmf_prog *p = sp ? gmf_prog_get(r, c, sp) : NULL;
    if (!p || !p->ok || !p->cs) {
        gmf_note(ev, "%s", !st->program ? "dispatch without a program (or with a program pipeline)"
                           : !p ? "program unknown" : !p->ok ? p->error
                           : "dispatch with a program that has no compute shader");
        ev->failed = true;
        r->totals.dispatches_failed++;
        return;
    }
    ev->reads_clock = gm_program_reads_clock(p->cs) != 0;
    uint32_t groups[3];
    if (!dispatch_size(r, c, st, call, cmd, groups, ev)) {
        ev->failed = true;
        r->totals.dispatches_failed++;
        return;
    }
    cs_run cr;
    memset(&cr, 0, sizeof cr);
    cr.cs = p->cs;
    gm_program_local_size(p->cs, cr.ls);
    if (!variable_group_size(p, call, cmd, cr.ls, ev))
        return; /* GL_INVALID_OPERATION / GL_INVALID_VALUE: the driver runs nothing either */
    memcpy(cr.groups, groups, sizeof groups);
    cr.dispatch = ev->draw;
    uint64_t inv = (uint64_t)cr.ls[0] * (uint64_t)cr.ls[1] * (uint64_t)cr.ls[2];
    uint64_t total = inv * groups[0] * groups[1] * groups[2];
    if (!total)
        return; /* an empty grid does nothing */
    if (inv > 1024 || total > GMF_MAX_CS_INVOCATIONS) {
        gmf_note(ev, "dispatch of %llu invocations (%llu per group) is beyond the model's limits",
                 (unsigned long long)total, (unsigned long long)inv);
        ev->failed = true;
        r->totals.dispatches_failed++;
        return;
    }
    cr.invocations = (int)inv;
    cr.wpg = (int)((inv + GM_LANES - 1) / GM_LANES);
    cr.shared_words = gm_program_shared_words(p->cs);
    const int bis[5] = { BI_NUM_WORKGROUPS, BI_WORKGROUP_ID, BI_LOCAL_ID, BI_GLOBAL_ID,
                         BI_LOCAL_INDEX };
    for (int b = 0; b < 5; b++) {
        int var, off;
        cr.bi_var[b] = gm_program_find_builtin(p->cs, bis[b], &var, &off) == 0 && off == 0 ? var : -1;
    }
    gmf_draw_ctx *d = calloc(1, sizeof *d);
    if (!d) {
        ev->failed = true;
        return;
    }
    d->r = r;
    d->c = c;
    d->st = st;
    d->p = p;
    d->ev = ev;
    cr.d = d;
    gmf_prog_upload_uniforms(r, c, sp, p, ev);
    if (cmd == GLR_CMD_glDispatchComputeGroupSizeARB) {
        uint32_t words[3] = { (uint32_t)cr.ls[0], (uint32_t)cr.ls[1], (uint32_t)cr.ls[2] };
        gm_program_set_uniform_by_name(p->cs, VARIABLE_GROUP_SIZE, words, 1); /* absent when unused */
    }
    /* Samplers, the buffer callback and the blocks' bindings from the draw path (stage
     * slot 0 = compute). */
    gmf_setup_env(d);
    int rc;
    gm_timing_config tc;
    gm_timing_config_default(&tc);   /* the runner's model uses the defaults */
    if (r->tm && cr.wpg <= tc.warp_slots_per_sm) {
        rc = run_timing(&cr);
    } else {
        uint32_t *shared = calloc((size_t)cr.shared_words + 1, 4);
        rc = shared ? run_lockstep(&cr, shared) : -1;
        free(shared);
    }
    r->totals.cs_invocations += total;
    if (rc != 0 || d->failed) {
        ev->failed = true;
        r->totals.dispatches_failed++;
    }
    free(d);
}
