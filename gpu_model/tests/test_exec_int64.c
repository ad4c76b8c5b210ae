/* 64-bit integers in the executor (GL_ARB_gpu_shader_int64): every int64 operation of a
 * one-warp fragment shader against a C reference, lane by lane, bit for bit. Inputs come
 * from and results go to an std430 storage buffer (so 64-bit buffer loads and stores are in
 * every case); lanes 24..31 hold INT64_MIN/MAX, -1, 0, 2^32 and values whose high and low
 * words differ in sign. Covers arithmetic (wrapping), division and modulo by 0 and -1,
 * bitwise ops, shifts by 32- and 64-bit counts, every comparison, 32<->64-bit and
 * float/double conversions, packInt2x32/unpackInt2x32, abs/sign/min/max/clamp, mix with a
 * bvec (select), dynamic indexing and a divergent loop. */
#include "gm_rig.h"

#include <stdint.h>

#define NL GM_LANES

typedef struct {
    int64_t a[NL][4], b[NL][4], r[NL][4];
    int32_t i[NL][4], ri[NL][4];
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

typedef struct {
    const int64_t *a, *b;
    const int32_t *i;
} lane_in;

typedef void (*ref_fn)(const lane_in *x, int64_t *r, int32_t *ri);

typedef struct {
    const char *name;
    const char *body; /* sets s.r[k] (i64vec4) and/or s.ri[k] (ivec4) */
    ref_fn ref;
    int check;        /* bit 0: compare s.r, bit 1: compare s.ri */
} i64_case;

#define A x->a
#define B x->b
#define I x->i
#define UA ((uint64_t)A[k])
#define UB ((uint64_t)B[k])
#define FOR4 for (int k = 0; k < 4; k++)
#define REF(id, ...) \
    static void ref_##id(const lane_in *x, int64_t *r, int32_t *ri) { (void)x; (void)r; (void)ri; __VA_ARGS__; }

/* The model's (and the 32-bit path's) definitions where GLSL leaves the result undefined:
 * division by 0 gives 0, INT64_MIN / -1 wraps, remainder by 0 or -1 is 0. */
static int64_t sdiv(int64_t a, int64_t b) { return b == 0 ? 0 : b == -1 ? (int64_t)(0u - (uint64_t)a) : a / b; }
static int64_t srem(int64_t a, int64_t b) { return b == 0 || b == -1 ? 0 : a % b; }
/* GLSL's % on signed integers: glslang emits OpSMod (the sign of the divisor), which the
 * model computes as the 32-bit path does */
static int64_t smod(int64_t a, int64_t b) { int64_t r = srem(a, b); return r != 0 && (r < 0) != (b < 0) ? r + b : r; }
static int64_t w64(uint64_t v) { return (int64_t)v; }
static int32_t fbits(float f) { int32_t v; memcpy(&v, &f, 4); return v; }
static int64_t dbits(double d) { int64_t v; memcpy(&v, &d, 8); return v; }
static int64_t sat_d2l(double d) { return d != d ? 0 : d >= 0x1p63 ? INT64_MAX : d <= -0x1p63 ? INT64_MIN : (int64_t)d; }
static uint64_t sat_d2ul(double d) { return !(d > 0) ? 0 : d >= 0x1p64 ? UINT64_MAX : (uint64_t)d; }

REF(add, FOR4 r[k] = w64(UA + UB))
REF(sub, FOR4 r[k] = w64(UA - UB))
REF(mul, FOR4 r[k] = w64(UA * UB))
REF(div, FOR4 r[k] = sdiv(A[k], B[k]))
REF(rem, FOR4 r[k] = smod(A[k], B[k]))
REF(udiv, FOR4 r[k] = UB ? w64(UA / UB) : 0)
REF(umod, FOR4 r[k] = UB ? w64(UA % UB) : 0)
REF(neg, FOR4 r[k] = w64(0u - UA))
REF(bits, r[0] = A[0] & B[0]; r[1] = A[1] | B[1]; r[2] = A[2] ^ B[2]; r[3] = ~A[3])
REF(shift, FOR4 { int s = I[k] & 63; r[k] = k == 0 ? w64(UA << s) : k == 1 ? A[k] >> s
                                    : k == 2 ? w64(UA >> s) : w64(UA << (UB & 63)); })
REF(cmp, FOR4 ri[k] = (A[k] < B[k]) | (A[k] <= B[k]) << 1 | (A[k] > B[k]) << 2 |
          (A[k] >= B[k]) << 3 | (A[k] == B[k]) << 4 | (A[k] != B[k]) << 5 | (UA < UB) << 6 |
          (UA <= UB) << 7 | (UA > UB) << 8 | (UA >= UB) << 9)
REF(conv32, FOR4 { r[k] = k < 2 ? (int64_t)I[k] : (int64_t)(uint32_t)I[k]; ri[k] = (int32_t)(uint32_t)UA; })
REF(tofloat, r[0] = dbits((double)A[0]); r[1] = dbits((double)(uint64_t)B[1]); r[2] = r[3] = 0;
             ri[0] = fbits((float)A[0]); ri[1] = fbits((float)(uint64_t)B[1]);
             ri[2] = fbits((float)A[2]); ri[3] = fbits((float)(uint64_t)A[3]))
REF(fromfloat, { double d = (double)A[0] * 0.75; float f = (float)I[1] * 1e15f;
                 r[0] = sat_d2l(d); r[1] = sat_d2l((double)f); r[2] = w64(sat_d2ul(d));
                 r[3] = w64(sat_d2ul((double)f)); })
REF(pack, r[0] = w64((uint64_t)(uint32_t)I[0] | (uint64_t)(uint32_t)I[1] << 32);
          r[1] = w64((uint64_t)(uint32_t)I[2] | (uint64_t)(uint32_t)I[3] << 32); r[2] = r[3] = 0;
          ri[0] = (int32_t)(uint32_t)(uint64_t)A[1]; ri[1] = (int32_t)(uint32_t)((uint64_t)A[1] >> 32);
          ri[2] = (int32_t)(uint32_t)(uint64_t)B[2]; ri[3] = (int32_t)(uint32_t)((uint64_t)B[2] >> 32))
REF(fns, r[0] = A[0] < 0 ? w64(0u - (uint64_t)A[0]) : A[0];
         r[1] = A[1] > 0 ? 1 : A[1] < 0 ? -1 : 0;
         r[2] = A[2] < B[2] ? A[2] : B[2];
         { int64_t lo = -B[3] / 4 - 1, hi = B[3] / 4 + 1; int64_t t = A[3] > lo ? A[3] : lo; r[3] = t < hi ? t : hi; }
         { uint64_t a = (uint64_t)A[0], b = (uint64_t)B[0]; ri[0] = (int32_t)(uint32_t)(a > b ? a : b); }
         { uint64_t a = (uint64_t)A[1], b = (uint64_t)B[1]; ri[1] = (int32_t)(uint32_t)((a < b ? a : b) >> 32); }
         { int64_t a = A[2], b = B[2]; ri[2] = (int32_t)((uint64_t)(a > b ? a : b) >> 16); }
         { uint64_t a = (uint64_t)A[3], lo = 5, hi = 1ull << 40;
           ri[3] = (int32_t)((a < lo ? lo : a > hi ? hi : a) >> 8); })
REF(select, FOR4 r[k] = (I[k] & 1) ? B[k] : A[k];
            ri[0] = (int32_t)(uint32_t)(I[0] < 0 ? B[0] : A[0]))
REF(dynidx, { int64_t t[4]; FOR4 t[k] = A[k]; t[I[1] & 3] = B[0];
              r[0] = A[I[0] & 3]; r[1] = t[1]; r[2] = t[2]; r[3] = t[3]; })
REF(loop, { int64_t acc = 1; int n = (I[0] & 7); for (int j = 0; j < n; j++) acc = w64((uint64_t)acc * 3u + (uint64_t)A[j & 3]);
            r[0] = acc; r[1] = A[1] < 0 ? A[2] : B[2]; r[2] = r[3] = 0; })

#define PRE "i64vec4 a = s.a[k], b = s.b[k]; ivec4 i = s.i[k];\n"

static const i64_case cases[] = {
    {"add", PRE "s.r[k] = a + b;", ref_add, 1},
    {"sub", PRE "s.r[k] = a - b;", ref_sub, 1},
    {"mul", PRE "s.r[k] = a * b;", ref_mul, 1},
    {"div", PRE "s.r[k] = a / b;", ref_div, 1},
    {"rem", PRE "s.r[k] = a % b;", ref_rem, 1},
    {"udiv", PRE "s.r[k] = i64vec4(u64vec4(a) / u64vec4(b));", ref_udiv, 1},
    {"umod", PRE "s.r[k] = i64vec4(u64vec4(a) % u64vec4(b));", ref_umod, 1},
    {"neg", PRE "s.r[k] = -a;", ref_neg, 1},
    {"bits", PRE "s.r[k] = i64vec4(a.x & b.x, a.y | b.y, a.z ^ b.z, ~a.w);", ref_bits, 1},
    {"shift", PRE "s.r[k] = i64vec4(a.x << (i.x & 63), a.y >> (i.y & 63),"
                  " int64_t(uint64_t(a.z) >> (i.z & 63)), a.w << (b.w & 63l));", ref_shift, 1},
    {"cmp", PRE "u64vec4 ua = u64vec4(a), ub = u64vec4(b);\n"
                "s.ri[k] = ivec4(lessThan(a, b)) | ivec4(lessThanEqual(a, b)) << 1 |"
                " ivec4(greaterThan(a, b)) << 2 | ivec4(greaterThanEqual(a, b)) << 3 |"
                " ivec4(equal(a, b)) << 4 | ivec4(notEqual(a, b)) << 5 | ivec4(lessThan(ua, ub)) << 6 |"
                " ivec4(lessThanEqual(ua, ub)) << 7 | ivec4(greaterThan(ua, ub)) << 8 |"
                " ivec4(greaterThanEqual(ua, ub)) << 9;", ref_cmp, 2},
    {"conv32", PRE "s.r[k] = i64vec4(i64vec2(i.xy), u64vec2(uvec2(i.zw)));\ns.ri[k] = ivec4(a);",
     ref_conv32, 3},
    {"tofloat", PRE "s.r[k] = i64vec4(doubleBitsToInt64(double(a.x)),"
                    " doubleBitsToInt64(double(uint64_t(b.y))), 0, 0);\n"
                    "s.ri[k] = ivec4(floatBitsToInt(float(a.x)), floatBitsToInt(float(uint64_t(b.y))),"
                    " floatBitsToInt(float(a.z)), floatBitsToInt(float(uint64_t(a.w))));", ref_tofloat, 3},
    {"fromfloat", PRE "double d = double(a.x) * 0.75lf; float f = float(i.y) * 1e15;\n"
                      "s.r[k] = i64vec4(int64_t(d), int64_t(f), int64_t(uint64_t(d)),"
                      " int64_t(uint64_t(f)));", ref_fromfloat, 1},
    {"pack", PRE "s.r[k] = i64vec4(packInt2x32(i.xy), int64_t(packUint2x32(uvec2(i.zw))), 0, 0);\n"
                 "s.ri[k] = ivec4(unpackInt2x32(a.y), ivec2(unpackUint2x32(uint64_t(b.z))));",
     ref_pack, 3},
    {"fns", PRE "int64_t lo = -b.w / 4l - 1l, hi = b.w / 4l + 1l;\n"
                "s.r[k] = i64vec4(abs(a.x), sign(a.y), min(a.z, b.z), clamp(a.w, lo, hi));\n"
                "s.ri[k] = ivec4(int(max(uint64_t(a.x), uint64_t(b.x))),"
                " int(min(uint64_t(a.y), uint64_t(b.y)) >> 32),"
                " int(max(a.z, b.z) >> 16), int(clamp(uint64_t(a.w), 5ul, 1ul << 40) >> 8));",
     ref_fns, 3},
    {"select", PRE "s.r[k] = mix(a, b, notEqual(i & 1, ivec4(0)));\n"
                   "s.ri[k] = ivec4(int(i.x < 0 ? b.x : a.x), 0, 0, 0);", ref_select, 3},
    {"dynidx", PRE "i64vec4 t = a; t[i.y & 3] = b.x;\n"
                   "s.r[k] = i64vec4(a[i.x & 3], t.yzw);", ref_dynidx, 1},
    {"loop", PRE "int64_t acc = 1l; int n = i.x & 7;\n"
                 "for (int j = 0; j < n; j++) acc = acc * 3l + a[j & 3];\n"
                 "int64_t v; if (a.y < 0l) v = a.z; else v = b.z;\n"
                 "s.r[k] = i64vec4(acc, v, 0, 0);", ref_loop, 1},
};

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int64_t inputs_a[NL][4], inputs_b[NL][4];
static int32_t inputs_i[NL][4];

static void make_inputs(void)
{
    for (int l = 0; l < NL; l++)
        for (int k = 0; k < 4; k++) {
            uint64_t v = next_rand();
            /* small, 32-bit-sized and full-width magnitudes */
            inputs_a[l][k] = l % 3 == 0 ? (int64_t)(v % 2001) - 1000
                             : l % 3 == 1 ? (int64_t)(int32_t)v * 7 : (int64_t)v;
            inputs_b[l][k] = (int64_t)(next_rand() >> (l % 4 * 16)) - (l & 1 ? 3 : 0);
            inputs_i[l][k] = (int32_t)next_rand();
        }
    const int64_t sp[] = {INT64_MIN, INT64_MAX, -1, 0, 1, (int64_t)1 << 32, -((int64_t)1 << 32),
                          0x00000000ffffffffll, (int64_t)0xffffffff00000000ull, 0x7fffffff80000000ll,
                          (int64_t)1 << 53, ((int64_t)1 << 53) + 1, -3, 12345678901234ll};
    int ns = (int)(sizeof sp / sizeof sp[0]);
    for (int l = 24; l < NL; l++)
        for (int k = 0; k < 4; k++) {
            inputs_a[l][k] = sp[(l * 4 + k) % ns];
            inputs_b[l][k] = sp[(l * 3 + k + 5) % ns];
        }
    inputs_i[30][0] = INT32_MIN;
    inputs_i[31][1] = INT32_MAX;
}

static void run_cases(void)
{
    int ncase = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < ncase; c++) {
        const i64_case *tc = &cases[c];
        char src[4096];
        snprintf(src, sizeof src,
                 "#version 450\n#extension GL_ARB_gpu_shader_int64 : require\n"
                 "layout(location=0) flat in int k;\n"
                 "layout(std430, binding = 1) buffer S { i64vec4 a[32]; i64vec4 b[32];"
                 " i64vec4 r[32]; ivec4 i[32]; ivec4 ri[32]; } s;\n"
                 "void main() {\n%s\n}\n", tc->body);
        gm_rig r;
        if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
            CHECKF(0, "case %s: setup", tc->name);
            rig_free(&r);
            continue;
        }
        memset(&io, 0, sizeof io);
        memcpy(io.a, inputs_a, sizeof io.a);
        memcpy(io.b, inputs_b, sizeof io.b);
        memcpy(io.i, inputs_i, sizeof io.i);
        gm_env env = {NULL, NULL, NULL, fake_buffer};
        gm_warp_set_env(r.w, &env);
        for (int l = 0; l < NL; l++)
            rig_seti(&r, "k", 0, l, l);
        CHECKF(rig_run(&r, 0xffffffffu) == 0, "case %s: run", tc->name);
        int bad = 0;
        for (int l = 0; l < NL && bad < 3; l++) {
            int64_t want[4] = {0, 0, 0, 0};
            int32_t wi[4] = {0, 0, 0, 0};
            lane_in x = {inputs_a[l], inputs_b[l], inputs_i[l]};
            tc->ref(&x, want, wi);
            for (int k = 0; k < 4; k++) {
                if ((tc->check & 1) && io.r[l][k] != want[k]) {
                    CHECKF(0, "case %s lane %d comp %d: got %lld want %lld", tc->name, l, k,
                           (long long)io.r[l][k], (long long)want[k]);
                    bad++;
                }
                if ((tc->check & 2) && io.ri[l][k] != wi[k]) {
                    CHECKF(0, "case %s lane %d comp %d: got %d want %d", tc->name, l, k,
                           io.ri[l][k], wi[k]);
                    bad++;
                }
            }
        }
        rig_free(&r);
    }
    printf("%d int64 cases\n", ncase);
}

/* Divergence: only the odd lanes run the 64-bit op; the even lanes keep what was there. */
static void test_divergence(void)
{
    const char *src =
        "#version 450\n#extension GL_ARB_gpu_shader_int64 : require\n"
        "layout(location=0) flat in int k;\n"
        "layout(std430, binding = 1) buffer S { i64vec4 a[32]; i64vec4 b[32];"
        " i64vec4 r[32]; ivec4 i[32]; ivec4 ri[32]; } s;\n"
        "void main() { int64_t v = s.a[k].x; if ((k & 1) != 0) v = v * s.b[k].x - 7l;"
        " s.r[k].x = v; }\n";
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        rig_free(&r);
        return;
    }
    memset(&io, 0, sizeof io);
    memcpy(io.a, inputs_a, sizeof io.a);
    memcpy(io.b, inputs_b, sizeof io.b);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < NL; l++)
        rig_seti(&r, "k", 0, l, l);
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    for (int l = 0; l < NL; l++) {
        int64_t want = l & 1 ? w64((uint64_t)inputs_a[l][0] * (uint64_t)inputs_b[l][0] - 7u)
                             : inputs_a[l][0];
        CHECKF(io.r[l][0] == want, "divergence lane %d: got %lld want %lld", l,
               (long long)io.r[l][0], (long long)want);
    }
    rig_free(&r);
}

int main(void)
{
    make_inputs();
    run_cases();
    test_divergence();
    TEST_DONE();
}
