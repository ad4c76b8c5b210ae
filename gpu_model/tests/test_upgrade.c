/* The legacy upgrade pass: legacy shaders of every version compile to SPIR-V, every line
 * keeps its number (errors and OpLine), loose uniforms keep their names. */
#include "gm_rig.h"
#include "gm_test.h"
#include "gpu_model.h"

#include <dirent.h>
#include <spirv/unified1/spirv.h>
#include <string.h>

static int count_lines(const char *s)
{
    int n = 1;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Highest OpLine line number and whether `line` appears in an OpLine. */
static int has_opline(const gm_compiled_shader *sh, int line)
{
    for (size_t i = 5; i < sh->word_count;) {
        unsigned wc = sh->spirv[i] >> 16;
        if ((sh->spirv[i] & 0xffff) == SpvOpLine && (int)sh->spirv[i + 2] == line)
            return 1;
        if (!wc)
            break;
        i += wc;
    }
    return 0;
}

static int has_name(const gm_compiled_shader *sh, const char *name)
{
    for (size_t i = 5; i < sh->word_count;) {
        unsigned wc = sh->spirv[i] >> 16;
        if ((sh->spirv[i] & 0xffff) == SpvOpName && strcmp((const char *)&sh->spirv[i + 2], name) == 0)
            return 1;
        if (!wc)
            break;
        i += wc;
    }
    return 0;
}

static int compile1(gm_stage st, const char *src, gm_compile_result *r)
{
    gm_shader_source s = {st, src, NULL};
    int rc = gm_compile_program(&s, 1, r);
    if (rc != 0)
        fprintf(stderr, "compile failed:\n%s\n--- source given to glslang:\n%s\n", r->log,
                r->shaders[0].compiled_source ? r->shaders[0].compiled_source : "(none)");
    return rc;
}

static void test_versions(void)
{
    static const struct { gm_stage st; const char *src; int line; } cases[] = {
        {GM_STAGE_VERTEX, "#version 110\nattribute vec4 pos;\nvarying vec2 uv;\nvoid main() {\n"
         "  uv = pos.xy;\n  gl_Position = gl_ModelViewProjectionMatrix * pos;\n}\n", 6},
        {GM_STAGE_VERTEX, "#version 120\nvoid main() {\n  gl_FrontColor = gl_Color;\n"
         "  gl_TexCoord[0] = gl_TextureMatrix[0] * gl_MultiTexCoord0;\n"
         "  gl_Position = ftransform();\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 110\nuniform sampler2D tex;\nvoid main() {\n"
         "  gl_FragColor = texture2D(tex, gl_TexCoord[0].st) * gl_Color;\n}\n", 4},
        {GM_STAGE_FRAGMENT, "#version 120\nuniform sampler2DShadow sm;\nvarying vec3 c;\n"
         "void main() {\n  gl_FragData[0] = shadow2D(sm, c);\n  gl_FragData[1] = vec4(1.0);\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 130\nuniform samplerCube cube;\nin vec3 d;\nvoid main() {\n"
         "  gl_FragColor = textureCube(cube, d);\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 140\nout vec4 color;\nvoid main() {\n  color = vec4(1.0);\n}\n", 4},
        {GM_STAGE_VERTEX, "#version 150 compatibility\nin vec3 p;\nvoid main() {\n"
         "  gl_Position = gl_ProjectionMatrix * gl_ModelViewMatrix * vec4(p, 1.0);\n}\n", 4},
        {GM_STAGE_FRAGMENT, "#version 330 core\nout vec4 c;\nvoid main() {\n  c = vec4(0.5);\n}\n", 4},
        {GM_STAGE_FRAGMENT, "#version 460\nlayout(location=0) out vec4 c;\nvoid main() {\n"
         "  c = vec4(0.5);\n}\n", 4},
        {GM_STAGE_VERTEX, "attribute vec3 position;\nuniform mat4 mvp;\nvoid main(void)\n{\n"
         "    gl_Position = mvp * vec4(position, 1.0);\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 100\nprecision mediump float;\nvarying vec2 uv;\n"
         "uniform sampler2D s;\nvoid main() {\n  gl_FragColor = texture2D(s, uv);\n}\n", 6},
        {GM_STAGE_FRAGMENT, "precision mediump float;\n#define K 2.0\nvarying vec2 uv;\n"
         "void main() {\n  gl_FragColor = vec4(uv * K, 0.0, 1.0);\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 100\n#extension GL_OES_standard_derivatives : require\n"
         "precision highp float;\nvarying vec2 uv;\nvoid main() {\n"
         "  gl_FragColor = vec4(dFdx(uv.x));\n}\n", 6},
        {GM_STAGE_VERTEX, "#version 300 es\nin vec4 p;\nout vec4 q;\nvoid main() {\n"
         "  q = p;\n  gl_Position = p;\n}\n", 6},
        {GM_STAGE_FRAGMENT, "#version 300 es\nprecision mediump float;\nin vec4 q;\nout vec4 o;\n"
         "void main() {\n  o = q;\n}\n", 6},
        {GM_STAGE_FRAGMENT, "#version 310 es\nprecision mediump float;\nlayout(location=0) out vec4 o;\n"
         "void main() {\n  o = vec4(1.0);\n}\n", 5},
        {GM_STAGE_FRAGMENT, "#version 320 es\nprecision mediump float;\nlayout(location=0) out vec4 o;\n"
         "void main() {\n  o = vec4(1.0);\n}\n", 5},
        /* comments before #version, keyword-named identifiers of old GLSL */
        {GM_STAGE_FRAGMENT, "// header comment\n/* multi\n line */\n#version 110\n"
         "uniform sampler2D texture;\nuniform float sample;\nvarying vec2 uv;\nvoid main() {\n"
         "  gl_FragColor = texture2D(texture, uv) * sample;\n}\n", 9},
        {GM_STAGE_VERTEX, "#version 120\nvoid main() {\n  vec4 e = gl_ModelViewMatrix * gl_Vertex;\n"
         "  vec3 n = normalize(gl_NormalMatrix * gl_Normal);\n"
         "  vec3 l = normalize(gl_LightSource[0].position.xyz - e.xyz);\n"
         "  gl_FrontColor = gl_FrontMaterial.diffuse * max(dot(n, l), 0.0)\n"
         "      + gl_LightModel.ambient * gl_FrontMaterial.ambient;\n"
         "  gl_Position = gl_ModelViewProjectionMatrix * gl_Vertex;\n}\n", 8},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_compile_result r;
        int rc = compile1(cases[i].st, cases[i].src, &r);
        CHECKF(rc == 0, "case %u", i);
        if (rc == 0) {
            CHECKF(has_opline(&r.shaders[0], cases[i].line), "case %u: no OpLine at line %d", i,
                   cases[i].line);
            if (r.shaders[0].upgrade.upgraded) {
                /* Everything after the inserted block lines up with the original. */
                const char *up = r.shaders[0].compiled_source;
                const char *l = strstr(up, "#line ");
                CHECK(l != NULL);
                (void)count_lines;
            }
        }
        gm_compile_result_free(&r);
    }
}

static void test_names_and_errors(void)
{
    gm_compile_result r;
    const char *src = "#version 110\nuniform sampler2D texture;\nuniform float sample;\n"
                      "varying vec2 uv;\nvoid main() {\n"
                      "  gl_FragColor = texture2D(texture, uv) * sample;\n}\n";
    if (compile1(GM_STAGE_FRAGMENT, src, &r) == 0) {
        CHECK(has_name(&r.shaders[0], "texture"));
        CHECK(has_name(&r.shaders[0], "sample"));
        CHECK(!has_name(&r.shaders[0], "glr_u_texture"));
        CHECK(has_name(&r.shaders[0], "glr_FragColor"));
    } else {
        CHECK(0);
    }
    gm_compile_result_free(&r);

    /* A compile error is reported with the original line number. */
    gm_shader_source s = {GM_STAGE_FRAGMENT,
                          "#version 120\nvarying vec2 uv;\n\nvoid main() {\n"
                          "  gl_FragColor = vec4(uv, undefined_name, 1.0);\n}\n", NULL};
    CHECK(gm_compile_program(&s, 1, &r) != 0);
    CHECKF(strstr(r.log, ":5:") != NULL, "%s", r.log);
    CHECK(strstr(r.log, "undefined_name") != NULL);
    gm_compile_result_free(&r);

    /* Garbage and bad versions give errors, not crashes. */
    gm_shader_source bad = {GM_STAGE_FRAGMENT, "#version 999\nvoid main(){}\n", NULL};
    CHECK(gm_compile_program(&bad, 1, &r) != 0);
    CHECK(strstr(r.log, "999") != NULL);
    gm_compile_result_free(&r);
    bad.source = "\x01\x02 not glsl {{{";
    CHECK(gm_compile_program(&bad, 1, &r) != 0);
    gm_compile_result_free(&r);
    bad.source = NULL;
    CHECK(gm_compile_program(&bad, 1, &r) != 0);
    gm_compile_result_free(&r);
}

static void test_line_count_kept(void)
{
    const char *src = "#version 110\n\n// c\nvarying vec4 gl_TexCoord[2];\nvoid main() {\n"
                      "  gl_FragColor = gl_TexCoord[1];\n}\n";
    gm_upgrade_info info;
    char err[128];
    char *up = gm_glsl_upgrade(src, GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up != NULL);
    if (up) {
        /* Text after the #line directive has exactly the original lines after #version. */
        const char *l = strstr(up, "#line 2");
        CHECKF(l != NULL, "%s", up);
        if (l)
            CHECK(count_lines(strchr(l, '\n') + 1) == count_lines(src) - 1);
        /* The redeclaration is replaced by the standard one, so that stages agree on the size. */
        CHECKF(strstr(up, "in vec4 glr_TexCoord[8];") && !strstr(up, "glr_TexCoord[2]"), "%s", up);
        CHECK(info.upgraded && info.original_version == 110);
    }
    free(up);
    gm_upgrade_info_free(&info);
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_FRAGMENT, src, &r) == 0);
    gm_compile_result_free(&r);
}

/* A #line directive (ioquake3's `#line 0` after its prelude) does not renumber the model's lines:
 * breakpoints and stops use the lines of the text the program passed; a shader that reads
 * __LINE__ keeps the directive's numbering. */
static void test_physical_lines(void)
{
    const char *src = "#version 330 core\n"         /* 1 */
                      "// prelude 1\n"               /* 2 */
                      "// prelude 2\n"               /* 3 */
                      "  #  line 0\n"                /* 4 */
                      "out vec4 c;\n"                /* 5 */
                      "void main() {\n"              /* 6 */
                      "  c = vec4(1.0);\n"           /* 7 */
                      "}\n";
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_FRAGMENT, src, &r) == 0);
    char err[256];
    gm_program *p = r.shader_count ? gm_program_create(r.shaders[0].spirv, r.shaders[0].word_count, err, sizeof err)
                                   : NULL;
    CHECK(p != NULL);
    if (p) {
        CHECK(gm_program_line_has_code(p, 7));
        CHECKF(!gm_program_line_has_code(p, 2), "line 2 is a comment of the prelude");
    }
    gm_program_destroy(p);
    gm_compile_result_free(&r);
    const char *reads = "#version 330 core\n#line 40\nout vec4 c;\nvoid main() {\n  c = vec4(float(__LINE__));\n}\n";
    CHECK(compile1(GM_STAGE_FRAGMENT, reads, &r) == 0);
    p = r.shader_count ? gm_program_create(r.shaders[0].spirv, r.shaders[0].word_count, err, sizeof err) : NULL;
    CHECK(p && gm_program_line_has_code(p, 42) && !gm_program_line_has_code(p, 5));
    gm_program_destroy(p);
    gm_compile_result_free(&r);
}

/* Offset of member m of the block type named `block` (-1 when absent). */
static int member_offset(const gm_compiled_shader *sh, const char *block, unsigned m)
{
    uint32_t id = 0;
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpName && !strcmp((const char *)&sh->spirv[i + 2], block))
            id = sh->spirv[i + 1];
    for (size_t i = 5; id && i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpMemberDecorate && sh->spirv[i + 1] == id &&
            sh->spirv[i + 2] == m && sh->spirv[i + 3] == SpvDecorationOffset)
            return (int)sh->spirv[i + 4];
    return -1;
}

/* shared, packed and unqualified blocks get the offsets Mesa (llvmpipe) gives them: std430 rules
 * (checked with glGetActiveUniformsiv(GL_UNIFORM_OFFSET) on Mesa 22.3.6: `float arr[2]` has a
 * stride of 4, the float after it offset 12); std140 blocks keep std140; lines keep numbers. */
static void test_block_layouts(void)
{
    static const char *const srcs[] = {
        "#version 330 core\n// layout(packed) in a comment\n"
        "layout(shared) uniform S { float a; float arr[2]; float z; };\n"
        "layout(packed, row_major) uniform P { float pa; float parr[2]; float pz; };\n"
        "uniform D { float da; float darr[2]; float dz; };\n"
        "layout(std140) uniform T { float ta; float tarr[2]; float tz; };\n"
        "out vec4 frag;\nvoid main() {\n"
        "  frag = vec4(a + arr[1] + z + pa + parr[1] + pz, da + darr[1] + dz,\n"
        "              ta + tarr[1] + tz, undefined_name);\n}\n",
        "#version 140\n/* shared */ uniform S { float a; float arr[2]; float z; };\n"
        "uniform P { float pa; float parr[2]; float pz; };\nlayout(std140) uniform;\n"
        "uniform D { float da; float darr[2]; float dz; };\n"
        "uniform T { float ta; float tarr[2]; float tz; };\n"
        "out vec4 frag;\nvoid main() {\n"
        "  frag = vec4(a + arr[1] + z + pa + parr[1] + pz, da + darr[1] + dz,\n"
        "              ta + tarr[1] + tz, undefined_name);\n}\n",
        "#version 310 es\nprecision highp float;\nlayout(packed) uniform S { float a; float arr[2]; float z; };\n"
        "layout(shared) uniform P { float pa; float parr[2]; float pz; };\n"
        "layout(std140) uniform D { float da; float darr[2]; float dz; };\n"
        "layout(std140) uniform T { float ta; float tarr[2]; float tz; };\n"
        "out vec4 frag;\nvoid main() {\n"
        "  frag = vec4(a + arr[1] + z + pa + parr[1] + pz, da + darr[1] + dz,\n"
        "              ta + tarr[1] + tz, undefined_name);\n}\n",
    };
    for (unsigned k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
        /* With the undefined name: the error keeps its line (10 in each source) and the log
         * carries glslang's message. */
        gm_compile_result r;
        gm_shader_source s = {GM_STAGE_FRAGMENT, srcs[k], NULL};
        CHECK(gm_compile_program(&s, 1, &r) != 0);
        CHECKF(r.log && strstr(r.log, ":10:") && strstr(r.log, "undefined_name"), "case %u: %s", k,
               r.log ? r.log : "(null)");
        gm_compile_result_free(&r);
        char *fixed = strdup(srcs[k]);
        char *u = strstr(fixed, "undefined_name");
        memcpy(u, "1.0           ", 14);
        int ok = compile1(GM_STAGE_FRAGMENT, fixed, &r) == 0;
        CHECKF(ok, "case %u", k);
        if (ok) {
            const gm_compiled_shader *sh = &r.shaders[0];
            int std140_d = k == 2;
            CHECKF(member_offset(sh, "S", 2) == 12, "case %u: S.z at %d", k, member_offset(sh, "S", 2));
            CHECKF(member_offset(sh, "P", 2) == 12, "case %u: P.pz at %d", k, member_offset(sh, "P", 2));
            CHECKF(member_offset(sh, "D", 2) == (std140_d || k == 1 ? 48 : 12), "case %u: D.dz at %d", k,
                   member_offset(sh, "D", 2));
            CHECKF(member_offset(sh, "T", 2) == 48, "case %u: T.tz at %d", k, member_offset(sh, "T", 2));
            CHECK(has_opline(sh, 10));
        }
        gm_compile_result_free(&r);
        free(fixed);
    }
    /* `shared` variables of compute shaders are not layouts. */
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_COMPUTE,
                   "#version 430\nlayout(local_size_x = 4) in;\nshared float tmp[4];\n"
                   "layout(std430, binding = 0) buffer B { float v[]; };\n"
                   "void main() { tmp[gl_LocalInvocationIndex] = 1.0; barrier(); v[0] = tmp[1]; }\n",
                   &r) == 0);
    gm_compile_result_free(&r);
    /* Without blocks the source is left as it is. */
    gm_upgrade_info info;
    char err[128];
    const char *plain = "#version 330 core\nout vec4 f; // shared packed\nvoid main() { f = vec4(1.0); }\n";
    char *up = gm_glsl_upgrade(plain, GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up && !strcmp(up, plain));
    free(up);
    gm_upgrade_info_free(&info);
}

/* GLSL ES mediump arithmetic at llvmpipe's 16-bit precision (gm_relaxed.c). The shader and every
 * expected word are from Mesa 22.3.6 llvmpipe (the shader drawn into a 4x4 RGBA32UI target,
 * u_i = 40000, u_f = 1.2345678, pixel (x, y) = lane y * 4 + x): 16-bit int wrap with sign or zero
 * extension by the result's type, half-rounded float results, mediump variables assigned from highp
 * keeping 32 bits, identities (s + 0u, s & 0xffffu, f * 1.0001) giving the 32-bit operand back,
 * float(s) converting all 32 bits (to inf), sin() of a 32-bit mediump value at 32 bits but of a
 * 16-bit one rounded, -f rounded. As desktop GLSL the same code runs at 32 bits (also
 * checked on llvmpipe: precision qualifiers change nothing there). */
static const char *mediump_src =
    "#version 300 es\n"
    "precision highp float;\n"
    "uniform highp int u_i;\n"
    "uniform highp float u_f;\n"
    "layout(location = 0) out highp uvec4 o;\n"
    "void main(){\n"
    "  highp int x = int(gl_FragCoord.x);\n"
    "  mediump int a = u_i + x;\n"
    "  mediump int b = a * 3;\n"
    "  mediump int c = b + 1;\n"
    "  mediump float f = u_f + float(x);\n"
    "  mediump float g = f * 1.5;\n"
    "  mediump float h = g + f;\n"
    "  mediump float k = f * 1.0001;\n"
    "  highp uint big = uint(u_i) * 100000u + uint(x);\n"
    "  uint s = big;\n"
    "  int sel = int(gl_FragCoord.y);\n"
    "  if (sel == 0) o = uvec4(uint(a), uint(b), uint(c), uint(b >> 4));\n"
    "  else if (sel == 1) o = uvec4(floatBitsToUint(f), floatBitsToUint(g), floatBitsToUint(h),\n"
    "                              floatBitsToUint(k));\n"
    "  else if (sel == 2) o = uvec4(s + 0u, floatBitsToUint(float(s)), floatBitsToUint(float(s + 1u)),\n"
    "                              s & 0xffffu);\n"
    "  else o = uvec4(floatBitsToUint(sin(f)), floatBitsToUint(-f), floatBitsToUint(sin(f * 1.1)),\n"
    "                 uint(-big));\n"
    "}\n";

/* sin_ulps: how far the sin() words of row 3 may be from llvmpipe's (the model's sin and
 * llvmpipe's differ in the last bit at 32 bits; at 16 bits the rounding hides that). */
static void run_mediump(const char *src, const uint32_t want[16][4], const char *what, uint32_t sin_ulps)
{
    gm_rig r;
    if (rig_init(&r, GM_STAGE_FRAGMENT, src) != 0) {
        CHECK(0);
        return;
    }
    int32_t ui = 40000;
    float uf = 1.2345678f;
    CHECK(gm_program_set_uniform_by_name(r.p, "u_i", &ui, 1) == 0);
    CHECK(gm_program_set_uniform_by_name(r.p, "u_f", &uf, 1) == 0);
    for (int l = 0; l < 16; l++) {
        rig_setf(&r, "gl_FragCoord", 0, l, (float)(l % 4) + 0.5f);
        rig_setf(&r, "gl_FragCoord", 1, l, (float)(l / 4) + 0.5f);
        rig_setf(&r, "gl_FragCoord", 2, l, 0.5f);
        rig_setf(&r, "gl_FragCoord", 3, l, 1.0f);
    }
    CHECK(rig_run(&r, 0xffffu) == 0);
    int bad = 0;
    for (int l = 0; l < 16; l++)
        for (int c = 0; c < 4; c++) {
            uint32_t got = (uint32_t)rig_outi(&r, "o", c, l);
            uint32_t tol = l >= 12 && (c == 0 || c == 2) ? sin_ulps : 0;
            if ((got > want[l][c] ? got - want[l][c] : want[l][c] - got) > tol && bad++ < 6)
                fprintf(stderr, "%s: pixel (%d,%d) component %d: %08x, llvmpipe %08x\n", what, l % 4,
                        l / 4, c, got, want[l][c]);
        }
    CHECKF(bad == 0, "%s: %d words differ from llvmpipe", what, bad);
    rig_free(&r);
}

static void test_mediump(void)
{
    static const uint32_t es[16][4] = {
        {0x00009c40, 0x0000d4c0, 0x0000d4c1, 0x0000fd4c}, {0x00009c41, 0x0000d4c3, 0x0000d4c4, 0x0000fd4c},
        {0x00009c42, 0x0000d4c6, 0x0000d4c7, 0x0000fd4c}, {0x00009c43, 0x0000d4c9, 0x0000d4ca, 0x0000fd4c},
        {0x3f9e0651, 0x3fed0000, 0x40458000, 0x3f9e0651}, {0x400f0328, 0x40568000, 0x40b2c000, 0x400f0328},
        {0x404f0328, 0x409b4000, 0x41016000, 0x404f0328}, {0x40878194, 0x40cb4000, 0x41296000, 0x40878194},
        {0xee6b2800, 0x7f800000, 0x46200000, 0xee6b2800}, {0xee6b2801, 0x7f800000, 0x46200000, 0xee6b2801},
        {0xee6b2802, 0x7f800000, 0x46200000, 0xee6b2802}, {0xee6b2803, 0x7f800000, 0x46200000, 0xee6b2803},
        {0x3f71aa5b, 0xbf9e0000, 0x3f7a4000, 0x1194d800}, {0x3f49a507, 0xc00f0000, 0x3f21e000, 0x1194d7ff},
        {0xbdbe2379, 0xc04f0000, 0xbece8000, 0x1194d7fe}, {0xbf6353e5, 0xc0878000, 0xbf7fa000, 0x1194d7fd},
    };
    run_mediump(mediump_src, es, "ES 3.00", 0);
    /* Desktop GLSL: 32 bits throughout (llvmpipe, pixels (0,y): 0001d4c0, 3fed097a, 4f6e6b28). */
    char desk[2048];
    snprintf(desk, sizeof desk, "#version 450\n%s", strchr(mediump_src, '\n') + 1);
    /* Row 3 on llvmpipe as desktop GLSL (sin and the products computed at 32 bits there too). */
    static const uint32_t gl_row3[4][4] = {
        {0x3f71aa5b, 0xbf9e0651, 0x3f7a3a1f, 0x1194d800}, {0x3f49a507, 0xc00f0328, 0x3f21ae26, 0x1194d7ff},
        {0xbdbe2379, 0xc04f0328, 0xbecf1a97, 0x1194d7fe}, {0xbf6353e5, 0xc0878194, 0xbf7f9f2d, 0x1194d7fd},
    };
    uint32_t gl[16][4];
    for (int l = 0; l < 16; l++) {
        int x = l % 4;
        uint32_t a = 40000u + (uint32_t)x, b = a * 3u, s = 40000u * 100000u + (uint32_t)x;
        float f = 1.2345678f + (float)x, g = f * 1.5f, h = g + f, k = f * 1.0001f;
        float fs = (float)s, fs1 = (float)(s + 1u);
        switch (l / 4) {
        case 0: gl[l][0] = a; gl[l][1] = b; gl[l][2] = b + 1u; gl[l][3] = (uint32_t)((int32_t)b >> 4); break;
        case 1: memcpy(&gl[l][0], &f, 4); memcpy(&gl[l][1], &g, 4); memcpy(&gl[l][2], &h, 4);
                memcpy(&gl[l][3], &k, 4); break;
        case 2: gl[l][0] = s; memcpy(&gl[l][1], &fs, 4); memcpy(&gl[l][2], &fs1, 4); gl[l][3] = s & 0xffffu;
                break;
        default: memcpy(gl[l], gl_row3[x], sizeof gl[l]);
        }
    }
    CHECK(gl[0][1] == 0x0001d4c0u && gl[4][1] == 0x3fed097au && gl[8][1] == 0x4f6e6b28u);
    run_mediump(desk, (const uint32_t (*)[4])gl, "desktop 4.50", 1);
}

/* Output variables (OpVariable with storage class Output) named `name`. */
static int has_output(const gm_compiled_shader *sh, const char *name)
{
    uint32_t id = 0;
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpName && !strcmp((const char *)&sh->spirv[i + 2], name))
            id = sh->spirv[i + 1];
    for (size_t i = 5; id && i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpVariable && sh->spirv[i + 2] == id &&
            sh->spirv[i + 3] == SpvStorageClassOutput)
            return 1;
    return 0;
}

/* Upgrade decisions are made on the preprocessed text (issue 11 §2): a built-in named only in an
 * inactive branch or only as a macro's name adds nothing; one reached through a macro does.
 * Every case compiles, keeps the line of its last statement, and has exactly the outputs listed. */
static void test_preprocessed(void)
{
    static const struct {
        const char *src;
        const char *outputs[3]; /* wanted output variables */
        const char *absent;     /* output that must not exist */
        int line;               /* a line that must carry code */
    } cases[] = {
        /* openarena's GL2 renderer */
        {"#version 120\n#define gl_FragColor out_Color\nvarying vec4 c;\n"
         "#if __VERSION__ >= 130\nout vec4 out_Color;\n#else\n#define out_Color gl_FragData[0]\n#endif\n"
         "void main() {\n  gl_FragColor = c;\n}\n",
         {"glr_FragData"}, "glr_FragColor", 10},
        {"#version 130\n#define gl_FragColor out_Color\nout vec4 out_Color;\nin vec4 c;\n"
         "void main() {\n  gl_FragColor = c;\n}\n",
         {"out_Color"}, "glr_FragColor", 6},
        /* only in an inactive branch */
        {"#version 130\nout vec4 frag;\nin vec4 c;\nvoid main() {\n#if 0\n  gl_FragColor = c;\n"
         "#else\n  frag = c;\n#endif\n}\n",
         {"frag"}, "glr_FragColor", 8},
        {"#version 120\n#ifdef GL_ES\nprecision mediump float;\n#define C gl_FragData[0]\n#else\n"
         "#define C gl_FragColor\n#endif\nvoid main() {\n  C = vec4(1.0);\n}\n",
         {"glr_FragColor"}, "glr_FragData", 9},
        /* function-like macro, multi-line definition */
        {"#version 110\n#define WRITE(v) \\\n  gl_FragColor = (v)\nvoid main() {\n  WRITE(vec4(0.5));\n}\n",
         {"glr_FragColor"}, NULL, 5},
        /* Warzone 2100's pattern: __VERSION__ picks the output; the ES 1.00 path writes
         * gl_FragColor, the GLSL ES 3.00 one its own output (no second output is added) */
        {"#version 300 es\nprecision mediump float;\n#if (!defined(GL_ES) && (__VERSION__ >= 130)) || "
         "(defined(GL_ES) && (__VERSION__ >= 300))\n#define NEWGL\n#endif\n#ifdef NEWGL\nout vec4 FragColor;\n"
         "#else\n#define FragColor gl_FragColor\n#endif\nvoid main() {\n  FragColor = vec4(1.0);\n}\n",
         {"FragColor"}, "glr_FragColor", 12},
        {"#version 100\nprecision mediump float;\n#if (!defined(GL_ES) && (__VERSION__ >= 130)) || "
         "(defined(GL_ES) && (__VERSION__ >= 300))\n#define NEWGL\n#endif\n#ifdef NEWGL\nout vec4 FragColor;\n"
         "#else\n#define FragColor gl_FragColor\n#endif\nvoid main() {\n  FragColor = vec4(1.0);\n}\n",
         {"glr_FragColor"}, "FragColor", 12},
        /* Qt 5's desktop prefix: precision words defined away, then used (no #version: 1.10);
         * the statement is on physical line 8 */
        {"#define lowp\n#define mediump\n#define highp\n#line 1\nuniform lowp float opacity;\n"
         "varying highp vec4 c;\nvoid main() {\n  gl_FragColor = c * opacity;\n}\n",
         {"glr_FragColor"}, NULL, 8},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_compile_result r;
        int rc = compile1(GM_STAGE_FRAGMENT, cases[i].src, &r);
        CHECKF(rc == 0, "case %u", i);
        if (rc == 0) {
            const gm_compiled_shader *sh = &r.shaders[0];
            for (int k = 0; k < 3 && cases[i].outputs[k]; k++)
                CHECKF(has_output(sh, cases[i].outputs[k]), "case %u: no output %s\n%s", i, cases[i].outputs[k],
                       sh->compiled_source);
            if (cases[i].absent)
                CHECKF(!has_output(sh, cases[i].absent), "case %u: output %s added\n%s", i, cases[i].absent,
                       sh->compiled_source);
            CHECKF(has_opline(sh, cases[i].line), "case %u: no OpLine at %d", i, cases[i].line);
        }
        gm_compile_result_free(&r);
    }

    /* __VERSION__ in code keeps the source's value; an error after resolved conditionals keeps its
     * line; #line directives stay. */
    gm_upgrade_info info;
    char err[128];
    const char *src = "#version 120\n#if 1\nconst int v = __VERSION__;\n#endif\n#line 20\nvoid main() {}\n";
    char *up = gm_glsl_upgrade(src, GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up && strstr(up, "const int v = 120;") && strstr(up, "#line 20\n") && !strstr(up, "#if"));
    if (up) {
        const char *body = strstr(up, "#line 2\n");
        CHECKF(body && count_lines(body) == count_lines(src), "%s", up);
    }
    free(up);
    gm_upgrade_info_free(&info);
    gm_shader_source bad = {GM_STAGE_FRAGMENT,
                            "#version 110\n#ifdef NOT_DEFINED\nstuff that does not parse\n#else\n"
                            "#define X 1.0\n#endif\nvoid main() {\n  gl_FragColor = vec4(X, undefined_name);\n}\n",
                            NULL};
    gm_compile_result r;
    CHECK(gm_compile_program(&bad, 1, &r) != 0);
    CHECKF(strstr(r.log, ":8:") && strstr(r.log, "undefined_name"), "%s", r.log);
    gm_compile_result_free(&r);

    /* A shader without #version is desktop GLSL 1.10 when its precision statement is under
     * #ifdef GL_ES (glmark2), ES 1.00 when it is not. */
    const char *glmark = "#ifdef GL_ES\nprecision mediump float;\n#endif\nvoid main() { gl_FragColor = vec4(1.0); }\n";
    up = gm_glsl_upgrade(glmark, GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up && info.upgraded && !info.original_es && info.original_version == 110);
    free(up);
    gm_upgrade_info_free(&info);
    up = gm_glsl_upgrade(glmark + 13, GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up && info.upgraded && info.original_es && info.original_version == 100);
    free(up);
    gm_upgrade_info_free(&info);
    /* In a program, a vertex shader without #version or precision is ES 1.00 with such a
     * fragment shader (one context compiled both), desktop 1.10 with glmark2's. */
    const char *vs = "attribute vec4 p;\nvarying mediump vec4 c;\nvoid main() { c = p; gl_Position = p; }\n";
    const char *fs_es = "precision mediump float;\nvarying vec4 c;\nvoid main() { gl_FragColor = c; }\n";
    const char *fs_gl = "#ifdef GL_ES\nprecision mediump float;\n#endif\nvarying vec4 c;\n"
                        "void main() { gl_FragColor = c; }\n";
    for (int k = 0; k < 2; k++) {
        gm_shader_source prog[2] = {{GM_STAGE_VERTEX, vs, NULL}, {GM_STAGE_FRAGMENT, k ? fs_gl : fs_es, NULL}};
        int rc = gm_compile_program(prog, 2, &r);
        CHECKF(rc == 0, "program %d: %s", k, r.log);
        if (rc == 0)
            CHECK(r.shaders[0].upgrade.original_es == !k && r.shaders[1].upgrade.original_es == !k);
        gm_compile_result_free(&r);
    }
}

/* Extensions (issue 11 §2): keywords an enabled extension brings are not renamed; `require` of
 * an extension glslang does not know still compiles; 4.20pack bindings in 3.30; compute shaders
 * in 4.20 with GL_ARB_compute_shader; shadow2DGradARB. */
static void test_extensions(void)
{
    static const struct {
        gm_stage st;
        const char *src;
        const char *not_renamed; /* must not appear as glr_u_<word> */
        int line;
    } cases[] = {
        {GM_STAGE_FRAGMENT, "#version 150\n#extension GL_ARB_gpu_shader_fp64 : require\nuniform dvec4 d;\n"
         "uniform dmat2 m;\nout vec4 o;\nvoid main() {\n  o = vec4(d * m[0].x);\n}\n", "dvec4", 7},
        {GM_STAGE_FRAGMENT, "#version 140\n#extension GL_ARB_shader_atomic_counters : require\n"
         "layout(binding = 3, offset = 4) uniform atomic_uint a;\nout vec4 o;\nvoid main() {\n"
         "  o = vec4(float(atomicCounterIncrement(a)));\n}\n", "atomic_uint", 6},
        {GM_STAGE_FRAGMENT, "#version 130\n#extension GL_ARB_explicit_attrib_location : require\n"
         "layout(location = 0) out vec4 o;\nvoid main() {\n  o = vec4(1.0);\n}\n", "layout", 5},
        {GM_STAGE_FRAGMENT, "#version 330\n#extension GL_ARB_shading_language_420pack : require\n"
         "layout(binding = 3) uniform sampler2D s;\nout vec4 o;\nvoid main() {\n"
         "  o = texture(s, vec2(0.5));\n}\n", NULL, 6},
        {GM_STAGE_FRAGMENT, "#version 140\n#extension GL_ARB_shading_language_420pack : require\n"
         "layout(binding = 2) uniform sampler2D s;\nlayout(std140, binding = 1) uniform U { vec4 k; };\n"
         "out vec4 o;\nvoid main() {\n  o = texture(s, vec2(0.5)) * k;\n}\n", "layout", 7},
        {GM_STAGE_FRAGMENT, "#version 330\n#extension GL_ARB_arrays_of_arrays : require\n"
         "#extension GL_MESA_shader_integer_functions : require\nout vec4 o;\nvoid main() {\n"
         "  o = vec4(1.0);\n}\n", NULL, 6},
        {GM_STAGE_COMPUTE, "#version 420\n#extension GL_ARB_compute_shader : require\n"
         "#extension GL_ARB_shader_storage_buffer_object : require\nlayout(local_size_x = 4) in;\n"
         "layout(std430, binding = 0) buffer B { uint v[]; };\nshared uint tmp[4];\nvoid main() {\n"
         "  tmp[gl_LocalInvocationIndex] = gl_LocalInvocationIndex;\n  barrier();\n  v[0] = tmp[3];\n}\n",
         "shared", 10},
        {GM_STAGE_COMPUTE, "#version 330\n#extension GL_ARB_compute_shader : enable\n"
         "layout(local_size_x = 2) in;\nvoid main() {\n  barrier();\n}\n", NULL, 5},
        {GM_STAGE_FRAGMENT, "#version 110\n#extension GL_ARB_shader_texture_lod : require\n"
         "uniform sampler2DShadow s;\nvoid main() {\n"
         "  gl_FragColor = shadow2DGradARB(s, vec3(0.5), vec2(0.1), vec2(0.0));\n}\n", NULL, 5},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_compile_result r;
        int rc = compile1(cases[i].st, cases[i].src, &r);
        CHECKF(rc == 0, "case %u", i);
        if (rc == 0) {
            const gm_compiled_shader *sh = &r.shaders[0];
            if (cases[i].not_renamed) {
                char w[64];
                snprintf(w, sizeof w, "glr_u_%s", cases[i].not_renamed);
                CHECKF(!strstr(sh->compiled_source, w), "case %u: %s renamed", i, cases[i].not_renamed);
            }
            CHECKF(has_opline(sh, cases[i].line), "case %u: no OpLine at %d", i, cases[i].line);
        }
        gm_compile_result_free(&r);
    }
    /* Without the #extension the same word is a user identifier in 1.50 and is renamed. */
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_FRAGMENT, "#version 150\nout vec4 o;\nvoid main() {\n  float dvec4 = 1.0;\n"
                   "  o = vec4(dvec4);\n}\n", &r) == 0);
    CHECK(r.shaders[0].compiled_source && strstr(r.shaders[0].compiled_source, "glr_u_dvec4"));
    gm_compile_result_free(&r);
}

/* Variables of storage class sc named `name` in a module. */
static int has_var(const gm_compiled_shader *sh, const char *name, uint32_t sc)
{
    uint32_t id = 0;
    for (size_t i = 5; i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpName && !strcmp((const char *)&sh->spirv[i + 2], name))
            id = sh->spirv[i + 1];
    for (size_t i = 5; id && i < sh->word_count && sh->spirv[i] >> 16; i += sh->spirv[i] >> 16)
        if ((sh->spirv[i] & 0xffff) == SpvOpVariable && sh->spirv[i + 2] == id && sh->spirv[i + 3] == sc)
            return 1;
    return 0;
}

/* Compatibility built-ins in geometry shaders (GLSL 1.50 compatibility): gl_in[i].gl_FrontColor
 * and gl_in[i].gl_TexCoord[j] read the vertex shader's outputs, gl_FrontColor and gl_TexCoord
 * (also redeclared) are written as glr_gs_* outputs, which the fragment shader's gl_Color and
 * gl_TexCoord then read. */
static void test_geometry_compat(void)
{
    const char *vs = "#version 150 compatibility\nvoid main() {\n  gl_Position = gl_Vertex;\n"
                     "  gl_FrontColor = gl_Color;\n  gl_TexCoord[1] = vec4(0.5);\n}\n";
    const char *gs = "#version 150 compatibility\nlayout(triangles) in;\n"
                     "layout(triangle_strip, max_vertices = 3) out;\nout vec4 gl_TexCoord[2];\n"
                     "void main() {\n  for (int i = 0; i < 3; i++) {\n    gl_Position = gl_in[i].gl_Position;\n"
                     "    gl_FrontColor = gl_in[ i ].gl_FrontColor * gl_in[i].gl_TexCoord[1].x;\n"
                     "    gl_TexCoord[1] = gl_in[i].gl_TexCoord[1];\n    EmitVertex();\n  }\n}\n";
    const char *fs = "#version 150 compatibility\nin vec4 gl_TexCoord[2];\nvoid main() {\n"
                     "  gl_FragColor = gl_Color + gl_TexCoord[1];\n}\n";
    gm_shader_source s[3] = {{GM_STAGE_VERTEX, vs, NULL}, {GM_STAGE_GEOMETRY, gs, NULL}, {GM_STAGE_FRAGMENT, fs, NULL}};
    gm_compile_result r;
    int rc = gm_compile_program(s, 3, &r);
    CHECKF(rc == 0, "%s\n%s", r.log, r.shaders[1].compiled_source ? r.shaders[1].compiled_source : "");
    if (rc == 0) {
        CHECK(has_var(&r.shaders[0], "glr_FrontColor", SpvStorageClassOutput));
        CHECK(has_var(&r.shaders[1], "glr_FrontColor", SpvStorageClassInput));
        CHECK(has_var(&r.shaders[1], "glr_TexCoord", SpvStorageClassInput));
        CHECK(has_var(&r.shaders[1], "glr_gs_FrontColor", SpvStorageClassOutput));
        CHECK(has_var(&r.shaders[1], "glr_gs_TexCoord", SpvStorageClassOutput));
        CHECK(has_var(&r.shaders[2], "glr_gs_FrontColor", SpvStorageClassInput));
        CHECK(has_var(&r.shaders[2], "glr_gs_TexCoord", SpvStorageClassInput));
        CHECK(!has_var(&r.shaders[2], "glr_FrontColor", SpvStorageClassInput));
        CHECK(has_opline(&r.shaders[1], 8) && has_opline(&r.shaders[1], 9));
    }
    gm_compile_result_free(&r);
    /* Without a geometry shader the fragment shader reads the vertex shader's outputs. */
    gm_shader_source s2[2] = {{GM_STAGE_VERTEX, vs, NULL}, {GM_STAGE_FRAGMENT, fs, NULL}};
    rc = gm_compile_program(s2, 2, &r);
    CHECKF(rc == 0, "%s", r.log);
    if (rc == 0)
        CHECK(has_var(&r.shaders[1], "glr_FrontColor", SpvStorageClassInput));
    gm_compile_result_free(&r);
}

/* Desktop precision qualifiers (issue 11 §2, glmark2 jellyfish and terrain): they may differ
 * between stages and come from empty macros; the program links. */
/* Two units of one geometry shader, the input layout in one, an unsized input indexed in the
 * other (piglit gs-input-sizing-layout-larger-than-static-usage): they link, the array sized 3
 * as Mesa sizes it at link time (gm_gs_layout.c). */
static void test_gs_units_share_layout(void)
{
    gm_shader_source s[4] = {
        {GM_STAGE_VERTEX, "#version 150\nin int v;\nflat out int g;\nvoid main() { g = v; }\n", NULL},
        {GM_STAGE_GEOMETRY, "#version 150\nlayout(triangles) in;\n"
         "layout(triangle_strip, max_vertices = 3) out;\nvoid emit();\nvoid main() { emit(); }\n", NULL},
        {GM_STAGE_GEOMETRY, "#version 150\nflat in int g[];\nout vec4 c;\n"
         "void emit() { c = vec4(g[1]); EmitVertex(); }\n", NULL},
        {GM_STAGE_FRAGMENT, "#version 150\nin vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n", NULL},
    };
    gm_compile_result r;
    int rc = gm_compile_program(s, 4, &r);
    CHECKF(rc == 0, "%s", r.log);
    gm_compile_result_free(&r);
}

static void test_desktop_precision(void)
{
    static const char *const pairs[][2] = {
        {"#version 110\nuniform highp vec4 c;\nattribute vec4 p;\nvoid main() { gl_Position = p * c; }\n",
         "#version 110\nprecision mediump float;\nuniform mediump vec4 c;\nvoid main() { gl_FragColor = c; }\n"},
        {"#define MEDIUMP_OR_DEFAULT\nuniform MEDIUMP_OR_DEFAULT vec2 s;\nattribute vec2 p;\n"
         "void main() { gl_Position = vec4(p * s, 0.0, 1.0); }\n",
         "#ifdef GL_ES\nprecision highp float;\n#endif\n#define M mediump\nuniform M vec2 s;\n"
         "void main() { gl_FragColor = vec4(s, 0.0, 1.0); }\n"},
        {"#version 330 core\nuniform highp vec4 c;\nin vec4 p;\nvoid main() { gl_Position = p * c; }\n",
         "#version 330 core\nprecision lowp float;\nuniform lowp vec4 c;\nout vec4 o;\n"
         "void main() { o = c; }\n"},
    };
    for (unsigned i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        gm_shader_source s[2] = {{GM_STAGE_VERTEX, pairs[i][0], NULL}, {GM_STAGE_FRAGMENT, pairs[i][1], NULL}};
        gm_compile_result r;
        int rc = gm_compile_program(s, 2, &r);
        CHECKF(rc == 0, "pair %u: %s", i, r.log);
        gm_compile_result_free(&r);
    }
    /* Precision words in macros become empty macros; a `precision` without its ';' in a
     * #define blanks nothing after it. */
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_FRAGMENT, "#version 120\n#define H highp\n#define P precision\n"
                   "uniform H vec4 c;\nvoid main() { gl_FragColor = c; }\n", &r) == 0);
    gm_compile_result_free(&r);
    /* Below 1.30 Mesa takes the precision words for identifiers (piglit glsl-precision-110):
     * as names they are renamed, not blanked. */
    CHECK(compile1(GM_STAGE_FRAGMENT, "#version 110\nvoid main() {\n  float lowp = 1.0, highp;\n"
                   "  highp = lowp * 2.0;\n  gl_FragColor = vec4(0.0, lowp, highp, 0.0);\n}\n", &r) == 0);
    CHECK(r.shaders[0].compiled_source && strstr(r.shaders[0].compiled_source, "glr_u_lowp = 1.0") &&
          strstr(r.shaders[0].compiled_source, "vec4(0.0, glr_u_lowp, glr_u_highp"));
    gm_compile_result_free(&r);
    /* gl_DepthRange (every version; glslang has it only without SPIR-V): the pass declares
     * glr_DepthRange, fed from the viewport's depth range (gmf_ff_uniforms.c). */
    CHECK(compile1(GM_STAGE_FRAGMENT, "#version 140\nvoid main() {\n  gl_DepthRangeParameters d = "
                   "gl_DepthRange;\n  gl_FragColor = vec4(d.near, gl_DepthRange.far, d.diff, 1.0);\n}\n",
                   &r) == 0);
    CHECK(has_name(&r.shaders[0], "glr_DepthRange"));
    gm_compile_result_free(&r);
    /* Functions declared and called only where Mesa folds the call away (piglit
     * glsl-const-folding-01) link: glslang's linker gets bodies for them (gm_stub_functions.c),
     * appended after the last line. */
    CHECK(compile1(GM_STAGE_FRAGMENT, "#version 120\nvoid never(); /* not defined */\n"
                   "vec3 never2(in float a,\n int b);\nvoid main() {\n  gl_FragColor = vec4(1.0);\n"
                   "  if (degrees(0.0) != 0.0) { never(); gl_FragColor.xyz = never2(1.0, 2); }\n}\n",
                   &r) == 0);
    CHECK(has_opline(&r.shaders[0], 6));
    gm_compile_result_free(&r);
    /* ES keeps its qualifiers (they decide llvmpipe's 16-bit arithmetic). */
    gm_upgrade_info info;
    char err[128];
    char *up = gm_glsl_upgrade("#version 100\nprecision mediump float;\nuniform lowp vec4 c;\n"
                               "void main() { gl_FragColor = c; }\n", GM_STAGE_FRAGMENT, &info, err, sizeof err);
    CHECK(up && strstr(up, "precision mediump float;") && strstr(up, "lowp vec4 c"));
    free(up);
    gm_upgrade_info_free(&info);
}

/* glmark2's GLSL 1.10 shaders: glmark2 prepends #defines/consts; provide typical ones. */
static void test_glmark2(void)
{
    const char *dir = getenv("GLMARK2_SHADERS");
    if (!dir)
        dir = "/usr/share/glmark2/shaders";
    DIR *d = opendir(dir);
    if (!d) {
        printf("glmark2 shaders not found, skipped\n");
        return;
    }
    struct dirent *e;
    int tried = 0, ok = 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        int vs = n > 5 && strcmp(e->d_name + n - 5, ".vert") == 0;
        int fs = n > 5 && strcmp(e->d_name + n - 5, ".frag") == 0;
        if (!vs && !fs)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        char text[65536];
        size_t len = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[len] = 0;
        /* glmark2 fills $PLACEHOLDER$ templates and prepends #defines and consts before
         * glShaderSource: do the same with neutral values. */
        char body[65536];
        size_t bn = 0;
        for (size_t k = 0; k < len && bn + 1 < sizeof body; k++) {
            if (text[k] == '$') {
                const char *close = strchr(text + k + 1, '$');
                if (close) {
                    k = (size_t)(close - text);
                    continue;
                }
            }
            body[bn++] = text[k];
        }
        body[bn] = 0;
        char full[70000];
        snprintf(full, sizeof full,
                 "#define MEDIUMP_OR_DEFAULT mediump\n#define HIGHP_OR_DEFAULT highp\n"
                 "#define MAX_POINT_LIGHTS 1\n#define USE_FOG 0\n"
                 "const vec4 LightSourcePosition = vec4(1.0);\n"
                 "const vec4 MaterialDiffuse = vec4(1.0);\n"
                 "const vec3 LightSourceHalfVector = vec3(0.5);\nconst float RefractiveIndex = 1.2;\nconst float PI = 3.14159;\n"
                 "const float TextureStepX = 0.01;\nconst float TextureStepY = 0.01;\n"
                 "const vec2 TextureSize = vec2(256.0);\n%s", body);
        gm_shader_source s = {vs ? GM_STAGE_VERTEX : GM_STAGE_FRAGMENT, full, e->d_name};
        gm_compile_result r;
        tried++;
        if (gm_compile_program(&s, 1, &r) == 0) {
            ok++;
        } else if (getenv("GM_VERBOSE") || (strstr(r.log, "undeclared identifier") == NULL &&
                   strstr(r.log, "no matching overloaded") == NULL &&
                   strstr(r.log, "redefinition") == NULL)) {
            /* Anything but a missing glmark2-generated name is an upgrade bug. */
            fprintf(stderr, "%s:\n%s\n", e->d_name, r.log);
            CHECKF(0, "glmark2 shader %s", e->d_name);
        }
        gm_compile_result_free(&r);
    }
    closedir(d);
    printf("glmark2: %d of %d shaders compiled standalone\n", ok, tried);
    CHECK(ok == tried && tried > 60);
}

int main(void)
{
    test_versions();
    test_names_and_errors();
    test_line_count_kept();
    test_physical_lines();
    test_block_layouts();
    test_mediump();
    test_preprocessed();
    test_extensions();
    test_desktop_precision();
    test_gs_units_share_layout();
    test_geometry_compat();
    test_glmark2();
    TEST_DONE();
}
