/* Draws that may be left out (gmf_set_skip_draws): the pixel history runs in the model only the
 * draws that can reach its pixel and takes the images earlier passes leave in framebuffer objects
 * from the driver (debugger/pixel/pixel_feed.c). A draw is left out only when leaving it out
 * changes nothing but the images of its framebuffer: no stage stores to memory (storage blocks,
 * images, atomic counters), no transform feedback and no query counts it. */
#include "gmf_internal.h"

void gmf_set_skip_draws(gmf_runner *r, bool on)
{
    r->skip_draws = on;
}

static bool stage_stores(const gm_program *p)
{
    if (!p)
        return false;
    for (int b = 0; b < gm_program_block_count(p); b++) {
        const gm_block_info *bi = gm_program_block(p, b);
        if (bi->is_storage || bi->is_atomic_counter)
            return true;
    }
    for (int u = 0; u < gm_program_uniform_count(p); u++) {
        const gm_uniform_info *ui = gm_program_uniform(p, u);
        gm_type_desc t;
        if (ui->is_opaque && gm_type_get(p, ui->opaque_type, &t) == 0 && t.kind == GM_TYPE_IMAGE)
            return true;
    }
    return false;
}

bool gmf_skip_draw_ok(const gmf_prog *p, const struct sm_context *c)
{
    const struct sm_context_state *st = sm_context_state(c);
    if (p->has_other_stages || p->info.fs_has_side_effects || stage_stores(p->vs) || stage_stores(p->fs) ||
        st->n_active_queries)
        return false;
    const struct sm_transform_feedback *tf = sm_get_transform_feedback(c, st->tfo);
    return !(tf && tf->active);
}
