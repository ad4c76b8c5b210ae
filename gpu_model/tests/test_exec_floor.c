/* gm_floorf (gpu_model/exec/gm_exec.h), the floor of Floor, Fract and FMod, is written with
 * masks so that gcc vectorizes it: it must give bit for bit what its definition gives (truncate
 * and step down when the truncation is above x; values of magnitude 2^23 or more, infinities
 * and NaN unchanged; -0.0 becomes +0.0 as llvmpipe's images were matched with). Checked over a
 * sweep of every 251st 32-bit pattern plus the edges, one value at a time and through a
 * 32-lane loop as the executor runs it. */
#include "gm_test.h"
#include "exec/gm_exec.h"

#include <stdint.h>
#include <string.h>

static float reference_floor(float x)
{
    if (!(x > -8388608.0f && x < 8388608.0f))
        return x;
    float t = (float)(int32_t)x;
    return t > x ? t - 1.0f : t;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(void)
{
    static const uint32_t edges[] = {
        0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x3f800000u, 0xbf800000u,
        0x3effffffu, 0xbeffffffu, 0x3f7fffffu, 0xbf7fffffu, 0x4afffffeu, 0xcafffffeu,
        0x4affffffu, 0xcaffffffu, 0x4b000000u, 0xcb000000u, 0x4b000001u, 0xcb000001u,
        0x4effffffu, 0xcf000000u, 0x4f000000u, 0x7f7fffffu, 0xff7fffffu, 0x7f800000u,
        0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fffffffu};
    long bad = 0;
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        float x = from_bits(edges[i]);
        if (bits(gm_floorf(x)) != bits(reference_floor(x))) {
            fprintf(stderr, "edge 0x%08x: 0x%08x, expected 0x%08x\n", edges[i],
                    bits(gm_floorf(x)), bits(reference_floor(x)));
            bad++;
        }
    }
    float in[32], out[32];
    int lane = 0;
    for (uint64_t u = 0; u <= 0xffffffffu; u += 251) {
        in[lane++] = from_bits((uint32_t)u);
        if (lane < 32)
            continue;
        lane = 0;
        for (int l = 0; l < 32; l++) /* the executor's loop shape */
            out[l] = in[l] - gm_floorf(in[l]);
        for (int l = 0; l < 32; l++) {
            float r = in[l] - reference_floor(in[l]);
            if (bits(out[l]) != bits(r) && bad++ < 10)
                fprintf(stderr, "fract(0x%08x): 0x%08x, expected 0x%08x\n", bits(in[l]),
                        bits(out[l]), bits(r));
        }
    }
    CHECK(bad == 0);
    TEST_DONE();
}
