/* Whether a draw's texture fetches give the same results and notes whenever they run
 * (gmf_tex_ahead.c): the timing model may then run them ahead of their issue, and the
 * threaded draws' rules share its checks. */
#ifndef GMF_TEX_AHEAD_H
#define GMF_TEX_AHEAD_H

#include "gmf_internal.h"

/* No writes outside the warp's registers (storage, atomics, images), no barriers or shared
 * memory, no clock; `no_tex`: nor texture fetches. NULL counts as free. */
bool gmf_program_side_effect_free(const gm_program *p, bool no_tex);

/* Does a level of the texture hold one of the current render targets (a feedback loop)? */
bool gmf_tex_is_render_target(const gmf_runner *r, const gmf_texture *tex);

/* For the timing model (gmf_timing.c, at each vertex/fragment submission): may this draw's
 * warps run their texture instructions ahead of their issue? */
bool gmf_tex_ahead_ok(gmf_draw_ctx *d);

/* The bindings (unit, target index) the draw's programs can reach, as the check above
 * enumerates them (a TEX takes its unit from a sampler uniform, fixed for the draw); the
 * count, at most GMF_TEX_BINDINGS_MAX. */
#define GMF_TEX_BINDINGS_MAX (64 * SM_TT_COUNT)
int gmf_tex_ahead_bindings(const gmf_draw_ctx *d, unsigned *u_out, int *ti_out);
/* The binding has no texture in the state model, or its texture is synced in the current
 * epoch: resolving it again (gmf_unit_resolve) only rewrites the values it holds. */
bool gmf_tex_binding_synced(gmf_draw_ctx *d, unsigned u, int ti);

#endif
