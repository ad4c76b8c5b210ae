/* Timing model: texture units and cache (long scoreboard, hits/misses, throttling),
 * memory pipe (loads, stores that drain), synthetic workgroup barriers. */
#include "tm_util.h"
#include "gm_timing_pre.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>

/* A fake 64x64 texture with 7 levels behind the sampler callback. */
typedef struct {
    int samples, queries;
} fake_tex;

static void fake_sample(void *ctx, const gm_sample_request *req, gm_texel_out *out)
{
    fake_tex *ft = ctx;
    for (int l = 0; l < GM_LANES; l++) {
        if (!((req->mask >> l) & 1))
            continue;
        switch (req->op) {
        case GM_TEX_QUERY_SIZE: {
            int lod = (int)req->lod[l];
            int s = lod >= 0 && lod < 7 ? 64 >> lod : 0;
            out->i[0][l] = s;
            out->i[1][l] = s;
            out->i[2][l] = 1;
            break;
        }
        case GM_TEX_QUERY_LEVELS:
            out->i[0][l] = 7;
            break;
        case GM_TEX_FETCH:
            out->f[0][l] = (float)req->coord.i[0][l] / 64.0f;
            out->f[1][l] = (float)req->coord.i[1][l] / 64.0f;
            out->f[2][l] = 0.25f;
            out->f[3][l] = 1.0f;
            break;
        default: {
            float u = req->coord.f[0][l], v = req->coord.f[1][l];
            out->f[0][l] = u * 3.1f - floorf(u * 3.1f);
            out->f[1][l] = v * 1.7f - floorf(v * 1.7f);
            out->f[2][l] = 0.5f;
            out->f[3][l] = 1.0f;
            break;
        }
        }
    }
    if (req->op == GM_TEX_QUERY_SIZE || req->op == GM_TEX_QUERY_LEVELS)
        ft->queries++;
    else
        ft->samples++;
}

/* A 512-float storage buffer at binding 0. */
static float ssbo[512];

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    (void)ctx;
    if (kind != GM_BUFFER_STORAGE || binding != 0)
        return NULL;
    *size = sizeof ssbo;
    return ssbo;
}

static uint32_t v_value(int warp, int lane) { return fbits((float)(warp * 32 + lane) / 97.0f); }
static uint32_t n_value(int warp, int lane) { (void)lane; return (uint32_t)(2 + 10 * warp); }

typedef struct {
    gm_timing_config cfg;
    int nwarps, group;
    gm_stage stage;
    tm_log log;
    gm_timing_stats stats;
    uint32_t out[64 * 4 * GM_LANES];
    size_t nout;
    int mem_events;
    gm_timing_barrier_fn barrier;
    void *barrier_ctx;
    uint64_t ev_hash;         /* every field of every memory/texture event, in order */
    fake_tex *ft;
    int samples_at_first_tex; /* texture fetches executed when the first one issued */
} run_t;

static void count_mem(void *ctx, const gm_timing_mem_event *e)
{
    run_t *r = ctx;
    if (e->is_texture && r->samples_at_first_tex < 0)
        r->samples_at_first_tex = r->ft->samples;
    r->mem_events++;
    const uint64_t f[] = {e->cycle, e->done_cycle, (uint64_t)e->sm, (uint64_t)e->batch,
                          (uint64_t)e->warp_id, (uint64_t)e->pc, (uint64_t)e->is_texture,
                          (uint64_t)e->is_store, (uint64_t)e->lines, (uint64_t)e->hits,
                          (uint64_t)e->misses};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        r->ev_hash = (r->ev_hash ^ f[i]) * 0x100000001b3ull;
    if (e->done_cycle <= e->cycle)
        gm_test_failures++;
}

/* Launch-time runs on another thread (gm_timing_pre.h): a thread runs the warps' pre objects
 * in submission order while the model runs; the model's wait hook waits for each. */
typedef struct {
    gm_timing_pre *pre[64];
    atomic_int done[64];
    int n;
} pre_set;

static void *pre_worker(void *arg)
{
    pre_set *ps = arg;
    for (int i = 0; i < ps->n; i++) {
        gm_timing_pre_run(ps->pre[i]);
        atomic_store(&ps->done[i], 1);
    }
    return NULL;
}

static void pre_wait(void *ctx, void *owner)
{
    pre_set *ps = ctx;
    int i = (int)(intptr_t)owner;
    while (!atomic_load(&ps->done[i]))
        ;
}

/* tex_ahead: warps may run their texture fetches ahead of their issue
 * (gm_timing_set_tex_run_ahead); the fake texture never changes, so that is allowed.
 * 2: also their launch-time run on another thread (gm_timing_pre.h), through a second fake
 * texture with the same texels (the first counts the model's own fetches). */
static void run_once(gm_program *p, run_t *r, int with_n, int observe, int tex_ahead)
{
    static pre_set ps;
    fake_tex ft2 = {0};
    gm_env env2 = {&ft2, fake_sample, NULL, fake_buffer};
    ps.n = 0;
    fake_tex ft = {0};
    gm_env env = {&ft, fake_sample, NULL, fake_buffer};
    gm_timing *t = gm_timing_create(&r->cfg, NULL, 0);
    r->log.pause_at = -1;
    r->ft = &ft;
    r->ev_hash = 0xcbf29ce484222325ull;
    r->samples_at_first_tex = -1;
    if (observe)
        gm_timing_set_issue_observer(t, log_issue, &r->log);
    gm_timing_set_tex_run_ahead(t, tex_ahead != 0);
    gm_timing_set_pre_wait(t, pre_wait, &ps);
    gm_timing_set_mem_observer(t, count_mem, r);
    if (r->barrier)
        gm_timing_set_barrier_hook(t, r->barrier, r->barrier_ctx);
    gm_timing_batch_desc d = {r->stage, 0, -1, 0, r->group, NULL, 0};
    int b = gm_timing_batch_begin(t, &d);
    gm_warp *w[64];
    for (int i = 0; i < r->nwarps; i++) {
        w[i] = gm_warp_create(p, i);
        set_input(p, w[i], "v", i, v_value);
        if (with_n)
            set_input(p, w[i], "n", i, n_value);
        gm_warp_begin(w[i], 0xffffffffu, 0);
        CHECK(gm_timing_submit(t, b, w[i], &env, NULL) == 0);
        if (tex_ahead == 2) {
            ps.pre[ps.n] = gm_timing_pre_create();
            atomic_store(&ps.done[ps.n], 0);
            CHECK(gm_timing_pre_attach(t, w[i], ps.pre[ps.n], &env2, (void *)(intptr_t)ps.n) == 0);
            ps.n++;
        }
    }
    gm_timing_batch_close(t, b);
    pthread_t th;
    CHECK(tex_ahead != 2 || pthread_create(&th, NULL, pre_worker, &ps) == 0);
    CHECK(gm_timing_run(t) == GM_TIMING_IDLE);
    if (tex_ahead == 2) {
        pthread_join(th, NULL);
        for (int i = 0; i < ps.n; i++)
            gm_timing_pre_destroy(ps.pre[i]);
        /* Every fetch ran on the worker (the fake textures count them). */
        CHECKF(ft.samples == 0 && ft2.samples > 0 ? 1 : r->stats.tex_requests == 0,
               "launch runs elsewhere: %d fetches by the model, %d by the worker", ft.samples,
               ft2.samples);
    }
    gm_timing_batch_stats(t, b, &r->stats);
    r->nout = 0;
    for (int i = 0; i < r->nwarps; i++) {
        r->nout += output_words(p, w[i], r->out + r->nout, 4 * GM_LANES);
        gm_warp_destroy(w[i]);
    }
    gm_timing_destroy(t);
}

/* Runs with the issue observer (one instruction stepped per issue), after a run without
 * it (warps run ahead of their issue between texture, memory and barrier instructions):
 * statistics and results must be the same. (The memory test's shader reads one half of
 * its SSBO and writes the other, so running it twice is harmless.) */
static void run(gm_program *p, run_t *r, int with_n)
{
    static run_t ahead, tex_ahead, pre;
    ahead = *r;
    memset(&ahead.log, 0, sizeof ahead.log);
    tex_ahead = ahead;
    pre = ahead;
    run_once(p, &ahead, with_n, 0, 0);
    run_once(p, &tex_ahead, with_n, 0, 1);
    run_once(p, &pre, with_n, 0, 2);
    run_once(p, r, with_n, 1, 0);
    const run_t *cmp[3] = {&ahead, &tex_ahead, &pre};
    static const char *const what[3] = {"", " across TEX", " on another thread"};
    for (int i = 0; i < 3; i++) {
        const run_t *a = cmp[i];
        CHECKF(memcmp(&a->stats, &r->stats, sizeof r->stats) == 0,
               "run-ahead%s: statistics differ (cycles %llu vs %llu)", what[i],
               (unsigned long long)a->stats.cycles, (unsigned long long)r->stats.cycles);
        CHECK(a->nout == r->nout && memcmp(a->out, r->out, r->nout * 4) == 0);
        CHECK(a->mem_events == r->mem_events);
        CHECKF(a->ev_hash == r->ev_hash, "run-ahead%s: memory/texture events differ", what[i]);
    }
    /* Stepping fetches one texture request at its issue; run-ahead across TEX had run the
     * first warp's fetches (all of them, in the texture tests) before any issued. */
    if (r->samples_at_first_tex >= 0) {
        CHECK(r->samples_at_first_tex == 1 && ahead.samples_at_first_tex == 1);
        CHECKF(tex_ahead.samples_at_first_tex > 1 || r->stats.tex_requests == (uint64_t)r->nwarps,
               "no texture fetch ran ahead (%d at the first issue)", tex_ahead.samples_at_first_tex);
    }
}

static size_t reference(gm_program *p, int nwarps, uint32_t *out, int with_n)
{
    fake_tex ft = {0};
    gm_env env = {&ft, fake_sample, NULL, fake_buffer};
    size_t n = 0;
    for (int i = 0; i < nwarps; i++) {
        gm_warp *w = gm_warp_create(p, i);
        gm_warp_set_env(w, &env);
        set_input(p, w, "v", i, v_value);
        if (with_n)
            set_input(p, w, "n", i, n_value);
        gm_warp_begin(w, 0xffffffffu, 0);
        CHECK(gm_warp_run(w, 0) == GM_RUN_DONE);
        n += output_words(p, w, out + n, 4 * GM_LANES);
        gm_warp_destroy(w);
    }
    return n;
}

static const char *tex_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "uniform sampler2D tex;\n"
    "void main() {\n"
    "  vec4 acc = vec4(0.0);\n"
    "  vec2 uv = vec2(v, v * 0.5);\n"
    "  for (int i = 0; i < 8; i++) {\n"
    "    acc += texture(tex, uv);\n"
    "    uv = acc.xy * 0.37 + vec2(0.01 * float(i));\n"
    "  }\n"
    "  o = acc;\n"
    "}\n";

static void test_texture_heavy(void)
{
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, tex_src) != 0) {
        gm_test_failures++;
        return;
    }
    static run_t r;
    memset(&r, 0, sizeof r);
    gm_timing_config_default(&r.cfg);
    r.cfg.sm_count = 2;
    r.cfg.warp_slots_per_sm = 8;
    r.nwarps = 24;
    r.stage = GM_STAGE_FRAGMENT;
    run(sh.p, &r, 0);
    static uint32_t ref[64 * 4 * GM_LANES];
    size_t nref = reference(sh.p, r.nwarps, ref, 0);
    CHECK(r.nout == nref && memcmp(r.out, ref, nref * 4) == 0);
    const gm_timing_stats *s = &r.stats;
    CHECK(s->tex_requests == s->issued_by_class[GM_LAT_TEXTURE]);
    CHECK(s->tex_requests == (uint64_t)r.nwarps * 8);
    CHECK(s->tex_hits + s->tex_misses == s->tex_lines);
    CHECK(s->tex_misses > 0 && s->tex_hits > 0);
    CHECK(r.mem_events == (int)s->tex_requests);
    /* Waiting for texture results dominates every other stall reason. */
    for (int i = GM_STALL_NOT_SELECTED; i < GM_STALL_COUNT; i++)
        if (i != GM_STALL_LONG_SCOREBOARD)
            CHECKF(s->stall[GM_STALL_LONG_SCOREBOARD] > s->stall[i], "%s %llu >= long %llu",
                   gm_stall_name((gm_stall)i), (unsigned long long)s->stall[i],
                   (unsigned long long)s->stall[GM_STALL_LONG_SCOREBOARD]);
    printf("texture: %llu cycles, %llu requests, %llu lines, %llu hits, %llu misses, "
           "long_scoreboard %llu\n",
           (unsigned long long)s->cycles, (unsigned long long)s->tex_requests,
           (unsigned long long)s->tex_lines, (unsigned long long)s->tex_hits,
           (unsigned long long)s->tex_misses,
           (unsigned long long)s->stall[GM_STALL_LONG_SCOREBOARD]);

    /* A one-deep texture queue throttles. */
    static run_t q;
    memset(&q, 0, sizeof q);
    q.cfg = r.cfg;
    q.cfg.tex_queue_depth = 1;
    q.nwarps = r.nwarps;
    q.stage = GM_STAGE_FRAGMENT;
    run(sh.p, &q, 0);
    CHECK(q.stats.stall[GM_STALL_TEX_THROTTLE] > 0);
    CHECK(q.stats.cycles > r.stats.cycles);
    CHECK(q.nout == nref && memcmp(q.out, ref, nref * 4) == 0);

    /* Four warps per sub-partition and more warps than slots: warps waiting for a texture
     * instruction's operands, and finished ones draining, sit beside warps that issue ahead
     * up to the cycle the first of them can change (gm_timing_sched.c, slow_bound). */
    static run_t f;
    memset(&f, 0, sizeof f);
    f.cfg = r.cfg;
    f.cfg.warp_slots_per_sm = 16;
    f.nwarps = 48;
    f.stage = GM_STAGE_FRAGMENT;
    run(sh.p, &f, 0);
    CHECK(f.stats.tex_requests == (uint64_t)f.nwarps * 8);
    free(r.log.ev);
    free(q.log.ev);
    free(f.log.ev);
    shader_free(&sh);
}

/* The same texel fetched repeatedly: one miss, then hits. */
static void test_cache_hits(void)
{
    const char *src =
        "#version 450\n"
        "layout(location=0) in float v;\n"
        "layout(location=0) out vec4 o;\n"
        "uniform sampler2D tex;\n"
        "void main() {\n"
        "  vec4 acc = vec4(v);\n"
        "  for (int i = 0; i < 8; i++)\n"
        "    acc += texelFetch(tex, ivec2(5, 6), 0);\n"
        "  o = acc;\n"
        "}\n";
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, src) != 0) {
        gm_test_failures++;
        return;
    }
    static run_t r;
    memset(&r, 0, sizeof r);
    gm_timing_config_default(&r.cfg);
    r.cfg.sm_count = 1;
    r.nwarps = 1;
    r.stage = GM_STAGE_FRAGMENT;
    run(sh.p, &r, 0);
    CHECK(r.stats.tex_requests == 8);
    CHECK(r.stats.tex_lines == 8);
    CHECK(r.stats.tex_misses == 1 && r.stats.tex_hits == 7);
    free(r.log.ev);
    shader_free(&sh);
}

/* Two draws fetching the same texel through unit 0: the second hits the first's line
 * only when the batches say unit 0 holds the same texture. */
static void second_draw_misses(gm_program *p, uint32_t id_a, uint32_t id_b, uint64_t *misses)
{
    fake_tex ft = {0};
    gm_env env = {&ft, fake_sample, NULL, NULL};
    gm_timing_config cfg;
    gm_timing_config_default(&cfg);
    cfg.sm_count = 1;
    gm_timing *t = gm_timing_create(&cfg, NULL, 0);
    uint32_t ids[2] = {id_a, id_b};
    int b[2];
    gm_warp *w[2];
    for (int i = 0; i < 2; i++) {
        gm_timing_batch_desc d = {GM_STAGE_FRAGMENT, i, i ? b[0] : -1, 0, 0, &ids[i], 1};
        b[i] = gm_timing_batch_begin(t, &d);
        w[i] = gm_warp_create(p, i);
        set_input(p, w[i], "v", i, v_value);
        gm_warp_begin(w[i], 0xffffffffu, 0);
        gm_timing_submit(t, b[i], w[i], &env, NULL);
        gm_timing_batch_close(t, b[i]);
    }
    CHECK(gm_timing_run(t) == GM_TIMING_IDLE);
    gm_timing_stats s;
    gm_timing_batch_stats(t, b[1], &s);
    *misses = s.tex_misses;
    gm_timing_forget_program(t, p);
    gm_timing_destroy(t);
    for (int i = 0; i < 2; i++)
        gm_warp_destroy(w[i]);
}

static void test_texture_ids(void)
{
    const char *src =
        "#version 450\n"
        "layout(location=0) in float v;\n"
        "layout(location=0) out vec4 o;\n"
        "uniform sampler2D tex;\n"
        "void main() {\n"
        "  o = texelFetch(tex, ivec2(9, 3), 0) + vec4(v);\n"
        "}\n";
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, src) != 0) {
        gm_test_failures++;
        return;
    }
    uint64_t same, other;
    second_draw_misses(sh.p, 7, 7, &same);
    second_draw_misses(sh.p, 7, 8, &other);
    CHECK(same == 0);
    CHECK(other == 1);
    shader_free(&sh);
}

/* Loads and stores through the memory pipe; stores drain before the warp retires. */
static void test_memory(void)
{
    const char *src =
        "#version 450\n"
        "layout(location=0) in float v;\n"
        "layout(location=0) out vec4 o;\n"
        "layout(std430, binding=0) buffer B { float data[]; };\n"
        "void main() {\n"
        "  int i = int(v * 97.0) & 255;\n"
        "  float a = data[i];\n"
        "  data[i + 256] = a * 2.0;\n"
        "  o = vec4(a);\n"
        "}\n";
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_FRAGMENT, src) != 0) {
        gm_test_failures++;
        return;
    }
    for (int i = 0; i < 512; i++)
        ssbo[i] = (float)i * 0.5f;
    static uint32_t ref[64 * 4 * GM_LANES];
    size_t nref = reference(sh.p, 8, ref, 0);
    float ref_buf[512];
    memcpy(ref_buf, ssbo, sizeof ssbo);
    for (int i = 0; i < 512; i++)
        ssbo[i] = (float)i * 0.5f;
    static run_t r;
    memset(&r, 0, sizeof r);
    gm_timing_config_default(&r.cfg);
    r.cfg.sm_count = 1;
    r.nwarps = 8;
    r.stage = GM_STAGE_FRAGMENT;
    run(sh.p, &r, 0);
    CHECK(r.nout == nref && memcmp(r.out, ref, nref * 4) == 0);
    CHECK(memcmp(ref_buf, ssbo, sizeof ssbo) == 0);
    CHECK(r.stats.mem_requests == 16 && r.stats.mem_stores == 8);
    CHECK(r.stats.stall[GM_STALL_LONG_SCOREBOARD] > 0);
    CHECK(r.stats.stall[GM_STALL_DRAINED] > 0);
    CHECK(r.mem_events == 16);
    free(r.log.ev);
    shader_free(&sh);
}

/* Synthetic barrier at the first instruction of line 9. */
static const char *barrier_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=1) in int n;\n"
    "layout(location=0) out float o;\n"
    "void main() {\n"
    "  float x = v;\n"
    "  for (int i = 0; i < n; i++)\n"
    "    x = x * 1.01 + 0.5;\n"
    "  o = x + 1.0;\n"
    "}\n";

static int barrier_pc;

static int is_barrier(void *ctx, const gm_program *p, int pc)
{
    (void)ctx;
    (void)p;
    return pc == barrier_pc;
}

/* 1 when, in issue order, every warp's barrier instruction comes after every warp's
 * instructions before it (per workgroup of 4 warps). */
static int barrier_respected(const tm_log *lg, int nwarps, int *same_sm)
{
    int ok = 1;
    *same_sm = 1;
    for (int g = 0; g < nwarps / 4; g++) {
        size_t first_barrier = (size_t)-1, last_pre = 0;
        int sm = -1;
        int seen[64] = {0};
        for (size_t i = 0; i < lg->n; i++) {
            const tm_event *e = &lg->ev[i];
            if (e->warp_id / 4 != g)
                continue;
            if (sm < 0)
                sm = e->sm;
            if (e->sm != sm)
                *same_sm = 0;
            if (e->pc == barrier_pc) {
                seen[e->warp_id] = 1;
                if (first_barrier == (size_t)-1)
                    first_barrier = i;
            } else if (!seen[e->warp_id]) {
                last_pre = i;
            }
        }
        if (!(first_barrier != (size_t)-1 && first_barrier > last_pre))
            ok = 0;
    }
    return ok;
}

static void test_barrier(void)
{
    tm_shader sh;
    if (shader_init(&sh, GM_STAGE_VERTEX, barrier_src) != 0) {
        gm_test_failures++;
        return;
    }
    barrier_pc = -1;
    for (int pc = 0; pc < gm_program_pc_count(sh.p) && barrier_pc < 0; pc++)
        if (gm_program_pc_line(sh.p, pc) == 9)
            barrier_pc = pc;
    CHECK(barrier_pc >= 0);
    static run_t r, free_run;
    memset(&r, 0, sizeof r);
    gm_timing_config_default(&r.cfg);
    r.cfg.sm_count = 2;
    r.cfg.warp_slots_per_sm = 8;
    r.nwarps = 8;
    r.group = 4;
    r.stage = GM_STAGE_VERTEX;
    r.barrier = is_barrier;
    run(sh.p, &r, 1);
    static uint32_t ref[64 * 4 * GM_LANES];
    size_t nref = reference(sh.p, r.nwarps, ref, 1);
    CHECK(r.nout == nref && memcmp(r.out, ref, nref * 4) == 0);
    int same_sm;
    CHECK(barrier_respected(&r.log, r.nwarps, &same_sm));
    CHECK(same_sm);
    CHECK(r.stats.stall[GM_STALL_BARRIER] > 0);
    CHECK(r.stats.issued_by_class[GM_LAT_BARRIER] == (uint64_t)r.nwarps);
    printf("barrier: %llu cycles, %llu warp-cycles waiting at the barrier\n",
           (unsigned long long)r.stats.cycles,
           (unsigned long long)r.stats.stall[GM_STALL_BARRIER]);

    /* Without workgroups the same marker does not hold anyone. */
    memset(&free_run, 0, sizeof free_run);
    free_run.cfg = r.cfg;
    free_run.nwarps = 8;
    free_run.stage = GM_STAGE_VERTEX;
    free_run.barrier = is_barrier;
    run(sh.p, &free_run, 1);
    CHECK(!barrier_respected(&free_run.log, free_run.nwarps, &same_sm));
    CHECK(free_run.stats.stall[GM_STALL_BARRIER] == 0);
    free(r.log.ev);
    free(free_run.log.ev);
    shader_free(&sh);
}

int main(void)
{
    test_texture_heavy();
    test_cache_hits();
    test_texture_ids();
    test_memory();
    test_barrier();
    TEST_DONE();
}
