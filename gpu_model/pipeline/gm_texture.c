/* gm_texture.c - texture units: addressing (wrap modes, border), nearest/linear
 * filtering, mipmapping, cube faces (seamless filtering too), shadow compare, swizzle,
 * texelFetch, textureGather, size/level queries.  Implements gm_sample_fn of
 * gpu_model/gm_sampler_iface.h.  Sampling follows llvmpipe's arithmetic (Mesa 22.3): its
 * LOD selection, its 8-bit fixed-point ("AoS") filtering of unorm8 textures and its float
 * path otherwise (gm_texture_lp.c has the arithmetic), so images agree bit for bit. */
#include "gm_pipe_internal.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_sampler_iface.h"
#include "gm_texture_aniso.h"
#include "gm_texture_lp.h"
#include "gm_texture_quad.h"
#include "gm_half.h"

#include <math.h>
#include <string.h>

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define GM_TEX_X86 1
#include <immintrin.h>
#endif

void gm_tex_sampler_default(gm_tex_sampler *s)
{
    memset(s, 0, sizeof(*s));
    s->wrap_s = s->wrap_t = s->wrap_r = GL_REPEAT;
    s->min_filter = GL_NEAREST_MIPMAP_LINEAR;
    s->mag_filter = GL_LINEAR;
    s->min_lod = -1000.0f;
    s->max_lod = 1000.0f;
    s->compare_func = GL_LEQUAL;
    s->max_anisotropy = 1.0f;
    s->seamless_cube = true;
}

/* The image whose sizes decide llvmpipe's power-of-two wrap paths: level 0, or the base level
 * where the levels below it were never defined (Mesa sizes the resource from the base level
 * scaled up, which keeps its power-of-two-ness). */
static const gm_surface *level0(const gm_tex_image *img)
{
    if (img->level[0].width > 0 || img->base_level <= 0 || img->base_level >= img->num_levels)
        return &img->level[0];
    return &img->level[img->base_level];
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

/* A depth texture not read as stencil: its view swizzle starts from the depth mode. */
static bool depth_view(const gm_tex_image *img)
{
    const gm_format_info *fi = gm_format_get(img->format);
    return (fi->kind == GM_KIND_DEPTH || fi->kind == GM_KIND_DEPTH_STENCIL) && !img->stencil_mode;
}

/* The sampler view swizzle of a depth texture as Mesa's state tracker builds it for llvmpipe
 * (compute_texture_format_swizzle): GL_DEPTH_TEXTURE_MODE first, then the texture swizzle.
 * A depth compare broadcasts its result to every channel before the swizzle. GLSL 1.30's
 * float-returning texture(sampler*Shadow) reads the first channel, and Mesa turns GL_ALPHA
 * into GL_INTENSITY for such shaders so that it does not read 0; the pre-1.30 shadow*() keep
 * (0, 0, 0, r). v: (d, 0, 0, 1) as read, or the compare result in v[0]. */
static void apply_view_swizzle(const gm_tex_image *img, float v[4], bool integer, int shadow,
                               bool depth)
{
    if (depth || shadow) {
        float d = v[0];
        int mode = img->depth_mode;
        if (shadow == 1 && mode == GM_DEPTH_MODE_ALPHA)
            mode = GM_DEPTH_MODE_INTENSITY;
        switch (mode) {
        case GM_DEPTH_MODE_LUMINANCE: v[0] = v[1] = v[2] = d; v[3] = 1.0f; break;
        case GM_DEPTH_MODE_INTENSITY: v[0] = v[1] = v[2] = v[3] = d; break;
        case GM_DEPTH_MODE_ALPHA: v[0] = v[1] = v[2] = 0.0f; v[3] = d; break;
        default: v[0] = d; v[1] = v[2] = 0.0f; v[3] = 1.0f; break;
        }
    }
    apply_swizzle(img, v, integer && !shadow);
}

/* ---- addressing ------------------------------------------------------------------- */

static float flush_denormal(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    /* exponent field 0: a denormal (or a zero, which this keeps) */
    return (b & 0x7f800000u) == 0 ? copysignf(0.0f, x) : x;
}

static bool is_pot(int v) { return v > 0 && (v & (v - 1)) == 0; }

static int mirror(int i) { return i >= 0 ? i : -1 - i; }

/* Wrap integer texel coordinate; returns -1 for "border". */
static int wrap_index(uint32_t wrap, int i, int size)
{
    switch (wrap) {
    case GL_REPEAT: {
        int r = i % size;
        return r < 0 ? r + size : r;
    }
    case GL_MIRRORED_REPEAT: {
        int period = 2 * size;
        int r = i % period;
        if (r < 0) r += period;
        return r < size ? r : period - 1 - r;
    }
    case GL_CLAMP_TO_EDGE: case GL_MIRROR_CLAMP_TO_EDGE:
        if (wrap == GL_MIRROR_CLAMP_TO_EDGE) i = mirror(i);
        return i < 0 ? 0 : (i >= size ? size - 1 : i);
    case GL_CLAMP_TO_BORDER: case GL_CLAMP: case GL_MIRROR_CLAMP_EXT:
    case GL_MIRROR_CLAMP_TO_BORDER_EXT:
        if (wrap == GL_MIRROR_CLAMP_EXT || wrap == GL_MIRROR_CLAMP_TO_BORDER_EXT)
            i = mirror(i);
        return (i < 0 || i >= size) ? -1 : i;
    default:
        return i < 0 ? 0 : (i >= size ? size - 1 : i);
    }
}

/* Coordinate pre-clamp for the legacy clamp modes (GL_CLAMP clamps to [0,1]). */
static float wrap_coord_pre(uint32_t wrap, float u)
{
    if (wrap == GL_CLAMP) return fminf(fmaxf(u, 0.0f), 1.0f);
    if (wrap == GL_MIRROR_CLAMP_EXT) return fminf(fabsf(u), 1.0f);
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
    bool seamless;    /* cube map filtered across faces */
} tex_level_ctx;

static void border_color(const tex_level_ctx *c, float out[4])
{
    if (c->integer) memcpy(out, c->smp->border_i, sizeof(float) * 4);
    else memcpy(out, c->smp->border, sizeof(float) * 4);
}

/* The texel at already wrapped indices (or the border colour), compared when shadow. */
static void fetch_texel(const tex_level_ctx *c, const int idx[3], bool border, float out[4])
{
    int nd = dims_of(c->img->target);
    if (border) {
        border_color(c, out);
    } else {
        int z = nd == 3 ? idx[2] : c->layer;
        int y = nd >= 2 ? idx[1] : (c->img->target == GM_TEX_1D_ARRAY ? c->layer : 0);
        if (c->img->target == GM_TEX_1D_ARRAY) z = 0;
        read_texel(c->img, c->s, idx[0], y, z, 0, out);
    }
    if (c->shadow) {
        /* depth compare per texel (before filtering), result in x */
        float d = fminf(fmaxf(out[0], 0.0f), 1.0f);
        float r = fminf(fmaxf(c->ref, 0.0f), 1.0f);
        out[0] = gm_compare_func(c->smp->compare_func, r, d) ? 1.0f : 0.0f;
        out[1] = out[2] = 0.0f;
        out[3] = 1.0f;
    }
}

static void fetch_wrapped(const tex_level_ctx *c, int i, int j, int k, float out[4])
{
    const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
    int idx[3] = {i, j, k};
    int nd = dims_of(c->img->target);
    bool border = false;
    for (int d = 0; d < nd && !border; d++) {
        idx[d] = wrap_index(wraps[d], idx[d], c->size[d]);
        border = idx[d] < 0;
    }
    fetch_texel(c, idx, border, out);
}

static float frac_floor(float x, int *i)
{
    float f = floorf(x);
    *i = (int)f;
    return x - f;
}

/* ---- seamless cube map filtering (llvmpipe's float path) ---------------------------- */

/* Texel (x, y) of cube face `face` (of the current cube layer), compared when shadow. */
static void cube_texel(const tex_level_ctx *c, int face, int x, int y, float out[4])
{
    tex_level_ctx cc = *c;
    cc.layer = c->layer - c->layer % 6 + face;
    fetch_wrapped(&cc, x, y, 0, out);
}

/* Bilinear filtering across cube faces as lp_build_sample_image_linear does it: texels
 * that fall off the face come from the neighbouring face; at a corner the missing texel's
 * weight is shared by the other three. snap: weights 0/1 (nearest through this path). */
static void cube_seamless_linear(const tex_level_ctx *c, const float st[2], bool snap,
                                 float out[4])
{
    const int n = c->size[0], mx = n - 1, face = c->layer % 6;
    int64_t x0, y0;
    float ws = floorf(fmaxf(st[0], 0.0f) * (float)n - 0.5f);
    float fs = fmaxf(st[0], 0.0f) * (float)n - 0.5f - ws;
    float wt = floorf(fmaxf(st[1], 0.0f) * (float)n - 0.5f);
    float ft = fmaxf(st[1], 0.0f) * (float)n - 0.5f - wt;
    x0 = fabsf(ws) < 1e9f ? (int64_t)ws : 0;   /* NaN / huge: any texel, never UB */
    y0 = fabsf(wt) < 1e9f ? (int64_t)wt : 0;
    int64_t x1 = x0 + 1, y1 = y0 + 1;
    bool fo[4] = {x0 < 0, x1 > mx, y0 < 0, y1 > mx};
    int64_t y0c = y0 < 0 ? 0 : y0, y1c = y1 > mx ? mx : y1;
    /* neighbouring faces and coordinates (x-, x+, y-, y+), after lp_build_cube_new_coords */
    bool f2 = face == 2, f23 = face == 2 || face == 3, f2345 = face > 1, odd = face & 1;
    int nf[4];
    nf[0] = f2345 ? (face == 5 ? 0 : 1) : 4 + odd;
    nf[1] = nf[0] ^ 1;
    nf[3] = f23 ? face + 2 : 3;
    nf[2] = nf[3] ^ 1;
    int64_t ncx[4][2], ncy[4][2];
    const int64_t xs[2] = {x0, x1}, ys[2] = {y0c, y1c};
    for (int k = 0; k < 2; k++) {
        ncx[1][k] = f23 ? (f2 ? mx - ys[k] : ys[k]) : 0;
        ncx[0][k] = mx - ncx[1][k];
        ncx[3][k] = f2345 ? (odd ? mx - xs[k] : xs[k]) : (odd ? 0 : mx);
        ncx[2][k] = f23 ? mx - ncx[3][k] : ncx[3][k];
        ncy[0][k] = ncy[1][k] = f23 ? (f2 ? 0 : mx) : ys[k];
        ncy[3][k] = f2345 ? (odd ? mx : 0) : (odd ? mx - xs[k] : xs[k]);
        ncy[2][k] = f23 ? ncy[3][k] : mx - ncy[3][k];
    }
    /* texels [0] (x0,y0) [1] (x1,y0) [2] (x0,y1) [3] (x1,y1) */
    int64_t tx[4] = {x0, x1, x0, x1}, ty[4] = {y0c, y0c, y1c, y1c};
    int tf[4] = {face, face, face, face};
    if (fo[0]) { tx[0] = ncx[0][0]; ty[0] = ncy[0][0]; tx[2] = ncx[0][1]; ty[2] = ncy[0][1];
                 tf[0] = tf[2] = nf[0]; }
    if (fo[1]) { tx[1] = ncx[1][0]; ty[1] = ncy[1][0]; tx[3] = ncx[1][1]; ty[3] = ncy[1][1];
                 tf[1] = tf[3] = nf[1]; }
    if (fo[2] && !fo[0]) { tx[0] = ncx[2][0]; ty[0] = ncy[2][0]; tf[0] = nf[2]; }
    if (fo[2] && !fo[1]) { tx[1] = ncx[2][1]; ty[1] = ncy[2][1]; tf[1] = nf[2]; }
    if (fo[3] && !fo[0]) { tx[2] = ncx[3][0]; ty[2] = ncy[3][0]; tf[2] = nf[3]; }
    if (fo[3] && !fo[1]) { tx[3] = ncx[3][1]; ty[3] = ncy[3][1]; tf[3] = nf[3]; }
    if (snap) {
        fs = fs > 0.5f ? 1.0f : 0.0f;
        ft = ft > 0.5f ? 1.0f : 0.0f;
    }
    float v[4][4];
    for (int k = 0; k < 4; k++) {
        int x = (int)(tx[k] < 0 ? 0 : (tx[k] > mx ? mx : tx[k]));
        int y = (int)(ty[k] < 0 ? 0 : (ty[k] > mx ? mx : ty[k]));
        cube_texel(c, tf[k], x, y, v[k]);
    }
    bool corner = (fo[0] || fo[1]) && (fo[2] || fo[3]);
    if (!corner) {
        for (int ch = 0; ch < 4; ch++)
            out[ch] = gm_lp_lerpf(ft, gm_lp_lerpf(fs, v[0][ch], v[1][ch]),
                                  gm_lp_lerpf(fs, v[2][ch], v[3][ch]));
        return;
    }
    /* corner: explicit weights, the missing texel's share spread over the other three */
    float wx0 = 1.0f - fs, wy0 = 1.0f - ft;
    float w[4] = {wx0 * wy0, fs * wy0, wx0 * ft, fs * ft};
    int ck = fo[2] ? (fo[0] ? 0 : 1) : (fo[0] ? 2 : 3);
    float cw = w[ck] * (1.0f / 3.0f);
    for (int k = 0; k < 4; k++)
        w[k] = k == ck ? 0.0f : w[k] + cw;
    for (int ch = 0; ch < 4; ch++) {
        float acc = w[0] * v[0][ch];
        acc = w[1] * v[1][ch] + acc;
        acc = w[2] * v[2][ch] + acc;
        acc = w[3] * v[3][ch] + acc;
        out[ch] = acc;
    }
}

/* ---- the float path's bilinear filter of a 2D level ----------------------------------- */

/* Whether fetch_texel reads a texel of this format with gm_format_unpack_rgba alone: not a
 * block format, not depth or stencil (the texture units never shadow-compare here). */
static bool plain_float_texels(gm_format f)
{
    const gm_format_info *fi = gm_format_get(f);
    return !fi->block && fi->kind != GM_KIND_DEPTH && fi->kind != GM_KIND_DEPTH_STENCIL;
}

/* The texel at in-range (x, y) of the level being filtered, layer c->layer. */
static inline void plain_texel(const tex_level_ctx *c, size_t texel_bytes, int x, int y,
                               float out[4])
{
    const gm_surface *s = c->s;
    const uint8_t *p = s->data + (size_t)c->layer * s->layer_stride + (size_t)y * s->row_stride +
                       (size_t)x * texel_bytes;
    if (s->format == GM_FMT_RGBA16F)   /* OpenArena's lightmaps: four halves at once */
        gm_half4_to_float(p, out);
    else
        gm_format_unpack_rgba(s->format, p, out);
}

#if GM_TEX_X86
/* gm_lp_lerpf (fmaf(w, b - a, a)) on the four channels at once: vfmadd is the same single
 * rounding, under the same MXCSR. False, writing nothing, when a result is NaN. */
__attribute__((target("fma"))) static bool bilerp_fma(const float v[4][4], const float w[2],
                                                      float out[4])
{
    const __m128 wx = _mm_set1_ps(w[0]), wy = _mm_set1_ps(w[1]);
    const __m128 t0 = _mm_loadu_ps(v[0]), t1 = _mm_loadu_ps(v[1]);
    const __m128 t2 = _mm_loadu_ps(v[2]), t3 = _mm_loadu_ps(v[3]);
    const __m128 r0 = _mm_fmadd_ps(wx, _mm_sub_ps(t1, t0), t0);
    const __m128 r1 = _mm_fmadd_ps(wx, _mm_sub_ps(t3, t2), t2);
    const __m128 r = _mm_fmadd_ps(wy, _mm_sub_ps(r1, r0), r0);
    if (_mm_movemask_ps(_mm_cmpunord_ps(r, r)))
        return false;   /* a NaN: the caller's fmaf decides which */
    _mm_storeu_ps(out, r);
    return true;
}
static bool have_fma(void) { return __builtin_cpu_supports("fma") != 0; }
#else
static bool bilerp_fma(const float v[4][4], const float w[2], float out[4])
{
    (void)v; (void)w; (void)out;
    return false;
}
static bool have_fma(void) { return false; }
#endif

/* sample_level's general linear filter of a 2D level (not a 1D array) whose four texels lie
 * inside the level (every wrap mode then reads them where they are) and are plain
 * (plain_float_texels), without a shadow compare: the texels read straight from the surface
 * and the x, then y lerps of gm_lp_lerpf on four channels at once. False when it does not
 * apply (the caller goes through fetch_wrapped). Identical results: the test compares it
 * with the per-texel route. */
static bool bilinear_plain_2d(const tex_level_ctx *c, const int a0[3], const int a1[3],
                              const float w[3], float out[4])
{
    const gm_surface *s = c->s;
    if (c->shadow || c->img->target == GM_TEX_1D_ARRAY || !plain_float_texels(s->format))
        return false;
    if ((unsigned)a0[0] >= (unsigned)c->size[0] || (unsigned)a1[0] >= (unsigned)c->size[0] ||
        (unsigned)a0[1] >= (unsigned)c->size[1] || (unsigned)a1[1] >= (unsigned)c->size[1])
        return false;
    const size_t tb = (size_t)gm_format_get(s->format)->bytes * (size_t)(s->samples > 0 ? s->samples : 1);
    float v[4][4];
    plain_texel(c, tb, a0[0], a0[1], v[0]);
    plain_texel(c, tb, a1[0], a0[1], v[1]);
    plain_texel(c, tb, a0[0], a1[1], v[2]);
    plain_texel(c, tb, a1[0], a1[1], v[3]);
    /* A NaN result is redone with fmaf: which NaN an FMA returns when several operands are
     * NaN depends on the operand order of the instruction form the compiler chose. */
    if (have_fma() && bilerp_fma((const float (*)[4])v, w, out))
        return true;
    for (int ch = 0; ch < 4; ch++) {
        float r0 = gm_lp_lerpf(w[0], v[0][ch], v[1][ch]);
        float r1 = gm_lp_lerpf(w[0], v[2][ch], v[3][ch]);
        out[ch] = gm_lp_lerpf(w[1], r0, r1);
    }
    return true;
}

/* Filter one level at normalized coordinates u,v,w (texel coords for RECT). */
static void sample_level(const tex_level_ctx *c, const float uvw[3], bool linear, bool snap,
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
        } else if (wraps[d] == GL_CLAMP) {
            u = fminf(fmaxf(u, 0.0f), (float)c->size[d]);
        }
        t[d] = u;
    }
    if ((linear || snap) && !c->integer && c->seamless) {
        cube_seamless_linear(c, uvw, snap, out);
        return;
    }
    if ((!linear && !snap) || c->integer) {
        /* llvmpipe's per-wrap-mode float arithmetic (gm_lp_wrap_nearest_f), not
         * floor(u * size) wrapped as an integer: they differ at texel boundaries */
        const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
        const gm_surface *s0 = level0(c->img);
        const int size0[3] = {s0->width, s0->height, s0->depth};
        int idx[3] = {0, 0, 0};
        bool border = false;
        for (int d = 0; d < nd; d++) {
            bool b = false;
            idx[d] = gm_lp_wrap_nearest_f(wraps[d], uvw[d], c->size[d], is_pot(size0[d]),
                                          c->img->target != GM_TEX_RECT,
                                          offset ? offset[d] : 0, &b);
            border = border || b;
        }
        fetch_texel(c, idx, border, out);
        return;
    }
    /* llvmpipe's general path: per-axis weights, nested fused lerps (x, then y, then z) */
    {
        const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
        const gm_surface *s0 = level0(c->img);
        const int size0[3] = {s0->width, s0->height, s0->depth};
        bool normalized = c->img->target != GM_TEX_RECT;
        int a0[3] = {0, 0, 0}, a1[3] = {0, 0, 0};
        float w[3] = {0, 0, 0};
        bool ok = true;
        for (int d = 0; d < nd && ok; d++)
            ok = gm_lp_axis_linear_f(wraps[d], uvw[d], c->size[d], size0[d] > 0 &&
                                     (size0[d] & (size0[d] - 1)) == 0, normalized,
                                     offset ? offset[d] : 0, &a0[d], &a1[d], &w[d]);
        if (ok) {
            if (snap)   /* nearest through the linear filter: the heavier texel only */
                for (int d = 0; d < nd; d++) w[d] = w[d] > 0.5f ? 1.0f : 0.0f;
            if (nd == 2 && bilinear_plain_2d(c, a0, a1, w, out))
                return;
            float v[8][4];
            int corners = 1 << nd;
            for (int k = 0; k < corners; k++) {
                int idx[3] = {0, 0, 0};
                for (int d = 0; d < nd; d++)
                    idx[d] = (k >> d) & 1 ? a1[d] : a0[d];
                fetch_wrapped(c, idx[0], idx[1], idx[2], v[k]);
            }
            for (int ch = 0; ch < 4; ch++) {
                float r[8];
                for (int k = 0; k < corners; k++) r[k] = v[k][ch];
                for (int d = 0, n = corners; d < nd; d++, n >>= 1)
                    for (int k = 0; k < n / 2; k++)
                        r[k] = gm_lp_lerpf(w[d], r[2 * k], r[2 * k + 1]);
                out[ch] = r[0];
            }
            return;
        }
    }
    /* what gm_lp_axis_linear_f leaves (mirrored repeat on unnormalized coordinates,
     * unknown wraps): plain bilinear weights */
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

/* ---- llvmpipe's 8-bit fixed-point ("AoS") filtering -------------------------------- */

/* Formats llvmpipe filters as 8-bit unorm (util_format_fits_8unorm): unorm channels of
 * at most 8 bits, not sRGB, and the S3TC / unorm RGTC block formats. */
static bool fits_8unorm(gm_format f)
{
    const gm_format_info *fi = gm_format_get(f);
    if (fi->kind != GM_KIND_UNORM || fi->srgb)
        return false;
    if (fi->block)
        return f == GM_FMT_BC1_RGB || f == GM_FMT_BC1_RGBA || f == GM_FMT_BC2 ||
               f == GM_FMT_BC3 || f == GM_FMT_RGTC1 || f == GM_FMT_RGTC2;
    for (int c = 0; c < fi->channels && c < 4; c++)
        if (fi->bits[c] == 0 || fi->bits[c] > 8)
            return false;
    return true;
}

static bool simple_wrap(uint32_t w)
{
    return w == GL_REPEAT || w == GL_CLAMP_TO_EDGE;
}

static bool filter_linear(uint32_t f)
{
    return f == GL_LINEAR || f == GL_LINEAR_MIPMAP_NEAREST ||
           f == GL_LINEAR_MIPMAP_LINEAR;
}

static int mip_filter_of(uint32_t min_filter)
{
    switch (min_filter) {
    case GL_NEAREST_MIPMAP_NEAREST: case GL_LINEAR_MIPMAP_NEAREST:
        return GM_LP_MIP_NEAREST;
    case GL_NEAREST_MIPMAP_LINEAR: case GL_LINEAR_MIPMAP_LINEAR:
        return GM_LP_MIP_LINEAR;
    default:
        return GM_LP_MIP_NONE;
    }
}

/* What sample_selected decides from the image and the sampler alone: worked out once per
 * request (32 lanes) instead of once per lane, where the format lookups and the filter and
 * wrap tests cost about a third of a lane's sampling (issue 17 §1). */
typedef struct tex_req {
    bool integer;      /* integer texels (or stencil of a depth/stencil image) */
    bool depth;        /* a depth view: apply_view_swizzle broadcasts by the depth mode */
    bool swizzle_id;   /* identity swizzle (apply_swizzle copies) */
    bool min_lin, mag_lin;
    bool aos_format;   /* fits_8unorm, not anisotropic, not a buffer: llvmpipe's AoS path */
} tex_req;

static void tex_req_init(const gm_tex_image *img, const gm_tex_sampler *smp, tex_req *rq)
{
    const gm_format_info *fi = gm_format_get(img->format);
    rq->integer = is_int_format(img->format) ||
                  (img->stencil_mode && fi->kind == GM_KIND_DEPTH_STENCIL);
    rq->depth = depth_view(img);
    const uint8_t *sw = img->swizzle;
    rq->swizzle_id = (sw[0] == 0 && sw[1] == 0 && sw[2] == 0 && sw[3] == 0) ||
                     (sw[0] == 0 && sw[1] == 1 && sw[2] == 2 && sw[3] == 3);
    rq->min_lin = filter_linear(smp->min_filter);
    rq->mag_lin = filter_linear(smp->mag_filter);
    rq->aos_format = fits_8unorm(img->format) && !gm_tex_aniso_on(smp) &&
                     img->target != GM_TEX_BUFFER;
}

/* Texel (x, y, z) of level s as 8-bit unorm (exact for the formats fits_8unorm accepts). */
static void texel8_at(const gm_tex_image *img, const gm_surface *s, int x, int y, int z,
                      uint8_t o[4])
{
    /* Plain 8-bit unorm texels are already the bytes the float round trip below gives
     * (gm_float_to_unorm8(gm_unorm8_to_float(v)) == v for every v, test_format checks it):
     * copy them, missing channels (0, 0, 0, 255). Pure speed: the filtered result is the
     * same; this is the texture path of most sampled frames. */
    switch (s->format) {
    case GM_FMT_RGBA8: case GM_FMT_BGRA8: case GM_FMT_RGB8: case GM_FMT_RG8: case GM_FMT_R8: {
        const uint8_t *p = gm_surface_texel(s, x, y, z);
        switch (s->format) {
        case GM_FMT_RGBA8: memcpy(o, p, 4); return;
        case GM_FMT_BGRA8: o[0] = p[2]; o[1] = p[1]; o[2] = p[0]; o[3] = p[3]; return;
        case GM_FMT_RGB8: o[0] = p[0]; o[1] = p[1]; o[2] = p[2]; o[3] = 255; return;
        case GM_FMT_RG8: o[0] = p[0]; o[1] = p[1]; o[2] = 0; o[3] = 255; return;
        default: o[0] = p[0]; o[1] = 0; o[2] = 0; o[3] = 255; return;
        }
    }
    default:
        break;
    }
    float f[4];
    read_texel(img, s, x, y, z, 0, f);
    for (int ch = 0; ch < 4; ch++)
        o[ch] = gm_float_to_unorm8(f[ch]);
}

/* One texel of the level being filtered as 8-bit unorm. */
static void texel8(const tex_level_ctx *c, const int idx[3], uint8_t o[4])
{
    int nd = dims_of(c->img->target);
    int z = nd == 3 ? idx[2] : c->layer;
    int y = nd >= 2 ? idx[1] : (c->img->target == GM_TEX_1D_ARRAY ? c->layer : 0);
    if (c->img->target == GM_TEX_1D_ARRAY) z = 0;
    texel8_at(c->img, c->s, idx[0], y, z, o);
}

/* The bilinear AoS filter of a 2D level (layer z) over the texels the two axes chose: the
 * four texels, byte lerps of x pairs, then y. */
static void bilinear8(const gm_tex_image *img, const gm_surface *sf, int z, const gm_lp_axis ax[2],
                      uint8_t out[4])
{
    uint8_t v[4][4];
    const size_t ns = (size_t)(sf->samples > 0 ? sf->samples : 1);
    const uint8_t *base = sf->data + (size_t)z * sf->layer_stride;
    const uint8_t *row0 = base + (size_t)ax[1].i0 * sf->row_stride;
    const uint8_t *row1 = base + (size_t)ax[1].i1 * sf->row_stride;
    /* texel8's copies of RGBA8 and RGB8 texels with the two rows addressed once
     * (gm_surface_texel's arithmetic; a 2D level's texel is at (x, y, layer)) */
    if (sf->format == GM_FMT_RGBA8) {
        const size_t x0 = (size_t)ax[0].i0 * 4u * ns, x1 = (size_t)ax[0].i1 * 4u * ns;
        memcpy(v[0], row0 + x0, 4);
        memcpy(v[1], row0 + x1, 4);
        memcpy(v[2], row1 + x0, 4);
        memcpy(v[3], row1 + x1, 4);
    } else if (sf->format == GM_FMT_RGB8) {
        const size_t x0 = (size_t)ax[0].i0 * 3u * ns, x1 = (size_t)ax[0].i1 * 3u * ns;
        const uint8_t *p[4] = {row0 + x0, row0 + x1, row1 + x0, row1 + x1};
        for (int k = 0; k < 4; k++) {
            v[k][0] = p[k][0]; v[k][1] = p[k][1]; v[k][2] = p[k][2]; v[k][3] = 255;
        }
    } else {
        texel8_at(img, sf, ax[0].i0, ax[1].i0, z, v[0]);
        texel8_at(img, sf, ax[0].i1, ax[1].i0, z, v[1]);
        texel8_at(img, sf, ax[0].i0, ax[1].i1, z, v[2]);
        texel8_at(img, sf, ax[0].i1, ax[1].i1, z, v[3]);
    }
    gm_lp_bilerp8(ax[0].w, ax[1].w, (const uint8_t (*)[4])v, out);
}

/* Filter one level the way lp_bld_sample_aos does: 8.8 fixed-point coordinates, 8-bit
 * weights, byte lerps along x, then y, then z. */
static void aos_level(const tex_level_ctx *c, const float uvw[3], bool linear,
                      const int32_t *offset, uint8_t out[4])
{
    int nd = dims_of(c->img->target);
    const uint32_t wraps[3] = {c->smp->wrap_s, c->smp->wrap_t, c->smp->wrap_r};
    const gm_surface *s0 = level0(c->img);
    const int size0[3] = {s0->width, s0->height, s0->depth};
    bool normalized = c->img->target != GM_TEX_RECT;
    gm_lp_axis ax[3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (int d = 0; d < nd; d++) {
        bool repeat = wraps[d] == GL_REPEAT;
        int off = offset ? offset[d] : 0;
        if (linear) {
            gm_lp_axis_linear(uvw[d], c->size[d], is_pot(size0[d]), normalized, repeat, off,
                              &ax[d]);
        } else {
            ax[d].i0 = ax[d].i1 = gm_lp_axis_nearest(uvw[d], c->size[d], is_pot(size0[d]),
                                                     normalized, repeat, off);
        }
    }
    if (!linear) {
        int idx[3] = {ax[0].i0, ax[1].i0, ax[2].i0};
        texel8(c, idx, out);
        return;
    }
    uint8_t v[8][4];
    if (nd == 2) {
        /* The bilinear case of the loops below, unrolled (most sampled texels of a frame):
         * the same four texels and the same byte lerps, x pairs then y. */
        bilinear8(c->img, c->s, c->layer, ax, out);
        return;
    }
    int corners = 1 << nd;
    for (int k = 0; k < corners; k++) {
        int idx[3] = {0, 0, 0};
        for (int d = 0; d < nd; d++)
            idx[d] = (k >> d) & 1 ? ax[d].i1 : ax[d].i0;
        texel8(c, idx, v[k]);
    }
    for (int ch = 0; ch < 4; ch++) {
        uint8_t r[8];
        for (int k = 0; k < corners; k++) r[k] = v[k][ch];
        /* reduce axis by axis: x pairs (k, k|1), then y, then z */
        for (int d = 0, n = corners; d < nd; d++, n >>= 1)
            for (int k = 0; k < n / 2; k++)
                r[k] = gm_lp_lerp8(ax[d].w, r[2 * k], r[2 * k + 1]);
        out[ch] = r[0];
    }
}

/* Everything after LOD selection: face/layer, min or mag filter, one or two levels,
 * llvmpipe's AoS (8-bit) or general (float) filtering. per_lane_lod: the LOD came from an
 * explicit level, a bias or explicit gradients, which llvmpipe keeps per lane; with min !=
 * mag filters it then filters in float (its AoS path only handles per-quad LODs there).
 * nearest_mode 1: this lane's filter is nearest but llvmpipe runs its float path's linear
 * filter for it (others of its vector need linear), with weights snapped to 0 or 1. */
static void sample_selected(const gm_tex_image *img, const gm_tex_sampler *smp,
                            const tex_req *rq, const float coord[4], const gm_lp_lod_sel *sel,
                            bool per_lane_lod, int nearest_mode, float ref, int shadow,
                            const int32_t offset[3], float out[4])
{
    tex_level_ctx c;
    memset(&c, 0, sizeof(c));
    c.img = img; c.smp = smp; c.shadow = shadow; c.ref = ref;
    c.integer = rq->integer;
    float uvw[3] = {coord[0], coord[1], coord[2]};
    int face = 0;
    bool cube = img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY;
    if (cube) {
        float st[2];
        face = gm_lp_cube_lookup(coord, NULL, NULL, st, NULL);
        uvw[0] = st[0]; uvw[1] = st[1];
    }
    int nd = dims_of(img->target);
    int layer = 0;
    if (is_array(img->target)) {
        float l = cube ? coord[3] : coord[nd];
        layer = (int)floorf(l + 0.5f);
    }

    bool min_lin = rq->min_lin, mag_lin = rq->mag_lin;
    bool linear = sel->minified ? min_lin : mag_lin;
    int lv0 = sel->level0, lv1 = sel->level1;
    float mipf = sel->fpart;
    if (!sel->minified && min_lin != mag_lin) {   /* mag filter: one level, no mip */
        lv1 = lv0;
        mipf = 0.0f;
    }
    if (lv0 < 0 || lv0 >= img->num_levels) return;
    if (lv1 < 0 || lv1 >= img->num_levels) lv1 = lv0;

    gm_tex_sampler face_smp;
    if (cube) {
        /* faces are addressed clamped to their edges; seamless linear filtering reaches
         * across them (cube_seamless_linear) */
        face_smp = *smp;
        face_smp.wrap_s = face_smp.wrap_t = GL_CLAMP_TO_EDGE;
        c.smp = &face_smp;
        c.seamless = smp->seamless_cube;
        offset = NULL;
    }
    int wdims = cube ? 2 : nd;
    bool aos = rq->aos_format && !shadow && !c.integer &&
               simple_wrap(c.smp->wrap_s) && (wdims < 2 || simple_wrap(c.smp->wrap_t)) &&
               (wdims < 3 || simple_wrap(c.smp->wrap_r)) &&
               !(cube && smp->seamless_cube && (min_lin || mag_lin)) &&
               (min_lin == mag_lin || !per_lane_lod);
    int w8 = aos ? gm_lp_mip_weight8(mipf) : 0;
    bool two = lv1 != lv0 && (aos ? w8 > 0 : mipf > 0.0f);

    float r0[4], r1[4];
    uint8_t b0[4], b1[4];
    for (int pass = 0; pass < (two ? 2 : 1); pass++) {
        int lv = pass ? lv1 : lv0;
        c.s = &img->level[lv];
        c.size[0] = c.s->width;
        c.size[1] = c.s->height;
        c.size[2] = c.s->depth;
        int nlayers = cube ? c.s->depth / 6 : c.s->depth;
        if (img->target == GM_TEX_1D_ARRAY) nlayers = c.s->height;
        int L = layer < 0 ? 0 : (layer >= nlayers ? nlayers - 1 : layer);
        c.layer = cube ? L * 6 + face : L;
        if (aos)
            aos_level(&c, uvw, linear, offset, pass ? b1 : b0);
        else
            sample_level(&c, uvw, linear, nearest_mode == 1 && !linear, offset,
                         pass ? r1 : r0);
    }
    if (aos) {
        for (int ch = 0; ch < 4; ch++) {
            uint8_t v = two ? gm_lp_lerp8(w8, b0[ch], b1[ch]) : b0[ch];
            r0[ch] = gm_unorm8_to_float(v);
        }
    } else if (two) {
        for (int ch = 0; ch < 4; ch++) r0[ch] = gm_lp_lerpf(mipf, r0[ch], r1[ch]);
    }
    memcpy(out, r0, sizeof(r0));
    if (rq->depth || shadow || !rq->swizzle_id)   /* else apply_view_swizzle only copies */
        apply_view_swizzle(img, out, c.integer, shadow, rq->depth);
}

/* One level's nearest or bilinear sample, swizzled: the anisotropic filter's fallback and
 * probes (gm_texture_aniso.c gets it through gm_tex_aniso_texels). */
static void level_sample(const gm_tex_image *img, const gm_tex_sampler *smp, const float coord[4],
                         int level, bool linear, float ref, bool shadow, const int32_t *offset,
                         float out[4])
{
    gm_tex_sampler s = *smp;
    s.min_filter = s.mag_filter = linear ? GL_LINEAR : GL_NEAREST;
    s.max_anisotropy = 16.0f;   /* keeps llvmpipe's float path: no AoS with anisotropy */
    gm_lp_lod_sel sel = {.minified = true, .level0 = level, .level1 = level, .fpart = 0.0f};
    tex_req rq;
    tex_req_init(img, &s, &rq);
    sample_selected(img, &s, &rq, coord, &sel, false, 0, ref, shadow, offset, out);
}

static bool sample_usable(const gm_tex_image *img)
{
    return img && img->num_levels > 0 && img->base_level < img->num_levels &&
           img->target != GM_TEX_BUFFER && img->target != GM_TEX_2D_MS &&
           img->target != GM_TEX_2D_MS_ARRAY;
}

/* LOD inputs shared by every lane of one request. */
static void lod_in_init(const gm_tex_image *img, const gm_tex_sampler *smp, gm_lp_lod_in *in)
{
    memset(in, 0, sizeof(*in));
    in->sampler_mip = mip_filter_of(smp->min_filter);
    in->first_level = img->base_level;
    in->last_level = last_level(img);
    /* a view with only level 0 samples it without mip filtering */
    in->mip = in->last_level == 0 ? GM_LP_MIP_NONE : in->sampler_mip;
    in->min_eq_mag = filter_linear(smp->min_filter) == filter_linear(smp->mag_filter);
    /* Mesa's state tracker keeps the sampler bias in [-16, 16] at 1/256 steps */
    in->lod_bias = roundf(fminf(fmaxf(smp->lod_bias, -16.0f), 16.0f) * 256.0f) / 256.0f;
    in->min_lod = smp->min_lod;
    in->max_lod = smp->max_lod;
}

void gm_tex_sample_lod(const gm_tex_image *img, const gm_tex_sampler *smp,
                       const float coord[4], float lod, float ref, bool shadow,
                       const int32_t offset[3], float out[4])
{
    gm_tex_sampler defs;
    if (!smp) { gm_tex_sampler_default(&defs); smp = &defs; }
    out[0] = out[1] = out[2] = 0.0f; out[3] = 1.0f;
    if (!sample_usable(img))
        return;
    gm_lp_lod_in in;
    lod_in_init(img, smp, &in);
    in.lod_bias = 0.0f;   /* the caller's lod already includes it */
    in.explicit_lod = true;
    in.lod = img->target == GM_TEX_RECT ? 0.0f : lod;
    gm_lp_lod_sel sel;
    gm_lp_lod_select(&in, &sel);
    tex_req rq;
    tex_req_init(img, smp, &rq);
    sample_selected(img, smp, &rq, coord, &sel, true, 0, ref, shadow ? 1 : 0, offset, out);
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
    apply_view_swizzle(img, out, is_int_format(img->format), 0, depth_view(img));
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

/* Whether lane l's gradients are its 2x2 quad's coordinate differences (implicit LOD, which
 * llvmpipe computes once per quad) rather than textureGrad's explicit ones. The request
 * carries both the same way; the coordinates of every lane of the quad are in it. */
static bool quad_grads(const gm_sample_request *req, int l)
{
    int q = l & ~3;
    int n = req->dim == GM_DIM_1D ? 1 : (req->dim == GM_DIM_3D || req->dim == GM_DIM_CUBE ? 3 : 2);
    for (int k = 0; k < n; k++) {
        const float *c = req->coord.f[k];
        if (req->ddx[k][l] != c[q + 1] - c[q] || req->ddy[k][l] != c[q + 2] - c[q])
            return false;
    }
    return true;
}

/* rho of one lane for llvmpipe's LOD: derivatives scaled by the base level's size (a cube
 * face counts as 2D). */
static float lod_rho(const gm_tex_image *img, const gm_sample_request *req, int l,
                     bool *squared)
{
    const gm_surface *s = &img->level[img->base_level];
    const float size[3] = {(float)s->width, (float)s->height, (float)s->depth};
    int nd = dims_of(img->target);
    if (img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY) nd = 2;
    float dx[3], dy[3];
    for (int c = 0; c < 3; c++) { dx[c] = req->ddx[c][l]; dy[c] = req->ddy[c][l]; }
    return gm_lp_rho(nd, size, dx, dy, squared);
}

/* textureQueryLod for lane l as llvmpipe computes it (lp_build_lod_selector, is_lodq):
 * lod = 0.5 * fast_log2(rho^2) plus the sampler bias is .y (no clamps); .x is it clamped
 * to the sampler's min/max LOD, then by the mip filter: none -> 0, nearest -> rounded
 * (ties to even), both then limited to [0, levels - 1] of the view. */
static void query_lod(const gm_tex_image *img, const gm_tex_sampler *smp,
                      const gm_sample_request *req, int l, float r[4])
{
    gm_lp_lod_in in;
    lod_in_init(img, smp, &in);
    bool squared;
    float rho = lod_rho(img, req, l, &squared);
    if (!squared)
        rho = rho * rho;
    float lod = 0.5f * gm_lp_fast_log2(rho);
    if (in.lod_bias != 0.0f)
        lod += in.lod_bias;
    float cl = fmaxf(fminf(lod, in.max_lod), in.min_lod);
    float maxl = (float)(in.last_level - in.first_level);
    if (in.mip == GM_LP_MIP_NONE)
        cl = 0.0f;
    else if (in.mip == GM_LP_MIP_NEAREST)
        cl = nearbyintf(cl);
    r[0] = fminf(fmaxf(cl, 0.0f), maxl);
    r[1] = lod;
}

/* llvmpipe's LOD selection for lane l: from the (quad) derivatives with its fast log2, or
 * the explicit level; sampler bias and clamps inside. *per_lane: the LOD is per lane in
 * llvmpipe (explicit level, bias or explicit gradients), not per quad. */
static void lane_lod(const gm_tex_image *img, const gm_lp_lod_in *shared,
                     const gm_sample_request *req, int l, gm_lp_lod_sel *sel, bool *per_lane)
{
    gm_lp_lod_in in = *shared; /* lod_in_init of the request's image and sampler */
    if (req->has_min_lod && req->min_lod[l] > in.min_lod)
        in.min_lod = req->min_lod[l];
    if (img->target == GM_TEX_RECT) {
        in.explicit_lod = true;
        in.lod_bias = 0.0f;
    } else if (req->has_grad && (img->target == GM_TEX_CUBE ||
                                 img->target == GM_TEX_CUBE_ARRAY)) {
        /* derivatives of the face coordinates from those of the direction */
        float dir[3], dx[3], dy[3], st[2], dst[2][2];
        for (int c = 0; c < 3; c++) {
            dir[c] = req->coord.f[c][l];
            dx[c] = req->ddx[c][l];
            dy[c] = req->ddy[c][l];
        }
        gm_lp_cube_lookup(dir, dx, dy, st, dst);
        const gm_surface *s = &img->level[img->base_level];
        const float size[3] = {(float)s->width, (float)s->height, 1.0f};
        const float fdx[3] = {dst[0][0], dst[0][1], 0.0f}, fdy[3] = {dst[1][0], dst[1][1], 0.0f};
        in.rho = gm_lp_rho(2, size, fdx, fdy, &in.rho_squared);
        in.has_shader_bias = req->has_bias != 0;
        in.shader_bias = req->has_bias ? req->bias[l] : 0.0f;
    } else if (req->has_grad) {
        in.rho = lod_rho(img, req, l, &in.rho_squared);
        in.has_shader_bias = req->has_bias != 0;
        in.shader_bias = req->has_bias ? req->bias[l] : 0.0f;
    } else {
        in.explicit_lod = true;
        in.lod = (req->has_lod ? req->lod[l] : 0.0f) + (req->has_bias ? req->bias[l] : 0.0f);
    }
    gm_lp_lod_select(&in, sel);
    /* cube maps with a mip filter get per-pixel LODs in llvmpipe */
    bool cube = img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY;
    *per_lane = req->has_lod || req->has_bias || !req->has_grad || !quad_grads(req, l) ||
                (cube && in.mip != GM_LP_MIP_NONE);
}

/* The implicit LOD of a 2D (array) texture sampled with the quad's derivatives and nothing
 * else (no explicit LOD, bias or minimum LOD): the common request. lane_lod then comes down
 * to gm_lp_rho2 of the base level's size and gm_lp_lod_select_rho with a plan made once per
 * request instead of the whole selection per quad; the same arithmetic, so the same bits. */
typedef struct lod_fast {
    bool on;
    float w, h;             /* the base level's size */
    gm_lp_lod_plan plan;
} lod_fast;

static void lod_fast_init(const gm_tex_image *img, const gm_sample_request *req,
                          const gm_lp_lod_in *shared, lod_fast *f)
{
    f->on = req->has_grad && !req->has_lod && !req->has_bias && !req->has_min_lod &&
            (img->target == GM_TEX_2D || img->target == GM_TEX_2D_ARRAY);
    if (!f->on)
        return;
    const gm_surface *s = &img->level[img->base_level];
    f->w = (float)s->width;
    f->h = (float)s->height;
    gm_lp_lod_plan_init(shared, &f->plan);
}

/* lane_lod, through the plan where it applies. */
static inline void lane_lod_planned(const gm_tex_image *img, const gm_lp_lod_in *shared,
                                    const lod_fast *f, const gm_sample_request *req, int l,
                                    gm_lp_lod_sel *sel, bool *per_lane)
{
    if (!f->on) {
        lane_lod(img, shared, req, l, sel, per_lane);
        return;
    }
    float rho = gm_lp_rho2(f->w, f->h, req->ddx[0][l], req->ddx[1][l], req->ddy[0][l],
                           req->ddy[1][l]);
    gm_lp_lod_select_rho(&f->plan, rho, true, false, 0.0f, sel);
    *per_lane = !quad_grads(req, l);
}

/* The bits that differ between lanes a and b of v. */
static uint32_t bits_diff(const float *v, int a, int b)
{
    uint32_t x, y;
    memcpy(&x, &v[a], 4);
    memcpy(&y, &v[b], 4);
    return x ^ y;
}

/* Whether lane b's LOD selection (lane_lod) would read exactly the inputs of lane a of the
 * same quad: the same bits of its gradients, bias, explicit LOD and minimum LOD (quad_grads
 * reads the quad's shared coordinates). Cube maps also read the lane's direction: never the
 * same. Implicit LODs (the quad's coordinate differences) are equal for a whole quad, so one
 * lane_lod per quad instead of per lane; bitwise equality keeps the result identical. */
static bool lod_inputs_equal(const gm_sample_request *req, const gm_tex_image *img, int a, int b)
{
    if (img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY)
        return false;
    uint32_t diff = 0;
    for (int k = 0; k < 3; k++)
        diff |= bits_diff(req->ddx[k], a, b) | bits_diff(req->ddy[k], a, b);
    if (req->has_bias) diff |= bits_diff(req->bias, a, b);
    if (req->has_lod) diff |= bits_diff(req->lod, a, b);
    if (req->has_min_lod) diff |= bits_diff(req->min_lod, a, b);
    return diff == 0;
}

/* lod_inputs_equal of lane `first` and every lane of the 4-bit mask m4 in the quad starting
 * at lane q, four lanes per compare. */
static bool quad_lod_inputs_equal(const gm_sample_request *req, const gm_tex_image *img, int q,
                                  int first, unsigned m4)
{
    if (img->target == GM_TEX_CUBE || img->target == GM_TEX_CUBE_ARRAY)
        return false;
#if defined(__SSE2__)
    const float *v[9];
    int n = 0;
    for (int k = 0; k < 3; k++) {
        v[n++] = req->ddx[k];
        v[n++] = req->ddy[k];
    }
    if (req->has_bias) v[n++] = req->bias;
    if (req->has_lod) v[n++] = req->lod;
    if (req->has_min_lod) v[n++] = req->min_lod;
    unsigned eq = 0xf;
    for (int i = 0; i < n; i++) {
        __m128i lanes = _mm_loadu_si128((const __m128i *)&v[i][q]);
        __m128i one = _mm_castps_si128(_mm_set1_ps(v[i][first]));
        eq &= (unsigned)_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(lanes, one)));
    }
    return (eq & m4) == m4;
#else
    for (int l = first + 1; l < q + 4; l++)
        if (((m4 >> (l - q)) & 1) && !lod_inputs_equal(req, img, first, l))
            return false;
    return true;
#endif
}

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

/* ---- the 2D AoS path per lane ----------------------------------------------------------
 * What sample_selected and aos_level do for a 2D (array) texture that llvmpipe filters with
 * its AoS path (8-bit unorm format, REPEAT / CLAMP_TO_EDGE, no compare): the texture of
 * most sampled frames. The request-wide decisions (format, wraps, the power-of-two sizes
 * of level 0) are taken once per request instead of once per lane and level, and a lane
 * goes straight to its levels' texels; the arithmetic is the same, so the results are
 * identical. */
typedef struct aos2d_req {
    bool on;              /* every lane of the request may take this path */
    bool repeat_s, repeat_t;
    bool pot_s, pot_t;    /* level 0 sizes are powers of two (llvmpipe's repeat arithmetic) */
} aos2d_req;

static void aos2d_init(const gm_tex_image *img, const gm_tex_sampler *smp, const tex_req *rq,
                       const gm_sample_request *req, aos2d_req *f)
{
    memset(f, 0, sizeof(*f));
    f->on = req->op == GM_TEX_SAMPLE && sample_usable(img) && img->target == target_of(req) &&
            (img->target == GM_TEX_2D || img->target == GM_TEX_2D_ARRAY) && rq->aos_format &&
            !rq->integer && !req->shadow && simple_wrap(smp->wrap_s) &&
            simple_wrap(smp->wrap_t);
    if (!f->on)
        return;
    const gm_surface *s0 = level0(img);
    f->repeat_s = smp->wrap_s == GL_REPEAT;
    f->repeat_t = smp->wrap_t == GL_REPEAT;
    f->pot_s = is_pot(s0->width);
    f->pot_t = is_pot(s0->height);
}

/* aos_level for one level (layer z) of a 2D texture. */
static void aos2d_level(const gm_tex_image *img, const aos2d_req *f, const gm_surface *s, int z,
                        const float coord[4], bool linear, const int32_t *offset, uint8_t out[4])
{
    int os = offset ? offset[0] : 0, ot = offset ? offset[1] : 0;
    if (!linear) {
        int x = gm_lp_axis_nearest(coord[0], s->width, f->pot_s, true, f->repeat_s, os);
        int y = gm_lp_axis_nearest(coord[1], s->height, f->pot_t, true, f->repeat_t, ot);
        texel8_at(img, s, x, y, z, out);
        return;
    }
    gm_lp_axis ax[2];
    gm_lp_axis_linear(coord[0], s->width, f->pot_s, true, f->repeat_s, os, &ax[0]);
    gm_lp_axis_linear(coord[1], s->height, f->pot_t, true, f->repeat_t, ot, &ax[1]);
    bilinear8(img, s, z, ax, out);
}

/* What the 2D AoS path takes from a LOD selection: the filter, one or two levels and the
 * 8-bit mip weight (sample_selected's choices for this path). */
typedef struct aos2d_pick {
    bool linear;
    int lv0, lv1, w8;
    bool two;        /* both levels lerped */
    bool level_ok;   /* lv0 exists (else the lane keeps its default texel) */
} aos2d_pick;

/* False when llvmpipe filters the lane in float instead (min != mag filters with a per-lane
 * LOD). */
static inline bool aos2d_pick_levels(const gm_tex_image *img, const tex_req *rq,
                                     const gm_lp_lod_sel *sel, bool per_lane_lod, aos2d_pick *p)
{
    if (rq->min_lin != rq->mag_lin && per_lane_lod)
        return false;
    p->linear = sel->minified ? rq->min_lin : rq->mag_lin;
    int lv0 = sel->level0, lv1 = sel->level1;
    float mipf = sel->fpart;
    if (!sel->minified && rq->min_lin != rq->mag_lin) {   /* mag filter: one level, no mip */
        lv1 = lv0;
        mipf = 0.0f;
    }
    p->level_ok = lv0 >= 0 && lv0 < img->num_levels;
    if (lv1 < 0 || lv1 >= img->num_levels) lv1 = lv0;
    p->lv0 = lv0;
    p->lv1 = lv1;
    p->w8 = gm_lp_mip_weight8(mipf);
    p->two = lv1 != lv0 && p->w8 > 0;
    return true;
}

/* One lane through the 2D AoS path, as sample_selected would filter it; false when this
 * lane takes llvmpipe's float path instead (min != mag filters with a per-lane LOD). */
static bool aos2d_lane(const gm_tex_image *img, const tex_req *rq, const aos2d_req *f,
                       const float coord[4], const gm_lp_lod_sel *sel, bool per_lane_lod,
                       const int32_t *offset, float out[4])
{
    aos2d_pick pk;
    if (!aos2d_pick_levels(img, rq, sel, per_lane_lod, &pk))
        return false;
    if (!pk.level_ok) return true;
    const bool linear = pk.linear, two = pk.two;
    const int lv0 = pk.lv0, lv1 = pk.lv1, w8 = pk.w8;
    int layer = img->target == GM_TEX_2D_ARRAY ? (int)floorf(coord[2] + 0.5f) : 0;
    uint8_t b[2][4];
    for (int pass = 0; pass < (two ? 2 : 1); pass++) {
        const gm_surface *s = &img->level[pass ? lv1 : lv0];
        int L = layer < 0 ? 0 : (layer >= s->depth ? s->depth - 1 : layer);
        aos2d_level(img, f, s, L, coord, linear, offset, b[pass]);
    }
    gm_lp_mip8_to_float(b[0], b[1], two, w8, out);
    if (rq->depth || !rq->swizzle_id)
        apply_view_swizzle(img, out, false, 0, rq->depth);
    return true;
}

/* One level of a quad's lanes as gm_texq_sample reads it; false for texel formats it does not
 * read (anything but RGBA8 and RGB8). */
static bool quad_level(const gm_surface *s, const int layer[4], gm_texq_level *q)
{
    if (s->format != GM_FMT_RGBA8 && s->format != GM_FMT_RGB8)
        return false;
    q->rgb8 = s->format == GM_FMT_RGB8;
    q->texel_stride = (q->rgb8 ? 3u : 4u) * (size_t)(s->samples > 0 ? s->samples : 1);
    q->row_stride = s->row_stride;
    q->width = s->width;
    q->height = s->height;
    for (int k = 0; k < 4; k++) {
        int L = layer[k] < 0 ? 0 : (layer[k] >= s->depth ? s->depth - 1 : layer[k]);
        q->base[k] = s->data + (size_t)L * s->layer_stride;
    }
    q->readable = s->layer_stride * (size_t)s->depth - (size_t)(q->base[0] - s->data);
    gm_texq_level_ready(q);
    return true;
}

/* The levels of a request's 2D (non-array) texture as gm_texq_sample reads them, worked out
 * by the first quad that needs each. */
typedef struct quad_levels {
    uint32_t valid;   /* bit n: lv[n] is set */
    gm_texq_level lv[GM_TEX_MAX_LEVELS];
} quad_levels;

/* The lanes `m4` (a 4-bit mask) of the quad starting at lane q through the 2D AoS path at
 * once (gm_texq_sample), when they share the LOD selection `sel`: aos2d_lane's decisions
 * taken once for the quad, the filtering on four lanes in vector registers, the results
 * written to `out`. Lanes outside m4 are sampled at coordinate 0 and not written. False when
 * the quad must go lane by lane (nothing written): the float path, levels out of range, other
 * texel formats, coordinates outside gm_texq_sample's range. Identical results. */
static bool aos2d_quad(const gm_tex_image *img, const tex_req *rq, const aos2d_req *f,
                       const gm_sample_request *req, int q, unsigned m4,
                       const gm_lp_lod_sel *sel, bool per_lane_lod, quad_levels *cache,
                       gm_texel_out *out)
{
    aos2d_pick pk;
    if (!aos2d_pick_levels(img, rq, sel, per_lane_lod, &pk) || !pk.level_ok)
        return false;
    const bool linear = pk.linear, two = pk.two;
    const int lv0 = pk.lv0, lv1 = pk.lv1, w8 = pk.w8;
    float s[4], t[4];
    int layer[4] = {0, 0, 0, 0};
    for (int k = 0; k < 4; k++) {
        bool on = (m4 >> k) & 1;
        s[k] = on ? flush_denormal(req->coord.f[0][q + k]) : 0.0f;
        t[k] = on ? flush_denormal(req->coord.f[1][q + k]) : 0.0f;
        if (img->target == GM_TEX_2D_ARRAY && on) {
            float z = flush_denormal(req->coord.f[2][q + k]) + 0.5f;
            if (!(fabsf(z) < 1073741824.0f))
                return false;
            layer[k] = (int)floorf(z);
        }
    }
    gm_texq_level own[2];
    const gm_texq_level *lv[2] = {&own[0], &own[1]};
    for (int pass = 0; pass < (two ? 2 : 1); pass++) {
        int level = pass ? lv1 : lv0;
        if (img->target == GM_TEX_2D_ARRAY) {   /* the lanes' own layers */
            if (!quad_level(&img->level[level], layer, &own[pass]))
                return false;
        } else {                                /* layer 0: the same for every quad */
            if (!((cache->valid >> level) & 1)) {
                if (!quad_level(&img->level[level], layer, &cache->lv[level]))
                    return false;
                cache->valid |= 1u << level;
            }
            lv[pass] = &cache->lv[level];
        }
    }
    int32_t os[4] = {0, 0, 0, 0}, ot[4] = {0, 0, 0, 0};
    const bool has_off = req->has_offset == 1;
    if (has_off)
        for (int k = 0; k < 4; k++)
            if ((m4 >> k) & 1) {
                os[k] = req->offset[0][q + k];
                ot[k] = req->offset[1][q + k];
            }
    const gm_texq_addr addr = {f->repeat_s, f->repeat_t, f->pot_s, f->pot_t};
    float r[4][4];
    if (!gm_texq_sample(&addr, lv[0], two ? lv[1] : NULL, w8, linear, s, t,
                        has_off ? os : NULL, has_off ? ot : NULL, r))
        return false;
    if (m4 == 0xf && !rq->depth && rq->swizzle_id) {
        for (int c = 0; c < 4; c++)
            memcpy(&out->f[c][q], r[c], sizeof(r[c]));
        return true;
    }
    for (int k = 0; k < 4; k++) {
        if (!((m4 >> k) & 1))
            continue;
        float v[4] = {r[0][k], r[1][k], r[2][k], r[3][k]};
        if (rq->depth || !rq->swizzle_id)
            apply_view_swizzle(img, v, false, 0, rq->depth);
        for (int c = 0; c < 4; c++)
            out->f[c][q + k] = v[c];
    }
    return true;
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
    /* LOD selection of every lane first: a lane's filtering may depend on its quad's */
    gm_lp_lod_sel sels[GM_LANES];
    bool per_lane[GM_LANES];
    uint32_t split_quads = 0;   /* quads whose lanes did not all share one LOD selection */
    bool min_lin = filter_linear(smp->min_filter), mag_lin = filter_linear(smp->mag_filter);
    tex_req rq = {0};
    aos2d_req fast = {0};
    if (img) {
        tex_req_init(img, smp, &rq);
        aos2d_init(img, smp, &rq, req, &fast);
    }
    if (req->op == GM_TEX_SAMPLE && sample_usable(img)) {
        gm_lp_lod_in shared;
        lod_in_init(img, smp, &shared); /* the same for every lane: once per request */
        lod_fast lf;
        lod_fast_init(img, req, &shared, &lf);
        for (int q = 0; q < GM_LANES; q += 4) {
            unsigned m4 = (unsigned)(req->mask >> q) & 0xfu;
            if (!m4)
                continue;
            int first = q + __builtin_ctz(m4);
            if ((m4 & (m4 - 1)) && quad_lod_inputs_equal(req, img, q, first, m4)) {
                /* every lane would copy the first one's selection below: at once */
                lane_lod_planned(img, &shared, &lf, req, first, &sels[first], &per_lane[first]);
                for (int l = first + 1; l < q + 4; l++) {
                    sels[l] = sels[first];
                    per_lane[l] = per_lane[first];
                }
                continue;
            }
            int done = -1;   /* the last lane of this quad whose LOD was worked out */
            for (int l = first; l < q + 4; l++) {
                if (!((m4 >> (l - q)) & 1))
                    continue;
                if (done >= 0 && lod_inputs_equal(req, img, done, l)) {
                    sels[l] = sels[done];
                    per_lane[l] = per_lane[done];
                    continue;
                }
                if (done >= 0)
                    split_quads |= 1u << (q >> 2);   /* a second selection in this quad */
                lane_lod_planned(img, &shared, &lf, req, l, &sels[l], &per_lane[l]);
                done = l;
            }
        }
    }
    /* the 2D AoS path a quad at a time where the quad's lanes share one selection */
    gm_mask quad_done = 0;
    if (fast.on) {
        quad_levels cache;
        cache.valid = 0;
        for (int q = 0; q < GM_LANES; q += 4) {
            unsigned m4 = (unsigned)(req->mask >> q) & 0xfu;
            if (!m4 || ((split_quads >> (q >> 2)) & 1))
                continue;
            int first = q + __builtin_ctz(m4);
            if (aos2d_quad(img, &rq, &fast, req, q, m4, &sels[first], per_lane[first], &cache,
                           out))
                quad_done |= (gm_mask)m4 << q;
        }
    }
    /* a sampler type that disagrees with the target means an incomplete texture */
    const bool usable = img && img->num_levels > 0 &&
                        (req->op == GM_TEX_QUERY_SIZE || req->op == GM_TEX_QUERY_LEVELS ||
                         req->op == GM_TEX_QUERY_SAMPLES || img->target == target_of(req));
    for (gm_mask todo = req->mask & ~quad_done; todo; todo &= todo - 1) {
        const int l = __builtin_ctz(todo);
        float r[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        bool int_result = req->result_type != GM_TEX_RESULT_FLOAT;
        if (int_result) { uint32_t one = 1; memcpy(&r[3], &one, 4); }
        switch (req->op) {
        case GM_TEX_SAMPLE:
        case GM_TEX_GATHER: {
            if (!usable) break;
            float coord[4] = {0, 0, 0, 0};
            /* llvmpipe samples with denormals flushed (DAZ): a denormal coordinate counts
             * as a zero of its sign (-1e-45 picks texel 0, not the last one) */
            for (int c = 0; c < req->coord_count && c < 4; c++)
                coord[c] = flush_denormal(req->coord.f[c][l]);
            int32_t off[3] = {0, 0, 0};
            if (req->has_offset == 1)
                for (int c = 0; c < 3; c++) off[c] = req->offset[c][l];
            if (req->op == GM_TEX_SAMPLE) {
                if (fast.on && aos2d_lane(img, &rq, &fast, coord, &sels[l], per_lane[l],
                                          req->has_offset ? off : NULL, r)) {
                    /* done: the 2D AoS path */
                } else if (sample_usable(img) && gm_tex_aniso_on(smp) &&
                    gm_tex_aniso_target_modelled(img->target)) {
                    /* anisotropy on: llvmpipe's elliptical filter replaces every other */
                    gm_lp_lod_in in;
                    lod_in_init(img, smp, &in);
                    static const gm_tex_aniso_texels texels = {level_sample, gm_tex_fetch};
                    gm_tex_aniso_lane(&texels, img, smp, &in, req, l, coord,
                                      req->has_offset ? off : NULL, req->dref[l],
                                      req->shadow != 0, r);
                } else if (sample_usable(img)) {
                    /* llvmpipe's float path with min != mag filters and per-quad or
                     * per-lane LODs samples linearly whenever some lane needs it, and
                     * makes the others' weights 0 or 1 (approximated: within the quad) */
                    int q = l & ~3;
                    bool lin_l = sels[l].minified ? min_lin : mag_lin, quad_lin = false;
                    for (int k = q; k < q + 4; k++)
                        if ((req->mask >> k) & 1)
                            quad_lin |= sels[k].minified ? min_lin : mag_lin;
                    int mode = min_lin != mag_lin && !lin_l && quad_lin ? 1 : 0;
                    int shadow = req->shadow ? (req->legacy_shadow ? 2 : 1) : 0;
                    sample_selected(img, smp, &rq, coord, &sels[l], per_lane[l], mode, req->dref[l],
                                    shadow, req->has_offset ? off : NULL, r);
                }
            } else {
                /* gather: the 4 texels of the bilinear footprint at the base level,
                 * order (i0,j1), (i1,j1), (i1,j0), (i0,j0) */
                gm_tex_sampler ns = *smp;
                ns.min_filter = ns.mag_filter = GL_NEAREST;
                const gm_surface *s = &img->level[img->base_level];
                float tu = coord[0] * (float)s->width - 0.5f, tv = coord[1] * (float)s->height - 0.5f;
                float fu = floorf(tu), fv = floorf(tv);
                static const int di[4] = {0, 1, 1, 0}, dj[4] = {1, 1, 0, 0};
                /* textureGatherOffsets: llvmpipe (NIR lower_tg4_offsets) runs one gather per
                 * offset and keeps component 3, texel (i0,j0), of each: texel k is the
                 * footprint's (i0,j0) moved by offset k, not footprint texel k. */
                const bool per_offset = req->has_offset == 2;
                for (int k = 0; k < 4; k++) {
                    int32_t o2[3] = {off[0], off[1], 0};
                    if (per_offset) { o2[0] = req->gather_offsets[k][0]; o2[1] = req->gather_offsets[k][1]; }
                    int fi = per_offset ? 0 : di[k], fj = per_offset ? 0 : dj[k];
                    float cc[4] = {(fu + (float)fi + 0.5f) / (float)s->width,
                                   (fv + (float)fj + 0.5f) / (float)s->height, coord[2], coord[3]};
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
            /* The level argument arrives as a float lane; a value no level can be near (from a
             * debugger's evaluate) must not reach a C cast (undefined): it becomes a level far
             * out of range, which gm_tex_size answers with zeros. */
            float lodf = req->lod[l];
            gm_tex_size(img, lodf > -1024.0f && lodf < 1024.0f ? (int)lodf : INT32_MIN / 2, sz);
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
            query_lod(img, smp, req, l, r);
            break;
        }
        default:
            break;
        }
        for (int c = 0; c < 4; c++) out->f[c][l] = r[c];
    }
}
