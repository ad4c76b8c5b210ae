/* Names of the counters and triggers (the JSON keys and CLI spellings). */
#include <string.h>

#include "gmt_counters.h"

static const char *const counter_names[GMT_COUNTER_COUNT] = {
    [GMT_C_SM_ACTIVE_CYCLES] = "sm_active_cycles",
    [GMT_C_WARPS_RESIDENT] = "warps_resident",
    [GMT_C_STALL_SELECTED] = "stall_selected",
    [GMT_C_STALL_NOT_SELECTED] = "stall_not_selected",
    [GMT_C_STALL_EXEC_DEPENDENCY] = "stall_exec_dependency",
    [GMT_C_STALL_SHORT_SCOREBOARD] = "stall_short_scoreboard",
    [GMT_C_STALL_LONG_SCOREBOARD] = "stall_long_scoreboard",
    [GMT_C_STALL_BARRIER] = "stall_barrier",
    [GMT_C_STALL_BRANCH_RESOLVING] = "stall_branch_resolving",
    [GMT_C_STALL_NO_INSTRUCTION] = "stall_no_instruction",
    [GMT_C_STALL_TEX_THROTTLE] = "stall_tex_throttle",
    [GMT_C_STALL_DRAINED] = "stall_drained",
    [GMT_C_INST_ISSUED] = "inst_issued",
    [GMT_C_ACTIVE_LANES] = "active_lanes",
    [GMT_C_TEX_REQUESTS] = "tex_requests",
    [GMT_C_TEX_HITS] = "tex_hits",
    [GMT_C_TEX_MISSES] = "tex_misses",
    [GMT_C_MEM_REQUESTS] = "mem_requests",
    [GMT_C_PRIMITIVES_IN] = "primitives_in",
    [GMT_C_PRIMITIVES_CULLED] = "primitives_culled",
    [GMT_C_PRIMITIVES_CLIPPED] = "primitives_clipped",
    [GMT_C_FRAGMENTS_SHADED] = "fragments_shaded",
    [GMT_C_HELPER_LANES] = "helper_lanes",
    [GMT_C_QUADS_KILLED] = "quads_killed",
    [GMT_C_DEPTH_PASS] = "depth_pass",
    [GMT_C_DEPTH_FAIL] = "depth_fail",
    [GMT_C_STENCIL_PASS] = "stencil_pass",
    [GMT_C_STENCIL_FAIL] = "stencil_fail",
    [GMT_C_BLEND_OPS] = "blend_ops",
};

/* The stall counters follow gm_stall's order: a new reason must get a counter too. */
_Static_assert(GMT_C_STALL_DRAINED - GMT_C_STALL_SELECTED + 1 == GM_STALL_COUNT,
               "one stall counter per gm_stall");
_Static_assert(GMT_COUNTER_COUNT <= 64, "the mask is one uint64_t");

const char *gmt_counter_name(gmt_counter_id id)
{
    return (unsigned)id < GMT_COUNTER_COUNT ? counter_names[id] : "?";
}

int gmt_counter_find(const char *name)
{
    for (int i = 0; name && i < GMT_COUNTER_COUNT; i++)
        if (!strcmp(counter_names[i], name))
            return i;
    return -1;
}

const char *gmt_counter_group(gmt_counter_id id)
{
    return id >= GMT_C_FIRST_UNIT ? "unit" : "sm";
}

gmt_counter_id gmt_counter_of_stall(gm_stall s)
{
    return (gmt_counter_id)(GMT_C_STALL_SELECTED + (int)s);
}

const char *gmt_trigger_name(gmt_trigger t)
{
    static const char *const names[GMT_TRIGGER_COUNT] = {
        "interval", "draw_end", "context_switch", "overflow", "finish",
    };
    return (unsigned)t < GMT_TRIGGER_COUNT ? names[t] : "?";
}
