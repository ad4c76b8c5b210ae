/* Compute support of the decoder and executor: LocalSize, `shared` variables (one copy per
 * workgroup, across warps), barrier() as GM_OP_BARRIER with lock-step barrier stops, shared
 * atomics, memoryBarrier*() decoding, and the compute built-ins filled by the caller. A
 * workgroup of 64 invocations (2 warps) reverses an array through shared memory and computes
 * a tree reduction: both are wrong unless every warp reaches each barrier before any goes on.
 * Image atomics (OpImageTexelPointer + OpAtomic*) become image requests with their operands.
 * ARB_compute_variable_group_size compiles (local size 1, gl_LocalGroupSizeARB a uniform) and runs
 * with the group size a dispatch gives. */
#include "gm_ir.h"
#include "gm_rig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_ID 27    /* SPIR-V BuiltIn LocalInvocationId */
#define LOCAL_INDEX 29 /* LocalInvocationIndex */
#define GROUP_ID 26    /* WorkgroupId */

typedef struct {
    uint8_t *ssbo;
    size_t size;
} buf_ctx;

static void *fake_buffer(void *ctx, gm_buffer_kind kind, unsigned binding, size_t *size)
{
    buf_ctx *b = ctx; /* or an img_ctx, which starts with one */
    if (kind != GM_BUFFER_STORAGE || binding != 0) {
        *size = 0;
        return NULL;
    }
    *size = b->size;
    return b->ssbo;
}

static const char *reduce_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) buffer B { uint data[64]; uint rev[64]; uint sum; uint cnt; "
    "uint maxv; };\n"
    "shared uint s[64];\n"
    "shared uint scount;\n"
    "void main() {\n"
    "  uint i = gl_LocalInvocationIndex;\n"
    "  if (i == 0u) scount = 0u;\n"
    "  s[i] = data[i];\n"
    "  memoryBarrierShared();\n"
    "  barrier();\n"
    "  rev[i] = s[63u - i];\n"
    "  atomicAdd(scount, 1u);\n"
    "  atomicMax(maxv, s[i]);\n"
    "  barrier();\n"
    "  for (uint st = 32u; st > 0u; st >>= 1) {\n"
    "    if (i < st) s[i] += s[i + st];\n"
    "    barrier();\n"
    "  }\n"
    "  if (i == 0u) { sum = s[0]; cnt = scount; }\n"
    "}\n";

/* Runs one workgroup of `nwarps` warps in lock-step phases to each barrier. Returns the
 * number of phases, -1 on error. */
static int run_group_sized(gm_program *p, gm_warp **w, int nwarps, int invocations, uint32_t *shared,
                           const gm_env *env, const int *size)
{
    int lid_var = -1, lidx_var = -1, off = 0;
    gm_program_find_builtin(p, LOCAL_ID, &lid_var, &off);
    gm_program_find_builtin(p, LOCAL_INDEX, &lidx_var, &off);
    int ls[3];
    gm_program_local_size(p, ls);
    if (size)
        memcpy(ls, size, sizeof ls);
    for (int k = 0; k < nwarps; k++) {
        int n = invocations - 32 * k;
        gm_mask m = n >= 32 ? 0xffffffffu : ((1u << n) - 1u);
        gm_warp_set_env(w[k], env);
        gm_warp_set_shared(w[k], shared, (uint32_t)gm_program_shared_words(p));
        gm_warp_set_barrier_stop(w[k], 1);
        gm_warp_begin(w[k], m, 0);
        for (int l = 0; l < GM_LANES; l++) {
            uint32_t li = (uint32_t)(32 * k + l);
            if (lid_var >= 0) {
                uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w[k], lid_var);
                v[0][l] = li % (uint32_t)ls[0];
                v[1][l] = li / (uint32_t)ls[0] % (uint32_t)ls[1];
                v[2][l] = li / (uint32_t)(ls[0] * ls[1]);
            }
            if (lidx_var >= 0)
                gm_warp_var_lanes(w[k], lidx_var)[0][l] = li;
        }
    }
    int phases = 0;
    for (;;) {
        int running = 0;
        phases++;
        for (int k = 0; k < nwarps; k++) {
            gm_run_status st = gm_warp_run(w[k], 1000000);
            if (st == GM_RUN_ERROR) {
                fprintf(stderr, "warp %d: %s\n", k, gm_warp_error(w[k]));
                return -1;
            }
            if (st == GM_RUN_PAUSED) {
                if (!gm_warp_at_barrier(w[k]))
                    return -1;
                running++;
            }
        }
        if (!running)
            return phases;
        if (phases > 100)
            return -1;
    }
}

static int run_group(gm_program *p, gm_warp **w, int nwarps, int invocations, uint32_t *shared,
                     const gm_env *env)
{
    return run_group_sized(p, w, nwarps, invocations, shared, env, NULL);
}

/* ARB_compute_variable_group_size (glslang does not know it): the front end compiles
 * `layout(local_size_variable) in;` as a local size of 1 and gl_LocalGroupSizeARB as the uniform
 * glr_LocalGroupSizeARB, which the dispatch (gmf_compute.c: glDispatchComputeGroupSizeARB's
 * arguments) sets with the local size it runs. Two group sizes through shared memory and a
 * barrier: every invocation sees the size and reads its mirror's value. */
static void test_variable_group_size(void)
{
    static const char *src =
        "#version 430\n"
        "#extension GL_ARB_compute_variable_group_size : require\n"
        "layout(local_size_variable) in;\n"
        "layout(std430, binding = 0) buffer B { uint data[]; };\n"
        "shared uint s[512];\n"
        "void main() {\n"
        "  uvec3 sz = gl_LocalGroupSizeARB;\n"
        "  uint n = sz.x * sz.y * sz.z, i = gl_LocalInvocationIndex;\n"
        "  uvec3 id = gl_LocalInvocationID;\n"
        "  s[i] = (id.z * sz.y + id.y) * sz.x + id.x;\n"
        "  barrier();\n"
        "  data[i] = ((sz.x * 1000000u + sz.y * 1000u + sz.z) & 0x0fffffffu) | ((s[n - 1u - i] & 15u) << 28);\n"
        "}\n";
    gm_rig r;
    if (rig_init(&r, GM_STAGE_COMPUTE, src) != 0) {
        CHECK(0);
        return;
    }
    int ls[3];
    gm_program_local_size(r.p, ls);
    CHECK(ls[0] == 1 && ls[1] == 1 && ls[2] == 1);
    CHECK(gm_program_find_uniform(r.p, "glr_LocalGroupSizeARB") >= 0);
    /* The #extension line is kept as an empty line: main's lines keep their numbers. */
    CHECK(strstr(r.cr.shaders[0].compiled_source, "GL_ARB_compute_variable_group_size") == NULL);
    static const int sizes[][3] = { {8, 4, 1}, {16, 3, 2}, {1, 1, 64} };
    gm_warp *w[4] = {r.w, gm_warp_create(r.p, 1), gm_warp_create(r.p, 2), gm_warp_create(r.p, 3)};
    size_t bytes = 512 * 4;
    buf_ctx b = {calloc(1, bytes), bytes};
    uint32_t *shared = calloc((size_t)gm_program_shared_words(r.p), 4);
    gm_env env = {&b, NULL, NULL, fake_buffer};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0] && w[3] && b.ssbo && shared; k++) {
        const int *sz = sizes[k];
        int n = sz[0] * sz[1] * sz[2], nw = (n + 31) / 32;
        uint32_t words[3] = { (uint32_t)sz[0], (uint32_t)sz[1], (uint32_t)sz[2] };
        CHECK(gm_program_set_uniform_by_name(r.p, "glr_LocalGroupSizeARB", words, 1) == 0);
        memset(b.ssbo, 0, bytes);
        memset(shared, 0, (size_t)gm_program_shared_words(r.p) * 4);
        CHECKF(run_group_sized(r.p, w, nw, n, shared, &env, sz) == 2, "size %d,%d,%d", sz[0], sz[1], sz[2]);
        const uint32_t *d = (const uint32_t *)b.ssbo;
        int bad = 0;
        for (int i = 0; i < n; i++) {
            uint32_t mirror = (uint32_t)(n - 1 - i);
            uint32_t want = (((uint32_t)sz[0] * 1000000u + (uint32_t)sz[1] * 1000u + (uint32_t)sz[2]) &
                             0x0fffffffu) | ((mirror & 15u) << 28);
            bad += d[i] != want;
        }
        bad += d[n] != 0; /* nothing past the group */
        CHECKF(bad == 0, "size %d,%d,%d: %d wrong words (data[0] %08x)", sz[0], sz[1], sz[2], bad, d[0]);
    }
    CHECK(w[1] && w[2] && w[3]);
    for (int k = 1; k < 4; k++)
        if (w[k])
            gm_warp_destroy(w[k]);
    free(shared);
    free(b.ssbo);
    rig_free(&r);

    /* gl_LocalGroupSizeARB keeps its line: an error after it is reported where it is. */
    gm_compile_result cr;
    gm_shader_source bad_src = {GM_STAGE_COMPUTE,
                                "#version 430\n#extension GL_ARB_compute_variable_group_size : enable\n"
                                "layout(local_size_variable) in;\nvoid main() {\n"
                                "  uvec3 s = gl_LocalGroupSizeARB;\n  undefined_name = s.x;\n}\n", NULL};
    CHECK(gm_compile_program(&bad_src, 1, &cr) != 0);
    CHECKF(cr.log && strstr(cr.log, ":6:") && strstr(cr.log, "undefined_name"), "%s", cr.log ? cr.log : "");
    gm_compile_result_free(&cr);
}

static void test_reduce(void)
{
    gm_rig r;
    if (rig_init(&r, GM_STAGE_COMPUTE, reduce_src) != 0) {
        CHECK(0);
        return;
    }
    int ls[3];
    gm_program_local_size(r.p, ls);
    CHECK(ls[0] == 64 && ls[1] == 1 && ls[2] == 1);
    CHECK(gm_program_shared_words(r.p) == 65);
    int barriers = 0;
    for (int pc = 0; pc < gm_program_pc_count(r.p); pc++)
        barriers += gm_program_pc_is_barrier(r.p, pc);
    CHECKF(barriers == 3, "%d barrier instructions", barriers);
    /* The shared array is not a per-lane register variable. */
    int sv = gm_program_find_var(r.p, "s", GM_VAR_GLOBAL);
    CHECK(sv >= 0 && gm_warp_var_lanes(r.w, sv) == NULL);

    gm_warp *w[2] = {r.w, gm_warp_create(r.p, 1)};
    CHECK(w[1] != NULL);
    size_t size = (64 + 64 + 3) * 4;
    buf_ctx b = {calloc(1, size), size};
    uint32_t *data = (uint32_t *)b.ssbo;
    uint32_t expect = 0;
    for (int i = 0; i < 64; i++) {
        data[i] = (uint32_t)(i * 7 + 3);
        expect += data[i];
    }
    uint32_t *shared = calloc((size_t)gm_program_shared_words(r.p), 4);
    gm_env env = {&b, NULL, NULL, fake_buffer};
    int phases = w[1] ? run_group(r.p, w, 2, 64, shared, &env) : -1;
    /* 3 static barriers, the loop's one runs 6 times: 8 barrier waits + the final phase. */
    CHECKF(phases == 9, "%d phases", phases);
    for (int i = 0; i < 64; i++)
        CHECKF(data[64 + i] == data[63 - i], "rev[%d] = %u", i, data[64 + i]);
    CHECKF(data[128] == expect, "sum %u, expected %u", data[128], expect);
    CHECKF(data[129] == 64, "shared atomic count %u", data[129]);
    CHECKF(data[130] == 63 * 7 + 3, "atomicMax %u", data[130]);

    /* Without barrier stops the first warp would run ahead and read the other warp's half of
     * s[] before it is written: the reversal must then differ (the stops are what makes it
     * right). */
    memset(b.ssbo + 64 * 4, 0, size - 64 * 4);
    memset(shared, 0, (size_t)gm_program_shared_words(r.p) * 4);
    for (int k = 0; k < 2 && w[1]; k++) {
        gm_warp_set_barrier_stop(w[k], 0);
        gm_warp_set_shared(w[k], shared, (uint32_t)gm_program_shared_words(r.p));
        gm_warp_begin(w[k], 0xffffffffu, 0);
        uint32_t (*v)[GM_LANES] = gm_warp_var_lanes(w[k], gm_program_find_var(r.p,
                                                                             "gl_LocalInvocationIndex",
                                                                             GM_VAR_INPUT));
        if (v)
            for (int l = 0; l < GM_LANES; l++)
                v[0][l] = (uint32_t)(32 * k + l);
        CHECK(gm_warp_run(w[k], 1000000) == GM_RUN_DONE);
    }
    CHECK(data[64] != data[63]);
    free(shared);
    free(b.ssbo);
    gm_warp_destroy(w[1]);
    rig_free(&r);
}

/* Subgroup-scope barriers and memory barriers decode to nothing; a fragment shader has no
 * workgroup barrier; shared memory out of range reads 0 without a shared block. */
static void test_decode_only(void)
{
    gm_rig r;
    const char *src =
        "#version 450\n"
        "layout(local_size_x = 8, local_size_y = 4, local_size_z = 2) in;\n"
        "layout(std430, binding = 0) buffer B { uint o[64]; };\n"
        "shared uint t[64];\n"
        "void main() {\n"
        "  uint i = gl_LocalInvocationIndex;\n"
        "  t[i] = i * 2u;\n"
        "  memoryBarrier(); memoryBarrierBuffer(); groupMemoryBarrier();\n"
        "  barrier();\n"
        "  o[i] = t[(i + 1u) & 63u] + gl_LocalInvocationID.y * 1000u;\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_COMPUTE, src) != 0) {
        CHECK(0);
        return;
    }
    int ls[3];
    gm_program_local_size(r.p, ls);
    CHECK(ls[0] == 8 && ls[1] == 4 && ls[2] == 2);
    gm_warp *w[2] = {r.w, gm_warp_create(r.p, 1)};
    buf_ctx b = {calloc(64, 4), 256};
    uint32_t *shared = calloc(64, 4);
    gm_env env = {&b, NULL, NULL, fake_buffer};
    int phases = w[1] ? run_group(r.p, w, 2, 64, shared, &env) : -1;
    CHECKF(phases == 2, "%d phases", phases);
    uint32_t *o = (uint32_t *)b.ssbo;
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t y = i / 8 % 4;
        CHECKF(o[i] == ((i + 1) & 63) * 2 + y * 1000, "o[%u] = %u", i, o[i]);
    }
    /* No shared block attached: loads give 0, stores are dropped, no crash. */
    gm_warp_set_shared(w[0], NULL, 0);
    gm_warp_set_barrier_stop(w[0], 0);
    gm_warp_begin(w[0], 0xffffffffu, 0);
    CHECK(gm_warp_run(w[0], 1000000) == GM_RUN_DONE);
    free(shared);
    free(b.ssbo);
    gm_warp_destroy(w[1]);
    rig_free(&r);
}

/* imageAtomic*() through OpImageTexelPointer: GM_OP_IMAGE requests with the atomic op, the
 * unit, the coordinates, the operand in data[0] and the comparator in data[1]; the previous
 * value comes back per lane. */
typedef struct {
    buf_ctx b;            /* first: fake_buffer reads it through the same pointer */
    int calls;
    gm_image_request last[4];
} img_ctx;

static void fake_image(void *ctx, const gm_image_request *req, gm_texel_out *out)
{
    img_ctx *c = ctx;
    if (c->calls < 4)
        c->last[c->calls] = *req;
    c->calls++;
    for (int l = 0; l < GM_LANES; l++)
        out->u[0][l] = 1000u + (uint32_t)req->coord[0][l];
}

static void test_image_atomics(void)
{
    gm_rig r;
    const char *src =
        "#version 450\n"
        "layout(local_size_x = 32) in;\n"
        "layout(std430, binding = 0) buffer B { uint o[32]; };\n"
        "layout(r32ui, binding = 2) uniform uimage2D im;\n"
        "layout(r32i, binding = 3) uniform iimage2D si;\n"
        "void main() {\n"
        "  uint i = gl_LocalInvocationIndex;\n"
        "  o[i] = imageAtomicAdd(im, ivec2(int(i), 1), 5u);\n"
        "  imageAtomicCompSwap(im, ivec2(0, 0), 7u, 9u);\n"
        "  imageAtomicMin(si, ivec2(2, 3), -4);\n"
        "}\n";
    if (rig_init(&r, GM_STAGE_COMPUTE, src) != 0) {
        CHECK(0);
        return;
    }
    int u_im = 2, u_si = 3;
    gm_program_set_uniform_by_name(r.p, "im", &u_im, 1);
    gm_program_set_uniform_by_name(r.p, "si", &u_si, 1);
    img_ctx ic = {{calloc(32, 4), 128}, 0, {{0}}};
    gm_env env = {&ic, NULL, fake_image, fake_buffer};
    gm_warp_set_env(r.w, &env);
    gm_warp_begin(r.w, 0xffffffffu, 0);
    int v = gm_program_find_var(r.p, "gl_LocalInvocationIndex", GM_VAR_INPUT);
    uint32_t (*li)[GM_LANES] = v >= 0 ? gm_warp_var_lanes(r.w, v) : NULL;
    if (li)
        for (int l = 0; l < GM_LANES; l++)
            li[0][l] = (uint32_t)l;
    CHECK(gm_warp_run(r.w, 1000000) == GM_RUN_DONE);
    CHECKF(ic.calls == 3, "%d image calls", ic.calls);
    const gm_image_request *a = &ic.last[0], *cs = &ic.last[1], *mn = &ic.last[2];
    CHECK(a->op == GM_IMG_ATOMIC_ADD && a->unit == 2 && a->mask == 0xffffffffu);
    CHECK(a->coord[0][7] == 7 && a->coord[1][7] == 1 && a->data.u[0][7] == 5);
    CHECK(cs->op == GM_IMG_ATOMIC_COMP_SWAP && cs->data.u[0][0] == 9 && cs->data.u[1][0] == 7);
    CHECK(mn->op == GM_IMG_ATOMIC_MIN && mn->unit == 3 && mn->signed_atomic &&
          (int32_t)mn->data.u[0][0] == -4);
    const uint32_t *o = (const uint32_t *)ic.b.ssbo;
    CHECKF(o[0] == 1000 && o[31] == 1031, "old values %u %u", o[0], o[31]);
    free(ic.b.ssbo);
    rig_free(&r);
}

/* GL_NV_shader_atomic_float's atomicAdd and GL_INTEL_shader_atomic_float_minmax's atomicMin/Max
 * on a storage buffer (llvmpipe: LLVM's atomicrmw fadd/fmin/fmax; min and max are minnum/maxnum,
 * so a NaN in memory gives way to the operand), and GL_ARB_shader_clock: two reads of one
 * invocation are ordered, and a later run of the program reads a larger value. */
static void test_float_atomics_clock(void)
{
    static const char *src =
        "#version 430\n"
        "#extension GL_NV_shader_atomic_float : require\n"
        "#extension GL_INTEL_shader_atomic_float_minmax : require\n"
        "#extension GL_ARB_shader_clock : require\n"
        "layout(local_size_x = 64) in;\n"
        "layout(std430, binding = 0) buffer B { float sum; float mn; float mx; float nanmin;\n"
        "  uint ordered; uvec2 last; };\n"
        "void main() {\n"
        "  uint i = gl_LocalInvocationIndex;\n"
        "  uvec2 a = clock2x32ARB();\n"
        "  atomicAdd(sum, 0.25);\n"
        "  atomicMin(mn, float(i) - 10.0);\n"
        "  atomicMax(mx, float(i) * 0.5);\n"
        "  atomicMin(nanmin, float(i) + 1.0);\n"
        "  uvec2 b = clock2x32ARB();\n"
        "  if (b.y > a.y || (b.y == a.y && b.x > a.x)) atomicAdd(ordered, 1u);\n"
        "  if (i == 0u) last = b;\n"
        "}\n";
    gm_rig r;
    if (rig_init(&r, GM_STAGE_COMPUTE, src) != 0) {
        CHECK(0);
        return;
    }
    gm_warp *w[2] = {r.w, gm_warp_create(r.p, 1)};
    CHECK(w[1] != NULL);
    size_t size = 8 * 4;   /* std430: last (uvec2) at byte 24 */
    buf_ctx b = {calloc(1, size), size};
    uint32_t prev[2] = {0, 0};
    for (int run = 0; run < 2 && w[1]; run++) {
        float init[4] = {0.0f, 100.0f, -100.0f, 0.0f};
        uint32_t nan = 0x7fc00000u;
        memcpy(b.ssbo, init, sizeof init);
        memcpy(b.ssbo + 12, &nan, 4);
        memset(b.ssbo + 16, 0, 16);
        gm_env env = {&b, NULL, NULL, fake_buffer};
        CHECK(run_group(r.p, w, 2, 64, NULL, &env) >= 1);
        float got[4];
        uint32_t words[4];   /* ordered, padding, last.x, last.y */
        memcpy(got, b.ssbo, sizeof got);
        memcpy(words, b.ssbo + 16, sizeof words);
        CHECKF(got[0] == 16.0f, "atomicAdd sum %g", (double)got[0]);
        CHECKF(got[1] == -10.0f, "atomicMin %g", (double)got[1]);
        CHECKF(got[2] == 31.5f, "atomicMax %g", (double)got[2]);
        CHECKF(got[3] == 1.0f, "atomicMin over NaN %g", (double)got[3]);
        CHECKF(words[0] == 64, "%u of 64 invocations saw the clock advance", words[0]);
        uint64_t t = (uint64_t)words[3] << 32 | words[2], t0 = (uint64_t)prev[1] << 32 | prev[0];
        CHECKF(t > t0, "clock %llu after %llu", (unsigned long long)t, (unsigned long long)t0);
        prev[0] = words[2];
        prev[1] = words[3];
    }
    free(b.ssbo);
    gm_warp_destroy(w[1]);
    rig_free(&r);
}

int main(void)
{
    test_float_atomics_clock();
    test_image_atomics();
    test_reduce();
    test_decode_only();
    test_variable_group_size();
    TEST_DONE();
}
