/* Image load/store/atomics of a shader (compute or fragment) against the bound image units: a leaf
 * under the shading and the compute dispatch. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_internal.h"
#include "registry/glr_format_class.h"

static gm_surface *image_surface(gmf_draw_ctx *d, unsigned unit, int *layer0, bool *layered,
                                 bool *array_1d)
{
    if (unit >= SM_MAX_IMAGE_UNITS)
        return NULL;
    const struct sm_image_unit *iu = &d->st->image[unit];
    if (!iu->texture)
        return NULL;
    gmf_texture *t = gmf_tex_sync(d->r, d->c, iu->texture, d->ev);
    if (!t || iu->level < 0 || iu->level >= GM_TEX_MAX_LEVELS || iu->level >= t->img.num_levels)
        return NULL;
    gm_surface *s = &t->img.level[iu->level];
    if (!s->data)
        return NULL;
    t->gpu_written = true;
    /* A single-layer binding's layer (GL ignores it for textures without layers). */
    bool has_layers = s->depth > 1 || t->target == GL_TEXTURE_1D_ARRAY;
    *layer0 = !iu->layered && has_layers ? iu->layer : 0;
    *layered = iu->layered;
    *array_1d = t->target == GL_TEXTURE_1D_ARRAY; /* its layers are the surface's rows */
    return s;
}

void gmf_image_access(void *ctx, const gm_image_request *req, gm_texel_out *out)
{
    gmf_draw_ctx *d = ctx;
    int layer0 = 0;
    bool layered = false, array_1d = false;
    gm_surface *s = image_surface(d, req->unit, &layer0, &layered, &array_1d);
    if (req->op == GM_IMG_SIZE) {
        for (int l = 0; l < GM_LANES; l++) {
            out->i[0][l] = s ? s->width : 0;
            out->i[1][l] = s ? s->height : 0;
            out->i[2][l] = s ? s->depth : 0;
        }
        return;
    }
    if (!s)
        return; /* unbound: loads 0, stores dropped */
    const gm_format_info *fi = gm_format_get(s->format);
    bool integer = fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
    /* Coordinates: x [, y] [, layer / z / cube face]; a layered binding takes the layer from
     * the shader, a single-layer binding from the unit. */
    int dims = req->dim == GM_DIM_1D || req->dim == GM_DIM_BUFFER ? 1
               : req->dim == GM_DIM_3D || req->dim == GM_DIM_CUBE ? 3 : 2;
    int lc = dims == 3 ? 2 : req->arrayed ? dims : -1; /* coordinate holding the layer */
    for (int l = 0; l < GM_LANES; l++) {
        if (!((req->mask >> l) & 1))
            continue;
        int x = req->coord[0][l], y = dims >= 2 ? req->coord[1][l] : 0;
        int layer = lc >= 0 && layered ? req->coord[lc][l] : layer0, z = layer;
        if (array_1d) {
            y = layer;
            z = 0;
        }
        if (x < 0 || y < 0 || z < 0 || x >= s->width || y >= s->height || z >= s->depth)
            continue; /* out of range: loads 0, stores dropped (GL: undefined / no effect) */
        uint8_t *texel = gm_surface_texel(s, x, y, z);
        if (req->op == GM_IMG_LOAD) {
            if (integer) {
                uint32_t v[4] = { 0, 0, 0, 1 };
                gm_format_unpack_rgba_i(s->format, texel, v);
                for (int k = 0; k < 4; k++)
                    out->u[k][l] = v[k];
            } else {
                float v[4] = { 0, 0, 0, 1 };
                gm_format_unpack_rgba(s->format, texel, v);
                for (int k = 0; k < 4; k++)
                    out->f[k][l] = v[k];
            }
        } else if (req->op == GM_IMG_STORE) {
            if (integer) {
                uint32_t v[4];
                for (int k = 0; k < 4; k++)
                    v[k] = req->data.u[k][l];
                gm_format_pack_rgba_i(s->format, v, texel);
            } else {
                float v[4];
                for (int k = 0; k < 4; k++)
                    v[k] = req->data.f[k][l];
                gm_format_pack_rgba(s->format, v, texel);
            }
        } else if (integer && fi->bytes == 4 && fi->channels == 1) {
            /* r32ui / r32i atomics, lanes in order */
            uint32_t old, v = req->data.u[0][l], nv;
            memcpy(&old, texel, 4);
            int32_t so = (int32_t)old, sv = (int32_t)v;
            bool sgn = req->signed_atomic || fi->kind == GM_KIND_SINT;
            switch (req->op) {
            case GM_IMG_ATOMIC_ADD: nv = old + v; break;
            case GM_IMG_ATOMIC_MIN: nv = sgn ? (uint32_t)(sv < so ? sv : so) : (v < old ? v : old); break;
            case GM_IMG_ATOMIC_MAX: nv = sgn ? (uint32_t)(sv > so ? sv : so) : (v > old ? v : old); break;
            case GM_IMG_ATOMIC_AND: nv = old & v; break;
            case GM_IMG_ATOMIC_OR: nv = old | v; break;
            case GM_IMG_ATOMIC_XOR: nv = old ^ v; break;
            case GM_IMG_ATOMIC_EXCHANGE: nv = v; break;
            case GM_IMG_ATOMIC_COMP_SWAP: nv = old == req->data.u[1][l] ? v : old; break;
            default: nv = old; break;
            }
            memcpy(texel, &nv, 4);
            out->u[0][l] = old;
        } else {
            gmf_note(d->ev, "image atomic on a format other than r32ui/r32i");
        }
    }
}
