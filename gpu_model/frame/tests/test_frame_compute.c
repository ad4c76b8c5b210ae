/* Compute dispatches in the frame runner, fed records built by hand (no GL driver): a compute
 * program reads another warp's values from `shared` memory after barrier(), reduces through
 * shared memory with barriers, counts with an SSBO atomic; glDispatchCompute and
 * glDispatchComputeIndirect (counts from the DISPATCH_INDIRECT buffer) must leave the exact
 * results in the state model's buffer, with the timing model (workgroups of 4 warps; of 32 warps,
 * more than an SM's slots, run in lock step) and without it. Bad input (no program, no indirect
 * buffer, a draw with the compute program) is reported on the event, never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_frame.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/sm_blob.h"
#include "statemodel/statemodel.h"

#include "tests/support/glr_check.h"

static const char *shader_fmt =
    "#version 430\n"
    "layout(local_size_x = %d) in;\n"
    "layout(std430, binding = 0) buffer B { uint data[]; };\n"
    "shared uint s[%d];\n"
    "shared uint r[%d];\n"
    "void main() {\n"
    "  const uint N = %du;\n"
    "  uint i = gl_LocalInvocationIndex, g = gl_WorkGroupID.x, n = gl_NumWorkGroups.x;\n"
    "  s[i] = i * 3u + g;\n"
    "  r[i] = s[i];\n"
    "  barrier();\n"
    "  data[g * N + i] = s[(i + 33u) %% N] + (gl_GlobalInvocationID.x - g * N - i);\n"
    "  for (uint st = N / 2u; st > 0u; st >>= 1) {\n"
    "    if (i < st) r[i] += r[i + st];\n"
    "    barrier();\n"
    "  }\n"
    "  if (i == 0u) data[n * N + g] = r[0];\n"
    "  atomicAdd(data[n * N + n], 1u);\n"
    "}\n";

struct feeder {
    gmf_runner *r;
    uint64_t rec;
    gmf_event ev;
};

static struct glr_call *call(uint32_t cmd)
{
    static struct glr_call c;
    memset(&c, 0, sizeof c);
    c.cmd = cmd;
    c.ctx_id = 1;
    return &c;
}

static void feed(struct feeder *f, struct glr_call *c)
{
    CHECK(gmf_feed(f->r, c, f->rec++, &f->ev) == GMF_OK);
}

static void ret(struct glr_call *c, uint64_t v)
{
    c->ret = v;
    c->flags |= GLR_CALL_HAS_RET;
}

/* Compute program `prog` with shader `shader` of local size n. */
static void make_program(struct feeder *f, uint32_t shader, uint32_t prog, int n)
{
    char src[2048];
    snprintf(src, sizeof src, shader_fmt, n, n, n, n);
    struct glr_call *c = call(GLR_CMD_glCreateShader);
    c->args[0] = GL_COMPUTE_SHADER;
    ret(c, shader);
    feed(f, c);
    const char *s = src;
    size_t size;
    uint8_t *blob = sm_strings_encode(&s, 1, &size);
    c = call(GLR_CMD_glShaderSource);
    c->args[0] = shader;
    c->args[1] = 1;
    c->blobs[2].data = blob;
    c->blobs[2].size = size;
    feed(f, c);
    free(blob);
    c = call(GLR_CMD_glCompileShader);
    c->args[0] = shader;
    feed(f, c);
    c = call(GLR_CMD_glCreateProgram);
    ret(c, prog);
    feed(f, c);
    c = call(GLR_CMD_glAttachShader);
    c->args[0] = prog;
    c->args[1] = shader;
    feed(f, c);
    c = call(GLR_CMD_glLinkProgram);
    c->args[0] = prog;
    feed(f, c);
}

static void buffer(struct feeder *f, uint32_t target, uint32_t name, const void *data, size_t size)
{
    struct glr_call *c = call(GLR_CMD_glGenBuffers);
    c->args[0] = 1;
    c->blobs[1].data = &name;
    c->blobs[1].size = 4;
    feed(f, c);
    c = call(GLR_CMD_glBindBuffer);
    c->args[0] = target;
    c->args[1] = name;
    feed(f, c);
    c = call(GLR_CMD_glBufferData);
    c->args[0] = target;
    c->args[1] = size;
    c->blobs[2].data = data;
    c->blobs[2].size = size;
    c->args[3] = GL_DYNAMIC_DRAW;
    feed(f, c);
}

static const uint32_t *buffer_words(struct feeder *f, uint32_t name)
{
    const struct sm_context *c = sm_context_get(gmf_state(f->r), 1);
    const struct sm_buffer *b = c ? sm_get_buffer(c, name) : NULL;
    return b && b->data_known ? (const uint32_t *)b->data : NULL;
}

/* Checks the results of n groups of N invocations in buffer `name`. */
static void check_results(struct feeder *f, uint32_t name, uint32_t n, uint32_t N)
{
    const uint32_t *d = buffer_words(f, name);
    CHECK(d != NULL);
    if (!d)
        return;
    int bad = 0;
    for (uint32_t g = 0; g < n; g++) {
        for (uint32_t i = 0; i < N; i++)
            bad += d[g * N + i] != ((i + 33) % N) * 3 + g;
        bad += d[n * N + g] != 3 * N * (N - 1) / 2 + g * N;
    }
    bad += d[n * N + n] != n * N;
    if (bad)
        fprintf(stderr, "%d wrong words (n %u, N %u): sum[0] %u count %u\n", bad, n, N, d[n * N],
                d[n * N + n]);
    CHECK(bad == 0);
}

static void run(int timing, int N)
{
    gmf_surface_desc sd = { 1, 8, 8, false };
    gmf_config cfg = { .surfaces = &sd, .n_surfaces = 1,
                       .timing = timing ? GMF_TIMING_ON : GMF_TIMING_OFF };
    char err[128];
    struct feeder f = { gmf_create(&cfg, err, sizeof err), 0, { 0 } };
    CHECK(f.r != NULL);
    if (!f.r)
        return;
    struct glr_call *c = call(GLR_PSEUDO_CONTEXT_CREATE);
    c->args[0] = 1;
    c->args[1] = 1;
    feed(&f, c);

    /* Bad input first: no program bound. */
    c = call(GLR_CMD_glDispatchCompute);
    c->args[0] = c->args[1] = c->args[2] = 1;
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DISPATCH && f.ev.failed && f.ev.n_unsupported == 1);

    make_program(&f, 1, 2, N);
    c = call(GLR_CMD_glUseProgram);
    c->args[0] = 2;
    feed(&f, c);
    /* Indirect without a DISPATCH_INDIRECT buffer: reported. */
    c = call(GLR_CMD_glDispatchComputeIndirect);
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DISPATCH && f.ev.failed && f.ev.n_unsupported == 1 &&
          strstr(f.ev.unsupported[0], "indirect"));

    size_t size = (3 * (size_t)N + 4) * 4;
    uint32_t *zero = calloc(1, size);
    buffer(&f, GL_SHADER_STORAGE_BUFFER, 10, zero, size);
    c = call(GLR_CMD_glBindBufferBase);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = 0;
    c->args[2] = 10;
    feed(&f, c);
    c = call(GLR_CMD_glDispatchCompute);
    c->args[0] = 3;
    c->args[1] = c->args[2] = 1;
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DISPATCH && !f.ev.failed && f.ev.n_unsupported == 0);
    if (f.ev.n_unsupported)
        fprintf(stderr, "note: %s\n", f.ev.unsupported[0]);
    CHECK(timing && N <= 512 ? f.ev.stats.cycles > 0 : f.ev.stats.cycles == 0);
    check_results(&f, 10, 3, (uint32_t)N);

    /* Indirect: 2 groups from the DISPATCH_INDIRECT buffer, into a fresh buffer. */
    const uint32_t groups[3] = { 2, 1, 1 };
    buffer(&f, GL_DISPATCH_INDIRECT_BUFFER, 11, groups, sizeof groups);
    buffer(&f, GL_SHADER_STORAGE_BUFFER, 12, zero, size);
    c = call(GLR_CMD_glBindBufferBase);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = 0;
    c->args[2] = 12;
    feed(&f, c);
    c = call(GLR_CMD_glMemoryBarrier);
    c->args[0] = GL_ALL_BARRIER_BITS;
    feed(&f, c);
    c = call(GLR_CMD_glDispatchComputeIndirect);
    c->args[0] = 0;
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DISPATCH && !f.ev.failed && f.ev.n_unsupported == 0);
    check_results(&f, 12, 2, (uint32_t)N);

    /* Drawing with the compute program bound: reported, nothing run. */
    c = call(GLR_CMD_glDrawArrays);
    c->args[0] = GL_TRIANGLES;
    c->args[2] = 3;
    feed(&f, c);
    CHECK(f.ev.kind == GMF_EV_DRAW && f.ev.failed && f.ev.n_unsupported == 1 &&
          strstr(f.ev.unsupported[0], "compute program"));

    gmf_totals t;
    gmf_get_totals(f.r, &t);
    CHECK(t.dispatches == 4 && t.dispatches_failed == 2 && t.cs_invocations == 5u * (uint64_t)N);
    free(zero);
    gmf_destroy(f.r);
}

int main(void)
{
    run(1, 128);   /* timing model: workgroups of 4 warps */
    run(0, 128);   /* lock-step phases */
    run(1, 1024);  /* 32 warps > 16 slots: lock step under the timing model */
    run(0, 1024);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
