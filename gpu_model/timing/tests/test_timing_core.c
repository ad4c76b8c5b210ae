/* Timing model: determinism, latency chains, interleaving, observers, results equal to
 * run-to-completion, idle-skip and run-ahead exactness, dependency model and bad input. */
#include "tm_util.h"

#include <pthread.h>

/* ALU shader with divergence (lane-dependent loop count and an if). */
static const char *alu_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "void main() {\n"
    "  vec3 c = vec3(v, v * 0.5, 0.25);\n"
    "  int n = int(v) % 7 + 3;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    c = fract(c * 1.7 + vec3(0.13, 0.27, 0.41));\n"
    "    if (c.x > 0.5) c.y = sqrt(c.y + 1.0);\n"
    "  }\n"
    "  o = vec4(c, float(n));\n"
    "}\n";

static uint32_t v_value(int warp, int lane) { return fbits((float)(warp * 3 + lane) * 0.37f); }

typedef struct {
    gm_timing_config cfg;
    int nwarps;
    int with_cycle_observer;
    int without_issue_observer; /* lets the model run warps ahead (no one reads lanes) */
    uint64_t sample_hash;       /* every cycle's slot samples (the cycle observer) */
    tm_log log;
    gm_timing_stats stats;
    uint64_t sampled[GM_STALL_COUNT];
    uint64_t sampled_cycles;
    uint32_t *outputs;
    size_t nout;
    gm_timing_status status;
} scenario;

static void count_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *s, int n)
{
    scenario *sc = ctx;
    if (sm == 0)
        sc->sampled_cycles++;
    for (int i = 0; i < n; i++) {
        if (s[i].resident)
            sc->sampled[s[i].state]++;
        /* The whole schedule: who is where, at which pc, in which state, every cycle. */
        uint64_t v[6] = {cycle, (uint64_t)sm << 8 | (uint64_t)i, (uint64_t)s[i].resident,
                         s[i].resident ? s[i].warp_seq : 0,
                         s[i].resident ? (uint64_t)(uint32_t)s[i].pc : 0,
                         s[i].resident ? (uint64_t)s[i].state : 0};
        for (int k = 0; k < 6; k++) {
            sc->sample_hash ^= v[k];
            sc->sample_hash *= 1099511628211ull;
        }
    }
}

/* Runs nwarps warps of the program through a fresh model. */
static int run_scenario(gm_program *p, scenario *sc)
{
    char err[256];
    gm_timing *t = gm_timing_create(&sc->cfg, err, sizeof err);
    if (!t) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    sc->log.pause_at = -1;
    if (!sc->without_issue_observer)
        gm_timing_set_issue_observer(t, log_issue, &sc->log);
    if (sc->with_cycle_observer)
        gm_timing_set_cycle_observer(t, count_cycle, sc);
    gm_warp **w = calloc((size_t)sc->nwarps, sizeof *w);
    gm_timing_batch_desc d = {GM_STAGE_FRAGMENT, 0, -1, 0, 0, NULL, 0};
    int b = gm_timing_batch_begin(t, &d);
    for (int i = 0; i < sc->nwarps; i++) {
        w[i] = gm_warp_create(p, i);
        set_input(p, w[i], "v", i, v_value);
        gm_warp_begin(w[i], 0xffffffffu, 0);
        CHECK(gm_timing_submit(t, b, w[i], NULL, NULL) == 0);
    }
    gm_timing_batch_close(t, b);
    sc->status = gm_timing_run(t);
    gm_timing_batch_stats(t, b, &sc->stats);
    sc->outputs = calloc((size_t)sc->nwarps * 4 * GM_LANES, 4);
    sc->nout = 0;
    for (int i = 0; i < sc->nwarps; i++) {
        sc->nout += output_words(p, w[i], sc->outputs + sc->nout, 4 * GM_LANES);
        gm_warp_destroy(w[i]);
    }
    free(w);
    gm_timing_destroy(t);
    return 0;
}

static void scenario_free(scenario *sc)
{
    free(sc->log.ev);
    free(sc->outputs);
    memset(&sc->log, 0, sizeof sc->log);
    sc->outputs = NULL;
}

/* Reference: every warp run to completion alone. */
static uint32_t *reference_outputs(gm_program *p, int nwarps, size_t *n, uint64_t *instr)
{
    uint32_t *o = calloc((size_t)nwarps * 4 * GM_LANES, 4);
    *n = 0;
    *instr = 0;
    for (int i = 0; i < nwarps; i++) {
        gm_warp *w = gm_warp_create(p, i);
        set_input(p, w, "v", i, v_value);
        gm_warp_begin(w, 0xffffffffu, 0);
        CHECK(gm_warp_run(w, 0) == GM_RUN_DONE);
        *instr += gm_warp_issued(w);
        *n += output_words(p, w, o + *n, 4 * GM_LANES);
        gm_warp_destroy(w);
    }
    return o;
}

static void *thread_run(void *arg)
{
    void **a = arg;
    run_scenario(a[0], a[1]);
    return NULL;
}

static void test_determinism_and_results(gm_program *p)
{
    const int nwarps = 40;
    size_t nref;
    uint64_t ref_instr;
    uint32_t *ref = reference_outputs(p, nwarps, &nref, &ref_instr);
    for (int policy = 0; policy < 2; policy++) {
        scenario a = {0}, b = {0}, c = {0};
        gm_timing_config_default(&a.cfg);
        a.cfg.policy = policy ? GM_SCHED_GTO : GM_SCHED_LRR;
        a.cfg.sm_count = 2;
        a.cfg.warp_slots_per_sm = 8;
        a.nwarps = nwarps;
        b.cfg = c.cfg = a.cfg;
        b.nwarps = c.nwarps = nwarps;
        /* b runs on another thread while c runs here: no shared state. */
        pthread_t th;
        void *arg[2] = {p, &b};
        CHECK(pthread_create(&th, NULL, thread_run, arg) == 0);
        run_scenario(p, &c);
        pthread_join(th, NULL);
        run_scenario(p, &a);
        CHECK(a.status == GM_TIMING_IDLE);
        CHECKF(a.stats.cycles == b.stats.cycles && a.stats.cycles == c.stats.cycles,
               "cycles %llu %llu %llu", (unsigned long long)a.stats.cycles,
               (unsigned long long)b.stats.cycles, (unsigned long long)c.stats.cycles);
        CHECK(a.log.n == b.log.n && log_hash(&a.log) == log_hash(&b.log));
        CHECK(a.log.n == c.log.n && log_hash(&a.log) == log_hash(&c.log));
        CHECK(memcmp(a.stats.stall, b.stats.stall, sizeof a.stats.stall) == 0);
        /* Same results as run-to-completion, and every instruction issued once. */
        CHECK(a.nout == nref && memcmp(a.outputs, ref, nref * 4) == 0);
        CHECK(a.stats.instructions == ref_instr && a.log.n == ref_instr);
        CHECK(a.stats.warps_retired == (uint64_t)nwarps);
        CHECK(a.stats.cycles > 0 && a.stats.cycles >= ref_instr / (2 * 4));
        printf("policy %s: %llu cycles, %llu instructions\n", policy ? "gto" : "lrr",
               (unsigned long long)a.stats.cycles, (unsigned long long)a.stats.instructions);
        scenario_free(&a);
        scenario_free(&b);
        scenario_free(&c);
    }
    free(ref);
}

/* The observer sees each warp's instructions exactly once, in the warp's own order. */
typedef struct {
    int pcs[8192];
    int n;
} pc_trace;

static int trace_exec(void *ctx, gm_warp *w, const gm_issue *is)
{
    (void)w;
    pc_trace *t = ctx;
    if (t->n < 8192)
        t->pcs[t->n++] = is->pc;
    return 0;
}

static void test_observer_exactly_once(gm_program *p)
{
    scenario s = {0};
    gm_timing_config_default(&s.cfg);
    s.cfg.sm_count = 1;
    s.cfg.warp_slots_per_sm = 4;
    s.nwarps = 6;
    run_scenario(p, &s);
    for (int wi = 0; wi < s.nwarps; wi++) {
        gm_warp *w = gm_warp_create(p, wi);
        set_input(p, w, "v", wi, v_value);
        pc_trace *tr = calloc(1, sizeof *tr);
        gm_warp_set_observer(w, trace_exec, tr);
        gm_warp_begin(w, 0xffffffffu, 0);
        gm_warp_run(w, 0);
        int k = 0, same = 1;
        for (size_t i = 0; i < s.log.n; i++)
            if (s.log.ev[i].warp_id == wi) {
                if (k >= tr->n || tr->pcs[k] != s.log.ev[i].pc)
                    same = 0;
                k++;
            }
        CHECKF(same && k == tr->n, "warp %d: %d observed vs %d executed", wi, k, tr->n);
        free(tr);
        gm_warp_destroy(w);
    }
    scenario_free(&s);
}

/* With one warp on one sub-partition, extra dependent ALU instructions cost their latency. */
static const char *chain_src(int k)
{
    static char buf[4096];
    int n = snprintf(buf, sizeof buf,
                     "#version 450\nlayout(location=0) in float v;\n"
                     "layout(location=0) out float o;\nvoid main() {\n  float x = v;\n");
    for (int i = 0; i < k; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "  x = x * 1.0001;\n");
    snprintf(buf + n, sizeof buf - (size_t)n, "  o = x;\n}\n");
    return buf;
}

/* Returns 0 (failure counted) when the shader does not compile; *cycles and *instr are then unset. */
static int chain_cycles(int k, int lat, uint64_t *cycles, uint64_t *instr)
{
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, chain_src(k)) != 0) {
        gm_test_failures++;
        return 0;
    }
    scenario s = {0};
    gm_timing_config_default(&s.cfg);
    s.cfg.sm_count = 1;
    s.cfg.warp_slots_per_sm = 1;
    s.cfg.subpartitions_per_sm = 1;
    s.cfg.latency[GM_LAT_ALU] = lat;
    s.nwarps = 1;
    run_scenario(sh.p, &s);
    *cycles = s.stats.cycles;
    *instr = s.stats.instructions;
    CHECK(s.stats.stall[GM_STALL_EXEC_DEPENDENCY] > 0);
    scenario_free(&s);
    shader_free(&sh);
    return 1;
}

static void test_latency_chain(void)
{
    const int lats[2] = {4, 7};
    for (int i = 0; i < 2; i++) {
        uint64_t c8, i8, c16, i16;
        if (!chain_cycles(8, lats[i], &c8, &i8) || !chain_cycles(16, lats[i], &c16, &i16))
            continue; /* nothing to compare: the failure is already counted */
        CHECK(i16 > i8);
        CHECKF(c16 - c8 == (i16 - i8) * (uint64_t)lats[i],
               "latency %d: +%llu instructions took +%llu cycles", lats[i],
               (unsigned long long)(i16 - i8), (unsigned long long)(c16 - c8));
    }
}

/* Independent warps on one sub-partition interleave and hide each other's latency. */
static void test_interleave(void)
{
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, chain_src(16)) != 0) {
        gm_test_failures++;
        return;
    }
    scenario one = {0}, four = {0};
    gm_timing_config_default(&one.cfg);
    one.cfg.sm_count = 1;
    one.cfg.warp_slots_per_sm = 4;
    one.cfg.subpartitions_per_sm = 1;
    one.cfg.launch_latency = 0;
    four.cfg = one.cfg;
    one.nwarps = 1;
    four.nwarps = 4;
    run_scenario(sh.p, &one);
    run_scenario(sh.p, &four);
    int switches = 0;
    for (size_t i = 1; i < four.log.n; i++)
        switches += four.log.ev[i].warp_id != four.log.ev[i - 1].warp_id;
    CHECKF(switches > (int)four.log.n / 2, "only %d warp switches in %zu issues", switches,
           four.log.n);
    /* Four dependent chains overlap: far less than four times one chain. */
    CHECKF(four.stats.cycles < 2 * one.stats.cycles, "4 warps %llu cycles, 1 warp %llu",
           (unsigned long long)four.stats.cycles, (unsigned long long)one.stats.cycles);
    CHECK(four.stats.stall[GM_STALL_NOT_SELECTED] > 0 || four.stats.stall[GM_STALL_SELECTED] > 0);
    /* At most one issue per sub-partition per cycle. */
    int ok = 1;
    for (size_t i = 1; i < four.log.n; i++)
        if (four.log.ev[i].cycle == four.log.ev[i - 1].cycle &&
            four.log.ev[i].sm == four.log.ev[i - 1].sm && four.log.ev[i].sp == four.log.ev[i - 1].sp)
            ok = 0;
    CHECK(ok);
    scenario_free(&one);
    scenario_free(&four);
    shader_free(&sh);
}

/* The per-cycle sampling hook sees the same states the statistics count, and the idle
 * skip (used without the hook) gives exactly the same cycles and histogram. */
static void test_cycle_observer(gm_program *p)
{
    scenario a = {0}, b = {0};
    gm_timing_config_default(&a.cfg);
    a.cfg.sm_count = 2;
    a.cfg.warp_slots_per_sm = 4;
    a.cfg.latency[GM_LAT_TRANSCENDENTAL] = 40;
    a.nwarps = 12;
    b.cfg = a.cfg;
    b.nwarps = a.nwarps;
    b.with_cycle_observer = 1;
    run_scenario(p, &a);
    run_scenario(p, &b);
    CHECK(a.stats.cycles == b.stats.cycles);
    CHECK(memcmp(a.stats.stall, b.stats.stall, sizeof a.stats.stall) == 0);
    CHECK(memcmp(b.sampled, b.stats.stall, sizeof b.sampled) == 0);
    CHECK(log_hash(&a.log) == log_hash(&b.log));
    uint64_t sel = b.stats.stall[GM_STALL_SELECTED];
    CHECK(sel >= b.stats.instructions);
    CHECK(b.stats.stall[GM_STALL_SHORT_SCOREBOARD] > 0);
    CHECK(b.stats.stall[GM_STALL_NO_INSTRUCTION] > 0);
    CHECK(b.stats.stall[GM_STALL_BRANCH_RESOLVING] > 0);
    for (int i = 0; i < GM_STALL_COUNT; i++)
        printf("  %-17s %llu\n", gm_stall_name((gm_stall)i), (unsigned long long)b.stats.stall[i]);
    scenario_free(&a);
    scenario_free(&b);
}

/* Without an issue observer the model runs warps ahead of their issue and skips every
 * sub-partition and cycle in which nothing can change; with one it steps one instruction
 * per issue. The schedule must be the same either way: per-cycle samples of every slot
 * (pc, state), statistics, cycle counts and results, with one SM and with several. */
static void test_run_ahead_exact(gm_program *p)
{
    /* Config 3 fills every slot (64 warps in 2 x 16): sub-partitions of 4 warps that are all
     * event-driven issue ahead of the cycle loop without the observers (issue_ahead).
     * Config 4 queues more warps than slots (160 in 2 x 16): a finished warp drains while
     * the others of its sub-partition issue ahead up to its retirement (slow_bound), and
     * the next warp launches into its slot then. */
    for (int cfgi = 0; cfgi < 5; cfgi++) {
        scenario step = {0}, ahead = {0}, ahead_sampled = {0}, step_sampled = {0};
        gm_timing_config_default(&step.cfg);
        step.cfg.sm_count = cfgi == 0 ? 1 : 2;
        step.cfg.warp_slots_per_sm = cfgi >= 2 ? 16 : 4;
        step.cfg.policy = cfgi == 1 ? GM_SCHED_GTO : GM_SCHED_LRR;
        step.cfg.latency[GM_LAT_TRANSCENDENTAL] = cfgi == 2 ? 40 : 16;
        step.nwarps = cfgi == 3 ? 64 : cfgi == 4 ? 160 : 24;
        ahead.cfg = ahead_sampled.cfg = step_sampled.cfg = step.cfg;
        ahead.nwarps = ahead_sampled.nwarps = step_sampled.nwarps = step.nwarps;
        ahead.without_issue_observer = ahead_sampled.without_issue_observer = 1;
        ahead_sampled.with_cycle_observer = step_sampled.with_cycle_observer = 1;
        run_scenario(p, &step);
        run_scenario(p, &ahead);
        run_scenario(p, &ahead_sampled);
        run_scenario(p, &step_sampled);
        CHECK(step.status == GM_TIMING_IDLE && ahead.status == GM_TIMING_IDLE);
        CHECK(ahead.log.n == 0 && step.log.n == step.stats.instructions);
        const scenario *all[3] = {&ahead, &ahead_sampled, &step_sampled};
        for (int i = 0; i < 3; i++) {
            CHECKF(memcmp(&all[i]->stats, &step.stats, sizeof step.stats) == 0,
                   "config %d run %d: statistics differ (cycles %llu vs %llu)", cfgi, i,
                   (unsigned long long)all[i]->stats.cycles,
                   (unsigned long long)step.stats.cycles);
            CHECK(all[i]->nout == step.nout &&
                  memcmp(all[i]->outputs, step.outputs, step.nout * 4) == 0);
        }
        CHECKF(ahead_sampled.sample_hash == step_sampled.sample_hash,
               "config %d: per-cycle samples differ", cfgi);
        CHECK(memcmp(ahead_sampled.sampled, step.stats.stall, sizeof step.stats.stall) == 0);
        CHECK(log_hash(&step.log) == log_hash(&step_sampled.log));
        scenario_free(&step);
        scenario_free(&ahead);
        scenario_free(&ahead_sampled);
        scenario_free(&step_sampled);
    }
}

/* Pausing from the issue observer and resuming gives the same schedule. */
static void test_pause_resume(gm_program *p)
{
    scenario ref = {0};
    gm_timing_config_default(&ref.cfg);
    ref.cfg.sm_count = 1;
    ref.cfg.warp_slots_per_sm = 4;
    ref.nwarps = 5;
    run_scenario(p, &ref);

    gm_timing *t = gm_timing_create(&ref.cfg, NULL, 0);
    tm_log lg = {0};
    lg.pause_at = 37;
    gm_timing_set_issue_observer(t, log_issue, &lg);
    gm_timing_batch_desc d = {GM_STAGE_FRAGMENT, 0, -1, 0, 0, NULL, 0};
    int b = gm_timing_batch_begin(t, &d);
    gm_warp *w[5];
    for (int i = 0; i < 5; i++) {
        w[i] = gm_warp_create(p, i);
        set_input(p, w[i], "v", i, v_value);
        gm_warp_begin(w[i], 0xffffffffu, 0);
        gm_timing_submit(t, b, w[i], NULL, NULL);
    }
    gm_timing_batch_close(t, b);
    int pauses = 0;
    gm_timing_status st;
    while ((st = gm_timing_run(t)) == GM_TIMING_PAUSED) {
        pauses++;
        if (lg.n < 200)
            lg.pause_at = (int)lg.n + 11; /* pause again a little later */
    }
    CHECK(st == GM_TIMING_IDLE);
    CHECK(pauses > 3);
    CHECK(lg.n == ref.log.n && log_hash(&lg) == log_hash(&ref.log));
    for (int i = 0; i < 5; i++)
        gm_warp_destroy(w[i]);
    gm_timing_destroy(t);
    free(lg.ev);
    scenario_free(&ref);
}

/* Held batches and dependencies; run_until; bad input. */
typedef struct {
    int order[16];
    int n;
} retire_log;

static void on_retire(void *ctx, gm_warp *w, void *user, int batch, gm_run_status st)
{
    (void)w;
    (void)st;
    retire_log *r = ctx;
    if (r->n < 16)
        r->order[r->n++] = batch * 100 + (int)(intptr_t)user;
}

static void test_dependencies_and_errors(gm_program *p)
{
    char err[256] = "";
    gm_timing_config c;
    gm_timing_config_default(&c);
    c.tex_cache_lines = 48; /* 12 sets: not a power of two */
    CHECK(gm_timing_create(&c, err, sizeof err) == NULL && strstr(err, "power of two"));
    gm_timing_config_default(&c);
    c.subpartitions_per_sm = 0;
    CHECK(gm_timing_create(&c, err, sizeof err) == NULL && err[0]);

    gm_timing_config_default(&c);
    c.sm_count = 1;
    gm_timing *t = gm_timing_create(&c, err, sizeof err);
    retire_log rl = {0};
    gm_timing_set_retire_callback(t, on_retire, &rl);
    CHECK(gm_timing_submit(t, 7, NULL, NULL, NULL) == -1 && strstr(gm_timing_error(t), "batch"));
    gm_timing_batch_desc bad = {GM_STAGE_COMPUTE, 0, 5, 0, 0, NULL, 0};
    CHECK(gm_timing_batch_begin(t, &bad) == -1);
    bad.depends_on = -1;
    bad.warps_per_group = 1000;
    CHECK(gm_timing_batch_begin(t, &bad) == -1);

    gm_timing_batch_desc vs = {GM_STAGE_VERTEX, 3, -1, 0, 0, NULL, 0};
    int b0 = gm_timing_batch_begin(t, &vs);
    gm_timing_batch_desc fs = {GM_STAGE_FRAGMENT, 3, b0, 1, 0, NULL, 0};
    int b1 = gm_timing_batch_begin(t, &fs);
    gm_warp *w[4];
    for (int i = 0; i < 4; i++) {
        w[i] = gm_warp_create(p, i);
        set_input(p, w[i], "v", i, v_value);
        gm_warp_begin(w[i], 0xffffffffu, 0);
        gm_timing_submit(t, i < 2 ? b0 : b1, w[i], NULL, (void *)(intptr_t)i);
    }
    /* b0 not closed: b1 may not start, and it is held anyway. */
    CHECK(gm_timing_run_until(t, w[1]) == GM_TIMING_RETIRED);
    CHECK(rl.n >= 1);
    CHECK(gm_timing_run(t) == GM_TIMING_BLOCKED);
    CHECK(rl.n == 2);
    gm_timing_batch_close(t, b0);
    CHECK(gm_timing_run(t) == GM_TIMING_BLOCKED); /* still held */
    gm_timing_batch_release(t, b1);
    gm_timing_batch_close(t, b1);
    CHECK(gm_timing_run(t) == GM_TIMING_IDLE);
    CHECK(rl.n == 4);
    for (int i = 0; i < 2; i++)
        CHECK(rl.order[i] / 100 == b0 && rl.order[2 + i] / 100 == b1);
    gm_timing_stats s0, s1;
    gm_timing_batch_stats(t, b0, &s0);
    gm_timing_batch_stats(t, b1, &s1);
    CHECK(s1.first_cycle >= s0.end_cycle);
    CHECK(gm_timing_batch_stats(t, 99, &s0) == -1);
    for (int i = 0; i < 4; i++)
        gm_warp_destroy(w[i]);
    gm_timing_destroy(t);
}

int main(void)
{
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, alu_src) != 0)
        return 1;
    test_determinism_and_results(sh.p);
    test_observer_exactly_once(sh.p);
    test_latency_chain();
    test_interleave();
    test_cycle_observer(sh.p);
    test_run_ahead_exact(sh.p);
    test_pause_resume(sh.p);
    test_dependencies_and_errors(sh.p);
    shader_free(&sh);
    TEST_DONE();
}
