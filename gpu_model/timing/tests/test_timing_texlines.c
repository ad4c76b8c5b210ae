/* The texture lines of a request (gm_timing_texcache.c): the four-lane path for 2D requests
 * with derivatives must add exactly the lines, in the same order, of the lane-by-lane path
 * (the cache's hits and misses, and so every latency, follow from that order). Random
 * requests: full and partial quads, zero and non-zero derivatives (levels above 0 through
 * the size callback), coordinates in and out of the texture, NaN and huge values,
 * rectangle textures, power-of-two and other sizes, with and without bias. */
#include "gm_test.h"
#include "gm_timing_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct {
    int32_t w, h, levels;
    int calls;
} fake_sizes;

static int size_of(void *ctx, uint32_t unit, int level, int32_t size[3])
{
    fake_sizes *f = ctx;
    (void)unit;
    f->calls++;
    if (level < 0) {
        size[0] = f->levels;
        return 0;
    }
    size[0] = f->w >> level > 0 ? f->w >> level : 1;
    size[1] = f->h >> level > 0 ? f->h >> level : 1;
    size[2] = 1;
    return 0;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}
static float rndf(float lo, float hi) { return lo + (hi - lo) * (float)(rnd() % 100000) / 100000.0f; }

static float coord(void)
{
    switch (rnd() % 16) {
    case 0: return NAN;
    case 1: return 2e9f;
    case 2: return -3e8f;
    case 3: return (float)(int)(rnd() % 9) * 0.25f; /* texel edges */
    case 4: return -0.0f;
    default: return rndf(-2.5f, 3.5f);
    }
}

int main(void)
{
    static gm_sample_request req;
    static tm_tagset a, b;
    static const int32_t sizes[][2] = {{64, 32}, {256, 256}, {1, 1}, {1, 64}, {4, 4},
                                       {48, 32}, {100, 7}, {2048, 16}};
    long full_quads = 0;
    for (int it = 0; it < 40000; it++) {
        memset(&req, 0, sizeof req);
        req.op = GM_TEX_SAMPLE;
        req.dim = rnd() % 8 == 0 ? GM_DIM_RECT : GM_DIM_2D;
        req.coord_count = 2;
        req.has_grad = 1;
        req.has_bias = rnd() % 8 == 0;
        req.mask = rnd() % 2 ? 0xffffffffu : rnd() & rnd();
        const int zero_grad = rnd() % 4 != 0;
        for (int l = 0; l < GM_LANES; l++) {
            req.coord.f[0][l] = coord();
            req.coord.f[1][l] = coord();
            req.bias[l] = rndf(-2.0f, 2.0f);
            for (int k = 0; k < 3; k++) {
                /* Per quad mostly zero (lit_mesh's case), else small: levels 0 to 6. */
                const int zq = zero_grad && (l / 4) % 3 != 0;
                req.ddx[k][l] = zq ? 0.0f : rndf(-0.05f, 0.05f);
                req.ddy[k][l] = zq ? (rnd() % 2 ? -0.0f : 0.0f) : rndf(-0.05f, 0.05f);
            }
        }
        const int si = (int)(rnd() % (sizeof sizes / sizeof sizes[0]));
        fake_sizes fa = {sizes[si][0], sizes[si][1], 7, 0}, fb = fa;
        tm_tagset_reset(&a);
        tm_tagset_reset(&b);
        tm_tex_lines(&req, 5, size_of, &fa, &a);
        tm_tex_lines_by_lane(&req, 5, size_of, &fb, &b);
        CHECKF(a.count == b.count && a.overflow == b.overflow, "request %d: %d+%d vs %d+%d lines",
               it, a.count, a.overflow, b.count, b.overflow);
        CHECKF(memcmp(a.tags, b.tags, (size_t)b.count * sizeof b.tags[0]) == 0,
               "request %d: different lines or order", it);
        CHECK(fa.calls == fb.calls); /* the same questions to the pipeline */
        for (int q = 0; q < GM_LANES; q += 4)
            full_quads += ((req.mask >> q) & 0xfu) == 0xfu;
        if (gm_test_failures > 5)
            break;
    }
    printf("%ld fully active quads compared\n", full_quads);
    TEST_DONE();
}
