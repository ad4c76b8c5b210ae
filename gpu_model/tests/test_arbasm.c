/* arbasm: ARB assembly -> GLSL. Line correspondence, instruction semantics run on the model
 * (Mesa's definitions), errors on bad input, and every ARB program of piglit's corpus translated
 * and compiled through the model's GLSL front end. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "arbasm/arbasm.h"
#include "gm_rig.h"

static char *translate(const char *src, arbasm_result *r)
{
    arbasm_options o = { .no_color_clamp = true };   /* the semantics checks read raw values */
    if (arbasm_translate(src, strlen(src), &o, r) != 0) {
        fprintf(stderr, "translate: %s\n", r->error);
        return NULL;
    }
    return r->glsl;
}

/* Lines up to the last non-empty one. */
static int count_lines(const char *s)
{
    int n = 1, last = 0;
    for (; *s; s++) {
        if (*s == '\n')
            n++;
        else if (*s != ' ' && *s != '\r' && *s != '\t')
            last = n;
    }
    return last;
}

static const char *line_of(const char *s, int line, char *buf, size_t n)
{
    for (int l = 1; l < line && s; l++)
        if ((s = strchr(s, '\n')))
            s++;
    if (!s)
        return "";
    size_t k = strcspn(s, "\n");
    snprintf(buf, n, "%.*s", (int)k, s);
    return buf;
}

/* Each instruction's statement is on the instruction's own line. */
static void test_lines(void)
{
    const char *src =
        "!!ARBvp1.0\n"
        "# comment line\n"
        "TEMP t, u;\n"
        "PARAM mvp[4] = { state.matrix.mvp };\n"
        "DP4 t.x, mvp[0], vertex.position;\n"
        "\n"
        "DP4 t.y, mvp[1], vertex.position; DP4 t.z, mvp[2], vertex.position;\n"
        "DP4 t.w, mvp[3], vertex.position;\n"
        "MOV result.position, t;\n"
        "RSQ u, -t.w;\n"
        "END\n";
    arbasm_result r;
    const char *g = translate(src, &r);
    CHECK(g != NULL);
    if (!g)
        return;
    char buf[4096];
    CHECKF(count_lines(g) == count_lines(src), "%d lines for %d\n%s", count_lines(g), count_lines(src), g);
    CHECK(strstr(line_of(g, 1, buf, sizeof buf), "void main()") != NULL);
    CHECK(strstr(line_of(g, 4, buf, sizeof buf), "dot") == NULL);   /* declaration lines hold no code */
    CHECKF(strstr(line_of(g, 5, buf, sizeof buf), "t.x = (vec4(dot(mvp[0], gl_Vertex))).x;") != NULL, "%s", buf);
    line_of(g, 7, buf, sizeof buf);
    CHECKF(strstr(buf, "t.y =") && strstr(buf, "t.z ="), "%s", buf);
    CHECK(strstr(line_of(g, 6, buf, sizeof buf), "=") == NULL);
    CHECK(strstr(line_of(g, 10, buf, sizeof buf), "inversesqrt(abs(") != NULL);
    CHECK(strstr(line_of(g, 11, buf, sizeof buf), "gl_Position = result_position;") != NULL);
    CHECK(r.instructions == 6);
    gm_rig rig;
    CHECK(rig_init(&rig, GM_STAGE_VERTEX, g) == 0);
    rig_free(&rig);
    arbasm_result_free(&r);
}

/* Runs a vertex program on lanes 0..n-1 with gl_Vertex = in[lane] and program.local[0..3] =
 * loc; returns result.color (gl_FrontColor) of each lane in out. */
static int run_vp(const char *src, int n, const float in[][4], const float loc[4][4], float out[][4])
{
    arbasm_result r;
    const char *g = translate(src, &r);
    if (!g)
        return -1;
    gm_rig rig;
    if (rig_init(&rig, GM_STAGE_VERTEX, g) != 0) {
        arbasm_result_free(&r);
        return -1;
    }
    int u = gm_program_find_uniform(rig.p, "arb_vp_local");
    if (u >= 0 && loc)
        gm_program_set_uniform(rig.p, u, 0, gm_program_uniform(rig.p, u)->array_size, loc);
    for (int l = 0; l < n; l++)
        for (int c = 0; c < 4; c++) {
            rig_setf(&rig, "glr_Vertex", c, l, in[l][c]);
            if (gm_program_find_var(rig.p, "glr_Color", GM_VAR_INPUT) >= 0)
                rig_setf(&rig, "glr_Color", c, l, in[l][(c + 1) & 3]);
        }
    int rc = rig_run(&rig, (1u << n) - 1);
    for (int l = 0; l < n; l++)
        for (int c = 0; c < 4; c++)
            out[l][c] = rig_outf(&rig, "glr_FrontColor", c, l);
    rig_free(&rig);
    arbasm_result_free(&r);
    return rc;
}

#define VP(body) "!!ARBvp1.0\nTEMP t;\n" body "\nMOV result.color, t;\nMOV result.position, vertex.position;\nEND\n"

static void expect4(const char *what, const float got[4], float x, float y, float z, float w)
{
    float want[4] = { x, y, z, w };
    for (int c = 0; c < 4; c++)
        CHECKF(feq(got[c], want[c], 1e-5f), "%s: component %d = %g, want %g", what, c, got[c], want[c]);
}

static void test_semantics(void)
{
    float in[4][4] = { { -4, 2, 0.5, 3 }, { 8, -1, 2, 0 }, { 0.25, 3, -2, 1 }, { -1.5, 0, 4, 2 } };
    float out[4][4];
    float loc[4][4] = { { 2, 0, 0, 0 }, { 10, 20, 30, 40 }, { 11, 21, 31, 41 }, { 12, 22, 32, 42 } };
    /* RSQ on |x| (Mesa), RCP, EX2, LG2 on x */
    CHECK(run_vp(VP("RSQ t.x, vertex.position.x; RCP t.y, vertex.position.y; EX2 t.z, vertex.position.w; "
                    "LG2 t.w, vertex.position.z;"), 1, in, NULL, out) == 0);
    expect4("RSQ/RCP/EX2/LG2", out[0], 0.5f, 0.5f, 8.0f, -1.0f);
    /* LIT: y = max(x, 0), z = x > 0 ? max(y,0)^clamp(w,-128,128) : 0 */
    CHECK(run_vp(VP("LIT t, vertex.position;"), 2, in, NULL, out) == 0);
    expect4("LIT x<0", out[0], 1, 0, 0, 1);
    CHECK(run_vp(VP("LIT t, {2, 0.5, 0, 4};"), 1, in, NULL, out) == 0);
    expect4("LIT x>0", out[0], 1, 2, 0.0625f, 1);
    /* EXP / LOG (vertex program only) */
    CHECK(run_vp(VP("EXP t, vertex.position.w;"), 1, in, NULL, out) == 0);
    expect4("EXP", out[0], 8, 0, 8, 1);
    CHECK(run_vp(VP("LOG t, vertex.position.x;"), 1, in, NULL, out) == 0);
    expect4("LOG |x|", out[0], 2, 1, 2, 1);
    /* SLT / SGE, DST, XPD, SWZ, DPH, negation, write masks */
    CHECK(run_vp(VP("SLT t, vertex.position, 0.5;"), 1, in, NULL, out) == 0);
    expect4("SLT", out[0], 1, 0, 0, 0);
    CHECK(run_vp(VP("SGE t, vertex.position, {0.5, 2, 1, 3};"), 1, in, NULL, out) == 0);
    expect4("SGE", out[0], 0, 1, 0, 1);
    CHECK(run_vp(VP("DST t, vertex.position, vertex.position.wzyx;"), 1, in, NULL, out) == 0);
    expect4("DST", out[0], 1, 2 * 0.5f, 0.5f, -4);
    CHECK(run_vp(VP("XPD t, vertex.position, {0, 0, 1, 7};"), 1, in, NULL, out) == 0);
    expect4("XPD", out[0], 2, 4, 0, 1);
    CHECK(run_vp(VP("SWZ t, vertex.position, -w, 1, 0, -x;"), 1, in, NULL, out) == 0);
    expect4("SWZ", out[0], -3, 1, 0, 4);
    CHECK(run_vp(VP("MOV t, {9, 9, 9, 9}; MOV t.yw, -vertex.position.x;"), 1, in, NULL, out) == 0);
    expect4("mask", out[0], 9, 4, 9, 4);
    CHECK(run_vp(VP("DPH t, vertex.position, {1, 1, 1, 10};"), 1, in, NULL, out) == 0);
    expect4("DPH", out[0], 8.5f, 8.5f, 8.5f, 8.5f);
    CHECK(run_vp(VP("POW t, vertex.position.y, vertex.position.w;"), 1, in, NULL, out) == 0);
    expect4("POW", out[0], 8, 8, 8, 8);
    /* ARL and relative addressing into a PARAM array over program.local */
    CHECK(run_vp("!!ARBvp1.0\nTEMP t;\nADDRESS a;\nPARAM v[4] = { program.local[0..3] };\n"
                 "ARL a.x, program.local[0].x;\nMOV t, v[a.x + 1];\nMOV result.color, t;\n"
                 "MOV result.position, vertex.position;\nEND\n", 1, in, loc, out) == 0);
    expect4("ARL", out[0], 12, 22, 32, 42);
    /* piglit's sub_with_swizzle: PARAM from program.local, vertex.color.primary with a swizzle */
    CHECK(run_vp("!!ARBvp1.0\nPARAM p1 = program.local[1];\nMOV result.position, vertex.position;\n"
                 "SUB result.color, p1.yxwz, vertex.color.primary.yxwz;\nEND\n", 1, in, loc, out) == 0);
    expect4("SUB swizzled", out[0], 19.5f, 8, 44, 27);
    /* ALIAS, OUTPUT, ATTRIB */
    CHECK(run_vp("!!ARBvp1.0\nATTRIB p = vertex.position;\nOUTPUT c = result.color;\nTEMP t;\n"
                 "ALIAS s = t;\nADD s, p, p;\nMOV c, t;\nMOV result.position, p;\nEND\n", 1, in, NULL, out) == 0);
    expect4("ALIAS", out[0], -8, 4, 1, 6);
}

/* Vertex colour outputs are clamped as llvmpipe does it: +inf -> 1, -inf -> 0, NaN -> 1. */
static void test_color_clamp(void)
{
    const char *src = "!!ARBvp1.0\nTEMP t;\nRCP t.x, vertex.position.x;\nRCP t.y, -vertex.position.x;\n"
                      "MUL t.z, t.x, vertex.position.x;\nMOV t.w, 0.5;\nMOV result.color, t;\n"
                      "MOV result.position, vertex.position;\nEND\n";
    arbasm_result r;
    CHECK(arbasm_translate(src, strlen(src), NULL, &r) == 0);
    gm_rig rig;
    if (!r.glsl || rig_init(&rig, GM_STAGE_VERTEX, r.glsl) != 0) {
        CHECK(0);
        arbasm_result_free(&r);
        return;
    }
    for (int c = 0; c < 4; c++)
        rig_setf(&rig, "glr_Vertex", c, 0, 0.0f);   /* 1/0 = +inf, -1/0 = -inf, inf * 0 = NaN */
    CHECK(rig_run(&rig, 1) == 0);
    float got[4];
    for (int c = 0; c < 4; c++)
        got[c] = rig_outf(&rig, "glr_FrontColor", c, 0);
    expect4("colour clamp", got, 1.0f, 0.0f, 1.0f, 0.5f);
    CHECK(got[2] == got[2]);   /* not NaN */
    rig_free(&rig);
    arbasm_result_free(&r);
}

static void test_errors(void)
{
    static const char *const bad[] = {
        "", "!!ARBvp1.0", "!!ARBvp1.0\nMOV result.color, t;\nEND", "!!ARBvp1.0\nFOO r, r;\nEND",
        "!!ARBfp1.0\nTEMP t;\nARL t.x, t.x;\nEND", "!!ARBvp1.0\nTEMP t;\nMOV t.xq, t;\nEND",
        "!!ARBvp1.0\nPARAM p[2] = { 1, 2, 3 };\nEND", "!!ARBvp1.0\nTEMP a, a;\nEND",
        "!!ARBvp1.0\nTEMP t;\nMOV t, state.matrix.palette[1].row[0];\nEND",
        "!!ARBfp1.0\nTEMP t;\nTEX t, t, texture[0], 2D;\nTEX t, t, texture[0], CUBE;\nEND",
        "!!ARBvp1.0 \x01\xff", "!!ARBfp1.0\nTEMP t;\nMOV t, {1,2,3,4,5};\nEND",
        "!!ARBvp1.0\nOPTION NV_vertex_program2;\nEND", "not a program",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        arbasm_result r;
        CHECKF(arbasm_translate(bad[i], strlen(bad[i]), NULL, &r) != 0 && r.error[0] && !r.glsl,
               "bad program %zu accepted", i);
        arbasm_result_free(&r);
    }
    /* a feature the model lacks is told apart from an invalid program (which GL refuses too) */
    arbasm_result u;
    const char *pal = "!!ARBvp1.0\nTEMP t;\nMOV t, state.matrix.palette[1].row[0];\nEND";
    CHECK(arbasm_translate(pal, strlen(pal), NULL, &u) != 0 && u.unsupported);
    const char *bad_op = "!!ARBvp1.0\nFOO r, r;\nEND";
    CHECK(arbasm_translate(bad_op, strlen(bad_op), NULL, &u) != 0 && !u.unsupported && u.error_line == 2);
    /* the length bounds the text: no NUL needed */
    const char txt[] = "!!ARBvp1.0\nEND\nGARBAGE";
    arbasm_result r;
    CHECK(arbasm_translate(txt, 14, NULL, &r) == 0);
    arbasm_result_free(&r);
}

/* piglit's corpus: every [vertex program] / [fragment program] section of every .shader_test. */
static int n_total, n_translated, n_compiled;

static void try_program(const char *path, const char *text)
{
    n_total++;
    arbasm_result r;
    arbasm_options o = { 0 };
    if (arbasm_translate(text, strlen(text), &o, &r) != 0) {
        /* Features the model does not have (vertex blending, NV options) are refused by name;
         * anything else is a translator bug. */
        bool known = strstr(r.error, "not modelled") || strstr(r.error, "not supported");
        CHECKF(known, "%s: %s", path, r.error);
        printf("  refused: %s: %s\n", path, r.error);
        return;
    }
    n_translated++;
    gm_shader_source s = { r.stage == ARBASM_VERTEX ? GM_STAGE_VERTEX : GM_STAGE_FRAGMENT, r.glsl, path };
    gm_compile_result cr;
    if (gm_compile_program(&s, 1, &cr) == 0) {
        n_compiled++;
        CHECKF(count_lines(r.glsl) == count_lines(text), "%s: %d GLSL lines for %d", path,
               count_lines(r.glsl), count_lines(text));
    } else {
        CHECKF(0, "%s does not compile:\n%s\n%s", path, cr.log, r.glsl);
    }
    gm_compile_result_free(&cr);
    arbasm_result_free(&r);
}

static void scan_file(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[4096];
    char *prog = NULL;
    size_t len = 0, cap = 0;
    bool in = false;
    for (;;) {
        bool eof = !fgets(line, sizeof line, f);
        bool header = !eof && line[0] == '[';
        if ((eof || header) && in) {
            prog[len] = 0;
            try_program(path, prog);
            in = false;
        }
        if (eof)
            break;
        if (header) {
            in = !strncmp(line, "[vertex program]", 16) || !strncmp(line, "[fragment program]", 18);
            len = 0;
            continue;
        }
        if (in) {
            size_t n = strlen(line);
            if (len + n + 1 > cap) {
                cap = (len + n + 1) * 2;
                char *np = realloc(prog, cap);
                if (!np)
                    break;
                prog = np;
            }
            memcpy(prog + len, line, n);
            len += n;
        }
    }
    free(prog);
    fclose(f);
}

static void scan_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            scan_dir(path);
        else if (strlen(e->d_name) > 12 && !strcmp(e->d_name + strlen(e->d_name) - 12, ".shader_test"))
            scan_file(path);
    }
    closedir(d);
}

int main(void)
{
    test_lines();
    test_semantics();
    test_color_clamp();
    test_errors();
    const char *spec = getenv("PIGLIT_SPEC");
    if (spec && *spec) {
        scan_dir(spec);
        printf("piglit ARB programs: %d found, %d translated, %d compiled\n", n_total, n_translated, n_compiled);
        CHECKF(n_total > 0, "no ARB program under %s", spec);
    }
    TEST_DONE();
}
