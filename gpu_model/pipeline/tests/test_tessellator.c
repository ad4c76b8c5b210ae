/* test_tessellator.c - the tessellator's domain points and connectivity for a few level /
 * spacing combinations. Every expected value below was worked out by hand from the D3D11
 * reference tessellator's rules (16.16 fixed point, round-half-even conversion, the
 * half-edge context, point placement and ring stitching) that llvmpipe follows; the
 * derivations are in the comments, so a change of rule shows up as a wrong number here. */
#include "gm_tessellator.h"
#include "gm_test.h"

#include <math.h>
#include <stdlib.h>

static gm_tess_out *o;

#define PT(i, eu, ev) do { CHECK((i) < o->n_points); \
    if ((float)(eu) != o->u[i] || (float)(ev) != o->v[i]) { \
        fprintf(stderr, "%s:%d: point %d = (%.9g, %.9g), expected (%.9g, %.9g)\n", __FILE__, \
                __LINE__, (i), (double)o->u[i], (double)o->v[i], (double)(eu), (double)(ev)); \
        gm_test_failures++; } } while (0)

static void check_indices(const int *want, int n)
{
    CHECK_EQ_INT(o->n_indices, n);
    for (int i = 0; i < n && i < o->n_indices; i++)
        if (o->idx[i] != want[i]) {
            fprintf(stderr, "index %d = %d, expected %d\n", i, o->idx[i], want[i]);
            gm_test_failures++;
        }
}

int main(void)
{
    o = malloc(sizeof *o);
    if (!o)
        return 1;
    const float ones[4] = { 1, 1, 1, 1 }, one2[2] = { 1, 1 };

    /* every level 1, equal spacing: the patch itself. The rules build clockwise triangles
     * (a, b, c) in their own domain, whose handedness is GL's mirror: GLSL's ccw keeps them
     * as they are, cw stores (a, c, b) (llvmpipe passes the inverted order) */
    gm_tessellate(o, GM_TESS_TRIANGLES, GM_TESS_EQUAL, true, false, ones, one2);
    CHECK_EQ_INT(o->n_points, 3);
    PT(0, 0, 1);
    PT(1, 0, 0);
    PT(2, 1, 0);
    check_indices((const int[]){ 0, 2, 1 }, 3);

    gm_tessellate(o, GM_TESS_QUADS, GM_TESS_EQUAL, false, false, ones, one2);
    CHECK_EQ_INT(o->n_points, 4);
    PT(0, 0, 0);
    PT(1, 1, 0);
    PT(2, 1, 1);
    PT(3, 0, 1);
    check_indices((const int[]){ 0, 1, 3, 1, 2, 3 }, 6);

    /* triangles, equal spacing, all levels 2: each edge has 3 points (half context: one
     * point per half, midpoint 1/2), 6 on the outer ring, the inner level 2 leaves only the
     * centre (1/3 in 16.16: 0x5555). The first ring stitches each edge's two segments to
     * the centre; the last edge wraps to the ring's first point. GLSL ccw: */
    const float two[4] = { 2, 2, 2, 2 }, two2[2] = { 2, 2 };
    gm_tessellate(o, GM_TESS_TRIANGLES, GM_TESS_EQUAL, false, false, two, two2);
    CHECK_EQ_INT(o->n_points, 7);
    PT(0, 0, 1);
    PT(1, 0, 0.5f);
    PT(2, 0, 0);
    PT(3, 0.5f, 0);
    PT(4, 1, 0);
    PT(5, 0.5f, 0.5f);
    PT(6, 21845.0f / 65536.0f, 21845.0f / 65536.0f);
    check_indices((const int[]){ 0, 1, 6, 1, 2, 6, 2, 3, 6, 3, 4, 6, 4, 5, 6, 5, 0, 6 }, 18);
    /* point_mode: every point once, in order */
    gm_tessellate(o, GM_TESS_TRIANGLES, GM_TESS_EQUAL, false, true, two, two2);
    check_indices((const int[]){ 0, 1, 2, 3, 4, 5, 6 }, 7);

    /* triangles, fractional_even, levels 3: half level 1.5 lies between 1 and 2 (fraction
     * 1/2), segments 1/2 and 1/4: point 1 at (1/2 * 1/2 + 1/4 * 1/2) = 0.375, point 2 the
     * midpoint, the rest mirrored; 5 points per edge, 12 on the ring, 7 inside (one ring of
     * 6 and the centre). Inner ring 1 sits at 2/3 of 0.375 = 0.25 (0x6000 * 0xaaaa rounded),
     * its edge-0 points at 0.625 - 0.125 and 0.5 - 0.125. */
    const float three[4] = { 3, 3, 3, 3 }, three2[2] = { 3, 3 };
    gm_tessellate(o, GM_TESS_TRIANGLES, GM_TESS_FRACTIONAL_EVEN, false, false, three, three2);
    CHECK_EQ_INT(o->n_points, 19);
    PT(0, 0, 1);
    PT(1, 0, 0.625f);
    PT(2, 0, 0.5f);
    PT(3, 0, 0.375f);
    PT(4, 0, 0);
    PT(5, 0.375f, 0);
    PT(12, 0.25f, 0.5f);
    PT(13, 0.25f, 0.375f);
    PT(18, 21845.0f / 65536.0f, 21845.0f / 65536.0f);
    CHECK(o->n_indices % 3 == 0 && o->n_indices > 0);
    for (int i = 0; i < o->n_indices; i++)
        CHECK(o->idx[i] >= 0 && o->idx[i] < o->n_points);

    /* isolines, equal spacing, density 2 and detail 3: 2 lines (v = 0 and 1/2; none at
     * v = 1), 4 points per line; odd level 3: segments of 1/3 in 16.16 (0x5555), the far
     * half mirrored (1 - 0x5555 = 0xaaab) */
    const float iso[4] = { 2, 3, 0, 0 };
    gm_tessellate(o, GM_TESS_ISOLINES, GM_TESS_EQUAL, false, false, iso, one2);
    CHECK_EQ_INT(o->n_points, 8);
    PT(0, 0, 0);
    PT(1, 21845.0f / 65536.0f, 0);
    PT(2, 43691.0f / 65536.0f, 0);
    PT(3, 1, 0);
    PT(4, 0, 0.5f);
    PT(7, 1, 0.5f);
    check_indices((const int[]){ 0, 1, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7 }, 12);

    /* fractional_odd, levels 1.0 everywhere: the patch itself again */
    gm_tessellate(o, GM_TESS_QUADS, GM_TESS_FRACTIONAL_ODD, false, false, ones, one2);
    CHECK_EQ_INT(o->n_points, 4);
    /* fractional_even clamps 1.0 up to 2: a quad of levels 2 has 8 ring points and the
     * centre (the degenerate middle row of one point) */
    gm_tessellate(o, GM_TESS_QUADS, GM_TESS_FRACTIONAL_EVEN, false, false, ones, one2);
    CHECK_EQ_INT(o->n_points, 9);
    PT(8, 0.5f, 0.5f);
    CHECK_EQ_INT(o->n_indices, 8 * 3);

    /* culled: a level <= 0 or NaN */
    const float culled[4] = { 0, 1, 1, 1 };
    gm_tessellate(o, GM_TESS_TRIANGLES, GM_TESS_EQUAL, false, false, culled, one2);
    CHECK_EQ_INT(o->n_points, 0);
    CHECK_EQ_INT(o->n_indices, 0);
    const float nan4[4] = { NAN, 1, 1, 1 };
    gm_tessellate(o, GM_TESS_QUADS, GM_TESS_EQUAL, false, false, nan4, one2);
    CHECK_EQ_INT(o->n_points, 0);

    /* the largest levels stay within the bounds, every index names a point */
    const float big[4] = { 64, 64, 64, 64 }, big2[2] = { 64, 64 };
    gm_tessellate(o, GM_TESS_QUADS, GM_TESS_EQUAL, false, false, big, big2);
    CHECK_EQ_INT(o->n_points, 65 * 65);
    CHECK_EQ_INT(o->n_indices, 64 * 64 * 6);
    for (int i = 0; i < o->n_indices; i++)
        CHECK(o->idx[i] >= 0 && o->idx[i] < o->n_points);
    /* random levels (NaN, infinities, negatives, denormals, out of range among them) on every
     * domain, spacing, winding and point mode: every index slot is written and names a point,
     * every point lies in the unit square */
    const float special[] = { NAN, INFINITY, -INFINITY, -1.0f, 0.0f, 1e-40f, 1.0f, 1.00001f,
                              63.5f, 64.0f, 65.0f, 1e30f };
    unsigned seed = 12345;
    for (int it = 0; it < 3000; it++) {
        float lv[6];
        for (int k = 0; k < 6; k++) {
            unsigned r = gm_test_rand(&seed);
            lv[k] = r % 7 == 0 ? special[(r >> 8) % 12] : gm_test_randf(&seed, 0.0f, 70.0f);
        }
        for (int i = 0; i < GM_TESS_MAX_INDICES; i++)
            o->idx[i] = -1;
        gm_tessellate(o, (gm_tess_domain)(it % 3), (gm_tess_spacing)((it / 3) % 3), (it / 9) & 1,
                      (it / 18) & 1, lv, lv + 4);
        int bad = 0;
        for (int i = 0; i < o->n_indices; i++)
            bad += o->idx[i] < 0 || o->idx[i] >= o->n_points;
        for (int i = 0; i < o->n_points; i++)
            bad += !(o->u[i] >= 0.0f && o->u[i] <= 1.0f && o->v[i] >= 0.0f && o->v[i] <= 1.0f);
        if (bad) {
            fprintf(stderr, "random case %d: %d bad indices or points\n", it, bad);
            gm_test_failures++;
        }
    }
    free(o);
    TEST_DONE();
}
