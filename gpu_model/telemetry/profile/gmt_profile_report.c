/* The terminal report of a profile run: per-draw cycles, the top source lines (issued warp
 * instructions and, with PC sampling, the stall breakdown of their samples), the activity totals
 * and each method's own summary (counters per context and global, ...). */
#include <stdio.h>

#include "gmt_profile_internal.h"

const char *gmt_profile_stage_name(int stage)
{
    switch (stage) {
    case GM_STAGE_VERTEX: return "VS";
    case GM_STAGE_TESS_CONTROL: return "TCS";
    case GM_STAGE_TESS_EVALUATION: return "TES";
    case GM_STAGE_GEOMETRY: return "GS";
    case GM_STAGE_FRAGMENT: return "FS";
    default: return "CS";
    }
}

static void print_reasons(FILE *f, const gmt_profile_line *l)
{
    if (!l->samples)
        return;
    fprintf(f, "  samples %llu:", (unsigned long long)l->samples);
    /* The reasons in decreasing order (at most 4), as percentages of the line's samples. */
    bool used[GM_STALL_COUNT] = { false };
    for (int shown = 0; shown < 4; shown++) {
        int best = -1;
        for (int r = 0; r < GM_STALL_COUNT; r++)
            if (!used[r] && l->reasons[r] && (best < 0 || l->reasons[r] > l->reasons[best]))
                best = r;
        if (best < 0)
            break;
        used[best] = true;
        fprintf(f, " %s %.0f%%", gm_stall_name((gm_stall)best), 100.0 * (double)l->reasons[best] / (double)l->samples);
    }
}

void gmt_profile_report(const gmt_profile *p, FILE *f, int top_lines)
{
    size_t draws = 0, clears = 0, dispatches = 0;
    uint64_t draw_cycles = 0, instr = 0, cs_cycles = 0, cs_instr = 0;
    for (size_t i = 0; i < p->n_slices; i++) {
        if (p->slices[i].clear) {
            clears++;
        } else if (p->slices[i].dispatch) {
            dispatches++;
            cs_cycles += p->slices[i].stats.cycles;
            cs_instr += p->slices[i].stats.instructions;
        } else {
            draws++;
            draw_cycles += p->slices[i].stats.cycles;
            instr += p->slices[i].stats.instructions;
        }
    }
    char cs[48] = "";
    if (dispatches)
        snprintf(cs, sizeof cs, ", %zu dispatches", dispatches);
    fprintf(f, "profile of %s: %zu draws, %zu clears%s, %zu swaps; timeline %llu cycles (%.3f us at a nominal %.3g GHz)\n",
            p->name, draws, clears, cs, p->n_swaps, (unsigned long long)p->end_cycle,
            gmt_profile_us(p, p->end_cycle), p->clock_ghz);
    for (int i = 0; i < p->n_notes; i++)
        fprintf(f, "note: %s\n", p->notes[i]);

    fprintf(f, "\nper draw:\n  %-6s %4s %5s %8s %12s %10s %9s %9s %10s %9s  %5s\n", "draw", "ctx", "prog", "record",
            "start", "cycles", "vs", "fs", "warp-instr", "fragments", "share");
    for (size_t i = 0; i < p->n_slices; i++) {
        const gmt_profile_slice *s = &p->slices[i];
        if (s->clear || s->dispatch)
            continue;
        fprintf(f, "  %-6llu %4u %5u %8llu %12llu %10llu %9llu %9llu %10llu %9llu  %4.1f%%%s\n",
                (unsigned long long)s->index, s->ctx_id, s->program, (unsigned long long)s->record,
                (unsigned long long)s->start_cycle, (unsigned long long)s->stats.cycles,
                (unsigned long long)s->stats.vs_cycles, (unsigned long long)s->stats.fs_cycles,
                (unsigned long long)s->stats.instructions, (unsigned long long)s->stats.fs_lanes,
                draw_cycles ? 100.0 * (double)s->stats.cycles / (double)draw_cycles : 0.0,
                s->failed ? "  (failed)" : s->n_unsupported ? "  (unsupported features)" : "");
    }
    fprintf(f, "  total: %llu cycles in draws, %llu warp instructions\n", (unsigned long long)draw_cycles,
            (unsigned long long)instr);
    if (dispatches) {
        fprintf(f, "\nper compute dispatch:\n  %-8s %4s %5s %8s %12s %10s %10s  %5s\n", "dispatch", "ctx",
                "prog", "record", "start", "cycles", "warp-instr", "share");
        for (size_t i = 0; i < p->n_slices; i++) {
            const gmt_profile_slice *s = &p->slices[i];
            if (!s->dispatch)
                continue;
            fprintf(f, "  %-8llu %4u %5u %8llu %12llu %10llu %10llu  %4.1f%%%s\n", (unsigned long long)s->index,
                    s->ctx_id, s->program, (unsigned long long)s->record, (unsigned long long)s->start_cycle,
                    (unsigned long long)s->stats.cycles, (unsigned long long)s->stats.instructions,
                    cs_cycles ? 100.0 * (double)s->stats.cycles / (double)cs_cycles : 0.0,
                    s->failed ? "  (failed)" : s->n_unsupported ? "  (unsupported features)" : "");
        }
        fprintf(f, "  total: %llu cycles in dispatches, %llu warp instructions\n", (unsigned long long)cs_cycles,
                (unsigned long long)cs_instr);
    }

    bool samples = gmt_profile_has(p, "pcsamp");
    fprintf(f, "\ntop source lines (issued warp instructions%s):\n", samples ? "; PC samples by scheduler state" : "");
    uint64_t total = 0;
    for (size_t i = 0; i < p->lines.n; i++)
        total += p->sorted[i].instructions;
    for (size_t i = 0; i < p->lines.n && (int)i < top_lines; i++) {
        const gmt_profile_line *l = &p->sorted[i];
        fprintf(f, "  ctx %u program %u %s line %-4d %10llu instr (%5.1f%%), %4.1f lanes/instr",
                l->ctx_id, l->program, gmt_profile_stage_name(l->stage), l->line, (unsigned long long)l->instructions,
                total ? 100.0 * (double)l->instructions / (double)total : 0.0,
                l->instructions ? (double)l->lanes / (double)l->instructions : 0.0);
        print_reasons(f, l);
        fputc('\n', f);
    }
    if (!p->lines.n)
        fprintf(f, "  (no shader instruction was issued)\n");

    fprintf(f, "\nactivity over the frame (totals):");
    for (int s = 0; s < GMT_ACT_COUNT; s++) {
        uint64_t t = 0;
        for (size_t b = 0; b < p->act.n; b++)
            t += p->act.v[s][b];
        fprintf(f, "%s %s %llu", s ? "," : "", gmt_act_names[s], (unsigned long long)t);
    }
    fputc('\n', f);
    gmt_methods_report(p, f);
}
