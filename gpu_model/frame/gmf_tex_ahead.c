/* When the timing model may run a draw's texture instructions ahead of their issue.
 *
 * The model's run-ahead (gpu_model/timing/gm_timing_ahead.c) executes a TEX before its
 * issue cycle; its cache lookup still happens at the issue. The frame runner's sampler
 * callback (gmf_shade.c, sample()) gives the same texels and notes at any time when:
 *  - nothing writes a texture during the draw: no program of the draw stores to buffers
 *    or images or uses atomics (a buffer texture may alias a storage buffer), and no bound
 *    texture holds a render target of the draw (a feedback loop reads the pixels earlier
 *    warps wrote, which depends on when);
 *  - binding a texture adds no note and loads nothing: every texture the draw's programs
 *    can reach (each unit one of their sampler uniforms names, each target their TEX
 *    instructions use; a TEX takes its unit from such a uniform) is already synced with the
 *    state model in the current epoch, or has no image (its sync adds no note), and none
 *    draws the anisotropic note of gmf_unit_resolve. Otherwise the notes of the sync would
 *    be added when the warp ran ahead instead of at the TEX's issue, possibly in another
 *    order relative to the draw's other notes.
 * The answer is asked at every submission until it is yes (the first warps' fetches, at
 * their issue, sync the textures) and kept for the rest of the draw; a feedback loop or a
 * side effect makes it no for the whole draw. */
#include "gmf_tex_ahead.h"
#include "gmf_threads.h" /* gmf_sample_target_index, gmf_unit_texture_key (gmf_unit_resolve.c) */
#include "gm_ir.h"
#include "gm_pipe_internal.h"
#include "gm_texture_aniso.h"

bool gmf_program_side_effect_free(const gm_program *p, bool no_tex)
{
    if (!p)
        return true;
    if (p->reads_clock)
        return false;
    for (int i = 0; i < p->code_count; i++)
        switch (p->code[i].op) {
        case GM_OP_BUF_STORE: case GM_OP_BUF_ATOMIC: case GM_OP_IMAGE: case GM_OP_BARRIER:
        case GM_OP_SH_LOAD: case GM_OP_SH_STORE: case GM_OP_SH_ATOMIC: case GM_OP_GS_EMIT:
            return false;
        case GM_OP_TEX:
            if (no_tex)
                return false;
            break;
        default:
            break;
        }
    return true;
}

bool gmf_tex_is_render_target(const gmf_runner *r, const gmf_texture *tex)
{
    const gm_pipe_framebuffer *fb = &r->pipe.fb;
    const gm_surface *views[GM_PIPE_MAX_RT + 2];
    int nv = 0;
    for (int i = 0; i < GM_PIPE_MAX_RT; i++)
        views[nv++] = fb->color[i];
    views[nv++] = fb->depth;
    views[nv++] = fb->stencil;
    for (int l = 0; l < GM_TEX_MAX_LEVELS; l++) {
        const gm_surface *s = &tex->img.level[l];
        if (!s->data)
            continue;
        size_t a = s->layer_stride * (size_t)(s->depth > 0 ? s->depth : 1);
        size_t b = s->row_stride * (size_t)(s->height > 0 ? s->height : 1);
        const uint8_t *end = s->data + (a > b ? a : b);
        for (int v = 0; v < nv; v++)
            if (views[v] && views[v]->data >= s->data && views[v]->data < end)
                return true;
    }
    return false;
}

/* The targets (bit per SM_TT_*) the program's texture instructions use. */
static uint32_t targets_used(const gm_program *p)
{
    uint32_t m = 0;
    for (int i = 0; p && i < p->tex_count; i++) {
        const gm_tex_desc *t = &p->tex[i];
        gm_sample_request req = { .dim = t->dim, .arrayed = t->arrayed, .multisampled = t->ms };
        int ti = gmf_sample_target_index(&req);
        if (ti >= 0 && ti < 32)
            m |= 1u << ti;
    }
    return m;
}

/* The units (bit per unit) the program's samplers name: a TEX reads its unit from an
 * opaque uniform, whose value is fixed for the draw. */
static uint64_t units_used(const gm_program *p)
{
    uint64_t m = 0;
    for (int i = 0; p && i < gm_program_uniform_count(p); i++) {
        const gm_uniform_info *ui = gm_program_uniform(p, i);
        const uint32_t *v = ui->is_opaque ? gm_program_uniform_data(p, i) : NULL;
        for (int e = 0; v && e < ui->array_size; e++)
            if (v[e] < 64)
                m |= 1ull << v[e];
    }
    return m;
}

static const gmf_texture *find_synced(const gmf_runner *r, uint32_t share, uint32_t key)
{
    for (int i = 0; i < r->n_tex; i++)
        if (r->tex[i] && r->tex[i]->share == share && r->tex[i]->name == key)
            return r->tex[i];
    return NULL;
}

/* 1: quiet and not a render target; 0: not synced yet; -1: never this draw. */
static int binding_state(gmf_draw_ctx *d, unsigned u, int ti)
{
    uint32_t key = gmf_unit_texture_key(d, u, ti);
    const struct sm_texture *st = sm_get_texture(d->c, key);
    if (!st)
        return 1;   /* nothing to sync: sampling gives zeros, no note */
    const gmf_texture *t = find_synced(d->r, sm_context_share_id(d->c), key);
    if (!t || t->checked_epoch != d->r->tex_epoch) {
        for (int l = 0; l < SM_MAX_LEVELS; l++)
            if (st->image[0][l].defined)
                return 0;   /* its first sync may load images and add notes */
        return 1;
    }
    if (gmf_tex_is_render_target(d->r, t))
        return -1;
    const struct sm_sampler *ss = d->st->unit[u].sampler ? sm_get_sampler(d->c, d->st->unit[u].sampler)
                                                         : NULL;
    gm_tex_sampler smp;
    gmf_tex_sampler_from_sm(ss ? &ss->params : &st->params, &smp);
    if (gm_tex_aniso_on(&smp) && !gm_tex_aniso_target_modelled(t->img.target))
        return -1;   /* gmf_unit_resolve notes it at each resolution */
    return 1;
}

/* The (unit, target index) pairs the draw's programs can reach, into u_out/ti_out (at most
 * GMF_TEX_BINDINGS_MAX); the count. */
int gmf_tex_ahead_bindings(const gmf_draw_ctx *d, unsigned *u_out, int *ti_out)
{
    const gmf_prog *p = d->p;
    uint32_t used = targets_used(p->vs) | targets_used(p->fs);
    uint64_t umask = used ? units_used(p->vs) | units_used(p->fs) : 0;
    int units = GM_TEX_MAX_UNITS < SM_MAX_TEXTURE_UNITS ? GM_TEX_MAX_UNITS : SM_MAX_TEXTURE_UNITS;
    int n = 0;
    for (int u = 0; u < units && u < 64 && umask; u++)
        for (int ti = 0; ti < SM_TT_COUNT && (umask >> u & 1); ti++)
            if (used & (1u << ti)) {
                u_out[n] = (unsigned)u;
                ti_out[n++] = ti;
            }
    return n;
}

bool gmf_tex_binding_synced(gmf_draw_ctx *d, unsigned u, int ti)
{
    uint32_t key = gmf_unit_texture_key(d, u, ti);
    if (!sm_get_texture(d->c, key))
        return true;
    const gmf_texture *t = find_synced(d->r, sm_context_share_id(d->c), key);
    return t && t->checked_epoch == d->r->tex_epoch;
}

bool gmf_tex_ahead_ok(gmf_draw_ctx *d)
{
    if (d->tex_ahead)
        return d->tex_ahead > 0;
    const gmf_prog *p = d->p;
    if (!p->vs || !gmf_program_side_effect_free(p->vs, false) ||
        !gmf_program_side_effect_free(p->fs, false)) {
        d->tex_ahead = -1;
        return false;
    }
    unsigned bu[GMF_TEX_BINDINGS_MAX];
    int bt[GMF_TEX_BINDINGS_MAX];
    int n = gmf_tex_ahead_bindings(d, bu, bt);
    int all = 1;
    for (int i = 0; i < n; i++) {
        int s = binding_state(d, bu[i], bt[i]);
        if (s < 0) {
            d->tex_ahead = -1;
            return false;
        }
        all &= s;
    }
    if (all)
        d->tex_ahead = 1;
    return all != 0;
}
