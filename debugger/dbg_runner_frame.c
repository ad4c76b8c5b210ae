/* The real runner: the frame runner of gpu_model/frame/ (gmf_frame.h) executes the draws of the
 * capture; its observer is translated into the debugger's (draw, stage, warp, shader id).
 *
 * Speed (the debugger's continue -> stopped, docs/BENCHMARKS.md "Debugger: time to a stop"):
 * - the model runs on a thread of its own, so a pass can be *suspended* at its stop (the
 *   observer asks for it) and *resumed* by the next continue or step from that very instruction: the
 *   model is deterministic, so this is exactly what a new pass would reach, without compiling
 *   the programs and running the frame's prefix again;
 * - without the timing model by default (same images, deterministic order, several times faster);
 * - records after the last draw that can run a breakpoint's shader are not fed (nothing after it
 *   can change a hit), see limit_to_shaders;
 * - with GLREPLAY_DAP_SPARES=1, a second model thread prepares the next new pass's run (a
 *   *spare*, parked before its first instruction) while the user looks at a stop, so a new pass
 *   does not wait for glslang (off by default: no measurable gain on the samples).
 * GLREPLAY_DAP_PROFILE=1 prints each run's phases on stderr.
 *
 * gmf_issue does not carry the gm_program the warp runs, which the snapshot needs for variable
 * names and types. The program is compiled here a second time from the same linked sources in
 * the same order (the front end is deterministic, so variable indexes match the runner's);
 * values are always read through the runner's warp, so uniforms are the runner's. These
 * compiles are kept for the runner's life: every pass over the same capture links the same
 * (context, program, link count) to the same sources.
 * TODO(frame runner): a gm_program pointer in gmf_issue would remove this second compile. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "capture/glcap_file.h"
#include "gpu_model/frame/gmf_frame.h"
#include "debugger/snapshot_contents.h"
#include "replay/player/player.h"
#include "statemodel/statemodel.h"
#include "registry/glr_gl_enums.h"
#include "registry/glr_call_codec.h"
#include "debugger/dbg_capture.h"
#include "debugger/dbg_runner.h"
#include "debugger/dbg_runner_ckpt.h"


/* prog_meta slots: a program has a VS, optional TCS/TES and GS, and an FS, or a CS alone (as
 * gmf_program.c compiles it). */
enum { SLOT_VS, SLOT_FS, SLOT_CS, SLOT_GS, SLOT_TCS, SLOT_TES, N_SLOTS };

static int stage_slot(int stage)
{
    return stage == GM_STAGE_FRAGMENT ? SLOT_FS : stage == GM_STAGE_COMPUTE ? SLOT_CS
         : stage == GM_STAGE_GEOMETRY ? SLOT_GS : stage == GM_STAGE_TESS_CONTROL ? SLOT_TCS
         : stage == GM_STAGE_TESS_EVALUATION ? SLOT_TES : SLOT_VS;
}

struct prog_meta {
    uint32_t ctx, name, link_count;
    gm_compile_result cr;
    gm_program *stage_prog[N_SLOTS];   /* by stage_slot */
    int shader[N_SLOTS];
};

/* Model contexts: a gmf run on a thread of its own. One may hold a suspended pass while the other
 * holds a *spare*: a run already created, fed and compiled up to its first shader instruction and
 * parked there before observing anything, so the next new pass starts from it exactly as a new
 * run would, without waiting for glslang (prepared in the background after each pass).
 * Commands are posted under the impl's lock; the model thread consumes one (cmd back to MC_NONE)
 * when it acts on it; a context is settled when cmd is MC_NONE and it is done, suspended or spare. */
enum model_state { MS_IDLE, MS_RUNNING, MS_SUSPENDED, MS_SPARE, MS_DONE };
enum model_cmd { MC_NONE, MC_RUN, MC_PREPARE, MC_ADOPT, MC_RESUME, MC_ABANDON, MC_QUIT };

struct frame_impl;

struct model {
    struct frame_impl *f;
    pthread_t th;
    bool started;
    enum model_state state;
    enum model_cmd cmd;
    bool preparing;              /* park at the first instruction as a spare */
    bool timing;                 /* the run's gmf timing model */
    bool abandoned;
    gmf_runner *r;
    dbg_observe_fn fn;
    void *fn_ctx;
    uint32_t cur_ctx;
    uint64_t cur_record;
    uint64_t last_record;        /* records after it are not fed (UINT64_MAX: all) */
    /* This run so far: the records fed to the model (the one it is in included) and the draws it
     * modelled to their end (left-out ones not counted): what a stop cost (dbg_runner_pass_counts) */
    uint64_t n_records, n_draws;
    uint64_t n_left_out;         /* draws this run left out through its record hooks */
    int ckpt_draw;               /* the checkpoint's draw this run started at, -1: none */
    /* Hooks this run took from dbg_runner_set_next_hooks, freed when it ends (lock held). */
    struct dbg_record_hooks *owned_hooks;
    void (*owned_free)(struct dbg_record_hooks *h);
    uint32_t groups[3];          /* the current direct dispatch's workgroup counts (0: unknown) */
    int meta_idx;                /* cache of the last meta lookup: index into progs */
    int ff_cache_n, ff_cache_stage, ff_cache_id;   /* the last fixed-function source looked up */
    uint64_t meta_draw;
    uint32_t meta_prog;
    int result;
    char err[256];
    double t0;
    /* While suspended: the warp the pass is parked at, its draw and stage (sample_parked). */
    gm_warp *parked_w;
    int parked_draw, parked_stage;
};

struct frame_impl {
    const struct dbg_capture *cap;
    const struct dbg_runner *self;
    char *metadata;
    void *program_sources;   /* SHADER_SOURCES section, NULL when none */
    size_t program_sources_size;
    gmf_surface_desc *surfaces;
    int n_surfaces;
    struct prog_meta *progs;     /* used by the one context that runs a pass */
    int n_progs;
    uint64_t last_record;        /* the limit for the next pass */
    bool profile;                /* GLREPLAY_DAP_PROFILE=1: phase times on stderr */
    struct glr_restore *snapshot; /* a mid-run capture's saved pixel contents (NULL: none) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct model m[2];
    int pass;                    /* the context of the current/suspended pass, -1 */
    uint64_t counted_records, counted_draws;   /* the last pass's, when it stopped or ended */
    uint64_t counted_left_out;
    int counted_ckpt_draw;
    /* dbg_runner_set_next_hooks: for the next fresh run (frame_run) */
    struct dbg_record_hooks *next_hooks;
    void (*next_free)(struct dbg_record_hooks *h);
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void prof(struct model *m, const char *what)
{
    if (m->f->profile)
        fprintf(stderr, "glreplay: dap-profile [%d] %8.1f ms  %s\n", (int)(m - m->f->m), (now_s() - m->t0) * 1e3, what);
}

static int meta_index(struct model *mm, uint32_t ctx_id, uint32_t name)
{
    struct frame_impl *f = mm->f;
    const struct sm_context *c = sm_context_get(gmf_state(mm->r), ctx_id);
    const struct sm_program *sp = c ? sm_get_program(c, name) : NULL;
    bool arb = false;
    if (!sp && (sp = gmf_arb_program(mm->r, name)))
        arb = true;   /* ARB assembly programs: the GLSL the runner translated them to */
    if (!sp)
        return -1;
    for (int i = 0; i < f->n_progs; i++)
        if (f->progs[i].ctx == ctx_id && f->progs[i].name == name && f->progs[i].link_count == sp->link_count)
            return i;
    struct prog_meta *np = realloc(f->progs, (size_t)(f->n_progs + 1) * sizeof *np);
    if (!np)
        return -1;
    f->progs = np;
    int idx = f->n_progs++;
    struct prog_meta *m = &f->progs[idx];
    memset(m, 0, sizeof *m);
    m->ctx = ctx_id;
    m->name = name;
    m->link_count = sp->link_count;
    /* Same sources, order and names as gpu_model/frame/gmf_program.c: a program with a compute
     * shader is compiled alone ("programN.comp"), as the runner does (compile_compute). */
    for (uint32_t i = 0; i < sp->n_linked; i++) {
        if (sp->linked[i].type != GL_COMPUTE_SHADER)
            continue;
        char cname[48];
        snprintf(cname, sizeof cname, "program%u.comp", sp->name);
        const char *text = sp->linked[i].source ? sp->linked[i].source : "";
        gm_shader_source csrc = { GM_STAGE_COMPUTE, text, cname };
        m->shader[SLOT_CS] = dbg_capture_find_shader(f->cap, GM_STAGE_COMPUTE, text);
        if (gm_compile_program(&csrc, 1, &m->cr) != 0 || m->cr.shader_count < 1)
            return idx;
        char cerr[256];
        m->stage_prog[SLOT_CS] = gm_program_create(m->cr.shaders[0].spirv, m->cr.shaders[0].word_count, cerr, sizeof cerr);
        if (f->profile) {
            char what[128];
            snprintf(what, sizeof what, "debugger's compile of program %u (variable names): CS shader %d", name,
                     m->shader[SLOT_CS]);
            prof(mm, what);
        }
        return idx;
    }
    gm_shader_source src[GM_STAGE_COUNT];
    char names[GM_STAGE_COUNT][48];
    int n = 0;
    /* The linked VS, TCS, TES, GS and FS in the program's order, named like gmf_program.c
     * names them; a program with other stages is not run by the model: no slots. */
    for (uint32_t i = 0; i < sp->n_linked && n < GM_STAGE_COUNT; i++) {
        uint32_t t = sp->linked[i].type;
        if (t != GL_VERTEX_SHADER && t != GL_FRAGMENT_SHADER && t != GL_GEOMETRY_SHADER &&
            t != GL_TESS_CONTROL_SHADER && t != GL_TESS_EVALUATION_SHADER)
            return idx;
        gm_stage st = t == GL_VERTEX_SHADER ? GM_STAGE_VERTEX
                    : t == GL_GEOMETRY_SHADER ? GM_STAGE_GEOMETRY
                    : t == GL_TESS_CONTROL_SHADER ? GM_STAGE_TESS_CONTROL
                    : t == GL_TESS_EVALUATION_SHADER ? GM_STAGE_TESS_EVALUATION : GM_STAGE_FRAGMENT;
        snprintf(names[n], sizeof names[n], "program%u.%s", sp->name,
                 st == GM_STAGE_VERTEX ? "vert" : st == GM_STAGE_GEOMETRY ? "geom"
                 : st == GM_STAGE_TESS_CONTROL ? "tesc" : st == GM_STAGE_TESS_EVALUATION ? "tese"
                 : "frag");
        const char *text = sp->linked[i].source ? sp->linked[i].source : "";
        src[n] = (gm_shader_source){ st, text, names[n] };
        /* An ARB stage is listed under its assembly text (dbg_capture.c); a stand-in is not. */
        const char *listed = arb ? gmf_arb_program_text(mm->r, name, st == GM_STAGE_FRAGMENT) : text;
        m->shader[stage_slot(st)] = listed ? dbg_capture_find_shader(f->cap, st, listed) : -1;
        n++;
    }
    if (!n || gm_compile_program(src, n, &m->cr) != 0)
        return idx;
    char err[256];
    for (int i = 0; i < m->cr.shader_count; i++) {
        gm_compiled_shader *cs = &m->cr.shaders[i];
        if (cs->stage == GM_STAGE_VERTEX || cs->stage == GM_STAGE_FRAGMENT || cs->stage == GM_STAGE_GEOMETRY ||
            cs->stage == GM_STAGE_TESS_CONTROL || cs->stage == GM_STAGE_TESS_EVALUATION)
            m->stage_prog[stage_slot(cs->stage)] = gm_program_create(cs->spirv, cs->word_count, err, sizeof err);
    }
    if (f->profile) {
        char what[160];
        snprintf(what, sizeof what,
                 "debugger's compile of program %u (variable names): VS shader %d, GS shader %d, FS shader %d",
                 name, m->shader[SLOT_VS], m->shader[SLOT_GS], m->shader[SLOT_FS]);
        prof(mm, what);
    }
    return idx;
}

static void free_metas(struct frame_impl *f)
{
    for (int i = 0; i < f->n_progs; i++) {
        for (int k = 0; k < N_SLOTS; k++)
            if (f->progs[i].stage_prog[k])
                gm_program_destroy(f->progs[i].stage_prog[k]);
        gm_compile_result_free(&f->progs[i].cr);
    }
    free(f->progs);
    f->progs = NULL;
    f->n_progs = 0;
}

static char *state_json(void *ctx)
{
    struct model *m = ctx;
    return sm_query_json(gmf_state(m->r), m->cur_ctx);
}

/* Parks the model thread in `state` until a command in `go` (the one to go on) or an abandon.
 * true: go on. */
static bool park(struct model *m, enum model_state state, enum model_cmd go)
{
    struct frame_impl *f = m->f;
    pthread_mutex_lock(&f->mu);
    m->state = state;
    pthread_cond_broadcast(&f->cv);
    while (m->cmd != go && m->cmd != MC_ABANDON && m->cmd != MC_QUIT)
        pthread_cond_wait(&f->cv, &f->mu);
    bool ok = m->cmd == go;
    m->cmd = MC_NONE;
    m->state = MS_RUNNING;
    if (ok && go == MC_ADOPT)
        m->preparing = false;
    pthread_mutex_unlock(&f->mu);
    if (!ok)
        m->abandoned = true;
    return ok;
}

/* The warps resident in the timing model (gmf_resident_warps), the observed one included, that
 * have begun: a launched warp that has issued nothing yet holds no state of its own (its
 * variables are all unset), so it is not a thread of the GPU context (and a pause at the frame's
 * first instruction keeps one thread). */
static int ff_shader(struct model *m, const char *file, int stage);

static int resident_warps(void *ctx, struct dbg_resident_warp *out, int max)
{
    struct model *m = ctx;
    gmf_resident rw[256];
    int n = gmf_resident_warps(m->r, rw, 256);
    int k = 0;
    for (int i = 0; i < n && k < max; i++) {
        if (!gm_warp_issued(rw[i].w))
            continue;
        const gm_program *wp = gm_warp_program(rw[i].w);
        int ffs = wp && gm_program_pc_count(wp) > 0 ? ff_shader(m, gm_program_pc_file(wp, 0), rw[i].stage) : 0;
        if (ffs) {
            struct dbg_resident_warp *o = &out[k++];
            o->info = (struct dbg_observe_info){
                .draw = (int)rw[i].draw, .event = m->cur_record, .stage = rw[i].stage, .program = rw[i].program,
                .shader = ffs, .prog = wp, .warp = rw[i].warp, .lane_x = rw[i].lane_x, .lane_y = rw[i].lane_y,
            };
            o->w = rw[i].w;
            gm_mask act = gm_warp_active_mask(rw[i].w);
            int first = 0;
            while (first < 31 && !((act >> first) & 1))
                first++;
            o->issue = (gm_issue){ .warp_id = (int)rw[i].warp, .pc = gm_warp_pc(rw[i].w),
                                   .line = gm_warp_lane_line(rw[i].w, first), .active = act,
                                   .call_depth = gm_warp_call_depth(rw[i].w) - 1 };
            continue;
        }
        int mi = meta_index(m, m->cur_ctx, rw[i].program);
        if (mi < 0)
            continue;
        const struct prog_meta *pm = &m->f->progs[mi];
        int slot = stage_slot(rw[i].stage);
        if (!pm->stage_prog[slot])
            continue;
        struct dbg_resident_warp *o = &out[k++];
        o->info = (struct dbg_observe_info){
            .draw = (int)rw[i].draw, .event = m->cur_record, .stage = rw[i].stage, .program = rw[i].program,
            .shader = pm->shader[slot], .prog = pm->stage_prog[slot], .warp = rw[i].warp,
            .lane_x = rw[i].lane_x, .lane_y = rw[i].lane_y, .fs = rw[i].fs,
        };
        if (rw[i].stage == GM_STAGE_COMPUTE)
            memcpy(o->info.groups, m->groups, sizeof o->info.groups);
        o->w = rw[i].w;
        gm_mask act = gm_warp_active_mask(rw[i].w);
        int first = 0;
        while (first < 31 && !((act >> first) & 1))
            first++;
        o->issue = (gm_issue){ .warp_id = (int)rw[i].warp, .pc = gm_warp_pc(rw[i].w),
                               .line = gm_warp_lane_line(rw[i].w, first), .active = act,
                               .call_depth = gm_warp_call_depth(rw[i].w) - 1 };
    }
    return k;
}

static int texture_incomplete(void *ctx, unsigned unit, int dim, int arrayed, int ms, uint32_t *name)
{
    struct model *m = ctx;
    return gmf_unit_incomplete(m->r, unit, dim, arrayed, ms, name);
}

/* The engine's observer, parking the model thread while a stop is suspended. */
static int observe_call(struct model *m, const struct dbg_observe_info *info, gm_warp *w, const gm_issue *is)
{
    int ret = m->fn(m->fn_ctx, info, w, is);
    while (ret == DBG_OBSERVE_SUSPEND) {
        prof(m, "stop: suspended");
        /* The parked warp: evaluate samples its texture units (dbg_eval's texture functions). */
        m->parked_w = w;
        m->parked_draw = info->draw;
        m->parked_stage = info->stage;
        bool go = park(m, MS_SUSPENDED, MC_RESUME);
        m->parked_w = NULL;
        if (!go)
            return 1;
        m->t0 = now_s();
        prof(m, "resumed");
        /* Resumed: the engine may stop again at another lane of this very instruction. */
        ret = m->fn(m->fn_ctx, info, w, is);
    }
    return ret == DBG_OBSERVE_END ? 1 : 0;
}

/* A warp of a generated fixed-function stage (gmf_ffunc.c names its source "fixed-function vs #N"):
 * the capture lists that source (dbg_ff_sources.c) under the same text; the warp's own program
 * gives the variables. The shader id, or 0 when the warp runs no generated stage. */
static int ff_shader(struct model *m, const char *file, int stage)
{
    int n;
    char kind[3];
    if (!file || sscanf(file, "fixed-function %2s #%d", kind, &n) != 2 ||
        (stage != GM_STAGE_VERTEX && stage != GM_STAGE_FRAGMENT))
        return 0;
    if (m->ff_cache_n == n && m->ff_cache_stage == stage)
        return m->ff_cache_id;
    gmf_ff_source src;
    int st = stage == GM_STAGE_FRAGMENT;
    if (!gmf_ff_source_get(m->r, n, &src) || !src.text[st])
        return 0;
    m->ff_cache_n = n;
    m->ff_cache_stage = stage;
    m->ff_cache_id = dbg_capture_find_shader(m->f->cap, stage, src.text[st]);
    return m->ff_cache_id;
}

static int trampoline(void *ctx, gm_warp *w, const gmf_issue *gi)
{
    struct model *m = ctx;
    struct frame_impl *f = m->f;
    if (m->abandoned)
        return 1;
    if (m->preparing) {
        /* A spare: everything up to here is the same for any pass; wait for one. */
        prof(m, "spare ready (parked before the first instruction)");
        if (!park(m, MS_SPARE, MC_ADOPT))
            return 1;
        m->t0 = now_s();
        prof(m, "spare adopted by a pass");
        if (m->cur_record > m->last_record)
            return 1;   /* this pass cannot reach this draw's shaders: it ends here */
    }
    if (gi->file && !strncmp(gi->file, "fixed-function ", 15)) {
        int sh = ff_shader(m, gi->file, gi->stage);
        if (!sh)
            return 0;
        m->meta_idx = -1;   /* the next GLSL warp looks its program up again */
        struct dbg_observe_info info = {
            .draw = (int)gi->draw, .event = m->cur_record, .stage = gi->stage, .program = gi->program,
            .shader = sh, .prog = gm_warp_program(w), .warp = gi->warp,
            .lane_x = gi->lane_x, .lane_y = gi->lane_y,
            .state_json = state_json, .state_ctx = m,
            .resident = m->timing ? resident_warps : NULL, .resident_ctx = m,
            .texture_incomplete = texture_incomplete, .texture_ctx = m,
        };
        gm_issue is = { .warp_id = (int)gi->warp, .pc = gi->pc, .line = gi->line, .active = gi->active,
                        .call_depth = gi->call_depth };
        return observe_call(m, &info, w, &is);
    }
    /* One lookup per draw and program, not per instruction. */
    if (m->meta_idx < 0 || m->meta_draw != gi->draw || m->meta_prog != gi->program) {
        m->meta_idx = meta_index(m, m->cur_ctx, gi->program);
        m->meta_draw = gi->draw;
        m->meta_prog = gi->program;
        if (m->meta_idx < 0)
            return 0;
    }
    struct prog_meta *pm = &f->progs[m->meta_idx];
    int k = stage_slot(gi->stage);
    if (!pm->stage_prog[k])
        return 0;
    struct dbg_observe_info info = {
        .draw = (int)gi->draw, .event = m->cur_record, .stage = gi->stage, .program = gi->program,
        .shader = pm->shader[k], .prog = pm->stage_prog[k], .warp = gi->warp,
        .lane_x = gi->lane_x, .lane_y = gi->lane_y,
        .fs = gi->stage == GM_STAGE_FRAGMENT ? gi->fs : NULL,
        .state_json = state_json, .state_ctx = m,
        .resident = m->timing ? resident_warps : NULL, .resident_ctx = m,
        .texture_incomplete = texture_incomplete, .texture_ctx = m,
    };
    if (gi->stage == GM_STAGE_COMPUTE)
        memcpy(info.groups, m->groups, sizeof info.groups);
    gm_issue is = { .warp_id = (int)gi->warp, .pc = gi->pc, .line = gi->line, .active = gi->active,
                    .call_depth = gi->call_depth };
    return observe_call(m, &info, w, &is);
}

enum { RUN_AGAIN_WITHOUT_HOOKS = 2 };

/* One run of the frame on the model thread, with the record hooks hk (NULL: none). */
static int frame_body_once(struct model *m, struct dbg_record_hooks *hk, char *err, size_t err_size)
{
    struct frame_impl *f = m->f;
    m->t0 = now_s();
    gmf_config cfg = { .metadata_json = f->metadata, .surfaces = f->surfaces, .n_surfaces = f->n_surfaces,
                       .timing = m->timing ? GMF_TIMING_ON : GMF_TIMING_OFF,
                       .program_sources = f->program_sources, .program_sources_size = f->program_sources_size };
    m->r = gmf_create(&cfg, err, err_size);
    if (!m->r)
        return DBG_RUN_ERROR;
    m->abandoned = false;
    m->meta_idx = -1;
    m->ff_cache_n = -1;
    gmf_set_observer(m->r, trampoline, m);
    gmf_set_abort(m->r, f->self->abort_flag);
    struct glr_stream s;
    struct glr_call c;
    int rc;
    int status = DBG_RUN_END;
    /* A frame captured from a running program (live attach) starts from a snapshot with objects:
     * the runner starts empty, so the state's restore calls go first (they draw nothing, so draw
     * indexes are unchanged). A capture from context creation has no objects and skips this. */
    m->cur_record = 0;
    m->n_records = m->n_draws = m->n_left_out = 0;
    m->ckpt_draw = -1;
    if (gmf_feed_initial_state(m->r, f->cap->initial) != 0 || gmf_feed_snapshot_contents(m->r, f->snapshot) < 0) {
        snprintf(err, err_size, "out of memory restoring the capture's initial state");
        gmf_destroy(m->r);
        m->r = NULL;
        return DBG_RUN_ERROR;
    }
    /* Named apart: tests count the runs passes created (a spare counts when a pass adopts it). */
    prof(m, m->preparing ? "spare created, initial state fed" : "runner created, initial state fed");
    /* A pass the engine starts at a checkpoint (dbg_ckpt.h): the records before it only set
     * state and compile programs (in the frame's order), then the checkpoint's images, counters
     * and timing state come in. Other passes keep checkpoints before each draw. */
    struct dbg_ckpts *ck = f->self->ckpts;   /* a spare starts at the frame's start (frame_run) */
    const struct dbg_ckpt *from =
        ck && !m->preparing && ck->start >= 0 && ck->start < ck->n ? &ck->c[ck->start] : NULL;
    int ck_draw = 0;
    if (from)
        gmf_set_programs_only(m->r, true);
    if (hk)
        hk->restart(hk->ctx);
    glr_stream_init(&s, f->cap->cap->stream, f->cap->cap->stream_size);
    while ((rc = glr_stream_next(&s, &c)) == 1) {
        m->cur_record = s.index - 1;
        if (m->cur_record > m->last_record || (hk && m->cur_record > hk->until))
            break;   /* nothing after the last draw of a breakpoint's shader can change a hit */
        if (from && m->cur_record == from->record) {
            gmf_set_programs_only(m->r, false);
            if (dbg_runner_ckpt_install(m->r, from) != 0) {
                snprintf(err, err_size, "cannot start at the checkpoint of draw %d (out of memory, or the programs differ)", from->draw);
                status = DBG_RUN_ERROR;
                break;
            }
            if (f->profile) {
                char what[96];
                snprintf(what, sizeof what, "started at the checkpoint before draw %d", from->draw);
                prof(m, what);
            }
            ck->started++;
            m->ckpt_draw = from->draw;
            from = NULL;
        } else if (!from && ck && !m->preparing && !hk) {
            /* (not with the hooks: the images they handed the model are not the model's own) */
            dbg_runner_ckpt_offer(ck, f->cap, &ck_draw, m->cur_record, m->r, m->fn_ctx, m->timing, f->profile);
        }
        if (c.ctx_id)
            m->cur_ctx = c.ctx_id;
        if (c.cmd == GLR_CMD_glDispatchCompute) {
            for (int k = 0; k < 3; k++)
                m->groups[k] = (uint32_t)c.args[k];
        } else if (c.cmd == GLR_CMD_glDispatchComputeIndirect) {
            memset(m->groups, 0, sizeof m->groups);   /* the counts are in a buffer */
        }
        gmf_event ev;
        m->n_records++;
        int leave_out = hk ? hk->before(hk->ctx, m->r, &c, m->cur_record) : 0;
        if (leave_out < 0) {
            status = RUN_AGAIN_WITHOUT_HOOKS;
            break;
        }
        gmf_set_skip_draws(m->r, leave_out == 1);
        gmf_status st = gmf_feed(m->r, &c, m->cur_record, &ev);
        gmf_set_skip_draws(m->r, false);
        if (st != GMF_ERROR && leave_out == 1 && hk->after(hk->ctx, m->r, &c, m->cur_record, &ev) != 0) {
            status = RUN_AGAIN_WITHOUT_HOOKS;
            break;
        }
        if (st != GMF_ERROR && ev.kind == GMF_EV_DRAW && !ev.skipped && !from)
            m->n_draws++;   /* (not before a checkpoint: those draws only set state) */
        else if (st != GMF_ERROR && ev.kind == GMF_EV_DRAW && leave_out == 1)
            m->n_left_out++;
        if (st == GMF_ERROR) {
            snprintf(err, err_size, "the frame runner failed at record %llu", (unsigned long long)m->cur_record);
            status = DBG_RUN_ERROR;
            break;
        }
        if (st == GMF_STOPPED)
            break;
        if (f->profile && ev.kind == GMF_EV_DRAW) {
            char what[96];
            snprintf(what, sizeof what, "draw %llu (program %u) done, %.1f ms in the model",
                     (unsigned long long)ev.draw, ev.program, ev.seconds * 1e3);
            prof(m, what);
        }
    }
    if (rc < 0 && status == DBG_RUN_END) {
        snprintf(err, err_size, "%s", s.err);
        status = DBG_RUN_ERROR;
    }
    gmf_destroy(m->r);
    m->r = NULL;
    prof(m, m->abandoned ? "run abandoned" : "run ended");
    return status;
}

/* A run with the runner's record hooks (debug this pixel: earlier passes from the driver) in a
 * pass from the frame's start; when they give up (a record needs what they left out), the run
 * starts again without them. Nothing was observed before: the hooks give up before the draw
 * (record <= until) whose hits the pass counts. */
static int frame_body(struct model *m, char *err, size_t err_size)
{
    struct frame_impl *f = m->f;
    struct dbg_record_hooks *hk = m->owned_hooks ? m->owned_hooks : f->self->hooks;
    struct dbg_ckpts *ck = f->self->ckpts;
    if (!hk || hk->gave_up || m->preparing || (ck && ck->start >= 0 && ck->start < ck->n))
        return frame_body_once(m, NULL, err, err_size);
    int rc = frame_body_once(m, hk, err, err_size);
    if (rc != RUN_AGAIN_WITHOUT_HOOKS)
        return rc;
    hk->gave_up = true;
    prof(m, "record hooks gave up: run again without them");
    return frame_body_once(m, NULL, err, err_size);
}

static void *model_thread(void *arg)
{
    struct model *m = arg;
    struct frame_impl *f = m->f;
    pthread_mutex_lock(&f->mu);
    for (;;) {
        while (m->cmd != MC_RUN && m->cmd != MC_PREPARE && m->cmd != MC_QUIT) {
            if (m->cmd != MC_NONE) {   /* nothing to abandon or resume here */
                m->cmd = MC_NONE;
                pthread_cond_broadcast(&f->cv);
            }
            pthread_cond_wait(&f->cv, &f->mu);
        }
        if (m->cmd == MC_QUIT)
            break;
        m->preparing = m->cmd == MC_PREPARE;
        m->cmd = MC_NONE;
        m->state = MS_RUNNING;
        pthread_mutex_unlock(&f->mu);
        char err[256] = "";
        int rc = frame_body(m, err, sizeof err);
        pthread_mutex_lock(&f->mu);
        if (m->owned_hooks) {   /* the run that took them is over */
            m->owned_free(m->owned_hooks);
            m->owned_hooks = NULL;
        }
        m->preparing = false;
        m->result = rc;
        snprintf(m->err, sizeof m->err, "%s", err);
        m->state = MS_DONE;
        if (m->cmd == MC_ABANDON || m->cmd == MC_ADOPT || m->cmd == MC_RESUME)
            m->cmd = MC_NONE;      /* the run ended before it could act on it */
        pthread_cond_broadcast(&f->cv);
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* Lock held. */
static void wait_settled(struct model *m)
{
    struct frame_impl *f = m->f;
    while (!(m->cmd == MC_NONE && (m->state == MS_DONE || m->state == MS_SUSPENDED || m->state == MS_SPARE ||
                                   m->state == MS_IDLE)))
        pthread_cond_wait(&f->cv, &f->mu);
}

static void post(struct model *m, enum model_cmd cmd)
{
    m->cmd = cmd;
    pthread_cond_broadcast(&m->f->cv);
}

/* Lock held: ends whatever the context holds (a suspended pass, a spare, a preparation). */
static void drop(struct model *m)
{
    wait_settled(m);
    if (m->state == MS_SUSPENDED || m->state == MS_SPARE) {
        post(m, MC_ABANDON);
        wait_settled(m);
    }
    if (m->state == MS_DONE)
        m->state = MS_IDLE;
}

static bool start_threads(struct frame_impl *f)
{
    /* The second context only ever holds spares. */
    for (int i = 0; i < (f->self->spares ? 2 : 1); i++)
        if (!f->m[i].started) {
            if (pthread_create(&f->m[i].th, NULL, model_thread, &f->m[i]) != 0)
                return false;
            f->m[i].started = true;
        }
    return true;
}

/* Lock held: after a pass settled, the other context prepares a spare for the next new pass. */
static void prepare_spare(struct frame_impl *f)
{
    if (!f->self->spares)
        return;
    for (int i = 0; i < 2; i++) {
        struct model *m = &f->m[i];
        if (i == f->pass || !m->started)
            continue;
        if (m->cmd == MC_NONE && m->state == MS_SPARE && m->timing == f->self->timing)
            return;   /* one is there */
    }
    for (int i = 0; i < 2; i++) {
        struct model *m = &f->m[i];
        if (i == f->pass || !m->started || m->cmd != MC_NONE)
            continue;
        if (m->state == MS_RUNNING)
            return;   /* being prepared */
        if (m->state == MS_SPARE) {
            post(m, MC_ABANDON);   /* another timing setting: make a new one */
            wait_settled(m);
        }
        if (m->state == MS_IDLE || m->state == MS_DONE) {
            m->state = MS_IDLE;
            m->timing = f->self->timing;
            m->last_record = UINT64_MAX;
            post(m, MC_PREPARE);
            return;
        }
    }
}

/* Lock held: the pass context settled; its result. */
static int settle(struct frame_impl *f, struct model *m, char *err, size_t err_size)
{
    wait_settled(m);
    int rc;
    if (m->state == MS_SUSPENDED) {
        rc = DBG_RUN_SUSPENDED;
    } else {
        rc = m->result;
        if (rc == DBG_RUN_ERROR)
            snprintf(err, err_size, "%s", m->err);
        m->state = MS_IDLE;
        f->pass = -1;
    }
    prepare_spare(f);
    return rc;
}

static int frame_run(void *impl, dbg_observe_fn fn, void *ctx, char *err, size_t err_size)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    if (!start_threads(f)) {
        pthread_mutex_unlock(&f->mu);
        snprintf(err, err_size, "cannot start the model's threads");
        return DBG_RUN_ERROR;
    }
    if (f->pass >= 0)
        drop(&f->m[f->pass]);   /* the engine abandons first; be safe */
    f->pass = -1;
    /* A spare (maybe still being prepared) of the same timing setting, else a fresh run. */
    struct model *use = NULL;
    for (int i = 0; i < 2 && !use; i++) {
        struct model *m = &f->m[i];
        wait_settled(m);
        if (m->state == MS_SPARE && m->timing == f->self->timing && !(f->self->ckpts && f->self->ckpts->start >= 0) &&
            !f->next_hooks)
            use = m;   /* (a spare starts at the frame's first draw, without hooks) */
    }
    for (int i = 0; i < 2; i++)
        if (&f->m[i] != use)
            drop(&f->m[i]);
    struct model *m = use ? use : &f->m[0];
    m->fn = fn;
    m->fn_ctx = ctx;
    m->last_record = f->last_record;
    f->pass = (int)(m - f->m);
    if (use) {
        post(m, MC_ADOPT);
    } else {
        m->timing = f->self->timing;
        m->owned_hooks = f->next_hooks;
        m->owned_free = f->next_free;
        f->next_hooks = NULL;
        post(m, MC_RUN);
    }
    int rc = settle(f, m, err, err_size);
    f->counted_records = m->n_records;
    f->counted_draws = m->n_draws;
    f->counted_left_out = m->n_left_out;
    f->counted_ckpt_draw = m->ckpt_draw;
    pthread_mutex_unlock(&f->mu);
    return rc;
}

/* The parked model thread waits for a command under f->mu: while this holds the lock the warp
 * and its draw's texture units stay as they are at the stop. */
static int frame_sample_parked(void *impl, int draw, int stage, const gm_sample_request *req, gm_texel_out *out,
                               char *err, size_t err_size)
{
    struct frame_impl *f = impl;
    int rc = -1;
    pthread_mutex_lock(&f->mu);
    struct model *m = f->pass >= 0 ? &f->m[f->pass] : NULL;
    if (!m || m->state != MS_SUSPENDED || m->cmd != MC_NONE || !m->parked_w) {
        snprintf(err, err_size, "the GPU model is not parked at this stop");
        rc = -2;
    } else if (m->parked_draw != draw || m->parked_stage != stage) {
        snprintf(err, err_size, "the GPU model is parked in draw %d, not in this thread's draw %d", m->parked_draw,
                 draw);
        rc = -2;
    } else {
        gm_env env;
        gm_warp_get_env(m->parked_w, &env);
        if (!env.sample)
            snprintf(err, err_size, "this draw has no texture units in the model");
        else {
            env.sample(env.ctx, req, out);
            rc = 0;
        }
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static int frame_resume(void *impl, char *err, size_t err_size)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    int rc;
    if (f->pass < 0 || f->m[f->pass].state != MS_SUSPENDED) {
        snprintf(err, err_size, "internal error: no suspended pass to resume");
        rc = DBG_RUN_ERROR;
    } else {
        struct model *m = &f->m[f->pass];
        /* A resume with changed breakpoints (dbg_rebind.h) may have moved the limit (later only
         * while the model is parked inside a draw: no record after it was skipped yet). */
        m->last_record = f->last_record;
        post(m, MC_RESUME);
        rc = settle(f, m, err, err_size);
        f->counted_records = m->n_records;
        f->counted_draws = m->n_draws;
        f->counted_left_out = m->n_left_out;
        f->counted_ckpt_draw = m->ckpt_draw;
    }
    pthread_mutex_unlock(&f->mu);
    return rc;
}

static void frame_pass_counts(void *impl, uint64_t *records, uint64_t *draws)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    *records = f->counted_records;
    *draws = f->counted_draws;
    pthread_mutex_unlock(&f->mu);
}

static void frame_set_next_hooks(void *impl, struct dbg_record_hooks *h, void (*free_hooks)(struct dbg_record_hooks *h))
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    if (f->next_hooks)   /* not taken by a run */
        f->next_free(f->next_hooks);
    f->next_hooks = h;
    f->next_free = free_hooks;
    pthread_mutex_unlock(&f->mu);
}

static uint64_t frame_pass_left_out(void *impl, int *ckpt_draw)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    uint64_t n = f->counted_left_out;
    *ckpt_draw = f->counted_ckpt_draw;
    pthread_mutex_unlock(&f->mu);
    return n;
}

static void frame_prepare(void *impl)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    if (start_threads(f))
        prepare_spare(f);
    pthread_mutex_unlock(&f->mu);
}

static void frame_abandon(void *impl)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    if (f->pass >= 0)
        drop(&f->m[f->pass]);
    f->pass = -1;
    pthread_mutex_unlock(&f->mu);
}

/* The last record of a draw whose program may run one of the shaders (by program name over every
 * link of it, so relinks are covered; draws with no known program are kept). */
static void frame_limit(void *impl, const int *ids, int n)
{
    struct frame_impl *f = impl;
    if (n < 0) {
        f->last_record = UINT64_MAX;
        return;
    }
    uint64_t last = 0;
    bool any = false;
    const struct dbg_capture *c = f->cap;
    /* Dispatches are not among the capture's draws: a compute shader needs the whole frame. */
    for (int i = 0; i < n; i++) {
        const struct dbg_shader *sh = dbg_capture_shader(c, ids[i]);
        if (sh && sh->stage == GM_STAGE_COMPUTE) {
            f->last_record = UINT64_MAX;
            return;
        }
    }
    for (int d = 0; d < c->n_draws; d++) {
        bool relevant = c->draws[d].program == 0;
        bool known = false;
        for (int p = 0; p < c->n_programs && !relevant; p++) {
            if (c->programs[p].name != c->draws[d].program)
                continue;
            known = true;
            for (int st = 0; st < 6 && !relevant; st++)
                for (int i = 0; i < n && !relevant; i++)
                    relevant = c->programs[p].shader[st] >= 0 && c->programs[p].shader[st] + 1 == ids[i];
        }
        if (relevant || !known) {
            last = c->draws[d].record;
            any = true;
        }
    }
    /* No draw can reach them: the pass only needs to find that out, from nothing. */
    f->last_record = any ? last : 0;
}

/* The checkpoints a pass may start at lie within its limit (dbg_ckpt_pick). */
static void frame_limit_ck(void *impl, const int *ids, int n)
{
    struct frame_impl *f = impl;
    frame_limit(impl, ids, n);
    if (f->self->ckpts)
        f->self->ckpts->limit_record = f->last_record;
}

static void frame_destroy(void *impl)
{
    struct frame_impl *f = impl;
    pthread_mutex_lock(&f->mu);
    for (int i = 0; i < 2; i++)
        if (f->m[i].started) {
            drop(&f->m[i]);
            post(&f->m[i], MC_QUIT);
        }
    pthread_mutex_unlock(&f->mu);
    for (int i = 0; i < 2; i++)
        if (f->m[i].started)
            pthread_join(f->m[i].th, NULL);
    pthread_mutex_destroy(&f->mu);
    pthread_cond_destroy(&f->cv);
    if (f->next_hooks)
        f->next_free(f->next_hooks);
    free_metas(f);
    dbg_ckpts_free(f->self->ckpts);
    free(f->metadata);
    free(f->program_sources);
    free(f->surfaces);
    glr_restore_free(f->snapshot);
    free(f);
}

/* The window sizes: each context's first MAKE_CURRENT with a surface size; a context without one
 * (a frame captured from a running program: it was made current before the capture began) gets
 * its first reference image's size, with alpha if one of its pixels has alpha below 255, as
 * `glreplay model` does (else the runner's 256x256 default would clip the frame). */
static void collect_surfaces(struct frame_impl *f)
{
    struct glr_stream s;
    struct glr_call c;
    glr_stream_init(&s, f->cap->cap->stream, f->cap->cap->stream_size);
    while (glr_stream_next(&s, &c) == 1) {
        if (c.cmd != GLR_PSEUDO_MAKE_CURRENT || !c.ctx_id || !c.args[0] || !c.args[1])
            continue;
        bool known = false;
        for (int i = 0; i < f->n_surfaces; i++)
            known |= f->surfaces[i].ctx_id == c.ctx_id;
        if (known)
            continue;
        gmf_surface_desc *n = realloc(f->surfaces, (size_t)(f->n_surfaces + 1) * sizeof *n);
        if (!n)
            return;
        f->surfaces = n;
        f->surfaces[f->n_surfaces++] = (gmf_surface_desc){ c.ctx_id, (int)c.args[0], (int)c.args[1], false };
    }
    const struct glrh_capture *cap = f->cap->cap;
    int n_made_current = f->n_surfaces;
    for (unsigned k = 0; k < cap->n_images; k++) {
        const struct glrh_image *im = &cap->images[k];
        if (im->fbo || !im->ctx_id || !im->width || !im->height)
            continue;
        int at = -1;
        for (int i = 0; i < f->n_surfaces; i++)
            if (f->surfaces[i].ctx_id == im->ctx_id)
                at = i;
        if (at >= 0 && at < n_made_current)
            continue;
        if (at < 0) {
            gmf_surface_desc *n = realloc(f->surfaces, (size_t)(f->n_surfaces + 1) * sizeof *n);
            if (!n)
                return;
            f->surfaces = n;
            at = f->n_surfaces++;
            f->surfaces[at] = (gmf_surface_desc){ im->ctx_id, (int)im->width, (int)im->height, false };
        }
        size_t np = (size_t)im->width * im->height;
        for (size_t p = 0; im->pixels && p < np && !f->surfaces[at].alpha; p++)
            f->surfaces[at].alpha = im->pixels[4 * p + 3] != 255;
    }
}

struct dbg_runner *dbg_runner_frame_create(const struct dbg_capture *cap, char *err, size_t err_size);
struct dbg_runner *dbg_runner_frame_create(const struct dbg_capture *cap, char *err, size_t err_size)
{
    struct dbg_runner *r = calloc(1, sizeof *r);
    struct frame_impl *f = calloc(1, sizeof *f);
    if (!r || !f) {
        free(r);
        free(f);
        snprintf(err, err_size, "out of memory");
        return NULL;
    }
    f->cap = cap;
    f->self = r;
    f->last_record = UINT64_MAX;
    f->pass = -1;
    for (int i = 0; i < 2; i++)
        f->m[i].f = f;
    const char *pe = getenv("GLREPLAY_DAP_PROFILE");
    f->profile = pe && *pe && strcmp(pe, "0");
    pthread_mutex_init(&f->mu, NULL);
    pthread_cond_init(&f->cv, NULL);
    glcap_reader *rd = glcap_reader_open(cap->path, NULL, err, err_size);
    if (rd) {
        int64_t idx = glcap_reader_find(rd, GLCAP_SECTION_METADATA, 0);
        void *data;
        size_t size;
        if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &data, &size) == 0) {
            f->metadata = malloc(size + 1);
            if (f->metadata) {
                memcpy(f->metadata, data, size);
                f->metadata[size] = 0;
            }
            free(data);
        }
        idx = glcap_reader_find(rd, GLCAP_SECTION_SHADER_SOURCES, 0);
        if (idx >= 0 && glcap_reader_load(rd, (uint32_t)idx, &f->program_sources, &f->program_sources_size) != 0) {
            f->program_sources = NULL;   /* a corrupt section: the model reports those programs sourceless */
            f->program_sources_size = 0;
        }
        glcap_reader_close(rd);
    }
    collect_surfaces(f);
    /* The pixels the snapshot keeps outside the state model (framebuffers drawn over without a
     * clear); without them the frame still runs, from blank images. */
    if (f->metadata && strstr(f->metadata, "\"initial_state\":\"snapshot\"")) {
        char e2[256];
        if (!(f->snapshot = glr_restore_load(cap->path, e2, sizeof e2)))
            fprintf(stderr, "glreplay dap: the snapshot's pixel contents are not loaded: %s\n", e2);
    }
    r->name = "frame";
    r->impl = f;
    r->run = frame_run;
    r->destroy = frame_destroy;
    r->resume = frame_resume;
    r->sample_parked = frame_sample_parked;
    r->abandon = frame_abandon;
    r->limit_to_shaders = frame_limit_ck;
    r->ckpts = dbg_runner_ckpts_new();
    r->prepare = frame_prepare;
    r->pass_counts = frame_pass_counts;
    r->set_next_hooks = frame_set_next_hooks;
    r->pass_left_out = frame_pass_left_out;
    return r;
}
