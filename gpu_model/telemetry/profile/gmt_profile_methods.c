/* The telemetry methods behind the profile spine (see gmt_profile_methods.h). Each block is
 * compiled when meson found its module (GMT_HAVE_*); otherwise asking for the method gives a
 * note in the outputs instead of an error, so the spine works while a module is missing. */
#include <stdlib.h>
#include <string.h>

#include "gmt_profile_internal.h"

#ifdef GMT_HAVE_COUNTERS
#include "gmt_counters.h"
#endif
#ifdef GMT_HAVE_PCSAMP
#include "gmt_pcsamp.h"
#endif
#ifdef GMT_HAVE_EDGES
#include "gmt_edges.h"
#endif
#ifdef GMT_HAVE_TRACEBUF
#include "gmt_tracebuf.h"
#endif

/* Most PC-sample instants put in a Chrome trace (beyond it every k-th sample is kept). */
#define MAX_INSTANTS 20000

int gmt_methods_create(struct gmt_profile *p, const gm_timing_config *tc, char *err, size_t err_size)
{
    const gmt_profile_options *o = &p->opt;
    (void)tc;
    (void)err;
    (void)err_size;
    if (o->counters) {
#ifdef GMT_HAVE_COUNTERS
        gmt_counters_config cc;
        gmt_counters_default_config(&cc);
        if (o->counter_mask)
            cc.mask = ~o->counter_mask & ((1ull << GMT_COUNTER_COUNT) - 1);
        if (!(p->m.counters = gmt_counters_create(&cc, tc, err, err_size)))
            return -1;
#else
        gmt_profile_note(p, "counters: the counters module is not built into this binary");
#endif
    }
    if (o->pc_period) {
#ifdef GMT_HAVE_PCSAMP
        gmt_pcsamp_config pc;
        gmt_pcsamp_default_config(&pc);
        pc.period = o->pc_period;
        pc.mode = o->pc_all_warps ? GMT_PCSAMP_ALL_WARPS : GMT_PCSAMP_ROUND_ROBIN;
        pc.random_offset = o->pc_seed != 0;
        if (o->pc_seed)
            pc.seed = o->pc_seed;
        if (!(p->m.pcsamp = gmt_pcsamp_create(&pc, tc, err, err_size)))
            return -1;
#else
        gmt_profile_note(p, "pc sampling: the pcsamp module is not built into this binary");
#endif
    }
    if (o->edge_period) {
#ifdef GMT_HAVE_EDGES
        gmt_edges_config ec;
        gmt_edges_default_config(&ec);
        ec.period = o->edge_period;
        ec.exact = o->edge_exact;
        if (!(p->m.edges = gmt_edges_create(&ec, tc, err, err_size)))
            return -1;
#else
        gmt_profile_note(p, "edges: the edge profile module is not built into this binary");
#endif
    }
    if (o->trace_types[0]) {
#ifdef GMT_HAVE_TRACEBUF
        gmt_tracebuf_config tb;
        memset(&tb, 0, sizeof tb);
        if (gmt_tracebuf_parse_types(o->trace_types, &tb, err, err_size) != 0)
            return -1;
        if (!(p->m.tracebuf = gmt_tracebuf_create(&tb, err, err_size)))
            return -1;
        p->m.passes = 2;
#else
        gmt_profile_note(p, "trace buffers: the tracebuf module is not built into this binary");
#endif
    }
    return 0;
}

int gmt_methods_hooks(struct gmt_profile *p, int pass, gmf_hooks *out)
{
    int n = 0;
    bool last = pass == p->m.passes - 1;
    (void)out;
    (void)last;
#ifdef GMT_HAVE_COUNTERS
    if (p->m.counters && last)
        gmt_counters_hooks(p->m.counters, &out[n++]);
#endif
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp && last)
        gmt_pcsamp_hooks(p->m.pcsamp, &out[n++]);
#endif
#ifdef GMT_HAVE_EDGES
    if (p->m.edges && last)
        gmt_edges_hooks(p->m.edges, &out[n++]);
#endif
#ifdef GMT_HAVE_TRACEBUF
    /* Pass 1 counts block executions, pass 2 records into buffers of exactly that size. */
    if (p->m.tracebuf && gmt_tracebuf_hooks(p->m.tracebuf, pass + 1, &out[n]) == 0)
        n++;
#endif
    return n;
}

#ifdef GMT_HAVE_COUNTERS
/* The counters worth a plot panel, in panel order. */
static const gmt_counter_id main_counters[] = {
    GMT_C_WARPS_RESIDENT, GMT_C_INST_ISSUED, GMT_C_STALL_LONG_SCOREBOARD, GMT_C_TEX_MISSES,
    GMT_C_FRAGMENTS_SHADED, GMT_C_BLEND_OPS,
};

/* One counter as rates per cycle between bank swaps, of every context (ctx 0) or one context (the
 * swaps of other contexts' banks count zero for it). A swap at the same cycle as the previous one
 * (a draw-end trigger right after another) adds its counts to the previous interval. */
static int fill_series(const gmt_counters *c, struct gmt_series *s, gmt_counter_id id, uint32_t ctx)
{
    size_t ns = gmt_counters_series_count(c);
    s->cycle = calloc(ns + 2, sizeof *s->cycle);
    s->value = calloc(ns + 2, sizeof *s->value);
    if (!s->cycle || !s->value)
        return -1;
    gmt_counters_sample smp;
    uint64_t prev = 0, last_span = 1;
    for (size_t i = 0; i < ns; i++) {
        if (gmt_counters_series_get(c, i, &smp) != 0 || smp.cycle < prev)
            continue;
        double count = !ctx || smp.ctx_id == ctx ? (double)smp.delta[id] : 0.0;
        if (smp.cycle == prev) {
            if (s->n)
                s->value[s->n - 1] += count / (double)last_span;
            else
                s->value[s->n++] = count; /* counts at cycle 0: one cycle wide */
            continue;
        }
        last_span = smp.cycle - prev;
        s->cycle[s->n] = prev;
        s->value[s->n++] = count / (double)last_span;
        prev = smp.cycle;
    }
    s->cycle[s->n] = prev;
    s->value[s->n++] = 0;
    return 0;
}

/* Every counter with counts becomes a series (the main ones first); with several GL contexts the
 * main counters also get one series per context. */
static int build_counter_series(struct gmt_profile *p)
{
    const gmt_counters *c = p->m.counters;
    const gmt_counters_block *g = gmt_counters_global(c);
    const int n_main = (int)(sizeof main_counters / sizeof main_counters[0]);
    int order[GMT_COUNTER_COUNT], n = 0, n_used_main = 0;
    bool used[GMT_COUNTER_COUNT] = { false };
    for (int i = 0; i < n_main; i++)
        if (g->values[main_counters[i]]) {
            order[n++] = main_counters[i];
            used[main_counters[i]] = true;
            n_used_main++;
        }
    for (int id = 0; id < GMT_COUNTER_COUNT; id++)
        if (!used[id] && g->values[id])
            order[n++] = id;
    int n_ctx = gmt_counters_context_count(c);
    int per_ctx = n_ctx > 1 ? n_ctx * n_used_main : 0;
    p->m.series = calloc((size_t)(n + per_ctx) + 1, sizeof *p->m.series);
    if (!p->m.series)
        return -1;
    for (int k = 0; k < n; k++) {
        struct gmt_series *s = &p->m.series[p->m.n_series++];
        s->main = k < n_used_main;
        snprintf(s->name, sizeof s->name, "%s per cycle", gmt_counter_name((gmt_counter_id)order[k]));
        if (fill_series(c, s, (gmt_counter_id)order[k], 0) != 0)
            return -1;
    }
    for (int i = 0; per_ctx && i < n_ctx; i++)
        for (int k = 0; k < n_used_main; k++) {
            const gmt_counters_block *b = gmt_counters_context(c, i);
            struct gmt_series *s = &p->m.series[p->m.n_series++];
            snprintf(s->name, sizeof s->name, "ctx %u: %s per cycle", b->ctx_id,
                     gmt_counter_name((gmt_counter_id)order[k]));
            if (fill_series(c, s, (gmt_counter_id)order[k], b->ctx_id) != 0)
                return -1;
        }
    return 0;
}
#endif

int gmt_methods_end_pass(struct gmt_profile *p, int pass, uint64_t end_cycle, char *err, size_t err_size)
{
    (void)err;
    (void)err_size;
    (void)end_cycle;
    bool last = pass == p->m.passes - 1;
    (void)last;
#ifdef GMT_HAVE_TRACEBUF
    if (p->m.tracebuf) {
        int rc = last ? gmt_tracebuf_finish(p->m.tracebuf, err, err_size)
                      : gmt_tracebuf_size_buffers(p->m.tracebuf, err, err_size);
        if (rc != 0)
            return -1;
    }
#endif
    if (!last)
        return 0;
#ifdef GMT_HAVE_COUNTERS
    if (p->m.counters) {
        gmt_counters_finish(p->m.counters, end_cycle);
        if (build_counter_series(p) != 0) {
            snprintf(err, err_size, "out of memory");
            return -1;
        }
    }
#endif
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp)
        gmt_pcsamp_finish(p->m.pcsamp, end_cycle);
#endif
#ifdef GMT_HAVE_EDGES
    if (p->m.edges)
        gmt_edges_finish(p->m.edges, end_cycle);
#endif
    return 0;
}

void gmt_methods_fold_lines(struct gmt_profile *p)
{
    (void)p;
#ifdef GMT_HAVE_PCSAMP
    if (!p->m.pcsamp)
        return;
    size_t n = 0;
    const gmt_pcsamp_line *l = gmt_pcsamp_lines(p->m.pcsamp, &n);
    for (size_t i = 0; i < n; i++) {
        gmt_profile_line *e = gmt_profile_line_at(p, l[i].ctx_id, l[i].program, l[i].stage, l[i].line);
        if (!e)
            return;
        e->samples += l[i].samples;
        for (int k = 0; k < GM_STALL_COUNT; k++)
            e->reasons[k] += l[i].by_state[k];
    }
#endif
}

void gmt_methods_json(const struct gmt_profile *p, cJSON *root)
{
    (void)p;
    (void)root;
#ifdef GMT_HAVE_COUNTERS
    if (p->m.counters)
        cJSON_AddItemToObject(root, "counters", gmt_counters_to_json(p->m.counters));
#endif
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp)
        cJSON_AddItemToObject(root, "pcsamp", gmt_pcsamp_to_json(p->m.pcsamp));
#endif
#ifdef GMT_HAVE_EDGES
    if (p->m.edges)
        cJSON_AddItemToObject(root, "edges", gmt_edges_to_json(p->m.edges));
#endif
#ifdef GMT_HAVE_TRACEBUF
    if (p->m.tracebuf) {
        gmt_tracebuf_stats st;
        gmt_tracebuf_get_stats(p->m.tracebuf, &st);
        cJSON *t = cJSON_AddObjectToObject(root, "tracebuf");
        cJSON *types = cJSON_AddObjectToObject(t, "types");
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++) {
            if (!st.records[k] && !st.bytes[k])
                continue;
            cJSON *o = cJSON_AddObjectToObject(types, gmt_tb_type_name((gmt_tb_type)k));
            cJSON_AddNumberToObject(o, "records", (double)st.records[k]);
            cJSON_AddNumberToObject(o, "bytes", (double)st.bytes[k]);
            cJSON_AddNumberToObject(o, "cursor", (double)st.cursor[k]);
        }
        cJSON_AddNumberToObject(t, "total_records", (double)st.total_records);
        cJSON_AddNumberToObject(t, "total_bytes", (double)st.total_bytes);
        cJSON_AddNumberToObject(t, "block_executions", (double)st.block_executions);
        cJSON_AddNumberToObject(t, "programs", (double)st.programs);
        cJSON_AddNumberToObject(t, "warps", (double)st.warps);
        cJSON_AddNumberToObject(t, "merged_records", (double)gmt_tracebuf_merged_count(p->m.tracebuf));
    }
#endif
}

void gmt_methods_trace(const struct gmt_profile *p, cJSON *events)
{
    (void)p;
    (void)events;
#ifdef GMT_HAVE_PCSAMP
    if (!p->m.pcsamp)
        return;
    size_t n = 0;
    const gmt_pc_sample *s = gmt_pcsamp_samples(p->m.pcsamp, &n);
    size_t step = n > MAX_INSTANTS ? (n + MAX_INSTANTS - 1) / MAX_INSTANTS : 1;
    int max_sm = -1;
    for (size_t i = 0; i < n; i++)
        if (s[i].sm > max_sm)
            max_sm = s[i].sm;
    /* One track per SM, after the context tracks. */
    for (int sm = 0; sm <= max_sm; sm++) {
        cJSON *e = cJSON_CreateObject();
        char name[48];
        snprintf(name, sizeof name, "SM %d PC samples", sm);
        cJSON_AddStringToObject(e, "ph", "M");
        cJSON_AddStringToObject(e, "name", "thread_name");
        cJSON_AddNumberToObject(e, "pid", 1);
        cJSON_AddNumberToObject(e, "tid", 1000 + sm);
        cJSON_AddStringToObject(cJSON_AddObjectToObject(e, "args"), "name", name);
        cJSON_AddItemToArray(events, e);
    }
    for (size_t i = 0; i < n; i += step) {
        cJSON *e = cJSON_CreateObject();
        char name[64];
        snprintf(name, sizeof name, "%s", gm_stall_name(s[i].state));
        cJSON_AddStringToObject(e, "name", name);
        cJSON_AddStringToObject(e, "cat", "pc_sample");
        cJSON_AddStringToObject(e, "ph", "i");
        cJSON_AddStringToObject(e, "s", "t");
        cJSON_AddNumberToObject(e, "pid", 1);
        cJSON_AddNumberToObject(e, "tid", 1000 + s[i].sm);
        cJSON_AddNumberToObject(e, "ts", gmt_profile_us(p, s[i].cycle));
        cJSON *a = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(a, "cycle", (double)s[i].cycle);
        cJSON_AddNumberToObject(a, "line", s[i].line);
        cJSON_AddStringToObject(a, "file", s[i].file ? s[i].file : "");
        cJSON_AddStringToObject(a, "reason", gm_stall_name(s[i].state));
        cJSON_AddNumberToObject(a, "pc", s[i].pc);
        cJSON_AddNumberToObject(a, "draw", (double)s[i].draw);
        cJSON_AddStringToObject(a, "stage", gmt_pcsamp_stage_name(s[i].stage));
        cJSON_AddNumberToObject(a, "program", s[i].program);
        cJSON_AddNumberToObject(a, "warp", (double)s[i].warp_seq);
        cJSON_AddNumberToObject(a, "slot", s[i].slot);
        cJSON_AddItemToArray(events, e);
    }
#endif
}

void gmt_methods_report(const struct gmt_profile *p, FILE *f)
{
    (void)p;
    (void)f;
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp) {
        fprintf(f, "\nPC sampling:\n");
        gmt_pcsamp_write_hotspots(p->m.pcsamp, f, 10);
    }
#endif
#ifdef GMT_HAVE_COUNTERS
    if (p->m.counters) {
        const gmt_counters *c = p->m.counters;
        const gmt_counters_block *g = gmt_counters_global(c);
        int nc = gmt_counters_context_count(c);
        fprintf(f, "\ncounters (per GL context and global):\n  %-26s", "counter");
        for (int i = 0; i < nc; i++) {
            char h[24];
            snprintf(h, sizeof h, "ctx %u", gmt_counters_context(c, i)->ctx_id);
            fprintf(f, " %14s", h);
        }
        fprintf(f, " %14s\n", "global");
        bool conserved = true;
        for (int id = 0; id < GMT_COUNTER_COUNT; id++) {
            uint64_t sum = 0;
            for (int i = 0; i < nc; i++)
                sum += gmt_counters_context(c, i)->values[id];
            conserved &= sum == g->values[id];
            if (!g->values[id])
                continue;
            fprintf(f, "  %-26s", gmt_counter_name((gmt_counter_id)id));
            for (int i = 0; i < nc; i++)
                fprintf(f, " %14llu", (unsigned long long)gmt_counters_context(c, i)->values[id]);
            fprintf(f, " %14llu\n", (unsigned long long)g->values[id]);
        }
        fprintf(f, "  per-context blocks sum to the global channel: %s\n", conserved ? "yes" : "NO");
    }
#endif
#ifdef GMT_HAVE_EDGES
    if (p->m.edges) {
        fprintf(f, "\nedge profiles:\n");
        gmt_edges_write_report(p->m.edges, f, 5);
    }
#endif
#ifdef GMT_HAVE_TRACEBUF
    if (p->m.tracebuf) {
        gmt_tracebuf_stats st;
        gmt_tracebuf_get_stats(p->m.tracebuf, &st);
        fprintf(f, "\ntrace buffers (exact size from pass 1):");
        for (int k = 0; k < GMT_TB_TYPE_COUNT; k++)
            if (st.bytes[k] || st.records[k])
                fprintf(f, " %s %llu records / %llu bytes;", gmt_tb_type_name((gmt_tb_type)k),
                        (unsigned long long)st.records[k], (unsigned long long)st.bytes[k]);
        fprintf(f, " merged %zu records\n", gmt_tracebuf_merged_count(p->m.tracebuf));
    }
#endif
}

int gmt_methods_series_count(const struct gmt_profile *p)
{
    return p->m.n_series;
}

int gmt_methods_series(const struct gmt_profile *p, int i, const char **name, size_t *n, const uint64_t **cycle,
                       const double **value, bool *main)
{
    if (i < 0 || i >= p->m.n_series)
        return -1;
    const struct gmt_series *s = &p->m.series[i];
    *name = s->name;
    *n = s->n;
    *cycle = s->cycle;
    *value = s->value;
    *main = s->main;
    return 0;
}

int gmt_methods_write_dot(const struct gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx)
{
    (void)f;
    (void)src;
    (void)src_ctx;
#ifdef GMT_HAVE_EDGES
    if (p->m.edges) {
        gmt_edges_write_dot(p->m.edges, f, src, src_ctx);
        return 0;
    }
#endif
    (void)p;
    return -1;
}

int gmt_methods_write_annotated(const struct gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx)
{
    (void)f;
    (void)src;
    (void)src_ctx;
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp) {
        gmt_pcsamp_write_annotated(p->m.pcsamp, f, src, src_ctx);
        return 0;
    }
#endif
    (void)p;
    return -1;
}

int gmt_methods_write_tracebuf(const struct gmt_profile *p, const char *path, char *err, size_t err_size)
{
#ifdef GMT_HAVE_TRACEBUF
    if (p->m.tracebuf) {
        size_t n = strlen(path);
        if (n > 6 && !strcmp(path + n - 6, ".jsonl"))
            return gmt_tracebuf_write_jsonl(p->m.tracebuf, path, err, err_size);
        return gmt_tracebuf_write_binary(p->m.tracebuf, path, err, err_size);
    }
#endif
    (void)p;
    (void)path;
    snprintf(err, err_size, "no trace buffers were recorded (use --trace-buffers)");
    return -1;
}

void gmt_methods_destroy(struct gmt_profile *p)
{
#ifdef GMT_HAVE_COUNTERS
    if (p->m.counters)
        gmt_counters_destroy(p->m.counters);
#endif
#ifdef GMT_HAVE_PCSAMP
    if (p->m.pcsamp)
        gmt_pcsamp_destroy(p->m.pcsamp);
#endif
#ifdef GMT_HAVE_EDGES
    if (p->m.edges)
        gmt_edges_destroy(p->m.edges);
#endif
#ifdef GMT_HAVE_TRACEBUF
    if (p->m.tracebuf)
        gmt_tracebuf_destroy(p->m.tracebuf);
#endif
    for (int i = 0; i < p->m.n_series; i++) {
        free(p->m.series[i].cycle);
        free(p->m.series[i].value);
    }
    free(p->m.series);
    memset(&p->m, 0, sizeof p->m);
}

int gmt_profile_write_dot(const gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx)
{
    return gmt_methods_write_dot(p, f, src, src_ctx);
}

int gmt_profile_write_annotated(const gmt_profile *p, FILE *f, gmt_profile_source_fn src, void *src_ctx)
{
    return gmt_methods_write_annotated(p, f, src, src_ctx);
}

int gmt_profile_write_tracebuf(const gmt_profile *p, const char *path, char *err, size_t err_size)
{
    return gmt_methods_write_tracebuf(p, path, err, err_size);
}

int gmt_profile_parse_trace_types(gmt_profile_options *opt, const char *list, char *err, size_t err_size)
{
    char spec[sizeof opt->trace_types];
    if (!list || !*list || strlen(list) >= sizeof spec - 8) {
        snprintf(err, err_size, "trace buffer types: give a comma list of flow, mem, tex, reg:NAME (or all)");
        return -1;
    }
    /* "bb" (basic-block flow) is the tracebuf module's "flow". */
    size_t k = 0;
    for (const char *w = list; *w;) {
        size_t len = strcspn(w, ",");
        if (len == 2 && !strncmp(w, "bb", 2)) {
            memcpy(spec + k, "flow", 4);
            k += 4;
        } else {
            memcpy(spec + k, w, len);
            k += len;
        }
        w += len;
        if (*w == ',') {
            spec[k++] = ',';
            w++;
        }
    }
    spec[k] = 0;
#ifdef GMT_HAVE_TRACEBUF
    gmt_tracebuf_config tb;
    memset(&tb, 0, sizeof tb);
    if (gmt_tracebuf_parse_types(spec, &tb, err, err_size) != 0)
        return -1;
#endif
    snprintf(opt->trace_types, sizeof opt->trace_types, "%s", spec);
    return 0;
}
