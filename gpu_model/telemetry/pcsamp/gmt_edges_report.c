/* Edge profiles: outputs (JSON, DOT of each CFG, text report). See gmt_edges.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "gmt_edges_internal.h"
#include "gmt_pcsamp.h" /* gmt_pcsamp_stage_name */

static cJSON *program_json(const gmt_edges_program *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "ctx", p->ctx_id);
    cJSON_AddNumberToObject(o, "program", p->program);
    cJSON_AddStringToObject(o, "stage", gmt_pcsamp_stage_name(p->stage));
    cJSON_AddStringToObject(o, "path", p->file ? p->file : "");
    cJSON *blocks = cJSON_AddArrayToObject(o, "blocks");
    for (int b = 0; blocks && p->blocks && b < p->block_count; b++) {
        const gmt_edges_block *bk = &p->blocks[b];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddNumberToObject(x, "id", b);
        cJSON_AddNumberToObject(x, "first_pc", bk->first_pc);
        cJSON_AddNumberToObject(x, "last_pc", bk->last_pc);
        cJSON_AddNumberToObject(x, "line_min", bk->line_min);
        cJSON_AddNumberToObject(x, "line_max", bk->line_max);
        cJSON_AddStringToObject(x, "function", bk->function ? bk->function : "");
        cJSON_AddItemToArray(blocks, x);
    }
    cJSON *edges = cJSON_AddArrayToObject(o, "edges");
    for (int k = 0; edges && k < p->edge_count; k++) {
        const gmt_edge *x = &p->edges[k];
        cJSON *y = cJSON_CreateObject();
        cJSON_AddNumberToObject(y, "from", x->from);
        cJSON_AddNumberToObject(y, "to", x->to);
        cJSON_AddStringToObject(y, "kind", gmt_edge_kind_name(x->kind));
        cJSON_AddNumberToObject(y, "exact", (double)x->exact);
        cJSON_AddNumberToObject(y, "sampled", (double)x->sampled);
        cJSON_AddNumberToObject(y, "estimate", x->estimate);
        cJSON_AddItemToArray(edges, y);
    }
    return o;
}

cJSON *gmt_edges_to_json(const gmt_edges *e)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON *c = cJSON_AddObjectToObject(root, "config");
    cJSON_AddNumberToObject(c, "period", e->cfg.period);
    cJSON_AddNumberToObject(c, "random_delta", e->cfg.random_delta);
    cJSON_AddNumberToObject(c, "seed", (double)e->cfg.seed);
    cJSON_AddNumberToObject(c, "keep", e->cfg.keep);
    cJSON_AddNumberToObject(c, "ring", GMT_EDGES_RING);
    cJSON_AddBoolToObject(c, "exact", e->cfg.exact);
    cJSON_AddStringToObject(c, "counter",
                            e->cfg.counter == GMT_EDGES_COUNT_PER_SM ? "per_sm" : "per_slot");
    gmt_edges_stats st;
    gmt_edges_get_stats(e, &st);
    cJSON *s = cJSON_AddObjectToObject(root, "stats");
    cJSON_AddNumberToObject(s, "warps", (double)st.warps);
    cJSON_AddNumberToObject(s, "branches", (double)st.branches);
    cJSON_AddNumberToObject(s, "taken", (double)st.taken);
    cJSON_AddNumberToObject(s, "samples", (double)st.samples);
    cJSON_AddNumberToObject(s, "kept", (double)st.kept);
    cJSON_AddNumberToObject(s, "rebuild_failed", (double)st.rebuild_failed);
    cJSON_AddNumberToObject(s, "scale", st.scale);
    double err = gmt_edges_error(e);
    if (err >= 0)
        cJSON_AddNumberToObject(s, "error", err);
    else
        cJSON_AddNullToObject(s, "error");
    cJSON *progs = cJSON_AddArrayToObject(root, "programs");
    for (int i = 0; progs && i < gmt_edges_program_count(e); i++) {
        gmt_edges_program p;
        if (gmt_edges_get_program(e, i, &p) == 0)
            cJSON_AddItemToArray(progs, program_json(&p));
    }
    if (e->oom) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Writes s (n bytes) escaped for a DOT double-quoted string. */
static void dot_text(FILE *f, const char *s, int n)
{
    for (int i = 0; i < n && s[i]; i++) {
        char ch = s[i];
        if (ch == '"' || ch == '\\')
            fputc('\\', f);
        fputc(ch == '\t' ? ' ' : ch, f);
    }
}

static void dot_node(FILE *f, int id)
{
    if (id == GMT_EDGES_ENTRY)
        fputs("entry", f);
    else if (id == GMT_EDGES_EXIT)
        fputs("exit", f);
    else
        fprintf(f, "b%d", id);
}

static uint64_t weight(const gmt_edges *e, const gmt_edge *x)
{
    return e->cfg.exact ? x->exact : (uint64_t)(x->estimate + 0.5);
}

void gmt_edges_write_dot(const gmt_edges *e, FILE *f, gmt_source_fn src, void *src_ctx)
{
    for (int i = 0; i < gmt_edges_program_count(e); i++) {
        gmt_edges_program p;
        if (gmt_edges_get_program(e, i, &p) != 0 || !p.blocks)
            continue;
        const char *stage = gmt_pcsamp_stage_name(p.stage);
        const char *text = src ? src(src_ctx, p.ctx_id, p.program, p.stage, p.file) : NULL;
        uint64_t maxw = 1;
        for (int k = 0; k < p.edge_count; k++)
            if (weight(e, &p.edges[k]) > maxw)
                maxw = weight(e, &p.edges[k]);
        fprintf(f, "digraph \"ctx%u_program%u_%s\" {\n", p.ctx_id, p.program, stage);
        fprintf(f, "  label=\"ctx %u program %u %s (", p.ctx_id, p.program, stage);
        dot_text(f, p.file ? p.file : "", 200);
        fprintf(f, "): edge weights = %s\";\n", e->cfg.exact ? "exact traversals"
                                                            : "sampled estimate");
        fputs("  labelloc=t;\n  node [shape=box, fontname=\"monospace\", fontsize=10];\n"
              "  entry [shape=oval];\n  exit [shape=oval];\n", f);
        for (int b = 0; b < p.block_count; b++) {
            const gmt_edges_block *bk = &p.blocks[b];
            fprintf(f, "  b%d [label=\"B%d", b, b);
            if (bk->function) {
                fputs(" ", f);
                dot_text(f, bk->function, 40);
            }
            if (bk->line_min > 0) {
                if (bk->line_max > bk->line_min)
                    fprintf(f, "\\nlines %d-%d", bk->line_min, bk->line_max);
                else
                    fprintf(f, "\\nline %d", bk->line_min);
                int len;
                const char *t = gmt_source_line(text, bk->line_min, &len);
                if (t) {
                    while (len > 0 && (*t == ' ' || *t == '\t')) {
                        t++;
                        len--;
                    }
                    fprintf(f, "\\n%d: ", bk->line_min);
                    dot_text(f, t, len < 48 ? len : 48);
                }
            }
            fputs("\"];\n", f);
        }
        for (int k = 0; k < p.edge_count; k++) {
            const gmt_edge *x = &p.edges[k];
            uint64_t w = weight(e, x);
            fputs("  ", f);
            dot_node(f, x->from);
            fputs(" -> ", f);
            dot_node(f, x->to);
            fprintf(f, " [label=\"%" PRIu64, w);
            if (e->cfg.exact && e->cfg.period && x->kind != GMT_EDGE_ENTRY)
                fprintf(f, " (est %.0f)", x->estimate);
            fprintf(f, "\", penwidth=%.2f", 1.0 + 4.0 * (double)w / (double)maxw);
            if (x->kind == GMT_EDGE_RECONVERGE)
                fputs(", style=dashed", f);
            else if (x->kind == GMT_EDGE_CALL || x->kind == GMT_EDGE_RETURN)
                fputs(", style=dotted", f);
            fprintf(f, ", tooltip=\"%s\"];\n", gmt_edge_kind_name(x->kind));
        }
        fputs("}\n", f);
    }
}

void gmt_edges_write_report(const gmt_edges *e, FILE *f, int top)
{
    gmt_edges_stats st;
    gmt_edges_get_stats(e, &st);
    fprintf(f, "Edge profile: B=%u (delta %u, counter per %s), C=%d, ring %d: %" PRIu64 " warps, %" PRIu64
               " branches (%" PRIu64 " taken), %" PRIu64 " samples, %" PRIu64
               " branches kept (scale %.1f), %" PRIu64 " rebuilds failed\n",
            e->cfg.period, e->cfg.random_delta,
            e->cfg.counter == GMT_EDGES_COUNT_PER_SM ? "SM" : "warp slot", e->cfg.keep,
            GMT_EDGES_RING, st.warps,
            st.branches, st.taken, st.samples, st.kept, st.scale, st.rebuild_failed);
    double err = gmt_edges_error(e);
    if (err >= 0)
        fprintf(f, "  weighted relative error of the sampled profile: %.2f%%\n", 100.0 * err);
    for (int i = 0; i < gmt_edges_program_count(e); i++) {
        gmt_edges_program p;
        if (gmt_edges_get_program(e, i, &p) != 0)
            continue;
        fprintf(f, "  ctx %u program %u %s: %d blocks, %d edges\n", p.ctx_id, p.program,
                gmt_pcsamp_stage_name(p.stage), p.block_count, p.edge_count);
        /* hottest edges by weight (selection of the top few; edge lists are short) */
        int *idx = malloc((size_t)(p.edge_count ? p.edge_count : 1) * sizeof *idx);
        if (!idx)
            return;
        for (int k = 0; k < p.edge_count; k++)
            idx[k] = k;
        for (int a = 0; a < p.edge_count && (top <= 0 || a < top); a++) {
            int best = a;
            for (int b = a + 1; b < p.edge_count; b++)
                if (weight(e, &p.edges[idx[b]]) > weight(e, &p.edges[idx[best]]))
                    best = b;
            int t = idx[a];
            idx[a] = idx[best];
            idx[best] = t;
            const gmt_edge *x = &p.edges[idx[a]];
            char from[16], to[16];
            snprintf(from, sizeof from, x->from == GMT_EDGES_ENTRY ? "entry" : "B%d", x->from);
            snprintf(to, sizeof to, x->to == GMT_EDGES_EXIT ? "exit" : "B%d", x->to);
            fprintf(f, "    %6s -> %-6s %-11s exact %10" PRIu64 "  estimate %12.1f\n", from, to,
                    gmt_edge_kind_name(x->kind), x->exact, x->estimate);
        }
        free(idx);
    }
}
