/* Signals: the frame runner's telemetry hooks drive the narrow counters. Each hook first moves
 * time to its cycle (serializations and interval swaps due before it happen first), then adds
 * the signal's value for that cycle to the narrow counter of its SM. */
#include "gmt_counters_internal.h"

static int sm_index(const gmt_counters *c, int sm)
{
    /* The units hook names the SM of the last issued instruction (-1 before any): charge
     * fixed-function work without one to SM 0 rather than drop it. */
    return sm >= 0 && sm < c->n_sm ? sm : 0;
}

static void on_draw_begin(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    gmt_counters *c = ctx;
    gmt_advance(c, cycle);
    gmt_switch_context(c, ev->ctx_id);
}

static void on_draw_end(void *ctx, const gmf_event *ev, uint64_t cycle)
{
    gmt_counters *c = ctx;
    (void)ev;
    gmt_advance(c, cycle);
    if (c->cfg.trigger_at_draw_end)
        gmt_flush(c, GMT_TRIGGER_DRAW_END);
}

static void on_issue(void *ctx, const gm_timing_issue *ev)
{
    gmt_counters *c = ctx;
    gmt_advance(c, ev->cycle);
    int sm = sm_index(c, ev->sm);
    gmt_add(c, sm, GMT_C_INST_ISSUED, 1);
    gmt_add(c, sm, GMT_C_ACTIVE_LANES, (uint64_t)__builtin_popcountll((unsigned long long)ev->active));
}

static void on_cycle_checked(gmt_counters *c, int sm, const gm_timing_slot_sample *slots,
                             int slot_count)
{
    uint64_t resident = 0;
    for (int s = 0; s < slot_count; s++)
        if (slots[s].resident) {
            resident++;
            if ((unsigned)slots[s].state < GM_STALL_COUNT)
                gmt_add(c, sm, GMT_C_STALL_SELECTED + (int)slots[s].state, 1);
        }
    if (resident) {
        gmt_add(c, sm, GMT_C_SM_ACTIVE_CYCLES, 1);
        gmt_add(c, sm, GMT_C_WARPS_RESIDENT, resident);
    }
}

/* Per cycle per SM: how many slots hold a warp, and in which state each is. This runs for
 * every SM every cycle (the hottest hook), so it adds straight into the narrow counters: the
 * SM's cycle_bound (see gmt_counters_internal.h) proves none of them can wrap on this call,
 * or the SM is serialized early first; masking multiplies by en[] (0 or 1). */
static void on_cycle(void *ctx, uint64_t cycle, int sm, const gm_timing_slot_sample *slots,
                     int slot_count)
{
    gmt_counters *c = ctx;
    gmt_advance(c, cycle);
    sm = sm_index(c, sm);
    if (slot_count > 1024) {
        /* Far more slots than the timing model allows (64): count through checked adds. */
        on_cycle_checked(c, sm, slots, slot_count);
        return;
    }
    if (c->cycle_bound[sm] + (uint32_t)slot_count > GMT_NARROW_MAX)
        gmt_serialize_sm(c, sm, true);
    uint16_t *n = c->narrow + (size_t)sm * GMT_N;
    const uint16_t *en = c->en;
    uint32_t resident = 0;
    for (int s = 0; s < slot_count; s++) {
        if (!slots[s].resident)
            continue;
        resident++;
        unsigned st = (unsigned)slots[s].state;
        if (st < GM_STALL_COUNT) {
            unsigned id = GMT_C_STALL_SELECTED + st;
            n[id] = (uint16_t)(n[id] + en[id]);
        }
    }
    if (!resident)
        return;
    n[GMT_C_SM_ACTIVE_CYCLES] = (uint16_t)(n[GMT_C_SM_ACTIVE_CYCLES] + en[GMT_C_SM_ACTIVE_CYCLES]);
    n[GMT_C_WARPS_RESIDENT] = (uint16_t)(n[GMT_C_WARPS_RESIDENT] + resident * en[GMT_C_WARPS_RESIDENT]);
    c->cycle_bound[sm] += resident;
}

static void on_mem(void *ctx, const gm_timing_mem_event *ev)
{
    gmt_counters *c = ctx;
    gmt_advance(c, ev->cycle);
    int sm = sm_index(c, ev->sm);
    if (ev->is_texture) {
        gmt_add(c, sm, GMT_C_TEX_REQUESTS, 1);
        gmt_add(c, sm, GMT_C_TEX_HITS, ev->hits > 0 ? (uint64_t)ev->hits : 0);
        gmt_add(c, sm, GMT_C_TEX_MISSES, ev->misses > 0 ? (uint64_t)ev->misses : 0);
    } else {
        gmt_add(c, sm, GMT_C_MEM_REQUESTS, 1);
    }
}

/* Fixed-function work arrives as deltas since the previous delivery; the whole delta is the
 * signal's value at this cycle (values above 16 bits go through the narrow counter in steps). */
static void on_units(void *ctx, uint64_t cycle, int sm, uint32_t ctx_id, const gmf_unit_counts *u)
{
    gmt_counters *c = ctx;
    gmt_advance(c, cycle);
    gmt_switch_context(c, ctx_id);
    sm = sm_index(c, sm);
    gmt_add(c, sm, GMT_C_PRIMITIVES_IN, u->primitives_in);
    gmt_add(c, sm, GMT_C_PRIMITIVES_CULLED, u->primitives_culled);
    gmt_add(c, sm, GMT_C_PRIMITIVES_CLIPPED, u->primitives_clipped);
    gmt_add(c, sm, GMT_C_FRAGMENTS_SHADED, u->fragments_shaded);
    gmt_add(c, sm, GMT_C_HELPER_LANES, u->helper_lanes);
    gmt_add(c, sm, GMT_C_QUADS_KILLED, u->quads_killed);
    gmt_add(c, sm, GMT_C_DEPTH_PASS, u->depth_pass);
    gmt_add(c, sm, GMT_C_DEPTH_FAIL, u->depth_fail);
    gmt_add(c, sm, GMT_C_STENCIL_PASS, u->stencil_pass);
    gmt_add(c, sm, GMT_C_STENCIL_FAIL, u->stencil_fail);
    gmt_add(c, sm, GMT_C_BLEND_OPS, u->blend_ops);
}

void gmt_counters_hooks(gmt_counters *c, gmf_hooks *out)
{
    out->ctx = c;
    out->draw_begin = on_draw_begin;
    out->draw_end = on_draw_end;
    out->issue = on_issue;
    out->cycle = on_cycle;
    out->mem = on_mem;
    out->units = on_units;
}
