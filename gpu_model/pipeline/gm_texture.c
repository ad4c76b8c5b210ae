/* gm_texture.c - texture units: addressing (wrap modes, border), nearest/linear
 * filtering, mipmapping with LOD from derivatives (rho = max(|ddx|, |ddy|) in texels,
 * like llvmpipe's exact-rho path), cube face selection, shadow compare, swizzle,
 * texelFetch, textureGather, size/level queries.  Implements gm_sample_fn of
 * gpu_model/gm_sampler_iface.h. */
#include "gm_pipe_internal.h"
#include "gm_gl_enums.h"
#include "gm_sampler_iface.h"

#include <math.h>
#include <string.h>

void gm_tex_sampler_default(gm_tex_sampler *s)
{
    memset(s, 0, sizeof(*s));
    s->wrap_s = s->wrap_t = s->wrap_r = GM_GL_REPEAT;
    s->min_filter = GM_GL_NEAREST_MIPMAP_LINEAR;
    s->mag_filter = GM_GL_LINEAR;
    s->min_lod = -1000.0f;
    s->max_lod = 1000.0f;
    s->compare_func = GM_GL_LEQUAL;
    s->max_anisotropy = 1.0f;
    s->seamless_cube = true;
}

static int dims_of(gm_tex_target t)
{
    switch (t) {
    case GM_TEX_1D: case GM_TEX_1D_ARRAY: case GM_TEX_BUFFER: return 1;
    case GM_TEX_3D: return 3;
    default: return 2;
    }
}

static bool is_array(gm_tex_target t)
{
    return t == GM_TEX_1D_ARRAY || t == GM_TEX_2D_ARRAY || t == GM_TEX_CUBE_ARRAY ||
           t == GM_TEX_2D_MS_ARRAY;
}

static int last_level(const gm_tex_image *img)
{
    int last = img->num_levels - 1;
    if (img->max_level < last) last = img->max_level;
    if (last < img->base_level) last = img->base_level;
    return last;
}

/* Read one texel (no bounds check) as float or integer bits. */
static void read_texel(const gm_tex_image *img, const gm_surface *s, int x, int y, int z,
                       int sample, float out[4])
{
    const gm_format_info *fi = gm_format_get(s->format);
    if (fi->block) {
        const uint8_t *blk = s->data + (size_t)z * s->layer_stride +
                             (size_t)(y / 4) * s->row_stride + (size_t)(x / 4) * fi->bytes;
        uint8_t rgba[16][4];
        if (gm_tex_decode_block(s->format, blk, rgba) != 0) {
            out[0] = out[1] = out[2] = 0.0f; out[3] = 1.0f;
            return;
        }
        const uint8_t *t = rgba[(y % 4) * 4 + (x % 4)];
        for (int c = 0; c < 4; c++) {
            out[c] = fi->kind == GM_KIND_SNORM ? fmaxf((float)(int8_t)t[c] / 127.0f, -1.0f)
                                               : gm_unorm8_to_float(t[c]);
            if (fi->srgb && c < 3) out[c] = gm_srgb_to_linear(out[c]);
        }
        return;
    }
    const uint8_t *p = gm_surface_texel(s, x, y, z) + (size_t)sample * fi->bytes;
    if (fi->kind == GM_KIND_DEPTH_STENCIL && img->stencil_mode) {
        uint32_t v = gm_format_unpack_stencil(s->format, p);
        memcpy(&out[0], &v, 4);
        out[1] = out[2] = 0.0f;
        uint32_t one = 1;
        memcpy(&out[3], &one, 4);
        return;
    }
    gm_format_unpack_rgba(s->format, p, out);
    if (fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_DEPTH_STENCIL) {
        out[1] = out[2] = 0.0f;     /* core profile: (d, 0, 0, 1) */
        out[3] = 1.0f;
    }
}

static bool is_int_format(gm_format f)
{
    const gm_format_info *fi = gm_format_get(f);
    return fi->kind == GM_KIND_UINT || fi->kind == GM_KIND_SINT;
}

static void apply_swizzle(const gm_tex_image *img, float v[4], bool integer)
{
    float in[4];
    memcpy(in, v, sizeof(in));
    static const uint8_t ident[4] = {0, 1, 2, 3};
    const uint8_t *sw = img->swizzle;
    if (sw[0] == 0 && sw[1] == 0 && sw[2] == 0 && sw[3] == 0)
        sw = ident;   /* zero-initialised image: identity */
    for (int c = 0; c < 4; c++) {
        switch (sw[c]) {
        case 0: case 1: case 2: case 3: v[c] = in[sw[c]]; break;
        case 4: v[c] = 0.0f; break;
        default: {
            if (integer) { uint32_t one = 1; memcpy(&v[c], &one, 4); }
            else v[c] = 1.0f;
            break;
        }
        }
    }
}

/* ---- addressing ------------------------------------------------------------------- */

static int mirror(int i) { return i >= 0 ? i : -1 - i; }

/* Wrap integer texel coordinate; returns -1 for "border". */
static int wrap_index(uint32_t wrap, int i, int size)
{
    switch (wrap) {
    case GM_GL_REPEAT: {
        int r = i % size;
        return r < 0 ? r + size : r;
    }
    case GM_GL_MIRRORED_REPEAT: {
        int period = 2 * size;
        int r = i % period;
        if (r < 0) r += period;
        return r < size ? r : period - 1 - r;
    }
    case GM_GL_CLAMP_TO_EDGE: case GM_GL_MIRROR_CLAMP_TO_EDGE:
        if (wrap == GM_GL_MIRROR_CLAMP_TO_EDGE) i = mirror(i);
        return i < 0 ? 0 : (i >= size ? size - 1 : i);
    case GM_GL_CLAMP_TO_BORDER: case GM_GL_CLAMP: case GM_GL_MIRROR_CLAMP_EXT:
    case GM_GL_MIRROR_CLAMP_TO_BORDER_EXT:
        if (wrap == GM_GL_MIRROR_CLAMP_EXT || wrap == GM_GL_MIRROR_CLAMP_TO_BORDER_EXT)
            i = mirror(i);
        return (i < 0 || i >= size) ? -1 : i;
    default:
        return i < 0 ? 0 : (i >= size ? size - 1 : i);
    }
}

/* Coordinate pre-clamp for the legacy clamp modes (GL_CLAMP clamps to [0,1]). */
static float wrap_coord_pre(uint32_t wrap, float u)
{
    if (wrap == GM_GL_CLAMP) return fminf(fmaxf(u, 0.0f), 1.0f);
    if (wrap == GM_GL_MIRROR_CLAMP_EXT) return fminf(fabsf(u), 1.0f);
    return u;
}

typedef struct tex_level_ctx {
    const gm_tex_image *img;
    const gm_tex_sampler *smp;
    const gm_surface *s;
    int size[3];
    int layer;
    bool shadow;
    float ref;
    bool integer;
} tex_level_ctx;

static void border_color(const tex_level_ctx *c, float out[4])
{
    if (c->integer) memcpy(out, c->smp->border_i, sizeof(float) * 4);
    else memcpy(out, c->smp->border, sizeof(float) * 4);
}

static void fetch_wrapped(const tex_level_ctx *c, int i, int j, int k, float out[4])
{
    const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
    int idx[3] = {i, j, k};
    int nd = dims_of(c->img->target);
    if (c->img->target == GM_TEX_RECT) { /* rectangle: coords are texels, no repeat */ }
    for (int d = 0; d < nd; d++) {
        idx[d] = wrap_index(wraps[d], idx[d], c->size[d]);
        if (idx[d] < 0) {
            border_color(c, out);
            goto compare;
        }
    }
    {
        int z = nd == 3 ? idx[2] : c->layer;
        int y = nd >= 2 ? idx[1] : (c->img->target == GM_TEX_1D_ARRAY ? c->layer : 0);
        if (c->img->target == GM_TEX_1D_ARRAY) z = 0;
        read_texel(c->img, c->s, idx[0], y, z, 0, out);
    }
compare:
    if (c->shadow) {
        /* depth compare per texel (before filtering), result in x */
        float d = fminf(fmaxf(out[0], 0.0f), 1.0f);
        float r = fminf(fmaxf(c->ref, 0.0f), 1.0f);
        out[0] = gm_compare_func(c->smp->compare_func, r, d) ? 1.0f : 0.0f;
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

static float frac_floor(float x, int *i)
{
    float f = floorf(x);
    *i = (int)f;
    return x - f;
}

/* Filter one level at normalized coordinates u,v,w (texel coords for RECT). */
static void sample_level(const tex_level_ctx *c, const float uvw[3], bool linear,
                         const int32_t *offset, float out[4])
{
    int nd = dims_of(c->img->target);
    float t[3];
    for (int d = 0; d < nd; d++) {
        const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
        float u = uvw[d];
        if (c->img->target != GM_TEX_RECT) {
            u = wrap_coord_pre(wraps[d], u);
            u *= (float)c->size[d];
        } else if (wraps[d] == GM_GL_CLAMP) {
            u = fminf(fmaxf(u, 0.0f), (float)c->size[d]);
        }
        t[d] = u;
    }
    if (!linear || c->integer) {
        int idx[3] = {0, 0, 0};
        for (int d = 0; d < nd; d++) {
            idx[d] = (int)floorf(t[d]) + (offset ? offset[d] : 0);
        }
        fetch_wrapped(c, idx[0], idx[1], idx[2], out);
        return;
    }
    int i0[3] = {0, 0, 0};
    float f[3] = {0, 0, 0};
    for (int d = 0; d < nd; d++) {
        f[d] = frac_floor(t[d] - 0.5f, &i0[d]);
        i0[d] += offset ? offset[d] : 0;
    }
    float acc[4] = {0, 0, 0, 0};
    int corners = 1 << nd;
    for (int k = 0; k < corners; k++) {
        float wgt = 1.0f;
        int idx[3] = {0, 0, 0};
        for (int d = 0; d < nd; d++) {
            int bit = (k >> d) & 1;
            idx[d] = i0[d] + bit;
            wgt *= bit ? f[d] : 1.0f - f[d];
        }
        float tx[4];
        fetch_wrapped(c, idx[0], idx[1], idx[2], tx);
        for (int ch = 0; ch < 4; ch++) acc[ch] += wgt * tx[ch];
    }
    memcpy(out, acc, sizeof(acc));
}

/* Cube map face selection (GL spec table 8.19): returns face and s,t in [0,1]. */
static int cube_face(const float dir[3], float st[2])
{
    float x = dir[0], y = dir[1], z = dir[2];
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
    int face;
    float sc, tc, ma;
    if (ax >= ay && ax >= az) {
        ma = ax;
        if (x >= 0) { face = 0; sc = -z; tc = -y; } else { face = 1; sc = z; tc = -y; }
    } else if (ay >= az) {
        ma = ay;
        if (y >= 0) { face = 2; sc = x; tc = z; } else { face = 3; sc = x; tc = -z; }
    } else {
        ma = az;
        if (z >= 0) { face = 4; sc = x; tc = -y; } else { face = 5; sc = -x; tc = -y; }
    }
    float inv = ma > 0.0f ? 1.0f / ma : 0.0f;
    st[0] = 0.5f * (sc * inv) + 0.5f;
    st[1] = 0.5f * (tc * inv) + 0.5f;
    return face;
}

float gm_tex_compute_lod(const gm_tex_image *img, const float ddx[3], const float ddy[3])
{
    int b = img->base_level < img->num_levels ? img->base_level : 0;
    const gm_surface *s = &img->level[b];
    int nd = dims_of(img->target);
    float size[3] = {(float)s->width, (float)s->height, (float)s->depth};
    if (img->target == GM_TEX_RECT) size[0] = size[1] = 1.0f;
    if (img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY) nd = 2;
    float lx = 0.0f, ly = 0.0f;
    for (int d = 0; d < nd; d++) {
        float a = ddx[d] * size[d], bb = ddy[d] * size[d];
        lx += a * a;
        ly += bb * bb;
    }
    float rho = sqrtf(fmaxf(lx, ly));
    return log2f(rho);
}

void gm_tex_sample_lod(const gm_tex_image *img, const gm_tex_sampler *smp,
                       const float coord[4], float lod, float ref, bool shadow,
                       const int32_t offset[3], float out[4])
{
    gm_tex_sampler defs;
    if (!smp) { gm_tex_sampler_default(&defs); smp = &defs; }
    out[0] = out[1] = out[2] = 0.0f; out[3] = 1.0f;
    if (!img || img->num_levels <= 0 || img->base_level >= img->num_levels ||
        img->target == GM_TEX_BUFFER || img->target == GM_TEX_2D_MS ||
        img->target == GM_TEX_2D_MS_ARRAY)
        return;
    tex_level_ctx c;
    memset(&c, 0, sizeof(c));
    c.img = img; c.smp = smp; c.shadow = shadow; c.ref = ref;
    c.integer = is_int_format(img->format) || (img->stencil_mode &&
                gm_format_get(img->format)->kind == GM_KIND_DEPTH_STENCIL);
    float uvw[3] = {coord[0], coord[1], coord[2]};
    int face = 0;
    bool cube = img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY;
    if (cube) {
        float st[2];
        face = cube_face(coord, st);
        uvw[0] = st[0]; uvw[1] = st[1];
    }
    int nd = dims_of(img->target);
    int layer = 0;
    if (is_array(img->target)) {
        float l = cube ? coord[3] : coord[nd];
        layer = (int)floorf(l + 0.5f);
    }

    if (img->target == GM_TEX_RECT) lod = 0.0f;
    lod = fminf(fmaxf(lod, smp->min_lod), smp->max_lod);
    bool mag = !(lod > 0.0f);
    uint32_t filt = mag ? smp->mag_filter : smp->min_filter;
    bool linear = filt == GM_GL_LINEAR || filt == GM_GL_LINEAR_MIPMAP_NEAREST ||
                  filt == GM_GL_LINEAR_MIPMAP_LINEAR;
    int base = img->base_level, last = last_level(img);
    int lv0 = base, lv1 = base;
    float mipf = 0.0f;
    if (!mag) {
        if (filt == GM_GL_NEAREST_MIPMAP_NEAREST || filt == GM_GL_LINEAR_MIPMAP_NEAREST) {
            int l = base + (int)floorf(lod + 0.5f);
            lv0 = lv1 = l > last ? last : l;
        } else if (filt == GM_GL_NEAREST_MIPMAP_LINEAR || filt == GM_GL_LINEAR_MIPMAP_LINEAR) {
            float fl = floorf(lod);
            int l = base + (int)fl;
            mipf = lod - fl;
            if (l >= last) { lv0 = lv1 = last; mipf = 0.0f; }
            else { lv0 = l; lv1 = l + 1; }
        }
    }
    float r0[4], r1[4];
    for (int pass = 0; pass < (lv1 != lv0 && mipf > 0.0f ? 2 : 1); pass++) {
        int lv = pass ? lv1 : lv0;
        c.s = &img->level[lv];
        c.size[0] = c.s->width;
        c.size[1] = c.s->height;
        c.size[2] = c.s->depth;
        int nlayers = cube ? c.s->depth / 6 : c.s->depth;
        if (img->target == GM_TEX_1D_ARRAY) nlayers = c.s->height;
        int L = layer < 0 ? 0 : (layer >= nlayers ? nlayers - 1 : layer);
        c.layer = cube ? L * 6 + face : L;
        if (cube) {
            /* per-face addressing clamps to the face edge (seams not filtered across) */
            tex_level_ctx cc = c;
            gm_tex_sampler fs = *smp;
            fs.wrap_s = fs.wrap_t = GM_GL_CLAMP_TO_EDGE;
            cc.smp = &fs;
            sample_level(&cc, uvw, linear, NULL, pass ? r1 : r0);
        } else {
            sample_level(&c, uvw, linear, offset, pass ? r1 : r0);
        }
    }
    if (lv1 != lv0 && mipf > 0.0f)
        for (int ch = 0; ch < 4; ch++) r0[ch] = r0[ch] + mipf * (r1[ch] - r0[ch]);
    memcpy(out, r0, sizeof(r0));
    if (!shadow)
        apply_swizzle(img, out, c.integer);
}

void gm_tex_fetch(const gm_tex_image *img, const int32_t coord[4], int level_or_sample,
                  float out[4])
{
    memset(out, 0, sizeof(float) * 4);
    if (!img || img->num_levels <= 0)
        return;
    bool ms = img->target == GM_TEX_2D_MS || img->target == GM_TEX_2D_MS_ARRAY;
    int level = ms ? 0 : level_or_sample + (img->target == GM_TEX_BUFFER ? 0 : img->base_level);
    int sample = ms ? level_or_sample : 0;
    if (level < 0 || level >= img->num_levels)
        return;
    const gm_surface *s = &img->level[level];
    if (ms && (sample < 0 || sample >= s->samples))
        return;
    int nd = dims_of(img->target);
    int x = coord[0], y = 0, z = 0;
    if (img->target == GM_TEX_CUBE) { y = coord[1]; z = coord[2]; }
    else if (img->target == GM_TEX_CUBE_ARRAY) { y = coord[1]; z = coord[2]; }
    else if (nd >= 2) y = coord[1];
    if (nd == 3) z = coord[2];
    if (img->target == GM_TEX_1D_ARRAY) y = coord[1];
    if (img->target == GM_TEX_2D_ARRAY || img->target == GM_TEX_2D_MS_ARRAY) z = coord[2];
    if (x < 0 || y < 0 || z < 0 || x >= s->width || y >= s->height || z >= s->depth)
        return;
    read_texel(img, s, x, y, z, sample, out);
    apply_swizzle(img, out, is_int_format(img->format));
}

int gm_tex_size(const gm_tex_image *img, int lod, int32_t size[3])
{
    size[0] = size[1] = size[2] = 0;
    if (!img || img->num_levels <= 0)
        return 0;
    int level = img->target == GM_TEX_BUFFER ? 0 : img->base_level + lod;
    bool valid = level >= 0 && level < img->num_levels;
    const gm_surface *s = valid ? &img->level[level] : NULL;
    switch (img->target) {
    case GM_TEX_1D: case GM_TEX_BUFFER:
        size[0] = s ? s->width : 0; return 1;
    case GM_TEX_1D_ARRAY:
        size[0] = s ? s->width : 0; size[1] = s ? s->height : 0; return 2;
    case GM_TEX_2D: case GM_TEX_RECT: case GM_TEX_CUBE: case GM_TEX_2D_MS:
        size[0] = s ? s->width : 0; size[1] = s ? s->height : 0; return 2;
    case GM_TEX_CUBE_ARRAY:
        size[0] = s ? s->width : 0; size[1] = s ? s->height : 0; size[2] = s ? s->depth / 6 : 0; return 3;
    default:
        size[0] = s ? s->width : 0; size[1] = s ? s->height : 0; size[2] = s ? s->depth : 0; return 3;
    }
}

int gm_tex_query_levels(const gm_tex_image *img)
{
    if (!img || img->num_levels <= 0) return 0;
    return last_level(img) - img->base_level + 1;
}

/* ---- the executor's sampling callback ---------------------------------------------- */

static gm_tex_target target_of(const gm_sample_request *r)
{
    switch (r->dim) {
    case GM_DIM_1D: return r->arrayed ? GM_TEX_1D_ARRAY : GM_TEX_1D;
    case GM_DIM_3D: return GM_TEX_3D;
    case GM_DIM_CUBE: return r->arrayed ? GM_TEX_CUBE_ARRAY : GM_TEX_CUBE;
    case GM_DIM_RECT: return GM_TEX_RECT;
    case GM_DIM_BUFFER: return GM_TEX_BUFFER;
    default:
        if (r->multisampled) return r->arrayed ? GM_TEX_2D_MS_ARRAY : GM_TEX_2D_MS;
        return r->arrayed ? GM_TEX_2D_ARRAY : GM_TEX_2D;
    }
}

void gm_tex_sample_fn(void *tex_units, const struct gm_sample_request *req,
                      union gm_texel_out *out)
{
    const gm_tex_units *units = tex_units;
    const gm_tex_image *img = NULL;
    const gm_tex_sampler *smp = NULL;
    if (units && req->unit < GM_TEX_MAX_UNITS) {
        img = units->unit[req->unit].image;
        smp = units->unit[req->unit].sampler;
    }
    gm_tex_sampler defs;
    if (!smp) { gm_tex_sampler_default(&defs); smp = &defs; }
    for (int l = 0; l < GM_LANES; l++) {
        if (!(req->mask & (1u << l)))
            continue;
        float r[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        bool int_result = req->result_type != GM_TEX_RESULT_FLOAT;
        if (int_result) { uint32_t one = 1; memcpy(&r[3], &one, 4); }
        /* a sampler type that disagrees with the target means an incomplete texture */
        bool usable = img && img->num_levels > 0 &&
                      (req->op == GM_TEX_QUERY_SIZE || req->op == GM_TEX_QUERY_LEVELS ||
                       req->op == GM_TEX_QUERY_SAMPLES || img->target == target_of(req));
        switch (req->op) {
        case GM_TEX_SAMPLE:
        case GM_TEX_GATHER: {
            if (!usable) break;
            float coord[4] = {0, 0, 0, 0};
            for (int c = 0; c < req->coord_count && c < 4; c++) coord[c] = req->coord.f[c][l];
            float lod = 0.0f;
            if (req->op == GM_TEX_SAMPLE) {
                if (req->has_lod) lod = req->lod[l];
                else if (req->has_grad) {
                    float dx[3], dy[3];
                    for (int c = 0; c < 3; c++) { dx[c] = req->ddx[c][l]; dy[c] = req->ddy[c][l]; }
                    lod = gm_tex_compute_lod(img, dx, dy);
                }
                if (req->has_bias) lod += req->bias[l];
                lod += smp->lod_bias;
            }
            if (req->has_min_lod && lod < req->min_lod[l]) lod = req->min_lod[l];
            int32_t off[3] = {0, 0, 0};
            if (req->has_offset == 1)
                for (int c = 0; c < 3; c++) off[c] = req->offset[c][l];
            if (req->op == GM_TEX_SAMPLE) {
                gm_tex_sample_lod(img, smp, coord, lod, req->dref[l], req->shadow != 0,
                                  req->has_offset ? off : NULL, r);
            } else {
                /* gather: the 4 texels of the bilinear footprint at the base level,
                 * order (i0,j1), (i1,j1), (i1,j0), (i0,j0) */
                gm_tex_sampler ns = *smp;
                ns.min_filter = ns.mag_filter = GM_GL_NEAREST;
                const gm_surface *s = &img->level[img->base_level];
                float tu = coord[0] * (float)s->width - 0.5f, tv = coord[1] * (float)s->height - 0.5f;
                float fu = floorf(tu), fv = floorf(tv);
                static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
                for (int k = 0; k < 4; k++) {
                    int32_t o2[3] = {off[0], off[1], 0};
                    if (req->has_offset == 2) { o2[0] = req->gather_offsets[k][0]; o2[1] = req->gather_offsets[k][1]; }
                    float cc[4] = {(fu + (float)di[k] + 0.5f) / (float)s->width,
                                   (fv + (float)dj[k] + 0.5f) / (float)s->height, coord[2], coord[3]};
                    float t4[4];
                    gm_tex_sample_lod(img, &ns, cc, 0.0f, req->dref[l], req->shadow != 0, o2, t4);
                    r[k] = req->shadow ? t4[0] : t4[req->component & 3];
                }
            }
            break;
        }
        case GM_TEX_FETCH: {
            if (!usable) break;
            int32_t ic[4] = {0, 0, 0, 0};
            for (int c = 0; c < req->coord_count && c < 4; c++) ic[c] = req->coord.i[c][l];
            if (req->has_offset == 1)
                for (int c = 0; c < 3; c++) ic[c] += req->offset[c][l];
            int lv = req->multisampled || req->has_sample ? req->sample[l] : (int)req->lod[l];
            gm_tex_fetch(img, ic, lv, r);
            break;
        }
        case GM_TEX_QUERY_SIZE: {
            int32_t sz[3];
            gm_tex_size(img, (int)req->lod[l], sz);
            for (int c = 0; c < 3; c++) memcpy(&r[c], &sz[c], 4);
            r[3] = 0.0f;
            break;
        }
        case GM_TEX_QUERY_LEVELS: {
            int32_t n = gm_tex_query_levels(img);
            memcpy(&r[0], &n, 4);
            break;
        }
        case GM_TEX_QUERY_SAMPLES: {
            int32_t n = img && img->num_levels > 0 ? img->level[0].samples : 0;
            memcpy(&r[0], &n, 4);
            break;
        }
        case GM_TEX_QUERY_LOD: {
            if (!usable) break;
            float dx[3], dy[3];
            for (int c = 0; c < 3; c++) { dx[c] = req->ddx[c][l]; dy[c] = req->ddy[c][l]; }
            float lod = gm_tex_compute_lod(img, dx, dy) + smp->lod_bias;
            float cl = fminf(fmaxf(lod, smp->min_lod), smp->max_lod);
            float maxl = (float)(last_level(img) - img->base_level);
            r[0] = fminf(fmaxf(cl, 0.0f), maxl);
            r[1] = lod;
            break;
        }
        default:
            break;
        }
        for (int c = 0; c < 4; c++) out->f[c][l] = r[c];
    }
}
