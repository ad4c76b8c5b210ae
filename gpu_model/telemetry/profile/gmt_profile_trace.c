/* Chrome Trace Event JSON of a profile run (the format ui.perfetto.dev and chrome://tracing open):
 * one process "GPU model", a track (thread) per GL context with a complete event ("X") per draw and
 * clear and an instant at each swap, counter tracks ("C") of the activity series (one value per
 * bucket of cycles), and whatever the methods add (PC-sample instants, counter series).
 * Timestamps are microseconds of a nominal clock (stated in "metadata"): the model counts cycles,
 * it has no real clock. */
#include <stdio.h>
#include <stdlib.h>

#include "gmt_profile_internal.h"

#define PID 1

static cJSON *meta_event(const char *what, int tid, const char *name)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "ph", "M");
    cJSON_AddStringToObject(e, "name", what);
    cJSON_AddNumberToObject(e, "pid", PID);
    cJSON_AddNumberToObject(e, "tid", tid);
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    cJSON_AddStringToObject(a, "name", name);
    return e;
}

static void add_slice(const gmt_profile *p, cJSON *events, const gmt_profile_slice *s)
{
    char name[96];
    const char *kind = s->clear ? "clear" : s->dispatch ? "dispatch" : "draw";
    if (s->clear)
        snprintf(name, sizeof name, "clear %llu", (unsigned long long)s->index);
    else
        snprintf(name, sizeof name, "%s %llu (program %u)", kind, (unsigned long long)s->index,
                 s->program);
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "cat", kind);
    cJSON_AddStringToObject(e, "ph", "X");
    cJSON_AddNumberToObject(e, "pid", PID);
    cJSON_AddNumberToObject(e, "tid", s->ctx_id);
    cJSON_AddNumberToObject(e, "ts", gmt_profile_us(p, s->start_cycle));
    cJSON_AddNumberToObject(e, "dur", gmt_profile_us(p, s->end_cycle - s->start_cycle));
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    cJSON_AddNumberToObject(a, kind, (double)s->index);
    cJSON_AddNumberToObject(a, "record", (double)s->record);
    cJSON_AddNumberToObject(a, "context", s->ctx_id);
    if (!s->clear)
        cJSON_AddNumberToObject(a, "program", s->program);
    cJSON_AddNumberToObject(a, "fbo", s->fbo);
    cJSON_AddNumberToObject(a, "start_cycle", (double)s->start_cycle);
    cJSON_AddNumberToObject(a, "end_cycle", (double)s->end_cycle);
    if (!s->clear) {
        cJSON_AddNumberToObject(a, "cycles", (double)s->stats.cycles);
        cJSON_AddNumberToObject(a, "vs_cycles", (double)s->stats.vs_cycles);
        cJSON_AddNumberToObject(a, "fs_cycles", (double)s->stats.fs_cycles);
        cJSON_AddNumberToObject(a, "instructions", (double)s->stats.instructions);
        cJSON_AddNumberToObject(a, "vs_invocations", (double)s->stats.vs_invocations);
        cJSON_AddNumberToObject(a, "primitives", (double)s->stats.primitives);
        cJSON_AddNumberToObject(a, "fs_lanes", (double)s->stats.fs_lanes);
        cJSON_AddNumberToObject(a, "fragments_passed", (double)s->stats.fragments_passed);
    }
    if (s->failed)
        cJSON_AddBoolToObject(a, "failed", true);
    if (s->n_unsupported)
        cJSON_AddNumberToObject(a, "unsupported_features", s->n_unsupported);
    cJSON_AddItemToArray(events, e);
}

static void add_counter(cJSON *events, const char *name, double ts, double value)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "ph", "C");
    cJSON_AddNumberToObject(e, "pid", PID);
    cJSON_AddNumberToObject(e, "ts", ts);
    cJSON *a = cJSON_AddObjectToObject(e, "args");
    cJSON_AddNumberToObject(a, "value", value);
    cJSON_AddItemToArray(events, e);
}

cJSON *gmt_profile_chrome_trace(const gmt_profile *p)
{
    cJSON *root = cJSON_CreateObject();
    cJSON *events = cJSON_AddArrayToObject(root, "traceEvents");
    cJSON_AddStringToObject(root, "displayTimeUnit", "ns");
    cJSON_AddItemToArray(events, meta_event("process_name", 0, "GPU model (cycles at a nominal clock)"));
    /* One track per context, in order of first appearance. */
    uint32_t seen[64];
    int n_seen = 0;
    for (size_t i = 0; i < p->n_slices; i++) {
        bool known = false;
        for (int k = 0; k < n_seen; k++)
            known |= seen[k] == p->slices[i].ctx_id;
        if (known || n_seen == 64)
            continue;
        seen[n_seen++] = p->slices[i].ctx_id;
        char name[48];
        snprintf(name, sizeof name, "GL context %u", p->slices[i].ctx_id);
        cJSON_AddItemToArray(events, meta_event("thread_name", (int)p->slices[i].ctx_id, name));
    }
    for (size_t i = 0; i < p->n_slices; i++)
        add_slice(p, events, &p->slices[i]);
    for (size_t i = 0; i < p->n_swaps; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", "swap (frame end)");
        cJSON_AddStringToObject(e, "cat", "frame");
        cJSON_AddStringToObject(e, "ph", "i");
        cJSON_AddStringToObject(e, "s", "t");
        cJSON_AddNumberToObject(e, "pid", PID);
        cJSON_AddNumberToObject(e, "tid", p->swaps[i].ctx_id);
        cJSON_AddNumberToObject(e, "ts", gmt_profile_us(p, p->swaps[i].cycle));
        cJSON *a = cJSON_AddObjectToObject(e, "args");
        cJSON_AddNumberToObject(a, "record", (double)p->swaps[i].record);
        cJSON_AddItemToArray(events, e);
    }
    /* Activity counters: the value of a bucket is drawn from its start to the next bucket. */
    const struct gmt_activity *a = &p->act;
    for (int s = 0; s < GMT_ACT_COUNT; s++) {
        char name[80];
        snprintf(name, sizeof name, "%s per %llu cycles", gmt_act_names[s], (unsigned long long)a->width);
        for (size_t b = 0; b < a->n; b++)
            add_counter(events, name, gmt_profile_us(p, b * a->width), (double)a->v[s][b]);
        if (a->n)
            add_counter(events, name, gmt_profile_us(p, a->n * a->width), 0);
    }
    for (int i = 0; i < gmt_methods_series_count(p); i++) {
        const char *name;
        size_t n;
        const uint64_t *cyc;
        const double *val;
        bool main;
        if (gmt_methods_series(p, i, &name, &n, &cyc, &val, &main) != 0)
            continue;
        for (size_t k = 0; k < n; k++)
            add_counter(events, name, gmt_profile_us(p, cyc[k]), val[k]);
    }
    gmt_methods_trace(p, events);
    cJSON *m = cJSON_AddObjectToObject(root, "metadata");
    cJSON_AddStringToObject(m, "source", "glreplay profile (GPU model telemetry)");
    cJSON_AddStringToObject(m, "capture", p->name);
    char clock[160];
    snprintf(clock, sizeof clock, "model cycles at a nominal %.3g GHz: 1 us = %.0f cycles", p->clock_ghz,
             p->clock_ghz * 1000.0);
    cJSON_AddStringToObject(m, "clock", clock);
    cJSON_AddNumberToObject(m, "clock_ghz", p->clock_ghz);
    cJSON_AddNumberToObject(m, "end_cycle", (double)p->end_cycle);
    cJSON_AddNumberToObject(m, "activity_bucket_cycles", (double)a->width);
    return root;
}
