/* Unit tests of PC sampling and edge profiles on the timing model with real shaders (no GL):
 * configuration checks, sample accounting (points = floor(end/P) per SM, total = samples +
 * dropped), records equal to the model's slot states, aggregation sums, determinism, exact edge
 * counts with flow conservation, and sampled traces rebuilt exactly (B = C = 1 gives the exact
 * profile; C = B tiles every slot's branch sequence). */
#include <math.h>

#include "gm_test.h"
#include "gmt_edges.h"
#include "gmt_harness.h"
#include "gmt_pcsamp.h"

/* Divergent loop, if, switch, function call and discard. */
static const char *frag_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "float f(float x) {\n"
    "  if (x > 1.3) return x * 0.5;\n"
    "  return sqrt(x);\n"
    "}\n"
    "void main() {\n"
    "  vec3 c = vec3(v, v * 0.5, 0.25);\n"
    "  int n = int(v) % 7 + 3;\n"
    "  for (int i = 0; i < n; i++) {\n"
    "    c = fract(c * 1.7 + vec3(0.13, 0.27, 0.41));\n"
    "    if (c.x > 0.5) c.y = f(c.y + 1.0);\n"
    "    switch (i % 3) {\n"
    "    case 0: c.z += 0.1; break;\n"
    "    case 1: c.z *= 0.9; break;\n"
    "    default: break;\n"
    "    }\n"
    "  }\n"
    "  if (c.z > 0.95) discard;\n"
    "  o = vec4(c, float(n));\n"
    "}\n";

/* Straight-line vertex-like shader (no branches but the return). */
static const char *flat_src =
    "#version 450\n"
    "layout(location=0) in float v;\n"
    "layout(location=0) out vec4 o;\n"
    "void main() {\n"
    "  o = vec4(v, v * 2.0, sin(v), 1.0);\n"
    "}\n";

/* ---- an independent observer for the checks ---- */
#define MAXSM 8
typedef struct checker {
    uint64_t first, end;
    int seen;
    uint32_t period;
    /* slot states at the sampling points (cycle % period == period - 1) */
    struct point { uint64_t cycle; int sm; gm_timing_slot_sample s[64]; } *pts;
    size_t npts, cap;
    uint64_t resident_at_points[MAXSM], idle_points[MAXSM];
} checker;

static void chk_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *s, int n)
{
    checker *c = ctx;
    if (!c->seen) {
        c->seen = 1;
        c->first = cycle;
    }
    c->end = cycle + 1;
    if (cycle % c->period != c->period - 1)
        return;
    if (c->npts == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 256;
        c->pts = realloc(c->pts, c->cap * sizeof *c->pts);
    }
    struct point *p = &c->pts[c->npts++];
    p->cycle = cycle;
    p->sm = sm;
    int any = 0;
    for (int i = 0; i < n && i < 64; i++) {
        p->s[i] = s[i];
        if (s[i].resident) {
            any = 1;
            c->resident_at_points[sm]++;
        }
    }
    if (!any)
        c->idle_points[sm]++;
}

static const struct point *find_point(const checker *c, uint64_t cycle, int sm)
{
    for (size_t i = 0; i < c->npts; i++)
        if (c->pts[i].cycle == cycle && c->pts[i].sm == sm)
            return &c->pts[i];
    return NULL;
}

static void test_config(void)
{
    char err[256];
    gmt_pcsamp_config pc;
    gmt_pcsamp_default_config(&pc);
    pc.period = 1000;
    CHECK(gmt_pcsamp_create(&pc, NULL, err, sizeof err) == NULL);
    CHECK(strstr(err, "power of two") != NULL);
    pc.period = 0;
    CHECK(gmt_pcsamp_create(&pc, NULL, err, sizeof err) == NULL);
    gmt_edges_config ec;
    gmt_edges_default_config(&ec);
    ec.keep = 0;
    CHECK(gmt_edges_create(&ec, NULL, err, sizeof err) == NULL);
    gmt_edges_default_config(&ec);
    ec.random_delta = ec.period;
    CHECK(gmt_edges_create(&ec, NULL, err, sizeof err) == NULL);
    gmt_edges_default_config(&ec);
    ec.period = 0;
    ec.exact = false;
    CHECK(gmt_edges_create(&ec, NULL, err, sizeof err) == NULL);
}

/* Events the model never sends (SM out of range, no warp, batch -1) are ignored or counted,
 * never a crash. */
static void test_bad_events(void)
{
    char err[256];
    gmt_edges *e = gmt_edges_create(NULL, NULL, err, sizeof err);
    gmt_pcsamp *s = gmt_pcsamp_create(NULL, NULL, err, sizeof err);
    CHECK(e && s);
    if (!e || !s)
        return;
    gmf_hooks he, hs;
    gmt_edges_hooks(e, &he);
    gmt_pcsamp_hooks(s, &hs);
    gm_timing_issue ev;
    memset(&ev, 0, sizeof ev);
    ev.sm = 99;
    he.issue(he.ctx, &ev);
    hs.issue(hs.ctx, &ev);
    ev.sm = 0;
    ev.batch = -1;
    he.issue(he.ctx, &ev); /* no warp: no program */
    hs.issue(hs.ctx, &ev);
    gm_timing_slot_sample slots[16];
    memset(slots, 0, sizeof slots);
    slots[3].resident = 1;
    slots[3].batch = 12345; /* never issued: resolved as unknown */
    slots[3].pc = 7;
    hs.cycle(hs.ctx, 1023, 77, slots, 16);
    hs.cycle(hs.ctx, 1023, 0, slots, 16);
    gmt_edges_finish(e, 0);
    gmt_pcsamp_finish(s, 1024);
    gmt_edges_stats es;
    gmt_edges_get_stats(e, &es);
    CHECK(es.warps == 0 && es.branches == 0);
    CHECK(gmt_edges_error(e) < 0);
    gmt_pcsamp_stats ps;
    gmt_pcsamp_get_stats(s, -1, &ps);
    CHECK(ps.samples == 1 && ps.points == 1);
    size_t n;
    const gmt_pc_sample *r = gmt_pcsamp_samples(s, &n);
    CHECK(n == 1 && r[0].draw == -1 && r[0].program == 0 && r[0].line == 0);
    cJSON *j1 = gmt_pcsamp_to_json(s), *j2 = gmt_edges_to_json(e);
    CHECK(j1 && j2);
    cJSON_Delete(j1);
    cJSON_Delete(j2);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gmt_pcsamp_write_hotspots(s, f, 0);
    gmt_pcsamp_write_annotated(s, f, NULL, NULL);
    gmt_edges_write_dot(e, f, NULL, NULL);
    gmt_edges_write_report(e, f, 0);
    fclose(f);
    CHECK(strstr(buf, "(unknown program)") != NULL);
    free(buf);
    gmt_edges_destroy(e);
    gmt_pcsamp_destroy(s);
}

typedef struct run_opts {
    uint32_t period;
    gmt_pcsamp_mode mode;
    bool random_offset;
    size_t max_records;
} run_opts;

/* Runs two draws (flat + branchy shader) with a sampler and a checker. */
static gmt_pcsamp *run_pcsamp(gmth_shader *flat, gmth_shader *frag, const run_opts *o,
                              checker *chk)
{
    char err[256];
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    gm_timing *t = gm_timing_create(&tc, err, sizeof err);
    gmt_pcsamp_config pc;
    gmt_pcsamp_default_config(&pc);
    pc.period = o->period;
    pc.mode = o->mode;
    pc.random_offset = o->random_offset;
    pc.seed = 7;
    if (o->max_records)
        pc.max_records = o->max_records;
    gmt_pcsamp *s = gmt_pcsamp_create(&pc, &tc, err, sizeof err);
    CHECKF(s != NULL, "%s", err);
    if (!s) {
        gm_timing_destroy(t);
        return NULL;
    }
    memset(chk, 0, sizeof *chk);
    chk->period = o->period;
    gmth m = {0};
    gmf_hooks h;
    gmt_pcsamp_hooks(s, &h);
    gmth_add(&m, &h);
    gmf_hooks ch = {.ctx = chk, .cycle = chk_cycle};
    gmth_add(&m, &ch);
    gmth_install(&m, t);
    gmth_draw(&m, 1, 0, 1, 5);
    CHECK(gmth_run_batch(&m, flat->p, 24, 0, 0.37f) == GM_TIMING_IDLE);
    gmth_draw(&m, 0, 0, 1, 5);
    gmth_draw(&m, 1, 1, 1, 9);
    CHECK(gmth_run_batch(&m, frag->p, 90, 1, 0.41f) == GM_TIMING_IDLE);
    gmth_draw(&m, 0, 1, 1, 9);
    gmt_pcsamp_finish(s, gm_timing_cycle(t));
    gm_timing_destroy(t);
    return s;
}

static void check_accounting(const gmt_pcsamp *s, const checker *chk, const run_opts *o)
{
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    gmt_pcsamp_stats all;
    CHECK(gmt_pcsamp_get_stats(s, -1, &all) == 0);
    CHECK(all.first_cycle == chk->first && all.end_cycle == chk->end);
    uint64_t expect = all.end_cycle / o->period - all.first_cycle / o->period;
    for (int sm = 0; sm < tc.sm_count; sm++) {
        gmt_pcsamp_stats st;
        CHECK(gmt_pcsamp_get_stats(s, sm, &st) == 0);
        if (!o->random_offset)
            CHECKF(st.points == expect, "sm %d: %llu points, expected floor(%llu/%u) - "
                   "floor(%llu/%u) = %llu", sm, (unsigned long long)st.points,
                   (unsigned long long)all.end_cycle, o->period,
                   (unsigned long long)all.first_cycle, o->period, (unsigned long long)expect);
        else
            CHECKF(st.points + 1 >= expect && st.points <= expect + 1, "sm %d: %llu points",
                   sm, (unsigned long long)st.points);
        CHECK(st.total == st.samples + st.dropped);
        if (o->mode == GMT_PCSAMP_ROUND_ROBIN) {
            CHECK(st.points == st.total);
        } else {
            if (!o->random_offset) {
                CHECK(st.dropped_idle == chk->idle_points[sm]);
                CHECK(st.samples + st.dropped_full == chk->resident_at_points[sm]);
            }
        }
    }
    CHECK(gmt_pcsamp_get_stats(s, tc.sm_count, &all) == -1);
    gmt_pcsamp_get_stats(s, -1, &all);
    CHECK(all.samples > 0);
    /* aggregation sums to the samples, per state too */
    size_t nl;
    const gmt_pcsamp_line *l = gmt_pcsamp_lines(s, &nl);
    uint64_t sum = 0, by[GM_STALL_COUNT] = {0};
    for (size_t i = 0; i < nl; i++) {
        uint64_t ls = 0;
        for (int k = 0; k < GM_STALL_COUNT; k++) {
            ls += l[i].by_state[k];
            by[k] += l[i].by_state[k];
        }
        CHECK(ls == l[i].samples);
        sum += l[i].samples;
        if (i)
            CHECK(l[i].samples <= l[i - 1].samples);
    }
    CHECK(sum == all.samples);
    for (int k = 0; k < GM_STALL_COUNT; k++)
        CHECK(by[k] == all.by_state[k]);
}

static void check_records(const gmt_pcsamp *s, const checker *chk)
{
    size_t n;
    const gmt_pc_sample *r = gmt_pcsamp_samples(s, &n);
    size_t with_line = 0;
    for (size_t i = 0; i < n; i++) {
        const struct point *p = find_point(chk, r[i].cycle, r[i].sm);
        CHECKF(p != NULL, "record %zu at cycle %llu is not a sampling point", i,
               (unsigned long long)r[i].cycle);
        if (!p)
            continue;
        const gm_timing_slot_sample *x = &p->s[r[i].slot];
        CHECK(x->resident);
        CHECK(x->warp_seq == r[i].warp_seq && x->pc == r[i].pc && x->state == r[i].state);
        CHECK(r[i].ctx_id == 1 && (r[i].program == 5 || r[i].program == 9));
        CHECK(r[i].draw == (r[i].program == 9));
        if (r[i].line > 0) {
            with_line++;
            CHECK(r[i].file && strstr(r[i].file, ".glsl"));
        }
    }
    CHECK(with_line * 2 > n); /* most records are on a line (drained warps have none) */
}

static void check_round_robin(const gmt_pcsamp *s, const checker *chk)
{
    /* Each SM's consecutive samples go to the next resident slot after the previous one. */
    size_t n;
    const gmt_pc_sample *r = gmt_pcsamp_samples(s, &n);
    int last[MAXSM];
    for (int i = 0; i < MAXSM; i++)
        last[i] = -1;
    for (size_t i = 0; i < n; i++) {
        const struct point *p = find_point(chk, r[i].cycle, r[i].sm);
        if (!p)
            continue;
        int sm = r[i].sm, want = -1;
        for (int k = 1; k <= 16; k++) {
            int slot = (last[sm] + k + 16) % 16;
            if (p->s[slot].resident) {
                want = slot;
                break;
            }
        }
        CHECK(r[i].slot == want);
        last[sm] = r[i].slot;
    }
}

static void test_pcsamp(gmth_shader *flat, gmth_shader *frag)
{
    const run_opts cases[] = {
        {1, GMT_PCSAMP_ROUND_ROBIN, false, 0},
        {16, GMT_PCSAMP_ROUND_ROBIN, false, 0},
        {64, GMT_PCSAMP_ALL_WARPS, false, 0},
        {32, GMT_PCSAMP_ROUND_ROBIN, true, 0},
        {8, GMT_PCSAMP_ROUND_ROBIN, false, 50}, /* buffer full: dropped_full */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        checker chk;
        gmt_pcsamp *s = run_pcsamp(flat, frag, &cases[c], &chk);
        if (!s)
            continue;
        check_accounting(s, &chk, &cases[c]);
        if (!cases[c].random_offset)
            check_records(s, &chk);
        if (cases[c].mode == GMT_PCSAMP_ROUND_ROBIN && !cases[c].random_offset)
            check_round_robin(s, &chk);
        gmt_pcsamp_stats st;
        gmt_pcsamp_get_stats(s, -1, &st);
        if (cases[c].max_records) {
            CHECK(st.samples == cases[c].max_records && st.dropped_full > 0);
        }
        /* P = 1, round robin: one sample per SM-cycle with a resident warp */
        if (c == 0) {
            uint64_t cycles = st.end_cycle - st.first_cycle;
            CHECK(st.points == cycles * 4);
        }
        /* outputs */
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        gmt_pcsamp_write_hotspots(s, f, 10);
        gmt_pcsamp_write_annotated(s, f, NULL, NULL);
        fclose(f);
        CHECK(strstr(buf, "PC sampling: every") != NULL);
        CHECK(strstr(buf, "ctx1 prog9 fragment") != NULL);
        free(buf);
        cJSON *j = gmt_pcsamp_to_json(s);
        CHECK(j != NULL);
        if (j) {
            cJSON *progs = cJSON_GetObjectItem(j, "programs");
            double sum = 0;
            cJSON *p;
            cJSON_ArrayForEach(p, progs) {
                double ps = 0;
                cJSON *l;
                cJSON_ArrayForEach(l, cJSON_GetObjectItem(p, "lines"))
                    ps += cJSON_GetObjectItem(l, "samples")->valuedouble;
                CHECK(ps == cJSON_GetObjectItem(p, "samples")->valuedouble);
                sum += ps;
            }
            CHECK(sum == (double)st.samples);
            cJSON *js = cJSON_GetObjectItem(j, "stats");
            CHECK(cJSON_GetObjectItem(js, "total")->valuedouble == (double)st.total);
            char *txt = cJSON_PrintUnformatted(j);
            cJSON *back = cJSON_Parse(txt);
            CHECK(back != NULL);
            cJSON_Delete(back);
            free(txt);
            cJSON_Delete(j);
        }
        gmt_pcsamp_destroy(s);
        free(chk.pts);
    }
    /* determinism: same run, same records */
    checker c1, c2;
    gmt_pcsamp *a = run_pcsamp(flat, frag, &cases[3], &c1);
    free(c1.pts);
    gmt_pcsamp *b = run_pcsamp(flat, frag, &cases[3], &c2);
    free(c2.pts);
    size_t na, nb;
    const gmt_pc_sample *ra = gmt_pcsamp_samples(a, &na), *rb = gmt_pcsamp_samples(b, &nb);
    CHECK(na == nb && na > 0);
    for (size_t i = 0; i < na && i < nb; i++)
        CHECK(ra[i].cycle == rb[i].cycle && ra[i].warp_seq == rb[i].warp_seq &&
              ra[i].pc == rb[i].pc && ra[i].state == rb[i].state);
    gmt_pcsamp_destroy(a);
    gmt_pcsamp_destroy(b);
}

/* ---- edges ---- */

/* Runs both shaders with several edge profilers at once. */
static void run_edges(gmth_shader *flat, gmth_shader *frag, gmt_edges **e, int n)
{
    char err[256];
    gm_timing_config tc;
    gm_timing_config_default(&tc);
    gm_timing *t = gm_timing_create(&tc, err, sizeof err);
    gmth m = {0};
    for (int i = 0; i < n; i++) {
        gmf_hooks h;
        gmt_edges_hooks(e[i], &h);
        gmth_add(&m, &h);
    }
    gmth_install(&m, t);
    gmth_draw(&m, 1, 0, 1, 5);
    CHECK(gmth_run_batch(&m, flat->p, 30, 0, 0.37f) == GM_TIMING_IDLE);
    gmth_draw(&m, 0, 0, 1, 5);
    gmth_draw(&m, 1, 1, 1, 9);
    CHECK(gmth_run_batch(&m, frag->p, 200, 1, 0.41f) == GM_TIMING_IDLE);
    gmth_draw(&m, 0, 1, 1, 9);
    for (int i = 0; i < n; i++)
        gmt_edges_finish(e[i], gm_timing_cycle(t));
    gm_timing_destroy(t);
}

static gmt_edges *mk_edges(uint32_t B, int C, uint32_t delta, bool exact)
{
    char err[256];
    gmt_edges_config ec;
    gmt_edges_default_config(&ec);
    ec.period = B;
    ec.keep = C;
    ec.random_delta = delta;
    ec.exact = exact;
    gmt_edges *e = gmt_edges_create(&ec, NULL, err, sizeof err);
    CHECKF(e != NULL, "%s", err);
    return e;
}

static void check_conservation(const gmt_edges *e, uint64_t warps_flat, uint64_t warps_frag)
{
    CHECK(gmt_edges_program_count(e) == 2);
    int saw_kinds[GMT_EDGE_EXIT + 1] = {0};
    for (int i = 0; i < gmt_edges_program_count(e); i++) {
        gmt_edges_program p;
        CHECK(gmt_edges_get_program(e, i, &p) == 0);
        uint64_t *in = calloc((size_t)p.block_count, sizeof *in);
        uint64_t *out = calloc((size_t)p.block_count, sizeof *out);
        uint64_t entry = 0, exit_ = 0;
        for (int k = 0; k < p.edge_count; k++) {
            const gmt_edge *x = &p.edges[k];
            saw_kinds[x->kind] = 1;
            if (x->from == GMT_EDGES_ENTRY)
                entry += x->exact;
            else
                out[x->from] += x->exact;
            if (x->to == GMT_EDGES_EXIT)
                exit_ += x->exact;
            else
                in[x->to] += x->exact;
            if (k)
                CHECK(p.edges[k - 1].from < x->from ||
                      (p.edges[k - 1].from == x->from && p.edges[k - 1].to < x->to));
        }
        for (int b = 0; b < p.block_count; b++)
            CHECKF(in[b] == out[b], "program %u block %d: in %llu out %llu", p.program, b,
                   (unsigned long long)in[b], (unsigned long long)out[b]);
        uint64_t warps = p.program == 5 ? warps_flat : warps_frag;
        CHECK(entry == warps && exit_ == warps);
        free(in);
        free(out);
    }
    /* the branchy shader has fall-throughs, branches, calls and returns */
    CHECK(saw_kinds[GMT_EDGE_FALLTHROUGH] && saw_kinds[GMT_EDGE_BRANCH] &&
          saw_kinds[GMT_EDGE_CALL] && saw_kinds[GMT_EDGE_RETURN] && saw_kinds[GMT_EDGE_ENTRY] &&
          saw_kinds[GMT_EDGE_EXIT]);
}

static void test_edges(gmth_shader *flat, gmth_shader *frag)
{
    /* exact; B = C = 1 (every branch, exactly itself); C = B = 7 (windows tile the trace);
     * B = 50 with a random delta; B = 1000 */
    gmt_edges *e[5] = {mk_edges(0, 16, 0, true), mk_edges(1, 1, 0, true), mk_edges(7, 7, 0, true),
                       mk_edges(50, 16, 10, true), mk_edges(1000, 16, 0, true)};
    for (int i = 0; i < 5; i++)
        if (!e[i])
            return;
    run_edges(flat, frag, e, 5);
    gmt_edges_stats st[5];
    for (int i = 0; i < 5; i++) {
        gmt_edges_get_stats(e[i], &st[i]);
        CHECK(st[i].rebuild_failed == 0);
        CHECK(st[i].warps == 230 && st[i].branches == st[0].branches);
    }
    check_conservation(e[0], 30, 200);
    CHECK(gmt_edges_error(e[0]) < 0); /* nothing sampled */
    /* B = C = 1: the sampled profile is the exact one */
    CHECK(st[1].kept == st[1].branches);
    CHECKF(gmt_edges_error(e[1]) == 0.0, "error %g", gmt_edges_error(e[1]));
    /* C = B = 7: every edge's sampled count is at most its exact count, and the branches not
     * covered are the tails after each slot's last sample (< B per slot) */
    gmt_edges_program p, q;
    uint64_t missing = 0;
    for (int i = 0; i < gmt_edges_program_count(e[2]); i++) {
        gmt_edges_get_program(e[2], i, &p);
        gmt_edges_get_program(e[0], i, &q);
        CHECK(p.edge_count == q.edge_count);
        for (int k = 0; k < p.edge_count; k++) {
            CHECK(p.edges[k].sampled <= p.edges[k].exact);
            CHECK(p.edges[k].exact == q.edges[k].exact);
            if (p.edges[k].kind != GMT_EDGE_ENTRY)
                missing += p.edges[k].exact - p.edges[k].sampled;
        }
    }
    CHECKF(missing < 64u * 7u, "missing %llu", (unsigned long long)missing);
    CHECK(missing == st[2].branches - st[2].kept);
    double e7 = gmt_edges_error(e[2]), e50 = gmt_edges_error(e[3]), e1000 = gmt_edges_error(e[4]);
    printf("edge error: B=C=7 %.4f, B=50 (delta 10) %.4f, B=1000 %.4f (%llu branches, %llu kept)\n",
           e7, e50, e1000, (unsigned long long)st[4].branches, (unsigned long long)st[4].kept);
    CHECK(e7 >= 0 && e7 < 0.05);
    CHECK(e50 >= 0 && e50 < 0.25);
    /* outputs */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    gmt_edges_write_dot(e[3], f, NULL, NULL);
    gmt_edges_write_report(e[3], f, 5);
    fclose(f);
    CHECK(strstr(buf, "digraph \"ctx1_program9_fragment\"") != NULL);
    CHECK(strstr(buf, "entry -> b0") != NULL);
    CHECK(strstr(buf, "weighted relative error") != NULL);
    free(buf);
    cJSON *j = gmt_edges_to_json(e[3]);
    CHECK(j && cJSON_GetArraySize(cJSON_GetObjectItem(j, "programs")) == 2);
    CHECK(cJSON_IsNumber(cJSON_GetObjectItem(cJSON_GetObjectItem(j, "stats"), "error")));
    cJSON_Delete(j);
    for (int i = 0; i < 5; i++)
        gmt_edges_destroy(e[i]);
}

int main(void)
{
    test_config();
    test_bad_events();
    gmth_shader flat, frag;
    if (gmth_shader_init(&flat, GM_STAGE_VERTEX, flat_src, "flat.glsl") != 0 ||
        gmth_shader_init(&frag, GM_STAGE_FRAGMENT, frag_src, "branchy.glsl") != 0)
        return 1;
    test_pcsamp(&flat, &frag);
    test_edges(&flat, &frag);
    gmth_shader_free(&flat);
    gmth_shader_free(&frag);
    TEST_DONE();
}
