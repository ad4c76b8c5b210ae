/* The warps resident in the timing model, named as the observer names them (gmf_flight is the
 * submit `user` of every warp the runner gives the model: gmf_timing.c and gmf_compute.c). */
#include "gmf_internal.h"
#include "gpu_model/timing/gm_timing_internal.h"

int gmf_resident_warps(gmf_runner *r, gmf_resident *out, int max)
{
    if (!r || !r->tm || !out || max <= 0)
        return 0;
    const gm_timing *t = r->tm;
    int n = 0;
    for (int s = 0; s < t->cfg.sm_count && n < max; s++) {
        const tm_sm *sm = &t->sms[s];
        for (int k = 0; k < t->cfg.warp_slots_per_sm && n < max; k++) {
            const tm_warp *tw = sm->slots[k].w;
            const gmf_flight *f = tw ? tw->user : NULL;
            if (!f || !tw->w)
                continue;
            bool compute = f->stage == GM_STAGE_COMPUTE;
            out[n++] = (gmf_resident){ .w = tw->w, .draw = f->draw, .stage = f->stage, .warp = f->warp,
                                       .program = f->program, .sm = s, .slot = k, .finished = tw->finished,
                                       .lane_x = compute ? NULL : f->lane_x, .lane_y = compute ? NULL : f->lane_y };
        }
    }
    return n;
}
