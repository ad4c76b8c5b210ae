/* Shading a draw's warps on several threads with the single-thread run's results.
 *
 * The pipeline's deferred-shading protocol (gm_pipe_internal.h) lets a shader callback take a
 * warp's inputs and return GM_PIPE_QUEUED; the pipeline completes the oldest queued warp of a
 * stage when it needs its outputs, and applies every per-fragment operation (late depth and
 * stencil, blending, writes) at completion, in submission order. Here a queued warp becomes a
 * job: its inputs are written on the calling (main) thread, worker threads run jobs in
 * submission order, and the main thread runs the oldest job itself when no worker took it.
 * Only the warp's own registers change while it runs, so where it runs does not matter.
 *
 * What a warp reaches outside itself while running, and how each stays as in one thread:
 * - uniform and storage blocks (read only: programs that store, use atomics, images, barriers
 *   or clocks never run threaded, see draw_threadable);
 * - textures. Binding a unit's texture syncs it with the state model (it may load levels and
 *   add notes), which sample() did at every call on one thread. Here each (unit, target) is
 *   resolved once per draw, in a *serial section*: a job may enter one only when it is the
 *   oldest of the draw and the main thread waits for it, i.e. at the point where the
 *   single-thread run would be running that warp. Resolutions (and their notes) therefore
 *   happen in the single-thread order. A texture that is also a render target of the draw
 *   (a feedback loop) is sampled only in serial sections, so it sees exactly the earlier
 *   warps' writes. Vertex shaders that sample make the draw single-threaded: vertex warps of
 *   instance i+1 are queued while fragment warps of instance i are still pending, so a vertex
 *   warp would have no serial section to wait for.
 * Observers, telemetry hooks and the timing model see every instruction in one global order,
 * so draws with any of them (and geometry/tessellation draws, which have their own queues)
 * run on one thread.
 *
 * Counters (instructions, warps) are per draw sums or are counted on the main thread at
 * queue time, as the single-thread callbacks count them. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gmf_threads.h"
#include "gmf_tex_ahead.h"
#include "gm_ir.h"
#include "gm_pipe_internal.h"
#include "gm_timing_pre.h"

/* Warps in flight per stage (pipeline records and pool warps: ~25 KB each). */
#define WINDOW_MAX 64

enum { JOB_FREE, JOB_QUEUED, JOB_RUNNING, JOB_DONE };
enum { RES_NONE, RES_READY, RES_SERIAL };

typedef struct gmf_thr_job {
    struct gmf_thr *t;
    gmf_draw_ctx *d;
    gm_warp *w;
    int stage;                 /* 0 vertex, 1 fragment */
    gm_env env;                /* ctx = this job */
    gm_tex_units units;        /* this warp's bindings (sample() wrote d->units) */
    gm_pipe_vertex *vout;
    int count;
    int32_t lane_x[GM_LANES];
    gm_pipe_fs_warp *fw;
    atomic_int state;          /* JOB_*, changed under the mutex; read without it to spin */
    uint64_t seq;              /* submission order over both stages */
    bool serial_ok;            /* oldest of the draw and the main thread waits for it */
    bool cancelled;            /* the draw dropped it: finish without serial sections */
    gm_run_status status;
} gmf_thr_job;

/* One (unit, target) binding of the draw: written once in a serial section, read by every
 * job after that (state with release/acquire). */
/* A timing-model warp's launch and first run-ahead (gm_timing_pre.h), one per flight. */
typedef struct gmf_pre_job {
    struct gmf_thr *t;
    gm_timing_pre *p;
    atomic_int state;          /* JOB_*, changed under the mutex */
} gmf_pre_job;

/* Queued pre-run jobs in submission order (entries whose job the main thread took are
 * skipped): twice the jobs there can be. */
#define PRE_FIFO (4 * GMF_MAX_FLIGHTS)
/* A sleeping worker is woken once this many jobs wait. The main thread runs a job that is
 * still queued at its warp's launch itself, so waking late loses nothing but the worker's
 * share; a wake per job cost a futex call per warp (measured: 0.2 s of system time per
 * lit_mesh 1280x720 run). */
#define PRE_WAKE_BATCH 8

typedef struct gmf_thr_res {
    atomic_int state;
    const gm_tex_image *image;
    bool has_sampler;
    gm_tex_sampler smp;
} gmf_thr_res;

struct gmf_thr {
    int threads;               /* including the main thread */
    int window;
    pthread_t *workers;
    int n_workers;
    bool started, quit;
    pthread_mutex_t mu;
    pthread_cond_t cv;         /* job done, serial grants, cancels (waiters: `waiters`) */
    pthread_cond_t cv_work;    /* new work or quit, for workers (sleeping: `sleepers`) */
    int waiters, sleepers;     /* threads in each wait, under the mutex */
    atomic_int queued;         /* jobs queued and not yet taken: workers spin on it */
    atomic_int in_draw;        /* a threaded draw is running: workers spin instead of sleeping */
    /* Per stage, oldest first: jobs[s][head .. head+n) modulo window. Changed under the
     * mutex (workers scan them); the main thread reads them without it. */
    gmf_thr_job jobs[2][WINDOW_MAX];
    int head[2], n[2];
    uint64_t seq;              /* submissions so far: workers take the lowest queued */
    gmf_thr_res res[GM_TEX_MAX_UNITS][SM_TT_COUNT];
    /* Textures synced in this draw's serial sections, by key: a second binding of one skips
     * gmf_tex_sync, which would rewrite (with the same values) fields that workers read. */
    uint32_t synced_key[GM_TEX_MAX_UNITS * 2];
    gmf_texture *synced_tex[GM_TEX_MAX_UNITS * 2];
    int n_synced;
    uint64_t draws_threaded, draws_single;
    /* The timing model's draws (gmf_thr_pre_*): per stage and flight index, the FIFO
     * workers take them from, and the draw whose warps run ahead on workers with its
     * bindings resolved in res[][] (state: 0 undecided, 1 yes, -1 no). */
    gmf_pre_job pre[2][GMF_MAX_FLIGHTS];
    gmf_pre_job *pq[PRE_FIFO];
    int pq_head, pq_n;
    const gmf_draw_ctx *pre_draw;
    int pre_state;
    uint64_t pre_jobs;         /* jobs queued in this draw */
    atomic_int pre_active;     /* such a draw runs: idle workers sleep at once */
    bool asked;                /* the thread count was configured, not the CPU count's default */
};

/* ---- configuration ---- */

static int parse_threads(const char *s, char *err, size_t err_size)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (!*s || *end || v < 1 || v > GMF_THR_MAX) {
        snprintf(err, err_size, "GLREPLAY_MODEL_THREADS: expected a number from 1 to %d, got '%.40s'",
                 GMF_THR_MAX, s);
        return -1;
    }
    return (int)v;
}

int gmf_thr_init(gmf_runner *r, int config_threads, char *err, size_t err_size)
{
    int n = config_threads;
    if (n < 0 || n > GMF_THR_MAX) {
        snprintf(err, err_size, "model threads: expected a number from 1 to %d, got %d",
                 GMF_THR_MAX, n);
        return -1;
    }
    if (n == 0) {
        const char *e = getenv("GLREPLAY_MODEL_THREADS");
        if (e && *e) {
            n = parse_threads(e, err, err_size);
            if (n < 0)
                return -1;
        }
    }
    /* Asked for (config or environment) rather than the CPU count's default: only then do the
     * timing model's draws use workers (gmf_thr_pre_*), which are not faster yet. */
    const bool asked = n > 0;
    if (n == 0) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        n = cpus < 1 ? 1 : cpus > GMF_THR_DEFAULT_MAX ? GMF_THR_DEFAULT_MAX : (int)cpus;
    }
    struct gmf_thr *t = calloc(1, sizeof *t);
    if (!t) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    t->threads = n;
    t->asked = asked;
    t->window = 16 * n < WINDOW_MAX ? 16 * n : WINDOW_MAX;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    pthread_cond_init(&t->cv_work, NULL);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < WINDOW_MAX; k++)
            t->jobs[s][k].t = t;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < GMF_MAX_FLIGHTS; k++)
            t->pre[s][k].t = t;
    r->thr = t;
    return 0;
}

int gmf_thr_count(const gmf_runner *r)
{
    return r->thr ? r->thr->threads : 1;
}

void gmf_thr_draw_counts(const gmf_runner *r, uint64_t *threaded, uint64_t *single)
{
    *threaded = r->thr ? r->thr->draws_threaded : 0;
    *single = r->thr ? r->thr->draws_single : 0;
}

/* ---- running jobs ---- */

/* A fragment job also copies its inputs in and its outputs out (pure per-warp work that the
 * single-thread callbacks do around the run): less for the main thread. */
static void run_job(gmf_thr_job *j)
{
    if (j->stage)
        gmf_fs_inputs(j->d, j->w, j->fw);
    for (;;) {
        gm_run_status s = gm_warp_run(j->w, 0);
        if (s == GM_RUN_DONE || s == GM_RUN_ERROR) {
            j->status = s;
            break;
        }
    }
    if (j->stage && j->status == GM_RUN_DONE)   /* also when cancelled: the record waits for it */
        gmf_fs_outputs(j->d, j->w, j->fw);
}

/* Takes the queued job submitted first (mutex held); NULL when none. Each ring is in
 * submission order, so its first queued job is its candidate. */
static gmf_thr_job *claim(struct gmf_thr *t)
{
    gmf_thr_job *best = NULL;
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < t->n[s]; k++) {
            gmf_thr_job *j = &t->jobs[s][(t->head[s] + k) % t->window];
            if (j->state != JOB_QUEUED)
                continue;
            if (!best || j->seq < best->seq)
                best = j;
            break;
        }
    if (best) {
        best->state = JOB_RUNNING;
        atomic_fetch_sub(&t->queued, 1);
    }
    return best;
}

/* Takes the oldest queued pre-run job (mutex held); NULL when none. */
static gmf_pre_job *claim_pre(struct gmf_thr *t)
{
    while (t->pq_n) {
        gmf_pre_job *j = t->pq[t->pq_head];
        t->pq_head = (t->pq_head + 1) % PRE_FIFO;
        t->pq_n--;
        if (j->state == JOB_QUEUED) {
            j->state = JOB_RUNNING;
            atomic_fetch_sub(&t->queued, 1);
            return j;
        }
    }
    return NULL;
}

/* Spins about this many pause loops (tens of microseconds) before sleeping: a warp takes about
 * that long, and a sleep and wake-up per warp cost more CPU than the warp (measured: one
 * context switch per warp made two threads slower than one). */
#define SPIN_LOOPS 4000
/* A worker's spin during a threaded draw: about a millisecond, tens of warps' worth of queueing
 * by the main thread; a main thread that queues nothing for that long is not running. */
#define SPIN_LOOPS_IN_DRAW (16 * SPIN_LOOPS)

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Waits (mutex held on entry and on return) until a job another thread runs is done: a short
 * spin first (a warp takes tens of microseconds), then sleeps on cv. */
static void wait_done(struct gmf_thr *t, atomic_int *state)
{
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < SPIN_LOOPS && atomic_load_explicit(state, memory_order_acquire) != JOB_DONE; i++)
        cpu_relax();
    pthread_mutex_lock(&t->mu);
    while (*state != JOB_DONE) {
        t->waiters++;
        pthread_cond_wait(&t->cv, &t->mu);
        t->waiters--;
    }
}

static void *worker(void *arg)
{
    struct gmf_thr *t = arg;
    pthread_mutex_lock(&t->mu);
    for (;;) {
        if (t->quit)
            break;
        gmf_thr_job *j = claim(t);
        gmf_pre_job *pj = j ? NULL : claim_pre(t);
        if (!j && !pj) {
            pthread_mutex_unlock(&t->mu);
            /* During a threaded draw a worker spins longer (measured: a worker that slept and
             * was woken per burst of warps left the main thread running them, slower than one
             * thread); between draws it sleeps after a short spin. The draw's spin is bounded
             * too: when the main thread queues nothing for that long (descheduled on a busy
             * machine, or in a long stretch of work of its own) a spinning worker only takes
             * the CPU it needs (measured 2.4x the CPU of one thread, unbounded, on a
             * saturated machine); gmf_thr_queue wakes it. */
            /* During a timing-model draw (gmf_thr_pre_*) it sleeps at once: its jobs come in
             * bursts between long stretches of the model's scheduling on the main thread,
             * and spinning through them doubled the worker's CPU (lit_mesh 1280x720: 4,356
             * spins of SPIN_LOOPS for 22,541 jobs). */
            const int spin = atomic_load_explicit(&t->pre_active, memory_order_relaxed) ? 0 : SPIN_LOOPS;
            for (int i = 0; !atomic_load_explicit(&t->queued, memory_order_relaxed) &&
                            (i < spin ||
                             (i < SPIN_LOOPS_IN_DRAW &&
                              atomic_load_explicit(&t->in_draw, memory_order_relaxed)));
                 i++)
                cpu_relax();
            pthread_mutex_lock(&t->mu);
            if (t->quit || atomic_load(&t->queued))
                continue;
            t->sleepers++;
            pthread_cond_wait(&t->cv_work, &t->mu);
            t->sleepers--;
            continue;
        }
        pthread_mutex_unlock(&t->mu);
        if (j)
            run_job(j);
        else
            gm_timing_pre_run(pj->p);
        pthread_mutex_lock(&t->mu);
        if (j)
            j->state = JOB_DONE;
        else
            pj->state = JOB_DONE;
        if (t->waiters)
            pthread_cond_broadcast(&t->cv);
    }
    pthread_mutex_unlock(&t->mu);
    return NULL;
}

/* Workers start with the first threaded draw: runs that never thread never spawn any. A
 * worker that cannot be created leaves fewer (the main thread still runs every job). */
static void start_workers(struct gmf_thr *t)
{
    if (t->started)
        return;
    t->started = true;
    t->workers = calloc((size_t)t->threads, sizeof *t->workers);
    for (int i = 0; t->workers && i < t->threads - 1; i++) {
        if (pthread_create(&t->workers[t->n_workers], NULL, worker, t) != 0)
            break;
        t->n_workers++;
    }
}

void gmf_thr_free(gmf_runner *r)
{
    struct gmf_thr *t = r->thr;
    if (!t)
        return;
    pthread_mutex_lock(&t->mu);
    t->quit = true;
    pthread_cond_broadcast(&t->cv_work);
    pthread_mutex_unlock(&t->mu);
    for (int i = 0; i < t->n_workers; i++)
        pthread_join(t->workers[i], NULL);
    free(t->workers);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < GMF_MAX_FLIGHTS; k++)
            gm_timing_pre_destroy(t->pre[s][k].p);
    pthread_cond_destroy(&t->cv);
    pthread_cond_destroy(&t->cv_work);
    pthread_mutex_destroy(&t->mu);
    free(t);
    r->thr = NULL;
}

/* ---- serial sections and sampling ---- */

/* Blocks until the job may act as the single-thread run would at this point; false when
 * the draw dropped the job (its results are never used). */
static bool wait_serial(gmf_thr_job *j)
{
    struct gmf_thr *t = j->t;
    pthread_mutex_lock(&t->mu);
    while (!j->serial_ok && !j->cancelled) {
        t->waiters++;
        pthread_cond_wait(&t->cv, &t->mu);
        t->waiters--;
    }
    bool ok = j->serial_ok;
    pthread_mutex_unlock(&t->mu);
    return ok;
}

/* The job's sample callback: sample() of gmf_shade.c with the binding resolved once per
 * (unit, target) in a serial section. */
static void thr_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    gmf_thr_job *j = ctx;
    gmf_draw_ctx *d = j->d;
    struct gmf_thr *t = j->t;
    unsigned u = req->unit;
    int ti = gmf_sample_target_index(req);
    gm_tex_unit *tu = u < GM_TEX_MAX_UNITS ? &j->units.unit[u] : NULL;
    if (tu) {
        tu->image = NULL;
        tu->sampler = NULL;
    }
    if (gmf_pix_sample(d->r, u, tu)) {   /* a pixel rectangle's image: fixed for the draw */
        gm_tex_sample_fn(&j->units, req, out);
        return;
    }
    if (tu && ti >= 0 && u < SM_MAX_TEXTURE_UNITS) {
        gmf_thr_res *e = &t->res[u][ti];
        int s = atomic_load_explicit(&e->state, memory_order_acquire);
        if (s != RES_READY) {
            if (!wait_serial(j)) {
                memset(out, 0, sizeof *out);
                return;
            }
            /* another job may have resolved it while this one waited */
            s = atomic_load_explicit(&e->state, memory_order_acquire);
            if (s == RES_NONE) {
                gm_tex_unit got = { NULL, NULL };
                uint32_t key = gmf_unit_texture_key(d, u, ti);
                gmf_texture *synced = NULL;
                for (int k = 0; k < t->n_synced && !synced; k++)
                    if (t->synced_key[k] == key)
                        synced = t->synced_tex[k];
                gmf_texture *tex = gmf_unit_resolve(d, u, ti, &got, &e->smp, synced);
                if (tex && !synced && t->n_synced < GM_TEX_MAX_UNITS * 2) {
                    t->synced_key[t->n_synced] = key;
                    t->synced_tex[t->n_synced++] = tex;
                }
                e->image = got.image;
                e->has_sampler = got.sampler != NULL;
                s = tex && gmf_tex_is_render_target(d->r, tex) ? RES_SERIAL : RES_READY;
                atomic_store_explicit(&e->state, s, memory_order_release);
            }
        }
        tu->image = e->image;
        tu->sampler = e->has_sampler ? &e->smp : NULL;
    }
    gm_tex_sample_fn(&j->units, req, out);
}

static void *thr_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    gmf_thr_job *j = ctx;
    const gm_env *e = &j->d->env[j->stage];
    return e->buffer ? e->buffer(e->ctx, kind, binding, size) : (*size = 0, NULL);
}

/* ---- per draw ---- */

static bool draw_threadable(const gmf_draw_ctx *d)
{
    const gmf_runner *r = d->r;
    const gmf_prog *p = d->p;
    if (!r->thr || r->thr->threads < 2 || r->tm || r->obs || r->has_hooks || r->stopped || r->pipe.watch)
        return false;
    if (p->gs || p->tes || !p->vs)
        return false;
    if (!p->threadable)   /* decided once per program: 1 yes, 2 no */
        ((gmf_prog *)p)->threadable = gmf_program_side_effect_free(p->vs, true) &&
                                              gmf_program_side_effect_free(p->fs, false) ? 1 : 2;
    return p->threadable == 1;
}

void gmf_thr_draw_begin(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    d->thr = draw_threadable(d);
    if (!t)
        return;
    if (!d->thr) {
        if (!d->r->tm)   /* the timing model's draws: counted by gmf_thr_pre_draw_end */
            t->draws_single++;
        return;
    }
    t->draws_threaded++;
    start_workers(t);
    atomic_store(&t->in_draw, 1);
    for (int u = 0; u < GM_TEX_MAX_UNITS; u++)
        for (int k = 0; k < SM_TT_COUNT; k++)
            atomic_store_explicit(&t->res[u][k].state, RES_NONE, memory_order_relaxed);
    t->n_synced = 0;
    pthread_mutex_lock(&t->mu);
    t->head[0] = t->head[1] = t->n[0] = t->n[1] = 0;
    pthread_mutex_unlock(&t->mu);
}

/* Drops every job of the draw: queued ones never run, running ones finish (without serial
 * sections) before their warps and pipeline records can be reused. */
static void cancel_all(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    pthread_mutex_lock(&t->mu);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < t->n[s]; k++) {
            gmf_thr_job *j = &t->jobs[s][(t->head[s] + k) % t->window];
            j->cancelled = true;
            if (j->state == JOB_QUEUED) {
                j->state = JOB_DONE;
                atomic_fetch_sub(&t->queued, 1);
            }
        }
    pthread_cond_broadcast(&t->cv);
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < t->n[s]; k++) {
            gmf_thr_job *j = &t->jobs[s][(t->head[s] + k) % t->window];
            while (j->state != JOB_DONE) {
                t->waiters++;
                pthread_cond_wait(&t->cv, &t->mu);
                t->waiters--;
            }
            j->state = JOB_FREE;
        }
    t->n[0] = t->n[1] = 0;
    t->head[0] = t->head[1] = 0;
    pthread_mutex_unlock(&t->mu);
}

void gmf_thr_drain(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    if (d->thr && t && (t->n[0] || t->n[1]))
        cancel_all(d);
}

void gmf_thr_draw_end(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    if (!d->thr || !t)
        return;
    if (t->n[0] || t->n[1])   /* only an aborted draw leaves jobs behind */
        cancel_all(d);
    atomic_store(&t->in_draw, 0);
    d->thr = false;
}

gm_warp *gmf_thr_next_warp(gmf_draw_ctx *d, gm_stage stage)
{
    struct gmf_thr *t = d->r->thr;
    int s = stage == GM_STAGE_FRAGMENT;
    if (t->n[s] >= t->window) {
        gmf_note(d->ev, "model threads: %s warp queued past the in-flight limit",
                 s ? "fragment" : "vertex");
        d->failed = true;
        cancel_all(d);
        return NULL;
    }
    gm_warp *w = gmf_prog_pool_warp(d->p, s, (t->head[s] + t->n[s]) % t->window);
    if (!w) {
        gmf_note(d->ev, "model threads: out of memory creating warps");
        d->failed = true;
        cancel_all(d);
    }
    return w;
}

int gmf_thr_queue(gmf_draw_ctx *d, gm_warp *w, gm_stage stage, const int32_t *lane_x,
                  gm_pipe_vertex *vout, int count, gm_pipe_fs_warp *fw)
{
    gmf_runner *r = d->r;
    struct gmf_thr *t = r->thr;
    if (gmf_aborted(r)) {
        cancel_all(d);   /* the pipeline frees its records when it returns */
        return 1;
    }
    int s = stage == GM_STAGE_FRAGMENT;
    gmf_thr_job *j = &t->jobs[s][(t->head[s] + t->n[s]) % t->window];
    /* The single-thread callbacks number each warp when they run it. */
    d->warps[s]++;
    r->frame_warps++;
    j->d = d;
    j->w = w;
    j->stage = s;
    j->env = (gm_env){ .ctx = j, .sample = thr_sample, .image = NULL, .buffer = thr_buffer };
    memset(&j->units, 0, sizeof j->units);
    j->vout = vout;
    j->count = count;
    memcpy(j->lane_x, lane_x, sizeof j->lane_x);
    j->fw = fw;
    j->serial_ok = false;
    j->cancelled = false;
    j->status = GM_RUN_DONE;
    gm_warp_set_observer(w, NULL, NULL);
    gm_warp_set_env(w, &j->env);
    pthread_mutex_lock(&t->mu);
    j->state = JOB_QUEUED;
    j->seq = t->seq++;
    t->n[s]++;
    atomic_fetch_add(&t->queued, 1);
    if (t->sleepers)
        pthread_cond_signal(&t->cv_work);
    pthread_mutex_unlock(&t->mu);
    return t->n[s] >= t->window ? GM_PIPE_QUEUED_FULL : GM_PIPE_QUEUED;
}

int gmf_thr_complete(gmf_draw_ctx *d, gm_stage stage, gmf_thr_done *out)
{
    struct gmf_thr *t = d->r->thr;
    int s = stage == GM_STAGE_FRAGMENT;
    const char *what = s ? "fragment" : "vertex";
    if (t->n[s] == 0) {
        gmf_note(d->ev, "model threads: no %s warp to complete", what);
        d->failed = true;
        cancel_all(d);
        return -1;
    }
    gmf_thr_job *j = &t->jobs[s][t->head[s]];
    if (atomic_load_explicit(&j->state, memory_order_acquire) != JOB_DONE) {
        pthread_mutex_lock(&t->mu);
        /* From here on the job stands where the single-thread run would be running it. */
        j->serial_ok = true;
        /* Run it here only when every worker sleeps: an awake worker takes it within
         * microseconds, and a main thread that ran jobs while a worker spun idle beside it
         * was measured twice as slow as one thread (the two vCPUs may share a core). */
        if (j->state == JOB_QUEUED && t->sleepers < t->n_workers) {
            pthread_mutex_unlock(&t->mu);
            for (int i = 0; i < SPIN_LOOPS &&
                            atomic_load_explicit(&j->state, memory_order_acquire) == JOB_QUEUED; i++)
                cpu_relax();
            pthread_mutex_lock(&t->mu);
        }
        if (j->state == JOB_QUEUED) {
            j->state = JOB_RUNNING;   /* no worker took it: run it here */
            atomic_fetch_sub(&t->queued, 1);
            pthread_mutex_unlock(&t->mu);
            run_job(j);
            pthread_mutex_lock(&t->mu);
            j->state = JOB_DONE;
        } else if (j->state != JOB_DONE) {
            if (t->waiters)
                pthread_cond_broadcast(&t->cv);   /* the job may wait for its serial section */
            wait_done(t, &j->state);
        }
        pthread_mutex_unlock(&t->mu);
    }
    if (j->status == GM_RUN_ERROR) {
        gmf_note(d->ev, "%s shader runtime error: %s", what, gm_warp_error(j->w));
        d->failed = true;
        cancel_all(d);
        return -1;
    }
    *out = (gmf_thr_done){ j->w, j->vout, j->count, j->lane_x, j->fw };
    return 0;
}

void gmf_thr_release(gmf_draw_ctx *d, gm_stage stage)
{
    struct gmf_thr *t = d->r->thr;
    int s = stage == GM_STAGE_FRAGMENT;
    if (t->n[s] == 0)
        return;
    pthread_mutex_lock(&t->mu);
    t->jobs[s][t->head[s]].state = JOB_FREE;
    t->head[s] = (t->head[s] + 1) % t->window;
    t->n[s]--;
    pthread_mutex_unlock(&t->mu);
}

/* ---- the timing model's warps on workers (gm_timing_pre.h) ----
 *
 * With the timing model a draw's warps still issue on the main thread, in the model's one
 * global order; what a worker does is the part of a warp's execution that the model itself
 * no longer interleaves with others: a warp of a draw that passes gmf_tex_ahead_ok runs at
 * its launch from its first instruction to its end in one executor call (run-ahead across
 * texture fetches), its fetches' cache lines recorded for their issue. A worker runs that call
 * between the warp's submission and its launch (flight_max warps per stage are submitted
 * ahead); the model takes the trace at the launch (gmf_thr_pre_wait) or runs it there itself
 * when no worker took it. Texture bindings are resolved once, on the main thread, when the
 * draw's first warp is handed to the workers: the gate says every reachable binding is
 * synced in this epoch, quiet (no note) and no render target, so resolving it again in the
 * single-thread run (at each fetch) only rewrites the values it holds; every fetch of the
 * draw, on any thread, then reads the resolved table (gmf_thr_bound_sample) and none syncs. */

/* Resolves every binding the draw can reach into t->res (main thread); false when one is not
 * synced in this epoch (its first sync may add notes or load images: keep it at its fetch). */
static bool resolve_bindings(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    unsigned bu[GMF_TEX_BINDINGS_MAX];
    int bt[GMF_TEX_BINDINGS_MAX];
    int n = gmf_tex_ahead_bindings(d, bu, bt);
    for (int i = 0; i < n; i++)
        if (!gmf_tex_binding_synced(d, bu[i], bt[i]))
            return false;
    for (int i = 0; i < n; i++) {
        gmf_thr_res *e = &t->res[bu[i]][bt[i]];
        gm_tex_unit got = { NULL, NULL };
        gmf_texture *tex = gmf_unit_resolve(d, bu[i], bt[i], &got, &e->smp, NULL);
        if (tex && gmf_tex_is_render_target(d->r, tex))
            return false;   /* the gate excludes it; a feedback loop needs the issue order */
        e->image = got.image;
        e->has_sampler = got.sampler != NULL;
        atomic_store_explicit(&e->state, RES_READY, memory_order_release);
    }
    return true;
}

/* Whether the draw's warps run ahead on workers (decided at its first submission with the
 * gate open, which the caller checked). */
static bool pre_draw_ok(gmf_draw_ctx *d)
{
    const gmf_runner *r = d->r;
    struct gmf_thr *t = r->thr;
    if (!t || t->pre_draw != d)
        return false;
    if (t->pre_state)
        return t->pre_state > 0;
    t->pre_state = -1;
    const gmf_prog *p = d->p;
    /* Not by default: two threads measured 1.08x slower than one (docs/BENCHMARKS.md,
     * "Session 18"); `--threads N` or GLREPLAY_MODEL_THREADS asks for them. */
    if (t->threads < 2 || !t->asked || r->obs || r->has_hooks || r->stopped || r->pipe.watch || p->gs ||
        p->tes || !p->vs)
        return false;
    if (!resolve_bindings(d))
        return false;
    t->pre_state = 1;
    start_workers(t);
    atomic_store(&t->pre_active, 1);
    return true;
}

void gmf_thr_pre_draw_begin(gmf_draw_ctx *d)
{
    struct gmf_thr *t = d->r->thr;
    if (!t)
        return;
    t->pre_draw = d;
    t->pre_state = 0;
    t->pre_jobs = 0;
    for (int u = 0; u < GM_TEX_MAX_UNITS; u++)
        for (int k = 0; k < SM_TT_COUNT; k++)
            atomic_store_explicit(&t->res[u][k].state, RES_NONE, memory_order_relaxed);
}

bool gmf_thr_bound(const gmf_draw_ctx *d)
{
    const struct gmf_thr *t = d->r->thr;
    return t && t->pre_draw == d && t->pre_state > 0;
}

void gmf_thr_bound_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    gmf_draw_ctx *d = ctx;
    struct gmf_thr *t = d->r->thr;
    unsigned u = req->unit;
    int ti = gmf_sample_target_index(req);
    gm_tex_units units;   /* gm_tex_sample_fn reads only unit[req->unit] */
    gm_tex_unit *tu = u < GM_TEX_MAX_UNITS ? &units.unit[u] : NULL;
    if (tu) {
        tu->image = NULL;
        tu->sampler = NULL;
    }
    /* As sample() (gmf_shade.c): a pixel rectangle's image first, fixed for the draw. Every
     * other binding a TEX can reach was resolved (gmf_tex_ahead_bindings). */
    if (!gmf_pix_sample(d->r, u, tu) && tu && ti >= 0 && u < SM_MAX_TEXTURE_UNITS) {
        const gmf_thr_res *e = &t->res[u][ti];
        if (atomic_load_explicit(&e->state, memory_order_acquire) == RES_READY) {
            tu->image = e->image;
            tu->sampler = e->has_sampler ? &e->smp : NULL;
        }
    }
    gm_tex_sample_fn(&units, req, out);
}

int gmf_thr_pre_queue(gmf_draw_ctx *d, int s, int index, gm_warp *w)
{
    if (!pre_draw_ok(d))
        return -1;
    gmf_runner *r = d->r;
    struct gmf_thr *t = r->thr;
    gmf_pre_job *j = &t->pre[s][index];
    if (!j->p && !(j->p = gm_timing_pre_create()))
        return -1;
    /* Images are never reached (side-effect-free programs); uniform blocks are read only. */
    gm_env env = { d, gmf_thr_bound_sample, NULL, d->env[s].buffer };
    if (gm_timing_pre_attach(r->tm, w, j->p, &env, j) != 0)
        return -1;
    pthread_mutex_lock(&t->mu);
    if (t->pq_n == PRE_FIFO) {   /* drop the entries of jobs the main thread took */
        int k = 0;
        for (int i = 0; i < t->pq_n; i++) {
            gmf_pre_job *q = t->pq[(t->pq_head + i) % PRE_FIFO];
            if (q->state == JOB_QUEUED)
                t->pq[(t->pq_head + k++) % PRE_FIFO] = q;
        }
        t->pq_n = k;
    }
    j->state = JOB_QUEUED;
    t->pq[(t->pq_head + t->pq_n++) % PRE_FIFO] = j;
    t->pre_jobs++;
    if (atomic_fetch_add(&t->queued, 1) + 1 >= PRE_WAKE_BATCH && t->sleepers)
        pthread_cond_signal(&t->cv_work);
    pthread_mutex_unlock(&t->mu);
    return 0;
}

void gmf_thr_pre_wait(void *ctx, void *owner)
{
    (void)ctx;
    gmf_pre_job *j = owner;
    struct gmf_thr *t = j->t;
    if (atomic_load_explicit(&j->state, memory_order_acquire) == JOB_DONE)
        return;
    pthread_mutex_lock(&t->mu);
    if (j->state == JOB_QUEUED) {
        j->state = JOB_RUNNING;   /* no worker took it: run it here */
        atomic_fetch_sub(&t->queued, 1);
        pthread_mutex_unlock(&t->mu);
        gm_timing_pre_run(j->p);
        pthread_mutex_lock(&t->mu);
        j->state = JOB_DONE;
        pthread_mutex_unlock(&t->mu);
        return;
    }
    wait_done(t, &j->state);
    pthread_mutex_unlock(&t->mu);
}

void gmf_thr_pre_draw_end(gmf_draw_ctx *d)
{
    gmf_runner *r = d->r;
    struct gmf_thr *t = r->thr;
    if (!t || t->pre_draw != d)
        return;
    if (t->pre_jobs) {
        /* Every flight retired, so every job ran; only a failed draw leaves some: run or
         * wait for them, then the model forgets them (their flights are reused). */
        bool left = false;
        for (int s = 0; s < 2; s++)
            for (int k = 0; k < GMF_MAX_FLIGHTS; k++)
                if (t->pre[s][k].p && atomic_load(&t->pre[s][k].state) != JOB_DONE &&
                    atomic_load(&t->pre[s][k].state) != JOB_FREE) {
                    gmf_thr_pre_wait(NULL, &t->pre[s][k]);
                    left = true;
                }
        if (left)
            gm_timing_pre_detach_all(r->tm);
        t->draws_threaded++;
    } else {
        t->draws_single++;
    }
    atomic_store(&t->pre_active, 0);
    t->pre_draw = NULL;
    t->pre_state = 0;
}
