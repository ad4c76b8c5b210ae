/* Which texture a fetch through a unit reads: the unit's binding for the request's target, synced
 * with the state model and made the pipeline unit's image and sampler when complete. Shared by the
 * single-thread sampler callback (gmf_shade.c) and the threaded draws' serial points
 * (gmf_threads.c); a leaf below both. */
#include <stdlib.h>
#include <string.h>
#include "gmf_internal.h"
#include "gmf_ffunc.h"
#include "gmf_threads.h"
#include "gm_pipe_internal.h"
#include "gm_texture_aniso.h"

uint32_t gmf_unit_texture_key(const gmf_draw_ctx *d, unsigned u, int ti)
{
    return sm_texture_key(d->st->unit[u].bound[ti], ti);
}

int gmf_sample_target_index(const gm_sample_request *req)
{
    switch (req->dim) {
    case GM_DIM_1D: return req->arrayed ? SM_TT_1D_ARRAY : SM_TT_1D;
    case GM_DIM_2D:
        if (req->multisampled)
            return req->arrayed ? SM_TT_2D_MULTISAMPLE_ARRAY : SM_TT_2D_MULTISAMPLE;
        return req->arrayed ? SM_TT_2D_ARRAY : SM_TT_2D;
    case GM_DIM_3D: return SM_TT_3D;
    case GM_DIM_CUBE: return req->arrayed ? SM_TT_CUBE_MAP_ARRAY : SM_TT_CUBE_MAP;
    case GM_DIM_RECT: return SM_TT_RECTANGLE;
    case GM_DIM_BUFFER: return SM_TT_BUFFER;
    default: return -1;
    }
}

gmf_texture *gmf_unit_resolve(gmf_draw_ctx *d, unsigned u, int ti, gm_tex_unit *tu,
                              gm_tex_sampler *smp, gmf_texture *synced)
{
    uint32_t name = gmf_unit_texture_key(d, u, ti);
    gmf_texture *t = synced ? synced : gmf_tex_sync(d->r, d->c, name, d->ev);
    if (!t)
        return NULL;
    const struct sm_texture *st = sm_get_texture(d->c, name);
    const struct sm_sampler *ss = d->st->unit[u].sampler
                                      ? sm_get_sampler(d->c, d->st->unit[u].sampler)
                                      : NULL;
    gmf_tex_sampler_from_sm(ss ? &ss->params : &st->params, smp);
    /* llvmpipe's anisotropic filter is modelled for 2D, 2D-array and 3D textures
     * (gm_texture_aniso.c); on other targets say so rather than differ silently. */
    if (gm_tex_aniso_on(smp) && !gm_tex_aniso_target_modelled(t->img.target))
        gmf_note(d->ev, "anisotropic filtering of a texture that is not 2D, a 2D array or 3D "
                 "(GL_TEXTURE_MAX_ANISOTROPY 2 or more; not modelled there)");
    /* Texture-only state stays with the texture even with a sampler object. */
    if (gmf_tex_complete(t, smp)) {
        tu->image = &t->img;
        tu->sampler = smp;
    }
    return t;
}
