/* PC sampling: resolution of records at the end of a run, aggregation per (program, line,
 * state), and the outputs (hotspot table, annotated source, JSON). See gmt_pcsamp.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_pcsamp_internal.h"

typedef struct agg_line {
    gmt_pcsamp_line l;
    int prog;
} agg_line;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Hottest first; ties in a fixed order (program, stage, line). */
static int cmp_line(const void *a, const void *b)
{
    const gmt_pcsamp_line *x = &((const agg_line *)a)->l, *y = &((const agg_line *)b)->l;
    if (x->samples != y->samples)
        return x->samples > y->samples ? -1 : 1;
    if (x->ctx_id != y->ctx_id)
        return x->ctx_id < y->ctx_id ? -1 : 1;
    if (x->program != y->program)
        return x->program < y->program ? -1 : 1;
    if (x->stage != y->stage)
        return x->stage < y->stage ? -1 : 1;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    int px = ((const agg_line *)a)->prog, py = ((const agg_line *)b)->prog;
    return px < py ? -1 : px > py;
}

static void resolve(gmt_pcsamp *s)
{
    for (size_t i = 0; i < s->n; i++) {
        gmt_pc_sample *r = &s->rec[i];
        int prog = -1;
        if (r->batch >= 0 && r->batch < s->nb && s->batches[r->batch].known) {
            const gmt_batch_info *b = &s->batches[r->batch];
            r->draw = b->draw;
            r->stage = b->stage;
            r->ctx_id = b->ctx_id;
            r->program = b->program;
            prog = b->prog;
        }
        if (prog >= 0) {
            const gmt_prog *g = s->progs.v[prog];
            r->stage = g->stage;
            if (r->pc >= 0 && r->pc < g->pc_count) {
                r->line = g->line_of[r->pc];
                r->file = gmt_prog_pc_file(g, r->pc);
            }
            if (!r->file)
                r->file = gmt_prog_file(g);
        }
        s->rec_prog[i] = prog;
    }
}

static int aggregate(gmt_pcsamp *s)
{
    if (!s->n)
        return 0;
    uint64_t *keys = malloc(s->n * sizeof *keys);
    if (!keys)
        return -1;
    /* key: program + 1 (24 bits) | line (32 bits) | state (8 bits) */
    for (size_t i = 0; i < s->n; i++) {
        uint64_t line = s->rec[i].line > 0 ? (uint64_t)(uint32_t)s->rec[i].line : 0;
        keys[i] = ((uint64_t)(s->rec_prog[i] + 1) << 40) | (line << 8) |
                  (uint64_t)(s->rec[i].state & 0xff);
    }
    qsort(keys, s->n, sizeof *keys, cmp_u64);
    size_t groups = 0;
    for (size_t i = 0; i < s->n; i++)
        if (i == 0 || (keys[i] >> 8) != (keys[i - 1] >> 8))
            groups++;
    agg_line *a = calloc(groups, sizeof *a);
    if (!a) {
        free(keys);
        return -1;
    }
    size_t g = (size_t)-1;
    for (size_t i = 0; i < s->n; i++) {
        if (i == 0 || (keys[i] >> 8) != (keys[i - 1] >> 8)) {
            g++;
            int prog = (int)(keys[i] >> 40) - 1;
            a[g].prog = prog;
            a[g].l.line = (int)((keys[i] >> 8) & 0xffffffffu);
            if (prog >= 0) {
                const gmt_prog *p = s->progs.v[prog];
                a[g].l.ctx_id = p->ctx_id;
                a[g].l.program = p->program;
                a[g].l.stage = p->stage;
                a[g].l.file = gmt_prog_file(p);
            } else {
                a[g].l.stage = GM_STAGE_COUNT;
            }
        }
        unsigned st = (unsigned)(keys[i] & 0xff);
        a[g].l.samples++;
        if (st < GM_STALL_COUNT)
            a[g].l.by_state[st]++;
    }
    free(keys);
    qsort(a, groups, sizeof *a, cmp_line);
    s->lines = malloc(groups * sizeof *s->lines);
    s->line_prog = malloc(groups * sizeof *s->line_prog);
    if (!s->lines || !s->line_prog) {
        free(a);
        return -1;
    }
    for (size_t i = 0; i < groups; i++) {
        s->lines[i] = a[i].l;
        s->line_prog[i] = a[i].prog;
    }
    s->nlines = groups;
    free(a);
    return 0;
}

void gmt_pcsamp_finish(gmt_pcsamp *s, uint64_t end_cycle)
{
    (void)end_cycle;
    if (s->finished)
        return;
    s->finished = 1;
    s->rec_prog = malloc((s->n ? s->n : 1) * sizeof *s->rec_prog);
    if (!s->rec_prog) {
        s->oom = 1;
        return;
    }
    resolve(s);
    if (aggregate(s) != 0)
        s->oom = 1;
    free(s->rec_prog);
    s->rec_prog = NULL;
}

const gmt_pcsamp_line *gmt_pcsamp_lines(const gmt_pcsamp *s, size_t *count)
{
    *count = s->nlines;
    return s->lines;
}

/* ---- text ---- */

/* States of a line, largest first (ties in gm_stall order). Returns how many are nonzero. */
static int top_states(const uint64_t *by, int *order)
{
    int n = 0;
    for (int k = 0; k < GM_STALL_COUNT; k++)
        if (by[k])
            order[n++] = k;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && by[order[j]] > by[order[j - 1]]; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    return n;
}

static void write_breakdown(FILE *f, const gmt_pcsamp_line *l, int max)
{
    int order[GM_STALL_COUNT];
    int n = top_states(l->by_state, order);
    for (int i = 0; i < n && i < max; i++)
        fprintf(f, "%s%s %.0f%%", i ? ", " : "", gm_stall_name((gm_stall)order[i]),
                100.0 * (double)l->by_state[order[i]] / (double)l->samples);
}

static void write_header(const gmt_pcsamp *s, FILE *f)
{
    gmt_pcsamp_stats st;
    gmt_pcsamp_get_stats(s, -1, &st);
    fprintf(f, "PC sampling: every %u cycles (%s%s), %d SMs, cycles %" PRIu64 "..%" PRIu64
               ": %" PRIu64 " samples, %" PRIu64 " dropped (%" PRIu64 " idle SM, %" PRIu64
               " buffer full), total %" PRIu64 "\n",
            s->cfg.period, s->cfg.mode == GMT_PCSAMP_ALL_WARPS ? "all warps" : "round robin",
            s->cfg.random_offset ? ", random offset" : "", s->nsm, st.first_cycle, st.end_cycle,
            st.samples, st.dropped, st.dropped_idle, st.dropped_full, st.total);
}

void gmt_pcsamp_write_hotspots(const gmt_pcsamp *s, FILE *f, int top)
{
    write_header(s, f);
    gmt_pcsamp_stats st;
    gmt_pcsamp_get_stats(s, -1, &st);
    if (!s->nlines) {
        fprintf(f, "  (no samples)\n");
        return;
    }
    fprintf(f, "%9s %6s  %-28s %5s  %s\n", "samples", "share", "shader", "line",
            "scheduler states");
    for (size_t i = 0; i < s->nlines && (top <= 0 || i < (size_t)top); i++) {
        const gmt_pcsamp_line *l = &s->lines[i];
        char who[64];
        if (s->line_prog[i] >= 0)
            snprintf(who, sizeof who, "ctx%u prog%u %s", l->ctx_id, l->program,
                     gmt_pcsamp_stage_name(l->stage));
        else
            snprintf(who, sizeof who, "(unknown program)");
        char line[16];
        snprintf(line, sizeof line, l->line > 0 ? "%d" : "-", l->line);
        fprintf(f, "%9" PRIu64 " %5.1f%%  %-28s %5s  ", l->samples,
                100.0 * (double)l->samples / (double)(st.samples ? st.samples : 1), who, line);
        write_breakdown(f, l, 4);
        fputc('\n', f);
    }
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return x < y ? -1 : x > y;
}

/* Aggregated lines of program index p, sorted by line. Caller frees. */
static int *lines_of_prog(const gmt_pcsamp *s, int p, size_t *n)
{
    int *v = malloc((s->nlines ? s->nlines : 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < s->nlines; i++)
        if (s->line_prog[i] == p)
            v[(*n)++] = (int)i;
    /* sort indexes by line number */
    int *keyed = malloc((*n ? *n : 1) * 2 * sizeof *keyed);
    if (!keyed) {
        free(v);
        return NULL;
    }
    for (size_t i = 0; i < *n; i++) {
        keyed[2 * i] = s->lines[v[i]].line;
        keyed[2 * i + 1] = v[i];
    }
    qsort(keyed, *n, 2 * sizeof *keyed, cmp_int);
    for (size_t i = 0; i < *n; i++)
        v[i] = keyed[2 * i + 1];
    free(keyed);
    return v;
}

/* Program indexes with samples, in report order. Caller frees. */
static int *progs_sorted(const gmt_pcsamp *s, int *n)
{
    int *v = malloc((size_t)(s->progs.n + 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (int p = 0; p < s->progs.n; p++) {
        int has = 0;
        for (size_t i = 0; i < s->nlines && !has; i++)
            has = s->line_prog[i] == p;
        if (has)
            v[(*n)++] = p;
    }
    for (int i = 1; i < *n; i++)
        for (int j = i; j > 0 && gmt_prog_cmp(s->progs.v[v[j]], s->progs.v[v[j - 1]]) < 0; j--) {
            int t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    return v;
}

void gmt_pcsamp_write_annotated(const gmt_pcsamp *s, FILE *f, gmt_source_fn src, void *src_ctx)
{
    write_header(s, f);
    int np;
    int *progs = progs_sorted(s, &np);
    if (!progs)
        return;
    for (int k = 0; k < np; k++) {
        const gmt_prog *g = s->progs.v[progs[k]];
        size_t nl;
        int *li = lines_of_prog(s, progs[k], &nl);
        if (!li)
            break;
        uint64_t total = 0, no_line = 0;
        for (size_t i = 0; i < nl; i++) {
            total += s->lines[li[i]].samples;
            if (s->lines[li[i]].line <= 0)
                no_line += s->lines[li[i]].samples;
        }
        const char *file = gmt_prog_file(g);
        fprintf(f, "\n== ctx %u program %u %s (%s): %" PRIu64 " samples ==\n", g->ctx_id,
                g->program, gmt_pcsamp_stage_name(g->stage), *file ? file : "?", total);
        if (no_line)
            fprintf(f, "%9" PRIu64 " %5.1f%%  (no source line: finished warps draining, or code "
                       "without line info)\n",
                    no_line, 100.0 * (double)no_line / (double)total);
        const char *text = src ? src(src_ctx, g->ctx_id, g->program, g->stage, file) : NULL;
        if (text) {
            size_t j = 0;
            while (j < nl && s->lines[li[j]].line <= 0)
                j++;
            for (int line = 1;; line++) {
                int len;
                const char *t = gmt_source_line(text, line, &len);
                if (!t)
                    break;
                const gmt_pcsamp_line *l = NULL;
                while (j < nl && s->lines[li[j]].line < line)
                    j++;
                if (j < nl && s->lines[li[j]].line == line)
                    l = &s->lines[li[j]];
                if (l) {
                    fprintf(f, "%9" PRIu64 " %5.1f%%  ", l->samples,
                            100.0 * (double)l->samples / (double)total);
                    char buf[96];
                    FILE *m = fmemopen(buf, sizeof buf, "w");
                    if (m) {
                        write_breakdown(m, l, 2);
                        fclose(m);
                    } else {
                        buf[0] = 0;
                    }
                    buf[sizeof buf - 1] = 0;
                    fprintf(f, "%-40.40s", buf);
                } else {
                    fprintf(f, "%9s %6s  %-40s", "", "", "");
                }
                fprintf(f, " %4d | %.*s\n", line, len, t);
            }
        } else {
            fprintf(f, "  (source text not available: sampled lines only)\n");
            for (size_t i = 0; i < nl; i++) {
                const gmt_pcsamp_line *l = &s->lines[li[i]];
                if (l->line <= 0)
                    continue;
                fprintf(f, "%9" PRIu64 " %5.1f%%  line %4d  ", l->samples,
                        100.0 * (double)l->samples / (double)total, l->line);
                write_breakdown(f, l, 2);
                fputc('\n', f);
            }
        }
        free(li);
    }
    free(progs);
}

/* ---- JSON ---- */

static cJSON *reasons_json(const uint64_t *by)
{
    cJSON *o = cJSON_CreateObject();
    for (int k = 0; o && k < GM_STALL_COUNT; k++)
        if (by[k])
            cJSON_AddNumberToObject(o, gm_stall_name((gm_stall)k), (double)by[k]);
    return o;
}

static cJSON *stats_json(const gmt_pcsamp *s)
{
    gmt_pcsamp_stats st;
    gmt_pcsamp_get_stats(s, -1, &st);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "first_cycle", (double)st.first_cycle);
    cJSON_AddNumberToObject(o, "end_cycle", (double)st.end_cycle);
    cJSON_AddNumberToObject(o, "points", (double)st.points);
    cJSON_AddNumberToObject(o, "samples", (double)st.samples);
    cJSON_AddNumberToObject(o, "dropped", (double)st.dropped);
    cJSON_AddNumberToObject(o, "dropped_idle", (double)st.dropped_idle);
    cJSON_AddNumberToObject(o, "dropped_full", (double)st.dropped_full);
    cJSON_AddNumberToObject(o, "total", (double)st.total);
    cJSON *by = cJSON_AddObjectToObject(o, "by_state");
    for (int k = 0; by && k < GM_STALL_COUNT; k++)
        cJSON_AddNumberToObject(by, gm_stall_name((gm_stall)k), (double)st.by_state[k]);
    cJSON *per = cJSON_AddArrayToObject(o, "per_sm");
    for (int i = 0; per && i < s->nsm; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "sm", i);
        cJSON_AddNumberToObject(e, "points", (double)s->sm[i].points);
        cJSON_AddNumberToObject(e, "samples", (double)s->sm[i].samples);
        cJSON_AddNumberToObject(e, "dropped_idle", (double)s->sm[i].dropped_idle);
        cJSON_AddNumberToObject(e, "dropped_full", (double)s->sm[i].dropped_full);
        cJSON_AddItemToArray(per, e);
    }
    return o;
}

static cJSON *line_json(const gmt_pcsamp *s, size_t i, bool full)
{
    const gmt_pcsamp_line *l = &s->lines[i];
    cJSON *e = cJSON_CreateObject();
    if (full) {
        cJSON_AddNumberToObject(e, "ctx", l->ctx_id);
        cJSON_AddNumberToObject(e, "program", l->program);
        cJSON_AddStringToObject(e, "stage", gmt_pcsamp_stage_name(l->stage));
        cJSON_AddStringToObject(e, "path", l->file ? l->file : "");
    }
    cJSON_AddNumberToObject(e, "line", l->line);
    cJSON_AddNumberToObject(e, "samples", (double)l->samples);
    if (full) {
        gmt_pcsamp_stats st;
        gmt_pcsamp_get_stats(s, -1, &st);
        cJSON_AddNumberToObject(e, "share",
                                (double)l->samples / (double)(st.samples ? st.samples : 1));
    }
    cJSON_AddItemToObject(e, "reasons", reasons_json(l->by_state));
    return e;
}

cJSON *gmt_pcsamp_to_json(const gmt_pcsamp *s)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON *c = cJSON_AddObjectToObject(root, "config");
    cJSON_AddNumberToObject(c, "period", s->cfg.period);
    cJSON_AddStringToObject(c, "mode",
                            s->cfg.mode == GMT_PCSAMP_ALL_WARPS ? "all_warps" : "round_robin");
    cJSON_AddBoolToObject(c, "random_offset", s->cfg.random_offset);
    cJSON_AddNumberToObject(c, "seed", (double)s->cfg.seed);
    cJSON_AddNumberToObject(c, "max_records", (double)s->cfg.max_records);
    cJSON_AddItemToObject(root, "stats", stats_json(s));
    cJSON *states = cJSON_AddArrayToObject(root, "states");
    for (int k = 0; states && k < GM_STALL_COUNT; k++)
        cJSON_AddItemToArray(states, cJSON_CreateString(gm_stall_name((gm_stall)k)));
    cJSON *progs = cJSON_AddArrayToObject(root, "programs");
    int np = 0;
    int *order = progs_sorted(s, &np);
    for (int k = 0; order && k < np; k++) {
        const gmt_prog *g = s->progs.v[order[k]];
        size_t nl;
        int *li = lines_of_prog(s, order[k], &nl);
        if (!li)
            break;
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "ctx", g->ctx_id);
        cJSON_AddNumberToObject(p, "program", g->program);
        cJSON_AddStringToObject(p, "stage", gmt_pcsamp_stage_name(g->stage));
        cJSON_AddStringToObject(p, "path", gmt_prog_file(g));
        uint64_t total = 0;
        cJSON *lines = cJSON_CreateArray();
        for (size_t i = 0; i < nl; i++) {
            total += s->lines[li[i]].samples;
            cJSON_AddItemToArray(lines, line_json(s, (size_t)li[i], false));
        }
        cJSON_AddNumberToObject(p, "samples", (double)total);
        cJSON_AddItemToObject(p, "lines", lines);
        cJSON_AddItemToArray(progs, p);
        free(li);
    }
    free(order);
    cJSON *hot = cJSON_AddArrayToObject(root, "hotspots");
    for (size_t i = 0; hot && i < s->nlines && i < 20; i++)
        cJSON_AddItemToArray(hot, line_json(s, i, true));
    if (s->oom) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}
