/* test_texture_quad.c - the quad-at-a-time 2D AoS filter (gm_texture_quad.c) against the
 * per-lane arithmetic it replaces:
 *  1. gm_texq_sample on random quads (sizes power-of-two or not, REPEAT / CLAMP_TO_EDGE,
 *     nearest / bilinear, one or two levels, offsets, RGBA8 / RGB8, texel boundaries) against
 *     gm_lp_axis_linear / gm_lp_axis_nearest, gm_lp_bilerp8 and gm_lp_mip8_to_float lane by
 *     lane: bit-identical, and refused only where a value leaves its range;
 *  2. gm_tex_sample_fn with explicit per-quad LODs and random masks (whole and partial quads,
 *     2D and 2D arrays, huge and infinite coordinates that take the per-lane path) against
 *     gm_tex_sample_lod per lane (llvmpipe's general AoS route): bit-identical results, lanes
 *     outside the mask untouched.
 *  3. the implicit LOD of 2D requests through the per-request plan against the general
 *     per-lane selection (test_implicit_lod).
 * All run twice where the CPU has AVX2: with gm_texture_quad.c's gathers and without. */
#include "gm_pipeline.h"
#include "registry/glr_gl_enums.h"   /* GL enum values, generated from gl.xml */
#include "gm_sampler_iface.h"
#include "gm_texture_lp.h"
#include "gm_texture_quad.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

static void fill_random(gm_surface *s, unsigned *seed)
{
    size_t n = s->layer_stride * (size_t)s->depth;
    for (size_t i = 0; i < n; i++)
        s->data[i] = (uint8_t)gm_test_rand(seed);
}

static void reference_lane(const gm_texq_addr *ad, const gm_texq_level lv[2], bool two, int w8,
                           bool linear, int l, float s, float t, int os, int ot, float out[4])
{
    uint8_t b[2][4];
    for (int pass = 0; pass < (two ? 2 : 1); pass++) {
        const gm_texq_level *v = &lv[pass];
        uint8_t tex[4][4];
        gm_lp_axis ax, ay;
        if (linear) {
            gm_lp_axis_linear(s, v->width, ad->pot_s, true, ad->repeat_s, os, &ax);
            gm_lp_axis_linear(t, v->height, ad->pot_t, true, ad->repeat_t, ot, &ay);
        } else {
            ax.i0 = ax.i1 = gm_lp_axis_nearest(s, v->width, ad->pot_s, true, ad->repeat_s, os);
            ay.i0 = ay.i1 = gm_lp_axis_nearest(t, v->height, ad->pot_t, true, ad->repeat_t, ot);
            ax.w = ay.w = 0;
        }
        const int xs[4] = {ax.i0, ax.i1, ax.i0, ax.i1}, ys[4] = {ay.i0, ay.i0, ay.i1, ay.i1};
        for (int k = 0; k < 4; k++) {
            const uint8_t *p = v->base[l] + (size_t)ys[k] * v->row_stride +
                               (size_t)xs[k] * v->texel_stride;
            tex[k][0] = p[0]; tex[k][1] = p[1]; tex[k][2] = p[2];
            tex[k][3] = v->rgb8 ? 255 : p[3];
        }
        if (linear)
            gm_lp_bilerp8(ax.w, ay.w, (const uint8_t (*)[4])tex, b[pass]);
        else
            memcpy(b[pass], tex[0], 4);
    }
    gm_lp_mip8_to_float(b[0], b[1], two, w8, out);
}

static int test_kernel(void)
{
    unsigned seed = 0x5eed18u;
    int sampled = 0, refused = 0, gathered = 0;
    for (int iter = 0; iter < 4000; iter++) {
        const int sizes[] = {1, 2, 3, 4, 5, 7, 8, 16, 17, 32, 64, 100};
        int w0 = sizes[gm_test_rand(&seed) % 12], h0 = sizes[gm_test_rand(&seed) % 12];
        bool rgb8 = gm_test_rand(&seed) & 1;
        gm_surface surf[2];
        gm_format f = rgb8 ? GM_FMT_RGB8 : GM_FMT_RGBA8;
        int w1 = w0 > 1 ? w0 / 2 : 1, h1 = h0 > 1 ? h0 / 2 : 1;
        if (gm_surface_alloc(&surf[0], f, w0, h0, 2, 1) ||
            gm_surface_alloc(&surf[1], f, w1, h1, 2, 1))
            return 1;
        fill_random(&surf[0], &seed);
        fill_random(&surf[1], &seed);
        gm_texq_addr ad = {gm_test_rand(&seed) & 1, gm_test_rand(&seed) & 1,
                           w0 > 0 && (w0 & (w0 - 1)) == 0, h0 > 0 && (h0 & (h0 - 1)) == 0};
        gm_texq_level lv[2];
        for (int k = 0; k < 2; k++) {
            lv[k].row_stride = surf[k].row_stride;
            lv[k].texel_stride = rgb8 ? 3 : 4;
            lv[k].width = surf[k].width;
            lv[k].height = surf[k].height;
            lv[k].rgb8 = rgb8;
            for (int l = 0; l < 4; l++)   /* lanes on either layer */
                lv[k].base[l] = surf[k].data + (size_t)((l + iter) & 1) * surf[k].layer_stride;
            /* the surface's own end: the RGB8 gathers must stop before its last texel */
            lv[k].readable = surf[k].layer_stride * (size_t)surf[k].depth -
                             (size_t)(lv[k].base[0] - surf[k].data);
            gm_texq_level_ready(&lv[k]);
        }
        gathered += lv[0].gather;   /* the gathers' case where the CPU has AVX2 */
        bool two = gm_test_rand(&seed) & 1, linear = gm_test_rand(&seed) % 4 != 0;
        int w8 = (int)(gm_test_rand(&seed) % 256);
        bool has_off = gm_test_rand(&seed) % 3 == 0;
        float s[4], t[4];
        int32_t os[4], ot[4];
        bool huge = false;
        for (int l = 0; l < 4; l++) {
            s[l] = gm_test_rand_coord(&seed, w0);
            t[l] = gm_test_rand_coord(&seed, h0);
            os[l] = has_off ? (int32_t)(gm_test_rand(&seed) % 16) - 8 : 0;
            ot[l] = has_off ? (int32_t)(gm_test_rand(&seed) % 16) - 8 : 0;
        }
        if (iter % 50 == 7) {   /* outside the vector range: refused, the caller goes per lane */
            s[iter % 4] = (iter / 50) % 2 ? INFINITY : 3e9f;
            huge = true;
        }
        float got[4][4];
        memset(got, 0xcd, sizeof(got));
        if (!gm_texq_sample(&ad, &lv[0], two ? &lv[1] : NULL, w8, linear, s, t,
                            has_off ? os : NULL, has_off ? ot : NULL, got)) {
            refused++;
            if (!huge) {
                fprintf(stderr, "iteration %d refused within range\n", iter);
                gm_test_failures++;
            }
        } else {
            sampled++;
            if (huge) {
                fprintf(stderr, "iteration %d sampled a coordinate out of range\n", iter);
                gm_test_failures++;
            }
            for (int l = 0; l < 4; l++) {
                float want[4];
                reference_lane(&ad, lv, two, w8, linear, l, s[l], t[l], os[l], ot[l], want);
                for (int c = 0; c < 4; c++)
                    if (memcmp(&got[c][l], &want[c], 4) != 0 && gm_test_failures < 20) {
                        fprintf(stderr, "iteration %d lane %d channel %d: %.9g, expected %.9g "
                                "(%dx%d %s %s %s %s two=%d w8=%d s=%.9g t=%.9g off=%d,%d)\n",
                                iter, l, c, got[c][l], want[c], w0, h0, rgb8 ? "rgb8" : "rgba8",
                                ad.repeat_s ? "repeat" : "clamp", ad.repeat_t ? "repeat" : "clamp",
                                linear ? "linear" : "nearest", two, w8, s[l], t[l], os[l], ot[l]);
                        gm_test_failures++;
                    }
            }
        }
        gm_surface_free(&surf[0]);
        gm_surface_free(&surf[1]);
    }
    printf("kernel: %d quads sampled, %d refused, %d of them gatherable\n", sampled, refused,
           gathered);
    CHECK(sampled > 3800);
    CHECK(gathered > 3000);
    return 0;
}

/* A 2D (array) image of random texels with its whole mip chain; nonzero on failure. */
static int alloc_mips(gm_tex_image *img, bool array, gm_format f, int w, int h, int layers,
                      unsigned *seed)
{
    memset(img, 0, sizeof(*img));
    img->target = array ? GM_TEX_2D_ARRAY : GM_TEX_2D;
    img->format = f;
    for (int lv = 0; w >> lv || h >> lv; lv++) {
        int lw = w >> lv ? w >> lv : 1, lh = h >> lv ? h >> lv : 1;
        if (gm_surface_alloc(&img->level[lv], f, lw, lh, layers, 1))
            return 1;
        fill_random(&img->level[lv], seed);
        img->num_levels = lv + 1;
    }
    img->max_level = 1000;
    return 0;
}

/* The default sampler with min/mag filters f and random REPEAT / CLAMP_TO_EDGE wraps. */
static void sampler_of(gm_tex_sampler *smp, const uint32_t f[2], unsigned *seed)
{
    gm_tex_sampler_default(smp);
    smp->min_filter = f[0];
    smp->mag_filter = f[1];
    smp->wrap_s = gm_test_rand(seed) & 1 ? GL_REPEAT : GL_CLAMP_TO_EDGE;
    smp->wrap_t = gm_test_rand(seed) & 1 ? GL_REPEAT : GL_CLAMP_TO_EDGE;
}

static void free_mips(gm_tex_image *img)
{
    for (int lv = 0; lv < img->num_levels; lv++)
        gm_surface_free(&img->level[lv]);
}

/* Whether two results differ in a bit, while there is room to print another failure. */
static bool report_differ(const float *got, const float *want)
{
    return memcmp(got, want, 4) != 0 && gm_test_failures < 40;
}

/* Unit 0 with img and smp, and a zeroed 2D (array) sample request on it. */
static void unit0_request(gm_tex_units *units, gm_tex_image *img, gm_tex_sampler *smp,
                          gm_sample_request *req, bool array)
{
    memset(units, 0, sizeof(*units));
    units->unit[0].image = img;
    units->unit[0].sampler = smp;
    memset(req, 0, sizeof(*req));
    req->op = GM_TEX_SAMPLE;
    req->dim = GM_DIM_2D;
    req->arrayed = array;
    req->coord_count = array ? 3 : 2;
}

static int test_requests(void)
{
    unsigned seed = 0x7e418u;
    const uint32_t filters[][2] = {
        {GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR}, {GL_NEAREST_MIPMAP_LINEAR, GL_NEAREST},
        {GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR}, {GL_LINEAR, GL_LINEAR}, {GL_NEAREST, GL_NEAREST},
        {GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST},
    };
    int lanes = 0;
    for (int iter = 0; iter < 600; iter++) {
        gm_tex_image img;
        bool array = iter % 3 == 2, rgb8 = iter % 4 == 1;
        int w = iter % 5 == 0 ? 12 : 16, h = iter % 7 == 0 ? 6 : 8, layers = array ? 3 : 1;
        if (alloc_mips(&img, array, rgb8 ? GM_FMT_RGB8 : GM_FMT_RGBA8, w, h, layers, &seed))
            return 1;
        gm_tex_sampler smp;
        sampler_of(&smp, filters[iter % 6], &seed);
        gm_tex_units units;
        static gm_sample_request req;
        unit0_request(&units, &img, &smp, &req, array);
        req.has_lod = 1;
        req.has_offset = iter % 4 == 3;
        req.mask = (gm_test_rand(&seed) & gm_test_rand(&seed)) | (iter % 2 ? 0xffff0000u : 0);
        for (int l = 0; l < GM_LANES; l++) {
            if ((l & 3) == 0)   /* one LOD per quad, so the quad shares its selection */
                req.lod[l] = gm_test_randf(&seed, -1.5f, 5.0f);
            else
                req.lod[l] = req.lod[l & ~3];
            req.coord.f[0][l] = gm_test_rand_coord(&seed, w);
            req.coord.f[1][l] = gm_test_rand_coord(&seed, h);
            req.coord.f[2][l] = gm_test_randf(&seed, -1.0f, 4.0f);
            if (iter % 10 == 9 && l == 5)
                req.coord.f[0][l] = iter % 20 == 9 ? -INFINITY : 5e9f;   /* the per-lane path */
            for (int c = 0; c < 2; c++)
                req.offset[c][l] = (int32_t)(gm_test_rand(&seed) % 16) - 8;
        }
        static gm_texel_out out;
        memset(&out, 0xab, sizeof(out));
        gm_tex_sample_fn(&units, &req, &out);
        for (int l = 0; l < GM_LANES; l++) {
            if (!((req.mask >> l) & 1)) {
                uint32_t v;
                memcpy(&v, &out.f[0][l], 4);
                CHECK_EQ_INT(v, 0xababababu);
                continue;
            }
            lanes++;
            float coord[4] = {req.coord.f[0][l], req.coord.f[1][l], req.coord.f[2][l], 0.0f};
            int32_t off[3] = {req.offset[0][l], req.offset[1][l], 0};
            float want[4];
            gm_tex_sample_lod(&img, &smp, coord, req.lod[l], 0.0f, false,
                              req.has_offset ? off : NULL, want);
            for (int c = 0; c < 4; c++)
                if (report_differ(&out.f[c][l], &want[c])) {
                    fprintf(stderr, "request %d lane %d channel %d: %.9g, expected %.9g (lod %g, "
                            "s %.9g t %.9g)\n", iter, l, c, out.f[c][l], want[c], req.lod[l],
                            coord[0], coord[1]);
                    gm_test_failures++;
                }
        }
        free_mips(&img);
    }
    printf("requests: %d lanes compared\n", lanes);
    CHECK(lanes > 3000);
    return 0;
}

/* 3. The implicit LOD of 2D requests (the quad's derivatives, no explicit LOD, bias or minimum
 * LOD: gm_texture.c's planned selection) against the general selection (lane_lod), which the
 * same request takes when it carries a minimum LOD below the sampler's (it changes nothing
 * else): random sampler LOD states, base levels, mip filters, quad derivatives scaled per quad
 * and explicit gradients; bit-identical results. */
static int test_implicit_lod(void)
{
    unsigned seed = 0x10d5u;
    const uint32_t filters[][2] = {
        {GL_LINEAR_MIPMAP_LINEAR, GL_LINEAR}, {GL_NEAREST_MIPMAP_LINEAR, GL_NEAREST},
        {GL_LINEAR_MIPMAP_NEAREST, GL_LINEAR}, {GL_LINEAR, GL_LINEAR}, {GL_NEAREST, GL_NEAREST},
        {GL_NEAREST_MIPMAP_NEAREST, GL_NEAREST}, {GL_LINEAR_MIPMAP_LINEAR, GL_NEAREST},
        {GL_NEAREST, GL_LINEAR},
    };
    int lanes = 0;
    for (int iter = 0; iter < 800; iter++) {
        gm_tex_image img;
        bool array = iter % 3 == 2;
        int w = iter % 5 == 0 ? 24 : 32, h = iter % 7 == 0 ? 10 : 16, layers = array ? 2 : 1;
        if (alloc_mips(&img, array, GM_FMT_RGBA8, w, h, layers, &seed))
            return 1;
        img.base_level = iter % 4 == 1 ? 1 : 0;
        img.max_level = iter % 6 == 5 ? 2 : 1000;
        gm_tex_sampler smp;
        sampler_of(&smp, filters[iter % 8], &seed);
        switch (gm_test_rand(&seed) % 5) {   /* the sampler's LOD state */
        case 1: smp.min_lod = gm_test_randf(&seed, -1.0f, 3.0f); break;
        case 2: smp.max_lod = gm_test_randf(&seed, -1.0f, 3.0f); break;
        case 3: smp.lod_bias = gm_test_randf(&seed, -2.0f, 2.0f); break;
        case 4: smp.min_lod = smp.max_lod = gm_test_randf(&seed, 0.0f, 3.0f); break;
        default: break;
        }
        gm_tex_units units;
        static gm_sample_request req;
        unit0_request(&units, &img, &smp, &req, array);
        req.has_grad = 1;
        req.mask = (gm_test_rand(&seed) | gm_test_rand(&seed)) & (iter % 2 ? 0xffffffffu : 0xffffu);
        const bool explicit_grads = iter % 9 == 4;
        for (int q = 0; q < GM_LANES; q += 4) {
            /* a per-quad footprint from magnified to well minified, sometimes anisotropic */
            float sx = gm_test_randf(&seed, 0.01f, 2.0f) / (float)w;
            float sy = gm_test_randf(&seed, 0.01f, 2.0f) / (float)h;
            float s0 = gm_test_randf(&seed, -1.0f, 2.0f), t0 = gm_test_randf(&seed, -1.0f, 2.0f);
            for (int k = 0; k < 4; k++) {
                req.coord.f[0][q + k] = s0 + (float)(k & 1) * sx;
                req.coord.f[1][q + k] = t0 + (float)(k >> 1) * sy * (iter % 4 == 2 ? 0.2f : 1.0f);
                req.coord.f[2][q + k] = gm_test_randf(&seed, -0.5f, 1.5f);
            }
            for (int k = 0; k < 4; k++)
                for (int c = 0; c < 2; c++) {
                    const float *v = req.coord.f[c];
                    req.ddx[c][q + k] = explicit_grads ? gm_test_randf(&seed, -0.3f, 0.3f)
                                                       : v[q + 1] - v[q];
                    req.ddy[c][q + k] = explicit_grads ? gm_test_randf(&seed, -0.3f, 0.3f)
                                                       : v[q + 2] - v[q];
                }
        }
        static gm_texel_out got, want;
        memset(&got, 0xab, sizeof(got));
        memset(&want, 0xab, sizeof(want));
        gm_tex_sample_fn(&units, &req, &got);
        req.has_min_lod = 1;   /* below the sampler's: the general selection, same result */
        for (int l = 0; l < GM_LANES; l++)
            req.min_lod[l] = -2000.0f;
        gm_tex_sample_fn(&units, &req, &want);
        for (int l = 0; l < GM_LANES; l++) {
            lanes += (req.mask >> l) & 1;
            for (int c = 0; c < 4; c++)
                if (report_differ(&got.f[c][l], &want.f[c][l])) {
                    fprintf(stderr, "implicit LOD %d lane %d channel %d: %.9g, expected %.9g "
                            "(filters %d, min %g max %g bias %g, base %d)\n", iter, l, c,
                            got.f[c][l], want.f[c][l], iter % 8, smp.min_lod, smp.max_lod,
                            smp.lod_bias, img.base_level);
                    gm_test_failures++;
                }
        }
        free_mips(&img);
    }
    printf("implicit LOD: %d lanes compared\n", lanes);
    CHECK(lanes > 10000);
    return 0;
}

int main(void)
{
    /* every case through the AVX2 gathers (where the CPU has them) and through SSE2 */
    const bool avx2 = gm_texq_use_avx2(true);
    printf("AVX2 gathers: %s\n", avx2 ? "yes" : "not on this CPU");
    for (int pass = 0; pass < (avx2 ? 2 : 1); pass++) {
        gm_texq_use_avx2(pass == 0);
        if (test_kernel() || test_requests() || test_implicit_lod())
            return 1;
    }
    TEST_DONE();
}
