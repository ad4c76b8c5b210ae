/* Subgroup operations in the executor (ARB_shader_ballot, ARB_shader_group_vote) and
 * AMD_shader_trinary_minmax. One fragment warp writes, per lane, every subgroup built-in and
 * operation into a storage buffer; a C reference computes what llvmpipe's 8-lane subgroups
 * give: with the default grouping (8 consecutive lanes), with an interleaved grouping set by
 * gm_warp_set_subgroups (as the fragment runner sets 4x2 pixel blocks), with inactive lanes
 * and helper lanes (not in the ballot, not voting), and under divergence (an if inside the
 * shader). min3/max3/mid3 on floats, ints and uints against min/max compositions. */
#include "gm_rig.h"

#include <math.h>
#include <stdint.h>

#define NL GM_LANES
#define SG 8

typedef struct {
    uint32_t r[NL][12];
    float f[NL][4];
    int32_t i[NL][4];
    uint32_t u[NL][4];
} io_buf;

static io_buf io;

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    (void)ctx;
    if (kind == GM_BUFFER_STORAGE && binding == 1) {
        *size = sizeof io;
        return &io;
    }
    return NULL;
}

static const char *sg_src =
    "#version 450\n#extension GL_ARB_shader_ballot : require\n"
    "#extension GL_ARB_shader_group_vote : require\n#extension GL_ARB_gpu_shader_int64 : require\n"
    "layout(location=0) flat in int k;\n"
    "layout(std430, binding = 1) buffer S { uint r[32][12]; vec4 f[32]; ivec4 i[32]; uvec4 u[32]; } s;\n"
    "void main() {\n"
    "  s.r[k][0] = gl_SubGroupSizeARB; s.r[k][1] = gl_SubGroupInvocationARB;\n"
    "  s.r[k][2] = uint(ballotARB(k % 3 != 0));\n"
    "  s.r[k][3] = uint(ballotARB(true) >> 32);\n"
    "  s.r[k][4] = readFirstInvocationARB(uint(k) * 10u + 1u);\n"
    "  s.r[k][5] = readInvocationARB(uint(k) * 3u, 5u);\n"
    "  s.r[k][6] = uint(anyInvocationARB(k == 9)) | uint(allInvocationsARB(k < 20)) << 1 |\n"
    "              uint(allInvocationsEqualARB(k / 8 == 1)) << 2 |\n"
    "              uint(allInvocationsEqualARB((k & 1) == 0)) << 3;\n"
    "  s.r[k][7] = uint(gl_SubGroupEqMaskARB) ^ uint(gl_SubGroupGeMaskARB) << 8 ^\n"
    "              uint(gl_SubGroupGtMaskARB) << 16 ^ uint(gl_SubGroupLeMaskARB) << 24;\n"
    "  s.r[k][8] = uint(gl_SubGroupLtMaskARB) | uint(gl_SubGroupLtMaskARB >> 32);\n"
    "  if ((k & 1) != 0) s.r[k][9] = uint(ballotARB(true)) | readFirstInvocationARB(uint(k)) << 16;\n"
    "}\n";

static uint32_t group_of[NL], inv_of[NL];

/* lanes of l's subgroup that run (active, not helper) */
static uint32_t live_of(int l, uint32_t act)
{
    uint32_t m = 0;
    for (int j = 0; j < NL; j++)
        if (group_of[j] == group_of[l] && (act >> j) & 1u)
            m |= 1u << j;
    return m;
}

/* Whether readInvocationARB(v, 5) of lane l reads a lane that ran: llvmpipe computes every
 * SIMD lane, so an inactive invocation still has a value there; the model's inactive lanes
 * do not run (documented as not modelled), so such reads are not compared. */
static int read5_ran(int l, uint32_t ran)
{
    for (int j = 0; j < NL; j++)
        if (group_of[j] == group_of[l] && inv_of[j] == 5)
            return (ran >> j) & 1u;
    return 0;
}

static void expect(int l, uint32_t act, uint32_t want[12])
{
    memset(want, 0, 12 * sizeof want[0]);
    uint32_t live = live_of(l, act), odd = live & 0xaaaaaaaau;
    want[0] = SG;
    want[1] = inv_of[l];
    int first = -1, firsto = -1;
    for (int j = 0; j < NL; j++) {
        if (!((live >> j) & 1u))
            continue;
        if (j % 3 != 0)
            want[2] |= 1u << inv_of[j];
        if (first < 0 || inv_of[j] < inv_of[first])
            first = j;
        if ((odd >> j) & 1u && (firsto < 0 || inv_of[j] < inv_of[firsto]))
            firsto = j;
    }
    want[4] = (uint32_t)first * 10u + 1u;
    for (int j = 0; j < NL; j++) /* invocation 5 of the subgroup, active or not */
        if (group_of[j] == group_of[l] && inv_of[j] == 5)
            want[5] = (uint32_t)j * 3u;
    int any9 = 0, all20 = 1, eq8 = 1, eqk = 1;
    for (int j = 0; j < NL; j++)
        if ((live >> j) & 1u) {
            any9 |= j == 9;
            all20 &= j < 20;
            eq8 &= (j / 8 == 1) == (first / 8 == 1);
            eqk &= (j & 1) == (first & 1);
        }
    want[6] = (uint32_t)(any9 | all20 << 1 | eq8 << 2 | eqk << 3);
    uint32_t bit = 1u << inv_of[l], all = (1u << SG) - 1u;
    want[7] = bit ^ (all & ~(bit - 1u)) << 8 ^ (all & ~(bit - 1u) & ~bit) << 16 ^ (bit | (bit - 1u)) << 24;
    want[8] = bit - 1u;
    if (l & 1) {
        for (int j = 0; j < NL; j++)
            if ((odd >> j) & 1u)
                want[9] |= 1u << inv_of[j];
        want[9] |= (uint32_t)firsto << 16;
    }
}

/* One run: active lanes `act`, helpers `helper` (running, not counted), grouping `set`. */
static void run_sg(const char *what, uint32_t act, uint32_t helper, int set)
{
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, sg_src) != 0) {
        CHECKF(0, "%s: setup", what);
        rig_free(&r);
        return;
    }
    memset(&io, 0, sizeof io);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < NL; l++)
        rig_seti(&r, "k", 0, l, l);
    gm_warp_begin(r.w, act, helper);
    uint8_t g[NL], inv[NL];
    for (int l = 0; l < NL; l++) {
        /* interleaved: lanes l, l+4, l+8, ... of one half form a subgroup, reversed order */
        group_of[l] = set ? (uint32_t)(l % 4 + 4 * (l / 16)) : (uint32_t)(l / SG);
        inv_of[l] = (uint32_t)(l % SG);
        g[l] = (uint8_t)group_of[l];
    }
    if (set) { /* invocation = position in the subgroup, reversed: 7 - rank */
        for (int l = 0; l < NL; l++) {
            int rank = 0;
            for (int j = 0; j < l; j++)
                rank += group_of[j] == group_of[l];
            inv_of[l] = (uint32_t)(SG - 1 - rank);
        }
        for (int l = 0; l < NL; l++)
            inv[l] = (uint8_t)inv_of[l];
        gm_warp_set_subgroups(r.w, g, inv);
    }
    gm_run_status st = gm_warp_run(r.w, 1000000);
    CHECKF(st == GM_RUN_DONE, "%s: run %s", what, gm_warp_error(r.w));
    int bad = 0;
    for (int l = 0; l < NL && bad < 4; l++) {
        if (!((act >> l) & 1u))
            continue; /* helpers do not store; inactive lanes do not run */
        uint32_t want[12];
        expect(l, act, want);
        for (int c = 0; c < 10; c++)
            if (io.r[l][c] != want[c] && (c != 5 || read5_ran(l, act | helper))) {
                CHECKF(0, "%s lane %d word %d: got 0x%x want 0x%x", what, l, c, io.r[l][c], want[c]);
                bad++;
            }
    }
    rig_free(&r);
}

static void test_subgroups(void)
{
    run_sg("all lanes, default groups", 0xffffffffu, 0, 0);
    run_sg("partial, default groups", 0x7ffe1ffbu, 0, 0);
    run_sg("helpers, default groups", 0x0ff0f0ffu, 0xf00f0f00u, 0);
    run_sg("all lanes, interleaved groups", 0xffffffffu, 0, 1);
    run_sg("partial and helpers, interleaved groups", 0x5f5fa0a0u, 0x0000050au, 1);
}

/* min3/max3/mid3 against compositions of min/max, NaN-free inputs incl. ties and signs. */
static void test_trinary(void)
{
    const char *src =
        "#version 450\n#extension GL_AMD_shader_trinary_minmax : require\n"
        "layout(location=0) flat in int k;\n"
        "layout(std430, binding = 1) buffer S { uint r[32][12]; vec4 f[32]; ivec4 i[32]; uvec4 u[32]; } s;\n"
        "void main() {\n"
        "  vec4 f = s.f[k]; ivec4 i = s.i[k]; uvec4 u = s.u[k];\n"
        "  s.f[k] = vec4(min3(f.x, f.y, f.z), max3(f.x, f.y, f.z), mid3(f.x, f.y, f.z), mid3(f.w, f.x, f.y));\n"
        "  s.i[k] = ivec4(min3(i.xy, i.yz, i.zw), max3(i.x, i.y, i.z), mid3(i.x, i.y, i.z));\n"
        "  s.u[k] = uvec4(min3(u.x, u.y, u.z), max3(u.x, u.y, u.z), mid3(u.xy, u.yz, u.zw));\n"
        "}\n";
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        rig_free(&r);
        return;
    }
    float fin[NL][4];
    int32_t iin[NL][4];
    uint32_t uin[NL][4];
    uint32_t seed = 99;
    for (int l = 0; l < NL; l++)
        for (int c = 0; c < 4; c++) {
            seed = seed * 1664525u + 1013904223u;
            fin[l][c] = (float)((int)(seed >> 20) % 9 - 4) * 0.5f; /* small set: many ties */
            iin[l][c] = (int32_t)(seed >> 8) % 7 - 3;
            uin[l][c] = (seed >> 4) % 5 + (l == 31 && c == 1 ? 0xfffffff0u : 0u);
        }
    memset(&io, 0, sizeof io);
    memcpy(io.f, fin, sizeof fin);
    memcpy(io.i, iin, sizeof iin);
    memcpy(io.u, uin, sizeof uin);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < NL; l++)
        rig_seti(&r, "k", 0, l, l);
    CHECK(rig_run(&r, 0xffffffffu) == 0);
#define MN(a, b) ((b) < (a) ? (b) : (a))
#define MX(a, b) ((a) < (b) ? (b) : (a))
#define MID(x, y, z) MX(MN(x, y), MX(MN(x, z), MN(y, z)))
    for (int l = 0; l < NL; l++) {
        const float *f = fin[l];
        const int32_t *i = iin[l];
        const uint32_t *u = uin[l];
        float wf[4] = {MN(f[0], MN(f[1], f[2])), MX(f[0], MX(f[1], f[2])), MID(f[0], f[1], f[2]),
                       MID(f[3], f[0], f[1])};
        int32_t wi[4] = {MN(i[0], MN(i[1], i[2])), MN(i[1], MN(i[2], i[3])), MX(i[0], MX(i[1], i[2])),
                         MID(i[0], i[1], i[2])};
        uint32_t wu[4] = {MN(u[0], MN(u[1], u[2])), MX(u[0], MX(u[1], u[2])), MID(u[0], u[1], u[2]),
                          MID(u[1], u[2], u[3])};
        for (int c = 0; c < 4; c++) {
            CHECKF(io.f[l][c] == wf[c], "trinary f lane %d comp %d: got %g want %g", l, c, io.f[l][c], wf[c]);
            CHECKF(io.i[l][c] == wi[c], "trinary i lane %d comp %d: got %d want %d", l, c, io.i[l][c], wi[c]);
            CHECKF(io.u[l][c] == wu[c], "trinary u lane %d comp %d: got %u want %u", l, c, io.u[l][c], wu[c]);
        }
    }
    rig_free(&r);
}

int main(void)
{
    test_subgroups();
    test_trinary();
    TEST_DONE();
}
