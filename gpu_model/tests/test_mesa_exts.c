/* The front end takes what Mesa takes through extensions glslang lacks or ties elsewhere
 * (gm_upgrade.c, gm_ext_prelude.c, gm_dead_arrays.c): each case compiles, keeps its line
 * numbers (an OpLine at the line of a statement), and yields the SPIR-V the feature means. */
#include "gm_test.h"
#include "gpu_model.h"

#include <spirv/unified1/spirv.h>
#include <string.h>

static int has_opline(const gm_compiled_shader *sh, int line)
{
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpLine && (int)sh->spirv[i + 2] == line)
            return 1;
    return 0;
}

/* Does the module contain opcode op (with word 1.. as given by w1 when w1 >= 0 at index k)? */
static int has_op(const gm_compiled_shader *sh, unsigned op, int k, long wk)
{
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16) {
        unsigned wc = sh->spirv[i] >> 16;
        if ((sh->spirv[i] & 0xffff) == op && (k < 0 || ((unsigned)k < wc && sh->spirv[i + k] == (uint32_t)wk)))
            return 1;
    }
    return 0;
}

static int compile_n(const gm_shader_source *s, int n, gm_compile_result *r)
{
    int rc = gm_compile_program(s, n, r);
    if (rc != 0)
        fprintf(stderr, "compile failed:\n%s\n", r->log);
    return rc;
}

static int compile1(gm_stage st, const char *src, gm_compile_result *r)
{
    gm_shader_source s = {st, src, NULL};
    return compile_n(&s, 1, r);
}

/* One stage each: the source, a line with code that must keep its number, and an opcode the
 * feature must produce (0: none checked) with a word to match (k < 0: any). */
static void test_single_stage(void)
{
    static const struct {
        gm_stage st;
        const char *src;
        int line;
        unsigned op;
        int k;
        long wk;
    } cases[] = {
        /* GL_EXT_texture_array before GLSL 1.30: lookups and vec4 shadow results */
        {GM_STAGE_FRAGMENT, "#version 110\n#extension GL_EXT_texture_array : enable\n"
         "uniform sampler2DArrayShadow s;\nuniform sampler1DArray a;\nvarying vec4 t;\nvoid main() {\n"
         "  gl_FragColor = shadow2DArray(s, t) + texture1DArray(a, t.xy);\n}\n",
         7, SpvOpImageSampleDrefImplicitLod, -1, 0},
        {GM_STAGE_FRAGMENT, "#version 120\n#extension GL_EXT_texture_array : enable\n"
         "uniform sampler1DArrayShadow s;\nuniform sampler2DArray a;\nvarying vec4 t;\nvoid main() {\n"
         "  gl_FragColor = shadow1DArray(s, t.xyz, 0.5) + texture2DArrayLod(a, t.xyz, 1.0) +\n"
         "                 shadow1DArrayLod(s, t.xyz, 2.0);\n}\n",
         7, SpvOpImageSampleExplicitLod, -1, 0},
        /* GL_AMD_texture_texture4: a gather of the first component */
        {GM_STAGE_FRAGMENT, "#extension GL_AMD_texture_texture4 : require\nuniform sampler2D tex;\n"
         "void main() {\n  gl_FragColor = texture4(tex, vec2(0.5));\n}\n", 4, SpvOpImageGather, -1, 0},
        /* GL_ARB_draw_instanced's gl_InstanceIDARB */
        {GM_STAGE_VERTEX, "#version 110\n#extension GL_ARB_draw_instanced : require\nvoid main() {\n"
         "  gl_Position = gl_Vertex + vec4(float(gl_InstanceIDARB));\n}\n",
         4, SpvOpDecorate, 3, SpvBuiltInInstanceId},
        /* GL_EXT_gpu_shader4's `unsigned int` */
        {GM_STAGE_FRAGMENT, "#version 120\n#extension GL_EXT_gpu_shader4 : require\n"
         "uniform unsigned int value;\nunsigned int f(unsigned int u) { return u << 1; }\nvoid main() {\n"
         "  gl_FragColor = vec4(float(f(value)));\n}\n", 6, 0, 0, 0},
        /* mat4x2 is no keyword in GLSL 1.10 */
        {GM_STAGE_FRAGMENT, "#version 110\nvoid main() {\n  float mat4x2 = 1.0;\n"
         "  gl_FragColor = vec4(mat4x2);\n}\n", 4, 0, 0, 0},
        /* layout(binding) in 3.30 through GL_ARB_shader_storage_buffer_object; its atomics */
        {GM_STAGE_FRAGMENT, "#version 330\n#extension GL_ARB_shader_storage_buffer_object : require\n"
         "layout(binding = 0) buffer B { int value; };\nout vec4 color;\nvoid main() {\n"
         "  color = vec4(float(atomicAdd(value, 4)));\n}\n", 6, SpvOpAtomicIAdd, -1, 0},
        /* GL_AMD_vertex_shader_layer: gl_Layer written by a vertex shader */
        {GM_STAGE_VERTEX, "#version 140\n#extension GL_AMD_vertex_shader_layer : enable\nin vec4 p;\n"
         "uniform int layer;\nvoid main() {\n  gl_Position = p;\n  gl_Layer = layer;\n}\n",
         7, SpvOpDecorate, 3, SpvBuiltInLayer},
        /* GL_NV_shader_atomic_float */
        {GM_STAGE_FRAGMENT, "#version 430\n#extension GL_NV_shader_atomic_float : require\n"
         "layout(binding = 0) buffer B { float v; };\nout vec4 color;\nvoid main() {\n"
         "  color = vec4(atomicAdd(v, 1.5));\n}\n", 6, SpvOpAtomicFAddEXT, -1, 0},
        /* GL_OES_viewport_array on ES: gl_ViewportIndex is BuiltIn ViewportIndex */
        {GM_STAGE_GEOMETRY, "#version 310 es\n#extension GL_OES_geometry_shader : require\n"
         "#extension GL_OES_viewport_array : require\nlayout(triangles) in;\n"
         "layout(triangle_strip, max_vertices = 3) out;\nuniform int vp;\nvoid main() {\n"
         "  for (int i = 0; i < 3; i++) {\n    gl_Position = gl_in[i].gl_Position;\n"
         "    gl_ViewportIndex = vp;\n    EmitVertex();\n  }\n}\n",
         10, SpvOpDecorate, 3, SpvBuiltInViewportIndex},
        /* constants only Mesa folds, in arrays nothing reads (piglit's STATIC_ASSERT) */
        {GM_STAGE_FRAGMENT, "#version 130\n#extension GL_MESA_shader_integer_functions : enable\n"
         "#define STATIC_ASSERT(cond) { float array[(cond) ? -1 : 1]; }\nout vec4 color;\n"
         "void main() {\n  color = vec4(0.0, 1.0, 0.0, 1.0);\n"
         "  STATIC_ASSERT(ivec4(1, 2, 3, 4) != bitCount(ivec4(1, 3, 7, 15)));\n}\n", 6, 0, 0, 0},
        /* GLSL 1.50's invariant inputs */
        {GM_STAGE_FRAGMENT, "#version 150\nin vec4 extra;\ninvariant extra;\ninvariant in vec4 more;\n"
         "out vec4 c;\nvoid main() {\n  c = extra + more;\n}\n", 7, 0, 0, 0},
        /* GL_ARB_shader_clock below 4.50 */
        {GM_STAGE_COMPUTE, "#version 430\n#extension GL_ARB_shader_clock : require\n"
         "layout(local_size_x = 1) in;\nlayout(std430, binding = 0) buffer B { uvec2 t; };\n"
         "void main() {\n  t = clock2x32ARB();\n}\n", 6, SpvOpReadClockKHR, -1, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_compile_result r;
        int rc = compile1(cases[i].st, cases[i].src, &r);
        CHECKF(rc == 0, "case %u", i);
        if (rc == 0) {
            CHECKF(has_opline(&r.shaders[0], cases[i].line), "case %u: no OpLine at %d", i, cases[i].line);
            CHECKF(!cases[i].op || has_op(&r.shaders[0], cases[i].op, cases[i].k, cases[i].wk),
                   "case %u: no opcode %u", i, cases[i].op);
        }
        gm_compile_result_free(&r);
    }
}

/* An array whose size only Mesa folds keeps glslang's error when the shader reads it: its size
 * matters then, and the model must not guess it. */
static void test_used_array_keeps_error(void)
{
    gm_compile_result r;
    gm_shader_source s = {GM_STAGE_FRAGMENT,
                          "#version 400\nout vec4 c;\nvoid main() {\n  float a[bitCount(7u)];\n"
                          "  c = vec4(a.length());\n}\n", NULL};
    CHECK(gm_compile_program(&s, 1, &r) != 0);
    CHECK(r.log && strstr(r.log, "array size must be a constant integer expression"));
    gm_compile_result_free(&r);
}

/* .length() of an implicitly sized array is the largest literal index + 1 (Mesa's size); with
 * an index that is not a literal the size is not guessed and glslang's error stays. */
static void test_implicit_array_length(void)
{
    gm_compile_result r;
    int rc = compile1(GM_STAGE_FRAGMENT, "#version 330\nout vec4 c;\nvoid main() {\n  float a[];\n"
                      "  a[4] = 3.0;\n  a[1] = 1.0;\n  c = vec4(float(a.length()), a[4], 0.0, 1.0);\n}\n", &r);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(strstr(r.shaders[0].compiled_source, "float a[5];") != NULL);
        CHECK(has_opline(&r.shaders[0], 7));
    }
    gm_compile_result_free(&r);
    gm_shader_source s = {GM_STAGE_FRAGMENT, "#version 330\nout vec4 c;\nuniform int k;\nvoid main() {\n"
                          "  float a[];\n  a[k] = 3.0;\n  c = vec4(float(a.length()));\n}\n", NULL};
    CHECK(gm_compile_program(&s, 1, &r) != 0);
    gm_compile_result_free(&r);
    /* the array indexed in another unit of the stage: sized at link time, as Mesa does */
    gm_shader_source two[2] = {
        {GM_STAGE_FRAGMENT, "#version 330\nout vec4 c;\nfloat u[];\nvoid foo();\nvoid main() {\n"
                            "  foo();\n  c = vec4(float(u.length()));\n}\n", NULL},
        {GM_STAGE_FRAGMENT, "float u[];\nvoid foo() {\n  u[4] = 3.0;\n}\n", NULL},
    };
    rc = compile_n(two, 2, &r);
    CHECK(rc == 0);
    if (rc == 0)
        CHECK(r.shader_count == 1 && strstr(r.shaders[0].compiled_source, "float u[5];") != NULL);
    gm_compile_result_free(&r);
}

/* GLSL 1.50 compatibility: gl_PerVertex redeclared with gl_ClipVertex in the vertex and geometry
 * shaders; the member leaves the block, its uses become the upgrade pass's glr_ClipVertex
 * (vertex output, geometry input array) and glr_gs_ClipVertex (geometry output). */
static void test_pervertex_compat_members(void)
{
    gm_shader_source s[3] = {
        {GM_STAGE_VERTEX, "#version 150 compatibility\n\nout gl_PerVertex {\n\tvec4 gl_Position;\n"
                          "\tvec4 gl_ClipVertex;\n};\n\nvoid main(void)\n{\n"
                          "\tgl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n"
                          "\tgl_ClipVertex = gl_Position;\n}\n", NULL},
        {GM_STAGE_GEOMETRY, "#version 150 compatibility\nlayout(triangles) in;\n"
                            "layout(triangle_strip, max_vertices = 3) out;\nin gl_PerVertex {\n"
                            "\tvec4 gl_Position;\n\tvec4 gl_ClipVertex;\n} gl_in[];\nvoid main()\n{\n"
                            "\tfor (int i = 0; i < 3; i++) {\n\t\tgl_Position = gl_in[i].gl_Position;\n"
                            "\t\tgl_ClipVertex = gl_in[i].gl_ClipVertex;\n\t\tEmitVertex();\n\t}\n}\n", NULL},
        {GM_STAGE_FRAGMENT, "#version 120\nvoid main(void)\n{\n\tgl_FragColor = vec4(1);\n}\n", NULL},
    };
    gm_compile_result r;
    int rc = compile_n(s, 3, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(has_opline(&r.shaders[0], 11));
        CHECK(has_opline(&r.shaders[1], 12));
        CHECK(strstr(r.shaders[0].compiled_source, "out vec4 glr_ClipVertex;"));
        CHECK(strstr(r.shaders[1].compiled_source, "in vec4 glr_ClipVertex[];"));
        CHECK(strstr(r.shaders[1].compiled_source, "glr_gs_ClipVertex = glr_ClipVertex[i];"));
    }
    gm_compile_result_free(&r);
}

static int has_name(const gm_compiled_shader *sh, const char *name)
{
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpName && !strcmp((const char *)&sh->spirv[i + 2], name))
            return 1;
    return 0;
}

/* GL_ARB_shader_subroutine: types with parameters, an array of subroutine uniforms called with
 * a dynamic index, a function of two types; the lowering keeps every line and introduces the
 * uniforms the frame layer feeds (glr_sub_<uniform>, glr_subidx_<function>). */
static void test_subroutines(void)
{
    const char *src =
        "#version 150\n#extension GL_ARB_shader_subroutine : enable\nout vec4 color;\n"
        "subroutine float chan(float x, const in int k);\nsubroutine void noop();\n"
        "subroutine uniform chan Chan[2];\nsubroutine uniform noop Nop;\nuniform int pick;\n"
        "subroutine(chan)\nfloat full(float x, const in int k) { return x; }\n"
        "subroutine(chan) float half_(float x, const in int k) { return x * 0.5 + float(k); }\n"
        "subroutine(noop) void nothing() {}\n"
        "void main() {\n  Nop();\n  color = vec4(Chan[pick](1.0, 0), Chan[1 - pick](1.0,\n"
        "      1), 0.0, 1.0);\n}\n";
    gm_compile_result r;
    int rc = compile1(GM_STAGE_FRAGMENT, src, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        const gm_compiled_shader *sh = &r.shaders[0];
        CHECK(has_opline(sh, 14) && has_opline(sh, 15) && has_opline(sh, 11));
        CHECK(has_name(sh, "glr_sub_Chan") && has_name(sh, "glr_sub_Nop"));
        CHECK(has_name(sh, "glr_subidx_full") && has_name(sh, "glr_subidx_half_") &&
              has_name(sh, "glr_subidx_nothing"));
    }
    gm_compile_result_free(&r);
}

/* Several shader objects linked into one stage (GL links them like C units): main() in one,
 * the function it calls and the layout in another, for compute and for the vertex stage of a
 * program. One module per stage, named after (and showing the text of) the unit with main. */
static void test_units_per_stage(void)
{
    gm_shader_source cs[2] = {
        {GM_STAGE_COMPUTE, "#version 430\nvoid go();\nvoid main() {\n  go();\n}\n", "main.comp"},
        {GM_STAGE_COMPUTE, "#version 430\nlayout(local_size_x = 4) in;\n"
                           "layout(std430, binding = 0) buffer B { uint v[]; };\n"
                           "void go() {\n  v[gl_GlobalInvocationID.x] = 7u;\n}\n", "go.comp"},
    };
    gm_compile_result r;
    int rc = compile_n(cs, 2, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(r.shader_count == 1 && r.shaders[0].stage == GM_STAGE_COMPUTE);
        CHECK(strstr(r.shaders[0].compiled_source, "go();") != NULL);
        CHECK(has_op(&r.shaders[0], SpvOpFunctionCall, -1, 0));
        CHECK(has_op(&r.shaders[0], SpvOpExecutionMode, 2, SpvExecutionModeLocalSize));
        CHECK(has_name(&r.shaders[0], "go("));
    }
    gm_compile_result_free(&r);
    /* the unit holding main() comes second here */
    gm_shader_source gfx[3] = {
        {GM_STAGE_VERTEX, "#version 330\nvec4 place(vec4 p) { return p * 0.5; }\n", NULL},
        {GM_STAGE_FRAGMENT, "#version 330\nout vec4 c;\nvoid main() {\n  c = vec4(1.0);\n}\n", NULL},
        {GM_STAGE_VERTEX, "#version 330\nin vec4 p;\nvec4 place(vec4 p);\nvoid main() {\n"
                          "  gl_Position = place(p);\n}\n", NULL},
    };
    rc = compile_n(gfx, 3, &r);
    CHECK(rc == 0);
    if (rc == 0) {
        CHECK(r.shader_count == 2 && r.shaders[0].stage == GM_STAGE_VERTEX &&
              r.shaders[1].stage == GM_STAGE_FRAGMENT);
        CHECK(strstr(r.shaders[0].compiled_source, "gl_Position = place(p);") != NULL);
        CHECK(has_op(&r.shaders[0], SpvOpFunctionCall, -1, 0));
        CHECK(has_opline(&r.shaders[0], 5));
    }
    gm_compile_result_free(&r);
    /* a stage whose units define no main() fails to link, as in GL */
    rc = gm_compile_program(gfx, 2, &r);
    CHECK(rc != 0);
    gm_compile_result_free(&r);
}

int main(void)
{
    test_units_per_stage();
    test_subroutines();
    test_single_stage();
    test_used_array_keeps_error();
    test_implicit_array_length();
    test_pervertex_compat_members();
    TEST_DONE();
}
