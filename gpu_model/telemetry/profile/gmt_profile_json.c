/* Everything a profile run found, as one JSON document (the DAP server's glreplay/profile answer
 * and `glreplay profile --json`): options, totals, draws and clears with their cycles, swaps,
 * source lines (instructions, PC samples per scheduler state), the activity series, and each
 * method's own JSON under its name. */
#include "gmt_profile_internal.h"

#define MAX_LINES 2000

static cJSON *options_json(const gmt_profile_options *o)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "counters", o->counters);
    if (o->counter_mask)
        cJSON_AddNumberToObject(j, "counter_mask", (double)o->counter_mask);
    cJSON_AddNumberToObject(j, "pc_sampling", o->pc_period);
    if (o->pc_period) {
        cJSON_AddStringToObject(j, "pc_mode", o->pc_all_warps ? "all" : "round-robin");
        cJSON_AddNumberToObject(j, "pc_seed", (double)o->pc_seed);
    }
    cJSON_AddNumberToObject(j, "edges", o->edge_period);
    if (o->edge_period)
        cJSON_AddBoolToObject(j, "edges_exact", o->edge_exact);
    cJSON_AddStringToObject(j, "trace_buffers", o->trace_types);
    cJSON_AddNumberToObject(j, "clock_ghz", o->clock_ghz);
    return j;
}

cJSON *gmt_profile_to_json(const gmt_profile *p)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "capture", p->name);
    cJSON_AddItemToObject(root, "options", options_json(&p->opt));
    cJSON_AddNumberToObject(root, "end_cycle", (double)p->end_cycle);
    cJSON_AddNumberToObject(root, "clock_ghz", p->clock_ghz);
    cJSON *methods = cJSON_AddArrayToObject(root, "methods");
    static const char *const names[] = { "counters", "pcsamp", "edges", "tracebuf" };
    for (int i = 0; i < 4; i++)
        if (gmt_profile_has(p, names[i]))
            cJSON_AddItemToArray(methods, cJSON_CreateString(names[i]));
    cJSON *notes = cJSON_AddArrayToObject(root, "notes");
    for (int i = 0; i < p->n_notes; i++)
        cJSON_AddItemToArray(notes, cJSON_CreateString(p->notes[i]));

    cJSON *t = cJSON_AddObjectToObject(root, "totals");
    cJSON_AddNumberToObject(t, "draws", (double)p->totals.draws);
    cJSON_AddNumberToObject(t, "clears", (double)p->totals.clears);
    cJSON_AddNumberToObject(t, "swaps", (double)p->totals.swaps);
    cJSON_AddNumberToObject(t, "dispatches", (double)p->totals.dispatches);
    cJSON_AddNumberToObject(t, "draws_failed", (double)p->totals.draws_failed);
    cJSON_AddNumberToObject(t, "draws_with_unsupported", (double)p->totals.draws_with_unsupported);
    cJSON_AddNumberToObject(t, "cycles", (double)p->totals.cycles);
    cJSON_AddNumberToObject(t, "vs_invocations", (double)p->totals.vs_invocations);
    cJSON_AddNumberToObject(t, "fs_lanes", (double)p->totals.fs_lanes);

    cJSON *sl = cJSON_AddArrayToObject(root, "slices");
    for (size_t i = 0; i < p->n_slices; i++) {
        const gmt_profile_slice *s = &p->slices[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "kind", s->clear ? "clear" : s->dispatch ? "dispatch" : "draw");
        cJSON_AddNumberToObject(o, "index", (double)s->index);
        cJSON_AddNumberToObject(o, "record", (double)s->record);
        cJSON_AddNumberToObject(o, "ctx", s->ctx_id);
        cJSON_AddNumberToObject(o, "program", s->program);
        cJSON_AddNumberToObject(o, "fbo", s->fbo);
        cJSON_AddNumberToObject(o, "start_cycle", (double)s->start_cycle);
        cJSON_AddNumberToObject(o, "end_cycle", (double)s->end_cycle);
        cJSON_AddNumberToObject(o, "cycles", (double)s->stats.cycles);
        cJSON_AddNumberToObject(o, "vs_cycles", (double)s->stats.vs_cycles);
        cJSON_AddNumberToObject(o, "fs_cycles", (double)s->stats.fs_cycles);
        cJSON_AddNumberToObject(o, "instructions", (double)s->stats.instructions);
        cJSON_AddNumberToObject(o, "fs_lanes", (double)s->stats.fs_lanes);
        cJSON_AddBoolToObject(o, "failed", s->failed);
        cJSON_AddItemToArray(sl, o);
    }
    cJSON *sw = cJSON_AddArrayToObject(root, "swaps");
    for (size_t i = 0; i < p->n_swaps; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "ctx", p->swaps[i].ctx_id);
        cJSON_AddNumberToObject(o, "cycle", (double)p->swaps[i].cycle);
        cJSON_AddNumberToObject(o, "record", (double)p->swaps[i].record);
        cJSON_AddItemToArray(sw, o);
    }

    cJSON *ln = cJSON_AddArrayToObject(root, "lines");
    for (size_t i = 0; i < p->lines.n && i < MAX_LINES; i++) {
        const gmt_profile_line *l = &p->sorted[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "ctx", l->ctx_id);
        cJSON_AddNumberToObject(o, "program", l->program);
        cJSON_AddStringToObject(o, "stage", gmt_profile_stage_name(l->stage));
        cJSON_AddNumberToObject(o, "line", l->line);
        cJSON_AddNumberToObject(o, "instructions", (double)l->instructions);
        cJSON_AddNumberToObject(o, "lanes", (double)l->lanes);
        cJSON_AddNumberToObject(o, "samples", (double)l->samples);
        if (l->samples) {
            cJSON *r = cJSON_AddObjectToObject(o, "reasons");
            for (int k = 0; k < GM_STALL_COUNT; k++)
                if (l->reasons[k])
                    cJSON_AddNumberToObject(r, gm_stall_name((gm_stall)k), (double)l->reasons[k]);
        }
        cJSON_AddItemToArray(ln, o);
    }
    if (p->lines.n > MAX_LINES)
        cJSON_AddNumberToObject(root, "lines_left_out", (double)(p->lines.n - MAX_LINES));

    cJSON *series = cJSON_AddObjectToObject(root, "series");
    cJSON_AddNumberToObject(series, "bucket_cycles", (double)p->act.width);
    for (int s = 0; s < GMT_ACT_COUNT; s++) {
        cJSON *arr = cJSON_AddArrayToObject(series, gmt_act_names[s]);
        for (size_t b = 0; b < p->act.n; b++)
            cJSON_AddItemToArray(arr, cJSON_CreateNumber((double)p->act.v[s][b]));
    }
    gmt_methods_json(p, root);
    return root;
}
