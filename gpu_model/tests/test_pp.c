/* The upgrade pass's analysis preprocessor (frontend/gm_pp.c): line classification,
 * conditionals with expressions, object- and function-like macro expansion, predefined
 * macros, #extension records, and bounded work on hostile input. */
#include "frontend/gm_pp.h"
#include "gm_test.h"

#include <string.h>

/* The expanded active text as one string, tokens separated by single spaces. */
static void expanded(const gm_pp_result *r, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (size_t i = 0; i < r->expanded_count && n + r->expanded[i].len + 2 < size; i++) {
        if (n)
            buf[n++] = ' ';
        memcpy(buf + n, r->expanded[i].s, r->expanded[i].len);
        n += r->expanded[i].len;
        buf[n] = 0;
    }
}

static int analyse(const char *src, int version, int es, const char *profile, gm_pp_result *r, char *buf,
                   size_t size)
{
    int rc = gm_pp_analyse(src, version, es, profile, r);
    CHECK(rc == 0);
    if (rc == 0)
        expanded(r, buf, size);
    return rc;
}

static void test_conditionals(void)
{
    static const struct {
        const char *src;
        int version, es;
        const char *profile, *want;
    } cases[] = {
        {"#if 0\na\n#else\nb\n#endif\n", 110, 0, "", "b"},
        {"#if 1\na\n#elif 1\nb\n#else\nc\n#endif\n", 110, 0, "", "a"},
        {"#if 0\na\n#elif 2 > 1 && (3 << 2) == 12\nb\n#else\nc\n#endif\n", 110, 0, "", "b"},
        {"#define X 3\n#if X * 2 == 6 ? 1 : 0\nyes\n#endif\n", 110, 0, "", "yes"},
        {"#ifdef GL_ES\nes\n#else\ndesk\n#endif\n", 100, 1, "", "es"},
        {"#ifdef GL_ES\nes\n#else\ndesk\n#endif\n", 120, 0, "", "desk"},
        {"#if __VERSION__ >= 130\nnew\n#else\nold\n#endif\n", 120, 0, "", "old"},
        {"#if defined(GL_ARB_gpu_shader_fp64) && !defined UNDEF\next\n#endif\n", 150, 0, "", "ext"},
        {"#ifdef GL_compatibility_profile\ncompat\n#endif\n#ifdef GL_core_profile\ncore\n#endif\n",
         150, 0, "compatibility", "compat"},
        {"#ifdef GL_core_profile\ncore\n#endif\n", 330, 0, "", "core"},
        {"#if 0\n#if 1\na\n#else\nb\n#endif\n#elif 1\nc\n#endif\n", 110, 0, "", "c"},
        {"#ifndef A\n#define A\nfirst\n#endif\n#ifndef A\nsecond\n#endif\n", 110, 0, "", "first"},
        {"#define A 1\n#undef A\n#ifdef A\nx\n#else\ny\n#endif\n", 110, 0, "", "y"},
        /* malformed expressions and division by zero are errors in the driver: not taken */
        {"#if 1 / 0\na\n#else\nb\n#endif\n", 110, 0, "", "b"},
        {"#if (1\na\n#endif\nz\n", 110, 0, "", "z"},
        {"#if UNDEFINED_NAME\na\n#endif\n#if __LINE__ == 4\nline\n#endif\n", 110, 0, "", "line"},
        /* comments vanish, even ones hiding directives */
        {"/* #if 0 */ a // #endif\n/*\n#else\n*/ b\n", 110, 0, "", "a b"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_pp_result r;
        char buf[512];
        if (analyse(cases[i].src, cases[i].version, cases[i].es, cases[i].profile, &r, buf, sizeof buf) == 0) {
            CHECKF(!strcmp(buf, cases[i].want), "case %u: '%s', want '%s'", i, buf, cases[i].want);
            gm_pp_free(&r);
        }
    }
}

static void test_line_kinds(void)
{
    const char *src = "#version 110\n#define A \\\n  1\ncode\n#if A\nyes\n#else\nno\n#endif\n"
                      "#extension GL_ARB_gpu_shader_fp64 : require\n#if 0\n#extension GL_X : enable\n#endif\n";
    static const unsigned char want[] = {GM_PP_DIRECTIVE, GM_PP_DIRECTIVE, GM_PP_DIRECTIVE, GM_PP_CODE,
                                         GM_PP_CONDITIONAL, GM_PP_CODE, GM_PP_CONDITIONAL, GM_PP_INACTIVE,
                                         GM_PP_CONDITIONAL, GM_PP_DIRECTIVE, GM_PP_CONDITIONAL,
                                         GM_PP_INACTIVE, GM_PP_CONDITIONAL, GM_PP_CODE};
    gm_pp_result r;
    char buf[256];
    if (analyse(src, 110, 0, "", &r, buf, sizeof buf) != 0)
        return;
    CHECKF(r.line_count == 14, "%d lines", r.line_count);
    for (int l = 0; l < r.line_count && l < 14; l++)
        CHECKF(r.kind[l] == want[l], "line %d: kind %d, want %d", l + 1, r.kind[l], want[l]);
    CHECKF(!strcmp(buf, "code yes"), "%s", buf);
    /* Only the active #extension is recorded. */
    CHECK(r.ext_count == 1 && !strcmp(r.ext[0].name, "GL_ARB_gpu_shader_fp64") &&
          r.ext[0].behavior == GM_PP_REQUIRE && r.ext[0].line == 10);
    /* The clean text keeps every byte offset and newline of the source. */
    CHECK(strlen(r.clean) == strlen(src));
    gm_pp_free(&r);
}

static void test_macros(void)
{
    static const struct {
        const char *src, *want;
    } cases[] = {
        {"#define gl_FragColor out_Color\ngl_FragColor = c;\n", "out_Color = c ;"},
        {"#define OUT gl_FragColor\nOUT = c;\n", "gl_FragColor = c ;"},
        {"#define W(x, y) gl_FragData[x] = y\nW(1, vec4(0.0, 1.0, 0.0, 1.0));\n",
         "gl_FragData [ 1 ] = vec4 ( 0.0 , 1.0 , 0.0 , 1.0 ) ;"},
        /* arguments expanded first; nested invocation; rescan with the text that follows */
        {"#define ONE 1\n#define F(a) a + a\nF(ONE) F(F(2))\n", "1 + 1 2 + 2 + 2 + 2"},
        {"#define G(x) [x]\n#define H G\nH(3)\n", "[ 3 ]"},
        /* a function-like macro name without '(' is not an invocation; space before '(' in the
         * definition makes it object-like */
        {"#define F(a) a\n#define O (b)\nF; O\n", "F ; ( b )"},
        /* self reference and mutual recursion stop */
        {"#define a a + 1\n#define x y\n#define y x\na x\n", "a + 1 x"},
        /* multi-line invocation */
        {"#define S(a, b) a * b\nS(2,\n  3)\n", "2 * 3"},
        {"#define V __VERSION__\nV\n", "140"},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_pp_result r;
        char buf[512];
        if (analyse(cases[i].src, 140, 0, "", &r, buf, sizeof buf) == 0) {
            CHECKF(!strcmp(buf, cases[i].want), "case %u: '%s', want '%s'", i, buf, cases[i].want);
            CHECK(r.complete);
            gm_pp_free(&r);
        }
    }
}

static void test_eval(void)
{
    static const struct {
        const char *expr;
        int want;
    } cases[] = {
        {"1 + 2 * 3 == 7", 1}, {"(1 + 2) * 3 == 9", 1}, {"-1 < 0", 1}, {"~0 == -1", 1},
        {"!0 && !!5", 1}, {"0x10 == 16 && 010 == 8", 1}, {"7 % 4 == 3", 1}, {"1 ? 0 : 1", 0},
        {"1 || 1 / 0", -1}, {"1.5", -1}, {"", -1}, {"(", -1}, {"1 2", -1},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gm_pp_token t[32];
        size_t n = 0;
        for (const char *p = cases[i].expr; *p && n < 32;) {
            if (*p == ' ') {
                p++;
                continue;
            }
            size_t l = 1;
            if (strchr("0123456789", *p))
                while (strchr("0123456789xabcdefABCDEF.", p[l]) && p[l])
                    l++;
            else if (strchr("=<>!&|", *p) && strchr("=<>&|", p[1]) && p[1])
                l = 2;
            t[n++] = (gm_pp_token){p, (unsigned)l};
            p += l;
        }
        int v = gm_pp_eval(t, n);
        CHECKF(v == cases[i].want, "'%s': %d, want %d", cases[i].expr, v, cases[i].want);
    }
}

/* Untrusted input: an exponential macro bomb stops at the work limit, flagged incomplete (the
 * test's timeout catches a hang); deep nesting and broken directives are taken. */
static void test_limits(void)
{
    char src[4096];
    size_t n = (size_t)snprintf(src, sizeof src, "#define A0 x x\n");
    for (int k = 1; k < 40; k++)
        n += (size_t)snprintf(src + n, sizeof src - n, "#define A%d A%d A%d\n", k, k - 1, k - 1);
    snprintf(src + n, sizeof src - n, "A39\n");
    gm_pp_result r;
    CHECK(gm_pp_analyse(src, 110, 0, "", &r) == 0);
    CHECK(!r.complete);
    gm_pp_free(&r);
    char deep[8192];
    n = 0;
    for (int k = 0; k < 600; k++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, "#if 1\n");
    snprintf(deep + n, sizeof deep - n, "a\n#endif\n#endif\n#else\n#elif\n");
    CHECK(gm_pp_analyse(deep, 110, 0, "", &r) == 0);
    gm_pp_free(&r);
    CHECK(gm_pp_analyse("#define F(a,b) F(a\nF(F(F(\n#define\n#\n#if\n#elif\n\\", 110, 0, "", &r) == 0);
    gm_pp_free(&r);
}

int main(void)
{
    test_conditionals();
    test_line_kinds();
    test_macros();
    test_eval();
    test_limits();
    TEST_DONE();
}
