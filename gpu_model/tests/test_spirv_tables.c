/* The generated SPIR-V tables name opcodes and GLSL.std.450 instructions and can walk
 * the operands of every instruction glslang emits. */
#include "gm_spirv_tables.h"
#include "gm_test.h"
#include "gpu_model.h"

#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/spirv.h>
#include <string.h>

static const char *frag =
    "#version 450\n"
    "layout(location=0) in vec4 v;\n"
    "layout(location=0) out vec4 o;\n"
    "uniform sampler2D t;\n"
    "uniform Block { vec4 a; mat4 m; } blk;\n"
    "void main() {\n"
    "  vec4 c = texture(t, v.xy) + blk.m * blk.a;\n"
    "  switch (int(v.z)) { case 0: c.x = sqrt(c.y); break; case 1: c = -c; break; default: break; }\n"
    "  for (int i = 0; i < 3; i++) if (c.x > 0.5 && v.w < 0.1) discard;\n"
    "  o = normalize(c) * fwidth(v.x);\n"
    "}\n";

int main(void)
{
    char buf[32];
    CHECK(strcmp(gm_spv_op_name(SpvOpFAdd, buf, sizeof buf), "OpFAdd") == 0);
    CHECK(strcmp(gm_spv_op_name(SpvOpLoopMerge, buf, sizeof buf), "OpLoopMerge") == 0);
    CHECK(strcmp(gm_spv_op_name(SpvOpImageSampleImplicitLod, buf, sizeof buf),
                 "OpImageSampleImplicitLod") == 0);
    CHECK(strcmp(gm_spv_op_name(SpvOpTerminateInvocation, buf, sizeof buf),
                 "OpTerminateInvocation") == 0);
    CHECK(strcmp(gm_spv_op_name(60000, buf, sizeof buf), "Op<60000>") == 0);
    CHECK(strcmp(gm_glsl450_name(GLSLstd450Sqrt), "Sqrt") == 0);
    CHECK(strcmp(gm_glsl450_name(GLSLstd450FMix), "FMix") == 0);
    CHECK(gm_glsl450_operand_count(GLSLstd450FMix) == 3);
    CHECK(gm_glsl450_name(100000) == NULL);
    const gm_spv_enumerant *e = gm_spv_enumerant_get(
        (unsigned)(gm_spv_kind_IdResult), 0); /* not an enum: no enumerants */
    CHECK(e == NULL);

    gm_shader_source src = {GM_STAGE_FRAGMENT, frag, "t.frag"};
    gm_compile_result r;
    int rc = gm_compile_program(&src, 1, &r);
    CHECKF(rc == 0, "%s", r.log);
    if (rc == 0) {
        const uint32_t *w = r.shaders[0].spirv;
        size_t n = r.shaders[0].word_count, i = 5;
        int count = 0, saw_merge = 0;
        while (i < n) {
            unsigned wc = w[i] >> 16;
            char msg[128];
            int ok = gm_spv_walk_operands(&w[i], 0, NULL, NULL, msg, sizeof msg);
            CHECKF(ok == 0, "%s at word %zu: %s", gm_spv_op_name(w[i] & 0xffff, buf, sizeof buf),
                   i, msg);
            if ((w[i] & 0xffff) == SpvOpLoopMerge)
                saw_merge = 1;
            count++;
            if (wc == 0)
                break;
            i += wc;
        }
        CHECK(i == n);
        CHECK(count > 50);
        CHECK(saw_merge);
        /* A truncated instruction is detected. */
        uint32_t bad[2] = {(2u << 16) | SpvOpLoopMerge, 5};
        CHECK(gm_spv_walk_operands(bad, 0, NULL, NULL, buf, sizeof buf) != 0);
    }
    gm_compile_result_free(&r);
    TEST_DONE();
}
