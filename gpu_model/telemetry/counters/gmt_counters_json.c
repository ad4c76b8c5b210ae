/* JSON of the counters (schema in gmt_counters.h). */
#include "gmt_counters_internal.h"

static bool masked(const gmt_counters *c, int id)
{
    return !((c->enabled >> id) & 1);
}

static cJSON *block_json(const gmt_counters_block *b, bool with_ctx)
{
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    if (with_ctx)
        cJSON_AddNumberToObject(o, "ctx_id", (double)b->ctx_id);
    cJSON_AddNumberToObject(o, "records", (double)b->records);
    cJSON *v = cJSON_AddObjectToObject(o, "values");
    for (int id = 0; v && id < GMT_N; id++)
        cJSON_AddNumberToObject(v, gmt_counter_name((gmt_counter_id)id), (double)b->values[id]);
    return o;
}

static void add_series(const gmt_counters *c, cJSON *root)
{
    cJSON *s = cJSON_AddObjectToObject(root, "series");
    if (!s)
        return;
    cJSON *cols = cJSON_AddArrayToObject(s, "columns");
    cJSON_AddItemToArray(cols, cJSON_CreateString("cycle"));
    cJSON_AddItemToArray(cols, cJSON_CreateString("ctx_id"));
    cJSON_AddItemToArray(cols, cJSON_CreateString("trigger"));
    for (int id = 0; id < GMT_N; id++)
        if (!masked(c, id))
            cJSON_AddItemToArray(cols, cJSON_CreateString(gmt_counter_name((gmt_counter_id)id)));
    cJSON *rows = cJSON_AddArrayToObject(s, "samples");
    gmt_counters_sample smp;
    for (size_t i = 0; rows && gmt_counters_series_get(c, i, &smp) == 0; i++) {
        cJSON *row = cJSON_CreateArray();
        if (!row)
            return;
        cJSON_AddItemToArray(row, cJSON_CreateNumber((double)smp.cycle));
        cJSON_AddItemToArray(row, cJSON_CreateNumber((double)smp.ctx_id));
        cJSON_AddItemToArray(row, cJSON_CreateString(gmt_trigger_name(smp.trigger)));
        for (int id = 0; id < GMT_N; id++)
            if (!masked(c, id))
                cJSON_AddItemToArray(row, cJSON_CreateNumber((double)smp.delta[id]));
        cJSON_AddItemToArray(rows, row);
    }
}

cJSON *gmt_counters_to_json(const gmt_counters *c)
{
    cJSON *root = cJSON_CreateObject();
    if (!root)
        return NULL;
    cJSON *cfg = cJSON_AddObjectToObject(root, "config");
    cJSON_AddNumberToObject(cfg, "serialize_interval", c->cfg.serialize_interval);
    cJSON_AddNumberToObject(cfg, "trigger_interval", c->cfg.trigger_interval);
    cJSON_AddBoolToObject(cfg, "trigger_at_draw_end", c->cfg.trigger_at_draw_end);
    cJSON_AddNumberToObject(cfg, "narrow_bits", GMT_NARROW_BITS);
    cJSON_AddNumberToObject(cfg, "bank_bits", GMT_BANK_BITS);
    cJSON_AddNumberToObject(cfg, "record_counters", GMT_RECORD_COUNTERS);
    cJSON_AddNumberToObject(cfg, "sm_count", c->n_sm);
    cJSON *m = cJSON_AddArrayToObject(cfg, "masked");
    cJSON *list = cJSON_AddArrayToObject(root, "counters");
    for (int id = 0; id < GMT_N; id++) {
        const char *name = gmt_counter_name((gmt_counter_id)id);
        if (masked(c, id))
            cJSON_AddItemToArray(m, cJSON_CreateString(name));
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "id", id);
        cJSON_AddStringToObject(o, "name", name);
        cJSON_AddStringToObject(o, "group", gmt_counter_group((gmt_counter_id)id));
        cJSON_AddBoolToObject(o, "masked", masked(c, id));
        cJSON_AddItemToArray(list, o);
    }
    cJSON_AddItemToObject(root, "global", block_json(&c->global, false));
    cJSON *ctxs = cJSON_AddArrayToObject(root, "contexts");
    for (int i = 0; i < c->n_blocks; i++)
        cJSON_AddItemToArray(ctxs, block_json(&c->blocks[i], true));
    if (c->cfg.series)
        add_series(c, root);
    gmt_counters_stats st;
    gmt_counters_get_stats(c, &st);
    cJSON *so = cJSON_AddObjectToObject(root, "stats");
    cJSON_AddNumberToObject(so, "cycles", (double)st.cycles);
    cJSON_AddNumberToObject(so, "serializations", (double)st.serializations);
    cJSON_AddNumberToObject(so, "overflow_serializations", (double)st.overflow_serializations);
    cJSON_AddNumberToObject(so, "swaps", (double)st.swaps);
    cJSON *bt = cJSON_AddObjectToObject(so, "swaps_by_trigger");
    for (int t = 0; t < GMT_TRIGGER_COUNT; t++)
        cJSON_AddNumberToObject(bt, gmt_trigger_name((gmt_trigger)t), (double)st.swaps_by_trigger[t]);
    cJSON_AddNumberToObject(so, "records", (double)st.records);
    cJSON_AddNumberToObject(so, "context_switches", (double)st.context_switches);
    return root;
}
