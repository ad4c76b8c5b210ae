/* The warps resident in the timing model, named as the observer names them (gmf_flight is the
 * submit `user` of every warp the runner gives the model: gmf_timing.c and gmf_compute.c).
 * Read through the model's public slot query (gm_timing_slot_warp). */
#include "gmf_internal.h"

int gmf_resident_warps(gmf_runner *r, gmf_resident *out, int max)
{
    if (!r || !r->tm || !out || max <= 0)
        return 0;
    gm_timing_config cfg;
    gm_timing_get_config(r->tm, &cfg);
    int n = 0;
    for (int s = 0; s < cfg.sm_count && n < max; s++) {
        for (int k = 0; k < cfg.warp_slots_per_sm && n < max; k++) {
            gm_timing_resident rs;
            if (!gm_timing_slot_warp(r->tm, s, k, &rs) || !rs.user || !rs.warp)
                continue;
            const gmf_flight *f = rs.user;
            bool compute = f->stage == GM_STAGE_COMPUTE;
            out[n++] = (gmf_resident){ .w = rs.warp, .draw = f->draw, .stage = f->stage, .warp = f->warp,
                                       .program = f->program, .sm = s, .slot = k, .finished = rs.finished,
                                       .lane_x = compute ? NULL : f->lane_x, .lane_y = compute ? NULL : f->lane_y,
                                       .fs = f->stage == GM_STAGE_FRAGMENT ? f->fw : NULL };
        }
    }
    return n;
}
