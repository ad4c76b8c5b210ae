/* Unit test (pure C, no driver) of doubles in the frame layer and the debugger's display:
 *  - gm_type_desc.width is 64 for double scalars/vectors/matrices, 32 for float ones;
 *  - gmf_type_chunks gives a double varying its real words and locations: double and dvec2 one
 *    location (2 and 4 words), dvec3/dvec4 two (4 + 2 and 4 + 4 words, the second with
 *    dfirst 2), a dmat3 six (two per column), a double array one location per element;
 *  - shadow formats a 64-bit type as doubles (sh_format_value, sh_type_glsl), and a type added
 *    with width 0 stays 32-bit. */
#include <stdio.h>
#include <string.h>
#include "gmf_internal.h"
#include "shadow/shadow.h"

#define GLR_CHECK_MESSAGES   /* CHECK(cond, fmt, ...) */
#include "tests/support/glr_check.h"

static const char *vs =
    "#version 450 core\n"
    "layout(location = 0) in dvec4 dv;\n"
    "layout(location = 0) flat out dvec3 a;\n"
    "layout(location = 2) flat out double b;\n"
    "layout(location = 3) flat out dvec4 c;\n"
    "layout(location = 5) flat out dmat3 m;\n"
    "layout(location = 11) flat out dvec2 e[2];\n"
    "layout(location = 13) out vec3 g;\n"
    "void main() { a = dv.xyz; b = dv.w; c = dv; m = dmat3(dv.x); e[0] = dv.xy; e[1] = dv.zw;\n"
    "  g = vec3(dv.xyz); gl_Position = vec4(0.0); }\n";
static const char *fs =
    "#version 450 core\n"
    "layout(location = 0) flat in dvec3 a;\n"
    "layout(location = 2) flat in double b;\n"
    "layout(location = 3) flat in dvec4 c;\n"
    "layout(location = 5) flat in dmat3 m;\n"
    "layout(location = 11) flat in dvec2 e[2];\n"
    "layout(location = 13) in vec3 g;\n"
    "out vec4 o;\n"
    "void main() { o = vec4(a.x + b + c.w + m[2].z + e[1].y) + vec4(g, 0.0); }\n";

static void chunks_of(const gm_program *p, const char *name, gmf_chunk *ch, int *n)
{
    int v = gm_program_find_var(p, name, GM_VAR_INPUT);
    *n = 0;
    CHECK(v >= 0, "input %s not found", name);
    if (v < 0)
        return;
    const gm_var_info *vi = gm_program_var(p, v);
    int loc = vi->location;
    CHECK(gmf_type_chunks(p, v, vi->type, 0, &loc, vi->component, ch, n, 16) == 0,
          "chunks of %s", name);
}

/* Expected chunks as (word, words, location, dfirst) quadruples. */
static void expect(const gm_program *p, const char *name, int count, const int (*want)[4])
{
    gmf_chunk ch[16];
    int n;
    chunks_of(p, name, ch, &n);
    CHECK(n == count, "%s: %d chunks, expected %d", name, n, count);
    for (int i = 0; i < n && i < count; i++) {
        CHECK(ch[i].word == want[i][0] && ch[i].n == want[i][1] && ch[i].location == want[i][2] &&
              ch[i].dfirst == want[i][3] && ch[i].is64,
              "%s chunk %d: word %d n %d loc %d dfirst %d is64 %d, expected %d %d %d %d", name, i,
              ch[i].word, ch[i].n, ch[i].location, ch[i].dfirst, ch[i].is64, want[i][0],
              want[i][1], want[i][2], want[i][3]);
    }
}

static void test_chunks(void)
{
    gm_shader_source src[2] = { { GM_STAGE_VERTEX, vs, "t.vert" }, { GM_STAGE_FRAGMENT, fs, "t.frag" } };
    gm_compile_result cr;
    memset(&cr, 0, sizeof cr);
    int rc = gm_compile_program(src, 2, &cr);
    CHECK(rc == 0 && cr.ok, "compile: %s", cr.log ? cr.log : "");
    if (rc != 0 || !cr.ok) {
        gm_compile_result_free(&cr);
        return;
    }
    gm_program *p = NULL;
    for (int i = 0; i < cr.shader_count; i++)
        if (cr.shaders[i].stage == GM_STAGE_FRAGMENT) {
            char err[256] = "";
            p = gm_program_create(cr.shaders[i].spirv, cr.shaders[i].word_count, err, sizeof err);
            CHECK(p != NULL, "FS program: %s", err);
        }
    if (p) {
        static const int a[][4] = { { 0, 4, 0, 0 }, { 4, 2, 1, 2 } };
        static const int b[][4] = { { 0, 2, 2, 0 } };
        static const int c[][4] = { { 0, 4, 3, 0 }, { 4, 4, 4, 2 } };
        static const int m[][4] = { { 0, 4, 5, 0 }, { 4, 2, 6, 2 }, { 6, 4, 7, 0 },
                                    { 10, 2, 8, 2 }, { 12, 4, 9, 0 }, { 16, 2, 10, 2 } };
        static const int e[][4] = { { 0, 4, 11, 0 }, { 4, 4, 12, 0 } };
        expect(p, "a", 2, a);
        expect(p, "b", 1, b);
        expect(p, "c", 2, c);
        expect(p, "m", 6, m);
        expect(p, "e", 2, e);
        gmf_chunk ch[16];
        int n;
        chunks_of(p, "g", ch, &n);
        CHECK(n == 1 && ch[0].n == 3 && ch[0].location == 13 && !ch[0].is64, "g: %d chunks", n);
        gm_type_desc t;
        int v = gm_program_find_var(p, "c", GM_VAR_INPUT);
        CHECK(v >= 0 && gm_type_get(p, gm_program_var(p, v)->type, &t) == 0 && t.width == 64 &&
              t.components == 8 && t.rows == 4, "dvec4 desc: width %d components %d", t.width,
              t.components);
        v = gm_program_find_var(p, "g", GM_VAR_INPUT);
        CHECK(v >= 0 && gm_type_get(p, gm_program_var(p, v)->type, &t) == 0 && t.width == 32,
              "vec3 desc: width %d", t.width);
        gm_program_destroy(p);
    }
    gm_compile_result_free(&cr);
}

static void test_shadow_doubles(void)
{
    sh_builder *b = sh_builder_new();
    int td = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .rows = 1, .columns = 1,
                                                .element = -1, .components = 2, .width = 64 });
    int tv = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 3, .columns = 1,
                                                .element = td, .components = 6, .width = 64 });
    int tm = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_MATRIX, .rows = 2, .columns = 2,
                                                .element = -1, .components = 8, .width = 64 });
    int tf = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_VECTOR, .rows = 2, .columns = 1,
                                                .element = -1, .components = 2 });
    int ti = sh_builder_add_type(b, &(sh_type){ .kind = SH_TYPE_SCALAR, .scalar = SH_SCALAR_INT,
                                                .rows = 1, .columns = 1, .element = -1,
                                                .components = 2, .width = 64 });
    char err[128];
    sh_snapshot *s = sh_builder_finish(b, err, sizeof err);
    CHECK(s != NULL, "snapshot: %s", err);
    if (!s)
        return;
    double d[4] = { 7071069.2689717831, 0.1, -2.5, 1e-300 };
    uint32_t w[8];
    memcpy(w, d, sizeof d);   /* little endian: low word first, as the model keeps doubles */
    char buf[256], tn[64];
    CHECK(!strcmp(sh_format_value(s, td, w, buf, sizeof buf), "7071069.2689717831"), "double: %s", buf);
    CHECK(!strcmp(sh_type_glsl(s, td, tn, sizeof tn), "double"), "double type: %s", tn);
    CHECK(!strcmp(sh_format_value(s, tv, w, buf, sizeof buf),
                  "dvec3(7071069.2689717831, 0.10000000000000001, -2.5)"), "dvec3: %s", buf);
    CHECK(!strcmp(sh_type_glsl(s, tm, tn, sizeof tn), "dmat2"), "dmat2 type: %s", tn);
    CHECK(!strcmp(sh_format_value(s, tm, w, buf, sizeof buf),
                  "dmat2(7071069.2689717831, 0.10000000000000001, -2.5, 1e-300)"),
          "dmat2: %s", buf);
    float f[2] = { 0.5f, 2.0f };
    memcpy(w, f, sizeof f);
    CHECK(!strcmp(sh_format_value(s, tf, w, buf, sizeof buf), "vec2(0.5, 2)"), "vec2: %s", buf);
    /* 64-bit integers are kept since GL_ARB_gpu_shader_int64 is modelled (they were refused) */
    CHECK(sh_snapshot_type(s, tf)->width == 32 && sh_snapshot_type(s, ti)->width == 64,
          "widths: float %d, int64 %d", sh_snapshot_type(s, tf)->width, sh_snapshot_type(s, ti)->width);
    int64_t i64[2] = { -5000000000ll, 7 };
    memcpy(w, i64, sizeof i64);
    CHECK(!strcmp(sh_format_value(s, ti, w, buf, sizeof buf), "-5000000000"), "int64: %s", buf);
    sh_snapshot_unref(s);
}

int main(void)
{
    test_chunks();
    test_shadow_doubles();
    if (failures) {
        printf("%d failure(s)\n", failures);
        return 1;
    }
    printf("fp64 unit: all checks passed\n");
    return 0;
}
