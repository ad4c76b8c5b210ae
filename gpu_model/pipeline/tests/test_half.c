/* test_half.c - the four-at-once half conversions (gm_half.c) against the scalar ones, bit for
 * bit, with MXCSR as a program starts and with the flush-to-zero / denormals-are-zero modes
 * the shaders run under (gm_exec.c sets them around a warp, and texture sampling runs there):
 *  1. every one of the 65,536 halves, in each of the four positions, to float;
 *  2. floats to halves (round toward zero, as render target writes store them): a sweep of
 *     every 4099th bit pattern (all exponents, signs, NaN payloads), the edges of the half
 *     range (65504 .. 65536, 2^-14, 2^-24, 2^-25), float subnormals, infinities, zeros;
 *  3. gm_format_unpack_rgba / gm_format_pack_rgba_rt of RGBA16F, which route through them.
 * Says whether F16C was there (without it both sides are the scalar code). */
#include "gm_pipeline.h"
#include "gm_half.h"
#include "gm_test.h"

#include <math.h>
#include <string.h>

static uint32_t f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int half_mismatches;
static int float_mismatches;

/* Halves h0..h3 to float both ways; counts (and reports the first few) differing bits. */
static void check_halves(const uint16_t h[4])
{
    float a[4], b[4];
    gm_half4_to_float(h, a);
    gm_half4_to_float_scalar(h, b);
    for (int c = 0; c < 4; c++) {
        if (f2u(a[c]) != f2u(b[c]) || f2u(b[c]) != f2u(gm_half_to_float(h[c]))) {
            if (half_mismatches++ < 5)
                fprintf(stderr, "half 0x%04x: 0x%08x, scalar 0x%08x\n", h[c], f2u(a[c]),
                        f2u(b[c]));
        }
    }
}

static void check_floats(const float v[4])
{
    uint16_t a[4], b[4];
    gm_float4_to_half_rtz(v, a);
    gm_float4_to_half_rtz_scalar(v, b);
    for (int c = 0; c < 4; c++) {
        if (a[c] != b[c] || b[c] != gm_float_to_half(gm_half_cut_rtz(v[c]))) {
            if (float_mismatches++ < 5)
                fprintf(stderr, "float 0x%08x: 0x%04x, scalar 0x%04x\n", f2u(v[c]), a[c], b[c]);
        }
    }
}

static int run_all(unsigned seed)
{
    /* 1: each half in each position, the other three random */
    for (uint32_t h = 0; h < 65536; h++) {
        for (int pos = 0; pos < 4; pos++) {
            uint16_t q[4];
            for (int c = 0; c < 4; c++)
                q[c] = (uint16_t)(gm_test_rand(&seed) & 0x7bffu);   /* finite others */
            q[pos] = (uint16_t)h;
            check_halves(q);
        }
    }
    /* 2: a sweep of bit patterns, four consecutive ones per call */
    float v[4];
    int n = 0;
    for (uint64_t u = 0; u <= 0xffffffffull; u += 4099) {
        v[n++] = u2f((uint32_t)u);
        if (n == 4) {
            check_floats(v);
            n = 0;
        }
    }
    /* the edges, each alone among ordinary values and in every position */
    static const uint32_t edges[] = {
        0x477fe000u, /* 65504, the largest half */
        0x477fefffu, 0x477ff000u, 0x477fffffu, /* up to 65536 (cut to 65504) */
        0x47800000u, /* 65536: infinity */
        0x7f7fffffu, 0x7f800000u, 0x7f800001u, 0x7fc00000u, 0x7fbfffffu, 0x7fffe000u,
        0x38800000u, /* 2^-14, the smallest normal half */
        0x387fffffu, 0x33800000u, /* 2^-24, the smallest subnormal half */
        0x337fffffu, 0x33000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x00000000u,
    };
    for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
        for (int sign = 0; sign < 2; sign++) {
            for (int pos = 0; pos < 4; pos++) {
                for (int c = 0; c < 4; c++)
                    v[c] = gm_test_randf(&seed, -100.0f, 100.0f);
                v[pos] = u2f(edges[i] | (sign ? 0x80000000u : 0u));
                check_floats(v);
            }
        }
    }
    /* 3: the format functions that route through them */
    for (int i = 0; i < 100000; i++) {
        uint16_t t[4];
        for (int c = 0; c < 4; c++)
            t[c] = (uint16_t)gm_test_rand(&seed);
        float a[4], b[4];
        gm_format_unpack_rgba(GM_FMT_RGBA16F, t, a);
        gm_half4_to_float_scalar(t, b);
        if (memcmp(a, b, sizeof(a)) != 0 && half_mismatches++ < 5)
            fprintf(stderr, "unpack RGBA16F %04x %04x %04x %04x differs\n", t[0], t[1], t[2], t[3]);
        for (int c = 0; c < 4; c++)
            a[c] = u2f(gm_test_rand(&seed));
        uint16_t pa[4], pb[4];
        gm_format_pack_rgba_rt(GM_FMT_RGBA16F, a, pa);
        gm_float4_to_half_rtz_scalar(a, pb);
        if (memcmp(pa, pb, sizeof(pa)) != 0 && float_mismatches++ < 5)
            fprintf(stderr, "pack_rt RGBA16F of 0x%08x.. differs\n", f2u(a[0]));
    }
    return 0;
}

int main(void)
{
    printf("F16C: %s\n", gm_half4_f16c() ? "yes (vector path compared)" :
                                            "no (scalar path only)");
    gm_test_run_with_ftz_daz(run_all, 12345u, 777u);
    CHECK_EQ_INT(half_mismatches, 0);
    CHECK_EQ_INT(float_mismatches, 0);
    TEST_DONE();
}
