/* 64-bit floats in the executor: every double op of a one-warp fragment shader against a
 * C double reference, lane by lane and bit for bit (NaN matches any NaN). Inputs come
 * from and results go to an std430 storage buffer, so double buffer loads/stores are
 * covered by every case; lanes 24..31 hold NaN, infinities, denormals, -0.0, huge values
 * and float rounding ties. Separate tests cover std140/std430 layouts, loose double
 * uniforms, dynamic indexing, loops, divergence, conversions and the refusal of
 * unsupported double functions by name. */
#include "gm_rig.h"

#include <math.h>
#if defined(__x86_64__) || defined(__SSE2__)
#include <xmmintrin.h>
#endif
#include <stdint.h>
#include <string.h>

#define NL GM_LANES

/* The storage buffer of the ALU cases (std430; offsets checked by the layout test). */
typedef struct {
    double a[NL][4], b[NL][4], r[NL][4];
    int32_t i[NL][4], ri[NL][4];
} io_buf;

static io_buf io;
static unsigned char ubo[512];

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    (void)ctx;
    if (kind == GM_BUFFER_STORAGE && binding == 1) {
        *size = sizeof io;
        return &io;
    }
    if (kind == GM_BUFFER_UNIFORM && binding == 2) {
        *size = sizeof ubo;
        return ubo;
    }
    return NULL;
}

typedef struct {
    const double *a, *b;
    const int32_t *i;
} lane_in;

typedef void (*ref_fn)(const lane_in *x, double *r, int32_t *ri);

typedef struct {
    const char *name;
    const char *body; /* sets s.r[k] (dvec4) and/or s.ri[k] (ivec4) */
    ref_fn ref;
    int ints;         /* 1: compare s.ri, 0: compare s.r */
} f64_case;

#define A x->a
#define B x->b
#define I x->i
#define FOR4 for (int k = 0; k < 4; k++)
#define DREF(id, ...) \
    static void ref_##id(const lane_in *x, double *r, int32_t *ri) { (void)x; (void)r; (void)ri; __VA_ARGS__; }

static double dot3(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
static double dsign(double v) { return v > 0 ? 1.0 : v < 0 ? -1.0 : v; }
/* llvmpipe's fmin/fmax: a NaN loses to the number on either side (lp_bld_nir.c) */
/* Denormals flushed (FTZ and DAZ) while a reference is computed, as llvmpipe runs shaders. */
static unsigned flush_enter(int on)
{
#if defined(__x86_64__) || defined(__SSE2__)
    unsigned csr = _mm_getcsr();
    if (on)
        _mm_setcsr(csr | 0x8040u);
    return csr;
#else
    (void)on;
    return 0;
#endif
}

static void flush_leave(unsigned csr)
{
#if defined(__x86_64__) || defined(__SSE2__)
    _mm_setcsr(csr);
#else
    (void)csr;
#endif
}

static double dmin(double a, double b) { return isnan(b) ? a : a < b ? a : b; }
static double dmax(double a, double b) { return isnan(b) ? a : a > b ? a : b; }
static double dclamp(double v, double lo, double hi) { return fmin(fmax(v, lo), hi); }
static int32_t d2s(double v) { return v != v ? 0 : v >= 2147483647.0 ? INT32_MAX : v <= -2147483648.0 ? INT32_MIN : (int32_t)v; }
static uint32_t d2u(double v) { return !(v > 0) ? 0 : v >= 4294967295.0 ? UINT32_MAX : (uint32_t)v; }

DREF(add, FOR4 r[k] = A[k] + B[k])
DREF(sub, FOR4 r[k] = A[k] - B[k])
DREF(mul, FOR4 r[k] = A[k] * B[k])
DREF(div, FOR4 r[k] = A[k] / B[k])
DREF(neg, FOR4 r[k] = -A[k])
DREF(mod, FOR4 r[k] = A[k] - B[k] * floor(A[k] / B[k]))
DREF(abs, FOR4 r[k] = fabs(A[k]))
DREF(sign, FOR4 r[k] = dsign(A[k]))
DREF(floor, FOR4 r[k] = floor(A[k]))
DREF(ceil, FOR4 r[k] = ceil(A[k]))
DREF(fract, FOR4 r[k] = A[k] - floor(A[k]))
DREF(trunc, FOR4 r[k] = trunc(A[k]))
DREF(round, FOR4 r[k] = nearbyint(A[k] * 2.0))
DREF(roundeven, FOR4 r[k] = nearbyint(A[k] * 2.0))
DREF(sqrt, r[0] = sqrt(B[0]); r[1] = sqrt(A[1]); r[2] = 1.0 / sqrt(B[2]); r[3] = 1.0 / sqrt(A[3]))
DREF(minmax, r[0] = dmin(A[0], B[0]); r[1] = dmax(A[1], B[1]); r[2] = dclamp(A[2], -0.5, B[2]);
     r[3] = dclamp(A[3], -0.5, B[3]))
DREF(mix, FOR4 r[k] = A[k] * (1.0 - B[k] * 0.2) + B[k] * (B[k] * 0.2))
DREF(step, FOR4 r[k] = A[k] < B[k] * 0.5 ? 0.0 : 1.0)
DREF(smooth, FOR4 { double t = dclamp((A[k] + 1.0) / 2.0, 0.0, 1.0); r[k] = t * t * (3.0 - 2.0 * t); })
DREF(fma, FOR4 r[k] = fma(A[k], B[k], A[k]))
DREF(ldexp, FOR4 { int e = (I[k] & 63) - 32; r[k] = ldexp(A[k], e); })
DREF(frexp, int e; r[0] = isfinite(A[0]) ? frexp(A[0], &e) : A[0]; ri[0] = isfinite(A[0]) ? e : 0;
     r[1] = isfinite(A[1]) ? frexp(A[1], &e) : A[1]; ri[1] = isfinite(A[1]) ? e : 0;
     r[2] = modf(A[2], &r[3]); ri[2] = ri[3] = 0)
DREF(geom, r[0] = sqrt(dot3(A, A)); double d[3] = {A[0] - B[0], A[1] - B[1], A[2] - B[2]};
     r[1] = sqrt(dot3(d, d)); r[2] = dot3(A, B); r[3] = A[0] * (1.0 / sqrt(dot3(A, A))))
DREF(cross, r[0] = A[1] * B[2] - B[1] * A[2]; r[1] = A[2] * B[0] - B[2] * A[0];
     r[2] = A[0] * B[1] - B[0] * A[1]; r[3] = 0)
DREF(reflect, double dd = dot3(B, A); r[0] = dot3(B, A) < 0 ? A[3] : -A[3];
     FOR4 if (k < 3) r[k + 1] = A[k] - 2.0 * dd * B[k])
DREF(refract, double eta = 0.75; double dt = dot3(B, A); double kk = 1.0 - eta * eta * (1.0 - dt * dt);
     FOR4 if (k < 3) r[k] = kk < 0 ? 0.0 : eta * A[k] - (eta * dt + sqrt(kk)) * B[k]; r[3] = kk)
DREF(mat2, /* m = dmat2(a.xy, b.xy): columns (a0,a1), (b0,b1) */
     r[0] = A[0] * A[2] + B[0] * A[3]; r[1] = A[1] * A[2] + B[1] * A[3];
     r[2] = A[2] * A[0] + A[3] * A[1]; /* (a.zw * m).x */
     r[3] = A[0] * B[1] - B[0] * A[1])
DREF(mat4, /* m columns: a, b, a*2, b*0.5; m * b and transpose/outer sums */
     double c[4][4]; FOR4 { c[0][k] = A[k]; c[1][k] = B[k]; c[2][k] = A[k] * 2.0; c[3][k] = B[k] * 0.5; }
     FOR4 { double s = c[0][k] * B[0]; for (int j = 1; j < 4; j++) s += c[j][k] * B[j]; r[k] = s; })
DREF(matmat, /* (m * transpose(m))[1] + outerProduct(a, b)[2] with m = dmat4(a, b, a*2, b*0.5) */
     double c[4][4]; FOR4 { c[0][k] = A[k]; c[1][k] = B[k]; c[2][k] = A[k] * 2.0; c[3][k] = B[k] * 0.5; }
     FOR4 { double s = c[0][k] * c[0][1]; for (int t = 1; t < 4; t++) s += c[t][k] * c[t][1];
            r[k] = s + A[k] * B[2]; })
DREF(inverse, /* inverse(dmat2(a.xy, b.xy)) column 0 and 1 */
     double det = A[0] * B[1] - B[0] * A[1];
     r[0] = B[1] / det; r[1] = -A[1] / det; r[2] = -B[0] / det; r[3] = A[0] / det)
DREF(conv_f, FOR4 r[k] = (double)(float)A[k])
DREF(conv_i, FOR4 ri[k] = d2s(A[k] * 1000.0))
DREF(conv_u, FOR4 ri[k] = (int32_t)d2u(A[k] * 1000.0))
DREF(conv_back, FOR4 r[k] = (double)I[k] + (double)(uint32_t)I[k])
DREF(cmp, FOR4 ri[k] = (A[k] < B[k]) | (A[k] <= B[k]) << 1 | (A[k] > B[k]) << 2 | (A[k] >= B[k]) << 3 |
          (A[k] == B[k]) << 4 | !(A[k] == B[k]) << 5 | (isnan(A[k]) ? 1 : 0) << 6 |
          (isinf(A[k]) ? 1 : 0) << 7)
DREF(pack, FOR4 { uint64_t v; memcpy(&v, &A[k], 8); ri[k] = (int32_t)(k & 1 ? (uint32_t)(v >> 32) : (uint32_t)v); })
DREF(unpack, FOR4 { uint64_t v; memcpy(&v, &A[k], 8); v ^= 1; memcpy(&r[k], &v, 8); })
/* a compare (denormals count as zero) and a copy of the bits (volatile: no flushing maxsd) */
DREF(select, FOR4 { volatile int lt = A[k] < B[k]; r[k] = lt ? B[k] : A[k]; })
DREF(dynidx, double arr[4]; FOR4 arr[k] = A[k]; r[0] = arr[(I[0] & 3)]; double t[4]; FOR4 t[k] = A[k];
     t[I[1] & 3] = B[0]; FOR4 if (k > 0) r[k] = t[k])
DREF(loop, double acc = 0; for (int j = 0; j < (I[3] & 7); j++) acc += A[0] * (double)j;
     r[0] = acc; r[1] = A[1] < 0 ? A[2] : B[2]; r[2] = r[3] = 0)

#define PRE "dvec4 a = s.a[k], b = s.b[k]; ivec4 i = s.i[k];\n"

static const f64_case cases[] = {
    {"add", PRE "s.r[k] = a + b;", ref_add, 0},
    {"sub", PRE "s.r[k] = a - b;", ref_sub, 0},
    {"mul", PRE "s.r[k] = a * b;", ref_mul, 0},
    {"div", PRE "s.r[k] = a / b;", ref_div, 0},
    {"neg", PRE "s.r[k] = -a;", ref_neg, 0},
    {"mod", PRE "s.r[k] = mod(a, b);", ref_mod, 0},
    {"abs", PRE "s.r[k] = abs(a);", ref_abs, 0},
    {"sign", PRE "s.r[k] = sign(a);", ref_sign, 0},
    {"floor", PRE "s.r[k] = floor(a);", ref_floor, 0},
    {"ceil", PRE "s.r[k] = ceil(a);", ref_ceil, 0},
    {"fract", PRE "s.r[k] = fract(a);", ref_fract, 0},
    {"trunc", PRE "s.r[k] = trunc(a);", ref_trunc, 0},
    {"round", PRE "s.r[k] = round(a * 2.0lf);", ref_round, 0},
    {"roundEven", PRE "s.r[k] = roundEven(a * 2.0lf);", ref_roundeven, 0},
    {"sqrt", PRE "s.r[k] = dvec4(sqrt(b.x), sqrt(a.y), inversesqrt(b.z), inversesqrt(a.w));",
     ref_sqrt, 0},
    {"minmax", PRE "s.r[k] = dvec4(min(a.x, b.x), max(a.y, b.y), clamp(a.zw, dvec2(-0.5lf), b.zw));",
     ref_minmax, 0},
    {"mix", PRE "s.r[k] = mix(a, b, b * 0.2lf);", ref_mix, 0},
    {"step", PRE "s.r[k] = step(b * 0.5lf, a);", ref_step, 0},
    {"smoothstep", PRE "s.r[k] = smoothstep(dvec4(-1.0lf), dvec4(1.0lf), a);", ref_smooth, 0},
    {"fma", PRE "s.r[k] = fma(a, b, a);", ref_fma, 0},
    {"ldexp", PRE "s.r[k] = ldexp(a, (i & 63) - 32);", ref_ldexp, 0},
    {"frexp_modf", PRE "ivec2 e; dvec2 m = frexp(a.xy, e); double w; double f = modf(a.z, w);\n"
                   "s.r[k] = dvec4(m, f, w); s.ri[k] = ivec4(e, 0, 0);", ref_frexp, 2},
    {"geometry", PRE "s.r[k] = dvec4(length(a.xyz), distance(a.xyz, b.xyz), dot(a.xyz, b.xyz),"
                 " normalize(a.xyz).x);", ref_geom, 0},
    {"cross", PRE "s.r[k] = dvec4(cross(a.xyz, b.xyz), 0.0lf);", ref_cross, 0},
    {"reflect", PRE "s.r[k] = dvec4(faceforward(dvec3(a.w), b.xyz, a.xyz).x, reflect(a.xyz, b.xyz));",
     ref_reflect, 0},
    {"refract", PRE "double eta = 0.75lf; double dt = dot(b.xyz, a.xyz);\n"
                "s.r[k] = dvec4(refract(a.xyz, b.xyz, eta), 1.0lf - eta * eta * (1.0lf - dt * dt));",
     ref_refract, 0},
    {"mat2", PRE "dmat2 m = dmat2(a.xy, b.xy);\n"
             "s.r[k] = dvec4(m * a.zw, (a.zw * m).x, determinant(m));", ref_mat2, 0},
    {"mat4", PRE "dmat4 m = dmat4(a, b, a * 2.0lf, b * 0.5lf);\ns.r[k] = m * b;", ref_mat4, 0},
    {"matmat", PRE "dmat4 m = dmat4(a, b, a * 2.0lf, b * 0.5lf);\n"
               "s.r[k] = (m * transpose(m))[1] + outerProduct(a, b)[2];", ref_matmat, 0},
    {"inverse", PRE "dmat2 m = inverse(dmat2(a.xy, b.xy));\ns.r[k] = dvec4(m[0], m[1]);",
     ref_inverse, 0},
    {"conv_float", PRE "s.r[k] = dvec4(vec4(a));", ref_conv_f, 0},
    {"conv_int", PRE "s.ri[k] = ivec4(a * 1000.0lf);", ref_conv_i, 1},
    {"conv_uint", PRE "s.ri[k] = ivec4(uvec4(a * 1000.0lf));", ref_conv_u, 1},
    {"conv_back", PRE "s.r[k] = dvec4(i) + dvec4(uvec4(i));", ref_conv_back, 0},
    {"compare", PRE "ivec4 c = ivec4(lessThan(a, b)) | ivec4(lessThanEqual(a, b)) << 1 |\n"
                " ivec4(greaterThan(a, b)) << 2 | ivec4(greaterThanEqual(a, b)) << 3 |\n"
                " ivec4(equal(a, b)) << 4 | ivec4(notEqual(a, b)) << 5 | ivec4(isnan(a)) << 6 |\n"
                " ivec4(isinf(a)) << 7;\ns.ri[k] = c;", ref_cmp, 1},
    {"unpack", PRE "s.ri[k] = ivec4(unpackDouble2x32(a.x).x, unpackDouble2x32(a.y).y,"
               " unpackDouble2x32(a.z).x, unpackDouble2x32(a.w).y);", ref_pack, 1},
    {"pack", PRE "dvec4 o; for (int c = 0; c < 4; c++) { uvec2 u = unpackDouble2x32(a[c]);"
             " o[c] = packDouble2x32(uvec2(u.x ^ 1u, u.y)); }\ns.r[k] = o;", ref_unpack, 0},
    {"select", PRE "s.r[k] = mix(a, b, lessThan(a, b));", ref_select, 0},
    {"dynamic_index", PRE "double arr[4] = double[4](a.x, a.y, a.z, a.w); dvec4 t = a;\n"
                      "t[i.y & 3] = b.x;\ns.r[k] = dvec4(arr[i.x & 3], t.yzw);", ref_dynidx, 0},
    {"loop", PRE "double acc = 0.0lf; for (int j = 0; j < (i.w & 7); j++) acc += a.x * double(j);\n"
             "double v; if (a.y < 0.0lf) v = a.z; else v = b.z;\ns.r[k] = dvec4(acc, v, 0.0, 0.0);",
     ref_loop, 0},
};

static int same(double got, double want)
{
    if (got != got && want != want)
        return 1;
    return memcmp(&got, &want, 8) == 0;
}

static uint32_t rng = 4242;
static uint32_t next_rand(void) { rng = rng * 1664525u + 1013904223u; return rng >> 8; }
static double drand(double lo, double hi) { return lo + (hi - lo) * (double)(next_rand() % 1000003) / 1000003.0; }

static double inputs_a[NL][4], inputs_b[NL][4];
static int32_t inputs_i[NL][4];

static void make_inputs(void)
{
    for (int l = 0; l < NL; l++)
        for (int k = 0; k < 4; k++) {
            inputs_a[l][k] = drand(-4.0, 4.0);
            inputs_b[l][k] = drand(0.1, 3.0);
            inputs_i[l][k] = (int32_t)(next_rand() % 2001) - 1000;
        }
    /* special values in lanes 24..31 */
    const double sp[] = {NAN, INFINITY, -INFINITY, 4.9406564584124654e-324 /* smallest denormal */,
                         -0.0, 1e300, -1e-310 /* denormal */, 1.0 + 0x1p-24 /* float tie to even */,
                         1.0 + 0x1p-23 + 0x1p-24 /* tie, rounds up */, 3.5e38 /* above FLT_MAX */,
                         1e-45 /* float denormal */, 2.5, -2.5, 0.5, 1e-320, -1e308};
    int ns = (int)(sizeof sp / sizeof sp[0]);
    for (int l = 24; l < NL; l++)
        for (int k = 0; k < 4; k++) {
            inputs_a[l][k] = sp[(l * 4 + k) % ns];
            if ((l + k) & 1)
                inputs_b[l][k] = sp[(l * 3 + k + 5) % ns];
        }
    inputs_i[30][0] = INT32_MIN;
    inputs_i[31][1] = INT32_MAX;
}

static void run_cases(void)
{
    int ncase = (int)(sizeof cases / sizeof cases[0]);
    for (int c = 0; c < ncase; c++) {
        const f64_case *fc = &cases[c];
        char src[4096];
        snprintf(src, sizeof src,
                 "#version 450\nlayout(location=0) flat in int k;\n"
                 "layout(std430, binding = 1) buffer S { dvec4 a[32]; dvec4 b[32]; dvec4 r[32];"
                 " ivec4 i[32]; ivec4 ri[32]; } s;\n"
                 "void main() {\n%s\n}\n", fc->body);
        gm_rig r;
        if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
            CHECKF(0, "case %s: setup", fc->name);
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
        CHECKF(rig_run(&r, 0xffffffffu) == 0, "case %s: run", fc->name);
        int bad = 0;
        for (int l = 0; l < NL && bad < 3; l++) {
            double want[4] = {0, 0, 0, 0};
            int32_t wi[4] = {0, 0, 0, 0};
            lane_in x = {inputs_a[l], inputs_b[l], inputs_i[l]};
            /* the reference with denormals flushed, as llvmpipe and the model run shaders */
            unsigned csr = flush_enter(1);
            fc->ref(&x, want, wi);
            flush_leave(csr);
            for (int k = 0; k < 4; k++) {
                if (fc->ints != 1 && !same(io.r[l][k], want[k])) {
                    CHECKF(0, "case %s lane %d comp %d: got %.17g want %.17g", fc->name, l, k,
                           io.r[l][k], want[k]);
                    bad++;
                }
                if (fc->ints && io.ri[l][k] != wi[k]) {
                    CHECKF(0, "case %s lane %d comp %d: got %d want %d", fc->name, l, k,
                           io.ri[l][k], wi[k]);
                    bad++;
                }
            }
        }
        rig_free(&r);
    }
    printf("%d double cases\n", ncase);
}

static void putd(unsigned char *b, int off, double d) { memcpy(b + off, &d, 8); }

/* std140 block: double at 0, dvec3 at 32 (aligned to 32), dvec2 at 64, dmat3 columns at
 * 96/128/160 (stride 32), double arr[2] stride 16 at 192, a row-major dmat2x3 as three
 * dvec2 rows of stride 16 at 224 (size 272), dynamic indexes into both; std430 SSBO: dvec3 at 32 then
 * a double packed right after it at 56. Loose double uniforms from program memory. */
static void test_layouts_and_uniforms(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) flat in int k;\n"
        "layout(std140, binding = 2) uniform U { double d; dvec3 v3; dvec2 v2; dmat3 m;"
        " double arr[2]; layout(row_major) dmat2x3 rm; } u;\n"
        "layout(std430, binding = 1) buffer S { double x; dvec3 y; double z; dvec2 w;"
        " dvec4 out0; dvec4 out1; dvec4 out2; dvec4 out3; } s;\n"
        "uniform double ud; uniform dvec3 uv; uniform dmat2 um;\n"
        "layout(location=0) out vec4 o;\n"
        "void main() {\n"
        "  if (k == 0) {\n"
        "    s.out0 = dvec4(u.d, u.v3.z, u.v2.y, u.m[2].y);\n"
        "    s.out1 = dvec4(u.arr[k + 1], s.y.z + s.z, s.w.x, u.m * u.v3 == dvec3(u.m[0] * u.v3.x +"
        " u.m[1] * u.v3.y + u.m[2] * u.v3.z) ? 1.0lf : 0.0lf);\n"
        "    s.out2 = dvec4(ud, uv.y, um[1].x, um[0].y);\n"
        "    s.out3 = dvec4(u.rm[1][2], u.rm[0][1], u.rm[k + 1].x, s.w[k + 1]);\n"
        "    s.y.x = u.arr[0];\n"
        "  }\n"
        "  o = vec4(float(ud));\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    for (int b = 0; b < gm_program_block_count(r.p); b++) {
        const gm_block_info *bi = gm_program_block(r.p, b);
        if (strcmp(bi->name, "U") == 0)
            CHECKF(bi->size == 272, "U size %zu", bi->size);
        else
            CHECKF(bi->size == 224, "S size %zu", bi->size);
    }
    memset(ubo, 0, sizeof ubo);
    memset(&io, 0, sizeof io);
    unsigned char *sb = (unsigned char *)&io;
    putd(ubo, 0, 1.25);
    putd(ubo, 32 + 16, -7.5);   /* v3.z */
    putd(ubo, 64 + 8, 0.1);     /* v2.y */
    for (int c = 0; c < 3; c++)
        for (int row = 0; row < 3; row++)
            putd(ubo, 96 + c * 32 + row * 8, (double)(c * 3 + row) + 0.5);
    putd(ubo, 32, 2.0);
    putd(ubo, 40, 3.0);
    putd(ubo, 192, 1.0 / 3.0);  /* arr[0] */
    putd(ubo, 192 + 16, 5e-324); /* arr[1] */
    putd(sb, 32 + 16, 0.25);    /* y.z */
    putd(sb, 56, 0.5);          /* z */
    putd(sb, 64, -3.0);         /* w.x */
    putd(sb, 72, -4.0);         /* w.y */
    for (int c = 0; c < 2; c++) /* row-major dmat2x3: rows of dvec2, stride 16, at 224 */
        for (int row = 0; row < 3; row++)
            putd(ubo, 224 + row * 16 + c * 8, 100.0 + 10.0 * c + row);
    double ud = 0.1, uv[3] = {1.0, -2.0, 3.0}, um[4] = {1.5, 2.5, 3.5, 4.5};
    CHECK(gm_program_set_uniform_by_name(r.p, "ud", &ud, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "uv", uv, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "um", um, 1) == 0);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    for (int l = 0; l < NL; l++)
        rig_seti(&r, "k", 0, l, l);
    CHECK(rig_run(&r, 0xffffffffu) == 0);
    double got[16];
    memcpy(got, sb + 96, sizeof got);
    const double want[16] = {1.25, -7.5, 0.1, 7.5, 5e-324, 0.75, -3.0, 1.0,
                             0.1, -2.0, 3.5, 2.5, 112.0, 101.0, 110.0, -4.0};
    for (int i = 0; i < 16; i++)
        CHECKF(same(got[i], want[i]), "layout value %d: got %.17g want %.17g", i, got[i], want[i]);
    double yx;
    memcpy(&yx, sb + 32, 8);
    CHECKF(same(yx, 1.0 / 3.0), "std430 store y.x: %.17g", yx);
    CHECK(rig_outf(&r, "o", 0, 5) == 0.1f);
    rig_free(&r);
}

/* Divergent lanes: each half of the warp takes another branch (partial-mask blends of
 * double results), and a double flat varying in/out of the fragment stage. */
static void test_divergence(void)
{
    gm_rig r;
    const char *src =
        "#version 450\nlayout(location=0) flat in int k;\n"
        "layout(location=1) flat in dvec2 dv;\n"
        "layout(std430, binding = 1) buffer S { dvec4 a[32]; dvec4 b[32]; dvec4 r[32]; } s;\n"
        "void main() {\n"
        "  dvec4 v;\n"
        "  if ((k & 1) == 0) v = s.a[k] + s.b[k]; else v = s.a[k] * s.b[k];\n"
        "  if (k >= 16) v.zw = dv;\n"
        "  s.r[k] = v;\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    memset(&io, 0, sizeof io);
    memcpy(io.a, inputs_a, sizeof io.a);
    memcpy(io.b, inputs_b, sizeof io.b);
    gm_env env = {NULL, NULL, NULL, fake_buffer};
    gm_warp_set_env(r.w, &env);
    uint32_t (*dv)[GM_LANES] = rig_var(&r, "dv", GM_VAR_INPUT);
    CHECK(dv != NULL);
    for (int l = 0; l < NL && dv; l++) {
        rig_seti(&r, "k", 0, l, l);
        double vals[2] = {l * 0.5, -l * 0.25};
        for (int c = 0; c < 2; c++) {
            uint64_t bits;
            memcpy(&bits, &vals[c], 8);
            dv[2 * c][l] = (uint32_t)bits;       /* low word, then high word */
            dv[2 * c + 1][l] = (uint32_t)(bits >> 32);
        }
    }
    CHECK(rig_run(&r, 0x7fffffffu) == 0); /* lane 31 inactive */
    for (int l = 0; l < NL; l++)
        for (int c = 0; c < 4; c++) {
            unsigned csr = flush_enter(1);
            double want = l == 31 ? 0.0
                          : (l >= 16 && c >= 2) ? (c == 2 ? l * 0.5 : -l * 0.25)
                          : (l & 1) ? inputs_a[l][c] * inputs_b[l][c]
                                    : inputs_a[l][c] + inputs_b[l][c];
            flush_leave(csr);
            CHECKF(same(io.r[l][c], want), "lane %d comp %d: got %.17g want %.17g", l, c,
                   io.r[l][c], want);
        }
    rig_free(&r);
}

/* 16-bit integers (64-bit ones are modelled: test_exec_int64.c) are refused with the
 * type's name. */
static void test_refusals(void)
{
    gm_shader_source s = {GM_STAGE_FRAGMENT,
                          "#version 450\n"
                          "#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require\n"
                          "layout(location=0) out vec4 o;\nlayout(location=0) flat in int v;\n"
                          "void main() { int16_t h = int16_t(v); o = vec4(float(h * h)); }\n",
                          "t.frag"};
    gm_compile_result cr;
    if (gm_compile_program(&s, 1, &cr) != 0) {
        /* this glslang has no int16 in GL: nothing to check */
        gm_compile_result_free(&cr);
        return;
    }
    char err[256] = "";
    gm_program *p = gm_program_create(cr.shaders[0].spirv, cr.shaders[0].word_count, err,
                                      sizeof err);
    CHECKF(!p && strstr(err, "OpTypeInt with width 16"), "int16: %s", err);
    gm_program_destroy(p);
    gm_compile_result_free(&cr);
}

/* Corrupted words of a double-heavy module: an error or a program, never a crash (the unit
 * suite also runs under ASan+UBSan). */
static void test_fuzz(void)
{
    const char *src =
        "#version 450\nlayout(location=0) flat in ivec4 iv;\nlayout(location=0) out vec4 o;\n"
        "double f(dvec3 v, inout dmat3 m) { m = inverse(m) * 2.0lf; return length(v) + determinant(m); }\n"
        "void main() {\n"
        "  dvec4 a = dvec4(iv) * 0.5lf; dmat3 m = dmat3(a.xyz, a.yzw, dvec3(1.0lf));\n"
        "  double s = f(a.xyz, m); ivec3 e; dvec3 fr = frexp(m[0], e);\n"
        "  dvec2 t = a[iv.x & 3] < 0.0lf ? a.xy : refract(a.xy, normalize(a.zw), 0.5lf);\n"
        "  o = vec4(float(s), vec2(t), float(fract(fr.x + double(e.y)) + floor(mod(a.w, 3.0lf))));\n"
        "}\n";
    gm_shader_source ss = {GM_STAGE_FRAGMENT, src, "fuzz.frag"};
    gm_compile_result cr;
    if (gm_compile_program(&ss, 1, &cr) != 0) {
        CHECKF(0, "fuzz shader: %s", cr.log);
        gm_compile_result_free(&cr);
        return;
    }
    const uint32_t *spirv = cr.shaders[0].spirv;
    size_t wc = cr.shaders[0].word_count;
    char err[256];
    gm_program *p0 = gm_program_create(spirv, wc, err, sizeof err);
    CHECKF(p0 != NULL, "fuzz shader decode: %s", err);
    gm_program_destroy(p0);
    uint32_t seed = 7;
    uint32_t *copy = malloc(wc * sizeof *copy);
    for (int it = 0; copy && it < 300; it++) {
        memcpy(copy, spirv, wc * sizeof *copy);
        for (int k = 0; k < 3; k++) {
            seed = seed * 1103515245u + 12345u;
            size_t at = 5 + (seed >> 8) % (wc - 5);
            seed = seed * 1103515245u + 12345u;
            copy[at] = (seed >> 4) & 1 ? copy[at] ^ (1u << ((seed >> 8) % 32)) : (seed >> 10) % 64;
        }
        gm_program *p = gm_program_create(copy, wc, err, sizeof err);
        gm_warp *w = p ? gm_warp_create(p, 0) : NULL;
        if (w) {
            gm_warp_begin(w, 0x0f0f0f0fu, 0);
            gm_warp_run(w, 20000);
        }
        gm_warp_destroy(w);
        gm_program_destroy(p);
    }
    free(copy);
    gm_compile_result_free(&cr);
}

int main(void)
{
    make_inputs();
    run_cases();
    test_layouts_and_uniforms();
    test_divergence();
    test_refusals();
    test_fuzz();
    TEST_DONE();
}
