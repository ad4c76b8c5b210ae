/* Texture cache model: which cache lines (4x4 texel blocks of one level of one texture)
 * a sampler request touches, and a set-associative LRU cache per SM. Addresses are
 * derived from the exact request the executor sent to the pipeline (coordinates after
 * the projective divide, explicit lod or the quad derivatives), with texture sizes asked
 * from the pipeline through the same sampler callback (GM_TEX_QUERY_SIZE/LEVELS). */
#include "gm_timing_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int tm_cache_init(tm_cache *c, int lines, int ways)
{
    memset(c, 0, sizeof *c);
    c->ways = ways;
    c->sets = lines / ways;
    c->tag = calloc((size_t)lines, sizeof *c->tag);
    c->stamp = calloc((size_t)lines, sizeof *c->stamp);
    return c->tag && c->stamp ? 0 : -1;
}

void tm_cache_free(tm_cache *c)
{
    free(c->tag);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

/* Set index from the tag: a fixed mixing function (no seed: deterministic). */
static uint32_t set_of(uint64_t tag, int sets)
{
    tag ^= tag >> 29;
    tag *= 0xbf58476d1ce4e5b9ull;
    tag ^= tag >> 32;
    return (uint32_t)tag & (uint32_t)(sets - 1);
}

int tm_cache_access(tm_cache *c, uint64_t tag)
{
    uint64_t *tags = c->tag + (size_t)set_of(tag, c->sets) * (size_t)c->ways;
    uint64_t *stamps = c->stamp + (tags - c->tag);
    c->clock++;
    int victim = 0;
    for (int w = 0; w < c->ways; w++) {
        if (tags[w] == tag) {
            stamps[w] = c->clock;
            return 1;
        }
        if (stamps[w] < stamps[victim])
            victim = w;
    }
    tags[victim] = tag;
    stamps[victim] = c->clock;
    return 0;
}

void tm_tagset_reset(tm_tagset *s)
{
    s->count = 0;
    s->overflow = 0;
    if (++s->gen == 0) {
        memset(s->stamp, 0, sizeof s->stamp);
        s->gen = 1;
    }
}

/* Adds a line once; 1 when it is in the set afterwards, 0 when the set was full. */
static int tagset_add(tm_tagset *s, uint64_t tag)
{
    uint32_t h = set_of(tag, 1024);
    for (;;) {
        if (s->stamp[h] != s->gen) {
            if (s->count >= TM_MAX_TAGS) {
                s->overflow++;
                return 0;
            }
            s->stamp[h] = s->gen;
            s->slot[h] = (uint16_t)s->count;
            s->tags[s->count++] = tag;
            return 1;
        }
        if (s->tags[s->slot[h]] == tag)
            return 1;
        h = (h + 1) & 1023;
    }
}

/* Adds a line unless it is `last`, the last line known to be in the set (neighbouring
 * texels and lanes mostly touch the same line; adding it again would change nothing). */
static inline void add_line(tm_tagset *s, uint64_t tag, uint64_t *last)
{
    if (tag != *last)
        *last = tagset_add(s, tag) ? tag : 0;
}

/* A line: bit 63 set so no tag is 0 (the invalid marker). */
static uint64_t make_tag(uint32_t tex, int level, int32_t z, int32_t bx, int32_t by)
{
    return (1ull << 63) | ((uint64_t)(tex & 0x7fff) << 48) | ((uint64_t)(level & 0xf) << 44) |
           ((uint64_t)((uint32_t)z & 0xfff) << 32) | ((uint64_t)((uint32_t)by & 0xffff) << 16) |
           (uint64_t)((uint32_t)bx & 0xffff);
}

static int32_t wrap(int32_t v, int32_t size)
{
    if (size <= 0)
        return 0;
    if (v >= 0 && v < size)
        return v; /* the common case, without a division */
    if ((size & (size - 1)) == 0)
        return v & (size - 1); /* the same as below for a power of two (two's complement) */
    v %= size;
    return v < 0 ? v + size : v;
}

/* (int32_t)floorf(f) for |f| <= 1e8 (the caller's range) without the libm call: the
 * truncation is exact there, and one less when it rounded a negative value up. */
static int32_t floor_i32(float f)
{
    int32_t i = (int32_t)f;
    return (float)i > f ? i - 1 : i;
}

static int dims_of(gm_tex_dim d)
{
    switch (d) {
    case GM_DIM_1D: case GM_DIM_BUFFER: return 1;
    case GM_DIM_3D: case GM_DIM_CUBE: return 3;
    default: return 2;
    }
}

/* The lines of every active lane. Inline into tm_tex_lines twice: once with the common
 * request's properties as constants (the compiler drops the branches of the others), once
 * with the request's own; the same code, so the same tags in the same order. */
static inline __attribute__((always_inline)) void lane_lines(
    const gm_sample_request *req, uint32_t tex, tm_size_fn size_fn, void *ctx, tm_tagset *out,
    const int32_t base[3], const int32_t levels[3], const int dims, const int fetch,
    const int has_lod, const int has_grad, const int cube, const int layered, const int offset,
    const int l_begin, const int l_end, uint64_t *last_io)
{
    /* The last line known to be in the set: neighbouring texels and lanes mostly touch
     * the same line, and adding it again would change nothing (0: no tag is 0). */
    uint64_t last = *last_io;
    for (int l = l_begin; l < l_end; l++) {
        if (!((req->mask >> l) & 1))
            continue;
        /* Level: explicit, or from the derivatives (isotropic), nearest level. */
        int level = 0;
        if (fetch) {
            level = has_lod ? (int)req->lod[l] : 0;
        } else {
            float lambda = 0.0f;
            if (has_lod) {
                lambda = req->lod[l];
            } else if (has_grad) {
                float rx = 0.0f, ry = 0.0f;
                for (int k = 0; k < dims && k < 3; k++) {
                    float sx = req->ddx[k][l] * (float)base[k], sy = req->ddy[k][l] * (float)base[k];
                    rx += sx * sx;
                    ry += sy * sy;
                }
                float rho2 = rx > ry ? rx : ry;
                lambda = rho2 > 0.0f ? 0.5f * log2f(rho2) : -100.0f;
            }
            if (req->has_bias)
                lambda += req->bias[l];
            if (lambda == lambda && lambda > 0.0f)
                level = (int)(lambda + 0.5f);
        }
        if (level < 0)
            level = 0;
        if (level > levels[0] - 1)
            level = levels[0] - 1;
        int32_t sz[3] = {1, 1, 1};
        if (level == 0)
            memcpy(sz, base, sizeof sz);
        else if (size_fn(ctx, req->unit, level, sz) != 0)
            continue;
        for (int k = 0; k < 3; k++)
            if (sz[k] < 1)
                sz[k] = 1;
        /* Texel coordinates of the footprint corner. */
        int32_t x = 0, y = 0, z = 0;
        int span = fetch ? 1 : 2; /* bilinear / gather: 2x2 texels */
        if (fetch) {
            x = req->coord.i[0][l];
            y = dims > 1 ? req->coord.i[1][l] : 0;
            z = dims > 2 ? req->coord.i[2][l] : req->arrayed ? req->coord.i[dims][l] : 0;
        } else {
            float c[3] = {req->coord.f[0][l], dims > 1 ? req->coord.f[1][l] : 0.0f,
                          dims > 2 ? req->coord.f[2][l] : 0.0f};
            float layer = layered ? req->coord.f[dims][l] : 0.0f;
            if (cube) {
                /* Face by major axis; the two other coordinates map to the face. */
                float a[3] = {fabsf(c[0]), fabsf(c[1]), fabsf(c[2])};
                int ax = a[0] >= a[1] && a[0] >= a[2] ? 0 : a[1] >= a[2] ? 1 : 2;
                float ma = a[ax] > 0.0f ? a[ax] : 1.0f;
                float s = c[(ax + 1) % 3] / ma, t = c[(ax + 2) % 3] / ma;
                z = (ax * 2 + (c[ax] < 0.0f)) + 6 * (int32_t)(layer + 0.5f);
                c[0] = 0.5f * (s + 1.0f);
                c[1] = 0.5f * (t + 1.0f);
            } else if (dims == 3) {
                z = (int32_t)floorf(c[2] * (float)sz[2]);
            } else {
                z = (int32_t)(layer + 0.5f);
            }
            int rect = req->dim == GM_DIM_RECT;
            float fx = rect ? c[0] : c[0] * (float)sz[0] - 0.5f;
            float fy = rect ? c[1] : c[1] * (float)sz[1] - 0.5f;
            if (!(fx == fx) || fx > 1e8f || fx < -1e8f)
                fx = 0.0f;
            if (!(fy == fy) || fy > 1e8f || fy < -1e8f)
                fy = 0.0f;
            x = floor_i32(fx);
            y = dims > 1 ? floor_i32(fy) : 0;
        }
        if (offset) {
            x += req->offset[0][l];
            if (dims > 1)
                y += req->offset[1][l];
        }
        /* The footprint's columns and rows wrapped once each (not once per texel), and the
         * tag's texture, level and layer bits once per lane: the same tags, same order. */
        const int rows = dims > 1 ? span : 1;
        const uint64_t lane_tag = make_tag(tex, level, z, 0, 0);
        uint64_t col[2], row[2];
        for (int d = 0; d < span; d++)
            col[d] = (uint64_t)((uint32_t)(wrap(x + d, sz[0]) >> 2) & 0xffff);
        for (int d = 0; d < rows; d++)
            row[d] = (uint64_t)((uint32_t)(wrap(y + d, sz[1]) >> 2) & 0xffff) << 16;
        if (rows == 2 && span == 2) { /* 2D bilinear, the common footprint: unrolled */
            add_line(out, lane_tag | row[0] | col[0], &last);
            add_line(out, lane_tag | row[0] | col[1], &last);
            add_line(out, lane_tag | row[1] | col[0], &last);
            add_line(out, lane_tag | row[1] | col[1], &last);
        } else {
            for (int dy = 0; dy < rows; dy++)
                for (int dx = 0; dx < span; dx++)
                    add_line(out, lane_tag | row[dy] | col[dx], &last);
        }
    }
    *last_io = last;
}

/* Four lanes (one 2x2 quad) at a time, for the common request of quad_lines_2d. */
typedef float tm_v4f __attribute__((vector_size(16)));
typedef int32_t tm_v4i __attribute__((vector_size(16)));

static inline tm_v4f load4f(const float *p)
{
    tm_v4f v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* floor_i32 of four values, each in [-1e8, 1e8]: the same truncation and correction. */
static inline tm_v4i floor4(tm_v4f f)
{
    const tm_v4i i = __builtin_convertvector(f, tm_v4i);
    return i + (tm_v4i)(__builtin_convertvector(i, tm_v4f) > f); /* -1 where it rounded up */
}

/* fx's rule of lane_lines: NaN and values beyond +-1e8 become 0. */
static inline tm_v4f clamp_coord4(tm_v4f f)
{
    const tm_v4i keep = (f == f) & (f <= 1e8f) & (f >= -1e8f);
    return (tm_v4f)((tm_v4i)f & keep);
}

/* A 2D texture sampled with derivatives, no bias, power-of-two level-0 sizes (the
 * fragment shaders' texture()): lane_lines with those properties, four lanes of a fully
 * active quad at once when none of them selects a level above 0 (then the level, the size
 * and the tag's texture/level/layer bits are the same for all four: a level-0 lane asks
 * size_fn nothing). Other quads, and quads with a lane on a higher level, go through
 * lane_lines lane by lane. The lines are added in the same order, lane by lane, so the
 * tag set is the same; each vector operation is the scalar one per lane (IEEE single
 * multiply and subtract, truncating conversion, compares), so every value is too. */
static void quad_lines_2d(const gm_sample_request *req, uint32_t tex, tm_size_fn size_fn,
                          void *ctx, tm_tagset *out, const int32_t base[3],
                          const int32_t levels[3])
{
    const int32_t sz0 = base[0] < 1 ? 1 : base[0], sz1 = base[1] < 1 ? 1 : base[1];
    const float b0 = (float)base[0], b1 = (float)base[1];
    const float s0 = (float)sz0, s1 = (float)sz1;
    const int rect = req->dim == GM_DIM_RECT;
    const uint64_t lane_tag = make_tag(tex, 0, 0, 0, 0);
    uint64_t last = 0;
    for (int q = 0; q < GM_LANES; q += 4) {
        const unsigned qm = (unsigned)(req->mask >> q) & 0xfu;
        if (!qm)
            continue;
        if (qm == 0xfu) {
            /* lambda's derivative part, as lane_lines computes it for dims 2. */
            const tm_v4f sx0 = load4f(&req->ddx[0][q]) * b0, sy0 = load4f(&req->ddy[0][q]) * b0;
            const tm_v4f sx1 = load4f(&req->ddx[1][q]) * b1, sy1 = load4f(&req->ddy[1][q]) * b1;
            const tm_v4f zero = {0.0f, 0.0f, 0.0f, 0.0f};
            const tm_v4f rx = (zero + sx0 * sx0) + sx1 * sx1;
            const tm_v4f ry = (zero + sy0 * sy0) + sy1 * sy1;
            const tm_v4i gt = rx > ry;
            const tm_v4f rho2 = (tm_v4f)(((tm_v4i)rx & gt) | ((tm_v4i)ry & ~gt));
            /* rho2 > 0 gives 0.5 log2(rho2), maybe a level above 0: lane by lane. Otherwise
             * lambda is -100 (no bias here): level 0. */
            const tm_v4i up = rho2 > zero;
            if (!(up[0] | up[1] | up[2] | up[3])) {
                const tm_v4f c0 = load4f(&req->coord.f[0][q]), c1 = load4f(&req->coord.f[1][q]);
                const tm_v4f fx = clamp_coord4(rect ? c0 : c0 * s0 - 0.5f);
                const tm_v4f fy = clamp_coord4(rect ? c1 : c1 * s1 - 0.5f);
                const tm_v4i x = floor4(fx), y = floor4(fy);
                /* wrap() of a power-of-two size is v & (size - 1) for every v. */
                const tm_v4i c0i = ((x & (sz0 - 1)) >> 2) & 0xffff;
                const tm_v4i c1i = (((x + 1) & (sz0 - 1)) >> 2) & 0xffff;
                const tm_v4i r0i = ((y & (sz1 - 1)) >> 2) & 0xffff;
                const tm_v4i r1i = (((y + 1) & (sz1 - 1)) >> 2) & 0xffff;
                for (int k = 0; k < 4; k++) {
                    const uint64_t col0 = (uint64_t)(uint32_t)c0i[k];
                    const uint64_t col1 = (uint64_t)(uint32_t)c1i[k];
                    const uint64_t row0 = (uint64_t)(uint32_t)r0i[k] << 16;
                    const uint64_t row1 = (uint64_t)(uint32_t)r1i[k] << 16;
                    add_line(out, lane_tag | row0 | col0, &last);
                    add_line(out, lane_tag | row0 | col1, &last);
                    add_line(out, lane_tag | row1 | col0, &last);
                    add_line(out, lane_tag | row1 | col1, &last);
                }
                continue;
            }
        }
        lane_lines(req, tex, size_fn, ctx, out, base, levels, 2, 0, 0, 1, 0, 0, 0, q, q + 4,
                   &last);
    }
}

static void tex_lines(const gm_sample_request *req, uint32_t tex, tm_size_fn size_fn, void *ctx,
                      tm_tagset *out, const int by_lane)
{
    const int dims = dims_of(req->dim);
    const int fetch = req->op == GM_TEX_FETCH;
    int32_t base[3] = {1, 1, 1}, levels[3] = {1, 0, 0};
    if (size_fn(ctx, req->unit, 0, base) != 0)
        return;
    if (size_fn(ctx, req->unit, -1, levels) != 0 || levels[0] < 1)
        levels[0] = 1;
    const int has_lod = req->has_lod, has_grad = req->has_grad, cube = req->dim == GM_DIM_CUBE;
    const int layered = req->arrayed && req->coord_count > dims, offset = req->has_offset == 1;
    uint64_t last = 0;
    if (dims == 2 && !fetch && !has_lod && has_grad && !cube && !layered && !offset) {
        /* A 2D texture sampled with derivatives (fragment shaders' texture()). */
        const int32_t w = base[0] < 1 ? 1 : base[0], h = base[1] < 1 ? 1 : base[1];
        if (!by_lane && !req->has_bias && (w & (w - 1)) == 0 && (h & (h - 1)) == 0)
            quad_lines_2d(req, tex, size_fn, ctx, out, base, levels);
        else
            lane_lines(req, tex, size_fn, ctx, out, base, levels, 2, 0, 0, 1, 0, 0, 0, 0,
                       GM_LANES, &last);
    } else {
        lane_lines(req, tex, size_fn, ctx, out, base, levels, dims, fetch, has_lod, has_grad,
                   cube, layered, offset, 0, GM_LANES, &last);
    }
}

void tm_tex_lines(const gm_sample_request *req, uint32_t tex, tm_size_fn size_fn, void *ctx,
                  tm_tagset *out)
{
    tex_lines(req, tex, size_fn, ctx, out, 0);
}

void tm_tex_lines_by_lane(const gm_sample_request *req, uint32_t tex, tm_size_fn size_fn,
                          void *ctx, tm_tagset *out)
{
    tex_lines(req, tex, size_fn, ctx, out, 1);
}
