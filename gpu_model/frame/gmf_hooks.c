/* Telemetry hooks of the frame runner: the timing model's cycle and memory observers are
 * handed to the profiler directly, issued instructions go through the runner's issue
 * observer (gmf_timing.c) so the debugger's frame observer and a profiler can watch one run,
 * and the pipeline's statistics are turned into per-unit work deltas after each warp and
 * draw, attributed to the SM whose warp produced them. */
#include <string.h>

#include "gmf_internal.h"

void gmf_set_hooks(gmf_runner *r, const gmf_hooks *h)
{
    if (h)
        r->hooks = *h;
    else
        memset(&r->hooks, 0, sizeof r->hooks);
    r->has_hooks = h != NULL && r->tm != NULL;
    if (!r->tm)
        return;
    gm_timing_set_cycle_observer(r->tm, r->has_hooks ? r->hooks.cycle : NULL, r->hooks.ctx);
    gm_timing_set_mem_observer(r->tm, r->has_hooks ? r->hooks.mem : NULL, r->hooks.ctx);
}

gm_timing *gmf_timing_model(gmf_runner *r)
{
    return r->tm;
}

void gmf_hooks_draw_begin(gmf_runner *r, const gmf_event *ev)
{
    if (r->has_hooks && r->hooks.draw_begin)
        r->hooks.draw_begin(r->hooks.ctx, ev, gm_timing_cycle(r->tm));
}

void gmf_hooks_draw_end(gmf_runner *r, const gmf_event *ev)
{
    if (r->has_hooks && r->hooks.draw_end)
        r->hooks.draw_end(r->hooks.ctx, ev, gm_timing_cycle(r->tm));
}

void gmf_hooks_units_reset(gmf_runner *r)
{
    memset(&r->units_sent, 0, sizeof r->units_sent);
}

void gmf_hooks_units(gmf_runner *r, uint32_t ctx_id)
{
    if (!r->has_hooks || !r->hooks.units)
        return;
    const gm_pipe_stats *now = &r->pipe.stats;
    gm_pipe_stats *was = &r->units_sent;
    gmf_unit_counts c = {
        .primitives_in = now->primitives_in - was->primitives_in,
        .primitives_culled = now->primitives_culled - was->primitives_culled,
        .primitives_clipped = now->primitives_clipped - was->primitives_clipped,
        .fragments_shaded = now->fs_lanes_live - was->fs_lanes_live,
        .helper_lanes = now->fs_lanes_helper - was->fs_lanes_helper,
        .quads_killed = now->quads_killed - was->quads_killed,
        .depth_pass = now->depth_pass - was->depth_pass,
        .depth_fail = now->depth_fail - was->depth_fail,
        .stencil_pass = now->stencil_pass - was->stencil_pass,
        .stencil_fail = now->stencil_fail - was->stencil_fail,
        .blend_ops = now->blend_ops - was->blend_ops,
    };
    *was = *now;
    static const gmf_unit_counts zero;
    if (!memcmp(&c, &zero, sizeof c))
        return;
    r->hooks.units(r->hooks.ctx, gm_timing_cycle(r->tm), r->last_sm, ctx_id, &c);
}
