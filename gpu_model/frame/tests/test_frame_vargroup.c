/* glDispatchComputeGroupSizeARB (ARB_compute_variable_group_size) in the frame runner, fed records
 * built by hand: llvmpipe 22.3 does not expose the extension, so no capture can hold the call on
 * this machine. A `layout(local_size_variable) in;` program runs with the group size of each call
 * (one warp, three warps with a partial one, one lane per group), reads gl_LocalGroupSizeARB,
 * gl_LocalInvocationID/Index, gl_WorkGroupID and gl_GlobalInvocationID, and meets its group's
 * other warps at a barrier through shared memory; with and without the timing model. Dispatches
 * GL rejects (glDispatchCompute with a variable-size program, this call with a fixed-size one,
 * sizes of 0 or beyond the limits) run nothing and say why on the event; so does a program that
 * does not compile in the model, with glslang's message (not only "failed to compile:"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gmf_frame.h"
#include "registry/glr_gl_enums.h"
#include "statemodel/sm_blob.h"
#include "statemodel/statemodel.h"

#include "tests/support/glr_check.h"

static const char *variable_src =
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
    "  uvec3 w = gl_WorkGroupID, nw = gl_NumWorkGroups;\n"
    "  uint g = w.x + nw.x * (w.y + nw.y * w.z);\n"
    "  uint v = (sz.x << 24) | (sz.y << 16) | (sz.z << 8) | (s[n - 1u - i] & 255u);\n"
    "  if (gl_GlobalInvocationID != w * sz + id) v = 0xdeadu;\n"
    "  data[g * n + i] = v;\n"
    "}\n";

static const char *broken_src =
    "#version 430\n"
    "layout(local_size_x = 4) in;\n"
    "void main() { undefined_name = 1u; }\n";

static const char *fixed_src =
    "#version 430\n"
    "layout(local_size_x = 4) in;\n"
    "layout(std430, binding = 0) buffer B { uint data[]; };\n"
    "void main() { data[gl_GlobalInvocationID.x] = 7u; }\n";

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

static void make_program(struct feeder *f, uint32_t shader, uint32_t prog, const char *src)
{
    struct glr_call *c = call(GLR_CMD_glCreateShader);
    c->args[0] = GL_COMPUTE_SHADER;
    ret(c, shader);
    feed(f, c);
    size_t size;
    uint8_t *blob = sm_strings_encode(&src, 1, &size);
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

static void use(struct feeder *f, uint32_t prog)
{
    struct glr_call *c = call(GLR_CMD_glUseProgram);
    c->args[0] = prog;
    feed(f, c);
}

/* A zeroed SSBO `name` of `words` words bound at binding 0. */
static void ssbo(struct feeder *f, uint32_t name, size_t words)
{
    uint32_t *zero = calloc(words, 4);
    struct glr_call *c = call(GLR_CMD_glGenBuffers);
    c->args[0] = 1;
    c->blobs[1].data = &name;
    c->blobs[1].size = 4;
    feed(f, c);
    c = call(GLR_CMD_glBindBuffer);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = name;
    feed(f, c);
    c = call(GLR_CMD_glBufferData);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = words * 4;
    c->blobs[2].data = zero;
    c->blobs[2].size = words * 4;
    c->args[3] = GL_DYNAMIC_DRAW;
    feed(f, c);
    c = call(GLR_CMD_glBindBufferBase);
    c->args[0] = GL_SHADER_STORAGE_BUFFER;
    c->args[1] = 0;
    c->args[2] = name;
    feed(f, c);
    free(zero);
}

static const uint32_t *buffer_words(struct feeder *f, uint32_t name)
{
    const struct sm_context *c = sm_context_get(gmf_state(f->r), 1);
    const struct sm_buffer *b = c ? sm_get_buffer(c, name) : NULL;
    return b && b->data_known ? (const uint32_t *)b->data : NULL;
}

static void dispatch(struct feeder *f, const uint32_t groups[3], const uint32_t size[3])
{
    struct glr_call *c = call(size ? GLR_CMD_glDispatchComputeGroupSizeARB : GLR_CMD_glDispatchCompute);
    for (int k = 0; k < 3; k++) {
        c->args[k] = groups[k];
        if (size)
            c->args[3 + k] = size[k];
    }
    feed(f, c);
}

/* One variable-size dispatch into a fresh buffer; checks every word. */
static void check_dispatch(struct feeder *f, uint32_t name, const uint32_t groups[3],
                           const uint32_t size[3])
{
    uint32_t n = size[0] * size[1] * size[2], ng = groups[0] * groups[1] * groups[2];
    ssbo(f, name, (size_t)n * ng + 1);
    dispatch(f, groups, size);
    CHECK(f->ev.kind == GMF_EV_DISPATCH && !f->ev.failed && f->ev.n_unsupported == 0);
    if (f->ev.n_unsupported)
        fprintf(stderr, "note: %s\n", f->ev.unsupported[0]);
    const uint32_t *d = buffer_words(f, name);
    CHECK(d != NULL);
    if (!d)
        return;
    int bad = 0;
    for (uint32_t g = 0; g < ng; g++)
        for (uint32_t i = 0; i < n; i++) {
            uint32_t want = (size[0] << 24) | (size[1] << 16) | (size[2] << 8) | ((n - 1 - i) & 255u);
            if (d[g * n + i] != want && bad++ < 4)
                fprintf(stderr, "size %u,%u,%u group %u invocation %u: %08x, want %08x\n", size[0],
                        size[1], size[2], g, i, d[g * n + i], want);
        }
    bad += d[n * ng] != 0;
    CHECK(bad == 0);
}

/* A dispatch GL rejects: nothing runs, the event says why. */
static void check_rejected(struct feeder *f, uint32_t name, const uint32_t groups[3],
                           const uint32_t *size, const char *why)
{
    ssbo(f, name, 64);
    dispatch(f, groups, size);
    CHECK(f->ev.kind == GMF_EV_DISPATCH && f->ev.n_unsupported == 1);
    if (f->ev.n_unsupported == 1 && !strstr(f->ev.unsupported[0], why)) {
        fprintf(stderr, "note %s lacks %s\n", f->ev.unsupported[0], why);
        failures++;
    }
    const uint32_t *d = buffer_words(f, name);
    int written = 0;
    for (int k = 0; d && k < 64; k++)
        written += d[k] != 0;
    CHECK(d && written == 0);
}

static void run(int timing)
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

    make_program(&f, 1, 2, variable_src);
    use(&f, 2);
    static const uint32_t g2[3] = { 2, 1, 1 }, g3[3] = { 1, 3, 1 }, g1[3] = { 1, 1, 1 };
    static const uint32_t s32[3] = { 8, 4, 1 }, s96[3] = { 16, 3, 2 }, s1[3] = { 1, 1, 1 };
    check_dispatch(&f, 10, g2, s32);   /* one warp per group */
    check_dispatch(&f, 11, g3, s96);   /* three warps meeting at the barrier */
    check_dispatch(&f, 12, g2, s1);    /* one lane */
    static const uint32_t s0[3] = { 0, 4, 1 }, big[3] = { 32, 32, 1 }, deep[3] = { 1, 1, 65 };
    check_rejected(&f, 13, g1, s0, "GL_INVALID_VALUE");
    check_rejected(&f, 14, g1, big, "GL_INVALID_VALUE");
    check_rejected(&f, 15, g1, deep, "GL_INVALID_VALUE");
    check_rejected(&f, 16, g1, NULL, "variable group size");

    make_program(&f, 3, 4, fixed_src);
    use(&f, 4);
    check_rejected(&f, 17, g1, s32, "fixed group size");

    make_program(&f, 5, 6, broken_src);
    use(&f, 6);
    dispatch(&f, g1, NULL);
    CHECK(f.ev.kind == GMF_EV_DISPATCH && f.ev.failed && f.ev.n_unsupported == 1);
    if (f.ev.n_unsupported == 1 && !(strstr(f.ev.unsupported[0], "does not compile") &&
                                     strstr(f.ev.unsupported[0], "undefined_name"))) {
        fprintf(stderr, "compile error note: %s\n", f.ev.unsupported[0]);
        failures++;
    }

    gmf_totals t;
    gmf_get_totals(f.r, &t);
    CHECK(t.dispatches == 9 && t.cs_invocations == 2u * 32u + 3u * 96u + 2u);
    gmf_destroy(f.r);
}

int main(void)
{
    run(1);
    run(0);
    if (failures) {
        fprintf(stderr, "%d check(s) failed\n", failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
